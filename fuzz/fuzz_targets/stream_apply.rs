//! Arbitrary bytes, fed in arbitrary chunks, through framing and apply.
#![no_main]

use egui_a2ui::stream::StreamDecoder;
use egui_a2ui::{Limits, SurfaceStore};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut store = SurfaceStore::basic();
    store.feed_document(data);
    let split = data.first().map_or(1, |b| usize::from(*b % 16) + 1);
    let mut dec = StreamDecoder::new(Limits::default());
    let mut store2 = SurfaceStore::basic();
    for chunk in data.chunks(split) {
        let frames = dec.feed(chunk);
        for f in frames {
        let _ = store2.apply(f);
    }
    }
    let frames = dec.finish();
    for f in frames {
        let _ = store2.apply(f);
    }
    let _ = egui_a2ui::conformance::dump(&store2, &egui_a2ui::eval::FunctionRegistry::basic());
});
