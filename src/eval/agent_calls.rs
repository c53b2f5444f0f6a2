//! v1.0 `callAgentFunction`: a FunctionCall naming a function the renderer does not have is
//! sent to the agent; the binding is pending until `agentFunctionResponse` arrives, then
//! resolves to its value (or to `null`, with checks invalid and actions halted, on error).

use std::cell::{Cell, RefCell};
use std::collections::HashMap;

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
/// fail at once.
#[derive(Debug)]
pub struct AgentCalls {
    by_key: RefCell<IndexMap<String, (String, AgentCallState)>>,
    by_id: RefCell<HashMap<String, String>>,
    outgoing: RefCell<Vec<OutgoingAgentCall>>,
    next: RefCell<u64>,
    max: Cell<usize>,
}

impl Default for AgentCalls {
    fn default() -> Self {
        Self {
            by_key: RefCell::default(),
            by_id: RefCell::default(),
            outgoing: RefCell::default(),
            next: RefCell::default(),
            max: Cell::new(Limits::default().max_agent_calls),
        }
    }
}

impl AgentCalls {
    /// Apply [`Limits::max_agent_calls`] to later calls (calls already made stay).
    pub fn set_max(&self, max: usize) {
        self.max.set(max);
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
        if let Some((_, state)) = self.by_key.borrow().get(&key) {
            return state.clone();
        }
        if self.by_key.borrow().len() >= self.max.get() {
            return AgentCallState::Failed(
                "LIMIT_EXCEEDED".into(),
                "too many outstanding agent function calls".into(),
            );
        }
        let id = {
            let mut n = self.next.borrow_mut();
            *n += 1;
            format!("renderer-call-{n}")
        };
        self.by_key
            .borrow_mut()
            .insert(key.clone(), (id.clone(), AgentCallState::Pending));
        self.by_id.borrow_mut().insert(id.clone(), key);
        self.outgoing.borrow_mut().push(OutgoingAgentCall {
            surface_id: surface_id.to_owned(),
            function_call_id: id,
            call,
        });
        AgentCallState::Pending
    }

    /// Record the agent's answer; `false` when the id is unknown (a stray or duplicate
    /// response).
    pub fn answer(&self, function_call_id: &str, result: Result<Value, (String, String)>) -> bool {
        let Some(key) = self.by_id.borrow_mut().remove(function_call_id) else {
            return false;
        };
        let mut by_key = self.by_key.borrow_mut();
        let Some(entry) = by_key.get_mut(&key) else {
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
        std::mem::take(&mut *self.outgoing.borrow_mut())
    }

    /// Forget every call of a surface (on deleteSurface).
    pub fn forget_surface(&self, surface_id: &str) {
        let prefix = format!("{surface_id}\u{0}");
        let mut by_key = self.by_key.borrow_mut();
        let mut by_id = self.by_id.borrow_mut();
        by_key.retain(|k, (id, _)| {
            let keep = !k.starts_with(&prefix);
            if !keep {
                by_id.remove(id);
            }
            keep
        });
    }
}
