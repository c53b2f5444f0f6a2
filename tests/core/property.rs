//! Random message sequences (a bounded number of cases, on stable, in CI): applying them
//! never panics and the store keeps its invariants. The cargo-fuzz targets in `fuzz/` go
//! further with coverage guidance.

use egui_a2ui::model::resolve_tree;
use egui_a2ui::{Limits, SurfaceStore};
use proptest::prelude::*;
use serde_json::{Value, json};

fn json_leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<f64>()
            .prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        "[a-z/~0-9 ]{0,8}".prop_map(Value::String),
    ]
}

fn json_value() -> impl Strategy<Value = Value> {
    json_leaf().prop_recursive(4, 32, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map("[a-z]{1,3}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

fn id() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("root".to_owned()),
        "c[0-4]".prop_map(|s| s),
        Just(String::new())
    ]
}

fn path() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("/".to_owned()),
        "(/[a-c0-2~]{1,2}){1,3}".prop_map(|s| s),
        "[a-c]{1,2}".prop_map(|s| s),
    ]
}

fn dynamic() -> impl Strategy<Value = Value> {
    prop_oneof![
        json_leaf(),
        path().prop_map(|p| json!({"path": p})),
        (
            prop_oneof![
                Just("formatString"),
                Just("not"),
                Just("length"),
                Just("nope")
            ],
            json_value()
        )
            .prop_map(|(c, v)| json!({"call": c, "args": {"value": v}})),
    ]
}

fn component() -> impl Strategy<Value = Value> {
    let ty = prop_oneof![
        Just("Text"),
        Just("Row"),
        Just("Column"),
        Just("List"),
        Just("Card"),
        Just("Tabs"),
        Just("Modal"),
        Just("Button"),
        Just("TextField"),
        Just("CheckBox"),
        Just("Slider"),
        Just("ChoicePicker"),
        Just("Image"),
        Just("Icon"),
        Just("Widget"),
    ];
    (
        id(),
        ty,
        dynamic(),
        prop::collection::vec(id(), 0..4),
        id(),
        path(),
        any::<bool>(),
    )
        .prop_map(|(id, ty, text, kids, child, tpl, use_tpl)| {
            let children = if use_tpl {
                json!({"componentId": kids.first().cloned().unwrap_or_default(), "path": tpl})
            } else {
                json!(kids)
            };
            json!({"id": id, "component": ty, "text": text, "label": text, "value": text,
                   "children": children, "child": child, "trigger": child, "content": child,
                   "tabs": [{"title": text, "child": child}], "max": 10})
        })
}

fn message() -> impl Strategy<Value = Value> {
    let sid = prop_oneof![Just("a"), Just("b")];
    let version = prop_oneof![Just("v0.9"), Just("v0.9.1"), Just("v1.0")];
    prop_oneof![
        (sid.clone(), version.clone()).prop_map(|(s, v)| json!({"version": v, "createSurface": {"surfaceId": s,
            "catalogId": if v == "v1.0" { "https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json" } else { "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json" }}})),
        (sid.clone(), version.clone(), prop::collection::vec(component(), 1..6))
            .prop_map(|(s, v, c)| json!({"version": v, "updateComponents": {"surfaceId": s, "components": c}})),
        (sid.clone(), version.clone(), path(), json_value())
            .prop_map(|(s, v, p, x)| json!({"version": v, "updateDataModel": {"surfaceId": s, "path": p, "value": x}})),
        (sid.clone(), version).prop_map(|(s, v)| json!({"version": v, "deleteSurface": {"surfaceId": s}})),
        (sid, path(), json_leaf()).prop_map(|(s, p, x)| json!({"dataModelUpdate": {"surfaceId": s, "path": p,
            "contents": [{"key": "k", "valueString": x.to_string()}]}})),
        json_value(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn random_message_sequences_keep_the_store_consistent(messages in prop::collection::vec(message(), 1..24)) {
        let limits = Limits { max_components: 8, ..Limits::default() };
        let mut store = SurfaceStore::with_config(egui_a2ui::model::Catalogs::basic(), limits.clone());
        for m in &messages {
            let _ = store.apply(m).into_result();
        }
        prop_assert_eq!(store.messages_seen(), messages.len());
        for e in store.errors() {
            prop_assert!(e.message_index.is_some_and(|i| i < messages.len()));
            prop_assert!(!e.error.to_string().is_empty());
        }
        for s in store.surfaces() {
            prop_assert!(s.components().len() <= limits.max_components);
            let (tree, _) = resolve_tree(s, store.catalogs(), store.limits());
            if let Some(t) = tree {
                prop_assert_eq!(s.is_visible(), true);
                // Bounded: a node per component per template item at most, cut by depth.
                prop_assert!(t.node_count() < 100_000);
            }
        }
        let doc = egui_a2ui::conformance::dump(&store, &egui_a2ui::eval::FunctionRegistry::basic());
        prop_assert_eq!(doc["surfaces"].as_array().map(Vec::len), Some(store.surfaces().filter(|s| s.began).count()));
    }
}
