//! Sessions: loading/ready/error/cancelled states, action → tools/call mapping and its
//! guards (same server, app visibility), routing of results to the issuing session only,
//! notices on the surface, and the sendDataModel metadata.

use egui_a2ui::ActionEvent;
use egui_a2ui::mcp::{
    ActionMapping, AppSession, MappedCall, McpError, SessionHub, SessionState, ToolDirectory,
};
use egui_a2ui::mcp::{TOOL_ERROR, TOOL_NOT_ALLOWED};
use egui_a2ui::model::Catalogs;
use egui_a2ui::protocol::Version;
use serde_json::{Map, Value, json};

const V09_CATALOG: &str = "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json";

fn marked(messages: &Value) -> Value {
    json!({"type": "resource",
           "resource": {"uri": "a2ui://t/1", "mimeType": "application/a2ui+json",
                        "text": messages.to_string()},
           "_meta": {"ui": {"content": {}}}})
}

fn surface_result(surface: &str, send_data_model: bool, text: &str) -> Value {
    json!({"content": [
        {"type": "text", "text": text},
        marked(&json!([
            {"version": "v0.9", "createSurface": {"surfaceId": surface, "catalogId": V09_CATALOG,
                                                  "sendDataModel": send_data_model}},
            {"version": "v0.9", "updateDataModel": {"surfaceId": surface, "path": "/n", "value": 1}},
            {"version": "v0.9", "updateComponents": {"surfaceId": surface, "components": [
                {"id": "root", "component": "Text", "text": {"path": "/n"}}]}}
        ]))
    ]})
}

fn update_result(surface: &str, n: i64) -> Value {
    json!({"content": [marked(&json!(
        {"version": "v0.9", "updateDataModel": {"surfaceId": surface, "path": "/n", "value": n}}
    ))]})
}

fn event(surface: &str, name: &str, context: Value) -> ActionEvent {
    ActionEvent {
        surface_id: surface.into(),
        source_component_id: "btn".into(),
        name: name.into(),
        context: context.as_object().cloned().unwrap_or_default(),
        timestamp: "2026-01-15T12:00:00.000Z".into(),
        user_message: None,
        version: Version::V0_9,
        scope: "/".into(),
    }
}

fn tools() -> ToolDirectory {
    let mut d = ToolDirectory::new();
    d.insert_tools_list(
        "srv",
        &json!({"tools": [
            {"name": "search"},
            {"name": "pick", "_meta": {"ui": {"visibility": ["app"]}}},
            {"name": "model_only", "_meta": {"ui": {"visibility": ["model"]}}},
            {"name": "a2ui_action", "_meta": {"ui": {"visibility": ["app"]}}}
        ]}),
    );
    d.insert_tools_list("other", &json!({"tools": [{"name": "elsewhere"}]}));
    d
}

fn ready_session(id: &str) -> AppSession {
    let mut s = AppSession::new(id, "srv", "search", Catalogs::basic());
    s.on_tool_result(&surface_result("s", false, "ok")).unwrap();
    s
}

#[test]
fn tool_input_shows_loading_then_result_is_ready() {
    let mut s = AppSession::new("c1", "srv", "search", Catalogs::basic());
    assert_eq!(s.state(), &SessionState::Pending);
    s.on_tool_input(json!({"q": "x"}));
    assert_eq!(
        s.state(),
        &SessionState::Loading {
            arguments: json!({"q": "x"})
        }
    );
    let out = s
        .on_tool_result(&surface_result("s", false, "found"))
        .unwrap();
    assert_eq!(s.state(), &SessionState::Ready);
    assert_eq!(out.applied, 3);
    assert!(s.store().surface("s").unwrap().is_visible());
}

#[test]
fn is_error_result_shows_an_error_state() {
    let mut s = AppSession::new("c1", "srv", "search", Catalogs::basic());
    s.on_tool_input(json!({}));
    s.on_tool_result(
        &json!({"isError": true, "content": [{"type": "text", "text": "No such city"}]}),
    )
    .unwrap();
    assert_eq!(
        s.state(),
        &SessionState::Error {
            message: "No such city".into()
        }
    );
    s.on_tool_failed("connection reset");
    assert_eq!(
        s.state(),
        &SessionState::Error {
            message: "connection reset".into()
        }
    );
}

#[test]
fn cancelled_call_shows_cancelled() {
    let mut s = AppSession::new("c1", "srv", "search", Catalogs::basic());
    s.on_tool_input(json!({}));
    s.on_cancelled(Some("user stopped".into()));
    assert_eq!(
        s.state(),
        &SessionState::Cancelled {
            reason: Some("user stopped".into())
        }
    );
}

