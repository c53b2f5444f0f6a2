//! End to end over the real MCP protocol: an rmcp client and the demo flight server
//! (examples/mcp_demo_server) talk over an in-memory byte stream. The host advertises
//! native A2UI, calls the model-visible `search_flights`, applies the result to a session,
//! "clicks" a flight's Select button (the ActionEvent the renderer would build, resolved
//! from the store), checks the `tools/call` the session produces and that the server
//! receives, sends it, applies the incremental update and checks the surface changed.
//!
//! Runs under plain `cargo test` (rmcp is a dev-dependency); with `--features rmcp` the
//! request and result go through the crate's rmcp conversions instead of serde.

use crate::flight_server;

use egui_a2ui::eval::{EvalContext, FunctionRegistry};
use egui_a2ui::mcp::{
    AppSession, SessionHub, SessionState, SplitPolicy, ToolCallRequest, UiExtensionSettings,
};
use egui_a2ui::model::Catalogs;
use egui_a2ui::model::SurfaceStore;
use egui_a2ui::model::{TreeNode, resolve_tree};
use egui_a2ui::{ActionEvent, now_timestamp};
use flight_server::{FLIGHTS, FlightServer};
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig, Implementation,
    ProtocolVersion,
};
use rmcp::{ClientHandler, ServiceExt};
use serde_json::{Value, json};

/// The host's MCP client: advertises the UI extension at `initialize`.
#[derive(Clone)]
struct Host {
    capabilities: ClientCapabilities,
}

impl ClientHandler for Host {
    fn get_info(&self) -> ClientConfig {
        ClientConfig::new(
            self.capabilities.clone(),
            Implementation::new("egui_a2ui-e2e", "0.1.0"),
        )
        .with_protocol_version(ProtocolVersion::LATEST_WITH_INITIALIZE)
    }
}

#[cfg(feature = "rmcp")]
fn capabilities(settings: &UiExtensionSettings) -> ClientCapabilities {
    settings.to_rmcp_capabilities()
}
#[cfg(not(feature = "rmcp"))]
fn capabilities(settings: &UiExtensionSettings) -> ClientCapabilities {
    serde_json::from_value(settings.client_capabilities()).unwrap()
}

#[cfg(feature = "rmcp")]
fn to_params(req: &ToolCallRequest) -> CallToolRequestParams {
    req.into()
}
#[cfg(not(feature = "rmcp"))]
fn to_params(req: &ToolCallRequest) -> CallToolRequestParams {
    serde_json::from_value(req.params()).unwrap()
}

fn to_json(result: &CallToolResult) -> Value {
    serde_json::to_value(result).unwrap()
}

fn find<'t>(node: &'t TreeNode, id: &str, scope: &str) -> Option<&'t TreeNode> {
    if node.id == id && node.scope == scope {
        return Some(node);
    }
    node.children.iter().find_map(|c| find(c, id, scope))
}

/// The ActionEvent the renderer produces when the user clicks the button `id` drawn at
/// `scope`: the button's `action.event`, its context resolved in the button's scope.
fn click(store: &SurfaceStore, surface_id: &str, id: &str, scope: &str) -> ActionEvent {
    let surface = store.surface(surface_id).unwrap();
    let (tree, errors) = resolve_tree(surface, store.catalogs(), store.limits());
    assert!(errors.is_empty(), "{errors:?}");
    let node = find(tree.as_ref().unwrap(), id, scope).expect("the button is drawn there");
    assert_eq!(node.component.as_deref(), Some("Button"));
    let action = surface
        .component(id)
        .unwrap()
        .prop("action")
        .unwrap()
        .to_value();
    let event = &action["event"];
    let functions = FunctionRegistry::basic();
    let cx = EvalContext::new(
        surface.data.root(),
        &node.scope,
        surface.version,
        &functions,
        store.limits(),
    );
    let context = match cx.resolve_deep(&event["context"]) {
        Value::Object(m) => m,
        other => panic!("context resolved to {other}"),
    };
    ActionEvent {
        surface_id: surface_id.to_owned(),
        source_component_id: id.to_owned(),
        name: event["name"].as_str().unwrap().to_owned(),
        context,
        timestamp: now_timestamp(),
        user_message: None,
        version: surface.version,
        scope: node.scope.clone(),
    }
}

