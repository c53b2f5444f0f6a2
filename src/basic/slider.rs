//! `Slider`: `min` (default 0) to `max` (default 100), the v1.0 `steps` snapping (the
//! number of divisions of the range), a header line above the track with the label at the
//! start and the value at the end, as the web renderer draws it.
//!
//! Hostile bounds never panic: non-finite or huge bounds are clamped, `min > max` is
//! swapped, an empty range shows a disabled slider, `steps` below 1 is ignored.

use super::controls::input_label;
use super::margin::with_margin;
use crate::catalog::ComponentRenderer;
use crate::catalog::Incoming;
use crate::catalog::set_accessible_name;
use crate::eval::coerce::number_value;
use crate::render::ComponentContext;

/// The `Slider` component.
pub struct Slider;

/// Bounds beyond this are clamped so the range width stays finite.
const BOUND: f64 = 1e15;
/// More divisions than this are treated as continuous.
const MAX_STEPS: f64 = 1e9;

/// The effective range and step of a slider.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Range {
    /// The lower bound.
    pub min: f64,
    /// The upper bound (`>= min`).
    pub max: f64,
    /// The snapping step, when `steps` is given and usable.
    pub step: Option<f64>,
}

impl Range {
    /// Sanitise raw `min`, `max` and `steps`.
    pub(crate) fn new(min: Option<f64>, max: Option<f64>, steps: Option<f64>) -> Self {
        let clean = |v: Option<f64>, d: f64| match v {
            Some(v) if v.is_finite() => v.clamp(-BOUND, BOUND),
            _ => d,
        };
        let mut min = clean(min, 0.0);
        let mut max = clean(max, 100.0);
        if min > max {
            std::mem::swap(&mut min, &mut max);
        }
        let step = steps
            .filter(|s| s.is_finite() && *s >= 1.0)
            .map(|s| s.floor().min(MAX_STEPS))
            .map(|s| (max - min) / s)
            .filter(|s| s.is_finite() && *s > 0.0);
        Self { min, max, step }
    }

    /// Clamp into the range and snap to the nearest step.
    pub(crate) fn snap(&self, v: f64) -> f64 {
        let v = if v.is_finite() { v } else { self.min };
        let v = v.clamp(self.min, self.max);
        match self.step {
            Some(step) => {
                let k = ((v - self.min) / step).round();
                tidy((self.min + k * step).clamp(self.min, self.max))
            }
            None => v,
        }
    }
}

/// Where `value` lies along `min..=hi` (0 for an empty range).
fn value_fraction(value: f64, min: f64, hi: f64, empty: bool) -> f32 {
    if empty {
        0.0
    } else {
        ((value - min) / (hi - min)).clamp(0.0, 1.0) as f32
    }
}

/// The value as the reference's header shows it: the number as JavaScript prints it
/// (`0.45`, `50`, `-3.5`), with float noise dropped.
fn format_value(v: f64) -> String {
    let v = tidy(v);
    if v == 0.0 {
        // No `-0`.
        return "0".to_owned();
    }
    format!("{v}")
}

/// Drop float noise from a snapped value (`0.30000000000000004` → `0.3`): keep 12 decimals.
fn tidy(v: f64) -> f64 {
    // A whole number (the usual value) has no noise to drop: no round trip through text.
    if v.fract() == 0.0 || !v.is_finite() {
        return v;
    }
    format!("{v:.12}").parse().unwrap_or(v)
}

