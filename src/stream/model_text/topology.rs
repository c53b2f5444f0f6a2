//! Phase 3, reachability and required properties: which components are held (a component
//! waits until the required properties of its catalog type are present), which are
//! reachable from the surface's root, the placeholders standing in for children not yet
//! on the wire and their retirement once nothing refers to them (the reference's
//! `_handle_partial_component`, `yield_reachable`, `_process_component_topology`).

use super::*;

impl ModelTextParser {
    pub(super) fn set_surface_id(&mut self, v: Option<String>) {
        self.surface_id = v;
        if let Some(s) = &self.surface_id
            && let Some(r) = self.unbound_root_id.take()
        {
            self.root_ids.insert(s.clone(), r);
        }
    }

    pub(super) fn root_id(&self) -> Option<String> {
        match &self.surface_id {
            Some(s) => self
                .root_ids
                .get(s)
                .cloned()
                .or_else(|| self.default_root_id.clone()),
            None => self
                .unbound_root_id
                .clone()
                .or_else(|| self.default_root_id.clone()),
        }
    }

    pub(super) fn set_root_id(&mut self, v: Option<String>) {
        match (&self.surface_id, v) {
            (Some(s), Some(v)) => {
                self.root_ids.insert(s.clone(), v);
            }
            (Some(s), None) => {
                let s = s.clone();
                self.root_ids.remove(&s);
            }
            (None, v) => self.unbound_root_id = v,
        }
    }

    pub(super) fn handle_partial_component(&mut self, comp: Value) -> Result<(), ModelTextError> {
        let Some(id) = comp
            .get("id")
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
        else {
            return Ok(());
        };
        let def = comp.get("component");
        let empty = match def {
            Some(Value::String(_)) => has_empty_dict(&comp),
            Some(d) => has_empty_dict(d),
            None => false,
        };
        if empty {
            return Ok(());
        }
        // Held back (a placeholder stands in) until the catalog's required properties of
        // its type have arrived: v0.8 nests them under the type, v0.9+ has them flat.
        let (t, props) = match def {
            Some(Value::Object(d)) => match d.iter().next() {
                Some((t, Value::Object(props))) => (Some(t.as_str()), Some(props)),
                _ => (None, None),
            },
            Some(Value::String(t)) => (Some(t.as_str()), comp.as_object()),
            _ => (None, None),
        };
        if let (Some(t), Some(props)) = (t, props)
            && let Some(req) = self.required.get(t)
            && req.iter().any(|r| !props.contains_key(r))
        {
            return Ok(());
        }
        let id = id.to_owned();
        if !self.seen_components.contains_key(&id)
            && self.seen_components.len() >= self.limits.max_components
        {
            return Err(ModelTextError::LimitExceeded {
                what: "max_components",
                limit: self.limits.max_components,
                actual: self.seen_components.len() + 1,
            });
        }
        // Unchanged (sniffed again while its message goes on): nothing new to yield. The
        // reference re-runs the reachability pass anyway and finds nothing to yield.
        if self.seen_components.get(&id) == Some(&comp) {
            return Ok(());
        }
        // `changed_only`: a component already yielded whose references did not change
        // needs no reachability pass, only itself yielded again.
        let content_only = self
            .surface_id
            .as_ref()
            .filter(|s| {
                self.opts.changed_only
                    && self.yielded_ids.get(*s).is_some_and(|y| y.contains(&id))
                    && self.seen_components.get(&id).is_some_and(|old| {
                        check::component_references(old, &self.refs)
                            == check::component_references(&comp, &self.refs)
                    })
            })
            .cloned();
        if let Some(sid) = content_only {
            self.content_dirty.insert((sid, id.clone()));
        } else {
            self.topology_dirty = true;
        }
        self.seen_components.insert(id, comp);
        Ok(())
    }

