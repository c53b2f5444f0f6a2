//! The side panels: the gallery (left) and the inspector tabs (right): data model, action
//! log, errors, stepper.

use egui::RichText;
use egui_a2ui::SurfaceStore;

use super::app::{Tab, View, ViewerApp, pretty};
use super::json_tree;
use super::source_agent::Status;

impl ViewerApp {
    pub(super) fn gallery_ui(&mut self, ui: &mut egui::Ui) {
        ui.add_space(6.0);
        ui.heading("egui_a2ui viewer");
        ui.weak("Drop .jsonl / .json streams on the window to open them.");
        ui.separator();
        let mut pick = None;
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .show(ui, |ui| {
                if let Some(a) = &self.agent {
                    let color = match &a.status {
                        Status::Connecting => egui::Color32::GRAY,
                        Status::Connected(_) => egui::Color32::from_rgb(60, 170, 90),
                        Status::Closed(_) => egui::Color32::from_rgb(200, 70, 60),
                    };
                    ui.label(RichText::new("Live agent").strong());
                    ui.horizontal(|ui| {
                        let (dot, _) =
                            ui.allocate_exact_size(egui::vec2(10.0, 10.0), egui::Sense::hover());
                        ui.painter().circle_filled(dot.center(), 4.5, color);
                        // The label is the agent's command line, which can be a long
                        // absolute path: truncate it (full text on hover) so it cannot widen
                        // the panel and squeeze the surfaces.
                        if ui
                            .add(
                                egui::Button::selectable(self.view == View::Agent, &a.label)
                                    .truncate(),
                            )
                            .on_hover_text(&a.label)
                            .clicked()
                        {
                            pick = Some(View::Agent);
                        }
                    });
                    ui.add_space(4.0);
                } else if self.errors.iter().any(|e| e.source == "demo agent") {
                    ui.colored_label(
                        ui.visuals().warn_fg_color,
                        "Demo agent unavailable (see Errors)",
                    );
                }
                if self.stdin.is_some() {
                    ui.label(RichText::new("Live agent").strong());
                    if ui
                        .selectable_label(self.view == View::Stdin, "stdin (JSONL)")
                        .clicked()
                    {
                        pick = Some(View::Stdin);
                    }
                    ui.add_space(4.0);
                }
                let mut groups: Vec<&str> = Vec::new();
                for s in &self.samples {
                    if !groups.contains(&s.group.as_str()) {
                        groups.push(&s.group);
                    }
                }
                for g in groups {
                    egui::CollapsingHeader::new(RichText::new(g).strong())
                        .default_open(g != "Official v0.8")
                        .show(ui, |ui| {
                            for (i, s) in self
                                .samples
                                .iter()
                                .enumerate()
                                .filter(|(_, s)| s.group == g)
                            {
                                let r = ui.selectable_label(self.view == View::Sample(i), &s.title);
                                let r = if s.description.is_empty() {
                                    r
                                } else {
                                    r.on_hover_text(&s.description)
                                };
                                if r.clicked() {
                                    pick = Some(View::Sample(i));
                                }
                            }
                        });
                }
            });
        match pick {
            Some(View::Sample(i)) => self.select_sample(i),
            Some(v) => self.view = v,
            None => {}
        }
    }

    pub(super) fn inspector_ui(&mut self, ui: &mut egui::Ui) {
        ui.add_space(6.0);
        ui.horizontal(|ui| {
            let errors = self.errors.len() + self.stream_errors();
            for (tab, label) in [
                (Tab::Data, "Data model".to_owned()),
                (Tab::Actions, format!("Actions ({})", self.log.len())),
                (Tab::Errors, format!("Errors ({errors})")),
                (Tab::Stepper, "Stepper".to_owned()),
            ] {
                ui.selectable_value(&mut self.tab, tab, label);
            }
        });
        ui.separator();
        match self.tab {
            Tab::Data => self.data_ui(ui),
            Tab::Actions => self.actions_ui(ui),
            Tab::Errors => self.errors_ui(ui),
            Tab::Stepper => self.stepper_ui(ui),
        }
    }

