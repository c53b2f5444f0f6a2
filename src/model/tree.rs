//! The component tree of a surface, walked from its root: children of every slot,
//! templates expanded per data item with their scopes, and guards against missing
//! children, cycles, and runaway depth.

use std::borrow::Cow;
use std::ops::ControlFlow;

use serde_json::Value;

use super::{Catalogs, Component, PropRef, Surface};
use crate::error::A2uiError;
use crate::limits::Limits;
use crate::model::data_model::{get_segments, parse_pointer, resolve_path};
use crate::protocol::{Version, escape_pointer};

/// A reference from a parent to a child, with the child's data scope.
#[derive(Clone, Debug, PartialEq)]
pub struct ChildRef {
    /// The child's component id.
    pub id: String,
    /// The child's data-context path (`/items/0` for a template instance).
    pub scope: String,
    /// Where the parent refers to it, in the wire vocabulary of the surface's version
    /// (`child`, `children`, `trigger`, `tabs[1].child`, v0.8 `entryPointChild`...).
    /// Borrowed for the fixed slot names, so listing children allocates no slot text.
    pub slot: Cow<'static, str>,
    /// For template instances, the index (or v0.8 key position) of the item.
    pub index: Option<usize>,
}

/// The slot order of the conformance format.
const SLOT_ORDER: &[&str] = &["child", "children", "trigger", "content", "tabs"];

/// One template expansion: `{componentId, path}` against the parent's scope.
#[derive(Clone, Debug, PartialEq)]
pub struct Template<'a> {
    /// The template component.
    pub component_id: &'a str,
    /// The collection's absolute path.
    pub path: String,
}

/// The template a ChildList value describes, if it is one.
pub fn template_of<'a>(children: PropRef<'a>, scope: &str) -> Option<Template<'a>> {
    let m = children.as_object()?;
    let component_id = m.get("componentId")?.as_str()?;
    let path = m.get("path")?.as_str()?;
    Some(Template {
        component_id,
        path: resolve_path(path, scope),
    })
}

/// The number of instances a template expands to over the current data.
pub fn template_len(data: &Value, tpl: &Template<'_>, version: Version) -> usize {
    match collection(data, &tpl.path) {
        Some(Value::Array(a)) => a.len(),
        Some(Value::Object(m)) if version == Version::V0_8 => m.len(),
        _ => 0,
    }
}

/// The child reference of template instance `i` (array index, or v0.8 i-th key).
pub fn template_instance(
    data: &Value,
    tpl: &Template<'_>,
    i: usize,
    version: Version,
) -> Option<ChildRef> {
    let seg = match collection(data, &tpl.path)? {
        Value::Array(a) if i < a.len() => i.to_string(),
        Value::Object(m) if version == Version::V0_8 => escape_pointer(m.keys().nth(i)?),
        _ => return None,
    };
    let base = tpl.path.trim_end_matches('/');
    Some(ChildRef {
        id: tpl.component_id.to_owned(),
        scope: format!("{base}/{seg}"),
        slot: Cow::Borrowed("children"),
        index: Some(i),
    })
}

fn collection<'d>(data: &'d Value, path: &str) -> Option<&'d Value> {
    let segs = parse_pointer(path).ok()?;
    get_segments(data, &segs)
}

/// Every child of `component` in conformance slot order, templates expanded (at most
/// `max_instances` per template).
pub fn child_refs(
    component: &Component,
    scope: &str,
    data: &Value,
    version: Version,
    max_instances: usize,
) -> Vec<ChildRef> {
    // Sized for an explicit list (the usual case), so it does not grow child by child.
    let explicit = component
        .prop("children")
        .and_then(PropRef::as_array)
        .map_or(0, |a| a.len());
    let mut out = Vec::with_capacity(explicit);
    for_each_child(component, scope, data, version, max_instances, |c| {
        out.push(c);
        ControlFlow::Continue(())
    });
    out
}

/// [`child_refs`] one child at a time, without collecting them: `f` may stop the walk
/// early with [`ControlFlow::Break`]. Template instances are made as they are visited, so
/// a walk cut short never builds the references of a 100,000-item template.
pub fn for_each_child(
    component: &Component,
    scope: &str,
    data: &Value,
    version: Version,
    max_instances: usize,
    mut f: impl FnMut(ChildRef) -> ControlFlow<()>,
) {
    let v08 = version == Version::V0_8;
    for slot in SLOT_ORDER {
        let Some(v) = component.prop(slot) else {
            continue;
        };
        let flow = match *slot {
            "child" | "trigger" | "content" => {
                if let Some(id) = v.as_str() {
                    let wire = match (v08, *slot) {
                        (true, "trigger") => "entryPointChild",
                        (true, "content") => "contentChild",
                        (_, s) => s,
                    };
                    f(ChildRef {
                        id: id.to_owned(),
                        scope: scope.to_owned(),
                        slot: Cow::Borrowed(wire),
                        index: None,
                    })
                } else {
                    ControlFlow::Continue(())
                }
            }
            "children" => match v.as_array() {
                Some(ids) => ids.iter().filter_map(PropRef::as_str).try_for_each(|id| {
                    f(ChildRef {
                        id: id.to_owned(),
                        scope: scope.to_owned(),
                        slot: Cow::Borrowed("children"),
                        index: None,
                    })
                }),
                None => match template_of(v, scope) {
                    Some(tpl) => for_each_instance(data, &tpl, version, max_instances, &mut f),
                    None => ControlFlow::Continue(()),
                },
            },
            "tabs" => {
                if let Some(tabs) = v.as_array() {
                    let name = if v08 { "tabItems" } else { "tabs" };
                    tabs.iter().enumerate().try_for_each(|(i, t)| {
                        if let Some(id) = t.get("child").and_then(PropRef::as_str) {
                            f(ChildRef {
                                id: id.to_owned(),
                                scope: scope.to_owned(),
                                slot: Cow::Owned(format!("{name}[{i}].child")),
                                index: None,
                            })
                        } else {
                            ControlFlow::Continue(())
                        }
                    })
                } else {
                    ControlFlow::Continue(())
                }
            }
            _ => ControlFlow::Continue(()),
        };
        if flow.is_break() {
            return;
        }
    }
}

