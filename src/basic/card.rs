//! `Card`: one child in a bordered, rounded, slightly raised box.

use egui::{Rect, Shape, StrokeKind, UiBuilder, Vec2, vec2};

use super::row_column::fills_width;
use crate::catalog::ComponentRenderer;
use crate::catalog::sanitize_rect;
use crate::catalog::{Incoming, Slot};
use crate::render::ComponentContext;

/// The `Card` component: its `child` inside a frame with the reference's look (see
/// [`Style`](crate::render::Style): 8 px margin, 1 px border, 8 px padding, 4 px radius and
/// a soft shadow), filled with the palette's surface colour and outlined in its border
/// colour. It fills the width (and, stretched in a row, the height) its parent gives it,
/// else wraps its content.
pub struct Card;

impl ComponentRenderer for Card {
    fn ui(&self, ui: &mut egui::Ui, cx: &mut ComponentContext<'_, '_>) -> egui::Response {
        let style = cx.style().clone();
        let palette = cx.palette(ui);
        let incoming = Incoming::of(ui, cx);
        let available = sanitize_rect(ui.available_rect_before_wrap());
        let origin = available.min;
        let inset = style.card_margin + style.card_border + style.card_padding;
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
            // Reserve the frame's place in the paint order so it sits behind the child.
            let shadow = ui.painter().add(Shape::Noop);
            let outline = ui.painter().add(Shape::Noop);
            let natural = match &child {
                Some(id) => {
                    Slot::new(key, inner_rect, child_extent)
                        .fill_width(child_extent.width.is_some() && fills_width(cx, id))
                        .show(ui, cx, |ui, cx| cx.child_id_ui(ui, id))
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
            let rect = egui::emath::GuiRounding::round_to_pixels(
                Rect::from_min_size(origin, size),
                ui.pixels_per_point(),
            );
            ui.expand_to_include_rect(rect);
            let frame = rect.shrink(style.card_margin);
            let visuals = ui.visuals();
            let (offset, blur, opacity) = style.card_shadow;
            let shadow_alpha = if visuals.dark_mode {
                opacity * 2.0
            } else {
                opacity
            };
            ui.painter().set(
                shadow,
                egui::epaint::Shadow {
                    offset: [0, offset.round().clamp(-64.0, 64.0) as i8],
                    blur: blur.round().clamp(0.0, 255.0) as u8,
                    spread: 0,
                    color: egui::Color32::from_black_alpha(
                        (shadow_alpha.clamp(0.0, 1.0) * 255.0) as u8,
                    ),
                }
                .as_shape(frame, style.card_radius),
            );
            ui.painter().set(
                outline,
                egui::epaint::RectShape::new(
                    frame,
                    style.card_radius,
                    // `background: var(--a2ui-color-surface)`, `border: 1px solid
                    // var(--a2ui-color-border)`.
                    palette.surface,
                    egui::Stroke::new(style.card_border, palette.border),
                    StrokeKind::Inside,
                ),
            );
            (natural + chrome, frame)
        });
        let (natural, frame) = inner.inner;
        cx.set_geometry_box(frame);
        incoming.report(cx, natural);
        inner.response
    }
}
