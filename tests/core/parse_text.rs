//! `protocol::parse_message_text` (the ingest path: a message's text deserialized straight
//! into the message types) gives exactly what the `Value` path gives
//! (`parse_message_owned(serde_json::from_str(text))`): the same envelope for every message
//! of every stream in `tests/data`, and the same envelope or the same error for messages
//! built to trip a typed parser (key order, duplicate keys, wrong types, missing parts,
//! v1.0 reserved keys, escapes).

use std::path::Path;

use egui_a2ui::A2uiError;
use egui_a2ui::protocol::{Envelope, parse_message_owned, parse_message_text};
use serde_json::Value;

fn value_path(text: &str) -> Result<Envelope, String> {
    let v: Value =
        serde_json::from_str(text).map_err(|e| A2uiError::Json(e.to_string()).to_string())?;
    parse_message_owned(v).map_err(|e| e.to_string())
}

fn check(text: &str) -> bool {
    let fast = parse_message_text(text).map_err(|e| e.to_string());
    assert_eq!(fast, value_path(text), "message: {text}");
    fast.is_ok()
}

/// Every message of every JSON / JSONL file under `dir` whose messages carry a `version` or
/// a known v0.8 type.
fn messages(dir: &Path, out: &mut Vec<String>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            messages(&p, out);
            continue;
        }
        let Ok(bytes) = std::fs::read(&p) else {
            continue;
        };
        let docs: Vec<Value> = match p.extension().and_then(|x| x.to_str()) {
            Some("jsonl") => bytes
                .split(|b| *b == b'\n')
                .filter_map(|l| serde_json::from_slice(l).ok())
                .collect(),
            Some("json") => serde_json::from_slice(&bytes).into_iter().collect(),
            _ => continue,
        };
        for d in docs {
            let list = match d {
                Value::Array(a) => a,
                Value::Object(mut o) => match o.remove("messages") {
                    Some(Value::Array(a)) => a,
                    _ => vec![Value::Object(o)],
                },
                _ => continue,
            };
            for m in list {
                let is_message = m.as_object().is_some_and(|o| {
                    o.contains_key("version")
                        || o.contains_key("surfaceUpdate")
                        || o.contains_key("beginRendering")
                        || o.contains_key("dataModelUpdate")
                });
                if is_message {
                    out.push(m.to_string());
                }
            }
        }
    }
}

#[test]
fn every_message_in_the_test_data_parses_the_same_from_text() {
    let mut all = Vec::new();
    messages(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data"),
        &mut all,
    );
    assert!(all.len() > 300, "only {} messages found", all.len());
    let ok = all.iter().filter(|m| check(m)).count();
    // Most of them are valid messages (some fixtures are deliberately invalid).
    assert!(ok * 10 > all.len() * 8, "{ok} of {} parsed", all.len());
}

