//! Starting the Python peers of `tests/peers/` (real servers on the official SDKs) on
//! 127.0.0.1 and a free port, and small loopback fakes for the faults the SDKs cannot make.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// Which venv a peer runs in.
#[derive(Clone, Copy)]
pub enum Venv {
    /// a2a-sdk 0.3 + a2ui-a2a, ag-ui-protocol, mcp (`tests/peers/requirements.txt`).
    Main,
    /// a2a-sdk 1.x (`tests/peers/requirements-a2a1.txt`).
    A2a1,
    /// a2ui-agent-sdk, the Express oracle (`tests/peers/requirements-sdk.txt`).
    Sdk,
}

/// `tests/peers` of the repository: under this crate, or above it for a workspace member
/// that includes this file (the viewer's tests).
fn peers_dir() -> PathBuf {
    let here = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    here.ancestors()
        .map(|d| d.join("tests/peers"))
        .find(|d| d.join("flow.py").exists())
        .unwrap_or_else(|| here.join("tests/peers"))
}

/// The venv's python: `$A2UI_PEERS_VENV` / `$A2UI_PEERS_VENV_A2A1` when set, else
/// `tests/peers/.venv` / `tests/peers/.venv-a2a1` (what `.ci/run` creates). Missing is a
/// failure with the command that makes it, never a silent pass.
pub fn python(venv: Venv) -> PathBuf {
    let (var, dir, req) = match venv {
        Venv::Main => ("A2UI_PEERS_VENV", ".venv", "requirements.txt"),
        Venv::A2a1 => (
            "A2UI_PEERS_VENV_A2A1",
            ".venv-a2a1",
            "requirements-a2a1.txt",
        ),
        Venv::Sdk => ("A2UI_PEERS_VENV_SDK", ".venv-sdk", "requirements-sdk.txt"),
    };
    let root = std::env::var_os(var)
        .map(PathBuf::from)
        .unwrap_or_else(|| peers_dir().join(dir));
    let py = root.join("bin/python");
    assert!(
        py.exists(),
        "the Python peers' venv is missing: no {} (set {var}, or create it as .ci/run does: \
         python3 -m venv tests/peers/{dir} && tests/peers/{dir}/bin/pip install -r tests/peers/{req})",
        py.display()
    );
    py
}

/// Run the `tests/peers` script `script` in `venv` with `args` and read the one JSON
/// document it prints (two minutes at most; a failure shows its stderr).
pub fn run_json_script<I, S>(venv: Venv, script: &str, args: I) -> serde_json::Value
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    let mut child = Command::new(python(venv))
        .arg(peers_dir().join(script))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("start {script}: {e}"));
    let mut stdout = child.stdout.take().expect("stdout");
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stdout.read_to_string(&mut s);
        s
    });
    let start = std::time::Instant::now();
    let status = loop {
        if let Some(st) = child.try_wait().expect("wait") {
            break st;
        }
        if start.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{script} took over 120 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let out = reader.join().expect("reader");
    let mut err = String::new();
    if let Some(mut e) = child.stderr.take() {
        let _ = e.read_to_string(&mut err);
    }
    assert!(status.success(), "{script} failed: {err}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{script} printed no JSON: {e}"))
}

/// A running peer; killed when dropped.
pub struct Peer {
    child: Child,
    /// Its port on 127.0.0.1.
    pub port: u16,
}

impl Peer {
    /// `http://127.0.0.1:PORT` + `path`.
    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    /// Whether the process is still running.
    pub fn is_running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }
}

impl Drop for Peer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Start `tests/peers/SCRIPT` and wait (at most 60 s) for its `LISTENING <port>` line. Its
/// standard input stays open: the peer exits when it closes (or after its own lifetime cap).
pub fn start(venv: Venv, script: &str) -> Peer {
    start_with_env(venv, script, &[])
}

/// [`start`] with extra environment variables (`PEER_STEP_DELAY_S`, say).
pub fn start_with_env(venv: Venv, script: &str, env: &[(&str, &str)]) -> Peer {
    let mut child = Command::new(python(venv))
        .arg(peers_dir().join(script))
        .env("PYTHONUNBUFFERED", "1")
        .env("PEER_LIFETIME_S", "180")
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start the peer");
    let stdout = child.stdout.take().expect("peer stdout");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(stdout).read_line(&mut line);
        let _ = tx.send(line);
    });
    let line = rx
        .recv_timeout(Duration::from_secs(60))
        .expect("the peer did not say LISTENING within 60 s");
    let port = line
        .trim()
        .strip_prefix("LISTENING ")
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("unexpected first line from {script}: {line:?}"));
    Peer { child, port }
}

/// A loopback HTTP server answering its first `responses.len()` connections with these raw
/// responses, in order (each written whole, then the connection closed; a `None` body part
/// stalls: the connection stays open without a byte for `stall`). Returns the base URL.
pub fn fake_server(responses: Vec<Vec<Option<Vec<u8>>>>, stall: Duration) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
    let port = listener.local_addr().expect("addr").port();
    std::thread::spawn(move || {
        // One connection per canned response, each served on its own thread (a stalled one
        // does not hold up the next).
        for chunks in responses {
            let Ok((conn, _)) = listener.accept() else {
                return;
            };
            std::thread::spawn(move || serve_one(conn, chunks, stall));
        }
    });
    format!("http://127.0.0.1:{port}")
}

fn serve_one(mut conn: std::net::TcpStream, chunks: Vec<Option<Vec<u8>>>, stall: Duration) {
    let _ = conn.set_read_timeout(Some(Duration::from_secs(5)));
    // Read the request head and body (Content-Length), bounded.
    let mut buf = Vec::new();
    let mut tmp = [0u8; 4096];
    for _ in 0..256 {
        let Ok(n) = conn.read(&mut tmp) else { break };
        if n == 0 {
            break;
        }
        buf.extend_from_slice(&tmp[..n]);
        if let Some(end) = find(&buf, b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&buf[..end]).to_ascii_lowercase();
            let len = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .and_then(|v| v.trim().parse::<usize>().ok())
                .unwrap_or(0);
            if buf.len() >= end + 4 + len {
                break;
            }
        }
    }
    for c in chunks {
        match c {
            Some(bytes) => {
                let _ = conn.write_all(&bytes);
                let _ = conn.flush();
            }
            None => std::thread::sleep(stall),
        }
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// A whole HTTP/1.1 response with a body (`Connection: close`).
pub fn http_response(status: &str, content_type: &str, body: &[u8]) -> Vec<u8> {
    let mut r = format!(
        "HTTP/1.1 {status}\r\ncontent-type: {content_type}\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
        body.len()
    )
    .into_bytes();
    r.extend_from_slice(body);
    r
}

/// The head of a streamed SSE response (the body follows until the connection closes).
pub fn sse_head() -> Vec<u8> {
    b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nconnection: close\r\n\r\n".to_vec()
}
