//! Talk to any agent in a panel: A2A, AG-UI, MCP (HTTP or stdio), an A2UI JSONL process, or a
//! model behind an OpenAI-compatible chat API (`--model http://127.0.0.1:11434/v1 --model-name
//! llama3.2`). `cargo run --example agent_panel --features a2a,agui,mcp-http,chat -- TARGET`

use egui_a2ui::agent::Agent;
use egui_a2ui::transport::TransportOptions;
use egui_a2ui::{AgentPanel, Catalog, PanelState};

fn main() -> eframe::Result {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let target = match args.as_slice() {
        [t] => t.clone(),
        [m, url, n, name] if m == "--model" && n == "--model-name" => format!("chat+{url}#{name}"),
        _ => {
            eprintln!(
                "usage: agent_panel <a2a+http://… | agui+http://… | mcp+http://… | mcp+stdio:cmd | jsonl:cmd> | --model URL --model-name NAME"
            );
            std::process::exit(2)
        }
    };
    let mut state = PanelState::new(Catalog::basic());
    let mut agent: Option<Agent> = None;
    eframe::run_ui_native("egui_a2ui agent", Default::default(), move |ui, _| {
        let agent = agent.get_or_insert_with(|| {
            let (ctx, options) = (ui.ctx().clone(), TransportOptions::default());
            let repaint = move || ctx.request_repaint();
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
