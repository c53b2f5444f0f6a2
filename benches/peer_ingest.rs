//! `peer_ingest`: our ingest against the Rust peer `a2ui-base` 0.3.1 (the framework-agnostic
//! core of the `a2ui` crates: protocol types, models, message processor) on the same v0.9
//! JSONL stream, timed interleaved (`paired`), so machine noise hits both alike.
//!
//! The stream (about 2.6 MB): 50 surfaces, each a `createSurface`, its 401 components in
//! `updateComponents` messages of 50 (a root Column listing 100 rows of a Text bound to
//! `/items/i/name`, a TextField bound to `/items/i/note`, a CheckBox bound to
//! `/items/i/done` and a Button whose child is the row's Text and whose action's context
//! binds `/items/i/name`), then one `updateDataModel` per row writing `/items/i`.
//!
//! What each side does, per timed run, from the same bytes in memory:
//! - **ours**: `SurfaceStore::basic()` (a fresh store with the basic catalog), then
//!   `feed_document(bytes)`: splits the lines, checks UTF-8, parses each message straight
//!   into our typed messages (validating it against the protocol), and applies it: surfaces
//!   created, components normalised and stored in arrival order, data written at its JSON
//!   pointer, limits accounted.
//! - **a2ui-base**: `MessageProcessor::new(vec![])` (a fresh processor; catalogs are only
//!   looked up for function calls, which the stream has none of), `std::str::from_utf8` on
//!   the bytes, then for each non-empty line `MessageProcessor::parse_message(line)` (serde
//!   into its `A2uiMessage`) and `process_message(msg)`: surfaces created, components stored
//!   in its per-surface map, data written at its JSON pointer (its default: validation off).
//!
//! Neither side renders. Both end with every surface, component and data value of the
//! stream in their model (checked before timing). Target: ours faster by ≥ 3×.
//!
//! Profiling hook (callgrind): `A2UI_PROFILE=ours|peer` runs that side once.

mod common;

use std::hint::black_box;

use a2ui_base::message_processor::MessageProcessor;
use common::*;
use egui_a2ui::model::SurfaceStore;
use serde_json::{Value, json};

/// Rows per surface (4 components each, plus the root Column).
const ROWS: usize = 100;

/// The components of row `i`.
fn row(i: usize) -> [Value; 4] {
    [
        json!({"id": format!("t{i}"), "component": "Text", "text": {"path": format!("/items/{i}/name")}}),
        json!({"id": format!("f{i}"), "component": "TextField", "label": "Note",
               "value": {"path": format!("/items/{i}/note")}}),
        json!({"id": format!("c{i}"), "component": "CheckBox", "label": "Done",
               "value": {"path": format!("/items/{i}/done")}}),
        json!({"id": format!("b{i}"), "component": "Button", "child": format!("t{i}"),
               "action": {"event": {"name": "press",
                   "context": {"name": {"path": format!("/items/{i}/name")}}}}}),
    ]
}

/// The stream: `surfaces` surfaces of `ROWS` rows with their data.
fn stream(surfaces: usize) -> Vec<u8> {
    let mut out = Vec::new();
    for s in 0..surfaces {
        let sid = format!("s{s}");
        line(&mut out, &create(&sid));
        let mut comps = vec![json!({"id": "root", "component": "Column",
            "children": (0..ROWS).flat_map(|i| [format!("t{i}"), format!("f{i}"), format!("c{i}"), format!("b{i}")]).collect::<Vec<_>>()})];
        for i in 0..ROWS {
            comps.extend(row(i));
        }
        for chunk in comps.chunks(50) {
            line(&mut out, &components(&sid, chunk.to_vec()));
        }
        for i in 0..ROWS {
            let value = json!({"name": format!("Item {i} of {sid}"),
                               "note": format!("Note {i}"),
                               "done": i.is_multiple_of(3)});
            line(&mut out, &data(&sid, &format!("/items/{i}"), value));
        }
    }
    out
}

fn ours(doc: &[u8]) -> SurfaceStore {
    let mut s = SurfaceStore::basic();
    s.feed_document(doc);
    s
}

fn peer(doc: &[u8]) -> MessageProcessor {
    let mut p = MessageProcessor::new(Vec::new());
    let text = std::str::from_utf8(doc).expect("UTF-8");
    for l in text.lines() {
        if l.trim().is_empty() {
            continue;
        }
        let msg = MessageProcessor::parse_message(l).expect("the peer parses the message");
        p.process_message(msg)
            .expect("the peer applies the message");
    }
    p
}

fn main() {
    let surfaces = size(50, 2);
    let doc = stream(surfaces);
    if let Ok(which) = std::env::var("A2UI_PROFILE") {
        match which.as_str() {
            "peer" => drop(black_box(peer(&doc))),
            _ => drop(black_box(ours(&doc))),
        }
        return;
    }
    // Both sides hold the whole stream afterwards.
    {
        let s = ours(&doc);
        assert!(s.errors().is_empty(), "{:?}", &s.errors()[..1]);
        let comps: usize = s.surfaces().map(|s| s.components().len()).sum();
        assert_eq!(comps, surfaces * (4 * ROWS + 1));
        let p = peer(&doc);
        assert_eq!(p.model.len(), surfaces);
        let peer_comps: usize = p
            .model
            .surfaces()
            .map(|s| s.components.borrow().len())
            .sum();
        assert_eq!(peer_comps, comps);
        for surface in s.surfaces() {
            let theirs = p.model.get_surface(&surface.id).expect("peer surface");
            let path = format!("/items/{}/name", ROWS - 1);
            assert_eq!(
                theirs.data_model.borrow().get(&path),
                surface.data.get(&path),
                "{}",
                surface.id
            );
        }
        println!(
            "peer_ingest stream: {} bytes, {surfaces} surfaces, {comps} components",
            doc.len()
        );
    }
    let p = paired(
        15,
        1,
        || {
            black_box(ours(&doc));
        },
        || {
            black_box(peer(&doc));
        },
    );
    summary("peer_ingest", "ours ms", p.a.as_secs_f64() * 1e3, None);
    summary(
        "peer_ingest",
        "a2ui-base 0.3.1 ms",
        p.b.as_secs_f64() * 1e3,
        None,
    );
    summary(
        "peer_ingest",
        "MB (the stream)",
        doc.len() as f64 / 1e6,
        None,
    );
    summary_at_least(
        "peer_ingest",
        "ours faster by (a2ui-base / ours)",
        1.0 / p.ratio,
        3.0,
    );
}
