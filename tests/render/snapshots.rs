//! Snapshot images of representative fixtures, light and dark (`tests/snapshots/*.png`).
//!
//! Behind the `snapshots` feature because it builds wgpu (several minutes on 2 cores):
//! `cargo test --features snapshots --test render snapshots::`. Rendering needs no GPU: wgpu's GL
//! backend on Mesa (EGL, llvmpipe) works headless; without Mesa's EGL the test reports
//! `ignored` with the packages to install (the build script sets `cfg(has_mesa_egl)`). Bless
//! changes with `UPDATE_SNAPSHOTS=true` and review the diffs.
//!
//! The README screenshots are written by the ignored test at the bottom:
//! `cargo test --features snapshots --test render snapshots:: -- --ignored`.

#![cfg(feature = "snapshots")]

use crate::common::content as content_util;
use crate::common::pixels;

use std::path::Path;

use content_util::{State, renderer_with};
use egui_kittest::{Harness, SnapshotOptions, SnapshotResults};

const SPEC: &str = "tests/data/a2ui/specification";

/// (snapshot name, fixture path under the spec folder).
const FIXTURES: &[(&str, &str)] = &[
    (
        "markdown",
        "v0_9/catalogs/basic/examples/35_markdown-text.json",
    ),
    (
        "login_form",
        "v0_9/catalogs/basic/examples/09_login-form.json",
    ),
    (
        "flight_status",
        "v0_8/json/catalogs/basic/examples/01_flight-status.json",
    ),
    (
        "contact_card",
        "v0_9/catalogs/basic/examples/25_contact-card.json",
    ),
    (
        "shipping_status",
        "v0_9/catalogs/basic/examples/21_shipping-status.json",
    ),
    (
        "coffee_order",
        "v0_8/json/catalogs/basic/examples/13_coffee-order.json",
    ),
    (
        "user_profile",
        "v0_8/json/catalogs/basic/examples/08_user-profile.json",
    ),
    (
        "music_player",
        "v0_8/json/catalogs/basic/examples/06_music-player.json",
    ),
    ("contact_form", "v0_9/test/cases/contact_form_example.jsonl"),
];

/// A document exercising every content component: variants, Markdown, icons, an inline
/// image, a refused image, media cards, and a themed header (one message per paragraph).
const SHOWCASE: &str = r##"{"version":"v0.9","createSurface":{"surfaceId":"show","catalogId":"https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json","theme":{"primaryColor":"#6A1B9A","agentDisplayName":"Content showcase"}}}

{"version":"v0.9","updateComponents":{"surfaceId":"show","components":[
{"id":"root","component":"Column","children":["h1","h3","body","caption","icons","images","video","audio"]},
{"id":"h1","component":"Text","text":"Heading one","variant":"h1"},
{"id":"h3","component":"Text","text":"Heading three","variant":"h3"},
{"id":"body","component":"Text","text":"Body text with **strong**, *emphasis*, `code` and a [link](https://a2ui.org).\n\n- first point\n- second point\n  1. nested one"},
{"id":"caption","component":"Text","text":"A muted caption","variant":"caption"},
{"id":"icons","component":"Row","children":["i1","i2","i3","i4","i5","i6","i7","i8"]},
{"id":"i1","component":"Icon","name":"home"},
{"id":"i2","component":"Icon","name":"shoppingCart"},
{"id":"i3","component":"Icon","name":"favoriteOff"},
{"id":"i4","component":"Icon","name":"starHalf"},
{"id":"i5","component":"Icon","name":"volumeUp"},
{"id":"i6","component":"Icon","name":"warning"},
{"id":"i7","component":"Icon","name":{"svgPath":"M12 2L2 22h20z"}},
{"id":"i8","component":"Icon","name":"notAnIcon"},
{"id":"images","component":"Row","children":["img1","img2","img3"]},
{"id":"img1","component":"Image","url":"data:image/svg+xml;utf8,<svg xmlns='http://www.w3.org/2000/svg' width='40' height='40'><circle cx='20' cy='20' r='18' fill='%23FFA000'/></svg>","variant":"avatar","description":"Avatar"},
{"id":"img2","component":"Image","url":"data:image/svg+xml;utf8,<svg xmlns='http://www.w3.org/2000/svg' width='200' height='100'><rect width='200' height='100' fill='%230288D1'/><circle cx='100' cy='50' r='40' fill='%23FFFFFF'/></svg>","variant":"smallFeature","fit":"contain","description":"Contained"},
{"id":"img3","component":"Image","url":"file:///etc/passwd","variant":"smallFeature","description":"Refused"},
{"id":"video","component":"Video","url":"https://media.example.com/intro.mp4"},
{"id":"audio","component":"AudioPlayer","url":"https://cdn.example.org/podcast.mp3","description":"Episode 12: Agents and UIs"}
]}}
"##;

