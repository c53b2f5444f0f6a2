//! Playback for `Video` and `AudioPlayer` (feature `media`).
//!
//! The pieces, from bytes to sound:
//!
//! - **Sources** ([`source`]): a component's `url` is checked against the
//!   [`UrlPolicy`](crate::url_policy::UrlPolicy) first; a refused URL is a typed [`MediaError::Refused`]
//!   and is never fetched. `data:audio/*` / `data:video/*` URIs are decoded (bounded by
//!   [`Limits::max_media_bytes`](crate::limits::Limits::max_media_bytes)); a host's own
//!   [`MediaLoader`]s (for `file:` samples, an app's asset store...) run on the player's worker
//!   thread; anything else goes through egui's bytes loaders, so `https:` is fetched off the UI
//!   thread by the `http` feature's loader (or the host's). The whole file is loaded (up to the
//!   byte cap) before it plays.
//! - **Decoding** ([`AudioStream`]): symphonia demuxes MP4/M4A, Ogg, WAV, FLAC, MP3 and
//!   Matroska/WebM and decodes MP3, AAC-LC, Vorbis, FLAC and PCM, in pure Rust, on the
//!   player's worker thread.
//! - **Output** ([`AudioSink`]): a trait with a [`NullSink`] (no device: tests, headless
//!   hosts) and, on Linux, [`PulseSink`](audio::PulseSink), a pure-Rust PulseAudio client
//!   (PulseAudio or PipeWire's pulse server at run time, nothing at build time). Which one a
//!   player opens is [`MediaOptions::audio_output`].
//! - **Player** ([`Player`]): one worker thread per component, driven by commands (play,
//!   pause, seek, volume, mute) and reporting a [`PlayerSnapshot`] the controls draw.
//!
//! - **Video** ([`VideoStream`]): H.264 (OpenH264, built from its bundled C++ source) and
//!   AV1 (rav1d, Rust, assembly off) in MP4, demuxed by symphonia; decoding and YUV to RGBA
//!   on a second worker thread, [`FRAME_QUEUE_DEPTH`] frames ahead of the clock at most. The
//!   UI shows the frame due on the player's clock (the audio sink's; a video without sound
//!   is clocked by a silent sink, [`MediaOptions::silent_output`]) in one texture updated in
//!   place. VP9, VP8, H.265 and other codecs are [`MediaError::UnsupportedCodec`]: the
//!   component shows "format not supported" and the open-link button.

pub mod audio;
mod container;
pub(crate) mod decode;
mod player;
pub mod source;
mod video;

use std::sync::Arc;

pub use audio::{AudioSink, NullSink, NullSinkHandle, OutputSpec};
pub use decode::{AudioStream, MediaInfo, VideoTrackInfo, probe};
pub use player::{
    FRAME_QUEUE_BYTES, FRAME_QUEUE_DEPTH, Player, PlayerConfig, PlayerSnapshot, PlayerSource,
    Status,
};
pub use source::{FileLoader, MediaBytes, MediaLoader};
pub use video::{VideoCodec, VideoFrame, VideoInfo, VideoStream};

use crate::url_policy::UrlRefusal;

/// Why a media source could not be played. Shown on the component; never a panic.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MediaError {
    /// The URL policy refused the URL; nothing was fetched.
    #[error("media URL refused: {0}")]
    Refused(UrlRefusal),
    /// A `data:` URI or fetched resource whose type is not audio or video.
    #[error("not a media type: {0}")]
    WrongType(String),
    /// No loader serves this URL (no `http` feature and no host loader, say).
    #[error("no loader for this URL: {0}")]
    NoLoader(String),
    /// The source has more bytes than [`Limits::max_media_bytes`](crate::limits::Limits::max_media_bytes).
    #[error("media is larger than the {limit}-byte limit")]
    TooLarge {
        /// The limit in force.
        limit: usize,
    },
    /// A video whose frame size is over [`Limits::max_media_dimension`](crate::limits::Limits::max_media_dimension).
    #[error("video of {width}x{height} is over the {limit}-pixel limit")]
    DimensionsTooLarge {
        /// Width in pixels.
        width: u32,
        /// Height in pixels.
        height: u32,
        /// The limit in force (each side).
        limit: u32,
    },
    /// Loading failed (network, file, the host loader's error).
    #[error("could not load media: {0}")]
    Load(String),
    /// The bytes are no container symphonia reads.
    #[error("unrecognised media format: {0}")]
    UnknownFormat(String),
    /// A codec this build cannot decode (every video codec, Opus...).
    #[error("format not supported: {0}")]
    UnsupportedCodec(String),
    /// The file has no track this component can play.
    #[error("no playable track")]
    NoTrack,
    /// The stream is broken past what the decoder recovers from.
    #[error("could not decode media: {0}")]
    Decode(String),
    /// The audio output failed.
    #[error("audio output: {0}")]
    Output(String),
}

