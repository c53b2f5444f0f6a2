//! What the audio and video decoders share about containers: opening a file with
//! symphonia's probe, its errors as [`MediaError`]s, codec names, and the MP4 sample entries
//! symphonia leaves untagged (`av01`).

use std::io::Cursor;
use std::sync::Arc;

use symphonia::core::codecs::video::well_known as video_ids;
use symphonia::core::errors::Error as SymError;
use symphonia::core::formats::probe::Hint;
use symphonia::core::formats::{FormatOptions, FormatReader};
use symphonia::core::io::{MediaSourceStream, MediaSourceStreamOptions};
use symphonia::core::meta::MetadataOptions;

use super::MediaError;

/// A video codec's common name (`H.264`, `AV1`, `VP9`...).
pub(crate) fn codec_name(id: symphonia::core::codecs::video::VideoCodecId) -> String {
    match id {
        video_ids::CODEC_ID_H264 => "H.264".to_owned(),
        video_ids::CODEC_ID_AV1 => "AV1".to_owned(),
        video_ids::CODEC_ID_VP9 => "VP9".to_owned(),
        video_ids::CODEC_ID_VP8 => "VP8".to_owned(),
        video_ids::CODEC_ID_HEVC => "H.265".to_owned(),
        // symphonia's MP4 reader leaves some sample entries untagged (`av01` among them).
        symphonia::core::codecs::video::CODEC_ID_NULL_VIDEO => {
            "an unrecognised video codec".to_owned()
        }
        other => format!("video codec {other}"),
    }
}

/// A symphonia error as a typed [`MediaError`].
pub(crate) fn sym_error(e: SymError) -> MediaError {
    match e {
        SymError::Unsupported(what) => MediaError::UnsupportedCodec(what.to_owned()),
        SymError::LimitError(what) => MediaError::Decode(format!("limit: {what}")),
        SymError::IoError(e) => MediaError::Decode(format!("truncated or unreadable: {e}")),
        other => MediaError::Decode(other.to_string()),
    }
}

/// Open `bytes` with symphonia's probe (`mime`: a hint, such as the `data:` type).
pub(crate) fn open_reader(
    bytes: &Arc<[u8]>,
    mime: Option<&str>,
) -> Result<Box<dyn FormatReader>, MediaError> {
    let mut hint = Hint::new();
    if let Some(mime) = mime {
        hint.mime_type(mime);
    }
    let mss = MediaSourceStream::new(
        Box::new(Cursor::new(Arc::clone(bytes))),
        MediaSourceStreamOptions::default(),
    );
    symphonia::default::get_probe()
        .probe(
            &hint,
            mss,
            FormatOptions::default(),
            MetadataOptions::default(),
        )
        .map_err(|e| match e {
            SymError::Unsupported(_) => {
                MediaError::UnknownFormat("no known container signature".to_owned())
            }
            other => sym_error(other),
        })
}

/// The boxes directly inside `data`: (type, payload).
fn boxes(data: &[u8]) -> impl Iterator<Item = ([u8; 4], &[u8])> {
    let mut rest = data;
    std::iter::from_fn(move || {
        let size = u32::from_be_bytes(rest.get(..4)?.try_into().ok()?) as usize;
        let kind: [u8; 4] = rest.get(4..8)?.try_into().ok()?;
        let (header, total) = match size {
            0 => (8, rest.len()),
            1 => {
                let large = u64::from_be_bytes(rest.get(8..16)?.try_into().ok()?);
                (16, usize::try_from(large).ok()?)
            }
            n => (8, n),
        };
        let payload = rest.get(header..total)?;
        rest = rest.get(total..).unwrap_or_default();
        Some((kind, payload))
    })
}

/// The sample entry types of every track of an MP4 file (`avc1`, `av01`, `mp4a`...).
pub(crate) fn mp4_sample_entries(file: &[u8]) -> Vec<[u8; 4]> {
    fn find<'a>(data: &'a [u8], kind: &[u8; 4]) -> Vec<&'a [u8]> {
        boxes(data)
            .filter(|(k, _)| k == kind)
            .map(|(_, p)| p)
            .collect()
    }
    let mut out = Vec::new();
    for moov in find(file, b"moov") {
        for trak in find(moov, b"trak") {
            for mdia in find(trak, b"mdia") {
                for minf in find(mdia, b"minf") {
                    for stbl in find(minf, b"stbl") {
                        for stsd in find(stbl, b"stsd") {
                            out.extend(boxes(stsd.get(8..).unwrap_or_default()).map(|(k, _)| k));
                        }
                    }
                }
            }
        }
    }
    out
}
