//! `Button`: draws its real child subtree (a Text, an Icon, a Row of both...) inside a
//! clickable frame. Variants `default`, `primary` (the surface's primary colour with a
//! contrasting text colour) and `borderless`. Disabled while any check fails, with the first
//! failing check's message as its hover text and accessible description, or drawn beside it
//! ([`crate::render::ButtonCheckMessage`]).

use egui::{Color32, Sense, Shape, Stroke, StrokeKind};

use crate::catalog::ComponentRenderer;
use crate::catalog::humanize;
use crate::render::{ButtonCheckMessage, ComponentContext};

/// The `Button` component.
pub struct Button;

/// The style hint of a button.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Variant {
    Default,
    Primary,
    Borderless,
}

impl Variant {
    fn parse(s: &str) -> Self {
        match s {
            "primary" => Self::Primary,
            "borderless" => Self::Borderless,
            _ => Self::Default,
        }
    }
}

/// How many widgets the layer has registered so far this pass.
fn widget_count(ctx: &egui::Context, layer: egui::LayerId) -> usize {
    ctx.viewport(|vp| vp.this_pass.widgets.get_layer(layer).count())
}

/// Mark the text labels drawn inside the button (widgets registered after `first`) as
/// labelling it: assistive technology (and kittest queries) then treat them as the
/// button's name instead of separate text. The button keeps its own label.
fn label_by_inner_text(ctx: &egui::Context, layer: egui::LayerId, first: usize, button: egui::Id) {
    let inner: Vec<egui::Id> = ctx.viewport(|vp| {
        vp.this_pass
            .widgets
            .get_layer(layer)
            .skip(first)
            .map(|w| w.id)
            .filter(|id| *id != button)
            .collect()
    });
    let labels: Vec<egui::Id> = inner
        .into_iter()
        .filter(|id| {
            ctx.has_accesskit_node(*id)
                && ctx
                    .accesskit_node_builder(*id, |n| n.role() == egui::Role::Label)
                    .unwrap_or(false)
        })
        .collect();
    if labels.is_empty() {
        return;
    }
    ctx.accesskit_node_builder(button, |n| {
        for id in labels {
            n.push_labelled_by(id.accesskit_id());
        }
    });
}

impl ComponentRenderer for Button {
    fn ui(&self, ui: &mut egui::Ui, cx: &mut ComponentContext<'_, '_>) -> egui::Response {
        let Some(failure) = cx.first_check_failure() else {
            return button_ui(ui, cx, true);
        };
        let response = match cx.options().button_check_message {
            // The message goes beside the button, not under it: the web renderer shows none,
            // so the message takes no height from the layout.
            ButtonCheckMessage::Beside => {
                ui.horizontal(|ui| {
                    ui.spacing_mut().item_spacing.x = 0.0;
                    let response = button_ui(ui, cx, false);
                    // Wrapped in the width left beside the button.
                    ui.vertical(|ui| {
                        ui.set_max_width(ui.available_width());
                        cx.check_message_ui(ui, Some(&failure));
                    });
                    response
                })
                .inner
            }
            // Drawn as the web renderer draws it.
            ButtonCheckMessage::HoverText => button_ui(ui, cx, false),
        };
        // Why the button is disabled: read with it by a screen reader, shown on hover.
        let id = response.id;
        ui.ctx()
            .accesskit_node_builder(id, |n| n.set_description(failure.clone()));
        response.on_disabled_hover_text(failure)
    }
}

