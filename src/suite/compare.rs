//! How the harness compares values: `str()` of scalars, JSON equality with numbers by value,
//! expected subsets.

use super::*;

/// The harness compares props through `str()`: `1` and `"1"` agree.
pub(super) fn scalar_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(if *b { "True".into() } else { "False".into() }),
        _ => None,
    }
}

/// JSON equality with numbers compared by value (`1` equals `1.0`).
pub(super) fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| json_eq(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| json_eq(v, w)))
        }
        _ => a == b,
    }
}

/// `expected` is contained in `got`: every key of an expected object is present and
/// matches, arrays match element-wise with equal length, scalars are equal.
pub(super) fn subset(expected: &Value, got: &Value) -> Check {
    match (expected, got) {
        (Value::Object(e), Value::Object(g)) => {
            for (k, v) in e {
                let Some(w) = g.get(k) else {
                    return Err(format!("missing key {k:?} in {}", compact(got)));
                };
                subset(v, w).map_err(|r| format!("{k}: {r}"))?;
            }
            Ok(())
        }
        (Value::Array(e), Value::Array(g)) if e.len() == g.len() => {
            for (i, (v, w)) in e.iter().zip(g).enumerate() {
                subset(v, w).map_err(|r| format!("[{i}]: {r}"))?;
            }
            Ok(())
        }
        _ if json_eq(expected, got) => Ok(()),
        _ => Err(format!(
            "expected {}, got {}",
            compact(expected),
            compact(got)
        )),
    }
}

pub(super) fn compact(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 300 {
        let cut: String = s.chars().take(300).collect();
        format!("{cut}...")
    } else {
        s
    }
}
