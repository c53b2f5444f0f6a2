//! Faults, each a typed error the host sees, with the surfaces already drawn kept and the next
//! turn working: the peer killed mid-stream, HTTP 4xx/5xx, a JSON-RPC error, malformed SSE, an
//! event over the size caps, a stalled stream, 10,000 parts in one response, a data part that
//! is not A2UI. The real peers make what their SDKs can make; loopback fakes the rest.

use crate::common::peers as peers_common;

use std::time::Duration;

use egui_a2ui::transport::a2a::{A2aClient, A2aSession, AgentCard};
use egui_a2ui::transport::agui::AguiClient;
use egui_a2ui::transport::{TransportError, TransportEvent, TransportOptions, Turn};
use egui_a2ui::{Catalog, Limits};
use peers_common::{Venv, fake_server, http_response, sse_head, start};
use serde_json::json;

async fn run(c: &mut A2aClient, text: &str) -> (Vec<TransportEvent>, Result<(), TransportError>) {
    let mut ev = Vec::new();
    let r = c
        .send(&Turn::Text(text.into()), |e| ev.push(e.clone()))
        .await;
    (ev, r)
}

fn notices(ev: &[TransportEvent]) -> Vec<&TransportError> {
    ev.iter()
        .filter_map(|e| match e {
            TransportEvent::Notice(n) => Some(n),
            _ => None,
        })
        .collect()
}

async fn a2a03(options: TransportOptions) -> (peers_common::Peer, A2aClient) {
    let peer = start(Venv::Main, "a2a03_peer.py");
    let c = A2aClient::connect(&peer.url(""), Catalog::basic(), options)
        .await
        .unwrap();
    (peer, c)
}

#[tokio::test]
async fn a_peer_killed_mid_stream_is_an_interrupted_turn_and_the_drawn_surface_stays() {
    let (mut peer, mut c) = a2a03(TransportOptions::default()).await;
    let (ev, r) = run(&mut c, "fault:kill").await;
    assert!(
        matches!(r, Err(TransportError::Interrupted { .. })),
        "{r:?} after {ev:?}"
    );
    assert!(
        c.session().store().surface("results").is_some(),
        "the first streamed step was drawn and stays"
    );
    std::thread::sleep(Duration::from_millis(300));
    assert!(!peer.is_running(), "the peer really died");
    // The next turn fails cleanly (nobody listens any more), without a panic.
    let (_, r) = run(&mut c, "pasta").await;
    assert!(matches!(r, Err(TransportError::Connect { .. })), "{r:?}");
    assert!(c.session().store().surface("results").is_some());
}

#[tokio::test]
async fn agui_peer_killed_mid_stream_is_an_interrupted_run() {
    let peer = start(Venv::Main, "agui_peer.py");
    let mut c = AguiClient::new(
        &peer.url("/"),
        Catalog::basic(),
        TransportOptions::default(),
    )
    .unwrap();
    let r = c.send(&Turn::Text("fault:kill".into()), |_| {}).await;
    assert!(
        matches!(r, Err(TransportError::Interrupted { .. })),
        "{r:?}"
    );
    assert!(
        c.session()
            .activity("a2ui-surface-killed")
            .and_then(|a| a.lifecycle())
            .is_some_and(|l| l.status == "building"),
        "what arrived before the cut stays"
    );
}

#[tokio::test]
async fn a_stalled_stream_times_out_and_the_next_turn_works() {
    let options = TransportOptions {
        idle_timeout: Duration::from_millis(1500),
        ..TransportOptions::default()
    };
    let (_peer, mut c) = a2a03(options).await;
    let (_, r) = run(&mut c, "fault:stall").await;
    assert!(matches!(r, Err(TransportError::Timeout { .. })), "{r:?}");
    assert!(c.session().store().surface("results").is_some());
    let (_, r) = run(&mut c, "pasta").await;
    r.unwrap();
    assert!(
        c.session()
            .store()
            .surface("results")
            .unwrap()
            .component("pick-r1")
            .is_some()
    );
}

