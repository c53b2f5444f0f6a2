//! The stored form of a component: its id, type and properties encoded into one string,
//! read through borrowed views ([`PropMap`], [`PropRef`]).
//!
//! A `serde_json::Value` costs 80 bytes inline (with `preserve_order`), and every nested
//! object is an `IndexMap` of its own (about 180 bytes for `{"path": "/a"}`); a component
//! held as `Value`s took 6.6 times its JSON size. Here a component is one heap string, about
//! half its JSON size: known property and type names are one byte, lengths and numbers are
//! short variable-length integers, and every container carries its byte length so a reader
//! skips it in O(1). An object keeps its name bytes together ahead of its entries: finding a
//! name reads those bytes (a missing name reads no value) and steps over only the values
//! before it.
//!
//! Components are encoded from editable [`Props`] ([`Component::new`](crate::model::Component::new)),
//! or, on the fast parse path, straight from the message text by [`EncodeValue`] (no
//! `serde_json::Value` is built; a repeated name sends the message to the general path).
//!
//! Every control byte (tags, name indices, integer digits) is ASCII, so the buffer is valid
//! UTF-8 whatever it holds, and a string value is a plain `&str` slice of it: reading a
//! property borrows, it never allocates or validates.
//!
//! The format (`varint`: 6 bits a byte, low first, `0x40` set on all but the last):
//!
//! ```text
//! component := type id-len:varint id props
//! type      := known-type-index (one byte < 0x7F) | 0x7F len:varint bytes
//! props     := object-body
//! object-body := count:varint key-byte{count} entry{count}
//! key-byte  := known-name-index (one byte < 0x7F) | 0x7F (the name is spelled out)
//! entry     := [len:varint bytes, when its key byte is 0x7F] value
//! value     := 'n' | 't' | 'f'
//!            | 'u' varint           (non-negative integer)
//!            | 'i' varint           (negative integer i, stored as !i)
//!            | 'd' varint           (float: its bits, byte-swapped so round numbers are short)
//!            | 's' len:varint bytes
//!            | 'a' body-len:varint count:varint value*   (body-len covers the count and values)
//!            | 'o' body-len:varint object-body
//! ```

use std::fmt;

use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::{Map, Number, Value};

use super::Props;
use super::props::{known_index, known_name};
use super::types::{type_at, type_index};

/// The marker of a name (or type) spelled out instead of interned.
pub(super) const OWNED: u8 = 0x7F;

const NULL: u8 = b'n';
const TRUE: u8 = b't';
const FALSE: u8 = b'f';
const POS: u8 = b'u';
const NEG: u8 = b'i';
const FLOAT: u8 = b'd';
const STR: u8 = b's';
const ARR: u8 = b'a';
const OBJ: u8 = b'o';

/// The digits of `v` as a varint (at most 11 bytes for a `u64`).
fn varint_digits(mut v: u64) -> ([u8; 11], usize) {
    let mut buf = [0u8; 11];
    let mut n = 0;
    for slot in &mut buf {
        // Both casts keep 6 bits: the value is below 0x40.
        let digit = (v & 0x3F) as u8;
        v >>= 6;
        n += 1;
        if v == 0 {
            *slot = digit;
            break;
        }
        *slot = digit | 0x40;
    }
    (buf, n)
}

fn push_varint(out: &mut String, v: u64) {
    if v < 0x40 {
        // One digit (most lengths and counts).
        out.push(char::from(v as u8));
        return;
    }
    let (buf, n) = varint_digits(v);
    for b in buf.iter().take(n) {
        out.push(char::from(*b));
    }
}

fn push_len(out: &mut String, n: usize) {
    push_varint(out, n as u64);
}

fn push_str(out: &mut String, s: &str) {
    push_len(out, s.len());
    out.push_str(s);
}

/// The byte a name is stored as: its index when it is a known name, else [`OWNED`].
fn key_byte(name: &str) -> u8 {
    known_index(name)
        .and_then(|i| u8::try_from(i).ok())
        .filter(|i| *i < OWNED)
        .unwrap_or(OWNED)
}

/// An object's body: the count, the key bytes together (a lookup scans them without
/// stepping over values), then each entry: its name when spelled out, and its value.
fn push_object_body<'v, I>(out: &mut String, count: usize, entries: I)
where
    I: Iterator<Item = (&'v str, &'v Value)> + Clone,
{
    push_len(out, count);
    let keys = out.len();
    for (k, _) in entries.clone() {
        out.push(char::from(key_byte(k)));
    }
    for (j, (k, v)) in entries.enumerate() {
        // The key byte written above.
        if out.as_bytes().get(keys + j) == Some(&OWNED) {
            push_str(out, k);
        }
        push_value(out, v);
    }
}

/// The number of digits of `v` as a varint.
fn varint_len(v: u64) -> usize {
    let bits = 64 - v.leading_zeros() as usize;
    bits.div_ceil(6).max(1)
}

fn str_len(s: &str) -> usize {
    varint_len(s.len() as u64) + s.len()
}

/// A number's tag and varint.
fn number_code(n: &Number) -> (u8, u64) {
    if let Some(u) = n.as_u64() {
        (POS, u)
    } else if let Some(i) = n.as_i64() {
        // Negative (non-negative ones are `u64` above): `!i` is `-i - 1`, >= 0.
        (NEG, !i as u64)
    } else {
        let f = n.as_f64().unwrap_or_default();
        (FLOAT, f.to_bits().swap_bytes())
    }
}

/// Write what `body` writes, preceded by its byte length (so a reader can skip the
/// container without walking it).
fn push_container(out: &mut String, body: impl FnOnce(&mut String)) {
    let start = out.len();
    body(out);
    insert_varints(out, start, &[(out.len() - start) as u64]);
}

/// Insert the varints of (at most two) `values` at `at`: a container's head, once its body
/// is written and measured.
fn insert_varints(out: &mut String, at: usize, values: &[u64]) {
    let mut buf = [0u8; 22];
    let mut n = 0;
    for &v in values.iter().take(2) {
        let (digits, k) = varint_digits(v);
        for &b in digits.iter().take(k) {
            if let Some(slot) = buf.get_mut(n) {
                *slot = b;
                n += 1;
            }
        }
    }
    // Varint digits are ASCII.
    out.insert_str(
        at,
        std::str::from_utf8(buf.get(..n).unwrap_or_default()).unwrap_or_default(),
    );
}

