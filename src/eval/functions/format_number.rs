//! `formatNumber` and `formatCurrency` (basic [catalog], [oracle format] §5).
//!
//! Numbers are formatted from the float's shortest decimal text (what Python's `str()` and
//! Babel start from), rounded **half-even** at the last shown digit: `2.5` with no decimals
//! is `"2"`, `1.005` with two is `"1.00"`. Without `decimals` up to three fraction digits
//! are shown; with it, exactly that many (clamped to `0..=`[`MAX_DECIMALS`]). Every
//! currency gets two decimals unless `decimals` says otherwise (JPY too, as the reference
//! does). Separators, grouping sizes and the currency pattern come from the locale.
//!
//! [catalog]: https://github.com/a2ui-project/a2ui/blob/main/specification/v0_9/catalogs/basic/catalog.json
//! [oracle format]: https://docs.rs/crate/egui_a2ui/latest/source/tests/data/conformance/FORMAT.md

use serde_json::{Map, Value};

use crate::eval::EvalContext;
use crate::eval::coerce::truthy;

use super::FunctionRegistry;
use super::args::{Builtin, Kind, Param, given, opt, req};
use super::locale::LocaleData;
use super::pyfmt::{py_str, shortest_digits, to_float, to_int};

/// The most fraction digits a call may ask for; larger requests are clamped (ECMAScript's
/// `Intl.NumberFormat` allows the same maximum).
pub const MAX_DECIMALS: i64 = 100;

const FORMAT_NUMBER: &[Param] = &[
    req("value", Kind::DynNumber),
    opt("decimals", Kind::DynNumber),
    opt("grouping", Kind::DynBool),
];

const FORMAT_CURRENCY: &[Param] = &[
    req("value", Kind::DynNumber),
    req("currency", Kind::DynString),
    opt("decimals", Kind::DynNumber),
    opt("grouping", Kind::DynBool),
];

/// Register `formatNumber` and `formatCurrency`.
pub fn register(r: &mut FunctionRegistry) {
    r.register(Builtin::new("formatNumber", FORMAT_NUMBER, format_number));
    r.register(Builtin::new(
        "formatCurrency",
        FORMAT_CURRENCY,
        format_currency,
    ));
}

/// How to lay out the digits of a number.
#[derive(Clone, Copy, Debug)]
pub struct DigitStyle<'a> {
    /// Decimal separator.
    pub decimal: &'a str,
    /// Group separator, or `None` for no grouping.
    pub group: Option<&'a str>,
    /// Primary and secondary group sizes.
    pub grouping: (usize, usize),
    /// Fraction digits always shown.
    pub min_frac: usize,
    /// Fraction digits at most (rounding half-even beyond).
    pub max_frac: usize,
}

/// The digits of `|x|` (finite) laid out in `style`, without a sign.
pub fn format_digits(x: f64, style: &DigitStyle<'_>) -> String {
    let (mut int_part, frac_part) = split_decimal(x.abs());
    let mut frac: Vec<u8> = frac_part.into_bytes();
    if frac.len() > style.max_frac {
        let next = frac.get(style.max_frac).copied().unwrap_or(b'0');
        let rest_nonzero = frac
            .get(style.max_frac + 1..)
            .is_some_and(|r| r.iter().any(|&d| d != b'0'));
        frac.truncate(style.max_frac);
        let last_kept = if style.max_frac == 0 {
            int_part.as_bytes().last().copied()
        } else {
            frac.last().copied()
        }
        .unwrap_or(b'0');
        let round_up =
            next > b'5' || (next == b'5' && (rest_nonzero || (last_kept - b'0') % 2 == 1));
        if round_up {
            let mut all: Vec<u8> = int_part.bytes().chain(frac.iter().copied()).collect();
            increment(&mut all);
            let int_len = all.len() - frac.len();
            frac = all.split_off(int_len);
            int_part = String::from_utf8(all).unwrap_or_default();
        }
    }
    while frac.len() < style.min_frac {
        frac.push(b'0');
    }
    while frac.len() > style.min_frac && frac.last() == Some(&b'0') {
        frac.pop();
    }
    let mut out = match style.group {
        Some(sep) => group_digits(&int_part, sep, style.grouping),
        None => int_part,
    };
    if style.max_frac > 0 && !frac.is_empty() {
        out.push_str(style.decimal);
        out.push_str(&String::from_utf8(frac).unwrap_or_default());
    }
    out
}

/// The exact decimal expansion of a float's shortest text: integer and fraction digits.
fn split_decimal(x: f64) -> (String, String) {
    if x == 0.0 {
        return ("0".into(), String::new());
    }
    let (digits, exp) = shortest_digits(x);
    if exp >= 0 {
        let int_len = exp as usize + 1;
        let mut int: String = digits.chars().take(int_len).collect();
        while int.len() < int_len {
            int.push('0');
        }
        let frac: String = digits.chars().skip(int_len).collect();
        (int, frac)
    } else {
        let zeros = "0".repeat((-exp - 1) as usize);
        ("0".into(), format!("{zeros}{digits}"))
    }
}

