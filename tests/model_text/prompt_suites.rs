//! Prompts made from a catalog (`egui_a2ui::prompt`): the official prompt suites
//! (`agent/express/prompt_generator.yaml`, `agent/direct_json/prompt_generator.yaml`,
//! `inference_formats/express/prompt_generation.yaml`) with the cases we do not pass listed
//! in `tests/prompt_deviations.md`; a differential test against the official Python agent
//! SDK's prompt generators (`a2ui-agent-sdk==0.9.0`, the venv `tests/peers/.venv-sdk`): the
//! catalog-derived text (every signature line, the catalog instructions with their JSON
//! examples decompiled to Express, the catalog schema) is the SDK's for the same catalog,
//! and `catalog::validation_schema` flattens each component as the SDK does; and the
//! Express examples a prompt shows compile back into the example's components.

use std::collections::BTreeMap;

use egui_a2ui::prompt::{PromptBuilder, PromptFormat, decompile_express, prune_catalog};
use egui_a2ui::stream::model_text::express::{ExpressCatalog, ExpressVersion, compile};
use egui_a2ui::{Catalog, Version};
use serde_json::{Value, json};

use crate::common::peers::{Venv, run_json_script};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/express-suites");

fn load_yaml(rel: &str) -> Vec<Value> {
    let text = std::fs::read_to_string(format!("{DIR}/{rel}")).unwrap();
    serde_yaml_ng::from_str(&text).unwrap()
}

fn load_json(rel: &str) -> Value {
    let text = std::fs::read_to_string(format!("{DIR}/{rel}")).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn strings(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_owned)
        .collect()
}

/// The builder a case describes (`generate_prompt_snippet` or `generate_prompt`).
fn builder(case: &Value) -> Result<PromptBuilder, String> {
    let args = case.get("args").cloned().unwrap_or_default();
    let format = match args.get("format").and_then(Value::as_str) {
        Some("direct_json") => PromptFormat::DirectJson,
        _ => PromptFormat::Express,
    };
    let mut b = PromptBuilder::new(format);
    match args.get("catalogs") {
        Some(Value::Array(list)) => {
            for c in list {
                let path = c["catalog"].as_str().ok_or("catalog without a path")?;
                let mut doc = load_json(path);
                for t in c
                    .get("transformers")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    if let Some(keep) = t.get("component_pruning") {
                        let keep = strings(Some(keep));
                        let keep: Vec<&str> = keep.iter().map(String::as_str).collect();
                        doc = prune_catalog(&doc, Some(&keep), None);
                    }
                    if let Some(keep) = t.get("function_pruning") {
                        let keep = strings(Some(keep));
                        let keep: Vec<&str> = keep.iter().map(String::as_str).collect();
                        doc = prune_catalog(&doc, None, Some(&keep));
                    }
                }
                b = b.catalog(doc);
            }
        }
        // `generate_prompt` (the older suite): the basic catalog.
        _ => b = b.catalog(Catalog::basic().definition(Version::V1_0)),
    }
    for e in strings(args.get("examples")) {
        let turn = load_json(&e);
        b = b.example(turn.as_array().cloned().unwrap_or_default());
    }
    if let Some(path) = args.get("examples_path").and_then(Value::as_str) {
        let dir = format!("{DIR}/{path}");
        if !std::path::Path::new(&dir).is_dir() {
            return Err(format!(
                "examples folder {path} is not in the copied suites"
            ));
        }
    }
    if let Some(a) = args.get("allowed_messages") {
        b = b.allowed_messages(strings(Some(a)));
    }
    if let Some(a) = args.get("allowed_components") {
        b = b.allowed_components(strings(Some(a)));
    }
    if let Some(r) = args.get("role_description").and_then(Value::as_str) {
        b = b.role(r);
    }
    if let Some(w) = args.get("workflow_description").and_then(Value::as_str) {
        b = b.workflow(w);
    }
    if let Some(u) = args.get("ui_description").and_then(Value::as_str) {
        b = b.ui_description(u);
    }
    Ok(b)
}

