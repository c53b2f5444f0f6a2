//! Audio output: the [`AudioSink`] trait a player writes decoded samples to, a [`NullSink`]
//! that needs no device, and on Linux [`PulseSink`].

use std::sync::Arc;
use std::time::Instant;

use egui::mutex::Mutex;

use super::MediaError;

/// The format a player writes: interleaved `f32` samples in `-1.0..=1.0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutputSpec {
    /// Frames per second.
    pub sample_rate: u32,
    /// Channels per frame: 1 (mono) or 2 (stereo; a source with more is cut to its front
    /// left and right).
    pub channels: u16,
}

/// Where a player's decoded audio goes. The player's worker thread owns it; every method is
/// called from there.
pub trait AudioSink: Send {
    /// Queue interleaved samples (`channels` per frame). Returns how many whole frames were
    /// taken: fewer than offered (even 0) when the buffer is full; the player offers the rest
    /// again a little later. Must not block for long (a few milliseconds at most).
    fn write(&mut self, samples: &[f32]) -> Result<usize, MediaError>;
    /// Frames heard since the sink was opened or last flushed (the playback clock).
    fn played_frames(&mut self) -> u64;
    /// Frames queued and not yet heard.
    fn queued_frames(&mut self) -> u64;
    /// Stop consuming (playback paused); queued frames stay.
    fn pause(&mut self);
    /// Consume again after [`AudioSink::pause`].
    fn resume(&mut self);
    /// Drop everything queued and restart the clock at 0 (after a seek).
    fn flush(&mut self);
    /// A short name for diagnostics (`"pulseaudio"`, `"null"`).
    fn name(&self) -> &'static str;
}

/// Frames a sink buffers ahead: a quarter second (latency of pause, seek and volume changes).
pub(crate) fn buffer_frames(spec: OutputSpec) -> u64 {
    u64::from(spec.sample_rate.max(1)) / 4
}

/// Samples a [`NullSink::manual`] keeps for inspection (the first ones written).
const CAPTURE_SAMPLES: usize = 4 * 1024 * 1024;

#[derive(Default)]
struct ManualState {
    queued: u64,
    played: u64,
    written: u64,
    paused: bool,
    flushes: usize,
    captured: Vec<f32>,
}

/// The test side of a [`NullSink::manual`]: moves its clock and shows what was written.
#[derive(Clone, Default)]
pub struct NullSinkHandle {
    state: Arc<Mutex<ManualState>>,
}

impl std::fmt::Debug for NullSinkHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let s = self.state.lock();
        f.debug_struct("NullSinkHandle")
            .field("queued", &s.queued)
            .field("played", &s.played)
            .field("written", &s.written)
            .field("paused", &s.paused)
            .finish_non_exhaustive()
    }
}

impl NullSinkHandle {
    /// "Play" up to `frames` queued frames (none while paused). Returns how many played.
    pub fn advance(&self, frames: u64) -> u64 {
        let mut s = self.state.lock();
        if s.paused {
            return 0;
        }
        let n = frames.min(s.queued);
        s.queued -= n;
        s.played += n;
        n
    }
    /// Frames played since the last flush.
    pub fn played(&self) -> u64 {
        self.state.lock().played
    }
    /// Frames queued, not yet played.
    pub fn queued(&self) -> u64 {
        self.state.lock().queued
    }
    /// Frames ever written (across flushes).
    pub fn written(&self) -> u64 {
        self.state.lock().written
    }
    /// Whether the player paused the sink.
    pub fn is_paused(&self) -> bool {
        self.state.lock().paused
    }
    /// How often the player flushed the sink (seeks).
    pub fn flushes(&self) -> usize {
        self.state.lock().flushes
    }
    /// The first samples ever written (up to 4 Mi samples), interleaved.
    pub fn captured(&self) -> Vec<f32> {
        self.state.lock().captured.clone()
    }
    /// Drop the captured samples (to look only at what is written next).
    pub fn clear_captured(&self) {
        self.state.lock().captured.clear();
    }
}

enum Clock {
    /// Consumes at the sample rate, measured with [`Instant`].
    Realtime {
        queued: u64,
        played: u64,
        since: Option<Instant>,
        /// Frames already played when `since` was set.
        base: u64,
    },
    /// Consumes only when the [`NullSinkHandle`] says so.
    Manual(NullSinkHandle),
}

