//! A host-registered container lays out its A2UI children through the public slot API
//! (`Incoming`, `Slot`, `Extent`, `plan_main`) the way the basic Row, Column and List do,
//! and the traits a component type declares at registration reach AccessKit.
//!
//! The container is a two-column `Grid`: cells of a row share its width by `weight`, rows
//! stack top to bottom. Everything is checked through egui_kittest / AccessKit: the
//! children are there with their names, where the grid put them; a bound child follows the
//! data model; a Button in a cell sends its action; the tree walk's guards still hold.

use crate::common;

use common::{actions, agent, harness_for};
use egui::accesskit::Role;
use egui::{Rect, Sense, Vec2, vec2};
use egui_a2ui::catalog::{ComponentTraits, Extent, Incoming, Justify, NameSource, Slot, plan_main};
use egui_a2ui::{Catalog, ComponentContext, Event, Renderer, Version};
use egui_kittest::kittest::{NodeT as _, Queryable};
use serde_json::{Value, json};

const HOST_CATALOG: &str = "https://example.com/catalogs/grid.json";

/// The grid's gap between cells and rows.
const GAP: f32 = 8.0;
/// Geometry tolerance (pixel rounding of slot rectangles).
const TOL: f32 = 1.5;

/// The host's container: two columns, cells sharing a row by `weight`.
fn grid(ui: &mut egui::Ui, cx: &mut ComponentContext<'_, '_>) -> egui::Response {
    let incoming = Incoming::of(ui, cx);
    let width = incoming
        .extent
        .width
        .unwrap_or_else(|| ui.available_width());
    let origin = ui.available_rect_before_wrap().min;
    let children = cx.children();
    let mut y = 0.0_f32;
    let mut natural = Vec2::ZERO;
    for (r, row) in children.chunks(2).enumerate() {
        let weights: Vec<f32> = row.iter().map(|c| cx.child_weight(&c.id)).collect();
        let plan = plan_main(
            Some(width),
            &vec![0.0; row.len()],
            &weights,
            Justify::Stretch,
            GAP,
        );
        let mut x = 0.0_f32;
        let mut height = 0.0_f32;
        for (i, child) in row.iter().enumerate() {
            x += plan.lead[i];
            let w = plan.grow[i].unwrap_or(0.0);
            let rect = Rect::from_min_size(origin + vec2(x, y), vec2(w, 10_000.0));
            let extent = Extent {
                width: Some(w),
                height: None,
            };
            let placed = Slot::new(cx.widget_id().with(("cell", r, i)), rect, extent)
                .fill_width(cx.child_traits(&child.id).fills_width())
                .show(ui, cx, |ui, cx| cx.child_ui(ui, child));
            height = height.max(placed.natural.y);
            x += w;
        }
        natural = vec2(natural.x.max(x), y + height);
        y += height + GAP;
    }
    let response = ui.allocate_rect(
        Rect::from_min_size(origin, vec2(width, natural.y)),
        Sense::hover(),
    );
    // The grid's own box, for the test to measure against.
    response.widget_info(|| egui::WidgetInfo::labeled(Role::Grid, true, "grid"));
    incoming.report(cx, natural);
    response
}

/// A host leaf that shows its label in brackets; its accessible name inside a Button is the
/// bare `label` (declared with `NameSource::Text`).
fn badge(ui: &mut egui::Ui, cx: &mut ComponentContext<'_, '_>) -> egui::Response {
    ui.label(format!("[{}]", cx.string("label")))
}

fn catalog() -> Catalog {
    let mut catalog = Catalog::basic().with_catalog_id(HOST_CATALOG, Version::V0_9);
    catalog
        .register_with("Grid", ComponentTraits::new().with_role(Role::Group), grid)
        .register_with(
            "Badge",
            ComponentTraits::new().with_name_source(NameSource::Text("label")),
            badge,
        );
    catalog
}

