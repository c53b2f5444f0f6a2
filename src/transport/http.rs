//! The I/O every HTTP transport shares: send one request, read the answer (a JSON body or an
//! SSE stream) with the size caps and an idle timeout, and hand each JSON value on as it
//! arrives. reqwest on rustls (Graviola's crypto on x86_64 and aarch64, ring elsewhere), so no
//! system TLS library is needed.

use std::time::Duration;

use futures_util::StreamExt;
use serde_json::Value;

use super::TransportError;
use super::auth::{AuthChallenge, CredentialRequest, Credentials, Secret, first_challenge};
use super::redact::{redact_url, redact_urls_in};
use super::sse::SseDecoder;
use crate::limits::Limits;

/// What a request expects back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResponseKind {
    /// One JSON document (`Accept: application/json`).
    Json,
    /// A `text/event-stream` of JSON events (`Accept: text/event-stream`). A server may still
    /// answer with one JSON document; the content type decides.
    Sse,
}

/// One HTTP request a sans-IO session wants sent. `body: None` is a `GET`.
///
/// Its `Debug` shows the URL without userinfo, query or fragment and the header names
/// without their values (`<redacted>`): a header may carry a credential.
#[derive(Clone, PartialEq)]
pub struct HttpRequest {
    /// The address.
    pub url: String,
    /// Extra headers (names as given).
    pub headers: Vec<(String, String)>,
    /// The JSON body of a `POST`; `None` for a `GET`.
    pub body: Option<Value>,
    /// What to expect back.
    pub expect: ResponseKind,
}

impl std::fmt::Debug for HttpRequest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        struct Headers<'a>(&'a [(String, String)]);
        impl std::fmt::Debug for Headers<'_> {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_list()
                    .entries(self.0.iter().map(|(n, _)| (n, "<redacted>")))
                    .finish()
            }
        }
        f.debug_struct("HttpRequest")
            .field("url", &redact_url(&self.url))
            .field("headers", &Headers(&self.headers))
            .field("body", &self.body)
            .field("expect", &self.expect)
            .finish()
    }
}

impl HttpRequest {
    /// A `GET` for a JSON document.
    pub fn get(url: impl Into<String>) -> Self {
        Self {
            url: url.into(),
            headers: Vec::new(),
            body: None,
            expect: ResponseKind::Json,
        }
    }

    /// A header's value (names compared case-insensitively).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// Caps, timeouts and credentials of the transport clients.
///
/// Credentials: [`Self::with_header`] for a header sent with every request (an
/// `Authorization: Bearer ...`, an `X-Api-Key`), [`Self::with_credentials`] for a provider
/// asked before each request and once more after a `401`. Their values are never shown
/// (`Debug` prints `<redacted>` for every [secret](super::Credentials::is_secret) name).
#[derive(Clone, Debug, PartialEq)]
pub struct TransportOptions {
    /// The caps: one SSE event (or one JSON body) may hold at most
    /// `limits.max_message_bytes` bytes; whole responses are not capped (a stream may run
    /// long), each event is.
    pub limits: Limits,
    /// How long connecting may take.
    pub connect_timeout: Duration,
    /// How long a response may go without a byte before it counts as stalled.
    pub idle_timeout: Duration,
    /// Headers and the credential provider sent with every request.
    pub credentials: Credentials,
}

impl TransportOptions {
    /// Send this header with every request (`Authorization: Bearer ...`, `X-Api-Key: ...`);
    /// a later one of the same name replaces it.
    pub fn with_header(mut self, name: impl Into<String>, value: impl Into<Secret>) -> Self {
        self.credentials.push_header(name, value);
        self
    }

    /// `Authorization: Bearer <token>`.
    pub fn with_bearer(self, token: &str) -> Self {
        self.with_header("Authorization", format!("Bearer {token}"))
    }

    /// Treat this header name as secret too (never shown), beside the default ones
    /// ([`is_secret_header`](super::is_secret_header)).
    pub fn with_secret_header(mut self, name: impl Into<String>) -> Self {
        self.credentials.push_secret_name(name);
        self
    }

