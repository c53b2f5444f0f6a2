//! URLs as errors, events and logs may show them: without the credentials a URL can carry.
//!
//! A URL a host passes in may hold a secret: userinfo (`https://user:token@host/`), an API
//! key in the query (`?token=...`, `?key=...`), an OAuth token in the fragment. Every
//! [`TransportError`](super::TransportError) and event this crate builds shows URLs through
//! [`redact_url`] (or [`redact_urls_in`] for text from a library, such as reqwest's error
//! chain, that may quote the URL): the userinfo is dropped and the query and fragment are
//! replaced by `?<redacted>` / `#<redacted>`. The scheme, host, port and path stay, which
//! is what one needs to tell which endpoint failed.

/// `url` without its userinfo, its query and fragment replaced by `?<redacted>` and
/// `#<redacted>`.
///
/// ```
/// use egui_a2ui::transport::redact_url;
/// assert_eq!(
///     redact_url("https://user:secret@example.com:8443/a2a/rpc?token=secret#frag"),
///     "https://example.com:8443/a2a/rpc?<redacted>#<redacted>"
/// );
/// assert_eq!(redact_url("http://127.0.0.1:9/"), "http://127.0.0.1:9/");
/// ```
pub fn redact_url(url: &str) -> String {
    let (scheme, rest) = match url.find("://") {
        Some(i) => url.split_at(i + 3),
        None => ("", url),
    };
    let auth_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(auth_end);
    let host = if scheme.is_empty() {
        authority
    } else {
        authority.rsplit_once('@').map_or(authority, |(_, h)| h)
    };
    let path_end = tail.find(['?', '#']).unwrap_or(tail.len());
    let (path, after) = tail.split_at(path_end);
    let mut out = String::with_capacity(scheme.len() + host.len() + path.len() + 24);
    out.push_str(scheme);
    out.push_str(host);
    out.push_str(path);
    if after.starts_with('?') {
        out.push_str("?<redacted>");
    }
    if after.contains('#') {
        out.push_str("#<redacted>");
    }
    out
}

/// `text` with every `scheme://...` URL in it passed through [`redact_url`]. A URL runs
/// to the next whitespace or quote; a closing `)` that ends it (reqwest writes
/// `for url (...)`) is kept outside.
///
/// ```
/// use egui_a2ui::transport::redact_urls_in;
/// assert_eq!(
///     redact_urls_in("error sending request for url (http://u:secret@h/x?key=secret)"),
///     "error sending request for url (http://h/x?<redacted>)"
/// );
/// ```
pub fn redact_urls_in(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    // Bounded: each pass consumes at least the `://` it found.
    while let Some(i) = rest.find("://") {
        let start = rest[..i]
            .char_indices()
            .rev()
            .take_while(|(_, c)| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
            .last()
            .map_or(i, |(j, _)| j);
        let end = rest[i..]
            .find(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '<' | '>' | '`'))
            .map_or(rest.len(), |e| i + e);
        let mut token = &rest[start..end];
        let mut closing = "";
        if let Some(t) = token.strip_suffix(')') {
            token = t;
            closing = ")";
        }
        out.push_str(&rest[..start]);
        out.push_str(&redact_url(token));
        out.push_str(closing);
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// A URL the host gave, kept whole for requests, shown by `Debug` as [`redact_url`] does.
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct HostUrl(pub(crate) String);

impl std::fmt::Debug for HostUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&redact_url(&self.0), f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn userinfo_query_and_fragment_go() {
        assert_eq!(
            redact_url("http://user:secret@h:1/p?token=secret"),
            "http://h:1/p?<redacted>"
        );
        assert_eq!(
            redact_url("http://h/p#access_token=secret"),
            "http://h/p#<redacted>"
        );
        assert_eq!(redact_url("http://h?x=1"), "http://h?<redacted>");
        assert_eq!(redact_url("http://a@b@h/"), "http://h/");
        assert_eq!(redact_url("/rel?token=secret"), "/rel?<redacted>");
    }

    #[test]
    fn urls_inside_text_are_redacted() {
        let t = "cannot connect to https://me:secret@x.example/a?k=secret: \
                 error for url (http://x/?secret=1) and \"ws://u:secret@y\"";
        let r = redact_urls_in(t);
        assert!(!r.contains("secret"), "{r}");
        assert!(r.contains("https://x.example/a?<redacted>"), "{r}");
        assert!(r.contains("(http://x/?<redacted>)"), "{r}");
        assert_eq!(redact_urls_in("no urls here"), "no urls here");
    }
}
