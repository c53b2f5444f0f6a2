//! Versions and catalogs of a case: the protocol version it runs in, the catalogs it declares
//! or loads, and the error categories it expects.

use super::*;

pub(super) fn parse_version(s: &str) -> Option<Version> {
    let s = s.trim();
    let v = if s.starts_with('v') {
        s.to_owned()
    } else {
        format!("v{s}")
    };
    match v.as_str() {
        "v0.8" => Some(Version::V0_8),
        other => Version::from_wire(other),
    }
}

/// The case's protocol version, read as the Python harness does: `protocolVersion`, the
/// inline catalog's, the first listed catalog's, then hints in a catalog id; else v0.9.
pub(super) fn case_version(case: &Value) -> Version {
    let from = |v: Option<&Value>| v.and_then(Value::as_str).and_then(parse_version);
    if let Some(v) = from(case.get("protocolVersion")) {
        return v;
    }
    let cat = case.get("catalog");
    if let Some(v) = from(cat.and_then(|c| c.get("protocolVersion")))
        .or_else(|| from(cat.and_then(|c| c.get("version"))))
    {
        return v;
    }
    if let Some(list) = case.get("catalogs").and_then(Value::as_array) {
        for c in list {
            if let Some(v) = from(c.get("protocolVersion")) {
                return v;
            }
        }
    }
    let id = case
        .get("catalogId")
        .or_else(|| cat.and_then(|c| c.get("catalogId")))
        .and_then(Value::as_str)
        .unwrap_or_default();
    if id.contains("v08") || id.contains("v0_8") {
        Version::V0_8
    } else if id.contains("v10") || id.contains("v1_0") || id.contains("v1.0") {
        Version::V1_0
    } else {
        Version::V0_9
    }
}

pub(super) fn basic_components(version: Version) -> Vec<&'static str> {
    if version == Version::V0_8 {
        let mut v: Vec<&str> = BASIC_COMPONENTS
            .iter()
            .copied()
            .filter(|c| *c != "ChoicePicker")
            .collect();
        v.push("MultipleChoice");
        v
    } else {
        BASIC_COMPONENTS.to_vec()
    }
}

/// One catalog a case sets up: its id, version, the component names it defines (`None`:
/// the basic catalog's), its functions, and the definition document when there is one.
#[derive(Clone, Debug)]
pub(super) struct CaseCatalog {
    pub(super) id: String,
    pub(super) version: Version,
    pub(super) components: Option<Vec<String>>,
    pub(super) functions: Option<Vec<String>>,
    pub(super) doc: Option<Value>,
}

impl CaseCatalog {
    pub(super) fn from_doc(id: String, version: Version, doc: &Value) -> Self {
        let names = |k: &str| match doc.get(k) {
            Some(Value::Object(m)) => Some(m.keys().cloned().collect()),
            Some(Value::Array(a)) => Some(
                a.iter()
                    .filter_map(|f| {
                        f.as_str()
                            .or_else(|| f.get("name").and_then(Value::as_str))
                            .map(str::to_owned)
                    })
                    .collect(),
            ),
            _ => None,
        };
        Self {
            id,
            version,
            components: names("components"),
            functions: names("functions"),
            doc: Some(doc.clone()),
        }
    }
}

