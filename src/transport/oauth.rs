//! OAuth 2.1 for MCP over Streamable HTTP (feature `mcp-http`), through rmcp's own `auth`
//! support: the authorization server found from the server's protected-resource metadata
//! (RFC 9728, the `resource_metadata` of its `401` challenge), PKCE, dynamic client
//! registration where the server offers it (or a pre-registered client), the code exchanged
//! for tokens, and the access token refreshed with the refresh token when it expires or
//! the server refuses it.
//!
//! The browser step is the host's: [`McpOAuth::new`] takes a callback that receives the
//! authorization URL ([`AuthorizationPrompt`]) and returns where the browser was sent back
//! to (the redirect URL, or its bare `code`). [`LoopbackRedirect`] is the usual way to get
//! it: a one-request listener on `127.0.0.1` and a random port, whose address is the
//! redirect URI. The tokens live in a [`CredentialStore`] (rmcp's trait; in memory unless the
//! host gives its own to persist them across runs).
//!
//! Without an [`McpOAuth`] on the [`TransportOptions`](super::TransportOptions), a server
//! that wants OAuth answers the connection with
//! [`TransportError::Unauthorized`], its challenge
//! carrying `resource_metadata`: the host can then set one and connect again.
//!
//! No token, code, client secret or redirect URL is ever printed: [`McpOAuth`]'s `Debug`
//! shows the redirect URI and the client name only, the answer of the browser step is a
//! [`Secret`], and the errors show URLs without their query.
//!
//! ```no_run
//! use egui_a2ui::transport::TransportOptions;
//! use egui_a2ui::transport::oauth::{LoopbackRedirect, McpOAuth};
//! # fn f() -> std::io::Result<()> {
//! let redirect = std::sync::Arc::new(LoopbackRedirect::bind()?);
//! let r = redirect.clone();
//! let oauth = McpOAuth::new(redirect.redirect_uri(), move |prompt| {
//!     let r = r.clone();
//!     async move {
//!         // Show `prompt.url` to the user (open the system browser), then wait for it.
//!         println!("open {}", prompt.url);
//!         r.wait_async(std::time::Duration::from_secs(300)).await
//!     }
//! });
//! let options = TransportOptions::default().with_mcp_oauth(oauth);
//! # Ok(()) }
//! ```

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

/// The attribute a host's own [`CredentialStore`] implementation needs (rmcp's trait is
/// an `async_trait`): `#[egui_a2ui::transport::oauth::async_trait]`.
pub use async_trait::async_trait;
use rmcp::transport::auth::{
    AuthClient, AuthorizationManager, AuthorizationRequest, AuthorizationSession,
};
pub use rmcp::transport::auth::{
    AuthError, CredentialStore, InMemoryCredentialStore, StoredCredentials,
};

use super::auth::{AuthChallenge, Secret};
use super::{TransportError, redact_url, redact_urls_in};

/// What the host's browser step is given.
#[derive(Clone, PartialEq, Eq)]
pub struct AuthorizationPrompt {
    /// The authorization URL to open in the user's browser (it carries the PKCE challenge
    /// and the `state`; show it to the user, do not log it).
    pub url: String,
    /// Where the authorization server sends the browser back (the redirect URI the client
    /// registered).
    pub redirect_uri: String,
    /// The MCP endpoint that asked for the authorization (without its query).
    pub server: String,
}

impl std::fmt::Debug for AuthorizationPrompt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AuthorizationPrompt")
            .field("url", &redact_url(&self.url))
            .field("redirect_uri", &self.redirect_uri)
            .field("server", &self.server)
            .finish()
    }
}

/// The future of the browser step: the redirect URL the browser was sent to (or its bare
/// `code`), or why there is none (the user gave up, the time ran out).
pub type AuthorizeFuture = Pin<Box<dyn Future<Output = Result<Secret, String>> + Send>>;

/// The host's browser step (see [`McpOAuth::new`]).
pub type AuthorizeCallback = Arc<dyn Fn(AuthorizationPrompt) -> AuthorizeFuture + Send + Sync>;

