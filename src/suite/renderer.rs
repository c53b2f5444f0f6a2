//! The renderer-side case actions of `conformance_schema.json` that no copied suite uses
//! yet, so that an upstream suite with them runs on arrival: `dispatch_action`
//! (`DispatchActionTest`) and `resolve_nodes` (`NodeResolutionTest`, with its step ops
//! `set_data`, `update_components`, `remove_component`, `write`, `invoke` and `dispose`);
//! and the actions of the agent SDK and the extensions, which are reported as skipped with
//! the reason rather than failed for want of a handler.
//!
//! # `resolve_nodes`: how the node tree is named
//!
//! The schema fixes the case's shape but not the spelling of a "mounted node path" (its
//! prose, `core/node_resolution.md`, was not published with the suites we have). The
//! runner names a node by the component ids from the root down, joined with `/`; a
//! template instance adds its item index: `root`, `root/title`, `root/list/item[2]`. A
//! node's `state` is `resolved`, `unknown-type` (its catalog has no such type), `pending`
//! (the id is referenced but not defined yet) or `cyclic`; its `data_path` is its data
//! scope (`/` at the root, `/items/2` in a template instance); its `props` are its
//! properties resolved in that scope (bindings and calls evaluated), without the child
//! references (`child`, `children`) and the `action`, which `invoke` fires.
//!
//! A step compares the tree before and after: a node is *emitted* when it is new or its
//! resolved state changed (`emissions`, one per node), *destroyed* when it is gone,
//! *replaced* when the same path now holds another component or type, and the *same*
//! otherwise. `write` writes a value the way a user's input does (into the data model when
//! the property is bound); `invoke` fires a property holding an action or a function call
//! (`events`, `functions`); `dispose` deletes the surface.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use super::{
    Check, Handled, Runner, case_version, check_error, compact, expect_error_of, json_eq, register,
    subset,
};
use crate::error::A2uiError;
use crate::eval::{EvalContext, FunctionRegistry};
use crate::model::tree::{NodeKind, TreeNode, resolve_tree};
use crate::model::{Catalogs, ChangeSource, SurfaceStore};
use crate::protocol::Version;

/// The agent-SDK and extension actions of the schema: what an agent (or an A2A / ADK
/// integration) does, not a renderer. Each is skipped with this reason.
pub(super) fn agent_side(action: &str) -> Option<&'static str> {
    const AGENT: &[&str] = &[
        "compile",
        "decompile",
        "core_syntax",
        "create_format",
        "create_processor",
        "from_catalog",
        "from_format",
        "generate_prompt",
        "generate_prompt_snippet",
        "load",
        "load_catalog",
        "parse_chunk",
        "parse_full",
        "parse_response",
        "process_chunk",
        "fix_payload",
        "verify_cuttable_keys",
        "provide_catalog",
        "prune",
        "render",
        "resolve_catalogs",
        "skill_set",
        "transform_catalog",
        "unwrap",
        "wrap",
    ];
    const EXTENSION: &[&str] = &[
        "convert_event",
        "create_a2ui_part",
        "is_a2ui_part",
        "has_parts",
        "get_extension",
        "try_activate",
        "try_activate_extension",
        "select_newest",
        "execute_tool",
    ];
    if AGENT.contains(&action) {
        Some(
            "an agent SDK action (prompting, inference formats, catalog negotiation on the \
             agent's side, the streaming parser of model output); egui_a2ui is a renderer",
        )
    } else if EXTENSION.contains(&action) {
        Some(
            "an A2A / ADK integration action of an agent SDK (parts, extension activation, \
             tools); egui_a2ui's A2A client is tested against real peers in tests/transport",
        )
    } else {
        None
    }
}