impl ComponentRenderer for Slider {
    fn ui(&self, ui: &mut egui::Ui, cx: &mut ComponentContext<'_, '_>) -> egui::Response {
        let range = Range::new(cx.number("min"), cx.number("max"), cx.number("steps"));
        let current = range.snap(cx.number("value").unwrap_or(range.min));
        let mut value = current;
        let label = cx.string("label");
        let style = cx.style().clone();
        let incoming = Incoming::of(ui, cx);
        let stretched = incoming.extent.width.is_some();
        // The reference's slider: an 8 px margin around a label line, a 2 px gap and the
        // track (37 px in all). A slot that keeps the margin already (a Row's or Column's)
        // leaves the slider its `Ui` to draw in straight away.
        let margin = if incoming.margin() > 0.0 {
            0.0
        } else {
            style.checkbox_margin
        };
        let mut body = |ui: &mut egui::Ui, cx: &mut ComponentContext<'_, '_>| {
            ui.set_style(cx.shared_style(
                ui,
                ("a2ui-item-spacing-y", style.field_gap.to_bits()),
                |s| {
                    s.spacing.item_spacing.y = style.field_gap;
                },
            ));
            ui.set_min_height(style.label.line_height + style.field_gap + 20.0);
            let empty = range.max <= range.min;
            let hi = if empty { range.min + 1.0 } else { range.max };
            // The reference's header line over the track: the label at the start and the
            // value at the end (`.a2ui-slider-header { display: flex; justify-content:
            // space-between }`), as wide as the track.
            // Stretched where the parent gives a width (as a text field is), else the
            // reference's intrinsic width.
            let width = if stretched {
                ui.available_width()
            } else {
                style.slider_width.min(ui.available_width())
            }
            .max(0.0);
            // The label in the flow (no `Ui` of its own), wrapped within the track's width;
            // with no label, its line is left empty for the value.
            ui.set_max_width(width.max(ui.min_rect().width()));
            let line = egui::vec2(width, style.label.line_height);
            let label_response = input_label(ui, &label);
            let header = match &label_response {
                Some(r) => {
                    egui::Rect::from_min_size(r.rect.min, egui::vec2(width, r.rect.height()))
                }
                None => ui.allocate_space(line).1,
            };
            let palette = cx.palette(ui);
            // The value: painted, not a widget of its own (the slider's AccessKit node
            // carries it).
            let galley = ui.painter().layout_no_wrap(
                format_value(value),
                style.label.font_id(ui.ctx()),
                palette.on_background,
            );
            let at = egui::pos2(
                header.right() - galley.size().x,
                header.center().y - galley.size().y / 2.0,
            );
            ui.painter().galley(at, galley, palette.on_background);
            // egui's slider input (drag, click, arrow keys, screen-reader steps), without
            // the `Ui` egui's slider opens for itself; the track and thumb are the
            // reference's. An empty range is a disabled slider.
            let step = range.step;
            let response = if empty {
                ui.add_enabled_ui(false, |ui| {
                    slider_input(ui, &mut value, range.min..=hi, step, width)
                })
                .inner
            } else {
                slider_input(ui, &mut value, range.min..=hi, step, width)
            };
            let t = value_fraction(value, range.min, hi, empty);
            paint_track(ui, &response, t, width, &style, &palette);
            // Name the slider itself: its number field is labelled by it.
            match label_response {
                Some(_) => set_accessible_name(ui, response.id, &label),
                None => set_accessible_name(ui, response.id, &cx.fallback_name()),
            }
            let snapped = range.snap(value);
            if response.changed()
                && snapped != current
                && let Some(v) = number_value(snapped)
            {
                cx.write(ui, "value", v);
            }
            let failure = cx.first_check_failure();
            cx.check_message_ui(ui, failure.as_deref());
            response
        };
        let (response, outer) = if margin > 0.0 {
            with_margin(ui, margin, |ui| body(ui, cx))
        } else {
            let response = body(ui, cx);
            (response, ui.min_rect())
        };
        cx.set_geometry_box(outer.shrink(margin));
        response
    }
}