/// OAuth 2.1 for MCP servers over Streamable HTTP: the host's browser step, the redirect
/// URI, the token store, and what the client says of itself. Set it with
/// [`TransportOptions::with_mcp_oauth`](super::TransportOptions::with_mcp_oauth); a server
/// that answers `401` then gets the flow (once per connection), a server that does not is
/// reached as before.
#[derive(Clone)]
pub struct McpOAuth {
    redirect_uri: String,
    authorize: AuthorizeCallback,
    store: Arc<dyn CredentialStore>,
    client_name: String,
    scopes: Vec<String>,
    client_id: Option<String>,
    client_secret: Option<Secret>,
}

impl PartialEq for McpOAuth {
    fn eq(&self, other: &Self) -> bool {
        self.redirect_uri == other.redirect_uri
            && Arc::ptr_eq(&self.authorize, &other.authorize)
            && Arc::ptr_eq(&self.store, &other.store)
            && self.client_name == other.client_name
            && self.scopes == other.scopes
            && self.client_id == other.client_id
            && self.client_secret == other.client_secret
    }
}

impl std::fmt::Debug for McpOAuth {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpOAuth")
            .field("redirect_uri", &self.redirect_uri)
            .field("client_name", &self.client_name)
            .field("scopes", &self.scopes)
            .field("client_id", &self.client_id)
            .field("client_secret", &self.client_secret)
            .finish_non_exhaustive()
    }
}

impl McpOAuth {
    /// OAuth with the browser step `authorize`: it is called with the authorization URL
    /// (at most once per connection, and only when the server refuses the connection and
    /// no stored token gets in) and returns the URL the authorization server redirected the
    /// browser to (`redirect_uri?code=...&state=...`), or the bare `code`.
    /// `redirect_uri` is registered with the authorization server (dynamic client
    /// registration): a loopback address ([`LoopbackRedirect::redirect_uri`]) for a
    /// desktop host.
    pub fn new<F, Fut>(redirect_uri: impl Into<String>, authorize: F) -> Self
    where
        F: Fn(AuthorizationPrompt) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<Secret, String>> + Send + 'static,
    {
        Self {
            redirect_uri: redirect_uri.into(),
            authorize: Arc::new(move |p| Box::pin(authorize(p))),
            store: Arc::new(InMemoryCredentialStore::new()),
            client_name: "egui_a2ui".to_owned(),
            scopes: Vec::new(),
            client_id: None,
            client_secret: None,
        }
    }

    /// Keep the client registration and the tokens in `store` (a host's file or keychain,
    /// to sign in once across runs; in memory by default, shared by the clones of this
    /// value: a second connection with the same `McpOAuth` uses the tokens of the first).
    /// One store per server: rmcp drops stored tokens whose authorization server is not
    /// the one the next connection finds.
    #[must_use]
    pub fn with_store(mut self, store: impl CredentialStore + 'static) -> Self {
        self.store = Arc::new(store);
        self
    }

    /// The scopes to ask for (by default what the challenge and the server's metadata
    /// name).
    #[must_use]
    pub fn with_scopes<S: Into<String>>(mut self, scopes: impl IntoIterator<Item = S>) -> Self {
        self.scopes = scopes.into_iter().map(Into::into).collect();
        self
    }

    /// The client name given at dynamic client registration (`egui_a2ui` by default).
    #[must_use]
    pub fn with_client_name(mut self, name: impl Into<String>) -> Self {
        self.client_name = name.into();
        self
    }

    /// Use a client registered with the authorization server beforehand (no dynamic
    /// registration), with its secret for a confidential client.
    #[must_use]
    pub fn with_client(mut self, client_id: impl Into<String>, secret: Option<Secret>) -> Self {
        self.client_id = Some(client_id.into());
        self.client_secret = secret;
        self
    }

    /// The redirect URI.
    pub fn redirect_uri(&self) -> &str {
        &self.redirect_uri
    }

    /// The token store (what the flow saved: the client id, the tokens, the scopes granted).
    pub fn store(&self) -> Arc<dyn CredentialStore> {
        self.store.clone()
    }
}

