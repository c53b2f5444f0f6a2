//! # egui_a2ui
//!
//! Render [A2UI](https://a2ui.org) (`application/a2ui+json`) agent interfaces with native
//! egui widgets: feed the agent's messages in, draw the surfaces in any [`egui::Ui`], and send
//! each user action back to the agent.
//!
//! ```
//! # let ctx = egui::Context::default();
//! # let jsonl_chunk_from_agent: &[u8] = b"";
//! let mut a2ui = egui_a2ui::Renderer::new(egui_a2ui::Catalog::basic());
//! a2ui.feed_jsonl(jsonl_chunk_from_agent); // as chunks arrive, cut anywhere
//! # let mut output = ctx.run_ui(Default::default(), |ui| {
//! for event in a2ui.ui(ui) {                // every frame, inside any egui::Ui
//!     if let Some(message) = event.to_message() {
//!         println!("{message}");            // an A2UI `action` or `error`: send it back
//!     }
//! }
//! # });
//! # output.textures_delta.clear(); // a real integration paints these
//! ```
//!
//! A whole eframe program is [`examples/minimal.rs`][minimal] (under 60 lines: a file or
//! standard input in, actions out); the repository's viewer (`cargo run --example viewer`,
//! the workspace crate `crates/egui_a2ui_viewer`) hosts sample streams and real MCP servers.
//!
//! [minimal]: https://docs.rs/crate/egui_a2ui/latest/source/examples/minimal.rs
//!
//! What every host uses is at the crate root: [`Renderer`] and [`RendererOptions`],
//! [`Catalog`] (with [`ComponentRenderer`] and [`ComponentContext`] for components of your
//! own), the user's [`Event`]s, [`SurfaceStore`], [`Limits`], [`UrlPolicy`] and the typed
//! [`A2uiError`]. The modules hold the rest, layered as data flows: [`stream`] frames bytes
//! into JSON messages (and finds them in model text, [`stream::model_text`]), [`protocol`]
//! parses every A2UI version into one message type, [`model`] keeps the surfaces and their
//! data models (which a host can watch: [`SurfaceStore::observe`]), [`eval`] resolves bindings and function calls (and takes a host's own
//! functions), and [`conformance`] dumps the state in the reference oracle's format. All of
//! that is free of egui. [`catalog`] and [`render`] are the egui side, [`mcp`] the MCP Apps
//! bridge, and [`capabilities`] the metadata that travels with messages to the agent.
//!
//! Feature `http` (egui_extras' image fetcher) makes images load from the network with no
//! user gesture: give [`RendererOptions::url_policy`] an allow-list
//! ([`UrlPolicy::allow_hosts`]). Local and private addresses are refused for media by
//! default, and media URLs computed from data (which could carry what the user types) load
//! only from [`UrlPolicy::allow_computed_media_hosts`]; see [`UrlPolicy`].
//!
//! Every message goes through one path, [`SurfaceStore::apply`], which says what it did
//! ([`model::Applied`]) and keeps what is owed to the agent (errors, RPC answers) for
//! [`SurfaceStore::take_outgoing`]; every failure is one [`Rejected`] record. On the egui
//! side, [`render::DrawState`] draws any store its host
//! owns (one per agent session, say); [`Renderer`] bundles a store and a drawing state.
//!
//! ```
//! use egui_a2ui::model::SurfaceStore;
//!
//! let mut store = SurfaceStore::basic();
//! let jsonl = br#"{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json"}}
//! {"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":{"path":"/greeting"}}]}}
//! {"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/greeting","value":"Hello"}}
//! "#;
//! store.feed_document(jsonl);
//! let surface = store.surface("s").unwrap();
//! assert!(surface.is_visible());
//! assert_eq!(surface.data.get("/greeting"), Some(&serde_json::json!("Hello")));
//! ```

// `unsafe_code` is forbidden by the workspace's [lints] (Cargo.toml). Library code never
// unwraps or panics on data; tests and examples may (a [lints] entry would reach the
// integration tests' helpers too, hence this attribute).
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

mod action;
pub mod agent;
mod basic;
mod bundled;
pub mod capabilities;
pub mod catalog;
mod catalog_def;
pub mod conformance;
mod error;
pub mod eval;
#[cfg(feature = "extended")]
pub mod extended;
mod limits;
pub mod mcp;
#[cfg(feature = "media")]
pub mod media;
pub mod model;
pub mod panel;
mod pointer;
pub mod prompt;
pub mod protocol;
pub mod render;
pub mod stored;
pub mod stream;
#[cfg(feature = "testing")]
pub mod suite;
#[cfg(feature = "testing")]
pub mod testing;
pub mod transport;
mod url_policy;
#[cfg(feature = "validation")]
mod validate;

pub use action::{ActionEvent, ComponentAction, Event, now_timestamp};
pub use catalog::{Catalog, ComponentRenderer};
pub use error::{A2uiError, Rejected, codes};
pub use limits::Limits;
pub use model::{Surface, SurfaceStore};
pub use panel::{AgentPanel, AgentPanelResponse, PanelState};
pub use protocol::{Version, Versions};
pub use render::{ComponentContext, Renderer, RendererOptions, Style, install_fonts};
pub use url_policy::{
    HostFilter, UrlPolicy, UrlRefusal, UrlTarget, UrlUse, display_host, is_private_host,
    normalize_host,
};
#[cfg(feature = "validation")]
pub use validate::SchemaValidator;
