//! The viewer window: gallery (left), surfaces (centre), inspector tabs (right).

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};

use egui::RichText;
use egui_a2ui::mcp::{
    AppSession, CallRef, SessionHub, SessionState, SplitPolicy, UiExtensionSettings,
};
use egui_a2ui::stream::{Framed, parse_document};
use egui_a2ui::{Catalog, Event, Limits, Renderer, SurfaceStore};
use serde_json::{Value, json};

// `super::`, not `crate::`: tests include the viewer as a module (tests/viewer_app.rs).
use super::samples::{self, Sample, Source};
use super::{Cli, json_tree, mcp_host, stdio};

/// The right-hand tabs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tab {
    /// The live data model of every surface shown.
    Data,
    /// Renderer → agent messages and `tools/call` requests.
    Actions,
    /// Errors.
    Errors,
    /// The message stepper.
    Stepper,
}

impl Tab {
    fn parse(s: &str) -> Option<Self> {
        Some(match s.to_ascii_lowercase().as_str() {
            "data" | "model" => Self::Data,
            "actions" | "log" => Self::Actions,
            "errors" => Self::Errors,
            "stepper" | "steps" => Self::Stepper,
            _ => return None,
        })
    }
}

/// What the centre shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    /// A gallery stream (with the stepper).
    Sample(usize),
    /// The MCP agent.
    Agent,
    /// The `--stdin` stream.
    Stdin,
}

/// One line of the action log.
pub struct LogEntry {
    /// Time of day.
    pub time: String,
    /// `a2ui`, `tools/call`, `result`, `note`.
    pub kind: &'static str,
    /// Short description.
    pub title: String,
    /// The message, pretty-printed.
    pub json: String,
}

/// One error.
pub struct ErrorEntry {
    /// Time of day.
    pub time: String,
    /// Where it came from.
    pub source: String,
    /// What happened.
    pub text: String,
}

fn now() -> String {
    let ts = egui_a2ui::now_timestamp();
    ts.get(11..23).unwrap_or(&ts).to_owned()
}

fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_else(|_| v.to_string())
}

/// A stream under the stepper: every framed message, and how many are applied.
pub struct Doc {
    /// The gallery entry.
    pub sample: usize,
    /// The messages (or their framing errors).
    pub frames: Vec<Framed>,
    summaries: Vec<String>,
    /// Messages applied.
    pub cursor: usize,
    /// The renderer holding the state after `cursor` messages.
    pub renderer: Renderer,
    playing: bool,
    delay: f64,
    next_step_at: f64,
}

fn summarize(i: usize, f: &Framed) -> String {
    match f {
        Err(e) => format!("#{i}  error: {e}"),
        Ok(v) => {
            let kind = v
                .as_object()
                .and_then(|o| o.keys().find(|k| *k != "version"))
                .cloned()
                .unwrap_or_else(|| "?".into());
            let surface = v
                .get(&kind)
                .and_then(|b| b.get("surfaceId"))
                .and_then(Value::as_str)
                .unwrap_or("");
            let size = v.to_string().len();
            let size = if size >= 1 << 20 {
                format!("{:.1} MB", size as f64 / (1 << 20) as f64)
            } else if size >= 1024 {
                format!("{:.1} kB", size as f64 / 1024.0)
            } else {
                format!("{size} B")
            };
            format!("#{i}  {kind} · {surface} · {size}")
        }
    }
}

impl Doc {
    fn new(sample: usize, frames: Vec<Framed>, catalog: &Catalog) -> Self {
        let summaries = frames
            .iter()
            .enumerate()
            .map(|(i, f)| summarize(i, f))
            .collect();
        Self {
            sample,
            frames,
            summaries,
            cursor: 0,
            renderer: Renderer::new(catalog.clone()),
            playing: false,
            delay: 0.25,
            next_step_at: 0.0,
        }
    }

    /// Apply the next message; its events (errors) are returned.
    fn step(&mut self) -> Vec<Event> {
        let Some(f) = self.frames.get(self.cursor) else {
            return Vec::new();
        };
        match f {
            Ok(v) => {
                let _ = self.renderer.apply_value(v);
            }
            Err(e) => self.renderer.store_mut().reject_unparsed(e.clone()),
        }
        self.cursor += 1;
        self.renderer.take_events()
    }

    /// Start over from an empty renderer and apply the first `n` messages quietly.
    fn rebuild(&mut self, n: usize, catalog: &Catalog) {
        self.renderer = Renderer::new(catalog.clone());
        self.cursor = 0;
        while self.cursor < n.min(self.frames.len()) {
            self.step();
        }
    }
}

struct ToolInfo {
    name: String,
    title: String,
    description: String,
    example: String,
}

fn example_args(schema: Option<&Value>) -> String {
    let Some(props) = schema
        .and_then(|s| s.get("properties"))
        .and_then(Value::as_object)
    else {
        return "{}".into();
    };
    let mut m = serde_json::Map::new();
    for (k, p) in props {
        let v = match p.get("type").and_then(Value::as_str) {
            Some("number" | "integer") => json!(0),
            Some("boolean") => json!(false),
            Some("array") => json!([]),
            Some("object") => json!({}),
            _ if k == "destination" => json!("SFO"),
            _ => json!(""),
        };
        m.insert(k.clone(), v);
    }
    Value::Object(m).to_string()
}

enum Pending {
    Tool {
        session: String,
    },
    Action {
        call: CallRef,
        session: String,
        tool: String,
    },
}

enum Status {
    Connecting,
    Connected(String),
    Closed(String),
}

struct SessionView {
    id: String,
    tool: String,
    args: Value,
    texts: Vec<(String, bool)>,
}

/// The MCP side: connection, tools, sessions.
struct Agent {
    label: String,
    server_id: String,
    handle: mcp_host::Handle,
    status: Status,
    tools: Vec<ToolInfo>,
    chosen: usize,
    args: String,
    args_error: Option<String>,
    hub: SessionHub,
    renderers: HashMap<String, Renderer>,
    sessions: Vec<SessionView>,
    pending: HashMap<u64, Pending>,
    next_id: u64,
    uri_owner: HashMap<String, String>,
    auto_call: Option<String>,
    settings: UiExtensionSettings,
}

/// `--stdin`: a renderer fed as bytes arrive.
struct StdinFeed {
    rx: Receiver<stdio::Input>,
    out: Sender<String>,
    renderer: Renderer,
    bytes: usize,
    eof: bool,
}

