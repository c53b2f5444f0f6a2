//! MCP over Streamable HTTP (feature `mcp-http`), beside the stdio path: the MCP Apps
//! bridge ([`crate::mcp`]) is the sans-IO core, [`McpConversation`] turns a conversation's
//! turns into its `tools/call`s, [`McpClient`] is rmcp's client (over rmcp's Streamable HTTP
//! transport, or any rmcp transport: a child's stdio, say) advertising the UI extension with
//! native A2UI, and [`McpAgent`] and [`McpHost`] put them together.
//!
//! Revisions: the client probes `server/discover` (MCP 2026-07-28, stateless) and falls back
//! to the `initialize` handshake for older servers (rmcp's `ClientLifecycleMode::Auto`). The
//! UI extension goes where the negotiated revision reads it: in the `initialize`
//! capabilities, or in every request's `_meta["io.modelcontextprotocol/clientCapabilities"]`.
//! Updates of the resources a surface came from arrive through `subscriptions/listen` on
//! 2026-07-28 and through `resources/subscribe` and `notifications/resources/updated` before
//! it; `resources/read` results are cached per URI for as long as their `ttlMs` says, in
//! their `cacheScope` (rmcp's response cache, invalidated by every update notification).
//!
//! A text turn calls a tool the model may call: `name {json arguments}` names it; plain text
//! goes to the first model-visible tool, as its first string argument. An action turn goes
//! through the bridge's session rules (the surface's own session, an app-visible tool).

use std::sync::mpsc::{Receiver, Sender, channel};

use rmcp::model::{
    CallToolRequestParams, ClientCapabilities, ClientConfig, Implementation, ProtocolVersion,
};
use rmcp::service::RunningService;
use rmcp::transport::IntoTransport;
use rmcp::{ClientCacheConfig, ClientHandler, ClientLifecycleMode, ClientServiceExt, RoleClient};
use serde_json::{Map, Value, json};
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};

use super::{
    Role, TaskState, TranscriptEntry, TransportError, TransportEvent, TransportOptions, Turn,
};
use crate::mcp::{AppSession, CallRef, SessionHub, UiExtensionSettings};
use crate::model::SurfaceStore;

#[derive(Clone)]
struct Handler {
    capabilities: ClientCapabilities,
    /// Where `notifications/resources/updated` URIs go (the host reads them again).
    updates: Option<UnboundedSender<String>>,
}

impl Handler {
    fn new(updates: Option<UnboundedSender<String>>) -> Result<Self, TransportError> {
        Ok(Self {
            capabilities: client_capabilities()?,
            updates,
        })
    }
}

impl ClientHandler for Handler {
    fn get_info(&self) -> ClientConfig {
        let mut config = ClientConfig::new(
            self.capabilities.clone(),
            Implementation::new("egui_a2ui", env!("CARGO_PKG_VERSION")),
        );
        // What `initialize` proposes (when it is used): the newest revision that has it.
        // `server/discover` sends its own preferred versions.
        config.protocol_version = ProtocolVersion::LATEST_WITH_INITIALIZE;
        config
    }

    async fn on_resource_updated(
        &self,
        params: rmcp::model::ResourceUpdatedNotificationParam,
        _context: rmcp::service::NotificationContext<RoleClient>,
    ) {
        if let Some(u) = &self.updates {
            let _ = u.send(params.uri);
        }
    }
}

/// How the client starts: `server/discover` for MCP 2026-07-28, and the `initialize`
/// handshake (at the newest revision that has one) when the server does not know discover.
fn lifecycle() -> ClientLifecycleMode {
    ClientLifecycleMode::Auto {
        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
        legacy_version: Some(ProtocolVersion::LATEST_WITH_INITIALIZE),
    }
}

/// The most `resources/read` (and list) results one connection keeps in rmcp's response
/// cache, each for as long as its `ttlMs` allows.
const MAX_CACHED_RESPONSES: usize = 64;

/// The most resource URIs one connection watches for updates (the newest kept).
const MAX_WATCHED_RESOURCES: usize = 64;

/// The client capabilities: the MCP Apps UI extension advertising native A2UI (sent in the
/// `initialize` request, or in every request's `_meta` on MCP 2026-07-28).
pub fn client_capabilities() -> Result<ClientCapabilities, TransportError> {
    serde_json::from_value(UiExtensionSettings::native_a2ui().client_capabilities())
        .map_err(|e| TransportError::Mcp(super::redact_urls_in(&format!("capabilities: {e}"))))
}

/// An MCP client (rmcp), connected and initialized.
pub struct McpClient {
    service: RunningService<RoleClient, Handler>,
    /// The server's process, when [`Self::spawn`] started it (killed on drop).
    child: Option<tokio::process::Child>,
    /// The endpoint (without its query), for a refusal's error.
    endpoint: String,
    /// OAuth: signs in again for more scopes when the server refuses a call for lacking one.
    step_up: Option<super::oauth::StepUp>,
}

impl std::fmt::Debug for McpClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpClient")
            .field("server", &self.server_name())
            .finish()
    }
}

impl McpClient {
    /// Connect to the Streamable HTTP endpoint at `url` (`http://host:port/mcp`).
    pub async fn connect_http(
        url: &str,
        options: &TransportOptions,
    ) -> Result<Self, TransportError> {
        Self::connect_http_with(url, options, None).await
    }

    async fn connect_http_with(
        url: &str,
        options: &TransportOptions,
        updates: Option<UnboundedSender<String>>,
    ) -> Result<Self, TransportError> {
        let mut client = Self::connect_http_inner(url, options, updates).await?;
        client.endpoint = url.to_owned();
        Ok(client)
    }

    async fn connect_http_inner(
        url: &str,
        options: &TransportOptions,
        updates: Option<UnboundedSender<String>>,
    ) -> Result<Self, TransportError> {
        use rmcp::transport::StreamableHttpClientTransport;
        use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
        let client = super::http::reqwest_client(options)?;
        let mut config = StreamableHttpClientTransportConfig::with_uri(url.to_owned());
        // The credentials (static headers, the provider's), sent on every request.
        config.custom_headers = super::auth::header_map(&options.credentials, url)?;
        let Some(oauth) = options.credentials.mcp_oauth() else {
            let make =
                move || StreamableHttpClientTransport::with_client(client.clone(), config.clone());
            return Self::connect_fallback_with(make, updates)
                .await
                .map_err(|e| super::auth::unauthorized_or(e, url));
        };
        // OAuth: rmcp's client adds the access token (and refreshes it); a refusal runs
        // the authorization flow once, then the connection is tried again.
        config
            .custom_headers
            .retain(|name, _| name != reqwest::header::AUTHORIZATION);
        let auth = super::oauth::auth_client(url, client, oauth).await?;
        let step_up = super::oauth::StepUp::new(url, auth.clone(), oauth.clone());
        let make = {
            let auth = auth.clone();
            let config = config.clone();
            move || StreamableHttpClientTransport::with_client(auth.clone(), config.clone())
        };
        match Self::connect_fallback_with(make, updates.clone()).await {
            Err(TransportError::Unauthorized {
                status: 401,
                challenge,
                ..
            }) => {
                super::oauth::authorize(url, &auth, oauth, challenge.as_deref()).await?;
                let make = move || {
                    StreamableHttpClientTransport::with_client(auth.clone(), config.clone())
                };
                Self::connect_fallback_with(make, updates)
                    .await
                    .map_err(|e| super::auth::unauthorized_or(e, url))
            }
            other => other.map_err(|e| super::auth::unauthorized_or(e, url)),
        }
        .map(|mut c| {
            c.step_up = Some(step_up);
            c
        })
    }

