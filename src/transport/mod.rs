//! The turn, event and error types every [agent connection](crate::agent) shares (always
//! built), and the transports (behind their features).
//!
//! Reaching agents over the transports they speak: [A2A](a2a) with the A2UI extension
//! (feature `a2a`), [AG-UI](agui) (feature `agui`) and [MCP over Streamable HTTP](mcp_http)
//! (feature `mcp-http`).
//!
//! Each transport is split the way the [MCP bridge](crate::mcp) is:
//! - a **sans-IO core** (`A2aSession`, `AguiSession`, the MCP bridge's `SessionHub`): it
//!   turns the transport's payloads into A2UI messages applied to its own
//!   [`SurfaceStore`], and the user's turns ([`Turn`]: text, or an [`ActionEvent`]) into the
//!   transport's request ([`HttpRequest`]). No network, no runtime: unit-tested as is.
//! - an **async client** (`A2aClient`, `AguiClient`, `McpClient`) for hosts that want the
//!   crate to do the I/O (reqwest on rustls; tokio).
//! - a **host helper** (`a2a::A2aHost`, `agui::AguiHost`, `mcp_http::McpHost`, on `host::HttpHost`) that runs the I/O
//!   on a background runtime and talks to the UI thread over channels, asking for a repaint
//!   on every reply, so an eframe app needs a few lines.
//!
//! Everything a turn does is reported as [`TransportEvent`]s (the host's log, the CLI's JSON
//! lines); a turn that fails ends with a [`TransportError`]. Surfaces already drawn stay,
//! and the next turn starts clean.

// The helpers here serve every transport; a build with only some of the three features
// leaves some of them unused.
#![cfg_attr(
    not(all(feature = "a2a", feature = "agui", feature = "mcp-http")),
    allow(dead_code)
)]

use serde_json::{Map, Value, json};

use crate::action::ActionEvent;
use crate::error::A2uiError;
use crate::model::{Applied, SurfaceStore};

#[cfg(feature = "a2a")]
pub mod a2a;
#[cfg(feature = "agui")]
pub mod agui;
mod auth;
#[cfg(feature = "chat")]
pub mod chat;
mod click;
#[cfg(feature = "__transport")]
pub mod host;
#[cfg(feature = "__transport")]
mod http;
#[cfg(feature = "mcp-http")]
pub mod mcp_http;
#[cfg(feature = "mcp-http")]
pub mod oauth;
#[cfg(feature = "agui")]
mod patch;
mod redact;
pub mod sse;

pub use auth::{
    AuthChallenge, CredentialProvider, CredentialRequest, Credentials, Secret, is_secret_header,
};
pub use click::{click, find_action};
#[cfg(feature = "__transport")]
pub use http::{HttpClient, HttpRequest, ResponseKind, TransportOptions};
pub use redact::{redact_url, redact_urls_in};

