//! AG-UI (feature `agui`): the sans-IO [`AguiSession`] (a turn → `RunAgentInput`; each SSE
//! event → the store, the transcript, the run state) and the async [`AguiClient`].
//!
//! A2UI travels in activities, the way `@ag-ui/a2ui-middleware` sends it:
//! `ACTIVITY_SNAPSHOT {messageId, activityType: "a2ui-surface", content: {a2ui_operations:
//! [...]}}` and `ACTIVITY_DELTA {messageId, patch}` (RFC 6902 on `content`). One activity
//! message is one **surface group**: the surfaces its operations create belong to it, and a
//! snapshot that replaces its operations replaces them (when the new operations only extend
//! the old ones, just the new ones are applied; an append-only delta likewise). Before the
//! operations arrive, the middleware sends lifecycle snapshots `{status: "building" |
//! "retrying" | "failed", progressTokens, attempt, errors}` on the same message id: the
//! activity's [`Lifecycle`] is what the host draws in place of the surfaces (a progress
//! state: `egui_a2ui::panel::lifecycle_ui`). The painted snapshot replaces it; there is no separate "done" signal.
//!
//! `TEXT_MESSAGE_*` go to the transcript (and back in the next run's `messages`),
//! `RUN_STARTED` / `RUN_FINISHED` / `RUN_ERROR` set the run state, and an action goes back on
//! the next run as `forwardedProps.a2uiAction.userAction`.
//!
//! ```
//! use egui_a2ui::Catalog;
//! use egui_a2ui::transport::{Turn, agui::AguiSession};
//! use serde_json::json;
//!
//! let mut s = AguiSession::new("http://127.0.0.1:1/", Catalog::basic());
//! let req = s.request(&Turn::Text("pasta".into())).unwrap();
//! assert_eq!(req.body.as_ref().unwrap()["messages"][0]["content"], "pasta");
//! s.on_item(Ok(json!({"type": "ACTIVITY_SNAPSHOT", "messageId": "a", "activityType": "a2ui-surface",
//!     "content": {"status": "building", "progressTokens": 12}})));
//! assert_eq!(s.activity("a").unwrap().lifecycle().unwrap().status, "building");
//! s.on_item(Ok(json!({"type": "ACTIVITY_SNAPSHOT", "messageId": "a", "activityType": "a2ui-surface",
//!     "content": {"a2ui_operations": [{"version": "v0.9", "createSurface": {"surfaceId": "s",
//!         "catalogId": "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json"}}]}})));
//! assert!(s.store().surface("s").is_some());
//! assert!(s.activity("a").unwrap().lifecycle().is_none());
//! ```

use std::collections::HashMap;

use indexmap::IndexMap;
use serde_json::{Map, Value, json};

use super::host::SessionCore;
use super::http::{HttpClient, HttpRequest, ResponseKind, TransportOptions};
use super::{
    Lifecycle, Role, TaskState, TranscriptEntry, TransportError, TransportEvent, Turn, fresh_id,
};
use crate::model::{Applied, SurfaceStore};
use crate::render::catalog::Catalog;

/// The activity type that carries A2UI.
pub const A2UI_ACTIVITY_TYPE: &str = "a2ui-surface";
/// The content key of the A2UI operations.
pub const OPERATIONS_KEY: &str = "a2ui_operations";

/// One A2UI activity message: a surface group.
///
/// A live activity that keeps appending `updateDataModel` operations (a dashboard, a
/// progress view) would hold every one of them forever: once an operation is applied and a
/// later one writes the same path (or a path above it) of the same surface, it can no
/// longer change what a replay of the operations builds, and its slot in
/// [`Self::content`] is set to `null` (indices stay, so later patches still address the
/// same operations). The content then grows with the surface, not with time.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Activity {
    content: Value,
    /// An upper bound of `content`'s serialized size.
    bytes: usize,
    applied: usize,
    surfaces: Vec<String>,
    lifecycle: Option<Lifecycle>,
    /// The applied `updateDataModel` operations still in the content: (index, surface,
    /// path).
    data_ops: Vec<(usize, String, String)>,
}

impl Activity {
    /// The activity's content as it stands.
    pub fn content(&self) -> &Value {
        &self.content
    }

    /// The lifecycle status to draw while the operations are not there (or failed).
    pub fn lifecycle(&self) -> Option<&Lifecycle> {
        self.lifecycle.as_ref()
    }

    /// The surfaces this activity created, in order.
    pub fn surfaces(&self) -> &[String] {
        &self.surfaces
    }

    /// How many operations were applied.
    pub fn operations_applied(&self) -> usize {
        self.applied
    }
}

/// How new content relates to what was applied.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Change {
    /// Only operations after the applied ones are new.
    Append,
    /// Anything else: the group is rebuilt.
    Rebuild,
}

