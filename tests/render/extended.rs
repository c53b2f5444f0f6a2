//! The extended catalog (feature `extended`) in a kittest harness: sorting, selecting and
//! acting on table rows, editing a rating, picking a date range, the other inputs, their
//! AccessKit nodes, and hostile payloads bounded by typed errors.

#![cfg(feature = "extended")]

use crate::common;

use common::{actions, agent, data, harness_for};
use egui::accesskit::{Role, SortDirection, Toggled};
use egui_a2ui::extended::CATALOG_ID;
use egui_a2ui::{A2uiError, Event, Limits, Renderer};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable};
use serde_json::{Value, json};

/// A v0.9 document on the extended catalog for surface `s`.
fn doc(components: Value, model: Value) -> String {
    let create =
        json!({"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": CATALOG_ID}});
    let update = json!({"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": components}});
    let model = json!({"version": "v0.9", "updateDataModel": {"surfaceId": "s", "path": "/", "value": model}});
    format!("{create}\n{update}\n{model}\n")
}

fn renderer_with_limits(document: &str, limits: Limits) -> Renderer {
    let mut r = Renderer::with_limits(egui_a2ui::extended::catalog(), limits);
    r.options_mut().show_surface_header = false;
    r.feed_document(document.as_bytes());
    r
}

fn harness(document: &str) -> Harness<'static, common::App> {
    harness_for(renderer_with_limits(document, Limits::default()))
}

/// A harness for a surface that animates (an indeterminate Progress): a few frames, not
/// "until it settles".
fn animated_harness(document: &str) -> Harness<'static, common::App> {
    let renderer = renderer_with_limits(document, Limits::default());
    assert!(renderer.store().errors().is_empty());
    let mut h = common::build(
        Harness::builder().with_size(egui::vec2(800.0, 700.0)),
        renderer,
        None,
    );
    h.run_steps(4);
    h
}

/// Every error event so far.
fn errors(h: &Harness<'_, common::App>) -> Vec<A2uiError> {
    h.state()
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Error(c) => Some(c.error.clone()),
            _ => None,
        })
        .collect()
}

fn orders() -> Value {
    json!([
        {"id": "A-1", "customer": "Ada", "total": 250.5, "placed": "2026-03-04"},
        {"id": "A-2", "customer": "Grace", "total": 19.99, "placed": "2026-01-15"},
        {"id": "A-3", "customer": "Alan", "total": 1200, "placed": "2026-02-01"},
    ])
}

fn table_doc(extra: Value) -> String {
    let mut table = json!({
        "id": "root", "component": "Table", "label": "Orders", "rows": {"path": "/orders"},
        "rowKey": "id", "selection": {"path": "/selected"}, "sort": {"path": "/sort"},
        "action": {"event": {"name": "openOrder", "context": {"id": {"path": "id"}, "who": {"path": "customer"}}}},
        "columns": [
            {"key": "id", "label": "Order"},
            {"key": "customer", "label": "Customer"},
            {"key": "total", "label": "Total", "format": "currency", "currency": "USD"},
            {"key": "placed", "label": "Placed", "format": "date", "dateFormat": "yyyy/MM/dd"}
        ]
    });
    if let (Some(t), Value::Object(e)) = (table.as_object_mut(), extra) {
        t.extend(e);
    }
    doc(json!([table]), json!({"orders": orders()}))
}

/// The row (on screen, from the top) of the body cell named `label`.
fn cell_row(h: &Harness<'_, common::App>, label: &str) -> usize {
    h.get_by_role_and_label(Role::Cell, label)
        .accesskit_node()
        .data()
        .row_index()
        .unwrap_or(usize::MAX)
}

/// The order ids from top to bottom.
fn shown_order(h: &Harness<'_, common::App>) -> Vec<String> {
    let mut ids: Vec<(usize, String)> = ["A-1", "A-2", "A-3"]
        .iter()
        .map(|id| (cell_row(h, id), (*id).to_owned()))
        .collect();
    ids.sort();
    ids.into_iter().map(|(_, id)| id).collect()
}

