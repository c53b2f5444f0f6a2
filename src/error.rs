//! Typed errors. Every failure the crate can meet on untrusted input is one of these, and each
//! maps to the A2UI error code that is reported back to the agent.

use serde_json::{Map, Value, json};
use thiserror::Error;

use crate::protocol::version::Version;

/// Every error code the crate sends or shows, in one table: the A2UI `error` codes of
/// [`A2uiError::code`], the v1.0 `rendererFunctionResponse` error codes, and the codes of
/// the MCP bridge's surface notices.
pub mod codes {
    /// A message or component failed validation (the validation form, with a `path`).
    pub const VALIDATION_FAILED: &str = "VALIDATION_FAILED";
    /// An update or delete for a surface that does not exist.
    pub const SURFACE_NOT_FOUND: &str = "SURFACE_NOT_FOUND";
    /// `createSurface` for a surface id already live.
    pub const SURFACE_ALREADY_EXISTS: &str = "SURFACE_ALREADY_EXISTS";
    /// A message's protocol version differs from its surface's.
    pub const VERSION_MISMATCH: &str = "VERSION_MISMATCH";
    /// A data-model update that could not be applied.
    pub const DATA_MODEL_ERROR: &str = "DATA_MODEL_ERROR";
    /// A limit of [`Limits`](crate::limits::Limits) was exceeded.
    pub const LIMIT_EXCEEDED: &str = "LIMIT_EXCEEDED";
    /// A component tree with a cycle.
    pub const CIRCULAR_REFERENCE: &str = "CIRCULAR_REFERENCE";
    /// A catalog id this renderer does not serve.
    pub const CATALOG_NOT_FOUND: &str = "CATALOG_NOT_FOUND";
    /// A function call or expression failed (a refused `openUrl` included).
    pub const EXPRESSION_ERROR: &str = "EXPRESSION_ERROR";
    /// v1.0 warning: a binding to a path that holds nothing.
    pub const MISSING_DATA_BINDING: &str = "MISSING_DATA_BINDING";
    /// v1.0: a component its parent's catalog rules do not allow.
    pub const UNALLOWED_PARENT: &str = "UNALLOWED_PARENT";
    /// v1.0: a child its parent's catalog rules do not allow.
    pub const UNALLOWED_CHILD: &str = "UNALLOWED_CHILD";
    /// v1.0 `rendererFunctionResponse`: the agent's call was refused.
    pub const INVALID_FUNCTION_CALL: &str = "INVALID_FUNCTION_CALL";
    /// v1.0 `rendererFunctionResponse`: the called function failed while running.
    pub const EXECUTION_ERROR: &str = "EXECUTION_ERROR";
    /// MCP surface notice: the action was not sent (tool unknown on this server, not
    /// app-visible, or no tool mapped).
    pub const MCP_TOOL_NOT_ALLOWED: &str = "MCP_TOOL_NOT_ALLOWED";
    /// MCP surface notice: the action's tool call failed (`isError`, or a transport or
    /// JSON-RPC error).
    pub const MCP_TOOL_ERROR: &str = "MCP_TOOL_ERROR";

    /// Every code above.
    pub const ALL: &[&str] = &[
        VALIDATION_FAILED,
        SURFACE_NOT_FOUND,
        SURFACE_ALREADY_EXISTS,
        VERSION_MISMATCH,
        DATA_MODEL_ERROR,
        LIMIT_EXCEEDED,
        CIRCULAR_REFERENCE,
        CATALOG_NOT_FOUND,
        EXPRESSION_ERROR,
        MISSING_DATA_BINDING,
        UNALLOWED_PARENT,
        UNALLOWED_CHILD,
        INVALID_FUNCTION_CALL,
        EXECUTION_ERROR,
        MCP_TOOL_NOT_ALLOWED,
        MCP_TOOL_ERROR,
    ];
}

