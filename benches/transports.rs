//! `transports`: (1) from the first byte of a streamed response to the first drawn component,
//! per transport (the bytes are what the peers in `tests/peers/` send for the first turn;
//! the path is SSE framing → JSON → the sans-IO session → the store → one headless egui frame
//! that draws the surface); (2) AG-UI: N operations arriving as append `ACTIVITY_DELTA`s
//! against the same operations arriving as N replacing `ACTIVITY_SNAPSHOT`s (each holding
//! every operation so far), bytes to store, reported as operations per second.
//! No network: the bytes are made here.

mod common;

use std::hint::black_box;

use common::*;
use egui_a2ui::Catalog;
use egui_a2ui::mcp::AppSession;
use egui_a2ui::render::DrawState;
use egui_a2ui::transport::Turn;
use egui_a2ui::transport::a2a::{A2aSession, AgentCard};
use egui_a2ui::transport::agui::AguiSession;
use egui_a2ui::transport::host::HttpSession;
use egui_a2ui::transport::sse::SseDecoder;
use serde_json::{Value, json};

fn step1() -> Vec<Value> {
    vec![create("results")]
}

fn step2() -> Vec<Value> {
    vec![
        components(
            "results",
            vec![
                json!({"id": "root", "component": "Column", "children": ["title", "list"]}),
                json!({"id": "title", "component": "Text", "text": {"path": "/title"}, "variant": "h2"}),
                json!({"id": "list", "component": "Column", "children": []}),
            ],
        ),
        data("results", "/title", json!("Searching...")),
    ]
}

fn sse(events: &[Value]) -> Vec<u8> {
    let mut out = Vec::new();
    for e in events {
        out.extend_from_slice(b"data: ");
        serde_json::to_writer(&mut out, e).expect("json");
        out.extend_from_slice(b"\n\n");
    }
    out
}

fn a2a03_bytes() -> Vec<u8> {
    let part = |m: &Value| json!({"kind": "data", "data": m, "metadata": {"mimeType": "application/json+a2ui"}});
    let status = |id: &str, parts: Vec<Value>| {
        json!({"jsonrpc": "2.0", "id": 1, "result": {"kind": "status-update", "taskId": "t",
            "contextId": "c", "final": false, "status": {"state": "working", "message": {
                "kind": "message", "role": "agent", "messageId": id, "parts": parts}}}})
    };
    let mut p1 = vec![json!({"kind": "text", "text": "Searching for 'pasta'..."})];
    p1.extend(step1().iter().map(part));
    sse(&[
        json!({"jsonrpc": "2.0", "id": 1, "result": {"kind": "task", "id": "t", "contextId": "c",
            "status": {"state": "submitted"}, "history": [{"kind": "message", "role": "user",
            "messageId": "u", "parts": [{"kind": "text", "text": "pasta"}]}]}}),
        status("m1", p1),
        status("m2", step2().iter().map(part).collect()),
    ])
}

fn a2a10_bytes() -> Vec<u8> {
    let status = |id: &str, parts: Vec<Value>| {
        json!({"jsonrpc": "2.0", "id": 1, "result": {"statusUpdate": {"taskId": "t",
            "contextId": "c", "status": {"state": "TASK_STATE_WORKING", "message": {
                "role": "ROLE_AGENT", "messageId": id, "parts": parts}}}}})
    };
    sse(&[
        json!({"jsonrpc": "2.0", "id": 1, "result": {"task": {"id": "t", "contextId": "c",
            "status": {"state": "TASK_STATE_SUBMITTED"}}}}),
        status(
            "m1",
            vec![
                json!({"text": "Searching for 'pasta'..."}),
                json!({"data": step1(), "mediaType": "application/a2ui+json"}),
            ],
        ),
        status(
            "m2",
            vec![json!({"data": step2(), "mediaType": "application/a2ui+json"})],
        ),
    ])
}

fn agui_bytes() -> Vec<u8> {
    let mut events = vec![
        json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r"}),
        json!({"type": "TEXT_MESSAGE_START", "messageId": "m", "role": "assistant"}),
        json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "Searching for 'pasta'..."}),
        json!({"type": "TEXT_MESSAGE_END", "messageId": "m"}),
        json!({"type": "ACTIVITY_SNAPSHOT", "messageId": "a", "activityType": "a2ui-surface",
               "content": {"status": "building", "progressTokens": 12}, "replace": true}),
        json!({"type": "ACTIVITY_SNAPSHOT", "messageId": "a", "activityType": "a2ui-surface",
               "content": {"a2ui_operations": step1()}, "replace": true}),
    ];
    for m in step2() {
        events.push(
            json!({"type": "ACTIVITY_DELTA", "messageId": "a", "activityType": "a2ui-surface",
            "patch": [{"op": "add", "path": "/a2ui_operations/-", "value": m}]}),
        );
    }
    sse(&events)
}

