//! `ChoicePicker` (v0.8 `MultipleChoice`): `mutuallyExclusive` (radio buttons or chips) or
//! `multipleSelection` (check boxes or chips), per `displayStyle`; `filterable` adds a
//! case-insensitive filter box whose text lives in widget state. The value is always
//! written as an array of strings.
//!
//! Hostile options never panic: non-string values are shown as text, options without a
//! label use their value, and long lists are scrolled (list style) or cut (chips).

use std::sync::Arc;

use serde_json::Value;

use super::controls::{Toggle, toggle_placed};
use crate::catalog::ComponentRenderer;
use crate::catalog::Incoming;
use crate::catalog::{name_control, set_accessible_name};
use crate::eval::coerce::to_display_string;
use crate::render::{ComponentContext, Palette, Style};

/// The `ChoicePicker` component.
pub struct ChoicePicker;

/// Options shown as a plain list before it becomes a scrolled, virtualised list.
const LIST_INLINE: usize = 50;
/// Chips drawn at most (the filter narrows longer lists).
const MAX_CHIPS: usize = 200;
/// Options read at most from one component.
const MAX_OPTIONS: usize = 10_000;

/// One option, as text.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Choice {
    /// What is shown.
    pub label: String,
    /// What is written.
    pub value: String,
}

/// Read `options` (already resolved): objects with `label` and `value`; anything else is
/// shown as its text.
pub(crate) fn parse_options(options: &Value) -> Vec<Choice> {
    let Value::Array(items) = options else {
        return Vec::new();
    };
    items
        .iter()
        .take(MAX_OPTIONS)
        .map(|o| {
            let (label, value) = match o {
                Value::Object(m) => (
                    m.get("label").map(to_display_string).unwrap_or_default(),
                    m.get("value").map(to_display_string).unwrap_or_default(),
                ),
                other => (to_display_string(other), to_display_string(other)),
            };
            let label = if label.is_empty() {
                value.clone()
            } else {
                label
            };
            Choice { label, value }
        })
        .collect()
}

/// The new selection after the user toggled `value` on or off.
pub(crate) fn toggle(
    selected: &[String],
    options: &[Choice],
    value: &str,
    on: bool,
    exclusive: bool,
) -> Vec<String> {
    if exclusive {
        return if on {
            vec![value.to_owned()]
        } else {
            Vec::new()
        };
    }
    // Option order first, then any selected value the options do not list (kept as is).
    let mut out: Vec<String> = options
        .iter()
        .map(|o| o.value.clone())
        .filter(|v| if v == value { on } else { selected.contains(v) })
        .fold(Vec::new(), |mut acc, v| {
            if !acc.contains(&v) {
                acc.push(v);
            }
            acc
        });
    for s in selected {
        if s != value && !options.iter().any(|o| &o.value == s) && !out.contains(s) {
            out.push(s.clone());
        }
    }
    out
}

/// Whether `label` matches the filter (case-insensitive substring).
pub(crate) fn matches_filter(label: &str, filter_lower: &str) -> bool {
    filter_lower.is_empty() || label.to_lowercase().contains(filter_lower)
}

/// The options resolved and parsed, cached in widget state until the surface's components
/// or data model change (long option lists are not re-resolved every frame).
#[derive(Clone)]
struct OptionsCache {
    revision: (u64, u64),
    options: Arc<Vec<Choice>>,
}

fn cached_options(cx: &ComponentContext<'_, '_>) -> Arc<Vec<Choice>> {
    let revision = cx.surface().revision();
    if let Some(c) = cx.state::<OptionsCache>("options")
        && c.revision == revision
    {
        return c.options;
    }
    let options = Arc::new(parse_options(&cx.value_deep("options")));
    cx.set_state(
        "options",
        OptionsCache {
            revision,
            options: Arc::clone(&options),
        },
    );
    options
}