/// Run `f` on an empty reusable buffer (one per thread): a stored form is written there,
/// then copied out at its exact size, so writing it never reallocates.
fn with_scratch<R>(f: impl FnOnce(&mut String) -> R) -> R {
    thread_local! {
        static SCRATCH: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
    }
    SCRATCH.with(|cell| match cell.try_borrow_mut() {
        Ok(mut out) => {
            out.clear();
            let r = f(&mut out);
            // A hostile component must not keep a large buffer alive.
            if out.capacity() > 64 * 1024 {
                *out = String::new();
            }
            r
        }
        Err(_) => f(&mut String::new()),
    })
}

fn push_value(out: &mut String, v: &Value) {
    match v {
        Value::Null => out.push(char::from(NULL)),
        Value::Bool(true) => out.push(char::from(TRUE)),
        Value::Bool(false) => out.push(char::from(FALSE)),
        Value::Number(n) => {
            let (tag, v) = number_code(n);
            out.push(char::from(tag));
            push_varint(out, v);
        }
        Value::String(s) => {
            out.push(char::from(STR));
            push_str(out, s);
        }
        Value::Array(a) => {
            out.push(char::from(ARR));
            push_container(out, |out| {
                push_len(out, a.len());
                for x in a {
                    push_value(out, x);
                }
            });
        }
        Value::Object(m) => {
            out.push(char::from(OBJ));
            push_container(out, |out| {
                push_object_body(out, m.len(), m.iter().map(|(k, x)| (k.as_str(), x)));
            });
        }
    }
}

/// Encode a component: its type, id and properties (in wire order).
pub(crate) fn encode_component(id: &str, component: &str, props: &Props) -> Box<str> {
    with_scratch(|out| {
        match type_index(component) {
            Some(t) => out.push(char::from(t)),
            None => {
                out.push(char::from(OWNED));
                push_str(out, component);
            }
        }
        push_str(out, id);
        push_object_body(out, props.len(), props.iter());
        Box::from(out.as_str())
    })
}

/// Encode a component from its type, id and properties already stored apart (a parsed
/// [`ComponentDef`](crate::protocol::ComponentDef)'s): one allocation, the properties
/// copied as they are.
pub(crate) fn encode_component_stored(id: &str, component: &str, props: &StoredProps) -> Box<str> {
    let ty = if type_index(component).is_some() {
        1
    } else {
        1 + str_len(component)
    };
    let mut out = String::with_capacity(ty + str_len(id) + props.0.len());
    match type_index(component) {
        Some(t) => out.push(char::from(t)),
        None => {
            out.push(char::from(OWNED));
            push_str(&mut out, component);
        }
    }
    push_str(&mut out, id);
    out.push_str(&props.0);
    out.into_boxed_str()
}

/// The properties of one component in the stored form, apart from a component: what a
/// parsed [`ComponentDef`](crate::protocol::ComponentDef) carries until the store makes
/// the component (the fast parse path writes them straight from the message text, without
/// building a `serde_json::Value`). Read them through [`Self::as_map`] (or `get`, `iter`,
/// ...), or make editable [`Props`] with [`Self::to_props`].
///
/// ```
/// use egui_a2ui::model::{Props, StoredProps};
/// use serde_json::json;
///
/// let props: Props = [("text", json!({"path": "/name"}))].into_iter().collect();
/// let stored = StoredProps::from(&props);
/// assert_eq!(stored.get("text").and_then(|t| t.get("path")).and_then(|p| p.as_str()), Some("/name"));
/// assert_eq!(stored.to_props(), props);
/// assert_eq!(stored, props);
/// ```
#[derive(Clone, Default)]
pub struct StoredProps(Box<str>);

impl StoredProps {
    /// The properties, read in place.
    pub fn as_map(&self) -> PropMap<'_> {
        PropMap::at(Cur { s: &self.0, i: 0 }).unwrap_or_default()
    }

    /// The value of `name`.
    pub fn get(&self, name: &str) -> Option<PropRef<'_>> {
        self.as_map().get(name)
    }

    /// Whether `name` is set.
    pub fn contains_key(&self, name: &str) -> bool {
        self.as_map().contains_key(name)
    }

    /// The number of properties.
    pub fn len(&self) -> usize {
        self.as_map().len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.as_map().is_empty()
    }

    /// The `(name, value)` pairs in wire order.
    pub fn iter(&self) -> PropMapIter<'_> {
        self.as_map().iter()
    }

    /// Editable [`Props`] with the same entries in the same order (allocates).
    pub fn to_props(&self) -> Props {
        self.as_map().to_props()
    }

    /// A `serde_json::Map` with the same entries in the same order (allocates).
    pub fn to_map(&self) -> Map<String, Value> {
        self.as_map().to_map()
    }
}

impl From<&Props> for StoredProps {
    fn from(props: &Props) -> Self {
        Self::from_pairs(props.len(), props.iter())
    }
}

impl StoredProps {
    /// From `(name, value)` pairs with distinct names, in order, written at their exact
    /// size.
    pub(crate) fn from_pairs<'v, I>(count: usize, pairs: I) -> Self
    where
        I: Iterator<Item = (&'v str, &'v Value)> + Clone,
    {
        with_scratch(|out| {
            push_object_body(out, count, pairs);
            Self(Box::from(out.as_str()))
        })
    }
}

impl From<Props> for StoredProps {
    fn from(props: Props) -> Self {
        Self::from(&props)
    }
}

impl PartialEq for StoredProps {
    /// The same names with equal values, in any order (as `serde_json::Map`).
    fn eq(&self, other: &Self) -> bool {
        self.as_map() == other.as_map()
    }
}

impl PartialEq<Props> for StoredProps {
    fn eq(&self, other: &Props) -> bool {
        self.as_map() == *other
    }
}

impl fmt::Debug for StoredProps {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.as_map(), f)
    }
}

