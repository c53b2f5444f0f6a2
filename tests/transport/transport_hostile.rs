//! A hostile AG-UI agent and leaky URLs (security review H3 and L4): JSON patches that
//! would grow an activity without bound or nest it past the stack, activities and
//! transcripts that would pile up, and credentials in URLs and headers that must not reach
//! `Debug`, errors, events or the host's log.

use crate::common::peers as peers_common;

use std::time::Duration;

use egui_a2ui::transport::agui::{AguiClient, AguiHost, AguiSession};
use egui_a2ui::transport::{
    HttpRequest, ResponseKind, TransportError, TransportEvent, TransportOptions, Turn, redact_url,
};
use egui_a2ui::{Catalog, Limits};
use peers_common::{fake_server, http_response, sse_head};
use serde_json::{Value, json};

const BASIC09: &str = "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json";

fn create(sid: &str) -> Value {
    json!({"version": "v0.9", "createSurface": {"surfaceId": sid, "catalogId": BASIC09}})
}

fn snapshot(id: &str, content: Value) -> Value {
    json!({"type": "ACTIVITY_SNAPSHOT", "messageId": id, "activityType": "a2ui-surface",
           "content": content})
}

fn delta(id: &str, patch: Value) -> Value {
    json!({"type": "ACTIVITY_DELTA", "messageId": id, "activityType": "a2ui-surface",
           "patch": patch})
}

/// The nesting depth of a value (`{}` is 1), without recursion.
fn depth(v: &Value) -> usize {
    let mut max = 0;
    let mut stack = vec![(v, 1usize)];
    while let Some((v, d)) = stack.pop() {
        match v {
            Value::Array(a) => {
                max = max.max(d);
                stack.extend(a.iter().map(|x| (x, d + 1)));
            }
            Value::Object(m) => {
                max = max.max(d);
                stack.extend(m.values().map(|x| (x, d + 1)));
            }
            _ => {}
        }
    }
    max
}

fn patch_limit(ev: &[TransportEvent]) -> Option<&'static str> {
    ev.iter().find_map(|e| match e {
        TransportEvent::Notice(TransportError::PatchLimit { what, .. }) => Some(*what),
        _ => None,
    })
}

/// The review's H3 input: a 1 KiB list, then one delta of forty `copy /x → /x/-`
/// (2^40 KiB if applied). It ends as a typed `PatchLimit` notice, the activity is as it
/// was, its content stays within `max_message_bytes`, and the session goes on: a normal
/// delta applies next.
#[test]
fn the_doubling_copy_delta_is_refused_and_the_activity_stays() {
    let limits = Limits::default();
    let mut s =
        AguiSession::new("http://127.0.0.1:1/", Catalog::basic()).with_limits(limits.clone());
    let content = json!({"a2ui_operations": [create("s")], "x": ["k".repeat(1024)]});
    s.on_item(Ok(snapshot("m", content.clone())));
    assert!(s.store().surface("s").is_some());
    let copy = json!({"op": "copy", "from": "/x", "path": "/x/-"});
    let ev = s.on_item(Ok(delta("m", Value::Array(vec![copy; 40]))));
    assert_eq!(patch_limit(&ev), Some("max_message_bytes"), "{ev:?}");
    let a = s.activity("m").unwrap();
    assert_eq!(a.content(), &content, "the activity is as it was");
    assert!(a.content().to_string().len() <= limits.max_message_bytes);
    assert!(s.store().surface("s").is_some());

    // More operations than `max_patch_ops` are refused before any is applied.
    let small = json!({"op": "add", "path": "/y", "value": 1});
    let ev = s.on_item(Ok(delta(
        "m",
        Value::Array(vec![small; limits.max_patch_ops + 1]),
    )));
    assert_eq!(patch_limit(&ev), Some("max_patch_ops"));
    assert!(s.activity("m").unwrap().content().get("y").is_none());

    // A normal delta still applies.
    let ev = s.on_item(Ok(delta(
        "m",
        json!([{"op": "add", "path": "/a2ui_operations/-", "value": create("t")}]),
    )));
    assert_eq!(patch_limit(&ev), None, "{ev:?}");
    assert!(s.store().surface("t").is_some());
    assert_eq!(s.activity("m").unwrap().operations_applied(), 2);
}