/// The sans-IO AG-UI conversation (one thread).
#[derive(Debug)]
pub struct AguiSession {
    url: super::redact::HostUrl,
    catalog: Catalog,
    core: SessionCore,
    thread_id: String,
    run_id: Option<String>,
    activities: IndexMap<String, Activity>,
    messages: Vec<Value>,
    open_text: HashMap<String, usize>,
    /// Text messages of this run cut at `max_transcript_bytes` (reported once each).
    text_capped: Vec<String>,
    turn_error: Option<TransportError>,
}

impl AguiSession {
    /// A new thread with the AG-UI endpoint at `url`, drawing with `catalog`.
    pub fn new(url: &str, catalog: Catalog) -> Self {
        let mut store = SurfaceStore::new(catalog.catalogs());
        // Who the surfaces come from: the endpoint's host (AG-UI has no agent card).
        store.set_origin(crate::model::AgentOrigin::from_endpoint(url));
        Self {
            url: super::redact::HostUrl(url.to_owned()),
            core: SessionCore::new(store),
            catalog,
            thread_id: fresh_id("thread"),
            run_id: None,
            activities: IndexMap::new(),
            messages: Vec::new(),
            open_text: HashMap::new(),
            text_capped: Vec::new(),
            turn_error: None,
        }
    }

    /// Use these caps in the store.
    pub fn with_limits(mut self, limits: crate::limits::Limits) -> Self {
        self.core.store.set_limits(limits);
        self
    }

    /// The surfaces.
    pub fn store(&self) -> &SurfaceStore {
        &self.core.store
    }

    /// The surfaces, mutably.
    pub fn store_mut(&mut self) -> &mut SurfaceStore {
        &mut self.core.store
    }

    /// The conversation's text.
    pub fn transcript(&self) -> &[TranscriptEntry] {
        &self.core.transcript
    }

    /// The thread id (the same for every run).
    pub fn thread_id(&self) -> &str {
        &self.thread_id
    }

    /// The current (or last) run id.
    pub fn run_id(&self) -> Option<&str> {
        self.run_id.as_deref()
    }

    /// The run state.
    pub fn state(&self) -> Option<&TaskState> {
        self.core.state.as_ref()
    }

    /// An A2UI activity by message id.
    pub fn activity(&self, message_id: &str) -> Option<&Activity> {
        self.activities.get(message_id)
    }

    /// Every A2UI activity, oldest first.
    pub fn activities(&self) -> impl Iterator<Item = (&str, &Activity)> {
        self.activities.iter().map(|(k, v)| (k.as_str(), v))
    }

    /// The activity a surface belongs to.
    pub fn activity_of(&self, surface_id: &str) -> Option<(&str, &Activity)> {
        self.activities
            .iter()
            .find(|(_, a)| a.surfaces.iter().any(|s| s == surface_id))
            .map(|(k, v)| (k.as_str(), v))
    }

    /// The `RunAgentInput` of one turn: the thread's messages (with a new user message for a
    /// text turn), and for an action `forwardedProps.a2uiAction.userAction`. The client
    /// capabilities and data models ride in `forwardedProps` too (AG-UI has no place of its
    /// own for them).
    pub fn request(&mut self, turn: &Turn) -> Result<HttpRequest, TransportError> {
        self.turn_error = None;
        self.open_text.clear();
        self.text_capped.clear();
        let run_id = fresh_id("run");
        let mut forwarded = super::outgoing_metadata(&self.catalog, &self.core.store);
        match turn {
            Turn::Text(t) => {
                self.messages
                    .push(json!({"id": fresh_id("user"), "role": "user", "content": t}));
                self.bound_messages();
                self.core.push_transcript(TranscriptEntry {
                    role: Role::User,
                    text: t.clone(),
                    message_id: None,
                });
            }
            Turn::Action(a) => {
                if self.core.store.surface(&a.surface_id).is_none() {
                    return Err(TransportError::Action(format!(
                        "surface {} is not this agent's",
                        a.surface_id
                    )));
                }
                forwarded.insert(
                    "a2uiAction".into(),
                    json!({"userAction": {
                        "name": a.name, "surfaceId": a.surface_id,
                        "sourceComponentId": a.source_component_id,
                        "timestamp": a.timestamp, "context": a.context,
                    }}),
                );
            }
        }
        self.run_id = Some(run_id.clone());
        let body = json!({
            "threadId": self.thread_id, "runId": run_id, "messages": self.messages,
            "tools": [], "context": [], "state": {}, "forwardedProps": Value::Object(forwarded),
        });
        Ok(HttpRequest {
            url: self.url.0.clone(),
            headers: Vec::new(),
            body: Some(body),
            expect: ResponseKind::Sse,
        })
    }

