//! Locale data for the formatting functions: number symbols and patterns, currency
//! symbols, month and weekday names, and CLDR plural rules.
//!
//! Why not ICU4X (`icu_decimal`, `icu_plurals`)? The reference core formats with Babel, and
//! the behaviours agents see differ from ICU's in ways a formatter crate does not offer:
//! rounding half-even on the shortest decimal text of the float, every currency with two
//! decimals (JPY too), grouping switched off per call, Babel's patterns and currency
//! spacing. Those need custom code on top of any crate, and ICU4X would add some twenty
//! crates and megabytes of data for what is, for 27 locales, a few kilobytes of tables.
//! So the tables in `locale_data.rs` are generated from the same CLDR data through Babel
//! (`tests/data/functions/gen_locales.py`), and the plural rules below are CLDR's rules for
//! those languages written out. en-US is the default and the fallback for any locale not
//! listed.

use super::locale_data::{EN_US, LOCALES};
pub use super::locale_types::{LocaleData, Plural};

impl LocaleData {
    /// The locale for a BCP 47 tag (`en-US`, `de_DE`, `fr`): an exact match, else the first
    /// locale of the same language, else en-US.
    pub fn get(tag: &str) -> &'static Self {
        let norm = tag.replace('_', "-");
        let lang = norm
            .split('-')
            .next()
            .unwrap_or_default()
            .to_ascii_lowercase();
        LOCALES
            .iter()
            .find(|l| l.tag.eq_ignore_ascii_case(&norm))
            .or_else(|| {
                LOCALES
                    .iter()
                    .find(|l| l.tag.split('-').next() == Some(lang.as_str()))
            })
            .or_else(|| LOCALES.first())
            .unwrap_or(&EN_US)
    }

    /// The symbol of an ISO 4217 code in this locale (the code itself when CLDR has none).
    pub fn currency_symbol<'a>(&self, code: &'a str) -> &'a str {
        self.currency_symbols
            .binary_search_by(|(c, _)| (*c).cmp(code))
            .ok()
            .and_then(|i| self.currency_symbols.get(i))
            .map_or(code, |(_, s)| *s)
    }
}

/// A CLDR plural category.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Category {
    /// `zero`.
    Zero,
    /// `one`.
    One,
    /// `two`.
    Two,
    /// `few`.
    Few,
    /// `many`.
    Many,
    /// `other`.
    Other,
}

impl Category {
    /// The argument name of this category in `pluralize`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Zero => "zero",
            Self::One => "one",
            Self::Two => "two",
            Self::Few => "few",
            Self::Many => "many",
            Self::Other => "other",
        }
    }
}

/// CLDR plural operands of a number: `n` absolute value, `i` its integer digits (kept as
/// the last six, enough for every `mod` in the rules, plus whether it is zero/one), `v` the
/// count of visible fraction digits, `t` whether the visible fraction is non-zero.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Operands {
    /// Absolute value.
    pub n: f64,
    /// Integer part modulo 1 000 000.
    pub i_mod: u64,
    /// Whether the integer part is below 1 000 000 (so `i_mod` is `i`).
    pub i_small: bool,
    /// Visible fraction digits.
    pub v: u32,
    /// Whether the visible fraction digits are not all zero.
    pub t_nonzero: bool,
}

impl Operands {
    /// The operands of a finite float as Babel reads it: an integral float has no fraction
    /// digits; otherwise the fraction digits are those of its shortest decimal text.
    pub fn of(x: f64) -> Option<Self> {
        if !x.is_finite() {
            return None;
        }
        let n = x.abs();
        let (digits, exp) = super::pyfmt::shortest_digits(n);
        let (int_digits, frac_len) = if n == 0.0 {
            (String::from("0"), 0u32)
        } else if exp < 0 {
            (
                String::from("0"),
                (digits.len() as i64 - 1 - i64::from(exp)).max(0) as u32,
            )
        } else {
            let int_len = (exp as usize) + 1;
            let mut int_digits: String = digits.chars().take(int_len).collect();
            while int_digits.len() < int_len {
                int_digits.push('0');
            }
            let frac_len = digits.len().saturating_sub(int_len) as u32;
            (int_digits, frac_len)
        };
        let tail_start = int_digits.len().saturating_sub(6);
        let i_mod = int_digits
            .get(tail_start..)
            .unwrap_or("0")
            .parse::<u64>()
            .unwrap_or(0);
        Some(Self {
            n,
            i_mod,
            i_small: int_digits.len() <= 6,
            v: frac_len,
            t_nonzero: frac_len > 0,
        })
    }

    fn i_is(&self, k: u64) -> bool {
        self.i_small && self.i_mod == k
    }
}

impl Plural {
    /// The category of a number.
    pub fn category(self, o: &Operands) -> Category {
        let int = o.v == 0;
        let i10 = o.i_mod % 10;
        let i100 = o.i_mod % 100;
        let french_many = int && !o.i_is(0) && o.i_mod == 0;
        match self {
            Self::OneIfIntOne | Self::Italian | Self::Portuguese if o.i_is(1) && int => {
                Category::One
            }
            Self::OneIfNOne | Self::Spanish if o.n == 1.0 => Category::One,
            Self::French if o.i_is(0) || o.i_is(1) => Category::One,
            Self::French | Self::Spanish | Self::Italian | Self::Portuguese if french_many => {
                Category::Many
            }
            Self::Polish => {
                if o.i_is(1) && int {
                    Category::One
                } else if int && (2..=4).contains(&i10) && !(12..=14).contains(&i100) {
                    Category::Few
                } else if int
                    && ((!o.i_is(1) && i10 <= 1)
                        || (5..=9).contains(&i10)
                        || (12..=14).contains(&i100))
                {
                    Category::Many
                } else {
                    Category::Other
                }
            }
            Self::EastSlavic => {
                if int && i10 == 1 && i100 != 11 {
                    Category::One
                } else if int && (2..=4).contains(&i10) && !(12..=14).contains(&i100) {
                    Category::Few
                } else if int && (i10 == 0 || (5..=9).contains(&i10) || (11..=14).contains(&i100)) {
                    Category::Many
                } else {
                    Category::Other
                }
            }
            Self::Czech => {
                if o.i_is(1) && int {
                    Category::One
                } else if int && o.i_small && (2..=4).contains(&o.i_mod) {
                    Category::Few
                } else if !int {
                    Category::Many
                } else {
                    Category::Other
                }
            }
            Self::Danish if o.n == 1.0 || (o.t_nonzero && (o.i_is(0) || o.i_is(1))) => {
                Category::One
            }
            Self::Hindi if o.i_is(0) || o.n == 1.0 => Category::One,
            _ => Category::Other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_match_exactly_then_by_language_then_fall_back_to_en_us() {
        assert_eq!(LocaleData::get("de_AT").tag, "de-AT");
        assert_eq!(
            LocaleData::get("de-LU").tag,
            "de-DE",
            "first locale of the language"
        );
        assert_eq!(LocaleData::get("xx-YY").tag, "en-US");
        assert_eq!(LocaleData::get("").tag, "en-US");
        // The fallback is the generated en-US row itself (listed first), not a copy.
        assert!(std::ptr::eq(LocaleData::get("xx"), &LOCALES[0]));
        assert_eq!(LocaleData::get("xx").months_wide[0], "January");
        assert_eq!(LocaleData::get("xx").currency_symbol("EUR"), "\u{20ac}");
    }
}
