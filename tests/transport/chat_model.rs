//! A model the host runs itself, over the OpenAI-compatible chat API
//! (`tests/peers/chat_peer.py`: recorded answers streamed as `chat.completion.chunk` events,
//! a few characters each, as llama.cpp's server and Ollama send them), reached with
//! `Agent::connect("chat+http://…/v1#MODEL")`: the system prompt tells the catalog, the
//! answer grows surfaces through the model-text path (JSON and Express blocks), a user
//! action is the next user message, a UI that does not compile is asked for once more, a cut
//! answer keeps what arrived, and the API key never shows.

use std::time::{Duration, Instant};

use crate::common::peers::{Venv, start, start_with_env};
use egui_a2ui::agent::{Agent, ConnectionStatus, ThreadEntry};
use egui_a2ui::transport::{TransportError, TransportEvent, TransportOptions, Turn};
use egui_a2ui::{Catalog, transport};
use serde_json::Value;

fn connect(url: &str, options: TransportOptions) -> Agent {
    let target = format!("chat+{url}/v1#test-model");
    Agent::connect(&target, Catalog::basic(), options, || {}).expect("connect")
}

/// Send `turn` once ready and poll until the turn ended (bounded); every event returned.
fn run(agent: &mut Agent, turn: Turn) -> Vec<TransportEvent> {
    let deadline = Instant::now() + Duration::from_secs(30);
    while agent.status() != ConnectionStatus::Ready && Instant::now() < deadline {
        let _ = agent.poll();
        std::thread::sleep(Duration::from_millis(10));
    }
    agent.send(turn).expect("send");
    let mut events = Vec::new();
    loop {
        let batch = agent.poll();
        let ended = batch
            .iter()
            .any(|e| matches!(e, TransportEvent::TurnEnded { .. }));
        events.extend(batch);
        if ended {
            return events;
        }
        assert!(
            Instant::now() < deadline,
            "the turn did not end: {events:#?}"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn surface<'a>(agent: &'a Agent, id: &str) -> Option<&'a egui_a2ui::Surface> {
    agent.stores().into_iter().find_map(|s| s.surface(id))
}

/// A component's properties as JSON (`None`: no such component).
fn component(s: &egui_a2ui::Surface, id: &str) -> Option<Value> {
    s.component(id).map(|c| Value::Object(c.props().to_map()))
}

fn request_body(events: &[TransportEvent]) -> &Value {
    events
        .iter()
        .find_map(|e| match e {
            TransportEvent::Request { body, .. } => Some(body),
            _ => None,
        })
        .expect("a request event")
}

fn turn_error(events: &[TransportEvent]) -> Option<&TransportError> {
    events.iter().find_map(|e| match e {
        TransportEvent::TurnEnded { error } => error.as_ref(),
        _ => None,
    })
}

#[test]
fn a_chat_model_answers_with_a_form_and_the_action_goes_back_as_the_next_message() {
    let peer = start(Venv::Main, "chat_peer.py");
    let mut agent = connect(&peer.url(""), TransportOptions::default());
    let events = run(&mut agent, Turn::Text("booking".into()));
    assert!(turn_error(&events).is_none(), "{events:#?}");

    // What went out: the model, streaming, the system prompt (the prompt generator's
    // Express prompt) giving the catalog's components as signatures, then the user's text.
    let body = request_body(&events);
    assert_eq!(body["model"], "test-model");
    assert_eq!(body["stream"], true);
    let system = body["messages"][0]["content"].as_str().unwrap();
    assert_eq!(body["messages"][0]["role"], "system");
    for name in [
        "• TextField(",
        "• Button(",
        "• ChoicePicker(",
        "<a2ui>",
        "</a2ui>",
    ] {
        assert!(system.contains(name), "the prompt names {name}");
    }
    assert_eq!(body["messages"][1]["content"], "booking");

    let s = surface(&agent, "booking").expect("the booking surface");
    assert_eq!(s.data.get("/name"), Some(&Value::from("Ada")));
    assert!(component(s, "book").is_some());
    // The prose around the block is the agent's text in the thread.
    assert!(agent.thread().iter().any(|e| matches!(
        e,
        ThreadEntry::Agent { text } if text.contains("booking form") && text.contains("Press Book")
    )));

    // The user presses Book: the action is the next user message, the model confirms.
    let press = transport::click(agent.stores()[0], "book").expect("a Book action");
    let events = run(&mut agent, press);
    assert!(turn_error(&events).is_none(), "{events:#?}");
    let body = request_body(&events);
    let messages = body["messages"].as_array().unwrap();
    // system, user, assistant (the whole first answer), user (the action)
    assert_eq!(messages.len(), 4, "{messages:#?}");
    assert_eq!(messages[2]["role"], "assistant");
    assert!(
        messages[2]["content"]
            .as_str()
            .unwrap()
            .contains("<a2ui-json>")
    );
    let action = messages[3]["content"].as_str().unwrap();
    assert!(
        action.contains("\"book\"") && action.contains("Ada"),
        "{action}"
    );
    let done = surface(&agent, "done").expect("the confirmation");
    assert_eq!(
        component(done, "root").unwrap()["text"],
        "Table booked for Ada"
    );
}

#[test]
fn an_express_answer_draws_the_same_form() {
    let peer = start(Venv::Main, "chat_peer.py");
    let mut agent = connect(&peer.url(""), TransportOptions::default());
    let events = run(&mut agent, Turn::Text("express".into()));
    assert!(turn_error(&events).is_none(), "{events:#?}");
    let s = surface(&agent, "booking").expect("the booking surface from Express");
    assert_eq!(s.data.get("/name"), Some(&Value::from("Ada")));
    let title = component(s, "title").expect("title");
    assert_eq!(title["text"], "Book a table at Luigi's");
    assert!(component(s, "book").is_some());
}

#[test]
fn a_ui_that_does_not_compile_is_asked_for_once_more_with_its_errors() {
    let peer = start(Venv::Main, "chat_peer.py");
    let mut agent = connect(&peer.url(""), TransportOptions::default());
    let events = run(&mut agent, Turn::Text("fault:malformed".into()));
    assert!(turn_error(&events).is_none(), "{events:#?}");
    let requests: Vec<&Value> = events
        .iter()
        .filter_map(|e| match e {
            TransportEvent::Request { body, .. } => Some(body),
            _ => None,
        })
        .collect();
    assert_eq!(requests.len(), 2, "one retry: {events:#?}");
    let retry = requests[1]["messages"].as_array().unwrap();
    let told = retry.last().unwrap()["content"].as_str().unwrap();
    assert!(told.contains("did not work"), "{told}");
    // The retried answer drew the form, once.
    let s = surface(&agent, "booking").expect("the corrected form");
    assert!(component(s, "book").is_some());
    let booking_entries = agent
        .thread()
        .iter()
        .filter(|e| matches!(e, ThreadEntry::Surface { surface_id, .. } if surface_id == "booking"))
        .count();
    assert_eq!(booking_entries, 1);
}

#[test]
fn a_cut_answer_keeps_what_arrived_and_the_next_turn_works() {
    let peer = start(Venv::Main, "chat_peer.py");
    let mut agent = connect(&peer.url(""), TransportOptions::default());
    let _ = run(&mut agent, Turn::Text("fault:cut".into()));
    let s = surface(&agent, "booking").expect("the surface begun before the cut");
    assert!(
        component(s, "title").is_some(),
        "the complete components stay"
    );
    let events = run(&mut agent, Turn::Text("booking".into()));
    assert!(turn_error(&events).is_none(), "{events:#?}");
}

#[test]
fn a_server_error_chunk_ends_the_turn_with_its_message() {
    let peer = start(Venv::Main, "chat_peer.py");
    let mut agent = connect(&peer.url(""), TransportOptions::default());
    let events = run(&mut agent, Turn::Text("fault:error".into()));
    let e = turn_error(&events).expect("a failed turn");
    assert!(e.to_string().contains("overloaded"), "{e}");
    assert!(
        agent
            .thread()
            .iter()
            .any(|e| matches!(e, ThreadEntry::Error { .. }))
    );
}

#[test]
fn the_api_key_reaches_the_server_and_nothing_prints_it() {
    const KEY: &str = "sk-test-0123456789abcdef";
    let peer = start_with_env(Venv::Main, "chat_peer.py", &[("PEER_BEARER_TOKEN", KEY)]);
    // Without the key: a typed 401.
    let mut agent = connect(&peer.url(""), TransportOptions::default());
    let events = run(&mut agent, Turn::Text("booking".into()));
    assert!(
        matches!(
            turn_error(&events),
            Some(TransportError::Unauthorized { status: 401, .. })
        ),
        "{events:#?}"
    );
    // With it: the form, and the key in no event, error or debug print.
    let mut agent = connect(&peer.url(""), TransportOptions::default().with_bearer(KEY));
    let events = run(&mut agent, Turn::Text("booking".into()));
    assert!(turn_error(&events).is_none(), "{events:#?}");
    assert!(surface(&agent, "booking").is_some());
    let printed = format!("{events:?} {agent:?} {:?}", agent.thread());
    let json: Vec<String> = events.iter().map(|e| e.to_json().to_string()).collect();
    assert!(!printed.contains(KEY) && !json.concat().contains(KEY));
}
