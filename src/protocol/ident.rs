//! Identifiers as v1.0 spells them (component ids, function and argument names, metadata
//! extension keys).

/// A UAX #31 identifier (Python's `str.isidentifier`): an XID_Start or `_`, then
/// XID_Continue characters.
pub(crate) fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) if c == '_' || unicode_ident::is_xid_start(c) => {
            chars.all(unicode_ident::is_xid_continue)
        }
        _ => false,
    }
}
