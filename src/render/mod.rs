//! The egui side: [`Renderer`] draws every visible surface inside any `egui::Ui`, walking
//! each surface from its root and handing every node to its catalog's
//! [`ComponentRenderer`](crate::catalog::ComponentRenderer). Every component is wrapped in
//! its own AccessKit node, which carries `accessibility.hidden` and `live`.
//!
//! Beside it are the pieces a host may want when it draws components of its own or checks
//! what was drawn: [`Style`] (spacing and the type scale of the official web renderer),
//! the bundled fonts ([`install_fonts`], [`extend_definitions`]) and Material icons
//! ([`icon_glyph`], [`icon_family`]), the cache of decoded `data:` images
//! ([`data_cache_stats`]), and the layout geometry dump ([`layout_geometry`]) the fidelity
//! tests compare with the web reference.

pub(crate) mod a11y;
mod context;
pub(crate) mod fonts;
pub(crate) mod geometry;
pub(crate) mod icons;
pub(crate) mod images;
pub(crate) mod input;
pub(crate) mod layout;
pub(crate) mod markdown;
pub(crate) mod style;
pub(crate) mod theme;

use std::collections::HashSet;

use serde_json::Value;

pub use context::ComponentContext;
pub use fonts::{BOLD_FAMILY, extend_definitions, install_fonts};
pub use geometry::{DrawnInstance, GeometryOptions, layout_geometry, to_geometry_string};
pub use icons::{BASIC_ICON_NAMES, icon_family, icon_glyph};
pub use images::{data_cache_stats, install as install_loaders};
pub use style::{Style, TextStyle};

use crate::action::{ClientError, Event};
use crate::catalog::Catalog;
use crate::error::A2uiError;
use crate::limits::Limits;
use crate::model::SurfaceStore;
use crate::protocol::Version;
use crate::stream::StreamDecoder;
use crate::url_policy::UrlPolicy;

/// Which URLs images may load from: the former image-only policy, superseded by the one
/// [`UrlPolicy`] (`RendererOptions::url_policy`), which decides every URL (opening, links,
/// media). A host with its own `ImagePolicy` keeps it with
/// `UrlPolicy::default().with_image_policy(its_policy)`.
pub trait ImagePolicy: Send + Sync {
    /// Whether the image at `url` may be loaded.
    fn allows(&self, url: &str) -> bool;
}

/// The default media rule of [`UrlPolicy`] as an [`ImagePolicy`]: `https:` and
/// `data:image/*` only.
#[derive(Clone, Copy, Debug, Default)]
pub struct DefaultImagePolicy;

impl ImagePolicy for DefaultImagePolicy {
    fn allows(&self, url: &str) -> bool {
        UrlPolicy::default().allows_media(url)
    }
}

impl ImagePolicy for UrlPolicy {
    fn allows(&self, url: &str) -> bool {
        self.allows_media(url)
    }
}

/// Host settings for drawing.
pub struct RendererOptions {
    /// Draw a header with `theme.agentDisplayName` / `iconUrl` above each surface.
    pub show_surface_header: bool,
    /// Draw a visible placeholder for unknown component types (else draw nothing).
    pub show_unsupported: bool,
    /// The one policy for every URL: what may be opened (`openUrl`, Markdown links, media
    /// cards) and where media may load from (`Image`, `Video` posters, `theme.iconUrl`).
    /// It replaces the former `image_policy` field (see [`ImagePolicy`]).
    pub url_policy: UrlPolicy,
    /// Install the bundled text fonts ([`install_fonts`]: Roboto, a bold family and
    /// symbol fallbacks) on the first frame. On by default; set `false` to keep the host's
    /// own `Proportional` font (the bold family then falls back to it).
    pub install_fonts: bool,
    /// BCP 47 locale for formatting functions.
    pub locale: String,
    /// Spacing, type scale and control sizes (defaults: the official web renderer's).
    pub style: Style,
    /// Skip the children of a `Row` or `Column` that lie wholly outside the visible area
    /// (the clip rectangle, e.g. scrolled out of a `ScrollArea`): they keep the place and
    /// sizes they had when last drawn. Off by default. While on, a screen reader sees only
    /// the components in view (those scrolled out leave the AccessKit tree until scrolled
    /// back), and a text field scrolled out of view loses keyboard focus.
    pub cull_offscreen: bool,
}

impl Default for RendererOptions {
    fn default() -> Self {
        Self {
            show_surface_header: true,
            show_unsupported: true,
            url_policy: UrlPolicy::default(),
            install_fonts: true,
            locale: "en-US".to_owned(),
            style: Style::default(),
            cull_offscreen: false,
        }
    }
}

