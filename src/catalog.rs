//! Catalogs and the component-author API: everything a host needs to draw components of its
//! own, the same pieces the basic catalog is built from.
//!
//! A [`Catalog`] maps component type names to [`ComponentRenderer`]s and carries the
//! functions; [`Catalog::basic`] has the 18 basic components and every basic function, and
//! a host adds its own with [`Catalog::register_with`] (declaring its [`ComponentTraits`]).
//! [`Catalog::catalogs`] is the egui-free description every store and MCP session is built
//! from.
//!
//! A component draws with its [`ComponentContext`]: bound values, two-way writes, children,
//! checks, actions, widget state, a per-revision [`memo`](ComponentContext::memo) and a
//! per-frame [`shared_style`](ComponentContext::shared_style). A container places children
//! with the slot protocol ([`Incoming`], [`Slot`], [`Extent`], [`Placed`]) and lays a line
//! out with the flex engine ([`plan_main`], [`shrink_row`], [`Settling`]), as the basic
//! Row, Column, List, Card, Tabs and Modal do. Accessible names: [`set_accessible_name`],
//! [`name_control`], [`humanize`].

pub use crate::render::ComponentContext;
pub use crate::render::a11y::{humanize, name_control, set_accessible_name};
pub use crate::render::catalog::{Catalog, ComponentRenderer, ComponentTraits, NameSource};
pub use crate::render::flex::{
    Axis, CrossAlign, Justify, MainPlan, Settling, bounded, finite, plan_main, sanitize_rect,
    sanitize_size, settle, shrink_row, weight_of,
};
pub use crate::render::slot::{Extent, Incoming, Placed, Slot};
