//! The soak (not in CI): the host helpers running for a long time against agents that never
//! stop streaming, drawn every frame, with the process's RSS sampled every minute.
//!
//! - AG-UI: `AguiHost` against the AG-UI peer (`tests/peers/agui_peer.py`) on a run that
//!   streams an `ACTIVITY_DELTA` every 100 ms (`soak:SECONDS`), each appending an
//!   `updateDataModel` operation, as an agent streaming a live view does;
//! - MCP: `McpHost::spawn` of the viewer's demo server (`--serve-demo`) showing its live
//!   dashboard, which announces `notifications/resources/updated` every second (each read
//!   back with `resources/read` and applied).
//!
//! Every 16 ms both hosts are polled and their surfaces drawn into a headless egui frame.
//! Prints one CSV line a minute: `minute,rss_kib,agui_events,mcp_events,agui_errors,mcp_errors`.
//!
//! `scripts/soak.sh [MINUTES]` builds what it needs and runs it (default 60 minutes).
//! Or by hand: `cargo run --release --example soak --features a2a,agui,mcp-http --
//! --minutes 60 --python tests/peers/.venv/bin/python --demo target/release/examples/viewer`.

use std::time::{Duration, Instant};

use egui_a2ui::render::DrawState;
use egui_a2ui::transport::agui::AguiHost;
use egui_a2ui::transport::mcp_http::McpHost;
use egui_a2ui::transport::{TransportEvent, TransportOptions, Turn};
use egui_a2ui::{Catalog, Renderer};

fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse().ok())
        })
        .unwrap_or(0)
}

fn flag(args: &[String], name: &str) -> Option<String> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .cloned()
}

/// Start the AG-UI peer; its port from its `LISTENING <port>` line.
fn start_peer(python: &str) -> (std::process::Child, u16) {
    use std::io::BufRead as _;
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/peers/agui_peer.py");
    let mut child = std::process::Command::new(python)
        .arg(script)
        .env("PEER_LIFETIME_S", "100000")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{python} {script}: {e}"));
    let stdout = child.stdout.take().expect("stdout");
    let mut line = String::new();
    std::io::BufReader::new(stdout)
        .read_line(&mut line)
        .expect("the peer's port");
    let port = line
        .trim()
        .strip_prefix("LISTENING ")
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("unexpected peer output {line:?}"));
    (child, port)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let minutes: u64 = flag(&args, "--minutes")
        .and_then(|m| m.parse().ok())
        .unwrap_or(60);
    let python = flag(&args, "--python").unwrap_or_else(|| "tests/peers/.venv/bin/python".into());
    let demo = flag(&args, "--demo").unwrap_or_else(|| "target/release/examples/viewer".into());
    let seconds = minutes * 60;

    let (mut peer, port) = start_peer(&python);
    let url = format!("http://127.0.0.1:{port}/");
    let mut agui = AguiHost::connect(&url, Catalog::basic(), TransportOptions::default(), || {})
        .expect("AG-UI host");
    agui.send(Turn::Text(format!("soak:{}", seconds + 30)))
        .expect("the soak run");
    let catalog = Catalog::basic();
    let mut mcp = McpHost::spawn(
        &demo,
        &["--serve-demo".into()],
        &catalog,
        TransportOptions::default(),
        || {},
    )
    .expect("the demo server");
    // The demo server pushes 600 updates (ten minutes) per `show_dashboard`: asked again
    // once they ended (each call is a new session with its own surfaces).
    let mut next_dashboard = Instant::now();

    let ctx = egui::Context::default();
    Renderer::install(&ctx);
    let mut agui_draw = DrawState::new(Catalog::basic());
    let mut mcp_draw = DrawState::new(Catalog::basic());
    let (mut agui_events, mut mcp_events, mut agui_errors, mut mcp_errors) =
        (0u64, 0u64, 0u64, 0u64);
    let count = |events: &[TransportEvent], n: &mut u64, errors: &mut u64| {
        *n += events.len() as u64;
        for e in events {
            if let TransportEvent::TurnEnded { error: Some(err) } = e {
                *errors += 1;
                eprintln!("turn error: {err}");
            }
            if let TransportEvent::Rejected { error } = e {
                *errors += 1;
                eprintln!("rejected: {error}");
            }
            if let TransportEvent::Notice(error) = e {
                *errors += 1;
                eprintln!("notice: {error}");
            }
        }
    };
    println!("minute,rss_kib,agui_events,mcp_events,agui_errors,mcp_errors");
    let start = Instant::now();
    let mut next_sample = start;
    let mut minute = 0;
    while start.elapsed() < Duration::from_secs(seconds) {
        let frame = Instant::now();
        count(&agui.poll(), &mut agui_events, &mut agui_errors);
        count(&mcp.poll(), &mut mcp_events, &mut mcp_errors);
        if Instant::now() >= next_dashboard
            && mcp.server().is_some()
            && !mcp.is_busy()
            && mcp.send(Turn::Text("show_dashboard {}".into())).is_ok()
        {
            next_dashboard += Duration::from_secs(615);
        }
        let mut output = ctx.run_ui(Default::default(), |ui| {
            if let Some(session) = agui.session_mut() {
                let _ = egui_a2ui::panel::agui_session_ui(session, &mut agui_draw, ui);
            }
            for session in mcp.conversation_mut().hub_mut().sessions_mut() {
                let _ = mcp_draw.ui(session.store_mut(), ui);
            }
        });
        output.textures_delta.clear();
        if Instant::now() >= next_sample {
            println!(
                "{minute},{},{agui_events},{mcp_events},{agui_errors},{mcp_errors}",
                rss_kib()
            );
            minute += 1;
            next_sample += Duration::from_secs(60);
        }
        std::thread::sleep(Duration::from_millis(16).saturating_sub(frame.elapsed()));
    }
    println!(
        "{minute},{},{agui_events},{mcp_events},{agui_errors},{mcp_errors}",
        rss_kib()
    );
    let _ = peer.kill();
}
