//! Agent → renderer messages of every protocol version, normalised into one internal
//! [`Message`] type (the v1.0-shaped superset).
//!
//! Each wire version has its own (internal) adapter; [`parse_message`] detects the version
//! of every message on its own, so one stream may mix versions. A host rarely needs this
//! module: [`SurfaceStore`](crate::model::SurfaceStore) and [`Renderer`](crate::render::Renderer) parse
//! what they are fed. It is here for hosts that inspect or route messages themselves, and
//! for the MIME type and catalog id constants.
//!
//! ```
//! use egui_a2ui::protocol::{Message, parse_message};
//! use egui_a2ui::Version;
//!
//! let v08 = serde_json::json!({"deleteSurface": {"surfaceId": "s"}});
//! let envelope = parse_message(&v08).unwrap();
//! assert_eq!(envelope.version, Version::V0_8);
//! assert_eq!(envelope.message, Message::DeleteSurface { surface_id: "s".into() });
//! ```

mod fast;
pub(crate) mod ident;
pub(crate) mod reserved;
pub(crate) mod v0_8;
mod v0_8_wire;
pub(crate) mod v0_9;
pub(crate) mod version;

pub(crate) use fast::{surface_id_hint, surface_id_hint_text};
pub use version::{Version, Versions};

use std::borrow::Cow;

use serde_json::{Map, Value};

pub(crate) use v0_8_wire::V08Wire;

use crate::error::A2uiError;
use crate::stored::{Props, StoredProps};

/// The MIME type of A2UI payloads (v0.9.1 onwards).
pub const MIME_TYPE: &str = "application/a2ui+json";
/// The legacy MIME spelling used by v0.8 and early v0.9 drafts.
pub const MIME_TYPE_LEGACY: &str = "application/json+a2ui";

/// True for both spellings of the A2UI MIME type (parameters are significant and must be
/// absent; case-insensitive type and subtype as RFC 6838 says).
pub fn is_a2ui_mime(mime: &str) -> bool {
    let m = mime.trim();
    m.eq_ignore_ascii_case(MIME_TYPE) || m.eq_ignore_ascii_case(MIME_TYPE_LEGACY)
}

/// The basic catalog id of v0.9 and v0.9.1.
pub const BASIC_CATALOG_V0_9: &str =
    "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json";
/// The basic catalog id of v1.0.
pub const BASIC_CATALOG_V1_0: &str =
    "https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json";
/// The v0.8 standard catalog id, used when `beginRendering` names none.
pub const STANDARD_CATALOG_V0_8: &str =
    "https://a2ui.org/specification/v0_8/standard_catalog_definition.json";
/// The v0.9 minimal catalog id.
pub const MINIMAL_CATALOG_V0_9: &str =
    "https://a2ui.org/specification/v0_9/catalogs/minimal/catalog.json";

/// One agent → renderer message with the version it was written in.
#[derive(Clone, Debug, PartialEq)]
pub struct Envelope {
    /// The wire version of the message.
    pub version: Version,
    /// The normalised message.
    pub message: Message,
}

/// A normalised agent → renderer message.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Message {
    /// v0.9+ `createSurface`, or v0.8 `beginRendering` (which also names the root).
    CreateSurface(CreateSurface),
    /// `updateComponents` / v0.8 `surfaceUpdate`.
    UpdateComponents {
        /// Target surface.
        surface_id: String,
        /// Components to add or replace, in message order.
        components: Vec<ComponentDef>,
    },
    /// `updateDataModel` (one write) / v0.8 `dataModelUpdate` (one write per `contents`
    /// entry), applied in order.
    UpdateDataModel {
        /// Target surface.
        surface_id: String,
        /// The writes.
        writes: Vec<DataWrite>,
    },
    /// `deleteSurface`.
    DeleteSurface {
        /// Target surface.
        surface_id: String,
    },
    /// v1.0 `callRendererFunction`: the agent asks the renderer to run a function.
    CallRendererFunction {
        /// Correlation id to answer with.
        function_call_id: String,
        /// The `FunctionCall` object (`call`, `args`, `catalogId`).
        call: Value,
    },
    /// v1.0 `agentFunctionResponse`: the answer to an earlier `callAgentFunction`.
    AgentFunctionResponse {
        /// Correlation id of the call.
        function_call_id: String,
        /// `Ok(value)` or `Err((code, message))`.
        result: Result<Value, (String, String)>,
    },
}

impl Message {
    /// The surface the message is for, if it targets one.
    pub fn surface_id(&self) -> Option<&str> {
        match self {
            Self::CreateSurface(c) => Some(&c.surface_id),
            Self::UpdateComponents { surface_id, .. }
            | Self::UpdateDataModel { surface_id, .. }
            | Self::DeleteSurface { surface_id } => Some(surface_id),
            Self::CallRendererFunction { .. } | Self::AgentFunctionResponse { .. } => None,
        }
    }
}

/// One data-model write.
#[derive(Clone, Debug, PartialEq)]
pub struct DataWrite {
    /// JSON pointer; `/` or empty is the whole model.
    pub path: String,
    /// The value to write; `None` deletes the key.
    pub value: Option<Value>,
}

