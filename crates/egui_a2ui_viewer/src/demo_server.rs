//! The built-in demo agent (`viewer --serve-demo`): an MCP server over stdio offering
//!
//! - the flight example of `examples/mcp_demo_server` (`search_flights`, app-only
//!   `select_flight`), included as it is;
//! - `contact_form` (model-visible): a form whose fields carry A2UI checks; its button calls
//!   the app-only `submit_contact`, which checks again on the server and answers with a
//!   confirmation (or `isError` and a message);
//! - `show_dashboard` (model-visible): a metrics dashboard; its "Refresh" button calls the
//!   app-only `refresh_dashboard`, which answers with an incremental `updateDataModel`.
//!   While the dashboard is shown the server also announces `notifications/resources/updated`
//!   for the payload's URI about once a second to every client watching it; the viewer then
//!   reads that resource (fresh `updateDataModel` messages) and applies it, so the numbers
//!   move on their own.
//!
//! It speaks both MCP revisions rmcp knows: a client that starts with `server/discover`
//! (2026-07-28) watches the dashboard through `subscriptions/listen`, one that starts with
//! `initialize` through `resources/subscribe`. A client that does not advertise native A2UI
//! (in `initialize` or in a request's `_meta`) gets the text fallbacks only.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use egui_a2ui::mcp::view_content_block;
use egui_a2ui::protocol::{BASIC_CATALOG_V0_9, MIME_TYPE};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ErrorData, Implementation,
    ListToolsResult, PaginatedRequestParams, ReadResourceRequestParams, ReadResourceResponse,
    ReadResourceResult, ResourceUpdatedNotificationParam, ServerCapabilities, ServerConfig,
    SubscribeRequestParams, SubscriptionFilter,
};
use rmcp::service::{Peer, RequestContext, SubscriptionContext, SubscriptionSink};
use rmcp::{RoleServer, ServerHandler, ServiceExt};
use serde_json::{Value, json};

// The flight example of the root's `examples/mcp_demo_server`, included as it is (an
// embedding example of the library, so it stays there).
#[expect(
    dead_code,
    reason = "the call recording is read by tests of the flight server, not here"
)]
#[path = "../../../examples/mcp_demo_server/flight_server.rs"]
mod flight_server;

/// The payload URI of the dashboard; updates are announced for it.
pub const DASHBOARD_URI: &str = "a2ui://demo/dashboard";
/// Pushed dashboard updates per `show_dashboard` call.
const LIVE_TICKS: u64 = 600;

/// The demo server.
#[derive(Clone, Default)]
pub struct DemoServer {
    flights: flight_server::FlightServer,
    tick: Arc<AtomicU64>,
    live: Arc<AtomicBool>,
    watchers: Arc<Mutex<Watchers>>,
}

/// Who watches the dashboard: clients on the handshake revisions (`resources/subscribe`)
/// and `subscriptions/listen` streams (2026-07-28).
#[derive(Default)]
struct Watchers {
    subscribed: Vec<Peer<RoleServer>>,
    streams: Vec<SubscriptionSink>,
}

impl Watchers {
    /// Tell every watcher the dashboard changed; forget the ones that are gone.
    async fn announce(watchers: &Mutex<Self>) {
        let (peers, sinks) = match watchers.lock() {
            Ok(w) => (w.subscribed.clone(), w.streams.clone()),
            Err(_) => return,
        };
        let mut alive = Vec::with_capacity(peers.len());
        for peer in &peers {
            let note = ResourceUpdatedNotificationParam::new(DASHBOARD_URI);
            alive.push(peer.notify_resource_updated(note).await.is_ok());
        }
        let mut gone_streams = Vec::new();
        for sink in &sinks {
            if sink.notify_resource_updated(DASHBOARD_URI).await.is_err() {
                gone_streams.push(sink.id().clone());
            }
        }
        if let Ok(mut w) = watchers.lock() {
            // Subscribers that came in meanwhile (past `alive`'s end) stay.
            let mut alive = alive.into_iter();
            w.subscribed.retain(|_| alive.next().unwrap_or(true));
            w.streams.retain(|s| !gone_streams.contains(s.id()));
        }
    }
}

