//! Print the conformance dump (the reference oracle's `a2ui-oracle/1` document) of a stream,
//! or, with `--geometry WxH`, the `a2ui-geometry/1` document of its headless layout, or,
//! with `--png WxH FIXTURE OUT.png`, that layout painted (feature `png`: egui_kittest's wgpu
//! renderer, Mesa's GL backend headless, no GPU).
//!
//! ```text
//! cargo run --example a2ui_dump -- path/to/stream.jsonl
//! cargo run --example a2ui_dump -- --model-text [--chunk N] [--version v1.0] path/to/answer.txt
//! cargo run --release --example a2ui_dump -- --geometry 420x560 [--keep-deleted] FIXTURE
//! cargo run --release --features png --example a2ui_dump -- --png 420x560 [--keep-deleted] [--dark] FIXTURE OUT.png
//! ```
//!
//! Every mode takes `--catalog basic` (the default: the basic catalogs of every version)
//! or `--catalog extended` (the basic ones plus the extended catalog, which serves v0.9
//! and v1.0 surfaces), so a stream on the extended catalog can be checked from a script.
//!
//! `--model-text` reads the file as a model's answer (prose with `<a2ui>` Express and
//! `<a2ui-json>` blocks), streams it through the model-text path in `N`-byte chunks (the
//! whole file at once without `--chunk`) and prints the conformance dump of the state it
//! leaves; Express compiles against the basic catalog of `--version`, else of the answer's
//! version (the `version` attribute of its first `<a2ui …>` tag, else of its first JSON
//! block, else v0.9). The A2UI `error` messages owed to the agent for the answer's own
//! problems (an Express statement that did not compile, with its line) go to stderr, one
//! per line.
//!
//! The geometry is laid out the way the official web renderer's reference page does it
//! (surfaces stacked with 16 px padding and 16 px gaps, `W` px wide; no GPU) and can be
//! scored against a reference render with `compare_geometry.py --align root`; the PNG
//! against the reference's screenshot with `compare_pixels.py` (`scripts/pixel_score.sh`
//! does both for every public fixture).

use egui_a2ui::render::{GeometryOptions, RendererOptions};
use egui_a2ui::stream::model_text::express::{ExpressCatalog, ExpressVersion};
use egui_a2ui::testing::layout_geometry_with;
use egui_a2ui::{Catalog, SurfaceStore};
use egui_a2ui_tools::model_text::model_text_dump;

fn usage() -> ! {
    eprintln!(
        "usage: a2ui_dump [--catalog basic|extended] [--model-text [--chunk N] [--version V] | --geometry WxH | --png WxH [--dark]] [--keep-deleted] <stream file or model answer (JSONL, JSON array, {{messages}}, example file)> [OUT.png]"
    );
    std::process::exit(2);
}

/// The catalog `--catalog NAME` names.
fn catalog(name: Option<String>) -> Catalog {
    match name.as_deref() {
        Some("basic") => Catalog::basic(),
        Some("extended") => egui_a2ui::extended::catalog(),
        Some(other) => {
            eprintln!("unknown catalog {other:?} (basic, extended)");
            std::process::exit(2);
        }
        None => usage(),
    }
}

fn size(arg: Option<String>) -> (f32, f32) {
    let parsed = arg.as_deref().and_then(|s| {
        let (w, h) = s.split_once(['x', 'X'])?;
        Some((w.parse().ok()?, h.parse().ok()?))
    });
    parsed.unwrap_or_else(|| usage())
}

fn main() {
    let mut geometry: Option<(f32, f32)> = None;
    let mut png: Option<(f32, f32)> = None;
    let mut dark = false;
    let mut keep_deleted = false;
    let mut cat = Catalog::basic();
    let mut model_text = false;
    let mut chunk = 0usize;
    let mut version = None;
    let mut extended = false;
    let mut path = None;
    let mut out = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--geometry" => geometry = Some(size(args.next())),
            "--png" => png = Some(size(args.next())),
            "--dark" => dark = true,
            "--keep-deleted" => keep_deleted = true,
            "--catalog" => {
                let name = args.next();
                extended = name.as_deref() == Some("extended");
                cat = catalog(name);
            }
            "--model-text" => model_text = true,
            "--chunk" => {
                chunk = match args.next().and_then(|n| n.parse().ok()) {
                    Some(n) if n > 0 => n,
                    _ => usage(),
                }
            }
            "--version" => {
                version = match args.next().as_deref().and_then(ExpressVersion::parse) {
                    Some(v) => Some(v),
                    None => usage(),
                }
            }
            _ if path.is_none() => path = Some(arg),
            _ if png.is_some() && out.is_none() => out = Some(arg),
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
    if model_text {
        // Express compiles against the extended catalog with `--catalog extended`.
        let express = if extended {
            Some(ExpressCatalog::extended())
        } else {
            version.map(ExpressCatalog::basic)
        };
        let out = model_text_dump(&bytes, chunk, express);
        for e in &out.errors {
            eprintln!("{e}");
        }
        println!("{}", egui_a2ui::conformance::to_canonical_string(&out.dump));
        return;
    }
    if let Some((width, height)) = png {
        let Some(out) = out else { usage() };
        let options = GeometryOptions {
            width,
            height,
            keep_deleted,
            fixture: path.clone(),
            ..GeometryOptions::default()
        };
        let theme = if dark {
            egui::Theme::Dark
        } else {
            egui::Theme::Light
        };
        std::process::exit(write_png(&bytes, &options, theme, cat, &out));
    }
    if let Some((width, height)) = geometry {
        let options = GeometryOptions {
            width,
            height,
            keep_deleted,
            fixture: path.clone(),
            ..GeometryOptions::default()
        };
        let doc = layout_geometry_with(&bytes, &options, RendererOptions::default(), cat);
        print!("{}", egui_a2ui::testing::to_geometry_string(&doc));
        return;
    }
    let mut store = SurfaceStore::new(cat.catalogs());
    store.feed_document(&bytes);
    let doc = egui_a2ui::conformance::dump(&store, cat.functions());
    println!("{}", egui_a2ui::conformance::to_canonical_string(&doc));
}

#[cfg(feature = "png")]
fn write_png(
    bytes: &[u8],
    options: &GeometryOptions,
    theme: egui::Theme,
    catalog: Catalog,
    out: &str,
) -> i32 {
    let image = match egui_a2ui_tools::pixels::render_page_with(bytes, options, theme, catalog) {
        Ok(i) => i,
        Err(e) => {
            eprintln!("cannot render: {e}");
            return 1;
        }
    };
    match image.save(out) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("cannot write {out}: {e}");
            1
        }
    }
}

#[cfg(not(feature = "png"))]
fn write_png(_: &[u8], _: &GeometryOptions, _: egui::Theme, _: Catalog, _: &str) -> i32 {
    eprintln!(
        "a2ui_dump was built without the `png` feature: cargo run --features png --example a2ui_dump -- --png ..."
    );
    2
}
