//! Tool-result splitting: one test per rule of the MCP Apps "dynamic view content" host
//! behaviour (marked, legacy unmarked, blob, size caps, unknown types, MIME matching,
//! `ui://` refusal, order, model-visible text).

use base64::Engine;
use egui_a2ui::Limits;
use egui_a2ui::mcp::{DropReason, PayloadData, SplitPolicy, split_tool_result, view_content_block};
use egui_a2ui::mcp::{is_a2ui_family, mime_matches};
use serde_json::{Value, json};

const A2UI: &str = "application/a2ui+json";

fn text(t: &str) -> Value {
    json!({"type": "text", "text": t})
}

fn marked(uri: &str, mime: &str, text: &str) -> Value {
    json!({"type": "resource",
           "resource": {"uri": uri, "mimeType": mime, "text": text},
           "_meta": {"ui": {"content": {}}}})
}

fn unmarked(uri: &str, mime: &str, text: &str) -> Value {
    json!({"type": "resource", "resource": {"uri": uri, "mimeType": mime, "text": text}})
}

fn split(content: Vec<Value>) -> egui_a2ui::mcp::SplitResult {
    split_tool_result(&json!({ "content": content }), &SplitPolicy::default()).unwrap()
}

const MSG: &str = r#"{"version":"v0.9","deleteSurface":{"surfaceId":"s"}}"#;

#[test]
fn marked_a2ui_block_is_a_payload_and_not_model_visible() {
    let r = split(vec![
        text("Found 3 flights."),
        marked("a2ui://x/1", A2UI, MSG),
    ]);
    assert_eq!(r.payloads.len(), 1);
    let p = &r.payloads[0];
    assert!(p.marked);
    assert_eq!(p.index, 1);
    assert_eq!(p.uri.as_deref(), Some("a2ui://x/1"));
    assert_eq!(p.data, PayloadData::Text(MSG.to_owned()));
    assert_eq!(
        p.block,
        marked("a2ui://x/1", A2UI, MSG),
        "block kept unmodified"
    );
    assert_eq!(r.model_visible, vec![text("Found 3 flights.")]);
    assert!(r.dropped.is_empty());
}

#[test]
fn marker_renderer_uri_is_read_but_not_required() {
    let mut b = marked("a2ui://x/1", A2UI, MSG);
    b["_meta"]["ui"]["content"] = json!({"rendererUri": "ui://srv/renderer", "future": 1});
    let r = split(vec![b, marked("a2ui://x/2", A2UI, MSG)]);
    assert_eq!(
        r.payloads[0].renderer_uri.as_deref(),
        Some("ui://srv/renderer")
    );
    assert_eq!(r.payloads[1].renderer_uri, None);
}

#[test]
fn non_object_marker_or_empty_ui_meta_does_not_mark() {
    let mime = "application/vnd.example+json";
    let mut empty_ui = unmarked("x://1", mime, "{}");
    empty_ui["_meta"] = json!({"ui": {}});
    let mut scalar = unmarked("x://2", mime, "{}");
    scalar["_meta"] = json!({"ui": {"content": true}});
    let policy = SplitPolicy {
        content_mime_types: vec!["*".into()],
        ..SplitPolicy::default()
    };
    let r = split_tool_result(&json!({"content": [empty_ui, scalar]}), &policy).unwrap();
    assert!(r.payloads.is_empty());
    assert_eq!(r.model_visible.len(), 2);
}

#[test]
fn unmarked_a2ui_block_is_a_legacy_payload_by_default() {
    let r = split(vec![unmarked("a2ui://x/1", A2UI, MSG)]);
    assert_eq!(r.payloads.len(), 1);
    assert!(!r.payloads[0].marked);
    assert!(r.model_visible.is_empty());
}

#[test]
fn unmarked_legacy_mime_spelling_is_recognised() {
    let r = split(vec![unmarked("a2ui://x/1", "application/json+a2ui", MSG)]);
    assert_eq!(r.payloads.len(), 1);
    assert!(r.payloads[0].is_a2ui());
}

