//! The agent panel against the real A2A peer (`tests/peers/a2a03_peer.py`), reached with
//! `Agent::connect("a2a+http://…")` only: type, Enter, the results surface appears in the
//! thread, a click on Pick reaches the agent and the booking form follows; the conversation
//! then saves and restores with the same surfaces.

use std::time::{Duration, Instant};

use crate::common::peers::{Venv, start};
use egui::accesskit::Role;
use egui_a2ui::agent::Agent;
use egui_a2ui::panel::{AgentPanel, PanelState};
use egui_a2ui::transport::TransportOptions;
use egui_a2ui::{Catalog, Renderer};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;

struct App {
    agent: Agent,
    panel: PanelState,
}

/// Step the harness until `label` is drawn (bounded).
fn wait_for(h: &mut Harness<'_, App>, label: &str) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while h.query_by_label(label).is_none() && Instant::now() < deadline {
        h.run_steps(1);
        std::thread::sleep(Duration::from_millis(20));
    }
    h.get_by_label(label);
}

#[test]
fn the_agent_panel_talks_to_the_a2a_peer_from_one_target_string() {
    let peer = start(Venv::Main, "a2a03_peer.py");
    let target = format!("a2a+{}", peer.url(""));
    let agent = Agent::connect(
        &target,
        Catalog::basic(),
        TransportOptions::default(),
        || {},
    )
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
    let deadline = Instant::now() + Duration::from_secs(60);
    while h.state().agent.status() != egui_a2ui::agent::ConnectionStatus::Ready
        && Instant::now() < deadline
    {
        h.run_steps(1);
        std::thread::sleep(Duration::from_millis(20));
    }
    let prompt = h.get_by_role(Role::MultilineTextInput);
    prompt.focus();
    prompt.type_text("pasta");
    h.run_steps(2);
    h.key_press(egui::Key::Enter);
    wait_for(&mut h, "Pasta Place (Italian)");
    h.get_by_label("You: pasta");
    h.get_all_by_label("Pick")
        .next()
        .expect("a Pick button")
        .click();
    wait_for(&mut h, "Book Pasta Place");

    let saved = h.state().agent.save();
    let restored = Agent::restore(&saved, &Catalog::basic()).expect("restore");
    let f = egui_a2ui::eval::FunctionRegistry::basic();
    let dump = |a: &Agent| -> Vec<serde_json::Value> {
        a.stores()
            .iter()
            .map(|s| egui_a2ui::conformance::dump(s, &f)["surfaces"].clone())
            .collect()
    };
    assert_eq!(dump(&restored), dump(&h.state().agent));
    assert!(restored.thread().len() >= 4);
}
