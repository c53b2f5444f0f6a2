//! Media playback (feature `media`): decoding the committed samples, the player on a manual
//! null sink, hostile media, and the controls driven through AccessKit.
//!
//! One test crate per layer (one binary to build and link); the shared harness is
//! `tests/common`.

#[path = "../common/mod.rs"]
mod common;

mod controls;
mod decode;
mod video;
