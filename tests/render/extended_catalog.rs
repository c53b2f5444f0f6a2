//! The extended catalog's definition file (`catalogs/extended/v1/catalog.json`): it
//! validates against the official catalog meta-schema (A2UI v1.0
//! `catalog_definition.json`), names exactly the components the catalog draws, and every
//! component of the bundled samples validates against it. Offline: every `$ref` resolves
//! from the copies under `tests/data` and `assets/schemas`.

#![cfg(feature = "extended")]

use std::path::Path;

use egui_a2ui::extended::{CATALOG_ID, COMPONENTS, DEFINITION};
use egui_a2ui::{Catalog, Renderer, Version, capabilities};
use jsonschema::Registry;
use serde_json::{Value, json};

fn read(rel: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path:?}: {e}"))
}

const V10: &str = "tests/data/a2ui/specification/v1_0";

fn definition() -> Value {
    serde_json::from_str(DEFINITION).expect("the definition is JSON")
}

/// The definition under the URI `common_types.json` refers to the catalog in use by.
fn served_as_catalog_json() -> Value {
    let mut d = definition();
    if let Some(o) = d.as_object_mut() {
        o.insert(
            "$id".into(),
            json!("https://a2ui.org/specification/v1_0/catalog.json"),
        );
    }
    d
}

/// The resources every `$ref` here resolves to.
fn registry() -> &'static Registry<'static> {
    let resources = vec![
        (
            "https://a2ui.org/specification/v1_0/catalog_definition.json".to_owned(),
            read(&format!("{V10}/json/catalog_definition.json")),
        ),
        (
            "https://a2ui.org/specification/v1_0/common_types.json".to_owned(),
            read(&format!("{V10}/json/common_types.json")),
        ),
        (
            "https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json".to_owned(),
            read(&format!("{V10}/catalogs/basic/catalog.json")),
        ),
        (CATALOG_ID.to_owned(), definition()),
        // What `common_types.json` calls `catalog.json` (the catalog in use): ours.
        (
            "https://a2ui.org/specification/v1_0/catalog.json".to_owned(),
            served_as_catalog_json(),
        ),
    ];
    let registry = Registry::new()
        .extend(resources)
        .and_then(jsonschema::RegistryBuilder::prepare)
        .expect("registry");
    Box::leak(Box::new(registry))
}

#[test]
fn the_definition_validates_against_the_catalog_meta_schema() {
    let meta = read(&format!("{V10}/json/catalog_definition.json"));
    let validator = jsonschema::options()
        .with_registry(registry())
        .with_base_uri("https://a2ui.org/specification/v1_0/catalog_definition.json")
        .build(&meta)
        .expect("meta-schema");
    let doc = definition();
    let errors: Vec<String> = validator
        .iter_errors(&doc)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    // The meta-schema is not vacuous: a definition without its id fails it.
    let mut broken = doc.clone();
    broken.as_object_mut().map(|o| o.remove("catalogId"));
    assert!(!validator.is_valid(&broken));
    let mut broken = doc;
    broken["components"]["Surface"] = json!({"type": "object"});
    assert!(!validator.is_valid(&broken), "`Surface` is reserved");
}

#[test]
fn the_definition_names_the_components_the_catalog_draws_under_its_own_id() {
    let doc = definition();
    assert_eq!(doc["catalogId"], json!(CATALOG_ID));
    assert_eq!(doc["$id"], json!(CATALOG_ID));
    let basic = read(&format!("{V10}/catalogs/basic/catalog.json"));
    assert_ne!(doc["catalogId"], basic["catalogId"], "never the basic id");
    let catalog = egui_a2ui::extended::catalog();
    let mut defined: Vec<&str> = doc["components"]
        .as_object()
        .expect("components")
        .keys()
        .map(String::as_str)
        .collect();
    defined.sort_unstable();
    assert_eq!(
        defined,
        catalog.component_names(),
        "one definition per renderer"
    );
    for name in COMPONENTS {
        assert!(defined.contains(name), "{name}");
    }
    // The basic components are referenced from the official basic catalog.
    for name in basic["components"].as_object().expect("basic").keys() {
        assert_eq!(
            doc["components"][name]["$ref"],
            json!(format!(
                "{}#/components/{name}",
                basic["catalogId"].as_str().unwrap_or_default()
            ))
        );
    }
}

