//! Example turns in the model's notation: messages as JSON, or decompiled into A2UI
//! Express (what the host's compiler turns back into the same components).

use serde_json::{Map, Value, json};

use crate::protocol::Version;
use crate::stream::model_text::express::signatures::{ComponentSig, holds_children};
use crate::stream::model_text::express::{ExpressCatalog, ExpressVersion};

/// The messages of one turn as the JSON a model writes in an `<a2ui-json>` block
/// (pretty-printed, two spaces).
pub fn decompile_json(messages: &[Value]) -> String {
    serde_json::to_string_pretty(messages).unwrap_or_default()
}

/// The Express version of a protocol version.
pub(crate) fn express_version(v: Version) -> ExpressVersion {
    match v {
        Version::V1_0 => ExpressVersion::V1_0,
        Version::V0_9_1 => ExpressVersion::V0_9_1,
        _ => ExpressVersion::V0_9,
    }
}

/// An Express block between its tags.
pub(crate) fn wrap_express(dsl: &str) -> String {
    format!("<a2ui>\n{dsl}\n</a2ui>")
}

/// The surface a statement is for when it names none.
const DEFAULT_SURFACE: &str = "default_surface";

/// A string literal in its most readable form: `"""…"""` for text over several lines
/// (raw `r"""…"""` when it has backslashes but no tabs), `r"…"` for one line with
/// backslashes and nothing to escape, else `"…"` with escapes.
fn string_lit(s: &str) -> String {
    let newline = s.contains(['\n', '\r']);
    let tab = s.contains('\t');
    let quote = s.contains('"');
    let backslash = s.contains('\\');
    if newline && !s.ends_with('"') && !s.contains("\"\"\"") {
        if backslash && !tab {
            return format!("r\"\"\"{s}\"\"\"");
        }
        return format!(
            "\"\"\"{}\"\"\"",
            s.replace('\\', "\\\\").replace('\t', "\\t")
        );
    }
    if backslash && !newline && !tab && !quote {
        return format!("r\"{s}\"");
    }
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn is_ident(s: &str) -> bool {
    let mut c = s.chars();
    c.next()
        .is_some_and(|f| f.is_ascii_alphabetic() || f == '_')
        && c.all(|x| x.is_ascii_alphanumeric() || x == '_')
        && !matches!(s, "true" | "false" | "null" | "_")
}

/// The path of a binding (`{"path": p}` / `{"@path": p}` alone).
fn binding(o: &Map<String, Value>) -> Option<&str> {
    if o.len() != 1 {
        return None;
    }
    o.get("path")
        .or_else(|| o.get("@path"))
        .and_then(Value::as_str)
}

struct Decompiler<'a> {
    cat: &'a ExpressCatalog,
    /// Component id → variable name.
    vars: Map<String, Value>,
}

