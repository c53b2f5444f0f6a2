//! Model text → A2UI messages, token by token.
//!
//! A host that runs a model itself receives the answer as text chunks: prose with A2UI JSON
//! inside `<a2ui-json>…</a2ui-json>` blocks (the delimiter of the official agent SDKs). A
//! [`ModelTextParser`] takes those chunks cut anywhere (inside a tag, a string, an escape or
//! a UTF-8 sequence) and yields [`ResponsePart`]s: prose as it arrives, each A2UI message as
//! soon as it is complete, and, for an `updateComponents` (v0.9/v1.0) or `surfaceUpdate`
//! (v0.8) still being written, a message carrying every component that is complete and
//! reachable from the root, with placeholder `Row`s for children not yet on the wire, so a
//! surface grows while the model is still writing.
//!
//! The semantics follow the official Python parser (`A2uiStreamParser.process_chunk` of the
//! A2UI agent SDK) and its language-agnostic conformance suite
//! (`tests/data/conformance-suites/agent/streaming_parser.yaml`): text is yielded eagerly
//! except a possible tag prefix, components wait until reachable from the root, atomic
//! strings (ids, paths, URLs) are never yielded cut, "cuttable" text properties are, data
//! model updates are sniffed entry by entry, and `surfaceUpdate`/`updateComponents` are
//! held until their surface has been started. [`parse_response`] and [`fix_payload`] are
//! the non-streaming counterparts (`parser.yaml`).
//!
//! Hostile input is bounded by [`Limits`]: a block is at most `max_model_block_bytes`
//! (the rest of an oversized block is skipped), JSON nests at most `max_json_depth`, at
//! most `max_components` components are held, a nested open tag drops the block it is in
//! (a diagnostic), and [`ModelTextParser::finish`] reports a block the text never closed. Each case is a
//! [`ModelTextError`], never a panic, and the parser recovers for the rest of the text.
//!
//! A host drawing with a [`Renderer`](crate::render::Renderer) feeds chunks to a [`ModelTextStream`]
//! through [`Renderer::feed_model_text`](crate::render::Renderer::feed_model_text); a whole answer
//! can also be split at once:
//!
//! ```
//! use egui_a2ui::stream::model_text::parse_response;
//!
//! let answer = r#"Here you go.<a2ui-json>[{"version":"v0.9","deleteSurface":{"surfaceId":"s"}}]</a2ui-json>"#;
//! let parts = parse_response(answer).unwrap();
//! assert_eq!(parts[0].text, "Here you go.");
//! assert_eq!(parts[0].a2ui.as_ref().unwrap()[0]["deleteSurface"]["surfaceId"], "s");
//! ```
//!
//! # Phases
//!
//! The parser is a pipeline of phases, one file each; the table maps them to the
//! reference (`a2ui.inference_formats.direct_json.streaming`), so keeping the two in step
//! stays easy:
//!
//! | phase | file | reference |
//! |---|---|---|
//! | tag scanning: UTF-8 carry, tags cut between chunks, prose vs block, block cap, the JSON character loop | `scan.rs` | `process_chunk`, `_process_json_chunk` |
//! | JSON tokenising and sniffing: watched keys, complete objects, `fix_json`, partial components and data-model entries | `sniff.rs` | `_fix_json`, `_sniff_metadata`, `_sniff_partial_component`, `_sniff_partial_data_model` |
//! | reachability and required properties: held components, placeholders and their retirement | `topology.rs` | `_handle_partial_component`, `yield_reachable`, `_process_component_topology` |
//! | yielding: complete messages per version, start-message buffering, de-duplication | `complete.rs` | `_handle_complete_object`, `_yield_messages`, `_deduplicate_data_model` |
//! | whole answers | `whole.rs` | `parse_response`, `_fix_payload` |
//! | the message check | `check.rs` | `a2ui.schema.validator` |
//! | into a surface store | `stream.rs` | (none) |

