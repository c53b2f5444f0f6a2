//! A player: one worker thread that loads, decodes and feeds an [`AudioSink`], driven by
//! commands from the UI and reporting a [`PlayerSnapshot`]; for a video, a second worker
//! that decodes frames ahead of the clock into a queue of fixed depth.
//!
//! The clock is the audio sink's: the position is what the sink has played. A video without
//! sound (or with a sound track this build cannot decode) plays a silent track into
//! [`PlayerConfig::silent_output`], so the same clock times it (a real-time
//! [`NullSink`](super::NullSink) by default: the wall clock).

use std::collections::VecDeque;
use std::panic::AssertUnwindSafe;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, TryRecvError};
use std::sync::{Arc, Condvar, PoisonError};
use std::time::Duration;

use egui::mutex::Mutex;

use super::decode::AudioStream;
use super::source::{MediaBytes, MediaLoader, decode_data, mime_may_be_media, read_bounded};
use super::video::{VideoFrame, VideoInfo, VideoStream};
use super::{AudioOutputFactory, AudioSink, MediaError, OutputSpec};

/// Frames a video player decodes ahead of the clock, at most (fewer when frames are large:
/// the queue holds no more than [`FRAME_QUEUE_BYTES`], and at least two frames).
pub const FRAME_QUEUE_DEPTH: usize = 4;
/// Bytes of decoded RGBA frames a video player queues ahead, at most.
pub const FRAME_QUEUE_BYTES: usize = 64 * 1024 * 1024;

/// What a player is doing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// Not loaded: a source fetched over the network waits for the first play (as
    /// `preload="none"`: nothing is fetched just because the component is shown).
    Idle,
    /// Fetching or reading the source.
    Loading,
    /// Ready and paused (also before the first play).
    Paused,
    /// Playing.
    Playing,
    /// Play was asked for and the output is filling (opening the device, after a seek).
    Buffering,
    /// Played to the end.
    Ended,
    /// It cannot play; the error says why.
    Failed(MediaError),
}

/// The state a player's controls draw.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerSnapshot {
    /// What it is doing.
    pub status: Status,
    /// Seconds played (what the listener has heard).
    pub position: f64,
    /// Seconds in the file, when known.
    pub duration: Option<f64>,
    /// Volume, `0.0..=1.0`.
    pub volume: f32,
    /// Muted (the volume is kept).
    pub muted: bool,
    /// Bytes loaded so far (while [`Status::Loading`]) or in all.
    pub bytes: usize,
    /// The output in use (`"pulseaudio"`, `"null"`) once opened.
    pub output: Option<&'static str>,
}

/// Where a player's bytes come from.
#[derive(Clone)]
pub enum PlayerSource {
    /// Bytes already loaded.
    Bytes(MediaBytes),
    /// A `data:audio/*` or `data:video/*` URI, decoded on the worker.
    DataUri(String),
    /// A host loader and the URL it serves, run on the worker.
    Loader(Arc<dyn MediaLoader>, String),
    /// Bytes that arrive later through [`Player::supply`] (egui's loaders, polled by the UI).
    Later,
}

/// How a player runs.
#[derive(Clone)]
pub struct PlayerConfig {
    /// Opens the audio output.
    pub output: AudioOutputFactory,
    /// [`Limits::max_media_bytes`](crate::limits::Limits::max_media_bytes).
    pub max_bytes: usize,
    /// [`Limits::max_media_dimension`](crate::limits::Limits::max_media_dimension).
    pub max_dimension: u32,
    /// Start volume.
    pub volume: f32,
    /// Start muted.
    pub muted: bool,
    /// Start playing once loaded.
    pub autoplay: bool,
    /// A `Video`: its video track is decoded too (a file with a video track and no `video`
    /// plays for its sound only).
    pub video: bool,
    /// The clock of a video without a sound track it can play: a sink fed silence
    /// ([`MediaOptions::silent_output`](super::MediaOptions::silent_output)).
    pub silent_output: AudioOutputFactory,
    /// Repainted when the state changes.
    pub repaint: Option<egui::Context>,
}

