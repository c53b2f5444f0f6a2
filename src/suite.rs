//! A runner for the official language-agnostic A2UI conformance suites of the renderer
//! core (`conformance/core/*.yaml` upstream; the suite format is
//! `conformance/conformance_schema.json`).
//!
//! Each case is run against this crate's own egui-free core: the message processor
//! ([`SurfaceStore`]), the evaluator ([`crate::eval`]), the data model, the `formatString`
//! parser, the capability metadata ([`crate::capabilities`]) and the v1.0 RPC answers.
//! Fixtures a case names (`catalogPaths`, `catalogPath`, `expectFile`) are read relative to
//! the repository root of the suite, which is the parent of the `conformance/` folder the
//! suite file is in ([`repo_root_of`]), as the upstream harnesses resolve them.
//!
//! The runner takes a suite already parsed into a [`serde_json::Value`] (the suites are
//! YAML; the caller parses them), so the crate needs no YAML parser.
//!
//! ```
//! use egui_a2ui::suite::{Outcome, Runner};
//! use serde_json::json;
//!
//! let cases = json!([{
//!     "name": "test_expr_relative_path",
//!     "action": "parse_expression_template",
//!     "input": "${user}",
//!     "expect": [{"path": "user"}],
//! }]);
//! let results = Runner::new(".").run_suite(&cases);
//! assert_eq!(results[0].outcome, Outcome::Pass);
//! ```
//!
//! A case is [`Outcome::Skip`]ped only when it tests an SDK interface this crate does not
//! have (schema generation from typed models, an agent SDK's prompting and parsing, an
//! A2A / ADK integration's parts); the reason says which. Every action the schema defines
//! has a handler, the renderer-side ones without a published suite included
//! (`dispatch_action`, `resolve_nodes`: see the `renderer` module's notes on how node
//! paths are named); only an action the schema does not define fails with "no handler".

use std::path::{Path, PathBuf};

mod renderer;

use serde_json::{Map, Value, json};

use crate::catalog::Catalog;
use crate::error::A2uiError;
use crate::eval::checks::evaluate_checks;
use crate::eval::{AllowedCallers, EvalContext, FnFunction, FunctionRegistry};
use crate::limits::Limits;
use crate::model::tree::{NodeKind, TreeNode, resolve_tree};
use crate::model::{BASIC_COMPONENTS, Catalogs, DataModel, Surface, SurfaceStore};
use crate::protocol::{BASIC_CATALOG_V0_9, BASIC_CATALOG_V1_0, STANDARD_CATALOG_V0_8, Version};

/// How one case ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every expectation of the case held.
    Pass,
    /// An expectation failed; the text says which.
    Fail(String),
    /// Not run: the case tests an SDK interface this crate does not have (the text says
    /// which).
    Skip(String),
}

/// The outcome of one named case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CaseResult {
    /// The case's `name`.
    pub name: String,
    /// The case's `action`.
    pub action: String,
    /// How it ended.
    pub outcome: Outcome,
}

impl std::fmt::Display for CaseResult {
    /// One line: `PASS name`, `FAIL name: reason` or `SKIP name: reason`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.outcome {
            Outcome::Pass => write!(f, "PASS {}", self.name),
            Outcome::Fail(r) => write!(f, "FAIL {}: {}", self.name, one_line(r)),
            Outcome::Skip(r) => write!(f, "SKIP {}: {}", self.name, one_line(r)),
        }
    }
}

fn one_line(s: &str) -> String {
    s.replace('\n', " ")
}

/// Counts of a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Cases that passed.
    pub passed: usize,
    /// Cases that failed.
    pub failed: usize,
    /// Cases skipped.
    pub skipped: usize,
}

impl Summary {
    /// Count the outcomes of `results`.
    pub fn of(results: &[CaseResult]) -> Self {
        let mut s = Self::default();
        for r in results {
            match r.outcome {
                Outcome::Pass => s.passed += 1,
                Outcome::Fail(_) => s.failed += 1,
                Outcome::Skip(_) => s.skipped += 1,
            }
        }
        s
    }
}

impl std::fmt::Display for Summary {
    /// `N passed, N failed, N skipped`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} passed, {} failed, {} skipped",
            self.passed, self.failed, self.skipped
        )
    }
}

/// The repository root a suite file's fixture paths are relative to: the parent of the
/// nearest ancestor folder named `conformance`. `None` when the suite is not inside one.
pub fn repo_root_of(suite: &Path) -> Option<PathBuf> {
    let abs = if suite.is_absolute() {
        suite.to_path_buf()
    } else {
        std::env::current_dir().ok()?.join(suite)
    };
    abs.ancestors()
        .find(|a| a.file_name().is_some_and(|n| n == "conformance"))
        .and_then(Path::parent)
        .map(Path::to_path_buf)
}

/// Checks one `accessibility_check` case on a rendered accessibility tree: `Ok` when every
/// rule and expected node holds. The runner's core draws nothing, so the caller brings the
/// renderer harness (the tests and the `a2ui_suite` example check the case's components
/// on the AccessKit tree egui_kittest builds).
pub type AccessibilityCheck = fn(&Value) -> Result<(), String>;

/// Parses a YAML document into JSON: what reads the YAML fixtures a case names
/// (`resolve_nodes` fixtures). The crate has no YAML parser; the caller brings one
/// (`serde_yaml_ng::from_str` in the tests and the `a2ui_suite` example).
pub type YamlParser = fn(&str) -> Result<Value, String>;

/// Runs suite cases with fixtures read below one repository root.
#[derive(Clone, Debug)]
pub struct Runner {
    root: PathBuf,
    limits: Limits,
    accessibility: Option<AccessibilityCheck>,
    yaml: Option<YamlParser>,
}

type Check = Result<(), String>;

/// The outcome a handler reports: `Ok(None)` passed, `Ok(Some(reason))` skipped.
type Handled = Result<Option<String>, String>;

impl Runner {
    /// A runner whose fixture paths are relative to `root` (see [`repo_root_of`]).
    pub fn new(root: impl Into<PathBuf>) -> Self {
        Self {
            root: root.into(),
            limits: Limits::default(),
            accessibility: None,
            yaml: None,
        }
    }

    /// Read the YAML fixtures cases name with `parse` (without one, a case whose fixture
    /// is YAML is skipped, saying so).
    #[must_use]
    pub fn with_yaml(mut self, parse: YamlParser) -> Self {
        self.yaml = Some(parse);
        self
    }

    /// Run `accessibility_check` cases through `check` (without one they are skipped).
    #[must_use]
    pub fn with_accessibility_check(mut self, check: AccessibilityCheck) -> Self {
        self.accessibility = Some(check);
        self
    }

    /// Run every case of a suite (a YAML list of cases, parsed into JSON), in order. A
    /// suite that is not a list yields one failing case named `<suite>`.
    pub fn run_suite(&self, cases: &Value) -> Vec<CaseResult> {
        let Some(list) = cases.as_array() else {
            return vec![CaseResult {
                name: "<suite>".into(),
                action: String::new(),
                outcome: Outcome::Fail("a suite is a list of cases".into()),
            }];
        };
        list.iter().map(|c| self.run_case(c)).collect()
    }

    /// Run one case.
    pub fn run_case(&self, case: &Value) -> CaseResult {
        let name = case
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or("<unnamed>")
            .to_owned();
        let action = case
            .get("action")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        let outcome = match self.dispatch(&action, case) {
            Ok(None) => Outcome::Pass,
            Ok(Some(reason)) => Outcome::Skip(reason),
            Err(reason) => Outcome::Fail(reason),
        };
        CaseResult {
            name,
            action,
            outcome,
        }
    }

