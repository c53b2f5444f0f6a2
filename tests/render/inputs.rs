//! The input components drawn in a kittest harness: two-way binding, local edits, variants,
//! checks, and the edits each input writes.

use crate::common;

use common::{actions, agent, data, harness, v09_doc, v10_doc};
use egui::accesskit::Role;
use egui_a2ui::Event;
use egui_kittest::kittest::{NodeT as _, Queryable};
use serde_json::{Value, json};

fn text_field_doc(field: Value) -> String {
    v09_doc(
        json!([
            {"id": "root", "component": "Column", "children": ["field", "echo"]},
            field,
            {"id": "echo", "component": "Text", "text": {"path": "/name"}}
        ]),
        json!({"name": "", "other": 1, "ok1": true, "ok2": true}),
    )
}

/// Whether a Text (an AccessKit label) shows exactly `text`.
fn label_shows(h: &egui_kittest::Harness<'static, common::App>, text: &str) -> bool {
    h.query_all_by_value(text)
        .any(|n| n.accesskit_node().role() == Role::Label)
}

fn name_field() -> Value {
    json!({"id": "field", "component": "TextField", "label": "Name", "value": {"path": "/name"}})
}

#[test]
fn typing_into_a_bound_text_field_updates_a_text_bound_to_the_same_path() {
    let mut h = harness(&text_field_doc(name_field()));
    h.get_by_label("Name").focus();
    h.run();
    h.get_by_label("Name").type_text("Ada");
    h.run();
    assert_eq!(data(&h, "/name"), Some(json!("Ada")));
    assert!(label_shows(&h, "Ada"), "the bound Text shows the edit");
    assert!(actions(&h).is_empty(), "typing sends nothing to the agent");
    assert!(h.state().events.iter().any(|e| matches!(
        e,
        Event::DataChanged { path, value, .. } if path == "/name" && value == "Ada"
    )));
}

#[test]
fn every_keystroke_writes_the_bound_path() {
    let mut h = harness(&text_field_doc(name_field()));
    h.get_by_label("Name").focus();
    h.run();
    for (typed, expected) in [("A", "A"), ("d", "Ad"), ("a", "Ada")] {
        h.get_by_label("Name").type_text(typed);
        h.run();
        assert_eq!(data(&h, "/name"), Some(json!(expected)));
    }
}

#[test]
fn an_agent_update_to_another_path_mid_typing_keeps_the_typed_text_and_cursor() {
    let mut h = harness(&text_field_doc(name_field()));
    h.get_by_label("Name").focus();
    h.run();
    h.get_by_label("Name").type_text("Ad");
    h.run();
    agent(
        &mut h,
        json!({"version": "v0.9", "updateDataModel": {"surfaceId": "s", "path": "/other", "value": 2}}),
    );
    h.run();
    let field = h.get_by_label("Name");
    assert_eq!(field.value().as_deref(), Some("Ad"));
    assert!(field.is_focused(), "the field keeps focus");
    field.type_text("a");
    h.run();
    assert_eq!(
        data(&h, "/name"),
        Some(json!("Ada")),
        "the cursor stayed at the end"
    );
}

#[test]
fn an_agent_update_to_the_same_path_wins_over_the_edit() {
    let mut h = harness(&text_field_doc(name_field()));
    h.get_by_label("Name").focus();
    h.run();
    h.get_by_label("Name").type_text("Ad");
    h.run();
    agent(
        &mut h,
        json!({"version": "v0.9", "updateDataModel": {"surfaceId": "s", "path": "/name", "value": "Grace"}}),
    );
    h.run();
    assert_eq!(h.get_by_label("Name").value().as_deref(), Some("Grace"));
    assert_eq!(data(&h, "/name"), Some(json!("Grace")));
}

#[test]
fn a_text_field_bound_to_a_literal_keeps_its_edit_as_local_state() {
    let doc = v09_doc(
        json!([{"id": "root", "component": "TextField", "label": "Note", "value": "draft"}]),
        json!({}),
    );
    let mut h = harness(&doc);
    h.get_by_label("Note").focus();
    h.run();
    h.get_by_label("Note").type_text("!");
    h.run();
    assert_eq!(h.get_by_label("Note").value().as_deref(), Some("draft!"));
    assert_eq!(
        data(&h, "/"),
        Some(json!({})),
        "the data model is untouched"
    );
    assert!(
        !h.state()
            .events
            .iter()
            .any(|e| matches!(e, Event::DataChanged { .. }))
    );
}

