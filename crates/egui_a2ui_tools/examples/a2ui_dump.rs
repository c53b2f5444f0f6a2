//! Print the conformance dump (the reference oracle's `a2ui-oracle/1` document) of a stream,
//! or, with `--geometry WxH`, the `a2ui-geometry/1` document of its headless layout, or,
//! with `--png WxH FIXTURE OUT.png`, that layout painted (feature `png`: egui_kittest's wgpu
//! renderer, Mesa's GL backend headless, no GPU).
//!
//! ```text
//! cargo run --example a2ui_dump -- path/to/stream.jsonl
//! cargo run --release --example a2ui_dump -- --geometry 420x560 [--keep-deleted] FIXTURE
//! cargo run --release --features png --example a2ui_dump -- --png 420x560 [--keep-deleted] [--dark] FIXTURE OUT.png
//! ```
//!
//! Every mode takes `--catalog basic` (the default: the basic catalogs of every version)
//! or `--catalog extended` (the basic ones plus the extended catalog, which serves v0.9
//! and v1.0 surfaces), so a stream on the extended catalog can be checked from a script.
//!
//! The geometry is laid out the way the official web renderer's reference page does it
//! (surfaces stacked with 16 px padding and 16 px gaps, `W` px wide; no GPU) and can be
//! scored against a reference render with `compare_geometry.py --align root`; the PNG
//! against the reference's screenshot with `compare_pixels.py` (`scripts/pixel_score.sh`
//! does both for every public fixture).

use egui_a2ui::render::{GeometryOptions, RendererOptions};
use egui_a2ui::testing::layout_geometry_with;
use egui_a2ui::{Catalog, SurfaceStore};

fn usage() -> ! {
    eprintln!(
        "usage: a2ui_dump [--catalog basic|extended] [--geometry WxH | --png WxH [--dark]] [--keep-deleted] <stream file (JSONL, JSON array, {{messages}}, example file)> [OUT.png]"
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
    let mut path = None;
    let mut out = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--geometry" => geometry = Some(size(args.next())),
            "--png" => png = Some(size(args.next())),
            "--dark" => dark = true,
            "--keep-deleted" => keep_deleted = true,
            "--catalog" => cat = catalog(args.next()),
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
