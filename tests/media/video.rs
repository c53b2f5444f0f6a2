//! Video playback without a display or a sound card (feature `media`): the committed clips
//! (tests/data/media, made by scripts/gen_media.py) decoded frame by frame, frame-accurate
//! seeking, the player's frames against its clock (a manual null sink), and hostile video.
//!
//! The clips' frame k is a flat grey of luma 10 + 10 k at 10 frames a second, so a decoded
//! picture tells which frame it is.
#![cfg(feature = "media")]

use std::io::Read;
use std::sync::Arc;
use std::time::{Duration, Instant};

use egui_a2ui::media::{
    FRAME_QUEUE_DEPTH, MediaBytes, MediaError, MediaLoader, NullSink, NullSinkHandle, OutputSpec,
    Player, PlayerConfig, PlayerSnapshot, PlayerSource, Status, VideoCodec, VideoFrame,
    VideoStream,
};

fn sample(name: &str) -> Arc<[u8]> {
    let path = format!("{}/tests/data/media/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .into()
}

/// The clips with the numbered grey frames, and their codec.
const CLIPS: [(&str, VideoCodec); 3] = [
    ("clip_h264.mp4", VideoCodec::H264),
    ("clip_h264_bframes.mp4", VideoCodec::H264),
    ("clip_av1.mp4", VideoCodec::Av1),
];

/// RGB of luma `y` with neutral chroma (BT.601 studio range, as the files are written):
/// 255 (y - 16) / 219, clamped.
fn grey_of_luma(y: f64) -> f64 {
    (255.0 * (y - 16.0) / 219.0).clamp(0.0, 255.0)
}

/// Which frame a picture is: the frame number whose grey is nearest the centre pixel.
fn frame_number(frame: &VideoFrame) -> usize {
    let [w, h] = frame.image.size;
    let px = frame.image.pixels[(h / 2) * w + w / 2];
    let [r, g, b, a] = px.to_array();
    assert_eq!(a, 255, "opaque");
    assert!(
        (i32::from(r) - i32::from(g)).abs() <= 3 && (i32::from(g) - i32::from(b)).abs() <= 3,
        "grey, not {r} {g} {b}"
    );
    (0..20)
        .min_by(|&i, &j| {
            let di = (grey_of_luma(10.0 + 10.0 * i as f64) - f64::from(g)).abs();
            let dj = (grey_of_luma(10.0 + 10.0 * j as f64) - f64::from(g)).abs();
            di.total_cmp(&dj)
        })
        .unwrap_or(0)
}

fn decode_all(stream: &mut VideoStream) -> Vec<VideoFrame> {
    let mut out = Vec::new();
    for _ in 0..1000 {
        match stream.next_frame() {
            Ok(Some(f)) => out.push(f),
            Ok(None) => return out,
            Err(e) => panic!("decode error: {e}"),
        }
    }
    panic!("the stream never ended");
}

#[test]
fn h264_and_av1_clips_decode_every_frame_in_display_order() {
    for (name, codec) in CLIPS {
        let mut s =
            VideoStream::open(sample(name), None, 8192).unwrap_or_else(|e| panic!("{name}: {e}"));
        let info = s.info().clone();
        assert_eq!(info.codec, codec, "{name}");
        assert_eq!((info.width, info.height), (64, 48), "{name}");
        assert_eq!(info.frames, 20, "{name}");
        assert!(
            (info.duration - 2.0).abs() < 1e-6,
            "{name}: {}",
            info.duration
        );
        let frames = decode_all(&mut s);
        assert_eq!(frames.len(), 20, "{name}: frame count");
        for (k, f) in frames.iter().enumerate() {
            assert_eq!(f.image.size, [64, 48], "{name}");
            assert_eq!(f.index, k, "{name}");
            assert!(
                (f.time - k as f64 * 0.1).abs() < 1e-6,
                "{name}: frame {k} at {}",
                f.time
            );
            assert_eq!(frame_number(f), k, "{name}: the picture of frame {k}");
        }
        // A known frame's colour: frame 10 is luma 110, RGB 109.5 (within the codec's error).
        let [_, g, _, _] = frames[10].image.pixels[24 * 64 + 32].to_array();
        assert!(
            (f64::from(g) - grey_of_luma(110.0)).abs() <= 3.0,
            "{name}: frame 10 is {g}"
        );
    }
}

#[test]
fn seeking_shows_exactly_the_frame_of_that_time() {
    for (name, _) in CLIPS {
        let mut s = VideoStream::open(sample(name), None, 8192).expect("opens");
        // Forwards, backwards, onto a frame's start, between frames, the last frame.
        for target in [1.55, 0.35, 1.0, 0.0, 1.95, 0.999, 1.2] {
            let shown = s.seek(target).unwrap_or_else(|e| panic!("{name}: {e}"));
            let want = (target * 10.0 + 1e-9).floor() as usize;
            assert!(
                (shown - want as f64 * 0.1).abs() < 1e-6,
                "{name}: seek {target} -> {shown}"
            );
            let f = s.next_frame().expect("decodes").expect("a frame");
            assert_eq!(f.index, want, "{name}: seek {target}");
            assert_eq!(frame_number(&f), want, "{name}: seek {target}: the picture");
            // And playback goes on from there.
            if want < 19 {
                let next = s.next_frame().expect("decodes").expect("a frame");
                assert_eq!(frame_number(&next), want + 1, "{name}: after seek {target}");
            }
        }
    }
}

// ---- the player: frames against the clock ----

struct Rig {
    player: Player,
    sink: NullSinkHandle,
    silent: NullSinkHandle,
}

fn config(sink: &NullSinkHandle, silent: &NullSinkHandle, max_dimension: u32) -> PlayerConfig {
    let (a, b) = (sink.clone(), silent.clone());
    PlayerConfig {
        output: Arc::new(move |spec: OutputSpec| {
            Ok(Box::new(NullSink::manual(spec, &a)) as Box<dyn egui_a2ui::media::AudioSink>)
        }),
        silent_output: Arc::new(move |spec: OutputSpec| {
            Ok(Box::new(NullSink::manual(spec, &b)) as Box<dyn egui_a2ui::media::AudioSink>)
        }),
        max_bytes: 1024 * 1024,
        max_dimension,
        volume: 1.0,
        muted: false,
        autoplay: false,
        video: true,
        repaint: None,
    }
}

fn video_player(source: PlayerSource, max_dimension: u32) -> Rig {
    let (sink, silent) = (NullSinkHandle::default(), NullSinkHandle::default());
    let player = Player::spawn(source, config(&sink, &silent, max_dimension));
    Rig {
        player,
        sink,
        silent,
    }
}

fn bytes(name: &str) -> PlayerSource {
    PlayerSource::Bytes(MediaBytes {
        bytes: sample(name),
        mime: Some("video/mp4".to_owned()),
    })
}

fn wait(player: &Player, what: &str, ok: impl Fn(&PlayerSnapshot) -> bool) -> PlayerSnapshot {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let s = player.snapshot();
        if ok(&s) {
            return s;
        }
        assert!(Instant::now() < deadline, "{what}: never happened ({s:?})");
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// What the UI would show at `position`: take due frames until the next queued one is
/// later (every frame due by then has been decoded and passed) or the track is over.
fn shown_at(player: &Player, position: f64, last: &mut Option<VideoFrame>) {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Some(f) = player.video_frame(position) {
            *last = Some(f);
        }
        let done = player
            .next_frame_time()
            .is_some_and(|t| t > position + 1e-6)
            || last.as_ref().is_some_and(|f| f.index == 19);
        if done {
            return;
        }
        assert!(Instant::now() < deadline, "no frame for {position}");
        std::thread::sleep(Duration::from_millis(1));
    }
}

#[test]
fn frames_follow_the_audio_clock_within_one_frame() {
    let rig = video_player(bytes("clip_h264.mp4"), 8192);
    let s = wait(&rig.player, "loaded", |s| s.status == Status::Paused);
    assert!(s.duration.is_some_and(|d| d > 1.9), "{s:?}");
    assert_eq!(rig.player.video_info().map(|i| i.frames), Some(20));
    // Paused at 0: frame 0 is due, nothing later.
    let mut last = None;
    shown_at(&rig.player, 0.0, &mut last);
    assert_eq!(last.as_ref().map(frame_number), Some(0));

    rig.player.play();
    wait(&rig.player, "playing", |s| s.status == Status::Playing);
    let duration = s.duration.unwrap_or(0.0);
    let mut checked = 0;
    // The audio clock moves by what the sink plays: 1234 samples at 16 kHz are 77 ms, less
    // than a frame, so every frame and some in-between times are visited.
    for _ in 0..60 {
        let deadline = Instant::now() + Duration::from_secs(20);
        while rig.sink.queued() == 0 && rig.player.snapshot().status == Status::Playing {
            assert!(Instant::now() < deadline, "the sink is never filled");
            std::thread::sleep(Duration::from_millis(1));
        }
        if rig.player.snapshot().status != Status::Playing {
            break;
        }
        rig.sink.advance(1234);
        let clock = (rig.sink.played() as f64 / 16_000.0).min(duration);
        let s = wait(&rig.player, "the position follows the sink", |s| {
            (s.position - clock).abs() < 1e-9 || s.status == Status::Ended
        });
        if s.status == Status::Ended {
            break;
        }
        shown_at(&rig.player, s.position, &mut last);
        let f = last.as_ref().expect("a frame is shown");
        // The frame shown started at or before the clock and is less than a frame behind.
        assert!(
            f.time <= s.position + 1e-9,
            "{} shown at {}",
            f.time,
            s.position
        );
        // (The sound runs a little past the last frame, which stays up.)
        if f.index < 19 {
            assert!(
                s.position - f.time < 0.1,
                "{} shown at {}",
                f.time,
                s.position
            );
        }
        assert_eq!(frame_number(f), f.index);
        checked += 1;
    }
    assert!(checked >= 20, "only {checked} clock steps");
}

#[test]
fn a_video_without_sound_plays_on_the_silent_clock_to_the_end() {
    let rig = video_player(bytes("clip_h264_bframes.mp4"), 8192);
    let s = wait(&rig.player, "loaded", |s| s.status == Status::Paused);
    assert!(s.duration.is_some_and(|d| (d - 2.0).abs() < 1e-6), "{s:?}");
    rig.player.play();
    wait(&rig.player, "playing", |s| s.status == Status::Playing);
    assert_eq!(
        rig.sink.written(),
        0,
        "no sound track: nothing for the audio output"
    );
    let mut last = None;
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        // The silent clock runs at 8 kHz: 500 samples are 62.5 ms.
        rig.silent.advance(500);
        let s = rig.player.snapshot();
        if s.status == Status::Ended {
            break;
        }
        let clock = rig.silent.played() as f64 / 8000.0;
        let s = wait(&rig.player, "position", |s| {
            (s.position - clock).abs() < 1e-9 || s.status == Status::Ended
        });
        shown_at(&rig.player, s.position, &mut last);
        // Within a frame of the clock (the last frame stays up after its time).
        if let Some(f) = last.as_ref().filter(|f| f.index < 19) {
            assert!(f.time <= s.position + 1e-9 && s.position - f.time < 0.1);
        }
        assert!(Instant::now() < deadline, "never ended");
        std::thread::sleep(Duration::from_millis(1));
    }
    shown_at(&rig.player, 2.0, &mut last);
    assert_eq!(last.map(|f| f.index), Some(19), "the last frame stays");
}

