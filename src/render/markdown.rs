//! The Markdown subset of `Text`: paragraphs, headings, emphasis, strong, strikethrough,
//! inline and block code, bullet and numbered lists (nested), block quotes, rules and links.
//!
//! Parsing is [`pulldown_cmark`] (no HTML output); the result is a flat list of [`Block`]s
//! laid out with egui [`LayoutJob`](egui::text::LayoutJob)s, so hostile nesting costs
//! nothing but indentation (capped). Raw HTML is dropped (its text content stays), images
//! show their alt text and never load, and links are drawn as egui links whose clicks are
//! returned to the caller (the `Text` component routes them through
//! [`ComponentContext::open_url`](crate::render::ComponentContext::open_url) and the renderer's
//! [`UrlPolicy`](crate::url_policy::UrlPolicy)). A link whose URL the default policy would
//! never open (`javascript:`, `file:`, `data:`, relative) is drawn as plain text.

use std::sync::Arc;

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

/// Deepest visual indentation (lists and quotes nested deeper share the last level).
const MAX_INDENT: usize = 8;
/// Most blocks drawn for one text (the rest is cut, with an ellipsis block).
const MAX_BLOCKS: usize = 500;
/// Relative sizes of Markdown headings h1..h6 to the body size: the web renderer's
/// (`.a2ui-text h1 { font-size: var(--a2ui-font-size-2xl) }` … `h5 { --a2ui-font-size-s }`,
/// the 1.2 scale around 16 px; `h6` keeps the browser's 0.67em).
pub const HEADING_SCALE: [f32; 6] = [1.728, 1.44, 1.2, 1.0, 1.0 / 1.2, 0.67];
/// Inline-start padding of a list level (the browser's `ul, ol { padding-inline-start:
/// 40px }`; the stylesheet only zeroes the margins).
const LIST_INDENT: f32 = 40.0;
/// Gap between a list marker and its item's text.
const MARKER_GAP: f32 = 6.0;
/// `line-height: normal` of Roboto, for list items (only `p` gets the body's 1.5).
const NORMAL_LINE: f32 = 1.172;

/// Inline style flags of a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Style {
    /// `**strong**`.
    pub strong: bool,
    /// `*emphasis*`.
    pub emphasis: bool,
    /// `~~strikethrough~~`.
    pub strikethrough: bool,
    /// `` `code` ``.
    pub code: bool,
}

/// A piece of text with one style, possibly a link.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    /// The text.
    pub text: String,
    /// Its style.
    pub style: Style,
    /// The link destination, for link text.
    pub link: Option<String>,
}

/// What a block is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockKind {
    /// A paragraph (also tight list items).
    Paragraph,
    /// A heading of level 1..=6.
    Heading(u8),
    /// A fenced or indented code block.
    Code,
    /// A thematic break.
    Rule,
}

/// One laid-out line group.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    /// What it is.
    pub kind: BlockKind,
    /// Nesting of lists and quotes (capped).
    pub indent: usize,
    /// Inside a block quote.
    pub quoted: bool,
    /// A list marker (`•`, `1.`) drawn before the block.
    pub marker: Option<String>,
    /// The inline content.
    pub runs: Vec<Run>,
}

impl Block {
    /// The block's text without markup.
    pub fn plain_text(&self) -> String {
        self.runs.iter().map(|r| r.text.as_str()).collect()
    }

    fn has_links(&self) -> bool {
        self.runs.iter().any(|r| r.link.is_some())
    }
}

/// Whether `text` could contain Markdown at all (plain text skips the parser).
fn may_have_markup(text: &str) -> bool {
    text.starts_with(|c: char| c.is_ascii_digit() || c.is_whitespace())
        || text.contains([
            '*', '_', '`', '#', '[', ']', '<', '>', '-', '+', '~', '!', '\n', '\\', '&', '=', '|',
        ])
}

/// Parse `text` into blocks.
pub fn parse(text: &str) -> Vec<Block> {
    if !may_have_markup(text) {
        return vec![Block {
            kind: BlockKind::Paragraph,
            indent: 0,
            quoted: false,
            marker: None,
            runs: vec![Run {
                text: text.to_owned(),
                style: Style::default(),
                link: None,
            }],
        }];
    }
    let mut b = Builder::default();
    let options = Options::ENABLE_STRIKETHROUGH;
    for event in Parser::new_ext(text, options) {
        if b.blocks.len() >= MAX_BLOCKS {
            b.blocks.push(Block {
                kind: BlockKind::Paragraph,
                indent: 0,
                quoted: false,
                marker: None,
                runs: vec![Run {
                    text: "…".to_owned(),
                    style: Style::default(),
                    link: None,
                }],
            });
            return b.blocks;
        }
        b.event(event);
    }
    b.finish_block();
    b.blocks
}

