//! Model text → A2UI messages, token by token.
//!
//! A host that runs a model itself receives the answer as text chunks: prose with A2UI JSON
//! inside `<a2ui-json>…</a2ui-json>` blocks (the delimiter of the official agent SDKs). A
//! [`ModelTextParser`] takes those chunks cut anywhere (inside a tag, a string, an escape or
//! a UTF-8 sequence) and yields [`ResponsePart`]s: prose as it arrives, each A2UI message as
//! soon as it is complete, and, for an `updateComponents` (v0.9/v1.0) or `surfaceUpdate`
//! (v0.8) still being written, a message carrying every component that is complete and
//! reachable from the root, with placeholder `Row`s for children not yet on the wire, so a
//! surface grows while the model is still writing.
//!
//! The semantics follow the official Python parser (`A2uiStreamParser.process_chunk` of the
//! A2UI agent SDK) and its language-agnostic conformance suite
//! (`tests/data/conformance-suites/agent/streaming_parser.yaml`): text is yielded eagerly
//! except a possible tag prefix, components wait until reachable from the root, atomic
//! strings (ids, paths, URLs) are never yielded cut, "cuttable" text properties are, data
//! model updates are sniffed entry by entry, and `surfaceUpdate`/`updateComponents` are
//! held until their surface has been started. [`parse_response`] and [`fix_payload`] are
//! the non-streaming counterparts (`parser.yaml`).
//!
//! Hostile input is bounded by [`Limits`]: a block is at most `max_model_block_bytes`
//! (the rest of an oversized block is skipped), JSON nests at most `max_json_depth`, at
//! most `max_components` components are held, a nested open tag drops the block it is in
//! (a diagnostic), and [`ModelTextParser::finish`] reports a block the text never closed. Each case is a
//! [`ModelTextError`], never a panic, and the parser recovers for the rest of the text.
//!
//! A host drawing with a [`Renderer`](crate::Renderer) feeds chunks to a [`ModelTextStream`]
//! through [`Renderer::feed_model_text`](crate::Renderer::feed_model_text); a whole answer
//! can also be split at once:
//!
//! ```
//! use egui_a2ui::stream::model_text::parse_response;
//!
//! let answer = r#"Here you go.<a2ui-json>[{"version":"v0.9","deleteSurface":{"surfaceId":"s"}}]</a2ui-json>"#;
//! let parts = parse_response(answer).unwrap();
//! assert_eq!(parts[0].text, "Here you go.");
//! assert_eq!(parts[0].a2ui.as_ref().unwrap()[0]["deleteSurface"]["surfaceId"], "s");
//! ```

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value, json};

use crate::limits::Limits;

mod check;
mod host;

pub use check::{MessageCheck, SchemaHook, StructuralCheck, catalog_components};
pub use host::{ModelTextEvent, ModelTextStream};

/// The tag opening an A2UI block in model text.
pub const OPEN_TAG: &str = "<a2ui-json>";
/// The tag closing an A2UI block in model text.
pub const CLOSE_TAG: &str = "</a2ui-json>";
/// String properties that may be yielded while still being written (prose-like values);
/// every other string (ids, paths, URLs, enums) waits until its closing quote.
pub const DEFAULT_CUTTABLE_KEYS: [&str; 7] = [
    "literalString",
    "valueString",
    "label",
    "hint",
    "caption",
    "altText",
    "text",
];

/// Which message family a model writes: v0.8 (`beginRendering`, `surfaceUpdate`,
/// `dataModelUpdate`) or v0.9+ (`createSurface`, `updateComponents`, `updateDataModel`,
/// with a `version` key).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Family {
    /// A2UI v0.8.
    V08,
    /// A2UI v0.9 and v1.0.
    #[default]
    V09,
}

/// What went wrong in model text. Messages match the reference parser's so its
/// conformance suite's expected errors apply.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ModelTextError {
    /// A block held no JSON object, or its JSON could not be parsed.
    #[error("Failed to parse JSON: {0}")]
    Parse(String),
    /// A self-reference, a cycle or a nesting beyond the reference's recursion limits.
    #[error("{0}")]
    Recursion(String),
    /// A message failed validation.
    #[error("{0}")]
    Validation(String),
    /// A [`Limits`] bound was hit; the offending block is skipped.
    #[error("limit exceeded in model text: {what} ({actual} > {limit})")]
    LimitExceeded {
        /// The `Limits` field.
        what: &'static str,
        /// Its value.
        limit: usize,
        /// What the text asked for.
        actual: usize,
    },
    /// `<a2ui-json>` inside a block that is still open; that block is dropped and a new
    /// one starts at the inner tag (reported through
    /// [`ModelTextParser::take_diagnostics`], not as a failed chunk).
    #[error("nested <a2ui-json> inside an open A2UI block")]
    NestedTag,
    /// The text ended inside an A2UI block.
    #[error("model text ended inside an A2UI block ({bytes} bytes without </a2ui-json>)")]
    Unterminated {
        /// Bytes of the block received.
        bytes: usize,
    },
}

