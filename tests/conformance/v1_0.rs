//! The v1.0 renderer side: function RPC both ways, pending bindings, and the contact form
//! round trip.

use crate::common as inputs_common;

use egui_a2ui::eval::AllowedCallers;
use egui_a2ui::eval::FnFunction;
use egui_a2ui::{Catalog, Event, Renderer};
use egui_kittest::kittest::Queryable;
use inputs_common::{BASIC_V10, actions, agent, harness, harness_for, v10_doc};
use serde_json::{Value, json};

fn replies(events: &[Event]) -> Vec<Value> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Reply(m) => Some(m.clone()),
            _ => None,
        })
        .collect()
}

fn call(id: &str, name: &str, args: Value) -> Value {
    json!({"version": "v1.0", "callRendererFunction": {"functionCallId": id,
        "callFunction": {"call": name, "args": args, "catalogId": BASIC_V10}}})
}

#[test]
fn a_renderer_only_function_called_by_the_agent_gets_invalid_function_call() {
    let mut r = Renderer::new(Catalog::basic());
    r.apply(call(
        "c1",
        "formatNumber",
        json!({"value": 1.23456, "decimals": 2}),
    ))
    .into_result()
    .expect("applies");
    let out = replies(&r.take_events());
    assert_eq!(out.len(), 1, "always exactly one reply");
    assert_eq!(out[0]["version"], "v1.0");
    let resp = &out[0]["rendererFunctionResponse"];
    assert_eq!(resp["error"]["code"], "INVALID_FUNCTION_CALL");
    assert_eq!(resp["functionCallId"], "c1");
    assert!(resp.get("value").is_none());
}

#[test]
fn an_unknown_function_or_catalog_gets_invalid_function_call() {
    let mut r = Renderer::new(Catalog::basic());
    r.apply(call("c2", "launchMissiles", json!({})))
        .into_result()
        .expect("applies");
    let mut bad_catalog = call("c3", "formatNumber", json!({"value": 1}));
    bad_catalog["callRendererFunction"]["callFunction"]["catalogId"] =
        json!("https://example.com/other.json");
    r.apply(&bad_catalog).into_result().expect("applies");
    let out = replies(&r.take_events());
    assert_eq!(out.len(), 2);
    assert!(
        out.iter()
            .all(|m| m["rendererFunctionResponse"]["error"]["code"] == "INVALID_FUNCTION_CALL")
    );
    assert_eq!(out[1]["rendererFunctionResponse"]["functionCallId"], "c3");
}

#[test]
fn an_agent_callable_host_function_answers_with_its_value() {
    let mut catalog = Catalog::basic();
    catalog.register_function(
        FnFunction::new("double", |args, _cx| {
            Ok(json!(
                args.get("n").and_then(Value::as_f64).unwrap_or(0.0) * 2.0
            ))
        })
        .with_callers(AllowedCallers::RendererOrAgent),
    );
    let mut r = Renderer::new(catalog);
    r.apply(call("c4", "double", json!({"n": 21})))
        .into_result()
        .expect("applies");
    let out = replies(&r.take_events());
    assert_eq!(
        out[0],
        json!({"version": "v1.0", "rendererFunctionResponse": {"functionCallId": "c4", "value": 42.0}})
    );
}

fn weather_doc() -> String {
    v10_doc(
        json!([
            {"id": "root", "component": "Column", "children": ["forecast", "go"]},
            {"id": "forecast", "component": "Text", "text": {"call": "lookupWeather", "args": {"city": {"path": "/city"}}}},
            {"id": "go", "component": "Button", "child": "go-label",
             "action": {"event": {"name": "book", "context": {"weather": {"call": "lookupWeather", "args": {"city": {"path": "/city"}}}}}}},
            {"id": "go-label", "component": "Text", "text": "Book"}
        ]),
        json!({"city": "Oslo"}),
    )
}

