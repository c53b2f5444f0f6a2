//! Phase 3, reachability and required properties: which components are held (a component
//! waits until the required properties of its catalog type are present), which are
//! reachable from the surface's root, the placeholders standing in for children not yet
//! on the wire and their retirement once nothing refers to them (the reference's
//! `_handle_partial_component`, `yield_reachable`, `_process_component_topology`).

use std::sync::Arc;

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

    /// Whether `comp` lacks a required property of its catalog type: it is held back (a
    /// placeholder stands in) until they have arrived. v0.8 nests them under the type,
    /// v0.9+ has them flat.
    pub(super) fn lacks_required(&self, comp: &Value) -> bool {
        let (t, props) = match comp.get("component") {
            Some(Value::Object(d)) => match d.iter().next() {
                Some((t, Value::Object(props))) => (Some(t.as_str()), Some(props)),
                _ => (None, None),
            },
            Some(Value::String(t)) => (Some(t.as_str()), comp.as_object()),
            _ => (None, None),
        };
        if let (Some(t), Some(props)) = (t, props)
            && let Some(req) = self.required.get(t)
        {
            return req.iter().any(|r| !props.contains_key(r));
        }
        false
    }

    /// Take a component that was sniffed or closed: held back while it lacks a required
    /// property (or an id, or has an empty object), else into the table. A component not
    /// taken comes back (`Ok(Some)`); `Ok(None)`: the table holds it now.
    pub(super) fn handle_partial_component(
        &mut self,
        comp: Value,
    ) -> Result<Option<Value>, ModelTextError> {
        let Some(id) = comp
            .get("id")
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
        else {
            return Ok(Some(comp));
        };
        let def = comp.get("component");
        let empty = match def {
            Some(Value::String(_)) => has_empty_dict(&comp),
            Some(d) => has_empty_dict(d),
            None => false,
        };
        if empty {
            return Ok(Some(comp));
        }
        if self.lacks_required(&comp) {
            return Ok(Some(comp));
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
        if self.seen_components.get(&id).is_some_and(|c| **c == comp) {
            return Ok(None);
        }
        // `changed_only`: a component already yielded whose references did not change
        // needs no reachability pass, only itself yielded again.
        let refs = check::component_references(&comp, &self.refs);
        let content_only = self
            .surface_id
            .as_ref()
            .filter(|s| {
                self.opts.changed_only
                    && self.yielded_ids.get(*s).is_some_and(|y| y.contains(&id))
                    && self.seen_components.contains_key(&id)
                    && self.comp_refs.get(&id) == Some(&refs)
            })
            .cloned();
        if let Some(sid) = content_only {
            self.content_dirty.insert((sid, id.clone()));
        } else {
            self.topology_dirty = true;
        }
        self.store_component(id, comp, refs);
        Ok(None)
    }

    /// Whether `id` is in the component table (`comp_refs` has the table's keys; its hasher
    /// is the fast one).
    pub(super) fn in_table(&self, id: &str) -> bool {
        self.comp_refs.contains_key(id)
    }

    /// Put a component into the table, keeping its references and invalidating its
    /// placeholder form (the one way components enter `seen_components`).
    pub(super) fn store_component(&mut self, id: String, comp: Value, refs: Vec<(String, String)>) {
        let self_ref = refs.iter().any(|(r, _)| *r == id);
        if self.reach.is_some() && !self.stored_since.contains_key(&id) {
            let old = self
                .comp_refs
                .get(&id)
                .map(|o| o.iter().map(|(r, _)| r.clone()).collect());
            self.stored_since.insert(id.clone(), old);
        }
        let was_self_ref = self
            .comp_refs
            .insert(id.clone(), refs)
            .is_some_and(|old| old.iter().any(|(r, _)| *r == id));
        self.self_refs = self.self_refs + usize::from(self_ref) - usize::from(was_self_ref);
        if let Some(old) = self.proc_cache.remove(&id)
            && let Some(r) = self.reach.as_mut()
            && r.depth.contains_key(&id)
        {
            r.forget_form(&id, &old.placeholders, &old.missing);
        }
        self.seen_components.insert(id, Arc::new(comp));
    }

    /// The reference fields changed (the family became known): re-read every component's
    /// references and forget every placeholder form.
    pub(super) fn refresh_component_refs(&mut self) {
        self.reach = None;
        self.stored_since.clear();
        self.comp_refs.clear();
        self.self_refs = 0;
        self.proc_cache.clear();
        for (id, c) in &self.seen_components {
            let refs = check::component_references(c, &self.refs);
            self.self_refs += usize::from(refs.iter().any(|(r, _)| r == id));
            self.comp_refs.insert(id.clone(), refs);
        }
    }

    /// The ids reachable from `root` that are in the table, sorted, as
    /// [`check::analyze_topology`] finds them over the table (same errors, in the same
    /// order), from the references kept per component.
    pub(super) fn reachable_ids(
        &self,
        root: &str,
        raise_on_orphans: bool,
    ) -> Result<Vec<String>, ModelTextError> {
        if self.self_refs > 0 {
            for (id, _) in &self.seen_components {
                if let Some((_, field)) = self
                    .comp_refs
                    .get(id)
                    .and_then(|refs| refs.iter().find(|(r, _)| r == id))
                {
                    return Err(ModelTextError::Recursion(format!(
                        "Self-reference detected: Component '{id}' references itself in field '{field}'"
                    )));
                }
            }
        }
        fn dfs<'a>(
            node: &'a str,
            depth: usize,
            adj: &'a HashMap<String, Vec<(String, String)>>,
            visited: &mut HashSet<&'a str>,
            on_stack: &mut HashSet<&'a str>,
        ) -> Result<(), ModelTextError> {
            if depth > check::MAX_GLOBAL_DEPTH {
                return Err(ModelTextError::Recursion(format!(
                    "Global recursion limit exceeded: logical depth > {}",
                    check::MAX_GLOBAL_DEPTH
                )));
            }
            visited.insert(node);
            on_stack.insert(node);
            for (n, _) in adj.get(node).into_iter().flatten() {
                if !visited.contains(n.as_str()) {
                    dfs(n, depth + 1, adj, visited, on_stack)?;
                } else if on_stack.contains(n.as_str()) {
                    return Err(ModelTextError::Recursion(format!(
                        "Circular reference detected involving component '{n}'"
                    )));
                }
            }
            on_stack.remove(node);
            Ok(())
        }
        let n = self.comp_refs.len();
        let mut visited = HashSet::with_capacity_and_hasher(n, Default::default());
        let mut on_stack = HashSet::with_capacity_and_hasher(n, Default::default());
        if self.in_table(root) {
            dfs(root, 0, &self.comp_refs, &mut visited, &mut on_stack)?;
        }
        if raise_on_orphans {
            let mut all: Vec<&String> = self.seen_components.keys().collect();
            all.sort();
            if let Some(o) = all.into_iter().find(|id| !visited.contains(id.as_str())) {
                return Err(ModelTextError::Validation(format!(
                    "Component '{o}' is not reachable from '{root}'"
                )));
            }
        }
        let mut available: Vec<&str> = visited.into_iter().filter(|id| self.in_table(id)).collect();
        available.sort_unstable();
        Ok(available.into_iter().map(str::to_owned).collect())
    }

    /// Whether the kept placeholder form of `id` is still what processing it gives.
    fn processed_valid(&self, id: &str) -> bool {
        self.proc_cache
            .get(id)
            .is_some_and(|p| !p.volatile && p.missing.iter().all(|m| !self.in_table(m)))
    }

    /// Make sure `proc_cache` holds the current placeholder form of `id` (a component in
    /// the table).
    pub(super) fn ensure_processed(&mut self, id: &str) {
        if self.processed_valid(id) {
            return;
        }
        let Some(c) = self.seen_components.get(id) else {
            return;
        };
        let mut trace = Trace::default();
        // A component whose children are all in the table is its own placeholder form:
        // shared, not copied.
        let (value, placeholders) = if self.form_is_component(c) {
            (Arc::clone(c), Vec::new())
        } else {
            let mut value = (**c).clone();
            let mut extra = Vec::new();
            self.process_component_topology_traced(&mut value, &mut extra, &mut trace);
            let placeholders: Vec<String> = extra
                .iter()
                .filter_map(|p| p.get("id").and_then(Value::as_str))
                .map(str::to_owned)
                .collect();
            (Arc::new(value), placeholders)
        };
        self.stamp = self.stamp.wrapping_add(1).max(FIRST_STAMP);
        if let Some(r) = self.reach.as_mut()
            && r.depth.contains_key(id)
        {
            if let Some(old) = self.proc_cache.get(id) {
                r.forget_form(id, &old.placeholders, &old.missing);
            }
            r.add_form(id, &placeholders, &trace.missing, trace.volatile);
        }
        self.proc_cache.insert(
            id.to_owned(),
            Processed {
                value,
                placeholders,
                missing: trace.missing,
                volatile: trace.volatile,
                stamp: self.stamp,
            },
        );
    }

    /// The stamp standing for a placeholder's form (it depends on the family only).
    pub(super) fn placeholder_stamp(&self) -> u64 {
        match self.fam() {
            Family::V08 => 1,
            Family::V09 => 2,
        }
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
        let mut changed = Vec::new();
        for id in ids {
            if !self.in_table(&id) {
                continue;
            }
            self.ensure_processed(&id);
            let Some(p) = self.proc_cache.get(&id) else {
                continue;
            };
            let before = self
                .yielded_contents
                .get_mut(&sid)
                .and_then(|m| m.get_mut(&id));
            if same_as_yielded(before, &p.value, p.stamp) {
                continue;
            }
            let before = self.yielded_contents.get(&sid).and_then(|m| m.get(&id));
            // The placeholders it refers to, before and now, must be the same (an open
            // list that closed, say, changes them: then the whole surface is re-read).
            let mut was = std::collections::BTreeSet::new();
            if let Some((b, _)) = before
                && let Some(live) = self.live_placeholders.get(&sid)
            {
                strings_in(b, live, &mut was);
            }
            let now: std::collections::BTreeSet<String> = p.placeholders.iter().cloned().collect();
            if was != now || before.is_none() {
                return self.yield_reachable(out, false, false);
            }
            changed.push((id, Arc::clone(&p.value), p.stamp));
        }
        if changed.is_empty() {
            return Ok(());
        }
        let mut components = Vec::with_capacity(changed.len());
        let yielded = self.yielded_contents.entry(sid.clone()).or_default();
        for (id, c, stamp) in changed {
            components.push(Arc::clone(&c));
            yielded.insert(id, (c, stamp));
        }
        let partial = self.partial_message(&sid, components);
        self.yield_messages(vec![partial], out, false)
    }

    /// A partial `surfaceUpdate` / `updateComponents` for `sid`, sharing the components
    /// (nothing is copied; its JSON value is built only if asked for).
    pub(super) fn partial_message(&self, sid: &str, components: Vec<Arc<Value>>) -> ModelMessage {
        ModelMessage::components(self.fam(), &self.version_tag, sid, components)
    }

    pub(super) fn placeholder(&self, id: String) -> Value {
        placeholder_value(self.fam(), id)
    }

    /// Whether processing `comp` ([`Self::process_component_topology_traced`]) would leave
    /// it as it is, with nothing to trace: every child it refers to is in the table, no
    /// children list is empty, and (v0.8) no `path` is rewritten.
    pub(super) fn form_is_component(&self, comp: &Value) -> bool {
        fn untouched(p: &ModelTextParser, obj: &Value, v08: bool) -> bool {
            match obj {
                Value::Object(o) => {
                    if v08 && o.get("path").is_some_and(|x| !x.is_null()) {
                        return false;
                    }
                    for field in CHILD_FIELDS {
                        match o.get(field) {
                            Some(Value::Array(items)) => {
                                if items.is_empty() && matches!(field, "children" | "explicitList")
                                {
                                    return false;
                                }
                                if items
                                    .iter()
                                    .any(|c| !c.as_str().is_some_and(|cid| p.in_table(cid)))
                                {
                                    return false;
                                }
                            }
                            Some(Value::String(cid)) if !p.in_table(cid) => return false,
                            _ => {}
                        }
                    }
                    o.values().all(|v| untouched(p, v, v08))
                }
                Value::Array(a) => a.iter().all(|v| untouched(p, v, v08)),
                _ => true,
            }
        }
        let v08 = self.fam() == Family::V08;
        match comp.get("component") {
            Some(c @ Value::Object(_)) => untouched(self, c, v08),
            _ => untouched(self, comp, v08),
        }
    }

    /// A component's placeholder form: children not in the table replaced by placeholders
    /// (appended to `extra`), noting in `trace` what the result depends on besides the
    /// component itself.
    pub(super) fn process_component_topology_traced(
        &self,
        comp: &mut Value,
        extra: &mut Vec<Value>,
        trace: &mut Trace,
    ) {
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
        #[allow(clippy::too_many_arguments)]
        fn traverse(
            p: &ModelTextParser,
            obj: &mut Value,
            comp_id: &str,
            v08: bool,
            extra: &mut Vec<Value>,
            add: &dyn Fn(&mut Vec<Value>, String),
            id_of: &dyn Fn(&Value) -> String,
            trace: &mut Trace,
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
                    for field in CHILD_FIELDS {
                        let Some(v) = o.get_mut(field) else {
                            continue;
                        };
                        match v {
                            Value::Array(items) => {
                                let mut valid = Vec::new();
                                for c in items.iter() {
                                    let cid = id_of(c);
                                    if p.in_table(&cid) {
                                        valid.push(c.clone());
                                    } else {
                                        let pid = format!("loading_{cid}");
                                        valid.push(Value::String(pid.clone()));
                                        add(extra, pid);
                                        trace.missing.push(cid);
                                    }
                                }
                                if valid.is_empty() && matches!(field, "children" | "explicitList")
                                {
                                    // Depends on the JSON buffer, not on the component.
                                    trace.volatile = true;
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
                            Value::String(cid) if !p.in_table(cid.as_str()) => {
                                trace.missing.push(cid.clone());
                                let pid = format!("loading_{cid}");
                                *v = Value::String(pid.clone());
                                add(extra, pid);
                            }
                            _ => {}
                        }
                    }
                    for (_, v) in o.iter_mut() {
                        traverse(p, v, comp_id, v08, extra, add, id_of, trace);
                    }
                }
                Value::Array(a) => {
                    for v in a {
                        traverse(p, v, comp_id, v08, extra, add, id_of, trace);
                    }
                }
                _ => {}
            }
        }
        if comp.get("component").is_some_and(Value::is_object) {
            if let Some(c) = comp.get_mut("component") {
                traverse(self, c, &comp_id, v08, extra, &add, &id_of, trace);
            }
        } else {
            traverse(self, comp, &comp_id, v08, extra, &add, &id_of, trace);
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
        if check_root && !self.in_table(root) {
            return Err(no_root());
        }
        if self.opts.changed_only
            && !raise_on_orphans
            && let Some(r) = self.yield_incremental(out, root, sid)
        {
            return r;
        }
        self.reach = None;
        self.stored_since.clear();
        let available = self.reachable_ids(root, raise_on_orphans)?;
        if check_root && available.is_empty() {
            return Err(no_root());
        }
        // Each component's placeholder form is kept until it or what it refers to changes.
        for id in &available {
            self.ensure_processed(id);
        }
        if self.deleted_surfaces.contains(sid) {
            return Ok(());
        }
        // The placeholders, in the order the components first refer to them.
        let mut placeholders: Vec<&str> = Vec::new();
        for id in &available {
            for p in self
                .proc_cache
                .get(id)
                .into_iter()
                .flat_map(|p| &p.placeholders)
            {
                if !placeholders.contains(&p.as_str()) {
                    placeholders.push(p);
                }
            }
        }
        // What differs from what was yielded (`true`: a placeholder).
        let ph_stamp = self.placeholder_stamp();
        let mut changed: Vec<(String, bool)> = Vec::new();
        let mut yielded = self.yielded_contents.get_mut(sid);
        for id in &available {
            let Some(p) = self.proc_cache.get(id) else {
                continue;
            };
            let before = yielded.as_mut().and_then(|m| m.get_mut(id));
            if !same_as_yielded(before, &p.value, p.stamp) {
                changed.push((id.clone(), false));
            }
        }
        for pid in &placeholders {
            let before = yielded.as_mut().and_then(|m| m.get_mut(*pid));
            let same = match before {
                Some((v, stamp)) if *stamp == ph_stamp => {
                    let _ = v;
                    true
                }
                Some((v, stamp)) => {
                    let v = &**v;
                    let now = match self.family.unwrap_or_default() {
                        Family::V08 => json!({
                            "id": pid,
                            "component": { "Row": { "children": { "explicitList": [] } } },
                        }),
                        Family::V09 => json!({ "id": pid, "component": "Row", "children": [] }),
                    };
                    let same = *v == now;
                    if same {
                        *stamp = ph_stamp;
                    }
                    same
                }
                None => false,
            };
            if !same {
                changed.push(((*pid).to_owned(), true));
            }
        }
        let yielded_for_surface = self.yielded_ids.get(sid);
        let any_new = available
            .iter()
            .any(|id| yielded_for_surface.is_none_or(|y| !y.contains(id)));
        if !any_new && changed.is_empty() {
            self.build_reach(sid, root);
            return Ok(());
        }
        let placeholder_ids: Vec<String> = placeholders.iter().map(|p| (*p).to_owned()).collect();
        if !self.yielded_start_messages.contains(sid)
            && let Some(start) = self.buffered_start_message.clone()
        {
            self.yield_messages(vec![start], out, true)?;
            self.yielded_start_messages.insert(sid.to_owned());
            self.yielded_surfaces.insert(sid.to_owned());
        }
        // Without `changed_only` every reachable component goes again.
        let items: Vec<(String, bool)> = if self.opts.changed_only {
            changed
        } else {
            available
                .iter()
                .map(|id| (id.clone(), false))
                .chain(placeholder_ids.iter().map(|p| (p.clone(), true)))
                .collect()
        };
        let mut processed = Vec::with_capacity(items.len());
        for (id, is_placeholder) in items {
            let (value, stamp) = if is_placeholder {
                (Arc::new(self.placeholder(id.clone())), ph_stamp)
            } else {
                match self.proc_cache.get(&id) {
                    Some(p) => (Arc::clone(&p.value), p.stamp),
                    None => continue,
                }
            };
            self.yielded_contents
                .entry(sid.to_owned())
                .or_default()
                .insert(id, (Arc::clone(&value), stamp));
            processed.push(value);
        }
        if !processed.is_empty() {
            let partial = self.partial_message(sid, processed);
            self.yield_messages(vec![partial], out, false)?;
        }
        let yielded_ids = self.yielded_ids.entry(sid.to_owned()).or_default();
        for id in available {
            if !yielded_ids.contains(&id) {
                yielded_ids.insert(id);
            }
        }
        self.retire_placeholders(sid, placeholder_ids);
        self.build_reach(sid, root);
        Ok(())
    }

    /// `changed_only`, after a full pass over `sid` from `root`: keep what the next passes
    /// need to walk only from what changed (`Reach`), when the reachable components form a
    /// tree (each referred to once) well within the depth limit; else every pass is full.
    fn build_reach(&mut self, sid: &str, root: &str) {
        self.reach = None;
        self.stored_since.clear();
        if !self.opts.changed_only || self.self_refs > 0 {
            return;
        }
        let mut r = Reach {
            sid: sid.to_owned(),
            root: root.to_owned(),
            fam: self.fam(),
            ..Reach::default()
        };
        if self.in_table(root) {
            r.depth.insert(root.to_owned(), 0);
            let mut stack = vec![(root, 0usize)];
            while let Some((x, d)) = stack.pop() {
                if d + REACH_DEPTH_MARGIN > check::MAX_GLOBAL_DEPTH {
                    return;
                }
                for (t, _) in self.comp_refs.get(x).into_iter().flatten() {
                    if r.depth.contains_key(t) || r.referenced.contains_key(t) {
                        return;
                    }
                    r.referenced.insert(t.clone(), d);
                    if self.in_table(t) {
                        r.depth.insert(t.clone(), d + 1);
                        stack.push((t, d + 1));
                    }
                }
            }
        }
        for id in r.depth.keys() {
            let Some(p) = self.proc_cache.get(id) else {
                return;
            };
            for ph in &p.placeholders {
                *r.ph.entry(ph.clone()).or_default() += 1;
            }
            for m in &p.missing {
                let v = r.missing_by.entry(m.clone()).or_default();
                if !v.iter().any(|x| x == id) {
                    v.push(id.clone());
                }
            }
            if p.volatile {
                r.volatile.insert(id.clone());
            }
        }
        r.added.clear();
        self.reach = Some(r);
    }

    /// `changed_only`: the pass of [`Self::yield_reachable_inner`] walking only from the
    /// components stored since the last pass (their new references, the components they
    /// made reachable, those whose form lacked them) and the forms that depend on the JSON
    /// buffer. `None` when it cannot tell what the full pass would do (another surface or
    /// root, a reference removed, a component referred to twice, a cycle, the depth
    /// limit near, a self-reference): the full pass runs then.
    fn yield_incremental(
        &mut self,
        out: &mut Vec<ResponsePart>,
        root: &str,
        sid: &str,
    ) -> Option<Result<(), ModelTextError>> {
        let mut r = self.reach.take()?;
        let stored = std::mem::take(&mut self.stored_since);
        if r.sid != sid
            || r.root != root
            || r.fam != self.fam()
            || self.self_refs > 0
            || self.deleted_surfaces.contains(sid)
        {
            return None;
        }
        let mut walk: Vec<(String, usize)> = Vec::new();
        let mut touched: Vec<String> = Vec::new();
        // References removed first (a component that moved is then free to be added).
        for (d, old) in &stored {
            if d.starts_with("loading_") {
                return None;
            }
            if r.depth.contains_key(d) {
                let new: HashSet<&str> = self
                    .comp_refs
                    .get(d)?
                    .iter()
                    .map(|(t, _)| t.as_str())
                    .collect();
                for t in old.as_ref()? {
                    if !new.contains(t.as_str()) {
                        r.referenced.remove(t);
                        if r.depth.contains_key(t) {
                            self.unreach(&mut r, t, &stored);
                        }
                    }
                }
            }
        }
        for (d, old) in &stored {
            if let Some(&dd) = r.depth.get(d) {
                let old: HashSet<&str> = old.as_ref()?.iter().map(String::as_str).collect();
                let new: Vec<&str> = self
                    .comp_refs
                    .get(d)?
                    .iter()
                    .map(|(t, _)| t.as_str())
                    .collect();
                let new_set: HashSet<&str> = new.iter().copied().collect();
                if new_set.len() != new.len() {
                    return None;
                }
                for t in new {
                    if old.contains(t) {
                        continue;
                    }
                    if r.depth.contains_key(t) || r.referenced.contains_key(t) {
                        return None;
                    }
                    r.referenced.insert(t.to_owned(), dd);
                    if self.in_table(t) {
                        walk.push((t.to_owned(), dd + 1));
                    }
                }
                touched.push(d.clone());
            } else if d == root && r.depth.is_empty() {
                walk.push((d.clone(), 0));
            } else if let Some(&pd) = r.referenced.get(d) {
                walk.push((d.clone(), pd + 1));
            }
            if let Some(v) = r.missing_by.get(d) {
                touched.extend(v.iter().cloned());
            }
        }
        let mut walked = Vec::new();
        while let Some((x, dx)) = walk.pop() {
            if r.depth.contains_key(&x) || dx + REACH_DEPTH_MARGIN > check::MAX_GLOBAL_DEPTH {
                return None;
            }
            r.depth.insert(x.clone(), dx);
            for (t, _) in self.comp_refs.get(&x).into_iter().flatten() {
                if r.depth.contains_key(t) || r.referenced.contains_key(t) {
                    return None;
                }
                r.referenced.insert(t.clone(), dx);
                if self.in_table(t) {
                    walk.push((t.clone(), dx + 1));
                }
            }
            walked.push(x);
        }
        // The forms to look at again, in id order (as the full pass yields them).
        let mut ids: Vec<String> = touched;
        ids.extend(walked.iter().cloned());
        ids.extend(r.volatile.iter().cloned());
        ids.sort_unstable();
        ids.dedup();
        self.reach = Some(r);
        for id in &ids {
            if self.in_table(id) {
                self.ensure_processed(id);
            }
        }
        let ph_stamp = self.placeholder_stamp();
        let fam = self.fam();
        let mut r = self.reach.take()?;
        let mut changed: Vec<(String, bool)> = Vec::new();
        {
            let mut yielded = self.yielded_contents.get_mut(sid);
            for id in &ids {
                if !r.depth.contains_key(id) {
                    continue;
                }
                let Some(p) = self.proc_cache.get(id) else {
                    continue;
                };
                let before = yielded.as_mut().and_then(|m| m.get_mut(id));
                if !same_as_yielded(before, &p.value, p.stamp) {
                    changed.push((id.clone(), false));
                }
            }
            let mut added: Vec<String> = std::mem::take(&mut r.added)
                .into_iter()
                .filter(|p| r.ph.contains_key(p))
                .collect();
            added.sort_unstable();
            added.dedup();
            for pid in added {
                if self.comp_refs.contains_key(&pid) {
                    return None;
                }
                let before = yielded.as_mut().and_then(|m| m.get_mut(&pid));
                let same = match before {
                    Some((_, stamp)) if *stamp == ph_stamp => true,
                    Some((v, stamp)) => {
                        let same = **v == placeholder_value(fam, pid.clone());
                        if same {
                            *stamp = ph_stamp;
                        }
                        same
                    }
                    None => false,
                };
                if !same {
                    changed.push((pid, true));
                }
            }
        }
        let yielded_for_surface = self.yielded_ids.get(sid);
        let any_new = walked
            .iter()
            .any(|id| yielded_for_surface.is_none_or(|y| !y.contains(id)));
        let placeholder_ids: Vec<String> = r.ph.keys().cloned().collect();
        self.reach = Some(r);
        if !any_new && changed.is_empty() {
            return Some(Ok(()));
        }
        Some(self.yield_pass(out, sid, changed, walked, placeholder_ids))
    }

    /// `id` (reachable, its one reference gone) and what only it made reachable leave
    /// `r`; their references as of the last pass (`stored` holds those that changed).
    fn unreach(&self, r: &mut Reach, id: &str, stored: &HashMap<String, Option<Vec<String>>>) {
        let mut stack = vec![id.to_owned()];
        while let Some(x) = stack.pop() {
            if r.depth.remove(&x).is_none() {
                continue;
            }
            if let Some(p) = self.proc_cache.get(&x) {
                r.forget_form(&x, &p.placeholders, &p.missing);
            }
            r.volatile.remove(&x);
            let refs: Vec<String> = match stored.get(&x) {
                Some(old) => old.clone().unwrap_or_default(),
                None => self
                    .comp_refs
                    .get(&x)
                    .into_iter()
                    .flatten()
                    .map(|(t, _)| t.clone())
                    .collect(),
            };
            for t in refs {
                r.referenced.remove(&t);
                if r.depth.contains_key(&t) {
                    stack.push(t);
                }
            }
        }
    }

    /// The end of an incremental pass: the start message if due, the partial message with
    /// `changed`, the newly reachable ids noted as yielded, placeholders retired.
    fn yield_pass(
        &mut self,
        out: &mut Vec<ResponsePart>,
        sid: &str,
        changed: Vec<(String, bool)>,
        walked: Vec<String>,
        placeholder_ids: Vec<String>,
    ) -> Result<(), ModelTextError> {
        if !self.yielded_start_messages.contains(sid)
            && let Some(start) = self.buffered_start_message.clone()
        {
            self.yield_messages(vec![start], out, true)?;
            self.yielded_start_messages.insert(sid.to_owned());
            self.yielded_surfaces.insert(sid.to_owned());
        }
        let ph_stamp = self.placeholder_stamp();
        let mut processed = Vec::with_capacity(changed.len());
        for (id, is_placeholder) in changed {
            let (value, stamp) = if is_placeholder {
                (Arc::new(self.placeholder(id.clone())), ph_stamp)
            } else {
                match self.proc_cache.get(&id) {
                    Some(p) => (Arc::clone(&p.value), p.stamp),
                    None => continue,
                }
            };
            self.yielded_contents
                .entry(sid.to_owned())
                .or_default()
                .insert(id, (Arc::clone(&value), stamp));
            processed.push(value);
        }
        if !processed.is_empty() {
            let partial = self.partial_message(sid, processed);
            self.yield_messages(vec![partial], out, false)?;
        }
        let yielded_ids = self.yielded_ids.entry(sid.to_owned()).or_default();
        yielded_ids.extend(walked);
        self.retire_placeholders(sid, placeholder_ids);
        Ok(())
    }

    /// After a partial message for `sid` carrying the placeholders `now`: those it no longer
    /// carries are retired (and would be yielded again if referred to again).
    pub(super) fn retire_placeholders(&mut self, sid: &str, now: Vec<String>) {
        // The same placeholders as last time: nothing to retire.
        let live = self.live_placeholders.get(sid);
        if live.map_or(0, HashSet::len) == now.len()
            && now.iter().all(|p| live.is_some_and(|l| l.contains(p)))
        {
            return;
        }
        let now: HashSet<String> = now.into_iter().collect();
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
            if let Some(m) = self.yielded_contents.get_mut(sid) {
                m.remove(&id);
            }
            self.retired.push((sid.to_owned(), id));
        }
    }
}

