//! `openUrl` (basic [catalog]): the call only checks the URL; opening it is the host's
//! decision, after a user gesture, through the action it receives.
//!
//! Only `http:` and `https:` pass (implementation [guide], "allow only the http: and
//! https: schemes, and abort otherwise"); every other scheme, a relative URL included, is
//! an error, so the action pipeline halts. The scheme is read as Python's `urlsplit` reads it: leading
//! control characters and spaces are ignored, tabs and newlines removed, case folded. The
//! rule is the one [`UrlPolicy`]'s.
//!
//! [catalog]: https://github.com/a2ui-project/a2ui/blob/main/specification/v0_9/catalogs/basic/catalog.json
//! [guide]: https://github.com/a2ui-project/a2ui/blob/main/specification/v0_9/docs/basic_catalog_implementation_guide.md

use serde_json::{Map, Value};

use crate::eval::EvalContext;
use crate::protocol::Version;
use crate::url_policy::{UrlPolicy, UrlUse};

use super::Function;
use super::FunctionRegistry;
use super::args::{Kind, Param, check_params, req};

const URL_V0_9: &[Param] = &[req("url", Kind::Str)];
const URL_V1_0: &[Param] = &[req("url", Kind::StrOrDynamic)];

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

    /// `catalogs/basic/v1`: `openUrl` has `requiresUserActivation: true`.
    fn requires_user_activation(&self) -> bool {
        true
    }

    fn check_args(&self, raw: &Map<String, Value>, cx: &EvalContext<'_>) -> Result<(), String> {
        let params = if cx.version == Version::V1_0 {
            URL_V1_0
        } else {
            URL_V0_9
        };
        check_params(params, raw, cx.version)
    }

    /// The scheme rule of [`UrlPolicy`] (the host hook and the user-gesture rule apply where
    /// the URL is opened, in the renderer's action handling).
    fn call(&self, args: &Map<String, Value>, _cx: &EvalContext<'_>) -> Result<Value, String> {
        let Some(Value::String(url)) = args.get("url") else {
            return Ok(Value::Null);
        };
        if url.trim().is_empty() {
            return Ok(Value::Null);
        }
        let scheme = url_scheme(url);
        if UrlPolicy::default().scheme_allowed(UrlUse::Open, &scheme) {
            Ok(Value::Null)
        } else {
            Err(format!("unsupported URL scheme: {scheme:?}"))
        }
    }
}

/// The scheme of a URL, lower-cased (`""` when it has none), read like Python's
/// `urllib.parse.urlsplit` (and the WHATWG parser): see [`crate::url_policy::scheme_of`].
pub fn url_scheme(url: &str) -> String {
    crate::url_policy::scheme_of(url).unwrap_or_default()
}
