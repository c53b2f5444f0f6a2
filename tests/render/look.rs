//! The reference's look in the shapes we paint: the colours of `@a2ui/web_core` 0.11.0's
//! stylesheet (`render::Palette`), light and dark, on the controls it styles.

use egui::Color32;
use egui_a2ui::render::Palette;
use egui_a2ui::{Catalog, Renderer, RendererOptions};

const CATALOG: &str = "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json";

/// One surface whose root is `components[0]`, with an optional `theme.primaryColor`.
fn document(components: &str, primary: Option<&str>) -> String {
    let theme = primary.map_or(String::new(), |p| {
        format!(r#","theme":{{"primaryColor":"{p}"}}"#)
    });
    format!(
        r#"{{"version":"v0.9","createSurface":{{"surfaceId":"s","catalogId":"{CATALOG}"{theme}}}}}
{{"version":"v0.9","updateComponents":{{"surfaceId":"s","components":[{components}]}}}}
"#
    )
}

fn draw(doc: &str, dark: bool) -> Vec<egui::Shape> {
    let mut renderer = Renderer::new(Catalog::basic()).with_options(RendererOptions {
        show_surface_header: false,
        ..RendererOptions::default()
    });
    renderer.feed_document(doc.as_bytes());
    let ctx = egui::Context::default();
    ctx.set_visuals(if dark {
        egui::Visuals::dark()
    } else {
        egui::Visuals::light()
    });
    let mut shapes = Vec::new();
    for _ in 0..3 {
        let mut output = ctx.run_ui(egui::RawInput::default(), |ui| {
            let _ = renderer.ui(ui);
        });
        output.textures_delta.clear();
        shapes = output.shapes.into_iter().map(|s| s.shape).collect();
    }
    let mut flat = Vec::new();
    fn walk(s: egui::Shape, out: &mut Vec<egui::Shape>) {
        match s {
            egui::Shape::Vec(v) => {
                for s in v {
                    walk(s, out);
                }
            }
            s => out.push(s),
        }
    }
    for s in shapes {
        walk(s, &mut flat);
    }
    flat
}

/// (text, colour it is painted in, italic) of every text shape.
fn texts(shapes: &[egui::Shape]) -> Vec<(String, Color32, bool)> {
    shapes
        .iter()
        .filter_map(|s| match s {
            egui::Shape::Text(t) => {
                let first = t.galley.job.sections.first();
                let colour = t.override_text_color.unwrap_or_else(|| {
                    first
                        .map(|s| s.format.color)
                        .filter(|c| *c != Color32::PLACEHOLDER)
                        .unwrap_or(t.fallback_color)
                });
                let italic = first.is_some_and(|s| s.format.italics);
                Some((t.galley.text().to_owned(), colour, italic))
            }
            _ => None,
        })
        .collect()
}

fn text<'a>(all: &'a [(String, Color32, bool)], needle: &str) -> &'a (String, Color32, bool) {
    all.iter()
        .find(|(t, _, _)| t == needle)
        .unwrap_or_else(|| panic!("{needle:?} not drawn: {all:?}"))
}

fn rects(shapes: &[egui::Shape]) -> Vec<&egui::epaint::RectShape> {
    shapes
        .iter()
        .filter_map(|s| match s {
            egui::Shape::Rect(r) => Some(r),
            _ => None,
        })
        .collect()
}

const PRIMARY_BUTTON: &str = r#"{"id":"root","component":"Button","variant":"primary","child":"l","action":{"event":{"name":"go"}}},{"id":"l","component":"Text","text":"Go"}"#;

#[test]
fn a_primary_button_is_filled_with_the_primary_and_labelled_in_white() {
    for dark in [false, true] {
        let shapes = draw(&document(PRIMARY_BUTTON, None), dark);
        let primary = Palette::LIGHT.primary;
        assert_eq!(
            primary,
            Color32::from_rgb(0x11, 0x77, 0xee),
            "--a2ui-color-primary: #17e"
        );
        assert!(
            rects(&shapes).iter().any(|r| r.fill == primary),
            "no #17e fill (dark: {dark})"
        );
        assert_eq!(text(&texts(&shapes), "Go").1, Color32::WHITE);
    }
}

