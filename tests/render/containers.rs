//! Card, Tabs, Modal and Divider behaviour in a kittest harness, and hostile input.

use egui::{Pos2, Rect, vec2};
use egui_a2ui::{Catalog, Event, Renderer};
use egui_kittest::Harness;

use crate::common::{self, App};
use egui_kittest::kittest::Queryable;
use serde_json::{Value, json};

const BASIC: &str = "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json";

/// Where the host puts the surface: known edges to measure against.
const HOST: Rect = Rect {
    min: Pos2 { x: 20.0, y: 20.0 },
    max: Pos2 { x: 520.0, y: 380.0 },
};

const TOL: f32 = 1.5;

fn renderer(components: Value, data: Option<Value>) -> Renderer {
    let mut r = Renderer::new(Catalog::basic());
    r.options_mut().show_surface_header = false;
    r.apply(json!({"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": BASIC}}))
        .into_result()
        .expect("createSurface");
    update(&mut r, components);
    if let Some(data) = data {
        set_data(&mut r, data);
    }
    r
}

fn update(r: &mut Renderer, components: Value) {
    r.apply(json!({"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": components}})).into_result()
        .expect("updateComponents");
}

fn set_data(r: &mut Renderer, data: Value) {
    r.apply(json!({"version": "v0.9", "updateDataModel": {"surfaceId": "s", "path": "/", "value": data}})).into_result()
        .expect("updateDataModel");
}

fn harness(renderer: Renderer) -> Harness<'static, App> {
    let mut h = unsettled_harness(renderer);
    h.run();
    h
}

/// A harness that has run a few frames but may not be idle (a spinner for a missing child
/// animates forever).
fn unsettled_harness(renderer: Renderer) -> Harness<'static, App> {
    let mut h = common::build(
        Harness::builder().with_size(vec2(600.0, 400.0)),
        renderer,
        Some(HOST),
    );
    h.run_steps(4);
    h
}

fn shows(h: &Harness<'_, App>, label: &str) -> bool {
    h.query_by_label(label).is_some()
}

fn close(a: f32, b: f32, what: &str) {
    assert!((a - b).abs() <= TOL, "{what}: {a} vs {b}");
}

// ---------------------------------------------------------------- Card

#[test]
fn a_card_insets_its_child_and_nested_cards_inset_again() {
    let h = harness(renderer(
        json!([
            {"id": "root", "component": "Card", "child": "col"},
            {"id": "col", "component": "Column", "children": ["outer", "inner-card"]},
            {"id": "outer", "component": "Text", "text": "Outer text"},
            {"id": "inner-card", "component": "Card", "child": "inner"},
            {"id": "inner", "component": "Text", "text": "Inner text"},
        ]),
        None,
    ));
    let outer = h.get_by_label("Outer text").rect();
    let inner = h.get_by_label("Inner text").rect();
    let inset = outer.left() - HOST.left();
    assert!(
        (16.0..=28.0).contains(&inset),
        "padding 16 plus the card's margin: {inset}"
    );
    close(
        inner.left() - outer.left(),
        inset,
        "a nested card insets as much again",
    );
    assert!(
        inner.top() - outer.bottom() >= 16.0,
        "the inner card's outline and padding"
    );
}

#[test]
fn a_card_without_a_child_still_draws() {
    let h = harness(renderer(
        json!([
            {"id": "root", "component": "Column", "children": ["empty", "after"]},
            {"id": "empty", "component": "Card"},
            {"id": "after", "component": "Text", "text": "After"},
        ]),
        None,
    ));
    assert!(
        h.get_by_label("After").rect().top() - HOST.top() >= 32.0,
        "the padding box"
    );
}

// ---------------------------------------------------------------- Tabs

fn tabs_fixture() -> Renderer {
    renderer(
        json!([
            {"id": "root", "component": "Tabs", "tabs": [
                {"title": "First", "child": "alpha"},
                {"title": {"path": "/second"}, "child": "beta"},
            ]},
            {"id": "alpha", "component": "Text", "text": "Alpha content"},
            {"id": "beta", "component": "Text", "text": "Beta content"},
        ]),
        Some(json!({"second": "Second"})),
    )
}

