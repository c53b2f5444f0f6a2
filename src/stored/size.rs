//! What a JSON value costs in memory, as the data-model accounting (and the per-frame call
//! budget) counts it: below `eval` and `model`, which both charge with it.

use serde_json::Value;

/// The memory one value slot takes (`size_of::<serde_json::Value>()`): what every value
/// in a data model is charged at least, the `null`s a write pads an array with included.
pub const VALUE_SLOT_BYTES: usize = std::mem::size_of::<Value>();

/// What one object member costs beyond its key's text and its value: the key's `String`
/// and the map's hash and index entries.
pub const MEMBER_BYTES: usize = std::mem::size_of::<String>() + 2 * std::mem::size_of::<usize>();

/// The estimated memory of a value, as the data-model accounting counts it: each value
/// one [`VALUE_SLOT_BYTES`] slot, strings their UTF-8 bytes on top, and each member of an
/// object its key's bytes and [`MEMBER_BYTES`]. Walked without recursion.
pub fn value_bytes(v: &Value) -> usize {
    const SLOT: usize = VALUE_SLOT_BYTES;
    enum It<'a> {
        Array(std::slice::Iter<'a, Value>),
        Object(serde_json::map::Iter<'a>),
    }
    let mut total = 0usize;
    let mut stack: Vec<It<'_>> = Vec::new();
    let mut next = Some(v);
    loop {
        if let Some(v) = next.take() {
            match v {
                Value::Null | Value::Bool(_) | Value::Number(_) => total += SLOT,
                Value::String(s) => total += SLOT + s.len(),
                Value::Array(a) => {
                    total += SLOT;
                    stack.push(It::Array(a.iter()));
                }
                Value::Object(m) => {
                    total += SLOT;
                    stack.push(It::Object(m.iter()));
                }
            }
        }
        let Some(top) = stack.last_mut() else {
            return total;
        };
        match top {
            It::Array(it) => match it.next() {
                Some(x) => next = Some(x),
                None => {
                    stack.pop();
                }
            },
            It::Object(it) => match it.next() {
                Some((k, x)) => {
                    total += k.len() + MEMBER_BYTES;
                    next = Some(x);
                }
                None => {
                    stack.pop();
                }
            },
        }
    }
}
