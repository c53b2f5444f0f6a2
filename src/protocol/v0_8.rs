//! v0.8 wire messages (no `version` key): `beginRendering`, `surfaceUpdate`,
//! `dataModelUpdate`, `deleteSurface`.
//!
//! Components are normalised into the v0.9 vocabulary ([evolution guide]): the `{Type: props}`
//! wrapper is unwrapped, BoundValues become literals or `{path}` bindings,
//! `explicitList`/`template` become ChildLists, and renamed properties take their v0.9
//! names. The conformance dump's wire form is derived from the normalised props on demand
//! ([`super::v0_8_wire`]); only a component in an unusual shape keeps its props as sent
//! beside them.
//!
//! [evolution guide]: https://github.com/a2ui-project/a2ui/blob/main/specification/v0_9/docs/evolution_guide.md

use serde_json::{Map, Value};

use super::v0_8_wire::Wire;
use super::{
    ComponentDef, CreateSurface, DataWrite, Message, STANDARD_CATALOG_V0_8, escape_pointer,
    only_keys, opt_str, req_obj, req_str, single_message_type,
};
use crate::error::A2uiError;
use crate::stored::{IntoPropName, PropName, Props};

const TYPES: &[&str] = &[
    "beginRendering",
    "surfaceUpdate",
    "dataModelUpdate",
    "deleteSurface",
];

/// Parse a v0.8 message taken by value: the components of a `surfaceUpdate` move into the
/// result (their wire properties are kept as sent, not copied). Same result as [`parse`].
pub fn parse_owned(mut obj: Map<String, Value>) -> Result<Message, A2uiError> {
    let kind = single_message_type(&obj, TYPES, &[], |k| {
        format!("unknown message type {k:?} (a message without version is v0.8)")
    })?;
    if kind == "dataModelUpdate" {
        let body = obj.shift_remove("dataModelUpdate").unwrap_or(Value::Null);
        return data_model_update(body);
    }
    if kind != "surfaceUpdate" {
        return parse(&obj);
    }
    let base = "/surfaceUpdate";
    let body = req_obj(&obj, kind, "")?;
    only_keys(body, &["surfaceId", "components"], base)?;
    let surface_id = req_str(body, "surfaceId", base)?.to_owned();
    let path = "/surfaceUpdate/components";
    let list = match obj
        .shift_remove("surfaceUpdate")
        .and_then(|mut b| b.as_object_mut()?.shift_remove("components"))
    {
        Some(Value::Array(a)) if !a.is_empty() => a,
        Some(Value::Array(_)) => {
            return Err(A2uiError::validation(path, "components must not be empty"));
        }
        _ => return Err(A2uiError::validation(path, "components must be an array")),
    };
    let mut components = Vec::with_capacity(list.len());
    for (i, c) in list.into_iter().enumerate() {
        components.push(component(c, &|| format!("{path}/{i}"))?);
    }
    Ok(Message::UpdateComponents {
        surface_id,
        components,
    })
}

/// Parse a v0.8 message.
pub fn parse(obj: &Map<String, Value>) -> Result<Message, A2uiError> {
    let kind = single_message_type(obj, TYPES, &[], |k| {
        format!("unknown message type {k:?} (a message without version is v0.8)")
    })?;
    let base = format!("/{kind}");
    let body = req_obj(obj, kind, "")?;
    match kind {
        "beginRendering" => {
            only_keys(body, &["surfaceId", "root", "catalogId", "styles"], &base)?;
            let theme = match body.get("styles") {
                None => Map::new(),
                Some(Value::Object(s)) => s.clone(),
                Some(_) => {
                    return Err(A2uiError::validation(
                        format!("{base}/styles"),
                        "styles must be an object",
                    ));
                }
            };
            Ok(Message::CreateSurface(CreateSurface {
                surface_id: req_str(body, "surfaceId", &base)?.to_owned(),
                catalog_id: Some(
                    opt_str(body, "catalogId", &base)?
                        .unwrap_or(STANDARD_CATALOG_V0_8)
                        .to_owned(),
                ),
                theme,
                send_data_model: false,
                root_id: req_str(body, "root", &base)?.to_owned(),
                components: Vec::new(),
                data_model: None,
            }))
        }
        // One reading of a component list: the owned path's, on a copy (each component is
        // copied either way).
        "surfaceUpdate" => parse_owned(obj.clone()),
        "dataModelUpdate" => data_model_update(Value::Object(body.clone())),
        "deleteSurface" => {
            only_keys(body, &["surfaceId"], &base)?;
            Ok(Message::DeleteSurface {
                surface_id: req_str(body, "surfaceId", &base)?.to_owned(),
            })
        }
        _ => Err(A2uiError::validation(base, "unknown message type")),
    }
}

