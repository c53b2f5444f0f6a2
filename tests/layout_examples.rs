//! Every example of the basic catalog lays out in a kittest harness without panicking.

use egui_a2ui::{Catalog, Renderer};
use egui_kittest::Harness;
use egui_kittest::kittest::NodeT as _;

#[test]
fn every_basic_example_lays_out_without_panicking() {
    let dir = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/a2ui/specification/v0_9/catalogs/basic/examples"
    );
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .expect("examples")
        .filter_map(|e| Some(e.ok()?.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    assert!(paths.len() > 20, "{}", paths.len());
    for path in paths {
        let mut r = Renderer::new(Catalog::basic());
        r.feed_document(&std::fs::read(&path).expect("read"));
        let mut h = Harness::builder()
            .with_size(egui::vec2(480.0, 800.0))
            // Fonts are not this test's business (icons and arrows need the full set).
            .allow_missing_glyphs()
            // Nor are the names of the input widgets, which other tests check.
            .with_accessibility_check(false)
            .build_ui_state(
                |ui, r: &mut Renderer| {
                    r.ui(ui);
                },
                r,
            );
        h.run_steps(6);
        if std::env::var_os("A2UI_DUMP").is_some() {
            eprintln!("== {}", path.display());
            for n in h.root().children_recursive() {
                let a = n.accesskit_node();
                if let (Some(text), Some(b)) = (a.label().or_else(|| a.value()), a.bounding_box()) {
                    if a.role() != egui::accesskit::Role::TextRun {
                        eprintln!(
                            "  {:?} {:?} [{:.0},{:.0} {:.0}x{:.0}]",
                            a.role(),
                            text,
                            b.x0,
                            b.y0,
                            b.x1 - b.x0,
                            b.y1 - b.y0
                        );
                    }
                }
            }
        }
    }
}
