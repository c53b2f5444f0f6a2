//! The egui side: [`DrawState`] draws every visible surface of a [`SurfaceStore`] inside
//! any `egui::Ui`, walking each surface from its root and handing every node to its
//! catalog's [`ComponentRenderer`](crate::render::catalog::ComponentRenderer); [`Renderer`] owns a
//! store and a drawing state together.
//! Every component is wrapped in its own AccessKit node, which carries
//! `accessibility.hidden` and `live`.
//!
//! Beside it are the pieces a host may want when it draws components of its own or checks
//! what was drawn: [`Style`] (spacing and the type scale of the official web renderer),
//! the bundled fonts ([`install_fonts`], [`extend_definitions`]) and Material icons
//! ([`icon_glyph`], [`icon_family`]), the cache of decoded `data:` images
//! ([`data_cache_stats`]), and the layout geometry dump (`testing::layout_geometry` (feature `testing`)) the fidelity
//! tests compare with the web reference.

pub(crate) mod a11y;
pub(crate) mod catalog;
pub(crate) mod context;
pub(crate) mod flex;
pub(crate) mod fonts;
pub(crate) mod geometry;
pub(crate) mod header;
#[cfg(feature = "http")]
pub mod http_loader;
pub mod icons;
pub mod images;
pub(crate) mod markdown;
pub(crate) mod slot;
pub(crate) mod style;
pub mod theme;
pub(crate) mod walk;

use std::collections::{HashMap, HashSet};

pub use context::{ChildTemplate, ComponentContext};
pub use fonts::{BOLD_FAMILY, extend_definitions, install_fonts};
pub use geometry::{DrawnInstance, GeometryOptions, PAGE_PADDING};
pub use icons::{BASIC_ICON_NAMES, icon_family, icon_glyph};
pub use images::{data_cache_stats, install as install_loaders};
/// Markdown prose drawn as the `Text` component draws it (the agent panel's thread uses it
/// for the agent's text).
pub use markdown::markdown_ui;
pub use style::{Palette, Style, TextStyle, text_family};

use crate::action::Event;

use crate::limits::Limits;
use crate::model::{Applied, StoreId, SurfaceStore};
use crate::stream::StreamDecoder;
use crate::url_policy::UrlPolicy;
pub use crate::url_policy::{DefaultImagePolicy, ImagePolicy};
use catalog::Catalog;

/// Host settings for drawing.
pub struct RendererOptions {
    /// Draw a header with `theme.iconUrl` and the agent's self-chosen name
    /// (`theme.agentDisplayName`, shown only as "calls itself …") above each surface that
    /// sets either. A surface whose store has an [origin](crate::model::AgentOrigin) always
    /// gets its header, see [`Self::show_origin`].
    pub show_surface_header: bool,
    /// Frame and label every surface whose store has an
    /// [`AgentOrigin`](crate::model::AgentOrigin) (the transports set one from what they
    /// connected to; [`SurfaceStore::set_origin`](crate::model::SurfaceStore::set_origin) sets one
    /// by hand): a border the agent cannot draw outside of, a header naming the origin, its
    /// `Modal` dialogs headed "From &lt;origin&gt;", and its obscured text fields marked with where
    /// their text goes. On by default; a host that draws its own attribution around each
    /// surface turns it off. Surfaces of a store without an origin are drawn unframed (their
    /// `Modal` dialogs and obscured fields still say "the agent").
    pub show_origin: bool,
    /// Draw a visible placeholder for unknown component types (else draw nothing).
    pub show_unsupported: bool,
    /// The one policy for every URL: what may be opened (`openUrl`, Markdown links, media
    /// cards) and where media may load from (`Image`, `Video` posters, `theme.iconUrl`).
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
    /// Where a `Button` shows the message of its first failing check while the check keeps
    /// it disabled. By default as the official web renderer: nothing is drawn, and the
    /// message is the button's hover text and its accessible description.
    pub button_check_message: ButtonCheckMessage,
    /// `Video` / `AudioPlayer` playback (feature `media`): autoplay (never with sound), the
    /// host's loaders, the audio output.
    #[cfg(feature = "media")]
    pub media: crate::media::MediaOptions,
}

