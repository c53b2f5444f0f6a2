//! Margins and a plain vertical group for leaf components, without the extra `Ui` and hover
//! widget that `egui::Frame` and `ui.vertical` would add.

use egui::{Align, Layout, Rect, Ui, UiBuilder, Vec2};

use crate::catalog::bounded;

/// `ui.vertical(add)`, without the nested `Ui` when `ui` is already a fresh top-down one
/// (a component's own `Ui` in a flex slot): returns what `add` returned and the rectangle
/// it drew in.
pub(crate) fn vertical<R>(ui: &mut Ui, add: impl FnOnce(&mut Ui) -> R) -> (R, Rect) {
    if *ui.layout() == Layout::top_down(Align::Min) && ui.min_rect().size() == Vec2::ZERO {
        let inner = add(ui);
        (inner, ui.min_rect())
    } else {
        let r = ui.vertical(add);
        (r.inner, r.response.rect)
    }
}

/// `egui::Frame::new().outer_margin(margin).show(ui, add)` without the frame's own hover
/// widget (an invisible frame paints nothing and senses nothing): the content in a child
/// `Ui` inside `margin`, the outer rectangle allocated in `ui`. Returns what `add` returned
/// and the outer rectangle.
pub(crate) fn with_margin<R>(
    ui: &mut Ui,
    margin: f32,
    add: impl FnOnce(&mut Ui) -> R,
) -> (R, Rect) {
    margin_ui(ui, margin, None, add)
}

/// [`with_margin`] around one row of `height`: `add` draws left to right into it, centred
/// across, as in `ui.horizontal` with that minimum height, without the second `Ui`.
pub(crate) fn with_margin_row<R>(
    ui: &mut Ui,
    margin: f32,
    height: f32,
    add: impl FnOnce(&mut Ui) -> R,
) -> (R, Rect) {
    margin_ui(ui, margin, Some(height), add)
}

fn margin_ui<R>(
    ui: &mut Ui,
    margin: f32,
    row: Option<f32>,
    add: impl FnOnce(&mut Ui) -> R,
) -> (R, Rect) {
    let margin = egui::epaint::MarginF32::from(egui::Margin::from(margin));
    let mut max = ui.available_rect_before_wrap() - margin;
    max.max.x = max.max.x.max(max.min.x);
    max.max.y = max.max.y.max(max.min.y);
    let mut builder = UiBuilder::new()
        .ui_stack_info(egui::UiStackInfo::new(egui::UiKind::Frame))
        .max_rect(max);
    if let Some(height) = row {
        let height = bounded(height).max(ui.spacing().interact_size.y);
        max.max.y = max.min.y + height;
        builder = builder
            .max_rect(max)
            .layout(Layout::left_to_right(Align::Center));
    }
    let mut content = ui.new_child(builder);
    if let Some(height) = row {
        content.set_min_height(bounded(height));
    }
    let inner = add(&mut content);
    let outer = egui::emath::GuiRounding::round_ui(content.min_rect() + margin);
    drop(content);
    ui.advance_cursor_after_rect(outer);
    (inner, outer)
}