#[test]
fn tabs_show_the_first_tab_and_resolve_bound_titles() {
    let h = tabs_fixture();
    let h = harness(h);
    assert!(shows(&h, "First"));
    assert!(shows(&h, "Second"), "the bound title is resolved");
    assert!(shows(&h, "Alpha content"));
    assert!(
        !shows(&h, "Beta content"),
        "only the selected child is drawn"
    );
    assert_eq!(
        h.query_all_by_role(egui::accesskit::Role::Tab).count(),
        2,
        "titles are tabs for assistive technology"
    );
}

#[test]
fn clicking_a_tab_title_shows_its_child_instead() {
    let mut h = harness(tabs_fixture());
    h.get_by_label("Second").click();
    h.run();
    assert!(shows(&h, "Beta content"));
    assert!(!shows(&h, "Alpha content"));
    h.get_by_label("First").click();
    h.run();
    assert!(shows(&h, "Alpha content"));
    assert!(!shows(&h, "Beta content"));
}

#[test]
fn the_selected_tab_survives_data_and_component_updates() {
    let mut h = harness(tabs_fixture());
    h.get_by_label("Second").click();
    h.run();
    set_data(&mut h.state_mut().renderer, json!({"second": "Renamed"}));
    update(
        &mut h.state_mut().renderer,
        json!([{"id": "beta", "component": "Text", "text": "Beta updated"}]),
    );
    h.run();
    assert!(shows(&h, "Renamed"), "the bound title follows the data");
    assert!(shows(&h, "Beta updated"), "still on the second tab");
    assert!(!shows(&h, "Alpha content"));
}

#[test]
fn a_removed_selected_tab_falls_back_to_the_last_one() {
    let mut h = harness(tabs_fixture());
    h.get_by_label("Second").click();
    h.run();
    update(
        &mut h.state_mut().renderer,
        json!([{"id": "root", "component": "Tabs", "tabs": [{"title": "First", "child": "alpha"}]}]),
    );
    h.run();
    assert!(shows(&h, "Alpha content"));
}

#[test]
fn hostile_tabs_never_panic() {
    for tabs in [
        json!([]),
        json!("not an array"),
        json!([{"title": "No child"}, {"child": "missing-id"}, 42, {"title": {"path": "/nothing"}, "child": 7}]),
    ] {
        let mut h = harness(renderer(
            json!([{"id": "root", "component": "Tabs", "tabs": tabs}]),
            None,
        ));
        if h.query_by_label("Tab 2").is_some() {
            // An untitled tab gets a name; clicking it shows the placeholder for a child
            // that has not arrived.
            h.get_by_label("Tab 2").click();
            h.run_steps(3);
            assert!(shows(&h, "Loading…"));
            h.get_by_label("Tab 4").click();
            h.run();
        }
    }
}

// ---------------------------------------------------------------- Modal

fn modal_fixture(trigger: Value) -> Renderer {
    renderer(
        json!([
            {"id": "root", "component": "Modal", "trigger": "open", "content": "body"},
            trigger,
            {"id": "open-label", "component": "Text", "text": "Open details"},
            {"id": "body", "component": "Text", "text": "Secret content"},
        ]),
        None,
    )
}

fn button_trigger() -> Value {
    json!({"id": "open", "component": "Button", "child": "open-label",
           "action": {"event": {"name": "opened"}}})
}

#[test]
fn clicking_the_trigger_opens_the_modal_and_close_closes_it() {
    let mut h = harness(modal_fixture(button_trigger()));
    assert!(shows(&h, "Open details"), "the trigger is drawn in place");
    assert!(
        !shows(&h, "Secret content"),
        "the content waits for the dialog"
    );
    h.get_by_label("Open details").click();
    h.run();
    assert!(shows(&h, "Secret content"));
    assert!(
        h.state()
            .events
            .iter()
            .any(|e| matches!(e, Event::Action(a) if a.name == "opened")),
        "the trigger button still fires its own action"
    );
    h.get_by_label("Close").click();
    h.run();
    assert!(!shows(&h, "Secret content"));
}

