//! The two tree-explosion component graphs of issue 14, shared by `tests/conformance/hostile.rs`,
//! `tests/core/limits.rs` and the `explosion` tool (`crates/egui_a2ui_tools`, which includes this file
//! by path).

use serde_json::{Value, json};

/// `depth` Columns, each listing the next one twice, over one Text leaf: acyclic, with
/// 2^`depth` root-to-leaf paths, so only a node budget stops the walk.
#[allow(dead_code, reason = "not every includer uses every builder")]
pub fn shared_children(depth: usize) -> Value {
    let mut c: Vec<Value> = (0..depth)
        .map(|i| {
            let id = if i == 0 {
                "root".to_owned()
            } else {
                format!("n{i}")
            };
            let next = format!("n{}", i + 1);
            json!({"id": id, "component": "Column", "children": [next, next]})
        })
        .collect();
    c.push(json!({"id": format!("n{depth}"), "component": "Text", "text": "leaf"}));
    Value::Array(c)
}

/// An item template that expands the same absolute template path (`/l`) again: every level
/// has new scopes, so the (id, scope) cycle guard never fires.
#[allow(dead_code, reason = "not every includer uses every builder")]
pub fn self_expanding_template() -> Value {
    json!([
        {"id": "root", "component": "Column", "children": {"componentId": "item", "path": "/l"}},
        {"id": "item", "component": "Column", "children": {"componentId": "item", "path": "/l"}}
    ])
}
