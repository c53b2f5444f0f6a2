//! Credentials for the transports: static headers, a credential provider the client asks
//! before each request (and once more after a `401`, so a host can refresh a token), the
//! `WWW-Authenticate` challenge of a refusal, and which header names count as secret.
//!
//! Header values never reach a log: [`Secret`]'s `Debug` is `<redacted>`, the credentials
//! are added by the HTTP client when it sends (they are not part of the session's
//! [`HttpRequest`](super::HttpRequest), its events or the CLI's JSON lines), and
//! [`Credentials`]' `Debug` shows the names of the headers with `<redacted>` for every
//! [secret one](Credentials::is_secret).
//!
//! ```
//! use egui_a2ui::transport::{AuthChallenge, TransportOptions};
//! let options = TransportOptions::default()
//!     .with_header("Authorization", "Bearer s3cret")
//!     .with_header("X-Tenant", "acme");
//! let shown = format!("{options:?}");
//! assert!(!shown.contains("s3cret") && shown.contains("acme"));
//!
//! let c = AuthChallenge::parse(r#"Bearer realm="api", error="invalid_token", resource_metadata="https://x/.well-known/oauth-protected-resource""#);
//! assert_eq!(c[0].scheme, "Bearer");
//! assert_eq!(c[0].realm.as_deref(), Some("api"));
//! assert_eq!(c[0].error.as_deref(), Some("invalid_token"));
//! ```

use std::sync::Arc;

/// A credential (a header value): kept whole for the request, `<redacted>` in `Debug`.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    /// Wrap a value.
    pub fn new(value: impl Into<String>) -> Self {
        Self(value.into())
    }

    /// The value, for the request.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("<redacted>")
    }
}

impl From<String> for Secret {
    fn from(s: String) -> Self {
        Self(s)
    }
}

impl From<&str> for Secret {
    fn from(s: &str) -> Self {
        Self(s.to_owned())
    }
}

/// What a [`CredentialProvider`] is asked.
#[derive(Clone, Copy, Debug)]
pub struct CredentialRequest<'a> {
    /// The address the request goes to (whole: the provider may pick by host).
    pub url: &'a str,
    /// `true` when the previous try was refused with `401`: refresh the token now. Asked
    /// at most once per request.
    pub after_unauthorized: bool,
    /// The refusal's challenge, when `after_unauthorized`.
    pub challenge: Option<&'a AuthChallenge>,
}

/// The host's credential callback: the headers to add to one request (`None`: none). Called
/// before every request of the HTTP transports (A2A, AG-UI), and once more after a `401`;
/// MCP over Streamable HTTP asks it once when it connects (rmcp sends the same headers on
/// every request of the connection).
pub type CredentialProvider =
    Arc<dyn Fn(&CredentialRequest<'_>) -> Option<Vec<(String, Secret)>> + Send + Sync>;

/// The credentials of a [`TransportOptions`](super::TransportOptions): static headers, the
/// names the host marks secret, and the provider.
#[derive(Clone, Default)]
pub struct Credentials {
    headers: Vec<(String, Secret)>,
    secret_names: Vec<String>,
    provider: Option<CredentialProvider>,
    /// OAuth 2.1 for MCP servers.
    #[cfg(feature = "mcp-http")]
    mcp_oauth: Option<super::oauth::McpOAuth>,
}

impl PartialEq for Credentials {
    fn eq(&self, other: &Self) -> bool {
        self.headers == other.headers
            && self.secret_names == other.secret_names
            && match (&self.provider, &other.provider) {
                (None, None) => true,
                (Some(a), Some(b)) => Arc::ptr_eq(a, b),
                _ => false,
            }
            && self.oauth_eq(other)
    }
}

impl std::fmt::Debug for Credentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        struct Shown<'a>(&'a Credentials);
        impl std::fmt::Debug for Shown<'_> {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_list()
                    .entries(self.0.headers.iter().map(|(n, v)| {
                        if self.0.is_secret(n) {
                            format!("{n}: <redacted>")
                        } else {
                            format!("{n}: {}", v.expose())
                        }
                    }))
                    .finish()
            }
        }
        let mut d = f.debug_struct("Credentials");
        d.field("headers", &Shown(self))
            .field("secret_names", &self.secret_names)
            .field("provider", &self.provider.as_ref().map(|_| "<callback>"));
        #[cfg(feature = "mcp-http")]
        d.field("mcp_oauth", &self.mcp_oauth);
        d.finish()
    }
}

impl Credentials {
    #[cfg(feature = "mcp-http")]
    fn oauth_eq(&self, other: &Self) -> bool {
        self.mcp_oauth == other.mcp_oauth
    }

    #[cfg(not(feature = "mcp-http"))]
    fn oauth_eq(&self, _other: &Self) -> bool {
        true
    }

