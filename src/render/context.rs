//! The per-frame walk of one surface and the [`ComponentContext`] handed to every
//! component renderer: bound values, two-way writes, children, checks, actions, state.

use std::collections::HashSet;
use std::sync::Arc;

use serde_json::{Map, Value};

use super::catalog::Catalog;
use super::{RendererOptions, a11y};
use crate::action::{ActionEvent, Event, now_timestamp};
use crate::error::A2uiError;
use crate::error::Rejected;
use crate::eval::checks::{CheckResult, evaluate_stored_checks, first_failure};
use crate::eval::{EvalContext, PropDynamic, coerce, prop_kind};
use crate::limits::Limits;
use crate::model::tree::{
    ChildRef, NodeGuards, NodeKind, Template, child_refs, is_known_type, template_instance,
    template_len, template_of,
};
use crate::model::{Catalogs, Component, PropRef, Surface};
use crate::protocol::Version;

/// The state of one surface's walk during a frame.
pub(crate) struct SurfaceFrame<'f> {
    pub(crate) surface: &'f mut Surface,
    pub(crate) catalog: &'f Catalog,
    pub(crate) catalogs: &'f Catalogs,
    pub(crate) options: &'f RendererOptions,
    pub(crate) limits: &'f Limits,
    pub(crate) events: &'f mut Vec<Event>,
    pub(crate) reported_unknown: &'f mut HashSet<(String, String)>,
    /// The node guards (budget, cycle, depth) shared with the conformance walk.
    pub(crate) guards: NodeGuards,
    /// The egui context (widget-local state lives in its memory).
    pub(crate) ctx: egui::Context,
    /// v1.0 remote function calls.
    pub(crate) agent_calls: &'f crate::eval::agent_calls::AgentCalls,
    /// The store drawn (evaluation contexts carry it: `callMcpTool` checks it).
    pub(crate) store_id: crate::model::StoreId,
    /// Where drawn instances are recorded, when the host asked for geometry.
    pub(crate) geometry: Option<&'f mut Vec<super::DrawnInstance>>,
    /// The box the node being drawn reported as its own (see
    /// [`ComponentContext::set_geometry_box`]).
    pub(crate) box_override: Option<egui::Rect>,
    /// What this frame's walk works out once and reuses (derived egui styles).
    pub(crate) memo: FrameMemo,
    /// Who the surface comes from, as the host or transport said (never the agent).
    pub(crate) origin: Option<&'f crate::model::AgentOrigin>,
}

/// A component type's renderer and the AccessKit role of its node.
type TypeEntry = (
    Arc<dyn super::catalog::ComponentRenderer>,
    Option<egui::accesskit::Role>,
);

/// What one frame's walk of a surface works out once and reuses.
#[derive(Default)]
pub(crate) struct FrameMemo {
    /// Shared styles: (parent style, key, derived). egui clones the whole `Style` on every
    /// `style_mut`/`spacing_mut`; sharing one derived `Arc` per parent style and key makes
    /// that one clone per frame instead of one per widget (see
    /// [`ComponentContext::shared_style`]).
    styles: Vec<(Arc<egui::Style>, egui::Id, Arc<egui::Style>)>,
    /// Component types met this frame: (wire type, type, renderer and role).
    types: Vec<(String, String, Option<TypeEntry>)>,
    /// The `Ui` of a flex slot about to draw one node (see
    /// [`ComponentContext::child_ui_exclusive`]).
    bare_slot: Option<egui::Id>,
    /// The surface's resolution cache, taken out of egui memory on first use and put back
    /// when the frame ends (see [`ResolveCache`]).
    resolved: std::cell::RefCell<Option<ResolveCache>>,
    /// The function calls this frame's walk may still evaluate
    /// ([`Limits::max_calls_per_frame`], [`Limits::max_call_bytes_per_frame`]).
    budget: crate::eval::CallBudget,
}