/// Whether `v` is a binding (`{"path": ...}` alone, or `{"@path"}` in v1.0).
fn binding(v: &Value) -> Option<&str> {
    let m = v.as_object()?;
    if m.contains_key("call") || m.contains_key("@call") || m.contains_key("componentId") {
        return None;
    }
    m.get("path")
        .or_else(|| m.get("@path"))
        .and_then(Value::as_str)
}

impl Runner {
    /// `dispatch_action`: an action fired on a component with the case's data model and
    /// scope. An `event` action is dispatched to the agent with its context resolved
    /// (`expectDispatched`); a `functionCall` runs locally (`expectDataModel` after it,
    /// `expectError` when it fails, as an unknown function does).
    pub(super) fn dispatch_action(&self, case: &Value) -> Check {
        let version = case
            .get("protocolVersion")
            .map_or(Version::V1_0, |_| case_version(case));
        let mut payload = case.get("actionPayload").cloned().unwrap_or(Value::Null);
        if version.family() == Version::V1_0 {
            payload = crate::protocol::reserved::normalize_value(payload);
        }
        let data = case.get("dataModel").cloned().unwrap_or_else(|| json!({}));
        let scope = case.get("scope").and_then(Value::as_str).unwrap_or("/");
        let functions = self.case_functions(case)?;
        let cx = EvalContext::new(&data, scope, version, &functions, &self.limits);
        let result: Result<Value, A2uiError> = if let Some(Value::Object(ev)) = payload.get("event")
        {
            match ev.get("name").and_then(Value::as_str) {
                None | Some("") => Err(A2uiError::validation(
                    "/actionPayload/event/name",
                    "an event action needs a name",
                )),
                Some(name) => {
                    let context: Map<String, Value> = match ev.get("context") {
                        Some(Value::Object(c)) => c
                            .iter()
                            .map(|(k, v)| (k.clone(), cx.resolve_deep(v)))
                            .collect(),
                        _ => Map::new(),
                    };
                    let mut d = json!({"name": name, "context": context});
                    if let Some(um) = ev.get("userMessage") {
                        d["userMessage"] =
                            json!(crate::eval::coerce::to_display_string(&cx.resolve(um)));
                    }
                    match cx.take_diagnostics().into_iter().next() {
                        Some(e) => Err(e),
                        None => Ok(d),
                    }
                }
            }
        } else if let Some(Value::Object(fc)) = payload.get("functionCall") {
            cx.call(fc).map(|_| Value::Null)
        } else {
            Err(A2uiError::validation(
                "/actionPayload",
                "an action is an `event` or a `functionCall`",
            ))
        };
        if let Some(expect) = expect_error_of(case) {
            return match result {
                Ok(v) => Err(format!("expected an error, got {}", compact(&v))),
                Err(e) => check_error(expect, &e, false),
            };
        }
        let got = result.map_err(|e| format!("unexpected error: {e}"))?;
        if let Some(want) = case.get("expectDispatched") {
            if got.is_null() {
                return Err("nothing was dispatched to the agent (a local function call)".into());
            }
            subset(want, &got).map_err(|r| format!("dispatched: {r}"))?;
            if let (Some(w), Some(g)) = (want.get("context"), got.get("context"))
                && !json_eq(w, g)
            {
                return Err(format!("context {} != {}", compact(g), compact(w)));
            }
        } else if !got.is_null() {
            // An event nobody expected is still checked for being well formed.
            if got.get("name").and_then(Value::as_str).is_none() {
                return Err(format!("dispatched {} has no name", compact(&got)));
            }
        }
        if let Some(want) = case.get("expectDataModel")
            && !json_eq(want, &data)
        {
            return Err(format!(
                "data model {} != {}",
                compact(&data),
                compact(want)
            ));
        }
        Ok(())
    }

    /// The functions a case's surface may call: the basic ones (`useBasicCatalog`, the
    /// default), else none but what its catalogs declare (none of which have an
    /// implementation here: calling them fails as an unknown function would).
    fn case_functions(&self, case: &Value) -> Result<FunctionRegistry, String> {
        if case.get("useBasicCatalog").and_then(Value::as_bool) == Some(false) {
            let _ = self.case_catalogs(case)?;
            return Ok(FunctionRegistry::empty());
        }
        Ok(FunctionRegistry::basic())
    }

