//! A differential test of the model-text parser on recorded answers of our own
//! (`tests/data/model_text/`, written for this test: child-first and root-last ordering,
//! several surfaces in one block, prose between blocks, escapes and non-ASCII text, a failed
//! and a malformed message, v0.8 and v1.0, a long answer). Each answer is streamed through
//! `Renderer::feed_model_text` in many chunkings. After every chunk, what the store holds
//! must be a prefix of the final UI: no surface or component the final answer lacks, no
//! component without its required properties, every property a prefix of its final value
//! (a cut string only where the parser may cut one), every placeholder referred to. At the
//! end the surfaces (components and data model) must equal those of the answer parsed
//! whole (`parse_response`, message by message).
//!
//! For the answers holding a message the parser must refuse (a message that fails
//! validation, a message that is not JSON), the whole-answer state is that of a copy of the
//! answer without that message (`*.expected.txt`, written by hand).
//!
//! The violations are counted per kind before the assertions, so the same harness run on
//! an older parser gives the before/after figures (`cargo test --test
//! model_stream_differential -- --nocapture` prints them).

use std::collections::{BTreeMap, BTreeSet};

use egui_a2ui::stream::model_text::{self, DEFAULT_CUTTABLE_KEYS, ModelTextEvent, ModelTextStream};
use egui_a2ui::{Catalog, Limits, Renderer};
use serde_json::Value;

const ANSWERS: [&str; 10] = [
    "01_child_first.txt",
    "02_root_last_nested.txt",
    "03_two_surfaces.txt",
    "04_prose_between_blocks.txt",
    "05_escapes_non_ascii.txt",
    "06_malformed_block.txt",
    "07_failed_message.txt",
    "08_v08_root_last.txt",
    "09_v10_containers.txt",
    "10_long_answer.txt",
];

/// Required properties of the basic catalog's components, as the official parser reads
/// them (`a2ui-agent-sdk` 0.8.0, `CatalogSchemaHelper.component_required` over the v0.9 and
/// v1.0 basic catalogs; `component` left out). The official parser holds a component back
/// until these are present.
pub const REQUIRED_V09: [(&str, &[&str]); 18] = [
    ("Text", &["text"]),
    ("Image", &["url"]),
    ("Icon", &["name"]),
    ("Video", &["url"]),
    ("AudioPlayer", &["url"]),
    ("Row", &["children"]),
    ("Column", &["children"]),
    ("List", &["children"]),
    ("Card", &["child"]),
    ("Tabs", &["tabs"]),
    ("Modal", &["trigger", "content"]),
    ("Divider", &[]),
    ("Button", &["child", "action"]),
    ("TextField", &["label"]),
    ("CheckBox", &["label", "value"]),
    ("ChoicePicker", &["options", "value"]),
    ("Slider", &["value", "max"]),
    ("DateTimeInput", &["value"]),
];

/// The same for the v0.8 standard catalog.
pub const REQUIRED_V08: [(&str, &[&str]); 18] = [
    ("Text", &["text"]),
    ("Image", &["url"]),
    ("Icon", &["name"]),
    ("Video", &["url"]),
    ("AudioPlayer", &["url"]),
    ("Row", &["children"]),
    ("Column", &["children"]),
    ("List", &["children"]),
    ("Card", &["child"]),
    ("Tabs", &["tabItems"]),
    ("Divider", &[]),
    ("Modal", &["entryPointChild", "contentChild"]),
    ("Button", &["child", "action"]),
    ("CheckBox", &["label", "value"]),
    ("TextField", &["label"]),
    ("DateTimeInput", &["value"]),
    ("MultipleChoice", &["selections", "options"]),
    ("Slider", &["value"]),
];

fn data_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/model_text")
}

fn read(name: &str) -> String {
    std::fs::read_to_string(data_dir().join(name)).expect("recorded answer")
}

/// The text whose whole parse is the expectation: the answer, or its hand-written copy
/// without the message the parser must refuse.
fn expectation_text(name: &str) -> String {
    let expected = data_dir().join(name.replace(".txt", ".expected.txt"));
    std::fs::read_to_string(expected).unwrap_or_else(|_| read(name))
}

/// One surface as the store holds it: components (wire type, wire properties) by id and
/// the data model.
#[derive(Clone, Debug, PartialEq)]
struct SurfaceState {
    components: BTreeMap<String, (String, Value)>,
    data: Value,
    v08: bool,
}

type State = BTreeMap<String, SurfaceState>;

fn state_of(r: &Renderer) -> State {
    r.store()
        .surfaces()
        .map(|s| {
            let components = s
                .components()
                .values()
                .map(|c| {
                    (
                        c.id().to_owned(),
                        (
                            c.wire_component().to_owned(),
                            Value::Object(c.wire_props().to_map()),
                        ),
                    )
                })
                .collect();
            let data = s.data.get("").cloned().unwrap_or(Value::Null);
            let v08 = s.version.to_string().starts_with("0.8") || s.version.to_string() == "v0.8";
            (
                s.id.clone(),
                SurfaceState {
                    components,
                    data,
                    v08,
                },
            )
        })
        .collect()
}

