//! Demuxing and audio decoding with symphonia (pure Rust), from bytes already in memory.

use std::sync::Arc;

use symphonia::core::codecs::CodecParameters;
use symphonia::core::codecs::audio::{AudioDecoder, AudioDecoderOptions};
use symphonia::core::errors::Error as SymError;
use symphonia::core::formats::{FormatReader, SeekMode, SeekTo, TrackType};
use symphonia::core::units::{Time, TimeBase, Timestamp};

use super::MediaError;
use super::audio::OutputSpec;
use super::container::{codec_name, mp4_sample_entries, open_reader, sym_error};

/// Consecutive undecodable packets tolerated before the stream counts as broken.
const MAX_BAD_PACKETS: usize = 64;
/// Packets read per [`AudioStream::next_chunk`] call at most (other tracks' packets are
/// skipped within it), so a file of video packets only cannot loop for long.
const MAX_PACKETS_PER_CHUNK: usize = 4096;

/// A video track found in a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VideoTrackInfo {
    /// The codec's common name (`H.264`, `AV1`, `VP9`...).
    pub codec: String,
    /// Frame width in pixels, when the container says.
    pub width: Option<u32>,
    /// Frame height in pixels, when the container says.
    pub height: Option<u32>,
}

/// What [`probe`] found in a file.
#[derive(Clone, Debug, PartialEq)]
pub struct MediaInfo {
    /// The container's short name (`isomp4`, `ogg`, `wave`...).
    pub container: String,
    /// Duration in seconds of the default audio track, when known.
    pub duration: Option<f64>,
    /// Sample rate and channels of the default audio track, if any.
    pub audio: Option<OutputSpec>,
    /// The first video track, if any.
    pub video: Option<VideoTrackInfo>,
}

fn video_track(reader: &dyn FormatReader) -> Option<VideoTrackInfo> {
    reader.tracks().iter().find_map(|t| match &t.codec_params {
        Some(CodecParameters::Video(v)) => Some(VideoTrackInfo {
            codec: codec_name(v.codec),
            width: v.width.map(u32::from),
            height: v.height.map(u32::from),
        }),
        _ => None,
    })
}

fn check_dimensions(video: Option<&VideoTrackInfo>, max: u32) -> Result<(), MediaError> {
    if let Some(v) = video {
        let (w, h) = (v.width.unwrap_or(0), v.height.unwrap_or(0));
        if w > max || h > max {
            return Err(MediaError::DimensionsTooLarge {
                width: w,
                height: h,
                limit: max,
            });
        }
    }
    Ok(())
}

fn seconds(tb: Option<TimeBase>, ts: Timestamp) -> Option<f64> {
    tb?.calc_time(ts).map(|t| t.as_secs_f64())
}

/// Read a file's container and tracks without decoding (`mime`: a hint, such as the
/// `data:` type). Video tracks over `max_dimension` pixels a side are refused.
pub fn probe(
    bytes: Arc<[u8]>,
    mime: Option<&str>,
    max_dimension: u32,
) -> Result<MediaInfo, MediaError> {
    let reader = open_reader(&bytes, mime)?;
    let mut video = video_track(reader.as_ref());
    check_dimensions(video.as_ref(), max_dimension)?;
    // symphonia's MP4 reader leaves `av01` sample entries untagged: name them here.
    if let Some(v) = &mut video
        && reader.format_info().short_name == "isomp4"
        && v.codec == codec_name(symphonia::core::codecs::video::CODEC_ID_NULL_VIDEO)
        && mp4_sample_entries(&bytes).contains(b"av01")
    {
        "AV1".clone_into(&mut v.codec);
    }
    let track = reader.default_track(TrackType::Audio);
    let audio = track.and_then(|t| match &t.codec_params {
        Some(CodecParameters::Audio(a)) => Some(OutputSpec {
            sample_rate: a.sample_rate.unwrap_or(0),
            channels: a.channels.as_ref().map_or(0, |c| c.count() as u16),
        }),
        _ => None,
    });
    let duration = track.and_then(|t| {
        let tb = t.time_base?;
        tb.calc_duration(t.duration?).map(|d| d.as_secs_f64())
    });
    Ok(MediaInfo {
        container: reader.format_info().short_name.to_owned(),
        duration,
        audio,
        video,
    })
}

