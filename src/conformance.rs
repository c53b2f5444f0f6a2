//! The conformance dump: the store's state as the canonical JSON document of the reference
//! oracle (`a2ui-oracle/1`, see the [oracle format]), so our state can be
//! diffed against the official core's.
//!
//! The dump speaks each surface's own wire vocabulary: v0.8 props keep their v0.8 names.
//!
//! ```
//! use egui_a2ui::{SurfaceStore, conformance, eval::FunctionRegistry};
//!
//! let mut store = SurfaceStore::basic();
//! store.feed_document(br#"{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json"}}"#);
//! let doc = conformance::dump(&store, &FunctionRegistry::basic());
//! assert_eq!(doc["format"], "a2ui-oracle/1");
//! let text = conformance::to_canonical_string(&doc); // byte-comparable with the oracle's
//! assert!(text.ends_with('\n'));
//! ```
//!
//! [oracle format]: https://docs.rs/crate/egui_a2ui/latest/source/tests/data/conformance/FORMAT.md

use serde_json::{Map, Value, json};

use crate::eval::checks::evaluate_checks;
use crate::eval::{EvalContext, FunctionRegistry};
use crate::model::tree::{NodeKind, TreeNode, is_structural, resolve_tree};
use crate::model::{Surface, SurfaceStore};
use crate::protocol::Version;
use crate::protocol::v0_8::{action_to_v09, bound_literal, is_bound_value};

/// Dump the whole store: `surfaces` sorted by id, and the indices of rejected messages.
pub fn dump(store: &SurfaceStore, functions: &FunctionRegistry) -> Value {
    let mut surfaces: Vec<&Surface> = store.surfaces().filter(|s| s.began).collect();
    surfaces.sort_by(|a, b| a.id.cmp(&b.id));
    let surfaces: Vec<Value> = surfaces
        .into_iter()
        .map(|s| dump_surface(store, s, functions))
        .collect();
    let mut errors: Vec<Value> = store
        .errors()
        .iter()
        .filter_map(|e| {
            Some(json!({
                "index": e.message_index?,
                "error": e.error.code(),
                "message": e.error.to_string(),
            }))
        })
        .collect();
    errors.sort_by_key(|e| e["index"].as_u64());
    json!({
        "format": "a2ui-oracle/1",
        "reference": {"package": "egui_a2ui", "version": env!("CARGO_PKG_VERSION")},
        "locale": "en-US",
        "validation": "none",
        "messageCount": store.messages_seen(),
        "errors": errors,
        "surfaces": surfaces,
    })
}

/// Dump one surface.
pub fn dump_surface(store: &SurfaceStore, s: &Surface, functions: &FunctionRegistry) -> Value {
    let (tree, _errors) = resolve_tree(s, store.catalogs(), store.limits());
    let mut ids: Vec<&str> = s.components().keys().collect();
    ids.sort();
    let version = s.version.family();
    let theme = if version == Version::V1_0 {
        Value::Object(Map::new())
    } else {
        Value::Object(s.theme.clone())
    };
    let (node_count, missing_count) = tree
        .as_ref()
        .map_or((0, 0), |t| (t.node_count(), t.missing_count()));
    json!({
        "surfaceId": s.id,
        "catalogId": s.catalog_id,
        "protocolVersion": version.as_str(),
        "rootId": s.root_id,
        "sendDataModel": s.send_data_model,
        "theme": theme,
        "dataModel": s.data.root(),
        "componentIds": ids,
        "tree": tree.map(|t| dump_node(store, s, &t, functions)),
        "nodeCount": node_count,
        "missingCount": missing_count,
    })
}

