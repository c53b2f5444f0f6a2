//! The validators `required`, `regex`, `length`, `numeric` and `email` (basic [catalog]).
//!
//! v0.9 validators return a boolean; v1.0 ones return a `ValidationResult`
//! (`{"valid": bool}`; `email` adds `code`, `message` and `severity` when it fails).
//! Values reached through bindings are read as text the way formatString reads them
//! (`5` → `"5"`, `null` → `""`).
//!
//! [catalog]: https://github.com/a2ui-project/a2ui/blob/main/specification/v0_9/catalogs/basic/catalog.json

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use regex::{Regex, RegexBuilder};
use serde_json::{Map, Value, json};

use crate::eval::EvalContext;
use crate::protocol::Version;

use super::FunctionRegistry;
use super::args::{Builtin, Kind, Param, given, opt, req};
use super::pyfmt::{to_float, to_int, to_text};

const REQUIRED: &[Param] = &[req("value", Kind::Any)];
const REGEX: &[Param] = &[req("value", Kind::DynString), req("pattern", Kind::Str)];
const LENGTH: &[Param] = &[
    req("value", Kind::DynString),
    opt("min", Kind::NonNegInt),
    opt("max", Kind::NonNegInt),
];
const NUMERIC: &[Param] = &[
    req("value", Kind::DynNumber),
    opt("min", Kind::Float),
    opt("max", Kind::Float),
];
const EMAIL: &[Param] = &[req("value", Kind::DynString)];

/// The [web_core] email pattern.
///
/// [web_core]: https://github.com/a2ui-project/a2ui/blob/main/renderers/web_core/src/v0_9/basic_catalog/functions/basic_functions.ts
pub const EMAIL_PATTERN: &str = r"^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\.[a-zA-Z]{2,}$";

/// The message a failed v1.0 `email` check carries.
pub const EMAIL_MESSAGE: &str = "Please enter a valid email address (e.g. user@example.com).";

/// Register the five validators.
pub fn register(r: &mut FunctionRegistry) {
    r.register(Builtin::new("required", REQUIRED, required));
    r.register(Builtin::new("regex", REGEX, regex));
    r.register(Builtin::new("length", LENGTH, length));
    r.register(Builtin::new("numeric", NUMERIC, numeric));
    r.register(Builtin::new("email", EMAIL, email));
}

/// A validator's answer in the caller's protocol version.
fn verdict(valid: bool, cx: &EvalContext<'_>) -> Value {
    if cx.version == Version::V1_0 {
        json!({ "valid": valid })
    } else {
        Value::Bool(valid)
    }
}

fn required(args: &Map<String, Value>, cx: &EvalContext<'_>) -> Result<Value, String> {
    let valid = match args.get("value") {
        None | Some(Value::Null) => false,
        Some(Value::String(s)) => !s.is_empty(),
        Some(Value::Array(a)) => !a.is_empty(),
        Some(_) => true,
    };
    Ok(verdict(valid, cx))
}

/// Compiled patterns, keyed by pattern and size limit, each with the tick it was last
/// used at. Bounded: when full, the least recently used pattern is dropped, so the
/// patterns a surface uses every frame stay compiled while a stream of one-off patterns
/// passes through.
#[derive(Default)]
struct RegexCache {
    map: HashMap<(String, usize), (Regex, u64)>,
    tick: u64,
}

impl RegexCache {
    fn get(&mut self, pattern: &str, limit: usize) -> Option<Regex> {
        self.tick += 1;
        let tick = self.tick;
        // Keyed by an owned pattern: the lookup key is built once per call.
        let (re, used) = self.map.get_mut(&(pattern.to_owned(), limit))?;
        *used = tick;
        Some(re.clone())
    }

    fn insert(&mut self, pattern: &str, limit: usize, re: Regex) {
        if self.map.len() >= REGEX_CACHE_ENTRIES
            && let Some(oldest) = self
                .map
                .iter()
                .min_by_key(|(_, (_, used))| *used)
                .map(|(k, _)| k.clone())
        {
            self.map.remove(&oldest);
        }
        self.tick += 1;
        self.map
            .insert((pattern.to_owned(), limit), (re, self.tick));
    }
}

static REGEX_CACHE: OnceLock<Mutex<RegexCache>> = OnceLock::new();
const REGEX_CACHE_ENTRIES: usize = 128;

/// Whether `pattern` (compiled under `limit`) is in the regex cache (tests).
#[cfg(test)]
fn regex_cached(pattern: &str, limit: usize) -> bool {
    REGEX_CACHE
        .get()
        .and_then(|c| c.lock().ok())
        .is_some_and(|c| c.map.contains_key(&(pattern.to_owned(), limit)))
}

