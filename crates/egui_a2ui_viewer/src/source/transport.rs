//! The network agent sources: an A2A agent (`--a2a URL`), an AG-UI endpoint (`--agui URL`)
//! or an MCP server over Streamable HTTP (`--mcp-url URL`), each through the library's host
//! helper (`A2aHost`, `AguiHost`, `McpHost`: the I/O on a background runtime, the session
//! here). The centre shows the task or run state, the transcript, the surfaces as they grow
//! (AG-UI activities still building show their lifecycle skeleton), and a prompt box; every
//! request and every answer goes to the action log.

use std::collections::VecDeque;

use egui::RichText;
use egui_a2ui::render::DrawState;
use egui_a2ui::transport::a2a::A2aHost;
use egui_a2ui::transport::agui::AguiHost;
use egui_a2ui::transport::host::HttpSession;
use egui_a2ui::transport::mcp::McpHost;
use egui_a2ui::transport::{
    Role, TaskState, TranscriptEntry, TransportError, TransportEvent, TransportOptions, Turn,
    find_action,
};
use egui_a2ui::{Catalog, Event, SurfaceStore};
use serde_json::Value;

use super::{Source, Status, store_errors};
use crate::activity::{ActivityLog, LogKind};

/// Which transport a [`TransportSource`] speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TransportKind {
    /// A2A with the A2UI extension (`--a2a`): the agent's base URL, its card is read.
    A2a,
    /// AG-UI (`--agui`): the endpoint that takes `RunAgentInput`.
    Agui,
    /// MCP over Streamable HTTP (`--mcp-url`).
    McpHttp,
}

impl TransportKind {
    /// `A2A`, `AG-UI`, `MCP`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::A2a => "A2A",
            Self::Agui => "AG-UI",
            Self::McpHttp => "MCP",
        }
    }
}

/// One scripted turn (`--send TEXT`, `--click COMPONENT_ID`), run once the previous turn has
/// ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScriptStep {
    /// A user message.
    Send(String),
    /// Press the first instance of this component id (tree order), as `a2ui_agent --click`.
    Click(String),
}

enum Host {
    A2a(Box<A2aHost>),
    Agui(Box<AguiHost>),
    Mcp(Box<McpHost>),
}

impl Host {
    fn is_busy(&self) -> bool {
        match self {
            Self::A2a(h) => h.is_busy(),
            Self::Agui(h) => h.is_busy(),
            Self::Mcp(h) => h.is_busy(),
        }
    }

    fn connect_error(&self) -> Option<&TransportError> {
        match self {
            Self::A2a(h) => h.connect_error(),
            Self::Agui(h) => h.connect_error(),
            Self::Mcp(h) => h.connect_error(),
        }
    }

    fn is_connected(&self) -> bool {
        match self {
            Self::A2a(h) => h.session().is_some(),
            Self::Agui(h) => h.session().is_some(),
            Self::Mcp(h) => h.server().is_some(),
        }
    }

    fn send(&mut self, turn: Turn) -> Result<(), TransportError> {
        match self {
            Self::A2a(h) => h.send(turn),
            Self::Agui(h) => h.send(turn),
            Self::Mcp(h) => h.send(turn),
        }
    }

    fn poll(&mut self) -> Vec<TransportEvent> {
        match self {
            Self::A2a(h) => h.poll(),
            Self::Agui(h) => h.poll(),
            Self::Mcp(h) => h.poll(),
        }
    }

    fn log(&self) -> &[TransportEvent] {
        match self {
            Self::A2a(h) => h.log(),
            Self::Agui(h) => h.log(),
            Self::Mcp(h) => h.log(),
        }
    }

    fn take_responses(&mut self) -> Vec<Value> {
        match self {
            Self::A2a(h) => h.take_responses(),
            Self::Agui(h) => h.take_responses(),
            Self::Mcp(h) => h.take_responses(),
        }
    }

    fn transcript(&self) -> &[TranscriptEntry] {
        match self {
            Self::A2a(h) => h.session().map_or(&[], |s| HttpSession::transcript(s)),
            Self::Agui(h) => h.session().map_or(&[], |s| HttpSession::transcript(s)),
            Self::Mcp(h) => h.conversation().transcript(),
        }
    }

