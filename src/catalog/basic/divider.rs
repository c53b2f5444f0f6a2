//! `Divider`.

use crate::catalog::ComponentRenderer;
use crate::render::ComponentContext;

/// The `Divider` component.
pub struct Divider;

impl ComponentRenderer for Divider {
    fn ui(&self, ui: &mut egui::Ui, cx: &mut ComponentContext<'_, '_>) -> egui::Response {
        if cx.literal_str("axis") == Some("vertical") {
            ui.add(egui::Separator::default().vertical())
        } else {
            ui.add(egui::Separator::default().horizontal())
        }
    }
}
