//! Protocol adapters: every version parsed into one message type with one vocabulary.

use egui_a2ui::SurfaceStore;
use egui_a2ui::protocol::{Message, Version, is_a2ui_mime, parse_message};
use serde_json::json;

#[test]
fn the_version_is_detected_per_message() {
    let v08 = parse_message(&json!({"deleteSurface": {"surfaceId": "a"}})).expect("v0.8");
    assert_eq!(v08.version, Version::V0_8);
    for (wire, v) in [
        ("v0.9", Version::V0_9),
        ("v0.9.1", Version::V0_9_1),
        ("v1.0", Version::V1_0),
        // Current v1.0 agent SDKs also send the bare number.
        ("1.0", Version::V1_0),
    ] {
        let e = parse_message(&json!({"version": wire, "deleteSurface": {"surfaceId": "a"}}))
            .expect("parses");
        assert_eq!(e.version, v);
    }
    let err = parse_message(&json!({"version": "v7", "deleteSurface": {"surfaceId": "a"}}))
        .expect_err("unknown version");
    assert!(err.to_string().contains("v7"));
    for unknown in ["1.1", "0.9", "v1", "V1.0"] {
        assert!(
            parse_message(&json!({"version": unknown, "deleteSurface": {"surfaceId": "a"}}))
                .is_err(),
            "{unknown}"
        );
    }
}

#[test]
fn a_message_with_two_types_or_none_is_rejected() {
    assert!(parse_message(&json!({"version": "v0.9"})).is_err());
    assert!(parse_message(&json!({"version": "v0.9", "deleteSurface": {"surfaceId": "a"}, "createSurface": {"surfaceId": "b", "catalogId": "c"}})).is_err());
    assert!(parse_message(&json!([1, 2])).is_err());
    assert!(
        parse_message(&json!({"surfaceUpdate": {"surfaceId": "a", "components": []}})).is_err()
    );
}

#[test]
fn v08_components_are_normalised_to_the_v09_vocabulary() {
    let e = parse_message(&json!({"surfaceUpdate": {"surfaceId": "s", "components": [
        {"id": "r", "weight": 2, "component": {"Row": {"children": {"explicitList": ["a"]}, "distribution": "spaceBetween", "alignment": "center"}}},
        {"id": "l", "component": {"List": {"children": {"template": {"componentId": "t", "dataBinding": "/items"}}}}},
        {"id": "m", "component": {"Modal": {"entryPointChild": "a", "contentChild": "b"}}},
        {"id": "tf", "component": {"TextField": {"label": {"literalString": "Name"}, "text": {"path": "/n"}, "textFieldType": "obscured"}}},
        {"id": "mc", "component": {"MultipleChoice": {"selections": {"literalArray": ["x"]}, "options": [], "maxAllowedSelections": 1}}},
        {"id": "b", "component": {"Button": {"child": "a", "primary": true, "action": {"name": "go", "context": [{"key": "k", "value": {"path": "/v"}}]}}}},
        {"id": "i", "component": {"Image": {"url": {"literalString": "u"}, "fit": "scale-down", "usageHint": "avatar", "altText": {"literalString": "d"}}}},
        {"id": "sl", "component": {"Slider": {"value": {"literalNumber": 3}, "minValue": 1, "maxValue": 9}}}
    ]}}))
    .expect("parses");
    let Message::UpdateComponents { components, .. } = e.message else {
        panic!("not an update");
    };
    let p = |i: usize| components[i].props.to_props();
    assert_eq!(p(0)["children"], json!(["a"]));
    assert_eq!(p(0)["justify"], "spaceBetween");
    assert_eq!(p(0)["align"], "center");
    assert_eq!(p(0)["weight"], 2);
    assert_eq!(
        p(1)["children"],
        json!({"componentId": "t", "path": "/items"})
    );
    assert_eq!(p(2)["trigger"], "a");
    assert_eq!(p(2)["content"], "b");
    assert_eq!(p(3)["label"], "Name");
    assert_eq!(p(3)["value"], json!({"path": "/n"}));
    assert_eq!(p(3)["variant"], "obscured");
    assert_eq!(components[4].component.as_deref(), Some("ChoicePicker"));
    assert_eq!(p(4)["value"], json!(["x"]));
    assert_eq!(p(4)["variant"], "mutuallyExclusive");
    assert_eq!(p(5)["variant"], "primary");
    assert_eq!(
        p(5)["action"],
        json!({"event": {"name": "go", "context": {"k": {"path": "/v"}}}})
    );
    assert_eq!(p(6)["fit"], "scaleDown");
    assert_eq!(p(6)["variant"], "avatar");
    assert_eq!(p(6)["description"], "d");
    assert_eq!(p(7)["min"], 1);
    assert_eq!(p(7)["max"], 9);
    // The wire form is kept for the conformance dump.
    assert_eq!(components[0].wire_props()["distribution"], "spaceBetween");
    assert!(components[0].wire_props().get("weight").is_none());
}

