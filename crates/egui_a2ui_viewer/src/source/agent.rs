//! The live agent source: any agent the library reaches (`--a2a`, `--agui`, `--mcp-url`,
//! `--mcp`, `--agent TARGET`, the built-in demo agent), held as one
//! [`egui_a2ui::agent::Agent`]. The centre shows who the agent is (the connection's
//! origin), the task or run state with a Stop button while a turn runs, a prompt box, and
//! the conversation's thread: the user's turns, the agent's text, each surface where the
//! agent created it (updated in place), AG-UI activities still building as the lifecycle
//! skeleton, errors with a Retry. Every request and every answer goes to the action log.

use std::collections::VecDeque;

use egui::RichText;
use egui_a2ui::agent::{Agent, ConnectionStatus, ThreadEntry};
use egui_a2ui::panel::lifecycle_ui;
use egui_a2ui::render::DrawState;
use egui_a2ui::transport::mcp_http::McpHost;
use egui_a2ui::transport::oauth::{LoopbackRedirect, McpOAuth, open_browser};
use egui_a2ui::transport::{
    TaskState, TransportError, TransportEvent, TransportOptions, Turn, find_action,
};
use egui_a2ui::{Catalog, Event, SurfaceStore};
use serde_json::{Value, json};

use super::{Source, Status, store_errors};
use crate::activity::{ActivityLog, LogKind};

/// One scripted turn (`--send TEXT`, `--click COMPONENT_ID`, `--call 'TOOL {json}'`), run
/// once the previous turn has ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScriptStep {
    /// A user message (with MCP, `TOOL {"json": "args"}` calls that tool).
    Send(String),
    /// Press the first instance of this component id (tree order), as `a2ui_agent --click`.
    Click(String),
}

/// An agent, whatever the transport: the connection's origin and state, a prompt box with
/// Stop, the thread of the conversation with its surfaces, and the action log of every
/// request and answer.
pub struct AgentSource {
    label: String,
    agent: Result<Agent, String>,
    draw: DrawState,
    prompt: String,
    script: VecDeque<ScriptStep>,
    last_error: Option<String>,
    connect_logged: bool,
    logged_state: Option<TaskState>,
    /// How to reach the agent again with credentials (`None` for a spawned demo agent).
    target: Option<String>,
    catalog: Catalog,
    ctx: egui::Context,
    options: TransportOptions,
    /// The credentials dialog, open after a `401`/`403`.
    auth: Option<AuthPrompt>,
    /// A turn to send again once the agent is reached with the credentials.
    resend: Option<Turn>,
    /// How "Sign in with the browser" opens the sign-in page (the system browser).
    browser: Browser,
}

/// Opens a URL for the user (see [`AgentSource::set_browser`]).
pub type Browser = std::sync::Arc<dyn Fn(&str) -> std::io::Result<()> + Send + Sync>;

/// What the credentials dialog holds: why it opened, and the header the user types.
struct AuthPrompt {
    /// The server's challenge, as the user reads it (scheme and realm).
    why: String,
    /// The header to send.
    name: String,
    /// Its value (drawn obscured; never logged).
    value: String,
    /// The turn the `401` answered, sent again after connecting.
    turn: Option<Turn>,
    /// The challenge names protected-resource metadata (an MCP server with OAuth 2.1):
    /// the dialog offers to sign in with the browser.
    oauth: bool,
}

