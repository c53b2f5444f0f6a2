//! The content components (Text, Image, Icon, Video, AudioPlayer), theme, accessibility and
//! the placeholders for missing and unknown components, driven through a kittest harness.

use crate::common::content as content_util;

use content_util::{State, builder, harness, harness_from, renderer_with, settle, v09_surface};
use egui_a2ui::render::{BASIC_ICON_NAMES, icon_family, icon_glyph};
use egui_a2ui::{Catalog, Renderer, RendererOptions};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable as _};

fn text_harness(components: &str) -> Harness<'static, State> {
    harness(renderer_with(&v09_surface(components, "{}")))
}

fn height_of(h: &Harness<'_, State>, label: &str) -> f32 {
    h.get_by_label(label).rect().height()
}

// ---------------------------------------------------------------------------------------
// Text

#[test]
fn text_variants_take_the_reference_line_heights() {
    let h = text_harness(
        r#"[{"id":"root","component":"Column","children":["a","b","c","d","e","f","g"]},
        {"id":"a","component":"Text","text":"Variant h1","variant":"h1"},
        {"id":"b","component":"Text","text":"Variant h2","variant":"h2"},
        {"id":"c","component":"Text","text":"Variant h3","variant":"h3"},
        {"id":"d","component":"Text","text":"Variant h4","variant":"h4"},
        {"id":"e","component":"Text","text":"Variant h5","variant":"h5"},
        {"id":"f","component":"Text","text":"Variant body"},
        {"id":"g","component":"Text","text":"Variant caption","variant":"caption"}]"#,
    );
    let heights: Vec<f32> = ["h1", "h2", "h3", "h4", "h5", "body", "caption"]
        .iter()
        .map(|v| height_of(&h, &format!("Variant {v}")))
        .collect();
    // The web renderer's line boxes: 16 px body text on 24 px lines, headings on the
    // 1.2 type scale with line height 1.2, captions at 11.1 px (`Style::default()`).
    let expected = [33.18, 27.65, 23.04, 19.2, 16.0, 24.0, 13.02];
    for (got, want) in heights.iter().zip(expected) {
        assert!((got - want).abs() <= 1.0, "{heights:?} vs {expected:?}");
    }
}

#[test]
fn markdown_text_is_found_by_its_plain_words_per_block() {
    let h = text_harness(
        r##"[{"id":"root","component":"Text","text":"# Title\n\nSome **bold** and *soft* and `code` words.\n\n- first item\n- second item\n\n1. one\n2. two"}]"##,
    );
    h.get_by_label("Title");
    h.get_by_label("Some bold and soft and code words.");
    h.get_by_label("first item");
    h.get_by_label("second item");
    h.get_by_label("two");
    assert!(h.query_by_label_contains("**").is_none());
    assert!(h.query_by_label_contains("#").is_none());
}

#[test]
fn a_heading_variant_keeps_a_hash_the_agent_wrote_as_text_as_the_web_renderer_does() {
    // The official contact form sends `"text": "# Contact Us", "variant": "h2"`; the web
    // renderer's screenshot shows "# Contact Us" (it renders `## ` + the text as Markdown).
    // In the body variant the same text is a Markdown heading and the `#` goes.
    let h = text_harness(
        r##"[{"id":"root","component":"Column","children":["a","b"]},
        {"id":"a","component":"Text","text":"# Contact Us","variant":"h2"},
        {"id":"b","component":"Text","text":"# Body heading"}]"##,
    );
    h.get_by_label("# Contact Us");
    h.get_by_label("Body heading");
    assert!(h.query_by_label("# Body heading").is_none());
}