fn mcp_bytes() -> Vec<u8> {
    let mut msgs = step1();
    msgs.extend(step2());
    serde_json::to_vec(&json!({"content": [
        {"type": "text", "text": "Found 3 restaurants."},
        {"type": "resource", "resource": {"uri": "a2ui://r/1", "mimeType": "application/a2ui+json",
            "text": serde_json::to_string(&msgs).expect("json")}, "_meta": {"ui": {"content": {}}}}
    ]}))
    .expect("json")
}

fn card(dialect10: bool) -> AgentCard {
    let ext = json!({"streaming": true, "extensions": [{"uri": "https://a2ui.org/a2a-extension/a2ui/v0.9"}]});
    let c = if dialect10 {
        json!({"name": "b", "capabilities": ext, "supportedInterfaces": [
            {"url": "http://127.0.0.1:9/", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}]})
    } else {
        json!({"name": "b", "url": "http://127.0.0.1:9/", "capabilities": ext})
    };
    AgentCard::parse(&c, "http://127.0.0.1:9").expect("card")
}

/// Bytes in, until a surface can be drawn, then one frame that draws it.
fn first_draw<S: HttpSession>(
    mut session: S,
    bytes: &[u8],
    ctx: &egui::Context,
    input: &egui::RawInput,
) -> usize {
    let mut decoder = SseDecoder::new(4 << 20);
    let mut draw = DrawState::new(Catalog::basic());
    for chunk in bytes.chunks(512) {
        for ev in decoder.feed(chunk) {
            let item = ev.and_then(|e| {
                serde_json::from_str(&e.data).map_err(|x| {
                    egui_a2ui::transport::TransportError::MalformedPayload(x.to_string())
                })
            });
            black_box(session.on_item(item));
            if session
                .store()
                .surfaces()
                .any(egui_a2ui::Surface::is_visible)
            {
                return draw_frame(ctx, input, |ui| {
                    black_box(draw.ui(session.store_mut(), ui));
                });
            }
        }
    }
    panic!("nothing drawable in the stream");
}

fn first_draw_mcp(bytes: &[u8], ctx: &egui::Context, input: &egui::RawInput) -> usize {
    let result: Value = serde_json::from_slice(bytes).expect("json");
    let mut s = AppSession::new(
        "call-1",
        "agent",
        "search",
        egui_a2ui::model::Catalogs::basic(),
    );
    black_box(s.on_tool_result(&result).expect("result"));
    let mut draw = DrawState::new(Catalog::basic());
    draw_frame(ctx, input, |ui| {
        black_box(draw.ui(s.store_mut(), ui));
    })
}

/// One headless frame and its tessellation (the font atlas delta is dropped on purpose:
/// nothing paints here).
fn draw_frame(ctx: &egui::Context, input: &egui::RawInput, ui: impl FnMut(&mut egui::Ui)) -> usize {
    let mut out = ctx.run_ui(input.clone(), ui);
    out.textures_delta.clear();
    let prims = ctx.tessellate(std::mem::take(&mut out.shapes), out.pixels_per_point);
    black_box(prims.len())
}

fn a2a_session(dialect10: bool) -> A2aSession {
    let mut s = A2aSession::new(card(dialect10), Catalog::basic()).expect("session");
    let _ = s.request(&Turn::Text("pasta".into()));
    s
}

fn agui_session() -> AguiSession {
    let mut s = AguiSession::new("http://127.0.0.1:9/", Catalog::basic());
    let _ = s.request(&Turn::Text("pasta".into()));
    s
}