    fn dispatch(&self, action: &str, case: &Value) -> Handled {
        match action {
            "process_messages" | "validate" => self
                .process_messages(case)
                .map(|()| None)
                .map_err(|reason| with_schema_note(case, reason)),
            "parse_expression_template" => parse_expression_template(case).map(|()| None),
            "evaluate_function" => self.evaluate_function(case).map(|()| None),
            "data_model" => data_model_case(case),
            "resolve_path" => resolve_path_case(case).map(|()| None),
            "get_renderer_capabilities" => self.capabilities_case(case).map(|()| None),
            "get_renderer_data_model" => self.data_model_request(case).map(|()| None),
            "handle_rpc" => self.handle_rpc(case).map(|()| None),
            "select_catalog" => self.select_catalog(case).map(|()| None),
            "from_json" => self.load_catalog_case(case),
            "catalog_schema" => Ok(Some(
                "tests an SDK's catalog_schema serialisation of typed catalog models; \
                 egui_a2ui has no catalog-to-schema generator"
                    .into(),
            )),
            "common_types_schema" | "agent_to_renderer_schema" => Ok(Some(
                "tests schema generation from an SDK's own typed models (code generation); \
                 egui_a2ui has no such models"
                    .into(),
            )),
            "validate_common_type" => Ok(Some(
                "tests an SDK's typed common_types models (validate and serialise back); \
                 egui_a2ui reads dynamic values untyped"
                    .into(),
            )),
            "accessibility_check" => match self.accessibility {
                Some(check) => check(case).map(|()| None),
                None => Ok(Some(
                    "checked on a rendered AccessKit tree, which this runner was given no \
                     harness for (Runner::with_accessibility_check; the tests and the \
                     a2ui_suite example have one)"
                        .into(),
                )),
            },
            "dispatch_action" => self.dispatch_action(case).map(|()| None),
            "resolve_nodes" => self.resolve_nodes(case),
            "" if renderer::is_legacy_data_model(case) => {
                renderer::legacy_data_model(case).map(|()| None)
            }
            "" => Err("case has no action".into()),
            other => match renderer::agent_side(other) {
                Some(reason) => Ok(Some(reason.into())),
                None => Err(format!("no handler for action {other:?}")),
            },
        }
    }

    fn read_json(&self, rel: &str) -> Result<Value, String> {
        let path = self.root.join(rel);
        let text = std::fs::read_to_string(&path)
            .map_err(|e| format!("fixture {rel} ({}): {e}", path.display()))?;
        serde_json::from_str(&text).map_err(|e| format!("fixture {rel}: {e}"))
    }
}

// ---------------------------------------------------------------------------------------
// Versions and catalogs

