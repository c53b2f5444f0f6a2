//! `Modal`.

use crate::catalog::ComponentRenderer;
use crate::render::ComponentContext;

/// The `Modal` component.
pub struct Modal;

impl ComponentRenderer for Modal {
    fn ui(&self, ui: &mut egui::Ui, cx: &mut ComponentContext<'_, '_>) -> egui::Response {
        match cx.child_id("trigger").map(str::to_owned) {
            Some(t) => cx.child_id_ui(ui, &t),
            None => ui.label(""),
        }
    }
}