/// N operations as a snapshot + N append deltas, or as N replacing snapshots.
fn agui_ops_streams(n: usize) -> (Vec<u8>, Vec<u8>) {
    let root = components(
        "s",
        vec![json!({"id": "root", "component": "Column",
        "children": (0..n).map(|i| format!("c{i}")).collect::<Vec<_>>()})],
    );
    let op = |i: usize| {
        components(
            "s",
            vec![json!({"id": format!("c{i}"), "component": "Text", "text": format!("item {i}")})],
        )
    };
    let snap = |ops: &[Value]| {
        json!({"type": "ACTIVITY_SNAPSHOT", "messageId": "a",
        "activityType": "a2ui-surface", "content": {"a2ui_operations": ops}, "replace": true})
    };
    let mut ops = vec![create("s"), root];
    let mut deltas = vec![snap(&ops)];
    let mut snaps = vec![snap(&ops)];
    for i in 0..n {
        let o = op(i);
        deltas.push(
            json!({"type": "ACTIVITY_DELTA", "messageId": "a", "activityType": "a2ui-surface",
            "patch": [{"op": "add", "path": "/a2ui_operations/-", "value": o}]}),
        );
        ops.push(o);
        snaps.push(snap(&ops));
    }
    (sse(&deltas), sse(&snaps))
}

fn feed_all(bytes: &[u8]) -> usize {
    let mut s = AguiSession::new("http://127.0.0.1:9/", Catalog::basic());
    let mut decoder = SseDecoder::new(64 << 20);
    for ev in decoder.feed(bytes) {
        let item = ev.and_then(|e| {
            serde_json::from_str(&e.data)
                .map_err(|x| egui_a2ui::transport::TransportError::MalformedPayload(x.to_string()))
        });
        black_box(s.on_item(item));
    }
    s.store().surface("s").map_or(0, |x| x.components().len())
}

fn groups(c: &mut criterion::Criterion) {
    let ctx = egui::Context::default();
    let input = raw_input(800.0, 600.0);
    let (b03, b10, bag, bmcp) = (a2a03_bytes(), a2a10_bytes(), agui_bytes(), mcp_bytes());
    let mut g = c.benchmark_group("first_byte_to_first_draw");
    g.bench_function("a2a_0_3", |b| {
        b.iter(|| first_draw(a2a_session(false), &b03, &ctx, &input));
    });
    g.bench_function("a2a_1_0", |b| {
        b.iter(|| first_draw(a2a_session(true), &b10, &ctx, &input));
    });
    g.bench_function("agui", |b| {
        b.iter(|| first_draw(agui_session(), &bag, &ctx, &input));
    });
    g.bench_function("mcp", |b| b.iter(|| first_draw_mcp(&bmcp, &ctx, &input)));
    g.finish();
    let n = size(500, 20);
    let (deltas, snaps) = agui_ops_streams(n);
    let mut g = c.benchmark_group("agui_operations");
    g.bench_function(format!("append_deltas_{n}"), |b| {
        b.iter(|| feed_all(&deltas));
    });
    g.bench_function(format!("replacing_snapshots_{n}"), |b| {
        b.iter(|| feed_all(&snaps));
    });
    g.finish();
}

fn main() {
    if !summary_only() {
        let mut c = criterion();
        groups(&mut c);
        c.final_summary();
    }
    let ctx = egui::Context::default();
    let input = raw_input(800.0, 600.0);
    let (b03, b10, bag, bmcp) = (a2a03_bytes(), a2a10_bytes(), agui_bytes(), mcp_bytes());
    for (name, t) in [
        (
            "a2a_0_3_first_draw_us",
            single(15, 20, || {
                black_box(first_draw(a2a_session(false), &b03, &ctx, &input));
            }),
        ),
        (
            "a2a_1_0_first_draw_us",
            single(15, 20, || {
                black_box(first_draw(a2a_session(true), &b10, &ctx, &input));
            }),
        ),
        (
            "agui_first_draw_us",
            single(15, 20, || {
                black_box(first_draw(agui_session(), &bag, &ctx, &input));
            }),
        ),
        (
            "mcp_first_draw_us",
            single(15, 20, || {
                black_box(first_draw_mcp(&bmcp, &ctx, &input));
            }),
        ),
    ] {
        summary("transports", name, us(t), None);
    }
    let n = size(500, 20);
    let (deltas, snaps) = agui_ops_streams(n);
    assert_eq!(
        feed_all(&deltas),
        feed_all(&snaps),
        "both ways build the same surface"
    );
    let p = paired(
        7,
        3,
        || {
            black_box(feed_all(&deltas));
        },
        || {
            black_box(feed_all(&snaps));
        },
    );
    summary(
        "transports",
        &format!("agui_delta_ops_per_s_n{n}"),
        n as f64 / p.a.as_secs_f64(),
        None,
    );
    summary(
        "transports",
        &format!("agui_snapshot_ops_per_s_n{n}"),
        n as f64 / p.b.as_secs_f64(),
        None,
    );
    summary(
        "transports",
        "agui_snapshot_over_delta_time",
        1.0 / p.ratio,
        None,
    );
}