/// The frames a video worker decoded ahead, shared with the UI.
#[derive(Default)]
struct VideoQueue {
    frames: VecDeque<VideoFrame>,
    /// Bumped by every seek: a frame decoded for an older one is dropped.
    generation: u64,
    /// A seek the worker has not done yet.
    seek: Option<f64>,
    info: Option<VideoInfo>,
    error: Option<MediaError>,
    /// The decoder reached the end of the track.
    ended: bool,
    /// The player is gone: the worker stops.
    stop: bool,
    depth: usize,
}

#[derive(Default)]
struct VideoShared {
    queue: std::sync::Mutex<VideoQueue>,
    wake: Condvar,
}

impl VideoShared {
    fn lock(&self) -> std::sync::MutexGuard<'_, VideoQueue> {
        self.queue.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Drop the queued frames and have the worker decode from the frame shown at `seconds`.
    fn seek(&self, seconds: f64) {
        let mut q = self.lock();
        if q.info.is_none() {
            return;
        }
        q.generation += 1;
        q.seek = Some(seconds);
        q.frames.clear();
        q.ended = false;
        drop(q);
        self.wake.notify_all();
    }
}

enum Command {
    Play,
    Pause,
    Seek(f64),
    /// The volume or mute changed (the values are in the snapshot).
    Gain,
    Supply(Result<MediaBytes, MediaError>),
}

/// A media player (see the [module](super) docs). Dropping it stops the worker thread.
pub struct Player {
    tx: Sender<Command>,
    shared: Arc<Mutex<PlayerSnapshot>>,
    video: Arc<VideoShared>,
}

impl Drop for Player {
    fn drop(&mut self) {
        self.video.lock().stop = true;
        self.video.wake.notify_all();
    }
}

impl std::fmt::Debug for Player {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Player")
            .field("state", &*self.shared.lock())
            .finish_non_exhaustive()
    }
}

impl Player {
    /// Start a player on its own worker thread.
    pub fn spawn(source: PlayerSource, config: PlayerConfig) -> Self {
        let shared = Arc::new(Mutex::new(PlayerSnapshot {
            status: if matches!(source, PlayerSource::Later) {
                Status::Idle
            } else {
                Status::Loading
            },
            position: 0.0,
            duration: None,
            volume: config.volume.clamp(0.0, 1.0),
            muted: config.muted,
            bytes: 0,
            output: None,
        }));
        let (tx, rx) = mpsc::channel();
        let video = Arc::new(VideoShared::default());
        let worker = Worker {
            rx,
            shared: Arc::clone(&shared),
            video: Arc::clone(&video),
            config,
        };
        let spawned = std::thread::Builder::new()
            .name("egui_a2ui media".to_owned())
            .spawn(move || worker.run(source));
        if let Err(e) = spawned {
            shared.lock().status = Status::Failed(MediaError::Decode(format!(
                "could not start the media thread: {e}"
            )));
        }
        Self { tx, shared, video }
    }

    /// The current state.
    pub fn snapshot(&self) -> PlayerSnapshot {
        self.shared.lock().clone()
    }

    fn send(&self, command: Command) {
        // A worker that ended (failed, or its thread is gone) ignores commands.
        let _ = self.tx.send(command);
    }

    /// Play (from the start again after the end).
    pub fn play(&self) {
        self.send(Command::Play);
    }

    /// Pause.
    pub fn pause(&self) {
        self.send(Command::Pause);
    }

    /// Seek to `seconds` (clamped to the file); keeps playing or paused. A video shows the
    /// frame of that time (decoded from the key frame before it).
    pub fn seek(&self, seconds: f64) {
        if seconds.is_finite() {
            self.shared.lock().position = seconds.max(0.0);
            self.video.seek(seconds.max(0.0));
            self.send(Command::Seek(seconds));
        }
    }

