//! The component types the stored form spells in one byte: the basic catalog's 18 (v0.9
//! names), v0.8's `MultipleChoice`, then the extended catalog's. The catalogs
//! ([`crate::model::Catalogs`]) list their types from the same constants, so a type that is
//! in a catalog is stored in one byte.

use super::compact::OWNED;

/// The 18 basic-catalog component types (v0.9 names).
pub const BASIC_COMPONENTS: &[&str] = &[
    "Text",
    "Image",
    "Icon",
    "Video",
    "AudioPlayer",
    "Row",
    "Column",
    "List",
    "Card",
    "Tabs",
    "Modal",
    "Divider",
    "Button",
    "TextField",
    "CheckBox",
    "ChoicePicker",
    "Slider",
    "DateTimeInput",
];

/// The component types of the crate's extended catalog (feature `extended`; see
/// `extended::COMPONENTS`). Named here too, in the egui-free model, so that stored
/// components spell these types in one byte (`model::Component`).
pub const EXTENDED_COMPONENTS: &[&str] = &[
    "Table",
    "Chart",
    "Rating",
    "DateRange",
    "TimePicker",
    "ColorPicker",
    "Progress",
    "Badge",
    "Chip",
];

/// v0.8's `MultipleChoice`, a type stored in one byte with the basic catalog's (v0.9 names)
/// and the extended catalog's; others are spelled out.
pub const MULTIPLE_CHOICE: &str = "MultipleChoice";

/// The type stored as byte `i`: the basic catalog's types, `MultipleChoice`, then the
/// extended catalog's.
pub(crate) fn type_at(i: usize) -> Option<&'static str> {
    let basic = BASIC_COMPONENTS.len();
    match i.checked_sub(basic) {
        None => BASIC_COMPONENTS.get(i).copied(),
        Some(0) => Some(MULTIPLE_CHOICE),
        Some(j) => EXTENDED_COMPONENTS.get(j - 1).copied(),
    }
}

/// The byte type `s` is stored as, when it is one of [`type_at`]'s.
pub(crate) fn type_index(s: &str) -> Option<u8> {
    // Compare the bytes only where the lengths agree.
    let same = |t: &&str| t.len() == s.len() && *t == s;
    let basic = BASIC_COMPONENTS.len();
    let i = if let Some(i) = BASIC_COMPONENTS.iter().position(same) {
        i
    } else if s == MULTIPLE_CHOICE {
        basic
    } else {
        basic + 1 + EXTENDED_COMPONENTS.iter().position(same)?
    };
    u8::try_from(i).ok().filter(|i| *i < OWNED)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_one_byte_type_reads_back() {
        let all: Vec<&str> = BASIC_COMPONENTS
            .iter()
            .chain([MULTIPLE_CHOICE].iter())
            .chain(EXTENDED_COMPONENTS.iter())
            .copied()
            .collect();
        assert!(all.len() < usize::from(OWNED));
        for (i, t) in all.iter().enumerate() {
            assert_eq!(type_index(t).map(usize::from), Some(i), "{t}");
            assert_eq!(type_at(i), Some(*t));
        }
        assert_eq!(type_index("Surface"), None);
        assert_eq!(type_at(all.len()), None);
    }
}
