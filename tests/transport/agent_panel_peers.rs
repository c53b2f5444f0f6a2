//! The agent panel against the real peers (`tests/peers/`), each reached with
//! `Agent::connect(target)` only: type, Enter, the results surface appears in the thread, a
//! click on Pick reaches the agent and the booking form follows; Stop ends a turn that
//! stalls, Retry sends a failed turn again; the A2A conversation then saves, restores with the
//! same surfaces and resumes in the agent's same context.

use std::time::{Duration, Instant};

use crate::common::peers::{Venv, python, start, start_with_env};
use egui::accesskit::Role;
use egui_a2ui::agent::{Agent, ConnectionStatus, ThreadEntry};
use egui_a2ui::panel::{AgentPanel, PanelState};
use egui_a2ui::transport::{TaskState, TransportOptions};
use egui_a2ui::{Catalog, Renderer};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;

struct App {
    agent: Agent,
    panel: PanelState,
}

/// A panel over `Agent::connect(target)`, stepped until the connection is ready (bounded).
fn panel(target: &str) -> Harness<'static, App> {
    let agent = Agent::connect(target, Catalog::basic(), TransportOptions::default(), || {})
        .expect("connect");
    let mut h = Harness::builder()
        .with_size(egui::vec2(520.0, 720.0))
        .with_context_setup(Renderer::install)
        .build_ui_state(
            |ui, app: &mut App| {
                let _ = AgentPanel::new(&mut app.agent, &mut app.panel).show(ui);
            },
            App {
                agent,
                panel: PanelState::new(Catalog::basic()),
            },
        );
    wait_until(&mut h, "the connection is ready", |app| {
        app.agent.status() == ConnectionStatus::Ready
    });
    h
}

/// Step the harness until `done` holds (bounded by 60 s).
fn wait_until(h: &mut Harness<'_, App>, what: &str, done: impl Fn(&App) -> bool) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while !done(h.state()) && Instant::now() < deadline {
        h.run_steps(1);
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(
        done(h.state()),
        "{what}: not reached; status {:?}, thread {:#?}",
        h.state().agent.status(),
        h.state().agent.thread()
    );
}

/// Step the harness until `label` is drawn (bounded).
fn wait_for(h: &mut Harness<'_, App>, label: &str) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while h.query_by_label(label).is_none() && Instant::now() < deadline {
        h.run_steps(1);
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(
        h.query_by_label(label).is_some(),
        "{label:?} not drawn; status {:?}, thread {:#?}",
        h.state().agent.status(),
        h.state().agent.thread()
    );
}

/// Type `text` into the prompt box and press Enter, as a user does.
fn type_and_send(h: &mut Harness<'_, App>, text: &str) {
    let prompt = h.get_by_role(Role::MultilineTextInput);
    prompt.focus();
    prompt.type_text(text);
    h.run_steps(2);
    h.key_press(egui::Key::Enter);
    h.run_steps(1);
}

fn errors(app: &App) -> usize {
    app.agent
        .thread()
        .iter()
        .filter(|e| matches!(e, ThreadEntry::Error { .. }))
        .count()
}

/// The search → pick → booking form flow every peer serves (`tests/peers/flow.py`).
fn search_and_pick(h: &mut Harness<'_, App>) {
    type_and_send(h, "pasta");
    wait_for(h, "Pasta Place (Italian)");
    // The surface draws while the agent still finishes its turn: click once it ended, as
    // a user who waits for the answer does (a click during the turn is refused, with Retry).
    wait_until(h, "the search turn ended", |app| {
        app.agent.status() == ConnectionStatus::Ready
    });
    h.get_by_label("You: pasta");
    h.get_all_by_label("Pick")
        .next()
        .expect("a Pick button")
        .click();
    wait_for(h, "Book Pasta Place");
}

/// Stop while a turn stalls: the Stop button of the state line ends it, the state says
/// canceled, and the prompt is usable again.
fn stop_a_stalled_turn(h: &mut Harness<'_, App>, stall: &str) {
    stop_a_stalled_turn_once(h, stall, None);
}

