//! Screenshots of the extended catalog's samples (`assets/samples/extended/*.jsonl`),
//! rendered headless through wgpu (the `snapshots` feature; Mesa's GL backend needs no
//! GPU): `cargo test --features snapshots,extended --test render extended_screenshots:: -- --ignored`
//! writes `assets/screenshots/extended_*.png` for the README.

#![cfg(all(feature = "snapshots", feature = "extended"))]

use crate::common::content as content_util;

use content_util::State;
use egui_a2ui::Renderer;

/// (sample stem, theme, window size).
const SHOTS: &[(&str, egui::Theme, (f32, f32))] = &[
    ("sales-dashboard", egui::Theme::Light, (640.0, 820.0)),
    ("data-grid", egui::Theme::Light, (760.0, 560.0)),
    ("settings-form", egui::Theme::Dark, (480.0, 620.0)),
];

fn render(stem: &str, theme: egui::Theme, size: (f32, f32)) -> image::RgbaImage {
    let path = format!("assets/samples/extended/{stem}.jsonl");
    let doc = std::fs::read(&path).expect("sample");
    let mut renderer = Renderer::new(egui_a2ui::extended::catalog());
    renderer.feed_document(&doc);
    let mut h = content_util::builder(size.0, size.1)
        .with_theme(theme)
        .allow_missing_glyphs()
        .with_accessibility_check(false)
        .build_ui_state(
            |ui, state: &mut State| {
                let fill = ui.visuals().panel_fill;
                ui.ctx()
                    .layer_painter(egui::LayerId::background())
                    .rect_filled(ui.max_rect().expand(32.0), 0.0, fill);
                egui::Frame::central_panel(ui.style()).show(ui, |ui| {
                    ui.set_min_size(ui.available_size());
                    let events = state.renderer.ui(ui);
                    state.events.extend(events);
                });
            },
            State {
                renderer,
                events: Vec::new(),
            },
        );
    content_util::settle(&mut h);
    assert!(
        h.state().errors().is_empty(),
        "{stem}: {:?}",
        h.state().errors()
    );
    h.render().expect("render")
}

#[test]
#[ignore = "writes assets/screenshots/extended_*.png for the README"]
fn write_extended_screenshots() {
    std::fs::create_dir_all("assets/screenshots").expect("dir");
    for (stem, theme, size) in SHOTS {
        render(stem, *theme, *size)
            .save(format!("assets/screenshots/extended_{stem}.png"))
            .expect("save");
    }
}
