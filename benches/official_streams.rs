//! `official_streams`: the official A2UI example streams (v0.8 and v0.9, basic and minimal
//! catalogs, `tests/data/a2ui/specification/*/examples`) ingested as agents send them: one
//! compact JSON message per line, a few small messages per surface, each example into a
//! fresh store (or renderer), versus parsing the same lines with
//! `serde_json::from_str::<Value>` (the parse-only floor). Beside `ingest`'s large synthetic
//! stream, this is the many-small-messages case.
//!
//! The stores and renderers are built before each timed round (building them is reported on
//! its own), so the ratio is the cost of ingesting the messages.
//! Target: ingest ≤ 1.0 × parse-only.
//!
//! Profiling hook (callgrind): `A2UI_PROFILE=v0.8|v0.9|parse-v0.8|parse-v0.9` (see `main`).

mod common;

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Instant;

use common::*;
use egui_a2ui::model::SurfaceStore;
use egui_a2ui::{Catalog, Renderer};
use serde_json::Value;

/// One example as JSONL (one compact message per line).
struct Stream {
    jsonl: Vec<u8>,
    messages: usize,
}

fn examples(version_dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![version_dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "json")
                && p.parent()
                    .and_then(Path::file_name)
                    .is_some_and(|n| n == "examples")
            {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

fn stream(path: &Path) -> Stream {
    let doc: Value = serde_json::from_slice(&std::fs::read(path).expect("read example"))
        .expect("example is JSON");
    let messages = match doc {
        Value::Array(a) => a,
        Value::Object(mut o) => match o.remove("messages") {
            Some(Value::Array(a)) => a,
            _ => vec![Value::Object(o)],
        },
        other => vec![other],
    };
    let mut jsonl = Vec::new();
    for m in &messages {
        line(&mut jsonl, m);
    }
    Stream {
        jsonl,
        messages: messages.len(),
    }
}

fn parse_only(streams: &[Stream]) -> usize {
    let mut n = 0;
    for s in streams {
        for l in s.jsonl.split(|b| *b == b'\n') {
            if l.is_empty() {
                continue;
            }
            let v: Value = serde_json::from_slice(l).expect("valid line");
            black_box(&v);
            n += 1;
        }
    }
    n
}

/// Median of `rounds` interleaved rounds of `PASSES` passes over the streams: `setup`
/// builds one fresh target per stream and pass (untimed), `a` ingests every stream into its
/// target, `b` is the parse-only floor. Returns seconds per pass (median a, median b) and
/// the median per-round ratio a/b.
fn paired_with_setup<T>(
    rounds: usize,
    streams: &[Stream],
    setup: impl Fn() -> T,
    a: impl Fn(&mut T, &Stream),
) -> (f64, f64, f64) {
    const PASSES: usize = 8;
    let (rounds, passes) = if bench_mode() {
        (rounds, PASSES)
    } else {
        (1, 1)
    };
    let (mut ta, mut tb, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for r in 0..rounds {
        let mut targets: Vec<T> = (0..passes * streams.len()).map(|_| setup()).collect();
        let time_a = |targets: &mut Vec<T>| {
            let t = Instant::now();
            for (target, s) in targets.iter_mut().zip(streams.iter().cycle()) {
                a(target, s);
            }
            t.elapsed().as_secs_f64() / passes as f64
        };
        let time_b = || {
            let t = Instant::now();
            for _ in 0..passes {
                black_box(parse_only(streams));
            }
            t.elapsed().as_secs_f64() / passes as f64
        };
        let (x, y) = if r.is_multiple_of(2) {
            let x = time_a(&mut targets);
            (x, time_b())
        } else {
            let y = time_b();
            (time_a(&mut targets), y)
        };
        black_box(&targets);
        ta.push(x);
        tb.push(y);
        ratios.push(x / y);
    }
    let med = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    (med(&mut ta), med(&mut tb), med(&mut ratios))
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/a2ui/specification");
    let mut all = Vec::new();
    for (label, dir) in [("v0.8", "v0_8"), ("v0.9", "v0_9")] {
        let streams: Vec<Stream> = examples(&root.join(dir))
            .iter()
            .map(|p| stream(p))
            .collect();
        assert!(!streams.is_empty(), "no {label} examples under {root:?}");
        let msgs: usize = streams.iter().map(|s| s.messages).sum();
        let bytes: usize = streams.iter().map(|s| s.jsonl.len()).sum();
        println!(
            "official {label} streams: {} examples, {msgs} messages, {bytes} bytes",
            streams.len()
        );
        all.push((label, streams));
    }
    // Profiling hook (callgrind): `A2UI_PROFILE=v0.8|v0.9` ingests that version's examples
    // 20 times (each into a fresh store), `A2UI_PROFILE=parse-v0.8|parse-v0.9` parses them
    // only, as the floor does.
    if let Ok(which) = std::env::var("A2UI_PROFILE") {
        let (parse, label) = match which.strip_prefix("parse-") {
            Some(l) => (true, l.to_owned()),
            None => (false, which.clone()),
        };
        let streams = &all
            .iter()
            .find(|(l, _)| *l == label)
            .expect("A2UI_PROFILE names v0.8 or v0.9")
            .1;
        for _ in 0..20 {
            if parse {
                black_box(parse_only(streams));
            } else {
                for s in streams {
                    let mut store = SurfaceStore::basic();
                    store.feed_document(&s.jsonl);
                    black_box(&store);
                }
            }
        }
        return;
    }
    // Every example applies cleanly (the bench measures ingest, not error reporting).
    for (label, streams) in &all {
        for s in streams {
            let mut store = SurfaceStore::basic();
            store.feed_document(&s.jsonl);
            assert!(
                store.errors().is_empty(),
                "{label}: {:?}",
                &store.errors()[..1]
            );
        }
    }
    let every: Vec<Stream> = all
        .iter()
        .flat_map(|(_, s)| s.iter())
        .map(|s| Stream {
            jsonl: s.jsonl.clone(),
            messages: s.messages,
        })
        .collect();
    let messages: usize = every.iter().map(|s| s.messages).sum();

    // Each round ingests the whole set once; several passes per round for a stable time.
    let rounds = 21;
    let (sa, sb, sr) = paired_with_setup(rounds, &every, SurfaceStore::basic, |st, s| {
        st.feed_document(&s.jsonl);
    });
    let (ra, _, rr) = paired_with_setup(
        rounds,
        &every,
        || Renderer::new(Catalog::basic()),
        |r, s| {
            r.feed_jsonl(&s.jsonl);
            r.finish_jsonl();
        },
    );
    let build = single(rounds, 1, || {
        black_box(Renderer::new(Catalog::basic()));
    });
    let per_msg = |secs: f64| secs * 1e6 / messages as f64;
    summary(
        "official",
        "messages (v0.8 + v0.9 examples)",
        messages as f64,
        None,
    );
    summary("official", "parse-only µs / message", per_msg(sb), None);
    summary(
        "official",
        "store.feed_document µs / message",
        per_msg(sa),
        None,
    );
    summary(
        "official",
        "renderer.feed_jsonl µs / message",
        per_msg(ra),
        None,
    );
    summary(
        "official",
        "Renderer::new µs (not in ratios)",
        us(build),
        None,
    );
    for (label, streams) in &all {
        let (_, _, r) = paired_with_setup(rounds, streams, SurfaceStore::basic, |st, s| {
            st.feed_document(&s.jsonl);
        });
        summary(
            "official",
            &format!("{label}: feed_document / parse-only"),
            r,
            None,
        );
    }
    summary("official", "feed_document / parse-only", sr, Some(1.0));
    summary("official", "feed_jsonl / parse-only", rr, Some(1.0));
}
