//! [`Props`]: the top-level properties of one component, stored compactly.
//!
//! A component has a handful of properties, read by name every frame. A hash map per
//! component (serde_json's `Map` is an `IndexMap` with SipHash: 72 bytes inline, 112-byte
//! buckets and an index table) costs far more heap than the properties themselves and hashes
//! the name on every read. [`Props`] is one boxed slice of `(name, value)` pairs allocated at
//! its exact size, searched linearly, with the names of the A2UI properties interned (a known
//! name is a 2-byte index into a static table, not a heap string).

use std::collections::HashMap;
use std::fmt;

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{Map, Value};

/// Property names of the protocol and of the basic catalogs (v0.8, v0.9, v1.0), sorted:
/// a name found here is stored as its index instead of a heap string.
static NAMES: &[&str] = &[
    "@accessibility",
    "@catalogId",
    "@checks",
    "@metadata",
    "accessibility",
    "action",
    "agentDisplayName",
    "align",
    "alignment",
    "altText",
    "args",
    "axis",
    "call",
    "catalogId",
    "checks",
    "child",
    "children",
    "component",
    "componentId",
    "content",
    "contentChild",
    "context",
    "currency",
    "dataBinding",
    "decimals",
    "description",
    "direction",
    "displayStyle",
    "distribution",
    "enableDate",
    "enableTime",
    "entryPointChild",
    "event",
    "explicitList",
    "filterable",
    "fit",
    "format",
    "grouping",
    "iconUrl",
    "id",
    "justify",
    "label",
    "max",
    "maxAllowedSelections",
    "maxValue",
    "metadata",
    "min",
    "minValue",
    "name",
    "options",
    "outputFormat",
    "path",
    "pattern",
    "placeholder",
    "posterUrl",
    "primary",
    "selections",
    "step",
    "steps",
    "svgPath",
    "tabItems",
    "tabs",
    "template",
    "text",
    "textFieldType",
    "title",
    "trigger",
    "url",
    "usageHint",
    "validationRegexp",
    "value",
    "values",
    "variant",
    "weight",
];

/// The index of `s` in [`NAMES`]: a switch on the length, then a few comparisons of
/// constant length (which compile to word compares), instead of a search with `memcmp` calls.
/// Generated from [`NAMES`]; a unit test checks the two agree.
pub(super) fn known_index(s: &str) -> Option<u16> {
    let i = match s.len() {
        2 => match s {
            "id" => 39,
            _ => return None,
        },
        3 => match s {
            "fit" => 35,
            "max" => 42,
            "min" => 46,
            "url" => 67,
            _ => return None,
        },
        4 => match s {
            "args" => 10,
            "axis" => 11,
            "call" => 12,
            "name" => 48,
            "path" => 51,
            "step" => 57,
            "tabs" => 61,
            "text" => 63,
            _ => return None,
        },
        5 => match s {
            "align" => 7,
            "child" => 15,
            "event" => 32,
            "label" => 41,
            "steps" => 58,
            "title" => 65,
            "value" => 70,
            _ => return None,
        },
        6 => match s {
            "action" => 5,
            "checks" => 14,
            "format" => 36,
            "values" => 71,
            "weight" => 73,
            _ => return None,
        },
        7 => match s {
            "@checks" => 2,
            "altText" => 9,
            "content" => 19,
            "context" => 21,
            "iconUrl" => 38,
            "justify" => 40,
            "options" => 49,
            "pattern" => 52,
            "primary" => 55,
            "svgPath" => 59,
            "trigger" => 66,
            "variant" => 72,
            _ => return None,
        },
        8 => match s {
            "children" => 16,
            "currency" => 22,
            "decimals" => 24,
            "grouping" => 37,
            "maxValue" => 44,
            "metadata" => 45,
            "minValue" => 47,
            "tabItems" => 60,
            "template" => 62,
            _ => return None,
        },
        9 => match s {
            "@metadata" => 3,
            "alignment" => 8,
            "catalogId" => 13,
            "component" => 17,
            "direction" => 26,
            "posterUrl" => 54,
            "usageHint" => 68,
            _ => return None,
        },
        10 => match s {
            "@catalogId" => 1,
            "enableDate" => 29,
            "enableTime" => 30,
            "filterable" => 34,
            "selections" => 56,
            _ => return None,
        },
        11 => match s {
            "componentId" => 18,
            "dataBinding" => 23,
            "description" => 25,
            "placeholder" => 53,
            _ => return None,
        },
        12 => match s {
            "contentChild" => 20,
            "displayStyle" => 27,
            "distribution" => 28,
            "explicitList" => 33,
            "outputFormat" => 50,
            _ => return None,
        },
        13 => match s {
            "accessibility" => 4,
            "textFieldType" => 64,
            _ => return None,
        },
        14 => match s {
            "@accessibility" => 0,
            _ => return None,
        },
        15 => match s {
            "entryPointChild" => 31,
            _ => return None,
        },
        16 => match s {
            "agentDisplayName" => 6,
            "validationRegexp" => 69,
            _ => return None,
        },
        20 => match s {
            "maxAllowedSelections" => 43,
            _ => return None,
        },
        _ => return None,
    };
    Some(i)
}

