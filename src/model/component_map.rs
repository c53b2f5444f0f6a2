//! [`ComponentMap`]: a surface's components by id, in first-arrival order.

use std::fmt;
use std::hash::BuildHasher;
use std::sync::Arc;

use hashbrown::HashTable;

use super::{Component, IdHasher};

/// A surface's components by id, in first-arrival order.
///
/// The components in a vector, and a hash table of their positions keyed by the
/// components' own ids (the id is stored once, in the component), hashed with the model's
/// randomly seeded [`IdHasher`]: 8 bytes a component in the vector and 4 (plus a control
/// byte) in the table, against the 16 + 8 of an `IndexSet` of `Arc`s. Reads like the
/// `IndexMap<String, Arc<Component>>` it replaces: [`get`](Self::get),
/// [`contains_key`](Self::contains_key), [`len`](Self::len), [`keys`](Self::keys),
/// [`values`](Self::values), [`iter`](Self::iter).
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
    /// The components in first-arrival order.
    entries: Vec<Arc<Component>>,
    /// Positions in `entries`, hashed by the component's id. A surface holds far fewer than
    /// `u32::MAX` components (each is tens of bytes, and `Limits::max_components` caps them).
    index: HashTable<u32>,
    hasher: IdHasher,
}

impl ComponentMap {
    /// The number of components.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The position of the component with this id.
    fn position(&self, id: &str) -> Option<usize> {
        self.position_hashed(id, self.hasher.hash_one(id))
    }

    /// [`Self::position`] with the id's hash already made.
    fn position_hashed(&self, id: &str, hash: u64) -> Option<usize> {
        let entries = &self.entries;
        self.index
            .find(hash, |&i| {
                entries.get(i as usize).is_some_and(|c| c.id() == id)
            })
            .map(|&i| i as usize)
    }

    /// The component with this id.
    pub fn get(&self, id: &str) -> Option<&Arc<Component>> {
        self.entries.get(self.position(id)?)
    }

    /// Whether a component has this id.
    pub fn contains_key(&self, id: &str) -> bool {
        self.position(id).is_some()
    }

    /// The ids in first-arrival order.
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &str> + ExactSizeIterator {
        self.entries.iter().map(|c| c.id())
    }

    /// The components in first-arrival order.
    pub fn values(&self) -> impl DoubleEndedIterator<Item = &Arc<Component>> + ExactSizeIterator {
        self.entries.iter()
    }

    /// `(id, component)` in first-arrival order.
    pub fn iter(
        &self,
    ) -> impl DoubleEndedIterator<Item = (&str, &Arc<Component>)> + ExactSizeIterator {
        self.entries.iter().map(|c| (c.id(), c))
    }

    /// Append a component whose id (of hash `hash`) is not in the map.
    fn push(&mut self, component: Arc<Component>, hash: u64) {
        let Self {
            entries,
            index,
            hasher,
        } = self;
        let Ok(at) = u32::try_from(entries.len()) else {
            // Unreachable in practice (see `index`): such a map would hold terabytes.
            return;
        };
        entries.push(component);
        index.insert_unique(hash, at, |&i| {
            entries
                .get(i as usize)
                .map_or(0, |c| hasher.hash_one(c.id()))
        });
    }

    /// Put `component` at position `i`, which held a component with another id.
    fn rekey(&mut self, i: usize, component: Arc<Component>) -> Option<Arc<Component>> {
        let old = self.entries.get(i)?;
        let old_hash = self.hasher.hash_one(old.id());
        if let Ok(slot) = self.index.find_entry(old_hash, |&j| j as usize == i) {
            slot.remove();
        }
        let new_hash = self.hasher.hash_one(component.id());
        let replaced = std::mem::replace(self.entries.get_mut(i)?, component);
        let Self {
            entries,
            index,
            hasher,
        } = self;
        let at = u32::try_from(i).ok()?;
        index.insert_unique(new_hash, at, |&j| {
            entries
                .get(j as usize)
                .map_or(0, |c| hasher.hash_one(c.id()))
        });
        Some(replaced)
    }

    /// Add a component, or replace the one with its id in place (it keeps its
    /// first-arrival position); returns the replaced one.
    pub fn insert(&mut self, component: Arc<Component>) -> Option<Arc<Component>> {
        let hash = self.hasher.hash_one(component.id());
        match self.position_hashed(component.id(), hash) {
            Some(i) => self
                .entries
                .get_mut(i)
                .map(|slot| std::mem::replace(slot, component)),
            None => {
                self.push(component, hash);
                None
            }
        }
    }