#[test]
fn the_frame_queue_stays_at_its_depth() {
    let rig = video_player(bytes("clip_h264.mp4"), 8192);
    wait(&rig.player, "loaded", |s| s.status == Status::Paused);
    // Paused at 0: the worker decodes ahead until the queue is full, then waits.
    let deadline = Instant::now() + Duration::from_secs(20);
    while rig.player.queued_frames() < FRAME_QUEUE_DEPTH {
        assert!(Instant::now() < deadline, "the queue never filled");
        std::thread::sleep(Duration::from_millis(2));
    }
    for _ in 0..50 {
        assert!(rig.player.queued_frames() <= FRAME_QUEUE_DEPTH);
        std::thread::sleep(Duration::from_millis(2));
    }
    // A seek while paused shows the frame of that time.
    rig.player.seek(1.23);
    let mut last = None;
    shown_at(&rig.player, 1.23, &mut last);
    assert_eq!(last.map(|f| frame_number(&f)), Some(12));
}

// ---- hostile video ----

fn failure(rig: &Rig) -> MediaError {
    match wait(&rig.player, "failed", |s| {
        matches!(s.status, Status::Failed(_))
    })
    .status
    {
        Status::Failed(e) => e,
        other => panic!("{other:?}"),
    }
}

/// Patch the width and height of the last `tag` sample entry (the visual sample entry; an
/// earlier `tag` may be a brand in `ftyp`).
fn patch_entry_size(bytes: &[u8], tag: &[u8; 4], w: u16, h: u16) -> Vec<u8> {
    let mut out = bytes.to_vec();
    let i = out
        .windows(4)
        .rposition(|x| x == tag)
        .expect("a sample entry");
    // After the type: 6 reserved + 2 index + 16 pre-defined bytes, then width and height.
    let at = i + 4 + 24;
    out[at..at + 2].copy_from_slice(&w.to_be_bytes());
    out[at + 2..at + 4].copy_from_slice(&h.to_be_bytes());
    out
}

