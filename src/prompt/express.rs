//! The Express snippet: the grammar rules of `<a2ui>` blocks, the positional signatures of
//! each catalog's components and functions, the catalog instructions, examples in Express.

use serde_json::Value;

use super::{allows, decompile, members};
use crate::protocol::Version;
use crate::stream::model_text::express::signatures::{self, ComponentSig};

/// One grammar rule: its text, and which message kinds it is about (`None`: always).
struct Rule {
    text: String,
    about: RuleKind,
}

#[derive(Clone, Copy, PartialEq)]
enum RuleKind {
    Always,
    Components,
    Root,
    Data,
    Delete,
    Surface,
}

fn rules(root_component: &str) -> Vec<Rule> {
    let r = |about: RuleKind, text: &str| Rule {
        text: text.to_owned(),
        about,
    };
    vec![
        r(
            RuleKind::Components,
            "Components are calls of their catalog signature. Assign one to a variable (its component id) or write it inline as an argument of its parent:\n   header = ComponentA(\"Inventory\")\n   root = ComponentB([header, ComponentC(\"Open\", action=Event(\"open\"))])\n   Arguments are positional in signature order; skip one with `_`, or name it with a keyword (`param=value`). A variable name starts with a letter or `_` and holds only letters, digits and `_`.",
        ),
        r(
            RuleKind::Root,
            "The interface has one entry point: the reserved variable `root`.",
        ),
        r(
            RuleKind::Always,
            "Strings are written in `\"…\"` (escapes `\\n`, `\\t`, `\\\\`, `\\\"`) or `\"\"\"…\"\"\"`; raw strings `r\"…\"` and `r\"\"\"…\"\"\"` keep backslashes as written. Numbers are written as 42 or 3.5, booleans as true / false, and null as null. Dates and times for date-time inputs are RFC 3339 with an offset (\"2026-03-14T09:30:00Z\").",
        ),
        r(RuleKind::Always, "Lists are arrays: [first, second]."),
        r(
            RuleKind::Always,
            "Maps are key-value blocks: {title: \"Overview\", child: details}. Keys are literal names, never variables.",
        ),
        r(
            RuleKind::Always,
            "Bind to the data model with `$`: an absolute path `$/user/name`; inside a template, a path relative to the item `$name`; `$` alone is the item itself.",
        ),
        r(
            RuleKind::Components,
            "Checks on an input start with `?`: ?required, ?regex(\"^[0-9]{5}$\"). An extra string argument is the message shown when the check fails: ?regex(\"^[0-9]{5}$\", \"Five digits, please\").",
        ),
        r(
            RuleKind::Components,
            "An action sent to you is an Event: Event(\"save_item\", {item: $/selected}). Catalog functions are called by name with their signature: myFunction(\"value\").",
        ),
        r(
            RuleKind::Data,
            "Fill the data model by assigning to an absolute path: $/cart/total = 42. The value may be a literal, a list or a map.",
        ),
        r(
            RuleKind::Components,
            "A child list repeated over a data list is a template: _template($/items, row), with the template component on its own line using paths relative to the item: row = ComponentA($name).",
        ),
        r(
            RuleKind::Delete,
            "Remove a surface with a statement of its own: deleteSurface(\"inventory\").",
        ),
        r(
            RuleKind::Components,
            "Arguments marked (static) in the signatures are literals written inline; never bind them with `$`.",
        ),
        r(
            RuleKind::Components,
            "A parameter named `action` is always given: an Event (Event(\"click\") when the request names none) or a function call, never null.",
        ),
        r(
            RuleKind::Surface,
            &format!(
                "Say which surface the statements are for with surface(surfaceId) before them:\n   surface(\"inventory\")\n   root = {root_component}(...)"
            ),
        ),
    ]
}