fn parse_version(s: &str) -> Option<Version> {
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
fn case_version(case: &Value) -> Version {
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

fn basic_components(version: Version) -> Vec<&'static str> {
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
struct CaseCatalog {
    id: String,
    version: Version,
    components: Option<Vec<String>>,
    functions: Option<Vec<String>>,
    doc: Option<Value>,
}

impl CaseCatalog {
    fn from_doc(id: String, version: Version, doc: &Value) -> Self {
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
    fn case_catalogs(&self, case: &Value) -> Result<Vec<CaseCatalog>, String> {
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
fn doc_version(doc: &Value, path: &str) -> Option<Version> {
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
fn message_list(v: &Value) -> Vec<Value> {
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

fn case_messages(case: &Value) -> Vec<Value> {
    let mut out = Vec::new();
    if let Some(m) = case.get("messages").or_else(|| case.get("payload")) {
        out.extend(message_list(m));
    }
    out
}

/// Catalog ids named by createSurface / beginRendering, with the version of the message.
fn named_catalogs(messages: &[Value], out: &mut Vec<(String, Version)>) {
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

fn expect_error_of(v: &Value) -> Option<&Value> {
    v.get("expectError")
        .or_else(|| v.get("expect_error"))
        .filter(|e| !e.is_null())
}

/// The error categories of the suite vocabulary an error of ours counts as. The suites
/// name the exception class of the reference SDKs; ours are typed by what went wrong, so
/// one error may stand for several categories (every rejected message is a validation
/// failure in the SDKs' strict mode, for instance).
fn categories(e: &A2uiError) -> &'static [&'static str] {
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
    }
}

/// Does `text` match the expected message (a substring, or a regular expression, compared
/// without regard to case)?
fn message_matches(expected: &str, text: &str) -> bool {
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
fn check_error(expect: &Value, got: &A2uiError, text_matters: bool) -> Check {
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

// ---------------------------------------------------------------------------------------
// process_messages / validate

/// A store, the registry of functions, and the expected-catalog-error flag of one case.
struct Processor {
    store: SurfaceStore,
    functions: FunctionRegistry,
    /// The catalogs the case itself declares (what its renderer "holds").
    declared: Catalogs,
}

impl Runner {
    fn processor(&self, case: &Value, all_messages: &[Value]) -> Result<Processor, String> {
        let version = case_version(case);
        let mut known = Catalogs::default();
        // The harness aliases: `basic` is the basic catalog of the case's version,
        // `standard` the v0.9 one.
        let bv = version.family();
        known.register("basic", bv, &basic_components(bv));
        known.register("standard", Version::V0_9, BASIC_COMPONENTS);
        let catalogs = self.case_catalogs(case)?;
        let mut declared = Catalogs::empty();
        for c in &catalogs {
            register(&mut known, c);
            register(&mut declared, c);
        }
        // A catalog id a createSurface names is a copy of the basic catalog (the harness
        // convention), unless the case is about a catalog that is not there.
        let catalog_error = |e: &Value| {
            e.get("category").and_then(Value::as_str) == Some("CatalogError")
                || e.get("message")
                    .and_then(Value::as_str)
                    .is_some_and(|m| m.to_lowercase().contains("catalog not found"))
        };
        let mut expected_errors = vec![expect_error_of(case)];
        for s in case
            .get("steps")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            expected_errors.push(expect_error_of(s));
        }
        if !expected_errors.into_iter().flatten().any(catalog_error) {
            let mut named = Vec::new();
            named_catalogs(all_messages, &mut named);
            for (id, v) in named {
                if known.get(&id).is_none() {
                    known.register(&id, v.family(), &basic_components(v.family()));
                    declared.register(&id, v.family(), &basic_components(v.family()));
                }
            }
        }
        // `strictMode` asks for the SDKs' strict validation: topology and catalog
        // membership of component types and functions ([`SurfaceStore::set_strict`]), and,
        // with the `validation` feature, the JSON schemas of the messages, of the case's
        // catalogs' components and of their themes ([`crate::SchemaValidator`]).
        let mut store = SurfaceStore::with_config(known, self.limits.clone());
        // `validate` cases run in strict mode (the conformance README: "Every case uses
        // action: validate in strict mode").
        let strict = is_strict(case);
        store.set_strict(strict);
        #[cfg(feature = "validation")]
        if strict {
            store.set_validator(Some(std::sync::Arc::new(schema_validator(&catalogs)?)));
        }
        Ok(Processor {
            store,
            functions: FunctionRegistry::basic(),
            declared,
        })
    }

    fn process_messages(&self, case: &Value) -> Check {
        let steps: Vec<Value> = match case.get("steps").and_then(Value::as_array) {
            Some(s) if !s.is_empty() => s.clone(),
            _ => vec![case.clone()],
        };
        let mut all = Vec::new();
        for s in &steps {
            all.extend(case_messages(s));
        }
        let mut p = self.processor(case, &all)?;
        let last = steps.len().saturating_sub(1);
        for (i, step) in steps.iter().enumerate() {
            let messages = case_messages(step);
            let expect_err = expect_error_of(step).or(if i == last {
                expect_error_of(case)
            } else {
                None
            });
            let raised = apply_batch(&mut p.store, &messages);
            if let Some(expect) = expect_err {
                // A failure reported while the surfaces resolve counts as raised.
                let raised = raised.or_else(|| first_resolution_error(&p));
                match raised {
                    Some(e) => {
                        check_error(expect, &e, false).map_err(|r| format!("step {i}: {r}"))?;
                    }
                    None => {
                        return Err(format!(
                            "step {i}: expected an error ({}), none was raised",
                            compact(expect)
                        ));
                    }
                }
                continue;
            }
            if let Some(e) = raised {
                return Err(format!("step {i}: unexpected error: {e}"));
            }
            let expected = step
                .get("expect")
                .filter(|e| !e.is_null())
                .or(if i == last { case.get("expect") } else { None });
            if let Some(expected) = expected {
                self.check_state(&p, expected)
                    .map_err(|r| format!("step {i}: {r}"))?;
            }
        }
        Ok(())
    }

    #[expect(
        clippy::unused_self,
        reason = "one signature for every check of the runner"
    )]
    fn check_state(&self, p: &Processor, expected: &Value) -> Check {
        let Some(exp) = expected.as_object() else {
            return Ok(());
        };
        for (key, val) in exp {
            match key.as_str() {
                "surfaces" => {
                    for (sid, sexp) in val.as_object().into_iter().flatten() {
                        check_surface(p, sid, sexp).map_err(|r| format!("surface {sid}: {r}"))?;
                    }
                }
                "absent_surfaces" => {
                    for sid in val
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(Value::as_str)
                    {
                        if p.store.surface(sid).is_some() {
                            return Err(format!("surface {sid} should be absent"));
                        }
                    }
                }
                "client_data_model" => {
                    let all: Vec<String> = p.store.surfaces().map(|s| s.id.clone()).collect();
                    let meta = p.store.data_model_metadata(&all);
                    let got = meta
                        .get(crate::capabilities::CLIENT_DATA_MODEL_KEY)
                        .or_else(|| meta.get(crate::capabilities::RENDERER_DATA_MODEL_KEY))
                        .cloned()
                        .unwrap_or(Value::Null);
                    subset(val, &got).map_err(|r| format!("client data model: {r}"))?;
                }
                "client_data_model_absent" => {
                    let all: Vec<String> = p.store.surfaces().map(|s| s.id.clone()).collect();
                    let meta = p.store.data_model_metadata(&all);
                    if val.as_bool() == Some(true) && !meta.is_empty() {
                        return Err(format!(
                            "no client data model expected, got {}",
                            compact(&Value::Object(meta))
                        ));
                    }
                }
                "client_capabilities" => {
                    let got = capabilities_of(&p.declared, None);
                    subset(val, &got).map_err(|r| format!("capabilities: {r}"))?;
                }
                other => return Err(format!("unknown expectation key {other:?}")),
            }
        }
        Ok(())
    }
}

/// Without the `validation` feature, a strict case whose messages are to be checked against
/// JSON schemas (a catalog's component or theme schemas, or the basic catalog's property
/// schemas) cannot pass: its failure says so.
fn with_schema_note(case: &Value, reason: String) -> String {
    if cfg!(feature = "validation") || !is_strict(case) {
        return reason;
    }
    format!(
        "{reason} (strict mode checks property and theme schemas only with the `validation` \
         feature, which this build does not have)"
    )
}

/// Whether a case runs in strict mode: `strictMode: true`, or a `validate` case (the
/// conformance README: "Every case uses `action: validate` in strict mode").
fn is_strict(case: &Value) -> bool {
    case.get("strictMode").and_then(Value::as_bool) == Some(true)
        || case.get("action").and_then(Value::as_str) == Some("validate")
}

/// The schema validator of a strict case: the basic catalogs, and every catalog document
/// of the case that defines components or a theme of its own (a document the validator
/// cannot read is left to the case's own expectations, which are about loading it).
#[cfg(feature = "validation")]
fn schema_validator(catalogs: &[CaseCatalog]) -> Result<crate::SchemaValidator, String> {
    let mut v = crate::SchemaValidator::basic().map_err(|e| e.to_string())?;
    for c in catalogs {
        let Some(doc) = &c.doc else { continue };
        if c.components.is_none() && doc.get("theme").is_none() {
            continue;
        }
        let mut d = doc.clone();
        if let Some(o) = d.as_object_mut() {
            o.insert("catalogId".into(), json!(c.id));
        }
        let _ = v.add_catalog(c.version, &d);
    }
    Ok(v)
}

fn register(known: &mut Catalogs, c: &CaseCatalog) {
    let names: Vec<String> = match &c.components {
        Some(n) => n.clone(),
        None => basic_components(c.version)
            .into_iter()
            .map(str::to_owned)
            .collect(),
    };
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    known.register(&c.id, c.version.family(), &refs);
    if c.version.family() == Version::V1_0
        && let Some(doc) = &c.doc
        && doc.get("components").is_some()
    {
        let mut d = doc.clone();
        if let Some(o) = d.as_object_mut() {
            o.insert("catalogId".into(), json!(c.id));
        }
        let _ = known.register_definition(&d);
    }
}

/// Apply one batch; the first rejection is the error the batch raised.
fn apply_batch(store: &mut SurfaceStore, messages: &[Value]) -> Option<A2uiError> {
    for m in messages {
        if let Err(e) = store.apply(m).into_result() {
            return Some(e);
        }
    }
    None
}

/// One resolved component instance: its type, resolved props, checks outcome.
struct Resolved {
    component: String,
    props: Map<String, Value>,
    validation: Option<Value>,
}

/// Every component of a surface resolved as the harness does: each at the root scope
/// under its id, and each template instance under `id_i` and `id-[scope]`.
fn resolve_surface(p: &Processor, s: &Surface) -> (Vec<(String, Resolved)>, Vec<A2uiError>) {
    let (tree, mut errors) = resolve_tree(s, p.store.catalogs(), p.store.limits());
    let mut out: Vec<(String, Resolved)> = Vec::new();
    fn walk(
        p: &Processor,
        s: &Surface,
        n: &TreeNode,
        parent: Option<&str>,
        out: &mut Vec<(String, Resolved)>,
        errors: &mut Vec<A2uiError>,
    ) {
        // v1.0 composition rules, checked as the renderer checks them when it draws.
        if n.kind == NodeKind::Normal
            && s.version.family() == Version::V1_0
            && let Some(c) = s.component(&n.id)
        {
            let parent_type = parent
                .and_then(|pid| s.component(pid))
                .map_or_else(|| "Surface".to_owned(), |pc| pc.wire_component().to_owned());
            let catalog = c.catalog_id().or(s.catalog_id.as_deref());
            if let Err(parent_rule) =
                p.store
                    .catalogs()
                    .check_composition(catalog, &parent_type, c.wire_component())
            {
                errors.push(A2uiError::Unallowed {
                    parent_rule,
                    child: n.id.clone(),
                    child_type: c.wire_component().to_owned(),
                    parent_type,
                });
            }
        }
        if n.kind == NodeKind::Normal {
            let idx = n
                .scope
                .rsplit('/')
                .next()
                .filter(|x| !x.is_empty() && x.bytes().all(|b| b.is_ascii_digit()));
            let mut keys = Vec::new();
            if n.scope == "/" || idx.is_none() {
                keys.push(n.id.clone());
            } else if let Some(i) = idx {
                keys.push(format!("{}_{i}", n.id));
                keys.push(format!("{}-[{}]", n.id, n.scope));
            }
            for k in keys {
                if !out.iter().any(|(x, _)| *x == k)
                    && let Some(r) = resolve_component(p, s, &n.id, &n.scope, errors)
                {
                    out.push((k, r));
                }
            }
        }
        for c in &n.children {
            walk(p, s, c, Some(&n.id), out, errors);
        }
    }
    if let Some(t) = &tree {
        walk(p, s, t, None, &mut out, &mut errors);
    }
    for id in s.components().keys() {
        if !out.iter().any(|(x, _)| x == id)
            && let Some(r) = resolve_component(p, s, id, "/", &mut errors)
        {
            out.push((id.to_owned(), r));
        }
    }
    (out, errors)
}

fn resolve_component(
    p: &Processor,
    s: &Surface,
    id: &str,
    scope: &str,
    errors: &mut Vec<A2uiError>,
) -> Option<Resolved> {
    let c = s.component(id)?;
    let cx = EvalContext::new(
        s.data.root(),
        scope,
        s.version,
        &p.functions,
        p.store.limits(),
    );
    let mut props = Map::new();
    let wire = c.wire_props();
    for (k, v) in wire.iter() {
        if k == "checks" {
            continue;
        }
        props.insert(k.to_owned(), cx.resolve_deep(v));
    }
    let validation = evaluate_checks(wire.get("checks"), &cx).map(|results| {
        match results.into_iter().find(|r| !r.valid) {
            None => json!({"valid": true}),
            Some(r) => {
                let mut m = Map::new();
                m.insert("valid".into(), json!(false));
                if let Some(code) = r.code {
                    m.insert("code".into(), json!(code));
                }
                if let Some(msg) = r.message {
                    m.insert("message".into(), json!(msg));
                }
                m.insert(
                    "severity".into(),
                    json!(r.severity.unwrap_or_else(|| "error".into())),
                );
                Value::Object(m)
            }
        }
    });
    errors.extend(cx.take_diagnostics());
    Some(Resolved {
        component: c.wire_component().to_owned(),
        props,
        validation,
    })
}

fn first_resolution_error(p: &Processor) -> Option<A2uiError> {
    for s in p.store.surfaces() {
        let (_, errors) = resolve_surface(p, s);
        if let Some(e) = errors.into_iter().next() {
            return Some(e);
        }
    }
    None
}

fn check_surface(p: &Processor, sid: &str, exp: &Value) -> Check {
    let surface = p.store.surface(sid);
    if exp.get("exists").and_then(Value::as_bool) == Some(false) {
        return match surface {
            None => Ok(()),
            Some(_) => Err("should not exist".into()),
        };
    }
    let Some(s) = surface else {
        return Err("does not exist".into());
    };
    let Some(exp) = exp.as_object() else {
        return Ok(());
    };
    let mut resolved: Option<Vec<(String, Resolved)>> = None;
    for (key, val) in exp {
        match key.as_str() {
            "exists" => {}
            "theme" => {
                let got = Value::Object(s.theme.clone());
                if !json_eq(&got, val) {
                    return Err(format!("theme {} != {}", compact(&got), compact(val)));
                }
            }
            "sendDataModel" => {
                if Some(s.send_data_model) != val.as_bool() {
                    return Err(format!("sendDataModel is {}", s.send_data_model));
                }
            }
            "dataModel" | "data_model" => {
                if !json_eq(s.data.root(), val) {
                    return Err(format!(
                        "dataModel {} != {}",
                        compact(s.data.root()),
                        compact(val)
                    ));
                }
            }
            "catalogId" => {
                let got = s.catalog_id.clone().map_or(Value::Null, Value::String);
                if !json_eq(&got, val) {
                    return Err(format!("catalogId {}", compact(&got)));
                }
            }
            "components" => {
                let nodes = resolved.get_or_insert_with(|| resolve_surface(p, s).0);
                let items: Vec<(String, &Value)> = match val {
                    Value::Object(m) => m.iter().map(|(k, v)| (k.clone(), v)).collect(),
                    Value::Array(a) => a
                        .iter()
                        .filter_map(|c| Some((c.get("id")?.as_str()?.to_owned(), c)))
                        .collect(),
                    _ => Vec::new(),
                };
                for (cid, cexp) in &items {
                    let Some((_, node)) = nodes.iter().find(|(k, _)| k == cid) else {
                        return Err(format!("component {cid} missing"));
                    };
                    check_component(node, cexp).map_err(|r| format!("component {cid}: {r}"))?;
                }
                if val.is_array() && s.components().len() != items.len() {
                    return Err(format!(
                        "{} components stored, {} expected",
                        s.components().len(),
                        items.len()
                    ));
                }
            }
            "validationResult" => {
                let nodes = resolved.get_or_insert_with(|| resolve_surface(p, s).0);
                for (cid, vexp) in val.as_object().into_iter().flatten() {
                    let Some((_, node)) = nodes.iter().find(|(k, _)| k == cid) else {
                        return Err(format!("component {cid} missing"));
                    };
                    let got = node.validation.clone().unwrap_or(Value::Null);
                    if !json_eq(&got, vexp) {
                        return Err(format!(
                            "validationResult of {cid}: {} != {}",
                            compact(&got),
                            compact(vexp)
                        ));
                    }
                }
            }
            other => return Err(format!("unknown surface expectation {other:?}")),
        }
    }
    Ok(())
}

fn check_component(node: &Resolved, exp: &Value) -> Check {
    let Some(exp) = exp.as_object() else {
        return Ok(());
    };
    for (k, v) in exp {
        match k.as_str() {
            "id" => {}
            "component" => {
                if v.as_str() != Some(node.component.as_str()) {
                    return Err(format!("type {} != {}", node.component, compact(v)));
                }
            }
            _ => {
                let got = node.props.get(k).cloned().unwrap_or(Value::Null);
                if !json_eq(&got, v) && scalar_text(&got) != scalar_text(v) {
                    return Err(format!("{k}: {} != {}", compact(&got), compact(v)));
                }
            }
        }
    }
    Ok(())
}

/// The harness compares props through `str()`: `1` and `"1"` agree.
fn scalar_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(if *b { "True".into() } else { "False".into() }),
        _ => None,
    }
}

/// JSON equality with numbers compared by value (`1` equals `1.0`).
fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| json_eq(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| json_eq(v, w)))
        }
        _ => a == b,
    }
}

