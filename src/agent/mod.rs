//! One shape for every way of reaching an agent: [`AgentConnection`], and the [`Agent`]
//! handle a host (or the agent panel) holds over one.
//!
//! Each transport keeps its sans-IO core and its async client underneath; what a host needs
//! of all of them is the same: connect in the background, [`send`](Agent::send) a text turn
//! or a user action, [`cancel`](Agent::cancel) the turn in flight, [`poll`](Agent::poll) once
//! a frame for what arrived (the connection asks for a repaint whenever something does), the
//! task or run [state](Agent::state), the conversation as a [thread](Agent::thread) (user
//! text, agent text, the surfaces the agent created, errors and notices), and the
//! [`SurfaceStore`]s to draw.
//!
//! | connection | made by | reaches |
//! |---|---|---|
//! | `A2aHost` | [`Agent::connect`] `a2a+http(s)://…` (feature `a2a`) | an A2A agent with the A2UI extension |
//! | `AguiHost` | `agui+http(s)://…` (feature `agui`) | an AG-UI endpoint |
//! | `McpHost` | `mcp+http(s)://…` (feature `mcp-http`) | an MCP server over Streamable HTTP |
//! | `McpHost` | `mcp+stdio:<command>`, or a bare command (feature `mcp-http`) | an MCP server the host starts, over its stdin/stdout |
//! | [`JsonlProcess`] | `jsonl:<command>` | a process writing A2UI JSONL on stdout, reading actions on stdin |
//! | `ChatHost` | `chat+http(s)://host:port/v1#MODEL` (feature `chat`) | a model you run yourself behind an OpenAI-compatible chat API (llama.cpp, Ollama, vLLM, hosted APIs) |
//! | your own | [`Agent::new`] | anything else (another model API, a test double) |
//!
//! The handle sets each store's [`AgentOrigin`] from what the connection connected to (an A2A
//! card's name and endpoint host, an MCP server's name, an endpoint's host, a command), so the
//! renderer frames and labels every surface with it.
//!
//! ```no_run
//! # #[cfg(feature = "a2a")] {
//! use egui_a2ui::Catalog;
//! use egui_a2ui::agent::Agent;
//! use egui_a2ui::transport::{TransportOptions, Turn};
//!
//! let ctx = egui::Context::default();
//! let repaint = { let ctx = ctx.clone(); move || ctx.request_repaint() };
//! let mut agent = Agent::connect("a2a+http://127.0.0.1:10002", Catalog::basic(),
//!                                TransportOptions::default(), repaint).unwrap();
//! agent.send(Turn::Text("find pasta".into())).ok();
//! // every frame:
//! for event in agent.poll() { /* log it */ }
//! for store in agent.stores() { /* draw it */ let _ = store; }
//! # }
//! ```

mod conversation;
mod jsonl;
#[cfg(feature = "testing")]
mod scripted;
#[cfg(feature = "__transport")]
mod transports;

use std::collections::HashSet;

pub use conversation::{
    CONVERSATION_FORMAT, CONVERSATION_VERSION, MAX_CONVERSATION_BYTES, RestoreError, Restored,
    surface_messages,
};
pub use jsonl::JsonlProcess;
#[cfg(feature = "testing")]
pub use scripted::{Script, ScriptedConnection};
#[cfg(feature = "__transport")]
pub use transports::split_command;

use crate::action::ActionEvent;
use crate::model::{AgentOrigin, StoreId, SurfaceStore};
#[cfg(feature = "__transport")]
use crate::transport::TransportOptions;
use crate::transport::{Role, TaskState, TransportError, TransportEvent, Turn};

/// Where a connection stands.
#[derive(Clone, Debug, PartialEq)]
pub enum ConnectionStatus {
    /// Connecting in the background (fetching the agent card, the MCP handshake, spawning
    /// the process): turns are refused until it is ready.
    Connecting,
    /// Connected: a turn may be sent.
    Ready,
    /// A turn is in flight.
    Busy,
    /// The connection could not be made, or is gone; the surfaces already drawn stay.
    Failed(TransportError),
}

