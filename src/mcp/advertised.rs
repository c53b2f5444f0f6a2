//! What a native host advertises: the MCP Apps `io.modelcontextprotocol/ui` extension
//! settings and the A2UI catalog capability, each placeable at `initialize` and in the
//! per-request `_meta` form.

use serde_json::{Map, Value, json};

use super::{CLIENT_CAPABILITIES_META_KEY, UI_EXTENSION_ID};
use crate::model::Catalogs;
use crate::protocol::{
    BASIC_CATALOG_V0_9, BASIC_CATALOG_V1_0, MIME_TYPE, MIME_TYPE_LEGACY, STANDARD_CATALOG_V0_8,
    Version,
};

/// The `io.modelcontextprotocol/ui` extension settings of a host.
///
/// The default ([`Self::native_a2ui`]) lists `application/a2ui+json` in both `mimeTypes`
/// (what A2UI servers check) and `contentMimeTypes` (what ext-apps servers check), and no
/// HTML type: this host does not run HTML Views.
#[derive(Clone, Debug, PartialEq)]
pub struct UiExtensionSettings {
    /// `mimeTypes`: the formats the host renders itself.
    pub mime_types: Vec<String>,
    /// `contentMimeTypes`: the payload formats the host accepts in tool results. Also the
    /// default accept-list of [`crate::mcp::SplitPolicy`].
    pub content_mime_types: Vec<String>,
    /// Any further settings, copied as they are (`features`, future keys).
    pub extra: Map<String, Value>,
}

impl Default for UiExtensionSettings {
    fn default() -> Self {
        Self::native_a2ui()
    }
}

impl UiExtensionSettings {
    /// Native A2UI rendering: `application/a2ui+json` in both lists.
    pub fn native_a2ui() -> Self {
        Self {
            mime_types: vec![MIME_TYPE.to_owned()],
            content_mime_types: vec![MIME_TYPE.to_owned()],
            extra: Map::new(),
        }
    }

    /// Settings with these lists.
    pub fn new(mime_types: Vec<String>, content_mime_types: Vec<String>) -> Self {
        Self {
            mime_types,
            content_mime_types,
            extra: Map::new(),
        }
    }

    /// Also advertise the legacy spelling `application/json+a2ui` in `contentMimeTypes`
    /// (as mcp-ui does).
    pub fn with_legacy_a2ui_mime(mut self) -> Self {
        if !self
            .content_mime_types
            .iter()
            .any(|m| m == MIME_TYPE_LEGACY)
        {
            self.content_mime_types.push(MIME_TYPE_LEGACY.to_owned());
        }
        self
    }

    /// The settings object: `{"mimeTypes": [...], "contentMimeTypes": [...], ...extra}`.
    /// An empty `contentMimeTypes` is left out (advertising a non-empty one is what
    /// negotiates dynamic content).
    pub fn to_value(&self) -> Value {
        let mut m = self.extra.clone();
        m.insert("mimeTypes".into(), json!(self.mime_types));
        if !self.content_mime_types.is_empty() {
            m.insert("contentMimeTypes".into(), json!(self.content_mime_types));
        }
        Value::Object(m)
    }

    /// Read settings back from a settings object (server side). Non-string entries are
    /// skipped; `None` when `value` is not an object.
    pub fn from_value(value: &Value) -> Option<Self> {
        let m = value.as_object()?;
        let list = |k: &str| -> Vec<String> {
            m.get(k)
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(Value::as_str)
                        .map(str::to_owned)
                        .collect()
                })
                .unwrap_or_default()
        };
        let extra = m
            .iter()
            .filter(|(k, _)| *k != "mimeTypes" && *k != "contentMimeTypes")
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        Some(Self {
            mime_types: list("mimeTypes"),
            content_mime_types: list("contentMimeTypes"),
            extra,
        })
    }

    /// A `capabilities` object holding only this extension:
    /// `{"extensions": {"io.modelcontextprotocol/ui": {...}}}`.
    pub fn client_capabilities(&self) -> Value {
        let mut caps = Map::new();
        self.insert_into_capabilities(&mut caps);
        Value::Object(caps)
    }

    /// Put the settings at `extensions["io.modelcontextprotocol/ui"]` of an `initialize`
    /// `capabilities` object, keeping its other entries (a non-object `extensions` is
    /// replaced).
    pub fn insert_into_capabilities(&self, capabilities: &mut Map<String, Value>) {
        let settings = self.to_value();
        with_object(capabilities, "extensions", |ext| {
            ext.insert(UI_EXTENSION_ID.to_owned(), settings);
        });
    }

    /// Put the settings in a request's `_meta`, in the per-request client-capabilities form
    /// of MCP 2026-07-28:
    /// `_meta["io.modelcontextprotocol/clientCapabilities"].extensions["io.modelcontextprotocol/ui"]`.
    pub fn insert_into_request_meta(&self, meta: &mut Map<String, Value>) {
        with_object(meta, CLIENT_CAPABILITIES_META_KEY, |caps| {
            self.insert_into_capabilities(caps);
        });
    }

    /// The settings a client advertised, read from its `capabilities` object (server side).
    pub fn from_client_capabilities(capabilities: &Value) -> Option<Self> {
        Self::from_value(capabilities.get("extensions")?.get(UI_EXTENSION_ID)?)
    }

    /// The settings a client advertised in a request's `_meta` (per-request form).
    pub fn from_request_meta(meta: &Value) -> Option<Self> {
        Self::from_client_capabilities(meta.get(CLIENT_CAPABILITIES_META_KEY)?)
    }

    /// Whether `contentMimeTypes` covers `mime` (`"*"` covers everything; matching as in
    /// [`crate::mcp::split::mime_matches`]).
    pub fn supports_content_mime(&self, mime: &str) -> bool {
        super::split::mime_list_accepts(&self.content_mime_types, mime)
    }

    /// Whether the host renders A2UI natively: either spelling in `mimeTypes` or
    /// `contentMimeTypes`.
    pub fn supports_native_a2ui(&self) -> bool {
        self.mime_types
            .iter()
            .chain(&self.content_mime_types)
            .any(|m| super::split::mime_matches(m, MIME_TYPE))
    }
}

