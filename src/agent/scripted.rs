//! [`ScriptedConnection`]: an [`AgentConnection`] that plays back scripted replies, for
//! tests and benches of hosts and of the agent panel (feature `testing`).

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};

use serde_json::Value;

use super::{AgentConnection, ConnectionStatus};
use crate::model::{AgentOrigin, SurfaceStore};
use crate::transport::{Role, TaskState, TransportError, TransportEvent, Turn};

/// What a [`ScriptedConnection`] plays and what it was sent, shared with the test (see
/// [`ScriptedConnection::script`]).
#[derive(Debug, Default)]
pub struct Script {
    /// The reply to each turn, in order: the A2UI messages applied to the store (a turn
    /// past the end gets none).
    pub replies: VecDeque<Vec<Value>>,
    /// The agent's prose with each reply (`None`: no prose).
    pub text: Option<String>,
    /// The turns sent, in order.
    pub sent: Vec<Turn>,
    /// How many times the turn in flight was cancelled.
    pub cancels: usize,
    /// Fail the next turn with this error (instead of replying).
    pub fail_next: Option<TransportError>,
    /// Keep the turn in flight (busy) until set back to `false`.
    pub hold: bool,
}

/// A connection that answers each turn, on the next [`poll`](AgentConnection::poll), with the
/// next scripted reply (see [`Script`]).
#[derive(Debug)]
pub struct ScriptedConnection {
    store: SurfaceStore,
    busy: bool,
    script: Arc<Mutex<Script>>,
}

impl ScriptedConnection {
    /// A connection replying `replies` in order, with the prose "Here you go.".
    pub fn new(replies: Vec<Vec<Value>>) -> Self {
        Self {
            store: SurfaceStore::basic(),
            busy: false,
            script: Arc::new(Mutex::new(Script {
                replies: replies.into(),
                text: Some("Here you go.".into()),
                ..Script::default()
            })),
        }
    }

    /// The script, shared: change it or read what was sent while an [`Agent`](super::Agent)
    /// holds the connection.
    pub fn script(&self) -> Arc<Mutex<Script>> {
        Arc::clone(&self.script)
    }

    fn lock(&self) -> MutexGuard<'_, Script> {
        self.script
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl AgentConnection for ScriptedConnection {
    fn kind(&self) -> &'static str {
        "Scripted"
    }
    fn origin(&self) -> Option<AgentOrigin> {
        Some(AgentOrigin::new("Scripted agent").with_host("https://agent.test/a2a"))
    }
    fn status(&self) -> ConnectionStatus {
        if self.busy {
            ConnectionStatus::Busy
        } else {
            ConnectionStatus::Ready
        }
    }
    fn send(&mut self, turn: Turn) -> Result<(), TransportError> {
        if self.busy {
            return Err(TransportError::Action("a turn is already in flight".into()));
        }
        self.lock().sent.push(turn);
        self.busy = true;
        Ok(())
    }
    fn cancel(&mut self) -> Result<(), TransportError> {
        if self.busy {
            self.lock().cancels += 1;
            self.busy = false;
        }
        Ok(())
    }
    fn poll(&mut self) -> Vec<TransportEvent> {
        if !self.busy {
            return Vec::new();
        }
        let mut script = self
            .script
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if script.hold {
            return Vec::new();
        }
        self.busy = false;
        if let Some(error) = script.fail_next.take() {
            return vec![TransportEvent::TurnEnded { error: Some(error) }];
        }
        let mut out = Vec::new();
        if let Some(text) = &script.text {
            out.push(TransportEvent::Text {
                role: Role::Agent,
                text: text.clone(),
            });
        }
        let messages = script.replies.pop_front().unwrap_or_default();
        let count = messages.len();
        let mut surfaces = Vec::new();
        for m in messages {
            if let Some(id) = self.store.apply(m).surface_id()
                && !surfaces.iter().any(|s: &String| s == id)
            {
                surfaces.push(id.to_owned());
            }
        }
        if count > 0 {
            out.push(TransportEvent::Applied { count, surfaces });
        }
        out.push(TransportEvent::TurnEnded { error: None });
        out
    }
    fn state(&self) -> Option<&TaskState> {
        None
    }
    fn stores(&self) -> Vec<&SurfaceStore> {
        vec![&self.store]
    }
    fn stores_mut(&mut self) -> Vec<&mut SurfaceStore> {
        vec![&mut self.store]
    }
}