/// The input of a horizontal, linear, clamping `egui::Slider` with smart aim and no value
/// field (`slider_core` of egui 0.37, which egui keeps private), allocated straight in `ui`:
/// a `width`-wide row the height of a body line, set by a drag or click (the value under the
/// pointer, the simplest value within the aim radius), stepped by the arrow keys and by a
/// screen reader's increment and decrement (one point along the rail, or one `step`), set
/// by its set-value request, and described to it as a slider with its range and step. egui's
/// own slider opens a `Ui` of its own for this (one per slider, each frame); this does not,
/// and paints nothing (the caller paints the track).
fn slider_input(
    ui: &mut egui::Ui,
    value: &mut f64,
    range: std::ops::RangeInclusive<f64>,
    step: Option<f64>,
    width: f32,
) -> egui::Response {
    let (lo, hi) = (*range.start(), *range.end());
    let clamp = |v: f64| if v.is_nan() { lo } else { v.clamp(lo, hi) };
    let round = |v: f64| {
        let v = clamp(v);
        match step {
            Some(step) => lo + ((v - lo) / step).round() * step,
            None => v,
        }
    };
    let old = clamp(*value);
    *value = round(old);
    let thickness = ui
        .text_style_height(&egui::TextStyle::Body)
        .max(ui.spacing().interact_size.y);
    let mut response = ui.allocate_response(egui::vec2(width, thickness), egui::Sense::drag());
    let rect = response.rect;
    // Where the handle's centre may go: the rail inset by the handle's radius.
    let radius = rect.height() / 2.5;
    let radius = match ui.style().visuals.handle_shape {
        egui::style::HandleShape::Circle => radius,
        egui::style::HandleShape::Rect { aspect_ratio } => radius * aspect_ratio,
    };
    let positions = rect.x_range().shrink(radius);
    let value_at = |x: f32| -> f64 {
        let t = f64::from(egui::remap_clamp(x, positions, 0.0..=1.0));
        if t <= 0.0 {
            lo
        } else if t >= 1.0 {
            hi
        } else {
            egui::lerp(lo..=hi, t)
        }
    };
    let position_of = |v: f64| -> f32 {
        let t = if v <= lo {
            0.0
        } else if v >= hi {
            1.0
        } else {
            egui::remap_clamp(v, lo..=hi, 0.0..=1.0)
        };
        egui::lerp(positions, t as f32)
    };
    if let Some(pointer) = response.interact_pointer_pos() {
        let aim = ui.input(|i| i.aim_radius());
        *value = round(egui::emath::smart_aim::best_in_range_f64(
            value_at(pointer.x - aim),
            value_at(pointer.x + aim),
        ));
    }
    let mut steps = 0.0_f32;
    if response.has_focus() {
        ui.memory_mut(|m| {
            m.set_focus_lock_filter(
                response.id,
                egui::EventFilter {
                    horizontal_arrows: true,
                    ..Default::default()
                },
            );
        });
        steps += ui.input(|i| {
            i.num_presses(egui::Key::ArrowRight) as f32 - i.num_presses(egui::Key::ArrowLeft) as f32
        });
    }
    steps += ui.input(|i| {
        use egui::accesskit::Action;
        i.num_accesskit_action_requests(response.id, Action::Increment) as f32
            - i.num_accesskit_action_requests(response.id, Action::Decrement) as f32
    });
    if steps != 0.0 {
        let previous = *value;
        *value = round(match step {
            Some(step) => previous + f64::from(steps) * step,
            None => {
                let at = position_of(previous) + steps;
                egui::emath::smart_aim::best_in_range_f64(value_at(at - 0.49), value_at(at + 0.49))
            }
        });
    }
    let requested = ui.input(|i| {
        use egui::accesskit::{Action, ActionData};
        i.accesskit_action_requests(response.id, Action::SetValue)
            .filter_map(|r| match r.data {
                Some(ActionData::NumericValue(v)) => Some(v),
                _ => None,
            })
            .last()
    });
    if let Some(v) = requested {
        *value = round(v);
    }
    if *value != old {
        response.mark_changed();
    }
    let current = *value;
    response.widget_info(|| egui::WidgetInfo::slider(ui.is_enabled(), current, ""));
    ui.ctx().accesskit_node_builder(response.id, |node| {
        use egui::accesskit::Action;
        node.set_min_numeric_value(lo);
        node.set_max_numeric_value(hi);
        if let Some(step) = step {
            node.set_numeric_value_step(step);
        }
        node.add_action(Action::SetValue);
        if current < hi {
            node.add_action(Action::Increment);
        }
        if lo < current {
            node.add_action(Action::Decrement);
        }
    });
    response
}