/// Why a turn (or one part of it) failed. Every fault a peer can cause ends here: the host
/// shows it, keeps the surfaces it has, and can start the next turn.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum TransportError {
    /// The connection could not be made (refused, DNS, TLS).
    #[error("cannot connect to {url}: {message}")]
    Connect {
        /// The address.
        url: String,
        /// What failed.
        message: String,
    },
    /// The server answered with an HTTP error status.
    #[error("HTTP {status} from {url}: {body}")]
    Http {
        /// The status code.
        status: u16,
        /// The address.
        url: String,
        /// The start of the response body.
        body: String,
    },
    /// The server refused the credentials (`401`, or `403` for a token without the scope
    /// needed), after the credential provider was asked once more. The challenge says what
    /// it wants (scheme, realm, `resource_metadata` for MCP): ask the user, set the
    /// credentials, and connect again. Surfaces already drawn stay.
    #[error("HTTP {status} from {url}: not authorized{}", challenge.as_ref().map(|c| format!(" (wants {c})")).unwrap_or_default())]
    Unauthorized {
        /// `401` or `403`.
        status: u16,
        /// The address.
        url: String,
        /// The first `WWW-Authenticate` challenge, when there was one (boxed: the error
        /// stays small for every other variant).
        challenge: Option<Box<auth::AuthChallenge>>,
    },
    /// The OAuth 2.1 authorization of an MCP server failed (no authorization server found,
    /// registration refused, the browser step not completed, the code or refresh token
    /// refused). No token, code or secret is in the message.
    #[error("OAuth for {url} failed: {message}")]
    OAuth {
        /// The MCP endpoint.
        url: String,
        /// What failed.
        message: String,
    },
    /// The response stopped before it was complete (the peer went away mid-stream).
    #[error("the response from {url} broke off: {message}")]
    Interrupted {
        /// The address.
        url: String,
        /// What happened.
        message: String,
    },
    /// Nothing arrived for longer than the idle timeout.
    #[error("no data from {url} for {seconds:.1} s (stalled stream)")]
    Timeout {
        /// The address.
        url: String,
        /// The idle timeout, in seconds.
        seconds: f64,
    },
    /// A JSON-RPC error response.
    #[error("JSON-RPC error {code}: {message}")]
    JsonRpc {
        /// The error code (`-32602` invalid params, `-32009` version not supported, ...).
        code: i64,
        /// The error message.
        message: String,
    },
    /// The event stream broke its format (not UTF-8, say).
    #[error("malformed event stream: {0}")]
    MalformedSse(String),
    /// A payload that is not the JSON the transport promises.
    #[error("malformed payload: {0}")]
    MalformedPayload(String),
    /// Something over one of the [`Limits`](crate::limits::Limits) caps; it was dropped.
    #[error("{what} over the {limit}-byte limit; dropped")]
    TooLarge {
        /// What was too large.
        what: &'static str,
        /// The cap.
        limit: usize,
    },
    /// A data part that is not A2UI (another MIME type); it was skipped.
    #[error("a data part of type {mime:?} is not A2UI; skipped")]
    NotA2ui {
        /// Its MIME type, when it had one.
        mime: Option<String>,
    },
    /// The agent does not speak what we need (no A2UI extension on its card, no common
    /// version, an unknown dialect).
    #[error("{0}")]
    Unsupported(String),
    /// The AG-UI run ended with `RUN_ERROR`.
    #[error("run error{}: {message}", code.as_deref().map(|c| format!(" {c}")).unwrap_or_default())]
    RunError {
        /// `code`, when given.
        code: Option<String>,
        /// `message`.
        message: String,
    },
    /// An AG-UI JSON patch that does not apply to the activity's content.
    #[error("ACTIVITY_DELTA for {message_id} does not apply: {message}")]
    Patch {
        /// The activity message.
        message_id: String,
        /// Why.
        message: String,
    },
    /// An AG-UI JSON patch refused because applying it would pass one of the
    /// [`Limits`](crate::limits::Limits) caps (`max_patch_ops`, `max_message_bytes` of content,
    /// `max_json_depth`, or the measuring work of one patch); the activity is unchanged.
    #[error("ACTIVITY_DELTA for {message_id} refused: over {what} ({limit})")]
    PatchLimit {
        /// The activity message.
        message_id: String,
        /// The cap: `max_patch_ops`, `max_message_bytes`, `max_json_depth` or `patch work`.
        what: &'static str,
        /// Its value.
        limit: usize,
    },
    /// The MCP client failed (initialize, `tools/list`, `tools/call`).
    #[error("MCP: {0}")]
    Mcp(String),
    /// The action cannot be sent (no such component, its checks fail, no action).
    #[error("{0}")]
    Action(String),
    /// The background runtime is gone.
    #[error("the transport thread is gone")]
    Closed,
}

/// What the user does in one turn.
#[derive(Clone, Debug, PartialEq)]
pub enum Turn {
    /// A user message (the prompt box).
    Text(String),
    /// A user action on a surface.
    Action(ActionEvent),
}

/// Who said a transcript line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The user.
    User,
    /// The agent.
    Agent,
}

/// One line of the conversation's text.
#[derive(Clone, Debug, PartialEq)]
pub struct TranscriptEntry {
    /// Who.
    pub role: Role,
    /// The text (grows while an AG-UI text message streams).
    pub text: String,
    /// The transport's message id, when it has one.
    pub message_id: Option<String>,
}

/// Where the conversation stands, as the host shows it.
#[derive(Clone, Debug, PartialEq)]
pub enum TaskState {
    /// A2A `submitted`.
    Submitted,
    /// A2A `working`; AG-UI between `RUN_STARTED` and `RUN_FINISHED`.
    Working,
    /// A2A `input-required`: the agent waits for the user.
    InputRequired,
    /// A2A `auth-required`.
    AuthRequired,
    /// A2A `completed`; AG-UI `RUN_FINISHED`.
    Completed,
    /// A2A `failed`; AG-UI `RUN_ERROR`.
    Failed,
    /// A2A `canceled`.
    Canceled,
    /// A2A `rejected`.
    Rejected,
    /// A state this crate does not know, as sent.
    Other(String),
}

