//! Images: the loaders, one-time loader installation, and the drawing shared by `Image`,
//! media posters and the surface header (placeholder while loading, a visible state when
//! blocked or failed, `fit` modes, circular avatars).
//!
//! Loading goes through egui's loader chain, so it is asynchronous and cached. The bytes
//! come from [`DataUriLoader`] (ours, `data:` URIs), egui's `bytes://` loader (e.g. `Icon
//! {svgPath}`), and for `https:` the `http` feature's `http_loader::HttpBytesLoader` or a bytes
//! loader the host installs. Every picture is then made by one loader,
//! [`SafeImageLoader`] (ours): egui_extras' image and SVG loaders are not installed. The
//! [`UrlPolicy`] is checked before anything is requested.
//!
//! # What an agent's image can and cannot make the host do
//!
//! With the default [`Limits`](crate::limits::Limits) (`max_image_dimension` 8192 px,
//! `max_image_bytes` 32 MiB, `max_image_cache_bytes` 64 MiB):
//!
//! - **No file, device or network access by the decoder.** An SVG's `<image href>` (and
//!   `feImage`) is resolved only when it is a nested `data:` PNG or JPEG; a file path
//!   (`/dev/zero`, a FIFO, `\\host\share` UNC path), any URL, a nested SVG, GIF or WebP makes
//!   the whole image fail with [`ImageError::HrefRefused`], without opening anything. SVG
//!   text is never given fonts from the system (no `<text>` rendering). Only the URL the
//!   agent names is fetched, and only through the bytes loaders above, after the policy.
//! - **Bounded pixels.** A PNG or JPEG whose header declares a side over
//!   `max_image_dimension` is refused before decoding ([`ImageError::TooLarge`]);
//!   decoding runs under `image::Limits` (those sides, and an allocation cap of 8 bytes a
//!   declared pixel). A picture is never larger than `min(max_image_dimension, the GPU's
//!   max_texture_side)` on either axis: a larger raster image is downscaled, an SVG is
//!   rasterised to fit on both axes whatever its declared size or the box it is drawn
//!   in. Nested `data:` images share a budget of `max_image_dimension²` pixels per SVG,
//!   each within `max_image_dimension` a side; an SVG pattern tile larger than the image
//!   could be is refused.
//! - **Bounded bytes.** An encoded image over `max_image_bytes` is refused
//!   ([`ImageError::TooManyBytes`]); svgz is inflated here, stopping one byte past
//!   `max_image_bytes` (usvg's own inflation, which has no cap, is never used). A
//!   `data:` URI is at most [`MAX_DATA_URI_LEN`] (16 MiB). With the `http` feature a
//!   fetch reads at most the body cap and has timeouts (see `http_loader::HttpBytesLoader`).
//! - **Off the UI thread.** Decoding and rasterising run on two worker threads; the UI
//!   shows a spinner meanwhile and is repainted when the picture is ready. A decoder
//!   panic fails that image only.
//! - **Bounded caches.** Decoded `data:` URIs and decoded pictures are each held to
//!   `max_image_cache_bytes`, least recently drawn first out; the `data:` entries of a
//!   deleted surface go with it.
//! - **Reported once.** A refused or undecodable `Image` draws the broken-image
//!   placeholder (its alt text stays its accessible name) and is reported to the agent
//!   once per URL: `LIMIT_EXCEEDED` (`max_image_dimension`, `max_image_bytes`) or
//!   `VALIDATION_FAILED` (href refused, bad data).
//!
//! - **Bounded SVG structure.** An SVG whose elements, every `<use>` expanded, are more
//!   than [`MAX_SVG_ELEMENTS`] (200,000) or nest deeper than [`MAX_SVG_DEPTH`] (256), or
//!   whose `<use>` refers to itself, is refused before usvg converts it.
//!
//! What remains: a valid SVG within these caps may still take a worker thread seconds and
//! some hundred MiB (e.g. markers repeated on a long path); it cannot stall the UI
//! thread.
//!
//! The `data:` cache is bounded by bytes ([`crate::limits::Limits::max_image_cache_bytes`]), least
//! recently drawn first out, and the entries a deleted surface drew are dropped with it;
//! egui is then told to forget those URIs, so their decoded images and textures go too.