/// [`SHOWCASE`] as JSONL: each blank-line separated message on one line.
fn showcase() -> String {
    SHOWCASE
        .split("\n\n")
        .map(|m| {
            serde_json::from_str::<serde_json::Value>(m)
                .expect("showcase JSON")
                .to_string()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn document(path: &str) -> String {
    let text = std::fs::read_to_string(Path::new(SPEC).join(path)).expect("fixture");
    // The contact form ends by deleting its surface; keep what is shown before that.
    text.lines()
        .filter(|l| !l.contains("deleteSurface"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn snapshot_harness(doc: &str, theme: egui::Theme) -> Harness<'static, State> {
    snapshot_harness_with(renderer_with(doc), theme)
}

/// [`snapshot_harness`] over a renderer the test set up.
fn snapshot_harness_with(
    renderer: egui_a2ui::Renderer,
    theme: egui::Theme,
) -> Harness<'static, State> {
    let mut h = content_util::builder(420.0, 560.0)
        .with_theme(theme)
        .allow_missing_glyphs()
        .build_ui_state(
            |ui, state: &mut State| {
                // A panel, as a host app has, so the background follows the theme (also
                // under the harness's own margin).
                let fill = ui.visuals().panel_fill;
                ui.ctx()
                    .layer_painter(egui::LayerId::background())
                    .rect_filled(ui.max_rect().expand(32.0), 0.0, fill);
                egui::Frame::central_panel(ui.style()).show(ui, |ui| {
                    ui.set_min_size(ui.available_size());
                    let events = state.renderer.ui(ui);
                    state.events.extend(events);
                });
            },
            State {
                renderer,
                events: Vec::new(),
            },
        );
    content_util::settle(&mut h);
    h
}

fn options() -> SnapshotOptions {
    // Software rasterisers differ slightly; keep the tolerance small and reviewed.
    SnapshotOptions::new().threshold(1.0).max_failed_pixels(40)
}

#[test]
#[cfg_attr(
    not(has_mesa_egl),
    ignore = "Mesa EGL not found (libEGL.so.1, libEGL_mesa.so.0, swrast): apt-get install libegl1 libegl-mesa0 libgl1-mesa-dri"
)]
fn representative_fixtures_match_their_light_and_dark_snapshots() {
    let mut results = SnapshotResults::new();
    let mut docs: Vec<(&str, String)> = FIXTURES
        .iter()
        .map(|(name, path)| (*name, document(path)))
        .collect();
    docs.push(("showcase", showcase()));
    for (name, doc) in &docs {
        for (theme, suffix) in [(egui::Theme::Light, "light"), (egui::Theme::Dark, "dark")] {
            let mut h = snapshot_harness(doc, theme);
            results.add(h.try_snapshot_options(format!("{name}_{suffix}"), &options()));
        }
    }
    results.unwrap();
}

/// The agent boundary (issue 41): a surface of a store with a host-set origin, framed and
/// headed by it, its Modal open with its attribution line and an obscured field marked
/// with where its text goes.
#[test]
#[cfg_attr(
    not(has_mesa_egl),
    ignore = "Mesa EGL not found (libEGL.so.1, libEGL_mesa.so.0, swrast): apt-get install libegl1 libegl-mesa0 libgl1-mesa-dri"
)]
fn an_agent_surface_with_its_origin_matches_its_snapshots() {
    use egui_kittest::kittest::Queryable as _;
    let doc = concat!(
        r#"{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json","theme":{"agentDisplayName":"Your App Security"}}}"#,
        "\n",
        r#"{"version":"v0.9","updateComponents":{"surfaceId":"s","components":["#,
        r#"{"id":"root","component":"Modal","trigger":"open","content":"dialog"},"#,
        r#"{"id":"open","component":"Button","child":"open-label","action":{"event":{"name":"noop"}}},"#,
        r#"{"id":"open-label","component":"Text","text":"Session expired: continue"},"#,
        r#"{"id":"dialog","component":"Column","children":["title","pw"]},"#,
        r#"{"id":"title","component":"Text","text":"Sign in to Your App","variant":"h3"},"#,
        r#"{"id":"pw","component":"TextField","label":"Password","variant":"obscured","value":{"path":"/pw"}}"#,
        "]}}\n",
    );
    let mut results = SnapshotResults::new();
    for (theme, suffix) in [(egui::Theme::Light, "light"), (egui::Theme::Dark, "dark")] {
        let mut r = renderer_with(doc);
        r.store_mut().set_origin(Some(
            egui_a2ui::model::AgentOrigin::new("Travel agent")
                .with_host("https://agents.example.com/a2a"),
        ));
        let mut h = snapshot_harness_with(r, theme);
        h.get_by_label("Session expired: continue").click();
        content_util::settle(&mut h);
        results.add(h.try_snapshot_options(format!("agent_boundary_{suffix}"), &options()));
    }
    results.unwrap();
}

