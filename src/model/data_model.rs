//! A surface's data model: one JSON document addressed by JSON Pointers (RFC 6901), with
//! the A2UI write rules (strict upsert, delete on `null`/omitted, auto-vivification) and a
//! revision counter that later work caches by. A host may observe paths of it
//! ([`DataModel::observe`], see [`super::observe`]).

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::observe::{ChangeSource, DataObserver, Observers, Watch};
use crate::error::A2uiError;

/// Largest array index a write may create; beyond it a write is refused, so one message
/// cannot allocate an array of billions of nulls. Matches the reference core.
pub const MAX_ARRAY_INDEX: usize = 10_000;

/// Most segments a write's pointer may have. Writes vivify the containers they pass
/// through, so without a cap one message could build a document nested a million levels
/// deep (which the recursive drop and serialisation of JSON values would not survive).
/// With it, a model nests at most this plus [`Limits::max_json_depth`] levels.
///
/// [`Limits::max_json_depth`]: crate::limits::Limits::max_json_depth
pub const MAX_POINTER_SEGMENTS: usize = 256;

/// A JSON document with JSON Pointer reads and writes, and its size kept up to date.
///
/// The size ([`Self::byte_size`]) estimates the memory the document holds: every value, `null` included, is charged at least a
/// `serde_json::Value` slot, so a write that pads arrays with thousands of `null`s is
/// charged what they really take. Every write adjusts it by the size of what it adds and
/// removes, so accounting never re-reads the whole model.
///
/// A clone holds the same document but no observers (they watch the model they
/// subscribed to); equality compares the documents.
#[derive(Debug)]
pub struct DataModel {
    root: Value,
    revision: u64,
    bytes: usize,
    /// The paths the user wrote (through an input), for the media rule: a URL bound to
    /// what the user typed is computed from the user's input. `None` once more than
    /// [`MAX_USER_PATHS`] were written: then every path counts as written (fails safe).
    user_paths: Option<Vec<String>>,
    /// The host's observers (empty, and unallocated, when nobody listens).
    observers: Observers,
}

impl Clone for DataModel {
    fn clone(&self) -> Self {
        Self {
            root: self.root.clone(),
            revision: self.revision,
            bytes: self.bytes,
            user_paths: self.user_paths.clone(),
            observers: Observers::default(),
        }
    }
}

impl PartialEq for DataModel {
    fn eq(&self, other: &Self) -> bool {
        self.root == other.root
            && self.revision == other.revision
            && self.bytes == other.bytes
            && self.user_paths == other.user_paths
    }
}

/// The distinct paths a data model remembers the user wrote to (see
/// [`DataModel::user_touched`]); past it every path counts as written.
pub const MAX_USER_PATHS: usize = 256;

impl Default for DataModel {
    fn default() -> Self {
        Self::new(Value::Object(Map::new()))
    }
}

pub use crate::stored::size::{MEMBER_BYTES, VALUE_SLOT_BYTES, value_bytes};

/// Where a write's walk stands: on an existing value, or inside a container the write
/// itself creates (empty so far).
enum Step<'a> {
    Existing(&'a Value),
    FreshObject,
    FreshArray,
}

pub use crate::pointer::{get_pointer, get_segments, parse_pointer, resolve_path};
use crate::pointer::{index, is_index, pointer_segments};

/// `LIMIT_EXCEEDED` when a model of `new` bytes is over `max` (and it was `old` before).
fn check_growth(old: usize, new: usize, max: Option<usize>) -> Result<(), A2uiError> {
    match max {
        Some(max) if new > max && new > old => Err(A2uiError::LimitExceeded {
            what: "max_data_model_bytes",
            limit: max,
            actual: new,
        }),
        _ => Ok(()),
    }
}

impl DataModel {
    /// A model holding `root`.
    pub fn new(root: Value) -> Self {
        let bytes = value_bytes(&root);
        Self {
            root,
            revision: 0,
            bytes,
            user_paths: Some(Vec::new()),
            observers: Observers::default(),
        }
    }

