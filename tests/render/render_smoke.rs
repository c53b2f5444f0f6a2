//! The renderer draws a fixture inside a kittest harness and user input flows back.

use egui_a2ui::{Catalog, Event, Renderer};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

const FORM: &str = r#"{"version":"v0.9","createSurface":{"surfaceId":"f","catalogId":"https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json"}}
{"version":"v0.9","updateComponents":{"surfaceId":"f","components":[{"id":"root","component":"Column","children":["name","echo","go"]},{"id":"name","component":"TextField","label":"Name","value":{"path":"/name"}},{"id":"echo","component":"Text","text":{"path":"/name"}},{"id":"go","component":"Button","child":"go-label","action":{"event":{"name":"submit","context":{"who":{"path":"/name"}}}}},{"id":"go-label","component":"Text","text":"Send"}]}}
{"version":"v0.9","updateDataModel":{"surfaceId":"f","path":"/name","value":"Ada"}}
"#;

#[test]
fn clicking_a_button_emits_its_action_with_the_bound_context() {
    let mut r = Renderer::new(Catalog::basic());
    r.feed_document(FORM.as_bytes());
    assert!(r.store().errors().is_empty(), "{:?}", r.store().errors());
    let mut harness = crate::common::build(Harness::builder(), r, None);
    harness.run();
    harness.get_by_label("Send").click();
    harness.run();
    let events = &harness.state().events;
    let action = events
        .iter()
        .find_map(|e| match e {
            Event::Action(a) => Some(a),
            _ => None,
        })
        .expect("an action");
    assert_eq!(action.name, "submit");
    assert_eq!(action.context["who"], "Ada");
    assert_eq!(action.source_component_id, "go");
}
