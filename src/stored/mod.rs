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
//!
//! [`crate::model`] re-exports these types; the store, the parsers and evaluation all use the
//! one stored form.

pub(crate) mod compact;
mod props;
pub mod types;

pub use compact::{
    PropKind, PropList, PropListIter, PropMap, PropMapIter, PropNumber, PropRef, StoredProps,
};
pub use props::{IntoPropName, Iter as PropsIter, PropName, Props};
