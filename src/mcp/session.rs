//! Sessions: one per originating agent tool call (one "View instance" in MCP Apps terms),
//! owning the surfaces its results create, turning their actions into `tools/call`
//! requests to the same server, and applying the results of those calls back to itself.
//!
//! Each session has its own [`SurfaceStore`]. Surface ids are chosen by the server and
//! repeat from turn to turn (every `search_flights` call may create surface `flights`);
//! a store per session keeps successive turns independent without rewriting ids inside
//! payloads, and the actions a surface emits carry the id the server chose.

use std::sync::Arc;

use indexmap::IndexMap;
use serde_json::{Map, Value, json};

use super::McpError;
use super::split::{SplitPolicy, SplitResult, split_tool_result};
use super::tools::ToolDirectory;
use crate::action::ActionEvent;
use crate::error::A2uiError;
use crate::model::{Applied, SurfaceStore};

/// Notice code: the action was not sent (tool unknown on this server, not app-visible, or
/// no tool mapped). The same constant as [`codes::MCP_TOOL_NOT_ALLOWED`](crate::error::codes).
pub const TOOL_NOT_ALLOWED: &str = crate::error::codes::MCP_TOOL_NOT_ALLOWED;
/// Notice code: the action's tool call failed (`isError`, or a transport/JSON-RPC error).
/// The same constant as [`codes::MCP_TOOL_ERROR`](crate::error::codes).
pub const TOOL_ERROR: &str = crate::error::codes::MCP_TOOL_ERROR;

/// Where a session's originating tool call stands.
#[derive(Clone, Debug, PartialEq)]
pub enum SessionState {
    /// Opened, nothing received yet.
    Pending,
    /// The tool's arguments are known, its result is not: show a loading state.
    Loading {
        /// The complete tool arguments.
        arguments: Value,
    },
    /// The result arrived and was applied.
    Ready,
    /// The tool failed (`isError`, or the call itself failed): show an error state.
    Error {
        /// What to show (the result's text, or the failure).
        message: String,
    },
    /// The host or the agent cancelled the call.
    Cancelled {
        /// Why, when known.
        reason: Option<String>,
    },
}

/// An error shown on one surface (a refused action, a failed action call).
#[derive(Clone, Debug, PartialEq)]
pub struct SurfaceNotice {
    /// The surface.
    pub surface_id: String,
    /// [`TOOL_NOT_ALLOWED`] or [`TOOL_ERROR`].
    pub code: &'static str,
    /// What to show.
    pub message: String,
}

/// The tool call an action maps to.
#[derive(Clone, Debug, PartialEq)]
pub struct MappedCall {
    /// The tool name.
    pub name: String,
    /// The tool arguments.
    pub arguments: Map<String, Value>,
}

/// A host's action → tool-call mapping closure.
pub type ActionMapFn = dyn Fn(&ActionEvent) -> Option<MappedCall> + Send + Sync;

/// How an action becomes a `tools/call`.
#[derive(Clone, Default)]
pub enum ActionMapping {
    /// Tool = the action name, arguments = the resolved action context (A2UI over MCP Apps
    /// v1.0, `@a2ui/web_core`'s dispatcher). The default.
    #[default]
    DirectByName,
    /// One fixed tool (`a2ui_action` by [`Self::single_tool`]) called with the whole
    /// renderer → agent envelope of [`ActionEvent::to_message`] as arguments.
    SingleTool {
        /// The tool name.
        tool: String,
    },
    /// A host closure; `None` means "no tool for this action" (the surface gets an error).
    Custom(Arc<ActionMapFn>),
}

impl std::fmt::Debug for ActionMapping {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::DirectByName => f.write_str("DirectByName"),
            Self::SingleTool { tool } => f.debug_struct("SingleTool").field("tool", tool).finish(),
            Self::Custom(_) => f.write_str("Custom(..)"),
        }
    }
}

