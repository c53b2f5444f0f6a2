//! The official Express conformance suites (`agent/express/compiler.yaml`,
//! `inference_formats/express/compile.yaml`, the `parse_response` cases of
//! `agent/express/response_parser.yaml`) against our compiler, with the cases we do not
//! pass listed in `tests/express_deviations.md`.

use egui_a2ui::stream::model_text::express::{ExpressCatalog, ExpressVersion, compile};
use egui_a2ui::stream::model_text::{ModelTextOptions, ModelTextParser};
use serde_json::Value;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/express-suites");

fn load(rel: &str) -> Vec<Value> {
    let text = std::fs::read_to_string(format!("{DIR}/{rel}")).unwrap();
    serde_yaml_ng::from_str(&text).unwrap()
}

/// `expected` is contained in `actual` (objects: every expected key; arrays: same
/// length, element by element; numbers by value).
fn subset(expected: &Value, actual: &Value) -> bool {
    match (expected, actual) {
        (Value::Object(e), Value::Object(a)) => e
            .iter()
            .all(|(k, v)| a.get(k).is_some_and(|x| subset(v, x))),
        (Value::Array(e), Value::Array(a)) => {
            e.len() == a.len() && e.iter().zip(a).all(|(x, y)| subset(x, y))
        }
        (Value::Number(e), Value::Number(a)) => e.as_f64() == a.as_f64(),
        (e, a) => e == a,
    }
}

/// `@path` / `@call` keys spelled `path` / `call` (the pre-fix suite's spelling).
fn unprefix(v: &Value) -> Value {
    match v {
        Value::Object(o) => Value::Object(
            o.iter()
                .map(|(k, x)| (k.trim_start_matches('@').to_owned(), unprefix(x)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(unprefix).collect()),
        other => other.clone(),
    }
}

fn catalog(case: &Value) -> ExpressCatalog {
    match case.get("args").and_then(|a| a.get("catalog")) {
        Some(Value::String(path)) => {
            let text = std::fs::read_to_string(format!("{DIR}/{path}")).unwrap();
            let doc: Value = serde_json::from_str(&text).unwrap();
            ExpressCatalog::from_definitions(&[&doc], None)
        }
        Some(doc @ Value::Object(_)) => ExpressCatalog::from_definitions(&[doc], None),
        _ => ExpressCatalog::basic(
            case.get("version")
                .and_then(Value::as_str)
                .and_then(ExpressVersion::parse)
                .unwrap_or(ExpressVersion::V1_0),
        ),
    }
}

/// Run one compile case: `Ok(())` or why it failed.
fn run_compile(case: &Value, legacy: bool) -> Result<(), String> {
    let cat = catalog(case);
    let input = case["input"].as_str().unwrap_or_default();
    let sid = case
        .get("surface_id")
        .and_then(Value::as_str)
        .unwrap_or("default_surface");
    let out = compile(input, &cat, sid);
    if let Some(e) = case.get("expect_error") {
        let want = e.get("category").and_then(Value::as_str);
        return match out.errors.first() {
            None => Err(format!("no error; messages {}", Value::Array(out.messages))),
            // The pre-fix suite's umbrella category.
            Some(_) if want == Some("CompileError") => Ok(()),
            Some(got) if want.is_none_or(|w| w == got.kind.category()) => Ok(()),
            Some(got) => Err(format!("error {got:?}, expected {want:?}")),
        };
    }
    if !out.errors.is_empty() {
        return Err(format!("errors {:?}", out.errors));
    }
    let actual = Value::Array(out.messages);
    let actual = if legacy { unprefix(&actual) } else { actual };
    if let Some(exp) = case.get("expect")
        && !subset(exp, &actual)
    {
        return Err(format!("got {actual}"));
    }
    for p in case
        .get("expect_present")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if actual.pointer(p.as_str().unwrap_or_default()).is_none() {
            return Err(format!("{p} missing in {actual}"));
        }
    }
    Ok(())
}

/// The deviations file's case names.
fn deviations() -> String {
    std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/express_deviations.md"
    ))
    .unwrap()
}