impl Runner {
    /// The catalogs of a case, the way the Python harness builds them: the inline
    /// `catalog` / `catalogs`, the `catalogPaths` files (a published basic catalog is our
    /// own basic catalog), and every catalog id a `createSurface` names (a copy of the
    /// basic catalog, unless the case expects a catalog error).
    pub(super) fn case_catalogs(&self, case: &Value) -> Result<Vec<CaseCatalog>, String> {
        let version = case_version(case);
        let mut out: Vec<CaseCatalog> = Vec::new();
        let name = case.get("name").and_then(Value::as_str).unwrap_or("case");
        if let Some(cat) = case.get("catalog").and_then(Value::as_object) {
            let doc = cat
                .get("catalogSchema")
                .or_else(|| cat.get("catalog_schema"))
                .unwrap_or(&Value::Null);
            let doc = if doc.is_object() {
                doc.clone()
            } else {
                Value::Object(cat.clone())
            };
            let id = doc
                .get("catalogId")
                .and_then(Value::as_str)
                .map_or_else(|| format!("catalog-{name}"), str::to_owned);
            if doc.get("components").is_some()
                || doc.get("functions").is_some()
                || doc.get("catalogId").is_some()
            {
                let mut c = CaseCatalog::from_doc(id, version, &doc);
                if c.components.as_ref().is_some_and(Vec::is_empty)
                    && doc.get("functions").is_none()
                    && !matches!(
                        case.get("action").and_then(Value::as_str),
                        Some("get_renderer_capabilities")
                    )
                {
                    c.components = None;
                }
                out.push(c);
            }
        }
        if let Some(list) = case.get("catalogs").and_then(Value::as_array) {
            for item in list {
                let Some(id) = item.get("catalogId").and_then(Value::as_str) else {
                    continue;
                };
                let v = item
                    .get("protocolVersion")
                    .and_then(Value::as_str)
                    .and_then(parse_version)
                    .unwrap_or(version);
                let mut c = CaseCatalog::from_doc(id.to_owned(), v, item);
                if c.components.is_none()
                    && item.get("functions").is_none()
                    && item.get("theme").is_none()
                    && case.get("action").and_then(Value::as_str)
                        != Some("get_renderer_capabilities")
                {
                    c.components = None;
                } else if c.components.is_none() {
                    c.components = Some(Vec::new());
                }
                out.push(c);
            }
        }
        if let Some(paths) = case.get("catalogPaths").and_then(Value::as_array) {
            for p in paths.iter().filter_map(Value::as_str) {
                let doc = self.read_json(p)?;
                let id = doc
                    .get("catalogId")
                    .and_then(Value::as_str)
                    .unwrap_or("test-catalog")
                    .to_owned();
                let v = doc_version(&doc, p).unwrap_or(version);
                let is_basic = p.contains("basic/catalog.json")
                    || p.contains("standard_catalog_definition.json")
                    || id == BASIC_CATALOG_V0_9
                    || id == BASIC_CATALOG_V1_0
                    || id == STANDARD_CATALOG_V0_8;
                let mut c = CaseCatalog::from_doc(id.clone(), v, &doc);
                if is_basic {
                    c.components = None;
                }
                out.push(c.clone());
                if !is_basic && id != "test-catalog" {
                    c.id = "test-catalog".into();
                    out.push(c);
                }
            }
        }
        Ok(out)
    }
}

/// The protocol version a catalog document is for: its `protocolVersion`, else the
/// `specification/<v>/` or `catalogs/<name>/v1/` part of its path.
pub(super) fn doc_version(doc: &Value, path: &str) -> Option<Version> {
    if let Some(v) = doc
        .get("protocolVersion")
        .and_then(Value::as_str)
        .and_then(parse_version)
    {
        return Some(v);
    }
    if path.contains("v0_8") {
        Some(Version::V0_8)
    } else if path.contains("v0_9_1") {
        Some(Version::V0_9_1)
    } else if path.contains("v0_9") {
        Some(Version::V0_9)
    } else if path.contains("v1_0") || path.contains("/v1/") {
        Some(Version::V1_0)
    } else {
        None
    }
}

/// Every message of a `messages` / `payload` value: a list, a `{messages: [...]}`
/// container, or one message.
pub(super) fn message_list(v: &Value) -> Vec<Value> {
    match v {
        Value::Array(a) => a.clone(),
        Value::Object(o) => match o.get("messages") {
            Some(Value::Array(a)) => a.clone(),
            _ => vec![v.clone()],
        },
        Value::Null => Vec::new(),
        other => vec![other.clone()],
    }
}

pub(super) fn case_messages(case: &Value) -> Vec<Value> {
    let mut out = Vec::new();
    if let Some(m) = case.get("messages").or_else(|| case.get("payload")) {
        out.extend(message_list(m));
    }
    out
}