impl ActionMapping {
    /// [`Self::SingleTool`] with the conventional tool name `a2ui_action`.
    pub fn single_tool() -> Self {
        Self::SingleTool {
            tool: "a2ui_action".to_owned(),
        }
    }

    /// [`Self::Custom`] from a closure.
    pub fn custom(f: impl Fn(&ActionEvent) -> Option<MappedCall> + Send + Sync + 'static) -> Self {
        Self::Custom(Arc::new(f))
    }

    /// The call an action maps to under this policy.
    pub fn map(&self, event: &ActionEvent) -> Option<MappedCall> {
        match self {
            Self::DirectByName => Some(MappedCall {
                name: event.name.clone(),
                arguments: event.context.clone(),
            }),
            Self::SingleTool { tool } => Some(MappedCall {
                name: tool.clone(),
                arguments: match event.to_message() {
                    Value::Object(m) => m,
                    _ => Map::new(),
                },
            }),
            Self::Custom(f) => f(event),
        }
    }
}

/// Identifies one action-triggered call: the session that issued it and its sequence
/// number there. Its result must come back with it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CallRef {
    /// The issuing session (the originating agent tool call id).
    pub session_id: String,
    /// Sequence number within the session.
    pub seq: u64,
}

/// A `tools/call` the host should send on the session's server.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolCallRequest {
    /// Hand this back with the result ([`AppSession::on_action_result`]).
    pub call_ref: CallRef,
    /// The server to send it to (the one that produced the surface).
    pub server_id: String,
    /// The surface whose action caused it.
    pub surface_id: String,
    /// `params.name`.
    pub name: String,
    /// `params.arguments`.
    pub arguments: Map<String, Value>,
    /// `params._meta` (host request metadata, plus the data models of this session's
    /// `sendDataModel` surfaces). Empty means none.
    pub meta: Map<String, Value>,
}

impl ToolCallRequest {
    /// The `tools/call` params: `{"name", "arguments", "_meta"?}`.
    pub fn params(&self) -> Value {
        let mut p = Map::new();
        p.insert("name".into(), json!(self.name));
        p.insert("arguments".into(), Value::Object(self.arguments.clone()));
        if !self.meta.is_empty() {
            p.insert("_meta".into(), Value::Object(self.meta.clone()));
        }
        Value::Object(p)
    }
}

/// What applying one tool result did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ResultOutcome {
    /// The split result: model-visible blocks, user-only blocks, payloads, dropped blocks.
    pub split: SplitResult,
    /// A2UI messages applied.
    pub applied: usize,
    /// Errors met while applying (also recorded in the session's store).
    pub errors: Vec<A2uiError>,
    /// For an action result, the surface whose action caused the call.
    pub surface_id: Option<String>,
}

/// One session: the surfaces of one originating agent tool call.
#[derive(Debug)]
pub struct AppSession {
    id: String,
    server_id: String,
    tool_name: String,
    store: SurfaceStore,
    state: SessionState,
    policy: SplitPolicy,
    mapping: ActionMapping,
    request_meta: Map<String, Value>,
    pending: IndexMap<u64, String>,
    next_seq: u64,
    notices: Vec<SurfaceNotice>,
}

impl AppSession {
    /// A session for the agent's tool call `call_id` of `tool_name` on `server_id`, with the
    /// default split policy, DirectByName mapping and an empty store accepting `catalogs`
    /// (from the host's egui catalog: `catalog.catalogs()`, so its own catalogs are
    /// accepted; `Catalogs::basic()` for the basic ones only).
    pub fn new(
        call_id: &str,
        server_id: &str,
        tool_name: &str,
        catalogs: impl Into<std::sync::Arc<crate::model::Catalogs>>,
    ) -> Self {
        Self {
            id: call_id.to_owned(),
            server_id: server_id.to_owned(),
            tool_name: tool_name.to_owned(),
            store: SurfaceStore::new(catalogs),
            state: SessionState::Pending,
            policy: SplitPolicy::default(),
            mapping: ActionMapping::default(),
            request_meta: Map::new(),
            pending: IndexMap::new(),
            next_seq: 0,
            notices: Vec::new(),
        }
    }

