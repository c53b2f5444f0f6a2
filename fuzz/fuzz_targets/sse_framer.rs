//! The SSE framer (`transport::sse::SseDecoder`): arbitrary bytes, fed whole and in arbitrary
//! chunks, give the same events, and no dispatched event is over the cap.
#![no_main]

use egui_a2ui::transport::sse::SseDecoder;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&mode, bytes)) = data.split_first() else {
        return;
    };
    // A small cap reaches the oversize paths; a chunk size of 1..=16 cuts lines, CRLFs and
    // UTF-8 sequences anywhere.
    let cap = if mode & 0x80 == 0 { 64 } else { 1 << 20 };
    let split = usize::from(mode % 16) + 1;
    let mut whole = SseDecoder::new(cap);
    let all: Vec<String> = whole.feed(bytes).iter().map(|e| format!("{e:?}")).collect();
    let mut chunked = SseDecoder::new(cap);
    let mut parts = Vec::new();
    for chunk in bytes.chunks(split) {
        for e in chunked.feed(chunk) {
            if let Ok(ev) = &e {
                assert!(ev.data.len() <= cap, "an event over the cap was dispatched");
            }
            parts.push(format!("{e:?}"));
        }
    }
    assert_eq!(all, parts, "chunking changed the events");
    assert_eq!(whole.events_seen(), chunked.events_seen());
    assert_eq!(whole.has_partial(), chunked.has_partial());
});
