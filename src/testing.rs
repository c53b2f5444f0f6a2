//! Tools for testing a renderer against references: the headless geometry dump of a whole
//! document (the `a2ui-geometry/1` format of the official web renderer's reference renders),
//! and the `data:` image cache's size. The conformance dump (the reference core's state
//! format) is [`crate::conformance`].

use serde_json::{Map, Value, json};

use crate::render::catalog::Catalog;
use crate::render::{DrawnInstance, GeometryOptions, PAGE_PADDING, Renderer, RendererOptions};

pub use crate::render::data_cache_stats;

/// Boxes narrower or shorter than this (points) draw nothing (the reference's threshold).
const ZERO_SIZE: f32 = 0.25;

/// Round to the nearest 0.5, as the reference does.
fn half(v: f32) -> f64 {
    (f64::from(v) * 2.0).round() / 2.0
}

/// Whether a box draws nothing.
pub(crate) fn is_empty_box(rect: egui::Rect) -> bool {
    !(rect.width() >= ZERO_SIZE && rect.height() >= ZERO_SIZE)
}

/// Lay `document` (JSONL, a JSON array, `{"messages"}` or an example file) out headless with
/// the basic catalog and `options` (no GPU: egui's tessellated output is discarded), and
/// return the `a2ui-geometry/1` document of what was drawn.
pub fn layout_geometry(
    document: &[u8],
    options: &GeometryOptions,
    renderer_options: RendererOptions,
) -> Value {
    layout_geometry_with(document, options, renderer_options, Catalog::basic())
}

/// [`layout_geometry`] with `catalog` instead of the basic one (a host's catalog, the
/// extended one: what `a2ui_dump --catalog extended --geometry` runs).
pub fn layout_geometry_with(
    document: &[u8],
    options: &GeometryOptions,
    renderer_options: RendererOptions,
    catalog: Catalog,
) -> Value {
    let mut page = ReferencePage::with_catalog(document, options, renderer_options, catalog);
    let ctx = egui::Context::default();
    ReferencePage::install(&ctx);
    let screen = page.screen();
    for _ in 0..options.frames.max(1) {
        let mut input = egui::RawInput {
            screen_rect: Some(screen),
            ..Default::default()
        };
        // Lay out on a half-point grid: the reference keeps sub-pixel positions (a 27.6 px
        // heading line), which a 1x grid would round up line by line.
        if let Some(viewport) = input.viewports.get_mut(&egui::ViewportId::ROOT) {
            viewport.native_pixels_per_point = Some(options.pixels_per_point);
        }
        let mut output = ctx.run_ui(input, |ui| page.ui(ui));
        output.textures_delta.clear();
    }
    page.geometry()
}

/// A document drawn the way the official web renderer's reference page draws it: every
/// visible surface stacked in a column with [`PAGE_PADDING`] around and between them, on
/// the reference page's background (`--a2ui-color-background` of the palette the visuals
/// pick), offline (remote images fail and collapse). [`layout_geometry`] runs it headless;
/// `a2ui_dump --png` runs it in a renderer to paint the page.
pub struct ReferencePage {
    renderer: Renderer,
    options: GeometryOptions,
    errors: Vec<Value>,
    surfaces: Vec<(String, egui::Rect)>,
    drawn: Vec<DrawnInstance>,
}

impl ReferencePage {
    /// Apply `document` to a basic-catalog renderer with `renderer_options` (the surface
    /// header off, as the reference page has none); messages that fail are kept as the
    /// geometry document's `errors`.
    pub fn new(
        document: &[u8],
        options: &GeometryOptions,
        renderer_options: RendererOptions,
    ) -> Self {
        Self::with_catalog(document, options, renderer_options, Catalog::basic())
    }

    /// [`Self::new`] with `catalog` instead of the basic one.
    pub fn with_catalog(
        document: &[u8],
        options: &GeometryOptions,
        renderer_options: RendererOptions,
        catalog: Catalog,
    ) -> Self {
        let mut renderer = Renderer::new(catalog).with_options(renderer_options);
        renderer.options_mut().show_surface_header = false;
        let mut errors = Vec::new();
        let frames = crate::stream::parse_document(document, renderer.store().limits());
        for frame in frames {
            match frame {
                Ok(v) => {
                    if options.keep_deleted && v.get("deleteSurface").is_some() {
                        continue;
                    }
                    if let Err(e) = renderer.apply(v).into_result() {
                        errors.push(Value::String(e.to_string()));
                    }
                }
                Err(e) => errors.push(Value::String(e.to_string())),
            }
        }
        renderer.record_geometry(true);
        Self {
            renderer,
            options: options.clone(),
            errors,
            surfaces: Vec::new(),
            drawn: Vec::new(),
        }
    }

