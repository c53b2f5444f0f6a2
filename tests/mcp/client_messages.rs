//! Every renderer → agent message and metadata object this crate produces validates against
//! the official schemas of its version, and the schemas' own test cases agree with the
//! validator (a sanity check of the harness).
//!
//! The validator is `jsonschema` with no default features: offline, every `$ref` resolved
//! from the sibling schema files registered as resources.

use crate::common;

use std::path::Path;

use egui_a2ui::A2uiError;
use egui_a2ui::now_timestamp;
use egui_a2ui::{
    ActionEvent, Catalog, Event, Rejected, Renderer, SurfaceStore, Version, capabilities,
};
use egui_kittest::kittest::Queryable;
use jsonschema::{Registry, Validator};
use serde_json::{Map, Value, json};

const SPEC: &str = "tests/data/a2ui/specification";

fn read(rel: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(SPEC).join(rel);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path:?}: {e}"))
}

/// The URI a spec file is published under (what relative `$ref`s resolve against).
fn uri(dir: &str, file: &str) -> String {
    format!("https://a2ui.org/specification/{dir}/{file}")
}

/// A validator for `dir/json/schema`, with the sibling files `siblings` (and, for v1.0, a
/// catalog standing in for `catalog.json`) registered as resources. Formats are checked.
fn validator(dir: &str, schema: &str, siblings: &[&str], catalog: Option<&str>) -> Validator {
    let mut resources: Vec<(String, Value)> = siblings
        .iter()
        .map(|f| (uri(dir, f), read(&format!("{dir}/json/{f}"))))
        .collect();
    if let Some(cat) = catalog {
        let mut c = read(cat);
        // Served as `catalog.json`, whatever its own id says.
        if let Some(o) = c.as_object_mut() {
            o.insert("$id".into(), json!(uri(dir, "catalog.json")));
        }
        resources.push((uri(dir, "catalog.json"), c));
    }
    let registry: Registry<'static> = Registry::new()
        .extend(resources)
        .and_then(jsonschema::RegistryBuilder::prepare)
        .unwrap_or_else(|e| panic!("registry for {dir}/{schema}: {e}"));
    // The registry must outlive the build only; leak it to keep the helper simple.
    let registry: &'static Registry<'static> = Box::leak(Box::new(registry));
    jsonschema::options()
        .with_registry(registry)
        .with_base_uri(uri(dir, schema))
        .should_validate_formats(true)
        .build(&read(&format!("{dir}/json/{schema}")))
        .unwrap_or_else(|e| panic!("schema {dir}/{schema}: {e}"))
}

fn v08_messages() -> Validator {
    validator("v0_8", "client_to_server.json", &[], None)
}
fn v09_messages() -> Validator {
    validator("v0_9", "client_to_server.json", &[], None)
}
fn v091_messages() -> Validator {
    validator("v0_9_1", "client_to_server.json", &[], None)
}
fn v10_messages(catalog: &str) -> Validator {
    validator(
        "v1_0",
        "renderer_to_agent.json",
        &["common_types.json"],
        Some(catalog),
    )
}
const V10_BASIC: &str = "v1_0/catalogs/basic/catalog.json";

fn messages_for(version: Version) -> Validator {
    match version {
        Version::V0_8 => v08_messages(),
        Version::V0_9 => v09_messages(),
        Version::V0_9_1 => v091_messages(),
        Version::V1_0 => v10_messages(V10_BASIC),
        v => panic!("no message schemas for {v:?}: add them here"),
    }
}

