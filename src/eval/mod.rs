//! Dynamic values: resolving literals, data bindings (absolute or relative to a template
//! scope) and function calls against a surface's data model, and evaluating checks.
//!
//! Nothing here touches egui; the renderer and the conformance dump share it.
//!
//! A host adds its own client-side functions (called from bindings as
//! `{"call": name, "args": {...}}`) by implementing [`Function`], or by wrapping a closure in
//! [`FnFunction`], and registering it with
//! [`Catalog::register_function`](crate::render::catalog::Catalog::register_function) (or in a
//! [`FunctionRegistry`] of its own). [`FunctionRegistry::basic`] holds the basic catalog's
//! 14 functions, the minimal catalog's `capitalize`, the web_core extras (`add`, `equals`,
//! ...) and the v1.0 system function `@index`. Arguments reach a function already resolved
//! in the caller's scope; an [`EvalContext`] resolves any dynamic value the same way.
//!
//! ```
//! use egui_a2ui::eval::{EvalContext, FnFunction, FunctionRegistry};
//! use egui_a2ui::{Limits, Version};
//! use serde_json::{Value, json};
//!
//! let mut functions = FunctionRegistry::basic();
//! functions.register(FnFunction::new("shout", |args, _cx| {
//!     let text = args.get("text").and_then(Value::as_str).unwrap_or_default();
//!     Ok(json!(text.to_uppercase()))
//! }));
//!
//! let data = json!({"user": {"name": "ada"}});
//! let limits = Limits::default();
//! let cx = EvalContext::new(&data, "/user", Version::V0_9, &functions, &limits);
//! // `name` is relative to the scope `/user`, as inside a template instance.
//! let call = json!({"call": "shout", "args": {"text": {"path": "name"}}});
//! assert_eq!(cx.resolve(&call), json!("ADA"));
//! assert_eq!(cx.resolve(&json!({"call": "formatString", "args": {"value": "Hi ${/user/name}"}})), json!("Hi ada"));
//! ```

pub(crate) mod agent_calls;
pub(crate) mod checks;
pub mod coerce;
pub(crate) mod expression;
pub(crate) mod functions;

use std::cell::{Cell, RefCell};

use serde_json::{Map, Value};

pub use checks::{CheckResult, first_failure};
pub use functions::{AllowedCallers, FnFunction, Function, FunctionRegistry};

use crate::error::A2uiError;
use crate::limits::Limits;
use crate::pointer::{get_pointer, parse_pointer, resolve_path};
use crate::protocol::Version;
use crate::stored::PropRef;

/// The work one surface frame may spend on function calls: calls evaluated
/// ([`Limits::max_calls_per_frame`]) and bytes of data-model values copied into their
/// arguments ([`Limits::max_call_bytes_per_frame`]). Shared by the evaluation contexts of
/// one walk; past either limit calls fail with `LIMIT_EXCEEDED` (their binding resolves to
/// `null`) and the budget remembers which limit was hit, for one report.
#[derive(Debug, Default)]
pub(crate) struct CallBudget {
    calls: Cell<usize>,
    bytes: Cell<usize>,
    exceeded: Cell<Option<(&'static str, usize, usize)>>,
    reported: Cell<bool>,
}

impl CallBudget {
    /// Count one call; `Err` once past the limit.
    fn take_call(&self, limits: &Limits) -> Result<(), A2uiError> {
        let n = self.calls.get().saturating_add(1);
        self.calls.set(n);
        self.check("max_calls_per_frame", n, limits.max_calls_per_frame)
    }

    /// Count `bytes` copied into arguments; `Err` once past the limit.
    fn take_bytes(&self, bytes: usize, limits: &Limits) -> Result<(), A2uiError> {
        let n = self.bytes.get().saturating_add(bytes);
        self.bytes.set(n);
        self.check(
            "max_call_bytes_per_frame",
            n,
            limits.max_call_bytes_per_frame,
        )
    }