/// `expected` is contained in `got`: every key of an expected object is present and
/// matches, arrays match element-wise with equal length, scalars are equal.
fn subset(expected: &Value, got: &Value) -> Check {
    match (expected, got) {
        (Value::Object(e), Value::Object(g)) => {
            for (k, v) in e {
                let Some(w) = g.get(k) else {
                    return Err(format!("missing key {k:?} in {}", compact(got)));
                };
                subset(v, w).map_err(|r| format!("{k}: {r}"))?;
            }
            Ok(())
        }
        (Value::Array(e), Value::Array(g)) if e.len() == g.len() => {
            for (i, (v, w)) in e.iter().zip(g).enumerate() {
                subset(v, w).map_err(|r| format!("[{i}]: {r}"))?;
            }
            Ok(())
        }
        _ if json_eq(expected, got) => Ok(()),
        _ => Err(format!(
            "expected {}, got {}",
            compact(expected),
            compact(got)
        )),
    }
}

fn compact(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 300 {
        let cut: String = s.chars().take(300).collect();
        format!("{cut}...")
    } else {
        s
    }
}

// ---------------------------------------------------------------------------------------
// The other actions

fn parse_expression_template(case: &Value) -> Check {
    let input = case
        .get("input")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let limits = Limits::default();
    let parsed = crate::eval::expression::parse_template(input, limits.max_expression_depth);
    if let Some(expect) = expect_error_of(case) {
        return match parsed {
            Ok(parts) => Err(format!(
                "expected a parse error, got {}",
                compact(&Value::Array(parts))
            )),
            Err(e) => {
                let err = A2uiError::Expression {
                    expression: input.to_owned(),
                    message: e.to_string(),
                };
                check_error(expect, &err, true)
            }
        };
    }
    let parts = parsed.map_err(|e| format!("parse error: {e}"))?;
    let mut joined: Vec<Value> = Vec::new();
    for part in parts {
        if let (Value::String(s), Some(Value::String(prev))) = (&part, joined.last_mut()) {
            prev.push_str(s);
        } else {
            joined.push(part);
        }
    }
    // Empty literals are dropped; a template that is all literal text (also the empty
    // template) is one literal.
    let mut joined: Vec<Value> = joined
        .into_iter()
        .filter(|p| p.as_str() != Some(""))
        .map(with_return_type)
        .collect();
    if joined.is_empty() {
        joined.push(json!(input));
    }
    let got = Value::Array(joined);
    let expected = case
        .get("expect")
        .cloned()
        .unwrap_or(Value::Array(Vec::new()));
    if json_eq(&got, &expected) {
        Ok(())
    } else {
        Err(format!("{} != {}", compact(&got), compact(&expected)))
    }
}