struct Loaded {
    path: PathBuf,
    bytes: Result<Vec<u8>, String>,
}

/// The app.
pub struct ViewerApp {
    ctx: egui::Context,
    catalog: Catalog,
    samples: Vec<Sample>,
    view: View,
    doc: Option<Doc>,
    agent: Option<Agent>,
    stdin: Option<StdinFeed>,
    tab: Tab,
    log: Vec<LogEntry>,
    errors: Vec<ErrorEntry>,
    loads_tx: Sender<Loaded>,
    loads_rx: Receiver<Loaded>,
    frame: u64,
    cli: Cli,
    shot_done: Option<Arc<AtomicBool>>,
    model: Option<super::model_stream::ModelStreamPlayer>,
}

const MAX_LOG: usize = 2000;

impl ViewerApp {
    /// Set up from the command line. Nothing here blocks on an agent: connections and file
    /// reads run on their own threads.
    pub fn new(ctx: egui::Context, cli: Cli) -> Self {
        let (loads_tx, loads_rx) = channel();
        let (samples, sample_errors) = samples::load_bundled();
        // The bundled fonts (Roboto, bold, symbols) and image loaders, before any text is
        // laid out; the renderer would otherwise install them on its first frame.
        egui_a2ui::Renderer::install(&ctx);
        // Debug builds of egui outline widgets placed off the pixel grid ("Unaligned");
        // the renderer's flex layout triggers it inside weighted Rows. Not useful here.
        ctx.all_styles_mut(|s| s.debug.show_unaligned = false);
        let mut app = Self {
            ctx: ctx.clone(),
            catalog: samples::catalog(),
            samples,
            view: View::Sample(0),
            doc: None,
            agent: None,
            stdin: None,
            tab: cli.tab.as_deref().and_then(Tab::parse).unwrap_or(Tab::Data),
            log: Vec::new(),
            errors: Vec::new(),
            loads_tx,
            loads_rx,
            frame: 0,
            cli: cli.clone(),
            shot_done: None,
            model: None,
        };
        if let Some(p) = &cli.model_stream {
            let tps = cli.tps.unwrap_or(40.0);
            match super::model_stream::ModelStreamPlayer::open(p, tps, app.catalog.clone()) {
                Ok(m) => app.model = Some(m),
                Err(e) => app.error("model-stream", e),
            }
        }
        for e in sample_errors {
            app.error("gallery", e);
        }
        if let Some(t) = cli.tab.as_deref()
            && Tab::parse(t).is_none()
        {
            app.error(
                "viewer",
                format!("unknown tab {t:?} (data, actions, errors, stepper)"),
            );
        }
        for p in &cli.paths {
            app.load_file(p.clone());
        }
        if !app.samples.is_empty() {
            let first = match cli.sample.as_deref() {
                Some(name) => samples::find(&app.samples, name).unwrap_or_else(|| {
                    app.error("viewer", format!("no bundled sample matches {name:?}"));
                    0
                }),
                None => 0,
            };
            app.select_sample(first);
        }
        let start_demo = cli.mcp.is_none()
            && !cli.stdin
            && !cli.no_agent
            && cli.paths.is_empty()
            && cli.sample.is_none();
        if cli.stdin {
            app.stdin = Some(StdinFeed {
                rx: stdio::spawn_reader(ctx.clone()),
                out: stdio::spawn_writer(),
                renderer: Renderer::new(app.catalog.clone()),
                bytes: 0,
                eof: false,
            });
            app.view = View::Stdin;
        } else if let Some(line) = cli.mcp.clone() {
            match mcp_host::split_command(&line) {
                Ok(mut words) => {
                    let program = words.remove(0);
                    app.connect(line.clone(), program, words);
                }
                Err(e) => app.error("mcp", format!("--mcp {line:?}: {e}")),
            }
        } else if start_demo {
            match std::env::current_exe() {
                Ok(exe) => app.connect(
                    "built-in demo agent".into(),
                    exe.to_string_lossy().into_owned(),
                    vec!["--serve-demo".into()],
                ),
                Err(e) => app.error("demo agent", format!("cannot find my own executable: {e}")),
            }
        }
        if let (Some(a), Some(call)) = (app.agent.as_mut(), cli.call.clone()) {
            a.auto_call = Some(call);
        }
        app
    }

    fn error(&mut self, source: &str, text: impl Into<String>) {
        self.errors.push(ErrorEntry {
            time: now(),
            source: source.to_owned(),
            text: text.into(),
        });
    }

    fn log(&mut self, kind: &'static str, title: impl Into<String>, v: &Value) {
        self.log.push(LogEntry {
            time: now(),
            kind,
            title: title.into(),
            json: pretty(v),
        });
        if self.log.len() > MAX_LOG {
            self.log.drain(..self.log.len() - MAX_LOG);
        }
    }

    fn connect(&mut self, label: String, program: String, args: Vec<String>) {
        let handle = mcp_host::spawn(program, args, self.ctx.clone());
        self.agent = Some(Agent {
            label,
            server_id: "agent".into(),
            handle,
            status: Status::Connecting,
            tools: Vec::new(),
            chosen: 0,
            args: "{}".into(),
            args_error: None,
            hub: SessionHub::new(),
            renderers: HashMap::new(),
            sessions: Vec::new(),
            pending: HashMap::new(),
            next_id: 1,
            uri_owner: HashMap::new(),
            auto_call: None,
            settings: UiExtensionSettings::native_a2ui(),
        });
        self.view = View::Agent;
    }

    /// Read a file on a worker thread; it joins the gallery when it arrives.
    fn load_file(&mut self, path: PathBuf) {
        let tx = self.loads_tx.clone();
        let ctx = self.ctx.clone();
        std::thread::spawn(move || {
            let bytes = std::fs::read(&path).map_err(|e| e.to_string());
            let _ = tx.send(Loaded { path, bytes });
            ctx.request_repaint();
        });
    }

    fn select_sample(&mut self, i: usize) {
        let Some(s) = self.samples.get(i) else {
            return;
        };
        let frames = match &s.source {
            Source::Bytes(b) => parse_document(b, &Limits::default()),
            Source::Generated(f) => f().into_iter().map(Ok).collect(),
        };
        let mut doc = Doc::new(i, frames, &self.catalog);
        let mut events = Vec::new();
        while doc.cursor < doc.frames.len() {
            events.extend(doc.step());
        }
        self.doc = Some(doc);
        self.view = View::Sample(i);
        self.route_doc_events(events);
    }