    /// Use this split policy.
    pub fn with_policy(mut self, policy: SplitPolicy) -> Self {
        self.policy = policy;
        self
    }

    /// Use this action mapping.
    pub fn with_mapping(mut self, mapping: ActionMapping) -> Self {
        self.mapping = mapping;
        self
    }

    /// Copy these entries into every outgoing request's `_meta` (per-request capabilities,
    /// for instance).
    pub fn with_request_meta(mut self, meta: Map<String, Value>) -> Self {
        self.request_meta = meta;
        self
    }

    /// Use this (empty, configured) store: catalogs, limits.
    pub fn with_store(mut self, store: SurfaceStore) -> Self {
        self.store = store;
        self
    }

    /// The originating tool call id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The server the tool ran on.
    pub fn server_id(&self) -> &str {
        &self.server_id
    }

    /// The originating tool.
    pub fn tool_name(&self) -> &str {
        &self.tool_name
    }

    /// The call's state.
    pub fn state(&self) -> &SessionState {
        &self.state
    }

    /// The session's surfaces.
    pub fn store(&self) -> &SurfaceStore {
        &self.store
    }

    /// The session's surfaces, mutably: draw them with a [`DrawState`](crate::render::DrawState),
    /// which writes user input into them.
    pub fn store_mut(&mut self) -> &mut SurfaceStore {
        &mut self.store
    }

    /// The split policy.
    pub fn policy(&self) -> &SplitPolicy {
        &self.policy
    }

    /// The agent sent the tool's complete arguments; the result is pending.
    pub fn on_tool_input(&mut self, arguments: Value) {
        self.state = SessionState::Loading { arguments };
    }

    /// The originating tool call returned: split it, apply its A2UI payloads in order,
    /// and go to `Ready` (or `Error` when `isError`; payloads still apply).
    pub fn on_tool_result(&mut self, result: &Value) -> Result<ResultOutcome, McpError> {
        let split = split_tool_result(result, &self.policy)?;
        self.state = if split.is_error {
            SessionState::Error {
                message: error_message(&split),
            }
        } else {
            SessionState::Ready
        };
        Ok(self.apply(split, None))
    }

    /// The originating tool call failed without a result (JSON-RPC error, transport).
    pub fn on_tool_failed(&mut self, message: &str) {
        self.state = SessionState::Error {
            message: message.to_owned(),
        };
    }

    /// The originating tool call was cancelled.
    pub fn on_cancelled(&mut self, reason: Option<String>) {
        self.state = SessionState::Cancelled { reason };
    }

    /// A user action on one of this session's surfaces. Returns the `tools/call` to send,
    /// or refuses: the surface must be this session's, the mapping must give a tool, and
    /// that tool must be on this session's server with `app` visibility. A refusal puts a
    /// [`TOOL_NOT_ALLOWED`] notice on the surface and nothing is sent.
    pub fn on_action(
        &mut self,
        event: &ActionEvent,
        tools: &ToolDirectory,
    ) -> Result<ToolCallRequest, McpError> {
        let surface_id = event.surface_id.clone();
        if self.store.surface(&surface_id).is_none() {
            return Err(McpError::UnknownSurface {
                session_id: self.id.clone(),
                surface_id,
            });
        }
        let checked = self
            .mapping
            .map(event)
            .ok_or_else(|| McpError::ActionNotMapped {
                action: event.name.clone(),
            })
            .and_then(|call| match tools.get(&self.server_id, &call.name) {
                None => Err(McpError::ToolNotOnServer {
                    server_id: self.server_id.clone(),
                    tool: call.name,
                }),
                Some(t) if !t.visibility.app => {
                    Err(McpError::ToolNotAppVisible { tool: call.name })
                }
                Some(_) => Ok(call),
            });
        let call = match checked {
            Ok(c) => c,
            Err(e) => {
                self.notices.push(SurfaceNotice {
                    surface_id,
                    code: TOOL_NOT_ALLOWED,
                    message: e.to_string(),
                });
                return Err(e);
            }
        };
        let mut meta = self.request_meta.clone();
        meta.extend(self.data_model_meta());
        let seq = self.next_seq;
        self.next_seq += 1;
        self.pending.insert(seq, surface_id.clone());
        Ok(ToolCallRequest {
            call_ref: CallRef {
                session_id: self.id.clone(),
                seq,
            },
            server_id: self.server_id.clone(),
            surface_id,
            name: call.name,
            arguments: call.arguments,
            meta,
        })
    }

