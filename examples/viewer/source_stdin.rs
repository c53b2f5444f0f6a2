//! The `--stdin` source: A2UI JSONL in on standard input, renderer → agent messages out on
//! standard output.

use std::sync::mpsc::{Receiver, Sender};

use egui_a2ui::{Event, Renderer};

use super::app::ViewerApp;
use super::stdio;

/// `--stdin`: a renderer fed as bytes arrive.
pub(super) struct StdinFeed {
    pub(super) rx: Receiver<stdio::Input>,
    pub(super) out: Sender<String>,
    pub(super) renderer: Renderer,
    pub(super) bytes: usize,
    pub(super) eof: bool,
}

impl ViewerApp {
    pub(super) fn poll_stdin(&mut self) {
        let Some(feed) = self.stdin.as_mut() else {
            return;
        };
        let mut notes = Vec::new();
        while let Ok(input) = feed.rx.try_recv() {
            match input {
                stdio::Input::Chunk(c) => {
                    feed.bytes += c.len();
                    feed.renderer.feed_jsonl(&c);
                }
                stdio::Input::Eof => {
                    feed.renderer.finish_jsonl();
                    feed.eof = true;
                }
                stdio::Input::Failed(e) => {
                    feed.eof = true;
                    notes.push(e);
                }
            }
        }
        let events = feed.renderer.take_events();
        for n in notes {
            self.error("stdin", n);
        }
        self.route_stdin_events(events);
    }

    pub(super) fn route_stdin_events(&mut self, events: Vec<Event>) {
        for e in events {
            if let Some(m) = e.to_message() {
                if let Some(feed) = &self.stdin {
                    let _ = feed.out.send(m.to_string());
                }
                let title = match &e {
                    Event::Action(a) => format!("action {} to stdout", a.name),
                    Event::Error(err) => {
                        self.error("stdin", err.error.to_string());
                        format!("error {} to stdout", err.error.code())
                    }
                    _ => "message to stdout".into(),
                };
                self.log("a2ui", title, &m);
            } else {
                self.log_other_event(&e);
            }
        }
    }

    pub(super) fn stdin_ui(&mut self, ui: &mut egui::Ui) {
        let Some(feed) = self.stdin.as_mut() else {
            return;
        };
        ui.horizontal(|ui| {
            ui.heading("stdin");
            ui.weak(format!(
                "{} bytes, {} messages{}",
                feed.bytes,
                feed.renderer.store().messages_seen(),
                if feed.eof {
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
                if feed.renderer.store().surfaces().all(|s| !s.is_visible()) {
                    ui.weak("Waiting for a surface…");
                }
                events = feed.renderer.ui(ui);
            });
        self.route_stdin_events(events);
    }
}