#[test]
fn a_function_the_renderer_lacks_is_asked_of_the_agent_once_and_pending_until_answered() {
    let mut h = harness(&weather_doc());
    h.run();
    let sent = replies(&h.state().events);
    let calls: Vec<&Value> = sent
        .iter()
        .filter(|m| m.get("callAgentFunction").is_some())
        .collect();
    assert_eq!(
        calls.len(),
        1,
        "one call for the binding, however many frames: {sent:?}"
    );
    let c = &calls[0]["callAgentFunction"];
    assert_eq!(c["surfaceId"], "s");
    // The current v1.0 FunctionCall spelling (a2ui-core 0.4.0 `FunctionCall.call`, alias
    // `@call`).
    assert_eq!(
        c["callFunction"],
        json!({"@call": "lookupWeather", "args": {"city": "Oslo"}})
    );
    let id = c["functionCallId"].as_str().expect("id").to_owned();
    assert!(h.query_by_label("Sunny, 12°").is_none());
    // While pending, the action pipeline halts.
    h.get_by_label("Book").click();
    h.run();
    assert!(actions(&h).is_empty());
    agent(
        &mut h,
        json!({"version": "v1.0", "agentFunctionResponse": {"functionCallId": id, "value": "Sunny, 12°"}}),
    );
    h.run();
    h.get_by_label("Sunny, 12°");
    h.get_by_label("Book").click();
    h.run();
    let a = actions(&h);
    assert_eq!(a.len(), 1);
    assert_eq!(a[0].context["weather"], "Sunny, 12°");
}

#[test]
fn a_failed_agent_function_resolves_to_null_and_halts_the_action() {
    let mut h = harness(&weather_doc());
    h.run();
    let id = replies(&h.state().events)
        .iter()
        .find_map(|m| {
            m["callAgentFunction"]["functionCallId"]
                .as_str()
                .map(str::to_owned)
        })
        .expect("a call went out");
    agent(
        &mut h,
        json!({"version": "v1.0", "agentFunctionResponse": {"functionCallId": id, "error": {"code": "UNKNOWN_FUNCTION", "message": "no such tool"}}}),
    );
    h.run();
    h.get_by_label("Book").click();
    h.run();
    assert!(
        actions(&h).is_empty(),
        "the pipeline halts on an agent error"
    );
}

#[test]
fn a_stray_agent_function_response_is_answered_with_an_error() {
    let mut r = Renderer::new(Catalog::basic());
    r.apply(
        json!({"version": "v1.0", "agentFunctionResponse": {"functionCallId": "nope", "value": 1}}),
    )
    .into_result()
    .expect("applies");
    let out = replies(&r.take_events());
    assert_eq!(out[0]["error"]["functionCallId"], "nope");
}

#[test]
fn the_v1_contact_form_renders_and_round_trips_an_action() {
    let doc = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/a2ui/specification/v1_0/test/cases/contact_form_example.jsonl"
    ))
    .expect("fixture");
    // Everything but the final deleteSurface.
    let text = String::from_utf8(doc).expect("utf-8");
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| !l.contains("deleteSurface"))
        .collect();
    let mut r = Renderer::new(Catalog::basic());
    r.feed_document(lines.join("\n").as_bytes());
    let mut h = harness_for(r);
    h.get_by_label("Send Message").click();
    h.run();
    let a = actions(&h);
    assert_eq!(a.len(), 1, "{:?}", h.state().events);
    let m = a[0].to_message();
    assert_eq!(m["version"], "v1.0");
    assert_eq!(m["action"]["name"], "submitContactForm");
    assert_eq!(m["action"]["surfaceId"], "contact_form_1");
    assert_eq!(m["action"]["sourceComponentId"], "submit_button");
    assert_eq!(m["action"]["context"]["formId"], "contact_form_1");
    assert!(
        m["action"]["timestamp"]
            .as_str()
            .is_some_and(|t| t.ends_with('Z'))
    );
}