#[test]
fn clicking_a_header_sorts_the_rows_and_writes_the_bound_sort() {
    let mut h = harness(&table_doc(json!({})));
    assert_eq!(
        shown_order(&h),
        ["A-1", "A-2", "A-3"],
        "the data model's order"
    );
    h.get_by_role_and_label(Role::ColumnHeader, "Total").click();
    h.run();
    assert_eq!(
        data(&h, "/sort"),
        Some(json!({"key": "total", "direction": "ascending"}))
    );
    assert_eq!(
        shown_order(&h),
        ["A-2", "A-1", "A-3"],
        "by total, numerically"
    );
    let header = h.get_by_role_and_label(Role::ColumnHeader, "Total");
    assert_eq!(
        header.accesskit_node().sort_direction(),
        Some(SortDirection::Ascending)
    );
    h.get_by_role_and_label(Role::ColumnHeader, "Total").click();
    h.run();
    assert_eq!(shown_order(&h), ["A-3", "A-1", "A-2"], "again: descending");
    assert_eq!(
        data(&h, "/sort"),
        Some(json!({"key": "total", "direction": "descending"}))
    );
    h.get_by_role_and_label(Role::ColumnHeader, "Total").click();
    h.run();
    assert_eq!(
        data(&h, "/sort"),
        Some(Value::Null),
        "a third time: unsorted"
    );
    assert_eq!(shown_order(&h), ["A-1", "A-2", "A-3"]);
    // The agent sets the sort: the table follows.
    agent(
        &mut h,
        json!({"version": "v0.9", "updateDataModel": {"surfaceId": "s", "path": "/sort", "value": {"key": "customer", "direction": "ascending"}}}),
    );
    h.run();
    assert_eq!(shown_order(&h), ["A-1", "A-3", "A-2"], "Ada, Alan, Grace");
}

#[test]
fn cells_are_formatted_through_the_catalog_functions() {
    let h = harness(&table_doc(json!({})));
    assert!(h.query_by_role_and_label(Role::Cell, "$1,200.00").is_some());
    assert!(h.query_by_role_and_label(Role::Cell, "$19.99").is_some());
    assert!(
        h.query_by_role_and_label(Role::Cell, "2026/03/04")
            .is_some()
    );
}

#[test]
fn clicking_a_row_selects_it_and_fires_the_row_action_in_its_scope() {
    let mut h = harness(&table_doc(json!({})));
    h.get_by_role_and_label(Role::Cell, "Grace").click();
    h.run();
    assert_eq!(
        data(&h, "/selected"),
        Some(json!("A-2")),
        "the rowKey value"
    );
    let acts = actions(&h);
    assert_eq!(acts.len(), 1, "{acts:?}");
    assert_eq!(acts[0].name, "openOrder");
    assert_eq!(acts[0].context.get("id"), Some(&json!("A-2")));
    assert_eq!(acts[0].context.get("who"), Some(&json!("Grace")));
    assert_eq!(acts[0].scope, "/orders/1");
    // Every cell of the selected row says so; the others do not.
    for (label, selected) in [("A-2", true), ("$19.99", true), ("A-1", false)] {
        assert_eq!(
            h.get_by_role_and_label(Role::Cell, label)
                .accesskit_node()
                .is_selected(),
            Some(selected),
            "{label}"
        );
    }
}

#[test]
fn without_a_row_key_the_selection_is_the_row_index_in_the_data() {
    let mut h = harness(&table_doc(
        json!({"rowKey": null, "sort": {"path": "/sort"}}),
    ));
    // Sort first, so the clicked row's place on screen differs from its index.
    h.get_by_role_and_label(Role::ColumnHeader, "Total").click();
    h.run();
    h.get_by_role_and_label(Role::Cell, "Alan").click();
    h.run();
    assert_eq!(data(&h, "/selected"), Some(json!(2)));
}

