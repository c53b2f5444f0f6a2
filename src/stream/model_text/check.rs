//! Component references, topology and the message checks the model-text parser runs, ported
//! from the official Python agent SDK's `a2ui.schema.validator` (integrity, topology,
//! recursion and path rules). JSON Schema validation proper is pluggable through
//! [`SchemaHook`], so this egui-free layer carries no schema engine.

use std::collections::BTreeSet;

use super::{HashMap, HashSet};

use serde_json::{Map, Value};

use super::{Family, ModelTextError};

/// Deepest component tree (and JSON nesting) the reference validator accepts.
pub const MAX_GLOBAL_DEPTH: usize = 50;
/// Deepest nesting of function calls the reference validator accepts.
pub const MAX_FUNC_CALL_DEPTH: usize = 5;

/// Per component type: the properties holding one component id and those holding a list.
pub type RefFieldsMap = HashMap<String, (HashSet<String>, HashSet<String>)>;
/// Per component type: its required properties (except `component`).
pub type RequiredFields = HashMap<String, Vec<String>>;

const HEURISTIC_SINGLE: [&str; 6] = [
    "child",
    "contentChild",
    "entryPointChild",
    "detail",
    "summary",
    "root",
];
const HEURISTIC_LIST: [&str; 3] = ["children", "explicitList", "template"];

/// The component schemas of a catalog: for v0.8 those under
/// `surfaceUpdate.components.items.component` of the server-to-client schema when present,
/// else (and for v0.9+) the catalog's `components`.
pub fn catalog_components(
    family: Family,
    s2c_schema: Option<&Value>,
    catalog_schema: Option<&Value>,
) -> Map<String, Value> {
    if family == Family::V08
        && let Some(m) = s2c_schema
            .and_then(|s| s.pointer("/properties/surfaceUpdate/properties/components/items"))
            .and_then(|i| i.pointer("/properties/component/properties"))
            .and_then(Value::as_object)
        && !m.is_empty()
    {
        return m.clone();
    }
    catalog_schema
        .and_then(|c| c.get("components"))
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default()
}

fn is_component_id_ref(s: &Value) -> bool {
    let Some(o) = s.as_object() else {
        return false;
    };
    if let Some(r) = o.get("$ref").and_then(Value::as_str)
        && (r.ends_with("ComponentId") || r.ends_with("child") || r.contains("/child"))
    {
        return true;
    }
    if o.get("type").and_then(Value::as_str) == Some("string")
        && o.get("title").and_then(Value::as_str) == Some("ComponentId")
    {
        return true;
    }
    ["oneOf", "anyOf", "allOf"].iter().any(|k| {
        o.get(*k)
            .and_then(Value::as_array)
            .is_some_and(|subs| subs.iter().any(is_component_id_ref))
    })
}

fn is_child_list_ref(s: &Value) -> bool {
    let Some(o) = s.as_object() else {
        return false;
    };
    if let Some(r) = o.get("$ref").and_then(Value::as_str)
        && (r.ends_with("ChildList") || r.ends_with("children") || r.contains("/children"))
    {
        return true;
    }
    if o.get("type").and_then(Value::as_str) == Some("object")
        && let Some(p) = o.get("properties").and_then(Value::as_object)
        && (p.contains_key("explicitList")
            || p.contains_key("template")
            || p.contains_key("componentId"))
    {
        return true;
    }
    if o.get("type").and_then(Value::as_str) == Some("array")
        && o.get("items").is_some_and(is_component_id_ref)
    {
        return true;
    }
    ["oneOf", "anyOf", "allOf"].iter().any(|k| {
        o.get(*k)
            .and_then(Value::as_array)
            .is_some_and(|subs| subs.iter().any(is_child_list_ref))
    })
}

