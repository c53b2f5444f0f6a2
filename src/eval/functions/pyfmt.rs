//! Values to text and numbers the way the reference core (Python) does it.
//!
//! [Oracle format] §5: formatString stringifies like Python (`3.0` → `"3.0"`, `1e-05`, `1e+16`),
//! and the formatting functions read their arguments with Python's `float()`/`int()`.
//! These helpers are that behaviour in exact, panic-free Rust.
//!
//! [oracle format]: https://docs.rs/crate/egui_a2ui/latest/source/tests/data/conformance/FORMAT.md

use serde_json::{Number, Value};

/// The shortest round-trip decimal digits of a finite, non-negative `x` and the decimal
/// exponent of the first digit: `1234.5` → (`"12345"`, 3), `0.001` → (`"1"`, -3).
pub fn shortest_digits(x: f64) -> (String, i32) {
    let s = format!("{:e}", x.abs());
    let (mantissa, exp) = s.split_once('e').unwrap_or((s.as_str(), "0"));
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let exp = exp.parse::<i32>().unwrap_or(0);
    let trimmed = digits.trim_end_matches('0');
    if trimmed.is_empty() {
        ("0".to_owned(), 0)
    } else {
        (trimmed.to_owned(), exp)
    }
}

/// Python's `repr(float)` (which `str(float)` equals): fixed notation with at least one
/// fraction digit when `1e-4 <= |x| < 1e16`, otherwise `d.ddde±XX`.
pub fn float_repr(x: f64) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    if x.is_infinite() {
        return if x < 0.0 { "-inf".into() } else { "inf".into() };
    }
    let sign = if x.is_sign_negative() { "-" } else { "" };
    if x == 0.0 {
        return format!("{sign}0.0");
    }
    let (digits, exp) = shortest_digits(x);
    let n = digits.len() as i32;
    let body = if (-4..16).contains(&exp) {
        if exp >= 0 {
            if n <= exp + 1 {
                format!("{digits}{}.0", "0".repeat((exp + 1 - n) as usize))
            } else {
                let (a, b) = digits.split_at((exp + 1) as usize);
                format!("{a}.{b}")
            }
        } else {
            format!("0.{}{digits}", "0".repeat((-exp - 1) as usize))
        }
    } else {
        let (first, rest) = digits.split_at(1);
        let mant = if rest.is_empty() {
            first.to_owned()
        } else {
            format!("{first}.{rest}")
        };
        let esign = if exp < 0 { '-' } else { '+' };
        format!("{mant}e{esign}{:02}", exp.unsigned_abs())
    };
    format!("{sign}{body}")
}

/// A JSON number as Python prints it: integers as digits, floats with [`float_repr`].
pub fn number_repr(n: &Number) -> String {
    if let Some(i) = n.as_i64() {
        return i.to_string();
    }
    if let Some(u) = n.as_u64() {
        return u.to_string();
    }
    float_repr(n.as_f64().unwrap_or(0.0))
}

/// The reference's `_to_str`, used by formatString and the validators: `null` → `""`,
/// `true`/`false`, numbers the Python way, arrays and objects as compact JSON.
pub fn to_text(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => number_repr(n),
        Value::String(s) => s.clone(),
        Value::Array(_) | Value::Object(_) => {
            let mut out = String::new();
            write_json(v, &mut out);
            out
        }
    }
}

/// Python's `str()` of a value: `None`, `True`/`False`, numbers, strings as they are, and
/// the `repr` of lists and dicts. Used where the reference calls `str()` (formatDate's value,
/// formatCurrency's currency code).
pub fn py_str(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => py_repr(other),
    }
}

fn py_repr(v: &Value) -> String {
    match v {
        Value::Null => "None".into(),
        Value::Bool(true) => "True".into(),
        Value::Bool(false) => "False".into(),
        Value::Number(n) => number_repr(n),
        Value::String(s) => {
            let quote = if s.contains('\'') && !s.contains('"') {
                '"'
            } else {
                '\''
            };
            let mut out = String::from(quote);
            for c in s.chars() {
                match c {
                    '\\' => out.push_str("\\\\"),
                    '\n' => out.push_str("\\n"),
                    '\r' => out.push_str("\\r"),
                    '\t' => out.push_str("\\t"),
                    c if c == quote => {
                        out.push('\\');
                        out.push(c);
                    }
                    c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                        out.push_str(&format!("\\x{:02x}", c as u32));
                    }
                    c => out.push(c),
                }
            }
            out.push(quote);
            out
        }
        Value::Array(a) => {
            let items: Vec<String> = a.iter().map(py_repr).collect();
            format!("[{}]", items.join(", "))
        }
        Value::Object(m) => {
            let items: Vec<String> = m
                .iter()
                .map(|(k, x)| format!("{}: {}", py_repr(&Value::String(k.clone())), py_repr(x)))
                .collect();
            format!("{{{}}}", items.join(", "))
        }
    }
}

/// `json.dumps(v, separators=(",", ":"))`: compact, ASCII-only (`\uXXXX` escapes), Python
/// float text, keys in insertion order.
fn write_json(v: &Value, out: &mut String) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&number_repr(n)),
        Value::String(s) => write_json_string(s, out),
        Value::Array(a) => {
            out.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_json(x, out);
            }
            out.push(']');
        }
        Value::Object(m) => {
            out.push('{');
            for (i, (k, x)) in m.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_json_string(k, out);
                out.push(':');
                write_json(x, out);
            }
            out.push('}');
        }
    }
}