/// One case: `Ok(())` or why it failed.
fn run_case(case: &Value) -> Result<(), String> {
    let b = builder(case)?;
    let action = case["action"].as_str().unwrap_or_default();
    let made = match action {
        "generate_prompt_snippet" => b.snippet(),
        "generate_prompt" => b.build(),
        other => return Err(format!("no handler for action {other}")),
    };
    if let Some(e) = case.get("expect_error") {
        let want = e.get("category").and_then(Value::as_str);
        return match made {
            Err(err) if want.is_none_or(|w| w == err.category()) => Ok(()),
            Err(err) => Err(format!("error {err:?}, expected {want:?}")),
            Ok(_) => Err("no error".into()),
        };
    }
    let text = made.map_err(|e| format!("unexpected error: {e}"))?;
    for s in strings(case.get("expect_contains")) {
        if !text.contains(&s) {
            return Err(format!("does not contain {s:?}"));
        }
    }
    for s in strings(case.get("expect_absent"))
        .into_iter()
        .chain(strings(case.get("expect_not_contains")))
    {
        if text.contains(&s) {
            return Err(format!("contains {s:?}"));
        }
    }
    if case.get("expect_deterministic").and_then(Value::as_bool) == Some(true) {
        let again = builder(case)?.snippet().map_err(|e| e.to_string())?;
        if again != text {
            return Err("two calls differ".into());
        }
    }
    Ok(())
}

/// `file -> {case -> reason}` from `tests/prompt_deviations.md` (lines
/// ``- `file` `case`: reason``).
fn deviations() -> BTreeMap<String, BTreeMap<String, String>> {
    let text = std::fs::read_to_string(format!("{ROOT}/tests/prompt_deviations.md"))
        .expect("tests/prompt_deviations.md");
    let mut out: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for line in text.lines() {
        let Some(rest) = line.strip_prefix("- `") else {
            continue;
        };
        let Some((file, rest)) = rest.split_once("` `") else {
            continue;
        };
        let Some((case, reason)) = rest.split_once("`: ") else {
            continue;
        };
        out.entry(file.to_owned())
            .or_default()
            .insert(case.to_owned(), reason.to_owned());
    }
    out
}

fn run_suite(file: &str) {
    let known = deviations().remove(file).unwrap_or_default();
    let cases = load_yaml(file);
    assert!(!cases.is_empty(), "{file}: no cases");
    let (mut passed, mut failed) = (0, 0);
    let mut unexpected = Vec::new();
    let mut fixed = Vec::new();
    for case in &cases {
        let name = case["name"].as_str().unwrap_or_default();
        match run_case(case) {
            Ok(()) => {
                passed += 1;
                if known.contains_key(name) {
                    fixed.push(name.to_owned());
                }
            }
            Err(why) => {
                failed += 1;
                println!("FAIL {name}: {why}");
                if !known.contains_key(name) {
                    unexpected.push(format!("{name}: {why}"));
                }
            }
        }
    }
    println!("{file}: {passed} passed, {failed} failed");
    assert!(
        unexpected.is_empty(),
        "{file}: failing cases not in tests/prompt_deviations.md:\n{}",
        unexpected.join("\n")
    );
    assert!(
        fixed.is_empty(),
        "{file}: cases that now pass, remove them from tests/prompt_deviations.md:\n{}",
        fixed.join("\n")
    );
}

#[test]
fn express_prompt_generator_suite() {
    run_suite("agent/express/prompt_generator.yaml");
}

#[test]
fn direct_json_prompt_generator_suite() {
    run_suite("agent/direct_json/prompt_generator.yaml");
}

#[test]
fn express_prompt_generation_suite() {
    run_suite("inference_formats/express/prompt_generation.yaml");
}