#[track_caller]
fn assert_valid(v: &Validator, instance: &Value) {
    let errors: Vec<String> = v.iter_errors(instance).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{instance:#}\n{errors:#?}");
}

/// Run a schema test-case file: each case's `valid` must be what the validator says.
fn run_cases(file: &str, v: &Validator) -> usize {
    let cases = read(file);
    let tests = cases["tests"].as_array().expect("tests");
    for t in tests {
        let expected = t["valid"].as_bool().expect("valid");
        assert_eq!(
            v.is_valid(&t["data"]),
            expected,
            "{file}: {}",
            t["description"]
        );
    }
    tests.len()
}

#[test]
fn the_schema_test_cases_for_client_messages_agree_with_the_validator() {
    let mut n = run_cases("v0_9/test/cases/client_messages.json", &v09_messages());
    let v10 = v10_messages(V10_BASIC);
    n += run_cases("v1_0/test/cases/renderer_messages.json", &v10);
    n += run_cases("v1_0/test/cases/function_response.json", &v10);
    let testing = v10_messages("v1_0/test/testing_catalog.json");
    n += run_cases("v1_0/test/cases/call_agent_function_message.json", &testing);
    assert!(n >= 30, "ran {n} cases");
}

fn sample_action(version: Version) -> ActionEvent {
    let mut context = Map::new();
    context.insert("who".into(), json!("Ada"));
    context.insert("count".into(), json!(3));
    context.insert(
        "nested".into(),
        json!({"tags": ["a", "b"], "ok": true, "none": null}),
    );
    ActionEvent {
        surface_id: "s".into(),
        source_component_id: "go".into(),
        name: "submit".into(),
        context,
        timestamp: now_timestamp(),
        user_message: Some("Submitted the form".into()),
        version,
        scope: "/".into(),
    }
}

#[test]
fn action_messages_validate_against_the_schema_of_every_version() {
    for version in [Version::V0_8, Version::V0_9, Version::V0_9_1, Version::V1_0] {
        let msg = sample_action(version).to_message();
        assert_valid(&messages_for(version), &msg);
        match version {
            Version::V0_8 => assert!(msg.get("userAction").is_some()),
            Version::V1_0 => assert_eq!(msg["action"]["userMessage"], "Submitted the form"),
            v => {
                assert_eq!(msg["version"], v.as_str());
                assert!(
                    msg["action"].get("userMessage").is_none(),
                    "v0.9 has no userMessage"
                );
            }
        }
    }
}

#[test]
fn the_action_timestamp_is_an_rfc_3339_date_time() {
    let v = jsonschema::options()
        .should_validate_formats(true)
        .build(&json!({"type": "string", "format": "date-time"}))
        .expect("schema");
    let ts = now_timestamp();
    assert!(v.is_valid(&json!(ts)), "{ts}");
    assert!(ts.ends_with('Z'));
}

fn errors() -> Vec<Rejected> {
    let mk = |surface: Option<&str>, call: Option<&str>, error: A2uiError| {
        let e = Rejected::new(surface.map(str::to_owned), Version::V0_9, error);
        match call {
            Some(c) => e.for_call(c),
            None => e,
        }
    };
    vec![
        mk(
            Some("s"),
            None,
            A2uiError::Validation {
                path: "/updateComponents/components/0/id".into(),
                message: "bad id".into(),
            },
        ),
        mk(Some("s"), None, A2uiError::Json("eof".into())),
        mk(Some("s"), None, A2uiError::SurfaceNotFound("x".into())),
        mk(None, None, A2uiError::Cycle("a".into())),
        mk(
            None,
            Some("call-1"),
            A2uiError::Expression {
                expression: "f".into(),
                message: "boom".into(),
            },
        ),
        mk(
            Some("s"),
            Some("call-2"),
            A2uiError::Expression {
                expression: "f".into(),
                message: "boom".into(),
            },
        ),
        mk(
            None,
            Some("call-3"),
            A2uiError::Validation {
                path: "/x".into(),
                message: "bad".into(),
            },
        ),
    ]
}

#[test]
fn error_messages_validate_against_the_schema_of_every_version() {
    for version in [Version::V0_8, Version::V0_9, Version::V0_9_1, Version::V1_0] {
        let v = messages_for(version);
        for mut e in errors() {
            e.version = version;
            let msg = e.to_message();
            assert_valid(&v, &msg);
            let body = &msg["error"];
            assert_eq!(body["code"], e.error.code());
            if e.error.code() == "VALIDATION_FAILED" {
                assert!(body["path"].is_string());
            }
        }
    }
}

#[test]
fn a_v1_error_answering_a_function_call_names_the_call_not_the_surface() {
    let e = Rejected::new(
        Some("s".into()),
        Version::V1_0,
        A2uiError::Expression {
            expression: "f".into(),
            message: "boom".into(),
        },
    )
    .for_call("call-9");
    let msg = e.to_message();
    assert_eq!(msg["error"]["functionCallId"], "call-9");
    assert!(msg["error"].get("surfaceId").is_none());
}

const V08_DOC: &str = r#"{"surfaceUpdate": {"surfaceId": "s", "components": [{"id": "root", "component": {"Button": {"child": "l", "action": {"name": "go", "context": [{"key": "who", "value": {"path": "/name"}}, {"key": "n", "value": {"literalNumber": 2}}]}}}}, {"id": "l", "component": {"Text": {"text": {"literalString": "Go"}}}}]}}
{"dataModelUpdate": {"surfaceId": "s", "contents": [{"key": "name", "valueString": "Ada"}]}}
{"beginRendering": {"surfaceId": "s", "root": "root"}}
{"surfaceUpdate": {"surfaceId": "s", "components": 5}}
"#;

fn button_doc(version: Version) -> String {
    if version == Version::V0_8 {
        return V08_DOC.to_owned();
    }
    let (v, catalog) = match version {
        Version::V1_0 => ("v1.0", common::BASIC_V10),
        Version::V0_9_1 => ("v0.9.1", common::BASIC_V09),
        _ => ("v0.9", common::BASIC_V09),
    };
    [
        json!({"version": v, "createSurface": {"surfaceId": "s", "catalogId": catalog}}),
        json!({"version": v, "updateComponents": {"surfaceId": "s", "components": [
            {"id": "root", "component": "Button", "child": "l",
                "action": {"event": {"name": "go", "context": {"who": {"path": "/name"}, "n": 2}}}},
            {"id": "l", "component": "Text", "text": "Go"}
        ]}}),
        json!({"version": v, "updateDataModel": {"surfaceId": "s", "path": "/name", "value": "Ada"}}),
        // An update for a surface that does not exist: an error event to report.
        json!({"version": v, "updateDataModel": {"surfaceId": "ghost", "path": "/x", "value": 1}}),
    ]
    .iter()
    .map(|m| format!("{m}\n"))
    .collect()
}

#[test]
fn messages_produced_by_a_real_click_and_real_errors_validate_in_every_version() {
    for version in [Version::V0_8, Version::V0_9, Version::V0_9_1, Version::V1_0] {
        let mut r = Renderer::new(Catalog::basic());
        r.feed_document(button_doc(version).as_bytes());
        let mut events = r.take_events();
        let _ = r.store_mut().take_errors();
        let mut h = common::harness_for(r);
        h.get_by_label("Go").click();
        h.run();
        events.append(&mut h.state_mut().events);
        let v = messages_for(version);
        let action = events
            .iter()
            .find_map(|e| match e {
                Event::Action(a) => Some(a),
                _ => None,
            })
            .unwrap_or_else(|| panic!("{version}: an action"));
        assert_eq!(action.context["who"], "Ada", "{version}");
        assert_eq!(action.context["n"], 2, "{version}");
        let mut errors = 0;
        for e in &events {
            if let Some(msg) = e.to_message() {
                assert_valid(&v, &msg);
                errors += usize::from(matches!(e, Event::Error(_)));
            }
        }
        assert!(errors >= 1, "{version}: an error was reported and checked");
    }
}

#[test]
fn capabilities_validate_against_the_schema_of_every_version() {
    let catalog = Catalog::basic().with_catalog_id("https://example.com/game.json", Version::V0_9);
    let meta = capabilities::capabilities_metadata(&catalog);
    let client = &meta[capabilities::CLIENT_CAPABILITIES_KEY];
    let renderer = &meta[capabilities::RENDERER_CAPABILITIES_KEY];
    assert_valid(
        &validator(
            "v0_8",
            "a2ui_client_capabilities_schema.json",
            &["catalog_description_schema.json"],
            None,
        ),
        client,
    );
    assert_valid(
        &validator("v0_9", "client_capabilities.json", &[], None),
        client,
    );
    assert_valid(
        &validator("v0_9_1", "client_capabilities.json", &[], None),
        client,
    );
    assert_valid(
        &validator(
            "v1_0",
            "renderer_capabilities.json",
            &["catalog_definition.json", "common_types.json"],
            Some(V10_BASIC),
        ),
        renderer,
    );

    let ids = |v: &Value| -> Vec<String> {
        serde_json::from_value(v["supportedCatalogIds"].clone()).expect("ids")
    };
    assert!(ids(client).contains(&Version::V0_8.basic_catalog_id().to_owned()));
    let v09 = ids(&client["v0.9"]);
    assert!(v09.contains(&Version::V0_9.basic_catalog_id().to_owned()));
    assert!(v09.contains(&"https://example.com/game.json".to_owned()));
    assert_eq!(client["v0.9"], client["v0.9.1"]);
    assert_eq!(
        ids(&renderer["v1.0"]),
        vec![Version::V1_0.basic_catalog_id().to_owned()]
    );
}

fn store_with_surfaces() -> SurfaceStore {
    let mut store = SurfaceStore::basic();
    let doc = [
        json!({"version": "v0.9", "createSurface": {"surfaceId": "a", "catalogId": common::BASIC_V09, "sendDataModel": true}}),
        json!({"version": "v0.9", "updateDataModel": {"surfaceId": "a", "path": "/name", "value": "Ada"}}),
        json!({"version": "v0.9", "createSurface": {"surfaceId": "b", "catalogId": common::BASIC_V09}}),
        json!({"version": "v0.9", "updateDataModel": {"surfaceId": "b", "path": "/secret", "value": 1}}),
        json!({"version": "v1.0", "createSurface": {"surfaceId": "c", "catalogId": common::BASIC_V10, "sendDataModel": true}}),
        json!({"version": "v1.0", "updateDataModel": {"surfaceId": "c", "path": "/n", "value": 2}}),
        json!({"version": "v0.9", "createSurface": {"surfaceId": "other-agent", "catalogId": common::BASIC_V09, "sendDataModel": true}}),
        json!({"version": "v0.9.1", "createSurface": {"surfaceId": "d", "catalogId": common::BASIC_V09, "sendDataModel": true}}),
    ];
    for m in doc {
        store.apply(&m).into_result().expect("applies");
    }
    store
}

#[test]
fn data_model_metadata_carries_only_the_agents_send_data_model_surfaces() {
    let store = store_with_surfaces();
    let meta = store.data_model_metadata(["a", "b", "c", "missing"]);
    let client = &meta[capabilities::CLIENT_DATA_MODEL_KEY];
    assert_eq!(
        client,
        &json!({"version": "v0.9", "surfaces": {"a": {"name": "Ada"}}})
    );
    let renderer = &meta[capabilities::RENDERER_DATA_MODEL_KEY];
    assert_eq!(
        renderer,
        &json!({"version": "v1.0", "surfaces": {"c": {"n": 2}}})
    );
    assert_valid(
        &validator("v0_9", "client_data_model.json", &[], None),
        client,
    );
    assert_valid(
        &validator("v0_9_1", "client_data_model.json", &[], None),
        client,
    );
    assert_valid(
        &validator("v1_0", "renderer_data_model.json", &[], None),
        renderer,
    );

    let only_091 = store.data_model_metadata(["d"]);
    assert_eq!(
        only_091[capabilities::CLIENT_DATA_MODEL_KEY]["version"],
        "v0.9.1"
    );
    assert_valid(
        &validator("v0_9_1", "client_data_model.json", &[], None),
        &only_091[capabilities::CLIENT_DATA_MODEL_KEY],
    );
    assert!(
        store.data_model_metadata(["b"]).is_empty(),
        "no sendDataModel, no key"
    );
}

#[test]
fn typing_sends_nothing_but_the_next_message_metadata_carries_the_edit() {
    let doc = [
        json!({"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": common::BASIC_V09, "sendDataModel": true}}),
        json!({"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": [
            {"id": "root", "component": "TextField", "label": "Name", "value": {"path": "/name"}}
        ]}}),
    ]
    .iter()
    .map(|m| format!("{m}\n"))
    .collect::<String>();
    let mut h = common::harness(&doc);
    h.get_by_label("Name").focus();
    h.run();
    h.get_by_label("Name").type_text("Ada");
    h.run();
    assert!(
        h.state().events.iter().all(|e| e.to_message().is_none()),
        "no agent traffic from typing"
    );
    let meta = h.state().renderer.outgoing_metadata(["s"]);
    assert_eq!(
        meta[capabilities::CLIENT_DATA_MODEL_KEY]["surfaces"]["s"],
        json!({"name": "Ada"})
    );
    assert!(meta.contains_key(capabilities::CLIENT_CAPABILITIES_KEY));
}