impl AuthPrompt {
    /// The dialog for `error`: the header the challenge asks for (`Authorization` for
    /// Bearer and Basic, the `header` parameter of an API-key challenge).
    fn for_error(error: &TransportError, turn: Option<Turn>) -> Option<Self> {
        let TransportError::Unauthorized {
            status, challenge, ..
        } = error
        else {
            return None;
        };
        let (why, name) = match challenge.as_deref() {
            Some(c) => {
                let realm = c
                    .realm
                    .as_deref()
                    .map(|r| format!(" (realm {r:?})"))
                    .unwrap_or_default();
                let header = c
                    .params
                    .iter()
                    .find(|(k, _)| k == "header")
                    .map(|(_, v)| v.clone());
                let name = match (c.scheme.to_ascii_lowercase().as_str(), header) {
                    (_, Some(h)) => h,
                    _ => "Authorization".to_owned(),
                };
                (
                    format!(
                        "The agent answered {status}: it asks for {} credentials{realm}.",
                        c.scheme
                    ),
                    name,
                )
            }
            None => (
                format!("The agent answered {status}: it needs credentials."),
                "Authorization".to_owned(),
            ),
        };
        let value = if name.eq_ignore_ascii_case("authorization") {
            "Bearer ".to_owned()
        } else {
            String::new()
        };
        let oauth = challenge
            .as_deref()
            .is_some_and(|c| c.resource_metadata.is_some());
        Some(Self {
            why,
            name,
            value,
            turn,
            oauth,
        })
    }
}

/// How long the viewer waits for the browser to come back from the sign-in page.
const SIGN_IN_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(300);

/// OAuth 2.1 for an MCP server, the desktop way: the sign-in page opens in the system
/// browser, which is sent back to a one-request listener on `127.0.0.1` and a random port
/// (waited for at most five minutes, on the connection's own thread).
fn browser_oauth(browser: Browser) -> Result<McpOAuth, String> {
    let redirect = std::sync::Arc::new(
        LoopbackRedirect::bind().map_err(|e| format!("cannot listen for the sign-in: {e}"))?,
    );
    let r = redirect.clone();
    Ok(McpOAuth::new(redirect.redirect_uri(), move |prompt| {
        let opened = browser(&prompt.url);
        let r = r.clone();
        async move {
            opened.map_err(|e| format!("cannot open the browser: {e}"))?;
            r.wait_async(SIGN_IN_TIMEOUT).await
        }
    })
    .with_client_name("egui_a2ui viewer"))
}

impl AgentSource {
    /// Reach the agent `target` names ([`Agent::connect`]: `a2a+http://…`,
    /// `agui+http://…`, `mcp+http://…`, `mcp+stdio:CMD`, `jsonl:CMD`, or a bare command
    /// for MCP over stdio) in the background; `label` names it in the gallery.
    #[must_use]
    pub fn connect(label: String, target: &str, catalog: Catalog, ctx: egui::Context) -> Self {
        Self::connect_with(label, target, catalog, ctx, TransportOptions::default())
    }

    /// [`Self::connect`] with these options (the `--header` values).
    #[must_use]
    pub fn connect_with(
        label: String,
        target: &str,
        catalog: Catalog,
        ctx: egui::Context,
        options: TransportOptions,
    ) -> Self {
        let repaint = {
            let ctx = ctx.clone();
            move || ctx.request_repaint()
        };
        let agent = Agent::connect(target, catalog.clone(), options.clone(), repaint)
            .map_err(|e| e.to_string());
        let mut s = Self::new(label, agent, catalog, ctx);
        s.target = Some(target.to_owned());
        s.options = options;
        s
    }

    /// Start `program args` and speak MCP on its stdin/stdout (the built-in demo agent: a
    /// path that is not a command line).
    #[must_use]
    pub fn spawn_mcp(
        label: String,
        program: &str,
        args: &[String],
        catalog: Catalog,
        ctx: egui::Context,
    ) -> Self {
        let repaint = {
            let ctx = ctx.clone();
            move || ctx.request_repaint()
        };
        let agent = McpHost::spawn(
            program,
            args,
            &catalog,
            TransportOptions::default(),
            repaint,
        )
        .map(Agent::new)
        .map_err(|e| e.to_string());
        Self::new(label, agent, catalog, ctx)
    }

    fn new(
        label: String,
        mut agent: Result<Agent, String>,
        catalog: Catalog,
        ctx: egui::Context,
    ) -> Self {
        if let Ok(a) = agent.as_mut() {
            a.connection_mut().record_responses(true);
        }
        Self {
            label,
            agent,
            draw: DrawState::new(catalog.clone()).with_options(crate::media::renderer_options()),
            prompt: String::new(),
            script: VecDeque::new(),
            last_error: None,
            connect_logged: false,
            logged_state: None,
            target: None,
            catalog,
            ctx,
            options: TransportOptions::default(),
            auth: None,
            resend: None,
            browser: std::sync::Arc::new(open_browser),
        }
    }