fn tool_error(message: &str) -> ErrorData {
    ErrorData::internal_error(message.to_owned(), None)
}

fn result(v: Value) -> Result<CallToolResponse, ErrorData> {
    serde_json::from_value::<CallToolResult>(v)
        .map(CallToolResponse::from)
        .map_err(|e| tool_error(&e.to_string()))
}

fn payload_block(uri: &str, messages: &Value) -> Result<Value, ErrorData> {
    view_content_block(uri, MIME_TYPE, &messages.to_string(), None)
        .map_err(|e| tool_error(&e.to_string()))
}

use flight_server::client_renders_a2ui;

fn msg(kind: &str, body: Value) -> Value {
    let mut m = serde_json::Map::new();
    m.insert("version".into(), json!("v0.9"));
    m.insert(kind.into(), body);
    Value::Object(m)
}

/// The contact form surface.
pub fn contact_payload() -> Value {
    let required = |path: &str, message: &str| {
        json!({"condition": {"call": "required", "args": {"value": {"path": path}}},
               "message": message})
    };
    json!([
        msg(
            "createSurface",
            json!({"surfaceId": "contact", "catalogId": BASIC_CATALOG_V0_9,
                                    "sendDataModel": true})
        ),
        msg(
            "updateDataModel",
            json!({"surfaceId": "contact", "path": "/",
            "value": {"name": "", "email": "", "topic": ["support"], "message": "", "consent": false}})
        ),
        msg(
            "updateComponents",
            json!({"surfaceId": "contact", "components": [
                {"id": "root", "component": "Card", "child": "form"},
                {"id": "form", "component": "Column", "align": "stretch",
                 "children": ["title", "name", "email", "topic", "message", "consent", "send", "hint"]},
                {"id": "title", "component": "Text", "variant": "h2", "text": "Contact us"},
                {"id": "name", "component": "TextField", "label": "Your name",
                 "value": {"path": "/name"}, "checks": [required("/name", "Please tell us your name")]},
                {"id": "email", "component": "TextField", "label": "Email",
                 "value": {"path": "/email"},
                 "checks": [{"condition": {"call": "email", "args": {"value": {"path": "/email"}}},
                             "message": "That is not an email address"}]},
                {"id": "topic", "component": "ChoicePicker", "label": "Topic",
                 "variant": "mutuallyExclusive", "displayStyle": "chips",
                 "options": [{"label": "Support", "value": "support"},
                             {"label": "Sales", "value": "sales"},
                             {"label": "Feedback", "value": "feedback"}],
                 "value": {"path": "/topic"}},
                {"id": "message", "component": "TextField", "label": "Message", "variant": "longText",
                 "value": {"path": "/message"},
                 "checks": [{"condition": {"call": "length",
                                           "args": {"value": {"path": "/message"}, "min": 10}},
                             "message": "At least 10 characters"}]},
                {"id": "consent", "component": "CheckBox", "label": "You may reply by email",
                 "value": {"path": "/consent"}},
                {"id": "send_label", "component": "Text", "text": "Send"},
                {"id": "send", "component": "Button", "variant": "primary", "child": "send_label",
                 "checks": [{"condition": {"call": "and", "args": {"values": [
                                {"call": "required", "args": {"value": {"path": "/name"}}},
                                {"call": "email", "args": {"value": {"path": "/email"}}},
                                {"call": "length", "args": {"value": {"path": "/message"}, "min": 10}},
                                {"path": "/consent"}]}},
                             "message": "Fill in every field and allow a reply"}],
                 "action": {"event": {"name": "submit_contact", "context": {
                     "name": {"path": "/name"}, "email": {"path": "/email"},
                     "topic": {"path": "/topic"}, "message": {"path": "/message"}}}}},
                {"id": "hint", "component": "Text", "variant": "caption",
                 "text": "The button calls the app-only tool submit_contact."}
            ]})
        )
    ])
}

