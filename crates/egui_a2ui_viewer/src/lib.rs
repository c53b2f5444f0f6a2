//! The egui_a2ui viewer: a gallery of A2UI streams, a live agent host (A2UI JSONL on
//! stdin, or an MCP server over stdio), a data-model inspector, an action log and a message
//! stepper. The `viewer` example of this crate is its command line
//! (`cargo run --example viewer` from the repository's root):
//!
//! ```text
//! cargo run --example viewer                          gallery + the built-in demo agent over MCP
//! cargo run --example viewer -- path/to/stream.jsonl  open a stream (or drop files on the window)
//! cargo run --example viewer -- --stdin               A2UI JSONL in on stdin, renderer messages out on stdout
//! cargo run --example viewer -- --mcp "CMD ARGS..."   host any MCP server over stdio
//! cargo run --example viewer -- --a2a URL             an A2A agent (its base URL; the card is read)
//! cargo run --example viewer -- --agui URL            an AG-UI endpoint (RunAgentInput over SSE)
//! cargo run --example viewer -- --mcp-url URL         an MCP server over Streamable HTTP
//! cargo run --example viewer -- --agent TARGET        any agent egui_a2ui::agent::Agent::connect reaches
//! cargo run --example viewer -- --model URL --model-name NAME   a model behind an OpenAI-compatible chat API
//! cargo run --example viewer -- --serve-demo          be the demo MCP server (no window)
//! cargo run --example viewer -- --model-stream FILE [--tps 40]   replay a recorded model answer
//! ```
//!
//! Other flags: `--sample NAME` (open a bundled sample), `--no-agent`, `--tab
//! data|actions|errors|stepper`, `--call 'TOOL {"json": "args"}'` (call a tool once the
//! agent is connected), `--send TEXT` and `--click COMPONENT_ID` (with `--a2a`, `--agui`,
//! `--mcp-url` or `--agent`: turns to run in order once connected, each after the previous
//! one ended; repeatable), `--frames N` (quit after N frames), `--screenshot FILE.png` (save
//! the window after `--frames` frames, once the agent is idle, then quit).
//!
//! # The pieces
//!
//! - [`App`]: the window. It keeps the gallery's stream under the stepper (a
//!   [`source::DocSource`]), the live sources, and the [`ActivityLog`] every source writes to.
//!   [`App::ui`] draws it inside any [`egui::Ui`], so tests drive it headless through
//!   `egui_kittest`.
//! - [`Source`]: where surfaces come from. [`source::DocSource`] (a gallery stream or an
//!   opened file), [`source::StdinSource`] (`--stdin`), [`source::ModelStreamSource`]
//!   (`--model-stream`), [`source::AgentSource`] (every agent: `--a2a`, `--agui`,
//!   `--mcp-url`, `--mcp`, `--agent`, the demo agent; one `egui_a2ui::agent::Agent`
//!   whatever the transport). Each owns its stores, polls its worker threads, draws its
//!   surfaces and routes their events.
//! - [`panels`]: the gallery and the inspector tabs, each a function of what it shows.
//! - [`gallery`]: the bundled samples by group, and the viewer's catalog (basic + `Gauge`).
//! - [`demo_server`]: the built-in demo agent, an MCP server (`--serve-demo`).
//! - [`media`]: the renderer options of every source (media from `file:` and the samples'
//!   media URLs mapped to the committed files under `tests/data/media/`) and the gallery's
//!   Media samples (the music player, a podcast, videos).
//!
//! # Adding a source
//!
//! 1. A file under `src/source/` with a type implementing [`Source`]: start the transport
//!    on a thread of its own in its constructor (never block the UI), take in what arrived
//!    in [`Source::poll`], draw and route events in [`Source::ui`] (see
//!    [`source::StdinSource`], about 150 lines, for the pattern), and `pub use` it from
//!    `source/mod.rs`.
//! 2. A flag in [`Cli`] and [`parse_args`], and one branch in `App::start_sources` (in
//!    `app.rs`) that builds the source and hands it to [`App::add_source`].
//! 3. A test in `tests/app.rs` that builds the [`App`] with the flag and reaches the source
//!    with [`App::source`].
//!
//! The gallery, the Data and Errors tabs and `--frames` / `--screenshot` then work for it
//! without further change.
//!
//! # Adding a gallery group
//!
//! Put the streams (`.json` or `.jsonl`, any form `egui_a2ui::stream::parse_document` reads)
//! in a folder under the repository's `assets/samples/`, and add one
//! [`gallery::GalleryGroup`] line to [`gallery::GROUPS`]. Components of an extended catalog
//! they use are registered in [`gallery::catalog`] (as `Gauge` is).

