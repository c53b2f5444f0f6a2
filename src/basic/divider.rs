//! `Divider`: a 1px line with the reference's margin on both sides.

use egui::{Rect, Sense, Stroke, vec2};

use crate::catalog::ComponentRenderer;
use crate::catalog::Incoming;
use crate::render::ComponentContext;

/// Length of a vertical divider whose parent gives it no height (a row sized to content,
/// aligned other than `stretch`): about a line of text.
const DEFAULT_VERTICAL_LENGTH: f32 = 16.0;

/// The `Divider` component: a 1px line across its parent, horizontal (the default) or
/// vertical (`axis: vertical`, for rows; it spans the row's height when stretched), with
/// [`Style::divider_margin`](crate::render::Style) before and after it. As in the web
/// renderer, a horizontal divider spans only a width its parent gives it: in a column
/// aligned other than `stretch` it has no length (it still takes its margins). It reports
/// no length of its own, so a divider never makes its parent wider or taller.
pub struct Divider;

impl ComponentRenderer for Divider {
    fn ui(&self, ui: &mut egui::Ui, cx: &mut ComponentContext<'_, '_>) -> egui::Response {
        let incoming = Incoming::of(ui, cx);
        let margin = cx.style().divider_margin;
        let vertical = cx
            .literal_str("axis")
            .is_some_and(|a| a.eq_ignore_ascii_case("vertical"));
        let thickness = 1.0 + 2.0 * margin;
        let (size, natural) = if vertical {
            let length = incoming.extent.height.unwrap_or(DEFAULT_VERTICAL_LENGTH);
            (vec2(thickness, length), vec2(thickness, 0.0))
        } else {
            let length = incoming.extent.width.unwrap_or(0.0).max(0.0);
            (vec2(length, thickness), vec2(0.0, thickness))
        };
        let (rect, response) = ui.allocate_exact_size(size, Sense::hover());
        // `border-top: var(--a2ui-border-width) solid var(--a2ui-color-border)`.
        let stroke = Stroke::new(cx.style().card_border, cx.palette(ui).border);
        let line = if vertical {
            Rect::from_min_size(rect.min + vec2(margin, 0.0), vec2(1.0, rect.height()))
        } else {
            Rect::from_min_size(rect.min + vec2(0.0, margin), vec2(rect.width(), 1.0))
        };
        if vertical {
            ui.painter().vline(line.center().x, line.y_range(), stroke);
        } else if line.width() > 0.0 {
            ui.painter().hline(line.x_range(), line.center().y, stroke);
        }
        cx.set_geometry_box(line);
        incoming.report(cx, natural);
        response
    }
}
