//! `DateTimeInput`.

use serde_json::Value;

use crate::catalog::ComponentRenderer;
use crate::render::ComponentContext;

/// The `DateTimeInput` component.
pub struct DateTimeInput;

impl ComponentRenderer for DateTimeInput {
    fn ui(&self, ui: &mut egui::Ui, cx: &mut ComponentContext<'_, '_>) -> egui::Response {
        let mut text = cx.string("value");
        let r = ui.text_edit_singleline(&mut text);
        if r.changed() {
            cx.write(ui, "value", Value::String(text));
        }
        r
    }
}