    /// One event of the run's stream (or a per-event problem from the I/O).
    pub fn on_item(&mut self, item: Result<Value, TransportError>) -> Vec<TransportEvent> {
        let mut events = Vec::new();
        let v = match item {
            Ok(v) => v,
            Err(e) => {
                events.push(TransportEvent::Notice(e));
                return events;
            }
        };
        let Some(kind) = v.get("type").and_then(Value::as_str) else {
            events.push(TransportEvent::Notice(TransportError::MalformedPayload(
                "an AG-UI event without a type".into(),
            )));
            return events;
        };
        let str_of = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_owned);
        match kind {
            "RUN_STARTED" => {
                if let Some(r) = str_of("runId") {
                    self.run_id = Some(r);
                }
                self.set_state(TaskState::Working, &mut events);
            }
            "RUN_FINISHED" => self.set_state(TaskState::Completed, &mut events),
            "RUN_ERROR" => {
                self.turn_error.get_or_insert(TransportError::RunError {
                    code: str_of("code"),
                    message: str_of("message").unwrap_or_default(),
                });
                self.set_state(TaskState::Failed, &mut events);
            }
            "TEXT_MESSAGE_START" | "TEXT_MESSAGE_CONTENT" | "TEXT_MESSAGE_CHUNK" => {
                let id = str_of("messageId").unwrap_or_else(|| "text".into());
                let i = match self.open_text.get(&id) {
                    Some(i) => *i,
                    None => {
                        let dropped = self.core.push_transcript(TranscriptEntry {
                            role: Role::Agent,
                            text: String::new(),
                            message_id: Some(id.clone()),
                        });
                        self.shift_open_text(dropped);
                        let i = self.core.transcript.len().saturating_sub(1);
                        self.open_text.insert(id.clone(), i);
                        i
                    }
                };
                let max = self.core.store.limits().max_transcript_bytes;
                if let (Some(d), Some(e)) = (
                    v.get("delta").and_then(Value::as_str),
                    self.core.transcript.get_mut(i),
                ) {
                    if crate::transport::host::append_capped(&mut e.text, d, max)
                        && !self.text_capped.contains(&id)
                    {
                        // Told once per message.
                        self.text_capped.push(id.clone());
                        events.push(TransportEvent::Notice(TransportError::TooLarge {
                            what: "text message",
                            limit: max,
                        }));
                    }
                    let dropped = self.core.bound_transcript();
                    self.shift_open_text(dropped);
                }
            }
            "TEXT_MESSAGE_END" => {
                let id = str_of("messageId").unwrap_or_else(|| "text".into());
                if let Some(i) = self.open_text.remove(&id)
                    && let Some(e) = self.core.transcript.get(i)
                {
                    let text = e.text.clone();
                    self.messages
                        .push(json!({"id": id, "role": "assistant", "content": text}));
                    self.bound_messages();
                    events.push(TransportEvent::Text {
                        role: Role::Agent,
                        text,
                    });
                }
            }
            "ACTIVITY_SNAPSHOT" => self.on_snapshot(&v, &mut events),
            "ACTIVITY_DELTA" => self.on_delta(&v, &mut events),
            // Not A2UI's business: tool calls, state, steps, reasoning, raw and custom events.
            _ => {}
        }
        events
    }

    /// The run's stream ended: a run cut off before `RUN_FINISHED` or `RUN_ERROR` is an
    /// error too.
    pub fn finish(&mut self, outcome: Result<(), TransportError>) -> Vec<TransportEvent> {
        let mut error = outcome.err().or_else(|| self.turn_error.take());
        if error.is_none() && self.core.state == Some(TaskState::Working) {
            error = Some(TransportError::Interrupted {
                url: super::redact_url(&self.url.0),
                message: "the run's stream ended before RUN_FINISHED".into(),
            });
        }
        // Text cut off mid-message still goes to the transcript as it stands.
        self.open_text.clear();
        let mut events = Vec::new();
        if error.is_some() && self.core.state == Some(TaskState::Working) {
            self.set_state(TaskState::Failed, &mut events);
        }
        events.push(TransportEvent::TurnEnded { error });
        events
    }

    /// `dropped` entries left the front of the transcript: the open text messages' indices
    /// move down, and one whose entry went is forgotten.
    fn shift_open_text(&mut self, dropped: usize) {
        if dropped > 0 {
            self.open_text.retain(|_, i| {
                let keep = *i >= dropped;
                *i = i.saturating_sub(dropped);
                keep
            });
        }
    }

    /// Hold the thread's messages (sent back on every run) to the transcript caps, oldest
    /// dropped (the newest always stays).
    fn bound_messages(&mut self) {
        let limits = self.core.store.limits();
        let (max_n, max_bytes) = (limits.max_transcript_entries, limits.max_transcript_bytes);
        let len = |m: &Value| m.get("content").and_then(Value::as_str).map_or(0, str::len);
        super::host::drop_oldest(&mut self.messages, max_n, max_bytes, len);
    }

    fn set_state(&mut self, state: TaskState, events: &mut Vec<TransportEvent>) {
        self.core.state = Some(state.clone());
        events.push(TransportEvent::State {
            state,
            task_id: self.run_id.clone(),
            context_id: Some(self.thread_id.clone()),
        });
    }

    fn on_snapshot(&mut self, v: &Value, events: &mut Vec<TransportEvent>) {
        if v.get("activityType").and_then(Value::as_str) != Some(A2UI_ACTIVITY_TYPE) {
            return;
        }
        let Some(id) = v.get("messageId").and_then(Value::as_str) else {
            events.push(TransportEvent::Notice(TransportError::MalformedPayload(
                "ACTIVITY_SNAPSHOT without a messageId".into(),
            )));
            return;
        };
        let content = v.get("content").cloned().unwrap_or(Value::Null);
        let replace = v.get("replace").and_then(Value::as_bool) != Some(false);
        let activity = self.activities.entry(id.to_owned()).or_default();
        if !replace && !activity.content.is_null() {
            return; // "leave what is already there"
        }
        // One event's content: within the event cap already; measured (up to the same
        // cap) for the activities' total.
        let cap = self.core.store.limits().max_message_bytes;
        activity.bytes = super::http::json_size(&content, cap).unwrap_or(cap);
        let old = std::mem::replace(&mut activity.content, content);
        let change = match (ops_of(&old), ops_of(&activity.content)) {
            (Some(o), Some(n)) if o.len() == activity.applied && n.starts_with(o) => Change::Append,
            (None, Some(_)) if activity.applied == 0 => Change::Append,
            _ => Change::Rebuild,
        };
        self.reconcile(id, change, events);
        self.bound_activities(id);
    }

    /// Drop the oldest activities (and their surfaces) past
    /// [`Limits::max_activities`](crate::limits::Limits::max_activities) or
    /// [`Limits::max_activity_bytes`](crate::limits::Limits::max_activity_bytes); `keep` (the one
    /// just updated) stays.
    fn bound_activities(&mut self, keep: &str) {
        let limits = self.core.store.limits();
        let (max_n, max_bytes) = (limits.max_activities, limits.max_activity_bytes);
        let mut total: usize = self.activities.values().map(|a| a.bytes).sum();
        // Bounded: each pass removes one activity.
        while self.activities.len() > max_n.max(1) || total > max_bytes {
            let Some(oldest) = self.activities.keys().find(|k| *k != keep).cloned() else {
                break;
            };
            let Some(gone) = self.activities.shift_remove(&oldest) else {
                break;
            };
            total = total.saturating_sub(gone.bytes);
            for sid in gone.surfaces {
                if let Some(version) = self.core.store.surface(&sid).map(|s| s.version) {
                    let _ = self.core.store.apply(
                        json!({"version": version.as_str(), "deleteSurface": {"surfaceId": sid}}),
                    );
                }
            }
        }
    }

    fn on_delta(&mut self, v: &Value, events: &mut Vec<TransportEvent>) {
        let Some(id) = v.get("messageId").and_then(Value::as_str) else {
            events.push(TransportEvent::Notice(TransportError::MalformedPayload(
                "ACTIVITY_DELTA without a messageId".into(),
            )));
            return;
        };
        if v.get("activityType")
            .and_then(Value::as_str)
            .is_some_and(|t| t != A2UI_ACTIVITY_TYPE)
        {
            return;
        }
        let notice = |message: String| {
            TransportEvent::Notice(TransportError::Patch {
                message_id: id.to_owned(),
                message,
            })
        };
        let Some(activity) = self.activities.get_mut(id) else {
            events.push(notice("no snapshot of this activity came first".into()));
            return;
        };
        let patch: json_patch::Patch =
            match serde_json::from_value(v.get("patch").cloned().unwrap_or(Value::Null)) {
                Ok(p) => p,
                Err(e) => {
                    events.push(notice(format!("not an RFC 6902 patch: {e}")));
                    return;
                }
            };
        let len = ops_of(&activity.content).map_or(0, <[Value]>::len);
        let appends = len == activity.applied
            && patch.0.iter().enumerate().all(|(i, op)| match op {
                json_patch::PatchOperation::Add(a) => {
                    let p = a.path.as_str();
                    p == "/a2ui_operations/-" || p == format!("/a2ui_operations/{}", len + i)
                }
                _ => false,
            });
        // Applied one operation at a time under the caps (size, depth, operations); a
        // refused patch leaves the content as it was.
        let known = Some(activity.bytes).filter(|b| *b > 0);
        match super::patch::apply_bounded(
            &mut activity.content,
            &patch.0,
            self.core.store.limits(),
            known,
        ) {
            Ok(bytes) => activity.bytes = bytes,
            Err(super::patch::PatchRefusal::Invalid(m)) => {
                events.push(notice(m));
                return;
            }
            Err(super::patch::PatchRefusal::Limit { what, limit }) => {
                events.push(TransportEvent::Notice(TransportError::PatchLimit {
                    message_id: id.to_owned(),
                    what,
                    limit,
                }));
                return;
            }
        }
        let change = if appends {
            Change::Append
        } else {
            Change::Rebuild
        };
        self.reconcile(id, change, events);
        self.bound_activities(id);
    }

    fn reconcile(&mut self, id: &str, change: Change, events: &mut Vec<TransportEvent>) {
        let Some(activity) = self.activities.get_mut(id) else {
            return;
        };
        let lifecycle = if ops_of(&activity.content).is_some() {
            None
        } else {
            Lifecycle::from_content(&activity.content)
        };
        if lifecycle != activity.lifecycle {
            if let Some(l) = &lifecycle {
                events.push(TransportEvent::Lifecycle {
                    activity_id: id.to_owned(),
                    status: l.clone(),
                });
            }
            activity.lifecycle = lifecycle;
        }
        if change == Change::Rebuild {
            // The group's surfaces go; its operations are replayed from the start.
            for sid in std::mem::take(&mut activity.surfaces) {
                if let Some(version) = self.core.store.surface(&sid).map(|s| s.version) {
                    let _ = self.core.store.apply(
                        json!({"version": version.as_str(), "deleteSurface": {"surfaceId": sid}}),
                    );
                }
            }
            activity.applied = 0;
            activity.data_ops.clear();
        }
        let first = activity.applied;
        let ops: Vec<Value> = ops_of(&activity.content)
            .map(|o| o.get(activity.applied..).unwrap_or_default().to_vec())
            .unwrap_or_default();
        activity.applied += ops.len();
        let mut count = 0;
        let mut touched: Vec<String> = Vec::new();
        for (i, op) in ops.into_iter().enumerate() {
            if op.is_null() {
                continue; // a superseded operation (see `Activity`)
            }
            let data_write = data_write_of(&op);
            let applied = self.core.store.apply(op);
            if let (Some((sid, path)), false) =
                (data_write, matches!(applied, Applied::Rejected(_)))
            {
                compact_superseded(activity, first + i, sid, path);
            }
            match applied {
                Applied::Rejected(r) => events.push(TransportEvent::Rejected { error: r.error }),
                Applied::Created { surface_id } => {
                    count += 1;
                    if !activity.surfaces.contains(&surface_id) {
                        activity.surfaces.push(surface_id.clone());
                    }
                    if !touched.contains(&surface_id) {
                        touched.push(surface_id);
                    }
                }
                Applied::Changed { surface_id } | Applied::Deleted { surface_id } => {
                    count += 1;
                    if !touched.contains(&surface_id) {
                        touched.push(surface_id);
                    }
                }
                _ => count += 1, // an RPC answered or settled
            }
        }
        if count > 0 {
            events.push(TransportEvent::Applied {
                count,
                surfaces: touched,
            });
        }
    }
}