fn whole_state(text: &str) -> State {
    let parts = model_text::parse_response(text).expect("the expectation parses whole");
    let mut r = Renderer::new(Catalog::basic());
    for p in parts {
        for m in p.a2ui.into_iter().flatten() {
            r.apply(&m)
                .into_result()
                .expect("message of the expectation applies");
        }
    }
    state_of(&r)
}

fn required(v08: bool, ty: &str) -> &'static [&'static str] {
    let table: &[(&str, &[&str])] = if v08 { &REQUIRED_V08 } else { &REQUIRED_V09 };
    table
        .iter()
        .find(|(t, _)| *t == ty)
        .map(|(_, r)| *r)
        .unwrap_or(&[])
}

fn is_placeholder(id: &str) -> bool {
    id.starts_with("loading_")
}

/// Whether `drawn` is a prefix of `fin` (the value under `key`): equal, a cut string under a
/// cuttable key, a placeholder standing in for a child id, a shorter list of such, or an
/// object whose entries are all prefixes.
fn is_prefix(key: &str, drawn: &Value, fin: &Value) -> bool {
    if drawn == fin {
        return true;
    }
    match (drawn, fin) {
        (Value::String(d), Value::String(f)) => {
            d.strip_prefix("loading_") == Some(f.as_str())
                || (DEFAULT_CUTTABLE_KEYS.contains(&key) && f.starts_with(d.as_str()))
        }
        (Value::Array(d), Value::Array(f)) => {
            if d.len() == 1
                && d[0]
                    .as_str()
                    .is_some_and(|s| s.starts_with("loading_children_"))
            {
                return !f.is_empty();
            }
            d.len() <= f.len() && d.iter().zip(f).all(|(d, f)| is_prefix(key, d, f))
        }
        (Value::Object(d), Value::Object(f)) => d
            .iter()
            .all(|(k, dv)| f.get(k).is_some_and(|fv| is_prefix(k, dv, fv))),
        _ => false,
    }
}

/// Every string anywhere in `v` (ids referenced by a component).
fn strings(v: &Value, out: &mut BTreeSet<String>) {
    match v {
        Value::String(s) => {
            out.insert(s.clone());
        }
        Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        Value::Object(o) => o.values().for_each(|x| strings(x, out)),
        _ => {}
    }
}

/// What went wrong, counted per kind.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
struct Counts {
    /// Chunkings run.
    runs: usize,
    /// Checks after a chunk.
    checks: usize,
    /// A surface or component (not a placeholder) the final answer does not have.
    foreign: usize,
    /// A component applied before its required properties (counted once per component
    /// and run).
    early: usize,
    /// A property that is not a prefix of its final value (counted once per component and
    /// run).
    not_prefix: usize,
    /// A placeholder no component in the store refers to (counted once per placeholder and
    /// run).
    stale_placeholder: usize,
    /// At the end: placeholders left in the store beyond those standing for children the
    /// answer never sent.
    placeholders_left: usize,
    /// At the end: components of the whole answer missing from the streamed store.
    missing: usize,
    /// At the end: components that differ from the whole answer's.
    different: usize,
    /// At the end: surfaces whose data model differs.
    data_differs: usize,
}

#[derive(Default)]
struct Seen {
    early: BTreeSet<(String, String)>,
    not_prefix: BTreeSet<(String, String)>,
    stale: BTreeSet<(String, String)>,
    foreign: BTreeSet<(String, String)>,
}

fn check_prefix(now: &State, fin: &State, seen: &mut Seen) {
    for (sid, s) in now {
        let Some(f) = fin.get(sid) else {
            seen.foreign.insert((sid.clone(), String::new()));
            continue;
        };
        let mut referenced = BTreeSet::new();
        for (id, (_, props)) in &s.components {
            if !is_placeholder(id) {
                strings(props, &mut referenced);
            }
        }
        for (id, (ty, props)) in &s.components {
            if is_placeholder(id) {
                if !referenced.contains(id) {
                    seen.stale.insert((sid.clone(), id.clone()));
                }
                continue;
            }
            let Some((fty, fprops)) = f.components.get(id) else {
                seen.foreign.insert((sid.clone(), id.clone()));
                continue;
            };
            let key = (sid.clone(), id.clone());
            if required(s.v08, ty).iter().any(|r| props.get(*r).is_none()) {
                seen.early.insert(key.clone());
            }
            if ty != fty || !is_prefix("", props, fprops) {
                seen.not_prefix.insert(key);
            }
        }
    }
}

fn compare_end(got: &State, want: &State, c: &mut Counts) {
    for (sid, w) in want {
        let Some(g) = got.get(sid) else {
            c.missing += w.components.len();
            continue;
        };
        for (id, comp) in &w.components {
            match g.components.get(id) {
                None => c.missing += 1,
                Some(gc) if gc != comp => c.different += 1,
                Some(_) => {}
            }
        }
        for id in g.components.keys() {
            if is_placeholder(id) {
                let stands_for = id.trim_start_matches("loading_");
                // A placeholder for a child the answer never sent stays, as it should.
                if w.components.contains_key(stands_for) || !stands_for_unsent(w, stands_for) {
                    c.placeholders_left += 1;
                }
            } else if !w.components.contains_key(id) {
                c.foreign += 1;
            }
        }
        if g.data != w.data {
            c.data_differs += 1;
        }
    }
    for sid in got.keys() {
        if !want.contains_key(sid) {
            c.foreign += 1;
        }
    }
}