#[test]
fn a_text_field_bound_to_a_function_call_keeps_its_edit_as_local_state() {
    let doc = v09_doc(
        json!([{"id": "root", "component": "TextField", "label": "Computed",
            "value": {"call": "someHostFunction", "args": {"value": {"path": "/name"}}}}]),
        json!({"name": "x"}),
    );
    let mut h = harness(&doc);
    h.get_by_label("Computed").focus();
    h.run();
    h.get_by_label("Computed").type_text("typed");
    h.run();
    assert_eq!(h.get_by_label("Computed").value().as_deref(), Some("typed"));
    assert_eq!(data(&h, "/"), Some(json!({"name": "x"})));
}

#[test]
fn a_number_text_field_rejects_letters() {
    let field = json!({"id": "field", "component": "TextField", "label": "Age", "variant": "number", "value": {"path": "/name"}});
    let mut h = harness(&text_field_doc(field));
    h.get_by_label("Age").focus();
    h.run();
    h.get_by_label("Age").type_text("4x2");
    h.run();
    h.get_by_label("Age").type_text("abc");
    h.run();
    h.get_by_label("Age").type_text(".5");
    h.run();
    assert_eq!(data(&h, "/name"), Some(json!("42.5")));
    assert_eq!(h.get_by_label("Age").value().as_deref(), Some("42.5"));
}

#[test]
fn text_field_variants_map_to_password_and_multiline_inputs() {
    let doc = v09_doc(
        json!([
            {"id": "root", "component": "Column", "children": ["pw", "long"]},
            {"id": "pw", "component": "TextField", "label": "Password", "variant": "obscured", "value": {"path": "/pw"}},
            {"id": "long", "component": "TextField", "label": "Story", "variant": "longText", "value": {"path": "/story"}}
        ]),
        json!({"pw": "secret", "story": "once"}),
    );
    let mut h = harness(&doc);
    assert_eq!(
        h.get_by_label("Password").accesskit_node().role(),
        Role::PasswordInput
    );
    assert_ne!(
        h.get_by_label("Password").value().as_deref(),
        Some("secret")
    );
    assert_eq!(
        h.get_by_label("Story").accesskit_node().role(),
        Role::MultilineTextInput
    );
    h.get_by_label("Story").focus();
    h.run();
    h.key_press(egui::Key::Enter);
    h.get_by_label("Story").type_text("upon");
    h.run();
    assert_eq!(data(&h, "/story"), Some(json!("once\nupon")));
}

#[test]
fn a_v1_placeholder_is_the_hint_text() {
    let doc = v10_doc(
        json!([{"id": "root", "component": "TextField", "label": "Email", "placeholder": "you@example.com", "value": {"path": "/email"}}]),
        json!({"email": ""}),
    );
    let h = harness(&doc);
    let node = h.get_by_label("Email");
    assert_eq!(
        node.accesskit_node().data().placeholder(),
        Some("you@example.com")
    );
}

#[test]
fn every_failing_check_shows_under_a_text_field() {
    let field = json!({
        "id": "field", "component": "TextField", "label": "Name", "value": {"path": "/name"},
        "checks": [
            {"condition": {"path": "/ok1"}, "message": "first message"},
            {"condition": {"path": "/ok2"}, "message": "second message"}
        ]
    });
    let mut h = harness(&text_field_doc(field));
    assert!(!label_shows(&h, "first message"), "no failure yet");
    agent(
        &mut h,
        json!({"version": "v0.9", "updateDataModel": {"surfaceId": "s", "path": "/ok1", "value": false}}),
    );
    agent(
        &mut h,
        json!({"version": "v0.9", "updateDataModel": {"surfaceId": "s", "path": "/ok2", "value": false}}),
    );
    h.run();
    // As in the web renderer, every failing check's message shows, one a line, in order.
    assert!(label_shows(&h, "first message"));
    assert!(label_shows(&h, "second message"));
    let first = h.get_by_label("first message").rect();
    let second = h.get_by_label("second message").rect();
    assert!(first.bottom() <= second.top(), "{first:?} above {second:?}");
    agent(
        &mut h,
        json!({"version": "v0.9", "updateDataModel": {"surfaceId": "s", "path": "/ok1", "value": true}}),
    );
    h.run();
    assert!(!label_shows(&h, "first message"));
    assert!(label_shows(&h, "second message"));
}

