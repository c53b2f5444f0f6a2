//! The `http` feature's bytes loader ([`HttpBytesLoader`]) for `http:` and `https:` URLs,
//! in place of egui_extras' ehttp loader, which reads whole bodies with no bound, no
//! timeout, no limit on fetches at once and follows redirects unchecked.
//!
//! What an agent's URL can make it do:
//! - **Body.** A `Content-Length` over [`HttpLoaderConfig::max_body_bytes`] is refused
//!   before the body is read; any other body is read through a counting reader that
//!   stops one byte past the cap (a never-ending chunked stream stops there too). The cap
//!   is [`Limits::max_image_bytes`](crate::limits::Limits::max_image_bytes), or with the `media`
//!   feature the larger of it and [`Limits::max_media_bytes`](crate::limits::Limits::max_media_bytes)
//!   (the loader also serves `Video` / `AudioPlayer` sources).
//! - **Time.** Connecting, waiting for the response and each read have timeouts, and the
//!   whole fetch has one.
//! - **Threads.** At most [`HttpLoaderConfig::max_concurrent`] fetches run at once (one
//!   thread each); the others wait in a queue.
//! - **Memory.** Fetched bodies are kept in a cache bounded by
//!   [`HttpLoaderConfig::max_cache_bytes`], least recently used out first (a body larger
//!   than the whole cache is kept only until it is replaced).
//! - **Redirects.** Followed by hand, at most [`HttpLoaderConfig::max_redirects`] hops,
//!   each one checked again against the [`UrlPolicy`] as a media URL
//!   ([`UrlUse::Media`]): `https:` redirected to `http://192.168.1.1/` is refused unless
//!   the policy allows it.

use std::collections::{HashMap, VecDeque};
use std::io::Read;
use std::sync::Arc;
use std::time::Duration;

use egui::load::{Bytes, BytesLoadResult, BytesLoader, BytesPoll, LoadError};
use egui::mutex::Mutex;

use crate::url_policy::{UrlPolicy, UrlUse};

/// How [`HttpBytesLoader`] fetches.
#[derive(Clone, Debug)]
pub struct HttpLoaderConfig {
    /// Bytes of one body; more is refused.
    pub max_body_bytes: usize,
    /// Time to connect (DNS and TLS included).
    pub connect_timeout: Duration,
    /// Time to wait for the response head, and for each read of the body.
    pub read_timeout: Duration,
    /// Time for the whole fetch, redirects included.
    pub total_timeout: Duration,
    /// Fetches running at once.
    pub max_concurrent: usize,
    /// Bytes of fetched bodies kept.
    pub max_cache_bytes: usize,
    /// Redirect hops followed (each re-checked against `policy`); `0` refuses redirects.
    pub max_redirects: u32,
    /// The policy every URL and every redirect target is checked against.
    pub policy: UrlPolicy,
}

impl Default for HttpLoaderConfig {
    fn default() -> Self {
        let limits = crate::limits::Limits::default();
        Self {
            max_body_bytes: body_cap(&limits),
            connect_timeout: Duration::from_secs(10),
            read_timeout: Duration::from_secs(20),
            total_timeout: Duration::from_secs(120),
            max_concurrent: 4,
            max_cache_bytes: limits.max_image_cache_bytes,
            max_redirects: 5,
            policy: UrlPolicy::default(),
        }
    }
}

fn body_cap(limits: &crate::limits::Limits) -> usize {
    if cfg!(feature = "media") {
        limits.max_image_bytes.max(limits.max_media_bytes)
    } else {
        limits.max_image_bytes
    }
}

/// Why a fetch failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FetchError {
    /// The body is over the cap (by `Content-Length`, or while reading).
    #[error("the response is over the {limit}-byte limit")]
    TooLarge {
        /// The cap.
        limit: usize,
    },
    /// The URL policy refused the URL or a redirect target.
    #[error("refused by the URL policy: {0}")]
    Refused(String),
    /// More redirects than allowed, or a redirect without a usable `Location`.
    #[error("redirect not followed: {0}")]
    Redirect(String),
    /// The server answered with an error status.
    #[error("HTTP status {0}")]
    Status(u16),
    /// A timeout.
    #[error("timed out: {0}")]
    Timeout(String),
    /// Any other network or protocol failure.
    #[error("fetch failed: {0}")]
    Network(String),
}

