//! `a2ui_dump --model-text`: the state a model answer (prose with `<a2ui>` Express and
//! `<a2ui-json>` blocks) leaves in a surface store, fed as a stream in chunks.

use std::sync::Arc;

use egui_a2ui::eval::FunctionRegistry;
use egui_a2ui::stream::model_text::express::{ExpressCatalog, ExpressVersion};
use egui_a2ui::stream::model_text::{ModelTextOptions, ModelTextParser, ModelTextStream};
use egui_a2ui::{Limits, SurfaceStore};
use serde_json::Value;

/// What feeding a model answer left.
#[derive(Debug)]
pub struct ModelTextDump {
    /// The conformance dump (`a2ui-oracle/1`) of the store the answer's messages were
    /// applied to.
    pub dump: Value,
    /// The A2UI `error` messages owed to the agent for the answer's own problems (an
    /// Express statement that did not compile, bad JSON, a block cut off), in order.
    pub errors: Vec<Value>,
    /// The answer's prose, concatenated.
    pub prose: String,
}

/// The protocol version an answer's Express blocks compile for: the `version` attribute
/// of its first `<a2ui …>` tag, else the `version` of its first `<a2ui-json>` block, else
/// v0.9.
pub fn answer_version(text: &str) -> ExpressVersion {
    let attr = text.find("<a2ui ").and_then(|at| {
        let tag = text.get(at..)?.split('>').next()?;
        let v = tag.split("version=").nth(1)?;
        let v = v.trim_start_matches(['"', '\'']);
        ExpressVersion::parse(v.split(['"', '\'', ' ']).next()?)
    });
    let json = || {
        let at = text.find("<a2ui-json>")?;
        let rest = text.get(at..)?;
        let v = rest.split("\"version\"").nth(1)?;
        let v = v.trim_start_matches([' ', ':', '"']);
        ExpressVersion::parse(v.split('"').next()?)
    };
    attr.or_else(json).unwrap_or_default()
}

/// Feed `text` in `chunk`-byte pieces (0: at once) through a [`ModelTextStream`] whose
/// Express blocks compile against `catalog` (`None`: the basic catalog of
/// [`answer_version`]), applying every message to a fresh [`SurfaceStore::basic`]; then
/// `finish` (an answer cut inside a block keeps what arrived).
pub fn model_text_dump(
    text: &[u8],
    chunk: usize,
    catalog: Option<ExpressCatalog>,
) -> ModelTextDump {
    let catalog = catalog
        .unwrap_or_else(|| ExpressCatalog::basic(answer_version(&String::from_utf8_lossy(text))));
    let mut options = ModelTextOptions::basic(None);
    options.express = Some(Arc::new(catalog));
    let mut stream = ModelTextStream::from_parser(ModelTextParser::new(options, Limits::default()));
    let mut store = SurfaceStore::basic();
    let mut prose = String::new();
    let mut errors = Vec::new();
    let size = if chunk == 0 { text.len().max(1) } else { chunk };
    let mut step = |store: &mut SurfaceStore,
                    stream: &mut ModelTextStream,
                    events: Vec<egui_a2ui::stream::model_text::ModelTextEvent>| {
        for e in events {
            if let egui_a2ui::stream::model_text::ModelTextEvent::Text(t) = e {
                prose.push_str(&t);
            }
        }
        store.retire(stream.take_retired());
        errors.extend(stream.take_errors().iter().map(|f| f.to_message()));
    };
    for c in text.chunks(size) {
        let events = stream.feed(c, |m| store.apply(m).into_result().map(drop));
        step(&mut store, &mut stream, events);
    }
    let events = stream.finish(|m| store.apply(m).into_result().map(drop));
    step(&mut store, &mut stream, events);
    ModelTextDump {
        dump: egui_a2ui::conformance::dump(&store, &FunctionRegistry::basic()),
        errors,
        prose,
    }
}