/// The parser's maps and sets, keyed by ids and surface ids the model wrote: foldhash,
/// seeded per process (as the component table, see [`crate::model::IdHasher`]), several
/// times faster than SipHash on short keys.
type HashMap<K, V> = std::collections::HashMap<K, V, foldhash::fast::RandomState>;
/// See [`HashMap`].
type HashSet<T> = std::collections::HashSet<T, foldhash::fast::RandomState>;

use serde_json::{Map, Value, json};

use crate::limits::Limits;

mod check;
mod complete;
pub mod express;
mod message;
mod scan;
mod sniff;
mod stream;
mod topology;
mod whole;

pub use check::{MessageCheck, SchemaHook, StructuralCheck, catalog_components};
pub use message::ModelMessage;
pub use stream::{ModelTextEvent, ModelTextStream};
pub use whole::{fix_payload, has_a2ui_parts, parse_response};

/// The tag opening an A2UI block in model text.
pub const OPEN_TAG: &str = "<a2ui-json>";
/// The tag closing an A2UI block in model text.
pub const CLOSE_TAG: &str = "</a2ui-json>";
/// The tag opening an A2UI Express block in model text (attributes are tolerated:
/// `<a2ui version="v1.0">`).
pub const EXPRESS_OPEN_TAG: &str = "<a2ui>";
pub use express::EXPRESS_CLOSE_TAG;
/// String properties that may be yielded while still being written (prose-like values);
/// every other string (ids, paths, URLs, enums) waits until its closing quote.
pub const DEFAULT_CUTTABLE_KEYS: [&str; 7] = [
    "literalString",
    "valueString",
    "label",
    "hint",
    "caption",
    "altText",
    "text",
];

/// Which message family a model writes: v0.8 (`beginRendering`, `surfaceUpdate`,
/// `dataModelUpdate`) or v0.9+ (`createSurface`, `updateComponents`, `updateDataModel`,
/// with a `version` key).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Family {
    /// A2UI v0.8.
    V08,
    /// A2UI v0.9 and v1.0.
    #[default]
    V09,
}

/// What went wrong in model text. Messages match the reference parser's so its
/// conformance suite's expected errors apply.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ModelTextError {
    /// A block held no JSON object, or its JSON could not be parsed.
    #[error("Failed to parse JSON: {0}")]
    Parse(String),
    /// A self-reference, a cycle or a nesting beyond the reference's recursion limits.
    #[error("{0}")]
    Recursion(String),
    /// A message failed validation.
    #[error("{0}")]
    Validation(String),
    /// A [`Limits`] bound was hit; the offending block is skipped.
    #[error("limit exceeded in model text: {what} ({actual} > {limit})")]
    LimitExceeded {
        /// The `Limits` field.
        what: &'static str,
        /// Its value.
        limit: usize,
        /// What the text asked for.
        actual: usize,
    },
    /// `<a2ui-json>` inside a block that is still open; that block is dropped and a new
    /// one starts at the inner tag (reported through
    /// [`ModelTextParser::take_diagnostics`], not as a failed chunk).
    #[error("nested <a2ui-json> inside an open A2UI block")]
    NestedTag,
    /// A statement of an `<a2ui>` Express block did not compile (the rest of the block
    /// went on; reported through [`ModelTextParser::take_diagnostics`]).
    #[error("{0}")]
    Express(express::ExpressError),
    /// The text ended inside an A2UI block.
    #[error("model text ended inside an A2UI block ({bytes} bytes without its close tag)")]
    Unterminated {
        /// Bytes of the block received.
        bytes: usize,
    },
}