impl std::fmt::Debug for RendererOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RendererOptions")
            .field("show_surface_header", &self.show_surface_header)
            .field("show_unsupported", &self.show_unsupported)
            .field("url_policy", &self.url_policy)
            .field("install_fonts", &self.install_fonts)
            .field("locale", &self.locale)
            .field("style", &self.style)
            .field("cull_offscreen", &self.cull_offscreen)
            .finish_non_exhaustive()
    }
}

/// Renders A2UI surfaces with egui: feed it agent messages, call [`Renderer::ui`] every
/// frame, act on the returned [`Event`]s.
///
/// ```
/// let mut a2ui = egui_a2ui::Renderer::new(egui_a2ui::Catalog::basic());
/// a2ui.feed_jsonl(br#"{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json"}}
/// {"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":"Hi"}]}}
/// "#);
/// let ctx = egui::Context::default();
/// let mut output = ctx.run_ui(egui::RawInput::default(), |ui| {
///     for event in a2ui.ui(ui) {
///         println!("{event:?}");
///     }
/// });
/// output.textures_delta.clear(); // a real integration hands these to its painter
/// ```
pub struct Renderer {
    store: SurfaceStore,
    catalog: Catalog,
    options: RendererOptions,
    decoder: StreamDecoder,
    events: Vec<Event>,
    /// (surface, type) pairs already reported as unknown, so each is reported once.
    reported_unknown: HashSet<(String, String)>,
    /// v1.0 calls to functions the renderer lacks, asked of the agent.
    agent_calls: crate::eval::agent_calls::AgentCalls,
    /// The egui context last drawn into, to release a deleted surface's cached images.
    last_ctx: Option<egui::Context>,
    /// The instances drawn since the last [`Renderer::take_geometry`], when recording.
    geometry: Option<Vec<DrawnInstance>>,
}

impl std::fmt::Debug for Renderer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Renderer")
            .field("surfaces", &self.store.surfaces().count())
            .field("catalog", &self.catalog)
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}

impl Renderer {
    /// A renderer drawing with `catalog`, with default limits and options.
    pub fn new(catalog: Catalog) -> Self {
        Self::with_limits(catalog, Limits::default())
    }

    /// A renderer with custom limits.
    pub fn with_limits(catalog: Catalog, limits: Limits) -> Self {
        let store = SurfaceStore::with_config(catalog.known_catalogs(), limits.clone());
        Self {
            store,
            catalog,
            options: RendererOptions::default(),
            decoder: StreamDecoder::new(limits),
            events: Vec::new(),
            reported_unknown: HashSet::new(),
            agent_calls: Default::default(),
            last_ctx: None,
            geometry: None,
        }
    }

    /// Record the box of every drawn component instance (see [`layout_geometry`]); off by
    /// default. Read them with [`Self::take_geometry`].
    pub fn record_geometry(&mut self, on: bool) {
        self.geometry = on.then(Vec::new);
    }

    /// The instances drawn since the last call, in document order (empty when not
    /// recording). A frame egui discards and runs again records twice: take the geometry
    /// at the start and at the end of the pass.
    pub fn take_geometry(&mut self) -> Vec<DrawnInstance> {
        self.geometry
            .as_mut()
            .map(std::mem::take)
            .unwrap_or_default()
    }

    /// Replace the drawing options.
    pub fn with_options(mut self, options: RendererOptions) -> Self {
        self.options = options;
        self
    }

    /// The drawing options.
    pub fn options_mut(&mut self) -> &mut RendererOptions {
        &mut self.options
    }

    /// The surfaces.
    pub fn store(&self) -> &SurfaceStore {
        &self.store
    }

    /// The surfaces, mutably (e.g. to seed a data model).
    pub fn store_mut(&mut self) -> &mut SurfaceStore {
        &mut self.store
    }

    /// The catalog.
    pub fn catalog(&self) -> &Catalog {
        &self.catalog
    }

    /// Apply one agent message (a JSON value). Errors are returned and also queued as
    /// [`Event::Error`] for the agent.
    pub fn apply_value(&mut self, value: &Value) -> Result<(), A2uiError> {
        self.apply_owned(value.clone())
    }

    /// [`Self::apply_value`] taking the message by value, so its components and data move
    /// into the surface instead of being copied.
    pub fn apply_owned(&mut self, value: Value) -> Result<(), A2uiError> {
        let version = message_version(&value);
        let hint = crate::model::surface_id_hint(&value);
        let deleted = value
            .get("deleteSurface")
            .and_then(|d| d.get("surfaceId"))
            .and_then(Value::as_str)
            .map(str::to_owned);
        match self.store.apply_owned(value) {
            Ok(Some(rpc)) => {
                self.answer_rpc(rpc);
                Ok(())
            }
            Ok(None) => {
                if let Some(id) = deleted {
                    self.forget_surface(&id);
                }
                Ok(())
            }
            Err(e) => {
                self.queue_error(hint, version, e.clone());
                Err(e)
            }
        }
    }