/// An [`AudioSink`] without a device. [`NullSink::realtime`] consumes samples at the sample
/// rate (a headless host, or no sound server: the player runs silently with a true clock);
/// [`NullSink::manual`] consumes only when its [`NullSinkHandle`] advances, for tests that
/// must not depend on time.
pub struct NullSink {
    spec: OutputSpec,
    clock: Clock,
}

impl std::fmt::Debug for NullSink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NullSink")
            .field("spec", &self.spec)
            .finish_non_exhaustive()
    }
}

impl NullSink {
    /// A sink that plays (into nothing) in real time.
    pub fn realtime(spec: OutputSpec) -> Self {
        Self {
            spec,
            clock: Clock::Realtime {
                queued: 0,
                played: 0,
                since: Some(Instant::now()),
                base: 0,
            },
        }
    }

    /// A sink whose clock moves only through `handle`.
    pub fn manual(spec: OutputSpec, handle: &NullSinkHandle) -> Self {
        Self {
            spec,
            clock: Clock::Manual(handle.clone()),
        }
    }

    /// Bring the real-time clock up to now.
    fn tick(&mut self) {
        let rate = f64::from(self.spec.sample_rate.max(1));
        if let Clock::Realtime {
            queued,
            played,
            since,
            base,
        } = &mut self.clock
            && let Some(t) = since
        {
            let due = *base + (t.elapsed().as_secs_f64() * rate) as u64;
            let total = *played + *queued;
            let now_played = due.clamp(*played, total);
            *queued = total - now_played;
            *played = now_played;
            if *queued == 0 {
                // Starved: restart the clock so the next samples are not "played" at once.
                *base = *played;
                *t = Instant::now();
            }
        }
    }
}

impl AudioSink for NullSink {
    fn write(&mut self, samples: &[f32]) -> Result<usize, MediaError> {
        let channels = usize::from(self.spec.channels.max(1));
        let offered = (samples.len() / channels) as u64;
        let capacity = buffer_frames(self.spec);
        self.tick();
        match &mut self.clock {
            Clock::Realtime { queued, .. } => {
                let n = offered.min(capacity.saturating_sub(*queued));
                *queued += n;
                Ok(n as usize)
            }
            Clock::Manual(handle) => {
                let mut s = handle.state.lock();
                let n = offered.min(capacity.saturating_sub(s.queued));
                s.queued += n;
                s.written += n;
                let room = CAPTURE_SAMPLES.saturating_sub(s.captured.len());
                let take = (n as usize * channels).min(room);
                s.captured
                    .extend_from_slice(samples.get(..take).unwrap_or_default());
                Ok(n as usize)
            }
        }
    }

    fn played_frames(&mut self) -> u64 {
        self.tick();
        match &self.clock {
            Clock::Realtime { played, .. } => *played,
            Clock::Manual(h) => h.played(),
        }
    }

    fn queued_frames(&mut self) -> u64 {
        self.tick();
        match &self.clock {
            Clock::Realtime { queued, .. } => *queued,
            Clock::Manual(h) => h.queued(),
        }
    }

    fn pause(&mut self) {
        self.tick();
        match &mut self.clock {
            Clock::Realtime { since, .. } => *since = None,
            Clock::Manual(h) => h.state.lock().paused = true,
        }
    }

    fn resume(&mut self) {
        match &mut self.clock {
            Clock::Realtime {
                since,
                base,
                played,
                ..
            } => {
                if since.is_none() {
                    *base = *played;
                    *since = Some(Instant::now());
                }
            }
            Clock::Manual(h) => h.state.lock().paused = false,
        }
    }

    fn flush(&mut self) {
        match &mut self.clock {
            Clock::Realtime {
                queued,
                played,
                since,
                base,
            } => {
                *queued = 0;
                *played = 0;
                *base = 0;
                if since.is_some() {
                    *since = Some(Instant::now());
                }
            }
            Clock::Manual(h) => {
                let mut s = h.state.lock();
                s.queued = 0;
                s.played = 0;
                s.flushes += 1;
            }
        }
    }

    fn name(&self) -> &'static str {
        "null"
    }
}

#[cfg(target_os = "linux")]
pub use pulse::PulseSink;

#[cfg(target_os = "linux")]
mod pulse {
    use std::collections::VecDeque;
    use std::sync::Arc;
    use std::time::{Duration, Instant};