/// Add one to a string of ASCII digits, growing it on carry out (`999` → `1000`).
fn increment(digits: &mut Vec<u8>) {
    for d in digits.iter_mut().rev() {
        if *d == b'9' {
            *d = b'0';
        } else {
            *d += 1;
            return;
        }
    }
    digits.insert(0, b'1');
}

/// Insert `sep` between groups of the integer digits, primary size first from the right.
fn group_digits(int: &str, sep: &str, (primary, secondary): (usize, usize)) -> String {
    let primary = primary.max(1);
    let secondary = secondary.max(1);
    let chars: Vec<char> = int.chars().collect();
    let mut groups: Vec<String> = Vec::new();
    let mut end = chars.len();
    let mut size = primary;
    while end > size {
        groups.push(
            chars
                .get(end - size..end)
                .unwrap_or_default()
                .iter()
                .collect(),
        );
        end -= size;
        size = secondary;
    }
    groups.push(chars.get(..end).unwrap_or_default().iter().collect());
    groups.reverse();
    groups.join(sep)
}

/// A formatted number: sign, then the digits (`∞` for infinities). NaN gives `""` (the basic
/// catalog implementation guide: "NaN → `""`").
fn signed(
    x: f64,
    neg_prefix: &str,
    pos_prefix: &str,
    suffixes: (&str, &str),
    digits: impl FnOnce() -> String,
) -> String {
    if x.is_nan() {
        return String::new();
    }
    let body = if x.is_infinite() {
        "\u{221e}".to_owned()
    } else {
        digits()
    };
    if x.is_sign_negative() {
        format!("{neg_prefix}{body}{}", suffixes.1)
    } else {
        format!("{pos_prefix}{body}{}", suffixes.0)
    }
}

fn number_arg(args: &Map<String, Value>) -> Result<f64, String> {
    let v = args.get("value").unwrap_or(&Value::Null);
    to_float(v).ok_or_else(|| format!("cannot convert to number: {}", py_str(v)))
}

fn decimals_arg(args: &Map<String, Value>) -> Result<Option<usize>, String> {
    match given(args, "decimals") {
        None => Ok(None),
        Some(d) => {
            let d =
                to_int(d).ok_or_else(|| format!("decimals is not an integer: {}", py_str(d)))?;
            Ok(Some(d.clamp(0, MAX_DECIMALS) as usize))
        }
    }
}

fn grouping_arg(args: &Map<String, Value>) -> bool {
    given(args, "grouping").is_none_or(truthy)
}

fn format_number(args: &Map<String, Value>, cx: &EvalContext<'_>) -> Result<Value, String> {
    let x = number_arg(args)?;
    let decimals = decimals_arg(args)?;
    let loc = LocaleData::get(cx.locale);
    let style = DigitStyle {
        decimal: loc.decimal,
        group: grouping_arg(args).then_some(loc.group),
        grouping: loc.grouping,
        min_frac: decimals.unwrap_or(0),
        max_frac: decimals.unwrap_or(3),
    };
    Ok(Value::String(signed(x, "-", "", ("", ""), || {
        format_digits(x, &style)
    })))
}

/// Whether a character is in a Unicode symbol category (`S*`), as CLDR's currency spacing
/// rule asks of the symbol's edge. Exact for ASCII, Latin-1 and the currency block; other
/// letters and digits are not symbols; the common symbol blocks are.
fn is_symbol_char(c: char) -> bool {
    match c {
        '$' | '+' | '<' | '=' | '>' | '^' | '`' | '|' | '~' => true,
        '\u{a2}'..='\u{a6}'
        | '\u{a8}'
        | '\u{a9}'
        | '\u{ac}'
        | '\u{ae}'..='\u{b1}'
        | '\u{b4}'
        | '\u{b8}'
        | '\u{d7}'
        | '\u{f7}' => true,
        '\u{20a0}'..='\u{20c0}'
        | '\u{58f}'
        | '\u{60b}'
        | '\u{9f2}'
        | '\u{9f3}'
        | '\u{e3f}'
        | '\u{17db}'
        | '\u{fdfc}'
        | '\u{fe69}'
        | '\u{ff04}'
        | '\u{ffe0}'..='\u{ffee}' => true,
        c if c.is_alphanumeric() => false,
        '\u{2190}'..='\u{23ff}' | '\u{2500}'..='\u{27bf}' | '\u{2900}'..='\u{2bff}' => true,
        _ => false,
    }
}

