//! The official renderer-side A2UI conformance suites (`conformance/core/*.yaml`, copied
//! with their fixtures under `tests/data/official-suites/`, see its `NOTICE.md`), run
//! through `egui_a2ui::suite` against the crate's core.
//!
//! One test per suite. Each prints every case by name (`PASS` / `FAIL` / `SKIP`, visible
//! with `--nocapture`) and fails when a case fails that `tests/official_suites_deviations.md`
//! does not list for that suite with a reason, or when a listed case passes (a fixed case
//! must leave the list). `every_suite_has_a_test` keeps the list of tests complete.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use egui_a2ui::suite::{Outcome, Runner, Summary, repo_root_of};

fn core_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/official-suites/conformance/core")
}

/// The reason a deviation starts with when the case fails only in a build without the
/// `validation` feature (it passes with it).
const WITHOUT_VALIDATION: &str = "fails without the `validation` feature";

/// `suite -> {case -> reason}` from the deviations file: lines
/// `` - `suite.yaml` `case_name`: reason `` (a reason is required). A reason that starts
/// with [`WITHOUT_VALIDATION`] counts only in a build without that feature, so the file is
/// true in both builds.
fn deviations() -> BTreeMap<String, BTreeMap<String, String>> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/official_suites_deviations.md");
    let text = std::fs::read_to_string(path).expect("tests/official_suites_deviations.md");
    let mut out: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for line in text.lines() {
        let Some(rest) = line.strip_prefix("- `") else {
            continue;
        };
        let Some((suite, rest)) = rest.split_once("` `") else {
            continue;
        };
        let Some((case, reason)) = rest.split_once("`:") else {
            continue;
        };
        let reason = reason.trim();
        assert!(!reason.is_empty(), "deviation {suite} {case} has no reason");
        if cfg!(feature = "validation") && reason.starts_with(WITHOUT_VALIDATION) {
            continue;
        }
        out.entry(suite.to_owned())
            .or_default()
            .insert(case.to_owned(), reason.to_owned());
    }
    out
}

fn run(file: &str) {
    run_in(&core_dir(), file, file);
}

/// The suites of `conformance/suites/` (listed in the deviations file as `suites/NAME`).
const OTHER_SUITES: &[&str] = &["suites/data_model.yaml"];

/// Run suite `file` of `dir`, its deviations listed under `key`.
fn run_in(dir: &Path, file: &str, key: &str) {
    let path = dir.join(file);
    let text = std::fs::read_to_string(&path).expect("suite file");
    let cases: serde_json::Value = serde_yaml_ng::from_str(&text).expect("suite YAML parses");
    let root = repo_root_of(&path).expect("suite lies in a conformance/ folder");
    let results = Runner::new(root)
        .with_accessibility_check(crate::suite_accessibility::check)
        .run_suite(&cases);
    assert!(!results.is_empty(), "{file} has no cases");
    let listed = deviations().remove(key).unwrap_or_default();
    let mut unexpected = Vec::new();
    let mut fixed = Vec::new();
    let mut names = BTreeSet::new();
    for r in &results {
        println!("{r}");
        assert!(
            names.insert(r.name.clone()),
            "{file}: case {} twice",
            r.name
        );
        match (&r.outcome, listed.contains_key(&r.name)) {
            (Outcome::Fail(reason), false) => unexpected.push(format!("{}: {reason}", r.name)),
            (Outcome::Pass, true) => fixed.push(r.name.clone()),
            _ => {}
        }
    }
    for name in listed.keys() {
        assert!(
            names.contains(name),
            "{file}: deviation for unknown case {name}"
        );
    }
    println!("{file}: {}", Summary::of(&results));
    assert!(
        unexpected.is_empty(),
        "{file}: failing cases not in tests/official_suites_deviations.md:\n{}",
        unexpected.join("\n")
    );
    assert!(
        fixed.is_empty(),
        "{file}: cases that now pass, remove them from tests/official_suites_deviations.md:\n{}",
        fixed.join("\n")
    );
}

macro_rules! suites {
    ($($test:ident => $file:literal,)*) => {
        $(
            #[test]
            fn $test() {
                run($file);
            }
        )*
        const FILES: &[&str] = &[$($file),*];
    };
}

suites! {
    accessibility => "accessibility.yaml",
    catalog => "catalog.yaml",
    common_types => "common_types.yaml",
    composition_constraints => "composition_constraints.yaml",
    data_deletion => "data_deletion.yaml",
    data_model => "data_model.yaml",
    data_model_pointers => "data_model_pointers.yaml",
    expressions => "expressions.yaml",
    functions => "functions.yaml",
    index_function => "index_function.yaml",
    message_processor => "message_processor.yaml",
    message_processor_v0_8 => "message_processor_v0_8.yaml",
    message_processor_v0_9 => "message_processor_v0_9.yaml",
    message_processor_v1_0 => "message_processor_v1_0.yaml",
    multi_catalog => "multi_catalog.yaml",
    reserved_keys => "reserved_keys.yaml",
    rpc_functions => "rpc_functions.yaml",
    validation_result => "validation_result.yaml",
    validator_v0_9 => "validator_v0_9.yaml",
    validator_v1_0 => "validator_v1_0.yaml",
}

