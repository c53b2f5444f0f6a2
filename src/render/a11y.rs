//! `accessibility` attributes → AccessKit.
//!
//! Every component is drawn inside its own egui `Ui` (the *wrapper*), which is an AccessKit
//! node: a `GenericContainer`, or the role its type was registered with
//! ([`ComponentTraits::role`](crate::render::catalog::ComponentTraits::role)).
//! `accessibility.label` replaces the name of the component's main node (its response),
//! `description` describes it, `hidden: true` (v1.0, a DynamicBoolean) hides the wrapper
//! and so the whole subtree from assistive technology, and `live` (`polite`, `assertive`)
//! makes the wrapper a live region so changes inside are announced.

use crate::eval::{EvalContext, coerce};
use crate::model::{PropMap, PropRef};

/// The resolved `accessibility` attributes of one component.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Accessibility {
    pub(crate) label: Option<String>,
    pub(crate) description: Option<String>,
    pub(crate) hidden: bool,
    pub(crate) live: Option<egui::accesskit::Live>,
}

impl Accessibility {
    /// Resolve the attributes of `props` (empty when there are none).
    pub(crate) fn read(props: PropMap<'_>, cx: &EvalContext<'_>) -> Self {
        let Some(a11y) = props.get("accessibility").and_then(PropRef::as_object) else {
            return Self::default();
        };
        // An attribute bound to missing data resolves to "", which must not blank a name.
        let text = |key: &str| {
            a11y.get(key)
                .map(|v| coerce::to_display_string(&cx.resolve_prop(v)))
                .filter(|s| !s.trim().is_empty())
        };
        let live = match a11y.get("live").and_then(PropRef::as_str) {
            Some("polite") => Some(egui::accesskit::Live::Polite),
            Some("assertive") => Some(egui::accesskit::Live::Assertive),
            Some("off") => Some(egui::accesskit::Live::Off),
            _ => None,
        };
        Self {
            label: text("label"),
            description: text("description"),
            hidden: a11y
                .get("hidden")
                .is_some_and(|v| coerce::to_bool(&cx.resolve_prop(v))),
            live,
        }
    }

    /// Whether there is anything to apply.
    pub(crate) fn is_empty(&self) -> bool {
        *self == Self::default()
    }

    /// Apply to the wrapper node (hidden, live) and the component's main node (label,
    /// description, hidden).
    pub(crate) fn apply(&self, ctx: &egui::Context, wrapper: egui::Id, main: egui::Id) {
        if self.hidden || self.live.is_some() {
            ctx.accesskit_node_builder(wrapper, |node| {
                if self.hidden {
                    node.set_hidden();
                }
                if let Some(live) = self.live {
                    node.set_live(live);
                }
            });
        }
        if self.label.is_some() || self.description.is_some() || self.hidden {
            ctx.accesskit_node_builder(main, |node| {
                if let Some(label) = &self.label {
                    // An own name wins over any `labelled_by` relation.
                    node.clear_labelled_by();
                    node.set_label(label.clone());
                    // A static text's name is its value in AccessKit.
                    if node.role() == egui::accesskit::Role::Label {
                        node.set_value(label.clone());
                    }
                }
                if let Some(description) = &self.description {
                    node.set_description(description.clone());
                }
                if self.hidden {
                    node.set_hidden();
                    // Hidden from assistive technology must mean not focusable either
                    // (`aria-hidden-focus`): a screen reader would land on nothing.
                    node.remove_action(egui::accesskit::Action::Focus);
                }
            });
            if self.hidden {
                // Keyboard focus that reaches it goes on to the next widget.
                ctx.memory_mut(|m| {
                    if m.has_focus(main) {
                        m.move_focus(egui::FocusDirection::Next);
                    }
                });
            }
        }
    }
}

/// Give a widget an accessible name directly (AccessKit `label`).
pub fn set_accessible_name(ui: &egui::Ui, id: egui::Id, name: &str) {
    if name.trim().is_empty() {
        return;
    }
    ui.ctx().accesskit_node_builder(id, |node| {
        node.set_label(name.to_owned());
    });
}

/// Tie a control to its visible label, or name it with `fallback` when there is none.
pub fn name_control(
    ui: &egui::Ui,
    response: egui::Response,
    label: Option<&egui::Response>,
    fallback: &str,
) -> egui::Response {
    match label {
        Some(l) => response.labelled_by(l.id),
        None => {
            set_accessible_name(ui, response.id, fallback);
            response
        }
    }
}

/// Name the year, month and day combo boxes of an open egui_extras `DatePickerButton`
/// popup, which leaves them without an accessible name. `salt` is the `id_salt` the
/// button was given (its popup's area id derives from it); call this after drawing the
/// button, every frame. The basic `DateTimeInput` and the extended `DateRange` do.
pub fn name_date_picker(ui: &egui::Ui, salt: &str) {
    let area = ui.make_persistent_id(Some(salt));
    let layer = egui::LayerId::new(egui::Order::Foreground, area);
    let ctx = ui.ctx();
    let ids: Vec<egui::Id> = ctx.viewport(|vp| {
        vp.this_pass
            .widgets
            .get_layer(layer)
            .map(|w| w.id)
            .collect()
    });
    let mut names = ["Year", "Month", "Day"].into_iter();
    for id in ids {
        if !ctx.has_accesskit_node(id) {
            continue;
        }
        let unnamed_combo = ctx
            .accesskit_node_builder(id, |n| {
                n.role() == egui::accesskit::Role::ComboBox && n.label().is_none()
            })
            .unwrap_or(false);
        if unnamed_combo && let Some(name) = names.next() {
            set_accessible_name(ui, id, name);
        }
    }
}

/// `arrowBack` / `arrow_back` / `arrow-back` → `arrow back`.
pub fn humanize(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    let mut prev_lower = false;
    for c in name.chars() {
        if c == '_' || c == '-' {
            if !out.ends_with(' ') && !out.is_empty() {
                out.push(' ');
            }
            prev_lower = false;
            continue;
        }
        if c.is_uppercase() && prev_lower {
            out.push(' ');
        }
        out.extend(c.to_lowercase());
        prev_lower = c.is_lowercase() || c.is_ascii_digit();
    }
    out.trim().to_owned()
}

#[cfg(test)]
mod naming_tests {
    use super::*;

    #[test]
    fn humanize_splits_camel_case_and_separators() {
        assert_eq!(humanize("arrowBack"), "arrow back");
        assert_eq!(humanize("submit_button"), "submit button");
        assert_eq!(humanize("go-2"), "go 2");
        assert_eq!(humanize("send"), "send");
    }
}
