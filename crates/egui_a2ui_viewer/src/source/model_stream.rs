//! `--model-stream FILE`: replay a recorded model answer (prose with `<a2ui-json>` blocks)
//! chunk by chunk at `--tps` tokens per second (a token ≈ 4 bytes, cut anywhere, even
//! inside a UTF-8 sequence), through `Renderer::feed_model_text`. The prose is shown
//! beside the surfaces, which grow while the block is still being written.

use std::path::Path;

use egui_a2ui::stream::model_text::{ModelTextEvent, ModelTextStream};
use egui_a2ui::{Catalog, Limits, Renderer, SurfaceStore};

use super::{Source, Status};
use crate::activity::ActivityLog;

/// Bytes per simulated token.
pub const CHUNK_BYTES: usize = 4;

/// A recorded answer being replayed (`--model-stream`). It fills the whole window: the
/// recording has no agent to answer, so there is nothing for the side panels to show.
pub struct ModelStreamSource {
    /// The renderer the answer streams into.
    pub renderer: Renderer,
    stream: ModelTextStream,
    name: String,
    label: String,
    text: Vec<u8>,
    pos: usize,
    tps: f64,
    start_time: Option<f64>,
    prose: String,
    errors: Vec<String>,
    applied: usize,
    finished: bool,
    first_component_at: Option<usize>,
}

impl ModelStreamSource {
    /// Load `path`; `tps` tokens per second (≤ 0: one chunk per frame).
    ///
    /// # Errors
    /// When the file cannot be read.
    pub fn open(path: &Path, tps: f64, catalog: Catalog) -> Result<Self, String> {
        let text = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(Self::from_bytes(
            path.file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
            text,
            tps,
            catalog,
        ))
    }

    /// Replay `text`.
    #[must_use]
    pub fn from_bytes(name: String, text: Vec<u8>, tps: f64, catalog: Catalog) -> Self {
        Self {
            renderer: Renderer::new(catalog).with_options(crate::media::renderer_options()),
            stream: ModelTextStream::new(Limits::default()),
            label: format!("Model stream: {name}"),
            name,
            text,
            pos: 0,
            tps,
            start_time: None,
            prose: String::new(),
            errors: Vec::new(),
            applied: 0,
            finished: false,
            first_component_at: None,
        }
    }

    /// Feed the next `n` chunks (and finish the answer after the last).
    pub fn advance_chunks(&mut self, n: usize) {
        for _ in 0..n {
            if self.pos >= self.text.len() {
                break;
            }
            let end = (self.pos + CHUNK_BYTES).min(self.text.len());
            let chunk = self.text[self.pos..end].to_vec();
            self.pos = end;
            let events = self.renderer.feed_model_text(&mut self.stream, &chunk);
            self.take(events);
        }
        if self.pos >= self.text.len() && !self.finished {
            self.finished = true;
            let events = self.renderer.finish_model_text(&mut self.stream);
            self.take(events);
        }
    }

    fn take(&mut self, events: Vec<ModelTextEvent>) {
        for e in events {
            match e {
                ModelTextEvent::Text(t) => self.prose.push_str(&t),
                ModelTextEvent::Applied(_) => self.applied += 1,
                ModelTextEvent::Rejected(e) => self.errors.push(e.to_string()),
                ModelTextEvent::Error(e) => self.errors.push(e.to_string()),
                // A kind of event this viewer does not know yet: nothing to show.
                _ => {}
            }
        }
        if self.first_component_at.is_none()
            && self
                .renderer
                .store()
                .surfaces()
                .any(egui_a2ui::Surface::is_visible)
        {
            self.first_component_at = Some(self.pos);
        }
    }

    /// Bytes fed so far.
    #[must_use]
    pub fn position(&self) -> usize {
        self.pos
    }

    /// Bytes fed when a surface first became visible.
    #[must_use]
    pub fn first_component_at(&self) -> Option<usize> {
        self.first_component_at
    }

    /// The whole answer has been fed.
    #[must_use]
    pub fn finished(&self) -> bool {
        self.finished
    }

    /// The prose so far.
    #[must_use]
    pub fn prose(&self) -> &str {
        &self.prose
    }

    /// Errors so far.
    #[must_use]
    pub fn errors(&self) -> &[String] {
        &self.errors
    }
}

impl Source for ModelStreamSource {
    fn label(&self) -> &str {
        &self.label
    }

    fn status(&self) -> Status {
        if self.finished {
            Status::Ended("end of the answer".into())
        } else {
            Status::Open(format!("{} tokens/s", self.tps))
        }
    }

    /// Advance by wall time.
    fn poll(&mut self, ctx: &egui::Context, _log: &mut ActivityLog) {
        let now = ctx.input(|i| i.time);
        let start = *self.start_time.get_or_insert(now);
        if self.tps > 0.0 {
            #[expect(
                clippy::cast_possible_truncation,
                clippy::cast_sign_loss,
                reason = "a non-negative token count, far below usize::MAX"
            )]
            let due = ((now - start) * self.tps) as usize;
            let done = self.pos.div_ceil(CHUNK_BYTES);
            self.advance_chunks(due.saturating_sub(done));
        } else {
            self.advance_chunks(1);
        }
        if !self.finished {
            ctx.request_repaint();
        }
    }

    fn stores(&self) -> Vec<(String, &SurfaceStore)> {
        vec![(String::new(), self.renderer.store())]
    }

    /// Prose on the left, surfaces on the right.
    fn ui(&mut self, ui: &mut egui::Ui, _log: &mut ActivityLog) {
        ui.horizontal(|ui| {
            ui.heading(format!("Model stream: {}", self.name));
            ui.weak(format!(
                "{} / {} bytes · {} tokens/s · {} messages applied{}",
                self.pos,
                self.text.len(),
                self.tps,
                self.applied,
                match self.first_component_at {
                    Some(b) => format!(" · first component after {b} bytes"),
                    None => String::new(),
                }
            ));
        });
        for e in &self.errors {
            ui.colored_label(ui.visuals().error_fg_color, e);
        }
        ui.separator();
        ui.columns(2, |cols| {
            egui::ScrollArea::vertical()
                .id_salt("model-prose")
                .auto_shrink([false, false])
                .stick_to_bottom(true)
                .show(&mut cols[0], |ui| {
                    // The prose as Markdown, as the agent panel draws an agent's text.
                    let style = egui_a2ui::Style::default();
                    let (_, link) = egui_a2ui::render::markdown_ui(ui, &self.prose, &style);
                    if let Some(url) =
                        link.filter(|u| u.starts_with("https://") || u.starts_with("http://"))
                    {
                        ui.ctx().open_url(egui::OpenUrl::new_tab(url));
                    }
                    if !self.finished {
                        ui.weak("▍");
                    }
                });
            egui::ScrollArea::vertical()
                .id_salt("model-surfaces")
                .auto_shrink([false, false])
                .show(&mut cols[1], |ui| {
                    if self.renderer.store().surfaces().all(|s| !s.is_visible()) {
                        ui.weak("Waiting for a surface…");
                    }
                    // Actions are not sent anywhere: the recording has no agent to answer.
                    let _ = self.renderer.ui(ui);
                });
        });
    }
}
