//! Phase 1, tag scanning: model text in, prose and block fragments out. UTF-8 sequences
//! cut between chunks are carried over, `<a2ui-json>`/`</a2ui-json>` tags cut between
//! chunks are held back, a block is capped at `max_model_block_bytes`, and inside a block
//! the JSON character loop keeps the brace and string state (the reference's
//! `process_chunk` and `_process_json_chunk`).

use super::*;

/// An object or list open in the block's JSON: its kind (`{` or `[`), where it starts in
/// the JSON buffer, and which of the keys the later phases test it has (`KEY_*`).
#[derive(Clone, Debug)]
pub(super) struct Open {
    pub(super) kind: u8,
    pub(super) start: usize,
    pub(super) keys: u8,
    /// `changed_only`: the JSON buffer's length when this object was last sniffed into a
    /// component that was held (0: never).
    pub(super) parsed_at: usize,
    /// `changed_only`: the JSON buffer's length when this object was last sniffed.
    pub(super) tried_at: usize,
    /// The object last parsed to a component lacking a required property of its type:
    /// the parser's key count then, and the component's id. Until another key arrives
    /// a parse would lack it again, so none is run.
    pub(super) lacking: Option<(usize, Box<str>)>,
}

/// The object has an `id` key.
pub(super) const KEY_ID: u8 = 1;
/// The object has a `component` key.
pub(super) const KEY_COMPONENT: u8 = 2;
/// The object has a message key (`createSurface`, `surfaceUpdate`, …).
pub(super) const KEY_MESSAGE: u8 = 4;

/// What [`ModelTextParser::take_run`] found at a position of the chunk.
enum Run {
    /// A run of this many bytes, taken.
    Taken(usize),
    /// The rest of the chunk changes nothing (before the top-level list, no `[`).
    Rest,
    /// A character to read on its own.
    None,
}

/// What the string being read is; only a cuttable value changes a cut fragment's parse
/// while it is still open.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) enum StringKind {
    /// An object key.
    #[default]
    Key,
    /// A property value that is yielded cut (`text`, `label`, …).
    CuttableValue,
    /// A property value that waits for its closing quote.
    Value,
    /// A list element (a child id).
    Element,
}

/// Append `bytes` to the carried bytes of a cut UTF-8 sequence and decode what is complete
/// (invalid sequences become U+FFFD); an incomplete sequence at the end stays carried.
pub(super) fn decode_utf8(carry: &mut Vec<u8>, bytes: &[u8]) -> String {
    carry.extend_from_slice(bytes);
    let mut text = String::new();
    let mut rest: &[u8] = carry;
    loop {
        match std::str::from_utf8(rest) {
            Ok(s) => {
                text.push_str(s);
                rest = &[];
                break;
            }
            Err(e) => {
                let (good, bad) = rest.split_at(e.valid_up_to());
                text.push_str(std::str::from_utf8(good).unwrap_or_default());
                match e.error_len() {
                    Some(n) => {
                        text.push('\u{FFFD}');
                        rest = bad.get(n..).unwrap_or_default();
                    }
                    None => {
                        rest = bad;
                        break;
                    }
                }
            }
        }
    }
    let rest = rest.to_vec();
    *carry = rest;
    text
}

/// Length of the longest proper prefix of `tag` that `buf` ends with (a tag starts with
/// `<`, so only the last `tag.len() - 1` bytes are looked at).
pub(super) fn partial_suffix_len(buf: &str, tag: &str) -> usize {
    let b = buf.as_bytes();
    let tail = b
        .get(b.len().saturating_sub(tag.len().saturating_sub(1))..)
        .unwrap_or_default();
    for (k, c) in tail.iter().enumerate() {
        if *c == b'<'
            && tag
                .as_bytes()
                .starts_with(tail.get(k..).unwrap_or_default())
        {
            return tail.len() - k;
        }
    }
    0
}

/// How much of the end of `buf` may start `</a2ui-json>` or a nested `<a2ui-json>` (the
/// longer); no `<` among the last bytes (the common case) is nothing to hold back.
pub(super) fn held_tag_prefix(buf: &str) -> usize {
    let b = buf.as_bytes();
    let tail = b
        .get(b.len().saturating_sub(CLOSE_TAG.len() - 1)..)
        .unwrap_or_default();
    if !tail.contains(&b'<') {
        return 0;
    }
    partial_suffix_len(buf, CLOSE_TAG).max(partial_suffix_len(buf, OPEN_TAG))
}

/// A tag found in the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Tag {
    /// `<a2ui-json>`.
    Open,
    /// `</a2ui-json>`.
    Close,
}

