//! The `a2ui_agent` example against the real peers: every turn in order, one JSON line per
//! transport event, and last the conformance dump of the final state.

use crate::common::peers as peers_common;

use std::path::PathBuf;
use std::process::Command;

use peers_common::{Venv, start};
use serde_json::Value;

/// `target/<profile>/examples/a2ui_agent` (built by `cargo test`, or here when missing).
pub(crate) fn exe() -> PathBuf {
    let test = std::env::current_exe().expect("test exe");
    let dir = test.parent().and_then(|d| d.parent()).expect("target dir");
    let path = dir.join("examples").join("a2ui_agent");
    if !path.exists() {
        let status = Command::new(env!("CARGO"))
            .args([
                "build",
                "--example",
                "a2ui_agent",
                "--features",
                "a2a,agui,mcp-http",
            ])
            .status()
            .expect("cargo build");
        assert!(status.success());
    }
    path
}

/// Run it; the event lines and the dump.
fn run(args: &[&str]) -> (i32, Vec<Value>, Value) {
    let out = Command::new(exe())
        .args(args)
        .output()
        .expect("run a2ui_agent");
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let (events, dump) = match text.find("\n{\n") {
        Some(i) => (&text[..i], &text[i + 1..]),
        None => (text.as_str(), "null"),
    };
    let events = events
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not a JSON line ({e}): {l}")))
        .collect();
    let dump = serde_json::from_str(dump).unwrap_or_else(|e| panic!("dump ({e}): {dump}"));
    (out.status.code().unwrap_or(-1), events, dump)
}

fn surface<'a>(dump: &'a Value, id: &str) -> Option<&'a Value> {
    dump["surfaces"]
        .as_array()?
        .iter()
        .find(|s| s["surfaceId"] == id)
}

fn check_flow(code: i32, events: &[Value], dump: &Value, restaurant: &str) {
    assert_eq!(code, 0, "{events:#?}");
    assert_eq!(events[0]["event"], "connected");
    let ends: Vec<&Value> = events
        .iter()
        .filter(|e| e["event"] == "turnEnded")
        .collect();
    assert_eq!(ends.len(), 3, "three turns");
    assert!(ends.iter().all(|e| e["error"].is_null()), "{ends:?}");
    // Each turn's request comes after the previous turn ended.
    let order: Vec<&str> = events
        .iter()
        .filter_map(|e| e["event"].as_str())
        .filter(|e| *e == "request" || *e == "turnEnded")
        .collect();
    assert_eq!(
        order,
        [
            "request",
            "turnEnded",
            "request",
            "turnEnded",
            "request",
            "turnEnded"
        ]
    );
    assert_eq!(dump["format"], "a2ui-oracle/1");
    let confirm = surface(dump, "confirm").expect("the confirmation surface");
    let text = confirm["tree"]["props"]["text"].as_str().unwrap();
    assert!(
        text.contains(restaurant) && text.contains("under Ada"),
        "{text}"
    );
    assert!(surface(dump, "results").is_none());
    assert!(surface(dump, "booking").is_some());
}

#[test]
fn a2a_0_3_agent_from_the_command_line() {
    let peer = start(Venv::Main, "a2a03_peer.py");
    let (code, events, dump) = run(&[
        "--a2a",
        &peer.url(""),
        "--send",
        "pasta",
        "--click",
        "pick-r1",
        "--click",
        "book",
        "--dump",
    ]);
    check_flow(code, &events, &dump, "Pasta Place");
    assert_eq!(events[0]["dialect"], "V0_3");
    assert!(
        events
            .iter()
            .any(|e| e["event"] == "state" && e["state"] == "input-required")
    );
}

#[test]
fn a2a_1_0_agent_from_the_command_line_without_streaming() {
    let peer = start(Venv::A2a1, "a2a10_peer.py");
    let (code, events, dump) = run(&[
        "--a2a",
        &peer.url(""),
        "--no-stream",
        "--send",
        "pasta",
        "--click",
        "pick-r2",
        "--click",
        "book",
        "--dump",
    ]);
    check_flow(code, &events, &dump, "Noodle Bar");
    assert_eq!(events[0]["dialect"], "V1_0");
    assert_eq!(events[1]["method"], "SendMessage");
}

#[test]
fn agui_agent_from_the_command_line() {
    let peer = start(Venv::Main, "agui_peer.py");
    let (code, events, dump) = run(&[
        "--agui",
        &peer.url("/"),
        "--send",
        "pasta",
        "--click",
        "pick-r3",
        "--click",
        "book",
        "--dump",
    ]);
    check_flow(code, &events, &dump, "Taco Stand");
    assert!(
        events
            .iter()
            .any(|e| e["event"] == "lifecycle" && e["status"] == "building")
    );
}

#[test]
fn mcp_over_http_from_the_command_line() {
    let peer = start(Venv::Main, "mcp_peer.py");
    let (code, events, dump) = run(&[
        "--mcp-url",
        &peer.url("/mcp"),
        "--send",
        "pasta",
        "--click",
        "pick-r1",
        "--click",
        "book",
        "--dump",
    ]);
    check_flow(code, &events, &dump, "Pasta Place");
}

#[test]
fn a_failed_turn_is_reported_and_the_next_one_runs() {
    let peer = start(Venv::Main, "a2a03_peer.py");
    let (code, events, dump) = run(&[
        "--a2a",
        &peer.url(""),
        "--click",
        "nothing-yet",
        "--send",
        "pasta",
        "--dump",
    ]);
    assert_eq!(code, 1, "a turn failed");
    let ends: Vec<&Value> = events
        .iter()
        .filter(|e| e["event"] == "turnEnded")
        .collect();
    assert_eq!(ends[0]["error"]["kind"], "action");
    assert!(ends[1]["error"].is_null());
    assert!(surface(&dump, "results").is_some());
}

#[test]
fn an_unreachable_agent_exits_2_with_a_typed_error() {
    // A port nobody listens on: bind, read the port, close.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let (code, events, _) = run(&["--a2a", &format!("http://127.0.0.1:{port}"), "--send", "x"]);
    assert_eq!(code, 2);
    assert_eq!(events[0]["event"], "connectFailed");
    assert_eq!(events[0]["error"]["kind"], "connect");
}

#[test]
fn header_flags_reach_an_agent_that_wants_a_token_and_the_token_is_never_printed() {
    const TOKEN: &str = "cli-tok-SECRET-91";
    let peer =
        peers_common::start_with_env(Venv::A2a1, "a2a10_peer.py", &[("PEER_BEARER_TOKEN", TOKEN)]);
    let url = peer.url("");
    // Without it: a typed refusal with the challenge, exit code 1.
    let (code, events, _) = run(&["--a2a", &url, "--send", "pasta"]);
    assert_eq!(code, 1, "{events:#?}");
    let end = events
        .iter()
        .find(|e| e["event"] == "turnEnded")
        .expect("turnEnded");
    assert_eq!(end["error"]["kind"], "unauthorized", "{end}");
    assert_eq!(end["error"]["challenge"]["scheme"], "Bearer", "{end}");
    // With it (and a second, harmless header): the turn works.
    let auth = format!("Authorization: Bearer {TOKEN}");
    let out = Command::new(exe())
        .args([
            "--a2a",
            &url,
            "--header",
            &auth,
            "--header",
            "X-Tenant: acme",
            "--send",
            "pasta",
        ])
        .output()
        .expect("run a2ui_agent");
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(out.status.code(), Some(0), "{all}");
    assert!(all.contains("\"surfaceId\": \"results\"") || all.contains("results"));
    assert!(!all.contains(TOKEN), "the token was printed");
}
