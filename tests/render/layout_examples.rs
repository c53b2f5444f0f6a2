//! Every example of the basic catalog lays out in a kittest harness without panicking and
//! without anything sticking out of the window sideways, every input widget with a name.

use egui_a2ui::{Catalog, Renderer};
use egui_kittest::Harness;
use egui_kittest::kittest::NodeT as _;

#[test]
fn every_basic_example_lays_out_within_the_window_without_panicking() {
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
            // The accessible-name check stays on (the build runs it once settled).
            .build_ui_state(
                |ui, r: &mut Renderer| {
                    let _ = r.ui(ui);
                },
                r,
            );
        h.run_steps(6);
        // Every input widget is reachable by name in the final frame as well.
        h.check_accessibility();
        let dump = std::env::var_os("A2UI_DUMP").is_some();
        if dump {
            eprintln!("== {}", path.display());
        }
        for n in h.root().children_recursive() {
            let a = n.accesskit_node();
            let Some(b) = a.bounding_box() else { continue };
            let text = a.label().or_else(|| a.value()).unwrap_or_default();
            if dump && !text.is_empty() && a.role() != egui::accesskit::Role::TextRun {
                eprintln!(
                    "  {:?} {text:?} [{:.0},{:.0} {:.0}x{:.0}]",
                    a.role(),
                    b.x0,
                    b.y0,
                    b.x1 - b.x0,
                    b.y1 - b.y0
                );
            }
            assert!(
                b.x1 <= 480.5,
                "{}: {:?} {text:?} overflows the window: {b:?}",
                path.display(),
                a.role()
            );
        }
    }
}
