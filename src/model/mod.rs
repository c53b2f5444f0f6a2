//! The egui-free state of every surface: components, data models, and the resolved tree.

mod catalogs;
mod component;
pub(crate) mod data_model;
mod props;
mod store;
mod surface;
pub(crate) mod tree;

pub use catalogs::{BASIC_COMPONENTS, CatalogInfo, Composition, KnownCatalogs, MINIMAL_COMPONENTS};
pub use component::Component;
pub use data_model::DataModel;
pub(crate) use props::PropsStack;
pub use props::{IntoPropName, Iter as PropsIter, PropName, Props};
pub use store::{Applied, Rejected, StoreId, SurfaceStore, surface_id_hint};
pub use surface::Surface;
pub use tree::{ChildRef, NodeKind, TreeNode, resolve_tree};
