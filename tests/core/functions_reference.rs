//! Differential test of the function layer against the reference core (a2ui-core 0.4.0).
//!
//! Every call in `tests/data/functions/cases.json` (made by `make_cases.py`) and in the
//! shared `tests/data/conformance/cases/functions.json` was evaluated once by the oracle
//! (`oracle.py --functions`); its answers are committed next to the cases. Here each call is
//! evaluated by our registry, with the case's data model, scope, version and locale, and
//! must give the same result (numbers compared by value) and fail exactly when the
//! reference failed. The only exceptions are the cases listed in
//! `tests/functions_deviations.md`, each with the reason we are right by the spec; a listed
//! case that matches again is reported as stale.

use std::path::PathBuf;

use egui_a2ui::Limits;
use egui_a2ui::Version;
use egui_a2ui::eval::{EvalContext, FunctionRegistry};
use serde_json::{Value, json};

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

fn read_json(rel: &str) -> Value {
    let p = data_dir().join(rel);
    serde_json::from_slice(&std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display())))
        .unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Structural equality with numbers by value (`3` == `3.0`).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, p)| y.get(k).is_some_and(|q| same(p, q)))
        }
        _ => a == b,
    }
}

struct Outcome {
    result: Value,
    failed: bool,
}

fn evaluate(case: &Value, registry: &FunctionRegistry, limits: &Limits) -> Outcome {
    let data = case.get("data").cloned().unwrap_or_else(|| json!({}));
    let scope = case.get("scope").and_then(Value::as_str).unwrap_or("/");
    let version = match case.get("version").and_then(Value::as_str) {
        Some("v1.0") => Version::V1_0,
        _ => Version::V0_9,
    };
    let locale = case
        .get("locale")
        .and_then(Value::as_str)
        .unwrap_or("en-US");
    let cx = EvalContext::new(&data, scope, version, registry, limits).with_locale(locale);
    let call =
        json!({"call": case["call"], "args": case.get("args").cloned().unwrap_or(json!({}))});
    let result = cx.resolve(&call);
    let failed = !cx.take_diagnostics().is_empty();
    Outcome { result, failed }
}

/// Case ids named in backticks in the deviations file.
fn deviation_ids() -> Vec<String> {
    let text = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/functions_deviations.md"),
    )
    .unwrap_or_default();
    text.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .collect()
}

#[test]
fn every_function_case_matches_the_reference_core() {
    let registry = FunctionRegistry::basic();
    let limits = Limits::default();
    let deviations = deviation_ids();
    let suites = [
        ("functions/cases.json", "functions/expected.json", ""),
        (
            "conformance/cases/functions.json",
            "conformance/expected/cases/functions.out.json",
            "conformance#",
        ),
    ];
    let (mut total, mut equal, mut documented) = (0, 0, 0);
    let mut failures = Vec::new();
    let mut stale = Vec::new();
    for (cases_file, expected_file, prefix) in suites {
        let cases = read_json(cases_file);
        let expected = read_json(expected_file);
        let cases = cases.as_array().expect("cases array");
        let results = expected["results"].as_array().expect("results array");
        assert_eq!(
            cases.len(),
            results.len(),
            "{cases_file}: one result per case"
        );
        for (i, (case, reference)) in cases.iter().zip(results).enumerate() {
            total += 1;
            let id = match case.get("id").and_then(Value::as_str) {
                Some(id) => format!("{prefix}{id}"),
                None => format!("{prefix}{i}"),
            };
            let ours = evaluate(case, &registry, &limits);
            let ref_failed = !reference["error"].is_null();
            let matches = same(&reference["result"], &ours.result) && ref_failed == ours.failed;
            let listed = deviations.contains(&id);
            match (matches, listed) {
                (true, false) => equal += 1,
                (true, true) => {
                    equal += 1;
                    stale.push(id);
                }
                (false, true) => documented += 1,
                (false, false) => failures.push(format!(
                    "{id}: {call} {args}\n    reference: {r} (error: {re})\n    ours:      {o} (error: {oe})",
                    call = case["call"],
                    args = case.get("args").unwrap_or(&Value::Null),
                    r = reference["result"],
                    re = ref_failed,
                    o = ours.result,
                    oe = ours.failed,
                )),
            }
        }
    }
    eprintln!(
        "{equal} of {total} function cases equal to the reference ({documented} documented deviations)"
    );
    assert!(total >= 300, "cases went missing: {total}");
    assert!(
        failures.is_empty(),
        "{} cases differ from the reference:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        stale.is_empty(),
        "listed as deviations but equal to the reference: {stale:?}"
    );
}
