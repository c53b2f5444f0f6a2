//! A stored component: its type, normalised properties, and what the conformance dump needs
//! of the wire form.

use std::borrow::Cow;
use std::fmt;

use super::Props;
use crate::protocol::V08Wire;
use crate::stored::compact::{
    PropMap, PropRef, StoredProps, component_id, component_type, decode_component,
    encode_component, encode_component_stored, props_at, props_offset,
};

/// One component of a surface.
///
/// Stored compactly: the id, type and properties are one encoded string (known names and
/// types one byte each; about half the component's JSON size), read through borrowed views
/// ([`PropMap`], [`PropRef`]).
///
/// ```
/// use egui_a2ui::model::{Component, Props};
/// use serde_json::json;
///
/// let props: Props = [("text", json!("Hi"))].into_iter().collect();
/// let c = Component::new("t".into(), "Text".into(), props.clone());
/// assert_eq!((c.id(), c.component()), ("t", "Text"));
/// assert_eq!(c.str_prop("text"), Some("Hi"));
/// assert_eq!(c.wire_component(), "Text");
/// assert_eq!(*c.wire_props(), props);
/// assert_eq!(c.props(), props);
/// assert_eq!(c.catalog_id(), None);
/// ```
#[derive(Clone)]
pub struct Component {
    /// The type, id and normalised properties (v0.9 names, v0.9 dynamic values), encoded.
    data: Box<str>,
    /// Where the properties start in `data` (read every frame: found once).
    props_at: u32,
    /// What differs on the wire (rare: v0.8 components, v1.0 components with `@` keys or a
    /// catalog id of their own); `None` for most, so they pay one pointer for it.
    wire: Option<Box<Wire>>,
    /// Bumped when the component is replaced by one of another type, so widget state keyed
    /// by it is reset (wraps around).
    pub generation: u32,
}

/// The wire form of a component where it differs from the normalised one.
#[derive(Clone, Debug, PartialEq)]
struct Wire {
    /// The wire type name, when not [`Component::component`].
    component: Option<String>,
    /// The wire properties, when not [`Component::props`].
    props: Option<Props>,
    /// The v1.0 per-component catalog id.
    catalog_id: Option<String>,
    /// A v0.8 component whose wire properties are derived from [`Component::props`] on
    /// demand (most of them: one stored copy of the properties). Kept in the box, so the
    /// components of the other versions pay nothing for it.
    v08: Option<V08Wire>,
}

impl Component {
    /// A component whose wire form is its normalised form (generation 0).
    pub fn new(id: String, component: String, props: Props) -> Self {
        let data = encode_component(&id, &component, &props);
        Self {
            props_at: props_offset(&data),
            data,
            wire: None,
            generation: 0,
        }
    }

    /// A component from properties already in the stored form (a parsed
    /// [`ComponentDef`](crate::protocol::ComponentDef)'s), copied as they are.
    pub fn from_stored(id: &str, component: &str, props: &StoredProps) -> Self {
        let data = encode_component_stored(id, component, props);
        Self {
            props_at: props_offset(&data),
            data,
            wire: None,
            generation: 0,
        }
    }

    /// Set the wire form: the wire type name (`MultipleChoice` in v0.8), the properties as
    /// sent (v0.8 names, v1.0 `@` keys) and the v1.0 per-component catalog id. Each is
    /// stored only when it differs from the normalised form.
    pub fn with_wire(
        mut self,
        wire_component: Option<String>,
        wire_props: Option<Props>,
        catalog_id: Option<String>,
    ) -> Self {
        let component = wire_component.filter(|w| w != self.component());
        self.wire =
            (component.is_some() || wire_props.is_some() || catalog_id.is_some()).then(|| {
                Box::new(Wire {
                    component,
                    props: wire_props,
                    catalog_id,
                    v08: None,
                })
            });
        self
    }

    /// Set the recipe that derives a v0.8 component's wire properties from its normalised
    /// ones (instead of storing them).
    pub(crate) fn with_v08_wire(mut self, recipe: Option<V08Wire>) -> Self {
        if let Some(recipe) = recipe {
            self.wire
                .get_or_insert_with(|| {
                    Box::new(Wire {
                        component: None,
                        props: None,
                        catalog_id: None,
                        v08: None,
                    })
                })
                .v08 = Some(recipe);
        }
        self
    }