/// [`stop_a_stalled_turn`], clicking Stop only once `shown` (a part of a label) is drawn.
fn stop_a_stalled_turn_once(h: &mut Harness<'_, App>, stall: &str, shown: Option<&str>) {
    type_and_send(h, stall);
    wait_until(h, "the stalling turn runs", |app| {
        app.agent.status() == ConnectionStatus::Busy
    });
    if let Some(label) = shown {
        let deadline = Instant::now() + Duration::from_secs(30);
        while h.query_by_label_contains(label).is_none() && Instant::now() < deadline {
            h.run_steps(1);
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(
            h.query_by_label_contains(label).is_some(),
            "{label:?} not drawn"
        );
    }
    h.get_by_label("Stop").click();
    h.run_steps(1);
    wait_until(h, "the turn is stopped", |app| {
        app.agent.status() == ConnectionStatus::Ready
    });
    assert_eq!(
        h.state().agent.state(),
        Some(&TaskState::Canceled),
        "{:#?}",
        h.state().agent.thread()
    );
    h.run_steps(2);
    assert!(h.query_by_label("Stop").is_none(), "no Stop once stopped");
}

/// A failed turn shows its error inline with Retry; Retry sends the same turn again (the
/// peer fails it again: a second error entry).
fn retry_a_failed_turn(h: &mut Harness<'_, App>, fault: &str) {
    let before = errors(h.state());
    type_and_send(h, fault);
    wait_until(h, "the fault is reported", |app| {
        errors(app) == before + 1 && app.agent.status() == ConnectionStatus::Ready
    });
    // Drawn where it settles (the thread follows its end as the new entry is measured).
    h.run_steps(3);
    h.get_by_label("Retry").click();
    h.run_steps(1);
    wait_until(h, "the retried turn is reported", |app| {
        errors(app) == before + 2 && app.agent.status() == ConnectionStatus::Ready
    });
    let users = h
        .state()
        .agent
        .thread()
        .iter()
        .filter(|e| matches!(e, ThreadEntry::User { text } if text == fault))
        .count();
    assert_eq!(users, 1, "a retry is not a new user turn");
}

/// The conversation saves and restores with the same surfaces (the conformance dump of
/// every store equal) and the same thread length, drawn read-only.
fn save_and_restore_round_trip(h: &Harness<'_, App>) -> Agent {
    let saved = h.state().agent.save();
    let restored = Agent::restore(&saved, &Catalog::basic()).expect("restore");
    let f = egui_a2ui::eval::FunctionRegistry::basic();
    let dump = |a: &Agent| -> Vec<serde_json::Value> {
        a.stores()
            .iter()
            .map(|s| egui_a2ui::conformance::dump(s, &f)["surfaces"].clone())
            .collect()
    };
    let live = dump(&h.state().agent);
    assert!(!live.is_empty(), "surfaces to save");
    assert_eq!(dump(&restored), live);
    assert!(restored.is_read_only());
    restored
}

#[test]
fn the_agent_panel_talks_to_the_agui_peer_stops_and_retries() {
    let peer = start(Venv::Main, "agui_peer.py");
    let mut h = panel(&format!("agui+{}", peer.url("/")));
    search_and_pick(&mut h);
    // Stopped once the stalled run's activity shows as building.
    stop_a_stalled_turn_once(&mut h, "fault:stall", Some("Building the interface"));
    // The stalled run's activity was building: it is not left spinning.
    assert!(
        h.query_by_label_contains("Building the interface")
            .is_none(),
        "a stopped run's activity still shows as building"
    );
    h.get_by_label_contains("Stopped before the interface was built");
    retry_a_failed_turn(&mut h, "fault:runerror");
    // The surfaces of earlier turns are all still there.
    h.get_by_label("Book Pasta Place");
    let restored = save_and_restore_round_trip(&h);
    // The thread comes back too (the errors, the stopped activity); an activity that
    // became its surfaces draws nothing of its own and is not kept.
    let drawn = |a: &Agent| -> usize {
        a.thread()
            .iter()
            .filter(|e| !matches!(e, ThreadEntry::Activity { status: None, .. }))
            .count()
    };
    assert_eq!(drawn(&restored), drawn(&h.state().agent));
}

#[test]
fn the_agent_panel_talks_to_the_mcp_peer_over_http_and_retries() {
    let peer = start(Venv::Main, "mcp_peer.py");
    let mut h = panel(&format!("mcp+{}", peer.url("/mcp")));
    search_and_pick(&mut h);
    retry_a_failed_turn(&mut h, "fault:error");
    h.get_by_label("Book Pasta Place");
    let _ = save_and_restore_round_trip(&h);
}

#[test]
fn the_agent_panel_stops_a_slow_mcp_call() {
    // Every step of this peer takes 30 s: the first turn is one to stop.
    let peer = start_with_env(Venv::Main, "mcp_peer.py", &[("PEER_STEP_DELAY_S", "30")]);
    let mut h = panel(&format!("mcp+{}", peer.url("/mcp")));
    stop_a_stalled_turn(&mut h, "pasta");
}

#[test]
fn the_agent_panel_talks_to_the_mcp_peer_over_stdio() {
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/peers/mcp_peer.py");
    let target = format!(
        "mcp+stdio:'{}' '{}' --stdio",
        python(Venv::Main).display(),
        script.display()
    );
    let mut h = panel(&target);
    search_and_pick(&mut h);
    retry_a_failed_turn(&mut h, "fault:error");
    let _ = save_and_restore_round_trip(&h);
}

#[test]
fn the_agent_panel_talks_to_the_a2a_peer_from_one_target_string() {
    let peer = start(Venv::Main, "a2a03_peer.py");
    let target = format!("a2a+{}", peer.url(""));
    let mut h = panel(&target);
    search_and_pick(&mut h);
    // Stop: `tasks/cancel` for a task that stalls.
    stop_a_stalled_turn(&mut h, "fault:stall");

    let restored = save_and_restore_round_trip(&h);
    assert!(restored.thread().len() >= 4);

    // Resumed on a new connection, the conversation goes on in the agent's same context.
    let context = h
        .state()
        .agent
        .connection()
        .continuation()
        .and_then(|c| c["contextId"].as_str().map(str::to_owned))
        .expect("the A2A connection has a context after two turns");
    let mut restored = restored;
    restored
        .resume(
            &target,
            Catalog::basic(),
            TransportOptions::default(),
            || {},
        )
        .expect("connect");
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut sent = None;
    while Instant::now() < deadline && sent.is_none() {
        if restored.status() == ConnectionStatus::Ready {
            restored
                .send(egui_a2ui::transport::Turn::Text("sushi".into()))
                .expect("send");
        }
        for e in restored.poll() {
            if let egui_a2ui::transport::TransportEvent::Request { body, .. } = e {
                sent = Some(body);
            }
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let body = sent.expect("a request was sent");
    assert_eq!(
        body["params"]["message"]["contextId"].as_str(),
        Some(context.as_str()),
        "{body}"
    );
}

/// The README's picture of the panel, against the A2A peer: a turn, the results surface, the
/// Pick sent back and the booking form that followed.
#[test]
#[cfg(feature = "snapshots")]
#[ignore = "writes assets/screenshots/agent_panel.png for the README"]
fn write_the_readme_agent_panel_screenshot() {
    let peer = start(Venv::Main, "a2a03_peer.py");
    let mut h = panel(&format!("a2a+{}", peer.url("")));
    h.set_size(egui::vec2(560.0, 860.0));
    h.ctx.set_theme(egui::Theme::Light);
    search_and_pick(&mut h);
    h.event(egui::Event::PointerGone);
    h.run_steps(6);
    let image = h.render().expect("render");
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/screenshots/agent_panel.png");
    image.save(path).expect("save");
}