// Library code never unwraps or panics; tests may (see the workspace's Cargo.toml).
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

pub mod activity;
mod app;
pub mod demo_server;
pub mod gallery;
mod json_tree;
pub mod media;
pub mod panels;
mod samples;
pub mod source;

pub use activity::{ActivityLog, ErrorEntry, LogEntry, LogKind};
pub use app::App;
pub use panels::{Tab, View};
pub use source::{Source, Status};

use std::path::PathBuf;

/// The command line's usage text.
pub const USAGE: &str = "usage: viewer [STREAM_FILE] [--sample NAME] [--stdin | --mcp \"CMD ARGS\" | --serve-demo | --no-agent]
              [--a2a URL | --agui URL | --mcp-url URL | --agent TARGET | --model URL --model-name NAME]
              [--header 'Name: value']... [--send TEXT | --click COMPONENT_ID]...
              [--tab data|actions|errors|stepper] [--call 'TOOL {json args}']
              [--model-stream ANSWER.txt [--tps N]]
              [--frames N] [--screenshot FILE.png] [--size WxH]";

/// How the viewer was started.
#[derive(Clone, Debug, Default)]
pub struct Cli {
    /// Stream files to open.
    pub paths: Vec<PathBuf>,
    /// A bundled sample to select.
    pub sample: Option<String>,
    /// Read A2UI JSONL from stdin.
    pub stdin: bool,
    /// Host this MCP server (command line).
    pub mcp: Option<String>,
    /// An agent, as `egui_a2ui::agent::Agent::connect` takes it (`--agent TARGET`;
    /// `--a2a URL` is `a2a+URL`, `--agui URL` `agui+URL`, `--mcp-url URL` `mcp+URL`).
    pub remote: Option<String>,
    /// Turns for the network agent, in order (`--send`, `--click`).
    pub script: Vec<source::ScriptStep>,
    /// Do not start the demo agent.
    pub no_agent: bool,
    /// Right-hand tab to show.
    pub tab: Option<String>,
    /// A tool to call once connected, with JSON arguments.
    pub call: Option<String>,
    /// Quit after this many frames.
    pub frames: Option<u64>,
    /// Save a screenshot here, then quit.
    pub screenshot: Option<PathBuf>,
    /// Window size.
    pub size: Option<(f32, f32)>,
    /// Replay this recorded model answer (prose with `<a2ui-json>` blocks).
    pub model_stream: Option<PathBuf>,
    /// Tokens per second for `--model-stream` (default 40).
    pub tps: Option<f64>,
    /// Headers sent with every request to a network agent (`--header 'Name: value'`),
    /// kept out of every log (their values are secrets).
    pub headers: Vec<(String, egui_a2ui::transport::Secret)>,
}