impl Serialize for StoredProps {
    /// As a JSON object in wire order.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.as_map().serialize(s)
    }
}

/// Objects with more names than this are left to the `Value` path by the direct encoder
/// (it finds repeated names by comparing each with the ones before).
const DIRECT_MAX_KEYS: usize = 64;

/// The stacks the direct encoder ([`EncodeValue`]) shares between nesting levels, and what
/// it noticed.
#[derive(Default)]
pub(crate) struct EncodeScratch {
    /// The key bytes of the objects being written.
    keys: Vec<u8>,
    /// Where the spelled-out names of the objects being written are, in the output.
    owned: Vec<(usize, usize)>,
    /// An object's head (count and key bytes) before it is put in place.
    head: String,
    /// Whether a name starting with `@` was written (v1.0 normalises those).
    pub(crate) at_key: bool,
}

/// An object being written by the direct encoder.
pub(crate) struct ObjectMark {
    body: usize,
    keys: usize,
    owned: usize,
    count: usize,
}

/// Why the direct encoder stopped: the message goes to the `Value` path, which gives the
/// same result (a repeated name takes its first place and last value there).
#[derive(Debug)]
pub(crate) struct NotDirect;

impl EncodeScratch {
    /// Start an object's body at the end of `out`.
    pub(crate) fn begin_object(&self, out: &str) -> ObjectMark {
        ObjectMark {
            body: out.len(),
            keys: self.keys.len(),
            owned: self.owned.len(),
            count: 0,
        }
    }

    /// Write the next name of the object `mark` (its value follows).
    pub(crate) fn key(
        &mut self,
        out: &mut String,
        mark: &mut ObjectMark,
        name: &str,
    ) -> Result<(), NotDirect> {
        if mark.count >= DIRECT_MAX_KEYS {
            return Err(NotDirect);
        }
        let b = key_byte(name);
        if b == OWNED {
            let seen = self.owned.get(mark.owned..).unwrap_or_default();
            if seen
                .iter()
                .any(|&(s, e)| out.get(s..e).is_some_and(|k| k == name))
            {
                return Err(NotDirect);
            }
            self.at_key |= name.starts_with('@');
            push_len(out, name.len());
            let start = out.len();
            out.push_str(name);
            self.owned.push((start, out.len()));
        } else {
            if self.keys.get(mark.keys..).unwrap_or_default().contains(&b) {
                return Err(NotDirect);
            }
            self.at_key |= name.starts_with('@');
        }
        self.keys.push(b);
        mark.count += 1;
        Ok(())
    }

    /// Finish the object `mark`: its count and key bytes go before its entries (and, for a
    /// nested object, its body length before them).
    fn end_object(&mut self, out: &mut String, mark: ObjectMark, nested: bool) {
        let mut head = std::mem::take(&mut self.head);
        head.clear();
        push_len(&mut head, mark.count);
        for &b in self.keys.get(mark.keys..).unwrap_or_default() {
            head.push(char::from(b));
        }
        self.keys.truncate(mark.keys);
        self.owned.truncate(mark.owned);
        out.insert_str(mark.body, &head);
        if nested {
            insert_varints(out, mark.body, &[(out.len() - mark.body) as u64]);
        }
        self.head = head;
    }

    /// Finish the top-level object `mark` (a component's properties) and copy it out.
    pub(crate) fn finish_props(&mut self, out: &mut String, mark: ObjectMark) -> StoredProps {
        let body = mark.body;
        self.end_object(out, mark, false);
        StoredProps(out.get(body..).unwrap_or_default().into())
    }
}

/// Writes one JSON value's stored form straight from a deserializer, without building a
/// `serde_json::Value`: the direct path of the fast parse. Gives up ([`NotDirect`], as a
/// deserializer error) on a repeated name or an object of more than 64 names.
pub(crate) struct EncodeValue<'s> {
    pub(crate) out: &'s mut String,
    pub(crate) scratch: &'s mut EncodeScratch,
}

impl<'de> serde::de::DeserializeSeed<'de> for EncodeValue<'_> {
    type Value = ();
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

/// A string read from JSON text, borrowed from the input when it has no escapes (the
/// names of the direct encoder and the keys of the fast parse path).
pub(crate) struct Str<'de>(pub(crate) std::borrow::Cow<'de, str>);

impl<'de> serde::Deserialize<'de> for Str<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Str<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: serde::de::Error>(self, v: &'de str) -> Result<Str<'de>, E> {
                Ok(Str(std::borrow::Cow::Borrowed(v)))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Str<'de>, E> {
                Ok(Str(std::borrow::Cow::Owned(v.to_owned())))
            }
            fn visit_string<E: serde::de::Error>(self, v: String) -> Result<Str<'de>, E> {
                Ok(Str(std::borrow::Cow::Owned(v)))
            }
        }
        d.deserialize_str(V)
    }
}

impl<'de> serde::de::Visitor<'de> for EncodeValue<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<(), E> {
        self.out.push(char::from(if v { TRUE } else { FALSE }));
        Ok(())
    }
    fn visit_i64<E>(self, v: i64) -> Result<(), E> {
        push_value(self.out, &Value::Number(v.into()));
        Ok(())
    }
    fn visit_u64<E>(self, v: u64) -> Result<(), E> {
        self.out.push(char::from(POS));
        push_varint(self.out, v);
        Ok(())
    }
    fn visit_f64<E>(self, v: f64) -> Result<(), E> {
        match Number::from_f64(v) {
            Some(n) => push_value(self.out, &Value::Number(n)),
            None => self.out.push(char::from(NULL)),
        }
        Ok(())
    }
    fn visit_str<E>(self, v: &str) -> Result<(), E> {
        self.out.push(char::from(STR));
        push_str(self.out, v);
        Ok(())
    }
    fn visit_none<E>(self) -> Result<(), E> {
        self.out.push(char::from(NULL));
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        self.out.push(char::from(NULL));
        Ok(())
    }
    fn visit_some<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        self.out.push(char::from(ARR));
        let start = self.out.len();
        let mut count = 0usize;
        while seq
            .next_element_seed(EncodeValue {
                out: &mut *self.out,
                scratch: &mut *self.scratch,
            })?
            .is_some()
        {
            count += 1;
        }
        // The body length (which covers the count) and the count go before the items.
        let count = count as u64;
        let body = varint_len(count) + (self.out.len() - start);
        insert_varints(self.out, start, &[body as u64, count]);
        Ok(())
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        self.out.push(char::from(OBJ));
        let mut mark = self.scratch.begin_object(self.out);
        while let Some(k) = map.next_key::<Str<'de>>()? {
            self.scratch
                .key(self.out, &mut mark, &k.0)
                .map_err(|NotDirect| serde::de::Error::custom("not direct"))?;
            map.next_value_seed(EncodeValue {
                out: &mut *self.out,
                scratch: &mut *self.scratch,
            })?;
        }
        self.scratch.end_object(self.out, mark, true);
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------
// Reading