/// The known name at index `i` of [`NAMES`].
#[inline]
pub(super) fn known_name(i: usize) -> Option<&'static str> {
    NAMES.get(i).copied()
}

/// A property name: an index into [`NAMES`] or an owned string (16 bytes either way).
#[derive(Clone)]
enum Name {
    Known(u16),
    Owned(Box<str>),
}

impl Name {
    fn known(s: &str) -> Option<Self> {
        known_index(s).map(Name::Known)
    }

    /// The name of `s`, interned when it is a known name.
    fn from_str(s: &str) -> Self {
        Self::known(s).unwrap_or_else(|| Self::Owned(s.into()))
    }

    /// The name of `s`, reusing its buffer when it is not a known name.
    fn from_string(s: String) -> Self {
        Self::known(&s).unwrap_or_else(|| Self::Owned(s.into_boxed_str()))
    }

    fn as_str(&self) -> &str {
        match self {
            Self::Known(i) => NAMES.get(usize::from(*i)).copied().unwrap_or_default(),
            Self::Owned(s) => s,
        }
    }
}

/// Converts into a property name for [`Props::insert`]: `&str`, `String`, `Cow<str>`.
pub trait IntoPropName {
    /// Turn `self` into a (possibly interned) name.
    #[doc(hidden)]
    fn into_prop_name(self) -> PropName;
}

/// An opaque property name, built by [`IntoPropName`].
#[derive(Clone)]
pub struct PropName(Name);

impl PropName {
    /// The name as a string.
    pub fn as_str(&self) -> &str {
        self.0.as_str()
    }
}

impl fmt::Debug for PropName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl IntoPropName for &str {
    fn into_prop_name(self) -> PropName {
        PropName(Name::from_str(self))
    }
}

impl IntoPropName for String {
    fn into_prop_name(self) -> PropName {
        PropName(Name::from_string(self))
    }
}

impl IntoPropName for &String {
    fn into_prop_name(self) -> PropName {
        PropName(Name::from_str(self))
    }
}

impl IntoPropName for std::borrow::Cow<'_, str> {
    fn into_prop_name(self) -> PropName {
        match self {
            std::borrow::Cow::Borrowed(s) => s.into_prop_name(),
            std::borrow::Cow::Owned(s) => s.into_prop_name(),
        }
    }
}

impl IntoPropName for PropName {
    fn into_prop_name(self) -> PropName {
        self
    }
}

/// The top-level properties of one component, in wire order.
///
/// Same semantics as the `serde_json::Map` it stands for: a name appears once, a repeated
/// name keeps its first place and takes the later value, iteration is in insertion (wire)
/// order, equality ignores order, and it serializes as a JSON object. Lookups scan the
/// (short) list; the names of A2UI properties are interned, which a reader never sees.
///
/// ```
/// use egui_a2ui::model::Props;
/// use serde_json::{Map, Value, json};
///
/// let mut props = Props::new();
/// props.insert("text", json!("Hello"));
/// props.insert("variant", json!("h1"));
/// props.insert("text", json!("Bye")); // keeps its place, takes the new value
/// assert_eq!(props.get("text"), Some(&json!("Bye")));
/// assert_eq!(props.keys().collect::<Vec<_>>(), ["text", "variant"]);
/// assert_eq!(props["missing"], Value::Null);
///
/// let map: Map<String, Value> = props.to_map();
/// assert_eq!(Value::Object(map), json!({"text": "Bye", "variant": "h1"}));
/// assert_eq!(serde_json::to_string(&props).unwrap(), r#"{"text":"Bye","variant":"h1"}"#);
/// ```
#[derive(Clone, Default)]
pub struct Props {
    entries: Box<[(Name, Value)]>,
}

