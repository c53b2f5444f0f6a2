//! What the user did, resolved and ready for the agent: action events, error reports, and
//! their renderer → agent encodings for each protocol version (A2UI
//! [protocol], client-to-server messages).
//!
//! Nothing here sends anything: the host decides where each message goes.
//!
//! [protocol]: https://a2ui.org/specification/v0.9-a2ui/

use serde_json::{Map, Value, json};

use crate::error::A2uiError;
use crate::protocol::Version;

/// A resolved user action (`action.event`), as the agent receives it.
#[derive(Clone, Debug, PartialEq)]
pub struct ActionEvent {
    /// The surface the component belongs to.
    pub surface_id: String,
    /// The component the user activated.
    pub source_component_id: String,
    /// `action.event.name`.
    pub name: String,
    /// `action.event.context` with every dynamic value resolved in the component's scope.
    pub context: Map<String, Value>,
    /// ISO 8601 UTC time of the activation.
    pub timestamp: String,
    /// v1.0 `event.userMessage`, resolved.
    pub user_message: Option<String>,
    /// The protocol version of the surface (decides the encoding).
    pub version: Version,
    /// The data-context scope of the component (`/items/3` inside a template).
    pub scope: String,
}

impl ActionEvent {
    /// The renderer → agent message in the surface's own protocol version:
    /// v0.8 `{"userAction": ...}`, v0.9/v0.9.1/v1.0 `{"version": ..., "action": ...}`.
    pub fn to_message(&self) -> Value {
        let mut body = Map::new();
        body.insert("name".into(), json!(self.name));
        body.insert("surfaceId".into(), json!(self.surface_id));
        body.insert("sourceComponentId".into(), json!(self.source_component_id));
        body.insert("timestamp".into(), json!(self.timestamp));
        body.insert("context".into(), Value::Object(self.context.clone()));
        match self.version {
            Version::V0_8 => json!({ "userAction": body }),
            Version::V1_0 => {
                if let Some(m) = &self.user_message {
                    body.insert("userMessage".into(), json!(m));
                }
                json!({ "version": "v1.0", "action": body })
            }
            v => json!({ "version": v.as_str(), "action": body }),
        }
    }
}

/// An error to report to the agent that owns a surface.
#[derive(Clone, Debug, PartialEq)]
pub struct ClientError {
    /// The surface concerned (`None` for a v1.0 error about a function call).
    pub surface_id: Option<String>,
    /// v1.0: the function call the error answers.
    pub function_call_id: Option<String>,
    /// The protocol version to encode for.
    pub version: Version,
    /// The error.
    pub error: A2uiError,
}

impl ClientError {
    /// The renderer → agent `error` message in the surface's protocol version:
    /// `VALIDATION_FAILED` with `surfaceId` and `path`, or the generic form with the error's
    /// code.
    ///
    /// - v0.8: `{"error": {...}}` (free-form; the same fields are sent).
    /// - v0.9 / v0.9.1: `surfaceId` is required in both forms (`""` when the error concerns
    ///   no known surface); a generic error may carry `functionCallId` too.
    /// - v1.0: the validation form carries `surfaceId`; the generic form carries exactly one
    ///   of `functionCallId` (preferred when the error answers a function call) or
    ///   `surfaceId`.
    pub fn to_message(&self) -> Value {
        let code = self.error.code();
        let validation = self.error.is_validation_form();
        let surface = json!(self.surface_id.clone().unwrap_or_default());
        let mut body = Map::new();
        body.insert("code".into(), json!(code));
        match (self.version, validation, &self.function_call_id) {
            (Version::V1_0, false, Some(call)) => {
                body.insert("functionCallId".into(), json!(call));
            }
            (Version::V1_0, _, _) => {
                body.insert("surfaceId".into(), surface);
            }
            (_, false, Some(call)) => {
                body.insert("surfaceId".into(), surface);
                body.insert("functionCallId".into(), json!(call));
            }
            _ => {
                body.insert("surfaceId".into(), surface);
            }
        }
        if validation {
            body.insert("path".into(), json!(self.error.path().unwrap_or_default()));
        }
        body.insert("message".into(), json!(self.error.to_string()));
        match self.version {
            Version::V0_8 => json!({ "error": body }),
            v => json!({ "version": v.as_str(), "error": body }),
        }
    }
}

/// The current time as an ISO 8601 UTC string with millisecond precision.
pub fn now_timestamp() -> String {
    let ts = jiff::Timestamp::now();
    ts.strftime("%Y-%m-%dT%H:%M:%S%.3fZ").to_string()
}

impl Event {
    /// The renderer → agent message for this event, if it is one the agent should receive
    /// (an action or an error); `None` for `OpenUrl` and `DataChanged`, which are the
    /// host's business.
    pub fn to_message(&self) -> Option<Value> {
        match self {
            Self::Action(a) => Some(a.to_message()),
            Self::Error(e) => Some(e.to_message()),
            Self::Reply(m) => Some(m.clone()),
            Self::OpenUrl { .. } | Self::DataChanged { .. } => None,
        }
    }
}

/// Something that happened during a frame, for the host to act on. The crate never sends
/// anything itself.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// The user activated a component with an `action.event`: send
    /// [`ActionEvent::to_message`] to the agent (or map it to an MCP `tools/call`).
    Action(ActionEvent),
    /// An error to report to the agent that owns the surface.
    Error(ClientError),
    /// The user asked to open a URL (an `openUrl` function call or a Markdown link). Only
    /// `http`/`https` URLs reach the host, and only from a user gesture; the host decides
    /// whether to open it.
    OpenUrl {
        /// The surface.
        surface_id: String,
        /// The component the gesture came from.
        source_component_id: String,
        /// The URL.
        url: String,
    },
    /// A message the renderer owes the agent: a v1.0 `rendererFunctionResponse` or `error`
    /// answering `callRendererFunction`, or a `callAgentFunction` for a function the
    /// renderer does not have. Send it as it is.
    Reply(Value),
    /// A user edit wrote the local data model (no agent traffic implied).
    DataChanged {
        /// The surface.
        surface_id: String,
        /// The absolute JSON pointer written.
        path: String,
        /// The new value.
        value: Value,
    },
}
