//! A host's own catalog, registered once on its egui [`Catalog`], is accepted by every store
//! and MCP session built from that catalog: the renderer's own store, a store the host owns
//! (`SurfaceStore::new(catalog.catalogs())`) and an MCP Apps session. Before, a store or a
//! session built without remembering `with_config(catalog.known_catalogs(), ..)` knew only
//! the basic catalogs and rejected the host's with `CATALOG_NOT_FOUND`.

use egui_a2ui::mcp::AppSession;
use egui_a2ui::model::{Catalogs, SurfaceStore};
use egui_a2ui::{Catalog, Renderer, Version};
use serde_json::{Value, json};

const HOST_CATALOG: &str = "https://example.com/game/catalogs/v1/catalog.json";

/// The basic catalog plus a host component, `Gauge`, served under the host's own id.
fn host_catalog() -> Catalog {
    let mut c = Catalog::basic().with_catalog_id(HOST_CATALOG, Version::V0_9);
    c.register(
        "Gauge",
        |ui: &mut egui::Ui, cx: &mut egui_a2ui::ComponentContext<'_, '_>| {
            ui.label(format!("gauge {}", cx.string("value")))
        },
    );
    c
}

/// A v0.9 surface of the host's catalog: a Column with a basic Text and the host's Gauge.
fn messages() -> Vec<Value> {
    vec![
        json!({"version": "v0.9", "createSurface": {"surfaceId": "hud", "catalogId": HOST_CATALOG}}),
        json!({"version": "v0.9", "updateComponents": {"surfaceId": "hud", "components": [
            {"id": "root", "component": "Column", "children": ["t", "g"]},
            {"id": "t", "component": "Text", "text": "Fuel"},
            {"id": "g", "component": "Gauge", "value": "80"}
        ]}}),
    ]
}

fn jsonl() -> String {
    messages()
        .iter()
        .map(Value::to_string)
        .collect::<Vec<_>>()
        .join("\n")
}

fn codes(store: &SurfaceStore) -> Vec<&'static str> {
    store.errors().iter().map(|e| e.error.code()).collect()
}

#[test]
fn the_renderer_built_from_a_host_catalog_accepts_its_surfaces() {
    let mut r = Renderer::new(host_catalog());
    r.feed_document(jsonl().as_bytes());
    assert_eq!(codes(r.store()), Vec::<&str>::new());
    let s = r.store().surface("hud").expect("the surface exists");
    assert!(s.is_visible());
    assert!(s.components.contains_key("g"));
}

#[test]
fn a_store_the_host_builds_from_its_catalog_accepts_the_host_catalog() {
    let catalog = host_catalog();
    let mut store = SurfaceStore::new(catalog.catalogs());
    store.feed_document(jsonl().as_bytes());
    assert_eq!(codes(&store), Vec::<&str>::new());
    assert!(store.surface("hud").is_some_and(|s| s.is_visible()));

    // The basic-only store says so by its name, and refuses the host's id.
    let mut basic = SurfaceStore::basic();
    basic.feed_document(jsonl().as_bytes());
    assert!(
        codes(&basic).contains(&"CATALOG_NOT_FOUND"),
        "{:?}",
        codes(&basic)
    );
}

#[test]
fn an_mcp_session_built_from_the_host_catalog_accepts_its_payload() {
    let catalog = host_catalog();
    let payload = Value::Array(messages()).to_string();
    let result = json!({"content": [
        {"type": "text", "text": "Your HUD."},
        {"type": "resource", "resource": {
            "uri": "a2ui://game/hud", "mimeType": "application/a2ui+json", "text": payload}}
    ]});

    let mut session = AppSession::new("call-1", "game", "show_hud", catalog.catalogs());
    let outcome = session.on_tool_result(&result).expect("the result splits");
    assert!(outcome.errors.is_empty(), "{:?}", outcome.errors);
    assert_eq!(outcome.applied, 2);
    assert!(
        session
            .store()
            .surface("hud")
            .is_some_and(|s| s.components.contains_key("g"))
    );

    let mut basic = AppSession::new("call-2", "game", "show_hud", Catalogs::basic());
    let outcome = basic.on_tool_result(&result).expect("the result splits");
    assert!(
        outcome
            .errors
            .iter()
            .any(|e| e.code() == "CATALOG_NOT_FOUND"),
        "{:?}",
        outcome.errors
    );
}

#[test]
fn the_catalog_description_carries_the_host_functions_and_definitions() {
    let mut catalog = host_catalog();
    let definition = json!({
        "catalogId": "https://example.com/game/catalogs/v2/catalog.json",
        "components": {"Gauge": {"allowedParents": ["Surface"]}}
    });
    catalog
        .add_definition(definition)
        .expect("a valid definition");
    let description = catalog.catalogs();
    let v2 = description
        .get("https://example.com/game/catalogs/v2/catalog.json")
        .expect("the definition's catalog is described");
    assert!(v2.has_component("Gauge"));
    assert_eq!(
        description.check_composition(
            Some("https://example.com/game/catalogs/v2/catalog.json"),
            "Column",
            "Gauge"
        ),
        Err(true),
        "the definition's allowedParents travel with the description"
    );
    assert!(
        description.functions().get("formatNumber").is_some(),
        "the catalog's functions are part of the description"
    );
}