    /// Connect over any rmcp client transport (a child process's stdio, a duplex stream):
    /// `server/discover` first, the `initialize` handshake when the server answers discover
    /// with an error. A server that answers discover but lists no 2026-07-28 needs a second
    /// connection: [`Self::connect_with_fallback`].
    pub async fn connect<T, E, A>(transport: T) -> Result<Self, TransportError>
    where
        T: IntoTransport<RoleClient, E, A>,
        E: std::error::Error + Send + Sync + 'static,
    {
        let handler = Handler::new(None)?;
        Self::start(handler, transport, lifecycle()).await
    }

    /// [`Self::connect`] over a transport `make` returns, and when the server's
    /// `server/discover` lists only revisions with the `initialize` handshake (an older server
    /// on a discover-aware SDK), `initialize` over a second one, as the official Python client
    /// does.
    pub async fn connect_with_fallback<T, E, A>(
        make: impl FnMut() -> T,
    ) -> Result<Self, TransportError>
    where
        T: IntoTransport<RoleClient, E, A>,
        E: std::error::Error + Send + Sync + 'static,
    {
        Self::connect_fallback_with(make, None).await
    }

    async fn connect_fallback_with<T, E, A>(
        mut make: impl FnMut() -> T,
        updates: Option<UnboundedSender<String>>,
    ) -> Result<Self, TransportError>
    where
        T: IntoTransport<RoleClient, E, A>,
        E: std::error::Error + Send + Sync + 'static,
    {
        let handler = Handler::new(updates)?;
        match handler
            .clone()
            .serve_with_lifecycle(make(), lifecycle())
            .await
        {
            Ok(service) => Self::ready(service).await,
            Err(rmcp::service::ClientInitializeError::NoCompatibleProtocolVersion {
                server_supported,
                ..
            }) if server_supported.iter().any(ProtocolVersion::has_initialize) => {
                Self::start(handler, make(), ClientLifecycleMode::Initialize).await
            }
            Err(e) => Err(connect_error(&e)),
        }
    }

    async fn start<T, E, A>(
        handler: Handler,
        transport: T,
        mode: ClientLifecycleMode,
    ) -> Result<Self, TransportError>
    where
        T: IntoTransport<RoleClient, E, A>,
        E: std::error::Error + Send + Sync + 'static,
    {
        let service = handler
            .serve_with_lifecycle(transport, mode)
            .await
            .map_err(|e| connect_error(&e))?;
        Self::ready(service).await
    }

    async fn ready(service: RunningService<RoleClient, Handler>) -> Result<Self, TransportError> {
        service
            .peer()
            .set_response_cache_config(
                ClientCacheConfig::default().with_max_entries(MAX_CACHED_RESPONSES),
            )
            .await;
        Ok(Self {
            service,
            child: None,
            endpoint: String::new(),
            step_up: None,
        })
    }

    /// Start `program` with `args` (no shell; its stderr is the caller's) and connect over
    /// its stdin/stdout. The process is killed when the client is dropped. A server that
    /// answers `server/discover` without 2026-07-28 is started again for `initialize`.
    pub async fn spawn(program: &str, args: &[String]) -> Result<Self, TransportError> {
        Self::spawn_with(program, args, None).await
    }

    async fn spawn_with(
        program: &str,
        args: &[String],
        updates: Option<UnboundedSender<String>>,
    ) -> Result<Self, TransportError> {
        let handler = Handler::new(updates)?;
        let (child, io) = spawn_child(program, args)?;
        match handler.clone().serve_with_lifecycle(io, lifecycle()).await {
            Ok(service) => {
                let mut client = Self::ready(service).await?;
                client.child = Some(child);
                Ok(client)
            }
            Err(rmcp::service::ClientInitializeError::NoCompatibleProtocolVersion {
                server_supported,
                ..
            }) if server_supported.iter().any(ProtocolVersion::has_initialize) => {
                drop(child);
                let (child, io) = spawn_child(program, args)?;
                let mut client = Self::start(handler, io, ClientLifecycleMode::Initialize).await?;
                client.child = Some(child);
                Ok(client)
            }
            Err(e) => Err(connect_error(&e)),
        }
    }

    /// The server's name and version.
    pub fn server_name(&self) -> String {
        self.service
            .peer_info()
            .and_then(|i| {
                i.server_info
                    .as_ref()
                    .map(|s| format!("{} {}", s.name, s.version))
            })
            .unwrap_or_default()
    }

    /// The protocol revision agreed with the server (`2026-07-28` through `server/discover`,
    /// or the one `initialize` negotiated).
    pub fn protocol_version(&self) -> String {
        self.service
            .peer_info()
            .map(|i| i.protocol_version.to_string())
            .unwrap_or_default()
    }

    /// Whether the agreed revision is the stateless one (no `initialize`: MCP 2026-07-28 and
    /// later), where resource updates come through `subscriptions/listen`.
    pub fn is_stateless(&self) -> bool {
        self.service
            .peer_info()
            .is_some_and(|i| !i.protocol_version.has_initialize())
    }

    /// The server's `capabilities.extensions["io.modelcontextprotocol/ui"]`, when it
    /// announced the MCP Apps extension (in `server/discover` or `initialize`).
    pub fn server_ui_extension(&self) -> Option<Value> {
        let info = self.service.peer_info()?;
        let caps = serde_json::to_value(&info.capabilities).ok()?;
        caps.get("extensions")?
            .get(crate::mcp::UI_EXTENSION_ID)
            .cloned()
    }

    /// Whether the server offers resource update subscriptions (`capabilities.resources.subscribe`).
    pub fn can_subscribe(&self) -> bool {
        can_subscribe(self.service.peer())
    }

