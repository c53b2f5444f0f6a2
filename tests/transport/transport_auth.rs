//! Credentials and cut streams against the real peers: an A2A 1.0 agent (a2a-sdk 1.x) that
//! requires a bearer token and declares it in its card, an AG-UI server that requires an
//! API-key header, and A2A agents of both dialects whose stream is cut mid-task
//! (`fault:drop`, ended cleanly as the SDK servers do).

use crate::common::peers as peers_common;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use egui_a2ui::Catalog;
use egui_a2ui::transport::a2a::{A2aClient, A2aHost, SecurityScheme};
use egui_a2ui::transport::agui::AguiClient;
use egui_a2ui::transport::{
    Secret, TaskState, TransportError, TransportEvent, TransportOptions, Turn, error_json,
};
use peers_common::{Venv, start_with_env};

const TOKEN: &str = "tok-3f9c1e-SECRET";
const API_KEY: &str = "key-77ab-SECRET";

/// Everything a host could print of a turn: each event's JSON line and `Debug`, the
/// error's `Display`, `Debug` and JSON.
fn printed(ev: &[TransportEvent], r: &Result<(), TransportError>) -> String {
    let mut out = String::new();
    for e in ev {
        out.push_str(&e.to_json().to_string());
        out.push_str(&format!("{e:?}"));
    }
    if let Err(e) = r {
        out.push_str(&format!("{e} {e:?} {}", error_json(e)));
    }
    out
}

async fn turn(c: &mut A2aClient, text: &str) -> (Vec<TransportEvent>, Result<(), TransportError>) {
    let mut ev = Vec::new();
    let r = c
        .send(&Turn::Text(text.into()), |e| ev.push(e.clone()))
        .await;
    (ev, r)
}

#[tokio::test]
async fn a2a_bearer_without_it_is_unauthorized_with_the_challenge_and_with_it_the_turn_works() {
    let peer = start_with_env(Venv::A2a1, "a2a10_peer.py", &[("PEER_BEARER_TOKEN", TOKEN)]);
    // The card is public: it says a bearer token is needed.
    let mut c = A2aClient::connect(&peer.url(""), Catalog::basic(), TransportOptions::default())
        .await
        .unwrap();
    let card = c.session().card().clone();
    assert_eq!(
        card.security_schemes,
        vec![(
            "bearer".to_owned(),
            SecurityScheme::Http {
                scheme: "bearer".into(),
                bearer_format: Some("opaque".into())
            }
        )]
    );
    assert_eq!(card.security, vec![vec![("bearer".to_owned(), vec![])]]);
    assert!(card.extended_card);
    assert!(
        !card.name.contains("[extended]"),
        "no credentials: no extended card"
    );
    let (ev, r) = turn(&mut c, "pasta").await;
    match &r {
        Err(TransportError::Unauthorized {
            status: 401,
            challenge: Some(ch),
            ..
        }) => {
            assert_eq!(ch.scheme, "Bearer");
            assert_eq!(ch.realm.as_deref(), Some("a2a10-peer"));
            assert_eq!(ch.error.as_deref(), Some("invalid_token"));
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        ev.last(),
        Some(TransportEvent::TurnEnded {
            error: Some(TransportError::Unauthorized { .. })
        })
    ));

    // With the token: the extended card, and the turn works.
    let options = TransportOptions::default().with_bearer(TOKEN);
    assert!(!format!("{options:?}").contains(TOKEN));
    let mut c = A2aClient::connect(&peer.url(""), Catalog::basic(), options)
        .await
        .unwrap();
    assert!(
        c.session().card().name.contains("[extended]"),
        "{}",
        c.session().card().name
    );
    let (ev, r) = turn(&mut c, "pasta").await;
    r.as_ref().unwrap();
    assert!(c.session().store().surface("results").is_some());
    let shown = printed(&ev, &r) + &format!("{:?}", c.session());
    assert!(!shown.contains(TOKEN), "the token was printed");
}

#[tokio::test]
async fn a_provider_is_asked_again_after_a_401_and_the_refreshed_token_gets_in() {
    let peer = start_with_env(Venv::A2a1, "a2a10_peer.py", &[("PEER_BEARER_TOKEN", TOKEN)]);
    let calls = Arc::new(AtomicUsize::new(0));
    let refreshes = Arc::new(AtomicUsize::new(0));
    let (c2, r2) = (calls.clone(), refreshes.clone());
    let options = TransportOptions::default().with_credentials(move |req| {
        c2.fetch_add(1, Ordering::SeqCst);
        // An expired token first; the fresh one when asked after the 401.
        let token = if req.after_unauthorized {
            r2.fetch_add(1, Ordering::SeqCst);
            assert_eq!(
                req.challenge.map(|c| c.scheme.as_str()),
                Some("Bearer"),
                "the challenge comes with the second ask"
            );
            TOKEN
        } else {
            "expired"
        };
        Some(vec![(
            "Authorization".to_owned(),
            Secret::new(format!("Bearer {token}")),
        )])
    });
    let mut c = A2aClient::connect(&peer.url(""), Catalog::basic(), options)
        .await
        .unwrap();
    let (_, r) = turn(&mut c, "pasta").await;
    r.unwrap();
    assert!(c.session().store().surface("results").is_some());
    assert!(refreshes.load(Ordering::SeqCst) >= 1);
    assert!(calls.load(Ordering::SeqCst) > refreshes.load(Ordering::SeqCst));
}

