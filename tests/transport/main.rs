//! The transports against real peers on the official SDKs (A2A 0.3 and 1.0, AG-UI, MCP over
//! Streamable HTTP), their faults, and the `a2ui_agent` command line.
//!
//! One test crate per layer (one binary to build and link); each module was its own crate
//! before. The shared harness is `tests/common`.

#[path = "../common/mod.rs"]
mod common;

mod a2ui_agent_cli;
mod agent_panel_peers;
mod agent_shape;
mod chat_model;
mod mcp_oauth;
mod mcp_revisions;
mod transport_auth;
mod transport_faults;
mod transport_hostile;
mod transports;