#[test]
fn a_frame_over_the_size_cap_is_a_typed_error_before_it_is_decoded() {
    // The container says 64x48: over a 32-pixel cap.
    for (name, _) in CLIPS {
        assert_eq!(
            VideoStream::open(sample(name), None, 32).err(),
            Some(MediaError::DimensionsTooLarge {
                width: 64,
                height: 48,
                limit: 32
            }),
            "{name}"
        );
    }
    // A container that lies (16x16) about an H.264 stream whose sequence parameter set says
    // 64x48: the SPS is read before the decoder sees it.
    let lying = patch_entry_size(&sample("clip_h264.mp4"), b"avc1", 16, 16);
    assert_eq!(
        VideoStream::open(lying.clone().into(), None, 32).err(),
        Some(MediaError::DimensionsTooLarge {
            width: 64,
            height: 48,
            limit: 32
        })
    );
    // And on the component: the player fails with it.
    let rig = video_player(
        PlayerSource::Bytes(MediaBytes {
            bytes: lying.into(),
            mime: None,
        }),
        32,
    );
    assert!(matches!(
        failure(&rig),
        MediaError::DimensionsTooLarge { width: 64, .. }
    ));
    // An AV1 container that lies: the sequence header is read before dav1d sees it.
    let lying = patch_entry_size(&sample("clip_av1.mp4"), b"av01", 16, 16);
    let mut s = VideoStream::open(lying.into(), None, 32).expect("the container passes");
    assert_eq!(
        s.next_frame().err(),
        Some(MediaError::DimensionsTooLarge {
            width: 64,
            height: 48,
            limit: 32
        })
    );
}