    /// Log a gallery stream's events: each renderer → agent message, and the `tools/call`
    /// an MCP host would send for each action.
    fn route_doc_events(&mut self, events: Vec<Event>) {
        for e in events {
            match &e {
                Event::Action(a) => {
                    self.log(
                        "a2ui",
                        format!("action {} from {}", a.name, a.source_component_id),
                        &a.to_message(),
                    );
                    let mut params = json!({"name": a.name, "arguments": a.context});
                    if let Some(doc) = &self.doc {
                        let meta = egui_a2ui::capabilities::data_model_metadata(
                            doc.renderer.store(),
                            [a.surface_id.as_str()],
                        );
                        if !meta.is_empty() {
                            params["_meta"] = Value::Object(meta);
                        }
                    }
                    self.log(
                        "tools/call",
                        format!("would call {}", a.name),
                        &json!({"jsonrpc": "2.0", "method": "tools/call", "params": params}),
                    );
                }
                Event::Error(err) => {
                    let m = err.to_message();
                    self.log("a2ui", format!("error {}", err.error.code()), &m);
                    self.error("stream", err.error.to_string());
                }
                Event::OpenUrl { url, .. } => {
                    self.log(
                        "note",
                        format!("open {url} (not opened)"),
                        &json!({"openUrl": url}),
                    );
                }
                Event::Reply(m) => {
                    self.log("a2ui", "reply to the agent".to_owned(), m);
                }
                Event::DataChanged { .. } => {}
            }
        }
    }

    // ---- read access for tests (tests/viewer_app.rs) ----

    /// The action log, oldest first.
    #[allow(dead_code)]
    pub fn log_entries(&self) -> &[LogEntry] {
        &self.log
    }

    /// The errors, oldest first.
    #[allow(dead_code)]
    pub fn error_entries(&self) -> &[ErrorEntry] {
        &self.errors
    }

    /// The stream under the stepper.
    #[allow(dead_code)]
    pub fn doc(&self) -> Option<&Doc> {
        self.doc.as_ref()
    }

    /// The `--model-stream` replay, if any.
    pub fn model_stream(&mut self) -> Option<&mut super::model_stream::ModelStreamPlayer> {
        self.model.as_mut()
    }

    /// What the centre shows.
    #[allow(dead_code)]
    pub fn view(&self) -> View {
        self.view
    }

