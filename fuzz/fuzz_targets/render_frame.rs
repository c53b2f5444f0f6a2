//! A fuzzed store drawn for two headless egui frames.
//!
//! One egui context serves 256 inputs in a row (building its fonts per input would spend
//! nearly all the time there), then is replaced so its memory cannot grow across the whole
//! run; each input gets a fresh `Renderer`. A crash found here is replayed with a
//! fresh context by `tests/conformance/fuzz_regressions.rs`.
#![no_main]

use std::cell::RefCell;

use egui_a2ui::{Catalog, Renderer};
use libfuzzer_sys::fuzz_target;

thread_local! {
    static CTX: RefCell<(egui::Context, u32)> = RefCell::new((egui::Context::default(), 0));
}

fuzz_target!(|data: &[u8]| {
    let mut r = Renderer::new(Catalog::basic());
    r.feed_document(data);
    CTX.with_borrow_mut(|(ctx, uses)| {
        *uses += 1;
        if *uses > 256 {
            *ctx = egui::Context::default();
            *uses = 1;
        }
        for _ in 0..2 {
            let mut out = ctx.run_ui(egui::RawInput::default(), |ui| {
                let _ = r.ui(ui);
            });
            out.textures_delta.clear();
        }
    });
});