/// A fetched body and its `Content-Type` (without parameters).
pub type Fetched = (Vec<u8>, Option<String>);

fn agent(config: &HttpLoaderConfig) -> ureq::Agent {
    ureq::Agent::config_builder()
        .max_redirects(0)
        .http_status_as_error(false)
        .timeout_connect(Some(config.connect_timeout))
        .timeout_recv_response(Some(config.read_timeout))
        .timeout_per_read(Some(config.read_timeout))
        .timeout_global(Some(config.total_timeout))
        .build()
        .into()
}

fn network(e: ureq::Error, limit: usize) -> FetchError {
    match e {
        ureq::Error::Timeout(t) => FetchError::Timeout(t.to_string()),
        ureq::Error::BodyExceedsLimit(_) => FetchError::TooLarge { limit },
        ureq::Error::StatusCode(s) => FetchError::Status(s),
        other => FetchError::Network(other.to_string()),
    }
}

/// `location` resolved against `base` (absolute, scheme-relative, absolute-path or
/// relative-path references).
fn resolve(base: &str, location: &str) -> Option<String> {
    let location = location.trim();
    if crate::url_policy::scheme_of(location).is_some() {
        return Some(location.to_owned());
    }
    let (scheme, rest) = base.split_once("://")?;
    if let Some(net) = location.strip_prefix("//") {
        return Some(format!("{scheme}://{net}"));
    }
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..authority_end];
    if location.starts_with('/') {
        return Some(format!("{scheme}://{authority}{location}"));
    }
    let path = &rest[authority_end..];
    let path = &path[..path.find(['?', '#']).unwrap_or(path.len())];
    let dir = &path[..path.rfind('/').map_or(0, |i| i + 1)];
    let dir = if dir.is_empty() { "/" } else { dir };
    Some(format!("{scheme}://{authority}{dir}{location}"))
}

/// Fetch `url` under `config`: every hop checked against the policy, the body capped.
/// Blocking; the loader calls it on a thread of its own.
pub fn fetch(url: &str, config: &HttpLoaderConfig) -> Result<Fetched, FetchError> {
    let agent = agent(config);
    let limit = config.max_body_bytes;
    let mut url = url.to_owned();
    let mut hops = 0;
    loop {
        config
            .policy
            .check(&url, UrlUse::Media, false)
            .map_err(|r| FetchError::Refused(r.to_string()))?;
        let response = agent.get(&url).call().map_err(|e| network(e, limit))?;
        let status = response.status();
        if status.is_redirection() {
            if hops >= config.max_redirects {
                return Err(FetchError::Redirect(format!(
                    "more than {} redirects",
                    config.max_redirects
                )));
            }
            hops += 1;
            let location = response
                .headers()
                .get("location")
                .and_then(|l| l.to_str().ok())
                .and_then(|l| resolve(&url, l))
                .ok_or_else(|| FetchError::Redirect("no usable Location".to_owned()))?;
            url = location;
            continue;
        }
        if !status.is_success() {
            return Err(FetchError::Status(status.as_u16()));
        }
        let mime = response
            .headers()
            .get("content-type")
            .and_then(|m| m.to_str().ok())
            .map(|m| m.split(';').next().unwrap_or(m).trim().to_ascii_lowercase());
        let mut body = response.into_body();
        if body
            .content_length()
            .is_some_and(|n| n > u64::try_from(limit).unwrap_or(u64::MAX))
        {
            return Err(FetchError::TooLarge { limit });
        }
        let cap = u64::try_from(limit).unwrap_or(u64::MAX);
        let mut bytes = Vec::new();
        body.with_config()
            .limit(cap)
            .reader()
            .take(cap.saturating_add(1))
            .read_to_end(&mut bytes)
            .map_err(
                |e| match e.into_inner().map(|i| i.downcast::<ureq::Error>()) {
                    Some(Ok(inner)) => network(*inner, limit),
                    Some(Err(other)) => FetchError::Network(other.to_string()),
                    None => FetchError::Network("read failed".to_owned()),
                },
            )?;
        if bytes.len() > limit {
            return Err(FetchError::TooLarge { limit });
        }
        return Ok((bytes, mime));
    }
}

enum Entry {
    /// Waiting for a free fetch slot.
    Queued,
    /// Being fetched.
    Fetching,
    /// Done.
    Done {
        result: Result<(Arc<[u8]>, Option<String>), FetchError>,
        tick: u64,
    },
}

