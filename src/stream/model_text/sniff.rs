//! Phase 2, JSON tokenising and sniffing: the block's JSON buffer and what is tracked
//! about it (watched keys, latest surface/root/version), closing complete objects,
//! `fix_json` (closing a cut fragment the way the reference does) and the partial sniffing
//! of components and data-model entries (the reference's `_fix_json`,
//! `_sniff_partial_component`, `_sniff_partial_data_model`).

use super::*;

/// The components array of the message being read: where its `[` is in the JSON buffer,
/// where it closed (after the `]`), and its elements (start, end, what their own parse
/// gave), so the message need not parse them again when it closes.
#[derive(Debug)]
pub(super) struct CompList {
    pub(super) open: usize,
    pub(super) close: Option<usize>,
    pub(super) items: Vec<(usize, usize, ListItem)>,
    /// A second components array, or an object with component keys inside an element:
    /// the message is parsed whole.
    pub(super) whole: bool,
}

/// What the parse of one element of the components array gave.
#[derive(Debug)]
pub(super) enum ListItem {
    /// The component table took it, under this id (and still holds it unless an id comes
    /// twice).
    Stored(String),
    /// Not taken (held back, or not a component): the message's own handling decides.
    Held(Value),
    /// Not read on its own (or it failed).
    Unparsed,
}

/// `changed_only`: whether the open component fragment `o` is re-read now (the JSON
/// buffer being `now` bytes long). Until it was first held it is read at every chunk while
/// small (so it is yielded as early as the reference yields it) and at every eighth of
/// growth when large; afterwards once it grew by half. Either way the bytes re-parsed stay
/// a constant multiple of the bytes received.
pub(super) fn sniff_fragment_due(o: &scan::Open, now: usize) -> bool {
    let len = now.saturating_sub(o.start);
    if o.parsed_at == 0 {
        return len <= 256 || now.saturating_sub(o.tried_at).saturating_mul(8) >= len;
    }
    now.saturating_sub(o.parsed_at).saturating_mul(2) >= len
}

/// `buf.ends_with(w)`, its third-to-last byte compared first (the last two of a needle
/// are `":` or `s"`, so most ends differ there), without a `memcmp` call then. This runs at
/// every quote and colon of a block.
fn ends_with_quick(buf: &str, w: &str) -> bool {
    let (b, n) = (buf.as_bytes(), w.as_bytes());
    b.len() >= n.len()
        && (n.len() < 3 || b.get(b.len() - 3) == n.get(n.len() - 3))
        && b.ends_with(n)
}

/// `"key"\s*:\s*"([^"]+)"` anchored at the start of `s`.
pub(super) fn match_forward<'a>(s: &'a str, quoted_key: &str) -> Option<&'a str> {
    let rest = s.strip_prefix(quoted_key)?.trim_start();
    let rest = rest.strip_prefix(':')?.trim_start();
    let rest = rest.strip_prefix('"')?;
    let end = rest.find('"')?;
    (end > 0).then(|| rest.get(..end)).flatten()
}

/// The value of the last complete `"key": "value"` in `buf` (the reference's
/// `get_latest_value`).
pub(super) fn latest_value(buf: &str, key: &str) -> Option<String> {
    let quoted = format!("\"{key}\"");
    let mut end = buf.len();
    while let Some(i) = buf.get(..end).and_then(|b| b.rfind(&quoted)) {
        if let Some(v) = buf.get(i..).and_then(|s| match_forward(s, &quoted)) {
            return Some(v.to_owned());
        }
        end = i;
    }
    None
}

/// The key and value of a `"key": "value"` pair ending exactly at the end of `buf` (the
/// value not empty, the key the quoted text before the colon).
pub(super) fn pair_at_end(buf: &str) -> Option<(&str, &str)> {
    let body = buf.strip_suffix('"')?;
    let open = memchr::memrchr(b'"', body.as_bytes())?;
    let value = body.get(open + 1..)?;
    if value.is_empty() {
        return None;
    }
    let before = body.get(..open)?.trim_end().strip_suffix(':')?.trim_end();
    let key_body = before.strip_suffix('"')?;
    let k = memchr::memrchr(b'"', key_body.as_bytes())?;
    Some((key_body.get(k + 1..)?, value))
}