    /// Use OAuth 2.1 with MCP servers over Streamable HTTP (see
    /// [`McpOAuth`](super::oauth::McpOAuth)).
    #[cfg(feature = "mcp-http")]
    pub fn set_mcp_oauth(&mut self, oauth: super::oauth::McpOAuth) {
        self.mcp_oauth = Some(oauth);
    }

    /// The MCP OAuth settings, when set.
    #[cfg(feature = "mcp-http")]
    pub fn mcp_oauth(&self) -> Option<&super::oauth::McpOAuth> {
        self.mcp_oauth.as_ref()
    }

    /// Add a header sent with every request (a later one of the same name replaces it).
    pub fn push_header(&mut self, name: impl Into<String>, value: impl Into<Secret>) {
        let name = name.into();
        self.headers.retain(|(n, _)| !n.eq_ignore_ascii_case(&name));
        self.headers.push((name, value.into()));
    }

    /// Mark a header name secret (its value shown as `<redacted>` wherever headers are shown).
    pub fn push_secret_name(&mut self, name: impl Into<String>) {
        self.secret_names.push(name.into());
    }

    /// Set the provider.
    pub fn set_provider(&mut self, provider: CredentialProvider) {
        self.provider = Some(provider);
    }

    /// Whether any credential is set (static headers or a provider).
    pub fn is_set(&self) -> bool {
        !self.headers.is_empty() || self.provider.is_some()
    }

    /// Whether a provider is set (a `401` is then retried once).
    pub fn has_provider(&self) -> bool {
        self.provider.is_some()
    }

    /// The static headers (values redacted in `Debug`).
    pub fn headers(&self) -> &[(String, Secret)] {
        &self.headers
    }

    /// Whether a header's value must not be shown: `Authorization`, `Proxy-Authorization`,
    /// `Cookie`, `Set-Cookie`, a name ending in `-Key`, `-Token`, `-Secret`, `Api-Key` /
    /// `ApiKey` style names, and every name the host marked secret.
    pub fn is_secret(&self, name: &str) -> bool {
        is_secret_header(name)
            || self
                .secret_names
                .iter()
                .any(|n| n.eq_ignore_ascii_case(name))
    }

    /// The headers for one request: the static ones, then the provider's (replacing a
    /// static header of the same name).
    pub fn headers_for(
        &self,
        url: &str,
        after_unauthorized: bool,
        challenge: Option<&AuthChallenge>,
    ) -> Vec<(String, Secret)> {
        let mut out = self.headers.clone();
        if let Some(p) = &self.provider {
            let asked = CredentialRequest {
                url,
                after_unauthorized,
                challenge,
            };
            for (n, v) in p(&asked).unwrap_or_default() {
                out.retain(|(m, _)| !m.eq_ignore_ascii_case(&n));
                out.push((n, v));
            }
        }
        out
    }
}

/// Whether a header name carries a credential by default (see [`Credentials::is_secret`]).
pub fn is_secret_header(name: &str) -> bool {
    let n = name.trim().to_ascii_lowercase();
    matches!(
        n.as_str(),
        "authorization" | "proxy-authorization" | "cookie" | "set-cookie" | "apikey" | "api-key"
    ) || n.ends_with("-key")
        || n.ends_with("_key")
        || n.ends_with("-token")
        || n.ends_with("_token")
        || n.ends_with("-secret")
        || n.ends_with("apikey")
        || n.contains("api-key")
        || n.contains("password")
}

/// One challenge of a `WWW-Authenticate` header (RFC 9110 §11.6.1): the scheme and its
/// parameters, with the ones hosts act on pulled out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AuthChallenge {
    /// The scheme (`Bearer`, `Basic`, `ApiKey`), as sent.
    pub scheme: String,
    /// `realm`.
    pub realm: Option<String>,
    /// `resource_metadata` (RFC 9728; MCP servers point at their protected-resource
    /// metadata with it).
    pub resource_metadata: Option<String>,
    /// `error` (`invalid_token`, `insufficient_scope`).
    pub error: Option<String>,
    /// `error_description`.
    pub error_description: Option<String>,
    /// `scope`.
    pub scope: Option<String>,
    /// Every parameter, names lower-cased, in order.
    pub params: Vec<(String, String)>,
}