#[test]
fn v08_data_model_contents_recurse_into_value_maps() {
    let mut s = SurfaceStore::basic();
    s.apply(json!({"dataModelUpdate": {"surfaceId": "s", "path": "/user", "contents": [
        {"key": "name", "valueString": "Ada"},
        {"key": "address", "valueMap": [{"key": "city", "valueString": "London"}, {"key": "geo", "valueMap": [{"key": "lat", "valueNumber": 51.5}]}]},
        {"key": "admin", "valueBoolean": true}
    ]}})).into_result()
    .expect("applies");
    let surface = s.surface("s").expect("implicitly created");
    assert!(!surface.is_visible(), "v0.8 waits for beginRendering");
    assert_eq!(
        surface.data.root(),
        &json!({"user": {"name": "Ada", "address": {"city": "London", "geo": {"lat": 51.5}}, "admin": true}})
    );
}

#[test]
fn v08_begin_rendering_makes_the_surface_visible_with_its_root() {
    let mut s = SurfaceStore::basic();
    s.apply(json!({"surfaceUpdate": {"surfaceId": "s", "components": [{"id": "top", "component": {"Text": {"text": {"literalString": "x"}}}}]}})).into_result().expect("update");
    assert!(!s.surface("s").expect("s").is_visible());
    s.apply(json!({"beginRendering": {"surfaceId": "s", "root": "top", "styles": {"primaryColor": "#ff0000"}}})).into_result().expect("begin");
    let surface = s.surface("s").expect("s");
    assert!(surface.is_visible());
    assert_eq!(surface.root_id, "top");
    assert_eq!(surface.primary_color(), Some([255, 0, 0]));
    assert_eq!(
        surface.catalog_id.as_deref(),
        Some("https://a2ui.org/specification/v0_8/standard_catalog_definition.json")
    );
}

#[test]
fn v10_create_surface_carries_inline_components_and_data() {
    let mut s = SurfaceStore::basic();
    s.apply(
        json!({"version": "v1.0", "createSurface": {"surfaceId": "s",
        "catalogId": "https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json",
        "components": [{"id": "root", "component": "Text", "text": {"path": "/t"}}],
        "dataModel": {"t": "inline"}}}),
    )
    .into_result()
    .expect("create");
    let surface = s.surface("s").expect("s");
    assert!(surface.is_visible());
    assert_eq!(surface.data.get("/t"), Some(&json!("inline")));
}

#[test]
fn v10_update_data_model_requires_value_and_null_deletes() {
    assert!(
        parse_message(
            &json!({"version": "v1.0", "updateDataModel": {"surfaceId": "s", "path": "/a"}})
        )
        .is_err()
    );
    let mut s = SurfaceStore::basic();
    s.apply(json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "dataModel": {"a": 1, "b": 2}}})).into_result().expect("create");
    s.apply(json!({"version": "v1.0", "updateDataModel": {"surfaceId": "s", "path": "/a", "value": null}})).into_result().expect("delete");
    assert_eq!(s.surface("s").expect("s").data.root(), &json!({"b": 2}));
}

#[test]
fn create_surface_on_a_live_id_is_an_error_and_changes_nothing() {
    let cat = "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json";
    let mut s = SurfaceStore::basic();
    s.apply(json!({"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": cat, "sendDataModel": true}})).into_result().expect("create");
    let err = s
        .apply(json!({"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": cat}}))
        .into_result()
        .expect_err("duplicate");
    assert_eq!(err.code(), "SURFACE_ALREADY_EXISTS");
    assert!(s.surface("s").expect("s").send_data_model);
}

