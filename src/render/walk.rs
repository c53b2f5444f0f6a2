//! The per-frame walk of one surface: every node drawn with its guards (missing, cycle,
//! depth, node budget, unknown type, composition), each through its renderer with a
//! [`ComponentContext`]; and what the walk keeps for one frame (derived styles, types met)
//! and between frames (the surface's resolution cache).

use std::collections::HashSet;
use std::sync::Arc;

use serde_json::Value;

use super::catalog::Catalog;
use super::context::ComponentContext;
use super::{RendererOptions, a11y};
use crate::action::Event;
use crate::error::A2uiError;
use crate::error::Rejected;
use crate::eval::{PropDynamic, prop_kind};
use crate::limits::Limits;
use crate::model::tree::{ChildRef, NodeGuards, NodeKind, is_known_type};
use crate::model::{Catalogs, Component, Surface};

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
    /// The slots open in this walk (the slot protocol, see [`super::slot`]).
    pub(crate) slots: super::slot::SlotStack,
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
    pub(super) styles: Vec<(Arc<egui::Style>, egui::Id, Arc<egui::Style>)>,
    /// Component types met this frame: (wire type, type, renderer and role).
    pub(super) types: Vec<(String, String, Option<TypeEntry>)>,
    /// The `Ui` of a flex slot about to draw one node (see
    /// [`ComponentContext::child_ui_exclusive`]).
    pub(super) bare_slot: Option<egui::Id>,
    /// The surface's resolution cache, taken out of egui memory on first use and put back
    /// when the frame ends (see [`ResolveCache`]).
    pub(super) resolved: std::cell::RefCell<Option<ResolveCache>>,
    /// The function calls this frame's walk may still evaluate
    /// ([`Limits::max_calls_per_frame`], [`Limits::max_call_bytes_per_frame`]).
    pub(super) budget: crate::eval::CallBudget,
}

/// Resolution cached between frames for one surface: the display strings of properties
/// bound to the data model, and what a `Text` derives from its string (its Markdown blocks,
/// its min-content width). Valid for one (components, data model) revision of the surface:
/// any update of either clears it, so a surface nobody changes is not resolved again
/// every frame. Entries are keyed by the node's widget id (surface, component id, scope,
/// type generation) and the property name.
#[derive(Clone, Default)]
pub(crate) struct ResolveCache {
    pub(super) revision: (u64, u64),
    pub(super) strings: egui::IdMap<String>,
    /// What components derived from a property's string ([`ComponentContext::memo`]).
    pub(super) memos: egui::IdMap<Arc<dyn std::any::Any + Send + Sync>>,
    /// Scalar values of path-bound properties (numbers, booleans of sliders and check
    /// boxes); larger values are resolved each time rather than copied here.
    pub(super) values: egui::IdMap<Value>,
    /// Each node's children ([`ComponentContext::children_shared`]): listing them makes two
    /// strings per child, which a steady frame would otherwise allocate and free again.
    pub(super) children: egui::IdMap<Arc<[ChildRef]>>,
    /// The call objects of function-call properties as `Value`s (a function checks its
    /// arguments as a `Map`), made once per revision instead of on every frame.
    pub(super) calls: egui::IdMap<Arc<Value>>,
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
    pub(super) fn style(
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
    pub(super) fn with_resolve_cache<R>(&self, f: impl FnOnce(&mut ResolveCache) -> R) -> R {
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
    pub(super) fn report_once(&mut self, key: String, error: A2uiError) {
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
pub(super) fn scope_of(scope: &str) -> std::borrow::Cow<'static, str> {
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
