//! The bundled text and symbol fonts, and the one set-up call that installs them
//! ([`install_fonts`], whose docs say what is bundled and why).

use egui::epaint::text::{FontInsert, FontPriority, InsertFontFamily};
use egui::{FontData, FontDefinitions, FontFamily};

/// The egui font family name of the bold text font (Roboto Bold with the symbol fallbacks).
pub const BOLD_FAMILY: &str = "a2ui-bold";

/// Font data name of Roboto Regular.
pub const REGULAR_FONT: &str = "a2ui-roboto-regular";
/// Font data name of Roboto Bold.
pub const BOLD_FONT: &str = "a2ui-roboto-bold";
/// Font data name of the DejaVu Sans symbol subset.
pub const SYMBOLS_FONT: &str = "a2ui-dejavu-symbols";
/// Font data name of the Noto Sans Symbols 2 subset.
pub const SYMBOLS2_FONT: &str = "a2ui-noto-symbols2";

const ROBOTO_REGULAR: &[u8] = include_bytes!("../../assets/fonts/roboto/Roboto-Regular.ttf");
const ROBOTO_BOLD: &[u8] = include_bytes!("../../assets/fonts/roboto/Roboto-Bold.ttf");
const DEJAVU_SYMBOLS: &[u8] = include_bytes!("../../assets/fonts/symbols/DejaVuSans-Symbols.ttf");
const NOTO_SYMBOLS2: &[u8] =
    include_bytes!("../../assets/fonts/symbols/NotoSansSymbols2-Subset.ttf");

/// Prefix of the names under which egui's default fallback fonts are registered again
/// for the bold family (egui keys fonts by name, so the bold family needs its own entries).
const BOLD_FALLBACK_PREFIX: &str = "a2ui-bold-fallback:";

/// The bold text family, [`BOLD_FAMILY`].
pub fn bold_family_name() -> FontFamily {
    // Made once: a family name is an `Arc<str>`, and bold text asks for it every frame.
    static BOLD: std::sync::LazyLock<FontFamily> =
        std::sync::LazyLock::new(|| FontFamily::Name(BOLD_FAMILY.into()));
    BOLD.clone()
}

/// The family to draw bold text with in `ctx`: [`BOLD_FAMILY`] when it is installed (see
/// [`install_fonts`]), else `Proportional`, so text never lands in a family without fonts.
pub fn bold_family(ctx: &egui::Context) -> FontFamily {
    let bold = bold_family_name();
    if ctx.fonts(|f| f.definitions().families.contains_key(&bold)) {
        bold
    } else {
        FontFamily::Proportional
    }
}

/// Whether the bundled text fonts are active in `ctx` this pass (they become active one pass
/// after [`install_fonts`] when text was already laid out in the pass that installed them).
#[cfg(test)]
pub(crate) fn fonts_ready(ctx: &egui::Context) -> bool {
    ctx.fonts(|f| f.definitions().font_data.contains_key(REGULAR_FONT))
}

fn family(family: FontFamily, priority: FontPriority) -> InsertFontFamily {
    InsertFontFamily { family, priority }
}

/// egui's default `Proportional` fallbacks (everything after its text font), with their data.
fn egui_fallbacks() -> Vec<(String, FontData)> {
    let defaults = FontDefinitions::default();
    defaults
        .families
        .get(&FontFamily::Proportional)
        .into_iter()
        .flatten()
        .filter_map(|name| {
            let data = defaults.font_data.get(name)?;
            Some((name.clone(), (**data).clone()))
        })
        .collect()
}

/// The inserts in the order that yields `Proportional = [Roboto, DejaVu symbols, Noto
/// symbols, egui's fonts...]` and `a2ui-bold = [Roboto Bold, DejaVu symbols, Noto symbols,
/// copies of egui's fallbacks...]`, with the symbol fonts last in `Monospace`.
fn inserts() -> Vec<FontInsert> {
    let bold = bold_family_name();
    let mut out = Vec::with_capacity(8);
    for (name, bytes) in [
        (SYMBOLS2_FONT, NOTO_SYMBOLS2),
        (SYMBOLS_FONT, DEJAVU_SYMBOLS),
    ] {
        out.push(FontInsert::new(
            name,
            FontData::from_static(bytes),
            vec![
                family(FontFamily::Proportional, FontPriority::Highest),
                family(bold.clone(), FontPriority::Highest),
                family(FontFamily::Monospace, FontPriority::Lowest),
            ],
        ));
    }
    out.push(FontInsert::new(
        BOLD_FONT,
        FontData::from_static(ROBOTO_BOLD),
        vec![family(bold.clone(), FontPriority::Highest)],
    ));
    for (name, data) in egui_fallbacks() {
        out.push(FontInsert::new(
            &format!("{BOLD_FALLBACK_PREFIX}{name}"),
            data,
            vec![family(bold.clone(), FontPriority::Lowest)],
        ));
    }
    out.push(FontInsert::new(
        REGULAR_FONT,
        FontData::from_static(ROBOTO_REGULAR),
        vec![family(FontFamily::Proportional, FontPriority::Highest)],
    ));
    out
}

