//! `memory`: heap bytes per component after ingest, counted by a global allocator, against
//! the component's JSON size; and the heap after `deleteSurface`.
//! Target: ≤ 2 × the JSON size; after deleteSurface the heap returns to its baseline.

mod common;

use std::alloc::System;

use cap::Cap;
use common::*;
use egui_a2ui::model::SurfaceStore;
use serde_json::{Value, json};

#[global_allocator]
static ALLOC: Cap<System> = Cap::new(System, usize::MAX);

/// Builds the `i`-th component of one kind.
type Make = Box<dyn Fn(usize) -> Value>;

fn heap() -> usize {
    ALLOC.allocated()
}

/// Heap held by a store after ingesting `comps` on surface `m`, and the JSON size of those
/// components; then deletes the surface and returns what is left over the baseline.
fn measure(
    store: &mut SurfaceStore,
    comps: &[Value],
    with_data: Option<Value>,
) -> (f64, f64, isize) {
    let mut doc = Vec::new();
    line(&mut doc, &create("m"));
    for chunk in comps.chunks(200) {
        line(&mut doc, &components("m", chunk.to_vec()));
    }
    if let Some(d) = with_data {
        line(&mut doc, &data("m", "/items", d));
    }
    let json_bytes: usize = comps
        .iter()
        .map(|c| serde_json::to_vec(c).map_or(0, |v| v.len()))
        .sum();
    let base = heap();
    store.feed_document(&doc);
    let after = heap();
    assert!(store.errors().is_empty(), "{:?}", store.errors());
    let n = comps.len() as f64;
    let per_component = (after as f64 - base as f64) / n;
    store.feed_document(br#"{"version":"v0.9","deleteSurface":{"surfaceId":"m"}}"#);
    let left = heap() as isize - base as isize;
    (per_component, json_bytes as f64 / n, left)
}

fn main() {
    let rows = size(1_400, 50);
    let mut store = SurfaceStore::basic();
    // Settle the store's own capacities (surface table) before measuring.
    measure(&mut store, &mixed_components(2), None);

    let mixed = mixed_components(rows);
    let (per, json, left) = measure(&mut store, &mixed, None);
    summary("memory", "mixed: heap bytes / component", per, None);
    summary("memory", "mixed: JSON bytes / component", json, None);
    summary("memory", "mixed: heap / JSON size", per / json, Some(2.0));
    summary(
        "memory",
        "mixed: bytes left after deleteSurface",
        left as f64,
        Some(0.0),
    );

    let items: Vec<Value> = (0..rows).map(item).collect();
    let (per_d, _, left_d) = measure(&mut store, &mixed, Some(Value::Array(items)));
    summary("memory", "mixed+data: heap bytes / component", per_d, None);
    summary(
        "memory",
        "mixed+data: bytes left after deleteSurface",
        left_d as f64,
        Some(0.0),
    );

    // Per type, for the report: 1,000 of one kind under a root Column.
    let kinds: Vec<(&str, Make)> = vec![
        (
            "Text(bound)",
            Box::new(
                |i| json!({"id": format!("x{i}"), "component": "Text", "text": {"path": format!("/items/{i}/name")}}),
            ),
        ),
        (
            "Text(literal)",
            Box::new(|i| json!({"id": format!("x{i}"), "component": "Text", "text": "Press"})),
        ),
        (
            "Button",
            Box::new(
                |i| json!({"id": format!("x{i}"), "component": "Button", "child": format!("l{i}"), "action": {"event": {"name": "press", "context": {"row": i}}}}),
            ),
        ),
        (
            "TextField",
            Box::new(
                |i| json!({"id": format!("x{i}"), "component": "TextField", "label": "Note", "value": {"path": format!("/items/{i}/note")}}),
            ),
        ),
        (
            "CheckBox",
            Box::new(
                |i| json!({"id": format!("x{i}"), "component": "CheckBox", "label": "Done", "value": {"path": format!("/items/{i}/done")}}),
            ),
        ),
        (
            "Slider",
            Box::new(
                |i| json!({"id": format!("x{i}"), "component": "Slider", "label": "Level", "value": {"path": format!("/items/{i}/level")}, "min": 0, "max": 100}),
            ),
        ),
        (
            "Row",
            Box::new(
                |i| json!({"id": format!("x{i}"), "component": "Row", "children": [format!("t{i}"), format!("b{i}"), format!("f{i}"), format!("c{i}"), format!("s{i}")]}),
            ),
        ),
    ];
    let per_kind = size(1_000, 20);
    for (name, make) in &kinds {
        let comps: Vec<Value> = (0..per_kind).map(make).collect();
        let (per, json, _) = measure(&mut store, &comps, None);
        summary(
            "memory",
            &format!("{name}: heap / JSON ({per:.0} / {json:.0} B)"),
            per / json,
            Some(2.0),
        );
    }
}
