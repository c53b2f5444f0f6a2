//! Conversations that last: [`Agent::save`] writes the thread and, per store, the A2UI
//! messages that rebuild each surface as a versioned JSONL document; [`Agent::restore`]
//! reads one back into an [`Agent`] over a read-only [`Restored`] connection.
//!
//! The document, one JSON value a line:
//!
//! ```text
//! {"format":"egui_a2ui.conversation","version":1,"kind":"A2A","origin":{"name":"…","host":"…"},"stores":1,"entries":5}
//! {"store":0,"message":{"version":"v0.9","createSurface":{…}}}
//! {"store":0,"message":{"version":"v0.9","updateComponents":{…}}}
//! {"store":0,"message":{"version":"v0.9","updateDataModel":{"surfaceId":"…","path":"/","value":{…}}}}
//! {"entry":{"type":"user","text":"find pasta"}}
//! {"entry":{"type":"surface","store":0,"surfaceId":"results"}}
//! ```
//!
//! Each surface is written as the messages of its own protocol version that rebuild it as
//! it is now (v0.9 / v1.0: `createSurface`, `updateComponents` with every component in its
//! wire form, `updateDataModel` of the whole model at `/`; v0.8: `surfaceUpdate`,
//! `dataModelUpdate`, `beginRendering`), so a restored store dumps
//! ([`conformance::dump_surface`](crate::conformance::dump_surface)) as the saved one did.
//! Reading is bounded: the document by [`MAX_CONVERSATION_BYTES`], each line by
//! [`Limits::max_message_bytes`], the stores by [`Limits::max_surfaces`], the entries by
//! [`DEFAULT_MAX_ENTRIES`](super::DEFAULT_MAX_ENTRIES); every message goes through
//! [`SurfaceStore::apply`], and anything wrong is a [`RestoreError`].

use std::collections::HashMap;

use serde_json::{Map, Value, json};

use super::{Agent, AgentConnection, ConnectionStatus, ThreadEntry};
use crate::limits::Limits;
use crate::model::{AgentOrigin, Applied, StoreId, Surface, SurfaceStore};
use crate::protocol::Version;
use crate::transport::{Lifecycle, TaskState, TransportError, TransportEvent, Turn};

/// The `format` of a conversation document's first line.
pub const CONVERSATION_FORMAT: &str = "egui_a2ui.conversation";
/// The document version this crate writes and reads.
pub const CONVERSATION_VERSION: u64 = 1;
/// The largest conversation document read (bytes).
pub const MAX_CONVERSATION_BYTES: usize = 64 * 1024 * 1024;

/// Why a conversation document could not be restored.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum RestoreError {
    /// Not a conversation document (no header line, or another `format`).
    #[error("not an egui_a2ui conversation document")]
    NotAConversation,
    /// A conversation of a version this crate does not read.
    #[error(
        "conversation version {found} is not supported (this crate reads version {CONVERSATION_VERSION})"
    )]
    Version {
        /// The version found.
        found: String,
    },
    /// Over a bound ([`MAX_CONVERSATION_BYTES`] or the store's limits).
    #[error("{what} over the limit of {limit}")]
    TooLarge {
        /// What was too large.
        what: &'static str,
        /// The bound.
        limit: usize,
    },
    /// A line that is not what the format says.
    #[error("line {line}: {message}")]
    Malformed {
        /// The line (1-based).
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// A surface message the store refused.
    #[error("line {line}: surface message refused: {message}")]
    Message {
        /// The line (1-based).
        line: usize,
        /// The store's error.
        message: String,
    },
}

/// The read-only connection of a restored conversation: its surfaces are drawn as they
/// were (the panel disables their inputs), and every turn is refused until the host
/// [resumes](Agent::resume_with) the agent with a live connection.
#[derive(Debug)]
pub struct Restored {
    origin: Option<AgentOrigin>,
}

impl AgentConnection for Restored {
    fn kind(&self) -> &'static str {
        "Restored"
    }
    fn origin(&self) -> Option<AgentOrigin> {
        self.origin.clone()
    }
    fn status(&self) -> ConnectionStatus {
        ConnectionStatus::Ready
    }
    fn send(&mut self, _turn: Turn) -> Result<(), TransportError> {
        Err(TransportError::Unsupported(
            "a restored conversation is read-only: resume it with a connection".into(),
        ))
    }
    fn cancel(&mut self) -> Result<(), TransportError> {
        Ok(())
    }
    fn poll(&mut self) -> Vec<TransportEvent> {
        Vec::new()
    }
    fn state(&self) -> Option<&TaskState> {
        None
    }
    fn stores(&self) -> Vec<&SurfaceStore> {
        Vec::new()
    }
    fn stores_mut(&mut self) -> Vec<&mut SurfaceStore> {
        Vec::new()
    }
}