impl ModelTextParser {
    pub(super) fn push(&mut self, c: char) {
        self.json_buffer.push(c);
        // The needles ending with `:` are the message keys (`"…":`, the first seven), those
        // ending with `"` the others.
        let needles = match c {
            ':' if self.json_buffer.as_bytes().iter().rev().nth(1) == Some(&b'"') => {
                0..W_COMPONENTS
            }
            '"' => W_COMPONENTS..WATCH.len(),
            _ => 0..0,
        };
        for i in needles {
            if let (Some(false), Some(w)) = (self.watch.get(i).copied(), WATCH.get(i))
                && ends_with_quick(&self.json_buffer, w)
            {
                if let Some(b) = self.watch.get_mut(i) {
                    *b = true;
                }
                self.meta_dirty = true;
            }
        }
        if c == '"' {
            if ends_with_quick(&self.json_buffer, WATCH[W_COMPONENTS]) {
                self.components_at = Some(self.json_buffer.len() - WATCH[W_COMPONENTS].len());
            }
            // A `"key": "value"` pair can only end at a quote of a property value (the
            // closing one, or an escaped one inside it).
            if matches!(
                self.string_kind,
                scan::StringKind::Value | scan::StringKind::CuttableValue
            ) && let Some((key, v)) = pair_at_end(&self.json_buffer)
            {
                let slot = match key {
                    "surfaceId" => Some(&mut self.latest_surface),
                    "root" => Some(&mut self.latest_root),
                    "version" => Some(&mut self.latest_version),
                    _ => None,
                };
                if let Some(slot) = slot
                    && slot.as_deref() != Some(v)
                {
                    *slot = Some(v.to_owned());
                    self.meta_dirty = true;
                }
            }
        }
    }

    pub(super) fn rescan_watch(&mut self) {
        self.meta_dirty = true;
        for (i, w) in WATCH.iter().enumerate() {
            self.watch[i] = self.json_buffer.contains(w);
        }
        self.latest_surface = latest_value(&self.json_buffer, "surfaceId");
        self.latest_root = latest_value(&self.json_buffer, "root");
        self.latest_version = latest_value(&self.json_buffer, "version");
        self.components_at = self.json_buffer.rfind(WATCH[W_COMPONENTS]);
    }

    pub(super) fn truncate_json(&mut self, at: usize) {
        self.comp_list = None;
        self.odd_at = None;
        self.json_buffer.truncate(at);
        self.rescan_watch();
    }

    pub(super) fn drop_json_prefix(&mut self, n: usize) {
        self.comp_list = None;
        self.odd_at = None;
        self.json_buffer.drain(..n.min(self.json_buffer.len()));
        for e in &mut self.brace_stack {
            e.start = e.start.saturating_sub(n);
        }
        self.rescan_watch();
    }

    /// [`Self::sniff_metadata`] if one of the things it reads may have changed since it
    /// last ran (it is idempotent: a second run on the same state changes nothing).
    pub(super) fn sniff_metadata_if_dirty(&mut self) {
        if self.meta_dirty {
            self.meta_dirty = false;
            self.sniff_metadata();
        }
    }

    pub(super) fn sniff_metadata(&mut self) {
        if self.family.is_none() {
            if self.watch[W_VERSION] {
                self.set_family(Family::V09);
            } else if self.watch[..4].iter().any(|b| *b) {
                self.set_family(Family::V08);
            }
        }
        // Each value is copied only when it changes (this runs at every structural
        // character).
        if let Some(v) = &self.latest_version
            && (v.starts_with("v0.9") || v.starts_with("v1") || v.starts_with("1."))
            && *v != self.version_tag
        {
            self.version_tag = v.clone();
        }
        if self.surface_id != self.latest_surface || self.unbound_root_id.is_some() {
            self.set_surface_id(self.latest_surface.clone());
        }
        if let Some(r) = &self.latest_root {
            let current = match &self.surface_id {
                Some(s) => self.root_ids.get(s),
                None => self.unbound_root_id.as_ref(),
            };
            if current != Some(r) {
                self.set_root_id(Some(r.clone()));
            }
        }
        match self.fam() {
            Family::V08 => {
                for (i, t) in MSG_V08.iter().enumerate() {
                    if self.watch[i] {
                        self.add_msg_type(t);
                    }
                }
            }
            Family::V09 => {
                for (i, t) in MSG_V09.iter().enumerate() {
                    if self.watch[4 + i] {
                        self.add_msg_type(t);
                    }
                }
            }
        }
    }