    /// Observe `path` (a JSON pointer; `/` or empty for the whole model): every later
    /// change there is queued in the returned handle, until it is dropped. See
    /// [`super::observe`] for what counts as a change and the bounds
    /// ([`MAX_OBSERVERS`](super::MAX_OBSERVERS) per model: `LIMIT_EXCEEDED` past it; an
    /// invalid pointer is a `DataModel` error).
    pub fn observe(&mut self, path: &str, watch: Watch) -> Result<DataObserver, A2uiError> {
        self.observers.subscribe(path, watch)
    }

    /// Detach every observer: they are told no more changes
    /// ([`DataObserver::is_detached`]). Observers subscribed later are told as usual.
    pub fn detach_observers(&mut self) {
        self.observers.detach_all();
    }

    /// Remember that the user wrote `path` (an input's binding). Bounded: past
    /// `MAX_USER_PATHS` (256) distinct paths every path counts as written.
    pub fn note_user_write(&mut self, path: &str) {
        if let Some(paths) = &mut self.user_paths
            && !paths.iter().any(|p| p == path)
        {
            if paths.len() >= MAX_USER_PATHS {
                self.user_paths = None;
            } else {
                paths.push(path.to_owned());
            }
        }
    }

    /// Whether the value at `path` may hold what the user typed: the user wrote `path`, a
    /// path inside it, or a path it is inside of.
    pub fn user_touched(&self, path: &str) -> bool {
        let Some(paths) = &self.user_paths else {
            return true;
        };
        let within = |inner: &str, outer: &str| {
            outer == "/"
                || outer.is_empty()
                || inner == outer
                || inner
                    .strip_prefix(outer)
                    .is_some_and(|rest| rest.starts_with('/'))
        };
        paths.iter().any(|p| within(path, p) || within(p, path))
    }

    /// The estimated memory of the whole document, in bytes, kept up to date by every
    /// write: each value is charged a `serde_json::Value` slot (`null`s included), strings
    /// their bytes on top, object members their key and map entry.
    pub fn byte_size(&self) -> usize {
        self.bytes
    }

    /// The whole document.
    pub fn root(&self) -> &Value {
        &self.root
    }

    /// Bumped on every successful write; equal revisions mean equal content.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// The value at `path` (absolute pointer), or `None` when it does not exist.
    pub fn get(&self, path: &str) -> Option<&Value> {
        get_pointer(&self.root, path).ok().flatten()
    }

    /// Write `value` at `path`, or delete it when `value` is `None`. Missing intermediate
    /// containers are created (an array when the next segment is an index, else an object).
    /// Writing through a primitive, or a non-index segment on an array, is an error and
    /// leaves the model untouched.
    ///
    /// Observers are told of the change as made by [`ChangeSource::Host`].
    pub fn set(&mut self, path: &str, value: Option<Value>) -> Result<(), A2uiError> {
        self.write(path, value, None, ChangeSource::Host)
    }

    /// [`Self::set`], refused when it would grow the model past `max_bytes` (its
    /// [`Self::byte_size`] after the write): the error is `LIMIT_EXCEEDED`
    /// (`max_data_model_bytes`) and the model stays as it was. A write that shrinks the
    /// model always passes.
    pub fn set_within(
        &mut self,
        path: &str,
        value: Option<Value>,
        max_bytes: usize,
    ) -> Result<(), A2uiError> {
        self.write(path, value, Some(max_bytes), ChangeSource::Host)
    }

    /// [`Self::set`] (or [`Self::set_within`] with `max_bytes`) on behalf of `source`, who
    /// is named to the observers: what the store does for an agent's message, and an
    /// input for the user.
    pub fn set_by(
        &mut self,
        source: ChangeSource,
        path: &str,
        value: Option<Value>,
        max_bytes: Option<usize>,
    ) -> Result<(), A2uiError> {
        self.write(path, value, max_bytes, source)
    }

