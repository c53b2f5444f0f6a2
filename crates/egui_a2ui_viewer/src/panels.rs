//! The side panels: the gallery (left) and the inspector tabs (right): data model, action
//! log, errors, stepper. Each takes what it shows.

use egui::RichText;
use egui_a2ui::SurfaceStore;

use crate::activity::{ActivityLog, LogKind, pretty};
use crate::gallery::{Sample, group_open};
use crate::json_tree;
use crate::source::{DocSource, Source, Status};

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
    /// `data`, `actions`, `errors`, `stepper` (and a few aliases), any case.
    #[must_use]
    pub fn parse(s: &str) -> Option<Self> {
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
    /// Gallery entry `i` (with the stepper).
    Sample(usize),
    /// Live source `i` (see [`App::sources`](crate::App::sources)).
    Live(usize),
}

/// The gallery: the live sources, then the samples by group. Returns what was clicked.
pub fn gallery_ui(
    ui: &mut egui::Ui,
    samples: &[Sample],
    live: &[Box<dyn Source>],
    view: View,
    log: &ActivityLog,
) -> Option<View> {
    ui.add_space(6.0);
    ui.heading("egui_a2ui viewer");
    ui.weak("Drop .jsonl / .json streams on the window to open them.");
    ui.separator();
    let mut pick = None;
    egui::ScrollArea::vertical()
        .auto_shrink([false, false])
        .show(ui, |ui| {
            if !live.is_empty() {
                ui.label(RichText::new("Live agent").strong());
            } else if log.errors().iter().any(|e| e.source == "demo agent") {
                ui.colored_label(
                    ui.visuals().warn_fg_color,
                    "Demo agent unavailable (see Errors)",
                );
            }
            for (i, source) in live.iter().enumerate() {
                let color = match source.status() {
                    Status::Connecting | Status::Ended(_) => egui::Color32::GRAY,
                    Status::Open(_) => egui::Color32::from_rgb(60, 170, 90),
                    Status::Failed(_) => egui::Color32::from_rgb(200, 70, 60),
                };
                ui.horizontal(|ui| {
                    let (dot, _) =
                        ui.allocate_exact_size(egui::vec2(10.0, 10.0), egui::Sense::hover());
                    ui.painter().circle_filled(dot.center(), 4.5, color);
                    // The label can be an agent's command line, a long absolute path:
                    // truncate it (full text on hover) so it cannot widen the panel and
                    // squeeze the surfaces.
                    let label = source.label();
                    if ui
                        .add(egui::Button::selectable(view == View::Live(i), label).truncate())
                        .on_hover_text(label)
                        .clicked()
                    {
                        pick = Some(View::Live(i));
                    }
                });
            }
            if !live.is_empty() {
                ui.add_space(4.0);
            }
            let mut groups: Vec<&str> = Vec::new();
            for s in samples {
                if !groups.contains(&s.group.as_str()) {
                    groups.push(&s.group);
                }
            }
            for g in groups {
                egui::CollapsingHeader::new(RichText::new(g).strong())
                    .default_open(group_open(g))
                    .show(ui, |ui| {
                        for (i, s) in samples.iter().enumerate().filter(|(_, s)| s.group == g) {
                            let r = ui.selectable_label(view == View::Sample(i), &s.title);
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
    pick
}

/// The tab bar of the inspector; `stream_errors` counts into the Errors tab's number.
pub fn tabs_ui(ui: &mut egui::Ui, tab: &mut Tab, log: &ActivityLog, stream_errors: usize) {
    ui.add_space(6.0);
    ui.horizontal(|ui| {
        let errors = log.errors().len() + stream_errors;
        for (t, label) in [
            (Tab::Data, "Data model".to_owned()),
            (Tab::Actions, format!("Actions ({})", log.entries().len())),
            (Tab::Errors, format!("Errors ({errors})")),
            (Tab::Stepper, "Stepper".to_owned()),
        ] {
            ui.selectable_value(tab, t, label);
        }
    });
    ui.separator();
}

/// The Data tab: the data model of every surface in `stores` (prefix, store).
pub fn data_ui(ui: &mut egui::Ui, stores: &[(String, &SurfaceStore)]) {
    egui::ScrollArea::vertical()
        .auto_shrink([false, false])
        .show(ui, |ui| {
            let mut any = false;
            for (prefix, store) in stores {
                for s in store.surfaces() {
                    any = true;
                    let label = format!("{prefix}{} ({})", s.id, s.version.as_str());
                    json_tree::show(ui, (prefix, &s.id), &label, s.data.root());
                }
            }
            if !any {
                ui.weak("No surface yet.");
            }
        });
}

/// The Actions tab: the log, newest first.
pub fn actions_ui(ui: &mut egui::Ui, log: &mut ActivityLog) {
    ui.horizontal(|ui| {
        ui.weak("Messages to the agent, requests and answers, newest first.");
        if ui.small_button("Clear").clicked() {
            log.clear_entries();
        }
    });
    egui::ScrollArea::vertical()
        .auto_shrink([false, false])
        .show(ui, |ui| {
            let entries = log.entries();
            if entries.is_empty() {
                ui.weak("Nothing yet: press a button on a surface.");
            }
            let n = entries.len();
            for (i, e) in entries.iter().enumerate().rev() {
                let color = match e.kind {
                    LogKind::ToolsCall => egui::Color32::from_rgb(200, 120, 40),
                    LogKind::A2ui => egui::Color32::from_rgb(60, 130, 210),
                    LogKind::Result => egui::Color32::from_rgb(60, 160, 90),
                    LogKind::Note => egui::Color32::GRAY,
                    LogKind::Request => egui::Color32::from_rgb(200, 120, 40),
                    LogKind::Response => egui::Color32::from_rgb(60, 160, 90),
                };
                let header = RichText::new(format!("{} {} · {}", e.time, e.kind.as_str(), e.title))
                    .color(color);
                egui::CollapsingHeader::new(header)
                    .id_salt(("log", i))
                    .default_open(
                        i + 3 >= n
                            && !matches!(e.kind, LogKind::Result | LogKind::Response)
                            && e.json.len() < 3000,
                    )
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

/// The Errors tab: the shown stream's own rejections (`stream`), then every error logged.
pub fn errors_ui(ui: &mut egui::Ui, stream: &[String], log: &ActivityLog) {
    egui::ScrollArea::vertical()
        .auto_shrink([false, false])
        .show(ui, |ui| {
            if stream.is_empty() && log.errors().is_empty() {
                ui.weak("No errors.");
            }
            if !stream.is_empty() {
                ui.label(RichText::new("This stream").strong());
                for e in stream {
                    ui.colored_label(ui.visuals().error_fg_color, e);
                }
                ui.separator();
            }
            for e in log.errors().iter().rev() {
                ui.horizontal_wrapped(|ui| {
                    ui.weak(&e.time);
                    ui.label(RichText::new(&e.source).strong());
                    ui.colored_label(ui.visuals().error_fg_color, &e.text);
                });
            }
        });
}

/// The Stepper tab: step, rewind and replay `doc` message by message.
pub fn stepper_ui(ui: &mut egui::Ui, doc: &mut DocSource, log: &mut ActivityLog) {
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
            doc.toggle_play();
        }
        if ui
            .add_enabled(doc.cursor < n, egui::Button::new("All"))
            .on_hover_text("Apply every message")
            .clicked()
        {
            doc.playing = false;
            events.extend(doc.step_all());
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
            #[expect(clippy::cast_precision_loss, reason = "a progress fraction")]
            let f = doc.cursor as f32 / n as f32;
            f
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
        doc.rebuild(k);
    }
    doc.route_events(events, log);
}