    /// `changed_only`, after components changed without their references changing: yield
    /// those whose placeholder form changed, without a reachability pass (a full pass if
    /// the placeholders they need changed).
    pub(super) fn yield_changed(
        &mut self,
        out: &mut Vec<ResponsePart>,
    ) -> Result<(), ModelTextError> {
        let mut dirty: Vec<(String, String)> = self.content_dirty.drain().collect();
        dirty.sort();
        let Some(sid) = self.surface_id.clone() else {
            return Ok(());
        };
        if dirty.iter().any(|(s, _)| *s != sid) {
            // The chunk moved on to another surface: the full pass of the current one.
            return self.yield_reachable(out, false, false);
        }
        let ids = dirty.into_iter().map(|(_, id)| id);
        if self.deleted_surfaces.contains(&sid) {
            return Ok(());
        }
        let live = self
            .live_placeholders
            .get(&sid)
            .cloned()
            .unwrap_or_default();
        let mut changed = Vec::new();
        for id in ids {
            let Some(c) = self.seen_components.get(&id) else {
                continue;
            };
            let mut c = c.clone();
            let mut extra = Vec::new();
            self.process_component_topology(&mut c, &mut extra);
            let key = (sid.clone(), id);
            let before = self.yielded_contents.get(&key);
            if before == Some(&c) {
                continue;
            }
            // The placeholders it refers to, before and now, must be the same (an open
            // list that closed, say, changes them: then the whole surface is re-read).
            let mut was = std::collections::BTreeSet::new();
            if let Some(b) = before {
                strings_in(b, &live, &mut was);
            }
            let now: std::collections::BTreeSet<String> = extra
                .iter()
                .filter_map(|p| p.get("id").and_then(Value::as_str))
                .map(str::to_owned)
                .collect();
            if was != now || before.is_none() {
                return self.yield_reachable(out, false, false);
            }
            changed.push((key, c));
        }
        if changed.is_empty() {
            return Ok(());
        }
        let mut components = Vec::with_capacity(changed.len());
        for (key, c) in changed {
            self.yielded_contents.insert(key, c.clone());
            components.push(c);
        }
        let partial = self.partial_message(&sid, components);
        self.yield_messages(vec![partial], out, false)
    }

    /// A partial `surfaceUpdate` / `updateComponents` for `sid`.
    pub(super) fn partial_message(&self, sid: &str, components: Vec<Value>) -> Value {
        match self.fam() {
            Family::V08 => json!({
                "surfaceUpdate": { "surfaceId": sid, "components": components }
            }),
            Family::V09 => json!({
                "version": self.version_tag,
                "updateComponents": { "components": components, "surfaceId": sid }
            }),
        }
    }

    pub(super) fn placeholder(&self, id: String) -> Value {
        match self.fam() {
            Family::V08 => json!({
                "id": id,
                "component": { "Row": { "children": { "explicitList": [] } } },
            }),
            Family::V09 => json!({ "id": id, "component": "Row", "children": [] }),
        }
    }

