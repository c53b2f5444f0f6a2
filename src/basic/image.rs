//! `Image`: `fit` and `variant` sizes, loaded asynchronously through egui's loaders, with a
//! placeholder while loading and a visible state when the [`UrlPolicy`] refuses the URL
//! or loading fails. A picture the image loader refuses (over the size caps, an SVG
//! `<image href>` outside itself) or cannot decode is reported to the agent once per URL
//! (`LIMIT_EXCEEDED` or `VALIDATION_FAILED`); see [`crate::render::images`].
//!
//! [`UrlPolicy`]: crate::url_policy::UrlPolicy

use crate::render::ComponentContext;
use crate::render::catalog::ComponentRenderer;
use crate::render::images::{BoxSize, Fit, ImageSpec, ImageState, image_ui, load_error};

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
        let (response, state) = image_ui(ui, &cx.options().url_policy, &spec);
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