#[test]
fn truncated_video_ends_early_or_fails_typed_never_panics() {
    for (name, _) in CLIPS {
        let full = sample(name);
        for fraction in [0.1, 0.5, 0.8, 0.95] {
            let cut: Arc<[u8]> = full[..(full.len() as f64 * fraction) as usize].into();
            match VideoStream::open(cut, None, 8192) {
                Err(_) => {}
                Ok(mut s) => {
                    let mut n = 0;
                    while let Ok(Some(_)) = s.next_frame() {
                        n += 1;
                        assert!(
                            n <= 20,
                            "{name} cut at {fraction}: more frames than the file"
                        );
                    }
                }
            }
        }
    }
    // On the component, a cut file is a typed failure or plays what is there.
    let full = sample("clip_h264.mp4");
    let rig = video_player(
        PlayerSource::Bytes(MediaBytes {
            bytes: full[..full.len() / 2].into(),
            mime: None,
        }),
        8192,
    );
    let s = wait(&rig.player, "settled", |s| {
        matches!(s.status, Status::Failed(_) | Status::Paused)
    });
    if let Status::Failed(e) = s.status {
        assert!(!e.to_string().is_empty());
    }
}

#[test]
fn vp9_in_webm_is_format_not_supported() {
    assert_eq!(
        VideoStream::open(sample("clip_vp9.webm"), None, 8192).err(),
        Some(MediaError::UnsupportedCodec("VP9 video".to_owned()))
    );
    let rig = video_player(
        PlayerSource::Bytes(MediaBytes {
            bytes: sample("clip_vp9.webm"),
            mime: Some("video/webm".to_owned()),
        }),
        8192,
    );
    let e = failure(&rig);
    assert!(e.to_string().starts_with("format not supported"), "{e}");
}