/// Parse the command line (without the program name): the options, and whether to be the
/// demo MCP server (`--serve-demo`) instead of opening a window.
///
/// # Errors
/// A message for an unknown flag, a missing or malformed value, or flags that exclude each
/// other; an empty message for `--help`.
pub fn parse_args(args: impl IntoIterator<Item = String>) -> Result<(Cli, bool), String> {
    let mut cli = Cli::default();
    let mut serve_demo = false;
    let (mut model, mut model_name) = (None, None);
    let mut it = args.into_iter();
    while let Some(a) = it.next() {
        let mut value = |name: &str| it.next().ok_or_else(|| format!("{name} needs a value"));
        match a.as_str() {
            "--stdin" => cli.stdin = true,
            "--serve-demo" => serve_demo = true,
            "--no-agent" => cli.no_agent = true,
            "--mcp" => cli.mcp = Some(value("--mcp")?),
            "--a2a" | "--agui" | "--mcp-url" | "--agent" => {
                let v = value(&a)?;
                let target = match a.as_str() {
                    "--agent" => v,
                    // `--a2a http://…` is `a2a+http://…`, and so on.
                    flag => format!("{}+{v}", flag.trim_start_matches("--").replace("-url", "")),
                };
                if cli.remote.is_some() {
                    return Err("give one of --a2a, --agui, --mcp-url, --agent".into());
                }
                cli.remote = Some(target);
            }
            "--header" => {
                let v = value("--header")?;
                let (name, val) = v
                    .split_once(':')
                    .filter(|(n, _)| !n.trim().is_empty())
                    .ok_or_else(|| "--header: expected 'Name: value'".to_owned())?;
                cli.headers
                    .push((name.trim().to_owned(), val.trim().into()));
            }
            "--model" => model = Some(value("--model")?),
            "--model-name" => model_name = Some(value("--model-name")?),
            "--send" => cli.script.push(source::ScriptStep::Send(value("--send")?)),
            "--click" => cli
                .script
                .push(source::ScriptStep::Click(value("--click")?)),
            "--sample" => cli.sample = Some(value("--sample")?),
            "--tab" => cli.tab = Some(value("--tab")?),
            "--call" => cli.call = Some(value("--call")?),
            "--frames" => {
                let v = value("--frames")?;
                cli.frames = Some(
                    v.parse()
                        .map_err(|_| format!("--frames: not a number: {v}"))?,
                );
            }
            "--screenshot" => cli.screenshot = Some(PathBuf::from(value("--screenshot")?)),
            "--size" => {
                let v = value("--size")?;
                let (w, h) = v
                    .split_once('x')
                    .and_then(|(w, h)| Some((w.parse().ok()?, h.parse().ok()?)))
                    .ok_or_else(|| format!("--size: expected WxH, got {v}"))?;
                cli.size = Some((w, h));
            }
            "--model-stream" => cli.model_stream = Some(PathBuf::from(value("--model-stream")?)),
            "--tps" => {
                let v = value("--tps")?;
                cli.tps = Some(v.parse().map_err(|_| format!("--tps: not a number: {v}"))?);
            }
            "-h" | "--help" => return Err(String::new()),
            s if s.starts_with("--") => return Err(format!("unknown flag {s}")),
            _ => cli.paths.push(PathBuf::from(a)),
        }
    }
    match (model, model_name) {
        // `--model URL --model-name NAME` is the agent `chat+URL#NAME`.
        (Some(url), Some(name)) => {
            if cli.remote.is_some() {
                return Err("give one of --a2a, --agui, --mcp-url, --agent, --model".into());
            }
            cli.remote = Some(format!("chat+{url}#{name}"));
        }
        (None, None) => {}
        _ => return Err("--model and --model-name go together".into()),
    }
    if cli.stdin && cli.mcp.is_some() {
        return Err("--stdin and --mcp exclude each other".into());
    }
    if cli.remote.is_some() && (cli.stdin || cli.mcp.is_some()) {
        return Err("--a2a, --agui, --mcp-url and --agent exclude --stdin and --mcp".into());
    }
    if !cli.script.is_empty() && cli.remote.is_none() && cli.mcp.is_none() {
        return Err("--send and --click need --a2a, --agui, --mcp-url, --agent or --mcp".into());
    }
    Ok((cli, serve_demo))
}

/// Run the viewer with these arguments (without the program name) and return the process's
/// exit code: 0, 1 when no window can open or the demo server fails, 2 for a bad command
/// line.
#[must_use]
#[expect(clippy::print_stderr, reason = "the command line's messages")]
pub fn run(args: impl IntoIterator<Item = String>) -> i32 {
    let (cli, serve_demo) = match parse_args(args) {
        Ok(c) => c,
        Err(e) => {
            if !e.is_empty() {
                eprintln!("viewer: {e}");
            }
            eprintln!("{USAGE}");
            return 2;
        }
    };
    if serve_demo {
        if let Err(e) = demo_server::serve_stdio() {
            eprintln!("viewer --serve-demo: {e}");
            return 1;
        }
        return 0;
    }
    if let Some(why) = no_display() {
        eprintln!("viewer: {why}");
        return 1;
    }
    let (w, h) = cli.size.unwrap_or((1280.0, 800.0));
    let options = eframe::NativeOptions {
        renderer: eframe::Renderer::Glow,
        viewport: egui::ViewportBuilder::default()
            .with_title("egui_a2ui viewer")
            .with_inner_size([w, h])
            .with_drag_and_drop(true),
        ..Default::default()
    };
    let result = eframe::run_native(
        "egui_a2ui viewer",
        options,
        Box::new(move |cc| Ok(Box::new(App::new(cc.egui_ctx.clone(), cli)))),
    );
    source::finish_writer();
    if let Err(e) = result {
        eprintln!("viewer: cannot open a window: {e}");
        return 1;
    }
    0
}

/// Why no window can open here, before winit fails with an OS error trace: on Linux and the
/// BSDs a window needs an X11 or Wayland display.
#[must_use]
pub fn no_display() -> Option<&'static str> {
    let unix_desktop = cfg!(all(
        unix,
        not(target_os = "macos"),
        not(target_os = "android")
    ));
    let set = |k: &str| std::env::var_os(k).is_some_and(|v| !v.is_empty());
    (unix_desktop && !set("DISPLAY") && !set("WAYLAND_DISPLAY") && !set("WAYLAND_SOCKET"))
        .then_some(
            "no display: neither DISPLAY nor WAYLAND_DISPLAY is set. Run the viewer in a desktop \
         session, or headless under Xvfb: `xvfb-run -a cargo run --example viewer`.",
        )
}