/// The confirmation after a valid submission.
pub fn contact_done_payload(name: &str, topic: &str) -> Value {
    json!([
        msg(
            "updateDataModel",
            json!({"surfaceId": "contact", "path": "/done",
            "value": format!("Thanks {name}! Your {topic} request is ticket #{}.", 1000 + name.len() * 7)})
        ),
        msg(
            "updateComponents",
            json!({"surfaceId": "contact", "components": [
                {"id": "form", "component": "Column", "children": ["title", "done"]},
                {"id": "done", "component": "Text", "text": {"path": "/done"}}
            ]})
        )
    ])
}

/// Dashboard numbers at one tick: a deterministic wave.
pub fn dashboard_values(tick: u64) -> Value {
    let t = tick as f64;
    let services: Vec<Value> = ["gateway", "auth", "search", "billing"]
        .iter()
        .enumerate()
        .map(|(k, name)| {
            let load = (50.0 + 40.0 * (t / 3.0 + k as f64).sin()).round();
            json!({"name": name, "load": load, "state": if load > 85.0 { "hot" } else { "ok" }})
        })
        .collect();
    json!({
        "tick": tick,
        "m": {
            "rps": (1200.0 + 300.0 * (t / 4.0).sin()).round(),
            "p95": (80.0 + 25.0 * (t / 3.0 + 1.0).sin()).round(),
            "err": ((0.4 + 0.3 * (t / 5.0).sin().powi(2)) * 100.0).round() / 100.0
        },
        "services": services
    })
}

/// The dashboard surface.
pub fn dashboard_payload(tick: u64) -> Value {
    let stat = |i: usize, label: &str, fmt: &str| {
        vec![
            json!({"id": format!("stat{i}"), "component": "Card", "child": format!("stat{i}_col"), "weight": 1}),
            json!({"id": format!("stat{i}_col"), "component": "Column",
                   "children": [format!("stat{i}_label"), format!("stat{i}_value")]}),
            json!({"id": format!("stat{i}_label"), "component": "Text", "variant": "caption", "text": label}),
            json!({"id": format!("stat{i}_value"), "component": "Text", "variant": "h2",
                   "text": {"call": "formatString", "args": {"value": fmt}, "returnType": "string"}}),
        ]
    };
    let mut components = vec![
        json!({"id": "root", "component": "Column", "align": "stretch",
               "children": ["title", "stats", "services", "footer"]}),
        json!({"id": "title", "component": "Text", "variant": "h2", "text": "Live dashboard"}),
        json!({"id": "stats", "component": "Row", "children": ["stat0", "stat1", "stat2"]}),
    ];
    components.extend(stat(0, "Requests / s", "${/m/rps}"));
    components.extend(stat(1, "p95 latency", "${/m/p95} ms"));
    components.extend(stat(2, "Errors", "${/m/err} %"));
    components.extend([
        json!({"id": "services", "component": "List",
               "children": {"componentId": "svc", "path": "/services"}}),
        json!({"id": "svc", "component": "Row", "align": "center",
               "children": ["svc_name", "svc_load", "svc_state"]}),
        json!({"id": "svc_name", "component": "Text", "text": {"path": "name"}, "weight": 1}),
        json!({"id": "svc_load", "component": "Slider", "label": "load %", "min": 0, "max": 100,
               "value": {"path": "load"}, "weight": 2}),
        json!({"id": "svc_state", "component": "Text", "variant": "caption", "text": {"path": "state"}}),
        json!({"id": "footer", "component": "Row", "align": "center", "children": ["refresh", "tick"]}),
        json!({"id": "refresh_label", "component": "Text", "text": "Refresh"}),
        json!({"id": "refresh", "component": "Button", "child": "refresh_label",
               "action": {"event": {"name": "refresh_dashboard", "context": {}}}}),
        json!({"id": "tick", "component": "Text", "variant": "caption",
               "text": {"call": "formatString", "args": {"value": "update #${/tick}"}, "returnType": "string"}}),
    ]);
    json!([
        msg(
            "createSurface",
            json!({"surfaceId": "dashboard", "catalogId": BASIC_CATALOG_V0_9})
        ),
        msg(
            "updateDataModel",
            json!({"surfaceId": "dashboard", "path": "/", "value": dashboard_values(tick)})
        ),
        msg(
            "updateComponents",
            json!({"surfaceId": "dashboard", "components": components})
        )
    ])
}