    /// Open the OAuth sign-in page with `browser` instead of the system browser (`xdg-open`,
    /// `open`, `rundll32`): a host with its own web view, or a test.
    pub fn set_browser(&mut self, browser: Browser) {
        self.browser = browser;
    }

    /// Run these turns in order once connected, each after the previous one ended.
    #[must_use]
    pub fn with_script(mut self, steps: Vec<ScriptStep>) -> Self {
        self.script = steps.into();
        self
    }

    /// The agent, once the target was understood.
    #[must_use]
    pub fn agent(&self) -> Option<&Agent> {
        self.agent.as_ref().ok()
    }

    /// The conversation so far.
    #[must_use]
    pub fn thread(&self) -> &[ThreadEntry] {
        self.agent().map_or(&[], Agent::thread)
    }

    /// The task (A2A), run (AG-UI) or last call's (MCP) state.
    #[must_use]
    pub fn state(&self) -> Option<&TaskState> {
        self.agent().and_then(Agent::state)
    }

    /// Whether the agent is reached (card read, MCP initialized; AG-UI at once).
    #[must_use]
    pub fn is_connected(&self) -> bool {
        self.agent()
            .is_some_and(|a| matches!(a.status(), ConnectionStatus::Ready | ConnectionStatus::Busy))
    }

    /// Turns not run yet (`--send`, `--click`, `--call`).
    #[must_use]
    pub fn script_left(&self) -> usize {
        self.script.len()
    }

    /// Why the last turn failed, if it did.
    #[must_use]
    pub fn last_error(&self) -> Option<&str> {
        self.last_error.as_deref()
    }

    /// The sessions' surfaces (one store per A2A / AG-UI conversation, one per MCP tool
    /// call), as (label prefix, store).
    #[must_use]
    pub fn session_stores(&self) -> Vec<(String, &SurfaceStore)> {
        let stores = self.agent().map(Agent::stores).unwrap_or_default();
        let many = stores.len() > 1;
        stores
            .into_iter()
            .enumerate()
            .map(|(i, s)| {
                let prefix = if many {
                    format!("#{} · ", i + 1)
                } else {
                    String::new()
                };
                (prefix, s)
            })
            .collect()
    }