fn run_suite(rel: &str, legacy: bool) -> (usize, Vec<String>, usize) {
    let dev = deviations();
    let (mut passed, mut failed, mut skipped) = (0, Vec::new(), 0);
    for case in load(rel) {
        let name = case["name"].as_str().unwrap_or_default().to_owned();
        if case["action"] != "compile" {
            skipped += 1;
            continue;
        }
        match run_compile(&case, legacy) {
            Ok(()) => {
                assert!(
                    !dev.contains(&format!("`{name}`")),
                    "{name} passes: remove it from tests/express_deviations.md"
                );
                passed += 1;
            }
            Err(why) if dev.contains(&format!("`{name}`")) => {
                eprintln!("deviation {name}: {why}");
                skipped += 1;
            }
            Err(why) => failed.push(format!("{name}: {why}")),
        }
    }
    eprintln!(
        "{rel}: {passed} passed, {} failed, {skipped} skipped",
        failed.len()
    );
    (passed, failed, skipped)
}

#[test]
fn agent_express_compiler_suite() {
    let (passed, failed, _) = run_suite("agent/express/compiler.yaml", false);
    assert!(failed.is_empty(), "{failed:#?}");
    assert!(passed >= 40, "{passed}");
}

#[test]
fn inference_formats_express_compile_suite() {
    let (passed, failed, _) = run_suite("inference_formats/express/compile.yaml", true);
    assert!(failed.is_empty(), "{failed:#?}");
    assert!(passed >= 19, "{passed}");
}

#[test]
fn express_response_parser_parse_response_cases() {
    let mut ran = 0;
    for case in load("agent/express/response_parser.yaml") {
        if case["action"] != "parse_response"
            || case["args"].get("wrapped") == Some(&Value::Bool(false))
        {
            continue;
        }
        ran += 1;
        let name = case["name"].as_str().unwrap_or_default();
        let mut opts = ModelTextOptions::basic(None);
        opts.express = Some(std::sync::Arc::new(catalog(&case)));
        let mut p = ModelTextParser::new(opts, egui_a2ui::Limits::default());
        let mut parts: Vec<Value> = Vec::new();
        let mut push = |ps: Vec<egui_a2ui::stream::model_text::ResponsePart>| {
            for part in ps {
                let t = part.text.trim();
                if !t.is_empty() {
                    match parts.last_mut() {
                        Some(Value::Object(o)) if o.contains_key("text") => {
                            let prev = o["text"].as_str().unwrap_or_default().to_owned();
                            o.insert(
                                "text".into(),
                                Value::String(format!("{prev}{}", part.text).trim().to_owned()),
                            );
                        }
                        _ => parts.push(serde_json::json!({"text": t})),
                    }
                }
                if let Some(m) = part.a2ui {
                    match parts.last_mut() {
                        Some(Value::Object(o)) if o.contains_key("a2ui") => {
                            if let Some(Value::Array(a)) = o.get_mut("a2ui") {
                                a.extend(m.into_iter().map(Value::from));
                            }
                        }
                        _ => parts.push(serde_json::json!({"a2ui": m})),
                    }
                }
            }
        };
        push(
            p.feed_str(case["input"].as_str().unwrap_or_default())
                .unwrap(),
        );
        push(p.finish().unwrap());
        let errors = p.take_diagnostics();
        if let Some(e) = case.get("expect_error") {
            assert!(!errors.is_empty(), "{name}: no error");
            let cat = e["category"].as_str().unwrap_or_default();
            assert!(
                errors.iter().any(|x| matches!(x, egui_a2ui::stream::model_text::ModelTextError::Express(x) if x.kind.category() == cat)),
                "{name}: {errors:?}"
            );
            continue;
        }
        assert!(errors.is_empty(), "{name}: {errors:?}");
        assert!(
            subset(&case["expect"], &Value::Array(parts.clone())),
            "{name}: {parts:?}"
        );
    }
    assert_eq!(ran, 2);
}

