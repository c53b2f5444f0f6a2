//! The action loop: buttons draw their child subtree, fire their action only on a user
//! gesture and only while their checks pass, resolve the context in their own scope, run
//! local functions, and refuse unsafe URLs.

use crate::common;

use common::{actions, agent, data, harness, v09_doc, v10_doc};
use egui::accesskit::Role;
use egui_a2ui::{Event, Version};
use egui_kittest::kittest::{NodeT as _, Queryable};
use serde_json::json;

#[test]
fn clicking_a_button_inside_a_template_row_emits_that_rows_context() {
    let doc = v09_doc(
        json!([
            {"id": "root", "component": "List", "children": {"componentId": "row", "path": "/items"}},
            {"id": "row", "component": "Row", "children": ["name", "buy"]},
            {"id": "name", "component": "Text", "text": {"path": "name"}},
            {"id": "buy", "component": "Button", "child": "buy-label",
                "action": {"event": {"name": "buy", "context": {"item": {"path": "name"}, "price": {"path": "price"}, "fixed": "x"}}}},
            {"id": "buy-label", "component": "Text", "text": {"path": "label"}}
        ]),
        json!({"items": [
            {"name": "Apple", "price": 1, "label": "Buy Apple"},
            {"name": "Pear", "price": 2, "label": "Buy Pear"},
            {"name": "Plum", "price": 3, "label": "Buy Plum"},
            {"name": "Fig", "price": 4.5, "label": "Buy Fig"}
        ]}),
    );
    let mut h = harness(&doc);
    h.get_by_role_and_label(Role::Button, "Buy Fig").click();
    h.run();
    let a = actions(&h);
    assert_eq!(a.len(), 1);
    assert_eq!(a[0].name, "buy");
    assert_eq!(a[0].source_component_id, "buy");
    assert_eq!(a[0].scope, "/items/3");
    assert_eq!(
        serde_json::Value::Object(a[0].context.clone()),
        json!({"item": "Fig", "price": 4.5, "fixed": "x"})
    );
}

/// A button whose check fails, over a model where the check fails until `/agreed` is set.
fn checked_button_doc() -> String {
    v09_doc(
        json!([
            {"id": "root", "component": "Button", "child": "label",
                "checks": [{"condition": {"path": "/agreed"}, "message": "Accept the terms first"}],
                "action": {"event": {"name": "submit"}}},
            {"id": "label", "component": "Text", "text": "Submit"}
        ]),
        json!({"agreed": false}),
    )
}

/// Whether the check message is drawn as a text of its own (a label node).
fn message_drawn(h: &egui_kittest::Harness<'_, common::App>) -> bool {
    h.query_all_by_value("Accept the terms first")
        .any(|n| n.accesskit_node().role() == Role::Label)
}

#[test]
fn a_button_with_a_failing_check_emits_nothing_and_tells_why_as_the_web_renderer_does() {
    let mut h = harness(&checked_button_doc());
    // As the web renderer: no message in the layout; it is the button's description.
    assert!(!message_drawn(&h), "the message takes no room by default");
    let button = h.get_by_role_and_label(Role::Button, "Submit");
    assert!(button.accesskit_node().is_disabled());
    assert_eq!(
        button.accesskit_node().description().as_deref(),
        Some("Accept the terms first"),
        "a screen reader reads why the button is disabled"
    );
    button.click();
    h.run();
    h.get_by_role_and_label(Role::Button, "Submit")
        .click_accesskit();
    h.run();
    assert!(actions(&h).is_empty(), "a failing check blocks the action");

    // Hovering the disabled button shows the message.
    h.ctx.all_styles_mut(|s| s.interaction.tooltip_delay = 0.0);
    h.get_by_role_and_label(Role::Button, "Submit").hover();
    for _ in 0..5 {
        h.step();
    }
    assert!(message_drawn(&h), "the hover text shows the message");

    agent(
        &mut h,
        json!({"version": "v0.9", "updateDataModel": {"surfaceId": "s", "path": "/agreed", "value": true}}),
    );
    h.run();
    assert!(h.query_by_value("Accept the terms first").is_none());
    let button = h.get_by_role_and_label(Role::Button, "Submit");
    assert_eq!(
        button.accesskit_node().description(),
        None,
        "no reason once enabled"
    );
    button.click();
    h.run();
    assert_eq!(
        actions(&h).len(),
        1,
        "once the check passes the click fires"
    );
}