impl Decompiler<'_> {
    fn var(&self, id: &str) -> String {
        self.vars
            .get(id)
            .and_then(Value::as_str)
            .map_or_else(|| id.to_owned(), str::to_owned)
    }

    /// A call of a catalog function: positional in signature order while contiguous,
    /// keywords after.
    fn call(&self, name: &str, args: &Map<String, Value>, extra: Option<&Value>) -> String {
        let order: Vec<String> = self
            .cat
            .functions
            .get(name)
            .map(|f| f.params.clone())
            .unwrap_or_default();
        let mut out = Vec::new();
        let mut positional = true;
        let mut done: Vec<&str> = Vec::new();
        for p in &order {
            match args.get(p) {
                Some(v) if positional => {
                    out.push(self.value(v, false));
                    done.push(p);
                }
                Some(v) => {
                    out.push(format!("{p}={}", self.value(v, false)));
                    done.push(p);
                }
                None => positional = false,
            }
        }
        for (k, v) in args {
            if !done.contains(&k.as_str()) {
                out.push(format!("{k}={}", self.value(v, false)));
            }
        }
        if let Some(e) = extra {
            out.push(self.value(e, false));
        }
        format!("{name}({})", out.join(", "))
    }

    fn action(&self, v: &Value) -> Option<String> {
        let o = v.as_object()?;
        if let Some(ev) = o.get("event").and_then(Value::as_object) {
            let name = ev.get("name").and_then(Value::as_str)?;
            return Some(match ev.get("context") {
                Some(ctx @ Value::Object(c)) if !c.is_empty() => {
                    format!("Event({}, {})", string_lit(name), self.value(ctx, false))
                }
                _ => format!("Event({})", string_lit(name)),
            });
        }
        o.get("functionCall").map(|f| self.value(f, false))
    }

    /// A value; `children` when the property holds component ids.
    fn value(&self, v: &Value, children: bool) -> String {
        match v {
            Value::String(s) if children => self.var(s),
            Value::String(s) => string_lit(s),
            Value::Number(n) => n.to_string(),
            Value::Bool(b) => b.to_string(),
            Value::Null => "null".into(),
            Value::Array(a) => format!(
                "[{}]",
                a.iter()
                    .map(|x| self.value(x, children))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Value::Object(o) => {
                if let Some(p) = binding(o) {
                    return format!("${p}");
                }
                if children
                    && let (Some(Value::String(c)), Some(p)) = (
                        o.get("componentId"),
                        o.get("path").or_else(|| o.get("@path")),
                    )
                {
                    let p = p.as_str().unwrap_or_default();
                    return format!("_template(${p}, {})", self.var(c));
                }
                if let Some(name) = o
                    .get("call")
                    .or_else(|| o.get("@call"))
                    .and_then(Value::as_str)
                {
                    let empty = Map::new();
                    let args = o.get("args").and_then(Value::as_object).unwrap_or(&empty);
                    return self.call(name, args, None);
                }
                if let Some(a) = self.action(v) {
                    return a;
                }
                let entries: Vec<String> = o
                    .iter()
                    .map(|(k, x)| {
                        let key = if is_ident(k) {
                            k.clone()
                        } else {
                            string_lit(k)
                        };
                        format!("{key}: {}", self.value(x, false))
                    })
                    .collect();
                format!("{{{}}}", entries.join(", "))
            }
        }
    }

    /// A check; its `value` argument left out when it is the component's own value
    /// binding (the compiler passes that one in).
    fn check(&self, c: &Value, own_value: Option<&Value>) -> String {
        let cond = c.get("condition").unwrap_or(c);
        let message = c.get("message");
        match cond
            .get("call")
            .or_else(|| cond.get("@call"))
            .and_then(Value::as_str)
        {
            Some(name) => {
                let empty = Map::new();
                let mut args = cond
                    .get("args")
                    .and_then(Value::as_object)
                    .unwrap_or(&empty)
                    .clone();
                if own_value.is_some() && args.get("value") == own_value {
                    args.remove("value");
                }
                format!("?{}", self.call(name, &args, message))
            }
            None => self.value(c, false),
        }
    }

    fn component(&self, c: &Map<String, Value>) -> Option<String> {
        let id = c.get("id").and_then(Value::as_str)?;
        let ty = c.get("component").and_then(Value::as_str)?;
        let default = ComponentSig::default();
        let sig = self.cat.components.get(ty).unwrap_or(&default);
        let prop_value = |p: &str, v: &Value| -> String {
            if p == "checks" {
                let items: Vec<String> = v
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|x| self.check(x, c.get("value")))
                    .collect();
                return format!("[{}]", items.join(", "));
            }
            if p == "action"
                && let Some(a) = self.action(v)
            {
                return a;
            }
            let children = sig.schemas.get(p).is_some_and(holds_children);
            self.value(v, children)
        };
        let mut args = Vec::new();
        let mut done: Vec<&str> = vec!["id", "component"];
        // Checks go last as bare `?check(...)` arguments, which the compiler reads as the
        // component's checks wherever they stand.
        let checks: Vec<String> = c
            .get("checks")
            .and_then(Value::as_array)
            .filter(|_| sig.props.iter().any(|p| p == "checks"))
            .map(|a| a.iter().map(|x| self.check(x, c.get("value"))).collect())
            .unwrap_or_default();
        if !checks.is_empty() {
            done.push("checks");
        }
        let is_arg = |p: &String| p != "checks" || checks.is_empty();
        let last = sig
            .props
            .iter()
            .rposition(|p| is_arg(p) && c.contains_key(p));
        let present = sig
            .props
            .iter()
            .filter(|p| is_arg(p) && c.contains_key(*p))
            .count();
        let span = last.map_or(0, |l| l + 1);
        // Positional with `_` for the gaps when that is short, keywords otherwise.
        let positional = span > 0 && span - present <= 1;
        for p in sig.props.iter().take(span) {
            match c.get(p) {
                Some(v) if positional => args.push(prop_value(p, v)),
                Some(v) => args.push(format!("{p}={}", prop_value(p, v))),
                None if positional => args.push("_".into()),
                None => {}
            }
            done.push(p);
        }
        if positional || span == 0 {
            args.extend(checks.iter().cloned());
        } else if !checks.is_empty() {
            args.push(format!("checks=[{}]", checks.join(", ")));
        }
        for (k, v) in c {
            if !done.contains(&k.as_str()) {
                args.push(format!("{k}={}", prop_value(k, v)));
            }
        }
        Some(format!("{} = {ty}({})", self.var(id), args.join(", ")))
    }
}

