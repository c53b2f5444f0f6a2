//! One surface: its catalog, theme, components and data model.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use serde_json::{Map, Value};

use super::{Component, ComponentMap, DataModel};
use crate::protocol::Version;

/// A live surface.
#[derive(Clone, Debug)]
pub struct Surface {
    /// The surface id.
    pub id: String,
    /// The protocol version the surface was created with (v0.9.1 stays v0.9.1).
    pub version: Version,
    /// The default catalog id (`None` only for a v1.0 surface created without one).
    pub catalog_id: Option<String>,
    /// `createSurface.theme` or v0.8 `beginRendering.styles`.
    pub theme: Map<String, Value>,
    /// Whether outgoing messages carry this surface's data model.
    pub send_data_model: bool,
    /// The root component id.
    pub root_id: String,
    /// v0.8: whether `beginRendering` has arrived (v0.9+: always true).
    pub began: bool,
    /// Components by id, in first-arrival order (shared so a frame can hold one while the
    /// data model is written). Read with [`Self::components`]; written only through
    /// [`Self::components_mut`], which bumps the revision.
    components: ComponentMap,
    /// The data model.
    pub data: DataModel,
    /// Bumped on every component change (by [`Self::components_mut`]).
    components_revision: u64,
    /// Unique to this surface for the life of the process (a surface deleted and created
    /// again under the same id gets a new one).
    serial: u64,
}

impl Surface {
    /// A fresh, empty surface.
    pub fn new(id: String, version: Version) -> Self {
        Self {
            id,
            version,
            catalog_id: None,
            theme: Map::new(),
            send_data_model: false,
            root_id: "root".to_owned(),
            began: version != Version::V0_8,
            components: ComponentMap::default(),
            data: DataModel::default(),
            components_revision: 0,
            serial: next_serial(),
        }
    }

    /// Unique to this surface for the life of the process: a surface deleted and created
    /// again under the same id gets a new serial, so state kept outside the store (drawing
    /// caches, pending agent calls) can tell the two apart.
    pub fn serial(&self) -> u64 {
        self.serial
    }

    /// Give the surface a serial of its own (a copy in a cloned store is another surface
    /// to the drawing state).
    pub(crate) fn renew_serial(&mut self) {
        self.serial = next_serial();
    }

    /// Visible once it can be drawn: v0.8 after `beginRendering`, and once the root
    /// component exists.
    pub fn is_visible(&self) -> bool {
        self.began && self.components.contains_key(&self.root_id)
    }

    /// Components by id, in first-arrival order.
    pub fn components(&self) -> &ComponentMap {
        &self.components
    }

    /// The components, to change: bumps the components revision, so a writer cannot forget
    /// to (the store's messages and [`SurfaceStore::retire`](super::SurfaceStore::retire)
    /// are the writers).
    pub(crate) fn components_mut(&mut self) -> &mut ComponentMap {
        self.components_revision = self.components_revision.wrapping_add(1);
        &mut self.components
    }

    /// Bumped on every component change.
    pub fn components_revision(&self) -> u64 {
        self.components_revision
    }

    /// A component by id.
    pub fn component(&self, id: &str) -> Option<&Arc<Component>> {
        self.components.get(id)
    }

    /// A revision covering both the components and the data model: equal revisions mean
    /// an equal resolved tree.
    pub fn revision(&self) -> (u64, u64) {
        (self.components_revision, self.data.revision())
    }

    /// `theme.primaryColor` parsed from `#rrggbb`.
    pub fn primary_color(&self) -> Option<[u8; 3]> {
        let s = self.theme.get("primaryColor")?.as_str()?;
        let hex = s.strip_prefix('#')?;
        if hex.len() != 6 || !hex.is_ascii() {
            return None;
        }
        let p = |i: usize| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok();
        Some([p(0)?, p(2)?, p(4)?])
    }
}

/// The next surface serial (process-wide, never reused).
fn next_serial() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}