/// The messages of `s`'s own version that rebuild it as it is now (empty for a v0.8
/// surface before `beginRendering`).
pub fn surface_messages(s: &Surface) -> Vec<Value> {
    if s.version == Version::V0_8 {
        return surface_messages_v08(s);
    }
    let version = s.version.as_str();
    let mut create = Map::new();
    create.insert("surfaceId".into(), json!(s.id));
    if let Some(c) = &s.catalog_id {
        create.insert("catalogId".into(), json!(c));
    }
    if s.version != Version::V1_0 && !s.theme.is_empty() {
        create.insert("theme".into(), Value::Object(s.theme.clone()));
    }
    if s.send_data_model {
        create.insert("sendDataModel".into(), json!(true));
    }
    let mut out = vec![json!({"version": version, "createSurface": create})];
    let components: Vec<Value> = s
        .components()
        .values()
        .map(|c| {
            let mut o = Map::new();
            o.insert("id".into(), json!(c.id()));
            o.insert("component".into(), json!(c.wire_component()));
            for (k, v) in c.wire_props().to_map() {
                o.insert(k, v);
            }
            Value::Object(o)
        })
        .collect();
    if !components.is_empty() {
        out.push(json!({"version": version, "updateComponents": {
            "surfaceId": s.id, "components": components}}));
    }
    if !is_empty_model(s.data.root()) {
        out.push(json!({"version": version, "updateDataModel": {
            "surfaceId": s.id, "path": "/", "value": s.data.root()}}));
    }
    out
}

fn is_empty_model(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Object(o) => o.is_empty(),
        _ => false,
    }
}

fn surface_messages_v08(s: &Surface) -> Vec<Value> {
    if !s.began {
        return Vec::new();
    }
    let components: Vec<Value> = s
        .components()
        .values()
        .map(|c| {
            let mut props = c.wire_props().to_map();
            let weight = props.remove("weight");
            let mut o = Map::new();
            o.insert("id".into(), json!(c.id()));
            if let Some(w) = weight {
                o.insert("weight".into(), w);
            }
            o.insert(
                "component".into(),
                json!({ c.wire_component(): Value::Object(props) }),
            );
            Value::Object(o)
        })
        .collect();
    let mut out = Vec::new();
    if !components.is_empty() {
        out.push(json!({"surfaceUpdate": {"surfaceId": s.id, "components": components}}));
    }
    if !is_empty_model(s.data.root()) {
        out.push(json!({"dataModelUpdate": {"surfaceId": s.id, "path": "/",
            "contents": [{"key": "", "valueObject": s.data.root()}]}}));
    }
    let mut begin = Map::new();
    begin.insert("surfaceId".into(), json!(s.id));
    begin.insert("root".into(), json!(s.root_id));
    if let Some(c) = &s.catalog_id {
        begin.insert("catalogId".into(), json!(c));
    }
    if !s.theme.is_empty() {
        begin.insert("styles".into(), Value::Object(s.theme.clone()));
    }
    out.push(json!({ "beginRendering": begin }));
    out
}

fn entry_json(e: &ThreadEntry, index: &HashMap<StoreId, usize>) -> Option<Value> {
    Some(match e {
        ThreadEntry::User { text } => json!({"type": "user", "text": text}),
        ThreadEntry::UserAction { name, surface_id } => {
            json!({"type": "action", "name": name, "surfaceId": surface_id})
        }
        ThreadEntry::Agent { text } => json!({"type": "agent", "text": text}),
        ThreadEntry::Surface { store, surface_id } => {
            json!({"type": "surface", "store": index.get(store)?, "surfaceId": surface_id})
        }
        ThreadEntry::Error { error, retry } => {
            let retry = match retry.as_deref() {
                Some(Turn::Text(t)) => json!(t),
                _ => Value::Null,
            };
            json!({"type": "error", "message": error.to_string(), "retry": retry})
        }
        // An activity still building is not worth keeping; a failed one says why.
        ThreadEntry::Activity {
            status: Some(l), ..
        } if l.is_failed() => json!({"type": "failed", "errors": l.errors}),
        ThreadEntry::Activity { .. } => return None,
        ThreadEntry::Notice { text } => json!({"type": "notice", "text": text}),
    })
}