/// The button itself: its child drawn in one content `Ui` inside the reference's box model
/// (laid out as an `egui::Frame` with an outer margin and padding would be, without the
/// nested scopes), then the frame painted behind it and the whole rect made clickable.
fn button_ui(
    ui: &mut egui::Ui,
    cx: &mut ComponentContext<'_, '_>,
    enabled: bool,
) -> egui::Response {
    let variant = match cx.literal_str("variant") {
        Some(v) => Variant::parse(v),
        None if cx.prop("variant").is_some() => Variant::parse(&cx.string("variant")),
        None => Variant::Default,
    };
    let child = cx.child_id("child").map(str::to_owned);
    let id = cx.widget_id().with("button");

    let palette = cx.palette(ui);
    let primary = palette.primary;
    // The text colour the child inherits (`--_a2ui-text-color`): on-primary on a primary
    // fill (kept only while it stays readable on an agent's primary), the primary on a
    // borderless button, the on-secondary colour on a default one.
    let text_color = match variant {
        Variant::Primary => palette.on_primary,
        Variant::Borderless => primary,
        Variant::Default => palette.on_surface,
    };
    let text_color = Some(text_color);

    let background = ui.painter().add(Shape::Noop);
    // The reference's box model: an 8 px margin around a frame with 16/8 px padding and a
    // 1 px border (none on primary and borderless buttons, and no padding on borderless
    // ones).
    let style = cx.style();
    let radius = style.button_radius;
    let margin = egui::Margin::from(style.button_margin);
    let border = match variant {
        Variant::Default => style.button_border,
        Variant::Primary | Variant::Borderless => 0.0,
    };
    let padding_size = match variant {
        Variant::Borderless => egui::Vec2::ZERO,
        _ => style.button_padding + egui::Vec2::splat(border),
    };
    let padding = egui::Margin::from(padding_size);
    let min_height = match variant {
        Variant::Borderless => 0.0,
        _ => style.button_min_height - 2.0 * style.button_border,
    };
    let accesskit = ui
        .ctx()
        .accesskit_node_builder(ui.unique_id(), |_| ())
        .is_some();
    let layer = ui.layer_id();
    let first_widget = if accesskit {
        widget_count(ui.ctx(), layer)
    } else {
        0
    };
    // What `egui::Frame::begin` would hand its content: the space left, less both margins.
    let total = egui::epaint::MarginF32::from(margin) + egui::epaint::MarginF32::from(padding);
    let mut max_content = ui.available_rect_before_wrap() - total;
    max_content.max.x = max_content.max.x.max(max_content.min.x);
    max_content.max.y = max_content.max.y.max(max_content.min.y);
    let mut builder = egui::UiBuilder::new()
        .max_rect(max_content)
        // A frame's content (as `egui::Frame` marks it): not the slot of the child drawn in it.
        .ui_stack_info(egui::UiStackInfo::new(egui::UiKind::Frame))
        // Sized to its content: a button is never stretched.
        .layout(egui::Layout::top_down(egui::Align::Min))
        // A button's content: labels do not take the click, and text takes the colour.
        .style(
            cx.shared_style(ui, ("a2ui-button-content", text_color), |s| {
                s.interaction.selectable_labels = false;
                if text_color.is_some() {
                    s.visuals.override_text_color = text_color;
                }
            }),
        );
    if !enabled {
        builder = builder.disabled();
    }
    let mut content = ui.new_child(builder);
    content.set_min_height((min_height - 2.0 * padding_size.y).max(0.0));
    match &child {
        Some(c) => {
            // The content `Ui` holds the child alone: it doubles as the child's own `Ui`.
            cx.child_id_ui_exclusive(&mut content, c);
        }
        None => {
            content.label(humanize(cx.id()));
        }
    }
    let content_rect = content.min_rect();
    drop(content);
    let rect = content_rect + egui::epaint::MarginF32::from(padding);
    ui.advance_cursor_after_rect(rect + egui::epaint::MarginF32::from(margin));
    cx.set_geometry_box(rect);
    // Disabled while a check fails: no clicks, the disabled visuals, a faded frame.
    // `add_enabled` wraps the widget in a scope (a `Ui`): only when it is needed.
    let response = if enabled {
        ui.interact(rect, id, Sense::click())
    } else {
        ui.add_enabled(false, move |ui: &mut egui::Ui| {
            ui.interact(rect, id, Sense::click())
        })
    };
    let mut painter = ui.painter().clone();
    if !enabled {
        // `.a2ui-button:disabled { opacity: 0.5 }` (the content fades with egui's own
        // disabled opacity, 0.5 by default).
        painter.multiply_opacity(cx.style().disabled_opacity);
    }
    let dark = ui.visuals().dark_mode;
    let pressed = enabled && response.is_pointer_button_down_on();
    let hovered = enabled && response.hovered();
    // The stylesheet has `:hover` fills only; a press goes one step further (as far again
    // towards black, or white on dark panels) so it shows.
    let further = |c: Color32| {
        let toward = if dark { Color32::WHITE } else { Color32::BLACK };
        crate::catalog::oklab_mix(c, toward, 0.85)
    };
    let (fill, stroke) = match variant {
        Variant::Primary => {
            // `.a2ui-button.primary { background: var(--a2ui-color-primary); border: none }`,
            // `:hover { background-color: var(--a2ui-color-primary-hover) }`.
            let hover = palette.primary_hover(dark);
            let fill = if pressed {
                further(hover)
            } else if hovered {
                hover
            } else {
                primary
            };
            (fill, Stroke::NONE)
        }
        // `.a2ui-button.borderless { background: none; border: none }` (it also wins over
        // `:hover`, which comes first); a press tints it so a click shows.
        Variant::Borderless => {
            let fill = if pressed {
                palette.secondary_hover
            } else {
                Color32::TRANSPARENT
            };
            (fill, Stroke::NONE)
        }
        // `background: var(--a2ui-color-surface)`, `border: 1px solid
        // var(--a2ui-color-border)`, `:hover { background-color:
        // var(--a2ui-color-secondary-hover) }`.
        Variant::Default => {
            let fill = if pressed {
                further(palette.secondary_hover)
            } else if hovered {
                palette.secondary_hover
            } else {
                palette.surface
            };
            (fill, Stroke::new(cx.style().button_border, palette.border))
        }
    };
    // Keyboard focus: Chromium's focus ring, 2 px in the primary.
    let stroke = if response.has_focus() {
        Stroke::new(2.0, primary)
    } else {
        stroke
    };
    let stroke = if stroke.width > 0.0 && border > 0.0 {
        Stroke::new(border.max(stroke.width), stroke.color)
    } else {
        stroke
    };
    painter.set(
        background,
        egui::epaint::RectShape::new(rect, radius, fill, stroke, StrokeKind::Inside),
    );
    // The accessible name (the visible text of the child subtree, else the id) is only
    // worked out when egui asks for it.
    response.widget_info(|| {
        let name = child
            .as_deref()
            .map(|c| cx.subtree_text(c))
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| humanize(cx.id()));
        egui::WidgetInfo::labeled(egui::Role::Button, enabled, &name)
    });
    if accesskit {
        label_by_inner_text(ui.ctx(), layer, first_widget, response.id);
    }
    if response.clicked() && enabled {
        cx.fire_action();
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_variants_fall_back_to_default() {
        assert_eq!(Variant::parse("primary"), Variant::Primary);
        assert_eq!(Variant::parse("borderless"), Variant::Borderless);
        assert_eq!(Variant::parse("shiny"), Variant::Default);
    }
}
