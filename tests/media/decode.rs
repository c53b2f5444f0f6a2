//! Media playback without a sound card (feature `media`): decoding the committed samples
//! (tests/data/media, made by scripts/gen_media.py), sample-accurate seeking, the player on a
//! manual null sink (play, pause, seek, volume, mute, end), and hostile media (truncated
//! files, huge dimensions, a never-ending stream, wrong types) as typed errors.
#![cfg(feature = "media")]

use std::sync::Arc;
use std::time::{Duration, Instant};

use egui_a2ui::media::{
    AudioStream, FileLoader, MediaBytes, MediaError, MediaLoader, NullSink, NullSinkHandle,
    OutputSpec, Player, PlayerConfig, PlayerSnapshot, PlayerSource, Status, probe,
};

const RATE: f64 = 16_000.0;

fn sample(name: &str) -> Arc<[u8]> {
    let path = format!("{}/tests/data/media/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .into()
}

/// The generator's signal: 440 Hz for a second, then 880 Hz, amplitude 0.5 (as i16).
fn expected(n: usize) -> f32 {
    let t = n as f64 / RATE;
    let f = if t < 1.0 { 440.0 } else { 880.0 };
    let v = (0.5 * 32767.0 * (2.0 * std::f64::consts::PI * f * t).sin()).round();
    (v / 32768.0) as f32
}

fn decode_all(stream: &mut AudioStream) -> Vec<f32> {
    let mut out = Vec::new();
    for _ in 0..100_000 {
        match stream.next_chunk() {
            Ok(Some(chunk)) => out.extend_from_slice(chunk),
            Ok(None) => return out,
            Err(e) => panic!("decode error: {e}"),
        }
    }
    panic!("the stream never ended");
}

/// Zero crossings per second of `x` (a sine of f Hz crosses 2f times a second).
fn crossings_per_second(x: &[f32]) -> f64 {
    let n = x
        .windows(2)
        .filter(|w| (w[0] < 0.0) != (w[1] < 0.0))
        .count();
    n as f64 / (x.len() as f64 / RATE)
}

fn open(name: &str) -> AudioStream {
    let mime = None;
    AudioStream::open(sample(name), mime, 8192).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn every_audio_format_decodes_to_the_generated_tone() {
    for name in ["tone.wav", "tone.flac", "tone.mp3", "tone.ogg", "tone.m4a"] {
        let mut s = open(name);
        assert_eq!(s.spec().sample_rate, 16_000, "{name}");
        assert_eq!(s.spec().channels, 1, "{name}");
        let d = s
            .duration()
            .unwrap_or_else(|| panic!("{name}: no duration"));
        assert!((d - 2.0).abs() < 0.1, "{name}: duration {d}");
        let pcm = decode_all(&mut s);
        let secs = pcm.len() as f64 / RATE;
        // AAC in MP4 keeps the encoder's priming and padding (about 0.11 s here: the file
        // has no edit list to trim them by).
        assert!((secs - 2.0).abs() < 0.15, "{name}: decoded {secs} s");
        // First second 440 Hz, second one 880 Hz (lossy codecs keep the pitch). Skip the
        // edges (encoder delay, the switch).
        let first = crossings_per_second(&pcm[1600..14400]);
        let second = crossings_per_second(&pcm[17600..30400]);
        assert!((first - 880.0).abs() < 30.0, "{name}: {first} crossings/s");
        assert!(
            (second - 1760.0).abs() < 30.0,
            "{name}: {second} crossings/s"
        );
    }
}

#[test]
fn lossless_formats_decode_sample_exact() {
    for name in ["tone.wav", "tone.flac"] {
        let pcm = decode_all(&mut open(name));
        assert_eq!(pcm.len(), 32_000, "{name}");
        for (n, &x) in pcm.iter().enumerate() {
            assert!((x - expected(n)).abs() < 1e-6, "{name}: sample {n}: {x}");
        }
    }
}

#[test]
fn seeking_lands_on_the_exact_sample() {
    for name in ["tone.wav", "tone.flac"] {
        for target in [0.0, 0.25, 1.5, 1.999] {
            let mut s = open(name);
            let reached = s.seek(target).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(
                (reached - target).abs() < 1.0 / RATE,
                "{name}: {reached} for {target}"
            );
            let first = s
                .next_chunk()
                .expect("chunk")
                .expect("not at the end")
                .to_vec();
            let n0 = (target * RATE).round() as usize;
            for (i, &x) in first.iter().take(64).enumerate() {
                assert!(
                    (x - expected(n0 + i)).abs() < 1e-6,
                    "{name}: seek {target}: sample {} is {x}, want {}",
                    n0 + i,
                    expected(n0 + i)
                );
            }
        }
    }
}

#[test]
fn lossy_formats_seek_into_the_right_part_of_the_signal() {
    for name in ["tone.mp3", "tone.ogg", "tone.m4a"] {
        let mut s = open(name);
        let reached = s.seek(1.25).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!((reached - 1.25).abs() < 0.01, "{name}: {reached}");
        let mut pcm = Vec::new();
        while pcm.len() < 8000 {
            match s.next_chunk().expect("decodes") {
                Some(c) => pcm.extend_from_slice(c),
                None => break,
            }
        }
        let rate = crossings_per_second(&pcm[..8000.min(pcm.len())]);
        assert!(
            (rate - 1760.0).abs() < 40.0,
            "{name}: {rate} crossings/s after seek"
        );
        // And back before the switch.
        s.seek(0.2).expect("seek back");
        let chunk = s.next_chunk().expect("decodes").expect("samples").to_vec();
        let mut more = chunk;
        while more.len() < 4000 {
            match s.next_chunk().expect("decodes") {
                Some(c) => more.extend_from_slice(c),
                None => break,
            }
        }
        let rate = crossings_per_second(&more[..4000]);
        assert!(
            (rate - 880.0).abs() < 40.0,
            "{name}: {rate} crossings/s after seek back"
        );
    }
}

#[test]
fn probe_reads_containers_and_video_tracks() {
    let info = probe(sample("clip_h264.mp4"), Some("video/mp4"), 8192).expect("probe");
    let video = info.video.expect("a video track");
    assert_eq!(video.codec, "H.264");
    assert_eq!((video.width, video.height), (Some(64), Some(48)));
    assert!(info.audio.is_some());
    // symphonia reads the `av01` track but does not tag its codec.
    let info = probe(sample("clip_av1.mp4"), None, 8192).expect("probe");
    let video = info.video.expect("a video track");
    assert_eq!((video.width, video.height), (Some(64), Some(48)));
    let info = probe(sample("tone.ogg"), None, 8192).expect("probe");
    assert!(info.video.is_none());
    assert_eq!(info.audio.map(|a| a.sample_rate), Some(16_000));
}

// ---- hostile media ----

#[test]
fn huge_declared_dimensions_are_refused_before_decoding() {
    // The committed clip is 64x48: a limit below it refuses the file, typed.
    assert_eq!(
        probe(sample("clip_h264.mp4"), None, 32).err(),
        Some(MediaError::DimensionsTooLarge {
            width: 64,
            height: 48,
            limit: 32
        })
    );
    assert!(matches!(
        AudioStream::open(sample("clip_av1.mp4"), None, 16),
        Err(MediaError::DimensionsTooLarge { .. })
    ));
    // A header patched to claim 65535x65535 (the `tkhd` and `avc1` sizes): refused too.
    let mut bytes = sample("clip_h264.mp4").to_vec();
    // The last `avc1` is the sample entry (the first is a brand in `ftyp`): after its type,
    // 6 reserved + 2 index + 16 pre-defined bytes, then width and height (u16 each).
    let i = bytes
        .windows(4)
        .rposition(|w| w == b"avc1")
        .expect("an avc1 sample entry");
    assert!(i > 32, "not the ftyp brand");
    bytes[i + 28..i + 32].copy_from_slice(&[0xff, 0xff, 0xff, 0xff]);
    assert!(matches!(
        probe(bytes.into(), None, 8192),
        Err(MediaError::DimensionsTooLarge {
            width: 65535,
            height: 65535,
            ..
        })
    ));
}

#[test]
fn truncated_files_are_typed_errors_or_play_what_is_there() {
    for name in [
        "tone.wav",
        "tone.flac",
        "tone.mp3",
        "tone.ogg",
        "tone.m4a",
        "clip_h264.mp4",
    ] {
        let full = sample(name);
        for cut in [
            0,
            4,
            12,
            44,
            200,
            full.len() / 3,
            full.len() / 2,
            full.len() - 1,
        ] {
            let bytes: Arc<[u8]> = full[..cut].into();
            match AudioStream::open(bytes, None, 8192) {
                Err(e) => {
                    // Typed, with a message.
                    assert!(!e.to_string().is_empty(), "{name} cut at {cut}");
                }
                Ok(mut s) => {
                    // Whatever it decodes ends: no hang, no panic.
                    let mut chunks = 0;
                    while let Ok(Some(_)) = s.next_chunk() {
                        chunks += 1;
                        assert!(chunks < 10_000, "{name} cut at {cut}: never ends");
                    }
                }
            }
        }
    }
}

#[test]
fn garbage_and_wrong_types_are_typed_errors() {
    let garbage: Arc<[u8]> = vec![0x5a; 10_000].into();
    assert!(matches!(
        AudioStream::open(garbage, Some("audio/mpeg"), 8192),
        Err(MediaError::UnknownFormat(_) | MediaError::Decode(_))
    ));
    let png: Arc<[u8]> = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec().into();
    assert!(AudioStream::open(png, Some("image/png"), 8192).is_err());
    let empty: Arc<[u8]> = Vec::new().into();
    assert!(AudioStream::open(empty, None, 8192).is_err());
    // A video file handed to the audio decoder still plays its sound track.
    let mut s = AudioStream::open(sample("clip_h264.mp4"), None, 8192).expect("audio track");
    assert!(!decode_all(&mut s).is_empty());
}

// ---- the player on a manual null sink ----

struct Rig {
    player: Player,
    sink: NullSinkHandle,
}

fn rig(source: PlayerSource, autoplay: bool) -> Rig {
    let sink = NullSinkHandle::default();
    let handle = sink.clone();
    let config = PlayerConfig {
        output: Arc::new(move |spec: OutputSpec| {
            Ok(Box::new(NullSink::manual(spec, &handle)) as Box<dyn egui_a2ui::media::AudioSink>)
        }),
        max_bytes: 1024 * 1024,
        max_dimension: 8192,
        volume: 1.0,
        muted: autoplay,
        autoplay,
        video: false,
        silent_output: Arc::new(|_| Err(MediaError::Output("no clock".into()))),
        repaint: None,
    };
    Rig {
        player: Player::spawn(source, config),
        sink,
    }
}

/// Wait (bounded) until the player's state satisfies `ok`.
fn wait(player: &Player, what: &str, ok: impl Fn(&PlayerSnapshot) -> bool) -> PlayerSnapshot {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let s = player.snapshot();
        if ok(&s) {
            return s;
        }
        assert!(Instant::now() < deadline, "{what}: still {s:?}");
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// Wait until the sink holds at least `frames` queued frames.
fn wait_queued(sink: &NullSinkHandle, frames: u64) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while sink.queued() < frames {
        assert!(
            Instant::now() < deadline,
            "the player never filled the sink: {sink:?}"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
}

fn bytes(name: &str) -> PlayerSource {
    PlayerSource::Bytes(MediaBytes {
        bytes: sample(name),
        mime: None,
    })
}

#[test]
fn the_player_waits_for_play_and_follows_the_sink_clock() {
    let r = rig(bytes("tone.wav"), false);
    let s = wait(&r.player, "loaded", |s| s.status == Status::Paused);
    assert_eq!(s.duration, Some(2.0));
    assert_eq!(
        r.sink.written(),
        0,
        "nothing plays before play (no autoplay)"
    );
    r.player.play();
    wait(&r.player, "playing", |s| s.status == Status::Playing);
    // The sink holds a quarter second (4000 frames); play two of them.
    wait_queued(&r.sink, 4000);
    assert_eq!(r.sink.advance(4000), 4000);
    wait_queued(&r.sink, 4000);
    assert_eq!(r.sink.advance(4000), 4000);
    // Half a second heard: the position says so.
    wait(&r.player, "position 0.5", |s| {
        (s.position - 0.5).abs() < 1e-9
    });
    r.player.pause();
    wait(&r.player, "paused", |s| s.status == Status::Paused);
    assert!(r.sink.is_paused());
    assert_eq!(r.sink.advance(1000), 0);
    // What reached the sink is the file, sample for sample.
    let captured = r.sink.captured();
    assert!(captured.len() >= 8000);
    for (n, &x) in captured.iter().take(8000).enumerate() {
        assert!((x - expected(n)).abs() < 1e-6, "sample {n}");
    }
}

#[test]
fn the_player_plays_to_the_end_and_replays() {
    let r = rig(bytes("tone.ogg"), false);
    wait(&r.player, "loaded", |s| s.status == Status::Paused);
    r.player.play();
    let deadline = Instant::now() + Duration::from_secs(20);
    while r.player.snapshot().status != Status::Ended {
        r.sink.advance(4000);
        assert!(
            Instant::now() < deadline,
            "never ended: {:?}",
            r.player.snapshot()
        );
        std::thread::sleep(Duration::from_millis(1));
    }
    let s = r.player.snapshot();
    assert!((s.position - 2.0).abs() < 0.05, "{s:?}");
    let written = r.sink.written();
    assert!((31_000..=33_000).contains(&written), "{written} frames");
    r.player.play();
    wait(&r.player, "replaying", |s| s.status == Status::Playing);
    wait_queued(&r.sink, 4000);
    assert!(r.sink.flushes() >= 1, "replay starts over");
}

#[test]
fn seeking_the_player_flushes_and_continues_from_the_target() {
    let r = rig(bytes("tone.flac"), false);
    wait(&r.player, "loaded", |s| s.status == Status::Paused);
    r.player.play();
    wait_queued(&r.sink, 4000);
    r.sink.clear_captured();
    r.player.seek(1.5);
    let deadline = Instant::now() + Duration::from_secs(20);
    while r.sink.flushes() == 0 {
        assert!(Instant::now() < deadline, "never flushed");
        std::thread::sleep(Duration::from_millis(2));
    }
    assert!((r.player.snapshot().position - 1.5).abs() < 1e-9);
    // The sink was full before the seek (nothing advanced it), so all that was captured
    // since the clear was written after the flush.
    wait_queued(&r.sink, 4000);
    let captured = r.sink.captured();
    let n0 = 24_000;
    for (i, &x) in captured.iter().take(2000).enumerate() {
        assert!(
            (x - expected(n0 + i)).abs() < 1e-6,
            "sample {} after seek",
            n0 + i
        );
    }
    r.sink.advance(1600);
    wait(&r.player, "position after seek", |s| {
        (s.position - 1.6).abs() < 1e-9
    });
}

#[test]
fn volume_and_mute_scale_what_reaches_the_sink() {
    let r = rig(bytes("tone.wav"), false);
    wait(&r.player, "loaded", |s| s.status == Status::Paused);
    r.player.set_volume(0.5);
    r.player.play();
    wait_queued(&r.sink, 4000);
    let captured = r.sink.captured();
    for (n, &x) in captured.iter().take(4000).enumerate() {
        assert!(
            (x - 0.5 * expected(n)).abs() < 1e-6,
            "half volume, sample {n}"
        );
    }
    r.player.set_muted(true);
    r.sink.clear_captured();
    r.sink.advance(4000);
    wait_queued(&r.sink, 4000);
    r.sink.advance(4000); // the quarter second queued before muting plays out
    wait_queued(&r.sink, 4000);
    let captured = r.sink.captured();
    let tail = &captured[captured.len().saturating_sub(2000)..];
    assert!(tail.iter().all(|&x| x == 0.0), "muted samples are silent");
    assert!(r.player.snapshot().muted);
}

#[test]
fn muted_autoplay_starts_silent() {
    let r = rig(bytes("tone.wav"), true);
    let s = wait(&r.player, "autoplaying", |s| s.status == Status::Playing);
    assert!(s.muted);
    wait_queued(&r.sink, 4000);
    assert!(r.sink.captured().iter().all(|&x| x == 0.0));
}

#[test]
fn an_audio_player_plays_a_video_file_for_its_sound() {
    let sink = NullSinkHandle::default();
    let handle = sink.clone();
    let config = PlayerConfig {
        output: Arc::new(move |spec: OutputSpec| {
            Ok(Box::new(NullSink::manual(spec, &handle)) as Box<dyn egui_a2ui::media::AudioSink>)
        }),
        max_bytes: 1024 * 1024,
        max_dimension: 8192,
        volume: 1.0,
        muted: false,
        autoplay: false,
        video: false,
        silent_output: Arc::new(|_| Err(MediaError::Output("no clock".into()))),
        repaint: None,
    };
    let player = Player::spawn(bytes("clip_h264.mp4"), config);
    let s = wait(&player, "loaded", |s| s.status == Status::Paused);
    assert!(s.duration.is_some_and(|d| (d - 2.0).abs() < 0.15), "{s:?}");
    assert_eq!(
        player.video_info(),
        None,
        "no video decoded for an AudioPlayer"
    );
    player.play();
    wait_queued(&sink, 4000);
    // The clip's sound is the tone: 440 Hz at first.
    let pcm = sink.captured();
    let rate = crossings_per_second(&pcm[2000..4000]);
    assert!((rate - 880.0).abs() < 60.0, "{rate} crossings/s");
}

/// A host loader whose stream never ends.
struct Endless;

impl MediaLoader for Endless {
    fn handles(&self, url: &str) -> bool {
        url.starts_with("endless:")
    }
    fn open(
        &self,
        _url: &str,
    ) -> Result<(Box<dyn std::io::Read + Send>, Option<String>), MediaError> {
        Ok((Box::new(std::io::repeat(0)), None))
    }
}

#[test]
fn a_never_ending_source_stops_at_the_byte_cap() {
    let r = rig(
        PlayerSource::Loader(Arc::new(Endless), "endless:x".into()),
        false,
    );
    let s = wait(&r.player, "failed", |s| {
        matches!(s.status, Status::Failed(_))
    });
    assert_eq!(
        s.status,
        Status::Failed(MediaError::TooLarge { limit: 1024 * 1024 })
    );
}

#[test]
fn data_uris_and_file_loaders_play() {
    use base64::Engine as _;
    let b64 = base64::engine::general_purpose::STANDARD.encode(sample("tone.mp3"));
    let r = rig(
        PlayerSource::DataUri(format!("data:audio/mpeg;base64,{b64}")),
        false,
    );
    let s = wait(&r.player, "loaded", |s| s.status == Status::Paused);
    assert!((s.duration.unwrap_or(0.0) - 2.0).abs() < 0.1);
    // A bad data: URI is a load error, typed.
    let r = rig(
        PlayerSource::DataUri("data:audio/mpeg;base64,%%%".into()),
        false,
    );
    wait(&r.player, "failed", |s| {
        matches!(s.status, Status::Failed(_))
    });

    let dir = format!("{}/tests/data/media", env!("CARGO_MANIFEST_DIR"));
    let loader: Arc<dyn MediaLoader> = Arc::new(FileLoader::new([&dir]));
    let url = format!("file://{dir}/tone.flac");
    assert!(loader.handles(&url));
    let r = rig(PlayerSource::Loader(Arc::clone(&loader), url), false);
    let s = wait(&r.player, "loaded", |s| s.status == Status::Paused);
    assert_eq!(s.duration, Some(2.0));
    // Outside the served directory: refused.
    let r = rig(
        PlayerSource::Loader(loader, format!("file://{dir}/../media.rs")),
        false,
    );
    let s = wait(&r.player, "failed", |s| {
        matches!(s.status, Status::Failed(_))
    });
    assert!(matches!(
        s.status,
        Status::Failed(MediaError::Refused(_) | MediaError::Load(_))
    ));
}

#[test]
fn a_failing_audio_output_is_shown_not_panicked() {
    let config = PlayerConfig {
        output: Arc::new(|_| Err(MediaError::Output("no device".into()))),
        max_bytes: 1024 * 1024,
        max_dimension: 8192,
        volume: 1.0,
        muted: false,
        autoplay: false,
        video: false,
        silent_output: Arc::new(|_| Err(MediaError::Output("no clock".into()))),
        repaint: None,
    };
    let player = Player::spawn(bytes("tone.wav"), config);
    wait(&player, "loaded", |s| s.status == Status::Paused);
    player.play();
    let s = wait(&player, "failed", |s| matches!(s.status, Status::Failed(_)));
    assert_eq!(
        s.status,
        Status::Failed(MediaError::Output("no device".into()))
    );
}

/// The real Linux output against a PulseAudio (or pipewire-pulse) server: the stream opens,
/// the server pulls samples and the clock moves, but behind what was handed over (what sits
/// in the server's buffer has not been heard); once the ring runs dry the clock catches up
/// with everything handed over and then stands still (the silence the server is given
/// meanwhile is not counted); pause stops it, flush restarts it at 0.
/// `.ci/run` runs it against a null-sink server (`scripts/check.sh` starts one):
/// `PULSE_SERVER=unix:/path/native cargo test --features media --test media -- --ignored
/// pulse` with `pulseaudio -n --load=module-null-sink --load="module-native-protocol-unix
/// socket=/path/native auth-anonymous=1"`.
#[cfg(target_os = "linux")]
#[test]
#[ignore = "needs a PulseAudio server (PULSE_SERVER); scripts/check.sh runs it with one"]
fn pulse_sink_plays_into_a_real_server() {
    use egui_a2ui::media::AudioSink as _;
    use egui_a2ui::media::audio::PulseSink;
    let spec = OutputSpec {
        sample_rate: 16_000,
        channels: 1,
    };
    let mut sink = PulseSink::open(spec).expect("a PulseAudio server answers");
    let tone: Vec<f32> = (0..16_000).map(expected).collect();
    let mut offset = 0;
    let deadline = Instant::now() + Duration::from_secs(20);
    // The most the clock was behind what the server had been given, while it played.
    let mut lag = 0u64;
    while sink.played_frames() < 8000 {
        if offset < tone.len() {
            offset += sink.write(&tone[offset..]).expect("write");
        }
        let played = sink.played_frames();
        lag = lag.max(sink.handed_frames().saturating_sub(played));
        assert!(
            played <= sink.handed_frames(),
            "never more heard than handed"
        );
        assert!(Instant::now() < deadline, "the server never played 0.5 s");
        std::thread::sleep(Duration::from_millis(5));
    }
    eprintln!("the clock was at most {lag} frames behind what the server was given");
    assert!(
        lag >= 160,
        "the clock counts what the server has buffered as heard (lag {lag} frames, < 10 ms)"
    );
    // Hand over the rest and let it drain: the clock reaches all of it and stops there.
    while offset < tone.len() {
        offset += sink.write(&tone[offset..]).expect("write");
        assert!(Instant::now() < deadline, "the ring never took the tone");
        std::thread::sleep(Duration::from_millis(5));
    }
    while sink.queued_frames() > 0 {
        assert!(
            Instant::now() < deadline,
            "the clock never caught up: {} of {} frames heard",
            sink.played_frames(),
            sink.handed_frames()
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(sink.handed_frames(), 16_000);
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(
        sink.played_frames(),
        16_000,
        "the silence after the end is not counted"
    );
    // Pause in the middle of a second tone.
    let mut offset = 0;
    while sink.played_frames() < 16_000 + 4000 {
        if offset < tone.len() {
            offset += sink.write(&tone[offset..]).expect("write");
        }
        assert!(Instant::now() < deadline, "the second tone never played");
        std::thread::sleep(Duration::from_millis(5));
    }
    sink.pause();
    std::thread::sleep(Duration::from_millis(300));
    let paused_at = sink.played_frames();
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(
        sink.played_frames(),
        paused_at,
        "a corked stream does not play"
    );
    sink.flush();
    assert_eq!((sink.played_frames(), sink.queued_frames()), (0, 0));
    sink.resume();
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(sink.played_frames(), 0, "nothing to play after the flush");
    assert_eq!(sink.name(), "pulseaudio");
}
