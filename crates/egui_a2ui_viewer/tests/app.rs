//! The viewer's own window logic, driven headless through egui_kittest (AccessKit): the
//! gallery, the stepper, the live data model, the action log, and the full MCP loop with
//! the demo agent (a real `viewer --serve-demo` child over stdio): search → select →
//! confirmation.

use std::time::{Duration, Instant};

use egui::accesskit::Role;
use egui_a2ui_viewer::source::AgentSource;
use egui_a2ui_viewer::{App as ViewerApp, Cli, LogKind, View};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use serde_json::json;

fn viewer_bin() -> std::path::PathBuf {
    let exe = std::env::current_exe().expect("test binary path");
    let dir = exe.parent().and_then(|d| d.parent()).expect("target dir");
    let path = dir.join("examples").join("viewer");
    if !path.exists() {
        let status = std::process::Command::new(env!("CARGO"))
            .args(["build", "-p", "egui_a2ui_viewer", "--example", "viewer"])
            .status()
            .expect("run cargo build");
        assert!(status.success(), "cargo build --example viewer failed");
    }
    path
}

fn harness(cli: Cli) -> Harness<'static, ViewerApp> {
    // The app needs the harness's context (fonts, repaint requests from its threads), so
    // it is built in two steps: a placeholder that starts nothing, then the real one.
    let placeholder = ViewerApp::new(
        egui::Context::default(),
        Cli {
            no_agent: true,
            ..Cli::default()
        },
    );
    let mut h = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .build_ui_state(|ui, app: &mut ViewerApp| app.ui(ui), placeholder);
    *h.state_mut() = ViewerApp::new(h.ctx.clone(), cli);
    h.run_steps(3);
    h
}

/// Step the UI (in real time) until `cond` holds. The agent is a child process, so this
/// waits on the clock; the bound is generous (two minutes, 6,000 steps) because a machine
/// busy building other crates can take tens of seconds to start a child, and a test must not
/// fail for that. A broken flow still fails, just later.
fn wait_for(
    h: &mut Harness<'static, ViewerApp>,
    what: &str,
    cond: impl Fn(&Harness<'static, ViewerApp>) -> bool,
) {
    let start = Instant::now();
    let mut steps = 0u32;
    while !cond(h) {
        steps += 1;
        assert!(
            start.elapsed() < Duration::from_secs(120) && steps < 6_000,
            "timed out waiting for {what} ({steps} steps, {:?})",
            start.elapsed()
        );
        std::thread::sleep(Duration::from_millis(20));
        h.step();
    }
    h.run_steps(2);
}

#[test]
fn gallery_lists_every_bundled_stream_and_renders_them_without_errors() {
    let h = harness(Cli {
        no_agent: true,
        ..Cli::default()
    });
    let keys = h
        .state()
        .sample_keys()
        .iter()
        .map(|k| k.to_string())
        .collect::<Vec<_>>();
    assert_eq!(
        &keys[..5],
        [
            "form-validation",
            "dashboard",
            "search-results",
            "custom-component",
            "100k-list"
        ]
    );
    let official_v09 = keys
        .iter()
        .filter(|k| k.starts_with("00_") || k.starts_with("3"))
        .count();
    assert!(keys.len() >= 5 + 35 + 29, "{} samples", keys.len());
    assert!(official_v09 > 0);
    assert!(
        h.state().log().errors().is_empty(),
        "{:?}",
        h.state()
            .log()
            .errors()
            .iter()
            .map(|e| &e.text)
            .collect::<Vec<_>>()
    );
    drop(h);
    // Every showcase stream applies cleanly (the official ones are checked by the
    // conformance suite).
    for key in [
        "form-validation",
        "dashboard",
        "custom-component",
        "100k-list",
    ] {
        let h = harness(Cli {
            no_agent: true,
            sample: Some(key.into()),
            ..Cli::default()
        });
        let doc = h.state().doc().expect("a stream");
        assert_eq!(doc.cursor, doc.frames.len());
        assert!(
            doc.renderer.store().errors().is_empty(),
            "{key}: {:?}",
            doc.renderer.store().errors()
        );
        assert!(
            doc.renderer.store().surfaces().all(|s| s.is_visible()),
            "{key}"
        );
    }
}

#[test]
fn the_hundred_thousand_row_list_is_generated_and_edits_reach_the_model() {
    let mut h = harness(Cli {
        no_agent: true,
        sample: Some("100k-list".into()),
        ..Cli::default()
    });
    let rows = h
        .state()
        .doc()
        .unwrap()
        .renderer
        .store()
        .surface("big")
        .unwrap()
        .data
        .get("/rows")
        .and_then(|r| r.as_array().map(Vec::len));
    assert_eq!(rows, Some(100_000));
    // Only the rows in view exist as widgets.
    let boxes = h.query_all_by_label("packed").count();
    assert!((1..200).contains(&boxes), "{boxes} row checkboxes laid out");
    // Row #2 (index 1) is not packed; tick it.
    let before = h
        .state()
        .doc()
        .unwrap()
        .renderer
        .store()
        .surface("big")
        .unwrap()
        .data
        .get("/rows/1/done")
        .cloned();
    assert_eq!(before, Some(json!(false)));
    h.query_all_by_label("packed").nth(1).unwrap().click();
    h.run_steps(2);
    let after = h
        .state()
        .doc()
        .unwrap()
        .renderer
        .store()
        .surface("big")
        .unwrap()
        .data
        .get("/rows/1/done")
        .cloned();
    assert_eq!(after, Some(json!(true)));
}

#[test]
fn the_custom_gauge_writes_its_binding_and_the_data_tab_follows() {
    let mut h = harness(Cli {
        no_agent: true,
        sample: Some("custom-component".into()),
        ..Cli::default()
    });
    let cpu = |h: &Harness<'static, ViewerApp>| {
        h.state()
            .doc()
            .unwrap()
            .renderer
            .store()
            .surface("custom")
            .unwrap()
            .data
            .get("/cpu")
            .cloned()
    };
    assert_eq!(cpu(&h), Some(json!(42)));
    h.get_by_role_and_label(Role::ProgressIndicator, "CPU")
        .click();
    h.run_steps(2);
    assert_eq!(cpu(&h), Some(json!(47.0)));
    // The data-model tree shows the new value.
    assert!(
        h.query_all_by_label("47.0").next().is_some()
            || h.query_all_by_label("47").next().is_some()
    );
}