    /// The video track being played, once the file is open (`None` for sound only).
    pub fn video_info(&self) -> Option<VideoInfo> {
        self.video.lock().info.clone()
    }

    /// The frame to show at `position` (seconds, the player's clock) if it is a new one: the
    /// latest queued frame due by then. Frames it passes over are dropped (late frames are
    /// skipped, as a browser does), which makes room for the worker to decode more.
    pub fn video_frame(&self, position: f64) -> Option<VideoFrame> {
        let mut q = self.video.lock();
        let mut shown = None;
        while q.frames.front().is_some_and(|f| f.time <= position + 1e-6) {
            shown = q.frames.pop_front();
        }
        drop(q);
        if shown.is_some() {
            self.video.wake.notify_all();
        }
        shown
    }

    /// When the next queued frame is due (seconds on the player's clock), if one is queued.
    pub fn next_frame_time(&self) -> Option<f64> {
        self.video.lock().frames.front().map(|f| f.time)
    }

    /// Why the video stopped decoding, if it did (the sound may go on).
    pub fn video_error(&self) -> Option<MediaError> {
        self.video.lock().error.clone()
    }

    /// Frames decoded and waiting for their time (at most the queue's depth).
    pub fn queued_frames(&self) -> usize {
        self.video.lock().frames.len()
    }

    /// Set the volume, `0.0..=1.0`.
    pub fn set_volume(&self, volume: f32) {
        let volume = if volume.is_finite() {
            volume.clamp(0.0, 1.0)
        } else {
            1.0
        };
        self.shared.lock().volume = volume;
        self.send(Command::Gain);
    }

    /// Mute or unmute.
    pub fn set_muted(&self, muted: bool) {
        self.shared.lock().muted = muted;
        self.send(Command::Gain);
    }

    /// Hand over the bytes of a [`PlayerSource::Later`] player (or why there are none).
    pub fn supply(&self, bytes: Result<MediaBytes, MediaError>) {
        self.send(Command::Supply(bytes));
    }

    /// Note bytes loaded so far (progress while [`Status::Loading`]).
    pub(crate) fn set_loading_bytes(&self, bytes: usize) {
        self.shared.lock().bytes = bytes;
    }
}

struct Worker {
    rx: Receiver<Command>,
    shared: Arc<Mutex<PlayerSnapshot>>,
    video: Arc<VideoShared>,
    config: PlayerConfig,
}

/// Rate of the silent track that clocks a video without sound.
const SILENT_RATE: u32 = 8000;

/// What the audio worker plays: a decoded sound track (followed by silence when the video
/// is longer than its sound, so the clock runs to the video's end), or silence as long as
/// the video.
enum Track {
    Audio {
        audio: AudioStream,
        /// The video's duration (0 for a sound file): after the sound ends, silence until
        /// then.
        pad_to: f64,
        /// Once the sound has ended (or a seek went past it): where the silence starts
        /// (seconds) and the frames of it handed out so far.
        tail: Option<(f64, u64)>,
    },
    Silent {
        duration: f64,
        /// Next frame to hand out.
        at: u64,
        zeros: Vec<f32>,
    },
}

impl Track {
    fn silent(duration: f64) -> Self {
        Self::Silent {
            duration,
            at: 0,
            zeros: vec![0.0; SILENT_RATE as usize / 20],
        }
    }

    fn audio(audio: AudioStream, video_duration: Option<f64>) -> Self {
        Self::Audio {
            audio,
            pad_to: video_duration.filter(|d| d.is_finite()).unwrap_or(0.0),
            tail: None,
        }
    }

    fn spec(&self) -> OutputSpec {
        match self {
            Self::Audio { audio, .. } => audio.spec(),
            Self::Silent { .. } => OutputSpec {
                sample_rate: SILENT_RATE,
                channels: 1,
            },
        }
    }