use std::collections::HashMap;
use std::sync::Arc;

use egui::load::{BytesLoadResult, BytesLoader, BytesPoll, LoadError, SizeHint, TexturePoll};
use egui::mutex::Mutex;

use crate::url_policy::UrlPolicy;

mod decode;
mod loader;

pub use decode::{
    ImageCaps, ImageError, ImageKind, MAX_SVG_DEPTH, MAX_SVG_ELEMENTS, decode_image,
    inflate_capped, sniff,
};
pub use loader::SafeImageLoader;

/// The largest `data:` URI we decode (longer ones fail to load instead).
pub const MAX_DATA_URI_LEN: usize = 16 * 1024 * 1024;

/// Install everything the renderer draws with on `ctx`: our image loader
/// ([`SafeImageLoader`]), our `data:` bytes loader, with the `http` feature our `https:`
/// bytes loader, and the icon font. egui_extras' image loaders are not installed (their
/// SVG loader reads files named by `<image href>`, their decoders have no size caps); a
/// host that installs them anyway should do it before this call, so ours are asked
/// first. Cheap after the first call (a flag in the context's memory);
/// [`Renderer::ui`](super::Renderer::ui) calls it every frame.
pub fn install(ctx: &egui::Context) {
    let flag = egui::Id::unique("egui_a2ui::installed");
    if ctx.data(|d| d.get_temp::<bool>(flag)).unwrap_or(false) {
        return;
    }
    if !ctx.is_loader_installed(DataUriLoader::ID) {
        let loader = Arc::new(DataUriLoader::default());
        ctx.data_mut(|d| d.insert_temp(loader_key(), Arc::clone(&loader)));
        ctx.add_bytes_loader(loader);
    }
    #[cfg(feature = "http")]
    super::http_loader::install(ctx);
    if !ctx.is_loader_installed(SafeImageLoader::ID) {
        let loader = Arc::new(SafeImageLoader::default());
        ctx.data_mut(|d| d.insert_temp(image_loader_key(), Arc::clone(&loader)));
        ctx.add_image_loader(loader);
    }
    super::icons::install_icon_font(ctx);
    ctx.data_mut(|d| d.insert_temp(flag, true));
}

fn image_loader_key() -> egui::Id {
    egui::Id::unique("egui_a2ui::image_loader")
}

/// The image loader installed on `ctx` by [`install`].
pub fn image_loader(ctx: &egui::Context) -> Option<Arc<SafeImageLoader>> {
    ctx.data(|d| d.get_temp::<Arc<SafeImageLoader>>(image_loader_key()))
}

/// The typed reason `url` failed to load in the crate's image loader (a refused size, an
/// `<image href>` refused, a bad file), or `None` when it did not fail there.
pub fn load_error(ctx: &egui::Context, url: &str) -> Option<ImageError> {
    image_loader(ctx).and_then(|l| l.error(url))
}

fn is_data_uri(uri: &str) -> bool {
    uri.get(..5)
        .is_some_and(|p| p.eq_ignore_ascii_case("data:"))
}

/// Decode a `data:` URI into its bytes and `type/subtype`. Only `image/*` is served.
pub fn decode_data_uri(uri: &str) -> Result<(Vec<u8>, String), String> {
    if uri.len() > MAX_DATA_URI_LEN {
        return Err(format!(
            "data: URI of {} bytes is over the {MAX_DATA_URI_LEN}-byte limit",
            uri.len()
        ));
    }
    let url = data_url::DataUrl::process(uri).map_err(|e| format!("bad data: URI: {e:?}"))?;
    let mime = url.mime_type();
    if mime.type_ != "image" {
        return Err(format!(
            "data: URI of type {}/{} is not an image",
            mime.type_, mime.subtype
        ));
    }
    let mime = format!("{}/{}", mime.type_, mime.subtype);
    let (bytes, _fragment) = url
        .decode_to_vec()
        .map_err(|_| "bad base64 in data: URI".to_owned())?;
    Ok((bytes, mime))
}

