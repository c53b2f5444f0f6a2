//! `Image`.

use crate::catalog::ComponentRenderer;
use crate::render::ComponentContext;

/// The `Image` component.
pub struct Image;

impl ComponentRenderer for Image {
    fn ui(&self, ui: &mut egui::Ui, cx: &mut ComponentContext<'_, '_>) -> egui::Response {
        let url = cx.string("url");
        let size = match cx.literal_str("variant").unwrap_or("mediumFeature") {
            "icon" => egui::vec2(24.0, 24.0),
            "avatar" => egui::vec2(40.0, 40.0),
            "smallFeature" => egui::vec2(100.0, 100.0),
            "largeFeature" => egui::vec2(ui.available_width(), 400.0),
            "header" => egui::vec2(ui.available_width(), 200.0),
            _ => egui::vec2(ui.available_width().min(300.0), 200.0),
        };
        if !cx.options().image_policy.allows(&url) {
            let (rect, r) = ui.allocate_exact_size(size, egui::Sense::hover());
            ui.painter().rect_stroke(
                rect,
                4.0,
                ui.visuals().widgets.noninteractive.bg_stroke,
                egui::StrokeKind::Inside,
            );
            return r;
        }
        ui.add(egui::Image::new(url).fit_to_exact_size(size))
    }
}