/// A [`CredentialStore`] in a JSON file (rmcp's [`StoredCredentials`]: the client id, the
/// tokens, the scopes granted), so a host signs in once across runs. Written whole to a
/// temporary file beside it and renamed into place; on Unix created readable by its owner
/// only (`0600`). A missing file is an empty store; one that cannot be read or parsed is a
/// [`AuthError::CredentialStoreError`] (its message without the file's content). `Debug`
/// shows the path only.
#[derive(Clone, Debug)]
pub struct FileCredentialStore {
    path: std::path::PathBuf,
}

impl FileCredentialStore {
    /// The store at `path` (nothing is read or written until the flow asks).
    pub fn new(path: impl Into<std::path::PathBuf>) -> Self {
        Self { path: path.into() }
    }

    /// The file.
    pub fn path(&self) -> &std::path::Path {
        &self.path
    }

    fn write(&self, bytes: &[u8]) -> std::io::Result<()> {
        use std::io::Write;
        let tmp = self.path.with_extension("tmp");
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create(true).truncate(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(0o600);
        }
        let mut f = options.open(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, &self.path)
    }
}

fn store_error(what: &str, path: &std::path::Path, e: &dyn std::fmt::Display) -> AuthError {
    AuthError::CredentialStoreError(format!("{what} {}: {e}", path.display()))
}

#[async_trait::async_trait]
impl CredentialStore for FileCredentialStore {
    async fn load(&self) -> Result<Option<StoredCredentials>, AuthError> {
        let bytes = match std::fs::read(&self.path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(store_error("cannot read", &self.path, &e)),
        };
        // The parse error's position only: its message could quote the file.
        serde_json::from_slice(&bytes).map(Some).map_err(|e| {
            store_error(
                "cannot parse",
                &self.path,
                &format!("line {} column {}", e.line(), e.column()),
            )
        })
    }

    async fn save(&self, credentials: StoredCredentials) -> Result<(), AuthError> {
        let bytes = serde_json::to_vec(&credentials)
            .map_err(|_| store_error("cannot encode for", &self.path, &"not JSON"))?;
        self.write(&bytes)
            .map_err(|e| store_error("cannot write", &self.path, &e))
    }

    async fn clear(&self) -> Result<(), AuthError> {
        match std::fs::remove_file(&self.path) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(store_error("cannot remove", &self.path, &e)),
        }
    }
}

/// The host's store, as rmcp takes it (by value).
struct SharedStore(Arc<dyn CredentialStore>);

#[async_trait::async_trait]
impl CredentialStore for SharedStore {
    async fn load(&self) -> Result<Option<StoredCredentials>, AuthError> {
        self.0.load().await
    }

    async fn save(&self, credentials: StoredCredentials) -> Result<(), AuthError> {
        self.0.save(credentials).await
    }

    async fn clear(&self) -> Result<(), AuthError> {
        self.0.clear().await
    }

    async fn on_refresh_token_rejected(
        &self,
        credentials: &StoredCredentials,
    ) -> Result<(), AuthError> {
        self.0.on_refresh_token_rejected(credentials).await
    }

    async fn acquire_refresh_guard(
        &self,
    ) -> Result<Option<rmcp::transport::auth::CredentialRefreshGuard>, AuthError> {
        self.0.acquire_refresh_guard().await
    }
}

/// An OAuth failure as a typed error (URLs without their query: an authorization URL or a
/// redirect carries the `state`, the `code`).
pub(crate) fn oauth_error(url: &str, what: &str, e: &dyn std::fmt::Display) -> TransportError {
    TransportError::OAuth {
        url: redact_url(url),
        message: redact_urls_in(&format!("{what}: {e}")),
    }
}

/// The authorization manager for `url` with the host's store: rmcp's, which resolves the
/// authorization server's address under its metadata policy (a loopback server may name a
/// loopback authorization server, a public one no private address).
async fn manager(url: &str, oauth: &McpOAuth) -> Result<AuthorizationManager, TransportError> {
    let mut m = AuthorizationManager::new(url)
        .await
        .map_err(|e| oauth_error(url, "OAuth setup failed", &e))?;
    m.set_credential_store(SharedStore(oauth.store.clone()));
    Ok(m)
}

