//! `formatDate` (basic [catalog], [oracle format] §5).
//!
//! The value is an ISO 8601 date or date-time, read as the reference reads it (Python's
//! `datetime.fromisoformat`): `2026-03-04`, `20260304`, week dates `2026-W10-3`, any single
//! character between date and time, `HH[:MM[:SS[.fff…]]]` or `HHMMSS`, and `Z` or `±HH[:MM]`
//! offsets. A value with an offset is converted to UTC (v1.0 keeps the stated wall time for
//! patterns, as the reference does, and converts for `"ISO"`); a naive value is used as it
//! is, so the result never depends on the host's time zone. Calendar arithmetic is `jiff`'s.
//!
//! The pattern knows the TR35 tokens `yyyy yy MMMM MMM MM M EEEE E dd d HH H hh h mm ss a`;
//! every other character is literal and there is no quoting (so the `a` of `'at'` becomes
//! AM/PM, as in the reference). `"ISO"` gives `yyyy-MM-ddTHH:mm:ss.SSSZ` in UTC. A falsy or
//! unreadable value gives `""`.
//!
//! [catalog]: https://github.com/a2ui-project/a2ui/blob/main/specification/v0_9/catalogs/basic/catalog.json
//! [oracle format]: https://docs.rs/crate/egui_a2ui/latest/source/tests/data/conformance/FORMAT.md

use jiff::SignedDuration;
use jiff::civil::{Date, DateTime, ISOWeekDate, Time, Weekday};
use serde_json::{Map, Value};

use crate::eval::EvalContext;
use crate::eval::coerce::truthy;
use crate::protocol::Version;

use super::FunctionRegistry;
use super::args::{Builtin, Kind, Param, req};
use super::locale::LocaleData;
use super::pyfmt::py_str;

const FORMAT_DATE: &[Param] = &[req("value", Kind::DynValue), req("format", Kind::DynString)];

/// Register `formatDate`.
pub fn register(r: &mut FunctionRegistry) {
    r.register(Builtin::new("formatDate", FORMAT_DATE, format_date));
}

/// A parsed ISO 8601 value: the civil date-time as written and its UTC offset, if any.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Parsed {
    /// The date and time as written (microsecond precision).
    pub datetime: DateTime,
    /// The offset from UTC in seconds, when the text had one.
    pub offset_seconds: Option<i32>,
}

impl Parsed {
    /// The same instant in UTC (naive values are taken as they are); `None` outside years
    /// 1 to 9999.
    pub fn to_utc(self) -> Option<DateTime> {
        let dt = match self.offset_seconds {
            Some(off) => self
                .datetime
                .checked_sub(SignedDuration::from_secs(i64::from(off)))
                .ok()?,
            None => self.datetime,
        };
        (1..=9999).contains(&dt.year()).then_some(dt)
    }
}

/// Exactly `n` ASCII digits at `s[at..]`.
fn digits(s: &[u8], at: usize, n: usize) -> Option<u32> {
    let part = s.get(at..at + n)?;
    if !part.iter().all(u8::is_ascii_digit) {
        return None;
    }
    part.iter().try_fold(0u32, |acc, &b| {
        acc.checked_mul(10)?.checked_add(u32::from(b - b'0'))
    })
}

/// Where the date part ends (CPython's `_find_isoformat_datetime_separator`).
fn date_len(s: &[u8]) -> Option<usize> {
    let len = s.len();
    if len == 7 {
        return Some(7);
    }
    let at = |i: usize| s.get(i).copied().unwrap_or(0);
    if at(4) == b'-' {
        if at(5) == b'W' {
            if len < 8 {
                return None;
            }
            if len > 8 && at(8) == b'-' {
                if len == 9 {
                    return None;
                }
                if len > 10 && at(10).is_ascii_digit() {
                    return Some(8);
                }
                return Some(10);
            }
            return Some(8);
        }
        return Some(10);
    }
    if at(4) == b'W' {
        let mut idx = 7;
        while idx < len && at(idx).is_ascii_digit() {
            idx += 1;
        }
        if idx < 9 {
            return Some(idx);
        }
        return Some(if idx % 2 == 0 { 7 } else { 8 });
    }
    Some(8)
}

