//! Video decoding: the video track demuxed by symphonia (MP4; Matroska/WebM where symphonia
//! names the codec), H.264 through OpenH264 (built from its bundled C++ source), AV1 through
//! re_rav1d (rav1d, Rust, assembly off), and YUV 4:2:0 to RGBA, all on the calling thread
//! (a player's video worker).
//!
//! Sizes are checked before anything is allocated for a frame: the container's sample entry,
//! every H.264 sequence parameter set (parsed here before the decoder sees it), dav1d's own
//! frame-size limit, and each decoded picture before its RGBA copy.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::Arc;

use symphonia::core::codecs::CodecParameters;
use symphonia::core::codecs::video::well_known as video_ids;
use symphonia::core::codecs::video::well_known::extra_data::VIDEO_EXTRA_DATA_ID_AVC_DECODER_CONFIG;
use symphonia::core::errors::Error as SymError;
use symphonia::core::formats::{FormatReader, SeekMode, SeekTo};
use symphonia::core::units::{TimeBase, Timestamp};

use super::MediaError;
use super::container::{codec_name, mp4_sample_entries, open_reader, sym_error};

/// Frames a file may have (an index entry each): ten hours at 60 frames a second.
const MAX_FRAMES: usize = 2_160_000;
/// Consecutive packets the decoder may reject before the stream counts as broken.
const MAX_BAD_PACKETS: usize = 32;

/// The video codecs this build decodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VideoCodec {
    /// H.264 / AVC (OpenH264).
    H264,
    /// AV1, 8-bit 4:2:0 (rav1d).
    Av1,
}

impl VideoCodec {
    /// The codec's common name.
    pub fn name(self) -> &'static str {
        match self {
            Self::H264 => "H.264",
            Self::Av1 => "AV1",
        }
    }
}

/// What [`VideoStream::open`] found.
#[derive(Clone, Debug, PartialEq)]
pub struct VideoInfo {
    /// The codec.
    pub codec: VideoCodec,
    /// Frame width in pixels (the container's).
    pub width: u32,
    /// Frame height in pixels (the container's).
    pub height: u32,
    /// Frames in the track.
    pub frames: usize,
    /// Seconds from the first frame to the end of the last.
    pub duration: f64,
}

/// One decoded frame, ready for a texture.
#[derive(Clone, Debug)]
pub struct VideoFrame {
    /// When it is shown, in seconds from the start.
    pub time: f64,
    /// Its number in display order (0-based).
    pub index: usize,
    /// The picture (opaque RGBA).
    pub image: egui::ColorImage,
}

/// The planes of a decoded 4:2:0 picture, borrowed from the decoder.
struct Planes<'a> {
    y: &'a [u8],
    u: &'a [u8],
    v: &'a [u8],
    y_stride: usize,
    uv_stride: usize,
    width: usize,
    height: usize,
    matrix: Matrix,
}

/// YUV to RGB coefficients (fixed point, 8 fractional bits).
#[derive(Clone, Copy, Debug)]
struct Matrix {
    /// Luma offset and scale.
    y_off: i32,
    y_mul: i32,
    rv: i32,
    gu: i32,
    gv: i32,
    bu: i32,
}

impl Matrix {
    /// BT.601 or BT.709, limited (studio) or full range.
    fn new(bt709: bool, full: bool) -> Self {
        match (bt709, full) {
            (false, false) => Self {
                y_off: 16,
                y_mul: 298,
                rv: 409,
                gu: 100,
                gv: 208,
                bu: 516,
            },
            (true, false) => Self {
                y_off: 16,
                y_mul: 298,
                rv: 459,
                gu: 55,
                gv: 136,
                bu: 541,
            },
            (false, true) => Self {
                y_off: 0,
                y_mul: 256,
                rv: 359,
                gu: 88,
                gv: 183,
                bu: 454,
            },
            (true, true) => Self {
                y_off: 0,
                y_mul: 256,
                rv: 403,
                gu: 48,
                gv: 120,
                bu: 475,
            },
        }
    }

    /// The usual guess without colour metadata: HD and larger are BT.709.
    fn guess(height: usize) -> Self {
        Self::new(height >= 720, false)
    }
}

fn dimension_error(width: usize, height: usize, limit: u32) -> MediaError {
    MediaError::DimensionsTooLarge {
        width: u32::try_from(width).unwrap_or(u32::MAX),
        height: u32::try_from(height).unwrap_or(u32::MAX),
        limit,
    }
}

