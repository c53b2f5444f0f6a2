//! The official MCP catalog (`catalogs/mcp/v1/catalog.json`, id [`MCP_CATALOG_V1_0`]),
//! served natively over this bridge, and the iframe catalog's components.
//!
//! [`McpCatalog`] belongs to one MCP server connection. [`McpCatalog::install`] adds to a
//! [`Catalog`], through the crate's public component and function API:
//!
//! - `callMcpTool(name, arguments, targetDataPath?)`: a `tools/call` on this server, only
//!   for a tool whose `_meta.ui.visibility` includes `app`, and only from a surface of a
//!   store bound to this server ([`McpCatalog::bind_session`], [`McpCatalog::bind_store`]):
//!   a surface of any other store (an A2A agent's, model text drawn with the same
//!   [`Catalog`]) gets an error and nothing is sent ([`McpCatalog::report_refusals`] owes
//!   it to that store's agent). The first evaluation of a distinct
//!   `(store, surface, tool, arguments)` makes a [`ToolCallRequest`] and resolves to
//!   `null`, pending, until the host hands back the result ([`McpCatalog::on_result`]);
//!   from then on the call resolves to the `CallToolResult`. The request goes out
//!   ([`McpCatalog::take_requests`]) at once when the tool is read-only
//!   (`annotations.readOnlyHint`) or the call was fired by a user gesture (an action's
//!   `functionCall` run from a click or key press); any other call, such as a binding
//!   evaluated while drawing, waits for the host: [`McpCatalog::awaiting_approval`] lists
//!   them, [`McpCatalog::approve`] sends one, [`McpCatalog::deny`] fails it. A host should
//!   still review what [`McpCatalog::take_requests`] returns before sending it: the
//!   arguments come from the agent. With `targetDataPath`, the result is also written there as
//!   `{toolInput, toolResult}` ([`McpCatalog::apply_writes`]). At most
//!   [`Limits::max_mcp_tool_calls`](crate::limits::Limits::max_mcp_tool_calls) distinct calls are
//!   made, so a tool whose result feeds its own arguments stops with `LIMIT_EXCEEDED`.
//! - `updateDataModel(updates)`: writes `{path: value}` pairs (relative paths resolve in
//!   the caller's scope) once nothing they depend on is pending; the writes are applied
//!   by [`McpCatalog::apply_writes`].
//! - `jmespath`, `split`, `regexCapture`, `regexReplace` (see
//!   `crate::eval::functions::mcp`, each bounded by [`Limits`](crate::limits::Limits)).
//! - `McpApp` and the iframe catalog's `WebAppFrameUrl` / `WebAppFrameSrcdoc`: a native
//!   renderer has no web view, so each is drawn as a card with its title and, for a URL,
//!   an "Open in browser" button that goes through the renderer's
//!   [`UrlPolicy`](crate::url_policy::UrlPolicy) (a user gesture, `http`/`https` only). HTML content
//!   (`htmlContent`, a `srcdoc`) is never run and never opened.
//!
//! None of these functions declares `allowedCallers`, so all are `rendererOnly`: an agent's
//! `callRendererFunction` of `callMcpTool` is refused. The catalog ids are advertised in
//! the renderer capabilities only by a catalog an `McpCatalog` was installed into, that
//! is, only where a session can serve them.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use serde_json::{Map, Value, json};

use super::{AppSession, CallRef, McpError, ToolCallRequest, ToolDirectory};
use crate::error::A2uiError;
use crate::eval::{EvalContext, Function};
use crate::model::{StoreId, SurfaceStore};
use crate::protocol::Version;
use crate::render::ComponentContext;
use crate::render::catalog::{Catalog, ComponentTraits};

/// The id of the v1.0 MCP catalog.
pub const MCP_CATALOG_V1_0: &str = "https://a2ui.org/specification/v1_0/catalogs/mcp/catalog.json";
/// The id of the iframe catalog as its README names it (v1.0).
pub const IFRAME_CATALOG_V1_0: &str =
    "https://a2ui.org/specification/v1_0/catalogs/iframe/catalog.json";