    /// The agent's sessions' surfaces, as (session id, store).
    #[allow(dead_code)]
    pub fn agent_stores(&self) -> Vec<(String, &SurfaceStore)> {
        self.agent
            .as_ref()
            .map(|a| {
                a.hub
                    .sessions()
                    .map(|s| (s.id().to_owned(), s.store()))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Every bundled sample's key.
    #[allow(dead_code)]
    pub fn sample_keys(&self) -> Vec<&str> {
        self.samples.iter().map(|s| s.key.as_str()).collect()
    }

    // ---- polling the background threads ----

    fn poll(&mut self) {
        while let Ok(l) = self.loads_rx.try_recv() {
            let name = l.path.file_name().map_or_else(
                || l.path.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            );
            match l.bytes {
                Ok(bytes) => {
                    self.samples.push(Sample {
                        group: "Opened".into(),
                        title: name.clone(),
                        key: name,
                        description: l.path.display().to_string(),
                        source: Source::Bytes(Arc::new(bytes)),
                    });
                    self.select_sample(self.samples.len() - 1);
                }
                Err(e) => self.error("open", format!("{}: {e}", l.path.display())),
            }
        }
        self.poll_stdin();
        self.poll_agent();
    }

    fn poll_stdin(&mut self) {
        let Some(feed) = self.stdin.as_mut() else {
            return;
        };
        let mut notes = Vec::new();
        while let Ok(input) = feed.rx.try_recv() {
            match input {
                stdio::Input::Chunk(c) => {
                    feed.bytes += c.len();
                    feed.renderer.feed_jsonl(&c);
                }
                stdio::Input::Eof => {
                    feed.renderer.finish_jsonl();
                    feed.eof = true;
                }
                stdio::Input::Failed(e) => {
                    feed.eof = true;
                    notes.push(e);
                }
            }
        }
        let events = feed.renderer.take_events();
        for n in notes {
            self.error("stdin", n);
        }
        self.route_stdin_events(events);
    }

    fn route_stdin_events(&mut self, events: Vec<Event>) {
        for e in events {
            if let Some(m) = e.to_message() {
                if let Some(feed) = &self.stdin {
                    let _ = feed.out.send(m.to_string());
                }
                let title = match &e {
                    Event::Action(a) => format!("action {} to stdout", a.name),
                    Event::Error(err) => {
                        self.error("stdin", err.error.to_string());
                        format!("error {} to stdout", err.error.code())
                    }
                    _ => "message to stdout".into(),
                };
                self.log("a2ui", title, &m);
            } else if let Event::OpenUrl { url, .. } = &e {
                self.log(
                    "note",
                    format!("open {url} (not opened)"),
                    &json!({"openUrl": url}),
                );
            }
        }
    }

    fn poll_agent(&mut self) {
        let mut replies = Vec::new();
        if let Some(a) = &self.agent {
            while let Ok(r) = a.handle.rx.try_recv() {
                replies.push(r);
            }
        }
        for r in replies {
            self.on_reply(r);
        }
        // `--call`: once the tools are known.
        let ready = self
            .agent
            .as_ref()
            .is_some_and(|a| matches!(a.status, Status::Connected(_)) && a.auto_call.is_some());
        if ready && let Some(call) = self.agent.as_mut().and_then(|a| a.auto_call.take()) {
            let (name, args) = call
                .split_once(char::is_whitespace)
                .unwrap_or((call.as_str(), "{}"));
            self.call_tool(name.to_owned(), args.trim().to_owned());
        }
    }

    fn on_reply(&mut self, r: mcp_host::Reply) {
        let Some(a) = self.agent.as_mut() else {
            return;
        };
        match r {
            mcp_host::Reply::Connected { server, tools } => {
                a.hub.tools_mut().insert_tools_list(&a.server_id, &tools);
                a.tools = tools["tools"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|t| {
                        let name = t.get("name")?.as_str()?.to_owned();
                        let visible = a
                            .hub
                            .tools()
                            .get(&a.server_id, &name)
                            .is_none_or(|m| m.visibility.model);
                        visible.then(|| ToolInfo {
                            title: t
                                .get("title")
                                .and_then(Value::as_str)
                                .unwrap_or(&name)
                                .to_owned(),
                            description: t
                                .get("description")
                                .and_then(Value::as_str)
                                .unwrap_or("")
                                .to_owned(),
                            example: example_args(t.get("inputSchema")),
                            name,
                        })
                    })
                    .collect();
                a.chosen = 0;
                if let Some(t) = a.tools.first() {
                    a.args = t.example.clone();
                }
                a.status = Status::Connected(server.clone());
                self.log("note", format!("connected to {server}"), &tools);
            }
            mcp_host::Reply::Closed(msg) => {
                a.status = Status::Closed(msg.clone());
                let pending: Vec<(u64, Pending)> = a.pending.drain().collect();
                for (_, p) in pending {
                    match p {
                        Pending::Tool { session } => {
                            if let Some(s) = a.hub.get_mut(&session) {
                                s.on_tool_failed(&msg);
                            }
                        }
                        Pending::Action { call, .. } => {
                            let _ = a.hub.on_action_failed(&call, &msg);
                        }
                    }
                }
                let label = a.label.clone();
                self.error("mcp", format!("{label}: {msg}"));
            }
            mcp_host::Reply::CallDone { id, result } => self.on_call_done(id, result),
            mcp_host::Reply::ResourceUpdated { uri, result } => {
                let owner = a.uri_owner.get(&uri).cloned();
                match (owner, result) {
                    (Some(session), Ok(read)) => {
                        if let Some(s) = a.hub.get_mut(&session) {
                            let mut applied = 0;
                            for c in read["contents"].as_array().into_iter().flatten() {
                                let mime = c.get("mimeType").and_then(Value::as_str).unwrap_or("");
                                let Some(text) = c.get("text").and_then(Value::as_str) else {
                                    continue;
                                };
                                if !egui_a2ui::mcp::is_a2ui_family(mime) {
                                    continue;
                                }
                                let frames = parse_document(text.as_bytes(), s.store().limits());
                                for f in frames {
                                    match f {
                                        Ok(v) => {
                                            if s.store_mut().apply_value(&v).is_ok() {
                                                applied += 1;
                                            }
                                        }
                                        Err(e) => s.store_mut().reject_unparsed(e),
                                    }
                                }
                            }
                            let _ = applied;
                        }
                    }
                    (None, _) => {}
                    (Some(_), Err(e)) => self.error("mcp", format!("resources/read {uri}: {e}")),
                }
            }
        }
    }

    /// The user (standing in for the model) calls a model-visible tool.
    fn call_tool(&mut self, name: String, args_text: String) {
        let Some(a) = self.agent.as_mut() else {
            return;
        };
        let args = match serde_json::from_str::<Value>(&args_text) {
            Ok(Value::Object(m)) => m,
            Ok(_) => {
                a.args_error = Some("the arguments must be a JSON object".into());
                return;
            }
            Err(e) => {
                a.args_error = Some(format!("not JSON: {e}"));
                return;
            }
        };
        a.args_error = None;
        let id = a.next_id;
        a.next_id += 1;
        let session_id = format!("call-{id}");
        let store = SurfaceStore::with_config(self.catalog.known_catalogs(), Limits::default());
        let session = a.hub.open(
            AppSession::new(&session_id, &a.server_id, &name)
                .with_policy(SplitPolicy::for_settings(&a.settings))
                .with_store(store),
        );
        session.on_tool_input(Value::Object(args.clone()));
        a.sessions.push(SessionView {
            id: session_id.clone(),
            tool: name.clone(),
            args: Value::Object(args.clone()),
            texts: Vec::new(),
        });
        let params = json!({"name": name, "arguments": args});
        a.pending.insert(
            id,
            Pending::Tool {
                session: session_id,
            },
        );
        let sent = a.handle.tx.send(mcp_host::Command::Call {
            id,
            params: params.clone(),
        });
        self.log(
            "tools/call",
            format!("call {name}"),
            &json!({"jsonrpc": "2.0", "method": "tools/call", "params": params}),
        );
        if sent.is_err() {
            self.on_call_done(id, Err("the MCP connection is closed".into()));
        }
    }

    fn on_call_done(&mut self, id: u64, result: Result<Value, String>) {
        let Some(a) = self.agent.as_mut() else {
            return;
        };
        let Some(p) = a.pending.remove(&id) else {
            return;
        };
        let mut errors = Vec::new();
        let mut logs = Vec::new();
        match p {
            Pending::Tool { session } => {
                let view = a.sessions.iter_mut().find(|v| v.id == session);
                let Some(s) = a.hub.get_mut(&session) else {
                    return;
                };
                match result {
                    Ok(r) => {
                        logs.push(("result", format!("result of {}", s.tool_name()), r.clone()));
                        match s.on_tool_result(&r) {
                            Ok(out) => {
                                for p in &out.split.payloads {
                                    if let Some(uri) = &p.uri {
                                        a.uri_owner.insert(uri.clone(), session.clone());
                                    }
                                }
                                for d in &out.split.dropped {
                                    errors.push(format!(
                                        "dropped content block {}: {:?}",
                                        d.index, d.reason
                                    ));
                                }
                                errors.extend(out.errors.iter().map(|e| format!("{session}: {e}")));
                                if let Some(v) = view {
                                    let text = out.split.display_text();
                                    if !text.is_empty() {
                                        v.texts.push((text, out.split.is_error));
                                    }
                                }
                            }
                            Err(e) => {
                                s.on_tool_failed(&e.to_string());
                                errors.push(format!("{session}: {e}"));
                            }
                        }
                    }
                    Err(e) => {
                        s.on_tool_failed(&e);
                        errors.push(format!("{session}: {e}"));
                    }
                }
            }
            Pending::Action {
                call,
                session,
                tool,
            } => match result {
                Ok(r) => {
                    logs.push(("result", format!("result of {tool}"), r.clone()));
                    match a.hub.on_action_result(&call, &r) {
                        Ok(out) => {
                            errors.extend(out.errors.iter().map(|e| format!("{session}: {e}")));
                            if let Some(v) = a.sessions.iter_mut().find(|v| v.id == session) {
                                let text = out.split.display_text();
                                if !text.is_empty() {
                                    v.texts
                                        .push((format!("{tool}: {text}"), out.split.is_error));
                                }
                            }
                        }
                        Err(e) => errors.push(format!("{tool}: {e}")),
                    }
                }
                Err(e) => {
                    let _ = a.hub.on_action_failed(&call, &e);
                    errors.push(format!("{tool}: {e}"));
                }
            },
        }
        for (kind, title, v) in logs {
            self.log(kind, title, &v);
        }
        for e in errors {
            self.error("mcp", e);
        }
    }

    /// Events of one agent session: actions become `tools/call` on its server.
    fn route_agent_events(&mut self, session: &str, events: Vec<Event>) {
        for e in events {
            match &e {
                Event::Action(ev) => {
                    self.log(
                        "a2ui",
                        format!("action {} from {}", ev.name, ev.source_component_id),
                        &ev.to_message(),
                    );
                    let Some(a) = self.agent.as_mut() else {
                        return;
                    };
                    match a.hub.on_action(session, ev) {
                        Ok(req) => {
                            let id = a.next_id;
                            a.next_id += 1;
                            let params = req.params();
                            a.pending.insert(
                                id,
                                Pending::Action {
                                    call: req.call_ref.clone(),
                                    session: session.to_owned(),
                                    tool: req.name.clone(),
                                },
                            );
                            let sent = a.handle.tx.send(mcp_host::Command::Call {
                                id,
                                params: params.clone(),
                            });
                            self.log(
                                "tools/call",
                                format!("call {} (from {})", req.name, req.surface_id),
                                &json!({"jsonrpc": "2.0", "method": "tools/call", "params": params}),
                            );
                            if sent.is_err() {
                                self.on_call_done(id, Err("the MCP connection is closed".into()));
                            }
                        }
                        Err(err) => self.error("mcp", format!("action {}: {err}", ev.name)),
                    }
                }
                Event::Error(err) => {
                    self.log(
                        "a2ui",
                        format!("error {} (no MCP channel for it)", err.error.code()),
                        &err.to_message(),
                    );
                    self.error(session, err.error.to_string());
                }
                Event::OpenUrl { url, .. } => {
                    self.log(
                        "note",
                        format!("open {url} (not opened)"),
                        &json!({"openUrl": url}),
                    );
                }
                Event::Reply(m) => {
                    self.log("a2ui", "reply to the agent".to_owned(), m);
                }
                Event::DataChanged { .. } => {}
            }
        }
    }

    // ---- drawing ----

    /// The whole window (without eframe's frame, so tests can drive it headless).
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        self.frame += 1;
        self.poll();
        self.handle_drops(ui.ctx());
        self.step_player(ui.ctx());

        if self.model.is_none() {
            egui::Panel::left("gallery")
                .resizable(true)
                .default_size(250.0)
                .show(ui, |ui| self.gallery_ui(ui));
            egui::Panel::right("inspector")
                .resizable(true)
                .default_size(400.0)
                .show(ui, |ui| self.inspector_ui(ui));
        }
        egui::CentralPanel::default().show(ui, |ui| match self.model.as_mut() {
            Some(m) => m.ui(ui),
            None => self.centre_ui(ui),
        });

        if ui.ctx().input(|i| !i.raw.hovered_files.is_empty()) {
            let rect = ui.ctx().content_rect();
            let painter = ui.ctx().layer_painter(egui::LayerId::new(
                egui::Order::Foreground,
                egui::Id::unique("drop-overlay"),
            ));
            painter.rect_filled(rect, 0.0, egui::Color32::from_black_alpha(160));
            painter.text(
                rect.center(),
                egui::Align2::CENTER_CENTER,
                "Drop A2UI streams (.jsonl / .json) to open them",
                egui::FontId::proportional(24.0),
                egui::Color32::WHITE,
            );
        }
    }

    /// Frame counting, `--frames` and `--screenshot`.
    pub fn after_frame(&mut self, ctx: &egui::Context) {
        let Some(n) = self.cli.frames.or(self.cli.screenshot.as_ref().map(|_| 30)) else {
            return;
        };
        ctx.request_repaint();
        if self.frame < n {
            return;
        }
        // `--stdin`: read the whole input before quitting.
        if self.stdin.as_ref().is_some_and(|f| !f.eof) && self.frame < n + 3000 {
            return;
        }
        match &self.cli.screenshot {
            None => ctx.send_viewport_cmd(egui::ViewportCommand::Close),
            Some(path) => {
                if let Some(done) = &self.shot_done {
                    if done.load(Ordering::SeqCst) || self.frame > n + 3000 {
                        ctx.send_viewport_cmd(egui::ViewportCommand::Close);
                    }
                    return;
                }
                let busy = self.agent.as_ref().is_some_and(|a| {
                    matches!(a.status, Status::Connecting)
                        || !a.pending.is_empty()
                        || a.auto_call.is_some()
                });
                if busy && self.frame < n + 1500 {
                    return;
                }
                let done = Arc::new(AtomicBool::new(false));
                self.shot_done = Some(done.clone());
                let path = path.clone();
                let ctx2 = ctx.clone();
                ctx.request_screenshot(move |img| {
                    let [w, h] = img.size;
                    let saved =
                        image::RgbaImage::from_raw(w as u32, h as u32, img.as_raw().to_vec())
                            .ok_or_else(|| "bad image size".to_owned())
                            .and_then(|i| i.save(&path).map_err(|e| e.to_string()));
                    match saved {
                        Ok(()) => eprintln!("viewer: saved {}", path.display()),
                        Err(e) => eprintln!("viewer: cannot save {}: {e}", path.display()),
                    }
                    done.store(true, Ordering::SeqCst);
                    ctx2.request_repaint();
                });
            }
        }
    }

    fn handle_drops(&mut self, ctx: &egui::Context) {
        let dropped = ctx.input(|i| i.raw.dropped_files.clone());
        for f in dropped {
            self.load_file(f.path().to_path_buf());
        }
    }

    fn step_player(&mut self, ctx: &egui::Context) {
        let now = ctx.input(|i| i.time);
        let mut events = Vec::new();
        if let Some(doc) = self.doc.as_mut().filter(|d| d.playing) {
            if doc.cursor >= doc.frames.len() {
                doc.playing = false;
            } else if now >= doc.next_step_at {
                events = doc.step();
                doc.next_step_at = now + doc.delay;
                ctx.request_repaint_after(std::time::Duration::from_secs_f64(doc.delay));
            } else {
                ctx.request_repaint_after(std::time::Duration::from_secs_f64(
                    doc.next_step_at - now,
                ));
            }
        }
        self.route_doc_events(events);
    }

    fn gallery_ui(&mut self, ui: &mut egui::Ui) {
        ui.add_space(6.0);
        ui.heading("egui_a2ui viewer");
        ui.weak("Drop .jsonl / .json streams on the window to open them.");
        ui.separator();
        let mut pick = None;
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .show(ui, |ui| {
                if let Some(a) = &self.agent {
                    let color = match &a.status {
                        Status::Connecting => egui::Color32::GRAY,
                        Status::Connected(_) => egui::Color32::from_rgb(60, 170, 90),
                        Status::Closed(_) => egui::Color32::from_rgb(200, 70, 60),
                    };
                    ui.label(RichText::new("Live agent").strong());
                    ui.horizontal(|ui| {
                        let (dot, _) =
                            ui.allocate_exact_size(egui::vec2(10.0, 10.0), egui::Sense::hover());
                        ui.painter().circle_filled(dot.center(), 4.5, color);
                        if ui
                            .selectable_label(self.view == View::Agent, &a.label)
                            .clicked()
                        {
                            pick = Some(View::Agent);
                        }
                    });
                    ui.add_space(4.0);
                } else if self.errors.iter().any(|e| e.source == "demo agent") {
                    ui.colored_label(
                        ui.visuals().warn_fg_color,
                        "Demo agent unavailable (see Errors)",
                    );
                }
                if self.stdin.is_some() {
                    ui.label(RichText::new("Live agent").strong());
                    if ui
                        .selectable_label(self.view == View::Stdin, "stdin (JSONL)")
                        .clicked()
                    {
                        pick = Some(View::Stdin);
                    }
                    ui.add_space(4.0);
                }
                let mut groups: Vec<&str> = Vec::new();
                for s in &self.samples {
                    if !groups.contains(&s.group.as_str()) {
                        groups.push(&s.group);
                    }
                }
                for g in groups {
                    egui::CollapsingHeader::new(RichText::new(g).strong())
                        .default_open(g != "Official v0.8")
                        .show(ui, |ui| {
                            for (i, s) in self
                                .samples
                                .iter()
                                .enumerate()
                                .filter(|(_, s)| s.group == g)
                            {
                                let r = ui.selectable_label(self.view == View::Sample(i), &s.title);
                                let r = if s.description.is_empty() {
                                    r
                                } else {
                                    r.on_hover_text(&s.description)
                                };
                                if r.clicked() {
                                    pick = Some(View::Sample(i));
                                }
                            }
                        });
                }
            });
        match pick {
            Some(View::Sample(i)) => self.select_sample(i),
            Some(v) => self.view = v,
            None => {}
        }
    }

    fn centre_ui(&mut self, ui: &mut egui::Ui) {
        match self.view {
            View::Sample(_) => self.doc_ui(ui),
            View::Agent => self.agent_ui(ui),
            View::Stdin => self.stdin_ui(ui),
        }
    }

    fn doc_ui(&mut self, ui: &mut egui::Ui) {
        let Some(doc) = self.doc.as_mut() else {
            ui.label("No stream loaded.");
            return;
        };
        if let Some(s) = self.samples.get(doc.sample) {
            ui.horizontal(|ui| {
                ui.heading(&s.title);
                ui.weak(format!(
                    "{} · message {} of {}",
                    s.group,
                    doc.cursor,
                    doc.frames.len()
                ));
            });
            if !s.description.is_empty() {
                ui.weak(&s.description);
            }
        }
        ui.separator();
        let visible = doc
            .renderer
            .store()
            .surfaces()
            .filter(|s| s.is_visible())
            .count();
        let mut events = Vec::new();
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .show(ui, |ui| {
                if visible == 0 {
                    ui.weak("No visible surface yet: step on in the Stepper tab.");
                }
                events = doc.renderer.ui(ui);
            });
        self.route_doc_events(events);
    }

    fn stdin_ui(&mut self, ui: &mut egui::Ui) {
        let Some(feed) = self.stdin.as_mut() else {
            return;
        };
        ui.horizontal(|ui| {
            ui.heading("stdin");
            ui.weak(format!(
                "{} bytes, {} messages{}",
                feed.bytes,
                feed.renderer.store().messages_seen(),
                if feed.eof {
                    " · end of input"
                } else {
                    " · reading…"
                }
            ));
        });
        ui.weak(
            "A2UI JSONL in on standard input; renderer-to-agent messages out on standard output.",
        );
        ui.separator();
        let mut events = Vec::new();
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .show(ui, |ui| {
                if feed.renderer.store().surfaces().all(|s| !s.is_visible()) {
                    ui.weak("Waiting for a surface…");
                }
                events = feed.renderer.ui(ui);
            });
        self.route_stdin_events(events);
    }

    fn agent_ui(&mut self, ui: &mut egui::Ui) {
        let catalog = self.catalog.clone();
        let Some(a) = self.agent.as_mut() else {
            return;
        };
        ui.horizontal(|ui| {
            ui.heading(&a.label);
            match &a.status {
                Status::Connecting => {
                    ui.spinner();
                    ui.weak("connecting over MCP stdio…");
                }
                Status::Connected(s) => {
                    ui.weak(format!("MCP · {s}"));
                }
                Status::Closed(m) => {
                    ui.colored_label(ui.visuals().error_fg_color, m);
                }
            }
        });
        let mut call = None;
        if !a.tools.is_empty() {
            egui::Frame::group(ui.style()).show(ui, |ui| {
                ui.horizontal(|ui| {
                    ui.label("Tool");
                    let before = a.chosen;
                    egui::ComboBox::from_id_salt("tool-pick")
                        .selected_text(a.tools.get(a.chosen).map_or("", |t| t.title.as_str()))
                        .show_ui(ui, |ui| {
                            for (i, t) in a.tools.iter().enumerate() {
                                ui.selectable_value(&mut a.chosen, i, &t.title);
                            }
                        });
                    if a.chosen != before
                        && let Some(t) = a.tools.get(a.chosen)
                    {
                        a.args = t.example.clone();
                    }
                    ui.label("arguments");
                    ui.add(
                        egui::TextEdit::singleline(&mut a.args)
                            .code_editor()
                            .desired_width(ui.available_width() - 90.0),
                    );
                    let connected = matches!(a.status, Status::Connected(_));
                    if ui
                        .add_enabled(connected, egui::Button::new("Call tool"))
                        .clicked()
                        && let Some(t) = a.tools.get(a.chosen)
                    {
                        call = Some((t.name.clone(), a.args.clone()));
                    }
                });
                if let Some(t) = a.tools.get(a.chosen) {
                    ui.weak(format!("{} — {}", t.name, t.description));
                }
                if let Some(e) = &a.args_error {
                    ui.colored_label(ui.visuals().error_fg_color, e);
                }
            });
        }
        ui.separator();
        let mut routed: Vec<(String, Vec<Event>)> = Vec::new();
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .stick_to_bottom(true)
            .show(ui, |ui| {
                if a.sessions.is_empty() {
                    ui.weak(
                        "Pick a model-visible tool above and call it, as a model would. Its text \
                         goes in this transcript and its A2UI payload is rendered here; buttons \
                         on the surface call the server's app-only tools.",
                    );
                }
                for view in &a.sessions {
                    let Some(session) = a.hub.get_mut(&view.id) else {
                        continue;
                    };
                    ui.add_space(6.0);
                    ui.horizontal(|ui| {
                        ui.label(
                            RichText::new(format!("tools/call {}", view.tool))
                                .strong()
                                .monospace(),
                        );
                        ui.label(RichText::new(view.args.to_string()).monospace().weak());
                    });
                    match session.state() {
                        SessionState::Pending | SessionState::Loading { .. } => {
                            ui.horizontal(|ui| {
                                ui.spinner();
                                ui.weak("waiting for the tool result…");
                            });
                        }
                        SessionState::Error { message } => {
                            ui.colored_label(ui.visuals().error_fg_color, message);
                        }
                        SessionState::Cancelled { reason } => {
                            ui.weak(format!("cancelled {}", reason.as_deref().unwrap_or("")));
                        }
                        SessionState::Ready => {}
                    }
                    for (text, is_error) in &view.texts {
                        let t = RichText::new(text.as_str());
                        if *is_error {
                            ui.colored_label(ui.visuals().error_fg_color, t);
                        } else {
                            ui.label(t.italics());
                        }
                    }
                    let renderer = a
                        .renderers
                        .entry(view.id.clone())
                        .or_insert_with(|| Renderer::new(catalog.clone()));
                    let surfaces: Vec<String> = session
                        .store()
                        .surfaces()
                        .filter(|s| s.is_visible())
                        .map(|s| s.id.clone())
                        .collect();
                    let mut events = Vec::new();
                    for sid in surfaces {
                        let busy = session.is_busy(&sid);
                        egui::Frame::group(ui.style()).show(ui, |ui| {
                            ui.set_width(ui.available_width());
                            ui.push_id((&view.id, &sid), |ui| {
                                // The session owns the surfaces; lend them to the renderer
                                // for this frame.
                                std::mem::swap(renderer.store_mut(), session.store_mut());
                                ui.add_enabled_ui(!busy, |ui| {
                                    events.extend(renderer.surface_ui(&sid, ui));
                                });
                                std::mem::swap(renderer.store_mut(), session.store_mut());
                            });
                            if busy {
                                ui.horizontal(|ui| {
                                    ui.spinner();
                                    ui.weak("calling the server…");
                                });
                            }
                            for n in session
                                .notices_for(&sid)
                                .collect::<Vec<_>>()
                                .iter()
                                .rev()
                                .take(2)
                            {
                                ui.colored_label(
                                    ui.visuals().error_fg_color,
                                    format!("Error: {}", n.message),
                                );
                            }
                        });
                    }
                    if !events.is_empty() {
                        routed.push((view.id.clone(), events));
                    }
                }
            });
        for (session, events) in routed {
            self.route_agent_events(&session, events);
        }
        if let Some((name, args)) = call {
            self.call_tool(name, args);
        }
    }

    fn inspector_ui(&mut self, ui: &mut egui::Ui) {
        ui.add_space(6.0);
        ui.horizontal(|ui| {
            let errors = self.errors.len() + self.stream_errors();
            for (tab, label) in [
                (Tab::Data, "Data model".to_owned()),
                (Tab::Actions, format!("Actions ({})", self.log.len())),
                (Tab::Errors, format!("Errors ({errors})")),
                (Tab::Stepper, "Stepper".to_owned()),
            ] {
                ui.selectable_value(&mut self.tab, tab, label);
            }
        });
        ui.separator();
        match self.tab {
            Tab::Data => self.data_ui(ui),
            Tab::Actions => self.actions_ui(ui),
            Tab::Errors => self.errors_ui(ui),
            Tab::Stepper => self.stepper_ui(ui),
        }
    }

    fn stream_errors(&self) -> usize {
        match self.view {
            View::Sample(_) => self
                .doc
                .as_ref()
                .map_or(0, |d| d.renderer.store().errors().len()),
            View::Stdin => self
                .stdin
                .as_ref()
                .map_or(0, |f| f.renderer.store().errors().len()),
            View::Agent => 0,
        }
    }

    fn data_ui(&mut self, ui: &mut egui::Ui) {
        let mut stores: Vec<(String, &SurfaceStore)> = Vec::new();
        match self.view {
            View::Sample(_) => stores.extend(
                self.doc
                    .as_ref()
                    .map(|d| (String::new(), d.renderer.store())),
            ),
            View::Stdin => stores.extend(
                self.stdin
                    .as_ref()
                    .map(|f| (String::new(), f.renderer.store())),
            ),
            View::Agent => {
                if let Some(a) = &self.agent {
                    stores.extend(
                        a.hub
                            .sessions()
                            .map(|s| (format!("{} · ", s.id()), s.store())),
                    );
                }
            }
        }
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .show(ui, |ui| {
                let mut any = false;
                for (prefix, store) in stores {
                    for s in store.surfaces() {
                        any = true;
                        let label = format!("{prefix}{} ({})", s.id, s.version.as_str());
                        json_tree::show(ui, (&prefix, &s.id), &label, s.data.root());
                    }
                }
                if !any {
                    ui.weak("No surface yet.");
                }
            });
    }

    fn actions_ui(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            ui.weak(
                "Renderer-to-agent messages and the tools/call requests for them, newest first.",
            );
            if ui.small_button("Clear").clicked() {
                self.log.clear();
            }
        });
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .show(ui, |ui| {
                if self.log.is_empty() {
                    ui.weak("Nothing yet: press a button on a surface.");
                }
                let n = self.log.len();
                for (i, e) in self.log.iter().enumerate().rev() {
                    let color = match e.kind {
                        "tools/call" => egui::Color32::from_rgb(200, 120, 40),
                        "a2ui" => egui::Color32::from_rgb(60, 130, 210),
                        "result" => egui::Color32::from_rgb(60, 160, 90),
                        _ => egui::Color32::GRAY,
                    };
                    let header =
                        RichText::new(format!("{} {} · {}", e.time, e.kind, e.title)).color(color);
                    egui::CollapsingHeader::new(header)
                        .id_salt(("log", i))
                        .default_open(i + 3 >= n && e.kind != "result" && e.json.len() < 3000)
                        .show(ui, |ui| {
                            let shown: String = e.json.chars().take(6000).collect();
                            ui.label(RichText::new(shown).monospace().size(11.0));
                            if e.json.len() > 6000 {
                                ui.weak("… (cut)");
                            }
                        });
                }
            });
    }