/// Convert a 4:2:0 picture to an opaque RGBA image. The planes are checked against the
/// size first (a short plane is an error, not a panic).
fn to_image(p: &Planes<'_>) -> Result<egui::ColorImage, MediaError> {
    let (w, h) = (p.width, p.height);
    let (cw, ch) = (w.div_ceil(2), h.div_ceil(2));
    let short = || MediaError::Decode("a decoded picture is smaller than its size".to_owned());
    if w == 0 || h == 0 || p.y_stride < w || p.uv_stride < cw {
        return Err(short());
    }
    if p.y.len() < (h - 1) * p.y_stride + w
        || p.u.len() < (ch - 1) * p.uv_stride + cw
        || p.v.len() < (ch - 1) * p.uv_stride + cw
    {
        return Err(short());
    }
    let m = p.matrix;
    let mut pixels = Vec::with_capacity(w * h);
    let clamp = |x: i32| (x >> 8).clamp(0, 255) as u8;
    for row in 0..h {
        let y_row =
            p.y.get(row * p.y_stride..row * p.y_stride + w)
                .ok_or_else(short)?;
        let c = (row / 2) * p.uv_stride;
        let u_row = p.u.get(c..c + cw).ok_or_else(short)?;
        let v_row = p.v.get(c..c + cw).ok_or_else(short)?;
        for ((pair, &u), &v) in y_row.chunks(2).zip(u_row).zip(v_row) {
            let d = i32::from(u) - 128;
            let e = i32::from(v) - 128;
            let r_c = m.rv * e + 128;
            let g_c = -m.gu * d - m.gv * e + 128;
            let b_c = m.bu * d + 128;
            for &y in pair {
                let l = m.y_mul * (i32::from(y) - m.y_off);
                pixels.push(egui::Color32::from_rgb(
                    clamp(l + r_c),
                    clamp(l + g_c),
                    clamp(l + b_c),
                ));
            }
        }
    }
    Ok(egui::ColorImage::new([w, h], pixels))
}

// ---- H.264 ----

/// Reads bits of an H.264 RBSP (emulation-prevention bytes already removed).
struct Bits<'a> {
    data: &'a [u8],
    pos: usize,
}

impl Bits<'_> {
    fn bit(&mut self) -> Option<u32> {
        let byte = self.data.get(self.pos / 8)?;
        let b = (byte >> (7 - (self.pos % 8))) & 1;
        self.pos += 1;
        Some(u32::from(b))
    }

    fn bits(&mut self, n: u32) -> Option<u32> {
        (0..n).try_fold(0u32, |acc, _| Some((acc << 1) | self.bit()?))
    }

    /// Exp-Golomb, unsigned.
    fn ue(&mut self) -> Option<u32> {
        let mut zeros = 0;
        while self.bit()? == 0 {
            zeros += 1;
            if zeros > 31 {
                return None;
            }
        }
        Some(((1u64 << zeros) - 1 + u64::from(self.bits(zeros)?)).min(u64::from(u32::MAX)) as u32)
    }

    fn se(&mut self) -> Option<i64> {
        let k = i64::from(self.ue()?);
        Some(if k % 2 == 1 { (k + 1) / 2 } else { -(k / 2) })
    }
}

fn unescape(nal: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(nal.len());
    let mut zeros = 0;
    for &b in nal {
        if zeros >= 2 && b == 3 {
            zeros = 0;
            continue;
        }
        zeros = if b == 0 { zeros + 1 } else { 0 };
        out.push(b);
    }
    out
}

/// The coded frame size a sequence parameter set NAL (header byte included) declares.
fn sps_size(nal: &[u8]) -> Option<(u32, u32)> {
    let rbsp = unescape(nal.get(1..)?);
    let mut r = Bits {
        data: &rbsp,
        pos: 0,
    };
    let profile = r.bits(8)?;
    r.bits(16)?; // constraint flags, level
    r.ue()?; // seq_parameter_set_id
    if matches!(
        profile,
        100 | 110 | 122 | 244 | 44 | 83 | 86 | 118 | 128 | 138 | 139 | 134 | 135
    ) {
        let chroma = r.ue()?;
        if chroma == 3 {
            r.bit()?;
        }
        r.ue()?;
        r.ue()?;
        r.bit()?;
        if r.bit()? == 1 {
            for i in 0..(if chroma == 3 { 12 } else { 8 }) {
                if r.bit()? == 1 {
                    let size = if i < 6 { 16 } else { 64 };
                    let (mut last, mut next) = (8i64, 8i64);
                    for _ in 0..size {
                        if next != 0 {
                            next = (last + r.se()? + 256).rem_euclid(256);
                        }
                        if next != 0 {
                            last = next;
                        }
                    }
                }
            }
        }
    }
    r.ue()?; // log2_max_frame_num_minus4
    match r.ue()? {
        0 => {
            r.ue()?;
        }
        1 => {
            r.bit()?;
            r.se()?;
            r.se()?;
            let n = r.ue()?;
            if n > 255 {
                return None;
            }
            for _ in 0..n {
                r.se()?;
            }
        }
        _ => {}
    }
    r.ue()?; // max_num_ref_frames
    r.bit()?; // gaps_in_frame_num_value_allowed_flag
    let w_mbs = u64::from(r.ue()?) + 1;
    let h_units = u64::from(r.ue()?) + 1;
    let frame_mbs_only = u64::from(r.bit()?);
    let w = w_mbs * 16;
    let h = h_units * 16 * (2 - frame_mbs_only);
    Some((
        u32::try_from(w).unwrap_or(u32::MAX),
        u32::try_from(h).unwrap_or(u32::MAX),
    ))
}

