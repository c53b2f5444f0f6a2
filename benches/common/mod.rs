//! Shared pieces of the benches: generated A2UI streams, headless egui frames, and a paired
//! (interleaved) timer that measures two workloads side by side so machine noise hits both.
//!
//! Every bench binary (harness = false) runs its criterion groups and then prints summary
//! lines `A2UI-SUMMARY<TAB>bench<TAB>figure<TAB>value<TAB>target<TAB>verdict`, which
//! `scripts/bench_summary.sh` gathers into one table. Set `A2UI_BENCH_SUMMARY_ONLY=1` to skip
//! the criterion groups. Without `--bench` on the command line (`cargo test --benches`) every
//! bench runs once on small inputs, as a smoke test.

#![allow(dead_code)]

use std::hint::black_box;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// The v0.9 basic catalog id.
pub const BASIC: &str = "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json";

/// Whether the binary runs as a real benchmark (`cargo bench`), not as a smoke test.
pub fn bench_mode() -> bool {
    std::env::args().any(|a| a == "--bench")
}

/// Whether to skip the criterion groups and print only the paired summary.
pub fn summary_only() -> bool {
    std::env::var_os("A2UI_BENCH_SUMMARY_ONLY").is_some_and(|v| v != "0")
}

/// Pick the full-size or the smoke-test value.
pub fn size(full: usize, smoke: usize) -> usize {
    if bench_mode() { full } else { smoke }
}

/// A criterion instance configured from the command line, with short defaults (the machine
/// is small and shared; the paired summary is the figure that counts).
pub fn criterion() -> criterion::Criterion {
    criterion::Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2))
        .configure_from_args()
}

/// One line of JSONL.
pub fn line(out: &mut Vec<u8>, v: &Value) {
    serde_json::to_writer(&mut *out, v).expect("serialize");
    out.push(b'\n');
}

/// `createSurface` for `sid`.
pub fn create(sid: &str) -> Value {
    json!({"version": "v0.9", "createSurface": {"surfaceId": sid, "catalogId": BASIC}})
}

/// `updateComponents` for `sid`.
pub fn components(sid: &str, comps: Vec<Value>) -> Value {
    json!({"version": "v0.9", "updateComponents": {"surfaceId": sid, "components": comps}})
}

/// `updateDataModel` for `sid`.
pub fn data(sid: &str, path: &str, value: Value) -> Value {
    json!({"version": "v0.9", "updateDataModel": {"surfaceId": sid, "path": path, "value": value}})
}

/// Rows of the mixed layout: one Row per data item with a bound Text, a Button (with its
/// label Text), a TextField, a CheckBox and a Slider: 7 components per row.
pub const PER_ROW: usize = 7;
/// Rows per section Column.
pub const ROWS_PER_SECTION: usize = 10;

/// How many rows make about `n` components (7 per row, one Column per 10 rows, a root).
pub fn rows_for(n: usize) -> usize {
    let per = PER_ROW as f64 + 1.0 / ROWS_PER_SECTION as f64;
    (((n.saturating_sub(1)) as f64 / per).round() as usize).max(1)
}

/// The components of row `i`.
pub fn row_components(i: usize) -> Vec<Value> {
    vec![
        json!({"id": format!("row{i}"), "component": "Row",
               "children": [format!("t{i}"), format!("b{i}"), format!("f{i}"), format!("c{i}"), format!("s{i}")]}),
        json!({"id": format!("t{i}"), "component": "Text", "text": {"path": format!("/items/{i}/name")}}),
        json!({"id": format!("b{i}"), "component": "Button", "child": format!("bt{i}"),
               "action": {"event": {"name": "press", "context": {"row": i}}}}),
        json!({"id": format!("bt{i}"), "component": "Text", "text": "Press"}),
        json!({"id": format!("f{i}"), "component": "TextField", "label": "Note",
               "value": {"path": format!("/items/{i}/note")}}),
        json!({"id": format!("c{i}"), "component": "CheckBox", "label": "Done",
               "value": {"path": format!("/items/{i}/done")}}),
        json!({"id": format!("s{i}"), "component": "Slider", "label": "Level",
               "value": {"path": format!("/items/{i}/level")}, "min": 0, "max": 100}),
    ]
}

/// The data item of row `i`.
pub fn item(i: usize) -> Value {
    json!({"name": format!("Item number {i}"), "note": format!("note {i}"),
           "done": i.is_multiple_of(3), "level": (i * 7 % 100) as f64})
}

/// Every component of a mixed surface with `rows` rows: a root Column of section Columns
/// of Rows.
pub fn mixed_components(rows: usize) -> Vec<Value> {
    let sections = rows.div_ceil(ROWS_PER_SECTION);
    let mut out = vec![json!({"id": "root", "component": "Column",
        "children": (0..sections).map(|s| format!("sec{s}")).collect::<Vec<_>>()})];
    for s in 0..sections {
        let lo = s * ROWS_PER_SECTION;
        let hi = (lo + ROWS_PER_SECTION).min(rows);
        out.push(json!({"id": format!("sec{s}"), "component": "Column",
            "children": (lo..hi).map(|i| format!("row{i}")).collect::<Vec<_>>()}));
        for i in lo..hi {
            out.extend(row_components(i));
        }
    }
    out
}

