//! How an agent's `theme` meets the host's egui [`Style`](egui::Style).
//!
//! The host's style always wins; the only agent input is `theme.primaryColor` (v0.8/v0.9),
//! which tints primary buttons and accents (selection, slider fill, links). Text drawn on a
//! primary fill gets a contrasting colour from [`contrast_text_color`], so nested `Text` and
//! `Icon` children inherit a readable colour instead of hardcoding one.

use egui::Color32;

/// The WCAG 2 relative luminance of a colour (0 = black, 1 = white); alpha is ignored.
pub fn relative_luminance(c: Color32) -> f32 {
    fn channel(v: u8) -> f32 {
        let v = f32::from(v) / 255.0;
        if v <= 0.039_28 {
            v / 12.92
        } else {
            ((v + 0.055) / 1.055).powf(2.4)
        }
    }
    0.2126 * channel(c.r()) + 0.7152 * channel(c.g()) + 0.0722 * channel(c.b())
}

/// The WCAG 2 contrast ratio of two colours, from 1 (none) to 21 (black on white).
pub fn contrast_ratio(a: Color32, b: Color32) -> f32 {
    let (la, lb) = (relative_luminance(a), relative_luminance(b));
    let (hi, lo) = if la >= lb { (la, lb) } else { (lb, la) };
    (hi + 0.05) / (lo + 0.05)
}

/// The text colour to put on a `bg` fill: white or black, whichever contrasts more.
pub fn contrast_text_color(bg: Color32) -> Color32 {
    if contrast_ratio(bg, Color32::WHITE) >= contrast_ratio(bg, Color32::BLACK) {
        Color32::WHITE
    } else {
        Color32::BLACK
    }
}

/// The text colour on a primary fill the palette did not pair itself (an agent's
/// `primaryColor`, a host's [`Style::with_primary`](super::Style::with_primary)):
/// `preferred` (the palette's `on_primary`, #fff) while it contrasts at least 4.5:1 with
/// the fill (WCAG AA for body text), else white or black, whichever contrasts more (a pale
/// or green primary gets black text). The stylesheet's own pair, #fff on #17e (4.3:1), is
/// kept as the reference draws it.
pub fn on_primary_text(primary: Color32, preferred: Color32) -> Color32 {
    if contrast_ratio(primary, preferred) >= 4.5 {
        preferred
    } else {
        contrast_text_color(primary)
    }
}

