//! The activity log: every renderer → agent message and `tools/call` a source sent (or would
//! send), and every error, in arrival order. Sources write to it; the Actions and Errors tabs
//! read it.

use egui_a2ui::{ActionEvent, Event};
use serde_json::Value;

/// At most this many log entries are kept (the oldest go first).
pub const MAX_LOG: usize = 2000;

/// What a log entry records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogKind {
    /// A renderer → agent A2UI message.
    A2ui,
    /// A `tools/call` request (sent, or the one an MCP host would send).
    ToolsCall,
    /// A tool's result.
    Result,
    /// Anything else worth a line (a connection, a URL not opened, a task state).
    Note,
    /// A request to a network agent (A2A `message/stream`, AG-UI `RunAgentInput`, MCP
    /// `tools/call`), as sent.
    Request,
    /// One answer of a network agent (an agent card, a stream event, a result), as received.
    Response,
}

impl LogKind {
    /// The label shown in the Actions tab: `a2ui`, `tools/call`, `result`, `note`,
    /// `request`, `response`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::A2ui => "a2ui",
            Self::ToolsCall => "tools/call",
            Self::Result => "result",
            Self::Note => "note",
            Self::Request => "request",
            Self::Response => "response",
        }
    }
}

/// One line of the action log.
#[derive(Clone, Debug)]
pub struct LogEntry {
    /// Time of day (`HH:MM:SS.mmm`, UTC).
    pub time: String,
    /// What it records.
    pub kind: LogKind,
    /// Short description.
    pub title: String,
    /// The message, pretty-printed.
    pub json: String,
}

/// One error.
#[derive(Clone, Debug)]
pub struct ErrorEntry {
    /// Time of day (`HH:MM:SS.mmm`, UTC).
    pub time: String,
    /// Where it came from (`mcp`, `stdin`, `gallery`, a session id, ...).
    pub source: String,
    /// What happened.
    pub text: String,
}

/// The action log and the error list.
#[derive(Clone, Debug, Default)]
pub struct ActivityLog {
    entries: Vec<LogEntry>,
    errors: Vec<ErrorEntry>,
}

/// The time of day, `HH:MM:SS.mmm`.
fn now() -> String {
    let ts = egui_a2ui::now_timestamp();
    ts.get(11..23).unwrap_or(&ts).to_owned()
}

/// `v` pretty-printed.
#[must_use]
pub fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_else(|_| v.to_string())
}

impl ActivityLog {
    /// An empty log.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Record a message.
    pub fn log(&mut self, kind: LogKind, title: impl Into<String>, v: &Value) {
        self.entries.push(LogEntry {
            time: now(),
            kind,
            title: title.into(),
            json: pretty(v),
        });
        if self.entries.len() > MAX_LOG {
            self.entries.drain(..self.entries.len() - MAX_LOG);
        }
    }

    /// Record an error from `source`.
    pub fn error(&mut self, source: &str, text: impl Into<String>) {
        self.errors.push(ErrorEntry {
            time: now(),
            source: source.to_owned(),
            text: text.into(),
        });
    }

    /// Record the A2UI `action` message of a user action.
    pub fn log_action(&mut self, action: &ActionEvent) {
        self.log(
            LogKind::A2ui,
            format!("action {} from {}", action.name, action.source_component_id),
            &action.to_message(),
        );
    }

    /// Record an event every source treats alike: a URL the viewer does not open, a reply to
    /// the agent (sources route actions and errors themselves).
    pub fn log_other_event(&mut self, e: &Event) {
        match e {
            Event::OpenUrl { url, .. } => {
                self.log(
                    LogKind::Note,
                    format!("open {url} (not opened)"),
                    &serde_json::json!({"openUrl": url}),
                );
            }
            Event::Reply(m) => self.log(LogKind::A2ui, "reply to the agent", m),
            _ => {}
        }
    }

    /// The log, oldest first.
    #[must_use]
    pub fn entries(&self) -> &[LogEntry] {
        &self.entries
    }

    /// The errors, oldest first.
    #[must_use]
    pub fn errors(&self) -> &[ErrorEntry] {
        &self.errors
    }

    /// Forget the log (the errors stay).
    pub fn clear_entries(&mut self) {
        self.entries.clear();
    }
}
