//! `DateTimeInput`: a date picker (egui_extras' `DatePickerButton`) when `enableDate`, an
//! hour/minute editor when `enableTime`, both together for a date-time. With neither flag
//! the value's own shape decides (both for an empty value).
//!
//! Values are ISO 8601 strings and round-trip exactly: a value is only rewritten when the
//! user edits it, and then keeps its shape: a date stays `YYYY-MM-DD`, a time `HH:MM`
//! (`:SS`, fractions and offsets kept when given), a date-time is `YYYY-MM-DDTHH:MM:SS`.
//! `min` / `max` clamp every edit. An empty (or unreadable) value shows a "Select"
//! placeholder.

use std::cmp::Ordering;
use std::fmt::Write as _;

use jiff::civil::Date;
use serde_json::Value;

use crate::catalog::ComponentRenderer;
use crate::catalog::Incoming;
use crate::catalog::{name_date_picker, set_accessible_name};
use crate::render::ComponentContext;

/// The `DateTimeInput` component.
pub struct DateTimeInput;

/// The time part of an ISO 8601 value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct IsoTime {
    /// 0–23.
    pub hour: u8,
    /// 0–59.
    pub minute: u8,
    /// 0–59, when the value has seconds.
    pub second: Option<u8>,
    /// Fractional seconds and offset, verbatim (`.250Z`, `+02:00`, or empty).
    pub rest: String,
}

/// A parsed ISO 8601 date, time or date-time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct IsoValue {
    /// The date part.
    pub date: Option<Date>,
    /// The date/time separator, verbatim (`T`, `t` or a space).
    pub sep: char,
    /// The time part.
    pub time: Option<IsoTime>,
}

/// Exactly `n` ASCII digits at the start of `s`.
fn digits(s: &str, n: usize) -> Option<(u32, &str)> {
    let head = s.get(..n)?;
    if !head.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((head.parse().ok()?, s.get(n..)?))
}

fn parse_date(s: &str) -> Option<(Date, &str)> {
    let (y, s) = digits(s, 4)?;
    let s = s.strip_prefix('-')?;
    let (m, s) = digits(s, 2)?;
    let s = s.strip_prefix('-')?;
    let (d, s) = digits(s, 2)?;
    let date = Date::new(
        i16::try_from(y).ok()?,
        i8::try_from(m).ok()?,
        i8::try_from(d).ok()?,
    )
    .ok()?;
    Some((date, s))
}

/// A fraction (only after seconds) and an offset: `(\.\d+)?(Z|z|[+-]HH(:?MM)?)?`.
fn valid_rest(rest: &str, has_seconds: bool) -> bool {
    let mut s = rest;
    if let Some(frac) = s.strip_prefix('.') {
        if !has_seconds {
            return false;
        }
        let n = frac.bytes().take_while(u8::is_ascii_digit).count();
        if n == 0 {
            return false;
        }
        s = frac.get(n..).unwrap_or_default();
    }
    if s.is_empty() || s == "Z" || s == "z" {
        return true;
    }
    let Some(off) = s.strip_prefix(['+', '-']) else {
        return false;
    };
    let Some((h, after)) = digits(off, 2) else {
        return false;
    };
    if h > 23 {
        return false;
    }
    let after = after.strip_prefix(':').unwrap_or(after);
    if after.is_empty() {
        return true;
    }
    matches!(digits(after, 2), Some((m, "")) if m < 60)
}

fn parse_time(s: &str) -> Option<IsoTime> {
    let (hour, s) = digits(s, 2)?;
    let s = s.strip_prefix(':')?;
    let (minute, s) = digits(s, 2)?;
    if hour > 23 || minute > 59 {
        return None;
    }
    let (second, rest) = match s.strip_prefix(':') {
        Some(after) => {
            let (sec, rest) = digits(after, 2)?;
            if sec > 59 {
                return None;
            }
            (Some(u8::try_from(sec).ok()?), rest)
        }
        None => (None, s),
    };
    if !valid_rest(rest, second.is_some()) {
        return None;
    }
    Some(IsoTime {
        hour: u8::try_from(hour).ok()?,
        minute: u8::try_from(minute).ok()?,
        second,
        rest: rest.to_owned(),
    })
}

