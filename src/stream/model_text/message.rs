//! The messages the parser yields: shared, so reporting or keeping one copies nothing, and
//! a partial component update made of the parser's own components (shared with it), its
//! JSON value built only if someone asks for it.

use std::sync::{Arc, OnceLock};

use serde_json::{Map, Value};

use super::Family;

/// One A2UI message yielded from model text. Cloning it is a reference count; a
/// [`SurfaceStore`](crate::model::SurfaceStore) applies it as it is
/// ([`SurfaceStore::apply`](crate::model::SurfaceStore::apply) takes `&ModelMessage`), and the
/// [`ModelTextEvent::Applied`](super::ModelTextEvent::Applied) reporting it shares it.
///
/// A partial `updateComponents` / `surfaceUpdate` (the components complete and reachable so
/// far, with placeholders) holds the components the parser keeps; its JSON value is built
/// on the first [`Self::value`] (or deref) and kept. Every other message is its JSON
/// value.
#[derive(Clone)]
pub struct ModelMessage(Arc<Inner>);

enum Inner {
    Value(Value),
    Components(Components),
}

struct Components {
    family: Family,
    version: String,
    surface_id: String,
    components: Vec<Arc<Value>>,
    value: OnceLock<Value>,
}

impl ModelMessage {
    /// A partial component update of `surface_id` carrying `components` (v0.9+:
    /// `updateComponents` with `version`; v0.8: `surfaceUpdate`).
    pub(super) fn components(
        family: Family,
        version: &str,
        surface_id: &str,
        components: Vec<Arc<Value>>,
    ) -> Self {
        Self(Arc::new(Inner::Components(Components {
            family,
            version: version.to_owned(),
            surface_id: surface_id.to_owned(),
            components,
            value: OnceLock::new(),
        })))
    }

    /// The message as JSON (a partial component update's value is built on the first
    /// call and kept).
    pub fn value(&self) -> &Value {
        match &*self.0 {
            Inner::Value(v) => v,
            Inner::Components(c) => c.value.get_or_init(|| c.to_value()),
        }
    }

    /// The message as an owned JSON value (moved out when this is its only holder).
    pub fn into_value(self) -> Value {
        match Arc::try_unwrap(self.0) {
            Ok(Inner::Value(v)) => v,
            Ok(Inner::Components(c)) => match c.value.into_inner() {
                Some(v) => v,
                None => Components {
                    value: OnceLock::new(),
                    ..c
                }
                .to_value(),
            },
            Err(shared) => Self(shared).value().clone(),
        }
    }

    /// A partial component update: its surface id and the components it carries
    /// (`None` for every other message, which is its [`Self::value`]).
    pub fn shared_components(&self) -> Option<(&str, &[Arc<Value>])> {
        match &*self.0 {
            Inner::Components(c) => Some((c.surface_id.as_str(), c.components.as_slice())),
            Inner::Value(_) => None,
        }
    }

    /// The surface the message is for: a partial component update's, else the
    /// `surfaceId` in the message's body (v0.8 `deleteSurface` may name it as a string).
    pub fn surface_id(&self) -> Option<&str> {
        match &*self.0 {
            Inner::Components(c) => Some(c.surface_id.as_str()),
            Inner::Value(v) => v.as_object().and_then(|o| {
                o.values().find_map(|b| match b {
                    Value::Object(body) => body.get("surfaceId").and_then(Value::as_str),
                    _ => None,
                })
            }),
        }
    }

    /// The wire version a partial component update is written in (`None` for v0.8 and
    /// for every other message).
    pub(crate) fn components_version(&self) -> Option<&str> {
        match &*self.0 {
            Inner::Components(c) if c.family == Family::V09 => Some(c.version.as_str()),
            _ => None,
        }
    }
}

