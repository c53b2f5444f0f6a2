//! The media controls driven through AccessKit (kittest, no display, no sound card):
//! play/pause, the seek bar, mute and volume, keyboard focus, errors on the component, and
//! a `Video`'s poster, picture and the same controls, and a `Video` whose codec this build
//! does not decode saying "format not supported" (feature `media`).
#![cfg(feature = "media")]

use std::sync::Arc;
use std::time::{Duration, Instant};

use base64::Engine as _;
use egui::accesskit::Role;
use egui_a2ui::media::{
    AudioSink, MediaError, MediaLoader, MediaOptions, NullSink, NullSinkHandle, OutputSpec,
};
use egui_a2ui::{Catalog, Event, Renderer, RendererOptions};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable};

fn sample(name: &str) -> Vec<u8> {
    let path = format!("{}/tests/data/media/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn data_uri(mime: &str, bytes: &[u8]) -> String {
    format!(
        "data:{mime};base64,{}",
        base64::engine::general_purpose::STANDARD.encode(bytes)
    )
}

fn tone_uri() -> String {
    data_uri("audio/wav", &sample("tone.wav"))
}

/// A 4x4 PNG (a poster).
fn poster_uri() -> String {
    let img = image::RgbaImage::from_pixel(4, 4, image::Rgba([200, 30, 30, 255]));
    let mut png = Vec::new();
    img.write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .expect("png");
    data_uri("image/png", &png)
}

/// A host loader serving one committed sample for `https://cdn.example/...` (no network).
struct Cdn(&'static str);

impl MediaLoader for Cdn {
    fn handles(&self, url: &str) -> bool {
        url.starts_with("https://cdn.example/")
    }
    fn open(&self, _: &str) -> Result<(Box<dyn std::io::Read + Send>, Option<String>), MediaError> {
        Ok((Box::new(std::io::Cursor::new(sample(self.0))), None))
    }
}

fn doc(component: &str, props: &serde_json::Value) -> String {
    let mut c = serde_json::json!({"id": "root", "component": component});
    if let (Some(c), Some(p)) = (c.as_object_mut(), props.as_object()) {
        c.extend(p.clone());
    }
    format!(
        "{}\n{}\n",
        serde_json::json!({"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json"}}),
        serde_json::json!({"version":"v0.9","updateComponents":{"surfaceId":"s","components":[c]}})
    )
}

struct App {
    renderer: Renderer,
    events: Vec<Event>,
}

fn harness(document: &str, sink: &NullSinkHandle) -> Harness<'static, App> {
    harness_with(document, sink, Vec::new())
}

fn harness_with(
    document: &str,
    sink: &NullSinkHandle,
    loaders: Vec<Arc<dyn MediaLoader>>,
) -> Harness<'static, App> {
    let (handle, silent) = (sink.clone(), sink.clone());
    let media = MediaOptions {
        audio_output: Arc::new(move |spec: OutputSpec| {
            Ok(Box::new(NullSink::manual(spec, &handle)) as Box<dyn AudioSink>)
        }),
        silent_output: Arc::new(move |spec: OutputSpec| {
            Ok(Box::new(NullSink::manual(spec, &silent)) as Box<dyn AudioSink>)
        }),
        loaders,
        ..MediaOptions::default()
    };
    let mut renderer = Renderer::new(Catalog::basic()).with_options(RendererOptions {
        show_surface_header: false,
        media,
        ..RendererOptions::default()
    });
    renderer.feed_document(document.as_bytes());
    assert!(renderer.store().errors().is_empty());
    Harness::builder()
        // Tall enough for a video's picture above its controls.
        .with_size(egui::vec2(600.0, 600.0))
        .build_ui_state(
            |ui, app: &mut App| {
                let events = app.renderer.ui(ui);
                app.events.extend(events);
            },
            App {
                renderer,
                events: Vec::new(),
            },
        )
}

