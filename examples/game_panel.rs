//! A game reading A2UI data every frame: an agent's control panel (sliders, checkboxes and
//! choice pickers bound to the data model) beside a scene of bouncing shapes. The scene
//! never talks to the widgets: it reads `renderer.store().surface("game").data` each frame,
//! so whoever writes the model (the user through the panel, or the agent with
//! `updateDataModel`) steers the scene. The panel's "Shuffle" button is an A2UI action the
//! host handles itself.
//!
//! With `-- --agent TARGET` (any target `Agent::connect` reaches: `a2a+http://…`,
//! `mcp+stdio:CMD`, `jsonl:CMD`, …) an agent panel opens on the right: talk to the agent,
//! and when it sends a surface named `game`, the scene follows that surface's data model
//! instead of the built-in panel's. A scripted agent to try it with:
//! `cargo run --example game_panel -- --agent "jsonl:sh -c 'cat assets/samples/scripted/game-agent.jsonl; sleep 3600'"`.
//!
//! `cargo run --example game_panel` (`-- --frames N` quits after N frames,
//! `-- --screenshot out.png` saves a screenshot and quits).

use egui::{Color32, Pos2, Vec2, pos2, vec2};
use egui_a2ui::agent::Agent;
use egui_a2ui::{AgentPanel, Catalog, Event, PanelState, Renderer};
use serde_json::Value;

/// What the agent sent (a JSON array of messages): a control panel bound to /speed, /count, /size, /shape, /palette,
/// /trails, /paused.
const PANEL: &str = r#"[{"version":"v0.9","createSurface":{"surfaceId":"game","catalogId":"https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json"}},
{"version":"v0.9","updateComponents":{"surfaceId":"game","components":[
 {"id":"root","component":"Column","align":"stretch","children":["title","speed","count","size","shape","palette","trails","paused","shuffle","hint"]},
 {"id":"title","component":"Text","variant":"h3","text":"Scene controls"},
 {"id":"speed","component":"Slider","label":"Speed","min":0,"max":600,"value":{"path":"/speed"}},
 {"id":"count","component":"Slider","label":"Shapes","min":1,"max":80,"value":{"path":"/count"}},
 {"id":"size","component":"Slider","label":"Size","min":4,"max":40,"value":{"path":"/size"}},
 {"id":"shape","component":"ChoicePicker","label":"Shape","variant":"mutuallyExclusive","displayStyle":"chips","options":[{"label":"Circles","value":"circle"},{"label":"Squares","value":"square"},{"label":"Triangles","value":"triangle"}],"value":{"path":"/shape"}},
 {"id":"palette","component":"ChoicePicker","label":"Palette","variant":"mutuallyExclusive","options":[{"label":"Warm","value":"warm"},{"label":"Cool","value":"cool"},{"label":"Mono","value":"mono"}],"value":{"path":"/palette"}},
 {"id":"trails","component":"CheckBox","label":"Trails","value":{"path":"/trails"}},
 {"id":"paused","component":"CheckBox","label":"Paused","value":{"path":"/paused"}},
 {"id":"shuffle-label","component":"Text","text":"Shuffle"},
 {"id":"shuffle","component":"Button","child":"shuffle-label","action":{"event":{"name":"shuffle"}}},
 {"id":"hint","component":"Text","variant":"caption","text":"The scene reads these values from the data model every frame."}]}},
{"version":"v0.9","updateDataModel":{"surfaceId":"game","value":{"speed":180,"count":24,"size":14,"shape":["circle"],"palette":["warm"],"trails":true,"paused":false}}}]
"#;

struct Ball {
    pos: Pos2,
    vel: Vec2,
    trail: Vec<Pos2>,
}

/// A small deterministic generator, so the scene needs no RNG crate.
fn noise(seed: &mut u64) -> f32 {
    *seed = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (*seed >> 40) as f32 / (1u64 << 24) as f32
}

struct Game {
    a2ui: Renderer,
    /// The agent of `--agent`, with its panel's state.
    agent: Option<(Agent, PanelState)>,
    agent_target: Option<String>,
    balls: Vec<Ball>,
    seed: u64,
    frames: u64,
    quit_after: Option<u64>,
    screenshot: Option<std::path::PathBuf>,
}