    pub(super) fn process_component_topology(&self, comp: &mut Value, extra: &mut Vec<Value>) {
        let comp_id = comp
            .get("id")
            .and_then(Value::as_str)
            .unwrap_or("unknown")
            .to_owned();
        let v08 = self.fam() == Family::V08;
        let add = |extra: &mut Vec<Value>, pid: String| {
            if !extra
                .iter()
                .any(|e| e.get("id").and_then(Value::as_str) == Some(pid.as_str()))
            {
                extra.push(self.placeholder(pid));
            }
        };
        let id_of = |v: &Value| match v {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        fn traverse(
            p: &ModelTextParser,
            obj: &mut Value,
            comp_id: &str,
            v08: bool,
            extra: &mut Vec<Value>,
            add: &dyn Fn(&mut Vec<Value>, String),
            id_of: &dyn Fn(&Value) -> String,
        ) {
            match obj {
                Value::Object(o) => {
                    if let Some(path) = o
                        .get("path")
                        .and_then(Value::as_str)
                        .filter(|s| s.starts_with('/'))
                    {
                        if v08 {
                            let key = path.trim_start_matches('/').to_owned();
                            if !o.contains_key("componentId") {
                                o.clear();
                            }
                            o.insert("path".into(), Value::String(format!("/{key}")));
                        }
                    } else if v08
                        && let Some(cur) = o.get("path")
                        && !cur.is_null()
                    {
                        let s = id_of(cur);
                        o.insert("path".into(), Value::String(format!("/{s}")));
                    }
                    for field in [
                        "children",
                        "explicitList",
                        "child",
                        "contentChild",
                        "entryPointChild",
                        "componentId",
                    ] {
                        let Some(v) = o.get_mut(field) else {
                            continue;
                        };
                        match v {
                            Value::Array(items) => {
                                let mut valid = Vec::new();
                                for c in items.iter() {
                                    let cid = id_of(c);
                                    if p.seen_components.contains_key(&cid) {
                                        valid.push(c.clone());
                                    } else {
                                        let pid = format!("loading_{cid}");
                                        valid.push(Value::String(pid.clone()));
                                        add(extra, pid);
                                    }
                                }
                                if valid.is_empty()
                                    && matches!(field, "children" | "explicitList")
                                    && p.list_still_open(field)
                                {
                                    let pid = format!("loading_children_{comp_id}");
                                    valid.push(Value::String(pid.clone()));
                                    add(extra, pid);
                                }
                                *v = Value::Array(valid);
                            }
                            Value::String(cid) if !p.seen_components.contains_key(cid.as_str()) => {
                                let pid = format!("loading_{cid}");
                                *v = Value::String(pid.clone());
                                add(extra, pid);
                            }
                            _ => {}
                        }
                    }
                    for (_, v) in o.iter_mut() {
                        traverse(p, v, comp_id, v08, extra, add, id_of);
                    }
                }
                Value::Array(a) => {
                    for v in a {
                        traverse(p, v, comp_id, v08, extra, add, id_of);
                    }
                }
                _ => {}
            }
        }
        if comp.get("component").is_some_and(Value::is_object) {
            if let Some(c) = comp.get_mut("component") {
                traverse(self, c, &comp_id, v08, extra, &add, &id_of);
            }
        } else {
            traverse(self, comp, &comp_id, v08, extra, &add, &id_of);
        }
    }

    /// The reference's test for a children list that started in the buffer but has no
    /// complete item yet.
    pub(super) fn list_still_open(&self, field: &str) -> bool {
        let term = format!("\"{field}\"");
        let Some(i) = self.json_buffer.rfind(&term) else {
            return false;
        };
        let after = self.json_buffer.get(i + term.len()..).unwrap_or_default();
        match after.find('[') {
            Some(b) => !after.get(..b).unwrap_or_default().contains(']'),
            None => false,
        }
    }

    pub(super) fn active_msg_type_for_components(&mut self) -> Option<&'static str> {
        if let Some(t) = self.active_msg_type {
            return Some(t);
        }
        let wanted: [&str; 2] = match self.fam() {
            Family::V08 => ["surfaceUpdate", "beginRendering"],
            Family::V09 => ["updateComponents", "createSurface"],
        };
        if let Some(t) = self.msg_types.iter().find(|t| wanted.contains(t)).copied() {
            self.active_msg_type = Some(t);
            return Some(t);
        }
        self.msg_types.first().copied()
    }

    pub(super) fn yield_reachable(
        &mut self,
        out: &mut Vec<ResponsePart>,
        check_root: bool,
        raise_on_orphans: bool,
    ) -> Result<(), ModelTextError> {
        let active = self.active_msg_type_for_components();
        let (Some(root), Some(active)) = (self.root_id(), active) else {
            return Ok(());
        };
        let Some(sid) = self.surface_id.clone() else {
            return Ok(());
        };
        if !self.yielded_surfaces.contains(&sid) && self.buffered_start_message.is_none() {
            return Ok(());
        }
        match self.yield_reachable_inner(out, &root, &sid, active, check_root, raise_on_orphans) {
            Ok(()) => Ok(()),
            Err(e) => {
                if matches!(e, ModelTextError::Recursion(_)) || raise_on_orphans || check_root {
                    Err(e)
                } else {
                    Ok(())
                }
            }
        }
    }

