//! MCP 2026-07-28 against the official Python SDK (`mcp` 2.3.0, `tests/peers/mcp26_peer.py`:
//! discover-only, the Apps extension announced only in `server/discover`), the fallback to
//! `initialize` for an older server (rmcp, in process), resource updates through
//! `subscriptions/listen`, `ttlMs` honoured by `resources/read`, cancel and a cut stream.

use std::io::{Read, Write};
use std::time::Duration;

use egui_a2ui::Catalog;
use egui_a2ui::transport::mcp_http::{McpClient, McpHost};
use egui_a2ui::transport::{TaskState, TransportError, TransportEvent, TransportOptions, Turn};
use serde_json::{Value, json};

use crate::common::peers::{Peer, Venv, start};

/// The peer's record (`GET /peer/seen`): the JSON-RPC methods POSTed, the reads served.
fn seen(peer: &Peer) -> Value {
    let mut conn = std::net::TcpStream::connect(("127.0.0.1", peer.port)).expect("connect");
    conn.set_read_timeout(Some(Duration::from_secs(10)))
        .expect("timeout");
    write!(
        conn,
        "GET /peer/seen HTTP/1.0\r\nHost: 127.0.0.1:{}\r\n\r\n",
        peer.port
    )
    .expect("write");
    let mut raw = String::new();
    conn.read_to_string(&mut raw).expect("read");
    let body = raw.split_once("\r\n\r\n").map(|(_, b)| b).unwrap_or("");
    serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {raw}"))
}

fn methods(peer: &Peer) -> Vec<String> {
    seen(peer)["seen"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|m| m.as_str().map(str::to_owned))
        .collect()
}

