//! Shared helpers of the input components (Button, TextField, CheckBox, ChoicePicker,
//! Slider, DateTimeInput): widget-local state, labels wired for accessibility, the check
//! message under a control, and the accessible text of a subtree.

use super::ComponentContext;
use super::a11y::humanize;
use super::catalog::NameSource;
use crate::eval::coerce;
use crate::model::PropRef;
use crate::model::tree::child_refs;

/// How deep [`ComponentContext::subtree_text`] looks for text inside a child subtree.
const TEXT_DEPTH: usize = 6;
/// How many nodes [`ComponentContext::subtree_text`] visits at most.
const TEXT_NODES: usize = 32;

impl ComponentContext<'_, '_> {
    /// Widget-local state of this node under `key` (kept in egui memory, keyed by
    /// [`Self::widget_id`], so it survives re-renders and unrelated data-model updates).
    pub fn state<T: Clone + Send + Sync + 'static>(&self, key: &str) -> Option<T> {
        let id = self.widget_id.with(("a2ui-state", key));
        self.frame.ctx.data(|d| d.get_temp::<T>(id))
    }

    /// Store widget-local state of this node under `key` (see [`Self::state`]).
    pub fn set_state<T: Clone + Send + Sync + 'static>(&self, key: &str, value: T) {
        let id = self.widget_id.with(("a2ui-state", key));
        self.frame.ctx.data_mut(|d| d.insert_temp(id, value));
    }

    /// Whether property `name` is bound to the data model with `{"path"}` (edits then go to
    /// the model; otherwise they stay in widget state).
    pub fn is_bound(&self, name: &str) -> bool {
        self.binding_path(name).is_some()
    }

    /// Draw a check message (the first failing check) under a control, in the error colour.
    pub fn check_message_ui(&self, ui: &mut egui::Ui, message: Option<&str>) {
        if let Some(m) = message {
            // The web renderer's error line: the caption size in the error colour
            // (`.error { color: var(--a2ui-textfield-color-error, red); font-size:
            // var(--a2ui-font-size-xs) }`).
            let caption = &self.style().caption;
            ui.colored_label(
                self.palette(ui).error,
                egui::RichText::new(m)
                    .size(caption.size)
                    .line_height(Some(caption.line_height)),
            );
        }
    }

    /// The visible text of a component subtree, as an accessible name: each component
    /// gives what its [`NameSource`] says (a Text its text, an Icon its name humanised,
    /// `arrowBack` → `arrow back`, a container the texts of its children joined with
    /// spaces). Bounded in depth and node count.
    pub fn subtree_text(&self, id: &str) -> String {
        let mut parts = Vec::new();
        let mut budget = TEXT_NODES;
        self.collect_text(id, &self.scope.clone(), 0, &mut budget, &mut parts);
        parts.join(" ")
    }

    fn collect_text(
        &self,
        id: &str,
        scope: &str,
        depth: usize,
        budget: &mut usize,
        out: &mut Vec<String>,
    ) {
        if depth > TEXT_DEPTH || *budget == 0 {
            return;
        }
        *budget -= 1;
        let Some(component) = self.frame.surface.component(id).cloned() else {
            return;
        };
        match self
            .frame
            .catalog
            .traits_or_default(component.component())
            .name_source()
        {
            NameSource::Text(prop) => {
                let text = self.resolve_at(scope, component.prop(prop));
                let text = strip_markdown(&text);
                if !text.is_empty() {
                    out.push(text);
                }
            }
            NameSource::Symbol(prop) => {
                let name = match component.prop(prop) {
                    Some(v) if v.is_string() => v.as_str().unwrap_or_default().to_owned(),
                    other => self.resolve_at(scope, other),
                };
                if !name.is_empty() && !name.starts_with('{') {
                    out.push(humanize(&name));
                }
            }
            NameSource::None => {}
            NameSource::Children => {
                let children = child_refs(
                    &component,
                    scope,
                    self.frame.surface.data.root(),
                    self.frame.surface.version,
                    TEXT_NODES,
                );
                // A Modal's content is not visible until opened: only its trigger counts.
                for c in children
                    .iter()
                    .filter(|c| c.slot != "content" && c.slot != "contentChild")
                {
                    self.collect_text(&c.id, &c.scope, depth + 1, budget, out);
                }
            }
        }
    }

    /// A dynamic value resolved at another scope, as display text.
    fn resolve_at(&self, scope: &str, v: Option<PropRef<'_>>) -> String {
        let Some(v) = v else {
            return String::new();
        };
        self.with_eval(|cx| coerce::to_display_string(&cx.at_scope(scope).resolve_prop(v)))
    }

    /// A fallback accessible name for an input whose visible label is empty: the
    /// component id, humanised. The renderer applies `accessibility.label` over it.
    pub fn fallback_name(&self) -> String {
        humanize(self.component.id())
    }
}

/// Drop the simple Markdown markers a label may carry (`**bold**`, `` `code` ``, `# `).
fn strip_markdown(s: &str) -> String {
    let s = s.trim_start_matches('#').trim();
    s.chars()
        .filter(|c| !matches!(c, '*' | '`'))
        .collect::<String>()
        .trim()
        .to_owned()
}