/// Every instance of a template (at most `max`), in order, made one at a time.
fn for_each_instance(
    data: &Value,
    tpl: &Template<'_>,
    version: Version,
    max: usize,
    f: &mut impl FnMut(ChildRef) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let base = tpl.path.trim_end_matches('/');
    let make = |seg: &dyn std::fmt::Display, i: usize| ChildRef {
        id: tpl.component_id.to_owned(),
        scope: format!("{base}/{seg}"),
        slot: Cow::Borrowed("children"),
        index: Some(i),
    };
    match collection(data, &tpl.path) {
        Some(Value::Array(a)) => (0..a.len().min(max)).try_for_each(|i| f(make(&i, i))),
        Some(Value::Object(m)) if version == Version::V0_8 => m
            .keys()
            .take(max)
            .enumerate()
            .try_for_each(|(i, k)| f(make(&escape_pointer(k), i))),
        _ => ControlFlow::Continue(()),
    }
}

/// Property names that hold child references (left out of resolved props).
pub fn is_structural(prop: &str) -> bool {
    matches!(
        prop,
        "child" | "children" | "trigger" | "content" | "entryPointChild" | "contentChild"
    )
}

/// What a node of the resolved tree is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// A component that exists and was walked.
    Normal,
    /// The referenced id does not exist (yet).
    Missing,
    /// The same `(id, scope)` is already an ancestor; the walk stops here.
    Cycle,
    /// Deeper than `Limits::max_tree_depth`; the walk stops here.
    Truncated,
    /// Past the surface's node budget (`Limits::max_nodes`): the walk stops here, and this
    /// one node stands for every sibling left after it.
    OverBudget,
}

/// A node of the resolved tree.
#[derive(Clone, Debug, PartialEq)]
pub struct TreeNode {
    /// Component id (template instances keep the template's id).
    pub id: String,
    /// Type name, `None` when missing.
    pub component: Option<String>,
    /// Data-context path.
    pub scope: String,
    /// Slot in the parent, `None` for the root.
    pub slot: Option<String>,
    /// What the node is.
    pub kind: NodeKind,
    /// The component's catalog has no such type.
    pub unknown: bool,
    /// Children, in slot order.
    pub children: Vec<Self>,
}

impl TreeNode {
    /// Nodes whose component exists (instances, cycle, truncated and over-budget nodes
    /// included).
    pub fn node_count(&self) -> usize {
        usize::from(self.component.is_some())
            + self.children.iter().map(Self::node_count).sum::<usize>()
    }

    /// Nodes with `missing`.
    pub fn missing_count(&self) -> usize {
        usize::from(self.kind == NodeKind::Missing)
            + self.children.iter().map(Self::missing_count).sum::<usize>()
    }
}

/// Whether the component's catalog defines its type (`false` also for an unknown catalog).
pub fn is_known_type(surface: &Surface, component: &Component, catalogs: &Catalogs) -> bool {
    let cat = component.catalog_id().or(surface.catalog_id.as_deref());
    cat.and_then(|c| catalogs.get(c))
        .is_some_and(|c| c.has_component(component.wire_component()))
}

/// The guards every walk of a surface's tree applies to each node, in this order: the node
/// budget ([`Limits::max_nodes`]), a missing component, a cycle (the same `(id, scope)` is
/// already an ancestor) and the depth limit ([`Limits::max_tree_depth`]). One
/// implementation, shared by the conformance dump walk ([`resolve_tree`]) and the frame walk
/// of the renderer, so the two can never disagree on where a tree is cut.
#[derive(Debug)]
pub(crate) struct NodeGuards {
    /// `(id, scope)` of every ancestor of the node being visited: the first `depth`
    /// entries. The entries past it are kept for their buffers, which the next node
    /// entered at that depth reuses (a walk enters every node: no allocation per node).
    stack: Vec<(String, String)>,
    /// How many entries of `stack` are ancestors.
    depth: usize,
    /// Nodes the walk may still visit.
    budget: usize,
    max_depth: usize,
}

