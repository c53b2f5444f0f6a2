//! The document source: a gallery stream or an opened file under the stepper.

use egui_a2ui::stream::{Framed, parse_document};
use egui_a2ui::{Catalog, Event, Limits, Renderer};
use serde_json::{Value, json};

use super::app::{View, ViewerApp};
use super::samples::Source;

/// A stream under the stepper: every framed message, and how many are applied.
pub struct Doc {
    /// The gallery entry.
    pub sample: usize,
    /// The messages (or their framing errors).
    pub frames: Vec<Framed>,
    pub(super) summaries: Vec<String>,
    /// Messages applied.
    pub cursor: usize,
    /// The renderer holding the state after `cursor` messages.
    pub renderer: Renderer,
    pub(super) playing: bool,
    pub(super) delay: f64,
    pub(super) next_step_at: f64,
}

pub(super) fn summarize(i: usize, f: &Framed) -> String {
    match f {
        Err(e) => format!("#{i}  error: {e}"),
        Ok(v) => {
            let kind = v
                .as_object()
                .and_then(|o| o.keys().find(|k| *k != "version"))
                .cloned()
                .unwrap_or_else(|| "?".into());
            let surface = v
                .get(&kind)
                .and_then(|b| b.get("surfaceId"))
                .and_then(Value::as_str)
                .unwrap_or("");
            let size = v.to_string().len();
            let size = if size >= 1 << 20 {
                format!("{:.1} MB", size as f64 / (1 << 20) as f64)
            } else if size >= 1024 {
                format!("{:.1} kB", size as f64 / 1024.0)
            } else {
                format!("{size} B")
            };
            format!("#{i}  {kind} · {surface} · {size}")
        }
    }
}

impl Doc {
    pub(super) fn new(sample: usize, frames: Vec<Framed>, catalog: &Catalog) -> Self {
        let summaries = frames
            .iter()
            .enumerate()
            .map(|(i, f)| summarize(i, f))
            .collect();
        Self {
            sample,
            frames,
            summaries,
            cursor: 0,
            renderer: Renderer::new(catalog.clone()),
            playing: false,
            delay: 0.25,
            next_step_at: 0.0,
        }
    }

    /// Apply the next message; its events (errors) are returned.
    pub(super) fn step(&mut self) -> Vec<Event> {
        let Some(f) = self.frames.get(self.cursor) else {
            return Vec::new();
        };
        // Kept for the stepper, so applied as a copy.
        self.renderer.apply_framed(f.clone());
        self.cursor += 1;
        self.renderer.take_events()
    }

    /// Start over from an empty renderer and apply the first `n` messages quietly.
    pub(super) fn rebuild(&mut self, n: usize, catalog: &Catalog) {
        self.renderer = Renderer::new(catalog.clone());
        self.cursor = 0;
        while self.cursor < n.min(self.frames.len()) {
            self.step();
        }
    }
}

impl ViewerApp {
    pub(super) fn select_sample(&mut self, i: usize) {
        let Some(s) = self.samples.get(i) else {
            return;
        };
        let frames = match &s.source {
            Source::Bytes(b) => parse_document(b, &Limits::default()),
            Source::Generated(f) => f().into_iter().map(Ok).collect(),
        };
        let mut doc = Doc::new(i, frames, &self.catalog);
        let mut events = Vec::new();
        while doc.cursor < doc.frames.len() {
            events.extend(doc.step());
        }
        self.doc = Some(doc);
        self.view = View::Sample(i);
        self.route_doc_events(events);
    }

    /// Log a gallery stream's events: each renderer → agent message, and the `tools/call`
    /// an MCP host would send for each action.
    pub(super) fn route_doc_events(&mut self, events: Vec<Event>) {
        for e in events {
            match &e {
                Event::Action(a) => {
                    self.log_action(a);
                    let mut params = json!({"name": a.name, "arguments": a.context});
                    if let Some(doc) = &self.doc {
                        let meta = egui_a2ui::capabilities::data_model_metadata(
                            doc.renderer.store(),
                            [a.surface_id.as_str()],
                        );
                        if !meta.is_empty() {
                            params["_meta"] = Value::Object(meta);
                        }
                    }
                    self.log(
                        "tools/call",
                        format!("would call {}", a.name),
                        &json!({"jsonrpc": "2.0", "method": "tools/call", "params": params}),
                    );
                }
                Event::Error(err) => {
                    let m = err.to_message();
                    self.log("a2ui", format!("error {}", err.error.code()), &m);
                    self.error("stream", err.error.to_string());
                }
                other => self.log_other_event(other),
            }
        }
    }

    pub(super) fn step_player(&mut self, ctx: &egui::Context) {
        let now = ctx.input(|i| i.time);
        let mut events = Vec::new();
        if let Some(doc) = self.doc.as_mut().filter(|d| d.playing) {
            if doc.cursor >= doc.frames.len() {
                doc.playing = false;
            } else if now >= doc.next_step_at {
                events = doc.step();
                doc.next_step_at = now + doc.delay;
                ctx.request_repaint_after(std::time::Duration::from_secs_f64(doc.delay));
            } else {
                ctx.request_repaint_after(std::time::Duration::from_secs_f64(
                    doc.next_step_at - now,
                ));
            }
        }
        self.route_doc_events(events);
    }

    pub(super) fn doc_ui(&mut self, ui: &mut egui::Ui) {
        let Some(doc) = self.doc.as_mut() else {
            ui.label("No stream loaded.");
            return;
        };
        if let Some(s) = self.samples.get(doc.sample) {
            ui.horizontal(|ui| {
                ui.heading(&s.title);
                ui.weak(format!(
                    "{} · message {} of {}",
                    s.group,
                    doc.cursor,
                    doc.frames.len()
                ));
            });
            if !s.description.is_empty() {
                ui.weak(&s.description);
            }
        }
        ui.separator();
        let visible = doc
            .renderer
            .store()
            .surfaces()
            .filter(|s| s.is_visible())
            .count();
        let mut events = Vec::new();
        egui::ScrollArea::both()
            .auto_shrink([false, false])
            .show(ui, |ui| {
                if visible == 0 {
                    ui.weak("No visible surface yet: step on in the Stepper tab.");
                }
                events = doc.renderer.ui(ui);
            });
        self.route_doc_events(events);
    }
}