#[test]
fn the_table_node_has_its_name_and_size() {
    let h = harness(&table_doc(json!({})));
    let table = h.get_by_role_and_label(Role::Table, "Orders");
    assert_eq!(table.accesskit_node().data().row_count(), Some(3));
    assert_eq!(table.accesskit_node().data().column_count(), Some(4));
    let cell = h.get_by_role_and_label(Role::Cell, "Grace");
    assert_eq!(cell.accesskit_node().data().row_index(), Some(1));
    assert_eq!(cell.accesskit_node().data().column_index(), Some(1));
}

#[test]
fn cells_may_hold_a_component_template_bound_to_the_row() {
    let document = doc(
        json!([
            {"id": "root", "component": "Table", "rows": {"path": "/orders"},
             "columns": [{"key": "id", "label": "Order"}, {"key": "customer", "label": "Who", "component": "chip"}]},
            {"id": "chip", "component": "Badge", "label": {"path": "customer"}, "variant": "info"}
        ]),
        json!({"orders": orders()}),
    );
    let h = harness(&document);
    for who in ["Ada", "Grace", "Alan"] {
        assert!(
            h.query_by_role_and_label(Role::Status, who).is_some(),
            "a Badge for {who}"
        );
    }
    assert!(errors(&h).is_empty(), "{:?}", errors(&h));
}

fn rating_doc(extra: Value) -> String {
    let mut rating = json!({"id": "root", "component": "Rating", "label": "Your rating", "value": {"path": "/rating"}});
    if let (Some(t), Value::Object(e)) = (rating.as_object_mut(), extra) {
        t.extend(e);
    }
    doc(json!([rating]), json!({"rating": 2}))
}

#[test]
fn a_rating_is_edited_by_click_and_by_assistive_technology() {
    let mut h = harness(&rating_doc(json!({})));
    let node = h.get_by_role_and_label(Role::Slider, "Your rating");
    assert_eq!(node.accesskit_node().numeric_value(), Some(2.0));
    assert_eq!(node.accesskit_node().max_numeric_value(), Some(5.0));
    // A click at the centre of five stars is the third star.
    h.get_by_role_and_label(Role::Slider, "Your rating").click();
    h.run();
    assert_eq!(data(&h, "/rating"), Some(json!(3)));
    h.get_by_role_and_label(Role::Slider, "Your rating")
        .set_value_accesskit(5.0);
    h.run();
    assert_eq!(data(&h, "/rating"), Some(json!(5)));
    h.get_by_role_and_label(Role::Slider, "Your rating")
        .decrement_accesskit();
    h.run();
    assert_eq!(data(&h, "/rating"), Some(json!(4)));
    assert_eq!(
        h.get_by_role_and_label(Role::Slider, "Your rating")
            .accesskit_node()
            .numeric_value(),
        Some(4.0)
    );
}

#[test]
fn a_read_only_rating_ignores_input() {
    let mut h = harness(&rating_doc(json!({"readOnly": true})));
    h.get_by_role_and_label(Role::Slider, "Your rating").click();
    h.run();
    h.get_by_role_and_label(Role::Slider, "Your rating")
        .set_value_accesskit(5.0);
    h.run();
    assert_eq!(data(&h, "/rating"), Some(json!(2)));
}

#[test]
fn a_failing_check_shows_under_the_rating() {
    let document = doc(
        json!([{"id": "root", "component": "Rating", "label": "Stay", "value": {"path": "/r"},
                "checks": [{"condition": {"call": "required", "args": {"value": {"path": "/r"}}}, "message": "Please rate"}]}]),
        json!({"r": null}),
    );
    let mut h = harness(&document);
    assert!(h.query_by_label("Please rate").is_some());
    h.get_by_role_and_label(Role::Slider, "Stay")
        .set_value_accesskit(1.0);
    h.run();
    assert_eq!(data(&h, "/r"), Some(json!(1)));
    assert!(h.query_by_label("Please rate").is_none());
}

fn range_doc(from: &str, to: &str) -> String {
    doc(
        json!([{"id": "root", "component": "DateRange", "label": "Stay",
                "start": {"path": "/from"}, "end": {"path": "/to"}, "max": "2026-12-31"}]),
        json!({"from": from, "to": to}),
    )
}

