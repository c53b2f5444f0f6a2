//! What a host advertises (UI extension settings, A2UI catalog capability) and what it reads
//! from servers (tool `_meta.ui`, resource `contentMimeTypes`).

use egui_a2ui::mcp::{
    A2uiCatalogCapability, ResourceUiMeta, SplitPolicy, ToolDirectory, ToolUiMeta,
    UiExtensionSettings, Visibility,
};
use egui_a2ui::model::Catalogs;
use egui_a2ui::protocol::Version;
use serde_json::{Map, json};

#[test]
fn native_settings_list_a2ui_in_both_keys() {
    let s = UiExtensionSettings::default();
    assert_eq!(
        s.to_value(),
        json!({"mimeTypes": ["application/a2ui+json"],
               "contentMimeTypes": ["application/a2ui+json"]})
    );
    assert!(s.supports_native_a2ui());
    assert!(s.supports_content_mime("application/json+a2ui"));
    assert!(!s.supports_content_mime("text/html;profile=mcp-app"));
}

#[test]
fn settings_are_configurable() {
    let s = UiExtensionSettings::new(
        vec!["text/html;profile=mcp-app".into()],
        vec!["application/vnd.x+json".into()],
    )
    .with_legacy_a2ui_mime();
    assert_eq!(
        s.to_value()["contentMimeTypes"],
        json!(["application/vnd.x+json", "application/json+a2ui"])
    );
    let empty = UiExtensionSettings::new(vec!["application/a2ui+json".into()], vec![]);
    assert!(empty.to_value().get("contentMimeTypes").is_none());
    assert_eq!(
        SplitPolicy::for_settings(&s).content_mime_types,
        s.content_mime_types
    );
}

#[test]
fn settings_go_into_initialize_capabilities_keeping_others() {
    let mut caps = json!({"roots": {}, "extensions": {"other/ext": {"a": 1}}})
        .as_object()
        .unwrap()
        .clone();
    UiExtensionSettings::native_a2ui().insert_into_capabilities(&mut caps);
    let caps = serde_json::Value::Object(caps);
    assert_eq!(caps["roots"], json!({}));
    assert_eq!(caps["extensions"]["other/ext"], json!({"a": 1}));
    assert_eq!(
        caps["extensions"]["io.modelcontextprotocol/ui"]["mimeTypes"],
        json!(["application/a2ui+json"])
    );
    let back = UiExtensionSettings::from_client_capabilities(&caps).unwrap();
    assert_eq!(back, UiExtensionSettings::native_a2ui());
}

#[test]
fn settings_go_into_the_per_request_meta_form() {
    let mut meta = Map::new();
    meta.insert("progressToken".into(), json!(1));
    UiExtensionSettings::native_a2ui().insert_into_request_meta(&mut meta);
    let meta = serde_json::Value::Object(meta);
    assert_eq!(meta["progressToken"], json!(1));
    assert_eq!(
        meta["io.modelcontextprotocol/clientCapabilities"]["extensions"]["io.modelcontextprotocol/ui"]
            ["contentMimeTypes"],
        json!(["application/a2ui+json"])
    );
    assert!(UiExtensionSettings::from_request_meta(&meta).is_some());
}

#[test]
fn catalog_capability_lists_basic_catalogs_per_version() {
    let v = A2uiCatalogCapability::basic().to_value();
    assert_eq!(
        v["v0.9"]["supportedCatalogIds"],
        json!(["https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json"])
    );
    assert_eq!(
        v["v0.9.1"]["supportedCatalogIds"],
        v["v0.9"]["supportedCatalogIds"]
    );
    assert_eq!(
        v["v1.0"]["supportedCatalogIds"],
        json!(["https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json"])
    );
    assert_eq!(
        v["supportedCatalogIds"],
        json!(["https://a2ui.org/specification/v0_8/standard_catalog_definition.json"])
    );
    let mut caps = Map::new();
    A2uiCatalogCapability::basic()
        .with_inline_catalog(Version::V0_9, json!({"catalogId": "urn:mine"}))
        .insert_into_capabilities(&mut caps);
    assert_eq!(
        caps["a2ui"]["clientCapabilities"]["v0.9"]["inlineCatalogs"],
        json!([{"catalogId": "urn:mine"}])
    );
}

