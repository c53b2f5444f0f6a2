//! What the user did, resolved and ready for the agent: action events, error reports, and
//! their renderer → agent encodings for each protocol version (A2UI
//! [protocol], client-to-server messages).
//!
//! Nothing here sends anything: the host decides where each message goes.
//!
//! [protocol]: https://a2ui.org/specification/v0.9-a2ui/

use serde_json::{Map, Value, json};

use crate::error::Rejected;
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

/// A component's `action` property in its typed form: what
/// [`ComponentContext::fire_action`](crate::render::ComponentContext::fire_action) does on a user
/// gesture. Dynamic values inside it are kept as sent (unresolved).
///
/// ```
/// use egui_a2ui::catalog::ComponentAction;
/// use serde_json::json;
///
/// let raw = json!({"event": {"name": "book", "context": {"id": {"path": "id"}}}});
/// let Some(ComponentAction::Event { name, context, .. }) = ComponentAction::from_value(&raw)
/// else {
///     panic!("an event action");
/// };
/// assert_eq!(name, "book");
/// assert_eq!(context["id"], json!({"path": "id"}));
/// assert_eq!(ComponentAction::from_value(&json!({"other": 1})), None);
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum ComponentAction {
    /// `{"event": {"name", "context"?, "userMessage"?}}`: sent to the agent as an
    /// [`ActionEvent`], its context resolved in the component's scope.
    Event {
        /// `event.name` (`""` when missing).
        name: String,
        /// `event.context`, unresolved (empty when missing or not an object).
        context: Map<String, Value>,
        /// v1.0 `event.userMessage`, unresolved.
        user_message: Option<Value>,
    },
    /// `{"functionCall": {"call", "args"?, ...}}`: a function run locally (`openUrl`
    /// hands its URL to the host).
    FunctionCall {
        /// `functionCall.call` (`""` when missing).
        call: String,
        /// `functionCall.args`, unresolved (empty when missing or not an object).
        args: Map<String, Value>,
        /// The whole call object (`call`, `args`, `returnType`...), as the evaluator
        /// takes it.
        function_call: Map<String, Value>,
    },
}

impl ComponentAction {
    /// Read an action from its JSON form; `None` when it has neither an `event` nor a
    /// `functionCall` object (an `event` wins when it has both).
    pub fn from_value(action: &Value) -> Option<Self> {
        let object = |key: &str| match action.get(key) {
            Some(Value::Object(m)) => Some(m),
            _ => None,
        };
        let text = |m: &Map<String, Value>, key: &str| {
            m.get(key)
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned()
        };
        let map = |m: &Map<String, Value>, key: &str| match m.get(key) {
            Some(Value::Object(c)) => c.clone(),
            _ => Map::new(),
        };
        if let Some(ev) = object("event") {
            return Some(Self::Event {
                name: text(ev, "name"),
                context: map(ev, "context"),
                user_message: ev.get("userMessage").cloned(),
            });
        }
        let fc = object("functionCall")?;
        Some(Self::FunctionCall {
            call: text(fc, "call"),
            args: map(fc, "args"),
            function_call: fc.clone(),
        })
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
#[non_exhaustive]
pub enum Event {
    /// The user activated a component with an `action.event`: send
    /// [`ActionEvent::to_message`] to the agent (or map it to an MCP `tools/call`).
    Action(ActionEvent),
    /// An error to report to the agent that owns the surface.
    Error(Rejected),
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
