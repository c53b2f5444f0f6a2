//! The stored form of components, below `protocol` and `eval`: what the parsers write and
//! what evaluation and the renderers read.
//!
//! - [`Props`]: a component's top-level properties as editable `(name, value)` pairs, the
//!   form the general message path builds and changes (v1.0 `@` names, the action shorthand).
//! - [`StoredProps`]: the same properties encoded once into one string
//!   (`compact`), read in place through the views [`PropMap`], [`PropRef`] and [`PropList`]
//!   without building a `serde_json::Value`. The fast parse (`protocol::fast`) writes into
//!   it directly.
//! - [`types`]: the component types stored in one byte.
//! - [`size`]: what a JSON value costs in memory (the data-model charge).
//! - [`StoreId`]: the identity of one store, which evaluation carries to say whose
//!   surface it resolves.
//!
//! [`crate::model`] re-exports these types; the store, the parsers and evaluation all use the
//! one stored form.

pub(crate) mod compact;
mod props;
pub mod size;
pub mod types;

pub use compact::{
    PropKind, PropList, PropListIter, PropMap, PropMapIter, PropNumber, PropRef, StoredProps,
};
pub use props::{IntoPropName, Iter as PropsIter, PropName, Props};

use std::sync::atomic::{AtomicU64, Ordering};

/// Identifies one [`SurfaceStore`](crate::model::SurfaceStore) for the life of the process (a
/// clone gets a new one, and its surfaces new
/// [`Surface::serial`](crate::model::Surface::serial)s), so drawing state kept per store never
/// mixes two stores whose surface ids coincide.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StoreId(u64);

impl StoreId {
    /// A new identity, never given before in this process.
    pub(crate) fn next() -> Self {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        Self(NEXT.fetch_add(1, Ordering::Relaxed))
    }
}