#[test]
fn validation_regexp_is_honoured_as_a_check() {
    let field = json!({"id": "field", "component": "TextField", "label": "Zip", "validationRegexp": "^[0-9]{5}$", "value": {"path": "/name"}});
    let mut h = harness(&text_field_doc(field));
    let msg = "The value does not have the expected format";
    assert!(!label_shows(&h, msg), "an empty value passes");
    h.get_by_label("Zip").focus();
    h.run();
    h.get_by_label("Zip").type_text("12a");
    h.run();
    assert!(label_shows(&h, msg));
    agent(
        &mut h,
        json!({"version": "v0.9", "updateDataModel": {"surfaceId": "s", "path": "/name", "value": "12345"}}),
    );
    h.run();
    assert!(!label_shows(&h, msg));
}

#[test]
fn enter_in_a_single_line_text_field_fires_its_action() {
    let doc = v10_doc(
        json!([{"id": "root", "component": "TextField", "label": "Search", "value": {"path": "/q"},
            "action": {"event": {"name": "search", "context": {"query": {"path": "/q"}}}}}]),
        json!({"q": ""}),
    );
    let mut h = harness(&doc);
    h.get_by_label("Search").focus();
    h.run();
    h.get_by_label("Search").type_text("egui");
    h.run();
    assert!(actions(&h).is_empty(), "typing fires nothing");
    h.key_press(egui::Key::Enter);
    h.run();
    let a = actions(&h);
    assert_eq!(a.len(), 1);
    assert_eq!(a[0].name, "search");
    assert_eq!(a[0].context["query"], "egui");
}

#[test]
fn enter_in_a_text_field_without_an_action_fires_nothing() {
    let mut h = harness(&text_field_doc(name_field()));
    h.get_by_label("Name").focus();
    h.run();
    h.get_by_label("Name").type_text("x");
    h.key_press(egui::Key::Enter);
    h.run();
    assert!(actions(&h).is_empty());
}

#[test]
fn toggling_a_check_box_writes_the_model() {
    let doc = v09_doc(
        json!([{"id": "root", "component": "CheckBox", "label": "Subscribe", "value": {"path": "/sub"}}]),
        json!({"sub": false}),
    );
    let mut h = harness(&doc);
    h.get_by_label("Subscribe").click();
    h.run();
    assert_eq!(data(&h, "/sub"), Some(json!(true)));
    h.get_by_label("Subscribe").click();
    h.run();
    assert_eq!(data(&h, "/sub"), Some(json!(false)));
}

#[test]
fn a_check_box_bound_to_a_literal_keeps_its_state_locally() {
    let doc = v09_doc(
        json!([{"id": "root", "component": "CheckBox", "label": "Local", "value": false}]),
        json!({}),
    );
    let mut h = harness(&doc);
    h.get_by_label("Local").click();
    h.run();
    assert_eq!(
        h.get_by_label("Local").accesskit_node().data().toggled(),
        Some(egui::accesskit::Toggled::True)
    );
    assert_eq!(data(&h, "/"), Some(json!({})));
}

#[test]
fn a_slider_edit_writes_the_model_snapped_to_its_steps() {
    let doc = v10_doc(
        json!([
            {"id": "root", "component": "Column", "children": ["vol", "echo"]},
            {"id": "vol", "component": "Slider", "label": "Volume", "min": 0, "max": 10, "steps": 4, "value": {"path": "/vol"}},
            {"id": "echo", "component": "Text", "text": {"path": "/vol"}}
        ]),
        json!({"vol": 5}),
    );
    let mut h = harness(&doc);
    h.get_by_role_and_label(Role::Slider, "Volume")
        .set_value_accesskit(3.0);
    h.run();
    assert_eq!(data(&h, "/vol"), Some(json!(2.5)));
    assert!(label_shows(&h, "2.5"), "the bound Text follows");
    h.get_by_role_and_label(Role::Slider, "Volume")
        .set_value_accesskit(9.9);
    h.run();
    assert_eq!(data(&h, "/vol"), Some(json!(10)));
}