    /// Ask `provider` for headers before each request, and once more after a `401` (with
    /// the challenge) so it can refresh a token.
    pub fn with_credentials(
        mut self,
        provider: impl Fn(&CredentialRequest<'_>) -> Option<Vec<(String, Secret)>>
        + Send
        + Sync
        + 'static,
    ) -> Self {
        self.credentials.set_provider(std::sync::Arc::new(provider));
        self
    }

    /// Sign in to MCP servers over Streamable HTTP with OAuth 2.1 when they ask for it
    /// (a `401`): see [`oauth`](super::oauth). Static headers and the provider's still go
    /// with every request to an MCP server, but for `Authorization`: the OAuth token takes
    /// its place. The other transports do not use it.
    #[cfg(feature = "mcp-http")]
    #[must_use]
    pub fn with_mcp_oauth(mut self, oauth: super::oauth::McpOAuth) -> Self {
        self.credentials.set_mcp_oauth(oauth);
        self
    }
}

impl Default for TransportOptions {
    fn default() -> Self {
        Self {
            limits: Limits::default(),
            connect_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(60),
            credentials: Credentials::default(),
        }
    }
}

/// The HTTP client (cheap to clone: one connection pool).
#[derive(Clone, Debug)]
pub struct HttpClient {
    client: reqwest::Client,
    options: TransportOptions,
}

impl HttpClient {
    /// A client with these options.
    pub fn new(options: TransportOptions) -> Result<Self, TransportError> {
        let client = reqwest_client(&options)?;
        Ok(Self { client, options })
    }

    /// The options.
    pub fn options(&self) -> &TransportOptions {
        &self.options
    }

    /// Send `req` and hand every JSON value of the answer to `on_item` as it arrives: the
    /// body of a JSON answer, or each event of an SSE stream. A per-event problem (an event
    /// over the cap, one that is not JSON, broken SSE) goes to `on_item` as an `Err` and the
    /// stream goes on; what ends the exchange (connection, HTTP status, a stream cut off or
    /// stalled) is the returned error.
    ///
    /// The credentials of the options go with it (asked of the provider now); a `401` asks
    /// the provider once more and retries once; a refusal that stays is
    /// [`TransportError::Unauthorized`].
    pub async fn exchange(
        &self,
        req: &HttpRequest,
        on_item: impl FnMut(Result<Value, TransportError>),
    ) -> Result<(), TransportError> {
        self.exchange_until(req, on_item, None).await
    }

    /// [`Self::exchange`], that stops reading an SSE stream after the first event `stop`
    /// says ends it (an A2A 1.0 `SubscribeToTask` stream stays open at `input-required`).
    pub async fn exchange_until(
        &self,
        req: &HttpRequest,
        mut on_item: impl FnMut(Result<Value, TransportError>),
        stop: Option<fn(&Value) -> bool>,
    ) -> Result<(), TransportError> {
        let creds = &self.options.credentials;
        let headers = creds.headers_for(&req.url, false, None);
        match self.exchange_once(req, &headers, &mut on_item, stop).await {
            Err(TransportError::Unauthorized {
                status: 401,
                challenge,
                ..
            }) if creds.has_provider() => {
                let headers = creds.headers_for(&req.url, true, challenge.as_deref());
                self.exchange_once(req, &headers, &mut on_item, stop).await
            }
            other => other,
        }
    }

