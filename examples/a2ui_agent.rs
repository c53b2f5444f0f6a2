//! Talk to an A2UI agent from a script: one JSON line per transport event, and last the
//! conformance dump (`a2ui_dump`'s `a2ui-oracle/1` document) of the final state.
//!
//! ```text
//! cargo run --example a2ui_agent --features a2a,agui,mcp-http -- \
//!     (--a2a URL | --agui URL | --mcp-url URL | --mcp "CMD ARGS") \
//!     [--send TEXT | --click COMPONENT_ID]... [--dump] [--no-stream] [--idle-timeout SECS]
//!     [--header 'Name: value']... [--oauth [--no-browser] [--oauth-store FILE]]
//! ```
//!
//! `--header` (repeatable) sends that header with every request, for an agent that wants
//! a token or an API key (`--header 'Authorization: Bearer ...'`); its value is never
//! printed.
//!
//! `--oauth` signs in to an MCP server over Streamable HTTP that wants OAuth 2.1: when the
//! server refuses, the authorization URL is printed on stderr (`a2ui_agent: sign in at
//! URL`) and opened in the system browser (not with `--no-browser`), and the redirect is
//! awaited (at most 5 minutes) on `127.0.0.1` and a random port. No token or code is
//! printed; stdout gets `{"event": "authorize", "server": ...}` without the URL.
//! `--oauth-store FILE` keeps the client registration and the tokens in FILE (created
//! `0600`), so the next run signs in without the browser (the token refreshed when due).
//!
//! Each `--send` and `--click` is one turn, in the order given, each started once the
//! previous response has ended. `--click` presses the first instance of that component id
//! (surfaces in creation order, each in tree order) with the data model as it stands.
//! `--a2a` takes the agent's base URL and picks the A2A dialect from its card. A failed
//! turn is reported (`turnEnded` with an error) and the next turn still runs; the exit code
//! is 1 when any turn failed, 2 when the agent could not be reached.

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use egui_a2ui::agent::split_command;
use egui_a2ui::eval::FunctionRegistry;
use egui_a2ui::model::SurfaceStore;
use egui_a2ui::transport::a2a::A2aClient;
use egui_a2ui::transport::agui::AguiClient;
use egui_a2ui::transport::mcp_http::McpAgent;
use egui_a2ui::transport::oauth::{FileCredentialStore, LoopbackRedirect, McpOAuth, open_browser};
use egui_a2ui::transport::{TransportError, TransportEvent, TransportOptions, Turn, find_action};
use egui_a2ui::{Catalog, conformance};
use serde_json::{Value, json};

enum Step {
    Send(String),
    Click(String),
}

type Sending<'a> = Pin<Box<dyn Future<Output = Result<(), TransportError>> + 'a>>;
type Connecting = Pin<Box<dyn Future<Output = Result<Box<dyn Conversation>, TransportError>>>>;

/// What the script needs of a connected agent, whatever the transport: the library's async
/// clients each implement it, and the rest of the example is written once.
trait Conversation {
    /// One line saying what was reached.
    fn connected(&self) -> Value;
    /// The stores (one for A2A and AG-UI, one per tool call for MCP).
    fn stores(&self) -> Vec<&SurfaceStore>;
    /// Run one turn, printing every event.
    fn send<'a>(&'a mut self, turn: &'a Turn) -> Sending<'a>;
}

fn print(e: &TransportEvent) {
    println!("{}", e.to_json());
}

impl Conversation for A2aClient {
    fn connected(&self) -> Value {
        let s = self.session();
        json!({"event": "connected", "transport": "a2a", "agent": s.card().name,
               "dialect": format!("{:?}", s.card().dialect),
               "extension": s.extension().map(|e| e.uri.as_str()), "streaming": s.is_streaming()})
    }
    fn stores(&self) -> Vec<&SurfaceStore> {
        vec![self.session().store()]
    }
    fn send<'a>(&'a mut self, turn: &'a Turn) -> Sending<'a> {
        Box::pin(Self::send(self, turn, print))
    }
}

/// An AG-UI endpoint, and its URL.
struct Agui(AguiClient, String);

impl Conversation for Agui {
    fn connected(&self) -> Value {
        json!({"event": "connected", "transport": "agui", "url": self.1})
    }
    fn stores(&self) -> Vec<&SurfaceStore> {
        vec![self.0.session().store()]
    }
    fn send<'a>(&'a mut self, turn: &'a Turn) -> Sending<'a> {
        Box::pin(self.0.send(turn, print))
    }
}

