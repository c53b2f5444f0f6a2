//! `Tabs`.

use crate::catalog::ComponentRenderer;
use crate::render::ComponentContext;

/// The `Tabs` component.
pub struct Tabs;

impl ComponentRenderer for Tabs {
    fn ui(&self, ui: &mut egui::Ui, cx: &mut ComponentContext<'_, '_>) -> egui::Response {
        let children = cx.children();
        ui.vertical(|ui| {
            if let Some(first) = children.first() {
                cx.child_ui(ui, first);
            }
        })
        .response
    }
}