    /// [`Self::apply_owned`] for one message's JSON text, parsed straight into the message
    /// types (what [`Self::feed_jsonl`] and [`Self::feed_document`] use).
    pub fn apply_text(&mut self, text: &str) -> Result<(), A2uiError> {
        let surfaces = self.store.surfaces().count();
        match self.store.apply_text(text) {
            Ok(Some(rpc)) => {
                self.answer_rpc(rpc);
                Ok(())
            }
            Ok(None) => {
                // Only a deleteSurface makes the store smaller; read which one it named then.
                if self.store.surfaces().count() < surfaces
                    && let Ok(value) = serde_json::from_str::<Value>(text)
                    && let Some(id) = value
                        .get("deleteSurface")
                        .and_then(|d| d.get("surfaceId"))
                        .and_then(Value::as_str)
                {
                    self.forget_surface(id);
                }
                Ok(())
            }
            Err(e) => {
                let (hint, version) = match serde_json::from_str::<Value>(text) {
                    Ok(v) => (crate::model::surface_id_hint(&v), message_version(&v)),
                    Err(_) => (None, Version::V0_9),
                };
                self.queue_error(hint, version, e.clone());
                Err(e)
            }
        }
    }

    /// Release what the renderer keeps for a deleted surface.
    fn forget_surface(&mut self, id: &str) {
        if let Some(ctx) = &self.last_ctx {
            images::release_surface(ctx, id);
        }
        self.agent_calls.forget_surface(id);
        self.reported_unknown.retain(|(s, _)| s != id);
    }

    /// v1.0 function RPC: answer `callRendererFunction`, record `agentFunctionResponse`.
    fn answer_rpc(&mut self, message: crate::protocol::Message) {
        match message {
            crate::protocol::Message::CallRendererFunction {
                function_call_id,
                call,
            } => {
                let reply = crate::rpc::answer_renderer_function(
                    &function_call_id,
                    &call,
                    &self.catalog,
                    self.store.limits(),
                );
                self.events.push(Event::Reply(reply));
            }
            crate::protocol::Message::AgentFunctionResponse {
                function_call_id,
                result,
            } if !self.agent_calls.answer(&function_call_id, result.clone()) => {
                self.events.push(Event::Reply(serde_json::json!({
                    "version": "v1.0",
                    "error": {
                        "code": crate::rpc::INVALID_FUNCTION_CALL,
                        "functionCallId": function_call_id,
                        "message": "no pending callAgentFunction has this id",
                    }
                })));
            }
            _ => {}
        }
    }

    /// Feed a chunk of model text (prose with `<a2ui-json>` blocks, cut anywhere): messages
    /// and partial component updates are applied as they complete; the prose comes back
    /// in the events. See [`crate::stream::model_text`].
    pub fn feed_model_text(
        &mut self,
        stream: &mut crate::stream::model_text::ModelTextStream,
        chunk: &[u8],
    ) -> Vec<crate::stream::model_text::ModelTextEvent> {
        stream.feed(chunk, |m| self.apply_owned(m))
    }

    /// The end of a model answer fed with [`Self::feed_model_text`].
    pub fn finish_model_text(
        &mut self,
        stream: &mut crate::stream::model_text::ModelTextStream,
    ) -> Vec<crate::stream::model_text::ModelTextEvent> {
        stream.finish(|m| self.apply_owned(m))
    }

    /// Feed a chunk of a JSONL stream (partial lines are buffered until complete).
    pub fn feed_jsonl(&mut self, chunk: &[u8]) {
        let mut decoder =
            std::mem::replace(&mut self.decoder, StreamDecoder::new(Limits::default()));
        decoder.feed_text_each(chunk, |f| self.apply_framed_text(f));
        self.decoder = decoder;
    }

    /// Flush the JSONL buffer at the end of a stream.
    pub fn finish_jsonl(&mut self) {
        let mut decoder =
            std::mem::replace(&mut self.decoder, StreamDecoder::new(Limits::default()));
        decoder.finish_text(|f| self.apply_framed_text(f));
        self.decoder = decoder;
    }

    /// Apply a whole document: JSONL, a JSON array, `{"messages": [...]}` or an example file.
    pub fn feed_document(&mut self, bytes: &[u8]) {
        let limits = self.store.limits().clone();
        crate::stream::for_each_message_text(bytes, &limits, |f| self.apply_framed_text(f));
    }

