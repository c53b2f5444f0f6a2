//! Which catalogs exist and which component types each one has: the allow-list a surface
//! is checked against. The egui side (`catalog`) adds renderers for these names; this part
//! is plain data so the core stays egui-free.

use indexmap::IndexMap;

use crate::protocol::{
    BASIC_CATALOG_V0_9, BASIC_CATALOG_V1_0, MINIMAL_CATALOG_V0_9, STANDARD_CATALOG_V0_8, Version,
};

/// The v0.8 minimal catalog id.
pub const MINIMAL_CATALOG_V0_8: &str =
    "https://a2ui.org/specification/v0_8/catalogs/minimal/minimal_catalog.json";

/// The 18 basic-catalog component types (v0.9 names).
pub const BASIC_COMPONENTS: &[&str] = &[
    "Text",
    "Image",
    "Icon",
    "Video",
    "AudioPlayer",
    "Row",
    "Column",
    "List",
    "Card",
    "Tabs",
    "Modal",
    "Divider",
    "Button",
    "TextField",
    "CheckBox",
    "ChoicePicker",
    "Slider",
    "DateTimeInput",
];

/// The minimal catalog's components.
pub const MINIMAL_COMPONENTS: &[&str] = &["Text", "Row", "Column", "Button", "TextField"];

/// One catalog known to the store.
#[derive(Clone, Debug, PartialEq)]
pub struct CatalogInfo {
    /// The catalog id.
    pub id: String,
    /// The protocol version the catalog belongs to.
    pub version: Version,
    /// Component type names, in their wire spelling.
    pub components: Vec<String>,
}

impl CatalogInfo {
    /// Whether the catalog defines the wire type `name`.
    pub fn has_component(&self, name: &str) -> bool {
        self.components.iter().any(|c| c == name)
    }
}

/// The catalogs a store accepts, by id.
#[derive(Clone, Debug, PartialEq)]
pub struct KnownCatalogs {
    catalogs: IndexMap<String, CatalogInfo>,
}

impl Default for KnownCatalogs {
    /// The basic catalogs of v0.8, v0.9 (also v0.9.1) and v1.0, and the minimal catalogs.
    fn default() -> Self {
        let mut k = Self {
            catalogs: IndexMap::new(),
        };
        let mut v08: Vec<&str> = BASIC_COMPONENTS
            .iter()
            .copied()
            .filter(|c| *c != "ChoicePicker")
            .collect();
        v08.push("MultipleChoice");
        k.register(STANDARD_CATALOG_V0_8, Version::V0_8, &v08);
        k.register(MINIMAL_CATALOG_V0_8, Version::V0_8, MINIMAL_COMPONENTS);
        k.register(BASIC_CATALOG_V0_9, Version::V0_9, BASIC_COMPONENTS);
        k.register(MINIMAL_CATALOG_V0_9, Version::V0_9, MINIMAL_COMPONENTS);
        k.register(BASIC_CATALOG_V1_0, Version::V1_0, BASIC_COMPONENTS);
        k
    }
}

impl KnownCatalogs {
    /// No catalogs at all.
    pub fn empty() -> Self {
        Self {
            catalogs: IndexMap::new(),
        }
    }

    /// Register (or extend) a catalog with component names.
    pub fn register(&mut self, id: &str, version: Version, components: &[&str]) {
        let entry = self
            .catalogs
            .entry(id.to_owned())
            .or_insert_with(|| CatalogInfo {
                id: id.to_owned(),
                version,
                components: Vec::new(),
            });
        for c in components {
            if !entry.has_component(c) {
                entry.components.push((*c).to_owned());
            }
        }
    }

    /// The catalog with this id.
    pub fn get(&self, id: &str) -> Option<&CatalogInfo> {
        self.catalogs.get(id)
    }

    /// Every known catalog id.
    pub fn ids(&self) -> impl Iterator<Item = &str> {
        self.catalogs.keys().map(String::as_str)
    }
}