/// The (surface, path) an `updateDataModel` operation writes (`/` when it names no path).
fn data_write_of(op: &Value) -> Option<(String, String)> {
    let u = op.get("updateDataModel")?;
    let sid = u.get("surfaceId")?.as_str()?.to_owned();
    let path = u.get("path").and_then(Value::as_str).unwrap_or("/");
    let path = if path.is_empty() { "/" } else { path };
    Some((sid, path.to_owned()))
}

/// The applied data write at `index` supersedes earlier ones of the same surface at its
/// path or below it: their slots become `null` (see [`Activity`]).
fn compact_superseded(activity: &mut Activity, index: usize, sid: String, path: String) {
    let covers = |earlier: &str| {
        path == "/"
            || earlier == path
            || earlier
                .strip_prefix(path.as_str())
                .is_some_and(|rest| rest.starts_with('/'))
    };
    let ops = activity
        .content
        .get_mut(OPERATIONS_KEY)
        .and_then(Value::as_array_mut);
    let Some(ops) = ops else {
        return;
    };
    let (mut freed, mut nulled) = (0usize, 0usize);
    activity.data_ops.retain(|(i, s, p)| {
        if *s != sid || !covers(p) {
            return true;
        }
        if let Some(slot) = ops.get_mut(*i) {
            freed = freed.saturating_add(super::http::json_size(slot, usize::MAX).unwrap_or(0));
            nulled += 1;
            *slot = Value::Null;
        }
        false
    });
    // `null` is four bytes.
    activity.bytes = activity
        .bytes
        .saturating_sub(freed)
        .saturating_add(nulled.saturating_mul(4));
    activity.data_ops.push((index, sid, path));
}