    fn duration(&self) -> Option<f64> {
        match self {
            Self::Audio { audio, pad_to, .. } => match audio.duration() {
                Some(d) => Some(d.max(*pad_to)),
                None => (*pad_to > 0.0).then_some(*pad_to),
            },
            Self::Silent { duration, .. } => Some(*duration),
        }
    }

    fn next_chunk(&mut self) -> Result<Option<Vec<f32>>, MediaError> {
        match self {
            Self::Audio {
                audio,
                pad_to,
                tail,
            } => {
                if tail.is_none() {
                    if let Some(chunk) = audio.next_chunk()? {
                        return Ok(Some(chunk.to_vec()));
                    }
                    *tail = Some((audio.position(), 0));
                }
                let spec = audio.spec();
                let rate = spec.sample_rate.max(1);
                let Some((from, done)) = tail else {
                    return Ok(None);
                };
                let total = ((*pad_to - *from).max(0.0) * f64::from(rate)).round() as u64;
                // A twentieth of a second at a time, as the silent track hands it out.
                let n = (u64::from(rate) / 20).min(total.saturating_sub(*done));
                *done += n;
                let samples = n as usize * usize::from(spec.channels.max(1));
                Ok((n > 0).then(|| vec![0.0; samples]))
            }
            Self::Silent {
                duration,
                at,
                zeros,
            } => {
                let total = (*duration * f64::from(SILENT_RATE)).round() as u64;
                let n = (zeros.len() as u64).min(total.saturating_sub(*at));
                *at += n;
                Ok((n > 0).then(|| zeros.get(..n as usize).unwrap_or_default().to_vec()))
            }
        }
    }

    fn seek(&mut self, seconds: f64) -> Result<f64, MediaError> {
        match self {
            Self::Audio {
                audio,
                pad_to,
                tail,
            } => {
                // Past the sound's end, into the silence before the video's end.
                if let Some(end) = audio.duration()
                    && seconds >= end
                    && *pad_to > end
                {
                    let t = seconds.min(*pad_to);
                    *tail = Some((t, 0));
                    return Ok(t);
                }
                *tail = None;
                audio.seek(seconds)
            }
            Self::Silent { duration, at, .. } => {
                let t = seconds.clamp(0.0, duration.max(0.0));
                *at = (t * f64::from(SILENT_RATE)).round() as u64;
                Ok(*at as f64 / f64::from(SILENT_RATE))
            }
        }
    }
}

/// The video worker: decode ahead of the clock into the shared queue until it is full, seek
/// when asked, stop when the player is dropped.
fn run_video(mut stream: VideoStream, shared: &VideoShared, repaint: Option<&egui::Context>) {
    loop {
        let (generation, seek) = {
            let mut q = shared.lock();
            loop {
                if q.stop {
                    return;
                }
                if q.seek.is_some() || (!q.ended && q.frames.len() < q.depth) {
                    break;
                }
                q = shared
                    .wake
                    .wait_timeout(q, Duration::from_millis(250))
                    .map_or_else(|e| e.into_inner().0, |(q, _)| q);
            }
            (q.generation, q.seek.take())
        };
        let result = guarded(|| {
            if let Some(t) = seek {
                stream.seek(t)?;
            }
            stream.next_frame()
        });
        let mut q = shared.lock();
        if q.generation != generation {
            continue; // a seek came in meanwhile: this frame is stale
        }
        let wake_ui = match result {
            Ok(Some(frame)) => {
                q.frames.push_back(frame);
                q.frames.len() == 1
            }
            Ok(None) => {
                q.ended = true;
                false
            }
            Err(e) => {
                q.error = Some(e);
                q.ended = true;
                true
            }
        };
        drop(q);
        if wake_ui && let Some(ctx) = repaint {
            ctx.request_repaint();
        }
    }
}