/// Whether some component of the whole answer refers to `id` though no component has it.
fn stands_for_unsent(w: &SurfaceState, id: &str) -> bool {
    let mut refs = BTreeSet::new();
    for (_, props) in w.components.values() {
        strings(props, &mut refs);
    }
    refs.contains(id) && !w.components.contains_key(id)
}

/// Deterministic chunk sizes between 1 and 40 (a small LCG; no randomness in tests).
fn random_cuts(len: usize, seed: u64) -> Vec<usize> {
    let mut x = seed;
    let mut cuts = Vec::new();
    let mut at = 0;
    while at < len {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        at = (at + 1 + ((x >> 33) % 40) as usize).min(len);
        cuts.push(at);
    }
    cuts
}

fn chunkings(text: &str) -> Vec<(String, Vec<usize>)> {
    let len = text.len();
    let mut out = Vec::new();
    let sizes: &[usize] = if len > 8000 {
        &[1, 4, 64, 4096]
    } else {
        &[1, 2, 3, 4, 5, 7, 16, 64, 4096]
    };
    for &n in sizes {
        out.push((
            format!("{n}-byte"),
            (1..=len.div_ceil(n)).map(|i| (i * n).min(len)).collect(),
        ));
    }
    for seed in [1, 2, 3] {
        out.push((format!("random 1-40 #{seed}"), random_cuts(len, seed)));
    }
    let lines: Vec<usize> = text
        .match_indices('\n')
        .map(|(i, _)| i + 1)
        .chain(std::iter::once(len))
        .collect();
    out.push(("lines".to_owned(), lines));
    out
}

fn stream(text: &str, cuts: &[usize], fin: &State, c: &mut Counts) -> (State, Vec<String>) {
    let bytes = text.as_bytes();
    let mut r = Renderer::new(Catalog::basic());
    let mut s = ModelTextStream::new(Limits::default());
    let mut seen = Seen::default();
    let mut errors = Vec::new();
    let take = |ev: Vec<ModelTextEvent>, errors: &mut Vec<String>| {
        for e in ev {
            match e {
                ModelTextEvent::Rejected(e) => errors.push(e.to_string()),
                ModelTextEvent::Error(e) => errors.push(e.to_string()),
                _ => {}
            }
        }
    };
    let mut from = 0;
    let mut revision = u64::MAX;
    for &to in cuts {
        let ev = r.feed_model_text(&mut s, &bytes[from..to]);
        take(ev, &mut errors);
        from = to;
        if r.store().revision() != revision {
            revision = r.store().revision();
            c.checks += 1;
            check_prefix(&state_of(&r), fin, &mut seen);
        }
    }
    let ev = r.finish_model_text(&mut s);
    take(ev, &mut errors);
    check_prefix(&state_of(&r), fin, &mut seen);
    c.early += seen.early.len();
    c.not_prefix += seen.not_prefix.len();
    c.stale_placeholder += seen.stale.len();
    c.foreign += seen.foreign.len();
    (state_of(&r), errors)
}

/// Whether the answer must report an error: the message that fails validation does, in
/// every chunking; a message that is not JSON is skipped silently (as the official parser
/// skips an object it cannot parse); the others report none.
fn errors_expected(name: &str) -> usize {
    usize::from(name == "07_failed_message.txt")
}

#[test]
fn every_chunking_draws_a_prefix_of_the_final_ui_and_ends_like_the_whole_answer() {
    let mut total = Counts::default();
    let mut report = Vec::new();
    for name in ANSWERS {
        let text = read(name);
        let fin = whole_state(&expectation_text(name));
        assert!(!fin.is_empty(), "{name}: the expectation draws something");
        let mut c = Counts::default();
        for (label, cuts) in chunkings(&text) {
            c.runs += 1;
            let (end, errors) = stream(&text, &cuts, &fin, &mut c);
            compare_end(&end, &fin, &mut c);
            assert_eq!(
                errors.len().min(1),
                errors_expected(name),
                "{name} in {label} chunks: errors {errors:?}"
            );
        }
        report.push(format!("{name}: {c:?}"));
        total.runs += c.runs;
        total.checks += c.checks;
        total.foreign += c.foreign;
        total.early += c.early;
        total.not_prefix += c.not_prefix;
        total.stale_placeholder += c.stale_placeholder;
        total.placeholders_left += c.placeholders_left;
        total.missing += c.missing;
        total.different += c.different;
        total.data_differs += c.data_differs;
    }
    for l in &report {
        println!("{l}");
    }
    println!("total: {total:?}");
    let bad = Counts {
        runs: total.runs,
        checks: total.checks,
        ..Counts::default()
    };
    assert_eq!(total, bad, "violations:\n{}", report.join("\n"));
}
