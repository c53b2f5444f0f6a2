//! The official direct-JSON response suites (`agent/direct_json/response_parser.yaml`,
//! `agent/direct_json/response_streaming.yaml`, copied under
//! `tests/data/express-suites/`) through our model-text parser: `parse_response` cases
//! through [`parse_response`], `parse_chunk` cases step by step through a
//! [`ModelTextParser`]. Cases we answer differently are listed with their reason in
//! `tests/direct_json_deviations.md`; the failing set must be exactly that list (a case
//! that starts passing fails the test until it leaves the list).

use egui_a2ui::Limits;
use egui_a2ui::stream::model_text::{
    Family, ModelTextError, ModelTextOptions, ModelTextParser, ResponsePart, catalog_components,
    parse_response,
};
use serde_json::{Value, json};

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/express-suites");

fn load(rel: &str) -> Vec<Value> {
    let text = std::fs::read_to_string(format!("{DIR}/{rel}")).unwrap();
    serde_yaml_ng::from_str(&text).unwrap()
}

fn deviations() -> String {
    std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/direct_json_deviations.md"
    ))
    .unwrap()
}

/// Our parts in the suites' shape: a part carries text (trimmed, dropped when empty) or
/// messages, never both.
fn flatten(parts: Vec<ResponsePart>) -> Vec<Value> {
    let mut out = Vec::new();
    for p in parts {
        let t = p.text.trim();
        if !t.is_empty() {
            out.push(json!({"text": t}));
        }
        if let Some(m) = p.a2ui {
            out.push(json!({"a2ui": m}));
        }
    }
    out
}

/// Text parts next to each other joined (a chunk may hand text on in several pieces).
fn join_text(parts: Vec<Value>) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::new();
    for p in parts {
        if let (Some(t), Some(last)) = (p["text"].as_str(), out.last_mut())
            && let Some(l) = last["text"].as_str()
        {
            *last = json!({"text": format!("{l}{t}")});
            continue;
        }
        out.push(p);
    }
    out
}

/// JSON equality with numbers compared by value (YAML `1` against JSON `1.0`).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(v, w)| same(v, w))
        }
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        _ => a == b,
    }
}

fn category(e: &ModelTextError) -> &'static str {
    match e {
        ModelTextError::Parse(_) | ModelTextError::Unterminated { .. } => "ParseError",
        _ => "ValidationError",
    }
}

fn parser(case: &Value) -> ModelTextParser {
    let args = &case["args"];
    let catalog = args["catalog"].as_str().map(|p| {
        let text = std::fs::read_to_string(format!("{DIR}/{p}")).unwrap();
        serde_json::from_str::<Value>(&text).unwrap()
    });
    let components = catalog_components(Family::V09, None, catalog.as_ref());
    let extra = args["progressive_keys"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_owned)
        .collect();
    ModelTextParser::new(
        ModelTextOptions {
            family: Some(Family::V09),
            components: std::borrow::Cow::Owned(components),
            extra_cuttable_keys: extra,
            sniff_data_model: true,
            ..ModelTextOptions::default()
        },
        Limits::default(),
    )
}

fn run_parse_response(case: &Value) -> Result<(), String> {
    if case["args"]["wrapped"] == false {
        return Err("`wrapped: false` (text without tags is prose for us)".into());
    }
    let input = case["input"].as_str().unwrap_or_default();
    let got = parse_response(input);
    match (&case["expect_error"], got) {
        (Value::Null, Ok(parts)) => {
            let got = Value::Array(flatten(parts));
            if same(&got, &case["expect"]) {
                Ok(())
            } else {
                Err(format!("got {got}"))
            }
        }
        (Value::Null, Err(e)) => Err(format!("error {e}")),
        (want, Err(e)) if want["category"] == category(&e) => Ok(()),
        (want, r) => Err(format!("want {want}, got {r:?}")),
    }
}

fn run_parse_chunk(case: &Value) -> Result<(), String> {
    if case["args"]["wrapped"] == false {
        return Err("`wrapped: false` (text without tags is prose for us)".into());
    }
    let mut p = parser(case);
    for (i, step) in case["steps"].as_array().into_iter().flatten().enumerate() {
        let input = step["input"].as_str().unwrap_or_default();
        let r = p.feed_str(input);
        let diags = p.take_diagnostics();
        match (&step["expect_error"], r) {
            (Value::Null, Ok(parts)) => {
                if let Some(d) = diags.first() {
                    return Err(format!("step {i}: diagnostic {d}"));
                }
                let got = Value::Array(join_text(flatten(parts)));
                if !same(&got, &step["expect"]) {
                    return Err(format!("step {i}: want {}, got {got}", step["expect"]));
                }
            }
            (Value::Null, Err(e)) => return Err(format!("step {i}: error {e}")),
            (want, Err(e)) if want["category"] == category(&e) => {}
            (want, r) => return Err(format!("step {i}: want {want}, got {r:?}")),
        }
    }
    Ok(())
}

/// (passed, failures not listed as deviations, deviations met, not run).
fn run_suite(rel: &str) -> (usize, Vec<String>, usize, usize) {
    let dev = deviations();
    let (mut passed, mut failed, mut deviated, mut not_run) = (0, Vec::new(), 0, 0);
    for case in load(rel) {
        let name = case["name"].as_str().unwrap_or_default().to_owned();
        let r = match case["action"].as_str() {
            Some("parse_response") => run_parse_response(&case),
            Some("parse_chunk") => run_parse_chunk(&case),
            // `unwrap` / `wrap`: raw payload text, an agent-side API we do not have.
            _ => {
                not_run += 1;
                continue;
            }
        };
        let listed = dev.contains(&format!("`{name}`"));
        match r {
            Ok(()) if listed => failed.push(format!(
                "{name} passes: remove it from tests/direct_json_deviations.md"
            )),
            Ok(()) => passed += 1,
            Err(why) if listed => {
                eprintln!("deviation {name}: {why}");
                deviated += 1;
            }
            Err(why) => failed.push(format!("{name}: {why}")),
        }
    }
    eprintln!(
        "{rel}: {passed} passed, {} failed, {deviated} deviations, {not_run} not run",
        failed.len()
    );
    (passed, failed, deviated, not_run)
}

#[test]
fn direct_json_response_parser_suite() {
    let (passed, failed, _, not_run) = run_suite("agent/direct_json/response_parser.yaml");
    assert!(failed.is_empty(), "{failed:#?}");
    assert!(passed >= 2, "{passed}");
    assert_eq!(not_run, 13);
}

#[test]
fn direct_json_response_streaming_suite() {
    let (passed, failed, deviated, _) = run_suite("agent/direct_json/response_streaming.yaml");
    assert!(failed.is_empty(), "{failed:#?}");
    assert_eq!(passed + deviated, 29);
}