    /// Component id, unique within the surface.
    pub fn id(&self) -> &str {
        component_id(&self.data)
    }

    /// Type name in the v0.9 vocabulary (`ChoicePicker` for a v0.8 `MultipleChoice`).
    pub fn component(&self) -> &str {
        component_type(&self.data)
    }

    /// Normalised properties (v0.9 names, v0.9 dynamic values), in wire order.
    pub fn props(&self) -> PropMap<'_> {
        props_at(&self.data, self.props_at)
    }

    /// The wire type name (`MultipleChoice` for a v0.8 `MultipleChoice`, else
    /// [`Self::component`]).
    pub fn wire_component(&self) -> &str {
        match self.wire.as_ref().and_then(|w| w.component.as_deref()) {
            Some(w) => w,
            None => self.component(),
        }
    }

    /// The properties as sent on the wire (v0.8 keeps its names and BoundValues; a v1.0
    /// component sent with `@catalogId`, `@accessibility`, `@checks` or `@metadata` keeps
    /// those names, with normalised values). Borrowed when stored apart (rare); otherwise
    /// made on each call from the stored properties (an owned value).
    pub fn wire_props(&self) -> Cow<'_, Props> {
        let Some(wire) = &self.wire else {
            return Cow::Owned(self.props().to_props());
        };
        match (&wire.props, wire.v08) {
            (Some(props), _) => Cow::Borrowed(props),
            (None, Some(recipe)) => {
                Cow::Owned(recipe.derive(self.wire_component(), &self.props().to_props()))
            }
            (None, None) => Cow::Owned(self.props().to_props()),
        }
    }

    /// The v1.0 per-component catalog id.
    pub fn catalog_id(&self) -> Option<&str> {
        self.wire.as_ref().and_then(|w| w.catalog_id.as_deref())
    }

    /// A normalised property.
    pub fn prop(&self, name: &str) -> Option<PropRef<'_>> {
        self.props().get(name)
    }

    /// A literal string property (no binding resolution).
    pub fn str_prop(&self, name: &str) -> Option<&str> {
        self.prop(name).and_then(PropRef::as_str)
    }
}

impl PartialEq for Component {
    /// The same id, type, properties (in any order, as a JSON object), wire form and
    /// generation.
    fn eq(&self, other: &Self) -> bool {
        let (a, b) = (decode_component(&self.data), decode_component(&other.data));
        a.id == b.id
            && a.component == b.component
            && a.props == b.props
            && self.wire == other.wire
            && self.generation == other.generation
    }
}

impl fmt::Debug for Component {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts = decode_component(&self.data);
        f.debug_struct("Component")
            .field("id", &parts.id)
            .field("component", &parts.component)
            .field("props", &parts.props)
            .field("wire", &self.wire)
            .field("generation", &self.generation)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The v0.8 recipe lives in the wire box: a component of any other version is no
    /// bigger for it (id, type, props, the box pointer, the generation).
    #[test]
    fn a_component_is_thirty_two_bytes() {
        assert_eq!(std::mem::size_of::<Component>(), 16 + 4 + 8 + 4);
    }

    #[test]
    fn the_wire_form_is_stored_only_when_it_differs() {
        let props: Props = [("text", json!("Hi"))].into_iter().collect();
        let same = Component::new("a".into(), "Text".into(), props.clone()).with_wire(
            Some("Text".into()),
            None,
            None,
        );
        assert!(same.wire.is_none());
        let wire: Props = [("usageHint", json!("h1"))].into_iter().collect();
        let v08 = Component::new("b".into(), "ChoicePicker".into(), props.clone()).with_wire(
            Some("MultipleChoice".into()),
            Some(wire.clone()),
            None,
        );
        assert_eq!(v08.wire_component(), "MultipleChoice");
        assert_eq!(*v08.wire_props(), wire);
        assert_eq!(v08.props(), props);
        let cat = Component::new("c".into(), "Text".into(), props).with_wire(
            None,
            None,
            Some("urn:c".into()),
        );
        assert_eq!(cat.catalog_id(), Some("urn:c"));
        assert_eq!(cat.wire_component(), "Text");
        assert_eq!(cat.props(), *cat.wire_props());
    }
}
