//! Harness builders of the content, fixture and snapshot tests: 600x800 with the renderer's
//! loaders and fonts installed up front, run until the surface settles.

#![allow(dead_code)]

use egui_a2ui::{Catalog, Renderer};
use egui_kittest::kittest::NodeT as _;
use egui_kittest::{Harness, HarnessBuilder};

/// The harness state: the one [`App`](super::App) of every test.
pub use super::App as State;

/// A renderer with `document` (any accepted form) applied; its parse errors are kept as
/// events.
pub fn renderer_with(document: &str) -> Renderer {
    let mut r = Renderer::new(Catalog::basic());
    r.feed_document(document.as_bytes());
    r
}

/// A harness builder of `width`×`height` that installs the renderer's loaders and font up
/// front.
pub fn builder(width: f32, height: f32) -> HarnessBuilder<State> {
    Harness::builder()
        .with_size(egui::vec2(width, height))
        .with_context_setup(Renderer::install)
}

/// A 600×800 harness drawing `renderer` every frame, run until it settles (or a few frames
/// when something animates, e.g. a loading spinner).
pub fn harness(renderer: Renderer) -> Harness<'static, State> {
    harness_from(builder(600.0, 800.0), renderer)
}

/// Like [`harness`] with a custom builder.
pub fn harness_from(builder: HarnessBuilder<State>, renderer: Renderer) -> Harness<'static, State> {
    let mut h = super::build(builder, renderer, None);
    settle(&mut h);
    h
}

/// Step until nothing repaints, but never forever (spinners animate).
pub fn settle(h: &mut Harness<'_, State>) {
    if h.run_ok().is_none() {
        h.run_steps(2);
    }
}

/// A one-surface v0.9 document with these components (JSON array text) and data model.
pub fn v09_surface(components: &str, data: &str) -> String {
    // One message per line: re-serialise so multi-line literals stay valid JSONL.
    let one_line = |s: &str| {
        serde_json::from_str::<serde_json::Value>(s)
            .expect("valid JSON in a test")
            .to_string()
    };
    let (components, data) = (one_line(components), one_line(data));
    format!(
        r#"{{"version":"v0.9","createSurface":{{"surfaceId":"s","catalogId":"https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json"}}}}
{{"version":"v0.9","updateComponents":{{"surfaceId":"s","components":{components}}}}}
{{"version":"v0.9","updateDataModel":{{"surfaceId":"s","path":"/","value":{data}}}}}
"#
    )
}

/// Every node label in the AccessKit tree, depth first.
pub fn all_labels(h: &Harness<'_, State>) -> Vec<String> {
    fn walk(node: egui_kittest::Node<'_>, out: &mut Vec<String>) {
        let n = node.accesskit_node();
        // AccessKit keeps a static text's words in its value.
        let label = if n.role() == egui::accesskit::Role::Label {
            n.value()
        } else {
            n.label()
        };
        if let Some(l) = label {
            out.push(l.to_string());
        }
        for child in node.children() {
            walk(child, out);
        }
    }
    let mut out = Vec::new();
    walk(h.root(), &mut out);
    out
}
