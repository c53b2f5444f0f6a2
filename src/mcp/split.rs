//! Splitting one `CallToolResult` (as JSON) into what the model sees, what the host renders
//! and what it drops.
//!
//! Rules (ext-apps PR #699 "Dynamic View Content", as a native host reads them):
//! - A block is *marked* when it is `type: "resource"` and `_meta.ui.content` is a JSON
//!   object. `rendererUri` inside it is read when present, never required; other fields are
//!   ignored.
//! - A marked block's `mimeType` must match the host's `contentMimeTypes` (and the View's,
//!   when known) exactly, parameters included; the two A2UI spellings are aliases.
//! - Unmarked embedded resources with an A2UI MIME type are payloads too (legacy A2UI
//!   servers do not mark), unless the policy turns that off.
//! - Payload URIs must not use `ui://`; exactly one of `text` / base64 `blob` is allowed.
//! - Size caps per payload and per result drop one block and keep the rest.
//! - Unknown block types are skipped and reported, never fatal.
//! - Model-visible blocks are every other block, minus those annotated
//!   `audience` without `"assistant"` (e.g. `["user"]`), which go to `user_only`.
//! - Payloads keep their array order (apply them in that order).

use base64::Engine;
use serde_json::{Map, Value};

use super::{McpError, is_ui_uri};
use crate::limits::Limits;
use crate::protocol::{MIME_TYPE, MIME_TYPE_LEGACY};
use crate::stream::{Framed, parse_document};

/// How tool results are split.
#[derive(Clone, Debug, PartialEq)]
pub struct SplitPolicy {
    /// The host's advertised `contentMimeTypes`: marked payloads must match one (`"*"`
    /// matches all).
    pub content_mime_types: Vec<String>,
    /// The target View's declared `contentMimeTypes` (from the tool's `ui://` resource),
    /// when known: marked payloads must match one of these too.
    pub view_content_mime_types: Option<Vec<String>>,
    /// Accept unmarked embedded resources with an A2UI MIME type as payloads (legacy A2UI
    /// servers). On by default.
    pub accept_unmarked_a2ui: bool,
    /// Cap on one payload's bytes (text bytes, or decoded blob bytes). Default:
    /// [`Limits::max_mcp_payload_bytes`].
    pub max_payload_bytes: usize,
    /// Cap on the payload bytes accepted from one result; a payload that would exceed it is
    /// dropped and later, smaller ones are still taken. Default:
    /// [`Limits::max_mcp_result_bytes`].
    pub max_result_bytes: usize,
}

impl Default for SplitPolicy {
    fn default() -> Self {
        Self {
            content_mime_types: vec![MIME_TYPE.to_owned()],
            view_content_mime_types: None,
            accept_unmarked_a2ui: true,
            max_payload_bytes: Limits::default().max_mcp_payload_bytes,
            max_result_bytes: Limits::default().max_mcp_result_bytes,
        }
    }
}

impl SplitPolicy {
    /// The default policy accepting what `settings` advertises in `contentMimeTypes`.
    pub fn for_settings(settings: &super::UiExtensionSettings) -> Self {
        Self {
            content_mime_types: settings.content_mime_types.clone(),
            ..Self::default()
        }
    }

    /// Whether a marked payload of this MIME type is accepted (host list, then View list).
    pub fn accepts_marked(&self, mime: &str) -> bool {
        mime_list_accepts(&self.content_mime_types, mime)
            && self
                .view_content_mime_types
                .as_ref()
                .is_none_or(|v| mime_list_accepts(v, mime))
    }
}

/// Whether a declared list accepts `mime`: `"*"` accepts everything, otherwise one entry
/// must [`mime_matches`].
pub fn mime_list_accepts(list: &[String], mime: &str) -> bool {
    list.iter()
        .any(|d| d.trim() == "*" || mime_matches(d, mime))
}

/// Exact MIME comparison with significant parameters: the type/subtype compare
/// case-insensitively (RFC 6838) with the two A2UI spellings as aliases; the parameters
/// compare exactly, in order, ignoring only whitespace around `;`.
/// `application/a2ui+json;v=2` does not match `application/a2ui+json`.
pub fn mime_matches(declared: &str, actual: &str) -> bool {
    let (de, dp) = split_mime(declared);
    let (ae, ap) = split_mime(actual);
    canonical_essence(de) == canonical_essence(ae) && dp == ap
}