fn cost(entry: &Entry) -> usize {
    match entry {
        Entry::Done {
            result: Ok((b, _)), ..
        } => b.len(),
        _ => 0,
    }
}

#[derive(Default)]
struct State {
    entries: HashMap<String, Entry>,
    queue: VecDeque<String>,
    running: usize,
    bytes: usize,
    clock: u64,
}

impl State {
    /// Drop least recently used bodies until the cache fits `max`, keeping `keep`.
    fn evict(&mut self, max: usize, keep: &str) {
        while self.bytes > max {
            let oldest = self
                .entries
                .iter()
                .filter(|(k, e)| k.as_str() != keep && cost(e) > 0)
                .filter_map(|(k, e)| match e {
                    Entry::Done { tick, .. } => Some((*tick, k.clone())),
                    _ => None,
                })
                .min_by_key(|(t, _)| *t);
            let Some((_, key)) = oldest else { break };
            if let Some(e) = self.entries.remove(&key) {
                self.bytes -= cost(&e);
            }
        }
    }
}

struct Inner {
    config: Mutex<HttpLoaderConfig>,
    state: Mutex<State>,
}

/// An egui [`BytesLoader`] for `http:` and `https:` URLs with bounds on body size, time,
/// fetches at once, cache size and redirects (see the [module docs](self)).
pub struct HttpBytesLoader {
    inner: Arc<Inner>,
}

impl Default for HttpBytesLoader {
    fn default() -> Self {
        Self::new(HttpLoaderConfig::default())
    }
}

impl HttpBytesLoader {
    /// The loader id.
    pub const ID: &'static str = egui::generate_loader_id!(HttpBytesLoader);

    /// A loader fetching under `config`.
    pub fn new(config: HttpLoaderConfig) -> Self {
        Self {
            inner: Arc::new(Inner {
                config: Mutex::new(config),
                state: Mutex::new(State::default()),
            }),
        }
    }

    /// Change the configuration (fetches already running keep theirs).
    pub fn set_config(&self, config: HttpLoaderConfig) {
        *self.inner.config.lock() = config;
        start_queued(&self.inner, None);
    }

    /// The current configuration.
    pub fn config(&self) -> HttpLoaderConfig {
        self.inner.config.lock().clone()
    }

    /// Whether `url` is cached, queued or being fetched.
    pub fn knows(&self, url: &str) -> bool {
        self.inner.state.lock().entries.contains_key(url)
    }

    /// Fetches running now.
    pub fn running(&self) -> usize {
        self.inner.state.lock().running
    }
}

fn is_http(uri: &str) -> bool {
    ["http://", "https://"].iter().any(|p| {
        uri.get(..p.len())
            .is_some_and(|h| h.eq_ignore_ascii_case(p))
    })
}

/// Start queued fetches while slots are free.
fn start_queued(inner: &Arc<Inner>, ctx: Option<&egui::Context>) {
    let config = inner.config.lock().clone();
    loop {
        let url = {
            let mut s = inner.state.lock();
            if s.running >= config.max_concurrent.max(1) {
                return;
            }
            let Some(url) = s.queue.pop_front() else {
                return;
            };
            s.running += 1;
            s.entries.insert(url.clone(), Entry::Fetching);
            url
        };
        let (inner2, config2, ctx2, url2) =
            (Arc::clone(inner), config.clone(), ctx.cloned(), url.clone());
        let spawned = std::thread::Builder::new()
            .name("egui_a2ui-http".to_owned())
            .spawn(move || {
                let result = fetch(&url2, &config2)
                    .map(|(b, m)| (Arc::<[u8]>::from(b.into_boxed_slice()), m));
                {
                    let mut s = inner2.state.lock();
                    s.running -= 1;
                    if matches!(s.entries.get(&url2), Some(Entry::Fetching)) {
                        s.clock += 1;
                        let entry = Entry::Done {
                            result,
                            tick: s.clock,
                        };
                        s.bytes += cost(&entry);
                        s.entries.insert(url2.clone(), entry);
                        s.evict(config2.max_cache_bytes, &url2);
                    }
                }
                start_queued(&inner2, ctx2.as_ref());
                if let Some(ctx) = ctx2 {
                    ctx.request_repaint();
                }
            });
        if spawned.is_err() {
            let mut s = inner.state.lock();
            s.running -= 1;
            s.entries.insert(
                url,
                Entry::Done {
                    result: Err(FetchError::Network("no thread to fetch with".to_owned())),
                    tick: 0,
                },
            );
            return;
        }
    }
}

