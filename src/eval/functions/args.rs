//! Argument schemas: checking a call's arguments as written, before they are resolved.
//!
//! The catalog types each argument (`DynamicString` is a string, a `{"path"}` or a
//! `{"call"}`; `regex.pattern` is a plain string; `and.values` a list of at least two
//! `DynamicBoolean`s). The reference core validates the written arguments against those
//! types and fails the call on a mismatch ([oracle format] §5: `formatNumber` of the literal
//! string `"12.5"` is `null`), so a literal of the wrong type is an error here too, while
//! the same string reached through a binding is coerced. Unknown argument names are
//! errors, as the schemas say `unevaluatedProperties: false`.
//!
//! [oracle format]: https://docs.rs/crate/egui_a2ui/latest/source/tests/data/conformance/FORMAT.md

use serde_json::{Map, Value};

use crate::eval::EvalContext;
use crate::protocol::Version;
use crate::protocol::ident::is_identifier;

use super::Function;
use super::pyfmt::{parse_py_float, parse_py_int};

/// What an argument may be, as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Anything, `null` included.
    Any,
    /// A string, a binding or a call.
    DynString,
    /// A number, a binding or a call.
    DynNumber,
    /// A boolean, a binding or a call.
    DynBool,
    /// A string, number, boolean, array, binding or call (v1.0: also a plain object).
    DynValue,
    /// A literal string only (`regex.pattern`, v0.9 `openUrl.url`).
    Str,
    /// A literal string, a binding or a call (v1.0 `openUrl.url`).
    StrOrDynamic,
    /// A literal non-negative integer (Python's lax `int`: `2`, `2.0`, `"2"`, `true`).
    NonNegInt,
    /// A literal number (Python's lax `float`: numbers, numeric strings, booleans).
    Float,
    /// A list of at least two `DynBool`s.
    BoolList,
}

/// One named argument of a function.
#[derive(Clone, Copy, Debug)]
pub struct Param {
    /// The argument name.
    pub name: &'static str,
    /// What it may be, as written.
    pub kind: Kind,
    /// Whether it must be present.
    pub required: bool,
}

/// A required argument.
pub const fn req(name: &'static str, kind: Kind) -> Param {
    Param {
        name,
        kind,
        required: true,
    }
}

/// An optional argument (absent or `null` means "not given").
pub const fn opt(name: &'static str, kind: Kind) -> Param {
    Param {
        name,
        kind,
        required: false,
    }
}

/// The body of a built-in function: resolved arguments in, value or error message out.
pub type Exec = fn(&Map<String, Value>, &EvalContext<'_>) -> Result<Value, String>;

/// A built-in function: a name, its argument schema and its body.
pub struct Builtin {
    name: &'static str,
    params: &'static [Param],
    exec: Exec,
}

impl Builtin {
    /// A function called `name` with arguments `params`, evaluated by `exec`.
    pub const fn new(name: &'static str, params: &'static [Param], exec: Exec) -> Self {
        Self { name, params, exec }
    }
}

impl Function for Builtin {
    fn name(&self) -> &str {
        self.name
    }

    fn is_pure(&self) -> bool {
        // Every builtin reads only its arguments, the data model, the scope and the locale.
        true
    }

    fn check_args(&self, raw: &Map<String, Value>, cx: &EvalContext<'_>) -> Result<(), String> {
        check_params(self.params, raw, cx.version)
    }

    fn call(&self, args: &Map<String, Value>, cx: &EvalContext<'_>) -> Result<Value, String> {
        (self.exec)(args, cx)
    }
}

/// Check written arguments against a parameter list.
pub fn check_params(
    params: &[Param],
    raw: &Map<String, Value>,
    version: Version,
) -> Result<(), String> {
    for key in raw.keys() {
        if !params.iter().any(|p| p.name == key) {
            return Err(format!("unexpected argument `{key}`"));
        }
    }
    for p in params {
        match raw.get(p.name) {
            None if p.required => return Err(format!("missing argument `{}`", p.name)),
            None => {}
            Some(Value::Null) if !p.required || p.kind == Kind::Any => {}
            Some(v) if !kind_accepts(p.kind, v, version) => {
                return Err(format!(
                    "argument `{}` should be {}",
                    p.name,
                    describe(p.kind)
                ));
            }
            Some(_) => {}
        }
    }
    Ok(())
}

fn describe(kind: Kind) -> &'static str {
    match kind {
        Kind::Any => "anything",
        Kind::DynString => "a string, a binding or a call",
        Kind::DynNumber => "a number, a binding or a call",
        Kind::DynBool => "a boolean, a binding or a call",
        Kind::DynValue => "a literal, a binding or a call",
        Kind::Str => "a string",
        Kind::StrOrDynamic => "a string, a binding or a call",
        Kind::NonNegInt => "a non-negative integer",
        Kind::Float => "a number",
        Kind::BoolList => "a list of at least two booleans",
    }
}

