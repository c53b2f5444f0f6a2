//! Client-side functions callable from bindings (`{"call": name, "args": {...}}`).
//!
//! A [`FunctionRegistry`] holds the functions of a catalog; a host adds its own by
//! implementing [`Function`] (or wrapping a closure in [`FnFunction`]).
//! [`FunctionRegistry::basic`] holds the basic catalog's 14 functions (basic [catalog]), the
//! minimal catalog's `capitalize`, the web_core extras and the v1.0 system function
//! `@index`.
//!
//! Semantics follow the reference core (a2ui-core, [oracle format] §5) unless the spec says
//! otherwise; every difference is listed in `tests/functions_deviations.md`. One file per
//! family: [`validation`], [`format_number`], [`format_date`], [`pluralize`], [`logic`],
//! [`format_string`], [`extras`] and [`system`]; [`args`] checks arguments as written and
//! [`pyfmt`] turns values into text the way the reference does.
//!
//! [catalog]: https://github.com/a2ui-project/a2ui/blob/main/specification/v0_9/catalogs/basic/catalog.json
//! [oracle format]: https://docs.rs/crate/egui_a2ui/latest/source/tests/data/conformance/FORMAT.md

pub(crate) mod args;
pub(crate) mod extras;
pub(crate) mod format_date;
pub(crate) mod format_number;
pub(crate) mod format_string;
pub(crate) mod locale;
mod locale_data;
mod locale_types;
pub(crate) mod logic;
pub(crate) mod mcp;
pub(crate) mod open_url;
pub(crate) mod pluralize;
pub(crate) mod pyfmt;
pub(crate) mod system;
pub(crate) mod validation;

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::{Map, Value};

use super::EvalContext;

/// Who may invoke a function (v1.0 catalog `allowedCallers`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum AllowedCallers {
    /// Only the renderer's own bindings (the spec default; agents get
    /// `INVALID_FUNCTION_CALL`).
    #[default]
    RendererOnly,
    /// Only the agent, through `callRendererFunction`; never bound into UI.
    AgentOnly,
    /// Both.
    RendererOrAgent,
}

impl AllowedCallers {
    /// Read a catalog's `allowedCallers` (`rendererOnly`, `agentOnly`,
    /// `rendererOrAgent`), or the older `callableFrom` spelling of the same rule
    /// (`renderer`, `agent`, `rendererOrAgent`/`both`); `None` for anything else.
    pub fn from_wire(s: &str) -> Option<Self> {
        match s {
            "rendererOnly" | "renderer" => Some(Self::RendererOnly),
            "agentOnly" | "agent" => Some(Self::AgentOnly),
            "rendererOrAgent" | "both" | "agentOrRenderer" => Some(Self::RendererOrAgent),
            _ => None,
        }
    }

    /// The v1.0 wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::RendererOnly => "rendererOnly",
            Self::AgentOnly => "agentOnly",
            Self::RendererOrAgent => "rendererOrAgent",
        }
    }

    /// The callers a v1.0 catalog function definition declares: `allowedCallers`, else
    /// the older `callableFrom`, else the spec default `rendererOnly`.
    pub fn of_definition(def: &Value) -> Self {
        def.get("allowedCallers")
            .or_else(|| def.get("callableFrom"))
            .and_then(Value::as_str)
            .and_then(Self::from_wire)
            .unwrap_or_default()
    }
}

/// A function callable from A2UI bindings.
pub trait Function: Send + Sync {
    /// Who may call it; the basic catalog's functions are renderer-only.
    fn allowed_callers(&self) -> AllowedCallers {
        AllowedCallers::RendererOnly
    }

    /// Whether it may only run in answer to a user gesture (v1.0 `requiresUserActivation`;
    /// `openUrl` does): an agent's `callRendererFunction` is then refused.
    fn requires_user_activation(&self) -> bool {
        false
    }

    /// The name agents call it by.
    fn name(&self) -> &str;

    /// Whether its result depends only on its arguments, the data model, the scope and the
    /// locale (no clock, no I/O, no side effect): the renderer then keeps a call's value for
    /// as long as the surface is unchanged instead of calling it again every frame. The
    /// basic catalog's functions are; a host's own are not unless they say so.
    fn is_pure(&self) -> bool {
        false
    }

    /// Check the arguments as the payload wrote them, before bindings and nested calls are
    /// resolved (the catalog's argument schema: a `DynamicNumber` admits a number, a
    /// `{"path"}` or a `{"call"}`, but not a literal string). An `Err` fails the call
    /// without resolving anything. The default accepts everything.
    fn check_args(&self, raw: &Map<String, Value>, cx: &EvalContext<'_>) -> Result<(), String> {
        let _ = (raw, cx);
        Ok(())
    }