#[test]
fn stepper_replays_a_stream_one_message_at_a_time() {
    let mut h = harness(Cli {
        no_agent: true,
        sample: Some("dashboard".into()),
        tab: Some("stepper".into()),
        ..Cli::default()
    });
    let total = h.state().doc().unwrap().frames.len();
    assert_eq!(total, 120);
    h.get_by_label("Reset").click();
    h.run_steps(2);
    assert_eq!(h.state().doc().unwrap().cursor, 0);
    assert!(
        h.state()
            .doc()
            .unwrap()
            .renderer
            .store()
            .surfaces()
            .next()
            .is_none()
    );
    for _ in 0..3 {
        h.get_by_label("Step").click();
        h.run_steps(1);
    }
    let doc = h.state().doc().unwrap();
    assert_eq!(doc.cursor, 3);
    assert_eq!(
        doc.renderer
            .store()
            .surface("dash")
            .unwrap()
            .data
            .get("/tick"),
        Some(&json!(0))
    );
    h.get_by_label("Back").click();
    h.run_steps(1);
    assert_eq!(h.state().doc().unwrap().cursor, 2);
    h.get_by_label("All").click();
    h.run_steps(1);
    let doc = h.state().doc().unwrap();
    assert_eq!(doc.cursor, total);
    assert_eq!(
        doc.renderer
            .store()
            .surface("dash")
            .unwrap()
            .data
            .get("/tick"),
        Some(&json!(39))
    );
}

#[test]
fn gallery_actions_are_logged_as_a2ui_messages_and_tools_calls() {
    let mut h = harness(Cli {
        no_agent: true,
        sample: Some("02_email-compose".into()),
        tab: Some("actions".into()),
        ..Cli::default()
    });
    assert!(matches!(h.state().view(), View::Sample(_)));
    h.get_by_label("Send email").click();
    h.run_steps(2);
    let log = h.state().log().entries();
    let kinds: Vec<LogKind> = log.iter().map(|e| e.kind).collect();
    assert!(
        kinds.contains(&LogKind::A2ui) && kinds.contains(&LogKind::ToolsCall),
        "{kinds:?}"
    );
    let call = log.iter().find(|e| e.kind == LogKind::ToolsCall).unwrap();
    let v: serde_json::Value = serde_json::from_str(&call.json).unwrap();
    assert_eq!(v["method"], "tools/call");
    // sendDataModel: true: the data model rides along in _meta.
    assert!(
        v["params"]["_meta"]["a2uiClientDataModel"]["surfaces"].is_object(),
        "{v}"
    );
}

