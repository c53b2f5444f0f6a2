//! The resolved tree: templates, scopes, placeholders and guards.

use egui_a2ui::model::{NodeKind, TreeNode, resolve_tree};
use egui_a2ui::{Limits, SurfaceStore};
use serde_json::{Value, json};

const CAT: &str = "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json";

fn store(components: Value, data: Value) -> SurfaceStore {
    let mut s = SurfaceStore::basic();
    s.apply(json!({"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": CAT}}))
        .into_result()
        .expect("create");
    s.apply(json!({"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": components}})).into_result().expect("components");
    s.apply(json!({"version": "v0.9", "updateDataModel": {"surfaceId": "s", "value": data}}))
        .into_result()
        .expect("data");
    s
}

fn tree(s: &SurfaceStore) -> (TreeNode, usize) {
    let (t, errs) = resolve_tree(s.surface("s").expect("s"), s.catalogs(), s.limits());
    (t.expect("root exists"), errs.len())
}

#[test]
fn a_template_expands_once_per_array_item_with_nested_scopes() {
    let s = store(
        json!([
            {"id": "root", "component": "List", "children": {"componentId": "g", "path": "/groups"}},
            {"id": "g", "component": "Column", "children": {"componentId": "m", "path": "members"}},
            {"id": "m", "component": "Text", "text": {"path": "name"}}
        ]),
        json!({"groups": [{"members": [{"name": "a"}, {"name": "b"}]}, {"members": [{"name": "c"}]}]}),
    );
    let (t, _) = tree(&s);
    assert_eq!(t.children.len(), 2);
    assert_eq!(t.children[0].scope, "/groups/0");
    let scopes: Vec<&str> = t.children[0]
        .children
        .iter()
        .map(|c| c.scope.as_str())
        .collect();
    assert_eq!(scopes, ["/groups/0/members/0", "/groups/0/members/1"]);
    assert_eq!(t.children[1].children[0].scope, "/groups/1/members/0");
    assert_eq!(t.node_count(), 6);
}

#[test]
fn a_template_over_a_non_array_produces_no_children_in_v09() {
    let s = store(
        json!([{"id": "root", "component": "List", "children": {"componentId": "m", "path": "/map"}},
               {"id": "m", "component": "Text", "text": "x"}]),
        json!({"map": {"a": 1}}),
    );
    assert!(tree(&s).0.children.is_empty());
}

#[test]
fn v08_templates_iterate_map_keys_in_insertion_order() {
    let mut s = SurfaceStore::basic();
    s.apply(json!({"surfaceUpdate": {"surfaceId": "s", "components": [
        {"id": "root", "component": {"List": {"children": {"template": {"componentId": "t", "dataBinding": "/items"}}}}},
        {"id": "t", "component": {"Text": {"text": {"path": "name"}}}}]}})).into_result().expect("update");
    s.apply(
        json!({"dataModelUpdate": {"surfaceId": "s", "path": "/items", "contents": [
        {"key": "zeta", "valueMap": [{"key": "name", "valueString": "Z"}]},
        {"key": "alpha", "valueMap": [{"key": "name", "valueString": "A"}]}]}}),
    )
    .into_result()
    .expect("data");
    s.apply(json!({"beginRendering": {"surfaceId": "s", "root": "root"}}))
        .into_result()
        .expect("begin");
    let (t, _) = tree(&s);
    let scopes: Vec<&str> = t.children.iter().map(|c| c.scope.as_str()).collect();
    assert_eq!(scopes, ["/items/zeta", "/items/alpha"]);
}

#[test]
fn a_missing_child_is_a_placeholder_node() {
    let s = store(
        json!([{"id": "root", "component": "Card", "child": "later"}]),
        json!({}),
    );
    let (t, _) = tree(&s);
    assert_eq!(t.children[0].kind, NodeKind::Missing);
    assert_eq!(t.missing_count(), 1);
}

#[test]
fn a_cycle_is_cut_with_an_error() {
    let s = store(
        json!([{"id": "root", "component": "Card", "child": "a"},
               {"id": "a", "component": "Card", "child": "b"},
               {"id": "b", "component": "Card", "child": "a"}]),
        json!({}),
    );
    let (t, errors) = tree(&s);
    assert_eq!(t.children[0].children[0].children[0].kind, NodeKind::Cycle);
    assert_eq!(errors, 1);
}

#[test]
fn a_component_that_is_its_own_child_is_cut() {
    let s = store(
        json!([{"id": "root", "component": "Column", "children": ["root"]}]),
        json!({}),
    );
    let (t, errors) = tree(&s);
    assert_eq!(t.children[0].kind, NodeKind::Cycle);
    assert_eq!(errors, 1);
}

#[test]
fn a_template_whose_item_contains_the_same_template_stops_at_the_depth_cap() {
    // Each level has a new scope, so it is not a cycle; the data is finite but the depth
    // guard still bounds it.
    let mut nested = json!({"kids": []});
    for _ in 0..300 {
        nested = json!({"kids": [nested]});
    }
    let s = store(
        json!([{"id": "root", "component": "List", "children": {"componentId": "n", "path": "/tree/kids"}},
               {"id": "n", "component": "List", "children": {"componentId": "n", "path": "kids"}}]),
        json!({"tree": nested}),
    );
    let (t, _) = tree(&s);
    fn depth(n: &TreeNode) -> usize {
        1 + n.children.iter().map(depth).max().unwrap_or(0)
    }
    assert!(depth(&t) <= Limits::default().max_tree_depth + 1);
    fn has_truncated(n: &TreeNode) -> bool {
        n.kind == NodeKind::Truncated || n.children.iter().any(has_truncated)
    }
    assert!(has_truncated(&t));
}

#[test]
fn the_surface_is_invisible_until_root_exists() {
    let s = store(
        json!([{"id": "child", "component": "Text", "text": "x"}]),
        json!({}),
    );
    let surface = s.surface("s").expect("s");
    assert!(!surface.is_visible());
    assert!(resolve_tree(surface, s.catalogs(), s.limits()).0.is_none());
}

#[test]
fn an_unknown_component_type_is_flagged() {
    let s = store(json!([{"id": "root", "component": "Hologram"}]), json!({}));
    assert!(tree(&s).0.unknown);
}