    fn check(&self, what: &'static str, actual: usize, limit: usize) -> Result<(), A2uiError> {
        if actual <= limit {
            return Ok(());
        }
        if self.exceeded.get().is_none() {
            self.exceeded.set(Some((what, limit, actual)));
        }
        Err(A2uiError::LimitExceeded {
            what,
            limit,
            actual,
        })
    }

    /// Whether a limit was exceeded this frame (values resolved since are placeholders, not
    /// to be kept).
    pub(crate) fn is_exceeded(&self) -> bool {
        self.exceeded.get().is_some()
    }

    /// The first limit exceeded, the first time it is asked (one report a frame).
    pub(crate) fn take_report(&self) -> Option<A2uiError> {
        if self.reported.get() {
            return None;
        }
        let (what, limit, actual) = self.exceeded.get()?;
        self.reported.set(true);
        Some(A2uiError::LimitExceeded {
            what,
            limit,
            actual,
        })
    }
}

/// What a value copied out of the data model costs the budget: its memory estimate,
/// read in O(1) for a string and a scalar.
fn copy_cost(v: &Value) -> usize {
    match v {
        Value::String(s) => s.len(),
        Value::Array(_) | Value::Object(_) => crate::stored::size::value_bytes(v),
        _ => 0,
    }
}

/// Everything needed to resolve a dynamic value: the data model, the scope of the component
/// being resolved, the protocol version, the functions of the catalog, the locale, limits.
pub struct EvalContext<'a> {
    /// The surface's whole data model.
    pub data: &'a Value,
    /// The data-context path: `/` outside templates, `/items/3` inside a template instance.
    pub scope: &'a str,
    /// The surface's protocol version (validators answer differently in v1.0).
    pub version: Version,
    /// The functions callable from bindings.
    pub functions: &'a FunctionRegistry,
    /// BCP 47 locale for formatting functions (`en-US` by default).
    pub locale: &'a str,
    /// Limits (call nesting, expression depth, regex size).
    pub limits: &'a Limits,
    depth: Cell<usize>,
    diagnostics: RefCell<Vec<A2uiError>>,
    /// v1.0: where calls to functions the renderer lacks go (`callAgentFunction`), with the
    /// surface id they belong to. `None`: such calls are errors.
    pub(crate) agent_calls: Option<(&'a agent_calls::AgentCalls, &'a str)>,
    pending: Cell<bool>,
    agent_caller: Cell<bool>,
    /// The frame's call budget (the renderer's contexts have one; `None`: unbounded).
    pub(crate) budget: Option<&'a CallBudget>,
    /// The store whose surface is resolved (the renderer's contexts say).
    store: Option<crate::stored::StoreId>,
    /// Whether a user gesture (a click, a key press) fired this evaluation: an action's
    /// `functionCall` run from its handler.
    user_gesture: bool,
}

impl<'a> EvalContext<'a> {
    /// A context at `scope`.
    pub fn new(
        data: &'a Value,
        scope: &'a str,
        version: Version,
        functions: &'a FunctionRegistry,
        limits: &'a Limits,
    ) -> Self {
        Self {
            data,
            scope,
            version,
            functions,
            locale: "en-US",
            limits,
            depth: Cell::new(0),
            diagnostics: RefCell::new(Vec::new()),
            agent_calls: None,
            pending: Cell::new(false),
            agent_caller: Cell::new(false),
            budget: None,
            store: None,
            user_gesture: false,
        }
    }

    /// The same context, resolving a surface of the store `store` (the renderer sets it;
    /// `callMcpTool` serves only the stores bound to its server's sessions).
    pub fn with_store(mut self, store: crate::stored::StoreId) -> Self {
        self.store = Some(store);
        self
    }

    /// The same context, marked as run by a user gesture (the renderer marks an action's
    /// `functionCall` fired by a click or key press). `callMcpTool` calls a tool that is
    /// not read-only only then; otherwise the call waits for the host's approval.
    pub fn with_user_gesture(mut self) -> Self {
        self.user_gesture = true;
        self
    }