    /// `resources/read` of `uri`, as JSON. A result the server marked fresh (`ttlMs`) is
    /// answered from the cache until it expires or the server says the resource changed.
    pub async fn read_resource(&self, uri: &str) -> Result<Value, TransportError> {
        read_resource(self.service.peer(), uri).await
    }

    /// `tools/list` (every page), as `{"tools": [...]}`.
    pub async fn list_tools(&self) -> Result<Value, TransportError> {
        let tools = self.service.list_all_tools().await.map_err(|e| {
            TransportError::Mcp(super::redact_urls_in(&format!("tools/list failed: {e}")))
        })?;
        Ok(json!({ "tools": tools }))
    }

    /// `tools/call` with these params (`{"name", "arguments", "_meta"?}`); the result as JSON.
    /// With OAuth, a call refused for a scope the token lacks (`403`, `insufficient_scope`)
    /// signs in again for it (the host's browser step) and is tried once more.
    pub async fn call(&self, params: Value) -> Result<Value, TransportError> {
        call_stepping_up(self.service.peer(), params, self.step_up.as_ref())
            .await
            .map_err(|e| super::auth::unauthorized_or(e, &self.endpoint))
    }

    /// Close the connection.
    pub async fn close(self) {
        let _ = self.service.cancel().await;
    }
}

/// Why connecting failed, as a typed error (a 401 / 403 with its challenge).
fn connect_error(e: &rmcp::service::ClientInitializeError) -> TransportError {
    refusal(e, 0).unwrap_or_else(|| {
        TransportError::Mcp(super::redact_urls_in(&format!(
            "connecting failed (server/discover, then initialize): {e}"
        )))
    })
}

/// A `401` / `403` somewhere in a connect error (rmcp's transport error is a field, not a
/// `source`, of its initialize error: it is looked into here).
fn refusal(e: &rmcp::service::ClientInitializeError, depth: usize) -> Option<TransportError> {
    use rmcp::service::ClientInitializeError as E;
    if depth > 4 {
        return None;
    }
    match e {
        E::TransportError { error, .. } => super::auth::mcp_unauthorized(error, ""),
        E::LegacyFallbackFailed { discover, fallback } => {
            refusal(discover, depth + 1).or_else(|| refusal(fallback, depth + 1))
        }
        other => super::auth::mcp_unauthorized(other, ""),
    }
}

type ChildIo = (tokio::process::ChildStdout, tokio::process::ChildStdin);

/// Start `program` with `args` (no shell), its stdin and stdout piped.
fn spawn_child(
    program: &str,
    args: &[String],
) -> Result<(tokio::process::Child, ChildIo), TransportError> {
    let spawn_error = |message: String| TransportError::Connect {
        url: command_line(program, args),
        message,
    };
    let mut child = tokio::process::Command::new(program)
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| spawn_error(e.to_string()))?;
    let (Some(stdout), Some(stdin)) = (child.stdout.take(), child.stdin.take()) else {
        return Err(spawn_error("its stdio could not be piped".into()));
    };
    Ok((child, (stdout, stdin)))
}

/// `program args…` as one line, for errors and the origin.
fn command_line(program: &str, args: &[String]) -> String {
    std::iter::once(program)
        .chain(args.iter().map(String::as_str))
        .collect::<Vec<_>>()
        .join(" ")
}

/// What a [`McpCall`] answers.
#[derive(Clone, Debug, PartialEq)]
enum Pending {
    Tool { session: String },
    Action { call: CallRef },
}

/// One `tools/call` a turn needs; hand it back with its result.
#[derive(Clone, Debug, PartialEq)]
pub struct McpCall {
    /// The `tools/call` params.
    pub params: Value,
    pending: Pending,
}

/// The sans-IO MCP conversation with one server: its tools, one bridge session per agent
/// tool call (each with its surfaces), the transcript.
#[derive(Debug)]
pub struct McpConversation {
    server_id: String,
    hub: SessionHub,
    tools: Vec<Value>,
    transcript: Vec<TranscriptEntry>,
    state: Option<TaskState>,
    next_call: u64,
    limits: crate::limits::Limits,
    catalogs: std::sync::Arc<crate::model::Catalogs>,
    origin: Option<crate::model::AgentOrigin>,
    /// The session whose payload each resource URI was (for `resources/updated`).
    resource_owners: std::collections::HashMap<String, String>,
    /// Payload URIs first seen since [`Self::take_new_resource_uris`] last ran.
    new_resources: Vec<String>,
}

/// The most resource URIs [`McpConversation`] remembers the owner of.
const MAX_RESOURCE_OWNERS: usize = 1_000;

impl McpConversation {
    /// A conversation with the server known as `server_id`, whose sessions accept the basic
    /// catalogs ([`Self::with_catalogs`] for a host's own).
    pub fn new(server_id: &str) -> Self {
        Self {
            server_id: server_id.to_owned(),
            hub: SessionHub::new(),
            tools: Vec::new(),
            transcript: Vec::new(),
            state: None,
            next_call: 1,
            limits: crate::limits::Limits::default(),
            catalogs: std::sync::Arc::new(crate::model::Catalogs::basic()),
            origin: None,
            resource_owners: std::collections::HashMap::new(),
            new_resources: Vec::new(),
        }
    }

    /// The URIs of the payloads first seen since the last call (oldest first): the
    /// resources whose updates the host watches.
    pub fn take_new_resource_uris(&mut self) -> Vec<String> {
        std::mem::take(&mut self.new_resources)
    }

    /// Say who the server is (its `serverInfo.name` and endpoint, as the client connected):
    /// every session's store gets it as its [`AgentOrigin`](crate::model::AgentOrigin), so
    /// the renderer frames and labels the surfaces with it.
    pub fn set_origin(&mut self, origin: Option<crate::model::AgentOrigin>) {
        for s in self.hub.sessions_mut() {
            s.store_mut().set_origin(origin.clone());
        }
        self.origin = origin;
    }

    /// Every session's store accepts these catalogs (from the host's component catalog:
    /// `catalog.catalogs()`).
    pub fn with_catalogs(mut self, catalogs: std::sync::Arc<crate::model::Catalogs>) -> Self {
        self.catalogs = catalogs;
        self
    }

    /// Use these caps in every session's store.
    pub fn with_limits(mut self, limits: crate::limits::Limits) -> Self {
        self.limits = limits;
        self
    }

    /// The server's `tools/list` result arrived.
    pub fn on_tools(&mut self, list: &Value) {
        self.hub.tools_mut().clear_server(&self.server_id);
        self.hub
            .tools_mut()
            .insert_tools_list(&self.server_id, list);
        self.tools = list
            .get("tools")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
    }

