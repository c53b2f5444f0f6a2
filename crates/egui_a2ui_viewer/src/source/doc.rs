//! The document source: a gallery stream or an opened file, every message framed up front
//! and applied one by one under the stepper.

use egui_a2ui::stream::{Framed, parse_document};
use egui_a2ui::{Catalog, Event, Limits, Renderer, SurfaceStore};
use serde_json::{Value, json};

use super::{Source, Status, store_errors};
use crate::activity::{ActivityLog, LogKind};
use crate::gallery::{Sample, SampleData};

/// A stream under the stepper: every framed message, and how many are applied.
pub struct DocSource {
    /// The gallery entry's index.
    pub sample: usize,
    /// The messages (or their framing errors).
    pub frames: Vec<Framed>,
    /// One line per message, for the stepper's list.
    pub summaries: Vec<String>,
    /// Messages applied.
    pub cursor: usize,
    /// The renderer holding the state after `cursor` messages.
    pub renderer: Renderer,
    /// Replaying one message per `delay`.
    pub playing: bool,
    /// Seconds between two replayed messages.
    pub delay: f64,
    next_step_at: f64,
    catalog: Catalog,
    title: String,
    group: String,
    description: String,
}

/// The stepper's line for message `i`: its kind, surface and size.
#[must_use]
pub fn summarize(i: usize, f: &Framed) -> String {
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
            #[expect(clippy::cast_precision_loss, reason = "a size shown to one decimal")]
            let size = if size >= 1 << 20 {
                format!("{:.1} MB", size as f64 / f64::from(1 << 20))
            } else if size >= 1024 {
                format!("{:.1} kB", size as f64 / 1024.0)
            } else {
                format!("{size} B")
            };
            format!("#{i}  {kind} · {surface} · {size}")
        }
    }
}

impl DocSource {
    /// Frame gallery entry `sample` (index `index`) with nothing applied yet.
    #[must_use]
    pub fn new(index: usize, sample: &Sample, catalog: &Catalog) -> Self {
        let frames = match &sample.data {
            SampleData::Bytes(b) => parse_document(b, &Limits::default()),
            SampleData::Generated(f) => f().into_iter().map(Ok).collect(),
        };
        let summaries = frames
            .iter()
            .enumerate()
            .map(|(i, f)| summarize(i, f))
            .collect();
        Self {
            sample: index,
            frames,
            summaries,
            cursor: 0,
            renderer: Renderer::new(catalog.clone()).with_options(crate::media::renderer_options()),
            playing: false,
            delay: 0.25,
            next_step_at: 0.0,
            catalog: catalog.clone(),
            title: sample.title.clone(),
            group: sample.group.clone(),
            description: sample.description.clone(),
        }
    }

    /// Apply the next message; its events (errors) are returned.
    pub fn step(&mut self) -> Vec<Event> {
        let Some(f) = self.frames.get(self.cursor) else {
            return Vec::new();
        };
        // Kept for the stepper, so applied as a copy.
        let _ = self.renderer.apply(f.clone()); // a rejection is queued as an event
        self.cursor += 1;
        self.renderer.take_events()
    }

    /// Apply every message left; their events are returned.
    pub fn step_all(&mut self) -> Vec<Event> {
        let mut events = Vec::new();
        while self.cursor < self.frames.len() {
            events.extend(self.step());
        }
        events
    }

    /// Start over from an empty renderer and apply the first `n` messages quietly.
    pub fn rebuild(&mut self, n: usize) {
        self.renderer =
            Renderer::new(self.catalog.clone()).with_options(crate::media::renderer_options());
        self.cursor = 0;
        while self.cursor < n.min(self.frames.len()) {
            let _ = self.step();
        }
    }

    /// Start (or pause) the replay; a finished stream replays from the start.
    pub fn toggle_play(&mut self) {
        self.playing = !self.playing;
        if self.playing && self.cursor >= self.frames.len() {
            self.rebuild(0);
        }
        self.next_step_at = 0.0;
    }

    /// Log the stream's events: each renderer → agent message, and the `tools/call` an MCP
    /// host would send for each action.
    pub fn route_events(&self, events: Vec<Event>, log: &mut ActivityLog) {
        for e in events {
            match &e {
                Event::Action(a) => {
                    log.log_action(a);
                    let mut params = json!({"name": a.name, "arguments": a.context});
                    let meta = egui_a2ui::capabilities::data_model_metadata(
                        self.renderer.store(),
                        [a.surface_id.as_str()],
                    );
                    if !meta.is_empty() {
                        params["_meta"] = Value::Object(meta);
                    }
                    log.log(
                        LogKind::ToolsCall,
                        format!("would call {}", a.name),
                        &json!({"jsonrpc": "2.0", "method": "tools/call", "params": params}),
                    );
                }
                Event::Error(err) => {
                    let m = err.to_message();
                    log.log(LogKind::A2ui, format!("error {}", err.error.code()), &m);
                    log.error("stream", err.error.to_string());
                }
                other => log.log_other_event(other),
            }
        }
    }
}

impl Source for DocSource {
    fn label(&self) -> &str {
        &self.title
    }

    fn status(&self) -> Status {
        Status::Open(self.group.clone())
    }

    /// The replay: one message per `delay` while playing.
    fn poll(&mut self, ctx: &egui::Context, log: &mut ActivityLog) {
        if !self.playing {
            return;
        }
        let now = ctx.input(|i| i.time);
        if self.cursor >= self.frames.len() {
            self.playing = false;
        } else if now >= self.next_step_at {
            let events = self.step();
            self.next_step_at = now + self.delay;
            ctx.request_repaint_after(std::time::Duration::from_secs_f64(self.delay));
            self.route_events(events, log);
        } else {
            ctx.request_repaint_after(std::time::Duration::from_secs_f64(self.next_step_at - now));
        }
    }

    fn ui(&mut self, ui: &mut egui::Ui, log: &mut ActivityLog) {
        ui.horizontal(|ui| {
            ui.heading(&self.title);
            ui.weak(format!(
                "{} · message {} of {}",
                self.group,
                self.cursor,
                self.frames.len()
            ));
        });
        if !self.description.is_empty() {
            ui.weak(&self.description);
        }
        ui.separator();
        let visible = self
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
}
