//! Framing: turning bytes into JSON messages.
//!
//! Accepted forms: JSONL (one message per line, blank lines skipped, CRLF ok), a JSON
//! array of messages, `{"messages": [...]}`, the example-file form
//! `{name, description, messages}`, a single message object, and an incremental
//! [`StreamDecoder`] that takes arbitrary byte chunks. A malformed line yields an error for
//! that line and the stream goes on. A UTF-8 byte order mark at the start of the stream (or
//! of any line) is skipped.
//!
//! Every message, in every framing, is held to [`Limits::max_message_bytes`] and
//! [`Limits::max_json_depth`] before it is parsed. Array documents are split into elements
//! by a byte scanner (strings and brackets only, no recursion), so one oversized or
//! too-deep element is an error for itself alone and never costs a parse.
//!
//! ```
//! use egui_a2ui::{Limits, stream::StreamDecoder};
//!
//! let mut decoder = StreamDecoder::new(Limits::default());
//! // Chunks arrive cut anywhere, even inside a message.
//! let mut messages = decoder.feed(br#"{"version":"v0.9","deleteSurface":{"surf"#);
//! assert!(messages.is_empty());
//! messages.extend(decoder.feed(b"aceId\":\"s\"}}\nnot json\n"));
//! messages.extend(decoder.finish());
//! assert_eq!(messages.len(), 2);
//! assert_eq!(messages[0].as_ref().unwrap()["deleteSurface"]["surfaceId"], "s");
//! assert!(messages[1].is_err()); // a bad line is an error for that line only
//! ```

use serde_json::Value;

pub mod model_text;

use crate::error::A2uiError;
use crate::limits::Limits;

/// One framed item: a parsed JSON message or the error for that message's bytes.
pub type Framed = Result<Value, A2uiError>;

/// One framed message's text, before it is parsed: the message's JSON text (held to the
/// size and depth limits, valid UTF-8, not yet checked to be JSON), or the error for its
/// bytes. [`crate::protocol::parse_message_text`] parses it straight into the message types;
/// this is what the hot paths ([`crate::model::SurfaceStore::feed_document`],
/// [`crate::render::Renderer::feed_jsonl`]) frame into.
pub type FramedText<'a> = Result<&'a str, A2uiError>;

/// The UTF-8 byte order mark some editors and HTTP stacks put before a document.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// One agent message as it reaches [`SurfaceStore::apply`](crate::model::SurfaceStore::apply), the
/// one way in: a parsed JSON value, its JSON text (parsed straight into the message types,
/// without a `Value`), or the error that kept a message from being framed (numbered and
/// reported like a rejected message). Every framing of this module converts into it.
#[derive(Clone, Debug, PartialEq)]
pub enum Frame<'a> {
    /// A message as a JSON value (moved into the surface).
    Value(Value),
    /// A message as its JSON text.
    Text(&'a str),
    /// A message yielded from model text, applied as it is (shared with whoever reports
    /// it; a partial component update straight from the components it holds).
    Model(&'a crate::stream::model_text::ModelMessage),
    /// A message that could not be framed.
    Error(A2uiError),
}

impl From<Value> for Frame<'_> {
    fn from(v: Value) -> Self {
        Self::Value(v)
    }
}

/// The value is cloned.
impl From<&Value> for Frame<'_> {
    fn from(v: &Value) -> Self {
        Self::Value(v.clone())
    }
}

impl<'a> From<&'a crate::stream::model_text::ModelMessage> for Frame<'a> {
    fn from(m: &'a crate::stream::model_text::ModelMessage) -> Self {
        Self::Model(m)
    }
}

impl<'a> From<&'a str> for Frame<'a> {
    fn from(text: &'a str) -> Self {
        Self::Text(text)
    }
}

impl From<A2uiError> for Frame<'_> {
    fn from(e: A2uiError) -> Self {
        Self::Error(e)
    }
}

impl From<Framed> for Frame<'_> {
    fn from(f: Framed) -> Self {
        f.map_or_else(Self::Error, Self::Value)
    }
}

impl<'a> From<FramedText<'a>> for Frame<'a> {
    fn from(f: FramedText<'a>) -> Self {
        f.map_or_else(Self::Error, Self::Text)
    }
}

/// Split a whole document into messages, detecting its form.
pub fn parse_document(bytes: &[u8], limits: &Limits) -> Vec<Framed> {
    let mut out = Vec::new();
    for_each_message(bytes, limits, |f| out.push(f));
    out
}