    /// `resolve_nodes`: a fixture's components mounted on a surface of its catalog, then
    /// each step's op, the node tree checked after the mount and after every step.
    pub(super) fn resolve_nodes(&self, case: &Value) -> Handled {
        let Some(fixture_path) = case.get("fixture").and_then(Value::as_str) else {
            return Err("a resolve_nodes case names a fixture".into());
        };
        let Some(fixture) = self.read_conformance_doc(fixture_path)? else {
            return Ok(Some(format!(
                "the fixture {fixture_path} is YAML and this runner was given no YAML \
                 parser (Runner::with_yaml; the tests and the a2ui_suite example have one)"
            )));
        };
        let mut nodes = NodeCase::mount(self, &fixture)?;
        let mut before = BTreeMap::new();
        let after = nodes.snapshot();
        let expect = case.get("expect").cloned().unwrap_or(Value::Null);
        nodes
            .check(&expect, &before, &after, "mount")
            .map_err(|r| format!("after the mount: {r}"))?;
        before = after;
        for (i, step) in case
            .get("steps")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
        {
            nodes.events.clear();
            nodes.function_calls.clear();
            nodes
                .step(step, &before)
                .map_err(|r| format!("step {i}: {r}"))?;
            let after = nodes.snapshot();
            let expect = step.get("expect").cloned().unwrap_or(Value::Null);
            nodes
                .check(&expect, &before, &after, "step")
                .map_err(|r| format!("step {i}: {r}"))?;
            before = after;
        }
        Ok(None)
    }

    /// A document below the `conformance/` folder (fixtures of node cases are named from
    /// there): JSON, or YAML through the runner's parser (`None` without one).
    fn read_conformance_doc(&self, rel: &str) -> Result<Option<Value>, String> {
        let path = self.root.join("conformance").join(rel);
        let text = std::fs::read_to_string(&path)
            .map_err(|e| format!("fixture {rel} ({}): {e}", path.display()))?;
        if rel.ends_with(".json") {
            return serde_json::from_str(&text)
                .map(Some)
                .map_err(|e| format!("fixture {rel}: {e}"));
        }
        match self.yaml {
            Some(parse) => parse(&text)
                .map(Some)
                .map_err(|e| format!("fixture {rel}: {e}")),
            None => Ok(None),
        }
    }
}

/// One mounted node, as compared between steps.
#[derive(Clone, Debug, PartialEq)]
struct NodeState {
    component_id: String,
    ty: Option<String>,
    state: &'static str,
    data_path: String,
    props: Map<String, Value>,
}

impl NodeState {
    fn to_json(&self) -> Value {
        let mut m = Map::new();
        m.insert("component_id".into(), json!(self.component_id));
        if let Some(t) = &self.ty {
            m.insert("type".into(), json!(t));
        }
        m.insert("state".into(), json!(self.state));
        m.insert("data_path".into(), json!(self.data_path));
        m.insert("props".into(), Value::Object(self.props.clone()));
        Value::Object(m)
    }
}

type Snapshot = BTreeMap<String, NodeState>;

/// A `resolve_nodes` case under way: its store, and what the current step fired.
struct NodeCase {
    store: SurfaceStore,
    version: Version,
    functions: FunctionRegistry,
    events: Vec<Value>,
    function_calls: Vec<Value>,
}

const SURFACE: &str = "main";