/// The client rmcp's Streamable HTTP transport sends through: the access token on every
/// request, refreshed when it expires or the server refuses it. A stored token is used
/// when there is one (the authorization server's metadata is then read once).
pub(crate) async fn auth_client(
    url: &str,
    http: reqwest::Client,
    oauth: &McpOAuth,
) -> Result<AuthClient<reqwest::Client>, TransportError> {
    let mut m = manager(url, oauth).await?;
    let stored = oauth
        .store
        .load()
        .await
        .map_err(|e| oauth_error(url, "the token store failed", &e))?
        .is_some_and(|s| s.token_response.is_some());
    if stored {
        // A stored token whose server no longer answers discovery is dropped: the flow
        // runs again when the server refuses.
        if let Err(e) = m.initialize_from_store().await {
            if matches!(e, AuthError::CredentialStoreError(_)) {
                return Err(oauth_error(url, "the token store failed", &e));
            }
            m = manager(url, oauth).await?;
        }
    }
    Ok(AuthClient::new(http, m))
}

/// `WWW-Authenticate` again from a parsed challenge (what rmcp's discovery reads).
fn challenge_header(c: &AuthChallenge) -> String {
    let mut out = c.scheme.clone();
    for (i, (k, v)) in c.params.iter().filter(|(k, _)| k != "token68").enumerate() {
        out.push_str(if i == 0 { " " } else { ", " });
        out.push_str(k);
        out.push_str("=\"");
        out.push_str(&v.replace('\\', "\\\\").replace('"', "\\\""));
        out.push('"');
    }
    out
}

/// Step-up authorization on a live connection: when the server refuses a request with
/// `403` and `error="insufficient_scope"` (the token lacks a scope this request needs), the
/// flow runs again asking for the scopes already granted plus those the challenge names,
/// and the request is tried once more (MCP authorization, "scope challenge handling").
#[derive(Clone)]
pub(crate) struct StepUp {
    url: String,
    auth: AuthClient<reqwest::Client>,
    oauth: McpOAuth,
}

impl StepUp {
    pub(crate) fn new(url: &str, auth: AuthClient<reqwest::Client>, oauth: McpOAuth) -> Self {
        Self {
            url: url.to_owned(),
            auth,
            oauth,
        }
    }

    /// Whether `e` is a refusal a step-up answers: `403` with `insufficient_scope`.
    pub(crate) fn answers(e: &TransportError) -> Option<&AuthChallenge> {
        match e {
            TransportError::Unauthorized {
                status: 403,
                challenge: Some(c),
                ..
            } if c.error.as_deref() == Some("insufficient_scope") => Some(c),
            _ => None,
        }
    }

    /// Sign in again for the scopes granted so far and those `challenge` names.
    pub(crate) async fn authorize(&self, challenge: &AuthChallenge) -> Result<(), TransportError> {
        let granted = self
            .oauth
            .store
            .load()
            .await
            .map_err(|e| oauth_error(&self.url, "the token store failed", &e))?
            .map(|s| s.granted_scopes)
            .unwrap_or_default();
        let mut scopes = if self.oauth.scopes.is_empty() {
            granted
        } else {
            self.oauth.scopes.clone()
        };
        for s in challenge
            .scope
            .as_deref()
            .unwrap_or_default()
            .split_whitespace()
        {
            if !scopes.iter().any(|x| x == s) {
                scopes.push(s.to_owned());
            }
        }
        let oauth = self.oauth.clone().with_scopes(scopes);
        authorize(&self.url, &self.auth, &oauth, Some(challenge)).await
    }
}

