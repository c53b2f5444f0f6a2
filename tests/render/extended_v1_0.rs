//! The extended catalog under protocol v1.0 (its catalog id serves v0.9 and v1.0): the
//! v1.0 copies of the bundled samples (`assets/samples/extended/*.v1_0.jsonl`, bindings
//! spelt `{"@path"}` / `{"@call"}`) draw every extended component with no error, lay out
//! exactly as their v0.9 originals, and round-trip the user's input into the data model
//! and the action context.

#![cfg(feature = "extended")]

use std::path::Path;

use crate::common;

use egui::accesskit::{Role, Toggled};
use egui_a2ui::extended::{CATALOG_ID, COMPONENTS};
use egui_a2ui::model::{ChangeSource, Watch};
use egui_a2ui::render::GeometryOptions;
use egui_a2ui::testing::layout_geometry_with;
use egui_a2ui::{A2uiError, ActionEvent, Event, Renderer, RendererOptions};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable};
use serde_json::{Value, json};

const STEMS: &[&str] = &["data-grid", "sales-dashboard", "settings-form"];

fn read(stem: &str, v1: bool) -> String {
    let file = if v1 {
        format!("assets/samples/extended/{stem}.v1_0.jsonl")
    } else {
        format!("assets/samples/extended/{stem}.jsonl")
    };
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"))
}

/// A harness drawing `stem`'s v1.0 sample on the extended catalog.
fn harness(stem: &str) -> Harness<'static, common::App> {
    let mut r = Renderer::new(egui_a2ui::extended::catalog());
    r.options_mut().show_surface_header = false;
    r.feed_document(read(stem, true).as_bytes());
    assert!(r.store().errors().is_empty(), "{:?}", r.store().errors());
    let mut h = common::build(
        Harness::builder().with_size(egui::vec2(800.0, 900.0)),
        r,
        None,
    );
    // Settle (a spinner animates for ever: there, a few frames).
    let _ = h.try_run();
    h.run_steps(2);
    h
}

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

fn actions(h: &Harness<'_, common::App>) -> Vec<ActionEvent> {
    common::actions(h)
}

fn data(h: &Harness<'_, common::App>, surface: &str, path: &str) -> Option<Value> {
    h.state()
        .renderer
        .store()
        .surface(surface)
        .and_then(|s| s.data.get(path).cloned())
}

/// Whether `v` still holds a v0.9 binding or call (`{"path": "..."}`, `{"call": "..."}`).
fn has_v09_spelling(v: &Value) -> bool {
    match v {
        Value::Array(a) => a.iter().any(has_v09_spelling),
        Value::Object(o) => {
            o.get("path").is_some_and(Value::is_string)
                || o.get("call").is_some_and(Value::is_string)
                || o.values().any(has_v09_spelling)
        }
        _ => false,
    }
}

#[test]
fn the_v1_0_samples_are_v1_0_streams_in_the_at_spelling() {
    for stem in STEMS {
        let text = read(stem, true);
        let mut at_forms = 0;
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let msg: Value = serde_json::from_str(line).expect("JSONL");
            assert_eq!(msg["version"], "v1.0", "{stem}");
            assert!(
                msg["createSurface"].get("theme").is_none(),
                "v1.0 has no theme"
            );
            if let Some(cs) = msg.get("createSurface") {
                assert_eq!(cs["catalogId"], CATALOG_ID, "{stem}");
            }
            let comps = &msg["updateComponents"]["components"];
            assert!(!has_v09_spelling(comps), "{stem}: {comps}");
            at_forms += line.matches("\"@path\"").count();
        }
        assert!(at_forms > 0, "{stem} binds nothing");
    }
}

