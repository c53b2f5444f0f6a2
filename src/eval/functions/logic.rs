//! `and`, `or` and `not` (basic [catalog]).
//!
//! Values are read with Python truthiness, as the reference does (`false`, `null`, `0`,
//! `""`, `[]`, `{}` are false). In v1.0 a `ValidationResult` (an object with a boolean
//! `valid`) counts as its validity, so `and(required(...), email(...))` works. `and`/`or`
//! need at least two values, as the schema says.
//!
//! [catalog]: https://github.com/a2ui-project/a2ui/blob/main/specification/v0_9/catalogs/basic/catalog.json

use serde_json::{Map, Value};

use crate::eval::EvalContext;
use crate::eval::coerce::truthy;
use crate::protocol::Version;

use super::FunctionRegistry;
use super::args::{Builtin, Kind, Param, req};

const VALUES: &[Param] = &[req("values", Kind::BoolList)];
const VALUE: &[Param] = &[req("value", Kind::DynBool)];

/// Register `and`, `or` and `not`.
pub fn register(r: &mut FunctionRegistry) {
    r.register(Builtin::new("and", VALUES, and));
    r.register(Builtin::new("or", VALUES, or));
    r.register(Builtin::new("not", VALUE, not));
}

/// Truthiness of a resolved value in the caller's version.
pub fn holds(v: &Value, cx: &EvalContext<'_>) -> bool {
    if cx.version == Version::V1_0
        && let Some(Value::Bool(valid)) = v.as_object().and_then(|m| m.get("valid"))
    {
        return *valid;
    }
    truthy(v)
}

fn values(args: &Map<String, Value>) -> Result<&[Value], String> {
    match args.get("values") {
        Some(Value::Array(a)) if a.len() >= 2 => Ok(a),
        _ => Err("needs at least 2 values".into()),
    }
}

fn and(args: &Map<String, Value>, cx: &EvalContext<'_>) -> Result<Value, String> {
    Ok(Value::Bool(values(args)?.iter().all(|v| holds(v, cx))))
}

fn or(args: &Map<String, Value>, cx: &EvalContext<'_>) -> Result<Value, String> {
    Ok(Value::Bool(values(args)?.iter().any(|v| holds(v, cx))))
}

fn not(args: &Map<String, Value>, cx: &EvalContext<'_>) -> Result<Value, String> {
    Ok(Value::Bool(!holds(
        args.get("value").unwrap_or(&Value::Null),
        cx,
    )))
}