    /// Prepare `ctx` for drawing pages: the renderer's fonts and loaders, and a loader,
    /// tried first, that fails every remote URL (the reference page was offline, so a
    /// layout never touches the network even when the `http` feature is on).
    pub fn install(ctx: &egui::Context) {
        Renderer::install(ctx);
        ctx.add_bytes_loader(std::sync::Arc::new(OfflineLoader));
    }

    /// The page's viewport: `options.width` by `options.height` at the origin.
    pub fn screen(&self) -> egui::Rect {
        egui::Rect::from_min_size(
            egui::Pos2::ZERO,
            egui::vec2(self.options.width.max(1.0), self.options.height.max(1.0)),
        )
    }

    /// Draw one frame of the page into the viewport (wherever `ui` is: the page always
    /// covers [`screen`](Self::screen)), recording the boxes for [`geometry`](Self::geometry).
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        let screen = self.screen();
        let background = self
            .renderer
            .draw_state()
            .options()
            .style
            .palette(ui.visuals())
            .background;
        ui.painter()
            .with_clip_rect(screen)
            .rect_filled(screen, 0.0, background);
        let _ = self.renderer.take_geometry();
        self.surfaces.clear();
        let ids: Vec<String> = self
            .renderer
            .store()
            .surfaces()
            .filter(|s| s.is_visible())
            .map(|s| s.id.clone())
            .collect();
        let renderer = &mut self.renderer;
        let surfaces = &mut self.surfaces;
        ui.scope_builder(egui::UiBuilder::new().max_rect(screen), |ui| {
            ui.set_clip_rect(screen);
            egui::Frame::new()
                .inner_margin(PAGE_PADDING)
                .show(ui, |ui| {
                    egui::ScrollArea::vertical()
                        .auto_shrink([false, false])
                        .show(ui, |ui| {
                            ui.spacing_mut().item_spacing = egui::vec2(0.0, PAGE_PADDING);
                            for id in ids {
                                let top = ui.cursor().min;
                                let width = ui.available_width();
                                let inner = ui.vertical(|ui| {
                                    ui.set_width(width);
                                    let _ = renderer.surface_ui(&id, ui);
                                });
                                let rect = egui::Rect::from_min_size(
                                    top,
                                    egui::vec2(width, inner.response.rect.height()),
                                );
                                surfaces.push((id, rect));
                            }
                        });
                });
        });
        self.drawn = self.renderer.take_geometry();
        let _ = self.renderer.take_events();
    }

    /// The `a2ui-geometry/1` document of the last frame drawn.
    pub fn geometry(&self) -> Value {
        to_document(
            &self.options,
            &self.surfaces,
            &self.drawn,
            self.errors.clone(),
        )
    }
}

