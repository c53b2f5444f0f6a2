//! A host registers its own component type and it is drawn like a built-in one, with the
//! same binding helpers: reads follow the data model, writes go back to it.

use crate::common;

use common::{agent, data, harness_for};
use egui::accesskit::Role;
use egui_a2ui::{Catalog, ComponentContext, Renderer, Version};
use egui_kittest::kittest::{NodeT as _, Queryable};
use serde_json::{Value, json};

const GAME_CATALOG: &str = "https://example.com/catalogs/game.json";

/// A ring filled to `value` percent, drawn with the painter. Clicking it adds 10 (through
/// the same two-way binding the built-in inputs use).
fn progress_ring(ui: &mut egui::Ui, cx: &mut ComponentContext<'_, '_>) -> egui::Response {
    let value = cx.number("value").unwrap_or(0.0).clamp(0.0, 100.0);
    let label = cx.string("label");
    let (rect, response) = ui.allocate_exact_size(egui::vec2(48.0, 48.0), egui::Sense::click());
    let painter = ui.painter();
    let center = rect.center();
    let radius = rect.width() / 2.0 - 4.0;
    painter.circle_stroke(center, radius, ui.visuals().widgets.inactive.bg_stroke);
    let end = std::f32::consts::TAU * (value as f32 / 100.0);
    let points: Vec<egui::Pos2> = (0..=32)
        .map(|i| {
            let a = -std::f32::consts::FRAC_PI_2 + end * i as f32 / 32.0;
            center + radius * egui::vec2(a.cos(), a.sin())
        })
        .collect();
    painter.add(egui::Shape::line(
        points,
        egui::Stroke::new(4.0, ui.visuals().selection.bg_fill),
    ));
    response.widget_info(|| {
        let mut info = egui::WidgetInfo::labeled(Role::ProgressIndicator, true, &label);
        info.value = Some(value);
        info
    });
    if response.clicked() {
        cx.write(ui, "value", json!((value + 10.0).min(100.0)));
    }
    response
}

fn renderer() -> Renderer {
    let mut catalog = Catalog::basic().with_catalog_id(GAME_CATALOG, Version::V0_9);
    catalog.register("ProgressRing", progress_ring);
    let mut r = Renderer::new(catalog);
    let doc = [
        json!({"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": GAME_CATALOG}}),
        json!({"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": [
            {"id": "root", "component": "Column", "children": ["ring", "pct"]},
            {"id": "ring", "component": "ProgressRing", "label": "Quest", "value": {"path": "/quest/progress"}},
            {"id": "pct", "component": "Text", "text": {"path": "/quest/progress"}}
        ]}}),
        json!({"version": "v0.9", "updateDataModel": {"surfaceId": "s", "path": "/quest", "value": {"progress": 30}}}),
    ];
    for m in doc {
        r.apply(&m).into_result().expect("applies");
    }
    r
}

fn ring_value(h: &egui_kittest::Harness<'static, common::App>) -> Option<f64> {
    h.get_by_role_and_label(Role::ProgressIndicator, "Quest")
        .accesskit_node()
        .numeric_value()
}

#[test]
fn a_registered_custom_component_renders_and_follows_its_binding() {
    let mut h = harness_for(renderer());
    assert_eq!(ring_value(&h), Some(30.0));
    agent(
        &mut h,
        json!({"version": "v0.9", "updateDataModel": {"surfaceId": "s", "path": "/quest/progress", "value": 75}}),
    );
    h.run();
    assert_eq!(ring_value(&h), Some(75.0));
    assert!(
        h.state()
            .events
            .iter()
            .all(|e| !matches!(e, egui_a2ui::Event::Error(_))),
        "the custom type is accepted for its catalog"
    );
}

#[test]
fn a_custom_component_writes_its_binding_like_a_built_in_input() {
    let mut h = harness_for(renderer());
    h.get_by_role_and_label(Role::ProgressIndicator, "Quest")
        .click();
    h.run();
    assert_eq!(data(&h, "/quest/progress"), Some(Value::from(40.0)));
    assert_eq!(ring_value(&h), Some(40.0));
    assert!(
        h.query_all_by_value("40")
            .any(|n| n.accesskit_node().role() == Role::Label),
        "a Text bound to the same path follows"
    );
}
