//! `Progress`: a bar (`variant: "bar"`, the default) or a spinner (`"spinner"`). With a
//! `value` (of `max`, default 100) the bar shows that fraction; without one (absent or
//! `null`) it is indeterminate: a segment sweeping the track, or a spinning arc.
//!
//! Accessibility: a `ProgressIndicator` node named by the label, with the value (percent)
//! when determinate.

use egui::accesskit::Role;
use egui::{Sense, vec2};

use super::util::label_ui;
use crate::catalog::set_accessible_name;
use crate::render::ComponentContext;
use crate::render::catalog::ComponentRenderer;

/// The `Progress` component.
pub struct Progress;

/// Height of the bar's track (px).
const TRACK: f32 = 8.0;

impl ComponentRenderer for Progress {
    fn ui(&self, ui: &mut egui::Ui, cx: &mut ComponentContext<'_, '_>) -> egui::Response {
        let max = cx
            .number("max")
            .filter(|m| m.is_finite() && *m > 0.0)
            .unwrap_or(100.0);
        let fraction = cx
            .number("value")
            .filter(|v| v.is_finite())
            .map(|v| (v / max).clamp(0.0, 1.0));
        let spinner = cx.literal_str("variant") == Some("spinner");
        let label = cx.string("label");
        let name = if label.trim().is_empty() {
            cx.fallback_name()
        } else {
            label.clone()
        };
        let style = cx.style().clone();
        let accent = cx.accent_color(ui);
        let inner = ui.vertical(|ui| {
            ui.spacing_mut().item_spacing.y = style.field_gap;
            label_ui(ui, &style, &label);
            let response = if spinner {
                let side = style.icon_size;
                let (rect, response) = ui.allocate_exact_size(vec2(side, side), Sense::hover());
                let painter = ui.painter();
                let center = rect.center();
                let radius = side / 2.0 - 2.0;
                let track = egui::Stroke::new(3.0, ui.visuals().widgets.inactive.bg_fill);
                painter.circle_stroke(center, radius, track);
                let time = ui.input(|i| i.time);
                let (start, sweep) = match fraction {
                    Some(f) => (-std::f64::consts::FRAC_PI_2, f * std::f64::consts::TAU),
                    None => {
                        ui.ctx().request_repaint();
                        (time * 4.0, std::f64::consts::PI * 1.2)
                    }
                };
                let n = 32;
                let points: Vec<egui::Pos2> = (0..=n)
                    .map(|i| {
                        let a = start + sweep * f64::from(i) / f64::from(n);
                        let a = a as f32;
                        center + radius * vec2(a.cos(), a.sin())
                    })
                    .collect();
                painter.add(egui::Shape::line(points, egui::Stroke::new(3.0, accent)));
                response
            } else {
                let width = ui.available_width().clamp(40.0, 10_000.0);
                let (rect, response) = ui.allocate_exact_size(vec2(width, TRACK), Sense::hover());
                let painter = ui.painter();
                let radius = TRACK / 2.0;
                painter.rect_filled(rect, radius, ui.visuals().widgets.inactive.bg_fill);
                let bar = match fraction {
                    Some(f) => {
                        let mut r = rect;
                        r.set_width(rect.width() * f as f32);
                        r
                    }
                    None => {
                        ui.ctx().request_repaint();
                        let t = ui.input(|i| i.time).rem_euclid(1.6) / 1.6;
                        let t = t as f32;
                        let seg = rect.width() * 0.3;
                        let left = rect.left() - seg + (rect.width() + seg) * t;
                        egui::Rect::from_min_max(
                            egui::pos2(left.max(rect.left()), rect.top()),
                            egui::pos2((left + seg).min(rect.right()), rect.bottom()),
                        )
                    }
                };
                if bar.width() > 0.0 {
                    painter.rect_filled(bar, radius, accent);
                }
                response
            };
            response.widget_info(|| {
                let mut info = egui::WidgetInfo::labeled(Role::ProgressIndicator, true, &name);
                info.value = fraction.map(|f| (f * 100.0).round());
                info
            });
            set_accessible_name(ui, response.id, &name);
            if fraction.is_none() {
                ui.ctx().accesskit_node_builder(response.id, |node| {
                    node.set_description("in progress".to_owned());
                });
            }
            response
        });
        inner.inner
    }
}
