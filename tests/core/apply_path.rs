//! The one apply path: `SurfaceStore::apply` takes what framing yields and says what
//! happened, and every caller (store documents, the renderer, MCP sessions) goes through it.
//! Also the one data-model metadata builder shared by `capabilities` and MCP sessions.

use egui_a2ui::A2uiError;
use egui_a2ui::mcp::AppSession;
use egui_a2ui::model::Catalogs;
use egui_a2ui::model::{Applied, SurfaceStore};
use egui_a2ui::{Catalog, Event, Renderer, Version};
use serde_json::{Value, json};

const BASIC_V09: &str = "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json";
const BASIC_V10: &str = "https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json";

fn rejected(a: &Applied) -> &egui_a2ui::Rejected {
    match a {
        Applied::Rejected(r) => r,
        other => panic!("expected a rejection, got {other:?}"),
    }
}

#[test]
fn each_message_kind_says_what_it_did() {
    let mut s = SurfaceStore::basic();
    let created = s.apply(
        json!({"version": "v0.9", "createSurface": {"surfaceId": "a", "catalogId": BASIC_V09}}),
    );
    assert_eq!(
        created,
        Applied::Created {
            surface_id: "a".into()
        }
    );
    let changed = s.apply(
        json!({"version": "v0.9", "updateComponents": {"surfaceId": "a", "components": [
            {"id": "root", "component": "Text", "text": "hi"}
        ]}}),
    );
    assert_eq!(
        changed,
        Applied::Changed {
            surface_id: "a".into()
        }
    );
    let data = s.apply(
        json!({"version": "v0.9", "updateDataModel": {"surfaceId": "a", "path": "/x", "value": 1}}),
    );
    assert_eq!(data.surface_id(), Some("a"));
    assert!(matches!(data, Applied::Changed { .. }));
    let rpc = s.apply(
        json!({"version": "v1.0", "callRendererFunction": {"functionCallId": "f1", "callFunction": {"call": "now", "args": {}, "catalogId": BASIC_V10}}}),
    );
    // The store answers the RPC itself: the reply is in what it says and in what it owes
    // the agent.
    match &rpc {
        Applied::Replied(reply) => assert_eq!(
            reply["rendererFunctionResponse"]["functionCallId"], "f1",
            "{reply}"
        ),
        other => panic!("expected a reply, got {other:?}"),
    }
    let owed = s.take_outgoing();
    assert!(
        matches!(owed.as_slice(), [Event::Reply(m)] if m["rendererFunctionResponse"]["functionCallId"] == "f1"),
        "{owed:?}"
    );
    let deleted = s.apply(json!({"version": "v0.9", "deleteSurface": {"surfaceId": "a"}}));
    assert_eq!(
        deleted,
        Applied::Deleted {
            surface_id: "a".into()
        }
    );
    assert!(s.surface("a").is_none());
    assert_eq!(s.messages_seen(), 5);
    assert!(s.errors().is_empty());
}

#[test]
fn a_rejection_carries_the_surface_the_version_to_answer_in_and_the_index() {
    let mut s = SurfaceStore::basic();
    // A v0.8 surface, created implicitly.
    s.apply(json!({"surfaceUpdate": {"surfaceId": "old", "components": [
        {"id": "root", "component": {"Text": {"text": {"literalString": "x"}}}}
    ]}}))
    .into_result()
    .expect("v0.8 update");
    // A v0.9 message for it: answered in the surface's version, v0.8.
    let r = s.apply(
        json!({"version": "v0.9", "updateDataModel": {"surfaceId": "old", "path": "/x", "value": 1}}),
    );
    let r = rejected(&r);
    assert_eq!(r.surface_id.as_deref(), Some("old"));
    assert_eq!(r.version, Version::V0_8);
    assert_eq!(r.message_index, Some(1));
    assert_eq!(r.error.code(), "VERSION_MISMATCH");
    // No live surface: the message's own version.
    let r = s.apply(
        json!({"version": "v1.0", "updateComponents": {"surfaceId": "ghost", "components": [{"id": "root", "component": "Text", "text": "y"}]}}),
    );
    let r = rejected(&r);
    assert_eq!(
        (r.surface_id.as_deref(), r.version),
        (Some("ghost"), Version::V1_0)
    );
    assert_eq!(r.to_message()["version"], "v1.0");
    // A message that could not be framed: no surface, v0.9, still numbered.
    let r = s.apply(A2uiError::Json("eof".into()));
    let r = rejected(&r);
    assert_eq!((r.surface_id.as_deref(), r.version), (None, Version::V0_9));
    assert_eq!(r.message_index, Some(3));
    // Every rejection is recorded in the store as well.
    let recorded: Vec<Option<usize>> = s.errors().iter().map(|e| e.message_index).collect();
    assert_eq!(recorded, [Some(1), Some(2), Some(3)]);
}