#[test]
fn catalog_capability_follows_the_stores_catalogs() {
    let mut known = Catalogs::empty();
    known.register("urn:acme:v09", Version::V0_9, &["Text"]);
    let v = A2uiCatalogCapability::from_known(&known).to_value();
    assert_eq!(v["v0.9"]["supportedCatalogIds"], json!(["urn:acme:v09"]));
    assert_eq!(v["v0.9.1"]["supportedCatalogIds"], json!(["urn:acme:v09"]));
    assert!(v.get("v1.0").is_none());
}

#[test]
fn tool_resource_uri_must_be_ui_scheme() {
    let t = ToolUiMeta::from_tool(&json!({"name": "a",
        "_meta": {"ui": {"resourceUri": "ui://srv/view"}}}))
    .unwrap();
    assert_eq!(t.resource_uri.as_deref(), Some("ui://srv/view"));
    let bad = ToolUiMeta::from_tool(&json!({"name": "b",
        "_meta": {"ui": {"resourceUri": "https://evil.example/view"}}}))
    .unwrap();
    assert_eq!(bad.resource_uri, None);
    assert_eq!(
        bad.rejected_resource_uri.as_deref(),
        Some("https://evil.example/view")
    );
}

#[test]
fn tool_deprecated_flat_resource_uri_key_is_read() {
    let t = ToolUiMeta::from_tool(&json!({"name": "a", "_meta": {"ui/resourceUri": "ui://srv/v"}}))
        .unwrap();
    assert_eq!(t.resource_uri.as_deref(), Some("ui://srv/v"));
    let both = ToolUiMeta::from_tool(&json!({"name": "a",
        "_meta": {"ui/resourceUri": "ui://old", "ui": {"resourceUri": "ui://new"}}}))
    .unwrap();
    assert_eq!(both.resource_uri.as_deref(), Some("ui://new"));
}

#[test]
fn tool_visibility_defaults_to_model_and_app() {
    let d = ToolUiMeta::from_tool(&json!({"name": "a"})).unwrap();
    assert_eq!(
        d.visibility,
        Visibility {
            model: true,
            app: true
        }
    );
    let app =
        ToolUiMeta::from_tool(&json!({"name": "a", "_meta": {"ui": {"visibility": ["app"]}}}))
            .unwrap();
    assert_eq!(
        app.visibility,
        Visibility {
            model: false,
            app: true
        }
    );
    let model = ToolUiMeta::from_tool(&json!({"name": "a",
        "_meta": {"ui": {"visibility": ["model", "future"]}}}))
    .unwrap();
    assert_eq!(
        model.visibility,
        Visibility {
            model: true,
            app: false
        }
    );
    assert!(ToolUiMeta::from_tool(&json!({"title": "nameless"})).is_none());
}

#[test]
fn directory_hides_app_only_tools_from_the_model() {
    let mut dir = ToolDirectory::new();
    let n = dir.insert_tools_list(
        "srv",
        &json!({"tools": [
            {"name": "search"},
            {"name": "select", "_meta": {"ui": {"visibility": ["app"]}}},
            {"bogus": true}
        ]}),
    );
    assert_eq!(n, 2);
    let names: Vec<_> = dir.model_visible("srv").map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["search"]);
    assert!(dir.get("srv", "select").is_some());
    assert!(dir.get("other", "select").is_none());
    dir.clear_server("srv");
    assert!(dir.get("srv", "search").is_none());
}