/// The first `<` in `b` (memchr unless `b` is a few bytes).
fn find_lt(b: &[u8]) -> Option<usize> {
    if b.len() < 16 {
        b.iter().position(|c| *c == b'<')
    } else {
        memchr::memchr(b'<', b)
    }
}

/// The JSON reader's string state walked over text it has not read yet, mirroring
/// [`ModelTextParser::process_json_chunk`] (quotes count only inside the top-level list; a
/// backslash escapes only inside a string), so a tag written inside a JSON string value is
/// told from one that ends (or nests in) the block.
#[derive(Clone, Debug, Default)]
pub(super) struct StringWalk {
    /// Whether the top-level list is open.
    pub(super) in_list: bool,
    /// The kinds (`{` / `[`) of the open objects and lists.
    pub(super) stack: Vec<u8>,
    /// Whether the walk is inside a string.
    pub(super) in_string: bool,
    /// Whether the previous character was a backslash inside a string.
    pub(super) escaped: bool,
}

impl StringWalk {
    /// The first `<a2ui-json>` / `</a2ui-json>` of `buf` outside JSON strings; `Err` with
    /// whether the end of `buf` is inside a string when there is none.
    pub(super) fn first_tag(&mut self, buf: &str) -> Result<(Tag, usize), bool> {
        let b = buf.as_bytes();
        for (at, c) in b.iter().enumerate() {
            let c = *c;
            if !self.in_list {
                if c == b'[' {
                    if self.stack.is_empty() {
                        self.in_list = true;
                    }
                    self.stack.push(b'[');
                } else if c == b'<'
                    && let Some(t) = tag_at(b, at)
                {
                    return Ok((t, at));
                }
                continue;
            }
            if self.in_string {
                if self.escaped {
                    self.escaped = false;
                } else if c == b'\\' {
                    self.escaped = true;
                } else if c == b'"' {
                    self.in_string = false;
                }
                continue;
            }
            match c {
                b'"' => {
                    self.in_string = true;
                    self.escaped = false;
                }
                b'{' | b'[' => self.stack.push(c),
                b'}' => {
                    self.stack.pop();
                }
                b']' if self.stack.last() == Some(&b'[') => {
                    self.stack.pop();
                    if self.stack.is_empty() {
                        self.in_list = false;
                    }
                }
                b'<' => {
                    if let Some(t) = tag_at(b, at) {
                        return Ok((t, at));
                    }
                }
                _ => {}
            }
        }
        Err(self.in_string)
    }
}

/// The tag starting at `at` of `b`, if any.
fn tag_at(b: &[u8], at: usize) -> Option<Tag> {
    let rest = b.get(at..).unwrap_or_default();
    if rest.starts_with(OPEN_TAG.as_bytes()) {
        Some(Tag::Open)
    } else if rest.starts_with(CLOSE_TAG.as_bytes()) {
        Some(Tag::Close)
    } else {
        None
    }
}

/// The first `</a2ui-json>` of a block's text (after its open tag) that is not inside a
/// JSON string value.
pub(super) fn find_close_outside_strings(block: &str) -> Option<usize> {
    let mut walk = StringWalk::default();
    let mut from = 0;
    loop {
        let rest = block.get(from..)?;
        match walk.first_tag(rest) {
            Ok((Tag::Close, at)) => return Some(from + at),
            // A nested open tag is text here: the walk goes on after it.
            Ok((Tag::Open, at)) => from += at + 1,
            Err(_) => return None,
        }
    }
}

/// The first `<a2ui-json>` in `buf`.
pub(super) fn find_open_tag(buf: &str) -> Option<usize> {
    let b = buf.as_bytes();
    let mut i = 0;
    while let Some(j) = b.get(i..).and_then(find_lt) {
        let at = i + j;
        if b.get(at..)
            .is_some_and(|r| r.starts_with(OPEN_TAG.as_bytes()))
        {
            return Some(at);
        }
        i = at + 1;
    }
    None
}

/// The first Express open tag in `buf`: where it starts and its length (`None`: a
/// `<a2ui ` whose attributes have not ended yet).
pub(super) fn find_express_open(buf: &str) -> Option<(usize, Option<usize>)> {
    let b = buf.as_bytes();
    let mut i = 0;
    while let Some(j) = b.get(i..).and_then(find_lt) {
        let at = i + j;
        let rest = b.get(at..).unwrap_or_default();
        if rest.starts_with(EXPRESS_OPEN_TAG.as_bytes()) {
            return Some((at, Some(EXPRESS_OPEN_TAG.len())));
        }
        if rest.starts_with(b"<a2ui")
            && rest
                .get(5)
                .is_some_and(|c| matches!(c, b' ' | b'\t' | b'\n'))
        {
            // Attributes: up to the next `>` (a bounded look).
            let window = rest.get(..rest.len().min(256)).unwrap_or_default();
            return match memchr::memchr(b'>', window) {
                Some(n) => Some((at, Some(n + 1))),
                None if window.len() < 256 => Some((at, None)),
                None => None,
            };
        }
        i = at + 1;
    }
    None
}

