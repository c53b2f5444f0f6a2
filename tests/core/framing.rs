//! Framing: every accepted document form, chunked feeds, malformed lines, cut-off streams.

use egui_a2ui::stream::{StreamDecoder, parse_document};
use egui_a2ui::{Limits, SurfaceStore};
use serde_json::json;

const CAT: &str = "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json";

fn lines() -> Vec<String> {
    vec![
        json!({"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": CAT}}).to_string(),
        json!({"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": [{"id": "root", "component": "Text", "text": {"path": "/t"}}]}}).to_string(),
        json!({"version": "v0.9", "updateDataModel": {"surfaceId": "s", "path": "/t", "value": "hi"}}).to_string(),
    ]
}

fn applied(doc: &[u8]) -> SurfaceStore {
    let mut s = SurfaceStore::basic();
    s.feed_document(doc);
    s
}

fn assert_complete(s: &SurfaceStore) {
    assert!(s.errors().is_empty(), "{:?}", s.errors());
    let surface = s.surface("s").expect("surface");
    assert!(surface.is_visible());
    assert_eq!(surface.data.get("/t"), Some(&json!("hi")));
}

#[test]
fn jsonl_with_blank_lines_and_crlf_is_accepted() {
    let doc = format!(
        "{}\r\n\r\n{}\r\n   \n{}\r\n",
        lines()[0],
        lines()[1],
        lines()[2]
    );
    let s = applied(doc.as_bytes());
    assert_complete(&s);
    assert_eq!(s.messages_seen(), 3, "blank lines are not messages");
}

#[test]
fn a_json_array_of_messages_is_accepted() {
    let doc = format!("[{}]", lines().join(","));
    assert_complete(&applied(doc.as_bytes()));
}

#[test]
fn a_messages_wrapper_is_accepted() {
    let doc = format!("{{\"messages\": [{}]}}", lines().join(","));
    assert_complete(&applied(doc.as_bytes()));
}

#[test]
fn the_example_file_form_is_accepted() {
    let doc = format!(
        "{{\"name\": \"x\", \"description\": \"y\", \"messages\": [{}]}}",
        lines().join(",")
    );
    assert_complete(&applied(doc.as_bytes()));
}

#[test]
fn a_line_split_across_arbitrary_chunks_is_buffered_not_lost() {
    let doc = format!("{}\n", lines().join("\n"));
    let bytes = doc.as_bytes();
    for chunk in [1, 2, 3, 7, 64, 1000] {
        let mut dec = StreamDecoder::new(Limits::default());
        let mut frames = Vec::new();
        for c in bytes.chunks(chunk) {
            frames.extend(dec.feed(c));
        }
        frames.extend(dec.finish());
        let mut s = SurfaceStore::basic();
        for f in frames {
            let _ = s.apply(f);
        }
        assert_complete(&s);
    }
}

#[test]
fn a_multibyte_character_split_between_chunks_survives() {
    let line = json!({"version": "v0.9", "updateDataModel": {"surfaceId": "s", "path": "/t", "value": "héllo ✓ 😀"}}).to_string();
    let bytes = format!("{line}\n").into_bytes();
    let mut dec = StreamDecoder::new(Limits::default());
    let mut frames = Vec::new();
    for c in bytes.chunks(1) {
        frames.extend(dec.feed(c));
    }
    assert_eq!(frames.len(), 1);
    let v = frames.pop().expect("frame").expect("valid json");
    assert_eq!(v["updateDataModel"]["value"], "héllo ✓ 😀");
}

#[test]
fn a_malformed_line_is_an_error_for_that_line_and_the_stream_continues() {
    let doc = format!(
        "{}\n{{not json\n{}\n{}\n",
        lines()[0],
        lines()[1],
        lines()[2]
    );
    let s = applied(doc.as_bytes());
    let errs = s.errors();
    assert_eq!(errs.len(), 1);
    assert_eq!(errs[0].message_index, Some(1));
    assert_eq!(errs[0].error.code(), "VALIDATION_FAILED");
    let surface = s.surface("s").expect("surface");
    assert_eq!(surface.data.get("/t"), Some(&json!("hi")));
}

#[test]
fn invalid_utf8_is_an_error_not_a_panic() {
    let mut doc = lines()[0].clone().into_bytes();
    doc.extend_from_slice(b"\n\xff\xfe{}\n");
    let s = applied(&doc);
    assert!(s.surface("s").is_some());
    assert_eq!(s.errors().len(), 1);
}

#[test]
fn a_stream_cut_mid_message_keeps_what_was_applied_and_a_resend_duplicates_nothing() {
    let all = format!("{}\n", lines().join("\n"));
    let cut = &all.as_bytes()[..all.len() - 20];
    let mut dec = StreamDecoder::new(Limits::default());
    let mut s = SurfaceStore::basic();
    for f in dec.feed(cut) {
        let _ = s.apply(f);
    }
    for f in dec.finish() {
        let _ = s.apply(f);
    }
    // The first two messages applied; the third was cut off and reported.
    let surface = s.surface("s").expect("surface");
    assert!(surface.is_visible());
    assert_eq!(surface.data.get("/t"), None);
    assert_eq!(s.errors().len(), 1);
    // The agent resends its update messages after recovery: same ids and paths, no duplicates.
    let resend = format!("{}\n{}\n", lines()[1], lines()[2]);
    s.feed_document(resend.as_bytes());
    let surface = s.surface("s").expect("surface");
    assert_eq!(surface.components().len(), 1);
    assert_eq!(surface.data.root(), &json!({"t": "hi"}));
}

#[test]
fn an_over_long_line_is_rejected_and_the_next_line_still_parses() {
    let limits = Limits {
        max_line_bytes: 64,
        ..Limits::default()
    };
    let mut dec = StreamDecoder::new(limits);
    let long = format!("{{\"x\": \"{}\"}}\n", "a".repeat(500));
    let mut frames = Vec::new();
    for c in long.as_bytes().chunks(10) {
        frames.extend(dec.feed(c));
    }
    frames.extend(dec.feed(b"{\"ok\": 1}\n"));
    assert_eq!(frames.len(), 2, "{frames:?}");
    assert!(frames[0].is_err());
    assert_eq!(frames[1].as_ref().ok(), Some(&json!({"ok": 1})));
    assert!(dec.pending() == 0);
}

#[test]
fn parse_document_numbers_messages_by_non_blank_lines() {
    let doc = format!("\n\n{}\n\n{}\n", lines()[0], lines()[1]);
    assert_eq!(parse_document(doc.as_bytes(), &Limits::default()).len(), 2);
}