#[tokio::test(flavor = "current_thread")]
async fn flight_search_select_round_trip_over_real_mcp() {
    let settings = UiExtensionSettings::native_a2ui();
    let server = FlightServer::default();
    let received = server.received.clone();

    let (server_io, client_io) = tokio::io::duplex(64 * 1024);
    let server_task = tokio::spawn(async move {
        let running = server.serve(server_io).await.unwrap();
        running.waiting().await.unwrap();
    });
    let client = Host {
        capabilities: capabilities(&settings),
    }
    .serve(client_io)
    .await
    .unwrap();

    // The host learns the server's tools: search is for the model, select for apps only.
    let mut hub = SessionHub::new();
    let tools = client.list_all_tools().await.unwrap();
    let listed = serde_json::to_value(&tools).unwrap();
    assert_eq!(hub.tools_mut().insert_tools_list("flights", &listed), 2);
    let model_tools: Vec<_> = hub
        .tools()
        .model_visible("flights")
        .map(|t| t.name.clone())
        .collect();
    assert_eq!(model_tools, ["search_flights"]);
    assert_eq!(
        hub.tools()
            .get("flights", "search_flights")
            .unwrap()
            .resource_uri
            .as_deref(),
        Some(flight_server::RENDERER_URI)
    );

    // The agent calls search_flights: a session for that call shows loading, then the result.
    let session = hub.open(
        AppSession::new(
            "agent-call-1",
            "flights",
            "search_flights",
            Catalogs::basic(),
        )
        .with_policy(SplitPolicy::for_settings(&settings)),
    );
    let args = json!({"destination": "SFO"});
    session.on_tool_input(args.clone());
    assert!(matches!(session.state(), SessionState::Loading { .. }));
    let search = client
        .call_tool(
            CallToolRequestParams::new("search_flights")
                .with_arguments(args.as_object().unwrap().clone()),
        )
        .await
        .unwrap();
    #[cfg(feature = "rmcp")]
    let outcome = session.on_rmcp_tool_result(&search).unwrap();
    #[cfg(not(feature = "rmcp"))]
    let outcome = session.on_tool_result(&to_json(&search)).unwrap();

    assert_eq!(session.state(), &SessionState::Ready);
    assert_eq!(
        outcome.split.model_text(),
        "Found 3 flights to SFO. Best: UA954, $1,240."
    );
    assert_eq!(outcome.split.payloads.len(), 1);
    assert!(outcome.split.payloads[0].marked);
    assert!(
        outcome.split.dropped.is_empty(),
        "{:?}",
        outcome.split.dropped
    );
    assert_eq!(outcome.applied, 3, "{:?}", outcome.errors);
    let surface = session.store().surface("flights").unwrap();
    assert!(surface.is_visible());
    assert_eq!(surface.data.get("/flights/1/id"), Some(&json!("LY005")));
    assert!(surface.component("confirmation").is_none());

    // The user clicks "Select" on the second flight.
    let event = click(session.store(), "flights", "select_button", "/flights/1");
    assert_eq!(event.name, "select_flight");
    assert_eq!(
        event.context,
        *json!({"flightId": "LY005"}).as_object().unwrap()
    );

    let request = hub.on_action("agent-call-1", &event).unwrap();
    assert_eq!(request.server_id, "flights");
    assert_eq!(request.surface_id, "flights");
    assert_eq!(request.name, "select_flight");
    assert_eq!(
        Value::Object(request.arguments.clone()),
        json!({"flightId": "LY005"})
    );
    // sendDataModel: the surface's data model rides along in _meta.
    assert_eq!(
        request.meta["a2uiClientDataModel"]["surfaces"]["flights"]["destination"],
        json!("SFO")
    );
    assert!(hub.get("agent-call-1").unwrap().is_busy("flights"));

    let select = client.call_tool(to_params(&request)).await.unwrap();

    // The server got exactly that request.
    {
        let calls = received.lock().unwrap();
        let last = calls.last().unwrap();
        assert_eq!(last.name, "select_flight");
        assert_eq!(last.arguments, json!({"flightId": "LY005"}));
        assert_eq!(
            last.meta["a2uiClientDataModel"],
            request.meta["a2uiClientDataModel"]
        );
    }

    #[cfg(feature = "rmcp")]
    let outcome = hub
        .on_rmcp_action_result(&request.call_ref, &select)
        .unwrap();
    #[cfg(not(feature = "rmcp"))]
    let outcome = hub
        .on_action_result(&request.call_ref, &to_json(&select))
        .unwrap();
    assert_eq!(outcome.surface_id.as_deref(), Some("flights"));
    assert_eq!(outcome.applied, 2, "{:?}", outcome.errors);
    assert_eq!(outcome.split.model_text(), "Booked LY005.");

    let session = hub.get("agent-call-1").unwrap();
    assert!(!session.is_busy("flights"));
    assert!(session.notices().is_empty(), "{:?}", session.notices());
    let surface = session.store().surface("flights").unwrap();
    assert_eq!(surface.data.get("/selected/id"), Some(&json!("LY005")));
    let confirmation = surface.component("confirmation").unwrap();
    assert_eq!(confirmation.component(), "Text");
    assert_eq!(
        surface
            .component("root")
            .unwrap()
            .prop("children")
            .map(egui_a2ui::model::PropRef::to_value),
        Some(json!(["title", "confirmation"]))
    );
    let (tree, _) = resolve_tree(
        surface,
        session.store().catalogs(),
        session.store().limits(),
    );
    let tree = tree.unwrap();
    assert!(find(&tree, "confirmation", "/").is_some());
    assert!(find(&tree, "select_button", "/flights/1").is_none());
    assert_eq!(
        surface.data.get("/selected/confirmation"),
        Some(&json!(format!(
            "Booked {} for {}.",
            FLIGHTS[1].label, FLIGHTS[1].price
        )))
    );

    // The same result delivered twice is refused: the call is settled.
    assert!(
        hub.on_action_result(&request.call_ref, &to_json(&select))
            .is_err()
    );

    // A select for a flight the server does not know: isError, shown on the surface.
    let mut bogus = event.clone();
    bogus.context.insert("flightId".into(), json!("ZZ999"));
    let request = hub.on_action("agent-call-1", &bogus).unwrap();
    let failed = client.call_tool(to_params(&request)).await.unwrap();
    assert_eq!(failed.is_error, Some(true));
    hub.on_action_result(&request.call_ref, &to_json(&failed))
        .unwrap();
    let notices = hub.get("agent-call-1").unwrap().notices();
    assert_eq!(notices.len(), 1);
    assert_eq!(notices[0].surface_id, "flights");
    assert_eq!(notices[0].code, egui_a2ui::mcp::TOOL_ERROR);
    assert_eq!(notices[0].message, "Unknown flight ZZ999.");

    client.cancel().await.unwrap();
    server_task.await.unwrap();
}

