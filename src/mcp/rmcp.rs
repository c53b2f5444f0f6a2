//! Conversions between the bridge and `rmcp::model` types (feature `rmcp`). The core never
//! depends on rmcp: everything goes through `serde_json`, so a result rmcp could parse is
//! split with the same tolerant rules as raw JSON.

use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientCapabilities, ContentBlock, RequestMetaObject,
    Tool,
};
use serde_json::Value;

use super::{
    AppSession, CallRef, McpError, ResultOutcome, SessionHub, SplitPolicy, SplitResult,
    ToolCallRequest, ToolDirectory, ToolUiMeta, UI_EXTENSION_ID, UiExtensionSettings,
    split_tool_result,
};

fn to_value<T: serde::Serialize>(v: &T) -> Result<Value, McpError> {
    serde_json::to_value(v).map_err(|e| McpError::Conversion(e.to_string()))
}

/// A `CallToolResult` as JSON.
pub fn result_to_value(result: &CallToolResult) -> Result<Value, McpError> {
    to_value(result)
}

/// Split an rmcp `CallToolResult` (see [`split_tool_result`]).
pub fn split_rmcp_result(
    result: &CallToolResult,
    policy: &SplitPolicy,
) -> Result<SplitResult, McpError> {
    split_tool_result(&result_to_value(result)?, policy)
}

/// A marked content block as an rmcp `ContentBlock` (server side): see
/// [`super::view_content_block`].
pub fn view_content_block(
    uri: &str,
    mime_type: &str,
    text: &str,
    renderer_uri: Option<&str>,
) -> Result<ContentBlock, McpError> {
    let v = super::view_content_block(uri, mime_type, text, renderer_uri)
        .map_err(|e| McpError::Conversion(e.to_string()))?;
    serde_json::from_value(v).map_err(|e| McpError::Conversion(e.to_string()))
}

impl From<&ToolCallRequest> for CallToolRequestParams {
    fn from(req: &ToolCallRequest) -> Self {
        let mut p = Self::new(req.name.clone()).with_arguments(req.arguments.clone());
        if !req.meta.is_empty() {
            let mut meta = RequestMetaObject::new();
            meta.0.0.extend(req.meta.clone());
            p.meta = Some(meta);
        }
        p
    }
}

impl From<ToolCallRequest> for CallToolRequestParams {
    fn from(req: ToolCallRequest) -> Self {
        Self::from(&req)
    }
}

impl UiExtensionSettings {
    /// Put these settings in `capabilities.extensions["io.modelcontextprotocol/ui"]`,
    /// keeping other extensions.
    pub fn apply_to_rmcp(&self, capabilities: &mut ClientCapabilities) {
        let settings = match self.to_value() {
            Value::Object(m) => m,
            _ => serde_json::Map::new(),
        };
        capabilities
            .extensions
            .get_or_insert_with(Default::default)
            .insert(UI_EXTENSION_ID.to_owned(), settings);
    }

    /// `ClientCapabilities` advertising only these settings.
    pub fn to_rmcp_capabilities(&self) -> ClientCapabilities {
        let mut caps = ClientCapabilities::default();
        self.apply_to_rmcp(&mut caps);
        caps
    }

    /// The settings an rmcp client advertised (server side).
    pub fn from_rmcp_capabilities(capabilities: &ClientCapabilities) -> Option<Self> {
        let settings = capabilities.extensions.as_ref()?.get(UI_EXTENSION_ID)?;
        Self::from_value(&Value::Object(settings.clone()))
    }

    /// Put these settings in a request's `_meta` (per-request client capabilities form).
    pub fn apply_to_rmcp_request_meta(&self, meta: &mut RequestMetaObject) {
        self.insert_into_request_meta(&mut meta.0.0);
    }
}

impl ToolUiMeta {
    /// Read an rmcp `Tool`.
    pub fn from_rmcp_tool(tool: &Tool) -> Option<Self> {
        Self::from_tool(&to_value(tool).ok()?)
    }
}

impl ToolDirectory {
    /// Add the tools of an rmcp `tools/list` result. Returns how many were added.
    pub fn insert_rmcp_tools(&mut self, server_id: &str, tools: &[Tool]) -> usize {
        tools
            .iter()
            .filter_map(ToolUiMeta::from_rmcp_tool)
            .map(|t| self.insert(server_id, t))
            .count()
    }
}

impl AppSession {
    /// [`AppSession::on_tool_result`] for an rmcp result.
    pub fn on_rmcp_tool_result(
        &mut self,
        result: &CallToolResult,
    ) -> Result<ResultOutcome, McpError> {
        self.on_tool_result(&result_to_value(result)?)
    }

    /// [`AppSession::on_action_result`] for an rmcp result.
    pub fn on_rmcp_action_result(
        &mut self,
        call: &CallRef,
        result: &CallToolResult,
    ) -> Result<ResultOutcome, McpError> {
        self.on_action_result(call, &result_to_value(result)?)
    }
}

impl SessionHub {
    /// [`SessionHub::on_action_result`] for an rmcp result.
    pub fn on_rmcp_action_result(
        &mut self,
        call: &CallRef,
        result: &CallToolResult,
    ) -> Result<ResultOutcome, McpError> {
        self.on_action_result(call, &result_to_value(result)?)
    }
}