/// Where a disabled `Button` shows why it is disabled (the message of its first failing
/// check). The spec asks for the message "under the control" for every checkable
/// component; the official web renderer draws none for a button, so the default draws none
/// either and keeps the message where it takes no room.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum ButtonCheckMessage {
    /// Not drawn: shown as the button's hover text (also while disabled) and set as its
    /// accessible description, so a screen reader reads it with the button. The layout and
    /// the look are the web renderer's.
    #[default]
    HoverText,
    /// Drawn beside the button in the error colour (and also its hover text and
    /// description): always visible, at the cost of the width beside the button.
    Beside,
}

impl Default for RendererOptions {
    fn default() -> Self {
        Self {
            show_surface_header: true,
            show_origin: true,
            show_unsupported: true,
            url_policy: UrlPolicy::default(),
            install_fonts: true,
            locale: "en-US".to_owned(),
            style: Style::default(),
            cull_offscreen: false,
            button_check_message: ButtonCheckMessage::default(),
            #[cfg(feature = "media")]
            media: crate::media::MediaOptions::default(),
        }
    }
}

impl std::fmt::Debug for RendererOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RendererOptions")
            .field("show_surface_header", &self.show_surface_header)
            .field("show_origin", &self.show_origin)
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
/// A `Renderer` is the convenient owner of the two halves: the data ([`SurfaceStore`]) and
/// the drawing state ([`DrawState`]: catalog, options, reported errors, agent calls). A
/// host that keeps its stores elsewhere (one per MCP session, say) draws them with one
/// [`DrawState`] instead.
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
    draw: DrawState,
    decoder: StreamDecoder,
}