    /// Remove the component with this id (the others keep their order); returns it.
    pub fn remove(&mut self, id: &str) -> Option<Arc<Component>> {
        let hash = self.hasher.hash_one(id);
        let entries = &self.entries;
        let slot = self
            .index
            .find_entry(hash, |&i| {
                entries.get(i as usize).is_some_and(|c| c.id() == id)
            })
            .ok()?;
        let (i, _) = slot.remove();
        let i = i as usize;
        if i >= self.entries.len() {
            return None;
        }
        let removed = self.entries.remove(i);
        // The later components moved down one place.
        for j in self.index.iter_mut() {
            if *j as usize > i {
                *j -= 1;
            }
        }
        Some(removed)
    }

    /// Add or replace the component `id` with what `make` builds from the id and the current
    /// one (one lookup and one hash for the common case). `make` must keep the id.
    pub(crate) fn upsert(
        &mut self,
        id: &str,
        make: impl FnOnce(&str, Option<&Arc<Component>>) -> Arc<Component>,
    ) {
        let hash = self.hasher.hash_one(id);
        let Some(i) = self.position_hashed(id, hash) else {
            let new = make(id, None);
            if new.id() == id {
                self.push(new, hash);
            } else {
                self.insert(new);
            }
            return;
        };
        let Some(prev) = self.entries.get(i) else {
            return;
        };
        let new = make(id, Some(prev));
        if new.id() == prev.id() {
            if let Some(slot) = self.entries.get_mut(i) {
                *slot = new;
            }
        } else if self.contains_key(new.id()) {
            // `make` changed the id to another component's: replace that one.
            self.insert(new);
        } else {
            self.rekey(i, new);
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

    #[test]
    fn removing_keeps_the_order_and_every_other_lookup() {
        let mut m = ComponentMap::default();
        let ids: Vec<String> = (0..300).map(|i| format!("c{i}")).collect();
        for id in &ids {
            m.insert(c(id, "Text"));
        }
        for gone in ["c0", "c150", "c299", "c77"] {
            assert_eq!(
                m.remove(gone).map(|c| c.id().to_owned()),
                Some(gone.to_owned())
            );
            assert!(m.remove(gone).is_none());
        }
        let left: Vec<&str> = ids
            .iter()
            .map(String::as_str)
            .filter(|id| !["c0", "c150", "c299", "c77"].contains(id))
            .collect();
        assert_eq!(m.keys().collect::<Vec<_>>(), left);
        for id in &left {
            assert_eq!(m.get(id).map(|c| c.id()), Some(*id));
        }
        assert!(!m.contains_key("c150"));
        m.insert(c("c150", "Row"));
        assert_eq!(m.keys().last(), Some("c150"));
        assert_eq!(m.len(), 297);
    }

    #[test]
    fn an_upsert_that_changes_the_id_rekeys_or_replaces() {
        let mut m = ComponentMap::default();
        m.insert(c("a", "Text"));
        m.insert(c("b", "Text"));
        // To a new id: the place is kept under the new id.
        m.upsert("a", |_, _| c("z", "Row"));
        assert_eq!(m.keys().collect::<Vec<_>>(), ["z", "b"]);
        assert!(m.get("a").is_none());
        assert_eq!(m.get("z").map(|c| c.component()), Some("Row"));
        // To another component's id: that one is replaced.
        m.upsert("z", |_, _| c("b", "Image"));
        assert_eq!(m.keys().collect::<Vec<_>>(), ["z", "b"]);
        assert_eq!(m.get("b").map(|c| c.component()), Some("Image"));
    }

    fn c(id: &str, ty: &str) -> Arc<Component> {
        Arc::new(Component::new(id.into(), ty.into(), Props::new()))
    }

    #[test]
    fn upsert_replaces_in_place_and_appends_new_ids() {
        let mut m = ComponentMap::default();
        m.upsert("a", |id, prev| {
            assert!(prev.is_none());
            c(id, "Text")
        });
        m.upsert("b", |id, _| c(id, "Row"));
        m.upsert("a", |id, prev| {
            assert_eq!(prev.map(|p| p.component()), Some("Text"));
            c(id, "Image")
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
