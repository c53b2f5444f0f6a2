//! `DateRange`: two date pickers (egui_extras' `DatePickerButton`) for `start` and `end`,
//! ISO `YYYY-MM-DD` dates, each two-way bound; `min` / `max` clamp every pick. Picking a
//! start after the end moves the end to it (and an end before the start moves the start),
//! so the range written back is always ordered; a range the agent sent out of order shows
//! an error line.
//!
//! Accessibility: the two buttons show their dates and are described as `<label> start`
//! and `<label> end`.

use jiff::civil::Date;
use serde_json::Value;

use super::util::label_ui;
use crate::catalog::name_date_picker;
use crate::render::ComponentContext;
use crate::render::catalog::ComponentRenderer;

/// The `DateRange` component.
pub struct DateRange;

/// `YYYY-MM-DD` (a date-time's date part is read too).
pub(super) fn parse_date(s: &str) -> Option<Date> {
    let head = s.trim().get(..10)?;
    head.parse::<Date>().ok()
}

fn iso(d: Date) -> String {
    d.strftime("%Y-%m-%d").to_string()
}

impl ComponentRenderer for DateRange {
    fn ui(&self, ui: &mut egui::Ui, cx: &mut ComponentContext<'_, '_>) -> egui::Response {
        let label = cx.string("label");
        let name = if label.trim().is_empty() {
            cx.fallback_name()
        } else {
            label.clone()
        };
        let start = parse_date(&cx.string("start"));
        let end = parse_date(&cx.string("end"));
        let min = cx.opt_string("min").and_then(|s| parse_date(&s));
        let max = cx.opt_string("max").and_then(|s| parse_date(&s));
        let (min, max) = match (min, max) {
            (Some(a), Some(b)) if a > b => (Some(b), Some(a)),
            other => other,
        };
        let clamp = |d: Date| -> Date {
            let d = min.map_or(d, |m| d.max(m));
            max.map_or(d, |m| d.min(m))
        };
        let today = jiff::Zoned::now().date();
        let year = |d: Option<Date>, dflt: i16| d.map_or(dflt, |d| d.year());
        let lo = year(min, today.year().saturating_sub(100)).clamp(1, 9999);
        let hi = year(max, today.year().saturating_add(20)).clamp(lo, 9999);
        let style = cx.style().clone();
        let inner = ui.vertical(|ui| {
            ui.spacing_mut().item_spacing.y = style.field_gap;
            label_ui(ui, &style, &label);
            let mut next: (Option<Date>, Option<Date>) = (None, None);
            let row = ui.horizontal(|ui| {
                for (which, current, salt) in [
                    ("start", start, "a2ui-range-start"),
                    ("end", end, "a2ui-range-end"),
                ] {
                    if which == "end" {
                        ui.label("–");
                    }
                    let mut date = current.unwrap_or_else(|| clamp(today));
                    let format = if current.is_some() {
                        "%Y-%m-%d"
                    } else {
                        "Select"
                    };
                    let r = ui.add(
                        egui_extras::DatePickerButton::new(&mut date)
                            .id_salt(salt)
                            .format(format)
                            .show_icon(false)
                            .calendar_week(false)
                            .start_end_years(lo..=hi),
                    );
                    let described = format!("{name} {which}");
                    ui.ctx()
                        .accesskit_node_builder(r.id, |n| n.set_description(described));
                    name_date_picker(ui, salt);
                    if r.changed() {
                        let d = clamp(date);
                        if which == "start" {
                            next.0 = Some(d);
                        } else {
                            next.1 = Some(d);
                        }
                    }
                }
            });
            match next {
                (Some(s), _) => {
                    cx.write(ui, "start", Value::String(iso(s)));
                    if end.is_some_and(|e| e < s) {
                        cx.write(ui, "end", Value::String(iso(s)));
                    }
                }
                (None, Some(e)) => {
                    cx.write(ui, "end", Value::String(iso(e)));
                    if start.is_some_and(|s| s > e) {
                        cx.write(ui, "start", Value::String(iso(e)));
                    }
                }
                (None, None) => {}
            }
            let failure = match (start, end) {
                (Some(s), Some(e)) if e < s => {
                    Some("The end date is before the start date".to_owned())
                }
                _ => cx.first_check_failure(),
            };
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
    fn dates_parse_from_iso_text() {
        assert_eq!(
            parse_date("2026-03-04").map(iso).as_deref(),
            Some("2026-03-04")
        );
        assert_eq!(
            parse_date("2026-03-04T10:00:00").map(iso).as_deref(),
            Some("2026-03-04")
        );
        for bad in ["", "2026-02-30", "03/04/2026", "2026-3-4", "é2026-03-04"] {
            assert_eq!(parse_date(bad), None, "{bad:?}");
        }
    }
}