impl std::fmt::Debug for Renderer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Renderer")
            .field("surfaces", &self.store.surfaces().count())
            .field("catalog", &self.draw.catalog)
            .field("options", &self.draw.options)
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
        let store = SurfaceStore::with_config(catalog.catalogs(), limits.clone());
        Self {
            store,
            draw: DrawState::new(catalog),
            decoder: StreamDecoder::new(limits),
        }
    }

    /// Record the box of every drawn component instance (see `testing::layout_geometry` (feature `testing`)); off by
    /// default. Read them with [`Self::take_geometry`].
    pub fn record_geometry(&mut self, on: bool) {
        self.draw.record_geometry(on);
    }

    /// The instances drawn since the last call, in document order (empty when not
    /// recording). A frame egui discards and runs again records twice: take the geometry
    /// at the start and at the end of the pass.
    pub fn take_geometry(&mut self) -> Vec<DrawnInstance> {
        self.draw.take_geometry()
    }

    /// Replace the drawing options.
    pub fn with_options(mut self, options: RendererOptions) -> Self {
        self.draw.options = options;
        self
    }

    /// The drawing options.
    pub fn options_mut(&mut self) -> &mut RendererOptions {
        &mut self.draw.options
    }

    /// The surfaces.
    pub fn store(&self) -> &SurfaceStore {
        &self.store
    }

    /// The surfaces, mutably (e.g. to seed a data model).
    pub fn store_mut(&mut self) -> &mut SurfaceStore {
        &mut self.store
    }

    /// The drawing state.
    pub fn draw_state(&self) -> &DrawState {
        &self.draw
    }

    /// Both halves at once, mutably: the drawing state and the store it draws.
    pub fn parts_mut(&mut self) -> (&mut DrawState, &mut SurfaceStore) {
        (&mut self.draw, &mut self.store)
    }

    /// The catalog.
    pub fn catalog(&self) -> &Catalog {
        &self.draw.catalog
    }

    /// Apply one agent message ([`SurfaceStore::apply`]: a JSON value, its text, or any
    /// framing of [`crate::stream`]). A rejection and the answer to a v1.0 function RPC
    /// come out of the next [`Self::ui`] / [`Self::take_events`] as [`Event::Error`] /
    /// [`Event::Reply`]; a deleted surface's drawing state is let go.
    #[must_use = "says whether the message was rejected (the error is also queued for the agent)"]
    pub fn apply<'a>(&mut self, frame: impl Into<crate::stream::Frame<'a>>) -> Applied {
        let applied = self.store.apply(frame);
        if let Applied::Deleted { surface_id } = &applied {
            self.draw.forget_surface(&self.store, surface_id);
        }
        applied
    }

    /// Feed a chunk of model text (prose with `<a2ui-json>` / `<a2ui>` blocks, cut
    /// anywhere): messages and partial component updates are applied as they complete; the
    /// prose comes back in the events; the model text's own problems (an Express statement
    /// that did not compile, bad JSON) are owed to the agent as A2UI `error`s
    /// ([`ModelTextStream::take_errors`](crate::stream::model_text::ModelTextStream::take_errors)).
    /// See [`crate::stream::model_text`].
    pub fn feed_model_text(
        &mut self,
        stream: &mut crate::stream::model_text::ModelTextStream,
        chunk: &[u8],
    ) -> Vec<crate::stream::model_text::ModelTextEvent> {
        let events = stream.feed(chunk, |m| self.apply(m).into_result().map(drop));
        self.store.retire(stream.take_retired());
        for failure in stream.take_errors() {
            self.store.report(failure);
        }
        events
    }

    /// The end of a model answer fed with [`Self::feed_model_text`].
    pub fn finish_model_text(
        &mut self,
        stream: &mut crate::stream::model_text::ModelTextStream,
    ) -> Vec<crate::stream::model_text::ModelTextEvent> {
        let events = stream.finish(|m| self.apply(m).into_result().map(drop));
        self.store.retire(stream.take_retired());
        for failure in stream.take_errors() {
            self.store.report(failure);
        }
        events
    }

    /// Feed a chunk of a JSONL stream (partial lines are buffered until complete).
    pub fn feed_jsonl(&mut self, chunk: &[u8]) {
        let mut decoder =
            std::mem::replace(&mut self.decoder, StreamDecoder::new(Limits::default()));
        decoder.feed_text_each(chunk, |f| {
            let _ = self.apply(f); // a rejection is queued as an event
        });
        self.decoder = decoder;
    }

    /// Flush the JSONL buffer at the end of a stream.
    pub fn finish_jsonl(&mut self) {
        let mut decoder =
            std::mem::replace(&mut self.decoder, StreamDecoder::new(Limits::default()));
        decoder.finish_text(|f| {
            let _ = self.apply(f); // a rejection is queued as an event
        });
        self.decoder = decoder;
    }

    /// Apply a whole document: JSONL, a JSON array, `{"messages": [...]}` or an example file.
    pub fn feed_document(&mut self, bytes: &[u8]) {
        let limits = self.store.limits().clone();
        crate::stream::for_each_message_text(bytes, &limits, |f| {
            let _ = self.apply(f); // a rejection is queued as an event
        });
    }

    /// Take the events queued since the last call (also returned by [`Self::ui`]).
    #[must_use = "the events are the user's actions and the errors owed to the agent: dropping them loses them"]
    pub fn take_events(&mut self) -> Vec<Event> {
        self.draw.take_events(&mut self.store)
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

    /// Draw every visible surface, one after another, and return the frame's events.
    #[must_use = "the events are the user's actions and the errors owed to the agent: dropping them loses them"]
    pub fn ui(&mut self, ui: &mut egui::Ui) -> Vec<Event> {
        self.draw.ui(&mut self.store, ui)
    }

    /// Draw one surface (nothing if it is not visible) and return the frame's events.
    #[must_use = "the events are the user's actions and the errors owed to the agent: dropping them loses them"]
    pub fn surface_ui(&mut self, surface_id: &str, ui: &mut egui::Ui) -> Vec<Event> {
        self.draw.surface_ui(&mut self.store, surface_id, ui)
    }
}