impl TaskState {
    /// Read an A2A state in either dialect (`input-required`, `TASK_STATE_INPUT_REQUIRED`).
    pub fn from_a2a(s: &str) -> Self {
        let t = s.strip_prefix("TASK_STATE_").unwrap_or(s);
        match t.to_ascii_lowercase().replace('_', "-").as_str() {
            "submitted" => Self::Submitted,
            "working" => Self::Working,
            "input-required" => Self::InputRequired,
            "auth-required" => Self::AuthRequired,
            "completed" => Self::Completed,
            "failed" => Self::Failed,
            "canceled" | "cancelled" => Self::Canceled,
            "rejected" => Self::Rejected,
            _ => Self::Other(s.to_owned()),
        }
    }

    /// The A2A 0.3 spelling (`input-required`), also used in events.
    pub fn as_str(&self) -> &str {
        match self {
            Self::Submitted => "submitted",
            Self::Working => "working",
            Self::InputRequired => "input-required",
            Self::AuthRequired => "auth-required",
            Self::Completed => "completed",
            Self::Failed => "failed",
            Self::Canceled => "canceled",
            Self::Rejected => "rejected",
            Self::Other(s) => s,
        }
    }

    /// Whether the task is over (a new turn starts a new task).
    pub fn is_terminal(&self) -> bool {
        matches!(
            self,
            Self::Completed | Self::Failed | Self::Canceled | Self::Rejected
        )
    }
}

/// One thing that happened on the wire or in the store, in order.
#[derive(Clone, Debug, PartialEq)]
pub enum TransportEvent {
    /// A request went out.
    Request {
        /// The method (`message/stream`, `SendStreamingMessage`, `RunAgentInput`,
        /// `tools/call`).
        method: String,
        /// The body (or params) as sent.
        body: Value,
    },
    /// A text line for the transcript (complete; AG-UI text is reported when it ends).
    Text {
        /// Who.
        role: Role,
        /// The text.
        text: String,
    },
    /// A2UI messages were applied to the store.
    Applied {
        /// How many.
        count: usize,
        /// The surfaces they touched, in order, without repeats.
        surfaces: Vec<String>,
    },
    /// An A2UI message the store rejected (the rest still applied).
    Rejected {
        /// The error.
        error: A2uiError,
    },
    /// The task (A2A) or run (AG-UI) state changed.
    State {
        /// The new state.
        state: TaskState,
        /// The A2A task id or AG-UI run id.
        task_id: Option<String>,
        /// The A2A context id or AG-UI thread id.
        context_id: Option<String>,
    },
    /// An AG-UI A2UI activity's lifecycle status (building, retrying, failed).
    Lifecycle {
        /// The activity message id.
        activity_id: String,
        /// The status.
        status: Lifecycle,
    },
    /// Something went wrong with one part of the response; the rest goes on.
    Notice(TransportError),
    /// The turn's response ended (cleanly, or with the error given).
    TurnEnded {
        /// The error that ended it, if any.
        error: Option<TransportError>,
    },
}

/// The lifecycle status `@ag-ui/a2ui-middleware` sends before an activity has its
/// operations: what to show in place of the surfaces that are not there yet.
#[derive(Clone, Debug, PartialEq)]
pub struct Lifecycle {
    /// `building`, `retrying` or `failed` (or another status, as sent).
    pub status: String,
    /// `progressTokens`: how much of the UI the model has written.
    pub progress_tokens: Option<u64>,
    /// `attempt` (retries).
    pub attempt: Option<u64>,
    /// `errors`, as text.
    pub errors: Vec<String>,
}

impl Lifecycle {
    /// Read `{status, progressTokens?, attempt?, errors?}`.
    pub fn from_content(content: &Value) -> Option<Self> {
        let status = content.get("status")?.as_str()?.to_owned();
        let errors = match content.get("errors") {
            Some(Value::Array(a)) => a
                .iter()
                .map(|e| match e {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                })
                .collect(),
            Some(Value::String(s)) => vec![s.clone()],
            _ => Vec::new(),
        };
        Some(Self {
            status,
            progress_tokens: content.get("progressTokens").and_then(as_count),
            attempt: content.get("attempt").and_then(as_count),
            errors,
        })
    }