impl ModelTextError {
    /// The error this problem is reported to the agent with: `LIMIT_EXCEEDED` for a
    /// limit, otherwise [`A2uiError::ModelText`](crate::error::A2uiError::ModelText)
    /// (`VALIDATION_FAILED`) naming the block kind, the error's kind and, for an Express
    /// statement, its line, e.g. `model text: <a2ui> block, line 3, ExpressUnknownPropertyError:
    /// Unknown property 'size' for component 'Text'`.
    pub fn to_a2ui_error(&self) -> crate::error::A2uiError {
        let text = match self {
            Self::LimitExceeded {
                what,
                limit,
                actual,
            } => {
                return crate::error::A2uiError::LimitExceeded {
                    what,
                    limit: *limit,
                    actual: *actual,
                };
            }
            Self::Express(e) => format!(
                "{EXPRESS_OPEN_TAG} block, line {}, {}: {}",
                e.line,
                e.kind.class_name(),
                e.message
            ),
            Self::Parse(_) => format!("{OPEN_TAG} block, parse error: {self}"),
            Self::Recursion(_) => format!("{OPEN_TAG} block, recursion error: {self}"),
            Self::Validation(_) => format!("{OPEN_TAG} block, validation error: {self}"),
            Self::NestedTag => format!("{OPEN_TAG} block, nested tag: {self}"),
            Self::Unterminated { .. } => format!("cut answer: {self}"),
        };
        crate::error::A2uiError::ModelText(text)
    }
}

/// One piece of a model answer: prose, A2UI messages, or prose followed by the messages
/// that came right after it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ResponsePart {
    /// Prose (may be empty).
    pub text: String,
    /// The A2UI messages, in order; `None` for prose only. Shared: a partial component
    /// update holds the parser's own components (see [`ModelMessage`]).
    pub a2ui: Option<Vec<ModelMessage>>,
}

/// How a [`ModelTextParser`] reads messages.
#[derive(Default)]
pub struct ModelTextOptions {
    /// The message family; `None` detects it from the first block (`version` key → v0.9+,
    /// a v0.8 message key → v0.8).
    pub family: Option<Family>,
    /// Component schemas of the catalog (see [`catalog_components`]): which
    /// properties reference components and which are required. Borrowed for the basic
    /// catalogs ([`Self::basic`]: read once per process, nothing copied per parser);
    /// `Cow::Owned(map)` for a catalog of the host's.
    pub components: std::borrow::Cow<'static, Map<String, Value>>,
    /// String properties yielded while cut, beyond [`DEFAULT_CUTTABLE_KEYS`].
    pub extra_cuttable_keys: Vec<String>,
    /// The check every yielded message passes (none: no validation).
    pub check: Option<Box<dyn MessageCheck>>,
    /// Component schemas used instead of `components` when the family turns out to be
    /// v0.8 (for a parser that detects the family).
    pub v08_components: Option<std::borrow::Cow<'static, Map<String, Value>>>,
    /// Yield data-model updates entry by entry while their message is still open, as the
    /// reference does. Its partial v0.9 `updateDataModel` carries only the changed keys
    /// and drops `path`, which a renderer would apply as a replacement of the root, so
    /// [`ModelTextStream`] leaves this off and applies data-model messages when complete.
    pub sniff_data_model: bool,
    /// Partial messages carry only the components that changed since the previous partial
    /// message of their surface (and the placeholders newly needed), and a component being
    /// written is re-read once it grew by half (until it is first yielded: at every chunk,
    /// except while it lacks a required property and no new key arrived):
    /// the cost per byte then no longer depends on how the text is chunked, and a store
    /// applying the messages ends the same. [`ModelTextStream`] turns this on; off, each
    /// partial message carries every reachable component, re-read at every chunk, as the
    /// reference does.
    pub changed_only: bool,
    /// The catalog `<a2ui>` Express blocks compile against (`None`: Express blocks are
    /// compiled against the basic catalog of the family's version, v0.9).
    pub express: Option<std::sync::Arc<express::ExpressCatalog>>,
    /// The surface an Express block writes to when it names none (`default_surface`
    /// when empty, as the reference).
    pub express_surface: String,
}

impl std::fmt::Debug for ModelTextOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ModelTextOptions")
            .field("family", &self.family)
            .field("components", &self.components.len())
            .field("extra_cuttable_keys", &self.extra_cuttable_keys)
            .field("check", &self.check.is_some())
            .field("changed_only", &self.changed_only)
            .field(
                "v08_components",
                &self.v08_components.as_ref().map(|m| m.len()),
            )
            .finish()
    }
}

