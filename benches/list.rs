//! `list`: a List template over 100, 10,000 and 100,000 items in a fixed-height area (the
//! List is virtualised: only the rows in view are laid out).
//! Target: frame(100k) / frame(100) ≤ 1.5.

mod common;

use common::*;
use egui_a2ui::{Catalog, Renderer, RendererOptions};
use serde_json::{Value, json};

fn list_surface(n: usize) -> Renderer {
    let mut doc = Vec::new();
    line(&mut doc, &create("l"));
    line(
        &mut doc,
        &components(
            "l",
            vec![
                json!({"id": "root", "component": "List",
                       "children": {"componentId": "row", "path": "/items"}}),
                json!({"id": "row", "component": "Row", "children": ["name", "done"]}),
                json!({"id": "name", "component": "Text", "text": {"path": "name"}}),
                json!({"id": "done", "component": "CheckBox", "label": "Done", "value": {"path": "done"}}),
            ],
        ),
    );
    let items: Vec<Value> = (0..n)
        .map(|i| json!({"name": format!("Item number {i}"), "done": i.is_multiple_of(2)}))
        .collect();
    line(&mut doc, &data("l", "/items", Value::Array(items)));
    let mut r = Renderer::new(Catalog::basic()).with_options(RendererOptions {
        show_surface_header: false,
        ..Default::default()
    });
    r.feed_document(&doc);
    assert!(r.store().errors().is_empty(), "{:?}", r.store().errors());
    r
}

fn main() {
    // A fixed-height area: the list fills the 600-point-high screen and scrolls inside it.
    let input = raw_input(800.0, 600.0);
    let sizes = if bench_mode() {
        vec![100, 10_000, 100_000]
    } else {
        vec![100, 1_000]
    };
    let mut c = (!summary_only()).then(criterion);
    for accesskit in [false, true] {
        let ak = if accesskit { "accesskit" } else { "plain" };
        let mut lists: Vec<(usize, Renderer, egui::Context)> = sizes
            .iter()
            .map(|&n| {
                let mut r = list_surface(n);
                let ctx = egui::Context::default();
                if accesskit {
                    ctx.enable_accesskit();
                }
                for _ in 0..5 {
                    frame(&ctx, &input, |ui| {
                        let _ = r.ui(ui);
                    });
                }
                (n, r, ctx)
            })
            .collect();
        if let Some(c) = c.as_mut() {
            let mut g = c.benchmark_group(format!("list/{ak}"));
            for (n, r, ctx) in &mut lists {
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
        let (first, rest) = lists.split_at_mut(1);
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
            summary("list", &format!("{ak}: frame({n}) us"), us(p.a), None);
            summary("list", &format!("{ak}: frame({n0}) us"), us(p.b), None);
            let target = (*n == 100_000).then_some(1.5);
            summary(
                "list",
                &format!("{ak}: frame({n}) / frame({n0})"),
                p.ratio,
                target,
            );
        }
    }
    if let Some(c) = c {
        c.final_summary();
    }
}
