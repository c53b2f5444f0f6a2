//! `frame`: one full headless egui frame (`Context::run_ui` + `ctx.tessellate`) of a surface
//! with N = 100, 1,000 and 3,000 mixed components (Text bound to data, Button, TextField,
//! CheckBox, Slider, Row/Column nesting), versus a hand-written egui function drawing the
//! same widgets in the same layout with the same data.
//! Target: A2UI / hand-written ≤ 1.3 at N = 1,000, AccessKit off and on (culling off, the
//! default). Also reported: the same pairs with `RendererOptions::cull_offscreen` on (rows
//! scrolled out of view not drawn; not the target's figure), and a frame of an unchanged
//! surface versus its first frame.

mod common;

use common::*;
use egui_a2ui::{Catalog, Renderer, RendererOptions};

/// The hand-written side's data: what the A2UI data model holds.
struct Item {
    name: String,
    note: String,
    done: bool,
    level: f64,
}

struct Hand {
    items: Vec<Item>,
}

impl Hand {
    fn new(rows: usize) -> Self {
        let items = (0..rows)
            .map(|i| {
                let v = item(i);
                Item {
                    name: v["name"].as_str().unwrap_or_default().to_owned(),
                    note: v["note"].as_str().unwrap_or_default().to_owned(),
                    done: v["done"].as_bool().unwrap_or_default(),
                    level: v["level"].as_f64().unwrap_or_default(),
                }
            })
            .collect();
        Self { items }
    }

    /// The same tree as `mixed_components`: a Column of section Columns of Rows, each row a
    /// label, a button, a labelled text field, a check box and a labelled slider.
    fn ui(&mut self, ui: &mut egui::Ui) {
        egui::ScrollArea::vertical().show(ui, |ui| {
            ui.vertical(|ui| {
                for section in self.items.chunks_mut(ROWS_PER_SECTION) {
                    ui.vertical(|ui| {
                        for it in section {
                            ui.horizontal(|ui| {
                                ui.label(&it.name);
                                if ui.button("Press").clicked() {
                                    it.done = !it.done;
                                }
                                ui.vertical(|ui| {
                                    ui.label("Note");
                                    ui.text_edit_singleline(&mut it.note);
                                });
                                ui.vertical(|ui| {
                                    ui.checkbox(&mut it.done, "Done");
                                });
                                ui.vertical(|ui| {
                                    ui.label("Level");
                                    ui.add(egui::Slider::new(&mut it.level, 0.0..=100.0));
                                });
                            });
                        }
                    });
                }
            });
        });
    }
}

fn a2ui(n: usize) -> (Renderer, usize) {
    a2ui_surface("s", n, false)
}

/// A renderer holding surface `sid` of about `n` mixed components; `cull`:
/// `RendererOptions::cull_offscreen`.
fn a2ui_surface(sid: &str, n: usize, cull: bool) -> (Renderer, usize) {
    let (doc, count) = mixed_surface(sid, n);
    let mut r = Renderer::new(Catalog::basic()).with_options(RendererOptions {
        show_surface_header: false,
        cull_offscreen: cull,
        ..Default::default()
    });
    r.feed_document(&doc);
    assert!(r.store().errors().is_empty(), "{:?}", r.store().errors());
    (r, count)
}

fn a2ui_ui(r: &mut Renderer, ui: &mut egui::Ui) {
    egui::ScrollArea::vertical().show(ui, |ui| {
        let events = r.ui(ui);
        debug_assert!(events.is_empty(), "{events:?}");
    });
}

/// A context, warmed up (fonts loaded, layouts settled).
fn context(
    accesskit: bool,
    input: &egui::RawInput,
    mut f: impl FnMut(&mut egui::Ui),
) -> egui::Context {
    let ctx = egui::Context::default();
    if accesskit {
        ctx.enable_accesskit();
    }
    for _ in 0..5 {
        frame(&ctx, input, &mut f);
    }
    ctx
}

/// The same pairing as the main figure with `RendererOptions::cull_offscreen` on: rows
/// scrolled out of the 1,024-point-high view are not drawn (the hand-written side draws
/// everything, as egui does). Not the figure, which is with culling off.
fn culled(input: &egui::RawInput, n: usize) {
    for accesskit in [false, true] {
        let (mut r, count) = a2ui_surface("s", n, true);
        let mut hand = Hand::new(rows_for(n));
        let ak = if accesskit { "accesskit" } else { "plain" };
        let actx = context(accesskit, input, |ui| a2ui_ui(&mut r, ui));
        let hctx = context(accesskit, input, |ui| hand.ui(ui));
        let reps = (20_000 / n).clamp(2, 50);
        let p = paired(
            15,
            reps,
            || {
                frame(&actx, input, |ui| a2ui_ui(&mut r, ui));
            },
            || {
                frame(&hctx, input, |ui| hand.ui(ui));
            },
        );
        summary(
            "frame",
            &format!("N={count} {ak}, culling on: a2ui us"),
            us(p.a),
            None,
        );
        summary(
            "frame",
            &format!("N={count} {ak}, culling on: a2ui / hand-written"),
            p.ratio,
            None,
        );
    }
}

