//! Every cap on untrusted input, in one place. Payloads come from models and remote agents;
//! these bound the memory and time a single agent can make the host spend.

/// Resource limits. The defaults are safe for an interactive desktop host; a host may raise
/// or lower any of them.
#[derive(Clone, Debug, PartialEq)]
pub struct Limits {
    /// Bytes in one JSON message (one JSONL line, or one element of an array). 4 MiB is far
    /// above any real surface and keeps one message from exhausting memory.
    pub max_message_bytes: usize,
    /// Bytes buffered for a partial line in the incremental feed before it is dropped.
    pub max_line_bytes: usize,
    /// Live surfaces per renderer.
    pub max_surfaces: usize,
    /// Components stored per surface.
    pub max_components: usize,
    /// Depth of the resolved component tree; deeper nodes are drawn as truncated. 200 matches
    /// the reference oracle.
    pub max_tree_depth: usize,
    /// Template instances laid out per frame (lists beyond are virtualised or cut).
    pub max_template_instances: usize,
    /// Serialized size of one surface's data model, in bytes (approximate).
    pub max_data_model_bytes: usize,
    /// Characters of one string drawn; longer strings are cut with an ellipsis.
    pub max_string_chars: usize,
    /// Nesting of function calls inside bound values.
    pub max_call_depth: usize,
    /// Nesting of `${...}` inside formatString (the reference parser uses 10).
    pub max_expression_depth: usize,
    /// Compiled size of one `regex` pattern, in bytes.
    pub max_regex_bytes: usize,
    /// Nesting depth of JSON accepted in a message (serde_json stops at 128 anyway).
    pub max_json_depth: usize,
    /// Bytes of one `<a2ui-json>` block in model text (`stream::model_text`); the rest of
    /// a longer block is skipped with an error. Same order as `max_message_bytes`: a block
    /// usually holds a few messages.
    pub max_model_block_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_message_bytes: 4 * 1024 * 1024,
            max_line_bytes: 8 * 1024 * 1024,
            max_surfaces: 256,
            max_components: 10_000,
            max_tree_depth: 200,
            max_template_instances: 100_000,
            max_data_model_bytes: 64 * 1024 * 1024,
            max_string_chars: 100_000,
            max_call_depth: 16,
            max_expression_depth: 10,
            max_regex_bytes: 256 * 1024,
            max_json_depth: 128,
            max_model_block_bytes: 8 * 1024 * 1024,
        }
    }
}
