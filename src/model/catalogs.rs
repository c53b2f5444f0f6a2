//! The one description of the catalogs a host serves, egui-free: their ids, the component
//! types each one has (the allow-list a surface is checked against), their v1.0
//! composition rules, and the functions. A store, an MCP session and the RPC answerer all
//! read this one description; the egui [`Catalog`](crate::render::catalog::Catalog) adds a renderer per
//! component type and hands it out with [`Catalog::catalogs`](crate::render::catalog::Catalog::catalogs), so
//! a host's own catalog reaches every store built from it.

use std::collections::HashMap;

use indexmap::IndexMap;
use serde_json::Value;

use crate::error::A2uiError;
use crate::eval::{Function, FunctionRegistry};

use crate::protocol::{
    BASIC_CATALOG_V0_9, BASIC_CATALOG_V1_0, MINIMAL_CATALOG_V0_9, STANDARD_CATALOG_V0_8, Version,
    Versions,
};
pub use crate::stored::types::{BASIC_COMPONENTS, EXTENDED_COMPONENTS};

/// The v0.8 minimal catalog id.
pub const MINIMAL_CATALOG_V0_8: &str =
    "https://a2ui.org/specification/v0_8/catalogs/minimal/minimal_catalog.json";

/// The 14 functions the basic catalogs of v0.9 and v1.0 declare (`catalogs/basic/v1`).
pub const BASIC_FUNCTIONS: &[&str] = &[
    "required",
    "regex",
    "length",
    "numeric",
    "email",
    "formatString",
    "formatNumber",
    "formatCurrency",
    "formatDate",
    "pluralize",
    "openUrl",
    "and",
    "or",
    "not",
];

/// The minimal catalog's components.
pub const MINIMAL_COMPONENTS: &[&str] = &["Text", "Row", "Column", "Button", "TextField"];

/// v1.0 composition rules of one component type (`None`: anything is allowed).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Composition {
    /// Parent types this component may appear under (`Surface` = the surface's root).
    pub allowed_parents: Option<Vec<String>>,
    /// Child types this component may contain.
    pub allowed_children: Option<Vec<String>>,
}

/// One catalog known to the store.
#[derive(Clone, Debug, PartialEq)]
pub struct CatalogInfo {
    /// The catalog id.
    pub id: String,
    /// The protocol versions the catalog serves (a surface of another version may not
    /// name it). The published catalogs serve one each; a host's catalog may serve several.
    pub versions: Versions,
    /// Component type names, in their wire spelling.
    pub components: Vec<String>,
    /// v1.0 `allowedParents` / `allowedChildren` by component type.
    pub composition: HashMap<String, Composition>,
    /// The function names the catalog declares, when known (`None`: not declared, calls
    /// are not checked against it).
    pub functions: Option<Vec<String>>,
}

impl CatalogInfo {
    /// Whether the catalog defines the wire type `name`.
    pub fn has_component(&self, name: &str) -> bool {
        self.components.iter().any(|c| c == name)
    }

    /// Whether the catalog serves protocol version `v` (v0.9.1 counts as v0.9).
    pub fn serves(&self, v: Version) -> bool {
        self.versions.contains(v)
    }
}

/// The catalogs a store accepts, by id, and the functions their surfaces may call.
#[derive(Clone, Debug)]
pub struct Catalogs {
    catalogs: IndexMap<String, CatalogInfo>,
    functions: FunctionRegistry,
}

impl Default for Catalogs {
    /// [`Catalogs::basic`].
    fn default() -> Self {
        Self::basic()
    }
}

