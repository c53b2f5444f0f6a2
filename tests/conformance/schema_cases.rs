//! The official schema test cases for agent → renderer messages
//! (`specification/*/test/cases`): the strict validator (feature `validation`) agrees with
//! every verdict, and the lenient default parser accepts every message the schemas call
//! valid (it must never reject a valid message).

use std::path::PathBuf;

use egui_a2ui::protocol::parse_message;
use serde_json::Value;

const SPEC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/a2ui/specification");

struct Case {
    file: String,
    description: String,
    valid: bool,
    data: Value,
    #[cfg_attr(not(feature = "validation"), allow(dead_code))]
    catalog: Option<String>,
}

fn agent_message_cases() -> Vec<Case> {
    let mut out = Vec::new();
    for version in ["v0_9", "v1_0"] {
        let dir = PathBuf::from(SPEC).join(version).join("test/cases");
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .expect("cases dir")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        files.sort();
        for f in files {
            let doc: Value =
                serde_json::from_slice(&std::fs::read(&f).expect("read")).expect("json");
            let schema = doc["schema"].as_str().unwrap_or_default();
            if schema != "server_to_client.json" && schema != "agent_to_renderer.json" {
                continue;
            }
            for t in doc["tests"].as_array().expect("tests") {
                out.push(Case {
                    file: format!(
                        "{version}/{}",
                        f.file_name().expect("name").to_string_lossy()
                    ),
                    description: t["description"].as_str().unwrap_or_default().to_owned(),
                    valid: t["valid"].as_bool().expect("valid flag"),
                    data: t["data"].clone(),
                    catalog: doc["catalog"].as_str().map(str::to_owned),
                });
            }
        }
    }
    out
}

#[test]
fn the_default_parser_accepts_every_schema_valid_message() {
    let cases = agent_message_cases();
    assert!(cases.len() > 150, "cases went missing: {}", cases.len());
    let mut rejected = Vec::new();
    let mut valid = 0;
    for c in &cases {
        if !c.valid {
            continue;
        }
        valid += 1;
        if let Err(e) = parse_message(&c.data) {
            rejected.push(format!("{} / {}: {e}", c.file, c.description));
        }
    }
    assert!(valid > 60);
    assert!(rejected.is_empty(), "{}", rejected.join("\n"));
}

#[test]
fn the_default_parser_rejects_invalid_envelopes() {
    // Cases whose invalidity is about the envelope itself (not catalog props): the
    // lenient parser must reject them too.
    let envelope_cases = agent_message_cases()
        .into_iter()
        .filter(|c| !c.valid)
        .filter(|c| {
            c.file.ends_with("initial_state_validation.json")
                && !c.description.contains("extension")
                // An unknown component prop is a catalog-level check (strict mode only).
                && !c.description.contains("unexpected property on envelope")
                || c.file.ends_with("call_function_message.json")
                    && c.description.contains("missing")
        })
        .collect::<Vec<_>>();
    assert!(envelope_cases.len() >= 10, "{}", envelope_cases.len());
    for c in &envelope_cases {
        assert!(
            parse_message(&c.data).is_err(),
            "{} / {} accepted",
            c.file,
            c.description
        );
    }
}

/// A v1.0 message in the `@` spelling of the December suites: in its components and its
/// `callFunction`, every `call` key becomes `@call` and every `path` key of an object that
/// is no `{componentId, path}` template becomes `@path`.
#[cfg(feature = "validation")]
fn at_vocabulary(mut message: Value) -> Value {
    fn walk(v: &mut Value) {
        match v {
            Value::Array(items) => items.iter_mut().for_each(walk),
            Value::Object(o) => {
                if !o.contains_key("componentId") {
                    for key in ["path", "call"] {
                        if let Some(x) = o.remove(key) {
                            o.insert(format!("@{key}"), x);
                        }
                    }
                }
                o.values_mut().for_each(walk);
            }
            _ => {}
        }
    }
    for at in [
        "/updateComponents/components",
        "/createSurface/components",
        "/callRendererFunction/callFunction",
    ] {
        if let Some(v) = message.pointer_mut(at) {
            walk(v);
        }
    }
    message
}

