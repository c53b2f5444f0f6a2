//! The viewer window: gallery (left), surfaces (centre), inspector tabs (right).

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};

use egui_a2ui::{Catalog, Event, Renderer, SurfaceStore};
use serde_json::Value;

// `super::`, not `crate::`: tests include the viewer as a module (tests/viewer_app.rs).
use super::samples::{self, Sample, Source};
use super::source_agent::{Agent, Status};
use super::source_doc::Doc;
use super::source_stdin::StdinFeed;
use super::{Cli, mcp_host, stdio};

/// The right-hand tabs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tab {
    /// The live data model of every surface shown.
    Data,
    /// Renderer → agent messages and `tools/call` requests.
    Actions,
    /// Errors.
    Errors,
    /// The message stepper.
    Stepper,
}

impl Tab {
    pub(super) fn parse(s: &str) -> Option<Self> {
        Some(match s.to_ascii_lowercase().as_str() {
            "data" | "model" => Self::Data,
            "actions" | "log" => Self::Actions,
            "errors" => Self::Errors,
            "stepper" | "steps" => Self::Stepper,
            _ => return None,
        })
    }
}

/// What the centre shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    /// A gallery stream (with the stepper).
    Sample(usize),
    /// The MCP agent.
    Agent,
    /// The `--stdin` stream.
    Stdin,
}

/// One line of the action log.
pub struct LogEntry {
    /// Time of day.
    pub time: String,
    /// `a2ui`, `tools/call`, `result`, `note`.
    pub kind: &'static str,
    /// Short description.
    pub title: String,
    /// The message, pretty-printed.
    pub json: String,
}

/// One error.
pub struct ErrorEntry {
    /// Time of day.
    pub time: String,
    /// Where it came from.
    pub source: String,
    /// What happened.
    pub text: String,
}

pub(super) fn now() -> String {
    let ts = egui_a2ui::now_timestamp();
    ts.get(11..23).unwrap_or(&ts).to_owned()
}

pub(super) fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_else(|_| v.to_string())
}

pub(super) struct Loaded {
    path: PathBuf,
    bytes: Result<Vec<u8>, String>,
}

/// The app.
pub struct ViewerApp {
    pub(super) ctx: egui::Context,
    pub(super) catalog: Catalog,
    pub(super) samples: Vec<Sample>,
    pub(super) view: View,
    pub(super) doc: Option<Doc>,
    pub(super) agent: Option<Agent>,
    pub(super) stdin: Option<StdinFeed>,
    pub(super) tab: Tab,
    pub(super) log: Vec<LogEntry>,
    pub(super) errors: Vec<ErrorEntry>,
    pub(super) loads_tx: Sender<Loaded>,
    pub(super) loads_rx: Receiver<Loaded>,
    pub(super) frame: u64,
    pub(super) cli: Cli,
    pub(super) shot_done: Option<Arc<AtomicBool>>,
    pub(super) model: Option<super::model_stream::ModelStreamPlayer>,
}

const MAX_LOG: usize = 2000;

impl ViewerApp {
    /// Set up from the command line. Nothing here blocks on an agent: connections and file
    /// reads run on their own threads.
    pub fn new(ctx: egui::Context, cli: Cli) -> Self {
        let (loads_tx, loads_rx) = channel();
        let (samples, sample_errors) = samples::load_bundled();
        // The bundled fonts (Roboto, bold, symbols) and image loaders, before any text is
        // laid out; the renderer would otherwise install them on its first frame.
        egui_a2ui::Renderer::install(&ctx);
        // Debug builds of egui outline widgets placed off the pixel grid ("Unaligned");
        // the renderer's flex layout triggers it inside weighted Rows. Not useful here.
        // `Style::debug` exists only in debug builds of egui.
        #[cfg(debug_assertions)]
        ctx.all_styles_mut(|s| s.debug.show_unaligned = false);
        let mut app = Self {
            ctx: ctx.clone(),
            catalog: samples::catalog(),
            samples,
            view: View::Sample(0),
            doc: None,
            agent: None,
            stdin: None,
            tab: cli.tab.as_deref().and_then(Tab::parse).unwrap_or(Tab::Data),
            log: Vec::new(),
            errors: Vec::new(),
            loads_tx,
            loads_rx,
            frame: 0,
            cli: cli.clone(),
            shot_done: None,
            model: None,
        };
        if let Some(p) = &cli.model_stream {
            let tps = cli.tps.unwrap_or(40.0);
            match super::model_stream::ModelStreamPlayer::open(p, tps, app.catalog.clone()) {
                Ok(m) => app.model = Some(m),
                Err(e) => app.error("model-stream", e),
            }
        }
        for e in sample_errors {
            app.error("gallery", e);
        }
        if let Some(t) = cli.tab.as_deref()
            && Tab::parse(t).is_none()
        {
            app.error(
                "viewer",
                format!("unknown tab {t:?} (data, actions, errors, stepper)"),
            );
        }
        for p in &cli.paths {
            app.load_file(p.clone());
        }
        if !app.samples.is_empty() {
            let first = match cli.sample.as_deref() {
                Some(name) => samples::find(&app.samples, name).unwrap_or_else(|| {
                    app.error("viewer", format!("no bundled sample matches {name:?}"));
                    0
                }),
                None => 0,
            };
            app.select_sample(first);
        }
        let start_demo = cli.mcp.is_none()
            && !cli.stdin
            && !cli.no_agent
            && cli.paths.is_empty()
            && cli.sample.is_none();
        if cli.stdin {
            app.stdin = Some(StdinFeed {
                rx: stdio::spawn_reader(ctx.clone()),
                out: stdio::spawn_writer(),
                renderer: Renderer::new(app.catalog.clone()),
                bytes: 0,
                eof: false,
            });
            app.view = View::Stdin;
        } else if let Some(line) = cli.mcp.clone() {
            match mcp_host::split_command(&line) {
                Ok(mut words) => {
                    let program = words.remove(0);
                    app.connect(line.clone(), program, words);
                }
                Err(e) => app.error("mcp", format!("--mcp {line:?}: {e}")),
            }
        } else if start_demo {
            match std::env::current_exe() {
                Ok(exe) => app.connect(
                    "built-in demo agent".into(),
                    exe.to_string_lossy().into_owned(),
                    vec!["--serve-demo".into()],
                ),
                Err(e) => app.error("demo agent", format!("cannot find my own executable: {e}")),
            }
        }
        if let (Some(a), Some(call)) = (app.agent.as_mut(), cli.call.clone()) {
            a.auto_call = Some(call);
        }
        app
    }