    /// Whether to sniff now: always on small buffers (the reference's behaviour); on big
    /// ones once enough new bytes paid for a re-parse of the open fragments.
    /// Whether to sniff now: always on small buffers (the reference's behaviour); on big
    /// ones once enough new bytes (`sniff_credit`) paid for a re-parse of the open
    /// fragments.
    pub(super) fn sniff_due(&mut self) -> bool {
        if self.opts.changed_only {
            // Each fragment is throttled on its own (`sniff_partial_component`).
            return true;
        }
        let len = self.json_buffer.len();
        if len <= SNIFF_EXACT_BYTES || self.sniff_credit.saturating_mul(16) >= len {
            self.sniff_credit = 0;
            true
        } else {
            false
        }
    }

    pub(super) fn close_object(
        &mut self,
        open: scan::Open,
        out: &mut Vec<ResponsePart>,
    ) -> Result<(), ModelTextError> {
        let start = open.start;
        let end = self.json_buffer.len();
        // An element of the message's components array, or an object with component keys
        // inside one of its elements (the message is then parsed whole when it closes).
        let in_list = self
            .comp_list
            .as_ref()
            .is_some_and(|l| l.close.is_none() && start > l.open);
        let direct = in_list
            && self.brace_stack.last().is_some_and(|e| {
                e.kind == b'[' && self.comp_list.as_ref().is_some_and(|l| l.open == e.start)
            });
        let keys = scan::KEY_ID | scan::KEY_COMPONENT;
        if in_list
            && !direct
            && open.keys & keys == keys
            && let Some(l) = self.comp_list.as_mut()
        {
            l.whole = true;
        }
        let mut item = ListItem::Unparsed;
        let r = self.close_object_inner(open, out, direct.then_some(&mut item));
        if direct && let Some(l) = self.comp_list.as_mut() {
            l.items.push((start, end, item));
        }
        r
    }

    fn close_object_inner(
        &mut self,
        open: scan::Open,
        out: &mut Vec<ResponsePart>,
        item: Option<&mut ListItem>,
    ) -> Result<(), ModelTextError> {
        let start = open.start;
        let only_list =
            self.brace_stack.len() == 1 && self.brace_stack.first().is_some_and(|e| e.kind == b'[');
        let is_top_level = self.brace_stack.is_empty() || (self.in_top_level_list && only_list);
        // Only a component (`id` and `component` keys), a message (a message key, or at
        // the top level) or the block's first valid object can change anything: other
        // objects (the values nested in components) are not parsed on their own.
        let could_be_component =
            open.keys & (scan::KEY_ID | scan::KEY_COMPONENT) == scan::KEY_ID | scan::KEY_COMPONENT;
        if !(could_be_component
            || open.keys & scan::KEY_MESSAGE != 0
            || is_top_level
            || !self.found_valid_json_in_block)
        {
            return Ok(());
        }
        // What follows may change what the metadata sniff reads.
        self.meta_dirty = true;
        let Some(frag) = self.json_buffer.get(start..) else {
            return Ok(());
        };
        if !(frag.starts_with('{') && frag.ends_with('}')) {
            return Ok(());
        }
        let frag_len = frag.len();
        // A message whose components were all read as they closed is parsed without them
        // (each component is parsed once).
        let list = if is_top_level {
            self.comp_list.take()
        } else {
            None
        };
        let fast = self.message_from_parts(start, list);
        let obj = match fast {
            Some(obj) => obj,
            None => {
                let Some(frag) = self.json_buffer.get(start..) else {
                    return Ok(());
                };
                let Ok(Value::Object(obj)) = serde_json::from_str::<Value>(frag) else {
                    return Ok(());
                };
                obj
            }
        };
        self.found_valid_json_in_block = true;
        let is_protocol = self.in_top_level_list && self.is_protocol_msg(&obj);
        let is_comp = truthy(obj.get("id")) && truthy(obj.get("component"));
        let clear =
            self.brace_count == 0 || (self.in_top_level_list && self.brace_stack.len() == 1);
        let r = if is_comp {
            let id = item
                .is_some()
                .then(|| obj.get("id").and_then(Value::as_str).map(str::to_owned))
                .flatten();
            match self.handle_partial_component(Value::Object(obj)) {
                Ok(None) => {
                    if let (Some(item), Some(id)) = (item, id) {
                        *item = ListItem::Stored(id);
                    }
                    Ok(())
                }
                Ok(Some(held)) => {
                    if let Some(item) = item {
                        *item = ListItem::Held(held);
                    }
                    Ok(())
                }
                Err(e) => Err(e),
            }
        } else if is_top_level || is_protocol {
            let sid = self.surface_id.clone();
            match self.handle_complete_object(Value::Object(obj), sid, out) {
                Ok(Some(obj)) => self.yield_messages(vec![obj], out, true),
                other => other.map(drop),
            }
        } else {
            if let Some(item) = item {
                *item = ListItem::Held(Value::Object(obj));
            }
            Ok(())
        };
        // A failed message leaves the buffer as a handled one does.
        if clear {
            self.comp_list = None;
            if only_list {
                self.truncate_json(start);
            } else {
                self.drop_json_prefix(frag_len);
            }
        }
        r
    }