fn ops_of(content: &Value) -> Option<&[Value]> {
    content
        .get(OPERATIONS_KEY)
        .and_then(Value::as_array)
        .map(Vec::as_slice)
}

impl super::host::HttpSession for AguiSession {
    fn method(&self) -> String {
        "RunAgentInput".into()
    }
    fn request(&mut self, turn: &Turn) -> Result<HttpRequest, TransportError> {
        Self::request(self, turn)
    }
    fn on_item(&mut self, item: Result<Value, TransportError>) -> Vec<TransportEvent> {
        Self::on_item(self, item)
    }
    fn finish(&mut self, outcome: Result<(), TransportError>) -> Vec<TransportEvent> {
        Self::finish(self, outcome)
    }
    fn core(&self) -> &super::host::SessionCore {
        &self.core
    }
    fn core_mut(&mut self) -> &mut super::host::SessionCore {
        &mut self.core
    }
    fn continuation(&self) -> Option<Value> {
        Some(json!({ "threadId": self.thread_id, "messages": self.messages }))
    }
    fn continue_from(&mut self, state: &Value) -> bool {
        let Some(thread) = super::continuation_id(state, "threadId") else {
            return false;
        };
        // The thread's messages go back to the agent on the next run: only well-formed
        // text messages of the roles AG-UI defines, then held to the transcript caps.
        let max = self.core.store.limits().max_transcript_entries;
        let messages: Vec<Value> = state
            .get("messages")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter(|m| {
                        matches!(
                            m.get("role").and_then(Value::as_str),
                            Some("user" | "assistant" | "system" | "developer")
                        ) && m.get("content").is_some_and(Value::is_string)
                            && m.get("id").is_none_or(Value::is_string)
                    })
                    .take(max.saturating_add(1))
                    .cloned()
                    .collect()
            })
            .unwrap_or_default();
        self.thread_id = thread;
        self.messages = messages;
        self.bound_messages();
        true
    }
}