impl NodeCase {
    /// The store with the fixture's catalog, the surface created with its components and
    /// data.
    fn mount(runner: &Runner, fixture: &Value) -> Result<Self, String> {
        let cat = fixture
            .get("catalog")
            .and_then(Value::as_str)
            .ok_or("a node fixture names its catalog")?;
        let doc = runner
            .read_conformance_doc(cat)?
            .ok_or_else(|| format!("catalog {cat} is not JSON"))?;
        let version = doc
            .get("protocolVersion")
            .and_then(Value::as_str)
            .and_then(super::parse_version)
            .unwrap_or(Version::V1_0);
        let id = doc
            .get("catalogId")
            .and_then(Value::as_str)
            .unwrap_or("fixture-catalog")
            .to_owned();
        let mut known = Catalogs::default();
        let mut c = super::CaseCatalog::from_doc(id.clone(), version, &doc);
        if id == version.basic_catalog_id() {
            c.components = None;
        }
        register(&mut known, &c);
        let mut store = SurfaceStore::with_config(known, runner.limits.clone());
        let v = version.as_str();
        let messages = [
            json!({"version": v, "createSurface": {"surfaceId": SURFACE, "catalogId": id}}),
            json!({"version": v, "updateComponents": {"surfaceId": SURFACE,
                "components": fixture.get("components").cloned().unwrap_or_else(|| json!([]))}}),
            json!({"version": v, "updateDataModel": {"surfaceId": SURFACE, "path": "/",
                "value": fixture.get("data").cloned().unwrap_or_else(|| json!({}))}}),
        ];
        for m in &messages {
            store
                .apply(m)
                .into_result()
                .map_err(|e| format!("mounting the fixture: {e}"))?;
        }
        Ok(Self {
            store,
            version,
            functions: FunctionRegistry::basic(),
            events: Vec::new(),
            function_calls: Vec::new(),
        })
    }

    /// Every mounted node by its path.
    fn snapshot(&self) -> Snapshot {
        let mut out = Snapshot::new();
        let Some(s) = self.store.surface(SURFACE) else {
            return out;
        };
        let (tree, _) = resolve_tree(s, self.store.catalogs(), self.store.limits());
        if let Some(root) = tree {
            self.walk(&root, &root.id, &mut out);
        }
        out
    }

    fn walk(&self, node: &TreeNode, path: &str, out: &mut Snapshot) {
        let Some(s) = self.store.surface(SURFACE) else {
            return;
        };
        let state = match node.kind {
            NodeKind::Normal if node.unknown => "unknown-type",
            NodeKind::Normal => "resolved",
            NodeKind::Missing => "pending",
            NodeKind::Cycle => "cyclic",
            NodeKind::Truncated | NodeKind::OverBudget => "truncated",
        };
        let mut props = Map::new();
        let component = s.components().get(&node.id);
        if let (Some(c), NodeKind::Normal) = (component, node.kind) {
            let data = s.data.root();
            let cx = EvalContext::new(
                data,
                &node.scope,
                self.version,
                &self.functions,
                self.store.limits(),
            );
            for (k, v) in c.props().iter() {
                if matches!(k, "child" | "children" | "action") {
                    continue;
                }
                props.insert(k.to_owned(), cx.resolve_deep_prop(v));
            }
        }
        out.insert(
            path.to_owned(),
            NodeState {
                component_id: node.id.clone(),
                ty: node.component.clone(),
                state,
                data_path: node.scope.clone(),
                props,
            },
        );
        // Template instances: the parent's `children` is a `{componentId, path}` template.
        let templated = component
            .and_then(|c| c.prop("children"))
            .is_some_and(|p| p.is_object());
        for (i, child) in node.children.iter().enumerate() {
            let p = if templated && child.slot.as_deref() == Some("children") {
                format!("{path}/{}[{i}]", child.id)
            } else {
                format!("{path}/{}", child.id)
            };
            self.walk(child, &p, out);
        }
    }