/// Whether `before` (a yielded form and its stamp) equals `value` (stamped `stamp`); a
/// deep comparison only when the stamps differ, after which the stamps agree.
fn same_as_yielded(before: Option<&mut (Arc<Value>, u64)>, value: &Arc<Value>, stamp: u64) -> bool {
    match before {
        None => false,
        Some((_, s)) if *s == stamp => true,
        Some((v, s)) => {
            let same = Arc::ptr_eq(v, value) || **v == **value;
            if same {
                *s = stamp;
            }
            same
        }
    }
}

/// What a component's placeholder form depends on besides the component: the ids it
/// refers to that are not in the table yet, and whether an empty children list made it
/// look at the JSON buffer.
#[derive(Debug, Default)]
pub(super) struct Trace {
    pub(super) missing: Vec<String>,
    pub(super) volatile: bool,
}

/// A component's placeholder form (children not in the table replaced by placeholders),
/// kept until it can change.
#[derive(Debug)]
pub(super) struct Processed {
    pub(super) value: Arc<Value>,
    pub(super) placeholders: Vec<String>,
    missing: Vec<String>,
    volatile: bool,
    /// Unique per computed form (so an equal stamp means an equal form).
    pub(super) stamp: u64,
}

/// The placeholder standing for component `id` not on the wire yet.
fn placeholder_value(fam: Family, id: String) -> Value {
    match fam {
        Family::V08 => json!({
            "id": id,
            "component": { "Row": { "children": { "explicitList": [] } } },
        }),
        Family::V09 => json!({ "id": id, "component": "Row", "children": [] }),
    }
}

