//! Tool and resource metadata: a tool's `_meta.ui` (`resourceUri`, `visibility`), the tools
//! of each server, and a renderer resource's `contentMimeTypes`.

use indexmap::IndexMap;
use serde_json::Value;

use super::is_ui_uri;

/// Who may call a tool (`_meta.ui.visibility`; default both).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Visibility {
    /// `"model"`: listed to the agent.
    pub model: bool,
    /// `"app"`: callable from a surface (same server only).
    pub app: bool,
}

impl Default for Visibility {
    fn default() -> Self {
        Self {
            model: true,
            app: true,
        }
    }
}

impl Visibility {
    /// Read a `visibility` value: an array of `"model"` / `"app"` (unknown entries
    /// ignored). Anything that is not an array means the default.
    pub fn from_value(v: Option<&Value>) -> Self {
        match v {
            Some(Value::Array(a)) => Self {
                model: a.iter().any(|x| x.as_str() == Some("model")),
                app: a.iter().any(|x| x.as_str() == Some("app")),
            },
            _ => Self::default(),
        }
    }
}

/// A tool's MCP Apps metadata.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolUiMeta {
    /// The tool name.
    pub name: String,
    /// `_meta.ui.resourceUri` (or the deprecated flat `_meta["ui/resourceUri"]`), only when
    /// it is a `ui://` URI.
    pub resource_uri: Option<String>,
    /// A `resourceUri` that was present but not `ui://` (refused; kept for logging).
    pub rejected_resource_uri: Option<String>,
    /// `_meta.ui.visibility`.
    pub visibility: Visibility,
    /// `annotations.readOnlyHint` is `true`: the server says the tool changes nothing.
    /// `callMcpTool` may call such a tool while drawing, without a user gesture; any other
    /// tool called that way waits for the host's approval
    /// ([`McpCatalog::approve`](crate::mcp::McpCatalog::approve)).
    pub read_only: bool,
}

impl ToolUiMeta {
    /// Read a tool definition (as in `tools/list`). `None` when it has no string `name`.
    pub fn from_tool(tool: &Value) -> Option<Self> {
        let name = tool.get("name")?.as_str()?.to_owned();
        let meta = tool.get("_meta");
        let ui = meta.and_then(|m| m.get("ui"));
        let raw_uri = ui
            .and_then(|u| u.get("resourceUri"))
            .and_then(Value::as_str)
            .or_else(|| {
                meta.and_then(|m| m.get("ui/resourceUri"))
                    .and_then(Value::as_str)
            });
        let (resource_uri, rejected_resource_uri) = match raw_uri {
            Some(u) if is_ui_uri(u) => (Some(u.to_owned()), None),
            Some(u) => (None, Some(u.to_owned())),
            None => (None, None),
        };
        Some(Self {
            name,
            resource_uri,
            rejected_resource_uri,
            visibility: Visibility::from_value(ui.and_then(|u| u.get("visibility"))),
            read_only: tool
                .get("annotations")
                .and_then(|a| a.get("readOnlyHint"))
                .and_then(Value::as_bool)
                == Some(true),
        })
    }
}

/// The tools of every connected server, by server id and tool name.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ToolDirectory {
    servers: IndexMap<String, IndexMap<String, ToolUiMeta>>,
}

impl ToolDirectory {
    /// No servers.
    pub fn new() -> Self {
        Self::default()
    }

    /// Add (or replace) one tool of a server.
    pub fn insert(&mut self, server_id: &str, tool: ToolUiMeta) {
        self.servers
            .entry(server_id.to_owned())
            .or_default()
            .insert(tool.name.clone(), tool);
    }

    /// Add the tools of a `tools/list` result (`{"tools": [...]}`) or a bare array of tool
    /// definitions; entries without a name are skipped. Returns how many were added.
    pub fn insert_tools_list(&mut self, server_id: &str, list: &Value) -> usize {
        let tools = match list {
            Value::Array(a) => a.as_slice(),
            other => other
                .get("tools")
                .and_then(Value::as_array)
                .map_or(&[][..], Vec::as_slice),
        };
        let mut n = 0;
        for t in tools {
            if let Some(meta) = ToolUiMeta::from_tool(t) {
                self.insert(server_id, meta);
                n += 1;
            }
        }
        n
    }

    /// Forget a server's tools (on `notifications/tools/list_changed`, before re-listing).
    pub fn clear_server(&mut self, server_id: &str) {
        self.servers.shift_remove(server_id);
    }

    /// A tool of a server.
    pub fn get(&self, server_id: &str, tool: &str) -> Option<&ToolUiMeta> {
        self.servers.get(server_id)?.get(tool)
    }

    /// The tools of a server the agent may see (visibility includes `model`); the host
    /// must not list the others to the model.
    pub fn model_visible(&self, server_id: &str) -> impl Iterator<Item = &ToolUiMeta> {
        self.servers
            .get(server_id)
            .into_iter()
            .flat_map(|m| m.values())
            .filter(|t| t.visibility.model)
    }
}

/// A renderer (`ui://`) resource's MCP Apps metadata.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ResourceUiMeta {
    /// `_meta.ui.contentMimeTypes`: the payload types the View accepts.
    pub content_mime_types: Option<Vec<String>>,
}

impl ResourceUiMeta {
    /// Read the `_meta.ui` of one resource object (a `resources/list` entry or a
    /// `resources/read` content item).
    pub fn from_resource(resource: &Value) -> Self {
        let list = resource
            .get("_meta")
            .and_then(|m| m.get("ui"))
            .and_then(|u| u.get("contentMimeTypes"))
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect()
            });
        Self {
            content_mime_types: list,
        }
    }

    /// Resolve from both places the spec allows: the read result's content item wins, the
    /// list entry is the fallback.
    pub fn resolve(list_entry: Option<&Value>, read_item: Option<&Value>) -> Self {
        let read = read_item.map(Self::from_resource).unwrap_or_default();
        let listed = list_entry.map(Self::from_resource).unwrap_or_default();
        Self {
            content_mime_types: read.content_mime_types.or(listed.content_mime_types),
        }
    }

    /// Resolve from a list entry and a whole `resources/read` result: the content item
    /// with the entry's `uri` (or the first item) is the read side.
    pub fn resolve_read_result(list_entry: Option<&Value>, read_result: &Value) -> Self {
        let uri = list_entry
            .and_then(|e| e.get("uri"))
            .and_then(Value::as_str);
        let contents = read_result.get("contents").and_then(Value::as_array);
        let item = contents.and_then(|c| {
            c.iter()
                .find(|i| uri.is_some() && i.get("uri").and_then(Value::as_str) == uri)
                .or_else(|| c.first())
        });
        Self::resolve(list_entry, item)
    }
}
