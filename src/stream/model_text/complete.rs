//! Phase 4, yielding: complete messages per version (start messages buffered until their
//! surface is started, messages for a surface not yet started held), data-model
//! de-duplication, the message check, and the per-chunk de-duplication of partial
//! `surfaceUpdate`s (the reference's `_handle_complete_object`, `_yield_messages`,
//! `_deduplicate_data_model`).

use super::*;

impl ModelTextParser {
    pub(super) fn add_msg_type(&mut self, t: &'static str) {
        if !self.msg_types.contains(&t) {
            self.msg_types.push(t);
        }
        if matches!(t, "surfaceUpdate" | "updateComponents" | "createSurface") {
            self.active_msg_type = Some(t);
        }
    }

    pub(super) fn fam(&self) -> Family {
        self.family.unwrap_or_default()
    }

    pub(super) fn is_protocol_msg(&self, o: &Map<String, Value>) -> bool {
        match self.fam() {
            Family::V08 => MSG_V08.iter().any(|k| o.contains_key(*k)),
            Family::V09 => MSG_V09.iter().any(|k| o.contains_key(*k)),
        }
    }

    pub(super) fn deduplicate_data_model(&mut self, m: &Value, strict: bool) -> bool {
        match self.fam() {
            Family::V08 => {
                let Some(dm) = m.get("dataModelUpdate") else {
                    return true;
                };
                let contents: Map<String, Value> = match dm.get("contents") {
                    Some(Value::Array(entries)) => {
                        let mut c = Map::new();
                        for e in entries {
                            let Some(k) = e.get("key").and_then(Value::as_str) else {
                                continue;
                            };
                            let val = ["valueString", "valueNumber", "valueBoolean"]
                                .iter()
                                .map(|k| e.get(*k))
                                .find(|v| truthy(*v))
                                .flatten()
                                .or_else(|| e.get("valueMap"));
                            if let Some(v) = val.filter(|v| !v.is_null())
                                && !k.is_empty()
                            {
                                c.insert(k.to_owned(), v.clone());
                            }
                        }
                        c
                    }
                    Some(Value::Object(o)) => o.clone(),
                    _ => Map::new(),
                };
                if !contents.is_empty() {
                    let is_new = contents
                        .iter()
                        .any(|(k, v)| self.yielded_data_model.get(k) != Some(v));
                    if !is_new && strict {
                        return false;
                    }
                    for (k, v) in contents {
                        self.yielded_data_model.insert(k, v);
                    }
                }
                true
            }
            Family::V09 => {
                let Some(udm) = m.get("updateDataModel").and_then(Value::as_object) else {
                    return true;
                };
                let is_new = udm.iter().any(|(k, v)| {
                    k != "surfaceId" && k != "root" && self.yielded_data_model.get(k) != Some(v)
                });
                if !is_new && strict {
                    return false;
                }
                for (k, v) in udm {
                    if k != "surfaceId" && k != "root" {
                        self.yielded_data_model.insert(k.clone(), v.clone());
                    }
                }
                true
            }
        }
    }

    /// The `root` a start or update message names (else the surface's current one, else
    /// `"root"`) becomes the surface's root.
    pub(super) fn take_root_of(&mut self, message: &Value) {
        let root = message
            .get("root")
            .and_then(Value::as_str)
            .map(str::to_owned)
            .or_else(|| self.root_id())
            .unwrap_or_else(|| "root".to_owned());
        self.set_root_id(Some(root));
    }

    /// Yield a surface's start message (`beginRendering` / `createSurface`) once; until it
    /// is yielded it stays buffered.
    pub(super) fn yield_start_message(
        &mut self,
        obj: Value,
        sid: &str,
        out: &mut Vec<ResponsePart>,
    ) -> Result<(), ModelTextError> {
        self.buffered_start_message = Some(obj.clone());
        if !self.yielded_start_messages.contains(sid) {
            self.yield_messages(vec![obj], out, true)?;
            self.yielded_start_messages.insert(sid.to_owned());
            self.yielded_surfaces.insert(sid.to_owned());
            self.buffered_start_message = None;
        }
        Ok(())
    }