/// An error raised while framing, parsing or applying agent messages, or while evaluating
/// bindings. Never a panic: every bad payload ends up here.
#[derive(Clone, Debug, Error, PartialEq)]
#[non_exhaustive]
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
        /// Which limit (the field name in [`crate::limits::Limits`]).
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

    /// v1.0: a component binds a data-model path that holds no value (reported as a
    /// warning, once per surface and path, by the renderer; the binding resolves to
    /// `null`). Code `MISSING_DATA_BINDING`.
    #[error("warning: missing data binding: nothing at {path}")]
    MissingDataBinding {
        /// The absolute JSON pointer bound.
        path: String,
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

    /// A model answer streamed through [`crate::stream::model_text`] did not read: an
    /// `<a2ui>` Express statement that did not compile, bad JSON in an `<a2ui-json>`
    /// block, a block cut off or over a limit. The message names the block kind, the
    /// error's kind and, for Express, the statement's line. Code `VALIDATION_FAILED`.
    #[error("model text: {0}")]
    ModelText(String),

    /// The host's [`UrlPolicy`](crate::url_policy::UrlPolicy) refused the URL of an `openUrl` action
    /// (a scheme or host it does not allow, no user gesture, ...): nothing was handed to
    /// the host. Reported with the `EXPRESSION_ERROR` code, as a failed `openUrl` call (the
    /// spec has no code of its own for it).
    #[error("openUrl refused URL {url:?}: {refusal}")]
    UrlRefused {
        /// The refused URL, cut to its first 200 characters.
        url: String,
        /// Why the policy refused it.
        refusal: crate::url_policy::UrlRefusal,
    },
}