    fn state(&self) -> Option<&TaskState> {
        match self {
            Self::A2a(h) => h.session().and_then(|s| HttpSession::state(s)),
            Self::Agui(h) => h.session().and_then(|s| HttpSession::state(s)),
            Self::Mcp(h) => h.conversation().state(),
        }
    }

    fn stores(&self) -> Vec<(String, &SurfaceStore)> {
        match self {
            Self::A2a(h) => h
                .session()
                .map(|s| (String::new(), s.store()))
                .into_iter()
                .collect(),
            Self::Agui(h) => h
                .session()
                .map(|s| (String::new(), s.store()))
                .into_iter()
                .collect(),
            Self::Mcp(h) => h
                .conversation()
                .hub()
                .sessions()
                .map(|s| (format!("{} · ", s.id()), s.store()))
                .collect(),
        }
    }

    /// Draw every surface; the events with the store they came from (its index among
    /// [`Self::stores`]).
    fn surfaces_ui(&mut self, draw: &mut DrawState, ui: &mut egui::Ui) -> Vec<Event> {
        let mut events = Vec::new();
        match self {
            Self::A2a(h) => {
                if let Some(s) = h.session_mut() {
                    events.extend(draw.ui(s.store_mut(), ui));
                }
            }
            Self::Agui(h) => {
                if let Some(s) = h.session_mut() {
                    events.extend(s.ui(draw, ui));
                }
            }
            Self::Mcp(h) => {
                let ids: Vec<String> = h
                    .conversation()
                    .hub()
                    .sessions()
                    .map(|s| s.id().to_owned())
                    .collect();
                for id in ids {
                    if let Some(s) = h.conversation_mut().hub_mut().get_mut(&id) {
                        ui.push_id(("mcp-session", &id), |ui| {
                            events.extend(draw.ui(s.store_mut(), ui));
                        });
                    }
                }
            }
        }
        events
    }

    fn label(&self) -> Option<String> {
        match self {
            Self::A2a(h) => h.session().map(|s| {
                let dialect = match s.card().dialect {
                    egui_a2ui::transport::a2a::Dialect::V0_3 => "0.3",
                    egui_a2ui::transport::a2a::Dialect::V1_0 => "1.0",
                };
                format!(
                    "{} · A2A {dialect} · A2UI {}",
                    s.card().name,
                    s.extension().version.as_str()
                )
            }),
            Self::Agui(h) => h
                .session()
                .map(|s| format!("AG-UI · thread {}", s.thread_id())),
            Self::Mcp(h) => h.server().map(|s| format!("MCP · {s}")),
        }
    }
}

/// An agent over the network (`--a2a`, `--agui`, `--mcp-url`): the conversation's state,
/// transcript and surfaces, a prompt box, and the action log of every request and answer.
pub struct TransportSource {
    kind: TransportKind,
    label: String,
    host: Result<Host, String>,
    draw: DrawState,
    prompt: String,
    script: VecDeque<ScriptStep>,
    logged: usize,
    last_error: Option<String>,
    connect_logged: bool,
    logged_state: Option<TaskState>,
}

impl TransportSource {
    /// Connect to `url` over `kind` in the background (the A2A card is read, the MCP
    /// session initialized, on the host's own thread); the surfaces draw with `catalog`.
    #[must_use]
    pub fn connect(kind: TransportKind, url: &str, catalog: Catalog, ctx: egui::Context) -> Self {
        let repaint = move || ctx.request_repaint();
        let options = TransportOptions::default();
        let host = match kind {
            TransportKind::A2a => A2aHost::connect(url, catalog.clone(), options, repaint)
                .map(|h| Host::A2a(Box::new(h.record_responses(true)))),
            TransportKind::Agui => AguiHost::connect(url, catalog.clone(), options, repaint)
                .map(|h| Host::Agui(Box::new(h.record_responses(true)))),
            TransportKind::McpHttp => McpHost::connect(url, &catalog, options, repaint)
                .map(|h| Host::Mcp(Box::new(h.record_responses(true)))),
        }
        .map_err(|e| e.to_string());
        Self {
            kind,
            label: format!("{} {url}", kind.name()),
            host,
            draw: DrawState::new(catalog).with_options(crate::media::renderer_options()),
            prompt: String::new(),
            script: VecDeque::new(),
            logged: 0,
            last_error: None,
            connect_logged: false,
            logged_state: None,
        }
    }

