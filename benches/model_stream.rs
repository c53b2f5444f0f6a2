//! `model_stream`: A2UI inside model text (`<a2ui-json>` blocks), on the two recorded
//! answers in `assets/samples/model/`.
//!
//! 1. First drawn component: how many bytes of the answer must have arrived before the
//!    first component is in the store and drawn, streaming in 4-byte chunks through
//!    `Renderer::feed_model_text` versus whole-message parsing (`parse_response`, which
//!    needs the closing tag), and what that is in seconds at 40 tokens/s (≈ 4 bytes per
//!    token), plus the CPU time spent up to that first frame.
//! 2. Throughput: the model-text parser over the answers (eight copies) in 4-byte,
//!    64-byte and 4 KiB chunks, versus plain JSONL framing (`stream::parse_document`) of
//!    the same messages; for the configuration `ModelTextStream` runs (basic catalogs,
//!    partial messages with only what changed; target: within 2x of JSONL at every chunk
//!    size) and for the reference's partial messages (every reachable component at every
//!    chunk). Beside the stream rows, the old floor: cloning and dropping the messages that
//!    configuration yields as JSON values, timed against the same JSONL framing (what
//!    making them as values cost at least; the parser now yields them shared, a partial
//!    update holding its components, so it no longer pays this).
//! 3. Express: the booking answer with its block in A2UI Express
//!    (`tests/data/model_text/restaurant_booking_v09.express.txt`, decompiled by the
//!    official SDK) against its JSON twin (the recorded answer), eight copies each, in
//!    4-byte, 64-byte and 4 KiB chunks through the stream configuration: time per answer,
//!    Express / JSON twin and Express / JSONL framing of the same messages; and how many
//!    bytes (tokens at ≈ 4 bytes) of each must arrive before the first component is drawn.

mod common;

use std::hint::black_box;
use std::time::Instant;

use common::*;
use egui_a2ui::stream::model_text::express::{ExpressCatalog, ExpressVersion};
use egui_a2ui::stream::model_text::{self, ModelTextOptions, ModelTextParser, ModelTextStream};
use egui_a2ui::{Catalog, Limits, Renderer};

const RECORDINGS: [(&str, &str); 2] = [
    ("v09 booking", "restaurant_booking_v09.txt"),
    ("v08 itinerary", "trip_itinerary_v08.txt"),
];
const TPS: f64 = 40.0;
const BYTES_PER_TOKEN: f64 = 4.0;

fn recording(file: &str) -> Vec<u8> {
    std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("assets/samples/model")
            .join(file),
    )
    .expect("recording")
}

/// Whether a frame of `r` draws any text shape.
fn draws_text(ctx: &egui::Context, input: &egui::RawInput, r: &mut Renderer) -> bool {
    let mut out = ctx.run_ui(input.clone(), |ui| {
        let _ = r.ui(ui);
    });
    out.textures_delta.clear();
    fn any_text(s: &egui::Shape) -> bool {
        match s {
            egui::Shape::Text(_) => true,
            egui::Shape::Vec(v) => v.iter().any(any_text),
            _ => false,
        }
    }
    out.shapes.iter().any(|c| any_text(&c.shape))
}

/// Streaming: bytes fed and CPU seconds until the first frame that draws a component.
fn first_drawn_streaming(bytes: &[u8], input: &egui::RawInput) -> (usize, f64) {
    let ctx = egui::Context::default();
    let mut r = Renderer::new(Catalog::basic());
    let mut s = ModelTextStream::new(Limits::default());
    let t = Instant::now();
    let mut fed = 0;
    for c in bytes.chunks(4) {
        r.feed_model_text(&mut s, c);
        fed += c.len();
        if r.store().surfaces().any(egui_a2ui::Surface::is_visible)
            && draws_text(&ctx, input, &mut r)
        {
            return (fed, t.elapsed().as_secs_f64());
        }
    }
    (usize::MAX, f64::NAN)
}

/// Whole-message: the block can only be parsed once its closing tag arrived.
fn first_drawn_whole(bytes: &[u8], input: &egui::RawInput) -> (usize, f64) {
    let text = std::str::from_utf8(bytes).expect("utf-8");
    let close = text.find(model_text::CLOSE_TAG).expect("close tag") + model_text::CLOSE_TAG.len();
    let ctx = egui::Context::default();
    let t = Instant::now();
    let parts = model_text::parse_response(&text[..close]).expect("parses");
    let mut r = Renderer::new(Catalog::basic());
    for m in parts.into_iter().flat_map(|p| p.a2ui.unwrap_or_default()) {
        let _ = r.apply(&m).into_result();
    }
    assert!(draws_text(&ctx, input, &mut r));
    (close, t.elapsed().as_secs_f64())
}