type DataEntry = Result<(Arc<[u8]>, String), String>;

/// The default byte bound of the `data:` cache ([`crate::limits::Limits::max_image_cache_bytes`]).
pub const DEFAULT_CACHE_BYTES: usize = 64 * 1024 * 1024;

/// One cached `data:` URI.
struct Slot {
    entry: DataEntry,
    /// Bytes it holds (URI and decoded bytes).
    cost: usize,
    /// When it was last drawn or loaded (the cache's clock).
    tick: u64,
    /// The surfaces that drew it; when the last of them is deleted it is dropped.
    owners: Vec<Arc<str>>,
}

/// The `data:` cache: bounded by bytes, least recently used dropped first.
struct DataCache {
    slots: HashMap<Arc<str>, Slot>,
    order: std::collections::BTreeMap<u64, Arc<str>>,
    bytes: usize,
    max_bytes: usize,
    clock: u64,
    /// URIs dropped since the renderer last told egui to forget them (decoded images and
    /// textures of a dropped URI go too).
    dropped: Vec<Arc<str>>,
}

impl Default for DataCache {
    fn default() -> Self {
        Self {
            slots: HashMap::new(),
            order: std::collections::BTreeMap::new(),
            bytes: 0,
            max_bytes: DEFAULT_CACHE_BYTES,
            clock: 0,
            dropped: Vec::new(),
        }
    }
}

impl DataCache {
    fn touch(&mut self, uri: &str) -> Option<&mut Slot> {
        self.clock += 1;
        let clock = self.clock;
        let slot = self.slots.get_mut(uri)?;
        if let Some(key) = self.order.remove(&slot.tick) {
            self.order.insert(clock, key);
        }
        slot.tick = clock;
        Some(slot)
    }

    fn remove(&mut self, uri: &str) -> Option<Arc<str>> {
        let (key, slot) = self.slots.remove_entry(uri)?;
        self.order.remove(&slot.tick);
        self.bytes -= slot.cost;
        Some(key)
    }

    /// Drop least recently used entries until `extra` more bytes fit.
    fn make_room(&mut self, extra: usize) {
        while self.bytes + extra > self.max_bytes {
            let Some((_, key)) = self.order.pop_first() else {
                break;
            };
            if let Some(slot) = self.slots.remove(&key) {
                self.bytes -= slot.cost;
            }
            self.dropped.push(key);
        }
    }

    fn insert(&mut self, uri: &str, entry: DataEntry) {
        let cost = uri.len() + entry.as_ref().map_or(0, |(b, m)| b.len() + m.len());
        if cost > self.max_bytes {
            return;
        }
        self.make_room(cost);
        self.clock += 1;
        let key: Arc<str> = Arc::from(uri);
        self.order.insert(self.clock, Arc::clone(&key));
        self.bytes += cost;
        self.slots.insert(
            key,
            Slot {
                entry,
                cost,
                tick: self.clock,
                owners: Vec::new(),
            },
        );
    }
}

/// An egui [`BytesLoader`] for `data:` URIs (base64 or percent-encoded). Decoded URIs are
/// cached up to a byte bound ([`crate::limits::Limits::max_image_cache_bytes`]), least recently
/// drawn first out; the entries a deleted surface drew are dropped with it.
#[derive(Default)]
pub struct DataUriLoader {
    cache: Mutex<DataCache>,
}

impl DataUriLoader {
    /// The loader id.
    pub const ID: &'static str = egui::generate_loader_id!(DataUriLoader);

    /// Cached entries and the bytes they hold.
    pub fn stats(&self) -> (usize, usize) {
        let c = self.cache.lock();
        (c.slots.len(), c.bytes)
    }

    /// Change the byte bound (entries over it are dropped at once).
    pub fn set_max_bytes(&self, max: usize) {
        let mut c = self.cache.lock();
        if c.max_bytes != max {
            c.max_bytes = max;
            c.make_room(0);
        }
    }

