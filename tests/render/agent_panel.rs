//! The agent panel over an `Agent`: a scripted connection and a JSONL agent process, typed
//! into, clicked, stopped and retried through kittest; surfaces-only mode; saving and
//! restoring a conversation (read-only, the same dump) and hostile conversation files; the
//! thread drawing only the entries in view. Snapshots (feature `snapshots`) at the bottom.

use std::sync::{Arc, Mutex};

use egui::accesskit::Role;
use egui_a2ui::agent::{Agent, RestoreError, Script, ScriptedConnection, ThreadEntry};
use egui_a2ui::panel::{AgentPanel, PanelState};
use egui_a2ui::transport::{TransportError, Turn};
use egui_a2ui::{Catalog, Event, Renderer};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable as _};
use serde_json::{Value, json};

const CAT: &str = "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json";

/// A surface `id` with a heading and a button sending `action`.
fn button_surface(id: &str, heading: &str, button: &str, action: &str) -> Vec<Value> {
    vec![
        json!({"version": "v0.9", "createSurface": {"surfaceId": id, "catalogId": CAT}}),
        json!({"version": "v0.9", "updateComponents": {"surfaceId": id, "components": [
            {"id": "root", "component": "Column", "children": ["h", "name", "b"]},
            {"id": "h", "component": "Text", "text": heading, "variant": "h3"},
            {"id": "name", "component": "TextField", "label": "Name", "value": {"path": "/name"}},
            {"id": "b", "component": "Button", "child": "bl", "variant": "primary",
             "action": {"event": {"name": action}}},
            {"id": "bl", "component": "Text", "text": button}]}}),
        json!({"version": "v0.9", "updateDataModel": {"surfaceId": id, "path": "/name", "value": "Ada"}}),
    ]
}

fn text_surface(id: &str, text: &str) -> Vec<Value> {
    vec![
        json!({"version": "v0.9", "createSurface": {"surfaceId": id, "catalogId": CAT}}),
        json!({"version": "v0.9", "updateComponents": {"surfaceId": id, "components": [
            {"id": "root", "component": "Text", "text": text}]}}),
    ]
}

pub struct App {
    pub agent: Agent,
    pub panel: PanelState,
    pub events: Vec<Event>,
    pub surfaces_only: bool,
}

fn harness_over(agent: Agent, surfaces_only: bool, theme: egui::Theme) -> Harness<'static, App> {
    Harness::builder()
        .with_size(egui::vec2(480.0, 640.0))
        .with_theme(theme)
        .with_context_setup(Renderer::install)
        .build_ui_state(
            |ui, app: &mut App| {
                let fill = ui.visuals().panel_fill;
                ui.ctx()
                    .layer_painter(egui::LayerId::background())
                    .rect_filled(ui.max_rect().expand(32.0), 0.0, fill);
                egui::Frame::central_panel(ui.style()).show(ui, |ui| {
                    let out = AgentPanel::new(&mut app.agent, &mut app.panel)
                        .surfaces_only(app.surfaces_only)
                        .prompt_hint("Ask the travel agent")
                        .show(ui);
                    app.events.extend(out.events);
                });
            },
            App {
                agent,
                panel: PanelState::new(Catalog::basic()),
                events: Vec::new(),
                surfaces_only,
            },
        )
}

fn scripted(replies: Vec<Vec<Value>>) -> (Agent, Arc<Mutex<Script>>) {
    let conn = ScriptedConnection::new(replies);
    let script = conn.script();
    (Agent::new(conn), script)
}

fn settle(h: &mut Harness<'_, App>) {
    if h.run_ok().is_none() {
        h.run_steps(4);
    }
}

fn type_and_enter(h: &mut Harness<'_, App>, text: &str) {
    let prompt = h.get_by_role(Role::MultilineTextInput);
    prompt.focus();
    prompt.type_text(text);
    h.run_steps(2);
    h.key_press(egui::Key::Enter);
    h.run_steps(1);
}

