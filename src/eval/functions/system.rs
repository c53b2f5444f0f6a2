//! The v1.0 system function `@index(offset?)` (A2UI [v1.0 protocol]): the 0-based index of the
//! template item being rendered, plus `offset`. The index is the last segment of the
//! caller's scope when it is numeric (`/items/2` → 2); outside a template scope, or before
//! v1.0, the call is an error.
//!
//! [v1.0 protocol]: https://a2ui.org/specification/v1.0-a2ui/

use serde_json::{Map, Value};

use crate::eval::EvalContext;
use crate::protocol::Version;

use super::FunctionRegistry;
use super::args::{Builtin, Kind, Param, given, opt};
use super::pyfmt::{py_str, to_int};

const INDEX: &[Param] = &[opt("offset", Kind::DynNumber)];

/// Register `@index`.
pub fn register(r: &mut FunctionRegistry) {
    r.register(Builtin::new("@index", INDEX, index));
}

/// The template index a scope denotes: its last segment when that is all ASCII digits.
pub fn scope_index(scope: &str) -> Option<i64> {
    let last = scope.trim_end_matches('/').rsplit('/').next()?;
    if last.is_empty() || !last.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    last.parse().ok()
}

fn index(args: &Map<String, Value>, cx: &EvalContext<'_>) -> Result<Value, String> {
    if cx.version != Version::V1_0 {
        return Err("@index is a v1.0 system function".into());
    }
    let offset = match given(args, "offset") {
        None => 0,
        Some(v) => {
            to_int(v).ok_or_else(|| format!("@index needs a numeric offset, got {}", py_str(v)))?
        }
    };
    let i = scope_index(cx.scope)
        .ok_or("@index can only be evaluated inside a collection template scope")?;
    i.checked_add(offset)
        .map(Value::from)
        .ok_or_else(|| "@index overflows".into())
}