#[test]
fn unmarked_a2ui_is_ordinary_content_when_legacy_is_off() {
    let policy = SplitPolicy {
        accept_unmarked_a2ui: false,
        ..SplitPolicy::default()
    };
    let block = unmarked("a2ui://x/1", A2UI, MSG);
    let r = split_tool_result(
        &json!({"content": [block.clone(), marked("a2ui://x/2", A2UI, MSG)]}),
        &policy,
    )
    .unwrap();
    assert_eq!(r.payloads.len(), 1);
    assert!(r.payloads[0].marked);
    assert_eq!(r.model_visible, vec![block]);
}

#[test]
fn unmarked_non_a2ui_resource_is_model_visible() {
    let block = unmarked("file:///notes.txt", "text/plain", "hello");
    let r = split(vec![block.clone()]);
    assert!(r.payloads.is_empty());
    assert_eq!(r.model_visible, vec![block]);
}

#[test]
fn blob_payload_is_base64_decoded() {
    let b64 = base64::engine::general_purpose::STANDARD.encode(MSG);
    let block = json!({"type": "resource",
        "resource": {"uri": "a2ui://x/1", "mimeType": A2UI, "blob": b64},
        "_meta": {"ui": {"content": {}}}});
    let r = split(vec![block]);
    assert_eq!(
        r.payloads[0].data,
        PayloadData::Blob(MSG.as_bytes().to_vec())
    );
    let msgs = r.payloads[0].messages(&Limits::default());
    assert_eq!(msgs.len(), 1);
    assert_eq!(msgs[0].as_ref().unwrap()["deleteSurface"]["surfaceId"], "s");
}

#[test]
fn invalid_base64_blob_is_dropped_with_reason() {
    let block = json!({"type": "resource",
        "resource": {"uri": "a2ui://x/1", "mimeType": A2UI, "blob": "%%%not base64%%%"},
        "_meta": {"ui": {"content": {}}}});
    let r = split(vec![block, text("still here")]);
    assert!(r.payloads.is_empty());
    assert!(matches!(r.dropped[0].reason, DropReason::InvalidBase64(_)));
    assert_eq!(r.model_text(), "still here");
}

#[test]
fn text_and_blob_together_or_neither_are_dropped() {
    let both = json!({"type": "resource",
        "resource": {"uri": "a2ui://x/1", "mimeType": A2UI, "text": MSG, "blob": "e30="},
        "_meta": {"ui": {"content": {}}}});
    let neither = json!({"type": "resource",
        "resource": {"uri": "a2ui://x/2", "mimeType": A2UI},
        "_meta": {"ui": {"content": {}}}});
    let r = split(vec![both, neither]);
    assert!(r.payloads.is_empty());
    assert_eq!(r.dropped[0].reason, DropReason::TextAndBlob);
    assert_eq!(r.dropped[1].reason, DropReason::NoData);
    assert_eq!(r.dropped[1].uri.as_deref(), Some("a2ui://x/2"));
}

#[test]
fn oversize_payload_is_dropped_and_the_rest_kept() {
    let policy = SplitPolicy {
        max_payload_bytes: 100,
        ..SplitPolicy::default()
    };
    let big = format!("[{}]", [MSG; 5].join(","));
    let r = split_tool_result(
        &json!({"content": [marked("a2ui://x/big", A2UI, &big), marked("a2ui://x/ok", A2UI, MSG), text("t")]}),
        &policy,
    )
    .unwrap();
    assert_eq!(r.payloads.len(), 1);
    assert_eq!(r.payloads[0].uri.as_deref(), Some("a2ui://x/ok"));
    assert_eq!(
        r.dropped[0].reason,
        DropReason::PayloadTooLarge {
            size: big.len(),
            limit: 100
        }
    );
    assert_eq!(r.model_text(), "t");
}

#[test]
fn oversize_blob_is_refused_before_decoding() {
    let policy = SplitPolicy {
        max_payload_bytes: 10,
        ..SplitPolicy::default()
    };
    // Invalid base64 too: refusing on size first proves nothing was decoded.
    let blob = "!".repeat(400);
    let block = json!({"type": "resource",
        "resource": {"uri": "a2ui://x/1", "mimeType": A2UI, "blob": blob},
        "_meta": {"ui": {"content": {}}}});
    let r = split_tool_result(&json!({"content": [block]}), &policy).unwrap();
    assert!(matches!(
        r.dropped[0].reason,
        DropReason::PayloadTooLarge { limit: 10, .. }
    ));
}