/// The first `</a2ui-json>` in `buf`.
pub(super) fn find_close_tag(buf: &str) -> Option<usize> {
    let b = buf.as_bytes();
    let mut i = 0;
    while let Some(j) = b.get(i..).and_then(find_lt) {
        let at = i + j;
        if b.get(at..)
            .is_some_and(|r| r.starts_with(CLOSE_TAG.as_bytes()))
        {
            return Some(at);
        }
        i = at + 1;
    }
    None
}

/// Split `buf` at `at`: the text before goes out (moved when it is all of `buf`), the rest
/// stays.
fn take_front(buf: &mut String, at: usize) -> String {
    if at >= buf.len() {
        return std::mem::take(buf);
    }
    let rest = buf.split_off(at);
    std::mem::replace(buf, rest)
}

impl ModelTextParser {
    /// Hand an Express block's output on: messages as a part, errors as diagnostics,
    /// retired placeholders to the list.
    pub(super) fn take_express(&mut self, o: express::ExpressOutput, out: &mut Vec<ResponsePart>) {
        if !o.messages.is_empty() {
            out.push(ResponsePart {
                text: String::new(),
                a2ui: Some(o.messages.into_iter().map(ModelMessage::from).collect()),
            });
        }
        for e in o.errors {
            self.diagnose(ModelTextError::Express(e));
        }
        self.retired.extend(o.retired);
    }

    /// At the end of a cut answer: the components being written, read at their full
    /// received length (no throttling), and what that makes reachable.
    pub(super) fn flush_cut(&mut self, out: &mut Vec<ResponsePart>) {
        if self.brace_count < 1 || self.json_buffer.is_empty() {
            return;
        }
        for o in &mut self.brace_stack {
            o.parsed_at = 0;
            o.tried_at = 0;
            o.lacking = None;
        }
        self.sniff_partial_component();
        if self.topology_dirty {
            self.content_dirty.clear();
            let _ = self.yield_reachable(out, false, false);
            self.topology_dirty = false;
        } else if !self.content_dirty.is_empty() {
            let _ = self.yield_changed(out);
        }
    }

    /// The JSON reader's string state now, to walk text it has not read yet.
    fn string_walk(&self) -> StringWalk {
        StringWalk {
            in_list: self.in_top_level_list,
            stack: self.brace_stack.iter().map(|o| o.kind).collect(),
            in_string: self.in_string,
            escaped: self.string_escaped,
        }
    }

    pub(super) fn end_block(&mut self) {
        self.in_block = false;
        self.skipping = false;
        self.block_bytes = 0;
        self.reset_json_state();
    }