fn kind_accepts(kind: Kind, v: &Value, version: Version) -> bool {
    let dynamic = is_binding(v) || is_call(v);
    match kind {
        Kind::Any => true,
        Kind::DynString | Kind::StrOrDynamic => v.is_string() || dynamic,
        Kind::DynNumber => v.is_number() || dynamic,
        Kind::DynBool => v.is_boolean() || dynamic,
        Kind::DynValue => match v {
            Value::String(_) | Value::Number(_) | Value::Bool(_) | Value::Array(_) => true,
            Value::Object(m) => {
                dynamic
                    || (version == Version::V1_0
                        && !m.contains_key("path")
                        && !m.contains_key("call"))
            }
            Value::Null => false,
        },
        Kind::Str => v.is_string(),
        Kind::NonNegInt => match v {
            Value::Number(n) => {
                n.is_u64()
                    || n.as_f64()
                        .is_some_and(|f| f.is_finite() && f.fract() == 0.0 && f >= 0.0)
            }
            Value::Bool(_) => true,
            Value::String(s) => parse_py_int(s).is_some_and(|i| i >= 0),
            _ => false,
        },
        Kind::Float => match v {
            Value::Number(_) | Value::Bool(_) => true,
            Value::String(s) => parse_py_float(s).is_some(),
            _ => false,
        },
        Kind::BoolList => match v {
            Value::Array(a) => {
                a.len() >= 2 && a.iter().all(|x| kind_accepts(Kind::DynBool, x, version))
            }
            _ => false,
        },
    }
}

/// A data binding as the schema types it: exactly `{"path": "<string>"}`.
pub fn is_binding(v: &Value) -> bool {
    matches!(v, Value::Object(m) if m.len() == 1 && m.get("path").is_some_and(Value::is_string))
}

/// A function call as the schema types it: a string `call`, an optional object `args`
/// whose values are not `null`, and no keys besides `returnType` and `catalogId`.
pub fn is_call(v: &Value) -> bool {
    let Value::Object(m) = v else { return false };
    if !m.get("call").is_some_and(Value::is_string) {
        return false;
    }
    let args_ok = match m.get("args") {
        None => true,
        Some(Value::Object(a)) => a.values().all(|x| !x.is_null()),
        Some(_) => false,
    };
    args_ok
        && m.keys()
            .all(|k| matches!(k.as_str(), "call" | "args" | "returnType" | "catalogId"))
}

/// The v1.0 call envelope: the function name (a leading `@` allowed) and every argument
/// name must be UAX #31 identifiers. Earlier versions accept any names.
pub fn check_envelope(
    name: &str,
    raw: &Map<String, Value>,
    version: Version,
) -> Result<(), String> {
    if version != Version::V1_0 {
        return Ok(());
    }
    let bare = name.strip_prefix('@').unwrap_or(name);
    if !is_identifier(bare) {
        return Err(format!(
            "function name `{name}` is not a UAX #31 identifier"
        ));
    }
    if let Some(k) = raw.keys().find(|k| !is_identifier(k)) {
        return Err(format!("argument name `{k}` is not a UAX #31 identifier"));
    }
    Ok(())
}

/// An argument that is present and not `null`.
pub fn given<'a>(args: &'a Map<String, Value>, name: &str) -> Option<&'a Value> {
    args.get(name).filter(|v| !v.is_null())
}