fn renderer(components: Value) -> Renderer {
    let mut r = Renderer::new(catalog());
    r.options_mut().show_surface_header = false;
    for m in [
        json!({"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": HOST_CATALOG}}),
        json!({"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": components}}),
        json!({"version": "v0.9", "updateDataModel": {"surfaceId": "s", "path": "/", "value": {"count": 3}}}),
    ] {
        r.apply(&m).into_result().expect("applies");
    }
    r
}

/// A grid of four cells: a 1:3 weighted first row, then a Button (named by its Badge) and
/// a Row spreading two bound texts across its cell.
fn grid_surface() -> Renderer {
    renderer(json!([
        {"id": "root", "component": "Column", "children": ["title", "grid"]},
        {"id": "title", "component": "Text", "text": "Inventory"},
        {"id": "grid", "component": "Grid", "children": ["a", "b", "buy", "row"]},
        {"id": "a", "component": "Text", "text": "Alpha", "weight": 1},
        {"id": "b", "component": "Text", "text": "Beta", "weight": 3},
        {"id": "buy", "component": "Button", "child": "badge",
         "action": {"event": {"name": "buy", "context": {"count": {"path": "/count"}}}}},
        {"id": "badge", "component": "Badge", "label": "Buy now"},
        {"id": "row", "component": "Row", "justify": "spaceBetween", "children": ["left", "count"]},
        {"id": "left", "component": "Text", "text": "Left"},
        {"id": "count", "component": "Text", "text": {"path": "/count"}}
    ]))
}

fn no_errors(h: &egui_kittest::Harness<'_, common::App>) {
    let errors: Vec<_> = h
        .state()
        .events
        .iter()
        .filter(|e| matches!(e, Event::Error(_)))
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
}

#[test]
fn grid_children_are_present_with_their_names_where_the_grid_put_them() {
    let h = harness_for(grid_surface());
    no_errors(&h);
    let grid = h.get_by_role(Role::Grid).rect();
    let alpha = h.get_by_label("Alpha").rect();
    let beta = h.get_by_label("Beta").rect();
    let button = h.get_by_role_and_label(Role::Button, "Buy now").rect();
    let left = h.get_by_label("Left").rect();
    let count = h.get_by_label("3").rect();

    // Below the title, at the grid's left edge.
    assert!(h.get_by_label("Inventory").rect().bottom() <= grid.top() + TOL);
    assert!(
        (alpha.left() - grid.left()).abs() <= TOL,
        "{alpha:?} in {grid:?}"
    );
    // Weights 1:3 share the row: Beta's cell starts a quarter of the way in, past the gap.
    let first_cell = (grid.width() - GAP) / 4.0;
    let expected = grid.left() + first_cell + GAP;
    assert!(
        (beta.left() - expected).abs() <= TOL,
        "Beta at {} expected {expected} (grid {grid:?})",
        beta.left()
    );
    assert!((alpha.top() - beta.top()).abs() <= TOL, "one row");
    // The second row is below the first, its cells equal halves.
    assert!(button.top() >= alpha.bottom().max(beta.bottom()) - TOL);
    assert!(
        (button.left() - grid.left()).abs() <= TOL + 8.0,
        "{button:?}"
    );
    let second_cell = grid.left() + (grid.width() - GAP) / 2.0 + GAP;
    assert!(
        (left.left() - second_cell).abs() <= TOL,
        "Left at {} expected {second_cell}",
        left.left()
    );
    // The basic Row inside a cell got the cell's width as its extent: `spaceBetween`
    // puts the count at the cell's (the grid's) right edge.
    assert!(
        (count.right() - grid.right()).abs() <= TOL,
        "count {count:?} grid {grid:?}"
    );
    assert!(grid.bottom() >= button.bottom() - TOL && grid.bottom() >= count.bottom() - TOL);
}

