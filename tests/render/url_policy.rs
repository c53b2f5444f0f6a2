//! The one URL policy in the renderer: the host's allow-list applies to `openUrl` actions
//! and to images alike, opening needs a user gesture, and a host's former `ImagePolicy`
//! still decides media after migrating to `UrlPolicy::with_image_policy`.

use crate::common;

use common::{harness_for, v09_doc};
use egui::accesskit::Role;
use egui_a2ui::UrlPolicy;
use egui_a2ui::render::ImagePolicy;
use egui_a2ui::{Catalog, ComponentContext, Event, Renderer, RendererOptions, Version};
use egui_kittest::kittest::{NodeT as _, Queryable};
use serde_json::json;

fn renderer(policy: UrlPolicy, doc: &str) -> Renderer {
    let mut r = Renderer::new(Catalog::basic()).with_options(RendererOptions {
        url_policy: policy,
        ..Default::default()
    });
    r.feed_document(doc.as_bytes());
    r
}

fn open_button(url: &str) -> String {
    v09_doc(
        json!([
            {"id": "root", "component": "Button", "child": "l",
                "action": {"functionCall": {"call": "openUrl", "args": {"url": url}}}},
            {"id": "l", "component": "Text", "text": "Open"}
        ]),
        json!({}),
    )
}

fn opened(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::OpenUrl { url, .. } => Some(url.clone()),
            _ => None,
        })
        .collect()
}

fn errors(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Error(e) => Some(e.error.to_string()),
            _ => None,
        })
        .collect()
}

#[test]
fn the_host_allow_list_decides_which_urls_open() {
    let policy = || UrlPolicy::default().allow_hosts(["example.com"]);
    let mut h = harness_for(renderer(
        policy(),
        &open_button("https://docs.example.com/a"),
    ));
    h.get_by_role_and_label(Role::Button, "Open").click();
    h.run();
    assert_eq!(opened(&h.state().events), ["https://docs.example.com/a"]);

    for url in [
        "https://evil.com/",
        "https://example.com@evil.com/",
        "https://example.com.evil.com/",
    ] {
        let mut h = harness_for(renderer(policy(), &open_button(url)));
        h.get_by_role_and_label(Role::Button, "Open").click();
        h.run();
        assert!(opened(&h.state().events).is_empty(), "{url}");
        let errors = errors(&h.state().events);
        assert!(
            errors.iter().any(|e| e.contains("is not allowed")),
            "{url}: {errors:?}"
        );
    }
}

#[test]
fn the_url_handed_to_the_host_is_cleaned() {
    let mut h = harness_for(renderer(
        UrlPolicy::default(),
        &open_button(" \u{1}HTTPS://example.com/a\tb\n"),
    ));
    h.get_by_role_and_label(Role::Button, "Open").click();
    h.run();
    assert_eq!(opened(&h.state().events), ["HTTPS://example.com/ab"]);
}

/// A component that asks to open a URL while it is drawn, without any gesture.
fn eager(ui: &mut egui::Ui, cx: &mut ComponentContext<'_, '_>) -> egui::Response {
    cx.open_url("https://example.com/pop-up");
    ui.label("eager")
}

#[test]
fn opening_a_url_without_a_user_gesture_is_refused() {
    let cat = "https://example.com/catalogs/eager.json";
    let mut catalog = Catalog::basic().with_catalog_id(cat, Version::V0_9);
    catalog.register("Eager", eager);
    let mut r = Renderer::new(catalog);
    r.feed_document(
        format!(
            "{}\n{}\n",
            json!({"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": cat}}),
            json!({"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": [{"id": "root", "component": "Eager"}]}})
        )
        .as_bytes(),
    );
    let ctx = egui::Context::default();
    let mut events = Vec::new();
    for _ in 0..3 {
        let mut out = ctx.run_ui(egui::RawInput::default(), |ui| events.extend(r.ui(ui)));
        out.textures_delta.clear();
    }
    assert!(opened(&events).is_empty());
    let errors = errors(&events);
    assert!(
        !errors.is_empty() && errors.iter().all(|e| e.contains("user gesture")),
        "{errors:?}"
    );

    // A host that opts out of the gesture rule gets the URL.
    let mut r2 = Renderer::new({
        let mut c = Catalog::basic().with_catalog_id(cat, Version::V0_9);
        c.register("Eager", eager);
        c
    })
    .with_options(RendererOptions {
        url_policy: UrlPolicy::default().with_user_activation(false),
        ..Default::default()
    });
    r2.feed_document(
        format!(
            "{}\n{}\n",
            json!({"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": cat}}),
            json!({"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": [{"id": "root", "component": "Eager"}]}})
        )
        .as_bytes(),
    );
    let mut events = Vec::new();
    let mut out = ctx.run_ui(egui::RawInput::default(), |ui| events.extend(r2.ui(ui)));
    out.textures_delta.clear();
    assert_eq!(opened(&events), ["https://example.com/pop-up"]);
}

fn image_doc(url: &str) -> String {
    v09_doc(
        json!([{"id": "root", "component": "Image", "url": url, "description": "Picture"}]),
        json!({}),
    )
}

fn image_state(policy: UrlPolicy, url: &str) -> String {
    let h = harness_for(renderer(policy, &image_doc(url)));
    h.get_by_label("Picture")
        .accesskit_node()
        .description()
        .unwrap_or_default()
        .to_owned()
}

#[test]
fn the_allow_list_applies_to_images_too() {
    let policy = || UrlPolicy::default().allow_hosts(["cdn.example.com"]);
    assert!(image_state(policy(), "https://evil.com/x.png").contains("blocked"));
    // Allowed: it gets as far as loading (no http loader in tests).
    assert!(!image_state(policy(), "https://cdn.example.com/x.png").contains("blocked"));
}

/// A host's own image rule from before the one policy: plain http on the LAN.
struct LanImages;

impl ImagePolicy for LanImages {
    fn allows(&self, url: &str) -> bool {
        url.starts_with("http://printer.local/")
    }
}

#[test]
fn a_former_image_policy_keeps_deciding_media_after_migration() {
    let policy = || UrlPolicy::default().with_image_policy(LanImages);
    assert!(!image_state(policy(), "http://printer.local/a.png").contains("blocked"));
    assert!(image_state(policy(), "https://example.com/a.png").contains("blocked"));
    assert!(image_state(UrlPolicy::default(), "http://printer.local/a.png").contains("blocked"));
}