fn to_document(
    options: &GeometryOptions,
    surfaces: &[(String, egui::Rect)],
    drawn: &[DrawnInstance],
    errors: Vec<Value>,
) -> Value {
    let mut out = Map::new();
    for (sid, srect) in surfaces {
        let origin = srect.min;
        let mut components = Map::new();
        let mut types = Map::new();
        let mut paths: Map<String, Value> = Map::new();
        let mut hidden: Map<String, Value> = Map::new();
        let mut non_root_scope: std::collections::HashSet<String> = Default::default();
        let mut scopes: std::collections::HashMap<String, Vec<Value>> = Default::default();
        for d in drawn.iter().filter(|d| &d.surface == sid) {
            let list = components
                .entry(d.id.clone())
                .or_insert_with(|| Value::Array(Vec::new()));
            let index = list.as_array().map_or(0, Vec::len);
            let entry = match d.rect {
                Some(r) if !is_empty_box(r) => json!([
                    half(r.min.x - origin.x),
                    half(r.min.y - origin.y),
                    half(r.width()),
                    half(r.height())
                ]),
                other => {
                    let reason = json!({
                        "instance": index,
                        "reason": "zero-size",
                        "box": other.map(|r| json!([
                            half(r.min.x - origin.x),
                            half(r.min.y - origin.y),
                            half(r.width()),
                            half(r.height())
                        ])),
                    });
                    if let Value::Array(h) = hidden
                        .entry(d.id.clone())
                        .or_insert_with(|| Value::Array(Vec::new()))
                    {
                        h.push(reason);
                    }
                    Value::Null
                }
            };
            if let Value::Array(list) = list {
                list.push(entry);
            }
            types.insert(d.id.clone(), Value::String(d.component.clone()));
            if d.scope != "/" {
                non_root_scope.insert(d.id.clone());
            }
            scopes
                .entry(d.id.clone())
                .or_default()
                .push(Value::String(d.scope.clone()));
        }
        for id in non_root_scope {
            if let Some(s) = scopes.remove(&id) {
                paths.insert(id, Value::Array(s));
            }
        }
        out.insert(
            sid.clone(),
            json!({
                "origin": [half(origin.x), half(origin.y)],
                "size": [half(srect.width()), half(srect.height())],
                "components": components,
                "types": types,
                "paths": paths,
                "hidden": hidden,
            }),
        );
    }
    json!({
        "format": "a2ui-geometry/1",
        "renderer": concat!("egui_a2ui ", env!("CARGO_PKG_VERSION")),
        "fixture": options.fixture,
        "viewport": [half(options.width), half(options.height)],
        "surfaces": out,
        "unloaded": [],
        "errors": errors,
    })
}

/// A bytes loader, tried before any other, that fails every `http:`/`https:` URL.
struct OfflineLoader;

impl egui::load::BytesLoader for OfflineLoader {
    fn id(&self) -> &str {
        "egui_a2ui::geometry::OfflineLoader"
    }

    fn load(&self, _ctx: &egui::Context, uri: &str) -> egui::load::BytesLoadResult {
        let remote = uri
            .get(..5)
            .is_some_and(|p| p.eq_ignore_ascii_case("http:") || p.eq_ignore_ascii_case("https"));
        if remote {
            Err(egui::load::LoadError::Loading(
                "offline: remote images are not loaded".to_owned(),
            ))
        } else {
            Err(egui::load::LoadError::NotSupported)
        }
    }

    fn forget(&self, _uri: &str) {}

    fn forget_all(&self) {}

    fn byte_size(&self) -> usize {
        0
    }
}

/// Print a geometry document as the reference tool does: one object key per line, every
/// array on one line, so files diff well.
pub fn to_geometry_string(doc: &Value) -> String {
    let mut out = String::new();
    write_value(doc, 0, &mut out);
    out.push('\n');
    out
}

fn write_value(v: &Value, depth: usize, out: &mut String) {
    match v {
        Value::Object(map) if !map.is_empty() => {
            out.push_str("{\n");
            let n = map.len();
            for (i, (k, v)) in map.iter().enumerate() {
                out.push_str(&" ".repeat(depth + 1));
                out.push_str(&Value::String(k.clone()).to_string());
                out.push_str(": ");
                write_value(v, depth + 1, out);
                if i + 1 < n {
                    out.push(',');
                }
                out.push('\n');
            }
            out.push_str(&" ".repeat(depth));
            out.push('}');
        }
        // Arrays (and empty objects) on one line; numbers without a trailing `.0`.
        other => out.push_str(&compact(other)),
    }
}

fn compact(v: &Value) -> String {
    match v {
        Value::Number(n) => match n.as_f64() {
            Some(f) if f.fract() == 0.0 && f.abs() < 1e15 => format!("{}", f as i64),
            _ => n.to_string(),
        },
        Value::Array(a) => {
            let items: Vec<String> = a.iter().map(compact).collect();
            format!("[{}]", items.join(","))
        }
        Value::Object(m) => {
            let items: Vec<String> = m
                .iter()
                .map(|(k, v)| format!("{}:{}", Value::String(k.clone()), compact(v)))
                .collect();
            format!("{{{}}}", items.join(","))
        }
        other => other.to_string(),
    }
}