    pub(super) fn stream_errors(&self) -> usize {
        match self.view {
            View::Sample(_) => self
                .doc
                .as_ref()
                .map_or(0, |d| d.renderer.store().errors().len()),
            View::Stdin => self
                .stdin
                .as_ref()
                .map_or(0, |f| f.renderer.store().errors().len()),
            View::Agent => 0,
        }
    }

    pub(super) fn data_ui(&mut self, ui: &mut egui::Ui) {
        let mut stores: Vec<(String, &SurfaceStore)> = Vec::new();
        match self.view {
            View::Sample(_) => stores.extend(
                self.doc
                    .as_ref()
                    .map(|d| (String::new(), d.renderer.store())),
            ),
            View::Stdin => stores.extend(
                self.stdin
                    .as_ref()
                    .map(|f| (String::new(), f.renderer.store())),
            ),
            View::Agent => {
                if let Some(a) = &self.agent {
                    stores.extend(
                        a.hub
                            .sessions()
                            .map(|s| (format!("{} · ", s.id()), s.store())),
                    );
                }
            }
        }
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .show(ui, |ui| {
                let mut any = false;
                for (prefix, store) in stores {
                    for s in store.surfaces() {
                        any = true;
                        let label = format!("{prefix}{} ({})", s.id, s.version.as_str());
                        json_tree::show(ui, (&prefix, &s.id), &label, s.data.root());
                    }
                }
                if !any {
                    ui.weak("No surface yet.");
                }
            });
    }

