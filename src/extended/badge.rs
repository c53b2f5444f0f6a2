//! `Badge` (a small status label: `variant` `neutral`, `info`, `success`, `warning` or
//! `error`) and `Chip` (a pill that toggles `selected`, two-way bound, and fires its
//! optional `action`).
//!
//! Accessibility: a Badge is a `Status` node named by its label; a Chip a toggle button
//! with its pressed state.

use egui::accesskit::{Role, Toggled};
use egui::{Color32, Sense, vec2};
use serde_json::Value;

use crate::catalog::set_accessible_name;
use crate::render::ComponentContext;
use crate::render::catalog::ComponentRenderer;

/// The `Badge` component.
pub struct Badge;
/// The `Chip` component.
pub struct Chip;

/// The fill and text colours of a badge variant.
fn variant_colors(ui: &egui::Ui, variant: Option<&str>, accent: Color32) -> (Color32, Color32) {
    let dark = ui.visuals().dark_mode;
    let base = match variant {
        Some("info") => accent,
        Some("success") => Color32::from_rgb(0x1e, 0x8e, 0x3e),
        Some("warning") => Color32::from_rgb(0xb0, 0x6d, 0x00),
        Some("error") => ui.visuals().error_fg_color,
        _ => ui.visuals().weak_text_color(),
    };
    // A tinted fill with the full colour as text (readable in light and dark themes).
    let fill = base.gamma_multiply(if dark { 0.30 } else { 0.16 });
    let text = if dark {
        base.lerp_to_gamma(Color32::WHITE, 0.35)
    } else {
        base.lerp_to_gamma(Color32::BLACK, 0.25)
    };
    (fill, text)
}

/// A pill with `text`, returning its response.
fn pill(
    ui: &mut egui::Ui,
    text: &str,
    fill: Color32,
    stroke: egui::Stroke,
    color: Color32,
    size: f32,
    sense: Sense,
) -> egui::Response {
    let galley =
        ui.painter()
            .layout_no_wrap(text.to_owned(), egui::FontId::proportional(size), color);
    let pad = vec2(size * 0.6, size * 0.25);
    let (rect, response) = ui.allocate_exact_size(galley.size() + 2.0 * pad, sense);
    let radius = rect.height() / 2.0;
    ui.painter()
        .rect(rect, radius, fill, stroke, egui::StrokeKind::Inside);
    ui.painter().galley(rect.min + pad, galley, color);
    response
}

impl ComponentRenderer for Badge {
    fn ui(&self, ui: &mut egui::Ui, cx: &mut ComponentContext<'_, '_>) -> egui::Response {
        let label = cx.string("label");
        let accent = cx.accent_color(ui);
        let (fill, color) = variant_colors(ui, cx.literal_str("variant"), accent);
        let size = cx.style().caption.size.max(cx.style().label.size);
        let r = pill(
            ui,
            &label,
            fill,
            egui::Stroke::NONE,
            color,
            size,
            Sense::hover(),
        );
        r.widget_info(|| egui::WidgetInfo::labeled(Role::Status, true, &label));
        set_accessible_name(ui, r.id, &label);
        r
    }
}

impl ComponentRenderer for Chip {
    fn ui(&self, ui: &mut egui::Ui, cx: &mut ComponentContext<'_, '_>) -> egui::Response {
        let label = cx.string("label");
        let selected = cx.bool("selected", false);
        let accent = cx.accent_color(ui);
        let visuals = ui.visuals().clone();
        let size = cx.style().label.size;
        let (fill, stroke, color) = if selected {
            (
                accent.gamma_multiply(0.22),
                egui::Stroke::new(1.0, accent),
                visuals.strong_text_color(),
            )
        } else {
            (
                Color32::TRANSPARENT,
                egui::Stroke::new(1.0, visuals.weak_text_color()),
                visuals.text_color(),
            )
        };
        let shown = if selected {
            format!("✓ {label}")
        } else {
            label.clone()
        };
        let r = pill(ui, &shown, fill, stroke, color, size, Sense::click());
        if r.hovered() {
            ui.painter().rect_stroke(
                r.rect,
                r.rect.height() / 2.0,
                visuals.widgets.hovered.bg_stroke,
                egui::StrokeKind::Inside,
            );
        }
        r.widget_info(|| egui::WidgetInfo::selected(Role::Button, true, selected, &label));
        ui.ctx().accesskit_node_builder(r.id, |node| {
            node.set_toggled(if selected {
                Toggled::True
            } else {
                Toggled::False
            });
            node.set_label(label.clone());
        });
        if r.clicked() {
            if cx.prop("selected").is_some() {
                cx.write(ui, "selected", Value::Bool(!selected));
            }
            cx.fire_action();
        }
        r
    }
}