/// Run the authorization flow for `url`, whose server refused with `challenge`: discover
/// its authorization server, register (or use the pre-registered client), ask the host's
/// browser step, exchange the code, and hand the authorized manager to `client`.
pub(crate) async fn authorize(
    url: &str,
    client: &AuthClient<reqwest::Client>,
    oauth: &McpOAuth,
    challenge: Option<&AuthChallenge>,
) -> Result<(), TransportError> {
    let mut m = manager(url, oauth).await?;
    let header = challenge.map(challenge_header);
    let resolved = m
        .resolve_metadata_from_challenge(header.as_deref())
        .await
        .map_err(|e| oauth_error(url, "no authorization server found", &e))?;
    m.set_metadata(resolved.metadata);
    let mut request =
        AuthorizationRequest::new(oauth.redirect_uri.clone()).with_client_name(&oauth.client_name);
    if let Some(h) = header {
        request = request.with_challenge(h);
    }
    if !oauth.scopes.is_empty() {
        request = request.with_scopes(oauth.scopes.iter().cloned());
    }
    if let Some(id) = &oauth.client_id {
        request = request.with_preregistered_client(id.clone());
        if let Some(s) = &oauth.client_secret {
            request = request.with_client_secret(s.expose());
        }
    }
    let session = AuthorizationSession::new(m, request)
        .await
        .map_err(|(_, e)| oauth_error(url, "the authorization could not start", &e))?;
    let auth_url = session.get_authorization_url().to_owned();
    let prompt = AuthorizationPrompt {
        url: auth_url.clone(),
        redirect_uri: oauth.redirect_uri.clone(),
        server: redact_url(url),
    };
    let answer = (oauth.authorize)(prompt)
        .await
        .map_err(|m| oauth_error(url, "the authorization was not completed", &m))?;
    let answer = answer.expose().trim();
    let exchanged = if answer.contains("code=") && answer.contains("://") {
        session.handle_callback_url(answer).await
    } else {
        // A bare code: the `state` is the one of the authorization URL.
        let state = url::Url::parse(&auth_url)
            .ok()
            .and_then(|u| {
                u.query_pairs()
                    .find(|(k, _)| k == "state")
                    .map(|(_, v)| v.into_owned())
            })
            .unwrap_or_default();
        session.handle_callback(answer, &state).await
    };
    exchanged.map_err(|e| oauth_error(url, "the code exchange failed", &e))?;
    *client.auth_manager.lock().await = session.auth_manager;
    Ok(())
}

/// A one-request HTTP listener on `127.0.0.1` and a random port: the redirect URI of a
/// desktop host's OAuth flow. The browser is sent back to it with the code; it answers with
/// a short page saying the window can be closed.
#[derive(Debug)]
pub struct LoopbackRedirect {
    listener: std::net::TcpListener,
    redirect_uri: String,
}

/// The most bytes of the browser's request [`LoopbackRedirect`] reads.
const MAX_REDIRECT_REQUEST: usize = 16 * 1024;

impl LoopbackRedirect {
    /// Listen on `127.0.0.1:0`; the redirect URI is `http://127.0.0.1:PORT/callback`.
    pub fn bind() -> std::io::Result<Self> {
        let listener = std::net::TcpListener::bind(("127.0.0.1", 0))?;
        listener.set_nonblocking(true)?;
        let port = listener.local_addr()?.port();
        Ok(Self {
            listener,
            redirect_uri: format!("http://127.0.0.1:{port}/callback"),
        })
    }

    /// The redirect URI to register.
    pub fn redirect_uri(&self) -> &str {
        &self.redirect_uri
    }