/// The date part (`YYYY-MM-DD`, `YYYYMMDD`, `YYYY-Www[-D]`, `YYYYWww[D]`).
fn parse_date(s: &[u8]) -> Option<Date> {
    let year = digits(s, 0, 4)?;
    let mut p = 4;
    let sep = s.get(p) == Some(&b'-');
    if sep {
        p += 1;
    }
    let year = i16::try_from(year).ok()?;
    if s.get(p) == Some(&b'W') {
        p += 1;
        let week = digits(s, p, 2)?;
        p += 2;
        let day = if p < s.len() {
            if sep {
                if s.get(p) != Some(&b'-') {
                    return None;
                }
                p += 1;
            }
            digits(s, p, 1)?
        } else {
            1
        };
        let weekday = Weekday::from_monday_one_offset(i8::try_from(day).ok()?).ok()?;
        let wd = ISOWeekDate::new(year, i8::try_from(week).ok()?, weekday).ok()?;
        return (1..=9999).contains(&year).then(|| wd.date());
    }
    let month = digits(s, p, 2)?;
    p += 2;
    if sep {
        if s.get(p) != Some(&b'-') {
            return None;
        }
        p += 1;
    }
    let day = digits(s, p, 2)?;
    if year < 1 {
        return None;
    }
    Date::new(year, i8::try_from(month).ok()?, i8::try_from(day).ok()?).ok()
}

/// `HH[:?MM[:?SS[{.,}ffffff…]]]` (CPython's `parse_hh_mm_ss_ff`); the flag says whether
/// something was left over before the end.
fn parse_hms(s: &[u8]) -> Option<((u32, u32, u32, u32), bool)> {
    let mut vals = [0u32; 3];
    let mut p = 0;
    let mut has_sep = true;
    for i in 0..3 {
        let v = digits(s, p, 2)?;
        if let Some(slot) = vals.get_mut(i) {
            *slot = v;
        }
        p += 2;
        let c = s.get(p).copied().unwrap_or(0);
        p += 1;
        if i == 0 {
            has_sep = c == b':';
        }
        if p >= s.len() {
            let [h, m, sec] = vals;
            return Some(((h, m, sec, 0), c != 0));
        } else if has_sep && c == b':' {
            continue;
        } else if c == b'.' || c == b',' {
            break;
        } else if !has_sep {
            p -= 1;
        } else {
            return None;
        }
    }
    // Whatever follows the fields is read as fraction digits, as CPython does.
    let take = s.len().saturating_sub(p).min(6);
    if take == 0 {
        return None;
    }
    let micro = digits(s, p, take)? * 10u32.pow(6 - take as u32);
    p += take;
    while s.get(p).is_some_and(u8::is_ascii_digit) {
        p += 1;
    }
    let [h, m, sec] = vals;
    Some(((h, m, sec, micro), p < s.len()))
}

/// The time part with an optional `Z` or `±HH[:MM[:SS]]` offset.
fn parse_time(s: &[u8]) -> Option<(Time, Option<i32>)> {
    let tz = s
        .iter()
        .position(|&b| b == b'Z' || b == b'+' || b == b'-')
        .unwrap_or(s.len());
    let ((h, m, sec, micro), leftover) = parse_hms(s.get(..tz)?)?;
    let time = Time::new(
        i8::try_from(h).ok()?,
        i8::try_from(m).ok()?,
        i8::try_from(sec).ok()?,
        i32::try_from(micro).ok()?.checked_mul(1000)?,
    )
    .ok()?;
    if tz == s.len() {
        return (!leftover).then_some((time, None));
    }
    if s.get(tz) == Some(&b'Z') {
        return (tz + 1 == s.len()).then_some((time, Some(0)));
    }
    let sign: i32 = if s.get(tz) == Some(&b'-') { -1 } else { 1 };
    let ((oh, om, os, _), rest) = parse_hms(s.get(tz + 1..)?)?;
    if rest {
        return None;
    }
    let secs = i32::try_from(oh * 3600 + om * 60 + os).ok()?;
    (secs < 24 * 3600).then_some((time, Some(sign * secs)))
}

/// Read an ISO 8601 date or date-time as the reference does; `None` when unreadable.
pub fn parse_iso(text: &str) -> Option<Parsed> {
    let s = text.as_bytes();
    let dlen = date_len(s)?;
    let date = parse_date(s.get(..dlen.min(s.len()))?)?;
    if dlen >= s.len() {
        return Some(Parsed {
            datetime: date.to_datetime(Time::midnight()),
            offset_seconds: None,
        });
    }
    // Any single character separates date and time (a multi-byte one included).
    let sep_len = text.get(dlen..)?.chars().next()?.len_utf8();
    let (time, offset) = parse_time(s.get(dlen + sep_len..)?)?;
    Some(Parsed {
        datetime: date.to_datetime(time),
        offset_seconds: offset,
    })
}

const TOKENS: &[&str] = &[
    "yyyy", "yy", "MMMM", "MMM", "MM", "M", "EEEE", "E", "dd", "d", "HH", "H", "hh", "h", "mm",
    "ss", "a",
];

