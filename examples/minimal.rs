//! The smallest embedding: read an A2UI stream, draw it, print what the user does.
//!
//! `cargo run --example minimal -- assets/samples/showcase/form-validation.jsonl`

use egui_a2ui::{Catalog, Renderer};

fn main() -> eframe::Result {
    let path = std::env::args().nth(1).unwrap_or_else(|| {
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/assets/samples/showcase/form-validation.jsonl"
        )
        .into()
    });
    let mut a2ui = Renderer::new(Catalog::basic());
    let mut problem = None;
    match std::fs::read(&path) {
        // JSONL, a JSON array or an example file; a bad message is reported, not fatal.
        Ok(bytes) => a2ui.feed_document(&bytes),
        Err(e) => problem = Some(format!("cannot read {path}: {e}")),
    }

    let options = eframe::NativeOptions {
        renderer: eframe::Renderer::Glow,
        ..Default::default()
    };
    eframe::run_ui_native("egui_a2ui minimal", options, move |ui, _frame| {
        egui::CentralPanel::default().show(ui, |ui| {
            if let Some(p) = &problem {
                ui.colored_label(ui.visuals().error_fg_color, p);
            }
            for e in a2ui.store().errors() {
                ui.colored_label(ui.visuals().error_fg_color, e.error.to_string());
            }
            egui::ScrollArea::vertical().show(ui, |ui| {
                // Draw every surface; each event the agent should hear about is a message.
                for event in a2ui.ui(ui) {
                    if let Some(message) = event.to_message() {
                        println!("{message}");
                    }
                }
            });
        });
    })
}
