//! Strict mode (feature `validation`): every agent message checked against the official
//! A2UI JSON Schemas of its version and the catalog of its surface, before it is applied.
//!
//! The default parser checks the envelope and the shapes the renderer relies on and is
//! lenient about the rest (unknown properties, extra enum values), as the reference
//! renderers are. A host that wants the full schema verdict enables this.
//!
//! # Which schemas
//!
//! - v0.8: `server_to_client.json` with the standard catalog.
//! - v0.9 and v0.9.1: `server_to_client.json` and `common_types.json`, with the v0.9 basic
//!   catalog (or a catalog added with [`SchemaValidator::add_catalog`]).
//! - v1.0: the **v1 basic catalog** (`catalogs/basic/v1/catalog.json`, December 2026),
//!   whose components and functions spell dynamic values `{"@path"}` and `{"@call"}` as
//!   the official conformance suites do, with the v1.0 envelope (`agent_to_renderer.json`)
//!   and `common_types.json`. The newest published copies of those two (August 2026) still
//!   spell `path` / `call`, so they are read in the vocabulary the suites and the v1
//!   catalog use ([`v1_common_types`], [`v1_envelope`]): a binding is `{"@path"}` (or the
//!   older `{"path"}`), a call names its function with `@call` and is checked against the
//!   catalog's function schemas (the older `call` is checked for its shape), the component
//!   envelope keys are accepted in both spellings (`@catalogId` / `catalogId`,
//!   `@accessibility`, `@checks`, `@metadata`), and `version` is `"v1.0"` or `"1.0"`. The
//!   messages themselves are validated as they arrive, never rewritten.
//!
//! A catalog of the host's own (a JSON catalog definition, `{catalogId, components,
//! functions?, theme?}`) is added with [`SchemaValidator::add_catalog`]: a message for a
//! surface of that catalog is then checked against the catalog's component schemas
//! (unknown properties refused: the envelope closes every component), and a
//! `createSurface` `theme` against its theme schema. [`SchemaValidator::validate_for`]
//! takes the catalog the message is for; [`crate::model::SurfaceStore`] passes the surface's.

use std::collections::HashMap;

use jsonschema::{Registry, Validator};
use serde_json::{Map, Value, json};

use crate::bundled::{Bundled, Family as BF};
use crate::error::A2uiError;
use crate::protocol::Version;

const V09_BASE: &str = "https://a2ui.org/specification/v0_9/";
const V10_BASE: &str = "https://a2ui.org/specification/v1_0/";

/// Validators for agent → renderer messages of v0.8, v0.9 (and v0.9.1) and v1.0, each with
/// its basic catalog, and of the catalogs a host added.
pub struct SchemaValidator {
    v08: Validator,
    v09: Validator,
    /// v1.0: the v1 basic catalog and every v1.0 catalog added, together (a v1.0 surface
    /// may draw components and call functions of several catalogs).
    v10: Validator,
    /// The catalog documents `v10` is built from, the basic one first.
    v10_catalogs: Vec<Value>,
    /// Catalogs added with [`Self::add_catalog`], by catalog id and protocol family (one
    /// id may serve several versions: added once for each).
    catalogs: HashMap<(String, Version), CatalogValidator>,
}

/// One added catalog: (v0.9) the message validator built with it as `catalog.json`, and
/// its theme schema.
struct CatalogValidator {
    messages: Option<Validator>,
    theme: Option<Validator>,
}

impl std::fmt::Debug for SchemaValidator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut ids: Vec<&String> = self.catalogs.keys().map(|(id, _)| id).collect();
        ids.sort();
        ids.dedup();
        f.debug_struct("SchemaValidator")
            .field("catalogs", &ids)
            .finish_non_exhaustive()
    }
}

fn parse(text: &str) -> Result<Value, A2uiError> {
    serde_json::from_str(text).map_err(|e| A2uiError::Json(format!("bundled schema: {e}")))
}

fn build_err(e: impl std::fmt::Display) -> A2uiError {
    A2uiError::validation("", format!("cannot build schema validator: {e}"))
}

/// The envelope and common types of one protocol family.
struct Family {
    base: &'static str,
    envelope: Value,
    common: Value,
}