    fn kind(&self) -> &'static str {
        self.agent().map_or("agent", Agent::kind)
    }

    /// Start a turn (the prompt box, a scripted step, an action).
    pub fn send(&mut self, turn: Turn, log: &mut ActivityLog) {
        let kind = self.kind();
        let Ok(agent) = self.agent.as_mut() else {
            return;
        };
        match agent.send(turn) {
            Ok(()) => self.last_error = None,
            Err(e) => {
                log.error(kind, e.to_string());
                self.last_error = Some(e.to_string());
            }
        }
    }

    fn next_step(&mut self, log: &mut ActivityLog) {
        let Some(step) = self.script.pop_front() else {
            return;
        };
        let turn = match step {
            ScriptStep::Send(t) => Ok(Turn::Text(t)),
            ScriptStep::Click(id) => {
                let stores = self.agent().map(Agent::stores).unwrap_or_default();
                let mut first_err = None;
                let mut found = None;
                for s in stores.iter().rev() {
                    match find_action(s, &id) {
                        Ok(a) => {
                            found = Some(a);
                            break;
                        }
                        Err(e) => {
                            first_err.get_or_insert(e);
                        }
                    }
                }
                found.map(Turn::Action).ok_or_else(|| {
                    first_err.map_or_else(|| format!("no component {id:?}"), |e| e.to_string())
                })
            }
        };
        match turn {
            Ok(t) => {
                if let Turn::Action(a) = &t {
                    log.log_action(a);
                }
                self.send(t, log);
            }
            Err(e) => {
                log.error(self.kind(), e.clone());
                self.last_error = Some(e);
            }
        }
    }

    fn route_events(&mut self, events: Vec<Event>, log: &mut ActivityLog) {
        for e in events {
            match e {
                Event::Action(a) => {
                    log.log_action(&a);
                    self.send(Turn::Action(a), log);
                }
                Event::Error(err) => {
                    log.log(
                        LogKind::A2ui,
                        format!("error {} (not sent: no channel for it)", err.error.code()),
                        &err.to_message(),
                    );
                    log.error(self.kind(), err.error.to_string());
                }
                other => log.log_other_event(&other),
            }
        }
    }

    /// The events of one poll into the action log.
    fn log_events(&mut self, events: &[TransportEvent], log: &mut ActivityLog) {
        let kind = self.kind();
        for ev in events {
            match ev {
                TransportEvent::Request { method, body } if method == "tools/call" => {
                    let name = body.get("name").and_then(Value::as_str).unwrap_or("?");
                    log.log(
                        LogKind::ToolsCall,
                        format!("call {name}"),
                        &json!({"jsonrpc": "2.0", "method": method, "params": body}),
                    );
                }
                TransportEvent::Request { method, body } => {
                    log.log(LogKind::Request, format!("request {method}"), body);
                }
                // A state repeated (every A2A status update says `working`) is not news.
                TransportEvent::State { state, .. }
                    if self.logged_state.as_ref() == Some(state) => {}
                TransportEvent::State { state, .. } => {
                    self.logged_state = Some(state.clone());
                    log.log(
                        LogKind::Note,
                        format!("state {}", state.as_str()),
                        &ev.to_json(),
                    );
                }
                TransportEvent::Lifecycle { status, .. } => {
                    log.log(
                        LogKind::Note,
                        format!("lifecycle {}", status.status),
                        &ev.to_json(),
                    );
                }
                TransportEvent::Notice(e) => log.error(kind, e.to_string()),
                // A failed connection ends as a turn too; it is reported once, as such.
                TransportEvent::TurnEnded { error: Some(e) } if self.is_connected() => {
                    log.error(kind, format!("the turn failed: {e}"));
                    self.last_error = Some(e.to_string());
                    self.ask_credentials(e);
                }
                _ => {}
            }
        }
    }

    /// Open the credentials dialog for a `401`/`403` (when the agent can be reached again).
    fn ask_credentials(&mut self, error: &TransportError) {
        if self.target.is_none() || self.auth.is_some() {
            return;
        }
        let turn = self.agent().and_then(|a| {
            a.thread().iter().rev().find_map(|e| match e {
                ThreadEntry::Error { retry, .. } => retry.as_deref().cloned(),
                _ => None,
            })
        });
        self.auth = AuthPrompt::for_error(error, turn);
    }

    /// The credentials dialog: a header name and its value (obscured). Connect reaches the
    /// agent again with them (the thread stays) and sends the refused turn again.
    fn credentials_ui(&mut self, ctx: &egui::Context) {
        let Some(auth) = self.auth.as_mut() else {
            return;
        };
        let mut connect = false;
        let mut sign_in = false;
        let mut cancel = false;
        let modal =
            egui::Modal::new(egui::Id::unique("egui_a2ui_viewer::credentials")).show(ctx, |ui| {
                ui.set_width(420.0);
                ui.heading("Credentials");
                ui.label(&auth.why);
                ui.add_space(6.0);
                egui::Grid::new("credentials")
                    .num_columns(2)
                    .show(ui, |ui| {
                        let l = ui.label("Header");
                        ui.add(egui::TextEdit::singleline(&mut auth.name).desired_width(300.0))
                            .labelled_by(l.id);
                        ui.end_row();
                        let l = ui.label("Value");
                        ui.add(
                            egui::TextEdit::singleline(&mut auth.value)
                                .password(true)
                                .desired_width(300.0),
                        )
                        .labelled_by(l.id);
                        ui.end_row();
                    });
                ui.weak("Sent with every request to this agent; never shown in the log.");
                ui.add_space(6.0);
                ui.horizontal(|ui| {
                    let ready = !auth.name.trim().is_empty() && !auth.value.trim().is_empty();
                    connect = ui
                        .add_enabled(ready, egui::Button::new("Connect"))
                        .clicked();
                    if auth.oauth {
                        sign_in = ui
                            .button("Sign in with the browser")
                            .on_hover_text(
                                "The server signs in with OAuth 2.1: open its sign-in page in \
                                 the system browser and come back here",
                            )
                            .clicked();
                    }
                    cancel = ui.button("Cancel").clicked();
                });
            });
        if modal.should_close() {
            cancel = true;
        }
        if cancel {
            self.auth = None;
            return;
        }
        if !connect && !sign_in {
            return;
        }
        let Some(auth) = self.auth.take() else {
            return;
        };
        let Some(target) = self.target.clone() else {
            return;
        };
        if sign_in {
            match browser_oauth(self.browser.clone()) {
                Ok(oauth) => self.options = self.options.clone().with_mcp_oauth(oauth),
                Err(e) => {
                    self.last_error = Some(e);
                    return;
                }
            }
        } else {
            let name = auth.name.trim().to_owned();
            self.options = self
                .options
                .clone()
                .with_header(name.clone(), auth.value.trim())
                .with_secret_header(name);
        }
        let repaint = {
            let ctx = self.ctx.clone();
            move || ctx.request_repaint()
        };
        let result = match self.agent.as_mut() {
            Ok(agent) => agent.resume(&target, self.catalog.clone(), self.options.clone(), repaint),
            Err(_) => Agent::connect(&target, self.catalog.clone(), self.options.clone(), repaint)
                .map(|a| self.agent = Ok(a)),
        };
        match result {
            Ok(()) => {
                if let Ok(a) = self.agent.as_mut() {
                    a.connection_mut().record_responses(true);
                }
                self.connect_logged = false;
                self.last_error = None;
                self.resend = auth.turn;
            }
            Err(e) => self.last_error = Some(e.to_string()),
        }
    }

    fn header_ui(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            ui.add(egui::Label::new(RichText::new(&self.label).heading()).truncate())
                .on_hover_text(&self.label);
        });
        let status = self.status();
        let kind = self.kind();
        let mut stop = false;
        ui.horizontal(|ui| {
            match &status {
                Status::Connecting => {
                    ui.spinner();
                    ui.weak(format!("connecting over {kind}…"));
                }
                Status::Open(s) => {
                    ui.add(egui::Label::new(RichText::new(s).weak()).truncate())
                        .on_hover_text(s);
                }
                Status::Failed(m) | Status::Ended(m) => {
                    // The message itself is the thread's error entry (wrapped there): an
                    // address and an error do not fit beside the state.
                    ui.colored_label(ui.visuals().error_fg_color, "not connected")
                        .on_hover_text(m);
                }
            }
            if let Some(state) = self.state() {
                state_ui(ui, state);
            }
            let busy = self.agent().is_some_and(Agent::is_busy);
            if busy
                && ui
                    .button("Stop")
                    .on_hover_text("Cancel the turn in flight")
                    .clicked()
            {
                stop = true;
            }
        });
        if stop
            && let Ok(agent) = self.agent.as_mut()
            && let Err(e) = agent.cancel()
        {
            self.last_error = Some(e.to_string());
        }
    }

    fn thread_ui(&mut self, ui: &mut egui::Ui) -> (Vec<Event>, bool) {
        let Ok(agent) = self.agent.as_mut() else {
            return (Vec::new(), false);
        };
        let busy = agent.is_busy();
        let entries = agent.thread().to_vec();
        if entries.is_empty() {
            ui.weak(
                "Send a message to start. The agent's text goes in this thread, its surfaces \
                 are drawn where it created them as they stream in, and buttons on them send \
                 actions back. With MCP, plain text goes to the server's first model-visible \
                 tool and `TOOL {\"json\": \"args\"}` calls one by name.",
            );
        }
        let mut events = Vec::new();
        let mut retry = false;
        for (i, entry) in entries.iter().enumerate() {
            match entry {
                ThreadEntry::User { text } => {
                    ui.horizontal_wrapped(|ui| {
                        ui.label(RichText::new("You").strong());
                        ui.label(text);
                    });
                }
                ThreadEntry::UserAction { name, surface_id } => {
                    ui.weak(format!("You: {name} on {surface_id}"));
                }
                ThreadEntry::Agent { text } => agent_text_ui(ui, text),
                ThreadEntry::Surface { store, surface_id } => {
                    let Some(store) = agent.store_mut(*store) else {
                        continue;
                    };
                    if !store
                        .surface(surface_id)
                        .is_some_and(egui_a2ui::Surface::is_visible)
                    {
                        continue;
                    }
                    egui::Frame::group(ui.style()).show(ui, |ui| {
                        ui.set_width(ui.available_width());
                        ui.push_id(("thread-surface", i), |ui| {
                            ui.add_enabled_ui(!busy, |ui| {
                                events.extend(self.draw.surface_ui(store, surface_id, ui));
                            });
                        });
                    });
                }
                ThreadEntry::Activity {
                    status: Some(lifecycle),
                    ..
                } => {
                    lifecycle_ui(lifecycle, ui);
                }
                ThreadEntry::Activity { status: None, .. } => {}
                ThreadEntry::Error { error, retry: turn } => {
                    ui.horizontal_wrapped(|ui| {
                        ui.colored_label(ui.visuals().error_fg_color, error.to_string());
                        let last = !entries
                            .get(i + 1..)
                            .unwrap_or_default()
                            .iter()
                            .any(|e| matches!(e, ThreadEntry::Error { .. }));
                        if turn.is_some()
                            && last
                            && ui.add_enabled(!busy, egui::Button::new("Retry")).clicked()
                        {
                            retry = true;
                        }
                    });
                }
                ThreadEntry::Notice { text } => {
                    ui.colored_label(ui.visuals().warn_fg_color, text);
                }
            }
            ui.add_space(4.0);
        }
        if let Some(text) = agent.partial_text() {
            agent_text_ui(ui, text);
        }
        (events, retry)
    }
}

