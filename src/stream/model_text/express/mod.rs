//! A2UI Express: the compact model-output notation, compiled into A2UI messages.
//!
//! A model prompted with a catalog's positional signatures answers with `<a2ui>` blocks
//! of line statements instead of JSON:
//!
//! ```text
//! <a2ui>
//! surface("weather")
//! $/temp = 21
//! root = Card(Column([Text(formatString("${/temp} °C"), "h1"), Text("Sunny")]))
//! </a2ui>
//! ```
//!
//! The lexer (`lexer.rs`) and the recursive-descent parser (`parser.rs`) follow the
//! official grammar `Express.g4` token for token: the four string forms (`"…"` with
//! `\n \r \t \\ \"` escapes, `"""…"""`, raw `r"…"` and `r"""…"""`), numbers, booleans,
//! `null`, `_` skips, `$/abs` and `$rel` paths, `?check(…)`, calls with positional and
//! keyword arguments, arrays and maps with trailing commas, `#`, `//` and `/* */`
//! comments, semicolons, and statements spanning lines. The compiler (`compile.rs`)
//! maps positional arguments to the catalog's property order (read from the catalog
//! definition as the official SDK reads it, `signatures.rs`), hoists inline components
//! with the official ids (`<parent>_<property>` / `<parent>_<property>_<index>`), and
//! writes `createSurface` / `updateComponents` / `updateDataModel` / `deleteSurface` /
//! `callRendererFunction` for v0.9, v0.9.1 or v1.0 (v1.0 spells bindings `@path` and
//! calls `@call`).
//!
//! In model text ([`ModelTextParser`](super::ModelTextParser)) an `<a2ui>` block
//! streams: each statement is compiled as soon as it is complete, and once `root` exists
//! the components reachable from it are applied with placeholder `Row`s for children not
//! yet written, as for `<a2ui-json>` blocks. A statement that does not compile is
//! reported as an [`ExpressError`] (the official error kinds, with the statement's line)
//! and the rest of the block goes on. [`compile()`] compiles a whole block at once.
//!
//! ```
//! use egui_a2ui::stream::model_text::express::{ExpressCatalog, ExpressVersion, compile};
//!
//! let cat = ExpressCatalog::basic(ExpressVersion::V1_0);
//! let out = compile(r#"root = Column([Text("Hi", "caption"), Button(Text("Go"), _, Event("go"))])"#, &cat, "s");
//! assert!(out.errors.is_empty(), "{:?}", out.errors);
//! let comps = &out.messages[0]["createSurface"]["components"];
//! assert_eq!(comps[1]["id"], "root_children_0");
//! assert_eq!(comps[2]["child"], "root_children_1_child");
//! ```

mod block;
mod compile;
mod lexer;
mod parser;
pub(crate) mod signatures;

/// The catalog's maps: foldhash (read per component compiled and applied).
type HashMap<K, V> = std::collections::HashMap<K, V, foldhash::fast::RandomState>;

use serde_json::Value;

pub use block::{EXPRESS_CLOSE_TAG, ExpressBlock, ExpressOutput};

/// The protocol version Express compiles for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ExpressVersion {
    /// A2UI v0.9.
    #[default]
    V0_9,
    /// A2UI v0.9.1.
    V0_9_1,
    /// A2UI v1.0 (`@path`, `@call`, components inside `createSurface`).
    V1_0,
}

impl ExpressVersion {
    /// The `version` string of the messages.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::V0_9 => "v0.9",
            Self::V0_9_1 => "v0.9.1",
            Self::V1_0 => "v1.0",
        }
    }

    /// Whether this is v1.0 or later.
    pub fn at_least_v10(self) -> bool {
        self == Self::V1_0
    }

    /// Read `"0.9"`, `"v0.9.1"`, `"1.0"`, … (`None`: unknown).
    pub fn parse(s: &str) -> Option<Self> {
        match s.trim_start_matches('v') {
            "0.9" => Some(Self::V0_9),
            "0.9.1" => Some(Self::V0_9_1),
            "1.0" => Some(Self::V1_0),
            _ => None,
        }
    }
}

/// The official Express error kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ExpressErrorKind {
    /// Text the grammar cannot read (a syntax error, a bad `_template`).
    Parse,
    /// A keyword argument naming no property of the component.
    UnknownProperty,
    /// A property given twice (positionally and by keyword).
    DuplicateProperty,
    /// A keyword argument naming no parameter of the function.
    InvalidParam,
    /// A function parameter given twice.
    DuplicateParam,
    /// A data binding where the property admits only literals.
    ForbiddenBinding,
    /// A block (or surface scope) without the `root` it needs.
    UndefinedRoot,
    /// A child variable referenced but never defined (declared by the reference, which
    /// does not raise it: the reference leaves the reference dangling, and so do we).
    UndefinedChild,
    /// Anything else the catalog refuses (an unknown component or function, a value
    /// outside an enum, a missing required property, …).
    Validation,
}

impl ExpressErrorKind {
    /// The official category: `ParseError` or `ValidationError`.
    pub fn category(self) -> &'static str {
        match self {
            Self::Parse | Self::UndefinedRoot | Self::UndefinedChild => "ParseError",
            _ => "ValidationError",
        }
    }

    /// The name of the reference's exception class for this kind
    /// (`a2ui.inference_formats.express.errors`), e.g. `ExpressUnknownPropertyError`.
    pub fn class_name(self) -> &'static str {
        match self {
            Self::Parse => "ExpressParseError",
            Self::UnknownProperty => "ExpressUnknownPropertyError",
            Self::DuplicateProperty => "ExpressDuplicatePropertyError",
            Self::InvalidParam => "ExpressInvalidParamError",
            Self::DuplicateParam => "ExpressDuplicateParamError",
            Self::ForbiddenBinding => "ExpressForbiddenDatabindingError",
            Self::UndefinedRoot => "ExpressUndefinedRootError",
            Self::UndefinedChild => "ExpressUndefinedChildError",
            Self::Validation => "ExpressValidationError",
        }
    }
}

