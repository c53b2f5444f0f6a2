//! `parse_expression_template`, `evaluate_function` and expressions evaluated on a surface.

use super::*;

pub(super) fn parse_expression_template(case: &Value) -> Check {
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
pub(super) fn with_return_type(part: Value) -> Value {
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
    pub(super) fn evaluate_function(&self, case: &Value) -> Check {
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
    pub(super) fn evaluate_on_surface(
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