#[test]
fn every_extended_component_draws_under_v1_0_with_no_error() {
    let mut drawn: Vec<String> = Vec::new();
    for stem in STEMS {
        let h = harness(stem);
        assert!(errors(&h).is_empty(), "{stem}: {:?}", errors(&h));
        let store = h.state().renderer.store();
        assert!(store.errors().is_empty(), "{stem}: {:?}", store.errors());
        let surface = store.surfaces().next().expect("a surface");
        assert_eq!(surface.version, egui_a2ui::Version::V1_0);
        // What the frame drew, by type, from the headless layout of the same stream.
        let options = GeometryOptions {
            width: 800.0,
            height: 900.0,
            ..GeometryOptions::default()
        };
        let doc = layout_geometry_with(
            read(stem, true).as_bytes(),
            &options,
            RendererOptions::default(),
            egui_a2ui::extended::catalog(),
        );
        assert_eq!(doc["errors"], json!([]), "{stem}");
        for s in doc["surfaces"].as_object().expect("surfaces").values() {
            for (id, ty) in s["types"].as_object().expect("types") {
                let ty = ty.as_str().unwrap_or_default();
                let boxes = s["components"][id].as_array().cloned().unwrap_or_default();
                let visible = boxes
                    .iter()
                    .any(|b| b[2].as_f64() > Some(0.0) && b[3].as_f64() > Some(0.0));
                if COMPONENTS.contains(&ty) {
                    assert!(visible, "{stem}: {id} ({ty}) has no box: {boxes:?}");
                }
                if visible {
                    drawn.push(ty.to_owned());
                }
            }
        }
    }
    for name in COMPONENTS {
        assert!(
            drawn.iter().any(|d| d == name),
            "no v1.0 sample draws {name}"
        );
    }
}

#[test]
fn a_v1_0_sample_lays_out_exactly_as_its_v0_9_original() {
    for stem in STEMS {
        let options = GeometryOptions {
            width: 760.0,
            height: 900.0,
            ..GeometryOptions::default()
        };
        let layout = |v1: bool| {
            layout_geometry_with(
                read(stem, v1).as_bytes(),
                &options,
                RendererOptions::default(),
                egui_a2ui::extended::catalog(),
            )
        };
        let (v09, v10) = (layout(false), layout(true));
        assert_eq!(v10["errors"], json!([]), "{stem}");
        assert_eq!(v09["errors"], json!([]), "{stem}");
        assert!(
            v10["surfaces"].as_object().is_some_and(|s| !s.is_empty()),
            "{stem}: nothing drawn"
        );
        assert_eq!(v09["surfaces"], v10["surfaces"], "{stem}");
    }
}

#[test]
fn the_v1_0_settings_form_round_trips_every_input() {
    let mut h = harness("settings-form");
    // The host watches the whole model: each edit is the user's.
    let watch = h
        .state_mut()
        .renderer
        .store_mut()
        .observe("settings", "/", Watch::Subtree)
        .expect("observer");
    h.get_by_role_and_label(Role::Slider, "Rate your last stay")
        .set_value_accesskit(5.0);
    h.run_steps(2);
    assert_eq!(data(&h, "settings", "/prefs/rating"), Some(json!(5)));
    h.get_by_label("Breakfast").click();
    h.run_steps(2);
    assert_eq!(data(&h, "settings", "/prefs/breakfast"), Some(json!(false)));
    assert_eq!(
        h.get_by_label("Breakfast").accesskit_node().toggled(),
        Some(Toggled::False)
    );
    h.get_by_label("Check-in time minute")
        .set_value_accesskit(30.0);
    h.run_steps(2);
    assert_eq!(data(&h, "settings", "/trip/checkin"), Some(json!("15:30")));
    // The date range: open the start date's picker, one day on, save.
    h.query_all_by_label("2026-07-10")
        .next()
        .expect("the start date")
        .click();
    h.run_steps(2);
    h.get_by_label(">").click();
    h.run_steps(2);
    h.get_by_label("Save").click();
    h.run_steps(2);
    assert_eq!(
        data(&h, "settings", "/trip/from"),
        Some(json!("2026-07-11"))
    );
    // The button's action context reads every edit back from the model.
    h.get_by_label("Save preferences").click();
    h.run_steps(2);
    let acts = actions(&h);
    let save = acts
        .iter()
        .find(|a| a.name == "savePreferences")
        .expect("the save action");
    assert_eq!(
        Value::Object(save.context.clone()),
        json!({"from": "2026-07-11", "to": "2026-07-17", "checkin": "15:30",
               "color": "#6a1b9a", "rating": 5})
    );
    assert!(errors(&h).is_empty(), "{:?}", errors(&h));
    let changes = watch.drain();
    let paths: Vec<&str> = changes.iter().map(|c| c.path.as_str()).collect();
    for p in [
        "/prefs/rating",
        "/prefs/breakfast",
        "/trip/checkin",
        "/trip/from",
    ] {
        assert!(paths.contains(&p), "{p} not observed: {paths:?}");
    }
    assert!(changes.iter().all(|c| c.source == ChangeSource::User));
    let rating = changes
        .iter()
        .find(|c| c.path == "/prefs/rating")
        .expect("the rating change");
    assert_eq!(
        (&rating.old, &rating.new),
        (&Some(json!(4)), &Some(json!(5)))
    );
}

