//! The egui-free state of every surface: components, data models, and the resolved tree.

mod catalogs;
pub(crate) mod compact;
mod component;
mod component_map;
pub(crate) mod data_model;
mod props;
pub(crate) mod store;
mod strict;
mod surface;
pub(crate) mod tree;

pub use crate::error::Rejected;
pub use catalogs::{
    BASIC_COMPONENTS, BASIC_FUNCTIONS, CatalogInfo, Catalogs, Composition, EXTENDED_COMPONENTS,
    MINIMAL_COMPONENTS,
};
pub use compact::{
    PropKind, PropList, PropListIter, PropMap, PropMapIter, PropNumber, PropRef, StoredProps,
};
pub use component::Component;
pub use component_map::ComponentMap;
pub use data_model::DataModel;
pub use props::{IntoPropName, Iter as PropsIter, PropName, Props};
pub use store::{Applied, StoreId, SurfaceStore};
pub use strict::{STRICT_MAX_NESTING, check_call_catalogs};
pub use surface::Surface;
pub use tree::{ChildRef, NodeKind, TreeNode, resolve_tree};

/// The hasher of the model's maps keyed by agent-chosen strings (component and surface
/// ids): foldhash, several times faster than std's SipHash on short keys, and seeded at
/// random per map like std's `RandomState`, so an agent cannot precompute colliding ids.
/// foldhash is not a cryptographic PRF, so a determined agent might still find collisions
/// by probing; the worst case stays bounded because every such map is bounded by
/// [`Limits`](crate::Limits) (`max_components` per surface, `max_surfaces` per store), so a
/// lookup degrades at most to a scan of that many entries.
pub type IdHasher = foldhash::fast::RandomState;
