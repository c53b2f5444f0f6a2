//! The viewer against the real peers of `tests/peers/` (the official Python SDKs, on
//! 127.0.0.1): `--a2a`, `--agui` and `--mcp-url`, driven headless through egui_kittest. A
//! message typed in the prompt box goes out, the transcript and the task or run state show,
//! the surfaces grow as the stream arrives, a button on a surface sends the action back, and
//! every request and answer is in the action log. AG-UI activities still building show the
//! lifecycle skeleton; a failed one shows its errors.

#[path = "../../../tests/common/peers.rs"]
mod peers;

use std::time::{Duration, Instant};

use egui::Key;
use egui_a2ui::agent::ThreadEntry;
use egui_a2ui::transport::TaskState;
use egui_a2ui_viewer::source::{AgentSource, ScriptStep};
use egui_a2ui_viewer::{App as ViewerApp, Cli, LogKind, Source};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use peers::{Venv, start};

fn harness(cli: Cli) -> Harness<'static, ViewerApp> {
    // The app needs the harness's context (repaint requests from its threads): a
    // placeholder that starts nothing, then the real one.
    let placeholder = ViewerApp::new(
        egui::Context::default(),
        Cli {
            no_agent: true,
            ..Cli::default()
        },
    );
    let mut h = Harness::builder()
        .with_size(egui::vec2(1280.0, 900.0))
        .build_ui_state(|ui, app: &mut ViewerApp| app.ui(ui), placeholder);
    *h.state_mut() = ViewerApp::new(h.ctx.clone(), cli);
    h.run_steps(3);
    h
}

/// `kind` is the target's scheme prefix (`a2a`, `agui`, `mcp`), as `--a2a URL` makes it.
fn remote(kind: &str, url: String, script: Vec<ScriptStep>) -> Cli {
    Cli {
        remote: Some(format!("{kind}+{url}")),
        script,
        tab: Some("actions".into()),
        ..Cli::default()
    }
}