#[test]
fn catalog_composition_rules_refuse_unallowed_parents_and_children() {
    let cat = "https://example.com/app/catalog.json";
    let definition = json!({"catalogId": cat, "components": {
        "AppLayout": {"type": "object", "allowedParents": ["Surface"], "allowedChildren": ["Text"]},
        "Text": {"type": "object"},
        "Badge": {"type": "object", "allowedParents": ["Text"]}
    }});
    let mut catalog = Catalog::basic();
    catalog
        .add_definition(definition)
        .expect("a valid definition");
    catalog.register(
        "AppLayout",
        |ui: &mut egui::Ui, cx: &mut egui_a2ui::ComponentContext<'_, '_>| {
            ui.vertical(|ui| {
                for c in cx.children() {
                    cx.child_ui(ui, &c);
                }
            })
            .response
        },
    );
    catalog.register(
        "Badge",
        |ui: &mut egui::Ui, _cx: &mut egui_a2ui::ComponentContext<'_, '_>| ui.label("badge"),
    );
    let mut r = Renderer::new(catalog);
    r.feed_document(
        format!(
            "{}\n{}\n",
            json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": cat}}),
            json!({"version": "v1.0", "updateComponents": {"surfaceId": "s", "components": [
                {"id": "root", "component": "AppLayout", "children": ["ok", "inner", "badge"]},
                {"id": "ok", "component": "Text", "text": "allowed"},
                {"id": "inner", "component": "AppLayout", "children": []},
                {"id": "badge", "component": "Badge"}
            ]}})
        )
        .as_bytes(),
    );
    let mut h = harness_for(r);
    h.run();
    h.get_by_label("allowed");
    assert!(
        h.query_by_label("badge").is_none(),
        "an unallowed child is not drawn"
    );
    let errors: Vec<Value> = h
        .state()
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Error(e) => Some(e.to_message()),
            _ => None,
        })
        .collect();
    let codes: Vec<&str> = errors
        .iter()
        .filter_map(|m| m["error"]["code"].as_str())
        .collect();
    // `inner` may only sit under the Surface; `badge` only under Text, and AppLayout only
    // takes Text children.
    assert_eq!(
        codes.iter().filter(|c| **c == "UNALLOWED_PARENT").count(),
        2,
        "{errors:?}"
    );
    let inner = errors
        .iter()
        .find(|m| m["error"]["path"] == "/components/inner")
        .expect("inner reported");
    assert_eq!(inner["error"]["surfaceId"], "s");
    assert_eq!(inner["version"], "v1.0");
    // Reported once, not once per frame.
    h.run();
    let again = h
        .state()
        .events
        .iter()
        .filter(|e| matches!(e, Event::Error(_)))
        .count();
    assert_eq!(again, errors.len());
}

#[test]
fn a_parent_refusing_a_child_type_reports_unallowed_child() {
    let cat = "https://example.com/strict/catalog.json";
    let mut catalog = Catalog::basic();
    catalog
        .add_definition(json!({"catalogId": cat, "components": {
            "Column": {"allowedChildren": ["Text"]}, "Text": {}, "Button": {}}}))
        .expect("definition");
    for name in ["Column", "Text", "Button"] {
        let basic = Catalog::basic();
        let r = basic.renderer(name).expect("basic renderer");
        catalog.register(
            name,
            move |ui: &mut egui::Ui, cx: &mut egui_a2ui::ComponentContext<'_, '_>| r.ui(ui, cx),
        );
    }
    let mut r = Renderer::new(catalog);
    r.feed_document(
        format!(
            "{}\n{}\n",
            json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": cat}}),
            json!({"version": "v1.0", "updateComponents": {"surfaceId": "s", "components": [
                {"id": "root", "component": "Column", "children": ["t", "b"]},
                {"id": "t", "component": "Text", "text": "fine"},
                {"id": "b", "component": "Button", "child": "t", "action": {"event": {"name": "x"}}}
            ]}})
        )
        .as_bytes(),
    );
    let h = harness_for(r);
    let codes: Vec<String> = h
        .state()
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Error(e) => Some(e.error.code().to_owned()),
            _ => None,
        })
        .collect();
    assert_eq!(codes, ["UNALLOWED_CHILD"]);
}

// --- The `@` spelling of v1.0 reserved keys (`@path`, `@call`, `@catalogId`, ...) ---

/// Whether a Text (an AccessKit label) shows exactly `text`.
fn label_shows(h: &egui_kittest::Harness<'static, inputs_common::App>, text: &str) -> bool {
    use egui_kittest::kittest::NodeT as _;
    h.query_all_by_value(text)
        .any(|n| n.accesskit_node().role() == egui::accesskit::Role::Label)
}

