//! A2A with the A2UI extension (feature `a2a`): an [`AgentCard`] read from
//! `/.well-known/agent-card.json`, the sans-IO [`A2aSession`] (turns → JSON-RPC requests,
//! responses and stream events → A2UI messages in its store, text in its transcript, task
//! state), and the async [`A2aClient`].
//!
//! Both wire dialects are spoken, picked from the card:
//! - **A2A 0.3** (`a2a-sdk` 0.3, `a2ui-a2a`, the official A2UI samples): `message/send` and
//!   `message/stream`, parts with `kind`, the A2UI MIME type in `metadata.mimeType`, results
//!   with `kind` (`task`, `message`, `status-update`, `artifact-update`), states like
//!   `input-required`, a `final` flag. The SDK refuses a data part whose `data` is an array
//!   (`-32602`), so we send one A2UI message per part.
//! - **A2A 1.0** (`a2a-sdk` 1.x): `SendMessage` and `SendStreamingMessage` with the
//!   `A2A-Version: 1.0` header (without it the SDK reads the request as 0.3 and refuses it,
//!   `-32009`), parts without `kind` and with `mediaType`, results wrapped as `{"task"}`,
//!   `{"statusUpdate"}`, ..., states `TASK_STATE_*`, no `final` flag (the stream ends),
//!   numbers as doubles (turned back into integers where integral).
//!
//! Incoming `data` may be one message object or an array; both MIME spellings
//! (`application/a2ui+json`, the deprecated `application/json+a2ui`) are read. Every
//! outgoing message carries the client capabilities keyed by version under
//! `a2uiClientCapabilities` and `a2uiRendererCapabilities`, and the data models of this
//! agent's `sendDataModel` surfaces (`a2uiClientDataModel`); the extension is activated with
//! both header spellings (`X-A2A-Extensions`, `A2A-Extensions`) and `message.extensions`.
//!
//! ```
//! use egui_a2ui::Catalog;
//! use egui_a2ui::transport::{Turn, a2a::{AgentCard, A2aSession}};
//! use serde_json::json;
//!
//! let card = AgentCard::parse(&json!({
//!     "name": "finder", "url": "http://127.0.0.1:1/", "protocolVersion": "0.3.0",
//!     "capabilities": {"streaming": true, "extensions": [{
//!         "uri": "https://a2ui.org/a2a-extension/a2ui/v0.9",
//!         "params": {"supportedCatalogIds": ["https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json"]}}]}
//! }), "http://127.0.0.1:1").unwrap();
//! let mut session = A2aSession::new(card, Catalog::basic()).unwrap();
//! let req = session.request(&Turn::Text("pasta".into())).unwrap();
//! assert_eq!(req.body.as_ref().unwrap()["method"], "message/stream");
//! assert_eq!(req.header("X-A2A-Extensions"), Some("https://a2ui.org/a2a-extension/a2ui/v0.9"));
//!
//! session.on_item(Ok(json!({"jsonrpc": "2.0", "id": 1, "result": {
//!     "kind": "status-update", "taskId": "t", "contextId": "c", "final": false,
//!     "status": {"state": "working", "message": {"kind": "message", "role": "agent", "messageId": "m",
//!         "parts": [{"kind": "data", "metadata": {"mimeType": "application/json+a2ui"},
//!                    "data": {"version": "v0.9", "createSurface": {"surfaceId": "s",
//!                        "catalogId": "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json"}}}]}}}})));
//! assert!(session.store().surface("s").is_some());
//! assert_eq!(session.context_id(), Some("c"));
//! ```

use std::collections::HashSet;

use serde_json::{Map, Value, json};

use super::host::SessionCore;
use super::http::{HttpClient, HttpRequest, ResponseKind, TransportOptions};
use super::{
    Role, TaskState, TranscriptEntry, TransportError, TransportEvent, Turn, apply_messages,
    data_messages, fresh_id, integral_doubles_to_ints, is_a2ui_mime,
};
use crate::capabilities::supported_catalog_ids;
use crate::model::SurfaceStore;
use crate::model::SurfaceStore as Store;
use crate::protocol::Version;
use crate::render::catalog::Catalog;

/// The A2UI extension URI without its version (`…/v0.9` names one version).
pub const EXTENSION_BASE_URI: &str = "https://a2ui.org/a2a-extension/a2ui";
/// The MIME type we send A2UI parts with.
pub const A2UI_MIME: &str = "application/a2ui+json";
/// The well-known path of the agent card.
pub const AGENT_CARD_PATH: &str = "/.well-known/agent-card.json";

/// The A2A wire dialect.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// A2A 0.3 (`kind`, `metadata.mimeType`, `message/stream`).
    V0_3,
    /// A2A 1.0 (no `kind`, `mediaType`, `SendStreamingMessage`, `A2A-Version: 1.0`).
    V1_0,
}

/// One A2UI extension entry of an agent card.
#[derive(Clone, Debug, PartialEq)]
pub struct A2uiExtension {
    /// The URI (`https://a2ui.org/a2a-extension/a2ui/v0.9`).
    pub uri: String,
    /// The A2UI version it names.
    pub version: Version,
    /// `params.supportedCatalogIds`.
    pub supported_catalog_ids: Vec<String>,
    /// `params.acceptsInlineCatalogs`.
    pub accepts_inline_catalogs: bool,
}

/// What we need of an agent card.
#[derive(Clone, Debug, PartialEq)]
pub struct AgentCard {
    /// `name`.
    pub name: String,
    /// The JSON-RPC endpoint.
    pub rpc_url: String,
    /// The dialect it speaks there.
    pub dialect: Dialect,
    /// `capabilities.streaming`.
    pub streaming: bool,
    /// The A2UI extension entries it lists (versions this crate knows).
    pub extensions: Vec<A2uiExtension>,
    /// `securitySchemes`: how the agent wants to be authenticated, by scheme name (both
    /// the 0.3 shape, `{"type": "http", "scheme": "bearer"}`, and the 1.0 one,
    /// `{"httpAuthSecurityScheme": {...}}`).
    pub security_schemes: Vec<(String, SecurityScheme)>,
    /// `security` (0.3) / `securityRequirements` (1.0): alternatives (any one will do),
    /// each a list of scheme names with their scopes (all of them needed).
    pub security: Vec<Vec<(String, Vec<String>)>>,
    /// Whether the agent serves an authenticated extended card
    /// (`supportsAuthenticatedExtendedCard` in 0.3, `capabilities.extendedAgentCard` in
    /// 1.0).
    pub extended_card: bool,
}

/// Where an API key goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ApiKeyLocation {
    /// A request header.
    Header,
    /// A query parameter.
    Query,
    /// A cookie.
    Cookie,
    /// Another place, as sent.
    Other(String),
}

/// One OAuth 2 flow of a card's scheme.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OAuthFlow {
    /// `authorizationCode`, `clientCredentials`, `deviceCode`, `implicit` or `password`.
    pub kind: String,
    /// `authorizationUrl`.
    pub authorization_url: Option<String>,
    /// `tokenUrl`.
    pub token_url: Option<String>,
    /// `refreshUrl`.
    pub refresh_url: Option<String>,
    /// `deviceAuthorizationUrl`.
    pub device_authorization_url: Option<String>,
    /// The scope names offered.
    pub scopes: Vec<String>,
}

/// One security scheme of an agent card (OpenAPI's, as A2A uses them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SecurityScheme {
    /// An API key in a header, query parameter or cookie.
    ApiKey {
        /// Where it goes.
        location: ApiKeyLocation,
        /// The header, parameter or cookie name.
        name: String,
    },
    /// HTTP authentication: `bearer` (with its `bearerFormat`), `basic`, ...
    Http {
        /// The scheme, lower-cased (`bearer`, `basic`).
        scheme: String,
        /// `bearerFormat` (`JWT`), when given.
        bearer_format: Option<String>,
    },
    /// OAuth 2 with these flows.
    OAuth2 {
        /// The flows offered.
        flows: Vec<OAuthFlow>,
        /// `oauth2MetadataUrl` (RFC 8414), when given.
        metadata_url: Option<String>,
    },
    /// OpenID Connect discovery at this URL.
    OpenIdConnect {
        /// `openIdConnectUrl`.
        url: String,
    },
    /// Mutual TLS (a client certificate; not something a header can carry).
    MutualTls,
    /// A type this crate does not know, as sent.
    Other(String),
}

