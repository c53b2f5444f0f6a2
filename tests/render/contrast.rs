//! A primary `Button` on an agent's green primary colour draws its label in a colour with
//! a WCAG contrast of at least 4.5:1 against the button fill (a luma threshold picked white
//! here, about 2.8:1).

use egui::Color32;
use egui_a2ui::{Catalog, Renderer, RendererOptions};

const GREEN: Color32 = Color32::from_rgb(0x4c, 0xaf, 0x50);

/// The WCAG 2 contrast ratio of two colours, from 1 (none) to 21 (black on white),
/// computed here from the definition so the test does not trust the crate's own helper.
fn contrast_ratio(a: Color32, b: Color32) -> f32 {
    fn luminance(c: Color32) -> f32 {
        let channel = |v: u8| {
            let v = f32::from(v) / 255.0;
            if v <= 0.039_28 {
                v / 12.92
            } else {
                ((v + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * channel(c.r()) + 0.7152 * channel(c.g()) + 0.0722 * channel(c.b())
    }
    let (la, lb) = (luminance(a), luminance(b));
    let (hi, lo) = if la >= lb { (la, lb) } else { (lb, la) };
    (hi + 0.05) / (lo + 0.05)
}

fn document(primary: &str) -> String {
    format!(
        r##"{{"version":"v0.9","createSurface":{{"surfaceId":"s","catalogId":"https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json","theme":{{"primaryColor":"{primary}"}}}}}}
{{"version":"v0.9","updateComponents":{{"surfaceId":"s","components":[{{"id":"root","component":"Button","variant":"primary","child":"label","action":{{"event":{{"name":"buy"}}}}}},{{"id":"label","component":"Text","text":"Buy now"}}]}}}}
"##
    )
}

/// The colour each drawn text ends up painted in, by text.
fn text_colours(shapes: &[egui::epaint::ClippedShape]) -> Vec<(String, Color32)> {
    fn walk(shape: &egui::Shape, out: &mut Vec<(String, Color32)>) {
        match shape {
            egui::Shape::Vec(v) => v.iter().for_each(|s| walk(s, out)),
            egui::Shape::Text(t) => {
                let colour = t.override_text_color.unwrap_or_else(|| {
                    t.galley
                        .job
                        .sections
                        .first()
                        .map(|s| s.format.color)
                        .filter(|c| *c != Color32::PLACEHOLDER)
                        .unwrap_or(t.fallback_color)
                });
                out.push((t.galley.text().to_owned(), colour));
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    for s in shapes {
        walk(&s.shape, &mut out);
    }
    out
}

/// Every filled rectangle's fill colour.
fn rect_fills(shapes: &[egui::epaint::ClippedShape]) -> Vec<Color32> {
    fn walk(shape: &egui::Shape, out: &mut Vec<Color32>) {
        match shape {
            egui::Shape::Vec(v) => v.iter().for_each(|s| walk(s, out)),
            egui::Shape::Rect(r) => out.push(r.fill),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for s in shapes {
        walk(&s.shape, &mut out);
    }
    out
}

fn draw(primary: &str, dark: bool) -> Vec<egui::epaint::ClippedShape> {
    let mut renderer = Renderer::new(Catalog::basic()).with_options(RendererOptions {
        show_surface_header: false,
        ..RendererOptions::default()
    });
    renderer.feed_document(document(primary).as_bytes());
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
        shapes = output.shapes;
    }
    shapes
}

#[test]
fn a_green_primary_button_label_reaches_4_5_to_1() {
    for dark in [false, true] {
        let shapes = draw("#4CAF50", dark);
        assert!(
            rect_fills(&shapes).contains(&GREEN),
            "the button is filled with the primary colour"
        );
        let colours = text_colours(&shapes);
        let (_, label) = colours
            .iter()
            .find(|(text, _)| text == "Buy now")
            .unwrap_or_else(|| panic!("label drawn: {colours:?}"));
        let ratio = contrast_ratio(*label, GREEN);
        assert!(
            ratio >= 4.5,
            "label {label:?} on #4CAF50: {ratio:.2}:1 (dark mode: {dark})"
        );
    }
}

#[test]
fn primary_button_labels_are_readable_on_every_primary_colour_tried() {
    for primary in [
        "#00C853", "#43A047", "#00BFFF", "#FFEB3B", "#6A1B9A", "#00897B",
    ] {
        let hex = u32::from_str_radix(&primary[1..], 16).expect("hex");
        let [_, r, g, b] = hex.to_be_bytes();
        let fill = Color32::from_rgb(r, g, b);
        let shapes = draw(primary, false);
        let colours = text_colours(&shapes);
        let (_, label) = colours
            .iter()
            .find(|(text, _)| text == "Buy now")
            .unwrap_or_else(|| panic!("{primary}: label drawn: {colours:?}"));
        let ratio = contrast_ratio(*label, fill);
        assert!(ratio >= 4.5, "{primary}: {label:?} at {ratio:.2}:1");
    }
}