    fn errors_ui(&mut self, ui: &mut egui::Ui) {
        let stream: Vec<String> = match self.view {
            View::Sample(_) => self
                .doc
                .as_ref()
                .map(|d| d.renderer.store().errors().to_vec()),
            View::Stdin => self
                .stdin
                .as_ref()
                .map(|f| f.renderer.store().errors().to_vec()),
            View::Agent => None,
        }
        .unwrap_or_default()
        .into_iter()
        .map(|e| {
            format!(
                "message {} · {} · {}: {}",
                e.message_index.map_or("?".into(), |i| i.to_string()),
                e.surface_id.as_deref().unwrap_or("-"),
                e.error.code(),
                e.error
            )
        })
        .collect();
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .show(ui, |ui| {
                if stream.is_empty() && self.errors.is_empty() {
                    ui.weak("No errors.");
                }
                if !stream.is_empty() {
                    ui.label(RichText::new("This stream").strong());
                    for e in &stream {
                        ui.colored_label(ui.visuals().error_fg_color, e);
                    }
                    ui.separator();
                }
                for e in self.errors.iter().rev() {
                    ui.horizontal_wrapped(|ui| {
                        ui.weak(&e.time);
                        ui.label(RichText::new(&e.source).strong());
                        ui.colored_label(ui.visuals().error_fg_color, &e.text);
                    });
                }
            });
    }