/// The drawing half of a renderer, apart from the data: the catalog, the options, the
/// events drawing produced, the de-dup of reported errors and the geometry recording (the
/// store keeps what it owes the agent, v1.0 agent calls included). It draws any
/// [`SurfaceStore`] its host owns, and one `DrawState` can draw many stores: the state it
/// keeps per surface is keyed by store ([`SurfaceStore::id`]), so two stores with the same
/// surface ids never mix, and [`Self::ui`] returns only the events of the store it drew.
///
/// ```
/// use egui_a2ui::render::DrawState;
/// use egui_a2ui::{Catalog, SurfaceStore};
///
/// let catalog = Catalog::basic();
/// let mut draw = DrawState::new(catalog.clone());
/// let mut sessions = [SurfaceStore::basic(), SurfaceStore::basic()];
/// for store in &mut sessions {
///     store.feed_document(br#"{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json"}}
/// {"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":"Hi"}]}}"#);
/// }
/// let ctx = egui::Context::default();
/// let mut output = ctx.run_ui(egui::RawInput::default(), |ui| {
///     for store in &mut sessions {
///         for event in draw.ui(store, ui) {
///             println!("{event:?}"); // an event of this store's surfaces
///         }
///     }
/// });
/// output.textures_delta.clear();
/// ```
pub struct DrawState {
    catalog: Catalog,
    options: RendererOptions,
    /// What is kept per store drawn or applied to.
    stores: HashMap<StoreId, StoreState>,
    /// The egui context last drawn into, to release a deleted surface's cached images.
    last_ctx: Option<egui::Context>,
    /// The instances drawn since the last [`DrawState::take_geometry`], when recording.
    geometry: Option<Vec<DrawnInstance>>,
}

/// The drawing state of one store.
#[derive(Default)]
struct StoreState {
    events: Vec<Event>,
    /// (surface, key) pairs already reported (unknown types, failed calls), so each is
    /// reported once.
    reported_unknown: HashSet<(String, String)>,
    /// Surfaces drawn (id → [`crate::model::Surface::serial`]), to let go of the state
    /// of one deleted (or replaced) behind our back.
    drawn: HashMap<String, u64>,
    /// The slot stack's buffer, lent to each surface's walk (kept to save its allocation).
    slots: Vec<slot::OpenSlot>,
}

impl StoreState {
    /// Let go of everything kept for `surface_id`.
    fn forget(&mut self, surface_id: &str, ctx: Option<&egui::Context>) {
        if let (Some(serial), Some(ctx)) = (self.drawn.remove(surface_id), ctx) {
            images::release_surface(ctx, &image_owner(serial));
            walk::release_resolve_cache(ctx, serial);
        }
        self.reported_unknown.retain(|(s, _)| s != surface_id);
    }
}

/// A drawing state going away lets go of what it kept in egui memory for the surfaces it
/// drew (cached `data:` images, resolution caches), as [`DrawState::forget_store`] does.
impl Drop for DrawState {
    fn drop(&mut self) {
        let ids: Vec<StoreId> = self.stores.keys().copied().collect();
        for id in ids {
            self.forget_store(id);
        }
    }
}

/// The owner of the images a surface draws (unique per surface, whatever its store).
fn image_owner(serial: u64) -> String {
    format!("surface#{serial}")
}

impl std::fmt::Debug for DrawState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DrawState")
            .field("catalog", &self.catalog)
            .field("options", &self.options)
            .field("stores", &self.stores.len())
            .finish_non_exhaustive()
    }
}

