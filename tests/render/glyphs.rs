//! No tofu in any public fixture: every character of every text the renderer draws is
//! checked against the fonts installed in the context (the ones a host gets by default,
//! installed by the renderer itself on its first frame).
//!
//! Each fixture is drawn headless for a few passes; the text shapes of the last pass are
//! walked, and each character of each text section is looked up with egui's
//! `Fonts::has_glyph` in that section's font family (Proportional, the bold family, the
//! icon font...). Control characters are skipped (egui draws nothing for them).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use egui_a2ui::UrlPolicy;
use egui_a2ui::render::ImagePolicy;
use egui_a2ui::{Catalog, Renderer, RendererOptions};

const SPEC: &str = "tests/data/a2ui/specification";

/// Every public example stream: v0.8 and v0.9, basic and minimal catalogs, and the contact
/// form test streams.
fn fixtures() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in [
        "v0_8/json/catalogs/basic/examples",
        "v0_8/json/catalogs/minimal/examples",
        "v0_9/catalogs/basic/examples",
        "v0_9/catalogs/minimal/examples",
    ] {
        let dir = Path::new(SPEC).join(dir);
        for entry in std::fs::read_dir(&dir).expect("fixture dir") {
            let path = entry.expect("entry").path();
            if path.extension().is_some_and(|e| e == "json") {
                files.push(path);
            }
        }
    }
    for version in ["v0_8", "v0_9"] {
        let path = Path::new(SPEC)
            .join(version)
            .join("test/cases/contact_form_example.jsonl");
        if path.exists() {
            files.push(path);
        }
    }
    files.sort();
    assert!(files.len() >= 40, "fixtures missing: {}", files.len());
    files
}

/// The fixture's bytes; a `.jsonl` test stream without its final `deleteSurface`, so
/// there is something to see.
fn fixture_bytes(path: &Path) -> Vec<u8> {
    let text = std::fs::read_to_string(path).expect("fixture");
    if path.extension().is_some_and(|e| e == "jsonl") {
        let kept: Vec<&str> = text
            .lines()
            .filter(|l| !l.contains("deleteSurface"))
            .collect();
        kept.join("\n").into_bytes()
    } else {
        text.into_bytes()
    }
}

fn short_name(path: &Path) -> String {
    let rel = path.strip_prefix(SPEC).unwrap_or(path);
    rel.display().to_string()
}

/// Tests never fetch URLs: no image loads at all.
struct NoImages;

impl ImagePolicy for NoImages {
    fn allows(&self, _url: &str) -> bool {
        false
    }
}

/// What one fixture drew: how many characters were checked, and the characters no font of
/// their family has (with the family).
#[derive(Default)]
struct Coverage {
    checked: usize,
    missing: BTreeMap<char, String>,
    /// The non-ASCII characters drawn.
    non_ascii: std::collections::BTreeSet<char>,
}

fn walk_shape(shape: &egui::Shape, ctx: &egui::Context, out: &mut Coverage) {
    match shape {
        egui::Shape::Vec(shapes) => {
            for s in shapes {
                walk_shape(s, ctx, out);
            }
        }
        egui::Shape::Text(text) => {
            let job = &text.galley.job;
            for section in &job.sections {
                let range = section.byte_range.start.0..section.byte_range.end.0;
                let Some(slice) = job.text.get(range) else {
                    continue;
                };
                let font = &section.format.font_id;
                for c in slice.chars().filter(|c| !c.is_control()) {
                    out.checked += 1;
                    if !c.is_ascii() {
                        out.non_ascii.insert(c);
                    }
                    if !ctx.fonts_mut(|f| f.has_glyph(font, c)) {
                        out.missing
                            .entry(c)
                            .or_insert_with(|| format!("{:?}", font.family));
                    }
                }
            }
        }
        _ => {}
    }
}

/// Draw `document` on a fresh context for a few passes and check the last pass's text.
fn coverage(document: &[u8], install_fonts: bool) -> Coverage {
    let mut renderer = Renderer::new(Catalog::basic()).with_options(RendererOptions {
        url_policy: UrlPolicy::default().with_image_policy(NoImages),
        install_fonts,
        ..RendererOptions::default()
    });
    renderer.feed_document(document);
    let ctx = egui::Context::default();
    let input = || egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(
            egui::Pos2::ZERO,
            egui::vec2(700.0, 1400.0),
        )),
        ..Default::default()
    };
    let mut last = None;
    // Fonts and the icon font become active one pass after the renderer installs them.
    for _ in 0..4 {
        let mut output = ctx.run_ui(input(), |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                let _ = renderer.ui(ui);
            });
        });
        output.textures_delta.clear();
        last = Some(output.shapes);
    }
    let mut out = Coverage::default();
    for clipped in last.unwrap_or_default() {
        walk_shape(&clipped.shape, &ctx, &mut out);
    }
    out
}