    pub(super) fn yield_messages<M: Into<ModelMessage>>(
        &mut self,
        msgs: Vec<M>,
        out: &mut Vec<ResponsePart>,
        strict: bool,
    ) -> Result<(), ModelTextError> {
        for m in msgs {
            let m: ModelMessage = m.into();
            // A partial component update is no data-model message.
            if m.shared_components().is_none() && !self.deduplicate_data_model(m.value(), strict) {
                continue;
            }
            if let Some(c) = &self.opts.check
                && let Err(e) = c.check(m.value(), self.root_id().as_deref(), strict)
            {
                if strict {
                    return Err(e);
                }
                continue;
            }
            match out.last_mut() {
                Some(last) => last.a2ui.get_or_insert_with(Vec::new).push(m),
                None => out.push(ResponsePart {
                    text: String::new(),
                    a2ui: Some(vec![m]),
                }),
            }
        }
        Ok(())
    }

    pub(super) fn delete_surface(&mut self, sid: &str) {
        self.reach = None;
        self.stored_since.clear();
        self.pending_messages.remove(sid);
        self.yielded_ids.remove(sid);
        self.yielded_contents.remove(sid);
        self.yielded_surfaces.remove(sid);
        self.yielded_start_messages.remove(sid);
        self.live_placeholders.remove(sid);
        self.retired.retain(|(s, _)| s != sid);
        self.deleted_surfaces.insert(sid.to_owned());
    }

    /// Handle a complete message; a message it does not handle comes back (`Ok(Some)`).
    pub(super) fn handle_complete_object(
        &mut self,
        obj: Value,
        sid: Option<String>,
        out: &mut Vec<ResponsePart>,
    ) -> Result<Option<Value>, ModelTextError> {
        if !obj.is_object() {
            return Ok(Some(obj));
        }
        if let Some(c) = &self.opts.check {
            c.check(&obj, sid.as_deref(), false)?;
        }
        match self.fam() {
            Family::V08 => self.complete_v08(obj, out).map(|_| None),
            Family::V09 => self.complete_v09(obj, out),
        }
    }

    pub(super) fn surface_of(&self, obj: &Value, keys: &[&str]) -> Option<String> {
        match obj.as_object() {
            Some(o) => self.surface_of_map(o, keys),
            None => self.surface_id.clone(),
        }
    }

    /// The surface a message object names (its own `surfaceId`, that of the first of
    /// `keys` it has, else the current surface).
    pub(super) fn surface_of_map(&self, obj: &Map<String, Value>, keys: &[&str]) -> Option<String> {
        let mut sid = match obj.get("surfaceId") {
            Some(Value::String(s)) => Some(s.clone()),
            Some(_) => None,
            None => self.surface_id.clone(),
        };
        for k in keys {
            if let Some(v) = obj.get(*k) {
                match v {
                    Value::Object(o) => {
                        if let Some(s) = o
                            .get("surfaceId")
                            .and_then(Value::as_str)
                            .filter(|s| !s.is_empty())
                        {
                            sid = Some(s.to_owned());
                        }
                    }
                    Value::String(s) if *k == "deleteSurface" => sid = Some(s.clone()),
                    _ => {}
                }
                break;
            }
        }
        sid
    }

