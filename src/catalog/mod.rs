//! Catalogs: which component types exist and how each is drawn.
//!
//! A [`Catalog`] maps component type names to [`ComponentRenderer`]s and carries the
//! [`FunctionRegistry`] of its functions. [`Catalog::basic`] has all 18 basic components
//! and every basic function; a host adds its own components (a chart, a minimap, an item
//! slot) with [`Catalog::register`].

pub(crate) mod basic;

use std::collections::HashMap;
use std::sync::Arc;

use crate::eval::{Function, FunctionRegistry};
use crate::model::{BASIC_COMPONENTS, KnownCatalogs};
use crate::protocol::Version;
use crate::render::ComponentContext;

/// Draws one component type. The crate owns the tree walk, binding, widget state and safety
/// checks; an implementation only draws, using the helpers of [`ComponentContext`].
pub trait ComponentRenderer: Send + Sync {
    /// Draw the component into `ui` and return its response.
    fn ui(&self, ui: &mut egui::Ui, cx: &mut ComponentContext<'_, '_>) -> egui::Response;
}

impl<F> ComponentRenderer for F
where
    F: Fn(&mut egui::Ui, &mut ComponentContext<'_, '_>) -> egui::Response + Send + Sync,
{
    fn ui(&self, ui: &mut egui::Ui, cx: &mut ComponentContext<'_, '_>) -> egui::Response {
        self(ui, cx)
    }
}

/// Component renderers and functions, plus the catalog ids they serve.
#[derive(Clone)]
pub struct Catalog {
    ids: Vec<(String, Version)>,
    definitions: Vec<serde_json::Value>,
    components: HashMap<String, Arc<dyn ComponentRenderer>>,
    functions: FunctionRegistry,
}

impl std::fmt::Debug for Catalog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut names: Vec<_> = self.components.keys().collect();
        names.sort();
        f.debug_struct("Catalog")
            .field("ids", &self.ids)
            .field("components", &names)
            .field("functions", &self.functions)
            .finish()
    }
}

impl Catalog {
    /// An empty catalog serving no catalog id.
    pub fn empty() -> Self {
        Self {
            ids: Vec::new(),
            definitions: Vec::new(),
            components: HashMap::new(),
            functions: FunctionRegistry::empty(),
        }
    }

    /// The basic catalog: all 18 components, every basic function, serving the basic (and
    /// minimal) catalog ids of v0.8, v0.9/v0.9.1 and v1.0.
    pub fn basic() -> Self {
        let mut c = Self::empty();
        for (id, v) in [
            (crate::protocol::STANDARD_CATALOG_V0_8, Version::V0_8),
            (
                "https://a2ui.org/specification/v0_8/catalogs/minimal/minimal_catalog.json",
                Version::V0_8,
            ),
            (crate::protocol::BASIC_CATALOG_V0_9, Version::V0_9),
            (crate::protocol::MINIMAL_CATALOG_V0_9, Version::V0_9),
            (crate::protocol::BASIC_CATALOG_V1_0, Version::V1_0),
        ] {
            c.ids.push((id.to_owned(), v));
        }
        basic::register_all(&mut c);
        c.functions = FunctionRegistry::basic();
        c
    }

    /// Serve another catalog id (a host's own catalog) with these renderers.
    pub fn with_catalog_id(mut self, id: impl Into<String>, version: Version) -> Self {
        self.ids.push((id.into(), version));
        self
    }

    /// Serve a v1.0 catalog definition document (`catalog_definition.json` shape): its id
    /// and component names are accepted, and its `allowedParents` / `allowedChildren` are
    /// enforced while drawing (`UNALLOWED_PARENT` / `UNALLOWED_CHILD`). Components still
    /// need a renderer, registered with [`Self::register`].
    pub fn add_definition(
        &mut self,
        doc: serde_json::Value,
    ) -> Result<&mut Self, crate::A2uiError> {
        let mut probe = KnownCatalogs::empty();
        let id = probe.register_definition(&doc)?;
        self.ids.push((id, Version::V1_0));
        self.definitions.push(doc);
        Ok(self)
    }

    /// Register (or replace) the renderer of a component type.
    pub fn register(
        &mut self,
        name: impl Into<String>,
        renderer: impl ComponentRenderer + 'static,
    ) -> &mut Self {
        self.components.insert(name.into(), Arc::new(renderer));
        self
    }

    /// Register (or replace) a function.
    pub fn register_function(&mut self, f: impl Function + 'static) -> &mut Self {
        self.functions.register(f);
        self
    }

    /// The renderer of a component type.
    pub fn renderer(&self, name: &str) -> Option<Arc<dyn ComponentRenderer>> {
        self.components.get(name).cloned()
    }

    /// The functions.
    pub fn functions(&self) -> &FunctionRegistry {
        &self.functions
    }

    /// Component type names, sorted.
    pub fn component_names(&self) -> Vec<&str> {
        let mut v: Vec<&str> = self.components.keys().map(String::as_str).collect();
        v.sort_unstable();
        v
    }

    /// The catalog ids served.
    pub fn catalog_ids(&self) -> impl Iterator<Item = &str> {
        self.ids.iter().map(|(id, _)| id.as_str())
    }

    /// The allow-list for a surface store: every served id with the component names this
    /// catalog can draw (minimal catalogs keep their five; v0.8 spells ChoicePicker
    /// `MultipleChoice`).
    pub fn known_catalogs(&self) -> KnownCatalogs {
        let mut k = KnownCatalogs::default();
        let custom: Vec<&str> = self
            .components
            .keys()
            .map(String::as_str)
            .filter(|n| !BASIC_COMPONENTS.contains(n))
            .collect();
        let all: Vec<&str> = self.components.keys().map(String::as_str).collect();
        for doc in &self.definitions {
            // Checked in `add_definition`; a failure here cannot happen.
            let _ = k.register_definition(doc);
        }
        for (id, v) in &self.ids {
            if k.get(id).is_some() {
                k.register(id, *v, &custom);
            } else {
                k.register(id, *v, &all);
            }
        }
        k
    }
}