fn describe(missing: &BTreeMap<char, String>) -> String {
    missing
        .iter()
        .map(|(c, family)| format!("{c:?} U+{:04X} in {family}", *c as u32))
        .collect::<Vec<_>>()
        .join(", ")
}

#[test]
fn every_glyph_drawn_by_every_public_fixture_is_in_an_installed_font() {
    let mut failures = Vec::new();
    let mut total = 0;
    let mut non_ascii = std::collections::BTreeSet::new();
    for path in fixtures() {
        let bytes = fixture_bytes(&path);
        let cov = coverage(&bytes, true);
        assert!(cov.checked > 0, "{}: drew no text", short_name(&path));
        total += cov.checked;
        non_ascii.extend(cov.non_ascii.iter().copied());
        if !cov.missing.is_empty() {
            failures.push(format!("{}: {}", short_name(&path), describe(&cov.missing)));
        }
    }
    eprintln!(
        "checked {total} drawn characters; the non-ASCII ones: {:?}",
        non_ascii.iter().collect::<String>()
    );
    assert!(failures.is_empty(), "tofu:\n{}", failures.join("\n"));
}

/// The check is not vacuous: with egui's fonts only (the renderer told not to install its
/// own, as before the bundled fonts), the flight-status fixtures' `→` is reported (the
/// test prints the tofu of each fixture with non-ASCII text in that set-up), and so is a
/// private-use character with the bundled fonts.
#[test]
fn the_check_reports_characters_no_installed_font_has() {
    let mut tofu = BTreeMap::new();
    for path in fixtures() {
        let bytes = fixture_bytes(&path);
        let text = String::from_utf8_lossy(&bytes);
        // Only fixtures with non-ASCII text (raw or `\u` escaped) can lack a glyph.
        if text.is_ascii() && !text.contains("\\u") {
            continue;
        }
        let cov = coverage(&bytes, false);
        if !cov.missing.is_empty() {
            eprintln!(
                "egui's fonts only: {}: {}",
                short_name(&path),
                describe(&cov.missing)
            );
            tofu.insert(short_name(&path), cov.missing);
        }
    }
    for flight in [
        "v0_8/json/catalogs/basic/examples/01_flight-status.json",
        "v0_9/catalogs/basic/examples/01_flight-status.json",
    ] {
        assert!(
            tofu.get(flight).is_some_and(|m| m.contains_key(&'→')),
            "egui's fonts alone should lack → in {flight}"
        );
    }

    let private_use = br#"{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json"}}
{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":"Plane 15 \udb80\udc01 and \ue000 here"}]}}
"#;
    let cov = coverage(private_use, true);
    assert!(
        cov.missing.contains_key(&'\u{F0001}'),
        "a private-use character must be reported: {}",
        describe(&cov.missing)
    );
}

/// egui's own missing-glyph check agrees: drawing every fixture with
/// `MissingGlyphPolicy::Panic` (egui panics right before it would draw tofu) passes.
#[test]
fn egui_draws_no_tofu_for_any_fixture_under_the_panic_policy() {
    for path in fixtures() {
        let bytes = fixture_bytes(&path);
        let mut renderer = Renderer::new(Catalog::basic()).with_options(RendererOptions {
            url_policy: UrlPolicy::default().with_image_policy(NoImages),
            ..RendererOptions::default()
        });
        renderer.feed_document(&bytes);
        let ctx = egui::Context::default();
        ctx.set_missing_glyph_policy(egui::MissingGlyphPolicy::Panic);
        Renderer::install(&ctx);
        for _ in 0..3 {
            let mut output = ctx.run_ui(egui::RawInput::default(), |ui| {
                let _ = renderer.ui(ui);
            });
            output.textures_delta.clear();
        }
    }
}

/// The panic-policy test above can fail: without the bundled fonts, egui panics on the
/// flight-status fixture's `→`.
#[test]
#[should_panic(expected = "No glyph for")]
fn egui_panics_on_tofu_without_the_bundled_fonts() {
    let path = Path::new(SPEC).join("v0_9/catalogs/basic/examples/01_flight-status.json");
    let mut renderer = Renderer::new(Catalog::basic()).with_options(RendererOptions {
        url_policy: UrlPolicy::default().with_image_policy(NoImages),
        install_fonts: false,
        ..RendererOptions::default()
    });
    renderer.feed_document(&fixture_bytes(&path));
    let ctx = egui::Context::default();
    ctx.set_missing_glyph_policy(egui::MissingGlyphPolicy::Panic);
    for _ in 0..3 {
        let mut output = ctx.run_ui(egui::RawInput::default(), |ui| {
            let _ = renderer.ui(ui);
        });
        output.textures_delta.clear();
    }
}