/// The id the published iframe catalog document declares (v0.9).
pub const IFRAME_CATALOG_V0_9: &str =
    "https://a2ui.org/specification/v0_9/catalogs/iframe/catalog.json";

/// The MCP catalog definition (`catalogs/mcp/v1/catalog.json`, Apache-2.0, unmodified).
pub const MCP_CATALOG_DEFINITION: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/assets/catalogs/mcp/v1/catalog.json"
));

/// Writes queued by the catalog's functions, kept at most this many (a surface that keeps
/// writing the same values cannot grow the queue).
const MAX_QUEUED_WRITES: usize = 1024;
/// Errors kept for [`McpCatalog::take_errors`].
const MAX_ERRORS: usize = 64;

/// One data-model write asked by `updateDataModel` or a `callMcpTool` `targetDataPath`.
#[derive(Clone, Debug, PartialEq)]
pub struct McpWrite {
    /// The store of the surface written, when the evaluation said
    /// ([`McpCatalog::apply_writes`] applies a write only to that store).
    pub store: Option<StoreId>,
    /// The surface written (empty when the evaluation did not say).
    pub surface_id: String,
    /// The absolute JSON pointer.
    pub path: String,
    /// The value.
    pub value: Value,
}

#[derive(Debug)]
enum Entry {
    Pending {
        store: Option<StoreId>,
        surface_id: String,
        arguments: Map<String, Value>,
        target: Option<String>,
    },
    Done(Value),
    Failed(String),
}

#[derive(Debug, Default)]
struct State {
    tools: ToolDirectory,
    calls: HashMap<(String, String, String), Entry>,
    by_seq: HashMap<u64, (String, String, String)>,
    next_seq: u64,
    outgoing: Vec<ToolCallRequest>,
    /// Calls made without a gesture to a tool that is not read-only: the host decides.
    awaiting: Vec<ToolCallRequest>,
    /// The stores whose surfaces may call this server's tools.
    stores: std::collections::HashSet<StoreId>,
    writes: Vec<McpWrite>,
    errors: Vec<McpError>,
    /// Refusals owed to the agent of the store whose surface asked (reported by
    /// [`McpCatalog::report_refusals`]), each `(store, surface, tool)` once.
    refused: Vec<(StoreId, String, McpError)>,
    refused_seen: std::collections::HashSet<(StoreId, String, String)>,
}

impl State {
    fn error(&mut self, e: McpError) {
        if self.errors.len() < MAX_ERRORS {
            self.errors.push(e);
        }
    }

    /// A refusal of `tool` for `surface` of `store`, owed to that store's agent once.
    fn refuse(&mut self, store: Option<StoreId>, surface: &str, tool: &str, e: &McpError) {
        let Some(store) = store else { return };
        if self.refused_seen.len() < MAX_QUEUED_WRITES
            && self
                .refused_seen
                .insert((store, surface.to_owned(), tool.to_owned()))
            && self.refused.len() < MAX_ERRORS
        {
            self.refused.push((store, surface.to_owned(), e.clone()));
        }
    }

    fn write(&mut self, w: McpWrite) {
        if !self.writes.contains(&w) && self.writes.len() < MAX_QUEUED_WRITES {
            self.writes.push(w);
        }
    }
}

/// The MCP catalog of one server connection: its functions' shared state (calls made,
/// results, queued writes). Cloning shares the state.
#[derive(Clone, Debug)]
pub struct McpCatalog {
    server_id: String,
    session_id: String,
    state: Arc<Mutex<State>>,
}