    /// The bridge's sessions (each with its store).
    pub fn hub(&self) -> &SessionHub {
        &self.hub
    }

    /// The bridge's sessions, mutably (draw their stores).
    pub fn hub_mut(&mut self) -> &mut SessionHub {
        &mut self.hub
    }

    /// The conversation's text (the model-visible text of every result).
    pub fn transcript(&self) -> &[TranscriptEntry] {
        &self.transcript
    }

    /// The last call's state: working, completed, or failed.
    pub fn state(&self) -> Option<&TaskState> {
        self.state.as_ref()
    }

    /// Every session's store, oldest first.
    pub fn stores(&self) -> impl Iterator<Item = &SurfaceStore> {
        self.hub.sessions().map(AppSession::store)
    }

    fn tool_for_text(&self, text: &str) -> Result<(String, Map<String, Value>), TransportError> {
        // `name {json}` names the tool and its arguments.
        if let Some((name, rest)) = text.split_once(' ')
            && rest.trim_start().starts_with('{')
            && self
                .tools
                .iter()
                .any(|t| t.get("name").and_then(Value::as_str) == Some(name))
        {
            // A text turn stands for the model: an app-only tool is its surface's alone.
            if !self
                .hub
                .tools()
                .model_visible(&self.server_id)
                .any(|t| t.name == name)
            {
                return Err(TransportError::Action(format!(
                    "{name} is app-only: only its surface may call it"
                )));
            }
            let args: Map<String, Value> = serde_json::from_str(rest.trim()).map_err(|e| {
                TransportError::Action(format!("the arguments are not a JSON object: {e}"))
            })?;
            return Ok((name.to_owned(), args));
        }
        let visible = self
            .hub
            .tools()
            .model_visible(&self.server_id)
            .map(|t| t.name.clone())
            .collect::<Vec<_>>();
        let tool = self
            .tools
            .iter()
            .find(|t| {
                t.get("name")
                    .and_then(Value::as_str)
                    .is_some_and(|n| visible.iter().any(|v| v == n))
            })
            .ok_or_else(|| {
                TransportError::Action("the server has no tool the model may call".into())
            })?;
        let name = tool
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        let schema = tool.get("inputSchema");
        let props = schema
            .and_then(|s| s.get("properties"))
            .and_then(Value::as_object);
        let required: Vec<&str> = schema
            .and_then(|s| s.get("required"))
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let is_string = |k: &&String| {
            props
                .and_then(|p| p.get(k.as_str()))
                .and_then(|p| p.get("type"))
                .and_then(Value::as_str)
                == Some("string")
        };
        let key = props.and_then(|p| {
            p.keys()
                .filter(is_string)
                .find(|k| required.contains(&k.as_str()))
                .or_else(|| p.keys().find(is_string))
                .cloned()
        });
        let mut args = Map::new();
        if let Some(k) = key {
            args.insert(k, json!(text));
        }
        Ok((name, args))
    }

    /// The catalogs this conversation's stores accept, advertised with every call at
    /// `_meta.a2ui.clientCapabilities` (the "A2UI over MCP" guide's per-request place: rmcp's
    /// `initialize` capabilities have no field for it).
    fn add_capabilities(&self, params: &mut Value) {
        let cap = crate::mcp::A2uiCatalogCapability::from_known(&self.catalogs);
        if let Value::Object(p) = params {
            let mut meta = match p.remove("_meta") {
                Some(Value::Object(m)) => m,
                _ => Map::new(),
            };
            cap.insert_into_request_meta(&mut meta);
            p.insert("_meta".into(), Value::Object(meta));
        }
    }

    /// The `tools/call` for one turn (its `_meta` carries the catalog capability).
    pub fn request(&mut self, turn: &Turn) -> Result<McpCall, TransportError> {
        match turn {
            Turn::Text(t) => {
                let (name, args) = self.tool_for_text(t)?;
                self.transcript.push(TranscriptEntry {
                    role: Role::User,
                    text: t.clone(),
                    message_id: None,
                });
                let id = format!("call-{}", self.next_call);
                self.next_call += 1;
                let mut store =
                    SurfaceStore::with_config(self.catalogs.clone(), self.limits.clone());
                store.set_origin(self.origin.clone());
                let session = self.hub.open(
                    AppSession::new(&id, &self.server_id, &name, self.catalogs.clone())
                        .with_store(store),
                );
                session.on_tool_input(Value::Object(args.clone()));
                self.state = Some(TaskState::Working);
                let mut params = json!({"name": name, "arguments": args});
                self.add_capabilities(&mut params);
                Ok(McpCall {
                    params,
                    pending: Pending::Tool { session: id },
                })
            }
            Turn::Action(a) => {
                let owner = self
                    .hub
                    .sessions()
                    .filter(|s| s.store().surface(&a.surface_id).is_some())
                    .last()
                    .map(|s| s.id().to_owned())
                    .ok_or_else(|| {
                        TransportError::Action(format!("no session owns surface {}", a.surface_id))
                    })?;
                let req = self
                    .hub
                    .on_action(&owner, a)
                    .map_err(|e| TransportError::Action(e.to_string()))?;
                self.state = Some(TaskState::Working);
                let mut params = req.params();
                self.add_capabilities(&mut params);
                Ok(McpCall {
                    params,
                    pending: Pending::Action { call: req.call_ref },
                })
            }
        }
    }

