//! The style model: spacing, the type scale and control sizes, with the defaults of the
//! official A2UI web renderer, so a surface laid out here matches what the agent designed
//! against.
//!
//! The defaults are read from `@a2ui/web_core` 0.11.0, the styles `@a2ui/lit` 0.11.0 uses
//! for the basic catalog: the design tokens in
//! `web_core/src/v0_9/basic_catalog/styles/default.js` (`--a2ui-grid-base: 0.5rem`, so
//! spacing `xs/s/m/l` = 2/4/8/16 px; `--a2ui-font-size: 1rem` and `--a2ui-font-scale: 1.2`;
//! line heights 1.2 for headings and 1.5 for body text; `--a2ui-border-radius: 0.25rem`) and
//! each component's stylesheet in `web_core/src/v0_9/basic_catalog/components/*.js`. One CSS
//! px is one egui point. The colours are the same stylesheet's scheme ([`Palette`]: its
//! `light-dark()` pairs, the light half when the host's egui visuals are light, the dark half
//! when they are dark), with the agent's `primaryColor` as the primary.
//!
//! A host overrides any value through [`RendererOptions::style`](super::RendererOptions).

use egui::{Color32, FontFamily, FontId, Vec2, vec2};

/// One step of the type scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TextStyle {
    /// Font size (px).
    pub size: f32,
    /// Height of one line (px): the CSS `line-height` times the size.
    pub line_height: f32,
    /// Bold (the browser's default weight for `h1`–`h5`, and the labels' `bold`).
    pub bold: bool,
    /// Italic (the `caption` variant: the reference renders it as `<em>`).
    pub italic: bool,
}

impl TextStyle {
    const fn new(size: f32, line_factor: f32, bold: bool) -> Self {
        Self {
            size,
            line_height: size * line_factor,
            bold,
            italic: false,
        }
    }

    /// A step with `line-height: normal`, as Chromium computes it for the reference's font:
    /// Roboto's ascent and descent (`hhea` 1900 and 500 of 2048 units) scaled to the size
    /// and each rounded to a whole pixel, then added (Skia's font metrics in Blink's
    /// `SimpleFontData`). At 13.33 px that is 12 + 3 = 15, not 15.6; at 11.11 px 10 + 3 = 13.
    fn normal(size: f32, bold: bool) -> Self {
        Self {
            size,
            line_height: normal_line_height(size),
            bold,
            italic: false,
        }
    }

    const fn italic(mut self) -> Self {
        self.italic = true;
        self
    }

    /// The font for this step: [`BOLD_FAMILY`](crate::render::BOLD_FAMILY) when bold and installed on `ctx`.
    pub fn font_id(&self, ctx: &egui::Context) -> FontId {
        FontId::new(self.size, text_family(ctx, self.bold))
    }
}

/// The proportional family to draw with: [`BOLD_FAMILY`](super::fonts::BOLD_FAMILY) when `bold` and installed on
/// `ctx`, else [`FontFamily::Proportional`].
pub fn text_family(ctx: &egui::Context, bold: bool) -> FontFamily {
    if bold {
        super::fonts::bold_family(ctx)
    } else {
        FontFamily::Proportional
    }
}

/// Font size steps of the reference: `--a2ui-font-size` (16 px) scaled by
/// `--a2ui-font-scale` (1.2) up (`l`, `xl`, `2xl`) and down (`s`, `xs`).
const M: f32 = 16.0;
const S: f32 = M / 1.2;
const XS: f32 = S / 1.2;
const L: f32 = M * 1.2;
const XL: f32 = L * 1.2;
const XXL: f32 = XL * 1.2;
/// Roboto's ascent and descent per font size (`hhea`: 1900 and 500 of 2048 units per em).
const ROBOTO_ASCENT: f32 = 1900.0 / 2048.0;
const ROBOTO_DESCENT: f32 = 500.0 / 2048.0;

/// `line-height: normal` of the reference's font at `size`, as Chromium rounds it (see
/// [`TextStyle::normal`]): for text without a set line height (captions, labels, inputs).
pub(crate) fn normal_line_height(size: f32) -> f32 {
    (size * ROBOTO_ASCENT).round() + (size * ROBOTO_DESCENT).round()
}

