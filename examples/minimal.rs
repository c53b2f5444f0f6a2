//! The smallest embedding: an eframe app with an agent panel fed from a file or standard input,
//! printing what the user does. Copy it whole into a new project (`egui_a2ui`, `egui`, `eframe`).
//!
//! `cargo run --example minimal -- assets/samples/showcase/form-validation.jsonl`
//! `my_agent | cargo run --example minimal -- -` (JSONL, drawn as it arrives)

use std::io::Read;
use std::sync::mpsc;

use egui_a2ui::{Catalog, Renderer};

fn main() -> eframe::Result {
    let arg = std::env::args().nth(1).unwrap_or_else(|| {
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/assets/samples/showcase/form-validation.jsonl"
        )
        .into()
    });
    let mut a2ui = Renderer::new(Catalog::basic());
    let (tx, rx) = mpsc::channel::<Vec<u8>>();
    let mut stdin_tx = (arg == "-").then_some(tx);
    if stdin_tx.is_none() {
        // A file is one document: JSONL, a JSON array or an official example file.
        let bytes = std::fs::read(&arg).unwrap_or_else(|e| {
            eprintln!("cannot read {arg}: {e}");
            std::process::exit(1)
        });
        a2ui.feed_document(&bytes);
    }
    eframe::run_ui_native(
        "egui_a2ui minimal",
        Default::default(),
        move |ui, _frame| {
            if let Some(tx) = stdin_tx.take() {
                // A reader thread, so the UI never waits on I/O; it wakes the UI per chunk.
                let ctx = ui.ctx().clone();
                std::thread::spawn(move || {
                    let mut buf = [0u8; 8192];
                    while let Ok(n @ 1..) = std::io::stdin().read(&mut buf) {
                        let _ = tx.send(buf[..n].to_vec());
                        ctx.request_repaint();
                    }
                });
            }
            for chunk in rx.try_iter() {
                a2ui.feed_jsonl(&chunk); // any chunking: a partial line waits for the rest
            }
            egui::ScrollArea::vertical().show(ui, |ui| {
                // Draw every surface; each event the agent should hear about is a message.
                for event in a2ui.ui(ui) {
                    if let Some(message) = event.to_message() {
                        println!("{message}"); // send it to the agent
                    }
                }
            });
        },
    )
}