/// A read position in an encoded string. Every read is checked: a malformed buffer reads
/// as missing values, never a panic (the encoder above never writes one).
#[derive(Clone, Copy)]
struct Cur<'a> {
    s: &'a str,
    i: usize,
}

impl<'a> Cur<'a> {
    #[inline]
    fn byte(&mut self) -> Option<u8> {
        let b = *self.s.as_bytes().get(self.i)?;
        self.i += 1;
        Some(b)
    }

    /// A varint: one byte for values below 64 (lengths, counts, small numbers), the
    /// common case, inline; longer ones out of line.
    #[inline]
    fn varint(&mut self) -> Option<u64> {
        let b = self.byte()?;
        if b & 0x40 == 0 {
            return Some(u64::from(b));
        }
        self.varint_rest(b)
    }

    #[inline(never)]
    fn varint_rest(&mut self, first: u8) -> Option<u64> {
        let mut v = u64::from(first & 0x3F);
        let mut shift = 6u32;
        loop {
            let b = self.byte()?;
            v |= u64::from(b & 0x3F).checked_shl(shift)?;
            if b & 0x40 == 0 {
                return Some(v);
            }
            shift += 6;
            if shift >= 66 {
                return None;
            }
        }
    }

    #[inline]
    fn len(&mut self) -> Option<usize> {
        usize::try_from(self.varint()?).ok()
    }

    /// Step over `n` bytes.
    #[inline]
    fn skip(&mut self, n: usize) -> Option<()> {
        let end = self.i.checked_add(n)?;
        if end > self.s.len() {
            return None;
        }
        self.i = end;
        Some(())
    }

    fn take(&mut self, n: usize) -> Option<&'a str> {
        let end = self.i.checked_add(n)?;
        let r = self.s.get(self.i..end)?;
        self.i = end;
        Some(r)
    }

    fn string(&mut self) -> Option<&'a str> {
        let n = self.len()?;
        self.take(n)
    }

    /// Step over one value.
    #[inline]
    fn skip_value(&mut self) -> Option<()> {
        match self.byte()? {
            NULL | TRUE | FALSE => Some(()),
            POS | NEG | FLOAT => self.varint().map(drop),
            STR | ARR | OBJ => {
                let n = self.len()?;
                self.skip(n)
            }
            _ => None,
        }
    }

    /// Step over a component's type.
    #[inline]
    fn skip_type(&mut self) -> Option<()> {
        if self.byte()? == OWNED {
            let n = self.len()?;
            self.skip(n)?;
        }
        Some(())
    }
}

/// The parts of an encoded component.
pub(crate) struct Parts<'a> {
    pub(crate) component: &'a str,
    pub(crate) id: &'a str,
    pub(crate) props: PropMap<'a>,
}

/// Split an encoded component into its type, id and properties.
pub(crate) fn decode_component(s: &str) -> Parts<'_> {
    Parts {
        component: component_type(s),
        id: component_id(s),
        props: props_at(s, props_offset(s)),
    }
}

/// The id of an encoded component (the map's hash key: read without the rest).
#[inline]
pub(crate) fn component_id(s: &str) -> &str {
    let mut c = Cur { s, i: 0 };
    c.skip_type().and_then(|()| c.string()).unwrap_or_default()
}

/// The type of an encoded component.
#[inline]
pub(crate) fn component_type(s: &str) -> &str {
    let mut c = Cur { s, i: 0 };
    match c.byte() {
        Some(OWNED) => c.string().unwrap_or_default(),
        Some(t) => type_at(usize::from(t)).unwrap_or_default(),
        None => "",
    }
}

/// Where the properties of an encoded component start (`u32::MAX`, past the end, when it
/// is malformed or longer than 4 GiB: it then reads as no properties).
pub(crate) fn props_offset(s: &str) -> u32 {
    let mut c = Cur { s, i: 0 };
    c.skip_type()
        .and_then(|()| c.len())
        .and_then(|n| c.skip(n))
        .and_then(|()| u32::try_from(c.i).ok())
        .unwrap_or(u32::MAX)
}

/// The properties of an encoded component whose [`props_offset`] is `at`.
#[inline]
pub(crate) fn props_at(s: &str, at: u32) -> PropMap<'_> {
    PropMap::at(Cur { s, i: at as usize }).unwrap_or_default()
}

/// One stored property value, borrowed from its component: read it like a
/// `serde_json::Value` (`as_str`, `as_f64`, `get`, ...), or make one with
/// [`to_value`](Self::to_value).
///
/// ```
/// use egui_a2ui::model::{Component, Props};
/// use serde_json::json;
///
/// let props: Props = [("text", json!({"path": "/name"})), ("max", json!(100))]
///     .into_iter()
///     .collect();
/// let c = Component::new("t".into(), "Text".into(), props);
/// let text = c.prop("text").unwrap();
/// assert!(text.is_object());
/// assert_eq!(text.get("path").and_then(|p| p.as_str()), Some("/name"));
/// assert_eq!(c.prop("max").and_then(|m| m.as_f64()), Some(100.0));
/// assert_eq!(text.to_value(), json!({"path": "/name"}));
/// assert_eq!(text, json!({"path": "/name"}));
/// ```
#[derive(Clone, Copy)]
pub struct PropRef<'a> {
    s: &'a str,
    i: usize,
}

