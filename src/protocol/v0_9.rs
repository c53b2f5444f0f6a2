//! v0.9, v0.9.1 and v1.0 wire messages: `{"version": ..., "<type>": {...}}`.
//!
//! The three share one envelope; v1.0 adds inline `components`/`dataModel` to
//! `createSurface`, requires `updateDataModel.value`, drops `theme`, and adds the
//! function-call RPC messages. v1.0 components may spell their reserved keys with `@`
//! (`{"@path"}`, `{"@call"}`, `@catalogId`, ...); [`super::reserved`] turns them into the
//! bare vocabulary here, for v1.0 messages only.

use serde_json::{Map, Value};

use super::{
    ComponentDef, CreateSurface, DataWrite, Message, Version, only_keys, opt_bool, opt_str,
    req_obj, req_str, reserved, single_message_type,
};
use crate::error::A2uiError;
use crate::stored::{PropRef, Props, StoredProps};

const V09_TYPES: &[&str] = &[
    "createSurface",
    "updateComponents",
    "updateDataModel",
    "deleteSurface",
];
const V10_TYPES: &[&str] = &[
    "createSurface",
    "updateComponents",
    "updateDataModel",
    "deleteSurface",
    "callRendererFunction",
    "agentFunctionResponse",
];

/// The message type key of a versioned message, after checking the envelope's keys.
fn message_kind(obj: &Map<String, Value>, version: Version) -> Result<&str, A2uiError> {
    let types = if version == Version::V1_0 {
        V10_TYPES
    } else {
        V09_TYPES
    };
    let skip: &[&str] = if version == Version::V1_0 {
        &["version", "functionCallId"]
    } else {
        &["version"]
    };
    let kind = single_message_type(obj, types, skip, |k| {
        format!("unknown message type {k:?} for {version}")
    })?;
    if obj.contains_key("functionCallId") && kind != "callRendererFunction" {
        return Err(A2uiError::validation(
            "/functionCallId",
            "unexpected property \"functionCallId\"",
        ));
    }
    Ok(kind)
}

/// Parse a versioned message (`version` already read), taking it by value: the bulk
/// messages (`updateComponents`, `updateDataModel`) move their payload instead of copying
/// it. Same result as [`parse`].
pub fn parse_owned(mut obj: Map<String, Value>, version: Version) -> Result<Message, A2uiError> {
    let kind = message_kind(&obj, version)?;
    match kind {
        "updateComponents" => {
            let base = "/updateComponents";
            let body = req_obj(&obj, kind, "")?;
            only_keys(body, &["surfaceId", "components"], base)?;
            let surface_id = req_str(body, "surfaceId", base)?.to_owned();
            let Some(Value::Object(mut body)) = obj.shift_remove("updateComponents") else {
                return Err(A2uiError::validation(
                    base,
                    "updateComponents must be an object",
                ));
            };
            let components =
                components_owned(body.shift_remove("components"), version, base, true)?;
            Ok(Message::UpdateComponents {
                surface_id,
                components,
            })
        }
        "updateDataModel" => {
            let base = "/updateDataModel";
            let body = req_obj(&obj, kind, "")?;
            only_keys(body, &["surfaceId", "path", "value"], base)?;
            let surface_id = req_str(body, "surfaceId", base)?.to_owned();
            let path = opt_str(body, "path", base)?.unwrap_or("/").to_owned();
            if version == Version::V1_0 && !body.contains_key("value") {
                return Err(A2uiError::validation(
                    format!("{base}/value"),
                    "v1.0 updateDataModel requires value (null deletes)",
                ));
            }
            let value = match obj.shift_remove("updateDataModel") {
                Some(Value::Object(mut b)) => match b.shift_remove("value") {
                    None | Some(Value::Null) => None,
                    Some(v) => Some(v),
                },
                _ => None,
            };
            Ok(Message::UpdateDataModel {
                surface_id,
                writes: vec![DataWrite { path, value }],
            })
        }
        _ => parse(&obj, version),
    }
}