/// A surface creation request.
#[derive(Clone, Debug, PartialEq)]
pub struct CreateSurface {
    /// The new surface's id.
    pub surface_id: String,
    /// The surface's (default) catalog. `None` only in v1.0, where it is optional.
    pub catalog_id: Option<String>,
    /// v0.9 `theme` or v0.8 `styles` (empty when absent; always empty in v1.0).
    pub theme: Map<String, Value>,
    /// Whether the data model is attached to outgoing messages.
    pub send_data_model: bool,
    /// The root component id: `root` except in v0.8, where `beginRendering` names it.
    pub root_id: String,
    /// v1.0 inline initial components.
    pub components: Vec<ComponentDef>,
    /// v1.0 inline initial data model.
    pub data_model: Option<Value>,
}

/// A component as sent by the agent, with its properties in the normalised (v0.9/v1.0)
/// vocabulary that renderers read, and what it takes to give them back in its wire
/// vocabulary (for the conformance dump).
#[derive(Clone, Debug, PartialEq)]
pub struct ComponentDef {
    /// Component id, unique within the surface.
    pub id: String,
    /// Type name (`Text`, `Row`, ...). `None` when an update keeps the existing type.
    pub component: Option<String>,
    /// Properties, normalised: v0.8 names renamed, BoundValues turned into dynamic values,
    /// `explicitList`/`template` turned into ChildLists; in the stored form (the fast parse
    /// writes them straight from the text), read in place or made editable with
    /// [`StoredProps::to_props`].
    pub props: StoredProps,
    /// Properties as sent, when they differ from [`Self::props`] (v0.8 keeps its own names;
    /// a v1.0 component keeps its `@catalogId`, `@accessibility`, `@checks`, `@metadata`
    /// names, with values in the bare vocabulary; `id`/`component` removed). `None` when the
    /// wire form is `props` itself or derived from it (a v0.8 component in the usual
    /// shapes), so the properties are stored once; read it with [`Self::wire_props`].
    pub wire_props: Option<Box<Props>>,
    /// The wire type name when it differs from [`Self::component`] (`MultipleChoice` in
    /// v0.8, where `component` says `ChoicePicker`); `None` when it is `component` itself.
    /// Read it with [`Self::wire_component`].
    pub wire_component: Option<String>,
    /// v1.0 per-component catalog id.
    pub catalog_id: Option<String>,
    /// A v0.8 component whose wire properties are derived from [`Self::props`] (then
    /// [`Self::wire_props`] is `None`): the few bits the derivation needs.
    pub(crate) v08_wire: Option<V08Wire>,
}

impl ComponentDef {
    /// The wire type name (`None` when an update keeps the existing type).
    pub fn wire_component(&self) -> Option<&str> {
        self.wire_component.as_deref().or(self.component.as_deref())
    }

    /// The properties as sent on the wire: stored, [`Self::props`] itself, or (most v0.8
    /// components) derived from [`Self::props`] on each call.
    pub fn wire_props(&self) -> Cow<'_, Props> {
        if let Some(w) = &self.wire_props {
            return Cow::Borrowed(w);
        }
        match (self.v08_wire, self.wire_component()) {
            (Some(recipe), Some(ty)) => Cow::Owned(recipe.derive(ty, &self.props.to_props())),
            _ => Cow::Owned(self.props.to_props()),
        }
    }
}

/// Parse one agent → renderer message, detecting its version, taking the message by value:
/// component properties and data-model values are moved into the result instead of being
/// copied. Same result as [`parse_message`].
pub fn parse_message_owned(value: Value) -> Result<Envelope, A2uiError> {
    match value {
        Value::Object(obj) => match obj.get("version") {
            Some(Value::String(v)) => {
                let version = Version::from_wire(v)
                    .ok_or_else(|| A2uiError::UnsupportedVersion(v.clone()))?;
                v0_9::parse_owned(obj, version).map(|message| Envelope { version, message })
            }
            None => v0_8::parse_owned(obj).map(|message| Envelope {
                version: Version::V0_8,
                message,
            }),
            _ => parse_message(&Value::Object(obj)),
        },
        other => parse_message(&other),
    }
}

/// Parse one agent → renderer message from its JSON text, detecting its version: the bulk
/// messages (versioned `updateComponents`, `updateDataModel`, `deleteSurface`, and the
/// v0.8 messages) are
/// deserialized straight into the [`Envelope`] without building a `serde_json::Value` of the
/// message first; everything else takes the [`parse_message_owned`] path. Same result and
/// same errors as `parse_message_owned(serde_json::from_str(text)?)`; text that is not JSON
/// is an [`A2uiError::Json`].
pub fn parse_message_text(text: &str) -> Result<Envelope, A2uiError> {
    if let Some(env) = fast::parse(text) {
        return Ok(env);
    }
    let value: Value = serde_json::from_str(text).map_err(|e| A2uiError::Json(e.to_string()))?;
    parse_message_owned(value)
}

