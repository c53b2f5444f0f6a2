//! `Text`: variants h1–h5 / caption / body on the reference's type scale (see
//! [`Style`](crate::render::Style)), with a Markdown subset (see
//! [`markdown`](crate::render::markdown)). Links only emit
//! [`Event::OpenUrl`](crate::action::Event::OpenUrl) when clicked, and only for `http`/`https`.

use crate::catalog::ComponentRenderer;
use crate::catalog::Incoming;
use crate::render::ComponentContext;
use crate::render::markdown::{BaseStyle, Block, blocks_ui, parse_cached};

/// The Markdown heading marker the web renderer puts before the text of a heading
/// variant (`h2` → `##`), or `None` for the other variants.
fn heading_marker(variant: &str) -> Option<&'static str> {
    match variant {
        "h1" => Some("#"),
        "h2" => Some("##"),
        "h3" => Some("###"),
        "h4" => Some("####"),
        "h5" => Some("#####"),
        _ => None,
    }
}

/// Texts up to this long report their min-content width (the longest word) to rows.
const MIN_CONTENT_CHARS: usize = 2_000;

/// What a `Text` node derives from its resolved string.
#[derive(Clone)]
struct TextEntry {
    /// Its Markdown blocks.
    blocks: std::sync::Arc<Vec<Block>>,
    /// Its measured widths, for the font they were measured in.
    min_content: Option<TextWidths>,
}

/// A `Text`'s widths in one font: measured once per string and font rather than every
/// frame (each is a text layout).
#[derive(Clone, Debug, PartialEq)]
struct TextWidths {
    /// The font they were measured in.
    font: egui::FontId,
    /// The unwrapped width (CSS max-content), markers and indents included.
    widest: f32,
    /// The width of the longest word (CSS min-content).
    longest_word: f32,
}

/// The `Text` component. Like the reference's blocks (`<p>`, `<h1>`…), a text in a
/// stretched column takes the column's width (its glyphs stay left-aligned in it); a
/// caption is inline and keeps its own width.
pub struct Text;

impl ComponentRenderer for Text {
    fn ui(&self, ui: &mut egui::Ui, cx: &mut ComponentContext<'_, '_>) -> egui::Response {
        if cx.version() == crate::protocol::Version::V1_0 && cx.is_pending("text") {
            // The text waits for an agent function response. A static mark rather than a
            // spinner, so a waiting surface does not repaint every frame.
            return ui.weak("…").on_hover_text("Waiting for the agent");
        }
        let marker = heading_marker(cx.literal_str("variant").unwrap_or("body"));
        let entry = cx.memo("text", |text| TextEntry {
            blocks: match marker {
                // As the web renderer: a heading variant's text is the content of a
                // Markdown heading (`## ` + text), so a `#` the agent wrote stays text.
                Some(marker) => parse_cached(ui.ctx(), &format!("{marker} {text}")),
                None => parse_cached(ui.ctx(), &text),
            },
            min_content: None,
        });
        let variant = cx.literal_str("variant").unwrap_or("body");
        let step = cx.style().text(variant);
        let is_caption = variant == "caption";
        let base = BaseStyle {
            size: step.size,
            body_size: cx.style().body.size,
            strong: step.bold,
            line_height: Some(step.line_height),
            // A caption's several lines are `line-height: 1.5` apart (the body text's factor).
            lines_height: is_caption
                .then(|| step.size * cx.style().body.line_height / cx.style().body.size.max(1.0)),
            italic: step.italic,
        };
        let blocks = &entry.blocks;
        let incoming = Incoming::of(ui, cx);
        // Captions are muted, unless the context forces a colour (a primary button). Every
        // text draws straight into the node's `Ui` (a scope would cost a `Ui` per text;
        // several blocks get their own vertical group in `blocks_ui`).
        let (response, clicked) = if is_caption && ui.visuals().override_text_color.is_none() {
            // `.a2ui-text.caption { color: var(--a2ui-text-caption-color) }`: a style
            // shared by every caption, set for this text alone (no scope `Ui`, no
            // `Style` clone per caption).
            let caption = cx.palette(ui).caption;
            cx.with_shared_style(
                ui,
                ("a2ui-caption", caption.to_array()),
                |s| s.visuals.override_text_color = Some(caption),
                |ui| blocks_ui(ui, blocks, base),
            )
        } else {
            blocks_ui(ui, blocks, base)
        };
        // A block in a container's slot or at the surface root; not one inside a Button.
        let block = incoming.in_slot() || cx.depth() <= 1;
        if block && !is_caption {
            let drawn = response.rect;
            let width = incoming.extent.width.unwrap_or(drawn.width());
            let height = incoming
                .extent
                .height
                .map_or(drawn.height(), |h| h.max(drawn.height()));
            cx.set_geometry_box(egui::Rect::from_min_size(
                drawn.min,
                egui::vec2(width, height),
            ));
        }
        // In a slot, or drawn inside a leaf widget that is (a Button's label): rows size
        // both from these widths (see `Incoming::report_content_widths`).
        if incoming.in_slot() || cx.depth() > 1 {
            let font = step.font_id(ui.ctx());
            let widths = match &entry.min_content {
                Some(w) if w.font == font => w.clone(),
                _ => {
                    let widths = measure_widths(ui, blocks, font, step.size);
                    cx.update_memo("text", |e: &mut TextEntry| {
                        e.min_content = Some(widths.clone());
                    });
                    widths
                }
            };
            incoming.report_content_widths(
                cx,
                response.rect.width(),
                widths.widest.max(response.rect.width()).ceil(),
                widths.longest_word.ceil(),
            );
        }
        if let Some(url) = clicked {
            cx.open_url(&url);
        }
        response
    }
}

/// A text's unwrapped width (CSS max-content, the basis a row shrinks it from) and its
/// narrowest wrap (the longest word, only for short texts: a layout per word), in `font`.
/// Kept in the resolution cache: a text whose string and font did not change is not
/// measured again.
fn measure_widths(ui: &egui::Ui, blocks: &[Block], font: egui::FontId, size: f32) -> TextWidths {
    let width = |t: String| {
        ui.ctx().fonts_mut(|f| {
            f.layout_no_wrap(t, font.clone(), egui::Color32::PLACEHOLDER)
                .size()
                .x
        })
    };
    let (mut widest, mut longest_word) = (0.0_f32, 0.0_f32);
    for b in blocks {
        let marker = b.marker.as_ref().map_or(0, |m| m.chars().count() + 1);
        let lead = (b.indent + marker) as f32 * size * 0.6;
        let text = b.plain_text();
        if text.len() <= MIN_CONTENT_CHARS {
            for word in text.split_whitespace() {
                longest_word = longest_word.max(width(word.to_owned()) + lead);
            }
        }
        widest = widest.max(width(text) + lead);
    }
    TextWidths {
        font,
        widest,
        longest_word,
    }
}