#[test]
fn typing_enter_sends_the_surface_appears_and_a_click_reaches_the_agent() {
    let (agent, script) = scripted(vec![
        button_surface("offer", "Pasta at Luigi's", "Book a table", "book"),
        text_surface("done", "Booked for 8 pm"),
    ]);
    let mut h = harness_over(agent, false, egui::Theme::Light);
    settle(&mut h);
    type_and_enter(&mut h, "find pasta");
    settle(&mut h);
    assert_eq!(
        script.lock().unwrap().sent,
        vec![Turn::Text("find pasta".into())],
        "Enter sent the prompt's text"
    );
    assert_eq!(
        h.get_by_role(Role::MultilineTextInput).value().as_deref(),
        Some(""),
        "the prompt is cleared after sending"
    );
    h.get_by_label("You: find pasta");
    h.get_by_label("Agent: Here you go.");
    h.get_by_label("Pasta at Luigi's");
    h.get_by_label("Book a table").click();
    settle(&mut h);
    {
        let s = script.lock().unwrap();
        assert!(
            matches!(s.sent.get(1), Some(Turn::Action(a)) if a.name == "book" && a.surface_id == "offer"),
            "the button's action went to the agent by itself: {:?}",
            s.sent
        );
    }
    assert!(
        h.state()
            .events
            .iter()
            .any(|e| matches!(e, Event::Action(a) if a.name == "book")),
        "and the host saw it"
    );
    h.get_by_label("Booked for 8 pm");
    // The turn ended: the prompt has the focus back.
    assert!(h.get_by_role(Role::MultilineTextInput).is_focused());
}

#[test]
fn shift_enter_is_a_new_line_not_a_send() {
    let (agent, script) = scripted(vec![]);
    let mut h = harness_over(agent, false, egui::Theme::Light);
    settle(&mut h);
    let prompt = h.get_by_role(Role::MultilineTextInput);
    prompt.focus();
    prompt.type_text("one");
    h.run_steps(1);
    h.key_press_modifiers(egui::Modifiers::SHIFT, egui::Key::Enter);
    h.run_steps(1);
    h.get_by_role(Role::MultilineTextInput).type_text("two");
    h.run_steps(2);
    assert!(script.lock().unwrap().sent.is_empty());
    assert_eq!(
        h.get_by_role(Role::MultilineTextInput).value().as_deref(),
        Some("one\ntwo")
    );
}

#[test]
fn stop_while_busy_cancels_the_turn() {
    let (agent, script) = scripted(vec![text_surface("s", "late")]);
    script.lock().unwrap().hold = true;
    let mut h = harness_over(agent, false, egui::Theme::Light);
    settle(&mut h);
    type_and_enter(&mut h, "slow question");
    h.run_steps(3);
    h.get_by_label("Working…");
    h.get_by_label("Stop").click();
    h.run_steps(3);
    assert_eq!(script.lock().unwrap().cancels, 1, "Stop called cancel");
    assert!(h.query_by_label("Stop").is_none(), "no longer busy");
}

#[test]
fn retry_after_a_fault_sends_the_turn_again() {
    let (agent, script) = scripted(vec![text_surface("s", "Second time lucky")]);
    script.lock().unwrap().fail_next = Some(TransportError::Closed);
    let mut h = harness_over(agent, false, egui::Theme::Light);
    settle(&mut h);
    type_and_enter(&mut h, "hello");
    settle(&mut h);
    h.get_by_label("Error: the transport thread is gone");
    h.get_by_label("Retry").click();
    settle(&mut h);
    let sent = script.lock().unwrap().sent.clone();
    assert_eq!(
        sent,
        vec![Turn::Text("hello".into()), Turn::Text("hello".into())]
    );
    h.get_by_label("Second time lucky");
}

#[test]
fn surfaces_only_draws_the_surfaces_without_prose_or_prompt() {
    let (mut agent, _script) = scripted(vec![text_surface("s", "Only the surface")]);
    agent.send(Turn::Text("hi".into())).unwrap();
    let mut h = harness_over(agent, true, egui::Theme::Light);
    settle(&mut h);
    h.get_by_label("Only the surface");
    assert!(h.query_by_role(Role::MultilineTextInput).is_none());
    assert!(h.query_by_label("You: hi").is_none());
    assert!(h.query_by_label("Agent: Here you go.").is_none());
}

#[test]
fn the_thread_is_a_labelled_list_of_entries() {
    let (agent, _script) = scripted(vec![text_surface("s", "x")]);
    let mut h = harness_over(agent, false, egui::Theme::Light);
    settle(&mut h);
    type_and_enter(&mut h, "hi");
    settle(&mut h);
    let list = h.get_by_role_and_label(Role::List, "Conversation");
    let _ = list;
    let items: Vec<String> = h
        .get_all_by_role(Role::ListItem)
        .filter_map(|n| n.accesskit_node().label())
        .collect();
    assert_eq!(
        items,
        ["You: hi", "Agent: Here you go.", "Agent: an interface"]
    );
}