    fn stepper_ui(&mut self, ui: &mut egui::Ui) {
        if self.view != View::Sample(self.doc.as_ref().map_or(usize::MAX, |d| d.sample)) {
            ui.weak("The stepper replays gallery streams and opened files. Pick one on the left.");
            return;
        }
        let catalog = self.catalog.clone();
        let Some(doc) = self.doc.as_mut() else {
            return;
        };
        let n = doc.frames.len();
        let mut events = Vec::new();
        let mut rebuild_to = None;
        ui.horizontal(|ui| {
            if ui
                .button("Reset")
                .on_hover_text("Reset: no message applied")
                .clicked()
            {
                doc.playing = false;
                rebuild_to = Some(0);
            }
            if ui
                .add_enabled(doc.cursor > 0, egui::Button::new("Back"))
                .on_hover_text("Undo the last message")
                .clicked()
            {
                doc.playing = false;
                rebuild_to = Some(doc.cursor - 1);
            }
            if ui
                .add_enabled(doc.cursor < n, egui::Button::new("Step"))
                .on_hover_text("Apply the next message")
                .clicked()
            {
                doc.playing = false;
                events.extend(doc.step());
            }
            let play = if doc.playing { "Pause" } else { "Play" };
            if ui
                .button(play)
                .on_hover_text("Replay from the start, one message per delay")
                .clicked()
            {
                doc.playing = !doc.playing;
                if doc.playing && doc.cursor >= n {
                    rebuild_to = Some(0);
                }
                doc.next_step_at = 0.0;
            }
            if ui
                .add_enabled(doc.cursor < n, egui::Button::new("All"))
                .on_hover_text("Apply every message")
                .clicked()
            {
                doc.playing = false;
                while doc.cursor < n {
                    events.extend(doc.step());
                }
            }
        });
        ui.horizontal(|ui| {
            ui.label("delay");
            ui.add(
                egui::Slider::new(&mut doc.delay, 0.02..=2.0)
                    .suffix(" s")
                    .logarithmic(true),
            );
        });
        ui.add(
            egui::ProgressBar::new(if n == 0 {
                1.0
            } else {
                doc.cursor as f32 / n as f32
            })
            .text(format!("{} / {n} applied", doc.cursor)),
        );
        ui.separator();
        let row_h = ui.text_style_height(&egui::TextStyle::Monospace) + 4.0;
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .max_height(ui.available_height() * 0.55)
            .show_rows(ui, row_h, n, |ui, range| {
                for i in range {
                    let applied = i < doc.cursor;
                    let mut text = RichText::new(&doc.summaries[i]).monospace().size(11.0);
                    if !applied {
                        text = text.weak();
                    }
                    if doc.frames[i].is_err() {
                        text = text.color(ui.visuals().error_fg_color);
                    }
                    if ui
                        .selectable_label(i + 1 == doc.cursor, text)
                        .on_hover_text("Jump here: apply messages up to this one")
                        .clicked()
                    {
                        doc.playing = false;
                        rebuild_to = Some(i + 1);
                    }
                }
            });
        ui.separator();
        if doc.cursor > 0
            && let Some(f) = doc.frames.get(doc.cursor - 1)
        {
            ui.label(RichText::new(format!("Last applied: message #{}", doc.cursor - 1)).strong());
            let text = match f {
                Ok(v) => pretty(v),
                Err(e) => format!("framing error: {e}"),
            };
            egui::ScrollArea::vertical()
                .id_salt("last-msg")
                .auto_shrink([false, false])
                .show(ui, |ui| {
                    let shown: String = text.chars().take(4000).collect();
                    ui.label(RichText::new(shown).monospace().size(11.0));
                    if text.len() > 4000 {
                        ui.weak("… (cut)");
                    }
                });
        }
        if let Some(k) = rebuild_to {
            doc.rebuild(k, &catalog);
        }
        self.route_doc_events(events);
    }
}

impl eframe::App for ViewerApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        ViewerApp::ui(self, ui);
        let ctx = ui.ctx().clone();
        self.after_frame(&ctx);
    }
}
