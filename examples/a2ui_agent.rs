//! Talk to an A2UI agent from a script: one JSON line per transport event, and last the
//! conformance dump (`a2ui_dump`'s `a2ui-oracle/1` document) of the final state.
//!
//! ```text
//! cargo run --example a2ui_agent --features a2a,agui,mcp-http -- \
//!     (--a2a URL | --agui URL | --mcp-url URL | --mcp "CMD ARGS") \
//!     [--send TEXT | --click COMPONENT_ID]... [--dump] [--no-stream] [--idle-timeout SECS]
//!     [--header 'Name: value']...
//! ```
//!
//! `--header` (repeatable) sends that header with every request, for an agent that wants
//! a token or an API key (`--header 'Authorization: Bearer ...'`); its value is never
//! printed.
//!
//! Each `--send` and `--click` is one turn, in the order given, each started once the
//! previous response has ended. `--click` presses the first instance of that component id
//! (surfaces in creation order, each in tree order) with the data model as it stands.
//! `--a2a` takes the agent's base URL and picks the A2A dialect from its card. A failed
//! turn is reported (`turnEnded` with an error) and the next turn still runs; the exit code
//! is 1 when any turn failed, 2 when the agent could not be reached.

use std::time::Duration;

use egui_a2ui::eval::FunctionRegistry;
use egui_a2ui::model::SurfaceStore;
use egui_a2ui::transport::a2a::A2aClient;
use egui_a2ui::transport::agui::AguiClient;
use egui_a2ui::transport::mcp::{McpAgent, McpClient};
use egui_a2ui::transport::{TransportError, TransportEvent, TransportOptions, Turn, find_action};
use egui_a2ui::{Catalog, conformance};
use serde_json::{Value, json};

enum Target {
    A2a(String),
    Agui(String),
    McpUrl(String),
    McpCmd(String),
}

enum Step {
    Send(String),
    Click(String),
}

enum Agent {
    A2a(Box<A2aClient>),
    Agui(Box<AguiClient>),
    Mcp(Box<McpAgent>),
}

impl Agent {
    fn stores(&self) -> Vec<&SurfaceStore> {
        match self {
            Self::A2a(c) => vec![c.session().store()],
            Self::Agui(c) => vec![c.session().store()],
            Self::Mcp(a) => a.conversation().stores().collect(),
        }
    }

    async fn send(&mut self, turn: &Turn) -> Result<(), TransportError> {
        let print = |e: &TransportEvent| println!("{}", e.to_json());
        match self {
            Self::A2a(c) => c.send(turn, print).await,
            Self::Agui(c) => c.send(turn, print).await,
            Self::Mcp(a) => a.send(turn, print).await,
        }
    }
}

fn usage() -> ! {
    eprintln!(
        "usage: a2ui_agent (--a2a URL | --agui URL | --mcp-url URL | --mcp \"CMD\") \
         [--send TEXT | --click COMPONENT_ID]... [--dump] [--no-stream] [--idle-timeout SECS] \
         [--header 'Name: value']..."
    );
    std::process::exit(2);
}

fn fail(e: &TransportError) -> ! {
    println!(
        "{}",
        json!({"event": "connectFailed", "error": egui_a2ui::transport::error_json(e)})
    );
    std::process::exit(2);
}