    /// The message starting at `start` in the JSON buffer (just closed), parsed without its
    /// components array (`list`), whose elements were each parsed when they closed: those
    /// the table took are left out (taking them again changes nothing), the others go back
    /// in. `None` when that would not be what parsing the message whole gives (a check to
    /// run on the whole message, an element not read on its own, an id twice, text between
    /// the elements that is not a comma, a message that buffers its components for later).
    fn message_from_parts(
        &self,
        start: usize,
        list: Option<CompList>,
    ) -> Option<Map<String, Value>> {
        let list = list?;
        if list.whole || self.opts.check.is_some() || self.limits.max_json_depth > 120 {
            return None;
        }
        let close = list.close?;
        let buf = self.json_buffer.as_bytes();
        if list.open <= start || close > buf.len() || buf.get(close - 1) != Some(&b']') {
            return None;
        }
        let ws = |b: &u8| matches!(b, b' ' | b'\t' | b'\n' | b'\r');
        let mut at = list.open + 1;
        // An id twice: the table may not hold what the message's handling would leave.
        let mut ids: HashSet<&str> =
            HashSet::with_capacity_and_hasher(list.items.len(), Default::default());
        for (i, (s, e, item)) in list.items.iter().enumerate() {
            let gap = buf.get(at..*s)?;
            let commas = gap.iter().filter(|b| **b == b',').count();
            if commas != usize::from(i > 0) || !gap.iter().all(|b| *b == b',' || ws(b)) {
                return None;
            }
            let id = match item {
                ListItem::Stored(id) => Some(id.as_str()),
                ListItem::Held(v) => v.get("id").and_then(Value::as_str),
                ListItem::Unparsed => return None,
            };
            if let Some(id) = id
                && !ids.insert(id)
            {
                return None;
            }
            at = *e;
        }
        drop(ids);
        if !buf.get(at..close - 1)?.iter().all(ws) {
            return None;
        }
        let mut skeleton = String::with_capacity(close - list.open + 64);
        skeleton.push_str(self.json_buffer.get(start..=list.open)?);
        skeleton.push_str(self.json_buffer.get(close - 1..)?);
        let Ok(Value::Object(mut obj)) = serde_json::from_str::<Value>(&skeleton) else {
            return None;
        };
        if truthy(obj.get("id")) && truthy(obj.get("component")) {
            return None;
        }
        let key = match self.fam() {
            Family::V09 => {
                if obj.contains_key("createSurface") {
                    return None;
                }
                "updateComponents"
            }
            Family::V08 => {
                if obj.contains_key("beginRendering") || obj.contains_key("deleteSurface") {
                    return None;
                }
                // A surfaceUpdate for a surface not started yet is kept whole for later.
                let sid = self
                    .surface_of_map(&obj, &["surfaceUpdate", "beginRendering", "deleteSurface"])
                    .filter(|s| !s.is_empty())
                    .unwrap_or_else(|| "unknown".to_owned());
                if !self.yielded_surfaces.contains(&sid) && self.buffered_start_message.is_none() {
                    return None;
                }
                "surfaceUpdate"
            }
        };
        if obj
            .get(key)
            .and_then(|m| m.get("components"))
            .and_then(Value::as_array)
            .is_none_or(|a| !a.is_empty())
        {
            return None;
        }
        let held = list
            .items
            .into_iter()
            .filter_map(|(_, _, item)| match item {
                ListItem::Held(v) => Some(v),
                _ => None,
            })
            .collect();
        let slot = obj.get_mut(key)?.get_mut("components")?;
        *slot = Value::Array(held);
        Some(obj)
    }

    pub(super) fn fix_json(&self, fragment: &str) -> String {
        let fixed = fragment.trim_end();
        if fixed.is_empty() {
            return String::new();
        }
        let mut stack: Vec<u8> = Vec::new();
        let mut in_string = false;
        let mut escaped = false;
        let mut last_quote = None;
        for (i, c) in fixed.char_indices() {
            if escaped {
                escaped = false;
                continue;
            }
            match c {
                '\\' => escaped = true,
                '"' => {
                    in_string = !in_string;
                    if in_string {
                        last_quote = Some(i);
                    }
                }
                '{' | '[' if !in_string => stack.push(c as u8),
                '}' | ']' if !in_string => {
                    stack.pop();
                }
                _ => {}
            }
        }
        self.fix_json_from(fixed, stack, in_string, last_quote)
    }

