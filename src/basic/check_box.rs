//! `CheckBox`: a labelled check box bound to a boolean, with the first failing check's
//! message under it.

use serde_json::Value;

use super::controls::{Toggle, toggle_placed};
use super::margin::{with_margin, with_margin_row};
use crate::catalog::ComponentRenderer;
use crate::catalog::Incoming;
use crate::catalog::bounded;
use crate::catalog::set_accessible_name;
use crate::render::ComponentContext;
use egui::Direction;

/// The `CheckBox` component: as in the web renderer, an 8 px margin around a row of the
/// box and its label; the row spans the width its parent gives it.
pub struct CheckBox;

impl ComponentRenderer for CheckBox {
    fn ui(&self, ui: &mut egui::Ui, cx: &mut ComponentContext<'_, '_>) -> egui::Response {
        let label = cx.string("label");
        let checked = cx.bool("value", false);
        let incoming = Incoming::of(ui, cx);
        // The margin around the row: none when the slot keeps it already.
        let margin = if incoming.margin() > 0.0 {
            0.0
        } else {
            cx.style().checkbox_margin
        };
        let height = cx.style().checkbox_height;
        let failure = cx.first_check_failure();
        let (response, row) = if failure.is_none() && ui.layout().main_dir() == Direction::TopDown {
            // The usual case, one row in a top-down `Ui` (the component's own, in its slot):
            // placed inside the margin at once, with no `Ui` for the margin or the row.
            let available = ui.available_rect_before_wrap();
            let min = available.min + egui::Vec2::splat(margin);
            let row = egui::Rect::from_min_size(
                min,
                egui::vec2(
                    (available.width() - 2.0 * margin).max(0.0),
                    bounded(height).max(ui.spacing().interact_size.y),
                ),
            );
            let (response, covered) = box_ui(ui, cx, &label, checked, Some(row));
            let outer = egui::emath::GuiRounding::round_ui(covered.expand(margin));
            ui.advance_cursor_after_rect(outer);
            (response, outer.shrink(margin))
        } else if failure.is_none() {
            // Another layout: the margin's `Ui` lays the row out.
            let (response, outer) = with_margin_row(ui, margin, height, |ui| {
                box_ui(ui, cx, &label, checked, None).0
            });
            (response, outer.shrink(margin))
        } else {
            // The row, and the first failing check's message under it.
            with_margin(ui, margin, |ui| {
                ui.set_style(cx.shared_style(ui, ("a2ui-item-spacing-y", 0_u32), |s| {
                    s.spacing.item_spacing.y = 0.0;
                }));
                let row = ui.horizontal(|ui| {
                    ui.set_min_height(height);
                    box_ui(ui, cx, &label, checked, None).0
                });
                cx.check_message_ui(ui, failure.as_deref());
                (row.inner, row.response.rect)
            })
            .0
        };
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

/// The box and its label (the reference's: the label size, bold), named when the label is
/// blank; a toggle writes the bound value.
fn box_ui(
    ui: &mut egui::Ui,
    cx: &mut ComponentContext<'_, '_>,
    label: &str,
    mut checked: bool,
    row: Option<egui::Rect>,
) -> (egui::Response, egui::Rect) {
    let style = cx.style().clone();
    let palette = cx.palette(ui);
    let mut text = egui::RichText::new(label)
        .font(style.label.font_id(ui.ctx()))
        .strong();
    // An invalid box's label in the error colour (`label.invalid { color:
    // var(--a2ui-checkbox-color-error, red) }`).
    if cx.first_check_failure().is_some() {
        text = text.color(palette.error);
    }
    let (mut response, covered) =
        toggle_placed(ui, Toggle::Check, checked, text, &style, &palette, row);
    if response.clicked() {
        checked = !checked;
        response.mark_changed();
    }
    if label.trim().is_empty() {
        set_accessible_name(ui, response.id, &cx.fallback_name());
    }
    if response.changed() {
        cx.write(ui, "value", Value::Bool(checked));
    }
    (response, covered)
}
