//! [`ComponentContext`], what a [`ComponentRenderer`](super::catalog::ComponentRenderer)
//! gets for one node: the whole component-author API in one place, in sections (the node,
//! look, properties, derived values, edits and widget state, checks, children, accessible
//! names, actions and events). The walk that makes one per node is in `walk.rs`.

use std::sync::Arc;

use serde_json::Value;

use super::RendererOptions;
use super::a11y::humanize;
use super::catalog::{ComponentTraits, DEFAULT_TRAITS, NameSource};
use super::walk::{SurfaceFrame, scope_of};
use crate::action::{ActionEvent, ComponentAction, Event, now_timestamp};
use crate::error::{A2uiError, Rejected};
use crate::eval::checks::{CheckResult, evaluate_stored_checks, first_failure};
use crate::eval::{EvalContext, PropDynamic, coerce, prop_kind};
use crate::limits::Limits;
use crate::model::tree::{
    ChildRef, Template, child_refs, template_instance, template_len, template_of,
};
use crate::model::{Component, PropRef, Surface};
use crate::protocol::Version;

/// How deep [`ComponentContext::subtree_text`] looks for text inside a child subtree.
const TEXT_DEPTH: usize = 6;
/// How many nodes [`ComponentContext::subtree_text`] visits at most.
const TEXT_NODES: usize = 32;

/// What a [`ComponentRenderer`](super::catalog::ComponentRenderer) gets for one node:
/// its component, its data scope, and helpers to read bound values, write edits back,
/// draw children, evaluate checks and fire actions.
///
/// Its methods come in sections, in this order (each an `impl` block of its own):
///
/// - **The node:** [`component`](Self::component), [`id`](Self::id), [`scope`](Self::scope),
///   [`widget_id`](Self::widget_id), [`surface`](Self::surface), [`version`](Self::version),
///   [`origin`](Self::origin), [`options`](Self::options), [`limits`](Self::limits), ...
/// - **Look:** [`style`](Self::style), [`palette`](Self::palette),
///   [`accent_color`](Self::accent_color), [`shared_style`](Self::shared_style), ...
/// - **Properties:** [`value`](Self::value), [`string`](Self::string),
///   [`number`](Self::number), [`bool`](Self::bool), [`prop`](Self::prop),
///   [`binding_path`](Self::binding_path), [`with_eval`](Self::with_eval), ...
/// - **Derived values:** [`memo`](Self::memo), [`update_memo`](Self::update_memo).
/// - **Edits and widget state:** [`write`](Self::write), [`state`](Self::state),
///   [`set_state`](Self::set_state).
/// - **Checks:** [`checks`](Self::checks), [`check_message_ui`](Self::check_message_ui), ...
/// - **Children:** [`children`](Self::children), [`child_ui`](Self::child_ui),
///   [`children_template`](Self::children_template), [`child_traits`](Self::child_traits), ...
/// - **Accessible names:** [`subtree_text`](Self::subtree_text),
///   [`fallback_name`](Self::fallback_name).
/// - **Actions and events:** [`action`](Self::action), [`fire_action`](Self::fire_action),
///   [`open_url`](Self::open_url), [`emit`](Self::emit), [`report_once`](Self::report_once).
pub struct ComponentContext<'c, 'f> {
    pub(crate) frame: &'c mut SurfaceFrame<'f>,
    pub(crate) component: Arc<Component>,
    /// Borrowed for the root scope `/` (every node outside templates): no copy per node.
    pub(crate) scope: std::borrow::Cow<'static, str>,
    pub(crate) index: Option<usize>,
    pub(crate) widget_id: egui::Id,
}

/// The template of a node's `children`
/// ([`ComponentContext::children_template`]): a virtualised list draws only the items in
/// view, each with [`ComponentContext::template_child_ui`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ChildTemplate {
    /// The id of the component drawn for each item.
    pub component_id: String,
    /// The absolute data path of the list the items come from.
    pub path: String,
    /// How many items the list holds now (an object's keys in v0.8).
    pub len: usize,
}

// ---- The node ----

/// The node: what is being drawn and where: the component, its scope and template index, the
/// surface and its protocol version, the origin, the options and limits in force.
impl ComponentContext<'_, '_> {
    /// The component being drawn.
    pub fn component(&self) -> &Component {
        &self.component
    }

