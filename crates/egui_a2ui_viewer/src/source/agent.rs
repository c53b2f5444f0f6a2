//! The MCP agent source: the connection, the tools, and one session per tool call, each
//! session owning its surfaces and all of them drawn by one `DrawState`.

use std::collections::HashMap;

use egui::RichText;
use egui_a2ui::mcp::{
    AppSession, CallRef, SessionHub, SessionState, SplitPolicy, UiExtensionSettings,
};
use egui_a2ui::render::DrawState;
use egui_a2ui::{Catalog, Event, SurfaceStore};
use serde_json::{Value, json};

use super::mcp_host;
use super::{Source, Status};
use crate::activity::{ActivityLog, LogKind};

struct ToolInfo {
    name: String,
    title: String,
    description: String,
    example: String,
}

/// Example arguments for a tool's input schema: a zero, `false`, or empty value per
/// property (`"SFO"` for a `destination`).
#[must_use]
pub fn example_args(schema: Option<&Value>) -> String {
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

struct SessionView {
    id: String,
    tool: String,
    args: Value,
    texts: Vec<(String, bool)>,
}

/// An MCP server over stdio (`--mcp`, the built-in demo agent): the connection, the tools,
/// and one session per tool call, each owning its surfaces, all drawn by one `DrawState`.
/// Actions on a surface become `tools/call` requests on the server.
pub struct AgentSource {
    label: String,
    server_id: String,
    handle: mcp_host::Handle,
    status: Status,
    tools: Vec<ToolInfo>,
    chosen: usize,
    args: String,
    args_error: Option<String>,
    hub: SessionHub,
    /// One drawing state for every session's store (each session owns its surfaces).
    draw: DrawState,
    catalog: Catalog,
    sessions: Vec<SessionView>,
    pending: HashMap<u64, Pending>,
    next_id: u64,
    uri_owner: HashMap<String, String>,
    auto_call: Option<String>,
    settings: UiExtensionSettings,
}

impl AgentSource {
    /// Start `program args` and connect to it over its stdin/stdout (on a thread of its
    /// own); `label` names it in the gallery.
    #[must_use]
    pub fn spawn(
        label: String,
        program: String,
        args: Vec<String>,
        catalog: Catalog,
        ctx: egui::Context,
    ) -> Self {
        let handle = mcp_host::spawn(program, args, ctx);
        Self {
            label,
            server_id: "agent".into(),
            handle,
            status: Status::Connecting,
            tools: Vec::new(),
            chosen: 0,
            args: "{}".into(),
            args_error: None,
            hub: SessionHub::new(),
            draw: DrawState::new(catalog.clone()).with_options(crate::media::renderer_options()),
            catalog,
            sessions: Vec::new(),
            pending: HashMap::new(),
            next_id: 1,
            uri_owner: HashMap::new(),
            auto_call: None,
            settings: UiExtensionSettings::native_a2ui(),
        }
    }

    /// Call `TOOL {"json": "args"}` once the server's tools are known (`--call`).
    #[must_use]
    pub fn with_auto_call(mut self, call: Option<String>) -> Self {
        self.auto_call = call;
        self
    }

    /// The sessions' surfaces, as (session id, store).
    #[must_use]
    pub fn session_stores(&self) -> Vec<(String, &SurfaceStore)> {
        self.hub
            .sessions()
            .map(|s| (s.id().to_owned(), s.store()))
            .collect()
    }

    fn on_reply(&mut self, r: mcp_host::Reply, log: &mut ActivityLog) {
        let a = self;
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
                a.status = Status::Open(server.clone());
                log.log(LogKind::Note, format!("connected to {server}"), &tools);
            }
            mcp_host::Reply::Closed(msg) => {
                a.status = Status::Failed(msg.clone());
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
                log.error("mcp", format!("{}: {msg}", a.label));
            }
            mcp_host::Reply::CallDone { id, result } => a.on_call_done(id, result, log),
            mcp_host::Reply::ResourceUpdated { uri, result } => {
                let owner = a.uri_owner.get(&uri).cloned();
                match (owner, result) {
                    (Some(session), Ok(read)) => {
                        if let Some(s) = a.hub.get_mut(&session) {
                            for c in read["contents"].as_array().into_iter().flatten() {
                                let mime = c.get("mimeType").and_then(Value::as_str).unwrap_or("");
                                let Some(text) = c.get("text").and_then(Value::as_str) else {
                                    continue;
                                };
                                if egui_a2ui::mcp::is_a2ui_family(mime) {
                                    s.store_mut().feed_document(text.as_bytes());
                                }
                            }
                        }
                    }
                    (None, _) => {}
                    (Some(_), Err(e)) => log.error("mcp", format!("resources/read {uri}: {e}")),
                }
            }
        }
    }

    /// The user (standing in for the model) calls a model-visible tool.
    fn call_tool(&mut self, name: &str, args_text: &str, log: &mut ActivityLog) {
        let a = self;
        let args = match serde_json::from_str::<Value>(args_text) {
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
        let session = a.hub.open(
            AppSession::new(&session_id, &a.server_id, name, a.catalog.catalogs())
                .with_policy(SplitPolicy::for_settings(&a.settings)),
        );
        session.on_tool_input(Value::Object(args.clone()));
        a.sessions.push(SessionView {
            id: session_id.clone(),
            tool: name.to_owned(),
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
        log.log(
            LogKind::ToolsCall,
            format!("call {name}"),
            &json!({"jsonrpc": "2.0", "method": "tools/call", "params": params}),
        );
        if sent.is_err() {
            a.on_call_done(id, Err("the MCP connection is closed".into()), log);
        }
    }

    fn on_call_done(&mut self, id: u64, result: Result<Value, String>, log: &mut ActivityLog) {
        let a = self;
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
                        logs.push((
                            LogKind::Result,
                            format!("result of {}", s.tool_name()),
                            r.clone(),
                        ));
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
                    logs.push((LogKind::Result, format!("result of {tool}"), r.clone()));
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
            log.log(kind, title, &v);
        }
        for e in errors {
            log.error("mcp", e);
        }
    }

    /// Events of one agent session: actions become `tools/call` on its server.
    fn route_events(&mut self, session: &str, events: Vec<Event>, log: &mut ActivityLog) {
        let a = self;
        for e in events {
            match &e {
                Event::Action(ev) => {
                    log.log_action(ev);
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
                            log.log(
                                LogKind::ToolsCall,
                                format!("call {} (from {})", req.name, req.surface_id),
                                &json!({"jsonrpc": "2.0", "method": "tools/call", "params": params}),
                            );
                            if sent.is_err() {
                                a.on_call_done(id, Err("the MCP connection is closed".into()), log);
                            }
                        }
                        Err(err) => log.error("mcp", format!("action {}: {err}", ev.name)),
                    }
                }
                Event::Error(err) => {
                    log.log(
                        LogKind::A2ui,
                        format!("error {} (no MCP channel for it)", err.error.code()),
                        &err.to_message(),
                    );
                    log.error(session, err.error.to_string());
                }
                other => log.log_other_event(other),
            }
        }
    }
}