fn at_form_doc(version: &str) -> String {
    let components = json!([
        {"id": "root", "component": "Column", "children": ["greet", "field", "total", "go"]},
        {"id": "greet", "component": "Text", "text": {"@path": "/user/name"}},
        {"id": "field", "component": "TextField", "label": "Name", "value": {"@path": "/user/name"}},
        {"id": "total", "component": "Text", "text": {"@call": "formatString", "args": {
            "value": {"@call": "formatNumber", "args": {"value": {"@path": "/price"}, "decimals": 2}}}}},
        {"id": "go", "component": "Button", "child": "go-label",
         "action": {"event": {"name": "order", "context": {
            "who": {"@path": "/user/name"},
            "meta": {"@@type": "order", "n": {"@call": "formatNumber", "args": {"value": {"@path": "/price"}, "decimals": 0}}}}}}},
        {"id": "go-label", "component": "Text", "text": "Order"}
    ]);
    let create =
        json!({"version": version, "createSurface": {"surfaceId": "s", "catalogId": BASIC_V10}});
    let update = json!({"version": version, "updateComponents": {"surfaceId": "s", "components": components}});
    let model = json!({"version": version, "updateDataModel": {"surfaceId": "s", "path": "/",
        "value": {"user": {"name": "Ada"}, "price": 1234.5}}});
    format!("{create}\n{update}\n{model}\n")
}

#[test]
fn at_path_and_at_call_streams_render_and_a_two_way_input_writes_back() {
    for version in ["v1.0", "1.0"] {
        let mut h = harness(&at_form_doc(version));
        assert!(label_shows(&h, "Ada"), "{version}: the @path text is bound");
        assert!(
            label_shows(&h, "1,234.50"),
            "{version}: nested @call/@path arguments resolve"
        );
        h.get_by_label("Name").focus();
        h.run();
        h.get_by_label("Name").type_text("!");
        h.run();
        assert_eq!(
            inputs_common::data(&h, "/user/name"),
            Some(json!("Ada!")),
            "{version}: the input writes back through its @path binding"
        );
        assert!(
            label_shows(&h, "Ada!"),
            "{version}: the Text bound to the same @path shows the edit"
        );
        h.get_by_label("Order").click();
        h.run();
        let a = actions(&h);
        assert_eq!(a.len(), 1, "{version}");
        assert_eq!(a[0].context["who"], "Ada!");
        // `@@type` is an escaped literal key: one `@` is dropped, as in the reference core.
        // (formatNumber rounds half to even, as the reference does: 1234.5 → 1,234.)
        assert_eq!(
            a[0].context["meta"],
            json!({"@type": "order", "n": "1,234"})
        );
        let m = a[0].to_message();
        assert_eq!(
            m["version"], "v1.0",
            "the renderer answers with the schema's constant"
        );
    }
}

#[test]
fn at_checks_and_at_accessibility_apply_like_their_bare_forms() {
    let doc = v10_doc(
        json!([
            {"id": "root", "component": "Column", "children": ["field", "star"]},
            {"id": "field", "component": "TextField", "label": "Email", "value": {"@path": "/email"},
             "@checks": [{"condition": {"@call": "required", "args": {"value": {"@path": "/email"}}},
                          "message": "Email is required"}]},
            {"id": "star", "component": "Icon", "name": "star",
             "@accessibility": {"label": {"@path": "/starLabel"}}}
        ]),
        json!({"email": "", "starLabel": "Favourite"}),
    );
    let mut h = harness(&doc);
    assert!(
        label_shows(&h, "Email is required"),
        "the @checks rule is evaluated and its message shown"
    );
    h.get_by_label("Favourite");
    h.get_by_label("Email").focus();
    h.run();
    h.get_by_label("Email").type_text("a@b.c");
    h.run();
    assert!(!label_shows(&h, "Email is required"));
}