/// Resolution cached between frames for one surface: the display strings of properties
/// bound to the data model, and what a `Text` derives from its string (its Markdown blocks,
/// its min-content width). Valid for one (components, data model) revision of the surface:
/// any update of either clears it, so a surface nobody changes is not resolved again
/// every frame. Entries are keyed by the node's widget id (surface, component id, scope,
/// type generation) and the property name.
#[derive(Clone, Default)]
pub(crate) struct ResolveCache {
    revision: (u64, u64),
    strings: egui::IdMap<String>,
    /// What components derived from a property's string ([`ComponentContext::memo`]).
    memos: egui::IdMap<Arc<dyn std::any::Any + Send + Sync>>,
    /// Scalar values of path-bound properties (numbers, booleans of sliders and check
    /// boxes); larger values are resolved each time rather than copied here.
    values: egui::IdMap<Value>,
    /// Each node's children ([`ComponentContext::children_shared`]): listing them makes two
    /// strings per child, which a steady frame would otherwise allocate and free again.
    children: egui::IdMap<Arc<[ChildRef]>>,
    /// The call objects of function-call properties as `Value`s (a function checks its
    /// arguments as a `Map`), made once per revision instead of on every frame.
    calls: egui::IdMap<Arc<Value>>,
}

impl ResolveCache {
    /// Clear when the surface changed since the entries were made, or when the cache grew
    /// past `max` entries (nodes scrolled out of a list and never drawn again).
    fn validate(&mut self, revision: (u64, u64), max: usize) {
        if self.revision != revision
            || self.strings.len()
                + self.memos.len()
                + self.values.len()
                + self.children.len()
                + self.calls.len()
                > max
        {
            self.revision = revision;
            self.strings.clear();
            self.memos.clear();
            self.values.clear();
            self.children.clear();
            self.calls.clear();
        }
    }
}

impl Drop for SurfaceFrame<'_> {
    fn drop(&mut self) {
        if let Some(cache) = self.memo.resolved.get_mut().take() {
            let key = resolve_cache_key(self.surface.serial());
            self.ctx.data_mut(|d| d.insert_temp(key, cache));
        }
    }
}

/// Where a surface's [`ResolveCache`] lives in egui memory: keyed by the surface's serial,
/// so two stores with a surface of the same id do not share (and keep clearing) one cache.
fn resolve_cache_key(surface_serial: u64) -> egui::Id {
    egui::Id::unique(("a2ui-resolve-cache", surface_serial))
}

/// Drop a deleted surface's resolution cache from egui memory.
pub(crate) fn release_resolve_cache(ctx: &egui::Context, surface_serial: u64) {
    ctx.data_mut(|d| d.remove_temp::<ResolveCache>(resolve_cache_key(surface_serial)));
}

/// Whether egui memory holds a resolution cache for the surface (tests).
#[cfg(test)]
pub(crate) fn has_resolve_cache(ctx: &egui::Context, surface_serial: u64) -> bool {
    ctx.data(|d| {
        d.get_temp::<ResolveCache>(resolve_cache_key(surface_serial))
            .is_some()
    })
}

impl FrameMemo {
    /// `base` changed by `change`, shared with every other request for `key` this frame.
    fn style(
        &mut self,
        base: &Arc<egui::Style>,
        key: egui::Id,
        change: impl FnOnce(&mut egui::Style),
    ) -> Arc<egui::Style> {
        if let Some((_, _, derived)) = self
            .styles
            .iter()
            .find(|(b, k, _)| *k == key && Arc::ptr_eq(b, base))
        {
            return Arc::clone(derived);
        }
        let mut style = (**base).clone();
        change(&mut style);
        let derived = Arc::new(style);
        // Bounded: a frame sees a handful of parent styles.
        if self.styles.len() >= 64 {
            self.styles.clear();
        }
        self.styles
            .push((Arc::clone(base), key, Arc::clone(&derived)));
        derived
    }
}

