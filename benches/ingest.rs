//! `ingest`: a generated v0.9 JSONL stream (≥ 5 MB of createSurface, updateComponents with
//! mixed components, updateDataModel) applied to a fresh store, versus parsing the same
//! lines with `serde_json::from_slice::<Value>` (the parse-only floor).
//! Target: ingest ≤ 1.0 × parse-only (issue #15: parse straight into our types).

mod common;

use std::hint::black_box;

use common::*;
use criterion::Throughput;
use egui_a2ui::model::SurfaceStore;
use egui_a2ui::{Catalog, Renderer};
use serde_json::Value;

fn parse_only(doc: &[u8]) -> usize {
    let mut n = 0;
    for l in doc.split(|b| *b == b'\n') {
        if l.is_empty() {
            continue;
        }
        let v: Value = serde_json::from_slice(l).expect("valid line");
        black_box(&v);
        n += 1;
    }
    n
}

fn ingest_store(doc: &[u8]) -> SurfaceStore {
    let mut s = SurfaceStore::basic();
    s.feed_document(doc);
    s
}

fn ingest_renderer(doc: &[u8]) -> Renderer {
    let mut r = Renderer::new(Catalog::basic());
    r.feed_jsonl(doc);
    r.finish_jsonl();
    r
}

fn main() {
    let doc = ingest_stream(size(5 * 1024 * 1024, 64 * 1024));
    // Profiling hook (callgrind): `A2UI_PROFILE=parse|document|jsonl` runs that side once.
    if let Ok(which) = std::env::var("A2UI_PROFILE") {
        match which.as_str() {
            "parse" => drop(black_box(parse_only(&doc))),
            "document" => drop(black_box(ingest_store(&doc))),
            _ => drop(black_box(ingest_renderer(&doc))),
        }
        return;
    }
    let lines = parse_only(&doc);
    {
        let s = ingest_store(&doc);
        assert!(s.errors().is_empty(), "{:?}", &s.errors()[..1]);
        let comps: usize = s.surfaces().map(|s| s.components().len()).sum();
        println!(
            "ingest stream: {} bytes, {lines} messages, {} surfaces, {comps} components",
            doc.len(),
            s.surfaces().count()
        );
    }

    if !summary_only() {
        let mut c = criterion();
        let mut g = c.benchmark_group("ingest");
        g.throughput(Throughput::Bytes(doc.len() as u64));
        g.bench_function("parse_only", |b| b.iter(|| parse_only(black_box(&doc))));
        g.bench_function("store_feed_document", |b| {
            b.iter(|| ingest_store(black_box(&doc)));
        });
        g.bench_function("renderer_feed_jsonl", |b| {
            b.iter(|| ingest_renderer(black_box(&doc)));
        });
        g.finish();
        c.final_summary();
    }

    let p = paired(
        15,
        1,
        || {
            black_box(ingest_store(&doc));
        },
        || {
            black_box(parse_only(&doc));
        },
    );
    let r = paired(
        15,
        1,
        || {
            black_box(ingest_renderer(&doc));
        },
        || {
            black_box(parse_only(&doc));
        },
    );
    let mb = doc.len() as f64 / 1e6;
    summary("ingest", "parse-only ms", p.b.as_secs_f64() * 1e3, None);
    summary(
        "ingest",
        "store.feed_document ms",
        p.a.as_secs_f64() * 1e3,
        None,
    );
    summary(
        "ingest",
        "renderer.feed_jsonl ms",
        r.a.as_secs_f64() * 1e3,
        None,
    );
    summary("ingest", "parse-only MB/s", mb / p.b.as_secs_f64(), None);
    summary("ingest", "feed_document / parse-only", p.ratio, Some(1.0));
    summary("ingest", "feed_jsonl / parse-only", r.ratio, Some(1.0));
}
