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
//!
//! The runner is split by concern: this file holds the results and the dispatch of a case
//! to its handler; `catalogs` the versions and catalogs of a case, `process` the message
//! cases, `resolve` the harness's component resolution and surface checks, `compare` its
//! value comparison, `expressions`, `data_model`, `catalog_cases` (capabilities, catalog
//! selection and loading, RPC) the other actions, and `renderer` the renderer-side ones.

use std::path::{Path, PathBuf};

mod catalog_cases;
mod catalogs;
mod compare;
mod data_model;
mod expressions;
mod process;
mod renderer;
mod resolve;

use serde_json::{Map, Value, json};

use crate::catalog::Catalog;
use crate::error::A2uiError;
use crate::eval::checks::evaluate_checks;
use crate::eval::{AllowedCallers, EvalContext, FnFunction, FunctionRegistry};
use crate::limits::Limits;
use crate::model::tree::{NodeKind, TreeNode, resolve_tree};
use crate::model::{BASIC_COMPONENTS, Catalogs, DataModel, Surface, SurfaceStore};
use crate::protocol::{BASIC_CATALOG_V0_9, BASIC_CATALOG_V1_0, STANDARD_CATALOG_V0_8, Version};

use self::{
    catalog_cases::*, catalogs::*, compare::*, data_model::*, expressions::*, process::*,
    resolve::*,
};

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
            "catalog_schema" => self.catalog_schema_case(case).map(|()| None),
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