    pub(super) fn scan_chunk(
        &mut self,
        out: &mut Vec<ResponsePart>,
        first_err: &mut Option<ModelTextError>,
    ) -> Result<(), ModelTextError> {
        loop {
            if let Some(block) = self.express.as_mut() {
                let chunk = std::mem::take(&mut self.buffer);
                let o = block.feed(&chunk);
                if !o.errors.is_empty() {
                    self.express_ctx = Some((block.surface_id().to_owned(), block.version()));
                }
                let over = block.len() > self.limits.max_model_block_bytes;
                let closed = o.closed;
                let rest = if closed {
                    o.rest.clone()
                } else {
                    String::new()
                };
                self.take_express(o, out);
                if closed {
                    self.express = None;
                    self.end_block();
                    self.buffer = rest;
                    continue;
                }
                if over {
                    // The rest of an oversized block is skipped.
                    let actual = self.express.as_ref().map_or(0, express::ExpressBlock::len);
                    self.express = None;
                    self.skipping = true;
                    return Err(ModelTextError::LimitExceeded {
                        what: "max_model_block_bytes",
                        limit: self.limits.max_model_block_bytes,
                        actual,
                    });
                }
                return Ok(());
            }
            if !self.in_block {
                let json_at = find_open_tag(&self.buffer);
                let express_at = find_express_open(&self.buffer);
                let express_first = match (json_at, express_at) {
                    (Some(j), Some((x, _))) => x < j,
                    (None, Some(_)) => true,
                    _ => false,
                };
                if express_first && let Some((pos, len)) = express_at {
                    let Some(len) = len else {
                        // An open tag whose attributes are still arriving.
                        let text = take_front(&mut self.buffer, pos);
                        if !text.is_empty() {
                            out.push(ResponsePart { text, a2ui: None });
                        }
                        return Ok(());
                    };
                    let text = take_front(&mut self.buffer, pos);
                    self.buffer.drain(..len);
                    if !text.is_empty() {
                        out.push(ResponsePart { text, a2ui: None });
                    }
                    self.in_block = true;
                    self.block_bytes = 0;
                    let cat = self.opts.express.clone().unwrap_or_else(|| {
                        std::sync::Arc::new(express::ExpressCatalog::basic(
                            express::ExpressVersion::V0_9,
                        ))
                    });
                    let surface = if self.opts.express_surface.is_empty() {
                        "default_surface"
                    } else {
                        self.opts.express_surface.as_str()
                    };
                    self.express_ctx = Some((surface.to_owned(), cat.version()));
                    self.express = Some(express::ExpressBlock::new(cat, surface));
                    continue;
                }
                if let Some(pos) = json_at {
                    self.express_ctx = None;
                    let text = take_front(&mut self.buffer, pos);
                    self.buffer.drain(..OPEN_TAG.len());
                    if !text.is_empty() {
                        out.push(ResponsePart { text, a2ui: None });
                    }
                    self.in_block = true;
                    self.block_bytes = 0;
                } else {
                    let keep = partial_suffix_len(&self.buffer, OPEN_TAG)
                        .max(partial_suffix_len(&self.buffer, EXPRESS_OPEN_TAG));
                    if self.buffer.len() > keep {
                        let at = self.buffer.len() - keep;
                        let text = take_front(&mut self.buffer, at);
                        out.push(ResponsePart { text, a2ui: None });
                    }
                    return Ok(());
                }
            }
            // In a block.
            if self.skipping {
                match find_close_tag(&self.buffer) {
                    Some(c) => {
                        self.buffer.drain(..c + CLOSE_TAG.len());
                        self.end_block();
                        continue;
                    }
                    None => {
                        let keep = partial_suffix_len(&self.buffer, CLOSE_TAG);
                        self.buffer.drain(..self.buffer.len() - keep);
                        return Ok(());
                    }
                }
            }
            // A tag inside a JSON string value is text: the reader's string state, walked
            // over the text not read yet, tells (only when there is a `<` at all).
            let (tag, end_in_string) = if memchr::memchr(b'<', self.buffer.as_bytes()).is_some() {
                match self.string_walk().first_tag(&self.buffer) {
                    Ok(t) => (Some(t), false),
                    Err(in_string) => (None, in_string),
                }
            } else {
                (None, false)
            };
            match tag {
                Some((Tag::Open, o)) => {
                    // A nested open tag: drop this block, start a new one at the inner tag.
                    self.buffer.drain(..o + OPEN_TAG.len());
                    self.reset_json_state();
                    self.block_bytes = 0;
                    self.diagnose(ModelTextError::NestedTag);
                    continue;
                }
                Some((Tag::Close, c)) => {
                    // The fragment is read in place (no copy); the buffer is not touched
                    // by the JSON phases.
                    let buf = std::mem::take(&mut self.buffer);
                    let r = self.block_fragment(buf.get(..c).unwrap_or_default(), out, first_err);
                    self.buffer = buf;
                    self.buffer.drain(..c + CLOSE_TAG.len());
                    let valid = self.found_valid_json_in_block;
                    self.end_block();
                    if let Err(e) = r {
                        self.note_error(first_err, e);
                    } else if !valid {
                        self.note_error(
                            first_err,
                            ModelTextError::Parse(
                                "No valid JSON object found in A2UI block.".to_owned(),
                            ),
                        );
                    }
                }
                None => {
                    // Hold back what may start the close tag (or a nested open tag), unless
                    // it is inside a string.
                    let keep = if end_in_string {
                        0
                    } else {
                        held_tag_prefix(&self.buffer)
                    };
                    if keep < self.buffer.len() {
                        let end = self.buffer.len() - keep;
                        let buf = std::mem::take(&mut self.buffer);
                        let r =
                            self.block_fragment(buf.get(..end).unwrap_or_default(), out, first_err);
                        self.buffer = buf;
                        if keep == 0 {
                            self.buffer.clear();
                        } else {
                            self.buffer.drain(..end);
                        }
                        r?;
                    }
                    return Ok(());
                }
            }
        }
    }