impl SurfaceFrame<'_> {
    /// Run `f` on the surface's resolution cache, made valid for its current revision.
    fn with_resolve_cache<R>(&self, f: impl FnOnce(&mut ResolveCache) -> R) -> R {
        let mut slot = self.memo.resolved.borrow_mut();
        let cache = slot.get_or_insert_with(|| {
            let key = resolve_cache_key(self.surface.serial());
            self.ctx
                .data_mut(|d| d.remove_temp::<ResolveCache>(key))
                .unwrap_or_default()
        });
        cache.validate(
            self.surface.revision(),
            self.limits.max_nodes.saturating_mul(8),
        );
        f(cache)
    }

    /// v1.0 `MISSING_DATA_BINDING`: a warning, once per surface and path, for each
    /// property bound to a path that holds nothing.
    fn report_missing_bindings(&mut self, component: &Component, scope: &str) {
        for (_, v) in component.props().iter() {
            if let PropDynamic::Path(p) = prop_kind(v) {
                let path = crate::model::data_model::resolve_path(p, scope);
                let found = crate::model::data_model::get_pointer(self.surface.data.root(), &path);
                if matches!(found, Ok(None)) {
                    self.report_once(
                        format!("missing-binding:{path}"),
                        A2uiError::MissingDataBinding { path },
                    );
                }
            }
        }
    }

    /// Report an error once per surface and key (never once per frame).
    fn report_once(&mut self, key: String, error: A2uiError) {
        if self.reported_unknown.insert((self.surface.id.clone(), key)) {
            self.events.push(Event::Error(Rejected::new(
                Some(self.surface.id.clone()),
                self.surface.version,
                error,
            )));
        }
    }

    /// The renderer and AccessKit role of a component's type, `None` when its catalog does
    /// not have the type or nothing renders it. Worked out once per type and frame for
    /// components of the surface's catalog (a catalog lookup hashes its long id).
    fn type_entry(&mut self, component: &Component) -> Option<TypeEntry> {
        let memo = component.catalog_id().is_none();
        let (wire_type, type_name) = (component.wire_component(), component.component());
        if memo
            && let Some((_, _, entry)) = self
                .memo
                .types
                .iter()
                .find(|(wire, name, _)| wire == wire_type && name == type_name)
        {
            return entry.clone();
        }
        let entry = if is_known_type(self.surface, component, self.catalogs) {
            self.catalog.entry(component.component())
        } else {
            None
        };
        // Bounded: a surface uses a handful of types (a hostile one, at most this many
        // are remembered; the others are looked up every time).
        if memo && self.memo.types.len() < 64 {
            self.memo.types.push((
                component.wire_component().to_owned(),
                component.component().to_owned(),
                entry.clone(),
            ));
        }
        entry
    }

    /// Draw the node `id` at `scope`, with every guard: missing, cycle, depth, unknown type.
    pub(crate) fn node_ui(
        &mut self,
        ui: &mut egui::Ui,
        id: &str,
        scope: &str,
        index: Option<usize>,
    ) -> egui::Response {
        // The guards shared with the conformance walk (`NodeGuards`): the node budget
        // bounds the whole walk whatever its shape (shared children, self-expanding
        // templates, see `Limits`), then missing, cycle and depth.
        // Whether `ui` is a flex slot made for this node alone (taken at once, so no
        // descendant mistakes it for its own).
        let bare_slot = self.memo.bare_slot.take() == Some(ui.unique_id());
        let component = self.surface.components().get(id).cloned();
        match self.guards.check(id, scope, component.is_some()) {
            NodeKind::Normal => {}
            NodeKind::OverBudget => {
                self.report_once(
                    "max_nodes".to_owned(),
                    A2uiError::LimitExceeded {
                        what: "max_nodes",
                        limit: self.limits.max_nodes,
                        actual: self.limits.max_nodes + 1,
                    },
                );
                return error_placeholder(ui, "too many components");
            }
            NodeKind::Missing => return missing_placeholder(ui, id),
            NodeKind::Cycle => {
                self.report_once(format!("cycle:{id}"), A2uiError::Cycle(id.to_owned()));
                return error_placeholder(ui, &format!("cycle at {id}"));
            }
            NodeKind::Truncated => {
                self.report_once(
                    "depth".to_owned(),
                    A2uiError::LimitExceeded {
                        what: "max_tree_depth",
                        limit: self.limits.max_tree_depth,
                        actual: self.guards.depth() + 1,
                    },
                );
                return error_placeholder(ui, "too deep");
            }
        }
        let Some(component) = component else {
            return missing_placeholder(ui, id);
        };
        if self.surface.version == crate::protocol::Version::V1_0 {
            self.report_missing_bindings(&component, scope);
            let parent_type = match self.guards.parent() {
                None => "Surface".to_owned(),
                Some(pid) => self
                    .surface
                    .components()
                    .get(pid)
                    .map(|p| p.wire_component().to_owned())
                    .unwrap_or_default(),
            };
            let catalog = component
                .catalog_id()
                .or(self.surface.catalog_id.as_deref());
            if let Err(parent_rule) =
                self.catalogs
                    .check_composition(catalog, &parent_type, component.wire_component())
            {
                self.report_once(
                    format!("composition:{id}:{parent_type}"),
                    A2uiError::Unallowed {
                        parent_rule,
                        child: id.to_owned(),
                        child_type: component.wire_component().to_owned(),
                        parent_type: parent_type.clone(),
                    },
                );
                return error_placeholder(
                    ui,
                    &format!(
                        "{} is not allowed in {parent_type}",
                        component.wire_component()
                    ),
                );
            }
        }
        let entry = self.type_entry(&component);
        let Some((renderer, role)) = entry else {
            self.report_once(
                format!("type:{}", component.wire_component()),
                A2uiError::validation(
                    "",
                    format!("unknown component type {:?}", component.wire_component()),
                ),
            );
            if self.options.show_unsupported {
                return error_placeholder(
                    ui,
                    &format!("Unsupported component: {}", component.wire_component()),
                );
            }
            return ui.allocate_response(egui::Vec2::ZERO, egui::Sense::hover());
        };
        self.guards.enter(id, scope);
        let record = self.geometry.as_mut().map(|g| {
            g.push(super::DrawnInstance {
                surface: self.surface.id.clone(),
                id: id.to_owned(),
                component: component.wire_component().to_owned(),
                scope: scope.to_owned(),
                rect: None,
            });
            g.len() - 1
        });
        let outer_override = self.box_override.take();
        // The surface's serial, not its id: two stores drawn by one `DrawState` may both
        // have a surface `s`, and a surface created again under an old id starts afresh.
        let widget_id = egui::Id::unique((
            "a2ui",
            self.surface.serial(),
            id,
            scope,
            component.generation,
        ));
        // Each component gets its own `Ui`: an AccessKit node that carries `hidden` and
        // `live` for the whole subtree, with a telling role for containers. A flex slot
        // made for this node alone (see `ComponentContext::child_ui_exclusive`) is that `Ui`
        // already: no second one inside it.
        let (response, drawn_rect) = if bare_slot {
            if let Some(role) = role.filter(|r| *r != egui::accesskit::Role::GenericContainer) {
                ui.ctx()
                    .accesskit_node_builder(ui.unique_id(), |node| node.set_role(role));
            }
            let r = self.draw_component(ui, &*renderer, component, scope, index, widget_id);
            (r, ui.min_rect())
        } else {
            let mut builder = egui::UiBuilder::new().id_salt(widget_id);
            if let Some(role) = role {
                builder = builder.accessibility_role(role);
            }
            let scoped = ui.scope_builder(builder, |ui| {
                self.draw_component(ui, &*renderer, component, scope, index, widget_id)
            });
            (scoped.inner, scoped.response.rect)
        };
        self.guards.leave();
        let own = self.box_override.take();
        self.box_override = outer_override;
        if let (Some(i), Some(g)) = (record, self.geometry.as_mut())
            && let Some(entry) = g.get_mut(i)
        {
            entry.rect = own.or(Some(drawn_rect)).filter(|r| r.is_finite());
        }
        response
    }

    /// Draw one component into its own `Ui` (the node's AccessKit wrapper) and apply its
    /// `accessibility` attributes.
    fn draw_component(
        &mut self,
        ui: &mut egui::Ui,
        renderer: &dyn super::catalog::ComponentRenderer,
        component: Arc<Component>,
        scope: &str,
        index: Option<usize>,
        widget_id: egui::Id,
    ) -> egui::Response {
        let wrapper = ui.unique_id();
        let mut cx = ComponentContext {
            frame: self,
            component,
            scope: scope_of(scope),
            index,
            widget_id,
        };
        let r = renderer.ui(ui, &mut cx);
        if cx.component.props().contains_key("accessibility") {
            let attributes = cx.with_eval(|e| a11y::Accessibility::read(cx.component.props(), e));
            if !attributes.is_empty() {
                attributes.apply(ui.ctx(), wrapper, r.id);
            }
        }
        // Past the frame's call budget: one LIMIT_EXCEEDED for the surface.
        if let Some(e) = self.memo.budget.take_report() {
            self.report_once("call-budget".to_owned(), e);
        }
        r
    }
}