/// MCP over Streamable HTTP or a child's stdio.
struct Mcp(McpAgent, &'static str);

impl Conversation for Mcp {
    fn connected(&self) -> Value {
        json!({"event": "connected", "transport": self.1, "server": self.0.client().server_name()})
    }
    fn stores(&self) -> Vec<&SurfaceStore> {
        self.0.conversation().stores().collect()
    }
    fn send<'a>(&'a mut self, turn: &'a Turn) -> Sending<'a> {
        Box::pin(self.0.send(turn, print))
    }
}

fn usage() -> ! {
    eprintln!(
        "usage: a2ui_agent (--a2a URL | --agui URL | --mcp-url URL | --mcp \"CMD\") \
         [--send TEXT | --click COMPONENT_ID]... [--dump] [--no-stream] [--idle-timeout SECS] \
         [--header 'Name: value']... [--oauth [--no-browser] [--oauth-store FILE]]"
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

/// How each flag reaches its agent (run on the runtime).
fn connector(flag: &str, target: String, options: TransportOptions, stream: bool) -> Connecting {
    let boxed =
        |c: Box<dyn Conversation>| -> Result<Box<dyn Conversation>, TransportError> { Ok(c) };
    match flag {
        "--a2a" => Box::pin(async move {
            let mut c = A2aClient::connect(&target, Catalog::basic(), options).await?;
            let streaming = stream && c.session().is_streaming();
            c.session_mut().set_streaming(streaming);
            boxed(Box::new(c))
        }),
        "--agui" => Box::pin(async move {
            let c = AguiClient::new(&target, Catalog::basic(), options)?;
            boxed(Box::new(Agui(c, target)))
        }),
        "--mcp-url" => Box::pin(async move {
            let a = McpAgent::connect_http(&target, &Catalog::basic(), &options).await?;
            boxed(Box::new(Mcp(a, "mcp-http")))
        }),
        _ => Box::pin(async move {
            let mut words = split_command(&target).map_err(TransportError::Action)?;
            let program = words.remove(0);
            let a = McpAgent::spawn(&program, &words, &Catalog::basic(), &options).await?;
            boxed(Box::new(Mcp(a, "mcp-stdio")))
        }),
    }
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

/// OAuth for `--oauth`: the URL on stderr (and in the browser), the redirect awaited on a
/// loopback port.
fn cli_oauth(browser: bool) -> McpOAuth {
    let redirect = match LoopbackRedirect::bind() {
        Ok(r) => std::sync::Arc::new(r),
        Err(e) => {
            eprintln!("a2ui_agent: cannot listen for the OAuth redirect: {e}");
            std::process::exit(2);
        }
    };
    let r = redirect.clone();
    McpOAuth::new(redirect.redirect_uri(), move |prompt| {
        println!(
            "{}",
            json!({"event": "authorize", "server": prompt.server, "redirectUri": prompt.redirect_uri})
        );
        eprintln!("a2ui_agent: sign in at {}", prompt.url);
        if browser && let Err(e) = open_browser(&prompt.url) {
            eprintln!("a2ui_agent: cannot open the browser ({e}): open the URL above");
        }
        r.clone().wait_async(Duration::from_secs(300))
    })
    .with_client_name("a2ui_agent")
}

fn main() {
    let mut target = None;
    let mut steps = Vec::new();
    let mut want_dump = false;
    let mut stream = true;
    let mut options = TransportOptions::default();
    let mut oauth = false;
    let mut browser = true;
    let mut oauth_store = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| usage());
        match a.as_str() {
            "--a2a" | "--agui" | "--mcp-url" | "--mcp" => target = Some((a.clone(), value())),
            "--send" => steps.push(Step::Send(value())),
            "--click" => steps.push(Step::Click(value())),
            "--dump" => want_dump = true,
            "--no-stream" => stream = false,
            "--oauth" => oauth = true,
            "--no-browser" => browser = false,
            "--oauth-store" => oauth_store = Some(value()),
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
    let Some((flag, target)) = target else {
        usage()
    };
    if oauth {
        let mut o = cli_oauth(browser);
        if let Some(path) = oauth_store {
            o = o.with_store(FileCredentialStore::new(path));
        }
        options = options.with_mcp_oauth(o);
    }
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
        let mut agent = match connector(&flag, target, options, stream).await {
            Ok(a) => a,
            Err(e) => fail(&e),
        };
        println!("{}", agent.connected());
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
                                .unwrap_or_else(|| {
                                    TransportError::Action(format!("no component {id:?}"))
                                })
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
            println!(
                "{}",
                conformance::to_canonical_string(&dump(&agent.stores())).trim_end()
            );
        }
        i32::from(failed)
    });
    std::process::exit(code);
}