/// Open the date picker showing `date` (the first one, when both show it), press
/// `buttons` in it, then Save.
fn pick(h: &mut Harness<'static, common::App>, date: &str, buttons: &[&str]) {
    h.query_all_by_label(date)
        .next()
        .expect("a date button")
        .click();
    h.run();
    for b in buttons {
        h.get_by_label(b).click();
        h.run();
    }
    h.get_by_label("Save").click();
    h.run();
}

#[test]
fn picking_a_range_writes_both_ends_in_order() {
    let mut h = harness(&range_doc("2026-07-10", "2026-07-12"));
    pick(&mut h, "2026-07-10", &[">"]);
    assert_eq!(data(&h, "/from"), Some(json!("2026-07-11")));
    assert_eq!(data(&h, "/to"), Some(json!("2026-07-12")));
    pick(&mut h, "2026-07-12", &[">"]);
    assert_eq!(data(&h, "/to"), Some(json!("2026-07-13")));
    // A start past the end moves the end along.
    let mut h = harness(&range_doc("2026-07-12", "2026-07-12"));
    pick(&mut h, "2026-07-12", &[">"]);
    assert_eq!(data(&h, "/from"), Some(json!("2026-07-13")));
    assert_eq!(data(&h, "/to"), Some(json!("2026-07-13")));
}

#[test]
fn a_range_sent_out_of_order_says_so_and_max_clamps() {
    let mut h = harness(&range_doc("2026-12-31", "2026-01-01"));
    assert!(
        h.query_by_label("The end date is before the start date")
            .is_some()
    );
    pick(&mut h, "2026-12-31", &[">"]);
    assert_eq!(data(&h, "/from"), Some(json!("2026-12-31")), "max holds");
}

#[test]
fn a_time_picker_writes_hh_mm_snapped_and_clamped() {
    let document = doc(
        json!([{"id": "root", "component": "TimePicker", "label": "Check-in", "value": {"path": "/t"},
                "minuteStep": 15, "min": "12:00", "max": "22:00"}]),
        json!({"t": "15:00"}),
    );
    let mut h = harness(&document);
    h.get_by_label("Check-in minute").set_value_accesskit(40.0);
    h.run();
    assert_eq!(
        data(&h, "/t"),
        Some(json!("15:30")),
        "snapped to 15 minutes"
    );
    h.get_by_label("Check-in hour").set_value_accesskit(9.0);
    h.run();
    assert_eq!(data(&h, "/t"), Some(json!("12:00")), "clamped to min");
}

#[test]
fn a_chip_toggles_its_binding_and_fires_its_action() {
    let document = doc(
        json!([{"id": "root", "component": "Chip", "label": "Parking", "selected": {"path": "/p"},
                "action": {"event": {"name": "toggled", "context": {"on": {"path": "/p"}}}}}]),
        json!({"p": false}),
    );
    let mut h = harness(&document);
    assert_eq!(
        h.get_by_label("Parking").accesskit_node().toggled(),
        Some(Toggled::False)
    );
    h.get_by_label("Parking").click();
    h.run();
    assert_eq!(data(&h, "/p"), Some(json!(true)));
    let acts = actions(&h);
    assert_eq!(acts.len(), 1);
    assert_eq!(
        acts[0].context.get("on"),
        Some(&json!(true)),
        "written before the action"
    );
    assert_eq!(
        h.get_by_label("Parking").accesskit_node().toggled(),
        Some(Toggled::True)
    );
}