    /// Apply one step's op.
    fn step(&mut self, step: &Value, before: &Snapshot) -> Check {
        let op = step.get("op").and_then(Value::as_str).unwrap_or_default();
        let v = self.version.as_str();
        let apply = |store: &mut SurfaceStore, m: Value| {
            store
                .apply(m)
                .into_result()
                .map(|_| ())
                .map_err(|e| e.to_string())
        };
        match op {
            "set_data" => {
                let path = step.get("path").and_then(Value::as_str).unwrap_or("/");
                let value = step.get("value").cloned().unwrap_or(Value::Null);
                apply(
                    &mut self.store,
                    json!({"version": v, "updateDataModel": {"surfaceId": SURFACE, "path": path, "value": value}}),
                )
            }
            "update_components" => {
                let components = step.get("components").cloned().unwrap_or_else(|| json!([]));
                apply(
                    &mut self.store,
                    json!({"version": v, "updateComponents": {"surfaceId": SURFACE, "components": components}}),
                )
            }
            "remove_component" => {
                let id = step
                    .get("component_id")
                    .and_then(Value::as_str)
                    .ok_or("remove_component names a component_id")?;
                let removed = self.store.retire([(SURFACE.to_owned(), id.to_owned())]);
                if removed == 0 {
                    return Err(format!("no component {id:?} to remove"));
                }
                Ok(())
            }
            "write" => {
                let (node, prop) = node_prop(step, before)?;
                let value = step.get("value").cloned().unwrap_or(Value::Null);
                let raw = self.raw_prop(&node.component_id, &prop)?;
                let Some(p) = binding(&raw) else {
                    // An unbound property keeps the edit in the widget: no data changes.
                    return Ok(());
                };
                let path = crate::model::data_model::resolve_path(p, &node.data_path);
                let s = self
                    .store
                    .surface_mut(SURFACE)
                    .ok_or("the surface is gone")?;
                s.data.note_user_write(&path);
                s.data
                    .set_by(ChangeSource::User, &path, Some(value), None)
                    .map_err(|e| e.to_string())
            }
            "invoke" => {
                let (node, prop) = node_prop(step, before)?;
                let raw = self.raw_prop(&node.component_id, &prop)?;
                self.invoke(&node, &raw)
            }
            "dispose" => apply(
                &mut self.store,
                json!({"version": v, "deleteSurface": {"surfaceId": SURFACE}}),
            ),
            other => Err(format!("unknown op {other:?}")),
        }
    }

    /// A component's property as stored (bare vocabulary), `null` when absent.
    fn raw_prop(&self, id: &str, prop: &str) -> Result<Value, String> {
        let s = self.store.surface(SURFACE).ok_or("the surface is gone")?;
        let c = s
            .components()
            .get(id)
            .ok_or_else(|| format!("no component {id:?}"))?;
        Ok(c.prop(prop).map_or(Value::Null, |p| p.to_value()))
    }

    /// Fire an action (`{"event"}` / `{"functionCall"}`) or a function call held by a
    /// property, in the node's scope.
    fn invoke(&mut self, node: &NodeState, raw: &Value) -> Check {
        let s = self.store.surface(SURFACE).ok_or("the surface is gone")?;
        let cx = EvalContext::new(
            s.data.root(),
            &node.data_path,
            self.version,
            &self.functions,
            self.store.limits(),
        );
        let resolve_map = |m: Option<&Value>| -> Map<String, Value> {
            match m {
                Some(Value::Object(c)) => c
                    .iter()
                    .map(|(k, v)| (k.clone(), cx.resolve_deep(v)))
                    .collect(),
                _ => Map::new(),
            }
        };
        if let Some(ev) = raw.get("event") {
            let name = ev.get("name").and_then(Value::as_str).unwrap_or_default();
            self.events.push(json!({
                "name": name,
                "source_component_id": node.component_id,
                "context": resolve_map(ev.get("context")),
            }));
            return Ok(());
        }
        let call = raw.get("functionCall").unwrap_or(raw);
        match call.get("call").and_then(Value::as_str) {
            Some(name) => {
                self.function_calls.push(json!({
                    "name": name,
                    "args": resolve_map(call.get("args")),
                }));
                Ok(())
            }
            None => Err(format!("{} holds no action to invoke", compact(raw))),
        }
    }

