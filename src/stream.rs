//! Framing: turning bytes into JSON messages.
//!
//! Accepted forms: JSONL (one message per line, blank lines skipped, CRLF ok), a JSON
//! array of messages, `{"messages": [...]}`, the example-file form
//! `{name, description, messages}`, a single message object, and an incremental
//! [`StreamDecoder`] that takes arbitrary byte chunks. A malformed line yields an error for
//! that line and the stream goes on.

use serde_json::Value;

pub mod model_text;

use crate::error::A2uiError;
use crate::limits::Limits;

/// One framed item: a parsed JSON message or the error for that message's bytes.
pub type Framed = Result<Value, A2uiError>;

/// Split a whole document into messages, detecting its form.
pub fn parse_document(bytes: &[u8], limits: &Limits) -> Vec<Framed> {
    let mut out = Vec::new();
    for_each_message(bytes, limits, |f| out.push(f));
    out
}

/// [`parse_document`], handing each message to `f` as soon as it is framed instead of
/// collecting them (a JSONL document is then never held in memory as values all at once).
pub fn for_each_message(bytes: &[u8], limits: &Limits, mut f: impl FnMut(Framed)) {
    let trimmed = trim_ascii(bytes);
    if trimmed.first().is_some_and(|b| *b == b'[' || *b == b'{')
        && let Ok(v) = serde_json::from_slice::<Value>(trimmed)
    {
        match v {
            Value::Array(items) => items.into_iter().for_each(|m| f(check_size(m, limits))),
            Value::Object(mut o) => match o.remove("messages") {
                Some(Value::Array(items)) => {
                    items.into_iter().for_each(|m| f(check_size(m, limits)));
                }
                Some(other) => {
                    o.insert("messages".to_owned(), other);
                    f(Err(A2uiError::validation(
                        "/messages",
                        "messages must be an array",
                    )));
                }
                None => f(check_size(Value::Object(o), limits)),
            },
            other => f(Err(A2uiError::validation(
                "",
                format!("a document must be a message, an array or a wrapper, not {other}"),
            ))),
        }
        return;
    }
    let mut dec = StreamDecoder::new(limits.clone());
    dec.feed_each(bytes, &mut f);
    dec.finish().into_iter().for_each(f);
}

fn check_size(v: Value, _limits: &Limits) -> Framed {
    Ok(v)
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

/// Parse one line (or one message's bytes) as JSON, enforcing the message size limit.
pub fn parse_line(line: &[u8], limits: &Limits) -> Framed {
    if line.len() > limits.max_message_bytes {
        return Err(A2uiError::LimitExceeded {
            what: "max_message_bytes",
            limit: limits.max_message_bytes,
            actual: line.len(),
        });
    }
    let text =
        std::str::from_utf8(line).map_err(|e| A2uiError::Json(format!("invalid UTF-8: {e}")))?;
    serde_json::from_str(text).map_err(|e| A2uiError::Json(e.to_string()))
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
        let line = trim_ascii(line);
        if line.is_empty() {
            return None;
        }
        Some(parse_line(line, &self.limits))
    }
}
