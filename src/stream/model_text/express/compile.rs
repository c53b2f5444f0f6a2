//! Compiling Express expressions against a catalog: components (positional and keyword
//! arguments, `_` skips, inline components hoisted with the official ids), values,
//! bindings, checks, events, templates and function calls. The rules are those of
//! `conformance/agent/express/compiler.yaml` and the reference SDK's compiler.

use serde_json::{Map, Number, Value, json};

use super::parser::{Call, Expr};
use super::{ExpressCatalog, ExpressError, ExpressErrorKind, ExpressVersion};

/// Deepest variable-through-variable substitution (a cycle `a = b`, `b = a` ends here).
const MAX_SUBST: usize = 32;

/// The symbols of a surface scope: variable name → expression, in first-written order.
#[derive(Clone, Debug, Default)]
pub(crate) struct Symbols {
    pub(crate) order: Vec<String>,
    pub(crate) map: std::collections::HashMap<String, (Expr, u32), foldhash::fast::RandomState>,
}

impl Symbols {
    /// Set `name` (a reassignment keeps its first place).
    pub(crate) fn set(&mut self, name: &str, e: Expr, line: u32) {
        if self.map.insert(name.to_owned(), (e, line)).is_none() {
            self.order.push(name.to_owned());
        }
    }

    pub(crate) fn get(&self, name: &str) -> Option<&Expr> {
        self.map.get(name).map(|(e, _)| e)
    }
}

/// Compilation of one scope's expressions.
pub(crate) struct Cx<'a> {
    pub(crate) cat: &'a ExpressCatalog,
    pub(crate) version: ExpressVersion,
    pub(crate) syms: &'a Symbols,
    pub(crate) line: u32,
    /// Inline components hoisted while compiling the current component.
    pub(crate) extra: Vec<Value>,
    inline_counter: usize,
    active_value_path: Option<Value>,
    depth: usize,
}

fn err(kind: ExpressErrorKind, line: u32, message: impl Into<String>) -> ExpressError {
    ExpressError {
        kind,
        line,
        message: message.into(),
    }
}

/// A number literal as JSON (a decimal point makes a float, as the reference reads it).
pub(crate) fn number(text: &str) -> Value {
    if !text.contains('.') {
        if let Ok(i) = text.parse::<i64>() {
            return Value::Number(i.into());
        }
        if let Ok(u) = text.parse::<u64>() {
            return Value::Number(u.into());
        }
    }
    text.parse::<f64>()
        .ok()
        .and_then(Number::from_f64)
        .map_or(Value::Null, Value::Number)
}

fn is_check_expr(e: &Expr) -> bool {
    match e {
        Expr::Check(..) => true,
        Expr::Array(items) => {
            !items.is_empty() && items.iter().all(|i| matches!(i, Expr::Check(..)))
        }
        _ => false,
    }
}

fn binding_path(v: &Value) -> Option<&str> {
    let o = v.as_object()?;
    if o.contains_key("componentId") {
        return None;
    }
    o.get("@path")
        .and_then(Value::as_str)
        .or_else(|| o.get("path").and_then(Value::as_str))
}

fn has_binding(v: &Value) -> bool {
    match v {
        Value::Object(o) => {
            if ["call", "@call", "event", "functionCall"]
                .iter()
                .any(|k| o.contains_key(*k))
            {
                return false;
            }
            binding_path(v).is_some() || o.values().any(has_binding)
        }
        Value::Array(a) => a.iter().any(has_binding),
        _ => false,
    }
}

/// The id of the component a variable holds: its name, or its `id=`.
pub(crate) fn component_id(var: &str, e: &Expr, line: u32) -> Result<String, ExpressError> {
    if let Expr::Call(c) = e
        && let Some(id) = c.kw("id")
    {
        return match id {
            Expr::Str(s) if !s.is_empty() => Ok(s.clone()),
            other => Err(err(
                ExpressErrorKind::Validation,
                line,
                format!("Component id must be a non-empty string, got: {other:?}"),
            )),
        };
    }
    Ok(var.to_owned())
}

impl<'a> Cx<'a> {
    pub(crate) fn new(
        cat: &'a ExpressCatalog,
        version: ExpressVersion,
        syms: &'a Symbols,
        line: u32,
    ) -> Self {
        Self {
            cat,
            version,
            syms,
            line,
            extra: Vec::new(),
            inline_counter: 0,
            active_value_path: None,
            depth: 0,
        }
    }

