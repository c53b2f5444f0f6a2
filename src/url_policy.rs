//! The URL policy ([`UrlPolicy`]) and the types its checks and host hook use.

use std::fmt;
use std::sync::Arc;

/// What an agent wants done with a URL.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UrlUse {
    /// Opened by the host: an `openUrl` action, a Markdown link, a media card's play
    /// button.
    Open,
    /// Loaded and drawn inline: `Image.url`, `Video.posterUrl`, `theme.iconUrl`.
    Media,
}

/// What the per-host hook sees of a URL.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UrlTarget<'a> {
    /// What the URL is for.
    pub use_: UrlUse,
    /// The scheme, lower-cased (`https`, `data`...).
    pub scheme: &'a str,
    /// The host, lower-cased, without user info, port or trailing dot; `None` for schemes
    /// without one (`data:`).
    pub host: Option<&'a str>,
}

/// Why the policy refused a URL.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UrlRefusal {
    /// The URL is empty (or only spaces and control characters).
    Empty,
    /// No valid scheme: a relative URL, `//host`, or a scheme broken by odd characters.
    NoScheme,
    /// The scheme is not allowed for this use (lower-cased).
    Scheme(String),
    /// A `data:` media source that is not an image (e.g. `data:text/html`).
    DataNotImage,
    /// A URL that must have a host has none, or its host could not be read.
    BadHost,
    /// The host app's hook refused this host.
    Host(String),
    /// Opening a URL needs a user gesture, and there was none.
    NoUserActivation,
    /// The host's legacy [`ImagePolicy`] refused the source.
    ImagePolicy,
}

impl fmt::Display for UrlRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Empty => write!(f, "the URL is empty"),
            Self::NoScheme => write!(f, "the URL has no valid scheme"),
            Self::Scheme(s) => write!(f, "the scheme {s:?} is not allowed"),
            Self::DataNotImage => write!(f, "a data: URL that is not an image"),
            Self::BadHost => write!(f, "the URL has no readable host"),
            Self::Host(h) => write!(f, "the host {h:?} is not allowed"),
            Self::NoUserActivation => write!(f, "opening a URL needs a user gesture"),
            Self::ImagePolicy => write!(f, "the host's image policy refused it"),
        }
    }
}

