//! The MCP Apps bridge: A2UI surfaces delivered in MCP tool results ("Dynamic View Content",
//! ext-apps PR #699) rendered natively, and user actions sent back as `tools/call` requests.
//!
//! The bridge is transport-free and depends only on `serde_json`: the host owns its MCP
//! client (rmcp or anything else), hands this module the JSON of each `CallToolResult`, and
//! sends the [`ToolCallRequest`]s it gets back. The optional `rmcp` feature adds conversions
//! to and from `rmcp::model` types.
//!
//! The pieces, in the order a host meets them:
//! - capabilities: what to advertise ([`UiExtensionSettings`] for the
//!   `io.modelcontextprotocol/ui` extension, [`A2uiCatalogCapability`]), at `initialize` or
//!   per request.
//! - tools: a tool's `_meta.ui` ([`ToolUiMeta`]: `resourceUri`, [`Visibility`]), a renderer
//!   resource's `contentMimeTypes` ([`ResourceUiMeta`]), all of a server's tools in a
//!   [`ToolDirectory`].
//! - split: one `CallToolResult` split ([`split_tool_result`]) into model-visible blocks,
//!   payloads to render and dropped blocks (tolerant per block), by a [`SplitPolicy`].
//! - session: one [`AppSession`] per originating agent tool call, owning its surfaces,
//!   turning actions into `tools/call` requests ([`ToolCallRequest`]) and applying their
//!   results; a [`SessionHub`] keeps a host's sessions.
//!
//! ```
//! use egui_a2ui::model::Catalogs;
//! use egui_a2ui::mcp::{AppSession, ToolDirectory, UiExtensionSettings};
//! use serde_json::json;
//!
//! // 1. Advertise native A2UI support in `initialize.capabilities`.
//! let mut caps = serde_json::Map::new();
//! UiExtensionSettings::native_a2ui().insert_into_capabilities(&mut caps);
//!
//! // 2. Learn the server's tools (from `tools/list`).
//! let mut tools = ToolDirectory::new();
//! tools.insert_tools_list("flights", &json!({"tools": [
//!     {"name": "search_flights", "inputSchema": {"type": "object"}},
//!     {"name": "select_flight", "inputSchema": {"type": "object"},
//!      "_meta": {"ui": {"visibility": ["app"]}}}
//! ]}));
//!
//! // 3. The agent calls a tool: open a session for that call and feed it the result.
//! let mut session = AppSession::new("call-1", "flights", "search_flights", Catalogs::basic());
//! session.on_tool_input(json!({"destination": "SFO"}));
//! let payload = r#"[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json"}},
//!                  {"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":"Hi"}]}}]"#;
//! let outcome = session.on_tool_result(&json!({"content": [
//!     {"type": "text", "text": "Found 3 flights."},
//!     {"type": "resource", "resource": {"uri": "a2ui://flights/1", "mimeType": "application/a2ui+json", "text": payload},
//!      "_meta": {"ui": {"content": {}}}}
//! ]})).unwrap();
//! assert_eq!(outcome.split.model_text(), "Found 3 flights.");
//! assert!(session.store().surface("s").unwrap().is_visible());
//! ```

mod advertised;
mod catalog;
mod error;
#[cfg(feature = "rmcp")]
pub mod rmcp;
mod session;
mod split;
mod tools;

pub use advertised::{A2uiCatalogCapability, UiExtensionSettings};
pub use catalog::{
    IFRAME_CATALOG_V0_9, IFRAME_CATALOG_V1_0, MCP_CATALOG_DEFINITION, MCP_CATALOG_V1_0, McpCatalog,
    McpWrite,
};
pub use error::McpError;
pub use session::{
    ActionMapFn, ActionMapping, AppSession, CallRef, MappedCall, ResultOutcome, SessionHub,
    SessionState, SurfaceNotice, TOOL_ERROR, TOOL_NOT_ALLOWED, ToolCallRequest,
};
pub use split::{
    DropReason, DroppedBlock, PayloadData, SplitPolicy, SplitResult, ViewPayload, is_a2ui_family,
    mime_matches, split_tool_result, view_content_block,
};
pub use tools::{ResourceUiMeta, ToolDirectory, ToolUiMeta, Visibility};

/// The MCP Apps extension id, the key under `capabilities.extensions`.
pub const UI_EXTENSION_ID: &str = "io.modelcontextprotocol/ui";

/// The MIME type of HTML MCP App Views. A native host does not advertise it.
pub const HTML_APP_MIME: &str = "text/html;profile=mcp-app";

/// The per-request `_meta` key that carries client capabilities (MCP 2026-07-28, SEP-2575).
pub const CLIENT_CAPABILITIES_META_KEY: &str = "io.modelcontextprotocol/clientCapabilities";

/// The URI scheme reserved for MCP App Views; payload URIs must not use it.
pub const UI_SCHEME: &str = "ui://";

/// Whether `uri` uses the reserved `ui://` scheme (scheme compared case-insensitively).
pub fn is_ui_uri(uri: &str) -> bool {
    let u = uri.trim_start();
    u.get(..UI_SCHEME.len())
        .is_some_and(|p| p.eq_ignore_ascii_case(UI_SCHEME))
}