impl Source for AgentSource {
    fn label(&self) -> &str {
        &self.label
    }

    fn status(&self) -> Status {
        self.status.clone()
    }

    fn poll(&mut self, _ctx: &egui::Context, log: &mut ActivityLog) {
        let replies: Vec<mcp_host::Reply> = self.handle.rx.try_iter().collect();
        for r in replies {
            self.on_reply(r, log);
        }
        // `--call`: once the tools are known.
        if matches!(self.status, Status::Open(_))
            && let Some(call) = self.auto_call.take()
        {
            let (name, args) = call
                .split_once(char::is_whitespace)
                .unwrap_or((call.as_str(), "{}"));
            self.call_tool(name, args.trim(), log);
        }
    }

    fn stores(&self) -> Vec<(String, &SurfaceStore)> {
        self.hub
            .sessions()
            .map(|s| (format!("{} · ", s.id()), s.store()))
            .collect()
    }

    fn is_busy(&self) -> bool {
        matches!(self.status, Status::Connecting)
            || !self.pending.is_empty()
            || self.auto_call.is_some()
    }

    fn ui(&mut self, ui: &mut egui::Ui, log: &mut ActivityLog) {
        let a = &mut *self;
        ui.horizontal(|ui| {
            ui.add(egui::Label::new(RichText::new(&a.label).heading()).truncate())
                .on_hover_text(&a.label);
            match &a.status {
                Status::Connecting => {
                    ui.spinner();
                    ui.weak("connecting over MCP stdio…");
                }
                Status::Open(s) => {
                    ui.weak(format!("MCP · {s}"));
                }
                Status::Failed(m) | Status::Ended(m) => {
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
                    let connected = matches!(a.status, Status::Open(_));
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
        egui::ScrollArea::both()
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
                                ui.add_enabled_ui(!busy, |ui| {
                                    events.extend(a.draw.surface_ui(session.store_mut(), &sid, ui));
                                });
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
            self.route_events(&session, events, log);
        }
        if let Some((name, args)) = call {
            self.call_tool(&name, &args, log);
        }
    }
}