/// Which properties of each component type reference other components.
pub fn extract_ref_fields(components: &Map<String, Value>) -> RefFieldsMap {
    fn walk(cs: &Value, single: &mut HashSet<String>, list: &mut HashSet<String>) {
        let Some(o) = cs.as_object() else {
            return;
        };
        if let Some(props) = o.get("properties").and_then(Value::as_object) {
            for (name, ps) in props {
                if is_component_id_ref(ps)
                    || matches!(name.as_str(), "child" | "contentChild" | "entryPointChild")
                {
                    single.insert(name.clone());
                } else if is_child_list_ref(ps) || name == "children" {
                    list.insert(name.clone());
                }
            }
        }
        for k in ["allOf", "oneOf", "anyOf"] {
            for sub in o.get(k).and_then(Value::as_array).into_iter().flatten() {
                walk(sub, single, list);
            }
        }
    }
    let mut out = RefFieldsMap::default();
    for (name, schema) in components {
        let (mut s, mut l) = (HashSet::default(), HashSet::default());
        walk(schema, &mut s, &mut l);
        if !s.is_empty() || !l.is_empty() {
            out.insert(name.clone(), (s, l));
        }
    }
    out
}

/// The `required` properties of each component type (except `component`).
pub fn extract_required_fields(components: &Map<String, Value>) -> RequiredFields {
    fn walk(cs: &Value, req: &mut Vec<String>) {
        let Some(o) = cs.as_object() else {
            return;
        };
        for r in o
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if let Some(r) = r.as_str()
                && r != "component"
                && !req.iter().any(|x| x == r)
            {
                req.push(r.to_owned());
            }
        }
        for k in ["allOf", "oneOf", "anyOf"] {
            for sub in o.get(k).and_then(Value::as_array).into_iter().flatten() {
                walk(sub, req);
            }
        }
    }
    let mut out = HashMap::default();
    for (name, schema) in components {
        let mut req = Vec::new();
        walk(schema, &mut req);
        if !req.is_empty() {
            out.insert(name.clone(), req);
        }
    }
    out
}

/// Every `(referenced id, field)` of one component (v0.8 nested or v0.9+ flat form).
pub fn component_references(component: &Value, refs: &RefFieldsMap) -> Vec<(String, String)> {
    let mut out = Vec::new();
    match component.get("component") {
        Some(Value::String(t)) => refs_recursively(t, component, refs, &mut out),
        Some(Value::Object(m)) => {
            for (t, props) in m {
                if props.is_object() {
                    refs_recursively(t, props, refs, &mut out);
                }
            }
        }
        _ => {}
    }
    out
}

fn refs_recursively(
    comp_type: &str,
    props: &Value,
    refs: &RefFieldsMap,
    out: &mut Vec<(String, String)>,
) {
    let Some(props) = props.as_object() else {
        return;
    };
    if comp_type.is_empty() {
        return;
    }
    let empty = (HashSet::default(), HashSet::default());
    let (single, list) = refs.get(comp_type).unwrap_or(&empty);
    for (key, value) in props {
        if single.contains(key) || HEURISTIC_SINGLE.contains(&key.as_str()) {
            if let Some(s) = value.as_str() {
                out.push((s.to_owned(), key.clone()));
            } else if let Some(c) = value.get("componentId").and_then(Value::as_str) {
                out.push((c.to_owned(), format!("{key}.componentId")));
            }
        } else if list.contains(key) || HEURISTIC_LIST.contains(&key.as_str()) {
            match value {
                Value::Array(items) => {
                    for i in items.iter().filter_map(Value::as_str) {
                        out.push((i.to_owned(), key.clone()));
                    }
                }
                Value::Object(o) => {
                    if let Some(l) = o.get("explicitList") {
                        for i in l.as_array().into_iter().flatten().filter_map(Value::as_str) {
                            out.push((i.to_owned(), format!("{key}.explicitList")));
                        }
                    } else if let Some(t) = o.get("template") {
                        if let Some(c) = t.get("componentId").and_then(Value::as_str) {
                            out.push((c.to_owned(), format!("{key}.template.componentId")));
                        }
                    } else if let Some(c) = o.get("componentId").and_then(Value::as_str) {
                        out.push((c.to_owned(), format!("{key}.componentId")));
                    }
                }
                _ => {}
            }
        }
        if let Value::Array(items) = value
            && !list.contains(key)
        {
            for (idx, item) in items.iter().enumerate() {
                if let Some(c) = item.get("child").and_then(Value::as_str)
                    && !c.is_empty()
                {
                    out.push((c.to_owned(), format!("{key}[{idx}].child")));
                }
            }
        }
    }
}

