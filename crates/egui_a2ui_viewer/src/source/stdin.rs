//! The `--stdin` source: A2UI JSONL in on standard input, renderer → agent messages out on
//! standard output.

use std::sync::mpsc::{Receiver, Sender};

use egui_a2ui::{Catalog, Event, Renderer, SurfaceStore};

use super::stdio::{self, Input};
use super::{Source, Status, store_errors};
use crate::activity::{ActivityLog, LogKind};

/// `--stdin`: a renderer fed as bytes arrive; its messages go out on standard output.
pub struct StdinSource {
    rx: Receiver<Input>,
    out: Sender<String>,
    renderer: Renderer,
    bytes: usize,
    eof: bool,
}

impl StdinSource {
    /// Start the reader and writer threads.
    ///
    /// # Errors
    /// When a thread cannot be started.
    pub fn spawn(ctx: egui::Context, catalog: Catalog) -> std::io::Result<Self> {
        Ok(Self {
            rx: stdio::spawn_reader(ctx)?,
            out: stdio::spawn_writer()?,
            renderer: Renderer::new(catalog).with_options(crate::media::renderer_options()),
            bytes: 0,
            eof: false,
        })
    }

    /// The renderer the input feeds.
    #[must_use]
    pub fn renderer(&self) -> &Renderer {
        &self.renderer
    }

    fn route_events(&self, events: Vec<Event>, log: &mut ActivityLog) {
        for e in events {
            if let Some(m) = e.to_message() {
                let _ = self.out.send(m.to_string());
                let title = match &e {
                    Event::Action(a) => format!("action {} to stdout", a.name),
                    Event::Error(err) => {
                        log.error("stdin", err.error.to_string());
                        format!("error {} to stdout", err.error.code())
                    }
                    _ => "message to stdout".into(),
                };
                log.log(LogKind::A2ui, title, &m);
            } else {
                log.log_other_event(&e);
            }
        }
    }
}

impl Source for StdinSource {
    fn label(&self) -> &str {
        "stdin (JSONL)"
    }

    fn status(&self) -> Status {
        if self.eof {
            Status::Ended("end of input".into())
        } else {
            Status::Open("reading".into())
        }
    }

    fn poll(&mut self, _ctx: &egui::Context, log: &mut ActivityLog) {
        while let Ok(input) = self.rx.try_recv() {
            match input {
                Input::Chunk(c) => {
                    self.bytes += c.len();
                    self.renderer.feed_jsonl(&c);
                }
                Input::Eof => {
                    self.renderer.finish_jsonl();
                    self.eof = true;
                }
                Input::Failed(e) => {
                    self.eof = true;
                    log.error("stdin", e);
                }
            }
        }
        let events = self.renderer.take_events();
        self.route_events(events, log);
    }

    fn ui(&mut self, ui: &mut egui::Ui, log: &mut ActivityLog) {
        ui.horizontal(|ui| {
            ui.heading("stdin");
            ui.weak(format!(
                "{} bytes, {} messages{}",
                self.bytes,
                self.renderer.store().messages_seen(),
                if self.eof {
                    " · end of input"
                } else {
                    " · reading…"
                }
            ));
        });
        ui.weak(
            "A2UI JSONL in on standard input; renderer-to-agent messages out on standard output.",
        );
        ui.separator();
        let mut events = Vec::new();
        egui::ScrollArea::both()
            .auto_shrink([false, false])
            .show(ui, |ui| {
                if self.renderer.store().surfaces().all(|s| !s.is_visible()) {
                    ui.weak("Waiting for a surface…");
                }
                events = self.renderer.ui(ui);
            });
        self.route_events(events, log);
    }

    fn stores(&self) -> Vec<(String, &SurfaceStore)> {
        vec![(String::new(), self.renderer.store())]
    }

    fn stream_errors(&self) -> Vec<String> {
        store_errors(self.renderer.store())
    }

    /// The whole input is read before `--frames` quits.
    fn is_busy(&self) -> bool {
        !self.eof
    }
}