/// Parse a versioned message (`version` already read).
pub fn parse(obj: &Map<String, Value>, version: Version) -> Result<Message, A2uiError> {
    let kind = message_kind(obj, version)?;
    let base = format!("/{kind}");
    let body = req_obj(obj, kind, "")?;
    match kind {
        "createSurface" => create_surface(body, version, &base),
        "updateComponents" => {
            only_keys(body, &["surfaceId", "components"], &base)?;
            let surface_id = req_str(body, "surfaceId", &base)?.to_owned();
            let components = components(body.get("components"), version, &base, true)?;
            Ok(Message::UpdateComponents {
                surface_id,
                components,
            })
        }
        "updateDataModel" => {
            only_keys(body, &["surfaceId", "path", "value"], &base)?;
            let surface_id = req_str(body, "surfaceId", &base)?.to_owned();
            let path = opt_str(body, "path", &base)?.unwrap_or("/").to_owned();
            if version == Version::V1_0 && !body.contains_key("value") {
                return Err(A2uiError::validation(
                    format!("{base}/value"),
                    "v1.0 updateDataModel requires value (null deletes)",
                ));
            }
            let value = match body.get("value") {
                None | Some(Value::Null) => None,
                Some(v) => Some(v.clone()),
            };
            Ok(Message::UpdateDataModel {
                surface_id,
                writes: vec![DataWrite { path, value }],
            })
        }
        "deleteSurface" => {
            only_keys(body, &["surfaceId"], &base)?;
            Ok(Message::DeleteSurface {
                surface_id: req_str(body, "surfaceId", &base)?.to_owned(),
            })
        }
        "callRendererFunction" => {
            // Two draft shapes: the id at top level or inside the body.
            let function_call_id = match obj.get("functionCallId") {
                Some(Value::String(s)) => s.clone(),
                Some(_) => {
                    return Err(A2uiError::validation(
                        "/functionCallId",
                        "functionCallId must be a string",
                    ));
                }
                None => req_str(body, "functionCallId", &base)?.to_owned(),
            };
            let call = match body.get("callFunction") {
                Some(Value::Object(c)) => reserved::normalize_value(Value::Object(c.clone())),
                Some(_) => {
                    return Err(A2uiError::validation(
                        format!("{base}/callFunction"),
                        "callFunction must be an object",
                    ));
                }
                None => reserved::normalize_value(Value::Object(body.clone())),
            };
            if !call.get("call").is_some_and(Value::is_string) {
                return Err(A2uiError::validation(
                    format!("{base}/callFunction/call"),
                    "a function call needs a string call",
                ));
            }
            if !call.get("catalogId").is_some_and(Value::is_string) {
                return Err(A2uiError::validation(
                    format!("{base}/callFunction/catalogId"),
                    "callRendererFunction must name the function's catalogId",
                ));
            }
            Ok(Message::CallRendererFunction {
                function_call_id,
                call,
            })
        }
        "agentFunctionResponse" => {
            only_keys(body, &["functionCallId", "value", "error"], &base)?;
            let function_call_id = req_str(body, "functionCallId", &base)?.to_owned();
            let result = match (body.get("value"), body.get("error")) {
                (Some(v), None) => Ok(v.clone()),
                (None, Some(Value::Object(e))) => {
                    let eb = format!("{base}/error");
                    Err((
                        req_str(e, "code", &eb)?.to_owned(),
                        req_str(e, "message", &eb)?.to_owned(),
                    ))
                }
                _ => {
                    return Err(A2uiError::validation(
                        base,
                        "a function response has exactly one of value or error",
                    ));
                }
            };
            Ok(Message::AgentFunctionResponse {
                function_call_id,
                result,
            })
        }
        _ => Err(A2uiError::validation(base, "unknown message type")),
    }
}