/// Split a command line: whitespace separates, '…' and "…" quote.
fn split_command(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut quote = None;
    let mut in_word = false;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => cur.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            (None, c) => {
                cur.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    words
}

/// The dump of every store (one for A2A and AG-UI, one per tool call for MCP), merged.
fn dump(stores: &[&SurfaceStore]) -> Value {
    let functions = FunctionRegistry::basic();
    let mut doc = Value::Null;
    let mut surfaces = Vec::new();
    let mut errors = Vec::new();
    let mut count = 0u64;
    for s in stores {
        let mut d = conformance::dump(s, &functions);
        count += d["messageCount"].as_u64().unwrap_or(0);
        if let Some(Value::Array(a)) = d.get_mut("surfaces").map(Value::take) {
            surfaces.extend(a);
        }
        if let Some(Value::Array(a)) = d.get_mut("errors").map(Value::take) {
            errors.extend(a);
        }
        doc = d;
    }
    if doc.is_null() {
        doc = conformance::dump(&SurfaceStore::basic(), &functions);
    }
    surfaces.sort_by(|a, b| a["surfaceId"].as_str().cmp(&b["surfaceId"].as_str()));
    doc["surfaces"] = Value::Array(surfaces);
    doc["errors"] = Value::Array(errors);
    doc["messageCount"] = json!(count);
    doc
}

fn main() {
    let mut target = None;
    let mut steps = Vec::new();
    let mut want_dump = false;
    let mut stream = true;
    let mut options = TransportOptions::default();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| usage());
        match a.as_str() {
            "--a2a" => target = Some(Target::A2a(value())),
            "--agui" => target = Some(Target::Agui(value())),
            "--mcp-url" => target = Some(Target::McpUrl(value())),
            "--mcp" => target = Some(Target::McpCmd(value())),
            "--send" => steps.push(Step::Send(value())),
            "--click" => steps.push(Step::Click(value())),
            "--dump" => want_dump = true,
            "--no-stream" => stream = false,
            "--header" => {
                let h = value();
                let Some((name, v)) = h.split_once(':') else {
                    usage()
                };
                options = options.with_header(name.trim(), v.trim());
            }
            "--idle-timeout" => {
                let secs: f64 = value().parse().unwrap_or_else(|_| usage());
                options.idle_timeout = Duration::from_secs_f64(secs.max(0.01));
            }
            _ => usage(),
        }
    }
    let Some(target) = target else { usage() };
    let rt = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("tokio: {e}");
            std::process::exit(2);
        }
    };
    let code = rt.block_on(async move {
        let mut child = None;
        let mut agent = match target {
            Target::A2a(url) => match A2aClient::connect(&url, Catalog::basic(), options).await {
                Ok(mut c) => {
                    let s = c.session();
                    println!(
                        "{}",
                        json!({"event": "connected", "transport": "a2a", "agent": s.card().name,
                               "dialect": format!("{:?}", s.card().dialect),
                               "extension": s.extension().uri, "streaming": stream && s.is_streaming()})
                    );
                    if !stream {
                        c.session_mut().set_streaming(false);
                    }
                    Agent::A2a(Box::new(c))
                }
                Err(e) => fail(&e),
            },
            Target::Agui(url) => match AguiClient::new(&url, Catalog::basic(), options) {
                Ok(c) => {
                    println!("{}", json!({"event": "connected", "transport": "agui", "url": url}));
                    Agent::Agui(Box::new(c))
                }
                Err(e) => fail(&e),
            },
            Target::McpUrl(url) => match McpAgent::connect_http(&url, &Catalog::basic(), &options).await {
                Ok(a) => {
                    println!("{}", json!({"event": "connected", "transport": "mcp-http",
                                           "server": a.client().server_name()}));
                    Agent::Mcp(Box::new(a))
                }
                Err(e) => fail(&e),
            },
            Target::McpCmd(cmd) => {
                let words = split_command(&cmd);
                let Some((program, rest)) = words.split_first() else { usage() };
                let spawned = tokio::process::Command::new(program)
                    .args(rest)
                    .stdin(std::process::Stdio::piped())
                    .stdout(std::process::Stdio::piped())
                    .kill_on_drop(true)
                    .spawn();
                let mut c = match spawned {
                    Ok(c) => c,
                    Err(e) => fail(&TransportError::Mcp(format!("cannot start {program}: {e}"))),
                };
                let (Some(out), Some(inp)) = (c.stdout.take(), c.stdin.take()) else {
                    fail(&TransportError::Mcp("no stdio".into()))
                };
                child = Some(c);
                let client = match McpClient::connect((out, inp)).await {
                    Ok(c) => c,
                    Err(e) => fail(&e),
                };
                match McpAgent::with_client(client, &Catalog::basic(), &options).await {
                    Ok(a) => {
                        println!("{}", json!({"event": "connected", "transport": "mcp-stdio",
                                               "server": a.client().server_name()}));
                        Agent::Mcp(Box::new(a))
                    }
                    Err(e) => fail(&e),
                }
            }
        };
        let mut failed = false;
        for step in steps {
            let turn = match step {
                Step::Send(t) => Turn::Text(t),
                Step::Click(id) => {
                    let found = agent
                        .stores()
                        .iter()
                        .rev()
                        .find_map(|s| find_action(s, &id).ok())
                        .ok_or_else(|| {
                            agent
                                .stores()
                                .first()
                                .map(|s| find_action(s, &id))
                                .and_then(Result::err)
                                .unwrap_or_else(|| TransportError::Action(format!("no component {id:?}")))
                        });
                    match found {
                        Ok(a) => Turn::Action(a),
                        Err(e) => {
                            failed = true;
                            println!("{}", TransportEvent::TurnEnded { error: Some(e) }.to_json());
                            continue;
                        }
                    }
                }
            };
            failed |= agent.send(&turn).await.is_err();
        }
        if want_dump {
            println!("{}", conformance::to_canonical_string(&dump(&agent.stores())).trim_end());
        }
        drop(child);
        i32::from(failed)
    });
    std::process::exit(code);
}