    pub(super) fn actions_ui(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            ui.weak(
                "Renderer-to-agent messages and the tools/call requests for them, newest first.",
            );
            if ui.small_button("Clear").clicked() {
                self.log.clear();
            }
        });
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .show(ui, |ui| {
                if self.log.is_empty() {
                    ui.weak("Nothing yet: press a button on a surface.");
                }
                let n = self.log.len();
                for (i, e) in self.log.iter().enumerate().rev() {
                    let color = match e.kind {
                        "tools/call" => egui::Color32::from_rgb(200, 120, 40),
                        "a2ui" => egui::Color32::from_rgb(60, 130, 210),
                        "result" => egui::Color32::from_rgb(60, 160, 90),
                        _ => egui::Color32::GRAY,
                    };
                    let header =
                        RichText::new(format!("{} {} · {}", e.time, e.kind, e.title)).color(color);
                    egui::CollapsingHeader::new(header)
                        .id_salt(("log", i))
                        .default_open(i + 3 >= n && e.kind != "result" && e.json.len() < 3000)
                        .show(ui, |ui| {
                            let shown: String = e.json.chars().take(6000).collect();
                            ui.label(RichText::new(shown).monospace().size(11.0));
                            if e.json.len() > 6000 {
                                ui.weak("… (cut)");
                            }
                        });
                }
            });
    }

    pub(super) fn errors_ui(&mut self, ui: &mut egui::Ui) {
        let stream: Vec<String> = match self.view {
            View::Sample(_) => self
                .doc
                .as_ref()
                .map(|d| d.renderer.store().errors().to_vec()),
            View::Stdin => self
                .stdin
                .as_ref()
                .map(|f| f.renderer.store().errors().to_vec()),
            View::Agent => None,
        }
        .unwrap_or_default()
        .into_iter()
        .map(|e| {
            format!(
                "message {} · {} · {}: {}",
                e.message_index.map_or("?".into(), |i| i.to_string()),
                e.surface_id.as_deref().unwrap_or("-"),
                e.error.code(),
                e.error
            )
        })
        .collect();
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .show(ui, |ui| {
                if stream.is_empty() && self.errors.is_empty() {
                    ui.weak("No errors.");
                }
                if !stream.is_empty() {
                    ui.label(RichText::new("This stream").strong());
                    for e in &stream {
                        ui.colored_label(ui.visuals().error_fg_color, e);
                    }
                    ui.separator();
                }
                for e in self.errors.iter().rev() {
                    ui.horizontal_wrapped(|ui| {
                        ui.weak(&e.time);
                        ui.label(RichText::new(&e.source).strong());
                        ui.colored_label(ui.visuals().error_fg_color, &e.text);
                    });
                }
            });
    }

    pub(super) fn stepper_ui(&mut self, ui: &mut egui::Ui) {
        if self.view != View::Sample(self.doc.as_ref().map_or(usize::MAX, |d| d.sample)) {
            ui.weak("The stepper replays gallery streams and opened files. Pick one on the left.");
            return;
        }
        let catalog = self.catalog.clone();
        let Some(doc) = self.doc.as_mut() else {
            return;
        };
        let n = doc.frames.len();
        let mut events = Vec::new();
        let mut rebuild_to = None;
        ui.horizontal(|ui| {
            if ui
                .button("Reset")
                .on_hover_text("Reset: no message applied")
                .clicked()
            {
                doc.playing = false;
                rebuild_to = Some(0);
            }
            if ui
                .add_enabled(doc.cursor > 0, egui::Button::new("Back"))
                .on_hover_text("Undo the last message")
                .clicked()
            {
                doc.playing = false;
                rebuild_to = Some(doc.cursor - 1);
            }
            if ui
                .add_enabled(doc.cursor < n, egui::Button::new("Step"))
                .on_hover_text("Apply the next message")
                .clicked()
            {
                doc.playing = false;
                events.extend(doc.step());
            }
            let play = if doc.playing { "Pause" } else { "Play" };
            if ui
                .button(play)
                .on_hover_text("Replay from the start, one message per delay")
                .clicked()
            {
                doc.playing = !doc.playing;
                if doc.playing && doc.cursor >= n {
                    rebuild_to = Some(0);
                }
                doc.next_step_at = 0.0;
            }
            if ui
                .add_enabled(doc.cursor < n, egui::Button::new("All"))
                .on_hover_text("Apply every message")
                .clicked()
            {
                doc.playing = false;
                while doc.cursor < n {
                    events.extend(doc.step());
                }
            }
        });
        ui.horizontal(|ui| {
            ui.label("delay");
            ui.add(
                egui::Slider::new(&mut doc.delay, 0.02..=2.0)
                    .suffix(" s")
                    .logarithmic(true),
            );
        });
        ui.add(
            egui::ProgressBar::new(if n == 0 {
                1.0
            } else {
                doc.cursor as f32 / n as f32
            })
            .text(format!("{} / {n} applied", doc.cursor)),
        );
        ui.separator();
        let row_h = ui.text_style_height(&egui::TextStyle::Monospace) + 4.0;
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .max_height(ui.available_height() * 0.55)
            .show_rows(ui, row_h, n, |ui, range| {
                for i in range {
                    let applied = i < doc.cursor;
                    let mut text = RichText::new(&doc.summaries[i]).monospace().size(11.0);
                    if !applied {
                        text = text.weak();
                    }
                    if doc.frames[i].is_err() {
                        text = text.color(ui.visuals().error_fg_color);
                    }
                    if ui
                        .selectable_label(i + 1 == doc.cursor, text)
                        .on_hover_text("Jump here: apply messages up to this one")
                        .clicked()
                    {
                        doc.playing = false;
                        rebuild_to = Some(i + 1);
                    }
                }
            });
        ui.separator();
        if doc.cursor > 0
            && let Some(f) = doc.frames.get(doc.cursor - 1)
        {
            ui.label(RichText::new(format!("Last applied: message #{}", doc.cursor - 1)).strong());
            let text = match f {
                Ok(v) => pretty(v),
                Err(e) => format!("framing error: {e}"),
            };
            egui::ScrollArea::vertical()
                .id_salt("last-msg")
                .auto_shrink([false, false])
                .show(ui, |ui| {
                    let shown: String = text.chars().take(4000).collect();
                    ui.label(RichText::new(shown).monospace().size(11.0));
                    if text.len() > 4000 {
                        ui.weak("… (cut)");
                    }
                });
        }
        if let Some(k) = rebuild_to {
            doc.rebuild(k, &catalog);
        }
        self.route_doc_events(events);
    }
}
