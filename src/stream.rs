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

/// The UTF-8 byte order mark some editors and HTTP stacks put before a document.
const BOM: &[u8] = b"\xEF\xBB\xBF";

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
    let trimmed = trim_ascii(strip_bom(trim_ascii(bytes)));
    match frame_document(trimmed) {
        Some(Document::Elements(spans)) => {
            for (start, end, depth) in spans {
                let element = trimmed.get(start..end).unwrap_or_default();
                f(parse_element(element, depth, limits));
            }
        }
        Some(Document::MessagesNotArray) => f(Err(A2uiError::validation(
            "/messages",
            "messages must be an array",
        ))),
        Some(Document::Single(depth)) => f(parse_element(trimmed, depth, limits)),
        None => {
            let mut dec = StreamDecoder::new(limits.clone());
            dec.feed_each(bytes, &mut f);
            dec.finish().into_iter().for_each(f);
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
        match b.get(i)? {
            b'\\' => i += 2,
            b'"' => return Some(i + 1),
            _ => i += 1,
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

/// One message's bytes of known nesting depth, checked against the limits, then parsed.
fn parse_element(bytes: &[u8], depth: usize, limits: &Limits) -> Framed {
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
    let text =
        std::str::from_utf8(bytes).map_err(|e| A2uiError::Json(format!("invalid UTF-8: {e}")))?;
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
    let line = trim_ascii(strip_bom(trim_ascii(line)));
    if line.len() > limits.max_message_bytes {
        // Too big to be worth scanning for its depth.
        return parse_element(line, 0, limits);
    }
    parse_element(line, json_depth(line), limits)
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
        let mut rest = chunk;
        while let Some(pos) = rest.iter().position(|b| *b == b'\n') {
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
            let item = if self.buf.is_empty() {
                self.line(head)
            } else {
                self.buf.extend_from_slice(head);
                let line = std::mem::take(&mut self.buf);
                self.line(&line)
            };
            if let Some(item) = item {
                out(item);
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
        self.discarding = false;
        let line = std::mem::take(&mut self.buf);
        self.line(&line).into_iter().collect()
    }

    fn too_long(&self, n: usize) -> A2uiError {
        A2uiError::LimitExceeded {
            what: "max_line_bytes",
            limit: self.limits.max_line_bytes,
            actual: n,
        }
    }

    fn line(&self, line: &[u8]) -> Option<Framed> {
        // A byte order mark may start the stream, or any line (concatenated files).
        let line = trim_ascii(strip_bom(trim_ascii(line)));
        if line.is_empty() {
            return None;
        }
        Some(parse_line(line, &self.limits))
    }
}