/// A frame of an unchanged surface versus its first frame, AccessKit off, in one warm egui
/// context (fonts loaded). The first frame is that of a surface just fed to a new renderer,
/// under a surface id the context has never seen (so no layout memory, no resolution
/// cache; egui's passes to settle the layout included); the unchanged frame is the same
/// surface drawn again with nothing changed since its last frame. Rounds interleave the
/// two; the figure is the median per-round ratio.
fn unchanged_vs_first(input: &egui::RawInput, n: usize) {
    let ctx = context(false, input, |_| {});
    let (mut steady, count) = a2ui_surface("steady", n, false);
    for _ in 0..5 {
        frame(&ctx, input, |ui| a2ui_ui(&mut steady, ui));
    }
    let rounds = if bench_mode() { 15 } else { 1 };
    let mut ratios = Vec::with_capacity(rounds);
    let (mut firsts, mut unchanged) = (Vec::new(), Vec::new());
    for round in 0..rounds {
        let (mut fresh, _) = a2ui_surface(&format!("fresh{round}"), n, false);
        let t = std::time::Instant::now();
        frame(&ctx, input, |ui| a2ui_ui(&mut fresh, ui));
        let first = t.elapsed().as_secs_f64();
        // As many unchanged frames as fit the first frame's time, at least 3.
        let t = std::time::Instant::now();
        let mut reps = 0u32;
        while reps < 3 || t.elapsed().as_secs_f64() < first {
            frame(&ctx, input, |ui| a2ui_ui(&mut steady, ui));
            reps += 1;
        }
        let again = t.elapsed().as_secs_f64() / f64::from(reps);
        firsts.push(first);
        unchanged.push(again);
        ratios.push(again / first);
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    summary(
        "frame",
        &format!("N={count} first frame of a surface us"),
        median(&mut firsts) * 1e6,
        None,
    );
    summary(
        "frame",
        &format!("N={count} unchanged frame us"),
        median(&mut unchanged) * 1e6,
        None,
    );
    summary(
        "frame",
        &format!("N={count} unchanged frame / first frame"),
        median(&mut ratios),
        None,
    );
}

fn main() {
    let input = raw_input(1280.0, 1024.0);
    // Profiling hook (callgrind): `A2UI_PROFILE=a2ui|hand` draws 20 frames of N = 1,000
    // (`A2UI_PROFILE_ACCESSKIT=1`: AccessKit on; `A2UI_PROFILE_CULL=1`: culling on).
    if let Ok(which) = std::env::var("A2UI_PROFILE") {
        let accesskit = std::env::var_os("A2UI_PROFILE_ACCESSKIT").is_some();
        let cull = std::env::var_os("A2UI_PROFILE_CULL").is_some();
        let (mut r, _) = a2ui_surface("s", 1_000, cull);
        let mut hand = Hand::new(rows_for(1_000));
        let mut f: Box<dyn FnMut(&mut egui::Ui)> = if which == "hand" {
            Box::new(|ui| hand.ui(ui))
        } else {
            Box::new(|ui| a2ui_ui(&mut r, ui))
        };
        let ctx = context(accesskit, &input, &mut f);
        // `A2UI_PROFILE_FRAMES=<n>` (default 20): the count with 0 frames is the warm-up's,
        // to subtract for the steady frames alone.
        let frames = std::env::var("A2UI_PROFILE_FRAMES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(20);
        for _ in 0..frames {
            frame(&ctx, &input, &mut f);
        }
        return;
    }
    let sizes = if bench_mode() {
        vec![100, 1_000, 3_000]
    } else {
        vec![100]
    };
    let mut c = (!summary_only()).then(criterion);
    for &n in &sizes {
        for accesskit in [false, true] {
            let (mut r, count) = a2ui(n);
            let mut hand = Hand::new(rows_for(n));
            let ak = if accesskit { "accesskit" } else { "plain" };
            let actx = context(accesskit, &input, |ui| a2ui_ui(&mut r, ui));
            let hctx = context(accesskit, &input, |ui| hand.ui(ui));
            if let Some(c) = c.as_mut() {
                let mut g = c.benchmark_group(format!("frame/{ak}/{count}"));
                g.bench_function("a2ui", |b| {
                    b.iter(|| frame(&actx, &input, |ui| a2ui_ui(&mut r, ui)));
                });
                g.bench_function("hand_written", |b| {
                    b.iter(|| frame(&hctx, &input, |ui| hand.ui(ui)));
                });
                g.finish();
            }
            let reps = (20_000 / n).clamp(2, 50);
            let p = paired(
                15,
                reps,
                || {
                    frame(&actx, &input, |ui| a2ui_ui(&mut r, ui));
                },
                || {
                    frame(&hctx, &input, |ui| hand.ui(ui));
                },
            );
            let target = (n == 1_000).then_some(1.3);
            summary("frame", &format!("N={count} {ak}: a2ui us"), us(p.a), None);
            summary(
                "frame",
                &format!("N={count} {ak}: hand-written us"),
                us(p.b),
                None,
            );
            summary(
                "frame",
                &format!("N={count} {ak}: a2ui / hand-written"),
                p.ratio,
                target,
            );
        }
    }
    culled(&input, if bench_mode() { 1_000 } else { 100 });
    unchanged_vs_first(&input, if bench_mode() { 1_000 } else { 100 });
    if let Some(c) = c {
        c.final_summary();
    }
}
