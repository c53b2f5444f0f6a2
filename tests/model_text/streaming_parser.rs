//! Runs the official language-agnostic agent-SDK suites `agent/streaming_parser.yaml` and
//! `agent/parser.yaml` (copied under `tests/data/conformance-suites/`) against
//! `egui_a2ui::stream::model_text`. Every case runs; the cases we answer differently are
//! listed with the reason in `tests/streaming_parser_deviations.md`, and this test asserts
//! that the failing set is exactly that list (a fixed case must leave the list).
//!
//! JSON Schema validation of messages and components against the suite's catalog schemas
//! is plugged in here (through `SchemaHook`) with the `jsonschema` dev-dependency, as the
//! Python harness plugs in `jsonschema`'s Draft 2020-12 validator.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use egui_a2ui::Limits;
use egui_a2ui::stream::model_text::{
    self, Family, ModelTextError, ModelTextOptions, ModelTextParser, ResponsePart, SchemaHook,
    StructuralCheck, catalog_components,
};
use serde_json::{Map, Value, json};

fn suite_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/conformance-suites")
}

fn load_yaml(name: &str) -> Vec<Value> {
    let text = std::fs::read_to_string(suite_dir().join(name)).expect("suite file");
    let v: Value = serde_yaml_ng::from_str(&text).expect("suite YAML parses");
    v.as_array().expect("suite is a list of cases").clone()
}

fn load_ref(v: Option<&Value>) -> Option<Value> {
    match v {
        Some(Value::String(p)) => {
            let text = std::fs::read_to_string(suite_dir().join(p)).expect("test_data file");
            Some(serde_json::from_str(&text).expect("test_data JSON"))
        }
        Some(other) => Some(other.clone()),
        None => None,
    }
}

/// The reference's `_inject_additional_properties`: nodes named like a source group whose
/// `additionalProperties` is `true` get that group's properties and become closed.
fn inject(schema: &Value, sources: &Map<String, Value>) -> Value {
    match schema {
        Value::Object(o) => {
            let mut out = Map::new();
            for (k, v) in o {
                if v.get("additionalProperties") == Some(&Value::Bool(true))
                    && let Some(src) = sources.get(k)
                {
                    let mut node = v.as_object().cloned().unwrap_or_default();
                    node.insert("additionalProperties".into(), Value::Bool(false));
                    let mut props = node
                        .get("properties")
                        .and_then(Value::as_object)
                        .cloned()
                        .unwrap_or_default();
                    for (pk, pv) in src.as_object().into_iter().flatten() {
                        props.insert(pk.clone(), pv.clone());
                    }
                    node.insert("properties".into(), Value::Object(props));
                    out.insert(k.clone(), Value::Object(node));
                } else {
                    out.insert(k.clone(), inject(v, sources));
                }
            }
            Value::Object(out)
        }
        Value::Array(a) => Value::Array(a.iter().map(|x| inject(x, sources)).collect()),
        other => other.clone(),
    }
}

fn sibling(base: &str, file: &str) -> String {
    match base.rfind('/') {
        Some(i) => format!("{}/{file}", &base[..i]),
        None => file.to_owned(),
    }
}

struct JsonSchemaHook {
    family: Family,
    v08: Option<jsonschema::Validator>,
    registry: Option<jsonschema::Registry<'static>>,
    s2c_id: String,
    catalog_uri: String,
    catalog: Value,
}

impl JsonSchemaHook {
    fn new(family: Family, s2c: &Value, catalog: &Value, common: &Value) -> Self {
        let s2c_id = s2c
            .get("$id")
            .and_then(Value::as_str)
            .unwrap_or("https://a2ui.org/")
            .to_owned();
        let common_uri = sibling(&s2c_id, "common_types.json");
        let catalog_uri = sibling(&s2c_id, "catalog.json");
        let common = if common.is_object() {
            common.clone()
        } else {
            json!({})
        };
        match family {
            Family::V08 => {
                let mut sources = Map::new();
                if let Some(c) = catalog.get("components") {
                    sources.insert("component".into(), c.clone());
                }
                if let Some(s) = catalog.get("styles") {
                    sources.insert("styles".into(), s.clone());
                }
                let mut bundled = inject(s2c, &sources);
                if let Some(o) = bundled.as_object_mut() {
                    o.remove("$id");
                }
                let wrapped = json!({
                    "$schema": "https://json-schema.org/draft/2020-12/schema",
                    "type": "array",
                    "items": bundled,
                });
                let reg = jsonschema::Registry::new()
                    .add(common_uri.as_str(), common)
                    .expect("registry")
                    .prepare()
                    .expect("registry");
                let v = jsonschema::options()
                    .with_registry(&reg)
                    .build(&wrapped)
                    .expect("v0.8 validator builds");
                Self {
                    family,
                    v08: Some(v),
                    registry: None,
                    s2c_id,
                    catalog_uri,
                    catalog: catalog.clone(),
                }
            }
            Family::V09 => {
                let reg = jsonschema::Registry::new()
                    .add(common_uri.as_str(), common)
                    .expect("registry")
                    .add(catalog_uri.as_str(), catalog.clone())
                    .expect("registry")
                    .add(s2c_id.as_str(), s2c.clone())
                    .expect("registry")
                    .prepare()
                    .expect("registry");
                Self {
                    family,
                    v08: None,
                    registry: Some(reg),
                    s2c_id,
                    catalog_uri,
                    catalog: catalog.clone(),
                }
            }
        }
    }