/// The case of `file` described as `description`.
fn case(file: &str, description: &str) -> Value {
    read(file)["tests"]
        .as_array()
        .and_then(|t| t.iter().find(|c| c["description"] == description))
        .map(|c| c["data"].clone())
        .unwrap_or_else(|| panic!("{file}: no case {description:?}"))
}

#[test]
fn our_encoders_reproduce_the_valid_messages_of_the_schema_test_cases() {
    let mut context = Map::new();
    context.insert("foo".into(), json!("bar"));
    let mut action = ActionEvent {
        surface_id: "main".into(),
        source_component_id: "btn_submit".into(),
        name: "submit".into(),
        context,
        timestamp: "2023-10-27T10:00:00Z".into(),
        user_message: None,
        version: Version::V0_9,
        scope: "/".into(),
    };
    assert_eq!(
        action.to_message(),
        case(
            "v0_9/test/cases/client_messages.json",
            "Valid action message"
        )
    );
    action.version = Version::V1_0;
    assert_eq!(
        action.to_message(),
        case(
            "v1_0/test/cases/renderer_messages.json",
            "Valid action message"
        )
    );
    action.user_message = Some("Submitted form".into());
    assert_eq!(
        action.to_message(),
        case(
            "v1_0/test/cases/renderer_messages.json",
            "Valid action message with optional userMessage"
        )
    );

    // Errors: every field but the human-readable message is the case's.
    for (version, file) in [
        (Version::V0_9, "v0_9/test/cases/client_messages.json"),
        (Version::V1_0, "v1_0/test/cases/renderer_messages.json"),
    ] {
        let error = Rejected::new(
            Some("main".into()),
            version,
            A2uiError::Validation {
                path: "/components/0/text".into(),
                message: "Invalid type".into(),
            },
        );
        let mut ours = error.to_message();
        let mut theirs = case(file, "Valid error message (validation failed)");
        assert!(
            ours["error"]["message"]
                .as_str()
                .is_some_and(|m| m.contains("Invalid type"))
        );
        ours["error"]["message"] = Value::Null;
        theirs["error"]["message"] = Value::Null;
        assert_eq!(ours, theirs, "{version}");
    }
}