const MSG_V08: [&str; 4] = [
    "beginRendering",
    "surfaceUpdate",
    "dataModelUpdate",
    "deleteSurface",
];
const MSG_V09: [&str; 3] = ["createSurface", "updateComponents", "updateDataModel"];
/// Needles whose presence in the JSON buffer the parser tracks incrementally.
const WATCH: [&str; 12] = [
    "\"beginRendering\":",
    "\"surfaceUpdate\":",
    "\"dataModelUpdate\":",
    "\"deleteSurface\":",
    "\"createSurface\":",
    "\"updateComponents\":",
    "\"updateDataModel\":",
    "\"components\"",
    "\"dataModelUpdate\"",
    "\"updateDataModel\"",
    "\"version\"",
    "\"children\"",
];
const W_COMPONENTS: usize = 7;
const W_DMU08: usize = 8;
const W_DMU09: usize = 9;
const W_VERSION: usize = 10;
/// Below this JSON buffer size partial sniffing runs at every chunk exactly as the
/// reference does; above it, sniffing is throttled so its cost stays linear in the input.
const SNIFF_EXACT_BYTES: usize = 8 * 1024;

/// The incremental model-text parser. See the [module docs](self).
pub struct ModelTextParser {
    opts: ModelTextOptions,
    family: Option<Family>,
    version_tag: String,
    cuttable: HashSet<String>,
    /// Per component type, its reference properties (shared: the basic catalogs' are read
    /// once per process, see [`stream::catalog_facts`]).
    refs: std::sync::Arc<check::RefFieldsMap>,
    /// Per component type, its required properties (shared as `refs`).
    required: std::sync::Arc<check::RequiredFields>,
    limits: Limits,

    utf8_carry: Vec<u8>,
    /// Each with where its block was writing (see [`Self::report_context`]).
    diagnostics: Vec<(
        ModelTextError,
        Option<String>,
        crate::protocol::version::Version,
    )>,
    salvaged: Vec<ResponsePart>,
    in_block: bool,
    /// The Express block being read, if the open block is `<a2ui>`.
    express: Option<express::ExpressBlock>,
    /// When the latest block was `<a2ui>`: the surface and version it was writing when
    /// it last reported an error (see [`Self::report_context`]).
    express_ctx: Option<(String, express::ExpressVersion)>,
    skipping: bool,
    block_bytes: usize,
    buffer: String,
    json_buffer: String,
    brace_stack: Vec<scan::Open>,
    brace_count: i64,
    in_top_level_list: bool,
    in_string: bool,
    string_escaped: bool,
    /// What the string being read is (a key, a cuttable value, …).
    string_kind: scan::StringKind,
    /// The last character outside strings that was not whitespace.
    last_struct: u8,
    /// The last object key read.
    last_key: String,
    /// How many object keys were read (a key arriving is what can complete a component's
    /// required properties).
    keys_noted: usize,
    /// Whether a character that can change a cut fragment's parse arrived since the last
    /// partial sniff (otherwise the sniff would find what it found last time).
    sniff_needed: bool,
    /// Where the last `"components"` in the JSON buffer starts (the floor of the
    /// fragments that can be components).
    components_at: Option<usize>,
    watch: [bool; WATCH.len()],
    /// Where in the JSON buffer the string being read opened.
    string_start: usize,
    /// Where the last backslash outside a string is in the JSON buffer (`fix_json` would
    /// read it as an escape, the scanner does not).
    odd_at: Option<usize>,
    /// The components array of the message being read (see `sniff::CompList`).
    comp_list: Option<sniff::CompList>,
    /// Whether something the metadata sniff reads may have changed since it last ran.
    meta_dirty: bool,
    latest_surface: Option<String>,
    latest_root: Option<String>,
    latest_version: Option<String>,
    sniff_credit: usize,