/// The older data-model suite (`conformance/suites/data_model.yaml`: no `action` key, its
/// steps name theirs; subscriptions run through the data-model observers).
#[test]
fn suites_data_model() {
    let dir = core_dir().join("../suites");
    run_in(&dir, "data_model.yaml", OTHER_SUITES[0]);
}

#[test]
fn every_suite_has_a_test() {
    let mut on_disk: Vec<String> = std::fs::read_dir(core_dir())
        .expect("suite folder")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".yaml"))
        .collect();
    on_disk.sort();
    let mut tested: Vec<String> = FILES.iter().map(|s| (*s).to_owned()).collect();
    tested.sort();
    assert_eq!(on_disk, tested);
    for suite in deviations().keys() {
        assert!(
            FILES.contains(&suite.as_str()) || OTHER_SUITES.contains(&suite.as_str()),
            "deviations name unknown suite {suite}"
        );
    }
}

/// The runner resolves fixtures from the `conformance/` folder of the suite, wherever the
/// checkout lies.
#[test]
fn fixture_root_is_the_parent_of_conformance() {
    let suite = core_dir().join("functions.yaml");
    let root = repo_root_of(&suite).expect("root");
    assert!(root.join("catalogs/basic/v1/catalog.json").is_file());
    assert!(
        root.join("conformance/test_data/catalogs/custom_catalog_v1_0.json")
            .is_file()
    );
    assert_eq!(repo_root_of(Path::new("/tmp/not-a-suite.yaml")), None);
}

/// The `validation` feature accepts what the suites accept: every message of a strict case
/// (`validate`, or `strictMode: true`) that expects no error, uses only the basic catalogs
/// and is not a listed deviation passes the JSON-schema validator as it is sent (v1.0
/// against the v1 basic catalog, whose components and functions spell `@path`/`@call` as
/// the suites do). Permissive cases are left out: they send components the basic catalog
/// does not define (a `Button` with a `title`) on purpose. The strict cases with catalogs
/// of their own run through the validator in the suite tests above.
#[cfg(feature = "validation")]
#[test]
fn the_schema_validator_accepts_every_valid_suite_message() {
    use serde_json::Value;
    let validator = egui_a2ui::SchemaValidator::basic().expect("validator");
    let basic_only = |case: &Value| {
        case.get("catalogs").is_none()
            && case
                .get("catalog")
                .is_none_or(|c| c.get("components").is_none() && c.get("catalogSchema").is_none())
            && case
                .get("catalogPaths")
                .and_then(Value::as_array)
                .is_none_or(|p| {
                    p.iter()
                        .filter_map(Value::as_str)
                        .all(|p| p.contains("basic/") || p.contains("standard_catalog"))
                })
    };
    let messages_of = |v: Option<&Value>| -> Vec<Value> {
        match v {
            Some(Value::Array(a)) => a.clone(),
            Some(Value::Object(o)) if o.contains_key("messages") => {
                o["messages"].as_array().cloned().unwrap_or_default()
            }
            Some(m @ Value::Object(_)) => vec![m.clone()],
            _ => Vec::new(),
        }
    };
    let mut checked = 0;
    let mut at_forms = 0;
    let mut rejected = Vec::new();
    let listed = deviations();
    for file in FILES {
        let text = std::fs::read_to_string(core_dir().join(file)).expect("suite");
        let cases: Value = serde_yaml_ng::from_str(&text).expect("yaml");
        for case in cases.as_array().into_iter().flatten() {
            let action = case["action"].as_str().unwrap_or_default();
            let strict = action == "validate" || case["strictMode"] == Value::Bool(true);
            let name = case["name"].as_str().unwrap_or_default();
            if !matches!(action, "process_messages" | "validate")
                || !strict
                || listed.get(*file).is_some_and(|d| d.contains_key(name))
                || !basic_only(case)
                || case.get("expectError").is_some()
                || case.get("expect_error").is_some()
            {
                continue;
            }
            let steps: Vec<Value> = match case.get("steps").and_then(Value::as_array) {
                Some(s) => s.clone(),
                None => vec![case.clone()],
            };
            if steps
                .iter()
                .any(|s| s.get("expectError").is_some() || s.get("expect_error").is_some())
            {
                continue;
            }
            for s in &steps {
                let mut ms = messages_of(s.get("messages"));
                ms.extend(messages_of(s.get("payload")));
                for m in ms {
                    checked += 1;
                    let text = m.to_string();
                    at_forms +=
                        usize::from(text.contains("\"@path\"") || text.contains("\"@call\""));
                    if let Err(e) = validator.validate(&m) {
                        rejected.push(format!("{file} {}: {e}", case["name"]));
                    }
                }
            }
        }
    }
    println!(
        "{checked} messages checked ({at_forms} with @path/@call), {} rejected",
        rejected.len()
    );
    assert!(checked >= 25, "only {checked} messages checked");
    assert!(at_forms >= 5, "only {at_forms} messages use @path/@call");
    assert!(rejected.is_empty(), "{}", rejected.join("\n"));
}