/// The messages of one turn as A2UI Express statements (without the `<a2ui>` tags),
/// written against `catalog`'s signatures as the official SDK's decompiler writes them: a
/// `surface(id)` block per message (a `createSurface` with the `updateComponents` that
/// follow it; `update=true` for an update that brings a new `root`), data as sorted leaf
/// `$/path = value` lines, one `id = Component(...)` line per component (positional
/// arguments in signature order, checks last; ids that are not Express names become
/// names), `deleteSurface(id)`.
///
/// ```
/// use egui_a2ui::prompt::decompile_express;
/// use egui_a2ui::stream::model_text::express::{ExpressCatalog, ExpressVersion};
/// use serde_json::json;
///
/// let cat = ExpressCatalog::basic(ExpressVersion::V1_0);
/// let dsl = decompile_express(&[
///     json!({"version": "v1.0", "createSurface": {"surfaceId": "s1", "catalogId": "c"}}),
///     json!({"version": "v1.0", "updateComponents": {"surfaceId": "s1", "components": [
///         {"id": "root", "component": "Text", "text": {"@path": "/name"}}]}}),
///     json!({"version": "v1.0", "updateDataModel": {"surfaceId": "s1", "path": "/name", "value": "Ada"}}),
/// ], &cat);
/// assert_eq!(dsl, "surface(\"s1\")\nroot = Text($/name)\nsurface(\"s1\")\n$/name = \"Ada\"");
/// ```
pub fn decompile_express(messages: &[Value], catalog: &ExpressCatalog) -> String {
    let mut d = Decompiler {
        cat: catalog,
        vars: Map::new(),
    };
    // Variable names for every component id.
    let mut taken: Vec<String> = Vec::new();
    for m in messages {
        let comps = m
            .pointer("/updateComponents/components")
            .or_else(|| m.pointer("/createSurface/components"))
            .and_then(Value::as_array);
        for c in comps.into_iter().flatten() {
            let Some(id) = c.get("id").and_then(Value::as_str) else {
                continue;
            };
            if d.vars.contains_key(id) {
                continue;
            }
            let mut name: String = if is_ident(id) {
                id.to_owned()
            } else {
                let s: String = id
                    .chars()
                    .map(|ch| if ch.is_ascii_alphanumeric() { ch } else { '_' })
                    .collect();
                if s.starts_with(|ch: char| ch.is_ascii_digit()) || s.is_empty() {
                    format!("c_{s}")
                } else {
                    s
                }
            };
            while taken.contains(&name) {
                name.push('_');
            }
            taken.push(name.clone());
            d.vars.insert(id.to_owned(), Value::String(name));
        }
    }
    let mut lines: Vec<String> = Vec::new();
    let components_of = |v: &Value| -> Vec<Map<String, Value>> {
        v.get("components")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_object)
            .cloned()
            .collect()
    };
    let mut i = 0;
    while i < messages.len() {
        let m = &messages[i];
        let first = lines.is_empty();
        i += 1;
        if let Some(cs) = m.get("createSurface") {
            // A surface block: the surface, its data model as leaf lines, its components
            // (with those of the `updateComponents` that follow for it).
            let sid = cs
                .get("surfaceId")
                .and_then(Value::as_str)
                .unwrap_or(DEFAULT_SURFACE);
            let send = cs.get("sendDataModel").and_then(Value::as_bool);
            if !(first && sid == DEFAULT_SURFACE && send.is_none()) {
                let flag = send.map_or(String::new(), |b| format!(", sendDataModel={b}"));
                lines.push(format!("surface({}{flag})", string_lit(sid)));
            }
            if let Some(v) = cs.get("dataModel") {
                data_lines(&d, v, &mut lines);
            }
            let mut comps = components_of(cs);
            while let Some(next) = messages.get(i).and_then(|n| n.get("updateComponents")) {
                if next.get("surfaceId").and_then(Value::as_str) != Some(sid) {
                    break;
                }
                comps.extend(components_of(next));
                i += 1;
            }
            lines.extend(comps.iter().filter_map(|c| d.component(c)));
        } else if let Some(uc) = m.get("updateComponents") {
            let sid = uc
                .get("surfaceId")
                .and_then(Value::as_str)
                .unwrap_or(DEFAULT_SURFACE);
            let comps = components_of(uc);
            // A new `root` in an update replaces the tree: `update=true` says the
            // surface exists.
            let has_root = comps.iter().any(|c| c.get("id") == Some(&json!("root")));
            if has_root {
                lines.push(format!("surface({}, update=true)", string_lit(sid)));
            } else if !(first && sid == DEFAULT_SURFACE) {
                lines.push(format!("surface({})", string_lit(sid)));
            }
            lines.extend(comps.iter().filter_map(|c| d.component(c)));
        } else if let Some(dm) = m.get("updateDataModel") {
            let sid = dm
                .get("surfaceId")
                .and_then(Value::as_str)
                .unwrap_or(DEFAULT_SURFACE);
            if !(first && sid == DEFAULT_SURFACE) {
                lines.push(format!("surface({})", string_lit(sid)));
            }
            let path = dm.get("path").and_then(Value::as_str).unwrap_or("/");
            match (path, dm.get("value")) {
                ("/" | "", Some(v @ Value::Object(o))) if !o.is_empty() => {
                    data_lines(&d, v, &mut lines);
                }
                (p, v) => lines.push(format!(
                    "${p} = {}",
                    d.value(v.unwrap_or(&Value::Null), false)
                )),
            }
        } else if let Some(s) = m
            .get("deleteSurface")
            .and_then(|ds| ds.get("surfaceId"))
            .and_then(Value::as_str)
        {
            lines.push(format!("deleteSurface({})", string_lit(s)));
        }
    }
    lines.join("\n")
}

