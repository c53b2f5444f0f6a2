//! MCP OAuth 2.1 against the official Python SDK's auth support (`mcp` 2.3.0,
//! `tests/peers/mcp_oauth_peer.py`: its own authorization server with dynamic client
//! registration, protected-resource metadata, PKCE, rotated refresh tokens). The browser
//! step is played by the test: it opens the authorization URL the library hands it (the
//! peer approves at once and redirects) and gives back the redirect.

use std::io::{Read, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use egui_a2ui::Catalog;
use egui_a2ui::transport::mcp_http::{McpAgent, McpClient, McpHost};
use egui_a2ui::transport::oauth::{
    AuthorizationPrompt, CredentialStore, InMemoryCredentialStore, LoopbackRedirect, McpOAuth,
};
use egui_a2ui::transport::{
    Secret, TransportError, TransportEvent, TransportOptions, Turn, error_json,
};
use serde_json::Value;

use crate::common::peers::{Peer, Venv, start, start_with_env};

/// A plain HTTP/1.0 request on 127.0.0.1 (bounded by a 10 s read timeout): the status
/// line, the headers (names lower-cased) and the body.
fn http(method: &str, url: &str) -> (String, Vec<(String, String)>, String) {
    let rest = url.strip_prefix("http://").expect("an http URL");
    let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let mut conn = std::net::TcpStream::connect(authority).expect("connect");
    conn.set_read_timeout(Some(Duration::from_secs(10)))
        .expect("timeout");
    let path = if path.is_empty() { "/" } else { path };
    write!(
        conn,
        "{method} {path} HTTP/1.0\r\nHost: {authority}\r\nContent-Length: 0\r\n\r\n"
    )
    .expect("write");
    let mut raw = String::new();
    conn.read_to_string(&mut raw).expect("read");
    let (head, body) = raw.split_once("\r\n\r\n").unwrap_or((&raw, ""));
    let mut lines = head.lines();
    let status = lines.next().unwrap_or_default().to_owned();
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    (status, headers, body.to_owned())
}

/// The browser: open the authorization URL; the peer approves and redirects (302) to the
/// redirect URI with the code. Returns where it redirected to.
fn open_in_browser(prompt: &AuthorizationPrompt) -> String {
    let (status, headers, body) = http("GET", &prompt.url);
    assert!(status.contains(" 302 "), "{status} {body}");
    let location = headers
        .iter()
        .find(|(k, _)| k == "location")
        .map(|(_, v)| v.clone())
        .expect("a Location");
    assert!(location.starts_with(&prompt.redirect_uri), "{location}");
    location
}

/// The peer's record (`GET /peer/seen`).
fn seen(peer: &Peer) -> Value {
    let (_, _, body) = http("GET", &peer.url("/peer/seen"));
    serde_json::from_str(&body).unwrap_or_else(|e| panic!("{e}: {body}"))
}

fn grants(peer: &Peer) -> Vec<String> {
    seen(peer)["grants"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|g| g.as_str().map(str::to_owned))
        .collect()
}

/// Every secret the peer issued (codes, access and refresh tokens, client secrets).
fn issued(peer: &Peer) -> Vec<String> {
    let s = seen(peer);
    let out: Vec<String> = s["secrets"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|g| g.as_str().map(str::to_owned))
        .collect();
    assert!(!out.is_empty(), "the peer issued nothing: {s}");
    out
}

fn assert_nothing_secret(peer: &Peer, shown: &str) {
    for secret in issued(peer) {
        assert!(!shown.contains(&secret), "a secret was printed: {shown}");
    }
}

/// OAuth whose browser step is [`open_in_browser`] (on a thread: it blocks), counting the
/// times it is asked.
fn oauth_following_redirects(asked: Arc<AtomicUsize>) -> McpOAuth {
    McpOAuth::new("http://127.0.0.1:9/callback", move |prompt| {
        asked.fetch_add(1, Ordering::SeqCst);
        async move {
            let redirected = std::thread::spawn(move || open_in_browser(&prompt))
                .join()
                .map_err(|_| "the browser failed".to_owned())?;
            Ok(Secret::new(redirected))
        }
    })
}

async fn turn(agent: &mut McpAgent) -> (Vec<TransportEvent>, Result<(), TransportError>) {
    let mut events = Vec::new();
    let r = agent
        .send(&Turn::Text("pasta".into()), |e| events.push(e.clone()))
        .await;
    (events, r)
}

fn printed(events: &[TransportEvent], r: &Result<(), TransportError>) -> String {
    let mut out = String::new();
    for e in events {
        out.push_str(&format!("{e:?}{}", e.to_json()));
    }
    if let Err(e) = r {
        out.push_str(&format!("{e} {e:?} {}", error_json(e)));
    }
    out
}

fn drew_the_board(agent: &McpAgent) -> bool {
    agent.conversation().stores().any(|s| {
        s.surface("status")
            .is_some_and(|x| x.component("title").is_some())
    })
}

#[tokio::test]
async fn without_oauth_the_server_refuses_with_a_challenge_naming_its_metadata() {
    let peer = start(Venv::Main, "mcp_oauth_peer.py");
    let url = peer.url("/mcp");
    let e = McpClient::connect_http(&url, &TransportOptions::default())
        .await
        .expect_err("no credentials: refused");
    match &e {
        TransportError::Unauthorized {
            status: 401,
            challenge: Some(c),
            url: u,
        } => {
            assert_eq!(c.scheme, "Bearer");
            assert_eq!(
                c.resource_metadata.as_deref(),
                Some(
                    peer.url("/.well-known/oauth-protected-resource/mcp")
                        .as_str()
                )
            );
            assert_eq!(u, &url);
        }
        other => panic!("{other:?}"),
    }
    // A wrong bearer header is refused the same way.
    let e = McpClient::connect_http(&url, &TransportOptions::default().with_bearer("nope"))
        .await
        .expect_err("a wrong token: refused");
    assert!(
        matches!(e, TransportError::Unauthorized { status: 401, .. }),
        "{e:?}"
    );
    assert_eq!(seen(&peer)["registrations"], 0);
}

#[tokio::test]
async fn the_flow_registers_authorizes_with_pkce_and_the_turn_draws_and_nothing_secret_is_printed()
{
    let peer = start(Venv::Main, "mcp_oauth_peer.py");
    let url = peer.url("/mcp");
    let asked = Arc::new(AtomicUsize::new(0));
    let oauth = oauth_following_redirects(asked.clone());
    let options = TransportOptions::default()
        .with_header("X-Tenant", "acme")
        .with_mcp_oauth(oauth.clone());
    let mut agent = McpAgent::connect_http(&url, &Catalog::basic(), &options)
        .await
        .expect("signed in");
    assert_eq!(asked.load(Ordering::SeqCst), 1);
    let s = seen(&peer);
    assert_eq!(s["registrations"], 1, "{s}");
    assert_eq!(s["authorizations"], 1, "{s}");
    assert_eq!(grants(&peer), ["authorization_code"]);

    let (events, r) = turn(&mut agent).await;
    r.as_ref().expect("the turn");
    assert!(drew_the_board(&agent), "{events:?}");

    // The store holds the tokens the host may persist; nothing printed shows them.
    let stored = oauth.store().load().await.unwrap().expect("stored");
    assert!(stored.token_response.is_some());
    let shown = printed(&events, &r)
        + &format!("{options:?}{agent:?}{oauth:?}{stored:?}")
        + &format!("{:?}", agent.conversation());
    assert!(shown.contains("X-Tenant"), "{shown}");
    assert_nothing_secret(&peer, &shown);
}

#[tokio::test]
async fn a_stored_token_is_reused_an_expired_one_refreshed_and_it_works_as_a_bearer_header() {
    let peer = start(Venv::Main, "mcp_oauth_peer.py");
    let url = peer.url("/mcp");
    let asked = Arc::new(AtomicUsize::new(0));
    let store = InMemoryCredentialStore::new();
    let oauth = oauth_following_redirects(asked.clone()).with_store(store.clone());
    let options = TransportOptions::default().with_mcp_oauth(oauth);
    let first = McpClient::connect_http(&url, &options)
        .await
        .expect("first");
    first.close().await;
    assert_eq!(asked.load(Ordering::SeqCst), 1);

    // Again, with the store: no browser.
    let mut agent = McpAgent::connect_http(&url, &Catalog::basic(), &options)
        .await
        .expect("with the stored token");
    turn(&mut agent).await.1.expect("turn");
    assert_eq!(asked.load(Ordering::SeqCst), 1);
    assert_eq!(grants(&peer), ["authorization_code"]);

    // The token as a plain bearer header (another transport's way) gets in too.
    let token = {
        let stored = store.load().await.unwrap().expect("stored");
        let v = serde_json::to_value(stored.token_response.expect("token")).unwrap();
        v["access_token"].as_str().expect("access_token").to_owned()
    };
    let bearer = TransportOptions::default().with_bearer(&token);
    let c = McpClient::connect_http(&url, &bearer)
        .await
        .expect("bearer");
    c.close().await;

    // The stored token is past its lifetime (received long ago): refreshed with the
    // refresh token before the connection, still no browser.
    let mut stored = store.load().await.unwrap().expect("stored");
    stored.token_received_at = Some(0);
    store.save(stored).await.unwrap();
    let mut agent = McpAgent::connect_http(&url, &Catalog::basic(), &options)
        .await
        .expect("refreshed");
    let (events, r) = turn(&mut agent).await;
    r.as_ref().expect("turn after the refresh");
    assert!(drew_the_board(&agent));
    assert_eq!(grants(&peer), ["authorization_code", "refresh_token"]);
    assert_eq!(asked.load(Ordering::SeqCst), 1);
    let refreshed = serde_json::to_value(
        store
            .load()
            .await
            .unwrap()
            .and_then(|s| s.token_response)
            .expect("token"),
    )
    .unwrap();
    assert_ne!(refreshed["access_token"].as_str(), Some(token.as_str()));
    assert_nothing_secret(&peer, &printed(&events, &r));
}

#[tokio::test]
async fn a_token_the_server_stops_taking_is_refreshed_on_its_401_mid_connection() {
    let peer = start(Venv::Main, "mcp_oauth_peer.py");
    let url = peer.url("/mcp");
    let asked = Arc::new(AtomicUsize::new(0));
    let options =
        TransportOptions::default().with_mcp_oauth(oauth_following_redirects(asked.clone()));
    let mut agent = McpAgent::connect_http(&url, &Catalog::basic(), &options)
        .await
        .expect("signed in");
    let (status, _, _) = http("POST", &peer.url("/peer/expire"));
    assert!(status.contains(" 200 "), "{status}");
    let (events, r) = turn(&mut agent).await;
    r.as_ref().expect("the turn, after a refresh");
    assert!(drew_the_board(&agent));
    assert!(seen(&peer)["refused"].as_u64() >= Some(1));
    assert_eq!(grants(&peer), ["authorization_code", "refresh_token"]);
    assert_eq!(asked.load(Ordering::SeqCst), 1);
    assert_nothing_secret(&peer, &printed(&events, &r));
}

#[tokio::test]
async fn a_revoked_refresh_token_is_a_401_mid_connection_and_the_next_connection_signs_in_again() {
    let peer = start(Venv::Main, "mcp_oauth_peer.py");
    let url = peer.url("/mcp");
    let asked = Arc::new(AtomicUsize::new(0));
    let options =
        TransportOptions::default().with_mcp_oauth(oauth_following_redirects(asked.clone()));
    let mut agent = McpAgent::connect_http(&url, &Catalog::basic(), &options)
        .await
        .expect("signed in");
    let (status, _, _) = http("POST", &peer.url("/peer/expire?refresh=1"));
    assert!(status.contains(" 200 "), "{status}");
    // The token is refused, its refresh too: the turn ends with the typed refusal (a host
    // asks the user again), nothing secret in it.
    let (events, r) = turn(&mut agent).await;
    match &r {
        Err(TransportError::Unauthorized {
            status: 401,
            url: u,
            challenge: Some(c),
        }) => {
            assert_eq!(u, &url);
            assert!(c.resource_metadata.is_some(), "{c:?}");
        }
        other => panic!("{other:?}"),
    }
    assert_nothing_secret(&peer, &printed(&events, &r));
    assert_eq!(asked.load(Ordering::SeqCst), 1);
    // A new connection with the same settings: the stored token fails, the browser step
    // runs again, and the turn works.
    let mut agent = McpAgent::connect_http(&url, &Catalog::basic(), &options)
        .await
        .expect("signed in again");
    assert_eq!(asked.load(Ordering::SeqCst), 2);
    turn(&mut agent).await.1.expect("the turn");
    assert!(drew_the_board(&agent));
    assert_eq!(seen(&peer)["authorizations"], 2);
}

#[tokio::test]
async fn a_browser_step_that_fails_is_a_typed_oauth_error_without_secrets() {
    let peer = start(Venv::Main, "mcp_oauth_peer.py");
    let url = peer.url("/mcp");
    let seen_url = Arc::new(std::sync::Mutex::new(String::new()));
    let s2 = seen_url.clone();
    let oauth = McpOAuth::new("http://127.0.0.1:9/callback", move |prompt| {
        if let Ok(mut s) = s2.lock() {
            *s = prompt.url.clone();
        }
        async { Err::<Secret, _>("the user closed the window".to_owned()) }
    });
    let e = McpClient::connect_http(&url, &TransportOptions::default().with_mcp_oauth(oauth))
        .await
        .expect_err("not signed in");
    match &e {
        TransportError::OAuth { url: u, message } => {
            assert_eq!(u, &url);
            assert!(message.contains("the user closed the window"), "{message}");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(error_json(&e)["kind"], "oauth");
    // The authorization URL went to the host (PKCE S256, the registered client, the
    // resource), but is not in the error.
    let auth_url = seen_url.lock().unwrap().clone();
    assert!(auth_url.starts_with(&peer.url("/authorize?")), "{auth_url}");
    assert!(
        auth_url.contains("code_challenge_method=S256"),
        "{auth_url}"
    );
    assert!(auth_url.contains("code_challenge="), "{auth_url}");
    assert!(auth_url.contains("state="), "{auth_url}");
    let state = auth_url
        .split(['?', '&'])
        .find_map(|p| p.strip_prefix("state="))
        .expect("state");
    assert!(!format!("{e} {e:?} {}", error_json(&e)).contains(state));
    assert_eq!(seen(&peer)["registrations"], 1);
}

#[tokio::test]
async fn a_call_refused_for_a_missing_scope_signs_in_again_for_it_and_is_retried_once() {
    let peer = start(Venv::Main, "mcp_oauth_peer.py");
    let url = peer.url("/mcp");
    let asked = Arc::new(AtomicUsize::new(0));
    let store = InMemoryCredentialStore::new();
    let oauth = oauth_following_redirects(asked.clone()).with_store(store.clone());
    let client = McpClient::connect_http(&url, &TransportOptions::default().with_mcp_oauth(oauth))
        .await
        .expect("connect");
    assert_eq!(asked.load(Ordering::SeqCst), 1);
    let book = serde_json::json!({"name": "book_table", "arguments": {"party": 2}});
    let r = client
        .call(book.clone())
        .await
        .expect("booked after the step-up");
    assert_eq!(r["content"][0]["text"], "Booked for 2.", "{r}");
    // The server refused once; the browser step ran again, asking for what was granted
    // plus the scope the challenge named.
    let s = seen(&peer);
    assert_eq!(s["scope_refusals"], 1, "{s}");
    assert_eq!(asked.load(Ordering::SeqCst), 2);
    let scopes: Vec<Vec<String>> = serde_json::from_value(s["authorized_scopes"].clone()).unwrap();
    assert_eq!(scopes.len(), 2, "{s}");
    assert!(!scopes[0].iter().any(|x| x == "book"), "{s}");
    assert!(scopes[1].iter().any(|x| x == "book"), "{s}");
    assert!(scopes[1].iter().any(|x| x == "mcp"), "{s}");
    // The new token has both: the next call goes through without the browser.
    let r = client.call(book).await.expect("booked again");
    assert_eq!(r["content"][0]["text"], "Booked for 2.");
    assert_eq!(asked.load(Ordering::SeqCst), 2);
    assert_eq!(seen(&peer)["scope_refusals"], 1);
    let stored = store.load().await.unwrap().expect("stored");
    assert!(
        stored.granted_scopes.iter().any(|x| x == "book"),
        "{:?}",
        stored.granted_scopes
    );
    client.close().await;
}

#[tokio::test]
async fn a_step_up_the_user_declines_is_an_error_and_is_not_asked_again() {
    let peer = start(Venv::Main, "mcp_oauth_peer.py");
    let url = peer.url("/mcp");
    let asked = Arc::new(AtomicUsize::new(0));
    let a2 = asked.clone();
    // The first sign-in goes through; the second (the step-up) is declined.
    let oauth = McpOAuth::new("http://127.0.0.1:9/callback", move |prompt| {
        let n = a2.fetch_add(1, Ordering::SeqCst);
        async move {
            if n > 0 {
                return Err("the user declined more access".to_owned());
            }
            let redirected = std::thread::spawn(move || open_in_browser(&prompt))
                .join()
                .map_err(|_| "the browser failed".to_owned())?;
            Ok(Secret::new(redirected))
        }
    });
    let client = McpClient::connect_http(&url, &TransportOptions::default().with_mcp_oauth(oauth))
        .await
        .expect("connect");
    let book = serde_json::json!({"name": "book_table", "arguments": {"party": 2}});
    let e = client.call(book).await.expect_err("declined");
    match &e {
        TransportError::OAuth { message, .. } => {
            assert!(
                message.contains("the user declined more access"),
                "{message}"
            );
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(asked.load(Ordering::SeqCst), 2);
    assert_eq!(seen(&peer)["scope_refusals"], 1);
    assert_nothing_secret(&peer, &format!("{e} {e:?} {}", error_json(&e)));
    // A call that needs no more scope still works on the same connection.
    let r = client
        .call(serde_json::json!({"name": "show_status", "arguments": {"query": "x"}}))
        .await
        .expect("show_status");
    assert!(
        r["content"][0]["text"]
            .as_str()
            .is_some_and(|t| t.contains("signed in"))
    );
    client.close().await;
}

#[tokio::test]
async fn a_preregistered_confidential_client_signs_in_without_registering_and_its_secret_stays_hidden()
 {
    let peer = start(Venv::Main, "mcp_oauth_peer.py");
    let url = peer.url("/mcp");
    let (_, _, body) = http("GET", &peer.url("/peer/preregistered"));
    let client: Value = serde_json::from_str(&body).expect("JSON");
    let secret = client["client_secret"].as_str().expect("secret").to_owned();
    let asked = Arc::new(AtomicUsize::new(0));
    let oauth = oauth_following_redirects(asked.clone()).with_client(
        client["client_id"].as_str().expect("id"),
        Some(Secret::new(secret.clone())),
    );
    let options = TransportOptions::default().with_mcp_oauth(oauth.clone());
    let mut agent = McpAgent::connect_http(&url, &Catalog::basic(), &options)
        .await
        .expect("signed in with the client secret");
    assert_eq!(asked.load(Ordering::SeqCst), 1);
    let s = seen(&peer);
    assert_eq!(s["registrations"], 0, "no dynamic registration: {s}");
    assert_eq!(s["basic_auth"], 1, "the secret went in HTTP Basic: {s}");
    assert_eq!(grants(&peer), ["authorization_code"]);
    let (events, r) = turn(&mut agent).await;
    r.as_ref().expect("turn");
    assert!(drew_the_board(&agent));
    let shown = printed(&events, &r) + &format!("{options:?}{oauth:?}{agent:?}");
    assert!(shown.contains("egui-a2ui-preregistered"), "{shown}");
    assert!(!shown.contains(&secret), "the client secret was printed");
    assert_nothing_secret(&peer, &shown);
}

/// Poll `h` until it is idle (bounded: 30 s).
fn wait_idle(h: &mut McpHost) {
    for _ in 0..3000 {
        h.poll();
        if !h.is_busy() {
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn the_host_signs_in_through_a_loopback_redirect_and_draws() {
    let peer = start_with_env(Venv::Main, "mcp_oauth_peer.py", &[]);
    let url = peer.url("/mcp");
    let redirect = Arc::new(LoopbackRedirect::bind().expect("bind"));
    let r = redirect.clone();
    let oauth = McpOAuth::new(redirect.redirect_uri(), move |prompt| {
        // The browser: opens the URL, follows the redirect to the loopback listener.
        std::thread::spawn(move || {
            let location = open_in_browser(&prompt);
            let (status, _, body) = http("GET", &location);
            assert!(status.contains(" 200 "), "{status}");
            assert!(body.contains("close this window"), "{body}");
        });
        r.clone().wait_async(Duration::from_secs(30))
    });
    let mut h = McpHost::connect(
        &url,
        &Catalog::basic(),
        TransportOptions::default().with_mcp_oauth(oauth),
        || {},
    )
    .expect("connect");
    wait_idle(&mut h);
    assert!(h.connect_error().is_none(), "{:?}", h.connect_error());
    h.send(Turn::Text("pasta".into())).expect("send");
    wait_idle(&mut h);
    assert!(
        h.conversation()
            .stores()
            .any(|s| s.surface("status").is_some()),
        "{:?}",
        h.log()
    );
    let shown: String = h
        .log()
        .iter()
        .map(|e| format!("{e:?}{}", e.to_json()))
        .collect::<String>()
        + &format!("{h:?}");
    assert_nothing_secret(&peer, &shown);
    assert_eq!(grants(&peer), ["authorization_code"]);
}

#[test]
fn the_host_steps_up_when_its_turn_needs_more_scope_and_draws() {
    // The text turn's tool (`show_status`) is behind the `book` scope.
    let peer = start_with_env(
        Venv::Main,
        "mcp_oauth_peer.py",
        &[("PEER_SCOPED_TOOL", "show_status")],
    );
    let url = peer.url("/mcp");
    let asked = Arc::new(AtomicUsize::new(0));
    let mut h = McpHost::connect(
        &url,
        &Catalog::basic(),
        TransportOptions::default().with_mcp_oauth(oauth_following_redirects(asked.clone())),
        || {},
    )
    .expect("connect");
    wait_idle(&mut h);
    assert!(h.connect_error().is_none(), "{:?}", h.connect_error());
    assert_eq!(asked.load(Ordering::SeqCst), 1);
    h.send(Turn::Text("pasta".into())).expect("send");
    wait_idle(&mut h);
    assert!(
        h.conversation()
            .stores()
            .any(|s| s.surface("status").is_some()),
        "{:?}",
        h.log()
    );
    assert_eq!(asked.load(Ordering::SeqCst), 2);
    assert_eq!(seen(&peer)["scope_refusals"], 1);
    let shown: String = h
        .log()
        .iter()
        .map(|e| format!("{e:?}{}", e.to_json()))
        .collect::<String>()
        + &format!("{h:?}");
    assert_nothing_secret(&peer, &shown);
}

/// The authorization URL's redirect (the peer approves at once).
fn follow(url: &str) -> String {
    let (status, headers, body) = http("GET", url);
    assert!(status.contains(" 302 "), "{status} {body}");
    headers
        .iter()
        .find(|(k, _)| k == "location")
        .map(|(_, v)| v.clone())
        .expect("a Location")
}

#[test]
fn a2ui_agent_signs_in_with_oauth_through_its_loopback_and_prints_no_secret() {
    use std::io::BufRead;
    use std::process::{Command, Stdio};
    let peer = start(Venv::Main, "mcp_oauth_peer.py");
    let url = peer.url("/mcp");
    let exe = crate::a2ui_agent_cli::exe();

    // Without --oauth: refused, the challenge names the metadata.
    let out = Command::new(&exe)
        .args(["--mcp-url", &url, "--send", "pasta"])
        .output()
        .expect("run a2ui_agent");
    assert_eq!(out.status.code(), Some(2));
    let line: Value =
        serde_json::from_slice(out.stdout.split(|b| *b == b'\n').next().expect("a line"))
            .expect("JSON");
    assert_eq!(line["event"], "connectFailed");
    assert_eq!(line["error"]["kind"], "unauthorized");
    assert_eq!(
        line["error"]["challenge"]["resourceMetadata"],
        peer.url("/.well-known/oauth-protected-resource/mcp")
    );

    // With --oauth: the URL on stderr; the test is the browser. The tokens go to a file.
    let dir = std::env::temp_dir().join(format!("egui_a2ui-cli-oauth-{}", peer.port));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let store = dir.join("tokens.json");
    let store = store.to_str().expect("a UTF-8 path");
    let mut child = Command::new(&exe)
        .args([
            "--mcp-url",
            &url,
            "--oauth",
            "--no-browser",
            "--oauth-store",
            store,
            "--send",
            "pasta",
            "--dump",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run a2ui_agent");
    let stderr = child.stderr.take().expect("stderr");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stderr).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut err_lines = Vec::new();
    let auth_url = loop {
        let line = rx
            .recv_timeout(Duration::from_secs(60))
            .unwrap_or_else(|_| panic!("no sign-in URL within 60 s: {err_lines:?}"));
        if let Some(u) = line.strip_prefix("a2ui_agent: sign in at ") {
            break u.to_owned();
        }
        err_lines.push(line);
    };
    let location = follow(&auth_url);
    assert!(location.starts_with("http://127.0.0.1:"), "{location}");
    let (status, _, _) = http("GET", &location);
    assert!(status.contains(" 200 "), "{status}");
    // Bounded: the turn and the dump, then it exits (killed after 60 s).
    let (done_tx, done_rx) = std::sync::mpsc::channel();
    let mut stdout = child.stdout.take().expect("stdout");
    std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stdout.read_to_string(&mut s);
        let _ = done_tx.send(s);
    });
    let Ok(text) = done_rx.recv_timeout(Duration::from_secs(60)) else {
        let _ = child.kill();
        panic!("a2ui_agent did not finish within 60 s");
    };
    let status = child.wait().expect("wait");
    assert_eq!(status.code(), Some(0), "{text}");
    let (events, dump) = text.split_at(text.find("\n{\n").expect("the dump") + 1);
    let events: Vec<Value> = events
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    assert_eq!(events[0]["event"], "authorize", "{events:?}");
    assert_eq!(events[0]["server"], url);
    assert_eq!(events[1]["event"], "connected", "{events:?}");
    let ended: Vec<&Value> = events
        .iter()
        .filter(|e| e["event"] == "turnEnded")
        .collect();
    assert_eq!(ended.len(), 1);
    assert!(ended[0]["error"].is_null(), "{ended:?}");
    let dump: Value = serde_json::from_str(dump).expect("dump");
    assert!(
        dump["surfaces"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|s| s["surfaceId"] == "status"),
        "{dump}"
    );
    // Only the authorization URL was shown (stderr, for the user); no token, code or
    // secret anywhere.
    let mut shown = text.clone();
    while let Ok(l) = rx.recv_timeout(Duration::from_millis(200)) {
        shown.push_str(&l);
    }
    shown.push_str(&err_lines.join("\n"));
    assert_nothing_secret(&peer, &shown);
    assert_eq!(grants(&peer), ["authorization_code"]);

    // Again with the store file: no sign-in, the turn works (bounded: killed after 60 s).
    let mut again = Command::new(&exe)
        .args([
            "--mcp-url",
            &url,
            "--oauth",
            "--no-browser",
            "--oauth-store",
            store,
            "--send",
            "pasta",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("run a2ui_agent");
    let mut stdout = again.stdout.take().expect("stdout");
    let (done_tx, done_rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stdout.read_to_string(&mut s);
        let _ = done_tx.send(s);
    });
    let Ok(text) = done_rx.recv_timeout(Duration::from_secs(60)) else {
        let _ = again.kill();
        panic!("the second run asked for a sign-in or hung");
    };
    assert_eq!(again.wait().expect("wait").code(), Some(0), "{text}");
    assert!(!text.contains("\"authorize\""), "{text}");
    assert!(text.contains("\"connected\""), "{text}");
    assert_eq!(seen(&peer)["authorizations"], 1);
    let _ = std::fs::remove_dir_all(&dir);
}
