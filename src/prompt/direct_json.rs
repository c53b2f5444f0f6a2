//! The direct-JSON snippet: rules for `<a2ui-json>` blocks and the JSON schemas.

use serde_json::{Map, Value};

use super::{allows, decompile::decompile_json};
use crate::bundled::{Bundled, Family as BundledFamily};
use crate::protocol::Version;

/// The opening of the schema section.
pub(crate) const SCHEMA_BEGIN: &str = "---BEGIN A2UI JSON SCHEMA---";
/// The end of the schema section.
pub(crate) const SCHEMA_END: &str = "---END A2UI JSON SCHEMA---";

const RULES: &str = "Answer in prose, and show an interface with A2UI JSON blocks:
- An answer may hold any number of A2UI JSON blocks, with prose before, between and after them.
- Each block MUST start with `<a2ui-json>` and end with `</a2ui-json>`.
- Inside a block write one raw JSON value (no markdown fence): a list of A2UI messages, or one message. It MUST validate against the A2UI JSON SCHEMA below.
- Write components top-down: in a `components` list the component with id `root` comes FIRST, and a parent comes before its children. The interface then appears while you are still writing it.";

/// The agent-to-renderer message schema of a version.
fn messages_schema(version: Version) -> &'static Value {
    Bundled::Envelope(BundledFamily::of(version)).value()
}

/// The message kind a `#/$defs/XMessage` reference stands for (`createSurface`).
fn kind_of(def: &str) -> Option<String> {
    let base = def.strip_suffix("Message")?;
    let mut c = base.chars();
    let first = c.next()?;
    Some(format!("{}{}", first.to_lowercase(), c.as_str()))
}

/// Every `$ref` target name (`…#/$defs/Name`) under `node`.
fn refs(node: &Value, out: &mut Vec<String>, depth: usize) {
    if depth > 64 {
        return;
    }
    match node {
        Value::Object(o) => {
            if let Some(Value::String(r)) = o.get("$ref")
                && let Some((_, frag)) = r.split_once('#')
                && let Some(name) = frag.strip_prefix("/$defs/")
                && !out.iter().any(|x| x == name)
            {
                out.push(name.to_owned());
            }
            for v in o.values() {
                refs(v, out, depth + 1);
            }
        }
        Value::Array(a) => {
            for v in a {
                refs(v, out, depth + 1);
            }
        }
        _ => {}
    }
}

/// The message schema with only the allowed messages in its `oneOf`, and the `$defs` the
/// remaining ones use.
fn pruned_messages(version: Version, allowed: Option<&[String]>) -> Value {
    let mut schema = messages_schema(version).clone();
    if allowed.is_none() {
        return schema;
    }
    let Some(o) = schema.as_object_mut() else {
        return schema;
    };
    let mut dropped: Vec<String> = Vec::new();
    if let Some(Value::Array(one_of)) = o.get_mut("oneOf") {
        one_of.retain(|r| {
            let Some(def) = r
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|r| r.strip_prefix("#/$defs/"))
            else {
                return true;
            };
            let keep = kind_of(def).is_none_or(|k| allows(allowed, &k));
            if !keep {
                dropped.push(def.to_owned());
            }
            keep
        });
    }
    // The definitions still reachable from what is left.
    if let Some(Value::Object(defs)) = o.get("$defs").cloned() {
        let mut keep: Vec<String> = Vec::new();
        let mut top = Map::new();
        for (k, v) in o.iter() {
            if k != "$defs" {
                top.insert(k.clone(), v.clone());
            }
        }
        refs(&Value::Object(top), &mut keep, 0);
        let mut i = 0;
        while i < keep.len() {
            if let Some(d) = defs.get(&keep[i]) {
                refs(d, &mut keep, 0);
            }
            i += 1;
        }
        let pruned: Map<String, Value> =
            defs.into_iter().filter(|(k, _)| keep.contains(k)).collect();
        o.insert("$defs".into(), Value::Object(pruned));
    }
    schema
}