    /// Its id.
    pub fn id(&self) -> &str {
        self.component.id()
    }

    /// The data-context path (`/` outside templates).
    pub fn scope(&self) -> &str {
        &self.scope
    }

    /// The template item index, inside a template instance.
    pub fn index(&self) -> Option<usize> {
        self.index
    }

    /// How deep this node is in the surface's tree (the root is at depth 1).
    pub fn depth(&self) -> usize {
        self.frame.guards.depth()
    }

    /// A stable egui id for this node: (surface, component id, scope, generation). Widget
    /// state keyed by it survives re-renders and unrelated updates, and resets when the
    /// component is replaced by one of another type.
    pub fn widget_id(&self) -> egui::Id {
        self.widget_id
    }

    /// The surface id.
    pub fn surface_id(&self) -> &str {
        &self.frame.surface.id
    }

    /// The surface (theme, data model, components).
    pub fn surface(&self) -> &Surface {
        self.frame.surface
    }

    /// The surface's protocol version.
    pub fn version(&self) -> Version {
        self.frame.surface.version
    }

    /// Who the surface comes from, as the host or transport set it on the store (never
    /// the agent): what a component that sends the user's input somewhere names as its
    /// destination. `None` when nobody set one.
    pub fn origin(&self) -> Option<&crate::model::AgentOrigin> {
        self.frame.origin
    }

    /// The renderer options (URL policy, locale, ...).
    pub fn options(&self) -> &RendererOptions {
        self.frame.options
    }

    /// The limits in force.
    pub fn limits(&self) -> &Limits {
        self.frame.limits
    }
}

// ---- Look ----

/// Look: the style and colours to draw with, shared derived styles, and the box the geometry dump
/// records.
impl ComponentContext<'_, '_> {
    /// The style in force (spacing, type scale, control sizes).
    pub fn style(&self) -> &super::Style {
        &self.frame.options.style
    }

    /// The colours to draw this surface's controls with: the style's palette for the
    /// host's visuals (light or dark), with the agent's `theme.primaryColor` as the primary
    /// when it sent one.
    pub fn palette(&self, ui: &egui::Ui) -> super::Palette {
        let palette = *self.frame.options.style.palette(ui.visuals());
        match self.primary_color() {
            Some(p) => palette.with_primary(p),
            None => palette,
        }
    }

    /// `theme.primaryColor` as an egui colour.
    pub fn primary_color(&self) -> Option<egui::Color32> {
        self.frame
            .surface
            .primary_color()
            .map(|[r, g, b]| egui::Color32::from_rgb(r, g, b))
    }

    /// The accent for foreground marks (links, icons, focus) on this surface: the agent's
    /// `primaryColor` made readable on the host's panel, else the host's hyperlink colour.
    /// Primary fills (filled buttons) follow the agent's `primaryColor` the same way.
    pub fn accent_color(&self, ui: &egui::Ui) -> egui::Color32 {
        super::theme::readable_accent(ui.visuals(), self.primary_color())
    }

    /// The style of `ui` changed by `change`, made once per frame and shared by every
    /// node that asks with the same `key` under the same parent style: install it with
    /// `UiBuilder::style` or `Ui::set_style`. egui clones the whole `Style` on every
    /// `style_mut`/`spacing_mut`, so a component drawn a thousand times that restyles its
    /// `Ui` that way costs a thousand clones; through here it costs one. `key` must say
    /// everything `change` depends on (`change` runs only for a new key).
    ///
    /// ```
    /// # fn draw(ui: &mut egui::Ui, cx: &mut egui_a2ui::ComponentContext<'_, '_>) {
    /// let gap = 4.0_f32;
    /// ui.set_style(cx.shared_style(ui, ("my-gap", gap.to_bits()), |s| {
    ///     s.spacing.item_spacing.y = gap;
    /// }));
    /// # }
    /// ```
    pub fn shared_style(
        &mut self,
        ui: &egui::Ui,
        key: impl std::hash::Hash + std::fmt::Debug,
        change: impl FnOnce(&mut egui::Style),
    ) -> Arc<egui::Style> {
        self.frame
            .memo
            .style(ui.style(), egui::Id::unique(key), change)
    }