/// Spacing, type scale and control sizes for drawing A2UI surfaces. Every field is in
/// points (CSS px); the defaults are the official web renderer's: the design tokens of
/// `@a2ui/web_core` 0.11.0 (`--a2ui-grid-base: 0.5rem`, so spacing `xs/s/m/l` = 2/4/8/16 px;
/// `--a2ui-font-size: 1rem` and `--a2ui-font-scale: 1.2`; line heights 1.2 for headings and
/// 1.5 for body text; `--a2ui-border-radius: 0.25rem`) and each basic component's
/// stylesheet. The controls' colours are [`Palette`]s: [`light`](Self::light) when the
/// host's visuals are light, [`dark`](Self::dark) when they are dark; text keeps the host's
/// text colour.
///
/// A host overrides any value through [`RendererOptions::style`](crate::render::RendererOptions):
///
/// ```
/// use egui_a2ui::{Catalog, Renderer, RendererOptions, Style};
///
/// let style = Style { flex_gap: 12.0, ..Style::default() };
/// let options = RendererOptions { style, ..RendererOptions::default() };
/// let renderer = Renderer::new(Catalog::basic()).with_options(options);
/// # let _ = renderer;
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Style {
    /// Gap between the children of a `Row` or `Column` (`gap: var(--a2ui-spacing-m)`, 8).
    pub flex_gap: f32,
    /// Gap between the items of a vertical `List` (`--a2ui-spacing-s`, 4).
    pub list_gap: f32,
    /// Gap between the items of a horizontal `List` (`--a2ui-spacing-m`, 8).
    pub list_gap_horizontal: f32,
    /// Inline-start padding of a `List` (`padding-inline-start: var(--a2ui-spacing-l)`, 16).
    pub list_indent: f32,
    /// Space around a `Card`'s frame (`margin: var(--a2ui-spacing-m)`, 8).
    pub card_margin: f32,
    /// Space between a `Card`'s border and its child (`padding: var(--a2ui-spacing-m)`, 8).
    pub card_padding: f32,
    /// Width of a `Card`'s border (`--a2ui-border-width`, 1).
    pub card_border: f32,
    /// Corner radius of a `Card` (`--a2ui-border-radius`, 0.25rem = 4).
    pub card_radius: f32,
    /// A `Card`'s shadow: vertical offset, blur and opacity (`0 2px 4px rgba(0,0,0,0.1)`).
    pub card_shadow: (f32, f32, f32),
    /// Space around a `Button`'s frame (`margin: var(--a2ui-spacing-m)`, 8).
    pub button_margin: f32,
    /// A `Button`'s padding, horizontal and vertical (`--a2ui-spacing-l`/`-m`, 16 and 8).
    pub button_padding: Vec2,
    /// A `Button`'s border width (1; primary and borderless buttons have none).
    pub button_border: f32,
    /// A `Button`'s corner radius (`--a2ui-spacing-s`, 4).
    pub button_radius: f32,
    /// The smallest height of a `Button` frame: a body line plus padding and border (42).
    pub button_min_height: f32,
    /// Vertical space above and below a horizontal `Divider` (`margin: var(--a2ui-spacing-m)
    /// 0`, 8), or left and right of a vertical one.
    pub divider_margin: f32,
    /// `Text` `h1` (`--a2ui-font-size-2xl`, line height 1.2, bold).
    pub h1: TextStyle,
    /// `Text` `h2` (`--a2ui-font-size-xl`).
    pub h2: TextStyle,
    /// `Text` `h3` (`--a2ui-font-size-l`).
    pub h3: TextStyle,
    /// `Text` `h4` (`--a2ui-font-size-m`).
    pub h4: TextStyle,
    /// `Text` `h5` (`--a2ui-font-size-s`).
    pub h5: TextStyle,
    /// `Text` `body` (`--a2ui-font-size-m`, line height 1.5: 16/24).
    pub body: TextStyle,
    /// `Text` `caption` (`--a2ui-font-size-xs`, normal line height, italic: `<em>`).
    pub caption: TextStyle,
    /// The labels of inputs (`--a2ui-label-font-size: --a2ui-font-size-s`, bold).
    pub label: TextStyle,
    /// Gap between a `TextField`'s label and its box (`--a2ui-spacing-xs`, 2).
    pub field_gap: f32,
    /// Height of a single-line `TextField` box (a 13.33 px line, `normal`: 15, with 8 px of
    /// padding and a 1 px border above and below: 33).
    pub field_height: f32,
    /// Corner radius of a `TextField` box (`--a2ui-spacing-m`, 8).
    pub field_radius: f32,
    /// Space around a `CheckBox` (`margin: var(--a2ui-spacing-m)`, 8).
    pub checkbox_margin: f32,
    /// Height of a `CheckBox` row (22 in the reference: the label's line).
    pub checkbox_height: f32,
    /// Side of an `Icon` (`--a2ui-icon-size`, 24).
    pub icon_size: f32,
    /// Side of an `avatar` `Image` (40).
    pub avatar_size: f32,
    /// Padding of a `Tabs` title (`--a2ui-spacing-s`/`-m`: 8 by 4).
    pub tab_padding: Vec2,
    /// Vertical padding of a `Tabs` panel (`--a2ui-spacing-m`, 8).
    pub tab_content_padding: f32,
    /// Width of the `Tabs` bar's bottom rule and of the active title's underline
    /// (`.a2ui-tab-bar { border-bottom: 2px solid }`, `.a2ui-tab-button.active
    /// { border-bottom: 2px solid var(--a2ui-color-primary) }`).
    pub tab_indicator: f32,
    /// Side of a `CheckBox` box and of a `ChoicePicker` radio or check box
    /// (`--a2ui-checkbox-size: 1rem`, `.a2ui-option-input { width: 1rem }`: 16).
    pub toggle_size: f32,
    /// Corner radius of a `CheckBox` box (`--a2ui-checkbox-border-radius: 4px`; Chromium
    /// draws the checked box with 2 px corners, which is what the reference shows).
    pub toggle_radius: f32,
    /// Space left of a check box (Chromium's `input[type=checkbox] { margin: 3px 3px 3px 4px }`).
    pub checkbox_inset: f32,
    /// Space between a check box and its label: Chromium's 3 px right margin and the
    /// stylesheet's `gap: var(--a2ui-checkbox-gap, var(--a2ui-spacing-s))` (4), 7.
    pub checkbox_gap: f32,
    /// Space left of a radio button (Chromium's `input[type=radio] { margin: 3px 3px 0 5px }`).
    pub radio_inset: f32,
    /// Space between a radio button and its option text: Chromium's 3 px right margin and
    /// `.a2ui-option-label { gap: var(--a2ui-choicepicker-gap, var(--a2ui-spacing-xs)) }`
    /// (2), 5.
    pub radio_gap: f32,
    /// Height of a `Slider` track (Chromium's range input: an 8 px track with a 1 px
    /// outline, fully rounded).
    pub slider_track: f32,
    /// Width of a `Slider` (its header line and track) where its parent gives it no width:
    /// Chromium's range input as the reference draws it (149 px, measured on
    /// `06_music-player`'s `progress`).
    pub slider_width: f32,
    /// Radius of a `Slider` thumb (Chromium's range input: a 16 px disc).
    pub slider_thumb_radius: f32,
    /// Opacity of a disabled `Button` (`.a2ui-button:disabled { opacity: 0.5 }`).
    pub disabled_opacity: f32,
    /// Width of a `TextField`'s border (`--a2ui-border-width`, 1); focus and an invalid
    /// value only change its colour (`.a2ui-textfield:focus`, `.a2ui-textfield.invalid`).
    pub field_border: f32,
    /// The colours when the host's visuals are light (`light-dark()`'s first values,
    /// `<html class="a2ui-light">`: the reference renders).
    pub light: Palette,
    /// The colours when the host's visuals are dark (`light-dark()`'s second values,
    /// `.a2ui-dark`).
    pub dark: Palette,
}