/// A node's scope: borrowed for the root scope, else copied.
fn scope_of(scope: &str) -> std::borrow::Cow<'static, str> {
    if scope == "/" {
        std::borrow::Cow::Borrowed("/")
    } else {
        std::borrow::Cow::Owned(scope.to_owned())
    }
}

/// A small "loading" placeholder for a child that has not arrived yet.
fn missing_placeholder(ui: &mut egui::Ui, id: &str) -> egui::Response {
    ui.horizontal(|ui| {
        ui.spinner();
        ui.weak("Loading…");
    })
    .response
    .on_hover_text(format!("component {id:?} has not arrived yet"))
}

/// A visible, non-fatal error box.
fn error_placeholder(ui: &mut egui::Ui, text: &str) -> egui::Response {
    egui::Frame::new()
        .stroke(egui::Stroke::new(1.0, ui.visuals().warn_fg_color))
        .corner_radius(4.0)
        .inner_margin(4.0)
        .show(ui, |ui| {
            ui.colored_label(ui.visuals().warn_fg_color, text);
        })
        .response
}

/// The agent's self-chosen name (`theme.agentDisplayName`), on one line, when it set one.
fn self_chosen_name(surface: &Surface) -> Option<String> {
    surface
        .theme
        .get("agentDisplayName")
        .and_then(Value::as_str)
        .map(crate::model::origin_one_line)
        .filter(|n| !n.is_empty())
}

