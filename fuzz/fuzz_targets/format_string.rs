//! Arbitrary formatString templates against a small data model.
#![no_main]

use egui_a2ui::eval::{EvalContext, FunctionRegistry};
use egui_a2ui::{Limits, Version};
use libfuzzer_sys::fuzz_target;
use serde_json::json;

fuzz_target!(|data: &[u8]| {
    let Ok(template) = std::str::from_utf8(data) else {
        return;
    };
    let model = json!({"a": 1, "b": "x", "l": [1, 2, {"c": null}], "d": "2026-01-31T10:00:00Z"});
    let functions = FunctionRegistry::basic();
    let limits = Limits::default();
    for version in [Version::V0_9, Version::V1_0] {
        let cx = EvalContext::new(&model, "/l/2", version, &functions, &limits);
        let _ = cx.resolve(&json!({"call": "formatString", "args": {"value": template}}));
    }
});