impl Family {
    fn v09() -> Result<Self, A2uiError> {
        Ok(Self {
            base: V09_BASE,
            // v0.9.1 changed nothing the envelope describes but the version.
            envelope: widen_version(
                parse(Bundled::Envelope(BF::V09).text())?,
                "v0.9",
                &["v0.9", "v0.9.1"],
            ),
            common: parse(Bundled::CommonTypes(BF::V09).text())?,
        })
    }

    fn v10() -> Result<Self, A2uiError> {
        Ok(Self {
            base: V10_BASE,
            envelope: v1_envelope(parse(Bundled::Envelope(BF::V10).text())?),
            common: v1_common_types(parse(Bundled::CommonTypes(BF::V10).text())?),
        })
    }

    /// The message validator with `catalog` as the family's `catalog.json`.
    fn validator(&self, catalog: Value) -> Result<Validator, A2uiError> {
        self.validator_of(vec![(format!("{}catalog.json", self.base), catalog)])
    }

    /// The message validator whose `catalog.json` is the union of `catalogs` (each
    /// registered as `catalog-N.json`): a component or call valid in any of them is valid.
    fn union_validator(&self, catalogs: &[Value]) -> Result<Validator, A2uiError> {
        let at = |i: usize| format!("{}catalog-{i}.json", self.base);
        let union = |def: &str| {
            let refs: Vec<Value> = (0..catalogs.len())
                .map(|i| json!({"$ref": format!("{}#/$defs/{def}", at(i))}))
                .collect();
            json!({ "anyOf": refs })
        };
        // A call that names a catalog none of these is runs there: they cannot judge it.
        // A system function (`@index`) names no catalog.
        let ids: Vec<&Value> = catalogs.iter().filter_map(|c| c.get("catalogId")).collect();
        let foreign = |key: &str| {
            json!({"required": [key], "properties": {
                key: {"not": {"enum": ids}},
                "@call": {"pattern": "^[^@]"},
            }})
        };
        let mut docs = vec![(
            format!("{}catalog.json", self.base),
            json!({"$defs": {
                "anyComponent": union("anyComponent"),
                "anyFunction": union("anyFunction"),
                "foreignCall": {"anyOf": [foreign("catalogId"), foreign("@catalogId")]},
            }}),
        )];
        docs.extend(catalogs.iter().enumerate().map(|(i, c)| (at(i), c.clone())));
        self.validator_of(docs)
    }

    /// Each catalog's own `$id` is replaced by the address it is registered at (in the
    /// family's folder), so its relative `common_types.json` references resolve to the
    /// family's common types wherever the catalog was published.
    fn validator_of(&self, catalogs: Vec<(String, Value)>) -> Result<Validator, A2uiError> {
        let mut builder = Registry::new()
            .add(
                format!("{}common_types.json", self.base),
                self.common.clone(),
            )
            .map_err(build_err)?;
        for (uri, mut doc) in catalogs {
            if let Some(o) = doc.as_object_mut() {
                o.insert("$id".into(), json!(uri));
            }
            builder = builder.add(uri, doc).map_err(build_err)?;
        }
        let registry = builder.prepare().map_err(build_err)?;
        jsonschema::options()
            .should_validate_formats(true)
            .with_registry(&registry)
            .build(&self.envelope)
            .map_err(build_err)
    }
}

impl SchemaValidator {
    /// Build the validators for the basic catalogs (v1.0: the v1 basic catalog).
    pub fn basic() -> Result<Self, A2uiError> {
        let v09_catalog = parse(Bundled::BasicCatalog(BF::V09).text())?;
        let v10_catalog = parse(Bundled::BasicCatalog(BF::V10).text())?;
        Self::with_catalogs(v09_catalog, v10_catalog)
    }

    /// Build with other catalog documents for v0.9 and v1.0 in place of the basic ones
    /// (e.g. a testing catalog).
    pub fn with_catalogs(v09_catalog: Value, v10_catalog: Value) -> Result<Self, A2uiError> {
        let v08_schema = parse(Bundled::Envelope(BF::V08).text())?;
        let v08 = jsonschema::options()
            .should_validate_formats(true)
            .build(&v08_schema)
            .map_err(build_err)?;
        let v09 = Family::v09()?.validator(catalog_document(&v09_catalog, false, None))?;
        let v10_catalogs = vec![catalog_document(&v10_catalog, true, None)];
        let v10 = Family::v10()?.union_validator(&v10_catalogs)?;
        Ok(Self {
            v08,
            v09,
            v10,
            v10_catalogs,
            catalogs: HashMap::new(),
        })
    }

