//! Every cap on untrusted input, in one place ([`Limits`]).

/// Resource limits. The defaults are safe for an interactive desktop host; a host may raise
/// or lower any of them.
///
/// Every cap on untrusted input is here. Payloads come from models and remote agents; these
/// bound the memory and time a single agent can make the host spend. Input over a limit
/// is a typed error (`LIMIT_EXCEEDED`), never a panic.
///
/// ```
/// use egui_a2ui::{Catalog, Limits, Renderer};
///
/// let limits = Limits { max_surfaces: 4, max_components: 2_000, ..Limits::default() };
/// let renderer = Renderer::with_limits(Catalog::basic(), limits);
/// # let _ = renderer;
/// ```
///
/// # How the tree guards fit together
///
/// Three guards bound the walk of a surface's component tree (the renderer's frame walk and
/// the conformance dump), and each catches what the others cannot:
///
/// - the **cycle guard** cuts a node whose `(id, scope)` is already an ancestor. It stops a
///   graph that loops, but not one that only *shares*: a node listing the next one twice, 40
///   levels deep, has no cycle and still has 2^40 paths;
/// - [`Limits::max_tree_depth`] cuts any path deeper than 200 nodes. It bounds the stack,
///   but a tree of depth 40 and fan-out 2 is well inside it;
/// - [`Limits::max_nodes`], the **node budget**, counts the component instances resolved
///   for one surface (per frame in the renderer, per dump in
///   [`conformance`](crate::conformance)), template instances included. It is what bounds
///   the *total* work, whatever the shape: shared children, a template whose item expands
///   the same absolute template path again (its scopes differ at every level, so the cycle
///   guard never fires), or just a very large static tree. Past the budget a node is drawn
///   (or dumped) as a placeholder without descending, and one `LIMIT_EXCEEDED` error
///   (`what: "max_nodes"`) is reported to the agent.
///
/// A virtualised `List` instantiates only the rows in view, so a 100,000-row list spends a
/// few dozen nodes of the budget per frame, not 100,000.
///
/// # Fixed caps
///
/// Every cap a host may want to tune is a field of [`Limits`]. A few more bound single
/// values inside one component or one expression; they are fixed, documented here so the
/// whole list lives in one place (each is enforced where the value is read):
///
/// | cap | value | bounds |
/// |---|---|---|
/// | `data_model::MAX_ARRAY_INDEX` | 10,000 | an array index a data-model write may create |
/// | `data_model::MAX_POINTER_SEGMENTS` | 256 | segments of one JSON pointer |
/// | `eval::expression::MAX_TEMPLATE_CHARS` | 10,000 | characters of one `formatString` template |
/// | `eval::expression::MAX_PARTS` | 1,000 | parts of one `formatString` template |
/// | `formatNumber` `MAX_DECIMALS` | 100 | decimals asked of `formatNumber` |
/// | `images::MAX_DATA_URI_LEN` | 16 MiB | one `data:` image URI |
/// | `images::MAX_SVG_ELEMENTS` / `MAX_SVG_DEPTH` | 200,000 / 256 | elements (`<use>` expanded) and nesting of one SVG image |
/// | `Icon` `MAX_SVG_PATH` | 32 KiB | one custom icon path |
/// | `ChoicePicker` `MAX_OPTIONS` / `MAX_CHIPS` | 10,000 / 200 | options listed / drawn as chips |
/// | `Slider` `MAX_STEPS` | 10^9 | steps of one slider |
/// | Markdown `MAX_BLOCKS` / `MAX_INDENT` | 500 / 8 | blocks and list nesting of one text |
/// | model text `MAX_GLOBAL_DEPTH` / `MAX_FUNC_CALL_DEPTH` | 50 / 5 | nesting checked in an `<a2ui-json>` block |
#[derive(Clone, Debug, PartialEq)]
pub struct Limits {
    /// Bytes in one JSON message: one JSONL line, one element of a JSON array document, one
    /// element of `{"messages": [...]}`, or a whole single-message document. 4 MiB is far
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
    /// Component instances resolved for one surface: per frame in the renderer, per dump
    /// in the conformance dump (template instances each count). Past it nodes become
    /// placeholders and one `LIMIT_EXCEEDED` is reported. See [how the tree guards fit
    /// together](Limits#how-the-tree-guards-fit-together) for how it relates to the depth
    /// and cycle guards. The default, 5,000, is above any surface that stays interactive
    /// when drawn whole (the frame bench's largest has 3,000 components); a host drawing
    /// larger static surfaces raises it.
    pub max_nodes: usize,
    /// Template instances laid out per frame (lists beyond are virtualised or cut).
    pub max_template_instances: usize,
    /// Size of one surface's whole data model, in bytes of memory (estimated, kept up to
    /// date at every write: every value is charged at least a `serde_json::Value` slot, see
    /// [`DataModel::byte_size`](crate::model::DataModel::byte_size)). A write that would grow the
    /// model past it is rejected with `LIMIT_EXCEEDED` and the model stays as it was. The
    /// default, 128 MiB, holds an array of a million numbers (about 80 MB in memory).
    pub max_data_model_bytes: usize,
    /// Characters of one string drawn; longer strings are cut with an ellipsis.
    pub max_string_chars: usize,
    /// Nesting of function calls inside bound values.
    pub max_call_depth: usize,
    /// Nesting of `${...}` inside formatString (the reference parser uses 10).
    pub max_expression_depth: usize,
    /// Compiled size of one `regex` pattern, in bytes.
    pub max_regex_bytes: usize,
    /// Nesting depth of arrays and objects in one message (`{}` is depth 1, `{"a":[1]}`
    /// depth 2). Measured on the bytes before parsing, so a deeper message is rejected with
    /// `LIMIT_EXCEEDED` and never reaches the parser. The default, 100, sits below
    /// serde_json's own recursion limit (128), so ours is the one that applies; a value
    /// above 127 lets serde_json's limit apply instead (the message is then malformed JSON).
    pub max_json_depth: usize,
    /// Bytes of decoded `data:` images kept in the image cache of an egui context (least
    /// recently drawn images are dropped first; an image of a deleted surface is dropped
    /// at once).
    pub max_image_cache_bytes: usize,
    /// Bytes of one `<a2ui-json>` block in model text (`stream::model_text`); the rest of
    /// a longer block is skipped with an error. Same order as `max_message_bytes`: a block
    /// usually holds a few messages.
    pub max_model_block_bytes: usize,
    /// v1.0 calls to agent functions (`callAgentFunction`) remembered per store drawn:
    /// each distinct `(surface, function, arguments)` a binding needs is one. Past it a new
    /// call fails at once (`LIMIT_EXCEEDED`, the binding resolves to `null`) instead of
    /// growing the table; deleting the surface frees its calls.
    pub max_agent_calls: usize,
    /// Bytes of one A2UI payload in an MCP tool result (the default of
    /// [`SplitPolicy::max_payload_bytes`](crate::mcp::SplitPolicy::max_payload_bytes));
    /// a larger payload is dropped, the rest of the result still applies.
    pub max_mcp_payload_bytes: usize,
    /// Distinct `callMcpTool` calls one [`McpCatalog`](crate::mcp::McpCatalog) makes (each
    /// `(surface, tool, arguments)` is one). Past it a new call fails at once with
    /// `LIMIT_EXCEEDED`: a tool whose result feeds its own arguments cannot loop.
    pub max_mcp_tool_calls: usize,
    /// Bytes of one `jmespath` expression (MCP catalog).
    pub max_jmespath_expression_bytes: usize,
    /// The product of the widths of the multi-selects of one `jmespath` expression: an
    /// upper bound on how many copies of its input it can build (`[@, @]` chained forty
    /// times describes 2^40 values).
    pub max_jmespath_fanout: usize,
    /// JSON nodes of one value a data function returns (`jmespath`, `split`,
    /// `regexCapture`); a larger result is a `LIMIT_EXCEEDED` error, checked before it is
    /// built.
    pub max_function_output_nodes: usize,
    /// Bytes of the strings one `regexCapture` / `regexReplace` / `split` call reads, and
    /// of the text `regexReplace` may build.
    pub max_regex_input_bytes: usize,
    /// Bytes of all A2UI payloads of one MCP tool result together (the default of
    /// [`SplitPolicy::max_result_bytes`](crate::mcp::SplitPolicy::max_result_bytes));
    /// payloads past it are dropped.
    pub max_mcp_result_bytes: usize,
    /// Failures and messages owed to the agent that one store keeps until the host drains
    /// them ([`SurfaceStore::errors`](crate::model::SurfaceStore::errors),
    /// [`SurfaceStore::take_outgoing`](crate::model::SurfaceStore::take_outgoing)): past it the
    /// oldest are dropped, so a host that never drains a hostile stream's errors does not
    /// grow without bound.
    pub max_pending_messages: usize,
    /// Columns of one extended-catalog `Table`; more are cut (`LIMIT_EXCEEDED`, reported
    /// once).
    pub max_table_columns: usize,
    /// Series of one extended-catalog `Chart`; more are cut (`LIMIT_EXCEEDED`).
    pub max_chart_series: usize,
    /// Points read from one `Chart` series (drawn decimated to a few thousand); more are
    /// cut (`LIMIT_EXCEEDED`).
    pub max_chart_points: usize,
    /// Stars of one `Rating` (a larger `max` is clamped).
    pub max_rating_stars: usize,
    /// Bytes of one `Video` / `AudioPlayer` source (feature `media`): a `data:` URI's
    /// decoded bytes, what a host loader returns (a longer or never-ending stream stops
    /// here with an error), a fetched file. Media is loaded whole before it plays; 128 MiB
    /// holds two hours of 128 kbit/s audio.
    pub max_media_bytes: usize,
    /// Width and height, in pixels, of a video track (feature `media`): a file declaring
    /// a larger frame is refused before anything is decoded.
    pub max_media_dimension: u32,
    /// Size of the data models of all surfaces of one store together, in the bytes
    /// [`max_data_model_bytes`](Self::max_data_model_bytes) counts: a write (or an initial
    /// model) that would grow the total past it is rejected with `LIMIT_EXCEEDED`
    /// (`what: "max_total_data_model_bytes"`), so many surfaces each under their own cap
    /// cannot add up to gigabytes.
    pub max_total_data_model_bytes: usize,
    /// Function calls evaluated while drawing one surface in one frame (nested calls and
    /// checks each count). Past it a property resolves to its unresolved state (`null`,
    /// drawn as a placeholder) for the rest of the frame, and one `LIMIT_EXCEEDED`
    /// (`what: "max_calls_per_frame"`) is reported to the agent.
    pub max_calls_per_frame: usize,
    /// Bytes of data-model values copied into function arguments while drawing one surface
    /// in one frame (a `{"path"}` argument is a copy of what it names). Past it calls fail
    /// as with [`max_calls_per_frame`](Self::max_calls_per_frame) (`what:
    /// "max_call_bytes_per_frame"`): 5,000 calls each reading a 3 MB string cannot copy
    /// 15 GB a frame.
    pub max_call_bytes_per_frame: usize,
    /// Bytes of one URL handed to the host to open ([`Event::OpenUrl`](crate::action::Event)); a
    /// longer one is refused with `LIMIT_EXCEEDED` (`what: "max_open_url_bytes"`).
    pub max_open_url_bytes: usize,
    /// Operations in one AG-UI `ACTIVITY_DELTA` JSON Patch (feature `agui`); a longer patch
    /// is refused whole and the activity stays as it was. The activity's content is also
    /// held to [`Self::max_message_bytes`] (as serialized) and [`Self::max_json_depth`]
    /// after every operation, so `copy` and `move` cannot grow it past what one snapshot
    /// may hold.
    pub max_patch_ops: usize,
    /// AG-UI activities (surface groups) one session keeps (feature `agui`); past it the
    /// oldest is dropped with its surfaces.
    pub max_activities: usize,
    /// Bytes of the content of all AG-UI activities one session keeps, as serialized
    /// (feature `agui`); past it the oldest activities are dropped with their surfaces
    /// (the one just updated stays: it alone is held to [`Self::max_message_bytes`]).
    pub max_activity_bytes: usize,
    /// Entries of a transport session's transcript (and of the AG-UI thread messages sent
    /// back on each run); past it the oldest are dropped.
    pub max_transcript_entries: usize,
    /// Bytes of text of a transport session's transcript (and of the AG-UI thread
    /// messages), all entries together; past it the oldest entries are dropped, and one
    /// streamed text message stops growing at this size.
    pub max_transcript_bytes: usize,
    /// Events kept in a `transport::host::HttpHost`'s log (and JSON
    /// values kept by `record_responses`); past it the oldest are dropped.
    pub max_host_log_entries: usize,
    /// Bytes of the events kept in a `transport::host::HttpHost`'s
    /// log (request bodies as serialized, text, messages), all together; past it the
    /// oldest are dropped.
    pub max_host_log_bytes: usize,
    /// Width and height, in pixels, of one raster image (`Image`, posters, the surface
    /// header's icon, nested `data:` images inside an SVG): a PNG or JPEG declaring a
    /// larger side is refused before it is decoded (`LIMIT_EXCEEDED`, reported once).
    /// Pictures are also drawn no larger than the GPU's `max_texture_side`: a larger raster
    /// image is downscaled, an SVG is rasterised to fit, on both axes.
    pub max_image_dimension: u32,
    /// Bytes of one encoded image (a `data:` image once decoded, a fetched file) and of
    /// an svgz once inflated; with the `http` feature also the most one image fetch
    /// reads (`LIMIT_EXCEEDED`).
    pub max_image_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_message_bytes: 4 * 1024 * 1024,
            max_line_bytes: 8 * 1024 * 1024,
            max_surfaces: 256,
            max_components: 10_000,
            max_tree_depth: 200,
            max_nodes: 5_000,
            max_template_instances: 100_000,
            max_data_model_bytes: 128 * 1024 * 1024,
            max_string_chars: 100_000,
            max_call_depth: 16,
            max_expression_depth: 10,
            max_regex_bytes: 256 * 1024,
            max_json_depth: 100,
            max_image_cache_bytes: 64 * 1024 * 1024,
            max_model_block_bytes: 8 * 1024 * 1024,
            max_agent_calls: 4096,
            max_mcp_payload_bytes: 1024 * 1024,
            max_mcp_result_bytes: 4 * 1024 * 1024,
            max_mcp_tool_calls: 64,
            max_jmespath_expression_bytes: 4 * 1024,
            max_jmespath_fanout: 4096,
            max_function_output_nodes: 100_000,
            max_regex_input_bytes: 1024 * 1024,
            max_pending_messages: 4096,
            max_table_columns: 100,
            max_chart_series: 32,
            max_chart_points: 1_000_000,
            max_rating_stars: 10,
            max_media_bytes: 128 * 1024 * 1024,
            max_media_dimension: 8192,
            max_total_data_model_bytes: 256 * 1024 * 1024,
            max_calls_per_frame: 50_000,
            max_call_bytes_per_frame: 64 * 1024 * 1024,
            max_open_url_bytes: 32 * 1024,
            max_patch_ops: 256,
            max_activities: 64,
            max_activity_bytes: 32 * 1024 * 1024,
            max_transcript_entries: 1000,
            max_transcript_bytes: 4 * 1024 * 1024,
            max_host_log_entries: 1000,
            max_host_log_bytes: 16 * 1024 * 1024,
            max_image_dimension: 8192,
            max_image_bytes: 32 * 1024 * 1024,
        }
    }
}
