//! Print the conformance dump (the reference oracle's `a2ui-oracle/1` document) of a stream,
//! or, with `--geometry WxH`, the `a2ui-geometry/1` document of its headless layout.
//!
//! ```text
//! cargo run --example a2ui_dump -- path/to/stream.jsonl
//! cargo run --release --example a2ui_dump -- --geometry 420x560 [--keep-deleted] FIXTURE
//! ```
//!
//! The geometry is laid out the way the official web renderer's reference page does it
//! (surfaces stacked with 16 px padding and 16 px gaps, `W` px wide; no GPU) and can be
//! scored against a reference render with `compare_geometry.py --align root`.

use egui_a2ui::SurfaceStore;
use egui_a2ui::eval::FunctionRegistry;
use egui_a2ui::render::{GeometryOptions, RendererOptions};
use egui_a2ui::testing::layout_geometry;

fn usage() -> ! {
    eprintln!(
        "usage: a2ui_dump [--geometry WxH [--keep-deleted]] <stream file (JSONL, JSON array, {{messages}}, example file)>"
    );
    std::process::exit(2);
}

fn main() {
    let mut geometry: Option<(f32, f32)> = None;
    let mut keep_deleted = false;
    let mut path = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--geometry" => {
                let Some(size) = args.next() else { usage() };
                let parsed = size
                    .split_once(['x', 'X'])
                    .and_then(|(w, h)| Some((w.parse().ok()?, h.parse().ok()?)));
                let Some(size) = parsed else { usage() };
                geometry = Some(size);
            }
            "--keep-deleted" => keep_deleted = true,
            _ if path.is_none() => path = Some(arg),
            _ => usage(),
        }
    }
    let Some(path) = path else { usage() };
    let bytes = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("cannot read {path}: {e}");
            std::process::exit(2);
        }
    };
    if let Some((width, height)) = geometry {
        let options = GeometryOptions {
            width,
            height,
            keep_deleted,
            fixture: path.clone(),
            ..GeometryOptions::default()
        };
        let doc = layout_geometry(&bytes, &options, RendererOptions::default());
        print!("{}", egui_a2ui::testing::to_geometry_string(&doc));
        return;
    }
    let mut store = SurfaceStore::basic();
    store.feed_document(&bytes);
    let doc = egui_a2ui::conformance::dump(&store, &FunctionRegistry::basic());
    println!("{}", egui_a2ui::conformance::to_canonical_string(&doc));
}