    /// Validators whose catalog for `version`'s family (v0.9 or v1.0) is `doc` alone, in
    /// place of the basic one (the other families keep theirs): a component is valid when
    /// that catalog accepts it.
    pub fn of_catalog(version: Version, doc: Value) -> Result<Self, A2uiError> {
        match version.family() {
            Version::V1_0 => {
                Self::with_catalogs(parse(Bundled::BasicCatalog(BF::V09).text())?, doc)
            }
            Version::V0_9 => {
                Self::with_catalogs(doc, parse(Bundled::BasicCatalog(BF::V10).text())?)
            }
            other => Err(A2uiError::validation(
                "/protocolVersion",
                format!("catalog schemas are checked for v0.9 and v1.0, not {other}"),
            )),
        }
    }

    /// Add a catalog definition of `version` (v0.9 / v0.9.1 or v1.0): `{catalogId,
    /// components: {Name: schema}, functions?, theme?, $defs?}`. Messages for a surface of
    /// this catalog ([`Self::validate_for`]) are then checked against its component
    /// schemas, and a `createSurface` `theme` against its `theme` schema. Where the
    /// document has no `$defs/anyComponent` (or `anyFunction`), the union of its
    /// components (functions) is made up; a catalog that describes no function schemas
    /// accepts any call. A catalog id that serves several versions (the extended catalog
    /// serves v0.9 and v1.0) is added once for each. Returns the catalog id.
    pub fn add_catalog(&mut self, version: Version, doc: &Value) -> Result<String, A2uiError> {
        let id = doc
            .get("catalogId")
            .and_then(Value::as_str)
            .ok_or_else(|| A2uiError::validation("/catalogId", "a catalog needs a catalogId"))?
            .to_owned();
        let v1 = match version.family() {
            Version::V1_0 => true,
            Version::V0_9 => false,
            other => {
                return Err(A2uiError::validation(
                    "/protocolVersion",
                    format!("catalog schemas are checked for v0.9 and v1.0, not {other}"),
                ));
            }
        };
        let theme_schema = doc.get("theme").map(theme_schema);
        let catalog = catalog_document(doc, v1, theme_schema.as_ref());
        let messages = if v1 {
            let mut all = self.v10_catalogs.clone();
            all.push(catalog);
            self.v10 = Family::v10()?.union_validator(&all)?;
            self.v10_catalogs = all;
            None
        } else {
            Some(Family::v09()?.validator(catalog)?)
        };
        let theme = match &theme_schema {
            Some(t) => Some(
                jsonschema::options()
                    .should_validate_formats(true)
                    .build(t)
                    .map_err(build_err)?,
            ),
            None => None,
        };
        self.catalogs.insert(
            (id.clone(), version.family()),
            CatalogValidator { messages, theme },
        );
        Ok(id)
    }

    /// Builder form of [`Self::add_catalog`].
    pub fn with_catalog(mut self, version: Version, doc: &Value) -> Result<Self, A2uiError> {
        self.add_catalog(version, doc)?;
        Ok(self)
    }

    /// Check one message against the schema of its version and the basic catalog
    /// (`version` absent → v0.8; `v0.9.1` against the v0.9 schemas, which differ from
    /// v0.9.1 in nothing else). The error carries the JSON pointer of the first violation.
    pub fn validate(&self, message: &Value) -> Result<(), A2uiError> {
        self.validate_for(message, None)
    }

