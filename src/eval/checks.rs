//! Validation `checks` (A2UI [protocol], checks): `[{condition, message}]`, the flat form
//! `{call, args, message}`, and v1.0 `ValidationResult` results.
//!
//! [protocol]: https://a2ui.org/specification/v0.9-a2ui/

use serde_json::Value;

use super::{EvalContext, coerce::truthy};
use crate::stored::PropRef;

/// The outcome of one check rule.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckResult {
    /// Whether the rule passed.
    pub valid: bool,
    /// The message to show when it failed (`None` when valid).
    pub message: Option<String>,
    /// `ValidationResult.code`, when the condition returned one.
    pub code: Option<String>,
    /// `ValidationResult.severity` (`error`, `warning`, `info`), when returned.
    pub severity: Option<String>,
    /// v1.0 `validationPending`: the condition waits for an agent function response
    /// (`callAgentFunction`). The rule is not valid yet (an action stays blocked) but has
    /// not failed either: it has no message, and the first-failure message a component shows skips it.
    pub pending: bool,
}

/// The `code` of a check whose condition waits for an agent function response.
pub const VALIDATION_PENDING: &str = "validationPending";

/// Evaluate a component's `checks` property in the context's scope; `None` when the
/// component has no `checks`.
pub fn evaluate_checks(checks: Option<&Value>, cx: &EvalContext<'_>) -> Option<Vec<CheckResult>> {
    let rules = checks?;
    let Value::Array(rules) = rules else {
        return Some(Vec::new());
    };
    Some(rules.iter().map(|r| evaluate_rule(r, cx)).collect())
}

/// [`evaluate_checks`] for a stored `checks` property (read in place, nothing copied).
pub(crate) fn evaluate_stored_checks(
    checks: PropRef<'_>,
    cx: &EvalContext<'_>,
) -> Vec<CheckResult> {
    let Some(rules) = checks.as_array() else {
        return Vec::new();
    };
    rules
        .iter()
        .map(|rule| {
            let condition = rule.get("condition").unwrap_or(rule);
            let message = rule.get("message").and_then(PropRef::as_str);
            judge(cx, message, |own| own.resolve_prop(condition))
        })
        .collect()
}

/// Evaluate one rule.
pub fn evaluate_rule(rule: &Value, cx: &EvalContext<'_>) -> CheckResult {
    let condition = match rule {
        Value::Object(m) => m.get("condition").unwrap_or(rule),
        other => other,
    };
    let rule_message = rule.get("message").and_then(Value::as_str);
    judge(cx, rule_message, |own| own.resolve(condition))
}

/// A rule's result from its condition (resolved by `resolve` in a context of its own) and
/// its `message`.
fn judge(
    cx: &EvalContext<'_>,
    rule_message: Option<&str>,
    resolve: impl FnOnce(&EvalContext<'_>) -> Value,
) -> CheckResult {
    // A context of its own, so "pending" is this rule's alone.
    let own = cx.at_scope(cx.scope);
    let result = resolve(&own);
    for d in own.take_diagnostics() {
        cx.diagnose(d);
    }
    if own.is_pending() {
        return CheckResult {
            valid: false,
            message: None,
            code: Some(VALIDATION_PENDING.to_owned()),
            severity: None,
            pending: true,
        };
    }
    let (valid, own_message, code, severity) = match &result {
        Value::Object(m) => (
            m.get("valid").and_then(Value::as_bool).unwrap_or(false),
            m.get("message").and_then(Value::as_str).map(str::to_owned),
            m.get("code").and_then(Value::as_str).map(str::to_owned),
            m.get("severity").and_then(Value::as_str).map(str::to_owned),
        ),
        other => (truthy(other), None, None, None),
    };
    let message = if valid {
        None
    } else {
        Some(
            own_message
                .or_else(|| rule_message.map(str::to_owned))
                .unwrap_or_else(|| "Validation failed".to_owned()),
        )
    };
    CheckResult {
        valid,
        message,
        code,
        severity,
        pending: false,
    }
}

/// The first failing message, if any rule failed.
pub fn first_failure(results: &[CheckResult]) -> Option<&str> {
    results
        .iter()
        .find(|r| !r.valid && !r.pending)
        .map(|r| r.message.as_deref().unwrap_or("Validation failed"))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{evaluate_checks, first_failure};
    use crate::eval::{EvalContext, FunctionRegistry};
    use crate::limits::Limits;
    use crate::protocol::Version;

    #[test]
    fn checks_expose_the_first_failing_message_in_both_forms() {
        let data = json!({"email": "nope", "name": ""});
        let registry = FunctionRegistry::basic();
        let limits = Limits::default();
        let cx = EvalContext::new(&data, "/", Version::V0_9, &registry, &limits);
        let checks = json!([
            {"condition": {"call": "required", "args": {"value": {"path": "/email"}}}, "message": "Email is required"},
            {"call": "email", "args": {"value": {"path": "/email"}}, "message": "Bad email"},
            {"condition": {"call": "required", "args": {"value": {"path": "/name"}}}, "message": "Name is required"},
        ]);
        let results = evaluate_checks(Some(&checks), &cx).expect("checks present");
        let valid: Vec<bool> = results.iter().map(|r| r.valid).collect();
        assert_eq!(valid, [true, false, false]);
        assert_eq!(first_failure(&results), Some("Bad email"));
    }

    #[test]
    fn v1_validation_result_message_wins_over_the_rule_message() {
        let data = json!({"email": "nope"});
        let registry = FunctionRegistry::basic();
        let limits = Limits::default();
        let cx = EvalContext::new(&data, "/", Version::V1_0, &registry, &limits);
        let checks = json!([
            {"condition": {"call": "email", "args": {"value": {"path": "/email"}}}, "message": "Bad"},
            {"condition": {"call": "required", "args": {"value": ""}}},
        ]);
        let results = evaluate_checks(Some(&checks), &cx).expect("checks present");
        assert_eq!(results[0].code.as_deref(), Some("INVALID_EMAIL"));
        assert_eq!(results[0].severity.as_deref(), Some("error"));
        assert_eq!(
            results[0].message.as_deref(),
            Some("Please enter a valid email address (e.g. user@example.com).")
        );
        assert_eq!(results[1].message.as_deref(), Some("Validation failed"));
    }

    #[test]
    fn invalid_regex_makes_the_check_invalid() {
        let registry = FunctionRegistry::basic();
        let limits = Limits::default();
        let data = json!({});
        let cx = EvalContext::new(&data, "/", Version::V0_9, &registry, &limits);
        let checks = json!([{"condition": {"call": "regex", "args": {"value": "abc", "pattern": "("}}, "message": "m"}]);
        let results = evaluate_checks(Some(&checks), &cx).expect("checks present");
        assert!(!results[0].valid);
        assert!(!cx.take_diagnostics().is_empty());
    }
}
