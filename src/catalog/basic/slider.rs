//! `Slider`.

use serde_json::Value;

use crate::catalog::ComponentRenderer;
use crate::render::ComponentContext;

/// The `Slider` component.
pub struct Slider;

impl ComponentRenderer for Slider {
    fn ui(&self, ui: &mut egui::Ui, cx: &mut ComponentContext<'_, '_>) -> egui::Response {
        let min = cx.number("min").unwrap_or(0.0);
        let max = cx.number("max").unwrap_or(100.0);
        let mut v = cx.number("value").unwrap_or(min);
        let label = cx.string("label");
        let r = ui.add(egui::Slider::new(&mut v, min..=max).text(label));
        if r.changed()
            && let Some(n) = serde_json::Number::from_f64(v)
        {
            cx.write(ui, "value", Value::Number(n));
        }
        r
    }
}