fn srgb_to_linear(v: u8) -> f32 {
    let c = f32::from(v) / 255.0;
    if c <= 0.040_45 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

fn linear_to_srgb(x: f32) -> u8 {
    let c = if x <= 0.003_130_8 {
        12.92 * x
    } else {
        1.055 * x.powf(1.0 / 2.4) - 0.055
    };
    (c.clamp(0.0, 1.0) * 255.0).round() as u8
}

fn to_oklab(c: Color32) -> [f32; 3] {
    let (r, g, b) = (
        srgb_to_linear(c.r()),
        srgb_to_linear(c.g()),
        srgb_to_linear(c.b()),
    );
    let l = (0.412_221_46 * r + 0.536_332_55 * g + 0.051_445_995 * b).cbrt();
    let m = (0.211_903_5 * r + 0.680_699_5 * g + 0.107_396_96 * b).cbrt();
    let s = (0.088_302_46 * r + 0.281_718_85 * g + 0.629_978_7 * b).cbrt();
    [
        0.210_454_26 * l + 0.793_617_8 * m - 0.004_072_047 * s,
        1.977_998_5 * l - 2.428_592_2 * m + 0.450_593_7 * s,
        0.025_904_037 * l + 0.782_771_77 * m - 0.808_675_77 * s,
    ]
}

fn from_oklab([lum, a, b]: [f32; 3]) -> Color32 {
    let l = (lum + 0.396_337_78 * a + 0.215_803_76 * b).powi(3);
    let m = (lum - 0.105_561_346 * a - 0.063_854_17 * b).powi(3);
    let s = (lum - 0.089_484_18 * a - 1.291_485_5 * b).powi(3);
    Color32::from_rgb(
        linear_to_srgb(4.076_741_7 * l - 3.307_711_6 * m + 0.230_969_94 * s),
        linear_to_srgb(-1.268_438 * l + 2.609_757_4 * m - 0.341_319_38 * s),
        linear_to_srgb(-0.004_196_086_3 * l - 0.703_418_6 * m + 1.707_614_7 * s),
    )
}

/// CSS `color-mix(in oklab, a p, b)`: `share` of `a` (0..=1) and the rest of `b`, mixed in
/// the Oklab space as the web renderer's colour variants are (`computeColorVariant`).
pub fn oklab_mix(a: Color32, b: Color32, share: f32) -> Color32 {
    let t = share.clamp(0.0, 1.0);
    let (x, y) = (to_oklab(a), to_oklab(b));
    from_oklab([
        x[0] * t + y[0] * (1.0 - t),
        x[1] * t + y[1] * (1.0 - t),
        x[2] * t + y[2] * (1.0 - t),
    ])
}

/// Mix `a` towards `b` by `t` (0 = `a`, 1 = `b`), keeping `a`'s alpha.
fn mix(a: Color32, b: Color32, t: f32) -> Color32 {
    let t = t.clamp(0.0, 1.0);
    let m = |x: u8, y: u8| (f32::from(x) + (f32::from(y) - f32::from(x)) * t).round() as u8;
    Color32::from_rgba_unmultiplied(m(a.r(), b.r()), m(a.g(), b.g()), m(a.b(), b.b()), a.a())
}

/// An accent usable as a foreground on the panel (links, icons, focus marks): `primary`
/// (or the host's hyperlink colour) moved towards the text colour until it reaches a 3:1
/// contrast with the panel fill, so a pale agent colour stays readable in light mode and a
/// dark one in dark mode.
pub fn readable_accent(visuals: &egui::Visuals, primary: Option<Color32>) -> Color32 {
    let Some(accent) = primary else {
        return visuals.hyperlink_color;
    };
    let bg = visuals.panel_fill;
    let text = visuals.text_color();
    let mut c = accent;
    for step in 1..=10 {
        if contrast_ratio(c, bg) >= 3.0 {
            break;
        }
        c = mix(accent, text, step as f32 / 10.0);
    }
    c
}

/// The visuals a whole surface is drawn with: the host's, with the text in the palette's
/// `on_background` colour (bold text too, as in the reference), and the agent's `primary`
/// as the accent of selections, text cursors and links (made readable on the panel).
/// Without `primary` only the text colour changes.
pub fn surface_visuals(
    visuals: &egui::Visuals,
    primary: Option<Color32>,
    palette: &super::Palette,
) -> egui::Visuals {
    let mut v = visuals.clone();
    v.widgets.noninteractive.fg_stroke.color = palette.on_background;
    v.widgets.active.fg_stroke.color = palette.on_background;
    if let Some(p) = primary {
        v.selection.bg_fill = p;
        v.selection.stroke.color = contrast_text_color(p);
        v.hyperlink_color = readable_accent(visuals, Some(p));
        v.text_cursor.stroke.color = readable_accent(visuals, Some(p));
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contrast_text_is_white_on_dark_and_black_on_light_fills() {
        assert_eq!(contrast_text_color(Color32::BLACK), Color32::WHITE);
        assert_eq!(contrast_text_color(Color32::WHITE), Color32::BLACK);
        assert_eq!(
            contrast_text_color(Color32::from_rgb(0x62, 0x00, 0xee)),
            Color32::WHITE
        );
        assert_eq!(
            contrast_text_color(Color32::from_rgb(0x00, 0xe6, 0x76)),
            Color32::BLACK
        );
    }

    #[test]
    fn contrast_text_always_reaches_a_readable_ratio() {
        for r in (0..=255).step_by(51) {
            for g in (0..=255).step_by(51) {
                for b in (0..=255).step_by(51) {
                    let bg = Color32::from_rgb(r, g, b);
                    let ratio = contrast_ratio(bg, contrast_text_color(bg));
                    assert!(ratio >= 4.5, "{bg:?} → {ratio}");
                }
            }
        }
    }

    #[test]
    fn green_primaries_get_text_with_at_least_4_5_to_1() {
        // Material greens: a luma threshold put white on these (2.2:1 to 3.3:1).
        for hex in [
            0x4caf50_u32,
            0x00c853,
            0x43a047,
            0x66bb6a,
            0x00e676,
            0x2e7d32,
        ] {
            let [_, r, g, b] = hex.to_be_bytes();
            let bg = Color32::from_rgb(r, g, b);
            let text = contrast_text_color(bg);
            let ratio = contrast_ratio(bg, text);
            assert!(ratio >= 4.5, "#{hex:06x}: {text:?} at {ratio:.2}:1");
        }
        let green = Color32::from_rgb(0x4c, 0xaf, 0x50);
        assert_eq!(contrast_text_color(green), Color32::BLACK);
        assert!(contrast_ratio(green, Color32::WHITE) < 3.0);
    }

    #[test]
    fn oklab_mixes_give_the_stylesheets_computed_colours() {
        // Chromium's computed values of the default theme's color-mix() variables.
        let eee = Color32::from_gray(0xee);
        assert_eq!(
            oklab_mix(eee, Color32::WHITE, 0.85),
            Color32::from_gray(0xf1)
        );
        let primary = Color32::from_rgb(0x11, 0x77, 0xee);
        assert_eq!(
            oklab_mix(primary, Color32::BLACK, 0.85),
            Color32::from_rgb(11, 95, 192)
        );
        assert_eq!(oklab_mix(primary, Color32::WHITE, 1.0), primary);
    }

    #[test]
    fn an_agent_primary_keeps_white_text_only_when_it_reads_at_4_5_to_1() {
        let deep = Color32::from_rgb(0x6a, 0x1b, 0x9a);
        assert_eq!(on_primary_text(deep, Color32::WHITE), Color32::WHITE);
        let pale = Color32::from_rgb(0xa5, 0xd6, 0xa7);
        assert_eq!(on_primary_text(pale, Color32::WHITE), Color32::BLACK);
        // The stylesheet's own pair is 4.3:1; only an unpaired primary is corrected.
        let primary = Color32::from_rgb(0x11, 0x77, 0xee);
        assert!(contrast_ratio(primary, Color32::WHITE) < 4.5);
        assert_eq!(on_primary_text(primary, Color32::WHITE), Color32::BLACK);
    }

    #[test]
    fn readable_accent_darkens_a_pale_primary_on_a_light_panel() {
        let light = egui::Visuals::light();
        let pale = Color32::from_rgb(0xff, 0xee, 0xaa);
        let accent = readable_accent(&light, Some(pale));
        assert!(contrast_ratio(accent, light.panel_fill) >= 3.0);
        let dark = egui::Visuals::dark();
        let deep = Color32::from_rgb(0x10, 0x10, 0x60);
        assert!(contrast_ratio(readable_accent(&dark, Some(deep)), dark.panel_fill) >= 3.0);
    }
}