fn agent_text_ui(ui: &mut egui::Ui, text: &str) {
    ui.horizontal_wrapped(|ui| {
        ui.label(
            RichText::new("Agent")
                .strong()
                .color(egui::Color32::from_rgb(60, 130, 210)),
        );
        ui.label(RichText::new(text).italics());
    });
}

fn state_ui(ui: &mut egui::Ui, state: &TaskState) {
    let (text, color) = match state {
        TaskState::Working | TaskState::Submitted => {
            ui.spinner();
            (state.as_str(), ui.visuals().weak_text_color())
        }
        TaskState::InputRequired | TaskState::AuthRequired => {
            (state.as_str(), egui::Color32::from_rgb(200, 140, 40))
        }
        TaskState::Completed => (state.as_str(), egui::Color32::from_rgb(60, 160, 90)),
        TaskState::Failed | TaskState::Canceled | TaskState::Rejected => {
            (state.as_str(), ui.visuals().error_fg_color)
        }
        TaskState::Other(s) => (s.as_str(), ui.visuals().weak_text_color()),
    };
    ui.label(
        RichText::new(format!("state: {text}"))
            .color(color)
            .strong(),
    );
}

/// A short name for one answer in the log: its A2A result kind, AG-UI event type, or what
/// an MCP answer holds.
fn response_title(v: &Value) -> String {
    if let Some(t) = v.get("type").and_then(Value::as_str) {
        return format!("event {t}");
    }
    if let Some(r) = v.get("result") {
        if let Some(k) = r.get("kind").and_then(Value::as_str) {
            return format!("result {k}");
        }
        if let Some(k) = r.as_object().and_then(|o| o.keys().next()) {
            return format!("result {k}");
        }
    }
    if let Some(e) = v.get("error") {
        return format!("error {}", e.get("code").unwrap_or(&Value::Null));
    }
    if v.get("capabilities").is_some() || v.get("skills").is_some() {
        return "agent card".into();
    }
    if v.get("tools").is_some() {
        return "tools/list result".into();
    }
    if v.get("contents").is_some() {
        return "resources/read result".into();
    }
    if v.get("content").is_some() {
        return "tools/call result".into();
    }
    "answer".into()
}

