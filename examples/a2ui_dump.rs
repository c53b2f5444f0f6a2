//! Print the conformance dump (the reference oracle's `a2ui-oracle/1` document) of a stream.
//!
//! `cargo run --example a2ui_dump -- path/to/stream.jsonl`

use egui_a2ui::SurfaceStore;
use egui_a2ui::eval::FunctionRegistry;

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: a2ui_dump <stream file (JSONL, JSON array, {{messages}}, example file)>");
        std::process::exit(2);
    };
    let bytes = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("cannot read {path}: {e}");
            std::process::exit(2);
        }
    };
    let mut store = SurfaceStore::new();
    store.feed_document(&bytes);
    let doc = egui_a2ui::conformance::dump(&store, &FunctionRegistry::basic());
    println!("{}", egui_a2ui::conformance::to_canonical_string(&doc));
}