#[test]
fn updates_to_an_unknown_surface_are_errors_in_v09() {
    let mut s = SurfaceStore::basic();
    let err = s
        .apply(json!({"version": "v0.9", "updateDataModel": {"surfaceId": "nope", "value": {}}}))
        .into_result()
        .expect_err("unknown");
    assert_eq!(err.code(), "SURFACE_NOT_FOUND");
    assert_eq!(s.errors()[0].surface_id.as_deref(), Some("nope"));
}

#[test]
fn an_unknown_catalog_is_refused() {
    let mut s = SurfaceStore::basic();
    let err = s.apply(json!({"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": "https://evil.example/catalog.json"}})).into_result().expect_err("unknown catalog");
    assert_eq!(err.code(), "CATALOG_NOT_FOUND");
    assert!(s.surface("s").is_none());
}

#[test]
fn a_component_update_replaces_props_wholesale_and_a_type_change_bumps_the_generation() {
    let cat = "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json";
    let mut s = SurfaceStore::basic();
    s.apply(json!({"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": cat}}))
        .into_result()
        .expect("create");
    s.apply(json!({"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": [{"id": "root", "component": "Text", "text": "a", "variant": "h1"}]}})).into_result().expect("first");
    s.apply(json!({"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": [{"id": "root", "component": "Text", "text": "b"}]}})).into_result().expect("same type");
    let c = s
        .surface("s")
        .expect("s")
        .component("root")
        .expect("root")
        .clone();
    assert_eq!(c.prop("variant"), None, "props are replaced, not merged");
    assert_eq!(c.generation, 0);
    s.apply(json!({"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": [{"id": "root", "component": "Image", "url": "x"}]}})).into_result().expect("type change");
    assert_eq!(
        s.surface("s")
            .expect("s")
            .component("root")
            .expect("root")
            .generation,
        1
    );
}

#[test]
fn duplicate_ids_in_one_message_reject_the_whole_message() {
    let cat = "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json";
    let mut s = SurfaceStore::basic();
    s.apply(json!({"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": cat}}))
        .into_result()
        .expect("create");
    let err = s.apply(json!({"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": [
        {"id": "root", "component": "Text", "text": "a"}, {"id": "root", "component": "Text", "text": "b"}]}})).into_result().expect_err("dup");
    assert_eq!(
        err.path().as_deref(),
        Some("/updateComponents/components/1/id")
    );
    assert!(s.surface("s").expect("s").components().is_empty());
}

#[test]
fn delete_surface_frees_everything() {
    let cat = "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json";
    let mut s = SurfaceStore::basic();
    s.apply(json!({"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": cat}}))
        .into_result()
        .expect("create");
    s.apply(json!({"version": "v0.9", "deleteSurface": {"surfaceId": "s"}}))
        .into_result()
        .expect("delete");
    assert!(s.surface("s").is_none());
    // Deleting it again is a no-op (the official suites), not an error.
    s.apply(json!({"version": "v0.9", "deleteSurface": {"surfaceId": "s"}}))
        .into_result()
        .expect("a second delete is a no-op");
    assert!(s.surface("s").is_none());
    assert!(s.errors().is_empty());
    s.apply(json!({"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": cat}}))
        .into_result()
        .expect("recreate after delete");
}

#[test]
fn a_message_for_a_surface_of_another_version_is_refused() {
    let mut s = SurfaceStore::basic();
    s.apply(json!({"surfaceUpdate": {"surfaceId": "s", "components": [{"id": "root", "component": {"Text": {"text": {"literalString": "x"}}}}]}})).into_result().expect("v0.8");
    let err = s
        .apply(json!({"version": "v0.9", "updateDataModel": {"surfaceId": "s", "value": {}}}))
        .into_result()
        .expect_err("mismatch");
    assert_eq!(err.code(), "VERSION_MISMATCH");
}

#[test]
fn both_mime_spellings_are_recognised() {
    assert!(is_a2ui_mime("application/a2ui+json"));
    assert!(is_a2ui_mime("application/json+a2ui"));
    assert!(is_a2ui_mime("Application/A2UI+JSON"));
    assert!(!is_a2ui_mime("application/json"));
    assert!(!is_a2ui_mime("application/a2ui+json; charset=utf-8"));
}

fn components_of(message: serde_json::Value) -> Vec<egui_a2ui::protocol::ComponentDef> {
    match parse_message(&message).expect("parses").message {
        Message::UpdateComponents { components, .. } => components,
        other => panic!("not an update: {other:?}"),
    }
}