    /// The store whose surface is resolved, when the context knows it.
    pub fn store_id(&self) -> Option<crate::stored::StoreId> {
        self.store
    }

    /// Whether a user gesture fired this evaluation (see [`Self::with_user_gesture`]).
    pub fn has_user_gesture(&self) -> bool {
        self.user_gesture
    }

    /// The same context with another locale.
    pub fn with_locale(mut self, locale: &'a str) -> Self {
        self.locale = locale;
        self
    }

    /// A context for another scope, sharing everything else (diagnostics start empty).
    pub fn at_scope<'b>(&'b self, scope: &'b str) -> EvalContext<'b>
    where
        'a: 'b,
    {
        EvalContext {
            data: self.data,
            scope,
            version: self.version,
            functions: self.functions,
            locale: self.locale,
            limits: self.limits,
            depth: Cell::new(self.depth.get()),
            diagnostics: RefCell::new(Vec::new()),
            agent_calls: self.agent_calls,
            pending: Cell::new(false),
            agent_caller: Cell::new(false),
            budget: self.budget,
            store: self.store,
            user_gesture: self.user_gesture,
        }
    }

    /// Errors met while resolving (failed calls, bad paths); taking them clears the list.
    pub fn take_diagnostics(&self) -> Vec<A2uiError> {
        self.diagnostics.take()
    }

    /// Record a diagnostic (used by functions that degrade to a value instead of failing).
    pub fn diagnose(&self, e: A2uiError) {
        let mut d = self.diagnostics.borrow_mut();
        if d.len() < 64 {
            d.push(e);
        }
    }

    /// The absolute pointer a binding path denotes in this scope.
    pub fn absolute_path(&self, path: &str) -> String {
        resolve_path(path, self.scope)
    }

    /// The value a binding path points at; `null` when it does not exist.
    ///
    /// Inside a function call's arguments the copy is charged to the frame's budget
    /// ([`Limits::max_call_bytes_per_frame`]); past it the path resolves to `null`.
    pub fn resolve_path(&self, path: &str) -> Value {
        let Some(v) = self.lookup(path) else {
            return Value::Null;
        };
        if self.depth.get() > 0
            && let Some(budget) = self.budget
            && let Err(e) = budget.take_bytes(copy_cost(v), self.limits)
        {
            self.diagnose(e);
            return Value::Null;
        }
        v.clone()
    }

