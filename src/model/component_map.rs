//! [`ComponentMap`]: a surface's components by id, in first-arrival order.

use std::borrow::Borrow;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use indexmap::IndexSet;

use super::{Component, IdHasher};

/// A surface's components by id, in first-arrival order.
///
/// Keyed by the components' own ids (the id is stored once, in the component), hashed with
/// the model's randomly seeded [`IdHasher`]. Reads like the `IndexMap<String, Arc<Component>>`
/// it replaces: [`get`](Self::get), [`contains_key`](Self::contains_key),
/// [`len`](Self::len), [`keys`](Self::keys), [`values`](Self::values), [`iter`](Self::iter).
///
/// ```
/// use std::sync::Arc;
/// use egui_a2ui::model::{Component, ComponentMap, Props};
///
/// let mut map = ComponentMap::default();
/// map.insert(Arc::new(Component::new("a".into(), "Text".into(), Props::new())));
/// map.insert(Arc::new(Component::new("b".into(), "Row".into(), Props::new())));
/// // Replacing keeps the first-arrival place.
/// map.insert(Arc::new(Component::new("a".into(), "Image".into(), Props::new())));
/// assert_eq!(map.keys().collect::<Vec<_>>(), ["a", "b"]);
/// assert_eq!(map.get("a").map(|c| c.component()), Some("Image"));
/// assert!(map.contains_key("b") && !map.contains_key("c"));
/// ```
#[derive(Clone, Default)]
pub struct ComponentMap {
    set: IndexSet<ById, IdHasher>,
}

/// A component as a set element: hashed and compared by its id, and found by `&str`.
#[derive(Clone)]
struct ById(Arc<Component>);

impl Hash for ById {
    fn hash<H: Hasher>(&self, state: &mut H) {
        // As `str` hashes, so that lookups by `&str` (through `Borrow`) find it.
        self.0.id().hash(state);
    }
}

impl PartialEq for ById {
    fn eq(&self, other: &Self) -> bool {
        self.0.id() == other.0.id()
    }
}

impl Eq for ById {}

impl Borrow<str> for ById {
    fn borrow(&self) -> &str {
        self.0.id()
    }
}

impl ComponentMap {
    /// The number of components.
    pub fn len(&self) -> usize {
        self.set.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.set.is_empty()
    }

    /// The component with this id.
    pub fn get(&self, id: &str) -> Option<&Arc<Component>> {
        self.set.get(id).map(|c| &c.0)
    }

    /// Whether a component has this id.
    pub fn contains_key(&self, id: &str) -> bool {
        self.set.contains(id)
    }

    /// The ids in first-arrival order.
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &str> + ExactSizeIterator {
        self.set.iter().map(|c| c.0.id())
    }

    /// The components in first-arrival order.
    pub fn values(&self) -> impl DoubleEndedIterator<Item = &Arc<Component>> + ExactSizeIterator {
        self.set.iter().map(|c| &c.0)
    }

    /// `(id, component)` in first-arrival order.
    pub fn iter(
        &self,
    ) -> impl DoubleEndedIterator<Item = (&str, &Arc<Component>)> + ExactSizeIterator {
        self.set.iter().map(|c| (c.0.id(), &c.0))
    }

    /// Add a component, or replace the one with its id in place (it keeps its
    /// first-arrival position); returns the replaced one.
    pub fn insert(&mut self, component: Arc<Component>) -> Option<Arc<Component>> {
        self.set.replace_full(ById(component)).1.map(|c| c.0)
    }

    /// Remove the component with this id (the others keep their order); returns it.
    pub fn remove(&mut self, id: &str) -> Option<Arc<Component>> {
        self.set.shift_take(id).map(|c| c.0)
    }

    /// Add or replace the component `id` with what `make` builds from the id and the current
    /// one (one lookup for the common case; the id is handed on, not copied). `make` must
    /// keep the id.
    pub(crate) fn upsert(
        &mut self,
        id: String,
        make: impl FnOnce(String, Option<&Arc<Component>>) -> Arc<Component>,
    ) {
        match self.set.get_full(id.as_str()) {
            Some((i, prev)) => {
                let new = ById(make(id, Some(&prev.0)));
                if let Err((_, new)) = self.set.replace_index(i, new) {
                    // `make` changed the id to another component's: replace that one.
                    self.set.replace_full(new);
                }
            }
            None => {
                self.set.insert(ById(make(id, None)));
            }
        }
    }
}

impl fmt::Debug for ComponentMap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Props;

    fn c(id: &str, ty: &str) -> Arc<Component> {
        Arc::new(Component::new(id.into(), ty.into(), Props::new()))
    }

    #[test]
    fn upsert_replaces_in_place_and_appends_new_ids() {
        let mut m = ComponentMap::default();
        m.upsert("a".into(), |id, prev| {
            assert!(prev.is_none());
            c(&id, "Text")
        });
        m.upsert("b".into(), |id, _| c(&id, "Row"));
        m.upsert("a".into(), |id, prev| {
            assert_eq!(prev.map(|p| p.component()), Some("Text"));
            c(&id, "Image")
        });
        assert_eq!(m.keys().collect::<Vec<_>>(), ["a", "b"]);
        assert_eq!(m.get("a").map(|p| p.component()), Some("Image"));
        assert_eq!(m.len(), 2);
        assert_eq!(
            m.insert(c("b", "Column")).map(|p| p.component().to_owned()),
            Some("Row".to_owned())
        );
        assert_eq!(
            m.iter()
                .map(|(k, v)| (k, v.component()))
                .collect::<Vec<_>>(),
            [("a", "Image"), ("b", "Column")]
        );
    }
}
