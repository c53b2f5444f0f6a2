//! `TimePicker`: an hour and a minute editor for a `value` of `HH:MM` (seconds kept when
//! given), two-way bound; `minuteStep` (default 1) snaps the minutes, `min` / `max`
//! (`HH:MM`) clamp every edit. An empty or unreadable value shows a "Set time" button.
//!
//! Accessibility: the two editors are spin buttons named `<label> hour` and
//! `<label> minute`.

use serde_json::Value;

use super::util::label_ui;
use crate::catalog::set_accessible_name;
use crate::render::ComponentContext;
use crate::render::catalog::ComponentRenderer;

/// The `TimePicker` component.
pub struct TimePicker;

/// A time of day: minutes since midnight and the seconds suffix, verbatim (`:15`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Time {
    pub minutes: u32,
    pub seconds: String,
}

/// `HH:MM` or `HH:MM:SS` (two digits each, in range).
pub(super) fn parse_time(s: &str) -> Option<Time> {
    let s = s.trim();
    let b = s.as_bytes();
    if b.len() < 5 || b.get(2) != Some(&b':') {
        return None;
    }
    let two = |i: usize| -> Option<u32> {
        let d = s.get(i..i + 2)?;
        if !d.bytes().all(|c| c.is_ascii_digit()) {
            return None;
        }
        d.parse().ok()
    };
    let (h, m) = (two(0)?, two(3)?);
    if h > 23 || m > 59 {
        return None;
    }
    let rest = s.get(5..)?;
    let seconds = match rest {
        "" => String::new(),
        r if r.len() == 3 && r.starts_with(':') && two(6).is_some_and(|x| x <= 59) => r.to_owned(),
        _ => return None,
    };
    Some(Time {
        minutes: h * 60 + m,
        seconds,
    })
}

/// `HH:MM` (plus the kept seconds).
pub(super) fn format_time(minutes: u32, seconds: &str) -> String {
    format!("{:02}:{:02}{seconds}", (minutes / 60) % 24, minutes % 60)
}

impl ComponentRenderer for TimePicker {
    fn ui(&self, ui: &mut egui::Ui, cx: &mut ComponentContext<'_, '_>) -> egui::Response {
        let label = cx.string("label");
        let name = if label.trim().is_empty() {
            cx.fallback_name()
        } else {
            label.clone()
        };
        let value = parse_time(&cx.string("value"));
        let step = cx
            .number("minuteStep")
            .filter(|s| s.is_finite() && *s >= 1.0)
            .map_or(1, |s| s.min(60.0) as u32);
        let lo = cx
            .opt_string("min")
            .and_then(|s| parse_time(&s))
            .map_or(0, |t| t.minutes);
        let hi = cx
            .opt_string("max")
            .and_then(|s| parse_time(&s))
            .map_or(24 * 60 - 1, |t| t.minutes);
        let (lo, hi) = if lo <= hi { (lo, hi) } else { (hi, lo) };
        let style = cx.style().clone();
        let inner = ui.vertical(|ui| {
            ui.spacing_mut().item_spacing.y = style.field_gap;
            label_ui(ui, &style, &label);
            let mut next: Option<String> = None;
            let row = ui.horizontal(|ui| match &value {
                Some(t) => {
                    let (mut h, mut m) = (t.minutes / 60, t.minutes % 60);
                    let rh = ui.add(
                        egui::DragValue::new(&mut h)
                            .range(0..=23)
                            .custom_formatter(|n, _| format!("{n:02.0}")),
                    );
                    set_accessible_name(ui, rh.id, &format!("{name} hour"));
                    ui.label(":");
                    let rm = ui.add(
                        egui::DragValue::new(&mut m)
                            .range(0..=59)
                            .speed(f64::from(step))
                            .custom_formatter(|n, _| format!("{n:02.0}")),
                    );
                    set_accessible_name(ui, rm.id, &format!("{name} minute"));
                    if rh.changed() || rm.changed() {
                        let m = (m / step) * step;
                        let minutes = (h * 60 + m).clamp(lo, hi);
                        if minutes != t.minutes {
                            next = Some(format_time(minutes, &t.seconds));
                        }
                    }
                }
                None => {
                    let r = ui.button("Set time");
                    set_accessible_name(ui, r.id, &format!("{name}: set time"));
                    if r.clicked() {
                        next = Some(format_time(lo, ""));
                    }
                }
            });
            if let Some(v) = next {
                cx.write(ui, "value", Value::String(v));
            }
            let failure = cx.first_check_failure();
            cx.check_message_ui(ui, failure.as_deref());
            row.response
        });
        inner.inner
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_parse_and_format() {
        let t = parse_time("07:30").expect("a time");
        assert_eq!((t.minutes, t.seconds.as_str()), (450, ""));
        let t = parse_time("23:59:15").expect("a time");
        assert_eq!(format_time(t.minutes, &t.seconds), "23:59:15");
        for bad in [
            "", "7:30", "24:00", "12:60", "12:30:61", "ab:cd", "12:30x", "12:3",
        ] {
            assert_eq!(parse_time(bad), None, "{bad:?}");
        }
    }
}
