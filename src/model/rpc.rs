//! v1.0 renderer-side RPC: answering the agent's `callRendererFunction` with a
//! `rendererFunctionResponse`, carrying the function's `value` or an `error` (always a
//! reply, even for void functions), as `conformance/core/rpc_functions.yaml` pins:
//! `INVALID_FUNCTION_CALL` when the call is refused (unknown catalog or function, a
//! `rendererOnly` function, a function that `requiresUserActivation`), `EXECUTION_ERROR`
//! when the function itself fails.

use serde_json::{Value, json};

use super::Catalogs;
use crate::eval::{AllowedCallers, EvalContext};
use crate::limits::Limits;
use crate::protocol::Version;

use crate::error::codes::{EXECUTION_ERROR, INVALID_FUNCTION_CALL};

fn error(function_call_id: &str, code: &str, message: String) -> Value {
    json!({"version": "v1.0", "rendererFunctionResponse": {
        "functionCallId": function_call_id,
        "error": {"code": code, "message": message},
    }})
}

/// Answer one `callRendererFunction` from the agent. The function must exist in a catalog
/// this renderer serves (the call's `catalogId`), allow agent callers, and not require a
/// user gesture (an agent's call never carries one, so `openUrl` is refused); its
/// arguments may only be literals (there is no surface scope to bind against).
pub fn answer_renderer_function(
    function_call_id: &str,
    call: &Value,
    catalogs: &Catalogs,
    limits: &Limits,
) -> Value {
    answer_renderer_function_with(function_call_id, call, catalogs, limits, false)
}

/// [`answer_renderer_function`] for a host that runs the call inside a user gesture of
/// its own (`user_activated`), so a function that `requiresUserActivation` may run.
pub fn answer_renderer_function_with(
    function_call_id: &str,
    call: &Value,
    catalogs: &Catalogs,
    limits: &Limits,
    user_activated: bool,
) -> Value {
    let Some(obj) = call.as_object() else {
        return error(
            function_call_id,
            INVALID_FUNCTION_CALL,
            "callFunction must be an object".into(),
        );
    };
    let name = obj.get("call").and_then(Value::as_str).unwrap_or_default();
    let catalog_id = obj
        .get("catalogId")
        .and_then(Value::as_str)
        .unwrap_or_default();
    if catalogs.get(catalog_id).is_none() {
        return error(
            function_call_id,
            INVALID_FUNCTION_CALL,
            format!("Catalog not found: {catalog_id}"),
        );
    }
    let Some(f) = catalogs.functions().get(name) else {
        return error(
            function_call_id,
            INVALID_FUNCTION_CALL,
            format!("Function not found: {name}"),
        );
    };
    if f.allowed_callers() == AllowedCallers::RendererOnly {
        return error(
            function_call_id,
            INVALID_FUNCTION_CALL,
            format!(
                "Function '{name}' cannot be called by agent (allowedCallers is rendererOnly)."
            ),
        );
    }
    if f.requires_user_activation() && !user_activated {
        return error(
            function_call_id,
            INVALID_FUNCTION_CALL,
            format!("Function '{name}' requires user activation context to execute."),
        );
    }
    let data = Value::Object(serde_json::Map::new());
    let cx =
        EvalContext::new(&data, "/", Version::V1_0, catalogs.functions(), limits).as_agent_caller();
    match cx.call(obj) {
        Ok(value) => json!({"version": "v1.0", "rendererFunctionResponse": {
            "functionCallId": function_call_id,
            "value": value,
        }}),
        Err(crate::error::A2uiError::Expression { message, .. }) => {
            error(function_call_id, EXECUTION_ERROR, message)
        }
        Err(e) => error(function_call_id, EXECUTION_ERROR, e.to_string()),
    }
}
