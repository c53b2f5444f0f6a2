//! Catalogs: which component types exist and how each is drawn.
//!
//! A [`Catalog`] maps component type names to [`ComponentRenderer`]s and carries the
//! [`FunctionRegistry`] of its functions. `Catalog::basic` (the basic catalog, `src/basic`) has all 18 basic components
//! and every basic function; a host adds its own components (a chart, a minimap, an item
//! slot) with [`Catalog::register`], or with [`Catalog::register_with`] to declare its
//! [`ComponentTraits`] (accessible role, where its accessible name comes from, how it sits
//! in a Row or Column).
//!
//! A host's own *container* lays its A2UI children out with the same slot protocol the
//! basic Row, Column, List and Card use: read what the parent asks of it with
//! [`Incoming::of`](crate::catalog::Incoming::of), draw each child in a [`Slot`](crate::catalog::Slot) (an exact rectangle and an [`Extent`](crate::catalog::Extent)),
//! and report its own natural size back with [`Incoming::report`](crate::catalog::Incoming::report). [`plan_main`](crate::catalog::plan_main) shares a
//! line's length among children by `weight` and `justify` as Row and Column do. See
//! [`Slot`](crate::catalog::Slot) for a whole container.

use std::collections::HashMap;
use std::sync::Arc;

use egui::accesskit::Role;

use super::ComponentContext;
use crate::eval::{Function, FunctionRegistry};
use crate::model::{BASIC_COMPONENTS, Catalogs};
use crate::protocol::{Version, Versions};

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