impl Catalogs {
    /// The basic catalogs of v0.8, v0.9 (also v0.9.1) and v1.0, the minimal catalogs, and
    /// every basic function. What [`Catalog::basic`](crate::render::catalog::Catalog::basic) describes.
    pub fn basic() -> Self {
        let mut k = Self {
            catalogs: IndexMap::new(),
            functions: FunctionRegistry::basic(),
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
        k.declare_functions(BASIC_CATALOG_V0_9, BASIC_FUNCTIONS);
        k.declare_functions(BASIC_CATALOG_V1_0, BASIC_FUNCTIONS);
        k
    }

    /// No catalogs and no functions at all.
    pub fn empty() -> Self {
        Self {
            catalogs: IndexMap::new(),
            functions: FunctionRegistry::empty(),
        }
    }

    /// The functions surfaces of these catalogs may call (and the agent may call with
    /// `callRendererFunction`, where a function allows it).
    pub fn functions(&self) -> &FunctionRegistry {
        &self.functions
    }

    /// Replace the functions.
    pub fn set_functions(&mut self, functions: FunctionRegistry) {
        self.functions = functions;
    }

    /// Register (or replace) a function.
    pub fn register_function(&mut self, f: impl Function + 'static) -> &mut Self {
        self.functions.register(f);
        self
    }

    /// Register (or extend) a catalog with component names, serving `versions` (one
    /// [`Version`] or several; added to those an already registered id serves).
    pub fn register(&mut self, id: &str, versions: impl Into<Versions>, components: &[&str]) {
        let versions = versions.into();
        let entry = self
            .catalogs
            .entry(id.to_owned())
            .or_insert_with(|| CatalogInfo {
                id: id.to_owned(),
                versions,
                components: Vec::new(),
                composition: HashMap::new(),
                functions: None,
            });
        entry.versions = entry.versions.union(versions);
        for c in components {
            if !entry.has_component(c) {
                entry.components.push((*c).to_owned());
            }
        }
    }

    /// Declare function names of a registered catalog (added to those it declares).
    pub fn declare_functions(&mut self, id: &str, names: &[&str]) {
        if let Some(info) = self.catalogs.get_mut(id) {
            let list = info.functions.get_or_insert_with(Vec::new);
            for n in names {
                if !list.iter().any(|x| x == n) {
                    list.push((*n).to_owned());
                }
            }
        }
    }

    /// Register a v1.0 catalog definition document (`catalog_definition.json`): its id,
    /// component names and their `allowedParents` / `allowedChildren`.
    pub fn register_definition(&mut self, doc: &Value) -> Result<String, A2uiError> {
        let id = doc
            .get("catalogId")
            .and_then(Value::as_str)
            .ok_or_else(|| A2uiError::validation("/catalogId", "a catalog needs a catalogId"))?
            .to_owned();
        super::strict::check_definition_names(doc)?;
        let comps = doc.get("components").and_then(Value::as_object);
        let names: Vec<&str> = comps
            .map(|m| m.keys().map(String::as_str).collect())
            .unwrap_or_default();
        self.register(&id, Version::V1_0, &names);
        let list = |v: Option<&Value>| {
            v.and_then(Value::as_array).map(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect::<Vec<_>>()
            })
        };
        // `functions`: an object keyed by name (v1.0) or a list of `{name}` (v0.9).
        let functions: Option<Vec<&str>> = match doc.get("functions") {
            Some(Value::Object(m)) => Some(m.keys().map(String::as_str).collect()),
            Some(Value::Array(a)) => Some(
                a.iter()
                    .filter_map(|f| f.get("name").and_then(Value::as_str).or(f.as_str()))
                    .collect(),
            ),
            _ => None,
        };
        if let Some(names) = functions {
            self.declare_functions(&id, &names);
        }
        if let (Some(comps), Some(info)) = (comps, self.catalogs.get_mut(&id)) {
            for (name, def) in comps {
                let c = Composition {
                    allowed_parents: list(def.get("allowedParents")),
                    allowed_children: list(def.get("allowedChildren")),
                };
                if c != Composition::default() {
                    info.composition.insert(name.clone(), c);
                }
            }
        }
        Ok(id)
    }

    /// Whether `child_type` may sit under `parent_type` (`Surface` for the root): `Err`
    /// carries `true` when the child's `allowedParents` refuses, `false` when the
    /// parent's `allowedChildren` refuses.
    pub fn check_composition(
        &self,
        catalog_id: Option<&str>,
        parent_type: &str,
        child_type: &str,
    ) -> Result<(), bool> {
        let Some(info) = catalog_id.and_then(|c| self.catalogs.get(c)) else {
            return Ok(());
        };
        if let Some(parents) = info
            .composition
            .get(child_type)
            .and_then(|c| c.allowed_parents.as_ref())
            && !parents.iter().any(|p| p == parent_type)
        {
            return Err(true);
        }
        if let Some(children) = info
            .composition
            .get(parent_type)
            .and_then(|c| c.allowed_children.as_ref())
            && !children.iter().any(|c| c == child_type)
        {
            return Err(false);
        }
        Ok(())
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