/// Lay out `dt` with a TR35-style pattern (no quoting: every non-token character is
/// literal).
pub fn apply_pattern(dt: &DateTime, pattern: &str, loc: &LocaleData) -> String {
    let mut out = String::new();
    let mut rest = pattern;
    let month = usize::try_from(dt.month() - 1).unwrap_or(0);
    let weekday = usize::try_from(dt.weekday().to_monday_zero_offset()).unwrap_or(0);
    let hour12 = match dt.hour() % 12 {
        0 => 12,
        h => h,
    };
    while let Some(c) = rest.chars().next() {
        let Some(tok) = TOKENS.iter().find(|t| rest.starts_with(**t)) else {
            out.push(c);
            rest = rest.get(c.len_utf8()..).unwrap_or_default();
            continue;
        };
        let year = dt.year().to_string();
        let text = match *tok {
            "yyyy" => year,
            "yy" => year
                .get(year.len().saturating_sub(2)..)
                .unwrap_or_default()
                .to_owned(),
            "MMMM" => loc
                .months_wide
                .get(month)
                .copied()
                .unwrap_or_default()
                .to_owned(),
            "MMM" => loc
                .months_abbr
                .get(month)
                .copied()
                .unwrap_or_default()
                .to_owned(),
            "MM" => format!("{:02}", dt.month()),
            "M" => dt.month().to_string(),
            "EEEE" => loc
                .days_wide
                .get(weekday)
                .copied()
                .unwrap_or_default()
                .to_owned(),
            "E" => loc
                .days_abbr
                .get(weekday)
                .copied()
                .unwrap_or_default()
                .to_owned(),
            "dd" => format!("{:02}", dt.day()),
            "d" => dt.day().to_string(),
            "HH" => format!("{:02}", dt.hour()),
            "H" => dt.hour().to_string(),
            "hh" => format!("{hour12:02}"),
            "h" => hour12.to_string(),
            "mm" => format!("{:02}", dt.minute()),
            "ss" => format!("{:02}", dt.second()),
            _ => (if dt.hour() < 12 { "AM" } else { "PM" }).to_owned(),
        };
        out.push_str(&text);
        rest = rest.get(tok.len()..).unwrap_or_default();
    }
    out
}

/// `yyyy-MM-ddTHH:mm:ss.SSSZ` (milliseconds truncated).
pub fn iso_string(dt: &DateTime) -> String {
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z",
        dt.year(),
        dt.month(),
        dt.day(),
        dt.hour(),
        dt.minute(),
        dt.second(),
        dt.subsec_nanosecond() / 1_000_000
    )
}

fn format_date(args: &Map<String, Value>, cx: &EvalContext<'_>) -> Result<Value, String> {
    let value = args.get("value").unwrap_or(&Value::Null);
    if !truthy(value) {
        return Ok(Value::String(String::new()));
    }
    let pattern = py_str(args.get("format").unwrap_or(&Value::Null));
    let Some(parsed) = parse_iso(&py_str(value)) else {
        return Ok(Value::String(String::new()));
    };
    let text = if pattern == "ISO" {
        parsed.to_utc().map(|dt| iso_string(&dt))
    } else {
        let dt = if cx.version == Version::V1_0 {
            Some(parsed.datetime)
        } else {
            parsed.to_utc()
        };
        dt.map(|dt| apply_pattern(&dt, &pattern, LocaleData::get(cx.locale)))
    };
    Ok(Value::String(text.unwrap_or_default()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utc(s: &str) -> Option<String> {
        parse_iso(s)
            .and_then(Parsed::to_utc)
            .map(|d| iso_string(&d))
    }

    #[test]
    fn offsets_are_converted_to_utc_across_a_leap_day() {
        assert_eq!(
            utc("2024-02-29T23:59:59-01:00").as_deref(),
            Some("2024-03-01T00:59:59.000Z")
        );
    }

    #[test]
    fn invalid_calendar_dates_do_not_parse() {
        assert_eq!(parse_iso("2026-02-29"), None);
        assert_eq!(parse_iso("2026-03-04T24:00:00"), None);
        assert_eq!(parse_iso("2026-3-4"), None);
    }

    #[test]
    fn basic_and_week_forms_parse() {
        assert_eq!(
            utc("20260304T050607").as_deref(),
            Some("2026-03-04T05:06:07.000Z")
        );
        assert_eq!(
            utc("2026-W10-3").as_deref(),
            Some("2026-03-04T00:00:00.000Z")
        );
    }

    #[test]
    fn fractions_are_truncated_to_milliseconds() {
        assert_eq!(
            utc("2026-03-04T05:06:07.999999999Z").as_deref(),
            Some("2026-03-04T05:06:07.999Z")
        );
    }
}