/// August v1.0 cases (the testing catalog, bare spelling) whose verdict the December
/// vocabulary changes: an object with no `@` key is literal data there, not a malformed
/// binding or call (`reserved_keys.yaml` `test_plain_object_with_literal_path_and_call`;
/// the suites win). The binding and the call spelled `@path` / `@call` with an extra key
/// are refused (the unit tests of `egui_a2ui::validate`).
#[cfg(feature = "validation")]
const VOCABULARY_CHANGES: &[&str] = &[
    "v1_0/call_function_message.json / CallRendererFunctionMessage: Invalid args (nested object in a single value)",
    "v1_0/dynamic_value_validation.json / DynamicValue: Invalid DataBinding with extra properties",
    "v1_0/dynamic_value_validation.json / DynamicValue: Invalid FunctionCall with extra properties",
];

#[cfg(feature = "validation")]
#[test]
fn the_strict_validator_agrees_with_every_schema_test_case() {
    use egui_a2ui::SchemaValidator;
    let basic = SchemaValidator::basic().expect("validator");
    let testing_catalog: Value = serde_json::from_slice(
        &std::fs::read(PathBuf::from(SPEC).join("v1_0/test/testing_catalog.json")).expect("read"),
    )
    .expect("json");
    let v09_catalog: Value = serde_json::from_slice(
        &std::fs::read(PathBuf::from(SPEC).join("v0_9/catalogs/basic/catalog.json")).expect("read"),
    )
    .expect("json");
    let testing = SchemaValidator::with_catalogs(v09_catalog, testing_catalog).expect("validator");
    let mut disagreements = Vec::new();
    let cases = agent_message_cases();
    for c in &cases {
        let (v, data) = if c.catalog.as_deref() == Some("testing_catalog.json") {
            (&testing, c.data.clone())
        } else if c.file.starts_with("v1_0/") {
            // The August v1.0 cases spell bindings and calls `path` / `call`; the v1 basic
            // catalog the validator checks v1.0 against (with the suites) spells them
            // `@path` / `@call`. Each case is checked in that spelling.
            (&basic, at_vocabulary(c.data.clone()))
        } else {
            (&basic, c.data.clone())
        };
        let verdict = v.validate(&data);
        let key = format!("{} / {}", c.file, c.description);
        if VOCABULARY_CHANGES.contains(&key.as_str()) {
            // Refused in August, data in December: must be accepted now.
            assert!(verdict.is_ok(), "{key}: {verdict:?}");
            continue;
        }
        if verdict.is_ok() != c.valid {
            disagreements.push(format!(
                "{} / {}: expected valid={}, got {:?}",
                c.file, c.description, c.valid, verdict
            ));
        }
    }
    eprintln!(
        "{} of {} schema cases agree ({} of them changed by the December vocabulary)",
        cases.len() - disagreements.len(),
        cases.len(),
        VOCABULARY_CHANGES.len()
    );
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
}

#[cfg(feature = "validation")]
#[test]
fn a_strict_store_rejects_a_message_the_schema_forbids_and_keeps_the_rest() {
    use egui_a2ui::SchemaValidator;
    use egui_a2ui::SurfaceStore;
    use serde_json::json;
    let mut store = SurfaceStore::basic();
    store.set_validator(Some(std::sync::Arc::new(
        SchemaValidator::basic().expect("validator"),
    )));
    let cat = "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json";
    store
        .apply(json!({"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": cat}}))
        .into_result()
        .expect("create");
    let bad = json!({"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": [
        {"id": "root", "component": "Text", "text": "x", "variant": "shout"}]}});
    let err = store
        .apply(&bad)
        .into_result()
        .expect_err("variant outside the enum");
    assert_eq!(err.code(), "VALIDATION_FAILED");
    assert!(store.surface("s").expect("surface").components().is_empty());
    let good = json!({"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": [
        {"id": "root", "component": "Text", "text": "x", "variant": "h2"}]}});
    store
        .apply(&good)
        .into_result()
        .expect("valid message applies");
    assert!(store.surface("s").expect("surface").is_visible());
}
