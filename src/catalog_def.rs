//! Catalog definition documents: what a [`Catalog`](crate::render::catalog::Catalog) tells an agent about
//! its components, and the self-contained schema a catalog document validates with.
//!
//! - [`Catalog::definition`](crate::render::catalog::Catalog::definition) writes the v1.0
//!   `catalog_definition.json` document of a catalog: the basic components with their
//!   published schemas, a host's own components with the schemas they were registered with
//!   ([`Catalog::set_component_schema`](crate::render::catalog::Catalog::set_component_schema)), the
//!   functions, `anyComponent` / `anyFunction`.
//! - [`validation_schema`] turns a catalog document (any version) into one self-contained
//!   JSON Schema, the official SDKs' `catalog_schema`: component `allOf` mixins flattened
//!   into `properties` / `required` with the component envelope (`id`, `component`), every
//!   reference to the protocol's common types made local and the types it needs bundled
//!   into `$defs`, `anyComponent` / `anyFunction` listing the members.
//! - [`CatalogDocument::from_json`] reads a catalog document the way the SDKs load one:
//!   id, protocol version, component and function schemas, theme.

use serde_json::{Map, Value, json};

use crate::bundled::{Bundled, Family as BundledFamily};
use crate::error::A2uiError;
use crate::protocol::Version;

/// The JSON Schema dialect of every catalog document.
pub const JSON_SCHEMA_DIALECT: &str = "https://json-schema.org/draft/2020-12/schema";

/// The `$schema` of a v1.0 catalog definition document.
pub const CATALOG_DEFINITION_SCHEMA_V1_0: &str =
    "https://a2ui.org/specification/v1_0/catalog_definition.json";

/// The published basic catalog definition of a protocol version (v1.0: the v1 basic
/// catalog; v0.9 and v0.9.1: the v0.9 basic catalog; v0.8: the standard catalog).
pub fn basic_definition(version: Version) -> &'static Value {
    Bundled::BasicCatalog(BundledFamily::of(version)).value()
}

/// The protocol's common types schema of a version (v0.8 has none: v0.9's).
pub fn common_types(version: Version) -> &'static Value {
    Bundled::CommonTypes(BundledFamily::of(version)).value()
}

/// The common types reference prefix a catalog document of `version` writes (relative to
/// the document, as the published catalogs do).
fn common_ref(version: Version, def: &str) -> String {
    match version.family() {
        Version::V1_0 => format!("common_types.json#/$defs/{def}"),
        _ => format!("https://a2ui.org/specification/v0_9/common_types.json#/$defs/{def}"),
    }
}

/// A host component's schema as a catalog definition entry: kept as written when it
/// already names itself (`properties.component`, or an `allOf` whose part does), else
/// wrapped in the common component envelope (`ComponentCommon` and `component: {const}`),
/// its `properties` and `required` in the component's own part.
pub fn component_entry(name: &str, schema: Option<&Value>, version: Version) -> Value {
    let names_itself = |s: &Value| {
        s.pointer("/properties/component").is_some()
            || s.get("allOf").and_then(Value::as_array).is_some_and(|a| {
                a.iter()
                    .any(|p| p.pointer("/properties/component").is_some())
            })
    };
    if let Some(s) = schema
        && names_itself(s)
    {
        return s.clone();
    }
    let mut own = Map::new();
    own.insert("type".into(), json!("object"));
    let mut properties = Map::new();
    properties.insert("component".into(), json!({ "const": name }));
    let mut required = vec![json!("component")];
    let mut outer = Map::new();
    outer.insert("type".into(), json!("object"));
    for (k, v) in schema.and_then(Value::as_object).into_iter().flatten() {
        match k.as_str() {
            "type" | "$schema" | "title" => {
                if k == "title" {
                    outer.insert(k.clone(), v.clone());
                }
            }
            "properties" => {
                for (p, ps) in v.as_object().into_iter().flatten() {
                    properties.insert(p.clone(), ps.clone());
                }
            }
            "required" => {
                for r in v.as_array().into_iter().flatten() {
                    if r.as_str() != Some("component") {
                        required.push(r.clone());
                    }
                }
            }
            "description" => {
                outer.insert(k.clone(), v.clone());
            }
            // A derived schema's own definitions (schemars writes `$defs`): kept with
            // the part that refers to them.
            _ => {
                own.insert(k.clone(), v.clone());
            }
        }
    }
    own.insert("properties".into(), Value::Object(properties));
    own.insert("required".into(), Value::Array(required));
    outer.insert(
        "allOf".into(),
        json!([{ "$ref": common_ref(version, "ComponentCommon") }, Value::Object(own)]),
    );
    Value::Object(outer)
}