    pub(super) fn complete_v08(
        &mut self,
        obj: Value,
        out: &mut Vec<ResponsePart>,
    ) -> Result<bool, ModelTextError> {
        let s = self.surface_of(&obj, &["surfaceUpdate", "beginRendering", "deleteSurface"]);
        self.set_surface_id(s);
        let sid = self
            .surface_id
            .clone()
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| "unknown".to_owned());
        let has = |k: &str| obj.get(k).is_some();
        if has("deleteSurface")
            && (self.yielded_surfaces.contains(&sid) || self.buffered_start_message.is_some())
        {
            self.delete_surface(&sid);
        }
        if self.deleted_surfaces.contains(&sid) {
            return Ok(true);
        }
        if (has("surfaceUpdate") || has("deleteSurface"))
            && !self.yielded_surfaces.contains(&sid)
            && self.buffered_start_message.is_none()
        {
            self.pending_messages.entry(sid).or_default().push(obj);
            return Ok(true);
        }
        if let Some(br) = obj.get("beginRendering") {
            if let Some(o) = br.as_object() {
                let s = match o.get("surfaceId") {
                    Some(Value::String(s)) => Some(s.clone()),
                    Some(_) => None,
                    None => self.surface_id.clone(),
                };
                self.set_surface_id(s);
            }
            self.take_root_of(br);
            self.yield_start_message(obj, &sid, out)?;
            if let Some(pending) = self.pending_messages.remove(&sid) {
                for m in pending {
                    self.complete_v08_with_check(m, &sid, out)?;
                }
            }
            self.yield_reachable(out, false, false)?;
            return Ok(true);
        }
        if let Some(su) = obj.get("surfaceUpdate") {
            self.add_msg_type("surfaceUpdate");
            for c in su
                .get("components")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if let Some(id) = c.get("id").and_then(Value::as_str) {
                    self.insert_component(id.to_owned(), c.clone())?;
                }
            }
            self.yield_reachable(out, true, false)?;
            return Ok(true);
        }
        if has("dataModelUpdate") {
            self.add_msg_type("dataModelUpdate");
            self.yield_messages(vec![obj], out, true)?;
            self.yield_reachable(out, false, false)?;
            return Ok(true);
        }
        self.yield_messages(vec![obj], out, true)?;
        Ok(true)
    }

    pub(super) fn complete_v08_with_check(
        &mut self,
        obj: Value,
        sid: &str,
        out: &mut Vec<ResponsePart>,
    ) -> Result<(), ModelTextError> {
        if let Some(c) = &self.opts.check {
            c.check(&obj, Some(sid), false)?;
        }
        self.complete_v08(obj, out).map(|_| ())
    }

    pub(super) fn insert_component(&mut self, id: String, c: Value) -> Result<(), ModelTextError> {
        if !self.seen_components.contains_key(&id)
            && self.seen_components.len() >= self.limits.max_components
        {
            return Err(ModelTextError::LimitExceeded {
                what: "max_components",
                limit: self.limits.max_components,
                actual: self.seen_components.len() + 1,
            });
        }
        if self.seen_components.get(&id).is_none_or(|old| **old != c) {
            let refs = check::component_references(&c, &self.refs);
            self.store_component(id, c, refs);
        }
        Ok(())
    }

    pub(super) fn complete_v09(
        &mut self,
        obj: Value,
        out: &mut Vec<ResponsePart>,
    ) -> Result<Option<Value>, ModelTextError> {
        let s = self.surface_of(&obj, &["updateComponents", "createSurface"]);
        self.set_surface_id(s);
        let sid = self
            .surface_id
            .clone()
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| "unknown".to_owned());
        if let Some(cs) = obj.get("createSurface") {
            if cs.is_object() {
                self.take_root_of(cs);
            }
            self.yield_start_message(obj, &sid, out)?;
            self.pending_messages.remove(&sid);
            self.yield_reachable(out, false, false)?;
            return Ok(None);
        }
        if let Some(uc) = obj.get("updateComponents") {
            self.add_msg_type("updateComponents");
            self.take_root_of(uc);
            for c in uc
                .get("components")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if let Some(id) = c.get("id").and_then(Value::as_str) {
                    self.insert_component(id.to_owned(), c.clone())?;
                }
            }
            self.yield_reachable(out, true, false)?;
            return Ok(None);
        }
        if obj.get("deleteSurface").is_some() {
            if !self.yielded_start_messages.contains(&sid) {
                self.pending_messages.entry(sid).or_default().push(obj);
                return Ok(None);
            }
            self.add_msg_type("deleteSurface");
            self.yield_messages(vec![obj], out, true)?;
            return Ok(None);
        }
        if obj.get("updateDataModel").is_some() {
            self.add_msg_type("updateDataModel");
            self.yield_messages(vec![obj], out, true)?;
            return Ok(None);
        }
        Ok(Some(obj))
    }
}

