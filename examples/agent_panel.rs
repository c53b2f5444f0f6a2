//! Talk to any agent in a panel: A2A, AG-UI, MCP over HTTP, or a process speaking A2UI JSONL.
//!
//! `cargo run --example agent_panel --features a2a,agui,mcp-http -- a2a+http://127.0.0.1:10002`
//! (or `agui+http://…`, `mcp+http://…/mcp`, `jsonl:<command line>`)

use egui_a2ui::agent::Agent;
use egui_a2ui::transport::TransportOptions;
use egui_a2ui::{AgentPanel, Catalog, PanelState};

fn main() -> eframe::Result {
    let target = std::env::args().nth(1).unwrap_or_else(|| {
        eprintln!("usage: agent_panel <a2a+http://… | agui+http://… | mcp+http://… | jsonl:cmd>");
        std::process::exit(2)
    });
    let mut state = PanelState::new(Catalog::basic());
    let mut agent: Option<Agent> = None;
    eframe::run_ui_native("egui_a2ui agent", Default::default(), move |ui, _| {
        let agent = agent.get_or_insert_with(|| {
            let ctx = ui.ctx().clone();
            let repaint = move || ctx.request_repaint();
            let options = TransportOptions::default();
            Agent::connect(&target, Catalog::basic(), options, repaint).unwrap_or_else(|e| {
                eprintln!("{e}");
                std::process::exit(1)
            })
        });
        let out = AgentPanel::new(agent, &mut state).show(ui);
        for event in out.events {
            if let egui_a2ui::Event::OpenUrl { url, .. } = event {
                ui.ctx().open_url(egui::OpenUrl::new_tab(url)); // the host decides
            }
        }
    })
}