impl Game {
    /// The data model the scene follows: the agent's `game` surface when it sent one, else
    /// the built-in panel's.
    fn data(&self) -> Option<&egui_a2ui::model::DataModel> {
        let from_agent = self.agent.as_ref().and_then(|(agent, _)| {
            let stores = agent.stores();
            stores.into_iter().rev().find_map(|s| s.surface("game"))
        });
        from_agent
            .or_else(|| self.a2ui.store().surface("game"))
            .map(|s| &s.data)
    }
    fn num(&self, path: &str, default: f64) -> f64 {
        let data = self.data();
        data.and_then(|d| d.get(path))
            .and_then(Value::as_f64)
            .unwrap_or(default)
    }
    fn flag(&self, path: &str) -> bool {
        let data = self.data();
        data.and_then(|d| d.get(path))
            .and_then(Value::as_bool)
            .unwrap_or(false)
    }
    /// A ChoicePicker's value is a list; the first entry is the choice.
    fn choice(&self, path: &str) -> String {
        let data = self.data();
        let v = data.and_then(|d| d.get(path));
        let first = v.and_then(|v| v.get(0)).or(v).and_then(Value::as_str);
        first.unwrap_or("").to_owned()
    }

    fn spawn(&mut self, area: egui::Rect) {
        let r = &mut self.seed;
        let pos = pos2(
            area.left() + noise(r) * area.width(),
            area.top() + noise(r) * area.height(),
        );
        let angle = noise(r) * std::f32::consts::TAU;
        let vel = vec2(angle.cos(), angle.sin());
        self.balls.push(Ball {
            pos,
            vel,
            trail: Vec::new(),
        });
    }

    fn scene(&mut self, ui: &mut egui::Ui) {
        let (rect, _) = ui.allocate_exact_size(ui.available_size(), egui::Sense::hover());
        let painter = ui.painter_at(rect);
        painter.rect_filled(rect, 8.0, Color32::from_rgb(18, 22, 30));
        // Read the agent's values: every frame, straight from the data model.
        let speed = self.num("/speed", 180.0) as f32;
        let count = self.num("/count", 24.0).clamp(1.0, 500.0) as usize;
        let size = self.num("/size", 14.0).clamp(1.0, 100.0) as f32;
        let (shape, palette) = (self.choice("/shape"), self.choice("/palette"));
        let (trails, paused) = (self.flag("/trails"), self.flag("/paused"));

        while self.balls.len() < count {
            self.spawn(rect.shrink(size));
        }
        self.balls.truncate(count);
        let dt = if paused {
            0.0
        } else {
            ui.input(|i| i.stable_dt).min(0.05)
        };
        let inner = rect.shrink(size);
        if !inner.is_positive() {
            return; // a scene narrower than a shape (the panels took the window)
        }
        for (i, b) in self.balls.iter_mut().enumerate() {
            b.pos += b.vel * speed * dt;
            if b.pos.x < inner.left() || b.pos.x > inner.right() {
                b.vel.x = -b.vel.x;
            }
            if b.pos.y < inner.top() || b.pos.y > inner.bottom() {
                b.vel.y = -b.vel.y;
            }
            b.pos = inner.clamp(b.pos);
            b.trail.push(b.pos);
            let keep = if trails { 12 } else { 1 };
            if b.trail.len() > keep {
                b.trail.drain(..b.trail.len() - keep);
            }
            let t = i as f32 / count as f32;
            let color = match palette.as_str() {
                "cool" => Color32::from_rgb(40, (120.0 + 120.0 * t) as u8, 230),
                "mono" => Color32::from_gray((120.0 + 120.0 * t) as u8),
                _ => Color32::from_rgb(240, (80.0 + 150.0 * t) as u8, 60),
            };
            for (k, p) in b.trail.iter().enumerate() {
                let fade = (k + 1) as f32 / b.trail.len() as f32;
                let c = color.gamma_multiply(fade * fade);
                let s = size * (0.4 + 0.6 * fade);
                match shape.as_str() {
                    "square" => {
                        painter.rect_filled(
                            egui::Rect::from_center_size(*p, Vec2::splat(2.0 * s)),
                            2.0,
                            c,
                        );
                    }
                    "triangle" => {
                        let pts = (0..3)
                            .map(|j| {
                                let a = -std::f32::consts::FRAC_PI_2
                                    + j as f32 * std::f32::consts::TAU / 3.0;
                                *p + s * vec2(a.cos(), a.sin())
                            })
                            .collect();
                        painter.add(egui::Shape::convex_polygon(pts, c, egui::Stroke::NONE));
                    }
                    _ => {
                        painter.circle_filled(*p, s, c);
                    }
                }
            }
        }
        painter.text(
            rect.left_top() + vec2(12.0, 10.0),
            egui::Align2::LEFT_TOP,
            format!(
                "{count} {shape}s · speed {speed:.0}{}",
                if paused { " · paused" } else { "" }
            ),
            egui::FontId::monospace(13.0),
            Color32::from_gray(200),
        );
        if !paused {
            ui.ctx().request_repaint();
        }
    }
}