impl A2uiError {
    /// The A2UI error `code` this error is reported with.
    pub fn code(&self) -> &'static str {
        match self {
            Self::Json(_)
            | Self::Validation { .. }
            | Self::UnsupportedVersion(_)
            | Self::ModelText(_) => codes::VALIDATION_FAILED,
            Self::SurfaceNotFound(_) => codes::SURFACE_NOT_FOUND,
            Self::SurfaceExists(_) => codes::SURFACE_ALREADY_EXISTS,
            Self::VersionMismatch { .. } => codes::VERSION_MISMATCH,
            Self::DataModel { .. } => codes::DATA_MODEL_ERROR,
            Self::LimitExceeded { .. } => codes::LIMIT_EXCEEDED,
            Self::Cycle(_) => codes::CIRCULAR_REFERENCE,
            Self::CatalogNotFound(_) => codes::CATALOG_NOT_FOUND,
            Self::Expression { .. } | Self::AgentFunction { .. } | Self::UrlRefused { .. } => {
                codes::EXPRESSION_ERROR
            }
            Self::MissingDataBinding { .. } => codes::MISSING_DATA_BINDING,
            Self::Unallowed {
                parent_rule: true, ..
            } => codes::UNALLOWED_PARENT,
            Self::Unallowed { .. } => codes::UNALLOWED_CHILD,
        }
    }

    /// Whether this is a warning (`MISSING_DATA_BINDING`) rather than a failure: nothing
    /// was rejected, the agent may want to know.
    pub fn is_warning(&self) -> bool {
        matches!(self, Self::MissingDataBinding { .. })
    }

    /// Whether the error is reported in the validation form (with a `path`).
    pub fn is_validation_form(&self) -> bool {
        matches!(
            self.code(),
            codes::VALIDATION_FAILED | codes::UNALLOWED_PARENT | codes::UNALLOWED_CHILD
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
            Self::Json(_) | Self::UnsupportedVersion(_) | Self::ModelText(_) => Some(String::new()),
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

/// One failure, recorded once: a message the store rejected, or an error met while drawing
/// or answering a call. The store keeps these ([`SurfaceStore::errors`](crate::model::SurfaceStore::errors)),
/// [`Applied::Rejected`](crate::model::Applied::Rejected) and
/// [`Event::Error`](crate::action::Event::Error) carry them, and [`Self::to_message`] is the A2UI
/// `error` message that tells the agent.
#[derive(Clone, Debug, PartialEq)]
pub struct Rejected {
    /// The surface concerned, when it could be read (`None` for a v1.0 error about a
    /// function call, or a message that could not be framed).
    pub surface_id: Option<String>,
    /// The protocol version to answer in: the live surface's, else the message's own
    /// (v0.9 when the message could not be framed).
    pub version: Version,
    /// 0-based index of the message in the store's stream (non-blank lines for JSONL);
    /// `None` for an error met outside `apply` (drawing, a function call).
    pub message_index: Option<usize>,
    /// v1.0: the function call the error answers.
    pub function_call_id: Option<String>,
    /// What was wrong.
    pub error: A2uiError,
}

impl Rejected {
    /// A failure concerning `surface_id` (if known), to be answered in `version`.
    pub fn new(surface_id: Option<String>, version: Version, error: A2uiError) -> Self {
        Self {
            surface_id,
            version,
            message_index: None,
            function_call_id: None,
            error,
        }
    }

    /// The same failure, attributed to the message at `index` of the stream.
    #[must_use]
    pub fn at_message(mut self, index: usize) -> Self {
        self.message_index = Some(index);
        self
    }

    /// The same failure, answering the v1.0 function call `id`.
    #[must_use]
    pub fn for_call(mut self, id: impl Into<String>) -> Self {
        self.function_call_id = Some(id.into());
        self
    }

    /// The renderer → agent `error` message in the surface's protocol version:
    /// `VALIDATION_FAILED` with `surfaceId` and `path`, or the generic form with the error's
    /// code.
    ///
    /// - v0.8: `{"error": {...}}` (free-form; the same fields are sent).
    /// - v0.9 / v0.9.1: `surfaceId` is required in both forms (`""` when the error concerns
    ///   no known surface); a generic error may carry `functionCallId` too.
    /// - v1.0: the validation form carries `surfaceId`; the generic form carries exactly one
    ///   of `functionCallId` (preferred when the error answers a function call) or
    ///   `surfaceId`.
    pub fn to_message(&self) -> Value {
        let code = self.error.code();
        let validation = self.error.is_validation_form();
        let surface = json!(self.surface_id.clone().unwrap_or_default());
        let mut body = Map::new();
        body.insert("code".into(), json!(code));
        match (self.version, validation, &self.function_call_id) {
            (Version::V1_0, false, Some(call)) => {
                body.insert("functionCallId".into(), json!(call));
            }
            (Version::V1_0, _, _) => {
                body.insert("surfaceId".into(), surface);
            }
            (_, false, Some(call)) => {
                body.insert("surfaceId".into(), surface);
                body.insert("functionCallId".into(), json!(call));
            }
            _ => {
                body.insert("surfaceId".into(), surface);
            }
        }
        if validation {
            body.insert("path".into(), json!(self.error.path().unwrap_or_default()));
        }
        body.insert("message".into(), json!(self.error.to_string()));
        match self.version {
            Version::V0_8 => json!({ "error": body }),
            v => json!({ "version": v.as_str(), "error": body }),
        }
    }
}

#[cfg(test)]
mod code_tests {
    use super::*;

    #[test]
    fn every_code_is_in_the_one_table_once() {
        let s = String::new;
        let errors = [
            A2uiError::Json(s()),
            A2uiError::validation("", ""),
            A2uiError::UnsupportedVersion(s()),
            A2uiError::SurfaceNotFound(s()),
            A2uiError::SurfaceExists(s()),
            A2uiError::VersionMismatch {
                surface_id: s(),
                surface_version: s(),
                message_version: s(),
            },
            A2uiError::DataModel {
                path: s(),
                message: s(),
            },
            A2uiError::LimitExceeded {
                what: "x",
                limit: 1,
                actual: 2,
            },
            A2uiError::Cycle(s()),
            A2uiError::CatalogNotFound(s()),
            A2uiError::Unallowed {
                parent_rule: true,
                child: s(),
                child_type: s(),
                parent_type: s(),
            },
            A2uiError::Unallowed {
                parent_rule: false,
                child: s(),
                child_type: s(),
                parent_type: s(),
            },
            A2uiError::Expression {
                expression: s(),
                message: s(),
            },
            A2uiError::MissingDataBinding { path: s() },
            A2uiError::AgentFunction {
                function: s(),
                code: s(),
                message: s(),
            },
            A2uiError::UrlRefused {
                url: s(),
                refusal: crate::url_policy::UrlRefusal::BadHost,
            },
        ];
        for e in &errors {
            assert!(codes::ALL.contains(&e.code()), "{e:?}: {}", e.code());
        }
        let mut all = codes::ALL.to_vec();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), codes::ALL.len(), "a code listed twice");
        // Each of the A2UI `error` codes is some error's code.
        for code in &codes::ALL[..12] {
            assert!(errors.iter().any(|e| e.code() == *code), "{code} unused");
        }
    }
}