    /// Draw `add` into `ui` with the style [`Self::shared_style`] makes (same `key` and
    /// `change`), then give `ui` its own style back: one restyled widget without a scope
    /// `Ui` or a `Style` clone of its own.
    pub fn with_shared_style<R>(
        &mut self,
        ui: &mut egui::Ui,
        key: impl std::hash::Hash + std::fmt::Debug,
        change: impl FnOnce(&mut egui::Style),
        add: impl FnOnce(&mut egui::Ui) -> R,
    ) -> R {
        let own = ui.style().clone();
        ui.set_style(self.shared_style(ui, key, change));
        let inner = add(ui);
        ui.set_style(own);
        inner
    }

    /// Report the box this component draws, when it differs from the space its `Ui` took
    /// (a Card's frame without its outer margin, a Button's frame). Recorded by the
    /// geometry observable; an empty rectangle means "draws nothing".
    pub fn set_geometry_box(&mut self, rect: egui::Rect) {
        self.frame.box_override = Some(rect);
    }
}

// ---- Properties ----

/// Properties: reading properties: raw, resolved in this node's scope, or coerced to a type;
/// bindings and pending agent calls; evaluation at this scope.
impl ComponentContext<'_, '_> {
    /// The raw (unresolved) property, as stored (read it like a `serde_json::Value`, or
    /// make one with [`PropRef::to_value`]).
    pub fn prop(&self, name: &str) -> Option<PropRef<'_>> {
        self.component.prop(name)
    }

    /// A literal enum-like property (`variant`, `justify`...), `None` when absent.
    pub fn literal_str(&self, name: &str) -> Option<&str> {
        self.component.str_prop(name)
    }

    /// A property resolved in this scope (`null` when absent). Inputs whose value is not
    /// bound to a path return their local edit, if any.
    pub fn value(&self, name: &str) -> Value {
        let Some(raw) = self.component.prop(name) else {
            return Value::Null;
        };
        self.value_of(name, raw)
    }

    /// [`Self::value`] of property `name`, whose raw value the caller already looked up.
    fn value_of(&self, name: &str, raw: PropRef<'_>) -> Value {
        match prop_kind(raw) {
            PropDynamic::Path(_) => {}
            kind => {
                if let Some(local) = self.local_edit(name) {
                    return local;
                }
                // A literal is its own value: no evaluation context to set up.
                if matches!(kind, PropDynamic::Literal) {
                    return raw.to_value();
                }
                let call = self.call_object(name, raw);
                // A pure call's value holds for the surface's revision: computed once, not
                // every frame (a call the agent answers, or a host function, runs each time).
                if self.frame.catalogs.functions().is_pure_call(&call) {
                    let key = self.widget_id.with(("a2ui-call-value", name));
                    if let Some(v) = self
                        .frame
                        .with_resolve_cache(|c| c.values.get(&key).cloned())
                    {
                        return v;
                    }
                    let v = self.with_eval(|cx| cx.resolve(&call));
                    // Past the frame's budget the value is a placeholder: not kept.
                    if !self.frame.memo.budget.is_exceeded() {
                        self.frame
                            .with_resolve_cache(|c| c.values.insert(key, v.clone()));
                    }
                    return v;
                }
                return self.with_eval(|cx| cx.resolve(&call));
            }
        }
        // Bound to a path: deterministic for a revision of the surface.
        let key = self.widget_id.with(("a2ui-value", name));
        if let Some(v) = self
            .frame
            .with_resolve_cache(|c| c.values.get(&key).cloned())
        {
            return v;
        }
        let v = self.with_eval(|cx| cx.resolve_prop(raw));
        if !matches!(v, Value::Array(_) | Value::Object(_)) {
            self.frame
                .with_resolve_cache(|c| c.values.insert(key, v.clone()));
        }
        v
    }

    /// The call object of function-call property `name` (stored as `raw`) as a `Value`, kept
    /// for the surface's revision (the call itself runs every time: it may depend on more
    /// than the data model).
    fn call_object(&self, name: &str, raw: PropRef<'_>) -> Arc<Value> {
        let key = self.widget_id.with(("a2ui-call", name));
        if let Some(call) = self
            .frame
            .with_resolve_cache(|c| c.calls.get(&key).cloned())
        {
            return call;
        }
        let call = Arc::new(raw.to_value());
        self.frame
            .with_resolve_cache(|c| c.calls.insert(key, Arc::clone(&call)));
        call
    }

    /// Every dynamic value inside a property resolved (e.g. ChoicePicker options).
    pub fn value_deep(&self, name: &str) -> Value {
        let Some(raw) = self.component.prop(name) else {
            return Value::Null;
        };
        self.with_eval(|cx| cx.resolve_deep_prop(raw))
    }

    /// A property as text (`""` when absent or null), cut at the string limit. A property
    /// bound to a data path is resolved once per revision of the surface, and cached
    /// between frames until the surface changes.
    pub fn string(&self, name: &str) -> String {
        let raw = self.component.prop(name);
        if !raw.is_some_and(|v| matches!(prop_kind(v), PropDynamic::Path(_))) {
            return self.display_string(name, raw);
        }
        let key = self.widget_id.with(("a2ui-string", name));
        if let Some(s) = self
            .frame
            .with_resolve_cache(|c| c.strings.get(&key).cloned())
        {
            return s;
        }
        let s = self.display_string(name, raw);
        self.frame
            .with_resolve_cache(|c| c.strings.insert(key, s.clone()));
        s
    }

    fn string_uncached(&self, name: &str) -> String {
        self.display_string(name, self.component.prop(name))
    }

    /// Property `name` (its raw value `raw`, looked up by the caller) as text, cut at the
    /// string limit.
    fn display_string(&self, name: &str, raw: Option<PropRef<'_>>) -> String {
        let v = raw.map_or(Value::Null, |raw| self.value_of(name, raw));
        truncate(
            coerce::into_display_string(v),
            self.frame.limits.max_string_chars,
        )
    }

    /// A property as text, `None` when absent or null.
    pub fn opt_string(&self, name: &str) -> Option<String> {
        match self.value(name) {
            Value::Null => None,
            v => Some(truncate(
                coerce::to_display_string(&v),
                self.frame.limits.max_string_chars,
            )),
        }
    }

    /// A property as a number, `None` when absent or null.
    pub fn number(&self, name: &str) -> Option<f64> {
        match self.value(name) {
            Value::Null => None,
            v => Some(coerce::to_number(&v)),
        }
    }

    /// A property as a boolean, `default` when absent or null.
    pub fn bool(&self, name: &str, default: bool) -> bool {
        match self.value(name) {
            Value::Null => default,
            v => coerce::to_bool(&v),
        }
    }

    /// A property as a list of strings.
    pub fn string_list(&self, name: &str) -> Vec<String> {
        coerce::to_string_list(&self.value(name))
    }

    /// Whether a property waits for a v1.0 `agentFunctionResponse` (its value is `null`
    /// meanwhile; draw a pending state).
    pub fn is_pending(&self, name: &str) -> bool {
        let Some(raw) = self.component.prop(name) else {
            return false;
        };
        // Only a call can wait for an answer; its call object is kept per revision.
        if !matches!(prop_kind(raw), PropDynamic::Call) {
            return false;
        }
        let call = self.call_object(name, raw);
        self.with_eval(|cx| {
            let _ = cx.resolve(&call);
            cx.is_pending()
        })
    }

    /// The absolute data path a property is bound to, if it is a `{"path"}` binding.
    pub fn binding_path(&self, name: &str) -> Option<String> {
        self.binding_path_inner(name)
    }

    fn binding_path_inner(&self, name: &str) -> Option<String> {
        match prop_kind(self.component.prop(name)?) {
            PropDynamic::Path(p) => Some(crate::model::data_model::resolve_path(p, &self.scope)),
            _ => None,
        }
    }

    /// Whether property `name` is bound to the data model with `{"path"}` (edits then go to
    /// the model; otherwise they stay in widget state).
    pub fn is_bound(&self, name: &str) -> bool {
        self.binding_path(name).is_some()
    }

    /// Whether property `name` may carry what the user typed: a function call (it may read
    /// any path), or a binding to a path the user wrote (or one inside or around it). A
    /// literal, or a binding to data only the agent wrote, is the agent's own word.
    pub fn may_carry_user_input(&self, name: &str) -> bool {
        let Some(p) = self.component.prop(name) else {
            return false;
        };
        match prop_kind(p) {
            PropDynamic::Literal => false,
            PropDynamic::Path(_) => self
                .binding_path_inner(name)
                .is_none_or(|path| self.frame.surface.data.user_touched(&path)),
            PropDynamic::Call => true,
        }
    }

    /// Evaluate with an [`EvalContext`] at this node's scope.
    pub fn with_eval<R>(&self, f: impl FnOnce(&EvalContext<'_>) -> R) -> R {
        self.with_eval_as(false, f)
    }

    /// [`Self::with_eval`], the context marked as run by a user gesture when `gesture`.
    fn with_eval_as<R>(&self, gesture: bool, f: impl FnOnce(&EvalContext<'_>) -> R) -> R {
        let cx = EvalContext::new(
            self.frame.surface.data.root(),
            &self.scope,
            self.frame.surface.version,
            self.frame.catalog.functions(),
            self.frame.limits,
        )
        .with_locale(&self.frame.options.locale)
        .with_store(self.frame.store_id);
        let mut cx = if gesture { cx.with_user_gesture() } else { cx };
        cx.agent_calls = Some((self.frame.agent_calls, &self.frame.surface.id));
        cx.budget = Some(&self.frame.memo.budget);
        f(&cx)
    }
}

// ---- Derived values ----

/// Derived values: what a node derives from a property's string, kept per revision of the surface.
impl ComponentContext<'_, '_> {
    /// What this node derives from the string of property `name` (parsed Markdown, a
    /// measured width, parsed chart series...), made by `make` from the resolved string and
    /// kept until the surface's components or data model change: a surface nobody changes
    /// does not derive it again every frame. A property that is a function call is not
    /// kept (a call may depend on more than the data model). Entries are per node, per
    /// property and per type `T`.
    ///
    /// ```
    /// # fn draw(ui: &mut egui::Ui, cx: &mut egui_a2ui::ComponentContext<'_, '_>) {
    /// let words: usize = cx.memo("text", |text| text.split_whitespace().count());
    /// ui.label(format!("{words} words"));
    /// # }
    /// ```
    pub fn memo<T: Clone + Send + Sync + 'static>(
        &self,
        name: &str,
        make: impl FnOnce(String) -> T,
    ) -> T {
        let cacheable = match self.component.prop(name) {
            None => true,
            Some(v) => !matches!(prop_kind(v), PropDynamic::Call),
        };
        if !cacheable {
            return make(self.string_uncached(name));
        }
        let key = self.memo_key::<T>(name);
        if let Some(e) = self.frame.with_resolve_cache(|c| {
            c.memos
                .get(&key)
                .and_then(|e| e.downcast_ref::<T>())
                .cloned()
        }) {
            return e;
        }
        let entry = make(self.string_uncached(name));
        let stored: Arc<dyn std::any::Any + Send + Sync> = Arc::new(entry.clone());
        self.frame
            .with_resolve_cache(|c| c.memos.insert(key, stored));
        entry
    }

    /// Change what [`Self::memo`] keeps for property `name` (a measurement taken after
    /// drawing, say); nothing happens when nothing is kept.
    pub fn update_memo<T: Clone + Send + Sync + 'static>(
        &self,
        name: &str,
        change: impl FnOnce(&mut T),
    ) {
        let key = self.memo_key::<T>(name);
        self.frame.with_resolve_cache(|c| {
            if let Some(mut e) = c
                .memos
                .get(&key)
                .and_then(|e| e.downcast_ref::<T>())
                .cloned()
            {
                change(&mut e);
                c.memos.insert(key, Arc::new(e));
            }
        });
    }

    fn memo_key<T: 'static>(&self, name: &str) -> egui::Id {
        self.widget_id
            .with(("a2ui-memo", name, std::any::TypeId::of::<T>()))
    }
}

