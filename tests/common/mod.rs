//! The one harness of the integration tests, shared by every layer crate (`tests/<layer>/`):
//! a renderer inside a kittest harness that keeps every event the renderer returned
//! ([`App`]), the documents tests build, and the helpers for data, actions and agent
//! messages. [`content`] has the builders of the content, fixture and snapshot tests (the
//! same [`App`]), [`peers`] starts the Python peers, [`explosions`] the tree-explosion
//! graphs.

#![allow(dead_code)]

pub mod content;
pub mod explosions;
pub mod peers;
#[cfg(feature = "snapshots")]
pub mod pixels;

use egui_a2ui::{ActionEvent, Catalog, Event, Renderer};
use egui_kittest::{Harness, HarnessBuilder};
use serde_json::Value;

/// The harness state: the renderer and every event it returned so far.
pub struct App {
    pub renderer: Renderer,
    pub events: Vec<Event>,
}

impl App {
    /// A state drawing `renderer`, with no events yet.
    pub fn new(renderer: Renderer) -> Self {
        Self {
            renderer,
            events: Vec::new(),
        }
    }

    /// `Event::Error`s so far.
    pub fn errors(&self) -> Vec<String> {
        self.events
            .iter()
            .filter_map(|e| match e {
                Event::Error(c) => Some(format!("{:?}", c.error)),
                _ => None,
            })
            .collect()
    }

    /// URLs of `Event::OpenUrl`s so far.
    pub fn opened_urls(&self) -> Vec<String> {
        self.events
            .iter()
            .filter_map(|e| match e {
                Event::OpenUrl { url, .. } => Some(url.clone()),
                _ => None,
            })
            .collect()
    }
}

/// The v0.9 basic catalog id.
pub const BASIC_V09: &str = "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json";
/// The v1.0 basic catalog id.
pub const BASIC_V10: &str = "https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json";

/// A v0.9 document for surface `s`: createSurface, the components, then a data model.
pub fn v09_doc(components: Value, data: Value) -> String {
    let create = serde_json::json!({"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": BASIC_V09}});
    let update = serde_json::json!({"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": components}});
    let model = serde_json::json!({"version": "v0.9", "updateDataModel": {"surfaceId": "s", "path": "/", "value": data}});
    format!("{create}\n{update}\n{model}\n")
}

/// The same for v1.0.
pub fn v10_doc(components: Value, data: Value) -> String {
    let create = serde_json::json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": BASIC_V10}});
    let update = serde_json::json!({"version": "v1.0", "updateComponents": {"surfaceId": "s", "components": components}});
    let model = serde_json::json!({"version": "v1.0", "updateDataModel": {"surfaceId": "s", "path": "/", "value": data}});
    format!("{create}\n{update}\n{model}\n")
}

/// The one way the tests build a harness: `builder` (size, context setup, step limits)
/// drawing `renderer` every frame, inside `host` when given (a fixed rect, as a host panel
/// would give it) or the whole window, keeping every event in [`App::events`]. It has run
/// no frame yet.
pub fn build(
    builder: HarnessBuilder<App>,
    renderer: Renderer,
    host: Option<egui::Rect>,
) -> Harness<'static, App> {
    builder.build_ui_state(
        move |ui, app: &mut App| {
            let mut draw = |ui: &mut egui::Ui| {
                let events = app.renderer.ui(ui);
                app.events.extend(events);
            };
            match host {
                Some(rect) => {
                    ui.scope_builder(egui::UiBuilder::new().max_rect(rect), draw);
                }
                None => draw(ui),
            }
        },
        App::new(renderer),
    )
}

/// An 800x700 harness drawing `renderer`, run until it settles; fails if applying the
/// document reported errors.
pub fn harness_for(renderer: Renderer) -> Harness<'static, App> {
    assert!(
        renderer.store().errors().is_empty(),
        "{:?}",
        renderer.store().errors()
    );
    let mut h = build(
        Harness::builder().with_size(egui::vec2(800.0, 700.0)),
        renderer,
        None,
    );
    h.run();
    h
}

/// A harness drawing a document with the basic catalog.
pub fn harness(doc: &str) -> Harness<'static, App> {
    let mut r = Renderer::new(Catalog::basic());
    r.feed_document(doc.as_bytes());
    harness_for(r)
}

/// The value at `path` in surface `s`.
pub fn data(h: &Harness<'_, App>, path: &str) -> Option<Value> {
    h.state()
        .renderer
        .store()
        .surface("s")
        .and_then(|s| s.data.get(path).cloned())
}

/// Every action event so far.
pub fn actions(h: &Harness<'_, App>) -> Vec<ActionEvent> {
    h.state()
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Action(a) => Some(a.clone()),
            _ => None,
        })
        .collect()
}

/// Apply one agent message while the harness runs.
pub fn agent(h: &mut Harness<'_, App>, message: Value) {
    h.state_mut()
        .renderer
        .apply(&message)
        .into_result()
        .expect("the agent message applies");
}