/// Where the accessible name of a component comes from when it sits inside a control that
/// is named by its content: a Button's name is the visible text of its child subtree
/// ([`ComponentContext::subtree_text`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum NameSource {
    /// The texts of its children, in slot order, joined with spaces (the default; a
    /// component without children adds nothing). A `content` slot (a Modal's dialog) is
    /// left out: it is not visible until opened.
    #[default]
    Children,
    /// The display text of this property, simple Markdown markers (`**`, `` ` ``, `#`)
    /// dropped. The basic `Text` uses `Text("text")`.
    Text(&'static str),
    /// A symbol name in this property, humanised: `arrowBack` → `arrow back`. The basic
    /// `Icon` uses `Symbol("name")`.
    Symbol(&'static str),
    /// Nothing: the component adds no text to the name of the control it sits in.
    None,
}

/// What the renderer needs to know about a component type beyond how to draw it, declared
/// when the type is registered ([`Catalog::register_with`]).
///
/// The defaults ([`ComponentTraits::new`]) suit most host components: a generic AccessKit
/// container node, named by its children's texts, widgets filling a stretched slot's
/// width, aligned in a Column like any other child.
///
/// ```
/// use egui::accesskit::Role;
/// use egui_a2ui::catalog::{ComponentTraits, NameSource};
///
/// // A badge: named by its `label` property inside a Button.
/// let badge = ComponentTraits::new().with_name_source(NameSource::Text("label"));
/// // A container that screen readers announce as a group.
/// let grid = ComponentTraits::new().with_role(Role::Group);
/// // A chart that takes a Column's whole width whatever the Column's `align`.
/// let chart = ComponentTraits::new().with_full_width(true);
/// assert_eq!(grid.role(), Some(Role::Group));
/// assert_eq!(badge.name_source(), NameSource::Text("label"));
/// assert!(chart.full_width() && chart.fills_width());
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ComponentTraits {
    role: Option<Role>,
    name_source: NameSource,
    fills_width: bool,
    full_width: bool,
    inset: bool,
}

impl Default for ComponentTraits {
    fn default() -> Self {
        Self::new()
    }
}

impl ComponentTraits {
    /// The default traits: no role of its own (a generic container node), named by its
    /// children, widgets fill a stretched slot's width, not full-width.
    pub const fn new() -> Self {
        Self {
            role: None,
            name_source: NameSource::Children,
            fills_width: true,
            full_width: false,
            inset: false,
        }
    }

    /// Give the component's own AccessKit node (the `Ui` it is drawn in) this role: `List`
    /// for a list, `Group` for a card or a media player. Without one it is a
    /// `GenericContainer`.
    pub const fn with_role(mut self, role: Role) -> Self {
        self.role = Some(role);
        self
    }

    /// Say where the component's accessible name comes from inside a control named by its
    /// content (see [`NameSource`]).
    pub const fn with_name_source(mut self, source: NameSource) -> Self {
        self.name_source = source;
        self
    }

    /// Whether its widgets fill the width of a slot that stretches it (through a justified
    /// egui layout, see [`Slot::fill_width`](crate::catalog::Slot::fill_width)). `true` by default; `false` for text, which a
    /// justified layout would justify word by word.
    pub const fn with_fills_width(mut self, fills: bool) -> Self {
        self.fills_width = fills;
        self
    }

    /// Whether it is a full-width block (CSS `width: 100%`, as the basic Column, List,
    /// TextField and ChoicePicker): in a Column it spans the width whatever the Column's
    /// `align`; in a Row its flex basis is the Row's whole length and it shares that with
    /// its siblings by shrinking. `false` by default.
    pub const fn with_full_width(mut self, full: bool) -> Self {
        self.full_width = full;
        self
    }

    /// Whether it is drawn inside the style's control margin
    /// ([`Style::checkbox_margin`](crate::render::Style::checkbox_margin), the web renderer's margin
    /// around check boxes and sliders). A container that honours it gives the child's slot
    /// that margin ([`Slot::margin`](crate::catalog::Slot::margin)), so the component draws
    /// without a `Ui` of its own for it; anywhere else the component applies it itself.
    /// `false` by default.
    pub const fn with_inset(mut self, inset: bool) -> Self {
        self.inset = inset;
        self
    }

    /// The AccessKit role of the component's node, if it has one of its own.
    pub const fn role(&self) -> Option<Role> {
        self.role
    }

    /// Where its accessible name comes from.
    pub const fn name_source(&self) -> NameSource {
        self.name_source
    }

    /// See [`Self::with_fills_width`].
    pub const fn fills_width(&self) -> bool {
        self.fills_width
    }

    /// See [`Self::with_full_width`].
    pub const fn full_width(&self) -> bool {
        self.full_width
    }

    /// See [`Self::with_inset`].
    pub const fn inset(&self) -> bool {
        self.inset
    }
}

/// The traits of a type without a registration (a missing or unknown component).
pub(crate) static DEFAULT_TRAITS: ComponentTraits = ComponentTraits::new();

/// A registered component type.
#[derive(Clone)]
struct Registered {
    renderer: Arc<dyn ComponentRenderer>,
    traits: ComponentTraits,
}

/// Component renderers and functions, plus the catalog ids they serve.
#[derive(Clone)]
pub struct Catalog {
    ids: Vec<(String, Versions)>,
    definitions: Vec<serde_json::Value>,
    /// Renderers by type name. Looked up for every node drawn: a fast hasher (the names
    /// are the host's, registered once).
    components: HashMap<String, Registered, foldhash::fast::RandomState>,
    functions: FunctionRegistry,
    /// Declared property schemas by component name (see [`Catalog::set_component_schema`]).
    schemas: HashMap<String, Arc<serde_json::Value>>,
    /// Instructions for the agent by catalog id.
    instructions: Vec<(String, String)>,
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
            components: HashMap::default(),
            functions: FunctionRegistry::empty(),
            schemas: HashMap::new(),
            instructions: Vec::new(),
        }
    }

    /// Serve another catalog id (a host's own catalog) with these renderers, for the
    /// protocol versions given: one [`Version`] or several (`[Version::V0_9,
    /// Version::V1_0]`). A surface of any of them may name the id; serving an id again adds
    /// versions to it.
    ///
    /// ```
    /// use egui_a2ui::{Catalog, Version};
    ///
    /// let catalog = Catalog::basic()
    ///     .with_catalog_id("https://example.com/game.json", [Version::V0_9, Version::V1_0]);
    /// let known = catalog.catalogs();
    /// let info = known.get("https://example.com/game.json").expect("served");
    /// assert!(info.serves(Version::V0_9) && info.serves(Version::V1_0));
    /// assert!(!info.serves(Version::V0_8));
    /// ```
    pub fn with_catalog_id(mut self, id: impl Into<String>, versions: impl Into<Versions>) -> Self {
        let id = id.into();
        let versions = versions.into();
        match self.ids.iter_mut().find(|(i, _)| *i == id) {
            Some((_, v)) => *v = v.union(versions),
            None => self.ids.push((id, versions)),
        }
        self
    }

    /// The protocol versions catalog id `id` is served for here (empty when it is not).
    pub fn catalog_versions(&self, id: &str) -> Versions {
        self.ids
            .iter()
            .filter(|(i, _)| i == id)
            .fold(Versions::empty(), |acc, (_, v)| acc.union(*v))
    }

    /// Serve a v1.0 catalog definition document (`catalog_definition.json` shape): its id
    /// and component names are accepted, and its `allowedParents` / `allowedChildren` are
    /// enforced while drawing (`UNALLOWED_PARENT` / `UNALLOWED_CHILD`). Components still
    /// need a renderer, registered with [`Self::register`].
    pub fn add_definition(
        &mut self,
        doc: serde_json::Value,
    ) -> Result<&mut Self, crate::error::A2uiError> {
        let mut probe = Catalogs::empty();
        let id = probe.register_definition(&doc)?;
        self.ids.push((id, Versions::from(Version::V1_0)));
        self.definitions.push(doc);
        Ok(self)
    }

    /// Register (or replace) the renderer of a component type. A new type gets the default
    /// [`ComponentTraits`]; a replaced one keeps the traits it had (a host restyling the
    /// basic `Text` keeps Text's traits). [`Self::register_with`] declares them.
    pub fn register(
        &mut self,
        name: impl Into<String>,
        renderer: impl ComponentRenderer + 'static,
    ) -> &mut Self {
        let name = name.into();
        let traits = self
            .components
            .get(&name)
            .map_or_else(ComponentTraits::new, |r| r.traits);
        self.register_with(name, traits, renderer)
    }

    /// Register (or replace) the renderer of a component type with its traits.
    ///
    /// ```
    /// use egui::accesskit::Role;
    /// use egui_a2ui::catalog::{Catalog, ComponentTraits, NameSource};
    /// use egui_a2ui::ComponentContext;
    ///
    /// fn badge(ui: &mut egui::Ui, cx: &mut ComponentContext<'_, '_>) -> egui::Response {
    ///     ui.label(format!("[{}]", cx.string("label")))
    /// }
    ///
    /// let mut catalog = Catalog::basic();
    /// catalog.register_with(
    ///     "Badge",
    ///     ComponentTraits::new().with_name_source(NameSource::Text("label")),
    ///     badge,
    /// );
    /// assert_eq!(
    ///     catalog.traits("Badge").map(|t| t.name_source()),
    ///     Some(NameSource::Text("label"))
    /// );
    /// assert_eq!(catalog.traits("List").and_then(|t| t.role()), Some(Role::List));
    /// ```
    pub fn register_with(
        &mut self,
        name: impl Into<String>,
        traits: ComponentTraits,
        renderer: impl ComponentRenderer + 'static,
    ) -> &mut Self {
        self.components.insert(
            name.into(),
            Registered {
                renderer: Arc::new(renderer),
                traits,
            },
        );
        self
    }

    /// Declare the property schema of a component type (JSON Schema, draft 2020-12): what
    /// [`Self::definition`] tells an agent (in a prompt, or in the capabilities'
    /// `inlineCatalogs`) about the component. Either the properties alone (`{"type":
    /// "object", "properties": {...}, "required": [...]}`, wrapped in the common component
    /// envelope for the definition) or a whole catalog entry (one that names itself with
    /// `properties.component`, kept as written). Refer to the protocol's common types as
    /// the published catalogs do (`{"$ref": "common_types.json#/$defs/DynamicString"}` for
    /// a string that may be bound to the data model, `.../ChildList` for children). The
    /// renderer is registered separately; declaring a schema first is fine.
    ///
    /// ```
    /// use egui_a2ui::{Catalog, Version};
    /// use serde_json::json;
    ///
    /// let mut catalog = Catalog::basic().with_catalog_id("https://example.com/game.json", Version::V1_0);
    /// catalog.register("Gauge", |ui: &mut egui::Ui, cx: &mut egui_a2ui::ComponentContext<'_, '_>| {
    ///     ui.label(cx.string("label"))
    /// });
    /// catalog.set_component_schema("Gauge", json!({
    ///     "type": "object",
    ///     "description": "A dial showing one value.",
    ///     "properties": {
    ///         "label": {"$ref": "common_types.json#/$defs/DynamicString"},
    ///         "value": {"$ref": "common_types.json#/$defs/DynamicNumber"}
    ///     },
    ///     "required": ["value"]
    /// }));
    /// let def = catalog.definition(Version::V1_0);
    /// assert_eq!(def["catalogId"], "https://example.com/game.json");
    /// let gauge = &def["components"]["Gauge"];
    /// assert_eq!(gauge["allOf"][1]["properties"]["component"]["const"], "Gauge");
    /// assert_eq!(gauge["allOf"][1]["required"], json!(["component", "value"]));
    /// ```
    pub fn set_component_schema(
        &mut self,
        name: impl Into<String>,
        schema: serde_json::Value,
    ) -> &mut Self {
        self.schemas.insert(name.into(), Arc::new(schema));
        self
    }

    /// Declare a component's property schema derived from a Rust type with `schemars`
    /// (feature `schemars`): the type's fields are the properties. Sub-schemas are
    /// inlined, so the entry stands alone in a catalog document. A plain `String` field
    /// is a literal string for the agent; a field an agent may bind to the data model
    /// needs a type whose schema is the common `DynamicString` (or a schema written with
    /// [`Self::set_component_schema`]).
    ///
    /// ```
    /// # #[cfg(feature = "schemars")] {
    /// use egui_a2ui::{Catalog, Version};
    ///
    /// /// A dial showing one value.
    /// #[derive(schemars::JsonSchema)]
    /// #[allow(dead_code)]
    /// struct Gauge {
    ///     /// What the dial measures.
    ///     label: Option<String>,
    ///     /// The value, 0 to 100.
    ///     value: f64,
    /// }
    ///
    /// let mut catalog = Catalog::basic().with_catalog_id("https://example.com/game.json", Version::V1_0);
    /// catalog.register("Gauge", |ui: &mut egui::Ui, cx: &mut egui_a2ui::ComponentContext<'_, '_>| {
    ///     ui.label(cx.string("label"))
    /// });
    /// catalog.set_component_schema_of::<Gauge>("Gauge");
    /// let def = catalog.definition(Version::V1_0);
    /// let own = &def["components"]["Gauge"]["allOf"][1];
    /// assert_eq!(own["properties"]["value"]["type"], "number");
    /// assert_eq!(own["required"], serde_json::json!(["component", "value"]));
    /// # }
    /// ```
    #[cfg(feature = "schemars")]
    pub fn set_component_schema_of<T: schemars::JsonSchema>(
        &mut self,
        name: impl Into<String>,
    ) -> &mut Self {
        let generator = schemars::generate::SchemaSettings::draft2020_12()
            .with(|s| s.inline_subschemas = true)
            .into_generator();
        let schema = generator.into_root_schema_for::<T>().to_value();
        self.set_component_schema(name, schema)
    }

    /// The property schema declared for a component type, if any (the basic components'
    /// published schemas are not declared here; [`Self::definition`] uses them).
    pub fn component_schema(&self, name: &str) -> Option<&serde_json::Value> {
        self.schemas.get(name).map(AsRef::as_ref)
    }

    /// Give the agent instructions for catalog id `id` (the definition's `instructions`:
    /// how to use the components well). Replaces earlier ones.
    pub fn set_catalog_instructions(
        &mut self,
        id: impl Into<String>,
        instructions: impl Into<String>,
    ) -> &mut Self {
        let id = id.into();
        self.instructions.retain(|(i, _)| *i != id);
        self.instructions.push((id, instructions.into()));
        self
    }

    /// The catalog id [`Self::definition`] describes: the last id served for `version`
    /// that is not a basic catalog, else the basic catalog of `version`.
    pub fn primary_catalog_id(&self, version: Version) -> String {
        let basic = crate::model::Catalogs::basic();
        self.ids
            .iter()
            .rev()
            .find(|(id, v)| {
                basic.get(id).is_none() && (v.contains(version) || v.contains(version.family()))
            })
            .map_or_else(
                || version.basic_catalog_id().to_owned(),
                |(id, _)| id.clone(),
            )
    }

    /// The catalog definition document (`catalog_definition.json` of A2UI v1.0; for
    /// [`Version::V0_9`] the same in the v0.9 catalog shape) of
    /// [`Self::primary_catalog_id`]: see [`Self::definition_of`].
    pub fn definition(&self, version: Version) -> serde_json::Value {
        let id = self.primary_catalog_id(version);
        self.definition_of(&id, version)
            .unwrap_or(serde_json::Value::Null)
    }

    /// The catalog definition document of catalog id `id` as served here, `None` when it
    /// is not: its components (a basic id: the basic components registered, a host's id:
    /// every component registered) with their schemas (the basic ones as published, a
    /// host's as declared with [`Self::set_component_schema`], or only the component
    /// envelope when none was declared), its functions (the published basic ones, a host's
    /// as a call with open `args`), the instructions given with
    /// [`Self::set_catalog_instructions`] (a basic id: the published ones), and
    /// `anyComponent` / `anyFunction`. A document added with [`Self::add_definition`] is
    /// returned as it was added.
    pub fn definition_of(&self, id: &str, version: Version) -> Option<serde_json::Value> {
        if let Some(doc) = self
            .definitions
            .iter()
            .find(|d| d.get("catalogId").and_then(serde_json::Value::as_str) == Some(id))
        {
            return Some(doc.clone());
        }
        let served = self.catalog_versions(id);
        if served.is_empty() {
            return None;
        }
        let is_basic = crate::model::Catalogs::basic().get(id).is_some();
        let published = crate::catalog_def::basic_definition(version);
        let published_names: Vec<&str> = published
            .get("components")
            .and_then(serde_json::Value::as_object)
            .map(|c| c.keys().map(String::as_str).collect())
            .unwrap_or_default();
        // Published order first, then the host's components by name.
        let mut names: Vec<&str> = published_names
            .iter()
            .copied()
            .filter(|n| self.components.contains_key(*n))
            .collect();
        if !is_basic {
            let mut own: Vec<&str> = self
                .components
                .keys()
                .map(String::as_str)
                .filter(|n| !published_names.contains(n))
                .collect();
            own.sort_unstable();
            names.extend(own);
        }
        let published_fns = published
            .get("functions")
            .and_then(serde_json::Value::as_object);
        let functions: Vec<&str> = self
            .functions
            .names()
            .into_iter()
            // System functions (`@index`) are the runtime's, never declared.
            .filter(|n| !n.starts_with('@'))
            .filter(|n| !is_basic || published_fns.is_some_and(|f| f.contains_key(*n)))
            .collect();
        let parts = crate::catalog_def::DefinitionParts {
            catalog_id: id,
            version: Some(version),
            components: names
                .iter()
                .map(|n| (*n, self.schemas.get(*n).map(AsRef::as_ref)))
                .collect(),
            functions,
            instructions: self
                .instructions
                .iter()
                .find(|(i, _)| i == id)
                .map(|(_, t)| t.as_str()),
            title: None,
        };
        Some(crate::catalog_def::build_definition(&parts))
    }

    /// The traits a component type was registered with.
    pub fn traits(&self, name: &str) -> Option<&ComponentTraits> {
        self.components.get(name).map(|r| &r.traits)
    }

    /// The traits of a component type, the defaults for a type not registered.
    pub(crate) fn traits_or_default(&self, name: &str) -> &ComponentTraits {
        self.traits(name).unwrap_or(&DEFAULT_TRAITS)
    }

    /// The renderer of a component type and the role of its node, in one lookup.
    pub(crate) fn entry(&self, name: &str) -> Option<(Arc<dyn ComponentRenderer>, Option<Role>)> {
        self.components
            .get(name)
            .map(|r| (Arc::clone(&r.renderer), r.traits.role))
    }

    /// Use these functions (all of them, replacing any registered before).
    pub fn with_functions(mut self, functions: FunctionRegistry) -> Self {
        self.functions = functions;
        self
    }

    /// Register (or replace) a function.
    pub fn register_function(&mut self, f: impl Function + 'static) -> &mut Self {
        self.functions.register(f);
        self
    }

    /// The renderer of a component type.
    pub fn renderer(&self, name: &str) -> Option<Arc<dyn ComponentRenderer>> {
        self.components.get(name).map(|r| Arc::clone(&r.renderer))
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

    /// The egui-free description of this catalog: every served id with the component names
    /// it can draw (minimal catalogs keep their five; v0.8 spells ChoicePicker
    /// `MultipleChoice`), the definitions' composition rules, and the functions. Build every
    /// store and MCP session that this catalog draws from it
    /// (`SurfaceStore::new(catalog.catalogs())`), so a host's own catalog id is accepted
    /// everywhere.
    pub fn catalogs(&self) -> Arc<Catalogs> {
        // The basic entries stay as the store has always known them (minimal with its
        // five components); the catalog's own ids and components are added to them.
        let mut k = Catalogs::basic();
        k.set_functions(self.functions.clone());
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
        Arc::new(k)
    }
}