/// Parses for [`parse_cached`].
#[derive(Default)]
struct CachedParser;

impl<'a> egui::cache::ComputerMut<&'a str, Arc<Vec<Block>>> for CachedParser {
    fn compute(&mut self, text: &'a str) -> Arc<Vec<Block>> {
        Arc::new(parse(text))
    }
}

type ParseCache = egui::cache::FrameCache<Arc<Vec<Block>>, CachedParser>;

/// [`parse`], cached in `ctx`'s memory for as long as the text is drawn every frame.
pub fn parse_cached(ctx: &egui::Context, text: &str) -> Arc<Vec<Block>> {
    ctx.memory_mut(|m| Arc::clone(m.caches.cache::<ParseCache>().get(text)))
}

#[derive(Default)]
struct Builder {
    blocks: Vec<Block>,
    current: Option<Block>,
    /// One entry per open list: the next number of an ordered list.
    lists: Vec<Option<u64>>,
    quotes: usize,
    /// The marker of a list item whose first block has not started yet.
    pending_marker: Option<String>,
    strong: usize,
    emphasis: usize,
    strikethrough: usize,
    link: Option<String>,
    image: usize,
}

impl Builder {
    fn indent(&self) -> usize {
        (self.lists.len() + self.quotes).min(MAX_INDENT)
    }

    fn start_block(&mut self, kind: BlockKind) {
        self.finish_block();
        self.current = Some(Block {
            kind,
            indent: self.indent(),
            quoted: self.quotes > 0,
            marker: self.pending_marker.take(),
            runs: Vec::new(),
        });
    }

    fn finish_block(&mut self) {
        if let Some(block) = self.current.take()
            && (!block.runs.is_empty() || block.kind == BlockKind::Rule || block.marker.is_some())
        {
            self.blocks.push(block);
        }
    }

    fn push_text(&mut self, text: &str, code: bool) {
        if text.is_empty() {
            return;
        }
        if self.current.is_none() {
            // Tight list items and loose inline content arrive without a paragraph.
            self.start_block(BlockKind::Paragraph);
        }
        let style = Style {
            strong: self.strong > 0,
            emphasis: self.emphasis > 0 || self.image > 0,
            strikethrough: self.strikethrough > 0,
            code,
        };
        let link = if self.image > 0 {
            None
        } else {
            self.link.clone()
        };
        let Some(block) = self.current.as_mut() else {
            return;
        };
        if let Some(last) = block.runs.last_mut()
            && last.style == style
            && last.link == link
        {
            last.text.push_str(text);
            return;
        }
        block.runs.push(Run {
            text: text.to_owned(),
            style,
            link,
        });
    }

    fn event(&mut self, event: Event<'_>) {
        match event {
            Event::Start(tag) => self.start(tag),
            Event::End(tag) => self.end(tag),
            Event::Text(t) => self.push_text(&t, self.in_code_block()),
            Event::Code(t) | Event::InlineMath(t) | Event::DisplayMath(t) => {
                self.push_text(&t, true);
            }
            Event::SoftBreak => self.push_text(" ", false),
            Event::HardBreak => self.push_text("\n", false),
            Event::Rule => {
                self.start_block(BlockKind::Rule);
                self.finish_block();
            }
            Event::TaskListMarker(done) => self.push_text(if done { "☑ " } else { "☐ " }, false),
            // No HTML: tags are dropped, the text between them stays.
            Event::Html(_) | Event::InlineHtml(_) | Event::FootnoteReference(_) => {}
        }
    }

    fn in_code_block(&self) -> bool {
        self.current
            .as_ref()
            .is_some_and(|b| b.kind == BlockKind::Code)
    }