/// The async AG-UI client: one `POST RunAgentInput` and its SSE stream per turn.
#[derive(Debug)]
pub struct AguiClient {
    http: HttpClient,
    session: AguiSession,
}

impl AguiClient {
    /// A client for the AG-UI endpoint at `url`, drawing with `catalog`.
    pub fn new(
        url: &str,
        catalog: Catalog,
        options: TransportOptions,
    ) -> Result<Self, TransportError> {
        let session = AguiSession::new(url, catalog).with_limits(options.limits.clone());
        Ok(Self {
            http: HttpClient::new(options)?,
            session,
        })
    }

    /// The session.
    pub fn session(&self) -> &AguiSession {
        &self.session
    }

    /// The session, mutably.
    pub fn session_mut(&mut self) -> &mut AguiSession {
        &mut self.session
    }

    /// Run one turn (see [`A2aClient::send`](super::a2a::A2aClient::send) for the contract).
    pub async fn send(
        &mut self,
        turn: &Turn,
        on_event: impl FnMut(&TransportEvent),
    ) -> Result<(), TransportError> {
        super::host::drive(&self.http, &mut self.session, turn, on_event).await
    }
}

/// The `forwardedProps` of a run, for hosts building their own `RunAgentInput`.
pub fn forwarded_action(action: &crate::action::ActionEvent) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert(
        "a2uiAction".into(),
        json!({"userAction": {"name": action.name, "surfaceId": action.surface_id,
            "sourceComponentId": action.source_component_id, "timestamp": action.timestamp,
            "context": action.context}}),
    );
    m
}

/// An AG-UI agent driven from a UI thread.
pub type AguiHost = super::host::HttpHost<AguiSession>;