/// The review's move chain: each event's triple `add /t {}`, `move /c → /t/c`,
/// `move /t → /c` nests `/c` one level deeper. Over many events it stops at
/// `max_json_depth` with a typed notice, the content never passes it, and the session
/// (and its content) drops without overflowing the stack.
#[test]
fn the_move_nesting_chain_is_refused_at_the_depth_cap() {
    let limits = Limits::default();
    let mut s =
        AguiSession::new("http://127.0.0.1:1/", Catalog::basic()).with_limits(limits.clone());
    s.on_item(Ok(snapshot("m", json!({"c": {}}))));
    let triple = json!([
        {"op": "add", "path": "/t", "value": {}},
        {"op": "move", "from": "/c", "path": "/t/c"},
        {"op": "move", "from": "/t", "path": "/c"}
    ]);
    let mut refused_at = None;
    for i in 0..10_000 {
        let ev = s.on_item(Ok(delta("m", triple.clone())));
        if let Some(what) = patch_limit(&ev) {
            assert_eq!(what, "max_json_depth");
            refused_at = Some(i);
            break;
        }
    }
    let refused_at = refused_at.expect("the chain is refused");
    let d = depth(s.activity("m").unwrap().content());
    assert!(d <= limits.max_json_depth, "depth {d}");
    assert!(
        d >= limits.max_json_depth - 2,
        "it nested up to the cap first (depth {d})"
    );
    assert!(refused_at < limits.max_json_depth);
    // Still refused on the next event, and the content is unchanged by it.
    let before = s.activity("m").unwrap().content().clone();
    let ev = s.on_item(Ok(delta("m", triple)));
    assert_eq!(patch_limit(&ev), Some("max_json_depth"));
    assert_eq!(s.activity("m").unwrap().content(), &before);
    drop(s);
}

/// Past `max_activities` the oldest activity goes, with its surfaces.
#[test]
fn activities_over_the_cap_drop_the_oldest_with_their_surfaces() {
    let limits = Limits {
        max_activities: 3,
        ..Limits::default()
    };
    let mut s = AguiSession::new("http://127.0.0.1:1/", Catalog::basic()).with_limits(limits);
    for i in 0..5 {
        s.on_item(Ok(snapshot(
            &format!("a{i}"),
            json!({"a2ui_operations": [create(&format!("s{i}"))]}),
        )));
    }
    let kept: Vec<&str> = s.activities().map(|(id, _)| id).collect();
    assert_eq!(kept, ["a2", "a3", "a4"]);
    assert!(s.store().surface("s0").is_none() && s.store().surface("s1").is_none());
    for sid in ["s2", "s3", "s4"] {
        assert!(s.store().surface(sid).is_some(), "{sid}");
    }
    // By bytes: one large activity pushes the older ones out, and stays itself.
    let limits = Limits {
        max_activity_bytes: 10_000,
        ..Limits::default()
    };
    let mut s = AguiSession::new("http://127.0.0.1:1/", Catalog::basic()).with_limits(limits);
    s.on_item(Ok(snapshot("small", json!({"status": "building"}))));
    s.on_item(Ok(snapshot("big", json!({"status": "x".repeat(20_000)}))));
    let kept: Vec<&str> = s.activities().map(|(id, _)| id).collect();
    assert_eq!(kept, ["big"]);
}