/// Parse `YYYY-MM-DD`, `HH:MM[:SS[.fff]][offset]` or the two joined by `T`. Invalid
/// calendar dates (Feb 30, month 13) are refused.
pub(crate) fn parse_iso(s: &str) -> Option<IsoValue> {
    if let Some((date, rest)) = parse_date(s) {
        if rest.is_empty() {
            return Some(IsoValue {
                date: Some(date),
                sep: 'T',
                time: None,
            });
        }
        let mut chars = rest.chars();
        let sep = chars.next()?;
        if !matches!(sep, 'T' | 't' | ' ') {
            return None;
        }
        let time = parse_time(chars.as_str())?;
        return Some(IsoValue {
            date: Some(date),
            sep,
            time: Some(time),
        });
    }
    parse_time(s).map(|t| IsoValue {
        date: None,
        sep: 'T',
        time: Some(t),
    })
}

/// Write a value back in its own shape.
pub(crate) fn format_iso(v: &IsoValue) -> String {
    let mut out = String::with_capacity(32);
    if let Some(d) = v.date {
        let _ = write!(out, "{:04}-{:02}-{:02}", d.year(), d.month(), d.day());
    }
    if let Some(t) = &v.time {
        if v.date.is_some() {
            out.push(v.sep);
        }
        let _ = write!(out, "{:02}:{:02}", t.hour, t.minute);
        if let Some(s) = t.second {
            let _ = write!(out, ":{s:02}");
        }
        out.push_str(&t.rest);
    }
    out
}

fn time_key(t: &IsoTime) -> u32 {
    u32::from(t.hour) * 3600 + u32::from(t.minute) * 60 + u32::from(t.second.unwrap_or(0))
}

/// Order two values on the parts both have (`None` when they share none).
fn compare(a: &IsoValue, b: &IsoValue) -> Option<Ordering> {
    if let (Some(x), Some(y)) = (a.date, b.date)
        && x != y
    {
        return Some(x.cmp(&y));
    }
    match (&a.time, &b.time) {
        (Some(x), Some(y)) => Some(time_key(x).cmp(&time_key(y))),
        _ if a.date.is_some() && b.date.is_some() => Some(Ordering::Equal),
        _ => None,
    }
}

/// `v` moved onto `bound`, keeping the parts `v` has and its shape.
fn adopt(v: &IsoValue, bound: &IsoValue) -> IsoValue {
    let mut out = v.clone();
    if out.date.is_some()
        && let Some(d) = bound.date
    {
        out.date = Some(d);
    }
    if let (Some(t), Some(b)) = (&mut out.time, &bound.time) {
        t.hour = b.hour;
        t.minute = b.minute;
        if t.second.is_some() || b.second.is_some() {
            t.second = Some(b.second.unwrap_or(0));
        }
    }
    out
}

/// Clamp `v` into `[min, max]` (bounds in the wrong order are swapped; bounds that share
/// no part with `v` are ignored).
pub(crate) fn clamp_iso(v: &IsoValue, min: Option<&IsoValue>, max: Option<&IsoValue>) -> IsoValue {
    let (min, max) = match (min, max) {
        (Some(a), Some(b)) if compare(a, b) == Some(Ordering::Greater) => (Some(b), Some(a)),
        other => other,
    };
    let mut out = v.clone();
    if let Some(lo) = min
        && compare(&out, lo) == Some(Ordering::Less)
    {
        out = adopt(&out, lo);
    }
    if let Some(hi) = max
        && compare(&out, hi) == Some(Ordering::Greater)
    {
        out = adopt(&out, hi);
    }
    out
}

/// A date-time always carries seconds.
fn canonical(mut v: IsoValue) -> IsoValue {
    if v.date.is_some()
        && let Some(t) = &mut v.time
    {
        t.second.get_or_insert(0);
    }
    v
}

/// `v` with the date set to `d` (a new date-time starts at midnight). Dates outside the
/// four-digit years ISO 8601 writes plainly are clamped to 0000-01-01 / 9999-12-31.
pub(crate) fn with_date(v: Option<&IsoValue>, d: Date, needs_time: bool) -> IsoValue {
    let mut out = v.cloned().unwrap_or(IsoValue {
        date: None,
        sep: 'T',
        time: None,
    });
    let d = if d.year() < 0 {
        Date::new(0, 1, 1).unwrap_or(d)
    } else {
        d
    };
    out.date = Some(d);
    if needs_time && out.time.is_none() {
        out.time = Some(IsoTime {
            hour: 0,
            minute: 0,
            second: Some(0),
            rest: String::new(),
        });
    }
    canonical(out)
}

/// `v` with the hour and minute set.
pub(crate) fn with_time(v: Option<&IsoValue>, hour: u8, minute: u8) -> IsoValue {
    let mut out = v.cloned().unwrap_or(IsoValue {
        date: None,
        sep: 'T',
        time: None,
    });
    let t = out.time.get_or_insert(IsoTime {
        hour: 0,
        minute: 0,
        second: None,
        rest: String::new(),
    });
    t.hour = hour.min(23);
    t.minute = minute.min(59);
    canonical(out)
}