    async fn exchange_once(
        &self,
        req: &HttpRequest,
        credentials: &[(String, Secret)],
        on_item: &mut impl FnMut(Result<Value, TransportError>),
        stop: Option<fn(&Value) -> bool>,
    ) -> Result<(), TransportError> {
        // Errors name the endpoint without the credentials a URL may carry.
        let url = redact_url(&req.url);
        let accept = match req.expect {
            ResponseKind::Json => "application/json",
            ResponseKind::Sse => "text/event-stream",
        };
        let mut builder = match &req.body {
            Some(body) => self
                .client
                .post(&req.url)
                .header("content-type", "application/json")
                .body(serde_json::to_vec(body).map_err(|e| {
                    TransportError::MalformedPayload(format!("cannot encode the request: {e}"))
                })?),
            None => self.client.get(&req.url),
        }
        .header("accept", accept);
        for (k, v) in &req.headers {
            builder = builder.header(k.as_str(), v.as_str());
        }
        for (k, v) in credentials {
            let Ok(mut value) = reqwest::header::HeaderValue::from_str(v.expose()) else {
                return Err(TransportError::Connect {
                    url,
                    message: format!("the value of header {k} is not a valid header value"),
                });
            };
            value.set_sensitive(true);
            builder = builder.header(k.as_str(), value);
        }
        let idle = self.options.idle_timeout;
        let timeout = || TransportError::Timeout {
            url: url.clone(),
            seconds: idle.as_secs_f64(),
        };
        let response = match tokio::time::timeout(idle, builder.send()).await {
            Err(_) => return Err(timeout()),
            Ok(Err(e)) => {
                return Err(TransportError::Connect {
                    url: url.clone(),
                    message: error_chain(&e),
                });
            }
            Ok(Ok(r)) => r,
        };
        let status = response.status();
        let is_sse = response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .is_some_and(|ct| ct.to_ascii_lowercase().starts_with("text/event-stream"));
        if status.as_u16() == 401 || status.as_u16() == 403 {
            let challenge: Option<Box<AuthChallenge>> = first_challenge(
                response
                    .headers()
                    .get_all("www-authenticate")
                    .iter()
                    .filter_map(|v| v.to_str().ok()),
            )
            .map(Box::new);
            return Err(TransportError::Unauthorized {
                status: status.as_u16(),
                url,
                challenge,
            });
        }
        let cap = self.options.limits.max_message_bytes;
        let mut stream = response.bytes_stream();
        if !status.is_success() {
            let mut body = Vec::new();
            while body.len() < 2048 {
                match tokio::time::timeout(idle, stream.next()).await {
                    Ok(Some(Ok(chunk))) => body.extend_from_slice(&chunk),
                    _ => break,
                }
            }
            let mut text = String::from_utf8_lossy(&body).into_owned();
            if text.len() > 512 {
                let mut end = 512;
                while !text.is_char_boundary(end) {
                    end -= 1;
                }
                text.truncate(end);
            }
            return Err(TransportError::Http {
                status: status.as_u16(),
                url,
                body: text,
            });
        }
        let interrupted = |e: &reqwest::Error| TransportError::Interrupted {
            url: url.clone(),
            message: error_chain(e),
        };
        if is_sse {
            let mut decoder = SseDecoder::new(cap);
            loop {
                let chunk = match tokio::time::timeout(idle, stream.next()).await {
                    Err(_) => return Err(timeout()),
                    Ok(None) => break,
                    Ok(Some(Err(e))) => return Err(interrupted(&e)),
                    Ok(Some(Ok(c))) => c,
                };
                for ev in decoder.feed(&chunk) {
                    // OpenAI-compatible chat streams end with `data: [DONE]` (not JSON).
                    if matches!(&ev, Ok(e) if e.data.trim() == "[DONE]") {
                        return Ok(());
                    }
                    let item = ev.and_then(|e| {
                        serde_json::from_str::<Value>(&e.data).map_err(|err| {
                            TransportError::MalformedPayload(format!(
                                "an SSE event is not JSON ({err})"
                            ))
                        })
                    });
                    let ends = matches!((&item, stop), (Ok(v), Some(f)) if f(v));
                    on_item(item);
                    if ends {
                        return Ok(());
                    }
                }
            }
            if decoder.has_partial() {
                return Err(TransportError::Interrupted {
                    url,
                    message: "the event stream ended in the middle of an event".into(),
                });
            }
            return Ok(());
        }
        let mut body = Vec::new();
        loop {
            let chunk = match tokio::time::timeout(idle, stream.next()).await {
                Err(_) => return Err(timeout()),
                Ok(None) => break,
                Ok(Some(Err(e))) => return Err(interrupted(&e)),
                Ok(Some(Ok(c))) => c,
            };
            if body.len() + chunk.len() > cap {
                return Err(TransportError::TooLarge {
                    what: "JSON response",
                    limit: cap,
                });
            }
            body.extend_from_slice(&chunk);
        }
        on_item(serde_json::from_slice(&body).map_err(|e| {
            TransportError::MalformedPayload(format!("the response is not JSON ({e})"))
        }));
        Ok(())
    }