    /// Run these turns in order once connected, each after the previous one ended.
    #[must_use]
    pub fn with_script(mut self, steps: Vec<ScriptStep>) -> Self {
        self.script = steps.into();
        self
    }

    /// The transport.
    #[must_use]
    pub fn kind(&self) -> TransportKind {
        self.kind
    }

    /// The conversation's text so far.
    #[must_use]
    pub fn transcript(&self) -> &[TranscriptEntry] {
        self.host.as_ref().map_or(&[], Host::transcript)
    }

    /// The task (A2A) or run (AG-UI) state, or the last call's (MCP).
    #[must_use]
    pub fn state(&self) -> Option<&TaskState> {
        self.host.as_ref().ok().and_then(Host::state)
    }

    /// Whether the agent is reached (card read, MCP initialized; AG-UI at once).
    #[must_use]
    pub fn is_connected(&self) -> bool {
        self.host.as_ref().is_ok_and(Host::is_connected)
    }

    /// Turns not run yet (`--send`, `--click`).
    #[must_use]
    pub fn script_left(&self) -> usize {
        self.script.len()
    }

    /// Why the last turn failed, if it did.
    #[must_use]
    pub fn last_error(&self) -> Option<&str> {
        self.last_error.as_deref()
    }

    /// Start a turn (the prompt box, a scripted step, an action).
    pub fn send(&mut self, turn: Turn, log: &mut ActivityLog) {
        let Ok(host) = self.host.as_mut() else {
            return;
        };
        match host.send(turn) {
            Ok(()) => self.last_error = None,
            Err(e) => {
                log.error(self.kind.name(), e.to_string());
                self.last_error = Some(e.to_string());
            }
        }
        self.log_requests(log);
    }

    fn log_requests(&mut self, log: &mut ActivityLog) {
        let Ok(host) = self.host.as_ref() else {
            return;
        };
        let all = host.log();
        for ev in all.get(self.logged..).unwrap_or_default() {
            if let TransportEvent::Request { method, body } = ev {
                log.log(LogKind::Request, format!("request {method}"), body);
            }
        }
        self.logged = all.len();
    }

    fn next_step(&mut self, log: &mut ActivityLog) {
        let Some(step) = self.script.pop_front() else {
            return;
        };
        let turn = match step {
            ScriptStep::Send(t) => Ok(Turn::Text(t)),
            ScriptStep::Click(id) => {
                let stores = self.host.as_ref().map(Host::stores).unwrap_or_default();
                let mut first_err = None;
                let mut found = None;
                for (_, s) in stores.iter().rev() {
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
                    first_err
                        .unwrap_or_else(|| TransportError::Action(format!("no component {id:?}")))
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
                log.error(self.kind.name(), e.to_string());
                self.last_error = Some(e.to_string());
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
                    log.error(self.kind.name(), err.error.to_string());
                }
                other => log.log_other_event(&other),
            }
        }
    }

    fn state_ui(&self, ui: &mut egui::Ui) {
        let Some(state) = self.state() else {
            return;
        };
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
        let what = if self.kind == TransportKind::Agui {
            "run"
        } else {
            "task"
        };
        ui.label(
            RichText::new(format!("{what}: {text}"))
                .color(color)
                .strong(),
        );
    }
}

fn transcript_ui(ui: &mut egui::Ui, entries: &[TranscriptEntry]) {
    for e in entries {
        ui.horizontal_wrapped(|ui| match e.role {
            Role::User => {
                ui.label(RichText::new("You").strong());
                ui.label(&e.text);
            }
            Role::Agent => {
                ui.label(
                    RichText::new("Agent")
                        .strong()
                        .color(egui::Color32::from_rgb(60, 130, 210)),
                );
                ui.label(RichText::new(&e.text).italics());
            }
        });
    }
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
    if v.get("content").is_some() {
        return "tools/call result".into();
    }
    "answer".into()
}

impl Source for TransportSource {
    fn label(&self) -> &str {
        &self.label
    }