impl Agent {
    /// The conversation as a versioned JSONL document (see [`Agent::restore`]): the
    /// thread, and per store the messages that rebuild each of its surfaces. Read it back
    /// with [`Agent::restore`].
    pub fn save(&self) -> String {
        let stores = self.stores();
        let index: HashMap<StoreId, usize> = stores
            .iter()
            .enumerate()
            .map(|(i, s)| (s.id(), i))
            .collect();
        let entries: Vec<Value> = self
            .thread
            .iter()
            .filter_map(|e| entry_json(e, &index))
            .collect();
        let origin = self
            .origin()
            .map(|o| json!({"name": o.name(), "host": o.host()}));
        let (kind, continuation) = match self.conn.kind() {
            "Restored" => (self.saved_kind, self.saved_continuation.clone()),
            k => (k, self.conn.continuation()),
        };
        let mut header = json!({
            "format": CONVERSATION_FORMAT,
            "version": CONVERSATION_VERSION,
            "kind": kind,
            "origin": origin,
            "stores": stores.len(),
            "entries": entries.len(),
        });
        if let Some(c) = continuation {
            header["continuation"] = c;
        }
        let mut out = header.to_string();
        out.push('\n');
        for (i, store) in stores.iter().enumerate() {
            for s in store.surfaces() {
                for m in surface_messages(s) {
                    out.push_str(&json!({"store": i, "message": m}).to_string());
                    out.push('\n');
                }
            }
        }
        for e in entries {
            out.push_str(&json!({ "entry": e }).to_string());
            out.push('\n');
        }
        out
    }

    /// Read a document [`Agent::save`] wrote, with default [`Limits`]: an agent over a
    /// read-only [`Restored`] connection whose surfaces are as they were saved (drawn
    /// read-only, marked as past, see [`Agent::is_past`]). [`Agent::resume_with`] continues
    /// with a live connection.
    pub fn restore(
        doc: &str,
        catalog: &crate::render::catalog::Catalog,
    ) -> Result<Self, RestoreError> {
        Self::restore_with_limits(doc, catalog, Limits::default())
    }