#[test]
fn a_slider_follows_the_pointer_the_arrow_keys_and_screen_reader_steps() {
    // The slider's input is its own (not egui's slider): each way of moving it writes the
    // model, snapped and clamped.
    let doc = v10_doc(
        json!([
            {"id": "root", "component": "Column", "children": ["vol", "fine"]},
            {"id": "vol", "component": "Slider", "label": "Volume", "min": 0, "max": 10, "steps": 10, "value": {"path": "/vol"}},
            {"id": "fine", "component": "Slider", "label": "Fine", "min": 0, "max": 100, "value": {"path": "/fine"}}
        ]),
        json!({"vol": 0, "fine": 100}),
    );
    let mut h = harness(&doc);
    let node = |h: &egui_kittest::Harness<'static, common::App>, name: &str| {
        let n = h.get_by_role_and_label(Role::Slider, name);
        let a = n.accesskit_node();
        (
            a.numeric_value(),
            a.min_numeric_value(),
            a.max_numeric_value(),
            a.numeric_value_step(),
        )
    };
    assert_eq!(
        node(&h, "Volume"),
        (Some(0.0), Some(0.0), Some(10.0), Some(1.0))
    );
    assert_eq!(
        node(&h, "Fine"),
        (Some(100.0), Some(0.0), Some(100.0), None)
    );
    // A click in the middle of the track: the middle of the range.
    h.get_by_role_and_label(Role::Slider, "Volume").click();
    h.run();
    assert_eq!(data(&h, "/vol"), Some(json!(5)));
    // Focused, the arrow keys step it by its step; past the end it stays at the end.
    h.get_by_role_and_label(Role::Slider, "Volume").focus();
    h.run();
    h.key_press(egui::Key::ArrowRight);
    h.run();
    h.key_press(egui::Key::ArrowRight);
    h.run();
    assert_eq!(data(&h, "/vol"), Some(json!(7)));
    h.key_press(egui::Key::ArrowLeft);
    h.run();
    assert_eq!(data(&h, "/vol"), Some(json!(6)));
    // A screen reader's increment and decrement.
    h.get_by_role_and_label(Role::Slider, "Volume")
        .increment_accesskit();
    h.run();
    assert_eq!(data(&h, "/vol"), Some(json!(7)));
    h.get_by_role_and_label(Role::Slider, "Volume")
        .decrement_accesskit();
    h.get_by_role_and_label(Role::Slider, "Volume")
        .decrement_accesskit();
    h.run();
    assert_eq!(data(&h, "/vol"), Some(json!(5)));
    // Without steps a decrement moves the thumb a point along the track: a little below
    // the top of the range, never above it.
    h.get_by_role_and_label(Role::Slider, "Fine")
        .decrement_accesskit();
    h.run();
    let fine = data(&h, "/fine")
        .and_then(|v| v.as_f64())
        .unwrap_or(f64::NAN);
    assert!(fine < 100.0 && fine > 90.0, "{fine}");
    h.get_by_role_and_label(Role::Slider, "Fine")
        .increment_accesskit();
    h.get_by_role_and_label(Role::Slider, "Fine")
        .increment_accesskit();
    h.run();
    assert_eq!(data(&h, "/fine"), Some(json!(100)));
}

#[test]
fn agent_updates_move_a_bound_slider_and_check_box_drawn_before() {
    // Both were drawn (and their bound values resolved) before the update: what a frame
    // keeps of them must not outlive the data it came from.
    let doc = v09_doc(
        json!([
            {"id": "root", "component": "Column", "children": ["vol", "sub"]},
            {"id": "vol", "component": "Slider", "label": "Volume", "min": 0, "max": 10, "value": {"path": "/vol"}},
            {"id": "sub", "component": "CheckBox", "label": "Subscribe", "value": {"path": "/sub"}}
        ]),
        json!({"vol": 2, "sub": false}),
    );
    let mut h = harness(&doc);
    h.run();
    let slider = |h: &egui_kittest::Harness<'static, common::App>| {
        h.get_by_role_and_label(Role::Slider, "Volume")
            .accesskit_node()
            .numeric_value()
    };
    let toggled = |h: &egui_kittest::Harness<'static, common::App>| {
        h.get_by_label("Subscribe")
            .accesskit_node()
            .data()
            .toggled()
    };
    assert_eq!(slider(&h), Some(2.0));
    assert_eq!(toggled(&h), Some(egui::accesskit::Toggled::False));
    agent(
        &mut h,
        json!({"version": "v0.9", "updateDataModel": {"surfaceId": "s", "path": "/vol", "value": 7}}),
    );
    agent(
        &mut h,
        json!({"version": "v0.9", "updateDataModel": {"surfaceId": "s", "path": "/sub", "value": true}}),
    );
    h.run();
    assert_eq!(slider(&h), Some(7.0));
    assert_eq!(toggled(&h), Some(egui::accesskit::Toggled::True));
}