/// The A2UI catalog capability: which catalogs the renderer supports, per protocol version.
///
/// Its value is `{"v0.9": {"supportedCatalogIds": [...]}, "v0.9.1": {...}, "v1.0": {...}}`;
/// v0.8 ids go in a top-level `supportedCatalogIds` (the v0.8 shape is flat). It travels at
/// `initialize` in `capabilities.a2ui.clientCapabilities`, or per call in
/// `_meta.a2ui.clientCapabilities` (the "A2UI over MCP" guide).
#[derive(Clone, Debug, PartialEq)]
pub struct A2uiCatalogCapability {
    /// Catalog ids per version, in insertion order.
    pub catalogs: Vec<(Version, Vec<String>)>,
    /// Inline catalog definitions per version (`inlineCatalogs`).
    pub inline_catalogs: Vec<(Version, Value)>,
}

impl Default for A2uiCatalogCapability {
    fn default() -> Self {
        Self::basic()
    }
}

impl A2uiCatalogCapability {
    /// The basic catalog of every version this crate speaks (v0.8 standard, v0.9 basic
    /// under both `v0.9` and `v0.9.1`, v1.0 basic).
    pub fn basic() -> Self {
        Self {
            catalogs: vec![
                (Version::V0_8, vec![STANDARD_CATALOG_V0_8.to_owned()]),
                (Version::V0_9, vec![BASIC_CATALOG_V0_9.to_owned()]),
                (Version::V0_9_1, vec![BASIC_CATALOG_V0_9.to_owned()]),
                (Version::V1_0, vec![BASIC_CATALOG_V1_0.to_owned()]),
            ],
            inline_catalogs: Vec::new(),
        }
    }

    /// No catalogs.
    pub fn empty() -> Self {
        Self {
            catalogs: Vec::new(),
            inline_catalogs: Vec::new(),
        }
    }

    /// Every catalog a store knows, each under its version (v0.9 ones also under v0.9.1).
    pub fn from_known(known: &Catalogs) -> Self {
        let mut cap = Self::empty();
        for id in known.ids() {
            if let Some(info) = known.get(id) {
                for version in info.versions.iter() {
                    cap = cap.with_catalog(version, id);
                    if version == Version::V0_9 {
                        cap = cap.with_catalog(Version::V0_9_1, id);
                    }
                }
            }
        }
        cap
    }

    /// Add a supported catalog id for a version.
    pub fn with_catalog(mut self, version: Version, catalog_id: &str) -> Self {
        match self.catalogs.iter_mut().find(|(v, _)| *v == version) {
            Some((_, ids)) => {
                if !ids.iter().any(|i| i == catalog_id) {
                    ids.push(catalog_id.to_owned());
                }
            }
            None => self.catalogs.push((version, vec![catalog_id.to_owned()])),
        }
        self
    }

    /// Add an inline catalog definition for a version.
    pub fn with_inline_catalog(mut self, version: Version, catalog: Value) -> Self {
        self.inline_catalogs.push((version, catalog));
        self
    }

    /// The capability object.
    pub fn to_value(&self) -> Value {
        let mut out = Map::new();
        let inline = |v: Version| -> Vec<Value> {
            self.inline_catalogs
                .iter()
                .filter(|(iv, _)| *iv == v)
                .map(|(_, c)| c.clone())
                .collect()
        };
        for (version, ids) in &self.catalogs {
            let mut entry = Map::new();
            entry.insert("supportedCatalogIds".into(), json!(ids));
            let inl = inline(*version);
            if !inl.is_empty() {
                entry.insert("inlineCatalogs".into(), Value::Array(inl));
            }
            if *version == Version::V0_8 {
                out.extend(entry);
            } else {
                out.insert(version.as_str().to_owned(), Value::Object(entry));
            }
        }
        Value::Object(out)
    }

    /// Put the capability at `a2ui.clientCapabilities` of an `initialize` `capabilities`
    /// object (a non-standard top-level key, as the A2UI guide specifies).
    pub fn insert_into_capabilities(&self, capabilities: &mut Map<String, Value>) {
        let value = self.to_value();
        with_object(capabilities, "a2ui", |a2ui| {
            a2ui.insert("clientCapabilities".into(), value);
        });
    }

    /// Put the capability at `a2ui.clientCapabilities` of a request's `_meta` (for
    /// stateless servers).
    pub fn insert_into_request_meta(&self, meta: &mut Map<String, Value>) {
        self.insert_into_capabilities(meta);
    }
}

/// Run `f` on `map[key]` as an object, created (or replacing a non-object) when needed.
pub(crate) fn with_object<R>(
    map: &mut Map<String, Value>,
    key: &str,
    f: impl FnOnce(&mut Map<String, Value>) -> R,
) -> R {
    let mut inner = match map.remove(key) {
        Some(Value::Object(m)) => m,
        _ => Map::new(),
    };
    let r = f(&mut inner);
    map.insert(key.to_owned(), Value::Object(inner));
    r
}