#[test]
fn the_host_fetches_the_extended_card_with_credentials_and_draws() {
    let peer = start_with_env(Venv::A2a1, "a2a10_peer.py", &[("PEER_BEARER_TOKEN", TOKEN)]);
    let options =
        TransportOptions::default().with_header("Authorization", format!("Bearer {TOKEN}"));
    let mut host = A2aHost::connect(&peer.url(""), Catalog::basic(), options, || {}).unwrap();
    let mut log = Vec::new();
    // Bounded: 30 s of polling.
    for _ in 0..600 {
        log.extend(host.poll());
        if !host.is_busy() {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(host.connect_error().is_none(), "{:?}", host.connect_error());
    assert!(host.session().unwrap().card().name.contains("[extended]"));
    host.send(Turn::Text("pasta".into())).unwrap();
    for _ in 0..600 {
        log.extend(host.poll());
        if !host.is_busy() {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(host.session().unwrap().store().surface("results").is_some());
    let shown: String = log
        .iter()
        .map(|e| format!("{e:?}{}", e.to_json()))
        .collect();
    assert!(!shown.contains(TOKEN));
    assert!(!format!("{host:?}").contains(TOKEN));
}

#[tokio::test]
async fn agui_api_key_without_it_is_unauthorized_and_with_it_the_run_works() {
    let peer = start_with_env(Venv::Main, "agui_peer.py", &[("PEER_API_KEY", API_KEY)]);
    let url = peer.url("/");
    let mut c = AguiClient::new(&url, Catalog::basic(), TransportOptions::default()).unwrap();
    let mut ev = Vec::new();
    let r = c
        .send(&Turn::Text("pasta".into()), |e| ev.push(e.clone()))
        .await;
    match &r {
        Err(TransportError::Unauthorized {
            status: 401,
            challenge: Some(ch),
            ..
        }) => {
            assert_eq!(ch.scheme, "ApiKey");
            assert!(ch.params.contains(&("header".into(), "x-api-key".into())));
        }
        other => panic!("{other:?}"),
    }
    let options = TransportOptions::default().with_header("X-Api-Key", API_KEY);
    let shown_options = format!("{options:?}");
    assert!(
        shown_options.contains("X-Api-Key: <redacted>"),
        "{shown_options}"
    );
    let mut c = AguiClient::new(&url, Catalog::basic(), options).unwrap();
    let mut ev = Vec::new();
    let r = c
        .send(&Turn::Text("pasta".into()), |e| ev.push(e.clone()))
        .await;
    r.as_ref().unwrap();
    assert!(c.session().store().surface("results").is_some());
    assert!(!printed(&ev, &r).contains(API_KEY));
}

/// A turn whose stream the peer cuts after two events (the task goes on): resubscribed
/// (then `tasks/get`), every surface once, the turn ends where the task ended.
async fn a_cut_stream_is_picked_up(venv: Venv, script: &str, resubscribe: &str, get: &str) {
    let peer = start_with_env(venv, script, &[("PEER_STEP_DELAY_S", "0.3")]);
    let mut c = A2aClient::connect(&peer.url(""), Catalog::basic(), TransportOptions::default())
        .await
        .unwrap();
    let (ev, r) = turn(&mut c, "fault:drop").await;
    r.as_ref().unwrap();
    let methods: Vec<&str> = ev
        .iter()
        .filter_map(|e| match e {
            TransportEvent::Request { method, .. } => Some(method.as_str()),
            _ => None,
        })
        .collect();
    assert!(methods.contains(&resubscribe), "{methods:?}");
    assert!(methods.contains(&get), "{methods:?}");
    let rejected: Vec<_> = ev
        .iter()
        .filter(|e| matches!(e, TransportEvent::Rejected { .. }))
        .collect();
    assert!(rejected.is_empty(), "a message applied twice: {rejected:?}");
    let store = c.session().store();
    let results = store.surface("results").expect("the results surface");
    for id in ["pick-r1", "pick-r2", "pick-r3"] {
        assert!(results.component(id).is_some(), "{id}");
    }
    let texts = c
        .session()
        .transcript()
        .iter()
        .filter(|t| t.text.contains("places for"))
        .count();
    assert!(
        texts <= 1,
        "the closing text once: {:?}",
        c.session().transcript()
    );
    assert!(
        matches!(
            c.session().state(),
            Some(TaskState::InputRequired | TaskState::Completed)
        ),
        "{:?}",
        c.session().state()
    );
    // The next turn works.
    let (_, r) = turn(&mut c, "pasta").await;
    r.unwrap();
}

#[tokio::test]
async fn a_cut_a2a_0_3_stream_is_resubscribed_and_every_surface_applied_once() {
    a_cut_stream_is_picked_up(
        Venv::Main,
        "a2a03_peer.py",
        "tasks/resubscribe",
        "tasks/get",
    )
    .await;
}

#[tokio::test]
async fn a_cut_a2a_1_0_stream_is_resubscribed_and_every_surface_applied_once() {
    a_cut_stream_is_picked_up(Venv::A2a1, "a2a10_peer.py", "SubscribeToTask", "GetTask").await;
}
