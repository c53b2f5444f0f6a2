//! `Rating`: a row of stars, `value` of `max` (default 5), read-only (`readOnly`) or an
//! input: a click on a star, the arrow keys, or an assistive technology's set / increment /
//! decrement write the value back (whole stars; a read-only rating shows half stars).
//!
//! Accessibility: a `Slider` node named by the label, with the value and its range.

use egui::accesskit::Action;
use egui::{Color32, Pos2, Sense, Shape, vec2};

use super::util::{accesskit_requests, label_ui};
use crate::catalog::{number_value, set_accessible_name};
use crate::render::ComponentContext;
use crate::render::catalog::ComponentRenderer;

/// The `Rating` component.
pub struct Rating;

/// Gap between stars (px).
const GAP: f32 = 2.0;

/// The ten corners of a five-pointed star in `rect`, outer first, clockwise from the top.
fn star_points(center: Pos2, radius: f32) -> [Pos2; 10] {
    let inner = radius * 0.45;
    let mut pts = [center; 10];
    for (i, p) in pts.iter_mut().enumerate() {
        let r = if i % 2 == 0 { radius } else { inner };
        let a = -std::f32::consts::FRAC_PI_2 + std::f32::consts::PI * i as f32 / 5.0;
        *p = center + r * vec2(a.cos(), a.sin());
    }
    pts
}

/// A filled star as a triangle fan around its centre (a star is not convex).
fn star_mesh(center: Pos2, radius: f32, color: Color32) -> Shape {
    let pts = star_points(center, radius);
    let mut mesh = egui::Mesh::default();
    mesh.colored_vertex(center, color);
    for p in pts {
        mesh.colored_vertex(p, color);
    }
    for i in 0..10u32 {
        mesh.add_triangle(0, 1 + i, 1 + (i + 1) % 10);
    }
    Shape::mesh(mesh)
}

/// A star's outline.
fn star_outline(center: Pos2, radius: f32, stroke: egui::Stroke) -> Shape {
    Shape::closed_line(star_points(center, radius).to_vec(), stroke)
}

impl ComponentRenderer for Rating {
    fn ui(&self, ui: &mut egui::Ui, cx: &mut ComponentContext<'_, '_>) -> egui::Response {
        let most = cx.limits().max_rating_stars.max(1) as f64;
        let max = cx
            .number("max")
            .filter(|m| m.is_finite())
            .map_or(5.0_f64.min(most), |m| m.round().clamp(1.0, most));
        let stars = max as usize;
        let value = cx
            .number("value")
            .filter(|v| v.is_finite())
            .unwrap_or(0.0)
            .clamp(0.0, max);
        let read_only = cx.bool("readOnly", false);
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
            let side = style.icon_size;
            let width = side * stars as f32 + GAP * (stars.saturating_sub(1)) as f32;
            let sense = if read_only {
                Sense::hover()
            } else {
                Sense::click()
            };
            let (rect, response) = ui.allocate_exact_size(vec2(width, side), sense);
            let star_at = |x: f32| -> f64 {
                let k = ((x - rect.left()) / (side + GAP)).floor() + 1.0;
                f64::from(k).clamp(1.0, max)
            };
            let mut next: Option<f64> = None;
            if !read_only {
                if response.clicked()
                    && let Some(p) = response.interact_pointer_pos()
                {
                    next = Some(star_at(p.x));
                }
                let (set, steps) = accesskit_requests(ui, response.id);
                if let Some(v) = set.filter(|v| v.is_finite()) {
                    next = Some(v.round().clamp(0.0, max));
                }
                if steps != 0 {
                    next = Some((value.round() + f64::from(steps)).clamp(0.0, max));
                }
                if response.has_focus() {
                    let (up, down) = ui.input(|i| {
                        (
                            i.key_pressed(egui::Key::ArrowRight)
                                || i.key_pressed(egui::Key::ArrowUp),
                            i.key_pressed(egui::Key::ArrowLeft)
                                || i.key_pressed(egui::Key::ArrowDown),
                        )
                    });
                    if up {
                        next = Some((value.round() + 1.0).min(max));
                    } else if down {
                        next = Some((value.round() - 1.0).max(0.0));
                    }
                }
            }
            // Hovering an input previews the rating a click would give.
            let shown = match response.hover_pos() {
                Some(p) if !read_only => star_at(p.x),
                _ => next.unwrap_or(value),
            };
            let painter = ui.painter_at(rect.expand(1.0));
            let empty = ui.visuals().widgets.inactive.bg_stroke;
            let empty = egui::Stroke::new(empty.width.max(1.0), ui.visuals().weak_text_color());
            for i in 0..stars {
                let left = rect.left() + (side + GAP) * i as f32;
                let center = Pos2::new(left + side / 2.0, rect.center().y);
                let radius = side / 2.0 - 1.0;
                let fill = (shown - i as f64).clamp(0.0, 1.0);
                if fill >= 0.75 {
                    painter.add(star_mesh(center, radius, accent));
                } else if fill >= 0.25 {
                    // Half a star: the filled star clipped to its left half.
                    let half = egui::Rect::from_min_max(
                        Pos2::new(left, rect.top()),
                        Pos2::new(center.x, rect.bottom()),
                    );
                    ui.painter_at(half).add(star_mesh(center, radius, accent));
                    painter.add(star_outline(center, radius, egui::Stroke::new(1.0, accent)));
                } else {
                    painter.add(star_outline(center, radius, empty));
                }
            }
            if response.has_focus() {
                painter.rect_stroke(
                    rect.expand(1.0),
                    2.0,
                    ui.visuals().selection.stroke,
                    egui::StrokeKind::Outside,
                );
            }
            response.widget_info(|| egui::WidgetInfo::slider(!read_only, value, &name));
            let id = response.id;
            ui.ctx().accesskit_node_builder(id, |node| {
                node.set_min_numeric_value(0.0);
                node.set_max_numeric_value(max);
                node.set_numeric_value_step(1.0);
                node.set_numeric_value(value);
                if read_only {
                    node.set_read_only();
                } else {
                    node.add_action(Action::SetValue);
                    node.add_action(Action::Increment);
                    node.add_action(Action::Decrement);
                }
            });
            set_accessible_name(ui, id, &name);
            if let Some(v) = next
                && v != value
                && let Some(json) = number_value(v)
            {
                cx.write(ui, "value", json);
            }
            let failure = cx.first_check_failure();
            cx.check_message_ui(ui, failure.as_deref());
            response
        });
        inner.inner
    }
}
