//! Typed errors. Every failure the crate can meet on untrusted input is one of these, and each
//! maps to the A2UI error code that is reported back to the agent.

use thiserror::Error;

/// The A2UI `code` of an error message sent back to the agent.
pub const VALIDATION_FAILED: &str = "VALIDATION_FAILED";

/// An error raised while framing, parsing or applying agent messages, or while evaluating
/// bindings. Never a panic: every bad payload ends up here.
#[derive(Clone, Debug, Error, PartialEq)]
pub enum A2uiError {
    /// The bytes of one message were not valid JSON (or not UTF-8).
    #[error("malformed JSON: {0}")]
    Json(String),

    /// The message is JSON but does not have the shape of any A2UI message.
    #[error("invalid message at {path}: {message}")]
    Validation {
        /// JSON pointer into the offending message, e.g. `/updateComponents/components/0/id`.
        path: String,
        /// What is wrong.
        message: String,
    },

    /// A message names a protocol version we do not speak.
    #[error("unsupported protocol version {0:?}")]
    UnsupportedVersion(String),

    /// An update or delete for a surface that does not exist.
    #[error("surface not found: {0}")]
    SurfaceNotFound(String),

    /// `createSurface` for a surface id that is already live.
    #[error("surface already exists: {0}")]
    SurfaceExists(String),

    /// A message for a surface that was created with another protocol version.
    #[error("surface {surface_id} speaks {surface_version}, message is {message_version}")]
    VersionMismatch {
        /// The surface.
        surface_id: String,
        /// The version the surface was created with.
        surface_version: String,
        /// The version of the message.
        message_version: String,
    },

    /// A data-model write that cannot be done (through a primitive, bad index, bad pointer).
    #[error("data model error at {path}: {message}")]
    DataModel {
        /// The JSON pointer written.
        path: String,
        /// What went wrong.
        message: String,
    },

    /// A configured limit was exceeded; the offending message is rejected whole.
    #[error("limit exceeded: {what} ({actual} > {limit})")]
    LimitExceeded {
        /// Which limit (the field name in [`crate::Limits`]).
        what: &'static str,
        /// The configured maximum.
        limit: usize,
        /// What the payload asked for.
        actual: usize,
    },

    /// The component tree has a cycle or a self reference; the repeated node is cut.
    #[error("cycle: component {0:?} is its own ancestor")]
    Cycle(String),

    /// A catalog the surface or component names is not registered.
    #[error("catalog not found: {0}")]
    CatalogNotFound(String),

    /// v1.0 composition: a component placed under a parent its catalog does not allow
    /// (`allowedParents`, or the parent's `allowedChildren`).
    #[error("component {child:?} ({child_type}) may not be a child of {parent_type}")]
    Unallowed {
        /// `true`: the child's `allowedParents` refuses the parent (`UNALLOWED_PARENT`);
        /// `false`: the parent's `allowedChildren` refuses the child (`UNALLOWED_CHILD`).
        parent_rule: bool,
        /// The child component id.
        child: String,
        /// The child's type.
        child_type: String,
        /// The parent's type (`Surface` for the root).
        parent_type: String,
    },

    /// A function call or formatString expression failed.
    #[error("expression error in {expression}: {message}")]
    Expression {
        /// The function name or expression text.
        expression: String,
        /// What went wrong.
        message: String,
    },

    /// v1.0: a function the renderer asked the agent to run (`callAgentFunction`) came
    /// back as an error. A binding that needs it resolves to `null`, checks on it fail and
    /// an action whose context needs it is halted. Reported with the `EXPRESSION_ERROR`
    /// code, like any failed function.
    #[error("expression error in {function}: the agent answered {code}: {message}")]
    AgentFunction {
        /// The function name.
        function: String,
        /// The error code the agent answered with.
        code: String,
        /// The agent's message.
        message: String,
    },
}

impl A2uiError {
    /// The A2UI error `code` this error is reported with.
    pub fn code(&self) -> &'static str {
        match self {
            Self::Json(_) | Self::Validation { .. } | Self::UnsupportedVersion(_) => {
                VALIDATION_FAILED
            }
            Self::SurfaceNotFound(_) => "SURFACE_NOT_FOUND",
            Self::SurfaceExists(_) => "SURFACE_ALREADY_EXISTS",
            Self::VersionMismatch { .. } => "VERSION_MISMATCH",
            Self::DataModel { .. } => "DATA_MODEL_ERROR",
            Self::LimitExceeded { .. } => "LIMIT_EXCEEDED",
            Self::Cycle(_) => "CIRCULAR_REFERENCE",
            Self::CatalogNotFound(_) => "CATALOG_NOT_FOUND",
            Self::Expression { .. } | Self::AgentFunction { .. } => "EXPRESSION_ERROR",
            Self::Unallowed {
                parent_rule: true, ..
            } => "UNALLOWED_PARENT",
            Self::Unallowed { .. } => "UNALLOWED_CHILD",
        }
    }

    /// Whether the error is reported in the validation form (with a `path`).
    pub fn is_validation_form(&self) -> bool {
        matches!(
            self.code(),
            VALIDATION_FAILED | "UNALLOWED_PARENT" | "UNALLOWED_CHILD"
        )
    }

    /// The JSON pointer into the offending message, for validation-form errors.
    pub fn path(&self) -> Option<String> {
        match self {
            Self::Unallowed { child, .. } => Some(format!(
                "/components/{}",
                child.replace('~', "~0").replace('/', "~1")
            )),
            Self::Validation { path, .. } => Some(path.clone()),
            Self::Json(_) | Self::UnsupportedVersion(_) => Some(String::new()),
            _ => None,
        }
    }

    pub(crate) fn validation(path: impl Into<String>, message: impl Into<String>) -> Self {
        Self::Validation {
            path: path.into(),
            message: message.into(),
        }
    }
}

/// An error tied to the surface (if known) and the message index it came from, as kept by
/// the store for the host to drain.
#[derive(Clone, Debug, PartialEq)]
pub struct ReportedError {
    /// The surface the message was for, when it could be read.
    pub surface_id: Option<String>,
    /// 0-based index of the message in the stream (non-blank lines for JSONL).
    pub message_index: Option<usize>,
    /// The error.
    pub error: A2uiError,
}