impl SecurityScheme {
    /// Read one scheme in either shape.
    pub fn parse(v: &Value) -> Self {
        let s = |o: &Value, k: &str| o.get(k).and_then(Value::as_str).map(str::to_owned);
        let one_of = [
            ("apiKeySecurityScheme", "apiKey"),
            ("httpAuthSecurityScheme", "http"),
            ("oauth2SecurityScheme", "oauth2"),
            ("openIdConnectSecurityScheme", "openIdConnect"),
            ("mtlsSecurityScheme", "mutualTLS"),
        ];
        let (kind, body) = one_of
            .iter()
            .find_map(|(k, t)| v.get(*k).map(|b| ((*t).to_owned(), b)))
            .unwrap_or_else(|| (s(v, "type").unwrap_or_default(), v));
        match kind.as_str() {
            "apiKey" => Self::ApiKey {
                location: match s(body, "in")
                    .or_else(|| s(body, "location"))
                    .unwrap_or_default()
                    .to_ascii_lowercase()
                    .as_str()
                {
                    "header" => ApiKeyLocation::Header,
                    "query" => ApiKeyLocation::Query,
                    "cookie" => ApiKeyLocation::Cookie,
                    other => ApiKeyLocation::Other(other.to_owned()),
                },
                name: s(body, "name").unwrap_or_default(),
            },
            "http" => Self::Http {
                scheme: s(body, "scheme").unwrap_or_default().to_ascii_lowercase(),
                bearer_format: s(body, "bearerFormat").filter(|f| !f.is_empty()),
            },
            "oauth2" => Self::OAuth2 {
                flows: body
                    .get("flows")
                    .and_then(Value::as_object)
                    .map(|flows| {
                        flows
                            .iter()
                            .map(|(kind, f)| OAuthFlow {
                                kind: kind.clone(),
                                authorization_url: s(f, "authorizationUrl"),
                                token_url: s(f, "tokenUrl"),
                                refresh_url: s(f, "refreshUrl"),
                                device_authorization_url: s(f, "deviceAuthorizationUrl"),
                                scopes: f
                                    .get("scopes")
                                    .and_then(Value::as_object)
                                    .map(|m| m.keys().cloned().collect())
                                    .unwrap_or_default(),
                            })
                            .collect()
                    })
                    .unwrap_or_default(),
                metadata_url: s(body, "oauth2MetadataUrl").filter(|u| !u.is_empty()),
            },
            "openIdConnect" => Self::OpenIdConnect {
                url: s(body, "openIdConnectUrl").unwrap_or_default(),
            },
            "mutualTLS" | "mtls" => Self::MutualTls,
            other => Self::Other(other.to_owned()),
        }
    }
}

/// `security` (0.3: `[{"name": ["scope"]}]`) or `securityRequirements` (1.0:
/// `[{"schemes": {"name": {"list": ["scope"]}}}]`).
fn parse_requirements(v: Option<&Value>) -> Vec<Vec<(String, Vec<String>)>> {
    let strings = |v: &Value| -> Vec<String> {
        let list = v.get("list").unwrap_or(v);
        list.as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|s| s.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default()
    };
    v.and_then(Value::as_array)
        .map(|alts| {
            alts.iter()
                .filter_map(|alt| {
                    let m = alt
                        .get("schemes")
                        .and_then(Value::as_object)
                        .or_else(|| alt.as_object())?;
                    Some(m.iter().map(|(k, v)| (k.clone(), strings(v))).collect())
                })
                .collect()
        })
        .unwrap_or_default()
}

fn version_of_uri(uri: &str) -> Option<Version> {
    let v = uri.strip_prefix(EXTENSION_BASE_URI)?.strip_prefix("/v")?;
    match v {
        "0.8" => Some(Version::V0_8),
        "0.9" => Some(Version::V0_9),
        "0.9.1" => Some(Version::V0_9_1),
        "1.0" => Some(Version::V1_0),
        _ => None,
    }
}

impl AgentCard {
    /// The card's address for an agent's base URL (a URL already naming a `.json` file is
    /// taken as the card's).
    pub fn card_url(base_url: &str) -> String {
        if base_url.ends_with(".json") {
            return base_url.to_owned();
        }
        format!("{}{AGENT_CARD_PATH}", base_url.trim_end_matches('/'))
    }

    /// Read a card. The dialect: a `supportedInterfaces` entry with the `JSONRPC` binding is
    /// A2A 1.0 (its `protocolVersion` decides when given), else the top-level `url` with
    /// `protocolVersion` (0.3 when absent). `base_url` stands in for a missing `url`.
    pub fn parse(card: &Value, base_url: &str) -> Result<Self, TransportError> {
        let Some(obj) = card.as_object() else {
            return Err(TransportError::MalformedPayload(
                "the agent card is not a JSON object".into(),
            ));
        };
        let name = obj
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or("agent")
            .to_owned();
        let jsonrpc_iface = obj
            .get("supportedInterfaces")
            .and_then(Value::as_array)
            .and_then(|ifs| {
                ifs.iter().find(|i| {
                    i.get("protocolBinding")
                        .and_then(Value::as_str)
                        .is_some_and(|b| b.eq_ignore_ascii_case("JSONRPC"))
                })
            });
        let version_dialect = |v: Option<&str>, default: Dialect| match v {
            Some(v) if v.starts_with('1') => Dialect::V1_0,
            Some(v) if v.starts_with("0.") => Dialect::V0_3,
            _ => default,
        };
        let (rpc_url, dialect) = if let Some(i) = jsonrpc_iface {
            let url = i.get("url").and_then(Value::as_str).unwrap_or(base_url);
            let d = version_dialect(
                i.get("protocolVersion").and_then(Value::as_str),
                Dialect::V1_0,
            );
            (url.to_owned(), d)
        } else {
            if let Some(t) = obj.get("preferredTransport").and_then(Value::as_str)
                && !t.eq_ignore_ascii_case("JSONRPC")
            {
                return Err(TransportError::Unsupported(format!(
                    "the agent prefers the {t} transport; this client speaks JSON-RPC"
                )));
            }
            let url = obj.get("url").and_then(Value::as_str).unwrap_or(base_url);
            let d = version_dialect(
                obj.get("protocolVersion").and_then(Value::as_str),
                Dialect::V0_3,
            );
            (url.to_owned(), d)
        };
        let caps = obj.get("capabilities");
        let streaming = caps
            .and_then(|c| c.get("streaming"))
            .and_then(Value::as_bool)
            .unwrap_or(false);
        let extensions = caps
            .and_then(|c| c.get("extensions"))
            .and_then(Value::as_array)
            .map(|exts| {
                exts.iter()
                    .filter_map(|e| {
                        let uri = e.get("uri")?.as_str()?;
                        let version = version_of_uri(uri)?;
                        let params = e.get("params");
                        Some(A2uiExtension {
                            uri: uri.to_owned(),
                            version,
                            supported_catalog_ids: params
                                .and_then(|p| p.get("supportedCatalogIds"))
                                .and_then(Value::as_array)
                                .map(|a| {
                                    a.iter()
                                        .filter_map(|s| s.as_str().map(str::to_owned))
                                        .collect()
                                })
                                .unwrap_or_default(),
                            accepts_inline_catalogs: params
                                .and_then(|p| p.get("acceptsInlineCatalogs"))
                                .and_then(Value::as_bool)
                                .unwrap_or(false),
                        })
                    })
                    .collect()
            })
            .unwrap_or_default();
        let security_schemes = obj
            .get("securitySchemes")
            .and_then(Value::as_object)
            .map(|m| {
                m.iter()
                    .map(|(k, v)| (k.clone(), SecurityScheme::parse(v)))
                    .collect()
            })
            .unwrap_or_default();
        let security = parse_requirements(
            obj.get("securityRequirements")
                .or_else(|| obj.get("security")),
        );
        let extended_card = obj
            .get("supportsAuthenticatedExtendedCard")
            .and_then(Value::as_bool)
            .or_else(|| {
                caps.and_then(|c| c.get("extendedAgentCard"))
                    .and_then(Value::as_bool)
            })
            .unwrap_or(false);
        Ok(Self {
            name,
            rpc_url,
            dialect,
            streaming,
            extensions,
            security_schemes,
            security,
            extended_card,
        })
    }

