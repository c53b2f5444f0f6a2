//! Catalog, capability and RPC cases: `capabilities`, `data_model_request`, `select_catalog`,
//! `load_catalog`, and v1.0 `callRendererFunction` / agent-call round trips.

use super::*;

/// The capabilities of a renderer holding these catalogs, keyed by protocol version
/// (`{"v0.9": {"supportedCatalogIds": [...]}}`), optionally for one version only.
pub(super) fn capabilities_of(known: &Catalogs, only: Option<Version>) -> Value {
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
    pub(super) fn capabilities_case(&self, case: &Value) -> Check {
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

    pub(super) fn data_model_request(&self, case: &Value) -> Check {
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

    pub(super) fn select_catalog(&self, case: &Value) -> Check {
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

    pub(super) fn handle_rpc(&self, case: &Value) -> Check {
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
    pub(super) fn agent_call_round_trip(
        &self,
        out: &Value,
        inbound: &Value,
        expect: &Value,
    ) -> Check {
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

    pub(super) fn load_catalog_case(&self, case: &Value) -> Handled {
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
        // The document as the SDKs load it (theme, schemas), for what the names alone do
        // not say.
        let read = crate::catalog::CatalogDocument::from_json(&d, version)
            .map_err(|e| format!("unexpected error: {e}"))?;
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
                "theme" => {
                    subset(v, &read.theme).map_err(|e| format!("theme: {e}"))?;
                    if !json_eq(v, &read.theme) {
                        return Err(format!("theme {} != {}", compact(&read.theme), compact(v)));
                    }
                }
                "selfContained" => {
                    let schema = crate::catalog::validation_schema(&d, version)
                        .map_err(|e| format!("catalog schema: {e}"))?;
                    let contained = crate::catalog::unresolved_ref(&schema);
                    if v.as_bool() != Some(contained.is_none()) {
                        return Err(format!(
                            "selfContained {} expected, unresolved reference {contained:?}",
                            compact(v)
                        ));
                    }
                }
                "components" => {
                    if let Value::Object(m) = v {
                        for (n, schema) in m {
                            let got = read
                                .resolved_component(n, &d)
                                .ok_or(format!("component {n} not read"))?;
                            subset(schema, &got).map_err(|e| format!("component {n}: {e}"))?;
                        }
                        if m.len() != read.components.len() {
                            return Err(format!(
                                "components {:?} read, {} expected",
                                read.components.keys().collect::<Vec<_>>(),
                                m.len()
                            ));
                        }
                    }
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
                    if let Value::Object(m) = v {
                        for (n, schema) in m {
                            let got = read
                                .functions
                                .get(n)
                                .ok_or(format!("function {n} not read"))?;
                            subset(schema, got).map_err(|e| format!("function {n}: {e}"))?;
                        }
                        if m.len() != read.functions.len() {
                            return Err(format!(
                                "{} functions read, {} expected",
                                read.functions.len(),
                                m.len()
                            ));
                        }
                        continue;
                    }
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

impl Runner {
    /// `catalog_schema`: the self-contained schema of a catalog document
    /// ([`crate::catalog::validation_schema`]) holds what the case expects (`expect`, as a
    /// subset: the common types bundled into `$defs` are not listed by the cases), or, for
    /// `expectCatalog`, every component and function of the published catalog with its
    /// properties, every reference resolving inside the schema.
    pub(super) fn catalog_schema_case(&self, case: &Value) -> Check {
        let mut doc = match case.get("catalogPath").and_then(Value::as_str) {
            Some(p) => self.read_json(p)?,
            None => case.get("catalog").cloned().unwrap_or_default(),
        };
        if let (Some(id), Some(o)) = (case.get("catalogId"), doc.as_object_mut()) {
            o.insert("catalogId".into(), id.clone());
        }
        let version = case_version(case);
        if let Some(expect) = case.get("expect") {
            let got = crate::catalog::validation_schema(&doc, version)
                .map_err(|e| format!("unexpected error: {e}"))?;
            return subset(expect, &got);
        }
        let Some(ec) = case.get("expectCatalog") else {
            return Err("catalog_schema case without an expectation".into());
        };
        // "The SDK's implementation of the basic catalog": ours, as `Catalog::basic`
        // describes it.
        let ours = Catalog::basic()
            .definition_of(version.basic_catalog_id(), version)
            .ok_or("the basic catalog does not serve its id")?;
        let got = crate::catalog::validation_schema(&ours, version)
            .map_err(|e| format!("unexpected error: {e}"))?;
        if let Some(r) = crate::catalog::unresolved_ref(&got) {
            return Err(format!("reference {r} does not resolve inside the schema"));
        }
        let published = self.read_json(
            ec.get("catalogPath")
                .and_then(Value::as_str)
                .ok_or("expectCatalog without catalogPath")?,
        )?;
        let flat = crate::catalog::validation_schema(&published, version)
            .map_err(|e| format!("published catalog: {e}"))?;
        for key in ["components", "functions"] {
            for (name, schema) in flat
                .get(key)
                .and_then(Value::as_object)
                .into_iter()
                .flatten()
            {
                let mine = got
                    .get(key)
                    .and_then(|m| m.get(name))
                    .ok_or(format!("{key} {name} missing"))?;
                let props = |s: &Value| -> Vec<String> {
                    s.get("properties")
                        .and_then(Value::as_object)
                        .map(|p| p.keys().cloned().collect())
                        .unwrap_or_default()
                };
                if props(schema) != props(mine) {
                    return Err(format!(
                        "{key} {name}: properties {:?} != {:?}",
                        props(mine),
                        props(schema)
                    ));
                }
            }
        }
        Ok(())
    }
}

/// `validComponents` / `invalidComponents` of a `from_json` case: each component instance
/// checked against the loaded catalog alone, by the schema validator (feature
/// `validation`; without it the expectation is not checked, `Ok(Some)`).
#[cfg_attr(
    not(feature = "validation"),
    expect(unused_variables, reason = "checked only with the validation feature")
)]
pub(super) fn check_components(
    valid: bool,
    list: &Value,
    version: Version,
    doc: &Value,
) -> Handled {
    #[cfg(feature = "validation")]
    {
        if version.family() == Version::V0_8 {
            return Ok(Some("a v0.8 catalog has no component schemas".into()));
        }
        let validator = crate::validate::SchemaValidator::of_catalog(version, doc.clone())
            .map_err(|e| e.to_string())?;
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

pub(super) fn rpc_matches(want: &Value, got: &Value) -> Check {
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