/// What a [`PropRef`] holds.
#[derive(Clone, Copy, Debug)]
pub enum PropKind<'a> {
    /// `null`.
    Null,
    /// A boolean.
    Bool(bool),
    /// A number (integers stay integers, as in `serde_json`).
    Number(PropNumber),
    /// A string.
    String(&'a str),
    /// An array.
    Array(PropList<'a>),
    /// An object.
    Object(PropMap<'a>),
}

/// A stored number: an integer or a float, as `serde_json::Number` keeps it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PropNumber {
    /// A non-negative integer.
    PosInt(u64),
    /// A negative integer.
    NegInt(i64),
    /// A float.
    Float(f64),
}

impl PropNumber {
    /// As `serde_json::Number`.
    pub fn to_number(self) -> Number {
        match self {
            Self::PosInt(u) => u.into(),
            Self::NegInt(i) => i.into(),
            Self::Float(f) => Number::from_f64(f).unwrap_or_else(|| 0.into()),
        }
    }

    /// As `f64` (integers may round, as `serde_json::Number::as_f64`).
    pub fn as_f64(self) -> f64 {
        match self {
            Self::PosInt(u) => u as f64,
            Self::NegInt(i) => i as f64,
            Self::Float(f) => f,
        }
    }
}

impl<'a> PropRef<'a> {
    /// What the value is.
    pub fn kind(self) -> PropKind<'a> {
        let mut c = Cur {
            s: self.s,
            i: self.i,
        };
        let Some(tag) = c.byte() else {
            return PropKind::Null;
        };
        match tag {
            TRUE => PropKind::Bool(true),
            FALSE => PropKind::Bool(false),
            POS => c
                .varint()
                .map_or(PropKind::Null, |u| PropKind::Number(PropNumber::PosInt(u))),
            NEG => c.varint().map_or(PropKind::Null, |u| {
                PropKind::Number(PropNumber::NegInt(!(u as i64)))
            }),
            FLOAT => c.varint().map_or(PropKind::Null, |b| {
                PropKind::Number(PropNumber::Float(f64::from_bits(b.swap_bytes())))
            }),
            STR => c.string().map_or(PropKind::Null, PropKind::String),
            ARR => PropList::at(c).map_or(PropKind::Null, PropKind::Array),
            OBJ => {
                // The body length (an object is read entry by entry up to its count).
                if c.len().is_none() {
                    return PropKind::Null;
                }
                PropMap::at(c).map_or(PropKind::Null, PropKind::Object)
            }
            _ => PropKind::Null,
        }
    }

    /// The string, if it is one.
    #[inline]
    pub fn as_str(self) -> Option<&'a str> {
        let mut c = Cur {
            s: self.s,
            i: self.i,
        };
        if c.byte()? != STR {
            return None;
        }
        c.string()
    }

    /// The number as `f64`, if it is one.
    pub fn as_f64(self) -> Option<f64> {
        match self.kind() {
            PropKind::Number(n) => Some(n.as_f64()),
            _ => None,
        }
    }

    /// The number as `i64`, if it is an integer that fits.
    pub fn as_i64(self) -> Option<i64> {
        match self.kind() {
            PropKind::Number(PropNumber::PosInt(u)) => i64::try_from(u).ok(),
            PropKind::Number(PropNumber::NegInt(i)) => Some(i),
            _ => None,
        }
    }

    /// The number as `u64`, if it is a non-negative integer.
    pub fn as_u64(self) -> Option<u64> {
        match self.kind() {
            PropKind::Number(PropNumber::PosInt(u)) => Some(u),
            _ => None,
        }
    }

    /// The boolean, if it is one.
    pub fn as_bool(self) -> Option<bool> {
        match self.kind() {
            PropKind::Bool(b) => Some(b),
            _ => None,
        }
    }

    /// The array, if it is one.
    pub fn as_array(self) -> Option<PropList<'a>> {
        match self.kind() {
            PropKind::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The object, if it is one.
    pub fn as_object(self) -> Option<PropMap<'a>> {
        match self.kind() {
            PropKind::Object(m) => Some(m),
            _ => None,
        }
    }

    #[inline]
    fn tag(self) -> Option<u8> {
        self.s.as_bytes().get(self.i).copied()
    }

    /// Whether it is `null`.
    pub fn is_null(self) -> bool {
        self.tag() == Some(NULL)
    }

    /// Whether it is a string.
    pub fn is_string(self) -> bool {
        self.tag() == Some(STR)
    }

    /// Whether it is a number.
    pub fn is_number(self) -> bool {
        matches!(self.tag(), Some(POS | NEG | FLOAT))
    }

    /// Whether it is a boolean.
    pub fn is_boolean(self) -> bool {
        matches!(self.tag(), Some(TRUE | FALSE))
    }

    /// Whether it is an array.
    pub fn is_array(self) -> bool {
        self.tag() == Some(ARR)
    }

    /// Whether it is an object.
    pub fn is_object(self) -> bool {
        self.tag() == Some(OBJ)
    }

    /// Member `name` of an object (`None` for anything else).
    pub fn get(self, name: &str) -> Option<Self> {
        self.as_object()?.get(name)
    }

    /// A `serde_json::Value` with the same content (allocates; for the API edges).
    pub fn to_value(self) -> Value {
        match self.kind() {
            PropKind::Null => Value::Null,
            PropKind::Bool(b) => Value::Bool(b),
            PropKind::Number(n) => Value::Number(n.to_number()),
            PropKind::String(s) => Value::String(s.to_owned()),
            PropKind::Array(a) => Value::Array(a.iter().map(PropRef::to_value).collect()),
            PropKind::Object(m) => Value::Object(m.to_map()),
        }
    }

    /// Equal to `v` (objects in any order, as `serde_json::Value`), without building one.
    pub fn eq_value(self, v: &Value) -> bool {
        match (self.kind(), v) {
            (PropKind::Null, Value::Null) => true,
            (PropKind::Bool(a), Value::Bool(b)) => a == *b,
            (PropKind::Number(a), Value::Number(b)) => a.to_number() == *b,
            (PropKind::String(a), Value::String(b)) => a == b,
            (PropKind::Array(a), Value::Array(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.eq_value(y))
            }
            (PropKind::Object(a), Value::Object(b)) => {
                a.len() == b.len()
                    && a.iter()
                        .all(|(k, x)| b.get(k).is_some_and(|y| x.eq_value(y)))
            }
            _ => false,
        }
    }
}