#[test]
fn the_v1_0_data_grid_round_trips_selection_sort_and_actions() {
    let mut h = harness("data-grid");
    // The sample sorts by total, descending: the dearest order is on top.
    let text = read("data-grid", true);
    let model: Value = text
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find_map(|m| m.pointer("/updateDataModel/value").cloned())
        .expect("the sample's model");
    let top = model["orders"]
        .as_array()
        .expect("orders")
        .iter()
        .max_by(|a, b| {
            a["total"]
                .as_f64()
                .partial_cmp(&b["total"].as_f64())
                .expect("numbers")
        })
        .expect("an order")
        .clone();
    let id = top["id"].as_str().expect("an id");
    h.get_by_role_and_label(Role::Cell, id).click();
    h.run_steps(2);
    assert_eq!(data(&h, "grid", "/selected"), Some(json!(id)));
    let acts = actions(&h);
    let open = acts
        .iter()
        .find(|a| a.name == "openOrder")
        .expect("the row action");
    assert_eq!(open.context.get("id"), Some(&top["id"]));
    assert_eq!(open.context.get("customer"), Some(&top["customer"]));
    h.get_by_role_and_label(Role::ColumnHeader, "Rating")
        .click();
    h.run_steps(2);
    assert_eq!(
        data(&h, "grid", "/sort"),
        Some(json!({"key": "rating", "direction": "ascending"}))
    );
    h.get_by_label("Refund selected order").click();
    h.run_steps(2);
    let acts = actions(&h);
    let refund = acts
        .iter()
        .find(|a| a.name == "refund")
        .expect("the button action");
    assert_eq!(refund.context.get("order"), Some(&json!(id)));
    // The formatString call in the v1.0 spelling follows the selection.
    assert!(
        h.query_by_label_contains(&format!("Selected order: {id}"))
            .is_some(),
        "the @call text"
    );
    assert!(errors(&h).is_empty(), "{:?}", errors(&h));
}

#[test]
fn the_v1_0_dashboard_binds_its_charts_and_progress() {
    let h = harness("sales-dashboard");
    let chart = h.get_by_role_and_label(Role::Figure, "Revenue and costs (k€)");
    let summary = chart.accesskit_node().description().unwrap_or_default();
    assert!(
        summary.contains("Revenue: 12 points, from 42 to 85, last 85"),
        "{summary}"
    );
    let sync = h.get_by_role_and_label(Role::ProgressIndicator, "Syncing warehouse data");
    assert_eq!(sync.accesskit_node().numeric_value(), Some(64.0));
    assert!(
        h.query_by_role_and_label(Role::Status, "Churn 2.1%")
            .is_some()
    );
    assert!(errors(&h).is_empty(), "{:?}", errors(&h));
}

/// With the `validation` feature, every message of the v1.0 samples passes the crate's
/// v1.0 schema check with the extended definition added (the `@path` / `@call` spelling
/// of the v1 catalogs), and a v0.9 binding spelling in a v1.0 Table is refused.
#[cfg(feature = "validation")]
#[test]
fn the_v1_0_samples_pass_the_v1_0_schema_check_with_the_extended_definition() {
    // The extended components' own schemas (the basic ones `$ref` the v1.0 basic
    // catalog by its older URI, which the validator knows as the v1 basic catalog it
    // checks every basic component against anyway).
    let mut definition = egui_a2ui::extended::definition();
    if let Some(c) = definition["components"].as_object_mut() {
        c.retain(|name, _| COMPONENTS.contains(&name.as_str()));
    }
    if let Some(d) = definition.as_object_mut() {
        d.remove("$defs");
        d.remove("$schema");
    }
    let validator = egui_a2ui::SchemaValidator::basic()
        .and_then(|v| v.with_catalog(egui_a2ui::Version::V1_0, &definition))
        .expect("validator");
    let mut checked = 0;
    for stem in STEMS {
        for line in read(stem, true).lines().filter(|l| !l.trim().is_empty()) {
            let msg: Value = serde_json::from_str(line).expect("JSONL");
            validator
                .validate_for(&msg, Some(CATALOG_ID))
                .unwrap_or_else(|e| panic!("{stem}: {e}"));
            checked += 1;
        }
    }
    assert_eq!(checked, 9);
    let bad = json!({"version": "v1.0", "updateComponents": {"surfaceId": "s", "components": [
        {"id": "root", "component": "Table", "columns": [{"key": "a"}], "rows": {"@path": "/r"},
         "selection": 5}
    ]}});
    assert!(validator.validate_for(&bad, Some(CATALOG_ID)).is_err());
}