    /// Check one message for a surface of catalog `catalog_id`. v0.9: a catalog added with
    /// [`Self::add_catalog`] checks the components and the theme; any other id (or `None`)
    /// checks against the basic catalog, as [`Self::validate`] does. v1.0: a component or
    /// call is checked against whichever catalog (the v1 basic one or one added) defines
    /// it, since one surface may use several; which catalog it must belong to is the
    /// store's strict check ([`crate::model::SurfaceStore::set_strict`]).
    pub fn validate_for(&self, message: &Value, catalog_id: Option<&str>) -> Result<(), A2uiError> {
        let family = match message.get("version").and_then(Value::as_str) {
            None => Version::V0_8,
            Some("v0.9" | "v0.9.1") => Version::V0_9,
            Some("v1.0" | "1.0") => Version::V1_0,
            Some(other) => return Err(A2uiError::UnsupportedVersion(other.to_owned())),
        };
        let added = catalog_id.and_then(|id| self.catalogs.get(&(id.to_owned(), family)));
        let validator = match (added.and_then(|c| c.messages.as_ref()), family) {
            (Some(v), _) => v,
            (None, Version::V0_8) => &self.v08,
            (None, Version::V1_0) => &self.v10,
            (None, _) => &self.v09,
        };
        // The theme first, so its failure names the theme (the v0.9 envelope checks it
        // too, through `catalog.json#/$defs/theme`).
        if let Some(theme_validator) = added.and_then(|c| c.theme.as_ref())
            && let Some(theme) = message.pointer("/createSurface/theme")
        {
            let sid = message
                .pointer("/createSurface/surfaceId")
                .and_then(Value::as_str)
                .unwrap_or_default();
            first_error(theme_validator, theme, "/createSurface/theme").map_err(|e| match e {
                A2uiError::Validation { path, message } => A2uiError::Validation {
                    path,
                    message: format!("Validation failed for theme on surface '{sid}': {message}"),
                },
                other => other,
            })?;
        }
        first_error(validator, message, "")
    }
}

fn first_error(validator: &Validator, instance: &Value, prefix: &str) -> Result<(), A2uiError> {
    if validator.is_valid(instance) {
        return Ok(());
    }
    // A message is a `oneOf` of message kinds and a component a `oneOf` of catalog
    // components, so the first error is often "not valid under any of the schemas" at the
    // message root. The most specific failure is the deepest one, preferring a property
    // of the component the message meant over the `component` names of the other
    // branches.
    let evaluation = validator.evaluate(instance);
    let rank = |e: &jsonschema::ErrorEntry<'_>| {
        let at = e.instance_location.as_str();
        let branch_miss = at.ends_with("/component") || e.schema_location.ends_with("/const");
        (at.matches('/').count(), !branch_miss)
    };
    let best = evaluation
        .iter_errors()
        .enumerate()
        .max_by_key(|(i, e)| (rank(e), std::cmp::Reverse(*i)))
        .map(|(_, e)| e);
    match best {
        Some(e) => Err(A2uiError::validation(
            format!("{prefix}{}", e.instance_location.as_str()),
            e.error.to_string(),
        )),
        None => Err(A2uiError::validation(
            prefix,
            "the value does not match its schema",
        )),
    }
}

/// A catalog's `theme` as a JSON schema: a schema as it is (it has a `type` or
/// `properties`), else a map of property schemas (the inline-catalog form).
fn theme_schema(theme: &Value) -> Value {
    let is_schema = theme
        .as_object()
        .is_some_and(|o| o.contains_key("type") || o.contains_key("properties"));
    if is_schema {
        theme.clone()
    } else {
        json!({"type": "object", "properties": theme})
    }
}

/// A catalog definition as the envelope reads it as `catalog.json`: `$defs/anyComponent`,
/// `$defs/anyFunction` and (v0.9) `$defs/theme` made up where the document has none.
fn catalog_document(doc: &Value, v1: bool, theme: Option<&Value>) -> Value {
    let mut out = doc.as_object().cloned().unwrap_or_default();
    let mut defs = out
        .get("$defs")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    if !defs.contains_key("anyComponent") {
        defs.insert("anyComponent".into(), any_component(doc, v1));
    }
    if !defs.contains_key("anyFunction") {
        defs.insert("anyFunction".into(), any_function(doc));
    }
    if !v1 && !defs.contains_key("theme") {
        defs.insert(
            "theme".into(),
            theme.cloned().unwrap_or_else(|| json!({"type": "object"})),
        );
    }
    out.insert("$defs".into(), Value::Object(defs));
    Value::Object(out)
}