#[tokio::test]
async fn an_event_over_the_cap_is_dropped_with_a_typed_notice_and_the_rest_applies() {
    let (_peer, mut c) = a2a03(TransportOptions::default()).await;
    let (ev, r) = run(&mut c, "fault:huge").await;
    r.unwrap();
    let cap = Limits::default().max_message_bytes;
    assert!(
        notices(&ev)
            .iter()
            .any(|n| matches!(n, TransportError::TooLarge { limit, .. } if *limit == cap)),
        "{:?}",
        notices(&ev)
    );
    // The steps around the oversized one still applied.
    let results = c.session().store().surface("results").unwrap();
    assert!(results.component("pick-r3").is_some());
    let (_, r) = run(&mut c, "pasta").await;
    r.unwrap();
}

#[tokio::test]
async fn ten_thousand_parts_in_one_response_all_apply() {
    let (_peer, mut c) = a2a03(TransportOptions::default()).await;
    let (ev, r) = run(&mut c, "fault:big").await;
    r.unwrap();
    let applied: usize = ev
        .iter()
        .filter_map(|e| match e {
            TransportEvent::Applied { count, .. } => Some(*count),
            _ => None,
        })
        .sum();
    assert_eq!(applied, 10_000);
    let big = c.session().store().surface("big").unwrap();
    assert!(big.component("c9997").is_some());
    assert!(big.is_visible());
    assert!(c.session().store().errors().is_empty());
}

#[tokio::test]
async fn a_non_a2ui_data_part_is_a_typed_notice_and_the_a2ui_parts_apply() {
    let (_peer, mut c) = a2a03(TransportOptions::default()).await;
    let (ev, r) = run(&mut c, "fault:nona2ui").await;
    r.unwrap();
    assert!(notices(&ev).iter().any(
        |n| matches!(n, TransportError::NotA2ui { mime: Some(m) } if m == "application/json")
    ));
    assert!(c.session().store().surface("results").is_some());
}

fn card_for(base: &str) -> AgentCard {
    AgentCard::parse(
        &json!({"name": "fake", "url": format!("{base}/"), "protocolVersion": "0.3.0",
                "capabilities": {"streaming": true, "extensions": [
                    {"uri": "https://a2ui.org/a2a-extension/a2ui/v0.9"}]}}),
        base,
    )
    .unwrap()
}

fn status_event(sid: &str, state: &str) -> Vec<u8> {
    let ev = json!({"jsonrpc": "2.0", "id": 1, "result": {"kind": "status-update", "taskId": "t",
        "contextId": "c", "final": state != "working", "status": {"state": state, "message": {
            "kind": "message", "role": "agent", "messageId": format!("m-{sid}-{state}"), "parts": [
                {"kind": "data", "metadata": {"mimeType": "application/a2ui+json"},
                 "data": {"version": "v0.9", "createSurface": {"surfaceId": sid,
                          "catalogId": "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json"}}}]}}}});
    format!("data: {ev}\n\n").into_bytes()
}

#[tokio::test]
async fn http_errors_json_rpc_errors_and_malformed_sse_are_typed_and_the_next_turn_works() {
    let ok = |sid: &str| {
        vec![
            Some(sse_head()),
            Some(status_event(sid, "working")),
            Some(status_event(&format!("{sid}-end"), "input-required")),
        ]
    };
    let base = fake_server(
        vec![
            vec![Some(http_response(
                "503 Service Unavailable",
                "text/plain",
                b"overloaded",
            ))],
            vec![Some(http_response(
                "404 Not Found",
                "text/plain",
                b"no such agent",
            ))],
            vec![Some(http_response(
                "200 OK",
                "application/json",
                br#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Invalid params"}}"#,
            ))],
            vec![
                Some(sse_head()),
                Some(b"data: {not json\n\n".to_vec()),
                Some(b"data: \xff\xfe\n\n".to_vec()),
                Some(status_event("after-garbage", "input-required")),
            ],
            ok("fine"),
            vec![
                Some(sse_head()),
                Some(status_event("half", "working")),
                Some(b"data: {\"jsonrpc\"".to_vec()),
            ],
        ],
        Duration::ZERO,
    );
    let session = A2aSession::new(card_for(&base), Catalog::basic()).unwrap();
    let mut c = A2aClient::from_session(session, TransportOptions::default()).unwrap();

    let (_, r) = run(&mut c, "one").await;
    assert!(
        matches!(&r, Err(TransportError::Http { status: 503, body, .. }) if body == "overloaded"),
        "{r:?}"
    );
    let (_, r) = run(&mut c, "two").await;
    assert!(
        matches!(&r, Err(TransportError::Http { status: 404, .. })),
        "{r:?}"
    );
    let (_, r) = run(&mut c, "three").await;
    assert!(
        matches!(&r, Err(TransportError::JsonRpc { code: -32602, .. })),
        "{r:?}"
    );
    let (ev, r) = run(&mut c, "four").await;
    r.unwrap();
    let n = notices(&ev);
    assert!(
        n.iter()
            .any(|e| matches!(e, TransportError::MalformedPayload(_))),
        "{n:?}"
    );
    assert!(
        n.iter()
            .any(|e| matches!(e, TransportError::MalformedSse(_))),
        "{n:?}"
    );
    assert!(c.session().store().surface("after-garbage").is_some());
    let (_, r) = run(&mut c, "five").await;
    r.unwrap();
    assert!(c.session().store().surface("fine").is_some());
    let (_, r) = run(&mut c, "six").await;
    assert!(
        matches!(&r, Err(TransportError::Interrupted { .. })),
        "an event cut off: {r:?}"
    );
    assert!(c.session().store().surface("half").is_some());
    for sid in ["after-garbage", "fine", "fine-end"] {
        assert!(c.session().store().surface(sid).is_some(), "{sid} stays");
    }
}

