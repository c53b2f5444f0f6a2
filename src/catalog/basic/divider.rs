//! `Divider`: a 1px line.

use egui::{Sense, Stroke, vec2};

use crate::catalog::ComponentRenderer;
use crate::render::ComponentContext;
use crate::render::layout::Incoming;

/// Space on each side of the line, so it separates rather than touches its neighbours.
const DIVIDER_MARGIN: f32 = 4.0;
/// Length of a vertical divider whose parent gives it no height (a row sized to content,
/// aligned other than `stretch`): about a line of text.
const DEFAULT_VERTICAL_LENGTH: f32 = 16.0;

/// The `Divider` component: a 1px line across its parent, horizontal (the default) or
/// vertical (`axis: vertical`, for rows; it spans the row's height when stretched). It
/// reports no length of its own, so a divider never makes its parent wider or taller.
pub struct Divider;

impl ComponentRenderer for Divider {
    fn ui(&self, ui: &mut egui::Ui, cx: &mut ComponentContext<'_, '_>) -> egui::Response {
        let incoming = Incoming::of(ui);
        let vertical = cx
            .literal_str("axis")
            .is_some_and(|a| a.eq_ignore_ascii_case("vertical"));
        let thickness = 1.0 + 2.0 * DIVIDER_MARGIN;
        let (size, natural) = if vertical {
            let length = incoming.extent.height.unwrap_or(DEFAULT_VERTICAL_LENGTH);
            (vec2(thickness, length), vec2(thickness, 0.0))
        } else {
            let available = ui.available_width();
            let length = incoming
                .extent
                .width
                .unwrap_or(if available.is_finite() {
                    available
                } else {
                    0.0
                })
                .max(0.0);
            (vec2(length, thickness), vec2(0.0, thickness))
        };
        let (rect, response) = ui.allocate_exact_size(size, Sense::hover());
        let stroke = Stroke::new(1.0, ui.visuals().widgets.noninteractive.bg_stroke.color);
        if vertical {
            ui.painter().vline(rect.center().x, rect.y_range(), stroke);
        } else {
            ui.painter().hline(rect.x_range(), rect.center().y, stroke);
        }
        incoming.report(ui, natural);
        response
    }
}
