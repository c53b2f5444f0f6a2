//! Type coercion of resolved values ([renderer guide], type coercion), for renderers that
//! need a definite type.
//!
//! [renderer guide]: https://github.com/a2ui-project/a2ui/blob/main/specification/v0_9/docs/renderer_guide.md

use serde_json::Value;

/// A value as text: strings as they are, `null` as `""`, numbers and booleans in their
/// locale-neutral form, arrays and objects as compact JSON.
pub fn to_display_string(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => number_to_string(n),
        other => serde_json::to_string(other).unwrap_or_default(),
    }
}

/// [`to_display_string`] of a value the caller owns: a string is moved out, not copied.
pub fn into_display_string(v: Value) -> String {
    match v {
        Value::String(s) => s,
        other => to_display_string(&other),
    }
}

/// A number as JavaScript would print it (`3.0` → `3`).
pub fn number_to_string(n: &serde_json::Number) -> String {
    if let Some(i) = n.as_i64() {
        return i.to_string();
    }
    if let Some(u) = n.as_u64() {
        return u.to_string();
    }
    let f = n.as_f64().unwrap_or(0.0);
    let mut buf = ryu_js::Buffer::new();
    buf.format(f).to_owned()
}

/// A value as a boolean: `"true"`/`"false"` (any case), non-zero numbers, `true`.
pub fn to_bool(v: &Value) -> bool {
    match v {
        Value::Bool(b) => *b,
        Value::String(s) => s.eq_ignore_ascii_case("true"),
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0 && !f.is_nan()),
        _ => false,
    }
}

/// A value as a number: numbers, numeric strings; everything else `0` (NaN/inf never
/// appear in JSON).
pub fn to_number(v: &Value) -> f64 {
    match v {
        Value::Number(n) => n.as_f64().unwrap_or(0.0),
        Value::String(s) => s
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|f| f.is_finite())
            .unwrap_or(0.0),
        Value::Bool(b) => f64::from(u8::from(*b)),
        _ => 0.0,
    }
}

/// A value as a list of strings (ChoicePicker selections): arrays of anything (each item
/// as text), a single string as a one-item list, `null` as empty.
pub fn to_string_list(v: &Value) -> Vec<String> {
    match v {
        Value::Array(a) => a.iter().map(to_display_string).collect(),
        Value::Null => Vec::new(),
        other => vec![to_display_string(other)],
    }
}

/// A JSON number for a user-entered value: an integer when the value is integral and
/// exactly representable, else a float; `None` for NaN or infinity.
pub fn number_value(v: f64) -> Option<Value> {
    if !v.is_finite() {
        return None;
    }
    const EXACT: f64 = 9_007_199_254_740_992.0; // 2^53
    if v.fract() == 0.0 && v.abs() < EXACT {
        let i = v as i64;
        return Some(Value::from(i));
    }
    serde_json::Number::from_f64(v).map(Value::Number)
}

/// Truthiness as the reference core reads check results: `false`, `null`, `0`, `""`, `[]`
/// and `{}` are false.
pub fn truthy(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0),
        Value::String(s) => !s.is_empty(),
        Value::Array(a) => !a.is_empty(),
        Value::Object(m) => !m.is_empty(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn number_value_writes_integers_as_integers() {
        assert_eq!(number_value(50.0), Some(Value::from(50)));
        assert_eq!(number_value(0.5), Some(serde_json::json!(0.5)));
        assert_eq!(number_value(-3.0), Some(Value::from(-3)));
        assert_eq!(number_value(f64::NAN), None);
        assert_eq!(number_value(f64::INFINITY), None);
    }
}