/// The suite writes a parsed call as `{call, args, returnType}`; our parser's call parts
/// carry no return type (a `formatString` interpolation has none to declare), which the
/// reference parsers spell `"any"`.
fn with_return_type(part: Value) -> Value {
    match part {
        Value::Object(mut m) if m.contains_key("call") => {
            if let Some(Value::Object(args)) = m.remove("args") {
                let args: Map<String, Value> = args
                    .into_iter()
                    .map(|(k, v)| (k, with_return_type(v)))
                    .collect();
                m.insert("args".into(), Value::Object(args));
            }
            m.entry("returnType").or_insert_with(|| json!("any"));
            Value::Object(m)
        }
        other => other,
    }
}

impl Runner {
    fn evaluate_function(&self, case: &Value) -> Check {
        let version = case_version(case);
        let name = case
            .get("function")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let mut args = case.get("args").cloned().unwrap_or_else(|| json!({}));
        if version.family() == Version::V1_0 {
            args = crate::protocol::reserved::normalize_value(args);
        }
        let data = case.get("dataModel").cloned().unwrap_or_else(|| json!({}));
        let locale = case
            .get("locale")
            .and_then(Value::as_str)
            .unwrap_or("en-US")
            .to_owned();
        let functions = FunctionRegistry::basic();
        let result = if case.get("surface").is_some() {
            self.evaluate_on_surface(case, version, name, &args, &data, &functions)
        } else {
            // As the harnesses do without a surface: the function's implementation is
            // invoked directly (no argument schema check), with bound arguments resolved.
            let cx = EvalContext::new(&data, "/", version, &functions, &self.limits)
                .with_locale(&locale);
            let resolved: Map<String, Value> = args
                .as_object()
                .into_iter()
                .flatten()
                .map(|(k, v)| (k.clone(), cx.resolve_deep(v)))
                .collect();
            let r = cx.call_resolved(name, &resolved);
            match (r, cx.take_diagnostics().into_iter().next()) {
                (Ok(_), Some(e)) => Err(e),
                (r, _) => r,
            }
        };
        if let Some(expect) = expect_error_of(case) {
            return match result {
                Ok(v) => Err(format!("expected an error, got {}", compact(&v))),
                Err(e) => check_error(expect, &e, false),
            };
        }
        let got = result.map_err(|e| format!("unexpected error: {e}"))?;
        let expected = case.get("expect").cloned().unwrap_or(Value::Null);
        if json_eq(&got, &expected) {
            Ok(())
        } else {
            Err(format!("{} != {}", compact(&got), compact(&expected)))
        }
    }

    /// A call on a surface: the catalog the call runs in is resolved as the protocol
    /// says (its own `catalogId`, else the surface default; before v1.0 always the
    /// surface's), and the function must be one that catalog defines.
    fn evaluate_on_surface(
        &self,
        case: &Value,
        version: Version,
        name: &str,
        args: &Value,
        data: &Value,
        functions: &FunctionRegistry,
    ) -> Result<Value, A2uiError> {
        let catalogs = self
            .case_catalogs(case)
            .map_err(|e| A2uiError::validation("", e))?;
        let available: Vec<&CaseCatalog> = catalogs
            .iter()
            .filter(|c| c.version.family() == version.family())
            .collect();
        let default = case
            .get("surface")
            .and_then(|s| s.get("catalogId"))
            .and_then(Value::as_str);
        let mut known = Catalogs::empty();
        for c in &available {
            register(&mut known, c);
        }
        let mut call = Map::new();
        call.insert("call".into(), json!(name));
        if let Some(id) = case.get("catalogId") {
            call.insert("catalogId".into(), id.clone());
        }
        call.insert("args".into(), args.clone());
        let call = Value::Object(call);
        if version.family() == Version::V1_0 {
            // The crate's own resolution, as for a call in a component (a nested call
            // resolves its own catalog); the function must be one its catalog declares.
            crate::model::check_call_catalogs(&call, default, &known, true)?;
        } else {
            let declared = default
                .and_then(|d| known.get(d))
                .and_then(|c| c.functions.as_ref())
                .is_none_or(|f| f.iter().any(|n| n == name));
            if default.is_none_or(|d| known.get(d).is_none()) {
                return Err(A2uiError::CatalogNotFound(
                    default.unwrap_or_default().into(),
                ));
            }
            if !declared {
                return Err(A2uiError::Expression {
                    expression: name.to_owned(),
                    message: format!("Unrecognized function '{name}'"),
                });
            }
        }
        let cx = EvalContext::new(data, "/", version, functions, &self.limits);
        let call = call.as_object().cloned().unwrap_or_default();
        cx.call(&call)
    }
}