/// [`parse_document`], handing each message to `f` as soon as it is framed instead of
/// collecting them (a JSONL document is then never held in memory as values all at once).
///
/// A leading byte order mark is skipped. Every message is held to
/// [`Limits::max_message_bytes`] and [`Limits::max_json_depth`] before it is parsed,
/// whatever the framing: a JSONL line, an element of a JSON array, an element of
/// `{"messages": [...]}`, or a whole single-message document. An element over a limit is
/// an error for that element only; the others are applied.
pub fn for_each_message(bytes: &[u8], limits: &Limits, mut f: impl FnMut(Framed)) {
    for_each_message_text(bytes, limits, |t| f(t.and_then(parse_json)));
}

/// [`for_each_message`] without parsing: each message's text (or the error for its bytes)
/// is handed to `f` as soon as it is framed. Text that is not JSON is passed on; the parser
/// reports it.
pub fn for_each_message_text(bytes: &[u8], limits: &Limits, mut f: impl FnMut(FramedText<'_>)) {
    let trimmed = trim_ascii(strip_bom(trim_ascii(bytes)));
    match frame_document(trimmed) {
        Some(Document::Elements(spans)) => {
            for (start, end, depth) in spans {
                let element = trimmed.get(start..end).unwrap_or_default();
                f(check_element(element, depth, limits));
            }
        }
        Some(Document::MessagesNotArray) => f(Err(A2uiError::validation(
            "/messages",
            "messages must be an array",
        ))),
        Some(Document::Single(depth)) => f(check_element(trimmed, depth, limits)),
        None => {
            let mut dec = StreamDecoder::new(limits.clone());
            dec.feed_text_each(bytes, &mut f);
            dec.finish_text(f);
        }
    }
}

/// One element of an array document: its byte range and nesting depth.
type Element = (usize, usize, usize);

/// How a whole document is framed, found from its bytes alone (nothing is parsed yet).
enum Document {
    /// A JSON array, or the `messages` array of a wrapper: each element's byte range and
    /// nesting depth.
    Elements(Vec<Element>),
    /// A wrapper whose `messages` is not an array.
    MessagesNotArray,
    /// One message object, of this nesting depth.
    Single(usize),
}

/// Frame a trimmed document that is one JSON array or object; `None` for anything else
/// (JSONL, or bytes whose brackets do not balance), which is then read line by line.
fn frame_document(b: &[u8]) -> Option<Document> {
    match b.first()? {
        b'[' => {
            let (elements, end) = array_elements(b, 0)?;
            (end == b.len()).then_some(Document::Elements(elements))
        }
        b'{' => {
            let (messages, end) = object_messages(b)?;
            if end != b.len() {
                return None;
            }
            match messages {
                Some(start) if b.get(start) == Some(&b'[') => {
                    Some(Document::Elements(array_elements(b, start)?.0))
                }
                Some(_) => Some(Document::MessagesNotArray),
                None => Some(Document::Single(scan_value(b, 0)?.1)),
            }
        }
        _ => None,
    }
}

fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while b.get(i).is_some_and(u8::is_ascii_whitespace) {
        i += 1;
    }
    i
}

/// The end (exclusive) of the string literal starting at `start`.
fn skip_string(b: &[u8], start: usize) -> Option<usize> {
    let mut i = start + 1;
    loop {
        i += memchr::memchr2(b'"', b'\\', b.get(i..)?)?;
        match b.get(i)? {
            b'\\' => i += 2,
            _ => return Some(i + 1),
        }
    }
}