/// A compile error in an Express block.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("Express line {line}: {message}")]
pub struct ExpressError {
    /// Which kind.
    pub kind: ExpressErrorKind,
    /// 1-based line of the statement in its block.
    pub line: u32,
    /// What is wrong (the reference's wording where it has one).
    pub message: String,
}

/// What Express compiles against: the positional signatures of one catalog's
/// components and functions, its id and the protocol version.
#[derive(Clone, Debug)]
pub struct ExpressCatalog {
    pub(crate) catalog_id: String,
    pub(crate) version: ExpressVersion,
    pub(crate) components: HashMap<String, signatures::ComponentSig>,
    pub(crate) functions: HashMap<String, signatures::FunctionSig>,
}

impl ExpressCatalog {
    /// Read catalog definition documents (`catalogId`, `components`, `functions`, as
    /// served to agents); the first names the catalog and its version (its
    /// `protocolVersion`, else `version`, else from the id). A later document adds its
    /// components; an entry without properties (a reference to a component already
    /// known, as the extended catalog writes the basic ones) keeps the known one.
    pub fn from_definitions(docs: &[&Value], version: Option<ExpressVersion>) -> Self {
        let first = docs.first();
        let catalog_id = first
            .and_then(|d| d.get("catalogId"))
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        let declared = first
            .and_then(|d| d.get("protocolVersion"))
            .and_then(Value::as_str)
            .and_then(ExpressVersion::parse);
        let from_id = if catalog_id.contains("v1_0") || catalog_id.contains("/v1/") {
            ExpressVersion::V1_0
        } else if catalog_id.contains("v0_9_1") {
            ExpressVersion::V0_9_1
        } else {
            ExpressVersion::V0_9
        };
        let mut cat = Self {
            catalog_id,
            version: version.or(declared).unwrap_or(from_id),
            components: HashMap::default(),
            functions: HashMap::default(),
        };
        for d in docs {
            cat.add_definition(d);
        }
        cat
    }

    /// Add a catalog definition's components and functions (a host catalog's own).
    pub fn add_definition(&mut self, doc: &Value) {
        let (comps, fns) = signatures::read_definition(doc);
        for (n, s) in comps {
            if s.props.is_empty() && self.components.contains_key(&n) {
                continue;
            }
            self.components.insert(n, s);
        }
        for (n, s) in fns {
            if s.params.is_empty() && self.functions.contains_key(&n) {
                continue;
            }
            self.functions.insert(n, s);
        }
    }

    /// The basic catalog of `version` (v0.9 and v0.9.1 compile against the v0.9 basic
    /// catalog).
    pub fn basic(version: ExpressVersion) -> Self {
        let doc = basic_doc(version);
        Self::from_definitions(&[doc], Some(version))
    }

    /// The crate's extended catalog (v1.0) over the v1.0 basic catalog.
    pub fn extended() -> Self {
        let ext = extended_doc();
        let mut cat = Self::from_definitions(&[ext], Some(ExpressVersion::V1_0));
        let basic = basic_doc(ExpressVersion::V1_0);
        let (comps, fns) = signatures::read_definition(basic);
        for (n, s) in comps {
            if cat.components.get(&n).is_none_or(|c| c.props.is_empty()) {
                cat.components.insert(n, s);
            }
        }
        for (n, s) in fns {
            cat.functions.entry(n).or_insert(s);
        }
        cat
    }

    /// The catalog id `createSurface` names.
    pub fn catalog_id(&self) -> &str {
        &self.catalog_id
    }

    /// The version compiled for.
    pub fn version(&self) -> ExpressVersion {
        self.version
    }

    /// A component's positional signature (property names in order), if known.
    pub fn signature(&self, component: &str) -> Option<&[String]> {
        self.components.get(component).map(|c| c.props.as_slice())
    }
}

fn parse_doc(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or(Value::Null)
}

fn basic_doc(version: ExpressVersion) -> &'static Value {
    static V09: std::sync::OnceLock<Value> = std::sync::OnceLock::new();
    static V10: std::sync::OnceLock<Value> = std::sync::OnceLock::new();
    match version {
        ExpressVersion::V1_0 => V10.get_or_init(|| {
            parse_doc(include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/assets/schemas/v1_0_catalogs_basic/catalog.json"
            )))
        }),
        _ => V09.get_or_init(|| {
            parse_doc(include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/assets/schemas/v0_9_catalogs_basic/catalog.json"
            )))
        }),
    }
}

fn extended_doc() -> &'static Value {
    static EXT: std::sync::OnceLock<Value> = std::sync::OnceLock::new();
    EXT.get_or_init(|| {
        parse_doc(include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/catalogs/extended/v1/catalog.json"
        )))
    })
}

/// Compile one whole block (its text without the `<a2ui>` tags) for `surface_id` when
/// it names none: the messages, and the statements that did not compile.
pub fn compile(text: &str, catalog: &ExpressCatalog, surface_id: &str) -> ExpressOutput {
    let mut b = ExpressBlock::whole(std::sync::Arc::new(catalog.clone()), surface_id);
    let mut out = b.feed(text);
    out.append(b.finish_complete());
    out
}