impl AuthChallenge {
    /// Read a `WWW-Authenticate` value: one or more challenges, comma-separated, each a
    /// scheme followed by `name=value` / `name="quoted value"` parameters (a token68 is
    /// kept as the parameter `token68`). Bounded by the header's length; malformed input
    /// gives what could be read.
    pub fn parse(header: &str) -> Vec<Self> {
        let mut out: Vec<Self> = Vec::new();
        let s = header.as_bytes();
        let mut i = 0;
        let skip_ws = |i: &mut usize| {
            while *i < s.len() && (s[*i] == b' ' || s[*i] == b'\t' || s[*i] == b',') {
                *i += 1;
            }
        };
        let token = |i: &mut usize| {
            let start = *i;
            while *i < s.len() && !matches!(s[*i], b' ' | b'\t' | b',' | b'=' | b'"') {
                *i += 1;
            }
            String::from_utf8_lossy(&s[start..*i]).into_owned()
        };
        // Bounded: every pass consumes at least one byte or ends.
        while i < s.len() {
            skip_ws(&mut i);
            if i >= s.len() {
                break;
            }
            let start = i;
            let word = token(&mut i);
            if word.is_empty() {
                i += 1;
                continue;
            }
            // `name=` after a challenge is one of its parameters; anything else is a scheme.
            let mut j = i;
            while j < s.len() && (s[j] == b' ' || s[j] == b'\t') {
                j += 1;
            }
            let is_param = j < s.len() && s[j] == b'=' && !out.is_empty() && start > 0;
            if !is_param {
                out.push(Self::new(word));
                // A token68 right after the scheme.
                let mut k = i;
                while k < s.len() && s[k] == b' ' {
                    k += 1;
                }
                let mut m = k;
                while m < s.len() && !matches!(s[m], b' ' | b',' | b'"') {
                    m += 1;
                }
                let t = &header[k..m];
                if !t.is_empty() && t.trim_end_matches('=').find('=').is_none() && {
                    let mut n = m;
                    while n < s.len() && s[n] == b' ' {
                        n += 1;
                    }
                    n >= s.len() || s[n] == b','
                } {
                    if let Some(c) = out.last_mut() {
                        c.params.push(("token68".into(), t.to_owned()));
                    }
                    i = m;
                }
                continue;
            }
            i = j + 1;
            while i < s.len() && (s[i] == b' ' || s[i] == b'\t') {
                i += 1;
            }
            let value = if i < s.len() && s[i] == b'"' {
                i += 1;
                let mut v = Vec::new();
                while i < s.len() && s[i] != b'"' {
                    if s[i] == b'\\' && i + 1 < s.len() {
                        i += 1;
                    }
                    v.push(s[i]);
                    i += 1;
                }
                i += 1; // the closing quote
                String::from_utf8_lossy(&v).into_owned()
            } else {
                token(&mut i)
            };
            if let Some(c) = out.last_mut() {
                c.set(word.to_ascii_lowercase(), value);
            }
        }
        out
    }

    fn new(scheme: String) -> Self {
        Self {
            scheme,
            realm: None,
            resource_metadata: None,
            error: None,
            error_description: None,
            scope: None,
            params: Vec::new(),
        }
    }

    fn set(&mut self, name: String, value: String) {
        match name.as_str() {
            "realm" => self.realm = Some(value.clone()),
            "resource_metadata" => self.resource_metadata = Some(value.clone()),
            "error" => self.error = Some(value.clone()),
            "error_description" => self.error_description = Some(value.clone()),
            "scope" => self.scope = Some(value.clone()),
            _ => {}
        }
        self.params.push((name, value));
    }
}

impl std::fmt::Display for AuthChallenge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.scheme)?;
        if let Some(r) = &self.realm {
            write!(f, " realm={r:?}")?;
        }
        if let Some(e) = &self.error {
            write!(f, " error={e:?}")?;
        }
        if let Some(m) = &self.resource_metadata {
            write!(f, " resource_metadata={:?}", super::redact_url(m))?;
        }
        Ok(())
    }
}

/// The first challenge of `WWW-Authenticate` values (several headers count as one list).
pub(crate) fn first_challenge<'a>(values: impl Iterator<Item = &'a str>) -> Option<AuthChallenge> {
    values.flat_map(AuthChallenge::parse).next()
}

