//! `Icon`: a named Material icon from the bundled font, or an `{svgPath}` drawn as a 24×24
//! SVG. Icons take the current text colour (so they follow a primary button's contrasting
//! colour); unknown names show a muted fallback glyph.

use crate::catalog::ComponentRenderer;
use crate::catalog::{FALLBACK_GLYPH, icon_family, icon_font_ready, icon_glyph, spoken_name};
use crate::eval::coerce;
use crate::model::PropRef;
use crate::render::ComponentContext;

/// The longest `svgPath` drawn (longer ones show the fallback glyph).
const MAX_SVG_PATH: usize = 32 * 1024;

/// The `Icon` component.
pub struct Icon;

enum Source {
    Name(String),
    SvgPath(String),
}

fn source(cx: &ComponentContext<'_, '_>) -> Source {
    if let Some(o) = cx.prop("name").and_then(PropRef::as_object)
        && let Some(path) = o.get("svgPath")
    {
        let path = cx.with_eval(|e| coerce::to_display_string(&e.resolve_prop(path)));
        return Source::SvgPath(path);
    }
    Source::Name(cx.string("name"))
}

/// A standalone SVG document around one path in a 24×24 view box, filled white so a tint
/// gives it any colour.
pub(crate) fn svg_document(path: &str) -> String {
    let mut d = String::with_capacity(path.len());
    for c in path.chars() {
        match c {
            '&' => d.push_str("&amp;"),
            '<' => d.push_str("&lt;"),
            '>' => d.push_str("&gt;"),
            '"' => d.push_str("&quot;"),
            '\'' => d.push_str("&apos;"),
            c if c.is_control() => d.push(' '),
            c => d.push(c),
        }
    }
    format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" width="24" height="24"><path d="{d}" fill="#ffffff"/></svg>"##
    )
}

/// Paint `path` tinted `colour` into `rect`; `false` when it cannot be drawn.
fn paint_svg_path(ui: &egui::Ui, rect: egui::Rect, path: &str, colour: egui::Color32) -> bool {
    if path.trim().is_empty() || path.len() > MAX_SVG_PATH {
        return false;
    }
    let uri = format!(
        "bytes://a2ui-icon-{:016x}.svg",
        egui::Id::unique(path).value()
    );
    let ctx = ui.ctx();
    ctx.include_bytes(uri.clone(), svg_document(path).into_bytes());
    let ppp = ui.pixels_per_point();
    let px = (rect.width().max(rect.height()) * ppp)
        .round()
        .clamp(1.0, 512.0) as u32;
    let hint = egui::SizeHint::Size {
        width: px,
        height: px,
        maintain_aspect_ratio: true,
    };
    match ctx.try_load_texture(&uri, egui::TextureOptions::LINEAR, hint) {
        Ok(egui::load::TexturePoll::Ready { texture }) => {
            egui::Image::from_texture(egui::load::SizedTexture::new(texture.id, rect.size()))
                .tint(colour)
                .paint_at(ui, rect);
            true
        }
        Ok(egui::load::TexturePoll::Pending { .. }) => true,
        Err(_) => false,
    }
}

/// Paint the fallback mark: the `help_outline` glyph, or a ring before the font is ready.
fn paint_fallback(ui: &egui::Ui, rect: egui::Rect) {
    let colour = ui.visuals().weak_text_color();
    if icon_font_ready(ui.ctx()) {
        ui.painter().text(
            rect.center(),
            egui::Align2::CENTER_CENTER,
            FALLBACK_GLYPH,
            egui::FontId::new(rect.height() * 0.75, icon_family()),
            colour,
        );
    } else {
        ui.painter().circle_stroke(
            rect.center(),
            rect.height() * 0.3,
            egui::Stroke::new(1.5, colour),
        );
    }
}

impl ComponentRenderer for Icon {
    fn ui(&self, ui: &mut egui::Ui, cx: &mut ComponentContext<'_, '_>) -> egui::Response {
        // 24dp against a 16px body in the guide: scale with the host's body text.
        let side = (egui::TextStyle::Body.resolve(ui.style()).size * 1.5).round();
        let (rect, response) =
            ui.allocate_exact_size(egui::Vec2::splat(side), egui::Sense::hover());
        let colour = ui.visuals().text_color();
        let (label, known) = match source(cx) {
            Source::SvgPath(path) => {
                let drawn = ui.is_rect_visible(rect) && paint_svg_path(ui, rect, &path, colour);
                if !drawn {
                    paint_fallback(ui, rect);
                }
                ("icon".to_owned(), drawn)
            }
            Source::Name(name) => {
                let glyph = icon_glyph(&name);
                match glyph {
                    Some(c) if icon_font_ready(ui.ctx()) => {
                        ui.painter().text(
                            rect.center(),
                            egui::Align2::CENTER_CENTER,
                            c,
                            egui::FontId::new(side, icon_family()),
                            colour,
                        );
                    }
                    Some(_) => {
                        // The font becomes active next pass.
                        paint_fallback(ui, rect);
                        ui.ctx().request_repaint();
                    }
                    None => paint_fallback(ui, rect),
                }
                let spoken: String = spoken_name(&name).chars().take(64).collect();
                (spoken, glyph.is_some())
            }
        };
        let enabled = ui.is_enabled();
        response.widget_info(|| {
            egui::WidgetInfo::labeled(egui::accesskit::Role::Image, enabled, &label)
        });
        if !known {
            ui.ctx().accesskit_node_builder(response.id, |node| {
                node.set_description("unknown icon");
            });
        }
        response
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn svg_documents_escape_the_path_so_it_cannot_break_out_of_the_attribute() {
        let doc = svg_document(r#"M0 0"/><script>alert(1)</script><path d="#);
        assert!(!doc.contains("<script>"));
        assert_eq!(doc.matches("<path").count(), 1);
    }
}