/// Where the JSON value starting at `start` ends (exclusive) and how deeply its arrays and
/// objects nest (`0` for a scalar), read from the bytes without parsing or recursing.
/// `None` when it does not end. Only strings and brackets are checked; the parser judges
/// the rest.
fn scan_value(b: &[u8], start: usize) -> Option<(usize, usize)> {
    match b.get(start)? {
        b'"' => Some((skip_string(b, start)?, 0)),
        b'[' | b'{' => {
            let (mut depth, mut max, mut i) = (0usize, 0usize, start);
            while let Some(c) = b.get(i) {
                match c {
                    b'"' => {
                        i = skip_string(b, i)?;
                        continue;
                    }
                    b'[' | b'{' => {
                        depth += 1;
                        max = max.max(depth);
                    }
                    b']' | b'}' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some((i + 1, max));
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
            None
        }
        _ => {
            let len = b
                .get(start..)?
                .iter()
                .position(|c| matches!(c, b',' | b']' | b'}') || c.is_ascii_whitespace())
                .unwrap_or(b.len() - start);
            Some((start + len, 0))
        }
    }
}

/// The elements of the array opening at `open`: `(start, end, depth)` each, and the end of
/// the array.
fn array_elements(b: &[u8], open: usize) -> Option<(Vec<Element>, usize)> {
    let mut out = Vec::new();
    let mut i = skip_ws(b, open + 1);
    if b.get(i) == Some(&b']') {
        return Some((out, i + 1));
    }
    loop {
        let (end, depth) = scan_value(b, i)?;
        if end == i {
            return None;
        }
        out.push((i, end, depth));
        i = skip_ws(b, end);
        match b.get(i)? {
            b',' => i = skip_ws(b, i + 1),
            b']' => return Some((out, i + 1)),
            _ => return None,
        }
    }
}

/// The members of the object at the start of `b`: where the value of its `messages` key
/// starts (if it has one), and the end of the object.
fn object_messages(b: &[u8]) -> Option<(Option<usize>, usize)> {
    let mut messages = None;
    let mut i = skip_ws(b, 1);
    if b.get(i) == Some(&b'}') {
        return Some((None, i + 1));
    }
    loop {
        if b.get(i) != Some(&b'"') {
            return None;
        }
        let key_end = skip_string(b, i)?;
        let key = b.get(i..key_end)?;
        let is_messages = key == b"\"messages\""
            || (key.contains(&b'\\')
                && serde_json::from_slice::<String>(key).is_ok_and(|k| k == "messages"));
        i = skip_ws(b, key_end);
        if b.get(i) != Some(&b':') {
            return None;
        }
        i = skip_ws(b, i + 1);
        let (end, _) = scan_value(b, i)?;
        if end == i {
            return None;
        }
        if is_messages {
            messages = Some(i);
        }
        i = skip_ws(b, end);
        match b.get(i)? {
            b',' => i = skip_ws(b, i + 1),
            b'}' => return Some((messages, i + 1)),
            _ => return None,
        }
    }
}

/// Whether one message's arrays and objects may nest deeper than `max`: exact
/// ([`json_depth`]) only when the message has more than `max` opening brackets at all, which
/// a quick count (strings not skipped) tells first.
fn deeper_than(b: &[u8], max: usize) -> Option<usize> {
    // A SIMD scan: this runs over every byte of every message.
    let opening = memchr::memchr2_iter(b'[', b'{', b).count();
    if opening <= max {
        return None;
    }
    let depth = json_depth(b);
    (depth > max).then_some(depth)
}

/// How deeply the arrays and objects of one message's bytes nest (strings skipped).
pub fn json_depth(b: &[u8]) -> usize {
    let (mut depth, mut max, mut i) = (0usize, 0usize, 0usize);
    while let Some(c) = b.get(i) {
        match c {
            b'"' => match skip_string(b, i) {
                Some(end) => {
                    i = end;
                    continue;
                }
                None => break,
            },
            b'[' | b'{' => {
                depth += 1;
                max = max.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    max
}

/// One message's bytes of known nesting depth, checked against the limits and for UTF-8.
fn check_element<'a>(bytes: &'a [u8], depth: usize, limits: &Limits) -> FramedText<'a> {
    if bytes.len() > limits.max_message_bytes {
        return Err(A2uiError::LimitExceeded {
            what: "max_message_bytes",
            limit: limits.max_message_bytes,
            actual: bytes.len(),
        });
    }
    if depth > limits.max_json_depth {
        return Err(A2uiError::LimitExceeded {
            what: "max_json_depth",
            limit: limits.max_json_depth,
            actual: depth,
        });
    }
    std::str::from_utf8(bytes).map_err(|e| A2uiError::Json(format!("invalid UTF-8: {e}")))
}

/// One message's text parsed as a JSON value.
fn parse_json(text: &str) -> Framed {
    serde_json::from_str(text).map_err(|e| A2uiError::Json(e.to_string()))
}

fn strip_bom(b: &[u8]) -> &[u8] {
    b.strip_prefix(BOM).unwrap_or(b)
}

fn trim_ascii(b: &[u8]) -> &[u8] {
    let start = b
        .iter()
        .position(|c| !c.is_ascii_whitespace())
        .unwrap_or(b.len());
    let end = b
        .iter()
        .rposition(|c| !c.is_ascii_whitespace())
        .map_or(start, |e| e + 1);
    b.get(start..end).unwrap_or_default()
}

/// Parse one line (or one message's bytes) as JSON, enforcing the message size and depth
/// limits. A byte order mark at its start is skipped.
pub fn parse_line(line: &[u8], limits: &Limits) -> Framed {
    line_text(line, limits).and_then(parse_json)
}

/// [`parse_line`] without the parse: the line's text, checked against the limits.
fn line_text<'a>(line: &'a [u8], limits: &Limits) -> FramedText<'a> {
    let line = trim_ascii(strip_bom(trim_ascii(line)));
    if line.len() > limits.max_message_bytes {
        // Too big to be worth scanning for its depth.
        return check_element(line, 0, limits);
    }
    // Only a depth past the limit matters here.
    let depth = deeper_than(line, limits.max_json_depth).unwrap_or(0);
    check_element(line, depth, limits)
}

/// An incremental JSONL decoder: feed it byte chunks as they arrive, get back every
/// complete message. A line split across chunks is buffered until its newline.
#[derive(Debug)]
pub struct StreamDecoder {
    buf: Vec<u8>,
    limits: Limits,
    /// Set while skipping the rest of an over-long line.
    discarding: bool,
}

impl StreamDecoder {
    /// A decoder with these limits.
    pub fn new(limits: Limits) -> Self {
        Self {
            buf: Vec::new(),
            limits,
            discarding: false,
        }
    }

    /// Bytes buffered for an incomplete line.
    pub fn pending(&self) -> usize {
        self.buf.len()
    }

    /// Feed a chunk; returns the messages (and errors) of every line it completed.
    pub fn feed(&mut self, chunk: &[u8]) -> Vec<Framed> {
        let mut out = Vec::new();
        self.feed_each(chunk, |f| out.push(f));
        out
    }

    /// [`Self::feed`], handing each message to `out` as soon as its line is complete.
    pub fn feed_each(&mut self, chunk: &[u8], mut out: impl FnMut(Framed)) {
        self.feed_text_each(chunk, |t| out(t.and_then(parse_json)));
    }

    /// [`Self::feed_each`] without parsing: each complete line's text (or the error for its
    /// bytes) is handed to `out`. Text that is not JSON is passed on; the parser reports it.
    pub fn feed_text_each(&mut self, chunk: &[u8], mut out: impl FnMut(FramedText<'_>)) {
        let mut rest = chunk;
        while let Some(pos) = memchr::memchr(b'\n', rest) {
            let (head, tail) = rest.split_at(pos);
            rest = tail.get(1..).unwrap_or_default();
            if self.discarding {
                self.discarding = false;
                self.buf.clear();
                continue;
            }
            if self.buf.len() + head.len() > self.limits.max_line_bytes {
                self.buf.clear();
                out(Err(self.too_long(head.len())));
                continue;
            }
            // A whole line inside the chunk is parsed where it lies; only a line split
            // across chunks goes through the buffer.
            if self.buf.is_empty() {
                if let Some(item) = self.line(head) {
                    out(item);
                }
            } else {
                self.buf.extend_from_slice(head);
                let line = std::mem::take(&mut self.buf);
                if let Some(item) = self.line(&line) {
                    out(item);
                }
                // Keep the buffer's capacity for the next split line.
                self.buf = line;
                self.buf.clear();
            }
        }
        if !rest.is_empty() && !self.discarding {
            if self.buf.len() + rest.len() > self.limits.max_line_bytes {
                let n = self.buf.len() + rest.len();
                self.buf.clear();
                self.discarding = true;
                out(Err(self.too_long(n)));
            } else {
                self.buf.extend_from_slice(rest);
            }
        }
    }

    /// End of stream: a final line without a newline is parsed; a cut-off message becomes
    /// an error (everything before it stays applied).
    pub fn finish(&mut self) -> Vec<Framed> {
        let mut out = Vec::new();
        self.finish_text(|t| out.push(t.and_then(parse_json)));
        out
    }

    /// [`Self::finish`] without parsing: the final line's text, if any, is handed to `out`.
    pub fn finish_text(&mut self, mut out: impl FnMut(FramedText<'_>)) {
        self.discarding = false;
        let line = std::mem::take(&mut self.buf);
        if let Some(item) = self.line(&line) {
            out(item);
        }
    }

    fn too_long(&self, n: usize) -> A2uiError {
        A2uiError::LimitExceeded {
            what: "max_line_bytes",
            limit: self.limits.max_line_bytes,
            actual: n,
        }
    }

    fn line<'a>(&self, line: &'a [u8]) -> Option<FramedText<'a>> {
        // A byte order mark may start the stream, or any line (concatenated files).
        let line = trim_ascii(strip_bom(trim_ascii(line)));
        if line.is_empty() {
            return None;
        }
        Some(line_text(line, &self.limits))
    }
}
