//! The fuzz targets' code (`fuzz/fuzz_targets/*.rs`, run by `scripts/fuzz.sh`) as a replay
//! harness: the seed corpus of `fuzz/seeds/` runs through it here, and any input a campaign
//! finds crashing goes into `tests/data/fuzz/<target>/` with a test below that must run it
//! to the end without a panic.

use std::path::PathBuf;

use egui_a2ui::eval::{EvalContext, FunctionRegistry};
use egui_a2ui::stream::StreamDecoder;
use egui_a2ui::{Catalog, Limits, Renderer, SurfaceStore, Version};
use serde_json::json;

/// The body of `fuzz/fuzz_targets/stream_apply.rs`.
fn stream_apply(data: &[u8]) {
    let mut store = SurfaceStore::basic();
    store.feed_document(data);
    let split = data.first().map_or(1, |b| usize::from(*b % 16) + 1);
    let mut dec = StreamDecoder::new(Limits::default());
    let mut store2 = SurfaceStore::basic();
    for chunk in data.chunks(split) {
        let frames = dec.feed(chunk);
        for f in frames {
            let _ = store2.apply(f);
        }
    }
    let frames = dec.finish();
    for f in frames {
        let _ = store2.apply(f);
    }
    let _ = egui_a2ui::conformance::dump(&store2, &FunctionRegistry::basic());
}

/// The body of `fuzz/fuzz_targets/render_frame.rs`, with a fresh egui context.
fn render_frame(data: &[u8]) {
    let mut r = Renderer::new(Catalog::basic());
    r.feed_document(data);
    let ctx = egui::Context::default();
    for _ in 0..2 {
        let mut out = ctx.run_ui(egui::RawInput::default(), |ui| {
            let _ = r.ui(ui);
        });
        out.textures_delta.clear();
    }
}

/// The body of `fuzz/fuzz_targets/format_string.rs`.
fn format_string(data: &[u8]) -> Vec<serde_json::Value> {
    let Ok(template) = std::str::from_utf8(data) else {
        return Vec::new();
    };
    let model = json!({"a": 1, "b": "x", "l": [1, 2, {"c": null}], "d": "2026-01-31T10:00:00Z"});
    let functions = FunctionRegistry::basic();
    let limits = Limits::default();
    [Version::V0_9, Version::V1_0]
        .into_iter()
        .map(|version| {
            let cx = EvalContext::new(&model, "/l/2", version, &functions, &limits);
            cx.resolve(&json!({"call": "formatString", "args": {"value": template}}))
        })
        .collect()
}

/// The seed corpus kept in the repo runs through each target's code: the replay harness
/// above is the fuzz targets' code, and every seed is a valid starting point.
#[test]
fn the_seed_corpus_runs_through_every_target() {
    let seeds = |t: &str| {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("fuzz/seeds")
            .join(t);
        let files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.expect("dir entry").path())
            .collect();
        assert!(files.len() >= 10, "{t}: only {} seeds", files.len());
        files
    };
    for p in seeds("stream_apply") {
        stream_apply(&std::fs::read(&p).expect("seed"));
    }
    for p in seeds("render_frame") {
        render_frame(&std::fs::read(&p).expect("seed"));
    }
    for p in seeds("format_string") {
        let out = format_string(&std::fs::read(&p).expect("seed"));
        assert_eq!(out.len(), 2, "{}", p.display());
        // A string, or null for a template the expression syntax rejects.
        assert!(
            out.iter().all(|v| v.is_string() || v.is_null()),
            "{}: formatString must give a string or null: {out:?}",
            p.display()
        );
    }
}