#[test]
fn v10_at_reserved_keys_are_read_as_their_bare_forms() {
    for version in ["v1.0", "1.0"] {
        let c = components_of(
            json!({"version": version, "updateComponents": {"surfaceId": "s", "components": [
                {"id": "t", "component": "Text", "@catalogId": "https://example.com/c.json",
                 "text": {"@call": "formatString", "args": {"value": {"@path": "/a"}}},
                 "@accessibility": {"label": {"@path": "/l"}},
                 "@checks": [{"condition": {"@path": "/ok"}, "message": "m"}],
                 "@metadata": {"extensions": {"acme": 1}}}
            ]}}),
        );
        let t = &c[0];
        assert_eq!(t.catalog_id.as_deref(), Some("https://example.com/c.json"));
        assert_eq!(
            serde_json::Value::Object(t.props.to_map()),
            json!({
                "text": {"call": "formatString", "args": {"value": {"path": "/a"}}},
                "accessibility": {"label": {"path": "/l"}},
                "checks": [{"condition": {"path": "/ok"}, "message": "m"}],
                "metadata": {"extensions": {"acme": 1}}
            }),
            "{version}"
        );
        // The wire form keeps the @ names (the conformance dump speaks it).
        let wire = t.wire_props();
        assert!(wire.contains_key("@accessibility") && wire.contains_key("@checks"));
        assert_eq!(wire["@catalogId"], "https://example.com/c.json");
    }
}

#[test]
fn v10_bare_forms_still_bind_and_the_at_form_wins_over_the_bare_one() {
    let c = components_of(
        json!({"version": "v1.0", "updateComponents": {"surfaceId": "s", "components": [
            {"id": "a", "component": "Text", "text": {"path": "/bare"}, "catalogId": "https://example.com/bare.json"},
            {"id": "b", "component": "Text", "text": {"@path": "/at", "path": "/bare"},
             "catalogId": "https://example.com/bare.json", "@catalogId": "https://example.com/at.json"},
            {"id": "l", "component": "List", "children": {"componentId": "a", "path": "/items"}}
        ]}}),
    );
    assert_eq!(c[0].props.to_props()["text"], json!({"path": "/bare"}));
    assert_eq!(
        c[0].catalog_id.as_deref(),
        Some("https://example.com/bare.json")
    );
    assert!(
        c[0].wire_props.is_none(),
        "nothing renamed: one copy of the props"
    );
    assert_eq!(c[1].props.to_props()["text"], json!({"path": "/at"}));
    assert_eq!(
        c[1].catalog_id.as_deref(),
        Some("https://example.com/at.json")
    );
    assert_eq!(
        c[2].props.to_props()["children"],
        json!({"componentId": "a", "path": "/items"}),
        "a ChildList template keeps its bare path"
    );
}

#[test]
fn v09_messages_do_not_read_the_at_forms() {
    for version in ["v0.9", "v0.9.1"] {
        let c = components_of(
            json!({"version": version, "updateComponents": {"surfaceId": "s", "components": [
                {"id": "t", "component": "Text", "text": {"@path": "/a"}, "accessibility": {"label": {"@call": "f"}}}
            ]}}),
        );
        assert_eq!(
            c[0].props.to_props()["text"],
            json!({"@path": "/a"}),
            "{version}"
        );
        assert_eq!(
            c[0].props.to_props()["accessibility"],
            json!({"label": {"@call": "f"}})
        );
    }
    // A v0.9 component with `@accessibility` keeps it as an ordinary (unknown) property.
    let c = components_of(
        json!({"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": [
            {"id": "t", "component": "Text", "text": "x", "@accessibility": {"label": "y"}}
        ]}}),
    );
    assert!(c[0].props.contains_key("@accessibility"));
    assert!(!c[0].props.contains_key("accessibility"));
}

#[test]
fn v10_call_renderer_function_reads_at_call() {
    let e = parse_message(
        &json!({"version": "1.0", "callRendererFunction": {"functionCallId": "f1",
        "callFunction": {"@call": "formatNumber", "args": {"value": 1}, "catalogId": "c"}}}),
    )
    .expect("parses");
    match e.message {
        Message::CallRendererFunction { call, .. } => {
            assert_eq!(
                call,
                json!({"call": "formatNumber", "args": {"value": 1}, "catalogId": "c"})
            );
        }
        other => panic!("{other:?}"),
    }
}