#[test]
fn progress_badge_colour_and_chart_nodes_carry_their_state() {
    let document = doc(
        json!([
            {"id": "root", "component": "Column", "children": ["p", "q", "b", "c", "chart"]},
            {"id": "p", "component": "Progress", "label": "Upload", "value": {"path": "/done"}},
            {"id": "q", "component": "Progress", "label": "Waiting"},
            {"id": "b", "component": "Badge", "label": "Paid", "variant": "success"},
            {"id": "c", "component": "ColorPicker", "label": "Accent", "value": {"path": "/color"}},
            {"id": "chart", "component": "Chart", "title": "Sales", "labels": ["Q1", "Q2", "Q3"],
             "series": [{"label": "Revenue", "values": {"path": "/rev"}}]}
        ]),
        json!({"done": 25, "color": "#1A2B3C", "rev": [10, 30, 20]}),
    );
    let mut h = animated_harness(&document);
    let p = h.get_by_role_and_label(Role::ProgressIndicator, "Upload");
    assert_eq!(p.accesskit_node().numeric_value(), Some(25.0));
    let q = h.get_by_role_and_label(Role::ProgressIndicator, "Waiting");
    assert_eq!(q.accesskit_node().numeric_value(), None, "indeterminate");
    assert!(h.query_by_role_and_label(Role::Status, "Paid").is_some());
    let swatch = h
        .query_all_by_label("Accent")
        .find(|n| n.accesskit_node().role() != Role::Label)
        .expect("the colour button");
    assert_eq!(swatch.accesskit_node().value().as_deref(), Some("#1a2b3c"));
    let chart = h.get_by_role_and_label(Role::Figure, "Sales");
    assert_eq!(
        chart.accesskit_node().description().as_deref(),
        Some("Line chart: Sales. 1 series. Revenue: 3 points, from 10 to 30, last 20.")
    );
    // The summary follows the data.
    agent(
        &mut h,
        json!({"version": "v0.9", "updateDataModel": {"surfaceId": "s", "path": "/rev/2", "value": 45}}),
    );
    h.run_steps(2);
    let chart = h.get_by_role_and_label(Role::Figure, "Sales");
    assert!(
        chart
            .accesskit_node()
            .description()
            .is_some_and(|d| d.contains("from 10 to 45, last 45")),
        "{:?}",
        chart.accesskit_node().description()
    );
}

#[test]
fn every_chart_kind_draws_and_a_pie_summarises_its_shares() {
    for kind in ["line", "bar", "area", "scatter", "pie"] {
        let document = doc(
            json!([{"id": "root", "component": "Chart", "kind": kind, "title": "Mix", "labels": ["A", "B"],
                    "xAxisTitle": "x", "yAxisTitle": "y",
                    "series": [{"label": "S", "values": [1, 3]}, {"label": "T", "values": [[0, 2], {"x": 1, "y": 5}]}]}]),
            json!({}),
        );
        let h = harness(&document);
        let d = h
            .get_by_role_and_label(Role::Figure, "Mix")
            .accesskit_node()
            .description()
            .unwrap_or_default();
        if kind == "pie" {
            assert_eq!(d, "Pie chart: Mix. A: 1 (25%). B: 3 (75%).");
        } else {
            assert!(d.contains("2 series. S: 2 points"), "{kind}: {d}");
        }
        assert!(errors(&h).is_empty(), "{kind}: {:?}", errors(&h));
    }
}

#[test]
fn non_numeric_nan_and_infinite_series_values_are_skipped_with_a_typed_error() {
    let document = doc(
        json!([{"id": "root", "component": "Chart", "title": "Noisy",
                "series": [{"label": "S", "values": {"path": "/v"}}]}]),
        json!({"v": [1, "two", null, "NaN", "inf", "-Infinity", {"y": "x"}, [1], 4, "5"]}),
    );
    let h = harness(&document);
    let d = h
        .get_by_role_and_label(Role::Figure, "Noisy")
        .accesskit_node()
        .description()
        .unwrap_or_default();
    assert!(d.contains("S: 3 points, from 1 to 5"), "{d}");
    let errs = errors(&h);
    assert!(
        errs.iter().any(
            |e| matches!(e, A2uiError::Validation { message, .. } if message.contains("7 value(s)"))
        ),
        "{errs:?}"
    );
    assert_eq!(errs.len(), 1, "reported once, not every frame: {errs:?}");
}