/// Step the harness (bounded) until `ok` holds: the player works on its own thread.
fn step_until(
    h: &mut Harness<'static, App>,
    what: &str,
    ok: impl Fn(&Harness<'static, App>) -> bool,
) {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        h.step();
        if ok(h) {
            return;
        }
        assert!(Instant::now() < deadline, "{what}: never happened");
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn has_button(h: &Harness<'static, App>, name: &str) -> bool {
    h.query_by_role_and_label(Role::Button, name).is_some()
}

#[test]
fn play_pause_seek_mute_and_volume_through_accesskit() {
    let sink = NullSinkHandle::default();
    let mut h = harness(
        &doc(
            "AudioPlayer",
            &serde_json::json!({"url": tone_uri(), "description": "Tone"}),
        ),
        &sink,
    );
    step_until(&mut h, "loaded", |h| {
        h.query_by_role_and_label(Role::Button, "Play")
            .is_some_and(|n| !n.accesskit_node().is_disabled())
    });
    assert!(h.query_by_label_contains("0:00 / 0:02").is_some());
    assert_eq!(sink.written(), 0, "no autoplay by default");

    h.get_by_role_and_label(Role::Button, "Play").click();
    step_until(&mut h, "playing", |h| has_button(h, "Pause"));
    let deadline = Instant::now() + Duration::from_secs(20);
    while sink.queued() < 4000 {
        assert!(Instant::now() < deadline);
        std::thread::sleep(Duration::from_millis(2));
    }
    sink.advance(16_000); // only 4000 are queued: a quarter second plays
    step_until(&mut h, "seek bar moved", |h| {
        h.get_by_role_and_label(Role::Slider, "Seek")
            .accesskit_node()
            .numeric_value()
            .is_some_and(|v| (v - 0.25).abs() < 1e-6)
    });

    // Seek through AccessKit (what a screen reader's "set value" does).
    h.get_by_role_and_label(Role::Slider, "Seek")
        .set_value_accesskit(1.5);
    step_until(&mut h, "seeked", |_| sink.flushes() == 1);
    step_until(&mut h, "seek bar at 1.5", |h| {
        h.get_by_role_and_label(Role::Slider, "Seek")
            .accesskit_node()
            .numeric_value()
            .is_some_and(|v| (v - 1.5).abs() < 1e-6)
    });
    assert!(h.query_by_label_contains("0:01 / 0:02").is_some());

    h.get_by_role_and_label(Role::Button, "Mute").click();
    step_until(&mut h, "muted", |h| has_button(h, "Unmute"));
    h.get_by_role_and_label(Role::Slider, "Volume")
        .set_value_accesskit(0.25);
    step_until(&mut h, "volume and unmuted", |h| {
        has_button(h, "Mute")
            && h.get_by_role_and_label(Role::Slider, "Volume")
                .accesskit_node()
                .numeric_value()
                == Some(0.25)
    });

    h.get_by_role_and_label(Role::Button, "Pause").click();
    step_until(&mut h, "paused", |h| has_button(h, "Play"));
    assert!(sink.is_paused());
    assert!(
        h.state()
            .events
            .iter()
            .all(|e| !matches!(e, Event::Error(_)))
    );
}

#[test]
fn every_control_is_reachable_with_tab_and_space_plays() {
    let sink = NullSinkHandle::default();
    let mut h = harness(
        &doc("AudioPlayer", &serde_json::json!({"url": tone_uri()})),
        &sink,
    );
    step_until(&mut h, "loaded", |h| {
        h.query_by_role_and_label(Role::Button, "Play")
            .is_some_and(|n| !n.accesskit_node().is_disabled())
    });
    let mut reached = Vec::new();
    for _ in 0..8 {
        h.key_press(egui::Key::Tab);
        h.run();
        for (role, name) in [
            (Role::Button, "Play"),
            (Role::Slider, "Seek"),
            (Role::Button, "Mute"),
            (Role::Slider, "Volume"),
        ] {
            if h.query_by_role_and_label(role, name)
                .is_some_and(|n| n.is_focused())
                && !reached.contains(&name)
            {
                reached.push(name);
            }
        }
    }
    assert_eq!(reached, ["Play", "Seek", "Mute", "Volume"], "tab order");
    // Back to Play with shift-tab and press it with the keyboard.
    for _ in 0..3 {
        h.key_press_modifiers(egui::Modifiers::SHIFT, egui::Key::Tab);
        h.run();
    }
    assert!(h.get_by_role_and_label(Role::Button, "Play").is_focused());
    h.key_press(egui::Key::Space);
    step_until(&mut h, "playing from the keyboard", |h| {
        has_button(h, "Pause")
    });
}

#[test]
fn refused_and_broken_sources_show_their_error_on_the_component() {
    let sink = NullSinkHandle::default();
    let mut cases = vec![
        ("javascript:alert(1)", "media URL refused"),
        ("http://plain.example/a.mp3", "media URL refused"),
        ("data:text/html,<b>hi</b>", "not a media type"),
        (
            "data:audio/mpeg;base64,AAAAAAAAAAAA",
            "unrecognised media format",
        ),
    ];
    // Without the `http` feature no bytes loader serves `https:`. With it this would be a
    // real fetch, and tests never fetch.
    if cfg!(not(feature = "http")) {
        cases.push(("https://cdn.example/a.mp3", "no loader for this URL"));
    }
    for (url, text) in cases {
        let mut h = harness(&doc("AudioPlayer", &serde_json::json!({"url": url})), &sink);
        h.run();
        if url.starts_with("https:") {
            // A network source is fetched only once play is pressed.
            assert!(h.query_by_label_contains(text).is_none());
            h.get_by_role_and_label(Role::Button, "Play").click();
        }
        step_until(&mut h, url, |h| h.query_by_label_contains(text).is_some());
        assert!(
            !has_button(&h, "Play"),
            "{url}: no controls for a failed source"
        );
    }
    assert_eq!(sink.written(), 0);
}

#[test]
fn a_video_shows_its_poster_then_its_frames_with_the_same_controls() {
    let sink = NullSinkHandle::default();
    let mut h = harness(
        &doc(
            "Video",
            &serde_json::json!({
                "url": data_uri("video/mp4", &sample("clip_h264.mp4")),
                "posterUrl": poster_uri(),
                "description": "Numbered frames",
            }),
        ),
        &sink,
    );
    step_until(&mut h, "loaded", |h| {
        h.query_by_role_and_label(Role::Button, "Play")
            .is_some_and(|n| !n.accesskit_node().is_disabled())
    });
    assert!(h.query_by_label_contains("0:00 / 0:02").is_some());
    // Before play: the poster, not a frame; nothing autoplays.
    assert!(
        h.query_by_role_and_label(Role::Image, "Numbered frames (poster)")
            .is_some()
    );
    assert!(
        h.query_by_role_and_label(Role::Image, "Numbered frames")
            .is_none()
    );
    assert_eq!(sink.written(), 0, "no autoplay by default");
    assert!(
        h.query_by_label_contains("Video: Numbered frames")
            .is_some()
    );

    h.get_by_role_and_label(Role::Button, "Play").click();
    step_until(&mut h, "playing", |h| has_button(h, "Pause"));
    // Played: the poster gives way to the picture (a frame in the texture).
    step_until(&mut h, "a frame shown", |h| {
        h.query_by_role_and_label(Role::Image, "Numbered frames")
            .is_some()
    });
    assert!(
        h.query_by_role_and_label(Role::Image, "Numbered frames (poster)")
            .is_none()
    );

    h.get_by_role_and_label(Role::Slider, "Seek")
        .set_value_accesskit(1.5);
    step_until(&mut h, "seeked", |_| sink.flushes() == 1);
    step_until(&mut h, "seek bar at 1.5", |h| {
        h.get_by_role_and_label(Role::Slider, "Seek")
            .accesskit_node()
            .numeric_value()
            .is_some_and(|v| (v - 1.5).abs() < 1e-6)
    });
    h.get_by_role_and_label(Role::Button, "Mute").click();
    step_until(&mut h, "muted", |h| has_button(h, "Unmute"));
    h.get_by_role_and_label(Role::Button, "Pause").click();
    step_until(&mut h, "paused", |h| has_button(h, "Play"));
    assert!(sink.is_paused());
    // The same controls as the AudioPlayer, in the same tab order.
    let mut reached = Vec::new();
    for _ in 0..8 {
        h.key_press(egui::Key::Tab);
        h.run();
        for (role, name) in [
            (Role::Button, "Play"),
            (Role::Slider, "Seek"),
            (Role::Button, "Unmute"),
            (Role::Slider, "Volume"),
        ] {
            if h.query_by_role_and_label(role, name)
                .is_some_and(|n| n.is_focused())
                && !reached.contains(&name)
            {
                reached.push(name);
            }
        }
    }
    assert_eq!(reached, ["Play", "Seek", "Unmute", "Volume"], "tab order");

    assert!(
        h.state()
            .events
            .iter()
            .all(|e| !matches!(e, Event::Error(_)))
    );
}

#[test]
fn a_video_in_an_unsupported_codec_says_format_not_supported_and_offers_the_link() {
    let sink = NullSinkHandle::default();
    let url = "https://cdn.example/clip.webm";
    let mut h = harness_with(
        &doc("Video", &serde_json::json!({"url": url})),
        &sink,
        vec![Arc::new(Cdn("clip_vp9.webm"))],
    );
    step_until(&mut h, "refused", |h| {
        h.query_by_label_contains("format not supported: VP9")
            .is_some()
    });
    assert!(!has_button(&h, "Play"), "no player controls");
    let open = h.get_by_role_and_label(Role::Button, "Play video");
    open.click();
    h.run();
    assert!(
        h.state()
            .events
            .iter()
            .any(|e| matches!(e, Event::OpenUrl { url: u, .. } if u == url)),
        "{:?}",
        h.state().events
    );
    assert_eq!(sink.written(), 0);
}

#[test]
fn a_removed_player_stops() {
    let sink = NullSinkHandle::default();
    let mut h = harness(
        &doc("AudioPlayer", &serde_json::json!({"url": tone_uri()})),
        &sink,
    );
    step_until(&mut h, "loaded", |h| {
        h.query_by_role_and_label(Role::Button, "Play")
            .is_some_and(|n| !n.accesskit_node().is_disabled())
    });
    h.get_by_role_and_label(Role::Button, "Play").click();
    step_until(&mut h, "playing", |h| has_button(h, "Pause"));
    // The agent replaces the player with a text.
    h.state_mut().renderer.feed_document(
        br#"{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":"gone"}]}}
"#,
    );
    for _ in 0..6 {
        h.step();
    }
    // Its worker is gone: the sink stops being filled after what it had queued.
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        sink.advance(100_000);
        let before = sink.written();
        std::thread::sleep(Duration::from_millis(50));
        sink.advance(100_000);
        if sink.written() == before {
            break;
        }
        assert!(Instant::now() < deadline, "the removed player kept playing");
    }
}

/// A picture of the controls to look at (not a snapshot comparison): an AudioPlayer loaded
/// and paused, one that failed, and a Video. Written to the target's tmp folder.
#[cfg(feature = "snapshots")]
#[test]
#[ignore = "writes media_controls.png into the target's tmp folder (feature snapshots)"]
fn write_controls_picture() {
    let sink = NullSinkHandle::default();
    let document = format!(
        "{}\n{}\n",
        serde_json::json!({"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json"}}),
        serde_json::json!({"version":"v0.9","updateComponents":{"surfaceId":"s","components":[
            {"id":"root","component":"Column","children":["a","b","v"]},
            {"id":"a","component":"AudioPlayer","url":tone_uri(),"description":"Episode 12: the two-tone test"},
            {"id":"b","component":"AudioPlayer","url":"data:audio/mpeg;base64,AAAAAAAA","description":"A broken file"},
            {"id":"v","component":"Video","url":"https://cdn.example/clip.mp4"}
        ]}})
    );
    let mut h = harness(&document, &sink);
    step_until(&mut h, "loaded", |h| {
        h.query_by_role_and_label(Role::Button, "Play")
            .is_some_and(|n| !n.accesskit_node().is_disabled())
            && h.query_by_label_contains("unrecognised").is_some()
    });
    h.run();
    let image = h.render().expect("render");
    let path = format!("{}/media_controls.png", env!("CARGO_TARGET_TMPDIR"));
    image.save(&path).expect("save");
    eprintln!("wrote {path}");
}
