//! `Modal`: a trigger that opens a dialog with the content.

use egui::{Align, Layout, Rect, Sense, Vec2, vec2};

use super::row_column::fills_width;
use crate::catalog::ComponentRenderer;
use crate::catalog::sanitize_rect;
use crate::catalog::{Extent, Incoming, Slot};
use crate::render::ComponentContext;

/// The dialog's width at most; narrower screens get their width less a margin.
const DIALOG_WIDTH: f32 = 480.0;
/// Space kept between the dialog and the screen edges.
const SCREEN_MARGIN: f32 = 24.0;

/// The `Modal` component: only `trigger` is drawn in place. Clicking it (a Button trigger's
/// own click, or a click anywhere on any other trigger) opens a centred dialog over a
/// dimmed backdrop with the `content` child and a Close button; Escape and a click on the
/// backdrop close it too. The open flag is widget state keyed by the node.
pub struct Modal;

impl ComponentRenderer for Modal {
    fn ui(&self, ui: &mut egui::Ui, cx: &mut ComponentContext<'_, '_>) -> egui::Response {
        let incoming = Incoming::of(ui, cx);
        let open_key = cx.widget_id().with("a2ui-modal-open");
        let was_open = ui.data(|d| d.get_temp::<bool>(open_key)).unwrap_or(false);
        let mut open = was_open;

        // The trigger stands where the Modal stands: it gets the Modal's own extent and the
        // Modal reports the trigger's natural size as its own.
        let available = sanitize_rect(ui.available_rect_before_wrap());
        let trigger = cx.child_id("trigger").map(str::to_owned);
        let (response, natural) = match trigger {
            Some(id) => {
                let placed = Slot::new(
                    cx.widget_id().with("a2ui-modal-trigger"),
                    available,
                    incoming.extent,
                )
                .fill_width(incoming.extent.width.is_some() && fills_width(cx, &id))
                // Click without focus: a focusable container would be a keyboard stop with no
                // name. A Button trigger is focusable itself.
                .sense(Sense::CLICK)
                .show(ui, cx, |ui, cx| cx.child_id_ui(ui, &id));
                let slot = placed.slot.unwrap_or_else(|| placed.response.clone());
                if placed.response.clicked() || slot.clicked() {
                    open = true;
                }
                let size = vec2(
                    incoming.extent.width.unwrap_or(placed.natural.x),
                    incoming
                        .extent
                        .height
                        .map_or(placed.natural.y, |h| h.max(placed.natural.y)),
                );
                ui.advance_cursor_after_rect(Rect::from_min_size(available.min, size));
                // What the eye takes as the Modal is its trigger, as in the web renderer.
                cx.set_geometry_box(Rect::from_min_size(available.min, placed.natural));
                let response = if placed.response.sense.senses_click() {
                    placed.response
                } else {
                    slot
                };
                (response, placed.natural)
            }
            // Without a trigger the dialog can never open: draw nothing.
            None => (ui.allocate_response(Vec2::ZERO, Sense::hover()), Vec2::ZERO),
        };
        incoming.report(cx, natural);

        if open {
            let screen = ui.ctx().content_rect();
            let width = DIALOG_WIDTH
                .min(screen.width() - 2.0 * SCREEN_MARGIN)
                .max(0.0);
            let content = cx.child_id("content").map(str::to_owned);
            let content_key = cx.widget_id().with("a2ui-modal-content");
            let origin = cx.origin().cloned();
            let shown = egui::Modal::new(cx.widget_id().with("a2ui-modal")).show(ui.ctx(), |ui| {
                ui.set_width(width);
                // The dialog covers the host's window: say whose it is, as the host knows.
                crate::catalog::modal_attribution(ui, origin.as_ref());
                if let Some(id) = &content {
                    let top_left = ui.available_rect_before_wrap().min;
                    let rect = Rect::from_min_size(
                        top_left,
                        vec2(width, (screen.height() - 2.0 * SCREEN_MARGIN).max(0.0)),
                    );
                    let extent = Extent {
                        width: Some(width),
                        height: None,
                    };
                    let placed = Slot::new(content_key, rect, extent)
                        .fill_width(fills_width(cx, id))
                        .show(ui, cx, |ui, cx| cx.child_id_ui(ui, id));
                    ui.advance_cursor_after_rect(Rect::from_min_size(
                        top_left,
                        vec2(width, placed.natural.y),
                    ));
                }
                ui.with_layout(Layout::right_to_left(Align::Center), |ui| {
                    let close = ui.button("Close");
                    if !was_open {
                        // Keyboard users land in the dialog, on its way out.
                        close.request_focus();
                    }
                    close.clicked()
                })
                .inner
            });
            // `should_close`: Escape (when this is the top modal) or a click on the backdrop.
            if shown.inner || shown.should_close() {
                open = false;
                // Give focus back to where the dialog was opened from.
                if response.sense.is_focusable() {
                    response.request_focus();
                }
            }
        }
        if open != was_open {
            ui.data_mut(|d| d.insert_temp(open_key, open));
        }
        response
    }
}
