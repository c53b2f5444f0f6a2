//! Pressing a component without a window: the headless counterpart of a click, for scripts
//! (`a2ui_agent --click ID`) and tests. The action is resolved exactly as the conformance
//! dump resolves it (the component's scope, the data model as it stands), so pre-filled
//! form values are sent.

use serde_json::Value;

use super::TransportError;
use crate::action::{ActionEvent, ComponentAction, now_timestamp};
use crate::conformance::dump_surface;
use crate::eval::FunctionRegistry;
use crate::model::SurfaceStore;

/// The action the first instance of `component_id` (surfaces in creation order, each in
/// tree order) would fire, or why it fires none: no such component in any drawn tree, no
/// `action.event` on it, or one of its checks fails.
pub fn find_action(
    store: &SurfaceStore,
    component_id: &str,
) -> Result<ActionEvent, TransportError> {
    let functions = FunctionRegistry::basic();
    for surface in store.surfaces().filter(|s| s.began) {
        let doc = dump_surface(store, surface, &functions);
        let Some(node) = doc.get("tree").and_then(|t| first_node(t, component_id)) else {
            continue;
        };
        if let Some(Value::Array(checks)) = node.get("checks")
            && let Some(failed) = checks
                .iter()
                .find(|c| c.get("valid") == Some(&Value::Bool(false)))
        {
            return Err(TransportError::Action(format!(
                "{component_id} on {}: a check fails ({})",
                surface.id,
                failed.get("message").and_then(Value::as_str).unwrap_or("")
            )));
        }
        let Some(ComponentAction::Event {
            name,
            context,
            user_message,
        }) = node
            .pointer("/props/action")
            .and_then(ComponentAction::from_value)
        else {
            return Err(TransportError::Action(format!(
                "{component_id} on {} has no action event",
                surface.id
            )));
        };
        return Ok(ActionEvent {
            surface_id: surface.id.clone(),
            source_component_id: component_id.to_owned(),
            name,
            context,
            timestamp: now_timestamp(),
            user_message: user_message
                .as_ref()
                .and_then(Value::as_str)
                .map(str::to_owned),
            version: surface.version,
            scope: node
                .get("scope")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned(),
        });
    }
    Err(TransportError::Action(format!(
        "no component {component_id:?} in any drawn surface"
    )))
}

/// [`find_action`], as the [`Turn`](super::Turn) to send.
pub fn click(store: &SurfaceStore, component_id: &str) -> Result<super::Turn, TransportError> {
    find_action(store, component_id).map(super::Turn::Action)
}

fn first_node<'a>(node: &'a Value, id: &str) -> Option<&'a Value> {
    // Depth-first, pre-order, bounded by the tree the dump already bounded.
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        if n.get("id").and_then(Value::as_str) == Some(id) && n.get("missing").is_none() {
            return Some(n);
        }
        if let Some(Value::Array(children)) = n.get("children") {
            stack.extend(children.iter().rev());
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const BASIC: &str = "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json";

    fn store() -> SurfaceStore {
        let mut s = SurfaceStore::basic();
        for m in [
            json!({"version":"v0.9","createSurface":{"surfaceId":"f","catalogId":BASIC}}),
            json!({"version":"v0.9","updateDataModel":{"surfaceId":"f","path":"/name","value":"Ada"}}),
            json!({"version":"v0.9","updateComponents":{"surfaceId":"f","components":[
                {"id":"root","component":"Column","children":["go","bad"]},
                {"id":"go-l","component":"Text","text":"Go"},
                {"id":"go","component":"Button","child":"go-l",
                 "action":{"event":{"name":"send","context":{"who":{"path":"/name"}}}}},
                {"id":"bad","component":"Button","child":"go-l",
                 "checks":[{"condition":{"call":"required","args":{"value":{"path":"/missing"}}},"message":"needed"}],
                 "action":{"event":{"name":"never"}}}
            ]}}),
        ] {
            s.apply(m).into_result().unwrap();
        }
        s
    }

    #[test]
    fn a_click_resolves_the_context_from_the_data_model() {
        let a = find_action(&store(), "go").unwrap();
        assert_eq!(a.name, "send");
        assert_eq!(a.surface_id, "f");
        assert_eq!(a.context["who"], "Ada");
    }

    #[test]
    fn a_failing_check_or_an_unknown_id_sends_nothing() {
        let s = store();
        assert!(
            matches!(find_action(&s, "bad"), Err(TransportError::Action(m)) if m.contains("needed"))
        );
        assert!(find_action(&s, "nope").is_err());
        assert!(find_action(&s, "go-l").is_err());
    }
}