/// The hook a host app installs to allow or refuse URLs by host.
pub type HostFilter = Arc<dyn Fn(&UrlTarget<'_>) -> bool + Send + Sync>;

/// The URL policy: which schemes each [`UrlUse`] may have, whether opening needs a user
/// gesture, and an optional per-host hook. Cheap to clone.
///
/// It is the one policy for every address an agent can hand the host: `openUrl` (the function and
/// the action), links in Markdown `Text`, and every media source (`Image`, `Video` poster,
/// the surface header's `theme.iconUrl`). The implementation [guide] says "allow only the
/// http: and https: schemes" for `openUrl`; a scheme allow-list covers media too, and v1.0 says
/// "require an active user gesture".
///
/// A URL is read as the WHATWG URL parser reads its start, so tricks that browsers undo are
/// undone here first: leading and trailing C0 control characters and spaces are dropped,
/// tabs and newlines anywhere are removed, the scheme is case-folded, and `\` counts as `/`
/// before the host. A URL without a valid scheme (relative, `//host`, or a scheme with a
/// control character inside such as `java\0script:`) is refused: there is no base URL to
/// resolve it against.
///
/// The defaults: `http` and `https` may be opened, after a user gesture; media may load
/// from `https` and from `data:image/*` (never `data:text/html`, `file:`, `javascript:` or
/// plain `http`). A host app narrows or widens this with [`UrlPolicy::with_open_schemes`],
/// [`UrlPolicy::with_media_schemes`] and a per-host hook ([`UrlPolicy::with_host_filter`],
/// or the allow-list [`UrlPolicy::allow_hosts`]).
///
/// ```
/// use egui_a2ui::{UrlPolicy, UrlRefusal, UrlUse};
///
/// let policy = UrlPolicy::default().allow_hosts(["example.com"]);
/// assert!(policy.check("https://docs.example.com/a", UrlUse::Open, true).is_ok());
/// assert!(policy.check("https://evil.test/", UrlUse::Open, true).is_err());
/// assert_eq!(
///     policy.check("javascript:alert(1)", UrlUse::Open, true),
///     Err(UrlRefusal::Scheme("javascript".into()))
/// );
/// // Opening needs a user gesture; drawing media does not, and plain `http` is no media source.
/// assert!(policy.check("https://example.com/a", UrlUse::Open, false).is_err());
/// assert!(policy.check("http://example.com/a.png", UrlUse::Media, false).is_err());
/// ```
///
/// [guide]: https://github.com/a2ui-project/a2ui/blob/main/specification/v0_9/docs/basic_catalog_implementation_guide.md
#[derive(Clone)]
pub struct UrlPolicy {
    open_schemes: Vec<String>,
    media_schemes: Vec<String>,
    require_user_activation: bool,
    host_filter: Option<HostFilter>,
    image_policy: Option<Arc<dyn ImagePolicy>>,
}

/// The schemes that may be opened by default (the implementation [guide]'s `openUrl` rule).
///
/// [guide]: https://github.com/a2ui-project/a2ui/blob/main/specification/v0_9/docs/basic_catalog_implementation_guide.md
pub const DEFAULT_OPEN_SCHEMES: &[&str] = &["http", "https"];
/// The schemes media may load from by default (`data:` only for `image/*`).
pub const DEFAULT_MEDIA_SCHEMES: &[&str] = &["https", "data"];

/// Characters of a URL read to find its scheme, host and `data:` type; a URL whose host
/// does not end within them is refused.
const HEAD_CHARS: usize = 4096;

impl Default for UrlPolicy {
    fn default() -> Self {
        Self {
            open_schemes: DEFAULT_OPEN_SCHEMES
                .iter()
                .map(|s| (*s).to_owned())
                .collect(),
            media_schemes: DEFAULT_MEDIA_SCHEMES
                .iter()
                .map(|s| (*s).to_owned())
                .collect(),
            require_user_activation: true,
            host_filter: None,
            image_policy: None,
        }
    }
}

impl fmt::Debug for UrlPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("UrlPolicy")
            .field("open_schemes", &self.open_schemes)
            .field("media_schemes", &self.media_schemes)
            .field("require_user_activation", &self.require_user_activation)
            .field("host_filter", &self.host_filter.is_some())
            .field("image_policy", &self.image_policy.is_some())
            .finish()
    }
}

/// The parts of a URL the policy reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UrlParts {
    /// The scheme, lower-cased.
    pub scheme: String,
    /// The host (see [`UrlTarget::host`]); `None` for a scheme without `//` authority.
    pub host: Option<String>,
    /// For `data:` URLs, the media type, lower-cased (`image/png`).
    pub data_type: Option<String>,
}

/// A URL with the characters browsers ignore removed: leading and trailing C0 controls and
/// spaces, and every tab and newline. This is the URL handed to the host to open.
pub fn clean(url: &str) -> String {
    url.trim_matches(|c: char| c <= ' ')
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect()
}

/// The scheme of a URL, lower-cased, read as [`clean`] reads it; `None` when it has none.
pub fn scheme_of(url: &str) -> Option<String> {
    let head = clean_head(url);
    let (scheme, _) = head.split_once(':')?;
    let mut chars = scheme.chars();
    let valid = chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    valid.then(|| scheme.to_ascii_lowercase())
}

/// The first [`HEAD_CHARS`] characters of `url`, cleaned as [`clean`] does (without
/// copying a `data:` URL of megabytes).
fn clean_head(url: &str) -> String {
    url.trim_start_matches(|c: char| c <= ' ')
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .take(HEAD_CHARS)
        .collect()
}

fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        if c == b'%'
            && let Some(hex) = b.get(i + 1..i + 3)
            && let Ok(hex) = std::str::from_utf8(hex)
            && let Ok(v) = u8::from_str_radix(hex, 16)
        {
            out.push(v);
            i += 3;
            continue;
        }
        out.push(c);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Read the scheme, host and `data:` type of a URL.
pub fn parse(url: &str) -> Result<UrlParts, UrlRefusal> {
    let head = clean_head(url);
    if head.trim_end_matches(|c: char| c <= ' ').is_empty() {
        return Err(UrlRefusal::Empty);
    }
    let scheme = scheme_of(&head).ok_or(UrlRefusal::NoScheme)?;
    let rest = head.get(scheme.len() + 1..).unwrap_or_default();
    let mut parts = UrlParts {
        scheme,
        host: None,
        data_type: None,
    };
    if parts.scheme == "data" {
        let media = rest.split([',', ';']).next().unwrap_or_default();
        parts.data_type = Some(media.trim().to_ascii_lowercase());
        return Ok(parts);
    }
    let special = matches!(
        parts.scheme.as_str(),
        "http" | "https" | "ws" | "wss" | "ftp"
    );
    let slashes = rest.len() - rest.trim_start_matches(['/', '\\']).len();
    if special || slashes >= 2 {
        let after = rest.trim_start_matches(['/', '\\']);
        let Some(end) = after.find(['/', '\\', '?', '#']).or_else(|| {
            // The whole head is authority: fine when the URL ended inside it.
            (head.chars().count() < HEAD_CHARS).then_some(after.len())
        }) else {
            return Err(UrlRefusal::BadHost);
        };
        let authority = after.get(..end).unwrap_or_default();
        let host_port = authority.rsplit('@').next().unwrap_or_default();
        let host = if let Some(v6) = host_port.strip_prefix('[') {
            format!("[{}]", v6.split(']').next().unwrap_or_default())
        } else {
            host_port.split(':').next().unwrap_or_default().to_owned()
        };
        let host = percent_decode(&host)
            .trim_end_matches('.')
            .to_ascii_lowercase();
        if host.is_empty() || host.chars().any(|c| c <= ' ' || c == '%') {
            return Err(UrlRefusal::BadHost);
        }
        parts.host = Some(host);
    }
    Ok(parts)
}

impl UrlPolicy {
    /// The default policy (see [`UrlPolicy`]).
    pub fn new() -> Self {
        Self::default()
    }

    /// The schemes that may be opened (lower-case), replacing the default `http`, `https`.
    pub fn with_open_schemes<S: AsRef<str>>(
        mut self,
        schemes: impl IntoIterator<Item = S>,
    ) -> Self {
        self.open_schemes = schemes
            .into_iter()
            .map(|s| s.as_ref().to_ascii_lowercase())
            .collect();
        self
    }

    /// The schemes media may load from, replacing the default `https`, `data` (`data:`
    /// always only for `image/*`). Add `http` for a trusted local network, for example.
    pub fn with_media_schemes<S: AsRef<str>>(
        mut self,
        schemes: impl IntoIterator<Item = S>,
    ) -> Self {
        self.media_schemes = schemes
            .into_iter()
            .map(|s| s.as_ref().to_ascii_lowercase())
            .collect();
        self
    }

    /// Whether opening a URL needs a user gesture (default `true`, as v1.0 requires).
    pub fn with_user_activation(mut self, required: bool) -> Self {
        self.require_user_activation = required;
        self
    }

