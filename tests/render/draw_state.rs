//! One drawing state, many stores: a `DrawState` draws stores its host owns (one per MCP
//! session, say), keeps what it remembers per store, and hands each store's events back
//! from the call that drew that store, even when the stores use the same surface ids.

use egui_a2ui::model::Applied;
use egui_a2ui::render::DrawState;
use egui_a2ui::{Catalog, Event, SurfaceStore, Version};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use serde_json::{Value, json};

const BASIC_V09: &str = "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json";
const BASIC_V10: &str = "https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json";

/// A store with surface `s` (the same id in every store): a label, a button firing
/// `action`, and a component of a type no catalog has.
fn session_store(label: &str, action: &str) -> SurfaceStore {
    let mut store = SurfaceStore::basic();
    for m in [
        json!({"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": BASIC_V09}}),
        json!({"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": [
            {"id": "root", "component": "Column", "children": ["press", "odd"]},
            {"id": "press", "component": "Button", "child": "press-label",
             "action": {"event": {"name": action}}},
            {"id": "press-label", "component": "Text", "text": label},
            {"id": "odd", "component": "Hologram"}
        ]}}),
    ] {
        store.apply(&m).into_result().expect("applies");
    }
    store
}

/// A v1.0 store whose surface `s` binds a function only the agent has.
fn weather_store() -> SurfaceStore {
    let mut store = SurfaceStore::basic();
    for m in [
        json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": BASIC_V10}}),
        json!({"version": "v1.0", "updateComponents": {"surfaceId": "s", "components": [
            {"id": "root", "component": "Text", "text": {"call": "lookupWeather", "args": {"city": "Oslo"}}}
        ]}}),
    ] {
        store.apply(&m).into_result().expect("applies");
    }
    store
}

struct Host {
    draw: DrawState,
    stores: Vec<SurfaceStore>,
    /// Every event each store's draw returned, by store.
    events: Vec<Vec<Event>>,
}

fn harness(stores: Vec<SurfaceStore>) -> Harness<'static, Host> {
    let n = stores.len();
    let mut h = Harness::builder()
        .with_size(egui::vec2(800.0, 600.0))
        .build_ui_state(
            |ui, host: &mut Host| {
                for (i, store) in host.stores.iter_mut().enumerate() {
                    ui.push_id(("session", i), |ui| {
                        let events = host.draw.ui(store, ui);
                        host.events[i].extend(events);
                    });
                }
            },
            Host {
                draw: DrawState::new(Catalog::basic()),
                stores,
                events: vec![Vec::new(); n],
            },
        );
    h.run();
    h
}

fn actions(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Action(a) => Some(format!("{}:{}", a.surface_id, a.name)),
            _ => None,
        })
        .collect()
}

fn errors(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Error(c) => Some(format!(
                "{}:{}",
                c.surface_id.as_deref().unwrap_or("-"),
                c.error.code()
            )),
            _ => None,
        })
        .collect()
}

fn agent_calls(events: &[Event]) -> Vec<Value> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Reply(m) => m.get("callAgentFunction").cloned(),
            _ => None,
        })
        .collect()
}

#[test]
fn one_draw_state_draws_two_stores_and_each_stores_events_come_back_with_it() {
    let mut h = harness(vec![
        session_store("Press A", "a-pressed"),
        session_store("Press B", "b-pressed"),
    ]);
    // Both stores drawn, from one drawing state.
    h.get_by_label("Press A");
    h.get_by_label("Press B");
    // The unknown type is reported once per store, although the surface id and the
    // component are the same in both: the de-dup is kept per store.
    for i in 0..2 {
        let e = errors(&h.state().events[i]);
        assert_eq!(e.len(), 1, "store {i}: {e:?}");
        assert!(e[0].starts_with("s:"), "{e:?}");
    }

    h.get_by_label("Press B").click();
    h.run();
    assert_eq!(actions(&h.state().events[0]), Vec::<String>::new());
    assert_eq!(actions(&h.state().events[1]), ["s:b-pressed"]);

    h.get_by_label("Press A").click();
    h.run();
    assert_eq!(actions(&h.state().events[0]), ["s:a-pressed"]);
    assert_eq!(actions(&h.state().events[1]), ["s:b-pressed"]);
    // Many frames later, still one error each.
    h.run();
    assert_eq!(errors(&h.state().events[0]).len(), 1);
    assert_eq!(errors(&h.state().events[1]).len(), 1);
}