    /// The JSON-RPC request for the authenticated extended card
    /// (`agent/getAuthenticatedExtendedCard` in 0.3, `GetExtendedAgentCard` in 1.0).
    pub fn extended_card_request(&self) -> HttpRequest {
        let (method, headers) = match self.dialect {
            Dialect::V0_3 => ("agent/getAuthenticatedExtendedCard", Vec::new()),
            Dialect::V1_0 => (
                "GetExtendedAgentCard",
                vec![("A2A-Version".to_owned(), "1.0".to_owned())],
            ),
        };
        HttpRequest {
            url: self.rpc_url.clone(),
            headers,
            body: Some(json!({"jsonrpc": "2.0", "id": 0, "method": method, "params": {}})),
            expect: ResponseKind::Json,
        }
    }

    /// Whether to ask for the extended card: the card says there is one and the host has
    /// credentials.
    pub fn wants_extended_card(&self, options: &TransportOptions) -> bool {
        self.extended_card && options.credentials.is_set()
    }

    /// Read the extended card's JSON-RPC answer (its `result`), keeping this card's
    /// endpoint when the extended one names none.
    pub fn parse_extended(answer: &Value, base_url: &str) -> Result<Self, TransportError> {
        if let Some(err) = answer.get("error") {
            return Err(TransportError::JsonRpc {
                code: err.get("code").and_then(Value::as_i64).unwrap_or(0),
                message: err
                    .get("message")
                    .and_then(Value::as_str)
                    .unwrap_or("(no message)")
                    .to_owned(),
            });
        }
        let card = answer.get("result").ok_or_else(|| {
            TransportError::MalformedPayload("the extended card answer has no result".into())
        })?;
        Self::parse(card, base_url)
    }

    /// The newest A2UI version both sides support: an extension whose version family our
    /// catalog serves and, when the agent names catalogs, one catalog id in common.
    pub fn negotiate(&self, catalog: &Catalog) -> Result<&A2uiExtension, TransportError> {
        self.extensions
            .iter()
            .filter(|e| {
                let ours = supported_catalog_ids(catalog, e.version);
                !ours.is_empty()
                    && (e.supported_catalog_ids.is_empty()
                        || e.supported_catalog_ids.iter().any(|id| ours.contains(id)))
            })
            .max_by_key(|e| e.version)
            .ok_or_else(|| {
                if self.extensions.is_empty() {
                    TransportError::Unsupported(format!(
                        "the agent card of {} lists no A2UI extension",
                        self.name
                    ))
                } else {
                    TransportError::Unsupported(format!(
                        "no A2UI version in common with {} (it offers {})",
                        self.name,
                        self.extensions
                            .iter()
                            .map(|e| e.version.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ))
                }
            })
    }
}

/// The sans-IO A2A conversation with one agent: its surfaces, transcript, task and context.
#[derive(Debug)]
pub struct A2aSession {
    card: AgentCard,
    /// `None` for an agent whose card lists no A2UI extension: a plain A2A agent, talked to
    /// in text (its answers go to the transcript; no extension is activated).
    extension: Option<A2uiExtension>,
    catalog: Catalog,
    core: SessionCore,
    context_id: Option<String>,
    task_id: Option<String>,
    streaming: bool,
    next_id: u64,
    seen: HashSet<String>,
    turn_error: Option<TransportError>,
    final_seen: bool,
    /// Picking up a cut stream: resubscriptions made this turn, and whether `tasks/get`
    /// was sent.
    resubscribes: u32,
    fetched: bool,
    /// The error that cut the stream, reported when picking it up fails too.
    cut_error: Option<TransportError>,
    /// Artifact parts applied this turn (`artifactId#index`), so a repeated one is not
    /// applied twice.
    artifact_parts: HashSet<String>,
    /// How many parts each artifact has had this turn (for `append` chunks).
    artifact_len: std::collections::HashMap<String, usize>,
}

/// How many times a cut A2A stream is resubscribed in one turn before `tasks/get`.
pub const MAX_RESUBSCRIBES: u32 = 3;

/// Whether an A2A stream event means the turn is over or paused (a final, interrupted or
/// input-/auth-required status, or 0.3's `final: true`): stop reading there (a 1.0
/// `SubscribeToTask` stream stays open at `input-required`).
pub fn ends_turn(v: &Value) -> bool {
    let Some(r) = v.get("result") else {
        return v.get("error").is_some();
    };
    if r.get("final").and_then(Value::as_bool) == Some(true) {
        return true;
    }
    let status = r
        .get("status")
        .or_else(|| r.pointer("/statusUpdate/status"))
        .or_else(|| r.pointer("/task/status"));
    status
        .and_then(|s| s.get("state"))
        .and_then(Value::as_str)
        .map(TaskState::from_a2a)
        .is_some_and(|s| {
            s.is_terminal() || matches!(s, TaskState::InputRequired | TaskState::AuthRequired)
        })
}

impl A2aSession {
    /// A session with the agent of `card`, drawing with `catalog` (its catalog ids are the
    /// capabilities we advertise). Streams when the card says the agent can.
    pub fn new(card: AgentCard, catalog: Catalog) -> Result<Self, TransportError> {
        // An agent without the extension is still an agent: text in, text out. One that
        // lists A2UI versions but none we share is refused (its interface could not be drawn).
        let extension = if card.extensions.is_empty() {
            None
        } else {
            Some(card.negotiate(&catalog)?.clone())
        };
        let streaming = card.streaming;
        let mut store = Store::new(catalog.catalogs());
        // Who the surfaces come from, as the card and its endpoint say (the renderer frames
        // and labels every surface with it).
        store.set_origin(Some(
            crate::model::AgentOrigin::new(&card.name).with_host(&card.rpc_url),
        ));
        Ok(Self {
            card,
            extension,
            catalog,
            core: SessionCore::new(store),
            context_id: None,
            task_id: None,
            streaming,
            next_id: 1,
            seen: HashSet::new(),
            turn_error: None,
            final_seen: false,
            resubscribes: 0,
            fetched: false,
            cut_error: None,
            artifact_parts: HashSet::new(),
            artifact_len: std::collections::HashMap::new(),
        })
    }

    /// Use `message/send` (`false`) or `message/stream` (`true`).
    pub fn with_streaming(mut self, streaming: bool) -> Self {
        self.streaming = streaming;
        self
    }

    /// Switch between `message/send` and `message/stream` for the next turns.
    pub fn set_streaming(&mut self, streaming: bool) {
        self.streaming = streaming;
    }

    /// Use these caps in the store.
    pub fn with_limits(mut self, limits: crate::limits::Limits) -> Self {
        self.core.store.set_limits(limits);
        self
    }

    /// The agent card.
    pub fn card(&self) -> &AgentCard {
        &self.card
    }

    /// The A2UI extension in use (the newest version both sides support), or `None` for
    /// an agent whose card lists no A2UI extension (talked to in text only).
    pub fn extension(&self) -> Option<&A2uiExtension> {
        self.extension.as_ref()
    }

    /// The surfaces.
    pub fn store(&self) -> &SurfaceStore {
        &self.core.store
    }

    /// The surfaces, mutably (draw them; user input writes into them).
    pub fn store_mut(&mut self) -> &mut SurfaceStore {
        &mut self.core.store
    }

    /// The conversation's text, oldest first.
    pub fn transcript(&self) -> &[TranscriptEntry] {
        &self.core.transcript
    }

    /// The A2A context id (kept across turns once the agent gave one).
    pub fn context_id(&self) -> Option<&str> {
        self.context_id.as_deref()
    }

    /// The open task (kept while it is not over).
    pub fn task_id(&self) -> Option<&str> {
        self.task_id.as_deref()
    }

    /// The task's last state.
    pub fn state(&self) -> Option<&TaskState> {
        self.core.state.as_ref()
    }

    /// Whether requests stream.
    pub fn is_streaming(&self) -> bool {
        self.streaming
    }

    /// The JSON-RPC method of the next request.
    pub fn method(&self) -> &'static str {
        match (self.card.dialect, self.streaming) {
            (Dialect::V0_3, true) => "message/stream",
            (Dialect::V0_3, false) => "message/send",
            (Dialect::V1_0, true) => "SendStreamingMessage",
            (Dialect::V1_0, false) => "SendMessage",
        }
    }