#[test]
fn escape_closes_the_modal() {
    let mut h = harness(modal_fixture(button_trigger()));
    h.get_by_label("Open details").click();
    h.run();
    assert!(shows(&h, "Secret content"));
    h.key_press(egui::Key::Escape);
    h.run();
    assert!(!shows(&h, "Secret content"));
    // And it opens again.
    h.get_by_label("Open details").click();
    h.run();
    assert!(shows(&h, "Secret content"));
}

#[test]
fn a_plain_text_trigger_opens_the_modal_too() {
    let mut h = harness(renderer(
        json!([
            {"id": "root", "component": "Modal", "trigger": "open-label", "content": "body"},
            {"id": "open-label", "component": "Text", "text": "Open details"},
            {"id": "body", "component": "Text", "text": "Secret content"},
        ]),
        None,
    ));
    h.get_by_label("Open details").click();
    h.run();
    assert!(shows(&h, "Secret content"));
}

#[test]
fn a_modal_without_content_opens_with_only_a_close_button() {
    let mut h = harness(renderer(
        json!([
            {"id": "root", "component": "Modal", "trigger": "open-label"},
            {"id": "open-label", "component": "Text", "text": "Open details"},
        ]),
        None,
    ));
    h.get_by_label("Open details").click();
    h.run();
    h.get_by_label("Close").click();
    h.run();
    assert!(h.query_by_label("Close").is_none());
}

#[test]
fn a_modal_without_a_trigger_draws_nothing() {
    let h = harness(renderer(
        json!([
            {"id": "root", "component": "Column", "children": ["modal", "after"]},
            {"id": "modal", "component": "Modal", "content": "body"},
            {"id": "body", "component": "Text", "text": "Secret content"},
            {"id": "after", "component": "Text", "text": "After"},
        ]),
        None,
    ));
    assert!(!shows(&h, "Secret content"));
    // Only the column's 8 px gap separates it from the next child, as in the web renderer.
    close(
        h.get_by_label("After").rect().top(),
        HOST.top() + 8.0,
        "takes no room",
    );
}

// ---------------------------------------------------------------- Divider

#[test]
fn dividers_take_a_thin_slice_between_their_neighbours() {
    let h = harness(renderer(
        json!([
            {"id": "root", "component": "Column", "children": ["row", "hr", "below"]},
            {"id": "row", "component": "Row", "children": ["left", "vr", "right"]},
            {"id": "left", "component": "Text", "text": "Left"},
            {"id": "vr", "component": "Divider", "axis": "vertical"},
            {"id": "right", "component": "Text", "text": "Right"},
            {"id": "hr", "component": "Divider"},
            {"id": "below", "component": "Text", "text": "Below"},
        ]),
        None,
    ));
    let left = h.get_by_label("Left").rect();
    let right = h.get_by_label("Right").rect();
    let below = h.get_by_label("Below").rect();
    let across = right.left() - left.right();
    let down = below.top() - left.bottom();
    // The web renderer's spacing: an 8 px flex gap, an 8 px margin, the 1 px line, an 8 px
    // margin and an 8 px gap (33 px), along either axis.
    close(across, 33.0, "vertical divider");
    close(down, 33.0, "horizontal divider");
}

// ---------------------------------------------------------------- Hostile trees

