//! The three transports against real peers written on the official Python SDKs
//! (`tests/peers/`: a2a-sdk 0.3 + a2ui-a2a, a2a-sdk 1.x, ag-ui-protocol 1.0, mcp), each a
//! multi-turn flow (search -> pick -> form with checks -> confirmation) streamed in steps,
//! driven through the library: the async clients and the UI-thread hosts.

use crate::common::peers as peers_common;

use std::time::Duration;

use egui_a2ui::Catalog;
use egui_a2ui::model::SurfaceStore;
use egui_a2ui::transport::a2a::A2aHost;
use egui_a2ui::transport::a2a::{A2aClient, Dialect};
use egui_a2ui::transport::agui::AguiClient;
use egui_a2ui::transport::agui::AguiHost;
use egui_a2ui::transport::mcp_http::McpAgent;
use egui_a2ui::transport::mcp_http::McpHost;
use egui_a2ui::transport::{Role, TaskState, TransportEvent, TransportOptions, Turn, find_action};
use peers_common::{Venv, start};
use serde_json::{Value, json};

/// A host's own catalog id (served with the basic renderers).
const HOST_CATALOG: &str = "https://example.com/host/catalogs/v1/catalog.json";

fn text_of(store: &SurfaceStore, surface: &str, component: &str) -> Option<Value> {
    store
        .surface(surface)?
        .component(component)?
        .wire_props()
        .get("text")
        .cloned()
}

/// The events of one turn.
async fn turn_a2a(
    c: &mut A2aClient,
    turn: Turn,
) -> (
    Vec<TransportEvent>,
    Result<(), egui_a2ui::transport::TransportError>,
) {
    let mut ev = Vec::new();
    let r = c.send(&turn, |e| ev.push(e.clone())).await;
    (ev, r)
}

fn applied_events(ev: &[TransportEvent]) -> usize {
    ev.iter()
        .filter(|e| matches!(e, TransportEvent::Applied { .. }))
        .count()
}

fn last_state(ev: &[TransportEvent]) -> Option<TaskState> {
    ev.iter().rev().find_map(|e| match e {
        TransportEvent::State { state, .. } => Some(state.clone()),
        _ => None,
    })
}

