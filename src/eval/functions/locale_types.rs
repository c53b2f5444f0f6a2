//! The shapes of the generated locale table (`locale_data.rs`): one locale's formatting data
//! and its plural rule family. Apart from `locale.rs`, which reads the table, so that the
//! table and its reader do not import each other.

/// One locale's formatting data (CLDR, through Babel).
#[derive(Debug)]
pub struct LocaleData {
    /// BCP 47 tag, e.g. `en-US`.
    pub tag: &'static str,
    /// Decimal separator.
    pub decimal: &'static str,
    /// Grouping separator.
    pub group: &'static str,
    /// Primary and secondary group sizes of decimal numbers (`(3, 2)` for en-IN).
    pub grouping: (usize, usize),
    /// Group sizes of currency amounts.
    pub currency_grouping: (usize, usize),
    /// The CLDR standard currency pattern, e.g. `¤#,##0.00` or `#,##0.00 ¤`.
    pub currency_pattern: &'static str,
    /// Currency symbols that differ from the ISO code, sorted by code.
    pub currency_symbols: &'static [(&'static str, &'static str)],
    /// Month names (format context), January first.
    pub months_wide: [&'static str; 12],
    /// Abbreviated month names.
    pub months_abbr: [&'static str; 12],
    /// Weekday names, Monday first.
    pub days_wide: [&'static str; 7],
    /// Abbreviated weekday names.
    pub days_abbr: [&'static str; 7],
    /// The language's cardinal plural rules.
    pub plural: Plural,
}

/// The plural rule families of the locales in the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plural {
    /// one: `i = 1 and v = 0` (en, de, nl, sv, fi).
    OneIfIntOne,
    /// one: `n = 1` (nb, tr).
    OneIfNOne,
    /// one: `i = 0,1`; many: `e = 0 and i != 0 and i % 1000000 = 0 and v = 0` (fr, pt-BR).
    French,
    /// one: `n = 1`; many as French (es).
    Spanish,
    /// one: `i = 1 and v = 0`; many as French (it).
    Italian,
    /// one: `i = 1 and v = 0`; many as French (pt-PT).
    Portuguese,
    /// one, few, many (pl).
    Polish,
    /// one, few, many (ru, uk).
    EastSlavic,
    /// one, few, many (cs).
    Czech,
    /// one: `n = 1 or t != 0 and i = 0,1` (da).
    Danish,
    /// one: `i = 0 or n = 1` (hi).
    Hindi,
    /// other only (ja, zh, ko).
    OtherOnly,
}