    fn start(&mut self, tag: Tag<'_>) {
        match tag {
            Tag::Paragraph => self.start_block(BlockKind::Paragraph),
            Tag::Heading { level, .. } => self.start_block(BlockKind::Heading(level as u8)),
            Tag::CodeBlock(_) => self.start_block(BlockKind::Code),
            Tag::BlockQuote(_) => {
                self.finish_block();
                self.quotes = self.quotes.saturating_add(1);
            }
            Tag::List(start) => {
                self.finish_block();
                self.lists.push(start);
            }
            Tag::Item => {
                self.finish_block();
                let marker = match self.lists.last_mut() {
                    Some(Some(n)) => {
                        let m = format!("{n}.");
                        *n = n.saturating_add(1);
                        m
                    }
                    _ => "•".to_owned(),
                };
                self.pending_marker = Some(marker);
            }
            Tag::Emphasis => self.emphasis += 1,
            Tag::Strong => self.strong += 1,
            Tag::Strikethrough => self.strikethrough += 1,
            // Only a link the default URL policy could open is drawn as a link; any other
            // (`javascript:`, `file:`, relative...) is plain text. A click still goes
            // through the renderer's own policy (`ComponentContext::open_url`).
            Tag::Link { dest_url, .. } => {
                self.link = crate::url_policy::UrlPolicy::default()
                    .check(&dest_url, crate::url_policy::UrlUse::Open, true)
                    .is_ok()
                    .then(|| dest_url.to_string());
            }
            Tag::Image { .. } => self.image += 1,
            _ => {}
        }
    }

    fn end(&mut self, tag: TagEnd) {
        match tag {
            TagEnd::Paragraph | TagEnd::Heading(_) | TagEnd::CodeBlock | TagEnd::Item => {
                if tag == TagEnd::CodeBlock
                    && let Some(block) = self.current.as_mut()
                    && let Some(last) = block.runs.last_mut()
                {
                    let trimmed = last.text.trim_end_matches('\n').len();
                    last.text.truncate(trimmed);
                }
                self.finish_block();
            }
            TagEnd::BlockQuote(_) => {
                self.finish_block();
                self.quotes = self.quotes.saturating_sub(1);
            }
            TagEnd::List(_) => {
                self.finish_block();
                self.lists.pop();
            }
            TagEnd::Emphasis => self.emphasis = self.emphasis.saturating_sub(1),
            TagEnd::Strong => self.strong = self.strong.saturating_sub(1),
            TagEnd::Strikethrough => self.strikethrough = self.strikethrough.saturating_sub(1),
            TagEnd::Link => self.link = None,
            TagEnd::Image => self.image = self.image.saturating_sub(1),
            _ => {}
        }
    }
}

/// The base look of a text: font size and whether it is bold (heading variants).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BaseStyle {
    /// Font size in points.
    pub size: f32,
    /// The host's body size, which Markdown headings scale.
    pub body_size: f32,
    /// Draw everything strong (heading variants).
    pub strong: bool,
    /// Height of one line of `size` text (egui's font height when `None`).
    pub line_height: Option<f32>,
    /// Height of each line when the Markdown holds several lines (several blocks or hard
    /// breaks), where that differs from `line_height`: a caption's lines are
    /// `line-height: 1.5` apart in the reference's Markdown caption (`.a2ui-caption`), while
    /// one caption line (wrapped or not) keeps the `normal` height of its `<em>`.
    pub lines_height: Option<f32>,
    /// Draw everything in italics (the `caption` variant: the reference wraps it in `<em>`).
    pub italic: bool,
}

fn job_for(
    ui: &egui::Ui,
    runs: &[Run],
    size: f32,
    strong: bool,
    line_height: Option<f32>,
    italic: bool,
) -> egui::text::LayoutJob {
    let visuals = ui.visuals();
    // Colourless sections take the label's colour, so text inherits the context's colour
    // (e.g. a primary button's contrasting one); strong text is brighter only when nothing
    // overrides the colour.
    let inherit = egui::Color32::PLACEHOLDER;
    let strong_colour = if visuals.override_text_color.is_some() {
        inherit
    } else {
        visuals.strong_text_color()
    };
    let line_colour = visuals.text_color();
    let mut job = egui::text::LayoutJob::default();
    for run in runs {
        let bold = strong || run.style.strong;
        let font_id = if run.style.code {
            egui::FontId::monospace(size * 0.9)
        } else {
            egui::FontId::new(size, crate::render::text_family(ui.ctx(), bold))
        };
        let mut format = egui::TextFormat {
            font_id,
            color: if bold { strong_colour } else { inherit },
            italics: run.style.emphasis || italic,
            line_height,
            valign: egui::Align::Center,
            ..Default::default()
        };
        if bold {
            // Bolder where the host's font is variable; egui's default font is not.
            format.coords.push("wght", 700.0);
        }
        if run.style.strikethrough {
            format.strikethrough = egui::Stroke::new(1.0, line_colour);
        }
        if run.style.code {
            format.background = visuals.code_bg_color;
        }
        job.append(&run.text, 0.0, format);
    }
    job
}