#[test]
fn tricky_messages_parse_or_fail_the_same_from_text() {
    const C: &str =
        r#""catalogId":"https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json""#;
    let cases = [
        // The common shapes.
        r#"{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":"hi"}]}}"#.to_owned(),
        r#"{"version":"v0.9.1","updateComponents":{"components":[{"component":"Text","id":"a","text":{"path":"/x"}}],"surfaceId":"s"}}"#.to_owned(),
        r#"{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/a/b","value":{"x":[1,2.5,-3,1e300,"s",null,true]}}}"#.to_owned(),
        r#"{"version":"v0.9","updateDataModel":{"surfaceId":"s"}}"#.to_owned(),
        r#"{"version":"v0.9","updateDataModel":{"surfaceId":"s","value":null}}"#.to_owned(),
        r#"{"version":"v1.0","updateDataModel":{"surfaceId":"s","path":"/a"}}"#.to_owned(),
        r#"{"version":"v1.0","updateDataModel":{"surfaceId":"s","path":"/a","value":null}}"#.to_owned(),
        r#"{"version":"v0.9","deleteSurface":{"surfaceId":"s"}}"#.to_owned(),
        format!(r#"{{"version":"v0.9","createSurface":{{"surfaceId":"s",{C}}}}}"#),
        format!(r#"{{"version":"v0.9.1","createSurface":{{{C},"surfaceId":"s","sendDataModel":true,"theme":{{"primaryColor":"blue","x":[1]}}}}}}"#),
        format!(r#"{{"version":"v0.9","createSurface":{{"surfaceId":"s",{C},"theme":5}}}}"#),
        format!(r#"{{"version":"v0.9","createSurface":{{"surfaceId":"s",{C},"sendDataModel":"yes"}}}}"#),
        format!(r#"{{"version":"v0.9","createSurface":{{"surfaceId":"s",{C},"components":[]}}}}"#),
        format!(r#"{{"version":"v0.9","createSurface":{{"surfaceId":"s",{C},{C}}}}}"#),
        r#"{"version":"v0.9","createSurface":{"surfaceId":"s"}}"#.to_owned(),
        format!(r#"{{"version":"v1.0","createSurface":{{"surfaceId":"s",{C},"dataModel":{{"a":1}}}}}}"#),
        r#"{"version":"v1.0","createSurface":{"surfaceId":"s"}}"#.to_owned(),
        // Key order, duplicates, extra keys.
        r#"{"updateComponents":{"surfaceId":"s","components":[{"id":"a","component":"Text"}]},"version":"v0.9"}"#.to_owned(),
        r#"{"version":"v0.9","version":"v0.9","deleteSurface":{"surfaceId":"s"}}"#.to_owned(),
        r#"{"version":"v0.9","deleteSurface":{"surfaceId":"s","surfaceId":"t"}}"#.to_owned(),
        r#"{"version":"v0.9","deleteSurface":{"surfaceId":"s"},"createSurface":{"surfaceId":"t"}}"#.to_owned(),
        r#"{"version":"v0.9","deleteSurface":{"surfaceId":"s","extra":1}}"#.to_owned(),
        r#"{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"a","id":"b","component":"Text"}]}}"#.to_owned(),
        r#"{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"a","component":"Text","text":"1","text":"2","x":0}]}}"#.to_owned(),
        r#"{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[]}}"#.to_owned(),
        r#"{"version":"v0.9","updateComponents":{"surfaceId":"s"}}"#.to_owned(),
        r#"{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"component":"Text"}]}}"#.to_owned(),
        r#"{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":7,"component":"Text"}]}}"#.to_owned(),
        r#"{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"a","component":null}]}}"#.to_owned(),
        r#"{"version":"v0.9","updateComponents":{"surfaceId":"s","components":["a"]}}"#.to_owned(),
        r#"{"version":"v0.9","updateComponents":{"surfaceId":"s","components":{"id":"a"}}}"#.to_owned(),
        r#"{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":5,"value":1}}"#.to_owned(),
        r#"{"version":"v0.9","updateDataModel":{"surfaceId":"s","value":1,"value":2}}"#.to_owned(),
        r#"{"version":"v7","deleteSurface":{"surfaceId":"s"}}"#.to_owned(),
        r#"{"version":1,"deleteSurface":{"surfaceId":"s"}}"#.to_owned(),
        r#"{"version":"v0.9"}"#.to_owned(),
        r#"{"version":"v0.9","deleteSurface":"s"}"#.to_owned(),
        // Escapes in keys and values; trailing garbage; not JSON.
        r#"{"vers\u0069on":"v0.9","deleteSurface":{"surface\u0049d":"s\n\"x\""}}"#.to_owned(),
        r#"{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"\u0069d":"a","component":"Te\u0078t","t\u00e9xt":"\ud83d\ude00"}]}}"#.to_owned(),
        r#"{"version":"v0.9","deleteSurface":{"surfaceId":"s"}} x"#.to_owned(),
        r#"{"version":"v0.9","deleteSurface":{"surfaceId":"s"}"#.to_owned(),
        "not json".to_owned(),
        "[]".to_owned(),
        // v1.0 reserved keys and catalogs; v0.8; RPC.
        r#"{"version":"v1.0","updateComponents":{"surfaceId":"s","components":[{"id":"a","component":"Text","@catalogId":"c","text":{"@path":"/x"},"@accessibility":{"label":"l"}}]}}"#.to_owned(),
        r#"{"version":"v1.0","updateComponents":{"surfaceId":"s","components":[{"id":"a","component":"Text","catalogId":"c","text":"t"}]}}"#.to_owned(),
        r#"{"version":"v1.0","updateComponents":{"surfaceId":"s","components":[{"id":"a","component":"Text","catalogId":5}]}}"#.to_owned(),
        r#"{"version":"v1.0","updateComponents":{"surfaceId":"s","components":[{"id":"a","component":"Surface"}]}}"#.to_owned(),
        r#"{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"a","component":"Surface","@catalogId":"c"}]}}"#.to_owned(),
        r#"{"version":"v1.0","functionCallId":"f","deleteSurface":{"surfaceId":"s"}}"#.to_owned(),
        r#"{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"a","component":{"Text":{"text":{"literalString":"x"}}}}]}}"#.to_owned(),
        r#"{"version":"v1.0","agentFunctionResponse":{"functionCallId":"f","value":1}}"#.to_owned(),
    ];
    let ok = cases.iter().filter(|c| check(c)).count();
    assert!(
        ok >= 10 && ok < cases.len(),
        "{ok} of {} accepted",
        cases.len()
    );
}

/// The messages of the official v0.8 examples (`tests/data/a2ui/specification/v0_8`).
fn official_v08_messages() -> Vec<Value> {
    let mut texts = Vec::new();
    messages(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/a2ui/specification/v0_8"),
        &mut texts,
    );
    texts
        .iter()
        .filter_map(|t| serde_json::from_str(t).ok())
        .collect()
}

#[test]
fn every_official_v08_example_message_parses_the_same_from_text_with_its_wire_form_derived() {
    use egui_a2ui::protocol::Message;
    let all = official_v08_messages();
    assert!(all.len() > 80, "only {} v0.8 messages found", all.len());
    let (mut components, mut derived) = (0, 0);
    for m in &all {
        let text = m.to_string();
        assert!(check(&text), "an official example is valid: {text}");
        let Ok(env) = parse_message_text(&text) else {
            continue;
        };
        let Message::UpdateComponents {
            components: defs, ..
        } = env.message
        else {
            continue;
        };
        let sent = m["surfaceUpdate"]["components"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        assert_eq!(defs.len(), sent.len());
        for (def, raw) in defs.iter().zip(&sent) {
            components += 1;
            let (wire_type, wire_props) = raw["component"]
                .as_object()
                .and_then(|w| w.iter().next())
                .expect("a v0.8 component wrapper");
            assert_eq!(def.wire_component(), Some(wire_type.as_str()));
            let wire = def.wire_props();
            assert_eq!(
                Value::Object(wire.to_map()),
                *wire_props,
                "the wire form of {}",
                def.id
            );
            assert!(
                wire.keys().eq(wire_props
                    .as_object()
                    .into_iter()
                    .flat_map(|o| o.keys().map(String::as_str))),
                "in wire order: {}",
                def.id
            );
            if def.wire_props.is_none() {
                derived += 1;
            }
        }
    }
    assert!(components > 400, "{components} components");
    // One copy of the properties: every official example component is in a shape whose
    // wire form is derived, not stored.
    assert_eq!(derived, components, "{derived} of {components} derived");
}

/// Every v0.8 component anywhere in the test data (conformance cases, suites, samples)
/// gives back exactly the properties it was sent with, whether derived or stored.
#[test]
fn every_v08_component_in_the_test_data_gives_back_its_wire_form() {
    use egui_a2ui::protocol::Message;
    let mut texts = Vec::new();
    messages(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data"),
        &mut texts,
    );
    let (mut components, mut derived) = (0, 0);
    for text in &texts {
        let Ok(raw) = serde_json::from_str::<Value>(text) else {
            continue;
        };
        let Ok(env) = parse_message_text(text) else {
            continue;
        };
        let Message::UpdateComponents {
            components: defs, ..
        } = env.message
        else {
            continue;
        };
        let Some(sent) = raw["surfaceUpdate"]["components"].as_array() else {
            continue;
        };
        for (def, c) in defs.iter().zip(sent) {
            let Some((ty, props)) = c["component"].as_object().and_then(|w| w.iter().next()) else {
                continue;
            };
            components += 1;
            derived += usize::from(def.wire_props.is_none());
            assert_eq!(def.wire_component(), Some(ty.as_str()), "{text}");
            let wire = def.wire_props();
            assert_eq!(Value::Object(wire.to_map()), *props, "{}: {text}", def.id);
            assert!(
                wire.keys().eq(props
                    .as_object()
                    .into_iter()
                    .flat_map(|o| o.keys().map(String::as_str))),
                "wire order of {}: {text}",
                def.id
            );
        }
    }
    assert!(components > 450, "{components} v0.8 components");
    assert!(
        derived * 10 > components * 9,
        "{derived} of {components} derived"
    );
}

#[test]
fn a_stored_v08_component_gives_back_its_wire_form_and_the_dump_is_unchanged() {
    use egui_a2ui::model::SurfaceStore;
    let raw = serde_json::json!({"surfaceUpdate": {"surfaceId": "s", "components": [
        {"id": "root", "weight": 1, "component": {"Column": {
            "children": {"explicitList": ["t", "b"]}, "distribution": "center"}}},
        {"id": "t", "component": {"Text": {"text": {"literalString": "Hi"}, "usageHint": "h1"}}},
        {"id": "b", "component": {"Button": {"child": "t", "primary": true,
            "action": {"name": "go", "context": [{"key": "k", "value": {"path": "/v"}}]}}}},
        {"id": "m", "component": {"MultipleChoice": {"selections": {"path": "/s"},
            "maxAllowedSelections": 1}}}
    ]}});
    let mut store = SurfaceStore::basic();
    store.feed_document(
        format!(
            "{}\n{raw}\n",
            serde_json::json!({"beginRendering": {"surfaceId": "s", "root": "root"}})
        )
        .as_bytes(),
    );
    assert!(store.errors().is_empty(), "{:?}", store.errors());
    let surface = store.surface("s").expect("surface");
    for c in raw["surfaceUpdate"]["components"].as_array().expect("list") {
        let id = c["id"].as_str().expect("id");
        let (ty, props) = c["component"]
            .as_object()
            .and_then(|w| w.iter().next())
            .expect("wrapper");
        let stored = surface.component(id).expect("stored");
        assert_eq!(stored.wire_component(), ty);
        assert_eq!(Value::Object(stored.wire_props().to_map()), *props, "{id}");
    }
    assert_eq!(
        surface
            .component("t")
            .expect("t")
            .prop("variant")
            .map(egui_a2ui::model::PropRef::to_value),
        Some(serde_json::json!("h1"))
    );
}

#[test]
fn tricky_v08_messages_parse_or_fail_the_same_from_text() {
    let cases = [
        // The usual shapes, with escapes and every value kind.
        r#"{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"a","weight":2,"component":{"Row":{"children":{"explicitList":["b"]},"distribution":"spaceBetween","alignment":"center"}}}]}}"#,
        r#"{"surfaceUpdate":{"components":[{"component":{"Te\u0078t":{"t\u0065xt":{"literalString":"\ud83d\ude00"}}},"id":"a"}],"surfaceId":"s"}}"#,
        r#"{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"a","component":{"Text":{"text":{"literalString":"x","path":"/a"},"usageHint":"h1","variant":"h2"}}}]}}"#,
        r#"{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"a","component":{"MultipleChoice":{"selections":{"path":"/s"},"maxAllowedSelections":2,"options":[{"label":{"literalString":"x"},"value":"x"}]}}}]}}"#,
        r#"{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"a","component":{"Button":{"child":"l","primary":false,"action":{"name":"go","context":[{"key":"k","value":{"literalNumber":1.5}}]}}}}]}}"#,
        r#"{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"a","component":{"Text":{"text":"1","text":"2"}}}]}}"#,
        r#"{"dataModelUpdate":{"surfaceId":"s","path":"user/","contents":[{"key":"name","valueString":"A"},{"key":"n","valueNumber":2},{"key":"m","valueMap":[{"key":"x","valueBoolean":true},{"key":"y","valueMap":[{"key":"z","valueString":"deep"}]},{"nokey":1},{"key":"e"}]},{"key":".","value":{"a":1}},{"key":"d","value":null}]}}"#,
        r#"{"dataModelUpdate":{"surfaceId":"s","contents":[]}}"#,
        r#"{"beginRendering":{"surfaceId":"s","root":"r","styles":{"primaryColor":"blue","font":"x"}}}"#,
        r#"{"beginRendering":{"root":"r","surfaceId":"s","catalogId":"urn:c"}}"#,
        r#"{"deleteSurface":{"surfaceId":"s"}}"#,
        // A repeated key: the later value, as the JSON map reads it.
        r#"{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"a","id":"b","component":{"Text":{}}}]}}"#,
        // Malformed: each must fail with the Value path's typed error.
        r#"{"surfaceUpdate":{"surfaceId":"s","components":[]}}"#,
        r#"{"surfaceUpdate":{"surfaceId":"s"}}"#,
        r#"{"surfaceUpdate":{"surfaceId":5,"components":[{"id":"a","component":{"Text":{}}}]}}"#,
        r#"{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"a","component":{"Text":{}}}],"extra":1}}"#,
        r#"{"surfaceUpdate":{"surfaceId":"s","components":["a"]}}"#,
        r#"{"surfaceUpdate":{"surfaceId":"s","components":[{"component":{"Text":{}}}]}}"#,
        r#"{"surfaceUpdate":{"surfaceId":"s","components":[{"id":7,"component":{"Text":{}}}]}}"#,
        r#"{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"a"}]}}"#,
        r#"{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"a","component":{}}]}}"#,
        r#"{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"a","component":{"Text":{},"Row":{}}}]}}"#,
        r#"{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"a","component":{"Text":"x"}}]}}"#,
        r#"{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"a","component":{"Text":{}},"weight":"2"}]}}"#,
        r#"{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"a","component":{"Text":{}},"extra":1}]}}"#,
        r#"{"surfaceUpdate":{"surfaceId":"s","components":{"id":"a"}}}"#,
        r#"{"surfaceUpdate":"s"}"#,
        r#"{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"a","component":{"Text":{}}}]},"deleteSurface":{"surfaceId":"s"}}"#,
        r#"{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"a","component":{"Text":{}}}]},"version":"v0.9"}"#,
        r#"{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"a","component":{"Text":{}}}]},"version":null}"#,
        r#"{"dataModelUpdate":{"surfaceId":"s","contents":[{"key":"a","valueString":1}]}}"#,
        r#"{"dataModelUpdate":{"surfaceId":"s","contents":[{"valueString":"x"}]}}"#,
        r#"{"dataModelUpdate":{"surfaceId":"s","contents":[{"key":5,"valueString":"x"}]}}"#,
        r#"{"dataModelUpdate":{"surfaceId":"s","contents":["x"]}}"#,
        r#"{"dataModelUpdate":{"surfaceId":"s","contents":[{"key":"m","valueMap":{"a":1}}]}}"#,
        r#"{"dataModelUpdate":{"surfaceId":"s","contents":[{"key":"m","valueMap":[{"key":"x","valueNumber":"1"}]}]}}"#,
        r#"{"dataModelUpdate":{"surfaceId":"s","contents":{}}}"#,
        r#"{"dataModelUpdate":{"surfaceId":"s","path":7,"contents":[]}}"#,
        r#"{"dataModelUpdate":{"contents":[]}}"#,
        r#"{"dataModelUpdate":{"surfaceId":"s","contents":[],"x":1}}"#,
        r#"{"dataModelUpdate":[]}"#,
        r#"{"beginRendering":{"surfaceId":"s"}}"#,
        r#"{"beginRendering":{"surfaceId":"s","root":"r","styles":"x"}}"#,
        r#"{"beginRendering":{"surfaceId":"s","root":"r","catalogId":1}}"#,
        r#"{"deleteSurface":{"surfaceId":"s","x":1}}"#,
        r#"{"deleteSurface":{}}"#,
        r#"{"createSurface":{"surfaceId":"s"}}"#,
        r#"{}"#,
        r#"{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"a","component":{"Text":{}}}]}"#,
        r#"{"deleteSurface":{"surfaceId":"s"}} x"#,
    ];
    let ok: Vec<usize> = (0..cases.len()).filter(|&i| check(cases[i])).collect();
    assert_eq!(
        ok,
        (0..12).collect::<Vec<_>>(),
        "the first twelve cases are valid, the others not"
    );
}

/// Deeply nested `valueMap`s parse the same on both paths, and fail the same past the
/// JSON depth limit.
#[test]
fn deep_v08_value_maps_parse_or_fail_the_same_from_text() {
    let nested = |levels: usize| {
        let mut entry = serde_json::json!({"key": "leaf", "valueString": "x"});
        for i in 0..levels {
            entry = serde_json::json!({"key": format!("k{i}"), "valueMap": [entry]});
        }
        serde_json::json!({"dataModelUpdate": {"surfaceId": "s", "contents": [entry]}}).to_string()
    };
    assert!(check(&nested(40)));
    assert!(!check(&nested(70)));
}

mod v08_random {
    use super::check;
    use proptest::prelude::*;
    use serde_json::{Value, json};

    /// Values from a vocabulary that hits the v0.8 adapter's cases (BoundValues, child lists,
    /// actions, contents entries), well-formed or not.
    fn value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            (-2i64..100).prop_map(|n| json!(n)),
            prop::sample::select(vec!["x", "/p", "scale-down", "go", "k"]).prop_map(|s| json!(s)),
            Just(json!({"literalString": "x"})),
            Just(json!({"path": "/p"})),
            Just(json!({"explicitList": ["a"]})),
            Just(json!({"key": "a", "valueString": "x"})),
            Just(json!({"key": "/n", "valueMap": [{"key": "x", "valueNumber": 1}, {"key": "y"}]})),
            Just(json!({"key": ".", "value": {"z": [1]}})),
        ];
        leaf.prop_recursive(3, 16, 4, |inner| {
            let key = prop::sample::select(vec![
                "literalString",
                "literalNumber",
                "path",
                "explicitList",
                "template",
                "componentId",
                "dataBinding",
                "name",
                "context",
                "key",
                "value",
                "valueString",
                "valueNumber",
                "valueBoolean",
                "valueMap",
                "valueObject",
            ]);
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..3).prop_map(Value::Array),
                prop::collection::vec((key, inner), 0..3).prop_map(|kv| {
                    Value::Object(kv.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
                }),
            ]
        })
    }

    fn component() -> impl Strategy<Value = Value> {
        let ty = prop::sample::select(vec![
            "Text",
            "Row",
            "Button",
            "Image",
            "Modal",
            "TextField",
            "MultipleChoice",
            "Slider",
        ]);
        let prop_key = prop::sample::select(vec![
            "text",
            "children",
            "action",
            "usageHint",
            "distribution",
            "primary",
            "fit",
            "label",
            "weight",
            "entryPointChild",
            "maxValue",
            "selections",
        ]);
        let props = prop::collection::vec((prop_key, value()), 0..4)
            .prop_map(|kv| Value::Object(kv.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()));
        (ty, props, prop::option::of(value()), any::<u8>()).prop_map(|(ty, props, weight, id)| {
            let mut c = json!({"id": format!("c{id}"), "component": {ty: props}});
            if let Some(w) = weight {
                c["weight"] = w;
            }
            c
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]
        /// Random v0.8 messages, valid or not, parse the same from text: same envelope or
        /// same typed error.
        #[test]
        fn random_v08_messages_parse_or_fail_the_same_from_text(
            comps in prop::collection::vec(component(), 0..4),
            entries in prop::collection::vec(value(), 0..4),
            path in prop::option::of(prop::sample::select(vec!["/", "user", "/a/", "", "."])),
        ) {
            check(&json!({"surfaceUpdate": {"surfaceId": "s", "components": comps}}).to_string());
            let mut body = json!({"surfaceId": "s", "contents": entries});
            if let Some(p) = path {
                body["path"] = json!(p);
            }
            check(&json!({"dataModelUpdate": body}).to_string());
        }
    }
}