/// A refusal an MCP client met (rmcp reports `authorization required: <header>` /
/// `insufficient scope: <header>` somewhere in its error chain) as
/// [`TransportError::Unauthorized`](super::TransportError::Unauthorized).
#[cfg(feature = "mcp-http")]
pub(crate) fn mcp_unauthorized(
    e: &(dyn std::error::Error + 'static),
    url: &str,
) -> Option<super::TransportError> {
    let mut cur: Option<&(dyn std::error::Error + 'static)> = Some(e);
    let mut n = 0;
    while let Some(err) = cur {
        n += 1;
        if n > 16 {
            break;
        }
        let text = err.to_string();
        for (prefix, status) in [
            ("authorization required: ", 401u16),
            ("insufficient scope: ", 403),
        ] {
            if let Some(i) = text.find(prefix) {
                let header = &text[i + prefix.len()..];
                return Some(super::TransportError::Unauthorized {
                    status,
                    url: super::redact_url(url),
                    challenge: AuthChallenge::parse(header)
                        .into_iter()
                        .next()
                        .map(Box::new),
                });
            }
        }
        cur = err.source();
    }
    None
}

/// The credentials for an rmcp Streamable HTTP connection to `url` (values marked
/// sensitive).
#[cfg(feature = "mcp-http")]
pub(crate) fn header_map(
    creds: &Credentials,
    url: &str,
) -> Result<
    std::collections::HashMap<reqwest::header::HeaderName, reqwest::header::HeaderValue>,
    super::TransportError,
> {
    let mut out = std::collections::HashMap::new();
    for (n, v) in creds.headers_for(url, false, None) {
        let bad = |what: &str| super::TransportError::Connect {
            url: super::redact_url(url),
            message: format!("the {what} of header {n:?} is not valid in HTTP"),
        };
        let name =
            reqwest::header::HeaderName::from_bytes(n.as_bytes()).map_err(|_| bad("name"))?;
        let mut value =
            reqwest::header::HeaderValue::from_str(v.expose()).map_err(|_| bad("value"))?;
        value.set_sensitive(true);
        out.insert(name, value);
    }
    Ok(out)
}

/// An MCP connect error with the endpoint's address filled into an `Unauthorized`.
#[cfg(feature = "mcp-http")]
pub(crate) fn unauthorized_or(e: super::TransportError, url: &str) -> super::TransportError {
    match e {
        super::TransportError::Unauthorized {
            status, challenge, ..
        } => super::TransportError::Unauthorized {
            status,
            url: super::redact_url(url),
            challenge,
        },
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn challenges_parse_with_quotes_several_and_token68() {
        let c = AuthChallenge::parse(
            r#"Bearer realm="mcp", resource_metadata="http://127.0.0.1:1/.well-known/oauth-protected-resource", error="invalid_token", error_description="the \"token\" expired", Basic realm="b""#,
        );
        assert_eq!(c.len(), 2, "{c:?}");
        assert_eq!(c[0].scheme, "Bearer");
        assert_eq!(c[0].realm.as_deref(), Some("mcp"));
        assert_eq!(
            c[0].resource_metadata.as_deref(),
            Some("http://127.0.0.1:1/.well-known/oauth-protected-resource")
        );
        assert_eq!(
            c[0].error_description.as_deref(),
            Some("the \"token\" expired")
        );
        assert_eq!(c[1].scheme, "Basic");
        assert_eq!(c[1].realm.as_deref(), Some("b"));
        let t = AuthChallenge::parse("Negotiate abc123==");
        assert_eq!(t[0].params, vec![("token68".into(), "abc123==".into())]);
        assert_eq!(AuthChallenge::parse("Bearer")[0].scheme, "Bearer");
        assert!(AuthChallenge::parse("").is_empty());
        // Hostile input ends and gives what it can.
        let _ = AuthChallenge::parse("=\"\\");
        let _ = AuthChallenge::parse(",,, =, \"unterminated");
    }

    #[test]
    fn secret_names_by_default_and_by_the_host() {
        for n in [
            "Authorization",
            "cookie",
            "X-Api-Key",
            "x-goog-api-key",
            "X-Auth-Token",
            "Proxy-Authorization",
            "apikey",
        ] {
            assert!(is_secret_header(n), "{n}");
        }
        for n in ["X-Tenant", "Accept", "A2A-Version"] {
            assert!(!is_secret_header(n), "{n}");
        }
        let mut c = Credentials::default();
        c.push_header("X-Tenant", "acme");
        c.push_header("X-Session", "s3cret");
        c.push_secret_name("x-session");
        let shown = format!("{c:?}");
        assert!(shown.contains("X-Tenant: acme"), "{shown}");
        assert!(shown.contains("X-Session: <redacted>"), "{shown}");
        assert!(!shown.contains("s3cret"), "{shown}");
    }

    #[test]
    fn the_provider_is_asked_and_overrides_static_headers() {
        let mut c = Credentials::default();
        c.push_header("Authorization", "Bearer old");
        c.set_provider(Arc::new(|r: &CredentialRequest<'_>| {
            r.after_unauthorized
                .then(|| vec![("authorization".to_owned(), Secret::new("Bearer new"))])
        }));
        let first = c.headers_for("http://h/", false, None);
        assert_eq!(first[0].1.expose(), "Bearer old");
        let again = c.headers_for("http://h/", true, None);
        assert_eq!(again.len(), 1);
        assert_eq!(again[0].1.expose(), "Bearer new");
        assert_eq!(format!("{:?}", again[0].1), "<redacted>");
    }
}
