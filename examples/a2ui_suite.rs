//! Run official A2UI conformance suites (renderer core) against egui_a2ui's core.
//!
//! ```text
//! cargo run --example a2ui_suite -- tests/data/official-suites/conformance/core/functions.yaml
//! ```
//!
//! Prints `PASS name`, `FAIL name: reason` or `SKIP name: reason` per case and a closing
//! `N passed, N failed, N skipped` line. A suite's fixture paths are resolved from the
//! parent of the `conformance/` folder the suite is in, as the upstream harnesses do, so a
//! suite runs wherever its checkout lies. `accessibility_check` cases are drawn headless
//! and checked on the AccessKit tree; the YAML fixtures of `resolve_nodes` cases are read
//! with serde_yaml_ng. Exits with status 1 when a case failed.

use std::path::Path;
use std::process::ExitCode;

use egui_a2ui::suite::{CaseResult, Runner, Summary, repo_root_of};

/// The `accessibility.yaml` cases, checked on the AccessKit tree egui_kittest builds (the
/// same check `tests/conformance` runs).
#[path = "../tests/conformance/suite_accessibility.rs"]
mod suite_accessibility;

fn main() -> ExitCode {
    let paths: Vec<String> = std::env::args().skip(1).collect();
    if paths.is_empty() {
        eprintln!("usage: a2ui_suite SUITE.yaml...");
        return ExitCode::from(2);
    }
    let mut all: Vec<CaseResult> = Vec::new();
    for p in &paths {
        let path = Path::new(p);
        let Some(root) = repo_root_of(path) else {
            eprintln!("{p}: not inside a conformance/ folder, cannot resolve its fixtures");
            return ExitCode::from(2);
        };
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("{p}: {e}");
                return ExitCode::from(2);
            }
        };
        let cases: serde_json::Value = match serde_yaml_ng::from_str(&text) {
            Ok(v) => v,
            Err(e) => {
                eprintln!("{p}: not a YAML suite: {e}");
                return ExitCode::from(2);
            }
        };
        if paths.len() > 1 {
            println!("# {p}");
        }
        let runner = Runner::new(root)
            .with_accessibility_check(suite_accessibility::check)
            .with_yaml(|text| serde_yaml_ng::from_str(text).map_err(|e| e.to_string()));
        for r in runner.run_suite(&cases) {
            println!("{r}");
            all.push(r);
        }
    }
    let summary = Summary::of(&all);
    println!("{summary}");
    if summary.failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
