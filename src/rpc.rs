//! v1.0 renderer-side RPC: answering the agent's `callRendererFunction` with a
//! `rendererFunctionResponse` or an `INVALID_FUNCTION_CALL` error (always a reply, even for
//! void functions).

use serde_json::{Map, Value, json};

use crate::eval::{AllowedCallers, EvalContext};
use crate::limits::Limits;
use crate::protocol::Version;
use crate::render::catalog::Catalog;

/// The code of a refused or failed agent call.
pub const INVALID_FUNCTION_CALL: &str = "INVALID_FUNCTION_CALL";

fn error(function_call_id: &str, message: String) -> Value {
    json!({"version": "v1.0", "error": {
        "code": INVALID_FUNCTION_CALL,
        "functionCallId": function_call_id,
        "message": message,
    }})
}

/// Answer one `callRendererFunction`. The function must exist in a catalog this renderer
/// serves (the call's `catalogId`) and allow agent callers; its arguments may only be
/// literals (there is no surface scope to bind against).
pub fn answer_renderer_function(
    function_call_id: &str,
    call: &Value,
    catalog: &Catalog,
    limits: &Limits,
) -> Value {
    let Some(obj) = call.as_object() else {
        return error(function_call_id, "callFunction must be an object".into());
    };
    let name = obj.get("call").and_then(Value::as_str).unwrap_or_default();
    let catalog_id = obj
        .get("catalogId")
        .and_then(Value::as_str)
        .unwrap_or_default();
    if !catalog.catalog_ids().any(|c| c == catalog_id) {
        return error(
            function_call_id,
            format!("catalog {catalog_id:?} is not supported by this renderer"),
        );
    }
    let Some(f) = catalog.functions().get(name) else {
        return error(function_call_id, format!("unknown function {name:?}"));
    };
    if f.allowed_callers() == AllowedCallers::RendererOnly {
        return error(
            function_call_id,
            format!("{name} is rendererOnly and cannot be called by the agent"),
        );
    }
    let data = Value::Object(Map::new());
    let cx =
        EvalContext::new(&data, "/", Version::V1_0, catalog.functions(), limits).as_agent_caller();
    match cx.call(obj) {
        Ok(value) => json!({"version": "v1.0", "rendererFunctionResponse": {
            "functionCallId": function_call_id,
            "value": value,
        }}),
        Err(e) => error(function_call_id, e.to_string()),
    }
}