    /// The value a binding path points at, borrowed from the data model (`None` when it
    /// does not exist). Resolves without building the absolute pointer: the scope is walked,
    /// then the relative path from there.
    pub fn lookup(&self, path: &str) -> Option<&'a Value> {
        let found = if path.starts_with('/') {
            get_pointer(self.data, path)
        } else {
            let rel = path.strip_prefix("./").unwrap_or(path);
            if rel.is_empty() || rel == "." {
                get_pointer(self.data, self.scope)
            } else if rel.contains('~') || self.scope.contains('~') {
                // Rare: let the joined pointer report a bad escape exactly as before.
                let abs = self.absolute_path(path);
                parse_pointer(&abs).and_then(|_| get_pointer(self.data, &abs))
            } else {
                get_pointer(self.data, self.scope)
                    .and_then(|base| base.map_or(Ok(None), |b| get_pointer(b, rel)))
            }
        };
        match found {
            Ok(v) => v,
            Err(e) => {
                self.diagnose(e);
                None
            }
        }
    }

    /// Resolve one dynamic value (literal, `{"path"}` or `{"call"}`); nested literals are
    /// kept as they are. A failed call resolves to `null` and records a diagnostic.
    pub fn resolve(&self, v: &Value) -> Value {
        match dynamic_kind(v) {
            DynamicKind::Path(p) => self.resolve_path(p),
            DynamicKind::Call(c) => self.call(c).unwrap_or_else(|e| {
                self.diagnose(e);
                Value::Null
            }),
            DynamicKind::Literal => v.clone(),
        }
    }

    /// [`Self::resolve`] for a stored property: a binding reads the data model without
    /// building anything; a call is made into a `Value` first (its arguments are resolved
    /// from it); a literal is copied out.
    pub fn resolve_prop(&self, v: PropRef<'_>) -> Value {
        match prop_kind(v) {
            PropDynamic::Path(p) => self.resolve_path(p),
            PropDynamic::Call => self.resolve(&v.to_value()),
            PropDynamic::Literal => v.to_value(),
        }
    }

    /// [`Self::resolve_deep`] for a stored property.
    pub fn resolve_deep_prop(&self, v: PropRef<'_>) -> Value {
        match prop_kind(v) {
            PropDynamic::Path(p) => self.resolve_path(p),
            _ => self.resolve_deep(&v.to_value()),
        }
    }

    /// Resolve every dynamic value inside `v`, at any depth (action contexts, function
    /// arguments, the conformance dump).
    pub fn resolve_deep(&self, v: &Value) -> Value {
        match dynamic_kind(v) {
            DynamicKind::Literal => match v {
                Value::Object(m) => Value::Object(
                    m.iter()
                        .map(|(k, x)| (k.clone(), self.resolve_deep(x)))
                        .collect(),
                ),
                Value::Array(a) => Value::Array(a.iter().map(|x| self.resolve_deep(x)).collect()),
                other => other.clone(),
            },
            _ => self.resolve(v),
        }
    }

    /// Evaluate a function-call object `{"call": name, "args": {...}}`: its arguments are
    /// resolved in this scope first.
    pub fn call(&self, call: &Map<String, Value>) -> Result<Value, A2uiError> {
        let name = call.get("call").and_then(Value::as_str).unwrap_or_default();
        let depth = self.depth.get();
        if depth >= self.limits.max_call_depth {
            return Err(A2uiError::LimitExceeded {
                what: "max_call_depth",
                limit: self.limits.max_call_depth,
                actual: depth + 1,
            });
        }
        if let Some(budget) = self.budget {
            budget.take_call(self.limits)?;
        }
        let expression_error = |message: String| A2uiError::Expression {
            expression: name.to_owned(),
            message,
        };
        let empty = Map::new();
        let raw = match call.get("args") {
            Some(Value::Object(a)) => a,
            Some(Value::Null) | None => &empty,
            Some(_) => return Err(expression_error("args must be an object".into())),
        };
        // As the reference does: the envelope, the function's existence and the written
        // arguments are checked before anything is resolved.
        functions::args::check_envelope(name, raw, self.version).map_err(expression_error)?;
        let Some(f) = self.functions.get(name) else {
            return self.call_agent(call, name, raw);
        };
        if f.allowed_callers() == AllowedCallers::AgentOnly && !self.agent_caller.get() {
            return Err(expression_error(
                "an agentOnly function cannot be bound into the UI".into(),
            ));
        }
        f.check_args(raw, self).map_err(expression_error)?;
        self.depth.set(depth + 1);
        let args: Map<String, Value> = raw
            .iter()
            .map(|(k, x)| (k.clone(), self.resolve_deep(x)))
            .collect();
        let r = f.call(&args, self).map_err(expression_error);
        self.depth.set(depth);
        r
    }

    /// v1.0: a function the renderer lacks is asked of the agent. Pending calls resolve to
    /// `null` and mark the context pending; failed ones are errors.
    fn call_agent(
        &self,
        call: &Map<String, Value>,
        name: &str,
        raw: &Map<String, Value>,
    ) -> Result<Value, A2uiError> {
        let unknown = || A2uiError::Expression {
            expression: name.to_owned(),
            message: "unknown function".into(),
        };
        let Some((calls, surface_id)) = self.agent_calls else {
            return Err(unknown());
        };
        if self.version != Version::V1_0 || name.starts_with('@') {
            return Err(unknown());
        }
        let args: Map<String, Value> = raw
            .iter()
            .map(|(k, x)| (k.clone(), self.resolve_deep(x)))
            .collect();
        let catalog = call.get("catalogId").and_then(Value::as_str);
        match calls.lookup(surface_id, name, &args, catalog) {
            agent_calls::AgentCallState::Pending => {
                self.pending.set(true);
                Ok(Value::Null)
            }
            agent_calls::AgentCallState::Done(v) => Ok(v),
            agent_calls::AgentCallState::Failed(code, message) => Err(A2uiError::AgentFunction {
                function: name.to_owned(),
                code,
                message,
            }),
        }
    }

    /// Mark this context as evaluating an agent's `callRendererFunction` (agent-only
    /// functions are then allowed).
    pub fn as_agent_caller(self) -> Self {
        self.agent_caller.set(true);
        self
    }

    /// Mark the value being resolved as waiting for an answer from outside (an agent
    /// function response, an MCP tool result).
    pub(crate) fn mark_pending(&self) {
        self.pending.set(true);
    }

    /// The surface being resolved, when the context knows it (the renderer's contexts do).
    pub(crate) fn surface_id(&self) -> Option<&str> {
        self.agent_calls.map(|(_, s)| s)
    }

    /// Whether a value resolved so far waits for an agent function response.
    pub fn is_pending(&self) -> bool {
        self.pending.get()
    }

    /// Call a function by name with already-resolved arguments.
    pub fn call_resolved(&self, name: &str, args: &Map<String, Value>) -> Result<Value, A2uiError> {
        let f = self
            .functions
            .get(name)
            .ok_or_else(|| A2uiError::Expression {
                expression: name.to_owned(),
                message: "unknown function".into(),
            })?;
        f.call(args, self).map_err(|message| A2uiError::Expression {
            expression: name.to_owned(),
            message,
        })
    }
}