/// The rules, numbered, for the allowed message kinds.
fn base_rules(root_component: &str, allowed: Option<&[String]>) -> String {
    let creates = allows(allowed, "createSurface");
    let components = creates || allows(allowed, "updateComponents");
    let data = allows(allowed, "updateDataModel");
    let delete = allows(allowed, "deleteSurface");
    let mut out = vec![
        "# A2UI Express DSL Output Contract\n\nWrite user interfaces in A2UI Express. Put every Express block between the tags `<a2ui>` and `</a2ui>`; prose may come before, between and after blocks. The host compiles each block into A2UI messages.\n\n## Grammar Rules"
            .to_owned(),
    ];
    let mut n = 0;
    for rule in rules(root_component) {
        let keep = match rule.about {
            RuleKind::Always => true,
            RuleKind::Components => components,
            RuleKind::Root => creates,
            RuleKind::Data => data,
            RuleKind::Delete => delete,
            RuleKind::Surface => components || data,
        };
        if !keep {
            continue;
        }
        let mut text = rule.text;
        if rule.about == RuleKind::Surface && !creates {
            // Without new surfaces, no `root = …` line to show.
            text = text.lines().take(2).collect::<Vec<_>>().join("\n");
        }
        n += 1;
        out.push(format!("{n}. {text}"));
    }
    out.join("\n\n")
}

/// The component rule 15's example names: the first that holds a single child, else the
/// first.
fn example_root(catalogs: &[Value]) -> Option<String> {
    for doc in catalogs {
        let (comps, _) = signatures::read_definition(doc);
        for (name, sig) in &comps {
            if sig.schemas.values().any(|s| {
                s.get("$ref")
                    .and_then(Value::as_str)
                    .is_some_and(|r| r.ends_with("/Child") || r.ends_with("ComponentId"))
            }) {
                return Some(name.clone());
            }
        }
    }
    catalogs
        .iter()
        .find_map(|d| members(d, "components").first().map(|(n, _)| (*n).clone()))
}

/// The multi-catalog section.
fn multi_catalog_rules(catalogs: &[Value]) -> String {
    let ids: Vec<&str> = catalogs
        .iter()
        .filter_map(|d| d.get("catalogId").and_then(Value::as_str))
        .collect();
    let example = ids.last().copied().unwrap_or_default();
    let mut out = vec![
        "## Multiple Catalogs".to_owned(),
        String::new(),
        "Several catalogs are active; the signatures below are grouped by catalog id:".to_owned(),
    ];
    out.extend(ids.iter().map(|id| format!("- `{id}`")));
    out.push(String::new());
    out.push(
        "A surface names no catalog. A component, function, check or action is found by its name in the catalog that defines it. When more than one catalog defines a name, say which one with a `catalogId` keyword argument (a check takes a `{catalogId: ...}` argument):".to_owned(),
    );
    out.push(format!(
        "    chart = ComponentName(..., catalogId=\"{example}\")"
    ));
    out.push(format!("    ?checkName(..., {{catalogId: \"{example}\"}})"));
    let mut shared = Vec::new();
    for (key, label) in [("components", "Component"), ("functions", "Function")] {
        let mut names: Vec<&String> = catalogs
            .iter()
            .flat_map(|d| members(d, key).into_iter().map(|(n, _)| n))
            .collect();
        names.sort();
        names.dedup();
        for name in names {
            let defining: Vec<String> = catalogs
                .iter()
                .filter(|d| members(d, key).iter().any(|(n, _)| *n == name))
                .filter_map(|d| d.get("catalogId").and_then(Value::as_str))
                .map(|id| format!("`{id}`"))
                .collect();
            if defining.len() > 1 {
                shared.push(format!("- {label} `{name}`: {}", defining.join(", ")));
            }
        }
    }
    if !shared.is_empty() {
        out.push(String::new());
        out.push("These names need a `catalogId`:".to_owned());
        out.extend(shared);
    }
    out.join("\n")
}

/// A component's description: its own, or its first `allOf` part's.
fn description(schema: &Value) -> Option<&str> {
    schema
        .get("description")
        .and_then(Value::as_str)
        .or_else(|| {
            schema
                .get("allOf")
                .and_then(Value::as_array)?
                .iter()
                .find_map(|p| p.get("description").and_then(Value::as_str))
        })
}

/// The first `enum` of a property schema (its `oneOf` / `anyOf` included).
fn enum_of(s: &Value) -> Option<Vec<String>> {
    let o = s.as_object()?;
    if let Some(Value::Array(e)) = o.get("enum") {
        return Some(
            e.iter()
                .map(|v| match v {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                })
                .collect(),
        );
    }
    for k in ["oneOf", "anyOf"] {
        if let Some(Value::Array(subs)) = o.get(k) {
            for sub in subs {
                if let Some(e) = enum_of(sub).filter(|e| !e.is_empty()) {
                    return Some(e);
                }
            }
        }
    }
    None
}