    /// The result of a call from [`Self::request`] (or why there is none).
    pub fn on_result(
        &mut self,
        call: &McpCall,
        result: Result<Value, TransportError>,
    ) -> Vec<TransportEvent> {
        let mut events = Vec::new();
        let outcome = match (&call.pending, result) {
            (Pending::Tool { session }, Ok(v)) => match self.hub.get_mut(session) {
                Some(s) => s
                    .on_tool_result(&v)
                    .map_err(|e| TransportError::Mcp(e.to_string())),
                None => Err(TransportError::Closed),
            },
            (Pending::Action { call }, Ok(v)) => self
                .hub
                .on_action_result(call, &v)
                .map_err(|e| TransportError::Mcp(e.to_string())),
            (Pending::Tool { session }, Err(e)) => {
                if let Some(s) = self.hub.get_mut(session) {
                    s.on_tool_failed(&e.to_string());
                }
                Err(e)
            }
            (Pending::Action { call }, Err(e)) => {
                let _ = self.hub.on_action_failed(call, &e.to_string());
                Err(e)
            }
        };
        let error = match outcome {
            Ok(o) => {
                let session = match &call.pending {
                    Pending::Tool { session } => session.clone(),
                    Pending::Action { call } => call.session_id.clone(),
                };
                for uri in o.split.payloads.iter().filter_map(|p| p.uri.as_ref()) {
                    if self.resource_owners.len() >= MAX_RESOURCE_OWNERS
                        && !self.resource_owners.contains_key(uri)
                    {
                        self.resource_owners.clear();
                    }
                    if self
                        .resource_owners
                        .insert(uri.clone(), session.clone())
                        .is_none()
                        && self.new_resources.len() < MAX_RESOURCE_OWNERS
                    {
                        self.new_resources.push(uri.clone());
                    }
                }
                let text = o.split.model_text();
                if !text.is_empty() {
                    self.transcript.push(TranscriptEntry {
                        role: Role::Agent,
                        text: text.clone(),
                        message_id: None,
                    });
                    events.push(TransportEvent::Text {
                        role: Role::Agent,
                        text,
                    });
                }
                for e in o.errors {
                    events.push(TransportEvent::Rejected { error: e });
                }
                if o.applied > 0 {
                    let surfaces = self
                        .hub
                        .get(&session)
                        .map(|s| s.store().surfaces().map(|x| x.id.clone()).collect())
                        .unwrap_or_default();
                    events.push(TransportEvent::Applied {
                        count: o.applied,
                        surfaces,
                    });
                }
                if o.split.is_error {
                    Some(TransportError::Mcp(format!(
                        "the tool reported an error: {text}",
                        text = o.split.display_text()
                    )))
                } else {
                    None
                }
            }
            Err(e) => Some(e),
        };
        let state = if error.is_some() {
            TaskState::Failed
        } else {
            TaskState::Completed
        };
        self.state = Some(state.clone());
        events.push(TransportEvent::State {
            state,
            task_id: None,
            context_id: None,
        });
        events.push(TransportEvent::TurnEnded { error });
        events
    }
}

impl McpConversation {
    /// The fresh `resources/read` result of a resource the server said was updated
    /// (`notifications/resources/updated`): its A2UI contents are applied to the session
    /// whose payload came from that URI. A URI no session showed is ignored.
    pub fn on_resource_read(
        &mut self,
        uri: &str,
        result: Result<Value, TransportError>,
    ) -> Vec<TransportEvent> {
        let Some(session) = self.resource_owners.get(uri).cloned() else {
            return Vec::new();
        };
        let read = match result {
            Ok(v) => v,
            Err(e) => return vec![TransportEvent::Notice(e)],
        };
        let Some(s) = self.hub.get_mut(&session) else {
            return Vec::new();
        };
        let mut events = Vec::new();
        let mut count = 0;
        for c in read
            .get("contents")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let mime = c.get("mimeType").and_then(Value::as_str).unwrap_or("");
            let Some(text) = c.get("text").and_then(Value::as_str) else {
                continue;
            };
            if crate::mcp::is_a2ui_family(mime) {
                let limits = s.store().limits().clone();
                let store = s.store_mut();
                crate::stream::for_each_message_text(text.as_bytes(), &limits, |f| {
                    count += 1;
                    if let crate::model::Applied::Rejected(r) = store.apply(f) {
                        events.push(TransportEvent::Rejected { error: r.error });
                    }
                });
            }
        }
        if count > 0 {
            let surfaces = s.store().surfaces().map(|x| x.id.clone()).collect();
            events.push(TransportEvent::Applied { count, surfaces });
        }
        events
    }
}

/// The async MCP agent: a client and its conversation.
#[derive(Debug)]
pub struct McpAgent {
    client: McpClient,
    conversation: McpConversation,
}

impl McpAgent {
    /// Connect to the Streamable HTTP endpoint at `url` and list its tools; the sessions'
    /// stores accept `catalog`'s catalogs (a host's own among them).
    pub async fn connect_http(
        url: &str,
        catalog: &crate::render::catalog::Catalog,
        options: &TransportOptions,
    ) -> Result<Self, TransportError> {
        let client = McpClient::connect_http(url, options).await?;
        Self::with_client(client, catalog, options).await
    }

    /// Start `program` with `args` and speak MCP on its stdin/stdout ([`McpClient::spawn`]),
    /// then list its tools.
    pub async fn spawn(
        program: &str,
        args: &[String],
        catalog: &crate::render::catalog::Catalog,
        options: &TransportOptions,
    ) -> Result<Self, TransportError> {
        let client = McpClient::spawn(program, args).await?;
        Self::with_client(client, catalog, options).await
    }

    /// Use a connected client (any transport) and list its tools.
    pub async fn with_client(
        client: McpClient,
        catalog: &crate::render::catalog::Catalog,
        options: &TransportOptions,
    ) -> Result<Self, TransportError> {
        let mut conversation = McpConversation::new("agent")
            .with_catalogs(catalog.catalogs())
            .with_limits(options.limits.clone());
        conversation.on_tools(&client.list_tools().await?);
        Ok(Self {
            client,
            conversation,
        })
    }

    /// The client.
    pub fn client(&self) -> &McpClient {
        &self.client
    }

    /// The conversation.
    pub fn conversation(&self) -> &McpConversation {
        &self.conversation
    }

    /// The conversation, mutably.
    pub fn conversation_mut(&mut self) -> &mut McpConversation {
        &mut self.conversation
    }

    /// Run one turn (see [`A2aClient::send`](super::a2a::A2aClient::send) for the contract).
    #[cfg_attr(not(feature = "a2a"), allow(rustdoc::broken_intra_doc_links))]
    pub async fn send(
        &mut self,
        turn: &Turn,
        mut on_event: impl FnMut(&TransportEvent),
    ) -> Result<(), TransportError> {
        let call = match self.conversation.request(turn) {
            Ok(c) => c,
            Err(e) => {
                on_event(&TransportEvent::TurnEnded {
                    error: Some(e.clone()),
                });
                return Err(e);
            }
        };
        on_event(&TransportEvent::Request {
            method: "tools/call".into(),
            body: call.params.clone(),
        });
        let result = self.client.call(call.params.clone()).await;
        let mut error = None;
        for ev in self.conversation.on_result(&call, result) {
            if let TransportEvent::TurnEnded { error: Some(e) } = &ev {
                error = Some(e.clone());
            }
            on_event(&ev);
        }
        error.map_or(Ok(()), Err)
    }
}

enum Command {
    Call {
        id: u64,
        params: Value,
    },
    /// Watch these resources for updates too.
    Watch(Vec<String>),
}

enum Reply {
    Connected {
        server: String,
        protocol: String,
        tools: Value,
    },
    CallDone {
        id: u64,
        result: Result<Value, TransportError>,
    },
    /// The server said a resource changed; this is its fresh `resources/read` result.
    ResourceRead {
        uri: String,
        result: Result<Value, TransportError>,
    },
    Closed(TransportError),
}