/// The header above a surface: the origin the host or transport set (when it did), the
/// agent's icon (`theme.iconUrl`, through the URL policy; a generic agent glyph stands in
/// for a missing or refused one) and the agent's self-chosen name
/// (`theme.agentDisplayName`) shown only as such: "calls itself “…”". Without an origin it
/// is drawn only when the agent set a name or icon (and then says "Agent").
pub(crate) fn surface_header(
    ui: &mut egui::Ui,
    surface: &Surface,
    options: &RendererOptions,
    origin: Option<&crate::model::AgentOrigin>,
) {
    let self_named = self_chosen_name(surface);
    let icon = surface
        .theme
        .get("iconUrl")
        .and_then(Value::as_str)
        .filter(|u| !u.trim().is_empty());
    if origin.is_none() && self_named.is_none() && icon.is_none() {
        return;
    }
    let label = origin.map_or_else(|| "Agent".to_owned(), crate::model::AgentOrigin::label);
    let claim = self_named.map(|n| format!("calls itself \u{201c}{n}\u{201d}"));
    let a11y = match &claim {
        Some(c) => format!("{label}, {c}"),
        None => label.clone(),
    };
    ui.horizontal(|ui| {
        ui.ctx().accesskit_node_builder(ui.unique_id(), |node| {
            node.set_role(egui::accesskit::Role::Banner);
            node.set_label(a11y.clone());
        });
        ui.spacing_mut().item_spacing.x = 6.0;
        let side = 24.0;
        let shown = icon
            .filter(|u| options.url_policy.allows_media(u))
            .map(|url| {
                let spec = super::images::ImageSpec {
                    url,
                    alt: "",
                    size: super::images::BoxSize::Fixed(egui::Vec2::splat(side)),
                    fit: super::images::Fit::Cover,
                    circular: true,
                    corner_radius: 0.0,
                };
                super::images::image_ui(ui, &options.url_policy, &spec).1
            });
        if shown.is_none() {
            // The generic agent mark: the accent-coloured `smart_toy` glyph.
            let (rect, _) = ui.allocate_exact_size(egui::Vec2::splat(side), egui::Sense::hover());
            let accent = super::theme::readable_accent(
                ui.visuals(),
                surface
                    .primary_color()
                    .map(|[r, g, b]| egui::Color32::from_rgb(r, g, b)),
            );
            if super::icons::icon_font_ready(ui.ctx()) {
                ui.painter().text(
                    rect.center(),
                    egui::Align2::CENTER_CENTER,
                    '\u{f06c}',
                    egui::FontId::new(side * 0.85, super::icons::icon_family()),
                    accent,
                );
            } else {
                ui.painter()
                    .circle_filled(rect.center(), side * 0.4, accent);
            }
        }
        ui.add(egui::Label::new(egui::RichText::new(&label).strong()).truncate());
        if let Some(claim) = &claim {
            ui.add(egui::Label::new(egui::RichText::new(claim).weak()).truncate());
        }
    });
    ui.separator();
}

/// The frame the host draws around a surface whose store has an origin: a border in the
/// host's (not the agent's) colours, so the agent's UI has a visible edge it cannot draw
/// outside of.
pub(crate) fn origin_frame(ui: &egui::Ui) -> egui::Frame {
    let visuals = ui.visuals();
    egui::Frame::new()
        .stroke(egui::Stroke::new(
            1.0,
            visuals.widgets.noninteractive.bg_stroke.color,
        ))
        .corner_radius(6.0)
        .inner_margin(egui::Margin::same(6))
}