    /// Whether the activity gave up (`failed`).
    pub fn is_failed(&self) -> bool {
        self.status == "failed"
    }
}

fn as_count(v: &Value) -> Option<u64> {
    v.as_u64()
        .or_else(|| v.as_f64().filter(|f| *f >= 0.0).map(|f| f as u64))
}

impl TransportEvent {
    /// The event as one JSON object (`{"event": kind, ...}`), the `a2ui_agent` CLI's line.
    pub fn to_json(&self) -> Value {
        match self {
            Self::Request { method, body } => {
                json!({"event": "request", "method": method, "body": body})
            }
            Self::Text { role, text } => json!({
                "event": "text",
                "role": match role { Role::User => "user", Role::Agent => "agent" },
                "text": text,
            }),
            Self::Applied { count, surfaces } => {
                json!({"event": "applied", "count": count, "surfaces": surfaces})
            }
            Self::Rejected { error } => json!({
                "event": "rejected", "code": error.code(), "message": error.to_string(),
            }),
            Self::State {
                state,
                task_id,
                context_id,
            } => json!({
                "event": "state", "state": state.as_str(),
                "taskId": task_id, "contextId": context_id,
            }),
            Self::Lifecycle {
                activity_id,
                status,
            } => json!({
                "event": "lifecycle", "activityId": activity_id, "status": status.status,
                "progressTokens": status.progress_tokens, "attempt": status.attempt,
                "errors": status.errors,
            }),
            Self::Notice(e) => json!({"event": "notice", "error": error_json(e)}),
            Self::TurnEnded { error } => json!({
                "event": "turnEnded",
                "error": error.as_ref().map(error_json),
            }),
        }
    }
}

/// A [`TransportError`] as `{"kind", "message"}`.
pub fn error_json(e: &TransportError) -> Value {
    let kind = match e {
        TransportError::Connect { .. } => "connect",
        TransportError::Http { .. } => "http",
        TransportError::Unauthorized { .. } => "unauthorized",
        TransportError::OAuth { .. } => "oauth",
        TransportError::Interrupted { .. } => "interrupted",
        TransportError::Timeout { .. } => "timeout",
        TransportError::JsonRpc { .. } => "jsonRpc",
        TransportError::MalformedSse(_) => "malformedSse",
        TransportError::MalformedPayload(_) => "malformedPayload",
        TransportError::TooLarge { .. } => "tooLarge",
        TransportError::NotA2ui { .. } => "notA2ui",
        TransportError::Unsupported(_) => "unsupported",
        TransportError::RunError { .. } => "runError",
        TransportError::Patch { .. } => "patch",
        TransportError::PatchLimit { .. } => "patchLimit",
        TransportError::Mcp(_) => "mcp",
        TransportError::Action(_) => "action",
        TransportError::Closed => "closed",
    };
    let mut out = json!({"kind": kind, "message": e.to_string()});
    if let TransportError::Unauthorized {
        status, challenge, ..
    } = e
    {
        out["status"] = json!(status);
        out["challenge"] = challenge.as_ref().map_or(Value::Null, |c| {
            json!({
                "scheme": c.scheme, "realm": c.realm, "error": c.error,
                "resourceMetadata": c.resource_metadata.as_deref().map(redact_url),
                "scope": c.scope,
            })
        });
    }
    out
}

/// Apply A2UI messages to `store` in order (a failing one is reported and skipped, the list
/// is not transactional), and describe what happened.
pub(crate) fn apply_messages(
    store: &mut SurfaceStore,
    messages: impl IntoIterator<Item = Value>,
    events: &mut Vec<TransportEvent>,
) {
    let mut count = 0;
    let mut surfaces: Vec<String> = Vec::new();
    for m in messages {
        match store.apply(m) {
            Applied::Rejected(r) => events.push(TransportEvent::Rejected { error: r.error }),
            Applied::Created { surface_id }
            | Applied::Changed { surface_id }
            | Applied::Deleted { surface_id } => {
                count += 1;
                if !surfaces.contains(&surface_id) {
                    surfaces.push(surface_id);
                }
            }
            _ => count += 1, // an RPC answered or settled
        }
    }
    if count > 0 {
        events.push(TransportEvent::Applied { count, surfaces });
    }
}