    fn apply_framed_text(&mut self, f: crate::stream::FramedText<'_>) {
        match f {
            Ok(text) => {
                let _ = self.apply_text(text);
            }
            Err(e) => {
                self.store.reject_unparsed(e.clone());
                self.queue_error(None, Version::V0_9, e);
            }
        }
    }

    fn queue_error(&mut self, surface_id: Option<String>, version: Version, error: A2uiError) {
        let version = surface_id
            .as_deref()
            .and_then(|s| self.store.surface(s))
            .map_or(version, |s| s.version);
        self.events.push(Event::Error(ClientError {
            surface_id,
            function_call_id: None,
            version,
            error,
        }));
    }

    /// Take the events queued since the last call (also returned by [`Self::ui`]).
    pub fn take_events(&mut self) -> Vec<Event> {
        for call in self.agent_calls.drain_outgoing() {
            self.events.push(Event::Reply(call.to_message()));
        }
        std::mem::take(&mut self.events)
    }

    /// Install what drawing needs on `ctx` (image loaders including `data:` URIs, the icon
    /// font, the bundled text fonts of [`install_fonts`]). [`Self::ui`] does this
    /// itself; call it earlier to have the fonts and icons from the very first frame even
    /// when other text was laid out before the renderer ran. A host keeping its own fonts
    /// calls [`install_loaders`] (image loaders and the icon font) instead and sets [`RendererOptions::install_fonts`] to
    /// `false`.
    pub fn install(ctx: &egui::Context) {
        images::install(ctx);
        fonts::install_text_fonts(ctx);
    }

    fn install_for_frame(&self, ctx: &egui::Context) {
        images::install(ctx);
        if self.options.install_fonts {
            fonts::install_text_fonts(ctx);
        }
    }

    /// Draw every visible surface, one after another, and return the frame's events.
    pub fn ui(&mut self, ui: &mut egui::Ui) -> Vec<Event> {
        self.install_for_frame(ui.ctx());
        self.remember_ctx(ui.ctx());
        let ids: Vec<String> = self
            .store
            .surfaces()
            .filter(|s| s.is_visible())
            .map(|s| s.id.clone())
            .collect();
        for id in ids {
            self.draw_surface(&id, ui);
        }
        self.take_events()
    }

    /// Draw one surface (nothing if it is not visible) and return the frame's events.
    pub fn surface_ui(&mut self, surface_id: &str, ui: &mut egui::Ui) -> Vec<Event> {
        self.install_for_frame(ui.ctx());
        self.remember_ctx(ui.ctx());
        self.draw_surface(surface_id, ui);
        self.take_events()
    }

    fn remember_ctx(&mut self, ctx: &egui::Context) {
        if self.last_ctx.as_ref() != Some(ctx) {
            self.last_ctx = Some(ctx.clone());
        }
    }

    fn draw_surface(&mut self, surface_id: &str, ui: &mut egui::Ui) {
        let Some((surface, catalogs, limits)) = self.store.surface_frame_mut(surface_id) else {
            return;
        };
        if !surface.is_visible() {
            return;
        }
        let root = surface.root_id.clone();
        let primary = surface
            .primary_color()
            .map(|[r, g, b]| egui::Color32::from_rgb(r, g, b));
        ui.push_id(("a2ui-surface", surface_id), |ui| {
            *ui.visuals_mut() = theme::surface_visuals(ui.visuals(), primary);
            // Images drawn from here on belong to this surface (released when it is
            // deleted).
            images::set_owner(ui.ctx(), Some(surface_id), limits.max_image_cache_bytes);
            self.options.style.apply(ui);
            if self.options.show_surface_header {
                context::surface_header(ui, surface, &self.options);
            }
            let mut frame = context::SurfaceFrame {
                surface,
                catalog: &self.catalog,
                catalogs,
                options: &self.options,
                limits,
                events: &mut self.events,
                reported_unknown: &mut self.reported_unknown,
                guards: crate::model::tree::NodeGuards::new(limits),
                ctx: ui.ctx().clone(),
                agent_calls: &self.agent_calls,
                geometry: self.geometry.as_mut(),
                box_override: None,
                memo: Default::default(),
            };
            frame.node_ui(ui, &root, "/", None);
            images::set_owner(ui.ctx(), None, limits.max_image_cache_bytes);
        });
    }
}

fn message_version(v: &Value) -> Version {
    match v.get("version").and_then(Value::as_str) {
        None => Version::V0_8,
        Some(s) => Version::from_wire(s).unwrap_or(Version::V0_9),
    }
}
