//! The thread the [`Agent`] handle builds over a connection, with a scripted connection.

use std::collections::VecDeque;

use serde_json::json;

use super::*;

/// A connection that plays back events and applies messages to its one store.
struct Scripted {
    store: SurfaceStore,
    replies: VecDeque<Vec<serde_json::Value>>,
    busy: bool,
    sent: Vec<Turn>,
    fail_next: Option<TransportError>,
}

impl Scripted {
    fn new(replies: Vec<Vec<serde_json::Value>>) -> Self {
        Self {
            store: SurfaceStore::basic(),
            replies: replies.into(),
            busy: false,
            sent: Vec::new(),
            fail_next: None,
        }
    }
}

impl AgentConnection for Scripted {
    fn kind(&self) -> &'static str {
        "test"
    }
    fn origin(&self) -> Option<AgentOrigin> {
        Some(AgentOrigin::new("Scripted").with_host("https://agent.test/a2a"))
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
        self.sent.push(turn);
        self.busy = true;
        Ok(())
    }
    fn cancel(&mut self) -> Result<(), TransportError> {
        self.busy = false;
        Ok(())
    }
    fn poll(&mut self) -> Vec<TransportEvent> {
        if !self.busy {
            return Vec::new();
        }
        self.busy = false;
        if let Some(error) = self.fail_next.take() {
            return vec![TransportEvent::TurnEnded { error: Some(error) }];
        }
        let mut out = vec![TransportEvent::Text {
            role: Role::Agent,
            text: "Here you go.".into(),
        }];
        let mut surfaces = Vec::new();
        let messages = self.replies.pop_front().unwrap_or_default();
        let count = messages.len();
        for m in messages {
            if let Some(id) = self.store.apply(m).surface_id() {
                surfaces.push(id.to_owned());
            }
        }
        out.push(TransportEvent::Applied { count, surfaces });
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

const CAT: &str = "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json";

fn surface(id: &str, text: &str) -> Vec<serde_json::Value> {
    vec![
        json!({"version": "v0.9", "createSurface": {"surfaceId": id, "catalogId": CAT}}),
        json!({"version": "v0.9", "updateComponents": {"surfaceId": id, "components": [
            {"id": "root", "component": "Text", "text": text}]}}),
    ]
}

#[test]
fn the_thread_holds_user_text_agent_text_and_each_surface_once_where_it_was_created() {
    let update = vec![
        json!({"version": "v0.9", "updateComponents": {"surfaceId": "a",
        "components": [{"id": "root", "component": "Text", "text": "updated"}]}}),
    ];
    let mut agent = Agent::new(Scripted::new(vec![surface("a", "first"), update]));
    agent.send(Turn::Text("hello".into())).expect("send");
    assert!(agent.is_busy());
    let _ = agent.poll();
    agent.send(Turn::Text("again".into())).expect("send");
    let _ = agent.poll();
    let store = agent.stores()[0].id();
    assert_eq!(
        agent.thread(),
        &[
            ThreadEntry::User {
                text: "hello".into()
            },
            ThreadEntry::Agent {
                text: "Here you go.".into()
            },
            ThreadEntry::Surface {
                store,
                surface_id: "a".into()
            },
            ThreadEntry::User {
                text: "again".into()
            },
            ThreadEntry::Agent {
                text: "Here you go.".into()
            },
        ],
        "the update draws in place: no second surface entry"
    );
}

#[test]
fn a_failed_turn_is_an_error_entry_with_its_turn_to_retry() {
    let mut conn = Scripted::new(vec![surface("a", "x")]);
    conn.fail_next = Some(TransportError::Closed);
    let mut agent = Agent::new(conn);
    agent.send(Turn::Text("hi".into())).expect("send");
    let _ = agent.poll();
    assert_eq!(
        agent.thread().last(),
        Some(&ThreadEntry::Error {
            error: TransportError::Closed,
            retry: Some(Box::new(Turn::Text("hi".into())))
        })
    );
    agent.retry().expect("retry");
    let _ = agent.poll();
    assert!(matches!(
        agent.thread().last(),
        Some(ThreadEntry::Surface { .. })
    ));
}

#[test]
fn a_turn_in_flight_refuses_the_next_and_an_action_refused_is_kept_as_an_error() {
    let mut agent = Agent::new(Scripted::new(vec![]));
    agent.send(Turn::Text("one".into())).expect("send");
    assert!(agent.send(Turn::Text("two".into())).is_err());
    let action = crate::action::ActionEvent {
        surface_id: "a".into(),
        source_component_id: "b".into(),
        name: "book".into(),
        context: serde_json::Map::new(),
        timestamp: String::new(),
        user_message: None,
        version: crate::protocol::Version::V0_9,
        scope: "/".into(),
    };
    agent.send_actions([action]);
    assert!(matches!(
        agent.thread().last(),
        Some(ThreadEntry::Error { retry: Some(t), .. }) if matches!(**t, Turn::Action(_))
    ));
}

#[test]
fn the_handle_sets_each_stores_origin_from_the_connection_not_the_agent() {
    let mut agent = Agent::new(Scripted::new(vec![surface("a", "x")]));
    agent.send(Turn::Text("hi".into())).expect("send");
    let _ = agent.poll();
    let origin = agent.stores()[0].origin().map(AgentOrigin::label);
    assert_eq!(origin.as_deref(), Some("Scripted · agent.test"));
}

#[test]
fn the_thread_is_bounded_and_keeps_its_surfaces() {
    let mut agent = Agent::new(Scripted::new(vec![surface("a", "x")])).with_max_entries(16);
    agent.send(Turn::Text("first".into())).expect("send");
    let _ = agent.poll();
    for i in 0..40 {
        agent.send(Turn::Text(format!("turn {i}"))).expect("send");
        let _ = agent.poll();
    }
    assert_eq!(agent.thread().len(), 16);
    assert!(
        agent
            .thread()
            .iter()
            .any(|e| matches!(e, ThreadEntry::Surface { .. }))
    );
}

#[cfg(unix)]
#[test]
fn a_jsonl_process_draws_its_output_and_reads_actions_on_stdin() {
    // The agent prints a surface, then echoes its first input line back as the text of a
    // second surface: proof that the action reached its stdin.
    let script = format!(
        "printf '%s\\n' '{}' '{}'; read line; printf '%s\\n' '{}'",
        json!({"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": CAT}}),
        json!({"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": [
            {"id": "root", "component": "Text", "text": "from the process"}]}}),
        json!({"version": "v0.9", "createSurface": {"surfaceId": "echo", "catalogId": CAT}}),
    );
    let p = JsonlProcess::spawn(
        "sh",
        &["-c".to_owned(), script],
        SurfaceStore::basic(),
        || {},
    )
    .expect("spawn sh");
    let mut agent = Agent::new(p);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while agent.thread().is_empty() && std::time::Instant::now() < deadline {
        let _ = agent.poll();
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let store = agent.stores()[0];
    assert!(store.surface("s").is_some_and(|s| s.is_visible()));
    let origin = agent.origin().map(|o| o.label()).unwrap_or_default();
    assert!(
        origin.starts_with("sh -c") && origin.ends_with(" · stdio"),
        "{origin}"
    );
    agent.send(Turn::Text("hi".into())).expect("send");
    while store_has(&agent, "echo").is_none() && std::time::Instant::now() < deadline {
        let _ = agent.poll();
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    assert!(
        store_has(&agent, "echo").is_some(),
        "the process read its stdin"
    );
}

fn store_has(agent: &Agent, id: &str) -> Option<()> {
    agent.stores()[0].surface(id).map(|_| ())
}
