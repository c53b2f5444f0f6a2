//! Data model: JSON Pointer reads and writes with the A2UI rules.

use egui_a2ui::eval::{EvalContext, FunctionRegistry};
use egui_a2ui::model::DataModel;
use egui_a2ui::{Limits, Version};
use serde_json::json;

#[test]
fn a_write_to_a_missing_path_creates_objects_and_arrays_by_the_next_segment() {
    let mut m = DataModel::default();
    m.set("/a/0/b", Some(json!(1))).expect("write");
    assert_eq!(m.root(), &json!({"a": [{"b": 1}]}));
}

#[test]
fn an_existing_value_is_replaced() {
    let mut m = DataModel::new(json!({"a": {"b": 1, "c": 2}}));
    m.set("/a/b", Some(json!("x"))).expect("write");
    assert_eq!(m.root(), &json!({"a": {"b": "x", "c": 2}}));
}

#[test]
fn an_omitted_value_deletes_the_key_and_an_array_slot_keeps_the_length() {
    let mut m = DataModel::new(json!({"a": {"b": 1}, "l": [1, 2, 3]}));
    m.set("/a/b", None).expect("delete");
    m.set("/l/1", None).expect("delete slot");
    assert_eq!(m.root(), &json!({"a": {}, "l": [1, null, 3]}));
}

#[test]
fn deleting_a_missing_path_is_a_no_op() {
    let mut m = DataModel::new(json!({"a": 1}));
    let rev = m.revision();
    m.set("/x/y", None).expect("no-op");
    assert_eq!(m.root(), &json!({"a": 1}));
    assert_eq!(m.revision(), rev);
}

#[test]
fn the_root_path_replaces_the_whole_model() {
    let mut m = DataModel::new(json!({"a": 1}));
    m.set("/", Some(json!({"b": 2}))).expect("replace");
    assert_eq!(m.root(), &json!({"b": 2}));
    m.set("", None).expect("clear");
    assert_eq!(m.root(), &json!({}));
}

#[test]
fn writing_through_a_primitive_is_an_error_and_changes_nothing() {
    let mut m = DataModel::new(json!({"a": 5}));
    let err = m
        .set("/a/b/c", Some(json!(1)))
        .expect_err("through a number");
    assert_eq!(err.code(), "DATA_MODEL_ERROR");
    assert_eq!(m.root(), &json!({"a": 5}));
}

#[test]
fn a_non_numeric_segment_on_an_array_is_an_error() {
    let mut m = DataModel::new(json!({"l": [1]}));
    assert!(m.set("/l/x", Some(json!(1))).is_err());
    assert_eq!(m.root(), &json!({"l": [1]}));
}

#[test]
fn a_huge_array_index_is_refused_instead_of_allocating() {
    let mut m = DataModel::default();
    assert!(m.set("/l/999999999", Some(json!(1))).is_err());
    assert!(m.set("/a/b/50000/c", Some(json!(1))).is_err());
    assert_eq!(m.root(), &json!({}));
}

#[test]
fn tilde_escapes_address_keys_with_slashes_and_tildes() {
    let mut m = DataModel::default();
    m.set("/a~1b/c~0d", Some(json!(1))).expect("write");
    assert_eq!(m.root(), &json!({"a/b": {"c~d": 1}}));
    assert_eq!(m.get("/a~1b/c~0d"), Some(&json!(1)));
    assert!(
        m.set("/bad~2", Some(json!(1))).is_err(),
        "~2 is not an escape"
    );
}

#[test]
fn prototype_like_keys_are_plain_keys() {
    let mut m = DataModel::default();
    m.set("/__proto__/polluted", Some(json!(true)))
        .expect("plain key");
    assert_eq!(m.get("/__proto__/polluted"), Some(&json!(true)));
    assert_eq!(m.get("/polluted"), None);
}

#[test]
fn every_write_bumps_the_revision() {
    let mut m = DataModel::default();
    let r0 = m.revision();
    m.set("/a", Some(json!(1))).expect("write");
    m.set("/a", Some(json!(2))).expect("write");
    assert_eq!(m.revision(), r0 + 2);
}

#[test]
fn relative_paths_resolve_against_the_scope() {
    let (data, functions, limits) = (json!({}), FunctionRegistry::empty(), Limits::default());
    let resolve_path = |path: &str, scope: &str| {
        EvalContext::new(&data, scope, Version::V0_9, &functions, &limits).absolute_path(path)
    };
    assert_eq!(resolve_path("name", "/items/3"), "/items/3/name");
    assert_eq!(resolve_path("/abs", "/items/3"), "/abs");
    assert_eq!(resolve_path(".", "/items/3"), "/items/3");
    assert_eq!(resolve_path("", "/items/3"), "/items/3");
    assert_eq!(resolve_path("name", "/"), "/name");
    assert_eq!(resolve_path("./name", "/x"), "/x/name");
}
