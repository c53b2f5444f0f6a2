//! `Tabs`: a tab bar of titles over the selected tab's child.

use egui::accesskit::Role;
use egui::{Align, Layout, Rect, Sense, Stroke, UiBuilder, Vec2, vec2};
use serde_json::Value;

use super::row_column::fills_width;
use crate::catalog::ComponentRenderer;
use crate::catalog::sanitize_rect;
use crate::catalog::{Extent, Incoming, Slot};
use crate::eval::coerce;
use crate::model::PropRef;
use crate::render::ComponentContext;

/// Thickness of the mark under the selected title.
const SELECTED_MARK: f32 = 2.0;

/// The `Tabs` component: a wrapping bar with each `tabs[i].title` (bound titles are
/// resolved), and below it only the selected tab's `child`. The selected index is widget
/// state keyed by the node, so it survives re-renders and data updates; it starts at 0 and
/// is clamped when tabs are removed.
pub struct Tabs;

impl ComponentRenderer for Tabs {
    fn ui(&self, ui: &mut egui::Ui, cx: &mut ComponentContext<'_, '_>) -> egui::Response {
        let tabs: Vec<Value> = match cx.prop("tabs").and_then(PropRef::as_array) {
            Some(tabs) => tabs.iter().map(PropRef::to_value).collect(),
            None => Vec::new(),
        };
        let incoming = Incoming::of(ui, cx);
        if tabs.is_empty() {
            incoming.report(cx, Vec2::ZERO);
            return ui.allocate_response(Vec2::ZERO, Sense::hover());
        }
        let max_chars = cx.limits().max_string_chars;
        let titles: Vec<String> = tabs
            .iter()
            .enumerate()
            .map(|(i, tab)| {
                let title = tab
                    .get("title")
                    .map(|t| cx.with_eval(|e| coerce::to_display_string(&e.resolve(t))))
                    .unwrap_or_default();
                let title = title.trim();
                // Every tab needs a name, for the eye and for assistive technology.
                if title.is_empty() {
                    format!("Tab {}", i + 1)
                } else {
                    title.chars().take(max_chars).collect()
                }
            })
            .collect();
        let last = tabs.len() - 1;
        let selected_key = cx.widget_id().with("a2ui-tabs-selected");
        let mut selected = ui
            .data(|d| d.get_temp::<usize>(selected_key))
            .unwrap_or(0)
            .min(last);
        // `.a2ui-tab-button.active { color: var(--a2ui-color-primary); border-bottom: 2px solid
        // var(--a2ui-color-primary) }`; inactive titles in `--a2ui-tabs-header-color`.
        let palette = cx.palette(ui);
        let accent = palette.primary;

        let style = cx.style().clone();
        let available = sanitize_rect(ui.available_rect_before_wrap());
        let origin = available.min;
        let width = incoming.extent.width;
        let inner = ui.scope_builder(UiBuilder::new().max_rect(available), |ui| {
            // The bar's rule goes under the selected title's mark: its place is kept first.
            let rule = ui.painter().add(egui::Shape::Noop);
            let bar_rect = Rect::from_min_size(
                origin,
                vec2(width.unwrap_or(available.width()), available.height()),
            );
            // The bar sits at the top (its titles aligned on their first line), whatever
            // height is left below it.
            let bar = ui.scope_builder(
                UiBuilder::new()
                    .max_rect(bar_rect)
                    .layout(Layout::left_to_right(Align::Min).with_main_wrap(true))
                    .accessibility_role(Role::TabList),
                |ui| {
                    ui.spacing_mut().item_spacing = vec2(style.flex_gap, 0.0);
                    ui.spacing_mut().button_padding = style.tab_padding;
                    // `background: transparent` in every state: the title's colour and the
                    // underline mark the selection, not a fill.
                    let visuals = ui.visuals_mut();
                    visuals.selection.bg_fill = egui::Color32::TRANSPARENT;
                    visuals.selection.stroke = Stroke::NONE;
                    for w in [&mut visuals.widgets.hovered, &mut visuals.widgets.active] {
                        w.weak_bg_fill = egui::Color32::TRANSPARENT;
                        w.bg_fill = egui::Color32::TRANSPARENT;
                        w.bg_stroke = Stroke::NONE;
                    }
                    for (i, title) in titles.iter().enumerate() {
                        let is_selected = i == selected;
                        let text = egui::RichText::new(title)
                            .font(egui::FontId::proportional(style.label.size))
                            .line_height(Some(style.label.line_height));
                        let text = text.color(if is_selected {
                            accent
                        } else {
                            palette.tab_inactive
                        });
                        let response = ui.add(egui::Button::selectable(is_selected, text));
                        ui.ctx().accesskit_node_builder(response.id, |node| {
                            node.set_role(Role::Tab);
                            node.set_selected(is_selected);
                        });
                        if is_selected {
                            // Over the bar's rule (`margin-bottom: -2px`).
                            ui.painter().hline(
                                response.rect.x_range(),
                                response.rect.bottom() + style.tab_indicator,
                                Stroke::new(style.tab_indicator, accent),
                            );
                        }
                        if response.clicked() && !is_selected {
                            selected = i;
                            ui.data_mut(|d| d.insert_temp(selected_key, i));
                        }
                    }
                },
            );
            let bar_rect = bar.response.rect;
            let line_y = bar_rect.bottom() + SELECTED_MARK;
            let line_width = width.unwrap_or(bar_rect.width());
            // `.a2ui-tab-bar { border-bottom: 2px solid var(--a2ui-color-border) }`.
            ui.painter().set(
                rule,
                egui::Shape::hline(
                    origin.x..=origin.x + line_width,
                    line_y,
                    Stroke::new(style.tab_indicator, palette.border),
                ),
            );
            let top = line_y + 1.0 + style.tab_content_padding;
            let chrome_height = top - origin.y;
            let panel_rect = Rect::from_min_max(
                egui::pos2(origin.x, top),
                egui::pos2(
                    origin.x + width.unwrap_or(available.width()),
                    available.max.y.max(top),
                ),
            );
            let child = tabs
                .get(selected)
                .and_then(|t| t.get("child"))
                .and_then(Value::as_str)
                .map(str::to_owned);
            let extent = Extent {
                width,
                height: incoming.extent.height.map(|h| (h - chrome_height).max(0.0)),
            };
            let content = match child {
                Some(id) => {
                    Slot::new(
                        cx.widget_id().with(("a2ui-tab-panel", selected)),
                        panel_rect,
                        extent,
                    )
                    .fill_width(width.is_some() && fills_width(cx, &id))
                    .role(Role::TabPanel)
                    .show(ui, cx, |ui, cx| cx.child_id_ui(ui, &id))
                    .natural
                }
                None => Vec2::ZERO,
            };
            let natural = vec2(
                bar_rect.width().max(content.x),
                chrome_height + content.y + style.tab_content_padding,
            );
            let size = vec2(
                width.unwrap_or(natural.x),
                incoming
                    .extent
                    .height
                    .map_or(natural.y, |h| h.max(natural.y)),
            );
            ui.expand_to_include_rect(Rect::from_min_size(origin, size));
            natural
        });
        incoming.report(cx, inner.inner);
        inner.response
    }
}