    pub(super) fn block_fragment(
        &mut self,
        frag: &str,
        out: &mut Vec<ResponsePart>,
        first_err: &mut Option<ModelTextError>,
    ) -> Result<(), ModelTextError> {
        self.block_bytes += frag.len();
        if self.block_bytes > self.limits.max_model_block_bytes {
            let actual = self.block_bytes;
            self.skipping = true;
            self.reset_json_state();
            return Err(ModelTextError::LimitExceeded {
                what: "max_model_block_bytes",
                limit: self.limits.max_model_block_bytes,
                actual,
            });
        }
        let r = self.process_json_chunk(frag, out, first_err);
        if matches!(r, Err(ModelTextError::LimitExceeded { .. })) {
            self.skipping = true;
            self.reset_json_state();
        }
        r
    }

    pub(super) fn reset_json_state(&mut self) {
        self.comp_list = None;
        self.odd_at = None;
        self.json_buffer.clear();
        self.brace_stack.clear();
        self.brace_count = 0;
        self.in_top_level_list = false;
        self.in_string = false;
        self.string_escaped = false;
        self.string_kind = StringKind::Key;
        self.last_struct = b' ';
        self.last_key.clear();
        self.sniff_needed = false;
        self.msg_types.clear();
        self.found_valid_json_in_block = false;
        self.rescan_watch();
    }

    pub(super) fn process_json_chunk(
        &mut self,
        chunk: &str,
        out: &mut Vec<ResponsePart>,
        first_err: &mut Option<ModelTextError>,
    ) -> Result<(), ModelTextError> {
        // Whatever happened since the last chunk may have changed what the metadata sniff
        // reads.
        self.meta_dirty = true;
        let mut i = 0;
        while i < chunk.len() {
            match self.take_run(chunk, i) {
                Run::Taken(n) => {
                    i += n;
                    continue;
                }
                Run::Rest => break,
                Run::None => {}
            }
            let Some(ch) = chunk.get(i..).and_then(|r| r.chars().next()) else {
                break;
            };
            i += ch.len_utf8();
            let mut handled = false;
            if !self.in_top_level_list {
                if ch == '[' {
                    if self.brace_count == 0 {
                        self.in_top_level_list = true;
                    }
                    self.open(b'[');
                    self.push('[');
                    self.brace_count += 1;
                    self.sniff_needed = true;
                    handled = true;
                } else {
                    continue;
                }
            }
            if !handled && self.in_string {
                if self.string_escaped {
                    self.string_escaped = false;
                } else if ch == '\\' {
                    self.string_escaped = true;
                } else if ch == '"' {
                    self.in_string = false;
                    // A value or an element is complete (a key alone changes no parse).
                    self.sniff_needed |= self.string_kind != StringKind::Key;
                    self.last_struct = b'"';
                }
                if self.in_string && self.string_kind == StringKind::CuttableValue {
                    self.sniff_needed = true;
                }
                if self.brace_count > 0 {
                    self.push(ch);
                }
                handled = true;
            }
            if !handled {
                match ch {
                    '"' => {
                        self.in_string = true;
                        self.string_escaped = false;
                        self.string_start = self.json_buffer.len();
                        self.string_kind = self.kind_of_string_opening();
                        // An opened cuttable value already parses (as an empty string).
                        self.sniff_needed |= self.string_kind == StringKind::CuttableValue;
                        if self.brace_count > 0 {
                            self.push(ch);
                        }
                    }
                    '{' => {
                        if self.brace_count == 0 {
                            self.msg_types.clear();
                            self.meta_dirty = true;
                        }
                        if self.brace_stack.len() >= self.limits.max_json_depth {
                            return Err(ModelTextError::LimitExceeded {
                                what: "max_json_depth",
                                limit: self.limits.max_json_depth,
                                actual: self.brace_stack.len() + 1,
                            });
                        }
                        self.open(b'{');
                        self.push('{');
                        self.brace_count += 1;
                    }
                    '}' => {
                        if let Some(o) = self.brace_stack.pop() {
                            self.push('}');
                            self.brace_count -= 1;
                            if self.brace_count >= 0
                                && let Err(e) = self.close_object(o, out)
                            {
                                // The message failed; the characters after it in this
                                // chunk are still read.
                                self.note_error(first_err, e);
                            }
                        }
                    }
                    '[' => {
                        if self.brace_stack.len() >= self.limits.max_json_depth {
                            return Err(ModelTextError::LimitExceeded {
                                what: "max_json_depth",
                                limit: self.limits.max_json_depth,
                                actual: self.brace_stack.len() + 1,
                            });
                        }
                        if self.last_struct == b':' && self.last_key == "components" {
                            match self.comp_list.as_mut() {
                                Some(l) => l.whole = true,
                                None => {
                                    self.comp_list = Some(sniff::CompList {
                                        open: self.json_buffer.len(),
                                        close: None,
                                        items: Vec::new(),
                                        whole: false,
                                    });
                                }
                            }
                        }
                        self.open(b'[');
                        self.push('[');
                        self.brace_count += 1;
                    }
                    ']' => {
                        if self.brace_stack.last().is_some_and(|e| e.kind == b'[') {
                            let popped = self.brace_stack.pop();
                            self.push(']');
                            if let (Some(l), Some(o)) = (self.comp_list.as_mut(), popped)
                                && l.open == o.start
                                && l.close.is_none()
                            {
                                l.close = Some(self.json_buffer.len());
                            }
                            self.brace_count -= 1;
                            if self.brace_count == 0 {
                                self.in_top_level_list = false;
                            }
                        }
                    }
                    ':' => {
                        if self.brace_count > 0 {
                            self.note_key();
                            self.push(ch);
                        }
                    }
                    _ => {
                        if ch == '\\' {
                            // `fix_json` would take it for an escape.
                            self.odd_at = Some(self.json_buffer.len());
                        }
                        if self.brace_count > 0 {
                            self.push(ch);
                        }
                    }
                }
                if !ch.is_whitespace() && ch != '"' {
                    // Structure, a number or a literal may change what a cut fragment
                    // parses to; `:` and `,` do not (`fix_json` drops a trailing comma,
                    // a trailing colon does not parse).
                    if !matches!(ch, ':' | ',') {
                        self.sniff_needed = true;
                    }
                    self.last_struct = u8::try_from(ch).unwrap_or(b'x');
                }
            }
            if self.brace_count > 0 && matches!(ch, '"' | ':' | ',' | '}' | ']') {
                self.sniff_metadata_if_dirty();
            }
        }
        self.sniff_credit = self.sniff_credit.saturating_add(chunk.len());
        if self.brace_count >= 1
            && !self.json_buffer.is_empty()
            && self.sniff_needed
            && self.sniff_due()
        {
            self.sniff_needed = false;
            self.sniff_partial_component();
            if self.opts.sniff_data_model {
                self.sniff_partial_data_model(out);
            }
        }
        if self.topology_dirty {
            self.content_dirty.clear();
            self.yield_reachable(out, false, false)?;
            self.topology_dirty = false;
        } else if !self.content_dirty.is_empty() {
            self.yield_changed(out)?;
        }
        Ok(())
    }