/// The years the picker offers: the bounds' years, else a century back and ten years on.
fn year_range(min: Option<&IsoValue>, max: Option<&IsoValue>, today: Date) -> (i16, i16) {
    let lo = min
        .and_then(|m| m.date)
        .map_or(today.year().saturating_sub(100), |d| d.year());
    let hi = max
        .and_then(|m| m.date)
        .map_or(today.year().saturating_add(10), |d| d.year());
    let (lo, hi) = (lo.min(hi), lo.max(hi));
    (lo.clamp(0, 9999), hi.clamp(0, 9999))
}

/// The id salt of the date picker (its popup's area id derives from it).
const DATE_SALT: &str = "a2ui-date";

/// Height of the row of date and time inputs (the web renderer's inputs with 8 px padding).
const DATE_ROW_HEIGHT: f32 = 37.0;

impl ComponentRenderer for DateTimeInput {
    fn ui(&self, ui: &mut egui::Ui, cx: &mut ComponentContext<'_, '_>) -> egui::Response {
        let raw = cx.string("value");
        let value = parse_iso(raw.trim());
        let min = cx.opt_string("min").and_then(|s| parse_iso(s.trim()));
        let max = cx.opt_string("max").and_then(|s| parse_iso(s.trim()));
        let enable_date = cx.bool("enableDate", false);
        let enable_time = cx.bool("enableTime", false);
        let (show_date, show_time) = if enable_date || enable_time {
            (enable_date, enable_time)
        } else {
            match &value {
                Some(v) => (v.date.is_some(), v.time.is_some()),
                None => (true, true),
            }
        };
        let label = cx.string("label");
        let name = if label.is_empty() {
            cx.fallback_name()
        } else {
            label.clone()
        };

        let incoming = Incoming::of(ui, cx);
        let style = cx.style().clone();
        let inner = ui.vertical(|ui| {
            // The reference's box: a bold label line, a 2 px gap and a 37 px row of inputs,
            // as wide as its parent lets it be.
            ui.spacing_mut().item_spacing.y = style.field_gap;
            if !label.is_empty() {
                ui.label(
                    egui::RichText::new(&label)
                        .font(style.label.font_id(ui.ctx()))
                        .line_height(Some(style.label.line_height))
                        .strong(),
                );
            }
            let mut next: Option<IsoValue> = None;
            let row = ui.horizontal(|ui| {
                ui.set_min_height(DATE_ROW_HEIGHT);
                if show_date {
                    let today = jiff::Zoned::now().date();
                    let fallback = IsoValue {
                        date: Some(today),
                        sep: 'T',
                        time: None,
                    };
                    let start = clamp_iso(&fallback, min.as_ref(), max.as_ref())
                        .date
                        .unwrap_or(today);
                    let current = value.as_ref().and_then(|v| v.date);
                    let mut date = current.unwrap_or(start);
                    let (lo, hi) = year_range(min.as_ref(), max.as_ref(), today);
                    let format = if current.is_some() {
                        "%Y-%m-%d"
                    } else {
                        "Select"
                    };
                    let r = ui.add(
                        egui_extras::DatePickerButton::new(&mut date)
                            .id_salt(DATE_SALT)
                            .format(format)
                            .show_icon(false)
                            .calendar_week(false)
                            .start_end_years(lo..=hi),
                    );
                    // The button shows the date; say what the date is for.
                    ui.ctx()
                        .accesskit_node_builder(r.id, |n| n.set_description(name.clone()));
                    name_date_picker(ui, DATE_SALT);
                    if r.changed() {
                        next = Some(with_date(value.as_ref(), date, show_time));
                    }
                }
                let time = value.as_ref().and_then(|v| v.time.as_ref());
                if show_time {
                    match time {
                        Some(t) => {
                            let (mut h, mut m) = (t.hour, t.minute);
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
                                    .custom_formatter(|n, _| format!("{n:02.0}")),
                            );
                            set_accessible_name(ui, rm.id, &format!("{name} minute"));
                            if (rh.changed() || rm.changed()) && (h, m) != (t.hour, t.minute) {
                                next = Some(with_time(value.as_ref(), h, m));
                            }
                        }
                        None if show_date && value.as_ref().and_then(|v| v.date).is_none() => {
                            // The time comes with the date (midnight once a date is chosen).
                        }
                        None => {
                            let r = ui.button("Select");
                            set_accessible_name(ui, r.id, &format!("{name}: select time"));
                            if r.clicked() {
                                next = Some(with_time(value.as_ref(), 0, 0));
                            }
                        }
                    }
                }
            });
            if let Some(v) = next {
                let v = canonical(clamp_iso(&v, min.as_ref(), max.as_ref()));
                cx.write(ui, "value", Value::String(format_iso(&v)));
            }
            let failure = cx.first_check_failure();
            cx.check_message_ui(ui, failure.as_deref());
            row.response
        });
        let drawn = inner.response.rect;
        if let Some(w) = incoming.extent.width {
            cx.set_geometry_box(egui::Rect::from_min_size(
                drawn.min,
                egui::vec2(w.max(drawn.width()), drawn.height()),
            ));
        }
        inner.inner
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> IsoValue {
        parse_iso(s).unwrap_or_else(|| panic!("{s} should parse"))
    }