/// How long the worker waits for a command when it has nothing else to do.
const IDLE_WAIT: Duration = Duration::from_millis(50);
/// How long it waits when the output is full.
const FULL_WAIT: Duration = Duration::from_millis(5);

/// Run `f`, turning a panic inside a decoder into a typed error.
fn guarded<T>(f: impl FnOnce() -> Result<T, MediaError>) -> Result<T, MediaError> {
    std::panic::catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|_| {
        Err(MediaError::Decode(
            "the decoder failed on this file".to_owned(),
        ))
    })
}

/// The playback state on the worker.
struct Playback {
    stream: Track,
    sink: Option<Box<dyn AudioSink>>,
    /// Samples decoded (volume applied) not yet taken by the sink, from `offset`.
    pending: Vec<f32>,
    offset: usize,
    /// The decoder reached the end.
    eof: bool,
    /// Position of the sink's frame 0 (the last seek).
    base: f64,
    playing: bool,
    ended: bool,
    gain: f32,
}

impl Playback {
    /// Seconds heard: the last seek's position plus what the sink has played since.
    fn position(&mut self) -> f64 {
        let rate = f64::from(self.stream.spec().sample_rate.max(1));
        let played = self.sink.as_mut().map_or(0, |s| s.played_frames());
        let pos = self.base + played as f64 / rate;
        self.stream.duration().map_or(pos, |d| pos.min(d))
    }
}

impl Worker {
    /// Update the snapshot; a change the controls must show at once (status, duration,
    /// output) asks for a repaint. The position alone does not: the UI repaints on a
    /// timer while playing.
    fn set(&self, f: impl FnOnce(&mut PlayerSnapshot)) {
        let changed = {
            let mut s = self.shared.lock();
            let before = (s.status.clone(), s.duration, s.output);
            f(&mut s);
            (s.status.clone(), s.duration, s.output) != before
        };
        if changed && let Some(ctx) = &self.config.repaint {
            ctx.request_repaint();
        }
    }

    fn fail(&self, e: MediaError) {
        self.set(|s| s.status = Status::Failed(e));
    }

    fn gain(&self) -> f32 {
        let s = self.shared.lock();
        if s.muted { 0.0 } else { s.volume }
    }

    fn load(&self, source: PlayerSource, want_play: &mut bool) -> Option<MediaBytes> {
        let max = self.config.max_bytes;
        let loaded = match source {
            PlayerSource::Bytes(b) => Ok(b),
            PlayerSource::DataUri(url) => guarded(|| decode_data(&url, max)),
            PlayerSource::Loader(loader, url) => guarded(|| {
                let (reader, mime) = loader.open(&url)?;
                if let Some(m) = mime.as_deref().filter(|m| !mime_may_be_media(m)) {
                    return Err(MediaError::WrongType(m.to_owned()));
                }
                let bytes = read_bounded(reader, max)?;
                Ok(MediaBytes {
                    bytes: bytes.into(),
                    mime,
                })
            }),
            PlayerSource::Later => loop {
                match self.rx.recv() {
                    Ok(Command::Supply(b)) => break b,
                    Ok(Command::Play) => {
                        *want_play = true;
                        self.set(|s| s.status = Status::Loading);
                    }
                    Ok(Command::Pause) => *want_play = false,
                    Ok(_) => {}
                    Err(_) => return None,
                }
            },
        };
        match loaded {
            Ok(b) if b.bytes.len() > max => {
                self.fail(MediaError::TooLarge { limit: max });
                None
            }
            Ok(b) => Some(b),
            Err(e) => {
                self.fail(e);
                None
            }
        }
    }