impl Components {
    fn to_value(&self) -> Value {
        let components = Value::Array(self.components.iter().map(|c| (**c).clone()).collect());
        let mut body = Map::new();
        let mut msg = Map::new();
        match self.family {
            Family::V08 => {
                body.insert("surfaceId".into(), Value::String(self.surface_id.clone()));
                body.insert("components".into(), components);
                msg.insert("surfaceUpdate".into(), Value::Object(body));
            }
            Family::V09 => {
                body.insert("components".into(), components);
                body.insert("surfaceId".into(), Value::String(self.surface_id.clone()));
                msg.insert("version".into(), Value::String(self.version.clone()));
                msg.insert("updateComponents".into(), Value::Object(body));
            }
        }
        Value::Object(msg)
    }
}

impl std::ops::Deref for ModelMessage {
    type Target = Value;
    fn deref(&self) -> &Value {
        self.value()
    }
}

impl From<Value> for ModelMessage {
    fn from(v: Value) -> Self {
        Self(Arc::new(Inner::Value(v)))
    }
}

impl From<ModelMessage> for Value {
    fn from(m: ModelMessage) -> Self {
        m.into_value()
    }
}

impl PartialEq for ModelMessage {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0) || self.value() == other.value()
    }
}

impl PartialEq<Value> for ModelMessage {
    fn eq(&self, other: &Value) -> bool {
        self.value() == other
    }
}

impl std::fmt::Debug for ModelMessage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.value().fmt(f)
    }
}

impl serde::Serialize for ModelMessage {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.value().serialize(serializer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::functions::FunctionRegistry;
    use crate::model::SurfaceStore;
    use serde_json::json;

    /// A store after `messages`, as the conformance dump.
    fn applied(messages: &[ModelMessage], by_value: bool) -> Value {
        let mut store = SurfaceStore::basic();
        for m in messages {
            let r = if by_value {
                store.apply(m.value().clone())
            } else {
                store.apply(m)
            };
            assert!(r.into_result().is_ok(), "{m:?}");
        }
        crate::conformance::dump(&store, &FunctionRegistry::basic())
    }

    #[test]
    fn a_shared_partial_update_is_its_json_and_applies_as_it() {
        let create = ModelMessage::from(json!({"version": "v0.9", "createSurface": {
            "surfaceId": "s",
            "catalogId": "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json"}}));
        let root =
            Arc::new(json!({"id": "root", "component": "Column", "children": ["t", "loading_u"]}));
        let text = Arc::new(json!({"id": "t", "component": "Text", "text": "Hi"}));
        let ph = Arc::new(json!({"id": "loading_u", "component": "Row", "children": []}));
        let partial = ModelMessage::components(
            Family::V09,
            "v0.9",
            "s",
            vec![Arc::clone(&root), Arc::clone(&text), ph],
        );
        // Shared: the message holds the parser's components, not copies.
        let (sid, comps) = partial.shared_components().expect("a partial update");
        assert_eq!(sid, "s");
        assert!(Arc::ptr_eq(&comps[0], &root) && Arc::ptr_eq(&comps[1], &text));
        // Its value is the message the reference yields.
        let want = json!({"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": [
            {"id": "root", "component": "Column", "children": ["t", "loading_u"]},
            {"id": "t", "component": "Text", "text": "Hi"},
            {"id": "loading_u", "component": "Row", "children": []},
        ]}});
        assert_eq!(partial, want);
        assert_eq!(partial.surface_id(), Some("s"));
        assert_eq!(partial.clone().into_value(), want);
        // Applied from its components, the store ends as applied from its value.
        let messages = [create, partial];
        let direct = applied(&messages, false);
        assert_eq!(direct, applied(&messages, true));
        let dumped = direct.to_string();
        assert!(
            dumped.contains("\"Hi\"") && dumped.contains("loading_u"),
            "{dumped}"
        );
        // v0.8: a `surfaceUpdate` without version.
        let v08 = ModelMessage::components(Family::V08, "v0.9", "s", vec![text]);
        assert_eq!(
            v08,
            json!({"surfaceUpdate": {"surfaceId": "s", "components": [
                {"id": "t", "component": "Text", "text": "Hi"}]}})
        );
        assert_eq!(v08.components_version(), None);
    }
}