fn write_json_string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{08}' => out.push_str("\\b"),
            '\u{0c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 || (c as u32) > 0x7e => {
                let mut buf = [0u16; 2];
                for unit in c.encode_utf16(&mut buf) {
                    out.push_str(&format!("\\u{unit:04x}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Python's `float(s)` for a string: surrounding whitespace, an optional sign, digits with
/// single `_` between them, `inf`/`infinity`/`nan` in any case. `None` when Python raises.
pub fn parse_py_float(s: &str) -> Option<f64> {
    let t = s.trim();
    if t.is_empty() {
        return None;
    }
    let unsigned = t.strip_prefix(['+', '-']).unwrap_or(t);
    let lower = unsigned.to_ascii_lowercase();
    if matches!(lower.as_str(), "inf" | "infinity" | "nan") {
        return t.parse::<f64>().ok();
    }
    if !unsigned
        .chars()
        .all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '+' | '-' | '_'))
    {
        return None;
    }
    let cleaned = strip_digit_underscores(t)?;
    // Rust accepts the same decimal grammar once underscores are gone, except that it also
    // takes "inf"/"nan" (handled above) and rejects nothing Python accepts.
    if !cleaned.bytes().any(|b| b.is_ascii_digit()) {
        return None;
    }
    cleaned.parse::<f64>().ok()
}

/// Python's `int(s)` for a string: whitespace, sign, decimal digits with single `_` between.
pub fn parse_py_int(s: &str) -> Option<i64> {
    let t = s.trim();
    let cleaned = strip_digit_underscores(t)?;
    let digits = cleaned.strip_prefix(['+', '-']).unwrap_or(&cleaned);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    cleaned.parse::<i64>().ok()
}

/// Remove `_` that sit between two digits; `None` if any other `_` is present.
fn strip_digit_underscores(t: &str) -> Option<String> {
    let chars: Vec<char> = t.chars().collect();
    let mut out = String::with_capacity(t.len());
    for (i, &c) in chars.iter().enumerate() {
        if c == '_' {
            let before = i
                .checked_sub(1)
                .and_then(|j| chars.get(j))
                .is_some_and(char::is_ascii_digit);
            let after = chars.get(i + 1).is_some_and(char::is_ascii_digit);
            if !(before && after) {
                return None;
            }
        } else {
            out.push(c);
        }
    }
    Some(out)
}

/// Python's `float(v)` of a resolved value: numbers, booleans (`1.0`/`0.0`) and numeric
/// strings; `None` for everything else (`null`, arrays, objects, other strings).
pub fn to_float(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::Bool(b) => Some(if *b { 1.0 } else { 0.0 }),
        Value::String(s) => parse_py_float(s),
        _ => None,
    }
}

/// Python's `int(v)` of a resolved value: integers, floats truncated toward zero (finite
/// only, saturating at the `i64` range), booleans and integer strings.
pub fn to_int(v: &Value) -> Option<i64> {
    match v {
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                Some(i)
            } else if n.is_u64() {
                Some(i64::MAX)
            } else {
                let f = n.as_f64()?;
                // `as` saturates, which is what a clamp downstream wants anyway.
                f.is_finite().then_some(f.trunc() as i64)
            }
        }
        Value::Bool(b) => Some(i64::from(*b)),
        Value::String(s) => parse_py_int(s),
        _ => None,
    }
}

/// A JSON number from an `f64`; non-finite values (which JSON cannot hold) become `null`.
pub fn number_value(x: f64) -> Value {
    Number::from_f64(x).map_or(Value::Null, Value::Number)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn floats_print_like_python_repr() {
        assert_eq!(float_repr(3.0), "3.0");
        assert_eq!(float_repr(0.00001), "1e-05");
        assert_eq!(float_repr(1e16), "1e+16");
        assert_eq!(float_repr(1.5e16), "1.5e+16");
        assert_eq!(float_repr(123.456), "123.456");
        assert_eq!(float_repr(0.0001), "0.0001");
        assert_eq!(float_repr(-0.0), "-0.0");
        assert_eq!(float_repr(1e300), "1e+300");
        assert_eq!(float_repr(9999999999999998.0), "9999999999999998.0");
    }

    #[test]
    fn text_of_containers_is_ascii_compact_json() {
        assert_eq!(to_text(&json!([1, "a", 2.5])), "[1,\"a\",2.5]");
        assert_eq!(to_text(&json!({"k": "é"})), "{\"k\":\"\\u00e9\"}");
        assert_eq!(to_text(&json!(null)), "");
    }

    #[test]
    fn python_float_parsing_accepts_underscores_and_specials() {
        assert_eq!(parse_py_float(" 1_000 "), Some(1000.0));
        assert_eq!(parse_py_float(".5"), Some(0.5));
        assert_eq!(parse_py_float("5."), Some(5.0));
        assert!(parse_py_float("NaN").is_some_and(f64::is_nan));
        assert_eq!(parse_py_float("-Infinity"), Some(f64::NEG_INFINITY));
        assert_eq!(parse_py_float("0x10"), None);
        assert_eq!(parse_py_float("1__0"), None);
        assert_eq!(parse_py_float(""), None);
    }

    #[test]
    fn python_str_of_scalars() {
        assert_eq!(py_str(&json!(true)), "True");
        assert_eq!(py_str(&json!(null)), "None");
        assert_eq!(py_str(&json!(["a", 1])), "['a', 1]");
    }
}