/// Split a CLDR number pattern into prefix, number part and suffix (Babel's
/// `_match_number`).
fn split_pattern(p: &str) -> (String, String, String) {
    let is_num = |c: char| "0123456789@#.,".contains(c);
    let prefix: String = p.chars().take_while(|&c| !is_num(c)).collect();
    let rest: String = p.chars().skip(prefix.chars().count()).collect();
    let number: String = rest
        .chars()
        .take_while(|&c| is_num(c) || c == 'E' || c == '+')
        .collect();
    let suffix: String = rest.chars().skip(number.chars().count()).collect();
    (prefix, number, suffix)
}

/// CLDR `currencySpacing`: a no-break space between the symbol and the digits when the
/// symbol's edge toward them is not a symbol character (`CHF 1,234`, but `$1,234`).
fn apply_currency_spacing(pattern: &str, symbol: &str) -> String {
    let (Some(first), Some(last)) = (symbol.chars().next(), symbol.chars().last()) else {
        return pattern.to_owned();
    };
    let chars: Vec<char> = pattern.chars().collect();
    let mut out = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if c != '\u{a4}' {
            out.push(c);
            continue;
        }
        let prev = i.checked_sub(1).and_then(|j| chars.get(j)).copied();
        if prev.is_some_and(|p| p == '#' || p == '0')
            && !is_symbol_char(first)
            && !out.ends_with('\u{a0}')
        {
            out.push('\u{a0}');
        }
        out.push(c);
        let next = chars.get(i + 1).copied();
        if next.is_some_and(|n| n == '#' || n == '0') && !is_symbol_char(last) {
            out.push('\u{a0}');
        }
    }
    out
}

fn format_currency(args: &Map<String, Value>, cx: &EvalContext<'_>) -> Result<Value, String> {
    let x = number_arg(args)?;
    let code = py_str(args.get("currency").unwrap_or(&Value::Null)).to_uppercase();
    let decimals = decimals_arg(args)?.unwrap_or(2);
    let loc = LocaleData::get(cx.locale);
    let symbol = loc.currency_symbol(&code);
    let pattern = apply_currency_spacing(loc.currency_pattern, symbol);
    let (pos, neg) = match pattern.split_once(';') {
        Some((p, n)) => (p.to_owned(), Some(n.to_owned())),
        None => (pattern, None),
    };
    let (pos_prefix, _, pos_suffix) = split_pattern(&pos);
    let (neg_prefix, neg_suffix) = match neg {
        Some(n) => {
            let (p, _, s) = split_pattern(&n);
            (p, s)
        }
        None => (format!("-{pos_prefix}"), pos_suffix.clone()),
    };
    let sub = |s: &str| s.replace('\u{a4}', symbol);
    let style = DigitStyle {
        decimal: loc.decimal,
        group: grouping_arg(args).then_some(loc.group),
        grouping: loc.currency_grouping,
        min_frac: decimals,
        max_frac: decimals,
    };
    Ok(Value::String(signed(
        x,
        &sub(&neg_prefix),
        &sub(&pos_prefix),
        (&sub(&pos_suffix), &sub(&neg_suffix)),
        || format_digits(x, &style),
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fmt(x: f64, min: usize, max: usize) -> String {
        format_digits(
            x,
            &DigitStyle {
                decimal: ".",
                group: Some(","),
                grouping: (3, 3),
                min_frac: min,
                max_frac: max,
            },
        )
    }

    #[test]
    fn rounding_is_half_even_on_the_shortest_decimal_text() {
        assert_eq!(fmt(2.5, 0, 0), "2");
        assert_eq!(fmt(3.5, 0, 0), "4");
        assert_eq!(fmt(1.005, 2, 2), "1.00");
        assert_eq!(fmt(0.0015, 0, 3), "0.002");
        assert_eq!(fmt(999.9995, 0, 3), "1,000");
    }

    #[test]
    fn default_style_drops_trailing_zeros_and_groups() {
        assert_eq!(fmt(1234567.891, 0, 3), "1,234,567.891");
        assert_eq!(fmt(0.000123, 0, 3), "0");
        assert_eq!(fmt(1e21, 0, 3), "1,000,000,000,000,000,000,000");
    }

    #[test]
    fn indian_grouping_uses_a_secondary_size_of_two() {
        assert_eq!(group_digits("12345678", ",", (3, 2)), "1,23,45,678");
    }

    #[test]
    fn currency_spacing_only_for_alphabetic_symbol_edges() {
        assert_eq!(
            apply_currency_spacing("\u{a4}#,##0.00", "$"),
            "\u{a4}#,##0.00"
        );
        assert_eq!(
            apply_currency_spacing("\u{a4}#,##0.00", "CHF"),
            "\u{a4}\u{a0}#,##0.00"
        );
    }
}
