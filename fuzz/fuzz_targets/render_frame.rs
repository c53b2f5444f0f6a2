//! A fuzzed store drawn for two headless egui frames.
#![no_main]

use egui_a2ui::{Catalog, Renderer};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut r = Renderer::new(Catalog::basic());
    r.feed_document(data);
    let ctx = egui::Context::default();
    for _ in 0..2 {
        let mut out = ctx.run_ui(egui::RawInput::default(), |ui| {
            let _ = r.ui(ui);
        });
        out.textures_delta.clear();
    }
});
