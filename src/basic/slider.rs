//! `Slider`: `min` (default 0) to `max` (default 100), the v1.0 `steps` snapping (the
//! number of divisions of the range), a header line above the track with the label at the
//! start and the value at the end, as the web renderer draws it.
//!
//! Hostile bounds never panic: non-finite or huge bounds are clamped, `min > max` is
//! swapped, an empty range shows a disabled slider, `steps` below 1 is ignored.

use super::controls::{input_label, number_value};
use super::margin::with_margin;
use crate::render::ComponentContext;
use crate::render::a11y::set_accessible_name;
use crate::render::catalog::ComponentRenderer;
use crate::render::slot::Incoming;

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
        let incoming = Incoming::of(ui);
        let stretched = incoming.extent.width.is_some();
        // The reference's slider: an 8 px margin around a label line, a 2 px gap and the
        // track (37 px in all).
        let (response, outer) = with_margin(ui, style.checkbox_margin, |ui| {
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
            let mut slider = egui::Slider::new(&mut value, range.min..=hi)
                .clamping(egui::SliderClamping::Always)
                .show_value(false);
            if let Some(step) = range.step {
                slider = slider.step_by(step);
            }
            // egui's slider handles the input; the track and thumb are the reference's,
            // painted over its invisible ones: egui's rail and handle draw nothing, in a
            // style shared by every slider of this width (no `Ui` and no `Style` clone per
            // slider). `add_enabled` wraps the widget in a scope (a `Ui`): only when needed.
            let slider = slider.trailing_fill(false);
            let response = cx.with_shared_style(
                ui,
                ("a2ui-slider", width.to_bits()),
                |s| {
                    s.spacing.slider_width = width;
                    let widgets = &mut s.visuals.widgets;
                    for w in [
                        &mut widgets.inactive,
                        &mut widgets.hovered,
                        &mut widgets.active,
                    ] {
                        w.bg_fill = egui::Color32::TRANSPARENT;
                        w.weak_bg_fill = egui::Color32::TRANSPARENT;
                        w.fg_stroke = egui::Stroke::NONE;
                    }
                    s.visuals.slider_trailing_fill = false;
                },
                |ui| {
                    if empty {
                        ui.add_enabled(false, slider)
                    } else {
                        ui.add(slider)
                    }
                },
            );
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
        });
        cx.set_geometry_box(outer.shrink(style.checkbox_margin));
        response
    }
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
