//! The MCP Apps bridge: sessions, result splitting, metadata, the MCP catalog, an rmcp
//! server end to end, and the renderer -> agent messages against the official schemas.
//!
//! One test crate per layer (one binary to build and link); each module was its own crate
//! before. The shared harness is `tests/common`.

#[path = "../common/mod.rs"]
mod common;
/// The demo MCP server of `examples/mcp_demo_server`, served in-process.
#[path = "../../examples/mcp_demo_server/flight_server.rs"]
mod flight_server;

mod client_messages;
mod mcp_catalog;
mod mcp_e2e;
mod mcp_metadata;
mod mcp_session;
mod mcp_split;