/// The line a `Modal` dialog starts with: whose dialog it is, as the host knows it.
pub fn modal_attribution(ui: &mut egui::Ui, origin: Option<&crate::model::AgentOrigin>) {
    let text = match origin {
        Some(o) => format!("From {}", o.label()),
        None => "From the agent".to_owned(),
    };
    ui.add(egui::Label::new(egui::RichText::new(text).weak()).truncate());
    ui.separator();
}

/// Where the text typed into an obscured field goes, as the host knows it.
pub fn obscured_destination(origin: Option<&crate::model::AgentOrigin>) -> String {
    origin.map_or_else(
        || "the agent".to_owned(),
        |o| o.host().unwrap_or(o.name()).to_owned(),
    )
}

/// What a [`ComponentRenderer`](super::catalog::ComponentRenderer) gets for one node:
/// its component, its data scope, and helpers to read bound values, write edits back,
/// draw children, evaluate checks and fire actions.
pub struct ComponentContext<'c, 'f> {
    pub(crate) frame: &'c mut SurfaceFrame<'f>,
    pub(crate) component: Arc<Component>,
    /// Borrowed for the root scope `/` (every node outside templates): no copy per node.
    pub(crate) scope: std::borrow::Cow<'static, str>,
    pub(crate) index: Option<usize>,
    pub(crate) widget_id: egui::Id,
}

impl ComponentContext<'_, '_> {
    /// The component being drawn.
    pub fn component(&self) -> &Component {
        &self.component
    }

    /// Its id.
    pub fn id(&self) -> &str {
        self.component.id()
    }

    /// Who the surface comes from, as the host or transport set it on the store (never
    /// the agent): what a component that sends the user's input somewhere names as its
    /// destination. `None` when nobody set one.
    pub fn origin(&self) -> Option<&crate::model::AgentOrigin> {
        self.frame.origin
    }

    /// The data-context path (`/` outside templates).
    pub fn scope(&self) -> &str {
        &self.scope
    }

    /// The template item index, inside a template instance.
    pub fn index(&self) -> Option<usize> {
        self.index
    }

    /// The surface id.
    pub fn surface_id(&self) -> &str {
        &self.frame.surface.id
    }

    /// The surface's protocol version.
    pub fn version(&self) -> Version {
        self.frame.surface.version
    }

    /// The surface (theme, data model, components).
    pub fn surface(&self) -> &Surface {
        self.frame.surface
    }

    /// The renderer options (URL policy, locale, ...).
    pub fn options(&self) -> &RendererOptions {
        self.frame.options
    }

    /// The style in force (spacing, type scale, control sizes).
    pub fn style(&self) -> &super::Style {
        &self.frame.options.style
    }