/// The catalogs the differential test describes: the suites' test catalogs, the
/// published v1 basic catalog, and definitions our `Catalog` writes (the extended catalog,
/// a host component with a declared schema).
fn differential_catalogs() -> Vec<(String, Value)> {
    let mut out = Vec::new();
    for rel in [
        "test_data/catalogs/simplified_catalog_v1_0.json",
        "test_data/catalogs/custom_catalog_v1_0.json",
        "test_data/catalogs/forms_catalog_v1_0.json",
    ] {
        out.push((rel.to_owned(), load_json(rel)));
    }
    out.push(("basic".into(), Catalog::basic().definition(Version::V1_0)));
    out.push((
        "basic v0.9".into(),
        Catalog::basic()
            .definition_of(egui_a2ui::protocol::BASIC_CATALOG_V0_9, Version::V0_9)
            .unwrap(),
    ));
    #[cfg(feature = "extended")]
    out.push((
        "extended".into(),
        egui_a2ui::extended::catalog().definition(Version::V1_0),
    ));
    let mut host = Catalog::basic().with_catalog_id("https://example.com/game.json", Version::V1_0);
    host.register(
        "Gauge",
        |ui: &mut egui::Ui, _cx: &mut egui_a2ui::ComponentContext<'_, '_>| ui.label("gauge"),
    );
    host.set_component_schema(
        "Gauge",
        json!({
            "type": "object",
            "description": "A dial showing one value.",
            "properties": {
                "label": {"$ref": "common_types.json#/$defs/DynamicString", "description": "What it measures."},
                "value": {"$ref": "common_types.json#/$defs/DynamicNumber"},
                "zone": {"type": "string", "enum": ["green", "amber", "red"]}
            },
            "required": ["value"]
        }),
    );
    out.push(("host".into(), host.definition(Version::V1_0)));
    out
}