    /// Mark `uri` as drawn now, by `owner` (a surface id) when given.
    fn drawn(&self, uri: &str, owner: Option<&Arc<str>>) {
        let mut c = self.cache.lock();
        if let Some(slot) = c.touch(uri)
            && let Some(owner) = owner
            && !slot.owners.contains(owner)
        {
            slot.owners.push(Arc::clone(owner));
        }
    }

    /// Forget `owner`: entries no other surface drew are dropped.
    fn release(&self, owner: &str) {
        let mut c = self.cache.lock();
        let mut gone = Vec::new();
        for (key, slot) in &mut c.slots {
            let before = slot.owners.len();
            slot.owners.retain(|o| &**o != owner);
            if before > 0 && slot.owners.is_empty() {
                gone.push(Arc::clone(key));
            }
        }
        for key in gone {
            if let Some(k) = c.remove(&key) {
                c.dropped.push(k);
            }
        }
    }

    /// The URIs dropped and not cached again since.
    fn take_dropped(&self) -> Vec<Arc<str>> {
        let mut c = self.cache.lock();
        let mut dropped = std::mem::take(&mut c.dropped);
        dropped.retain(|u| !c.slots.contains_key(u));
        dropped.sort_unstable();
        dropped.dedup();
        dropped
    }
}

impl BytesLoader for DataUriLoader {
    fn id(&self) -> &str {
        Self::ID
    }

    fn load(&self, _ctx: &egui::Context, uri: &str) -> BytesLoadResult {
        if !is_data_uri(uri) {
            return Err(LoadError::NotSupported);
        }
        let mut cache = self.cache.lock();
        let entry = match cache.touch(uri) {
            Some(slot) => slot.entry.clone(),
            None => {
                let entry = decode_data_uri(uri)
                    .map(|(bytes, mime)| (Arc::from(bytes.into_boxed_slice()), mime));
                cache.insert(uri, entry.clone());
                entry
            }
        };
        match entry {
            Ok((bytes, mime)) => Ok(BytesPoll::Ready {
                size: None,
                bytes: egui::load::Bytes::Shared(bytes),
                mime: Some(mime),
            }),
            Err(e) => Err(LoadError::Loading(e)),
        }
    }

    fn forget(&self, uri: &str) {
        self.cache.lock().remove(uri);
    }

    fn forget_all(&self) {
        let mut c = self.cache.lock();
        c.slots.clear();
        c.order.clear();
        c.bytes = 0;
    }

    fn byte_size(&self) -> usize {
        self.cache.lock().bytes
    }
}

fn loader_key() -> egui::Id {
    egui::Id::unique("egui_a2ui::data_uri_loader")
}

fn owner_key() -> egui::Id {
    egui::Id::unique("egui_a2ui::image_owner")
}

/// The `data:` loader installed on `ctx` by [`install`].
pub fn data_uri_loader(ctx: &egui::Context) -> Option<Arc<DataUriLoader>> {
    ctx.data(|d| d.get_temp::<Arc<DataUriLoader>>(loader_key()))
}

/// Entries in `ctx`'s `data:` image cache and the bytes they hold (`(0, 0)` before the
/// loaders are installed by the renderer's first frame or
/// [`Renderer::install`](crate::render::Renderer::install)).
pub fn data_cache_stats(ctx: &egui::Context) -> (usize, usize) {
    data_uri_loader(ctx).map_or((0, 0), |l| l.stats())
}

/// Images drawn from now on belong to this surface (`None`: to nobody), and the caches
/// and image caps follow `limits`. The renderer calls it around each surface it draws.
pub(crate) fn set_owner(ctx: &egui::Context, owner: Option<&str>, limits: &crate::limits::Limits) {
    let owner: Option<Arc<str>> = owner.map(Arc::from);
    ctx.data_mut(|d| d.insert_temp(owner_key(), owner));
    if let Some(l) = data_uri_loader(ctx) {
        l.set_max_bytes(limits.max_image_cache_bytes);
    }
    if let Some(l) = image_loader(ctx) {
        l.set_limits(limits);
    }
    #[cfg(feature = "http")]
    super::http_loader::set_limits(ctx, limits);
    forget_dropped(ctx);
}