#[test]
fn containers_over_missing_children_and_odd_props_never_panic() {
    let h = unsettled_harness(renderer(
        json!([
            {"id": "root", "component": "Column", "justify": 5, "align": null,
             "children": ["row", "list", "card", "tabs", "modal", "ghost", "div"]},
            {"id": "row", "component": "Row", "justify": "nonsense", "children": ["ghost", "ghost"]},
            {"id": "list", "component": "List", "direction": 3, "children": ["ghost"]},
            {"id": "card", "component": "Card", "child": "ghost"},
            {"id": "tabs", "component": "Tabs", "tabs": [{"title": "T", "child": "ghost"}]},
            {"id": "modal", "component": "Modal", "trigger": "ghost", "content": "ghost"},
            {"id": "div", "component": "Divider", "axis": ["vertical"]},
        ]),
        None,
    ));
    assert!(h.query_all_by_label("Loading…").count() >= 5);
}

#[test]
fn a_cycle_through_containers_is_cut() {
    let h = harness(renderer(
        json!([
            {"id": "root", "component": "Column", "children": ["card"]},
            {"id": "card", "component": "Card", "child": "row"},
            {"id": "row", "component": "Row", "children": ["root", "leaf"]},
            {"id": "leaf", "component": "Text", "text": "Leaf"},
        ]),
        None,
    ));
    assert!(shows(&h, "Leaf"));
}

// ---------------------------------------------------------------- Children between frames

/// A container lists its children once per revision of the surface and keeps the list
/// while nothing changes: a data write that grows its template, and a component update
/// that changes a static list, both show in the next frame.
#[test]
fn a_containers_children_follow_data_and_component_updates() {
    let mut h = harness(renderer(
        json!([
            {"id": "root", "component": "Column", "children": ["items", "fixed"]},
            {"id": "items", "component": "Column", "children": {"componentId": "item", "path": "/items"}},
            {"id": "item", "component": "Text", "text": {"path": "name"}},
            {"id": "fixed", "component": "Row", "children": ["a"]},
            {"id": "a", "component": "Text", "text": "Static A"},
            {"id": "b", "component": "Text", "text": "Static B"}
        ]),
        Some(json!({"items": [{"name": "Apple"}]})),
    ));
    assert!(shows(&h, "Apple") && shows(&h, "Static A"));
    assert!(!shows(&h, "Pear") && !shows(&h, "Static B"));
    common::agent(
        &mut h,
        json!({"version": "v0.9", "updateDataModel": {"surfaceId": "s", "path": "/items/1", "value": {"name": "Pear"}}}),
    );
    h.run();
    assert!(
        shows(&h, "Apple") && shows(&h, "Pear"),
        "the new item is drawn"
    );
    common::agent(
        &mut h,
        json!({"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": [
            {"id": "fixed", "component": "Row", "children": ["b"]}
        ]}}),
    );
    h.run();
    assert!(
        shows(&h, "Static B") && !shows(&h, "Static A"),
        "the new list is drawn"
    );
    assert!(shows(&h, "Pear"), "the template is still drawn");
}

/// A property bound to a function call follows both the data it reads and an agent's
/// change of the call itself (the call object is kept per surface revision).
#[test]
fn a_function_call_property_follows_data_and_component_updates() {
    let mut h = harness(renderer(
        json!([
            {"id": "root", "component": "Column", "children": ["t"]},
            {"id": "t", "component": "Text", "text": {"call": "formatString", "args": {"value": "Weight ${/n} kg"}}}
        ]),
        Some(json!({"n": 3})),
    ));
    assert!(shows(&h, "Weight 3 kg"));
    common::agent(
        &mut h,
        json!({"version": "v0.9", "updateDataModel": {"surfaceId": "s", "path": "/n", "value": 4}}),
    );
    h.run();
    assert!(
        shows(&h, "Weight 4 kg") && !shows(&h, "Weight 3 kg"),
        "new data"
    );
    common::agent(
        &mut h,
        json!({"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": [
            {"id": "t", "component": "Text", "text": {"call": "formatString", "args": {"value": "Mass ${/n} kg"}}}
        ]}}),
    );
    h.run();
    assert!(
        shows(&h, "Mass 4 kg") && !shows(&h, "Weight 4 kg"),
        "new call"
    );
}
