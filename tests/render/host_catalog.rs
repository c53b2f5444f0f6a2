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
    assert!(s.components().contains_key("g"));
}

#[test]
fn a_store_the_host_builds_from_its_catalog_accepts_the_host_catalog() {
    let catalog = host_catalog();
    let mut store = SurfaceStore::new(catalog.catalogs());
    store.feed_document(jsonl().as_bytes());
    assert_eq!(codes(&store), Vec::<&str>::new());
    assert!(
        store
            .surface("hud")
            .is_some_and(egui_a2ui::Surface::is_visible)
    );

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
            .is_some_and(|s| s.components().contains_key("g"))
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

/// The store answers `callRendererFunction` itself, from the catalogs it was built with: an
/// MCP session built from a host catalog runs the host's own function for the agent, with
/// no drawing state anywhere, and says what it owes the agent through `take_outgoing`.
#[test]
fn an_mcp_session_answers_a_call_of_the_host_function_without_a_draw_state() {
    const HOST_V1: &str = "https://example.com/game/catalogs/v1_0/catalog.json";
    let mut catalog = Catalog::basic().with_catalog_id(HOST_V1, Version::V1_0);
    catalog.register_function(
        egui_a2ui::eval::FnFunction::new("fuelLeft", |args, _cx| {
            let tank = args.get("tank").and_then(Value::as_f64).unwrap_or(0.0);
            Ok(json!(tank * 0.8))
        })
        .with_callers(egui_a2ui::eval::AllowedCallers::RendererOrAgent),
    );
    let call = |id: &str, name: &str| {
        json!({"version": "v1.0", "callRendererFunction": {"functionCallId": id,
            "callFunction": {"call": name, "args": {"tank": 50}, "catalogId": HOST_V1}}})
    };
    let payload = Value::Array(vec![call("c1", "fuelLeft"), call("c2", "noSuchFunction")]);
    let result = json!({"content": [{"type": "resource", "resource": {
        "uri": "a2ui://game/rpc", "mimeType": "application/a2ui+json", "text": payload.to_string()}}]});

    let mut session = AppSession::new("call-9", "game", "ask", catalog.catalogs());
    let outcome = session.on_tool_result(&result).expect("the result splits");
    assert_eq!(outcome.applied, 2, "{:?}", outcome.errors);
    let replies: Vec<Value> = session
        .store_mut()
        .take_outgoing()
        .into_iter()
        .filter_map(|e| match e {
            egui_a2ui::Event::Reply(m) => Some(m),
            _ => None,
        })
        .collect();
    assert_eq!(replies.len(), 2, "{replies:?}");
    assert_eq!(
        replies[0]["rendererFunctionResponse"],
        json!({"functionCallId": "c1", "value": 40.0})
    );
    assert_eq!(
        replies[1]["rendererFunctionResponse"]["error"]["code"],
        "INVALID_FUNCTION_CALL"
    );
    assert!(
        session.store_mut().take_outgoing().is_empty(),
        "drained once"
    );
}

/// A host catalog registered once for v0.9 and v1.0 serves surfaces of both: the same
/// Gauge draws from a v0.9 stream and from a v1.0 stream (bindings spelt `{"@path"}`), and
/// the capabilities list the id under both versions. Registered for v0.9 only, a v1.0
/// surface naming it is refused, saying which versions the catalog serves.
#[test]
fn a_host_catalog_registered_once_serves_every_version_it_declares() {
    const BOTH: &str = "https://example.com/game/catalogs/both/catalog.json";
    let catalog = || {
        let mut c = Catalog::basic().with_catalog_id(BOTH, [Version::V0_9, Version::V1_0]);
        c.register(
            "Gauge",
            |ui: &mut egui::Ui, cx: &mut egui_a2ui::ComponentContext<'_, '_>| {
                ui.label(format!("gauge {}", cx.string("value")))
            },
        );
        c
    };
    let stream = |version: &str, binding: Value| {
        [
            json!({"version": version, "createSurface": {"surfaceId": "hud", "catalogId": BOTH}}),
            json!({"version": version, "updateComponents": {"surfaceId": "hud", "components": [
                {"id": "root", "component": "Gauge", "value": binding}
            ]}}),
            json!({"version": version, "updateDataModel": {"surfaceId": "hud", "path": "/fuel", "value": "80"}}),
        ]
        .iter()
        .map(Value::to_string)
        .collect::<Vec<_>>()
        .join("\n")
    };
    for (version, binding) in [
        ("v0.9", json!({"path": "/fuel"})),
        ("v1.0", json!({"@path": "/fuel"})),
    ] {
        let mut r = Renderer::new(catalog());
        r.options_mut().show_surface_header = false;
        r.feed_document(stream(version, binding).as_bytes());
        assert_eq!(codes(r.store()), Vec::<&str>::new(), "{version}");
        let s = r.store().surface("hud").expect("the surface exists");
        assert_eq!(s.version.as_str(), version);
        let mut h = egui_kittest::Harness::new_ui_state(
            |ui, r: &mut Renderer| {
                let _ = r.ui(ui);
            },
            r,
        );
        h.run();
        use egui_kittest::kittest::Queryable as _;
        assert!(h.query_by_label("gauge 80").is_some(), "{version}");
    }
    let c = catalog();
    for v in [Version::V0_9, Version::V1_0] {
        assert_eq!(
            egui_a2ui::capabilities::supported_catalog_ids(&c, v)
                .iter()
                .filter(|id| *id == BOTH)
                .count(),
            1,
            "{v}"
        );
    }
    assert!(
        !egui_a2ui::capabilities::supported_catalog_ids(&c, Version::V0_8)
            .iter()
            .any(|id| id == BOTH)
    );
    // Served for v0.9 only: a v1.0 surface is refused, and nothing of it exists.
    let v09_only = Catalog::basic().with_catalog_id(BOTH, Version::V0_9);
    let mut store = SurfaceStore::new(v09_only.catalogs());
    let err = store
        .apply(json!({"version": "v1.0", "createSurface": {"surfaceId": "hud", "catalogId": BOTH}}))
        .into_result()
        .expect_err("a v0.9 catalog on a v1.0 surface");
    assert_eq!(err.code(), "VALIDATION_FAILED");
    assert!(err.to_string().contains("is a v0.9 catalog"), "{err}");
    assert!(store.surface("hud").is_none());
}