#[test]
fn choosing_a_radio_option_writes_a_one_item_array() {
    let doc = v09_doc(
        json!([{"id": "root", "component": "ChoicePicker", "label": "Size", "value": {"path": "/size"},
            "options": [{"label": "Small", "value": "s"}, {"label": "Large", "value": "l"}]}]),
        json!({"size": ["s"]}),
    );
    let mut h = harness(&doc);
    assert_eq!(
        h.get_by_label("Large").accesskit_node().role(),
        Role::RadioButton
    );
    h.get_by_label("Large").click();
    h.run();
    assert_eq!(data(&h, "/size"), Some(json!(["l"])));
}

#[test]
fn multiple_selection_check_boxes_toggle_values_in_option_order() {
    let doc = v09_doc(
        json!([{"id": "root", "component": "ChoicePicker", "label": "Toppings", "variant": "multipleSelection",
            "value": {"path": "/t"},
            "options": [{"label": "Cheese", "value": "cheese"}, {"label": "Ham", "value": "ham"}, {"label": "Olives", "value": "olives"}]}]),
        json!({"t": ["olives"]}),
    );
    let mut h = harness(&doc);
    assert_eq!(
        h.get_by_label("Ham").accesskit_node().role(),
        Role::CheckBox
    );
    h.get_by_label("Cheese").click();
    h.run();
    assert_eq!(data(&h, "/t"), Some(json!(["cheese", "olives"])));
    h.get_by_label("Olives").click();
    h.run();
    assert_eq!(data(&h, "/t"), Some(json!(["cheese"])));
}

#[test]
fn chips_select_like_their_variant_and_a_filter_narrows_them() {
    let doc = v09_doc(
        json!([{"id": "root", "component": "ChoicePicker", "label": "City", "displayStyle": "chips",
            "filterable": true, "value": {"path": "/city"},
            "options": [{"label": "Paris", "value": "par"}, {"label": "Lisbon", "value": "lis"}, {"label": "Pune", "value": "pun"}]}]),
        json!({"city": []}),
    );
    let mut h = harness(&doc);
    h.get_by_label("Filter City").focus();
    h.run();
    h.get_by_label("Filter City").type_text("PU");
    h.run();
    assert!(h.query_by_label("Paris").is_none(), "filtered out");
    assert!(h.query_by_label("Lisbon").is_none(), "filtered out");
    h.get_by_label("Pune").click();
    h.run();
    assert_eq!(data(&h, "/city"), Some(json!(["pun"])));
    assert_eq!(
        h.get_by_label("Filter City").value().as_deref(),
        Some("PU"),
        "the filter text stays in widget state"
    );
}

fn date_doc(value: &str, extra: Value) -> String {
    let mut input = json!({"id": "root", "component": "DateTimeInput", "label": "When", "enableDate": true, "value": {"path": "/when"}});
    if let (Some(o), Value::Object(e)) = (input.as_object_mut(), extra) {
        o.extend(e);
    }
    v09_doc(json!([input]), json!({ "when": value }))
}

/// Open the date picker of the only DateTimeInput, press `buttons` in it, then Save.
fn pick(h: &mut egui_kittest::Harness<'static, common::App>, button_label: &str, buttons: &[&str]) {
    h.get_by_label(button_label).click();
    h.run();
    for b in buttons {
        h.get_by_label(b).click();
        h.run();
    }
    h.get_by_label("Save").click();
    h.run();
}

#[test]
fn saving_the_date_picker_unchanged_round_trips_the_iso_date_exactly() {
    for date in ["2024-01-31", "2024-02-29", "2024-12-31"] {
        let mut h = harness(&date_doc(date, json!({})));
        pick(&mut h, date, &[]);
        assert_eq!(data(&h, "/when"), Some(json!(date)));
    }
}

#[test]
fn the_next_day_after_a_month_end_is_the_first_of_the_next_month() {
    for (from, to) in [
        ("2024-01-31", "2024-02-01"),
        ("2024-02-29", "2024-03-01"),
        ("2023-02-28", "2023-03-01"),
        ("2024-12-31", "2025-01-01"),
    ] {
        let mut h = harness(&date_doc(from, json!({})));
        pick(&mut h, from, &[">"]);
        assert_eq!(data(&h, "/when"), Some(json!(to)), "{from} + 1 day");
    }
}

