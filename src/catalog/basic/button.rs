//! `Button`: draws its real child subtree (a Text, an Icon, a Row of both...) inside a
//! clickable frame. Variants `default`, `primary` (the surface's primary colour with a
//! contrasting text colour) and `borderless`. Disabled, with the first failing check's
//! message beside it, while any check fails.

use egui::{Color32, Sense, Shape, Stroke, StrokeKind};

use crate::catalog::ComponentRenderer;
use crate::render::ComponentContext;
use crate::render::input::humanize;

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
        let failure = cx.first_check_failure();
        let enabled = failure.is_none();
        let variant = Variant::parse(&cx.string("variant"));
        let child = cx.child_id("child").map(str::to_owned);
        let name = match &child {
            Some(c) => cx.subtree_text(c),
            None => String::new(),
        };
        let name = if name.is_empty() {
            humanize(cx.id())
        } else {
            name
        };
        let id = cx.widget_id().with("button");

        let primary = cx
            .primary_color()
            .unwrap_or_else(|| ui.visuals().selection.bg_fill);
        let text_color = match variant {
            Variant::Primary => Some(crate::render::theme::contrast_text_color(primary)),
            Variant::Borderless => cx.primary_color(),
            Variant::Default => None,
        };

        // The first failing check's message goes beside the button, not under it: the web
        // renderer shows none, so the message takes no height from the layout.
        ui.horizontal(|ui| {
            ui.spacing_mut().item_spacing.x = 0.0;
            let response = ui
                .add_enabled_ui(enabled, |ui| {
                    let background = ui.painter().add(Shape::Noop);
                    // The reference's box model: an 8 px margin around a frame with 16/8 px
                    // padding and a 1 px border (none on primary and borderless buttons,
                    // and no padding on borderless ones).
                    let style = cx.style();
                    let margin = style.button_margin;
                    let border = match variant {
                        Variant::Default => style.button_border,
                        Variant::Primary | Variant::Borderless => 0.0,
                    };
                    let padding = match variant {
                        Variant::Borderless => egui::Vec2::ZERO,
                        _ => style.button_padding + egui::Vec2::splat(border),
                    };
                    let min_height = match variant {
                        Variant::Borderless => 0.0,
                        _ => style.button_min_height - 2.0 * style.button_border,
                    };
                    let layer = ui.layer_id();
                    let first_widget = widget_count(ui.ctx(), layer);
                    let content = ui.scope(|ui| {
                        // The whole rect is the click target: labels inside must not take
                        // the click or show a text cursor.
                        ui.style_mut().interaction.selectable_labels = false;
                        if let Some(c) = text_color {
                            ui.visuals_mut().override_text_color = Some(c);
                        }
                        // Sized to its content: a button is never stretched.
                        ui.with_layout(egui::Layout::top_down(egui::Align::Min), |ui| {
                            egui::Frame::new()
                                .outer_margin(margin)
                                .inner_margin(padding)
                                .show(ui, |ui| {
                                    ui.set_min_height((min_height - 2.0 * padding.y).max(0.0));
                                    match &child {
                                        Some(c) => {
                                            cx.child_id_ui(ui, c);
                                        }
                                        None => {
                                            ui.label(&name);
                                        }
                                    }
                                })
                        })
                    });
                    let rect = content.response.rect.shrink(margin);
                    cx.set_geometry_box(rect);
                    let response = ui.interact(rect, id, Sense::click());
                    let visuals = ui.style().interact(&response);
                    let (fill, stroke) = match variant {
                        Variant::Primary => {
                            let fill = if response.is_pointer_button_down_on() {
                                primary.lerp_to_gamma(Color32::BLACK, 0.2)
                            } else if response.hovered() {
                                primary.lerp_to_gamma(Color32::WHITE, 0.15)
                            } else {
                                primary
                            };
                            (fill, Stroke::NONE)
                        }
                        Variant::Borderless => {
                            if response.hovered() || response.has_focus() {
                                (visuals.weak_bg_fill, Stroke::NONE)
                            } else {
                                (Color32::TRANSPARENT, Stroke::NONE)
                            }
                        }
                        Variant::Default => (visuals.weak_bg_fill, visuals.bg_stroke),
                    };
                    let stroke = if response.has_focus() {
                        ui.visuals().selection.stroke
                    } else {
                        stroke
                    };
                    let stroke = if stroke.width > 0.0 && border > 0.0 {
                        Stroke::new(border.max(stroke.width), stroke.color)
                    } else {
                        stroke
                    };
                    ui.painter().set(
                        background,
                        egui::epaint::RectShape::new(
                            rect,
                            cx.style().button_radius,
                            fill,
                            stroke,
                            StrokeKind::Inside,
                        ),
                    );
                    response.widget_info(|| {
                        egui::WidgetInfo::labeled(egui::Role::Button, enabled, &name)
                    });
                    label_by_inner_text(ui.ctx(), layer, first_widget, response.id);
                    response
                })
                .inner;
            if response.clicked() && enabled {
                cx.fire_action();
            }
            if failure.is_some() {
                // Wrapped in the width left beside the button.
                ui.vertical(|ui| {
                    ui.set_max_width(ui.available_width());
                    cx.check_message_ui(ui, failure.as_deref());
                });
            }
            response
        })
        .inner
    }
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