    /// The result of an action-triggered call this session issued. A call reference of
    /// another session, or one already settled, is refused and nothing is applied. An
    /// `isError` result puts a [`TOOL_ERROR`] notice on the surface (payloads still apply).
    pub fn on_action_result(
        &mut self,
        call: &CallRef,
        result: &Value,
    ) -> Result<ResultOutcome, McpError> {
        let surface_id = self.pending_surface(call)?;
        let split = match split_tool_result(result, &self.policy) {
            Ok(s) => s,
            Err(e) => {
                self.pending.shift_remove(&call.seq);
                self.notices.push(SurfaceNotice {
                    surface_id,
                    code: TOOL_ERROR,
                    message: e.to_string(),
                });
                return Err(e);
            }
        };
        self.pending.shift_remove(&call.seq);
        if split.is_error {
            self.notices.push(SurfaceNotice {
                surface_id: surface_id.clone(),
                code: TOOL_ERROR,
                message: error_message(&split),
            });
        }
        Ok(self.apply(split, Some(surface_id)))
    }

    /// An action-triggered call failed without a result: the surface gets a [`TOOL_ERROR`]
    /// notice.
    pub fn on_action_failed(&mut self, call: &CallRef, message: &str) -> Result<(), McpError> {
        let surface_id = self.pending_surface(call)?;
        self.pending.shift_remove(&call.seq);
        self.notices.push(SurfaceNotice {
            surface_id,
            code: TOOL_ERROR,
            message: message.to_owned(),
        });
        Ok(())
    }

    fn pending_surface(&self, call: &CallRef) -> Result<String, McpError> {
        match self.pending.get(&call.seq) {
            Some(s) if call.session_id == self.id => Ok(s.clone()),
            _ => Err(McpError::UnknownCall {
                session_id: self.id.clone(),
                owner: call.session_id.clone(),
                seq: call.seq,
            }),
        }
    }

    /// Whether an action call from this surface is in flight (show it as busy).
    pub fn is_busy(&self, surface_id: &str) -> bool {
        self.pending.values().any(|s| s == surface_id)
    }

    /// Action calls in flight.
    pub fn pending_calls(&self) -> usize {
        self.pending.len()
    }

    /// Every notice, oldest first.
    pub fn notices(&self) -> &[SurfaceNotice] {
        &self.notices
    }

    /// The notices of one surface, oldest first.
    pub fn notices_for<'a>(
        &'a self,
        surface_id: &'a str,
    ) -> impl Iterator<Item = &'a SurfaceNotice> {
        self.notices
            .iter()
            .filter(move |n| n.surface_id == surface_id)
    }

    /// Drain every notice.
    pub fn take_notices(&mut self) -> Vec<SurfaceNotice> {
        std::mem::take(&mut self.notices)
    }

    /// The data-model metadata for outgoing requests: the data model of every
    /// `sendDataModel` surface of this session (and of no other), built by
    /// [`crate::capabilities::data_model_metadata`] (`a2uiClientDataModel` for the v0.9
    /// family, `a2uiRendererDataModel` for v1.0; v0.8 has no data-model sync).
    pub fn data_model_meta(&self) -> Map<String, Value> {
        crate::capabilities::data_model_metadata(
            &self.store,
            self.store.surfaces().map(|s| s.id.as_str()),
        )
    }

    fn apply(&mut self, split: SplitResult, surface_id: Option<String>) -> ResultOutcome {
        let mut out = ResultOutcome {
            surface_id,
            ..ResultOutcome::default()
        };
        for p in split.payloads.iter().filter(|p| p.is_a2ui()) {
            for frame in p.messages(self.store.limits()) {
                match self.store.apply(frame) {
                    Applied::Rejected(r) => out.errors.push(r.error),
                    _ => out.applied += 1,
                }
            }
        }
        out.split = split;
        out
    }
}

