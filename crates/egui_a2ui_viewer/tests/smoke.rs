//! The viewer and game_panel examples open a real window under Xvfb (software GL through
//! the glow renderer), paint a few frames and quit by themselves with exit code 0.
//!
//! Without `xvfb-run` these tests report `ignored` with the reason and the package to install:
//! this crate's build script looks for `xvfb-run` on `PATH` and sets `cfg(has_xvfb)` when it
//! finds it. They never pass without running. `.ci/run` installs Xvfb and fails if any of them
//! was ignored there.

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

/// `target/<profile>/examples/<name>`, next to this test's `deps/` folder; built with cargo
/// when it is not there (a lone `cargo test --test smoke` builds this crate's examples anyway,
/// `game_panel` is the library's).
fn example(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("test binary path");
    let dir = exe.parent().and_then(|d| d.parent()).expect("target dir");
    let path = dir.join("examples").join(name);
    if !path.exists() {
        let package = if name == "viewer" {
            "egui_a2ui_viewer"
        } else {
            "egui_a2ui"
        };
        let status = Command::new(env!("CARGO"))
            .args(["build", "-p", package, "--example", name])
            .status()
            .expect("run cargo build");
        assert!(status.success(), "cargo build --example {name} failed");
    }
    path
}

/// One Xvfb at a time: `xvfb-run -a` picks its display number racily.
static XVFB: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Run `bin args` under a fresh Xvfb display; returns (exit code, stderr).
fn run_under_xvfb(bin: &PathBuf, args: &[&str]) -> (Option<i32>, String) {
    let (code, _stdout, stderr) = run_with_input(bin, args, None);
    (code, stderr)
}

/// Like [`run_under_xvfb`], writing `input` to the child's stdin; also returns its stdout.
fn run_with_input(
    bin: &PathBuf,
    args: &[&str],
    input: Option<&[u8]>,
) -> (Option<i32>, String, String) {
    let _one = XVFB
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let mut child = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x800x24"])
        .arg(bin)
        .args(args)
        .stdin(if input.is_some() {
            std::process::Stdio::piped()
        } else {
            std::process::Stdio::null()
        })
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn xvfb-run");
    if let Some(bytes) = input {
        use std::io::Write;
        let mut stdin = child.stdin.take().expect("stdin");
        stdin.write_all(bytes).expect("write stdin");
        // Dropping it closes the pipe: the viewer sees end of input.
    }
    let start = Instant::now();
    loop {
        if let Some(_status) = child.try_wait().expect("wait") {
            break;
        }
        if start.elapsed() > Duration::from_secs(180) {
            let _ = child.kill();
            panic!("{} {args:?} did not exit within 180 s", bin.display());
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let out = child.wait_with_output().expect("output");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
#[cfg_attr(
    not(has_xvfb),
    ignore = "xvfb-run not found: apt-get install xvfb xauth"
)]
fn viewer_paints_a_bundled_sample_and_exits() {
    let (code, stderr) = run_under_xvfb(
        &example("viewer"),
        &["--frames", "20", "--sample", "form-validation"],
    );
    assert_eq!(code, Some(0), "stderr: {stderr}");
}

#[test]
#[cfg_attr(
    not(has_xvfb),
    ignore = "xvfb-run not found: apt-get install xvfb xauth"
)]
fn viewer_paints_the_generated_100k_list_and_exits() {
    let (code, stderr) = run_under_xvfb(
        &example("viewer"),
        &["--frames", "10", "--sample", "100k-list", "--tab", "data"],
    );
    assert_eq!(code, Some(0), "stderr: {stderr}");
}

#[test]
#[cfg_attr(
    not(has_xvfb),
    ignore = "xvfb-run not found: apt-get install xvfb xauth"
)]
fn viewer_no_argument_launch_with_the_demo_agent_exits() {
    // The no-argument launch spawns `viewer --serve-demo` and connects over MCP stdio.
    let dir = std::env::temp_dir().join(format!("viewer-smoke-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let shot = dir.join("agent.png");
    let (code, stderr) = run_under_xvfb(
        &example("viewer"),
        &[
            "--frames",
            "10",
            "--call",
            r#"search_flights {"destination": "SFO"}"#,
            "--screenshot",
            shot.to_str().unwrap(),
        ],
    );
    assert_eq!(code, Some(0), "stderr: {stderr}");
    // The screenshot is taken once the agent answered; it is a real, non-empty PNG.
    let png = std::fs::read(&shot).expect("the screenshot was saved");
    assert!(png.starts_with(b"\x89PNG"), "not a PNG");
    assert!(
        png.len() > 10_000,
        "suspiciously small screenshot: {} bytes",
        png.len()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
#[cfg_attr(
    not(has_xvfb),
    ignore = "xvfb-run not found: apt-get install xvfb xauth"
)]
fn viewer_opens_a_malformed_file_without_crashing() {
    let dir = std::env::temp_dir().join(format!("viewer-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.jsonl");
    std::fs::write(
        &bad,
        "{not json\n{\"version\":\"v0.9\",\"nope\":{}}\n[1,2\n",
    )
    .unwrap();
    let (code, stderr) = run_under_xvfb(
        &example("viewer"),
        &["--frames", "10", bad.to_str().unwrap()],
    );
    assert_eq!(code, Some(0), "stderr: {stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
#[cfg_attr(
    not(has_xvfb),
    ignore = "xvfb-run not found: apt-get install xvfb xauth"
)]
fn game_panel_paints_and_exits() {
    let (code, stderr) = run_under_xvfb(&example("game_panel"), &["--frames", "20"]);
    assert_eq!(code, Some(0), "stderr: {stderr}");
}

#[test]
#[cfg_attr(
    not(has_xvfb),
    ignore = "xvfb-run not found: apt-get install xvfb xauth"
)]
fn viewer_stdin_mode_reads_jsonl_and_answers_on_stdout() {
    // A surface, then a malformed line: the renderer's error report goes out on stdout as
    // one JSON line (the reader and writer threads at work).
    let input = concat!(
        r#"{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json"}}"#,
        "\n",
        r#"{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":"hi"}]}}"#,
        "\n",
        "{this is not json\n",
    );
    let (code, stdout, stderr) = run_with_input(
        &example("viewer"),
        &["--stdin", "--frames", "60"],
        Some(input.as_bytes()),
    );
    assert_eq!(code, Some(0), "stderr: {stderr}");
    let lines: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect();
    assert_eq!(lines.len(), 1, "{stdout}");
    assert_eq!(lines[0]["version"], "v0.9");
    assert_eq!(lines[0]["error"]["code"], "VALIDATION_FAILED");
}