/// An incremental dashboard update.
pub fn dashboard_update(tick: u64) -> Value {
    json!([msg(
        "updateDataModel",
        json!({"surfaceId": "dashboard", "path": "/", "value": dashboard_values(tick)})
    )])
}

fn tools_json() -> Value {
    json!([
        {"name": "contact_form", "title": "Contact form",
         "description": "Show a contact form (with field checks) to the user.",
         "inputSchema": {"type": "object", "properties": {}}},
        {"name": "submit_contact", "title": "Submit contact form",
         "description": "Submit the contact form (called by the form, not by the model).",
         "inputSchema": {"type": "object", "properties": {
             "name": {"type": "string"}, "email": {"type": "string"},
             "topic": {"type": "array", "items": {"type": "string"}},
             "message": {"type": "string"}}},
         "_meta": {"ui": {"visibility": ["app"]}}},
        {"name": "show_dashboard", "title": "Live dashboard",
         "description": "Show a live-updating service dashboard.",
         "inputSchema": {"type": "object", "properties": {}}},
        {"name": "refresh_dashboard", "title": "Refresh dashboard",
         "description": "Fresh dashboard numbers (called by the dashboard).",
         "inputSchema": {"type": "object", "properties": {}},
         "_meta": {"ui": {"visibility": ["app"]}}}
    ])
}

impl DemoServer {
    fn text_and_payload(
        context: &RequestContext<RoleServer>,
        meta: &Value,
        text: &str,
        uri: &str,
        payload: &Value,
    ) -> Result<CallToolResponse, ErrorData> {
        let mut content = vec![json!({"type": "text", "text": text})];
        if client_renders_a2ui(context, meta) {
            content.push(payload_block(uri, payload)?);
        }
        result(json!({ "content": content }))
    }

    /// Move the dashboard on about once a second (one ticker at a time, [`LIVE_TICKS`]
    /// ticks), announcing `resources/updated` to whoever watches it.
    fn start_live_updates(&self) {
        if self.live.swap(true, Ordering::SeqCst) {
            return;
        }
        let live = self.live.clone();
        let tick = self.tick.clone();
        let watchers = self.watchers.clone();
        tokio::spawn(async move {
            for _ in 0..LIVE_TICKS {
                tokio::time::sleep(std::time::Duration::from_millis(1000)).await;
                tick.fetch_add(1, Ordering::SeqCst);
                Watchers::announce(&watchers).await;
            }
            live.store(false, Ordering::SeqCst);
        });
    }
}