/// Draw blocks. Returns the response (of the only block, or of the group) and the
/// destination of a link clicked this frame.
pub fn blocks_ui(
    ui: &mut egui::Ui,
    blocks: &[Block],
    base: BaseStyle,
) -> (egui::Response, Option<String>) {
    let mut clicked = None;
    let several = blocks.len() > 1
        || blocks
            .iter()
            .any(|b| b.runs.iter().any(|r| r.text.contains('\n')));
    let base = match base.lines_height {
        Some(h) if several => BaseStyle {
            line_height: Some(h),
            ..base
        },
        _ => base,
    };
    if let [block] = blocks
        && block.indent == 0
        && block.marker.is_none()
        && !block.quoted
    {
        let r = block_ui(ui, block, base, &mut clicked);
        return (r, clicked);
    }
    let r = ui
        .vertical(|ui| {
            // The reference sets every block's margin to 0 (`--_a2ui-text-margin: 0`).
            ui.spacing_mut().item_spacing.y = 0.0;
            for block in blocks {
                if block.indent == 0 && block.marker.is_none() && !block.quoted {
                    block_ui(ui, block, base, &mut clicked);
                    continue;
                }
                // A list item's text starts 40 px in per level, its marker just before it;
                // its lines are `normal` high.
                // (A caption's list items are as far apart as its other lines.)
                let item = BaseStyle {
                    line_height: base
                        .lines_height
                        .or(base.line_height.map(|_| base.size * NORMAL_LINE)),
                    ..base
                };
                let marker = block.marker.as_ref().map(|m| {
                    let text = egui::RichText::new(m)
                        .size(base.size)
                        .line_height(item.line_height);
                    egui::WidgetText::from(text).into_galley(
                        ui,
                        Some(egui::TextWrapMode::Extend),
                        f32::INFINITY,
                        egui::TextStyle::Body,
                    )
                });
                let marker_width = marker.as_ref().map_or(0.0, |g| g.size().x + MARKER_GAP);
                let indent = (block.indent as f32 * LIST_INDENT - marker_width).max(0.0);
                ui.horizontal_top(|ui| {
                    ui.spacing_mut().item_spacing.x = 0.0;
                    if indent > 0.0 {
                        let (rect, _) = ui.allocate_exact_size(
                            egui::vec2(indent, base.size),
                            egui::Sense::hover(),
                        );
                        if block.quoted {
                            let x = rect.left() + base.size * 0.3;
                            ui.painter().vline(
                                x,
                                rect.y_range(),
                                egui::Stroke::new(2.0, ui.visuals().weak_text_color()),
                            );
                        }
                    }
                    if let Some(marker) = marker {
                        let (rect, _) = ui.allocate_exact_size(
                            egui::vec2(marker_width, marker.size().y),
                            egui::Sense::hover(),
                        );
                        ui.painter()
                            .galley(rect.min, marker, ui.visuals().text_color());
                    }
                    ui.vertical(|ui| block_ui(ui, block, item, &mut clicked));
                });
            }
        })
        .response;
    (r, clicked)
}

