//! A stored component: its type, normalised properties, and what the conformance dump needs
//! of the wire form.

use serde_json::Value;

use super::Props;

/// One component of a surface.
#[derive(Clone, Debug, PartialEq)]
pub struct Component {
    /// Component id, unique within the surface.
    pub id: String,
    /// Type name in the v0.9 vocabulary (`ChoicePicker` for a v0.8 `MultipleChoice`).
    pub component: String,
    /// Normalised properties (v0.9 names, v0.9 dynamic values).
    pub props: Props,
    /// Wire type name.
    pub wire_component: String,
    /// Wire properties when they differ from [`Self::props`] (v0.8 keeps its names and
    /// BoundValues; a v1.0 component sent with `@catalogId`, `@accessibility`, `@checks` or
    /// `@metadata` keeps those names here, with normalised values); `None` when they are
    /// `props` itself, so they are stored once. Read them with [`Self::wire_props`].
    pub wire_props: Option<Box<Props>>,
    /// v1.0 per-component catalog id.
    pub catalog_id: Option<String>,
    /// Bumped when the component is replaced by one of another type, so widget state keyed
    /// by it is reset.
    pub generation: u64,
}

impl Component {
    /// The properties as sent on the wire.
    pub fn wire_props(&self) -> &Props {
        self.wire_props.as_deref().unwrap_or(&self.props)
    }

    /// A normalised property.
    pub fn prop(&self, name: &str) -> Option<&Value> {
        self.props.get(name)
    }

    /// A literal string property (no binding resolution).
    pub fn str_prop(&self, name: &str) -> Option<&str> {
        self.props.get(name).and_then(Value::as_str)
    }
}