    pub(super) fn yield_reachable_inner(
        &mut self,
        out: &mut Vec<ResponsePart>,
        root: &str,
        sid: &str,
        active: &str,
        check_root: bool,
        raise_on_orphans: bool,
    ) -> Result<(), ModelTextError> {
        let no_root = || {
            ModelTextError::Validation(format!("No root component (id='{root}') found in {active}"))
        };
        if check_root && !self.seen_components.contains_key(root) {
            return Err(no_root());
        }
        let reachable = check::analyze_topology(
            Some(root),
            self.seen_components.values(),
            &self.refs,
            raise_on_orphans,
        )?;
        let mut available: Vec<String> = reachable
            .into_iter()
            .filter(|id| self.seen_components.contains_key(id))
            .collect();
        if check_root && available.is_empty() {
            return Err(no_root());
        }
        available.sort();
        let empty = HashSet::new();
        let yielded_for_surface = self.yielded_ids.get(sid).unwrap_or(&empty);
        let mut processed = Vec::with_capacity(available.len());
        let mut extra = Vec::new();
        for rid in &available {
            let Some(c) = self.seen_components.get(rid) else {
                continue;
            };
            let mut c = c.clone();
            self.process_component_topology(&mut c, &mut extra);
            processed.push(c);
        }
        let placeholder_ids: HashSet<String> = extra
            .iter()
            .filter_map(|p| p.get("id").and_then(Value::as_str))
            .map(str::to_owned)
            .collect();
        processed.extend(extra);
        if self.deleted_surfaces.contains(sid) {
            return Ok(());
        }
        let should_yield = available.iter().any(|id| !yielded_for_surface.contains(id))
            || processed.iter().any(|c| {
                let cid = c.get("id").and_then(Value::as_str).unwrap_or_default();
                self.yielded_contents.get(&(sid.to_owned(), cid.to_owned())) != Some(c)
            });
        if !should_yield {
            return Ok(());
        }
        if let Some(start) = self.buffered_start_message.clone()
            && !self.yielded_start_messages.contains(sid)
        {
            self.yield_messages(vec![start], out, true)?;
            self.yielded_start_messages.insert(sid.to_owned());
            self.yielded_surfaces.insert(sid.to_owned());
        }
        if self.opts.changed_only {
            // Only what the store does not hold yet.
            processed.retain(|c| {
                let cid = c.get("id").and_then(Value::as_str).unwrap_or_default();
                self.yielded_contents.get(&(sid.to_owned(), cid.to_owned())) != Some(c)
            });
        }
        for c in &processed {
            let cid = c.get("id").and_then(Value::as_str).unwrap_or_default();
            self.yielded_contents
                .insert((sid.to_owned(), cid.to_owned()), c.clone());
        }
        if !processed.is_empty() {
            let partial = self.partial_message(sid, processed);
            self.yield_messages(vec![partial], out, false)?;
        }
        self.yielded_ids
            .entry(sid.to_owned())
            .or_default()
            .extend(available);
        self.retire_placeholders(sid, placeholder_ids);
        Ok(())
    }

    /// After a partial message for `sid` carrying the placeholders `now`: those it no longer
    /// carries are retired (and would be yielded again if referred to again).
    pub(super) fn retire_placeholders(&mut self, sid: &str, now: HashSet<String>) {
        // Placeholders carried again are no longer to be removed.
        self.retired.retain(|(s, id)| s != sid || !now.contains(id));
        let before = self
            .live_placeholders
            .insert(sid.to_owned(), now)
            .unwrap_or_default();
        let live = self.live_placeholders.get(sid);
        let mut gone: Vec<String> = before
            .into_iter()
            .filter(|id| live.is_none_or(|l| !l.contains(id)))
            .collect();
        gone.sort();
        for id in gone {
            self.yielded_contents.remove(&(sid.to_owned(), id.clone()));
            self.retired.push((sid.to_owned(), id));
        }
    }
}