/// A v0.8 `dataModelUpdate` body, taken by value: the entries' values move into the writes.
pub(super) fn data_model_update(body: Value) -> Result<Message, A2uiError> {
    let base = "/dataModelUpdate";
    let Value::Object(mut body) = body else {
        return Err(A2uiError::validation(
            base,
            "dataModelUpdate must be an object",
        ));
    };
    only_keys(&body, &["surfaceId", "path", "contents"], base)?;
    let surface_id = req_str(&body, "surfaceId", base)?.to_owned();
    let base_path = base_path(opt_str(&body, "path", base)?);
    let cpath = "/dataModelUpdate/contents";
    let Some(Value::Array(contents)) = body.shift_remove("contents") else {
        return Err(A2uiError::validation(cpath, "contents must be an array"));
    };
    let mut writes = Vec::with_capacity(contents.len());
    for (i, entry) in contents.into_iter().enumerate() {
        let epath = || format!("{cpath}/{i}");
        let Value::Object(entry) = entry else {
            return Err(A2uiError::validation(epath(), "an entry must be an object"));
        };
        let path = match entry.get("key") {
            Some(Value::String(k)) => write_path(&base_path, k),
            _ => {
                req_str(&entry, "key", &epath())?;
                return Err(A2uiError::validation(epath(), "invalid entry"));
            }
        };
        writes.push(DataWrite {
            path,
            value: entry_value(entry, &epath, 0)?,
        });
    }
    Ok(Message::UpdateDataModel { surface_id, writes })
}

/// A `dataModelUpdate`'s `path` as the prefix of its entries' paths (`""` for the root).
pub(super) fn base_path(path: Option<&str>) -> String {
    match path {
        Some(p) => {
            let p = p.trim();
            if p.is_empty() || p == "/" {
                String::new()
            } else if p.starts_with('/') {
                p.trim_end_matches('/').to_owned()
            } else {
                format!("/{}", p.trim_end_matches('/'))
            }
        }
        None => String::new(),
    }
}

/// The path one `contents` entry writes: its `key` under the update's [`base_path`].
pub(super) fn write_path(base_path: &str, key: &str) -> String {
    let key = key.trim_start_matches('/');
    if key.is_empty() || key == "." {
        if base_path.is_empty() {
            "/".to_owned()
        } else {
            base_path.to_owned()
        }
    } else {
        let mut p = String::with_capacity(base_path.len() + 1 + key.len());
        p.push_str(base_path);
        p.push('/');
        p.push_str(key);
        p
    }
}