#[test]
fn a_plain_text_is_one_label_with_exactly_its_text() {
    let h = text_harness(r#"[{"id":"root","component":"Text","text":"Hello, world"}]"#);
    let node = h.get_by_label("Hello, world");
    assert_eq!(node.accesskit_node().role(), egui::accesskit::Role::Label);
}

#[test]
fn clicking_a_markdown_link_emits_open_url_and_nothing_else() {
    let mut h = text_harness(
        r#"[{"id":"root","component":"Text","text":"Read [the docs](https://example.com/docs) now."}]"#,
    );
    assert!(
        h.state().opened_urls().is_empty(),
        "no event before a click"
    );
    h.get_by_label("the docs").click();
    h.run();
    assert_eq!(h.state().opened_urls(), ["https://example.com/docs"]);
    assert!(h.state().errors().is_empty());
    h.get_by_label("Read ");
}

#[test]
fn a_javascript_link_is_plain_text_and_never_opened() {
    let mut h = text_harness(
        r#"[{"id":"root","component":"Text","text":"[click me](javascript:alert(1))"}]"#,
    );
    // The URL policy would never open it, so it is not drawn as a link at all.
    let node = h.get_by_label_contains("click me");
    assert_ne!(node.accesskit_node().role(), egui::accesskit::Role::Link);
    node.click();
    h.run();
    assert!(h.state().opened_urls().is_empty());
    assert!(h.state().errors().is_empty(), "{:?}", h.state().errors());
}

#[test]
fn markdown_images_and_html_never_load_or_render_as_markup() {
    let h = text_harness(
        r#"[{"id":"root","component":"Text","text":"<img src=x onerror=alert(1)>before ![a cat](https://example.com/cat.png) after"}]"#,
    );
    h.get_by_label("before a cat after");
    assert!(h.query_by_role(egui::accesskit::Role::Image).is_none());
}

#[test]
fn hostile_text_never_panics() {
    let huge = "word ".repeat(50_000);
    let deep_quote = ">".repeat(3_000);
    let deep_list: String = (0..200)
        .map(|i| format!("{}- x\n", "  ".repeat(i)))
        .collect();
    let stars = "*".repeat(10_000);
    let texts = [
        huge,
        deep_quote,
        deep_list,
        stars,
        "\u{0}\u{202e}\t\r".to_owned(),
    ];
    let components: Vec<String> = texts
        .iter()
        .enumerate()
        .map(|(i, t)| {
            serde_json::json!({"id": format!("t{i}"), "component": "Text", "text": t}).to_string()
        })
        .collect();
    let ids: Vec<String> = (0..texts.len()).map(|i| format!("\"t{i}\"")).collect();
    let doc = v09_surface(
        &format!(
            r#"[{{"id":"root","component":"Column","children":[{}]}},{}]"#,
            ids.join(","),
            components.join(",")
        ),
        "{}",
    );
    let builder = builder(600.0, 800.0).allow_missing_glyphs();
    let h = harness_from(builder, renderer_with(&doc));
    assert!(h.state().errors().is_empty(), "{:?}", h.state().errors());
}

// ---------------------------------------------------------------------------------------
// Image

/// Standard base64 (the tests' own, to build `data:` URIs).
fn base64(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(A[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// A 4×2 red image in `format` as a `data:` URI.
fn data_uri(format: image::ImageFormat, mime: &str) -> String {
    let img = image::RgbImage::from_pixel(4, 2, image::Rgb([200, 30, 30]));
    let mut bytes = std::io::Cursor::new(Vec::new());
    img.write_to(&mut bytes, format).unwrap();
    format!("data:{mime};base64,{}", base64(bytes.get_ref()))
}

fn png_data_uri() -> String {
    data_uri(image::ImageFormat::Png, "image/png")
}

fn image_harness(url: &str, extra: &str) -> Harness<'static, State> {
    let component = format!(
        r#"[{{"id":"root","component":"Image","url":{},"description":"Picture"{extra}}}]"#,
        serde_json::Value::String(url.to_owned())
    );
    let mut h = harness(renderer_with(&v09_surface(&component, "{}")));
    // Decoding happens on a background thread; give it a moment.
    for _ in 0..20 {
        if h.get_by_label("Picture")
            .accesskit_node()
            .description()
            .is_none()
        {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
        settle(&mut h);
    }
    h
}

#[test]
fn a_data_png_loads_and_takes_its_aspect_ratio_in_a_medium_feature_box() {
    let h = image_harness(&png_data_uri(), "");
    let node = h.get_by_label("Picture");
    assert_eq!(node.accesskit_node().role(), egui::accesskit::Role::Image);
    assert_eq!(node.accesskit_node().description(), None, "loaded");
    // mediumFeature: 300 wide, height from the 2:1 image.
    let size = node.rect().size();
    assert_eq!(size, egui::vec2(300.0, 150.0));
}

#[test]
fn a_data_jpeg_loads_too() {
    let h = image_harness(&data_uri(image::ImageFormat::Jpeg, "image/jpeg"), "");
    let node = h.get_by_label("Picture");
    assert_eq!(node.accesskit_node().description(), None, "loaded");
    assert_eq!(node.rect().size(), egui::vec2(300.0, 150.0));
}

#[test]
fn a_data_svg_loads_through_our_svg_data_loader() {
    let svg = r#"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="blue"/></svg>"#;
    let uri = format!("data:image/svg+xml;base64,{}", base64(svg.as_bytes()));
    let h = image_harness(&uri, r#","variant":"avatar""#);
    let node = h.get_by_label("Picture");
    assert_eq!(node.accesskit_node().description(), None, "loaded");
    assert_eq!(node.rect().size(), egui::vec2(40.0, 40.0));
}

#[test]
fn file_and_javascript_image_urls_are_refused_visibly() {
    for url in [
        "file:///etc/passwd",
        "javascript:alert(1)",
        "/local/path.png",
        "http://plain.example/x.png",
        "data:text/html,<b>x</b>",
        "data:",
        " JavaScript:alert(1)",
    ] {
        let h = image_harness(url, r#","variant":"smallFeature""#);
        let node = h.get_by_label("Picture");
        let description = node.accesskit_node().description().unwrap_or_default();
        assert!(description.contains("blocked"), "{url}: {description:?}");
        assert_eq!(node.rect().size(), egui::vec2(100.0, 100.0), "{url}");
    }
}

#[test]
fn broken_data_uris_show_a_failed_state_not_a_panic() {
    for url in [
        "data:image/png;base64,!!!!",
        "data:image/png;base64,AAAA",
        "data:image/svg+xml,<svg",
    ] {
        let h = image_harness(url, "");
        let description = h
            .get_by_label("Picture")
            .accesskit_node()
            .description()
            .unwrap_or_default();
        assert!(
            description.contains("unavailable"),
            "{url}: {description:?}"
        );
    }
}

#[test]
fn image_variants_have_the_guide_sizes_and_fit_does_not_change_the_box() {
    let uri = png_data_uri();
    for (variant, fit, size) in [
        ("icon", "contain", egui::vec2(24.0, 24.0)),
        ("avatar", "cover", egui::vec2(40.0, 40.0)),
        ("smallFeature", "none", egui::vec2(100.0, 100.0)),
        ("smallFeature", "scaleDown", egui::vec2(100.0, 100.0)),
        ("header", "fill", egui::vec2(600.0 - 16.0, 200.0)),
    ] {
        let extra = format!(r#","variant":"{variant}","fit":"{fit}""#);
        let h = image_harness(&uri, &extra);
        let node = h.get_by_label("Picture");
        assert_eq!(
            node.accesskit_node().description(),
            None,
            "{variant} loaded"
        );
        assert_eq!(node.rect().size(), size, "{variant}/{fit}");
    }
}

// ---------------------------------------------------------------------------------------
// Icon

#[test]
fn the_bundled_font_has_a_glyph_for_every_basic_catalog_icon() {
    let ctx = egui::Context::default();
    Renderer::install(&ctx);
    let mut output = ctx.run_ui(egui::RawInput::default(), |_| {});
    output.textures_delta.clear();
    let font = egui::FontId::new(24.0, icon_family());
    for name in BASIC_ICON_NAMES {
        let c = icon_glyph(name).unwrap_or_else(|| panic!("no codepoint for {name}"));
        assert!(
            ctx.fonts_mut(|f| f.has_glyph(&font, c)),
            "font lacks {name} (U+{:04X})",
            c as u32
        );
    }
}

#[test]
fn icons_are_named_images_and_unknown_names_fall_back_quietly() {
    let h = text_harness(
        r#"[{"id":"root","component":"Row","children":["a","b","c","d"]},
        {"id":"a","component":"Icon","name":"shoppingCart"},
        {"id":"b","component":"Icon","name":"priority_high"},
        {"id":"c","component":"Icon","name":"noSuchIcon"},
        {"id":"d","component":"Icon","name":{"path":"/icon"}}]"#,
    );
    for label in ["shopping cart", "priority high", "no such icon"] {
        let node = h.get_by_label(label);
        assert_eq!(node.accesskit_node().role(), egui::accesskit::Role::Image);
    }
    assert_eq!(
        h.get_by_label("no such icon")
            .accesskit_node()
            .description()
            .as_deref(),
        Some("unknown icon")
    );
    assert!(
        h.get_by_label("shopping cart")
            .accesskit_node()
            .description()
            .is_none()
    );
    assert!(h.state().errors().is_empty());
}

#[test]
fn svg_path_icons_draw_and_malformed_paths_do_not_panic() {
    let long = "M1 1 L2 2 ".repeat(10_000);
    let doc = v09_surface(
        &format!(
            r#"[{{"id":"root","component":"Row","children":["a","b","c","d"]}},
            {{"id":"a","component":"Icon","name":{{"svgPath":"M12 2L2 22h20z"}}}},
            {{"id":"b","component":"Icon","name":{{"svgPath":"M12 2 Q nonsense \" /><script/>"}}}},
            {{"id":"c","component":"Icon","name":{{"svgPath":""}}}},
            {{"id":"d","component":"Icon","name":{{"svgPath":"{long}"}}}}]"#
        ),
        "{}",
    );
    let h = harness(renderer_with(&doc));
    let icons = h.get_all_by_role(egui::accesskit::Role::Image).count();
    assert_eq!(icons, 4);
    let described: Vec<_> = h
        .get_all_by_role(egui::accesskit::Role::Image)
        .map(|n| n.accesskit_node().description())
        .collect();
    assert_eq!(described[0], None, "the triangle is drawn");
    assert_eq!(described[2].as_deref(), Some("unknown icon"), "empty path");
    assert_eq!(
        described[3].as_deref(),
        Some("unknown icon"),
        "over-long path"
    );
}

// ---------------------------------------------------------------------------------------
// Video and AudioPlayer

const MEDIA_CARDS: &str = r#"[{"id":"root","component":"Column","children":["v","a"]},
        {"id":"v","component":"Video","url":"https://media.example.com/clip.mp4"},
        {"id":"a","component":"AudioPlayer","url":"https://cdn.example.org/song.mp3","description":"Morning podcast"}]"#;

#[test]
fn the_play_button_of_a_media_card_emits_open_url_for_the_host() {
    // The card of builds without `media`, and of media builds whose host plays media
    // elsewhere (`MediaOptions::in_panel: false`).
    #[allow(unused_mut, reason = "mutated only with the media feature")]
    let mut r = renderer_with(&v09_surface(MEDIA_CARDS, "{}"));
    #[cfg(feature = "media")]
    {
        r.options_mut().media.in_panel = false;
    }
    let mut h = harness(r);
    h.get_by_label("Morning podcast");
    h.get_by_label("media.example.com");
    assert!(h.state().opened_urls().is_empty());
    h.get_by_label("cdn.example.org");
    h.get_by_label("Play audio").click();
    h.run();
    h.get_by_label("Play video").click();
    h.run();
    assert_eq!(
        h.state().opened_urls(),
        [
            "https://cdn.example.org/song.mp3",
            "https://media.example.com/clip.mp4"
        ]
    );
}

#[cfg(feature = "media")]
#[test]
fn with_media_both_play_in_the_panel_and_open_nothing() {
    // Their controls are tested in tests/media/controls.rs.
    let h = text_harness(MEDIA_CARDS);
    assert_eq!(h.get_all_by_label("Play").count(), 2);
    assert!(h.query_by_label("Play video").is_none());
    assert!(h.query_by_label("Play audio").is_none());
    assert!(h.state().opened_urls().is_empty());
}

#[test]
fn a_media_card_with_a_non_http_url_cannot_be_played() {
    let mut h = text_harness(r#"[{"id":"root","component":"Video","url":"javascript:alert(1)"}]"#);
    let play = h.get_by_label("Play video");
    assert!(play.accesskit_node().is_disabled());
    play.click();
    h.run();
    assert!(h.state().opened_urls().is_empty());
}

#[test]
fn a_v1_video_shows_its_poster_through_the_image_policy() {
    let doc = format!(
        r#"{{"version":"v1.0","createSurface":{{"surfaceId":"s","catalogId":"https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json","components":[{{"id":"root","component":"Video","url":"https://x.example/v.mp4","posterUrl":"{}"}}]}}}}"#,
        png_data_uri()
    );
    let h = harness(renderer_with(&doc));
    assert!(h.state().errors().is_empty(), "{:?}", h.state().errors());
    // The card's open-link button, or (feature `media`) the player's Play.
    h.get_by_label(if cfg!(feature = "media") {
        "Play"
    } else {
        "Play video"
    });
    assert_eq!(h.get_all_by_role(egui::accesskit::Role::Image).count(), 1);
}

// ---------------------------------------------------------------------------------------
// Accessibility

#[test]
fn accessibility_label_overrides_the_visible_text_and_description_is_set() {
    let h = text_harness(
        r#"[{"id":"root","component":"Column","children":["t","i"]},
        {"id":"t","component":"Text","text":"**** (4)","accessibility":{"label":"Rated 4 of 5","description":"Average of 120 reviews"}},
        {"id":"i","component":"Icon","name":"favorite","accessibility":{"label":{"path":"/fav"}}}]"#,
    );
    let node = h.get_by_label("Rated 4 of 5");
    assert_eq!(
        node.accesskit_node().description().as_deref(),
        Some("Average of 120 reviews")
    );
    assert!(h.query_by_label("**** (4)").is_none());
}

#[test]
fn accessibility_hidden_hides_the_component_and_its_children() {
    let doc = v09_surface(
        r#"[{"id":"root","component":"Column","children":["shown","gone"]},
        {"id":"shown","component":"Text","text":"Visible to readers"},
        {"id":"gone","component":"Column","children":["inner"],"accessibility":{"hidden":{"path":"/hide"}}},
        {"id":"inner","component":"Text","text":"Decoration only"}]"#,
        r#"{"hide":true}"#,
    );
    let h = harness(renderer_with(&doc));
    assert!(
        !h.get_by_label("Visible to readers")
            .accesskit_node()
            .is_hidden()
    );
    assert!(
        h.get_by_label("Decoration only")
            .accesskit_node()
            .is_hidden()
    );
}

#[test]
fn accessibility_live_marks_a_live_region() {
    let h = text_harness(
        r#"[{"id":"root","component":"Column","children":["status","calm"]},
        {"id":"status","component":"Text","text":"3 new messages","accessibility":{"live":"polite"}},
        {"id":"calm","component":"Text","text":"Static"}]"#,
    );
    use egui::accesskit::Live;
    assert_eq!(
        h.get_by_label("3 new messages").accesskit_node().live(),
        Live::Polite
    );
    assert_eq!(h.get_by_label("Static").accesskit_node().live(), Live::Off);
}

#[test]
fn cards_and_lists_are_groups_and_lists_for_assistive_technology() {
    let h = text_harness(
        r#"[{"id":"root","component":"Card","child":"list"},
        {"id":"list","component":"List","children":["x"]},
        {"id":"x","component":"Text","text":"Row one"}]"#,
    );
    assert!(h.query_by_role(egui::accesskit::Role::Group).is_some());
    assert!(h.query_by_role(egui::accesskit::Role::List).is_some());
}

// ---------------------------------------------------------------------------------------
// Missing and unknown components, header

#[test]
fn an_unknown_component_type_is_shown_and_reported_once_per_surface_and_type() {
    let mut h = text_harness(
        r#"[{"id":"root","component":"Column","children":["a","b"]},
        {"id":"a","component":"Chart","data":[1,2]},
        {"id":"b","component":"Chart","data":[3]}]"#,
    );
    h.run_steps(5);
    assert_eq!(
        h.get_all_by_label("Unsupported component: Chart").count(),
        2
    );
    let errors = h.state().errors();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].contains("Chart"));
}

