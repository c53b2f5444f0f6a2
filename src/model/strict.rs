//! Catalog resolution of function calls (v1.0) and the store's strict mode
//! ([`SurfaceStore::set_strict`](super::SurfaceStore::set_strict)): the checks the official
//! conformance suites pin for `updateComponents`.
//!
//! From v1.0 a call runs in the catalog its own `catalogId` names, else in the surface
//! default catalog, else it fails; a nested call resolves its own catalog (it does not
//! inherit its caller's). That holds in every mode. Strict mode adds: a component type
//! must be one its catalog defines, a function one its catalog declares, and a system
//! function (`@...`) one that exists.

use serde_json::Value;

use std::collections::HashMap;

use super::{Catalogs, Component, PropKind, PropMap, PropRef, Surface};
use crate::error::A2uiError;
use crate::protocol::Version;

/// How deep a message may nest in strict mode
/// ([`SurfaceStore::set_strict`](super::SurfaceStore::set_strict)): 50 levels of objects and arrays, the message
/// object being the first. It is the "global recursion limit" of the official
/// conformance suites (`message_processor_v1_0.yaml`) and of the reference validators
/// (Python, Kotlin, TypeScript, C++ SDKs: `MAX_GLOBAL_DEPTH = 50`). The lenient default
/// keeps [`Limits::max_json_depth`](crate::limits::Limits::max_json_depth) (100, on the bytes).
pub const STRICT_MAX_NESTING: usize = 50;

/// Strict mode: the message nests at most [`STRICT_MAX_NESTING`] levels.
pub(crate) fn check_nesting(message: &Value) -> Result<(), A2uiError> {
    // Stops one level past the limit, so the recursion is bounded by it.
    fn depth(v: &Value, limit: usize) -> usize {
        let children: Box<dyn Iterator<Item = &Value>> = match v {
            Value::Array(a) => Box::new(a.iter()),
            Value::Object(o) => Box::new(o.values()),
            _ => return 0,
        };
        if limit == 0 {
            return 1;
        }
        1 + children.map(|c| depth(c, limit - 1)).max().unwrap_or(0)
    }
    let d = depth(message, STRICT_MAX_NESTING);
    if d > STRICT_MAX_NESTING {
        return Err(A2uiError::LimitExceeded {
            what: "STRICT_MAX_NESTING",
            limit: STRICT_MAX_NESTING,
            actual: d,
        });
    }
    Ok(())
}

/// The system functions of v1.0.
const SYSTEM_FUNCTIONS: &[&str] = &["@index"];

/// Check every function call in a v1.0 component's (normalised) properties: each names a
/// catalog the renderer has, or the surface has a default. `at` is the JSON pointer of
/// the component in its message.
pub(crate) fn check_calls(
    props: PropMap<'_>,
    default: Option<&str>,
    known: &Catalogs,
    strict: bool,
    at: &str,
) -> Result<(), A2uiError> {
    for (k, v) in props.iter() {
        // Most properties hold no call: look before making a path for them.
        if has_call(v, 0) {
            let path = format!("{at}/{}", crate::protocol::escape_pointer(k));
            check_value(&v.to_value(), default, known, strict, &path, 0)?;
        }
    }
    Ok(())
}

/// Whether a stored value holds a function call (an object with a `call` key, outside
/// ChildList templates) at any depth.
fn has_call(v: PropRef<'_>, depth: usize) -> bool {
    if depth > 256 {
        return false;
    }
    match v.kind() {
        PropKind::Array(items) => items.iter().any(|x| has_call(x, depth + 1)),
        PropKind::Object(o) if o.contains_key("componentId") => false,
        PropKind::Object(o) => o.contains_key("call") || o.values().any(|x| has_call(x, depth + 1)),
        _ => false,
    }
}

/// Check the catalog resolution of the calls in one v1.0 dynamic value (in the bare
/// vocabulary: `{"call", "catalogId"?, "args"}`), as [`SurfaceStore`](super::SurfaceStore)
/// does for each component: each call names a catalog the renderer has, or `default` is
/// the surface default; with `strict`, each function is one its catalog declares.
pub fn check_call_catalogs(
    value: &Value,
    default: Option<&str>,
    known: &Catalogs,
    strict: bool,
) -> Result<(), A2uiError> {
    check_value(value, default, known, strict, "", 0)
}