/// The SDK oracle's answer for each catalog file, in at most two minutes.
fn oracle(files: &[std::path::PathBuf]) -> Vec<Value> {
    run_oracle("prompt_sdk_oracle.py", files)["cases"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

/// The JSON a `tests/peers` oracle script prints for these arguments (two minutes at most).
fn run_oracle(script: &str, files: &[std::path::PathBuf]) -> Value {
    run_json_script(Venv::Sdk, script, files)
}

/// The catalog-derived lines of an Express catalog description: signatures and their
/// detail lines (the headings around them are worded by each implementation).
fn signature_lines(text: &str) -> Vec<String> {
    let from = text.find("## Positional Component Signatures").unwrap_or(0);
    let sigs = text[from..]
        .split("## Catalog Instructions")
        .next()
        .unwrap_or_default();
    sigs.lines()
        .filter(|l| l.starts_with("• ") || l.starts_with("  "))
        .map(str::to_owned)
        .collect()
}

/// The `### Catalog Schema:` documents of a direct-JSON schema section.
fn catalog_schemas(text: &str) -> Vec<Value> {
    text.split("### Catalog Schema:\n")
        .skip(1)
        .filter_map(|s| s.split("\n\n").next())
        .map(|s| serde_json::from_str(s).expect("catalog schema JSON"))
        .collect()
}

/// The JSON document after a heading of a direct-JSON schema section.
fn section_json(text: &str, heading: &str) -> Option<Value> {
    let rest = text.split(heading).nth(1)?;
    serde_json::from_str(rest.split("\n\n").next()?).ok()
}

#[test]
fn signatures_and_schemas_match_the_sdk() {
    let dir = std::env::temp_dir().join(format!("egui_a2ui_prompt_oracle_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let catalogs = differential_catalogs();
    let files: Vec<std::path::PathBuf> = catalogs
        .iter()
        .enumerate()
        .map(|(i, (_, doc))| {
            let p = dir.join(format!("catalog_{i}.json"));
            std::fs::write(&p, serde_json::to_string_pretty(doc).unwrap()).unwrap();
            p
        })
        .collect();
    let answers = oracle(&files);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(answers.len(), catalogs.len());
    for ((name, doc), sdk) in catalogs.iter().zip(&answers) {
        assert!(
            sdk.get("error").is_none(),
            "{name}: the SDK refused it: {sdk}"
        );
        let ours = PromptBuilder::new(PromptFormat::Express)
            .catalog(doc.clone())
            .snippet()
            .unwrap();
        let theirs = sdk["express"].as_str().unwrap();
        let (a, b) = (signature_lines(&ours), signature_lines(theirs));
        assert!(!b.is_empty(), "{name}: no SDK signatures");
        assert_eq!(a, b, "{name}: Express signatures differ");
        // The catalog's instructions, their JSON examples given as Express: the SDK's
        // text exactly.
        assert_eq!(
            ours.split("## Catalog Instructions").nth(1),
            theirs.split("## Catalog Instructions").nth(1),
            "{name}: catalog instructions differ"
        );
        let ours = PromptBuilder::new(PromptFormat::DirectJson)
            .catalog(doc.clone())
            .snippet()
            .unwrap();
        let theirs = sdk["direct_json"].as_str().unwrap();
        let (a, b) = (catalog_schemas(&ours), catalog_schemas(theirs));
        assert_eq!(a.len(), 1, "{name}");
        assert_eq!(a, b, "{name}: direct-JSON catalog schemas differ");
        // The protocol schemas: the same messages, and bindings spelled the v1.0 way
        // (the texts of the published copies differ in places: tests/prompt_deviations.md).
        let heading = "### Agent to Renderer Schema:\n";
        let (a, b) = (
            section_json(&ours, heading).unwrap(),
            section_json(theirs, heading).unwrap(),
        );
        assert_eq!(a["oneOf"], b["oneOf"], "{name}: messages");
        // The self-contained schema (`catalog::validation_schema`, the SDK's
        // `validation_schema`): the same members, each component flattened into the same
        // properties with the same `required` list.
        let version = if doc.get("protocolVersion").is_some() {
            Version::V1_0
        } else {
            Version::V0_9
        };
        let ours_vs = egui_a2ui::catalog::validation_schema(doc, version).unwrap();
        let theirs_vs = &sdk["validation_schema"];
        for key in ["components", "functions"] {
            let names = |v: &Value| -> Vec<String> {
                v[key]
                    .as_object()
                    .map(|m| m.keys().cloned().collect())
                    .unwrap_or_default()
            };
            assert_eq!(names(&ours_vs), names(theirs_vs), "{name}: {key}");
        }
        for (comp, theirs_c) in theirs_vs["components"].as_object().unwrap() {
            let ours_c = &ours_vs["components"][comp];
            // `catalogId`: the published v1.0 `ComponentCommon` has it (a component may
            // name its catalog), the SDK's flattening leaves it out
            // (tests/prompt_deviations.md).
            let keys = |v: &Value| -> Vec<String> {
                let mut k: Vec<String> = v["properties"]
                    .as_object()
                    .map(|m| m.keys().filter(|k| *k != "catalogId").cloned().collect())
                    .unwrap_or_default();
                k.sort();
                k
            };
            assert_eq!(keys(ours_c), keys(theirs_c), "{name}: {comp} properties");
            assert_eq!(
                ours_c["required"], theirs_c["required"],
                "{name}: {comp} required"
            );
        }
        assert_eq!(egui_a2ui::catalog::unresolved_ref(&ours_vs), None, "{name}");
        let heading = "### Common Types Schema:\n";
        let (a, b) = (
            section_json(&ours, heading).unwrap(),
            section_json(theirs, heading).unwrap(),
        );
        assert_eq!(
            a["$defs"]["DataBinding"], b["$defs"]["DataBinding"],
            "{name}: DataBinding"
        );
        assert_eq!(
            a["$defs"]["IndexSystemFunction"]["required"],
            b["$defs"]["IndexSystemFunction"]["required"],
            "{name}: @call"
        );
    }
}

/// A v1.0 basic-catalog turn with most constructs: a surface, a list of children, a text
/// with quotes and a newline, a bound field with a check, a formatted text, a button with
/// an event, a template list, a data write.
fn booking_turn() -> Vec<Value> {
    vec![
        json!({"version": "v1.0", "createSurface": {"surfaceId": "booking",
        "catalogId": egui_a2ui::protocol::BASIC_CATALOG_V1_0}}),
        json!({"version": "v1.0", "updateComponents": {"surfaceId": "booking", "components": [
            {"id": "root", "component": "Column", "children": ["title", "name", "book"]},
            {"id": "title", "component": "Text", "text": "Book a \"table\"\nfor two", "variant": "caption"},
            {"id": "name", "component": "TextField", "label": "Name", "value": {"@path": "/name"},
             "checks": [{"condition": {"@call": "required", "args": {"value": {"@path": "/name"}}},
                         "message": "A name, please"}]},
            {"id": "book_label", "component": "Text", "text": {"@call": "formatString",
             "args": {"value": "Book for ${/name}"}}},
            {"id": "book", "component": "Button", "child": "book_label", "variant": "primary",
             "action": {"event": {"name": "book", "context": {"name": {"@path": "/name"}}}}},
            {"id": "rows", "component": "List", "children": {"componentId": "row", "path": "/items"}},
            {"id": "row", "component": "Text", "text": {"@path": "label"}}
        ]}}),
        json!({"version": "v1.0", "updateDataModel": {"surfaceId": "booking", "path": "/name", "value": ""}}),
    ]
}

/// The examples a prompt shows are the SDK's, exactly, in both formats: the suites'
/// greeting example with the simplified catalog, and `booking_turn` with the basic one.
#[test]
fn examples_match_the_sdk() {
    let dir =
        std::env::temp_dir().join(format!("egui_a2ui_prompt_examples_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let write = |name: &str, v: &Value| {
        let p = dir.join(name);
        std::fs::write(&p, serde_json::to_string_pretty(v).unwrap()).unwrap();
        p
    };
    let greeting = load_json("test_data/examples/greeting_surface.json");
    let basic = Catalog::basic().definition(Version::V1_0);
    let cases = [
        (
            load_json("test_data/catalogs/simplified_catalog_v1_0.json"),
            vec![greeting.as_array().cloned().unwrap()],
        ),
        (basic, vec![booking_turn()]),
    ];
    for (i, (doc, turns)) in cases.iter().enumerate() {
        let mut files = vec![write(&format!("catalog_{i}.json"), doc)];
        for (j, t) in turns.iter().enumerate() {
            files.push(write(
                &format!("example_{i}_{j}.json"),
                &Value::Array(t.clone()),
            ));
        }
        let sdk = run_oracle("prompt_sdk_examples.py", &files);
        assert!(sdk.get("error").is_none(), "{sdk}");
        for (format, key) in [
            (PromptFormat::Express, "express"),
            (PromptFormat::DirectJson, "direct_json"),
        ] {
            let mut b = PromptBuilder::new(format).catalog(doc.clone());
            for t in turns {
                b = b.example(t.clone());
            }
            let ours = b.snippet().unwrap();
            let ours = ours.split("### Examples:\n").nth(1).unwrap_or_default();
            assert_eq!(ours, sdk[key].as_str().unwrap(), "catalog {i}, {key}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The Express a prompt shows for an example compiles back into the example's components:
/// the model imitates something the host reads.
#[test]
fn express_examples_compile_back_to_the_example() {
    let doc = Catalog::basic().definition(Version::V1_0);
    let cat = ExpressCatalog::from_definitions(&[&doc], Some(ExpressVersion::V1_0));
    let turn = booking_turn();
    let dsl = decompile_express(&turn, &cat);
    let out = compile(&dsl, &cat, "default_surface");
    assert!(out.errors.is_empty(), "{dsl}\n{:?}", out.errors);
    let want: Vec<&Value> = turn
        .iter()
        .filter_map(|m| m.pointer("/updateComponents/components"))
        .flat_map(|c| c.as_array().into_iter().flatten())
        .collect();
    let got: Vec<Value> = out
        .messages
        .iter()
        .filter_map(|m| {
            m.pointer("/updateComponents/components")
                .or_else(|| m.pointer("/createSurface/components"))
        })
        .flat_map(|c| c.as_array().cloned().unwrap_or_default())
        .collect();
    for w in want {
        let id = &w["id"];
        let g = got
            .iter()
            .find(|g| &g["id"] == id)
            .unwrap_or_else(|| panic!("{id} not compiled from\n{dsl}"));
        for (k, v) in w.as_object().unwrap() {
            assert_eq!(&g[k], v, "{id}.{k} from\n{dsl}");
        }
    }
    assert!(
        out.messages.iter().any(
            |m| m.pointer("/updateDataModel/path") == Some(&json!("/name"))
                || m.pointer("/updateDataModel/value/name") == Some(&json!(""))
                || m.pointer("/createSurface/dataModel/name") == Some(&json!(""))
        ),
        "no data line for /name in {:?} from\n{dsl}",
        out.messages
    );
}
