//! Where a player's bytes come from: the URL policy's verdict, `data:` URIs, the host's
//! [`MediaLoader`]s and egui's bytes loaders (`https:` through the `http` feature).

use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::MediaError;
use crate::url_policy::{self, UrlPolicy, UrlRefusal};

/// A loaded media file: its bytes and, when the source said, its MIME type.
#[derive(Clone, Debug)]
pub struct MediaBytes {
    /// The whole file.
    pub bytes: Arc<[u8]>,
    /// `audio/mpeg`, `video/mp4`... when known (a `data:` type, an HTTP `Content-Type`).
    pub mime: Option<String>,
}

/// A host's loader for URLs it serves itself (`file:` samples, an app's asset store). Runs
/// on the player's worker thread, never on the UI thread; what it returns is read up to
/// [`Limits::max_media_bytes`](crate::limits::Limits::max_media_bytes) and no further.
pub trait MediaLoader: Send + Sync {
    /// Whether this loader serves `url` (by scheme, usually).
    fn handles(&self, url: &str) -> bool;
    /// Open `url`: a reader of its bytes and its MIME type when known.
    fn open(&self, url: &str) -> Result<(Box<dyn Read + Send>, Option<String>), MediaError>;
}

/// A [`MediaLoader`] for `file:` URLs inside the directories it is given (a URL resolving
/// outside them, through `..` or a symbolic link, is refused). For local samples: the
/// host also lets `file` through the URL policy
/// ([`UrlPolicy::with_media_schemes`](crate::url_policy::UrlPolicy::with_media_schemes)).
#[derive(Clone, Debug)]
pub struct FileLoader {
    roots: Vec<PathBuf>,
}

impl FileLoader {
    /// Serve files under `roots` (each canonicalised; roots that do not exist are dropped).
    pub fn new<P: AsRef<Path>>(roots: impl IntoIterator<Item = P>) -> Self {
        Self {
            roots: roots
                .into_iter()
                .filter_map(|r| std::fs::canonicalize(r.as_ref()).ok())
                .collect(),
        }
    }

    fn path_of(url: &str) -> Option<PathBuf> {
        // `file:///abs/path` (empty host) or `file://localhost/abs/path`, percent-decoded by
        // the WHATWG URL parser the URL policy uses too; any other host is refused.
        let parsed = url::Url::parse(url).ok()?;
        if parsed.scheme() != "file" {
            return None;
        }
        parsed.to_file_path().ok()
    }
}

impl MediaLoader for FileLoader {
    fn handles(&self, url: &str) -> bool {
        url.get(..5)
            .is_some_and(|s| s.eq_ignore_ascii_case("file:"))
    }

    fn open(&self, url: &str) -> Result<(Box<dyn Read + Send>, Option<String>), MediaError> {
        let path =
            Self::path_of(url).ok_or_else(|| MediaError::Load(format!("bad file URL {url:?}")))?;
        let real = std::fs::canonicalize(&path)
            .map_err(|e| MediaError::Load(format!("{}: {e}", path.display())))?;
        if !self.roots.iter().any(|r| real.starts_with(r)) {
            return Err(MediaError::Refused(UrlRefusal::Host(
                "file outside the served directories".to_owned(),
            )));
        }
        let file = std::fs::File::open(&real)
            .map_err(|e| MediaError::Load(format!("{}: {e}", real.display())))?;
        Ok((Box::new(file), None))
    }
}

/// How a checked media URL is loaded (what [`plan`] decides; the basic `Video` and
/// `AudioPlayer` start their player from it).
#[derive(Clone)]
#[non_exhaustive]
pub enum Plan {
    /// A `data:` URI, decoded on the worker.
    Data(String),
    /// One of the host's loaders, on the worker.
    Host(Arc<dyn MediaLoader>, String),
    /// egui's bytes loaders, polled from the UI thread (they load in the background).
    Egui(String),
}

/// The largest `data:` URI whose decoded bytes could fit `max_bytes` (base64 is 4/3 of the
/// bytes, plus the header).
fn max_data_uri_len(max_bytes: usize) -> usize {
    max_bytes.saturating_mul(4) / 3 + 1024
}

/// Decide how to load `url`, or why not: the URL policy first (a refused URL is never
/// loaded), a wrong `data:` type, an over-long `data:` URI.
pub fn plan(
    url: &str,
    policy: &UrlPolicy,
    loaders: &[Arc<dyn MediaLoader>],
    max_bytes: usize,
) -> Result<Plan, MediaError> {
    let parts = url_policy::parse(url).map_err(MediaError::Refused)?;
    if parts.scheme == "data" {
        let t = parts.data_type.unwrap_or_default();
        if !(t.starts_with("audio/") || t.starts_with("video/")) {
            return Err(MediaError::WrongType(if t.is_empty() {
                "data: URI without a type".to_owned()
            } else {
                t
            }));
        }
    }
    policy.check_playable(url).map_err(MediaError::Refused)?;
    let url = url_policy::clean(url);
    if parts.scheme == "data" {
        if url.len() > max_data_uri_len(max_bytes) {
            return Err(MediaError::TooLarge { limit: max_bytes });
        }
        return Ok(Plan::Data(url));
    }
    if let Some(loader) = loaders.iter().find(|l| l.handles(&url)) {
        return Ok(Plan::Host(Arc::clone(loader), url));
    }
    Ok(Plan::Egui(url))
}

