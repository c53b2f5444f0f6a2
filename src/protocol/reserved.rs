//! v1.0 `@`-prefixed reserved keys, read alongside the bare forms.
//!
//! The v1.0 work after the August 2026 schema snapshot spells dynamic values
//! `{"@path": ...}` and `{"@call": ..., "args": ...}`, and the component-level keys
//! `@catalogId`, `@accessibility`, `@checks`, `@metadata` (the v1.0 evolution guide and the
//! data-binding page on a2ui.org; the reference core `a2ui-core` 0.4.0 reads `@path`/`@call`;
//! the agent SDK `a2ui_agent` 0.4.0 emits the `@` forms and reads both). A key that starts
//! with `@@` is an escaped literal key: one `@` is dropped (`@@type` means the literal key
//! `@type`), as `a2ui-core` does when it resolves a literal object.
//!
//! This crate normalises a v1.0 component to the bare vocabulary once, at parse time, so
//! the evaluator and the renderers read one form. Only v1.0 messages go through here: in
//! v0.8 and v0.9 an `@path` key is an ordinary key of a literal object, as in the reference.
//! ChildList templates (`{"componentId", "path"}`) keep their bare `path` in every version
//! and are left as they are.

use serde_json::{Map, Value};

use crate::error::A2uiError;
use crate::stored::Props;

/// Component-level reserved keys: the `@` spelling and the bare key it stands for.
pub const COMPONENT_KEYS: &[(&str, &str)] = &[
    ("@catalogId", "catalogId"),
    ("@accessibility", "accessibility"),
    ("@checks", "checks"),
    ("@metadata", "metadata"),
];

/// Rewrite a v1.0 dynamic value into the bare vocabulary, at any depth: `{"@path": p}` →
/// `{"path": p}`, `{"@call": f, ...}` → `{"call": f, ...}` (the `@` form wins when both are
/// present), `@@key` → `@key`. Objects naming a `componentId` (ChildList templates and
/// child references) are returned as they are.
pub fn normalize_value(value: Value) -> Value {
    match value {
        Value::Array(items) => Value::Array(items.into_iter().map(normalize_value).collect()),
        Value::Object(obj) => Value::Object(normalize_object(obj)),
        other => other,
    }
}

fn normalize_object(obj: Map<String, Value>) -> Map<String, Value> {
    if obj.contains_key("componentId") {
        return obj;
    }
    let at_path = obj.get("@path").is_some_and(Value::is_string);
    let at_call = obj.get("@call").is_some_and(Value::is_string);
    let mut out = Map::with_capacity(obj.len());
    for (k, v) in obj {
        let key = match k.as_str() {
            "@path" if at_path => "path".to_owned(),
            "@call" if at_call => "call".to_owned(),
            // The `@` spelling wins over a bare key of the same meaning.
            "path" if at_path => continue,
            "call" if at_call => continue,
            _ if k.starts_with("@@") => k[1..].to_owned(),
            _ => k,
        };
        out.insert(key, normalize_value(v));
    }
    out
}

/// Whether a key is reserved (`^@([^@]|$)`: one `@`, not the `@@` escape).
fn is_reserved(key: &str) -> bool {
    key.starts_with('@') && !key.starts_with("@@")
}

/// The `@` keys a dynamic value may carry (`conformance/core/reserved_keys.yaml`).
const VALUE_KEYS: &[&str] = &["@path", "@call", "@catalogId"];

/// v1.0 reserved-key rules for one component's properties (before [`normalize_component_props`]):
/// a key of the form `^@([^@]|$)` is either one the protocol defines (the component-level
/// [`COMPONENT_KEYS`], `@path` / `@call` in a value) or an error; literal data spells such
/// a key `@@...`. `at` is the component's JSON pointer in its message.
pub fn check_reserved_keys(props: &Props, at: &str) -> Result<(), A2uiError> {
    for (k, v) in props.iter() {
        let path = format!("{at}/{}", crate::protocol::escape_pointer(k));
        if is_reserved(k) && !COMPONENT_KEYS.iter().any(|(at_key, _)| *at_key == k) {
            return Err(reserved_error(&path, k));
        }
        check_value_keys(v, &path, 0)?;
    }
    Ok(())
}

fn reserved_error(path: &str, key: &str) -> A2uiError {
    A2uiError::validation(
        path,
        format!(
            "INVALID_RESERVED_KEY: {key:?} is a reserved key the protocol does not define; \
             a literal key starting with @ is written @@"
        ),
    )
}