struct Served {
    mime: &'static str,
    endless: bool,
}

impl MediaLoader for Served {
    fn handles(&self, _: &str) -> bool {
        true
    }
    fn open(&self, _: &str) -> Result<(Box<dyn Read + Send>, Option<String>), MediaError> {
        let reader: Box<dyn Read + Send> = if self.endless {
            // A "live stream" that never ends: the H.264 clip, then zeros for ever.
            Box::new(
                std::io::Cursor::new(sample("clip_h264.mp4").to_vec()).chain(std::io::repeat(0)),
            )
        } else {
            Box::new(std::io::Cursor::new(sample("clip_h264.mp4").to_vec()))
        };
        Ok((reader, Some(self.mime.to_owned())))
    }
}

#[test]
fn a_never_ending_stream_stops_at_the_byte_cap_and_a_wrong_type_is_refused() {
    let endless = Arc::new(Served {
        mime: "video/mp4",
        endless: true,
    });
    let rig = video_player(PlayerSource::Loader(endless, "x-app:live".to_owned()), 8192);
    assert_eq!(failure(&rig), MediaError::TooLarge { limit: 1024 * 1024 });

    let html = Arc::new(Served {
        mime: "text/html; charset=utf-8",
        endless: false,
    });
    let rig = video_player(PlayerSource::Loader(html, "x-app:page".to_owned()), 8192);
    assert_eq!(
        failure(&rig),
        MediaError::WrongType("text/html; charset=utf-8".to_owned())
    );

    // Bytes that are no container at all, typed as video.
    let rig = video_player(
        PlayerSource::Bytes(MediaBytes {
            bytes: vec![0x5a; 4096].into(),
            mime: Some("video/mp4".to_owned()),
        }),
        8192,
    );
    assert!(matches!(failure(&rig), MediaError::UnknownFormat(_)));
}

#[test]
fn the_720p_clips_decode_h264_high_profile_and_av1() {
    // x264's default (High profile, CABAC, B-frames) and libaom at 1280x720.
    for (name, codec) in [
        ("clip_720p_h264.mp4", VideoCodec::H264),
        ("clip_720p_av1.mp4", VideoCodec::Av1),
    ] {
        let mut s = VideoStream::open(sample(name), None, 8192).expect("opens");
        assert_eq!(s.info().codec, codec);
        assert_eq!((s.info().width, s.info().height), (1280, 720));
        let frames = decode_all(&mut s);
        assert_eq!(frames.len(), 10, "{name}");
        assert!(frames.iter().all(|f| f.image.size == [1280, 720]));
        // The gradient moves 8 pixels a frame: consecutive pictures differ.
        for pair in frames.windows(2) {
            assert_ne!(pair[0].image.pixels, pair[1].image.pixels, "{name}");
        }
        // Its green channel is the row (y * 255 / 720) whatever the frame: a row's green
        // at the centre column is within the codec's and colour matrix's error.
        let f = &frames[5];
        for y in [100usize, 360, 600] {
            let [_, g, _, _] = f.image.pixels[y * 1280 + 640].to_array();
            let want = (y * 255 / 720) as f64;
            assert!(
                (f64::from(g) - want).abs() < 32.0,
                "{name}: row {y} green {g}, want {want}"
            );
        }
    }
}

