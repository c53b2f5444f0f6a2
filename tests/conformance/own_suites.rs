//! Our own cases for the renderer-side actions of `conformance_schema.json` that no
//! published suite uses yet (`tests/data/own-suites/`, see its README): every case passes
//! through `egui_a2ui::suite`. And every action the schema defines has a handler: a case
//! of an upstream suite we have not seen runs (or is skipped with its reason, for the
//! agent SDK's actions) instead of failing with "no handler".

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use egui_a2ui::suite::{Outcome, Runner, Summary, repo_root_of};
use serde_json::{Value, json};

fn core_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/own-suites/conformance/core")
}

fn yaml(text: &str) -> Result<Value, String> {
    serde_yaml_ng::from_str(text).map_err(|e| e.to_string())
}

fn run(file: &str, action: &str, at_least: usize) {
    let path = core_dir().join(file);
    let text = std::fs::read_to_string(&path).expect("suite file");
    let cases: Value = serde_yaml_ng::from_str(&text).expect("suite YAML parses");
    let root = repo_root_of(&path).expect("suite lies in a conformance/ folder");
    let results = Runner::new(root).with_yaml(yaml).run_suite(&cases);
    for r in &results {
        println!("{r}");
        assert_eq!(r.action, action, "{}", r.name);
    }
    println!("{file}: {}", Summary::of(&results));
    assert!(results.len() >= at_least, "{file}: {} cases", results.len());
    let bad: Vec<String> = results
        .iter()
        .filter(|r| r.outcome != Outcome::Pass)
        .map(ToString::to_string)
        .collect();
    assert!(bad.is_empty(), "{file}:\n{}", bad.join("\n"));
}

#[test]
fn dispatch_action_cases_pass() {
    run("dispatch_action.yaml", "dispatch_action", 10);
}

#[test]
fn resolve_nodes_cases_pass() {
    run("node_resolution.yaml", "resolve_nodes", 5);
}

/// A wrong expectation fails: the handlers compare, they do not just run.
#[test]
fn a_wrong_expectation_fails() {
    let root = repo_root_of(&core_dir().join("x.yaml")).expect("root");
    let runner = Runner::new(root).with_yaml(yaml);
    let wrong_context = json!({"name": "w", "action": "dispatch_action", "protocolVersion": "v1.0",
        "dataModel": {"a": 1}, "actionPayload": {"event": {"name": "e", "context": {"a": {"@path": "/a"}}}},
        "expectDispatched": {"name": "e", "context": {"a": 2}}});
    assert!(matches!(
        runner.run_case(&wrong_context).outcome,
        Outcome::Fail(_)
    ));
    let wrong_emissions = json!({"name": "w", "action": "resolve_nodes",
        "fixture": "test_data/nodes/todo.json",
        "expect": {"nodes": {"root": {}}}, "steps": []});
    assert!(matches!(
        runner.run_case(&wrong_emissions).outcome,
        Outcome::Fail(_)
    ));
    // Without a YAML parser a YAML fixture is skipped, saying why.
    let yaml_fixture = json!({"name": "y", "action": "resolve_nodes",
        "fixture": "test_data/nodes/broken.yaml", "expect": {"nodes": {}}, "steps": []});
    let plain = Runner::new(repo_root_of(&core_dir().join("x.yaml")).expect("root"));
    assert!(
        matches!(plain.run_case(&yaml_fixture).outcome, Outcome::Skip(r) if r.contains("YAML"))
    );
}

/// Every action `conformance_schema.json` defines (the `TestCase` enum and the typed
/// tests' `action` constants) reaches a handler: a bare case of each passes, fails on its
/// own terms or is skipped with a reason, never "no handler".
#[test]
fn every_action_of_the_conformance_schema_has_a_handler() {
    let schema_path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/official-suites/conformance/conformance_schema.json");
    let schema: Value =
        serde_json::from_str(&std::fs::read_to_string(schema_path).expect("schema")).expect("JSON");
    let mut actions: BTreeSet<String> = schema["$defs"]["TestCase"]["properties"]["action"]["enum"]
        .as_array()
        .expect("the action enum")
        .iter()
        .filter_map(Value::as_str)
        .map(str::to_owned)
        .collect();
    for def in schema["$defs"].as_object().expect("defs").values() {
        if let Some(a) = def
            .pointer("/properties/action/const")
            .and_then(Value::as_str)
        {
            actions.insert(a.to_owned());
        }
    }
    assert!(actions.len() > 50, "{actions:?}");
    for required in [
        "dispatch_action",
        "resolve_nodes",
        "evaluate_function",
        "data_model",
    ] {
        assert!(actions.contains(required), "{required}");
    }
    let runner =
        Runner::new(repo_root_of(&core_dir().join("x.yaml")).expect("root")).with_yaml(yaml);
    let mut skipped = 0;
    for a in &actions {
        let r = runner.run_case(&json!({"name": format!("bare_{a}"), "action": a}));
        if let Outcome::Fail(reason) = &r.outcome {
            assert!(!reason.contains("no handler"), "{a}: {reason}");
        }
        skipped += usize::from(matches!(r.outcome, Outcome::Skip(_)));
    }
    println!(
        "{} actions, {skipped} skipped (agent SDK and extension actions)",
        actions.len()
    );
    // An action the schema does not define still fails, so a typo is not silently
    // skipped.
    let r = runner.run_case(&json!({"name": "typo", "action": "dispach_action"}));
    assert!(matches!(r.outcome, Outcome::Fail(reason) if reason.contains("no handler")));
}
