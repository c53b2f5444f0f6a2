//! `CheckBox`.

use serde_json::Value;

use crate::catalog::ComponentRenderer;
use crate::render::ComponentContext;

/// The `CheckBox` component.
pub struct CheckBox;

impl ComponentRenderer for CheckBox {
    fn ui(&self, ui: &mut egui::Ui, cx: &mut ComponentContext<'_, '_>) -> egui::Response {
        let label = cx.string("label");
        let mut v = cx.bool("value", false);
        let r = ui.checkbox(&mut v, label);
        if r.changed() {
            cx.write(ui, "value", Value::Bool(v));
        }
        r
    }
}