/// Past `max_transcript_entries` / `max_transcript_bytes` the oldest transcript lines go,
/// and one streamed text message stops growing at the byte cap with a typed notice.
#[test]
fn the_transcript_over_its_caps_drops_the_oldest() {
    let limits = Limits {
        max_transcript_entries: 3,
        max_transcript_bytes: 1000,
        ..Limits::default()
    };
    let mut s = AguiSession::new("http://127.0.0.1:1/", Catalog::basic()).with_limits(limits);
    for i in 0..5 {
        s.on_item(Ok(
            json!({"type": "TEXT_MESSAGE_START", "messageId": format!("m{i}")}),
        ));
        s.on_item(Ok(
            json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": format!("m{i}"), "delta": format!("line {i}")}),
        ));
        s.on_item(Ok(
            json!({"type": "TEXT_MESSAGE_END", "messageId": format!("m{i}")}),
        ));
    }
    let texts: Vec<&str> = s.transcript().iter().map(|e| e.text.as_str()).collect();
    assert_eq!(texts, ["line 2", "line 3", "line 4"]);
    // The thread's messages sent back on the next run are held the same way.
    let body = s.request(&Turn::Text("next".into())).unwrap().body.unwrap();
    assert_eq!(body["messages"].as_array().unwrap().len(), 3);
    assert_eq!(body["messages"][2]["content"], "next");

    // One message streaming forever stops at the byte cap.
    s.on_item(Ok(
        json!({"type": "TEXT_MESSAGE_START", "messageId": "long"}),
    ));
    let mut notices = 0;
    for _ in 0..100 {
        let ev = s.on_item(Ok(
            json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "long", "delta": "y".repeat(100)}),
        ));
        notices += ev
            .iter()
            .filter(|e| matches!(e, TransportEvent::Notice(TransportError::TooLarge { .. })))
            .count();
    }
    let last = s.transcript().last().unwrap();
    assert_eq!(last.text.len(), 1000);
    assert_eq!(notices, 1, "told once");
    let total: usize = s.transcript().iter().map(|e| e.text.len()).sum();
    assert!(total <= 1000);
}

const SECRET: &str = "secret";

fn leaky_url(base: &str) -> String {
    // `base` is `http://127.0.0.1:PORT`.
    let rest = base.strip_prefix("http://").unwrap();
    format!("http://user:{SECRET}@{rest}/agent?token={SECRET}#k={SECRET}")
}