/// A function a catalog declares without a published schema: its call shape with open
/// arguments, returning `any`.
pub fn function_entry(name: &str, version: Version) -> Value {
    let call = if version.family() == Version::V1_0 {
        "@call"
    } else {
        "call"
    };
    json!({
        "type": "object",
        "returnType": "any",
        "properties": {
            call: { "const": name },
            "args": { "type": "object" }
        },
        "required": [call]
    })
}

/// `anyComponent` / `anyFunction` of a document's members, in document order.
fn any_defs(doc: &Map<String, Value>, version: Version) -> Map<String, Value> {
    let mut defs = Map::new();
    if let Some(Value::Object(c)) = doc.get("components") {
        let refs: Vec<Value> = c
            .keys()
            .map(|n| json!({ "$ref": format!("#/components/{n}") }))
            .collect();
        defs.insert(
            "anyComponent".into(),
            json!({"oneOf": refs, "discriminator": {"propertyName": "component"}}),
        );
    }
    // `catalog_definition.json` requires both, an empty list of functions included.
    if version.family() != Version::V0_8 {
        let refs: Vec<Value> = doc
            .get("functions")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
            .map(|(n, _)| json!({ "$ref": format!("#/functions/{n}") }))
            .collect();
        let mut any = Map::new();
        any.insert("oneOf".into(), Value::Array(refs));
        if version.family() == Version::V1_0 {
            any.insert("discriminator".into(), json!({"propertyName": "@call"}));
        }
        defs.insert("anyFunction".into(), Value::Object(any));
    }
    defs
}

/// What [`build_definition`] writes one catalog id from.
#[derive(Debug, Default)]
pub(crate) struct DefinitionParts<'a> {
    pub(crate) catalog_id: &'a str,
    pub(crate) version: Option<Version>,
    /// Components in the order they are listed: name and the registered schema.
    pub(crate) components: Vec<(&'a str, Option<&'a Value>)>,
    /// Function names.
    pub(crate) functions: Vec<&'a str>,
    pub(crate) instructions: Option<&'a str>,
    pub(crate) title: Option<&'a str>,
}

