//! Differential test against the official Python agent SDK's Express compiler
//! (`a2ui-agent-sdk==0.9.0`, the venv `tests/peers/.venv-sdk` that `.ci/run` makes from
//! `tests/peers/requirements-sdk.txt`): every public v0.9 basic-catalog example is
//! decompiled to Express by the SDK (`tests/peers/express_sdk_oracle.py`), that Express is
//! compiled by the SDK and by us (as a model answer's `<a2ui>` block, whole and in 4-byte
//! chunks), and the conformance dumps of the two end states must be equal. The Express text
//! is written by the SDK, not by us. A missing venv fails the test with the command that
//! makes it.

use std::path::PathBuf;
use std::sync::Arc;

use egui_a2ui::stream::model_text::express::{ExpressCatalog, ExpressVersion};
use egui_a2ui::stream::model_text::{ModelTextOptions, ModelTextParser, ModelTextStream};
use egui_a2ui::{Limits, SurfaceStore};
use serde_json::Value;

use crate::common::peers::{Venv, run_json_script};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The oracle's answer for every example, in at most two minutes.
fn oracle(examples: &[PathBuf]) -> Vec<Value> {
    let catalog = PathBuf::from(format!(
        "{ROOT}/assets/schemas/v0_9_catalogs_basic/catalog.json"
    ));
    let doc = run_json_script(
        Venv::Sdk,
        "express_sdk_oracle.py",
        std::iter::once(&catalog).chain(examples),
    );
    doc["cases"].as_array().cloned().unwrap_or_default()
}

/// The end state as compared: the dump without what depends on how the messages were cut
/// (their count, the stream index of a rejected one).
fn state(store: &SurfaceStore) -> Value {
    let mut d = egui_a2ui::conformance::dump(store, store.catalogs().functions());
    if let Some(o) = d.as_object_mut() {
        o.remove("messageCount");
        let codes: Vec<Value> = o
            .get("errors")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .map(|e| e["error"].clone())
            .collect();
        o.insert("errors".into(), Value::Array(codes));
    }
    d
}

fn sdk_state(messages: &[Value]) -> Value {
    let mut store = SurfaceStore::basic();
    for m in messages {
        let _ = store.apply(m.clone());
    }
    state(&store)
}

/// Our end state for the Express text inside `<a2ui>` in a model answer, fed in
/// `chunk`-byte pieces (0: whole), and the model-text errors met.
fn our_state(express: &str, chunk: usize) -> (Value, Vec<String>) {
    let answer = format!("Here it is.\n<a2ui>\n{express}\n</a2ui>\nDone.");
    let mut opts = ModelTextOptions::basic(None);
    opts.express = Some(Arc::new(ExpressCatalog::basic(ExpressVersion::V0_9)));
    let mut s = ModelTextStream::from_parser(ModelTextParser::new(opts, Limits::default()));
    let mut store = SurfaceStore::basic();
    let bytes = answer.as_bytes();
    let size = if chunk == 0 { bytes.len() } else { chunk };
    for c in bytes.chunks(size) {
        let _ = s.feed(c, |m| store.apply(m).into_result().map(drop));
        store.retire(s.take_retired());
    }
    let _ = s.finish(|m| store.apply(m).into_result().map(drop));
    store.retire(s.take_retired());
    let errors = s
        .take_errors()
        .iter()
        .map(|f| f.to_message()["error"]["message"].to_string())
        .collect();
    (state(&store), errors)
}

fn examples() -> Vec<PathBuf> {
    let dir =
        PathBuf::from(ROOT).join("tests/data/a2ui/specification/v0_9/catalogs/basic/examples");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("examples")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    v.sort();
    v
}

#[test]
fn express_compiles_like_the_sdk_on_every_public_example() {
    let files = examples();
    assert!(files.len() >= 30, "{} examples", files.len());
    let deviations =
        std::fs::read_to_string(format!("{ROOT}/tests/express_deviations.md")).expect("deviations");
    let cases = oracle(&files);
    assert_eq!(cases.len(), files.len());
    let (mut equal, mut listed, mut failed) = (0, 0, Vec::new());
    for case in &cases {
        let file = case["file"].as_str().unwrap_or_default();
        let name = file.rsplit('/').next().unwrap_or(file).to_owned();
        let is_listed = deviations.contains(&format!("`{name}`"));
        let r = (|| -> Result<(), String> {
            if let Some(e) = case["error"].as_str() {
                return Err(format!("the SDK failed: {e}"));
            }
            let express = case["express"].as_str().unwrap_or_default();
            let messages = case["messages"].as_array().cloned().unwrap_or_default();
            let want = sdk_state(&messages);
            if want["surfaces"].as_array().is_none_or(Vec::is_empty) {
                return Err("the SDK's messages left no surface".into());
            }
            for chunk in [0, 4] {
                let (got, errors) = our_state(express, chunk);
                if !errors.is_empty() {
                    return Err(format!("chunk {chunk}: errors {errors:?}\n{express}"));
                }
                if got != want {
                    return Err(format!(
                        "chunk {chunk}: dumps differ\n{express}\nSDK: {want}\nours: {got}"
                    ));
                }
            }
            Ok(())
        })();
        match r {
            Ok(()) if is_listed => failed.push(format!(
                "{name} is equal: remove it from tests/express_deviations.md"
            )),
            Ok(()) => equal += 1,
            Err(why) if is_listed => {
                eprintln!("deviation {name}: {why}");
                listed += 1;
            }
            Err(why) => failed.push(format!("{name}: {why}")),
        }
    }
    eprintln!(
        "SDK differential: {equal} of {} examples equal (whole and 4-byte chunks), {listed} listed deviations",
        cases.len()
    );
    assert!(failed.is_empty(), "{}", failed.join("\n\n"));
}