#[test]
fn an_agent_primary_fills_the_button_with_readable_text() {
    let shapes = draw(&document(PRIMARY_BUTTON, Some("#FFEB3B")), false);
    let yellow = Color32::from_rgb(0xff, 0xeb, 0x3b);
    assert!(rects(&shapes).iter().any(|r| r.fill == yellow));
    assert_eq!(text(&texts(&shapes), "Go").1, Color32::BLACK);
}

#[test]
fn a_default_button_sits_on_the_surface_colour_with_the_border() {
    let doc = document(
        r#"{"id":"root","component":"Button","child":"l","action":{"event":{"name":"go"}}},{"id":"l","component":"Text","text":"Go"}"#,
        None,
    );
    for (dark, palette) in [(false, Palette::LIGHT), (true, Palette::DARK)] {
        let shapes = draw(&doc, dark);
        assert!(
            rects(&shapes)
                .iter()
                .any(|r| r.fill == palette.surface && r.stroke.color == palette.border),
            "dark: {dark}"
        );
        assert_eq!(text(&texts(&shapes), "Go").1, palette.on_surface);
    }
}

#[test]
fn an_invalid_field_has_the_error_border_and_message() {
    let doc = document(
        r#"{"id":"root","component":"TextField","label":"Email","value":"","checks":[{"condition":{"call":"required","args":{"value":""}},"message":"Email is required"}]}"#,
        None,
    );
    for (dark, palette) in [(false, Palette::LIGHT), (true, Palette::DARK)] {
        let shapes = draw(&doc, dark);
        assert!(
            rects(&shapes)
                .iter()
                .any(|r| r.stroke.color == palette.error && r.fill == palette.input),
            "no error-bordered input box (dark: {dark})"
        );
        assert_eq!(text(&texts(&shapes), "Email is required").1, palette.error);
    }
    // A valid field keeps the plain border.
    let valid = document(
        r#"{"id":"root","component":"TextField","label":"Email","value":"a@b.c"}"#,
        None,
    );
    let shapes = draw(&valid, false);
    assert!(
        rects(&shapes)
            .iter()
            .any(|r| r.stroke.color == Palette::LIGHT.border)
    );
    assert!(
        !rects(&shapes)
            .iter()
            .any(|r| r.stroke.color == Palette::LIGHT.error)
    );
}

#[test]
fn captions_are_italic_in_the_caption_colour() {
    let doc = document(
        r#"{"id":"root","component":"Column","children":["c","b"]},{"id":"c","component":"Text","text":"Small print","variant":"caption"},{"id":"b","component":"Text","text":"Body"}"#,
        None,
    );
    for (dark, palette) in [(false, Palette::LIGHT), (true, Palette::DARK)] {
        let all = texts(&draw(&doc, dark));
        let (_, colour, italic) = text(&all, "Small print");
        assert!(*italic);
        assert_eq!(*colour, palette.caption);
        let (_, body, upright) = text(&all, "Body");
        assert!(!*upright);
        assert_eq!(*body, palette.on_background);
    }
}

#[test]
fn a_checked_box_is_filled_with_the_primary() {
    let on = document(
        r#"{"id":"root","component":"CheckBox","label":"Subscribe","value":true}"#,
        None,
    );
    let off = document(
        r#"{"id":"root","component":"CheckBox","label":"Subscribe","value":false}"#,
        None,
    );
    let primary = Palette::LIGHT.primary;
    assert!(rects(&draw(&on, false)).iter().any(|r| r.fill == primary));
    let unchecked = draw(&off, false);
    assert!(!rects(&unchecked).iter().any(|r| r.fill == primary));
    assert!(
        rects(&unchecked)
            .iter()
            .any(|r| r.fill == Palette::LIGHT.input
                && r.stroke.color == Palette::LIGHT.border_strong)
    );
}

#[test]
fn the_active_tab_is_in_the_primary_and_the_others_muted() {
    let doc = document(
        r#"{"id":"root","component":"Tabs","tabs":[{"title":"One","child":"a"},{"title":"Two","child":"b"}]},{"id":"a","component":"Text","text":"A"},{"id":"b","component":"Text","text":"B"}"#,
        None,
    );
    let all = texts(&draw(&doc, false));
    assert_eq!(text(&all, "One").1, Palette::LIGHT.primary);
    assert_eq!(text(&all, "Two").1, Palette::LIGHT.tab_inactive);
}