    use egui::mutex::Mutex;
    use pulseaudio::AsPlaybackSource as _;
    use pulseaudio::protocol;

    use super::{AudioSink, OutputSpec, buffer_frames};
    use crate::media::MediaError;

    /// Callbacks remembered for mapping the server's read position to real frames: enough
    /// for several seconds of server buffer at the server's usual request sizes.
    const MAX_MARKS: usize = 1024;
    /// How often the server is asked where its read position is; between answers the
    /// position moves on with the wall clock.
    const POLL: Duration = Duration::from_millis(40);

    #[derive(Default)]
    struct Ring {
        samples: VecDeque<f32>,
        /// Real frames handed to the server since the last flush.
        played: u64,
        /// Frames handed to the server since the stream was created, silence included (the
        /// server's write position, in frames).
        total: u64,
        /// Where the marks start: (`total`, `played`) at the last flush.
        base: (u64, u64),
        /// One per callback: (`total`, `played`) after it. A callback hands its real frames
        /// first and pads with silence after them, so the real frames of the stretch
        /// between two marks are its first ones.
        marks: VecDeque<(u64, u64)>,
    }

    impl Ring {
        /// Real frames among the first `position` frames of the stream (silence left out).
        fn real_at(&mut self, position: u64) -> u64 {
            // Callbacks wholly behind the position are done with: the last one is the base.
            while let Some(&(total, played)) = self.marks.front() {
                if total > position {
                    break;
                }
                self.base = (total, played);
                self.marks.pop_front();
            }
            let (start, real_start) = self.base;
            let real_end = self.marks.front().map_or(real_start, |&(_, played)| played);
            real_start
                + position
                    .saturating_sub(start)
                    .min(real_end.saturating_sub(real_start))
        }
    }

    /// The playback clock: the server's read position (frames), and when it was read.
    struct Clock {
        position: u64,
        at: Instant,
        /// The stream is corked: the position stands still (where it was at the cork; what
        /// the sink still plays from its own buffer then is not counted).
        corked: bool,
        /// The last position handed out: the clock never runs backwards between flushes
        /// (between two answers it moves on with the wall clock, and may get ahead a little).
        reported: u64,
        /// Ask the server at the next read.
        stale: bool,
        /// The server said the stream plays: the position moves with the wall clock.
        moving: bool,
    }

    /// An [`AudioSink`] on a PulseAudio server (or PipeWire's `pipewire-pulse`), through the
    /// pure-Rust [`pulseaudio`] protocol client: nothing is needed at build time, and the
    /// server is found at run time (`$PULSE_SERVER`, `$XDG_RUNTIME_DIR/pulse/native`).
    ///
    /// The server pulls samples from a small ring (a quarter second) the player fills; pause
    /// corks the stream, a seek flushes it. The clock ([`AudioSink::played_frames`]) is what
    /// has been heard, not what was handed over: the server's read position (asked every
    /// 40 ms, moved on with the wall clock between answers) less the sink's own latency, with
    /// the silence the server was given while the ring ran dry left out.
    pub struct PulseSink {
        spec: OutputSpec,
        ring: Arc<Mutex<Ring>>,
        clock: Clock,
        stream: pulseaudio::PlaybackStream,
        _client: pulseaudio::Client,
    }