/// The SPS and PPS NALs of an `avcC` record and its NAL length size.
fn parse_avcc(record: &[u8]) -> Option<(Vec<Vec<u8>>, usize)> {
    let length_size = usize::from(record.get(4)? & 3) + 1;
    let mut at = 5;
    let mut nals = Vec::new();
    for count_mask in [0x1f, 0xff] {
        let count = record.get(at)? & count_mask;
        at += 1;
        for _ in 0..count {
            let len = usize::from(u16::from_be_bytes([*record.get(at)?, *record.get(at + 1)?]));
            nals.push(record.get(at + 2..at + 2 + len)?.to_vec());
            at += 2 + len;
        }
    }
    Some((nals, length_size))
}

/// The NAL units of a length-prefixed (MP4) sample.
fn nal_units(sample: &[u8], length_size: usize) -> impl Iterator<Item = &[u8]> {
    let mut rest = sample;
    std::iter::from_fn(move || {
        let len_bytes = rest.get(..length_size)?;
        let len = len_bytes
            .iter()
            .fold(0usize, |acc, &b| (acc << 8) | usize::from(b));
        let nal = rest.get(length_size..length_size + len)?;
        rest = rest.get(length_size + len..).unwrap_or_default();
        Some(nal)
    })
}

struct H264 {
    decoder: openh264::decoder::Decoder,
    /// SPS and PPS from the container, sent again after every reset.
    headers: Vec<Vec<u8>>,
    length_size: usize,
    send_headers: bool,
    /// Timestamps of the packets sent and not yet output, smallest first: OpenH264 returns
    /// pictures in display order, and symphonia's MP4 packets carry decode times.
    pending: BinaryHeap<Reverse<i64>>,
    max_dimension: u32,
    annex_b: Vec<u8>,
}

fn h264_error(e: &openh264::Error) -> MediaError {
    MediaError::Decode(format!("H.264: {e}"))
}

fn new_openh264() -> Result<openh264::decoder::Decoder, MediaError> {
    use openh264::decoder::{Decoder, DecoderConfig, Flush};
    let config = DecoderConfig::new().flush_after_decode(Flush::NoFlush);
    Decoder::with_api_config(openh264::OpenH264API::from_source(), config)
        .map_err(|e| h264_error(&e))
}

impl H264 {
    fn new(record: &[u8], max_dimension: u32) -> Result<Self, MediaError> {
        let (headers, length_size) = parse_avcc(record)
            .ok_or_else(|| MediaError::Decode("H.264: bad avcC record".to_owned()))?;
        let this = Self {
            decoder: new_openh264()?,
            headers,
            length_size,
            send_headers: true,
            pending: BinaryHeap::new(),
            max_dimension,
            annex_b: Vec::new(),
        };
        for nal in &this.headers {
            this.check_nal(nal)?;
        }
        Ok(this)
    }

    /// Refuse a sequence parameter set declaring frames over the limit.
    fn check_nal(&self, nal: &[u8]) -> Result<(), MediaError> {
        if nal.first().is_some_and(|h| h & 0x1f == 7) {
            let (w, h) = sps_size(nal)
                .ok_or_else(|| MediaError::Decode("H.264: unreadable SPS".to_owned()))?;
            if w > self.max_dimension || h > self.max_dimension {
                return Err(dimension_error(w as usize, h as usize, self.max_dimension));
            }
        }
        Ok(())
    }

    fn is_key(sample: &[u8], length_size: usize) -> bool {
        nal_units(sample, length_size).any(|n| n.first().is_some_and(|h| h & 0x1f == 5))
    }

    fn reset(&mut self) -> Result<(), MediaError> {
        self.decoder = new_openh264()?;
        self.send_headers = true;
        self.pending.clear();
        Ok(())
    }

