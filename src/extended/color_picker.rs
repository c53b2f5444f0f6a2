//! `ColorPicker`: a colour swatch that opens egui's colour picker, for a `value` of
//! `#rrggbb` (`#rrggbbaa` with `alpha: true`), two-way bound, with the hex text beside it.
//!
//! Accessibility: the swatch is a button named by the label, its value the hex text.

use serde_json::Value;

use super::util::{hex_color, label_ui, parse_hex_color};
use crate::catalog::set_accessible_name;
use crate::render::ComponentContext;
use crate::render::catalog::ComponentRenderer;

/// The `ColorPicker` component.
pub struct ColorPicker;

impl ComponentRenderer for ColorPicker {
    fn ui(&self, ui: &mut egui::Ui, cx: &mut ComponentContext<'_, '_>) -> egui::Response {
        let label = cx.string("label");
        let name = if label.trim().is_empty() {
            cx.fallback_name()
        } else {
            label.clone()
        };
        let alpha = cx.bool("alpha", false);
        let raw = cx.string("value");
        let current = parse_hex_color(&raw);
        let style = cx.style().clone();
        let inner = ui.vertical(|ui| {
            ui.spacing_mut().item_spacing.y = style.field_gap;
            label_ui(ui, &style, &label);
            let row = ui.horizontal(|ui| {
                let before = current.unwrap_or(egui::Color32::GRAY);
                let mut rgba = before.to_srgba_unmultiplied();
                let r = if alpha {
                    let mut c =
                        egui::Color32::from_rgba_unmultiplied(rgba[0], rgba[1], rgba[2], rgba[3]);
                    let r = egui::color_picker::color_edit_button_srgba(
                        ui,
                        &mut c,
                        egui::color_picker::Alpha::OnlyBlend,
                    );
                    rgba = c.to_srgba_unmultiplied();
                    r
                } else {
                    let mut rgb = [rgba[0], rgba[1], rgba[2]];
                    let r = egui::color_picker::color_edit_button_srgb(ui, &mut rgb);
                    rgba = [rgb[0], rgb[1], rgb[2], 255];
                    r
                };
                let shown = if current.is_some() {
                    hex_color(before.to_srgba_unmultiplied(), alpha)
                } else {
                    "none".to_owned()
                };
                ui.label(egui::RichText::new(&shown).monospace());
                set_accessible_name(ui, r.id, &name);
                ui.ctx()
                    .accesskit_node_builder(r.id, |node| node.set_value(shown.clone()));
                if r.changed() && rgba != before.to_srgba_unmultiplied() {
                    cx.write(ui, "value", Value::String(hex_color(rgba, alpha)));
                }
                r
            });
            let failure = cx.first_check_failure();
            cx.check_message_ui(ui, failure.as_deref());
            row.inner
        });
        inner.inner
    }
}