    impl std::fmt::Debug for PulseSink {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.debug_struct("PulseSink")
                .field("spec", &self.spec)
                .finish_non_exhaustive()
        }
    }

    fn output_error(e: impl std::fmt::Display) -> MediaError {
        MediaError::Output(format!("PulseAudio: {e}"))
    }

    impl PulseSink {
        /// Connect to the session's PulseAudio server and open a playback stream.
        pub fn open(spec: OutputSpec) -> Result<Self, MediaError> {
            let channels = u8::try_from(spec.channels.clamp(1, 2)).unwrap_or(2);
            let client = pulseaudio::Client::from_env(c"egui_a2ui").map_err(output_error)?;
            let ring = Arc::new(Mutex::new(Ring::default()));
            let pull = Arc::clone(&ring);
            let callback = move |buf: &mut [u8]| {
                let mut ring = pull.lock();
                let mut popped = 0usize;
                for out in buf.chunks_exact_mut(4) {
                    let sample = ring.samples.pop_front().inspect(|_| popped += 1);
                    out.copy_from_slice(&sample.unwrap_or(0.0).to_le_bytes());
                }
                let frames = (buf.len() / 4 / usize::from(channels)) as u64;
                ring.played += (popped / usize::from(channels)) as u64;
                ring.total += frames;
                let mark = (ring.total, ring.played);
                if ring.marks.len() >= MAX_MARKS {
                    // Far behind the read position (or the clock is not read): fold it in.
                    if let Some(old) = ring.marks.pop_front() {
                        ring.base = old;
                    }
                }
                ring.marks.push_back(mark);
                // 0 would end the stream: always hand over a full buffer (silence when empty).
                buf.len()
            };
            let bytes_per_frame = 4 * u32::from(channels);
            let target = u32::try_from(buffer_frames(spec) / 2)
                .unwrap_or(4096)
                .saturating_mul(bytes_per_frame);
            let params = protocol::PlaybackStreamParams {
                sample_spec: protocol::SampleSpec {
                    format: protocol::SampleFormat::Float32Le,
                    channels,
                    sample_rate: spec.sample_rate,
                },
                channel_map: if channels == 1 {
                    protocol::ChannelMap::mono()
                } else {
                    protocol::ChannelMap::stereo()
                },
                cvolume: Some(protocol::ChannelVolume::norm(channels)),
                sink_name: Some(protocol::DEFAULT_SINK.to_owned()),
                buffer_attr: protocol::stream::BufferAttr {
                    target_length: target,
                    ..Default::default()
                },
                ..Default::default()
            };
            let stream = futures_executor::block_on(
                client.create_playback_stream(params, callback.as_playback_source()),
            )
            .map_err(output_error)?;
            Ok(Self {
                spec: OutputSpec {
                    sample_rate: spec.sample_rate,
                    channels: u16::from(channels),
                },
                ring,
                clock: Clock {
                    position: 0,
                    at: Instant::now(),
                    corked: false,
                    stale: true,
                    moving: false,
                    reported: 0,
                },
                stream,
                _client: client,
            })
        }

        /// Real frames handed to the server since the last flush: what
        /// [`AudioSink::played_frames`] reaches once the server has played them.
        pub fn handed_frames(&self) -> u64 {
            self.ring.lock().played
        }

        /// The server's read position less the sink's latency, in frames of the stream
        /// (silence included), asked again when the last answer is older than [`POLL`].
        fn heard_position(&mut self) -> u64 {
            let rate = u64::from(self.spec.sample_rate.max(1));
            if self.clock.corked {
                return self.clock.reported;
            }
            if self.clock.stale || self.clock.at.elapsed() >= POLL {
                if let Ok(info) = futures_executor::block_on(self.stream.timing_info()) {
                    let bytes_per_frame = 4 * u64::from(self.spec.channels.max(1));
                    let read = u64::try_from(info.read_offset.max(0)).unwrap_or(0);
                    let sink = info.sink_usec.saturating_mul(rate) / 1_000_000;
                    self.clock.position = (read / bytes_per_frame).saturating_sub(sink);
                    // Not yet started (prebuffering) or underrun: the position stands.
                    self.clock.moving = info.playing;
                }
                self.clock.at = Instant::now();
                self.clock.stale = false;
            }
            let moved = if self.clock.moving {
                (self.clock.at.elapsed().as_secs_f64() * rate as f64) as u64
            } else {
                0
            };
            // Never ahead of what the server was given, never backwards.
            let position = (self.clock.position + moved)
                .min(self.ring.lock().total)
                .max(self.clock.reported);
            self.clock.reported = position;
            position
        }
    }

    impl AudioSink for PulseSink {
        fn write(&mut self, samples: &[f32]) -> Result<usize, MediaError> {
            let channels = usize::from(self.spec.channels.max(1));
            let capacity = buffer_frames(self.spec) as usize * channels;
            let mut ring = self.ring.lock();
            let room = capacity.saturating_sub(ring.samples.len()) / channels * channels;
            let take = room.min(samples.len() / channels * channels);
            ring.samples
                .extend(samples.get(..take).unwrap_or_default().iter().copied());
            Ok(take / channels)
        }

        fn played_frames(&mut self) -> u64 {
            let position = self.heard_position();
            self.ring.lock().real_at(position)
        }

        fn queued_frames(&mut self) -> u64 {
            // In the ring, and handed to the server but not heard yet.
            let heard = self.played_frames();
            let channels = usize::from(self.spec.channels.max(1));
            let ring = self.ring.lock();
            (ring.samples.len() / channels) as u64 + ring.played.saturating_sub(heard)
        }

        fn pause(&mut self) {
            // Best effort: a failed cork leaves the ring paused by the player (no new samples).
            // The clock stops where it is now.
            let _ = self.heard_position();
            let _ = futures_executor::block_on(self.stream.cork());
            self.clock.corked = true;
        }

        fn resume(&mut self) {
            let _ = futures_executor::block_on(self.stream.uncork());
            self.clock.corked = false;
            self.clock.stale = true;
        }

        fn flush(&mut self) {
            {
                // Emptied first: what the server pulls until it has flushed is silence.
                let mut ring = self.ring.lock();
                ring.samples.clear();
                ring.played = 0;
                ring.base = (ring.total, 0);
                ring.marks.clear();
                self.clock.position = ring.total;
                self.clock.reported = ring.total;
            }
            // The server drops what it holds: its read position becomes its write position.
            let _ = futures_executor::block_on(self.stream.flush());
            self.clock.at = Instant::now();
            self.clock.stale = true;
        }

        fn name(&self) -> &'static str {
            "pulseaudio"
        }
    }

    #[cfg(test)]
    mod tests {
        use super::Ring;

        /// Three callbacks of 100 frames: full, half real then silence, all silence; then
        /// real again. The real frames heard at each read position leave the silence out.
        #[test]
        fn the_read_position_counts_real_frames_only() {
            let mut ring = Ring::default();
            for (total, played) in [(100, 100), (200, 150), (300, 150), (400, 250)] {
                ring.marks.push_back((total, played));
            }
            ring.total = 400;
            ring.played = 250;
            assert_eq!(ring.real_at(0), 0);
            assert_eq!(ring.real_at(60), 60);
            assert_eq!(ring.real_at(100), 100);
            assert_eq!(ring.real_at(140), 140);
            assert_eq!(ring.real_at(180), 150, "silence after the ring ran dry");
            assert_eq!(ring.real_at(290), 150);
            assert_eq!(ring.real_at(350), 200);
            assert_eq!(ring.real_at(400), 250);
            assert_eq!(ring.real_at(10_000), 250, "never more than was handed");
            assert!(
                ring.marks.is_empty(),
                "callbacks behind the position are dropped"
            );
        }

        /// After a flush the marks start again from the stream's write position.
        #[test]
        fn a_flush_starts_counting_from_the_write_position() {
            let mut ring = Ring {
                base: (1000, 0),
                total: 1100,
                played: 100,
                ..Ring::default()
            };
            ring.marks.push_back((1100, 100));
            assert_eq!(ring.real_at(900), 0, "before the flush's position");
            assert_eq!(ring.real_at(1050), 50);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPEC: OutputSpec = OutputSpec {
        sample_rate: 1000,
        channels: 2,
    };

    #[test]
    fn a_manual_null_sink_takes_what_fits_and_plays_only_when_advanced() {
        let handle = NullSinkHandle::default();
        let mut sink = NullSink::manual(SPEC, &handle);
        // 250 frames fit (a quarter second at 1 kHz).
        let samples = vec![0.25f32; 2 * 300];
        assert_eq!(sink.write(&samples).ok(), Some(250));
        assert_eq!(sink.write(&samples).ok(), Some(0));
        assert_eq!(sink.played_frames(), 0);
        assert_eq!(handle.advance(100), 100);
        assert_eq!(sink.played_frames(), 100);
        assert_eq!(sink.queued_frames(), 150);
        sink.pause();
        assert_eq!(handle.advance(100), 0, "a paused sink does not play");
        sink.resume();
        sink.flush();
        assert_eq!((sink.played_frames(), sink.queued_frames()), (0, 0));
        assert_eq!(handle.flushes(), 1);
        assert_eq!(handle.captured().len(), 500);
        // An odd sample count: only whole frames are taken.
        assert_eq!(sink.write(&[0.0; 3]).ok(), Some(1));
    }

    #[test]
    fn a_realtime_null_sink_never_reports_more_played_than_written() {
        let mut sink = NullSink::realtime(SPEC);
        assert_eq!(sink.write(&[0.0; 20]).ok(), Some(10));
        let played = sink.played_frames();
        assert!(played <= 10);
        assert_eq!(played + sink.queued_frames(), 10);
        sink.flush();
        assert_eq!(sink.played_frames(), 0);
    }
}
