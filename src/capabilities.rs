//! Transport metadata that travels with renderer → agent messages (A2UI [protocol], client
//! capabilities): the
//! renderer's capabilities (which catalogs it can draw) and, for surfaces created with
//! `sendDataModel: true`, their data models.
//!
//! These are not A2UI messages: the host puts them into the metadata of whatever carries
//! the message (A2A message metadata, MCP `_meta`, ...). Per the spec, send the
//! capabilities on every message, and the data models only with messages to the agent that
//! created those surfaces: other agents' surfaces must never leak to it.
//!
//! ```
//! use egui_a2ui::{Catalog, capabilities};
//!
//! let meta = capabilities::capabilities_metadata(&Catalog::basic());
//! assert!(meta["a2uiClientCapabilities"]["v0.9"]["supportedCatalogIds"].is_array());
//! assert!(meta["a2uiRendererCapabilities"]["v1.0"]["supportedCatalogIds"].is_array());
//! ```
//!
//! [protocol]: https://a2ui.org/specification/v0.9-a2ui/

use serde_json::{Map, Value, json};

use crate::model::SurfaceStore;
use crate::protocol::Version;
use crate::render::Renderer;
use crate::render::catalog::Catalog;

/// Metadata key of the renderer capabilities in v0.8, v0.9 and v0.9.1.
pub const CLIENT_CAPABILITIES_KEY: &str = "a2uiClientCapabilities";
/// Metadata key of the renderer capabilities in v1.0.
pub const RENDERER_CAPABILITIES_KEY: &str = "a2uiRendererCapabilities";
/// Metadata key of the data models of v0.9 / v0.9.1 surfaces.
pub const CLIENT_DATA_MODEL_KEY: &str = "a2uiClientDataModel";
/// Metadata key of the data models of v1.0 surfaces.
pub const RENDERER_DATA_MODEL_KEY: &str = "a2uiRendererDataModel";

/// The catalog ids `catalog` serves for one protocol family, in registration order.
pub fn supported_catalog_ids(catalog: &Catalog, family: Version) -> Vec<String> {
    let known = catalog.catalogs();
    let mut out: Vec<String> = Vec::new();
    for id in catalog.catalog_ids() {
        let served = known.get(id).is_some_and(|info| info.serves(family));
        if served && !out.iter().any(|o| o == id) {
            out.push(id.to_owned());
        }
    }
    out
}

/// The `a2uiClientCapabilities` value: the v0.8 form (`supportedCatalogIds` at the top)
/// together with the v0.9 form under both the `"v0.9"` and `"v0.9.1"` keys (the v0.9.1
/// schema requires `"v0.9"`; v0.9.1 agents read `"v0.9.1"`). One object satisfies the
/// v0.8, v0.9 and v0.9.1 schemas.
pub fn client_capabilities(catalog: &Catalog) -> Value {
    let v08 = supported_catalog_ids(catalog, Version::V0_8);
    let v09 = supported_catalog_ids(catalog, Version::V0_9);
    json!({
        "supportedCatalogIds": v08,
        "v0.9": { "supportedCatalogIds": v09 },
        "v0.9.1": { "supportedCatalogIds": v09 },
    })
}

/// The v1.0 `a2uiRendererCapabilities` value: `{"v1.0": {"supportedCatalogIds": [...]}}`.
pub fn renderer_capabilities(catalog: &Catalog) -> Value {
    let v10 = supported_catalog_ids(catalog, Version::V1_0);
    json!({ "v1.0": { "supportedCatalogIds": v10 } })
}

/// A catalog definition document (`{catalogId, components: {Name: schema}, functions?,
/// theme?}`) in the form a renderer advertises it under `inlineCatalogs` in its
/// capabilities (`includeInlineCatalogs`, the official message-processor suite): each
/// component schema wrapped in the common component envelope,
/// `{"allOf": [{"$ref": "common_types.json#/$defs/ComponentCommon"}, {"properties":
/// {"component": {"const": Name}, ...}, "required": ["component", ...]}]}`; functions as
/// a list of `{name, ...definition}`; the theme as its property schemas. Keys the document
/// does not have are left out.
///
/// ```
/// use serde_json::json;
/// let doc = json!({"catalogId": "c", "components": {"Chip": {"type": "object",
///     "properties": {"label": {"type": "string"}}, "required": ["label"]}}});
/// let inline = egui_a2ui::capabilities::inline_catalog(&doc);
/// assert_eq!(inline["components"]["Chip"]["allOf"][1]["required"], json!(["component", "label"]));
/// ```
pub fn inline_catalog(doc: &Value) -> Value {
    let mut out = Map::new();
    if let Some(id) = doc.get("catalogId") {
        out.insert("catalogId".into(), id.clone());
    }
    if let Some(components) = doc.get("components").and_then(Value::as_object) {
        let wrapped: Map<String, Value> = components
            .iter()
            .map(|(name, schema)| (name.clone(), enveloped_component(name, schema)))
            .collect();
        out.insert("components".into(), Value::Object(wrapped));
    }
    match doc.get("functions") {
        Some(Value::Object(functions)) => {
            let list: Vec<Value> = functions
                .iter()
                .map(|(name, def)| {
                    let mut f = Map::new();
                    f.insert("name".into(), json!(name));
                    if let Some(d) = def.as_object() {
                        f.extend(d.iter().map(|(k, v)| (k.clone(), v.clone())));
                    }
                    Value::Object(f)
                })
                .collect();
            out.insert("functions".into(), Value::Array(list));
        }
        Some(list @ Value::Array(_)) => {
            out.insert("functions".into(), list.clone());
        }
        _ => {}
    }
    if let Some(theme) = doc.get("theme") {
        let props = theme
            .get("properties")
            .filter(|_| theme.get("type").is_some() || theme.get("properties").is_some())
            .unwrap_or(theme);
        out.insert("theme".into(), props.clone());
    }
    Value::Object(out)
}

