//! The egui-free core: framing, parsing every protocol version, the one apply path, the
//! data model and tree, the limits, and the evaluator's functions.
//!
//! One test crate per layer (one binary to build and link); each module was its own crate
//! before. The shared harness is `tests/common`.

#[path = "../common/mod.rs"]
mod common;

mod apply_path;
mod data_model;
mod framing;
mod functions;
mod functions_reference;
mod limits;
mod observers;
mod parse_text;
mod property;
mod protocol_adapters;
mod tree;