fn block_ui(
    ui: &mut egui::Ui,
    block: &Block,
    base: BaseStyle,
    clicked: &mut Option<String>,
) -> egui::Response {
    let (size, strong, line_height) = match block.kind {
        // In a heading variant the variant's size wins over a Markdown heading's.
        BlockKind::Heading(_) if base.strong => (base.size, true, base.line_height),
        BlockKind::Heading(level) => {
            let i = usize::from(level.clamp(1, 6)) - 1;
            let size = base.body_size * HEADING_SCALE.get(i).copied().unwrap_or(1.0);
            (size, true, base.line_height.map(|_| size * 1.2))
        }
        _ => (base.size, base.strong, base.line_height),
    };
    match block.kind {
        BlockKind::Rule => ui.separator(),
        BlockKind::Code => {
            egui::Frame::new()
                .fill(ui.visuals().code_bg_color)
                .corner_radius(4.0)
                .inner_margin(6.0)
                .show(ui, |ui| {
                    let job = job_for(ui, &block.runs, size, false, None, false);
                    ui.add(egui::Label::new(job).wrap())
                })
                .inner
        }
        BlockKind::Paragraph | BlockKind::Heading(_) if !block.has_links() => {
            let job = job_for(ui, &block.runs, size, strong, line_height, base.italic);
            ui.add(egui::Label::new(job).wrap())
        }
        BlockKind::Paragraph | BlockKind::Heading(_) => {
            ui.horizontal_wrapped(|ui| {
                ui.spacing_mut().item_spacing.x = 0.0;
                // Consecutive runs of the same link form one link widget.
                let mut i = 0;
                while let Some(run) = block.runs.get(i) {
                    let mut j = i + 1;
                    while block.runs.get(j).is_some_and(|r| r.link == run.link) {
                        j += 1;
                    }
                    let runs = block.runs.get(i..j).unwrap_or_default();
                    let job = job_for(ui, runs, size, strong, line_height, base.italic);
                    match &run.link {
                        Some(url) => {
                            // `.a2ui-text a { color: var(--a2ui-text-a-color, inherit) }`,
                            // underlined as browsers draw links.
                            let colour = ui.visuals().text_color();
                            let r = link_ui(ui, job, size, colour).on_hover_text(link_hover(url));
                            if r.clicked() {
                                *clicked = Some(url.clone());
                            }
                        }
                        None => {
                            ui.add(egui::Label::new(job).wrap());
                        }
                    }
                    i = j;
                }
            })
            .response
        }
    }
}

/// A link run: what `egui::Link` does (a clickable label in the AccessKit `Link` role, the
/// pointing hand on hover), underlined where a browser underlines it. egui's own underline
/// sits at the bottom of the line box (4 px under the descenders of a 24 px body line);
/// Chromium draws it at the font's underline position under the baseline (Roboto's `post`
/// table: 150 of 2048 units below it, 100 units thick, so 1 px at body size).
fn link_ui(
    ui: &mut egui::Ui,
    job: egui::text::LayoutJob,
    size: f32,
    colour: egui::Color32,
) -> egui::Response {
    let label = egui::Label::new(job).sense(egui::Sense::click());
    let (galley_pos, galley, response) = label.layout_in_ui(ui);
    response.widget_info(|| {
        egui::WidgetInfo::labeled(egui::Role::Link, ui.is_enabled(), galley.text())
    });
    if ui.is_rect_visible(response.rect) {
        let thickness = (size * UNDERLINE_THICKNESS).max(1.0);
        let stroke = egui::Stroke::new(thickness, colour);
        let painter = ui.painter();
        for row in &galley.rows {
            let (Some(first), Some(last)) = (row.glyphs.first(), row.glyphs.last()) else {
                continue;
            };
            let baseline = galley_pos.y + row.pos.y + first.pos.y;
            let y = painter
                .round_to_pixel_center(baseline + size * UNDERLINE_POSITION + thickness / 2.0);
            let left = galley_pos.x + row.pos.x + first.pos.x;
            let right = galley_pos.x + row.pos.x + last.pos.x + last.advance_width;
            painter.hline(left..=right, y, stroke);
        }
        painter.add(egui::epaint::TextShape::new(galley_pos, galley, colour));
        if response.hovered() {
            ui.set_cursor_icon(egui::CursorIcon::PointingHand);
        }
    }
    response
}

/// Roboto's underline, per font size (`post`: `underlinePosition` -150, `underlineThickness`
/// 100, of 2048 units per em).
const UNDERLINE_POSITION: f32 = 150.0 / 2048.0;
const UNDERLINE_THICKNESS: f32 = 100.0 / 2048.0;

/// A link's hover text: first the host the URL policy parsed (what would really be opened,
/// punycode when the name mixes scripts: [`crate::url_policy::display_host`]), then the
/// address, cut to 200 characters.
fn link_hover(url: &str) -> String {
    let shown: String = url.chars().take(200).collect();
    match crate::url_policy::display_host(url) {
        Some(host) => format!("Opens {host}\n{shown}"),
        None => shown,
    }
}