    fn write(
        &mut self,
        path: &str,
        value: Option<Value>,
        max_bytes: Option<usize>,
        source: ChangeSource,
    ) -> Result<(), A2uiError> {
        let segs = pointer_segments(path)?;
        if segs.len() > MAX_POINTER_SEGMENTS {
            return Err(A2uiError::DataModel {
                path: path.chars().take(200).collect(),
                message: format!(
                    "a write may not go deeper than {MAX_POINTER_SEGMENTS} segments (this one has {})",
                    segs.len()
                ),
            });
        }
        if segs.is_empty() {
            let value = value.unwrap_or_else(|| Value::Object(Map::new()));
            let new = value_bytes(&value);
            check_growth(self.bytes, new, max_bytes)?;
            let old = std::mem::replace(&mut self.root, value);
            self.bytes = new;
            self.revision += 1;
            if !self.observers.is_empty() {
                self.observers
                    .notify(&segs, Some(&old), Some(&self.root), source);
            }
            return Ok(());
        }
        if value.is_none() && get_segments(&self.root, &segs).is_none() {
            return Ok(());
        }
        // Validate the whole walk before mutating anything, so a failed write changes
        // nothing.
        self.check_writable(path, &segs)?;
        let (added, removed) = self.write_cost(&segs, value.as_ref());
        let new = (self.bytes + added).saturating_sub(removed);
        if added > removed {
            check_growth(self.bytes, new, max_bytes)?;
        }
        if self.root.is_null() {
            self.root = Value::Object(Map::new());
        }
        let err = |m: &str| A2uiError::DataModel {
            path: path.to_owned(),
            message: m.to_owned(),
        };
        let mut cur = &mut self.root;
        let last = segs.len() - 1;
        for (i, seg) in segs[..last].iter().enumerate() {
            let next_is_index = is_index(&segs[i + 1]);
            let fresh = || {
                if next_is_index {
                    Value::Array(Vec::new())
                } else {
                    Value::Object(Map::new())
                }
            };
            cur = match cur {
                Value::Object(m) => {
                    // Look up by the borrowed key first: only a new key is allocated.
                    if !m.contains_key(&**seg) {
                        m.insert(seg.as_ref().to_owned(), fresh());
                    }
                    let Some(slot) = m.get_mut(&**seg) else {
                        return Err(err("vivified container vanished"));
                    };
                    if slot.is_null() {
                        *slot = fresh();
                    }
                    slot
                }
                Value::Array(a) => {
                    let idx = index(seg).ok_or_else(|| err("non-numeric segment on an array"))?;
                    if a.len() <= idx {
                        a.resize(idx + 1, Value::Null);
                    }
                    let slot = &mut a[idx];
                    if slot.is_null() {
                        *slot = fresh();
                    }
                    slot
                }
                _ => return Err(err("cannot write through a primitive value")),
            };
        }
        let key = &segs[last];
        // The value replaced, kept for the observers (dropped here as before otherwise).
        let old: Option<Value> = match cur {
            Value::Object(m) => match value {
                Some(v) => match m.get_mut(&**key) {
                    Some(slot) => Some(std::mem::replace(slot, v)),
                    None => {
                        m.insert(key.as_ref().to_owned(), v);
                        None
                    }
                },
                None => m.shift_remove(&**key),
            },
            Value::Array(a) => {
                let idx = index(key).ok_or_else(|| err("non-numeric segment on an array"))?;
                match value {
                    Some(v) => {
                        if a.len() <= idx {
                            a.resize(idx + 1, Value::Null);
                            a[idx] = v;
                            None
                        } else {
                            Some(std::mem::replace(&mut a[idx], v))
                        }
                    }
                    // Deleting an array slot keeps the length (spec: "set to undefined").
                    None => a
                        .get_mut(idx)
                        .map(|slot| std::mem::replace(slot, Value::Null)),
                }
            }
            _ => return Err(err("cannot write through a primitive value")),
        };
        self.bytes = new;
        self.revision += 1;
        if !self.observers.is_empty() {
            let now = get_segments(&self.root, &segs);
            self.observers.notify(&segs, old.as_ref(), now, source);
        }
        Ok(())
    }

