//! A2UI inside a model's streamed text: the official streaming-parser suites, recorded
//! answers in many chunkings, and the renderer fed token by token.
//!
//! One test crate per layer (one binary to build and link); each module was its own crate
//! before. The shared harness is `tests/common`.

#[path = "../common/mod.rs"]
mod common;

mod agent_errors;
mod direct_json_suites;
mod express_sdk;
mod express_suites;
mod model_stream;
mod model_stream_differential;
mod prompt_suites;
mod streaming_parser;