    /// A run at byte `i` of `chunk` that changes nothing but the JSON buffer, taken whole:
    /// the inside of a string up to a quote, an escape or a colon (a colon may complete a
    /// watched key), whitespace between tokens, and the text before the top-level list.
    fn take_run(&mut self, chunk: &str, i: usize) -> Run {
        let rest = chunk.as_bytes().get(i..).unwrap_or_default();
        if !self.in_top_level_list {
            return match memchr::memchr(b'[', rest) {
                Some(0) => Run::None,
                Some(j) => Run::Taken(j),
                None => Run::Rest,
            };
        }
        if self.in_string && !self.string_escaped {
            // A chunk of a few bytes (a token) is looked through byte by byte; memchr's
            // set-up costs more there.
            let n = if rest.len() < 16 {
                rest.iter()
                    .position(|b| matches!(b, b'"' | b'\\' | b':'))
                    .unwrap_or(rest.len())
            } else {
                memchr::memchr3(b'"', b'\\', b':', rest).unwrap_or(rest.len())
            };
            if n == 0 {
                return Run::None;
            }
            let run = chunk.get(i..i + n).unwrap_or_default();
            if self.string_kind == StringKind::CuttableValue {
                self.sniff_needed = true;
            }
            if self.brace_count > 0 {
                self.json_buffer.push_str(run);
                if self.meta_dirty && memchr::memchr3(b',', b'}', b']', run.as_bytes()).is_some() {
                    self.sniff_metadata_if_dirty();
                }
            }
            return Run::Taken(n);
        }
        if !self.in_string {
            let n = rest
                .iter()
                .take_while(|b| matches!(b, b' ' | b'\n' | b'\r' | b'\t'))
                .count();
            if n > 0 {
                if self.brace_count > 0 {
                    self.json_buffer
                        .push_str(chunk.get(i..i + n).unwrap_or_default());
                }
                return Run::Taken(n);
            }
        }
        Run::None
    }

    /// Push an open object or list on the brace stack.
    fn open(&mut self, kind: u8) {
        self.brace_stack.push(Open {
            kind,
            start: self.json_buffer.len(),
            keys: 0,
            parsed_at: 0,
            tried_at: 0,
            lacking: None,
        });
    }