    /// The bytes a write adds and removes, walked without changing anything; mirrors what
    /// [`Self::write`] does (vivified containers, array padding, replaced values).
    fn write_cost(&self, segs: &[Cow<'_, str>], value: Option<&Value>) -> (usize, usize) {
        const SLOT: usize = VALUE_SLOT_BYTES;
        let (mut added, mut removed) = (0usize, 0usize);
        let mut cur = if self.root.is_null() {
            removed += SLOT;
            added += SLOT;
            Step::FreshObject
        } else {
            Step::Existing(&self.root)
        };
        let Some((key, path)) = segs.split_last() else {
            return (added, removed);
        };
        for (i, seg) in path.iter().enumerate() {
            let next_fresh = if segs.get(i + 1).is_some_and(|s| is_index(s)) {
                Step::FreshArray
            } else {
                Step::FreshObject
            };
            cur = match cur {
                Step::Existing(Value::Object(m)) => match m.get(&**seg) {
                    Some(Value::Null) => {
                        removed += SLOT;
                        added += SLOT;
                        next_fresh
                    }
                    Some(v) => Step::Existing(v),
                    None => {
                        added += seg.len() + MEMBER_BYTES + SLOT;
                        next_fresh
                    }
                },
                Step::Existing(Value::Array(a)) => {
                    let idx = index(seg).unwrap_or(0);
                    match a.get(idx) {
                        Some(Value::Null) => {
                            removed += SLOT;
                            added += SLOT;
                            next_fresh
                        }
                        Some(v) => Step::Existing(v),
                        None => {
                            added += SLOT * (idx - a.len()) + SLOT;
                            next_fresh
                        }
                    }
                }
                Step::FreshObject => {
                    added += seg.len() + MEMBER_BYTES + SLOT;
                    next_fresh
                }
                Step::FreshArray => {
                    added += SLOT * index(seg).unwrap_or(0) + SLOT;
                    next_fresh
                }
                // Refused by `check_writable` before this is reached.
                Step::Existing(_) => return (added, removed),
            };
        }
        let new = value.map_or(0, value_bytes);
        match (cur, value) {
            (Step::Existing(Value::Object(m)), _) => match (m.get(&**key), value) {
                (Some(old), Some(_)) => {
                    removed += value_bytes(old);
                    added += new;
                }
                (None, Some(_)) => added += key.len() + MEMBER_BYTES + new,
                (Some(old), None) => removed += key.len() + MEMBER_BYTES + value_bytes(old),
                (None, None) => {}
            },
            (Step::Existing(Value::Array(a)), _) => {
                let idx = index(key).unwrap_or(0);
                match (a.get(idx), value) {
                    (Some(old), Some(_)) => {
                        removed += value_bytes(old);
                        added += new;
                    }
                    (None, Some(_)) => added += SLOT * (idx - a.len()) + new,
                    (Some(old), None) => {
                        removed += value_bytes(old);
                        added += SLOT;
                    }
                    (None, None) => {}
                }
            }
            (Step::FreshObject, Some(_)) => added += key.len() + MEMBER_BYTES + new,
            (Step::FreshArray, Some(_)) => added += SLOT * index(key).unwrap_or(0) + new,
            _ => {}
        }
        (added, removed)
    }

    fn check_writable(&self, path: &str, segs: &[Cow<'_, str>]) -> Result<(), A2uiError> {
        let err = |m: String| A2uiError::DataModel {
            path: path.to_owned(),
            message: m,
        };
        let mut cur = Some(&self.root);
        for (i, seg) in segs.iter().enumerate() {
            match cur {
                None | Some(Value::Null) => {
                    // Everything from here is vivified: arrays for index segments.
                    for s in &segs[i..] {
                        if let Some(idx) = index(s)
                            && idx > MAX_ARRAY_INDEX
                        {
                            return Err(err(format!(
                                "array index {idx} exceeds the maximum {MAX_ARRAY_INDEX}"
                            )));
                        }
                    }
                    return Ok(());
                }
                Some(Value::Object(m)) => cur = m.get(&**seg),
                Some(Value::Array(a)) => {
                    let Some(idx) = index(seg) else {
                        return Err(err(format!("non-numeric segment {seg:?} on an array")));
                    };
                    if idx > MAX_ARRAY_INDEX {
                        return Err(err(format!(
                            "array index {idx} exceeds the maximum {MAX_ARRAY_INDEX}"
                        )));
                    }
                    cur = a.get(idx);
                }
                Some(_) => {
                    return Err(err(format!("segment {seg:?} is below a primitive value")));
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// Every kind of write: new keys, replaced values, vivified objects and arrays, padded
    /// arrays, null slots, deletes, root replacement, a null root.
    fn writes() -> Vec<(&'static str, Option<Value>)> {
        vec![
            ("/a", Some(json!(1))),
            ("/a", Some(json!("longer string"))),
            ("/b/c/d", Some(json!({"x": [1, 2, 3]}))),
            ("/l/3", Some(json!(true))),
            ("/l/1/k", Some(json!("vivified in a null slot"))),
            ("/l/7", Some(json!(null))),
            ("/l/9/0/2", Some(json!(4.5))),
            ("/l/3", None),
            ("/b/c", None),
            ("/b/new~1key", Some(json!({"deep": {"er": "x"}}))),
            ("/missing/x", None),
            ("/a", None),
            ("/", Some(Value::Null)),
            ("/n/0", Some(json!("after a null root"))),
            ("", Some(json!({"fresh": [null, {"k": "v"}]}))),
            ("/fresh/0/a", Some(json!(1))),
            ("/fresh/1", None),
        ]
    }

    #[test]
    fn the_size_kept_at_each_write_equals_the_size_of_the_whole_model() {
        let mut m = DataModel::default();
        assert_eq!(m.byte_size(), value_bytes(m.root()));
        for (path, value) in writes() {
            m.set(path, value.clone())
                .unwrap_or_else(|e| panic!("{path}: {e}"));
            assert_eq!(
                m.byte_size(),
                value_bytes(m.root()),
                "after {path} = {value:?}"
            );
        }
    }

    #[test]
    fn a_write_past_the_cap_is_refused_and_changes_nothing() {
        let x = "x".repeat(300);
        // Room for exactly three of these values.
        let cap = value_bytes(&json!({"k0": x, "k1": x, "k2": x}));
        let mut m = DataModel::default();
        for i in 0..3 {
            m.set_within(&format!("/k{i}"), Some(json!(x)), cap)
                .expect("fits");
        }
        let before = m.clone();
        let e = m
            .set_within("/k3", Some(json!(x)), cap)
            .expect_err("the fourth write does not fit");
        assert_eq!(e.code(), "LIMIT_EXCEEDED");
        assert_eq!(m, before, "the model stays as it was");
        assert!(m.byte_size() <= cap);
        // A write that shrinks the model passes, and makes room.
        m.set_within("/k0", None, cap).expect("delete");
        m.set_within("/k3", Some(json!(x)), cap)
            .expect("fits again");
        assert_eq!(m.byte_size(), value_bytes(m.root()));
    }

    #[test]
    fn a_write_may_not_nest_past_the_segment_cap() {
        let mut m = DataModel::default();
        let deep = "/a".repeat(MAX_POINTER_SEGMENTS + 1);
        assert_eq!(
            m.set(&deep, Some(json!(1))).map_err(|e| e.code()),
            Err("DATA_MODEL_ERROR")
        );
        assert_eq!(m.root(), &json!({}));
        let ok = "/a".repeat(MAX_POINTER_SEGMENTS);
        m.set(&ok, Some(json!(1))).expect("at the cap");
    }

    #[test]
    fn padding_nulls_are_charged_a_value_slot_each() {
        let mut m = DataModel::default();
        m.set("/a/9999", Some(json!(1)))
            .expect("within the index cap");
        // 10,000 values now live in the array: the charge is at least their slots, and
        // within a small factor of them (the real memory).
        let slots = 10_000 * std::mem::size_of::<Value>();
        assert!(m.byte_size() >= slots, "{} < {slots}", m.byte_size());
        assert!(
            m.byte_size() < 2 * slots,
            "{} >= 2 * {slots}",
            m.byte_size()
        );
        assert_eq!(m.byte_size(), value_bytes(m.root()));
    }

    #[test]
    fn the_255_segment_vivifying_write_is_refused_by_the_default_cap() {
        // The review's M1 input: /a/9999/9999/... vivifies 254 arrays of 10,000 values.
        let path = format!("/a{}", "/9999".repeat(254));
        let mut m = DataModel::default();
        let max = crate::limits::Limits::default().max_data_model_bytes;
        let e = m
            .set_within(&path, Some(json!(1)), max)
            .expect_err("about 2.5 million values do not fit the default cap");
        assert_eq!(e.code(), "LIMIT_EXCEEDED");
        assert_eq!(m.root(), &json!({}), "nothing was vivified");
        // Without a cap, the charge is what the write really holds.
        let mut m = DataModel::default();
        m.set("/a/9999/9999", Some(json!(1))).expect("two levels");
        let slots = 20_000 * std::mem::size_of::<Value>();
        assert!(m.byte_size() >= slots);
    }
}
