//! The MCP Apps flight demo server over stdio: point any MCP client at
//! `cargo run --example mcp_demo_server`. A client advertising
//! `io.modelcontextprotocol/ui` with `application/a2ui+json` gets A2UI surfaces; others get
//! text only.

// The recording of received calls is read by tests/mcp/mcp_e2e.rs, not here.
#[allow(dead_code)]
mod flight_server;

use rmcp::ServiceExt;

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let server = flight_server::FlightServer::default()
        .serve((tokio::io::stdin(), tokio::io::stdout()))
        .await?;
    server.waiting().await?;
    Ok(())
}