impl McpCatalog {
    /// The catalog for server `server_id`, whose tools (and their visibility) are in
    /// `tools` (from `tools/list`, see [`ToolDirectory::insert_tools_list`]).
    pub fn new(server_id: &str, tools: ToolDirectory) -> Self {
        Self {
            server_id: server_id.to_owned(),
            session_id: format!("mcp-catalog:{server_id}"),
            state: Arc::new(Mutex::new(State {
                tools,
                ..State::default()
            })),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A poisoned lock only means a panic elsewhere mid-update; the state stays usable.
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Replace the server's tool list (after `notifications/tools/list_changed`).
    pub fn set_tools(&self, tools: ToolDirectory) {
        self.lock().tools = tools;
    }

    /// Serve the MCP catalog (and the iframe catalog's components) with `catalog`: its
    /// definition, its six functions, and the three web-view components drawn as safe
    /// cards.
    pub fn install(&self, catalog: &mut Catalog) -> Result<(), A2uiError> {
        let doc: Value = serde_json::from_str(MCP_CATALOG_DEFINITION)
            .map_err(|e| A2uiError::Json(format!("bundled MCP catalog: {e}")))?;
        catalog.add_definition(doc)?;
        let taken = std::mem::replace(catalog, Catalog::empty());
        *catalog = taken
            .with_catalog_id(IFRAME_CATALOG_V1_0, Version::V1_0)
            .with_catalog_id(IFRAME_CATALOG_V0_9, Version::V0_9);
        let cards = ComponentTraits::new().with_role(egui::accesskit::Role::Group);
        catalog.register_with("McpApp", cards, web_view_card);
        catalog.register_with("WebAppFrameUrl", cards, web_view_card);
        catalog.register_with("WebAppFrameSrcdoc", cards, web_view_card);
        for f in crate::eval::functions::mcp::data_functions() {
            catalog.register_function(f);
        }
        catalog.register_function(CallMcpTool(self.clone()));
        catalog.register_function(UpdateDataModel(self.clone()));
        Ok(())
    }

    /// The `tools/call` requests the catalog's functions made since the last call, and
    /// those the host approved: send each on this server and hand its result to
    /// [`Self::on_result`]. Each is a call to a read-only tool, one fired by a user
    /// gesture, or one approved; its arguments still come from the agent (review them
    /// as the host's policy wants).
    pub fn take_requests(&self) -> Vec<ToolCallRequest> {
        std::mem::take(&mut self.lock().outgoing)
    }

    /// Let the surfaces of `store` call this server's tools (a store whose surfaces all
    /// come from this server: an [`AppSession`]'s, or a host's own).
    pub fn bind_store(&self, store: StoreId) {
        self.lock().stores.insert(store);
    }

    /// Stop serving the surfaces of `store`.
    pub fn unbind_store(&self, store: StoreId) {
        self.lock().stores.remove(&store);
    }

    /// Let the surfaces of `session` call this server's tools ([`Self::bind_store`] of
    /// its store). A session of another server is refused.
    pub fn bind_session(&self, session: &AppSession) -> Result<(), McpError> {
        if session.server_id() != self.server_id {
            return Err(McpError::SessionOfAnotherServer {
                server_id: self.server_id.clone(),
                session_id: session.id().to_owned(),
                session_server: session.server_id().to_owned(),
            });
        }
        self.bind_store(session.store().id());
        Ok(())
    }

    /// The calls waiting for the host's approval, oldest first: made without a user
    /// gesture (a binding evaluated while drawing) to a tool the server does not mark
    /// read-only. Each stays pending (its binding `null`) until [`Self::approve`] or
    /// [`Self::deny`]; at most
    /// [`Limits::max_mcp_tool_calls`](crate::limits::Limits::max_mcp_tool_calls) calls are made
    /// in all.
    pub fn awaiting_approval(&self) -> Vec<ToolCallRequest> {
        self.lock().awaiting.clone()
    }

    /// Approve a call from [`Self::awaiting_approval`]: it goes out with the next
    /// [`Self::take_requests`].
    pub fn approve(&self, call: &CallRef) -> Result<(), McpError> {
        let mut st = self.lock();
        let i = self.awaiting_index(&st, call)?;
        let req = st.awaiting.remove(i);
        st.outgoing.push(req);
        Ok(())
    }

    /// Deny a call from [`Self::awaiting_approval`]: nothing is sent and the call fails
    /// (its binding resolves to `null` with an error).
    pub fn deny(&self, call: &CallRef) -> Result<(), McpError> {
        {
            let mut st = self.lock();
            let i = self.awaiting_index(&st, call)?;
            st.awaiting.remove(i);
        }
        self.settle(call, Err("the host did not approve the call".to_owned()))
    }

    fn awaiting_index(&self, st: &State, call: &CallRef) -> Result<usize, McpError> {
        st.awaiting
            .iter()
            .position(|r| r.call_ref == *call)
            .ok_or_else(|| McpError::UnknownCall {
                session_id: self.session_id.clone(),
                owner: call.session_id.clone(),
                seq: call.seq,
            })
    }

    /// The result of a request from [`Self::take_requests`] (a `CallToolResult` JSON
    /// object). The pending call resolves to it; a `targetDataPath` gets it written.
    pub fn on_result(&self, call: &CallRef, result: &Value) -> Result<(), McpError> {
        self.settle(call, Ok(result.clone()))
    }

    /// A request that failed (transport error, JSON-RPC error): the call resolves to an
    /// error, and bindings that need it to `null`.
    pub fn on_failed(&self, call: &CallRef, message: &str) -> Result<(), McpError> {
        self.settle(call, Err(message.to_owned()))
    }

    fn settle(&self, call: &CallRef, result: Result<Value, String>) -> Result<(), McpError> {
        let mut st = self.lock();
        let unknown = || McpError::UnknownCall {
            session_id: self.session_id.clone(),
            owner: call.session_id.clone(),
            seq: call.seq,
        };
        if call.session_id != self.session_id {
            return Err(unknown());
        }
        let key = st.by_seq.remove(&call.seq).ok_or_else(unknown)?;
        let Some(Entry::Pending {
            store,
            surface_id,
            arguments,
            target,
        }) = st.calls.remove(&key)
        else {
            return Err(unknown());
        };
        // A result for a call still awaiting approval was never asked for.
        st.awaiting.retain(|r| r.call_ref != *call);
        let entry = match result {
            Ok(v) => {
                if let Some(path) = target {
                    st.write(McpWrite {
                        store,
                        surface_id,
                        path,
                        value: json!({"toolInput": arguments, "toolResult": v.clone()}),
                    });
                }
                Entry::Done(v)
            }
            Err(m) => Entry::Failed(m),
        };
        st.calls.insert(key, entry);
        Ok(())
    }

    /// The writes asked since the last call (`updateDataModel`, `targetDataPath`).
    pub fn take_writes(&self) -> Vec<McpWrite> {
        std::mem::take(&mut self.lock().writes)
    }

    /// Apply the queued writes made from `store`'s surfaces (or whose store is not known)
    /// to the surfaces of `store` that exist, each as a v1.0 `updateDataModel` through
    /// the store's one apply path (so limits apply); returns the errors met. A write that
    /// changes nothing is skipped; writes made from another store stay queued for it.
    pub fn apply_writes(&self, store: &mut SurfaceStore) -> Vec<A2uiError> {
        let mut errors = Vec::new();
        let mine = {
            let mut st = self.lock();
            let (mine, others) = std::mem::take(&mut st.writes)
                .into_iter()
                .partition(|w: &McpWrite| w.store.is_none_or(|s| s == store.id()));
            st.writes = others;
            mine
        };
        for w in mine {
            let Some(surface) = store.surface(&w.surface_id) else {
                continue;
            };
            if surface.data.get(&w.path) == Some(&w.value) {
                continue;
            }
            let msg = json!({"version": surface.version.as_str(), "updateDataModel": {
                "surfaceId": w.surface_id, "path": w.path, "value": w.value}});
            if let Err(e) = store.apply(msg).into_result() {
                errors.push(e);
            }
        }
        errors
    }

    /// The refusals met by `callMcpTool` since the last call (a tool not on the server or
    /// not visible to apps, the call limit).
    pub fn take_errors(&self) -> Vec<McpError> {
        std::mem::take(&mut self.lock().errors)
    }

    /// Report the `callMcpTool` refusals met on `store`'s surfaces (a foreign surface, a
    /// tool not on the server or not visible to apps) to that store's agent: each
    /// `(surface, tool)` once, as an `Expression` error on the surface
    /// ([`SurfaceStore::report`]; a [`DrawState`](crate::render::DrawState) then hands it
    /// on with its events). A binding's failure is otherwise only seen by the host
    /// ([`Self::take_errors`]). Returns how many were reported.
    pub fn report_refusals(&self, store: &mut SurfaceStore) -> usize {
        let id = store.id();
        let mine: Vec<(String, McpError)> = {
            let mut st = self.lock();
            let (mine, others): (Vec<_>, Vec<_>) = std::mem::take(&mut st.refused)
                .into_iter()
                .partition(|(s, _, _)| *s == id);
            st.refused = others;
            mine.into_iter().map(|(_, sid, e)| (sid, e)).collect()
        };
        let mut n = 0;
        for (sid, e) in mine {
            let Some(version) = store.surface(&sid).map(|s| s.version) else {
                continue;
            };
            store.report(crate::error::Rejected::new(
                Some(sid),
                version,
                A2uiError::Expression {
                    expression: "callMcpTool".into(),
                    message: e.to_string(),
                },
            ));
            n += 1;
        }
        n
    }

    /// `tools/call` requests issued and not yet settled.
    pub fn pending_calls(&self) -> usize {
        self.lock()
            .calls
            .values()
            .filter(|e| matches!(e, Entry::Pending { .. }))
            .count()
    }

    /// Distinct calls made so far (pending, answered or failed).
    pub fn calls_made(&self) -> usize {
        self.lock().calls.len()
    }
}

/// `callMcpTool(name, arguments, targetDataPath?)`.
struct CallMcpTool(McpCatalog);

impl Function for CallMcpTool {
    fn name(&self) -> &str {
        "callMcpTool"
    }

    fn call(&self, args: &Map<String, Value>, cx: &EvalContext<'_>) -> Result<Value, String> {
        let name = match args.get("name") {
            Some(Value::String(s)) if !s.is_empty() => s.clone(),
            _ => return Err("argument `name` must be a tool name".into()),
        };
        if cx.is_pending() {
            // An argument still waits for another answer: call once it is known.
            return Ok(Value::Null);
        }
        let arguments = match args.get("arguments") {
            Some(Value::Object(m)) => m.clone(),
            None | Some(Value::Null) => Map::new(),
            Some(other) => return Err(format!("`arguments` must be an object, not {other}")),
        };
        let target = match args.get("targetDataPath") {
            Some(Value::String(p)) => Some(cx.absolute_path(p)),
            _ => None,
        };
        let surface_id = cx.surface_id().unwrap_or_default().to_owned();
        let catalog = &self.0;
        let mut st = catalog.lock();
        // Only the surfaces of this server's own sessions may call its tools.
        let store = cx.store_id();
        let Some(store) = store.filter(|s| st.stores.contains(s)) else {
            let e = McpError::ForeignSurface {
                server_id: catalog.server_id.clone(),
                surface_id: surface_id.clone(),
            };
            let text = e.to_string();
            st.refuse(store, &surface_id, &name, &e);
            st.error(e);
            return Err(text);
        };
        let key = (
            format!("{store:?}/{surface_id}"),
            name.clone(),
            Value::Object(arguments.clone()).to_string(),
        );
        match st.calls.get(&key) {
            Some(Entry::Done(v)) => return Ok(v.clone()),
            Some(Entry::Failed(m)) => return Err(format!("tool {name:?} failed: {m}")),
            Some(Entry::Pending { .. }) => {
                cx.mark_pending();
                return Ok(Value::Null);
            }
            None => {}
        }
        let (refusal, read_only) = match st.tools.get(&catalog.server_id, &name) {
            None => (
                Some(McpError::ToolNotOnServer {
                    server_id: catalog.server_id.clone(),
                    tool: name.clone(),
                }),
                false,
            ),
            Some(t) if !t.visibility.app => (
                Some(McpError::ToolNotAppVisible { tool: name.clone() }),
                false,
            ),
            Some(t) => (None, t.read_only),
        };
        if let Some(e) = refusal {
            let text = e.to_string();
            st.refuse(Some(store), &surface_id, &name, &e);
            st.error(e);
            return Err(text);
        }
        let max = cx.limits.max_mcp_tool_calls;
        if st.calls.len() >= max {
            let e = A2uiError::LimitExceeded {
                what: "max_mcp_tool_calls",
                limit: max,
                actual: st.calls.len() + 1,
            };
            let text = e.to_string();
            st.error(McpError::CallLimit { limit: max });
            cx.diagnose(e);
            return Err(text);
        }
        let seq = st.next_seq;
        st.next_seq += 1;
        st.by_seq.insert(seq, key.clone());
        let request = ToolCallRequest {
            call_ref: CallRef {
                session_id: catalog.session_id.clone(),
                seq,
            },
            server_id: catalog.server_id.clone(),
            surface_id: surface_id.clone(),
            name,
            arguments: arguments.clone(),
            meta: Map::new(),
        };
        // Without a gesture only a read-only tool is called; the host approves the rest.
        if read_only || cx.has_user_gesture() {
            st.outgoing.push(request);
        } else {
            st.awaiting.push(request);
        }
        st.calls.insert(
            key,
            Entry::Pending {
                store: Some(store),
                surface_id,
                arguments,
                target,
            },
        );
        cx.mark_pending();
        Ok(Value::Null)
    }
}

/// `updateDataModel(updates)`.
struct UpdateDataModel(McpCatalog);

impl Function for UpdateDataModel {
    fn name(&self) -> &str {
        "updateDataModel"
    }

    fn call(&self, args: &Map<String, Value>, cx: &EvalContext<'_>) -> Result<Value, String> {
        let Some(Value::Object(updates)) = args.get("updates") else {
            return Err("argument `updates` must be an object of {path: value}".into());
        };
        if cx.is_pending() {
            // A value still waits for a tool result: nothing is written yet.
            return Ok(Value::Null);
        }
        let surface_id = cx.surface_id().unwrap_or_default().to_owned();
        let mut st = self.0.lock();
        for (path, value) in updates {
            st.write(McpWrite {
                store: cx.store_id(),
                surface_id: surface_id.clone(),
                path: cx.absolute_path(path),
                value: value.clone(),
            });
        }
        Ok(Value::Null)
    }
}

/// `McpApp`, `WebAppFrameUrl`, `WebAppFrameSrcdoc`: a card, never a web view. A URL gets
/// an "Open in browser" button under the renderer's URL policy; HTML is never run.
fn web_view_card(ui: &mut egui::Ui, cx: &mut ComponentContext<'_, '_>) -> egui::Response {
    let kind = cx.component().wire_component().to_owned();
    let title = cx
        .opt_string("title")
        .filter(|t| !t.trim().is_empty())
        .unwrap_or_else(|| match kind.as_str() {
            "McpApp" => "MCP App".to_owned(),
            _ => "Web app".to_owned(),
        });
    let url = if kind == "WebAppFrameUrl" {
        cx.opt_string("url").filter(|u| !u.trim().is_empty())
    } else {
        None
    };
    let has_html = cx.prop("htmlContent").is_some();
    let inner = egui::Frame::group(ui.style()).show(ui, |ui| {
        ui.vertical(|ui| {
            ui.strong(&title);
            match &url {
                Some(u) => {
                    let shown: String = u.chars().take(200).collect();
                    ui.label(egui::RichText::new(shown).monospace().small());
                    if ui.button("Open in browser").clicked() {
                        cx.open_url(u);
                    }
                }
                None if has_html => {
                    ui.label("This app needs a web view; its HTML is not run here.");
                }
                None => {
                    ui.label("This app needs a web view.");
                }
            }
        });
    });
    inner.response
}