#[test]
fn the_renderer_the_store_and_a_session_agree_on_one_stream() {
    // The same stream, with a framing error and a rejected message in it, through each
    // caller of the apply path.
    let doc = format!(
        "{}\n{{not json\n{}\n{}\n{}\n",
        json!({"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": BASIC_V09}}),
        json!({"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": [{"id": "root", "component": "Text", "text": "x"}]}}),
        json!({"version": "v0.9", "updateComponents": {"surfaceId": "nope", "components": [{"id": "root", "component": "Text", "text": "y"}]}}),
        json!({"version": "v1.0", "callRendererFunction": {"functionCallId": "f", "callFunction": {"call": "now", "args": {}, "catalogId": BASIC_V10}}}),
    );
    let mut store = SurfaceStore::basic();
    store.feed_document(doc.as_bytes());

    let mut r = Renderer::new(Catalog::basic());
    r.feed_jsonl(doc.as_bytes());
    r.finish_jsonl();

    let mut session = AppSession::new("c", "srv", "t", Catalogs::basic());
    let payload = json!({"content": [{"type": "resource", "resource": {
        "uri": "a2ui://x", "mimeType": "application/a2ui+json", "text": doc},
        "_meta": {"ui": {"content": {}}}}]});
    let out = session.on_tool_result(&payload).expect("split");

    for (who, s) in [
        ("store", &store),
        ("renderer", r.store()),
        ("session", session.store()),
    ] {
        let errors: Vec<(Option<usize>, &str)> = s
            .errors()
            .iter()
            .map(|e| (e.message_index, e.error.code()))
            .collect();
        assert_eq!(
            errors,
            [
                (Some(1), "VALIDATION_FAILED"),
                (Some(3), "SURFACE_NOT_FOUND")
            ],
            "{who}"
        );
        assert_eq!(s.messages_seen(), 5, "{who}");
        assert!(
            s.surface("s").is_some_and(egui_a2ui::Surface::is_visible),
            "{who}"
        );
    }
    // The renderer answered the RPC and told the agent about both errors.
    let events = r.take_events();
    let errors = events
        .iter()
        .filter(|e| matches!(e, Event::Error(_)))
        .count();
    let replies: Vec<&Value> = events
        .iter()
        .filter_map(|e| match e {
            Event::Reply(m) => Some(m),
            _ => None,
        })
        .collect();
    assert_eq!(errors, 2);
    assert_eq!(replies.len(), 1);
    let r = replies[0];
    let answered = r["rendererFunctionResponse"]["functionCallId"]
        .as_str()
        .or(r["error"]["functionCallId"].as_str());
    assert_eq!(answered, Some("f"), "always one reply: {r}");
    // The session counts what applied, and its store answered the RPC itself: the same
    // errors and reply are owed to the agent as the renderer's.
    assert_eq!(out.applied, 3);
    assert_eq!(out.errors.len(), 2);
    let owed = session.store_mut().take_outgoing();
    assert_eq!(
        owed.iter().filter(|e| matches!(e, Event::Error(_))).count(),
        2
    );
    assert_eq!(
        owed.iter()
            .filter_map(|e| match e {
                Event::Reply(m) => Some(m),
                _ => None,
            })
            .collect::<Vec<_>>(),
        replies
    );
}

/// The MCP session and `capabilities` once built the data-model metadata separately and
/// disagreed: the session sent `"v0.9"` for v0.9.1-only surfaces and kept a model whose
/// root is not an object. The client_data_model schemas require an object per surface
/// (both versions) and allow `"v0.9.1"` (v0.9.1 schema); now both use one builder.
#[test]
fn session_metadata_is_the_capabilities_metadata() {
    let mut session = AppSession::new("c", "srv", "t", Catalogs::basic());
    let messages = json!([
        {"version": "v0.9.1", "createSurface": {"surfaceId": "new", "catalogId": BASIC_V09, "sendDataModel": true}},
        {"version": "v0.9.1", "updateDataModel": {"surfaceId": "new", "path": "/", "value": {"n": 1}}},
        {"version": "v0.9.1", "createSurface": {"surfaceId": "scalar", "catalogId": BASIC_V09, "sendDataModel": true}},
        {"version": "v0.9.1", "updateDataModel": {"surfaceId": "scalar", "path": "/", "value": 7}},
        {"version": "v1.0", "createSurface": {"surfaceId": "ten", "catalogId": BASIC_V10, "sendDataModel": true, "dataModel": {"t": true}}}
    ]);
    let payload = json!({"content": [{"type": "resource", "resource": {
        "uri": "a2ui://x", "mimeType": "application/a2ui+json", "text": messages.to_string()},
        "_meta": {"ui": {"content": {}}}}]});
    let out = session.on_tool_result(&payload).expect("split");
    assert!(out.errors.is_empty(), "{:?}", out.errors);
    assert_eq!(
        session
            .store()
            .surface("scalar")
            .map(|s| s.data.root().clone()),
        Some(json!(7)),
        "a scalar root is a legal model, just not one the metadata can carry"
    );
    let meta = session.data_model_meta();
    assert_eq!(
        meta["a2uiClientDataModel"],
        json!({"version": "v0.9.1", "surfaces": {"new": {"n": 1}}})
    );
    assert_eq!(
        meta["a2uiRendererDataModel"],
        json!({"version": "v1.0", "surfaces": {"ten": {"t": true}}})
    );
    let ids: Vec<&str> = session.store().surfaces().map(|s| s.id.as_str()).collect();
    assert_eq!(
        meta,
        egui_a2ui::capabilities::data_model_metadata(session.store(), ids)
    );
}

#[test]
fn a_cloned_store_is_another_store_with_other_surfaces() {
    let mut store = SurfaceStore::basic();
    store.feed_document(
        br#"{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json"}}
"#,
    );
    let copy = store.clone();
    assert_ne!(store.id(), copy.id());
    let serial = |st: &SurfaceStore| st.surface("s").map(egui_a2ui::Surface::serial);
    assert!(serial(&store).is_some() && serial(&copy).is_some());
    assert_ne!(
        serial(&store),
        serial(&copy),
        "drawn apart, never sharing widget ids"
    );
}
