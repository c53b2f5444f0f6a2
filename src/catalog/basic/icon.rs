//! `Icon`.

use crate::catalog::ComponentRenderer;
use crate::render::ComponentContext;

/// The `Icon` component.
pub struct Icon;

impl ComponentRenderer for Icon {
    fn ui(&self, ui: &mut egui::Ui, cx: &mut ComponentContext<'_, '_>) -> egui::Response {
        let name = cx.string("name");
        ui.label(format!("[{name}]"))
    }
}