/// How the I/O thread reaches the server: made on that thread, inside its runtime.
type Connector = Box<
    dyn FnOnce(
            UnboundedSender<String>,
        ) -> std::pin::Pin<
            Box<dyn std::future::Future<Output = Result<Connected, TransportError>> + Send>,
        > + Send,
>;

/// A connected client, and the child process it talks to (stdio), whose exit ends the
/// connection.
struct Connected {
    client: McpClient,
    child: Option<tokio::process::Child>,
    /// The command, for errors.
    command: String,
}

/// An MCP server driven from a UI thread: rmcp on a background runtime, the conversation
/// (and its surfaces) here. [`McpHost::connect`] reaches one over Streamable HTTP,
/// [`McpHost::spawn`] starts one as a child process and speaks MCP on its stdin/stdout;
/// both share everything else (the sessions, the capabilities advertised, the app-only tool
/// rules of [`McpConversation`], cancel, resource updates).
pub struct McpHost {
    conversation: McpConversation,
    commands: UnboundedSender<Command>,
    replies: Receiver<Reply>,
    pending: Option<(u64, McpCall)>,
    next_id: u64,
    server: Option<String>,
    /// The revision agreed with the server, once connected.
    protocol: Option<String>,
    error: Option<TransportError>,
    log: Vec<TransportEvent>,
    responses: Option<Vec<Value>>,
    /// Where the server is: its endpoint, or `stdio: <command>`, for the origin.
    endpoint: String,
    /// The call id the I/O thread must drop (see [`McpHost::cancel`]).
    cancel: tokio::sync::watch::Sender<u64>,
    /// Events made on the UI thread (a request, a cancel), handed out by the next poll.
    queued: Vec<TransportEvent>,
}

impl std::fmt::Debug for McpHost {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpHost")
            .field("server", &self.server)
            .finish_non_exhaustive()
    }
}

/// The most events [`McpHost::log`] keeps (oldest dropped first).
const MAX_LOG_EVENTS: usize = 10_000;

impl McpHost {
    /// Connect to the Streamable HTTP endpoint at `url` in the background, the sessions'
    /// stores accepting `catalog`'s catalogs; `repaint` is called after every reply.
    pub fn connect(
        url: &str,
        catalog: &crate::render::catalog::Catalog,
        options: TransportOptions,
        repaint: impl Fn() + Send + 'static,
    ) -> Result<Self, TransportError> {
        let target = url.to_owned();
        let opts = options.clone();
        let connector: Connector = Box::new(move |updates| {
            Box::pin(async move {
                let client = McpClient::connect_http_with(&target, &opts, Some(updates)).await?;
                Ok(Connected {
                    client,
                    child: None,
                    command: target,
                })
            })
        });
        Self::start(url.to_owned(), connector, catalog, options, repaint)
    }

    /// Start `program` with `args` (no shell) and speak MCP on its stdin/stdout in the
    /// background, exactly as [`Self::connect`] does over HTTP. The server's stderr is the
    /// host's; the server is killed when the host is dropped, and its exit ends the
    /// connection ([`Self::connect_error`] says how it ended). The origin on every store is
    /// the server's name and `stdio: <command>`.
    pub fn spawn(
        program: &str,
        args: &[String],
        catalog: &crate::render::catalog::Catalog,
        options: TransportOptions,
        repaint: impl Fn() + Send + 'static,
    ) -> Result<Self, TransportError> {
        let command = command_line(program, args);
        let program = program.to_owned();
        let args = args.to_vec();
        let connector: Connector = Box::new(move |updates| {
            Box::pin(async move {
                let mut client = McpClient::spawn_with(&program, &args, Some(updates)).await?;
                let child = client.child.take();
                Ok(Connected {
                    client,
                    child,
                    command: command_line(&program, &args),
                })
            })
        });
        Self::start(
            format!("stdio: {command}"),
            connector,
            catalog,
            options,
            repaint,
        )
    }

    fn start(
        endpoint: String,
        connector: Connector,
        catalog: &crate::render::catalog::Catalog,
        options: TransportOptions,
        repaint: impl Fn() + Send + 'static,
    ) -> Result<Self, TransportError> {
        let (commands, cmd_rx): (UnboundedSender<Command>, UnboundedReceiver<Command>) =
            unbounded_channel();
        let (tx, replies): (Sender<Reply>, Receiver<Reply>) = channel();
        let (cancel, cancelled) = tokio::sync::watch::channel(u64::MAX);
        std::thread::Builder::new()
            .name("egui_a2ui-mcp".into())
            .spawn(move || {
                // Shared with the tasks of the calls (a `Mutex` makes a `Send` callback `Sync`).
                let repaint = std::sync::Arc::new(std::sync::Mutex::new(repaint));
                let send = move |r: Reply| {
                    let _ = tx.send(r);
                    if let Ok(f) = repaint.lock() {
                        f();
                    }
                };
                let Ok(rt) = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                else {
                    send(Reply::Closed(TransportError::Closed));
                    return;
                };
                rt.block_on(io_loop(connector, cmd_rx, cancelled, send));
            })
            .map_err(|_| TransportError::Closed)?;
        Ok(Self {
            conversation: McpConversation::new("agent")
                .with_catalogs(catalog.catalogs())
                .with_limits(options.limits),
            commands,
            replies,
            pending: None,
            next_id: 1,
            server: None,
            protocol: None,
            error: None,
            log: Vec::new(),
            responses: None,
            endpoint,
            cancel,
            queued: Vec::new(),
        })
    }

    /// Stop the call in flight: the `tools/call` is dropped on the I/O thread, which sends
    /// the server `notifications/cancelled` for it; its result, if one still comes, is
    /// ignored, and the state becomes [`TaskState::Canceled`] (reported by the next
    /// [`Self::poll`]). With no call in flight it does nothing.
    pub fn cancel(&mut self) -> Result<(), TransportError> {
        let Some((id, _call)) = self.pending.take() else {
            return Ok(());
        };
        let _ = self.cancel.send(id);
        self.conversation.state = Some(TaskState::Canceled);
        self.queued.push(TransportEvent::State {
            state: TaskState::Canceled,
            task_id: None,
            context_id: None,
        });
        self.queued.push(TransportEvent::TurnEnded { error: None });
        Ok(())
    }

    /// Keep every answer (the `tools/list` result, each `tools/call` result, each
    /// `resources/read` of an updated resource) until [`Self::take_responses`] takes them;
    /// off by default.
    #[must_use]
    pub fn record_responses(mut self, on: bool) -> Self {
        self.set_record_responses(on);
        self
    }