/// The value of one `contents` entry, taken by value; `valueMap` recurses (samples nest it
/// deeper than the schema allows, so any depth is accepted up to the JSON depth limit).
/// `path` names the entry in errors (built only on failure).
pub(super) fn entry_value(
    mut entry: Map<String, Value>,
    path: &dyn Fn() -> String,
    depth: usize,
) -> Result<Option<Value>, A2uiError> {
    if depth > 64 {
        return Err(A2uiError::validation(
            path(),
            "valueMap nested deeper than 64 levels",
        ));
    }
    for key in [
        "valueNumber",
        "valueString",
        "valueBoolean",
        "valueObject",
        "valueArray",
    ] {
        if let Some(v) = entry.swap_remove(key) {
            let ok = match key {
                "valueNumber" => v.is_number(),
                "valueString" => v.is_string(),
                "valueBoolean" => v.is_boolean(),
                _ => true,
            };
            if !ok {
                return Err(A2uiError::validation(
                    format!("{}/{key}", path()),
                    format!("{key} has the wrong type"),
                ));
            }
            return Ok(Some(v));
        }
    }
    if let Some(map) = entry.swap_remove("valueMap") {
        let Value::Array(items) = map else {
            return Err(A2uiError::validation(
                format!("{}/valueMap", path()),
                "valueMap must be an array",
            ));
        };
        let mut nested = Map::with_capacity(items.len());
        for (i, sub) in items.into_iter().enumerate() {
            let spath = || format!("{}/valueMap/{i}", path());
            if let Value::Object(mut sub) = sub
                && let Some(Value::String(k)) = sub.swap_remove("key")
            {
                let v = entry_value(sub, &spath, depth + 1)?;
                nested.insert(k, v.unwrap_or(Value::Null));
            }
        }
        return Ok(Some(Value::Object(nested)));
    }
    Ok(entry.swap_remove("value").filter(|v| !v.is_null()))
}

/// One component, taken by value (`base` names it in errors).
pub(crate) fn component(
    value: Value,
    base: &dyn Fn() -> String,
) -> Result<ComponentDef, A2uiError> {
    let Value::Object(obj) = value else {
        return Err(A2uiError::validation(
            base(),
            "a component must be an object",
        ));
    };
    let check = |base: &str| -> Result<(), A2uiError> {
        only_keys(&obj, &["id", "weight", "component"], base)?;
        req_str(&obj, "id", base)?;
        let wrapper = req_obj(&obj, "component", base)?;
        if wrapper.len() != 1 {
            return Err(A2uiError::validation(
                format!("{base}/component"),
                "component must have exactly one key, the type name",
            ));
        }
        if let Some((wire_type, props)) = wrapper.iter().next()
            && !props.is_object()
        {
            return Err(A2uiError::validation(
                format!("{base}/component/{}", escape_pointer(wire_type)),
                "component properties must be an object",
            ));
        }
        match obj.get("weight") {
            None | Some(Value::Number(_)) => Ok(()),
            Some(_) => Err(A2uiError::validation(
                format!("{base}/weight"),
                "weight must be a number",
            )),
        }
    };
    // The usual shape is recognised in one pass over the keys (no key hashing); anything
    // else is checked again with the pointer built, which words the error.
    let well_formed = {
        let (mut id, mut wrapper) = (false, false);
        let shape = obj.iter().all(|(k, v)| match (k.as_str(), v) {
            ("id", Value::String(_)) => {
                id = true;
                true
            }
            ("component", Value::Object(w)) => {
                wrapper = true;
                w.len() == 1 && w.values().all(Value::is_object)
            }
            ("weight", Value::Number(_)) => true,
            _ => false,
        });
        shape && id && wrapper
    };
    if !well_formed {
        check(&base())?;
        return Err(A2uiError::validation(base(), "invalid component"));
    }
    let (mut id, mut wrapper, mut weight) = (None, None, None);
    for (k, v) in obj {
        match (k.as_str(), v) {
            ("id", Value::String(s)) => id = Some(s),
            ("component", Value::Object(w)) => wrapper = Some(w),
            ("weight", w) => weight = Some(w),
            _ => {}
        }
    }
    let (Some(id), Some(wrapper)) = (id, wrapper) else {
        return Err(A2uiError::validation(base(), "invalid component"));
    };
    let Some((wire_type, Value::Object(wire_props))) = wrapper.into_iter().next() else {
        return Err(A2uiError::validation(
            format!("{}/component", base()),
            "component is empty",
        ));
    };
    Ok(component_parts(
        id,
        wire_type,
        wire_props
            .into_iter()
            .map(|(k, v)| (k, Wire::Value(v)))
            .collect(),
        weight,
    ))
}