impl Source for AgentSource {
    fn label(&self) -> &str {
        &self.label
    }

    fn status(&self) -> Status {
        match &self.agent {
            Err(e) => Status::Failed(e.clone()),
            Ok(a) => match a.status() {
                ConnectionStatus::Connecting => Status::Connecting,
                ConnectionStatus::Failed(e) => Status::Failed(e.to_string()),
                ConnectionStatus::Ready | ConnectionStatus::Busy => {
                    Status::Open(a.origin().map_or_else(
                        || a.kind().to_owned(),
                        |o| format!("{} · {}", a.kind(), o.label()),
                    ))
                }
            },
        }
    }

    fn poll(&mut self, _ctx: &egui::Context, log: &mut ActivityLog) {
        let kind = self.kind();
        let (events, responses) = match self.agent.as_mut() {
            Ok(agent) => (agent.poll(), agent.connection_mut().take_responses()),
            Err(e) => {
                if !self.connect_logged {
                    self.connect_logged = true;
                    log.error(kind, format!("cannot reach the agent: {e}"));
                }
                return;
            }
        };
        for v in responses {
            log.log(LogKind::Response, response_title(&v), &v);
        }
        self.log_events(&events, log);
        if let ConnectionStatus::Failed(e) =
            self.agent().map_or(ConnectionStatus::Ready, Agent::status)
            && !self.connect_logged
        {
            self.connect_logged = true;
            log.error(kind, format!("cannot reach the agent: {e}"));
            self.ask_credentials(&e);
        }
        let ready = self
            .agent()
            .is_some_and(|a| a.status() == ConnectionStatus::Ready);
        if ready && let Some(turn) = self.resend.take() {
            self.send(turn, log);
        } else if ready && self.auth.is_none() {
            self.next_step(log);
        }
    }

