//! `ChoicePicker`.

use serde_json::Value;

use crate::catalog::ComponentRenderer;
use crate::render::ComponentContext;

/// The `ChoicePicker` component.
pub struct ChoicePicker;

impl ComponentRenderer for ChoicePicker {
    fn ui(&self, ui: &mut egui::Ui, cx: &mut ComponentContext<'_, '_>) -> egui::Response {
        let selected = cx.string_list("value");
        let options = cx.value_deep("options");
        ui.vertical(|ui| {
            if let Some(l) = cx.opt_string("label") {
                ui.label(l);
            }
            for o in options.as_array().into_iter().flatten() {
                let label =
                    crate::eval::coerce::to_display_string(o.get("label").unwrap_or(&Value::Null));
                let value =
                    crate::eval::coerce::to_display_string(o.get("value").unwrap_or(&Value::Null));
                let mut on = selected.contains(&value);
                if ui.checkbox(&mut on, label).changed() {
                    let mut next: Vec<Value> = selected
                        .iter()
                        .filter(|s| **s != value)
                        .map(|s| Value::String(s.clone()))
                        .collect();
                    if on {
                        next.push(Value::String(value.clone()));
                    }
                    cx.write(ui, "value", Value::Array(next));
                }
            }
        })
        .response
    }
}