fn create_surface(
    body: &Map<String, Value>,
    version: Version,
    base: &str,
) -> Result<Message, A2uiError> {
    if version == Version::V1_0 {
        only_keys(
            body,
            &[
                "surfaceId",
                "catalogId",
                "sendDataModel",
                "components",
                "dataModel",
                "metadata",
            ],
            base,
        )?;
    } else {
        only_keys(
            body,
            &["surfaceId", "catalogId", "theme", "sendDataModel"],
            base,
        )?;
    }
    let surface_id = req_str(body, "surfaceId", base)?.to_owned();
    let catalog_id = if version == Version::V1_0 {
        opt_str(body, "catalogId", base)?.map(str::to_owned)
    } else {
        Some(req_str(body, "catalogId", base)?.to_owned())
    };
    let theme = match body.get("theme") {
        None => Map::new(),
        Some(Value::Object(t)) => t.clone(),
        Some(_) => {
            return Err(A2uiError::validation(
                format!("{base}/theme"),
                "theme must be an object",
            ));
        }
    };
    let send_data_model = opt_bool(body, "sendDataModel", base)?.unwrap_or(false);
    let components = match body.get("components") {
        None => Vec::new(),
        Some(v) => components(Some(v), version, base, true)?,
    };
    let data_model = match body.get("dataModel") {
        None => None,
        Some(Value::Object(o)) => Some(Value::Object(o.clone())),
        Some(_) => {
            return Err(A2uiError::validation(
                format!("{base}/dataModel"),
                "dataModel must be an object",
            ));
        }
    };
    if let Some(Value::Object(meta)) = body.get("metadata") {
        only_keys(meta, &["extensions"], &format!("{base}/metadata"))?;
        // Unknown extension keys are ignored, as the spec says; only the shape is checked,
        // and that each key is a Unicode identifier (UAX #31, the schema's
        // `^[\p{XID_Start}_][\p{XID_Continue}]*$`; `message_processor_v1_0.yaml`).
        match meta.get("extensions") {
            Some(Value::Object(ext)) => {
                if let Some(key) = ext
                    .keys()
                    .find(|k| !crate::protocol::ident::is_identifier(k))
                {
                    return Err(A2uiError::validation(
                        format!(
                            "{base}/metadata/extensions/{}",
                            crate::pointer::escape_pointer(key)
                        ),
                        format!("extension key {key:?} is not a Unicode identifier (UAX #31)"),
                    ));
                }
            }
            Some(_) => {
                return Err(A2uiError::validation(
                    format!("{base}/metadata/extensions"),
                    "extensions must be an object",
                ));
            }
            None => {}
        }
    } else if body.contains_key("metadata") {
        return Err(A2uiError::validation(
            format!("{base}/metadata"),
            "metadata must be an object",
        ));
    }
    Ok(Message::CreateSurface(CreateSurface {
        surface_id,
        catalog_id,
        theme,
        send_data_model,
        root_id: "root".to_owned(),
        components,
        data_model,
    }))
}

fn components(
    value: Option<&Value>,
    version: Version,
    base: &str,
    non_empty: bool,
) -> Result<Vec<ComponentDef>, A2uiError> {
    components_owned(value.cloned(), version, base, non_empty)
}

/// [`components`], moving each component out of the array.
fn components_owned(
    value: Option<Value>,
    version: Version,
    base: &str,
    non_empty: bool,
) -> Result<Vec<ComponentDef>, A2uiError> {
    let path = format!("{base}/components");
    let list = match value {
        Some(Value::Array(a)) => a,
        Some(_) => return Err(A2uiError::validation(path, "components must be an array")),
        None => return Err(A2uiError::validation(path, "missing required components")),
    };
    if non_empty && list.is_empty() {
        return Err(A2uiError::validation(path, "components must not be empty"));
    }
    let mut out = Vec::with_capacity(list.len());
    for (i, c) in list.into_iter().enumerate() {
        out.push(component(c, version, &path, i)?);
    }
    Ok(out)
}