#[tokio::test]
async fn agui_http_error_and_a_stalled_run_are_typed() {
    let base = fake_server(
        vec![
            vec![Some(http_response("500 Internal Server Error", "text/plain", b"boom"))],
            vec![Some(sse_head()), Some(b"data: {\"type\":\"RUN_STARTED\",\"runId\":\"r\"}\n\n".to_vec()), None],
            vec![
                Some(sse_head()),
                Some(b"data: {\"type\":\"RUN_STARTED\",\"runId\":\"r\"}\n\n".to_vec()),
                Some(br#"data: {"type":"ACTIVITY_SNAPSHOT","messageId":"a","activityType":"a2ui-surface","content":{"a2ui_operations":[{"version":"v0.9","createSurface":{"surfaceId":"ok","catalogId":"https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json"}}]}}"#.to_vec()),
                Some(b"\n\ndata: {\"type\":\"RUN_FINISHED\"}\n\n".to_vec()),
            ],
        ],
        Duration::from_secs(5),
    );
    let options = TransportOptions {
        idle_timeout: Duration::from_millis(800),
        ..TransportOptions::default()
    };
    let mut c = AguiClient::new(&format!("{base}/"), Catalog::basic(), options).unwrap();
    let r = c.send(&Turn::Text("a".into()), |_| {}).await;
    assert!(
        matches!(r, Err(TransportError::Http { status: 500, .. })),
        "{r:?}"
    );
    let r = c.send(&Turn::Text("b".into()), |_| {}).await;
    assert!(matches!(r, Err(TransportError::Timeout { .. })), "{r:?}");
    c.send(&Turn::Text("c".into()), |_| {}).await.unwrap();
    assert!(c.session().store().surface("ok").is_some());
}

#[tokio::test]
async fn agui_stream_cut_cleanly_mid_run_is_interrupted_the_surfaces_stay_and_the_next_run_works() {
    // A proxy's cut: the peer ends the response cleanly after two events (flow.Guard), once.
    let peer = peers_common::start_with_env(
        Venv::Main,
        "agui_peer.py",
        &[("PEER_DROP_AFTER", "2"), ("PEER_DROP_ONCE", "1")],
    );
    let mut c = AguiClient::new(
        &peer.url("/"),
        Catalog::basic(),
        TransportOptions::default(),
    )
    .unwrap();
    c.send(&Turn::Text("pasta".into()), |_| {}).await.unwrap();
    assert!(c.session().store().surface("results").is_some());

    let mut ev = Vec::new();
    let r = c
        .send(&Turn::Text("fault:drop".into()), |e| ev.push(e.clone()))
        .await;
    assert!(
        matches!(r, Err(TransportError::Interrupted { .. })),
        "{r:?} after {ev:?}"
    );
    assert!(
        ev.iter().any(|e| matches!(
            e,
            TransportEvent::TurnEnded {
                error: Some(TransportError::Interrupted { .. })
            }
        )),
        "{ev:?}"
    );
    assert!(
        c.session().store().surface("results").is_some(),
        "the surface drawn before stays"
    );
    c.send(&Turn::Text("pasta".into()), |_| {}).await.unwrap();
    assert!(c.session().store().surface("results").is_some());
}