// ---- Edits and widget state ----

/// Edits and widget state: writing the user's edits back (to the data model, or to widget state
/// when unbound) and widget-local state.
impl ComponentContext<'_, '_> {
    /// Write a user edit: into the data model when the property is bound to a path (every
    /// other binding to that path sees it at once; a `DataChanged` event is queued), else
    /// into local widget state. Never produces agent traffic.
    pub fn write(&mut self, ui: &egui::Ui, name: &str, value: Value) {
        if let Some(path) = self.binding_path(name) {
            self.frame.surface.data.note_user_write(&path);
            let written = self.frame.surface.data.set_by(
                crate::model::ChangeSource::User,
                &path,
                Some(value.clone()),
                None,
            );
            match written {
                Ok(()) => {
                    self.frame.events.push(Event::DataChanged {
                        surface_id: self.frame.surface.id.clone(),
                        path,
                        value,
                    });
                }
                Err(e) => {
                    let key = format!("write:{path}");
                    self.frame.report_once(key, e);
                }
            }
        } else {
            let key = self.local_key(name);
            ui.data_mut(|d| d.insert_temp(key, value));
        }
        ui.ctx().request_repaint();
    }

    fn local_key(&self, name: &str) -> egui::Id {
        self.widget_id.with(("a2ui-local", name))
    }

