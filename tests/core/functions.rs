//! Behaviour of the function layer that the differential test does not cover: host
//! functions, the functions the reference lacks, checks, limits, and bad input.

use egui_a2ui::Limits;
use egui_a2ui::Version;
use egui_a2ui::eval::{EvalContext, FnFunction, FunctionRegistry};
use serde_json::{Value, json};

fn eval_in(data: &Value, scope: &str, version: Version, v: &Value) -> (Value, usize) {
    let registry = FunctionRegistry::basic();
    let limits = Limits::default();
    let cx = EvalContext::new(data, scope, version, &registry, &limits);
    let out = cx.resolve(v);
    (out, cx.take_diagnostics().len())
}

fn eval(v: Value) -> Value {
    eval_in(&json!({}), "/", Version::V0_9, &v).0
}

#[test]
fn basic_registry_has_every_catalog_function() {
    let r = FunctionRegistry::basic();
    for name in [
        "required",
        "regex",
        "length",
        "numeric",
        "email",
        "formatString",
        "formatNumber",
        "formatCurrency",
        "formatDate",
        "pluralize",
        "openUrl",
        "and",
        "or",
        "not",
        "capitalize",
        "add",
        "subtract",
        "multiply",
        "divide",
        "equals",
        "not_equals",
        "greater_than",
        "less_than",
        "contains",
        "starts_with",
        "ends_with",
        "@index",
    ] {
        assert!(r.contains(name), "missing {name}");
    }
    assert_eq!(r.names().len(), 27);
}

#[test]
fn host_function_receives_arguments_resolved_in_the_callers_scope() {
    let mut r = FunctionRegistry::basic();
    r.register(FnFunction::new("shout", |args, _cx| {
        let s = args.get("text").and_then(Value::as_str).unwrap_or_default();
        Ok(json!(s.to_uppercase()))
    }));
    let data = json!({"items": [{"name": "ada"}, {"name": "bob"}]});
    let limits = Limits::default();
    let cx = EvalContext::new(&data, "/items/1", Version::V0_9, &r, &limits);
    assert_eq!(
        cx.resolve(&json!({"call": "shout", "args": {"text": {"path": "name"}}})),
        json!("BOB")
    );
    // Host functions are callable from formatString too.
    assert_eq!(
        cx.resolve(&json!({"call": "formatString", "args": {"value": "<${shout(text: name)}>"}})),
        json!("<BOB>")
    );
}

#[test]
fn unknown_function_is_null_with_a_diagnostic() {
    let (v, diags) = eval_in(
        &json!({}),
        "/",
        Version::V0_9,
        &json!({"call": "nope", "args": {}}),
    );
    assert_eq!(v, Value::Null);
    assert_eq!(diags, 1);
}

#[test]
fn literal_of_the_wrong_type_fails_but_the_same_value_through_a_binding_is_coerced() {
    assert_eq!(
        eval(json!({"call": "formatNumber", "args": {"value": "12.5"}})),
        Value::Null
    );
    let (v, _) = eval_in(
        &json!({"n": "12.5"}),
        "/",
        Version::V0_9,
        &json!({"call": "formatNumber", "args": {"value": {"path": "/n"}}}),
    );
    assert_eq!(v, json!("12.5"));
}

#[test]
fn interpolation_happens_only_inside_format_string() {
    let data = json!({"x": "X"});
    assert_eq!(
        eval_in(&data, "/", Version::V0_9, &json!("${/x}")).0,
        json!("${/x}")
    );
    assert_eq!(
        eval_in(
            &data,
            "/",
            Version::V0_9,
            &json!({"call": "formatString", "args": {"value": "${/x}"}})
        )
        .0,
        json!("X")
    );
}

#[test]
fn capitalize_upper_cases_only_the_first_letter() {
    assert_eq!(
        eval(json!({"call": "capitalize", "args": {"value": "hello World"}})),
        json!("Hello World")
    );
    assert_eq!(
        eval(json!({"call": "capitalize", "args": {"value": "ßa"}})),
        json!("SSa")
    );
    assert_eq!(
        eval(json!({"call": "capitalize", "args": {"value": ""}})),
        json!("")
    );
}