/// The reference's range input (Chromium's, `accent-color: var(--a2ui-slider-thumb-color,
/// var(--a2ui-color-primary))`): a rounded, outlined track in Chromium's control colours,
/// filled with the primary up to the thumb, and a primary
/// disc as the thumb; where egui's slider (its rail, `width` wide, `t` of the way along)
/// lies in `response`'s row.
fn paint_track(
    ui: &egui::Ui,
    response: &egui::Response,
    t: f32,
    width: f32,
    style: &crate::render::Style,
    palette: &crate::render::Palette,
) {
    let row = response.rect;
    let height = ui.spacing().interact_size.y;
    let width = width.min(row.width());
    let rect = egui::Rect::from_min_size(
        egui::pos2(row.left(), row.center().y - height / 2.0),
        egui::vec2(width, height),
    );
    // egui's handle positions: the rail inset by its handle radius (height / 2.5).
    let inset = rect.height() / 2.5;
    let x = egui::lerp((rect.left() + inset)..=(rect.right() - inset), t);
    let track =
        egui::Rect::from_center_size(rect.center(), egui::vec2(rect.width(), style.slider_track));
    let painter = ui.painter();
    let radius = style.slider_track / 2.0;
    let enabled = ui.is_enabled() && response.enabled();
    let accent = if enabled {
        palette.primary
    } else {
        palette.border
    };
    painter.rect(
        track,
        radius,
        palette.range_track,
        egui::Stroke::new(1.0, palette.range_border),
        egui::StrokeKind::Inside,
    );
    let mut filled = track;
    filled.max.x = x;
    if filled.width() > 0.0 {
        painter.rect_filled(filled, radius, accent);
    }
    let thumb = if response.dragged() || response.hovered() {
        palette.primary_hover(ui.visuals().dark_mode)
    } else {
        accent
    };
    painter.circle_filled(
        egui::pos2(x, rect.center().y),
        style.slider_thumb_radius,
        thumb,
    );
    if response.has_focus() {
        painter.circle_stroke(
            egui::pos2(x, rect.center().y),
            style.slider_thumb_radius + 2.0,
            egui::Stroke::new(2.0, palette.primary),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    #[test]
    fn the_header_value_is_written_as_javascript_writes_numbers() {
        assert_eq!(format_value(0.45), "0.45");
        assert_eq!(format_value(50.0), "50");
        assert_eq!(format_value(-3.5), "-3.5");
        assert_eq!(format_value(0.1 + 0.2), "0.3");
        assert_eq!(format_value(-0.0), "0");
    }

    #[test]
    fn steps_snap_to_divisions_of_the_range() {
        let r = Range::new(Some(0.0), Some(10.0), Some(4.0));
        assert_eq!(r.step, Some(2.5));
        assert_eq!(r.snap(3.0), 2.5);
        assert_eq!(r.snap(3.9), 5.0);
        assert_eq!(r.snap(11.0), 10.0);
    }

    #[test]
    fn snapped_values_carry_no_float_noise() {
        let r = Range::new(Some(0.0), Some(1.0), Some(10.0));
        assert_eq!(r.snap(0.31), 0.3);
        assert_eq!(r.snap(0.7), 0.7);
    }

    #[test]
    fn hostile_bounds_and_steps_are_tamed() {
        let r = Range::new(Some(10.0), Some(0.0), Some(0.0));
        assert_eq!((r.min, r.max, r.step), (0.0, 10.0, None));
        let r = Range::new(Some(f64::NAN), Some(f64::INFINITY), Some(f64::NAN));
        assert_eq!((r.min, r.max, r.step), (0.0, 100.0, None));
        let r = Range::new(Some(-1e300), Some(1e300), Some(3.0));
        assert!(r.step.is_some_and(f64::is_finite));
        let r = Range::new(Some(5.0), Some(5.0), Some(10.0));
        assert_eq!(r.step, None);
        assert_eq!(r.snap(7.0), 5.0);
        let r = Range::new(Some(0.0), Some(1.0), Some(-3.0));
        assert_eq!(number_value(r.snap(f64::NAN)), Some(Value::from(0)));
    }
}