    /// Wait (at most `timeout`, blocking) for the browser's request to the redirect URI and
    /// return its whole URL (with the `code` and `state`). A request for another path (a
    /// browser's `/favicon.ico`) is answered `404` and the wait goes on; a redirect that
    /// carries an `error` instead of a code ends it with that error.
    pub fn wait(&self, timeout: Duration) -> Result<Secret, String> {
        let deadline = std::time::Instant::now() + timeout;
        // Bounded by the deadline.
        loop {
            match self.listener.accept() {
                Ok((conn, _)) => {
                    if let Some(r) = self.serve(conn) {
                        return r;
                    }
                }
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                    if std::time::Instant::now() >= deadline {
                        return Err(format!(
                            "no redirect to {} within {} s",
                            self.redirect_uri,
                            timeout.as_secs()
                        ));
                    }
                    std::thread::sleep(Duration::from_millis(50));
                }
                Err(e) => return Err(format!("the redirect listener failed: {e}")),
            }
        }
    }

    /// [`Self::wait`] off the async runtime (on a thread of its own).
    pub async fn wait_async(self: Arc<Self>, timeout: Duration) -> Result<Secret, String> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        std::thread::Builder::new()
            .name("egui_a2ui-oauth-redirect".into())
            .spawn(move || {
                let _ = tx.send(self.wait(timeout));
            })
            .map_err(|e| format!("cannot wait for the redirect: {e}"))?;
        rx.await
            .map_err(|_| "the redirect listener ended".to_owned())?
    }

    /// One connection: `Some` when it was the redirect.
    fn serve(&self, mut conn: std::net::TcpStream) -> Option<Result<Secret, String>> {
        use std::io::{Read, Write};
        let _ = conn.set_nonblocking(false);
        let _ = conn.set_read_timeout(Some(Duration::from_secs(5)));
        let mut buf = Vec::new();
        let mut chunk = [0u8; 2048];
        // Bounded by MAX_REDIRECT_REQUEST and the read timeout.
        while buf.len() < MAX_REDIRECT_REQUEST && !buf.windows(4).any(|w| w == b"\r\n\r\n") {
            match conn.read(&mut chunk) {
                Ok(0) | Err(_) => break,
                Ok(n) => buf.extend_from_slice(&chunk[..n]),
            }
        }
        let head = String::from_utf8_lossy(&buf);
        let target = head
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("GET "))
            .and_then(|l| l.split(' ').next())
            .unwrap_or_default()
            .to_owned();
        let path = target.split('?').next().unwrap_or_default();
        if path != "/callback" {
            let _ = conn.write_all(
                b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n",
            );
            return None;
        }
        let full = format!(
            "{}{}",
            self.redirect_uri.trim_end_matches("/callback"),
            target
        );
        let error = url::Url::parse(&full).ok().and_then(|u| {
            u.query_pairs()
                .find(|(k, _)| k == "error")
                .map(|(_, v)| v.into_owned())
        });
        let page: &[u8] = if error.is_some() {
            b"The authorization was refused. You can close this window."
        } else {
            b"Signed in. You can close this window and go back to the application."
        };
        let _ = write!(
            conn,
            "HTTP/1.1 200 OK\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
            page.len()
        );
        let _ = conn.write_all(page);
        Some(match error {
            Some(e) => Err(format!("the authorization server refused: {e}")),
            None => Ok(Secret::new(full)),
        })
    }
}