fn split_mime(m: &str) -> (&str, Vec<&str>) {
    let mut parts = m.split(';');
    let essence = parts.next().unwrap_or_default().trim();
    let params = parts.map(str::trim).filter(|p| !p.is_empty()).collect();
    (essence, params)
}

fn canonical_essence(e: &str) -> String {
    if e.eq_ignore_ascii_case(MIME_TYPE_LEGACY) {
        MIME_TYPE.to_owned()
    } else {
        e.to_ascii_lowercase()
    }
}

/// Whether `mime` names A2UI in either spelling, parameters ignored (for recognising
/// unmarked legacy payloads, as mcp-ui does).
pub fn is_a2ui_family(mime: &str) -> bool {
    canonical_essence(split_mime(mime).0) == MIME_TYPE
}

/// A payload's bytes, as sent.
#[derive(Clone, Debug, PartialEq)]
pub enum PayloadData {
    /// `resource.text`.
    Text(String),
    /// `resource.blob`, base64-decoded.
    Blob(Vec<u8>),
}

impl PayloadData {
    /// The payload bytes.
    pub fn bytes(&self) -> &[u8] {
        match self {
            Self::Text(t) => t.as_bytes(),
            Self::Blob(b) => b,
        }
    }
}

/// A payload to render, taken from one content block.
#[derive(Clone, Debug, PartialEq)]
pub struct ViewPayload {
    /// The block's index in `content`.
    pub index: usize,
    /// `resource.uri` (an ephemeral identifier, never `ui://`), when present.
    pub uri: Option<String>,
    /// `resource.mimeType`.
    pub mime_type: String,
    /// The payload bytes.
    pub data: PayloadData,
    /// `_meta.ui.content.rendererUri`, when the marker names one.
    pub renderer_uri: Option<String>,
    /// Whether the block carried the `_meta.ui.content` marker (false: legacy A2UI).
    pub marked: bool,
    /// The content block, unmodified.
    pub block: Value,
}

impl ViewPayload {
    /// Whether the payload is A2UI (either spelling, any parameters).
    pub fn is_a2ui(&self) -> bool {
        is_a2ui_family(&self.mime_type)
    }

    /// The A2UI messages of the payload: one message, an array of messages, a
    /// `{"messages": [...]}` wrapper or JSONL, in order, each parsed or failed on its own.
    pub fn messages(&self, limits: &Limits) -> Vec<Framed> {
        parse_document(self.data.bytes(), limits)
    }
}

/// Why a block was dropped.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum DropReason {
    /// The block is not a JSON object.
    #[error("content block is not an object")]
    NotAnObject,
    /// The block has no string `type`.
    #[error("content block has no type")]
    MissingType,
    /// The block's type is not one this host knows.
    #[error("unknown content block type {0:?}")]
    UnknownType(String),
    /// A resource block without a `resource` object.
    #[error("resource block has no resource object")]
    MissingResource,
    /// A payload without `mimeType`.
    #[error("payload has no mimeType")]
    MissingMimeType,
    /// A marked payload whose MIME type is not declared by the host or the View.
    #[error("payload mimeType {0:?} is not declared in contentMimeTypes")]
    MimeNotDeclared(String),
    /// A payload URI with the reserved `ui://` scheme.
    #[error("payload uri {0:?} uses the reserved ui:// scheme")]
    UiSchemeUri(String),
    /// Both `text` and `blob` present.
    #[error("payload has both text and blob")]
    TextAndBlob,
    /// Neither a string `text` nor a string `blob`.
    #[error("payload has no text or blob string")]
    NoData,
    /// `blob` is not valid base64.
    #[error("payload blob is not valid base64: {0}")]
    InvalidBase64(String),
    /// One payload larger than [`SplitPolicy::max_payload_bytes`].
    #[error("payload of {size} bytes exceeds the per-payload cap of {limit}")]
    PayloadTooLarge {
        /// Payload bytes (decoded; estimated for a blob refused before decoding).
        size: usize,
        /// The cap.
        limit: usize,
    },
    /// A payload that would take the result past [`SplitPolicy::max_result_bytes`].
    #[error("payload of {size} bytes would exceed the per-result cap of {limit} ({used} used)")]
    ResultTooLarge {
        /// Payload bytes.
        size: usize,
        /// Bytes already accepted from this result.
        used: usize,
        /// The cap.
        limit: usize,
    },
}