/// Poll until `done` (bounded: 30 s), returning every event seen.
fn poll_until(h: &mut McpHost, mut done: impl FnMut(&McpHost) -> bool) -> Vec<TransportEvent> {
    let mut events = Vec::new();
    for _ in 0..3000 {
        events.extend(h.poll());
        if done(h) {
            return events;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!("not reached in 30 s: {events:?} {:?}", h.connect_error());
}

fn connect(peer: &Peer) -> McpHost {
    let mut h = McpHost::connect(
        &peer.url("/mcp"),
        &Catalog::basic(),
        TransportOptions::default(),
        || {},
    )
    .expect("connect");
    poll_until(&mut h, |h| !h.is_busy());
    assert!(h.connect_error().is_none(), "{:?}", h.connect_error());
    h
}

fn board_count(h: &McpHost) -> Option<Value> {
    h.conversation()
        .stores()
        .find_map(|s| s.surface("status"))
        .and_then(|s| s.data.get("/count").cloned())
}

fn turn_error(events: &[TransportEvent]) -> Option<&TransportError> {
    events.iter().find_map(|e| match e {
        TransportEvent::TurnEnded { error } => error.as_ref(),
        _ => None,
    })
}

#[test]
fn a_discover_only_server_on_mcp_2026_07_28_is_reached_and_its_surface_drawn() {
    let peer = start(Venv::Main, "mcp26_peer.py");
    let mut h = connect(&peer);
    assert_eq!(h.protocol_version(), Some("2026-07-28"));
    let m = methods(&peer);
    assert!(m.iter().any(|m| m == "server/discover"), "{m:?}");
    assert!(!m.iter().any(|m| m == "initialize"), "{m:?}");

    h.send(Turn::Text("pasta".into())).expect("send");
    let events = poll_until(&mut h, |h| !h.is_busy());
    assert_eq!(turn_error(&events), None, "{events:?}");
    // The server drew only because the request's `_meta` carried the UI extension with
    // native A2UI: the surface and every component it sent are in the store.
    let store = h
        .conversation()
        .stores()
        .find(|s| s.surface("status").is_some())
        .unwrap_or_else(|| panic!("no status surface: {events:?}"));
    let surface = store.surface("status").expect("status");
    for id in ["root", "title", "count"] {
        assert!(surface.component(id).is_some(), "{id} missing");
    }
    assert_eq!(surface.data.get("/count"), Some(&json!(0)));
    assert!(
        h.conversation()
            .transcript()
            .iter()
            .any(|t| t.text.contains("Status for pasta"))
    );
}

#[test]
fn updates_come_through_subscriptions_listen_and_reads_honour_ttl() {
    let peer = start(Venv::Main, "mcp26_peer.py");
    let mut h = connect(&peer);
    h.send(Turn::Text("pasta".into())).expect("send");
    poll_until(&mut h, |h| !h.is_busy());
    assert_eq!(board_count(&h), Some(json!(0)));
    // The board's URI is watched on the new revision's way: one listen stream.
    for _ in 0..500 {
        h.poll();
        if methods(&peer).iter().any(|m| m == "subscriptions/listen") {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let m = methods(&peer);
    assert!(m.iter().any(|m| m == "subscriptions/listen"), "{m:?}");
    assert!(!m.iter().any(|m| m == "resources/subscribe"), "{m:?}");

    // `bump` announces an update; the host reads the board again and applies it. (A bump
    // racing the listen stream's registration on the server is missed: bounded retries.)
    let mut moved = false;
    for _ in 0..10 {
        h.send(Turn::Text("bump {}".into())).expect("bump");
        poll_until(&mut h, |h| !h.is_busy());
        for _ in 0..100 {
            h.poll();
            if board_count(&h).is_some_and(|c| c != json!(0)) {
                moved = true;
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        if moved {
            break;
        }
    }
    assert!(moved, "no update applied: {:?}", h.log());
    assert!(seen(&peer)["reads"].as_u64() >= Some(1));
}

#[tokio::test]
async fn a_read_inside_its_ttl_is_served_from_the_cache() {
    let peer = start(Venv::Main, "mcp26_peer.py");
    let c = McpClient::connect_http(&peer.url("/mcp"), &TransportOptions::default())
        .await
        .expect("connect");
    assert!(c.is_stateless());
    assert!(
        c.server_ui_extension().is_some(),
        "the Apps extension, announced in server/discover"
    );
    let first = c.read_resource("a2ui://status/board").await.expect("read");
    assert_eq!(first["ttlMs"], json!(60_000), "{first}");
    let again = c.read_resource("a2ui://status/board").await.expect("read");
    assert_eq!(first["contents"], again["contents"]);
    // The server answered once: the second read was fresh in the cache for 60 s.
    assert_eq!(seen(&peer)["reads"], json!(1));
    c.close().await;
}

#[test]
fn a_stalled_call_is_cancelled_and_the_next_turn_works() {
    let peer = start(Venv::Main, "mcp26_peer.py");
    let mut h = connect(&peer);
    h.send(Turn::Text("fault:stall".into())).expect("send");
    for _ in 0..500 {
        h.poll();
        if seen(&peer)["stall"] == json!("started") {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(seen(&peer)["stall"], json!("started"));
    assert!(h.is_busy());
    h.cancel().expect("cancel");
    assert!(!h.is_busy(), "the UI is free at once");
    let events = poll_until(&mut h, |h| {
        h.conversation().state() == Some(&TaskState::Canceled)
    });
    assert!(
        events.iter().any(|e| matches!(
            e,
            TransportEvent::State {
                state: TaskState::Canceled,
                ..
            }
        )),
        "{events:?}"
    );
    // On 2026-07-28 over HTTP a request is cancelled by closing its response stream (the
    // revision has no client notifications there): the server's handler is stopped.
    let mut stopped = false;
    for _ in 0..500 {
        if seen(&peer)["stall"] == json!("cancelled") {
            stopped = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(stopped, "{}", seen(&peer));
    h.send(Turn::Text("pasta".into())).expect("next turn");
    let events = poll_until(&mut h, |h| !h.is_busy());
    assert_eq!(turn_error(&events), None, "{events:?}");
    assert_eq!(h.conversation().state(), Some(&TaskState::Completed));
    assert!(board_count(&h).is_some());
}

#[test]
fn a_cut_stream_is_a_typed_error_the_surfaces_stay_and_the_next_turn_works() {
    let peer = start(Venv::Main, "mcp26_peer.py");
    let mut h = connect(&peer);
    h.send(Turn::Text("pasta".into())).expect("send");
    poll_until(&mut h, |h| !h.is_busy());
    assert!(board_count(&h).is_some());

    h.send(Turn::Text("fault:cut".into())).expect("send");
    let events = poll_until(&mut h, |h| !h.is_busy());
    let error = turn_error(&events).unwrap_or_else(|| panic!("no error: {events:?}"));
    assert!(
        matches!(
            error,
            TransportError::Mcp(_) | TransportError::Interrupted { .. }
        ),
        "{error:?}"
    );
    assert_eq!(h.conversation().state(), Some(&TaskState::Failed));
    assert!(board_count(&h).is_some(), "the drawn surface stays");

    h.send(Turn::Text("pasta".into())).expect("next turn");
    let events = poll_until(&mut h, |h| !h.is_busy());
    assert_eq!(turn_error(&events), None, "{events:?}");
    assert_eq!(h.conversation().state(), Some(&TaskState::Completed));
}

mod legacy {
    //! A server that knows only the handshake revisions (rmcp, in process).
    use std::borrow::Cow;
    use std::sync::{Arc, Mutex};

    use rmcp::model::{
        ErrorData, Implementation, ProtocolVersion, ServerCapabilities, ServerConfig,
        SubscribeRequestParams,
    };
    use rmcp::service::RequestContext;
    use rmcp::{RoleServer, ServerHandler, ServiceExt};

    #[derive(Clone, Default)]
    pub struct Legacy {
        pub capabilities: Arc<Mutex<Option<serde_json::Value>>>,
        pub subscribed: Arc<Mutex<Vec<String>>>,
    }

    impl ServerHandler for Legacy {
        fn get_info(&self) -> ServerConfig {
            ServerConfig::new(
                ServerCapabilities::builder()
                    .enable_tools()
                    .enable_resources()
                    .enable_resources_subscribe()
                    .build(),
            )
            .with_server_info(Implementation::new("legacy", "1"))
        }

        fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
            Cow::Owned(vec![
                ProtocolVersion::V_2025_06_18,
                ProtocolVersion::V_2025_11_25,
            ])
        }

        async fn initialize(
            &self,
            request: rmcp::model::InitializeRequestParams,
            context: RequestContext<RoleServer>,
        ) -> Result<rmcp::model::InitializeResult, ErrorData> {
            if let Ok(mut c) = self.capabilities.lock() {
                *c = serde_json::to_value(&request.capabilities).ok();
            }
            context.peer.set_peer_info(request.clone());
            self.negotiate_initialize(&request)
        }

        async fn subscribe(
            &self,
            request: SubscribeRequestParams,
            _context: RequestContext<RoleServer>,
        ) -> Result<(), ErrorData> {
            if let Ok(mut s) = self.subscribed.lock() {
                s.push(request.uri);
            }
            Ok(())
        }
    }

    pub fn serve(server: Legacy) -> tokio::io::DuplexStream {
        let (client, srv) = tokio::io::duplex(64 * 1024);
        tokio::spawn(async move {
            if let Ok(running) = server.serve(srv).await {
                let _ = running.waiting().await;
            }
        });
        client
    }
}

#[tokio::test]
async fn an_older_server_is_reached_through_initialize_with_the_ui_extension_in_it() {
    let server = legacy::Legacy::default();
    let mut attempts = 0;
    let c = McpClient::connect_with_fallback(|| {
        attempts += 1;
        legacy::serve(server.clone())
    })
    .await
    .expect("connect");
    assert_eq!(
        attempts, 2,
        "discover on one connection, initialize on another"
    );
    // server/discover was refused, so the handshake: at the newest version both know.
    assert_eq!(c.protocol_version(), "2025-11-25");
    assert!(!c.is_stateless());
    assert!(c.can_subscribe());
    let caps = server
        .capabilities
        .lock()
        .ok()
        .and_then(|c| c.clone())
        .expect("initialize arrived");
    let ui = &caps["extensions"]["io.modelcontextprotocol/ui"];
    let listed: Vec<&str> = ui["mimeTypes"]
        .as_array()
        .into_iter()
        .chain(ui["contentMimeTypes"].as_array())
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    assert!(
        listed.contains(&"application/a2ui+json"),
        "native A2UI advertised at initialize: {caps}"
    );
    c.close().await;
}