    /// The open object at `i` of the brace stack (the fragment `raw`, up to the end of the
    /// JSON buffer) closed as [`Self::fix_json`] closes it and parsed, with the brackets and
    /// the string state the scanner already has instead of a scan of the fragment (they
    /// are the same unless a backslash stood outside a string in it, `odd_at`).
    pub(super) fn parse_open_fragment(&self, i: usize, raw: &str) -> Option<Value> {
        let start = self.brace_stack.get(i)?.start;
        if self.odd_at.is_some_and(|p| p >= start) {
            return self.parse_fixed(raw, false);
        }
        let fixed = raw.trim_end();
        if fixed.is_empty() {
            return None;
        }
        let stack: Vec<u8> = self.brace_stack.get(i..)?.iter().map(|o| o.kind).collect();
        let last_quote = self
            .in_string
            .then(|| self.string_start.saturating_sub(start));
        let f = self.fix_json_from(fixed, stack, self.in_string, last_quote);
        #[cfg(test)]
        assert_eq!(
            f,
            self.fix_json(raw),
            "the scanner's state is the fragment's"
        );
        serde_json::from_str(&f).ok()
    }

    /// The rest of [`Self::fix_json`], given the open brackets of the (trimmed) fragment,
    /// whether it ends in a string and where that string's opening quote is.
    fn fix_json_from(
        &self,
        fixed: &str,
        mut stack: Vec<u8>,
        mut in_string: bool,
        last_quote: Option<usize>,
    ) -> String {
        let mut fixed = fixed.to_owned();
        if in_string && stack.last() == Some(&b'[') {
            // A string cut inside an array (a child id being written): drop the element
            // instead of closing it. The reference closes it, which turns `"day1-i0` of
            // `"day1-i0-t"` into a reference to a wrong (even the same) component.
            fixed.truncate(last_quote.unwrap_or(0));
            in_string = false;
        }
        if in_string {
            let lq = last_quote.unwrap_or(0);
            let prefix = fixed.get(..lq).unwrap_or_default().trim_end();
            if prefix.ends_with(':')
                && let Some(key) = key_before_colon(prefix)
            {
                if !self.cuttable.contains(key) {
                    return String::new();
                }
                if key == "valueString" {
                    let val = fixed.get(lq + 1..).unwrap_or_default();
                    if val.starts_with("http://")
                        || val.starts_with("https://")
                        || val.starts_with("data:")
                        || val.starts_with('/')
                    {
                        return String::new();
                    }
                    let tail_start = prefix.char_indices().rev().nth(199).map_or(0, |(i, _)| i);
                    let tail = prefix.get(tail_start..).unwrap_or_default();
                    if let Some(dk) = latest_value(tail, "key") {
                        let dk = dk.to_lowercase();
                        if ["url", "link", "src", "href", "image"]
                            .iter()
                            .any(|k| dk.contains(k))
                        {
                            return String::new();
                        }
                    }
                }
            }
            fixed.push('"');
        }
        let t = fixed.trim_end().len();
        fixed.truncate(t);
        if fixed.ends_with(',') {
            fixed.pop();
            let t = fixed.trim_end().len();
            fixed.truncate(t);
        }
        while let Some(o) = stack.pop() {
            fixed.push(if o == b'{' { '}' } else { ']' });
        }
        fixed
    }

    pub(super) fn parse_fixed(&self, raw: &str, fallback: bool) -> Option<Value> {
        let fixed = self.fix_json(raw);
        if let Ok(v) = serde_json::from_str::<Value>(&fixed) {
            return Some(v);
        }
        if !fallback {
            return None;
        }
        let mut trimmed = raw;
        while let Some(i) = trimmed.rfind(',') {
            trimmed = trimmed.get(..i).unwrap_or_default();
            let f = self.fix_json(trimmed);
            if !f.is_empty()
                && let Ok(v) = serde_json::from_str::<Value>(&f)
            {
                return Some(v);
            }
        }
        None
    }

    /// Where the open objects having all of the `keys` flags start, innermost first.
    pub(super) fn open_fragments(&self, keys: u8) -> Vec<usize> {
        self.brace_stack
            .iter()
            .rev()
            .filter(|e| e.kind == b'{' && e.keys & keys == keys)
            .map(|e| e.start)
            .collect()
    }

