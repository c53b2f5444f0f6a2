//! A surface's data model: one JSON document addressed by JSON Pointers (RFC 6901), with
//! the A2UI write rules (strict upsert, delete on `null`/omitted, auto-vivification) and a
//! revision counter that later work caches by.

use serde_json::{Map, Value};

use crate::error::A2uiError;

/// Largest array index a write may create; beyond it a write is refused, so one message
/// cannot allocate an array of billions of nulls. Matches the reference core.
pub const MAX_ARRAY_INDEX: usize = 10_000;

/// A JSON document with JSON Pointer reads and writes.
#[derive(Clone, Debug, PartialEq)]
pub struct DataModel {
    root: Value,
    revision: u64,
}

impl Default for DataModel {
    fn default() -> Self {
        Self {
            root: Value::Object(Map::new()),
            revision: 0,
        }
    }
}

/// Split a JSON pointer into unescaped segments. Empty segments are skipped (as the
/// reference core does), so `/a//b` is `/a/b` and `""`/`"/"` is the root.
pub fn parse_pointer(path: &str) -> Result<Vec<String>, A2uiError> {
    let mut out = Vec::new();
    for seg in path.split('/') {
        if seg.is_empty() {
            continue;
        }
        if !seg.contains('~') {
            out.push(seg.to_owned());
            continue;
        }
        let mut s = String::with_capacity(seg.len());
        let mut chars = seg.chars();
        while let Some(c) = chars.next() {
            if c == '~' {
                match chars.next() {
                    Some('0') => s.push('~'),
                    Some('1') => s.push('/'),
                    _ => {
                        return Err(A2uiError::DataModel {
                            path: path.to_owned(),
                            message: "invalid escape: '~' must be followed by 0 or 1".into(),
                        });
                    }
                }
            } else {
                s.push(c);
            }
        }
        out.push(s);
    }
    Ok(out)
}

/// Join segments back into an absolute pointer (`/` for none).
pub fn build_pointer<S: AsRef<str>>(segments: &[S]) -> String {
    if segments.is_empty() {
        return "/".to_owned();
    }
    let mut s = String::new();
    for seg in segments {
        s.push('/');
        s.push_str(&crate::protocol::escape_pointer(seg.as_ref()));
    }
    s
}

/// Resolve a binding path against a scope: absolute paths stand alone, `""` and `"."` are
/// the scope itself, anything else is joined to the scope (`./` prefix allowed).
pub fn resolve_path(path: &str, scope: &str) -> String {
    if path.starts_with('/') {
        return path.to_owned();
    }
    let rel = path.strip_prefix("./").unwrap_or(path);
    if rel.is_empty() || rel == "." {
        return scope.to_owned();
    }
    if scope.is_empty() || scope == "/" {
        format!("/{rel}")
    } else if scope.ends_with('/') {
        format!("{scope}{rel}")
    } else {
        format!("{scope}/{rel}")
    }
}

fn is_index(s: &str) -> bool {
    !s.is_empty()
        && s.bytes().all(|b| b.is_ascii_digit())
        && (s == "0" || !s.starts_with('0'))
        && s.len() <= 18
}

fn index(s: &str) -> Option<usize> {
    if is_index(s) { s.parse().ok() } else { None }
}

/// Read the value at already-parsed segments.
pub fn get_segments<'a, S: AsRef<str>>(root: &'a Value, segments: &[S]) -> Option<&'a Value> {
    let mut cur = root;
    for seg in segments {
        let seg = seg.as_ref();
        cur = match cur {
            Value::Object(m) => m.get(seg)?,
            Value::Array(a) => a.get(index(seg)?)?,
            _ => return None,
        };
    }
    Some(cur)
}

/// Read the value at a JSON pointer without allocating (escapes are decoded only in the
/// segments that have them). Empty segments are skipped, as in [`parse_pointer`]; an
/// invalid escape anywhere in the pointer is the same error [`parse_pointer`] gives.
pub fn get_pointer<'a>(root: &'a Value, path: &str) -> Result<Option<&'a Value>, A2uiError> {
    if path.contains('~') {
        let segs = parse_pointer(path)?;
        return Ok(get_segments(root, &segs));
    }
    let mut cur = root;
    for seg in path.split('/') {
        if seg.is_empty() {
            continue;
        }
        cur = match cur {
            Value::Object(m) => match m.get(seg) {
                Some(v) => v,
                None => return Ok(None),
            },
            Value::Array(a) => match index(seg).and_then(|i| a.get(i)) {
                Some(v) => v,
                None => return Ok(None),
            },
            _ => return Ok(None),
        };
    }
    Ok(Some(cur))
}

impl DataModel {
    /// A model holding `root`.
    pub fn new(root: Value) -> Self {
        Self { root, revision: 0 }
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
    pub fn set(&mut self, path: &str, value: Option<Value>) -> Result<(), A2uiError> {
        let segs = parse_pointer(path)?;
        if segs.is_empty() {
            self.root = value.unwrap_or_else(|| Value::Object(Map::new()));
            self.revision += 1;
            return Ok(());
        }
        if value.is_none() && get_segments(&self.root, &segs).is_none() {
            return Ok(());
        }
        // Validate the whole walk before mutating anything, so a failed write changes
        // nothing.
        self.check_writable(path, &segs)?;
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
                    let slot = m.entry(seg.clone()).or_insert_with(fresh);
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
        match cur {
            Value::Object(m) => match value {
                Some(v) => {
                    m.insert(key.clone(), v);
                }
                None => {
                    m.shift_remove(key);
                }
            },
            Value::Array(a) => {
                let idx = index(key).ok_or_else(|| err("non-numeric segment on an array"))?;
                match value {
                    Some(v) => {
                        if a.len() <= idx {
                            a.resize(idx + 1, Value::Null);
                        }
                        a[idx] = v;
                    }
                    None => {
                        // Deleting an array slot keeps the length (spec: "set to undefined").
                        if let Some(slot) = a.get_mut(idx) {
                            *slot = Value::Null;
                        }
                    }
                }
            }
            _ => return Err(err("cannot write through a primitive value")),
        }
        self.revision += 1;
        Ok(())
    }

    fn check_writable(&self, path: &str, segs: &[String]) -> Result<(), A2uiError> {
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
                Some(Value::Object(m)) => cur = m.get(seg.as_str()),
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