/// One component (`path`/`i` name it in errors; the pointer is only built on failure).
pub(crate) fn component(
    value: Value,
    version: Version,
    path: &str,
    i: usize,
) -> Result<ComponentDef, A2uiError> {
    let base = || format!("{path}/{i}");
    let Value::Object(mut obj) = value else {
        return Err(A2uiError::validation(
            base(),
            "a component must be an object",
        ));
    };
    {
        let fields = |obj: &Map<String, Value>, base: &str| {
            req_str(obj, "id", base)?;
            opt_str(obj, "component", base)?;
            if version == Version::V1_0 {
                opt_str(obj, "@catalogId", base)?;
                opt_str(obj, "catalogId", base)?;
            }
            Ok::<_, A2uiError>(())
        };
        if fields(&obj, "").is_err() {
            return Err(fields(&obj, &base())
                .err()
                .unwrap_or_else(|| A2uiError::validation(base(), "invalid component")));
        }
    }
    let Some(Value::String(id)) = obj.shift_remove("id") else {
        return Err(A2uiError::validation(base(), "invalid component"));
    };
    let component = match obj.shift_remove("component") {
        Some(Value::String(c)) => Some(c),
        _ => None,
    };
    component_fields(id, component, Props::from(obj), version, base)
}

/// Whether an `action` object is the v0.9 shorthand `{name, context}` (an event action
/// without its `event` key).
fn is_shorthand(action: &Map<String, Value>) -> bool {
    action.get("name").is_some_and(Value::is_string)
        && !action.contains_key("event")
        && !action.contains_key("functionCall")
}

/// Whether [`component_fields`] would change or refuse a component whose properties were
/// written straight into the stored form (`at_key`: a name starting with `@` was written, at
/// any depth): v1.0 `@` names and catalog ids, the reserved `Surface`, and the action
/// shorthand ([`is_shorthand`], read in place).
pub(super) fn fields_would_change(
    props: &StoredProps,
    component: Option<&str>,
    version: Version,
    at_key: bool,
) -> bool {
    let v10 = version == Version::V1_0
        && (at_key || props.contains_key("catalogId") || component == Some("Surface"));
    let shorthand = props
        .get("action")
        .and_then(PropRef::as_object)
        .is_some_and(|a| {
            a.get("name").is_some_and(PropRef::is_string)
                && !a.contains_key("event")
                && !a.contains_key("functionCall")
        });
    v10 || shorthand
}

/// A component from its `id`, `component` and other properties (the fast path of
/// [`super::fast`] builds them straight from the text); `base` names it in errors.
pub(super) fn component_fields(
    id: String,
    component: Option<String>,
    mut props: Props,
    version: Version,
    base: impl Fn() -> String,
) -> Result<ComponentDef, A2uiError> {
    // The v0.9 action shorthand `{name, context}` (no `event` key) is an event action
    // (`conformance/core/actions.yaml`; web_core 0.12.0 reads it too).
    if let Some(Value::Object(action)) = props.get_mut("action")
        && is_shorthand(action)
    {
        let event = std::mem::take(action);
        action.insert("event".into(), Value::Object(event));
    }
    let catalog_id = if version == Version::V1_0 {
        let read = |key: &str| match props.get(key) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err(A2uiError::validation(
                format!("{}/{key}", base()),
                format!("{key} must be a string"),
            )),
        };
        // `@catalogId` (the current v1.0 spelling) wins over the bare key.
        match read("@catalogId")? {
            Some(c) => Some(c),
            None => read("catalogId")?,
        }
    } else {
        None
    };
    if version == Version::V1_0 && component.as_deref() == Some("Surface") {
        return Err(A2uiError::validation(
            format!("{}/component", base()),
            "the Surface component is reserved and created implicitly",
        ));
    }
    let mut wire_props = None;
    if version == Version::V1_0 {
        props.remove("catalogId");
        let at_catalog = props.remove("@catalogId");
        reserved::check_reserved_keys(&props, &base())?;
        let renamed = reserved::normalize_component_props(&mut props);
        if at_catalog.is_some() || !renamed.is_empty() {
            // The conformance dump speaks the wire vocabulary: keep the `@` names.
            let wire: Props = props
                .iter()
                .map(|(k, v)| {
                    let name = renamed
                        .iter()
                        .find(|(_, bare)| *bare == k)
                        .map_or(k, |(at, _)| at);
                    (name, v.clone())
                })
                .chain(at_catalog.map(|c| ("@catalogId", c)))
                .collect();
            wire_props = Some(Box::new(wire));
        }
    }
    Ok(ComponentDef {
        id,
        wire_component: None,
        component,
        wire_props,
        props: props.into(),
        catalog_id,
        v08_wire: None,
    })
}