/// Above this many entries, building a [`Props`] finds repeated names with a hash set
/// instead of scanning (bounds the cost of a hostile component with thousands of keys).
const LINEAR_DEDUP_MAX: usize = 16;

impl Props {
    /// No properties (does not allocate).
    pub fn new() -> Self {
        Self::default()
    }

    /// Build from `(name, value)` pairs in wire order, with the map's semantics for a
    /// repeated name; allocated at its exact size.
    fn from_entries(mut entries: Vec<(Name, Value)>) -> Self {
        dedup(&mut entries);
        Self {
            entries: entries.into_boxed_slice(),
        }
    }

    /// Build from named pairs in wire order (the adapters' own builders), with the map's
    /// semantics for a repeated name; no copy when the vector is exactly full.
    pub(crate) fn from_named(entries: Vec<(PropName, Value)>) -> Self {
        Self::from_entries(entries.into_iter().map(|(k, v)| (k.0, v)).collect())
    }

    /// The number of properties.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    fn position(&self, name: &str) -> Option<usize> {
        self.entries.iter().position(|(k, _)| k.as_str() == name)
    }

    /// The value of `name`.
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.entries
            .iter()
            .find(|(k, _)| k.as_str() == name)
            .map(|(_, v)| v)
    }

    /// The value of `name`, mutably.
    pub fn get_mut(&mut self, name: &str) -> Option<&mut Value> {
        self.entries
            .iter_mut()
            .find(|(k, _)| k.as_str() == name)
            .map(|(_, v)| v)
    }

    /// Whether `name` is set.
    pub fn contains_key(&self, name: &str) -> bool {
        self.position(name).is_some()
    }

    /// Set `name`: an existing name keeps its place and the old value is returned; a new one
    /// goes last.
    pub fn insert(&mut self, name: impl IntoPropName, value: Value) -> Option<Value> {
        let name = name.into_prop_name().0;
        if let Some(slot) = self.get_mut(name.as_str()) {
            return Some(std::mem::replace(slot, value));
        }
        let mut v = Vec::with_capacity(self.entries.len() + 1);
        v.extend(std::mem::take(&mut self.entries).into_vec());
        v.push((name, value));
        self.entries = v.into_boxed_slice();
        None
    }

    /// Remove `name`, keeping the order of the others (like `IndexMap::shift_remove`).
    pub fn remove(&mut self, name: &str) -> Option<Value> {
        let i = self.position(name)?;
        let mut v = std::mem::take(&mut self.entries).into_vec();
        let (_, value) = v.remove(i);
        self.entries = v.into_boxed_slice();
        Some(value)
    }

    /// The `(name, value)` pairs in wire order.
    pub fn iter(&self) -> Iter<'_> {
        Iter(self.entries.iter())
    }

    /// The names in wire order.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|(k, _)| k.as_str())
    }

    /// The values in wire order.
    pub fn values(&self) -> impl Iterator<Item = &Value> {
        self.entries.iter().map(|(_, v)| v)
    }

    /// The values in wire order, mutably.
    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut Value> {
        self.entries.iter_mut().map(|(_, v)| v)
    }

    /// A `serde_json::Map` with the same entries in the same order.
    pub fn to_map(&self) -> Map<String, Value> {
        self.iter()
            .map(|(k, v)| (k.to_owned(), v.clone()))
            .collect()
    }

    /// The `(name, value)` pairs by value, in wire order.
    pub fn into_entries(self) -> impl Iterator<Item = (PropName, Value)> {
        self.entries
            .into_vec()
            .into_iter()
            .map(|(k, v)| (PropName(k), v))
    }
}