#[test]
fn a_bound_child_of_the_grid_follows_the_data_model() {
    let mut h = harness_for(grid_surface());
    assert!(h.query_by_label("3").is_some());
    agent(
        &mut h,
        json!({"version": "v0.9", "updateDataModel": {"surfaceId": "s", "path": "/count", "value": 7}}),
    );
    h.run();
    assert!(h.query_by_label("3").is_none());
    let grid = h.get_by_role(Role::Grid).rect();
    let count = h.get_by_label("7").rect();
    assert!((count.right() - grid.right()).abs() <= TOL);
}

#[test]
fn a_button_in_the_grid_sends_its_action() {
    let mut h = harness_for(grid_surface());
    h.get_by_role_and_label(Role::Button, "Buy now").click();
    h.run();
    let actions = actions(&h);
    assert_eq!(actions.len(), 1, "{actions:?}");
    assert_eq!(actions[0].name, "buy");
    assert_eq!(actions[0].context.get("count"), Some(&json!(3)));
}

#[test]
fn traits_given_at_registration_reach_accesskit() {
    let h = harness_for(grid_surface());
    // The Grid's node has the role it was registered with.
    assert_eq!(h.query_all_by_role(Role::Group).count(), 1);
    // The Badge names its Button by its bare label, not by its visible "[Buy now]".
    let button = h.get_by_role(Role::Button);
    assert_eq!(button.accesskit_node().label().as_deref(), Some("Buy now"));
    // Registered without traits, the same Grid is a generic container.
    let mut plain = catalog();
    plain.register_with("Grid", ComponentTraits::new(), grid);
    let mut r = Renderer::new(plain);
    r.options_mut().show_surface_header = false;
    for m in [
        json!({"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": HOST_CATALOG}}),
        json!({"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": [
            {"id": "root", "component": "Grid", "children": ["a"]},
            {"id": "a", "component": "Text", "text": "Alpha"}
        ]}}),
    ] {
        r.apply(&m).into_result().expect("applies");
    }
    let h = harness_for(r);
    assert!(h.query_by_label("Alpha").is_some());
    assert_eq!(h.query_all_by_role(Role::Group).count(), 0);
}

#[test]
fn register_keeps_the_traits_of_a_replaced_type_and_defaults_a_new_one() {
    let mut c = catalog();
    let text = c.traits("Text").copied().expect("Text is registered");
    assert!(!text.fills_width());
    assert_eq!(text.name_source(), NameSource::Text("text"));
    c.register("Text", badge);
    assert_eq!(
        c.traits("Text"),
        Some(&text),
        "a restyled Text keeps its traits"
    );
    c.register("Chart", badge);
    assert_eq!(c.traits("Chart"), Some(&ComponentTraits::default()));
    assert_eq!(c.traits("Nope"), None);
    // The basic catalog declares every one of its 18 types.
    let basic = Catalog::basic();
    assert_eq!(basic.component_names().len(), 18);
    assert!(
        basic
            .component_names()
            .iter()
            .all(|n| basic.traits(n).is_some())
    );
    assert_eq!(
        basic
            .traits("List")
            .and_then(egui_a2ui::catalog::ComponentTraits::role),
        Some(Role::List)
    );
    assert!(
        basic
            .traits("TextField")
            .is_some_and(egui_a2ui::catalog::ComponentTraits::full_width)
    );
    assert!(basic.traits("Row").is_some_and(|t| !t.full_width()));
}

#[test]
fn a_grid_child_goes_through_the_walks_guards() {
    // The grid lists itself as a child: the walk refuses the cycle with an error event
    // and a placeholder instead of recursing.
    let r = renderer(json!([
        {"id": "root", "component": "Grid", "children": ["a", "root"]},
        {"id": "a", "component": "Text", "text": "Alpha"}
    ]));
    let h = harness_for(r);
    assert!(h.query_by_label("Alpha").is_some());
    assert!(h.query_by_label("cycle at root").is_some());
    assert!(
        h.state().events.iter().any(|e| matches!(
            e,
            Event::Error(c) if matches!(c.error, egui_a2ui::A2uiError::Cycle(_))
        )),
        "{:?}",
        h.state().events
    );
}