/// Parse `doc` in `chunk`-byte chunks with `options` (a fresh parser), counting parts.
fn parse_model_text(doc: &[u8], chunk: usize, options: fn() -> ModelTextOptions) -> usize {
    let mut p = ModelTextParser::new(options(), Limits::default());
    let mut n = 0;
    for c in doc.chunks(chunk) {
        n += p.feed(c).map(|v| v.len()).unwrap_or(0);
    }
    n += p.finish().map(|v| v.len()).unwrap_or(0);
    black_box(n)
}

/// JSONL framing of `jsonl` (what the parser is measured against).
fn jsonl_framing(jsonl: &[u8]) {
    black_box(egui_a2ui::stream::parse_document(jsonl, &Limits::default()).len());
}

/// The messages the stream configuration yields for `doc` in `chunk`-byte chunks, as
/// JSON values (the parser shares them; their values are built here, outside the timing).
fn yielded_messages(doc: &[u8], chunk: usize) -> Vec<serde_json::Value> {
    let mut p = ModelTextParser::new(stream_options(), Limits::default());
    let mut msgs = Vec::new();
    for c in doc.chunks(chunk) {
        for part in p.feed(c).unwrap_or_default() {
            msgs.extend(
                part.a2ui
                    .unwrap_or_default()
                    .into_iter()
                    .map(serde_json::Value::from),
            );
        }
    }
    msgs
}

/// Clone `msgs` and drop the copies (the least making those messages as JSON values
/// costs: what the parser paid before it yielded shared messages).
#[inline(never)]
fn clone_all(msgs: &[serde_json::Value]) -> usize {
    let copies: Vec<serde_json::Value> = msgs.to_vec();
    black_box(&copies).len()
}

/// What `ModelTextStream` (and so `Renderer::feed_model_text`) runs: the basic catalogs,
/// partial messages with only what changed.
fn stream_options() -> ModelTextOptions {
    ModelTextOptions::basic(None)
}

/// The reference's partial messages (every reachable component at every chunk), no
/// catalog: what `ModelTextParser::new(Default::default(), ..)` runs.
fn reference_options() -> ModelTextOptions {
    ModelTextOptions::default()
}

/// The Express twin of the booking answer (the same prose and messages).
fn express_twin() -> Vec<u8> {
    std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/model_text/restaurant_booking_v09.express.txt"),
    )
    .expect("express twin")
}

/// The stream configuration with the v0.9 basic catalog's Express signatures read once
/// (as a host sets them up once), not per block.
fn express_options() -> ModelTextOptions {
    static CAT: std::sync::OnceLock<std::sync::Arc<ExpressCatalog>> = std::sync::OnceLock::new();
    let mut o = ModelTextOptions::basic(None);
    o.express = Some(
        CAT.get_or_init(|| std::sync::Arc::new(ExpressCatalog::basic(ExpressVersion::V0_9)))
            .clone(),
    );
    o
}

/// Express twin ×`copies`, JSON twin ×`copies`, and JSONL of the same messages.
fn express_docs(copies: usize) -> (Vec<u8>, Vec<u8>, Vec<u8>) {
    let express = express_twin();
    let json = recording(RECORDINGS[0].1);
    let text = std::str::from_utf8(&json).expect("utf-8");
    let mut jsonl = Vec::new();
    for _ in 0..copies {
        for p in model_text::parse_response(text).expect("parses") {
            for m in p.a2ui.unwrap_or_default() {
                line(&mut jsonl, &m);
            }
        }
    }
    (express.repeat(copies), json.repeat(copies), jsonl)
}

/// The throughput document: the two answers, `copies` times, and JSONL of the same messages.
fn throughput_docs(copies: usize) -> (Vec<u8>, Vec<u8>) {
    let mut doc = Vec::new();
    let mut jsonl = Vec::new();
    for _ in 0..copies {
        for (_, file) in RECORDINGS {
            let bytes = recording(file);
            let text = std::str::from_utf8(&bytes).expect("utf-8");
            for p in model_text::parse_response(text).expect("parses") {
                for m in p.a2ui.unwrap_or_default() {
                    line(&mut jsonl, &m);
                }
            }
            doc.extend_from_slice(&bytes);
        }
    }
    (doc, jsonl)
}

