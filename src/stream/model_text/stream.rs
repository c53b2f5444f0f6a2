//! Driving a [`ModelTextParser`] into a surface store: the host feeds model text, the
//! messages (complete and partial) are applied as they complete, and the prose comes back.

use std::borrow::Cow;
use std::sync::Arc;

use serde_json::{Map, Value};

use super::{
    Family, ModelMessage, ModelTextError, ModelTextOptions, ModelTextParser, ResponsePart, check,
};
use crate::error::{A2uiError, Rejected};
use crate::limits::Limits;

/// What feeding model text produced, in order.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum ModelTextEvent {
    /// Prose for the host to show (a piece of it: concatenate the pieces).
    Text(String),
    /// An A2UI message that was applied (a partial `updateComponents`/`surfaceUpdate`
    /// carries the components complete and reachable so far, with placeholders); the
    /// message applied itself, shared (not a copy).
    Applied(ModelMessage),
    /// A message the surface store rejected.
    Rejected(A2uiError),
    /// The model text itself was at fault (bad JSON, a limit, an unterminated block…).
    Error(ModelTextError),
}

/// A model answer being streamed into surfaces. The host owns it and feeds it through
/// [`crate::render::Renderer::feed_model_text`] (or [`Self::feed`] with any apply function).
#[derive(Debug)]
pub struct ModelTextStream {
    parser: ModelTextParser,
    /// The A2UI errors owed to the agent for the model text's own problems (see
    /// [`Self::take_errors`]).
    errors: Vec<Rejected>,
}

fn schema_components(text: &str) -> Map<String, Value> {
    serde_json::from_str::<Value>(text)
        .ok()
        .and_then(|v| v.get("components").and_then(Value::as_object).cloned())
        .unwrap_or_default()
}

/// The schema keys the parser reads (reference properties, required properties and the
/// combinators they may sit in; see `check::extract_ref_fields`,
/// `check::extract_required_fields`).
const SCHEMA_KEYS: [&str; 9] = [
    "$ref",
    "type",
    "title",
    "properties",
    "items",
    "required",
    "oneOf",
    "anyOf",
    "allOf",
];

/// `schema` with only the keys the parser reads (every property name kept).
fn prune_schema(schema: &Value) -> Value {
    match schema {
        Value::Object(o) => Value::Object(
            o.iter()
                .filter(|(k, _)| SCHEMA_KEYS.contains(&k.as_str()))
                .map(|(k, v)| {
                    let v = match (k.as_str(), v) {
                        ("properties", Value::Object(props)) => Value::Object(
                            props
                                .iter()
                                .map(|(n, p)| (n.clone(), prune_schema(p)))
                                .collect(),
                        ),
                        _ => prune_schema(v),
                    };
                    (k.clone(), v)
                })
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(prune_schema).collect()),
        other => other.clone(),
    }
}

/// The basic catalogs' component schemas (v0.9, v0.8), reduced to what the parser reads;
/// parsed once per process.
fn basic_components() -> &'static (Map<String, Value>, Map<String, Value>) {
    static BASIC: std::sync::OnceLock<(Map<String, Value>, Map<String, Value>)> =
        std::sync::OnceLock::new();
    BASIC.get_or_init(|| {
        let v09 = schema_components(include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/assets/schemas/v0_9_catalogs_basic/catalog.json"
        )));
        let v08 = schema_components(include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/assets/schemas/v0_8_json/standard_catalog_definition.json"
        )));
        let v08 = check::catalog_components(
            Family::V08,
            None,
            Some(&Value::Object({
                let mut m = Map::new();
                m.insert("components".into(), Value::Object(v08));
                m
            })),
        );
        let prune = |m: Map<String, Value>| -> Map<String, Value> {
            m.iter()
                .map(|(k, v)| (k.clone(), prune_schema(v)))
                .collect()
        };
        (prune(v09), prune(v08))
    })
}

/// What a catalog's component schemas say to the parser: per type, the reference
/// properties and the required ones. Those of the basic catalogs ([`basic_components`],
/// borrowed by [`ModelTextOptions::basic`]) are read once per process and shared.
pub(super) fn catalog_facts(
    components: &Map<String, Value>,
) -> (Arc<check::RefFieldsMap>, Arc<check::RequiredFields>) {
    type Facts = (Arc<check::RefFieldsMap>, Arc<check::RequiredFields>);
    fn read(m: &Map<String, Value>) -> Facts {
        (
            Arc::new(check::extract_ref_fields(m)),
            Arc::new(check::extract_required_fields(m)),
        )
    }
    static BASIC: std::sync::OnceLock<(Facts, Facts)> = std::sync::OnceLock::new();
    // The very maps `basic_components` holds (borrowed, not copies of them).
    let (v09, v08) = basic_components();
    let which = if std::ptr::eq(components, v09) {
        0
    } else if std::ptr::eq(components, v08) {
        1
    } else {
        return read(components);
    };
    let (f09, f08) = BASIC.get_or_init(|| (read(v09), read(v08)));
    let (refs, required) = if which == 0 { f09 } else { f08 };
    (Arc::clone(refs), Arc::clone(required))
}

impl ModelTextOptions {
    /// The options a [`ModelTextStream`] uses: the basic catalogs' reference and required
    /// properties (v0.9 basic, and the v0.8 standard catalog when the family turns out to
    /// be v0.8), partial messages with only what changed (`changed_only`). The catalogs are
    /// read once per process, and their schemas kept only as far as the parser reads them
    /// (`$ref`, `type`, `title`, `properties`, `items`, `required` and the combinators).
    pub fn basic(family: Option<Family>) -> Self {
        let (v09, v08) = basic_components();
        Self {
            family,
            components: Cow::Borrowed(v09),
            v08_components: Some(Cow::Borrowed(v08)),
            changed_only: true,
            ..Self::default()
        }
    }