impl PartialEq for PropRef<'_> {
    /// Equal content (objects in any order, as `serde_json::Value`).
    fn eq(&self, other: &Self) -> bool {
        match (self.kind(), other.kind()) {
            (PropKind::Null, PropKind::Null) => true,
            (PropKind::Bool(a), PropKind::Bool(b)) => a == b,
            (PropKind::Number(a), PropKind::Number(b)) => a.to_number() == b.to_number(),
            (PropKind::String(a), PropKind::String(b)) => a == b,
            (PropKind::Array(a), PropKind::Array(b)) => {
                a.len() == b.len() && a.iter().zip(b.iter()).all(|(x, y)| x == y)
            }
            (PropKind::Object(a), PropKind::Object(b)) => a == b,
            _ => false,
        }
    }
}

impl PartialEq<Value> for PropRef<'_> {
    fn eq(&self, other: &Value) -> bool {
        self.eq_value(other)
    }
}

impl PartialEq<PropRef<'_>> for Value {
    fn eq(&self, other: &PropRef<'_>) -> bool {
        other.eq_value(self)
    }
}

impl fmt::Debug for PropRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.to_value(), f)
    }
}

impl fmt::Display for PropRef<'_> {
    /// As JSON.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.to_value(), f)
    }
}

impl Serialize for PropRef<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.kind() {
            PropKind::Null => s.serialize_unit(),
            PropKind::Bool(b) => s.serialize_bool(b),
            PropKind::Number(n) => n.to_number().serialize(s),
            PropKind::String(x) => s.serialize_str(x),
            PropKind::Array(a) => a.serialize(s),
            PropKind::Object(m) => m.serialize(s),
        }
    }
}

impl From<PropRef<'_>> for Value {
    fn from(v: PropRef<'_>) -> Self {
        v.to_value()
    }
}

/// A stored array: its items in order.
#[derive(Clone, Copy, Default)]
pub struct PropList<'a> {
    s: &'a str,
    /// The first item.
    start: usize,
    count: usize,
}

impl<'a> PropList<'a> {
    /// The list whose body-length varint `c` is at.
    fn at(mut c: Cur<'a>) -> Option<Self> {
        let body = c.len()?;
        let end = c.i.checked_add(body)?;
        let count = c.len()?;
        let s = c.s.get(..end)?;
        Some(Self {
            s,
            start: c.i,
            count,
        })
    }

    /// The number of items.
    pub fn len(self) -> usize {
        self.count
    }

    /// Whether it has none.
    pub fn is_empty(self) -> bool {
        self.count == 0
    }

    /// The items in order.
    pub fn iter(self) -> PropListIter<'a> {
        PropListIter {
            c: Cur {
                s: self.s,
                i: self.start,
            },
            left: self.count,
        }
    }

    /// Item `i`.
    pub fn get(self, i: usize) -> Option<PropRef<'a>> {
        self.iter().nth(i)
    }
}

impl<'a> IntoIterator for PropList<'a> {
    type Item = PropRef<'a>;
    type IntoIter = PropListIter<'a>;
    fn into_iter(self) -> PropListIter<'a> {
        self.iter()
    }
}

impl fmt::Debug for PropList<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Serialize for PropList<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.count))?;
        for x in self.iter() {
            seq.serialize_element(&x)?;
        }
        seq.end()
    }
}

/// The items of a [`PropList`].
#[derive(Clone)]
pub struct PropListIter<'a> {
    c: Cur<'a>,
    left: usize,
}

impl<'a> Iterator for PropListIter<'a> {
    type Item = PropRef<'a>;
    fn next(&mut self) -> Option<PropRef<'a>> {
        if self.left == 0 {
            return None;
        }
        let at = self.c.i;
        if self.c.skip_value().is_none() {
            self.left = 0;
            return None;
        }
        self.left -= 1;
        Some(PropRef { s: self.c.s, i: at })
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        (0, Some(self.left))
    }
}

/// A stored object, or a component's properties: `(name, value)` pairs in wire order, read
/// like a `serde_json::Map` (`get`, `contains_key`, `iter`, `keys`, `len`).
///
/// ```
/// use egui_a2ui::model::{Component, Props};
/// use serde_json::json;
///
/// let props: Props = [("text", json!("Hi")), ("variant", json!("h1"))].into_iter().collect();
/// let c = Component::new("t".into(), "Text".into(), props.clone());
/// let stored = c.props();
/// assert_eq!(stored.len(), 2);
/// assert_eq!(stored.keys().collect::<Vec<_>>(), ["text", "variant"]);
/// assert_eq!(stored.get("text").and_then(|t| t.as_str()), Some("Hi"));
/// assert!(!stored.contains_key("missing"));
/// assert_eq!(stored.to_props(), props);
/// ```
#[derive(Clone, Copy, Default)]
pub struct PropMap<'a> {
    s: &'a str,
    /// The key bytes, one per entry.
    keys: usize,
    /// The first entry (after the key bytes).
    entries: usize,
    count: usize,
}

impl<'a> PropMap<'a> {
    /// The object whose entry count `c` is at (it is read entry by entry, up to the count).
    #[inline]
    fn at(mut c: Cur<'a>) -> Option<Self> {
        let count = c.len()?;
        let keys = c.i;
        c.skip(count)?;
        Some(Self {
            s: c.s,
            keys,
            entries: c.i,
            count,
        })
    }