/// One audio track being decoded: interleaved `f32` chunks at the track's own rate, mono or
/// stereo (more channels are cut to the first two), with sample-accurate seeking.
pub struct AudioStream {
    /// The file, to open a fresh reader for each seek.
    bytes: Arc<[u8]>,
    mime: Option<String>,
    reader: Box<dyn FormatReader>,
    decoder: Box<dyn AudioDecoder>,
    track_id: u32,
    time_base: Option<TimeBase>,
    spec: OutputSpec,
    source_channels: usize,
    duration: Option<f64>,
    /// Frames of the next decoded packets still to drop to land exactly on a seek target.
    skip_frames: u64,
    /// Position (seconds) of the next frame [`AudioStream::next_chunk`] returns.
    position: f64,
    decoded: Vec<f32>,
    out: Vec<f32>,
    /// Frames returned so far (to tell a file that ends before any audio).
    frames_out: u64,
}

impl std::fmt::Debug for AudioStream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AudioStream")
            .field("spec", &self.spec)
            .field("duration", &self.duration)
            .field("position", &self.position)
            .finish_non_exhaustive()
    }
}

impl AudioStream {
    /// Open the default audio track of a file. `max_dimension` refuses files whose video
    /// track is larger (each side); a file with a video track is otherwise played for its
    /// sound.
    pub fn open(
        bytes: Arc<[u8]>,
        mime: Option<&str>,
        max_dimension: u32,
    ) -> Result<Self, MediaError> {
        let reader = open_reader(&bytes, mime)?;
        check_dimensions(video_track(reader.as_ref()).as_ref(), max_dimension)?;
        let track = reader
            .default_track(TrackType::Audio)
            .ok_or(MediaError::NoTrack)?;
        let Some(CodecParameters::Audio(params)) = &track.codec_params else {
            return Err(MediaError::NoTrack);
        };
        let decoder = symphonia::default::get_codecs()
            .make_audio_decoder(params, &AudioDecoderOptions::default())
            .map_err(|e| match e {
                SymError::Unsupported(_) => {
                    MediaError::UnsupportedCodec(format!("audio codec {}", params.codec))
                }
                other => sym_error(other),
            })?;
        let source_channels = params.channels.as_ref().map_or(2, |c| c.count()).max(1);
        let rate = params.sample_rate.unwrap_or(0);
        if rate == 0 {
            return Err(MediaError::Decode(
                "the track has no sample rate".to_owned(),
            ));
        }
        let time_base = track.time_base;
        let duration = time_base
            .zip(track.duration)
            .and_then(|(tb, d)| tb.calc_duration(d))
            .map(|t| t.as_secs_f64())
            .or_else(|| track.num_frames.map(|n| n as f64 / f64::from(rate)));
        let track_id = track.id;
        Ok(Self {
            bytes,
            mime: mime.map(str::to_owned),
            reader,
            decoder,
            track_id,
            time_base,
            spec: OutputSpec {
                sample_rate: rate,
                channels: if source_channels == 1 { 1 } else { 2 },
            },
            source_channels,
            duration,
            skip_frames: 0,
            position: 0.0,
            decoded: Vec::new(),
            out: Vec::new(),
            frames_out: 0,
        })
    }

    /// The output format of [`AudioStream::next_chunk`].
    pub fn spec(&self) -> OutputSpec {
        self.spec
    }

    /// Duration in seconds, when the container says.
    pub fn duration(&self) -> Option<f64> {
        self.duration
    }

    /// Position in seconds just past the last chunk [`AudioStream::next_chunk`] returned
    /// (frames counted from the start or the last seek).
    pub fn position(&self) -> f64 {
        self.position
    }

