//! `formatString` (basic catalog [guide]): interpolate `${…}` expressions into a template.
//!
//! The template is parsed by [`crate::eval::expression`]; each part is resolved in the
//! caller's scope like any binding (a failing call inside resolves to `""` and records a
//! diagnostic) and turned into text the reference's way ([oracle format] §5): `null` → `""`,
//! floats as Python prints them (`3.0`, `1e-05`), arrays and objects as compact JSON. A
//! template that does not parse fails the whole call.
//!
//! [guide]: https://github.com/a2ui-project/a2ui/blob/main/specification/v0_9/docs/basic_catalog_implementation_guide.md
//! [oracle format]: https://docs.rs/crate/egui_a2ui/latest/source/tests/data/conformance/FORMAT.md

use serde_json::{Map, Value};

use crate::eval::EvalContext;
use crate::eval::expression::parse_template;

use super::FunctionRegistry;
use super::args::{Builtin, Kind, Param, req};
use super::pyfmt::to_text;

const FORMAT_STRING: &[Param] = &[req("value", Kind::DynString)];

/// Register `formatString`.
pub fn register(r: &mut FunctionRegistry) {
    r.register(Builtin::new("formatString", FORMAT_STRING, format_string));
}

/// Interpolate a template in `cx`'s scope.
pub fn interpolate(template: &str, cx: &EvalContext<'_>) -> Result<String, String> {
    let parts =
        parse_template(template, cx.limits.max_expression_depth).map_err(|e| e.to_string())?;
    Ok(parts.iter().map(|p| to_text(&cx.resolve(p))).collect())
}

fn format_string(args: &Map<String, Value>, cx: &EvalContext<'_>) -> Result<Value, String> {
    let template = to_text(args.get("value").unwrap_or(&Value::Null));
    interpolate(&template, cx).map(Value::String)
}