    fn data_part(&self, data: Value) -> Value {
        match self.card.dialect {
            Dialect::V0_3 => json!({"kind": "data", "data": data,
                                    "metadata": {"mimeType": A2UI_MIME}}),
            Dialect::V1_0 => json!({"data": data, "mediaType": A2UI_MIME,
                                    "metadata": {"mimeType": A2UI_MIME}}),
        }
    }

    /// The request for one turn: a user message with a text part, or with an A2UI data part
    /// holding the action (`[message]` for A2A 1.0, the message itself for 0.3), the
    /// capabilities and data models in its metadata, the context and open task ids.
    pub fn request(&mut self, turn: &Turn) -> Result<HttpRequest, TransportError> {
        self.seen.clear();
        self.turn_error = None;
        self.final_seen = false;
        self.resubscribes = 0;
        self.fetched = false;
        self.cut_error = None;
        self.artifact_parts.clear();
        self.artifact_len.clear();
        let parts = match turn {
            Turn::Text(t) => {
                self.core.push_transcript(TranscriptEntry {
                    role: Role::User,
                    text: t.clone(),
                    message_id: None,
                });
                vec![match self.card.dialect {
                    Dialect::V0_3 => json!({"kind": "text", "text": t}),
                    Dialect::V1_0 => json!({"text": t}),
                }]
            }
            Turn::Action(a) => {
                if self.core.store.surface(&a.surface_id).is_none() {
                    return Err(TransportError::Action(format!(
                        "surface {} is not this agent's",
                        a.surface_id
                    )));
                }
                let m = a.to_message();
                vec![match self.card.dialect {
                    Dialect::V0_3 => self.data_part(m),
                    Dialect::V1_0 => self.data_part(Value::Array(vec![m])),
                }]
            }
        };
        // The A2UI capabilities and data models go only to an agent that activated the
        // extension (one that did not is talked to in plain text).
        let metadata = self.extension.as_ref().map(|e| {
            let mut metadata = super::outgoing_metadata(&self.catalog, &self.core.store);
            if e.accepts_inline_catalogs {
                add_inline_catalogs(&mut metadata, &self.catalog);
            }
            metadata
        });
        let mut message = Map::new();
        if self.card.dialect == Dialect::V0_3 {
            message.insert("kind".into(), json!("message"));
        }
        message.insert(
            "role".into(),
            json!(match self.card.dialect {
                Dialect::V0_3 => "user",
                Dialect::V1_0 => "ROLE_USER",
            }),
        );
        message.insert("messageId".into(), json!(fresh_id("egui-a2ui")));
        message.insert("parts".into(), Value::Array(parts));
        if let Some(c) = &self.context_id {
            message.insert("contextId".into(), json!(c));
        }
        if let Some(t) = &self.task_id {
            message.insert("taskId".into(), json!(t));
        }
        if let Some(metadata) = metadata {
            message.insert("metadata".into(), Value::Object(metadata));
        }
        if let Some(e) = &self.extension {
            message.insert("extensions".into(), json!([e.uri]));
        }
        let id = self.next_id;
        self.next_id += 1;
        let body = json!({
            "jsonrpc": "2.0", "id": id, "method": self.method(),
            "params": {"message": Value::Object(message)},
        });
        let mut headers = Vec::new();
        if let Some(e) = &self.extension {
            headers.push(("X-A2A-Extensions".to_owned(), e.uri.clone()));
            headers.push(("A2A-Extensions".to_owned(), e.uri.clone()));
        }
        if self.card.dialect == Dialect::V1_0 {
            headers.push(("A2A-Version".to_owned(), "1.0".to_owned()));
        }
        Ok(HttpRequest {
            url: self.card.rpc_url.clone(),
            headers,
            body: Some(body),
            expect: if self.streaming {
                ResponseKind::Sse
            } else {
                ResponseKind::Json
            },
        })
    }

    /// The request that cancels the current task (`tasks/cancel` in 0.3, `CancelTask` in
    /// 1.0), when there is a task to cancel. The task is over for this session: the next
    /// turn starts a new one (in the same context).
    pub fn cancel_request(&mut self) -> Option<HttpRequest> {
        let task = self.task_id.take()?;
        let id = self.next_id;
        self.next_id += 1;
        let method = match self.card.dialect {
            Dialect::V0_3 => "tasks/cancel",
            Dialect::V1_0 => "CancelTask",
        };
        let body = json!({
            "jsonrpc": "2.0", "id": id, "method": method, "params": {"id": task},
        });
        let mut headers = Vec::new();
        if self.card.dialect == Dialect::V1_0 {
            headers.push(("A2A-Version".to_owned(), "1.0".to_owned()));
        }
        Some(HttpRequest {
            url: self.card.rpc_url.clone(),
            headers,
            body: Some(body),
            expect: ResponseKind::Json,
        })
    }

    /// Whether the turn's stream ended early: streaming, a task known, no final flag and
    /// the task neither over nor waiting for the user.
    fn cut_short(&self) -> bool {
        self.streaming
            && self.task_id.is_some()
            && !self.final_seen
            && !self.core.state.as_ref().is_some_and(|s| {
                s.is_terminal() || matches!(s, TaskState::InputRequired | TaskState::AuthRequired)
            })
    }