/// Drop the cached images only `surface` drew (it was deleted), with their decoded images
/// and textures.
pub fn release_surface(ctx: &egui::Context, surface: &str) {
    if let Some(l) = data_uri_loader(ctx) {
        l.release(surface);
    }
    forget_dropped(ctx);
}

/// Tell egui to forget the URIs the cache dropped, so their decoded images and textures
/// are freed too.
fn forget_dropped(ctx: &egui::Context) {
    let Some(l) = data_uri_loader(ctx) else {
        return;
    };
    for uri in l.take_dropped() {
        ctx.forget_image(&uri);
    }
}

/// How an image fills its box (`Image.fit`; CSS `object-fit`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fit {
    /// Scale to fit inside, keeping the aspect ratio (letterboxed).
    Contain,
    /// Scale to cover the box, keeping the aspect ratio (cropped).
    Cover,
    /// Stretch to the box.
    Fill,
    /// Natural size, centred and cropped.
    None,
    /// Like `None`, or like `Contain` when the image is larger than the box.
    ScaleDown,
}

impl Fit {
    /// Parse a v0.9 (`scaleDown`) or v0.8 (`scale-down`) value.
    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "contain" => Self::Contain,
            "cover" => Self::Cover,
            "fill" => Self::Fill,
            "none" => Self::None,
            "scaleDown" | "scale-down" => Self::ScaleDown,
            _ => return None,
        })
    }

    /// Where an image of `image` size lands in `frame`, and which part of it (uv, 0..1) is
    /// shown. Degenerate sizes give an empty destination.
    pub fn place(self, frame: egui::Rect, image: egui::Vec2) -> (egui::Rect, egui::Rect) {
        let full = egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0));
        let (bw, bh) = (frame.width(), frame.height());
        let (iw, ih) = (image.x, image.y);
        let valid = iw > 0.0 && ih > 0.0 && bw > 0.0 && bh > 0.0;
        if !(valid && (iw * ih).is_finite() && (bw * bh).is_finite()) {
            return (
                egui::Rect::from_center_size(frame.center(), egui::Vec2::ZERO),
                full,
            );
        }
        let centred = |size: egui::Vec2| egui::Rect::from_center_size(frame.center(), size);
        let uv_centred = |fraction: egui::Vec2| {
            egui::Rect::from_center_size(egui::pos2(0.5, 0.5), fraction.min(egui::Vec2::splat(1.0)))
        };
        match self {
            Self::Fill => (frame, full),
            Self::Contain => {
                let s = (bw / iw).min(bh / ih);
                (centred(image * s), full)
            }
            Self::Cover => {
                let s = (bw / iw).max(bh / ih);
                let scaled = image * s;
                (frame, uv_centred(egui::vec2(bw / scaled.x, bh / scaled.y)))
            }
            Self::None => {
                let shown = image.min(frame.size());
                (centred(shown), uv_centred(shown / image))
            }
            Self::ScaleDown => {
                if iw <= bw && ih <= bh {
                    Self::None.place(frame, image)
                } else {
                    Self::Contain.place(frame, image)
                }
            }
        }
    }
}

/// The size of an image's box.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BoxSize {
    /// Exactly this size.
    Fixed(egui::Vec2),
    /// This width; the height follows the image's aspect ratio up to `max_height`
    /// (`placeholder_height` while the size is unknown).
    Flexible {
        /// The width.
        width: f32,
        /// The largest height.
        max_height: f32,
        /// The height while loading or failed.
        placeholder_height: f32,
    },
}

/// Everything [`image_ui`] needs.
pub struct ImageSpec<'a> {
    /// The URL (already resolved).
    pub url: &'a str,
    /// Alt text (`description`); may be empty.
    pub alt: &'a str,
    /// The box.
    pub size: BoxSize,
    /// How the image fills it.
    pub fit: Fit,
    /// Round the corners into a circle (avatars).
    pub circular: bool,
    /// Corner radius otherwise.
    pub corner_radius: f32,
}

/// Why an image shows no picture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ImageState {
    /// Drawn.
    Ready,
    /// Still loading (a spinner is shown).
    Loading,
    /// The [`UrlPolicy`] refused the URL.
    Blocked,
    /// Loading failed; the reason.
    Failed(String),
}