#[test]
#[ignore = "writes assets/screenshots/*.png for the README"]
fn write_readme_screenshots() {
    let shots = [
        ("showcase_light", showcase(), egui::Theme::Light),
        (
            "login_form_dark",
            document("v0_9/catalogs/basic/examples/09_login-form.json"),
            egui::Theme::Dark,
        ),
        (
            "contact_card_light",
            document("v0_9/catalogs/basic/examples/25_contact-card.json"),
            egui::Theme::Light,
        ),
        (
            "shipping_status_dark",
            document("v0_9/catalogs/basic/examples/21_shipping-status.json"),
            egui::Theme::Dark,
        ),
    ];
    std::fs::create_dir_all("assets/screenshots").expect("dir");
    for (name, doc, theme) in shots {
        let mut h = snapshot_harness(&doc, theme);
        let image = h.render().expect("render");
        // Crop the empty panel below and right of the content (plus a margin).
        let bg = *image.get_pixel(image.width() - 1, image.height() - 1);
        let (mut w, mut hgt) = (1, 1);
        for (x, y, p) in image.enumerate_pixels() {
            if *p != bg {
                w = w.max(x + 1);
                hgt = hgt.max(y + 1);
            }
        }
        let (w, hgt) = ((w + 8).min(image.width()), (hgt + 8).min(image.height()));
        image::imageops::crop_imm(&image, 0, 0, w, hgt)
            .to_image()
            .save(format!("assets/screenshots/{name}.png"))
            .expect("save");
    }
}

/// The README gallery: (file stem, reference render name, fixture under the spec folder).
const GALLERY: &[(&str, &str, &str)] = &[
    (
        "contact_card",
        "25_contact-card",
        "v0_9/catalogs/basic/examples/25_contact-card.json",
    ),
    (
        "flight_status",
        "01_flight-status",
        "v0_9/catalogs/basic/examples/01_flight-status.json",
    ),
    (
        "login_form",
        "09_login-form",
        "v0_9/catalogs/basic/examples/09_login-form.json",
    ),
    (
        "contact_form",
        "contact_form_example",
        "v0_9/test/cases/contact_form_example.jsonl",
    ),
];

/// Our render of `path` as the web reference page draws it (`a2ui_dump --png`'s page):
/// 420x560, surfaces at 16 px on the palette's page background.
fn reference_page_render(path: &str, theme: egui::Theme) -> image::RgbaImage {
    let bytes = std::fs::read(Path::new(SPEC).join(path)).expect("fixture");
    let options = egui_a2ui::render::GeometryOptions {
        keep_deleted: true,
        fixture: path.to_owned(),
        ..Default::default()
    };
    pixels::render_page(&bytes, &options, theme).expect("render")
}

#[test]
#[ignore = "writes assets/screenshots/gallery_*.png; run by scripts/gallery.sh"]
fn write_reference_gallery() {
    // The reference renders live outside the repository (`shared/web-reference/public`).
    let reference = std::env::var("A2UI_WEB_REFERENCE").expect("A2UI_WEB_REFERENCE=DIR");
    std::fs::create_dir_all("assets/screenshots").expect("dir");
    for (stem, name, path) in GALLERY {
        let theirs = image::open(Path::new(&reference).join(format!("{name}.png")))
            .expect("reference png")
            .to_rgba8();
        let ours = reference_page_render(path, egui::Theme::Light);
        let gap = 8;
        let mut out = image::RgbaImage::from_pixel(
            theirs.width() * 2 + gap,
            theirs.height(),
            image::Rgba([255, 255, 255, 255]),
        );
        image::imageops::overlay(&mut out, &theirs, 0, 0);
        image::imageops::overlay(&mut out, &ours, i64::from(theirs.width() + gap), 0);
        out.save(format!("assets/screenshots/gallery_{stem}.png"))
            .expect("save");
    }
    // Dark mode (the stylesheet's dark scheme; the reference renders only the light one):
    // ours, two fixtures side by side.
    for pair in GALLERY.chunks(2) {
        let images: Vec<_> = pair
            .iter()
            .map(|(_, _, path)| reference_page_render(path, egui::Theme::Dark))
            .collect();
        let (w, h) = (images[0].width(), images[0].height());
        let gap = 8;
        let mut out = image::RgbaImage::from_pixel(
            w * images.len() as u32 + gap * (images.len() as u32 - 1),
            h,
            image::Rgba([255, 255, 255, 255]),
        );
        for (i, img) in images.iter().enumerate() {
            image::imageops::overlay(&mut out, img, i64::from((w + gap) * i as u32), 0);
        }
        let stems: Vec<&str> = pair.iter().map(|(stem, _, _)| *stem).collect();
        out.save(format!(
            "assets/screenshots/gallery_dark_{}.png",
            stems.join("_")
        ))
        .expect("save");
    }
}

/// The search-results rows of issue 42 (the viewer's "Search results" sample): a Column of
/// title and subtitle beside a "Reserve" Button, with and without a thumbnail. The buttons
/// stay one line and full width; the columns take what they leave.
#[test]
#[cfg_attr(
    not(has_mesa_egl),
    ignore = "Mesa EGL not found (libEGL.so.1, libEGL_mesa.so.0, swrast): apt-get install libegl1 libegl-mesa0 libgl1-mesa-dri"
)]
fn search_result_rows_match_their_snapshot() {
    let doc = std::fs::read_to_string("assets/samples/showcase/search-results.jsonl")
        .expect("the search-results sample");
    let mut h = snapshot_harness(&doc, egui::Theme::Light);
    h.snapshot_options("search_results_light", &options());
}