/// Install the bundled fonts on `ctx`: Roboto as the `Proportional` text font, Roboto Bold
/// as [`BOLD_FAMILY`], the symbol fonts as fallbacks of both (and of `Monospace`), and the
/// Material Icons font of the `Icon` component ([`icon_family`](crate::render::icon_family)).
/// egui's own fonts stay as the last fallbacks.
///
/// Call it once at start-up, or let the [`Renderer`](crate::render::Renderer) call it on its first
/// frame. Later calls on the same context do nothing, so a host that changes its fonts
/// afterwards (`ctx.set_fonts`) keeps its choice. The fonts become active at the start of
/// the next pass, or right away if no text was laid out yet in this one.
///
/// Why: the reference web renderer draws with Roboto; egui's built-in font (Ubuntu Light)
/// has no bold and lacks the symbols agents send (`TLV → SFO`, `✓ Done`, `☀ 72°`). So the
/// crate bundles (`assets/fonts/`, licences beside each font):
///
/// - **Roboto** Regular and Bold (Apache-2.0), subset to Latin, Greek, Cyrillic and
///   Vietnamese with punctuation, currency (`€ £ ¥ ₹`), letterlike and number forms;
/// - **DejaVu Sans**, its symbol blocks only (Bitstream Vera licence): arrows, maths,
///   technical symbols, shapes, check marks (`✓ ✔ ✗`), stars, dingbats, box drawing;
/// - **Noto Sans Symbols 2** (OFL-1.1), only what the two above lack in U+2000–2BFF:
///   media controls (`⏮ ⏸`), `⌚ ⌛`, weather (`⛅`), `⭐ ⭕ ❓ ❗`.
///
/// This changes the host's `Proportional` font for its whole UI. To keep the host's own
/// fonts, set [`RendererOptions::install_fonts`](crate::render::RendererOptions) to `false`; a host
/// that builds its own [`egui::FontDefinitions`] can merge the bundled fonts into them with
/// [`extend_definitions`].
///
/// ```
/// let ctx = egui::Context::default();
/// egui_a2ui::install_fonts(&ctx);
/// let mut output = ctx.run_ui(egui::RawInput::default(), |ui| {
///     let body = egui::FontId::proportional(14.0);
///     assert!(ui.ctx().fonts_mut(|f| f.has_glyphs(&body, "TLV → SFO ✓ €12 • 72°")));
///     let bold = egui::FontFamily::Name(egui_a2ui::render::BOLD_FAMILY.into());
///     assert!(ui.ctx().fonts_mut(|f| f.has_glyphs(&egui::FontId::new(14.0, bold), "Bold ✓")));
/// });
/// output.textures_delta.clear(); // a real integration hands these to its painter
/// ```
pub fn install_fonts(ctx: &egui::Context) {
    super::icons::install_icon_font(ctx);
    install_text_fonts(ctx);
}

/// [`install_fonts`] without the icon font (the renderer installs that with its image
/// loaders).
pub(crate) fn install_text_fonts(ctx: &egui::Context) {
    let flag = egui::Id::unique("egui_a2ui::fonts::installed");
    if ctx.data(|d| d.get_temp::<bool>(flag)).unwrap_or(false) {
        return;
    }
    for insert in inserts() {
        ctx.add_font(insert);
    }
    ctx.data_mut(|d| d.insert_temp(flag, true));
}