    fn emit(
        yuv: &openh264::decoder::DecodedYUV<'_>,
        ts: i64,
        max: u32,
        out: &mut dyn FnMut(i64, &Planes<'_>) -> Result<(), MediaError>,
    ) -> Result<(), MediaError> {
        use openh264::formats::YUVSource as _;
        let (w, h) = yuv.dimensions();
        if w > max as usize || h > max as usize {
            return Err(dimension_error(w, h, max));
        }
        let (ys, us, _) = yuv.strides();
        out(
            ts,
            &Planes {
                y: yuv.y(),
                u: yuv.u(),
                v: yuv.v(),
                y_stride: ys,
                uv_stride: us,
                width: w,
                height: h,
                matrix: Matrix::guess(h),
            },
        )
    }

    fn feed(
        &mut self,
        sample: &[u8],
        ts: i64,
        out: &mut dyn FnMut(i64, &Planes<'_>) -> Result<(), MediaError>,
    ) -> Result<(), MediaError> {
        let mut annex_b = std::mem::take(&mut self.annex_b);
        annex_b.clear();
        if self.send_headers {
            for nal in &self.headers {
                annex_b.extend_from_slice(&[0, 0, 0, 1]);
                annex_b.extend_from_slice(nal);
            }
            self.send_headers = false;
        }
        for nal in nal_units(sample, self.length_size) {
            self.check_nal(nal)?;
            annex_b.extend_from_slice(&[0, 0, 0, 1]);
            annex_b.extend_from_slice(nal);
        }
        self.pending.push(Reverse(ts));
        let decoded = self.decoder.decode(&annex_b);
        let result = match decoded {
            Ok(Some(yuv)) => {
                let ts = self.pending.pop().map_or(ts, |Reverse(t)| t);
                Self::emit(&yuv, ts, self.max_dimension, out)
            }
            Ok(None) => Ok(()),
            Err(e) => Err(h264_error(&e)),
        };
        self.annex_b = annex_b;
        result
    }

    fn drain(
        &mut self,
        out: &mut dyn FnMut(i64, &Planes<'_>) -> Result<(), MediaError>,
    ) -> Result<(), MediaError> {
        let max = self.max_dimension;
        let mut pending = std::mem::take(&mut self.pending);
        let frames = self.decoder.flush_remaining().map_err(|e| h264_error(&e))?;
        for yuv in &frames {
            let Some(Reverse(ts)) = pending.pop() else {
                break;
            };
            Self::emit(yuv, ts, max, out)?;
        }
        Ok(())
    }
}

// ---- AV1 ----

struct Av1 {
    decoder: re_rav1d::dav1d::Decoder,
    max_dimension: u32,
}

fn av1_error(e: re_rav1d::dav1d::Error) -> MediaError {
    use re_rav1d::dav1d::Error;
    match e {
        Error::UnsupportedBitstream => MediaError::UnsupportedCodec("this AV1 stream".to_owned()),
        other => MediaError::Decode(format!("AV1: {other}")),
    }
}

impl Av1 {
    fn new(max_dimension: u32) -> Result<Self, MediaError> {
        let mut settings = re_rav1d::dav1d::Settings::new();
        // One thread (the player's video worker), no frame delay: pictures come out as their
        // packets go in.
        settings.set_n_threads(1);
        settings.set_max_frame_delay(1);
        // dav1d refuses larger frames before allocating them.
        settings.set_frame_size_limit(max_dimension.saturating_mul(max_dimension));
        let decoder = re_rav1d::dav1d::Decoder::with_settings(&settings).map_err(av1_error)?;
        Ok(Self {
            decoder,
            max_dimension,
        })
    }

    /// A temporal unit carrying a sequence header starts a coded video sequence (a key
    /// frame) in the files AV1 encoders write.
    fn is_key(sample: &[u8]) -> bool {
        obus(sample).any(|(kind, _)| kind == OBU_SEQUENCE_HEADER)
    }

    /// Refuse a sequence header declaring frames over the limit (before dav1d sees it).
    fn check(&self, sample: &[u8]) -> Result<(), MediaError> {
        for (kind, payload) in obus(sample) {
            if kind == OBU_SEQUENCE_HEADER {
                let (w, h) = av1_max_frame_size(payload).ok_or_else(|| {
                    MediaError::Decode("AV1: unreadable sequence header".to_owned())
                })?;
                if w > self.max_dimension || h > self.max_dimension {
                    return Err(dimension_error(w as usize, h as usize, self.max_dimension));
                }
            }
        }
        Ok(())
    }

    fn reset(&mut self) {
        self.decoder.flush();
    }

    fn pictures(
        &mut self,
        out: &mut dyn FnMut(i64, &Planes<'_>) -> Result<(), MediaError>,
    ) -> Result<(), MediaError> {
        use re_rav1d::dav1d::{Error, PixelLayout, PlanarImageComponent as C};
        loop {
            let pic = match self.decoder.get_picture() {
                Ok(p) => p,
                Err(Error::Again) => return Ok(()),
                Err(e) => return Err(av1_error(e)),
            };
            let (w, h) = (pic.width(), pic.height());
            if w > self.max_dimension || h > self.max_dimension {
                return Err(dimension_error(w as usize, h as usize, self.max_dimension));
            }
            if pic.bit_depth() != 8 || pic.pixel_layout() != PixelLayout::I420 {
                return Err(MediaError::UnsupportedCodec(format!(
                    "AV1 {}-bit {:?} (8-bit 4:2:0 only)",
                    pic.bit_depth(),
                    pic.pixel_layout()
                )));
            }
            let full = matches!(pic.color_range(), re_rav1d::dav1d::pixel::YUVRange::Full);
            let bt709 = match pic.matrix_coefficients() {
                re_rav1d::dav1d::pixel::MatrixCoefficients::BT709 => true,
                re_rav1d::dav1d::pixel::MatrixCoefficients::Unspecified => h >= 720,
                _ => false,
            };
            let (y, u, v) = (pic.plane(C::Y), pic.plane(C::U), pic.plane(C::V));
            out(
                pic.timestamp().unwrap_or(0),
                &Planes {
                    y: &y,
                    u: &u,
                    v: &v,
                    y_stride: pic.stride(C::Y) as usize,
                    uv_stride: pic.stride(C::U) as usize,
                    width: w as usize,
                    height: h as usize,
                    matrix: Matrix::new(bt709, full),
                },
            )?;
        }
    }

    fn feed(
        &mut self,
        sample: &[u8],
        ts: i64,
        out: &mut dyn FnMut(i64, &Planes<'_>) -> Result<(), MediaError>,
    ) -> Result<(), MediaError> {
        use re_rav1d::dav1d::Error;
        self.check(sample)?;
        let mut sent = self
            .decoder
            .send_data(sample.to_vec(), None, Some(ts), None);
        // "Again": pictures must be taken out before the rest of the data goes in.
        for _ in 0..1024 {
            match sent {
                Ok(()) => return self.pictures(out),
                Err(Error::Again) => {
                    self.pictures(out)?;
                    sent = self.decoder.send_pending_data();
                }
                Err(e) => return Err(av1_error(e)),
            }
        }
        Err(MediaError::Decode(
            "AV1: the decoder does not take the data".to_owned(),
        ))
    }
}

const OBU_SEQUENCE_HEADER: u8 = 1;

/// The OBUs of an AV1 temporal unit (low-overhead format, as in MP4 and WebM): (type,
/// payload). Stops at the first OBU without a size field (the last one, if any).
fn obus(sample: &[u8]) -> impl Iterator<Item = (u8, &[u8])> {
    let mut rest = sample;
    std::iter::from_fn(move || {
        let &header = rest.first()?;
        let kind = (header >> 3) & 0xf;
        let extension = (header >> 2) & 1 == 1;
        let has_size = (header >> 1) & 1 == 1;
        let mut at = 1 + usize::from(extension);
        let size = if has_size {
            let mut size = 0usize;
            for i in 0..8 {
                let &b = rest.get(at)?;
                at += 1;
                size |= usize::from(b & 0x7f) << (7 * i);
                if b & 0x80 == 0 {
                    break;
                }
            }
            size
        } else {
            rest.len().saturating_sub(at)
        };
        let payload = rest.get(at..at.checked_add(size)?)?;
        rest = rest.get(at + size..).unwrap_or_default();
        Some((kind, payload))
    })
}

/// The largest frame an AV1 sequence header allows (`max_frame_width_minus_1 + 1`...).
fn av1_max_frame_size(header: &[u8]) -> Option<(u32, u32)> {
    let mut r = Bits {
        data: header,
        pos: 0,
    };
    r.bits(3)?; // seq_profile
    r.bit()?; // still_picture
    let reduced = r.bit()? == 1;
    if reduced {
        r.bits(5)?;
    } else {
        let mut decoder_model = false;
        let mut buffer_delay_bits = 0;
        if r.bit()? == 1 {
            // timing_info
            r.bits(32)?;
            r.bits(32)?;
            if r.bit()? == 1 {
                // uvlc num_ticks_per_picture_minus_1
                let mut zeros = 0;
                while r.bit()? == 0 {
                    zeros += 1;
                    if zeros >= 32 {
                        return None;
                    }
                }
                r.bits(zeros)?;
            }
            decoder_model = r.bit()? == 1;
            if decoder_model {
                buffer_delay_bits = r.bits(5)? + 1;
                r.bits(32)?;
                r.bits(5)?;
                r.bits(5)?;
            }
        }
        let initial_display_delay = r.bit()? == 1;
        let points = r.bits(5)? + 1;
        for _ in 0..points {
            r.bits(12)?;
            if r.bits(5)? > 7 {
                r.bit()?;
            }
            if decoder_model && r.bit()? == 1 {
                r.bits(buffer_delay_bits)?;
                r.bits(buffer_delay_bits)?;
                r.bit()?;
            }
            if initial_display_delay && r.bit()? == 1 {
                r.bits(4)?;
            }
        }
    }
    let w_bits = r.bits(4)? + 1;
    let h_bits = r.bits(4)? + 1;
    let w = u64::from(r.bits(w_bits)?) + 1;
    let h = u64::from(r.bits(h_bits)?) + 1;
    Some((
        u32::try_from(w).unwrap_or(u32::MAX),
        u32::try_from(h).unwrap_or(u32::MAX),
    ))
}

enum Codec {
    H264(H264),
    Av1(Av1),
}

impl Codec {
    fn feed(
        &mut self,
        sample: &[u8],
        ts: i64,
        out: &mut dyn FnMut(i64, &Planes<'_>) -> Result<(), MediaError>,
    ) -> Result<(), MediaError> {
        match self {
            Self::H264(d) => d.feed(sample, ts, out),
            Self::Av1(d) => d.feed(sample, ts, out),
        }
    }

    fn drain(
        &mut self,
        out: &mut dyn FnMut(i64, &Planes<'_>) -> Result<(), MediaError>,
    ) -> Result<(), MediaError> {
        match self {
            Self::H264(d) => d.drain(out),
            Self::Av1(d) => d.pictures(out),
        }
    }

    fn reset(&mut self) -> Result<(), MediaError> {
        match self {
            Self::H264(d) => d.reset(),
            Self::Av1(d) => {
                d.reset();
                Ok(())
            }
        }
    }
}

// ---- the stream ----

/// The video track of a file being decoded, frame by frame, with frame-accurate seeking.
pub struct VideoStream {
    bytes: Arc<[u8]>,
    mime: Option<String>,
    reader: Box<dyn FormatReader>,
    track_id: u32,
    time_base: TimeBase,
    codec: Codec,
    info: VideoInfo,
    /// Display times of every frame (seconds, ascending).
    times: Vec<f64>,
    /// Key packets in decode order: (timestamp, seconds).
    keys: Vec<(i64, f64)>,
    /// Frames decoded before this time are dropped (landing exactly on a seek target).
    skip_before: f64,
    eof: bool,
    drained: bool,
    /// Pictures converted and not yet returned (a packet can give more than one).
    ready: std::collections::VecDeque<VideoFrame>,
    bad: usize,
}

impl std::fmt::Debug for VideoStream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VideoStream")
            .field("info", &self.info)
            .finish_non_exhaustive()
    }
}

impl VideoStream {
    /// Open the first video track of a file (`mime`: a hint). Refused, typed: no video track
    /// ([`MediaError::NoTrack`]), a codec this build does not decode
    /// ([`MediaError::UnsupportedCodec`]: VP9, VP8, H.265...), a frame size over
    /// `max_dimension` ([`MediaError::DimensionsTooLarge`]). Reads the track's packets once
    /// to index its frames and key frames.
    pub fn open(
        bytes: Arc<[u8]>,
        mime: Option<&str>,
        max_dimension: u32,
    ) -> Result<Self, MediaError> {
        let reader = open_reader(&bytes, mime)?;
        let (track_id, params, time_base) = reader
            .tracks()
            .iter()
            .find_map(|t| match &t.codec_params {
                Some(CodecParameters::Video(v)) => Some((t.id, v.clone(), t.time_base)),
                _ => None,
            })
            .ok_or(MediaError::NoTrack)?;
        let time_base = time_base
            .ok_or_else(|| MediaError::Decode("the video track has no time base".to_owned()))?;
        let (width, height) = (
            params.width.map_or(0, u32::from),
            params.height.map_or(0, u32::from),
        );
        if width > max_dimension || height > max_dimension {
            return Err(MediaError::DimensionsTooLarge {
                width,
                height,
                limit: max_dimension,
            });
        }
        let is_mp4 = reader.format_info().short_name == "isomp4";
        let kind = match params.codec {
            video_ids::CODEC_ID_H264 => VideoCodec::H264,
            video_ids::CODEC_ID_AV1 => VideoCodec::Av1,
            symphonia::core::codecs::video::CODEC_ID_NULL_VIDEO
                if is_mp4 && mp4_sample_entries(&bytes).contains(b"av01") =>
            {
                VideoCodec::Av1
            }
            other => {
                return Err(MediaError::UnsupportedCodec(format!(
                    "{} video",
                    codec_name(other)
                )));
            }
        };
        let codec = match kind {
            VideoCodec::H264 => {
                let record = params
                    .extra_data
                    .iter()
                    .find(|x| x.id == VIDEO_EXTRA_DATA_ID_AVC_DECODER_CONFIG)
                    .ok_or_else(|| MediaError::Decode("H.264 without an avcC record".to_owned()))?;
                Codec::H264(H264::new(&record.data, max_dimension)?)
            }
            VideoCodec::Av1 => Codec::Av1(Av1::new(max_dimension)?),
        };
        // Index the track: every frame's time and the key frames.
        let length_size = match &codec {
            Codec::H264(d) => d.length_size,
            Codec::Av1(_) => 0,
        };
        let mut index = open_reader(&bytes, mime)?;
        let secs = |ts: i64| {
            time_base
                .calc_time(Timestamp::new(ts))
                .map_or(0.0, |t| t.as_secs_f64())
        };
        let mut times = Vec::new();
        let mut keys = Vec::new();
        let mut end = 0.0f64;
        loop {
            let packet = match index.next_packet() {
                Ok(Some(p)) => p,
                Ok(None) | Err(SymError::ResetRequired) => break,
                // Cut short (symphonia reports it as an I/O or a format error): index what
                // there is.
                Err(_) if !times.is_empty() => break,
                Err(e) => return Err(sym_error(e)),
            };
            if packet.track_id != track_id {
                continue;
            }
            if times.len() >= MAX_FRAMES {
                return Err(MediaError::Decode(format!(
                    "more than {MAX_FRAMES} video frames"
                )));
            }
            let ts = packet.pts.get();
            let t = secs(ts);
            let key = match kind {
                VideoCodec::H264 => H264::is_key(&packet.data, length_size),
                VideoCodec::Av1 => Av1::is_key(&packet.data),
            };
            if key || keys.is_empty() {
                keys.push((ts, t));
            }
            times.push(t);
            let dur = secs(i64::try_from(packet.dur.get()).unwrap_or(0));
            end = end.max(t + dur);
        }
        drop(index);
        if times.is_empty() {
            return Err(MediaError::Decode(
                "the video track has no frames".to_owned(),
            ));
        }
        times.sort_by(f64::total_cmp);
        let info = VideoInfo {
            codec: kind,
            width,
            height,
            frames: times.len(),
            duration: end,
        };
        Ok(Self {
            bytes,
            mime: mime.map(str::to_owned),
            reader,
            track_id,
            time_base,
            codec,
            info,
            times,
            keys,
            skip_before: f64::NEG_INFINITY,
            eof: false,
            drained: false,
            ready: std::collections::VecDeque::new(),
            bad: 0,
        })
    }

    /// What the track is.
    pub fn info(&self) -> &VideoInfo {
        &self.info
    }

    /// Display times of every frame, in seconds, ascending.
    pub fn frame_times(&self) -> &[f64] {
        &self.times
    }

    /// The frame shown at `seconds`: the last one starting at or before it (the first
    /// before the start).
    pub fn frame_at(&self, seconds: f64) -> usize {
        // A little slack so a time computed from a frame number lands on that frame.
        self.times
            .partition_point(|&t| t <= seconds + 1e-6)
            .saturating_sub(1)
    }

    fn secs(&self, ts: i64) -> f64 {
        self.time_base
            .calc_time(Timestamp::new(ts))
            .map_or(0.0, |t| t.as_secs_f64())
    }

    /// The next frame in display order, or `None` after the last. A file cut short ends
    /// where it is cut.
    pub fn next_frame(&mut self) -> Result<Option<VideoFrame>, MediaError> {
        loop {
            if let Some(frame) = self.ready.pop_front() {
                return Ok(Some(frame));
            }
            if self.eof {
                if self.drained {
                    return Ok(None);
                }
                self.drained = true;
                let mut got = Vec::new();
                self.codec.drain(&mut |ts, p| {
                    got.push((ts, to_image(p)?));
                    Ok(())
                })?;
                for (ts, image) in got {
                    self.push(ts, image);
                }
                continue;
            }
            // The end, or a file cut short (the index counted only the frames there).
            let Ok(Some(packet)) = self.reader.next_packet() else {
                self.eof = true;
                continue;
            };
            if packet.track_id != self.track_id {
                continue;
            }
            let ts = packet.pts.get();
            let skip_before = self.skip_before;
            let time_base = self.time_base;
            let mut got = Vec::new();
            let fed = self.codec.feed(&packet.data, ts, &mut |ts, p| {
                // Frames before a seek target are decoded (the target needs them) but never
                // converted.
                let t = time_base
                    .calc_time(Timestamp::new(ts))
                    .map_or(0.0, |t| t.as_secs_f64());
                if t + 1e-6 >= skip_before {
                    got.push((ts, to_image(p)?));
                }
                Ok(())
            });
            match fed {
                Ok(()) => self.bad = 0,
                Err(
                    e @ (MediaError::DimensionsTooLarge { .. } | MediaError::UnsupportedCodec(_)),
                ) => {
                    return Err(e);
                }
                Err(e) => {
                    self.bad += 1;
                    if self.bad > MAX_BAD_PACKETS {
                        return Err(e);
                    }
                }
            }
            for (ts, image) in got {
                self.push(ts, image);
            }
        }
    }

    fn push(&mut self, ts: i64, image: egui::ColorImage) {
        let time = self.secs(ts);
        if time + 1e-6 < self.skip_before {
            return;
        }
        let index = self.frame_at(time);
        self.ready.push_back(VideoFrame { time, index, image });
    }

    /// Seek so that the next frame is the one shown at `seconds` (decoding from the key
    /// frame before it). Returns that frame's time.
    pub fn seek(&mut self, seconds: f64) -> Result<f64, MediaError> {
        let target = self
            .times
            .get(self.frame_at(seconds.max(0.0)))
            .copied()
            .unwrap_or(0.0);
        let key = self
            .keys
            .iter()
            .rev()
            .find(|(_, t)| *t <= target + 1e-6)
            .or_else(|| self.keys.first())
            .map_or(0, |(ts, _)| *ts);
        // A fresh reader: symphonia's MP4 reader cannot seek once it has read to the end
        // ("no atom pending read"). Opening again only parses the index in memory.
        self.reader = open_reader(&self.bytes, self.mime.as_deref())?;
        self.reader
            .seek(
                SeekMode::Accurate,
                SeekTo::Timestamp {
                    ts: Timestamp::new(key),
                    track_id: self.track_id,
                },
            )
            .map_err(sym_error)?;
        self.codec.reset()?;
        self.ready.clear();
        self.skip_before = target;
        self.eof = false;
        self.drained = false;
        self.bad = 0;
        Ok(target)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grey_converts_to_grey_and_chroma_tints() {
        let y = [16u8, 126, 235, 235];
        let grey = [128u8];
        let p = Planes {
            y: &y,
            u: &grey,
            v: &grey,
            y_stride: 2,
            uv_stride: 1,
            width: 2,
            height: 2,
            matrix: Matrix::new(false, false),
        };
        let img = to_image(&p).expect("converts");
        let px: Vec<_> = img.pixels.iter().map(|c| c.to_array()).collect();
        assert_eq!(px[0], [0, 0, 0, 255]);
        assert_eq!(px[2], [255, 255, 255, 255]);
        assert!((i32::from(px[1][0]) - 128).abs() <= 1);
        // A short plane is an error.
        let short = Planes { y: &y[..2], ..p };
        assert!(to_image(&short).is_err());
        // High V is red.
        let v = [240u8];
        let red = Planes {
            y: &y,
            u: &grey,
            v: &v,
            y_stride: 2,
            uv_stride: 1,
            width: 2,
            height: 2,
            matrix: Matrix::new(false, false),
        };
        let img = to_image(&red).expect("converts");
        let [r, g, b, _] = img.pixels[1].to_array();
        assert!(r > 200 && g < 100 && b < 150, "{r} {g} {b}");
    }

    #[test]
    fn sps_sizes_are_read() {
        // The SPS of tests/data/media/clip_h264.mp4 (x264 baseline, 64x48: 4x3 macroblocks).
        let sps = [
            0x67, 0x42, 0xc0, 0x0a, 0xda, 0x11, 0xe8, 0x40, 0x00, 0x00, 0x03, 0x00, 0x40, 0x00,
            0x00, 0x05, 0x03, 0xc4, 0x89, 0xa8,
        ];
        assert_eq!(sps_size(&sps), Some((64, 48)));
        assert_eq!(sps_size(&[0x67]), None);
    }

    #[test]
    fn exp_golomb_reads() {
        // 1 -> 0, 010 -> 1, 011 -> 2, 00100 -> 3
        let data = [0b1010_0110, 0b0100_0000];
        let mut r = Bits {
            data: &data,
            pos: 0,
        };
        assert_eq!(r.ue(), Some(0));
        assert_eq!(r.ue(), Some(1));
        assert_eq!(r.ue(), Some(2));
        assert_eq!(r.ue(), Some(3));
    }
}
