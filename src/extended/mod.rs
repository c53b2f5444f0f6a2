//! The `extended` catalog (feature `extended`): `Table`, `Chart`, `Rating`, `DateRange`,
//! `TimePicker`, `ColorPicker`, `Progress`, `Badge` and `Chip`, under a catalog id of this
//! project's own ([`CATALOG_ID`]), beside every basic component.
//!
//! A host opts in with one call:
//!
//! ```
//! let catalog = egui_a2ui::extended::catalog(); // the basic catalog plus the extended one
//! # let _ = catalog;
//! let mut mine = egui_a2ui::Catalog::basic();
//! egui_a2ui::extended::register(&mut mine); // or add it to a catalog of one's own
//! assert!(mine.catalog_ids().any(|id| id == egui_a2ui::extended::CATALOG_ID));
//! ```
//!
//! The agent is told about the components by the catalog definition
//! ([`DEFINITION`], the file `catalogs/extended/v1/catalog.json` in the repository), in the
//! official catalog format: give it to the agent in its prompt (or inline in the
//! capabilities where the agent accepts inline catalogs). A surface that uses them is
//! created with `"catalogId": CATALOG_ID`; the basic components stay available under it.
//! The catalog serves protocol v0.9 and v1.0 ([`VERSIONS`]): the definition is written in
//! the v1.0 catalog format, and a v0.9 agent spells its bindings the v0.9 way.
//! [`register`] declares each component's property schema from the definition, so
//! [`Catalog::definition`](crate::render::catalog::Catalog::definition) of a catalog with the extended
//! components (the document prompts and inline catalogs are made from) describes them, the
//! basic components written out in full.
//!
//! The module is written as a host's own catalog would be: it uses only the crate's public
//! component API ([`ComponentContext`](crate::render::ComponentContext),
//! [`Catalog::register_with`](crate::render::catalog::Catalog::register_with),
//! [`ComponentTraits`], [`Style`](crate::render::Style), the
//! formatting functions through [`EvalContext`](crate::eval::EvalContext)), so it doubles as
//! the worked example of one.
//!
//! # Bounds
//!
//! Every size an agent controls is capped, over the cap a typed `LIMIT_EXCEEDED` error
//! goes to the agent (once) and the component draws what fits:
//!
//! | what | cap |
//! |---|---|
//! | `Table` rows | [`Limits::max_template_instances`](crate::limits::Limits::max_template_instances) (only the rows in view are laid out) |
//! | `Table` columns | [`Limits::max_table_columns`](crate::limits::Limits::max_table_columns) |
//! | `Chart` series | [`Limits::max_chart_series`](crate::limits::Limits::max_chart_series) |
//! | `Chart` points of one series | [`Limits::max_chart_points`](crate::limits::Limits::max_chart_points) (drawn decimated to a few thousand) |
//! | `Rating` stars | [`Limits::max_rating_stars`](crate::limits::Limits::max_rating_stars) |
//!
//! Cell templates go through the tree walk's guards (cycle, depth, node budget): a template
//! that contains its own table is cut like any other cycle.

mod badge;
mod chart;
mod color_picker;
mod date_range;
mod progress;
mod rating;
mod table;
mod time_picker;
mod util;

use egui::accesskit::Role;

use crate::catalog::{Catalog, ComponentTraits, NameSource};
use crate::protocol::Version;

/// The id of the extended catalog (it serves the basic components too).
pub const CATALOG_ID: &str =
    "https://github.com/egui-a2ui/egui_a2ui/catalogs/extended/v1/catalog.json";

/// The catalog definition, in the official catalog format (`catalog_definition.json` of
/// A2UI v1.0): what an agent is given so that it knows the components and their properties.
pub const DEFINITION: &str = include_str!("../../catalogs/extended/v1/catalog.json");

/// The protocol versions the extended catalog serves: a surface created with v0.9 or
/// v1.0 messages may name [`CATALOG_ID`] (v1.0 spells bindings `{"@path": ...}` and calls
/// `{"@call": ...}`, v0.9 `{"path": ...}` and `{"call": ...}`; the components are the
/// same).
pub const VERSIONS: [Version; 2] = [Version::V0_9, Version::V1_0];

/// The component type names of the extended catalog.
pub const COMPONENTS: &[&str] = crate::model::EXTENDED_COMPONENTS;

/// The basic catalog with the extended components, serving [`CATALOG_ID`] too.
pub fn catalog() -> Catalog {
    let mut c = Catalog::basic();
    register(&mut c);
    c
}

/// Add the extended components to `catalog` and serve [`CATALOG_ID`] with it (every
/// component the catalog has, the basic ones included, is accepted under that id).
pub fn register(catalog: &mut Catalog) {
    let plain = ComponentTraits::new();
    catalog
        .register_with(
            "Table",
            plain.with_role(Role::Table).with_full_width(true),
            table::Table,
        )
        .register_with(
            "Chart",
            plain.with_role(Role::Figure).with_full_width(true),
            chart::Chart,
        )
        .register_with("Rating", plain, rating::Rating)
        .register_with("DateRange", plain, date_range::DateRange)
        .register_with("TimePicker", plain, time_picker::TimePicker)
        .register_with("ColorPicker", plain, color_picker::ColorPicker)
        .register_with("Progress", plain.with_full_width(true), progress::Progress)
        .register_with(
            "Badge",
            plain
                .with_fills_width(false)
                .with_name_source(NameSource::Text("label")),
            badge::Badge,
        )
        .register_with(
            "Chip",
            plain
                .with_fills_width(false)
                .with_name_source(NameSource::Text("label")),
            badge::Chip,
        );
    // The components' property schemas and the instructions, from the definition: what
    // `Catalog::definition` (prompts, inline catalogs) tells an agent.
    let def = definition();
    for name in COMPONENTS {
        if let Some(schema) = def.pointer(&format!("/components/{name}")) {
            catalog.set_component_schema(*name, schema.clone());
        }
    }
    if let Some(text) = def.get("instructions").and_then(serde_json::Value::as_str) {
        catalog.set_catalog_instructions(CATALOG_ID, text);
    }
    let taken = std::mem::replace(catalog, Catalog::empty());
    *catalog = taken.with_catalog_id(CATALOG_ID, VERSIONS);
}

/// The catalog definition parsed ([`DEFINITION`]).
pub fn definition() -> serde_json::Value {
    // The file is ours and checked by a test; a parse failure cannot happen.
    serde_json::from_str(DEFINITION).unwrap_or(serde_json::Value::Null)
}