#[test]
fn per_result_cap_drops_the_payload_that_overflows_and_keeps_later_ones() {
    let policy = SplitPolicy {
        max_result_bytes: MSG.len() * 2 + 5,
        ..SplitPolicy::default()
    };
    let big = format!("[{MSG},{MSG}]");
    let r = split_tool_result(
        &json!({"content": [
            marked("a2ui://x/1", A2UI, MSG),
            marked("a2ui://x/2", A2UI, &big),
            marked("a2ui://x/3", A2UI, MSG)]}),
        &policy,
    )
    .unwrap();
    let uris: Vec<_> = r.payloads.iter().map(|p| p.uri.clone().unwrap()).collect();
    assert_eq!(uris, ["a2ui://x/1", "a2ui://x/3"]);
    assert!(matches!(
        r.dropped[0].reason,
        DropReason::ResultTooLarge { .. }
    ));
    assert_eq!(r.dropped[0].index, 1);
}

#[test]
fn unknown_block_types_are_skipped_not_fatal() {
    let r = split(vec![
        json!({"type": "hologram", "data": 1}),
        json!(42),
        json!({"text": "no type"}),
        text("kept"),
        marked("a2ui://x/1", A2UI, MSG),
    ]);
    assert_eq!(r.dropped.len(), 3);
    assert_eq!(
        r.dropped[0].reason,
        DropReason::UnknownType("hologram".into())
    );
    assert_eq!(r.dropped[1].reason, DropReason::NotAnObject);
    assert_eq!(r.dropped[2].reason, DropReason::MissingType);
    assert_eq!(r.model_text(), "kept");
    assert_eq!(r.payloads.len(), 1);
}

#[test]
fn known_non_text_blocks_stay_model_visible() {
    let image = json!({"type": "image", "data": "AAAA", "mimeType": "image/png"});
    let link = json!({"type": "resource_link", "uri": "https://example.com", "name": "x"});
    let r = split(vec![image.clone(), link.clone()]);
    assert_eq!(r.model_visible, vec![image, link]);
}

#[test]
fn marked_block_with_undeclared_mime_is_dropped() {
    let r = split(vec![marked("x://1", "application/vnd.other+json", "{}")]);
    assert!(r.payloads.is_empty());
    assert_eq!(
        r.dropped[0].reason,
        DropReason::MimeNotDeclared("application/vnd.other+json".into())
    );
}

#[test]
fn mime_parameters_are_significant() {
    let r = split(vec![marked("a2ui://x/1", "application/a2ui+json;v=2", MSG)]);
    assert!(matches!(
        r.dropped[0].reason,
        DropReason::MimeNotDeclared(_)
    ));

    let policy = SplitPolicy {
        content_mime_types: vec!["application/a2ui+json;v=2".into()],
        ..SplitPolicy::default()
    };
    let ok = split_tool_result(
        &json!({"content": [marked("a2ui://x/1", "application/a2ui+json; v=2", MSG),
                            marked("a2ui://x/2", A2UI, MSG)]}),
        &policy,
    )
    .unwrap();
    assert_eq!(ok.payloads.len(), 1);
    assert_eq!(ok.payloads[0].uri.as_deref(), Some("a2ui://x/1"));
    assert!(mime_matches("Application/A2UI+JSON", A2UI));
    assert!(!mime_matches(
        "application/a2ui+json;v=2",
        "application/a2ui+json;v=3"
    ));
    assert!(is_a2ui_family("application/a2ui+json;v=2"));
}

#[test]
fn both_a2ui_spellings_match_a_declaration_of_either() {
    let r = split(vec![marked("a2ui://x/1", "application/json+a2ui", MSG)]);
    assert_eq!(r.payloads.len(), 1);
    assert!(r.payloads[0].marked);
}

#[test]
fn the_views_content_mime_types_also_filter() {
    let policy = SplitPolicy {
        content_mime_types: vec!["*".into()],
        view_content_mime_types: Some(vec!["application/vnd.view+json".into()]),
        ..SplitPolicy::default()
    };
    let r = split_tool_result(
        &json!({"content": [marked("a2ui://x/1", A2UI, MSG),
                            marked("v://1", "application/vnd.view+json", "{}")]}),
        &policy,
    )
    .unwrap();
    assert_eq!(r.payloads.len(), 1);
    assert_eq!(r.payloads[0].mime_type, "application/vnd.view+json");
    assert!(!r.payloads[0].is_a2ui());
    assert!(matches!(
        r.dropped[0].reason,
        DropReason::MimeNotDeclared(_)
    ));
}