    /// Whether the JSON buffer ends where [`Self::fix_json`] cannot close it into JSON: inside
    /// an object key, right after a key, or after a colon (a key without its value). No
    /// open fragment parses then, so none is tried. `false` when a backslash stood outside
    /// a string (`odd_at`: `fix_json` then reads the strings differently from the scanner).
    fn ends_without_a_value(&self) -> bool {
        if self.odd_at.is_some() {
            return false;
        }
        if self.in_string {
            return self.string_kind == scan::StringKind::Key;
        }
        match self.last_struct {
            b':' => true,
            b'"' => self.string_kind == scan::StringKind::Key,
            _ => false,
        }
    }

    pub(super) fn sniff_partial_component(&mut self) {
        if !self.watch[W_COMPONENTS] {
            return;
        }
        // Only objects opened inside the components array can be components; the message
        // objects around it (the largest fragments) are not re-parsed at every chunk.
        // Only objects with `id` and `component` keys can parse to components.
        let floor = self.components_at.unwrap_or(0);
        let want = scan::KEY_ID | scan::KEY_COMPONENT;
        let now = self.json_buffer.len();
        let keys_noted = self.keys_noted;
        let cut_in_key = self.ends_without_a_value();
        for i in (0..self.brace_stack.len()).rev() {
            let Some(o) = self.brace_stack.get_mut(i) else {
                continue;
            };
            if o.kind != b'{' || o.keys & want != want {
                continue;
            }
            if o.start < floor {
                break;
            }
            if self.opts.changed_only && !sniff_fragment_due(o, now) {
                continue;
            }
            o.tried_at = now;
            let start = o.start;
            // No key arrived since this object parsed to a component lacking a required
            // property: the parse would lack it again (and change nothing).
            if let Some((at, id)) = &o.lacking
                && *at == keys_noted
            {
                if self.seen_components.contains_key(&**id) {
                    o.parsed_at = now;
                }
                continue;
            }
            o.lacking = None;
            if cut_in_key {
                // Every open fragment ends where the buffer ends: none parses.
                #[cfg(test)]
                assert!(
                    self.json_buffer
                        .get(start..)
                        .filter(|r| !r.is_empty())
                        .is_none_or(|raw| self.parse_open_fragment(i, raw).is_none()),
                    "a fragment cut in a key parsed"
                );
                continue;
            }
            let Some(raw) = self.json_buffer.get(start..).filter(|r| !r.is_empty()) else {
                continue;
            };
            let Some(obj) = self.parse_open_fragment(i, raw) else {
                continue;
            };
            if obj.is_object() && truthy(obj.get("id")) && truthy(obj.get("component")) {
                let ok = match obj.get("component") {
                    Some(Value::String(_)) => true,
                    Some(Value::Object(o)) => !o.is_empty(),
                    _ => false,
                };
                if ok {
                    let id = obj.get("id").and_then(Value::as_str).map(str::to_owned);
                    if let Some(id) = &id
                        && !id.is_empty()
                        && self.lacks_required(&obj)
                        && let Some(e) = self.brace_stack.get_mut(i)
                    {
                        e.lacking = Some((keys_noted, id.as_str().into()));
                    }
                    // Errors here are the component-count limit; the complete object
                    // reports it when it closes.
                    let _ = self.handle_partial_component(obj);
                    if let Some(id) = id
                        && self.seen_components.contains_key(&id)
                        && let Some(e) = self.brace_stack.get_mut(i)
                    {
                        e.parsed_at = now;
                    }
                }
            }
        }
    }

    pub(super) fn sniff_partial_data_model(&mut self, out: &mut Vec<ResponsePart>) {
        let fam = self.fam();
        let (watch, key) = match fam {
            Family::V08 => (W_DMU08, "dataModelUpdate"),
            Family::V09 => (W_DMU09, "updateDataModel"),
        };
        if !self.watch[watch] {
            return;
        }
        // Only a message object (`dataModelUpdate`/`updateDataModel` key) yields entries.
        for start in self.open_fragments(scan::KEY_MESSAGE) {
            let Some(raw) = self.json_buffer.get(start..).filter(|r| !r.is_empty()) else {
                continue;
            };
            let Some(obj) = self.parse_fixed(raw, true) else {
                continue;
            };
            let Some(dm) = obj.get(key).and_then(Value::as_object) else {
                continue;
            };
            match fam {
                Family::V08 => self.sniffed_dm_v08(dm, out),
                Family::V09 => self.sniffed_dm_v09(dm, out),
            }
        }
    }

