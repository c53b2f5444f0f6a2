//! `TextField`.

use serde_json::Value;

use crate::catalog::ComponentRenderer;
use crate::render::ComponentContext;

/// The `TextField` component.
pub struct TextField;

impl ComponentRenderer for TextField {
    fn ui(&self, ui: &mut egui::Ui, cx: &mut ComponentContext<'_, '_>) -> egui::Response {
        let label = cx.string("label");
        let mut text = cx.string("value");
        let inner = ui.vertical(|ui| {
            let l = ui.label(&label);
            let r = ui.text_edit_singleline(&mut text).labelled_by(l.id);
            if r.changed() {
                cx.write(ui, "value", Value::String(text.clone()));
            }
            if let Some(f) = cx.first_check_failure() {
                ui.colored_label(ui.visuals().error_fg_color, f);
            }
            r
        });
        inner.inner
    }
}