#[test]
fn a_million_row_path_is_cut_at_the_template_instance_limit() {
    let rows: Vec<Value> = (0..1_000_000).map(|i| json!({"n": i})).collect();
    let document = doc(
        json!([{"id": "root", "component": "Table", "label": "Big", "rows": {"path": "/rows"},
                "sort": {"path": "/sort"}, "columns": [{"key": "n", "label": "N", "format": "number"}]}]),
        json!({"rows": rows}),
    );
    let limits = Limits {
        max_message_bytes: 64 * 1024 * 1024,
        max_line_bytes: 64 * 1024 * 1024,
        // A million rows take about 185 MB of `Value`s (the data-model charge counts memory).
        max_data_model_bytes: 256 * 1024 * 1024,
        ..Limits::default()
    };
    let mut h = harness_for(renderer_with_limits(&document, limits));
    let errs = errors(&h);
    assert!(
        errs.iter().any(|e| matches!(
            e,
            A2uiError::LimitExceeded {
                what: "max_template_instances",
                limit: 100_000,
                actual: 1_000_000
            }
        )),
        "{errs:?}"
    );
    let table = h.get_by_role_and_label(Role::Table, "Big");
    assert_eq!(table.accesskit_node().data().row_count(), Some(100_000));
    // Only the rows in view are drawn.
    assert!(h.query_all_by_role(Role::Cell).count() < 40);
    // Sorting the cut rows descending puts the last kept row on top.
    h.get_by_role_and_label(Role::ColumnHeader, "N").click();
    h.run();
    h.get_by_role_and_label(Role::ColumnHeader, "N").click();
    h.run();
    assert!(h.query_by_role_and_label(Role::Cell, "99,999").is_some());
    assert!(h.query_by_role_and_label(Role::Cell, "0").is_none());
}

#[test]
fn ten_thousand_columns_are_cut_with_a_typed_error() {
    let columns: Vec<Value> = (0..10_000)
        .map(|i| json!({"key": format!("c{i}"), "label": format!("C{i}")}))
        .collect();
    let document = doc(
        json!([{"id": "root", "component": "Table", "rows": [{"c0": 1}], "columns": columns}]),
        json!({}),
    );
    let h = harness(&document);
    let errs = errors(&h);
    assert!(
        errs.iter().any(|e| matches!(
            e,
            A2uiError::LimitExceeded {
                what: "Table columns",
                limit: 100,
                actual: 10_000
            }
        )),
        "{errs:?}"
    );
    assert!(h.query_all_by_role(Role::ColumnHeader).count() <= 100);
}

/// The caps are the host's: `Limits` fields, not constants of the catalog.
#[test]
fn the_table_chart_and_rating_caps_come_from_the_hosts_limits() {
    let limits = Limits {
        max_table_columns: 2,
        max_chart_series: 1,
        max_chart_points: 3,
        max_rating_stars: 3,
        ..Limits::default()
    };
    let columns: Vec<Value> = (0..5)
        .map(|i| json!({"key": format!("c{i}"), "label": format!("C{i}")}))
        .collect();
    let document = doc(
        json!([
            {"id": "root", "component": "Column", "children": ["t", "c", "r"]},
            {"id": "t", "component": "Table", "rows": [{"c0": 1}], "columns": columns},
            {"id": "c", "component": "Chart", "kind": "line", "title": "Sales", "series": [
                {"label": "A", "values": [1, 2, 3, 4, 5]},
                {"label": "B", "values": [1, 2]}
            ]},
            {"id": "r", "component": "Rating", "value": 2, "max": 10, "label": "Stars"}
        ]),
        json!({}),
    );
    let h = harness_for(renderer_with_limits(&document, limits));
    let errs = errors(&h);
    for (what, limit, actual) in [
        ("Table columns", 2, 5),
        ("Chart series", 1, 2),
        ("Chart points", 3, 5),
    ] {
        assert!(
            errs.iter().any(|e| matches!(
                e,
                A2uiError::LimitExceeded { what: w, limit: l, actual: a }
                    if *w == what && *l == limit && *a == actual
            )),
            "{what}: {errs:?}"
        );
    }
    assert_eq!(h.query_all_by_role(Role::ColumnHeader).count(), 2);
    let stars = h.get_by_role_and_label(Role::Slider, "Stars");
    assert_eq!(stars.accesskit_node().max_numeric_value(), Some(3.0));
}