/// The properties whose values name children (one id or a list), as the reference's
/// `_process_component_topology` reads them.
const CHILD_FIELDS: [&str; 6] = [
    "children",
    "explicitList",
    "child",
    "contentChild",
    "entryPointChild",
    "componentId",
];

/// How far below the depth limit the incremental pass stops (the full pass then finds the
/// exact error, if any).
const REACH_DEPTH_MARGIN: usize = 8;

/// `changed_only`: what the last full or incremental pass over a surface found, so the next
/// one walks only from what changed (`yield_incremental`). Kept only while the reachable
/// components form a tree.
#[derive(Debug, Default)]
pub(super) struct Reach {
    sid: String,
    pub(super) root: String,
    fam: Family,
    /// The reachable components (in the table) and their depth below the root.
    pub(super) depth: HashMap<String, usize>,
    /// Every id a reachable component refers to (in the table or not), with the depth of
    /// the one component referring to it.
    referenced: HashMap<String, usize>,
    /// The placeholders the reachable forms carry, with how many carry each.
    pub(super) ph: HashMap<String, usize>,
    /// Per missing id: the reachable components whose form lacks it.
    missing_by: HashMap<String, Vec<String>>,
    /// The reachable components whose form depends on the JSON buffer.
    volatile: HashSet<String>,
    /// Placeholders that appeared (count from 0) since the last pass.
    added: Vec<String>,
}