    fn ui(&mut self, ui: &mut egui::Ui, log: &mut ActivityLog) {
        self.credentials_ui(&ui.ctx().clone());
        self.header_ui(ui);
        // The prompt box, at the top so it stays in view while surfaces grow below.
        let mut submit = None;
        let connected = self.is_connected();
        let busy = self.agent().is_some_and(Agent::is_busy);
        ui.horizontal(|ui| {
            let label = ui.label("Message");
            let edit = ui
                .add_enabled(
                    connected,
                    egui::TextEdit::singleline(&mut self.prompt)
                        .hint_text("find pasta")
                        .desired_width(ui.available_width() - 70.0),
                )
                .labelled_by(label.id);
            let enter = edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            let clicked = ui
                .add_enabled(connected && !busy, egui::Button::new("Send"))
                .clicked();
            if (enter || clicked) && !busy && !self.prompt.trim().is_empty() {
                submit = Some(std::mem::take(&mut self.prompt));
            }
        });
        if let Some(e) = &self.last_error {
            ui.colored_label(ui.visuals().error_fg_color, e);
        }
        ui.separator();
        let mut drawn = (Vec::new(), false);
        egui::ScrollArea::both()
            .auto_shrink([false, false])
            .stick_to_bottom(true)
            .show(ui, |ui| drawn = self.thread_ui(ui));
        let (events, retry) = drawn;
        self.route_events(events, log);
        if retry
            && let Ok(agent) = self.agent.as_mut()
            && let Err(e) = agent.retry()
        {
            self.last_error = Some(e.to_string());
        }
        if let Some(text) = submit {
            self.send(Turn::Text(text), log);
        }
    }

    fn stores(&self) -> Vec<(String, &SurfaceStore)> {
        self.session_stores()
    }

    /// The stores' rejections (the source does not log them itself).
    fn stream_errors(&self) -> Vec<String> {
        self.stores()
            .into_iter()
            .flat_map(|(prefix, s)| {
                store_errors(s)
                    .into_iter()
                    .map(move |e| format!("{prefix}{e}"))
            })
            .collect()
    }

    /// A connection, a turn or a scripted step still to run.
    fn is_busy(&self) -> bool {
        match self.agent().map(Agent::status) {
            None | Some(ConnectionStatus::Failed(_)) => false,
            Some(ConnectionStatus::Connecting | ConnectionStatus::Busy) => true,
            Some(ConnectionStatus::Ready) => !self.script.is_empty(),
        }
    }
}
