//! `a2ui_dump --model-text`: a model answer's end state, whole and chunked.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test reports by panicking

use egui_a2ui::stream::model_text::express::ExpressVersion;
use egui_a2ui_tools::model_text::{answer_version, model_text_dump};
use serde_json::Value;

/// A v1.0 Express answer: an inline Text, a Button with an inline child, a data value,
/// and on line 5 of the block (line 1 is the rest of the open tag's line) a property
/// `Text` does not declare.
const EXPRESS: &str = "Sure, here it is.\n<a2ui version=\"v1.0\">\nsurface(\"trip\")\nroot = Column([Text(\"Trip to Oslo\", \"caption\"), b])\nb = Button(Text(\"Book\"), _, Event(\"book\", {who: $/user}))\nx = Text(\"y\", tooltip=\"z\")\n$/user = \"Ada\"\n</a2ui>\nDone.";

fn surface<'a>(dump: &'a Value, id: &str) -> &'a Value {
    dump["surfaces"]
        .as_array()
        .and_then(|s| s.iter().find(|s| s["surfaceId"] == id))
        .unwrap_or_else(|| panic!("no surface {id} in {dump}"))
}

/// The dump without what depends on how the answer was cut (how many messages it took).
fn state(mut dump: Value) -> Value {
    if let Some(o) = dump.as_object_mut() {
        o.remove("messageCount");
        o.remove("errors");
    }
    dump
}

#[test]
fn an_express_answer_leaves_its_surface_whole_and_in_chunks() {
    assert_eq!(answer_version(EXPRESS), ExpressVersion::V1_0);
    let whole = model_text_dump(EXPRESS.as_bytes(), 0, None);
    let s = surface(&whole.dump, "trip");
    assert_eq!(s["protocolVersion"], "v1.0", "{s}");
    assert_eq!(s["dataModel"]["user"], "Ada", "{s}");
    // The official ids of inline components: <parent>_<property>[_<index>].
    let ids: Vec<&str> = s["componentIds"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    for id in ["root", "root_children_0", "b", "b_child"] {
        assert!(ids.contains(&id), "{id} missing from {ids:?}");
    }
    let tree = s["tree"].to_string();
    assert!(
        tree.contains("Trip to Oslo") && tree.contains("Book"),
        "{tree}"
    );
    assert!(!tree.contains("loading_"), "{tree}");
    assert_eq!(whole.prose, "Sure, here it is.\n\nDone.");
    // Line 5's error is owed to the agent, with its line and kind.
    assert_eq!(whole.errors.len(), 1, "{:?}", whole.errors);
    let e = &whole.errors[0]["error"];
    assert_eq!(e["code"], "VALIDATION_FAILED");
    assert_eq!(e["surfaceId"], "trip");
    let m = e["message"].as_str().unwrap();
    assert!(
        m.contains("line 5") && m.contains("ExpressUnknownPropertyError"),
        "{m}"
    );
    for chunk in [1, 4, 64] {
        let cut = model_text_dump(EXPRESS.as_bytes(), chunk, None);
        assert_eq!(state(cut.dump), state(whole.dump.clone()), "chunk {chunk}");
        assert_eq!(cut.errors, whole.errors, "chunk {chunk}");
    }
}

#[test]
fn a_json_answer_is_read_too() {
    let text = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/data/model_text/03_two_surfaces.txt"
    ))
    .unwrap();
    let whole = model_text_dump(&text, 0, None);
    let surfaces = whole.dump["surfaces"].as_array().unwrap();
    assert_eq!(surfaces.len(), 2, "{}", whole.dump);
    assert!(whole.errors.is_empty(), "{:?}", whole.errors);
    assert_eq!(
        state(model_text_dump(&text, 4, None).dump),
        state(whole.dump.clone())
    );
}

#[test]
fn the_version_comes_from_the_tag_then_the_json_then_v0_9() {
    assert_eq!(
        answer_version("<a2ui version='v0.9.1'>"),
        ExpressVersion::V0_9_1
    );
    assert_eq!(
        answer_version("<a2ui-json>[{\"version\": \"v1.0\"}]</a2ui-json>"),
        ExpressVersion::V1_0
    );
    assert_eq!(
        answer_version("<a2ui>root = Text(\"x\")</a2ui>"),
        ExpressVersion::V0_9
    );
}