impl NodeGuards {
    /// Guards for one walk under `limits`.
    pub(crate) fn new(limits: &Limits) -> Self {
        Self {
            stack: Vec::new(),
            depth: 0,
            budget: limits.max_nodes,
            max_depth: limits.max_tree_depth,
        }
    }

    /// Check the node `(id, scope)` (`exists`: whether its component is known) and spend
    /// one node of the budget on it. [`NodeKind::Normal`] means it may be walked: the
    /// caller then brackets its children with [`Self::enter`] and [`Self::leave`].
    pub(crate) fn check(&mut self, id: &str, scope: &str, exists: bool) -> NodeKind {
        if self.budget == 0 {
            return NodeKind::OverBudget;
        }
        self.budget -= 1;
        if !exists {
            return NodeKind::Missing;
        }
        if self.ancestors().iter().any(|(i, s)| i == id && s == scope) {
            return NodeKind::Cycle;
        }
        if self.depth >= self.max_depth {
            return NodeKind::Truncated;
        }
        NodeKind::Normal
    }

    /// Enter a node that passed [`Self::check`].
    pub(crate) fn enter(&mut self, id: &str, scope: &str) {
        match self.stack.get_mut(self.depth) {
            Some((i, s)) => {
                i.clear();
                i.push_str(id);
                s.clear();
                s.push_str(scope);
            }
            None => self.stack.push((id.to_owned(), scope.to_owned())),
        }
        self.depth += 1;
    }

    /// Leave the node last entered.
    pub(crate) fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// The entered nodes, outermost first.
    fn ancestors(&self) -> &[(String, String)] {
        self.stack.get(..self.depth).unwrap_or_default()
    }

    /// How many ancestors the next node has (0 at the root).
    pub(crate) fn depth(&self) -> usize {
        self.depth
    }

    /// The id of the innermost node entered.
    pub(crate) fn parent(&self) -> Option<&str> {
        self.ancestors().last().map(|(id, _)| id.as_str())
    }

    /// Nodes left in the budget.
    pub(crate) fn budget(&self) -> usize {
        self.budget
    }
}

/// Walk the surface from its root. Returns `None` when the root component does not exist;
/// cycles are reported as errors (once per cut), and so is the node budget
/// ([`Limits::max_nodes`]), once per walk.
pub fn resolve_tree(
    surface: &Surface,
    catalogs: &Catalogs,
    limits: &Limits,
) -> (Option<TreeNode>, Vec<A2uiError>) {
    if !surface.components().contains_key(&surface.root_id) {
        return (None, Vec::new());
    }
    let mut walk = Walk {
        surface,
        catalogs,
        limits,
        guards: NodeGuards::new(limits),
        errors: Vec::new(),
    };
    let root = ChildRef {
        id: surface.root_id.clone(),
        scope: "/".to_owned(),
        slot: Cow::Borrowed(""),
        index: None,
    };
    let node = walk.node(&root, None);
    (Some(node), walk.errors)
}

/// The state of one tree walk.
struct Walk<'a> {
    surface: &'a Surface,
    catalogs: &'a Catalogs,
    limits: &'a Limits,
    guards: NodeGuards,
    errors: Vec<A2uiError>,
}

impl Walk<'_> {
    fn node(&mut self, r: &ChildRef, slot: Option<String>) -> TreeNode {
        let component = self.surface.components().get(&r.id);
        let mut node = TreeNode {
            id: r.id.clone(),
            component: component.map(|c| c.wire_component().to_owned()),
            scope: r.scope.clone(),
            slot,
            kind: NodeKind::Normal,
            unknown: component.is_some_and(|c| !is_known_type(self.surface, c, self.catalogs)),
            children: Vec::new(),
        };
        node.kind = self.guards.check(&r.id, &r.scope, component.is_some());
        match node.kind {
            NodeKind::Normal => {}
            NodeKind::OverBudget => {
                if !self.errors.iter().any(|e| {
                    matches!(
                        e,
                        A2uiError::LimitExceeded {
                            what: "max_nodes",
                            ..
                        }
                    )
                }) {
                    self.errors.push(A2uiError::LimitExceeded {
                        what: "max_nodes",
                        limit: self.limits.max_nodes,
                        actual: self.limits.max_nodes + 1,
                    });
                }
                return node;
            }
            NodeKind::Cycle => {
                self.errors.push(A2uiError::Cycle(r.id.clone()));
                return node;
            }
            NodeKind::Missing | NodeKind::Truncated => return node,
        }
        let Some(c) = component else {
            return node;
        };
        self.guards.enter(&r.id, &r.scope);
        let surface = self.surface;
        let mut children = Vec::new();
        for_each_child(
            c,
            &r.scope,
            surface.data.root(),
            surface.version,
            self.limits.max_template_instances,
            |child| {
                let slot = Some(child.slot.clone().into_owned());
                let n = self.node(&child, slot);
                let over = n.kind == NodeKind::OverBudget;
                children.push(n);
                if over {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            },
        );
        node.children = children;
        self.guards.leave();
        node
    }
}