    fn local_edit(&self, name: &str) -> Option<Value> {
        let key = self.local_key(name);
        self.frame.ctx.data(|d| d.get_temp::<Value>(key))
    }

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
}

// ---- Checks ----

/// Checks: the component's `checks` and the message under a control.
impl ComponentContext<'_, '_> {
    /// This component's `checks`, evaluated now (empty when it has none).
    pub fn checks(&self) -> Vec<CheckResult> {
        let Some(checks) = self.component.prop("checks") else {
            return Vec::new();
        };
        self.with_eval(|cx| evaluate_stored_checks(checks, cx))
    }

    /// The message of the first failing check.
    pub fn first_check_failure(&self) -> Option<String> {
        first_failure(&self.checks()).map(str::to_owned)
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
}

// ---- Children ----

/// Children: listing and drawing children: static lists, single-child slots, templates, and the
/// traits and weights a container places them by.
impl ComponentContext<'_, '_> {
    /// The children of this node (static lists, single-child slots and templates expanded),
    /// in slot order.
    pub fn children(&self) -> Vec<ChildRef> {
        self.children_shared().to_vec()
    }

    /// [`Self::children`], shared: the list is made once per revision of the surface (its
    /// components and data) and handed out again until the surface changes, so a steady
    /// frame lists a container's children without allocating.
    pub fn children_shared(&self) -> Arc<[ChildRef]> {
        // Past the node budget every child is a placeholder: list no more than one of them.
        let max = self
            .frame
            .limits
            .max_template_instances
            .min(self.frame.guards.budget().saturating_add(1));
        let key = self.widget_id;
        // `max` caps template instances only, so a list cut at it depends on the walk's
        // remaining budget, not only on the surface: only whole lists are kept (shorter than
        // the cap, or without a template), and a kept one is handed out only while it is
        // still whole under this walk's cap. The widget id names the surface (serial),
        // component, scope and generation, so one entry never serves another node.
        let whole = |list: &[ChildRef]| list.len() < max || !self.has_children_template();
        if let Some(kept) = self
            .frame
            .with_resolve_cache(|c| c.children.get(&key).cloned())
            && whole(&kept)
        {
            return kept;
        }
        let list: Arc<[ChildRef]> = child_refs(
            &self.component,
            &self.scope,
            self.frame.surface.data.root(),
            self.frame.surface.version,
            max,
        )
        .into();
        if whole(&list) {
            self.frame
                .with_resolve_cache(|c| c.children.insert(key, Arc::clone(&list)));
        }
        list
    }