    /// Evaluate with arguments already resolved in the caller's scope. An `Err` is reported
    /// as an `EXPRESSION_ERROR` and the binding resolves to `null`.
    fn call(&self, args: &Map<String, Value>, cx: &EvalContext<'_>) -> Result<Value, String>;
}

/// A function from a closure, for hosts that register small helpers.
pub struct FnFunction<F> {
    name: String,
    f: F,
    callers: AllowedCallers,
    user_activation: bool,
}

impl<F> FnFunction<F>
where
    F: Fn(&Map<String, Value>, &EvalContext<'_>) -> Result<Value, String> + Send + Sync,
{
    /// Wrap a closure as a function called `name`.
    pub fn new(name: impl Into<String>, f: F) -> Self {
        Self {
            name: name.into(),
            f,
            callers: AllowedCallers::RendererOnly,
            user_activation: false,
        }
    }

    /// Let agents call it too (`callRendererFunction`), or only them.
    pub fn with_callers(mut self, callers: AllowedCallers) -> Self {
        self.callers = callers;
        self
    }

    /// Require a user gesture (`requiresUserActivation`): agents' calls are refused.
    pub fn with_user_activation(mut self, required: bool) -> Self {
        self.user_activation = required;
        self
    }
}

impl<F> Function for FnFunction<F>
where
    F: Fn(&Map<String, Value>, &EvalContext<'_>) -> Result<Value, String> + Send + Sync,
{
    fn name(&self) -> &str {
        &self.name
    }

    fn allowed_callers(&self) -> AllowedCallers {
        self.callers
    }

    fn requires_user_activation(&self) -> bool {
        self.user_activation
    }

    fn call(&self, args: &Map<String, Value>, cx: &EvalContext<'_>) -> Result<Value, String> {
        (self.f)(args, cx)
    }
}

/// The functions of a catalog, by name.
#[derive(Clone, Default)]
pub struct FunctionRegistry {
    functions: HashMap<String, Arc<dyn Function>>,
}

impl std::fmt::Debug for FunctionRegistry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut names: Vec<_> = self.functions.keys().collect();
        names.sort();
        f.debug_struct("FunctionRegistry")
            .field("functions", &names)
            .finish()
    }
}

impl FunctionRegistry {
    /// No functions.
    pub fn empty() -> Self {
        Self::default()
    }

    /// The basic catalog's 14 functions, the minimal catalog's `capitalize`, the web_core
    /// extras (`add`, `subtract`, `multiply`, `divide`, `equals`, `not_equals`,
    /// `greater_than`, `less_than`, `contains`, `starts_with`, `ends_with`) and the v1.0
    /// system function `@index`.
    pub fn basic() -> Self {
        let mut r = Self::empty();
        validation::register(&mut r);
        format_string::register(&mut r);
        format_number::register(&mut r);
        format_date::register(&mut r);
        pluralize::register(&mut r);
        logic::register(&mut r);
        open_url::register(&mut r);
        extras::register(&mut r);
        system::register(&mut r);
        r
    }

    /// Add (or replace) a function.
    pub fn register(&mut self, f: impl Function + 'static) -> &mut Self {
        self.functions.insert(f.name().to_owned(), Arc::new(f));
        self
    }

    /// A function by name.
    pub fn get(&self, name: &str) -> Option<&dyn Function> {
        self.functions.get(name).map(|f| f.as_ref())
    }

    /// Whether every function `call` names (the call object of a `{"call"}` / `{"@call"}`
    /// binding, nested calls in its arguments included) is registered and
    /// [pure](Function::is_pure): its value then holds for a revision of the surface.
    pub fn is_pure_call(&self, call: &Value) -> bool {
        let mut stack = vec![call];
        let mut seen = 0usize;
        while let Some(v) = stack.pop() {
            seen += 1;
            // A call object this large is evaluated as before rather than walked.
            if seen > 4096 {
                return false;
            }
            match v {
                Value::Object(m) => {
                    for key in ["call", "@call"] {
                        if let Some(name) = m.get(key).and_then(Value::as_str)
                            && !self.get(name).is_some_and(|f| f.is_pure())
                        {
                            return false;
                        }
                    }
                    stack.extend(m.values());
                }
                Value::Array(a) => stack.extend(a.iter()),
                _ => {}
            }
        }
        true
    }

    /// Whether a function of that name is registered.
    pub fn contains(&self, name: &str) -> bool {
        self.functions.contains_key(name)
    }

    /// Registered names, sorted.
    pub fn names(&self) -> Vec<&str> {
        let mut v: Vec<&str> = self.functions.keys().map(String::as_str).collect();
        v.sort_unstable();
        v
    }
}