fn data_model_case(case: &Value) -> Handled {
    let initial = case.get("initial").cloned().unwrap_or_else(|| json!({}));
    let mut model = DataModel::new(initial);
    // One observer per `watch` entry (a path may repeat), with the official SDKs' scope:
    // the path, what is inside it, and its ancestors' replacements.
    let mut observers = Vec::new();
    for p in case
        .get("watch")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
    {
        let o = model
            .observe(p, crate::model::Watch::Subtree)
            .map_err(|e| format!("watch {p}: {e}"))?;
        observers.push(o);
    }
    for (i, step) in case
        .get("steps")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
    {
        let op = step.get("op").and_then(Value::as_str).unwrap_or_default();
        let path = step.get("path").and_then(Value::as_str).unwrap_or_default();
        let result: Result<(), A2uiError> = match op {
            "get" => {
                let got = model.get(path).cloned();
                if step.get("expect_absent").and_then(Value::as_bool) == Some(true) && got.is_some()
                {
                    return Err(format!("step {i}: {path} should be absent"));
                }
                match step.get("expect_type").and_then(Value::as_str) {
                    Some("list") if !got.as_ref().is_some_and(Value::is_array) => {
                        return Err(format!("step {i}: {path} is not a list"));
                    }
                    Some("object") if !got.as_ref().is_some_and(Value::is_object) => {
                        return Err(format!("step {i}: {path} is not an object"));
                    }
                    _ => {}
                }
                if let Some(e) = step.get("expect") {
                    let g = got.unwrap_or(Value::Null);
                    if !json_eq(&g, e) {
                        return Err(format!(
                            "step {i}: get {path}: {} != {}",
                            compact(&g),
                            compact(e)
                        ));
                    }
                }
                Ok(())
            }
            "set" => model.set(path, step.get("value").cloned().filter(|v| !v.is_null())),
            "delete" => model.set(path, None),
            "dispose" => {
                model.detach_observers();
                Ok(())
            }
            other => return Err(format!("step {i}: unknown op {other:?}")),
        };
        // The observers that fired for this step, one entry per observer.
        let mut notified: Vec<String> = observers
            .iter()
            .filter(|o| !o.drain().is_empty())
            .map(|o| o.path().to_owned())
            .collect();
        if let Some(expected) = step.get("expect_notified").and_then(Value::as_array) {
            let mut expected: Vec<String> = expected
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect();
            expected.sort();
            notified.sort();
            if expected != notified {
                return Err(format!(
                    "step {i}: observers notified {notified:?}, expected {expected:?}"
                ));
            }
        }
        if let Some(values) = step.get("expect_values").and_then(Value::as_object) {
            for (p, want) in values {
                let got = model.get(p).cloned().unwrap_or(Value::Null);
                if !json_eq(&got, want) {
                    return Err(format!(
                        "step {i}: watched {p} holds {}, expected {}",
                        compact(&got),
                        compact(want)
                    ));
                }
            }
        }
        match (expect_error_of(step), result) {
            (Some(e), Err(err)) => {
                check_error(e, &err, false).map_err(|r| format!("step {i}: {r}"))?;
            }
            (Some(e), Ok(())) => {
                return Err(format!("step {i}: expected an error ({})", compact(e)));
            }
            (None, Err(err)) => return Err(format!("step {i}: unexpected error: {err}")),
            (None, Ok(())) => {}
        }
    }
    if let Some(e) = case.get("expect") {
        let got = model.get("/").cloned().unwrap_or(Value::Null);
        if !json_eq(&got, e) {
            return Err(format!("model {} != {}", compact(&got), compact(e)));
        }
    }
    Ok(None)
}

fn resolve_path_case(case: &Value) -> Check {
    let args = case.get("args").cloned().unwrap_or_default();
    let path = args.get("path").and_then(Value::as_str).unwrap_or_default();
    let scope = args
        .get("contextPath")
        .and_then(Value::as_str)
        .unwrap_or("/");
    let got = crate::model::data_model::resolve_path(path, scope);
    let expected = case.get("expect").cloned().unwrap_or(Value::Null);
    let expected = expected.get("result").cloned().unwrap_or(expected);
    if expected.as_str() == Some(got.as_str()) {
        Ok(())
    } else {
        Err(format!("{got:?} != {}", compact(&expected)))
    }
}

/// The capabilities of a renderer holding these catalogs, keyed by protocol version
/// (`{"v0.9": {"supportedCatalogIds": [...]}}`), optionally for one version only.
fn capabilities_of(known: &Catalogs, only: Option<Version>) -> Value {
    let mut catalog = Catalog::empty();
    for id in known.ids() {
        if let Some(info) = known.get(id) {
            catalog = catalog.with_catalog_id(id, info.versions);
        }
    }
    let meta = crate::capabilities::capabilities_metadata(&catalog);
    let client = meta
        .get(crate::capabilities::CLIENT_CAPABILITIES_KEY)
        .cloned()
        .unwrap_or_default();
    let renderer = meta
        .get(crate::capabilities::RENDERER_CAPABILITIES_KEY)
        .cloned()
        .unwrap_or_default();
    let mut out = Map::new();
    let v08 = json!({"supportedCatalogIds": client.get("supportedCatalogIds").cloned().unwrap_or_default()});
    let v09 = client.get("v0.9").cloned().unwrap_or_default();
    let v10 = renderer.get("v1.0").cloned().unwrap_or_default();
    match only.map(Version::family) {
        Some(Version::V0_8) => {
            out.insert("v0.8".into(), v08);
        }
        Some(Version::V1_0) => {
            out.insert("v1.0".into(), v10);
        }
        Some(_) => {
            out.insert("v0.9".into(), v09);
        }
        None => {
            out.insert("v0.8".into(), v08);
            out.insert("v0.9".into(), v09);
            out.insert("v1.0".into(), v10);
        }
    }
    Value::Object(out)
}

impl Runner {
    fn capabilities_case(&self, case: &Value) -> Check {
        let args = case.get("args").cloned().unwrap_or_default();
        let version = args
            .get("version")
            .and_then(Value::as_str)
            .and_then(parse_version)
            .unwrap_or_else(|| case_version(case));
        let mut known = Catalogs::empty();
        for c in self.case_catalogs(case)? {
            register(&mut known, &c);
        }
        let mut got = capabilities_of(&known, Some(version));
        if args.get("includeInlineCatalogs").and_then(Value::as_bool) == Some(true) {
            // The definitions of the catalogs the case registers, in the capabilities'
            // inline form.
            let inline: Vec<Value> = self
                .case_catalogs(case)?
                .iter()
                .filter(|c| c.version.family() == version.family())
                .filter_map(|c| {
                    let mut doc = c.doc.clone()?;
                    if let Some(o) = doc.as_object_mut() {
                        o.insert("catalogId".into(), json!(c.id));
                    }
                    Some(crate::capabilities::inline_catalog(&doc))
                })
                .collect();
            if let Some(Value::Object(entry)) =
                got.as_object_mut().and_then(|m| m.values_mut().next())
            {
                entry.insert("inlineCatalogs".into(), Value::Array(inline));
            }
        }
        let expected = case.get("expect").cloned().unwrap_or_default();
        if json_eq(&got, &expected) {
            Ok(())
        } else {
            Err(format!("{} != {}", compact(&got), compact(&expected)))
        }
    }

    fn data_model_request(&self, case: &Value) -> Check {
        let steps: Vec<Value> = match case.get("steps").and_then(Value::as_array) {
            Some(s) => s.clone(),
            None => vec![case.clone()],
        };
        let mut all = Vec::new();
        for s in &steps {
            all.extend(case_messages(s));
        }
        let mut p = self.processor(case, &all)?;
        for s in &steps {
            if let Some(e) = apply_batch(&mut p.store, &case_messages(s)) {
                return Err(format!("unexpected error: {e}"));
            }
        }
        let version = case
            .get("args")
            .and_then(|a| a.get("version"))
            .and_then(Value::as_str)
            .and_then(parse_version)
            .unwrap_or_else(|| case_version(case));
        let all: Vec<String> = p.store.surfaces().map(|s| s.id.clone()).collect();
        let meta = p.store.data_model_metadata(&all);
        let key = if version.family() == Version::V1_0 {
            crate::capabilities::RENDERER_DATA_MODEL_KEY
        } else {
            crate::capabilities::CLIENT_DATA_MODEL_KEY
        };
        let got = meta.get(key).cloned().unwrap_or(Value::Null);
        let expected = case.get("expect").cloned().unwrap_or(Value::Null);
        if json_eq(&got, &expected) {
            Ok(())
        } else {
            Err(format!("{} != {}", compact(&got), compact(&expected)))
        }
    }