/// What a stored property is, as a dynamic value ([`dynamic_kind`] for a [`PropRef`]).
#[derive(Debug, PartialEq)]
pub(crate) enum PropDynamic<'v> {
    /// A data binding `{"path": ...}`.
    Path(&'v str),
    /// A function call `{"call": ..., "args": ...}`.
    Call,
    /// Anything else, kept as it is.
    Literal,
}

/// Classify a stored property as [`dynamic_kind`] classifies a value.
/// One pass over the object's entries.
pub(crate) fn prop_kind(v: PropRef<'_>) -> PropDynamic<'_> {
    if !v.is_object() {
        return PropDynamic::Literal;
    }
    let Some(m) = v.as_object() else {
        return PropDynamic::Literal;
    };
    let (mut path, mut call) = (None, false);
    for (k, x) in m {
        match k {
            "componentId" => return PropDynamic::Literal,
            "path" => path = x.as_str(),
            "call" => call = x.is_string(),
            _ => {}
        }
    }
    match (path, call) {
        (Some(p), _) => PropDynamic::Path(p),
        (None, true) => PropDynamic::Call,
        (None, false) => PropDynamic::Literal,
    }
}

/// What a JSON value is, as a dynamic value.
#[derive(Debug, PartialEq)]
pub(crate) enum DynamicKind<'v> {
    /// A data binding `{"path": ...}`.
    Path(&'v str),
    /// A function call `{"call": ..., "args": ...}`.
    Call(&'v Map<String, Value>),
    /// Anything else, kept as it is.
    Literal,
}

/// Classify a value: an object with a string `path` is a binding, one with a string `call`
/// is a function call (template ChildLists, which carry `componentId`, are neither).
pub(crate) fn dynamic_kind(v: &Value) -> DynamicKind<'_> {
    if let Value::Object(m) = v
        && !m.contains_key("componentId")
    {
        if let Some(Value::String(p)) = m.get("path") {
            return DynamicKind::Path(p);
        }
        if let Some(Value::String(_)) = m.get("call") {
            return DynamicKind::Call(m);
        }
    }
    DynamicKind::Literal
}
