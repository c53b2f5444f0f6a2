//! `media`: audio decoding cost (feature `media`). Each committed sample (2 s of 16 kHz mono,
//! tests/data/media) decoded whole, from bytes in memory to interleaved f32, as a player's
//! worker does; and a seek + first chunk (what a click on the seek bar costs). The
//! throughput figure is seconds of audio decoded per second of CPU time (2 s / time).
//! No video decoder is built in, so there is no per-frame video figure.

use std::sync::Arc;

use criterion::{Criterion, Throughput};
use egui_a2ui::media::AudioStream;

fn sample(name: &str) -> Arc<[u8]> {
    let path = format!("{}/tests/data/media/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .into()
}

fn decode_all(bytes: &Arc<[u8]>) -> usize {
    let mut s = AudioStream::open(Arc::clone(bytes), None, 8192).expect("opens");
    let mut frames = 0;
    while let Some(chunk) = s.next_chunk().expect("decodes") {
        frames += chunk.len();
    }
    frames
}

fn decode(c: &mut Criterion) {
    let mut g = c.benchmark_group("media_decode_2s");
    // 32,000 frames per file: criterion reports elements (frames) per second.
    g.throughput(Throughput::Elements(32_000));
    for name in ["tone.wav", "tone.flac", "tone.mp3", "tone.ogg", "tone.m4a"] {
        let bytes = sample(name);
        assert!(decode_all(&bytes) > 30_000);
        g.bench_function(name, |b| b.iter(|| decode_all(&bytes)));
    }
    g.finish();
}

fn seek(c: &mut Criterion) {
    let mut g = c.benchmark_group("media_seek_and_first_chunk");
    for name in ["tone.flac", "tone.mp3", "tone.m4a"] {
        let bytes = sample(name);
        g.bench_function(name, |b| {
            b.iter(|| {
                let mut s = AudioStream::open(Arc::clone(&bytes), None, 8192).expect("opens");
                s.seek(1.5).expect("seeks");
                s.next_chunk().expect("decodes").map(<[f32]>::len)
            })
        });
    }
    g.finish();
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    decode(&mut c);
    seek(&mut c);
    c.final_summary();
}