    /// At a `:` outside strings: the string before it is a key of the innermost object;
    /// remember it (for the next string's kind) and mark the keys the later phases test.
    fn note_key(&mut self) {
        self.keys_noted = self.keys_noted.wrapping_add(1);
        let body = self.json_buffer.trim_end();
        let key = body
            .strip_suffix('"')
            .and_then(|b| b.rfind('"').and_then(|i| b.get(i + 1..)))
            .unwrap_or_default();
        let flag = match key {
            "id" => KEY_ID,
            "component" => KEY_COMPONENT,
            k if MSG_V08.contains(&k) || MSG_V09.contains(&k) => KEY_MESSAGE,
            _ => 0,
        };
        self.last_key.clear();
        self.last_key.push_str(key);
        if let Some(o) = self.brace_stack.last_mut()
            && o.kind == b'{'
        {
            o.keys |= flag;
        }
    }

    /// What a string opening now is: an object key, a property value (cuttable or not)
    /// or a list element.
    fn kind_of_string_opening(&self) -> StringKind {
        match (self.last_struct, self.brace_stack.last().map(|o| o.kind)) {
            (b':', _) if self.cuttable.contains(self.last_key.as_str()) => {
                StringKind::CuttableValue
            }
            (b':', _) => StringKind::Value,
            (b'{', _) | (b',', Some(b'{')) => StringKind::Key,
            _ => StringKind::Element,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Prose and messages of `chunks` fed in order, then `finish`.
    fn run(chunks: &[&str]) -> (String, Vec<Value>) {
        let mut p = ModelTextParser::with_family(Family::V09);
        let mut prose = String::new();
        let mut msgs = Vec::new();
        let mut take = |parts: Vec<ResponsePart>| {
            for part in parts {
                prose.push_str(&part.text);
                msgs.extend(part.a2ui.unwrap_or_default().into_iter().map(Value::from));
            }
        };
        for c in chunks {
            take(p.feed_str(c).expect("chunk"));
        }
        take(p.finish().expect("finish"));
        (prose, msgs)
    }

    #[test]
    fn a_tag_split_at_every_byte_gives_the_same_parts() {
        let text = concat!(
            "Hi <b>there</b> a < b.",
            r#"<a2ui-json>[{"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": "c"}}]</a2ui-json>"#,
            " Bye <a2ui-j"
        );
        let (prose, msgs) = run(&[text]);
        assert_eq!(prose, "Hi <b>there</b> a < b. Bye <a2ui-j");
        assert_eq!(msgs.len(), 1);
        assert_eq!(msgs[0]["createSurface"]["surfaceId"], "s");
        for cut in 0..=text.len() {
            let (a, b) = text.split_at(cut);
            assert_eq!(run(&[a, b]), (prose.clone(), msgs.clone()), "cut at {cut}");
        }
        // And one byte at a time.
        let bytes: Vec<String> = text.chars().map(String::from).collect();
        let refs: Vec<&str> = bytes.iter().map(String::as_str).collect();
        assert_eq!(run(&refs), (prose, msgs));
    }

    /// The text of the last yielded component `root` in `msgs`.
    fn root_text(msgs: &[Value]) -> Option<String> {
        msgs.iter()
            .rev()
            .filter_map(|m| m["updateComponents"]["components"].as_array())
            .flatten()
            .find(|c| c["id"] == "root")
            .and_then(|c| c["text"].as_str().map(str::to_owned))
    }

    #[test]
    fn a_close_tag_inside_a_json_string_does_not_end_the_block() {
        let text = concat!(
            "Before.",
            r#"<a2ui-json>[{"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": "c"}},"#,
            r#" {"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": ["#,
            r#"{"id": "root", "component": "Text", "text": "a </a2ui-json> \"<a2ui-json>\" b"}]}}]"#,
            "</a2ui-json> After."
        );
        let want = r#"a </a2ui-json> "<a2ui-json>" b"#;
        let (prose, msgs) = run(&[text]);
        assert_eq!(prose, "Before. After.");
        assert_eq!(root_text(&msgs).as_deref(), Some(want));
        for cut in 0..=text.len() {
            let (a, b) = text.split_at(cut);
            let (p, m) = run(&[a, b]);
            assert_eq!(p, prose, "cut at {cut}");
            assert_eq!(root_text(&m).as_deref(), Some(want), "cut at {cut}");
        }
        let bytes: Vec<String> = text.chars().map(String::from).collect();
        let refs: Vec<&str> = bytes.iter().map(String::as_str).collect();
        let (p, m) = run(&refs);
        assert_eq!(p, prose);
        assert_eq!(root_text(&m).as_deref(), Some(want));
        // The whole-answer parser too.
        let parts = parse_response(text).expect("parses");
        assert_eq!(parts.len(), 2);
        let m: Vec<Value> = parts[0]
            .a2ui
            .clone()
            .unwrap_or_default()
            .into_iter()
            .map(Value::from)
            .collect();
        assert_eq!(root_text(&m).as_deref(), Some(want));
        assert_eq!(parts[1].text, "After.");
        // Outside a string the close tag still ends the block (even right after one).
        let (p, m) = run(&[concat!(
            r#"<a2ui-json>[{"version": "v0.9", "deleteSurface": {"surfaceId": "x</a2ui-json>"}}"#,
            r#"</a2ui-json>after"#
        )]);
        assert_eq!(p, "after");
        assert!(m.is_empty(), "{m:?}");
    }

    #[test]
    fn a_close_tag_inside_an_express_string_does_not_end_the_block() {
        let text = "Hi <a2ui>\nroot = Column([t])\nt = Text(\"x </a2ui> y\")\n</a2ui> bye";
        let texts = |chunks: &[&str]| {
            let mut p = ModelTextParser::new(ModelTextOptions::default(), Limits::default());
            let mut prose = String::new();
            let mut found = Vec::new();
            let mut take = |parts: Vec<ResponsePart>| {
                for part in parts {
                    prose.push_str(&part.text);
                    for m in part.a2ui.unwrap_or_default() {
                        for c in m["updateComponents"]["components"]
                            .as_array()
                            .into_iter()
                            .flatten()
                        {
                            if let Some(t) = c["text"].as_str() {
                                found.push(t.to_owned());
                            }
                        }
                    }
                }
            };
            for c in chunks {
                take(p.feed_str(c).expect("chunk"));
            }
            take(p.finish().expect("finish"));
            (prose, found.last().cloned())
        };
        let whole = texts(&[text]);
        assert_eq!(
            whole,
            ("Hi  bye".to_owned(), Some("x </a2ui> y".to_owned()))
        );
        for cut in 0..=text.len() {
            let (a, b) = text.split_at(cut);
            assert_eq!(texts(&[a, b]), whole, "cut at {cut}");
        }
    }

    #[test]
    fn a_utf8_sequence_split_at_every_byte_decodes_whole() {
        let text = "é€😀 ok";
        let bytes = text.as_bytes();
        for cut in 0..=bytes.len() {
            let mut carry = Vec::new();
            let mut s = decode_utf8(&mut carry, &bytes[..cut]);
            s.push_str(&decode_utf8(&mut carry, &bytes[cut..]));
            assert_eq!(s, text, "cut at {cut}");
            assert!(carry.is_empty());
        }
        // An invalid byte becomes U+FFFD; a sequence cut at the end stays carried.
        let mut carry = Vec::new();
        assert_eq!(decode_utf8(&mut carry, b"a\xffb\xe2\x82"), "a\u{FFFD}b");
        assert_eq!(carry, b"\xe2\x82");
        assert_eq!(decode_utf8(&mut carry, b"\xac"), "€");
    }

    #[test]
    fn the_held_back_tail_is_the_longer_cut_tag() {
        assert_eq!(held_tag_prefix("abc"), 0);
        assert_eq!(held_tag_prefix("x</a2ui-js"), 9);
        assert_eq!(held_tag_prefix("x<a2ui"), 5);
        assert_eq!(held_tag_prefix("x<"), 1);
        assert_eq!(held_tag_prefix("<a2ui-json>x"), 0);
    }

    #[test]
    fn partial_suffix_len_finds_a_cut_tag() {
        assert_eq!(partial_suffix_len("abc<a2u", OPEN_TAG), 4);
        assert_eq!(partial_suffix_len("abc<", OPEN_TAG), 1);
        assert_eq!(partial_suffix_len("abc", OPEN_TAG), 0);
        // The whole tag is not a proper prefix.
        assert_eq!(partial_suffix_len("x</a2ui-json>", CLOSE_TAG), 0);
        assert_eq!(partial_suffix_len("x</a2ui-json", CLOSE_TAG), 11);
    }

    #[test]
    fn the_string_state_survives_a_chunk_cut() {
        // Braces and brackets inside a string, cut at every byte: one message, whole.
        let text = r#"<a2ui-json>[{"version": "v0.9", "createSurface": {"surfaceId": "a{[\"}]", "catalogId": "c"}}]</a2ui-json>"#;
        for cut in 0..=text.len() {
            let (a, b) = text.split_at(cut);
            let (_, msgs) = run(&[a, b]);
            assert_eq!(msgs.len(), 1, "cut at {cut}");
            assert_eq!(msgs[0]["createSurface"]["surfaceId"], "a{[\"}]");
        }
    }
}
