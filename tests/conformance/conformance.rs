//! Every public fixture under tests/data/a2ui (and the hand-written edge cases) is fed to the
//! store, dumped in the oracle format, and compared with the official reference core's
//! golden: `surfaces` (numbers by value, `diagnostics` ignored) and the rejected message
//! indices. Differences where we are right are listed, per fixture and path, in the table of
//! tests/conformance_deviations.md; a listed difference that no longer occurs fails, and so
//! does a drop in the number of fixtures equal to the reference.

use std::path::{Path, PathBuf};

use egui_a2ui::SurfaceStore;
use egui_a2ui::eval::FunctionRegistry;
use serde_json::Value;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");

/// Fixtures whose goldens need something not implemented yet, with the reason. Empty once
/// everything matches.
const PENDING: &[(&str, &str)] = &[];

fn goldens() -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![PathBuf::from(DATA).join("conformance/expected")];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).expect("read goldens dir") {
            let p = e.expect("dir entry").path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "json")
                && !p.to_string_lossy().ends_with("functions.out.json")
            {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The stream a golden was made from, and how many messages to feed (all, or all but the
/// final deleteSurface for `.before-delete` snapshots).
fn source_of(golden: &Path) -> (PathBuf, bool) {
    let rel = golden
        .strip_prefix(PathBuf::from(DATA).join("conformance/expected"))
        .expect("golden under expected/");
    let rel_s = rel.to_string_lossy();
    let before_delete = rel_s.ends_with(".before-delete.json");
    let stem = rel_s
        .trim_end_matches(".before-delete.json")
        .trim_end_matches(".json")
        .to_owned();
    let base = if stem.starts_with("cases/") {
        PathBuf::from(DATA).join("conformance").join(&stem)
    } else {
        PathBuf::from(DATA).join("a2ui").join(&stem)
    };
    for ext in ["", ".json", ".jsonl"] {
        let p = PathBuf::from(format!("{}{ext}", base.display()));
        if p.is_file() {
            return (p, before_delete);
        }
    }
    panic!("no source stream for golden {}", golden.display());
}

/// Numbers compare by value (`3` == `3.0`); everything else structurally; `diagnostics`
/// keys are ignored.
fn diff(path: &str, a: &Value, b: &Value, out: &mut Vec<String>) {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            if x.as_f64() != y.as_f64() {
                out.push(format!("{path}: oracle={a} ours={b}"));
            }
        }
        (Value::Object(x), Value::Object(y)) => {
            for (k, va) in x {
                if k == "diagnostics" {
                    continue;
                }
                match y.get(k) {
                    Some(vb) => diff(&format!("{path}.{k}"), va, vb, out),
                    None => out.push(format!("{path}.{k}: missing in ours (oracle={va})")),
                }
            }
            for k in y.keys() {
                if k != "diagnostics" && !x.contains_key(k) {
                    out.push(format!("{path}.{k}: extra in ours"));
                }
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            if x.len() != y.len() {
                out.push(format!(
                    "{path}: length oracle={} ours={}",
                    x.len(),
                    y.len()
                ));
            }
            for (i, (va, vb)) in x.iter().zip(y).enumerate() {
                diff(&format!("{path}[{i}]"), va, vb, out);
            }
        }
        _ => {
            if a != b {
                out.push(format!("{path}: oracle={a} ours={b}"));
            }
        }
    }
}

fn error_indices(doc: &Value) -> Vec<u64> {
    let mut v: Vec<u64> = doc["errors"]
        .as_array()
        .map(|a| a.iter().filter_map(|e| e["index"].as_u64()).collect())
        .unwrap_or_default();
    v.sort_unstable();
    v.dedup();
    v
}

fn ours(stream: &Path, before_delete: bool) -> Value {
    let bytes = std::fs::read(stream).expect("read stream");
    let limits = egui_a2ui::Limits::default();
    let mut frames = egui_a2ui::stream::parse_document(&bytes, &limits);
    if before_delete {
        frames.pop();
    }
    let mut store = SurfaceStore::basic();
    for f in frames {
        let _ = store.apply(f);
    }
    egui_a2ui::conformance::dump(&store, &FunctionRegistry::basic())
}

/// Fixtures equal to the reference (90 of 91 when this was written). The count may only go
/// up: raise it when more fixtures match; a drop means a regression or a lost golden.
const MIN_EQUAL: usize = 90;

/// One documented deviation: a fixture, one differing path in it, and why we are right.
#[derive(Debug)]
struct Deviation {
    fixture: String,
    path: String,
    reason: String,
}

/// The machine-readable table of tests/conformance_deviations.md: rows of the form
/// ``| `fixture` | `path` | reason |``.
fn deviations() -> Vec<Deviation> {
    let text = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/conformance_deviations.md"),
    )
    .expect("read tests/conformance_deviations.md");
    let mut out = Vec::new();
    for line in text.lines() {
        let Some(row) = line.strip_prefix("| `") else {
            continue;
        };
        let cells: Vec<&str> = row.trim_end_matches('|').split(" | ").collect();
        let [fixture, path, reason] = cells.as_slice() else {
            panic!("deviation row must be | `fixture` | `path` | reason |: {line}");
        };
        let unquote = |c: &str| {
            c.trim()
                .trim_start_matches('`')
                .trim_end_matches('`')
                .to_owned()
        };
        let d = Deviation {
            fixture: unquote(fixture),
            path: unquote(path),
            reason: reason.trim().to_owned(),
        };
        assert!(
            !d.fixture.is_empty() && !d.path.is_empty() && !d.reason.is_empty(),
            "incomplete deviation row: {line}"
        );
        out.push(d);
    }
    out
}