#[test]
fn several_payloads_apply_in_array_order() {
    // The second payload updates the surface the first creates: reversed, it would fail.
    let mut s = AppSession::new("c1", "srv", "search", Catalogs::basic());
    let create =
        json!([{"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": V09_CATALOG}}]);
    let update =
        json!({"version": "v0.9", "updateDataModel": {"surfaceId": "s", "path": "/n", "value": 7}});
    let out = s
        .on_tool_result(&json!({"content": [marked(&create), marked(&update)]}))
        .unwrap();
    assert!(out.errors.is_empty(), "{:?}", out.errors);
    assert_eq!(
        s.store().surface("s").unwrap().data.get("/n"),
        Some(&json!(7))
    );
}

#[test]
fn direct_by_name_maps_action_name_and_context() {
    let mut s = ready_session("c1");
    let req = s
        .on_action(&event("s", "pick", json!({"id": "UA954"})), &tools())
        .unwrap();
    assert_eq!(req.name, "pick");
    assert_eq!(Value::Object(req.arguments.clone()), json!({"id": "UA954"}));
    assert_eq!(req.server_id, "srv");
    assert_eq!(req.call_ref.session_id, "c1");
    assert_eq!(
        req.params(),
        json!({"name": "pick", "arguments": {"id": "UA954"}})
    );
    assert!(s.is_busy("s"));
    assert_eq!(s.pending_calls(), 1);
}

#[test]
fn single_tool_sends_the_full_action_envelope() {
    let mut s = ready_session("c1").with_mapping(ActionMapping::single_tool());
    let ev = event("s", "anything", json!({"k": 1}));
    let req = s.on_action(&ev, &tools()).unwrap();
    assert_eq!(req.name, "a2ui_action");
    assert_eq!(Value::Object(req.arguments), ev.to_message());
    assert_eq!(ev.to_message()["action"]["surfaceId"], "s");
}

#[test]
fn custom_mapping_closure_decides_the_call() {
    let mut s = ready_session("c1").with_mapping(ActionMapping::custom(|ev| {
        (ev.name == "go").then(|| MappedCall {
            name: "pick".into(),
            arguments: Map::from_iter([("from".to_owned(), json!(ev.source_component_id))]),
        })
    }));
    let req = s.on_action(&event("s", "go", json!({})), &tools()).unwrap();
    assert_eq!(req.name, "pick");
    assert_eq!(req.arguments["from"], "btn");
    let refused = s.on_action(&event("s", "stay", json!({})), &tools());
    assert_eq!(
        refused,
        Err(McpError::ActionNotMapped {
            action: "stay".into()
        })
    );
    assert_eq!(s.notices_for("s").last().unwrap().code, TOOL_NOT_ALLOWED);
}

#[test]
fn action_for_tool_on_another_server_is_refused_and_nothing_sent() {
    let mut s = ready_session("c1");
    let r = s.on_action(&event("s", "elsewhere", json!({})), &tools());
    assert!(matches!(r, Err(McpError::ToolNotOnServer { .. })));
    assert_eq!(s.pending_calls(), 0);
    let n: Vec<_> = s.notices_for("s").collect();
    assert_eq!(n.len(), 1);
    assert_eq!(n[0].code, TOOL_NOT_ALLOWED);
    assert!(n[0].message.contains("elsewhere"));
}

#[test]
fn action_for_tool_without_app_visibility_is_refused() {
    let mut s = ready_session("c1");
    let r = s.on_action(&event("s", "model_only", json!({})), &tools());
    assert_eq!(
        r,
        Err(McpError::ToolNotAppVisible {
            tool: "model_only".into()
        })
    );
    assert_eq!(s.pending_calls(), 0);
    assert_eq!(s.notices().len(), 1);
    // Default visibility (model + app) is callable.
    assert!(
        s.on_action(&event("s", "search", json!({})), &tools())
            .is_ok()
    );
}

#[test]
fn action_on_a_surface_of_another_session_is_refused() {
    let mut s = ready_session("c1");
    let r = s.on_action(&event("nope", "pick", json!({})), &tools());
    assert!(matches!(r, Err(McpError::UnknownSurface { .. })));
}

#[test]
fn action_results_route_to_the_issuing_session_only() {
    let mut hub = SessionHub::new();
    *hub.tools_mut() = tools();
    // Two turns of the same tool: both create surface "s", independently.
    hub.open(ready_session("turn-1"));
    hub.open(ready_session("turn-2"));
    let req = hub
        .on_action("turn-1", &event("s", "pick", json!({})))
        .unwrap();

    // Delivered to the wrong session directly: refused, nothing applied.
    let wrong = hub
        .get_mut("turn-2")
        .unwrap()
        .on_action_result(&req.call_ref, &update_result("s", 5));
    assert!(matches!(wrong, Err(McpError::UnknownCall { .. })));

    let out = hub
        .on_action_result(&req.call_ref, &update_result("s", 5))
        .unwrap();
    assert_eq!(out.surface_id.as_deref(), Some("s"));
    fn n(hub: &SessionHub, id: &str) -> Option<Value> {
        hub.get(id)
            .unwrap()
            .store()
            .surface("s")
            .unwrap()
            .data
            .get("/n")
            .cloned()
    }
    assert_eq!(n(&hub, "turn-1"), Some(json!(5)));
    assert_eq!(n(&hub, "turn-2"), Some(json!(1)));
    assert!(!hub.get("turn-1").unwrap().is_busy("s"));

    // Settled: a second delivery is refused.
    assert!(
        hub.on_action_result(&req.call_ref, &update_result("s", 9))
            .is_err()
    );
    assert_eq!(n(&hub, "turn-1"), Some(json!(5)));
    assert!(matches!(
        hub.on_action("closed", &event("s", "pick", json!({}))),
        Err(McpError::UnknownSession(_))
    ));
}