#[test]
fn malformed_input_shows_errors_instead_of_crashing() {
    let dir = std::env::temp_dir().join(format!("viewer-app-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.jsonl");
    std::fs::write(&bad, "{not json\n{\"version\":\"v0.9\",\"nope\":{}}\n").unwrap();
    let mut h = harness(Cli {
        no_agent: true,
        paths: vec![bad.clone()],
        ..Cli::default()
    });
    wait_for(&mut h, "the file to load", |h| {
        h.state().doc().is_some_and(|d| d.frames.len() == 2)
    });
    let doc = h.state().doc().unwrap();
    assert_eq!(
        doc.renderer.store().errors().len(),
        2,
        "{:?}",
        doc.renderer.store().errors()
    );
    let _ = std::fs::remove_dir_all(&dir);

    let missing = Cli {
        no_agent: true,
        paths: vec!["/nonexistent/stream.jsonl".into()],
        ..Cli::default()
    };
    let mut h = harness(missing);
    wait_for(&mut h, "the read error", |h| {
        h.state().log().errors().iter().any(|e| e.source == "open")
    });
}

#[test]
fn a_failing_agent_command_leaves_the_gallery_usable() {
    let cli = Cli {
        mcp: Some("/nonexistent/agent --flag".into()),
        ..Cli::default()
    };
    let mut h = harness(cli);
    wait_for(&mut h, "the connection error", |h| {
        h.state()
            .log()
            .errors()
            .iter()
            .any(|e| e.source == "MCP stdio" && e.text.contains("/nonexistent/agent"))
    });
    h.get_by_label("Form with validation").click();
    h.run_steps(2);
    assert!(matches!(h.state().view(), View::Sample(_)));
}

#[test]
fn demo_agent_flight_search_select_and_confirmation() {
    flight_search_select_and_confirmation(&viewer_bin());
}

/// A new user passes an absolute path, often a long one (a clone deep in a home folder, a
/// venv's python): the agent's command must not widen the gallery and push the surface out of
/// the window. Reached here through a symlink in a folder with a 200-character name.
#[test]
fn a_long_agent_command_leaves_the_surface_whole_and_clickable() {
    let dir = std::env::temp_dir()
        .join(format!("egui-a2ui-{}", std::process::id()))
        .join("a-very-long-folder-name-".repeat(8));
    std::fs::create_dir_all(&dir).expect("create the long folder");
    let link = dir.join("viewer");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(viewer_bin(), &link).expect("symlink the viewer");
    let h = flight_search_select_and_confirmation(&link);
    let window = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1280.0, 800.0));
    // The command shows in the gallery and as the agent view's heading, truncated in both.
    let labels: Vec<_> = h
        .query_all_by_label_contains("a-very-long-folder-name-")
        .collect();
    assert!(!labels.is_empty(), "the agent's command is shown");
    let mut drawn = 0;
    for label in labels {
        // A node without bounds is not drawn (the origin now also names nodes of the
        // surface, as the library labels every store); every one drawn stays in the window.
        let Some(b) = egui_kittest::kittest::NodeT::accesskit_node(&label).bounding_box() else {
            continue;
        };
        drawn += 1;
        let rect = egui::Rect::from_min_max(
            egui::pos2(b.x0 as f32, b.y0 as f32),
            egui::pos2(b.x1 as f32, b.y1 as f32),
        );
        assert!(
            window.contains_rect(rect),
            "the command is truncated to the window, not drawn at {rect:?}"
        );
    }
    assert!(drawn >= 2, "the gallery and the heading show the command");
    // The confirmation's text is drawn inside the window, not clipped off its right edge.
    for node in h.query_all_by_label_contains("Booked LY005") {
        assert!(
            window.contains_rect(node.rect()),
            "{:?} is outside the window",
            node.rect()
        );
    }
    let _ = std::fs::remove_dir_all(dir.parent().expect("temp folder"));
}