/// The path of one diff line (`surfaces[0].tree.props.text: oracle=.. ours=..`).
fn diff_path(line: &str) -> &str {
    line.split(": ").next().unwrap_or_default()
}

#[test]
fn every_fixture_matches_the_reference_core() {
    let deviations = deviations();
    let mut used = vec![false; deviations.len()];
    let mut equal = 0;
    let mut failures = Vec::new();
    let mut pending = 0;
    let all = goldens();
    for golden in &all {
        let rel = golden
            .strip_prefix(PathBuf::from(DATA).join("conformance/expected"))
            .expect("prefix")
            .to_string_lossy()
            .into_owned();
        let expected: Value =
            serde_json::from_slice(&std::fs::read(golden).expect("read golden")).expect("json");
        let (src, before_delete) = source_of(golden);
        let got = ours(&src, before_delete);
        let mut d = Vec::new();
        diff("surfaces", &expected["surfaces"], &got["surfaces"], &mut d);
        let (ei, gi) = (error_indices(&expected), error_indices(&got));
        if ei != gi {
            d.push(format!("errors: oracle rejects {ei:?}, ours {gi:?}"));
        }
        if d.is_empty() {
            equal += 1;
            continue;
        }
        if PENDING.iter().any(|(name, _)| rel == *name) {
            pending += 1;
            continue;
        }
        // A difference passes only when a row names this fixture and exactly this path.
        let undocumented: Vec<&String> = d
            .iter()
            .filter(|line| {
                let path = diff_path(line);
                let hit = deviations
                    .iter()
                    .position(|dev| dev.fixture == rel && dev.path == path);
                if let Some(i) = hit {
                    used[i] = true;
                }
                hit.is_none()
            })
            .collect();
        if !undocumented.is_empty() {
            failures.push(format!(
                "{rel}:\n  {}",
                undocumented
                    .iter()
                    .map(|s| s.as_str())
                    .collect::<Vec<_>>()
                    .join("\n  ")
            ));
        }
    }
    let stale: Vec<String> = deviations
        .iter()
        .zip(&used)
        .filter(|(_, used)| !**used)
        .map(|(d, _)| format!("{} {} ({})", d.fixture, d.path, d.reason))
        .collect();
    eprintln!(
        "{equal} of {} fixtures equal to the reference ({pending} pending, {} documented \
         deviations)",
        all.len(),
        deviations.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        stale.is_empty(),
        "deviations listed in tests/conformance_deviations.md that no longer occur (remove \
         them):\n{}",
        stale.join("\n")
    );
    assert!(all.len() >= 80, "goldens went missing: {}", all.len());
    assert!(
        equal >= MIN_EQUAL,
        "only {equal} fixtures equal to the reference, expected at least {MIN_EQUAL}"
    );
}