fn check_value_keys(v: &Value, at: &str, depth: usize) -> Result<(), A2uiError> {
    // Nesting is bounded by `Limits::max_json_depth` before parsing; this only guards a
    // hand-built value.
    if depth > 256 {
        return Ok(());
    }
    match v {
        Value::Array(items) => {
            for (i, x) in items.iter().enumerate() {
                check_value_keys(x, &format!("{at}/{i}"), depth + 1)?;
            }
            Ok(())
        }
        Value::Object(obj) => {
            for (k, x) in obj {
                let path = format!("{at}/{}", crate::protocol::escape_pointer(k));
                if is_reserved(k) && !VALUE_KEYS.contains(&k.as_str()) {
                    return Err(reserved_error(&path, k));
                }
                check_value_keys(x, &path, depth + 1)?;
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// Does this v1.0 value use any `@` spelling that [`normalize_value`] rewrites?
pub fn uses_at_forms(value: &Value) -> bool {
    match value {
        Value::Array(items) => items.iter().any(uses_at_forms),
        Value::Object(obj) if obj.contains_key("componentId") => false,
        Value::Object(obj) => {
            obj.get("@path").is_some_and(Value::is_string)
                || obj.get("@call").is_some_and(Value::is_string)
                || obj.keys().any(|k| k.starts_with("@@"))
                || obj.values().any(uses_at_forms)
        }
        _ => false,
    }
}

/// Normalise the properties of one v1.0 component in place (`id`, `component` and the
/// catalog id already taken out): the component-level `@` keys become their bare keys (the
/// `@` spelling wins when both are sent), and every property value goes through
/// [`normalize_value`]. Returns the wire spelling of each renamed component-level key, as
/// `(wire, bare)` pairs, empty when the component used none.
pub fn normalize_component_props(props: &mut Props) -> Vec<(&'static str, &'static str)> {
    let mut renamed = Vec::new();
    for &(at, bare) in COMPONENT_KEYS {
        if bare == "catalogId" {
            continue;
        }
        if let Some(v) = props.remove(at) {
            props.remove(bare);
            props.insert(bare, v);
            renamed.push((at, bare));
        }
    }
    for v in props.values_mut() {
        if uses_at_forms(v) {
            *v = normalize_value(std::mem::take(v));
        }
    }
    renamed
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn at_bindings_and_calls_become_bare_at_any_depth() {
        let v = json!({"@call": "formatString", "args": {
            "value": {"@call": "formatNumber", "args": {"value": {"@path": "/n"}}},
            "list": [{"@path": "a"}, 1]
        }});
        assert_eq!(
            normalize_value(v),
            json!({"call": "formatString", "args": {
                "value": {"call": "formatNumber", "args": {"value": {"path": "/n"}}},
                "list": [{"path": "a"}, 1]
            }})
        );
    }

    #[test]
    fn the_at_form_wins_and_escapes_drop_one_at() {
        assert_eq!(
            normalize_value(json!({"@path": "/a", "path": "/b"})),
            json!({"path": "/a"})
        );
        assert_eq!(
            normalize_value(json!({"@@type": "card", "@@@x": 1})),
            json!({"@type": "card", "@@x": 1})
        );
        // Not a binding: the reserved key must hold a string.
        assert_eq!(normalize_value(json!({"@path": 5})), json!({"@path": 5}));
    }

    #[test]
    fn templates_and_child_references_are_left_alone() {
        let t = json!({"componentId": "row", "path": "/items", "@path": "/x"});
        assert_eq!(normalize_value(t.clone()), t);
        assert!(!uses_at_forms(&t));
    }

    #[test]
    fn component_keys_are_renamed_and_reported() {
        let mut props = json!({
            "@accessibility": {"label": {"@path": "/l"}},
            "accessibility": {"label": "bare loses"},
            "@checks": [{"condition": {"@call": "required", "args": {"value": {"@path": "/v"}}}, "message": "m"}],
            "text": "t"
        })
        .as_object()
        .cloned()
        .map(Props::from)
        .unwrap_or_default();
        let renamed = normalize_component_props(&mut props);
        assert_eq!(
            renamed,
            [("@accessibility", "accessibility"), ("@checks", "checks")]
        );
        assert_eq!(props["accessibility"], json!({"label": {"path": "/l"}}));
        assert_eq!(
            props["checks"][0]["condition"],
            json!({"call": "required", "args": {"value": {"path": "/v"}}})
        );
        assert!(!props.contains_key("@checks"));
    }
}