/// `path` / `call` spelled `@path` / `@call` under `node` (property names and
/// `required` entries).
fn at_spelling(node: &mut Value, depth: usize) {
    if depth > 32 {
        return;
    }
    let renamed = |k: &str| match k {
        "path" => Some("@path"),
        "call" => Some("@call"),
        _ => None,
    };
    match node {
        Value::Object(o) => {
            if let Some(Value::Object(props)) = o.get_mut("properties") {
                let keys: Vec<String> = props.keys().cloned().collect();
                let mut out = Map::new();
                for k in keys {
                    let v = props.remove(&k).unwrap_or(Value::Null);
                    out.insert(renamed(&k).map_or(k, str::to_owned), v);
                }
                *props = out;
            }
            if let Some(Value::Array(req)) = o.get_mut("required") {
                for r in req.iter_mut() {
                    if let Some(n) = r.as_str().and_then(renamed) {
                        *r = Value::String(n.to_owned());
                    }
                }
            }
            for v in o.values_mut() {
                at_spelling(v, depth + 1);
            }
        }
        Value::Array(a) => {
            for v in a {
                at_spelling(v, depth + 1);
            }
        }
        _ => {}
    }
}

/// The common types a prompt shows: the published copy, and for v1.0 with bindings and
/// calls spelled `@path` / `@call` as v1.0 messages write them (the August 2026 copy of
/// `common_types.json` predates that spelling).
fn prompt_common_types(version: Version) -> Value {
    let mut common = crate::catalog_def::common_types(version).clone();
    if version.family() == Version::V1_0
        && let Some(Value::Object(defs)) = common.get_mut("$defs")
    {
        for name in [
            "DataBinding",
            "DynamicValue",
            "FunctionCall",
            "FunctionCommon",
            "IndexSystemFunction",
        ] {
            if let Some(d) = defs.get_mut(name) {
                let args = d.pointer("/properties/args").cloned();
                at_spelling(d, 0);
                // A call's `args` are the function's own names, kept as written.
                if let (Some(a), Some(slot)) = (args, d.pointer_mut("/properties/args")) {
                    *slot = a;
                }
            }
        }
    }
    common
}

/// The common types the catalogs and the message schema use, transitively.
fn pruned_common_types(version: Version, users: &[&Value]) -> Value {
    let common = prompt_common_types(version);
    let Some(defs) = common.get("$defs").and_then(Value::as_object) else {
        return common;
    };
    let mut keep: Vec<String> = Vec::new();
    for u in users {
        refs(u, &mut keep, 0);
    }
    let mut i = 0;
    while i < keep.len() {
        if let Some(d) = defs.get(&keep[i]) {
            refs(d, &mut keep, 0);
        }
        i += 1;
    }
    let pruned: Map<String, Value> = defs
        .iter()
        .filter(|(k, _)| keep.contains(k))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let mut out = common.as_object().cloned().unwrap_or_default();
    out.insert("$defs".into(), Value::Object(pruned));
    Value::Object(out)
}

/// The JSON schema section: message schema, common types, each catalog.
pub(crate) fn schema_section(
    catalogs: &[Value],
    version: Version,
    allowed: Option<&[String]>,
) -> String {
    let messages = pruned_messages(version, allowed);
    let mut users: Vec<&Value> = catalogs.iter().collect();
    users.push(&messages);
    let common = pruned_common_types(version, &users);
    let mut parts = vec![
        SCHEMA_BEGIN.to_owned(),
        format!("### Agent to Renderer Schema:\n{messages}"),
    ];
    if common
        .get("$defs")
        .and_then(Value::as_object)
        .is_some_and(|d| !d.is_empty())
        && version.family() != Version::V0_8
    {
        parts.push(format!("### Common Types Schema:\n{common}"));
    }
    for c in catalogs {
        parts.push(format!("### Catalog Schema:\n{c}"));
    }
    parts.push(SCHEMA_END.to_owned());
    parts.join("\n\n")
}

/// The direct-JSON snippet.
pub(crate) fn snippet(
    catalogs: &[Value],
    version: Version,
    examples: &[Vec<Value>],
    allowed: Option<&[String]>,
) -> String {
    let mut parts = vec![
        format!("## Workflow Description:\n{RULES}"),
        schema_section(catalogs, version, allowed),
    ];
    let blocks: Vec<String> = examples
        .iter()
        .map(|turn| format!("<a2ui-json>\n{}\n</a2ui-json>", decompile_json(turn)))
        .collect();
    if !blocks.is_empty() {
        parts.push(format!("### Examples:\n{}", blocks.join("\n\n")));
    }
    parts.join("\n\n")
}