    fn key_bytes(self) -> &'a [u8] {
        self.s
            .as_bytes()
            .get(self.keys..self.entries)
            .unwrap_or_default()
    }

    /// The number of entries.
    pub fn len(self) -> usize {
        self.count
    }

    /// Whether there are none.
    pub fn is_empty(self) -> bool {
        self.count == 0
    }

    /// The `(name, value)` pairs in wire order.
    pub fn iter(self) -> PropMapIter<'a> {
        PropMapIter {
            keys: self.key_bytes().iter(),
            c: Cur {
                s: self.s,
                i: self.entries,
            },
        }
    }

    /// The names in wire order.
    pub fn keys(self) -> impl Iterator<Item = &'a str> {
        self.iter().map(|(k, _)| k)
    }

    /// The values in wire order.
    pub fn values(self) -> impl Iterator<Item = PropRef<'a>> {
        self.iter().map(|(_, v)| v)
    }

    /// The value of `name`.
    #[inline]
    pub fn get(self, name: &str) -> Option<PropRef<'a>> {
        // The known names, from the key bytes alone (most names differ in length: the
        // bytes are compared only when the lengths agree); no value is stepped over for a
        // name that is not there.
        for (j, &b) in self.key_bytes().iter().enumerate() {
            if b == OWNED {
                return self.get_among_spelled_out(name);
            }
            if let Some(k) = known_name(usize::from(b))
                && k.len() == name.len()
                && k == name
            {
                return if j == 0 {
                    Some(PropRef {
                        s: self.s,
                        i: self.entries,
                    })
                } else {
                    self.value_at(j)
                };
            }
        }
        None
    }

    /// The value of entry `j`.
    #[inline(never)]
    fn value_at(self, j: usize) -> Option<PropRef<'a>> {
        let mut c = Cur {
            s: self.s,
            i: self.entries,
        };
        for &b in self.key_bytes().get(..j)? {
            if b == OWNED {
                let n = c.len()?;
                c.skip(n)?;
            }
            c.skip_value()?;
        }
        Some(PropRef { s: self.s, i: c.i })
    }

    /// [`Self::get`] for an object with spelled-out names (custom properties).
    #[inline(never)]
    fn get_among_spelled_out(self, name: &str) -> Option<PropRef<'a>> {
        self.iter().find(|(k, _)| *k == name).map(|(_, v)| v)
    }

    /// Whether `name` is set.
    pub fn contains_key(self, name: &str) -> bool {
        self.get(name).is_some()
    }

    /// A `serde_json::Map` with the same entries in the same order (allocates).
    pub fn to_map(self) -> Map<String, Value> {
        self.iter()
            .map(|(k, v)| (k.to_owned(), v.to_value()))
            .collect()
    }

    /// Editable [`Props`] with the same entries in the same order (allocates).
    pub fn to_props(self) -> Props {
        self.iter().map(|(k, v)| (k, v.to_value())).collect()
    }
}

impl PartialEq for PropMap<'_> {
    /// The same names with equal values, in any order (as `serde_json::Map`).
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len()
            && self
                .iter()
                .all(|(k, v)| other.get(k).is_some_and(|w| v == w))
    }
}

impl PartialEq<Props> for PropMap<'_> {
    fn eq(&self, other: &Props) -> bool {
        self.len() == other.len()
            && self
                .iter()
                .all(|(k, v)| other.get(k).is_some_and(|w| v.eq_value(w)))
    }
}

impl<'a> IntoIterator for PropMap<'a> {
    type Item = (&'a str, PropRef<'a>);
    type IntoIter = PropMapIter<'a>;
    fn into_iter(self) -> PropMapIter<'a> {
        self.iter()
    }
}

impl fmt::Debug for PropMap<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl Serialize for PropMap<'_> {
    /// As a JSON object in wire order.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.count))?;
        for (k, v) in self.iter() {
            m.serialize_entry(k, &v)?;
        }
        m.end()
    }
}

/// The `(name, value)` pairs of a [`PropMap`].
#[derive(Clone)]
pub struct PropMapIter<'a> {
    keys: std::slice::Iter<'a, u8>,
    c: Cur<'a>,
}

impl<'a> Iterator for PropMapIter<'a> {
    type Item = (&'a str, PropRef<'a>);
    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let b = *self.keys.next()?;
        let entry = if b == OWNED {
            self.c.string()
        } else {
            known_name(usize::from(b))
        }
        .and_then(|k| {
            let at = self.c.i;
            self.c.skip_value()?;
            Some((k, PropRef { s: self.c.s, i: at }))
        });
        if entry.is_none() {
            // Malformed: stop.
            self.keys = std::slice::Iter::default();
        }
        entry
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        (0, Some(self.keys.len()))
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    fn stored(props: &Value) -> (Box<str>, Props) {
        let p = Props::from(props.as_object().cloned().unwrap_or_default());
        (encode_component("an-id", "Text", &p), p)
    }

    #[test]
    fn a_component_reads_back_as_it_was_written() {
        let v = json!({
            "text": {"path": "/items/0/name"},
            "action": {"event": {"name": "press", "context": {"row": 12, "neg": -3, "f": 0.5}}},
            "children": ["a", "b", "ç€😀"],
            "myOwnProp": [null, true, false, u64::MAX, i64::MIN, 1e300, -0.0, "", {}],
            "weight": 2.5,
        });
        let (s, p) = stored(&v);
        let parts = decode_component(&s);
        assert_eq!(parts.component, "Text");
        assert_eq!(parts.id, "an-id");
        assert_eq!(component_id(&s), "an-id");
        assert_eq!(Value::Object(parts.props.to_map()), v);
        assert_eq!(parts.props, p);
        assert_eq!(
            parts.props.keys().collect::<Vec<_>>(),
            ["text", "action", "children", "myOwnProp", "weight"]
        );
        let text = parts
            .props
            .get("text")
            .map(|t| t.get("path").map(PropRef::as_str));
        assert_eq!(text, Some(Some(Some("/items/0/name"))));
        let row = parts
            .props
            .get("action")
            .and_then(|a| a.get("event"))
            .and_then(|e| e.get("context"))
            .and_then(|c| c.get("row"));
        assert_eq!(row.and_then(PropRef::as_u64), Some(12));
        let own = parts.props.get("myOwnProp").and_then(PropRef::as_array);
        assert_eq!(own.map(PropList::len), Some(9));
        assert_eq!(
            own.and_then(|a| a.get(3)).and_then(PropRef::as_u64),
            Some(u64::MAX)
        );
        assert_eq!(
            own.and_then(|a| a.get(4)).and_then(PropRef::as_i64),
            Some(i64::MIN)
        );
        assert_eq!(
            own.and_then(|a| a.get(5)).and_then(PropRef::as_f64),
            Some(1e300)
        );
        assert_eq!(
            parts.props.get("weight").and_then(PropRef::as_f64),
            Some(2.5)
        );
        assert!(parts.props.get("nope").is_none());
        assert_eq!(
            serde_json::to_string(&parts.props).ok(),
            serde_json::to_string(&v).ok()
        );
        // Floats keep their sign and integers stay integers, as in `Value`.
        let z = own.and_then(|a| a.get(6)).map(PropRef::to_value);
        assert_eq!(
            z.as_ref().and_then(Value::as_f64).map(f64::to_bits),
            Some((-0.0f64).to_bits())
        );
        assert_ne!(json!(1), json!(1.0));
        let (one, _) = stored(&json!({"a": 1, "b": 1.0}));
        let one = decode_component(&one).props;
        assert_eq!(one.get("a").map(PropRef::to_value), Some(json!(1)));
        assert_eq!(one.get("b").map(PropRef::to_value), Some(json!(1.0)));
        assert_ne!(one.get("a"), one.get("b"));
    }

