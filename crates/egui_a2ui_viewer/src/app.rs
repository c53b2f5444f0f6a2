//! The viewer window: gallery (left), surfaces (centre), inspector tabs (right).

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};

use egui_a2ui::Catalog;

use crate::Cli;
use crate::activity::ActivityLog;
use crate::gallery::{self, Sample, SampleData};
use crate::panels::{self, Tab, View};
use crate::source::{AgentSource, DocSource, ModelStreamSource, ScriptStep, Source, StdinSource};

/// A file read on a worker thread.
struct Loaded {
    path: PathBuf,
    bytes: Result<Vec<u8>, String>,
}

/// The viewer: the gallery and its document under the stepper, the live sources, the
/// activity log, and what the command line asked for.
pub struct App {
    ctx: egui::Context,
    catalog: Catalog,
    samples: Vec<Sample>,
    doc: Option<DocSource>,
    sources: Vec<Box<dyn Source>>,
    view: View,
    tab: Tab,
    log: ActivityLog,
    loads_tx: Sender<Loaded>,
    loads_rx: Receiver<Loaded>,
    frame: u64,
    cli: Cli,
    shot_done: Option<Arc<AtomicBool>>,
    /// The centre panel only (`--model-stream`).
    bare: bool,
}

impl App {
    /// Set up from the command line. Nothing here blocks on an agent: connections and file
    /// reads run on their own threads.
    #[must_use]
    pub fn new(ctx: egui::Context, cli: Cli) -> Self {
        let (loads_tx, loads_rx) = channel();
        let (samples, sample_errors) = gallery::load_bundled();
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
            catalog: gallery::catalog(),
            samples,
            doc: None,
            sources: Vec::new(),
            view: View::Sample(0),
            tab: cli.tab.as_deref().and_then(Tab::parse).unwrap_or(Tab::Data),
            log: ActivityLog::new(),
            loads_tx,
            loads_rx,
            frame: 0,
            cli: cli.clone(),
            shot_done: None,
            bare: false,
        };
        for e in sample_errors {
            app.log.error("gallery", e);
        }
        if let Some(t) = cli.tab.as_deref()
            && Tab::parse(t).is_none()
        {
            app.log.error(
                "viewer",
                format!("unknown tab {t:?} (data, actions, errors, stepper)"),
            );
        }
        for p in &cli.paths {
            app.load_file(p.clone());
        }
        if !app.samples.is_empty() {
            let first = match cli.sample.as_deref() {
                Some(name) => gallery::find(&app.samples, name).unwrap_or_else(|| {
                    app.log
                        .error("viewer", format!("no bundled sample matches {name:?}"));
                    0
                }),
                None => 0,
            };
            app.select_sample(first);
        }
        app.start_sources(&cli);
        app
    }

    /// The sources the command line asks for; each becomes the centre view.
    fn start_sources(&mut self, cli: &Cli) {
        if let Some(p) = &cli.model_stream {
            match ModelStreamSource::open(p, cli.tps.unwrap_or(40.0), self.catalog.clone()) {
                Ok(m) => {
                    self.add_source(Box::new(m));
                    self.bare = true;
                }
                Err(e) => self.log.error("model-stream", e),
            }
        }
        let start_demo = cli.mcp.is_none()
            && cli.remote.is_none()
            && !cli.stdin
            && !cli.no_agent
            && cli.paths.is_empty()
            && cli.sample.is_none()
            && cli.model_stream.is_none();
        // `--call` is the first turn (MCP: `TOOL {"json": "args"}` calls that tool).
        let mut script: Vec<ScriptStep> = cli
            .call
            .iter()
            .map(|c| {
                let c = c.trim();
                ScriptStep::Send(if c.contains(char::is_whitespace) {
                    c.to_owned()
                } else {
                    format!("{c} {{}}")
                })
            })
            .collect();
        script.extend(cli.script.iter().cloned());
        if let Some(target) = &cli.remote {
            let mut options = egui_a2ui::transport::TransportOptions::default();
            for (name, value) in &cli.headers {
                options = options
                    .with_header(name, value.clone())
                    .with_secret_header(name);
            }
            let source = AgentSource::connect_with(
                target.clone(),
                target,
                self.catalog.clone(),
                self.ctx.clone(),
                options,
            )
            .with_script(script);
            self.add_source(Box::new(source));
        } else if cli.stdin {
            match StdinSource::spawn(self.ctx.clone(), self.catalog.clone()) {
                Ok(s) => self.add_source(Box::new(s)),
                Err(e) => self
                    .log
                    .error("stdin", format!("cannot start reading: {e}")),
            }
        } else if let Some(line) = &cli.mcp {
            let source = AgentSource::connect(
                line.clone(),
                &format!("mcp+stdio:{line}"),
                self.catalog.clone(),
                self.ctx.clone(),
            )
            .with_script(script);
            self.add_source(Box::new(source));
        } else if start_demo {
            match std::env::current_exe() {
                Ok(exe) => {
                    let source = AgentSource::spawn_mcp(
                        "built-in demo agent".into(),
                        &exe.to_string_lossy(),
                        &["--serve-demo".to_owned()],
                        self.catalog.clone(),
                        self.ctx.clone(),
                    )
                    .with_script(script);
                    self.add_source(Box::new(source));
                }
                Err(e) => self
                    .log
                    .error("demo agent", format!("cannot find my own executable: {e}")),
            }
        }
    }

    /// Add a live source and show it.
    pub fn add_source(&mut self, source: Box<dyn Source>) {
        self.sources.push(source);
        self.view = View::Live(self.sources.len() - 1);
    }

    /// The live sources, in the order they were added.
    #[must_use]
    pub fn sources(&self) -> &[Box<dyn Source>] {
        &self.sources
    }

    /// The first live source of type `S`.
    #[must_use]
    pub fn source<S: Source>(&self) -> Option<&S> {
        self.sources.iter().find_map(|s| {
            let any: &dyn std::any::Any = s.as_ref();
            any.downcast_ref()
        })
    }

    /// The first live source of type `S`, mutably.
    pub fn source_mut<S: Source>(&mut self) -> Option<&mut S> {
        self.sources.iter_mut().find_map(|s| {
            let any: &mut dyn std::any::Any = s.as_mut();
            any.downcast_mut()
        })
    }

    /// The source the centre shows.
    #[must_use]
    pub fn current(&self) -> Option<&dyn Source> {
        match self.view {
            View::Sample(_) => self.doc.as_ref().map(|d| d as &dyn Source),
            View::Live(i) => self.sources.get(i).map(AsRef::as_ref),
        }
    }

    /// The action log and the errors.
    #[must_use]
    pub fn log(&self) -> &ActivityLog {
        &self.log
    }

    /// The stream under the stepper.
    #[must_use]
    pub fn doc(&self) -> Option<&DocSource> {
        self.doc.as_ref()
    }

    /// What the centre shows.
    #[must_use]
    pub fn view(&self) -> View {
        self.view
    }

    /// Every gallery entry's key, in gallery order.
    #[must_use]
    pub fn sample_keys(&self) -> Vec<&str> {
        self.samples.iter().map(|s| s.key.as_str()).collect()
    }

    /// Show gallery entry `i` with every message applied.
    pub fn select_sample(&mut self, i: usize) {
        let Some(s) = self.samples.get(i) else {
            return;
        };
        let mut doc = DocSource::new(i, s, &self.catalog);
        let events = doc.step_all();
        doc.route_events(events, &mut self.log);
        self.doc = Some(doc);
        self.view = View::Sample(i);
    }

    /// Read a file on a worker thread; it joins the gallery when it arrives.
    pub fn load_file(&mut self, path: PathBuf) {
        let tx = self.loads_tx.clone();
        let ctx = self.ctx.clone();
        let spawned = std::thread::Builder::new()
            .name("file-reader".into())
            .spawn(move || {
                let bytes = std::fs::read(&path).map_err(|e| e.to_string());
                let _ = tx.send(Loaded { path, bytes });
                ctx.request_repaint();
            });
        if let Err(e) = spawned {
            self.log
                .error("open", format!("cannot start a reader: {e}"));
        }
    }

    fn poll(&mut self, ctx: &egui::Context) {
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
                        data: SampleData::Bytes(Arc::new(bytes)),
                    });
                    self.select_sample(self.samples.len() - 1);
                }
                Err(e) => self.log.error("open", format!("{}: {e}", l.path.display())),
            }
        }
        for s in &mut self.sources {
            s.poll(ctx, &mut self.log);
        }
        if let Some(doc) = &mut self.doc {
            doc.poll(ctx, &mut self.log);
        }
    }

    /// The whole window (without eframe's frame, so tests can drive it headless).
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        self.frame += 1;
        let ctx = ui.ctx().clone();
        self.poll(&ctx);
        let dropped = ctx.input(|i| i.raw.dropped_files.clone());
        for f in dropped {
            self.load_file(f.path().to_path_buf());
        }

        if !self.bare {
            egui::Panel::left("gallery")
                .resizable(true)
                .default_size(250.0)
                .max_size(420.0)
                .show(ui, |ui| {
                    let pick =
                        panels::gallery_ui(ui, &self.samples, &self.sources, self.view, &self.log);
                    match pick {
                        Some(View::Sample(i)) => self.select_sample(i),
                        Some(v) => self.view = v,
                        None => {}
                    }
                });
            egui::Panel::right("inspector")
                .resizable(true)
                .default_size(400.0)
                .max_size(640.0)
                .show(ui, |ui| self.inspector_ui(ui));
        }
        egui::CentralPanel::default().show(ui, |ui| {
            let log = &mut self.log;
            match self.view {
                View::Sample(_) => match &mut self.doc {
                    Some(doc) => doc.ui(ui, log),
                    None => {
                        ui.label("No stream loaded.");
                    }
                },
                View::Live(i) => {
                    if let Some(s) = self.sources.get_mut(i) {
                        s.ui(ui, log);
                    }
                }
            }
        });

        if ctx.input(|i| !i.raw.hovered_files.is_empty()) {
            let rect = ctx.content_rect();
            let painter = ctx.layer_painter(egui::LayerId::new(
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

    fn inspector_ui(&mut self, ui: &mut egui::Ui) {
        let stream_errors = self
            .current()
            .map(Source::stream_errors)
            .unwrap_or_default();
        panels::tabs_ui(ui, &mut self.tab, &self.log, stream_errors.len());
        match self.tab {
            Tab::Data => {
                let stores = self.current().map(Source::stores).unwrap_or_default();
                panels::data_ui(ui, &stores);
            }
            Tab::Actions => panels::actions_ui(ui, &mut self.log),
            Tab::Errors => panels::errors_ui(ui, &stream_errors, &self.log),
            Tab::Stepper => match (&mut self.doc, self.view) {
                (Some(doc), View::Sample(i)) if doc.sample == i => {
                    panels::stepper_ui(ui, doc, &mut self.log);
                }
                _ => {
                    ui.weak(
                        "The stepper replays gallery streams and opened files. Pick one on the \
                         left.",
                    );
                }
            },
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
        // Unread input, a connection or a call in flight: wait for it, within a bound.
        if self.sources.iter().any(|s| s.is_busy()) && self.frame < n + 3000 {
            return;
        }
        let Some(path) = &self.cli.screenshot else {
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            return;
        };
        if let Some(done) = &self.shot_done {
            if done.load(Ordering::SeqCst) || self.frame > n + 6000 {
                ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            }
            return;
        }
        let done = Arc::new(AtomicBool::new(false));
        self.shot_done = Some(Arc::clone(&done));
        let path = path.clone();
        let ctx2 = ctx.clone();
        ctx.request_screenshot(move |img| {
            let [w, h] = img.size;
            let saved = u32::try_from(w)
                .ok()
                .zip(u32::try_from(h).ok())
                .and_then(|(w, h)| image::RgbaImage::from_raw(w, h, img.as_raw().to_vec()))
                .ok_or_else(|| "bad image size".to_owned())
                .and_then(|i| i.save(&path).map_err(|e| e.to_string()));
            #[expect(clippy::print_stderr, reason = "the command line's report")]
            match saved {
                Ok(()) => eprintln!("viewer: saved {}", path.display()),
                Err(e) => eprintln!("viewer: cannot save {}: {e}", path.display()),
            }
            done.store(true, Ordering::SeqCst);
            ctx2.request_repaint();
        });
    }
}

impl eframe::App for App {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        Self::ui(self, ui);
        let ctx = ui.ctx().clone();
        self.after_frame(&ctx);
    }
}