/// The colours of the web renderer's default theme, one colour scheme of
/// `web_core/src/v0_9/basic_catalog/styles/default.js` (`--a2ui-color-*`) and of the
/// component stylesheets' fallbacks. [`Style::light`] and [`Style::dark`] hold the two
/// schemes; a host sets its own brand colour with [`Style::with_primary`], and an agent's
/// `theme.primaryColor` replaces [`primary`](Self::primary) for its surface in both (the
/// Lit renderer sets `--a2ui-color-primary` on the surface the same way).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Palette {
    /// The page behind the surfaces (`--a2ui-color-background: light-dark(#eee, #111)`);
    /// drawn by the reference page, not by a surface (the host's panel is the page).
    pub background: Color32,
    /// Text on the page and in surfaces (`--a2ui-color-on-background: light-dark(#333,
    /// #eee)`, the colour `.a2ui-text` and `.a2ui-icon` fall back to); bold text is not
    /// darker (egui's strong text colour is set to it too).
    pub on_background: Color32,
    /// Filled containers: `Card`s and default `Button`s (`--a2ui-color-surface`:
    /// `color-mix(in oklab, background 85% | 95%, white)`, #f1f1f1 | #1a1a1a).
    pub surface: Color32,
    /// Text on the surface colour (`--a2ui-color-on-surface: light-dark(#333, #eee)`).
    pub on_surface: Color32,
    /// Primary fills and accents: primary buttons, checked boxes and radios, the slider,
    /// the active tab, a focused field's border, borderless buttons' text
    /// (`--a2ui-color-primary: #17e`).
    pub primary: Color32,
    /// Text on a primary fill (`--a2ui-color-on-primary: #fff`). When an agent or a host
    /// replaces the primary, it is kept only while it contrasts at least 4.5:1 with the new
    /// one, else it becomes black or white, whichever contrasts more
    /// ([`Palette::with_primary`]).
    pub on_primary: Color32,
    /// A default button's hover fill (`--a2ui-color-secondary-hover`, the light scheme's
    /// `--a2ui-color-secondary-dark` = `color-mix(#ddd 95%, black)` #cecece, the dark
    /// scheme's `--a2ui-color-secondary-light` = `color-mix(#333 85%, white)` #4e4e4e).
    pub secondary_hover: Color32,
    /// The secondary colour (`--a2ui-color-secondary: light-dark(#ddd, #333)`), for host
    /// components. (The stylesheet also names it `--a2ui-slider-track-color`, but the
    /// reference's range input is Chromium's native control, which draws
    /// [`range_track`](Self::range_track) instead.)
    pub secondary: Color32,
    /// A `Slider`'s track right of the thumb: Chromium's native range input (#efefef light,
    /// #3b3b3b dark); the part left of the thumb is the primary (`accent-color`).
    pub range_track: Color32,
    /// The 1 px outline of that track (Chromium's #b2b2b2 light, #858585 dark).
    pub range_border: Color32,
    /// Borders of cards, buttons, fields, unchecked boxes and dividers
    /// (`--a2ui-color-border: light-dark(#ccc, #444)`).
    pub border: Color32,
    /// The outline of an unchecked check box or radio button (the stylesheet leaves them to
    /// the browser: Chromium's form controls, #767676 light, #858585 dark).
    pub border_strong: Color32,
    /// The fill of text fields and unchecked boxes (`--a2ui-color-input: light-dark(#fff,
    /// #2a2a2a)`).
    pub input: Color32,
    /// Text in a text field (`--a2ui-color-on-input: light-dark(#333, #eee)`).
    pub on_input: Color32,
    /// `caption` text (`--a2ui-text-caption-color: light-dark(#666, #aaa)`).
    pub caption: Color32,
    /// Inactive `Tabs` titles (`--a2ui-tabs-header-color`, `--a2ui-text-caption-color`
    /// fallback #666; #aaa in the dark scheme, as the caption).
    pub tab_inactive: Color32,
    /// An invalid field's border and every validation message (`--a2ui-textfield-color-error`,
    /// `--a2ui-checkbox-color-error`: `red`; a lighter red on dark panels so the message
    /// stays readable, 5.0:1 on #111).
    pub error: Color32,
}