pub(crate) fn check_value(
    v: &Value,
    default: Option<&str>,
    known: &Catalogs,
    strict: bool,
    at: &str,
    depth: usize,
) -> Result<(), A2uiError> {
    // The message's nesting is bounded by `Limits::max_json_depth` before parsing; this
    // guard only keeps a hand-built value from recursing without end.
    if depth > 256 {
        return Ok(());
    }
    match v {
        Value::Array(items) => {
            for (i, x) in items.iter().enumerate() {
                check_value(x, default, known, strict, &format!("{at}/{i}"), depth + 1)?;
            }
            Ok(())
        }
        Value::Object(o) if o.contains_key("componentId") => Ok(()),
        Value::Object(o) => {
            if let Some(Value::String(name)) = o.get("call") {
                check_call(name, o.get("catalogId"), default, known, strict, at)?;
            }
            for (k, x) in o {
                if k == "call" || k == "catalogId" {
                    continue;
                }
                let path = format!("{at}/{}", crate::protocol::escape_pointer(k));
                check_value(x, default, known, strict, &path, depth + 1)?;
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

fn check_call(
    name: &str,
    catalog_id: Option<&Value>,
    default: Option<&str>,
    known: &Catalogs,
    strict: bool,
    at: &str,
) -> Result<(), A2uiError> {
    if name.starts_with('@') {
        if strict && !SYSTEM_FUNCTIONS.contains(&name) {
            return Err(A2uiError::validation(
                at,
                format!("undefined system function {name:?}"),
            ));
        }
        return Ok(());
    }
    let id = match catalog_id {
        Some(Value::String(id)) => id.as_str(),
        Some(other) => {
            return Err(A2uiError::validation(
                format!("{at}/catalogId"),
                format!("the catalogId of a call to {name:?} must be a string, not {other}"),
            ));
        }
        None => default.ok_or_else(|| {
            A2uiError::validation(
                format!("{at}/catalogId"),
                format!(
                    "the call to {name:?} names no catalogId and the surface has no default catalogId"
                ),
            )
        })?,
    };
    let Some(info) = known.get(id) else {
        return Err(A2uiError::CatalogNotFound(id.to_owned()));
    };
    if !info.serves(Version::V1_0) {
        return Err(A2uiError::validation(
            format!("{at}/catalogId"),
            format!(
                "the call to {name:?} names catalog {id:?}, a {} catalog, on a v1.0 surface",
                info.versions
            ),
        ));
    }
    if strict
        && let Some(declared) = &info.functions
        && !declared.iter().any(|f| f == name)
    {
        return Err(A2uiError::validation(
            at,
            format!("Unrecognized function '{name}' in catalog {id:?}"),
        ));
    }
    Ok(())
}

/// Strict mode: the component type must be one the catalog defines.
pub(crate) fn check_type(
    catalog_id: Option<&str>,
    component: &str,
    known: &Catalogs,
    at: &str,
) -> Result<(), A2uiError> {
    let Some(id) = catalog_id else {
        return Ok(());
    };
    match known.get(id) {
        Some(info) if !info.has_component(component) => Err(A2uiError::validation(
            format!("{at}/component"),
            format!("component type '{component}' is not in catalog {id:?}"),
        )),
        _ => Ok(()),
    }
}

/// The child ids a component names, without data: `child`, `trigger`, `content`, a
/// `children` list or template `componentId`, and `tabs[].child`.
fn static_children(c: &Component) -> Vec<&str> {
    let mut out = Vec::new();
    for slot in ["child", "trigger", "content", "children", "tabs"] {
        let Some(v) = c.prop(slot) else { continue };
        match v.kind() {
            PropKind::String(id) => out.push(id),
            PropKind::Array(items) => {
                for it in items {
                    match it.kind() {
                        PropKind::String(id) => out.push(id),
                        PropKind::Object(o) => {
                            if let Some(id) = o.get("child").and_then(PropRef::as_str) {
                                out.push(id);
                            }
                        }
                        _ => {}
                    }
                }
            }
            PropKind::Object(o) => {
                if let Some(id) = o.get("componentId").and_then(PropRef::as_str) {
                    out.push(id);
                }
            }
            _ => {}
        }
    }
    out
}

/// Strict mode: after an `updateComponents`, the surface's components form one tree from
/// the root: the root exists, every child reference resolves, nothing is its own
/// ancestor, and every component is reachable from the root.
pub(crate) fn check_topology(surface: &Surface) -> Result<(), A2uiError> {
    let at = "/updateComponents/components";
    let root = surface.root_id.as_str();
    if !surface.components().contains_key(root) {
        return Err(A2uiError::validation(
            at,
            format!("Missing root component: no component has the id {root:?}"),
        ));
    }
    for (id, c) in surface.components().iter() {
        for child in static_children(c) {
            if !surface.components().contains_key(child) {
                return Err(A2uiError::validation(
                    at,
                    format!("Dangling reference: {id:?} refers to {child:?}, which does not exist"),
                ));
            }
        }
    }
    // Iterative depth-first walk: 1 = on the current path, 2 = done.
    let mut state: HashMap<&str, u8> = HashMap::new();
    let mut stack: Vec<(&str, usize)> = vec![(root, 0)];
    state.insert(root, 1);
    while let Some((id, next)) = stack.pop() {
        let children = surface
            .components()
            .get(id)
            .map(|c| static_children(c))
            .unwrap_or_default();
        if let Some(child) = children.get(next).copied() {
            stack.push((id, next + 1));
            match state.get(child) {
                Some(1) => return Err(A2uiError::Cycle(child.to_owned())),
                Some(_) => {}
                None => {
                    state.insert(child, 1);
                    stack.push((child, 0));
                }
            }
        } else {
            state.insert(id, 2);
        }
    }
    if let Some(orphan) = surface.components().keys().find(|k| !state.contains_key(k)) {
        return Err(A2uiError::validation(
            at,
            format!("Orphaned component: {orphan:?} is not reachable from the root {root:?}"),
        ));
    }
    Ok(())
}

/// v1.0 catalog definitions name components, their properties, functions and function
/// arguments with UAX #31 identifiers (`conformance/core/catalog.yaml`): `My-Component`,
/// an en dash or an Armenian hyphen are refused.
pub(crate) fn check_definition_names(doc: &Value) -> Result<(), A2uiError> {
    // Older catalogs allowed hyphens (`catalog.yaml`, `..._v09_..._allows_hyphen_...`).
    if doc
        .get("protocolVersion")
        .and_then(Value::as_str)
        .is_some_and(|v| v.trim_start_matches('v').starts_with('0'))
    {
        return Ok(());
    }
    let ident = crate::protocol::ident::is_identifier;
    let bad = |what: &str, path: String, name: &str| {
        Err(A2uiError::validation(
            path,
            format!("Invalid UAX #31 {what} identifier {name:?}"),
        ))
    };
    let props_of = |schema: &Value| -> Vec<String> {
        let mut out = Vec::new();
        let mut push = |s: &Value| {
            if let Some(Value::Object(p)) = s.get("properties") {
                out.extend(p.keys().cloned());
            }
        };
        push(schema);
        if let Some(Value::Array(parts)) = schema.get("allOf") {
            parts.iter().for_each(&mut push);
        }
        out
    };
    if let Some(Value::Object(components)) = doc.get("components") {
        for (name, schema) in components {
            if !ident(name) {
                return bad("component", format!("/components/{name}"), name);
            }
            for p in props_of(schema) {
                if !ident(&p) {
                    return bad("property", format!("/components/{name}/properties/{p}"), &p);
                }
            }
        }
    }
    if let Some(Value::Object(functions)) = doc.get("functions") {
        for (name, def) in functions {
            // System functions keep their `@` (`@index`).
            if !ident(name.strip_prefix('@').unwrap_or(name)) {
                return bad("function", format!("/functions/{name}"), name);
            }
            let args = def
                .pointer("/properties/args/properties")
                .or_else(|| def.pointer("/parameters/properties"))
                .or_else(|| def.get("parameters").filter(|p| p.get("type").is_none()));
            if let Some(Value::Object(args)) = args {
                for a in args.keys() {
                    if !ident(a) {
                        return bad("argument", format!("/functions/{name}/args/{a}"), a);
                    }
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn nested(levels: usize) -> Value {
        let mut v = json!("leaf");
        for _ in 0..levels {
            v = json!({ "n": v });
        }
        v
    }

    #[test]
    fn a_message_may_nest_fifty_levels_in_strict_mode_and_no_more() {
        assert_eq!(check_nesting(&nested(STRICT_MAX_NESTING)), Ok(()));
        match check_nesting(&nested(STRICT_MAX_NESTING + 1)) {
            Err(A2uiError::LimitExceeded { limit, actual, .. }) => {
                assert_eq!((limit, actual), (50, 51));
            }
            other => panic!("expected the nesting limit, got {other:?}"),
        }
        // Far deeper values stop at the limit, without recursing through them.
        assert!(check_nesting(&nested(1_000)).is_err());
    }
}