/// A catalog definition document for `parts`: basic components and functions with their
/// published schemas, the others from their registrations.
pub(crate) fn build_definition(parts: &DefinitionParts<'_>) -> Value {
    let version = parts.version.unwrap_or(Version::V1_0);
    let basic = basic_definition(version);
    let basic_components = basic.get("components").and_then(Value::as_object);
    let basic_functions = basic.get("functions").and_then(Value::as_object);
    let mut doc = Map::new();
    if version.family() == Version::V1_0 {
        doc.insert("$schema".into(), json!(CATALOG_DEFINITION_SCHEMA_V1_0));
        doc.insert("$id".into(), json!(parts.catalog_id));
        doc.insert("protocolVersion".into(), json!("1.0"));
    } else {
        doc.insert("$schema".into(), json!(JSON_SCHEMA_DIALECT));
    }
    if let Some(t) = parts.title {
        doc.insert("title".into(), json!(t));
    }
    doc.insert("catalogId".into(), json!(parts.catalog_id));
    let instructions = parts.instructions.or_else(|| {
        (parts.catalog_id == version.basic_catalog_id())
            .then(|| basic.get("instructions").and_then(Value::as_str))
            .flatten()
    });
    if let Some(i) = instructions {
        doc.insert("instructions".into(), json!(i));
    }
    let mut components = Map::new();
    // The published catalog's own definitions (`Weight`) inlined where its components
    // use them: a definition document's `$defs` holds only `anyComponent` and
    // `anyFunction`.
    let mut basic_defs = basic
        .get("$defs")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    basic_defs.remove("anyComponent");
    basic_defs.remove("anyFunction");
    for (name, schema) in &parts.components {
        let entry = match (schema, basic_components.and_then(|c| c.get(*name))) {
            (None, Some(published)) => {
                let mut stack = Resolving::default();
                resolve(published, &basic_defs, &Map::new(), &mut stack)
            }
            (s, _) => component_entry(name, s.as_deref(), version),
        };
        components.insert((*name).to_owned(), entry);
    }
    doc.insert("components".into(), Value::Object(components));
    if version.family() != Version::V0_8 {
        let mut functions = Map::new();
        for name in &parts.functions {
            let entry = basic_functions
                .and_then(|f| f.get(*name))
                .cloned()
                .unwrap_or_else(|| function_entry(name, version));
            functions.insert((*name).to_owned(), entry);
        }
        if !functions.is_empty() {
            doc.insert("functions".into(), Value::Object(functions));
        }
    }
    let mut defs = Map::new();
    defs.extend(any_defs(&doc, version));
    doc.insert("$defs".into(), Value::Object(defs));
    Value::Object(doc)
}

/// A catalog document read the way the official SDKs load one (`Catalog.from_json`).
#[derive(Clone, Debug, PartialEq)]
pub struct CatalogDocument {
    /// `catalogId`.
    pub catalog_id: String,
    /// The protocol version it is read for.
    pub version: Version,
    /// The version the document declares (`protocolVersion`), as written.
    pub declared_version: Option<String>,
    /// Component schemas by name, in document order.
    pub components: Map<String, Value>,
    /// Function definitions by name (a list of `{name, ...}` is keyed by its names).
    pub functions: Map<String, Value>,
    /// The theme schema (v0.8: the `styles`), `{}` when there is none.
    pub theme: Value,
}

impl CatalogDocument {
    /// Read `doc` for `version` (its `protocolVersion` when it declares one, `v1.0` from
    /// `1.0`). A document without a `catalogId` is a validation error.
    pub fn from_json(doc: &Value, version: Version) -> Result<Self, A2uiError> {
        let o = doc
            .as_object()
            .ok_or_else(|| A2uiError::validation("", "a catalog document is an object"))?;
        let catalog_id = o
            .get("catalogId")
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            .ok_or_else(|| A2uiError::validation("/catalogId", "a catalog needs a catalogId"))?
            .to_owned();
        let declared_version = o
            .get("protocolVersion")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let version = declared_version
            .as_deref()
            .and_then(|v| Version::from_wire(v).or_else(|| Version::from_wire(&format!("v{v}"))))
            .unwrap_or(version);
        let components = o
            .get("components")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        let functions = match o.get("functions") {
            Some(Value::Object(f)) => f.clone(),
            Some(Value::Array(list)) => list
                .iter()
                .filter_map(|f| Some((f.get("name")?.as_str()?.to_owned(), f.clone())))
                .collect(),
            _ => Map::new(),
        };
        // `anyComponent` / `anyFunction` list the members an agent may use: the others
        // are left out.
        let mut components = components;
        let mut functions = functions;
        for (members, any) in [
            (&mut components, "anyComponent"),
            (&mut functions, "anyFunction"),
        ] {
            if let Some(Value::Array(one_of)) = o
                .get("$defs")
                .and_then(|d| d.get(any))
                .and_then(|a| a.get("oneOf"))
            {
                let listed: Vec<&str> = one_of
                    .iter()
                    .filter_map(|r| r.get("$ref").and_then(Value::as_str))
                    .filter_map(|r| r.rsplit('/').next())
                    .collect();
                members.retain(|n, _| listed.contains(&n.as_str()));
            }
        }
        let theme = if version.family() == Version::V0_8 {
            o.get("styles").or_else(|| o.get("theme"))
        } else {
            o.get("theme")
                .or_else(|| o.get("$defs").and_then(|d| d.get("theme")))
        }
        .cloned()
        .unwrap_or_else(|| json!({}));
        Ok(Self {
            catalog_id,
            version,
            declared_version,
            components,
            functions,
            theme,
        })
    }
}