/// The union of a catalog's components. v0.9 components carry the common envelope
/// themselves (the v0.9 basic catalog's do), so each is closed here; the v1.0 envelope
/// adds and closes it. A catalog without a `components` map accepts any component.
fn any_component(doc: &Value, v1: bool) -> Value {
    let Some(components) = doc.get("components").and_then(Value::as_object) else {
        return json!({"type": "object", "required": ["component"]});
    };
    let one = |name: &str| {
        let target = json!({"$ref": format!("#/components/{}", pointer_token(name))});
        // A definition that describes no properties (a name with `allowedParents`, say)
        // leaves them open.
        let describes = components
            .get(name)
            .and_then(Value::as_object)
            .is_some_and(|d| {
                [
                    "properties",
                    "allOf",
                    "anyOf",
                    "oneOf",
                    "$ref",
                    "additionalProperties",
                ]
                .iter()
                .any(|k| d.contains_key(*k))
            });
        // The branch is the component its `component` names, whatever the definition says.
        let named =
            json!({"properties": {"component": {"const": name}}, "required": ["component"]});
        let target = if describes {
            json!({"allOf": [named, target]})
        } else {
            json!({"allOf": [named, target, {"additionalProperties": true}]})
        };
        if v1 {
            target
        } else {
            json!({
                "allOf": [{"$ref": "common_types.json#/$defs/ComponentCommon"}, target],
                "unevaluatedProperties": false,
            })
        }
    };
    json!({"oneOf": components.keys().map(|n| one(n)).collect::<Vec<_>>()})
}

/// The union of a catalog's function schemas (functions given as call schemas, with a
/// `properties` naming `@call` or `call`); a catalog that describes none accepts any call
/// but the `@index` system function (which `IndexSystemFunction` covers).
fn any_function(doc: &Value) -> Value {
    let schemas: Vec<Value> = match doc.get("functions") {
        Some(Value::Object(m)) => m
            .iter()
            .filter(|(_, f)| {
                f.get("properties")
                    .and_then(Value::as_object)
                    .is_some_and(|p| p.contains_key("@call") || p.contains_key("call"))
            })
            .map(|(n, _)| json!({"$ref": format!("#/functions/{}", pointer_token(n))}))
            .collect(),
        _ => Vec::new(),
    };
    if schemas.is_empty() {
        json!({"type": "object", "not": {"anyOf": [
            {"properties": {"@call": {"const": "@index"}}, "required": ["@call"]},
            {"properties": {"call": {"const": "@index"}}, "required": ["call"]},
        ]}})
    } else {
        json!({"oneOf": schemas})
    }
}

fn pointer_token(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}