#[test]
fn a_host_can_draw_the_check_message_beside_the_disabled_button() {
    let mut r = egui_a2ui::Renderer::new(egui_a2ui::Catalog::basic());
    r.options_mut().button_check_message = egui_a2ui::render::ButtonCheckMessage::Beside;
    r.feed_document(checked_button_doc().as_bytes());
    let mut h = common::harness_for(r);
    assert!(message_drawn(&h), "drawn beside the button");
    let button = h.get_by_role_and_label(Role::Button, "Submit");
    assert!(button.accesskit_node().is_disabled());
    let message = h
        .query_all_by_value("Accept the terms first")
        .find(|n| n.accesskit_node().role() == Role::Label)
        .map(|n| n.rect());
    let (Some(message), button) = (message, button.rect()) else {
        panic!("the message has a box");
    };
    assert!(
        message.left() >= button.right() - 0.5,
        "beside, not under: {message:?} vs {button:?}"
    );
    agent(
        &mut h,
        json!({"version": "v0.9", "updateDataModel": {"surfaceId": "s", "path": "/agreed", "value": true}}),
    );
    h.run();
    assert!(!message_drawn(&h), "gone once the check passes");
}

#[test]
fn a_button_draws_its_child_row_and_is_named_by_its_text() {
    let doc = v09_doc(
        json!([
            {"id": "root", "component": "Button", "child": "row", "variant": "primary",
                "action": {"event": {"name": "send"}}},
            {"id": "row", "component": "Row", "children": ["icon", "text"]},
            {"id": "icon", "component": "Icon", "name": "send"},
            {"id": "text", "component": "Text", "text": "Send **now**"}
        ]),
        json!({}),
    );
    let mut h = harness(&doc);
    let button = h.get_by_role(Role::Button);
    assert_eq!(
        button.accesskit_node().label().as_deref(),
        Some("send Send now")
    );
    let button_rect = button.rect();
    let texts: Vec<_> = h
        .query_all_by_role(Role::Label)
        .filter(|n| n.value().is_some_and(|v| v.contains("Send")))
        .map(|n| n.rect())
        .collect();
    assert!(!texts.is_empty(), "the child Text is drawn");
    for r in texts {
        assert!(
            button_rect.contains_rect(r),
            "the child is drawn inside the button"
        );
    }
    // Clicking on the child text still clicks the button.
    h.get_by_role(Role::Button).click();
    h.run();
    assert_eq!(actions(&h).len(), 1);
}

#[test]
fn an_icon_only_button_is_named_by_its_icon() {
    let doc = v09_doc(
        json!([
            {"id": "root", "component": "Button", "child": "icon", "variant": "borderless",
                "action": {"event": {"name": "back"}}},
            {"id": "icon", "component": "Icon", "name": "arrowBack"}
        ]),
        json!({}),
    );
    let mut h = harness(&doc);
    h.get_by_role_and_label(Role::Button, "arrow back").click();
    h.run();
    assert_eq!(actions(&h)[0].name, "back");
}

#[test]
fn rendering_and_data_updates_never_fire_actions() {
    let doc = v09_doc(
        json!([
            {"id": "root", "component": "Column", "children": ["field", "go"]},
            {"id": "field", "component": "TextField", "label": "Name", "value": {"path": "/name"}},
            {"id": "go", "component": "Button", "child": "go-label", "action": {"event": {"name": "go", "context": {"n": {"path": "/name"}}}}},
            {"id": "go-label", "component": "Text", "text": {"path": "/name"}}
        ]),
        json!({"name": "a"}),
    );
    let mut h = harness(&doc);
    for i in 0..5 {
        agent(
            &mut h,
            json!({"version": "v0.9", "updateDataModel": {"surfaceId": "s", "path": "/name", "value": format!("v{i}")}}),
        );
        h.run();
    }
    h.get_by_label("Name").focus();
    h.run();
    h.get_by_label("Name").type_text("x");
    h.run();
    assert_eq!(data(&h, "/name"), Some(json!("v4x")));
    assert!(actions(&h).is_empty());
}