impl CatalogDocument {
    /// A component's schema with its references resolved: local `#/$defs/…` ones from the
    /// document, those into `common_types.json` from the protocol's common types (a
    /// reference met again inside its own expansion is kept as written).
    pub fn resolved_component(&self, name: &str, doc: &Value) -> Option<Value> {
        let schema = self.components.get(name)?;
        let local = doc
            .get("$defs")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        let common = common_types(self.version)
            .get("$defs")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        let mut stack = Resolving::default();
        Some(resolve(schema, &local, &common, &mut stack))
    }
}

/// The most nodes one resolution writes: references that fan out (a definition naming
/// another twice, that one naming a third twice, ...) stop being expanded past it and are
/// kept as written, so a hostile document costs no more than this.
const RESOLVE_BUDGET: usize = 100_000;

/// The definitions being expanded (a reference met again inside its own expansion is
/// kept), and what is left of the node budget.
struct Resolving {
    names: Vec<String>,
    budget: usize,
}

impl Default for Resolving {
    fn default() -> Self {
        Self {
            names: Vec::new(),
            budget: RESOLVE_BUDGET,
        }
    }
}

/// `node` with its references replaced by their targets (siblings of a `$ref` kept).
fn resolve(
    node: &Value,
    local: &Map<String, Value>,
    common: &Map<String, Value>,
    stack: &mut Resolving,
) -> Value {
    if stack.names.len() > 32 || stack.budget == 0 {
        return node.clone();
    }
    stack.budget -= 1;
    match node {
        Value::Object(o) => {
            if let Some(Value::String(r)) = o.get("$ref") {
                let target = if let Some(n) = r.strip_prefix("#/$defs/") {
                    local.get(n).or_else(|| common.get(n)).map(|t| (n, t))
                } else {
                    common_def_name(r).and_then(|n| common.get(n).map(|t| (n, t)))
                };
                if let Some((n, t)) = target
                    && !stack.names.iter().any(|x| x == n)
                {
                    stack.names.push(n.to_owned());
                    let mut merged = match resolve(t, local, common, stack) {
                        Value::Object(m) => m,
                        other => {
                            stack.names.pop();
                            return other;
                        }
                    };
                    for (k, v) in o {
                        if k != "$ref" {
                            merged.insert(k.clone(), resolve(v, local, common, stack));
                        }
                    }
                    stack.names.pop();
                    return Value::Object(merged);
                }
            }
            Value::Object(
                o.iter()
                    .map(|(k, v)| (k.clone(), resolve(v, local, common, stack)))
                    .collect(),
            )
        }
        Value::Array(a) => {
            Value::Array(a.iter().map(|v| resolve(v, local, common, stack)).collect())
        }
        other => other.clone(),
    }
}

/// The common-types definition name a `$ref` points at, for references into
/// `common_types.json` (relative or absolute) and local `#/$defs/` ones.
fn common_def_name(r: &str) -> Option<&str> {
    let (file, frag) = r.split_once('#')?;
    let name = frag.strip_prefix("/$defs/")?;
    (file.is_empty() || file.ends_with("common_types.json")).then_some(name)
}