    /// Report the box this component draws, when it differs from the space its `Ui` took
    /// (a Card's frame without its outer margin, a Button's frame). Recorded by the
    /// geometry observable; an empty rectangle means "draws nothing".
    pub fn set_geometry_box(&mut self, rect: egui::Rect) {
        self.frame.box_override = Some(rect);
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

    /// How deep this node is in the surface's tree (the root is at depth 1).
    pub fn depth(&self) -> usize {
        self.frame.guards.depth()
    }

    /// The limits in force.
    pub fn limits(&self) -> &Limits {
        self.frame.limits
    }

    /// A stable egui id for this node: (surface, component id, scope, generation). Widget
    /// state keyed by it survives re-renders and unrelated updates, and resets when the
    /// component is replaced by one of another type.
    pub fn widget_id(&self) -> egui::Id {
        self.widget_id
    }

    /// `theme.primaryColor` as an egui colour.
    pub fn primary_color(&self) -> Option<egui::Color32> {
        self.frame
            .surface
            .primary_color()
            .map(|[r, g, b]| egui::Color32::from_rgb(r, g, b))
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

    /// The accent for foreground marks (links, icons, focus) on this surface: the agent's
    /// `primaryColor` made readable on the host's panel, else the host's hyperlink colour.
    /// Primary fills (filled buttons) follow the agent's `primaryColor` the same way.
    pub fn accent_color(&self, ui: &egui::Ui) -> egui::Color32 {
        super::theme::readable_accent(ui.visuals(), self.primary_color())
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

    /// The raw (unresolved) property, as stored (read it like a `serde_json::Value`, or
    /// make one with [`PropRef::to_value`]).
    pub fn prop(&self, name: &str) -> Option<PropRef<'_>> {
        self.component.prop(name)
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

    /// A literal enum-like property (`variant`, `justify`...), `None` when absent.
    pub fn literal_str(&self, name: &str) -> Option<&str> {
        self.component.str_prop(name)
    }

    /// The absolute data path a property is bound to, if it is a `{"path"}` binding.
    pub fn binding_path(&self, name: &str) -> Option<String> {
        self.binding_path_inner(name)
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

    fn binding_path_inner(&self, name: &str) -> Option<String> {
        match prop_kind(self.component.prop(name)?) {
            PropDynamic::Path(p) => Some(crate::model::data_model::resolve_path(p, &self.scope)),
            _ => None,
        }
    }

    fn local_key(&self, name: &str) -> egui::Id {
        self.widget_id.with(("a2ui-local", name))
    }

    fn local_edit(&self, name: &str) -> Option<Value> {
        let key = self.local_key(name);
        self.frame.ctx.data(|d| d.get_temp::<Value>(key))
    }

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

    /// The template of `children`, if it is one, with its current length (for virtualised
    /// lists: draw only the rows in view with [`Self::template_child_ui`]).
    pub fn children_template(&self) -> Option<(String, String, usize)> {
        let tpl: Template<'_> = template_of(self.component.prop("children")?, &self.scope)?;
        let n = template_len(
            self.frame.surface.data.root(),
            &tpl,
            self.frame.surface.version,
        );
        Some((tpl.component_id.to_owned(), tpl.path.clone(), n))
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

    /// [`Self::child_id_ui`] into a `Ui` made for that child alone (see
    /// [`Self::child_ui_exclusive`]).
    pub fn child_id_ui_exclusive(&mut self, ui: &mut egui::Ui, id: &str) -> egui::Response {
        let scope = self.scope.clone();
        self.frame.memo.bare_slot = Some(ui.unique_id());
        let r = self.frame.node_ui(ui, id, &scope, None);
        self.frame.memo.bare_slot = None;
        r
    }

    /// Draw the component with this id at this node's scope (single-child slots).
    pub fn child_id_ui(&mut self, ui: &mut egui::Ui, id: &str) -> egui::Response {
        let scope = self.scope.clone();
        self.frame.node_ui(ui, id, &scope, None)
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

    /// Fire this component's `action` after a user gesture. An `event` action becomes an
    /// [`Event::Action`] with its context resolved in this scope; a `functionCall` runs
    /// locally (`openUrl` becomes an [`Event::OpenUrl`] when the URL policy allows it, see
    /// [`Self::open_url`]). Nothing
    /// happens while a check fails. Returns whether anything was fired.
    pub fn fire_action(&mut self) -> bool {
        if self.checks().iter().any(|c| !c.valid) {
            return false;
        }
        let Some(action) = self.component.prop("action").map(PropRef::to_value) else {
            return false;
        };
        if let Some(Value::Object(ev)) = action.get("event") {
            let name = ev.get("name").and_then(Value::as_str).unwrap_or_default();
            let (context, user_message, halted) = self.with_eval(|cx| {
                let context = match ev.get("context") {
                    Some(Value::Object(c)) => c
                        .iter()
                        .map(|(k, v)| (k.clone(), cx.resolve_deep(v)))
                        .collect(),
                    _ => Map::new(),
                };
                let um = ev
                    .get("userMessage")
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
                name: name.to_owned(),
                context,
                timestamp: now_timestamp(),
                user_message,
                version: self.frame.surface.version,
                scope: self.scope.clone().into_owned(),
            };
            self.frame.events.push(Event::Action(event));
            return true;
        }
        if let Some(Value::Object(fc)) = action.get("functionCall") {
            let call = fc.get("call").and_then(Value::as_str).unwrap_or_default();
            if call == "openUrl" {
                let url = self.with_eval(|cx| {
                    fc.get("args")
                        .and_then(|a| a.get("url"))
                        .map(|u| coerce::to_display_string(&cx.resolve(u)))
                        .unwrap_or_default()
                });
                return self.open_url(&url);
            }
            // A call run from the handler of a click or key press carries the gesture
            // (`callMcpTool` needs it for a tool that is not read-only).
            let gesture = crate::url_policy::user_activated(&self.frame.ctx);
            let result = self.with_eval_as(gesture, |cx| cx.call(fc));
            if let Err(e) = result {
                self.report_once(&format!("call:{call}"), e);
                return false;
            }
            return true;
        }
        false
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