#[tokio::test(flavor = "current_thread")]
async fn host_without_a2ui_capability_gets_text_only() {
    let server = FlightServer::default();
    let (server_io, client_io) = tokio::io::duplex(64 * 1024);
    let server_task = tokio::spawn(async move {
        let running = server.serve(server_io).await.unwrap();
        running.waiting().await.unwrap();
    });
    let client = Host {
        capabilities: ClientCapabilities::default(),
    }
    .serve(client_io)
    .await
    .unwrap();
    let result = client
        .call_tool(
            CallToolRequestParams::new("search_flights")
                .with_arguments(json!({"destination": "SFO"}).as_object().unwrap().clone()),
        )
        .await
        .unwrap();
    let mut session = AppSession::new(
        "agent-call-2",
        "flights",
        "search_flights",
        Catalogs::basic(),
    );
    let outcome = session.on_tool_result(&to_json(&result)).unwrap();
    assert!(outcome.split.payloads.is_empty());
    assert_eq!(session.store().surfaces().count(), 0);
    assert!(outcome.split.model_text().starts_with("Found 3 flights"));
    client.cancel().await.unwrap();
    server_task.await.unwrap();
}

#[tokio::test(flavor = "current_thread")]
async fn per_request_capability_meta_is_enough_for_the_server() {
    // No capability at initialize; the per-request `_meta` form carries it instead.
    let settings = UiExtensionSettings::native_a2ui();
    let server = FlightServer::default();
    let (server_io, client_io) = tokio::io::duplex(64 * 1024);
    let server_task = tokio::spawn(async move {
        let running = server.serve(server_io).await.unwrap();
        running.waiting().await.unwrap();
    });
    let client = Host {
        capabilities: ClientCapabilities::default(),
    }
    .serve(client_io)
    .await
    .unwrap();
    let mut meta = serde_json::Map::new();
    settings.insert_into_request_meta(&mut meta);
    let params: CallToolRequestParams = serde_json::from_value(json!({
        "name": "search_flights", "arguments": {"destination": "SFO"}, "_meta": meta
    }))
    .unwrap();
    let result = client.call_tool(params).await.unwrap();
    let mut session = AppSession::new(
        "agent-call-3",
        "flights",
        "search_flights",
        Catalogs::basic(),
    );
    let outcome = session.on_tool_result(&to_json(&result)).unwrap();
    assert_eq!(outcome.split.payloads.len(), 1);
    assert!(session.store().surface("flights").unwrap().is_visible());
    client.cancel().await.unwrap();
    server_task.await.unwrap();
}