    pub(super) fn sniffed_dm_v08(&mut self, dm: &Map<String, Value>, out: &mut Vec<ResponsePart>) {
        let Some(raw_contents) = dm.get("contents") else {
            return;
        };
        let contents = parse_contents_to_dict(raw_contents);
        if contents.is_empty() {
            return;
        }
        let changed = contents
            .iter()
            .any(|(k, v)| self.yielded_data_model.get(k) != Some(v));
        if !changed {
            return;
        }
        let sid = dm
            .get("surfaceId")
            .filter(|v| truthy(Some(v)))
            .cloned()
            .or_else(|| self.surface_id.clone().map(Value::String))
            .unwrap_or_else(|| json!("default"));
        let delta_contents = match raw_contents {
            Value::Array(entries) => {
                let mut kept = Vec::new();
                let mut seen = HashSet::default();
                for e in entries.iter().rev() {
                    let Some(k) = e
                        .get("key")
                        .and_then(Value::as_str)
                        .filter(|_| e.is_object())
                    else {
                        continue;
                    };
                    if !k.is_empty() && contents.contains_key(k) && seen.insert(k.to_owned()) {
                        kept.insert(0, e.clone());
                    }
                }
                Value::Array(prune_incomplete_entries(kept))
            }
            _ => {
                let delta: Map<String, Value> = contents
                    .iter()
                    .filter(|(k, v)| self.yielded_data_model.get(*k) != Some(*v))
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect();
                Value::Object(delta)
            }
        };
        let mut payload = Map::new();
        payload.insert("surfaceId".into(), sid);
        payload.insert("contents".into(), delta_contents);
        if let Some(p) = dm.get("path") {
            payload.insert("path".into(), p.clone());
        }
        // Built by hand: `json!` copies an interpolated value through serialization.
        let mut msg = Map::new();
        msg.insert("dataModelUpdate".into(), Value::Object(payload));
        let msg = Value::Object(msg);
        let _ = self.yield_messages(vec![msg], out, false);
        for (k, v) in contents {
            self.yielded_data_model.insert(k, v);
        }
    }

    pub(super) fn sniffed_dm_v09(&mut self, dm: &Map<String, Value>, out: &mut Vec<ResponsePart>) {
        let Some(value_map) = dm.get("value").and_then(Value::as_object) else {
            return;
        };
        let delta: Map<String, Value> = value_map
            .iter()
            .filter(|(k, v)| self.yielded_data_model.get(*k) != Some(*v))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        if delta.is_empty() {
            return;
        }
        let sid = dm
            .get("surfaceId")
            .filter(|v| truthy(Some(v)))
            .cloned()
            .or_else(|| self.surface_id.clone().map(Value::String))
            .unwrap_or_else(|| json!("default"));
        let mut body = Map::new();
        body.insert("surfaceId".into(), sid);
        body.insert("value".into(), Value::Object(delta.clone()));
        let mut msg = Map::new();
        msg.insert("version".into(), Value::String(self.version_tag.clone()));
        msg.insert("updateDataModel".into(), Value::Object(body));
        let msg = Value::Object(msg);
        let _ = self.yield_messages(vec![msg], out, false);
        for (k, v) in delta {
            self.yielded_data_model.insert(k, v);
        }
    }
}

pub(super) fn parse_contents_to_dict(raw: &Value) -> Map<String, Value> {
    match raw {
        Value::Object(o) => o.clone(),
        Value::Array(entries) => {
            let mut res = Map::new();
            for e in entries {
                let Some(o) = e.as_object() else { continue };
                let key = o.get("key");
                let mut val = ["value", "valueString", "valueNumber", "valueBoolean"]
                    .iter()
                    .find_map(|k| o.get(*k))
                    .cloned()
                    .filter(|v| !v.is_null());
                if val.is_none()
                    && let Some(m) = o.get("valueMap")
                {
                    val = Some(Value::Object(parse_contents_to_dict(m)));
                }
                if let (Some(Value::String(k)), Some(v)) = (key, val)
                    && !k.is_empty()
                {
                    res.insert(k.clone(), v);
                }
            }
            res
        }
        _ => Map::new(),
    }
}

