//! `extended`: frames of the extended catalog's virtualised components (feature
//! `extended`). A Table bound to 100 and to 100,000 rows (sorted by a column, in a
//! 600-point-high screen: only the rows in view are laid out), and a line Chart of 1,000
//! and of 100,000 points (read and decimated once per data revision; a frame draws the
//! decimated series). Targets: frame(100k rows) / frame(100 rows) <= 1.5 and
//! frame(100k points) / frame(1k points) <= 1.5.

mod common;

use common::*;
use egui_a2ui::extended::CATALOG_ID;
use egui_a2ui::{Limits, Renderer, RendererOptions};
use serde_json::{Value, json};

fn create_extended(sid: &str) -> Value {
    json!({"version": "v0.9", "createSurface": {"surfaceId": sid, "catalogId": CATALOG_ID}})
}

fn renderer(doc: &[u8]) -> Renderer {
    // A host showing 100,000-row tables lets such a data model in (5 MB in one message).
    let limits = Limits {
        max_message_bytes: 64 * 1024 * 1024,
        max_line_bytes: 64 * 1024 * 1024,
        ..Limits::default()
    };
    let mut r = Renderer::with_limits(egui_a2ui::extended::catalog(), limits).with_options(
        RendererOptions {
            show_surface_header: false,
            ..Default::default()
        },
    );
    r.feed_document(doc);
    assert!(r.store().errors().is_empty(), "{:?}", r.store().errors());
    r
}

fn table_surface(n: usize) -> Renderer {
    let mut doc = Vec::new();
    line(&mut doc, &create_extended("t"));
    line(
        &mut doc,
        &components(
            "t",
            vec![
                json!({"id": "root", "component": "Table", "label": "Orders", "height": 520,
                "rows": {"path": "/rows"}, "rowKey": "id", "selection": {"path": "/selected"},
                "sort": {"path": "/sort"},
                "columns": [
                    {"key": "id", "label": "Id", "format": "number"},
                    {"key": "name", "label": "Name"},
                    {"key": "qty", "label": "Qty", "format": "number"},
                    {"key": "price", "label": "Price", "format": "currency", "currency": "EUR"},
                    {"key": "share", "label": "Share", "format": "percent"}
                ]}),
            ],
        ),
    );
    let rows: Vec<Value> = (0..n)
        .map(|i| {
            json!({"id": i, "name": format!("Item number {i}"), "qty": (i * 7) % 101,
                   "price": (i % 997) as f64 * 1.25, "share": (i % 100) as f64 / 100.0})
        })
        .collect();
    line(&mut doc, &data("t", "/rows", Value::Array(rows)));
    line(
        &mut doc,
        &data(
            "t",
            "/sort",
            json!({"key": "qty", "direction": "descending"}),
        ),
    );
    renderer(&doc)
}

fn chart_surface(n: usize) -> Renderer {
    let mut doc = Vec::new();
    line(&mut doc, &create_extended("c"));
    line(
        &mut doc,
        &components(
            "c",
            vec![
                json!({"id": "root", "component": "Chart", "kind": "line", "title": "Signal",
                "xAxisTitle": "t", "yAxisTitle": "v", "height": 400,
                "series": [{"label": "Signal", "values": {"path": "/v"}}]}),
            ],
        ),
    );
    let values: Vec<Value> = (0..n)
        .map(|i| json!(((i as f64) * 0.01).sin() * 100.0 + (i % 17) as f64))
        .collect();
    line(&mut doc, &data("c", "/v", Value::Array(values)));
    renderer(&doc)
}

/// Paired frames of the large and the small surface, with the summary lines.
fn compare(
    name: &str,
    unit: &str,
    sizes: &[usize],
    make: fn(usize) -> Renderer,
    c: &mut Option<criterion::Criterion>,
) {
    let input = raw_input(800.0, 600.0);
    let mut surfaces: Vec<(usize, Renderer, egui::Context)> = sizes
        .iter()
        .map(|&n| {
            let mut r = make(n);
            let ctx = egui::Context::default();
            ctx.enable_accesskit();
            for _ in 0..5 {
                frame(&ctx, &input, |ui| {
                    let _ = r.ui(ui);
                });
            }
            (n, r, ctx)
        })
        .collect();
    if let Some(c) = c.as_mut() {
        let mut g = c.benchmark_group(format!("extended/{name}"));
        for (n, r, ctx) in &mut surfaces {
            g.bench_function(format!("{n}"), |b| {
                b.iter(|| {
                    frame(ctx, &input, |ui| {
                        let _ = r.ui(ui);
                    })
                });
            });
        }
        g.finish();
    }
    let (first, rest) = surfaces.split_at_mut(1);
    let (n0, r0, ctx0) = &mut first[0];
    for (n, r, ctx) in rest {
        let p = paired(
            21,
            20,
            || {
                frame(ctx, &input, |ui| {
                    let _ = r.ui(ui);
                });
            },
            || {
                frame(ctx0, &input, |ui| {
                    let _ = r0.ui(ui);
                });
            },
        );
        summary(
            "extended",
            &format!("{name}: frame({n} {unit}) us"),
            us(p.a),
            None,
        );
        summary(
            "extended",
            &format!("{name}: frame({n0} {unit}) us"),
            us(p.b),
            None,
        );
        summary(
            "extended",
            &format!("{name}: frame({n}) / frame({n0})"),
            p.ratio,
            Some(1.5),
        );
    }
}

fn main() {
    let mut c = (!summary_only()).then(criterion);
    let (rows, points) = if bench_mode() {
        (vec![100, 100_000], vec![1_000, 100_000])
    } else {
        (vec![100, 1_000], vec![100, 1_000])
    };
    compare("table", "rows", &rows, table_surface, &mut c);
    compare("chart", "points", &points, chart_surface, &mut c);
    if let Some(c) = c {
        c.final_summary();
    }
}