    /// Whether `children` is a template: only a template's instances are capped when
    /// listing children.
    fn has_children_template(&self) -> bool {
        self.component
            .prop("children")
            .and_then(|c| template_of(c, &self.scope))
            .is_some()
    }

    /// The child in a single-child slot (`child`, `trigger`, `content`).
    pub fn child_id(&self, slot: &str) -> Option<&str> {
        self.component.str_prop(slot)
    }

    /// The traits of the component type of child `child_id` (the defaults for a child
    /// that is missing or of an unknown type). A container reads them to place the child:
    /// see [`ComponentTraits::fills_width`] and [`ComponentTraits::full_width`].
    pub fn child_traits(&self, child_id: &str) -> &ComponentTraits {
        match self.frame.surface.components().get(child_id) {
            Some(c) => self.frame.catalog.traits_or_default(c.component()),
            None => &DEFAULT_TRAITS,
        }
    }

    /// The traits of `component`'s type (the defaults for an unknown type): what
    /// [`Self::child_traits`] gives for a child the caller already looked up.
    pub(crate) fn traits_of(&self, component: &crate::model::Component) -> &ComponentTraits {
        self.frame.catalog.traits_or_default(component.component())
    }

    /// The `weight` (flex-grow) of child `child_id`: positive and finite (clamped to a
    /// million), else `0` for none. Feed these to [`plan_main`](crate::catalog::plan_main)(crate::catalog::plan_main).
    pub fn child_weight(&self, child_id: &str) -> f32 {
        self.frame
            .surface
            .components()
            .get(child_id)
            .map_or(0.0, |c| super::flex::weight_of(c))
    }