    fn select_catalog(&self, case: &Value) -> Check {
        let args = case.get("args").cloned().unwrap_or_default();
        let surface = args.get("surface").cloned().unwrap_or_default();
        let sid = surface
            .get("id")
            .and_then(Value::as_str)
            .unwrap_or("main_surface");
        let default = surface
            .get("defaultCatalogId")
            .and_then(Value::as_str)
            .unwrap_or("basic");
        let mut known = Catalogs::empty();
        match args.get("catalogs").and_then(Value::as_object) {
            Some(cats) => {
                for (id, def) in cats {
                    let v = def
                        .get("protocolVersion")
                        .and_then(Value::as_str)
                        .and_then(parse_version)
                        .unwrap_or(Version::V1_0);
                    known.register(id, v, &["Box", "Text"]);
                }
            }
            None => {
                let ids: Vec<String> = surface
                    .get("supportedCatalogIds")
                    .and_then(Value::as_array)
                    .map(|a| {
                        a.iter()
                            .filter_map(Value::as_str)
                            .map(str::to_owned)
                            .collect()
                    })
                    .unwrap_or_else(|| vec![default.to_owned()]);
                for id in ids {
                    known.register(&id, Version::V1_0, &["Box", "Text"]);
                }
            }
        }
        let mut store = SurfaceStore::with_config(known, self.limits.clone());
        let mut messages = vec![json!({"version": "v1.0", "createSurface": {
            "surfaceId": sid, "catalogId": default}})];
        let mut selected: Option<String> = None;
        if let Some(comps) = args.get("components").and_then(Value::as_object) {
            let list: Vec<Value> = comps
                .iter()
                .map(|(id, c)| {
                    let mut m = c.as_object().cloned().unwrap_or_default();
                    m.insert("id".into(), json!(id));
                    m.entry("component").or_insert(json!("Box"));
                    selected = Some(
                        m.get("catalogId")
                            .and_then(Value::as_str)
                            .unwrap_or(default)
                            .to_owned(),
                    );
                    Value::Object(m)
                })
                .collect();
            messages.push(json!({"version": "v1.0", "updateComponents": {
                "surfaceId": sid, "components": list}}));
        }
        let mut raised = apply_batch(&mut store, &messages);
        if raised.is_none()
            && let Some(fc) = args
                .get("functionCall")
                .or_else(|| args.get("function_call"))
        {
            // The crate's own resolution of a call's catalog.
            let call = crate::protocol::reserved::normalize_value(fc.clone());
            match crate::model::check_call_catalogs(&call, Some(default), store.catalogs(), false) {
                Ok(()) => {
                    selected = Some(
                        call.get("catalogId")
                            .and_then(Value::as_str)
                            .unwrap_or(default)
                            .to_owned(),
                    );
                }
                Err(e) => raised = Some(e),
            }
        }
        if raised.is_none() {
            // A catalog that serves none of the surface default's protocol versions.
            let dv = store.catalogs().get(default).map(|c| c.versions);
            for id in store.catalogs().ids() {
                let v = store.catalogs().get(id).map(|c| c.versions);
                if let (Some(dv), Some(v)) = (dv, v)
                    && v.intersection(dv).is_empty()
                {
                    raised = Some(A2uiError::VersionMismatch {
                        surface_id: sid.to_owned(),
                        surface_version: dv.to_string(),
                        message_version: format!("catalog {id} {v}"),
                    });
                    break;
                }
            }
        }
        if let Some(expect) = expect_error_of(case) {
            return match raised {
                Some(e) => check_error(expect, &e, false),
                None => Err("expected an error, none was raised".into()),
            };
        }
        if let Some(e) = raised {
            return Err(format!("unexpected error: {e}"));
        }
        let want = case
            .get("expectSelected")
            .or_else(|| case.get("expect_selected"))
            .and_then(Value::as_str);
        match (want, selected) {
            (Some(w), Some(s)) if w == s => Ok(()),
            (Some(w), s) => Err(format!("selected {s:?}, expected {w}")),
            (None, _) => Ok(()),
        }
    }