#[test]
fn a_v1_action_carries_its_resolved_user_message() {
    let doc = v10_doc(
        json!([
            {"id": "root", "component": "Button", "child": "l",
                "action": {"event": {"name": "order", "userMessage": {"path": "/msg"}, "context": {"qty": 2}}}},
            {"id": "l", "component": "Text", "text": "Order"}
        ]),
        json!({"msg": "Ordered two coffees"}),
    );
    let mut h = harness(&doc);
    h.get_by_role_and_label(Role::Button, "Order").click();
    h.run();
    let a = actions(&h);
    assert_eq!(a[0].version, Version::V1_0);
    assert_eq!(a[0].user_message.as_deref(), Some("Ordered two coffees"));
    let msg = a[0].to_message();
    assert_eq!(msg["version"], "v1.0");
    assert_eq!(msg["action"]["userMessage"], "Ordered two coffees");
    assert_eq!(msg["action"]["context"], json!({"qty": 2}));
}

fn open_url_doc(url: &str) -> String {
    v09_doc(
        json!([
            {"id": "root", "component": "Button", "child": "l",
                "action": {"functionCall": {"call": "openUrl", "args": {"url": url}}}},
            {"id": "l", "component": "Text", "text": "Open"}
        ]),
        json!({}),
    )
}

#[test]
fn an_open_url_function_call_runs_locally_on_click_and_sends_nothing() {
    let mut h = harness(&open_url_doc("https://example.com/docs"));
    assert!(
        !h.state()
            .events
            .iter()
            .any(|e| matches!(e, Event::OpenUrl { .. })),
        "nothing opens from rendering"
    );
    h.get_by_role_and_label(Role::Button, "Open").click();
    h.run();
    let events = &h.state().events;
    assert!(events.iter().any(|e| matches!(
        e,
        Event::OpenUrl { url, source_component_id, .. }
            if url == "https://example.com/docs" && source_component_id == "root"
    )));
    assert!(actions(&h).is_empty(), "a local function sends no action");
    assert!(events.iter().all(|e| e.to_message().is_none()));
}

#[test]
fn a_javascript_open_url_is_refused_with_an_error_event() {
    for url in [
        "javascript:alert(1)",
        "JavaScript:alert(1)",
        "file:///etc/passwd",
        "data:text/html,hi",
        "//example.com",
    ] {
        let mut h = harness(&open_url_doc(url));
        h.get_by_role_and_label(Role::Button, "Open").click();
        h.run();
        let events = &h.state().events;
        assert!(
            !events.iter().any(|e| matches!(e, Event::OpenUrl { .. })),
            "{url} must not reach the host"
        );
        let error = events.iter().find_map(|e| match e {
            Event::Error(err) => Some(err),
            _ => None,
        });
        let error = error.unwrap_or_else(|| panic!("{url} is reported"));
        assert_eq!(error.surface_id.as_deref(), Some("s"));
        assert_eq!(error.to_message()["error"]["code"], "EXPRESSION_ERROR");
        // Its own kind, not an expression error: the URL and why it was refused.
        assert!(
            matches!(&error.error, egui_a2ui::A2uiError::UrlRefused { url: u, .. } if u == url),
            "{url}: {:?}",
            error.error
        );
    }
}

#[test]
fn keyboard_activation_of_a_focused_button_fires_its_action() {
    let doc = v09_doc(
        json!([
            {"id": "root", "component": "Button", "child": "l", "action": {"event": {"name": "k"}}},
            {"id": "l", "component": "Text", "text": "Go"}
        ]),
        json!({}),
    );
    let mut h = harness(&doc);
    h.get_by_role_and_label(Role::Button, "Go").focus();
    h.run();
    h.key_press(egui::Key::Enter);
    h.run();
    assert_eq!(actions(&h).len(), 1);
}