/// `$/path = value` lines for a data model value: objects down to their leaves (an
/// empty object, an array or a scalar is one line), sorted by path.
fn data_lines(d: &Decompiler<'_>, v: &Value, lines: &mut Vec<String>) {
    fn leaves<'v>(prefix: String, v: &'v Value, out: &mut Vec<(String, &'v Value)>, depth: usize) {
        match v {
            Value::Object(o) if !o.is_empty() && depth < 32 => {
                for (k, x) in o {
                    leaves(format!("{prefix}/{k}"), x, out, depth + 1);
                }
            }
            _ => out.push((prefix, v)),
        }
    }
    let mut out = Vec::new();
    leaves(String::new(), v, &mut out, 0);
    out.sort_by(|a, b| a.0.cmp(&b.0));
    for (p, x) in out {
        if !p.is_empty() {
            lines.push(format!("${p} = {}", d.value(x, false)));
        }
    }
}

/// Catalog instructions with their ```json example blocks of messages given as Express.
pub(crate) fn translate_json_blocks(
    text: &str,
    doc: &Value,
    all: &[Value],
    ev: ExpressVersion,
) -> String {
    let mut refs: Vec<&Value> = vec![doc];
    refs.extend(all.iter().filter(|d| !std::ptr::eq(*d, doc)));
    let cat = ExpressCatalog::from_definitions(&refs, Some(ev));
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("```json") {
        let body_from = start + "```json".len();
        let Some(end_rel) = rest[body_from..].find("```") else {
            break;
        };
        let body = rest[body_from..body_from + end_rel].trim();
        out.push_str(&rest[..start]);
        let parsed: Option<Vec<Value>> = match serde_json::from_str::<Value>(body) {
            Ok(Value::Array(a)) => Some(a),
            Ok(o @ Value::Object(_)) => Some(vec![o]),
            _ => None,
        };
        let messages = parsed.filter(|ms| {
            !ms.is_empty()
                && ms.iter().all(|m| {
                    [
                        "createSurface",
                        "updateComponents",
                        "updateDataModel",
                        "deleteSurface",
                    ]
                    .iter()
                    .any(|k| m.get(k).is_some())
                })
        });
        match messages {
            Some(ms) => {
                out.push_str("```\n");
                out.push_str(&wrap_express(&decompile_express(&ms, &cat)));
                out.push_str("\n```");
            }
            None => out.push_str(&rest[start..body_from + end_rel + 3]),
        }
        rest = &rest[body_from + end_rel + 3..];
    }
    out.push_str(rest);
    out
}