/// search -> pick -> book through an A2A client; checks what every step must show.
async fn a2a_flow(c: &mut A2aClient, streaming: bool) {
    let (ev, r) = turn_a2a(c, Turn::Text("pasta".into())).await;
    r.unwrap();
    let store = c.session().store();
    let results = store.surface("results").expect("the results surface");
    assert!(results.is_visible());
    for id in ["pick-r1", "pick-r2", "pick-r3"] {
        assert!(results.component(id).is_some(), "{id}");
    }
    assert_eq!(
        store.surface("results").unwrap().data.get("/title"),
        Some(&json!("3 places for pasta"))
    );
    if streaming {
        assert!(
            applied_events(&ev) >= 4,
            "the surface grew in several streamed steps: {}",
            applied_events(&ev)
        );
    } else {
        // One answer: the whole task, its history applied in order.
        assert!(applied_events(&ev) >= 1);
    }
    assert_eq!(last_state(&ev), Some(TaskState::InputRequired));
    let context = c.session().context_id().expect("a context id").to_owned();
    let task = c.session().task_id().expect("an open task").to_owned();
    assert!(
        c.session()
            .transcript()
            .iter()
            .any(|t| t.role == Role::Agent && t.text.contains("Found 3 restaurants"))
    );

    // pick: the second restaurant's button.
    let action = find_action(c.session().store(), "pick-r2").unwrap();
    assert_eq!(action.context["restaurantId"], "r2");
    let (ev, r) = turn_a2a(c, Turn::Action(action)).await;
    r.unwrap();
    let req = ev
        .iter()
        .find_map(|e| match e {
            TransportEvent::Request { body, .. } => Some(body.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!(req["params"]["message"]["contextId"], json!(context));
    assert_eq!(
        req["params"]["message"]["taskId"],
        json!(task),
        "input-required: same task"
    );
    let booking = c.session().store().surface("booking").expect("the form");
    assert!(booking.send_data_model);
    assert_eq!(booking.data.get("/form/name"), Some(&json!("Ada")));
    assert_eq!(
        text_of(c.session().store(), "booking", "heading"),
        Some(json!("Book Noodle Bar"))
    );

    // A failing check keeps the book button from firing.
    let saved = c
        .session()
        .store()
        .surface("booking")
        .unwrap()
        .data
        .get("/form/size")
        .cloned();
    c.session_mut()
        .store_mut()
        .surface_mut("booking")
        .unwrap()
        .data
        .set("/form/size", Some(json!("0")))
        .unwrap();
    assert!(find_action(c.session().store(), "book").is_err());
    c.session_mut()
        .store_mut()
        .surface_mut("booking")
        .unwrap()
        .data
        .set("/form/size", saved)
        .unwrap();

    // book: pre-filled values, the data model in the metadata.
    let action = find_action(c.session().store(), "book").unwrap();
    assert_eq!(action.context["name"], "Ada");
    let (ev, r) = turn_a2a(c, Turn::Action(action)).await;
    r.unwrap();
    let req = ev
        .iter()
        .find_map(|e| match e {
            TransportEvent::Request { body, .. } => Some(body.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!(
        req["params"]["message"]["metadata"]["a2uiClientDataModel"]["surfaces"]["booking"]["form"]
            ["name"],
        "Ada"
    );
    assert_eq!(last_state(&ev), Some(TaskState::Completed));
    let store = c.session().store();
    assert!(store.surface("results").is_none(), "deleted by the agent");
    let confirm = text_of(store, "confirm", "root").expect("the confirmation");
    assert_eq!(
        confirm,
        json!("Booked a table for 2 at Noodle Bar under Ada (data model synced).")
    );
    assert_eq!(c.session().task_id(), None, "the completed task is over");
    assert_eq!(c.session().context_id(), Some(context.as_str()));
    assert!(store.errors().is_empty(), "{:?}", store.errors());
}

#[tokio::test]
async fn a2a_0_3_peer_with_the_official_a2ui_helpers_streams_the_whole_flow() {
    let peer = start(Venv::Main, "a2a03_peer.py");
    let mut c = A2aClient::connect(&peer.url(""), Catalog::basic(), TransportOptions::default())
        .await
        .unwrap();
    assert_eq!(c.session().card().dialect, Dialect::V0_3);
    assert_eq!(
        c.session().extension().map(|e| e.uri.as_str()),
        Some("https://a2ui.org/a2a-extension/a2ui/v0.9"),
        "the newest version both support (the card also lists v0.8)"
    );
    assert_eq!(c.session().method(), "message/stream");
    a2a_flow(&mut c, true).await;
}

#[tokio::test]
async fn a2a_0_3_peer_answers_message_send_too() {
    let peer = start(Venv::Main, "a2a03_peer.py");
    let mut c = A2aClient::connect(
        &peer.url("/"),
        Catalog::basic(),
        TransportOptions::default(),
    )
    .await
    .unwrap();
    c.session_mut().set_streaming(false);
    assert_eq!(c.session().method(), "message/send");
    a2a_flow(&mut c, false).await;
}

#[tokio::test]
async fn a2a_1_0_peer_streams_the_whole_flow_in_its_dialect() {
    let peer = start(Venv::A2a1, "a2a10_peer.py");
    let mut c = A2aClient::connect(&peer.url(""), Catalog::basic(), TransportOptions::default())
        .await
        .unwrap();
    assert_eq!(c.session().card().dialect, Dialect::V1_0);
    assert_eq!(c.session().method(), "SendStreamingMessage");
    a2a_flow(&mut c, true).await;
}

#[tokio::test]
async fn a2a_1_0_peer_refuses_a_request_in_the_0_3_dialect_with_a_typed_error() {
    let peer = start(Venv::A2a1, "a2a10_peer.py");
    let http = reqwest_card(&peer.url("/.well-known/agent-card.json")).await;
    let mut card = egui_a2ui::transport::a2a::AgentCard::parse(&http, &peer.url("")).unwrap();
    card.dialect = Dialect::V0_3; // no A2A-Version header, 0.3 method names
    let session = egui_a2ui::transport::a2a::A2aSession::new(card, Catalog::basic()).unwrap();
    let mut c = A2aClient::from_session(session, TransportOptions::default()).unwrap();
    let (_, r) = turn_a2a(&mut c, Turn::Text("pasta".into())).await;
    match r {
        Err(egui_a2ui::transport::TransportError::JsonRpc { code, .. }) => {
            assert!(code < 0, "a JSON-RPC error code: {code}");
        }
        other => panic!("expected a JSON-RPC error, got {other:?}"),
    }
}

async fn reqwest_card(url: &str) -> Value {
    egui_a2ui::transport::HttpClient::new(TransportOptions::default())
        .unwrap()
        .get_json(url)
        .await
        .unwrap()
}

#[tokio::test]
async fn agui_peer_streams_lifecycle_snapshots_deltas_text_and_takes_actions_back() {
    let peer = start(Venv::Main, "agui_peer.py");
    let mut c = AguiClient::new(
        &peer.url("/"),
        Catalog::basic(),
        TransportOptions::default(),
    )
    .unwrap();
    let mut ev = Vec::new();
    c.send(&Turn::Text("pasta".into()), |e| ev.push(e.clone()))
        .await
        .unwrap();
    let first_lifecycle = ev
        .iter()
        .position(|e| matches!(e, TransportEvent::Lifecycle { status, .. } if status.status == "building"))
        .expect("a building lifecycle snapshot");
    let first_applied = ev
        .iter()
        .position(|e| matches!(e, TransportEvent::Applied { .. }))
        .unwrap();
    assert!(
        first_lifecycle < first_applied,
        "building is shown before the surface"
    );
    assert!(applied_events(&ev) >= 4, "snapshot then deltas");
    let s = c.session();
    let (_, activity) = s.activity_of("results").expect("the results activity");
    assert!(
        activity.lifecycle().is_none(),
        "the painted snapshot replaced the lifecycle"
    );
    assert!(activity.operations_applied() >= 4);
    assert!(
        s.store()
            .surface("results")
            .unwrap()
            .component("pick-r3")
            .is_some()
    );
    assert_eq!(s.state(), Some(&TaskState::Completed));
    assert!(
        s.transcript()
            .iter()
            .any(|t| t.text.contains("Found 3 restaurants"))
    );

    let pick = find_action(c.session().store(), "pick-r1").unwrap();
    let mut ev = Vec::new();
    c.send(&Turn::Action(pick), |e| ev.push(e.clone()))
        .await
        .unwrap();
    let body = match &ev[0] {
        TransportEvent::Request { body, .. } => body.clone(),
        other => panic!("{other:?}"),
    };
    assert_eq!(
        body["forwardedProps"]["a2uiAction"]["userAction"]["name"],
        "pick"
    );
    assert_eq!(
        body["forwardedProps"]["a2uiAction"]["userAction"]["context"]["restaurantId"],
        "r1"
    );
    assert_eq!(body["threadId"], json!(c.session().thread_id()));
    assert!(
        body["messages"].as_array().unwrap().len() >= 2,
        "the thread's messages go back"
    );
    assert_eq!(
        text_of(c.session().store(), "booking", "heading"),
        Some(json!("Book Pasta Place"))
    );
    let book = find_action(c.session().store(), "book").unwrap();
    c.send(&Turn::Action(book), |_| {}).await.unwrap();
    let store = c.session().store();
    assert!(
        store.surface("results").is_none(),
        "deleteSurface through a delta"
    );
    assert_eq!(
        text_of(store, "confirm", "root"),
        Some(json!("Booked a table for 2 at Pasta Place under Ada."))
    );
    assert!(store.errors().is_empty(), "{:?}", store.errors());
}

#[tokio::test]
async fn agui_lifecycle_failure_and_run_error_are_typed_and_the_next_run_works() {
    let peer = start(Venv::Main, "agui_peer.py");
    let mut c = AguiClient::new(
        &peer.url("/"),
        Catalog::basic(),
        TransportOptions::default(),
    )
    .unwrap();
    let mut ev = Vec::new();
    c.send(&Turn::Text("fault:failed".into()), |e| ev.push(e.clone()))
        .await
        .unwrap();
    let statuses: Vec<String> = ev
        .iter()
        .filter_map(|e| match e {
            TransportEvent::Lifecycle { status, .. } => Some(status.status.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(statuses, ["building", "retrying", "failed"]);
    let failed = c
        .session()
        .activity("a2ui-surface-broken")
        .unwrap()
        .lifecycle()
        .unwrap();
    assert!(failed.is_failed());
    assert_eq!(failed.errors, ["gave up after 2 attempts"]);

    let r = c.send(&Turn::Text("fault:runerror".into()), |_| {}).await;
    assert!(
        matches!(&r, Err(egui_a2ui::transport::TransportError::RunError { code: Some(code), .. }) if code == "PEER_FAULT"),
        "{r:?}"
    );
    assert_eq!(c.session().state(), Some(&TaskState::Failed));
    c.send(&Turn::Text("pasta".into()), |_| {}).await.unwrap();
    assert!(c.session().store().surface("results").is_some());
}

#[tokio::test]
async fn mcp_peer_over_streamable_http_runs_the_flow_through_app_only_tools() {
    let peer = start(Venv::Main, "mcp_peer.py");
    // Built with a host's catalog: its stores accept the host's id, and every call says so.
    let catalog = Catalog::basic().with_catalog_id(HOST_CATALOG, egui_a2ui::Version::V0_9);
    let mut a = McpAgent::connect_http(&peer.url("/mcp"), &catalog, &TransportOptions::default())
        .await
        .unwrap();
    assert!(a.client().server_name().contains("restaurant-finder-peer"));
    let mut ev = Vec::new();
    a.send(&Turn::Text("pasta".into()), |e| ev.push(e.clone()))
        .await
        .unwrap();
    let req = match &ev[0] {
        TransportEvent::Request { body, .. } => body.clone(),
        other => panic!("{other:?}"),
    };
    assert_eq!(req["name"], "search_restaurants", "the model-visible tool");
    assert_eq!(req["arguments"]["query"], "pasta");
    let caps = &req["_meta"]["a2ui"]["clientCapabilities"]["v0.9"]["supportedCatalogIds"];
    assert!(
        caps.as_array()
            .is_some_and(|a| a.contains(&json!(HOST_CATALOG))),
        "the host catalog is advertised: {caps}"
    );
    let store = a.conversation().stores().next().unwrap();
    assert!(
        store.catalogs().get(HOST_CATALOG).is_some(),
        "the session's store accepts the host catalog"
    );
    assert!(
        store
            .surface("results")
            .unwrap()
            .component("pick-r3")
            .is_some()
    );

    let store = a.conversation().stores().next().unwrap();
    let pick = find_action(store, "pick-r3").unwrap();
    let mut ev = Vec::new();
    a.send(&Turn::Action(pick), |e| ev.push(e.clone()))
        .await
        .unwrap();
    let req = match &ev[0] {
        TransportEvent::Request { body, .. } => body.clone(),
        other => panic!("{other:?}"),
    };
    assert_eq!(req["name"], "pick", "an app-only tool named by the action");
    assert_eq!(req["arguments"]["restaurantId"], "r3");
    let store = a.conversation().stores().next().unwrap();
    let book = find_action(store, "book").unwrap();
    a.send(&Turn::Action(book), |_| {}).await.unwrap();
    let store = a.conversation().stores().next().unwrap();
    assert_eq!(
        text_of(store, "confirm", "root"),
        Some(json!("Booked a table for 2 at Taco Stand under Ada."))
    );
    assert!(store.surface("results").is_none());
}

/// Poll a host until it is idle (bounded: 30 s).
fn settle(mut poll: impl FnMut() -> bool) {
    for _ in 0..3000 {
        if !poll() {
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!("the host stayed busy for 30 s");
}

#[test]
fn ui_thread_hosts_drive_every_transport_and_ask_for_repaints() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let a2a = start(Venv::Main, "a2a03_peer.py");
    let agui = start(Venv::Main, "agui_peer.py");
    let mcp = start(Venv::Main, "mcp_peer.py");
    let repaints = Arc::new(AtomicUsize::new(0));
    let rp = || {
        let r = repaints.clone();
        move || {
            r.fetch_add(1, Ordering::Relaxed);
        }
    };

    let mut h = A2aHost::connect(
        &a2a.url(""),
        Catalog::basic(),
        TransportOptions::default(),
        rp(),
    )
    .unwrap();
    settle(|| {
        h.poll();
        h.is_busy()
    });
    assert!(h.connect_error().is_none(), "{:?}", h.connect_error());
    h.send(Turn::Text("pasta".into())).unwrap();
    assert!(
        h.send(Turn::Text("again".into())).is_err(),
        "one turn at a time"
    );
    settle(|| {
        h.poll();
        h.is_busy()
    });
    let s = h.session().unwrap();
    assert!(
        s.store()
            .surface("results")
            .unwrap()
            .component("pick-r1")
            .is_some()
    );
    assert_eq!(s.state(), Some(&TaskState::InputRequired));
    assert!(
        h.log()
            .iter()
            .any(|e| matches!(e, TransportEvent::Request { .. }))
    );

    let mut h = AguiHost::connect(
        &agui.url("/"),
        Catalog::basic(),
        TransportOptions::default(),
        rp(),
    )
    .unwrap();
    h.send(Turn::Text("pasta".into())).unwrap();
    settle(|| {
        h.poll();
        h.is_busy()
    });
    assert!(h.session().unwrap().store().surface("results").is_some());

    let mut h = McpHost::connect(
        &mcp.url("/mcp"),
        &Catalog::basic(),
        TransportOptions::default(),
        rp(),
    )
    .unwrap();
    settle(|| {
        h.poll();
        h.is_busy()
    });
    h.send(Turn::Text("pasta".into())).unwrap();
    settle(|| {
        h.poll();
        h.is_busy()
    });
    assert!(
        h.conversation()
            .stores()
            .next()
            .unwrap()
            .surface("results")
            .is_some()
    );
    assert!(
        repaints.load(Ordering::Relaxed) >= 3,
        "every reply asks for a repaint"
    );
}

/// An A2A 0.3 card whose v0.9 A2UI extension says whether it accepts inline catalogs.
fn inline_card03() -> Value {
    json!({
        "name": "finder", "url": "http://127.0.0.1:9/rpc", "protocolVersion": "0.3.0",
        "capabilities": {"streaming": true, "extensions": [
            {"uri": "https://a2ui.org/a2a-extension/a2ui/v0.8"},
            {"uri": "https://a2ui.org/a2a-extension/a2ui/v0.9",
             "params": {"supportedCatalogIds": ["https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json"],
                        "acceptsInlineCatalogs": true}}
        ]}
    })
}

/// (A host catalog with a component drawn by egui: a test outside `src/transport`, which
/// imports no egui.)
#[test]
fn inline_catalogs_go_only_to_an_agent_that_accepts_them() {
    const HOST: &str = "https://example.com/host/catalogs/v1/catalog.json";
    let mut catalog = Catalog::basic().with_catalog_id(HOST, egui_a2ui::Version::V0_9);
    catalog.register(
        "Gauge",
        |ui: &mut egui::Ui, _: &mut egui_a2ui::ComponentContext<'_, '_>| ui.label("gauge"),
    );
    catalog.set_component_schema(
        "Gauge",
        json!({"type": "object", "properties": {
            "value": {"$ref": "https://a2ui.org/specification/v0_9/common_types.json#/$defs/DynamicNumber"}},
            "required": ["value"]}),
    );
    let card = |accepts: bool| {
        let mut c = inline_card03();
        c["capabilities"]["extensions"][1]["params"]["acceptsInlineCatalogs"] = json!(accepts);
        egui_a2ui::transport::a2a::AgentCard::parse(&c, "http://x").unwrap()
    };
    let mut s = egui_a2ui::transport::a2a::A2aSession::new(card(true), catalog.clone()).unwrap();
    let body = s.request(&Turn::Text("hi".into())).unwrap().body.unwrap();
    let caps = &body["params"]["message"]["metadata"]["a2uiClientCapabilities"];
    let inline = caps["v0.9"]["inlineCatalogs"]
        .as_array()
        .expect("inline catalogs");
    assert_eq!(
        inline.len(),
        1,
        "the host catalog only, not the basic one: {inline:?}"
    );
    assert_eq!(inline[0]["catalogId"], HOST);
    // Property schemas travel with the inline catalog: the host's as declared, the
    // basic ones as published.
    let gauge = &inline[0]["components"]["Gauge"]["allOf"][1];
    assert_eq!(gauge["properties"]["component"]["const"], "Gauge");
    assert_eq!(gauge["required"], json!(["component", "value"]));
    assert!(gauge["properties"]["value"]["$ref"].is_string(), "{gauge}");
    assert!(
        inline[0]["components"]["Text"]
            .to_string()
            .contains("\"text\""),
        "{}",
        inline[0]["components"]["Text"]
    );
    assert_eq!(
        caps["v0.9.1"]["inlineCatalogs"],
        caps["v0.9"]["inlineCatalogs"]
    );
    assert!(
        caps["v0.9"]["supportedCatalogIds"]
            .as_array()
            .unwrap()
            .contains(&json!(HOST))
    );

    let mut s = egui_a2ui::transport::a2a::A2aSession::new(card(false), catalog).unwrap();
    let body = s.request(&Turn::Text("hi".into())).unwrap().body.unwrap();
    let caps = &body["params"]["message"]["metadata"]["a2uiClientCapabilities"];
    assert!(
        caps["v0.9"].get("inlineCatalogs").is_none(),
        "not accepted: not sent"
    );

    // A basic-only host has no inline catalog to send.
    let mut s = egui_a2ui::transport::a2a::A2aSession::new(card(true), Catalog::basic()).unwrap();
    let body = s.request(&Turn::Text("hi".into())).unwrap().body.unwrap();
    let caps = &body["params"]["message"]["metadata"]["a2uiClientCapabilities"];
    assert!(caps["v0.9"].get("inlineCatalogs").is_none());
}
