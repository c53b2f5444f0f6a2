//! The pixel look score: a document painted as the web reference page
//! (`render_page`, through egui_kittest's wgpu renderer) and `compare_pixels.py`'s metric
//! ported to Rust (`score`). Shared by `tests/conformance/fidelity.rs`, `tests/render/snapshots.rs` and
//! `a2ui_dump --png` (the tools crate includes this file).
//!
//! The metric, as the script defines it: both images are converted to CIELAB (sRGB, D65,
//! CIE76), blurred with a 3x3 box (edge pixels repeated), and compared pixel by pixel inside
//! the reference's surface boxes; a pixel matches when the colour difference is at most
//! `max_de` (12). `ink` pixels are those more than 6 from the region's background (the most
//! common colour, quantised to steps of 4) in either image.

#![allow(dead_code)]

use egui_a2ui::render::GeometryOptions;
use egui_a2ui::testing::ReferencePage;
use egui_kittest::Harness;
use serde_json::Value;

/// Physical pixels per CSS px while painting: the layout's grid (`GeometryOptions`'s
/// default, so the page is laid out exactly as `--geometry` lays it out); the image is
/// then averaged down to one pixel per CSS px, as the reference's screenshots are.
const SUPERSAMPLE: u32 = 2;

/// Paint `document` as the reference page does, `options.width` by `options.height` CSS px,
/// in the light or dark scheme; one image pixel per CSS px.
pub fn render_page(
    document: &[u8],
    options: &GeometryOptions,
    theme: egui::Theme,
) -> Result<image::RgbaImage, String> {
    render_page_with(document, options, theme, egui_a2ui::Catalog::basic())
}

/// [`render_page`] with `catalog` instead of the basic one.
pub fn render_page_with(
    document: &[u8],
    options: &GeometryOptions,
    theme: egui::Theme,
    catalog: egui_a2ui::Catalog,
) -> Result<image::RgbaImage, String> {
    let options = GeometryOptions {
        pixels_per_point: SUPERSAMPLE as f32,
        ..options.clone()
    };
    let page = ReferencePage::with_catalog(
        document,
        &options,
        egui_a2ui::RendererOptions::default(),
        catalog,
    );
    let mut harness = Harness::builder()
        .with_size(egui::vec2(options.width, options.height))
        .with_pixels_per_point(SUPERSAMPLE as f32)
        .with_theme(theme)
        .allow_missing_glyphs()
        .with_accessibility_check(false)
        .with_context_setup(ReferencePage::install)
        .build_ui_state(|ui, page: &mut ReferencePage| page.ui(ui), page);
    harness.run_steps(options.frames.max(1));
    let big = harness.render()?;
    Ok(downsample(&big, SUPERSAMPLE))
}

/// Average `factor`x`factor` blocks (in sRGB, as a browser's anti-aliasing blends).
fn downsample(big: &image::RgbaImage, factor: u32) -> image::RgbaImage {
    let (w, h) = (big.width() / factor, big.height() / factor);
    let n = factor * factor;
    image::RgbaImage::from_fn(w, h, |x, y| {
        let mut acc = [0u32; 4];
        for dy in 0..factor {
            for dx in 0..factor {
                let p = big.get_pixel(x * factor + dx, y * factor + dy);
                for (a, v) in acc.iter_mut().zip(p.0) {
                    *a += u32::from(v);
                }
            }
        }
        image::Rgba(acc.map(|a| ((a + n / 2) / n) as u8))
    })
}

/// One fixture's figures, as the script's `score()` returns them.
#[derive(Clone, Debug, Default)]
pub struct PixelScore {
    /// Surface pixels compared.
    pub pixels: usize,
    /// Share of them that match.
    pub share: f64,
    /// Ink pixels compared.
    pub ink_pixels: usize,
    /// Share of them that match.
    pub ink_share: f64,
}

/// `load_rgb()`: RGB, transparent pixels over white.
fn rgb(img: &image::RgbaImage) -> Vec<[f64; 3]> {
    img.pixels()
        .map(|p| {
            let a = f64::from(p.0[3]) / 255.0;
            let over = |c: u8| (f64::from(c) * a + 255.0 * (1.0 - a)).round();
            [over(p.0[0]), over(p.0[1]), over(p.0[2])]
        })
        .collect()
}

