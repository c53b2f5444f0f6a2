//! Idle: a surface with no animation and no input settles. The kittest harness must reach a
//! state where no repaint is requested (no timing is asserted anywhere here).

use std::time::Duration;

use egui_a2ui::{Catalog, Renderer, RendererOptions};
use egui_kittest::Harness;

const SURFACE: &str = r#"{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json"}}
{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Column","children":["title","row","list","card"]},{"id":"title","component":"Text","variant":"h2","text":{"path":"/title"}},{"id":"row","component":"Row","justify":"spaceBetween","children":["name","done","level","go"]},{"id":"name","component":"TextField","label":"Name","value":{"path":"/name"}},{"id":"done","component":"CheckBox","label":"Done","value":{"path":"/done"}},{"id":"level","component":"Slider","label":"Level","value":{"path":"/level"},"min":0,"max":10},{"id":"go","component":"Button","child":"go-label","action":{"event":{"name":"go"}}},{"id":"go-label","component":"Text","text":"Go"},{"id":"list","component":"List","children":{"componentId":"item","path":"/items"}},{"id":"item","component":"Row","children":["item-name","item-weight"]},{"id":"item-name","component":"Text","text":{"path":"name"},"weight":1},{"id":"item-weight","component":"Text","text":{"call":"formatString","args":{"value":"${n} kg"}}},{"id":"card","component":"Card","child":"card-text"},{"id":"card-text","component":"Text","text":"A card"}]}}
{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/","value":{"title":"Idle","name":"Ada","done":true,"level":4,"items":[{"name":"apples","n":3},{"name":"pears","n":5},{"name":"plums","n":8}]}}}
"#;

fn renderer() -> Renderer {
    let mut r = Renderer::new(Catalog::basic()).with_options(RendererOptions {
        show_surface_header: false,
        ..Default::default()
    });
    r.feed_document(SURFACE.as_bytes());
    assert!(r.store().errors().is_empty(), "{:?}", r.store().errors());
    r
}

fn harness(r: Renderer) -> Harness<'static, Renderer> {
    Harness::builder()
        .with_size(egui::vec2(800.0, 600.0))
        .with_max_steps(32)
        .build_ui_state(
            |ui, r: &mut Renderer| {
                let events = r.ui(ui);
                assert!(
                    events
                        .iter()
                        .all(|e| !matches!(e, egui_a2ui::Event::Error(_))),
                    "{events:?}"
                );
            },
            r,
        )
}

/// The delay the last frame asked for before the next one (`ZERO` means "repaint now").
fn repaint_delay(h: &Harness<'_, Renderer>) -> Duration {
    h.output()
        .viewport_output
        .get(&egui::ViewportId::ROOT)
        .map_or(Duration::MAX, |v| v.repaint_delay)
}

fn assert_settled(h: &mut Harness<'_, Renderer>, what: &str) {
    let steps = h
        .try_run()
        .unwrap_or_else(|e| panic!("{what}: the surface never settles: {e}"));
    assert!(steps <= 32, "{what}: {steps} steps");
    // Settled means settled: further frames without input ask for nothing either.
    for _ in 0..3 {
        h.step();
        assert_ne!(
            repaint_delay(h),
            Duration::ZERO,
            "{what}: an idle frame requested a repaint"
        );
    }
}

#[test]
fn an_idle_surface_requests_no_repaint() {
    let mut h = harness(renderer());
    assert_settled(&mut h, "first frames");
}

#[test]
fn an_idle_surface_settles_again_after_a_data_model_update() {
    let mut h = harness(renderer());
    assert_settled(&mut h, "first frames");
    let update = serde_json::json!({"version": "v0.9", "updateDataModel": {"surfaceId": "s", "path": "/items/1/name", "value": "a much longer name for pears"}});
    h.state_mut().apply(&update).into_result().expect("applies");
    assert_settled(&mut h, "after an update");
    let update = serde_json::json!({"version": "v0.9", "updateDataModel": {"surfaceId": "s", "path": "/title", "value": "A title long enough to wrap differently than the first one did"}});
    h.state_mut().apply(&update).into_result().expect("applies");
    assert_settled(&mut h, "after a title change");
}

#[test]
fn an_idle_surface_settles_at_every_window_size() {
    for size in [egui::vec2(320.0, 240.0), egui::vec2(1600.0, 1000.0)] {
        let mut h = harness(renderer());
        h.set_size(size);
        assert_settled(&mut h, &format!("at {size:?}"));
    }
}