#[test]
fn ui_scheme_payload_uri_is_refused_marked_or_not() {
    let r = split(vec![
        marked("ui://srv/renderer", A2UI, MSG),
        unmarked("UI://srv/x", A2UI, MSG),
        marked("a2ui://x/ok", A2UI, MSG),
    ]);
    assert_eq!(r.payloads.len(), 1);
    assert_eq!(
        r.dropped[0].reason,
        DropReason::UiSchemeUri("ui://srv/renderer".into())
    );
    assert_eq!(
        r.dropped[1].reason,
        DropReason::UiSchemeUri("UI://srv/x".into())
    );
    assert!(view_content_block("ui://x", A2UI, MSG, None).is_err());
}

#[test]
fn several_payloads_keep_array_order() {
    let r = split(vec![
        marked("a2ui://x/1", A2UI, MSG),
        text("between"),
        unmarked("a2ui://x/2", A2UI, MSG),
        marked("a2ui://x/3", A2UI, MSG),
    ]);
    let idx: Vec<_> = r.payloads.iter().map(|p| p.index).collect();
    assert_eq!(idx, [0, 2, 3]);
}

#[test]
fn model_visible_text_is_kept_and_user_audience_is_not() {
    let user = json!({"type": "text", "text": "for you", "annotations": {"audience": ["user"]}});
    let both = json!({"type": "text", "text": "for all",
                      "annotations": {"audience": ["user", "assistant"]}});
    let r = split(vec![
        text("first"),
        user.clone(),
        both.clone(),
        marked("a2ui://x", A2UI, MSG),
    ]);
    assert_eq!(r.model_visible, vec![text("first"), both]);
    assert_eq!(r.user_only, vec![user]);
    assert_eq!(r.model_text(), "first\nfor all");
    assert_eq!(r.display_text(), "first\nfor all\nfor you");
}

#[test]
fn payload_holds_one_message_or_an_array() {
    let one = split(vec![marked("a2ui://x/1", A2UI, MSG)]);
    assert_eq!(one.payloads[0].messages(&Limits::default()).len(), 1);
    let arr = split(vec![marked("a2ui://x/1", A2UI, &format!("[{MSG},{MSG}]"))]);
    assert_eq!(arr.payloads[0].messages(&Limits::default()).len(), 2);
}

#[test]
fn result_level_fields_and_shape_errors() {
    let r = split_tool_result(
        &json!({"isError": true, "structuredContent": {"a": 1}}),
        &SplitPolicy::default(),
    )
    .unwrap();
    assert!(r.is_error);
    assert_eq!(r.structured_content, Some(json!({"a": 1})));
    assert!(r.model_visible.is_empty());
    assert!(split_tool_result(&json!([1]), &SplitPolicy::default()).is_err());
    assert!(split_tool_result(&json!({"content": "x"}), &SplitPolicy::default()).is_err());
}

#[test]
fn hostile_blocks_never_panic() {
    let nasty = vec![
        json!({"type": "resource"}),
        json!({"type": "resource", "resource": 7, "_meta": {"ui": {"content": {}}}}),
        json!({"type": "resource", "resource": {"mimeType": 1, "text": 2},
               "_meta": {"ui": {"content": {}}}}),
        json!({"type": "resource", "resource": {"text": MSG}, "_meta": {"ui": {"content": {}}}}),
        json!({"type": 5}),
        json!({"type": "resource", "resource": {"mimeType": A2UI, "text": "not json"},
               "_meta": {"ui": {"content": {}}}}),
    ];
    let r = split(nasty);
    // The unmarked, non-A2UI first block is ordinary content; then missing resource,
    // missing MIME (twice), bad type; the last is accepted (and fails to parse later).
    assert_eq!(r.model_visible.len(), 1);
    assert_eq!(r.dropped.len(), 4, "{:?}", r.dropped);
    assert_eq!(r.payloads.len(), 1);
    assert!(r.payloads[0].messages(&Limits::default())[0].is_err());
}