/// One way of reaching an agent (see the [module](self)). Implemented by the transports'
/// host helpers and [`JsonlProcess`]; a host implements it for anything else (its own
/// model, a test double) and wraps it in an [`Agent`].
pub trait AgentConnection {
    /// What kind of connection this is, for a status line (`A2A`, `AG-UI`, `MCP`, `JSONL`).
    fn kind(&self) -> &'static str;
    /// Who the agent is, as the connection knows it (never as the agent says): an A2A card's
    /// name with the endpoint's host, an MCP server's name, an endpoint's host, a command.
    /// `None` while unknown (still connecting).
    fn origin(&self) -> Option<AgentOrigin>;
    /// Where the connection stands.
    fn status(&self) -> ConnectionStatus;
    /// Start a turn. Refused (an error, nothing sent) while connecting or while another
    /// turn is in flight.
    fn send(&mut self, turn: Turn) -> Result<(), TransportError>;
    /// Stop the turn in flight: what the protocol has for it is sent (A2A `tasks/cancel`,
    /// closing an AG-UI run's stream, MCP `notifications/cancelled`), later replies of the
    /// turn are dropped, and the state becomes [`TaskState::Canceled`]. Nothing to stop is
    /// not an error.
    fn cancel(&mut self) -> Result<(), TransportError>;
    /// Apply what arrived since the last call; returns the new events in order.
    fn poll(&mut self) -> Vec<TransportEvent>;
    /// The task (A2A), run (AG-UI) or call (MCP) state, once there is one.
    fn state(&self) -> Option<&TaskState>;
    /// The agent's text still arriving (an AG-UI text message mid-stream), drawn as it grows
    /// and reported as a [`TransportEvent::Text`] when it ends.
    fn partial_text(&self) -> Option<&str> {
        None
    }
    /// The stores holding the agent's surfaces (one per A2A / AG-UI session, one per MCP
    /// tool call).
    fn stores(&self) -> Vec<&SurfaceStore>;
    /// The same, mutably (user edits write their data models).
    fn stores_mut(&mut self) -> Vec<&mut SurfaceStore>;
    /// Keep every JSON answer of the agent (an A2A card and stream events, AG-UI events,
    /// MCP `tools/list` and `tools/call` results) for [`Self::take_responses`]: an action
    /// log's "response" lines. Off by default; a connection with nothing of the kind
    /// ignores it.
    fn record_responses(&mut self, _on: bool) {}
    /// The answers kept since the last call, oldest first (bounded by the connection).
    fn take_responses(&mut self) -> Vec<serde_json::Value> {
        Vec::new()
    }
    /// What a later connection of the same kind needs to continue this conversation with
    /// the agent, kept by [`Agent::save`]: A2A the `contextId` (and a task waiting for
    /// input), AG-UI the `threadId` and the thread's messages. `None` (the default) when
    /// the transport has nothing to carry: an MCP server keeps its state per tool call, and
    /// a JSONL process per run.
    fn continuation(&self) -> Option<serde_json::Value> {
        None
    }
    /// Continue the conversation an earlier connection's [`Self::continuation`] described
    /// (called by [`Agent::resume_with`] before the first turn). A value this connection
    /// does not understand is ignored.
    fn continue_from(&mut self, state: &serde_json::Value) {
        let _ = state;
    }
}

/// One entry of the conversation, in the order it happened.
#[derive(Clone, Debug, PartialEq)]
pub enum ThreadEntry {
    /// The user's text turn.
    User {
        /// What they typed.
        text: String,
    },
    /// The user's action on a surface (a button, a submitted field).
    UserAction {
        /// The action's name.
        name: String,
        /// The surface it came from.
        surface_id: String,
    },
    /// The agent's prose (Markdown).
    Agent {
        /// The text.
        text: String,
    },
    /// The agent created a surface here; later messages update it in place.
    Surface {
        /// The store holding it (see [`Agent::store`]).
        store: StoreId,
        /// The surface.
        surface_id: String,
    },
    /// A turn failed; the surfaces drawn stay.
    Error {
        /// What failed.
        error: TransportError,
        /// The turn that failed, to send again (a Retry button).
        retry: Option<Box<Turn>>,
    },
    /// An AG-UI A2UI activity still being built: drawn as a skeleton with its progress (or
    /// its errors when it failed) until its surfaces arrive; updated in place.
    Activity {
        /// The activity's message id.
        activity_id: String,
        /// Its lifecycle status; `None` once its surfaces arrived.
        status: Option<crate::transport::Lifecycle>,
    },
    /// Something worth showing that did not end the turn (a rejected message, a part of the
    /// answer that could not be read).
    Notice {
        /// What happened.
        text: String,
    },
}