    fn status(&self) -> Status {
        match &self.host {
            Err(e) => Status::Failed(e.clone()),
            Ok(h) => {
                if let Some(e) = h.connect_error() {
                    Status::Failed(e.to_string())
                } else if let Some(l) = h.label() {
                    Status::Open(l)
                } else {
                    Status::Connecting
                }
            }
        }
    }

    fn poll(&mut self, _ctx: &egui::Context, log: &mut ActivityLog) {
        let kind = self.kind.name();
        let Ok(host) = self.host.as_mut() else {
            return;
        };
        let events = host.poll();
        // A failed discovery ends as a turn too; it is reported once, below, as such.
        let connected = host.is_connected();
        for v in host.take_responses() {
            log.log(LogKind::Response, response_title(&v), &v);
        }
        for ev in &events {
            match ev {
                // A state repeated (every A2A status update says `working`) is not news.
                TransportEvent::State { state, .. }
                    if self.logged_state.as_ref() == Some(state) => {}
                TransportEvent::State { .. } | TransportEvent::Lifecycle { .. } => {
                    if let TransportEvent::State { state, .. } = ev {
                        self.logged_state = Some(state.clone());
                    }
                    let j = ev.to_json();
                    let title = match ev {
                        TransportEvent::State { state, .. } => format!("state {}", state.as_str()),
                        TransportEvent::Lifecycle { status, .. } => {
                            format!("lifecycle {}", status.status)
                        }
                        _ => String::new(),
                    };
                    log.log(LogKind::Note, title, &j);
                }
                TransportEvent::Notice(e) => log.error(kind, e.to_string()),
                TransportEvent::TurnEnded { error: Some(e) } if connected => {
                    log.error(kind, format!("the turn failed: {e}"));
                    self.last_error = Some(e.to_string());
                }
                _ => {}
            }
        }
        if let Some(e) = host.connect_error()
            && !self.connect_logged
        {
            self.connect_logged = true;
            log.error(kind, format!("cannot reach the agent: {e}"));
        }
        self.log_requests(log);
        let ready = self
            .host
            .as_ref()
            .is_ok_and(|h| h.is_connected() && !h.is_busy());
        if ready {
            self.next_step(log);
        }
    }

    fn ui(&mut self, ui: &mut egui::Ui, log: &mut ActivityLog) {
        let status = self.status();
        ui.horizontal(|ui| {
            ui.add(egui::Label::new(RichText::new(&self.label).heading()).truncate())
                .on_hover_text(&self.label);
        });
        ui.horizontal(|ui| {
            match &status {
                Status::Connecting => {
                    ui.spinner();
                    ui.weak(format!("connecting over {}…", self.kind.name()));
                }
                Status::Open(s) => {
                    ui.weak(s);
                }
                Status::Failed(m) | Status::Ended(m) => {
                    ui.colored_label(ui.visuals().error_fg_color, m);
                }
            }
            self.state_ui(ui);
        });
        // The prompt box, at the top so it stays in view while surfaces grow below.
        let mut submit = None;
        let connected = self.is_connected();
        let busy = self.host.as_ref().is_ok_and(Host::is_busy);
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
        let mut events = Vec::new();
        egui::ScrollArea::both()
            .auto_shrink([false, false])
            .show(ui, |ui| {
                let transcript = self.transcript().to_vec();
                if transcript.is_empty() {
                    ui.weak(
                        "Send a message to start. The agent's text goes in this transcript; \
                         its surfaces are drawn below as they stream in, and buttons on them \
                         send actions back.",
                    );
                }
                transcript_ui(ui, &transcript);
                ui.add_space(6.0);
                if let Ok(host) = self.host.as_mut() {
                    events = host.surfaces_ui(&mut self.draw, ui);
                }
            });
        self.route_events(events, log);
        if let Some(text) = submit {
            self.send(Turn::Text(text), log);
        }
    }

    fn stores(&self) -> Vec<(String, &SurfaceStore)> {
        self.host.as_ref().map(Host::stores).unwrap_or_default()
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
        match &self.host {
            Err(_) => false,
            Ok(h) if h.connect_error().is_some() => false,
            Ok(h) => !h.is_connected() || h.is_busy() || !self.script.is_empty(),
        }
    }
}
