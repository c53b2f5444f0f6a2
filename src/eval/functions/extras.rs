//! Functions outside the basic catalog JSON: the minimal catalog's `capitalize` and the
//! [web_core] extras: `add`, `subtract`, `multiply`,
//! `divide`, `equals`, `not_equals`, `greater_than`, `less_than`, `contains`,
//! `starts_with`, `ends_with`.
//!
//! Arithmetic reads numbers as JavaScript's `Number()` would (numeric strings parse,
//! booleans are 0/1) except that `null` and unreadable text are NaN, as web_core does; a
//! NaN or infinite result (JSON has neither) is `null`. An integral result is an integer,
//! so `${add(a: 1, b: 2)}` reads `3`.
//!
//! [web_core]: https://github.com/a2ui-project/a2ui/blob/main/renderers/web_core/src/v0_9/basic_catalog/functions/basic_functions.ts

use serde_json::{Map, Value};

use crate::eval::EvalContext;

use super::FunctionRegistry;
use super::args::{Builtin, Kind, Param, req};
use super::pyfmt::{number_value, parse_py_float, to_text};

const CAPITALIZE: &[Param] = &[req("value", Kind::DynString)];
const AB: &[Param] = &[req("a", Kind::Any), req("b", Kind::Any)];
const CONTAINS: &[Param] = &[req("string", Kind::Any), req("substring", Kind::Any)];
const STARTS: &[Param] = &[req("string", Kind::Any), req("prefix", Kind::Any)];
const ENDS: &[Param] = &[req("string", Kind::Any), req("suffix", Kind::Any)];

/// Register `capitalize` and the web_core extras.
pub fn register(r: &mut FunctionRegistry) {
    r.register(Builtin::new("capitalize", CAPITALIZE, capitalize));
    r.register(Builtin::new("add", AB, |a, _| arith(a, |x, y| x + y)));
    r.register(Builtin::new("subtract", AB, |a, _| arith(a, |x, y| x - y)));
    r.register(Builtin::new("multiply", AB, |a, _| arith(a, |x, y| x * y)));
    r.register(Builtin::new("divide", AB, |a, _| arith(a, |x, y| x / y)));
    r.register(Builtin::new("equals", AB, |a, _| {
        Ok(Value::Bool(same(arg(a, "a"), arg(a, "b"))))
    }));
    r.register(Builtin::new("not_equals", AB, |a, _| {
        Ok(Value::Bool(!same(arg(a, "a"), arg(a, "b"))))
    }));
    r.register(Builtin::new("greater_than", AB, |a, _| {
        Ok(Value::Bool(num(arg(a, "a")) > num(arg(a, "b"))))
    }));
    r.register(Builtin::new("less_than", AB, |a, _| {
        Ok(Value::Bool(num(arg(a, "a")) < num(arg(a, "b"))))
    }));
    r.register(Builtin::new("contains", CONTAINS, |a, _| {
        Ok(Value::Bool(
            text(a, "string").contains(&text(a, "substring")),
        ))
    }));
    r.register(Builtin::new("starts_with", STARTS, |a, _| {
        Ok(Value::Bool(
            text(a, "string").starts_with(&text(a, "prefix")),
        ))
    }));
    r.register(Builtin::new("ends_with", ENDS, |a, _| {
        Ok(Value::Bool(text(a, "string").ends_with(&text(a, "suffix"))))
    }));
}

fn arg<'a>(args: &'a Map<String, Value>, name: &str) -> &'a Value {
    args.get(name).unwrap_or(&Value::Null)
}

fn text(args: &Map<String, Value>, name: &str) -> String {
    to_text(arg(args, name))
}

/// A value as a number; NaN for `null`, arrays, objects and unreadable text.
fn num(v: &Value) -> f64 {
    match v {
        Value::Number(n) => n.as_f64().unwrap_or(f64::NAN),
        Value::Bool(b) => f64::from(u8::from(*b)),
        Value::String(s) if s.trim().is_empty() => 0.0,
        Value::String(s) => parse_py_float(s).unwrap_or(f64::NAN),
        _ => f64::NAN,
    }
}

/// An arithmetic result: an integer when integral, `null` when NaN or infinite.
fn arith(args: &Map<String, Value>, op: fn(f64, f64) -> f64) -> Result<Value, String> {
    let r = op(num(arg(args, "a")), num(arg(args, "b")));
    if r.is_finite() && r.fract() == 0.0 && r.abs() < 9.007_199_254_740_992e15 {
        return Ok(Value::from(r as i64));
    }
    Ok(number_value(r))
}

/// Equality of JSON values, numbers by value (`1` equals `1.0`).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, p)| y.get(k).is_some_and(|q| same(p, q)))
        }
        _ => a == b,
    }
}

fn capitalize(args: &Map<String, Value>, _cx: &EvalContext<'_>) -> Result<Value, String> {
    let s = text(args, "value");
    let mut chars = s.chars();
    let out = match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    };
    Ok(Value::String(out))
}