impl Reach {
    /// Count `id`'s form in: its placeholders, missing ids, volatility.
    pub(super) fn add_form(&mut self, id: &str, ph: &[String], missing: &[String], volatile: bool) {
        for p in ph {
            let c = self.ph.entry(p.clone()).or_default();
            *c += 1;
            if *c == 1 {
                self.added.push(p.clone());
            }
        }
        for m in missing {
            let v = self.missing_by.entry(m.clone()).or_default();
            if !v.iter().any(|x| x == id) {
                v.push(id.to_owned());
            }
        }
        if volatile {
            self.volatile.insert(id.to_owned());
        }
    }

    /// Count `id`'s form (as [`Self::add_form`] counted it) out.
    pub(super) fn forget_form(&mut self, id: &str, ph: &[String], missing: &[String]) {
        for p in ph {
            if let Some(c) = self.ph.get_mut(p) {
                *c = c.saturating_sub(1);
                if *c == 0 {
                    self.ph.remove(p);
                }
            }
        }
        for m in missing {
            if let Some(v) = self.missing_by.get_mut(m) {
                v.retain(|x| x != id);
                if v.is_empty() {
                    self.missing_by.remove(m);
                }
            }
        }
        self.volatile.remove(id);
    }
}

/// The first stamp of a computed form (1 and 2 stand for the two placeholder shapes).
pub(super) const FIRST_STAMP: u64 = 16;

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
                components: std::borrow::Cow::Owned(components),
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

    /// The incremental pass's tree (`Reach`) equals what a full pass finds, after every
    /// pass of recorded answers in several chunkings: the reachable components, and the
    /// placeholders their forms carry.
    #[test]
    fn the_incremental_pass_keeps_what_a_full_pass_finds() {
        let mut answers: Vec<Vec<u8>> = ["restaurant_booking_v09.txt", "trip_itinerary_v08.txt"]
            .iter()
            .map(|f| {
                std::fs::read(
                    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                        .join("assets/samples/model")
                        .join(f),
                )
                .unwrap_or_default()
            })
            .collect();
        // Both answers twice in one text: the second time every component is in the table
        // already and lists shrink before they grow again.
        let both: Vec<u8> = answers.concat();
        answers.push([both.clone(), both].concat());
        let mut checked = 0;
        for text in &answers {
            assert!(!text.is_empty());
            for chunk in [1, 4, 7, 64] {
                let mut p = ModelTextParser::new(ModelTextOptions::basic(None), Limits::default());
                for c in text.chunks(chunk) {
                    let _ = p.feed(c);
                    if !p.stored_since.is_empty() {
                        continue;
                    }
                    let Some(r) = p.reach.as_ref() else { continue };
                    let mut kept: Vec<&str> = r.depth.keys().map(String::as_str).collect();
                    kept.sort_unstable();
                    let full = p.reachable_ids(&r.root, false).unwrap_or_default();
                    assert_eq!(kept, full, "chunk {chunk}");
                    let mut ph: Vec<&str> = r.ph.keys().map(String::as_str).collect();
                    ph.sort_unstable();
                    let mut want: Vec<&str> = full
                        .iter()
                        .filter_map(|id| p.proc_cache.get(id))
                        .flat_map(|f| f.placeholders.iter().map(String::as_str))
                        .collect();
                    want.sort_unstable();
                    want.dedup();
                    assert_eq!(ph, want, "chunk {chunk}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 1000, "{checked}");
    }

    /// The reachability from kept references equals the topology analysis of the whole
    /// table, at every chunk of a recorded answer (so the kept references never go stale).
    #[test]
    fn kept_references_give_the_reachability_of_the_table_at_every_chunk() {
        for file in ["restaurant_booking_v09.txt", "trip_itinerary_v08.txt"] {
            let text = std::fs::read(
                std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("assets/samples/model")
                    .join(file),
            )
            .unwrap_or_default();
            assert!(!text.is_empty(), "{file}");
            let mut p = ModelTextParser::new(ModelTextOptions::basic(None), Limits::default());
            let mut checked = 0;
            for c in text.chunks(5) {
                let _ = p.feed(c);
                let Some(root) = p.root_id() else { continue };
                let whole = check::analyze_topology(
                    Some(&root),
                    p.seen_components.values().map(|c| &**c),
                    &p.refs,
                    false,
                )
                .map(|r| {
                    let mut ids: Vec<String> = r
                        .into_iter()
                        .filter(|id| p.seen_components.contains_key(id))
                        .collect();
                    ids.sort();
                    ids
                });
                assert_eq!(p.reachable_ids(&root, false), whole, "{file}");
                checked += usize::from(!p.seen_components.is_empty());
            }
            assert!(checked > 100, "{file}: {checked}");
        }
        // A self-reference and a cycle: the same errors.
        let mut p = basic_parser();
        let _ = p.feed_str(&format!(
            r#"{START}{{"id": "root", "component": "Column", "children": ["a"]}}, {{"id": "a", "component": "Card", "child": "root"}}, "#
        ));
        let whole = check::analyze_topology(
            Some("root"),
            p.seen_components.values().map(|c| &**c),
            &p.refs,
            false,
        );
        assert!(whole.is_err());
        assert_eq!(p.reachable_ids("root", false).err(), whole.err());
        let _ = p.feed_str(r#"{"id": "b", "component": "Card", "child": "b"}, "#);
        let whole = check::analyze_topology(
            Some("root"),
            p.seen_components.values().map(|c| &**c),
            &p.refs,
            false,
        );
        assert!(
            matches!(&whole, Err(ModelTextError::Recursion(m)) if m.contains("Self-reference"))
        );
        assert_eq!(p.reachable_ids("root", false).err(), whole.err());
    }
}