#[test]
fn arithmetic_extras_compute_and_give_null_for_nan_or_infinity() {
    let call =
        |name: &str, a: Value, b: Value| eval(json!({"call": name, "args": {"a": a, "b": b}}));
    assert_eq!(call("add", json!(1), json!(2)), json!(3));
    assert_eq!(call("subtract", json!(1), json!(2.5)), json!(-1.5));
    assert_eq!(call("multiply", json!(3), json!("4")), json!(12));
    assert_eq!(call("divide", json!(1), json!(4)), json!(0.25));
    assert_eq!(call("divide", json!(1), json!(0)), Value::Null);
    assert_eq!(call("add", Value::Null, json!(1)), Value::Null);
    // An integral result is an integer, so it interpolates as "3", not "3.0".
    assert_eq!(
        eval(json!({"call": "formatString", "args": {"value": "${add(a: 1, b: 2)}"}})),
        json!("3")
    );
}

#[test]
fn comparison_and_string_extras() {
    let call = |name: &str, args: Value| eval(json!({"call": name, "args": args}));
    assert_eq!(call("equals", json!({"a": 1, "b": 1.0})), json!(true));
    assert_eq!(
        call("equals", json!({"a": [1, {"k": 2}], "b": [1.0, {"k": 2}]})),
        json!(true)
    );
    assert_eq!(
        call("not_equals", json!({"a": "a", "b": "a"})),
        json!(false)
    );
    assert_eq!(call("greater_than", json!({"a": 2, "b": 1})), json!(true));
    assert_eq!(call("less_than", json!({"a": 2, "b": 1})), json!(false));
    assert_eq!(call("less_than", json!({"a": null, "b": 1})), json!(false));
    assert_eq!(
        call("contains", json!({"string": "haystack", "substring": "st"})),
        json!(true)
    );
    assert_eq!(
        call(
            "starts_with",
            json!({"string": "haystack", "prefix": "hay"})
        ),
        json!(true)
    );
    assert_eq!(
        call("ends_with", json!({"string": "haystack", "suffix": "hay"})),
        json!(false)
    );
}

#[test]
fn index_is_the_template_position_plus_offset_in_v1() {
    let data = json!({"items": [1, 2, 3]});
    let at = |scope: &str, version, args: Value| {
        eval_in(
            &data,
            scope,
            version,
            &json!({"call": "@index", "args": args}),
        )
        .0
    };
    assert_eq!(at("/items/2", Version::V1_0, json!({})), json!(2));
    assert_eq!(
        at("/items/2", Version::V1_0, json!({"offset": 1})),
        json!(3)
    );
    assert_eq!(at("/", Version::V1_0, json!({})), Value::Null);
    assert_eq!(at("/items/2", Version::V0_9, json!({})), Value::Null);
}

#[test]
fn regex_beyond_the_size_limit_is_an_error_not_a_hang() {
    let registry = FunctionRegistry::basic();
    let limits = Limits {
        max_regex_bytes: 10_000,
        ..Limits::default()
    };
    let data = json!({});
    let cx = EvalContext::new(&data, "/", Version::V0_9, &registry, &limits);
    let big = json!({"call": "regex", "args": {"value": "a", "pattern": "(a{100}){100}"}});
    assert_eq!(cx.resolve(&big), Value::Null);
    assert_eq!(cx.take_diagnostics().len(), 1);
    // The same pattern under the default limit compiles, and repeated calls agree (cache).
    let default_limits = Limits::default();
    let cx = EvalContext::new(&data, "/", Version::V0_9, &registry, &default_limits);
    let small = json!({"call": "regex", "args": {"value": "xaay", "pattern": "a{2}"}});
    assert_eq!(cx.resolve(&small), json!(true));
    assert_eq!(cx.resolve(&small), json!(true));
}