/// Keep only the last (most complete) `surfaceUpdate` per surface in each part, as the
/// reference does at the end of every chunk.
pub(super) fn dedup_surface_updates(parts: &mut [ResponsePart]) {
    for part in parts {
        let Some(msgs) = part.a2ui.as_mut() else {
            continue;
        };
        let mut seen = HashSet::default();
        let mut keep = vec![true; msgs.len()];
        for (i, m) in msgs.iter().enumerate().rev() {
            let sid = match m.shared_components() {
                Some((sid, _)) if m.components_version().is_none() => Some(sid),
                Some(_) => None,
                None => m
                    .get("surfaceUpdate")
                    .and_then(|s| s.get("surfaceId"))
                    .and_then(Value::as_str),
            };
            if let Some(sid) = sid.filter(|s| !s.is_empty())
                && !seen.insert(sid.to_owned())
            {
                keep[i] = false;
            }
        }
        let mut i = 0;
        msgs.retain(|_| {
            let k = keep[i];
            i += 1;
            k
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_last_surface_update_per_surface_stays_in_a_part() {
        let su = |sid: &str, n: usize| json!({"surfaceUpdate": {"surfaceId": sid, "components": vec![Value::Null; n]}});
        let mut parts = vec![ResponsePart {
            text: String::new(),
            a2ui: Some(
                [su("a", 1), su("b", 1), json!({"other": 1}), su("a", 2)]
                    .into_iter()
                    .map(ModelMessage::from)
                    .collect(),
            ),
        }];
        dedup_surface_updates(&mut parts);
        let kept: Option<Vec<Value>> = parts[0]
            .a2ui
            .clone()
            .map(|v| v.into_iter().map(Value::from).collect());
        assert_eq!(
            kept,
            Some(vec![su("b", 1), json!({"other": 1}), su("a", 2)])
        );
    }

    #[test]
    fn a_v08_surface_update_waits_for_begin_rendering() {
        let mut p = ModelTextParser::with_family(Family::V08);
        let update = r#"<a2ui-json>[{"surfaceUpdate": {"surfaceId": "s", "components": [{"id": "root", "component": {"Text": {"text": {"literalString": "Hi"}}}}]}}, "#;
        let parts = p.feed_str(update).expect("chunk");
        assert!(parts.iter().all(|p| p.a2ui.is_none()), "{parts:?}");
        let parts = p
            .feed_str(r#"{"beginRendering": {"surfaceId": "s", "root": "root"}}]</a2ui-json>"#)
            .expect("chunk");
        let msgs: Vec<&Value> = parts
            .iter()
            .flat_map(|p| p.a2ui.iter().flatten())
            .map(ModelMessage::value)
            .collect();
        assert!(msgs[0].get("beginRendering").is_some(), "{msgs:?}");
        assert!(
            msgs.iter()
                .any(|m| m["surfaceUpdate"]["components"][0]["id"] == "root"),
            "{msgs:?}"
        );
    }

    #[test]
    fn surface_of_reads_the_message_body() {
        let p = ModelTextParser::with_family(Family::V09);
        let m = json!({"updateComponents": {"surfaceId": "x"}});
        assert_eq!(
            p.surface_of(&m, &["updateComponents", "createSurface"]),
            Some("x".to_owned())
        );
        let d = json!({"deleteSurface": "y"});
        assert_eq!(p.surface_of(&d, &["deleteSurface"]), Some("y".to_owned()));
        assert_eq!(p.surface_of(&json!({}), &["deleteSurface"]), None);
    }

    #[test]
    fn a_repeated_data_model_update_is_yielded_once() {
        let mut p = ModelTextParser::with_family(Family::V09);
        let m = json!({"updateDataModel": {"surfaceId": "s", "value": {"a": 1}}});
        assert!(p.deduplicate_data_model(&m, true));
        assert!(!p.deduplicate_data_model(&m, true));
        // Not strict (a partial): yielded again.
        assert!(p.deduplicate_data_model(&m, false));
    }
}