#[test]
fn the_catalog_id_is_served_and_advertised() {
    let catalog = egui_a2ui::extended::catalog();
    assert!(catalog.catalog_ids().any(|id| id == CATALOG_ID));
    // Under v0.9 and v1.0 (the definition says so), not v0.8.
    for v in [Version::V0_9, Version::V1_0] {
        let ids = capabilities::supported_catalog_ids(&catalog, v);
        assert!(ids.iter().any(|id| id == CATALOG_ID), "{v}: {ids:?}");
    }
    let v08 = capabilities::supported_catalog_ids(&catalog, Version::V0_8);
    assert!(!v08.iter().any(|id| id == CATALOG_ID));
    let described = definition()["description"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert!(described.contains("v0.9 and v1.0"), "{described}");
    // The basic catalog alone does not serve it, and registering twice adds it once.
    assert!(!Catalog::basic().catalog_ids().any(|id| id == CATALOG_ID));
    let mut twice = egui_a2ui::extended::catalog();
    egui_a2ui::extended::register(&mut twice);
    assert_eq!(
        twice.catalog_ids().filter(|id| *id == CATALOG_ID).count(),
        1
    );
}

#[test]
fn every_sample_component_validates_against_the_definition() {
    let any = json!({"$ref": format!("{CATALOG_ID}#/$defs/anyComponent")});
    let validator = jsonschema::options()
        .with_registry(registry())
        .with_base_uri("https://example.invalid/any.json")
        .build(&any)
        .expect("anyComponent");
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/samples/extended");
    let mut checked = 0;
    let mut seen: Vec<String> = Vec::new();
    let mut entries: Vec<_> = std::fs::read_dir(&dir)
        .expect("samples")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .collect();
    entries.sort();
    assert!(
        entries.len() >= 3,
        "a dashboard, a data grid, a settings form"
    );
    for path in entries {
        let text = std::fs::read_to_string(&path).expect("sample");
        // Each sample draws without an error.
        let mut r = Renderer::new(egui_a2ui::extended::catalog());
        r.feed_document(text.as_bytes());
        assert!(
            r.store().errors().is_empty(),
            "{path:?}: {:?}",
            r.store().errors()
        );
        // The v1.0 copies spell bindings `{"@path"}`, which the published v1.0
        // `common_types.json` of this registry does not (it still says `path`): they are
        // checked with the crate's v1.0 validator in `extended_v1_0.rs`.
        let v1 = path.to_string_lossy().contains(".v1_0.");
        for line in text.lines().filter(|l| !v1 && !l.trim().is_empty()) {
            let msg: Value = serde_json::from_str(line).expect("JSONL");
            let Some(components) = msg["updateComponents"]["components"].as_array() else {
                continue;
            };
            for c in components {
                let errors: Vec<String> = validator
                    .iter_errors(c)
                    .map(|e| format!("{e} at {}", e.instance_path()))
                    .collect();
                assert!(errors.is_empty(), "{path:?} {}: {errors:#?}", c["id"]);
                if let Some(t) = c["component"].as_str() {
                    seen.push(t.to_owned());
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 20, "{checked}");
    for name in COMPONENTS {
        assert!(seen.iter().any(|s| s == name), "no sample shows {name}");
    }
    // The validator is not vacuous: a wrong property type fails.
    let bad = json!({"id": "x", "component": "Rating", "value": 3, "max": "five"});
    assert!(!validator.is_valid(&bad));
}

/// What `Catalog::definition` writes (the document prompts and inline catalogs are made
/// from) validates against the catalog meta-schema too: the extended catalog's (the basic
/// components as published, the extended ones with the schemas `register` declared from
/// the definition file, its instructions) and a host catalog's with one component that
/// declared a schema and one that did not.
#[test]
fn catalog_definition_documents_validate_and_carry_the_schemas() {
    let meta = read(&format!("{V10}/json/catalog_definition.json"));
    let validator = jsonschema::options()
        .with_registry(registry())
        .with_base_uri("https://a2ui.org/specification/v1_0/catalog_definition.json")
        .build(&meta)
        .expect("meta-schema");
    let file = definition();

    let ext = egui_a2ui::extended::catalog().definition(Version::V1_0);
    assert_eq!(ext["catalogId"], CATALOG_ID);
    assert_eq!(ext["instructions"], file["instructions"]);
    for name in COMPONENTS {
        assert_eq!(ext["components"][name], file["components"][name], "{name}");
    }
    // The basic components are described in full, not as references.
    assert!(
        ext["components"]["Button"]
            .to_string()
            .contains("\"child\""),
        "{}",
        ext["components"]["Button"]
    );

    const HOST: &str = "https://example.com/game/catalogs/v1/catalog.json";
    let mut host = Catalog::basic().with_catalog_id(HOST, Version::V1_0);
    let draw = |ui: &mut egui::Ui, _: &mut egui_a2ui::ComponentContext<'_, '_>| ui.label("x");
    host.register("Gauge", draw).register("Minimap", draw);
    host.set_component_schema(
        "Gauge",
        json!({"type": "object", "description": "A dial.", "properties": {
            "value": {"$ref": "common_types.json#/$defs/DynamicNumber"}}, "required": ["value"]}),
    );
    let doc = host.definition(Version::V1_0);
    assert_eq!(doc["catalogId"], HOST);
    assert_eq!(doc["components"]["Gauge"]["description"], "A dial.");
    assert_eq!(
        doc["components"]["Gauge"]["allOf"][1]["required"],
        json!(["component", "value"])
    );
    assert_eq!(
        doc["components"]["Minimap"]["allOf"][1]["properties"]["component"]["const"],
        "Minimap"
    );
    assert!(
        doc["$defs"]["anyComponent"]["oneOf"]
            .as_array()
            .unwrap()
            .contains(&json!({"$ref": "#/components/Minimap"}))
    );

    for (name, d) in [("extended", &ext), ("host", &doc)] {
        // The meta-schema copy here predates the `@call` spelling of function
        // definitions (the published basic functions fail it too): the functions are
        // checked by the self-contained schema below instead.
        let mut without_functions = d.clone();
        without_functions
            .as_object_mut()
            .unwrap()
            .remove("functions");
        let errors: Vec<String> = validator
            .iter_errors(&without_functions)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{name}: {errors:#?}");
        // And its self-contained schema leaves no reference outside.
        let schema = egui_a2ui::catalog::validation_schema(d, Version::V1_0).unwrap();
        assert_eq!(egui_a2ui::catalog::unresolved_ref(&schema), None, "{name}");
    }
}