    /// `GET` a JSON document.
    pub async fn get_json(&self, url: &str) -> Result<Value, TransportError> {
        let mut out = None;
        self.exchange(&HttpRequest::get(url), |v| out = Some(v))
            .await?;
        out.unwrap_or_else(|| {
            Err(TransportError::MalformedPayload(format!(
                "no document from {}",
                redact_url(url)
            )))
        })
    }
}

/// An `io::Write` that only counts, and fails once past `cap` (so serializing stops early).
struct Counter {
    n: usize,
    cap: usize,
}

impl std::io::Write for Counter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.n = self.n.saturating_add(buf.len());
        if self.n > self.cap {
            Err(std::io::Error::other("over the cap"))
        } else {
            Ok(buf.len())
        }
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The serialized size of `v` in bytes, or `None` once it passes `cap` (counting stops
/// there: the cost is at most `cap` bytes of output).
pub(crate) fn json_size(v: &Value, cap: usize) -> Option<usize> {
    let mut c = Counter { n: 0, cap };
    serde_json::to_writer(&mut c, v).ok().map(|()| c.n)
}

/// The reqwest client every transport uses.
pub(crate) fn reqwest_client(
    options: &TransportOptions,
) -> Result<reqwest::Client, TransportError> {
    install_crypto_provider()?;
    reqwest::Client::builder()
        .connect_timeout(options.connect_timeout)
        .user_agent(concat!("egui_a2ui/", env!("CARGO_PKG_VERSION")))
        .build()
        .map_err(|e| TransportError::Connect {
            url: String::new(),
            message: redact_urls_in(&format!("cannot build the HTTP client: {e}")),
        })
}

/// reqwest is built without a TLS crypto provider of its own: install ours as the process
/// default, unless the process installed one (a host that wants another provider installs it
/// with `rustls::crypto::CryptoProvider::install_default` before connecting).
fn install_crypto_provider() -> Result<(), TransportError> {
    if rustls::crypto::CryptoProvider::get_default().is_none() {
        // Another thread may install one meanwhile: theirs stays, which is as good.
        let _ = crypto_provider()?.install_default();
    }
    Ok(())
}

/// Graviola (pure Rust; X25519MLKEM768 first among its key exchanges), when the CPU has the
/// instructions it requires (it asserts them at its first use).
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
fn crypto_provider() -> Result<rustls::crypto::CryptoProvider, TransportError> {
    if cpu_runs_graviola() {
        Ok(rustls_graviola::default_provider())
    } else {
        Err(TransportError::Connect {
            url: String::new(),
            message: "this CPU lacks the instructions of the built-in TLS provider (Graviola: \
                      x86_64 with AES, PCLMULQDQ, BMI1, ADX, AVX2; aarch64 with AES, SHA2, \
                      PMULL, NEON): install a rustls CryptoProvider before connecting"
                .into(),
        })
    }
}

#[cfg(target_arch = "x86_64")]
fn cpu_runs_graviola() -> bool {
    std::arch::is_x86_feature_detected!("aes")
        && std::arch::is_x86_feature_detected!("pclmulqdq")
        && std::arch::is_x86_feature_detected!("bmi1")
        && std::arch::is_x86_feature_detected!("bmi2")
        && std::arch::is_x86_feature_detected!("adx")
        && std::arch::is_x86_feature_detected!("avx")
        && std::arch::is_x86_feature_detected!("avx2")
        && std::arch::is_x86_feature_detected!("ssse3")
}

#[cfg(target_arch = "aarch64")]
fn cpu_runs_graviola() -> bool {
    std::arch::is_aarch64_feature_detected!("aes")
        && std::arch::is_aarch64_feature_detected!("sha2")
        && std::arch::is_aarch64_feature_detected!("pmull")
        && std::arch::is_aarch64_feature_detected!("neon")
}

/// ring elsewhere: the only provider rustls ships that builds there without CMake.
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
fn crypto_provider() -> Result<rustls::crypto::CryptoProvider, TransportError> {
    #[allow(
        deprecated,
        reason = "ring has no post-quantum key exchange; Graviola, which has, does not build here"
    )]
    let provider = rustls::crypto::ring::default_provider();
    Ok(provider)
}

/// An error with its sources (reqwest's own message is terse: "error sending request"),
/// any URL in it redacted ([`redact_urls_in`]).
fn error_chain(e: &dyn std::error::Error) -> String {
    redact_urls_in(&error_chain_raw(e))
}

fn error_chain_raw(e: &dyn std::error::Error) -> String {
    let mut s = e.to_string();
    let mut src = e.source();
    let mut n = 0;
    while let Some(inner) = src {
        n += 1;
        if n > 8 {
            break;
        }
        s.push_str(": ");
        s.push_str(&inner.to_string());
        src = inner.source();
    }
    s
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use rustls::pki_types::pem::PemObject;
    use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName};

