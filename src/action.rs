//! What the user did, resolved and ready for the agent: action events, error reports, and
//! their renderer → agent encodings for each protocol version (SPEC.md §3).
//!
//! Nothing here sends anything: the host decides where each message goes.

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
    /// The renderer → agent `error` message: `VALIDATION_FAILED` with `path`, or the
    /// generic form with the error's code.
    pub fn to_message(&self) -> Value {
        let mut body = Map::new();
        let code = self.error.code();
        body.insert("code".into(), json!(code));
        if let Some(s) = &self.surface_id {
            body.insert("surfaceId".into(), json!(s));
        } else if let Some(f) = &self.function_call_id {
            body.insert("functionCallId".into(), json!(f));
        } else {
            body.insert("surfaceId".into(), json!(""));
        }
        if code == crate::error::VALIDATION_FAILED {
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
