//! Data-model observers (`SurfaceStore::observe`): a host watching a path is told of every
//! change there with the old and new values and who made it; exact and subtree scopes;
//! ancestors replaced; unsubscribed by dropping the handle; detached with the surface;
//! bounded in observers and in queued changes. The user's edits are covered with the
//! renderer in `tests/render/extended_v1_0.rs`.

use egui_a2ui::model::{
    ChangeSource, DataChange, MAX_OBSERVERS, MAX_QUEUED_CHANGES, SurfaceStore, Watch,
};
use serde_json::{Value, json};

fn store() -> SurfaceStore {
    let mut s = SurfaceStore::basic();
    s.apply(
        json!({"version": "v0.9", "createSurface": {"surfaceId": "s",
        "catalogId": egui_a2ui::protocol::BASIC_CATALOG_V0_9}}),
    )
    .into_result()
    .expect("created");
    s.apply(
        json!({"version": "v0.9", "updateDataModel": {"surfaceId": "s", "path": "/",
        "value": {"user": {"name": "Ada", "settings": {"theme": "dark"}}, "items": [1, 2]}}}),
    )
    .into_result()
    .expect("model");
    s
}

fn agent_write(s: &mut SurfaceStore, path: &str, value: Value) {
    s.apply(json!({"version": "v0.9", "updateDataModel": {"surfaceId": "s", "path": path, "value": value}}))
        .into_result()
        .expect("written");
}

fn change(path: &str, old: Option<Value>, new: Option<Value>, source: ChangeSource) -> DataChange {
    DataChange {
        path: path.to_owned(),
        old,
        new,
        source,
    }
}

#[test]
fn an_agent_write_is_reported_with_old_and_new_values() {
    let mut s = store();
    let o = s
        .observe("s", "/user/name", Watch::Exact)
        .expect("observer");
    assert_eq!(o.path(), "/user/name");
    agent_write(&mut s, "/user/name", json!("Grace"));
    assert_eq!(
        o.drain(),
        [change(
            "/user/name",
            Some(json!("Ada")),
            Some(json!("Grace")),
            ChangeSource::Agent
        )]
    );
    // Deleted (v0.9: the value omitted).
    s.apply(
        json!({"version": "v0.9", "updateDataModel": {"surfaceId": "s", "path": "/user/name"}}),
    )
    .into_result()
    .expect("deleted");
    assert_eq!(
        o.drain(),
        [change(
            "/user/name",
            Some(json!("Grace")),
            None,
            ChangeSource::Agent
        )]
    );
}

#[test]
fn a_subtree_observer_sees_writes_inside_an_exact_one_does_not() {
    let mut s = store();
    let exact = s.observe("s", "/user", Watch::Exact).expect("exact");
    let tree = s.observe("s", "/user", Watch::Subtree).expect("subtree");
    agent_write(&mut s, "/user/settings/theme", json!("light"));
    assert!(exact.drain().is_empty());
    assert_eq!(
        tree.drain(),
        [change(
            "/user/settings/theme",
            Some(json!("dark")),
            Some(json!("light")),
            ChangeSource::Agent
        )]
    );
    // Replacing the observed value itself reaches both.
    agent_write(&mut s, "/user", json!({"name": "Alan"}));
    assert_eq!(exact.pending(), 1);
    assert_eq!(tree.pending(), 1);
    let c = exact.try_recv().expect("a change");
    assert_eq!(c.path, "/user");
    assert_eq!(c.new, Some(json!({"name": "Alan"})));
    assert_eq!(
        c.old,
        Some(json!({"name": "Ada", "settings": {"theme": "light"}}))
    );
}