    fn errors_for(&self, schema: Value, instance: &Value) -> Vec<String> {
        let Some(reg) = &self.registry else {
            return vec![];
        };
        match jsonschema::options().with_registry(reg).build(&schema) {
            Ok(v) => v.iter_errors(instance).map(|e| e.to_string()).collect(),
            Err(e) => vec![format!("schema error: {e}")],
        }
    }
}

impl SchemaHook for JsonSchemaHook {
    fn v08_errors(&self, messages: &Value) -> Vec<String> {
        let _ = self.family;
        match &self.v08 {
            Some(v) => v.iter_errors(messages).map(|e| e.to_string()).collect(),
            None => vec![],
        }
    }

    fn v09_def_errors(&self, def_name: &str, message: &Value) -> Vec<String> {
        let schema = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$ref": format!("{}#/$defs/{def_name}", self.s2c_id),
        });
        self.errors_for(schema, message)
    }

    fn v09_component_errors(&self, comp_type: &str, component: &Value) -> Option<Vec<String>> {
        self.catalog.get("components")?.get(comp_type)?;
        let schema = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$ref": format!("{}#/components/{comp_type}", self.catalog_uri),
        });
        Some(self.errors_for(schema, component))
    }
}

fn parser_for(case: &Value) -> ModelTextParser {
    let cat = &case["catalog"];
    let family = match cat["version"].as_str() {
        Some("0.8") => Family::V08,
        _ => Family::V09,
    };
    let s2c = load_ref(cat.get("s2c_schema")).unwrap_or(json!({}));
    let catalog = load_ref(cat.get("catalog_schema")).unwrap_or(json!({}));
    let common = load_ref(cat.get("common_types_schema")).unwrap_or(json!({}));
    let components = catalog_components(family, Some(&s2c), Some(&catalog));
    let extra: Vec<String> = cat
        .get("custom_cuttable_keys")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|v| v.as_str().map(str::to_owned))
        .collect();
    let validate = !case
        .get("disable_validation")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let check = validate.then(|| {
        let hook = JsonSchemaHook::new(family, &s2c, &catalog, &common);
        Box::new(StructuralCheck::new(
            family,
            "v0.9",
            &components,
            Some(Box::new(hook)),
        )) as Box<dyn model_text::MessageCheck>
    });
    if std::env::var("SP_DEBUG").is_ok() {
        eprintln!("CASE {}", case["name"]);
    }
    ModelTextParser::new(
        ModelTextOptions {
            family: Some(family),
            components: std::borrow::Cow::Owned(components),
            extra_cuttable_keys: extra,
            check,
            sniff_data_model: true,
            v08_components: None,
            // The suites expect the reference's partial messages (every reachable
            // component, re-read at every chunk).
            changed_only: false,
            ..ModelTextOptions::default()
        },
        Limits::default(),
    )
}

fn expected_error(step: &Value, case: &Value) -> Option<String> {
    let e = step
        .get("expect_error")
        .or_else(|| case.get("expect_error"))?;
    match e {
        Value::String(s) => Some(s.clone()),
        Value::Object(o) => o.get("message").and_then(Value::as_str).map(str::to_owned),
        _ => None,
    }
}

fn parts_json(parts: &[ResponsePart]) -> Value {
    Value::Array(
        parts
            .iter()
            .map(|p| json!({"text": p.text, "a2ui": p.a2ui}))
            .collect(),
    )
}

fn compare_parts(actual: &[ResponsePart], expected: &Value, strip: bool) -> Result<(), String> {
    let exp = expected.as_array().cloned().unwrap_or_default();
    let norm = |s: &str| {
        if strip {
            s.trim().to_owned()
        } else {
            s.to_owned()
        }
    };
    let ok = actual.len() == exp.len()
        && actual.iter().zip(&exp).all(|(a, e)| {
            norm(&a.text) == norm(e.get("text").and_then(Value::as_str).unwrap_or(""))
                && a.a2ui
                    .as_ref()
                    .map(|v| Value::Array(v.iter().map(|m| m.value().clone()).collect()))
                    == e.get("a2ui").cloned()
        });
    if ok {
        Ok(())
    } else {
        Err(format!(
            "expected {}\n     got {}",
            serde_json::to_string(expected).unwrap_or_default(),
            serde_json::to_string(&parts_json(actual)).unwrap_or_default()
        ))
    }
}