#[test]
fn is_error_action_result_puts_an_error_on_the_surface() {
    let mut s = ready_session("c1");
    let req = s
        .on_action(&event("s", "pick", json!({"id": "X"})), &tools())
        .unwrap();
    s.on_action_result(
        &req.call_ref,
        &json!({"isError": true, "content": [{"type": "text", "text": "Unknown flight"}]}),
    )
    .unwrap();
    let n = s.notices_for("s").last().unwrap();
    assert_eq!(n.code, TOOL_ERROR);
    assert_eq!(n.message, "Unknown flight");
    assert_eq!(
        s.state(),
        &SessionState::Ready,
        "the session itself is fine"
    );
}

#[test]
fn failed_action_call_puts_an_error_on_the_surface() {
    let mut s = ready_session("c1");
    let req = s
        .on_action(&event("s", "pick", json!({})), &tools())
        .unwrap();
    s.on_action_failed(&req.call_ref, "timeout").unwrap();
    assert_eq!(s.notices_for("s").last().unwrap().message, "timeout");
    assert!(!s.is_busy("s"));
    assert_eq!(s.take_notices().len(), 1);
    assert!(s.notices().is_empty());
}

#[test]
fn send_data_model_attaches_this_sessions_surfaces_only() {
    let mut hub = SessionHub::new();
    *hub.tools_mut() = tools();
    let mut a = AppSession::new("a", "srv", "search", Catalogs::basic());
    a.on_tool_result(&surface_result("s", true, "")).unwrap();
    a.on_tool_result(&surface_result("quiet", false, ""))
        .unwrap();
    hub.open(a);
    let mut b = AppSession::new("b", "srv", "search", Catalogs::basic());
    b.on_tool_result(&surface_result("other", true, ""))
        .unwrap();
    hub.open(b);

    let req = hub.on_action("a", &event("s", "pick", json!({}))).unwrap();
    assert_eq!(
        req.meta["a2uiClientDataModel"],
        json!({"version": "v0.9", "surfaces": {"s": {"n": 1}}})
    );
    assert!(req.meta.get("a2uiRendererDataModel").is_none());

    // No sendDataModel surface: no metadata.
    let mut plain = ready_session("p");
    let req = plain
        .on_action(&event("s", "pick", json!({})), &tools())
        .unwrap();
    assert!(req.meta.is_empty());
    assert!(req.params().get("_meta").is_none());
}

#[test]
fn v1_surfaces_use_the_renderer_data_model_key() {
    let mut s = AppSession::new("c", "srv", "search", Catalogs::basic());
    s.on_tool_result(&json!({"content": [marked(&json!(
        {"version": "v1.0", "createSurface": {"surfaceId": "s", "sendDataModel": true,
         "dataModel": {"x": true}}}
    ))]}))
    .unwrap();
    let meta = s.data_model_meta();
    assert_eq!(
        meta["a2uiRendererDataModel"],
        json!({"version": "v1.0", "surfaces": {"s": {"x": true}}})
    );
    assert!(meta.get("a2uiClientDataModel").is_none());
}

#[test]
fn request_meta_from_the_host_is_copied_into_each_request() {
    let mut meta = Map::new();
    egui_a2ui::mcp::UiExtensionSettings::native_a2ui().insert_into_request_meta(&mut meta);
    let mut s = ready_session("c").with_request_meta(meta.clone());
    let req = s
        .on_action(&event("s", "pick", json!({})), &tools())
        .unwrap();
    assert_eq!(req.meta, meta);
}

#[test]
fn bad_payload_messages_are_reported_and_the_rest_applied() {
    let mut s = AppSession::new("c", "srv", "search", Catalogs::basic());
    let out = s
        .on_tool_result(&json!({"content": [
            {"type": "resource", "resource": {"uri": "a2ui://x", "mimeType": "application/a2ui+json",
             "text": "{\"version\":\"v0.9\",\"createSurface\":{\"surfaceId\":\"s\",\"catalogId\":\"https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json\"}}\nnot json\n{\"version\":\"v0.9\",\"updateComponents\":{\"surfaceId\":\"missing\",\"components\":[]}}"}}
        ]}))
        .unwrap();
    assert_eq!(out.applied, 1);
    assert_eq!(out.errors.len(), 2);
    assert!(s.store().surface("s").is_some());
    assert_eq!(s.store().errors().len(), 2);
}