#[test]
fn at_catalog_id_picks_the_components_catalog() {
    let cat = "https://example.com/app/catalog.json";
    let mut catalog = Catalog::basic();
    catalog
        .add_definition(json!({"catalogId": cat, "components": {"Badge": {"type": "object"}}}))
        .expect("a valid definition");
    catalog.register(
        "Badge",
        |ui: &mut egui::Ui, _cx: &mut egui_a2ui::ComponentContext<'_, '_>| ui.label("badge drawn"),
    );
    let mut r = Renderer::new(catalog);
    r.feed_document(
        format!(
            "{}\n{}\n",
            json!({"version": "1.0", "createSurface": {"surfaceId": "s", "catalogId": BASIC_V10}}),
            json!({"version": "1.0", "updateComponents": {"surfaceId": "s", "components": [
                {"id": "root", "component": "Column", "children": ["b"]},
                {"id": "b", "component": "Badge", "@catalogId": cat}
            ]}})
        )
        .as_bytes(),
    );
    let c = r
        .store()
        .surface("s")
        .and_then(|s| s.component("b"))
        .expect("stored");
    assert_eq!(c.catalog_id(), Some(cat));
    assert!(!c.props().contains_key("@catalogId"));
    let h = harness_for(r);
    h.get_by_label("badge drawn");
}

#[test]
fn a_v0_9_at_path_stays_a_literal_object() {
    let doc = inputs_common::v09_doc(
        json!([{"id": "root", "component": "Button", "child": "l",
                "action": {"event": {"name": "go", "context": {"at": {"@path": "/name"}, "bare": {"path": "/name"}}}}},
               {"id": "l", "component": "Text", "text": "Go"}]),
        json!({"name": "Ada"}),
    );
    let mut h = harness(&doc);
    h.get_by_label("Go").click();
    h.run();
    let a = actions(&h);
    assert_eq!(a[0].context["bare"], "Ada");
    assert_eq!(
        a[0].context["at"],
        json!({"@path": "/name"}),
        "v0.9 has no @ spelling: the object is a literal, as in the reference core"
    );
}

#[test]
fn call_renderer_function_accepts_the_at_call_spelling() {
    let mut r = Renderer::new(Catalog::basic());
    r.apply(
        json!({"version": "1.0", "callRendererFunction": {"functionCallId": "c9",
        "callFunction": {"@call": "launchMissiles", "args": {}, "catalogId": BASIC_V10}}}),
    )
    .into_result()
    .expect("applies");
    let out = replies(&r.take_events());
    assert_eq!(out.len(), 1);
    assert_eq!(out[0]["version"], "v1.0");
    let err = &out[0]["rendererFunctionResponse"]["error"];
    assert_eq!(err["code"], "INVALID_FUNCTION_CALL");
    assert!(
        err["message"]
            .as_str()
            .is_some_and(|m| m.contains("launchMissiles")),
        "the @call name was read: {out:?}"
    );
}

