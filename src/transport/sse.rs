//! A sans-IO Server-Sent Events decoder (the WHATWG `text/event-stream` format) with the
//! crate's size caps: feed it bytes as they arrive, cut anywhere, and take the events.
//!
//! ```
//! use egui_a2ui::transport::sse::SseDecoder;
//!
//! let mut d = SseDecoder::new(1024);
//! let mut events = d.feed(b"data: {\"a\":");
//! assert!(events.is_empty());
//! events = d.feed(b"1}\n\n");
//! assert_eq!(events[0].as_ref().unwrap().data, "{\"a\":1}");
//! ```

use super::TransportError;

/// One dispatched event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SseEvent {
    /// The `event:` field (`None` means the default type, `message`).
    pub event: Option<String>,
    /// The `data:` lines joined with `\n`.
    pub data: String,
    /// The `id:` field, when given.
    pub id: Option<String>,
}

/// The decoder: line framing, field parsing, dispatch on a blank line. An event whose data
/// grows past the cap is dropped (its remaining lines are skipped) and reported once as
/// [`TransportError::TooLarge`]; bytes that are not UTF-8 are reported as
/// [`TransportError::MalformedSse`]. Both leave the decoder ready for the next event.
#[derive(Debug)]
pub struct SseDecoder {
    max_event_bytes: usize,
    line: Vec<u8>,
    data: String,
    has_data: bool,
    event: Option<String>,
    id: Option<String>,
    skipping: bool,
    refused_line: bool,
    after_cr: bool,
    events_seen: u64,
}

impl SseDecoder {
    /// A decoder whose events (and lines) may hold at most `max_event_bytes` bytes.
    pub fn new(max_event_bytes: usize) -> Self {
        Self {
            max_event_bytes,
            line: Vec::new(),
            data: String::new(),
            has_data: false,
            event: None,
            id: None,
            skipping: false,
            refused_line: false,
            after_cr: false,
            events_seen: 0,
        }
    }

    /// How many events were dispatched so far (including refused ones).
    pub fn events_seen(&self) -> u64 {
        self.events_seen
    }

    /// Whether a partial event (or line) is buffered: the stream ended mid-event when this is
    /// true at its end.
    pub fn has_partial(&self) -> bool {
        !self.line.is_empty() || self.has_data || self.skipping
    }

    /// Feed bytes; returns the events (or per-event errors) completed by them.
    pub fn feed(&mut self, bytes: &[u8]) -> Vec<Result<SseEvent, TransportError>> {
        let mut out = Vec::new();
        let mut rest = bytes;
        while !rest.is_empty() {
            // A "\r\n" split across two feeds: the "\n" ends nothing.
            if self.after_cr {
                self.after_cr = false;
                if rest[0] == b'\n' {
                    rest = &rest[1..];
                    continue;
                }
            }
            match memchr::memchr2(b'\n', b'\r', rest) {
                None => {
                    self.push_line_bytes(rest, &mut out);
                    break;
                }
                Some(i) => {
                    self.push_line_bytes(&rest[..i], &mut out);
                    if rest[i] == b'\r' {
                        if rest.get(i + 1) == Some(&b'\n') {
                            rest = &rest[i + 2..];
                        } else {
                            if i + 1 == rest.len() {
                                self.after_cr = true;
                            }
                            rest = &rest[i + 1..];
                        }
                    } else {
                        rest = &rest[i + 1..];
                    }
                    self.end_line(&mut out);
                }
            }
        }
        out
    }

    fn push_line_bytes(&mut self, bytes: &[u8], out: &mut Vec<Result<SseEvent, TransportError>>) {
        if self.skipping {
            return;
        }
        if self.line.len() + bytes.len() > self.max_event_bytes {
            self.refuse(out);
            // The rest of this line is skipped; its end is not a blank line.
            self.refused_line = true;
            return;
        }
        self.line.extend_from_slice(bytes);
    }

    fn refuse(&mut self, out: &mut Vec<Result<SseEvent, TransportError>>) {
        self.skipping = true;
        self.line.clear();
        self.data.clear();
        self.has_data = false;
        out.push(Err(TransportError::TooLarge {
            what: "SSE event",
            limit: self.max_event_bytes,
        }));
    }

