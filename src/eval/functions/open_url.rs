//! `openUrl` (SPEC.md §5.6, §8): the call only checks the URL; opening it is the host's
//! decision, after a user gesture, through the action it receives.
//!
//! Only `http:` and `https:` pass (SPEC.md §8, "allow only the http: and https: schemes, and
//! abort otherwise"); every other scheme, a relative URL included, is an error, so the
//! action pipeline halts. The scheme is read as Python's `urlsplit` reads it: leading
//! control characters and spaces are ignored, tabs and newlines removed, case folded.

use serde_json::{Map, Value};

use crate::eval::EvalContext;
use crate::protocol::Version;

use super::Function;
use super::FunctionRegistry;
use super::args::{Kind, Param, check_params, req};

const URL_V0_9: &[Param] = &[req("url", Kind::Str)];
const URL_V1_0: &[Param] = &[req("url", Kind::StrOrDynamic)];

/// The schemes `openUrl` accepts.
pub const ALLOWED_SCHEMES: &[&str] = &["http", "https"];

/// Register `openUrl`.
pub fn register(r: &mut FunctionRegistry) {
    r.register(OpenUrl);
}

/// `openUrl`: `url` is a literal string in v0.9, and may be bound or computed in v1.0.
struct OpenUrl;

impl Function for OpenUrl {
    fn name(&self) -> &str {
        "openUrl"
    }

    fn check_args(&self, raw: &Map<String, Value>, cx: &EvalContext<'_>) -> Result<(), String> {
        let params = if cx.version == Version::V1_0 {
            URL_V1_0
        } else {
            URL_V0_9
        };
        check_params(params, raw, cx.version)
    }

    fn call(&self, args: &Map<String, Value>, _cx: &EvalContext<'_>) -> Result<Value, String> {
        let Some(Value::String(url)) = args.get("url") else {
            return Ok(Value::Null);
        };
        if url.trim().is_empty() {
            return Ok(Value::Null);
        }
        let scheme = url_scheme(url);
        if ALLOWED_SCHEMES.contains(&scheme.as_str()) {
            Ok(Value::Null)
        } else {
            Err(format!("unsupported URL scheme: {scheme:?}"))
        }
    }
}

/// The scheme of a URL, lower-cased (`""` when it has none), read like Python's
/// `urllib.parse.urlsplit`.
pub fn url_scheme(url: &str) -> String {
    let cleaned: String = url
        .trim_start_matches(|c: char| c <= ' ')
        .chars()
        .filter(|c| !matches!(c, '\t' | '\r' | '\n'))
        .collect();
    let Some((scheme, _)) = cleaned.split_once(':') else {
        return String::new();
    };
    let mut chars = scheme.chars();
    let starts_alpha = chars.next().is_some_and(|c| c.is_ascii_alphabetic());
    if starts_alpha && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')) {
        scheme.to_ascii_lowercase()
    } else {
        String::new()
    }
}