    #[test]
    fn known_names_and_types_take_one_byte_and_others_are_spelled_out() {
        let p: Props = [("text", json!("Press"))].into_iter().collect();
        // type, id length, id, count, key, tag, length, text
        assert_eq!(
            encode_component("x1", "Text", &p).len(),
            1 + 1 + 2 + 1 + 1 + 1 + 1 + 5
        );
        let q: Props = [("myOwn", json!(1))].into_iter().collect();
        let s = encode_component("x1", "MyWidget", &q);
        let parts = decode_component(&s);
        assert_eq!((parts.component, parts.id), ("MyWidget", "x1"));
        assert_eq!(parts.props.get("myOwn").and_then(PropRef::as_u64), Some(1));
        // A known name is not found among spelled-out ones, nor the other way round.
        assert!(parts.props.get("text").is_none());
        assert!(
            decode_component(&encode_component("x1", "Text", &p))
                .props
                .get("myOwn")
                .is_none()
        );
    }

    #[test]
    fn equality_ignores_object_order_like_value() {
        let (a, _) = stored(&json!({"x": {"p": 1, "q": [1, {"r": 2, "s": 3}]}, "y": 2}));
        let (b, _) = stored(&json!({"y": 2, "x": {"q": [1, {"s": 3, "r": 2}], "p": 1}}));
        let (c, _) = stored(&json!({"y": 2, "x": {"q": [{"s": 3, "r": 2}, 1], "p": 1}}));
        let (a, b, c) = (
            decode_component(&a),
            decode_component(&b),
            decode_component(&c),
        );
        assert_eq!(a.props, b.props);
        assert_ne!(a.props, c.props);
        let x = a.props.get("x");
        assert!(x.is_some_and(|x| x == json!({"q": [1, {"s": 3, "r": 2}], "p": 1})));
    }

    #[test]
    fn a_malformed_buffer_reads_as_missing_without_panicking() {
        let (s, _) = stored(&json!({"text": {"path": "/a"}, "children": ["a", "b"]}));
        for end in 0..s.len() {
            let Some(cut) = s.get(..end) else { continue };
            let parts = decode_component(cut);
            let _ = parts.props.to_map();
            let _ = parts.props.get("children").map(PropRef::to_value);
            let _ = serde_json::to_string(&parts.props);
        }
        for junk in [
            "\u{7f}\u{7f}\u{7f}",
            "\u{0}\u{7f}zz",
            "\u{1}\u{4}abcd\u{2}\u{40}",
            "\u{1}\u{7f}\u{7f}\u{7f}\u{7f}\u{7f}\u{7f}\u{7f}\u{7f}\u{7f}\u{7f}\u{7f}\u{7f}",
        ] {
            let parts = decode_component(junk);
            let _ = parts.props.to_map();
        }
    }

    /// Any JSON value of a few levels, with the names and strings that matter to A2UI
    /// (bindings, calls, templates, actions, `@` names) among the random ones.
    pub(crate) fn arb_json() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<u64>().prop_map(Value::from),
            any::<i64>().prop_map(Value::from),
            any::<f64>()
                .prop_filter("finite", |f| f.is_finite())
                .prop_map(Value::from),
            ".{0,12}".prop_map(Value::String),
            prop::sample::select(vec!["path", "text", "children", "label", "@x"])
                .prop_map(|s| Value::String(s.to_owned())),
        ];
        leaf.prop_recursive(4, 48, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                prop::collection::vec(
                    (
                        prop_oneof![
                            ".{0,8}",
                            "@[a-z]{0,4}",
                            prop::sample::select(vec![
                                "path",
                                "call",
                                "args",
                                "text",
                                "event",
                                "name",
                                "componentId",
                                "functionCall"
                            ])
                            .prop_map(str::to_owned)
                        ],
                        inner
                    ),
                    0..6
                )
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
            ]
        })
    }

    proptest! {
        #[test]
        fn any_json_object_round_trips(
            props in prop::collection::vec(
                (prop_oneof![".{0,8}", prop::sample::select(vec!["text", "value", "children", "action"]).prop_map(str::to_owned)], arb_json()),
                0..8
            ),
            id in ".{0,20}",
            ty in prop_oneof![".{0,10}", Just("Text".to_owned()), Just("Row".to_owned())],
        ) {
            let map: Map<String, Value> = props.into_iter().collect();
            let p = Props::from(map.clone());
            let s = encode_component(&id, &ty, &p);
            let parts = decode_component(&s);
            prop_assert_eq!(parts.id, id.as_str());
            prop_assert_eq!(parts.component, ty.as_str());
            prop_assert_eq!(component_id(&s), id.as_str());
            prop_assert_eq!(parts.props.to_map(), map.clone());
            prop_assert!(parts.props == p);
            for (k, v) in &map {
                let got = parts.props.get(k);
                prop_assert!(got.is_some_and(|g| g == *v), "{} -> {:?}", k, got);
            }
            prop_assert_eq!(serde_json::to_string(&parts.props).ok(), serde_json::to_string(&map).ok());
        }
    }
}
