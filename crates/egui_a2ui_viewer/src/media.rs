//! Media in the viewer: the renderer options every source's renderer gets (the URL policy
//! and host loaders of the `media` feature), and the gallery's media samples.
//!
//! Agents send remote media URLs. The viewer maps a few of them to the small files committed
//! under the repository's `tests/data/media/` ([`SampleMedia`], a
//! [`MediaLoader`] tried before any network fetch), so the
//! samples play offline; everything else goes to the network as usual. It also serves
//! `file:` URLs inside that folder ([`FileLoader`]), for documents that point at local files.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use egui_a2ui::RendererOptions;
use egui_a2ui::media::{FileLoader, MediaError, MediaLoader};
use serde_json::{Value, json};

/// The made-up host of the samples' media URLs.
pub const SAMPLE_MEDIA_HOST: &str = "https://media.a2ui.example/";

/// The remote names the samples use, and the committed file each plays.
pub const SAMPLE_MEDIA: &[(&str, &str, &str)] = &[
    ("music/blinding-lights.mp3", "tone.mp3", "audio/mpeg"),
    ("podcast/episode-12.m4a", "tone.m4a", "audio/mp4"),
    ("video/numbered-frames.mp4", "clip_h264.mp4", "video/mp4"),
    ("video/numbered-frames-av1.mp4", "clip_av1.mp4", "video/mp4"),
    ("video/numbered-frames.webm", "clip_vp9.webm", "video/webm"),
];

/// The committed media files: `tests/data/media/` at the repository's root.
#[must_use]
pub fn media_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/media")
}

/// Serves the samples' remote media URLs ([`SAMPLE_MEDIA`]) from [`media_dir`].
#[derive(Clone, Debug)]
pub struct SampleMedia {
    dir: PathBuf,
}

impl SampleMedia {
    /// Serve from [`media_dir`].
    #[must_use]
    pub fn new() -> Self {
        Self { dir: media_dir() }
    }

    fn entry(url: &str) -> Option<&'static (&'static str, &'static str, &'static str)> {
        let name = url.strip_prefix(SAMPLE_MEDIA_HOST)?;
        SAMPLE_MEDIA.iter().find(|(remote, _, _)| *remote == name)
    }
}

impl Default for SampleMedia {
    fn default() -> Self {
        Self::new()
    }
}

impl MediaLoader for SampleMedia {
    fn handles(&self, url: &str) -> bool {
        Self::entry(url).is_some()
    }

    fn open(&self, url: &str) -> Result<(Box<dyn Read + Send>, Option<String>), MediaError> {
        let (_, file, mime) =
            Self::entry(url).ok_or_else(|| MediaError::NoLoader(url.to_owned()))?;
        let path = self.dir.join(file);
        let f = std::fs::File::open(&path)
            .map_err(|e| MediaError::Load(format!("{}: {e}", path.display())))?;
        Ok((Box::new(f), Some((*mime).to_owned())))
    }
}

/// The options of every renderer in the viewer: media may also load from `file:` (inside
/// [`media_dir`]), and the samples' media URLs play the committed files. Players never
/// start on their own (the default).
#[must_use]
pub fn renderer_options() -> RendererOptions {
    let mut options = RendererOptions::default();
    options.url_policy = options
        .url_policy
        .with_media_schemes(["https", "data", "file"]);
    options.media.loaders = vec![
        Arc::new(SampleMedia::new()),
        Arc::new(FileLoader::new([media_dir()])),
    ];
    options
}

fn surface(id: &str) -> Value {
    json!({"version": "v0.9", "createSurface": {
        "surfaceId": id,
        "catalogId": egui_a2ui::protocol::BASIC_CATALOG_V0_9,
    }})
}

fn components(id: &str, list: Value) -> Value {
    json!({"version": "v0.9", "updateComponents": {"surfaceId": id, "components": list}})
}

/// The official v0.9 music-player example (from the bundled samples) with a real player:
/// its mock buttons stay, and an `AudioPlayer` of the track (a local file) is added under
/// the track's title.
#[must_use]
pub fn music_player() -> Vec<Value> {
    let path = crate::samples::samples_dir().join("official/v0_9/06_music-player.json");
    let Some(mut messages) = std::fs::read(&path)
        .ok()
        .and_then(|b| serde_json::from_slice::<Value>(&b).ok())
        .and_then(|v| v.get("messages").cloned())
        .and_then(|m| m.as_array().cloned())
    else {
        return vec![json!({"note": format!("cannot read {}", path.display())})];
    };
    for m in &mut messages {
        let Some(list) = m
            .pointer_mut("/updateComponents/components")
            .and_then(Value::as_array_mut)
        else {
            continue;
        };
        for c in list.iter_mut() {
            if c.get("id").and_then(Value::as_str) == Some("main-column")
                && let Some(children) = c.get_mut("children").and_then(Value::as_array_mut)
            {
                let at = children
                    .iter()
                    .position(|x| x == "track-info")
                    .map_or(children.len(), |i| i + 1);
                children.insert(at, json!("player"));
            }
        }
        list.push(json!({
            "id": "player",
            "component": "AudioPlayer",
            "url": format!("{SAMPLE_MEDIA_HOST}music/blinding-lights.mp3"),
            "description": {"path": "/title"},
        }));
    }
    messages
}

/// A podcast episode card: title, show notes and an `AudioPlayer` (AAC in MP4).
#[must_use]
pub fn podcast() -> Vec<Value> {
    let id = "media-podcast";
    vec![
        surface(id),
        components(
            id,
            json!([
                {"id": "root", "component": "Card", "child": "col"},
                {"id": "col", "component": "Column", "children": ["show", "title", "notes", "player"]},
                {"id": "show", "component": "Text", "text": "The Test Signal Podcast", "variant": "caption"},
                {"id": "title", "component": "Text", "text": "Episode 12: two tones", "variant": "h3"},
                {"id": "notes", "component": "Text", "text": "A second of A4, then a second of A5."},
                {"id": "player", "component": "AudioPlayer",
                 "url": format!("{SAMPLE_MEDIA_HOST}podcast/episode-12.m4a"),
                 "description": "Episode 12: two tones"}
            ]),
        ),
    ]
}

/// Videos: H.264 with sound, AV1 with sound, and VP9 (which this build does not decode:
/// the card says so and offers the link).
#[must_use]
pub fn videos() -> Vec<Value> {
    let id = "media-videos";
    vec![
        surface(id),
        components(
            id,
            json!([
                {"id": "root", "component": "Column", "children": ["h264", "av1", "vp9"]},
                {"id": "h264", "component": "Video",
                 "url": format!("{SAMPLE_MEDIA_HOST}video/numbered-frames.mp4"),
                 "description": "H.264 + AAC in MP4"},
                {"id": "av1", "component": "Video",
                 "url": format!("{SAMPLE_MEDIA_HOST}video/numbered-frames-av1.mp4"),
                 "description": "AV1 + AAC in MP4"},
                {"id": "vp9", "component": "Video",
                 "url": format!("{SAMPLE_MEDIA_HOST}video/numbered-frames.webm"),
                 "description": "VP9 + Opus in WebM"}
            ]),
        ),
    ]
}
