//! `CheckBox`: a labelled check box bound to a boolean, with the first failing check's
//! message under it.

use serde_json::Value;

use crate::catalog::ComponentRenderer;
use crate::render::ComponentContext;
use crate::render::input::set_accessible_name;
use crate::render::layout::{DerivedStyle, Incoming, with_margin, with_margin_row};

/// The `CheckBox` component: as in the web renderer, an 8 px margin around a row of the
/// box and its label; the row spans the width its parent gives it.
pub struct CheckBox;

impl ComponentRenderer for CheckBox {
    fn ui(&self, ui: &mut egui::Ui, cx: &mut ComponentContext<'_, '_>) -> egui::Response {
        let label = cx.string("label");
        let mut checked = cx.bool("value", false);
        let incoming = Incoming::of(ui);
        let margin = cx.style().checkbox_margin;
        let height = cx.style().checkbox_height;
        let failure = cx.first_check_failure();
        if failure.is_none() {
            // The usual case, one row: drawn straight into the margin's `Ui`.
            let (response, outer) = with_margin_row(ui, margin, height, |ui| {
                let text = egui::RichText::new(&label)
                    .font(cx.style().label.font_id(ui.ctx()))
                    .strong();
                let response = ui.checkbox(&mut checked, text);
                if label.trim().is_empty() {
                    set_accessible_name(ui, response.id, &cx.fallback_name());
                }
                if response.changed() {
                    cx.write(ui, "value", Value::Bool(checked));
                }
                response
            });
            let row = outer.shrink(margin);
            let width = incoming
                .extent
                .width
                .map_or(row.width(), |w| (w - 2.0 * margin).max(0.0));
            cx.set_geometry_box(egui::Rect::from_min_size(
                row.min,
                egui::vec2(width, row.height()),
            ));
            return response;
        }
        let inner = with_margin(ui, margin, |ui| {
            ui.set_style(cx.derived_style(ui, DerivedStyle::ItemSpacingY(0.0)));
            let row = ui.horizontal(|ui| {
                ui.set_min_height(height);
                // The reference's label: the label size, bold.
                let text = egui::RichText::new(&label)
                    .font(cx.style().label.font_id(ui.ctx()))
                    .strong();
                ui.checkbox(&mut checked, text)
            });
            let response = row.inner;
            if label.trim().is_empty() {
                set_accessible_name(ui, response.id, &cx.fallback_name());
            }
            if response.changed() {
                cx.write(ui, "value", Value::Bool(checked));
            }
            cx.check_message_ui(ui, failure.as_deref());
            (response, row.response.rect)
        });
        let (response, row) = inner.0;
        let width = incoming
            .extent
            .width
            .map_or(row.width(), |w| (w - 2.0 * margin).max(0.0));
        cx.set_geometry_box(egui::Rect::from_min_size(
            row.min,
            egui::vec2(width, row.height()),
        ));
        response
    }
}