fn dump_node(
    store: &SurfaceStore,
    s: &Surface,
    n: &TreeNode,
    functions: &FunctionRegistry,
) -> Value {
    let mut o = Map::new();
    o.insert("id".into(), json!(n.id));
    o.insert("component".into(), json!(n.component));
    o.insert("scope".into(), json!(n.scope));
    if let Some(slot) = &n.slot {
        o.insert("slot".into(), json!(slot));
    }
    match n.kind {
        NodeKind::Missing => {
            o.insert("missing".into(), json!(true));
            return Value::Object(o);
        }
        NodeKind::Cycle => {
            o.insert("cycle".into(), json!(true));
            return Value::Object(o);
        }
        NodeKind::Truncated => {
            o.insert("truncated".into(), json!(true));
            return Value::Object(o);
        }
        NodeKind::OverBudget => {
            // Past `Limits::max_nodes`: cut like a truncated node, and marked so a reader
            // can tell the budget from the depth limit. It stands for its later siblings.
            o.insert("truncated".into(), json!(true));
            o.insert("overBudget".into(), json!(true));
            return Value::Object(o);
        }
        NodeKind::Normal => {}
    }
    if n.unknown {
        o.insert("unknownComponent".into(), json!(true));
    }
    let Some(c) = s.component(&n.id) else {
        return Value::Object(o);
    };
    if let Some(cat) = c.catalog_id()
        && Some(cat) != s.catalog_id.as_deref()
    {
        o.insert("catalogId".into(), json!(cat));
    }
    let cx = EvalContext::new(
        s.data.root(),
        &n.scope,
        s.version,
        functions,
        store.limits(),
    );
    let v08 = s.version == Version::V0_8;
    let mut props = Map::new();
    let wire = c.wire_props();
    for (k, v) in wire.iter() {
        if is_structural(k) || k == "checks" {
            continue;
        }
        let resolved = if k == "action" {
            dump_action(v, v08, &cx)
        } else if k == "tabs" || k == "tabItems" {
            match v {
                Value::Array(tabs) => Value::Array(
                    tabs.iter()
                        .map(|t| match t {
                            Value::Object(m) => Value::Object(
                                m.iter()
                                    .filter(|(k, _)| *k != "child")
                                    .map(|(k, x)| (k.clone(), resolve_dump(x, v08, &cx)))
                                    .collect(),
                            ),
                            other => resolve_dump(other, v08, &cx),
                        })
                        .collect(),
                ),
                other => resolve_dump(other, v08, &cx),
            }
        } else {
            resolve_dump(v, v08, &cx)
        };
        props.insert(k.to_owned(), resolved);
    }
    o.insert("props".into(), Value::Object(props));
    // The wire `checks` key, as the reference reads it (a v1.0 `@checks` is dumped as a
    // prop under its wire name; a2ui-core 0.4.0 does not read it as checks).
    if let Some(results) = evaluate_checks(wire.get("checks"), &cx) {
        let checks: Vec<Value> = results
            .into_iter()
            .map(|r| {
                let mut m = Map::new();
                m.insert("valid".into(), json!(r.valid));
                m.insert("message".into(), json!(r.message));
                if let Some(code) = r.code {
                    m.insert("code".into(), json!(code));
                }
                if let Some(sev) = r.severity {
                    m.insert("severity".into(), json!(sev));
                }
                Value::Object(m)
            })
            .collect();
        o.insert("checks".into(), Value::Array(checks));
    }
    let children: Vec<Value> = n
        .children
        .iter()
        .map(|ch| dump_node(store, s, ch, functions))
        .collect();
    o.insert("children".into(), Value::Array(children));
    Value::Object(o)
}

