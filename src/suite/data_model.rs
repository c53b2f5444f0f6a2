//! `data_model` and `resolve_path` cases: a data model on its own, with observers.

use super::*;

pub(super) fn data_model_case(case: &Value) -> Handled {
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

pub(super) fn resolve_path_case(case: &Value) -> Check {
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