    fn rpc(&mut self, method: &str, params: Value, expect: ResponseKind) -> HttpRequest {
        let id = self.next_id;
        self.next_id += 1;
        let mut headers = Vec::new();
        if self.card.dialect == Dialect::V1_0 {
            headers.push(("A2A-Version".to_owned(), "1.0".to_owned()));
        }
        HttpRequest {
            url: self.card.rpc_url.clone(),
            headers,
            body: Some(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})),
            expect,
        }
    }

    /// The stream of the turn ended (`outcome`): when it ended before the task reached a
    /// final or interrupted state (the official SDK servers end a cut stream silently, a
    /// proxy cuts it with an error), the request that picks it up again and the delay
    /// before it. First up to [`MAX_RESUBSCRIBES`] resubscriptions (`tasks/resubscribe` /
    /// `SubscribeToTask`, backoff 0.2 s, 0.4 s, 0.8 s), then once `tasks/get` / `GetTask`
    /// (also at once when a resubscription is refused, `-32001` task not found). Every
    /// A2UI message is applied once: messages are told apart by `messageId`, artifact
    /// parts by artifact id and index. `None`: the turn is over, [`Self::finish`] it.
    pub fn after_stream_end(
        &mut self,
        outcome: &Result<(), TransportError>,
    ) -> Option<(HttpRequest, std::time::Duration)> {
        if self.fetched || !self.streaming {
            return None;
        }
        let refused = matches!(self.turn_error, Some(TransportError::JsonRpc { .. }));
        if refused && self.resubscribes == 0 {
            return None; // the turn's own request was refused: nothing to pick up
        }
        // A clean end or a cut connection; a stall (timeout) or a refusal is reported as is.
        // Once picking up, a failed attempt (the agent unreachable) counts as one attempt.
        let resumable = match outcome {
            Ok(()) => true,
            Err(TransportError::Interrupted { .. }) => true,
            Err(TransportError::Unauthorized { .. }) => false,
            Err(_) => self.resubscribes > 0,
        };
        if let Err(e) = outcome
            && self.cut_error.is_none()
            && resumable
        {
            self.cut_error = Some(e.clone());
        }
        let cut = resumable && self.cut_short();
        if !cut && self.resubscribes == 0 {
            return None;
        }
        let task = self.task_id.clone()?;
        // After a resubscription, one `tasks/get` fills what the cut lost (what the agent
        // sent between the cut and the resubscription); repeats are skipped.
        if !cut || refused || self.resubscribes >= MAX_RESUBSCRIBES {
            self.turn_error = None;
            self.fetched = true;
            let method = match self.card.dialect {
                Dialect::V0_3 => "tasks/get",
                Dialect::V1_0 => "GetTask",
            };
            let req = self.rpc(method, json!({"id": task}), ResponseKind::Json);
            return Some((req, std::time::Duration::ZERO));
        }
        self.resubscribes += 1;
        let method = match self.card.dialect {
            Dialect::V0_3 => "tasks/resubscribe",
            Dialect::V1_0 => "SubscribeToTask",
        };
        let req = self.rpc(method, json!({"id": task}), ResponseKind::Sse);
        let delay = std::time::Duration::from_millis(200 << (self.resubscribes - 1));
        Some((req, delay))
    }

    /// One JSON-RPC response (the `message/send` answer, or one event of the stream), or a
    /// per-event problem from the I/O. Applies the A2UI parts it carries as it comes.
    pub fn on_item(&mut self, item: Result<Value, TransportError>) -> Vec<TransportEvent> {
        let mut events = Vec::new();
        let v = match item {
            Ok(v) => v,
            Err(e) => {
                events.push(TransportEvent::Notice(e));
                return events;
            }
        };
        if let Some(err) = v.get("error") {
            let e = TransportError::JsonRpc {
                code: err.get("code").and_then(Value::as_i64).unwrap_or(0),
                message: err
                    .get("message")
                    .and_then(Value::as_str)
                    .unwrap_or("(no message)")
                    .to_owned(),
            };
            self.turn_error.get_or_insert(e);
            return events;
        }
        let Some(result) = v.get("result") else {
            events.push(TransportEvent::Notice(TransportError::MalformedPayload(
                "a JSON-RPC response with neither result nor error".into(),
            )));
            return events;
        };
        // A2A 1.0 wraps each result in its kind; 0.3 tags it with `kind`.
        let (kind, body) = if let Some(k) = result.get("kind").and_then(Value::as_str) {
            (k.to_owned(), result)
        } else if let Some(b) = result.get("task") {
            ("task".into(), b)
        } else if let Some(b) = result.get("message") {
            ("message".into(), b)
        } else if let Some(b) = result.get("statusUpdate") {
            ("status-update".into(), b)
        } else if let Some(b) = result.get("artifactUpdate") {
            ("artifact-update".into(), b)
        } else {
            events.push(TransportEvent::Notice(TransportError::MalformedPayload(
                "a result that is not a task, message or update".into(),
            )));
            return events;
        };
        match kind.as_str() {
            "task" => self.on_task(body, &mut events),
            "message" => self.on_message(body, &mut events),
            "status-update" => {
                self.on_ids(body, "taskId");
                if let Some(status) = body.get("status") {
                    self.on_status(status, &mut events);
                }
                if body.get("final").and_then(Value::as_bool) == Some(true) {
                    self.final_seen = true;
                }
            }
            "artifact-update" => {
                self.on_ids(body, "taskId");
                if let Some(a) = body.get("artifact") {
                    let append = body.get("append").and_then(Value::as_bool) == Some(true);
                    self.on_artifact(a, append, &mut events);
                }
            }
            other => events.push(TransportEvent::Notice(TransportError::MalformedPayload(
                format!("unknown result kind {other:?}"),
            ))),
        }
        events
    }

    /// The turn's I/O ended (`outcome` is the exchange's result). Closes the turn: a task
    /// that is over is let go (the next turn starts a new one in the same context).
    pub fn finish(&mut self, outcome: Result<(), TransportError>) -> Vec<TransportEvent> {
        // When picking up a cut stream failed too, the cut is what the host is told.
        let error = match outcome {
            Ok(()) => self.turn_error.take(),
            Err(e) => Some(self.cut_error.take().unwrap_or(e)),
        };
        self.cut_error = None;
        if self.core.state.as_ref().is_some_and(TaskState::is_terminal) {
            self.task_id = None;
        }
        vec![TransportEvent::TurnEnded { error }]
    }

    fn on_ids(&mut self, body: &Value, task_key: &str) {
        if let Some(c) = body.get("contextId").and_then(Value::as_str) {
            self.context_id = Some(c.to_owned());
        }
        if let Some(t) = body.get(task_key).and_then(Value::as_str) {
            self.task_id = Some(t.to_owned());
        }
    }

    fn on_task(&mut self, task: &Value, events: &mut Vec<TransportEvent>) {
        self.on_ids(task, "id");
        // A `message/send` answer is the whole task: the agent's messages of this turn are
        // in its history (after the last user message), the last one in its status.
        if let Some(history) = task.get("history").and_then(Value::as_array) {
            let start = history.iter().rposition(is_user).map_or(0, |i| i + 1);
            for m in &history[start..] {
                self.on_message(m, events);
            }
        }
        if let Some(status) = task.get("status") {
            self.on_status(status, events);
        }
        if let Some(artifacts) = task.get("artifacts").and_then(Value::as_array) {
            for a in artifacts {
                self.on_artifact(a, false, events);
            }
        }
    }

    /// An artifact's parts, each applied once a turn (by artifact id and index; an
    /// `append` chunk's parts come after the ones already had).
    fn on_artifact(&mut self, a: &Value, append: bool, events: &mut Vec<TransportEvent>) {
        let Some(parts) = a.get("parts").and_then(Value::as_array) else {
            return;
        };
        let id = a
            .get("artifactId")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let start = match (&id, append) {
            (Some(id), true) => self.artifact_len.get(id).copied().unwrap_or(0),
            _ => 0,
        };
        for (i, p) in parts.iter().enumerate() {
            if let Some(id) = &id
                && !self.artifact_parts.insert(format!("{id}#{}", start + i))
            {
                continue; // the same part again (a resubscribed stream, `tasks/get`)
            }
            self.on_part(p, events);
        }
        if let Some(id) = id {
            let n = self.artifact_len.entry(id).or_insert(0);
            *n = (*n).max(start + parts.len());
        }
    }

    fn on_status(&mut self, status: &Value, events: &mut Vec<TransportEvent>) {
        if let Some(m) = status.get("message") {
            self.on_message(m, events);
        }
        if let Some(s) = status.get("state").and_then(Value::as_str) {
            let state = TaskState::from_a2a(s);
            self.core.state = Some(state.clone());
            events.push(TransportEvent::State {
                state,
                task_id: self.task_id.clone(),
                context_id: self.context_id.clone(),
            });
        }
    }

    fn on_message(&mut self, m: &Value, events: &mut Vec<TransportEvent>) {
        if is_user(m) {
            return;
        }
        if let Some(id) = m.get("messageId").and_then(Value::as_str)
            && !self.seen.insert(id.to_owned())
        {
            return; // the same message again (history, then status)
        }
        self.on_ids(m, "taskId");
        if let Some(parts) = m.get("parts").and_then(Value::as_array) {
            for p in parts {
                self.on_part(p, events);
            }
        }
    }

    fn on_part(&mut self, part: &Value, events: &mut Vec<TransportEvent>) {
        let kind = part.get("kind").and_then(Value::as_str);
        let text = part.get("text").and_then(Value::as_str);
        if kind == Some("text") || (kind.is_none() && text.is_some()) {
            let t = text.unwrap_or_default().to_owned();
            self.core.push_transcript(TranscriptEntry {
                role: Role::Agent,
                text: t.clone(),
                message_id: None,
            });
            events.push(TransportEvent::Text {
                role: Role::Agent,
                text: t,
            });
            return;
        }
        let Some(data) = part.get("data") else {
            return; // file parts: not ours
        };
        if kind.is_some_and(|k| k != "data") {
            return;
        }
        let mime = part
            .get("mediaType")
            .and_then(Value::as_str)
            .filter(|m| !m.is_empty())
            .or_else(|| part.pointer("/metadata/mimeType").and_then(Value::as_str))
            .or_else(|| part.pointer("/metadata/mediaType").and_then(Value::as_str));
        if !mime.is_some_and(is_a2ui_mime) {
            events.push(TransportEvent::Notice(TransportError::NotA2ui {
                mime: mime.map(str::to_owned),
            }));
            return;
        }
        let mut data = data.clone();
        if self.card.dialect == Dialect::V1_0 {
            integral_doubles_to_ints(&mut data);
        }
        apply_messages(&mut self.core.store, data_messages(data), events);
    }

    /// Whether the agent marked the turn final (A2A 0.3 `final: true`; A2A 1.0 streams just
    /// end).
    pub fn final_seen(&self) -> bool {
        self.final_seen
    }
}

