//! Where the viewer's surfaces come from. Each [`Source`] owns its renderer state (one store,
//! or one per agent session), takes in what arrived on its worker threads in
//! [`Source::poll`], draws its surfaces in [`Source::ui`] and routes their events (actions,
//! errors) to wherever it sends them: nowhere but the log (a gallery stream), standard
//! output (`--stdin`), or an agent ([`AgentSource`]: one `egui_a2ui::agent::Agent`, whatever
//! the transport: `--a2a`, `--agui`, `--mcp-url`, `--mcp`, `--agent`, the demo agent).

use std::any::Any;

use egui_a2ui::SurfaceStore;

use crate::activity::ActivityLog;

mod agent;
mod doc;
mod model_stream;
mod stdin;
mod stdio;

pub use agent::{AgentSource, Browser, ScriptStep};
pub use doc::{DocSource, summarize};
pub use model_stream::{CHUNK_BYTES, ModelStreamSource};
pub use stdin::StdinSource;
pub use stdio::finish_writer;

/// A source's connection state, drawn as a coloured dot beside its label in the gallery.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// Starting (a child process, a handshake).
    Connecting,
    /// Live; the text says with what (a server's name and version).
    Open(String),
    /// Ended normally (end of input).
    Ended(String),
    /// Failed or closed by the peer; the text says why.
    Failed(String),
}

/// A source of A2UI surfaces the viewer shows in its centre panel.
///
/// Implement it for a new transport, then hand an instance to [`crate::App::add_source`]
/// (usually from a command-line flag in [`crate::App::new`]): the gallery lists it under
/// "Live", the Data tab shows its stores, the Actions and Errors tabs what it logged.
/// Nothing here may block: connections and reads run on threads of the source's own, which
/// wake the UI with [`egui::Context::request_repaint`].
pub trait Source: Any {
    /// The name in the gallery and the heading (it may be long: both truncate it).
    fn label(&self) -> &str;

    /// The connection state.
    fn status(&self) -> Status;

    /// Take in what arrived since the last frame (replies, chunks, timers), noting
    /// messages and errors in `log`. Called once per frame, before anything is drawn.
    fn poll(&mut self, ctx: &egui::Context, log: &mut ActivityLog);

    /// Draw the centre panel: the source's own controls and its surfaces. Route the
    /// surfaces' events to where this source sends them and note them in `log`.
    fn ui(&mut self, ui: &mut egui::Ui, log: &mut ActivityLog);

    /// The stores whose surfaces this source shows, each with a label prefix (empty when
    /// there is one store), for the Data tab.
    fn stores(&self) -> Vec<(String, &SurfaceStore)>;

    /// The stream's own rejections, one line each, for the Errors tab ("This stream").
    /// Sources that log every rejection as an error themselves return nothing.
    fn stream_errors(&self) -> Vec<String> {
        Vec::new()
    }

    /// Work in flight (a connection, a call, unread input): `--frames` and `--screenshot`
    /// wait for it, within a bound.
    fn is_busy(&self) -> bool {
        false
    }
}

/// `store`'s rejections as the Errors tab prints them.
#[must_use]
pub fn store_errors(store: &SurfaceStore) -> Vec<String> {
    store
        .errors()
        .iter()
        .map(|e| {
            format!(
                "message {} · {} · {}: {}",
                e.message_index
                    .map_or_else(|| "?".into(), |i| i.to_string()),
                e.surface_id.as_deref().unwrap_or("-"),
                e.error.code(),
                e.error
            )
        })
        .collect()
}