/// Draw `text` as Markdown in the body style of `style` (for prose outside a surface, e.g.
/// the agent panel's thread). Returns the response and the destination of a link clicked
/// this frame (not opened: the caller routes it).
pub fn markdown_ui(
    ui: &mut egui::Ui,
    text: &str,
    style: &crate::render::Style,
) -> (egui::Response, Option<String>) {
    let blocks = parse_cached(ui.ctx(), text);
    let base = BaseStyle {
        size: style.body.size,
        body_size: style.body.size,
        strong: false,
        line_height: Some(style.body.line_height),
        lines_height: None,
        italic: false,
    };
    blocks_ui(ui, &blocks, base)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_paragraph_and_a_list_are_three_blocks() {
        let blocks = parse("Hello **world**\n\n- one\n- two");
        assert_eq!(blocks.len(), 3);
        assert_eq!(blocks[0].plain_text(), "Hello world");
        assert_eq!(blocks[1].marker.as_deref(), Some("•"));
    }

    #[test]
    fn plain_text_is_one_paragraph_without_parsing() {
        let b = parse("Just words, 42 of them.");
        assert_eq!(b.len(), 1);
        assert_eq!(b[0].plain_text(), "Just words, 42 of them.");
    }

    #[test]
    fn emphasis_strong_and_code_become_styled_runs() {
        let b = parse("a *b* **c** `d` ~~e~~");
        let styles: Vec<_> = b[0]
            .runs
            .iter()
            .map(|r| (r.text.as_str(), r.style))
            .collect();
        assert!(styles.contains(&(
            "b",
            Style {
                emphasis: true,
                ..Style::default()
            }
        )));
        assert!(styles.iter().any(|(t, s)| *t == "c" && s.strong));
        assert!(styles.iter().any(|(t, s)| *t == "d" && s.code));
        assert!(styles.iter().any(|(t, s)| *t == "e" && s.strikethrough));
        assert_eq!(b[0].plain_text(), "a b c d e");
    }

    #[test]
    fn headings_lists_and_links_are_recognised() {
        let b = parse("# Title\n\n1. one\n2. two\n   - nested\n\n[site](https://example.com)");
        assert_eq!(b[0].kind, BlockKind::Heading(1));
        assert_eq!(b[1].marker.as_deref(), Some("1."));
        assert_eq!(b[2].marker.as_deref(), Some("2."));
        assert_eq!(b[3].marker.as_deref(), Some("•"));
        assert_eq!(b[3].indent, 2);
        assert_eq!(b[4].runs[0].link.as_deref(), Some("https://example.com"));
    }

    #[test]
    fn links_the_url_policy_refuses_are_plain_text() {
        for dest in [
            "javascript:alert(1)",
            "JaVaScRiPt:alert(1)",
            "data:text/html,x",
            "file:///etc/passwd",
            "mailto:a@b.c",
            "/relative",
        ] {
            let b = parse(&format!("[click]({dest})"));
            assert!(
                b.iter().flat_map(|b| &b.runs).all(|r| r.link.is_none()),
                "{dest}"
            );
            assert_eq!(b[0].plain_text(), "click");
        }
        let b = parse("[ok](HTTPS://example.com)");
        assert_eq!(b[0].runs[0].link.as_deref(), Some("HTTPS://example.com"));
    }

    #[test]
    fn html_is_dropped_and_images_show_only_their_alt_text() {
        let b = parse("<b>bold</b> <script>x()</script> ![a cat](https://x/cat.png)");
        let text = b.iter().map(Block::plain_text).collect::<String>();
        assert!(!text.contains('<'), "{text}");
        assert!(text.contains("bold"));
        assert!(text.contains("a cat"));
        assert!(b.iter().flat_map(|b| &b.runs).all(|r| r.link.is_none()));
    }

    #[test]
    fn deep_nesting_is_capped_and_does_not_overflow_the_stack() {
        let quotes = ">".repeat(5_000) + " deep";
        let b = parse(&quotes);
        assert!(b.iter().all(|b| b.indent <= MAX_INDENT));
        let mut lists = String::new();
        for i in 0..300 {
            lists.push_str(&"  ".repeat(i));
            lists.push_str("- item\n");
        }
        let b = parse(&lists);
        assert!(b.iter().all(|b| b.indent <= MAX_INDENT));
        let emphasis = "*".repeat(20_000) + "x" + &"*".repeat(20_000);
        let _ = parse(&emphasis);
    }

    #[test]
    fn very_many_blocks_are_cut() {
        let many = "para\n\n".repeat(MAX_BLOCKS * 3);
        assert!(parse(&many).len() <= MAX_BLOCKS + 1);
    }

    #[test]
    fn a_link_hover_names_the_host_that_would_be_opened() {
        let hover = link_hover("https://attacker.example\\@bank.com/x");
        assert!(hover.starts_with("Opens attacker.example\n"), "{hover}");
        let hover = link_hover("https://b\u{430}nk.com/");
        assert!(hover.starts_with("Opens xn--"), "{hover}");
    }
}