    /// A hook deciding by host, after the scheme rules passed: return `false` to refuse.
    pub fn with_host_filter(
        mut self,
        filter: impl Fn(&UrlTarget<'_>) -> bool + Send + Sync + 'static,
    ) -> Self {
        self.host_filter = Some(Arc::new(filter));
        self
    }

    /// An allow-list of hosts: a URL with a host passes only when its host is one of these
    /// or a subdomain of one. URLs without a host (`data:` images) are not affected.
    pub fn allow_hosts<S: AsRef<str>>(self, hosts: impl IntoIterator<Item = S>) -> Self {
        let hosts: Vec<String> = hosts
            .into_iter()
            .map(|h| h.as_ref().trim_end_matches('.').to_ascii_lowercase())
            .collect();
        self.with_host_filter(move |t| {
            t.host.is_none_or(|h| {
                hosts.iter().any(|a| {
                    h == a
                        || h.strip_suffix(a.as_str())
                            .is_some_and(|sub| sub.ends_with('.'))
                })
            })
        })
    }

    /// Migration from the former `RendererOptions::image_policy`: media sources are decided
    /// by this [`ImagePolicy`] instead of the media schemes
    /// (the host hook still applies).
    pub fn with_image_policy(mut self, policy: impl ImagePolicy + 'static) -> Self {
        self.image_policy = Some(Arc::new(policy));
        self
    }

    /// Whether `scheme` (lower-case) is allowed for `use_`, before any host check.
    pub fn scheme_allowed(&self, use_: UrlUse, scheme: &str) -> bool {
        let list = match use_ {
            UrlUse::Open => &self.open_schemes,
            UrlUse::Media => &self.media_schemes,
        };
        list.iter().any(|s| s == scheme)
    }

    /// Check a URL for a use. `user_activated`: the request follows a user gesture (a
    /// click, a key press, an assistive-technology action) in this frame.
    pub fn check(&self, url: &str, use_: UrlUse, user_activated: bool) -> Result<(), UrlRefusal> {
        self.check_with(url, use_, user_activated, |t| t.starts_with("image/"))
    }

    /// [`UrlPolicy::check`] for a media source that plays (`Video.url`, `AudioPlayer.url`):
    /// the media rules, with `data:` allowed for `audio/*` and `video/*` instead of images.
    /// The refusal for another `data:` type is [`UrlRefusal::DataNotImage`].
    #[cfg(feature = "media")]
    pub fn check_playable(&self, url: &str) -> Result<(), UrlRefusal> {
        self.check_with(url, UrlUse::Media, false, |t| {
            t.starts_with("audio/") || t.starts_with("video/")
        })
    }

    fn check_with(
        &self,
        url: &str,
        use_: UrlUse,
        user_activated: bool,
        data_type_ok: impl Fn(&str) -> bool,
    ) -> Result<(), UrlRefusal> {
        let parts = parse(url)?;
        if use_ == UrlUse::Media
            && let Some(legacy) = &self.image_policy
        {
            if !legacy.allows(url) {
                return Err(UrlRefusal::ImagePolicy);
            }
        } else {
            if !self.scheme_allowed(use_, &parts.scheme) {
                return Err(UrlRefusal::Scheme(parts.scheme));
            }
            if parts.scheme == "data" && !parts.data_type.as_deref().is_some_and(&data_type_ok) {
                return Err(UrlRefusal::DataNotImage);
            }
            if matches!(parts.scheme.as_str(), "http" | "https") && parts.host.is_none() {
                return Err(UrlRefusal::BadHost);
            }
        }
        if let Some(filter) = &self.host_filter {
            let target = UrlTarget {
                use_,
                scheme: &parts.scheme,
                host: parts.host.as_deref(),
            };
            if !filter(&target) {
                return Err(UrlRefusal::Host(parts.host.unwrap_or_default()));
            }
        }
        if use_ == UrlUse::Open && self.require_user_activation && !user_activated {
            return Err(UrlRefusal::NoUserActivation);
        }
        Ok(())
    }

    /// Whether a media source may be loaded.
    pub fn allows_media(&self, url: &str) -> bool {
        self.check(url, UrlUse::Media, false).is_ok()
    }
}

/// Whether the current frame's input holds a user gesture: a pointer button, a key press,
/// or an assistive-technology action.
pub fn user_activated(ctx: &egui::Context) -> bool {
    ctx.input(|i| {
        i.events.iter().any(|e| {
            matches!(
                e,
                egui::Event::PointerButton { .. }
                    | egui::Event::Key { pressed: true, .. }
                    | egui::Event::AccessKitActionRequest(_)
                    | egui::Event::Touch { .. }
            )
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open(url: &str) -> Result<(), UrlRefusal> {
        UrlPolicy::default().check(url, UrlUse::Open, true)
    }

    fn media(url: &str) -> Result<(), UrlRefusal> {
        UrlPolicy::default().check(url, UrlUse::Media, false)
    }

    #[test]
    fn http_and_https_open_after_a_gesture_only() {
        assert_eq!(open("https://example.com/a"), Ok(()));
        assert_eq!(open("http://example.com"), Ok(()));
        assert_eq!(
            UrlPolicy::default().check("https://example.com", UrlUse::Open, false),
            Err(UrlRefusal::NoUserActivation)
        );
        let relaxed = UrlPolicy::default().with_user_activation(false);
        assert_eq!(
            relaxed.check("https://example.com", UrlUse::Open, false),
            Ok(())
        );
    }

    #[test]
    fn dangerous_schemes_are_refused_for_every_use() {
        for url in [
            "javascript:alert(1)",
            "data:text/html,<script>alert(1)</script>",
            "file:///etc/passwd",
            "mailto:a@example.com",
            "vbscript:msgbox",
        ] {
            assert!(open(url).is_err(), "open {url}");
            assert!(media(url).is_err(), "media {url}");
        }
        assert_eq!(
            open("mailto:a@b.c"),
            Err(UrlRefusal::Scheme("mailto".into()))
        );
        assert_eq!(media("data:text/html,hi"), Err(UrlRefusal::DataNotImage));
        assert_eq!(
            open("data:image/png;base64,AA"),
            Err(UrlRefusal::Scheme("data".into()))
        );
    }

    #[test]
    fn mixed_case_and_whitespace_tricks_are_read_as_browsers_read_them() {
        // Refused however they are dressed up.
        for url in [
            "JavaScript:alert(1)",
            "JAVASCRIPT:alert(1)",
            "  javascript:alert(1)",
            "\u{1}\u{2}javascript:alert(1)",
            "java\tscript:alert(1)",
            "java\nscript:alert(1)",
            "java\r\nscript:alert(1)",
            "javascript\t:alert(1)",
            "\u{0}javascript:alert(1)",
            "DaTa:text/html,x",
            " FILE:///etc/passwd ",
        ] {
            assert!(open(url).is_err(), "{url:?}");
            assert!(media(url).is_err(), "{url:?}");
        }
        // A control character inside the scheme breaks it: no scheme, refused.
        assert_eq!(open("java\u{0}script:alert(1)"), Err(UrlRefusal::NoScheme));
        // Allowed ones still pass when dressed up the same way.
        assert_eq!(open("  HTTPS://Example.com/x \n"), Ok(()));
        assert_eq!(open("ht\ttps://example.com"), Ok(()));
        assert_eq!(
            clean(" \u{1}ht\ttps://example.com/a\n "),
            "https://example.com/a"
        );
        assert_eq!(media(" DATA:IMAGE/PNG;base64,AA"), Ok(()));
    }

    #[test]
    fn relative_and_hostless_urls_are_refused() {
        assert_eq!(open(""), Err(UrlRefusal::Empty));
        assert_eq!(open(" \t\n"), Err(UrlRefusal::Empty));
        assert_eq!(open("//example.com"), Err(UrlRefusal::NoScheme));
        assert_eq!(open("/etc/passwd"), Err(UrlRefusal::NoScheme));
        assert_eq!(open("https://"), Err(UrlRefusal::BadHost));
        // As in browsers, extra slashes before the host are skipped.
        assert_eq!(
            parse("https:///path").map(|p| p.host),
            Ok(Some("path".into()))
        );
        assert_eq!(open("https://?q"), Err(UrlRefusal::BadHost));
    }

    #[test]
    fn hosts_are_read_past_user_info_ports_and_backslashes() {
        let p = parse("https://user:pw@Example.COM.:8443/x").unwrap();
        assert_eq!(p.host.as_deref(), Some("example.com"));
        let p = parse("https:\\\\evil.com\\x").unwrap();
        assert_eq!(p.host.as_deref(), Some("evil.com"));
        let p = parse("https://trusted.com@evil.com/").unwrap();
        assert_eq!(p.host.as_deref(), Some("evil.com"));
        let p = parse("https://%65vil.com/").unwrap();
        assert_eq!(p.host.as_deref(), Some("evil.com"));
        let p = parse("http://[::1]:80/").unwrap();
        assert_eq!(p.host.as_deref(), Some("[::1]"));
    }

    #[test]
    fn the_host_allow_list_applies_to_opening_and_media() {
        let p = UrlPolicy::default().allow_hosts(["example.com"]);
        assert_eq!(p.check("https://example.com/a", UrlUse::Open, true), Ok(()));
        assert_eq!(
            p.check("https://cdn.example.com/a.png", UrlUse::Media, false),
            Ok(())
        );
        assert_eq!(
            p.check("https://evil.com/", UrlUse::Open, true),
            Err(UrlRefusal::Host("evil.com".into()))
        );
        assert!(
            p.check("https://badexample.com/", UrlUse::Open, true)
                .is_err()
        );
        assert!(
            p.check("https://example.com@evil.com/", UrlUse::Open, true)
                .is_err()
        );
        assert!(
            p.check("https://example.com.evil.com/", UrlUse::Media, false)
                .is_err()
        );
        // data: images have no host and are not affected.
        assert_eq!(
            p.check("data:image/png;base64,AA", UrlUse::Media, false),
            Ok(())
        );
    }

    #[test]
    fn media_defaults_to_https_and_data_images() {
        assert_eq!(media("https://example.com/a.png"), Ok(()));
        assert_eq!(
            media("http://example.com/a.png"),
            Err(UrlRefusal::Scheme("http".into()))
        );
        let lan = UrlPolicy::default().with_media_schemes(["http", "https"]);
        assert_eq!(
            lan.check("http://printer.local/a.png", UrlUse::Media, false),
            Ok(())
        );
    }

    #[test]
    fn a_long_data_url_is_checked_without_copying_it() {
        let url = format!("data:image/png;base64,{}", "A".repeat(1_000_000));
        assert_eq!(media(&url), Ok(()));
        let long_user = format!("https://{}@evil.com/", "a".repeat(10_000));
        assert_eq!(open(&long_user), Err(UrlRefusal::BadHost));
    }
}

/// Which URLs images may load from: the former image-only policy, superseded by the one
/// [`UrlPolicy`] (`RendererOptions::url_policy`), which decides every URL (opening, links,
/// media). A host with its own `ImagePolicy` keeps it with
/// `UrlPolicy::default().with_image_policy(its_policy)`.
pub trait ImagePolicy: Send + Sync {
    /// Whether the image at `url` may be loaded.
    fn allows(&self, url: &str) -> bool;
}

/// The default media rule of [`UrlPolicy`] as an [`ImagePolicy`]: `https:` and
/// `data:image/*` only.
#[derive(Clone, Copy, Debug, Default)]
pub struct DefaultImagePolicy;

impl ImagePolicy for DefaultImagePolicy {
    fn allows(&self, url: &str) -> bool {
        UrlPolicy::default().allows_media(url)
    }
}

impl ImagePolicy for UrlPolicy {
    fn allows(&self, url: &str) -> bool {
        self.allows_media(url)
    }
}
