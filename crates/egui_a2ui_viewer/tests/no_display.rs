//! On a machine with no display the viewer says so in one line and exits with code 1, rather
//! than printing winit's OS error or a panic trace.

use std::path::PathBuf;
use std::process::Command;

/// `target/<profile>/examples/viewer`, next to this test's `deps/` folder; built when absent.
fn viewer() -> PathBuf {
    let exe = std::env::current_exe().expect("test binary path");
    let dir = exe.parent().and_then(|d| d.parent()).expect("target dir");
    let path = dir.join("examples").join("viewer");
    if !path.exists() {
        let status = Command::new(env!("CARGO"))
            .args(["build", "-p", "egui_a2ui_viewer", "--example", "viewer"])
            .status()
            .expect("run cargo build");
        assert!(status.success(), "cargo build --example viewer failed");
    }
    path
}

#[test]
#[cfg(all(unix, not(target_os = "macos")))]
fn viewer_without_a_display_explains_and_exits() {
    let out = Command::new(viewer())
        .arg("--no-agent")
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("WAYLAND_SOCKET")
        .output()
        .expect("run the viewer");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "stderr: {stderr}");
    assert!(stderr.contains("no display"), "stderr: {stderr}");
    assert!(stderr.contains("xvfb-run"), "stderr: {stderr}");
    assert!(!stderr.contains("panicked"), "stderr: {stderr}");
    assert!(!stderr.contains("EventLoopError"), "stderr: {stderr}");
}
