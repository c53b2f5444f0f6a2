//! The viewer's built-in demo agent over real stdio: spawn `viewer --serve-demo` as a child
//! process, connect an rmcp client to its stdin/stdout advertising native A2UI, list the
//! tools, call them, and check the marked A2UI payloads (and the pushed dashboard updates, to
//! a `resources/subscribe` client on the handshake revision and a `subscriptions/listen` one
//! on 2026-07-28).

use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use egui_a2ui::mcp::{AppSession, SessionHub, SplitPolicy, UiExtensionSettings};
use egui_a2ui::model::Catalogs;
use rmcp::model::{
    CallToolRequestParams, ClientCapabilities, ClientConfig, Implementation, ProtocolVersion,
    ReadResourceRequestParams, ResourceUpdatedNotificationParam,
};
use rmcp::service::{NotificationContext, RunningService};
use rmcp::{ClientHandler, ClientLifecycleMode, ClientServiceExt, RoleClient};
use serde_json::{Value, json};
use tokio::sync::mpsc::{UnboundedSender, unbounded_channel};

fn viewer_bin() -> PathBuf {
    let exe = std::env::current_exe().expect("test binary path");
    let dir = exe.parent().and_then(|d| d.parent()).expect("target dir");
    let path = dir.join("examples").join("viewer");
    if !path.exists() {
        let status = std::process::Command::new(env!("CARGO"))
            .args(["build", "-p", "egui_a2ui_viewer", "--example", "viewer"])
            .status()
            .expect("run cargo build");
        assert!(status.success(), "cargo build --example viewer failed");
    }
    path
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
            Implementation::new("viewer-demo-test", "0.1.0"),
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

async fn connect(
    capabilities: ClientCapabilities,
) -> (
    RunningService<RoleClient, Host>,
    tokio::sync::mpsc::UnboundedReceiver<String>,
    tokio::process::Child,
) {
    connect_with(capabilities, ClientLifecycleMode::Initialize).await
}

async fn connect_with(
    capabilities: ClientCapabilities,
    mode: ClientLifecycleMode,
) -> (
    RunningService<RoleClient, Host>,
    tokio::sync::mpsc::UnboundedReceiver<String>,
    tokio::process::Child,
) {
    let mut child = tokio::process::Command::new(viewer_bin())
        .arg("--serve-demo")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("spawn viewer --serve-demo");
    let stdout = child.stdout.take().unwrap();
    let stdin = child.stdin.take().unwrap();
    let (tx, rx) = unbounded_channel();
    let client = Host {
        capabilities,
        updates: tx,
    }
    .serve_with_lifecycle((stdout, stdin), mode)
    .await
    .expect("MCP initialize (or discover) over the child's stdio");
    (client, rx, child)
}

fn a2ui_caps() -> ClientCapabilities {
    serde_json::from_value(UiExtensionSettings::native_a2ui().client_capabilities()).unwrap()
}

async fn call(client: &RunningService<RoleClient, Host>, name: &str, args: Value) -> Value {
    let params = CallToolRequestParams::new(name.to_owned())
        .with_arguments(args.as_object().unwrap().clone());
    let result = client.call_tool(params).await.expect("tools/call");
    serde_json::to_value(&result).unwrap()
}

#[tokio::test(flavor = "current_thread")]
async fn demo_agent_serves_flights_over_real_stdio() {
    let (client, _updates, mut child) = connect(a2ui_caps()).await;
    let tools = client.list_all_tools().await.expect("tools/list");
    let listed = json!({ "tools": tools });
    let mut hub = SessionHub::new();
    hub.tools_mut().insert_tools_list("demo", &listed);
    let model: Vec<String> = hub
        .tools()
        .model_visible("demo")
        .map(|t| t.name.clone())
        .collect();
    assert_eq!(model, ["search_flights", "contact_form", "show_dashboard"]);
    for app_only in ["select_flight", "submit_contact", "refresh_dashboard"] {
        let t = hub.tools().get("demo", app_only).expect(app_only);
        assert!(
            t.visibility.app && !t.visibility.model,
            "{app_only}: {:?}",
            t.visibility
        );
    }

    // search_flights: a text fallback and one marked A2UI payload.
    let settings = UiExtensionSettings::native_a2ui();
    let result = call(&client, "search_flights", json!({"destination": "SFO"})).await;
    let session = hub.open(
        AppSession::new("call-1", "demo", "search_flights", Catalogs::basic())
            .with_policy(SplitPolicy::for_settings(&settings)),
    );
    let out = session.on_tool_result(&result).unwrap();
    assert_eq!(
        out.split.model_text(),
        "Found 3 flights to SFO. Best: UA954, $1,240."
    );
    assert_eq!(out.split.payloads.len(), 1);
    assert!(
        out.split.payloads[0].marked,
        "the payload carries _meta.ui.content"
    );
    assert_eq!(out.split.payloads[0].mime_type, "application/a2ui+json");
    assert!(out.errors.is_empty(), "{:?}", out.errors);
    let surface = session.store().surface("flights").unwrap();
    assert!(surface.is_visible());
    assert_eq!(surface.data.get("/flights/2/id"), Some(&json!("DL235")));

    // The app-only select_flight answers with an incremental update.
    let result = call(&client, "select_flight", json!({"flightId": "UA954"})).await;
    assert_eq!(result["content"][0]["text"], "Booked UA954.");
    assert_eq!(
        result["content"][1]["resource"]["mimeType"],
        "application/a2ui+json"
    );

    client.cancel().await.unwrap();
    let _ = tokio::time::timeout(Duration::from_secs(10), child.wait()).await;
}

#[tokio::test(flavor = "current_thread")]
async fn demo_agent_contact_form_checks_on_the_server_too() {
    let (client, _updates, mut child) = connect(a2ui_caps()).await;
    let result = call(&client, "contact_form", json!({})).await;
    let mut session = AppSession::new("c", "demo", "contact_form", Catalogs::basic());
    let out = session.on_tool_result(&result).unwrap();
    assert_eq!(out.split.payloads.len(), 1);
    let form = session.store().surface("contact").unwrap();
    assert!(form.send_data_model);
    assert!(form.component("send").unwrap().prop("checks").is_some());

    let bad = call(
        &client,
        "submit_contact",
        json!({"name": "Ada", "email": "nope", "message": "hello there!"}),
    )
    .await;
    assert_eq!(bad["isError"], true);
    assert_eq!(bad["content"][0]["text"], "The email address is not valid.");

    let good = call(
        &client,
        "submit_contact",
        json!({"name": "Ada", "email": "ada@example.com", "topic": ["sales"], "message": "hello there!"}),
    )
    .await;
    assert_ne!(good["isError"], true);
    let out = session.on_tool_result(&good).unwrap();
    assert!(out.errors.is_empty(), "{:?}", out.errors);
    let done = session
        .store()
        .surface("contact")
        .unwrap()
        .data
        .get("/done")
        .cloned();
    assert!(
        done.and_then(|d| d.as_str().map(|s| s.starts_with("Thanks Ada!")))
            .unwrap_or(false)
    );

    client.cancel().await.unwrap();
    let _ = tokio::time::timeout(Duration::from_secs(10), child.wait()).await;
}

#[tokio::test(flavor = "current_thread")]
async fn demo_agent_dashboard_pushes_updates() {
    let (client, mut updates, mut child) = connect(a2ui_caps()).await;
    let result = call(&client, "show_dashboard", json!({})).await;
    // The handshake revision's way: subscribe to the payload's resource.
    #[expect(deprecated, reason = "resources/subscribe is this revision's way")]
    client
        .subscribe(rmcp::model::SubscribeRequestParams::new(
            "a2ui://demo/dashboard",
        ))
        .await
        .expect("resources/subscribe");
    let mut session = AppSession::new("d", "demo", "show_dashboard", Catalogs::basic());
    session.on_tool_result(&result).unwrap();
    let first = session
        .store()
        .surface("dashboard")
        .unwrap()
        .data
        .get("/tick")
        .cloned();

    // The server announces the payload's resource; reading it gives fresh messages.
    let uri = tokio::time::timeout(Duration::from_secs(10), updates.recv())
        .await
        .expect("a resources/updated notification within 10 s")
        .unwrap();
    assert_eq!(uri, "a2ui://demo/dashboard");
    let read = client
        .read_resource(ReadResourceRequestParams::new(uri))
        .await
        .unwrap();
    let read = serde_json::to_value(&read).unwrap();
    let text = read["contents"][0]["text"].as_str().unwrap();
    for m in egui_a2ui::stream::parse_document(text.as_bytes(), &Default::default()) {
        session.store_mut().apply(m.unwrap()).into_result().unwrap();
    }
    let next = session
        .store()
        .surface("dashboard")
        .unwrap()
        .data
        .get("/tick")
        .cloned();
    assert_ne!(first, next, "the pushed update moved the dashboard on");

    // The Refresh button's app-only tool answers with an update too.
    let refreshed = call(&client, "refresh_dashboard", json!({})).await;
    assert!(
        refreshed["content"][0]["text"]
            .as_str()
            .unwrap()
            .starts_with("Dashboard refreshed")
    );

    client.cancel().await.unwrap();
    let _ = tokio::time::timeout(Duration::from_secs(10), child.wait()).await;
}

#[tokio::test(flavor = "current_thread")]
async fn demo_agent_without_the_ui_capability_sends_text_only() {
    let (client, _updates, mut child) = connect(ClientCapabilities::default()).await;
    let result = call(&client, "search_flights", json!({"destination": "SFO"})).await;
    let content = result["content"].as_array().unwrap();
    assert_eq!(content.len(), 1);
    assert_eq!(content[0]["type"], "text");
    client.cancel().await.unwrap();
    let _ = tokio::time::timeout(Duration::from_secs(10), child.wait()).await;
}

#[tokio::test(flavor = "current_thread")]
async fn demo_agent_on_2026_07_28_announces_updates_on_a_listen_stream() {
    let (client, _updates, mut child) = connect_with(
        a2ui_caps(),
        ClientLifecycleMode::Discover {
            preferred_versions: vec![ProtocolVersion::V_2026_07_28],
        },
    )
    .await;
    assert_eq!(
        client.peer_info().map(|i| i.protocol_version.clone()),
        Some(ProtocolVersion::V_2026_07_28)
    );
    // The capabilities travel in the request's `_meta` here: the payload still comes.
    let result = call(&client, "show_dashboard", json!({})).await;
    assert_eq!(
        result["content"].as_array().map(Vec::len),
        Some(2),
        "{result}"
    );
    let filter = rmcp::model::SubscriptionFilter::builder()
        .resource_subscriptions(["a2ui://demo/dashboard", "a2ui://demo/elsewhere"])
        .build();
    let mut sub = client
        .peer()
        .listen(filter)
        .await
        .expect("subscriptions/listen");
    assert_eq!(
        sub.acknowledged().resource_subscriptions,
        Some(vec!["a2ui://demo/dashboard".to_owned()]),
        "the dashboard only"
    );
    let note = tokio::time::timeout(Duration::from_secs(10), sub.next())
        .await
        .expect("an update within 10 s")
        .expect("a notification");
    assert!(
        matches!(
            &note,
            Some(rmcp::model::ServerNotification::ResourceUpdatedNotification(n))
                if n.params.uri == "a2ui://demo/dashboard"
        ),
        "{note:?}"
    );
    drop(sub);
    client.cancel().await.unwrap();
    let _ = tokio::time::timeout(Duration::from_secs(10), child.wait()).await;
}