/// One component schema inside the common component envelope (see [`inline_catalog`]).
fn enveloped_component(name: &str, schema: &Value) -> Value {
    let mut own = Map::new();
    let mut properties = Map::new();
    properties.insert("component".into(), json!({ "const": name }));
    let mut required = vec![json!("component")];
    for (k, v) in schema.as_object().into_iter().flatten() {
        match k.as_str() {
            // The envelope says what it is.
            "type" => {}
            "properties" => {
                for (p, ps) in v.as_object().into_iter().flatten() {
                    if p != "component" {
                        properties.insert(p.clone(), ps.clone());
                    }
                }
            }
            "required" => {
                for r in v.as_array().into_iter().flatten() {
                    if r.as_str() != Some("component") {
                        required.push(r.clone());
                    }
                }
            }
            _ => {
                own.insert(k.clone(), v.clone());
            }
        }
    }
    own.insert("properties".into(), Value::Object(properties));
    own.insert("required".into(), Value::Array(required));
    json!({"allOf": [{"$ref": "common_types.json#/$defs/ComponentCommon"}, own]})
}

/// Both capability entries, keyed for transport metadata
/// (`a2uiClientCapabilities` and `a2uiRendererCapabilities`).
pub fn capabilities_metadata(catalog: &Catalog) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert(
        CLIENT_CAPABILITIES_KEY.to_owned(),
        client_capabilities(catalog),
    );
    m.insert(
        RENDERER_CAPABILITIES_KEY.to_owned(),
        renderer_capabilities(catalog),
    );
    m
}

/// The data-model metadata for the surfaces of one agent: of the surfaces named in
/// `agent_surfaces` (the host knows which surfaces that agent created), those created with
/// `sendDataModel: true` and still live. v0.9 / v0.9.1 surfaces go under
/// `a2uiClientDataModel`, v1.0 ones under `a2uiRendererDataModel`, each as
/// `{version, surfaces: {id: model}}`; v0.8 has no data-model sync. A key is present only
/// when at least one surface qualifies. A surface whose model root is not an object (which
/// the schema cannot carry) is left out.
pub fn data_model_metadata<I, S>(store: &SurfaceStore, agent_surfaces: I) -> Map<String, Value>
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    let mut v09 = Map::new();
    let mut v09_all_091 = true;
    let mut v10 = Map::new();
    for id in agent_surfaces {
        let Some(surface) = store.surface(id.as_ref()) else {
            continue;
        };
        if !surface.send_data_model || !surface.data.root().is_object() {
            continue;
        }
        let model = surface.data.root().clone();
        match surface.version {
            Version::V0_8 => {}
            Version::V0_9 | Version::V0_9_1 => {
                v09_all_091 &= surface.version == Version::V0_9_1;
                v09.insert(surface.id.clone(), model);
            }
            Version::V1_0 => {
                v10.insert(surface.id.clone(), model);
            }
        }
    }
    let mut m = Map::new();
    if !v09.is_empty() {
        let version = if v09_all_091 { "v0.9.1" } else { "v0.9" };
        m.insert(
            CLIENT_DATA_MODEL_KEY.to_owned(),
            json!({ "version": version, "surfaces": v09 }),
        );
    }
    if !v10.is_empty() {
        m.insert(
            RENDERER_DATA_MODEL_KEY.to_owned(),
            json!({ "version": "v1.0", "surfaces": v10 }),
        );
    }
    m
}

/// Everything to attach to a message for one agent: the capabilities and the data models
/// of that agent's `sendDataModel` surfaces.
pub fn outgoing_metadata<I, S>(
    catalog: &Catalog,
    store: &SurfaceStore,
    agent_surfaces: I,
) -> Map<String, Value>
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    let mut m = capabilities_metadata(catalog);
    m.extend(data_model_metadata(store, agent_surfaces));
    m
}

impl Catalog {
    /// The capability metadata of a renderer drawing with this catalog; see
    /// [`capabilities_metadata`].
    pub fn capabilities_metadata(&self) -> Map<String, Value> {
        capabilities_metadata(self)
    }
}

impl SurfaceStore {
    /// The data-model metadata for one agent's surfaces; see [`data_model_metadata`].
    pub fn data_model_metadata<I, S>(&self, agent_surfaces: I) -> Map<String, Value>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        data_model_metadata(self, agent_surfaces)
    }
}

impl Renderer {
    /// The metadata to attach to a message for the agent that created `agent_surfaces`:
    /// capabilities plus the data models of its `sendDataModel` surfaces.
    pub fn outgoing_metadata<I, S>(&self, agent_surfaces: I) -> Map<String, Value>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        outgoing_metadata(self.catalog(), self.store(), agent_surfaces)
    }
}