/// Every `$ref` into the common types made local (`#/$defs/Name`); the names referred to
/// are collected.
fn localize(node: &mut Value, used: &mut Vec<String>, depth: usize) {
    if depth > 64 {
        return;
    }
    match node {
        Value::Object(o) => {
            if let Some(Value::String(r)) = o.get_mut("$ref")
                && let Some((file, frag)) = r.split_once('#')
                && file.ends_with("catalog.json")
            {
                // The catalog's own definitions (`catalog.json#/$defs/anyFunction`, as
                // the common types refer to them).
                *r = format!("#{frag}");
            }
            if let Some(Value::String(r)) = o.get_mut("$ref")
                && let Some(name) = common_def_name(r).map(str::to_owned)
            {
                if !r.starts_with('#') {
                    *r = format!("#/$defs/{name}");
                }
                if !used.contains(&name) {
                    used.push(name);
                }
            }
            for v in o.values_mut() {
                localize(v, used, depth + 1);
            }
        }
        Value::Array(a) => {
            for v in a {
                localize(v, used, depth + 1);
            }
        }
        _ => {}
    }
}

/// One component flattened: its `allOf` parts (mixins from the common types or the
/// document's `$defs`, then its own) merged into `properties` / `required`, the envelope
/// (`id`, `component`) applied. The local mixins used are recorded.
fn flatten_component(
    name: &str,
    schema: &Value,
    local_defs: &Map<String, Value>,
    common: &Map<String, Value>,
    used_mixins: &mut Vec<String>,
) -> Value {
    let Some(o) = schema.as_object() else {
        return schema.clone();
    };
    let mut out = Map::new();
    let mut properties = Map::new();
    let mut required: Vec<String> = Vec::new();
    let mut add = |part: &Map<String, Value>, properties: &mut Map<String, Value>| {
        for (k, v) in part
            .get("properties")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            properties.entry(k.clone()).or_insert_with(|| v.clone());
        }
        for r in part
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
        {
            if !required.iter().any(|x| x == r) {
                required.push(r.to_owned());
            }
        }
    };
    let mut own_required_has_id = false;
    for (k, v) in o {
        match k.as_str() {
            "allOf" => {
                for part in v.as_array().into_iter().flatten() {
                    let Some(p) = part.as_object() else { continue };
                    if let Some(r) = p.get("$ref").and_then(Value::as_str) {
                        let target = if let Some(local) = r.strip_prefix("#/$defs/")
                            && let Some(t) = local_defs.get(local)
                        {
                            if !used_mixins.iter().any(|u| u == local) {
                                used_mixins.push(local.to_owned());
                            }
                            Some(t)
                        } else {
                            common_def_name(r).and_then(|n| common.get(n))
                        };
                        if let Some(t) = target.and_then(Value::as_object) {
                            // A mixin's own `required` (ComponentCommon's `id`) is the
                            // envelope's, applied below.
                            let mut props_only = t.clone();
                            props_only.remove("required");
                            add(&props_only, &mut properties);
                        }
                    } else {
                        add(p, &mut properties);
                        if p.get("required")
                            .and_then(Value::as_array)
                            .is_some_and(|r| r.iter().any(|x| x == "id"))
                        {
                            own_required_has_id = true;
                        }
                    }
                }
            }
            "properties" | "required" => {}
            _ => {
                out.insert(k.clone(), v.clone());
            }
        }
    }
    let top: Map<String, Value> = ["properties", "required"]
        .into_iter()
        .filter_map(|k| o.get(k).map(|v| (k.to_owned(), v.clone())))
        .collect();
    if top
        .get("required")
        .and_then(Value::as_array)
        .is_some_and(|r| r.iter().any(|x| x == "id"))
    {
        own_required_has_id = true;
    }
    // The document's own properties first in the order written, mixins after: the
    // top-level ones are merged before the `allOf` parts' ones would shadow them.
    let mut merged = Map::new();
    for (k, v) in top
        .get("properties")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        merged.insert(k.clone(), v.clone());
    }
    for (k, v) in properties {
        merged.entry(k).or_insert(v);
    }
    let mut top_required: Vec<String> = top
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_owned)
        .collect();
    for r in required {
        if !top_required.contains(&r) {
            top_required.push(r);
        }
    }
    merged
        .entry("id")
        .or_insert_with(|| json!({"$ref": "#/$defs/ComponentId"}));
    merged
        .entry("component")
        .or_insert_with(|| json!({ "const": name }));
    // `required`: kept as written when it lists `id`; else the envelope's order, `id`
    // first, the others by name, `component` last.
    let required: Vec<String> = if own_required_has_id {
        let mut r = top_required;
        if !r.iter().any(|x| x == "component") {
            r.push("component".into());
        }
        r
    } else {
        let mut rest: Vec<String> = top_required
            .into_iter()
            .filter(|x| x != "id" && x != "component")
            .collect();
        rest.sort();
        let mut r = vec!["id".to_owned()];
        r.extend(rest);
        r.push("component".into());
        r
    };
    out.insert("type".into(), json!("object"));
    out.insert("properties".into(), Value::Object(merged));
    out.insert("required".into(), json!(required));
    Value::Object(out)
}