    pub(super) fn error(&mut self, source: &str, text: impl Into<String>) {
        self.errors.push(ErrorEntry {
            time: now(),
            source: source.to_owned(),
            text: text.into(),
        });
    }

    pub(super) fn log(&mut self, kind: &'static str, title: impl Into<String>, v: &Value) {
        self.log.push(LogEntry {
            time: now(),
            kind,
            title: title.into(),
            json: pretty(v),
        });
        if self.log.len() > MAX_LOG {
            self.log.drain(..self.log.len() - MAX_LOG);
        }
    }

    /// Log the A2UI `action` message of a user action.
    pub(super) fn log_action(&mut self, action: &egui_a2ui::ActionEvent) {
        self.log(
            "a2ui",
            format!("action {} from {}", action.name, action.source_component_id),
            &action.to_message(),
        );
    }

    /// Log an event every source treats alike: a URL the viewer does not open, a reply to
    /// the agent (the sources route actions and errors themselves).
    pub(super) fn log_other_event(&mut self, e: &Event) {
        match e {
            Event::OpenUrl { url, .. } => {
                self.log(
                    "note",
                    format!("open {url} (not opened)"),
                    &serde_json::json!({"openUrl": url}),
                );
            }
            Event::Reply(m) => self.log("a2ui", "reply to the agent", m),
            Event::Action(_) | Event::Error(_) | Event::DataChanged { .. } => {}
        }
    }

    /// Read a file on a worker thread; it joins the gallery when it arrives.
    pub(super) fn load_file(&mut self, path: PathBuf) {
        let tx = self.loads_tx.clone();
        let ctx = self.ctx.clone();
        std::thread::spawn(move || {
            let bytes = std::fs::read(&path).map_err(|e| e.to_string());
            let _ = tx.send(Loaded { path, bytes });
            ctx.request_repaint();
        });
    }

    /// The action log, oldest first.
    #[allow(dead_code)]
    pub fn log_entries(&self) -> &[LogEntry] {
        &self.log
    }

    /// The errors, oldest first.
    #[allow(dead_code)]
    pub fn error_entries(&self) -> &[ErrorEntry] {
        &self.errors
    }

    /// The stream under the stepper.
    #[allow(dead_code)]
    pub fn doc(&self) -> Option<&Doc> {
        self.doc.as_ref()
    }

    /// The `--model-stream` replay, if any.
    pub fn model_stream(&mut self) -> Option<&mut super::model_stream::ModelStreamPlayer> {
        self.model.as_mut()
    }

    /// What the centre shows.
    #[allow(dead_code)]
    pub fn view(&self) -> View {
        self.view
    }