    fn path_key(&self) -> &'static str {
        if self.version.at_least_v10() {
            "@path"
        } else {
            "path"
        }
    }

    fn call_key(&self) -> &'static str {
        if self.version.at_least_v10() {
            "@call"
        } else {
            "call"
        }
    }

    fn e(&self, kind: ExpressErrorKind, m: impl Into<String>) -> ExpressError {
        err(kind, self.line, m)
    }

    /// The `catalogId=` of a call, checked against the catalog.
    fn catalog_override(
        &self,
        c: &Call,
        target: impl Fn() -> String,
    ) -> Result<Option<String>, ExpressError> {
        let Some(v) = c.kw("catalogId") else {
            return Ok(None);
        };
        let target = target();
        let Expr::Str(id) = v else {
            return Err(self.e(
                ExpressErrorKind::Validation,
                format!("{target} catalogId must be a string, got: {v:?}"),
            ));
        };
        if !self.version.at_least_v10() {
            return Err(self.e(
                ExpressErrorKind::Validation,
                format!(
                    "{target} sets catalogId, but A2UI {} only allows catalogId on the surface. Per-component and per-function catalogId overrides need A2UI v1.0 or later.",
                    self.version.as_str()
                ),
            ));
        }
        if *id != self.cat.catalog_id {
            return Err(self.e(
                ExpressErrorKind::Validation,
                format!(
                    "Unknown catalog '{id}'. Available catalogs: ['{}']",
                    self.cat.catalog_id
                ),
            ));
        }
        Ok(Some(id.clone()))
    }

    fn defines_component(&self, c: &Call) -> bool {
        self.cat.components.contains_key(&c.name)
    }

    fn defines_function(&self, name: &str) -> bool {
        self.cat.functions.contains_key(name)
    }

    /// Compile the variable `var` holding `e` into a component (its inline children go to
    /// `self.extra`, after it); `None` when the variable holds no component.
    pub(crate) fn component(&mut self, var: &str, e: &Expr) -> Result<Option<Value>, ExpressError> {
        let Expr::Call(c) = e else { return Ok(None) };
        let explicit_cat = c.kw("catalogId").is_some();
        if !self.defines_component(c)
            && ((matches!(c.name.as_str(), "Event" | "_template") && !explicit_cat)
                || self.defines_function(&c.name))
        {
            return Ok(None);
        }
        let write_cat = self.catalog_override(c, || format!("Component '{}'", c.name))?;
        let Some(sig) = self.cat.components.get(&c.name) else {
            return Err(self.e(
                ExpressErrorKind::Validation,
                format!(
                    "Unknown component '{}' not defined in catalog '{}'.",
                    c.name, self.cat.catalog_id
                ),
            ));
        };
        let comp_id = component_id(var, e, self.line)?;
        let mut out = Map::new();
        out.insert("id".into(), Value::String(comp_id.clone()));
        out.insert("component".into(), Value::String(c.name.clone()));
        if let Some(id) = write_cat {
            out.insert("catalogId".into(), Value::String(id));
        }
        let non_check: Vec<&String> = sig.props.iter().filter(|p| *p != "checks").collect();
        let mut raw_checks: Vec<&Expr> = Vec::new();
        let mut pairs: Vec<(&str, &Expr)> = Vec::new();
        let mut idx = 0;
        for a in &c.args {
            if is_check_expr(a) {
                match a {
                    Expr::Array(items) => raw_checks.extend(items.iter()),
                    other => raw_checks.push(other),
                }
                continue;
            }
            if let Some(p) = non_check.get(idx) {
                pairs.push((p.as_str(), a));
                idx += 1;
            }
        }
        for (k, v) in &c.kwargs {
            if k == "catalogId" || k == "id" {
                continue;
            }
            if is_check_expr(v) {
                match v {
                    Expr::Array(items) => raw_checks.extend(items.iter()),
                    other => raw_checks.push(other),
                }
                continue;
            }
            pairs.push((k.as_str(), v));
        }
        let mut seen: Vec<&str> = Vec::new();
        let mut sibling_value_path = None;
        for (prop, arg) in pairs {
            if !sig.props.iter().any(|p| p == prop) {
                let mut valid = sig.props.clone();
                valid.sort();
                let help = if valid.is_empty() {
                    format!("Component '{}' has no configurable properties.", c.name)
                } else {
                    format!(
                        "Component '{}' accepts properties: {}.",
                        c.name,
                        valid.join(", ")
                    )
                };
                return Err(self.e(
                    ExpressErrorKind::UnknownProperty,
                    format!(
                        "Property '{prop}' is not a valid property of component '{}'. {help}",
                        c.name
                    ),
                ));
            }
            if seen.contains(&prop) {
                return Err(self.e(
                    ExpressErrorKind::DuplicateProperty,
                    format!(
                        "Property '{prop}' of component '{}' was provided multiple times.",
                        c.name
                    ),
                ));
            }
            seen.push(prop);
            if matches!(arg, Expr::Skip) {
                continue;
            }
            let is_action = prop == "action" || prop == "submitAction";
            let mut v = self.value(arg, is_action, Some((&comp_id, prop)), None)?;
            let traits = sig.traits.get(prop);
            if let Some(t) = traits
                && !t.binding
            {
                if has_binding(&v) {
                    return Err(self.e(
                        ExpressErrorKind::ForbiddenBinding,
                        format!(
                            "Property '{prop}' of component '{}' does not support dynamic data bindings (paths).",
                            c.name
                        ),
                    ));
                }
                if t.options
                    && let Value::Array(items) = &mut v
                {
                    for it in items.iter_mut() {
                        if let Value::String(s) = it {
                            *it = json!({"label": s, "value": s});
                        }
                    }
                }
            }
            if let (Some(t), Value::String(s)) = (traits, &v)
                && let Some(choices) = &t.choices
                && !choices.iter().any(|c| c.as_str() == Some(s))
            {
                let list: Vec<String> = choices
                    .iter()
                    .map(|c| format!("'{}'", c.as_str().unwrap_or_default()))
                    .collect();
                return Err(self.e(
                    ExpressErrorKind::Validation,
                    format!(
                        "Value '{s}' is not a valid enum choice for property '{prop}' of component '{}'. Allowed values are: [{}]",
                        c.name,
                        list.join(", ")
                    ),
                ));
            }
            if prop == "value" && binding_path(&v).is_some() {
                sibling_value_path = Some(v.clone());
            }
            if !v.is_null() {
                out.insert(prop.to_owned(), v);
            }
        }
        self.active_value_path = sibling_value_path;
        if !raw_checks.is_empty() {
            let mut checks = Vec::new();
            for rc in raw_checks {
                if let Expr::Check(name, args) = rc {
                    let (cond, msg) = self.check(name, args)?;
                    checks.push(json!({"condition": cond, "message": msg}));
                }
            }
            if !checks.is_empty() {
                out.insert("checks".into(), Value::Array(checks));
            }
        }
        self.active_value_path = None;
        for r in &sig.required {
            if r != "checks" && r != "component" && r != "id" && !out.contains_key(r) {
                return Err(self.e(
                    ExpressErrorKind::Validation,
                    format!("Component '{}' missing required property '{r}'.", c.name),
                ));
            }
        }
        Ok(Some(Value::Object(out)))
    }

    fn check(&mut self, name: &str, args: &[Expr]) -> Result<(Value, Value), ExpressError> {
        let mut explicit: Vec<&Expr> = args.iter().collect();
        let mut write_cat = None;
        if let Some(k) = explicit.iter().position(|a| {
            matches!(a, Expr::Map(m) if m.len() == 1 && m[0].0 == "catalogId" && matches!(m[0].1, Expr::Str(_)))
        }) && let Expr::Map(m) = explicit.remove(k)
            && let Some((_, Expr::Str(id))) = m.first()
        {
            let c = Call {
                name: name.to_owned(),
                args: Vec::new(),
                kwargs: vec![("catalogId".into(), Expr::Str(id.clone()))],
            };
            write_cat = self.catalog_override(&c, || format!("Check '{name}'"))?;
        }
        let cat: &'a ExpressCatalog = self.cat;
        let Some(sig) = cat.functions.get(name) else {
            return Err(self.e(
                ExpressErrorKind::Validation,
                format!(
                    "Unknown check function '{name}' not defined in catalog '{}'.",
                    self.cat.catalog_id
                ),
            ));
        };
        let mut chars = name.chars();
        let cap: String = chars
            .next()
            .map(|f| {
                f.to_uppercase()
                    .chain(chars.flat_map(char::to_lowercase))
                    .collect()
            })
            .unwrap_or_default();
        let mut message = Value::String(format!("{cap} check failed"));
        let mut compiled = Map::new();
        let mut injected = false;
        if sig.params.first().is_some_and(|p| p == "value") {
            let explicit_binding = matches!(explicit.first(), Some(Expr::Path(_)));
            if !explicit_binding && let Some(v) = self.active_value_path.clone() {
                compiled.insert("value".into(), v);
                injected = true;
            }
        }
        let start = usize::from(injected);
        let params = &sig.params;
        let schemas = &sig.schemas;
        for (i, a) in explicit.iter().enumerate() {
            let target = i + start;
            let Some(p) = params.get(target) else {
                if let Expr::Str(s) = a {
                    message = Value::String(s.clone());
                }
                continue;
            };
            let numeric = schemas
                .get(p)
                .and_then(|s| s.get("type"))
                .and_then(Value::as_str)
                .is_some_and(|t| matches!(t, "integer" | "number" | "boolean"));
            if let Expr::Str(s) = a
                && numeric
            {
                message = Value::String(s.clone());
                break;
            }
            if matches!(a, Expr::Skip) {
                continue;
            }
            let v = self.value(a, false, None, None)?;
            compiled.insert(p.clone(), v);
        }
        let mut cond = Map::new();
        cond.insert(self.call_key().into(), Value::String(name.to_owned()));
        if let Some(c) = write_cat {
            cond.insert("catalogId".into(), Value::String(c));
        }
        cond.insert("args".into(), Value::Object(compiled));
        Ok((Value::Object(cond), message))
    }

    /// Compile a value. `parent`: the component and property it sits in (inline ids).
    pub(crate) fn value(
        &mut self,
        e: &Expr,
        is_action: bool,
        parent: Option<(&str, &str)>,
        index: Option<usize>,
    ) -> Result<Value, ExpressError> {
        self.depth += 1;
        if self.depth > MAX_SUBST + super::parser::MAX_DEPTH {
            self.depth -= 1;
            return Err(self.e(
                ExpressErrorKind::Validation,
                "variables refer to each other in a cycle",
            ));
        }
        let r = self.value_inner(e, is_action, parent, index);
        self.depth -= 1;
        r
    }

    fn value_inner(
        &mut self,
        e: &Expr,
        is_action: bool,
        parent: Option<(&str, &str)>,
        index: Option<usize>,
    ) -> Result<Value, ExpressError> {
        Ok(match e {
            Expr::Path(p) => json!({ self.path_key(): p }),
            Expr::Var(name) => {
                let Some(sym) = self.syms.get(name) else {
                    return Ok(Value::String(name.clone()));
                };
                if let Expr::Call(c) = sym
                    && self.defines_component(c)
                {
                    return Ok(Value::String(component_id(name, sym, self.line)?));
                }
                self.value(sym, is_action, None, None)?
            }
            Expr::Check(name, args) => self.check(name, args)?.0,
            Expr::Call(c) => self.call(c, is_action, parent, index)?,
            Expr::Map(entries) => {
                let mut m = Map::new();
                for (k, v) in entries {
                    m.insert(k.clone(), self.value(v, is_action, None, None)?);
                }
                Value::Object(m)
            }
            Expr::Array(items) => {
                let mut out = Vec::with_capacity(items.len());
                for (i, it) in items.iter().enumerate() {
                    out.push(self.value(it, is_action, parent, Some(i))?);
                }
                Value::Array(out)
            }
            Expr::Skip => json!({"skipped": true}),
            Expr::Str(s) => Value::String(s.clone()),
            Expr::Number(n) => number(n),
            Expr::Bool(b) => Value::Bool(*b),
            Expr::Null => Value::Null,
        })
    }

    fn call(
        &mut self,
        c: &Call,
        is_action: bool,
        parent: Option<(&str, &str)>,
        index: Option<usize>,
    ) -> Result<Value, ExpressError> {
        if c.name == "_template" {
            if c.args.len() < 2 {
                return Err(self.e(
                    ExpressErrorKind::Parse,
                    "_template helper requires exactly 2 arguments: path and templateComponent.",
                ));
            }
            let pv = self.value(&c.args[0], is_action, None, None)?;
            let Some(path) = binding_path(&pv).map(str::to_owned) else {
                return Err(self.e(
                    ExpressErrorKind::Parse,
                    "The first argument to _template must be a dynamic data binding path (prefixed by $)",
                ));
            };
            let comp = self.value(&c.args[1], is_action, None, None)?;
            return Ok(json!({"path": path, "componentId": comp}));
        }
        if c.name == "Event" {
            let name = match c.args.first() {
                Some(a) => self.value(a, is_action, None, None)?,
                None => Value::String(String::new()),
            };
            let raw_ctx = match c.args.get(1) {
                Some(a) => self.value(a, is_action, None, None)?,
                None => Value::Object(Map::new()),
            };
            let mut ctx = Map::new();
            match raw_ctx {
                Value::Object(o) => ctx.extend(o),
                Value::Array(items) => {
                    for it in items {
                        if let Value::Object(o) = it {
                            ctx.extend(o);
                        }
                    }
                }
                _ => {}
            }
            let mut ev = Map::new();
            ev.insert("name".into(), name);
            if !ctx.is_empty() || c.args.len() > 1 {
                ev.insert("context".into(), Value::Object(ctx));
            }
            return Ok(json!({"event": ev}));
        }
        if self.defines_component(c) {
            let inline_id = match (parent, index) {
                (Some((pid, prop)), Some(i)) => format!("{pid}_{prop}_{i}"),
                (Some((pid, prop)), None) => format!("{pid}_{prop}"),
                _ => {
                    self.inline_counter += 1;
                    format!("_inline_{}", self.inline_counter)
                }
            };
            let prev = std::mem::take(&mut self.extra);
            let compiled = self.component(&inline_id, &Expr::Call(c.clone()))?;
            let child_extra = std::mem::replace(&mut self.extra, prev);
            if let Some(comp) = compiled {
                let id = comp.get("id").cloned().unwrap_or(Value::String(inline_id));
                self.extra.push(comp);
                self.extra.extend(child_extra);
                return Ok(id);
            }
            return Ok(Value::String(inline_id));
        }
        let write_cat = self.catalog_override(c, || format!("Call '{}'", c.name))?;
        let cat: &'a ExpressCatalog = self.cat;
        let Some(sig) = cat.functions.get(&c.name) else {
            return Err(self.e(
                ExpressErrorKind::Validation,
                format!(
                    "Unknown function '{}' not defined in catalog '{}'.",
                    c.name, self.cat.catalog_id
                ),
            ));
        };
        let params = &sig.params;
        let mut args = Map::new();
        for (i, a) in c.args.iter().enumerate() {
            let Some(p) = params.get(i) else { continue };
            if matches!(a, Expr::Skip) {
                continue;
            }
            let v = self.value(a, is_action, None, None)?;
            if !v.is_null() {
                args.insert(p.clone(), v);
            }
        }
        for (k, a) in &c.kwargs {
            if k == "catalogId" {
                continue;
            }
            if !params.contains(k) {
                let mut valid = params.clone();
                valid.sort();
                return Err(self.e(
                    ExpressErrorKind::InvalidParam,
                    format!(
                        "Argument '{k}' is not a valid parameter of function '{}'. Function '{}' accepts parameters: {}.",
                        c.name,
                        c.name,
                        valid.join(", ")
                    ),
                ));
            }
            if args.contains_key(k) {
                return Err(self.e(
                    ExpressErrorKind::DuplicateParam,
                    format!(
                        "Argument '{k}' of function '{}' was provided multiple times.",
                        c.name
                    ),
                ));
            }
            if matches!(a, Expr::Skip) {
                continue;
            }
            let v = self.value(a, is_action, None, None)?;
            if !v.is_null() {
                args.insert(k.clone(), v);
            }
        }
        let mut res = Map::new();
        res.insert(self.call_key().into(), Value::String(c.name.clone()));
        if let Some(id) = write_cat {
            res.insert("catalogId".into(), Value::String(id));
        }
        res.insert("args".into(), Value::Object(args));
        if is_action {
            return Ok(json!({"functionCall": res}));
        }
        Ok(Value::Object(res))
    }
}