/// Every message of `text` fed in `chunk`-byte pieces (0: whole), `finish` included,
/// applied to a fresh store; the store's components and data per surface.
fn end_state(text: &str, chunk: usize) -> Value {
    use egui_a2ui::stream::model_text::ModelTextStream;
    let mut store = egui_a2ui::SurfaceStore::basic();
    let mut s = ModelTextStream::new(egui_a2ui::Limits::default());
    let bytes = text.as_bytes();
    let size = if chunk == 0 {
        bytes.len().max(1)
    } else {
        chunk
    };
    for c in bytes.chunks(size) {
        s.feed(c, |m| store.apply(m).into_result().map(drop));
        store.retire(s.take_retired());
    }
    s.finish(|m| store.apply(m).into_result().map(drop));
    store.retire(s.take_retired());
    let mut d = egui_a2ui::conformance::dump(&store, store.catalogs().functions());
    // How many messages it took depends on the chunking; the state must not.
    if let Some(o) = d.as_object_mut() {
        o.remove("messageCount");
    }
    d
}

const ANSWER: &str = r#"Here is your order form.
<a2ui>
surface("order")
root = Card(col)  # the card
col = Column([title, name, Row([Button(Text("Buy"), "primary", Event("buy", {who: $/user/name})), note])])
title = Text("Flight \"A1\" status", "h2")
$/user/name = "Alice"
name = TextField("Name", $/user/name, _, ?required)
note = Text(r"C:\tmp", "caption"); /* done */
</a2ui>
And some JSON: <a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"j","catalogId":"https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json"}},{"version":"v0.9","updateComponents":{"surfaceId":"j","components":[{"id":"root","component":"Text","text":"json"}]}}]</a2ui-json> bye"#;

#[test]
fn an_express_answer_ends_the_same_whole_and_in_4_byte_chunks() {
    let whole = end_state(ANSWER, 0);
    let text = whole.to_string();
    let ids: Vec<&str> = [
        "col_children_2_children_0",
        "col_children_2_children_0_child",
        "Alice",
        "\"json\"",
    ]
    .into_iter()
    .filter(|n| text.contains(n))
    .collect();
    // Inline components take the official ids, the data and the JSON block arrived, and
    // no placeholder is left.
    assert_eq!(ids.len(), 4, "{whole}");
    assert!(!text.contains("loading_"), "{whole}");
    for n in [1, 4, 7, 64] {
        assert_eq!(end_state(ANSWER, n), whole, "chunk {n}");
    }
}

const CUT_TEXT: &str = "Departing from gate 12 at 10:45, boarding starts thirty minutes before.";

/// A model answer whose block never closes, fed in 4-byte chunks then finished: the Text
/// being written shows all of its text that arrived (the official parser shows what
/// arrived), not the first few characters of an earlier growth step.
fn assert_cut_answer_keeps_its_text(text: &str) {
    let state = end_state(text, 4).to_string();
    assert!(
        state.contains(&format!("\"{CUT_TEXT}\"")),
        "{text}\n{state}"
    );
}

#[test]
fn a_cut_express_answer_keeps_the_text_that_arrived() {
    assert_cut_answer_keeps_its_text(&format!(
        "<a2ui>\nroot = Column([t])\nt = Text(\"{CUT_TEXT}"
    ));
}

#[test]
fn a_cut_json_answer_keeps_the_text_that_arrived() {
    assert_cut_answer_keeps_its_text(&format!(
        r#"<a2ui-json>[{{"version":"v0.9","createSurface":{{"surfaceId":"default_surface","catalogId":"https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json"}}}},{{"version":"v0.9","updateComponents":{{"surfaceId":"default_surface","components":[{{"id":"root","component":"Column","children":["t"]}},{{"id":"t","component":"Text","text":"{CUT_TEXT}"#
    ));
}