/// Catalog ids named by createSurface / beginRendering, with the version of the message.
pub(super) fn named_catalogs(messages: &[Value], out: &mut Vec<(String, Version)>) {
    for m in messages {
        let version = m
            .get("version")
            .and_then(Value::as_str)
            .and_then(parse_version)
            .unwrap_or(Version::V0_8);
        for key in ["createSurface", "beginRendering"] {
            if let Some(id) = m
                .get(key)
                .and_then(|c| c.get("catalogId"))
                .and_then(Value::as_str)
            {
                out.push((id.to_owned(), version));
            }
        }
    }
}

pub(super) fn expect_error_of(v: &Value) -> Option<&Value> {
    v.get("expectError")
        .or_else(|| v.get("expect_error"))
        .filter(|e| !e.is_null())
}

/// The error categories of the suite vocabulary an error of ours counts as. The suites
/// name the exception class of the reference SDKs; ours are typed by what went wrong, so
/// one error may stand for several categories (every rejected message is a validation
/// failure in the SDKs' strict mode, for instance).
pub(super) fn categories(e: &A2uiError) -> &'static [&'static str] {
    match e {
        A2uiError::Json(_) => &["ParseError", "ValidationError"],
        A2uiError::Validation { path, .. } if path.ends_with("catalogId") => {
            &["ValidationError", "CatalogError"]
        }
        // A component id refused (a duplicate in one message, an id that is no
        // identifier): the SDKs' integrity check of the component set.
        A2uiError::Validation { path, .. } if path.ends_with("/id") => {
            &["ValidationError", "IntegrityError"]
        }
        A2uiError::Validation { .. } | A2uiError::UnsupportedVersion(_) => &["ValidationError"],
        A2uiError::Unallowed { .. } => &["ValidationError"],
        A2uiError::SurfaceNotFound(_) | A2uiError::SurfaceExists(_) => {
            &["StateError", "IntegrityError"]
        }
        A2uiError::VersionMismatch { .. } => &["ValidationError", "StateError", "CatalogError"],
        A2uiError::DataModel { .. } => &["DataError"],
        A2uiError::LimitExceeded { .. } => &["IntegrityError", "RecursionError", "ValidationError"],
        A2uiError::Cycle(_) => &["IntegrityError", "ValidationError"],
        A2uiError::CatalogNotFound(_) => &["CatalogError", "StateError"],
        A2uiError::Expression { .. }
        | A2uiError::AgentFunction { .. }
        | A2uiError::UrlRefused { .. } => &["ExpressionError", "ParseError", "ValidationError"],
        A2uiError::MissingDataBinding { .. } => &["DataError"],
        A2uiError::ModelText(_) => &["ParseError", "ValidationError"],
    }
}

/// Does `text` match the expected message (a substring, or a regular expression, compared
/// without regard to case)?
pub(super) fn message_matches(expected: &str, text: &str) -> bool {
    let t = text.to_lowercase();
    if t.contains(&expected.to_lowercase()) {
        return true;
    }
    regex::RegexBuilder::new(expected)
        .case_insensitive(true)
        .size_limit(1 << 20)
        .build()
        .is_ok_and(|r| r.is_match(text))
}

/// Check an error we raised against an `expectError` value: the category and the
/// `code` must agree. The `message` is the reference SDK's English wording; it is compared
/// only where `text_matters` (the expression parser, whose messages the README defines as
/// regular expressions over the error text).
pub(super) fn check_error(expect: &Value, got: &A2uiError, text_matters: bool) -> Check {
    let text = got.to_string();
    let (category, code, message) = match expect {
        Value::String(s) => (None, None, Some(s.as_str())),
        Value::Object(o) => (
            o.get("category").and_then(Value::as_str),
            o.get("code").and_then(Value::as_str),
            o.get("message").and_then(Value::as_str),
        ),
        _ => (None, None, None),
    };
    if let Some(c) = category
        && !categories(got).contains(&c)
    {
        return Err(format!("expected a {c}, got {} ({text})", got.code()));
    }
    if let Some(c) = code
        && got.code() != c
        && !text.contains(c)
    {
        return Err(format!("expected code {c}, got {} ({text})", got.code()));
    }
    if text_matters
        && let Some(m) = message
        && !message_matches(m, &text)
    {
        return Err(format!("expected an error matching {m:?}, got: {text}"));
    }
    Ok(())
}