/// One chip as the reference draws it (`.a2ui-chip`): a pill (`border-radius: 999px`) with
/// `--a2ui-choicepicker-chip-padding` (4/8 px, `ui.spacing().button_padding` here), a
/// 1 px border-coloured outline on the surface colour, the caption-size text; selected, the
/// primary fill with on-primary text (`.a2ui-chip.selected`).
fn chip_ui(
    ui: &mut egui::Ui,
    selected: bool,
    label: &str,
    style: &Style,
    palette: &Palette,
) -> egui::Response {
    let padding = ui.spacing().button_padding + egui::Vec2::splat(style.field_border);
    let galley = egui::WidgetText::from(label).into_galley(
        ui,
        Some(egui::TextWrapMode::Extend),
        f32::INFINITY,
        egui::TextStyle::Button,
    );
    let size = (galley.size() + 2.0 * padding).max(egui::vec2(0.0, ui.spacing().interact_size.y));
    let (rect, response) = ui.allocate_exact_size(size, egui::Sense::click());
    response.widget_info(|| {
        egui::WidgetInfo::selected(egui::Role::Button, ui.is_enabled(), selected, galley.text())
    });
    if ui.is_rect_visible(rect) {
        let (fill, border, text) = if selected {
            let ink = palette.on_primary;
            (palette.primary, palette.primary, ink)
        } else if response.hovered() {
            (palette.secondary_hover, palette.border, palette.on_surface)
        } else {
            (palette.surface, palette.border, palette.on_surface)
        };
        let stroke = if response.has_focus() {
            egui::Stroke::new(2.0, palette.primary)
        } else {
            egui::Stroke::new(style.field_border, border)
        };
        ui.painter().rect(
            rect,
            rect.height() / 2.0,
            fill,
            stroke,
            egui::StrokeKind::Inside,
        );
        let pos = rect.center() - galley.size() / 2.0;
        ui.painter().galley(pos, galley, text);
    }
    response
}

