//! The component tree of a surface, walked from its root: children of every slot,
//! templates expanded per data item with their scopes, and guards against missing
//! children, cycles, and runaway depth.

use std::borrow::Cow;

use serde_json::Value;

use super::{Component, KnownCatalogs, Surface};
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
pub fn template_of<'a>(children: &'a Value, scope: &str) -> Option<Template<'a>> {
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
    let v08 = version == Version::V0_8;
    let mut out = Vec::new();
    for slot in SLOT_ORDER {
        let Some(v) = component.props.get(*slot) else {
            continue;
        };
        match *slot {
            "child" | "trigger" | "content" => {
                if let Value::String(id) = v {
                    let wire = match (v08, *slot) {
                        (true, "trigger") => "entryPointChild",
                        (true, "content") => "contentChild",
                        (_, s) => s,
                    };
                    out.push(ChildRef {
                        id: id.clone(),
                        scope: scope.to_owned(),
                        slot: Cow::Borrowed(wire),
                        index: None,
                    });
                }
            }
            "children" => match v {
                Value::Array(ids) => {
                    for id in ids {
                        if let Value::String(id) = id {
                            out.push(ChildRef {
                                id: id.clone(),
                                scope: scope.to_owned(),
                                slot: Cow::Borrowed("children"),
                                index: None,
                            });
                        }
                    }
                }
                other => {
                    if let Some(tpl) = template_of(other, scope) {
                        let n = template_len(data, &tpl, version).min(max_instances);
                        for i in 0..n {
                            if let Some(c) = template_instance(data, &tpl, i, version) {
                                out.push(c);
                            }
                        }
                    }
                }
            },
            "tabs" => {
                if let Value::Array(tabs) = v {
                    let name = if v08 { "tabItems" } else { "tabs" };
                    for (i, t) in tabs.iter().enumerate() {
                        if let Some(Value::String(id)) = t.get("child") {
                            out.push(ChildRef {
                                id: id.clone(),
                                scope: scope.to_owned(),
                                slot: Cow::Owned(format!("{name}[{i}].child")),
                                index: None,
                            });
                        }
                    }
                }
            }
            _ => {}
        }
    }
    out
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
    pub children: Vec<TreeNode>,
}

impl TreeNode {
    /// Nodes whose component exists (instances, cycle and truncated nodes included).
    pub fn node_count(&self) -> usize {
        usize::from(self.kind != NodeKind::Missing)
            + self
                .children
                .iter()
                .map(TreeNode::node_count)
                .sum::<usize>()
    }

    /// Nodes with `missing`.
    pub fn missing_count(&self) -> usize {
        usize::from(self.kind == NodeKind::Missing)
            + self
                .children
                .iter()
                .map(TreeNode::missing_count)
                .sum::<usize>()
    }
}

/// Whether the component's catalog defines its type (`false` also for an unknown catalog).
pub fn is_known_type(surface: &Surface, component: &Component, catalogs: &KnownCatalogs) -> bool {
    let cat = component
        .catalog_id
        .as_deref()
        .or(surface.catalog_id.as_deref());
    cat.and_then(|c| catalogs.get(c))
        .is_some_and(|c| c.has_component(&component.wire_component))
}

/// Walk the surface from its root. Returns `None` when the root component does not exist;
/// cycles are reported as errors (once per cut).
pub fn resolve_tree(
    surface: &Surface,
    catalogs: &KnownCatalogs,
    limits: &Limits,
) -> (Option<TreeNode>, Vec<A2uiError>) {
    let mut errors = Vec::new();
    if !surface.components.contains_key(&surface.root_id) {
        return (None, errors);
    }
    let mut stack: Vec<(String, String)> = Vec::new();
    let root = ChildRef {
        id: surface.root_id.clone(),
        scope: "/".to_owned(),
        slot: Cow::Borrowed(""),
        index: None,
    };
    let node = walk(
        surface,
        catalogs,
        limits,
        &root,
        None,
        0,
        &mut stack,
        &mut errors,
    );
    (Some(node), errors)
}

#[allow(clippy::too_many_arguments)]
fn walk(
    surface: &Surface,
    catalogs: &KnownCatalogs,
    limits: &Limits,
    r: &ChildRef,
    slot: Option<String>,
    depth: usize,
    stack: &mut Vec<(String, String)>,
    errors: &mut Vec<A2uiError>,
) -> TreeNode {
    let Some(c) = surface.components.get(&r.id) else {
        return TreeNode {
            id: r.id.clone(),
            component: None,
            scope: r.scope.clone(),
            slot,
            kind: NodeKind::Missing,
            unknown: false,
            children: Vec::new(),
        };
    };
    let mut node = TreeNode {
        id: r.id.clone(),
        component: Some(c.wire_component.clone()),
        scope: r.scope.clone(),
        slot,
        kind: NodeKind::Normal,
        unknown: !is_known_type(surface, c, catalogs),
        children: Vec::new(),
    };
    if stack.iter().any(|(id, sc)| *id == r.id && *sc == r.scope) {
        errors.push(A2uiError::Cycle(r.id.clone()));
        node.kind = NodeKind::Cycle;
        return node;
    }
    if depth >= limits.max_tree_depth {
        node.kind = NodeKind::Truncated;
        return node;
    }
    stack.push((r.id.clone(), r.scope.clone()));
    for child in child_refs(
        c,
        &r.scope,
        surface.data.root(),
        surface.version,
        limits.max_template_instances,
    ) {
        let slot = Some(child.slot.clone().into_owned());
        node.children.push(walk(
            surface,
            catalogs,
            limits,
            &child,
            slot,
            depth + 1,
            stack,
            errors,
        ));
    }
    stack.pop();
    node
}