    /// A TLS 1.3 handshake in memory between a client and a server on the built-in provider:
    /// it completes, and on x86_64 / aarch64 the key exchange is the post-quantum hybrid.
    #[test]
    fn the_built_in_provider_completes_a_handshake_and_prefers_post_quantum() {
        let provider = Arc::new(super::crypto_provider().expect("this CPU runs the provider"));
        let cert =
            CertificateDer::from_pem_slice(include_bytes!("../../tests/data/tls/localhost.crt"))
                .expect("cert");
        let key =
            PrivateKeyDer::from_pem_slice(include_bytes!("../../tests/data/tls/localhost.key"))
                .expect("key");
        let server_config = rustls::ServerConfig::builder_with_provider(provider.clone())
            .with_safe_default_protocol_versions()
            .expect("versions")
            .with_no_client_auth()
            .with_single_cert(vec![cert.clone()], key)
            .expect("server config");
        let mut roots = rustls::RootCertStore::empty();
        roots.add(cert).expect("root");
        let client_config = rustls::ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .expect("versions")
            .with_root_certificates(roots)
            .with_no_client_auth();
        let name = ServerName::try_from("localhost").expect("name");
        let mut client =
            rustls::ClientConnection::new(Arc::new(client_config), name).expect("client");
        let mut server = rustls::ServerConnection::new(Arc::new(server_config)).expect("server");
        // Shuttle the records until both sides are done (bounded).
        for _ in 0..20 {
            if !client.is_handshaking() && !server.is_handshaking() {
                break;
            }
            let mut buf = Vec::new();
            while client.wants_write() {
                client.write_tls(&mut buf).expect("client write");
            }
            server.read_tls(&mut &buf[..]).expect("server read");
            server.process_new_packets().expect("server accepts");
            let mut buf = Vec::new();
            while server.wants_write() {
                server.write_tls(&mut buf).expect("server write");
            }
            client.read_tls(&mut &buf[..]).expect("client read");
            client.process_new_packets().expect("client accepts");
        }
        assert!(!client.is_handshaking() && !server.is_handshaking());
        assert_eq!(
            client.protocol_version(),
            Some(rustls::ProtocolVersion::TLSv1_3)
        );
        let group = client.negotiated_key_exchange_group().map(|g| g.name());
        if cfg!(any(target_arch = "x86_64", target_arch = "aarch64")) {
            assert_eq!(group, Some(rustls::NamedGroup::X25519MLKEM768));
        } else {
            assert!(group.is_some());
        }
    }
}