impl DrawState {
    /// Drawing state for `catalog`, with default options.
    pub fn new(catalog: Catalog) -> Self {
        Self {
            catalog,
            options: RendererOptions::default(),
            stores: HashMap::new(),
            last_ctx: None,
            geometry: None,
        }
    }

    /// Replace the drawing options.
    pub fn with_options(mut self, options: RendererOptions) -> Self {
        self.options = options;
        self
    }

    /// The drawing options.
    pub fn options(&self) -> &RendererOptions {
        &self.options
    }

    /// The drawing options, mutably.
    pub fn options_mut(&mut self) -> &mut RendererOptions {
        &mut self.options
    }

    /// The catalog.
    pub fn catalog(&self) -> &Catalog {
        &self.catalog
    }

    /// Record the box of every drawn component instance (see `testing::layout_geometry` (feature `testing`)); off by
    /// default. Read them with [`Self::take_geometry`].
    pub fn record_geometry(&mut self, on: bool) {
        self.geometry = on.then(Vec::new);
    }

    /// The instances drawn since the last call, in document order (empty when not
    /// recording).
    pub fn take_geometry(&mut self) -> Vec<DrawnInstance> {
        self.geometry
            .as_mut()
            .map(std::mem::take)
            .unwrap_or_default()
    }

    /// Let go of what is kept for `surface_id` of `store` (deleted there).
    fn forget_surface(&mut self, store: &SurfaceStore, surface_id: &str) {
        if let Some(state) = self.stores.get_mut(&store.id()) {
            state.forget(surface_id, self.last_ctx.as_ref());
        }
    }

    /// Take the events of `store` since the last call (also returned by [`Self::ui`]):
    /// what the store owes the agent ([`SurfaceStore::take_outgoing`]: errors, RPC replies,
    /// `callAgentFunction` requests), then what drawing it produced (actions, edits, errors
    /// met while drawing).
    #[must_use = "the events are the user's actions and the errors owed to the agent: dropping them loses them"]
    pub fn take_events(&mut self, store: &mut SurfaceStore) -> Vec<Event> {
        let mut events = store.take_outgoing();
        if let Some(state) = self.stores.get_mut(&store.id()) {
            events.append(&mut state.events);
        }
        events
    }

    /// Let go of everything kept for a store the host dropped.
    pub fn forget_store(&mut self, store: StoreId) {
        if let Some(mut state) = self.stores.remove(&store) {
            let ids: Vec<String> = state.drawn.keys().cloned().collect();
            for id in ids {
                state.forget(&id, self.last_ctx.as_ref());
            }
        }
    }

    fn install_for_frame(&mut self, ctx: &egui::Context) {
        images::install(ctx);
        if self.options.install_fonts {
            fonts::install_text_fonts(ctx);
        }
        if self.last_ctx.as_ref() != Some(ctx) {
            self.last_ctx = Some(ctx.clone());
        }
    }

    /// Draw every visible surface of `store`, one after another, and return the events of
    /// this store queued since the last call.
    #[must_use = "the events are the user's actions and the errors owed to the agent: dropping them loses them"]
    pub fn ui(&mut self, store: &mut SurfaceStore, ui: &mut egui::Ui) -> Vec<Event> {
        self.install_for_frame(ui.ctx());
        self.settle(store);
        let ids: Vec<String> = store
            .surfaces()
            .filter(|s| s.is_visible())
            .map(|s| s.id.clone())
            .collect();
        for id in ids {
            self.draw_surface(store, &id, ui);
        }
        self.take_events(store)
    }

    /// Draw one surface of `store` (nothing if it is not visible) and return the events of
    /// this store queued since the last call.
    #[must_use = "the events are the user's actions and the errors owed to the agent: dropping them loses them"]
    pub fn surface_ui(
        &mut self,
        store: &mut SurfaceStore,
        surface_id: &str,
        ui: &mut egui::Ui,
    ) -> Vec<Event> {
        self.install_for_frame(ui.ctx());
        self.settle(store);
        self.draw_surface(store, surface_id, ui);
        self.take_events(store)
    }