/// Component ids reachable from `root_id` (every id when there is no root), failing on a
/// self-reference, a cycle, a tree deeper than [`MAX_GLOBAL_DEPTH`] or, when asked, an
/// orphan.
pub fn analyze_topology<'a>(
    root_id: Option<&str>,
    components: impl IntoIterator<Item = &'a Value>,
    refs: &RefFieldsMap,
    raise_on_orphans: bool,
) -> Result<HashSet<String>, ModelTextError> {
    let mut adj: HashMap<String, Vec<String>> = HashMap::default();
    let mut all: BTreeSet<String> = BTreeSet::new();
    for comp in components {
        let Some(id) = comp.get("id").and_then(Value::as_str) else {
            continue;
        };
        all.insert(id.to_owned());
        adj.entry(id.to_owned()).or_default();
        for (r, field) in component_references(comp, refs) {
            if r == id {
                return Err(ModelTextError::Recursion(format!(
                    "Self-reference detected: Component '{id}' references itself in field '{field}'"
                )));
            }
            adj.entry(id.to_owned()).or_default().push(r);
        }
    }
    let mut visited = HashSet::default();
    let mut on_stack = HashSet::default();
    fn dfs(
        node: &str,
        depth: usize,
        adj: &HashMap<String, Vec<String>>,
        visited: &mut HashSet<String>,
        on_stack: &mut HashSet<String>,
    ) -> Result<(), ModelTextError> {
        if depth > MAX_GLOBAL_DEPTH {
            return Err(ModelTextError::Recursion(format!(
                "Global recursion limit exceeded: logical depth > {MAX_GLOBAL_DEPTH}"
            )));
        }
        visited.insert(node.to_owned());
        on_stack.insert(node.to_owned());
        for n in adj.get(node).into_iter().flatten() {
            if !visited.contains(n) {
                dfs(n, depth + 1, adj, visited, on_stack)?;
            } else if on_stack.contains(n) {
                return Err(ModelTextError::Recursion(format!(
                    "Circular reference detected involving component '{n}'"
                )));
            }
        }
        on_stack.remove(node);
        Ok(())
    }
    if let Some(root) = root_id {
        if all.contains(root) {
            dfs(root, 0, &adj, &mut visited, &mut on_stack)?;
        }
        if raise_on_orphans && let Some(o) = all.iter().find(|id| !visited.contains(*id)) {
            return Err(ModelTextError::Validation(format!(
                "Component '{o}' is not reachable from '{root}'"
            )));
        }
    } else {
        for id in &all {
            if !visited.contains(id) {
                dfs(id, 0, &adj, &mut visited, &mut on_stack)?;
            }
        }
    }
    Ok(visited)
}

/// A check run on each message the parser yields (`strict` is false for partial messages
/// built while streaming, which are then dropped instead of failing the stream).
pub trait MessageCheck: Send {
    /// `Ok` when `message` may be yielded.
    fn check(
        &self,
        message: &Value,
        root_id: Option<&str>,
        strict: bool,
    ) -> Result<(), ModelTextError>;
}

/// JSON Schema validation plugged into [`StructuralCheck`] (the crate's `validation`
/// feature or a test harness provides one); each method returns error descriptions.
pub trait SchemaHook: Send {
    /// v0.8: the messages (a JSON array) against the server-to-client schema bundled with
    /// the catalog's components.
    fn v08_errors(&self, messages: &Value) -> Vec<String>;
    /// v0.9+: one message against `$defs/<def_name>` of the server-to-client schema.
    fn v09_def_errors(&self, def_name: &str, message: &Value) -> Vec<String>;
    /// v0.9+: one component against the catalog's schema for `comp_type`; `None` when the
    /// catalog has no such component.
    fn v09_component_errors(&self, comp_type: &str, component: &Value) -> Option<Vec<String>>;
}

/// The reference validator's rules: message shape (through an optional [`SchemaHook`]),
/// unique ids, a root, no dangling references, no cycles, depth and JSON Pointer syntax.
pub struct StructuralCheck {
    family: Family,
    version_tag: String,
    refs: RefFieldsMap,
    schema: Option<Box<dyn SchemaHook>>,
}

impl std::fmt::Debug for StructuralCheck {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StructuralCheck")
            .field("family", &self.family)
            .finish_non_exhaustive()
    }
}