/// Whether a MIME type names A2UI: `application/a2ui+json` or the deprecated
/// `application/json+a2ui` (parameters and case ignored).
pub fn is_a2ui_mime(mime: &str) -> bool {
    let base = mime.split(';').next().unwrap_or_default().trim();
    base.eq_ignore_ascii_case("application/a2ui+json")
        || base.eq_ignore_ascii_case("application/json+a2ui")
}

/// A2UI data as messages: one message object, or an array of them.
pub(crate) fn data_messages(data: Value) -> Vec<Value> {
    match data {
        Value::Array(a) => a,
        other => vec![other],
    }
}

/// Turn integral doubles (`2.0`) back into integers, at any depth: A2A 1.0 agents send every
/// number as a protobuf double, and A2UI reads counts and indices as integers.
pub fn integral_doubles_to_ints(v: &mut Value) {
    const MAX_SAFE: f64 = 9_007_199_254_740_991.0;
    match v {
        Value::Number(n) if !n.is_i64() && !n.is_u64() => {
            if let Some(f) = n.as_f64()
                && f.fract() == 0.0
                && f.abs() <= MAX_SAFE
            {
                *v = json!(f as i64);
            }
        }
        Value::Array(a) => a.iter_mut().for_each(integral_doubles_to_ints),
        Value::Object(m) => m.values_mut().for_each(integral_doubles_to_ints),
        _ => {}
    }
}

/// The longest id a saved conversation may carry back to an agent (a context, task or
/// thread id).
#[cfg(any(feature = "a2a", feature = "agui"))]
pub(crate) const MAX_CONTINUATION_ID: usize = 1024;

/// A non-empty string id `key` of a saved continuation, within [`MAX_CONTINUATION_ID`].
#[cfg(any(feature = "a2a", feature = "agui"))]
pub(crate) fn continuation_id(state: &Value, key: &str) -> Option<String> {
    state
        .get(key)
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty() && s.len() <= MAX_CONTINUATION_ID)
        .map(str::to_owned)
}

/// A fresh id for a message or run: unique in this process, time-based across processes.
pub(crate) fn fresh_id(prefix: &str) -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!("{prefix}-{t:x}-{n}")
}

/// The metadata every renderer → agent message carries: the capabilities of `catalog`
/// keyed by version, and the data models of this store's `sendDataModel` surfaces (every
/// surface in a transport session's store comes from that session's agent).
pub(crate) fn outgoing_metadata(
    catalog: &crate::render::catalog::Catalog,
    store: &SurfaceStore,
) -> Map<String, Value> {
    crate::capabilities::outgoing_metadata(catalog, store, store.surfaces().map(|s| s.id.clone()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn task_states_read_in_both_dialects() {
        assert_eq!(
            TaskState::from_a2a("input-required"),
            TaskState::InputRequired
        );
        assert_eq!(
            TaskState::from_a2a("TASK_STATE_INPUT_REQUIRED"),
            TaskState::InputRequired
        );
        assert_eq!(
            TaskState::from_a2a("TASK_STATE_CANCELED"),
            TaskState::Canceled
        );
        assert!(TaskState::from_a2a("completed").is_terminal());
        assert_eq!(
            TaskState::from_a2a("bogus"),
            TaskState::Other("bogus".into())
        );
    }

    #[test]
    fn both_mime_spellings_are_a2ui() {
        assert!(is_a2ui_mime("application/a2ui+json"));
        assert!(is_a2ui_mime("application/json+a2ui; charset=utf-8"));
        assert!(!is_a2ui_mime("application/json"));
    }

    #[test]
    fn integral_doubles_become_integers_and_fractions_stay() {
        let mut v: Value =
            serde_json::from_str(r#"{"a": 2.0, "b": [1.5, 3.0], "c": "4.0"}"#).unwrap();
        integral_doubles_to_ints(&mut v);
        assert_eq!(v, json!({"a": 2, "b": [1.5, 3], "c": "4.0"}));
        assert!(v["a"].is_i64());
    }

    #[test]
    fn lifecycle_reads_the_middleware_fields() {
        let l = Lifecycle::from_content(
            &json!({"status": "retrying", "attempt": 2.0, "errors": ["bad json"]}),
        )
        .unwrap();
        assert_eq!(l.status, "retrying");
        assert_eq!(l.attempt, Some(2));
        assert_eq!(l.errors, ["bad json"]);
        assert!(Lifecycle::from_content(&json!({"a2ui_operations": []})).is_none());
    }
}