/// Open `url` (`http:` or `https:` only) in the user's browser: `open` on macOS,
/// `rundll32 url.dll,FileProtocolHandler` on Windows, `xdg-open` elsewhere; no shell, the
/// URL one argument. Returns once the opener started (it is waited for on a thread).
pub fn open_browser(url: &str) -> std::io::Result<()> {
    let lower = url.get(..8).unwrap_or(url).to_ascii_lowercase();
    if !(lower.starts_with("https://") || lower.starts_with("http://")) {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "only http(s) URLs are opened",
        ));
    }
    let mut cmd = if cfg!(target_os = "macos") {
        std::process::Command::new("open")
    } else if cfg!(windows) {
        let mut c = std::process::Command::new("rundll32");
        c.arg("url.dll,FileProtocolHandler");
        c
    } else {
        std::process::Command::new("xdg-open")
    };
    let mut child = cmd
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()?;
    std::thread::Builder::new()
        .name("egui_a2ui-browser".into())
        .spawn(move || {
            let _ = child.wait();
        })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_challenge_is_written_back_as_rmcp_reads_it() {
        let c = AuthChallenge::parse(
            r#"Bearer error="invalid_token", resource_metadata="http://127.0.0.1:9/.well-known/oauth-protected-resource/mcp", scope="a b""#,
        );
        let h = challenge_header(&c[0]);
        assert_eq!(
            h,
            r#"Bearer error="invalid_token", resource_metadata="http://127.0.0.1:9/.well-known/oauth-protected-resource/mcp", scope="a b""#
        );
        assert_eq!(AuthChallenge::parse(&h), c);
    }

    #[test]
    fn the_loopback_redirect_returns_the_callback_url_and_skips_other_paths() {
        use std::io::{Read, Write};
        let r = LoopbackRedirect::bind().unwrap();
        let uri = r.redirect_uri().to_owned();
        let port: u16 = uri
            .trim_start_matches("http://127.0.0.1:")
            .trim_end_matches("/callback")
            .parse()
            .unwrap();
        let browser = std::thread::spawn(move || {
            for path in ["/favicon.ico", "/callback?code=c0de&state=st"] {
                let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
                write!(s, "GET {path} HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
                let mut out = String::new();
                let _ = s.read_to_string(&mut out);
            }
        });
        let got = r.wait(Duration::from_secs(20)).unwrap();
        browser.join().unwrap();
        assert_eq!(got.expose(), format!("{uri}?code=c0de&state=st"));
        assert_eq!(format!("{got:?}"), "<redacted>");
        // Nothing more comes: the wait ends at its deadline.
        assert!(r.wait(Duration::from_millis(100)).is_err());
    }

    #[test]
    fn a_refusal_redirect_ends_the_wait_with_its_error() {
        use std::io::{Read, Write};
        let r = LoopbackRedirect::bind().unwrap();
        let port = r
            .redirect_uri()
            .trim_start_matches("http://127.0.0.1:")
            .trim_end_matches("/callback")
            .parse::<u16>()
            .unwrap();
        let browser = std::thread::spawn(move || {
            let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
            write!(
                s,
                "GET /callback?error=access_denied&state=st HTTP/1.1\r\nHost: x\r\n\r\n"
            )
            .unwrap();
            let mut out = String::new();
            let _ = s.read_to_string(&mut out);
            out
        });
        let got = r.wait(Duration::from_secs(20));
        let page = browser.join().unwrap();
        assert_eq!(
            got.unwrap_err(),
            "the authorization server refused: access_denied"
        );
        assert!(page.contains("refused"), "{page}");
    }

    #[test]
    fn the_file_store_keeps_what_it_is_given_owner_only() {
        let dir = std::env::temp_dir().join(format!("egui_a2ui-oauth-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let store = FileCredentialStore::new(dir.join("tokens.json"));
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        rt.block_on(async {
            assert!(store.load().await.unwrap().is_none(), "missing: empty");
            let creds =
                StoredCredentials::new("client-1".into(), None, vec!["mcp".into()], Some(7));
            store.save(creds).await.unwrap();
            let back = store.load().await.unwrap().expect("saved");
            assert_eq!(back.client_id, "client-1");
            assert_eq!(back.granted_scopes, ["mcp"]);
            assert_eq!(back.token_received_at, Some(7));
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                let mode = std::fs::metadata(store.path())
                    .unwrap()
                    .permissions()
                    .mode();
                assert_eq!(mode & 0o777, 0o600);
            }
            std::fs::write(store.path(), b"{\"client_id\": \"s3cret").unwrap();
            let e = store.load().await.unwrap_err().to_string();
            assert!(!e.contains("s3cret"), "{e}");
            store.clear().await.unwrap();
            assert!(store.load().await.unwrap().is_none());
            store.clear().await.unwrap();
        });
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn debug_shows_no_secret() {
        let o = McpOAuth::new("http://127.0.0.1:1/callback", |_| async {
            Err::<Secret, String>("no".into())
        })
        .with_client("client-1", Some(Secret::new("s3cret-client")));
        let shown = format!("{o:?}");
        assert!(!shown.contains("s3cret-client"), "{shown}");
        assert!(shown.contains("client-1"), "{shown}");
        let p = AuthorizationPrompt {
            url: "http://127.0.0.1:1/authorize?state=st4te&code_challenge=x".into(),
            redirect_uri: "http://127.0.0.1:2/callback".into(),
            server: "http://127.0.0.1:1/mcp".into(),
        };
        assert!(!format!("{p:?}").contains("st4te"));
    }
}