/// `A2UI_MODEL_PROFILE=<chunk>` (or `jsonl`, or `floor<chunk>`: the messages yielded in
/// such chunks cloned and dropped, see [`clone_all`]; or `express<chunk>`: the Express
/// twin; or `new`: parsers made and dropped): one workload on the throughput document (a
/// parse; `A2UI_MODEL_PROFILE_RUNS` times, 20 unless set, the time per run printed) and
/// nothing else, for a profiler (`perf record`) or an instruction-count profiler
/// (`valgrind --tool=callgrind target/release/deps/model_stream-… --bench`).
fn profile_run(what: &str) {
    // `A2UI_MODEL_PROFILE_RUNS`: how many parses (20 unless set).
    let runs: usize = std::env::var("A2UI_MODEL_PROFILE_RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(20);
    if what == "new" {
        // `new`: a parser with the stream configuration made `runs` times (what a host
        // pays per `ModelTextStream`).
        drop(stream_options());
        let t = Instant::now();
        for _ in 0..runs {
            black_box(ModelTextParser::new(stream_options(), Limits::default()));
        }
        println!(
            "new: {runs} parsers, {:.1} us each",
            us(t.elapsed()) / runs as f64
        );
        return;
    }
    if let Some(chunk) = what.strip_prefix("express") {
        // `express<chunk>`: the Express twin ×8 in such chunks, 20 times.
        let chunk: usize = chunk.parse().expect("A2UI_MODEL_PROFILE: express<chunk>");
        let (express, _, _) = express_docs(8);
        drop(express_options());
        let mut n = 0;
        for _ in 0..runs {
            n += parse_model_text(&express, chunk, express_options);
        }
        println!(
            "express: {} bytes in {chunk}-byte chunks ×{runs}, {n} parts",
            express.len()
        );
        return;
    }
    let (doc, jsonl) = throughput_docs(8);
    // The basic catalogs are read once per process: not part of the run.
    drop(stream_options());
    if let Some(chunk) = what.strip_prefix("floor") {
        let chunk: usize = chunk.parse().expect("A2UI_MODEL_PROFILE: floor<chunk>");
        let yielded = yielded_messages(&doc, chunk);
        let n = clone_all(&yielded);
        println!("floor: {n} messages yielded in {chunk}-byte chunks, cloned and dropped");
        return;
    }
    if what == "jsonl" {
        let t = Instant::now();
        for _ in 0..runs {
            jsonl_framing(&jsonl);
        }
        println!(
            "jsonl: {} bytes ×{runs}, {:.1} us per run",
            jsonl.len(),
            us(t.elapsed()) / runs as f64
        );
    } else {
        let chunk: usize = what
            .parse()
            .expect("A2UI_MODEL_PROFILE: a chunk size or jsonl");
        let t = Instant::now();
        let n: usize = (0..runs)
            .map(|_| parse_model_text(&doc, chunk, stream_options))
            .sum();
        println!(
            "model text: {} bytes in {chunk}-byte chunks ×{runs}, {n} parts, {:.1} us per run",
            doc.len(),
            us(t.elapsed()) / runs as f64
        );
    }
}

fn main() {
    if let Ok(what) = std::env::var("A2UI_MODEL_PROFILE") {
        profile_run(&what);
        return;
    }
    let input = raw_input(1280.0, 1024.0);
    let bytes_per_s = TPS * BYTES_PER_TOKEN;
    for (label, file) in RECORDINGS {
        let bytes = recording(file);
        let (sb, s_cpu) = first_drawn_streaming(&bytes, &input);
        let (wb, w_cpu) = first_drawn_whole(&bytes, &input);
        println!(
            "{label}: {} bytes; first drawn component after {sb} bytes streaming, {wb} bytes whole-message",
            bytes.len()
        );
        summary(
            "model",
            &format!("{label}: first drawn, streaming: bytes"),
            sb as f64,
            None,
        );
        summary(
            "model",
            &format!("{label}: first drawn, whole msg: bytes"),
            wb as f64,
            None,
        );
        summary(
            "model",
            &format!("{label}: first drawn @40 tok/s, streaming s"),
            sb as f64 / bytes_per_s,
            None,
        );
        summary(
            "model",
            &format!("{label}: first drawn @40 tok/s, whole msg s"),
            wb as f64 / bytes_per_s,
            None,
        );
        summary(
            "model",
            &format!("{label}: CPU to first frame, streaming ms"),
            s_cpu * 1e3,
            None,
        );
        summary(
            "model",
            &format!("{label}: CPU to first frame, whole msg ms"),
            w_cpu * 1e3,
            None,
        );
    }

    // Throughput: the two answers, repeated, against JSONL framing of the same messages,
    // in 4-byte (a token at a time), 64-byte and 4 KiB chunks.
    let (doc, jsonl) = throughput_docs(size(8, 1));
    let mb = doc.len() as f64 / 1e6;
    let jmb = jsonl.len() as f64 / 1e6;
    let mut jsonl_time = Vec::new();
    for (config, options) in [
        ("stream", stream_options as fn() -> ModelTextOptions),
        ("reference", reference_options),
    ] {
        for chunk in [4usize, 64, 4096] {
            let p = paired(
                7,
                1,
                || {
                    parse_model_text(&doc, chunk, options);
                },
                || jsonl_framing(&jsonl),
            );
            jsonl_time.push(p.b.as_secs_f64());
            summary(
                "model",
                &format!("parser ({config}) MB/s, {chunk}-byte chunks"),
                mb / p.a.as_secs_f64(),
                None,
            );
            // The target: within 2x of JSONL framing for every chunk size (for the
            // configuration the renderer runs).
            summary(
                "model",
                &format!("parser ({config}) / JSONL time, {chunk}-byte chunks"),
                p.ratio,
                (config == "stream").then_some(2.0),
            );
            if config == "stream" {
                // The floor under that ratio: what the messages the parser yields cost to
                // make and drop (cloned here from one run's output), before any parsing,
                // scanning or bookkeeping. A parent is yielded again whenever a child of
                // it arrives (its placeholder replaced), so small chunks yield several
                // times the answer's component bytes.
                let yielded = yielded_messages(&doc, chunk);
                let f = paired(
                    7,
                    1,
                    || {
                        clone_all(&yielded);
                    },
                    || jsonl_framing(&jsonl),
                );
                summary(
                    "model",
                    &format!("floor: its messages' clone+drop / JSONL, {chunk}-byte chunks"),
                    f.ratio,
                    None,
                );
            }
        }
    }
    // Express: the booking answer in A2UI Express against its JSON twin.
    let (express, json_twin, twin_jsonl) = express_docs(size(8, 1));
    let answers = size(8, 1) as f64;
    println!(
        "express booking: {} bytes, its JSON twin {} bytes ({:.0} % fewer)",
        express.len() / size(8, 1),
        json_twin.len() / size(8, 1),
        100.0 * (1.0 - express.len() as f64 / json_twin.len() as f64)
    );
    for chunk in [4usize, 64, 4096] {
        let p = paired(
            7,
            1,
            || {
                parse_model_text(&express, chunk, express_options);
            },
            || {
                parse_model_text(&json_twin, chunk, express_options);
            },
        );
        summary(
            "model",
            &format!("express answer us, {chunk}-byte chunks"),
            us(p.a) / answers,
            None,
        );
        summary(
            "model",
            &format!("its JSON twin us, {chunk}-byte chunks"),
            us(p.b) / answers,
            None,
        );
        summary(
            "model",
            &format!("express / JSON twin time, {chunk}-byte chunks"),
            p.ratio,
            None,
        );
        let j = paired(
            7,
            1,
            || {
                parse_model_text(&express, chunk, express_options);
            },
            || jsonl_framing(&twin_jsonl),
        );
        summary(
            "model",
            &format!("express / JSONL time, {chunk}-byte chunks"),
            j.ratio,
            Some(2.0),
        );
    }
    let one = express_twin();
    let (eb, _) = first_drawn_streaming(&one, &input);
    let (jb, _) = first_drawn_streaming(&recording(RECORDINGS[0].1), &input);
    summary(
        "model",
        "express booking: first drawn, streaming: bytes",
        eb as f64,
        None,
    );
    // An Express answer is drawn no later, per token, than its JSON twin.
    summary(
        "model",
        "express / JSON twin bytes to first drawn",
        eb as f64 / jb as f64,
        Some(1.0),
    );

    jsonl_time.sort_by(f64::total_cmp);
    summary(
        "model",
        "JSONL framing MB/s (same messages)",
        jmb / jsonl_time
            .get(jsonl_time.len() / 2)
            .copied()
            .unwrap_or(f64::NAN),
        None,
    );
}