    /// Add a host catalog's definition (a catalog JSON with `components`, as served to
    /// agents): its components' reference and required properties join those known
    /// (replacing a basic component of the same name), so a host component too waits for
    /// its required properties.
    pub fn add_catalog_definition(&mut self, definition: &Value) {
        if let Some(c) = definition.get("components").and_then(Value::as_object) {
            for (name, schema) in c {
                self.components
                    .to_mut()
                    .insert(name.clone(), schema.clone());
                if let Some(v08) = self.v08_components.as_mut() {
                    v08.to_mut().insert(name.clone(), schema.clone());
                }
            }
        }
    }
}

impl ModelTextStream {
    /// A stream that detects the family from the text and knows the basic catalogs'
    /// reference and required properties.
    pub fn new(limits: Limits) -> Self {
        Self::with_family(None, limits)
    }

    /// [`Self::new`] with the family fixed (`None` detects it).
    pub fn with_family(family: Option<Family>, limits: Limits) -> Self {
        Self {
            parser: ModelTextParser::new(ModelTextOptions::basic(family), limits),
            errors: Vec::new(),
        }
    }

    /// A stream around a configured parser.
    pub fn from_parser(parser: ModelTextParser) -> Self {
        Self {
            parser,
            errors: Vec::new(),
        }
    }

    /// The parser.
    pub fn parser(&self) -> &ModelTextParser {
        &self.parser
    }

    /// Placeholders the messages applied so far no longer refer to, as `(surface id,
    /// component id)`: a host that applies the messages to its own store through
    /// [`Self::feed`] removes them after each call ([`crate::render::Renderer::feed_model_text`]
    /// does, through [`SurfaceStore::retire`](crate::model::SurfaceStore::retire)). Drained by this
    /// call.
    pub fn take_retired(&mut self) -> Vec<(String, String)> {
        self.parser.take_retired_placeholders()
    }

    /// The A2UI `error`s owed to the agent for the problems of the model text itself (each
    /// [`ModelTextEvent::Error`] so far: an Express statement that did not compile, with
    /// its line; bad JSON in a block; a block cut off or over a limit), as [`Rejected`]s
    /// for the surface and version the block was writing
    /// ([`ModelTextParser::report_context`]); [`Rejected::to_message`] is the message.
    /// Messages the store rejected are not here (the store reports those itself).
    /// [`crate::render::Renderer::feed_model_text`] hands these to its store
    /// ([`SurfaceStore::report`](crate::model::SurfaceStore::report)), so they reach the agent
    /// as [`crate::action::Event::Error`]s. At most [`Limits::max_pending_messages`] are kept (past
    /// it the oldest are dropped). Drained by this call.
    pub fn take_errors(&mut self) -> Vec<Rejected> {
        std::mem::take(&mut self.errors)
    }

    fn owe(
        &mut self,
        e: &ModelTextError,
        surface: Option<String>,
        version: crate::protocol::version::Version,
    ) {
        if self.errors.len() >= self.parser.limits.max_pending_messages.max(1) {
            self.errors.remove(0);
        }
        self.errors
            .push(Rejected::new(surface, version, e.to_a2ui_error()));
    }

    /// Feed a chunk of model text (cut anywhere); each completed message goes through
    /// `apply` in order (a [`SurfaceStore`](crate::model::SurfaceStore) applies `&ModelMessage`
    /// as it is: `|m| store.apply(m)`).
    pub fn feed(
        &mut self,
        chunk: &[u8],
        apply: impl FnMut(&ModelMessage) -> Result<(), A2uiError>,
    ) -> Vec<ModelTextEvent> {
        let r = self.parser.feed(chunk);
        self.events(r, apply)
    }

    /// The end of the answer: flushes held-back prose, reports an unterminated block.
    pub fn finish(
        &mut self,
        apply: impl FnMut(&ModelMessage) -> Result<(), A2uiError>,
    ) -> Vec<ModelTextEvent> {
        let mut apply = apply;
        let r = self.parser.finish();
        let cut = r.is_err();
        let mut events = self.events(r, &mut apply);
        if cut {
            // An answer cut inside a block: what arrived of it was read at its full length
            // and is applied too.
            let rest = self.parser.feed_str("");
            events.extend(self.events(rest, &mut apply));
        }
        events
    }

    fn events(
        &mut self,
        r: Result<Vec<ResponsePart>, ModelTextError>,
        mut apply: impl FnMut(&ModelMessage) -> Result<(), A2uiError>,
    ) -> Vec<ModelTextEvent> {
        let mut out = Vec::new();
        for (d, surface, version) in self.parser.take_diagnostics_in_context() {
            self.owe(&d, surface, version);
            out.push(ModelTextEvent::Error(d));
        }
        match r {
            Ok(parts) => {
                for p in parts {
                    if !p.text.is_empty() {
                        out.push(ModelTextEvent::Text(p.text));
                    }
                    for m in p.a2ui.into_iter().flatten() {
                        match apply(&m) {
                            Ok(()) => out.push(ModelTextEvent::Applied(m)),
                            Err(e) => out.push(ModelTextEvent::Rejected(e)),
                        }
                    }
                }
            }
            Err(e) => {
                let (surface, version) = self.parser.report_context();
                self.owe(&e, surface, version);
                out.push(ModelTextEvent::Error(e));
            }
        }
        out
    }
}