    /// The template of `children`, if it is one, with its current length (for virtualised
    /// lists: draw only the rows in view with [`Self::template_child_ui`]).
    pub fn children_template(&self) -> Option<ChildTemplate> {
        let tpl: Template<'_> = template_of(self.component.prop("children")?, &self.scope)?;
        let n = template_len(
            self.frame.surface.data.root(),
            &tpl,
            self.frame.surface.version,
        );
        Some(ChildTemplate {
            component_id: tpl.component_id.to_owned(),
            path: tpl.path.clone(),
            len: n,
        })
    }

    /// Draw template instance `i` of `children`.
    pub fn template_child_ui(&mut self, ui: &mut egui::Ui, i: usize) -> Option<egui::Response> {
        let component = Arc::clone(&self.component);
        let tpl = template_of(component.prop("children")?, &self.scope)?;
        let r = template_instance(
            self.frame.surface.data.root(),
            &tpl,
            i,
            self.frame.surface.version,
        )?;
        Some(self.child_ui(ui, &r))
    }

    /// Draw a child node.
    pub fn child_ui(&mut self, ui: &mut egui::Ui, child: &ChildRef) -> egui::Response {
        self.frame.node_ui(ui, &child.id, &child.scope, child.index)
    }

    /// Draw a child node into `ui`, a `Ui` the caller made for this child alone (a slot's
    /// `Ui`, a button's content): `ui` then doubles as the child's own node `Ui` (its
    /// AccessKit node and role), which saves a `Ui` per child. Draw nothing else into `ui`
    /// before or after; otherwise use [`Self::child_ui`].
    pub fn child_ui_exclusive(&mut self, ui: &mut egui::Ui, child: &ChildRef) -> egui::Response {
        self.frame.memo.bare_slot = Some(ui.unique_id());
        let r = self.frame.node_ui(ui, &child.id, &child.scope, child.index);
        self.frame.memo.bare_slot = None;
        r
    }

    /// Draw the component with this id at this node's scope (single-child slots).
    pub fn child_id_ui(&mut self, ui: &mut egui::Ui, id: &str) -> egui::Response {
        let scope = self.scope.clone();
        self.frame.node_ui(ui, id, &scope, None)
    }

    /// [`Self::child_id_ui`] into a `Ui` made for that child alone (see
    /// [`Self::child_ui_exclusive`]).
    pub fn child_id_ui_exclusive(&mut self, ui: &mut egui::Ui, id: &str) -> egui::Response {
        let scope = self.scope.clone();
        self.frame.memo.bare_slot = Some(ui.unique_id());
        let r = self.frame.node_ui(ui, id, &scope, None);
        self.frame.memo.bare_slot = None;
        r
    }
}

// ---- Accessible names ----

/// Accessible names: the text a subtree reads as, and the fallback name of an unlabelled input.
impl ComponentContext<'_, '_> {
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

// ---- Actions and events ----

/// Actions and events: the component's action, fired after a user gesture; URLs handed to the host;
/// events and errors for the host and the agent.
impl ComponentContext<'_, '_> {
    /// This component's `action`, typed (`None` when it has none, or one of no known
    /// shape). Dynamic values inside it are unresolved; [`Self::fire_action`] resolves them.
    pub fn action(&self) -> Option<ComponentAction> {
        ComponentAction::from_value(&self.component.prop("action")?.to_value())
    }