    /// Open the tracks: for a `Video` the video track first (its worker starts here), then
    /// the sound, or silence as long as the video when there is no sound it can play.
    fn open(&self, media: &MediaBytes) -> Result<Track, MediaError> {
        let mime = media.mime.as_deref();
        let max_dim = self.config.max_dimension;
        let mut video_duration = None;
        if self.config.video {
            match guarded(|| VideoStream::open(Arc::clone(&media.bytes), mime, max_dim)) {
                Ok(stream) => {
                    let info = stream.info().clone();
                    video_duration = Some(info.duration);
                    let frame_bytes = (info.width as usize * info.height as usize * 4).max(1);
                    {
                        let mut q = self.video.lock();
                        q.depth = (FRAME_QUEUE_BYTES / frame_bytes).clamp(2, FRAME_QUEUE_DEPTH);
                        q.info = Some(info);
                    }
                    let shared = Arc::clone(&self.video);
                    let repaint = self.config.repaint.clone();
                    std::thread::Builder::new()
                        .name("egui_a2ui video".to_owned())
                        .spawn(move || run_video(stream, &shared, repaint.as_ref()))
                        .map_err(|e| {
                            MediaError::Decode(format!("could not start the video thread: {e}"))
                        })?;
                }
                Err(MediaError::NoTrack) => {}
                Err(e) => return Err(e),
            }
        }
        match guarded(|| AudioStream::open(Arc::clone(&media.bytes), mime, max_dim)) {
            Ok(audio) => Ok(Track::audio(audio, video_duration)),
            // A video whose sound this build cannot play (none, Opus...) plays silently.
            Err(MediaError::NoTrack | MediaError::UnsupportedCodec(_))
                if video_duration.is_some() =>
            {
                Ok(Track::silent(video_duration.unwrap_or(0.0)))
            }
            Err(e) => Err(e),
        }
    }

    fn run(self, source: PlayerSource) {
        let mut want_play = self.config.autoplay;
        let Some(media) = self.load(source, &mut want_play) else {
            return;
        };
        let bytes = media.bytes.len();
        let stream = match self.open(&media) {
            Ok(s) => s,
            Err(e) => {
                self.set(|s| s.bytes = bytes);
                self.fail(e);
                return;
            }
        };
        drop(media);
        let duration = stream.duration();
        self.set(|s| {
            s.bytes = bytes;
            s.duration = duration;
            s.status = Status::Paused;
        });
        let mut p = Playback {
            stream,
            sink: None,
            pending: Vec::new(),
            offset: 0,
            eof: false,
            base: 0.0,
            playing: false,
            ended: false,
            gain: self.gain(),
        };
        if want_play {
            self.play(&mut p);
        }
        loop {
            let wait = if p.playing { FULL_WAIT } else { IDLE_WAIT };
            let command = if p.playing {
                match self.rx.try_recv() {
                    Ok(c) => Some(c),
                    Err(TryRecvError::Empty) => None,
                    Err(TryRecvError::Disconnected) => return,
                }
            } else {
                match self.rx.recv_timeout(wait) {
                    Ok(c) => Some(c),
                    Err(RecvTimeoutError::Timeout) => None,
                    Err(RecvTimeoutError::Disconnected) => return,
                }
            };
            if let Some(c) = command {
                if let Err(e) = self.command(&mut p, c) {
                    self.fail(e);
                    return;
                }
                continue;
            }
            if p.playing {
                match self.pump(&mut p) {
                    Ok(true) => {}
                    Ok(false) => match self.rx.recv_timeout(wait) {
                        Ok(c) => {
                            if let Err(e) = self.command(&mut p, c) {
                                self.fail(e);
                                return;
                            }
                        }
                        Err(RecvTimeoutError::Timeout) => {}
                        Err(RecvTimeoutError::Disconnected) => return,
                    },
                    Err(e) => {
                        self.fail(e);
                        return;
                    }
                }
            }
        }
    }