/// Whether a property may be bound (its schema refers to a binding, a dynamic type or a
/// child list), the way the signature marks `(static)`.
fn bindable(s: &Value) -> bool {
    let Some(o) = s.as_object() else { return false };
    if let Some(Value::String(r)) = o.get("$ref")
        && (r.contains("DataBinding") || r.contains("Dynamic") || r.contains("ChildList"))
    {
        return true;
    }
    ["oneOf", "anyOf", "allOf"].iter().any(|k| {
        o.get(*k)
            .and_then(Value::as_array)
            .is_some_and(|a| a.iter().any(bindable))
    })
}

/// The keys of an object schema, as `    * key - description` lines.
fn map_keys(props: &serde_json::Map<String, Value>) -> String {
    props
        .iter()
        .map(
            |(k, v)| match v.get("description").and_then(Value::as_str) {
                Some(d) if !d.is_empty() => format!("    * {k} - {d}"),
                _ => format!("    * {k}"),
            },
        )
        .collect::<Vec<_>>()
        .join("\n")
}

fn component_signature(name: &str, sig: &ComponentSig, schema: &Value) -> String {
    let mut args = Vec::new();
    let mut details: Vec<String> = Vec::new();
    for p in &sig.props {
        let ps = sig.schemas.get(p);
        let mut label = format!("{p}{}", if sig.required.contains(p) { "" } else { "?" });
        let is_id = ps
            .and_then(|s| s.get("$ref"))
            .and_then(Value::as_str)
            .is_some_and(|r| r.contains("ComponentId"));
        if is_id {
            label.push_str(" (component ID)");
        } else if !ps.is_some_and(bindable) {
            label.push_str(" (static)");
        }
        args.push(label);
        let Some(ps) = ps else { continue };
        let desc = ps.get("description").and_then(Value::as_str);
        let enums = enum_of(ps);
        if desc.is_some() || enums.is_some() {
            let mut line = Vec::new();
            if let Some(d) = desc {
                line.push(d.to_owned());
            }
            if let Some(e) = &enums {
                line.push(format!(
                    "Must be one of: {}",
                    e.iter()
                        .map(|v| format!("'{v}'"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
            details.push(format!("  - {p}: {}", line.join(" ")));
        }
        let head = format!("  - {p}:");
        let has_line = details.last().is_some_and(|l| l.starts_with(&head));
        if ps.get("type").and_then(Value::as_str) == Some("object")
            && let Some(Value::Object(props)) = ps.get("properties")
        {
            let keys = map_keys(props);
            if has_line && let Some(last) = details.last_mut() {
                last.push_str(&format!("\n    Map keys:\n{keys}"));
            } else {
                details.push(format!("  - {p}: Map with keys:\n{keys}"));
            }
        } else if ps.get("type").and_then(Value::as_str) == Some("array")
            && let Some(items) = ps.get("items")
            && items.get("type").and_then(Value::as_str) == Some("object")
            && let Some(Value::Object(props)) = items.get("properties")
        {
            let keys = map_keys(props);
            if has_line && let Some(last) = details.last_mut() {
                last.push_str(&format!("\n    List of maps keys:\n{keys}"));
            } else {
                details.push(format!("  - {p}: List of maps with keys:\n{keys}"));
            }
        }
    }
    let mut out = format!("• {name}({})", args.join(", "));
    if let Some(d) = description(schema) {
        out.push_str(&format!("\n  - Description: {}", d.replace('\n', "\n    ")));
    }
    if !details.is_empty() {
        out.push('\n');
        out.push_str(&details.join("\n"));
    }
    out
}

fn function_signature(name: &str, schema: &Value) -> String {
    let mut parts = vec![schema];
    if let Some(Value::Array(all)) = schema.get("allOf") {
        parts.extend(all.iter());
    }
    let mut params: Vec<(String, Value)> = Vec::new();
    let mut required: Vec<String> = Vec::new();
    for p in parts {
        let Some(args) = p.pointer("/properties/args") else {
            continue;
        };
        for (k, v) in args
            .get("properties")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            if !params.iter().any(|(n, _)| n == k) {
                params.push((k.clone(), v.clone()));
            }
        }
        for r in args
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
        {
            required.push(r.to_owned());
        }
    }
    let args: Vec<String> = params
        .iter()
        .map(|(p, _)| format!("{p}{}", if required.contains(p) { "" } else { "?" }))
        .collect();
    let mut out = format!("• {name}({})", args.join(", "));
    if let Some(d) = schema.get("description").and_then(Value::as_str) {
        out.push_str(&format!("\n  - Description: {}", d.replace('\n', "\n    ")));
    }
    for (p, s) in &params {
        if let Some(d) = s.get("description").and_then(Value::as_str) {
            out.push_str(&format!("\n  - {p}: {d}"));
        }
    }
    out
}

/// One catalog's description: signatures and instructions.
fn catalog_description(
    doc: &Value,
    all: &[Value],
    express_version: crate::stream::model_text::express::ExpressVersion,
) -> String {
    let (comps, _) = signatures::read_definition(doc);
    let mut comps: Vec<(String, ComponentSig)> = comps;
    comps.sort_by(|a, b| a.0.cmp(&b.0));
    let doc_comps = doc.get("components");
    let comp_sigs: Vec<String> = comps
        .iter()
        .map(|(n, s)| {
            let schema = doc_comps.and_then(|c| c.get(n)).unwrap_or(&Value::Null);
            component_signature(n, s, schema)
        })
        .collect();
    let mut fns = members(doc, "functions");
    fns.sort_by(|a, b| a.0.cmp(b.0));
    let fn_sigs: Vec<String> = fns.iter().map(|(n, s)| function_signature(n, s)).collect();
    let mut out = format!(
        "## Positional Component Signatures\n\nInstantiate components with these positional signatures; do not write property keys:\n{}\n\n## Positional Function Signatures\n\nCall check rules and functions with these positional signatures:\n{}",
        comp_sigs.join("\n"),
        fn_sigs.join("\n")
    );
    if let Some(instr) = doc.get("instructions").and_then(Value::as_str)
        && !instr.is_empty()
    {
        let instr = decompile::translate_json_blocks(instr, doc, all, express_version);
        out.push_str(&format!("\n\n## Catalog Instructions\n\n{instr}"));
    }
    out
}

/// The Express snippet.
pub(crate) fn snippet(
    catalogs: &[Value],
    version: Version,
    examples: &[Vec<Value>],
    allowed: Option<&[String]>,
) -> String {
    let express_version = decompile::express_version(version);
    let root = example_root(catalogs).unwrap_or_else(|| "ComponentA".into());
    let mut rules = base_rules(&root, allowed);
    let multi_relevant = ["createSurface", "updateComponents", "updateDataModel"]
        .iter()
        .any(|k| allows(allowed, k));
    if catalogs.len() > 1 && multi_relevant {
        rules.push_str("\n\n");
        rules.push_str(&multi_catalog_rules(catalogs));
    }
    let mut parts = vec![format!("## Workflow Description:\n{rules}")];
    let description = if catalogs.len() == 1 {
        catalog_description(&catalogs[0], catalogs, express_version)
    } else {
        catalogs
            .iter()
            .map(|c| {
                format!(
                    "# Catalog `{}`\n\n{}",
                    c.get("catalogId")
                        .and_then(Value::as_str)
                        .unwrap_or_default(),
                    catalog_description(c, catalogs, express_version)
                )
            })
            .collect::<Vec<_>>()
            .join("\n\n")
    };
    parts.push(description);
    let blocks: Vec<String> = examples
        .iter()
        .map(|turn| decompile::wrap_express(&decompile_with(turn, catalogs, express_version)))
        .collect();
    if !blocks.is_empty() {
        parts.push(format!("### Examples:\n{}", blocks.join("\n\n")));
    }
    parts.join("\n\n")
}

fn decompile_with(
    turn: &[Value],
    catalogs: &[Value],
    version: crate::stream::model_text::express::ExpressVersion,
) -> String {
    let refs: Vec<&Value> = catalogs.iter().collect();
    let cat =
        crate::stream::model_text::express::ExpressCatalog::from_definitions(&refs, Some(version));
    decompile::decompile_express(turn, &cat)
}