fn error_message(split: &SplitResult) -> String {
    let t = split.display_text();
    if t.is_empty() {
        "the tool reported an error".to_owned()
    } else {
        t
    }
}

/// Every open session of a host, keyed by originating tool call id, with the tools of
/// every server. Routes each action result to the session that issued the call, and only
/// to it.
#[derive(Debug, Default)]
pub struct SessionHub {
    sessions: IndexMap<String, AppSession>,
    tools: ToolDirectory,
}

impl SessionHub {
    /// No sessions, no tools.
    pub fn new() -> Self {
        Self::default()
    }

    /// The tool directory.
    pub fn tools(&self) -> &ToolDirectory {
        &self.tools
    }

    /// The tool directory, mutably (fill it from `tools/list`).
    pub fn tools_mut(&mut self) -> &mut ToolDirectory {
        &mut self.tools
    }

    /// Open a session (replacing one with the same id).
    pub fn open(&mut self, session: AppSession) -> &mut AppSession {
        match self.sessions.entry(session.id.clone()) {
            indexmap::map::Entry::Occupied(mut o) => {
                o.insert(session);
                o.into_mut()
            }
            indexmap::map::Entry::Vacant(v) => v.insert(session),
        }
    }

    /// A session by originating tool call id.
    pub fn get(&self, call_id: &str) -> Option<&AppSession> {
        self.sessions.get(call_id)
    }

    /// A session by originating tool call id, mutably.
    pub fn get_mut(&mut self, call_id: &str) -> Option<&mut AppSession> {
        self.sessions.get_mut(call_id)
    }

    /// Close a session (its surfaces go with it).
    pub fn close(&mut self, call_id: &str) -> Option<AppSession> {
        self.sessions.shift_remove(call_id)
    }

    /// Every session, oldest first.
    pub fn sessions(&self) -> impl Iterator<Item = &AppSession> {
        self.sessions.values()
    }

    /// Every open session, mutably (draw their stores), oldest first.
    pub fn sessions_mut(&mut self) -> impl Iterator<Item = &mut AppSession> {
        self.sessions.values_mut()
    }

    /// An action on a surface of session `call_id` (see [`AppSession::on_action`]).
    pub fn on_action(
        &mut self,
        call_id: &str,
        event: &ActionEvent,
    ) -> Result<ToolCallRequest, McpError> {
        let s = self
            .sessions
            .get_mut(call_id)
            .ok_or_else(|| McpError::UnknownSession(call_id.to_owned()))?;
        s.on_action(event, &self.tools)
    }

    /// The result of an action-triggered call, delivered to the issuing session only.
    pub fn on_action_result(
        &mut self,
        call: &CallRef,
        result: &Value,
    ) -> Result<ResultOutcome, McpError> {
        self.sessions
            .get_mut(&call.session_id)
            .ok_or_else(|| McpError::UnknownSession(call.session_id.clone()))?
            .on_action_result(call, result)
    }

    /// An action-triggered call failed, delivered to the issuing session only.
    pub fn on_action_failed(&mut self, call: &CallRef, message: &str) -> Result<(), McpError> {
        self.sessions
            .get_mut(&call.session_id)
            .ok_or_else(|| McpError::UnknownSession(call.session_id.clone()))?
            .on_action_failed(call, message)
    }
}