/// A block left out of both the model's view and the payloads.
#[derive(Clone, Debug, PartialEq)]
pub struct DroppedBlock {
    /// The block's index in `content`.
    pub index: usize,
    /// Its `type`, when it had one.
    pub block_type: Option<String>,
    /// Its `resource.uri`, when it had one.
    pub uri: Option<String>,
    /// Why it was dropped.
    pub reason: DropReason,
}

/// One tool result, split.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SplitResult {
    /// Blocks for the model (text, images, links, ordinary resources), unmodified, in order.
    pub model_visible: Vec<Value>,
    /// Blocks the server addressed to the user only (`annotations.audience` without
    /// `"assistant"`): show them, keep them out of model context.
    pub user_only: Vec<Value>,
    /// Payloads to render, in array order.
    pub payloads: Vec<ViewPayload>,
    /// Blocks dropped, with the reason (log these).
    pub dropped: Vec<DroppedBlock>,
    /// The result's `isError`.
    pub is_error: bool,
    /// The result's `structuredContent`, when present.
    pub structured_content: Option<Value>,
}

impl SplitResult {
    /// The text of the model-visible text blocks, joined by newlines.
    pub fn model_text(&self) -> String {
        block_text(&self.model_visible)
    }

    /// The text of every text block (model-visible and user-only), joined by newlines: what
    /// to show the user as a fallback or an error message.
    pub fn display_text(&self) -> String {
        let mut all = self.model_visible.clone();
        all.extend(self.user_only.iter().cloned());
        block_text(&all)
    }
}

fn block_text(blocks: &[Value]) -> String {
    blocks
        .iter()
        .filter(|b| b.get("type").and_then(Value::as_str) == Some("text"))
        .filter_map(|b| b.get("text").and_then(Value::as_str))
        .collect::<Vec<_>>()
        .join("\n")
}

const KNOWN_TYPES: &[&str] = &["text", "image", "audio", "resource_link", "resource"];

/// Split a `CallToolResult` (JSON) under `policy`. Only a result that is not an object, or
/// whose `content` is not an array, is an error; a missing `content` is empty.
pub fn split_tool_result(result: &Value, policy: &SplitPolicy) -> Result<SplitResult, McpError> {
    let obj = result.as_object().ok_or(McpError::ResultNotAnObject)?;
    let content: &[Value] = match obj.get("content") {
        None | Some(Value::Null) => &[],
        Some(Value::Array(a)) => a,
        Some(_) => return Err(McpError::ContentNotAnArray),
    };
    let mut out = SplitResult {
        is_error: obj.get("isError").and_then(Value::as_bool).unwrap_or(false),
        structured_content: obj.get("structuredContent").cloned(),
        ..SplitResult::default()
    };
    let mut used = 0usize;
    for (index, block) in content.iter().enumerate() {
        let Some(b) = block.as_object() else {
            out.dropped.push(DroppedBlock {
                index,
                block_type: None,
                uri: None,
                reason: DropReason::NotAnObject,
            });
            continue;
        };
        let ty = b.get("type").and_then(Value::as_str);
        let drop = |reason: DropReason| DroppedBlock {
            index,
            block_type: ty.map(str::to_owned),
            uri: b
                .get("resource")
                .and_then(|r| r.get("uri"))
                .and_then(Value::as_str)
                .map(str::to_owned),
            reason,
        };
        match ty {
            None => out.dropped.push(drop(DropReason::MissingType)),
            Some(t) if !KNOWN_TYPES.contains(&t) => {
                out.dropped
                    .push(drop(DropReason::UnknownType(t.to_owned())));
            }
            Some("resource") => match resource_block(index, block, b, policy, &mut used) {
                Ok(Some(p)) => out.payloads.push(p),
                Ok(None) => push_ordinary(&mut out, block, b),
                Err(reason) => out.dropped.push(drop(reason)),
            },
            Some(_) => push_ordinary(&mut out, block, b),
        }
    }
    Ok(out)
}

