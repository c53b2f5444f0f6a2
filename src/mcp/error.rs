use thiserror::Error;

/// What the MCP bridge refuses. Per-block problems inside a tool result are not errors:
/// they are reported as [`crate::mcp::DroppedBlock`]s and the rest of the result is kept.
#[derive(Clone, Debug, Error, PartialEq)]
pub enum McpError {
    /// The tool result is not a JSON object.
    #[error("a tool result must be a JSON object")]
    ResultNotAnObject,

    /// The tool result's `content` is present but not an array.
    #[error("a tool result's content must be an array")]
    ContentNotAnArray,

    /// An action names a surface this session does not own.
    #[error("session {session_id} has no surface {surface_id:?}")]
    UnknownSurface {
        /// The session.
        session_id: String,
        /// The surface the action named.
        surface_id: String,
    },

    /// The action-mapping policy produced no tool call for this action.
    #[error("no tool is mapped to action {action:?}")]
    ActionNotMapped {
        /// The action name.
        action: String,
    },

    /// The target tool is not known on the server that produced the surface (cross-server
    /// calls are never made).
    #[error("tool {tool:?} is not offered by server {server_id:?}")]
    ToolNotOnServer {
        /// The session's server.
        server_id: String,
        /// The tool the action mapped to.
        tool: String,
    },

    /// The target tool's visibility lacks `app`, so apps may not call it.
    #[error("tool {tool:?} is not callable by apps (visibility lacks \"app\")")]
    ToolNotAppVisible {
        /// The tool the action mapped to.
        tool: String,
    },

    /// A result or failure for a call this session did not issue (or already settled).
    #[error("session {session_id} has no pending call #{seq} (it belongs to {owner:?})")]
    UnknownCall {
        /// The session asked.
        session_id: String,
        /// The session the call reference names.
        owner: String,
        /// The call's sequence number.
        seq: u64,
    },

    /// No session is open for this originating tool call.
    #[error("no session for tool call {0:?}")]
    UnknownSession(String),

    /// `callMcpTool` made as many distinct calls as
    /// [`Limits::max_mcp_tool_calls`](crate::limits::Limits::max_mcp_tool_calls) allows.
    #[error("callMcpTool call limit reached ({limit} distinct calls)")]
    CallLimit {
        /// The limit.
        limit: usize,
    },

    /// `callMcpTool` evaluated on a surface of a store not bound to this server's
    /// sessions (an A2A agent's surface, model text drawn with the same catalog): nothing
    /// is sent.
    #[error(
        "callMcpTool from surface {surface_id:?}, which is not a surface of server {server_id:?}; not called"
    )]
    ForeignSurface {
        /// The catalog's server.
        server_id: String,
        /// The surface that asked.
        surface_id: String,
    },

    /// A session of another server was bound to an MCP catalog.
    #[error("session {session_id} belongs to server {session_server:?}, not {server_id:?}")]
    SessionOfAnotherServer {
        /// The catalog's server.
        server_id: String,
        /// The session.
        session_id: String,
        /// The session's server.
        session_server: String,
    },

    /// A value could not be converted to or from an rmcp type.
    #[error("rmcp conversion failed: {0}")]
    Conversion(String),
}
