//! The harness's own resolution of a surface's components (each at the root scope and each
//! template instance), and the checks of the expected surfaces and components against it.

use super::*;

/// One resolved component instance: its type, resolved props, checks outcome.
pub(super) struct Resolved {
    pub(super) component: String,
    pub(super) props: Map<String, Value>,
    pub(super) validation: Option<Value>,
}

/// Every component of a surface resolved as the harness does: each at the root scope
/// under its id, and each template instance under `id_i` and `id-[scope]`.
pub(super) fn resolve_surface(
    p: &Processor,
    s: &Surface,
) -> (Vec<(String, Resolved)>, Vec<A2uiError>) {
    let (tree, mut errors) = resolve_tree(s, p.store.catalogs(), p.store.limits());
    let mut out: Vec<(String, Resolved)> = Vec::new();
    pub(super) fn walk(
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

pub(super) fn resolve_component(
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

pub(super) fn first_resolution_error(p: &Processor) -> Option<A2uiError> {
    for s in p.store.surfaces() {
        let (_, errors) = resolve_surface(p, s);
        if let Some(e) = errors.into_iter().next() {
            return Some(e);
        }
    }
    None
}

pub(super) fn check_surface(p: &Processor, sid: &str, exp: &Value) -> Check {
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

pub(super) fn check_component(node: &Resolved, exp: &Value) -> Check {
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
