//! JSON Pointer (RFC 6901) helpers shared by the data model, the evaluator and the protocol
//! parsers: split, escape, resolve a relative binding path against a scope, read.

use std::borrow::Cow;

use serde_json::Value;

use crate::error::A2uiError;

/// Escape one JSON pointer segment (RFC 6901).
pub(crate) fn escape_pointer(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}

/// Split a JSON pointer into unescaped segments. Empty segments are skipped (as the
/// reference core does), so `/a//b` is `/a/b` and `""`/`"/"` is the root.
pub fn parse_pointer(path: &str) -> Result<Vec<String>, A2uiError> {
    Ok(pointer_segments(path)?
        .into_iter()
        .map(Cow::into_owned)
        .collect())
}

/// [`parse_pointer`], borrowing every segment that has no escape from `path`.
pub(crate) fn pointer_segments(path: &str) -> Result<Vec<Cow<'_, str>>, A2uiError> {
    let mut out = Vec::with_capacity(path.len().min(64) / 4 + 1);
    for seg in path.split('/') {
        if seg.is_empty() {
            continue;
        }
        if !seg.contains('~') {
            out.push(Cow::Borrowed(seg));
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
        out.push(Cow::Owned(s));
    }
    Ok(out)
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

pub(crate) fn is_index(s: &str) -> bool {
    !s.is_empty()
        && s.bytes().all(|b| b.is_ascii_digit())
        && (s == "0" || !s.starts_with('0'))
        && s.len() <= 18
}

pub(crate) fn index(s: &str) -> Option<usize> {
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