/// Collapse repeated names as `serde_json::Map` does: the first place, the last value.
fn dedup(entries: &mut Vec<(Name, Value)>) {
    let n = entries.len();
    if n < 2 {
        return;
    }
    // (first index of the name, index of a repeat), repeats in increasing order.
    let mut repeats: Vec<(usize, usize)> = Vec::new();
    if n <= LINEAR_DEDUP_MAX {
        for (j, (name, _)) in entries.iter().enumerate().skip(1) {
            let head = entries.get(..j).unwrap_or_default();
            if let Some(i) = head.iter().position(|(k, _)| k.as_str() == name.as_str()) {
                repeats.push((i, j));
            }
        }
    } else {
        let mut first: HashMap<&str, usize, foldhash::fast::RandomState> =
            HashMap::with_capacity_and_hasher(n, Default::default());
        for (j, (name, _)) in entries.iter().enumerate() {
            let i = *first.entry(name.as_str()).or_insert(j);
            if i != j {
                repeats.push((i, j));
            }
        }
    }
    if repeats.is_empty() {
        return;
    }
    let mut keep = vec![true; n];
    for &(i, j) in &repeats {
        let value = entries.get_mut(j).map(|(_, v)| std::mem::take(v));
        if let (Some(value), Some((_, slot))) = (value, entries.get_mut(i)) {
            *slot = value;
        }
        if let Some(k) = keep.get_mut(j) {
            *k = false;
        }
    }
    let mut keep = keep.into_iter();
    entries.retain(|_| keep.next().unwrap_or(true));
    entries.shrink_to_fit();
}

/// The `(name, value)` pairs of a [`Props`], in wire order.
#[derive(Clone, Debug)]
pub struct Iter<'a>(std::slice::Iter<'a, (Name, Value)>);

impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl<'a> Iterator for Iter<'a> {
    type Item = (&'a str, &'a Value);
    fn next(&mut self) -> Option<Self::Item> {
        self.0.next().map(|(k, v)| (k.as_str(), v))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl ExactSizeIterator for Iter<'_> {}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.0.next_back().map(|(k, v)| (k.as_str(), v))
    }
}

impl<'a> IntoIterator for &'a Props {
    type Item = (&'a str, &'a Value);
    type IntoIter = Iter<'a>;
    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

impl<K: IntoPropName> FromIterator<(K, Value)> for Props {
    /// Collect pairs in order; a repeated name keeps its first place and takes the later
    /// value.
    fn from_iter<I: IntoIterator<Item = (K, Value)>>(iter: I) -> Self {
        Self::from_entries(
            iter.into_iter()
                .map(|(k, v)| (k.into_prop_name().0, v))
                .collect(),
        )
    }
}

impl From<Map<String, Value>> for Props {
    fn from(map: Map<String, Value>) -> Self {
        // A map has no repeated names: no dedup needed.
        let entries: Vec<(Name, Value)> = map
            .into_iter()
            .map(|(k, v)| (Name::from_string(k), v))
            .collect();
        Self {
            entries: entries.into_boxed_slice(),
        }
    }
}

impl From<Props> for Map<String, Value> {
    fn from(props: Props) -> Self {
        props
            .into_entries()
            .map(|(k, v)| (k.as_str().to_owned(), v))
            .collect()
    }
}

impl From<Props> for Value {
    fn from(props: Props) -> Self {
        Self::Object(props.into())
    }
}

/// A missing name reads as `null` (as `serde_json::Value`'s indexing does), never panics.
impl std::ops::Index<&str> for Props {
    type Output = Value;
    fn index(&self, name: &str) -> &Value {
        static NULL: Value = Value::Null;
        self.get(name).unwrap_or(&NULL)
    }
}

/// Equal when both hold the same names with equal values, in any order (as
/// `serde_json::Map`).
impl PartialEq for Props {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().all(|(k, v)| other.get(k) == Some(v))
    }
}

