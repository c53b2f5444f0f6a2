//! Drawing: every basic component's look, layout and interaction through kittest, custom
//! components and containers, the drawing state, URLs, icons and glyphs, snapshots, and the
//! extended catalog.
//!
//! One test crate per layer (one binary to build and link); each module was its own crate
//! before. The shared harness is `tests/common`.

#[path = "../common/mod.rs"]
mod common;

mod actions;
mod agent_boundary;
mod agent_panel;
mod containers;
mod content;
mod contrast;
mod custom_component;
mod custom_container;
mod draw_state;
mod extended;
mod extended_catalog;
mod extended_screenshots;
mod extended_v1_0;
mod fixtures_render;
mod glyphs;
mod host_catalog;
mod hostile_images;
mod icons;
mod idle;
mod inputs;
mod layout;
mod layout_examples;
mod layout_rows;
mod look;
mod render_smoke;
mod snapshots;
mod url_policy;