/// The self-contained JSON Schema of a catalog document (the official SDKs'
/// `catalog_schema` / `validation_schema`), for `version` unless the document declares
/// its own:
///
/// - `$schema`, `catalogId`, and `protocolVersion` when the document declares one (bare:
///   `v0.9.1` becomes `0.9.1`);
/// - from v0.9 each component flattened into one object schema: its `allOf` mixins
///   (`ComponentCommon`, `Checkable`, the document's own `$defs` mixins) merged into
///   `properties` and `required`, with `id` (a `ComponentId`) and `component` (its name);
///   `required` lists `id` first, the others by name and `component` last unless the
///   document already lists `id`; v0.8 components are kept as written;
/// - before v1.0 each function closed (`unevaluatedProperties: false`);
/// - every reference into `common_types.json` made local, and the common types it needs
///   (transitively) bundled into `$defs` with the theme (`$defs.theme`), `anyComponent` and
///   `anyFunction`.
///
/// ```
/// use egui_a2ui::catalog::validation_schema;
/// use egui_a2ui::Version;
/// use serde_json::json;
///
/// let doc = json!({"catalogId": "c", "components": {"Chip": {"type": "object",
///     "allOf": [{"$ref": "common_types.json#/$defs/ComponentCommon"},
///               {"properties": {"label": {"$ref": "common_types.json#/$defs/DynamicString"}},
///                "required": ["label"]}]}}});
/// let s = validation_schema(&doc, Version::V1_0).unwrap();
/// assert_eq!(s["components"]["Chip"]["required"], json!(["id", "label", "component"]));
/// assert_eq!(s["components"]["Chip"]["properties"]["label"]["$ref"], "#/$defs/DynamicString");
/// assert!(s["$defs"]["DynamicString"].is_object());
/// assert_eq!(s["$defs"]["anyComponent"]["oneOf"][0]["$ref"], "#/components/Chip");
/// ```
pub fn validation_schema(doc: &Value, version: Version) -> Result<Value, A2uiError> {
    let read = CatalogDocument::from_json(doc, version)?;
    let version = read.version;
    let src = doc.as_object().cloned().unwrap_or_default();
    let mut local_defs = src
        .get("$defs")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    local_defs.remove("anyComponent");
    local_defs.remove("anyFunction");
    let common_doc = common_types(version);
    let common = common_doc
        .get("$defs")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let mut out = Map::new();
    out.insert("$schema".into(), json!(JSON_SCHEMA_DIALECT));
    out.insert("catalogId".into(), json!(read.catalog_id));
    if let Some(v) = &read.declared_version {
        out.insert(
            "protocolVersion".into(),
            json!(v.trim().trim_start_matches('v')),
        );
    }
    let mut used_mixins = Vec::new();
    let components: Map<String, Value> = read
        .components
        .iter()
        .map(|(n, s)| {
            let flat = if version.family() == Version::V0_8 {
                s.clone()
            } else {
                flatten_component(n, s, &local_defs, &common, &mut used_mixins)
            };
            (n.clone(), flat)
        })
        .collect();
    out.insert("components".into(), Value::Object(components));
    if !read.functions.is_empty() {
        let functions: Map<String, Value> = read
            .functions
            .iter()
            .map(|(n, f)| {
                let mut f = f.clone();
                if version.family() != Version::V1_0
                    && let Some(o) = f.as_object_mut()
                    && o.contains_key("properties")
                {
                    o.entry("unevaluatedProperties").or_insert(json!(false));
                }
                (n.clone(), f)
            })
            .collect();
        out.insert("functions".into(), Value::Object(functions));
    }
    let mut defs = Map::new();
    for (k, v) in &local_defs {
        if !used_mixins.contains(k) && k != "theme" {
            defs.insert(k.clone(), v.clone());
        }
    }
    let theme = read.theme.clone();
    if theme.as_object().is_some_and(|t| !t.is_empty()) {
        defs.insert("theme".into(), theme);
    }
    out.insert("$defs".into(), Value::Object(defs));
    let mut out = Value::Object(out);
    // Local references, then the common types they need, to a fixed point.
    let mut used = Vec::new();
    localize(&mut out, &mut used, 0);
    let mut bundled = Map::new();
    let mut i = 0;
    while i < used.len() {
        let name = used[i].clone();
        i += 1;
        if out.pointer(&format!("/$defs/{name}")).is_some() || bundled.contains_key(&name) {
            continue;
        }
        if let Some(def) = common.get(&name) {
            let mut def = def.clone();
            localize(&mut def, &mut used, 0);
            bundled.insert(name, def);
        }
    }
    let any = match &out {
        Value::Object(o) => any_defs(o, version),
        _ => Map::new(),
    };
    if let Some(Value::Object(defs)) = out.get_mut("$defs") {
        defs.extend(bundled);
        if version.family() == Version::V0_8 {
            defs.remove("anyFunction");
        }
        defs.extend(any);
    }
    Ok(out)
}