    fn command(&self, p: &mut Playback, c: Command) -> Result<(), MediaError> {
        match c {
            Command::Play => self.play(p),
            Command::Pause => {
                if p.playing {
                    p.playing = false;
                    if let Some(sink) = &mut p.sink {
                        sink.pause();
                    }
                    let position = p.position();
                    self.set(|s| {
                        s.status = Status::Paused;
                        s.position = position;
                    });
                }
            }
            Command::Seek(t) => {
                let reached = guarded(|| p.stream.seek(t))?;
                p.pending.clear();
                p.offset = 0;
                p.eof = false;
                p.ended = false;
                p.base = reached;
                if let Some(sink) = &mut p.sink {
                    sink.flush();
                }
                let playing = p.playing;
                self.set(|s| {
                    s.position = reached;
                    s.status = if playing {
                        Status::Buffering
                    } else {
                        Status::Paused
                    };
                });
            }
            Command::Gain => {
                let old = p.gain;
                p.gain = self.gain();
                // Samples already decoded take the new gain too.
                if old > 0.0 {
                    let k = p.gain / old;
                    p.pending.iter_mut().for_each(|x| *x *= k);
                } else if p.gain > 0.0 {
                    // They were decoded silent: drop them and decode again from here.
                    let position = p.position();
                    let reached = guarded(|| p.stream.seek(position))?;
                    p.pending.clear();
                    p.offset = 0;
                    p.eof = false;
                    p.base = reached;
                    if let Some(sink) = &mut p.sink {
                        sink.flush();
                    }
                }
            }
            Command::Supply(_) => {}
        }
        Ok(())
    }

    fn play(&self, p: &mut Playback) {
        if p.playing {
            return;
        }
        if p.ended {
            if let Err(e) = guarded(|| p.stream.seek(0.0)) {
                self.fail(e);
                return;
            }
            self.video.seek(0.0);
            p.ended = false;
            p.eof = false;
            p.pending.clear();
            p.offset = 0;
            p.base = 0.0;
            if let Some(sink) = &mut p.sink {
                sink.flush();
            }
        }
        if p.sink.is_none() {
            self.set(|s| s.status = Status::Buffering);
            let output = match p.stream {
                Track::Audio { .. } => &self.config.output,
                Track::Silent { .. } => &self.config.silent_output,
            };
            match output(p.stream.spec()) {
                Ok(sink) => {
                    let name = sink.name();
                    p.sink = Some(sink);
                    self.set(|s| s.output = Some(name));
                }
                Err(e) => {
                    self.fail(e);
                    return;
                }
            }
        }
        if let Some(sink) = &mut p.sink {
            sink.resume();
        }
        p.playing = true;
        self.set(|s| s.status = Status::Playing);
    }

    /// Decode and hand samples to the sink. `Ok(false)`: nothing could move (the sink is
    /// full or draining): wait a little.
    fn pump(&self, p: &mut Playback) -> Result<bool, MediaError> {
        let channels = usize::from(p.stream.spec().channels.max(1));
        let mut moved = false;
        if p.offset >= p.pending.len() && !p.eof {
            p.pending.clear();
            p.offset = 0;
            match guarded(|| p.stream.next_chunk())? {
                Some(chunk) => {
                    let gain = p.gain;
                    p.pending.extend(chunk.iter().map(|x| x * gain));
                    moved = true;
                }
                None => p.eof = true,
            }
        }
        if let Some(sink) = &mut p.sink
            && p.offset < p.pending.len()
        {
            let frames = sink.write(p.pending.get(p.offset..).unwrap_or_default())?;
            p.offset += frames * channels;
            moved |= frames > 0;
        }
        let position = p.position();
        let drained = p.eof
            && p.offset >= p.pending.len()
            && p.sink.as_mut().is_none_or(|s| s.queued_frames() == 0);
        if drained {
            p.playing = false;
            p.ended = true;
            let end = p.stream.duration().unwrap_or(position).max(position);
            self.set(|s| {
                s.status = Status::Ended;
                s.position = end;
            });
            return Ok(false);
        }
        self.set(|s| {
            s.position = position;
            if s.status == Status::Buffering && moved {
                s.status = Status::Playing;
            }
        });
        Ok(moved)
    }
}