/// The default bound on thread entries kept (oldest text dropped first; see
/// [`Agent::with_max_entries`]).
pub const DEFAULT_MAX_ENTRIES: usize = 10_000;

/// An agent, whatever the connection: the conversation's thread on top of an
/// [`AgentConnection`] (see the [module](self)).
pub struct Agent {
    conn: Box<dyn AgentConnection>,
    thread: Vec<ThreadEntry>,
    seen: HashSet<(StoreId, String)>,
    last_turn: Option<Turn>,
    max_entries: usize,
    origin: Option<AgentOrigin>,
    /// Stores of a restored (or left) conversation: drawn read-only.
    past: Vec<SurfaceStore>,
    /// Bumped on every change of the thread.
    revision: u64,
    /// The connection kind a restored conversation was saved from.
    saved_kind: &'static str,
    /// What the saved connection needed to continue the conversation
    /// ([`AgentConnection::continuation`]), until [`Agent::resume_with`] hands it on.
    saved_continuation: Option<serde_json::Value>,
}

impl std::fmt::Debug for Agent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Agent")
            .field("kind", &self.conn.kind())
            .field("status", &self.conn.status())
            .field("entries", &self.thread.len())
            .finish_non_exhaustive()
    }
}

impl Agent {
    /// Hold `conn`.
    pub fn new(conn: impl AgentConnection + 'static) -> Self {
        Self::from_box(Box::new(conn))
    }

    /// Hold a boxed connection.
    pub fn from_box(conn: Box<dyn AgentConnection>) -> Self {
        Self {
            conn,
            thread: Vec::new(),
            seen: HashSet::new(),
            last_turn: None,
            max_entries: DEFAULT_MAX_ENTRIES,
            origin: None,
            past: Vec::new(),
            revision: 0,
            saved_kind: "agent",
            saved_continuation: None,
        }
    }

    /// Keep at most `max` thread entries (at least 16); past it the oldest text entries
    /// go first (surface entries stay while their surface lives).
    #[must_use]
    pub fn with_max_entries(mut self, max: usize) -> Self {
        self.max_entries = max.max(16);
        self
    }

    /// Reach the agent `target` names, connecting in the background:
    ///
    /// - `a2a+http://host:port/…` or `a2a+https://…`: an A2A agent (its card at that base
    ///   URL; feature `a2a`);
    /// - `agui+http(s)://…`: an AG-UI endpoint (feature `agui`);
    /// - `mcp+http(s)://…`: an MCP server over Streamable HTTP (feature `mcp-http`);
    /// - `mcp+stdio:<command line>`, or a bare command line (no `scheme:` in its first
    ///   word): an MCP server started as a child process, spoken to on its stdin/stdout
    ///   (`McpHost::spawn`; feature `mcp-http`);
    /// - `jsonl:<command line>`: a process speaking A2UI JSONL (see [`JsonlProcess`]);
    /// - `chat+http(s)://host:port/v1#MODEL`: a model behind an OpenAI-compatible chat
    ///   API, told the catalog in its system prompt, its answers streamed through the
    ///   model-text path (`transport::chat`; feature `chat`).
    ///
    /// A command line is split into words by [`split_command`] (quotes group words; no
    /// shell runs it).
    ///
    /// `repaint` is called whenever something arrives (pass `move || ctx.request_repaint()`).
    #[cfg(feature = "__transport")]
    pub fn connect(
        target: &str,
        catalog: crate::render::catalog::Catalog,
        options: TransportOptions,
        repaint: impl Fn() + Send + Sync + 'static,
    ) -> Result<Self, TransportError> {
        transports::connect(target, catalog, options, repaint).map(Self::from_box)
    }

    /// Send a turn: a text turn goes into the thread as the user's, an action as a
    /// [`ThreadEntry::UserAction`]. Refused while connecting or while a turn is in flight.
    pub fn send(&mut self, turn: Turn) -> Result<(), TransportError> {
        self.conn.send(turn.clone())?;
        self.push(match &turn {
            Turn::Text(text) => ThreadEntry::User { text: text.clone() },
            Turn::Action(a) => ThreadEntry::UserAction {
                name: a.name.clone(),
                surface_id: a.surface_id.clone(),
            },
        });
        self.last_turn = Some(turn);
        Ok(())
    }