#[test]
fn a_rejection_the_host_applies_to_its_store_is_reported_for_that_store_only() {
    let mut h = harness(vec![
        session_store("Press A", "a"),
        session_store("Press B", "b"),
    ]);
    let before: Vec<usize> = h.state().events.iter().map(Vec::len).collect();
    let applied = {
        let host = h.state_mut();
        host.stores[1].apply(json!({"version": "v0.9", "updateComponents": {"surfaceId": "nope", "components": [{"id": "root", "component": "Text", "text": "y"}]}}))
    };
    match &applied {
        Applied::Rejected(r) => {
            assert_eq!(r.surface_id.as_deref(), Some("nope"));
            assert_eq!(r.error.code(), "SURFACE_NOT_FOUND");
            assert_eq!(r.version, Version::V0_9);
        }
        other => panic!("expected a rejection, got {other:?}"),
    }
    h.run();
    let host = h.state();
    assert_eq!(host.events[0].len(), before[0], "store A heard nothing");
    assert_eq!(
        errors(&host.events[1][before[1]..]),
        ["nope:SURFACE_NOT_FOUND"]
    );
    assert_eq!(
        host.stores[1].errors().len(),
        1,
        "recorded in the store too"
    );
    assert!(host.stores[0].errors().is_empty());
}

#[test]
fn agent_calls_are_kept_per_store_and_settled_in_the_store_they_came_from() {
    let mut h = harness(vec![weather_store(), weather_store()]);
    let calls: Vec<Vec<Value>> = h.state().events.iter().map(|e| agent_calls(e)).collect();
    assert_eq!(calls[0].len(), 1, "{calls:?}");
    assert_eq!(calls[1].len(), 1, "each store asks for its own binding");
    let id = calls[0][0]["functionCallId"]
        .as_str()
        .expect("id")
        .to_owned();
    // The answer goes to the store whose agent sent it: only that surface resolves.
    let applied = {
        let host = h.state_mut();
        host.stores[0].apply(json!({"version": "v1.0", "agentFunctionResponse": {"functionCallId": id, "value": "Sunny, 12°"}}))
    };
    assert!(
        matches!(&applied, Applied::Settled { function_call_id } if *function_call_id == id),
        "{applied:?}"
    );
    h.run();
    assert_eq!(h.query_all_by_label("Sunny, 12°").count(), 1);
    let replies = |events: &[Event]| {
        events
            .iter()
            .filter(|e| matches!(e, Event::Reply(m) if m.get("error").is_some()))
            .count()
    };
    assert_eq!(replies(&h.state().events[0]), 0, "the answer was expected");
    assert_eq!(replies(&h.state().events[1]), 0);
}

#[test]
fn a_surface_deleted_and_recreated_behind_the_draw_states_back_starts_afresh() {
    let mut h = harness(vec![session_store("Press A", "a")]);
    assert_eq!(errors(&h.state().events[0]).len(), 1);
    h.run();
    assert_eq!(errors(&h.state().events[0]).len(), 1, "reported once");
    // The host applies to its store directly (as an MCP session does): the drawing
    // state never sees the delete, yet lets go of what it kept for the old surface.
    {
        let store = &mut h.state_mut().stores[0];
        let old = store.surface("s").expect("s").serial();
        store
            .apply(json!({"version": "v0.9", "deleteSurface": {"surfaceId": "s"}}))
            .into_result()
            .expect("delete");
        for m in [
            json!({"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": BASIC_V09}}),
            json!({"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": [
                {"id": "root", "component": "Column", "children": ["odd"]},
                {"id": "odd", "component": "Hologram"}
            ]}}),
        ] {
            store.apply(&m).into_result().expect("applies");
        }
        assert_ne!(store.surface("s").expect("s").serial(), old);
    }
    h.run();
    assert_eq!(
        errors(&h.state().events[0]).len(),
        2,
        "the new surface's unknown type is reported again"
    );
}

#[test]
fn a_renderer_is_a_store_and_a_draw_state() {
    let mut r = egui_a2ui::Renderer::new(Catalog::basic());
    r.feed_document(
        format!(
            "{}\n{}\n",
            json!({"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": BASIC_V09}}),
            json!({"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": [{"id": "root", "component": "Hologram"}]}})
        )
        .as_bytes(),
    );
    let ctx = egui::Context::default();
    let mut events = Vec::new();
    let mut out = ctx.run_ui(egui::RawInput::default(), |ui| {
        // Its two halves, drawn by hand, behave as `Renderer::ui`.
        let (draw, store) = r.parts_mut();
        events = draw.ui(store, ui);
    });
    out.textures_delta.clear();
    assert_eq!(errors(&events).len(), 1, "{events:?}");
}