/// A JSONL stream creating surface `sid` with about `n` mixed components and their data.
/// Returns the stream and the exact component count.
pub fn mixed_surface(sid: &str, n: usize) -> (Vec<u8>, usize) {
    let rows = rows_for(n);
    let comps = mixed_components(rows);
    let count = comps.len();
    let mut out = Vec::new();
    line(&mut out, &create(sid));
    for chunk in comps.chunks(200) {
        line(&mut out, &components(sid, chunk.to_vec()));
    }
    let items: Vec<Value> = (0..rows).map(item).collect();
    line(&mut out, &data(sid, "/items", Value::Array(items)));
    (out, count)
}

/// The ingest stream: surfaces of 700 rows each (updateComponents in batches of 50
/// components, then one leaf updateDataModel per item field), until `min_bytes`.
pub fn ingest_stream(min_bytes: usize) -> Vec<u8> {
    let mut out = Vec::new();
    let mut s = 0;
    while out.len() < min_bytes {
        let sid = format!("surface{s}");
        line(&mut out, &create(&sid));
        let comps = mixed_components(700);
        for chunk in comps.chunks(50) {
            line(&mut out, &components(&sid, chunk.to_vec()));
        }
        for i in 0..700 {
            let it = item(i);
            if i.is_multiple_of(10) {
                line(&mut out, &data(&sid, &format!("/items/{i}"), it));
            } else if let Value::Object(m) = it {
                for (k, v) in m {
                    line(&mut out, &data(&sid, &format!("/items/{i}/{k}"), v));
                }
            }
        }
        s += 1;
    }
    out
}

/// Raw input for a headless frame of `w`×`h` points.
pub fn raw_input(w: f32, h: f32) -> egui::RawInput {
    egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(
            egui::Pos2::ZERO,
            egui::vec2(w, h),
        )),
        ..Default::default()
    }
}

/// One full headless frame: `run_ui` (with every pass egui asks for) and tessellation.
/// Returns the number of primitives, so the work cannot be optimised away.
pub fn frame(ctx: &egui::Context, input: &egui::RawInput, ui: impl FnMut(&mut egui::Ui)) -> usize {
    let out = ctx.run_ui(input.clone(), ui);
    let prims = ctx.tessellate(out.shapes, out.pixels_per_point);
    black_box(prims.len())
}

/// The figures of a paired measurement.
#[derive(Clone, Copy, Debug)]
pub struct Paired {
    /// Median time of one run of A.
    pub a: Duration,
    /// Median time of one run of B.
    pub b: Duration,
    /// Median of the per-round ratios A/B.
    pub ratio: f64,
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    if v.is_empty() {
        return f64::NAN;
    }
    v[v.len() / 2]
}

/// Time A and B interleaved: `rounds` rounds, each running A `reps` times then B `reps`
/// times (alternating which goes first). Reports the medians and the median per-round ratio.
pub fn paired(rounds: usize, reps: usize, mut a: impl FnMut(), mut b: impl FnMut()) -> Paired {
    let rounds = if bench_mode() { rounds } else { 1 };
    let reps = if bench_mode() { reps } else { 1 };
    let mut ta = Vec::with_capacity(rounds);
    let mut tb = Vec::with_capacity(rounds);
    let mut ratios = Vec::with_capacity(rounds);
    let time = |f: &mut dyn FnMut()| {
        let t = Instant::now();
        for _ in 0..reps {
            f();
        }
        t.elapsed().as_secs_f64() / reps as f64
    };
    for r in 0..rounds {
        let (x, y) = if r.is_multiple_of(2) {
            let x = time(&mut a);
            (x, time(&mut b))
        } else {
            let y = time(&mut b);
            (time(&mut a), y)
        };
        ta.push(x);
        tb.push(y);
        ratios.push(x / y);
    }
    Paired {
        a: Duration::from_secs_f64(median(&mut ta)),
        b: Duration::from_secs_f64(median(&mut tb)),
        ratio: median(&mut ratios),
    }
}

/// Time one workload: median of `rounds` rounds of `reps` runs.
pub fn single(rounds: usize, reps: usize, mut f: impl FnMut()) -> Duration {
    let p = paired(rounds, reps, &mut f, || {});
    p.a
}

/// Print one summary line (and a readable one).
pub fn summary(bench: &str, figure: &str, value: f64, target: Option<f64>) {
    let (target_s, verdict) = match target {
        Some(t) if value <= t => (format!("<= {t}"), "HOLDS"),
        Some(t) => (format!("<= {t}"), "FAILS"),
        None => ("-".to_owned(), "info"),
    };
    println!("A2UI-SUMMARY\t{bench}\t{figure}\t{value:.3}\t{target_s}\t{verdict}");
}

/// Print one summary line whose target is a floor (`value >= target` holds).
pub fn summary_at_least(bench: &str, figure: &str, value: f64, target: f64) {
    let verdict = if value >= target { "HOLDS" } else { "FAILS" };
    println!("A2UI-SUMMARY\t{bench}\t{figure}\t{value:.3}\t>= {target}\t{verdict}");
}

/// A duration in microseconds, for summary lines.
pub fn us(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}