/// Resolve a wire value: v0.8 BoundValues (a literal wins, else the path), v0.9+ dynamic
/// values, at any depth.
fn resolve_dump(v: &Value, v08: bool, cx: &EvalContext<'_>) -> Value {
    if !v08 {
        return cx.resolve_deep(v);
    }
    match v {
        Value::Object(m) if is_bound_value(m) => match bound_literal(m) {
            Some(lit) => lit.clone(),
            None => m
                .get("path")
                .and_then(Value::as_str)
                .map_or(Value::Null, |p| cx.resolve_path(p)),
        },
        Value::Object(m) => Value::Object(
            m.iter()
                .map(|(k, x)| (k.clone(), resolve_dump(x, v08, cx)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(|x| resolve_dump(x, v08, cx)).collect()),
        other => other.clone(),
    }
}

/// The canonical action shape: `{"event": {name, context, userMessage?}}` or
/// `{"functionCall": {call, args}}` (not executed).
fn dump_action(v: &Value, v08: bool, cx: &EvalContext<'_>) -> Value {
    let normalised;
    let action = if v08 {
        normalised = action_to_v09(v);
        &normalised
    } else {
        v
    };
    if let Some(Value::Object(ev)) = action.get("event") {
        let mut e = Map::new();
        e.insert(
            "name".into(),
            ev.get("name").cloned().unwrap_or(Value::Null),
        );
        let ctx = match ev.get("context") {
            Some(Value::Object(c)) => Value::Object(
                c.iter()
                    .map(|(k, x)| (k.clone(), cx.resolve_deep(x)))
                    .collect(),
            ),
            _ => Value::Object(Map::new()),
        };
        e.insert("context".into(), ctx);
        if let Some(um) = ev.get("userMessage") {
            e.insert("userMessage".into(), cx.resolve(um));
        }
        return json!({"event": e});
    }
    if let Some(Value::Object(fc)) = action.get("functionCall") {
        let args = match fc.get("args") {
            Some(Value::Object(a)) => Value::Object(
                a.iter()
                    .map(|(k, x)| (k.clone(), cx.resolve_deep(x)))
                    .collect(),
            ),
            _ => Value::Object(Map::new()),
        };
        return json!({"functionCall": {"call": fc.get("call"), "args": args}});
    }
    cx.resolve_deep(action)
}

/// Serialise as the [oracle format] §1 asks: keys sorted by code point, 2-space pretty print,
/// ECMAScript number text (integral floats as integers), one trailing newline.
///
/// [oracle format]: https://docs.rs/crate/egui_a2ui/latest/source/tests/data/conformance/FORMAT.md
pub fn to_canonical_string(v: &Value) -> String {
    let mut out = String::new();
    write_canonical(v, 0, &mut out);
    out.push('\n');
    out
}

fn write_canonical(v: &Value, indent: usize, out: &mut String) {
    let pad = |n: usize, out: &mut String| out.extend(std::iter::repeat_n(' ', n));
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => {
            if n.is_i64() || n.is_u64() {
                out.push_str(&n.to_string());
            } else {
                let f = n.as_f64().unwrap_or(0.0);
                if !f.is_finite() {
                    out.push_str("null");
                } else if f.fract() == 0.0 && f.abs() < 1e21 {
                    out.push_str(&format!("{f:.0}").replace("-0", "0"));
                } else {
                    out.push_str(ryu_js::Buffer::new().format(f));
                }
            }
        }
        Value::String(s) => {
            out.push_str(&serde_json::to_string(s).unwrap_or_default());
        }
        Value::Array(a) => {
            if a.is_empty() {
                out.push_str("[]");
                return;
            }
            out.push_str("[\n");
            for (i, x) in a.iter().enumerate() {
                pad(indent + 2, out);
                write_canonical(x, indent + 2, out);
                if i + 1 < a.len() {
                    out.push(',');
                }
                out.push('\n');
            }
            pad(indent, out);
            out.push(']');
        }
        Value::Object(m) => {
            if m.is_empty() {
                out.push_str("{}");
                return;
            }
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            out.push_str("{\n");
            for (i, k) in keys.iter().enumerate() {
                pad(indent + 2, out);
                out.push_str(&serde_json::to_string(k).unwrap_or_default());
                out.push_str(": ");
                if let Some(x) = m.get(*k) {
                    write_canonical(x, indent + 2, out);
                }
                if i + 1 < keys.len() {
                    out.push(',');
                }
                out.push('\n');
            }
            pad(indent, out);
            out.push('}');
        }
    }
}