impl StructuralCheck {
    /// A check for `family` with the reference fields of `components` (see
    /// [`catalog_components`]); `version_tag` is the `version` v0.9+ messages must carry.
    pub fn new(
        family: Family,
        version_tag: &str,
        components: &Map<String, Value>,
        schema: Option<Box<dyn SchemaHook>>,
    ) -> Self {
        Self {
            family,
            version_tag: version_tag.to_owned(),
            refs: extract_ref_fields(components),
            schema,
        }
    }

    fn v09_shape_errors(&self, messages: &[Value]) -> Vec<String> {
        let mut errs = Vec::new();
        for (idx, m) in messages.iter().enumerate() {
            let base = format!("messages[{idx}]");
            let Some(o) = m.as_object() else {
                errs.push(format!("{base}: Is not an object"));
                continue;
            };
            let def = if o.contains_key("createSurface") {
                Some("CreateSurfaceMessage")
            } else if o.contains_key("updateComponents") {
                None
            } else if o.contains_key("updateDataModel") {
                Some("UpdateDataModelMessage")
            } else if o.contains_key("deleteSurface") {
                Some("DeleteSurfaceMessage")
            } else {
                let keys: Vec<&str> = o.keys().map(String::as_str).collect();
                errs.push(format!("{base}: Unknown message type with keys {keys:?}"));
                continue;
            };
            if let Some(def) = def {
                if let Some(s) = &self.schema {
                    errs.extend(
                        s.v09_def_errors(def, m)
                            .into_iter()
                            .map(|e| format!("{base}: {e}")),
                    );
                }
                continue;
            }
            if o.get("version").and_then(Value::as_str) != Some(self.version_tag.as_str()) {
                errs.push(format!(
                    "{base}: Invalid version, expected '{}'",
                    self.version_tag
                ));
            }
            let Some(uc) = o.get("updateComponents").and_then(Value::as_object) else {
                errs.push(format!("{base}: Expected updateComponents to be an object"));
                continue;
            };
            if !uc.get("surfaceId").is_some_and(Value::is_string) {
                errs.push(format!(
                    "{base}.updateComponents: Invalid or missing surfaceId"
                ));
            }
            let Some(comps) = uc.get("components").and_then(Value::as_array) else {
                errs.push(format!(
                    "{base}.updateComponents: Expected components to be an array"
                ));
                continue;
            };
            for (ci, comp) in comps.iter().enumerate() {
                let path = match comp.get("id").and_then(Value::as_str) {
                    Some(id) if !id.is_empty() => {
                        format!("{base}.updateComponents.components[id='{id}']")
                    }
                    _ => format!("{base}.updateComponents.components[{ci}]"),
                };
                if !comp.is_object() {
                    errs.push(format!("{path}: Component is not an object"));
                    continue;
                }
                let Some(t) = comp
                    .get("component")
                    .and_then(Value::as_str)
                    .filter(|t| !t.is_empty())
                else {
                    errs.push(format!("{path}: Missing 'component' field"));
                    continue;
                };
                if let Some(s) = &self.schema {
                    match s.v09_component_errors(t, comp) {
                        None => errs.push(format!("{path}: Unknown component: {t}")),
                        Some(e) => errs.extend(e.into_iter().map(|e| format!("{path}: {e}"))),
                    }
                }
            }
        }
        errs
    }
}

fn find_root_id(messages: &[Value], surface_id: Option<&str>) -> Option<String> {
    for m in messages {
        if let Some(br) = m.get("beginRendering") {
            if surface_id.is_some() && br.get("surfaceId").and_then(Value::as_str) != surface_id {
                continue;
            }
            return Some(
                br.get("root")
                    .and_then(Value::as_str)
                    .unwrap_or("root")
                    .to_owned(),
            );
        }
        if let Some(cs) = m.get("createSurface") {
            if surface_id.is_some() && cs.get("surfaceId").and_then(Value::as_str) != surface_id {
                continue;
            }
            return Some("root".to_owned());
        }
    }
    None
}