/// The opt-in schema validation checks `"1.0"` and the `@` spellings in the vocabulary of
/// the schema snapshot it carries, and still refuses what that schema refuses.
#[cfg(feature = "validation")]
#[test]
fn the_schema_validator_reads_the_v10_at_spellings() {
    use egui_a2ui::SchemaValidator;
    let v = SchemaValidator::basic().expect("validator");
    let cat = "https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json";
    for version in ["v1.0", "1.0"] {
        let ok = json!({"version": version, "updateComponents": {"surfaceId": "s", "components": [
            {"id": "root", "component": "Text", "@catalogId": cat,
             "text": {"@call": "formatString", "args": {"value": {"@path": "/a"}}},
             "@accessibility": {"label": {"@path": "/l"}}}
        ]}});
        assert!(v.validate(&ok).is_ok(), "{version}: {:?}", v.validate(&ok));
        let bad = json!({"version": version, "updateComponents": {"surfaceId": "s", "components": [
            {"id": "root", "component": "Text", "text": {"@path": 5}}
        ]}});
        assert!(
            v.validate(&bad).is_err(),
            "{version}: a non-string @path is not a binding"
        );
    }
    let v09 = json!({"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": [
        {"id": "root", "component": "Text", "text": {"@path": "/a"}}
    ]}});
    assert!(v.validate(&v09).is_err(), "v0.9 has no @ spelling");
}

/// A malformed v0.8 component is an error naming the offending key, through both the
/// borrowing and the owning parse (which recognises the usual shape in one pass).
#[test]
fn malformed_v08_components_are_errors_naming_the_key() {
    use egui_a2ui::A2uiError;
    use egui_a2ui::protocol::{parse_message_owned, parse_message_text};
    let base = "/surfaceUpdate/components/1";
    let cases = [
        (
            json!({"id": "x", "component": {"Text": {}}, "extra": 1}),
            format!("{base}/extra"),
            "unexpected property",
        ),
        (
            json!({"id": 5, "component": {"Text": {}}}),
            format!("{base}/id"),
            "id must be a string",
        ),
        (
            json!({"component": {"Text": {}}}),
            format!("{base}/id"),
            "missing required id",
        ),
        (
            json!({"id": "x", "component": {"Text": {}, "Row": {}}}),
            format!("{base}/component"),
            "exactly one key",
        ),
        (
            json!({"id": "x", "component": {"Text": 3}}),
            format!("{base}/component/Text"),
            "must be an object",
        ),
        (
            json!({"id": "x", "component": {"Text": {}}, "weight": "2"}),
            format!("{base}/weight"),
            "weight must be a number",
        ),
        (
            json!({"id": "x", "component": []}),
            format!("{base}/component"),
            "component must be an object",
        ),
    ];
    for (bad, path, words) in cases {
        let msg = json!({"surfaceUpdate": {"surfaceId": "s", "components": [
            {"id": "ok", "component": {"Text": {"text": {"literalString": "t"}}}}, bad]}});
        let text = msg.to_string();
        for result in [
            parse_message(&msg),
            parse_message_owned(msg.clone()),
            parse_message_text(&text),
        ] {
            match result {
                Err(A2uiError::Validation { path: p, message }) => {
                    assert_eq!(p, path, "{msg}");
                    assert!(message.contains(words), "{message} for {msg}");
                }
                other => panic!("{msg}: expected a validation error, got {other:?}"),
            }
        }
    }
    // The usual shape, with a weight, parses the same through every path.
    let good = json!({"surfaceUpdate": {"surfaceId": "s", "components": [
        {"id": "b", "weight": 2, "component": {"Button": {"child": "l", "primary": true}}}]}});
    let a = parse_message(&good).expect("parses");
    let b = parse_message_owned(good.clone()).expect("parses");
    let c = parse_message_text(&good.to_string()).expect("parses");
    assert_eq!(a, b);
    assert_eq!(a, c);
    let Message::UpdateComponents { components, .. } = a.message else {
        panic!("not updateComponents");
    };
    assert_eq!(components[0].props.to_props()["weight"], json!(2));
    assert_eq!(components[0].props.to_props()["variant"], json!("primary"));
    assert_eq!(components[0].wire_props()["primary"], json!(true));
}
