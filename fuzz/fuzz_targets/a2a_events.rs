//! A2A event and part parsing, both dialects: the first byte picks the dialect (0.3 or 1.0)
//! and streaming; every following line is one JSON-RPC answer (or stream event) handed to
//! `A2aSession::on_item`, a line that is not JSON as the error the SSE reader would give;
//! then the turn ends (cleanly or not). Cards are parsed from the input too.
#![no_main]

use egui_a2ui::Catalog;
use egui_a2ui::transport::a2a::{A2aSession, AgentCard, ends_turn};
use egui_a2ui::transport::{TransportError, Turn};
use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};

/// The catalog, built once: building the basic catalog costs more than most inputs' work,
/// and the session gets a clone (the renderers are shared).
fn catalog() -> Catalog {
    static CATALOG: std::sync::OnceLock<Catalog> = std::sync::OnceLock::new();
    CATALOG.get_or_init(Catalog::basic).clone()
}

const BASIC09: &str = "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json";

fn card(v10: bool) -> Value {
    let ext = json!([
        {"uri": "https://a2ui.org/a2a-extension/a2ui/v0.8"},
        {"uri": "https://a2ui.org/a2a-extension/a2ui/v0.9",
         "params": {"supportedCatalogIds": [BASIC09], "acceptsInlineCatalogs": true}}
    ]);
    if v10 {
        json!({"name": "f", "supportedInterfaces": [{"url": "http://127.0.0.1:9/",
               "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}],
               "capabilities": {"streaming": true, "extensions": ext}})
    } else {
        json!({"name": "f", "url": "http://127.0.0.1:9/", "protocolVersion": "0.3.0",
               "capabilities": {"streaming": true, "extensions": ext}})
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let Ok(card) = AgentCard::parse(&card(mode & 1 == 1), "http://127.0.0.1:9") else {
        return;
    };
    let Ok(session) = A2aSession::new(card, catalog()) else {
        return;
    };
    let mut session = session.with_streaming(mode & 2 == 0);
    if mode & 4 == 0 {
        let _ = session.request(&Turn::Text("pasta".into()));
    }
    for line in rest.split(|b| *b == b'\n') {
        if line.is_empty() {
            continue;
        }
        let item = match serde_json::from_slice::<Value>(line) {
            Ok(v) => {
                let _ = ends_turn(&v);
                // The same value read as a card (and as an extended card's answer).
                let _ = AgentCard::parse(&v, "http://127.0.0.1:9");
                let _ = AgentCard::parse_extended(&v, "http://127.0.0.1:9");
                Ok(v)
            }
            Err(e) => Err(TransportError::MalformedSse(e.to_string())),
        };
        let _ = session.on_item(item);
        let _ = session.final_seen();
    }
    let outcome = if mode & 8 == 0 {
        Ok(())
    } else {
        Err(TransportError::Closed)
    };
    let _ = session.finish(outcome);
    let _ = session.cancel_request();
    let _ = session.request(&Turn::Text("again".into()));
});