impl AguiHost {
    /// Talk to the AG-UI endpoint at `url`.
    pub fn connect(
        url: &str,
        catalog: crate::render::catalog::Catalog,
        options: super::http::TransportOptions,
        repaint: impl Fn() + Send + 'static,
    ) -> Result<Self, super::TransportError> {
        let session = AguiSession::new(url, catalog).with_limits(options.limits.clone());
        Self::spawn(session, options, repaint)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BASIC09: &str = "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json";

    fn create(sid: &str) -> Value {
        json!({"version": "v0.9", "createSurface": {"surfaceId": sid, "catalogId": BASIC09}})
    }

    fn text(sid: &str, t: &str) -> Value {
        json!({"version": "v0.9", "updateComponents": {"surfaceId": sid, "components": [
            {"id": "root", "component": "Text", "text": t}]}})
    }

    fn snapshot(id: &str, content: Value) -> Value {
        json!({"type": "ACTIVITY_SNAPSHOT", "messageId": id, "activityType": "a2ui-surface",
               "content": content, "replace": true})
    }

    fn delta(id: &str, patch: Value) -> Value {
        json!({"type": "ACTIVITY_DELTA", "messageId": id, "activityType": "a2ui-surface", "patch": patch})
    }

    fn root_text(s: &AguiSession, sid: &str) -> Option<Value> {
        s.store()
            .surface(sid)?
            .component("root")?
            .wire_props()
            .get("text")
            .cloned()
    }

    #[test]
    fn lifecycle_then_painted_snapshot_then_append_deltas() {
        let mut s = AguiSession::new("http://x/", Catalog::basic());
        s.request(&Turn::Text("go".into())).unwrap();
        let ev = s.on_item(Ok(
            json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r"}),
        ));
        assert!(matches!(
            &ev[0],
            TransportEvent::State {
                state: TaskState::Working,
                ..
            }
        ));
        let ev = s.on_item(Ok(snapshot(
            "a",
            json!({"status": "building", "progressTokens": 12}),
        )));
        assert!(
            matches!(&ev[0], TransportEvent::Lifecycle { status, .. } if status.progress_tokens == Some(12))
        );
        s.on_item(Ok(snapshot("a", json!({"a2ui_operations": [create("s")]}))));
        assert!(s.activity("a").unwrap().lifecycle().is_none());
        s.on_item(Ok(delta(
            "a",
            json!([{"op": "add", "path": "/a2ui_operations/-", "value": text("s", "one")}]),
        )));
        assert_eq!(root_text(&s, "s"), Some(json!("one")));
        s.on_item(Ok(delta(
            "a",
            json!([{"op": "add", "path": "/a2ui_operations/2", "value": text("s", "two")}]),
        )));
        assert_eq!(root_text(&s, "s"), Some(json!("two")));
        assert_eq!(s.activity("a").unwrap().operations_applied(), 3);
        assert_eq!(s.store().errors().len(), 0, "appends applied once each");
        s.on_item(Ok(
            json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r"}),
        ));
        let end = s.finish(Ok(()));
        assert!(matches!(&end[0], TransportEvent::TurnEnded { error: None }));
    }

    #[test]
    fn a_non_append_patch_rebuilds_the_group_and_a_replacing_snapshot_replaces_it() {
        let mut s = AguiSession::new("http://x/", Catalog::basic());
        s.on_item(Ok(snapshot(
            "a",
            json!({"a2ui_operations": [create("s"), text("s", "one")]}),
        )));
        s.on_item(Ok(delta(
            "a",
            json!([{"op": "replace", "path": "/a2ui_operations/1", "value": text("s", "edited")}]),
        )));
        assert_eq!(root_text(&s, "s"), Some(json!("edited")));
        assert_eq!(
            s.store().errors().len(),
            0,
            "rebuilt from scratch, no duplicate createSurface"
        );
        s.on_item(Ok(snapshot("a", json!({"a2ui_operations": [create("t")]}))));
        assert!(
            s.store().surface("s").is_none(),
            "the replaced group's surface went"
        );
        assert!(s.store().surface("t").is_some());
        assert_eq!(s.activity("a").unwrap().surfaces(), ["t"]);
        // A snapshot that extends the operations applies only the new ones.
        s.on_item(Ok(snapshot(
            "a",
            json!({"a2ui_operations": [create("t"), text("t", "x")]}),
        )));
        assert_eq!(s.store().errors().len(), 0);
        assert_eq!(root_text(&s, "t"), Some(json!("x")));
    }

    #[test]
    fn failed_lifecycle_run_error_and_bad_patches_are_typed() {
        let mut s = AguiSession::new("http://x/", Catalog::basic());
        s.request(&Turn::Text("go".into())).unwrap();
        s.on_item(Ok(json!({"type": "RUN_STARTED", "runId": "r"})));
        let ev = s.on_item(Ok(snapshot(
            "b",
            json!({"status": "failed", "attempt": 2, "errors": ["gave up"]}),
        )));
        assert!(
            matches!(&ev[0], TransportEvent::Lifecycle { status, .. } if status.is_failed() && status.errors == ["gave up"])
        );
        let ev = s.on_item(Ok(delta("nope", json!([]))));
        assert!(matches!(
            &ev[0],
            TransportEvent::Notice(TransportError::Patch { .. })
        ));
        s.on_item(Ok(snapshot("c", json!({"a2ui_operations": [create("s")]}))));
        let ev = s.on_item(Ok(delta(
            "c",
            json!([{"op": "remove", "path": "/nothing/here"}]),
        )));
        assert!(matches!(
            &ev[0],
            TransportEvent::Notice(TransportError::Patch { .. })
        ));
        assert!(
            s.store().surface("s").is_some(),
            "a failed patch changes nothing"
        );
        let ev = s.on_item(Ok(delta("c", json!({"not": "a patch"}))));
        assert!(matches!(
            &ev[0],
            TransportEvent::Notice(TransportError::Patch { .. })
        ));
        s.on_item(Ok(
            json!({"type": "RUN_ERROR", "message": "boom", "code": "X"}),
        ));
        let end = s.finish(Ok(()));
        assert!(
            matches!(&end[0], TransportEvent::TurnEnded { error: Some(TransportError::RunError { code: Some(c), .. }) } if c == "X")
        );
        assert_eq!(s.state(), Some(&TaskState::Failed));
    }

    #[test]
    fn a_run_cut_off_is_an_error_and_text_streams_into_the_transcript() {
        let mut s = AguiSession::new("http://x/", Catalog::basic());
        s.request(&Turn::Text("go".into())).unwrap();
        s.on_item(Ok(json!({"type": "RUN_STARTED", "runId": "r"})));
        s.on_item(Ok(
            json!({"type": "TEXT_MESSAGE_START", "messageId": "m", "role": "assistant"}),
        ));
        s.on_item(Ok(
            json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "Hel"}),
        ));
        let ev = s.on_item(Ok(
            json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "lo"}),
        ));
        assert!(ev.is_empty());
        let ev = s.on_item(Ok(json!({"type": "TEXT_MESSAGE_END", "messageId": "m"})));
        assert!(matches!(&ev[0], TransportEvent::Text { text, .. } if text == "Hello"));
        assert_eq!(s.transcript().last().unwrap().text, "Hello");
        let end = s.finish(Ok(()));
        assert!(matches!(
            end.last(),
            Some(TransportEvent::TurnEnded {
                error: Some(TransportError::Interrupted { .. })
            })
        ));
        // The next run carries the thread's messages and the action.
        s.store_mut().apply(create("f")).into_result().unwrap();
        let action = crate::action::ActionEvent {
            surface_id: "f".into(),
            source_component_id: "b".into(),
            name: "book".into(),
            context: Map::new(),
            timestamp: "t".into(),
            user_message: None,
            version: crate::protocol::Version::V0_9,
            scope: "/".into(),
        };
        let body = s.request(&Turn::Action(action)).unwrap().body.unwrap();
        assert_eq!(
            body["forwardedProps"]["a2uiAction"]["userAction"]["name"],
            "book"
        );
        assert_eq!(body["messages"][1]["content"], "Hello");
        assert_eq!(body["messages"][1]["role"], "assistant");
        assert!(body["forwardedProps"]["a2uiClientCapabilities"]["v0.9"].is_object());
    }

    #[test]
    fn a_continued_thread_sends_its_id_and_messages_back() {
        use super::super::host::HttpSession as _;
        let mut first = AguiSession::new("http://127.0.0.1:9/", Catalog::basic());
        let _ = first.request(&Turn::Text("pasta".into())).unwrap();
        let state = first.continuation().unwrap();
        assert_eq!(state["threadId"], first.thread_id());

        let mut next = AguiSession::new("http://127.0.0.1:9/", Catalog::basic());
        assert_ne!(next.thread_id(), first.thread_id());
        assert!(next.continue_from(&state));
        let body = next
            .request(&Turn::Text("more".into()))
            .unwrap()
            .body
            .unwrap();
        assert_eq!(body["threadId"], first.thread_id());
        let contents: Vec<&str> = body["messages"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|m| m["content"].as_str())
            .collect();
        assert_eq!(contents, ["pasta", "more"]);

        // Messages of other shapes are dropped; a missing thread id is refused.
        let mut s = AguiSession::new("http://127.0.0.1:9/", Catalog::basic());
        assert!(!s.continue_from(&json!({"messages": []})));
        assert!(s.continue_from(&json!({"threadId": "t", "messages": [
            {"role": "tool", "content": "x"}, {"role": "user", "content": 5},
            {"role": "user", "content": "kept", "id": "m1"}, "junk"]})));
        let body = s.request(&Turn::Text("next".into())).unwrap().body.unwrap();
        let contents: Vec<&str> = body["messages"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|m| m["content"].as_str())
            .collect();
        assert_eq!(contents, ["kept", "next"]);
    }

    #[test]
    fn superseded_data_writes_of_a_live_activity_are_compacted_and_a_rebuild_still_agrees() {
        let mut s = AguiSession::new("http://127.0.0.1:9/", Catalog::basic());
        let mut events = Vec::new();
        let dm = |v: Value| json!({"version": "v0.9", "updateDataModel": {"surfaceId": "s", "path": "/", "value": v}});
        let comps = |t: &str| {
            json!({"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": [
            {"id": "root", "component": "Text", "text": {"path": "/label"}},
            {"id": "x", "component": "Text", "text": t}]}})
        };
        for e in [
            json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r"}),
            snapshot(
                "a",
                json!({"a2ui_operations": [create("s"), comps("one"), dm(json!({"label": "0"}))]}),
            ),
        ] {
            events.extend(s.on_item(Ok(e)));
        }
        for n in 1..=200 {
            let op = dm(json!({"label": n.to_string(), "pad": "x".repeat(100)}));
            events.extend(s.on_item(Ok(delta(
                "a",
                json!([{"op": "add", "path": "/a2ui_operations/-", "value": op}]),
            ))));
        }
        let a = s.activity("a").unwrap();
        let ops = a.content()["a2ui_operations"].as_array().unwrap();
        assert_eq!(ops.len(), 203, "indices stay");
        let live: Vec<usize> = (0..ops.len()).filter(|i| !ops[*i].is_null()).collect();
        assert_eq!(live, [0, 1, 202], "only the last data write is kept");
        // Uncompacted it would be some 40 KB (200 writes of ~190 bytes each).
        assert!(
            a.bytes < 4_000,
            "the content's size bound shrank: {}",
            a.bytes
        );
        let label = |s: &AguiSession| s.store().surface("s").unwrap().data.get("/label").cloned();
        assert_eq!(label(&s), Some(json!("200")));
        // A delta that changes an earlier operation rebuilds from the kept ones: the same
        // data, the new component.
        events.extend(s.on_item(Ok(delta(
            "a",
            json!([{"op": "replace", "path": "/a2ui_operations/1", "value": comps("two")}]),
        ))));
        assert_eq!(label(&s), Some(json!("200")));
        let x = s
            .store()
            .surface("s")
            .unwrap()
            .component("x")
            .unwrap()
            .str_prop("text")
            .map(str::to_owned);
        assert_eq!(x.as_deref(), Some("two"));
        assert!(
            !events.iter().any(|e| matches!(
                e,
                TransportEvent::Rejected { .. } | TransportEvent::Notice(_)
            )),
            "{events:?}"
        );
    }
}