/// A request with an `Authorization` header and a URL with `user:secret@` and
/// `?token=secret`: no `secret` in its `Debug`, in the `Display` or `Debug` of the errors
/// of a failing run, in the events, or in the host's log.
#[tokio::test]
async fn secrets_never_reach_debug_errors_events_or_the_log() {
    let req = HttpRequest {
        url: format!("http://user:{SECRET}@127.0.0.1:9/a?token={SECRET}"),
        headers: vec![("Authorization".into(), format!("Bearer {SECRET}"))],
        body: None,
        expect: ResponseKind::Json,
    };
    let shown = format!("{req:?}");
    assert!(!shown.contains(SECRET), "{shown}");
    assert!(
        shown.contains("Authorization") && shown.contains("<redacted>"),
        "{shown}"
    );
    assert_eq!(
        redact_url(&req.url),
        "http://127.0.0.1:9/a?<redacted>",
        "the endpoint stays recognisable"
    );

    // A 500 answer, then a run cut off: each error's Display, Debug and JSON.
    let base = fake_server(
        vec![
            vec![Some(http_response(
                "500 Internal Server Error",
                "text/plain",
                b"boom",
            ))],
            vec![
                Some(sse_head()),
                Some(b"data: {\"type\":\"RUN_STARTED\",\"runId\":\"r\"}\n\n".to_vec()),
            ],
        ],
        Duration::from_secs(5),
    );
    let url = leaky_url(&base);
    let mut c = AguiClient::new(&url, Catalog::basic(), TransportOptions::default()).unwrap();
    let mut events = Vec::new();
    for _ in 0..2 {
        let r = c
            .send(&Turn::Text("hi".into()), |e| events.push(e.clone()))
            .await;
        let e = r.expect_err("both runs fail");
        for text in [e.to_string(), format!("{e:?}")] {
            assert!(!text.contains(SECRET), "{text}");
        }
    }
    assert!(events.iter().any(|e| matches!(
        e,
        TransportEvent::TurnEnded {
            error: Some(TransportError::Http { status: 500, .. })
        }
    )));
    assert!(events.iter().any(|e| matches!(
        e,
        TransportEvent::TurnEnded {
            error: Some(TransportError::Interrupted { .. })
        }
    )));
    for e in &events {
        for text in [format!("{e:?}"), e.to_json().to_string()] {
            assert!(!text.contains(SECRET), "{text}");
        }
    }
    let session = format!("{:?}", c.session());
    assert!(!session.contains(SECRET), "{session}");

    // A connection refused: reqwest's own message quotes the URL.
    let closed = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = l.local_addr().unwrap().port();
        drop(l);
        format!("http://127.0.0.1:{port}")
    };
    let mut c = AguiClient::new(
        &leaky_url(&closed),
        Catalog::basic(),
        TransportOptions::default(),
    )
    .unwrap();
    let e = c.send(&Turn::Text("hi".into()), |_| {}).await.unwrap_err();
    assert!(matches!(e, TransportError::Connect { .. }), "{e:?}");
    for text in [e.to_string(), format!("{e:?}")] {
        assert!(!text.contains(SECRET), "{text}");
    }

    // The host's log.
    let base = fake_server(
        vec![vec![Some(http_response(
            "500 Internal Server Error",
            "text/plain",
            b"boom",
        ))]],
        Duration::from_secs(5),
    );
    let mut host = AguiHost::connect(
        &leaky_url(&base),
        Catalog::basic(),
        TransportOptions::default(),
        || {},
    )
    .unwrap();
    host.send(Turn::Text("hi".into())).unwrap();
    for _ in 0..200 {
        host.poll();
        if !host.is_busy() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    assert!(!host.is_busy(), "the turn ended");
    assert!(host.log().iter().any(|e| matches!(
        e,
        TransportEvent::TurnEnded {
            error: Some(TransportError::Http { .. })
        }
    )));
    let log = format!("{:?}", host.log());
    assert!(!log.contains(SECRET), "{log}");
    let json: Vec<String> = host.log().iter().map(|e| e.to_json().to_string()).collect();
    assert!(!json.concat().contains(SECRET));
}

/// The host's log keeps at most `max_host_log_entries` events, the newest.
#[tokio::test]
async fn the_host_log_is_bounded_and_keeps_the_newest() {
    let turns = 4;
    let answer = || {
        vec![
            Some(sse_head()),
            Some(b"data: {\"type\":\"RUN_STARTED\",\"runId\":\"r\"}\n\n".to_vec()),
            Some(b"data: {\"type\":\"RUN_FINISHED\"}\n\n".to_vec()),
        ]
    };
    let base = fake_server(
        (0..turns).map(|_| answer()).collect(),
        Duration::from_secs(5),
    );
    let options = TransportOptions {
        limits: Limits {
            max_host_log_entries: 5,
            ..Limits::default()
        },
        ..TransportOptions::default()
    };
    let mut host =
        AguiHost::connect(&format!("{base}/"), Catalog::basic(), options, || {}).unwrap();
    let mut seen = 0;
    for i in 0..turns {
        host.send(Turn::Text(format!("turn {i}"))).unwrap();
        seen += 1;
        for _ in 0..200 {
            seen += host.poll().len();
            if !host.is_busy() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        assert!(!host.is_busy());
    }
    assert!(seen > 5, "more events than the cap happened ({seen})");
    assert_eq!(host.log().len(), 5);
    assert!(matches!(
        host.log().last(),
        Some(TransportEvent::TurnEnded { error: None })
    ));
    // The newest request is the last turn's.
    let last_request = host.log().iter().rev().find_map(|e| match e {
        TransportEvent::Request { body, .. } => Some(body.clone()),
        _ => None,
    });
    let body = last_request.expect("the last request is kept");
    let messages = body["messages"].as_array().unwrap();
    assert_eq!(
        messages.last().unwrap()["content"],
        format!("turn {}", turns - 1)
    );
}