impl Palette {
    /// The light scheme (`<html class="a2ui-light">`, the reference renders).
    pub const LIGHT: Self = Self {
        background: Color32::from_rgb(0xee, 0xee, 0xee),
        on_background: Color32::from_rgb(0x33, 0x33, 0x33),
        surface: Color32::from_rgb(0xf1, 0xf1, 0xf1),
        on_surface: Color32::from_rgb(0x33, 0x33, 0x33),
        primary: Color32::from_rgb(0x11, 0x77, 0xee),
        on_primary: Color32::WHITE,
        secondary_hover: Color32::from_rgb(0xce, 0xce, 0xce),
        secondary: Color32::from_rgb(0xdd, 0xdd, 0xdd),
        range_track: Color32::from_rgb(0xef, 0xef, 0xef),
        range_border: Color32::from_rgb(0xb2, 0xb2, 0xb2),
        border: Color32::from_rgb(0xcc, 0xcc, 0xcc),
        border_strong: Color32::from_rgb(0x76, 0x76, 0x76),
        input: Color32::WHITE,
        on_input: Color32::from_rgb(0x33, 0x33, 0x33),
        caption: Color32::from_rgb(0x66, 0x66, 0x66),
        tab_inactive: Color32::from_rgb(0x66, 0x66, 0x66),
        error: Color32::from_rgb(0xff, 0x00, 0x00),
    };

