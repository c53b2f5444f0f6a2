//! Icon names map to the right Material Icons glyphs, checked against the names and
//! codepoints read from the bundled font's own ligature table
//! (`tests/data/material-icons-ligatures.txt`, from its GSUB ligatures and cmap).

use std::collections::HashMap;

use egui_a2ui::render::{BASIC_ICON_NAMES, icon_glyph};

fn ligatures() -> HashMap<String, char> {
    let text =
        std::fs::read_to_string("tests/data/material-icons-ligatures.txt").expect("ligature table");
    let table: HashMap<String, char> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (name, hex) = l.split_once(' ').expect("name codepoint");
            let cp = u32::from_str_radix(hex.trim(), 16).expect("hex");
            (name.to_owned(), char::from_u32(cp).expect("codepoint"))
        })
        .collect();
    assert!(table.len() > 2000, "{} ligatures", table.len());
    table
}

/// `shoppingCart` → `shopping_cart`.
fn snake_case(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii_uppercase() {
            out.push('_');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// The Material name each basic-catalog icon is drawn as: its snake_case spelling, except
/// the four names the font spells differently.
fn material_name(a2ui: &str) -> String {
    match a2ui {
        "favoriteOff" => "favorite_border".into(),
        "starOff" => "star_border".into(),
        "play" => "play_arrow".into(),
        "rewind" => "fast_rewind".into(),
        other => snake_case(other),
    }
}

#[test]
fn every_basic_catalog_icon_draws_the_fonts_glyph_for_its_material_name() {
    let table = ligatures();
    for name in BASIC_ICON_NAMES {
        let material = material_name(name);
        let expected = table
            .get(&material)
            .unwrap_or_else(|| panic!("{name}: the font has no ligature {material}"));
        assert_eq!(icon_glyph(name), Some(*expected), "{name} → {material}");
    }
}

#[test]
fn media_controls_are_not_arrows() {
    let table = ligatures();
    let cp = |n: &str| icon_glyph(n).map(u32::from);
    // The official Material Icons codepoints.
    assert_eq!(cp("skipPrevious"), Some(0xe045));
    assert_eq!(cp("skipNext"), Some(0xe044));
    assert_eq!(cp("play"), Some(0xe037));
    assert_eq!(cp("pause"), Some(0xe034));
    assert_eq!(cp("fastForward"), Some(0xe01f));
    assert_eq!(cp("rewind"), Some(0xe020));
    assert_eq!(table["skip_previous"], '\u{e045}');
    assert_eq!(table["skip_next"], '\u{e044}');
    assert_ne!(icon_glyph("skipPrevious"), icon_glyph("arrowBack"));
    assert_ne!(icon_glyph("skipNext"), icon_glyph("arrowForward"));
}

#[test]
fn the_bundled_codepoint_table_agrees_with_the_fonts_ligatures() {
    let table = ligatures();
    let mut wrong = Vec::new();
    for (name, c) in &table {
        if icon_glyph(name) != Some(*c) {
            wrong.push(format!(
                "{name}: {:?} vs font {:04x}",
                icon_glyph(name),
                *c as u32
            ));
        }
    }
    wrong.sort();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
