//! `Text`: variants h1–h5 / caption / body at the guide's relative sizes, with a Markdown
//! subset (see [`markdown`](crate::render::markdown)). Links only emit
//! [`Event::OpenUrl`](crate::Event::OpenUrl) when clicked, and only for `http`/`https`.

use crate::catalog::ComponentRenderer;
use crate::render::ComponentContext;
use crate::render::markdown::{BaseStyle, blocks_ui, parse_cached};

/// The `Text` component.
pub struct Text;

/// Size factor and strength of a variant (`usageHint` in v0.8).
fn variant_style(variant: &str) -> (f32, bool) {
    match variant {
        "h1" => (2.5, true),
        "h2" => (2.0, true),
        "h3" => (1.75, true),
        "h4" => (1.5, true),
        "h5" => (1.25, true),
        "caption" => (0.8, false),
        _ => (1.0, false),
    }
}

impl ComponentRenderer for Text {
    fn ui(&self, ui: &mut egui::Ui, cx: &mut ComponentContext<'_, '_>) -> egui::Response {
        if cx.version() == crate::protocol::Version::V1_0 && cx.is_pending("text") {
            // The text waits for an agent function response. A static mark rather than a
            // spinner, so a waiting surface does not repaint every frame.
            return ui.weak("…").on_hover_text("Waiting for the agent");
        }
        let text = cx.string("text");
        let variant = cx.literal_str("variant").unwrap_or("body");
        let body_size = egui::TextStyle::Body.resolve(ui.style()).size;
        let (factor, strong) = variant_style(variant);
        let base = BaseStyle {
            size: body_size * factor,
            body_size,
            strong,
        };
        let blocks = parse_cached(ui.ctx(), &text);
        let (response, clicked) = ui
            .scope(|ui| {
                // Captions are muted, unless the context forces a colour (a primary button).
                if variant == "caption" && ui.visuals().override_text_color.is_none() {
                    ui.visuals_mut().override_text_color = Some(ui.visuals().weak_text_color());
                }
                blocks_ui(ui, &blocks, base)
            })
            .inner;
        if let Some(url) = clicked {
            cx.open_url(&url);
        }
        response
    }
}