/// The v1.0 `common_types.json` (August 2026) in the vocabulary of the conformance suites
/// and the v1 basic catalog. Only these definitions change:
///
/// - `DataBinding`: `{"@path": string}`, or the older `{"path": string}`, nothing else;
/// - `FunctionCall`: function and argument names are UAX #31 identifiers (of the `@`
///   namespace only `@index`), a literal object argument uses no reserved key; a call
///   named by `@call` is checked against the catalogs' function
///   schemas (which spell `@call`), as before, unless it names a catalog the validator
///   does not have (it runs there; `catalog.yaml`
///   `test_v10_published_basic_catalog_validates_nested_calls`); the older spelling `call` (which the
///   suites still send, `validation_result.yaml`) is checked for its shape only (a name,
///   `args` of dynamic values, a catalog id), since no catalog function schema spells it;
///   the catalog is named by `catalogId` or `@catalogId`;
/// - `IndexSystemFunction`: `@index` named by `@call`;
/// - `DynamicValue`: its literal object is one that uses neither `@path` nor `@call` (it
///   excluded `path` / `call`; in v1.0 `{"path", "call"}` is data, `reserved_keys.yaml`);
/// - `ComponentCommon`: `@catalogId`, `@accessibility`, `@metadata` beside the bare keys;
/// - `Checkable`: `@checks` beside `checks`.
pub fn v1_common_types(mut common: Value) -> Value {
    let Some(defs) = common.get_mut("$defs").and_then(Value::as_object_mut) else {
        return common;
    };
    let binding = |key: &str| {
        json!({
            "type": "object",
            "properties": {key: {"type": "string", "description": "A JSON Pointer path to a value in the data model."}},
            "required": [key],
            "additionalProperties": false,
        })
    };
    defs.insert(
        "DataBinding".into(),
        json!({"oneOf": [binding("@path"), binding("path")]}),
    );
    if let Some(Value::Object(f)) = defs.get_mut("FunctionCall") {
        if let Some(Value::Object(props)) = f.get_mut("properties") {
            // v1.0 names functions and arguments with UAX #31 identifiers; of the `@`
            // namespace only `@index` exists.
            props.insert(
                "call".into(),
                json!({"type": "string", "pattern": format!("^(@index|{IDENTIFIER})$")}),
            );
            if let Some(Value::Object(args)) = props.get_mut("args") {
                args.insert(
                    "propertyNames".into(),
                    json!({ "pattern": format!("^{IDENTIFIER}$") }),
                );
                // A literal object argument uses no reserved key: an object naming
                // `@call` or `@path` is a call or a binding, and is checked as one.
                args.insert(
                    "additionalProperties".into(),
                    json!({"anyOf": [{"$ref": "#/$defs/DynamicValue"}, LITERAL_OBJECT.clone()]}),
                );
            }
        }
        alias_property(f, "call", "@call");
        alias_property(f, "catalogId", "@catalogId");
        f.remove("required");
        let catalog_function = f.remove("oneOf").unwrap_or_else(|| json!([]));
        f.insert(
            "anyOf".into(),
            json!([
                {"required": ["@call"], "anyOf": [
                    {"oneOf": catalog_function},
                    {"$ref": "catalog.json#/$defs/foreignCall"},
                ]},
                {"required": ["call"], "not": {"required": ["@call"]}},
            ]),
        );
    }
    if let Some(Value::Object(f)) = defs.get_mut("IndexSystemFunction")
        && let Some(Value::Object(props)) = f.get_mut("properties")
        && let Some(call) = props.remove("call")
    {
        props.insert("@call".into(), call);
        f.insert("required".into(), json!(["@call"]));
    }
    if let Some(Value::Object(d)) = defs.get_mut("DynamicValue")
        && let Some(Value::Array(branches)) = d.remove("oneOf")
    {
        // The literal-object branch excluded the bare `path` / `call`; in the `@`
        // vocabulary it excludes `@path` / `@call`, and a bare-spelled binding or call
        // (still read) is also an object: any branch may match.
        let branches: Vec<Value> = branches
            .into_iter()
            .map(|b| {
                if b.get("type") == Some(&json!("object")) && b.get("not").is_some() {
                    LITERAL_OBJECT.clone()
                } else {
                    b
                }
            })
            .collect();
        d.insert("anyOf".into(), Value::Array(branches));
    }
    if let Some(Value::Object(c)) = defs.get_mut("ComponentCommon") {
        for key in ["catalogId", "accessibility", "metadata"] {
            alias_property(c, key, &format!("@{key}"));
        }
    }
    if let Some(Value::Object(c)) = defs.get_mut("Checkable") {
        alias_property(c, "checks", "@checks");
    }
    common
}

/// A UAX #31 identifier, as the v1.0 schemas spell it (`Extensions`).
const IDENTIFIER: &str = r"[\p{XID_Start}_][\p{XID_Continue}]*";

/// An object that is data, not a binding or a call: it uses neither `@path` nor `@call`.
static LITERAL_OBJECT: std::sync::LazyLock<Value> = std::sync::LazyLock::new(
    || json!({"type": "object", "not": {"anyOf": [{"required": ["@path"]}, {"required": ["@call"]}]}}),
);

/// Give `schema`'s property `bare` a second name `at` with the same schema.
fn alias_property(schema: &mut Map<String, Value>, bare: &str, at: &str) {
    if let Some(Value::Object(props)) = schema.get_mut("properties")
        && let Some(s) = props.get(bare).cloned()
    {
        props.insert(at.to_owned(), s);
    }
}

/// The v1.0 `agent_to_renderer.json` (August 2026) as the suites send it: `version` is
/// `"v1.0"` or `"1.0"`, and `callRendererFunction.callFunction` names its catalog with
/// `catalogId` or `@catalogId`. Nothing else changes.
pub fn v1_envelope(envelope: Value) -> Value {
    let mut envelope = widen_version(envelope, "v1.0", &["v1.0", "1.0"]);
    let Some(defs) = envelope.get_mut("$defs").and_then(Value::as_object_mut) else {
        return envelope;
    };
    if let Some(call) = defs.get_mut("CallRendererFunctionMessage").and_then(|m| {
        m.pointer_mut("/properties/callRendererFunction/properties/callFunction/allOf/1")
    }) && call.get("required") == Some(&json!(["catalogId"]))
    {
        *call = json!({"anyOf": [{"required": ["catalogId"]}, {"required": ["@catalogId"]}]});
    }
    envelope
}