    fn end_line(&mut self, out: &mut Vec<Result<SseEvent, TransportError>>) {
        let line = std::mem::take(&mut self.line);
        if std::mem::take(&mut self.refused_line) {
            return;
        }
        if line.is_empty() {
            // Blank line: dispatch.
            if self.skipping {
                self.skipping = false;
                self.events_seen += 1;
                self.event = None;
                return;
            }
            if self.has_data {
                self.events_seen += 1;
                out.push(Ok(SseEvent {
                    event: self.event.take(),
                    data: std::mem::take(&mut self.data),
                    id: self.id.clone(),
                }));
            }
            self.has_data = false;
            self.data.clear();
            self.event = None;
            return;
        }
        if self.skipping {
            return;
        }
        let Ok(line) = String::from_utf8(line) else {
            self.skipping = true;
            self.data.clear();
            self.has_data = false;
            out.push(Err(TransportError::MalformedSse(
                "a line of the event stream is not UTF-8".into(),
            )));
            return;
        };
        if line.starts_with(':') {
            return; // comment / keep-alive
        }
        let (field, value) = match line.split_once(':') {
            Some((f, v)) => (f, v.strip_prefix(' ').unwrap_or(v)),
            None => (line.as_str(), ""),
        };
        match field {
            "data" => {
                if self.data.len() + value.len() + 1 > self.max_event_bytes {
                    self.refuse(out);
                    return;
                }
                if self.has_data {
                    self.data.push('\n');
                }
                self.data.push_str(value);
                self.has_data = true;
            }
            "event" => self.event = Some(value.to_owned()),
            "id" if !value.contains('\0') => self.id = Some(value.to_owned()),
            _ => {} // `retry` and unknown fields are ignored, as the format says.
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn datas(d: &mut SseDecoder, bytes: &[u8]) -> Vec<String> {
        d.feed(bytes)
            .into_iter()
            .map(|e| e.map(|e| e.data).unwrap_or_else(|e| format!("ERR {e}")))
            .collect()
    }

    #[test]
    fn events_cut_anywhere_come_out_whole() {
        let stream =
            b"event: x\r\ndata: one\r\ndata: two\r\n\r\n: keep-alive\n\ndata:three\r\rdata: 4\n\n";
        for cut in 0..stream.len() {
            let mut d = SseDecoder::new(1024);
            let mut got = datas(&mut d, &stream[..cut]);
            got.extend(datas(&mut d, &stream[cut..]));
            assert_eq!(got, ["one\ntwo", "three", "4"], "cut at {cut}");
        }
    }

    #[test]
    fn event_type_and_id_are_kept() {
        let mut d = SseDecoder::new(1024);
        let e = d.feed(b"id: 7\nevent: message\ndata: x\n\n");
        let e = e[0].as_ref().unwrap();
        assert_eq!(e.event.as_deref(), Some("message"));
        assert_eq!(e.id.as_deref(), Some("7"));
    }

    #[test]
    fn an_oversized_event_is_refused_once_and_the_next_one_decodes() {
        let mut d = SseDecoder::new(16);
        let mut stream = b"data: ".to_vec();
        stream.extend(std::iter::repeat_n(b'x', 100));
        stream.extend(b"\ndata: more\n\ndata: ok\n\n");
        let got = d.feed(&stream);
        assert_eq!(got.len(), 2);
        assert!(matches!(
            got[0],
            Err(TransportError::TooLarge { limit: 16, .. })
        ));
        assert_eq!(got[1].as_ref().unwrap().data, "ok");
    }

    #[test]
    fn non_utf8_is_a_typed_error_and_decoding_goes_on() {
        let mut d = SseDecoder::new(64);
        let got = d.feed(b"data: \xff\xfe\n\ndata: fine\n\n");
        assert!(matches!(got[0], Err(TransportError::MalformedSse(_))));
        assert_eq!(got[1].as_ref().unwrap().data, "fine");
    }

    #[test]
    fn a_partial_event_is_visible_at_the_end() {
        let mut d = SseDecoder::new(64);
        assert!(d.feed(b"data: half").is_empty());
        assert!(d.has_partial());
    }
}
