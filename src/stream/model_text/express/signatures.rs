//! Positional signatures read from catalog definitions, the way the reference SDK's
//! schema helper reads them: a component's properties in schema order (its own
//! definition before common mixins such as `CatalogComponentCommon`, local `$defs`
//! inlined, `component`/`id`/`catalogId` left out, `checks` last when it is
//! `Checkable`), a function's `args` properties in order.

use serde_json::{Map, Value};

/// One component's signature.
#[derive(Clone, Debug, Default)]
pub(crate) struct ComponentSig {
    /// Positional order.
    pub(crate) props: Vec<String>,
    /// Required properties.
    pub(crate) required: Vec<String>,
    /// Per property: its schema (local refs inlined).
    pub(crate) schemas: Map<String, Value>,
    /// The properties whose schema holds component references ([`holds_children`]),
    /// read once with the catalog rather than per component compiled.
    pub(crate) child_props: Vec<String>,
    /// Per property: what the compiler asks of its schema, read once with the catalog.
    pub(crate) traits: std::collections::HashMap<String, PropTraits, foldhash::fast::RandomState>,
}

/// What the compiler asks of one property's schema (see [`ComponentSig::traits`]).
#[derive(Clone, Debug, Default)]
pub(crate) struct PropTraits {
    /// [`allows_binding`].
    pub(crate) binding: bool,
    /// [`expects_options`].
    pub(crate) options: bool,
    /// [`find_enum`], when not empty.
    pub(crate) choices: Option<Vec<Value>>,
}

impl ComponentSig {
    /// Whether property `prop` holds component references.
    pub(crate) fn holds_children(&self, prop: &str) -> bool {
        self.child_props.iter().any(|p| p == prop)
    }

    /// Fill `child_props` and `traits` from `schemas`.
    fn read_traits(&mut self) {
        self.child_props = self
            .schemas
            .iter()
            .filter(|(_, s)| holds_children(s))
            .map(|(k, _)| k.clone())
            .collect();
        self.traits = self
            .schemas
            .iter()
            .map(|(k, s)| {
                let t = PropTraits {
                    binding: allows_binding(s),
                    options: expects_options(s),
                    choices: find_enum(s).filter(|e| !e.is_empty()).cloned(),
                };
                (k.clone(), t)
            })
            .collect();
    }
}

/// One function's signature.
#[derive(Clone, Debug, Default)]
pub(crate) struct FunctionSig {
    /// Parameters in order.
    pub(crate) params: Vec<String>,
    /// Per parameter: its schema.
    pub(crate) schemas: Map<String, Value>,
}

/// Inline `#/$defs/...` references of `node` from `defs` (bounded depth, no cycles).
fn inline_local(node: &Value, defs: &Map<String, Value>, depth: usize) -> Value {
    if depth > 24 {
        return node.clone();
    }
    match node {
        Value::Object(o) => {
            if let Some(Value::String(r)) = o.get("$ref")
                && let Some(name) = r.strip_prefix("#/$defs/")
                && let Some(target) = defs.get(name)
            {
                let mut merged = match inline_local(target, defs, depth + 1) {
                    Value::Object(t) => t,
                    other => return other,
                };
                for (k, v) in o {
                    if k != "$ref" {
                        merged.insert(k.clone(), inline_local(v, defs, depth + 1));
                    }
                }
                return Value::Object(merged);
            }
            Value::Object(
                o.iter()
                    .map(|(k, v)| (k.clone(), inline_local(v, defs, depth + 1)))
                    .collect(),
            )
        }
        Value::Array(a) => {
            Value::Array(a.iter().map(|v| inline_local(v, defs, depth + 1)).collect())
        }
        other => other.clone(),
    }
}

/// The component's sub-schemas, the specific definition (with `properties.component`)
/// before the common mixins.
fn ordered_sub_schemas(schema: &Value) -> Vec<&Map<String, Value>> {
    fn visit<'a>(
        node: &'a Value,
        root: bool,
        specific: &mut Vec<&'a Map<String, Value>>,
        common: &mut Vec<&'a Map<String, Value>>,
        depth: usize,
    ) {
        let Value::Object(o) = node else { return };
        if depth > 24 {
            return;
        }
        let props = o.get("properties").and_then(Value::as_object);
        if props.is_some_and(|p| p.contains_key("component")) {
            specific.push(o);
        } else if !root || props.is_some() || o.contains_key("required") || o.contains_key("$ref") {
            common.push(o);
        }
        if let Some(Value::Array(all)) = o.get("allOf") {
            for s in all {
                visit(s, false, specific, common, depth + 1);
            }
        }
    }
    let (mut specific, mut common) = (Vec::new(), Vec::new());
    visit(schema, true, &mut specific, &mut common, 0);
    specific.extend(common);
    specific
}

/// The signature of a component schema (already inlined).
fn component_sig(schema: &Value) -> ComponentSig {
    let mut sig = ComponentSig::default();
    let mut checkable = false;
    for sub in ordered_sub_schemas(schema) {
        if let Some(Value::String(r)) = sub.get("$ref")
            && r.contains("Checkable")
        {
            checkable = true;
        }
        if let Some(Value::Object(props)) = sub.get("properties") {
            for (k, v) in props {
                if !sig.schemas.contains_key(k) {
                    sig.schemas.insert(k.clone(), v.clone());
                }
            }
        }
        if let Some(Value::Array(req)) = sub.get("required") {
            for r in req.iter().filter_map(Value::as_str) {
                if !sig.required.iter().any(|x| x == r) {
                    sig.required.push(r.to_owned());
                }
            }
        }
    }
    sig.props = sig
        .schemas
        .keys()
        .filter(|k| !matches!(k.as_str(), "component" | "id" | "catalogId"))
        .cloned()
        .collect();
    if checkable {
        sig.props.push("checks".to_owned());
    }
    sig.read_traits();
    sig
}