/// The strings in `v` that are in `set` (the placeholders a yielded component refers to).
fn strings_in(v: &Value, set: &HashSet<String>, out: &mut std::collections::BTreeSet<String>) {
    match v {
        Value::String(s) if set.contains(s) => {
            out.insert(s.clone());
        }
        Value::Array(a) => a.iter().for_each(|x| strings_in(x, set, out)),
        Value::Object(o) => o.values().for_each(|x| strings_in(x, set, out)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = r#"<a2ui-json>[{"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": "c"}}, {"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": ["#;

    fn basic_parser() -> ModelTextParser {
        let catalog: Value = serde_json::from_str(include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/assets/schemas/v0_9_catalogs_basic/catalog.json"
        )))
        .unwrap_or_default();
        let components = catalog_components(Family::V09, None, Some(&catalog));
        ModelTextParser::new(
            ModelTextOptions {
                family: Some(Family::V09),
                components,
                ..ModelTextOptions::default()
            },
            Limits::default(),
        )
    }

    /// The components of the last partial `updateComponents` in `parts`, by id.
    fn last_components(parts: &[ResponsePart]) -> Option<Map<String, Value>> {
        parts
            .iter()
            .flat_map(|p| p.a2ui.iter().flatten())
            .filter_map(|m| m["updateComponents"]["components"].as_array())
            .next_back()
            .map(|cs| {
                cs.iter()
                    .map(|c| (c["id"].as_str().unwrap_or_default().to_owned(), c.clone()))
                    .collect()
            })
    }

    #[test]
    fn a_placeholder_stands_in_and_is_retired_when_its_component_arrives() {
        let mut p = basic_parser();
        let parts = p
            .feed_str(&format!(
                r#"{START}{{"id": "root", "component": "Column", "children": ["a", "#
            ))
            .expect("chunk");
        let comps = last_components(&parts).expect("a partial message");
        assert_eq!(comps["root"]["children"], serde_json::json!(["loading_a"]));
        assert_eq!(comps["loading_a"]["component"], "Row");
        assert!(p.take_retired_placeholders().is_empty());
        let parts = p
            .feed_str(r#""b"]}, {"id": "a", "component": "Text", "text": "A"}"#)
            .expect("chunk");
        let comps = last_components(&parts).expect("a partial message");
        assert_eq!(
            comps["root"]["children"],
            serde_json::json!(["a", "loading_b"])
        );
        assert_eq!(
            p.take_retired_placeholders(),
            vec![("s".to_owned(), "loading_a".to_owned())]
        );
    }

    #[test]
    fn an_open_empty_children_list_gets_one_placeholder_until_it_fills() {
        let mut p = basic_parser();
        let parts = p
            .feed_str(&format!(
                r#"{START}{{"id": "root", "component": "Row", "children": ["#
            ))
            .expect("chunk");
        let comps = last_components(&parts).expect("a partial message");
        assert_eq!(
            comps["root"]["children"],
            serde_json::json!(["loading_children_root"])
        );
        p.feed_str(r#""x"#).expect("chunk");
        let parts = p.feed_str(r#"", "#).expect("chunk");
        let comps = last_components(&parts).expect("a partial message");
        assert_eq!(comps["root"]["children"], serde_json::json!(["loading_x"]));
        assert_eq!(
            p.take_retired_placeholders(),
            vec![("s".to_owned(), "loading_children_root".to_owned())]
        );
    }

    #[test]
    fn a_component_waits_for_its_required_properties() {
        let mut p = basic_parser();
        // Card requires `child`: held back, the root's placeholder stands in.
        let parts = p
            .feed_str(&format!(r#"{START}{{"id": "root", "component": "Card", "#))
            .expect("chunk");
        assert!(last_components(&parts).is_none());
        let parts = p.feed_str(r#""child": "t"}, "#).expect("chunk");
        let comps = last_components(&parts).expect("a partial message");
        assert_eq!(comps["root"]["child"], "loading_t");
        // Text requires `text`; a cut text counts as present (as in the reference).
        let parts = p
            .feed_str(r#"{"id": "t", "component": "Text", "variant": "h1", "#)
            .expect("chunk");
        assert!(last_components(&parts).is_none());
        let parts = p.feed_str(r#""text": "Hel"#).expect("chunk");
        let comps = last_components(&parts).expect("a partial message");
        assert_eq!(comps["t"]["text"], "Hel");
        assert_eq!(comps["root"]["child"], "t");
    }
}