/// Whether every `$ref` of `schema` is local (`#...`) and resolves inside it; the first
/// one that does not otherwise.
pub fn unresolved_ref(schema: &Value) -> Option<String> {
    fn go(node: &Value, root: &Value, depth: usize) -> Option<String> {
        if depth > 128 {
            return None;
        }
        match node {
            Value::Object(o) => {
                if let Some(Value::String(r)) = o.get("$ref") {
                    let Some(ptr) = r.strip_prefix('#') else {
                        return Some(r.clone());
                    };
                    if !ptr.is_empty() && root.pointer(ptr).is_none() {
                        return Some(r.clone());
                    }
                }
                o.values().find_map(|v| go(v, root, depth + 1))
            }
            Value::Array(a) => a.iter().find_map(|v| go(v, root, depth + 1)),
            _ => None,
        }
    }
    go(schema, schema, 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Definitions that each name the next twice: resolving stays within the budget.
    #[test]
    fn fanning_references_are_bounded() {
        let mut defs = Map::new();
        for i in 0..40 {
            defs.insert(
                format!("D{i}"),
                json!({"anyOf": [{"$ref": format!("#/$defs/D{}", i + 1)},
                                 {"$ref": format!("#/$defs/D{}", i + 1)}]}),
            );
        }
        let doc = json!({"catalogId": "c", "$defs": defs, "components": {
            "X": {"type": "object", "properties": {"p": {"$ref": "#/$defs/D0"}}}}});
        let read = CatalogDocument::from_json(&doc, Version::V1_0).unwrap();
        let resolved = read.resolved_component("X", &doc).unwrap();
        let size = resolved.to_string().len();
        assert!(size < 20_000_000, "{size} bytes");
        assert!(validation_schema(&doc, Version::V1_0).is_ok());
        assert!(validation_schema(&json!([1]), Version::V1_0).is_err());
        assert!(validation_schema(&json!({"components": {}}), Version::V1_0).is_err());
    }
}