/// One piece of a model answer: prose, A2UI messages, or prose followed by the messages
/// that came right after it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ResponsePart {
    /// Prose (may be empty).
    pub text: String,
    /// The A2UI messages, in order; `None` for prose only.
    pub a2ui: Option<Vec<Value>>,
}

/// How a [`ModelTextParser`] reads messages.
#[derive(Default)]
pub struct ModelTextOptions {
    /// The message family; `None` detects it from the first block (`version` key → v0.9+,
    /// a v0.8 message key → v0.8).
    pub family: Option<Family>,
    /// Component schemas of the catalog (see [`catalog_components`]): which
    /// properties reference components and which are required.
    pub components: Map<String, Value>,
    /// String properties yielded while cut, beyond [`DEFAULT_CUTTABLE_KEYS`].
    pub extra_cuttable_keys: Vec<String>,
    /// The check every yielded message passes (none: no validation).
    pub check: Option<Box<dyn MessageCheck>>,
    /// Component schemas used instead of `components` when the family turns out to be
    /// v0.8 (for a parser that detects the family).
    pub v08_components: Option<Map<String, Value>>,
    /// Yield data-model updates entry by entry while their message is still open, as the
    /// reference does. Its partial v0.9 `updateDataModel` carries only the changed keys
    /// and drops `path`, which a renderer would apply as a replacement of the root, so
    /// [`ModelTextStream`] leaves this off and applies data-model messages when complete.
    pub sniff_data_model: bool,
}

impl std::fmt::Debug for ModelTextOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ModelTextOptions")
            .field("family", &self.family)
            .field("components", &self.components.len())
            .field("extra_cuttable_keys", &self.extra_cuttable_keys)
            .field("check", &self.check.is_some())
            .field(
                "v08_components",
                &self.v08_components.as_ref().map(Map::len),
            )
            .finish()
    }
}

const MSG_V08: [&str; 4] = [
    "beginRendering",
    "surfaceUpdate",
    "dataModelUpdate",
    "deleteSurface",
];
const MSG_V09: [&str; 3] = ["createSurface", "updateComponents", "updateDataModel"];
/// Needles whose presence in the JSON buffer the parser tracks incrementally.
const WATCH: [&str; 12] = [
    "\"beginRendering\":",
    "\"surfaceUpdate\":",
    "\"dataModelUpdate\":",
    "\"deleteSurface\":",
    "\"createSurface\":",
    "\"updateComponents\":",
    "\"updateDataModel\":",
    "\"components\"",
    "\"dataModelUpdate\"",
    "\"updateDataModel\"",
    "\"version\"",
    "\"children\"",
];
const W_COMPONENTS: usize = 7;
const W_DMU08: usize = 8;
const W_DMU09: usize = 9;
const W_VERSION: usize = 10;
/// Below this JSON buffer size partial sniffing runs at every chunk exactly as the
/// reference does; above it, sniffing is throttled so its cost stays linear in the input.
const SNIFF_EXACT_BYTES: usize = 8 * 1024;

/// The incremental model-text parser. See the [module docs](self).
pub struct ModelTextParser {
    opts: ModelTextOptions,
    family: Option<Family>,
    version_tag: String,
    cuttable: HashSet<String>,
    refs: check::RefFieldsMap,
    required: HashMap<String, Vec<String>>,
    limits: Limits,

    utf8_carry: Vec<u8>,
    diagnostics: Vec<ModelTextError>,
    salvaged: Vec<ResponsePart>,
    in_block: bool,
    skipping: bool,
    block_bytes: usize,
    buffer: String,
    json_buffer: String,
    brace_stack: Vec<(u8, usize)>,
    brace_count: i64,
    in_top_level_list: bool,
    in_string: bool,
    string_escaped: bool,
    watch: [bool; WATCH.len()],
    latest_surface: Option<String>,
    latest_root: Option<String>,
    latest_version: Option<String>,
    sniff_credit: usize,

    seen_components: Map<String, Value>,
    yielded_data_model: Map<String, Value>,
    deleted_surfaces: HashSet<String>,
    yielded_ids: HashMap<String, HashSet<String>>,
    yielded_contents: HashMap<(String, String), Value>,
    root_ids: HashMap<String, String>,
    default_root_id: Option<String>,
    unbound_root_id: Option<String>,
    surface_id: Option<String>,
    msg_types: Vec<&'static str>,
    yielded_start_messages: HashSet<String>,
    yielded_surfaces: HashSet<String>,
    active_msg_type: Option<&'static str>,
    pending_messages: HashMap<String, Vec<Value>>,
    buffered_start_message: Option<Value>,
    topology_dirty: bool,
    found_valid_json_in_block: bool,
    /// Per surface: the placeholders the last partial message carried (so in the store).
    live_placeholders: HashMap<String, HashSet<String>>,
    /// Placeholders no yielded component refers to any more, not yet taken.
    retired: Vec<(String, String)>,
}

impl std::fmt::Debug for ModelTextParser {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ModelTextParser")
            .field("family", &self.family)
            .field("in_block", &self.in_block)
            .field("block_bytes", &self.block_bytes)
            .field("components", &self.seen_components.len())
            .finish_non_exhaustive()
    }
}