#[test]
fn a_video_with_sound_plays_to_the_end_and_replays_from_frame_0() {
    let rig = video_player(bytes("clip_h264.mp4"), 8192);
    wait(&rig.player, "loaded", |s| s.status == Status::Paused);
    rig.player.play();
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut last = None;
    while rig.player.snapshot().status != Status::Ended {
        rig.sink.advance(4000);
        if let Some(f) = rig.player.video_frame(rig.player.snapshot().position) {
            last = Some(f);
        }
        assert!(
            Instant::now() < deadline,
            "never ended: {:?}",
            rig.player.snapshot()
        );
        std::thread::sleep(Duration::from_millis(1));
    }
    shown_at(&rig.player, 10.0, &mut last);
    assert_eq!(last.as_ref().map(|f| f.index), Some(19));
    // Replay: the sound starts over (MP4 audio seeks after its end) and so do the frames.
    rig.player.play();
    wait(&rig.player, "replaying", |s| s.status == Status::Playing);
    let mut first = None;
    shown_at(&rig.player, 0.0, &mut first);
    assert_eq!(first.map(|f| frame_number(&f)), Some(0));
    let deadline = Instant::now() + Duration::from_secs(20);
    while rig.sink.queued() == 0 {
        assert!(Instant::now() < deadline, "no sound after replay");
        std::thread::sleep(Duration::from_millis(1));
    }
    assert!(
        rig.silent.written() == 0,
        "the sound track is the clock, not silence"
    );
}

/// A video longer than its sound: the clock runs on silence after the sound ends, so the
/// frames go on to the last one, the duration is the video's, and a seek past the sound's
/// end lands where it was asked.
#[test]
fn a_video_longer_than_its_sound_plays_to_its_last_frame() {
    let rig = video_player(bytes("clip_h264_short_audio.mp4"), 8192);
    let s = wait(&rig.player, "loaded", |s| s.status == Status::Paused);
    assert!(
        s.duration.is_some_and(|d| (d - 2.0).abs() < 0.05),
        "the video's duration, not the sound's: {s:?}"
    );
    rig.player.play();
    wait(&rig.player, "playing", |s| s.status == Status::Playing);
    let mut last = None;
    let mut latest = 0.0_f64;
    let deadline = Instant::now() + Duration::from_secs(30);
    while rig.player.snapshot().status != Status::Ended {
        // 800 samples at 16 kHz: 50 ms, half a frame.
        rig.sink.advance(800);
        let s = rig.player.snapshot();
        if s.status == Status::Playing {
            latest = latest.max(s.position);
        }
        if s.status == Status::Playing && s.position > 1.2 && s.position < 1.9 {
            shown_at(&rig.player, s.position, &mut last);
            let f = last.as_ref().expect("a frame after the sound ended");
            assert!(
                f.time <= s.position + 1e-9 && s.position - f.time < 0.1,
                "frame at {} shown at {}",
                f.time,
                s.position
            );
            assert_eq!(frame_number(f), f.index);
        }
        assert!(Instant::now() < deadline, "never ended: {s:?}");
        std::thread::sleep(Duration::from_millis(1));
    }
    assert!(
        latest >= 1.75,
        "playing stopped at {latest} s (the sound is 1 s)"
    );
    assert!((rig.player.snapshot().position - 2.0).abs() < 0.05);
    shown_at(&rig.player, 2.0, &mut last);
    assert_eq!(
        last.as_ref().map(|f| f.index),
        Some(19),
        "the last frame shows"
    );
    assert!(
        rig.sink.written() >= 2 * 16_000 - 1600,
        "silence after the sound, to the video's end: {} frames written",
        rig.sink.written()
    );
    // A seek into the part without sound.
    rig.player.seek(1.5);
    let s = wait(&rig.player, "seeked", |s| (s.position - 1.5).abs() < 0.06);
    assert!(s.duration.is_some_and(|d| d > 1.9));
    let mut after = None;
    shown_at(&rig.player, 1.5, &mut after);
    assert_eq!(after.map(|f| frame_number(&f)), Some(15));
}
