//! v1.0 `callAgentFunction`: a FunctionCall naming a function the renderer does not have is
//! sent to the agent; the binding is pending until `agentFunctionResponse` arrives, then
//! resolves to its value (or to `null`, with checks invalid and actions halted, on error).

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard, PoisonError};

use indexmap::IndexMap;
use serde_json::{Map, Value, json};

use crate::limits::Limits;

/// The state of one remote call.
#[derive(Clone, Debug, PartialEq)]
pub enum AgentCallState {
    /// Sent (or about to be sent); no answer yet.
    Pending,
    /// The agent answered with a value.
    Done(Value),
    /// The agent answered with an error `(code, message)`.
    Failed(String, String),
}

/// A call the renderer must send to the agent.
#[derive(Clone, Debug, PartialEq)]
pub struct OutgoingAgentCall {
    /// The surface whose binding needs it.
    pub surface_id: String,
    /// The correlation id.
    pub function_call_id: String,
    /// The `FunctionCall` with resolved arguments.
    pub call: Value,
}

impl OutgoingAgentCall {
    /// The v1.0 `callAgentFunction` message. Its `callFunction` names the function with
    /// `@call`, the current v1.0 spelling of a FunctionCall (agents read both `@call` and
    /// `call`); see `crate::protocol::reserved`.
    pub fn to_message(&self) -> Value {
        let call = match &self.call {
            Value::Object(o) => Value::Object(
                o.iter()
                    .map(|(k, v)| {
                        let k = if k == "call" { "@call" } else { k.as_str() };
                        (k.to_owned(), v.clone())
                    })
                    .collect(),
            ),
            other => other.clone(),
        };
        json!({"version": "v1.0", "callAgentFunction": {
            "surfaceId": self.surface_id,
            "functionCallId": self.function_call_id,
            "callFunction": call,
        }})
    }
}

/// Remote calls keyed by `(surface, function, resolved args)`, so a binding evaluated every
/// frame sends its call once. Bounded: beyond [`Limits::max_agent_calls`] entries new calls
/// fail at once. Kept by the [`SurfaceStore`](crate::model::SurfaceStore) (shared with the frame's
/// walk by reference, hence the lock; it is never contended).
#[derive(Debug)]
pub struct AgentCalls {
    inner: Mutex<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    by_key: IndexMap<String, (String, AgentCallState)>,
    by_id: HashMap<String, String>,
    outgoing: Vec<OutgoingAgentCall>,
    next: u64,
    max: usize,
}

impl Default for AgentCalls {
    fn default() -> Self {
        Self::with_max(Limits::default().max_agent_calls)
    }
}

impl AgentCalls {
    /// No calls; at most `max` remembered.
    pub fn with_max(max: usize) -> Self {
        Self {
            inner: Mutex::new(Inner {
                max,
                ..Inner::default()
            }),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        // A panic elsewhere while holding the lock leaves plain data behind: keep using it.
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Apply [`Limits::max_agent_calls`] to later calls (calls already made stay).
    pub fn set_max(&self, max: usize) {
        self.lock().max = max;
    }

    /// The state of the call `name(args)` for `surface_id`, registering it (and queueing a
    /// `callAgentFunction`) the first time it is seen.
    pub fn lookup(
        &self,
        surface_id: &str,
        name: &str,
        args: &Map<String, Value>,
        catalog_id: Option<&str>,
    ) -> AgentCallState {
        let mut call = json!({"call": name, "args": args});
        if let (Some(c), Some(o)) = (catalog_id, call.as_object_mut()) {
            o.insert("catalogId".into(), json!(c));
        }
        let key = format!("{surface_id}\u{0}{call}");
        let mut inner = self.lock();
        if let Some((_, state)) = inner.by_key.get(&key) {
            return state.clone();
        }
        if inner.by_key.len() >= inner.max {
            return AgentCallState::Failed(
                "LIMIT_EXCEEDED".into(),
                "too many outstanding agent function calls".into(),
            );
        }
        inner.next += 1;
        let id = format!("renderer-call-{}", inner.next);
        inner
            .by_key
            .insert(key.clone(), (id.clone(), AgentCallState::Pending));
        inner.by_id.insert(id.clone(), key);
        inner.outgoing.push(OutgoingAgentCall {
            surface_id: surface_id.to_owned(),
            function_call_id: id,
            call,
        });
        AgentCallState::Pending
    }

    /// Record the agent's answer; `false` when the id is unknown (a stray or duplicate
    /// response).
    pub fn answer(&self, function_call_id: &str, result: Result<Value, (String, String)>) -> bool {
        let mut inner = self.lock();
        let Some(key) = inner.by_id.remove(function_call_id) else {
            return false;
        };
        let Some(entry) = inner.by_key.get_mut(&key) else {
            return false;
        };
        entry.1 = match result {
            Ok(v) => AgentCallState::Done(v),
            Err((code, message)) => AgentCallState::Failed(code, message),
        };
        true
    }

    /// Calls registered since the last drain, to send to the agent.
    pub fn drain_outgoing(&self) -> Vec<OutgoingAgentCall> {
        std::mem::take(&mut self.lock().outgoing)
    }

    /// Forget every call of a surface (on deleteSurface).
    pub fn forget_surface(&self, surface_id: &str) {
        let prefix = format!("{surface_id}\u{0}");
        let inner = &mut *self.lock();
        let by_id = &mut inner.by_id;
        inner.by_key.retain(|k, (id, _)| {
            let keep = !k.starts_with(&prefix);
            if !keep {
                by_id.remove(id);
            }
            keep
        });
        inner.outgoing.retain(|c| c.surface_id != surface_id);
    }
}
