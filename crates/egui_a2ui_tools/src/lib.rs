//! Command-line dev tools of egui_a2ui, kept apart from the library's embedding examples.
//! They are examples of this crate, run from the repository's root:
//!
//! ```text
//! cargo run --release --example a2ui_dump -- path/to/stream.jsonl          the conformance dump
//! cargo run --release --example a2ui_dump -- --model-text [--chunk N] ANSWER  a model answer's end state
//! cargo run --release --example a2ui_dump -- --geometry 420x560 FIXTURE   the headless layout
//! cargo run --release --features png --example a2ui_dump -- --png 420x560 FIXTURE OUT.png
//! cargo run --release --example explosion -- shared dump                  a tree-explosion probe
//! ```
//!
//! Scripts and CI call them that way, and read their output; its formats are stable. A new
//! tool is one file under `examples/` here (`cargo run --example NAME` finds it from the
//! root, because this crate is a default member of the workspace).
//!
//! The library part holds what the tools share with the library's tests.

// Library code never unwraps or panics; tests may (see the workspace's Cargo.toml).
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

/// The two tree-explosion component graphs (`tests/common/explosions.rs` at the repository's
/// root, shared with the library's `hostile` and `limits` tests).
#[path = "../../../tests/common/explosions.rs"]
pub mod explosions;

pub mod model_text;

/// The reference page painted to an image, and the pixel look score of
/// `compare_pixels.py` (`tests/common/pixels.rs` at the repository's root, shared with the
/// library's fidelity test).
#[cfg(feature = "png")]
#[path = "../../../tests/common/pixels.rs"]
pub mod pixels;