/// Every message definition of `envelope` whose `version` is the constant `from` accepts
/// any of `to`.
fn widen_version(mut envelope: Value, from: &str, to: &[&str]) -> Value {
    if let Some(defs) = envelope.get_mut("$defs").and_then(Value::as_object_mut) {
        for def in defs.values_mut() {
            if let Some(v) = def.pointer_mut("/properties/version")
                && v.get("const").and_then(Value::as_str) == Some(from)
            {
                *v = json!({ "enum": to });
            }
        }
    }
    envelope
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v10(components: Value) -> Value {
        json!({"version": "v1.0", "updateComponents": {"surfaceId": "s", "components": components}})
    }

    #[test]
    fn a_v1_message_in_the_at_vocabulary_passes_as_sent() {
        let v = SchemaValidator::basic().expect("validator");
        let m = v10(json!([
            {"id": "root", "component": "Column", "children": ["t", "b"]},
            {"id": "t", "component": "Text", "text": {"@call": "formatString",
                "args": {"value": "Hi ${/name}"}}},
            {"id": "l", "component": "Text", "text": "Go"},
            {"id": "b", "component": "Button", "child": "l",
                "@accessibility": {"label": {"@path": "/label"}},
                "action": {"event": {"name": "go", "context": {"who": {"@path": "/name"}}}}},
        ]));
        assert_eq!(v.validate(&m), Ok(()));
    }

    #[test]
    fn a_real_schema_error_is_refused_with_its_path() {
        let v = SchemaValidator::basic().expect("validator");
        let m = v10(json!([
            {"id": "root", "component": "Text", "text": {"@path": "/t"}, "variant": "shout"},
        ]));
        match v.validate(&m) {
            Err(A2uiError::Validation { path, .. }) => {
                assert!(path.starts_with("/updateComponents/components/0"), "{path}");
            }
            other => panic!("expected a validation error, got {other:?}"),
        }
        // A binding with a key beside `@path` is no binding.
        for text in [
            json!({"@path": "/t", "extra": 1}),
            json!({"@call": "formatString", "args": {"value": "x"}, "extra": 1}),
            // `formatString` takes `value`, not `text`.
            json!({"@call": "formatString", "args": {"text": "x"}}),
        ] {
            let m = v10(json!([{"id": "root", "component": "Text", "text": text.clone()}]));
            assert!(v.validate(&m).is_err(), "{text}");
        }
        // An object with no reserved key is data where any value goes.
        let m = v10(json!([{"id": "b", "component": "Button", "child": "l",
            "action": {"event": {"name": "go", "context": {"o": {"path": "/p", "call": "x"}}}}}]));
        assert_eq!(v.validate(&m), Ok(()));
    }

    #[test]
    fn an_added_catalog_checks_its_property_and_theme_schemas() {
        let doc = json!({"catalogId": "custom", "components": {
            "Chart": {"type": "object", "properties": {
                "component": {"const": "Chart"}, "kind": {"enum": ["pie", "bar"]}},
                "required": ["component", "kind"]}},
            "theme": {"type": "object", "properties": {
                "primaryColor": {"type": "string", "pattern": "^#[0-9a-fA-F]{6}$"}}}});
        let v = SchemaValidator::basic()
            .and_then(|v| v.with_catalog(Version::V0_9, &doc))
            .expect("validator");
        let comp = |c: Value| json!({"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": [c]}});
        let good = comp(json!({"id": "root", "component": "Chart", "kind": "pie"}));
        assert_eq!(v.validate_for(&good, Some("custom")), Ok(()));
        // The basic catalog has no Chart.
        assert!(v.validate(&good).is_err());
        for bad in [
            json!({"id": "root", "component": "Chart", "kind": "line"}),
            json!({"id": "root", "component": "Chart"}),
            json!({"id": "root", "component": "Chart", "kind": "pie", "extra": 1}),
        ] {
            assert!(
                v.validate_for(&comp(bad.clone()), Some("custom")).is_err(),
                "{bad}"
            );
        }
        let create = |color: &str| {
            json!({"version": "v0.9", "createSurface": {"surfaceId": "s1", "catalogId": "custom",
                "theme": {"primaryColor": color}}})
        };
        assert_eq!(v.validate_for(&create("#ff0000"), Some("custom")), Ok(()));
        let err = v
            .validate_for(&create("red"), Some("custom"))
            .expect_err("bad theme");
        assert!(err.to_string().contains("theme on surface 's1'"), "{err}");
    }
}