    /// [`Agent::restore`] with these limits for the stores (and the line bound).
    pub fn restore_with_limits(
        doc: &str,
        catalog: &crate::render::catalog::Catalog,
        limits: Limits,
    ) -> Result<Self, RestoreError> {
        if doc.len() > MAX_CONVERSATION_BYTES {
            return Err(RestoreError::TooLarge {
                what: "conversation document (bytes)",
                limit: MAX_CONVERSATION_BYTES,
            });
        }
        let mut lines = doc
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty());
        let (_, header) = lines.next().ok_or(RestoreError::NotAConversation)?;
        let line_bound = limits.max_message_bytes;
        if header.len() > line_bound {
            return Err(RestoreError::NotAConversation);
        }
        let header: Value =
            serde_json::from_str(header).map_err(|_| RestoreError::NotAConversation)?;
        if header.get("format").and_then(Value::as_str) != Some(CONVERSATION_FORMAT) {
            return Err(RestoreError::NotAConversation);
        }
        match header.get("version") {
            Some(v) if v.as_u64() == Some(CONVERSATION_VERSION) => {}
            other => {
                let found: String = other
                    .map(Value::to_string)
                    .unwrap_or_else(|| "none".into())
                    .chars()
                    .take(40)
                    .collect();
                return Err(RestoreError::Version { found });
            }
        }
        let store_count = header.get("stores").and_then(Value::as_u64).unwrap_or(0);
        let max_stores = limits.max_surfaces.max(1);
        if store_count > max_stores as u64 {
            return Err(RestoreError::TooLarge {
                what: "stores",
                limit: max_stores,
            });
        }
        let origin = header.get("origin").and_then(|o| {
            let name = o.get("name")?.as_str()?;
            let origin = AgentOrigin::new(name);
            Some(match o.get("host").and_then(Value::as_str) {
                Some(h) => origin.with_host(h),
                None => origin,
            })
        });
        let saved_kind = match header.get("kind").and_then(Value::as_str) {
            Some("A2A") => "A2A",
            Some("AG-UI") => "AG-UI",
            Some("MCP") => "MCP",
            Some("MCP stdio") => "MCP stdio",
            Some("JSONL") => "JSONL",
            _ => "agent",
        };
        // Handed to a connection of the same kind only, which checks its shape.
        let saved_continuation = header
            .get("continuation")
            .filter(|c| c.is_object())
            .cloned();
        let mut stores: Vec<SurfaceStore> = (0..store_count)
            .map(|_| {
                let mut s = SurfaceStore::with_config(catalog.catalogs(), limits.clone());
                s.set_origin(origin.clone());
                s
            })
            .collect();
        let mut thread = Vec::new();
        for (n, line) in lines {
            let line_no = n + 1;
            let bad = |message: &str| RestoreError::Malformed {
                line: line_no,
                message: message.to_owned(),
            };
            if line.len() > line_bound {
                return Err(RestoreError::TooLarge {
                    what: "line (bytes)",
                    limit: line_bound,
                });
            }
            let mut v: Value = serde_json::from_str(line).map_err(|e| {
                let mut m = e.to_string();
                m.truncate(120);
                bad(&m)
            })?;
            if let Some(message) = v.get_mut("message").map(Value::take) {
                let i = v
                    .get("store")
                    .and_then(Value::as_u64)
                    .ok_or_else(|| bad("a message line names no store"))?;
                let store = usize::try_from(i)
                    .ok()
                    .and_then(|i| stores.get_mut(i))
                    .ok_or_else(|| bad("a message line names a store the header does not"))?;
                if let Applied::Rejected(r) = store.apply(message) {
                    let mut message = r.error.to_string();
                    message.truncate(200);
                    return Err(RestoreError::Message {
                        line: line_no,
                        message,
                    });
                }
                continue;
            }
            let e = v
                .get("entry")
                .ok_or_else(|| bad("neither a message nor an entry"))?;
            if thread.len() >= super::DEFAULT_MAX_ENTRIES {
                return Err(RestoreError::TooLarge {
                    what: "entries",
                    limit: super::DEFAULT_MAX_ENTRIES,
                });
            }
            let text = |key: &str| -> Result<String, RestoreError> {
                e.get(key)
                    .and_then(Value::as_str)
                    .map(str::to_owned)
                    .ok_or_else(|| bad(&format!("an entry without its {key:?}")))
            };
            let entry = match e.get("type").and_then(Value::as_str) {
                Some("user") => ThreadEntry::User {
                    text: text("text")?,
                },
                Some("agent") => ThreadEntry::Agent {
                    text: text("text")?,
                },
                Some("notice") => ThreadEntry::Notice {
                    text: text("text")?,
                },
                Some("action") => ThreadEntry::UserAction {
                    name: text("name")?,
                    surface_id: text("surfaceId")?,
                },
                Some("error") => ThreadEntry::Error {
                    error: TransportError::Action(text("message")?),
                    retry: e
                        .get("retry")
                        .and_then(Value::as_str)
                        .map(|t| Box::new(Turn::Text(t.to_owned()))),
                },
                Some("failed") => ThreadEntry::Activity {
                    activity_id: String::new(),
                    status: Some(Lifecycle {
                        status: "failed".into(),
                        progress_tokens: None,
                        attempt: None,
                        errors: e
                            .get("errors")
                            .and_then(Value::as_array)
                            .map(|a| {
                                a.iter()
                                    .filter_map(Value::as_str)
                                    .take(16)
                                    .map(str::to_owned)
                                    .collect()
                            })
                            .unwrap_or_default(),
                    }),
                },
                Some("surface") => {
                    let i = e
                        .get("store")
                        .and_then(Value::as_u64)
                        .and_then(|i| usize::try_from(i).ok())
                        .ok_or_else(|| bad("a surface entry names no store"))?;
                    let store = stores
                        .get(i)
                        .ok_or_else(|| bad("a surface entry names a store the header does not"))?;
                    ThreadEntry::Surface {
                        store: store.id(),
                        surface_id: text("surfaceId")?,
                    }
                }
                _ => return Err(bad("an entry of unknown type")),
            };
            thread.push(entry);
        }
        let mut agent = Self::new(Restored {
            origin: origin.clone(),
        });
        agent.saved_kind = saved_kind;
        agent.saved_continuation = saved_continuation;
        agent.origin = origin;
        for e in &thread {
            if let ThreadEntry::Surface { store, surface_id } = e {
                agent.seen.insert((*store, surface_id.clone()));
            }
        }
        agent.thread = thread;
        agent.past = stores;
        agent.revision = agent.revision.wrapping_add(1);
        Ok(agent)
    }

    /// Continue a [restored](Agent::restore) conversation (or move any agent) onto a live
    /// connection: the thread and the past surfaces stay (still drawn read-only), new
    /// turns go to `conn`. When `conn` is of the kind the conversation was held by, the
    /// agent-side conversation continues too ([`AgentConnection::continuation`]: the same
    /// A2A context, and a task that was waiting for input; the same AG-UI thread with its
    /// messages); an MCP server or a JSONL process starts a fresh session.
    pub fn resume_with(&mut self, conn: impl AgentConnection + 'static) {
        self.resume_with_box(Box::new(conn));
    }

    /// [`Agent::resume_with`] a connection made from `target` as [`Agent::connect`] makes
    /// it (in the background): the usual way to continue a restored conversation.
    #[cfg(feature = "__transport")]
    pub fn resume(
        &mut self,
        target: &str,
        catalog: crate::render::catalog::Catalog,
        options: crate::transport::TransportOptions,
        repaint: impl Fn() + Send + Sync + 'static,
    ) -> Result<(), TransportError> {
        let conn = super::transports::connect(target, catalog, options, repaint)?;
        self.resume_with_box(conn);
        Ok(())
    }

    /// [`Agent::resume_with`] a boxed connection.
    pub fn resume_with_box(&mut self, mut conn: Box<dyn AgentConnection>) {
        let (kind, continuation) = match self.conn.kind() {
            "Restored" => (self.saved_kind, self.saved_continuation.take()),
            k => (k, self.conn.continuation()),
        };
        if let Some(state) = continuation.filter(|_| conn.kind() == kind) {
            conn.continue_from(&state);
        }
        let old = std::mem::replace(&mut self.conn, conn);
        if old.kind() != "Restored" {
            // The live stores of the connection left become past too.
            // (They cannot be moved out of the trait object: copy them.)
            for s in old.stores() {
                let mut copy = s.clone();
                let id = s.id();
                let new_id = copy.id();
                for e in &mut self.thread {
                    if let ThreadEntry::Surface { store, .. } = e
                        && *store == id
                    {
                        *store = new_id;
                    }
                }
                copy.set_origin(s.origin().cloned());
                self.past.push(copy);
            }
            self.seen = self
                .thread
                .iter()
                .filter_map(|e| match e {
                    ThreadEntry::Surface { store, surface_id } => {
                        Some((*store, surface_id.clone()))
                    }
                    _ => None,
                })
                .collect();
        }
        self.origin = None;
        self.last_turn = None;
        self.revision = self.revision.wrapping_add(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CAT: &str = "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json";

    #[test]
    fn a_v0_9_surface_comes_back_from_its_messages_with_the_same_dump() {
        let mut store = SurfaceStore::basic();
        store.feed_document(
            format!(
                r##"{{"version":"v0.9","createSurface":{{"surfaceId":"s","catalogId":"{CAT}","theme":{{"primaryColor":"#112233"}},"sendDataModel":true}}}}
{{"version":"v0.9","updateComponents":{{"surfaceId":"s","components":[{{"id":"root","component":"Column","children":["t","f"]}},{{"id":"t","component":"Text","text":{{"path":"/name"}}}},{{"id":"f","component":"TextField","label":"Name","value":{{"path":"/name"}}}}]}}}}
{{"version":"v0.9","updateDataModel":{{"surfaceId":"s","path":"/name","value":"Ada"}}}}"##
            )
            .as_bytes(),
        );
        let mut copy = SurfaceStore::basic();
        for s in store.surfaces() {
            for m in surface_messages(s) {
                assert!(!matches!(copy.apply(m), Applied::Rejected(_)));
            }
        }
        let f = crate::eval::FunctionRegistry::basic();
        assert_eq!(
            crate::conformance::dump(&store, &f)["surfaces"],
            crate::conformance::dump(&copy, &f)["surfaces"]
        );
    }
}