/// Merge the bundled text and symbol fonts into `definitions` the way [`install_fonts`]
/// does, for a host that builds its own [`FontDefinitions`] and calls `ctx.set_fonts`
/// (together with `RendererOptions::install_fonts = false`). Names already present are
/// left alone, so calling it twice changes nothing.
///
/// ```
/// use egui::FontFamily;
///
/// let mut defs = egui::FontDefinitions::default();
/// egui_a2ui::render::extend_definitions(&mut defs);
/// let egui_first = &egui::FontDefinitions::default().families[&FontFamily::Proportional][0];
/// assert_ne!(&defs.families[&FontFamily::Proportional][0], egui_first); // Roboto comes first
/// assert!(defs.families.contains_key(&FontFamily::Name(egui_a2ui::render::BOLD_FAMILY.into())));
/// ```
pub fn extend_definitions(definitions: &mut FontDefinitions) {
    for insert in inserts() {
        if definitions.font_data.contains_key(&insert.name) {
            continue;
        }
        for f in insert.families {
            let list = definitions.families.entry(f.family).or_default();
            match f.priority {
                FontPriority::Highest => list.insert(0, insert.name.clone()),
                FontPriority::Lowest => list.push(insert.name.clone()),
            }
        }
        definitions
            .font_data
            .insert(insert.name, std::sync::Arc::new(insert.data));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn extended() -> FontDefinitions {
        let mut defs = FontDefinitions::default();
        extend_definitions(&mut defs);
        defs
    }

    #[test]
    fn proportional_starts_with_roboto_then_the_symbol_fonts_then_eguis_fonts() {
        let defs = extended();
        let p = &defs.families[&FontFamily::Proportional];
        assert_eq!(p[..3], [REGULAR_FONT, SYMBOLS_FONT, SYMBOLS2_FONT]);
        let egui_default = FontDefinitions::default();
        assert_eq!(p[3..], egui_default.families[&FontFamily::Proportional][..]);
    }

    #[test]
    fn the_bold_family_is_roboto_bold_with_the_same_fallbacks() {
        let defs = extended();
        let b = &defs.families[&bold_family_name()];
        assert_eq!(b[..3], [BOLD_FONT, SYMBOLS_FONT, SYMBOLS2_FONT]);
        let egui_default = FontDefinitions::default();
        let fallbacks = &egui_default.families[&FontFamily::Proportional];
        assert_eq!(b.len(), 3 + fallbacks.len());
        for (copy, original) in b[3..].iter().zip(fallbacks) {
            assert_eq!(copy, &format!("{BOLD_FALLBACK_PREFIX}{original}"));
        }
        let m = &defs.families[&FontFamily::Monospace];
        assert_eq!(m[m.len() - 2..], [SYMBOLS2_FONT, SYMBOLS_FONT]);
    }

    #[test]
    fn extending_twice_changes_nothing() {
        let once = extended();
        let mut twice = once.clone();
        extend_definitions(&mut twice);
        assert_eq!(once.families, twice.families, "no duplicate family entries");
    }

    /// Characters agents send that egui's built-in fonts draw as tofu.
    const AGENT_SYMBOLS: &str =
        "→←↑↓↔⇒•·€£¥₹₩₽¢✓✔✗✘✕–—…‘’“”«»×÷°±★☆☀☁⚠⚡⛅●○■□▲▼▶◀≈≠≤≥∞™©®§½²µ❤➜⏮⏭⏸⌛⭐";

    #[test]
    fn installed_fonts_cover_the_symbols_agents_send_in_regular_and_bold() {
        let ctx = egui::Context::default();
        // egui's defaults alone lack some of these: the check below is not vacuous.
        let mut output = ctx.run_ui(egui::RawInput::default(), |ui| {
            let body = egui::FontId::proportional(14.0);
            assert!(!ui.ctx().fonts_mut(|f| f.has_glyphs(&body, AGENT_SYMBOLS)));
        });
        output.textures_delta.clear();
        install_fonts(&ctx);
        let mut output = ctx.run_ui(egui::RawInput::default(), |ui| {
            assert!(fonts_ready(ui.ctx()));
            for family in [FontFamily::Proportional, bold_family(ui.ctx())] {
                let font = egui::FontId::new(14.0, family.clone());
                let missing: String = AGENT_SYMBOLS
                    .chars()
                    .filter(|&c| !ui.ctx().fonts_mut(|f| f.has_glyph(&font, c)))
                    .collect();
                assert!(missing.is_empty(), "{family:?} lacks {missing}");
            }
            assert_eq!(bold_family(ui.ctx()), bold_family_name());
        });
        output.textures_delta.clear();
    }

    #[test]
    fn bold_family_falls_back_to_proportional_when_not_installed() {
        let ctx = egui::Context::default();
        let mut output = ctx.run_ui(egui::RawInput::default(), |ui| {
            assert_eq!(bold_family(ui.ctx()), FontFamily::Proportional);
            assert!(!fonts_ready(ui.ctx()));
        });
        output.textures_delta.clear();
    }
}