    /// The next decoded samples (interleaved, [`AudioStream::spec`]'s channels), or `None` at
    /// the end of the stream. A file cut short ends where it is cut (after at least one
    /// decoded packet; before that it is an error).
    pub fn next_chunk(&mut self) -> Result<Option<&[f32]>, MediaError> {
        let mut bad = 0usize;
        for _ in 0..MAX_PACKETS_PER_CHUNK {
            let packet = match self.reader.next_packet() {
                Ok(Some(p)) => p,
                Ok(None) | Err(SymError::ResetRequired) => return self.end(),
                // Cut short mid-stream: play what there was.
                Err(SymError::IoError(_)) if self.frames_out > 0 => return Ok(None),
                Err(e) => return Err(sym_error(e)),
            };
            if packet.track_id != self.track_id {
                continue;
            }
            match self.decoder.decode(&packet) {
                Ok(buf) => {
                    bad = 0;
                    buf.copy_to_vec_interleaved::<f32>(&mut self.decoded);
                }
                Err(SymError::DecodeError(_)) => {
                    bad += 1;
                    if bad > MAX_BAD_PACKETS {
                        return Err(MediaError::Decode(format!(
                            "{MAX_BAD_PACKETS} packets in a row did not decode"
                        )));
                    }
                    continue;
                }
                Err(e) => return Err(sym_error(e)),
            }
            let frames = self.decoded.len() / self.source_channels;
            let skip = (self.skip_frames as usize).min(frames);
            self.skip_frames -= skip as u64;
            if skip == frames {
                continue;
            }
            self.out.clear();
            let ch = self.source_channels;
            for frame in self.decoded.chunks_exact(ch).skip(skip) {
                match (ch, frame) {
                    (1, [m]) => self.out.push(*m),
                    (_, [l, r, ..]) => {
                        self.out.push(*l);
                        self.out.push(*r);
                    }
                    _ => {}
                }
            }
            let n = (frames - skip) as u64;
            self.frames_out += n;
            self.position += n as f64 / f64::from(self.spec.sample_rate);
            return Ok(Some(&self.out));
        }
        // Only other tracks' packets so far: report an empty chunk and go on next call.
        self.out.clear();
        Ok(Some(&self.out))
    }

    fn end(&self) -> Result<Option<&[f32]>, MediaError> {
        if self.frames_out == 0 && self.position == 0.0 && self.skip_frames == 0 {
            // Nothing decoded from a file that claims an audio track.
            if self.duration.is_some_and(|d| d > 0.0) {
                return Err(MediaError::Decode(
                    "the file ends before its first audio packet".to_owned(),
                ));
            }
        }
        Ok(None)
    }

    /// Seek so that the next chunk starts at `seconds` (clamped to the track), to the sample.
    /// Returns the position reached.
    pub fn seek(&mut self, seconds: f64) -> Result<f64, MediaError> {
        let target = seconds.clamp(0.0, self.duration.unwrap_or(f64::MAX).max(0.0));
        let time = Time::try_from_secs_f64(target).unwrap_or(Time::ZERO);
        // A fresh reader: symphonia's MP4 reader cannot seek once it has read to the end
        // ("no atom pending read"); opening again only parses the headers in memory.
        self.reader = open_reader(&self.bytes, self.mime.as_deref())?;
        let seeked = self
            .reader
            .seek(
                SeekMode::Accurate,
                SeekTo::Time {
                    time,
                    track_id: Some(self.track_id),
                },
            )
            .map_err(sym_error)?;
        self.decoder.reset();
        let rate = f64::from(self.spec.sample_rate);
        let actual = seconds_or(self.time_base, seeked.actual_ts, target);
        let required = seconds_or(self.time_base, seeked.required_ts, target);
        // Decoded frames between where the demuxer landed and where the user asked.
        self.skip_frames = ((target.max(required) - actual).max(0.0) * rate).round() as u64;
        self.position = actual + self.skip_frames as f64 / rate;
        Ok(self.position)
    }
}

fn seconds_or(tb: Option<TimeBase>, ts: Timestamp, fallback: f64) -> f64 {
    seconds(tb, ts).unwrap_or(fallback)
}