/// The visible word for a state, also used as the AccessKit description.
pub fn state_text(state: &ImageState) -> String {
    match state {
        ImageState::Ready => String::new(),
        ImageState::Loading => "Loading image…".to_owned(),
        ImageState::Blocked => {
            "Image blocked: this address is not allowed by the URL policy".to_owned()
        }
        ImageState::Failed(e) => format!("Image unavailable: {e}"),
    }
}

fn describe_error(url: &str, e: &LoadError) -> String {
    match e {
        LoadError::NoMatchingBytesLoader | LoadError::NotSupported
            if url.get(..4).is_some_and(|p| p.eq_ignore_ascii_case("http")) =>
        {
            "no http image loader is installed (enable the `http` feature)".to_owned()
        }
        LoadError::NoMatchingImageLoader {
            detected_format: Some(f),
        }
        | LoadError::FormatNotSupported {
            detected_format: Some(f),
        } => format!("unsupported image format {f}"),
        other => other.to_string(),
    }
}

/// Draw an image (or its loading / blocked / failed state) and return its response, whose
/// AccessKit node is an `Image` labelled with the alt text and described with the state.
pub fn image_ui(
    ui: &mut egui::Ui,
    policy: &UrlPolicy,
    spec: &ImageSpec<'_>,
) -> (egui::Response, ImageState) {
    let ppp = ui.pixels_per_point();
    let (hint, placeholder) = match spec.size {
        BoxSize::Fixed(s) => (
            SizeHint::Size {
                width: (s.x * ppp).round().clamp(1.0, 8192.0) as u32,
                height: (s.y * ppp).round().clamp(1.0, 8192.0) as u32,
                maintain_aspect_ratio: true,
            },
            s,
        ),
        BoxSize::Flexible {
            width,
            placeholder_height,
            ..
        } => (
            SizeHint::Width((width * ppp).round().clamp(1.0, 8192.0) as u32),
            egui::vec2(width, placeholder_height),
        ),
    };
    let poll = if !policy.allows_media(spec.url) {
        Err(ImageState::Blocked)
    } else if spec.url.trim().is_empty() {
        Err(ImageState::Failed("no URL".to_owned()))
    } else {
        #[cfg(feature = "http")]
        super::http_loader::note_policy(ui.ctx(), spec.url, policy);
        ui.ctx()
            .try_load_texture(spec.url, egui::TextureOptions::LINEAR, hint)
            .map_err(|e| ImageState::Failed(describe_error(spec.url, &e)))
    };
    // Requested (allowed and not empty): the cache marks it drawn now, by this surface.
    if !matches!(poll, Err(ImageState::Blocked))
        && is_data_uri(spec.url)
        && let Some(loader) = data_uri_loader(ui.ctx())
    {
        let owner = ui
            .ctx()
            .data(|d| d.get_temp::<Option<Arc<str>>>(owner_key()));
        loader.drawn(spec.url, owner.flatten().as_ref());
    }
    let (response, state) = match poll {
        Ok(TexturePoll::Ready { texture }) => {
            let size = match spec.size {
                BoxSize::Fixed(s) => s,
                BoxSize::Flexible {
                    width, max_height, ..
                } => {
                    let aspect = texture.size.y / texture.size.x.max(1.0);
                    let h = (width * aspect).min(max_height);
                    egui::vec2(width, if h.is_finite() { h.max(1.0) } else { 1.0 })
                }
            };
            let (rect, response) = ui.allocate_exact_size(size, egui::Sense::hover());
            if ui.is_rect_visible(rect) {
                let (dest, uv) = spec.fit.place(rect, texture.size);
                let radius = if spec.circular {
                    dest.width().min(dest.height()) / 2.0
                } else {
                    spec.corner_radius
                };
                egui::Image::from_texture(texture)
                    .uv(uv)
                    .corner_radius(radius)
                    .paint_at(ui, dest);
            }
            (response, ImageState::Ready)
        }
        Ok(TexturePoll::Pending { .. }) => {
            let (rect, response) = ui.allocate_exact_size(placeholder, egui::Sense::hover());
            placeholder_frame(ui, rect, spec, None);
            let side = (rect.height().min(rect.width()) * 0.5).clamp(8.0, 24.0);
            egui::Spinner::new().paint_at(
                ui,
                egui::Rect::from_center_size(rect.center(), egui::Vec2::splat(side)),
            );
            (response, ImageState::Loading)
        }
        // A picture that failed to load collapses, as in the web renderer, unless its box
        // has a fixed size (an avatar, an icon) or it was refused (over a cap, an `<image
        // href>` refused: the user sees something was kept out); its state stays in the
        // AccessKit node.
        Err(state @ ImageState::Failed(_))
            if matches!(spec.size, BoxSize::Flexible { .. })
                && !load_error(ui.ctx(), spec.url).is_some_and(|e| e.is_refusal()) =>
        {
            let (_, response) = ui.allocate_exact_size(egui::Vec2::ZERO, egui::Sense::hover());
            (response, state)
        }
        Err(state) => {
            let (rect, response) = ui.allocate_exact_size(placeholder, egui::Sense::hover());
            placeholder_frame(ui, rect, spec, Some(&state));
            let response = response.on_hover_text(state_text(&state));
            (response, state)
        }
    };
    describe_image(ui, &response, spec, &state);
    (response, state)
}