/// Whether players start on their own when their media is ready. Never with sound: the most a
/// host can allow is [`Autoplay::Muted`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Autoplay {
    /// Start only when the user presses play (the default).
    #[default]
    Never,
    /// Start muted once loaded (as browsers allow muted autoplay); the user unmutes.
    Muted,
}

/// Opens the audio output of a player (a [`PulseSink`](audio::PulseSink), a [`NullSink`], a
/// host's own [`AudioSink`]). Called on the player's worker thread once the stream's format
/// is known.
pub type AudioOutputFactory =
    Arc<dyn Fn(OutputSpec) -> Result<Box<dyn AudioSink>, MediaError> + Send + Sync>;

/// Host settings for `Video` and `AudioPlayer` playback
/// ([`RendererOptions::media`](crate::render::RendererOptions::media)).
#[derive(Clone)]
pub struct MediaOptions {
    /// Play `Video` and `AudioPlayer` in the panel (the default). `false` draws the media
    /// card of builds without the feature instead (poster, title, host and an "open link"
    /// button that hands the URL to the host): for a host that plays media elsewhere.
    pub in_panel: bool,
    /// Whether players start by themselves (never with sound). Default [`Autoplay::Never`].
    pub autoplay: Autoplay,
    /// Loaders for URLs the host serves itself, tried in order before egui's bytes loaders
    /// (a `file:` loader for local samples, an app's asset store...). The URL policy is
    /// checked first: add the scheme with
    /// [`UrlPolicy::with_media_schemes`](crate::url_policy::UrlPolicy::with_media_schemes).
    pub loaders: Vec<Arc<dyn MediaLoader>>,
    /// The audio output; default [`default_audio_output`].
    pub audio_output: AudioOutputFactory,
    /// The clock of a `Video` without sound it can play: a sink fed silence (default a
    /// real-time [`NullSink`], the wall clock; tests give a [`NullSink::manual`]).
    pub silent_output: AudioOutputFactory,
    /// Start volume of a new player, `0.0..=1.0` (default 1.0).
    pub volume: f32,
}

impl Default for MediaOptions {
    fn default() -> Self {
        Self {
            in_panel: true,
            autoplay: Autoplay::Never,
            loaders: Vec::new(),
            audio_output: Arc::new(default_audio_output),
            silent_output: Arc::new(|spec| Ok(Box::new(NullSink::realtime(spec)))),
            volume: 1.0,
        }
    }
}

impl std::fmt::Debug for MediaOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MediaOptions")
            .field("in_panel", &self.in_panel)
            .field("autoplay", &self.autoplay)
            .field("loaders", &self.loaders.len())
            .field("volume", &self.volume)
            .finish_non_exhaustive()
    }
}

/// The platform's audio output: on Linux a [`PulseSink`](audio::PulseSink) when a PulseAudio
/// (or PipeWire pulse) server answers, else a real-time [`NullSink`] (the player runs, silent);
/// elsewhere a real-time [`NullSink`] (no output backend is built in there yet).
pub fn default_audio_output(spec: OutputSpec) -> Result<Box<dyn AudioSink>, MediaError> {
    #[cfg(target_os = "linux")]
    {
        if let Ok(sink) = audio::PulseSink::open(spec) {
            return Ok(Box::new(sink));
        }
    }
    Ok(Box::new(NullSink::realtime(spec)))
}

/// Format seconds as `m:ss` (or `h:mm:ss` from an hour), as media controls show time.
pub fn format_time(seconds: f64) -> String {
    let total = if seconds.is_finite() && seconds > 0.0 {
        seconds.floor() as u64
    } else {
        0
    };
    let (h, m, s) = (total / 3600, (total / 60) % 60, total % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{m}:{s:02}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_is_formatted_like_browser_controls() {
        assert_eq!(format_time(0.0), "0:00");
        assert_eq!(format_time(61.9), "1:01");
        assert_eq!(format_time(3725.0), "1:02:05");
        assert_eq!(format_time(f64::NAN), "0:00");
        assert_eq!(format_time(-3.0), "0:00");
    }
}