impl ComponentRenderer for ChoicePicker {
    fn ui(&self, ui: &mut egui::Ui, cx: &mut ComponentContext<'_, '_>) -> egui::Response {
        let exclusive = cx.string("variant") != "multipleSelection";
        let chips = cx.string("displayStyle") == "chips";
        let filterable = cx.bool("filterable", false);
        let selected = cx.string_list("value");
        let options = cached_options(cx);
        let label = cx.string("label");
        let incoming = Incoming::of(ui, cx);
        let style = cx.style().clone();
        let palette = cx.palette(ui);
        let option_font = egui::FontId::proportional(style.label.size);

        let inner = ui.vertical(|ui| {
            // Radio buttons are one radio group for assistive technology (ARIA's
            // `radiogroup`), named by the picker's label.
            if exclusive && !chips {
                let name = label.trim().to_owned();
                ui.ctx().accesskit_node_builder(ui.unique_id(), |node| {
                    node.set_role(egui::accesskit::Role::RadioGroup);
                    if !name.is_empty() {
                        node.set_label(name);
                    }
                });
            }
            // The reference's picker: 2 px between rows, options in the label size, chips
            // in the caption size with 4/8 px padding.
            ui.spacing_mut().item_spacing = egui::vec2(style.field_gap * 2.0, style.field_gap);
            ui.spacing_mut().interact_size.y = 19.0;
            ui.style_mut()
                .text_styles
                .insert(egui::TextStyle::Body, option_font.clone());
            ui.style_mut().text_styles.insert(
                egui::TextStyle::Button,
                egui::FontId::proportional(style.caption.size),
            );
            if chips {
                ui.spacing_mut().button_padding = egui::vec2(8.0, 4.0);
            }
            if !label.is_empty() {
                ui.label(
                    egui::RichText::new(&label)
                        .font(style.label.font_id(ui.ctx()))
                        .strong(),
                );
            }
            let mut filter = String::new();
            if filterable {
                filter = cx.state::<String>("filter").unwrap_or_default();
                let edit = egui::TextEdit::singleline(&mut filter)
                    .id(cx.widget_id().with("filter"))
                    .hint_text("Filter");
                let r = ui.add(edit);
                let name = if label.is_empty() {
                    "Filter options".to_owned()
                } else {
                    format!("Filter {label}")
                };
                let r = name_control(ui, r, None, &name);
                if r.changed() {
                    cx.set_state("filter", filter.clone());
                }
            }
            let needle = filter.to_lowercase();
            let shown: Vec<&Choice> = options
                .iter()
                .filter(|o| matches_filter(&o.label, &needle))
                .collect();

            let mut change: Option<(String, bool)> = None;
            let mut option_ui = |ui: &mut egui::Ui, o: &Choice| {
                let was = selected.contains(&o.value);
                let r = if chips {
                    chip_ui(ui, was, &o.label, &style, &palette)
                } else {
                    // The options' text is bold like the picker's label (the reference's
                    // `font-weight: var(--a2ui-label-font-weight, bold)` reaches them).
                    let text = egui::RichText::new(&o.label)
                        .font(style.label.font_id(ui.ctx()))
                        .strong();
                    let kind = if exclusive {
                        Toggle::Radio
                    } else {
                        Toggle::Check
                    };
                    toggle_placed(ui, kind, was, text, &style, &palette, None).0
                };
                if o.label.trim().is_empty() {
                    set_accessible_name(ui, r.id, "option");
                }
                if r.clicked() {
                    change = Some((o.value.clone(), exclusive || !was));
                }
            };

            if chips {
                ui.horizontal_wrapped(|ui| {
                    // Whole chips wrap to the next line; their own text does not.
                    ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Extend);
                    for o in shown.iter().take(MAX_CHIPS) {
                        ui.push_id(&o.value, |ui| option_ui(ui, o));
                    }
                });
                if shown.len() > MAX_CHIPS {
                    ui.weak(format!(
                        "{} more: type in the filter to narrow the list",
                        shown.len() - MAX_CHIPS
                    ));
                }
            } else if shown.len() > LIST_INLINE {
                let row_height = ui.spacing().interact_size.y;
                egui::ScrollArea::vertical()
                    .id_salt("options")
                    .max_height(row_height * 10.0)
                    .show_rows(ui, row_height, shown.len(), |ui, rows| {
                        for i in rows {
                            if let Some(o) = shown.get(i) {
                                ui.push_id(i, |ui| option_ui(ui, o));
                            }
                        }
                    });
            } else {
                for (i, o) in shown.iter().enumerate() {
                    ui.push_id(i, |ui| option_ui(ui, o));
                }
            }

            if let Some((value, on)) = change {
                let next = toggle(&selected, &options, &value, on, exclusive);
                if next != selected {
                    let next = next.into_iter().map(Value::String).collect();
                    cx.write(ui, "value", Value::Array(next));
                }
            }
            let failure = cx.first_check_failure();
            cx.check_message_ui(ui, failure.as_deref());
        });
        if let Some(w) = incoming.extent.width {
            let r = inner.response.rect;
            cx.set_geometry_box(egui::Rect::from_min_size(r.min, egui::vec2(w, r.height())));
        }
        inner.response
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn opts() -> Vec<Choice> {
        parse_options(&json!([
            {"label": "Red", "value": "r"},
            {"label": "Green", "value": "g"},
            {"label": "Blue", "value": "b"}
        ]))
    }

    #[test]
    fn exclusive_selection_is_a_one_item_array() {
        let s = toggle(&["r".into()], &opts(), "b", true, true);
        assert_eq!(s, vec!["b".to_owned()]);
    }

    #[test]
    fn multiple_selection_keeps_option_order_and_unknown_values() {
        let s = toggle(&["b".into(), "zz".into()], &opts(), "r", true, false);
        assert_eq!(s, vec!["r".to_owned(), "b".to_owned(), "zz".to_owned()]);
        let s = toggle(&s, &opts(), "b", false, false);
        assert_eq!(s, vec!["r".to_owned(), "zz".to_owned()]);
    }

    #[test]
    fn hostile_options_become_text() {
        let o = parse_options(&json!([1, {"label": null, "value": 2}, {"value": {"x": 1}}, null]));
        assert_eq!(
            o[0],
            Choice {
                label: "1".into(),
                value: "1".into()
            }
        );
        assert_eq!(
            o[1],
            Choice {
                label: "2".into(),
                value: "2".into()
            }
        );
        assert_eq!(o[2].value, r#"{"x":1}"#);
        assert_eq!(o[3].value, "");
        assert!(parse_options(&json!("nope")).is_empty());
    }

    #[test]
    fn the_filter_is_case_insensitive() {
        assert!(matches_filter("Green", "gre"));
        assert!(matches_filter("ÉCLAIR", "éc"));
        assert!(!matches_filter("Blue", "re"));
        assert!(matches_filter("Blue", ""));
    }
}