impl ServerHandler for DemoServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_resources()
                .enable_resources_subscribe()
                .build(),
        )
        .with_server_info(Implementation::new(
            "egui_a2ui demo agent",
            env!("CARGO_PKG_VERSION"),
        ))
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let flights = self.flights.list_tools(request, context).await?;
        let mut tools =
            serde_json::to_value(&flights.tools).map_err(|e| tool_error(&e.to_string()))?;
        if let (Value::Array(all), Value::Array(mine)) = (&mut tools, tools_json()) {
            all.extend(mine);
        }
        serde_json::from_value(json!({ "tools": tools })).map_err(|e| tool_error(&e.to_string()))
    }

    /// `resources/subscribe` (the handshake revisions): the dashboard only.
    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        if request.uri != DASHBOARD_URI {
            return Err(ErrorData::resource_not_found(
                format!("no resource {}", request.uri),
                None,
            ));
        }
        if let Ok(mut w) = self.watchers.lock() {
            w.subscribed.push(context.peer);
        }
        Ok(())
    }

    /// `subscriptions/listen` (2026-07-28): updates of the dashboard, nothing else.
    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        Some(
            SubscriptionFilter::builder()
                .resource_subscriptions(
                    requested
                        .resource_subscriptions
                        .iter()
                        .flatten()
                        .filter(|u| *u == DASHBOARD_URI)
                        .cloned(),
                )
                .build(),
        )
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        if let Ok(mut w) = self.watchers.lock() {
            w.streams.push(context.sink().clone());
        }
        context.cancelled().await;
        if let Ok(mut w) = self.watchers.lock() {
            w.streams.retain(|s| s.id() != context.sink().id());
        }
        Ok(())
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        if request.uri != DASHBOARD_URI {
            return Err(ErrorData::resource_not_found(
                format!("no resource {}", request.uri),
                None,
            ));
        }
        let tick = self.tick.load(Ordering::SeqCst);
        let body = json!({"contents": [{
            "uri": DASHBOARD_URI, "mimeType": MIME_TYPE,
            "text": dashboard_update(tick).to_string()
        }]});
        serde_json::from_value::<ReadResourceResult>(body)
            .map(ReadResourceResponse::from)
            .map_err(|e| tool_error(&e.to_string()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let arguments = Value::Object(request.arguments.clone().unwrap_or_default());
        let meta = flight_server::request_meta(&request, &context);
        let arg = |k: &str| {
            arguments
                .get(k)
                .and_then(Value::as_str)
                .unwrap_or("")
                .trim()
        };
        match request.name.as_ref() {
            "contact_form" => Self::text_and_payload(
                &context,
                &meta,
                "Showing a contact form with name, email, topic and message.",
                "a2ui://demo/contact",
                &contact_payload(),
            ),
            "submit_contact" => {
                let (name, email, message) = (arg("name"), arg("email"), arg("message"));
                let topic = arguments
                    .get("topic")
                    .and_then(|t| t.get(0))
                    .and_then(Value::as_str)
                    .unwrap_or("general");
                let problem = if name.is_empty() {
                    Some("The name is missing.")
                } else if !email.contains('@') || email.starts_with('@') || email.ends_with('@') {
                    Some("The email address is not valid.")
                } else if message.chars().count() < 10 {
                    Some("The message is too short.")
                } else {
                    None
                };
                match problem {
                    Some(p) => {
                        result(json!({"isError": true, "content": [{"type": "text", "text": p}]}))
                    }
                    None => result(json!({"content": [
                        {"type": "text", "text": format!("Contact request from {name} <{email}> about {topic} received.")},
                        payload_block("a2ui://demo/contact/done", &contact_done_payload(name, topic))?
                    ]})),
                }
            }
            "show_dashboard" => {
                let tick = self.tick.load(Ordering::SeqCst);
                let values = dashboard_values(tick);
                let text = format!(
                    "Dashboard: {} requests/s, p95 {} ms, {} % errors.",
                    values["m"]["rps"], values["m"]["p95"], values["m"]["err"]
                );
                let response = Self::text_and_payload(
                    &context,
                    &meta,
                    &text,
                    DASHBOARD_URI,
                    &dashboard_payload(tick),
                );
                if client_renders_a2ui(&context, &meta) {
                    self.start_live_updates();
                }
                response
            }
            "refresh_dashboard" => {
                let tick = self.tick.fetch_add(1, Ordering::SeqCst) + 1;
                result(json!({"content": [
                    {"type": "text", "text": format!("Dashboard refreshed (update #{tick}).")},
                    payload_block(DASHBOARD_URI, &dashboard_update(tick))?
                ]}))
            }
            _ => self.flights.call_tool(request, context).await,
        }
    }
}

/// Serve the demo on stdin/stdout until the client closes the pipe.
pub fn serve_stdio() -> Result<(), Box<dyn std::error::Error>> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    rt.block_on(async {
        let server = DemoServer::default()
            .serve((tokio::io::stdin(), tokio::io::stdout()))
            .await?;
        server.waiting().await?;
        Ok(())
    })
}
