//! `Image`: `fit` and `variant` sizes, loaded asynchronously through egui's loaders, with a
//! placeholder while loading and a visible state when the [`UrlPolicy`] refuses the URL
//! or loading fails. A picture the image loader refuses (over the size caps, an SVG
//! `<image href>` outside itself) or cannot decode is reported to the agent once per URL
//! (`LIMIT_EXCEEDED` or `VALIDATION_FAILED`); see [`crate::render::images`].
//!
//! A URL computed from the data model (a binding or a function call) goes through the
//! policy's computed-media rule and settles before it is fetched ([`media_image_ui`]).
//!
//! [`UrlPolicy`]: crate::url_policy::UrlPolicy

use std::hash::{Hash as _, Hasher as _};
use std::sync::OnceLock;
use std::time::Duration;

use crate::catalog::ComponentRenderer;
use crate::catalog::{BoxSize, Fit, ImageSpec, ImageState, image_ui, load_error};
use crate::error::A2uiError;
use crate::render::ComponentContext;
use crate::url_policy::UrlPolicy;

/// Whether property `name` may carry what the user typed (see
/// [`ComponentContext::may_carry_user_input`]): a function call, or a binding to a path the
/// user wrote. A binding to data only the agent wrote is the agent's own word, as a literal
/// is (the official examples bind `Image.url` so).
pub(crate) fn is_computed(cx: &ComponentContext<'_, '_>, name: &str) -> bool {
    cx.may_carry_user_input(name)
}

/// A policy that refuses every media source: what a refused computed URL is drawn with
/// (the image's blocked state, nothing requested).
fn refuse_all() -> &'static UrlPolicy {
    static POLICY: OnceLock<UrlPolicy> = OnceLock::new();
    POLICY.get_or_init(|| UrlPolicy::default().with_media_schemes::<&str>([]))
}

/// The error reported to the agent for a refused computed media URL. It names neither the
/// URL nor its host: both may hold what the user typed.
pub(crate) fn computed_media_error(name: &str) -> A2uiError {
    A2uiError::Expression {
        expression: name.to_owned(),
        message: "a media URL computed from the data model was refused: such URLs load only \
                  from hosts the host app allowed for computed media"
            .to_owned(),
    }
}

/// Whether the URL a node's property `name` computes has stayed the same for `settle` (in
/// the frame clock). A changed URL restarts the wait and asks for a repaint once it ends;
/// so typing into a field the URL is built from fetches nothing until typing pauses.
pub(crate) fn settled(ui: &egui::Ui, id: egui::Id, url: &str, settle: Duration) -> bool {
    if settle.is_zero() {
        return true;
    }
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    url.hash(&mut hasher);
    let hash = hasher.finish();
    let now = ui.input(|i| i.time);
    let since = ui.data_mut(|d| {
        let entry = d.get_temp_mut_or_insert_with(id, || (hash, now));
        if entry.0 != hash {
            *entry = (hash, now);
        }
        entry.1
    });
    let left = settle.as_secs_f64() - (now - since);
    if left <= 0.0 {
        return true;
    }
    ui.ctx()
        .request_repaint_after(Duration::from_secs_f64(left.min(3600.0)));
    false
}

/// The loading placeholder of an image whose computed URL is still settling (nothing
/// requested yet).
fn settling_ui(ui: &mut egui::Ui, spec: &ImageSpec<'_>) -> (egui::Response, ImageState) {
    let size = match spec.size {
        BoxSize::Fixed(s) => s,
        BoxSize::Flexible {
            width,
            placeholder_height,
            ..
        } => egui::vec2(width, placeholder_height),
    };
    let (rect, response) = ui.allocate_exact_size(size, egui::Sense::hover());
    if ui.is_rect_visible(rect) {
        ui.painter()
            .rect_filled(rect, spec.corner_radius, ui.visuals().faint_bg_color);
    }
    let state = ImageState::Loading;
    crate::catalog::describe_image(ui, &response, spec, &state);
    (response, state)
}