#[test]
fn replacing_an_ancestor_reports_the_observed_path_only_when_it_changed() {
    let mut s = store();
    let theme = s
        .observe("s", "/user/settings/theme", Watch::Exact)
        .expect("observer");
    let unrelated = s.observe("s", "/items", Watch::Subtree).expect("observer");
    agent_write(
        &mut s,
        "/user",
        json!({"name": "Bob", "settings": {"theme": "dark"}}),
    );
    assert!(theme.drain().is_empty(), "the theme is as it was");
    agent_write(&mut s, "/user/settings", json!({"theme": "light"}));
    assert_eq!(
        theme.drain(),
        [change(
            "/user/settings/theme",
            Some(json!("dark")),
            Some(json!("light")),
            ChangeSource::Agent
        )]
    );
    // The same value written again is no change; an unrelated path hears nothing.
    agent_write(&mut s, "/user/settings/theme", json!("light"));
    assert!(theme.drain().is_empty());
    assert!(unrelated.drain().is_empty());
    // A write at the root reaches everyone whose value it changes.
    agent_write(&mut s, "/", json!({"items": [1, 2, 3]}));
    assert_eq!(
        theme.drain(),
        [change(
            "/user/settings/theme",
            Some(json!("light")),
            None,
            ChangeSource::Agent
        )]
    );
    assert_eq!(
        unrelated.drain(),
        [change(
            "/items",
            Some(json!([1, 2])),
            Some(json!([1, 2, 3])),
            ChangeSource::Agent
        )]
    );
}

#[test]
fn a_write_by_the_host_says_so() {
    let mut s = store();
    let o = s.observe("s", "/items/1", Watch::Exact).expect("observer");
    s.surface_mut("s")
        .expect("surface")
        .data
        .set("/items/1", Some(json!(20)))
        .expect("set");
    assert_eq!(
        o.drain(),
        [change(
            "/items/1",
            Some(json!(2)),
            Some(json!(20)),
            ChangeSource::Host
        )]
    );
}

#[test]
fn dropping_the_handle_unsubscribes_and_frees_its_place() {
    let mut s = store();
    let mut held: Vec<_> = (0..MAX_OBSERVERS)
        .map(|_| {
            s.observe("s", "/user", Watch::Subtree)
                .expect("within the cap")
        })
        .collect();
    let err = s
        .observe("s", "/user", Watch::Subtree)
        .expect_err("one past the cap");
    assert_eq!(err.code(), "LIMIT_EXCEEDED");
    drop(held.pop());
    let again = s
        .observe("s", "/user", Watch::Subtree)
        .expect("a dropped handle's place is free");
    agent_write(&mut s, "/user/name", json!("Eve"));
    assert!(held.iter().all(|o| o.pending() == 1));
    assert_eq!(again.pending(), 1);
    drop(held);
    agent_write(&mut s, "/user/name", json!("Mallory"));
    assert_eq!(again.pending(), 2);
}

#[test]
fn an_observer_nobody_drains_holds_a_bounded_queue() {
    let mut s = store();
    let o = s.observe("s", "/n", Watch::Exact).expect("observer");
    let writes = MAX_QUEUED_CHANGES + 44;
    for i in 0..writes {
        agent_write(&mut s, "/n", json!(i));
    }
    assert_eq!(o.pending(), MAX_QUEUED_CHANGES);
    assert_eq!(o.missed(), 44);
    // The oldest were dropped: the first kept is write 44 (its old value write 43's).
    let first = o.try_recv().expect("a change");
    assert_eq!((first.old, first.new), (Some(json!(43)), Some(json!(44))));
}

#[test]
fn deleting_the_surface_detaches_its_observers() {
    let mut s = store();
    let o = s.observe("s", "/", Watch::Subtree).expect("observer");
    assert!(!o.is_detached());
    s.apply(json!({"version": "v0.9", "deleteSurface": {"surfaceId": "s"}}))
        .into_result()
        .expect("deleted");
    assert!(o.is_detached());
    assert_eq!(
        s.observe("s", "/", Watch::Subtree)
            .expect_err("no surface")
            .code(),
        "SURFACE_NOT_FOUND"
    );
    let mut m = egui_a2ui::model::DataModel::default();
    let o = m.observe("/a", Watch::Exact).expect("observer");
    m.detach_observers();
    m.set("/a", Some(json!(1))).expect("set");
    assert!(o.is_detached());
    assert!(o.drain().is_empty(), "detached: told nothing");
    assert_eq!(
        m.observe("/a~2", Watch::Exact)
            .expect_err("bad escape")
            .code(),
        "DATA_MODEL_ERROR"
    );
}

#[test]
fn a_clone_of_a_model_has_no_observers() {
    let mut m = egui_a2ui::model::DataModel::default();
    let o = m.observe("/a", Watch::Exact).expect("observer");
    let mut copy = m.clone();
    assert_eq!(copy, m);
    copy.set("/a", Some(json!(1))).expect("set");
    assert!(o.drain().is_empty(), "the copy is another model");
    m.set("/a", Some(json!(2))).expect("set");
    assert_eq!(o.drain().len(), 1);
}
