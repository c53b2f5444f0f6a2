//! The bundled Material Icons font and the name → glyph map behind the `Icon` component.
//!
//! The font (`assets/fonts/material-icons/`, Apache-2.0) is registered as the egui font
//! family [`ICON_FAMILY`] by [`install_icon_font`] (the [`Renderer`](super::Renderer) does
//! this on its first frame). Names are looked up as given (`shopping_cart`), converted from
//! the A2UI camelCase spelling (`shoppingCart`), or through a few aliases for A2UI names the
//! font spells differently (`favoriteOff` → `favorite_border`).

use std::collections::HashMap;
use std::sync::OnceLock;

/// The egui font family name of the bundled icon font.
pub const ICON_FAMILY: &str = "a2ui-material-icons";

/// The font file (Material Icons, filled, Apache-2.0).
const FONT: &[u8] = include_bytes!("../../assets/fonts/material-icons/MaterialIcons-Regular.ttf");

/// `name hex` per line, from the font package's codepoint table.
const CODEPOINTS: &str = include_str!("../../assets/fonts/material-icons/codepoints");

/// The 59 icon names of the v0.9 / v1.0 basic catalog (the v0.8 list is a subset).
pub const BASIC_ICON_NAMES: [&str; 59] = [
    "accountCircle",
    "add",
    "arrowBack",
    "arrowForward",
    "attachFile",
    "calendarToday",
    "call",
    "camera",
    "check",
    "close",
    "delete",
    "download",
    "edit",
    "event",
    "error",
    "fastForward",
    "favorite",
    "favoriteOff",
    "folder",
    "help",
    "home",
    "info",
    "locationOn",
    "lock",
    "lockOpen",
    "mail",
    "menu",
    "moreVert",
    "moreHoriz",
    "notificationsOff",
    "notifications",
    "pause",
    "payment",
    "person",
    "phone",
    "photo",
    "play",
    "print",
    "refresh",
    "rewind",
    "search",
    "send",
    "settings",
    "share",
    "shoppingCart",
    "skipNext",
    "skipPrevious",
    "star",
    "starHalf",
    "starOff",
    "stop",
    "upload",
    "visibility",
    "visibilityOff",
    "volumeDown",
    "volumeMute",
    "volumeOff",
    "volumeUp",
    "warning",
];

/// A2UI names whose Material spelling is not the plain snake_case form.
const ALIASES: [(&str, &str); 4] = [
    ("favorite_off", "favorite_border"),
    ("star_off", "star_border"),
    ("play", "play_arrow"),
    ("rewind", "fast_rewind"),
];

/// The glyph drawn for unknown names (Material `help_outline`).
pub const FALLBACK_GLYPH: char = '\u{e8fd}';

/// The egui font family of the icon font.
pub fn icon_family() -> egui::FontFamily {
    egui::FontFamily::Name(ICON_FAMILY.into())
}

/// Register the icon font with `ctx` (cheap and idempotent: egui skips a font it has).
pub fn install_icon_font(ctx: &egui::Context) {
    ctx.add_font(egui::epaint::text::FontInsert::new(
        ICON_FAMILY,
        egui::FontData::from_static(FONT),
        vec![egui::epaint::text::InsertFontFamily {
            family: icon_family(),
            priority: egui::epaint::text::FontPriority::Highest,
        }],
    ));
}

/// Whether the icon font is active in `ctx` this pass (it becomes active one pass after
/// [`install_icon_font`] when text was already laid out).
pub fn icon_font_ready(ctx: &egui::Context) -> bool {
    let family = icon_family();
    ctx.fonts(|f| f.definitions().families.contains_key(&family))
}

fn table() -> &'static HashMap<&'static str, char> {
    static TABLE: OnceLock<HashMap<&'static str, char>> = OnceLock::new();
    TABLE.get_or_init(|| {
        CODEPOINTS
            .lines()
            .filter_map(|line| {
                let (name, hex) = line.split_once(' ')?;
                let c = char::from_u32(u32::from_str_radix(hex.trim(), 16).ok()?)?;
                Some((name, c))
            })
            .collect()
    })
}

/// `shoppingCart` → `shopping_cart` (already snake_case names pass through).
pub fn snake_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    for c in name.chars() {
        if c.is_ascii_uppercase() {
            if !out.is_empty() {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// The glyph of an icon name (A2UI camelCase or Material snake_case), if the font has it.
///
/// ```
/// use egui_a2ui::render::icon_glyph;
/// assert_eq!(icon_glyph("shoppingCart"), icon_glyph("shopping_cart"));
/// assert!(icon_glyph("priority_high").is_some());
/// assert!(icon_glyph("noSuchIcon").is_none());
/// ```
pub fn icon_glyph(name: &str) -> Option<char> {
    // Names are short; anything long is not an icon name and is not worth converting.
    if name.is_empty() || name.len() > 64 {
        return None;
    }
    let snake = snake_case(name.trim());
    let key = ALIASES
        .iter()
        .find(|(from, _)| *from == snake)
        .map_or(snake.as_str(), |(_, to)| to);
    table().get(key).copied()
}

/// A readable name for assistive technology: `shoppingCart` → `shopping cart`.
pub fn spoken_name(name: &str) -> String {
    snake_case(name).replace('_', " ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_basic_catalog_icon_name_has_a_glyph() {
        for name in BASIC_ICON_NAMES {
            assert!(icon_glyph(name).is_some(), "{name}");
        }
    }

    #[test]
    fn aliases_map_to_the_material_spelling() {
        assert_eq!(icon_glyph("play"), Some('\u{e037}'));
        assert_eq!(icon_glyph("rewind"), icon_glyph("fast_rewind"));
        assert_eq!(icon_glyph("starOff"), icon_glyph("star_border"));
    }

    #[test]
    fn hostile_names_return_none_without_panicking() {
        for name in ["", " ", "ÄÖÜ", "a_b_c_d", &"x".repeat(10_000), "\u{0}"] {
            let _ = icon_glyph(name);
        }
        assert!(icon_glyph(&"home".repeat(100)).is_none());
    }
}
