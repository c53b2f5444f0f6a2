//! The one agent shape (`egui_a2ui::agent::Agent`) over the real peers: the same calls reach
//! A2A, AG-UI and MCP; a turn in flight is cancelled on each; the stores carry the origin the
//! transport knows.

use std::time::Duration;

use egui_a2ui::Catalog;
use egui_a2ui::agent::{Agent, ConnectionStatus, ThreadEntry};
use egui_a2ui::transport::{TaskState, TransportEvent, TransportOptions, Turn};

use crate::common::peers::{Venv, start};

/// Poll until `done` (bounded: 30 s), returning every event seen.
fn poll_until(agent: &mut Agent, mut done: impl FnMut(&Agent) -> bool) -> Vec<TransportEvent> {
    let mut events = Vec::new();
    for _ in 0..3000 {
        events.extend(agent.poll());
        if done(agent) {
            return events;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!("not reached in 30 s: {:?}", agent.thread());
}

fn connect(target: &str) -> Agent {
    let mut agent = Agent::connect(target, Catalog::basic(), TransportOptions::default(), || {})
        .expect("connect");
    poll_until(&mut agent, |a| a.status() != ConnectionStatus::Connecting);
    assert_eq!(
        agent.status(),
        ConnectionStatus::Ready,
        "{:?}",
        agent.status()
    );
    agent
}

fn surfaces(agent: &Agent) -> usize {
    agent
        .thread()
        .iter()
        .filter(|e| matches!(e, ThreadEntry::Surface { .. }))
        .count()
}

#[test]
fn one_shape_reaches_a2a_agui_and_mcp_and_labels_their_surfaces() {
    let a2a = start(Venv::Main, "a2a03_peer.py");
    let agui = start(Venv::Main, "agui_peer.py");
    let mcp = start(Venv::Main, "mcp_peer.py");
    for (target, kind) in [
        (format!("a2a+{}", a2a.url("")), "A2A"),
        (format!("agui+{}", agui.url("/")), "AG-UI"),
        (format!("mcp+{}", mcp.url("/mcp")), "MCP"),
    ] {
        let mut agent = connect(&target);
        assert_eq!(agent.kind(), kind);
        agent.send(Turn::Text("pasta".into())).expect("send");
        poll_until(&mut agent, |a| !a.is_busy());
        assert!(surfaces(&agent) >= 1, "{kind}: {:?}", agent.thread());
        assert!(matches!(agent.thread()[0], ThreadEntry::User { .. }));
        // The transport's word on who this is, on every store: never the agent's.
        for store in agent.stores() {
            let origin = store
                .origin()
                .map(egui_a2ui::model::AgentOrigin::label)
                .unwrap_or_default();
            assert!(origin.contains("127.0.0.1"), "{kind}: {origin}");
        }
    }
}

#[test]
fn a_turn_in_flight_is_cancelled_on_a2a_and_the_next_turn_works() {
    let a2a = start(Venv::Main, "a2a03_peer.py");
    let mut agent = connect(&format!("a2a+{}", a2a.url("")));
    // The peer sends one step, then stalls for 30 s.
    agent.send(Turn::Text("fault:stall".into())).expect("send");
    poll_until(&mut agent, |a| surfaces(a) >= 1);
    assert!(agent.is_busy());
    agent.cancel().expect("cancel");
    assert!(!agent.is_busy(), "the UI is free at once");
    let events = poll_until(&mut agent, |a| a.state() == Some(&TaskState::Canceled));
    assert!(
        events.iter().any(|e| matches!(e,
            TransportEvent::Request { method, .. } if method == "tasks/cancel")),
        "{events:?}"
    );
    // The drawn surface stays, and the next turn goes through.
    assert!(surfaces(&agent) >= 1);
    agent.send(Turn::Text("pasta".into())).expect("next turn");
    poll_until(&mut agent, |a| !a.is_busy());
    assert_ne!(agent.state(), Some(&TaskState::Canceled));
}

#[test]
fn a_run_in_flight_is_cancelled_on_agui_by_closing_its_stream() {
    let agui = start(Venv::Main, "agui_peer.py");
    let mut agent = connect(&format!("agui+{}", agui.url("/")));
    agent.send(Turn::Text("fault:stall".into())).expect("send");
    // The building activity shows (the run is streaming), then the peer goes quiet.
    poll_until(&mut agent, |a| {
        a.thread().iter().any(|e| {
            matches!(
                e,
                ThreadEntry::Activity {
                    status: Some(_),
                    ..
                }
            )
        })
    });
    assert!(agent.is_busy());
    agent.cancel().expect("cancel");
    poll_until(&mut agent, |a| a.state() == Some(&TaskState::Canceled));
    agent.send(Turn::Text("pasta".into())).expect("next turn");
    poll_until(&mut agent, |a| !a.is_busy());
    assert!(surfaces(&agent) >= 1, "{:?}", agent.thread());
}

/// `target/<profile>/examples/mcp_demo_server`, the flight server over stdio (built here when
/// missing).
fn demo_server() -> std::path::PathBuf {
    let test = std::env::current_exe().expect("test exe");
    let dir = test.parent().and_then(|d| d.parent()).expect("target dir");
    let path = dir.join("examples").join("mcp_demo_server");
    if !path.exists() {
        let status = std::process::Command::new(env!("CARGO"))
            .args(["build", "--example", "mcp_demo_server"])
            .status()
            .expect("cargo build");
        assert!(status.success());
    }
    path
}

/// The server's path as one quoted word of a command line.
fn quoted(path: &std::path::Path) -> String {
    format!("'{}'", path.display())
}

#[test]
fn mcp_over_stdio_spawns_the_server_and_keeps_its_tool_rules() {
    let target = format!("mcp+stdio:{}", quoted(&demo_server()));
    let mut agent = connect(&target);
    assert_eq!(agent.kind(), "MCP stdio");
    let origin = agent.origin().map(|o| o.label()).unwrap_or_default();
    assert!(
        origin.contains("stdio: ") && origin.contains("mcp_demo_server"),
        "{origin}"
    );
    // A text turn stands for the model: the app-only tool is refused, nothing is sent.
    let refused = agent
        .send(Turn::Text(r#"select_flight {"flightId": "LY005"}"#.into()))
        .expect_err("app-only");
    assert!(refused.to_string().contains("app-only"), "{refused}");
    assert!(!agent.is_busy());

    // Plain text goes to the model-visible tool, as its string argument.
    agent.send(Turn::Text("SFO".into())).expect("send");
    let events = poll_until(&mut agent, |a| !a.is_busy());
    assert!(
        events.iter().any(|e| matches!(e,
            TransportEvent::Request { method, body } if method == "tools/call"
                && body["name"] == "search_flights"
                && body["_meta"]["a2ui"]["clientCapabilities"].is_object())),
        "the request, with the catalogs advertised: {events:?}"
    );
    assert!(
        agent
            .thread()
            .iter()
            .any(|e| matches!(e, ThreadEntry::Agent { text } if text.contains("flights to SFO"))),
        "{:?}",
        agent.thread()
    );
    assert_eq!(surfaces(&agent), 1);
    let store = agent.stores()[0];
    assert!(
        store
            .origin()
            .is_some_and(|o| o.label().contains("stdio: ")),
        "the store is labelled with the connection's origin"
    );
    // A button on the surface calls the app-only tool through the surface's session.
    let action = egui_a2ui::transport::find_action(store, "select_button").expect("a button");
    agent.send(Turn::Action(action)).expect("action");
    let events = poll_until(&mut agent, |a| !a.is_busy());
    assert!(
        events.iter().any(|e| matches!(e,
            TransportEvent::Request { body, .. } if body["name"] == "select_flight")),
        "{events:?}"
    );
    assert_eq!(agent.state(), Some(&TaskState::Completed));
    let confirmation = agent.stores()[0]
        .surface("flights")
        .and_then(|s| s.data.get("/selected/confirmation").cloned());
    assert!(
        confirmation.is_some_and(|c| c.as_str().is_some_and(|c| c.starts_with("Booked"))),
        "the selection came back"
    );
}

#[test]
fn a_bare_command_is_mcp_over_stdio_and_a_missing_one_fails_without_hanging() {
    let mut agent = connect(&quoted(&demo_server()));
    assert_eq!(agent.kind(), "MCP stdio");

    let mut missing = Agent::connect(
        "mcp+stdio:/nonexistent/egui-a2ui-agent --flag",
        Catalog::basic(),
        TransportOptions::default(),
        || {},
    )
    .expect("the connection is made in the background");
    poll_until(&mut missing, |a| {
        matches!(a.status(), ConnectionStatus::Failed(_))
    });
    let ConnectionStatus::Failed(e) = missing.status() else {
        unreachable!()
    };
    assert!(
        e.to_string().contains("/nonexistent/egui-a2ui-agent"),
        "{e}"
    );
    assert!(missing.send(Turn::Text("hi".into())).is_err());
    agent.send(Turn::Text("SFO".into())).expect("send");
    poll_until(&mut agent, |a| !a.is_busy());
    assert_eq!(surfaces(&agent), 1);
}