    /// Send the user's actions (from drawing the stores): each one a turn, in order. An
    /// action refused because a turn is in flight is reported back as an error entry.
    pub fn send_actions(&mut self, actions: impl IntoIterator<Item = ActionEvent>) {
        for a in actions {
            if let Err(error) = self.send(Turn::Action(a.clone())) {
                self.push(ThreadEntry::Error {
                    error,
                    retry: Some(Box::new(Turn::Action(a))),
                });
            }
        }
    }

    /// Send the last turn again (after an error).
    pub fn retry(&mut self) -> Result<(), TransportError> {
        let turn = self
            .last_turn
            .clone()
            .ok_or_else(|| TransportError::Action("nothing to retry".into()))?;
        self.conn.send(turn)
    }

    /// Stop the turn in flight (see [`AgentConnection::cancel`]). Activities still
    /// building are marked as stopped (no more progress will come for them).
    pub fn cancel(&mut self) -> Result<(), TransportError> {
        let busy = self.conn.status() == ConnectionStatus::Busy;
        self.conn.cancel()?;
        if busy {
            self.end_building_activities("Stopped before the interface was built");
        }
        Ok(())
    }

    /// Apply what arrived since the last call, add it to the thread and return the events
    /// (for a log). Call once a frame.
    pub fn poll(&mut self) -> Vec<TransportEvent> {
        let events = self.conn.poll();
        if self.origin.is_none() {
            self.origin = self.conn.origin();
        }
        for e in &events {
            match e {
                TransportEvent::Text {
                    role: Role::Agent,
                    text,
                } if !text.trim().is_empty() => {
                    self.push(ThreadEntry::Agent { text: text.clone() });
                }
                TransportEvent::Rejected { error } => self.push(ThreadEntry::Notice {
                    text: error.to_string(),
                }),
                TransportEvent::Notice(error) => self.push(ThreadEntry::Notice {
                    text: error.to_string(),
                }),
                TransportEvent::TurnEnded { error } if self.has_building_activity() => {
                    // A turn that ended leaves nothing building: what it did not finish
                    // never will.
                    let why = match error {
                        Some(e) => e.to_string(),
                        None => "The turn ended before the interface was built".to_owned(),
                    };
                    self.end_building_activities(&why);
                    if let Some(error) = error {
                        let retry = self.last_turn.clone().map(Box::new);
                        self.push(ThreadEntry::Error {
                            error: error.clone(),
                            retry,
                        });
                    }
                }
                TransportEvent::TurnEnded { error: Some(error) } => {
                    let retry = self.last_turn.clone().map(Box::new);
                    self.push(ThreadEntry::Error {
                        error: error.clone(),
                        retry,
                    });
                }
                TransportEvent::Lifecycle {
                    activity_id,
                    status,
                } => self.note_activity(activity_id, Some(status.clone())),
                _ => {}
            }
            if matches!(e, TransportEvent::Applied { .. }) {
                // Operations arrived: activities still building have their surfaces now
                // (a failed one stays failed).
                for entry in &mut self.thread {
                    if let ThreadEntry::Activity { status, .. } = entry
                        && status.as_ref().is_some_and(|s| !s.is_failed())
                    {
                        *status = None;
                        self.revision = self.revision.wrapping_add(1);
                    }
                }
                self.note_new_surfaces();
            }
        }
        // Surfaces that arrived without an `Applied` event (a connection that applies on
        // its own) still get their place.
        if !events.is_empty() {
            self.note_new_surfaces();
        }
        if let Some(origin) = &self.origin {
            for store in self.conn.stores_mut() {
                if store.origin().is_none() {
                    store.set_origin(Some(origin.clone()));
                }
            }
        }
        events
    }

    fn has_building_activity(&self) -> bool {
        self.thread
            .iter()
            .any(|e| matches!(e, ThreadEntry::Activity { status: Some(l), .. } if !l.is_failed()))
    }

    /// Every activity still building or retrying becomes failed with `why`.
    fn end_building_activities(&mut self, why: &str) {
        for entry in &mut self.thread {
            if let ThreadEntry::Activity {
                status: Some(l), ..
            } = entry
                && !l.is_failed()
            {
                l.status = "failed".into();
                l.errors.push(why.to_owned());
                self.revision = self.revision.wrapping_add(1);
            }
        }
    }