#[test]
fn an_agent_cannot_call_open_url_which_requires_user_activation() {
    let mut catalog = Catalog::basic();
    // Even a host that lets agents call its own URL opener keeps the gesture rule.
    catalog.register_function(
        FnFunction::new("openDocs", |_args, _cx| Ok(json!(true)))
            .with_callers(AllowedCallers::RendererOrAgent)
            .with_user_activation(true),
    );
    let mut r = Renderer::new(catalog);
    r.apply(call("u1", "openUrl", json!({"url": "https://example.com"})))
        .into_result()
        .expect("applies");
    r.apply(call("u2", "openDocs", json!({})))
        .into_result()
        .expect("applies");
    let out = replies(&r.take_events());
    assert_eq!(out.len(), 2);
    for (m, id) in out.iter().zip(["u1", "u2"]) {
        let resp = &m["rendererFunctionResponse"];
        assert_eq!(resp["functionCallId"], id);
        assert_eq!(resp["error"]["code"], "INVALID_FUNCTION_CALL", "{m}");
    }
    assert!(
        out[1]["rendererFunctionResponse"]["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("user activation")),
        "{out:?}"
    );
}

#[test]
fn a_failing_agent_callable_function_answers_execution_error() {
    let mut catalog = Catalog::basic();
    catalog.register_function(
        FnFunction::new("explode", |_args, _cx| Err("boom".to_owned()))
            .with_callers(AllowedCallers::RendererOrAgent),
    );
    let mut r = Renderer::new(catalog);
    r.apply(call("e1", "explode", json!({})))
        .into_result()
        .expect("applies");
    let out = replies(&r.take_events());
    assert_eq!(
        out[0],
        json!({"version": "v1.0", "rendererFunctionResponse": {"functionCallId": "e1",
            "error": {"code": "EXECUTION_ERROR", "message": "boom"}}})
    );
}

#[test]
fn allowed_callers_reads_both_spellings() {
    use egui_a2ui::eval::AllowedCallers as A;
    assert_eq!(
        A::of_definition(&json!({"allowedCallers": "agentOnly"})),
        A::AgentOnly
    );
    assert_eq!(
        A::of_definition(&json!({"callableFrom": "rendererOrAgent"})),
        A::RendererOrAgent
    );
    // The new key wins over the old one; the default is rendererOnly.
    assert_eq!(
        A::of_definition(&json!({"allowedCallers": "rendererOnly", "callableFrom": "agentOnly"})),
        A::RendererOnly
    );
    assert_eq!(A::of_definition(&json!({})), A::RendererOnly);
    assert_eq!(A::from_wire("nobody"), None);
    assert_eq!(A::RendererOrAgent.as_str(), "rendererOrAgent");
}

fn warnings(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Error(c) => match &c.error {
                egui_a2ui::A2uiError::MissingDataBinding { path } => Some(path.clone()),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

#[test]
fn a_missing_data_binding_is_warned_once_per_path() {
    let doc = v10_doc(
        json!([
            {"id": "root", "component": "Column", "children": ["a", "b", "c"]},
            {"id": "a", "component": "Text", "text": {"@path": "/absent"}},
            {"id": "b", "component": "Text", "text": {"@path": "/absent"}},
            {"id": "c", "component": "Text", "text": {"@path": "/present"}}
        ]),
        json!({"present": "here"}),
    );
    let mut h = harness(&doc);
    h.run();
    h.run();
    assert_eq!(warnings(&h.state().events), ["/absent"]);
    let w = h
        .state()
        .events
        .iter()
        .find_map(|e| match e {
            Event::Error(c) if c.error.is_warning() => Some(c.to_message()),
            _ => None,
        })
        .expect("a warning");
    assert_eq!(w["error"]["code"], "MISSING_DATA_BINDING");
    assert_eq!(w["error"]["surfaceId"], "s");
}

#[test]
fn a_check_waiting_for_an_agent_function_is_pending_not_failed() {
    let doc = v10_doc(
        json!([
            {"id": "root", "component": "Column", "children": ["go"]},
            {"id": "go", "component": "Button", "child": "go-label",
             "checks": [{"condition": {"@call": "codeIsFree", "args": {"code": {"@path": "/code"}}},
                         "message": "That code is taken"}],
             "action": {"event": {"name": "claim"}}},
            {"id": "go-label", "component": "Text", "text": "Claim"}
        ]),
        json!({"code": "X1"}),
    );
    let mut h = harness(&doc);
    h.run();
    let id = replies(&h.state().events)
        .iter()
        .find_map(|m| {
            m["callAgentFunction"]["functionCallId"]
                .as_str()
                .map(str::to_owned)
        })
        .expect("the check asked the agent");
    // Pending: the action is blocked, but no failure message is shown.
    h.get_by_label("Claim").click();
    h.run();
    assert!(actions(&h).is_empty());
    assert!(h.query_by_label("That code is taken").is_none());
    agent(
        &mut h,
        json!({"version": "v1.0", "agentFunctionResponse": {"functionCallId": id, "value": true}}),
    );
    h.run();
    h.get_by_label("Claim").click();
    h.run();
    assert_eq!(actions(&h).len(), 1);
}

#[test]
fn the_v0_9_action_shorthand_is_an_event() {
    let doc = inputs_common::v09_doc(
        json!([
            {"id": "root", "component": "Button", "child": "l",
             "action": {"name": "go", "context": {"x": {"path": "/x"}}}},
            {"id": "l", "component": "Text", "text": "Go"}
        ]),
        json!({"x": 7}),
    );
    let mut h = harness(&doc);
    h.get_by_label("Go").click();
    h.run();
    let a = actions(&h);
    assert_eq!(a.len(), 1);
    assert_eq!(a[0].name, "go");
    assert_eq!(a[0].context["x"], 7);
}