#[test]
fn resource_content_mime_types_read_result_wins_over_list_entry() {
    let entry = json!({"uri": "ui://srv/r", "_meta": {"ui": {"contentMimeTypes": ["a/listed"]}}});
    let read = json!({"uri": "ui://srv/r", "_meta": {"ui": {"contentMimeTypes": ["a/read"]}}});
    let plain = json!({"uri": "ui://srv/r"});
    assert_eq!(
        ResourceUiMeta::resolve(Some(&entry), Some(&read)).content_mime_types,
        Some(vec!["a/read".to_owned()])
    );
    assert_eq!(
        ResourceUiMeta::resolve(Some(&entry), Some(&plain)).content_mime_types,
        Some(vec!["a/listed".to_owned()])
    );
    assert_eq!(
        ResourceUiMeta::resolve(None, Some(&plain)).content_mime_types,
        None
    );
    let result = json!({"contents": [
        {"uri": "ui://srv/other", "_meta": {"ui": {"contentMimeTypes": ["a/wrong"]}}},
        read
    ]});
    assert_eq!(
        ResourceUiMeta::resolve_read_result(Some(&entry), &result).content_mime_types,
        Some(vec!["a/read".to_owned()])
    );
}

#[cfg(feature = "rmcp")]
mod rmcp_conversions {
    use super::*;
    use egui_a2ui::mcp::{CallRef, ToolCallRequest, rmcp as conv};
    use rmcp::model::{CallToolRequestParams, CallToolResult, ClientCapabilities, Tool};

    #[test]
    fn settings_round_trip_through_rmcp_client_capabilities() {
        let s = UiExtensionSettings::native_a2ui().with_legacy_a2ui_mime();
        let caps: ClientCapabilities = s.to_rmcp_capabilities();
        let wire = serde_json::to_value(&caps).unwrap();
        assert_eq!(
            wire["extensions"]["io.modelcontextprotocol/ui"]["contentMimeTypes"],
            json!(["application/a2ui+json", "application/json+a2ui"])
        );
        assert_eq!(UiExtensionSettings::from_rmcp_capabilities(&caps), Some(s));
    }

    #[test]
    fn tool_call_request_becomes_call_tool_request_params() {
        let mut meta = Map::new();
        meta.insert("a2uiClientDataModel".into(), json!({"version": "v0.9"}));
        let req = ToolCallRequest {
            call_ref: CallRef {
                session_id: "c".into(),
                seq: 0,
            },
            server_id: "srv".into(),
            surface_id: "s".into(),
            name: "select_flight".into(),
            arguments: json!({"flightId": "UA954"}).as_object().unwrap().clone(),
            meta,
        };
        let params: CallToolRequestParams = (&req).into();
        assert_eq!(serde_json::to_value(&params).unwrap(), req.params());
    }

    #[test]
    fn rmcp_result_and_tool_are_read() {
        let result: CallToolResult = serde_json::from_value(json!({"content": [
            {"type": "text", "text": "hi"},
            {"type": "resource", "resource": {"uri": "a2ui://x", "mimeType": "application/a2ui+json",
             "text": "{}"}, "_meta": {"ui": {"content": {}}}}
        ]}))
        .unwrap();
        let split = conv::split_rmcp_result(&result, &SplitPolicy::default()).unwrap();
        assert_eq!(split.payloads.len(), 1);
        assert_eq!(split.model_text(), "hi");
        let block =
            conv::view_content_block("a2ui://y", "application/a2ui+json", "{}", None).unwrap();
        assert!(block.as_resource().is_some());
        let tool: Tool =
            serde_json::from_value(json!({"name": "t", "inputSchema": {"type": "object"},
            "_meta": {"ui": {"visibility": ["app"], "resourceUri": "ui://v"}}}))
            .unwrap();
        let meta = ToolUiMeta::from_rmcp_tool(&tool).unwrap();
        assert!(!meta.visibility.model);
        assert_eq!(meta.resource_uri.as_deref(), Some("ui://v"));
    }
}