/// The definitions of the host's own catalogs (every catalog id `catalog` serves in
/// `family` that is not one of the basic catalogs), for the capabilities' `inlineCatalogs`:
/// each one's [`Catalog::definition_of`] (`catalogId`, `components` with their property
/// schemas: the basic ones as published, a host's as declared with
/// [`Catalog::set_component_schema`], `functions`, `$defs`; v1.0 ones with
/// `protocolVersion`), with the `allowedParents` / `allowedChildren` the store enforces, so
/// an agent that accepts inline catalogs learns which components it may use and their
/// properties.
pub fn inline_catalogs(catalog: &Catalog, family: Version) -> Vec<Value> {
    let basic = crate::model::Catalogs::basic();
    let known = catalog.catalogs();
    supported_catalog_ids(catalog, family)
        .into_iter()
        .filter(|id| basic.get(id).is_none())
        .filter_map(|id| {
            let info = known.get(&id)?;
            let mut doc = catalog.definition_of(&id, family)?;
            if let Some(Value::Object(components)) = doc.get_mut("components") {
                // Every component the store accepts under the id is listed.
                for name in &info.components {
                    if !components.contains_key(name) {
                        components.insert(
                            name.clone(),
                            crate::catalog_def::component_entry(name, None, family),
                        );
                    }
                }
                for (name, def) in components.iter_mut() {
                    let (Some(c), Some(def)) = (info.composition.get(name), def.as_object_mut())
                    else {
                        continue;
                    };
                    if let Some(p) = &c.allowed_parents {
                        def.entry("allowedParents").or_insert_with(|| json!(p));
                    }
                    if let Some(ch) = &c.allowed_children {
                        def.entry("allowedChildren").or_insert_with(|| json!(ch));
                    }
                }
            }
            Some(doc)
        })
        .collect()
}

/// Put [`inline_catalogs`] into the capability entries of `metadata` (`v0.9`, `v0.9.1`
/// and `v1.0`), where there are any.
fn add_inline_catalogs(metadata: &mut Map<String, Value>, catalog: &Catalog) {
    use crate::capabilities::{CLIENT_CAPABILITIES_KEY, RENDERER_CAPABILITIES_KEY};
    let v09 = inline_catalogs(catalog, Version::V0_9);
    let v10 = inline_catalogs(catalog, Version::V1_0);
    for (key, version, defs) in [
        (CLIENT_CAPABILITIES_KEY, "v0.9", &v09),
        (CLIENT_CAPABILITIES_KEY, "v0.9.1", &v09),
        (RENDERER_CAPABILITIES_KEY, "v1.0", &v10),
    ] {
        if defs.is_empty() {
            continue;
        }
        if let Some(Value::Object(entry)) =
            metadata.get_mut(key).and_then(|caps| caps.get_mut(version))
        {
            entry.insert("inlineCatalogs".into(), Value::Array(defs.clone()));
        }
    }
}

fn is_user(m: &Value) -> bool {
    matches!(
        m.get("role").and_then(Value::as_str),
        Some("user" | "ROLE_USER")
    )
}

/// The async A2A client: card discovery, then one exchange per turn.
#[derive(Debug)]
pub struct A2aClient {
    http: HttpClient,
    session: A2aSession,
}

impl A2aClient {
    /// Fetch the card of the agent at `base_url` (its `/.well-known/agent-card.json`), pick
    /// the dialect and the A2UI version, and open a session drawing with `catalog`.
    pub async fn connect(
        base_url: &str,
        catalog: Catalog,
        options: TransportOptions,
    ) -> Result<Self, TransportError> {
        let limits = options.limits.clone();
        let http = HttpClient::new(options)?;
        let card = http.get_json(&AgentCard::card_url(base_url)).await?;
        let mut card = AgentCard::parse(&card, base_url)?;
        if card.wants_extended_card(http.options()) {
            let mut answer = None;
            http.exchange(&card.extended_card_request(), |v| answer = Some(v))
                .await?;
            if let Some(answer) = answer {
                card = AgentCard::parse_extended(&answer?, base_url)?;
            }
        }
        let session = A2aSession::new(card, catalog)?.with_limits(limits);
        Ok(Self { http, session })
    }

    /// A client for a session made elsewhere.
    pub fn from_session(
        session: A2aSession,
        options: TransportOptions,
    ) -> Result<Self, TransportError> {
        Ok(Self {
            http: HttpClient::new(options)?,
            session,
        })
    }

    /// The session (store, transcript, task state).
    pub fn session(&self) -> &A2aSession {
        &self.session
    }

    /// The session, mutably.
    pub fn session_mut(&mut self) -> &mut A2aSession {
        &mut self.session
    }

    /// Run one turn: send it, apply the answer as it streams in, and hand every event to
    /// `on_event` in order (the last is [`TransportEvent::TurnEnded`]). Returns the error
    /// that ended the turn, if any.
    pub async fn send(
        &mut self,
        turn: &Turn,
        on_event: impl FnMut(&TransportEvent),
    ) -> Result<(), TransportError> {
        super::host::drive(&self.http, &mut self.session, turn, on_event).await
    }
}

impl super::host::HttpSession for A2aSession {
    fn method(&self) -> String {
        Self::method(self).to_owned()
    }
    fn request(&mut self, turn: &Turn) -> Result<HttpRequest, TransportError> {
        Self::request(self, turn)
    }
    fn on_item(&mut self, item: Result<Value, TransportError>) -> Vec<TransportEvent> {
        Self::on_item(self, item)
    }
    fn finish(&mut self, outcome: Result<(), TransportError>) -> Vec<TransportEvent> {
        Self::finish(self, outcome)
    }
    fn core(&self) -> &super::host::SessionCore {
        &self.core
    }
    fn core_mut(&mut self) -> &mut super::host::SessionCore {
        &mut self.core
    }
    fn cancel_request(&mut self) -> Option<HttpRequest> {
        Self::cancel_request(self)
    }
    fn after_stream_end(
        &mut self,
        outcome: &Result<(), TransportError>,
    ) -> Option<(HttpRequest, std::time::Duration)> {
        Self::after_stream_end(self, outcome)
    }
    fn stop_reading(&self) -> Option<fn(&Value) -> bool> {
        Some(ends_turn)
    }
    fn ids(&self) -> (Option<String>, Option<String>) {
        (self.task_id.clone(), self.context_id.clone())
    }
    fn continuation(&self) -> Option<Value> {
        let context = self.context_id.as_ref()?;
        let mut state = json!({ "contextId": context });
        // A task still open (input-required, auth-required) is continued too; a finished
        // one was let go in `finish`.
        if let Some(task) = &self.task_id {
            state["taskId"] = json!(task);
        }
        Some(state)
    }
    fn continue_from(&mut self, state: &Value) -> bool {
        let Some(context) = super::continuation_id(state, "contextId") else {
            return false;
        };
        self.context_id = Some(context);
        self.task_id = super::continuation_id(state, "taskId");
        true
    }
}

/// An A2A agent driven from a UI thread.
pub type A2aHost = super::host::HttpHost<A2aSession>;

impl A2aHost {
    /// Discover the agent at `base_url` (its card) in the background and talk to it.
    pub fn connect(
        base_url: &str,
        catalog: crate::render::catalog::Catalog,
        options: super::http::TransportOptions,
        repaint: impl Fn() + Send + 'static,
    ) -> Result<Self, super::TransportError> {
        let base = base_url.to_owned();
        let follow_base = base.clone();
        let limits = options.limits.clone();
        let has_credentials = options.credentials.is_set();
        // With credentials, the authenticated extended card when the card says there is one.
        let follow = move |card: &Value| {
            let card = AgentCard::parse(card, &follow_base).ok()?;
            (has_credentials && card.extended_card).then(|| card.extended_card_request())
        };
        Self::spawn_discovering_with(
            super::http::HttpRequest::get(AgentCard::card_url(base_url)),
            Some(Box::new(follow)),
            move |doc| {
                let card = match (doc.get("document"), doc.get("followed")) {
                    (Some(_), Some(followed)) if followed.get("kind").is_some() => {
                        // The extended card could not be had: say why.
                        return Err(extended_card_error(followed, &base));
                    }
                    (Some(_), Some(followed)) => AgentCard::parse_extended(followed, &base)?,
                    _ => AgentCard::parse(&doc, &base)?,
                };
                Ok(A2aSession::new(card, catalog)?.with_limits(limits))
            },
            options,
            repaint,
        )
    }
}