#[test]
fn locale_setting_changes_separators_symbols_and_plural_rules() {
    let registry = FunctionRegistry::basic();
    let limits = Limits::default();
    let data = json!({});
    let cx = EvalContext::new(&data, "/", Version::V0_9, &registry, &limits).with_locale("de-DE");
    assert_eq!(
        cx.resolve(&json!({"call": "formatNumber", "args": {"value": 1234.5, "decimals": 2}})),
        json!("1.234,50")
    );
    assert_eq!(
        cx.resolve(
            &json!({"call": "formatCurrency", "args": {"value": 1234.5, "currency": "EUR"}})
        ),
        json!("1.234,50\u{a0}€")
    );
    let cx = EvalContext::new(&data, "/", Version::V0_9, &registry, &limits).with_locale("pl-PL");
    let plural = |n: i64| {
        cx.resolve(&json!({"call": "pluralize", "args": {"value": n, "one": "plik", "few": "pliki", "many": "plików", "other": "pliku"}}))
    };
    assert_eq!(plural(1), json!("plik"));
    assert_eq!(plural(3), json!("pliki"));
    assert_eq!(plural(5), json!("plików"));
    assert_eq!(plural(22), json!("pliki"));
}

#[test]
fn huge_decimals_are_clamped() {
    let out = eval(json!({"call": "formatNumber", "args": {"value": 1.5, "decimals": 1e9}}));
    let s = out.as_str().expect("a string");
    assert_eq!(s.len(), "1.".len() + 100);
}

#[test]
fn deeply_nested_calls_stop_at_the_call_depth_limit() {
    let mut v = json!(true);
    for _ in 0..200 {
        v = json!({"call": "not", "args": {"value": v}});
    }
    let (out, diags) = eval_in(&json!({}), "/", Version::V0_9, &v);
    // The call past the limit fails and reads as null (→ `not` gives true), so the outer
    // calls still answer; the failure is reported once.
    assert!(out.is_boolean());
    assert_eq!(diags, 1);
}

#[test]
fn deeply_nested_interpolation_is_an_error() {
    let t = format!("{}/x{}", "${".repeat(5000), "}".repeat(5000));
    assert_eq!(
        eval(json!({"call": "formatString", "args": {"value": t}})),
        Value::Null
    );
}

/// Every function with every awkward value in every argument slot: no panic, and every
/// result is a plain JSON value.
#[test]
fn bad_input_never_panics() {
    let weird = [
        Value::Null,
        json!(true),
        json!(0),
        json!(-0.0),
        json!(1e308),
        json!(-1e308),
        json!(5e-324),
        json!(u64::MAX),
        json!(i64::MIN),
        json!(""),
        json!("${"),
        json!("${/a}${${${"),
        json!("\\${x}"),
        json!("NaN"),
        json!("-inf"),
        json!("2026-02-29T25:61:61+99:99"),
        json!("9999-12-31T23:59:59-23:59"),
        json!("0001-01-01T00:00:00+23:59"),
        json!("W"),
        json!("2026-W53-7"),
        json!("2026W"),
        json!("(((((((((("),
        json!("🙂".repeat(100)),
        json!([]),
        json!([true]),
        json!([1, 2, 3]),
        json!({}),
        json!({"valid": "no"}),
        json!({"path": "/a"}),
        json!({"path": 5}),
        json!({"call": "formatString", "args": {"value": "${/a}"}}),
        json!({"call": 1}),
        json!({"call": "nope", "args": "x"}),
    ];
    let names = [
        "value",
        "decimals",
        "grouping",
        "currency",
        "format",
        "pattern",
        "min",
        "max",
        "values",
        "url",
        "offset",
        "other",
        "one",
        "zero",
        "a",
        "b",
        "string",
        "substring",
    ];
    let registry = FunctionRegistry::basic();
    let limits = Limits::default();
    let data = json!({"a": [1, {"b": "c"}], "s": "text"});
    let mut calls = 0;
    for version in [Version::V0_9, Version::V1_0] {
        for scope in ["/", "/a/1", "/a/99999999999999999999"] {
            let cx =
                EvalContext::new(&data, scope, version, &registry, &limits).with_locale("fr-FR");
            for f in registry.names() {
                for (i, w) in weird.iter().enumerate() {
                    let other = &weird[(i * 7 + 3) % weird.len()];
                    for n in names {
                        let args = json!({n: w, "value": other});
                        let out = cx.resolve(&json!({"call": f, "args": args}));
                        assert!(serde_json::to_string(&out).is_ok());
                        calls += 1;
                    }
                }
            }
        }
    }
    assert!(calls > 10_000);
}
