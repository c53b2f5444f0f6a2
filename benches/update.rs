//! `update`: one leaf `updateDataModel` plus the next frame on a 10,000-component surface
//! versus on a 100-component surface.
//! Target: apply-time ratio ≤ 2 (no whole-surface work on a leaf change).

mod common;

use std::hint::black_box;

use common::*;
use egui_a2ui::{Catalog, Renderer, RendererOptions};
use serde_json::Value;

fn surface(n: usize) -> (Renderer, usize) {
    let (doc, count) = mixed_surface("s", n);
    let mut r = Renderer::new(Catalog::basic()).with_options(RendererOptions {
        show_surface_header: false,
        ..Default::default()
    });
    r.feed_document(&doc);
    assert!(r.store().errors().is_empty(), "{:?}", r.store().errors());
    (r, count)
}

/// Two alternating leaf updates of row 5's name (each one really changes the model).
fn leaf_updates() -> [Value; 2] {
    [
        data("s", "/items/5/name", Value::from("Renamed A")),
        data("s", "/items/5/name", Value::from("Renamed B")),
    ]
}

fn draw(ctx: &egui::Context, input: &egui::RawInput, r: &mut Renderer) -> usize {
    frame(ctx, input, |ui| {
        egui::ScrollArea::vertical().show(ui, |ui| {
            black_box(r.ui(ui));
        });
    })
}

fn main() {
    let input = raw_input(1280.0, 1024.0);
    let (big_n, small_n) = if bench_mode() {
        (10_000, 100)
    } else {
        (300, 100)
    };
    let (mut big, big_count) = surface(big_n);
    let (mut small, small_count) = surface(small_n);
    let bctx = egui::Context::default();
    let sctx = egui::Context::default();
    for _ in 0..3 {
        draw(&bctx, &input, &mut big);
        draw(&sctx, &input, &mut small);
    }
    let updates = leaf_updates();
    let mut k = 0usize;
    let mut apply = |r: &mut Renderer| {
        k += 1;
        r.apply(&updates[k % 2])
            .into_result()
            .expect("leaf update applies");
    };

    if !summary_only() {
        let mut c = criterion();
        let mut g = c.benchmark_group("update");
        g.bench_function(format!("apply/{big_count}"), |b| b.iter(|| apply(&mut big)));
        g.bench_function(format!("apply/{small_count}"), |b| {
            b.iter(|| apply(&mut small));
        });
        g.bench_function(format!("apply+frame/{big_count}"), |b| {
            b.iter(|| {
                apply(&mut big);
                draw(&bctx, &input, &mut big)
            });
        });
        g.bench_function(format!("apply+frame/{small_count}"), |b| {
            b.iter(|| {
                apply(&mut small);
                draw(&sctx, &input, &mut small)
            });
        });
        g.finish();
        c.final_summary();
    }

    // Apply alone: many reps per round (a leaf write is sub-microsecond territory).
    let mut k = 0usize;
    let mut apply_big = || {
        k += 1;
        big.apply(&updates[k % 2]).into_result().expect("applies");
    };
    let mut j = 0usize;
    let mut apply_small = || {
        j += 1;
        small.apply(&updates[j % 2]).into_result().expect("applies");
    };
    let p = paired(31, 2_000, &mut apply_big, &mut apply_small);
    summary("update", &format!("apply on {big_count} us"), us(p.a), None);
    summary(
        "update",
        &format!("apply on {small_count} us"),
        us(p.b),
        None,
    );
    summary(
        "update",
        &format!("apply({big_count}) / apply({small_count})"),
        p.ratio,
        Some(2.0),
    );
    // The next frame after the update (information: the frame draws every component).
    let mut k = 0usize;
    let mut j = 0usize;
    let f = paired(
        7,
        1,
        || {
            k += 1;
            big.apply(&updates[k % 2]).into_result().expect("applies");
            draw(&bctx, &input, &mut big);
        },
        || {
            j += 1;
            small.apply(&updates[j % 2]).into_result().expect("applies");
            draw(&sctx, &input, &mut small);
        },
    );
    summary(
        "update",
        &format!("apply+frame on {big_count} us"),
        us(f.a),
        None,
    );
    summary(
        "update",
        &format!("apply+frame on {small_count} us"),
        us(f.b),
        None,
    );
}