/// Decode a `data:audio/*` / `data:video/*` URI.
pub(crate) fn decode_data(url: &str, max_bytes: usize) -> Result<MediaBytes, MediaError> {
    if url.len() > max_data_uri_len(max_bytes) {
        return Err(MediaError::TooLarge { limit: max_bytes });
    }
    let data = data_url::DataUrl::process(url)
        .map_err(|e| MediaError::Load(format!("bad data: URI: {e:?}")))?;
    let mime = data.mime_type();
    let mime = format!("{}/{}", mime.type_, mime.subtype);
    let (bytes, _) = data
        .decode_to_vec()
        .map_err(|_| MediaError::Load("bad base64 in data: URI".to_owned()))?;
    if bytes.len() > max_bytes {
        return Err(MediaError::TooLarge { limit: max_bytes });
    }
    Ok(MediaBytes {
        bytes: bytes.into(),
        mime: Some(mime),
    })
}

/// Read at most `max_bytes` from `reader`; more is [`MediaError::TooLarge`] (a stream that
/// never ends stops there).
pub(crate) fn read_bounded(mut reader: impl Read, max_bytes: usize) -> Result<Vec<u8>, MediaError> {
    let mut out = Vec::new();
    let mut chunk = vec![0u8; 64 * 1024];
    let mut interrupted = 0usize;
    loop {
        match reader.read(&mut chunk) {
            Ok(0) => return Ok(out),
            Ok(n) => {
                if out.len() + n > max_bytes {
                    return Err(MediaError::TooLarge { limit: max_bytes });
                }
                out.extend_from_slice(chunk.get(..n).unwrap_or_default());
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted && interrupted < 100 => {
                interrupted += 1;
            }
            Err(e) => return Err(MediaError::Load(e.to_string())),
        }
    }
}

/// Whether a MIME type from a loader (an HTTP `Content-Type`) may be media. Generic types
/// pass: servers often send `application/octet-stream`, and the container is sniffed anyway.
pub fn mime_may_be_media(mime: &str) -> bool {
    let t = mime
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    t.is_empty()
        || t.starts_with("audio/")
        || t.starts_with("video/")
        || matches!(
            t.as_str(),
            "application/octet-stream"
                | "application/ogg"
                | "application/mp4"
                | "binary/octet-stream"
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refused_urls_never_get_a_plan() {
        let policy = UrlPolicy::default();
        for url in [
            "javascript:alert(1)",
            "file:///etc/passwd",
            "http://x.test/a.mp3",
            "",
        ] {
            assert!(
                matches!(plan(url, &policy, &[], 1000), Err(MediaError::Refused(_))),
                "{url}"
            );
        }
        assert_eq!(
            plan("data:text/html,<b>x</b>", &policy, &[], 1000).err(),
            Some(MediaError::WrongType("text/html".to_owned()))
        );
        assert!(matches!(
            plan("https://cdn.test/a.mp3", &policy, &[], 1000),
            Ok(Plan::Egui(_))
        ));
        assert!(matches!(
            plan("data:audio/wav;base64,AAAA", &policy, &[], 1000),
            Ok(Plan::Data(_))
        ));
        let long = format!("data:audio/wav;base64,{}", "A".repeat(5000));
        assert_eq!(
            plan(&long, &policy, &[], 1000).err(),
            Some(MediaError::TooLarge { limit: 1000 })
        );
    }

    #[test]
    fn a_never_ending_reader_stops_at_the_byte_cap() {
        let endless = std::io::repeat(7);
        assert_eq!(
            read_bounded(endless, 100_000).err(),
            Some(MediaError::TooLarge { limit: 100_000 })
        );
        assert_eq!(read_bounded(&b"abc"[..], 3).ok(), Some(b"abc".to_vec()));
    }

    #[test]
    fn generic_and_media_mime_types_pass_others_do_not() {
        assert!(mime_may_be_media("audio/mpeg"));
        assert!(mime_may_be_media("application/octet-stream"));
        assert!(mime_may_be_media("Video/MP4; codecs=avc1"));
        assert!(!mime_may_be_media("text/html; charset=utf-8"));
        assert!(!mime_may_be_media("image/png"));
    }

    #[test]
    fn file_urls_resolve_to_paths_and_stay_inside_their_roots() {
        assert_eq!(
            FileLoader::path_of("file:///tmp/a%20b.mp3"),
            Some(PathBuf::from("/tmp/a b.mp3"))
        );
        assert_eq!(
            FileLoader::path_of("file://localhost/x"),
            Some(PathBuf::from("/x"))
        );
        assert_eq!(FileLoader::path_of("file://evil.host/x"), None);
        let root = std::env::temp_dir().join("egui_a2ui_media_root_test");
        let _ = std::fs::create_dir_all(&root);
        let loader = FileLoader::new([&root]);
        assert!(matches!(
            loader.open("file:///etc/hostname"),
            Err(MediaError::Refused(_) | MediaError::Load(_))
        ));
    }
}
