//! `--mcp` and the built-in demo agent: an rmcp client on a tokio runtime in a background
//! thread, talking to the UI over channels. It spawns the server command with piped
//! stdin/stdout, advertises the MCP Apps UI extension with native A2UI at `initialize`,
//! lists the tools, runs every `tools/call` the UI asks for (concurrently), and reads a
//! resource when the server announces it was updated.

use std::sync::mpsc::{Receiver, Sender, channel};

use egui_a2ui::mcp::UiExtensionSettings;
use rmcp::model::{
    CallToolRequestParams, ClientCapabilities, ClientConfig, Implementation, ProtocolVersion,
    ReadResourceRequestParams, ResourceUpdatedNotificationParam,
};
use rmcp::service::NotificationContext;
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use serde_json::Value;
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};

/// From the UI to the client.
pub enum Command {
    /// Send `tools/call` with these params (`{"name", "arguments", "_meta"?}`).
    Call {
        /// Echoed back in [`Reply::CallDone`].
        id: u64,
        /// The params.
        params: Value,
    },
}

/// From the client to the UI.
pub enum Reply {
    /// `initialize` and `tools/list` done.
    Connected {
        /// The server's name and version.
        server: String,
        /// The `tools/list` result, as JSON.
        tools: Value,
    },
    /// A `tools/call` finished: the `CallToolResult` as JSON, or the failure.
    CallDone {
        /// The id from [`Command::Call`].
        id: u64,
        /// The result.
        result: Result<Value, String>,
    },
    /// The server announced a resource update and this is the fresh `resources/read` result.
    ResourceUpdated {
        /// The resource.
        uri: String,
        /// The `ReadResourceResult` as JSON, or the failure.
        result: Result<Value, String>,
    },
    /// The connection could not be made, or ended.
    Closed(String),
}

/// The UI's end.
pub struct Handle {
    /// Commands to the client.
    pub tx: UnboundedSender<Command>,
    /// Replies from it.
    pub rx: Receiver<Reply>,
}

#[derive(Clone)]
struct Host {
    capabilities: ClientCapabilities,
    updates: UnboundedSender<String>,
}

impl ClientHandler for Host {
    fn get_info(&self) -> ClientConfig {
        ClientConfig::new(
            self.capabilities.clone(),
            Implementation::new("egui_a2ui-viewer", env!("CARGO_PKG_VERSION")),
        )
        .with_protocol_version(ProtocolVersion::LATEST_WITH_INITIALIZE)
    }

    async fn on_resource_updated(
        &self,
        params: ResourceUpdatedNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        let _ = self.updates.send(params.uri);
    }
}

/// The `initialize` capabilities: the UI extension advertising `application/a2ui+json`.
pub fn capabilities() -> Result<ClientCapabilities, String> {
    serde_json::from_value(UiExtensionSettings::native_a2ui().client_capabilities())
        .map_err(|e| format!("capabilities: {e}"))
}

/// Split a command line into words: whitespace separates, '…' and "…" quote, \ escapes
/// outside single quotes.
pub fn split_command(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(ch) => cur.push(ch),
                        None => return Err("unclosed ' in the command".into()),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => cur.extend(chars.next()),
                        Some(ch) => cur.push(ch),
                        None => return Err("unclosed \" in the command".into()),
                    }
                }
            }
            '\\' => {
                in_word = true;
                cur.extend(chars.next());
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                cur.push(c);
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    if words.is_empty() {
        return Err("empty command".into());
    }
    Ok(words)
}

/// Start the client thread: spawn `program args`, connect, and serve commands. Every reply
/// asks `ctx` for a repaint. Failures arrive as [`Reply::Closed`], never as a panic.
pub fn spawn(program: String, args: Vec<String>, ctx: egui::Context) -> Handle {
    let (tx, cmd_rx) = unbounded_channel();
    let (reply_tx, rx) = channel();
    let spawned = std::thread::Builder::new()
        .name("mcp-client".into())
        .spawn({
            let reply_tx = reply_tx.clone();
            let ctx = ctx.clone();
            move || {
                let send = Reply::Closed;
                let outcome = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .map_err(|e| format!("tokio runtime: {e}"))
                    .and_then(|rt| {
                        rt.block_on(run(program, args, cmd_rx, reply_tx.clone(), ctx.clone()))
                    });
                let note = match outcome {
                    Ok(msg) => msg,
                    Err(e) => e,
                };
                let _ = reply_tx.send(send(note));
                ctx.request_repaint();
            }
        });
    if let Err(e) = spawned {
        let _ = reply_tx.send(Reply::Closed(format!("cannot start the MCP thread: {e}")));
    }
    Handle { tx, rx }
}

async fn run(
    program: String,
    args: Vec<String>,
    mut commands: UnboundedReceiver<Command>,
    replies: Sender<Reply>,
    ctx: egui::Context,
) -> Result<String, String> {
    let reply = {
        let replies = replies.clone();
        let ctx = ctx.clone();
        move |r: Reply| {
            let _ = replies.send(r);
            ctx.request_repaint();
        }
    };
    let mut child = tokio::process::Command::new(&program)
        .args(&args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| format!("cannot start {program}: {e}"))?;
    let (Some(stdout), Some(stdin)) = (child.stdout.take(), child.stdin.take()) else {
        return Err("the server's stdio could not be piped".into());
    };
    let (updates_tx, mut updates) = unbounded_channel();
    let host = Host {
        capabilities: capabilities()?,
        updates: updates_tx,
    };
    let client = host
        .serve((stdout, stdin))
        .await
        .map_err(|e| format!("MCP initialize failed: {e}"))?;
    let server = client
        .peer_info()
        .and_then(|i| {
            i.server_info
                .as_ref()
                .map(|s| format!("{} {}", s.name, s.version))
        })
        .unwrap_or_else(|| program.clone());
    let tools = client
        .list_all_tools()
        .await
        .map_err(|e| format!("tools/list failed: {e}"))?;
    let tools = serde_json::json!({ "tools": tools });
    reply(Reply::Connected { server, tools });

    let peer = client.peer().clone();
    loop {
        tokio::select! {
            cmd = commands.recv() => {
                let Some(Command::Call { id, params }) = cmd else {
                    break;
                };
                let peer = peer.clone();
                let reply = reply.clone();
                tokio::spawn(async move {
                    let result = match serde_json::from_value::<CallToolRequestParams>(params) {
                        Err(e) => Err(format!("bad tools/call params: {e}")),
                        Ok(p) => match peer.call_tool(p).await {
                            Ok(r) => serde_json::to_value(&r).map_err(|e| e.to_string()),
                            Err(e) => Err(e.to_string()),
                        },
                    };
                    reply(Reply::CallDone { id, result });
                });
            }
            uri = updates.recv() => {
                let Some(uri) = uri else { continue };
                let peer = peer.clone();
                let reply = reply.clone();
                tokio::spawn(async move {
                    let result = peer
                        .read_resource(ReadResourceRequestParams::new(uri.clone()))
                        .await
                        .map_err(|e| e.to_string())
                        .and_then(|r| serde_json::to_value(&r).map_err(|e| e.to_string()));
                    reply(Reply::ResourceUpdated { uri, result });
                });
            }
            status = child.wait() => {
                return Ok(match status {
                    Ok(s) => format!("the server exited ({s})"),
                    Err(e) => format!("the server is gone: {e}"),
                });
            }
        }
    }
    let _ = client.cancel().await;
    Ok("disconnected".into())
}