    /// Compare a `NodeResolutionExpectation` with the tree before and after.
    fn check(&self, expect: &Value, before: &Snapshot, after: &Snapshot, what: &str) -> Check {
        if expect.is_null() {
            return Ok(());
        }
        if let Some(Value::Object(nodes)) = expect.get("nodes") {
            let want: Vec<&String> = nodes.keys().collect();
            let got: Vec<&String> = after.keys().collect();
            if want
                .iter()
                .copied()
                .collect::<std::collections::BTreeSet<_>>()
                != got.iter().copied().collect()
            {
                return Err(format!("mounted nodes {got:?}, expected {want:?}"));
            }
            for (path, exp) in nodes {
                let Some(node) = after.get(path) else {
                    continue;
                };
                subset(exp, &node.to_json()).map_err(|r| format!("node {path}: {r}"))?;
            }
        }
        let mut emissions = Map::new();
        let mut destroyed = Map::new();
        let (mut same, mut replaced) = (Vec::new(), Vec::new());
        for (path, node) in after {
            match before.get(path) {
                Some(old) if old.component_id == node.component_id && old.ty == node.ty => {
                    same.push(path.clone());
                    if old != node {
                        emissions.insert(path.clone(), json!(1));
                    }
                }
                Some(_) => {
                    replaced.push(path.clone());
                    emissions.insert(path.clone(), json!(1));
                }
                None => {
                    emissions.insert(path.clone(), json!(1));
                }
            }
        }
        for path in before.keys().filter(|p| !after.contains_key(*p)) {
            destroyed.insert(path.clone(), json!(1));
        }
        let counts = |key: &str, got: &Map<String, Value>| -> Check {
            match expect.get(key) {
                Some(want) if !json_eq(want, &Value::Object(got.clone())) => Err(format!(
                    "{key} {}, expected {}",
                    compact(&Value::Object(got.clone())),
                    compact(want)
                )),
                _ => Ok(()),
            }
        };
        counts("emissions", &emissions)?;
        counts("destroyed", &destroyed)?;
        let listed = |key: &str, got: &[String]| -> Check {
            for p in expect
                .get(key)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
            {
                if !got.iter().any(|g| g == p) {
                    return Err(format!("{key}: {p} is not one ({got:?})"));
                }
            }
            Ok(())
        };
        listed("same_nodes", &same)?;
        listed("replaced_nodes", &replaced)?;
        if let Some(want) = expect.get("data") {
            let got = self
                .store
                .surface(SURFACE)
                .map_or(Value::Null, |s| s.data.root().clone());
            subset(want, &got).map_err(|r| format!("data ({what}): {r}"))?;
        }
        for (key, got) in [
            ("events", &self.events),
            ("functions", &self.function_calls),
        ] {
            if let Some(want) = expect.get(key)
                && !json_eq(want, &Value::Array(got.clone()))
            {
                return Err(format!(
                    "{key} {}, expected {}",
                    compact(&Value::Array(got.clone())),
                    compact(want)
                ));
            }
        }
        Ok(())
    }
}

/// The node (by path, in the tree before the step) and property a `write` / `invoke`
/// names.
fn node_prop(step: &Value, before: &Snapshot) -> Result<(NodeState, String), String> {
    let path = step
        .get("node")
        .and_then(Value::as_str)
        .ok_or("the op names a node")?;
    let prop = step
        .get("property")
        .and_then(Value::as_str)
        .ok_or("the op names a property")?;
    let node = before
        .get(path)
        .cloned()
        .ok_or_else(|| format!("no mounted node {path:?}"))?;
    Ok((node, prop.to_owned()))
}