    /// Let go of the state of surfaces deleted (or replaced) in `store` without this
    /// state seeing it (the host applied the messages itself).
    fn settle(&mut self, store: &SurfaceStore) {
        let Some(state) = self.stores.get_mut(&store.id()) else {
            return;
        };
        let gone: Vec<String> = state
            .drawn
            .iter()
            .filter(|(id, serial)| store.surface(id).map(|s| s.serial()) != Some(**serial))
            .map(|(id, _)| id.clone())
            .collect();
        for id in gone {
            state.forget(&id, self.last_ctx.as_ref());
        }
    }

    fn draw_surface(&mut self, store: &mut SurfaceStore, surface_id: &str, ui: &mut egui::Ui) {
        let store_id = store.id();
        let Some(crate::model::store::FrameParts {
            surface,
            catalogs,
            limits,
            agent_calls,
            origin,
        }) = store.surface_frame_mut(surface_id)
        else {
            return;
        };
        if !surface.is_visible() {
            return;
        }
        let state = self.stores.entry(store_id).or_default();
        state.drawn.insert(surface_id.to_owned(), surface.serial());
        let owner = image_owner(surface.serial());
        let root = surface.root_id.clone();
        let primary = surface
            .primary_color()
            .map(|[r, g, b]| egui::Color32::from_rgb(r, g, b));
        let options = &self.options;
        let catalog = &self.catalog;
        let geometry = self.geometry.as_mut();
        ui.push_id(("a2ui-surface", surface_id), |ui| {
            let palette = *options.style.palette(ui.visuals());
            *ui.visuals_mut() = theme::surface_visuals(ui.visuals(), primary, &palette);
            // Images drawn from here on belong to this surface (released when it is
            // deleted).
            images::set_owner(ui.ctx(), Some(&owner), limits);
            options.style.apply(ui);
            let origin = origin.filter(|_| options.show_origin);
            let draw = |ui: &mut egui::Ui| {
                if options.show_surface_header || origin.is_some() {
                    header::surface_header(ui, surface, options, origin);
                }
                let mut frame = walk::SurfaceFrame {
                    surface,
                    catalog,
                    catalogs,
                    options,
                    limits,
                    events: &mut state.events,
                    reported_unknown: &mut state.reported_unknown,
                    guards: crate::model::tree::NodeGuards::new(limits),
                    ctx: ui.ctx().clone(),
                    agent_calls,
                    store_id,
                    geometry,
                    box_override: None,
                    memo: Default::default(),
                    origin,
                    slots: slot::SlotStack::with_buffer(std::mem::take(&mut state.slots)),
                };
                frame.node_ui(ui, &root, "/", None);
                state.slots = frame.slots.take_buffer();
            };
            if origin.is_some() {
                header::origin_frame(ui).show(ui, draw);
            } else {
                draw(ui);
            }
            images::set_owner(ui.ctx(), None, limits);
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deleted_surface_releases_its_resolution_cache() {
        let mut r = Renderer::new(Catalog::basic());
        r.feed_document(
            br#"{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json"}}
{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":{"path":"/name"}}]}}
{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/name","value":"Ada"}}
"#,
        );
        let serial = r.store().surface("s").map(|s| s.serial()).unwrap();
        let ctx = egui::Context::default();
        let frame = |r: &mut Renderer| {
            let mut out = ctx.run_ui(egui::RawInput::default(), |ui| {
                let _ = r.ui(ui);
            });
            out.textures_delta.clear();
        };
        frame(&mut r);
        assert!(walk::has_resolve_cache(&ctx, serial), "drawn: cached");
        r.feed_document(br#"{"version":"v0.9","deleteSurface":{"surfaceId":"s"}}"#);
        assert!(!walk::has_resolve_cache(&ctx, serial), "deleted: released");
    }
}