fn component_integrity(
    root_id: Option<&str>,
    components: &[Value],
    refs: &RefFieldsMap,
    skip_root_check: bool,
) -> Result<(), ModelTextError> {
    let mut ids = HashSet::default();
    for c in components {
        if let Some(id) = c.get("id").and_then(Value::as_str)
            && !ids.insert(id)
        {
            return Err(ModelTextError::Validation(format!(
                "Duplicate component ID: {id}"
            )));
        }
    }
    if let Some(root) = root_id
        && !skip_root_check
    {
        if !ids.contains(root) {
            return Err(ModelTextError::Validation(format!(
                "Missing root component: No component has id='{root}'"
            )));
        }
        for c in components {
            for (r, field) in component_references(c, refs) {
                if !ids.contains(r.as_str()) {
                    return Err(ModelTextError::Validation(format!(
                        "Component '{}' references non-existent component '{r}' in field '{field}'",
                        c.get("id").and_then(Value::as_str).unwrap_or_default()
                    )));
                }
            }
        }
    }
    Ok(())
}

/// The reference's relaxed JSON Pointer rule for `path` values.
fn path_ok(path: &str) -> bool {
    // (/(?:[^~/]|~[01])*)* | (?:[^~/]|~[01])+(/(?:[^~/]|~[01])*)*  ⇔  every `~` is `~0`/`~1`
    // and a relative path does not start with an empty segment.
    let bytes = path.as_bytes();
    for (i, b) in bytes.iter().enumerate() {
        if *b == b'~' && !matches!(bytes.get(i + 1), Some(b'0' | b'1')) {
            return false;
        }
    }
    true
}

fn recursion_and_paths(data: &Value) -> Result<(), ModelTextError> {
    fn walk(item: &Value, depth: usize, func: usize) -> Result<(), ModelTextError> {
        if depth > MAX_GLOBAL_DEPTH {
            return Err(ModelTextError::Recursion(format!(
                "Global recursion limit exceeded: Depth > {MAX_GLOBAL_DEPTH}"
            )));
        }
        match item {
            Value::Array(a) => a.iter().try_for_each(|x| walk(x, depth + 1, func)),
            Value::Object(o) => {
                if let Some(p) = o.get("path").and_then(Value::as_str)
                    && !path_ok(p)
                {
                    return Err(ModelTextError::Validation(format!(
                        "Invalid path syntax: '{p}'"
                    )));
                }
                let is_func = o.contains_key("call") && o.contains_key("args");
                if is_func && func >= MAX_FUNC_CALL_DEPTH {
                    return Err(ModelTextError::Recursion(format!(
                        "Recursion limit exceeded: functionCall depth > {MAX_FUNC_CALL_DEPTH}"
                    )));
                }
                for (k, v) in o {
                    let f = if is_func && k == "args" {
                        func + 1
                    } else {
                        func
                    };
                    walk(v, depth + 1, f)?;
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }
    walk(data, 0, 0)
}

impl MessageCheck for StructuralCheck {
    fn check(
        &self,
        message: &Value,
        _root_id: Option<&str>,
        strict: bool,
    ) -> Result<(), ModelTextError> {
        let messages = std::slice::from_ref(message);
        let comp_key = match self.family {
            Family::V08 => {
                if let Some(s) = &self.schema {
                    let errs = s.v08_errors(&Value::Array(messages.to_vec()));
                    if let Some(first) = errs.first() {
                        return Err(ModelTextError::Validation(format!(
                            "Validation failed: {first}"
                        )));
                    }
                }
                "surfaceUpdate"
            }
            Family::V09 => {
                let errs = self.v09_shape_errors(messages);
                if !errs.is_empty() {
                    let body: Vec<String> = errs.iter().map(|e| format!("  - {e}")).collect();
                    return Err(ModelTextError::Validation(format!(
                        "Validation failed:\n{}",
                        body.join("\n")
                    )));
                }
                "updateComponents"
            }
        };
        if let Some(uc) = message.get(comp_key).filter(|v| v.is_object()) {
            let comps = uc.get("components").and_then(Value::as_array);
            if let Some(comps) = comps.filter(|c| !c.is_empty()) {
                let sid = uc.get("surfaceId").and_then(Value::as_str);
                let root = find_root_id(messages, sid);
                component_integrity(root.as_deref(), comps, &self.refs, !strict)?;
                analyze_topology(root.as_deref(), comps, &self.refs, strict)?;
            }
        }
        recursion_and_paths(message)
    }
}