    /// The component table: each component as last read, shared with the placeholder
    /// forms and the forms last yielded (see `topology::Processed`), in first-seen order.
    seen_components: indexmap::IndexMap<String, std::sync::Arc<Value>, foldhash::fast::RandomState>,
    yielded_data_model: Map<String, Value>,
    deleted_surfaces: HashSet<String>,
    yielded_ids: HashMap<String, HashSet<String>>,
    /// Per surface, per component id: the form last yielded and its stamp (see
    /// `topology::Processed`).
    yielded_contents: HashMap<String, HashMap<String, (std::sync::Arc<Value>, u64)>>,
    /// Per component in `seen_components`: its `(referenced id, field)`s.
    comp_refs: HashMap<String, Vec<(String, String)>>,
    /// How many components in `seen_components` refer to themselves.
    self_refs: usize,
    /// Per component id: its placeholder form, kept until it can change.
    proc_cache: HashMap<String, topology::Processed>,
    /// The last stamp given to a placeholder form.
    stamp: u64,
    root_ids: HashMap<String, String>,
    default_root_id: Option<String>,
    unbound_root_id: Option<String>,
    surface_id: Option<String>,
    msg_types: Vec<&'static str>,
    yielded_start_messages: HashSet<String>,
    yielded_surfaces: HashSet<String>,
    active_msg_type: Option<&'static str>,
    pending_messages: HashMap<String, Vec<Value>>,
    buffered_start_message: Option<Value>,
    topology_dirty: bool,
    /// `changed_only`: components whose content changed but whose references did not,
    /// yielded without a reachability pass.
    content_dirty: HashSet<(String, String)>,
    found_valid_json_in_block: bool,
    /// Per surface: the placeholders the last partial message carried (so in the store).
    live_placeholders: HashMap<String, HashSet<String>>,
    /// Placeholders no yielded component refers to any more, not yet taken.
    retired: Vec<(String, String)>,
    /// `changed_only`: what the last reachability pass found (see `topology::Reach`).
    reach: Option<topology::Reach>,
    /// `changed_only`: the components stored since the last pass, with the ids each
    /// referred to then (`None`: not in the table then).
    stored_since: HashMap<String, Option<Vec<String>>>,
}

impl std::fmt::Debug for ModelTextParser {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ModelTextParser")
            .field("family", &self.family)
            .field("in_block", &self.in_block)
            .field("block_bytes", &self.block_bytes)
            .field("components", &self.seen_components.len())
            .finish_non_exhaustive()
    }
}

fn truthy(v: Option<&Value>) -> bool {
    match v {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(Value::Number(n)) => n.as_f64().is_some_and(|f| f != 0.0),
        Some(Value::String(s)) => !s.is_empty(),
        Some(Value::Array(a)) => !a.is_empty(),
        Some(Value::Object(o)) => !o.is_empty(),
    }
}

fn has_empty_dict(v: &Value) -> bool {
    match v {
        Value::Object(o) => o.is_empty() || o.values().any(has_empty_dict),
        Value::Array(a) => a.iter().any(has_empty_dict),
        _ => false,
    }
}

impl ModelTextParser {
    /// A parser with `options`, bounded by `limits`.
    pub fn new(options: ModelTextOptions, limits: Limits) -> Self {
        let (refs, required) = stream::catalog_facts(&options.components);
        let mut cuttable: HashSet<String> = DEFAULT_CUTTABLE_KEYS
            .iter()
            .map(|s| (*s).to_owned())
            .collect();
        cuttable.extend(options.extra_cuttable_keys.iter().cloned());
        let family = options.family;
        let mut p = Self {
            opts: options,
            family: None,
            version_tag: "v0.9".to_owned(),
            cuttable,
            refs,
            required,
            limits,
            utf8_carry: Vec::new(),
            diagnostics: Vec::new(),
            salvaged: Vec::new(),
            in_block: false,
            express: None,
            express_ctx: None,
            skipping: false,
            block_bytes: 0,
            buffer: String::new(),
            json_buffer: String::new(),
            brace_stack: Vec::new(),
            brace_count: 0,
            in_top_level_list: false,
            in_string: false,
            string_escaped: false,
            string_kind: scan::StringKind::Key,
            last_struct: b' ',
            last_key: String::new(),
            keys_noted: 0,
            sniff_needed: false,
            components_at: None,
            watch: [false; WATCH.len()],
            string_start: 0,
            odd_at: None,
            comp_list: None,
            meta_dirty: true,
            latest_surface: None,
            latest_root: None,
            latest_version: None,
            sniff_credit: 0,
            seen_components: indexmap::IndexMap::default(),
            yielded_data_model: Map::new(),
            deleted_surfaces: HashSet::default(),
            yielded_ids: HashMap::default(),
            yielded_contents: HashMap::default(),
            comp_refs: HashMap::default(),
            self_refs: 0,
            proc_cache: HashMap::default(),
            stamp: topology::FIRST_STAMP,
            root_ids: HashMap::default(),
            default_root_id: None,
            unbound_root_id: None,
            surface_id: None,
            msg_types: Vec::new(),
            yielded_start_messages: HashSet::default(),
            yielded_surfaces: HashSet::default(),
            active_msg_type: None,
            pending_messages: HashMap::default(),
            buffered_start_message: None,
            topology_dirty: false,
            content_dirty: HashSet::default(),
            found_valid_json_in_block: false,
            live_placeholders: HashMap::default(),
            retired: Vec::new(),
            reach: None,
            stored_since: HashMap::default(),
        };
        if let Some(f) = family {
            p.set_family(f);
        }
        p
    }