/// The error of a failed extended-card fetch (the I/O thread's `{"kind", "message"}`).
fn extended_card_error(e: &Value, base: &str) -> TransportError {
    let message = e
        .get("message")
        .and_then(Value::as_str)
        .unwrap_or("failed")
        .to_owned();
    if e.get("kind").and_then(Value::as_str) == Some("unauthorized") {
        let challenge = e.get("challenge").filter(|c| c.is_object()).map(|c| {
            let s = |k: &str| c.get(k).and_then(Value::as_str).map(str::to_owned);
            Box::new(super::AuthChallenge {
                scheme: s("scheme").unwrap_or_default(),
                realm: s("realm"),
                resource_metadata: s("resourceMetadata"),
                error: s("error"),
                error_description: None,
                scope: s("scope"),
                params: Vec::new(),
            })
        });
        return TransportError::Unauthorized {
            status: e
                .get("status")
                .and_then(Value::as_u64)
                .and_then(|s| u16::try_from(s).ok())
                .unwrap_or(401),
            url: super::redact_url(base),
            challenge,
        };
    }
    TransportError::Unsupported(format!("the authenticated extended card: {message}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const BASIC09: &str = "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json";

    fn card03() -> Value {
        json!({
            "name": "finder", "url": "http://127.0.0.1:9/rpc", "protocolVersion": "0.3.0",
            "capabilities": {"streaming": true, "extensions": [
                {"uri": "https://a2ui.org/a2a-extension/a2ui/v0.8"},
                {"uri": "https://a2ui.org/a2a-extension/a2ui/v0.9",
                 "params": {"supportedCatalogIds": [BASIC09], "acceptsInlineCatalogs": true}},
                {"uri": "https://a2ui.org/a2a-extension/a2ui/v7.0"},
                {"uri": "https://example.com/other"}
            ]}
        })
    }

    fn card10() -> Value {
        json!({
            "name": "finder10",
            "supportedInterfaces": [{"url": "http://127.0.0.1:9/", "protocolBinding": "JSONRPC",
                                     "protocolVersion": "1.0"}],
            "capabilities": {"streaming": true, "extensions": [
                {"uri": "https://a2ui.org/a2a-extension/a2ui/v0.9",
                 "params": {"supportedCatalogIds": [BASIC09]}}]}
        })
    }

    fn session(card: Value) -> A2aSession {
        A2aSession::new(
            AgentCard::parse(&card, "http://x").unwrap(),
            Catalog::basic(),
        )
        .unwrap()
    }

    fn create(sid: &str) -> Value {
        json!({"version": "v0.9", "createSurface": {"surfaceId": sid, "catalogId": BASIC09}})
    }

    #[test]
    fn a_continued_session_sends_the_saved_context_and_open_task() {
        use super::super::host::HttpSession as _;
        for card in [card03(), card10()] {
            let mut s = session(card);
            assert_eq!(s.continuation(), None, "nothing to carry before a turn");
            assert!(s.continue_from(&json!({"contextId": "ctx-1", "taskId": "task-9"})));
            let state = s.continuation().unwrap();
            assert_eq!(state, json!({"contextId": "ctx-1", "taskId": "task-9"}));
            let body = s.request(&Turn::Text("more".into())).unwrap().body.unwrap();
            let m = &body["params"]["message"];
            assert_eq!(m["contextId"], "ctx-1");
            assert_eq!(m["taskId"], "task-9");
        }
        // Foreign or oversized values are ignored: the conversation starts fresh.
        let mut s = session(card03());
        for bad in [
            json!(null),
            json!({"contextId": 7}),
            json!({"contextId": ""}),
            json!({"contextId": "x".repeat(super::super::MAX_CONTINUATION_ID + 1)}),
        ] {
            assert!(!s.continue_from(&bad), "{bad}");
        }
        let body = s.request(&Turn::Text("hi".into())).unwrap().body.unwrap();
        assert!(body["params"]["message"].get("contextId").is_none());
    }

    #[test]
    fn the_card_gives_dialect_endpoint_and_the_newest_common_version() {
        let c = AgentCard::parse(&card03(), "http://x").unwrap();
        assert_eq!(c.dialect, Dialect::V0_3);
        assert_eq!(c.rpc_url, "http://127.0.0.1:9/rpc");
        assert_eq!(
            c.extensions.len(),
            2,
            "unknown versions and other extensions are left out"
        );
        let e = c.negotiate(&Catalog::basic()).unwrap();
        assert_eq!(e.version, Version::V0_9);
        assert!(e.accepts_inline_catalogs);
        let c = AgentCard::parse(&card10(), "http://x").unwrap();
        assert_eq!(c.dialect, Dialect::V1_0);
    }

    #[test]
    fn no_common_version_is_a_typed_error() {
        let card = json!({"name": "n", "url": "http://x", "capabilities": {"extensions": [
            {"uri": "https://a2ui.org/a2a-extension/a2ui/v0.9",
             "params": {"supportedCatalogIds": ["https://example.com/only-theirs.json"]}}]}});
        let c = AgentCard::parse(&card, "http://x").unwrap();
        assert!(matches!(
            c.negotiate(&Catalog::basic()),
            Err(TransportError::Unsupported(_))
        ));
        // The session refuses it too: the agent speaks A2UI, but nothing we can draw.
        let c = AgentCard::parse(&card, "http://x").unwrap();
        assert!(matches!(
            A2aSession::new(c, Catalog::basic()),
            Err(TransportError::Unsupported(_))
        ));
        assert!(AgentCard::parse(&json!([1]), "http://x").is_err());
    }

    #[test]
    fn an_agent_without_the_extension_is_talked_to_in_text_without_activating_it() {
        let c = AgentCard::parse(&json!({"name": "n", "url": "http://x"}), "http://x").unwrap();
        assert!(matches!(
            c.negotiate(&Catalog::basic()),
            Err(TransportError::Unsupported(m)) if m.contains("no A2UI extension")
        ));
        let mut s = A2aSession::new(c, Catalog::basic()).unwrap();
        assert!(s.extension().is_none());
        let req = s.request(&Turn::Text("hi".into())).unwrap();
        assert_eq!(req.header("X-A2A-Extensions"), None);
        assert_eq!(req.header("A2A-Extensions"), None);
        let body = req.body.unwrap();
        assert!(body["params"]["message"].get("extensions").is_none());
        // No A2UI capabilities or data models for an agent that does not speak A2UI.
        assert!(
            body["params"]["message"].get("metadata").is_none(),
            "{body}"
        );
        assert_eq!(body["params"]["message"]["parts"][0]["text"], "hi");
        // Its text answer lands in the transcript.
        s.on_item(Ok(json!({"jsonrpc": "2.0", "id": 1, "result": {
            "kind": "message", "role": "agent", "messageId": "m1",
            "parts": [{"kind": "text", "text": "Hello World"}]}})));
        assert!(
            s.transcript()
                .iter()
                .any(|t| t.text.contains("Hello World")),
            "{:?}",
            s.transcript()
        );
    }

    #[test]
    fn requests_carry_both_headers_capabilities_and_dialect_specific_parts() {
        let mut s = session(card03());
        let r = s.request(&Turn::Text("hi".into())).unwrap();
        let body = r.body.clone().unwrap();
        assert_eq!(body["method"], "message/stream");
        let m = &body["params"]["message"];
        assert_eq!(m["kind"], "message");
        assert_eq!(m["role"], "user");
        assert_eq!(m["parts"][0], json!({"kind": "text", "text": "hi"}));
        let caps = &m["metadata"]["a2uiClientCapabilities"]["v0.9"]["supportedCatalogIds"];
        assert!(caps.as_array().unwrap().contains(&json!(BASIC09)));
        assert!(m["metadata"]["a2uiRendererCapabilities"]["v1.0"].is_object());
        assert_eq!(r.header("A2A-Extensions"), r.header("X-A2A-Extensions"));
        assert_eq!(r.header("A2A-Version"), None);

        let mut s = session(card10());
        let r = s.request(&Turn::Text("hi".into())).unwrap();
        assert_eq!(r.header("A2A-Version"), Some("1.0"));
        let body = r.body.clone().unwrap();
        assert_eq!(body["method"], "SendStreamingMessage");
        assert_eq!(body["params"]["message"]["role"], "ROLE_USER");
        assert!(body["params"]["message"].get("kind").is_none());
        assert_eq!(body["params"]["message"]["parts"][0], json!({"text": "hi"}));
        let s = s.with_streaming(false);
        assert_eq!(s.method(), "SendMessage");
    }

    fn status03(state: &str, parts: Value) -> Value {
        json!({"jsonrpc": "2.0", "id": 1, "result": {
            "kind": "status-update", "taskId": "t1", "contextId": "c1", "final": false,
            "status": {"state": state, "message": {"kind": "message", "role": "agent",
                "messageId": fresh_id("m"), "parts": parts}}}})
    }

    #[test]
    fn a_0_3_stream_applies_parts_in_both_mime_spellings_and_carries_ids_across_turns() {
        let mut s = session(card03());
        s.request(&Turn::Text("hi".into())).unwrap();
        let ev = s.on_item(Ok(status03("working", json!([
            {"kind": "text", "text": "Searching"},
            {"kind": "data", "metadata": {"mimeType": "application/json+a2ui"}, "data": create("a")},
            {"kind": "data", "metadata": {"mimeType": "application/a2ui+json"}, "data": [create("b"), create("c")]},
        ]))));
        assert!(s.store().surface("a").is_some() && s.store().surface("c").is_some());
        assert!(
            ev.iter()
                .any(|e| matches!(e, TransportEvent::Text { text, .. } if text == "Searching"))
        );
        assert!(ev.iter().any(|e| matches!(
            e,
            TransportEvent::State {
                state: TaskState::Working,
                ..
            }
        )));
        s.on_item(Ok(status03("input-required", json!([]))));
        s.finish(Ok(()));
        assert_eq!(s.state(), Some(&TaskState::InputRequired));
        let body = s.request(&Turn::Text("more".into())).unwrap().body.unwrap();
        assert_eq!(body["params"]["message"]["contextId"], "c1");
        assert_eq!(
            body["params"]["message"]["taskId"], "t1",
            "an input-required task goes on"
        );
        s.on_item(Ok(status03("completed", json!([]))));
        s.finish(Ok(()));
        let body = s
            .request(&Turn::Text("again".into()))
            .unwrap()
            .body
            .unwrap();
        assert_eq!(body["params"]["message"]["contextId"], "c1");
        assert!(
            body["params"]["message"].get("taskId").is_none(),
            "a completed task is over"
        );
    }

    #[test]
    fn a_1_0_stream_unwraps_results_reads_media_type_and_doubles() {
        let mut s = session(card10());
        s.request(&Turn::Text("hi".into())).unwrap();
        s.on_item(Ok(json!({"jsonrpc": "2.0", "id": 1, "result": {"task": {
            "id": "t", "contextId": "c", "status": {"state": "TASK_STATE_SUBMITTED"},
            "history": [{"role": "ROLE_USER", "messageId": "u", "parts": [{"text": "hi"}]}]}}})));
        s.on_item(Ok(json!({"result": {"statusUpdate": {"taskId": "t", "contextId": "c",
            "status": {"state": "TASK_STATE_WORKING", "message": {"role": "ROLE_AGENT", "messageId": "m1",
                "parts": [{"data": [create("s"),
                    {"version": "v0.9", "updateDataModel": {"surfaceId": "s", "path": "/n", "value": 2.0}}],
                    "mediaType": "application/a2ui+json"}]}}}}})));
        let surface = s.store().surface("s").unwrap();
        assert_eq!(surface.data.get("/n"), Some(&json!(2)));
        assert!(surface.data.get("/n").unwrap().is_i64());
        assert_eq!(s.state(), Some(&TaskState::Working));
        assert_eq!(s.task_id(), Some("t"));
    }

    #[test]
    fn a_send_answer_reads_the_history_once_and_the_status_message() {
        let mut s = session(card03()).with_streaming(false);
        let r = s.request(&Turn::Text("hi".into())).unwrap();
        assert_eq!(r.expect, ResponseKind::Json);
        let m1 = json!({"kind": "message", "role": "agent", "messageId": "m1", "parts": [
            {"kind": "data", "metadata": {"mimeType": "application/a2ui+json"}, "data": create("a")}]});
        let m2 = json!({"kind": "message", "role": "agent", "messageId": "m2", "parts": [
            {"kind": "data", "metadata": {"mimeType": "application/a2ui+json"}, "data": create("b")}]});
        let ev = s.on_item(Ok(json!({"jsonrpc": "2.0", "id": 1, "result": {"kind": "task",
            "id": "t", "contextId": "c", "status": {"state": "input-required", "message": m2},
            "history": [{"kind": "message", "role": "user", "messageId": "u", "parts": []}, m1, m2.clone()]}})));
        assert!(s.store().surface("a").is_some() && s.store().surface("b").is_some());
        let rejected = ev
            .iter()
            .filter(|e| matches!(e, TransportEvent::Rejected { .. }))
            .count();
        assert_eq!(rejected, 0, "m2 was applied once, not twice: {ev:?}");
    }

    #[test]
    fn errors_and_foreign_parts_are_typed() {
        let mut s = session(card03());
        s.request(&Turn::Text("hi".into())).unwrap();
        let ev = s.on_item(Ok(status03(
            "working",
            json!([
            {"kind": "data", "metadata": {"mimeType": "application/json"}, "data": {"w": 1}}]),
        )));
        assert!(
            matches!(&ev[0], TransportEvent::Notice(TransportError::NotA2ui { mime: Some(m) }) if m == "application/json")
        );
        s.on_item(Ok(
            json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32602, "message": "bad"}}),
        ));
        let end = s.finish(Ok(()));
        assert!(matches!(
            &end[0],
            TransportEvent::TurnEnded {
                error: Some(TransportError::JsonRpc { code: -32602, .. })
            }
        ));
        let ev = s.on_item(Ok(json!({"result": {"nothing": 1}})));
        assert!(matches!(
            &ev[0],
            TransportEvent::Notice(TransportError::MalformedPayload(_))
        ));
    }

    #[test]
    fn actions_go_back_as_a2ui_data_parts_with_the_data_model() {
        let mut s = session(card03());
        s.request(&Turn::Text("hi".into())).unwrap();
        s.on_item(Ok(status03("working", json!([{"kind": "data",
            "metadata": {"mimeType": "application/a2ui+json"},
            "data": {"version": "v0.9", "createSurface": {"surfaceId": "f", "catalogId": BASIC09, "sendDataModel": true}}},
            {"kind": "data", "metadata": {"mimeType": "application/a2ui+json"},
             "data": {"version": "v0.9", "updateDataModel": {"surfaceId": "f", "path": "/name", "value": "Ada"}}}]))));
        let action = crate::action::ActionEvent {
            surface_id: "f".into(),
            source_component_id: "b".into(),
            name: "book".into(),
            context: Map::new(),
            timestamp: "2026-01-01T00:00:00.000Z".into(),
            user_message: None,
            version: Version::V0_9,
            scope: "/".into(),
        };
        let body = s
            .request(&Turn::Action(action.clone()))
            .unwrap()
            .body
            .unwrap();
        let m = &body["params"]["message"];
        assert_eq!(m["parts"][0]["kind"], "data");
        assert_eq!(
            m["parts"][0]["data"]["action"]["name"], "book",
            "one object per part for 0.3"
        );
        assert_eq!(
            m["metadata"]["a2uiClientDataModel"]["surfaces"]["f"]["name"],
            "Ada"
        );
        let mut s10 = session(card10());
        s10.store_mut().apply(create("f")).into_result().unwrap();
        let body = s10.request(&Turn::Action(action)).unwrap().body.unwrap();
        let p = &body["params"]["message"]["parts"][0];
        assert_eq!(p["mediaType"], A2UI_MIME);
        assert!(p["data"].is_array(), "an array for 1.0");
        let mut other = session(card03());
        assert!(
            other
                .request(&Turn::Action(crate::action::ActionEvent {
                    surface_id: "nope".into(),
                    ..s10_action()
                }))
                .is_err()
        );
    }

    fn s10_action() -> crate::action::ActionEvent {
        crate::action::ActionEvent {
            surface_id: "f".into(),
            source_component_id: "b".into(),
            name: "x".into(),
            context: Map::new(),
            timestamp: String::new(),
            user_message: None,
            version: Version::V0_9,
            scope: "/".into(),
        }
    }
}