fn push_ordinary(out: &mut SplitResult, block: &Value, b: &Map<String, Value>) {
    if is_user_only(b) {
        out.user_only.push(block.clone());
    } else {
        out.model_visible.push(block.clone());
    }
}

/// `annotations.audience` present and without `"assistant"`.
fn is_user_only(b: &Map<String, Value>) -> bool {
    match b.get("annotations").and_then(|a| a.get("audience")) {
        Some(Value::Array(aud)) => !aud.iter().any(|r| r.as_str() == Some("assistant")),
        _ => false,
    }
}

/// The `_meta.ui.content` marker object, when the block is marked.
fn marker(b: &Map<String, Value>) -> Option<&Map<String, Value>> {
    b.get("_meta")?.get("ui")?.get("content")?.as_object()
}

/// `Ok(None)`: an ordinary (model-visible) resource.
fn resource_block(
    index: usize,
    block: &Value,
    b: &Map<String, Value>,
    policy: &SplitPolicy,
    used: &mut usize,
) -> Result<Option<ViewPayload>, DropReason> {
    let mark = marker(b);
    let res = b.get("resource").and_then(Value::as_object);
    let mime = res.and_then(|r| r.get("mimeType")).and_then(Value::as_str);
    let legacy = policy.accept_unmarked_a2ui && mime.is_some_and(is_a2ui_family);
    if mark.is_none() && !legacy {
        return Ok(None);
    }
    let res = res.ok_or(DropReason::MissingResource)?;
    let mime = mime.ok_or(DropReason::MissingMimeType)?;
    if mark.is_some() && !policy.accepts_marked(mime) {
        return Err(DropReason::MimeNotDeclared(mime.to_owned()));
    }
    let uri = res.get("uri").and_then(Value::as_str);
    if let Some(u) = uri
        && is_ui_uri(u)
    {
        return Err(DropReason::UiSchemeUri(u.to_owned()));
    }
    let text = res.get("text").and_then(Value::as_str);
    let blob = res.get("blob").and_then(Value::as_str);
    let data = match (text, blob) {
        (Some(_), Some(_)) => return Err(DropReason::TextAndBlob),
        (None, None) => return Err(DropReason::NoData),
        (Some(t), None) => {
            check_payload_size(t.len(), policy)?;
            PayloadData::Text(t.to_owned())
        }
        (None, Some(b64)) => {
            // Refuse on the decoded-size estimate before decoding anything large.
            check_payload_size(b64.len() / 4 * 3, policy)?;
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(b64.trim())
                .map_err(|e| DropReason::InvalidBase64(e.to_string()))?;
            check_payload_size(bytes.len(), policy)?;
            PayloadData::Blob(bytes)
        }
    };
    let size = data.bytes().len();
    if used.saturating_add(size) > policy.max_result_bytes {
        return Err(DropReason::ResultTooLarge {
            size,
            used: *used,
            limit: policy.max_result_bytes,
        });
    }
    *used += size;
    Ok(Some(ViewPayload {
        index,
        uri: uri.map(str::to_owned),
        mime_type: mime.to_owned(),
        data,
        renderer_uri: mark
            .and_then(|m| m.get("rendererUri"))
            .and_then(Value::as_str)
            .map(str::to_owned),
        marked: mark.is_some(),
        block: block.clone(),
    }))
}

fn check_payload_size(size: usize, policy: &SplitPolicy) -> Result<(), DropReason> {
    if size > policy.max_payload_bytes {
        return Err(DropReason::PayloadTooLarge {
            size,
            limit: policy.max_payload_bytes,
        });
    }
    Ok(())
}

/// Build a marked content block (server side, or for tests): an embedded resource with
/// `_meta.ui.content` set, carrying `text`. Refuses a `ui://` URI.
pub fn view_content_block(
    uri: &str,
    mime_type: &str,
    text: &str,
    renderer_uri: Option<&str>,
) -> Result<Value, DropReason> {
    if is_ui_uri(uri) {
        return Err(DropReason::UiSchemeUri(uri.to_owned()));
    }
    let mut content = Map::new();
    if let Some(r) = renderer_uri {
        content.insert("rendererUri".into(), Value::String(r.to_owned()));
    }
    Ok(serde_json::json!({
        "type": "resource",
        "resource": {"uri": uri, "mimeType": mime_type, "text": text},
        "_meta": {"ui": {"content": content}}
    }))
}
