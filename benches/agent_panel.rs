//! `agent_panel`: one headless frame (`run_ui` + tessellation) of the agent panel over a
//! 500-turn conversation with 100 surfaces versus a 10-turn one with 2 surfaces (a scripted
//! connection; the panel stuck to the bottom, as a user sees it). The thread draws only
//! the entries in view, so the long conversation's frame should cost about the short one's.
//! Target: long / short <= 1.5. Also reported: restoring the long conversation from its
//! saved document.

mod common;

use std::time::Instant;

use common::*;
use egui_a2ui::agent::{Agent, ScriptedConnection};
use egui_a2ui::panel::{AgentPanel, PanelState};
use egui_a2ui::transport::Turn;
use egui_a2ui::{Catalog, Renderer};
use serde_json::{Value, json};

/// A small form: a heading, a text field bound to data, a check box and a button.
fn surface(i: usize) -> Vec<Value> {
    let sid = format!("s{i}");
    vec![
        create(&sid),
        components(
            &sid,
            vec![
                json!({"id": "root", "component": "Column", "children": ["h", "f", "c", "b"]}),
                json!({"id": "h", "component": "Text", "text": format!("Result {i}"), "variant": "h3"}),
                json!({"id": "f", "component": "TextField", "label": "Note", "value": {"path": "/note"}}),
                json!({"id": "c", "component": "CheckBox", "label": "Keep", "value": {"path": "/keep"}}),
                json!({"id": "b", "component": "Button", "child": "bl", "action": {"event": {"name": "pick"}}}),
                json!({"id": "bl", "component": "Text", "text": "Pick"}),
            ],
        ),
        data(&sid, "/note", json!(format!("note {i}"))),
    ]
}

/// A conversation of `turns` turns; every `turns / surfaces`-th reply carries a surface.
fn conversation(turns: usize, surfaces: usize) -> Agent {
    let every = (turns / surfaces.max(1)).max(1);
    let replies = (0..turns)
        .map(|i| {
            if i % every == every - 1 {
                surface(i)
            } else {
                Vec::new()
            }
        })
        .collect();
    let mut agent = Agent::new(ScriptedConnection::new(replies));
    for i in 0..turns {
        let _ = agent.send(Turn::Text(format!(
            "Question {i}: what about **this** and that, in a sentence long enough to wrap?"
        )));
        let _ = agent.poll();
    }
    agent
}

fn panel_frame(
    ctx: &egui::Context,
    input: &egui::RawInput,
    agent: &mut Agent,
    state: &mut PanelState,
) {
    frame(ctx, input, |ui| {
        let out = AgentPanel::new(agent, state).show(ui);
        std::hint::black_box(out.events.len());
    });
}

fn main() {
    let input = raw_input(480.0, 800.0);
    let (long_turns, long_surfaces) = if bench_mode() { (500, 100) } else { (50, 10) };
    let mut long = conversation(long_turns, long_surfaces);
    let mut short = conversation(10, 2);
    let mut long_state = PanelState::new(Catalog::basic());
    let mut short_state = PanelState::new(Catalog::basic());
    let lctx = egui::Context::default();
    let sctx = egui::Context::default();
    for ctx in [&lctx, &sctx] {
        Renderer::install(ctx);
    }
    // Settle: fonts, measured heights, stuck to the bottom.
    for _ in 0..10 {
        panel_frame(&lctx, &input, &mut long, &mut long_state);
        panel_frame(&sctx, &input, &mut short, &mut short_state);
    }
    if !summary_only() {
        let mut c = criterion();
        let mut g = c.benchmark_group("agent_panel");
        g.bench_function(format!("{long_turns}_turns"), |b| {
            b.iter(|| panel_frame(&lctx, &input, &mut long, &mut long_state));
        });
        g.bench_function("10_turns", |b| {
            b.iter(|| panel_frame(&sctx, &input, &mut short, &mut short_state));
        });
        g.finish();
        c.final_summary();
    }
    let p = paired(
        15,
        20,
        || panel_frame(&lctx, &input, &mut long, &mut long_state),
        || panel_frame(&sctx, &input, &mut short, &mut short_state),
    );
    let name = format!("{long_turns} turns / {long_surfaces} surfaces");
    summary(
        "agent_panel",
        &format!("{name}: us per frame"),
        us(p.a),
        None,
    );
    summary(
        "agent_panel",
        "10 turns / 2 surfaces: us per frame",
        us(p.b),
        None,
    );
    summary(
        "agent_panel",
        &format!("{name} / 10 turns, per frame"),
        p.ratio,
        Some(1.5),
    );
    summary(
        "agent_panel",
        &format!("{name}: entries laid out"),
        long_state.measured_entries() as f64,
        None,
    );
    let doc = long.save();
    let t = Instant::now();
    let restored = Agent::restore(&doc, &Catalog::basic()).map(|a| a.thread().len());
    let restore_ms = t.elapsed().as_secs_f64() * 1e3;
    assert_eq!(restored.ok(), Some(long.thread().len()));
    summary(
        "agent_panel",
        &format!("{name}: restore ms ({} KiB)", doc.len() / 1024),
        restore_ms,
        Some(1000.0),
    );
}
