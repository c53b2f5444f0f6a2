//! The egui-free state of every surface: components, data models, and the resolved tree.

mod catalogs;
mod component;
mod component_map;
pub(crate) mod data_model;
pub mod observe;
mod origin;
pub(crate) mod rpc;
pub(crate) mod store;
mod strict;
mod surface;
pub(crate) mod tree;

pub use crate::error::Rejected;
pub use crate::stored::{
    IntoPropName, PropKind, PropList, PropListIter, PropMap, PropMapIter, PropName, PropNumber,
    PropRef, Props, PropsIter, StoredProps,
};
pub use catalogs::{
    BASIC_COMPONENTS, BASIC_FUNCTIONS, CatalogInfo, Catalogs, Composition, EXTENDED_COMPONENTS,
    MINIMAL_COMPONENTS,
};
pub use component::Component;
pub use component_map::ComponentMap;
pub use data_model::DataModel;
pub use observe::{
    ChangeSource, DataChange, DataObserver, MAX_OBSERVERS, MAX_QUEUED_CHANGES, Watch,
};
pub(crate) use origin::one_line as origin_one_line;
pub use origin::{AgentOrigin, MAX_ORIGIN_CHARS};
pub use store::{Applied, StoreId, SurfaceStore};
pub use strict::{STRICT_MAX_NESTING, check_call_catalogs};
pub use surface::Surface;
pub use tree::{ChildRef, NodeKind, TreeNode, resolve_tree};

/// The hasher of the model's maps keyed by agent-chosen strings (component and surface
/// ids): foldhash, several times faster than std's SipHash on short keys, and seeded at
/// random per map like std's `RandomState`, so an agent cannot precompute colliding ids.
/// foldhash is not a cryptographic PRF, so a determined agent might still find collisions
/// by probing; the worst case stays bounded because every such map is bounded by
/// [`Limits`](crate::limits::Limits) (`max_components` per surface, `max_surfaces` per store), so a
/// lookup degrades at most to a scan of that many entries.
pub type IdHasher = foldhash::fast::RandomState;