/// Draw a media image whose URL is property `name` of the node (`Image.url`,
/// `Video.posterUrl`). A literal URL is drawn under the URL policy as before. A URL
/// computed from the data model must pass [`UrlPolicy::check_computed_media`] (refused:
/// the blocked state, and one error to the agent) and must have stayed the same for the
/// policy's settle time before it is fetched.
pub(crate) fn media_image_ui(
    ui: &mut egui::Ui,
    cx: &mut ComponentContext<'_, '_>,
    name: &str,
    spec: &ImageSpec<'_>,
) -> (egui::Response, ImageState) {
    if !is_computed(cx, name) || spec.url.trim().is_empty() {
        return image_ui(ui, &cx.options().url_policy, spec);
    }
    let policy = &cx.options().url_policy;
    if policy.check_computed_media(spec.url).is_err() {
        cx.report_once(
            &format!("computed-media:{name}"),
            computed_media_error(name),
        );
        return image_ui(ui, refuse_all(), spec);
    }
    let id = cx.widget_id().with(("a2ui-media-settle", name));
    if settled(ui, id, spec.url, policy.computed_media_settle()) {
        image_ui(ui, &cx.options().url_policy, spec)
    } else {
        settling_ui(ui, spec)
    }
}

/// The `Image` component.
pub struct Image;

/// The box of a variant (`usageHint` in v0.8) in `available` width, and whether it is a
/// circle.
fn variant_box(variant: &str, available: f32) -> (BoxSize, bool) {
    let available = if available.is_finite() {
        available.max(1.0)
    } else {
        300.0
    };
    match variant {
        "icon" => (BoxSize::Fixed(egui::vec2(24.0, 24.0)), false),
        "avatar" => (BoxSize::Fixed(egui::vec2(40.0, 40.0)), true),
        "smallFeature" => (BoxSize::Fixed(egui::vec2(100.0, 100.0)), false),
        "largeFeature" => (
            BoxSize::Flexible {
                width: available,
                max_height: 400.0,
                placeholder_height: 240.0,
            },
            false,
        ),
        "header" => (BoxSize::Fixed(egui::vec2(available, 200.0)), false),
        // mediumFeature, the default.
        _ => (
            BoxSize::Flexible {
                width: available.min(300.0),
                max_height: 300.0,
                placeholder_height: 200.0,
            },
            false,
        ),
    }
}

impl ComponentRenderer for Image {
    fn ui(&self, ui: &mut egui::Ui, cx: &mut ComponentContext<'_, '_>) -> egui::Response {
        let url = cx.string("url");
        let alt = cx.string("description");
        let variant = cx.literal_str("variant").unwrap_or("mediumFeature");
        let (size, circular) = variant_box(variant, ui.available_width());
        // The guide crops headers and avatars; otherwise the spec's default is `fill`.
        let default_fit = match variant {
            "header" | "avatar" => Fit::Cover,
            _ => Fit::Fill,
        };
        let fit = cx
            .literal_str("fit")
            .and_then(Fit::parse)
            .unwrap_or(default_fit);
        let spec = ImageSpec {
            url: url.trim(),
            alt: &alt,
            size,
            fit,
            circular,
            corner_radius: if variant == "icon" { 2.0 } else { 6.0 },
        };
        let (response, state) = media_image_ui(ui, cx, "url", &spec);
        // A refused or undecodable picture is the agent's to fix: tell it once per URL
        // (the key is a hash, so a long `data:` URL is not kept).
        if matches!(state, ImageState::Failed(_))
            && let Some(error) = load_error(ui.ctx(), spec.url)
        {
            let mut h = std::hash::DefaultHasher::new();
            std::hash::Hash::hash(spec.url, &mut h);
            let key = format!("image:{:016x}", std::hash::Hasher::finish(&h));
            let id = cx.id().to_owned();
            cx.report_once(&key, error.to_a2ui(&id));
        }
        response
    }
}
