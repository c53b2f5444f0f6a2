//! Against the references: the conformance oracle's dumps, the official suites, the web
//! renderer's geometry, hostile streams, fuzz regressions, v1.0, and the README's examples.
//!
//! One test crate per layer (one binary to build and link); each module was its own crate
//! before. The shared harness is `tests/common`.

#[path = "../common/mod.rs"]
mod common;

mod conformance;
mod examples;
mod fidelity;
mod fuzz_regressions;
mod hostile;
mod official_suites;
mod own_suites;
mod schema_cases;
mod suite_accessibility;
mod v1_0;
