//! AG-UI event application (snapshots, deltas, lifecycle): every line is one event handed to
//! `AguiSession::on_item` (a line that is not JSON as the SSE reader's error), then the run
//! ends; a second run follows on the same session, as a host's next turn would.
#![no_main]

use egui_a2ui::Catalog;
use egui_a2ui::transport::agui::AguiSession;
use egui_a2ui::transport::{TransportError, Turn};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let mut session = AguiSession::new("http://127.0.0.1:9/", Catalog::basic());
    let _ = session.request(&Turn::Text("pasta".into()));
    let mut run = 0;
    for line in rest.split(|b| *b == b'\n') {
        if line.is_empty() {
            continue;
        }
        // A line `--` ends the run and starts the next (at most a few).
        if line == b"--" && run < 4 {
            let _ = session.finish(Ok(()));
            let _ = session.request(&Turn::Text("again".into()));
            run += 1;
            continue;
        }
        let item = serde_json::from_slice::<Value>(line)
            .map_err(|e| TransportError::MalformedSse(e.to_string()));
        let _ = session.on_item(item);
    }
    let outcome = if mode & 1 == 0 {
        Ok(())
    } else {
        Err(TransportError::Closed)
    };
    let _ = session.finish(outcome);
    for (_, a) in session.activities() {
        let _ = a.lifecycle();
        let _ = a.operations_applied();
    }
    let _ = session.store().surfaces().count();
});
