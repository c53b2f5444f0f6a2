//! `Card`.

use crate::catalog::ComponentRenderer;
use crate::render::ComponentContext;

/// The `Card` component.
pub struct Card;

impl ComponentRenderer for Card {
    fn ui(&self, ui: &mut egui::Ui, cx: &mut ComponentContext<'_, '_>) -> egui::Response {
        egui::Frame::group(ui.style())
            .show(ui, |ui| {
                for child in cx.children() {
                    cx.child_ui(ui, &child);
                }
            })
            .response
    }
}