    fn note_activity(&mut self, id: &str, new: Option<crate::transport::Lifecycle>) {
        for entry in self.thread.iter_mut().rev() {
            if let ThreadEntry::Activity {
                activity_id,
                status,
            } = entry
                && activity_id == id
            {
                *status = new;
                self.revision = self.revision.wrapping_add(1);
                return;
            }
        }
        self.push(ThreadEntry::Activity {
            activity_id: id.to_owned(),
            status: new,
        });
    }

    fn note_new_surfaces(&mut self) {
        let mut new = Vec::new();
        for store in self.conn.stores() {
            for s in store.surfaces() {
                let key = (store.id(), s.id.clone());
                if !self.seen.contains(&key) {
                    new.push(key);
                }
            }
        }
        for key in new {
            self.seen.insert(key.clone());
            self.push(ThreadEntry::Surface {
                store: key.0,
                surface_id: key.1,
            });
        }
    }

    fn push(&mut self, entry: ThreadEntry) {
        self.revision = self.revision.wrapping_add(1);
        if self.thread.len() >= self.max_entries {
            // Drop the oldest entry that is not a surface (surfaces are the answer).
            let at = self
                .thread
                .iter()
                .position(|e| !matches!(e, ThreadEntry::Surface { .. }))
                .unwrap_or(0);
            self.thread.remove(at);
        }
        self.thread.push(entry);
    }

    /// The conversation so far, oldest first.
    pub fn thread(&self) -> &[ThreadEntry] {
        &self.thread
    }

    /// Where the connection stands.
    pub fn status(&self) -> ConnectionStatus {
        self.conn.status()
    }

    /// Whether a turn is in flight.
    pub fn is_busy(&self) -> bool {
        self.conn.status() == ConnectionStatus::Busy
    }

    /// The task or run state.
    pub fn state(&self) -> Option<&TaskState> {
        self.conn.state()
    }

    /// The agent's text still arriving.
    pub fn partial_text(&self) -> Option<&str> {
        self.conn.partial_text()
    }

    /// What kind of connection this is (`A2A`, `AG-UI`, `MCP`, `JSONL`, or the host's).
    pub fn kind(&self) -> &'static str {
        self.conn.kind()
    }

    /// Who the agent is, as the connection knows it.
    pub fn origin(&self) -> Option<AgentOrigin> {
        self.origin.clone().or_else(|| self.conn.origin())
    }

    /// The stores holding the agent's surfaces: the [past](Self::is_past) ones of a
    /// restored conversation first, then the connection's.
    pub fn stores(&self) -> Vec<&SurfaceStore> {
        self.past.iter().chain(self.conn.stores()).collect()
    }

    /// The stores, mutably.
    pub fn stores_mut(&mut self) -> Vec<&mut SurfaceStore> {
        self.past.iter_mut().chain(self.conn.stores_mut()).collect()
    }

    /// The store with this id (a [`ThreadEntry::Surface`]'s).
    pub fn store(&self, id: StoreId) -> Option<&SurfaceStore> {
        self.past
            .iter()
            .find(|s| s.id() == id)
            .or_else(|| self.conn.stores().into_iter().find(|s| s.id() == id))
    }

    /// The store with this id, mutably.
    pub fn store_mut(&mut self, id: StoreId) -> Option<&mut SurfaceStore> {
        if let Some(i) = self.past.iter().position(|s| s.id() == id) {
            return self.past.get_mut(i);
        }
        self.conn.stores_mut().into_iter().find(|s| s.id() == id)
    }

    /// Whether this store holds surfaces of a restored conversation: drawn read-only and
    /// marked as past (their actions are not sent).
    pub fn is_past(&self, store: StoreId) -> bool {
        self.past.iter().any(|s| s.id() == store)
    }

    /// Whether the agent only shows a [restored](Self::restore) conversation (no live
    /// connection: every turn is refused until [`Self::resume_with`]).
    pub fn is_read_only(&self) -> bool {
        self.conn.kind() == "Restored"
    }

    /// Bumped on every change of the [thread](Self::thread) (an entry added, dropped or
    /// updated in place): a drawer caching per-entry layout checks it.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// The connection underneath.
    pub fn connection(&self) -> &dyn AgentConnection {
        self.conn.as_ref()
    }

    /// The connection underneath, mutably.
    pub fn connection_mut(&mut self) -> &mut dyn AgentConnection {
        self.conn.as_mut()
    }
}

#[cfg(test)]
mod tests;