#[test]
fn a_cell_template_that_contains_its_own_table_is_a_cycle() {
    let document = doc(
        json!([
            {"id": "root", "component": "Table", "rows": {"path": "/rows"},
             "columns": [{"key": "a", "label": "A", "component": "wrap"}]},
            {"id": "wrap", "component": "Column", "children": ["root"]}
        ]),
        json!({"rows": [{"a": 1}, {"a": 2}]}),
    );
    let h = harness(&document);
    let errs = errors(&h);
    assert!(
        errs.iter().any(|e| matches!(e, A2uiError::Cycle(_))),
        "{errs:?}"
    );
}

#[test]
fn a_cell_template_recursing_through_relative_rows_stops_at_the_depth_limit() {
    // Each level's rows are the row's own `kids`: the scope grows every level, so the
    // cycle guard never fires; the depth limit does.
    let mut nested = json!({"a": 0});
    for i in 0..30 {
        nested = json!({"a": i, "kids": [nested]});
    }
    let document = doc(
        json!([
            {"id": "root", "component": "Table", "rows": {"path": "/rows"},
             "columns": [{"key": "a", "label": "A", "component": "inner"}]},
            {"id": "inner", "component": "Table", "rows": {"path": "kids"}, "height": 2000,
             "columns": [{"key": "a", "label": "A", "component": "inner"}]}
        ]),
        json!({"rows": [nested]}),
    );
    let limits = Limits {
        max_tree_depth: 12,
        ..Limits::default()
    };
    let h = harness_for(renderer_with_limits(&document, limits));
    let errs = errors(&h);
    assert!(
        errs.iter().any(|e| matches!(
            e,
            A2uiError::LimitExceeded {
                what: "max_tree_depth",
                limit: 12,
                ..
            }
        )),
        "{errs:?}"
    );
}

#[test]
fn hostile_props_never_panic() {
    let many: Vec<Value> = (0..40)
        .map(|i| json!({"label": format!("S{i}"), "values": [i]}))
        .collect();
    let document = doc(
        json!([
            {"id": "root", "component": "Column", "children": ["r", "p", "t", "d", "c", "ch", "tb", "tp"]},
            {"id": "r", "component": "Rating", "label": "R", "value": "abc", "max": 1e300},
            {"id": "p", "component": "Progress", "value": 1e308, "max": -5},
            {"id": "t", "component": "TimePicker", "value": "99:99", "min": "garbage", "max": "00:00"},
            {"id": "d", "component": "DateRange", "start": "2026-02-30", "end": 42, "min": "2030-01-01", "max": "1999-01-01"},
            {"id": "c", "component": "ColorPicker", "value": "#zzz"},
            {"id": "ch", "component": "Chart", "kind": "nonsense", "series": many, "labels": {"path": "/nope"}},
            {"id": "tb", "component": "Table", "rows": {"path": "/n"}, "columns": "not a list", "rowHeight": -1, "height": 1e30},
            {"id": "tp", "component": "Table", "rows": [1, "x", null], "columns": [{"key": "a", "format": "date"}, 7, {"key": "b", "format": "currency", "currency": "??"}]}
        ]),
        json!({"n": 5}),
    );
    let h = harness(&document);
    assert_eq!(
        h.get_by_role_and_label(Role::Slider, "R")
            .accesskit_node()
            .max_numeric_value(),
        Some(10.0),
        "stars are capped"
    );
    let errs = errors(&h);
    assert!(
        errs.iter().any(|e| matches!(
            e,
            A2uiError::LimitExceeded {
                what: "Chart series",
                limit: 32,
                actual: 40
            }
        )),
        "{errs:?}"
    );
    assert!(
        errs.iter().any(
            |e| matches!(e, A2uiError::Validation { message, .. } if message.contains("array"))
        ),
        "rows that are not an array: {errs:?}"
    );
}
