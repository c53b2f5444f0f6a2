//! `process_messages` and `validate`: a case's messages through a store, and the state and
//! errors it ends in.

use super::*;

/// A store, the registry of functions, and the expected-catalog-error flag of one case.
pub(super) struct Processor {
    pub(super) store: SurfaceStore,
    pub(super) functions: FunctionRegistry,
    /// The catalogs the case itself declares (what its renderer "holds").
    pub(super) declared: Catalogs,
}

impl Runner {
    pub(super) fn processor(
        &self,
        case: &Value,
        all_messages: &[Value],
    ) -> Result<Processor, String> {
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
        // catalogs' components and of their themes ([`crate::validate::SchemaValidator`]).
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

    pub(super) fn process_messages(&self, case: &Value) -> Check {
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
    pub(super) fn check_state(&self, p: &Processor, expected: &Value) -> Check {
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
pub(super) fn with_schema_note(case: &Value, reason: String) -> String {
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
pub(super) fn is_strict(case: &Value) -> bool {
    case.get("strictMode").and_then(Value::as_bool) == Some(true)
        || case.get("action").and_then(Value::as_str) == Some("validate")
}

/// The schema validator of a strict case: the basic catalogs, and every catalog document
/// of the case that defines components or a theme of its own (a document the validator
/// cannot read is left to the case's own expectations, which are about loading it).
#[cfg(feature = "validation")]
pub(super) fn schema_validator(
    catalogs: &[CaseCatalog],
) -> Result<crate::validate::SchemaValidator, String> {
    let mut v = crate::validate::SchemaValidator::basic().map_err(|e| e.to_string())?;
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

pub(super) fn register(known: &mut Catalogs, c: &CaseCatalog) {
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
pub(super) fn apply_batch(store: &mut SurfaceStore, messages: &[Value]) -> Option<A2uiError> {
    for m in messages {
        if let Err(e) = store.apply(m).into_result() {
            return Some(e);
        }
    }
    None
}