    /// Fire this component's `action` after a user gesture. An `event` action becomes an
    /// [`Event::Action`] with its context resolved in this scope; a `functionCall` runs
    /// locally (`openUrl` becomes an [`Event::OpenUrl`] when the URL policy allows it, see
    /// [`Self::open_url`]). Nothing
    /// happens while a check fails. Returns whether anything was fired.
    pub fn fire_action(&mut self) -> bool {
        if self.checks().iter().any(|c| !c.valid) {
            return false;
        }
        match self.action() {
            Some(ComponentAction::Event {
                name,
                context,
                user_message,
            }) => {
                let (context, user_message, halted) = self.with_eval(|cx| {
                    let context = context
                        .iter()
                        .map(|(k, v)| (k.clone(), cx.resolve_deep(v)))
                        .collect();
                    let um = user_message
                        .as_ref()
                        .map(|u| coerce::to_display_string(&cx.resolve(u)));
                    // v1.0: a context waiting on, or failed by, an agent function halts the
                    // action pipeline.
                    let halted = cx.is_pending()
                        || cx
                            .take_diagnostics()
                            .iter()
                            .any(|d| matches!(d, A2uiError::AgentFunction { .. }));
                    (context, um, halted)
                });
                if halted {
                    return false;
                }
                let event = ActionEvent {
                    surface_id: self.frame.surface.id.clone(),
                    source_component_id: self.component.id().to_owned(),
                    name,
                    context,
                    timestamp: now_timestamp(),
                    user_message,
                    version: self.frame.surface.version,
                    scope: self.scope.clone().into_owned(),
                };
                self.frame.events.push(Event::Action(event));
                true
            }
            Some(ComponentAction::FunctionCall {
                call,
                args,
                function_call,
            }) => {
                if call == "openUrl" {
                    let url = self.with_eval(|cx| {
                        args.get("url")
                            .map(|u| coerce::to_display_string(&cx.resolve(u)))
                            .unwrap_or_default()
                    });
                    return self.open_url(&url);
                }
                // A call run from the handler of a click or key press carries the gesture
                // (`callMcpTool` needs it for a tool that is not read-only).
                let gesture = crate::url_policy::user_activated(&self.frame.ctx);
                let result = self.with_eval_as(gesture, |cx| cx.call(&function_call));
                if let Err(e) = result {
                    self.report_once(&format!("call:{call}"), e);
                    return false;
                }
                true
            }
            None => false,
        }
    }

    /// [`Self::fire_action`] with its context resolved at another data scope: a
    /// component that draws items of a collection itself (a table row) fires its action
    /// for one item, whose fields the action's `{"path"}`s then name relatively. The
    /// action event carries that scope.
    pub fn fire_action_at(&mut self, scope: &str) -> bool {
        let saved = std::mem::replace(&mut self.scope, scope_of(scope));
        let fired = self.fire_action();
        self.scope = saved;
        fired
    }

    /// Ask the host to open a URL after a user gesture. The renderer's
    /// [`UrlPolicy`](crate::url_policy::UrlPolicy) decides (by default: `http`/`https`
    /// only, and only when this frame's input holds a click, a key press or an
    /// assistive-technology action); a refused URL becomes an error event. The URL handed
    /// to the host is cleaned of the characters browsers ignore.
    pub fn open_url(&mut self, url: &str) -> bool {
        let max = self.frame.limits.max_open_url_bytes;
        if url.len() > max {
            self.frame.events.push(Event::Error(Rejected::new(
                Some(self.frame.surface.id.clone()),
                self.frame.surface.version,
                A2uiError::LimitExceeded {
                    what: "max_open_url_bytes",
                    limit: max,
                    actual: url.len(),
                },
            )));
            return false;
        }
        let activated = crate::url_policy::user_activated(&self.frame.ctx);
        match self
            .frame
            .options
            .url_policy
            .check(url, crate::url_policy::UrlUse::Open, activated)
        {
            Ok(()) => {
                self.frame.events.push(Event::OpenUrl {
                    surface_id: self.frame.surface.id.clone(),
                    source_component_id: self.component.id().to_owned(),
                    url: crate::url_policy::clean(url),
                });
                true
            }
            Err(refusal) => {
                let e = A2uiError::UrlRefused {
                    url: url.chars().take(200).collect(),
                    refusal,
                };
                self.frame.events.push(Event::Error(Rejected::new(
                    Some(self.frame.surface.id.clone()),
                    self.frame.surface.version,
                    e,
                )));
                false
            }
        }
    }

    /// Queue an event for the host.
    pub fn emit(&mut self, event: Event) {
        self.frame.events.push(event);
    }

    /// Report an error to the agent, once per key for this surface.
    pub fn report_once(&mut self, key: &str, error: A2uiError) {
        self.frame
            .report_once(format!("{}:{key}", self.component.id()), error);
    }
}

fn truncate(s: String, max: usize) -> String {
    if s.len() <= max {
        return s;
    }
    let mut out: String = s.chars().take(max).collect();
    if out.len() < s.len() {
        out.push('…');
    }
    out
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