    /// A parser for `family` with no catalog knowledge beyond the standard reference
    /// property names and no validation.
    pub fn with_family(family: Family) -> Self {
        Self::new(
            ModelTextOptions {
                family: Some(family),
                ..ModelTextOptions::default()
            },
            Limits::default(),
        )
    }

    fn set_family(&mut self, f: Family) {
        self.family = Some(f);
        if f == Family::V08
            && let Some(c) = &self.opts.v08_components
        {
            (self.refs, self.required) = stream::catalog_facts(c);
        }
        // Reference fields and placeholder shapes depend on the family.
        self.refresh_component_refs();
        if f == Family::V09 {
            self.default_root_id = Some("root".to_owned());
        }
    }

    /// The family in use (detected from the text when not configured).
    pub fn family(&self) -> Option<Family> {
        self.family
    }

    /// Problems the parser recovered from without failing a chunk (a nested open tag:
    /// the outer block is dropped and a new one starts at the inner tag, as the reference
    /// suite expects no error there). Drained by this call.
    pub fn take_diagnostics(&mut self) -> Vec<ModelTextError> {
        std::mem::take(&mut self.diagnostics)
            .into_iter()
            .map(|(e, _, _)| e)
            .collect()
    }

    /// [`Self::take_diagnostics`], each with the surface id (when known) and protocol
    /// version its block was writing when it was found ([`Self::report_context`] then):
    /// what an A2UI `error` for the agent names.
    pub fn take_diagnostics_in_context(
        &mut self,
    ) -> Vec<(
        ModelTextError,
        Option<String>,
        crate::protocol::version::Version,
    )> {
        std::mem::take(&mut self.diagnostics)
    }

    /// Record a diagnostic in the current [`Self::report_context`].
    pub(super) fn diagnose(&mut self, e: ModelTextError) {
        let (surface, version) = self.report_context();
        self.diagnostics.push((e, surface, version));
    }

    /// Where the latest block was writing, for reporting its problems to the agent: the
    /// surface id (when known) and the protocol version. An `<a2ui>` block: its surface
    /// scope and its catalog's version; an `<a2ui-json>` block: the last `surfaceId` and
    /// `version` it wrote (v0.8 for the v0.8 family, else v0.9 when none was written).
    pub fn report_context(&self) -> (Option<String>, crate::protocol::version::Version) {
        use crate::protocol::version::Version;
        if let Some((surface, v)) = &self.express_ctx {
            let version = match v {
                express::ExpressVersion::V0_9 => Version::V0_9,
                express::ExpressVersion::V0_9_1 => Version::V0_9_1,
                express::ExpressVersion::V1_0 => Version::V1_0,
            };
            return (Some(surface.clone()), version);
        }
        let surface = self
            .latest_surface
            .clone()
            .or_else(|| self.surface_id.clone());
        let version = match self.family {
            Some(Family::V08) => Version::V0_8,
            _ => self
                .latest_version
                .as_deref()
                .and_then(Version::from_wire)
                .unwrap_or(Version::V0_9),
        };
        (surface, version)
    }