fn function_sig(schema: &Value) -> FunctionSig {
    let mut sig = FunctionSig::default();
    let mut subs = vec![schema];
    if let Some(Value::Array(all)) = schema.get("allOf") {
        subs.extend(all.iter());
    }
    for sub in subs {
        if let Some(Value::Object(props)) = sub
            .get("properties")
            .and_then(|p| p.get("args"))
            .and_then(|a| a.get("properties"))
        {
            for (k, v) in props {
                sig.schemas.insert(k.clone(), v.clone());
            }
        }
    }
    sig.params = sig.schemas.keys().cloned().collect();
    sig
}

/// A definition's signatures: components, then functions, in document order.
pub(crate) type Definition = (Vec<(String, ComponentSig)>, Vec<(String, FunctionSig)>);

/// The components and functions of one catalog definition document.
pub(crate) fn read_definition(doc: &Value) -> Definition {
    let defs = doc
        .get("$defs")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let comps = doc
        .get("components")
        .and_then(Value::as_object)
        .map(|c| {
            c.iter()
                .map(|(n, s)| (n.clone(), component_sig(&inline_local(s, &defs, 0))))
                .collect()
        })
        .unwrap_or_default();
    let fns = match doc.get("functions") {
        Some(Value::Object(f)) => f
            .iter()
            .map(|(n, s)| (n.clone(), function_sig(&inline_local(s, &defs, 0))))
            .collect(),
        // A list of function definitions, each naming itself.
        Some(Value::Array(list)) => list
            .iter()
            .filter_map(|s| {
                let name = s.get("name")?.as_str()?.to_owned();
                Some((name, function_sig(&inline_local(s, &defs, 0))))
            })
            .collect(),
        _ => Vec::new(),
    };
    (comps, fns)
}

/// The first `enum` of a schema or its combinators.
pub(crate) fn find_enum(s: &Value) -> Option<&Vec<Value>> {
    let o = s.as_object()?;
    if let Some(Value::Array(e)) = o.get("enum") {
        return Some(e);
    }
    for k in ["oneOf", "anyOf", "allOf"] {
        if let Some(Value::Array(subs)) = o.get(k) {
            for sub in subs {
                if let Some(e) = find_enum(sub)
                    && !e.is_empty()
                {
                    return Some(e);
                }
            }
        }
    }
    None
}

/// Whether a property schema admits a data binding.
pub(crate) fn allows_binding(s: &Value) -> bool {
    fn go(s: &Value, depth: usize) -> bool {
        let Value::Object(o) = s else { return false };
        if depth > 24 {
            return false;
        }
        if let Some(Value::String(r)) = o.get("$ref")
            && (r.contains("DataBinding") || r.contains("Dynamic"))
        {
            return true;
        }
        if let Some(Value::Object(p)) = o.get("properties")
            && (p.contains_key("path") || p.contains_key("@path"))
            && !p.contains_key("componentId")
        {
            return true;
        }
        if o.get("items").is_some_and(|i| go(i, depth + 1)) {
            return true;
        }
        ["allOf", "oneOf", "anyOf"].iter().any(|k| {
            o.get(*k)
                .and_then(Value::as_array)
                .is_some_and(|a| a.iter().any(|x| go(x, depth + 1)))
        })
    }
    go(s, 0)
}

/// Whether a property schema expects a list of `{label, value}` option objects.
pub(crate) fn expects_options(s: &Value) -> bool {
    fn label_value(s: &Value, depth: usize) -> bool {
        let Value::Object(o) = s else { return false };
        if depth > 24 {
            return false;
        }
        if let Some(Value::Object(p)) = o.get("properties")
            && p.contains_key("label")
            && p.contains_key("value")
        {
            return true;
        }
        ["allOf", "oneOf", "anyOf"].iter().any(|k| {
            o.get(*k)
                .and_then(Value::as_array)
                .is_some_and(|a| a.iter().any(|x| label_value(x, depth + 1)))
        })
    }
    fn go(s: &Value, depth: usize) -> bool {
        let Value::Object(o) = s else { return false };
        if depth > 24 {
            return false;
        }
        if let Some(items) = o.get("items") {
            return label_value(items, depth + 1);
        }
        ["allOf", "oneOf", "anyOf"].iter().any(|k| {
            o.get(*k)
                .and_then(Value::as_array)
                .is_some_and(|a| a.iter().any(|x| go(x, depth + 1)))
        })
    }
    go(s, 0)
}

/// Whether a property schema holds component references (`ComponentId`, `Child`,
/// `ChildList` anywhere inside): an undefined variable there is a child not written yet.
pub(crate) fn holds_children(s: &Value) -> bool {
    fn go(s: &Value, depth: usize) -> bool {
        if depth > 24 {
            return false;
        }
        match s {
            Value::Object(o) => o.iter().any(|(k, v)| {
                (k == "$ref"
                    && v.as_str().is_some_and(|r| {
                        r.contains("ComponentId")
                            || r.contains("ChildList")
                            || r.ends_with("/Child")
                    }))
                    || go(v, depth + 1)
            }),
            Value::Array(a) => a.iter().any(|x| go(x, depth + 1)),
            _ => false,
        }
    }
    go(s, 0)
}