#[test]
fn show_unsupported_off_hides_the_placeholder_but_still_reports_once() {
    let doc = v09_surface(
        r#"[{"id":"root","component":"Column","children":["a","t"]},
        {"id":"a","component":"Chart"},
        {"id":"t","component":"Text","text":"Still here"}]"#,
        "{}",
    );
    let r = renderer_with(&doc).with_options(RendererOptions {
        show_unsupported: false,
        ..RendererOptions::default()
    });
    let mut h = harness(r);
    h.run_steps(3);
    h.get_by_label("Still here");
    assert!(h.query_by_label_contains("Unsupported").is_none());
    assert_eq!(h.state().errors().len(), 1);
}

#[test]
fn a_child_that_has_not_arrived_shows_a_loading_placeholder() {
    let h = text_harness(
        r#"[{"id":"root","component":"Column","children":["here","later"]},
        {"id":"here","component":"Text","text":"Arrived"}]"#,
    );
    h.get_by_label("Arrived");
    h.get_by_label("Loading…");
    assert!(h.state().errors().is_empty());
}

const THEMED: &str = r##"{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json","theme":{"primaryColor":"#00897B","agentDisplayName":"Travel Agent"}}}
{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":"Body"}]}}
"##;

#[test]
fn the_surface_header_names_the_agent_unless_the_host_turns_it_off() {
    let h = harness(renderer_with(THEMED));
    let banner = h.get_by_role(egui::accesskit::Role::Banner);
    // The agent's own name, shown as what it calls itself (it is not the host's word).
    assert_eq!(
        banner.accesskit_node().label().as_deref(),
        Some("Agent, calls itself \u{201c}Travel Agent\u{201d}")
    );
    h.get_by_role_and_label(
        egui::accesskit::Role::Label,
        "calls itself \u{201c}Travel Agent\u{201d}",
    );

    let r = renderer_with(THEMED).with_options(RendererOptions {
        show_surface_header: false,
        ..RendererOptions::default()
    });
    let h = harness(r);
    assert!(
        h.query_by_label_contains("Travel Agent").is_none(),
        "no header at all"
    );
    h.get_by_label("Body");
}

#[test]
fn the_renderer_draws_in_light_and_dark_mode_with_a_primary_colour() {
    for theme in [egui::Theme::Light, egui::Theme::Dark] {
        let h = harness_from(
            builder(400.0, 300.0).with_theme(theme),
            renderer_with(THEMED),
        );
        h.get_by_label("Body");
        assert!(h.state().errors().is_empty());
    }
}

#[test]
fn install_is_idempotent_and_the_catalog_still_has_all_content_components() {
    let ctx = egui::Context::default();
    Renderer::install(&ctx);
    Renderer::install(&ctx);
    let names = Catalog::basic().component_names().join(",");
    for n in ["Text", "Image", "Icon", "Video", "AudioPlayer"] {
        assert!(names.contains(n));
    }
}