fn truthy(v: Option<&Value>) -> bool {
    match v {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(Value::Number(n)) => n.as_f64().is_some_and(|f| f != 0.0),
        Some(Value::String(s)) => !s.is_empty(),
        Some(Value::Array(a)) => !a.is_empty(),
        Some(Value::Object(o)) => !o.is_empty(),
    }
}

fn has_empty_dict(v: &Value) -> bool {
    match v {
        Value::Object(o) => o.is_empty() || o.values().any(has_empty_dict),
        Value::Array(a) => a.iter().any(has_empty_dict),
        _ => false,
    }
}

/// Length of the longest proper prefix of `tag` that `buf` ends with.
fn partial_suffix_len(buf: &str, tag: &str) -> usize {
    (1..tag.len())
        .rev()
        .find(|i| tag.get(..*i).is_some_and(|p| buf.ends_with(p)))
        .unwrap_or(0)
}

/// `"key"\s*:\s*"([^"]+)"` anchored at the start of `s`.
fn match_forward<'a>(s: &'a str, quoted_key: &str) -> Option<&'a str> {
    let rest = s.strip_prefix(quoted_key)?.trim_start();
    let rest = rest.strip_prefix(':')?.trim_start();
    let rest = rest.strip_prefix('"')?;
    let end = rest.find('"')?;
    (end > 0).then(|| rest.get(..end)).flatten()
}