/// A well-formed component from its parts: `entries` are its wire properties in wire order
/// without a repeated name, `weight` its component-level weight (the fast path of
/// [`super::fast`] reads them straight from the text). A canonical component stores its
/// normalised properties only, with the recipe that derives the wire ones
/// ([`super::v0_8_wire`]); any other keeps the wire properties as sent beside them.
pub(super) fn component_parts<K: AsRef<str> + IntoPropName + Into<String>>(
    id: String,
    wire_type: String,
    mut entries: Vec<(K, Wire<'_>)>,
    mut weight: Option<Value>,
) -> ComponentDef {
    if let Some((props, recipe)) =
        super::v0_8_wire::normalise_canonical(&wire_type, &mut entries, &mut weight)
    {
        return ComponentDef {
            id,
            component: Some(wire_type),
            props,
            wire_props: None,
            wire_component: None,
            catalog_id: None,
            v08_wire: Some(recipe),
        };
    }
    let wire_props: Map<String, Value> = entries
        .into_iter()
        .map(|(k, v)| (k.into(), v.into_value()))
        .collect();
    let (renamed, props) = normalise(&wire_type, &wire_props, weight);
    let (component, wire_component) = match renamed {
        Some(v09) => (v09.to_owned(), Some(wire_type)),
        None => (wire_type, None),
    };
    ComponentDef {
        id,
        component: Some(component),
        props: props.into(),
        wire_props: Some(Box::new(Props::from(wire_props))),
        wire_component,
        catalog_id: None,
        v08_wire: None,
    }
}

/// True when `map` is a v0.8 BoundValue (defined beside the wire recipe, which reads it too).
pub use super::v0_8_wire::is_bound_value;

/// The literal of a BoundValue, if it carries one.
pub fn bound_literal(map: &Map<String, Value>) -> Option<&Value> {
    [
        "literalString",
        "literalNumber",
        "literalBoolean",
        "literalArray",
    ]
    .iter()
    .find_map(|k| map.get(*k))
}

/// Turn BoundValues (at any depth) into v0.9 dynamic values: the literal when given
/// (as the reference oracle does), else `{"path": ...}`.
fn bound_to_dynamic(v: &Value) -> Value {
    match v {
        Value::Object(m) if is_bound_value(m) => match bound_literal(m) {
            Some(lit) => lit.clone(),
            None => {
                let mut o = Map::new();
                if let Some(p) = m.get("path") {
                    o.insert("path".to_owned(), p.clone());
                }
                Value::Object(o)
            }
        },
        Value::Object(m) => Value::Object(
            m.iter()
                .map(|(k, v)| (k.clone(), bound_to_dynamic(v)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(bound_to_dynamic).collect()),
        other => other.clone(),
    }
}

fn children_list(v: &Value) -> Value {
    let Value::Object(m) = v else {
        return v.clone();
    };
    if let Some(list) = m.get("explicitList") {
        return list.clone();
    }
    if let Some(Value::Object(t)) = m.get("template") {
        let mut o = Map::new();
        if let Some(c) = t.get("componentId") {
            o.insert("componentId".to_owned(), c.clone());
        }
        if let Some(p) = t.get("dataBinding") {
            o.insert("path".to_owned(), p.clone());
        }
        return Value::Object(o);
    }
    v.clone()
}

/// v0.8 action `{name, context: [{key, value}]}` → v0.9 `{event: {name, context: {k: v}}}`.
pub fn action_to_v09(v: &Value) -> Value {
    let Value::Object(m) = v else {
        return v.clone();
    };
    let mut event = Map::new();
    if let Some(n) = m.get("name") {
        event.insert("name".to_owned(), n.clone());
    }
    let mut ctx = Map::new();
    match m.get("context") {
        Some(Value::Array(items)) => {
            for item in items {
                if let Value::Object(it) = item
                    && let Some(Value::String(k)) = it.get("key")
                {
                    let val = it.get("value").map(bound_to_dynamic).unwrap_or(Value::Null);
                    ctx.insert(k.clone(), val);
                }
            }
        }
        Some(Value::Object(o)) => {
            for (k, val) in o {
                ctx.insert(k.clone(), bound_to_dynamic(val));
            }
        }
        _ => {}
    }
    event.insert("context".to_owned(), Value::Object(ctx));
    let mut out = Map::new();
    out.insert("event".to_owned(), Value::Object(event));
    Value::Object(out)
}

/// Rename v0.8 properties to their v0.9 names and convert their values.
/// `weight` (a component-level key in v0.8) goes last.
/// Returns the v0.9 type name when it differs from the wire one.
pub(super) fn normalise(
    wire_type: &str,
    wire: &Map<String, Value>,
    weight: Option<Value>,
) -> (Option<&'static str>, Props) {
    let mut renamed = None;
    // Pairs in wire order; a repeated name (two wire names for one v0.9 name) keeps its
    // first place and takes the later value when collected, as a map insert does.
    let extra = usize::from(weight.is_some()) + usize::from(wire_type == "MultipleChoice");
    let mut out: Vec<(PropName, Value)> = Vec::with_capacity(wire.len() + extra);
    for (k, v) in wire {
        let (name, value) = match (wire_type, k.as_str()) {
            (_, "children") => ("children", children_list(v)),
            (_, "action") => ("action", action_to_v09(v)),
            (_, "distribution") => ("justify", bound_to_dynamic(v)),
            (_, "alignment") => ("align", bound_to_dynamic(v)),
            ("Modal", "entryPointChild") => ("trigger", v.clone()),
            ("Modal", "contentChild") => ("content", v.clone()),
            ("Tabs", "tabItems") => ("tabs", bound_to_dynamic(v)),
            ("TextField", "text") => ("value", bound_to_dynamic(v)),
            ("TextField", "textFieldType") => ("variant", bound_to_dynamic(v)),
            (_, "usageHint") => ("variant", bound_to_dynamic(v)),
            ("Image", "altText") => ("description", bound_to_dynamic(v)),
            ("Image", "fit") => (
                "fit",
                match v {
                    Value::String(s) if s == "scale-down" => Value::String("scaleDown".into()),
                    other => other.clone(),
                },
            ),
            ("MultipleChoice", "selections") => ("value", bound_to_dynamic(v)),
            ("MultipleChoice", "variant") => ("displayStyle", bound_to_dynamic(v)),
            ("MultipleChoice", "maxAllowedSelections") => {
                let exclusive = v.as_f64() == Some(1.0);
                out.push((
                    "variant".into_prop_name(),
                    Value::String(
                        if exclusive {
                            "mutuallyExclusive"
                        } else {
                            "multipleSelection"
                        }
                        .into(),
                    ),
                ));
                continue;
            }
            ("Slider", "minValue") => ("min", bound_to_dynamic(v)),
            ("Slider", "maxValue") => ("max", bound_to_dynamic(v)),
            ("Button", "primary") => {
                if v.as_bool() == Some(true) {
                    out.push(("variant".into_prop_name(), Value::String("primary".into())));
                }
                continue;
            }
            (_, other) => (other, bound_to_dynamic(v)),
        };
        out.push((name.into_prop_name(), value));
    }
    if wire_type == "MultipleChoice" {
        renamed = Some("ChoicePicker");
        if !out.iter().any(|(k, _)| k.as_str() == "variant") {
            out.push((
                "variant".into_prop_name(),
                Value::String("multipleSelection".into()),
            ));
        }
    }
    if let Some(w) = weight {
        out.push(("weight".into_prop_name(), w));
    }
    (renamed, Props::from_named(out))
}
