//! Catalogs and the component-author API: everything a host needs to draw components of its
//! own, the same pieces the basic catalog is built from (the basic components import their
//! helpers from here, so nothing they draw with is out of a host's reach).
//!
//! A [`Catalog`] maps component type names to [`ComponentRenderer`]s and carries the
//! functions; [`Catalog::basic`] has the 18 basic components and every basic function, and
//! a host adds its own with [`Catalog::register_with`] (declaring its [`ComponentTraits`]).
//! [`Catalog::catalogs`] is the egui-free description every store and MCP session is built
//! from.
//!
//! A component draws with its [`ComponentContext`]: bound values, two-way writes, children,
//! checks, actions, widget state, a per-revision [`memo`](ComponentContext::memo) and a
//! per-frame [`shared_style`](ComponentContext::shared_style). A container places children
//! with the slot protocol ([`Incoming`], [`Slot`], [`Extent`], [`Placed`]) and lays a line
//! out with the flex engine ([`plan_main`], [`shrink_row`], [`Settling`]), as the basic
//! Row, Column, List, Card, Tabs and Modal do.
//!
//! The drawing helpers the basic components use:
//!
//! - Accessible names: [`set_accessible_name`], [`name_control`], [`humanize`],
//!   [`name_date_picker`] (egui_extras' date picker popup).
//! - Images: [`image_ui`] with an [`ImageSpec`] ([`BoxSize`], [`Fit`]) through the URL
//!   policy, its [`ImageState`], [`describe_image`] and [`load_error`].
//! - Icons: the bundled Material Icons font ([`icon_glyph`], [`icon_family`],
//!   [`icon_font_ready`], [`FALLBACK_GLYPH`]) and an icon's [`spoken_name`].
//! - Colours: [`oklab_mix`] (the reference stylesheet's `color-mix(in oklab, …)`),
//!   [`readable_accent`], [`contrast_text_color`]; a surface's colours come from
//!   [`ComponentContext::palette`] and [`ComponentContext::accent_color`].
//! - Text: [`text_family`] (the bundled bold family when installed), [`markdown_ui`].
//! - Values: [`coerce`] (the spec's type coercion of resolved values) and [`number_value`]
//!   (what a user-entered number is written back as).
//! - Who the surface comes from: [`modal_attribution`], [`obscured_destination`].
//!
//! # A host component, end to end
//!
//! A list of map pins, each a row with a pin icon, a name and its coordinates, the whole
//! list clickable when the component has an `action`. It is written with nothing the basic
//! catalog keeps to itself:
//!
//! ```
//! use egui_a2ui::catalog::{
//!     Catalog, ComponentContext, ComponentTraits, Incoming, NameSource, coerce, icon_family,
//!     icon_font_ready, icon_glyph, oklab_mix, set_accessible_name,
//! };
//! use egui_a2ui::{Event, Renderer};
//! use serde_json::Value;
//!
//! /// `PinList`: `pins` (a list of `{name, lat, lon}`, usually bound to the data model),
//! /// drawn as rows; the whole list fires the component's `action` when clicked.
//! fn pin_list(ui: &mut egui::Ui, cx: &mut ComponentContext<'_, '_>) -> egui::Response {
//!     let incoming = Incoming::of(ui, cx);
//!     let pins = match cx.value("pins") {
//!         Value::Array(items) => items,
//!         _ => Vec::new(),
//!     };
//!     let accent = cx.accent_color(ui);
//!     // A quiet row background: the accent mixed into the panel colour, as the reference
//!     // stylesheet mixes its tints.
//!     let row_fill = oklab_mix(accent, ui.visuals().panel_fill, 0.9);
//!     let inner = ui.vertical(|ui| {
//!         for pin in &pins {
//!             let name = coerce::to_display_string(pin.get("name").unwrap_or(&Value::Null));
//!             let lat = coerce::to_number(pin.get("lat").unwrap_or(&Value::Null));
//!             let lon = coerce::to_number(pin.get("lon").unwrap_or(&Value::Null));
//!             egui::Frame::new().fill(row_fill).show(ui, |ui| {
//!                 ui.horizontal(|ui| {
//!                     if icon_font_ready(ui.ctx())
//!                         && let Some(glyph) = icon_glyph("location_on")
//!                     {
//!                         let icon = egui::RichText::new(glyph.to_string())
//!                             .family(icon_family())
//!                             .color(accent);
//!                         ui.label(icon);
//!                     }
//!                     ui.label(name);
//!                     ui.weak(format!("{lat:.3}, {lon:.3}"));
//!                 });
//!             });
//!         }
//!     });
//!     let response = inner.response.interact(egui::Sense::click());
//!     set_accessible_name(ui, response.id, &format!("{} map pins", pins.len()));
//!     if response.clicked() {
//!         cx.fire_action();
//!     }
//!     incoming.report(cx, response.rect.size());
//!     response
//! }
//!
//! let mut catalog = Catalog::basic();
//! catalog.register_with("PinList", ComponentTraits::new().with_name_source(NameSource::None), pin_list);
//! let mut renderer = Renderer::new(catalog);
//! // One document: JSONL, or (as here) a JSON array of messages.
//! renderer.feed_document(br#"[
//!   {"version": "v0.9", "createSurface": {"surfaceId": "map",
//!     "catalogId": "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json"}},
//!   {"version": "v0.9", "updateComponents": {"surfaceId": "map", "components": [
//!     {"id": "root", "component": "PinList", "pins": {"path": "/pins"},
//!      "action": {"event": {"name": "showMap", "context": {"count": {"path": "/count"}}}}}]}},
//!   {"version": "v0.9", "updateDataModel": {"surfaceId": "map", "value": {"count": 2, "pins": [
//!     {"name": "Harbour", "lat": 59.91, "lon": 10.73},
//!     {"name": "Fortress", "lat": 59.907, "lon": 10.736}]}}}
//! ]"#);
//! assert!(renderer.store().errors().is_empty(), "{:?}", renderer.store().errors());
//! # use egui_kittest::kittest::Queryable;
//! // Drawn (a host runs `renderer.ui(ui)` every frame; a test harness stands in here),
//! // then clicked: the action goes out with its context resolved.
//! let mut harness = egui_kittest::Harness::new_ui_state(
//!     |ui, (renderer, events): &mut (Renderer, Vec<Event>)| events.extend(renderer.ui(ui)),
//!     (renderer, Vec::new()),
//! );
//! harness.run();
//! harness.get_by_label("2 map pins").click();
//! harness.run();
//! let (renderer, events) = harness.state();
//! assert!(renderer.store().errors().is_empty(), "{:?}", renderer.store().errors());
//! let fired: Vec<_> = events
//!     .iter()
//!     .filter_map(|e| match e {
//!         Event::Action(a) => Some((a.name.as_str(), a.context["count"].clone())),
//!         _ => None,
//!     })
//!     .collect();
//! assert_eq!(fired, [("showMap", serde_json::json!(2))]);
//! ```