/// An `updateComponents` (`version` v0.9 or later) or v0.8 `surfaceUpdate` for
/// `surface_id` whose components are held elsewhere (a partial update yielded from model
/// text): each component parsed from its value as in the whole message, nothing else of
/// the message built.
pub(crate) fn parse_shared_components(
    version: Version,
    surface_id: &str,
    components: &[std::sync::Arc<Value>],
) -> Result<Envelope, A2uiError> {
    let path = match version {
        Version::V0_8 => "/surfaceUpdate/components",
        _ => "/updateComponents/components",
    };
    if components.is_empty() {
        return Err(A2uiError::validation(path, "components must not be empty"));
    }
    let mut out = Vec::with_capacity(components.len());
    for (i, c) in components.iter().enumerate() {
        let c = (**c).clone();
        out.push(match version {
            Version::V0_8 => v0_8::component(c, &|| format!("{path}/{i}"))?,
            _ => v0_9::component(c, version, path, i)?,
        });
    }
    Ok(Envelope {
        version,
        message: Message::UpdateComponents {
            surface_id: surface_id.to_owned(),
            components: out,
        },
    })
}

/// Parse one agent → renderer message, detecting its version.
pub fn parse_message(value: &Value) -> Result<Envelope, A2uiError> {
    let obj = value
        .as_object()
        .ok_or_else(|| A2uiError::validation("", "a message must be a JSON object"))?;
    match obj.get("version") {
        None => v0_8::parse(obj).map(|message| Envelope {
            version: Version::V0_8,
            message,
        }),
        Some(Value::String(v)) => {
            let version =
                Version::from_wire(v).ok_or_else(|| A2uiError::UnsupportedVersion(v.clone()))?;
            v0_9::parse(obj, version).map(|message| Envelope { version, message })
        }
        Some(_) => Err(A2uiError::validation(
            "/version",
            "version must be a string",
        )),
    }
}

/// The one message type key of an envelope: every key but those in `skip` must be one of
/// `types` (else `unknown(key)` words the error), and exactly one must be there.
pub(crate) fn single_message_type<'a>(
    obj: &'a Map<String, Value>,
    types: &[&str],
    skip: &[&str],
    unknown: impl Fn(&str) -> String,
) -> Result<&'a str, A2uiError> {
    let mut kind = None;
    for k in obj.keys() {
        if skip.contains(&k.as_str()) {
            continue;
        }
        if !types.contains(&k.as_str()) {
            return Err(A2uiError::validation(
                format!("/{}", escape_pointer(k)),
                unknown(k),
            ));
        }
        if kind.is_some() {
            return Err(A2uiError::validation(
                "",
                "a message must contain exactly one message type",
            ));
        }
        kind = Some(k.as_str());
    }
    kind.ok_or_else(|| A2uiError::validation("", "message has no message type"))
}

pub(crate) fn req_str<'a>(
    obj: &'a Map<String, Value>,
    key: &str,
    base: &str,
) -> Result<&'a str, A2uiError> {
    match obj.get(key) {
        Some(Value::String(s)) => Ok(s),
        Some(_) => Err(A2uiError::validation(
            format!("{base}/{key}"),
            format!("{key} must be a string"),
        )),
        None => Err(A2uiError::validation(
            format!("{base}/{key}"),
            format!("missing required {key}"),
        )),
    }
}

pub(crate) fn opt_str<'a>(
    obj: &'a Map<String, Value>,
    key: &str,
    base: &str,
) -> Result<Option<&'a str>, A2uiError> {
    match obj.get(key) {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(A2uiError::validation(
            format!("{base}/{key}"),
            format!("{key} must be a string"),
        )),
    }
}

pub(crate) fn opt_bool(
    obj: &Map<String, Value>,
    key: &str,
    base: &str,
) -> Result<Option<bool>, A2uiError> {
    match obj.get(key) {
        None => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        Some(_) => Err(A2uiError::validation(
            format!("{base}/{key}"),
            format!("{key} must be a boolean"),
        )),
    }
}

pub(crate) fn req_obj<'a>(
    obj: &'a Map<String, Value>,
    key: &str,
    base: &str,
) -> Result<&'a Map<String, Value>, A2uiError> {
    match obj.get(key) {
        Some(Value::Object(o)) => Ok(o),
        Some(_) => Err(A2uiError::validation(
            format!("{base}/{key}"),
            format!("{key} must be an object"),
        )),
        None => Err(A2uiError::validation(
            format!("{base}/{key}"),
            format!("missing required {key}"),
        )),
    }
}

/// Reject keys outside `allowed` (the schemas say `additionalProperties: false`).
pub(crate) fn only_keys(
    obj: &Map<String, Value>,
    allowed: &[&str],
    base: &str,
) -> Result<(), A2uiError> {
    for k in obj.keys() {
        if !allowed.contains(&k.as_str()) {
            return Err(A2uiError::validation(
                format!("{base}/{}", escape_pointer(k)),
                format!("unexpected property {k:?}"),
            ));
        }
    }
    Ok(())
}

pub(crate) use crate::pointer::escape_pointer;