    fn handle_rpc(&self, case: &Value) -> Check {
        let args = case.get("args").cloned().unwrap_or_default();
        let expect = case.get("expect").cloned().unwrap_or_default();
        let mut catalog = Catalog::empty();
        let cat_id = args
            .get("catalogId")
            .and_then(Value::as_str)
            .or_else(|| {
                args.pointer("/message/callRendererFunction/callFunction/catalogId")
                    .and_then(Value::as_str)
                    .filter(|_| {
                        !expect
                            .pointer("/response/rendererFunctionResponse/error/message")
                            .or_else(|| expect.pointer("/response/error/message"))
                            .and_then(Value::as_str)
                            .is_some_and(|m| m.contains("Catalog not found"))
                    })
            })
            .unwrap_or("basic")
            .to_owned();
        catalog = catalog.with_catalog_id(&cat_id, Version::V1_0);
        for (name, meta) in args
            .get("functionMetadata")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            let callers = meta
                .get("allowedCallers")
                .or_else(|| meta.get("callableFrom"))
                .and_then(Value::as_str)
                .and_then(AllowedCallers::from_wire)
                .unwrap_or(AllowedCallers::RendererOrAgent);
            let activation = meta
                .get("requiresUserActivation")
                .and_then(Value::as_bool)
                .unwrap_or(false);
            let fname = name.clone();
            let f = FnFunction::new(name.clone(), move |a: &Map<String, Value>, _cx| match fname
                .as_str()
            {
                "playMedia" => Ok(json!({"playing": true, "timestamp": 0})),
                "openExternalUrl" => Ok(json!({"opened": true})),
                "failingFunction" => Err("An error occurred during function execution.".to_owned()),
                "calculateTax" => Ok(json!(
                    a.get("amount").and_then(Value::as_f64).unwrap_or(0.0) * 0.1
                )),
                _ => Ok(Value::Null),
            })
            .with_callers(callers)
            .with_user_activation(activation);
            catalog.register_function(f);
        }
        let activated = args
            .get("userActivationPresent")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        if let Some(message) = args.get("message") {
            let parsed = crate::protocol::parse_message(message);
            if let Some(want) = expect.get("error") {
                return match parsed {
                    Err(e) => want
                        .get("message")
                        .and_then(Value::as_str)
                        .filter(|m| !e.to_string().contains(m))
                        .map_or(Ok(()), |m| Err(format!("error {e} does not name {m:?}"))),
                    Ok(_) => Err("expected the message to be rejected".into()),
                };
            }
            let env = parsed.map_err(|e| format!("unexpected error: {e}"))?;
            let got = match env.message {
                crate::protocol::Message::CallRendererFunction {
                    function_call_id,
                    call,
                } => crate::model::rpc::answer_renderer_function_with(
                    &function_call_id,
                    &call,
                    &catalog.catalogs(),
                    &self.limits,
                    activated,
                ),
                // An agent's response to a call the renderer made: recorded, not answered.
                _ => Value::Null,
            };
            let want = expect.get("response").cloned().unwrap_or(Value::Null);
            return rpc_matches(&want, &got);
        }
        if let (Some(out), Some(inbound)) = (args.get("outboundCall"), args.get("inboundResponse"))
        {
            return self.agent_call_round_trip(out, inbound, &expect);
        }
        Err("handle_rpc case without a message".into())
    }

    /// `callAgentFunction` and its `agentFunctionResponse`: a binding needs a function the
    /// renderer lacks, the renderer asks the agent (our own `functionCallId`: the renderer
    /// numbers its calls), the response with that id resolves the binding.
    #[expect(
        clippy::unused_self,
        reason = "one signature for every check of the runner"
    )]
    fn agent_call_round_trip(&self, out: &Value, inbound: &Value, expect: &Value) -> Check {
        let calls = crate::eval::agent_calls::AgentCalls::default();
        let surface = out
            .get("surfaceId")
            .and_then(Value::as_str)
            .unwrap_or("main");
        let func = out.get("callFunction").cloned().unwrap_or_default();
        let func = crate::protocol::reserved::normalize_value(func);
        let name = func.get("call").and_then(Value::as_str).unwrap_or_default();
        let fargs = func
            .get("args")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        let catalog = func.get("catalogId").and_then(Value::as_str);
        use crate::eval::agent_calls::AgentCallState;
        if !matches!(
            calls.lookup(surface, name, &fargs, catalog),
            AgentCallState::Pending
        ) {
            return Err("the first lookup should be pending".into());
        }
        let sent = calls.drain_outgoing();
        let [sent] = sent.as_slice() else {
            return Err(format!(
                "{} callAgentFunction messages sent, 1 expected",
                sent.len()
            ));
        };
        let env = crate::protocol::parse_message(inbound).map_err(|e| e.to_string())?;
        let crate::protocol::Message::AgentFunctionResponse { result, .. } = env.message else {
            return Err("inboundResponse is not an agentFunctionResponse".into());
        };
        if !calls.answer(&sent.function_call_id, result) {
            return Err("the response did not match the pending call".into());
        }
        match calls.lookup(surface, name, &fargs, catalog) {
            AgentCallState::Done(v) => {
                let want = expect.get("result").cloned().unwrap_or(Value::Null);
                if json_eq(&v, &want) {
                    Ok(())
                } else {
                    Err(format!("result {} != {}", compact(&v), compact(&want)))
                }
            }
            _ => Err("the call is not resolved after its response".into()),
        }
    }

    fn load_catalog_case(&self, case: &Value) -> Handled {
        let doc = match case.get("catalogPath").and_then(Value::as_str) {
            Some(p) => self.read_json(p)?,
            None => case.get("catalog").cloned().unwrap_or_default(),
        };
        let version = case_version(case);
        let mut d = doc.clone();
        if let (Some(id), Some(o)) = (case.get("catalogId"), d.as_object_mut()) {
            o.insert("catalogId".into(), id.clone());
        }
        let mut known = Catalogs::empty();
        let registered = if version.family() == Version::V1_0 {
            known.register_definition(&d)
        } else {
            // Before v1.0 a catalog is its id and component names.
            let c = CaseCatalog::from_doc(
                d.get("catalogId")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned(),
                version,
                &d,
            );
            if c.id.is_empty() {
                Err(A2uiError::validation(
                    "/catalogId",
                    "a catalog needs a catalogId",
                ))
            } else {
                register(&mut known, &c);
                Ok(c.id)
            }
        };
        if let Some(expect) = expect_error_of(case) {
            // Whatever keeps a catalog from loading is a catalog error.
            let as_catalog_error = |e: &Value| {
                let mut e = e.clone();
                if e.get("category").and_then(Value::as_str) == Some("CatalogError")
                    && let Some(o) = e.as_object_mut()
                {
                    o.remove("category");
                }
                e
            };
            return match registered {
                Ok(id) => Err(format!("expected an error, catalog {id} loaded")),
                Err(e) => check_error(&as_catalog_error(expect), &e, false).map(|()| None),
            };
        }
        let id = registered.map_err(|e| format!("unexpected error: {e}"))?;
        let info = known.get(&id).ok_or("catalog not registered")?;
        let expected = case.get("expect").cloned().unwrap_or_default();
        let mut skipped = Vec::new();
        for (k, v) in expected.as_object().into_iter().flatten() {
            match k.as_str() {
                "catalogId" => {
                    if v.as_str() != Some(id.as_str()) {
                        return Err(format!("catalogId {id} != {}", compact(v)));
                    }
                }
                "protocolVersion" => {
                    if v.as_str().and_then(parse_version).map(Version::family)
                        != Some(version.family())
                    {
                        return Err(format!("protocolVersion {} != {}", version, compact(v)));
                    }
                }
                "components" => {
                    let names: Vec<&str> = match v {
                        Value::Array(a) => a.iter().filter_map(Value::as_str).collect(),
                        Value::Object(m) => m.keys().map(String::as_str).collect(),
                        _ => Vec::new(),
                    };
                    for n in names {
                        if !info.has_component(n) {
                            return Err(format!("component {n} not loaded"));
                        }
                    }
                }
                "functions" => {
                    let have = CaseCatalog::from_doc(id.clone(), version, &d).functions;
                    for n in v.as_array().into_iter().flatten().filter_map(Value::as_str) {
                        if !have.as_ref().is_some_and(|h| h.iter().any(|x| x == n)) {
                            return Err(format!("function {n} not loaded"));
                        }
                    }
                }
                "validComponents" | "invalidComponents" => {
                    match check_components(k == "validComponents", v, version, &d) {
                        Ok(None) => {}
                        Ok(Some(_)) => skipped.push(k.clone()),
                        Err(e) => return Err(format!("{k}: {e}")),
                    }
                }
                other => skipped.push(other.to_owned()),
            }
        }
        if skipped.is_empty() {
            Ok(None)
        } else {
            Ok(Some(format!(
                "expects {} of an SDK catalog model (its theme read back, a resolved \
                 self-contained $ref schema); egui_a2ui keeps a catalog's names and \
                 composition rules, and its schemas only to validate with",
                skipped.join(", ")
            )))
        }
    }
}

/// `validComponents` / `invalidComponents` of a `from_json` case: each component instance
/// checked against the loaded catalog alone, by the schema validator (feature
/// `validation`; without it the expectation is not checked, `Ok(Some)`).
#[cfg_attr(
    not(feature = "validation"),
    expect(unused_variables, reason = "checked only with the validation feature")
)]
fn check_components(valid: bool, list: &Value, version: Version, doc: &Value) -> Handled {
    #[cfg(feature = "validation")]
    {
        if version.family() == Version::V0_8 {
            return Ok(Some("a v0.8 catalog has no component schemas".into()));
        }
        let validator =
            crate::SchemaValidator::of_catalog(version, doc.clone()).map_err(|e| e.to_string())?;
        let wire = if version.family() == Version::V1_0 {
            "v1.0"
        } else {
            "v0.9"
        };
        for c in list.as_array().into_iter().flatten() {
            let message = json!({"version": wire, "updateComponents": {
                "surfaceId": "s", "components": [c]}});
            match (validator.validate(&message), valid) {
                (Ok(()), true) | (Err(_), false) => {}
                (Ok(()), false) => return Err(format!("{} accepted", compact(c))),
                (Err(e), true) => return Err(format!("{} refused: {e}", compact(c))),
            }
        }
        Ok(None)
    }
    #[cfg(not(feature = "validation"))]
    Ok(Some(
        "component schemas are checked only with the validation feature".into(),
    ))
}

fn rpc_matches(want: &Value, got: &Value) -> Check {
    if want.is_null() {
        return if got.is_null() {
            Ok(())
        } else {
            Err(format!("no response expected, got {}", compact(got)))
        };
    }
    let mismatch = || format!("response {} != {}", compact(got), compact(want));
    if want.get("version").is_some() && want.get("version") != got.get("version") {
        return Err(mismatch());
    }
    if let Some(w) = want.get("rendererFunctionResponse") {
        let Some(g) = got.get("rendererFunctionResponse") else {
            return Err(mismatch());
        };
        if w.get("functionCallId") != g.get("functionCallId") {
            return Err(mismatch());
        }
        if let Some(v) = w.get("value")
            && !g.get("value").is_some_and(|x| json_eq(x, v))
        {
            return Err(mismatch());
        }
        if let Some(e) = w.get("error") {
            let ge = g.get("error").cloned().unwrap_or_default();
            if e.get("code") != ge.get("code") {
                return Err(mismatch());
            }
        }
        return Ok(());
    }
    if let Some(w) = want.get("error") {
        let Some(g) = got.get("error") else {
            return Err(mismatch());
        };
        if w.get("code") != g.get("code") {
            return Err(mismatch());
        }
        if let Some(id) = w.get("functionCallId")
            && g.get("functionCallId") != Some(id)
        {
            return Err(mismatch());
        }
        return Ok(());
    }
    subset(want, got)
}
