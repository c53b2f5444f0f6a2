//! `Button`.

use crate::catalog::ComponentRenderer;
use crate::render::ComponentContext;

/// The `Button` component.
pub struct Button;

impl ComponentRenderer for Button {
    fn ui(&self, ui: &mut egui::Ui, cx: &mut ComponentContext<'_, '_>) -> egui::Response {
        let failure = cx.first_check_failure();
        let label = cx
            .child_id("child")
            .and_then(|c| cx.surface().component(c))
            .map(|c| c.props.get("text").cloned().unwrap_or_default())
            .map(|v| cx.with_eval(|e| crate::eval::coerce::to_display_string(&e.resolve(&v))))
            .unwrap_or_default();
        let r = ui.add_enabled(failure.is_none(), egui::Button::new(label));
        if r.clicked() {
            cx.fire_action();
        }
        if let Some(f) = failure {
            ui.colored_label(ui.visuals().error_fg_color, f);
        }
        r
    }
}