#[test]
fn a_date_picker_respects_max() {
    let mut h = harness(&date_doc("2024-12-31", json!({"max": "2024-12-31"})));
    pick(&mut h, "2024-12-31", &[">"]);
    assert_eq!(data(&h, "/when"), Some(json!("2024-12-31")));
}

#[test]
fn an_empty_date_shows_a_select_placeholder() {
    let h = harness(&date_doc("", json!({})));
    assert!(h.query_by_label("Select").is_some());
}

#[test]
fn a_time_edit_writes_hh_mm_and_keeps_seconds_when_given() {
    let doc = v09_doc(
        json!([{"id": "root", "component": "DateTimeInput", "label": "Alarm", "enableTime": true, "value": {"path": "/t"}}]),
        json!({"t": "07:30"}),
    );
    let mut h = harness(&doc);
    h.get_by_label("Alarm hour").set_value_accesskit(8.0);
    h.run();
    assert_eq!(data(&h, "/t"), Some(json!("08:30")));

    let doc = v09_doc(
        json!([{"id": "root", "component": "DateTimeInput", "label": "Alarm", "enableTime": true, "value": {"path": "/t"}}]),
        json!({"t": "07:30:15"}),
    );
    let mut h = harness(&doc);
    h.get_by_label("Alarm minute").set_value_accesskit(45.0);
    h.run();
    assert_eq!(data(&h, "/t"), Some(json!("07:45:15")));
}

#[test]
fn a_date_time_edit_writes_the_full_iso_date_time() {
    let doc = v09_doc(
        json!([{"id": "root", "component": "DateTimeInput", "label": "Meet", "enableDate": true, "enableTime": true, "value": {"path": "/m"}}]),
        json!({"m": "2024-01-31T23:59:59"}),
    );
    let mut h = harness(&doc);
    h.get_by_label("Meet hour").set_value_accesskit(9.0);
    h.run();
    assert_eq!(data(&h, "/m"), Some(json!("2024-01-31T09:59:59")));
    pick(&mut h, "2024-01-31", &[">"]);
    assert_eq!(data(&h, "/m"), Some(json!("2024-02-01T09:59:59")));
}

#[test]
fn hostile_input_props_never_panic() {
    let many: Vec<Value> = (0..20_000)
        .map(|i| json!({"label": format!("Option {i}"), "value": i}))
        .collect();
    let doc = v10_doc(
        json!([
            {"id": "root", "component": "Column", "children": ["s1", "s2", "s3", "c1", "c2", "c3", "d1", "d2", "d3", "t1", "t2"]},
            {"id": "s1", "component": "Slider", "min": 100, "max": 0, "value": {"path": "/n"}},
            {"id": "s2", "component": "Slider", "min": 5, "max": 5, "steps": 0, "value": "abc"},
            {"id": "s3", "component": "Slider", "min": -1e308, "max": 1e308, "steps": 1e300, "value": 1e308},
            {"id": "c1", "component": "ChoicePicker", "options": [1, null, {"label": {"x": 1}, "value": [1]}, "x"], "value": {"path": "/n"}},
            {"id": "c2", "component": "ChoicePicker", "options": many, "value": "nope"},
            {"id": "c3", "component": "ChoicePicker", "displayStyle": "chips", "options": many, "value": {"path": "/sel"}},
            {"id": "d1", "component": "DateTimeInput", "value": "2023-02-29", "enableDate": true},
            {"id": "d2", "component": "DateTimeInput", "value": "99:99", "enableTime": true, "min": "2030-01-01", "max": "1999-01-01"},
            {"id": "d3", "component": "DateTimeInput", "value": {"path": "/n"}, "min": "garbage"},
            {"id": "t1", "component": "TextField", "label": "T1", "variant": "number", "value": "not a number", "validationRegexp": "(unclosed"},
            {"id": "t2", "component": "TextField", "label": {"path": "/missing"}, "value": {"path": "/n/deeper"}}
        ]),
        json!({"n": 42, "sel": "not-an-array"}),
    );
    let mut h = harness(&doc);
    h.run();
    h.get_by_label("T1").focus();
    h.run();
    h.get_by_label("T1").type_text("7");
    h.run();
    assert!(
        h.state().events.iter().any(
            |e| matches!(e, Event::Error(err) if err.error.to_string().contains("validationRegexp"))
        ),
        "the bad pattern is reported to the agent"
    );
}
