//! `Card`: one child in an outlined, rounded box.

use egui::{Rect, Shape, StrokeKind, UiBuilder, Vec2, vec2};

use crate::catalog::ComponentRenderer;
use crate::render::ComponentContext;
use crate::render::layout::{Incoming, Slot, fills_width, sanitize_rect};

/// Space between the outline and the child (implementation guide: 16).
pub(crate) const CARD_PADDING: f32 = 16.0;
/// Corner radius (guide: 8–12).
pub(crate) const CARD_RADIUS: f32 = 10.0;
/// Space around the outline. Cards are "outlined controls" in the guide's leaf-margin
/// strategy: they carry their own margin, since Row and Column add no gaps.
pub(crate) const CARD_MARGIN: f32 = 4.0;

/// The `Card` component: its `child` inside a 1px outline with rounded corners and a
/// transparent fill (the guide's recommendation, so nested cards stay distinct). It fills
/// the width (and, stretched in a row, the height) its parent gives it, else wraps its
/// content.
pub struct Card;

impl ComponentRenderer for Card {
    fn ui(&self, ui: &mut egui::Ui, cx: &mut ComponentContext<'_, '_>) -> egui::Response {
        let incoming = Incoming::of(ui);
        let available = sanitize_rect(ui.available_rect_before_wrap());
        let origin = available.min;
        let inset = CARD_MARGIN + CARD_PADDING;
        let chrome = Vec2::splat(2.0 * inset);
        let child_extent = incoming.extent.shrink(chrome);
        let inner_max = vec2(
            child_extent.width.unwrap_or(available.width() - chrome.x),
            child_extent.height.unwrap_or(available.height() - chrome.y),
        )
        .max(Vec2::ZERO);
        let inner_rect = Rect::from_min_size(origin + Vec2::splat(inset), inner_max);
        let child = cx.child_id("child").map(str::to_owned);
        let key = cx.widget_id().with("a2ui-card-child");

        let inner = ui.scope_builder(UiBuilder::new().max_rect(available), |ui| {
            // Reserve the outline's place in the paint order so it sits behind the child.
            let outline = ui.painter().add(Shape::Noop);
            let natural = match &child {
                Some(id) => {
                    Slot::new(key, inner_rect, child_extent)
                        .fill_width(child_extent.width.is_some() && fills_width(cx, id))
                        .show(ui, |ui| cx.child_id_ui(ui, id))
                        .natural
                }
                None => Vec2::ZERO,
            };
            let size = vec2(
                incoming.extent.width.unwrap_or(natural.x + chrome.x),
                incoming
                    .extent
                    .height
                    .map_or(natural.y + chrome.y, |h| h.max(natural.y + chrome.y)),
            );
            let rect = Rect::from_min_size(origin, size);
            ui.expand_to_include_rect(rect);
            let visuals = ui.visuals();
            let stroke = visuals.widgets.noninteractive.bg_stroke;
            ui.painter().set(
                outline,
                egui::epaint::RectShape::new(
                    rect.shrink(CARD_MARGIN),
                    CARD_RADIUS,
                    egui::Color32::TRANSPARENT,
                    egui::Stroke::new(1.0, stroke.color),
                    StrokeKind::Inside,
                ),
            );
            natural + chrome
        });
        incoming.report(ui, inner.inner);
        inner.response
    }
}
