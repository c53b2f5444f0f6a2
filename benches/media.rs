//! `media` (feature `media`): what playback costs on this machine.
//!
//! - `media_video_720p`: decode + YUV→RGBA per 1280x720 frame, H.264 (OpenH264 from source,
//!   no nasm) and AV1 (rav1d, no assembly), over the committed 10-frame clips
//!   (tests/data/media/clip_720p_*.mp4, from scripts/gen_media.py). Criterion's elements
//!   are frames: its throughput line reads frames per second.
//! - `media_upload_720p` (with `snapshots`, which brings wgpu): one 720p frame into the
//!   video's texture in place (`TextureHandle::set_partial`) and a pass rendered through
//!   wgpu (headless: Mesa's llvmpipe, so the "GPU" copy is a CPU copy too), against the same
//!   pass with no new frame; the difference is the upload.
//! - `media_audio_load`: the audio path per second of sound (decode, gain, write to a sink),
//!   the work a player's worker does for each second heard; time per iteration / 2 s is the
//!   load (the samples are 2 s, 16 kHz mono).
//! - `media_decode_2s`, `media_seek_and_first_chunk`: audio decoding of each format, and
//!   what a click on the seek bar costs.

use std::sync::Arc;

use criterion::{Criterion, Throughput};
use egui_a2ui::media::{AudioSink as _, AudioStream, NullSink, NullSinkHandle, VideoStream};

fn sample(name: &str) -> Arc<[u8]> {
    let path = format!("{}/tests/data/media/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .into()
}

fn decode_video(bytes: &Arc<[u8]>) -> usize {
    let mut s = VideoStream::open(Arc::clone(bytes), None, 8192).expect("opens");
    let mut frames = 0;
    while let Some(f) = s.next_frame().expect("decodes") {
        assert_eq!(f.image.size, [1280, 720]);
        frames += 1;
    }
    frames
}

fn video(c: &mut Criterion) {
    let mut g = c.benchmark_group("media_video_720p");
    g.throughput(Throughput::Elements(10));
    g.sample_size(20);
    for name in ["clip_720p_h264.mp4", "clip_720p_av1.mp4"] {
        let bytes = sample(name);
        assert_eq!(decode_video(&bytes), 10, "{name}");
        g.bench_function(name, |b| b.iter(|| decode_video(&bytes)));
    }
    g.finish();
}

#[cfg(feature = "snapshots")]
fn upload(c: &mut Criterion) {
    use egui_kittest::Harness;
    let bytes = sample("clip_720p_h264.mp4");
    let mut s = VideoStream::open(bytes, None, 8192).expect("opens");
    let frames: Vec<egui::ColorImage> = std::iter::from_fn(|| s.next_frame().expect("decodes"))
        .map(|f| f.image)
        .take(2)
        .collect();
    struct State {
        texture: Option<egui::TextureHandle>,
        next: Option<egui::ColorImage>,
    }
    let mut h = Harness::builder()
        .with_size(egui::vec2(320.0, 180.0))
        .wgpu()
        .build_ui_state(
            |ui, st: &mut State| {
                if let Some(image) = st.next.take() {
                    let options = egui::TextureOptions::LINEAR;
                    match &mut st.texture {
                        Some(t) => t.set_partial([0, 0], image, options),
                        None => st.texture = Some(ui.ctx().load_texture("video", image, options)),
                    }
                }
                if let Some(t) = &st.texture {
                    ui.add(egui::Image::new(t).fit_to_exact_size(egui::vec2(320.0, 180.0)));
                }
            },
            State {
                texture: None,
                next: Some(frames[0].clone()),
            },
        );
    if h.render().is_err() {
        eprintln!("media_upload_720p: no wgpu adapter here; skipped");
        return;
    }
    let mut g = c.benchmark_group("media_upload_720p");
    let mut k = 0usize;
    g.bench_function("set_partial_and_render", |b| {
        b.iter(|| {
            k += 1;
            h.state_mut().next = Some(frames[k % 2].clone());
            h.step();
            h.render().expect("renders")
        });
    });
    g.bench_function("render_only", |b| {
        b.iter(|| {
            h.step();
            h.render().expect("renders")
        });
    });
    // The clone of the frame is part of the first figure: measure it alone.
    g.bench_function("frame_clone", |b| b.iter(|| frames[k % 2].clone()));
    g.finish();
}

#[cfg(not(feature = "snapshots"))]
fn upload(_: &mut Criterion) {
    eprintln!("media_upload_720p needs the `snapshots` feature (wgpu); skipped");
}

fn decode_all(bytes: &Arc<[u8]>) -> usize {
    let mut s = AudioStream::open(Arc::clone(bytes), None, 8192).expect("opens");
    let mut frames = 0;
    while let Some(chunk) = s.next_chunk().expect("decodes") {
        frames += chunk.len();
    }
    frames
}

/// Decode, apply a gain and hand everything to a sink, as a player's worker does.
fn play_through(bytes: &Arc<[u8]>, handle: &NullSinkHandle) -> u64 {
    let mut s = AudioStream::open(Arc::clone(bytes), None, 8192).expect("opens");
    let mut sink = NullSink::manual(s.spec(), handle);
    let mut gained = Vec::new();
    while let Some(chunk) = s.next_chunk().expect("decodes") {
        gained.clear();
        gained.extend(chunk.iter().map(|x| x * 0.8));
        let mut at = 0;
        while at < gained.len() {
            let n = sink.write(&gained[at..]).expect("writes");
            at += n;
            handle.advance(u64::MAX);
        }
    }
    handle.played()
}

fn audio_load(c: &mut Criterion) {
    let mut g = c.benchmark_group("media_audio_load");
    for name in ["tone.m4a", "tone.mp3"] {
        let bytes = sample(name);
        g.bench_function(name, |b| {
            b.iter(|| {
                let handle = NullSinkHandle::default();
                play_through(&bytes, &handle)
            });
        });
    }
    g.finish();
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
            });
        });
    }
    g.finish();
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    video(&mut c);
    upload(&mut c);
    audio_load(&mut c);
    decode(&mut c);
    seek(&mut c);
    c.final_summary();
}