fn run_streaming_case(case: &Value) -> Result<(), String> {
    let mut parser = parser_for(case);
    let steps: Vec<Value> = match case.get("steps") {
        Some(Value::Array(s)) => s.clone(),
        _ => vec![case.clone()],
    };
    for (i, step) in steps.iter().enumerate() {
        let input = step["input"].as_str().unwrap_or_default();
        let r = parser.feed_str(input);
        if let Some(pattern) = expected_error(step, case) {
            let re = regex::Regex::new(&pattern).map_err(|e| e.to_string())?;
            match r {
                Err(e) if re.is_match(&e.to_string()) => {}
                Err(e) => {
                    return Err(format!("step {i}: error {e:?} does not match {pattern:?}"));
                }
                Ok(p) => {
                    return Err(format!(
                        "step {i}: expected error {pattern:?}, got {}",
                        parts_json(&p)
                    ));
                }
            }
        } else {
            let parts = r.map_err(|e| format!("step {i}: unexpected error: {e}"))?;
            compare_parts(&parts, &step["expect"], false).map_err(|e| format!("step {i}: {e}"))?;
        }
    }
    Ok(())
}

fn run_parser_case(case: &Value) -> Result<(), String> {
    let input = case["input"].as_str().unwrap_or_default();
    let action = case
        .get("action")
        .and_then(Value::as_str)
        .unwrap_or("parse_full");
    let expect_err = expected_error(case, case);
    let check_err = |r: Result<(), ModelTextError>| -> Result<(), String> {
        let pattern = expect_err.clone().unwrap_or_default();
        match r {
            Err(e) if regex::Regex::new(&pattern).is_ok_and(|re| re.is_match(&e.to_string())) => {
                Ok(())
            }
            other => Err(format!("expected error {pattern:?}, got {other:?}")),
        }
    };
    match action {
        "parse_full" => match (model_text::parse_response(input), &expect_err) {
            (r, Some(_)) => check_err(r.map(|_| ())),
            (Ok(parts), None) => compare_parts(&parts, &case["expect"], true),
            (Err(e), None) => Err(format!("unexpected error {e}")),
        },
        "fix_payload" => match (model_text::fix_payload(input), &expect_err) {
            (r, Some(_)) => check_err(r.map(|_| ())),
            (Ok(v), None) if Value::Array(v.clone()) == case["expect"] => Ok(()),
            (other, None) => Err(format!("expected {}, got {other:?}", case["expect"])),
        },
        "has_parts" => {
            let got = model_text::has_a2ui_parts(input);
            if Value::Bool(got) == case["expect"] {
                Ok(())
            } else {
                Err(format!("expected {}, got {got}", case["expect"]))
            }
        }
        other => Err(format!("unknown action {other}")),
    }
}

/// Case names listed in the deviations file (lines `- \`name\`: reason`).
fn listed_deviations() -> Vec<String> {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/streaming_parser_deviations.md"),
    )
    .expect("tests/streaming_parser_deviations.md");
    text.lines()
        .skip_while(|l| !l.starts_with("## Failing cases"))
        .skip(1)
        .take_while(|l| !l.starts_with("## "))
        .filter_map(|l| l.strip_prefix("- `"))
        .filter_map(|l| l.split('`').next())
        .map(str::to_owned)
        .collect()
}

#[test]
fn official_suites_pass_except_listed_deviations() {
    let mut failures: BTreeMap<String, String> = BTreeMap::new();
    let mut counts = (0usize, 0usize);
    for case in load_yaml("agent/streaming_parser.yaml") {
        let name = case["name"].as_str().unwrap_or("?").to_owned();
        counts.0 += 1;
        let r = std::panic::catch_unwind(|| run_streaming_case(&case))
            .unwrap_or_else(|_| Err("panicked".to_owned()));
        if let Err(e) = r {
            failures.insert(name, e);
        }
    }
    for case in load_yaml("agent/parser.yaml") {
        let name = case["name"].as_str().unwrap_or("?").to_owned();
        counts.1 += 1;
        if let Err(e) = run_parser_case(&case) {
            failures.insert(name, e);
        }
    }
    assert_eq!(
        counts,
        (76, 19),
        "suite sizes changed: re-check the deviations list"
    );
    for (n, e) in &failures {
        eprintln!("DEVIATION {n}: {e}");
    }
    let mut listed = listed_deviations();
    listed.sort();
    let failing: Vec<String> = failures.keys().cloned().collect();
    eprintln!(
        "streaming_parser.yaml: {} cases, parser.yaml: {} cases, {} deviating",
        counts.0,
        counts.1,
        failing.len()
    );
    assert_eq!(
        failing, listed,
        "the failing cases must be exactly those listed in tests/streaming_parser_deviations.md"
    );
}
