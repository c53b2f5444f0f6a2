//! The messages the parser yields: shared, so reporting or keeping one copies nothing, and
//! a partial component update made of the parser's own components (shared with it), its
//! JSON value built only if someone asks for it.

use std::sync::{Arc, OnceLock};

use serde_json::{Map, Value};

use super::Family;

/// One A2UI message yielded from model text. Cloning it is a reference count; a
/// [`SurfaceStore`](crate::SurfaceStore) applies it as it is
/// ([`SurfaceStore::apply`](crate::SurfaceStore::apply) takes `&ModelMessage`), and the
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