/// The value of the last complete `"key": "value"` in `buf` (the reference's
/// `get_latest_value`).
fn latest_value(buf: &str, key: &str) -> Option<String> {
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

/// The value of a `"key": "value"` match ending exactly at the end of `buf`.
fn match_at_end(buf: &str, key: &str) -> Option<String> {
    let body = buf.strip_suffix('"')?;
    let open = body.rfind('"')?;
    let value = body.get(open + 1..)?;
    if value.is_empty() {
        return None;
    }
    let before = body.get(..open)?.trim_end().strip_suffix(':')?.trim_end();
    before.strip_suffix(key).map(|_| value.to_owned())
}

impl ModelTextParser {
    /// A parser with `options`, bounded by `limits`.
    pub fn new(options: ModelTextOptions, limits: Limits) -> Self {
        let refs = check::extract_ref_fields(&options.components);
        let required = check::extract_required_fields(&options.components);
        let mut cuttable: HashSet<String> = DEFAULT_CUTTABLE_KEYS
            .iter()
            .map(|s| (*s).to_owned())
            .collect();
        cuttable.extend(options.extra_cuttable_keys.iter().cloned());
        let family = options.family;
        let mut p = Self {
            opts: options,
            family: None,
            version_tag: "v0.9".to_owned(),
            cuttable,
            refs,
            required,
            limits,
            utf8_carry: Vec::new(),
            diagnostics: Vec::new(),
            salvaged: Vec::new(),
            in_block: false,
            skipping: false,
            block_bytes: 0,
            buffer: String::new(),
            json_buffer: String::new(),
            brace_stack: Vec::new(),
            brace_count: 0,
            in_top_level_list: false,
            in_string: false,
            string_escaped: false,
            watch: [false; WATCH.len()],
            latest_surface: None,
            latest_root: None,
            latest_version: None,
            sniff_credit: 0,
            seen_components: Map::new(),
            yielded_data_model: Map::new(),
            deleted_surfaces: HashSet::new(),
            yielded_ids: HashMap::new(),
            yielded_contents: HashMap::new(),
            root_ids: HashMap::new(),
            default_root_id: None,
            unbound_root_id: None,
            surface_id: None,
            msg_types: Vec::new(),
            yielded_start_messages: HashSet::new(),
            yielded_surfaces: HashSet::new(),
            active_msg_type: None,
            pending_messages: HashMap::new(),
            buffered_start_message: None,
            topology_dirty: false,
            found_valid_json_in_block: false,
            live_placeholders: HashMap::new(),
            retired: Vec::new(),
        };
        if let Some(f) = family {
            p.set_family(f);
        }
        p
    }

    /// A parser for `family` with no catalog knowledge beyond the standard reference
    /// property names and no validation.
    pub fn with_family(family: Family) -> Self {
        Self::new(
            ModelTextOptions {
                family: Some(family),
                ..ModelTextOptions::default()
            },
            Limits::default(),
        )
    }

    fn set_family(&mut self, f: Family) {
        self.family = Some(f);
        if f == Family::V08
            && let Some(c) = &self.opts.v08_components
        {
            self.refs = check::extract_ref_fields(c);
            self.required = check::extract_required_fields(c);
        }
        if f == Family::V09 {
            self.default_root_id = Some("root".to_owned());
        }
    }

    /// The family in use (detected from the text when not configured).
    pub fn family(&self) -> Option<Family> {
        self.family
    }

    /// Problems the parser recovered from without failing a chunk (a nested open tag:
    /// the outer block is dropped and a new one starts at the inner tag, as the reference
    /// suite expects no error there). Drained by this call.
    pub fn take_diagnostics(&mut self) -> Vec<ModelTextError> {
        std::mem::take(&mut self.diagnostics)
    }

    /// Placeholders (`loading_…`) that were yielded and that no yielded component refers
    /// to any more (their component arrived, or the list they stood in for filled), as
    /// `(surface id, component id)`: a host applying the messages to its own store removes
    /// them ([`ModelTextStream`] does). Drained by this call.
    pub fn take_retired_placeholders(&mut self) -> Vec<(String, String)> {
        std::mem::take(&mut self.retired)
    }

    /// Whether the parser is inside an open `<a2ui-json>` block.
    pub fn in_block(&self) -> bool {
        self.in_block
    }

    /// Feed raw bytes (cut anywhere, including inside a UTF-8 sequence; invalid UTF-8
    /// becomes U+FFFD).
    pub fn feed(&mut self, bytes: &[u8]) -> Result<Vec<ResponsePart>, ModelTextError> {
        self.utf8_carry.extend_from_slice(bytes);
        let mut text = String::new();
        let mut rest: &[u8] = &self.utf8_carry;
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
        self.utf8_carry = rest.to_vec();
        self.feed_str(&text)
    }

    /// Feed text. Returns the parts completed by this chunk. After an error the parser
    /// has recovered; the parts completed before the error come with the next call.
    pub fn feed_str(&mut self, chunk: &str) -> Result<Vec<ResponsePart>, ModelTextError> {
        let mut out = std::mem::take(&mut self.salvaged);
        match self.process_chunk(chunk, &mut out) {
            Ok(()) => {
                dedup_surface_updates(&mut out);
                Ok(out)
            }
            Err(e) => {
                self.salvaged = out;
                Err(e)
            }
        }
    }

    /// The end of the answer: flushes held-back text (a possible tag prefix) and reports a
    /// block left open.
    pub fn finish(&mut self) -> Result<Vec<ResponsePart>, ModelTextError> {
        let mut out = std::mem::take(&mut self.salvaged);
        if !self.utf8_carry.is_empty() {
            self.utf8_carry.clear();
            self.buffer.push('\u{FFFD}');
        }
        if self.in_block {
            let bytes = self.block_bytes + self.buffer.len();
            self.buffer.clear();
            self.end_block();
            self.salvaged = out;
            return Err(ModelTextError::Unterminated { bytes });
        }
        if !self.buffer.is_empty() {
            out.push(ResponsePart {
                text: std::mem::take(&mut self.buffer),
                a2ui: None,
            });
        }
        Ok(out)
    }

    fn end_block(&mut self) {
        self.in_block = false;
        self.skipping = false;
        self.block_bytes = 0;
        self.reset_json_state();
    }

    fn process_chunk(
        &mut self,
        chunk: &str,
        out: &mut Vec<ResponsePart>,
    ) -> Result<(), ModelTextError> {
        self.buffer.push_str(chunk);
        // An error does not stop the chunk: the rest of it is read (the scanner stays in
        // sync with the text), the first error is returned and later ones become
        // diagnostics.
        let mut first_err: Option<ModelTextError> = None;
        let r = self.scan_chunk(out, &mut first_err);
        if let Err(e) = r {
            self.note_error(&mut first_err, e);
        }
        match first_err {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    fn note_error(&mut self, first: &mut Option<ModelTextError>, e: ModelTextError) {
        if first.is_none() {
            *first = Some(e);
        } else {
            self.diagnostics.push(e);
        }
    }

    fn scan_chunk(
        &mut self,
        out: &mut Vec<ResponsePart>,
        first_err: &mut Option<ModelTextError>,
    ) -> Result<(), ModelTextError> {
        loop {
            if !self.in_block {
                if let Some(pos) = self.buffer.find(OPEN_TAG) {
                    let text: String = self.buffer.drain(..pos).collect();
                    self.buffer.drain(..OPEN_TAG.len());
                    if !text.is_empty() {
                        out.push(ResponsePart { text, a2ui: None });
                    }
                    self.in_block = true;
                    self.block_bytes = 0;
                } else {
                    let keep = partial_suffix_len(&self.buffer, OPEN_TAG);
                    if self.buffer.len() > keep {
                        let text: String = self.buffer.drain(..self.buffer.len() - keep).collect();
                        out.push(ResponsePart { text, a2ui: None });
                    }
                    return Ok(());
                }
            }
            // In a block.
            let close = self.buffer.find(CLOSE_TAG);
            if self.skipping {
                match close {
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
            let open = self.buffer.find(OPEN_TAG);
            if let Some(o) = open
                && close.is_none_or(|c| o < c)
            {
                // A nested open tag: drop this block, start a new one at the inner tag.
                self.buffer.drain(..o + OPEN_TAG.len());
                self.reset_json_state();
                self.block_bytes = 0;
                self.diagnostics.push(ModelTextError::NestedTag);
                continue;
            }
            match close {
                Some(c) => {
                    let fragment: String = self.buffer.drain(..c).collect();
                    self.buffer.drain(..CLOSE_TAG.len());
                    let r = self.block_fragment(&fragment, out, first_err);
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
                    // Hold back what may start the close tag (or a nested open tag).
                    let keep = partial_suffix_len(&self.buffer, CLOSE_TAG)
                        .max(partial_suffix_len(&self.buffer, OPEN_TAG));
                    if keep < self.buffer.len() {
                        let frag: String = self.buffer.drain(..self.buffer.len() - keep).collect();
                        self.block_fragment(&frag, out, first_err)?;
                    }
                    return Ok(());
                }
            }
        }
    }

    fn block_fragment(
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

    fn reset_json_state(&mut self) {
        self.json_buffer.clear();
        self.brace_stack.clear();
        self.brace_count = 0;
        self.in_top_level_list = false;
        self.in_string = false;
        self.string_escaped = false;
        self.msg_types.clear();
        self.found_valid_json_in_block = false;
        self.rescan_watch();
    }

    // ---- the JSON buffer and what is tracked about it ----

    fn push(&mut self, c: char) {
        self.json_buffer.push(c);
        if c == ':' || c == '"' {
            for (i, w) in WATCH.iter().enumerate() {
                if !self.watch[i] && w.ends_with(c) && self.json_buffer.ends_with(w) {
                    self.watch[i] = true;
                }
            }
        }
        if c == '"' {
            if let Some(v) = match_at_end(&self.json_buffer, "\"surfaceId\"") {
                self.latest_surface = Some(v);
            }
            if let Some(v) = match_at_end(&self.json_buffer, "\"root\"") {
                self.latest_root = Some(v);
            }
            if let Some(v) = match_at_end(&self.json_buffer, "\"version\"") {
                self.latest_version = Some(v);
            }
        }
    }

    fn rescan_watch(&mut self) {
        for (i, w) in WATCH.iter().enumerate() {
            self.watch[i] = self.json_buffer.contains(w);
        }
        self.latest_surface = latest_value(&self.json_buffer, "surfaceId");
        self.latest_root = latest_value(&self.json_buffer, "root");
        self.latest_version = latest_value(&self.json_buffer, "version");
    }

    fn truncate_json(&mut self, at: usize) {
        self.json_buffer.truncate(at);
        self.rescan_watch();
    }

    fn drop_json_prefix(&mut self, n: usize) {
        self.json_buffer.drain(..n.min(self.json_buffer.len()));
        for e in &mut self.brace_stack {
            e.1 = e.1.saturating_sub(n);
        }
        self.rescan_watch();
    }

    // ---- surface and root tracking (the reference's properties) ----

    fn set_surface_id(&mut self, v: Option<String>) {
        self.surface_id = v;
        if let Some(s) = &self.surface_id
            && let Some(r) = self.unbound_root_id.take()
        {
            self.root_ids.insert(s.clone(), r);
        }
    }

    fn root_id(&self) -> Option<String> {
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

    fn set_root_id(&mut self, v: Option<String>) {
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

    fn add_msg_type(&mut self, t: &'static str) {
        if !self.msg_types.contains(&t) {
            self.msg_types.push(t);
        }
        if matches!(t, "surfaceUpdate" | "updateComponents" | "createSurface") {
            self.active_msg_type = Some(t);
        }
    }

    fn fam(&self) -> Family {
        self.family.unwrap_or_default()
    }

    fn sniff_metadata(&mut self) {
        if self.family.is_none() {
            if self.watch[W_VERSION] {
                self.set_family(Family::V09);
            } else if self.watch[..4].iter().any(|b| *b) {
                self.set_family(Family::V08);
            }
        }
        if let Some(v) = &self.latest_version
            && (v.starts_with("v0.9") || v.starts_with("v1") || v.starts_with("1."))
        {
            self.version_tag = v.clone();
        }
        self.set_surface_id(self.latest_surface.clone());
        if let Some(r) = self.latest_root.clone() {
            self.set_root_id(Some(r));
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

    fn is_protocol_msg(&self, o: &Map<String, Value>) -> bool {
        match self.fam() {
            Family::V08 => MSG_V08.iter().any(|k| o.contains_key(*k)),
            Family::V09 => MSG_V09.iter().any(|k| o.contains_key(*k)),
        }
    }

    // ---- the character loop ----

    fn process_json_chunk(
        &mut self,
        chunk: &str,
        out: &mut Vec<ResponsePart>,
        first_err: &mut Option<ModelTextError>,
    ) -> Result<(), ModelTextError> {
        for ch in chunk.chars() {
            let mut handled = false;
            if !self.in_top_level_list {
                if ch == '[' {
                    if self.brace_count == 0 {
                        self.in_top_level_list = true;
                    }
                    self.brace_stack.push((b'[', self.json_buffer.len()));
                    self.push('[');
                    self.brace_count += 1;
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
                        if self.brace_count > 0 {
                            self.push(ch);
                        }
                    }
                    '{' => {
                        if self.brace_count == 0 {
                            self.msg_types.clear();
                        }
                        if self.brace_stack.len() >= self.limits.max_json_depth {
                            return Err(ModelTextError::LimitExceeded {
                                what: "max_json_depth",
                                limit: self.limits.max_json_depth,
                                actual: self.brace_stack.len() + 1,
                            });
                        }
                        self.brace_stack.push((b'{', self.json_buffer.len()));
                        self.push('{');
                        self.brace_count += 1;
                    }
                    '}' => {
                        if let Some((_, start)) = self.brace_stack.pop() {
                            self.push('}');
                            self.brace_count -= 1;
                            if self.brace_count >= 0
                                && let Err(e) = self.close_object(start, out)
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
                        self.brace_stack.push((b'[', self.json_buffer.len()));
                        self.push('[');
                        self.brace_count += 1;
                    }
                    ']' => {
                        if self.brace_stack.last().is_some_and(|e| e.0 == b'[') {
                            self.brace_stack.pop();
                            self.push(']');
                            self.brace_count -= 1;
                            if self.brace_count == 0 {
                                self.in_top_level_list = false;
                            }
                        }
                    }
                    _ => {
                        if self.brace_count > 0 {
                            self.push(ch);
                        }
                    }
                }
            }
            if self.brace_count > 0 && matches!(ch, '"' | ':' | ',' | '}' | ']') {
                self.sniff_metadata();
            }
        }
        if self.brace_count >= 1 && !self.json_buffer.is_empty() && self.sniff_due(chunk.len()) {
            self.sniff_partial_component();
            if self.opts.sniff_data_model {
                self.sniff_partial_data_model(out);
            }
        }
        if self.topology_dirty {
            self.yield_reachable(out, false, false)?;
            self.topology_dirty = false;
        }
        Ok(())
    }

    /// Whether to sniff now: always on small buffers (the reference's behaviour); on big
    /// ones once enough new bytes paid for a re-parse of the open fragments.
    fn sniff_due(&mut self, new_bytes: usize) -> bool {
        self.sniff_credit = self.sniff_credit.saturating_add(new_bytes);
        let len = self.json_buffer.len();
        if len <= SNIFF_EXACT_BYTES || self.sniff_credit.saturating_mul(16) >= len {
            self.sniff_credit = 0;
            true
        } else {
            false
        }
    }

    fn close_object(
        &mut self,
        start: usize,
        out: &mut Vec<ResponsePart>,
    ) -> Result<(), ModelTextError> {
        let Some(frag) = self.json_buffer.get(start..) else {
            return Ok(());
        };
        if !(frag.starts_with('{') && frag.ends_with('}')) {
            return Ok(());
        }
        let frag_len = frag.len();
        let Ok(Value::Object(obj)) = serde_json::from_str::<Value>(frag) else {
            return Ok(());
        };
        self.found_valid_json_in_block = true;
        let is_protocol = self.in_top_level_list && self.is_protocol_msg(&obj);
        let is_comp = truthy(obj.get("id")) && truthy(obj.get("component"));
        let only_list =
            self.brace_stack.len() == 1 && self.brace_stack.first().is_some_and(|e| e.0 == b'[');
        let is_top_level = self.brace_stack.is_empty() || (self.in_top_level_list && only_list);
        let clear =
            self.brace_count == 0 || (self.in_top_level_list && self.brace_stack.len() == 1);
        let r = if is_comp {
            self.handle_partial_component(Value::Object(obj))
        } else if is_top_level || is_protocol {
            let sid = self.surface_id.clone();
            let obj = Value::Object(obj);
            match self.handle_complete_object(obj.clone(), sid, out) {
                Ok(false) => self.yield_messages(vec![obj], out, true),
                other => other.map(drop),
            }
        } else {
            Ok(())
        };
        // A failed message leaves the buffer as a handled one does.
        if clear {
            if only_list {
                self.truncate_json(start);
            } else {
                self.drop_json_prefix(frag_len);
            }
        }
        r
    }

    // ---- partial JSON ----

    fn fix_json(&self, fragment: &str) -> String {
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

    fn parse_fixed(&self, raw: &str, fallback: bool) -> Option<Value> {
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

    fn open_fragments(&self) -> Vec<usize> {
        self.brace_stack
            .iter()
            .rev()
            .filter(|e| e.0 == b'{')
            .map(|e| e.1)
            .collect()
    }

    fn sniff_partial_component(&mut self) {
        if !self.watch[W_COMPONENTS] {
            return;
        }
        // Only objects opened inside the components array can be components; the message
        // objects around it (the largest fragments) are not re-parsed at every chunk.
        let floor = self.json_buffer.rfind("\"components\"").unwrap_or(0);
        for start in self.open_fragments() {
            if start < floor {
                break;
            }
            let Some(raw) = self.json_buffer.get(start..).filter(|r| !r.is_empty()) else {
                continue;
            };
            let Some(obj) = self.parse_fixed(raw, false) else {
                continue;
            };
            if obj.is_object() && truthy(obj.get("id")) && truthy(obj.get("component")) {
                let ok = match obj.get("component") {
                    Some(Value::String(_)) => true,
                    Some(Value::Object(o)) => !o.is_empty(),
                    _ => false,
                };
                if ok {
                    // Errors here are the component-count limit; the complete object
                    // reports it when it closes.
                    let _ = self.handle_partial_component(obj);
                }
            }
        }
    }

    fn sniff_partial_data_model(&mut self, out: &mut Vec<ResponsePart>) {
        let fam = self.fam();
        let (watch, key) = match fam {
            Family::V08 => (W_DMU08, "dataModelUpdate"),
            Family::V09 => (W_DMU09, "updateDataModel"),
        };
        if !self.watch[watch] {
            return;
        }
        for start in self.open_fragments() {
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

    fn sniffed_dm_v08(&mut self, dm: &Map<String, Value>, out: &mut Vec<ResponsePart>) {
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
                let mut seen = HashSet::new();
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
        let msg = json!({ "dataModelUpdate": payload });
        let _ = self.yield_messages(vec![msg], out, false);
        for (k, v) in contents {
            self.yielded_data_model.insert(k, v);
        }
    }

    fn sniffed_dm_v09(&mut self, dm: &Map<String, Value>, out: &mut Vec<ResponsePart>) {
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
        let msg = json!({
            "version": self.version_tag,
            "updateDataModel": { "surfaceId": sid, "value": delta.clone() },
        });
        let _ = self.yield_messages(vec![msg], out, false);
        for (k, v) in delta {
            self.yielded_data_model.insert(k, v);
        }
    }

    // ---- components ----

    fn handle_partial_component(&mut self, comp: Value) -> Result<(), ModelTextError> {
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
        self.seen_components.insert(id, comp);
        self.topology_dirty = true;
        Ok(())
    }

    fn placeholder(&self, id: String) -> Value {
        match self.fam() {
            Family::V08 => json!({
                "id": id,
                "component": { "Row": { "children": { "explicitList": [] } } },
            }),
            Family::V09 => json!({ "id": id, "component": "Row", "children": [] }),
        }
    }

    fn process_component_topology(&self, comp: &mut Value, extra: &mut Vec<Value>) {
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
    fn list_still_open(&self, field: &str) -> bool {
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

    fn active_msg_type_for_components(&mut self) -> Option<&'static str> {
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

    fn yield_reachable(
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

    fn yield_reachable_inner(
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
        for c in &processed {
            let cid = c.get("id").and_then(Value::as_str).unwrap_or_default();
            self.yielded_contents
                .insert((sid.to_owned(), cid.to_owned()), c.clone());
        }
        let partial = match self.fam() {
            Family::V08 => json!({
                "surfaceUpdate": { "surfaceId": sid, "components": processed }
            }),
            Family::V09 => json!({
                "version": self.version_tag,
                "updateComponents": { "components": processed, "surfaceId": sid }
            }),
        };
        self.yield_messages(vec![partial], out, false)?;
        self.yielded_ids
            .entry(sid.to_owned())
            .or_default()
            .extend(available);
        self.retire_placeholders(sid, placeholder_ids);
        Ok(())
    }

    /// After a partial message for `sid` carrying the placeholders `now`: those it no longer
    /// carries are retired (and would be yielded again if referred to again).
    fn retire_placeholders(&mut self, sid: &str, now: HashSet<String>) {
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

    // ---- yielding ----

    fn deduplicate_data_model(&mut self, m: &Value, strict: bool) -> bool {
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
    fn take_root_of(&mut self, message: &Value) {
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
    fn yield_start_message(
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

    fn yield_messages(
        &mut self,
        msgs: Vec<Value>,
        out: &mut Vec<ResponsePart>,
        strict: bool,
    ) -> Result<(), ModelTextError> {
        for m in msgs {
            if !self.deduplicate_data_model(&m, strict) {
                continue;
            }
            if let Some(c) = &self.opts.check
                && let Err(e) = c.check(&m, self.root_id().as_deref(), strict)
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

    fn delete_surface(&mut self, sid: &str) {
        self.pending_messages.remove(sid);
        self.yielded_ids.remove(sid);
        self.yielded_contents.retain(|k, _| k.0 != sid);
        self.yielded_surfaces.remove(sid);
        self.yielded_start_messages.remove(sid);
        self.live_placeholders.remove(sid);
        self.retired.retain(|(s, _)| s != sid);
        self.deleted_surfaces.insert(sid.to_owned());
    }

    fn handle_complete_object(
        &mut self,
        obj: Value,
        sid: Option<String>,
        out: &mut Vec<ResponsePart>,
    ) -> Result<bool, ModelTextError> {
        if !obj.is_object() {
            return Ok(false);
        }
        if let Some(c) = &self.opts.check {
            c.check(&obj, sid.as_deref(), false)?;
        }
        match self.fam() {
            Family::V08 => self.complete_v08(obj, out),
            Family::V09 => self.complete_v09(obj, out),
        }
    }

    fn surface_of(&self, obj: &Value, keys: &[&str]) -> Option<String> {
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

    fn complete_v08(
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

    fn complete_v08_with_check(
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

    fn insert_component(&mut self, id: String, c: Value) -> Result<(), ModelTextError> {
        if !self.seen_components.contains_key(&id)
            && self.seen_components.len() >= self.limits.max_components
        {
            return Err(ModelTextError::LimitExceeded {
                what: "max_components",
                limit: self.limits.max_components,
                actual: self.seen_components.len() + 1,
            });
        }
        self.seen_components.insert(id, c);
        Ok(())
    }

    fn complete_v09(
        &mut self,
        obj: Value,
        out: &mut Vec<ResponsePart>,
    ) -> Result<bool, ModelTextError> {
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
            return Ok(true);
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
            return Ok(true);
        }
        if obj.get("deleteSurface").is_some() {
            if !self.yielded_start_messages.contains(&sid) {
                self.pending_messages.entry(sid).or_default().push(obj);
                return Ok(true);
            }
            self.add_msg_type("deleteSurface");
            self.yield_messages(vec![obj], out, true)?;
            return Ok(true);
        }
        if obj.get("updateDataModel").is_some() {
            self.add_msg_type("updateDataModel");
            self.yield_messages(vec![obj], out, true)?;
            return Ok(true);
        }
        Ok(false)
    }
}

fn parse_contents_to_dict(raw: &Value) -> Map<String, Value> {
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

fn prune_incomplete_entries(entries: Vec<Value>) -> Vec<Value> {
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

fn key_before_colon(prefix: &str) -> Option<&str> {
    let body = prefix.strip_suffix(':')?.trim_end().strip_suffix('"')?;
    let open = body.rfind('"')?;
    body.get(open + 1..).filter(|k| !k.is_empty())
}

/// Keep only the last (most complete) `surfaceUpdate` per surface in each part, as the
/// reference does at the end of every chunk.
fn dedup_surface_updates(parts: &mut [ResponsePart]) {
    for part in parts {
        let Some(msgs) = part.a2ui.as_mut() else {
            continue;
        };
        let mut seen = HashSet::new();
        let mut keep = vec![true; msgs.len()];
        for (i, m) in msgs.iter().enumerate().rev() {
            if let Some(sid) = m
                .get("surfaceUpdate")
                .and_then(|s| s.get("surfaceId"))
                .and_then(Value::as_str)
                .filter(|s| !s.is_empty())
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

// ---- non-streaming (parser.yaml) ----

/// Whether `content` holds both tags.
pub fn has_a2ui_parts(content: &str) -> bool {
    content.contains(OPEN_TAG) && content.contains(CLOSE_TAG)
}

fn sanitize_json_string(s: &str) -> &str {
    let mut s = s.trim();
    if let Some(r) = s.strip_prefix("```json") {
        s = r;
    } else if let Some(r) = s.strip_prefix("```") {
        s = r;
    }
    if let Some(r) = s.strip_suffix("```") {
        s = r;
    }
    s.trim()
}

/// Parse a whole answer: for each block, the (trimmed) prose before it and its messages;
/// then the trailing prose. Errors as the reference's `parse_response`.
pub fn parse_response(content: &str) -> Result<Vec<ResponsePart>, ModelTextError> {
    let mut parts = Vec::new();
    let mut rest = content;
    let mut found = false;
    while let Some(o) = rest.find(OPEN_TAG) {
        let after = rest.get(o + OPEN_TAG.len()..).unwrap_or_default();
        let Some(c) = after.find(CLOSE_TAG) else {
            break;
        };
        found = true;
        let text = rest.get(..o).unwrap_or_default().trim().to_owned();
        let json = sanitize_json_string(after.get(..c).unwrap_or_default());
        if json.is_empty() {
            return Err(ModelTextError::Parse("A2UI JSON part is empty.".to_owned()));
        }
        parts.push(ResponsePart {
            text,
            a2ui: Some(fix_payload(json)?),
        });
        rest = after.get(c + CLOSE_TAG.len()..).unwrap_or_default();
    }
    if !found {
        return Err(ModelTextError::Parse(format!(
            "A2UI tags '{OPEN_TAG}' and '{CLOSE_TAG}' not found in response."
        )));
    }
    let trailing = rest.trim();
    if !trailing.is_empty() {
        parts.push(ResponsePart {
            text: trailing.to_owned(),
            a2ui: None,
        });
    }
    Ok(parts)
}

/// Parse an A2UI payload a model wrote, repairing what models commonly get wrong: smart
/// quotes and trailing commas. A single object is wrapped in a list.
pub fn fix_payload(payload: &str) -> Result<Vec<Value>, ModelTextError> {
    let normalized = payload
        .replace(['\u{201C}', '\u{201D}'], "\"")
        .replace(['\u{2018}', '\u{2019}'], "'");
    let parse = |s: &str| match serde_json::from_str::<Value>(s) {
        Ok(Value::Array(a)) => Ok(a),
        Ok(other) => Ok(vec![other]),
        Err(e) => Err(ModelTextError::Parse(e.to_string())),
    };
    match parse(&normalized) {
        Ok(v) => Ok(v),
        Err(_) => parse(&remove_trailing_commas(&normalized)),
    }
}

/// `,(?=\s*[\]}])` removed, as the reference does (strings included).
fn remove_trailing_commas(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for (i, c) in s.char_indices() {
        if c == ',' {
            let rest = s.get(i + 1..).unwrap_or_default().trim_start();
            if rest.starts_with(']') || rest.starts_with('}') {
                continue;
            }
        }
        out.push(c);
    }
    out
}