#[test]
fn a_long_thread_lays_out_only_the_entries_in_view() {
    let replies: Vec<Vec<Value>> = (0..60)
        .map(|i| {
            if i % 5 == 0 {
                text_surface(&format!("s{i}"), &format!("surface {i}"))
            } else {
                Vec::new()
            }
        })
        .collect();
    let (mut agent, _script) = scripted(replies);
    for i in 0..60 {
        agent.send(Turn::Text(format!("question {i}"))).unwrap();
        let _ = agent.poll();
    }
    let len = agent.thread().len();
    let mut h = harness_over(agent, false, egui::Theme::Light);
    settle(&mut h);
    let measured = h.state().panel.measured_entries();
    assert!(
        measured > 0 && measured < len / 3,
        "{measured} of {len} entries laid out"
    );
    // Stuck to the bottom: the last turn is in view, the first is not.
    h.get_by_label("You: question 59");
    assert!(h.query_by_label("You: question 0").is_none());
    assert!(h.query_by_label("surface 0").is_none());
}

#[cfg(unix)]
#[test]
fn a_jsonl_agent_process_through_the_panel() {
    // The process prints a surface with a button, then for each line it reads prints the
    // line back as the text of a new surface: the action's message reaching its stdin is
    // drawn.
    let first = button_surface("p", "From the process", "Go", "go");
    let mut script = String::new();
    for m in &first {
        script.push_str(&format!("printf '%s\\n' '{m}'; "));
    }
    script.push_str(&format!(
        "while read line; do printf '%s\\n' '{}' '{}'; done",
        json!({"version": "v0.9", "createSurface": {"surfaceId": "echo", "catalogId": CAT}}),
        json!({"version": "v0.9", "updateComponents": {"surfaceId": "echo", "components": [
            {"id": "root", "component": "Text", "text": "The process read its stdin"}]}}),
    ));
    let p = egui_a2ui::agent::JsonlProcess::spawn(
        "sh",
        &["-c".to_owned(), script],
        egui_a2ui::SurfaceStore::basic(),
        || {},
    )
    .expect("spawn sh");
    let mut h = harness_over(Agent::new(p), false, egui::Theme::Light);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while h.query_by_label("Go").is_none() && std::time::Instant::now() < deadline {
        h.run_steps(1);
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    h.get_by_label("From the process");
    h.get_by_label("Go").click();
    while h.query_by_label("The process read its stdin").is_none()
        && std::time::Instant::now() < deadline
    {
        h.run_steps(1);
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    h.get_by_label("The process read its stdin");
    assert!(
        h.state()
            .agent
            .thread()
            .iter()
            .any(|e| matches!(e, ThreadEntry::UserAction { name, .. } if name == "go"))
    );
}

fn surfaces_dump(agent: &Agent) -> Vec<Value> {
    let f = egui_a2ui::eval::FunctionRegistry::basic();
    let mut out = Vec::new();
    for store in agent.stores() {
        let doc = egui_a2ui::conformance::dump(store, &f);
        out.extend(doc["surfaces"].as_array().cloned().unwrap_or_default());
    }
    out
}

#[test]
fn a_saved_conversation_restores_with_the_same_surfaces_drawn_read_only() {
    let (agent, _script) = scripted(vec![
        button_surface("offer", "Pasta at Luigi's", "Book a table", "book"),
        text_surface("done", "Booked"),
    ]);
    let mut h = harness_over(agent, false, egui::Theme::Light);
    settle(&mut h);
    type_and_enter(&mut h, "find pasta");
    settle(&mut h);
    // The user edits a field: the saved surface keeps the edit.
    let field = h.get_by_role(Role::TextInput);
    field.focus();
    field.type_text(" Lovelace");
    settle(&mut h);
    h.get_by_label("Book a table").click();
    settle(&mut h);
    let saved = h.state().agent.save();
    assert!(saved.starts_with(r#"{"format":"egui_a2ui.conversation","version":1"#));
    let before = surfaces_dump(&h.state().agent);
    assert!(before.iter().any(|s| {
        s["dataModel"]["name"]
            .as_str()
            .is_some_and(|n| n.contains("Lovelace"))
    }));

    let mut restored = Agent::restore(&saved, &Catalog::basic()).expect("restore");
    assert_eq!(surfaces_dump(&restored), before, "the same dump");
    assert_eq!(restored.thread().len(), h.state().agent.thread().len());
    assert!(restored.is_read_only());
    assert!(
        restored
            .send(Turn::Text("more".into()))
            .is_err_and(|e| e.to_string().contains("read-only"))
    );

    let mut h = harness_over(restored, false, egui::Theme::Light);
    settle(&mut h);
    h.get_by_label("You: find pasta");
    h.get_by_label("Past conversation (read-only)");
    let button = h.get_by_role_and_label(Role::Button, "Book a table");
    assert!(
        button.accesskit_node().is_disabled(),
        "past buttons are disabled"
    );
    assert!(
        h.get_by_role(Role::TextInput)
            .accesskit_node()
            .is_disabled(),
        "past inputs are disabled"
    );
    assert!(
        h.get_by_role(Role::MultilineTextInput)
            .accesskit_node()
            .is_disabled(),
        "no prompt until resumed"
    );
    assert!(h.query_all_by_label("Past · read-only").count() >= 2);

    // Resumed with a live connection: the past stays read-only, new turns go through.
    let (live, script) = {
        let conn = ScriptedConnection::new(vec![text_surface("new", "A new answer")]);
        let s = conn.script();
        (conn, s)
    };
    h.state_mut().agent.resume_with(live);
    settle(&mut h);
    type_and_enter(&mut h, "again");
    settle(&mut h);
    assert_eq!(
        script.lock().unwrap().sent,
        vec![Turn::Text("again".into())]
    );
    h.get_by_label("A new answer");
    assert!(
        h.get_by_role_and_label(Role::Button, "Book a table")
            .accesskit_node()
            .is_disabled()
    );
}

#[test]
fn v0_8_and_v1_0_surfaces_survive_a_save() {
    let v08 = std::fs::read_to_string(
        "tests/data/a2ui/specification/v0_8/json/catalogs/basic/examples/13_coffee-order.json",
    )
    .expect("fixture");
    let mut store = egui_a2ui::SurfaceStore::basic();
    store.feed_document(v08.as_bytes());
    let v10 = [
        json!({"version": "v1.0", "createSurface": {"surfaceId": "ten", "catalogId": "https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json"}}),
        json!({"version": "v1.0", "updateComponents": {"surfaceId": "ten", "components": [
            {"id": "root", "component": "Text", "text": {"path": "/t"}}]}}),
        json!({"version": "v1.0", "updateDataModel": {"surfaceId": "ten", "path": "/t", "value": "ten"}}),
    ];
    for m in v10 {
        let _ = store.apply(m);
    }
    assert!(store.surfaces().count() >= 2);
    let f = egui_a2ui::eval::FunctionRegistry::basic();
    let mut copy = egui_a2ui::SurfaceStore::basic();
    for s in store.surfaces() {
        for m in egui_a2ui::agent::surface_messages(s) {
            let applied = copy.apply(m.clone());
            assert!(
                !matches!(applied, egui_a2ui::model::Applied::Rejected(_)),
                "{m}: {applied:?}"
            );
        }
    }
    assert_eq!(
        egui_a2ui::conformance::dump(&store, &f)["surfaces"],
        egui_a2ui::conformance::dump(&copy, &f)["surfaces"]
    );
}

#[test]
fn hostile_conversation_files_are_typed_errors() {
    let cat = Catalog::basic();
    let header = r#"{"format":"egui_a2ui.conversation","version":1,"kind":"A2A","origin":null,"stores":1,"entries":0}"#;
    let restore = |doc: &str| Agent::restore(doc, &cat).err();
    assert_eq!(restore(""), Some(RestoreError::NotAConversation));
    assert_eq!(restore("not json\n"), Some(RestoreError::NotAConversation));
    assert_eq!(
        restore(r#"{"format":"something.else","version":1}"#),
        Some(RestoreError::NotAConversation)
    );
    assert!(matches!(
        restore(r#"{"format":"egui_a2ui.conversation","version":2}"#),
        Some(RestoreError::Version { .. })
    ));
    assert!(matches!(
        restore(r#"{"format":"egui_a2ui.conversation","version":"1"}"#),
        Some(RestoreError::Version { .. })
    ));
    // Truncated mid-line.
    let truncated = format!("{header}\n{{\"store\":0,\"message\":{{\"version\":\"v0.9\",\"create");
    assert!(matches!(
        restore(&truncated),
        Some(RestoreError::Malformed { line: 2, .. })
    ));
    // A message the store refuses, a store the header does not have, an unknown entry.
    let refused = format!(
        "{header}\n{}\n",
        json!({"store": 0, "message": {"version": "v0.9", "updateComponents": {"surfaceId": "nope", "components": "x"}}})
    );
    assert!(matches!(
        restore(&refused),
        Some(RestoreError::Message { line: 2, .. })
    ));
    let elsewhere = format!(
        "{header}\n{}\n",
        json!({"store": 7, "message": text_surface("s", "x")[0]})
    );
    assert!(matches!(
        restore(&elsewhere),
        Some(RestoreError::Malformed { .. })
    ));
    let unknown = format!("{header}\n{}\n", json!({"entry": {"type": "exec"}}));
    assert!(matches!(
        restore(&unknown),
        Some(RestoreError::Malformed { .. })
    ));
    // Too many stores, a huge line, a huge document, deep nesting.
    assert!(matches!(
        restore(r#"{"format":"egui_a2ui.conversation","version":1,"stores":1000000000}"#),
        Some(RestoreError::TooLarge { .. })
    ));
    let huge_line = format!(
        "{header}\n{{\"entry\":{{\"type\":\"user\",\"text\":\"{}\"}}}}\n",
        "a".repeat(5 * 1024 * 1024)
    );
    assert!(matches!(
        restore(&huge_line),
        Some(RestoreError::TooLarge { .. })
    ));
    let huge = "\n".repeat(egui_a2ui::agent::MAX_CONVERSATION_BYTES + 1);
    assert!(matches!(
        restore(&huge),
        Some(RestoreError::TooLarge { .. })
    ));
    let deep = format!("{header}\n{}{}\n", "[".repeat(100_000), "]".repeat(100_000));
    assert!(matches!(
        restore(&deep),
        Some(RestoreError::Malformed { .. })
    ));
    // A surface entry for a store that exists but a surface that does not: restored, drawn
    // as nothing (no panic).
    let ghost = format!(
        "{header}\n{}\n",
        json!({"entry": {"type": "surface", "store": 0, "surfaceId": "ghost"}})
    );
    let agent = Agent::restore(&ghost, &cat).expect("restores");
    let mut h = harness_over(agent, false, egui::Theme::Dark);
    settle(&mut h);
}

#[cfg(feature = "snapshots")]
mod snapshots {
    use super::*;
    use egui_kittest::{SnapshotOptions, SnapshotResults};

    fn conversation(theme: egui::Theme) -> Harness<'static, App> {
        let (agent, _script) = scripted(vec![
            button_surface("offer", "Pasta at Luigi's", "Book a table", "book"),
            text_surface("done", "Booked for **8 pm**."),
        ]);
        let mut h = harness_over(agent, false, theme);
        settle(&mut h);
        type_and_enter(&mut h, "Find me a pasta place for tonight");
        settle(&mut h);
        h.get_by_label("Book a table").click();
        settle(&mut h);
        h.get_by_role(Role::MultilineTextInput).focus();
        h.get_by_role(Role::MultilineTextInput).type_text("Thanks!");
        h.get_all_by_label("Here you go.")
            .next()
            .expect("prose")
            .hover();
        settle(&mut h);
        h
    }

    #[test]
    #[cfg_attr(
        not(has_mesa_egl),
        ignore = "Mesa EGL not found (libEGL.so.1, libEGL_mesa.so.0, swrast): apt-get install libegl1 libegl-mesa0 libgl1-mesa-dri"
    )]
    fn the_agent_panel_matches_its_light_and_dark_snapshots() {
        let mut results = SnapshotResults::new();
        for (theme, suffix) in [(egui::Theme::Light, "light"), (egui::Theme::Dark, "dark")] {
            let mut h = conversation(theme);
            results.add(h.try_snapshot_options(
                format!("agent_panel_{suffix}"),
                &SnapshotOptions::new().threshold(1.0).max_failed_pixels(40),
            ));
        }
        results.unwrap();
    }
}