/// Step the UI in real time until `cond` holds: at most 120 s and 6,000 steps (a machine
/// busy building other crates is slow to start and run the peers).
fn wait_for(
    h: &mut Harness<'static, ViewerApp>,
    what: &str,
    cond: impl Fn(&Harness<'static, ViewerApp>) -> bool,
) {
    let start = Instant::now();
    let mut steps = 0u32;
    while !cond(h) {
        steps += 1;
        let src = source(h);
        assert!(
            start.elapsed() < Duration::from_secs(120) && steps < 6_000,
            "timed out waiting for {what} ({steps} steps); state {:?}, last error {:?}, errors {:?}",
            src.state(),
            src.last_error(),
            h.state().log().errors()
        );
        std::thread::sleep(Duration::from_millis(20));
        h.step();
    }
    h.run_steps(2);
}

fn source<'a>(h: &'a Harness<'static, ViewerApp>) -> &'a AgentSource {
    h.state().source::<AgentSource>().expect("the agent source")
}

fn has_label(h: &Harness<'static, ViewerApp>, text: &str) -> bool {
    h.query_all_by_label_contains(text).next().is_some()
}

fn log_kinds(h: &Harness<'static, ViewerApp>, kind: LogKind) -> Vec<String> {
    h.state()
        .log()
        .entries()
        .iter()
        .filter(|e| e.kind == kind)
        .map(|e| e.title.clone())
        .collect()
}

/// Type into the prompt box and press Enter.
fn say(h: &mut Harness<'static, ViewerApp>, text: &str) {
    h.get_by_role_and_label(egui::accesskit::Role::TextInput, "Message")
        .click();
    h.run_steps(2);
    h.get_by_role_and_label(egui::accesskit::Role::TextInput, "Message")
        .type_text(text);
    h.run_steps(1);
    h.key_press(Key::Enter);
    h.run_steps(2);
}

#[test]
fn a2a_conversation_in_the_viewer_prompt_surfaces_actions_and_the_log() {
    let peer = start(Venv::Main, "a2a03_peer.py");
    let mut h = harness(remote("a2a", peer.url(""), Vec::new()));
    wait_for(&mut h, "the agent card", |h| source(h).is_connected());
    assert!(
        log_kinds(&h, LogKind::Response)
            .iter()
            .any(|t| t == "agent card"),
        "the card is in the log: {:?}",
        log_kinds(&h, LogKind::Response)
    );

    say(&mut h, "pasta");
    wait_for(&mut h, "the results", |h| {
        has_label(h, "Noodle Bar") && !h.state().sources()[0].is_busy()
    });
    let src = source(&h);
    assert!(matches!(
        src.thread().first(),
        Some(ThreadEntry::User { text }) if text == "pasta"
    ));
    assert!(
        src.thread()
            .iter()
            .any(|e| matches!(e, ThreadEntry::Agent { .. })),
        "the agent's text is in the thread"
    );
    assert_eq!(src.state(), Some(&TaskState::InputRequired));
    assert!(
        has_label(&h, "state: input-required"),
        "the task state is drawn"
    );
    assert!(has_label(&h, "pasta"), "the transcript is drawn");
    let requests = log_kinds(&h, LogKind::Request);
    assert_eq!(requests, ["request message/stream"]);
    let responses = log_kinds(&h, LogKind::Response);
    assert!(
        responses.iter().filter(|t| t.starts_with("result")).count() >= 4,
        "every streamed event is logged: {responses:?}"
    );

    // A button on the surface: the action goes back as the next turn.
    h.query_all_by_label("Pick")
        .next()
        .expect("a Pick button")
        .click();
    wait_for(&mut h, "the booking form", |h| {
        source(h).stores()[0].1.surface("booking").is_some() && !h.state().sources()[0].is_busy()
    });
    assert_eq!(log_kinds(&h, LogKind::Request).len(), 2);
    assert!(
        log_kinds(&h, LogKind::A2ui)
            .iter()
            .any(|t| t.starts_with("action pick")),
        "{:?}",
        log_kinds(&h, LogKind::A2ui)
    );
    drop(peer);
}

#[test]
fn agui_conversation_in_the_viewer_text_messages_run_state_and_deltas() {
    let peer = start(Venv::Main, "agui_peer.py");
    let mut h = harness(remote(
        "agui",
        peer.url("/"),
        vec![ScriptStep::Send("pasta".into())],
    ));
    wait_for(&mut h, "the first run", |h| {
        source(h).script_left() == 0 && !h.state().sources()[0].is_busy()
    });
    let src = source(&h);
    assert_eq!(src.state(), Some(&TaskState::Completed));
    assert!(has_label(&h, "state: completed"));
    let agent_text: Vec<&str> = src
        .thread()
        .iter()
        .filter_map(|e| match e {
            ThreadEntry::Agent { text } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    assert!(
        !agent_text.is_empty(),
        "TEXT_MESSAGE_* reached the transcript"
    );
    assert!(has_label(&h, "Pasta Place"), "the surface is drawn");
    assert!(
        !has_label(&h, "Building the interface"),
        "the painted snapshot replaced the building state"
    );
    let responses = log_kinds(&h, LogKind::Response);
    assert!(
        responses.iter().any(|t| t == "event ACTIVITY_DELTA"),
        "{responses:?}"
    );
    assert!(responses.iter().any(|t| t == "event TEXT_MESSAGE_CONTENT"));
    assert_eq!(log_kinds(&h, LogKind::Request), ["request RunAgentInput"]);

    // The next turn through the prompt box.
    say(&mut h, "fault:failed");
    wait_for(&mut h, "the failed activity", |h| {
        has_label(h, "gave up after 2 attempts") && !h.state().sources()[0].is_busy()
    });
    assert!(has_label(&h, "The agent could not build this interface"));
    assert!(
        log_kinds(&h, LogKind::Note)
            .iter()
            .any(|t| t == "lifecycle retrying"),
        "{:?}",
        log_kinds(&h, LogKind::Note)
    );
    assert!(has_label(&h, "Pasta Place"), "surfaces already drawn stay");
    drop(peer);
}

#[test]
fn agui_building_state_is_drawn_while_the_surface_is_not_there() {
    // A slow peer: the building snapshot stays up for a while before the painted one.
    let peer = peers::start_with_env(Venv::Main, "agui_peer.py", &[("PEER_STEP_DELAY_S", "3")]);
    let mut h = harness(remote(
        "agui",
        peer.url("/"),
        vec![ScriptStep::Send("pasta".into())],
    ));
    wait_for(&mut h, "the building skeleton", |h| {
        has_label(h, "Building the interface… 12 tokens")
    });
    assert!(!has_label(&h, "Pasta Place"), "nothing painted yet");
    wait_for(&mut h, "the painted surface", |h| {
        has_label(h, "Pasta Place")
    });
    drop(peer);
}

#[test]
fn mcp_over_http_in_the_viewer_scripted_turns_and_the_log() {
    let peer = start(Venv::Main, "mcp_peer.py");
    let mut h = harness(remote(
        "mcp",
        peer.url("/mcp"),
        vec![
            ScriptStep::Send("pasta".into()),
            ScriptStep::Click("pick-r3".into()),
        ],
    ));
    wait_for(&mut h, "both turns", |h| {
        source(h).script_left() == 0 && !h.state().sources()[0].is_busy()
    });
    let src = source(&h);
    assert_eq!(src.state(), Some(&TaskState::Completed));
    assert!(
        src.stores()
            .iter()
            .any(|(_, s)| s.surface("booking").is_some()),
        "the pick reached the server and the form came back"
    );
    let responses = log_kinds(&h, LogKind::Response);
    assert!(
        responses.iter().any(|t| t == "tools/list result"),
        "{responses:?}"
    );
    assert_eq!(
        responses
            .iter()
            .filter(|t| *t == "tools/call result")
            .count(),
        2
    );
    assert_eq!(log_kinds(&h, LogKind::ToolsCall).len(), 2);
    drop(peer);
}

#[test]
fn a_turn_in_flight_stops_with_the_stop_button_and_the_origin_is_shown() {
    let peer = start(Venv::Main, "a2a03_peer.py");
    // The peer sends one step, then stalls for 30 s.
    let mut h = harness(remote(
        "a2a",
        peer.url(""),
        vec![ScriptStep::Send("fault:stall".into())],
    ));
    wait_for(&mut h, "the first step, then the stall", |h| {
        source(h)
            .thread()
            .iter()
            .any(|e| matches!(e, ThreadEntry::Surface { .. }))
    });
    // Who the agent is, as the connection knows it: the card's name and the endpoint.
    let status = h.state().sources()[0].status();
    assert!(
        matches!(&status, egui_a2ui_viewer::Status::Open(s)
            if s.starts_with("A2A · ") && s.contains("127.0.0.1")),
        "{status:?}"
    );
    assert!(has_label(&h, "A2A · "), "and drawn");
    assert!(h.state().sources()[0].is_busy());
    h.get_by_label("Stop").click();
    wait_for(&mut h, "the cancelled task", |h| {
        source(h).state() == Some(&TaskState::Canceled)
    });
    assert!(has_label(&h, "state: canceled"));
    assert!(h.query_by_label("Stop").is_none(), "nothing left to stop");
    assert!(
        log_kinds(&h, LogKind::Request)
            .iter()
            .any(|t| t == "request tasks/cancel"),
        "{:?}",
        log_kinds(&h, LogKind::Request)
    );
    // The surface drawn stays, and the next turn goes through.
    say(&mut h, "pasta");
    wait_for(&mut h, "the next turn", |h| {
        has_label(h, "Noodle Bar") && !h.state().sources()[0].is_busy()
    });
    drop(peer);
}

#[test]
fn an_unreachable_agent_is_a_failed_status_and_an_error_not_a_hang() {
    // A port nothing listens on (bound, then released).
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port");
    let mut h = harness(remote(
        "a2a",
        format!("http://127.0.0.1:{port}"),
        vec![ScriptStep::Send("hello".into())],
    ));
    wait_for(&mut h, "the connect failure", |h| {
        !h.state().log().errors().is_empty()
    });
    assert!(
        h.state().log().errors()[0]
            .text
            .contains("cannot reach the agent"),
        "{:?}",
        h.state().log().errors()
    );
    assert!(
        !h.state().sources()[0].is_busy(),
        "--frames would not wait for it"
    );
}

#[test]
fn the_command_line_takes_one_network_agent_and_its_script() {
    use egui_a2ui_viewer::parse_args;
    let args = |a: &[&str]| parse_args(a.iter().map(|s| (*s).to_owned()));
    let (cli, _) = args(&[
        "--agui",
        "http://127.0.0.1:1/",
        "--send",
        "hi",
        "--click",
        "b",
    ])
    .unwrap();
    assert_eq!(cli.remote.as_deref(), Some("agui+http://127.0.0.1:1/"));
    assert_eq!(
        cli.script,
        [ScriptStep::Send("hi".into()), ScriptStep::Click("b".into())]
    );
    let (cli, _) = args(&["--mcp-url", "http://127.0.0.1:1/mcp"]).unwrap();
    assert_eq!(cli.remote.as_deref(), Some("mcp+http://127.0.0.1:1/mcp"));
    let (cli, _) = args(&["--agent", "mcp+stdio:server --flag"]).unwrap();
    assert_eq!(cli.remote.as_deref(), Some("mcp+stdio:server --flag"));
    assert!(args(&["--a2a", "http://a", "--mcp-url", "http://b"]).is_err());
    assert!(args(&["--a2a", "http://a", "--stdin"]).is_err());
    assert!(args(&["--send", "hi"]).is_err(), "a script needs an agent");
    assert!(args(&["--mcp-url"]).is_err(), "a URL is needed");
    // A model behind an OpenAI-compatible chat API, and headers kept secret.
    let (cli, _) = args(&[
        "--model",
        "http://127.0.0.1:11434/v1",
        "--model-name",
        "llama3.2",
        "--header",
        "Authorization: Bearer sk-1",
    ])
    .unwrap();
    assert_eq!(
        cli.remote.as_deref(),
        Some("chat+http://127.0.0.1:11434/v1#llama3.2")
    );
    assert_eq!(cli.headers.len(), 1);
    assert_eq!(cli.headers[0].0, "Authorization");
    assert_eq!(cli.headers[0].1.expose(), "Bearer sk-1");
    assert!(!format!("{cli:?}").contains("sk-1"), "no secret in Debug");
    assert!(
        args(&["--model", "http://m/v1"]).is_err(),
        "a model name too"
    );
    assert!(args(&["--header", "no colon"]).is_err());
}

/// A `401`: the viewer asks for credentials in a dialog (the header the challenge names,
/// the value obscured); Connect reaches the agent again with them and sends the refused
/// turn again; the key is in no log entry.
#[test]
fn a_401_opens_the_credentials_dialog_and_the_turn_goes_through_with_them() {
    const TOKEN: &str = "viewer-test-token-4821";
    let peer = peers::start_with_env(Venv::Main, "a2a03_peer.py", &[("PEER_BEARER_TOKEN", TOKEN)]);
    let mut h = harness(remote("a2a", peer.url(""), Vec::new()));
    // The card is public; the message is not.
    wait_for(&mut h, "the agent card", |h| source(h).is_connected());
    say(&mut h, "pasta");
    wait_for(&mut h, "the credentials dialog", |h| {
        has_label(h, "Credentials")
    });
    assert!(
        has_label(&h, "Bearer credentials"),
        "the challenge's scheme is named"
    );
    let value = h.get_by_role_and_label(egui::accesskit::Role::PasswordInput, "Value");
    value.click();
    h.run_steps(2);
    // The field starts with "Bearer " for an Authorization header.
    h.get_by_role_and_label(egui::accesskit::Role::PasswordInput, "Value")
        .type_text(TOKEN);
    h.run_steps(2);
    h.get_by_label("Connect").click();
    h.run_steps(2);
    wait_for(&mut h, "the results after connecting", |h| {
        has_label(h, "Noodle Bar") && !h.state().sources()[0].is_busy()
    });
    assert!(!has_label(&h, "Credentials"), "the dialog closed");
    let log = format!("{:?}", h.state().log().entries());
    assert!(!log.contains(TOKEN), "the token is not in the log");
    drop(peer);
}

/// A plain HTTP/1.0 request on 127.0.0.1 (bounded by a 10 s read timeout): the status
/// line, the `Location` header, the body.
fn http_get(url: &str) -> (String, Option<String>, String) {
    use std::io::{Read, Write};
    let rest = url.strip_prefix("http://").expect("an http URL");
    let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let mut conn = std::net::TcpStream::connect(authority).expect("connect");
    conn.set_read_timeout(Some(Duration::from_secs(10)))
        .expect("timeout");
    write!(conn, "GET {path} HTTP/1.0\r\nHost: {authority}\r\n\r\n").expect("write");
    let mut raw = String::new();
    conn.read_to_string(&mut raw).expect("read");
    let (head, body) = raw.split_once("\r\n\r\n").unwrap_or((&raw, ""));
    let location = head.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        k.eq_ignore_ascii_case("location")
            .then(|| v.trim().to_owned())
    });
    (
        head.lines().next().unwrap_or_default().to_owned(),
        location,
        body.to_owned(),
    )
}

/// An MCP server that signs in with OAuth 2.1 (the official SDK's auth support): its `401`
/// names protected-resource metadata, so the credentials dialog offers the browser sign-in
/// beside the header fields; the sign-in opens the page (here a stand-in browser that
/// follows the server's redirect to the viewer's loopback listener), the viewer connects,
/// and the turn draws. No token, code or secret reaches the log.
#[test]
fn an_mcp_oauth_challenge_offers_the_browser_sign_in_and_it_gets_in() {
    let peer = start(Venv::Main, "mcp_oauth_peer.py");
    let mut h = harness(remote("mcp", peer.url("/mcp"), Vec::new()));
    let opened = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let o = opened.clone();
    h.state_mut()
        .source_mut::<AgentSource>()
        .expect("the agent source")
        .set_browser(std::sync::Arc::new(move |url: &str| {
            o.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            let url = url.to_owned();
            std::thread::spawn(move || {
                let (status, location, body) = http_get(&url);
                assert!(status.contains(" 302 "), "{status} {body}");
                let (status, _, _) = http_get(&location.expect("a redirect"));
                assert!(status.contains(" 200 "), "{status}");
            });
            Ok(())
        }));
    wait_for(&mut h, "the credentials dialog", |h| {
        has_label(h, "Credentials")
    });
    assert!(has_label(&h, "Bearer credentials"), "the scheme is named");
    h.get_by_label("Sign in with the browser").click();
    h.run_steps(2);
    wait_for(&mut h, "the connection after signing in", |h| {
        source(h).is_connected()
    });
    assert_eq!(opened.load(std::sync::atomic::Ordering::SeqCst), 1);
    assert!(!has_label(&h, "Credentials"), "the dialog closed");
    say(&mut h, "pasta");
    wait_for(&mut h, "the surface", |h| {
        has_label(h, "Signed in") && !h.state().sources()[0].is_busy()
    });
    let log = format!("{:?}", h.state().log().entries());
    let (_, _, seen) = http_get(&peer.url("/peer/seen"));
    let seen: serde_json::Value = serde_json::from_str(&seen).expect("JSON");
    let secrets = seen["secrets"].as_array().expect("secrets");
    assert!(!secrets.is_empty(), "{seen}");
    for s in secrets {
        let s = s.as_str().expect("a string");
        assert!(!log.contains(s), "a secret is in the log");
    }
    drop(peer);
}