fn flight_search_select_and_confirmation(bin: &std::path::Path) -> Harness<'static, ViewerApp> {
    let cli = Cli {
        mcp: Some(format!("{} --serve-demo", bin.display())),
        call: Some(r#"search_flights {"destination": "SFO"}"#.into()),
        tab: Some("actions".into()),
        ..Cli::default()
    };
    let mut h = harness(cli);
    assert!(matches!(h.state().view(), View::Live(_)));
    assert!(h.state().source::<AgentSource>().is_some());
    wait_for(&mut h, "the flight list", |h| {
        h.query_all_by_label("Select").count() == 3
    });
    assert!(
        h.query_by_label_contains("Found 3 flights to SFO")
            .is_some(),
        "the text fallback is in the transcript"
    );

    let window = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1280.0, 800.0));
    for select in h.query_all_by_label("Select") {
        assert!(
            window.contains_rect(select.rect()),
            "a Select button is clipped: {:?}",
            select.rect()
        );
    }
    h.query_all_by_label("Select").nth(1).unwrap().click();
    h.run_steps(1);
    // The text fallback in the transcript and the confirmation on the surface.
    wait_for(&mut h, "the confirmation", |h| {
        h.query_all_by_label_contains("Booked LY005").count() == 2
    });
    assert_eq!(h.query_all_by_label("Select").count(), 0);
    let calls: Vec<serde_json::Value> = h
        .state()
        .log()
        .entries()
        .iter()
        .filter(|e| e.kind == LogKind::ToolsCall)
        .map(|e| serde_json::from_str(&e.json).unwrap())
        .collect();
    assert_eq!(calls.len(), 2);
    assert_eq!(calls[1]["params"]["name"], "select_flight");
    assert_eq!(
        calls[1]["params"]["arguments"],
        json!({"flightId": "LY005"})
    );
    assert_eq!(
        calls[1]["params"]["_meta"]["a2uiClientDataModel"]["surfaces"]["flights"]["destination"],
        "SFO"
    );
    h
}

#[test]
fn demo_agent_dashboard_updates_live() {
    let cli = Cli {
        mcp: Some(format!("{} --serve-demo", viewer_bin().display())),
        call: Some("show_dashboard {}".into()),
        ..Cli::default()
    };
    let mut h = harness(cli);
    let tick = |h: &Harness<'static, ViewerApp>| {
        let agent = h.state().source::<AgentSource>()?;
        agent.session_stores().iter().find_map(|(_, s)| {
            s.surface("dashboard")
                .and_then(|d| d.data.get("/tick").cloned())
        })
    };
    wait_for(&mut h, "the dashboard", |h| tick(h).is_some());
    let first = tick(&h);
    wait_for(&mut h, "a pushed update", |h| tick(h) != first);
    // The Refresh button calls the app-only tool.
    let before = tick(&h);
    h.get_by_label("Refresh").click();
    h.run_steps(1);
    wait_for(&mut h, "the refresh", |h| tick(h) != before);
    assert!(
        h.state()
            .log()
            .entries()
            .iter()
            .any(|e| e.title.contains("refresh_dashboard"))
    );
}

/// The Media samples play the committed files their remote URLs map to (no network): the
/// official music player with a real AudioPlayer, a podcast, and videos (H.264 and AV1 with
/// sound; VP9 says "format not supported").
#[test]
fn media_samples_play_their_local_files() {
    let enabled = |h: &Harness<'static, ViewerApp>, n: usize| {
        h.query_all_by_role_and_label(Role::Button, "Play")
            .filter(|b| !egui_kittest::kittest::NodeT::accesskit_node(b).is_disabled())
            .count()
            >= n
    };
    for key in ["media-music-player", "media-podcast"] {
        let mut h = harness(Cli {
            no_agent: true,
            sample: Some(key.into()),
            ..Cli::default()
        });
        wait_for(&mut h, "the player loaded its file", |h| enabled(h, 1));
        assert!(h.query_by_label_contains("0:00 / 0:02").is_some(), "{key}");
        let doc = h.state().doc().expect("a stream");
        assert!(doc.renderer.store().errors().is_empty(), "{key}");
    }
    let mut h = harness(Cli {
        no_agent: true,
        sample: Some("media-video".into()),
        ..Cli::default()
    });
    wait_for(&mut h, "two videos loaded and VP9 refused", |h| {
        enabled(h, 2)
            && h.query_by_label_contains("format not supported: VP9")
                .is_some()
    });
}