pub(super) fn prune_incomplete_entries(entries: Vec<Value>) -> Vec<Value> {
    let mut pruned = Vec::new();
    for mut e in entries {
        let Some(o) = e.as_object_mut() else {
            pruned.push(e);
            continue;
        };
        let mut has_val = ["value", "valueString", "valueNumber", "valueBoolean"]
            .iter()
            .any(|k| o.contains_key(*k));
        if let Some(Value::Array(vm)) = o.get("valueMap").cloned() {
            let was_empty = vm.is_empty();
            let p = prune_incomplete_entries(vm);
            if p.is_empty() && !was_empty {
                o.remove("valueMap");
            } else {
                o.insert("valueMap".into(), Value::Array(p));
                has_val = true;
            }
        }
        if has_val && o.contains_key("key") {
            pruned.push(e);
        }
    }
    pruned
}

pub(super) fn key_before_colon(prefix: &str) -> Option<&str> {
    let body = prefix.strip_suffix(':')?.trim_end().strip_suffix('"')?;
    let open = body.rfind('"')?;
    body.get(open + 1..).filter(|k| !k.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fix(fragment: &str) -> String {
        ModelTextParser::with_family(Family::V09).fix_json(fragment)
    }

    #[test]
    fn fix_json_closes_every_open_bracket_shape() {
        let cases = [
            ("{", "{}"),
            ("[", "[]"),
            ("[{", "[{}]"),
            (r#"{"a": ["#, r#"{"a": []}"#),
            (r#"{"a": [1, {"b": [2"#, r#"{"a": [1, {"b": [2]}]}"#),
            (r#"[{"a": {"b": [1, 2"#, r#"[{"a": {"b": [1, 2]}}]"#),
            (r#"{"a": 1,"#, r#"{"a": 1}"#),
            (r#"{"a": [1, "#, r#"{"a": [1]}"#),
            // A cuttable string is closed; brackets inside it are not counted.
            (r#"{"text": "a [ { b"#, r#"{"text": "a [ { b"}"#),
            (r#"{"text": "say \"hi"#, r#"{"text": "say \"hi"}"#),
            // A child id cut inside a list is dropped, not closed.
            (r#"{"children": ["a", "b"#, r#"{"children": ["a"]}"#),
            (r#"{"children": ["b"#, r#"{"children": []}"#),
        ];
        for (cut, want) in cases {
            let got = fix(cut);
            assert_eq!(got, want, "{cut}");
            assert!(serde_json::from_str::<Value>(&got).is_ok(), "{got}");
        }
    }

    #[test]
    fn fix_json_refuses_a_cut_atomic_string() {
        // Ids, paths and URLs are never yielded cut.
        assert_eq!(fix(r#"{"id": "ro"#), "");
        assert_eq!(fix(r#"{"path": "/a/b"#), "");
        assert_eq!(fix(r#"{"valueString": "https://exa"#), "");
        assert_eq!(fix(r#"{"key": "imageUrl", "valueString": "pic"#), "");
        assert_eq!(
            fix(r#"{"valueString": "plain te"#),
            r#"{"valueString": "plain te"}"#
        );
        assert_eq!(fix("   "), "");
    }

    #[test]
    fn value_matchers_read_complete_pairs_only() {
        assert_eq!(
            pair_at_end(r#"{"surfaceId": "s1""#),
            Some(("surfaceId", "s1"))
        );
        assert_eq!(pair_at_end(r#"{"surfaceId": "s1"#), None);
        assert_eq!(pair_at_end(r#"{"other" : "s1""#), Some(("other", "s1")));
        assert_eq!(pair_at_end(r#"{"surfaceId": """#), None);
        assert_eq!(pair_at_end(r#"{"a": "x", ""#), None);
        assert_eq!(
            latest_value(r#"{"root": "a"}, {"root": "b"}, {"root": "#, "root"),
            Some("b".to_owned())
        );
        assert_eq!(latest_value(r#"{"root": ""}"#, "root"), None);
        assert_eq!(key_before_colon(r#"{"text":"#), Some("text"));
        assert_eq!(key_before_colon(r#"{"text""#), None);
    }

    #[test]
    fn data_model_entries_are_pruned_until_complete() {
        let entries = serde_json::json!([
            {"key": "a", "valueString": "x"},
            {"key": "b"},
            {"key": "m", "valueMap": [{"key": "c"}]},
        ]);
        let pruned = prune_incomplete_entries(entries.as_array().cloned().unwrap_or_default());
        assert_eq!(
            pruned,
            vec![serde_json::json!({"key": "a", "valueString": "x"})]
        );
        let dict = parse_contents_to_dict(&serde_json::json!([
            {"key": "a", "valueNumber": 1},
            {"key": "m", "valueMap": [{"key": "c", "valueBoolean": true}]},
        ]));
        assert_eq!(
            Value::Object(dict),
            serde_json::json!({"a": 1, "m": {"c": true}})
        );
    }
}
