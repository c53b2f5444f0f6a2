//! Reproduces the two tree-explosion attacks (a shared-children graph and a self-expanding
//! template) and reports what one conformance
//! dump or one rendered frame of them costs. Run it under `/usr/bin/time -v` (with a
//! `ulimit -v` safety net) to read the peak memory:
//!
//! ```text
//! cargo run --release --example explosion -- shared dump
//! cargo run --release --example explosion -- template frame
//! cargo run --release --example explosion -- shared frame 2000   # with max_nodes = 2000
//! ```
//!
//! `shared`: each of 40 `Column`s lists the next one twice (an acyclic graph with 2^40
//! paths). `template`: a `Column` whose item template expands the same absolute template
//! path again (`/l`, 20 items), so every level has new scopes and the cycle guard never
//! fires.

use std::time::Instant;

use egui_a2ui::{Catalog, Renderer};
use serde_json::{Value, json};

use egui_a2ui_tools::explosions;

const CAT9: &str = "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json";

fn messages(case: &str) -> Vec<Value> {
    let mut out =
        vec![json!({"version": "v0.9", "createSurface": {"surfaceId": "x", "catalogId": CAT9}})];
    let components = if case == "shared" {
        explosions::shared_children(40)
    } else {
        out.push(
            json!({"version": "v0.9", "updateDataModel": {"surfaceId": "x", "path": "/l",
            "value": (0..20).collect::<Vec<u32>>()}}),
        );
        explosions::self_expanding_template()
    };
    out.push(json!({"version": "v0.9", "updateComponents": {"surfaceId": "x", "components": components}}));
    out
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let case = args.get(1).map_or("shared", String::as_str);
    let mode = args.get(2).map_or("dump", String::as_str);
    let mut limits = egui_a2ui::Limits::default();
    if let Some(n) = args.get(3).and_then(|n| n.parse().ok()) {
        limits.max_nodes = n;
    }
    let mut r = Renderer::with_limits(Catalog::basic(), limits);
    for m in messages(case) {
        if let Err(e) = r.apply(&m).into_result() {
            eprintln!("rejected: {e}");
        }
    }
    let start = Instant::now();
    if mode == "dump" {
        let doc =
            egui_a2ui::conformance::dump(r.store(), &egui_a2ui::eval::FunctionRegistry::basic());
        let nodes = doc["surfaces"][0]["nodeCount"].as_u64().unwrap_or(0);
        println!("{case} dump: {nodes} nodes in {:?}", start.elapsed());
    } else {
        let ctx = egui::Context::default();
        let mut events = Vec::new();
        let mut out = ctx.run_ui(egui::RawInput::default(), |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| events.extend(r.ui(ui)));
        });
        out.textures_delta.clear();
        let errors: Vec<String> = events
            .iter()
            .filter_map(|e| match e {
                egui_a2ui::Event::Error(e) => Some(e.error.to_string()),
                _ => None,
            })
            .collect();
        println!("{case} frame in {:?}; errors: {errors:?}", start.elapsed());
    }
}