/// Compile `pattern` with a compiled-size limit of `limit` bytes, through a small LRU
/// cache.
pub fn compile_regex(pattern: &str, limit: usize) -> Result<Regex, String> {
    let cache = REGEX_CACHE.get_or_init(|| Mutex::new(RegexCache::default()));
    if let Ok(mut c) = cache.lock()
        && let Some(re) = c.get(pattern, limit)
    {
        return Ok(re);
    }
    let re = RegexBuilder::new(pattern)
        .size_limit(limit)
        .dfa_size_limit(limit)
        .build()
        .map_err(|e| format!("invalid regex pattern {pattern:?}: {e}"))?;
    if let Ok(mut c) = cache.lock() {
        c.insert(pattern, limit, re.clone());
    }
    Ok(re)
}

fn regex(args: &Map<String, Value>, cx: &EvalContext<'_>) -> Result<Value, String> {
    let pattern = to_text(args.get("pattern").unwrap_or(&Value::Null));
    if pattern.len() > cx.limits.max_regex_bytes {
        return Err(format!(
            "regex pattern of {} bytes exceeds max_regex_bytes ({})",
            pattern.len(),
            cx.limits.max_regex_bytes
        ));
    }
    let re = compile_regex(&pattern, cx.limits.max_regex_bytes)?;
    let value = to_text(args.get("value").unwrap_or(&Value::Null));
    Ok(verdict(re.is_match(&value), cx))
}

fn length(args: &Map<String, Value>, cx: &EvalContext<'_>) -> Result<Value, String> {
    let len = match args.get("value") {
        Some(Value::Array(a)) => a.len(),
        None | Some(Value::Null) => 0,
        Some(v) => to_text(v).chars().count(),
    };
    let len = i64::try_from(len).unwrap_or(i64::MAX);
    let bound = |name: &str| -> Result<Option<i64>, String> {
        given(args, name)
            .map(|v| to_int(v).ok_or_else(|| format!("{name} is not an integer")))
            .transpose()
    };
    let valid = bound("min")?.is_none_or(|m| len >= m) && bound("max")?.is_none_or(|m| len <= m);
    Ok(verdict(valid, cx))
}

fn numeric(args: &Map<String, Value>, cx: &EvalContext<'_>) -> Result<Value, String> {
    let Some(x) = args.get("value").and_then(to_float) else {
        return Ok(verdict(false, cx));
    };
    // Comparisons with NaN are false, so a NaN value passes and a NaN bound never fails
    // (the reference's Python comparison semantics).
    let check = |name: &str, fails: fn(f64, f64) -> bool| -> bool {
        match given(args, name) {
            None => true,
            Some(b) => to_float(b).is_some_and(|b| !fails(x, b)),
        }
    };
    let valid = check("min", |x, m| x < m) && check("max", |x, m| x > m);
    Ok(verdict(valid, cx))
}

fn email(args: &Map<String, Value>, cx: &EvalContext<'_>) -> Result<Value, String> {
    static EMAIL_RE: OnceLock<Option<Regex>> = OnceLock::new();
    let value = to_text(args.get("value").unwrap_or(&Value::Null));
    let valid = EMAIL_RE
        .get_or_init(|| Regex::new(EMAIL_PATTERN).ok())
        .as_ref()
        .is_some_and(|re| re.is_match(&value));
    if cx.version == Version::V1_0 && !valid {
        return Ok(json!({
            "valid": false,
            "code": "INVALID_EMAIL",
            "message": EMAIL_MESSAGE,
            "severity": "error",
        }));
    }
    Ok(verdict(valid, cx))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_regex_cache_keeps_hot_patterns_past_its_size() {
        // A distinct limit keeps this test's entries apart from other tests' patterns.
        let limit = 123_457;
        compile_regex("hot-a", limit).expect("compiles");
        compile_regex("hot-b", limit).expect("compiles");
        // Three times the cache's size in one-off patterns, with the hot ones used in
        // between (as a frame uses them): a clear-when-full cache would have dropped them.
        for i in 0..REGEX_CACHE_ENTRIES * 3 {
            compile_regex(&format!("cold-{i}"), limit).expect("compiles");
            compile_regex("hot-a", limit).expect("compiles");
            compile_regex("hot-b", limit).expect("compiles");
            assert!(
                regex_cached("hot-a", limit) && regex_cached("hot-b", limit),
                "{i}"
            );
        }
        assert!(
            !regex_cached("cold-0", limit),
            "the oldest one-off was dropped"
        );
        let len = REGEX_CACHE
            .get()
            .and_then(|c| c.lock().ok())
            .map_or(0, |c| c.map.len());
        assert!(len <= REGEX_CACHE_ENTRIES);
    }
}