    /// [`Self::record_responses`], on a host already made.
    pub fn set_record_responses(&mut self, on: bool) {
        self.responses = on.then(Vec::new);
    }

    /// The answers kept since the last call, oldest first.
    pub fn take_responses(&mut self) -> Vec<Value> {
        self.responses
            .as_mut()
            .map(std::mem::take)
            .unwrap_or_default()
    }

    /// The conversation (sessions, stores, transcript).
    pub fn conversation(&self) -> &McpConversation {
        &self.conversation
    }

    /// The conversation, mutably (draw its stores).
    pub fn conversation_mut(&mut self) -> &mut McpConversation {
        &mut self.conversation
    }

    /// The server's name, once connected.
    pub fn server(&self) -> Option<&str> {
        self.server.as_deref()
    }

    /// The MCP revision agreed with the server, once connected: `2026-07-28` when it
    /// answered `server/discover`, else the one `initialize` negotiated.
    pub fn protocol_version(&self) -> Option<&str> {
        self.protocol.as_deref()
    }

    /// Where the server is: the endpoint URL, or `stdio: <command>`.
    pub fn endpoint(&self) -> &str {
        &self.endpoint
    }

    /// Why the connection failed or ended, if it did.
    pub fn connect_error(&self) -> Option<&TransportError> {
        self.error.as_ref()
    }

    /// Whether a call is in flight (or the connection is being made).
    pub fn is_busy(&self) -> bool {
        self.pending.is_some() || (self.server.is_none() && self.error.is_none())
    }

    /// Every event so far (requests included: the action log), the newest 10,000.
    pub fn log(&self) -> &[TransportEvent] {
        &self.log
    }

    fn log_event(&mut self, e: TransportEvent) {
        if self.log.len() >= MAX_LOG_EVENTS {
            self.log.drain(..MAX_LOG_EVENTS / 10);
        }
        self.log.push(e);
    }

    /// Start a turn: a text turn calls a model-visible tool (see [`McpConversation`]), an
    /// action the surface's app-visible tool. The `tools/call` request is in the next
    /// [`Self::poll`]'s events (and the log).
    pub fn send(&mut self, turn: Turn) -> Result<(), TransportError> {
        if let Some(e) = &self.error {
            return Err(e.clone());
        }
        if self.is_busy() {
            return Err(TransportError::Action("a call is already in flight".into()));
        }
        let call = self.conversation.request(&turn)?;
        let id = self.next_id;
        self.next_id += 1;
        self.queued.push(TransportEvent::Request {
            method: "tools/call".into(),
            body: call.params.clone(),
        });
        self.commands
            .send(Command::Call {
                id,
                params: call.params.clone(),
            })
            .map_err(|_| TransportError::Closed)?;
        self.pending = Some((id, call));
        Ok(())
    }

    /// Apply what arrived; call once a frame.
    pub fn poll(&mut self) -> Vec<TransportEvent> {
        let mut out = std::mem::take(&mut self.queued);
        while let Ok(r) = self.replies.try_recv() {
            match r {
                Reply::Connected {
                    server,
                    protocol,
                    tools,
                } => {
                    self.protocol = Some(protocol);
                    if let Some(r) = self.responses.as_mut() {
                        r.push(tools.clone());
                    }
                    self.conversation.on_tools(&tools);
                    self.conversation.set_origin(Some(
                        crate::model::AgentOrigin::new(&server).with_host(&self.endpoint),
                    ));
                    self.server = Some(server);
                }
                Reply::CallDone { id, result } => {
                    if let (Some(r), Ok(v)) = (self.responses.as_mut(), &result) {
                        r.push(v.clone());
                    }
                    if let Some((pid, call)) = self.pending.take() {
                        if pid == id {
                            out.extend(self.conversation.on_result(&call, result));
                            let uris = self.conversation.take_new_resource_uris();
                            if !uris.is_empty() {
                                let _ = self.commands.send(Command::Watch(uris));
                            }
                        } else {
                            self.pending = Some((pid, call));
                        }
                    }
                }
                Reply::ResourceRead { uri, result } => {
                    if let (Some(r), Ok(v)) = (self.responses.as_mut(), &result) {
                        r.push(v.clone());
                    }
                    out.extend(self.conversation.on_resource_read(&uri, result));
                }
                Reply::Closed(e) => {
                    if let Some((_, call)) = self.pending.take() {
                        out.extend(self.conversation.on_result(&call, Err(e.clone())));
                    }
                    self.error = Some(e);
                }
            }
        }
        for e in &out {
            self.log_event(e.clone());
        }
        out
    }
}

/// The I/O thread: connect, list the tools, then run each call (dropped when cancelled),
/// read each resource the server says changed, and end when the host is dropped, the
/// server's process exits or the connection closes.
async fn io_loop(
    connector: Connector,
    mut commands: UnboundedReceiver<Command>,
    cancelled: tokio::sync::watch::Receiver<u64>,
    send: impl Fn(Reply) + Clone + Send + 'static,
) {
    let (updates_tx, mut updates) = unbounded_channel();
    let Connected {
        client,
        mut child,
        command,
    } = match connector(updates_tx.clone()).await {
        Ok(c) => c,
        Err(e) => return send(Reply::Closed(e)),
    };
    match client.list_tools().await {
        Ok(tools) => send(Reply::Connected {
            server: client.server_name(),
            protocol: client.protocol_version(),
            tools,
        }),
        Err(e) => return send(Reply::Closed(e)),
    }
    let peer = client.service.peer().clone();
    let step_up = client.step_up.clone();
    let stateless = client.is_stateless();
    let subscribe = client.can_subscribe();
    // The resources watched, newest last, and the task watching them.
    let mut watched: Vec<String> = Vec::new();
    let mut watcher: Option<tokio::task::JoinHandle<()>> = None;
    let exited = async {
        match child.as_mut() {
            Some(c) => c.wait().await.map_or_else(
                |e| format!("the server is gone: {e}"),
                |s| format!("the server exited ({s})"),
            ),
            None => std::future::pending().await,
        }
    };
    tokio::pin!(exited);
    // Bounded by the UI: ends when the host (the sender) is dropped.
    loop {
        tokio::select! {
            cmd = commands.recv() => {
                let Some(cmd) = cmd else { break };
                let (id, params) = match cmd {
                    Command::Call { id, params } => (id, params),
                    Command::Watch(uris) => {
                        if !subscribe {
                            continue;
                        }
                        let fresh: Vec<String> =
                            uris.into_iter().filter(|u| !watched.contains(u)).collect();
                        if fresh.is_empty() {
                            continue;
                        }
                        watched.extend(fresh.iter().cloned());
                        let excess = watched.len().saturating_sub(MAX_WATCHED_RESOURCES);
                        watched.drain(..excess);
                        // On 2026-07-28 one stream carries every watched URI: the old one
                        // is cancelled (dropped) and a new one opened; before it, only the
                        // new URIs are subscribed.
                        let uris = if stateless {
                            if let Some(w) = watcher.take() {
                                w.abort();
                            }
                            watched.clone()
                        } else {
                            fresh
                        };
                        let task = tokio::spawn(watch(peer.clone(), stateless, uris, updates_tx.clone()));
                        if stateless {
                            watcher = Some(task);
                        }
                        continue;
                    }
                };
                let mut cancelled = cancelled.clone();
                let peer = peer.clone();
                let send = send.clone();
                let endpoint = command.clone();
                let step_up = step_up.clone();
                tokio::spawn(async move {
                    let stop = async move {
                        while *cancelled.borrow_and_update() != id {
                            if cancelled.changed().await.is_err() {
                                std::future::pending::<()>().await;
                            }
                        }
                    };
                    // Dropping the call future makes rmcp send `notifications/cancelled`
                    // for its request.
                    let result = tokio::select! {
                        result = call_stepping_up(&peer, params, step_up.as_ref()) => result,
                        () = stop => Err(TransportError::Action("the call was cancelled".into())),
                    };
                    let result = result.map_err(|e| super::auth::unauthorized_or(e, &endpoint));
                    send(Reply::CallDone { id, result });
                });
            }
            uri = updates.recv() => {
                let Some(uri) = uri else { continue };
                let peer = peer.clone();
                let send = send.clone();
                tokio::spawn(async move {
                    let result = read_resource(&peer, &uri).await;
                    send(Reply::ResourceRead { uri, result });
                });
            }
            message = &mut exited => {
                send(Reply::Closed(TransportError::Interrupted { url: command, message }));
                return;
            }
        }
    }
    if let Some(w) = watcher.take() {
        w.abort();
    }
    client.close().await;
}

