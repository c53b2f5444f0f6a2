//! The model text's own problems reach the agent: an Express statement that does not
//! compile and bad JSON in an `<a2ui-json>` block become A2UI `error` messages queued
//! for the agent by [`egui_a2ui::Renderer::feed_model_text`], naming the block kind, the
//! error's kind and (Express) the statement's line, while the rest of the answer applies.

use egui_a2ui::stream::model_text::ModelTextStream;
use egui_a2ui::{Catalog, Event, Limits, Renderer};
use serde_json::Value;

/// Line 3 of the block names a property `Text` does not declare; the JSON block after it
/// is cut inside a string (bad JSON: an object that never parses).
const ANSWER: &str = "Here you go.\n<a2ui>\nroot = Column([t, u])\nt = Text(\"Hi\", tooltip=\"x\")\nu = Text(\"Still here\")\n</a2ui>\nThen <a2ui-json>[{\"version\":\"v0.9\" oops]</a2ui-json> bye";

/// The `error` messages owed to the agent after feeding `text` in `chunk`-byte pieces.
fn agent_errors(text: &str, chunk: usize) -> (Vec<Value>, Renderer) {
    let mut r = Renderer::new(Catalog::basic());
    let mut s = ModelTextStream::new(Limits::default());
    for c in text.as_bytes().chunks(chunk) {
        let _ = r.feed_model_text(&mut s, c);
    }
    let _ = r.finish_model_text(&mut s);
    let errors = r
        .take_events()
        .into_iter()
        .filter_map(|e| match e {
            Event::Error(f) => Some(f.to_message()),
            _ => None,
        })
        .collect();
    (errors, r)
}

#[test]
fn model_text_problems_reach_the_agent_as_a2ui_errors() {
    for chunk in [ANSWER.len(), 4] {
        let (errors, r) = agent_errors(ANSWER, chunk);
        let express: Vec<&Value> = errors
            .iter()
            .filter(|m| {
                m["error"]["message"]
                    .as_str()
                    .is_some_and(|t| t.contains("<a2ui>"))
            })
            .collect();
        assert_eq!(express.len(), 1, "chunk {chunk}: {errors:#?}");
        let e = &express[0];
        assert_eq!(e["version"], "v0.9", "{e}");
        assert_eq!(e["error"]["code"], "VALIDATION_FAILED", "{e}");
        assert_eq!(e["error"]["surfaceId"], "default_surface", "{e}");
        assert_eq!(e["error"]["path"], "", "{e}");
        let text = e["error"]["message"].as_str().unwrap();
        // The block kind, the official error kind, the statement's line, the property.
        for needle in ["<a2ui>", "line 3", "ExpressUnknownPropertyError", "tooltip"] {
            assert!(text.contains(needle), "{needle:?} missing from {text:?}");
        }
        let json: Vec<&Value> = errors
            .iter()
            .filter(|m| {
                m["error"]["message"]
                    .as_str()
                    .is_some_and(|t| t.contains("<a2ui-json>"))
            })
            .collect();
        assert_eq!(json.len(), 1, "chunk {chunk}: {errors:#?}");
        assert_eq!(json[0]["error"]["code"], "VALIDATION_FAILED");
        // The rest of the Express block went on: `u` was applied.
        let dump = egui_a2ui::conformance::dump(r.store(), r.store().catalogs().functions());
        assert!(dump.to_string().contains("Still here"), "{dump}");
    }
}

#[test]
fn a_v1_express_error_names_its_surface_and_version() {
    use egui_a2ui::stream::model_text::express::{ExpressCatalog, ExpressVersion};
    use egui_a2ui::stream::model_text::{ModelTextOptions, ModelTextParser};
    let mut opts = ModelTextOptions::basic(None);
    opts.express = Some(std::sync::Arc::new(ExpressCatalog::basic(
        ExpressVersion::V1_0,
    )));
    let mut s = ModelTextStream::from_parser(ModelTextParser::new(opts, Limits::default()));
    let text = "<a2ui>\nsurface(\"orders\")\n\nroot = Column([t])\nt = Text(\"a\", \"caption\")\nx = Card(\n</a2ui>";
    let _ = s.feed(text.as_bytes(), |_| Ok(()));
    let _ = s.finish(|_| Ok(()));
    let errors: Vec<Value> = s.take_errors().iter().map(|f| f.to_message()).collect();
    assert!(!errors.is_empty());
    let e = &errors[0];
    assert_eq!(e["version"], "v1.0", "{e}");
    assert_eq!(e["error"]["surfaceId"], "orders", "{e}");
    let text = e["error"]["message"].as_str().unwrap();
    assert!(
        text.contains("line 6") && text.contains("ExpressParseError"),
        "{text}"
    );
    // Drained.
    assert!(s.take_errors().is_empty());
}