    /// The agent's sessions' surfaces, as (session id, store).
    #[allow(dead_code)]
    pub fn agent_stores(&self) -> Vec<(String, &SurfaceStore)> {
        self.agent
            .as_ref()
            .map(|a| {
                a.hub
                    .sessions()
                    .map(|s| (s.id().to_owned(), s.store()))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Every bundled sample's key.
    #[allow(dead_code)]
    pub fn sample_keys(&self) -> Vec<&str> {
        self.samples.iter().map(|s| s.key.as_str()).collect()
    }

    pub(super) fn poll(&mut self) {
        while let Ok(l) = self.loads_rx.try_recv() {
            let name = l.path.file_name().map_or_else(
                || l.path.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            );
            match l.bytes {
                Ok(bytes) => {
                    self.samples.push(Sample {
                        group: "Opened".into(),
                        title: name.clone(),
                        key: name,
                        description: l.path.display().to_string(),
                        source: Source::Bytes(Arc::new(bytes)),
                    });
                    self.select_sample(self.samples.len() - 1);
                }
                Err(e) => self.error("open", format!("{}: {e}", l.path.display())),
            }
        }
        self.poll_stdin();
        self.poll_agent();
    }

    /// The whole window (without eframe's frame, so tests can drive it headless).
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        self.frame += 1;
        self.poll();
        self.handle_drops(ui.ctx());
        self.step_player(ui.ctx());

        if self.model.is_none() {
            egui::Panel::left("gallery")
                .resizable(true)
                .default_size(250.0)
                .max_size(420.0)
                .show(ui, |ui| self.gallery_ui(ui));
            egui::Panel::right("inspector")
                .resizable(true)
                .default_size(400.0)
                .max_size(640.0)
                .show(ui, |ui| self.inspector_ui(ui));
        }
        egui::CentralPanel::default().show(ui, |ui| match self.model.as_mut() {
            Some(m) => m.ui(ui),
            None => self.centre_ui(ui),
        });

        if ui.ctx().input(|i| !i.raw.hovered_files.is_empty()) {
            let rect = ui.ctx().content_rect();
            let painter = ui.ctx().layer_painter(egui::LayerId::new(
                egui::Order::Foreground,
                egui::Id::unique("drop-overlay"),
            ));
            painter.rect_filled(rect, 0.0, egui::Color32::from_black_alpha(160));
            painter.text(
                rect.center(),
                egui::Align2::CENTER_CENTER,
                "Drop A2UI streams (.jsonl / .json) to open them",
                egui::FontId::proportional(24.0),
                egui::Color32::WHITE,
            );
        }
    }

    /// Frame counting, `--frames` and `--screenshot`.
    pub fn after_frame(&mut self, ctx: &egui::Context) {
        let Some(n) = self.cli.frames.or(self.cli.screenshot.as_ref().map(|_| 30)) else {
            return;
        };
        ctx.request_repaint();
        if self.frame < n {
            return;
        }
        // `--stdin`: read the whole input before quitting.
        if self.stdin.as_ref().is_some_and(|f| !f.eof) && self.frame < n + 3000 {
            return;
        }
        match &self.cli.screenshot {
            None => ctx.send_viewport_cmd(egui::ViewportCommand::Close),
            Some(path) => {
                if let Some(done) = &self.shot_done {
                    if done.load(Ordering::SeqCst) || self.frame > n + 3000 {
                        ctx.send_viewport_cmd(egui::ViewportCommand::Close);
                    }
                    return;
                }
                let busy = self.agent.as_ref().is_some_and(|a| {
                    matches!(a.status, Status::Connecting)
                        || !a.pending.is_empty()
                        || a.auto_call.is_some()
                });
                if busy && self.frame < n + 1500 {
                    return;
                }
                let done = Arc::new(AtomicBool::new(false));
                self.shot_done = Some(done.clone());
                let path = path.clone();
                let ctx2 = ctx.clone();
                ctx.request_screenshot(move |img| {
                    let [w, h] = img.size;
                    let saved =
                        image::RgbaImage::from_raw(w as u32, h as u32, img.as_raw().to_vec())
                            .ok_or_else(|| "bad image size".to_owned())
                            .and_then(|i| i.save(&path).map_err(|e| e.to_string()));
                    match saved {
                        Ok(()) => eprintln!("viewer: saved {}", path.display()),
                        Err(e) => eprintln!("viewer: cannot save {}: {e}", path.display()),
                    }
                    done.store(true, Ordering::SeqCst);
                    ctx2.request_repaint();
                });
            }
        }
    }

    pub(super) fn handle_drops(&mut self, ctx: &egui::Context) {
        let dropped = ctx.input(|i| i.raw.dropped_files.clone());
        for f in dropped {
            self.load_file(f.path().to_path_buf());
        }
    }

    pub(super) fn centre_ui(&mut self, ui: &mut egui::Ui) {
        match self.view {
            View::Sample(_) => self.doc_ui(ui),
            View::Agent => self.agent_ui(ui),
            View::Stdin => self.stdin_ui(ui),
        }
    }
}

impl eframe::App for ViewerApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        ViewerApp::ui(self, ui);
        let ctx = ui.ctx().clone();
        self.after_frame(&ctx);
    }
}