    #[test]
    fn iso_strings_round_trip_exactly() {
        for s in [
            "2024-01-31",
            "2024-02-29",
            "2024-12-31",
            "2025-01-01",
            "10:30",
            "10:30:15",
            "23:59:59.999",
            "2024-01-31T23:59:59",
            "2024-01-31T08:05",
            "2024-01-31 08:05:00",
            "2024-12-31T23:59:59Z",
            "2024-12-31T23:59:59.5+05:30",
            "0001-01-01",
        ] {
            assert_eq!(format_iso(&p(s)), s);
        }
    }

    #[test]
    fn invalid_dates_and_times_are_refused() {
        for s in [
            "",
            "2023-02-29",
            "2024-13-01",
            "2024-04-31",
            "2024-1-5",
            "24:00",
            "10:60",
            "10:30:61",
            "10:30.5",
            "2024-01-31X10:00",
            "2024-01-31T10:00:00+25:00",
            "tomorrow",
            "２０２４-01-01",
        ] {
            assert_eq!(parse_iso(s), None, "{s}");
        }
    }

    #[test]
    fn month_ends_move_to_the_next_month_and_year() {
        let jan31 = p("2024-01-31");
        let feb1 = jan31.date.and_then(|d| d.tomorrow().ok()).unwrap();
        assert_eq!(
            format_iso(&with_date(Some(&jan31), feb1, false)),
            "2024-02-01"
        );
        let dec31 = p("2024-12-31");
        let next = dec31.date.and_then(|d| d.tomorrow().ok()).unwrap();
        assert_eq!(
            format_iso(&with_date(Some(&dec31), next, false)),
            "2025-01-01"
        );
    }

    #[test]
    fn edits_keep_the_value_shape() {
        let t = p("10:30");
        assert_eq!(format_iso(&with_time(Some(&t), 11, 5)), "11:05");
        let t = p("10:30:15");
        assert_eq!(format_iso(&with_time(Some(&t), 11, 5)), "11:05:15");
        let dt = p("2024-02-29T10:30");
        assert_eq!(
            format_iso(&with_time(Some(&dt), 7, 0)),
            "2024-02-29T07:00:00"
        );
        let d = Date::new(2024, 3, 1).unwrap();
        assert_eq!(format_iso(&with_date(None, d, true)), "2024-03-01T00:00:00");
        let before_year_zero = Date::new(-1, 12, 31).unwrap();
        assert_eq!(
            format_iso(&with_date(None, before_year_zero, false)),
            "0000-01-01"
        );
        assert_eq!(format_iso(&with_date(None, d, false)), "2024-03-01");
    }

    #[test]
    fn min_and_max_clamp_edits() {
        let min = p("2024-02-01");
        let max = p("2024-02-29");
        let v = clamp_iso(&p("2024-01-15"), Some(&min), Some(&max));
        assert_eq!(format_iso(&v), "2024-02-01");
        let v = clamp_iso(&p("2024-03-15"), Some(&max), Some(&min));
        assert_eq!(format_iso(&v), "2024-02-29");
        let v = clamp_iso(&p("07:00"), Some(&p("08:30")), None);
        assert_eq!(format_iso(&v), "08:30");
        let v = clamp_iso(
            &p("2024-02-01T07:00:00"),
            Some(&p("2024-02-01T08:30:00")),
            None,
        );
        assert_eq!(format_iso(&v), "2024-02-01T08:30:00");
        // A time bound says nothing about a date-only value.
        let v = clamp_iso(&p("2024-02-01"), Some(&p("08:30")), None);
        assert_eq!(format_iso(&v), "2024-02-01");
    }
}