pub use crate::action::ComponentAction;
pub use crate::catalog_def::{
    CATALOG_DEFINITION_SCHEMA_V1_0, CatalogDocument, JSON_SCHEMA_DIALECT, basic_definition,
    common_types, component_entry, function_entry, unresolved_ref, validation_schema,
};
pub use crate::eval::coerce;
pub use crate::eval::coerce::number_value;
pub use crate::render::a11y::{humanize, name_control, name_date_picker, set_accessible_name};
pub use crate::render::catalog::{Catalog, ComponentRenderer, ComponentTraits, NameSource};
pub use crate::render::flex::{
    Axis, CrossAlign, EPSILON, Justify, MainPlan, Settling, UNBOUNDED, bounded, differs, finite,
    plan_main, sanitize_rect, sanitize_size, settle, shrink_row, weight_of,
};
pub use crate::render::header::{modal_attribution, obscured_destination};
pub use crate::render::icons::{
    FALLBACK_GLYPH, icon_family, icon_font_ready, icon_glyph, spoken_name,
};
pub use crate::render::images::{
    BoxSize, Fit, ImageSpec, ImageState, describe_image, image_ui, load_error,
};
pub use crate::render::markdown_ui;
pub use crate::render::slot::{Extent, Incoming, Placed, Slot};
pub use crate::render::text_family;
pub use crate::render::theme::{contrast_text_color, oklab_mix, readable_accent};
pub use crate::render::{ChildTemplate, ComponentContext};
pub use crate::url_policy::scheme_of;