    /// The dark scheme (`.a2ui-dark`).
    pub const DARK: Self = Self {
        background: Color32::from_rgb(0x11, 0x11, 0x11),
        on_background: Color32::from_rgb(0xee, 0xee, 0xee),
        surface: Color32::from_rgb(0x1a, 0x1a, 0x1a),
        on_surface: Color32::from_rgb(0xee, 0xee, 0xee),
        primary: Color32::from_rgb(0x11, 0x77, 0xee),
        on_primary: Color32::WHITE,
        secondary_hover: Color32::from_rgb(0x4e, 0x4e, 0x4e),
        secondary: Color32::from_rgb(0x33, 0x33, 0x33),
        range_track: Color32::from_rgb(0x3b, 0x3b, 0x3b),
        range_border: Color32::from_rgb(0x85, 0x85, 0x85),
        border: Color32::from_rgb(0x44, 0x44, 0x44),
        border_strong: Color32::from_rgb(0x85, 0x85, 0x85),
        input: Color32::from_rgb(0x2a, 0x2a, 0x2a),
        on_input: Color32::from_rgb(0xee, 0xee, 0xee),
        caption: Color32::from_rgb(0xaa, 0xaa, 0xaa),
        tab_inactive: Color32::from_rgb(0xaa, 0xaa, 0xaa),
        error: Color32::from_rgb(0xff, 0x55, 0x55),
    };

    /// This palette with another primary, and the text on it made readable (kept while
    /// [`on_primary`](Self::on_primary) reaches 4.5:1 on it).
    #[must_use]
    pub fn with_primary(mut self, primary: Color32) -> Self {
        if primary != self.primary {
            self.on_primary = super::theme::on_primary_text(primary, self.on_primary);
            self.primary = primary;
        }
        self
    }

    /// A primary button's hover fill (`--a2ui-color-primary-hover: light-dark(primary-dark,
    /// primary-light)`: the primary mixed in oklab 85% with black on light panels, with
    /// white on dark ones), from the primary in force.
    pub fn primary_hover(&self, dark_mode: bool) -> Color32 {
        let toward = if dark_mode {
            Color32::WHITE
        } else {
            Color32::BLACK
        };
        super::theme::oklab_mix(self.primary, toward, 0.85)
    }
}

impl Default for Style {
    fn default() -> Self {
        Self {
            flex_gap: 8.0,
            list_gap: 4.0,
            list_gap_horizontal: 8.0,
            list_indent: 16.0,
            card_margin: 8.0,
            card_padding: 8.0,
            card_border: 1.0,
            card_radius: 4.0,
            card_shadow: (2.0, 4.0, 0.1),
            button_margin: 8.0,
            button_padding: vec2(16.0, 8.0),
            button_border: 1.0,
            button_radius: 4.0,
            button_min_height: 42.0,
            divider_margin: 8.0,
            h1: TextStyle::new(XXL, 1.2, true),
            h2: TextStyle::new(XL, 1.2, true),
            h3: TextStyle::new(L, 1.2, true),
            h4: TextStyle::new(M, 1.2, true),
            h5: TextStyle::new(S, 1.2, true),
            body: TextStyle::new(M, 1.5, false),
            caption: TextStyle::normal(XS, false).italic(),
            label: TextStyle::normal(S, true),
            field_gap: 2.0,
            // A line of the input's text (13.33 px, `normal`: 15) and its padding and border.
            field_height: normal_line_height(S) + 2.0 * 8.0 + 2.0,
            field_radius: 8.0,
            checkbox_margin: 8.0,
            checkbox_height: 22.0,
            icon_size: 24.0,
            avatar_size: 40.0,
            tab_padding: vec2(8.0, 4.0),
            tab_content_padding: 8.0,
            tab_indicator: 2.0,
            toggle_size: 16.0,
            toggle_radius: 2.0,
            checkbox_inset: 4.0,
            checkbox_gap: 7.0,
            radio_inset: 5.0,
            radio_gap: 5.0,
            slider_track: 8.0,
            slider_thumb_radius: 8.0,
            slider_width: 149.0,
            disabled_opacity: 0.5,
            field_border: 1.0,
            light: Palette::LIGHT,
            dark: Palette::DARK,
        }
    }
}