impl fmt::Debug for Props {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

/// Serializes as a JSON object in wire order.
impl Serialize for Props {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.len()))?;
        for (k, v) in self {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn map_of(text: &str) -> Map<String, Value> {
        serde_json::from_str(text).unwrap_or_default()
    }

    #[test]
    fn the_name_table_is_sorted_unique_and_agrees_with_the_lookup() {
        assert!(NAMES.windows(2).all(|w| w[0] < w[1]));
        assert!(u16::try_from(NAMES.len()).is_ok());
        // The stored form spends one byte below 0x7F on a known name.
        assert!(NAMES.len() < 0x7F);
        for (i, name) in NAMES.iter().enumerate() {
            assert_eq!(known_index(name).map(usize::from), Some(i), "{name}");
        }
        for other in [
            "",
            "tex",
            "texts",
            "Text",
            "@path",
            "valueX",
            "x".repeat(40).as_str(),
        ] {
            assert_eq!(known_index(other), None, "{other}");
        }
    }

    #[test]
    fn repeated_names_keep_the_first_place_and_the_last_value_like_the_map() {
        let text = r#"{"b": 1, "text": 2, "b": 3, "zz": 4, "text": 5}"#;
        let map = map_of(text);
        let props: Props = [("b", json!(1)), ("text", json!(2)), ("b", json!(3))]
            .into_iter()
            .chain([("zz", json!(4)), ("text", json!(5))])
            .collect();
        assert_eq!(props.keys().collect::<Vec<_>>(), ["b", "text", "zz"]);
        assert_eq!(props.get("b"), Some(&json!(3)));
        assert_eq!(props.get("text"), Some(&json!(5)));
        assert_eq!(props.to_map(), map);
        assert_eq!(
            serde_json::to_string(&props).ok(),
            serde_json::to_string(&map).ok()
        );
    }

    #[test]
    fn many_repeated_names_take_the_hashed_dedup_with_the_same_result() {
        let mut pairs: Vec<(String, Value)> = (0..40)
            .map(|i| (format!("k{}", i % 25), json!(i)))
            .collect();
        pairs.push(("text".into(), json!("x")));
        pairs.push(("k3".into(), json!("last")));
        let map: Map<String, Value> = pairs.iter().cloned().collect();
        let props: Props = pairs.into_iter().collect();
        assert_eq!(props.len(), 26);
        assert_eq!(props.to_map(), map);
        assert!(props.keys().eq(map.keys().map(String::as_str)));
        assert_eq!(props["k3"], json!("last"));
    }

    #[test]
    fn interned_and_owned_names_read_the_same() {
        let map = map_of(r#"{"text": "t", "myOwnProp": 1, "children": ["a"], "@checks": []}"#);
        let props = Props::from(map.clone());
        assert!(matches!(props.entries.first(), Some((Name::Known(_), _))));
        assert!(matches!(props.entries.get(1), Some((Name::Owned(_), _))));
        assert_eq!(
            props.keys().collect::<Vec<_>>(),
            ["text", "myOwnProp", "children", "@checks"]
        );
        for (k, v) in &map {
            assert_eq!(props.get(k), Some(v), "{k}");
            assert!(props.contains_key(k));
        }
        assert_eq!(props.to_map(), map);
        assert_eq!(format!("{props:?}"), format!("{map:?}"));
    }

    #[test]
    fn insert_and_remove_keep_the_wire_order() {
        let mut props = Props::from(map_of(r#"{"a": 1, "b": 2, "c": 3}"#));
        assert_eq!(props.insert("b", json!(20)), Some(json!(2)));
        assert_eq!(props.insert("d".to_owned(), json!(4)), None);
        assert_eq!(props.remove("a"), Some(json!(1)));
        assert_eq!(props.remove("a"), None);
        assert_eq!(Value::from(props.clone()), json!({"b": 20, "c": 3, "d": 4}));
        assert_eq!(props.keys().collect::<Vec<_>>(), ["b", "c", "d"]);
        if let Some(v) = props.get_mut("c") {
            *v = json!(30);
        }
        assert_eq!(props["c"], json!(30));
        assert_eq!(props["nope"], Value::Null);
    }

    #[test]
    fn equality_ignores_order_like_the_map() {
        let a = Props::from(map_of(r#"{"a": 1, "b": 2}"#));
        let b = Props::from(map_of(r#"{"b": 2, "a": 1}"#));
        let c = Props::from(map_of(r#"{"b": 2, "a": 3}"#));
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_ne!(a, Props::new());
    }
}