/// Name an image's node for screen readers: its alt text (or "Image") as an `Image` role,
/// and its state (loading, blocked, failed) as the description.
pub fn describe_image(
    ui: &egui::Ui,
    response: &egui::Response,
    spec: &ImageSpec<'_>,
    state: &ImageState,
) {
    let label = if spec.alt.is_empty() {
        "Image".to_owned()
    } else {
        spec.alt.to_owned()
    };
    let enabled = ui.is_enabled();
    response
        .widget_info(|| egui::WidgetInfo::labeled(egui::accesskit::Role::Image, enabled, &label));
    let description = state_text(state);
    if !description.is_empty() {
        ui.ctx().accesskit_node_builder(response.id, |node| {
            node.set_description(description);
        });
    }
}

/// The box drawn while loading, or with a blocked / failed message.
fn placeholder_frame(
    ui: &egui::Ui,
    rect: egui::Rect,
    spec: &ImageSpec<'_>,
    problem: Option<&ImageState>,
) {
    if !ui.is_rect_visible(rect) {
        return;
    }
    let visuals = ui.visuals();
    let radius = if spec.circular {
        rect.width().min(rect.height()) / 2.0
    } else {
        spec.corner_radius
    };
    let painter = ui.painter();
    painter.rect_filled(rect, radius, visuals.faint_bg_color);
    let Some(problem) = problem else {
        return;
    };
    let colour = match problem {
        ImageState::Blocked => visuals.warn_fg_color,
        _ => visuals.weak_text_color(),
    };
    painter.rect_stroke(
        rect,
        radius,
        egui::Stroke::new(1.0, colour),
        egui::StrokeKind::Inside,
    );
    // A glyph always; a word too when there is room for it.
    let glyph = match problem {
        ImageState::Blocked => '\u{f022}', // hide_image
        _ => '\u{e3ad}',                   // broken_image
    };
    let small = rect.width() < 96.0 || rect.height() < 40.0;
    let side = rect.height().min(rect.width()).min(24.0) * if small { 0.8 } else { 1.0 };
    if super::icons::icon_font_ready(ui.ctx()) && side >= 8.0 {
        let at = if small {
            rect.center()
        } else {
            rect.center() - egui::vec2(0.0, side * 0.6)
        };
        painter.text(
            at,
            egui::Align2::CENTER_CENTER,
            glyph,
            egui::FontId::new(side, super::icons::icon_family()),
            colour,
        );
    }
    if !small {
        let word = match problem {
            ImageState::Blocked => "Image blocked",
            _ => "Image unavailable",
        };
        painter.text(
            rect.center() + egui::vec2(0.0, side * 0.6),
            egui::Align2::CENTER_CENTER,
            word,
            egui::TextStyle::Small.resolve(ui.style()),
            colour,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(w: f32, h: f32) -> egui::Rect {
        egui::Rect::from_min_size(egui::pos2(0.0, 0.0), egui::vec2(w, h))
    }

    #[test]
    fn contain_letterboxes_a_wide_image_inside_a_square_box() {
        let (dest, uv) = Fit::Contain.place(frame(100.0, 100.0), egui::vec2(200.0, 100.0));
        assert_eq!(dest.size(), egui::vec2(100.0, 50.0));
        assert_eq!(dest.center(), egui::pos2(50.0, 50.0));
        assert_eq!(uv.size(), egui::vec2(1.0, 1.0));
    }

    #[test]
    fn cover_fills_the_box_and_crops_the_long_side() {
        let (dest, uv) = Fit::Cover.place(frame(100.0, 100.0), egui::vec2(200.0, 100.0));
        assert_eq!(dest, frame(100.0, 100.0));
        assert_eq!(uv.size(), egui::vec2(0.5, 1.0));
        assert_eq!(uv.center(), egui::pos2(0.5, 0.5));
    }

    #[test]
    fn fill_stretches_and_none_keeps_the_natural_size() {
        let (dest, _) = Fit::Fill.place(frame(100.0, 40.0), egui::vec2(10.0, 10.0));
        assert_eq!(dest, frame(100.0, 40.0));
        let (dest, uv) = Fit::None.place(frame(100.0, 40.0), egui::vec2(10.0, 10.0));
        assert_eq!(dest.size(), egui::vec2(10.0, 10.0));
        assert_eq!(uv.size(), egui::vec2(1.0, 1.0));
        let (dest, uv) = Fit::None.place(frame(100.0, 40.0), egui::vec2(200.0, 80.0));
        assert_eq!(dest.size(), egui::vec2(100.0, 40.0));
        assert_eq!(uv.size(), egui::vec2(0.5, 0.5));
    }

    #[test]
    fn scale_down_only_shrinks() {
        let small = Fit::ScaleDown.place(frame(100.0, 100.0), egui::vec2(10.0, 20.0));
        assert_eq!(small.0.size(), egui::vec2(10.0, 20.0));
        let big = Fit::ScaleDown.place(frame(100.0, 100.0), egui::vec2(400.0, 200.0));
        assert_eq!(big.0.size(), egui::vec2(100.0, 50.0));
    }

    #[test]
    fn degenerate_sizes_place_nothing_instead_of_dividing_by_zero() {
        for fit in [
            Fit::Contain,
            Fit::Cover,
            Fit::Fill,
            Fit::None,
            Fit::ScaleDown,
        ] {
            let (dest, _) = fit.place(frame(100.0, 100.0), egui::vec2(0.0, 10.0));
            assert_eq!(dest.area(), 0.0);
            let (dest, _) = fit.place(frame(0.0, 0.0), egui::vec2(10.0, 10.0));
            assert_eq!(dest.area(), 0.0);
        }
    }

    #[test]
    fn data_uris_decode_base64_and_reject_garbage() {
        let (bytes, mime) = decode_data_uri("data:image/png;base64,iVBORw0KGgo=").unwrap();
        assert_eq!(mime, "image/png");
        assert_eq!(&bytes[1..4], b"PNG");
        assert!(decode_data_uri("data:image/png;base64,!!!not base64!!!").is_err());
        assert!(decode_data_uri("data:text/html,<script>alert(1)</script>").is_err());
        assert!(decode_data_uri("data:").is_err());
        let svg = decode_data_uri("data:image/svg+xml,%3Csvg%2F%3E").unwrap();
        assert_eq!(svg, (b"<svg/>".to_vec(), "image/svg+xml".to_owned()));
    }

    #[test]
    fn fit_parses_both_spellings_of_scale_down() {
        assert_eq!(Fit::parse("scaleDown"), Some(Fit::ScaleDown));
        assert_eq!(Fit::parse("scale-down"), Some(Fit::ScaleDown));
        assert_eq!(Fit::parse("stretch"), None);
    }
}