impl Style {
    /// The palette for `visuals`: [`dark`](Self::dark) when they are dark, else
    /// [`light`](Self::light).
    pub fn palette(&self, visuals: &egui::Visuals) -> &Palette {
        if visuals.dark_mode {
            &self.dark
        } else {
            &self.light
        }
    }

    /// This style with the host's brand colour as the primary of both palettes (an
    /// agent's `theme.primaryColor` still replaces it for that agent's surfaces).
    #[must_use]
    pub fn with_primary(mut self, primary: Color32) -> Self {
        self.light = self.light.with_primary(primary);
        self.dark = self.dark.with_primary(primary);
        self
    }

    /// The type-scale step of a `Text` variant (`usageHint` in v0.8); unknown variants are
    /// body text.
    pub fn text(&self, variant: &str) -> TextStyle {
        match variant {
            "h1" => self.h1,
            "h2" => self.h2,
            "h3" => self.h3,
            "h4" => self.h4,
            "h5" => self.h5,
            "caption" => self.caption,
            _ => self.body,
        }
    }

    /// Set `ui`'s text styles and spacing from this style (called for every surface):
    /// body text at the body size, no item spacing (containers place their children).
    pub fn apply(&self, ui: &mut egui::Ui) {
        let style = ui.style_mut();
        style.text_styles.insert(
            egui::TextStyle::Body,
            FontId::new(self.body.size, FontFamily::Proportional),
        );
        style.text_styles.insert(
            egui::TextStyle::Button,
            FontId::new(self.body.size, FontFamily::Proportional),
        );
        style.text_styles.insert(
            egui::TextStyle::Small,
            FontId::new(self.caption.size, FontFamily::Proportional),
        );
        style.spacing.interact_size.y = self.label.line_height.max(16.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_match_the_reference_boxes() {
        let s = Style::default();
        // Body text: a 24 px line; h2 27.5 px and h3 23 px as measured in the reference.
        assert_eq!(s.body.line_height, 24.0);
        assert!((s.h2.line_height - 27.648).abs() < 0.01);
        assert!((s.h3.line_height - 23.04).abs() < 0.01);
        // A button: a body line, 8 px padding above and below, a 1 px border.
        assert_eq!(
            s.button_min_height,
            s.body.line_height + 2.0 * s.button_padding.y + 2.0 * s.button_border
        );
        assert_eq!(s.text("nonsense"), s.body);
    }

    #[test]
    fn the_palette_follows_the_visuals_and_a_host_primary_stays_readable() {
        let s = Style::default();
        assert_eq!(
            s.palette(&egui::Visuals::light()).background,
            Color32::from_gray(0xee)
        );
        assert_eq!(
            s.palette(&egui::Visuals::dark()).background,
            Color32::from_gray(0x11)
        );
        // The stylesheet's own pair: #fff on #17e.
        assert_eq!(s.light.on_primary, Color32::WHITE);
        let yellow = Color32::from_rgb(0xff, 0xeb, 0x3b);
        let branded = s.with_primary(yellow);
        for p in [branded.light, branded.dark] {
            assert_eq!(p.primary, yellow);
            assert_eq!(p.on_primary, Color32::BLACK);
        }
        assert_eq!(
            Style::default()
                .with_primary(Color32::from_rgb(0x6a, 0x1b, 0x9a))
                .dark
                .on_primary,
            Color32::WHITE
        );
    }

    #[test]
    fn bold_falls_back_to_proportional_when_not_installed() {
        let ctx = egui::Context::default();
        let mut out = ctx.run_ui(egui::RawInput::default(), |_| {});
        out.textures_delta.clear();
        assert_eq!(text_family(&ctx, true), FontFamily::Proportional);
        assert_eq!(text_family(&ctx, false), FontFamily::Proportional);
    }
}