    /// Placeholders (`loading_…`) that were yielded and that no yielded component refers
    /// to any more (their component arrived, or the list they stood in for filled), as
    /// `(surface id, component id)`: a host applying the messages to its own store removes
    /// them ([`ModelTextStream`] does). Drained by this call.
    pub fn take_retired_placeholders(&mut self) -> Vec<(String, String)> {
        std::mem::take(&mut self.retired)
    }

    /// Whether the parser is inside an open `<a2ui-json>` block.
    pub fn in_block(&self) -> bool {
        self.in_block
    }

    /// Feed raw bytes (cut anywhere, including inside a UTF-8 sequence; invalid UTF-8
    /// becomes U+FFFD).
    pub fn feed(&mut self, bytes: &[u8]) -> Result<Vec<ResponsePart>, ModelTextError> {
        // Nothing carried and the chunk whole: no copy (the common case).
        if self.utf8_carry.is_empty()
            && let Ok(text) = std::str::from_utf8(bytes)
        {
            return self.feed_str(text);
        }
        let text = scan::decode_utf8(&mut self.utf8_carry, bytes);
        self.feed_str(&text)
    }

    /// Feed text. Returns the parts completed by this chunk. After an error the parser
    /// has recovered; the parts completed before the error come with the next call.
    pub fn feed_str(&mut self, chunk: &str) -> Result<Vec<ResponsePart>, ModelTextError> {
        let mut out = std::mem::take(&mut self.salvaged);
        match self.process_chunk(chunk, &mut out) {
            Ok(()) => {
                // Partial messages carrying only changes must all be applied.
                if !self.opts.changed_only {
                    complete::dedup_surface_updates(&mut out);
                }
                Ok(out)
            }
            Err(e) => {
                self.salvaged = out;
                Err(e)
            }
        }
    }

    /// The end of the answer: flushes held-back text (a possible tag prefix) and reports a
    /// block left open.
    pub fn finish(&mut self) -> Result<Vec<ResponsePart>, ModelTextError> {
        let mut out = std::mem::take(&mut self.salvaged);
        if !self.utf8_carry.is_empty() {
            self.utf8_carry.clear();
            self.buffer.push('\u{FFFD}');
        }
        if let Some(mut block) = self.express.take() {
            let bytes = block.len();
            let o = block.finish();
            self.express_ctx = Some((block.surface_id().to_owned(), block.version()));
            self.take_express(o, &mut out);
            self.buffer.clear();
            self.end_block();
            self.salvaged = out;
            return Err(ModelTextError::Unterminated { bytes });
        }
        if self.in_block {
            let bytes = self.block_bytes + self.buffer.len();
            // A cut answer keeps what arrived: the components being written are read at
            // their full received length before the block is dropped.
            if !self.skipping {
                let mut first_err = None;
                let frag = std::mem::take(&mut self.buffer);
                let _ = self.block_fragment(&frag, &mut out, &mut first_err);
                self.flush_cut(&mut out);
            }
            self.buffer.clear();
            self.end_block();
            self.salvaged = out;
            return Err(ModelTextError::Unterminated { bytes });
        }
        if !self.buffer.is_empty() {
            out.push(ResponsePart {
                text: std::mem::take(&mut self.buffer),
                a2ui: None,
            });
        }
        Ok(out)
    }

    fn process_chunk(
        &mut self,
        chunk: &str,
        out: &mut Vec<ResponsePart>,
    ) -> Result<(), ModelTextError> {
        self.buffer.push_str(chunk);
        // An error does not stop the chunk: the rest of it is read (the scanner stays in
        // sync with the text), the first error is returned and later ones become
        // diagnostics.
        let mut first_err: Option<ModelTextError> = None;
        let r = self.scan_chunk(out, &mut first_err);
        if let Err(e) = r {
            self.note_error(&mut first_err, e);
        }
        match first_err {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    fn note_error(&mut self, first: &mut Option<ModelTextError>, e: ModelTextError) {
        if first.is_none() {
            *first = Some(e);
        } else {
            self.diagnose(e);
        }
    }
}
