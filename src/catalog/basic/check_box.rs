//! `CheckBox`: a labelled check box bound to a boolean, with the first failing check's
//! message under it.

use serde_json::Value;

use crate::catalog::ComponentRenderer;
use crate::render::ComponentContext;
use crate::render::input::set_accessible_name;

/// The `CheckBox` component.
pub struct CheckBox;

impl ComponentRenderer for CheckBox {
    fn ui(&self, ui: &mut egui::Ui, cx: &mut ComponentContext<'_, '_>) -> egui::Response {
        let label = cx.string("label");
        let mut checked = cx.bool("value", false);
        ui.vertical(|ui| {
            let response = ui.checkbox(&mut checked, &label);
            if label.trim().is_empty() {
                set_accessible_name(ui, response.id, &cx.fallback_name());
            }
            if response.changed() {
                cx.write(ui, "value", Value::Bool(checked));
            }
            let failure = cx.first_check_failure();
            cx.check_message_ui(ui, failure.as_deref());
            response
        })
        .inner
    }
}
