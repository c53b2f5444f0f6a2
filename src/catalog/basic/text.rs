//! `Text`: variants h1–h5 / caption / body.

use crate::catalog::ComponentRenderer;
use crate::render::ComponentContext;

/// The `Text` component.
pub struct Text;

impl ComponentRenderer for Text {
    fn ui(&self, ui: &mut egui::Ui, cx: &mut ComponentContext<'_, '_>) -> egui::Response {
        let text = cx.string("text");
        let base = ui.style().text_styles[&egui::TextStyle::Body].size;
        let rich = match cx.literal_str("variant").unwrap_or("body") {
            "h1" => egui::RichText::new(text).size(base * 2.5).strong(),
            "h2" => egui::RichText::new(text).size(base * 2.0).strong(),
            "h3" => egui::RichText::new(text).size(base * 1.75).strong(),
            "h4" => egui::RichText::new(text).size(base * 1.5).strong(),
            "h5" => egui::RichText::new(text).size(base * 1.25).strong(),
            "caption" => egui::RichText::new(text).size(base * 0.8).weak(),
            _ => egui::RichText::new(text),
        };
        ui.add(egui::Label::new(rich).wrap())
    }
}