/// `to_lab()` of the script: sRGB to CIELAB (D65).
fn lab([r, g, b]: [f64; 3]) -> [f64; 3] {
    let lin = |c: f64| {
        let c = c / 255.0;
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    let (r, g, b) = (lin(r), lin(g), lin(b));
    let x = (0.412_456_4 * r + 0.357_576_1 * g + 0.180_437_5 * b) / 0.95047;
    let y = 0.212_672_9 * r + 0.715_152_2 * g + 0.072_175 * b;
    let z = (0.019_333_9 * r + 0.119_192 * g + 0.950_304_1 * b) / 1.08883;
    let f = |t: f64| {
        if t > 216.0 / 24389.0 {
            t.cbrt()
        } else {
            (24389.0 / 27.0 * t + 16.0) / 116.0
        }
    };
    let (fx, fy, fz) = (f(x), f(y), f(z));
    [116.0 * fy - 16.0, 500.0 * (fx - fy), 200.0 * (fy - fz)]
}

/// `box_blur()`: the mean of each 3x3 neighbourhood, edges repeated.
fn blur(a: &[[f64; 3]], w: usize, h: usize) -> Vec<[f64; 3]> {
    let at = |x: isize, y: isize| {
        let x = x.clamp(0, w as isize - 1) as usize;
        let y = y.clamp(0, h as isize - 1) as usize;
        a[y * w + x]
    };
    let mut out = vec![[0.0; 3]; w * h];
    for y in 0..h {
        for x in 0..w {
            let mut s = [0.0; 3];
            for dy in -1..=1 {
                for dx in -1..=1 {
                    let p = at(x as isize + dx, y as isize + dy);
                    for k in 0..3 {
                        s[k] += p[k];
                    }
                }
            }
            out[y * w + x] = s.map(|v| v / 9.0);
        }
    }
    out
}

fn dist(a: [f64; 3], b: [f64; 3]) -> f64 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt()
}

/// `region_mask()`: the union of the reference's surface boxes (end inclusive, as the
/// script's `int(o + size) + 1` slice end).
fn region(geometry: &Value, w: usize, h: usize) -> Vec<bool> {
    let mut mask = vec![false; w * h];
    let surfaces = geometry.get("surfaces").and_then(Value::as_object);
    for s in surfaces.into_iter().flat_map(|m| m.values()) {
        let num = |v: &Value, i: usize| v.get(i).and_then(Value::as_f64).unwrap_or(0.0);
        let (Some(o), Some(sz)) = (s.get("origin"), s.get("size")) else {
            continue;
        };
        let (ox, oy, sw, sh) = (num(o, 0), num(o, 1), num(sz, 0), num(sz, 1));
        let (x0, y0) = ((ox as i64).max(0) as usize, (oy as i64).max(0) as usize);
        let x1 = ((ox + sw) as i64 + 1).clamp(0, w as i64) as usize;
        let y1 = ((oy + sh) as i64 + 1).clamp(0, h as i64) as usize;
        for y in y0..y1 {
            for x in x0..x1 {
                mask[y * w + x] = true;
            }
        }
    }
    mask
}

/// `background()`: the most common colour in the region, quantised by 4 (`np.round` rounds
/// half to even; the ties of the most common key go to the smallest, as `np.unique` sorts).
fn background(lab: &[[f64; 3]], mask: &[bool]) -> [f64; 3] {
    let mut counts: std::collections::BTreeMap<[i64; 3], usize> = Default::default();
    for (p, _) in lab.iter().zip(mask).filter(|(_, m)| **m) {
        let q = p.map(|v| (v / 4.0).round_ties_even() as i64);
        *counts.entry(q).or_default() += 1;
    }
    let mut best: Option<([i64; 3], usize)> = None;
    for (k, n) in counts {
        if best.is_none_or(|(_, b)| n > b) {
            best = Some((k, n));
        }
    }
    best.map_or([0.0; 3], |(k, _)| k.map(|v| v as f64 * 4.0))
}

/// `score()` of `compare_pixels.py`: `reference` and `candidate` cut to their common size.
pub fn score(
    reference: &image::RgbaImage,
    candidate: &image::RgbaImage,
    geometry: &Value,
    max_de: f64,
) -> PixelScore {
    let w = reference.width().min(candidate.width()) as usize;
    let h = reference.height().min(candidate.height()) as usize;
    let crop = |img: &image::RgbaImage| {
        image::imageops::crop_imm(img, 0, 0, w as u32, h as u32).to_image()
    };
    let la: Vec<_> = rgb(&crop(reference)).into_iter().map(lab).collect();
    let lb: Vec<_> = rgb(&crop(candidate)).into_iter().map(lab).collect();
    let (la, lb) = (blur(&la, w, h), blur(&lb, w, h));
    let mask = region(geometry, w, h);
    let (bga, bgb) = (background(&la, &mask), background(&lb, &mask));
    let mut s = PixelScore::default();
    let (mut ok, mut ink_ok) = (0usize, 0usize);
    for i in 0..w * h {
        if !mask[i] {
            continue;
        }
        let good = dist(la[i], lb[i]) <= max_de;
        s.pixels += 1;
        ok += usize::from(good);
        if dist(la[i], bga) > 6.0 || dist(lb[i], bgb) > 6.0 {
            s.ink_pixels += 1;
            ink_ok += usize::from(good);
        }
    }
    s.share = ok as f64 / s.pixels.max(1) as f64;
    s.ink_share = ink_ok as f64 / s.ink_pixels.max(1) as f64;
    s
}
