//! `pluralize` (basic [catalog]): pick a text by the CLDR plural category of a number.
//!
//! An explicit `zero`, `one` or `two` wins for exactly 0, 1 or 2; otherwise the locale's
//! CLDR rule decides (en: `one` for 1, `other` for everything else, 0 and 1.5 included),
//! and a category without a text falls back to `other`. The chosen value is turned into
//! text as formatString does (a missing `other` gives `""`).
//!
//! [catalog]: https://github.com/a2ui-project/a2ui/blob/main/specification/v0_9/catalogs/basic/catalog.json

use serde_json::{Map, Value};

use crate::eval::EvalContext;

use super::FunctionRegistry;
use super::args::{Builtin, Kind, Param, given, opt, req};
use super::locale::{Category, LocaleData, Operands};
use super::pyfmt::{py_str, to_float, to_text};

const PLURALIZE: &[Param] = &[
    req("value", Kind::DynNumber),
    opt("zero", Kind::DynString),
    opt("one", Kind::DynString),
    opt("two", Kind::DynString),
    opt("few", Kind::DynString),
    opt("many", Kind::DynString),
    req("other", Kind::DynString),
];

/// Register `pluralize`.
pub fn register(r: &mut FunctionRegistry) {
    r.register(Builtin::new("pluralize", PLURALIZE, pluralize));
}

/// The category `pluralize` picks for `x` given which texts the call has.
pub fn choose(x: f64, has: impl Fn(&str) -> bool, locale: &str) -> Result<Category, String> {
    let explicit = [
        (0.0, Category::Zero),
        (1.0, Category::One),
        (2.0, Category::Two),
    ];
    if let Some((_, c)) = explicit.iter().find(|(n, c)| x == *n && has(c.as_str())) {
        return Ok(*c);
    }
    let ops = Operands::of(x).ok_or_else(|| format!("no plural category for {x}"))?;
    Ok(LocaleData::get(locale).plural.category(&ops))
}

fn pluralize(args: &Map<String, Value>, cx: &EvalContext<'_>) -> Result<Value, String> {
    let v = args.get("value").unwrap_or(&Value::Null);
    let x = to_float(v).ok_or_else(|| format!("cannot convert to number: {}", py_str(v)))?;
    let category = choose(x, |k| args.contains_key(k), cx.locale)?;
    let text = given(args, category.as_str())
        .or_else(|| given(args, "other"))
        .map(to_text)
        .unwrap_or_default();
    Ok(Value::String(text))
}