/// Whether a case is in the older data-model suite format (`conformance/suites/`
/// upstream): no `action`, `initial_data`, and steps that name their own `action` (`get`,
/// `set`, `subscribe`, `unsubscribe`, `verify_subscription`).
pub(super) fn is_legacy_data_model(case: &Value) -> bool {
    case.get("action").is_none()
        && case
            .get("steps")
            .and_then(Value::as_array)
            .is_some_and(|s| s.iter().all(|step| step.get("action").is_some()))
}

/// A case of the older data-model format. A subscription is a [`Watch::Subtree`]
/// observer; after each write, every listener told of a change records the value its path
/// holds then (`expect_updates` lists them).
///
/// [`Watch::Subtree`]: crate::model::Watch::Subtree
pub(super) fn legacy_data_model(case: &Value) -> Check {
    use crate::model::{DataModel, DataObserver, Watch};
    let initial = case
        .get("initial_data")
        .cloned()
        .unwrap_or_else(|| json!({}));
    let mut model = DataModel::new(initial);
    // listener id -> (observer, updates recorded)
    let mut listeners: BTreeMap<String, (Option<DataObserver>, Vec<Value>)> = BTreeMap::new();
    for (i, step) in case
        .get("steps")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
    {
        let action = step
            .get("action")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let path = step.get("path").and_then(Value::as_str).unwrap_or("/");
        let listener = step
            .get("listener_id")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        match action {
            "get" => {
                let got = model.get(path).cloned();
                if step.get("expect_undefined").and_then(Value::as_bool) == Some(true) {
                    if let Some(g) = got {
                        return Err(format!("step {i}: {path} holds {}", compact(&g)));
                    }
                } else if let Some(want) = step.get("expect") {
                    let g = got.unwrap_or(Value::Null);
                    if !json_eq(want, &g) {
                        return Err(format!(
                            "step {i}: get {path}: {} != {}",
                            compact(&g),
                            compact(want)
                        ));
                    }
                }
            }
            "set" => {
                let value = if step.get("remove").and_then(Value::as_bool) == Some(true) {
                    None
                } else {
                    step.get("value").cloned().filter(|v| !v.is_null())
                };
                let result = model.set(path, value);
                match (expect_error_of(step), result) {
                    (Some(e), Err(err)) => {
                        check_error(e, &err, false).map_err(|r| format!("step {i}: {r}"))?;
                    }
                    (Some(e), Ok(())) => {
                        return Err(format!("step {i}: expected an error ({})", compact(e)));
                    }
                    (None, Err(err)) => return Err(format!("step {i}: unexpected error: {err}")),
                    (None, Ok(())) => {}
                }
                for (observer, updates) in listeners.values_mut() {
                    if let Some(o) = observer
                        && !o.drain().is_empty()
                    {
                        updates.push(model.get(o.path()).cloned().unwrap_or(Value::Null));
                    }
                }
            }
            "subscribe" => {
                let o = model
                    .observe(path, Watch::Subtree)
                    .map_err(|e| format!("step {i}: subscribe {path}: {e}"))?;
                listeners.insert(listener, (Some(o), Vec::new()));
            }
            "unsubscribe" => match listeners.get_mut(&listener) {
                // Dropping the handle unsubscribes.
                Some(entry) => entry.0 = None,
                None => return Err(format!("step {i}: no listener {listener:?}")),
            },
            "verify_subscription" => {
                let Some((_, updates)) = listeners.get(&listener) else {
                    return Err(format!("step {i}: no listener {listener:?}"));
                };
                let want = step
                    .get("expect_updates")
                    .cloned()
                    .unwrap_or_else(|| json!([]));
                let got = Value::Array(updates.clone());
                if !json_eq(&want, &got) {
                    return Err(format!(
                        "step {i}: {listener} was told {}, expected {}",
                        compact(&got),
                        compact(&want)
                    ));
                }
            }
            other => return Err(format!("step {i}: unknown action {other:?}")),
        }
    }
    Ok(())
}