impl BytesLoader for HttpBytesLoader {
    fn id(&self) -> &str {
        Self::ID
    }

    fn load(&self, ctx: &egui::Context, uri: &str) -> BytesLoadResult {
        if !is_http(uri) {
            return Err(LoadError::NotSupported);
        }
        {
            let mut s = self.inner.state.lock();
            s.clock += 1;
            let clock = s.clock;
            match s.entries.get_mut(uri) {
                Some(Entry::Queued | Entry::Fetching) => {
                    return Ok(BytesPoll::Pending { size: None });
                }
                Some(Entry::Done { result, tick }) => {
                    *tick = clock;
                    return match result {
                        Ok((bytes, mime)) => Ok(BytesPoll::Ready {
                            size: None,
                            bytes: Bytes::Shared(Arc::clone(bytes)),
                            mime: mime.clone(),
                        }),
                        Err(e) => Err(LoadError::Loading(e.to_string())),
                    };
                }
                None => {
                    s.entries.insert(uri.to_owned(), Entry::Queued);
                    s.queue.push_back(uri.to_owned());
                }
            }
        }
        start_queued(&self.inner, Some(ctx));
        Ok(BytesPoll::Pending { size: None })
    }

    fn forget(&self, uri: &str) {
        let mut s = self.inner.state.lock();
        if let Some(e) = s.entries.remove(uri) {
            s.bytes -= cost(&e);
        }
        s.queue.retain(|u| u != uri);
    }

    fn forget_all(&self) {
        let mut s = self.inner.state.lock();
        s.entries.clear();
        s.queue.clear();
        s.bytes = 0;
    }

    fn byte_size(&self) -> usize {
        self.inner.state.lock().bytes
    }

    fn has_pending(&self) -> bool {
        let s = self.inner.state.lock();
        s.running > 0 || !s.queue.is_empty()
    }
}

fn loader_key() -> egui::Id {
    egui::Id::unique("egui_a2ui::http_loader")
}

/// The http loader installed on `ctx` by [`install`](crate::render::install_loaders).
pub fn http_loader(ctx: &egui::Context) -> Option<Arc<HttpBytesLoader>> {
    ctx.data(|d| d.get_temp::<Arc<HttpBytesLoader>>(loader_key()))
}

/// Install the loader on `ctx` (once).
pub(crate) fn install(ctx: &egui::Context) {
    if ctx.is_loader_installed(HttpBytesLoader::ID) {
        return;
    }
    let loader = Arc::new(HttpBytesLoader::default());
    ctx.data_mut(|d| d.insert_temp(loader_key(), Arc::clone(&loader)));
    ctx.add_bytes_loader(loader);
}

/// Follow the renderer's limits (body cap, cache bound).
pub(crate) fn set_limits(ctx: &egui::Context, limits: &crate::limits::Limits) {
    if let Some(l) = http_loader(ctx) {
        let mut c = l.inner.config.lock();
        c.max_body_bytes = body_cap(limits);
        c.max_cache_bytes = limits.max_image_cache_bytes;
    }
}

/// Check redirects of fetches starting from now against `policy` (the policy the image
/// being drawn was allowed by). Cheap when `url` is already known to the loader.
pub(crate) fn note_policy(ctx: &egui::Context, url: &str, policy: &UrlPolicy) {
    if !is_http(url) {
        return;
    }
    if let Some(l) = http_loader(ctx)
        && !l.knows(url)
    {
        l.inner.config.lock().policy = policy.clone();
    }
}

#[cfg(test)]
mod tests {
    use super::resolve;

    #[test]
    fn locations_resolve_against_the_base() {
        let b = "https://a.test/x/y.png?q";
        assert_eq!(
            resolve(b, "https://b.test/z").as_deref(),
            Some("https://b.test/z")
        );
        assert_eq!(
            resolve(b, "//c.test/z").as_deref(),
            Some("https://c.test/z")
        );
        assert_eq!(resolve(b, "/z").as_deref(), Some("https://a.test/z"));
        assert_eq!(
            resolve(b, "z.png").as_deref(),
            Some("https://a.test/x/z.png")
        );
        assert_eq!(
            resolve("https://a.test", "z").as_deref(),
            Some("https://a.test/z")
        );
    }
}