/// [`call_tool`]; refused for a scope the token lacks and `step_up` given, signed in again
/// for it and tried once more (a second refusal is the error).
async fn call_stepping_up(
    peer: &rmcp::service::Peer<RoleClient>,
    params: Value,
    step_up: Option<&super::oauth::StepUp>,
) -> Result<Value, TransportError> {
    // The params are kept for the retry only when a step-up is possible.
    let retry = step_up.map(|s| (s, params.clone()));
    let first = call_tool(peer, params).await;
    let (Some((step_up, params)), Err(e)) = (retry, &first) else {
        return first;
    };
    let Some(challenge) = super::oauth::StepUp::answers(e) else {
        return first;
    };
    step_up.authorize(challenge).await?;
    call_tool(peer, params).await
}

async fn call_tool(
    peer: &rmcp::service::Peer<RoleClient>,
    params: Value,
) -> Result<Value, TransportError> {
    let p: CallToolRequestParams = serde_json::from_value(params).map_err(|e| {
        TransportError::Mcp(super::redact_urls_in(&format!(
            "bad tools/call params: {e}"
        )))
    })?;
    let r = peer.call_tool(p).await.map_err(|e| {
        refused_call(&e).unwrap_or_else(|| {
            TransportError::Mcp(super::redact_urls_in(&format!("tools/call failed: {e}")))
        })
    })?;
    serde_json::to_value(&r).map_err(|e| TransportError::Mcp(e.to_string()))
}

/// A request the server refused mid-connection (a revoked token whose refresh failed, a
/// scope it lacks) as [`TransportError::Unauthorized`] with the challenge (the address is
/// filled in by the caller).
fn refused_call(e: &rmcp::service::ServiceError) -> Option<TransportError> {
    let challenge = super::AuthChallenge::parse(e.auth_challenge()?)
        .into_iter()
        .next();
    let status = if challenge
        .as_ref()
        .is_some_and(|c| c.error.as_deref() == Some("insufficient_scope"))
    {
        403
    } else {
        401
    };
    Some(TransportError::Unauthorized {
        status,
        url: String::new(),
        challenge: challenge.map(Box::new),
    })
}

fn can_subscribe(peer: &rmcp::service::Peer<RoleClient>) -> bool {
    peer.peer_info().is_some_and(|i| {
        i.capabilities
            .resources
            .as_ref()
            .is_some_and(|r| r.subscribe == Some(true))
    })
}

async fn read_resource(
    peer: &rmcp::service::Peer<RoleClient>,
    uri: &str,
) -> Result<Value, TransportError> {
    let r = peer
        .read_resource(rmcp::model::ReadResourceRequestParams::new(uri.to_owned()))
        .await
        .map_err(|e| {
            TransportError::Mcp(super::redact_urls_in(&format!(
                "resources/read failed: {e}"
            )))
        })?;
    serde_json::to_value(&r).map_err(|e| TransportError::Mcp(e.to_string()))
}

/// Watch `uris` for updates until the task is aborted: on MCP 2026-07-28 one
/// `subscriptions/listen` stream for all of them (re-opened, a few times, when the server
/// ends it), each update's URI sent to `updates`; before it `resources/subscribe` for each
/// (the updates then reach the client handler, which sends them to `updates` too).
async fn watch(
    peer: rmcp::service::Peer<RoleClient>,
    stateless: bool,
    uris: Vec<String>,
    updates: UnboundedSender<String>,
) {
    if !stateless {
        for uri in uris {
            #[expect(
                deprecated,
                reason = "resources/subscribe is the way before MCP 2026-07-28, which this branch serves"
            )]
            let _ = peer
                .subscribe(rmcp::model::SubscribeRequestParams::new(uri))
                .await;
        }
        return;
    }
    // Bounded: a server that keeps ending the stream is not asked again and again.
    for _ in 0..3 {
        let filter = rmcp::model::SubscriptionFilter::builder()
            .resource_subscriptions(uris.iter().cloned())
            .build();
        let Ok(mut subscription) = peer.listen(filter).await else {
            return;
        };
        loop {
            match subscription.next().await {
                Ok(Some(rmcp::model::ServerNotification::ResourceUpdatedNotification(n))) => {
                    if updates.send(n.params.uri).is_err() {
                        return;
                    }
                }
                Ok(Some(_)) => {}
                Ok(None) | Err(_) => break,
            }
        }
        match subscription.end() {
            Some(
                rmcp::service::SubscriptionEnd::Abrupt
                | rmcp::service::SubscriptionEnd::Lagged { .. },
            ) => {
                // Missed updates: read each resource again, then listen again.
                for uri in &uris {
                    if updates.send(uri.clone()).is_err() {
                        return;
                    }
                }
            }
            _ => return,
        }
    }
}