impl eframe::App for Game {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        egui::Panel::left("agent")
            .default_size(300.0)
            .show(ui, |ui| {
                ui.add_space(6.0);
                for e in self.a2ui.store().errors() {
                    ui.colored_label(ui.visuals().error_fg_color, e.error.to_string());
                }
                for event in self.a2ui.ui(ui) {
                    match event {
                        // The host handles this action itself instead of sending it to an agent.
                        Event::Action(a) if a.name == "shuffle" => {
                            self.seed = self.seed.wrapping_add(0x9e37_79b9);
                            self.balls.clear();
                        }
                        other => {
                            if let Some(m) = other.to_message() {
                                println!("{m}");
                            }
                        }
                    }
                }
            });
        if let Some(target) = self.agent_target.take() {
            match connect(&target, ui.ctx()) {
                Ok(agent) => self.agent = Some((agent, PanelState::new(Catalog::basic()))),
                Err(e) => eprintln!("{target}: {e}"),
            }
        }
        if let Some((agent, state)) = &mut self.agent {
            egui::Panel::right("chat")
                .default_size(380.0)
                .size_range(280.0..=520.0)
                .show(ui, |ui| {
                    let _ = AgentPanel::new(agent, state).show(ui);
                });
        }
        egui::CentralPanel::default().show(ui, |ui| self.scene(ui));
        self.frames += 1;
        if let Some(n) = self.quit_after {
            ui.ctx().request_repaint();
            if self.frames == n {
                match self.screenshot.clone() {
                    Some(path) => {
                        let ctx = ui.ctx().clone();
                        ui.ctx().request_screenshot(move |img| {
                            let [w, h] = img.size;
                            if let Some(i) = image::RgbaImage::from_raw(
                                w as u32,
                                h as u32,
                                img.as_raw().to_vec(),
                            ) {
                                let _ = i.save(&path);
                            }
                            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
                        });
                    }
                    None => ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close),
                }
            }
        }
    }
}

/// Reach `target`: any agent with the transport features, an A2UI JSONL process without.
fn connect(target: &str, ctx: &egui::Context) -> Result<Agent, String> {
    let repaint = {
        let ctx = ctx.clone();
        move || ctx.request_repaint()
    };
    #[cfg(any(feature = "a2a", feature = "agui", feature = "mcp-http"))]
    {
        let options = egui_a2ui::transport::TransportOptions::default();
        Agent::connect(target, Catalog::basic(), options, repaint).map_err(|e| e.to_string())
    }
    #[cfg(not(any(feature = "a2a", feature = "agui", feature = "mcp-http")))]
    {
        let line = target
            .strip_prefix("jsonl:")
            .ok_or("built without the transport features: only jsonl:CMD is reachable")?;
        let store = egui_a2ui::SurfaceStore::new(Catalog::basic().catalogs());
        egui_a2ui::agent::JsonlProcess::spawn_command_line(line, store, repaint)
            .map(Agent::new)
            .map_err(|e| e.to_string())
    }
}

fn main() -> eframe::Result {
    let args: Vec<String> = std::env::args().collect();
    let flag = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
    };
    let screenshot = flag("--screenshot").map(std::path::PathBuf::from);
    let quit_after = flag("--frames")
        .and_then(|n| n.parse().ok())
        .or(screenshot.as_ref().map(|_| 60));
    let agent_target = flag("--agent").cloned();
    let mut a2ui = Renderer::new(Catalog::basic());
    a2ui.options_mut().show_surface_header = false;
    a2ui.feed_document(PANEL.as_bytes());
    let game = Game {
        a2ui,
        agent: None,
        agent_target,
        balls: Vec::new(),
        seed: 7,
        frames: 0,
        quit_after,
        screenshot,
    };
    let options = eframe::NativeOptions {
        renderer: eframe::Renderer::Glow,
        viewport: egui::ViewportBuilder::default()
            .with_title("egui_a2ui game panel")
            .with_inner_size([1280.0, 720.0]),
        ..Default::default()
    };
    eframe::run_native(
        "egui_a2ui game panel",
        options,
        Box::new(|_| Ok(Box::new(game))),
    )
}
