//! The data functions of the official MCP catalog (`catalogs/mcp/v1/catalog.json`):
//! `jmespath`, `split`, `regexCapture` and `regexReplace`. They transform tool results
//! (`callMcpTool`, in [`crate::mcp::McpCatalog`]) into values a surface shows.
//!
//! Each is bounded by [`Limits`](crate::limits::Limits): a JMESPath expression by its length
//! (`max_jmespath_expression_bytes`), its bracket nesting and its fan-out (the product of
//! the widths of its multi-selects, `max_jmespath_fanout`: `[@, @]` chained forty times
//! would describe 2^40 values), and its result by a node budget (`max_function_output_nodes`);
//! a regular expression by its compiled size (`max_regex_bytes`) and its input
//! (`max_regex_input_bytes`). Past a limit the call fails with a `LIMIT_EXCEEDED`
//! diagnostic ([`A2uiError::LimitExceeded`]) and the binding resolves to `null`.
//!
//! `regexCapture` and `regexReplace` use the `regex` crate, whose syntax is RE2's and
//! whose matching is linear in the input, as the catalog asks (RE2).

use serde_json::{Map, Value};

use crate::error::A2uiError;
use crate::eval::EvalContext;

use super::Function;
use super::validation::compile_regex;

/// The MCP catalog's data functions: `jmespath`, `split`, `regexCapture`, `regexReplace`.
pub(crate) fn data_functions() -> [Simple; 4] {
    [
        Simple("jmespath", jmespath_fn),
        Simple("split", split_fn),
        Simple("regexCapture", regex_capture_fn),
        Simple("regexReplace", regex_replace_fn),
    ]
}

type Exec = fn(&Map<String, Value>, &EvalContext<'_>) -> Result<Value, String>;

/// A renderer-only function from a plain `fn` (the catalog declares no `allowedCallers`,
/// so the default, `rendererOnly`, holds).
pub(crate) struct Simple(&'static str, Exec);

impl Function for Simple {
    fn name(&self) -> &str {
        self.0
    }

    fn call(&self, args: &Map<String, Value>, cx: &EvalContext<'_>) -> Result<Value, String> {
        (self.1)(args, cx)
    }
}

/// Report a limit as a typed diagnostic and fail the call.
fn over(cx: &EvalContext<'_>, what: &'static str, limit: usize, actual: usize) -> String {
    let e = A2uiError::LimitExceeded {
        what,
        limit,
        actual,
    };
    let text = e.to_string();
    cx.diagnose(e);
    text
}

fn str_arg<'a>(args: &'a Map<String, Value>, name: &str) -> Result<&'a str, String> {
    match args.get(name) {
        Some(Value::String(s)) => Ok(s),
        Some(other) => Err(format!("argument `{name}` must be a string, not {other}")),
        None => Err(format!("argument `{name}` is required")),
    }
}

// ---------------------------------------------------------------------------------------
// jmespath

fn jmespath_fn(args: &Map<String, Value>, cx: &EvalContext<'_>) -> Result<Value, String> {
    let expression = str_arg(args, "expression")?;
    let data = args.get("data").cloned().unwrap_or(Value::Null);
    jmespath_eval(expression, &data, cx)
}

/// Evaluate a JMESPath expression within the context's limits.
pub(crate) fn jmespath_eval(
    expression: &str,
    data: &Value,
    cx: &EvalContext<'_>,
) -> Result<Value, String> {
    let limits = cx.limits;
    if expression.len() > limits.max_jmespath_expression_bytes {
        return Err(over(
            cx,
            "max_jmespath_expression_bytes",
            limits.max_jmespath_expression_bytes,
            expression.len(),
        ));
    }
    // The parser recurses once per nesting level; bound the nesting before parsing.
    let depth = nesting(expression);
    if depth > MAX_JMESPATH_NESTING {
        return Err(over(cx, "jmespath nesting", MAX_JMESPATH_NESTING, depth));
    }
    let compiled =
        jmespath::compile(expression).map_err(|e| format!("invalid JMESPath expression: {e}"))?;
    let fanout = fan_out(compiled.as_ast());
    if fanout > limits.max_jmespath_fanout {
        return Err(over(
            cx,
            "max_jmespath_fanout",
            limits.max_jmespath_fanout,
            fanout,
        ));
    }
    let result = compiled
        .search(data)
        .map_err(|e| format!("JMESPath evaluation failed: {e}"))?;
    let mut budget = limits.max_function_output_nodes;
    to_json(&result, &mut budget).ok_or_else(|| {
        over(
            cx,
            "max_function_output_nodes",
            limits.max_function_output_nodes,
            limits.max_function_output_nodes + 1,
        )
    })
}

/// Bracket nesting of an expression, ignoring quoted text.
const MAX_JMESPATH_NESTING: usize = 32;

fn nesting(expression: &str) -> usize {
    let (mut depth, mut max) = (0usize, 0usize);
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for c in expression.chars() {
        if let Some(q) = quote {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '"' | '\'' | '`' => quote = Some(c),
            '(' | '[' | '{' => {
                depth += 1;
                max = max.max(depth);
            }
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    max
}

/// An upper bound on how many copies of its input an expression can make: the product
/// of the widths of its multi-select lists and hashes.
fn fan_out(ast: &jmespath::ast::Ast) -> usize {
    use jmespath::ast::Ast;
    let mut product = 1usize;
    let mut stack: Vec<&Ast> = vec![ast];
    while let Some(node) = stack.pop() {
        match node {
            Ast::MultiList { elements, .. } => {
                product = product.saturating_mul(elements.len().max(1));
                stack.extend(elements.iter());
            }
            Ast::MultiHash { elements, .. } => {
                product = product.saturating_mul(elements.len().max(1));
                stack.extend(elements.iter().map(|kv| &kv.value));
            }
            Ast::Comparison { lhs, rhs, .. }
            | Ast::Projection { lhs, rhs, .. }
            | Ast::And { lhs, rhs, .. }
            | Ast::Or { lhs, rhs, .. }
            | Ast::Subexpr { lhs, rhs, .. } => {
                stack.push(lhs);
                stack.push(rhs);
            }
            Ast::Condition {
                predicate, then, ..
            } => {
                stack.push(predicate);
                stack.push(then);
            }
            Ast::Expref { ast, .. } => stack.push(ast),
            Ast::Flatten { node, .. } | Ast::Not { node, .. } | Ast::ObjectValues { node, .. } => {
                stack.push(node);
            }
            Ast::Function { args, .. } => stack.extend(args.iter()),
            Ast::Identity { .. }
            | Ast::Field { .. }
            | Ast::Index { .. }
            | Ast::Literal { .. }
            | Ast::Slice { .. } => {}
        }
    }
    product
}

/// A JMESPath value as JSON, spending one unit of `budget` per node (values shared by
/// reference inside the result count once per place they appear).
fn to_json(v: &jmespath::Variable, budget: &mut usize) -> Option<Value> {
    use jmespath::Variable as V;
    *budget = budget.checked_sub(1)?;
    Some(match v {
        V::Null | V::Expref(_) => Value::Null,
        V::Bool(b) => Value::Bool(*b),
        V::String(s) => Value::String(s.clone()),
        V::Number(n) => Value::Number(n.clone()),
        V::Array(items) => Value::Array(
            items
                .iter()
                .map(|x| to_json(x, budget))
                .collect::<Option<Vec<_>>>()?,
        ),
        V::Object(m) => Value::Object(
            m.iter()
                .map(|(k, x)| Some((k.clone(), to_json(x, budget)?)))
                .collect::<Option<Map<_, _>>>()?,
        ),
    })
}

// ---------------------------------------------------------------------------------------
// split, regexCapture, regexReplace

/// The strings of a `value` argument: one string, or an array of strings; their total
/// size bounded by `max_regex_input_bytes`.
fn strings<'a>(
    args: &'a Map<String, Value>,
    cx: &EvalContext<'_>,
) -> Result<(Vec<&'a str>, bool), String> {
    let (list, many) = match args.get("value") {
        Some(Value::String(s)) => (vec![s.as_str()], false),
        Some(Value::Array(a)) => (
            a.iter()
                .map(|x| {
                    x.as_str()
                        .ok_or_else(|| format!("`value` must hold strings, not {x}"))
                })
                .collect::<Result<Vec<_>, _>>()?,
            true,
        ),
        Some(Value::Null) | None => (Vec::new(), false),
        Some(other) => {
            return Err(format!(
                "`value` must be a string or an array of strings, not {other}"
            ));
        }
    };
    let total: usize = list.iter().map(|s| s.len()).sum();
    let max = cx.limits.max_regex_input_bytes;
    if total > max {
        return Err(over(cx, "max_regex_input_bytes", max, total));
    }
    Ok((list, many))
}

fn per_value(
    args: &Map<String, Value>,
    cx: &EvalContext<'_>,
    mut f: impl FnMut(&str) -> Result<Value, String>,
) -> Result<Value, String> {
    let (list, many) = strings(args, cx)?;
    if !many {
        return match list.first() {
            Some(s) => f(s),
            None => Ok(Value::Null),
        };
    }
    list.into_iter()
        .map(f)
        .collect::<Result<Vec<_>, _>>()
        .map(Value::Array)
}

/// Count `nodes` more output values against `max_function_output_nodes`; `Err` (a typed
/// `LIMIT_EXCEEDED`) before anything past the bound is built.
fn charge_nodes(cx: &EvalContext<'_>, total: &mut usize, nodes: usize) -> Result<(), String> {
    *total = total.saturating_add(nodes);
    let max = cx.limits.max_function_output_nodes;
    if *total > max {
        return Err(over(cx, "max_function_output_nodes", max, *total));
    }
    Ok(())
}

fn split_fn(args: &Map<String, Value>, cx: &EvalContext<'_>) -> Result<Value, String> {
    let sep = str_arg(args, "separator")?.to_owned();
    let mut nodes = 0usize;
    per_value(args, cx, |s| {
        // Bounded before it is built: one value per part (per character for `""`).
        let parts = if sep.is_empty() {
            s.chars().count()
        } else {
            s.matches(sep.as_str()).count() + 1
        };
        charge_nodes(cx, &mut nodes, parts + 1)?;
        let parts: Vec<Value> = if sep.is_empty() {
            s.chars().map(|c| Value::String(c.to_string())).collect()
        } else {
            s.split(sep.as_str())
                .map(|p| Value::String(p.to_owned()))
                .collect()
        };
        Ok(Value::Array(parts))
    })
}

fn regex_capture_fn(args: &Map<String, Value>, cx: &EvalContext<'_>) -> Result<Value, String> {
    let re = compile_regex(str_arg(args, "pattern")?, cx.limits.max_regex_bytes)?;
    let mut nodes = 0usize;
    per_value(args, cx, |s| {
        // One value per capture group, counted before the captures are copied.
        charge_nodes(cx, &mut nodes, re.captures_len())?;
        Ok(match re.captures(s) {
            None => Value::Null,
            Some(caps) => Value::Array(
                caps.iter()
                    .skip(1)
                    .map(|m| Value::String(m.map_or("", |m| m.as_str()).to_owned()))
                    .collect(),
            ),
        })
    })
}

fn regex_replace_fn(args: &Map<String, Value>, cx: &EvalContext<'_>) -> Result<Value, String> {
    let re = compile_regex(str_arg(args, "pattern")?, cx.limits.max_regex_bytes)?;
    let replacement = str_arg(args, "replacement")?;
    let max = cx.limits.max_regex_input_bytes;
    per_value(args, cx, |s| {
        // Bound the output before building it: at most one replacement per position.
        let worst = s
            .len()
            .saturating_add(replacement.len().saturating_mul(s.len() + 1));
        if worst > max && re.find_iter(s).count().saturating_mul(replacement.len()) + s.len() > max
        {
            return Err(over(cx, "max_regex_input_bytes", max, worst));
        }
        Ok(Value::String(
            re.replace_all(s, regex::NoExpand(replacement)).into_owned(),
        ))
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::eval::FunctionRegistry;
    use crate::limits::Limits;
    use crate::protocol::Version;

    fn args(v: Value) -> Map<String, Value> {
        match v {
            Value::Object(m) => m,
            _ => Map::new(),
        }
    }

    #[test]
    fn split_output_is_bounded_before_it_is_built() {
        let limits = Limits {
            max_function_output_nodes: 1_000,
            ..Limits::default()
        };
        let (data, functions) = (json!({}), FunctionRegistry::empty());
        let cx = EvalContext::new(&data, "/", Version::V0_9, &functions, &limits);
        // `split ""` makes a value per character: 5,000 characters are past the bound.
        let long = "x".repeat(5_000);
        let e = split_fn(&args(json!({"value": long, "separator": ""})), &cx)
            .expect_err("past max_function_output_nodes");
        assert!(e.contains("max_function_output_nodes"), "{e}");
        assert!(
            cx.take_diagnostics()
                .iter()
                .any(|d| d.code() == "LIMIT_EXCEEDED")
        );
        // Across the values of an array too.
        let many = vec![json!("a,b,c,d,e,f,g,h,i,j"); 200];
        assert!(split_fn(&args(json!({"value": many, "separator": ","})), &cx).is_err());
        // Within the bound it still splits.
        assert_eq!(
            split_fn(&args(json!({"value": "a,b", "separator": ","})), &cx),
            Ok(json!(["a", "b"]))
        );
    }

    #[test]
    fn regex_capture_output_is_bounded() {
        let limits = Limits {
            max_function_output_nodes: 100,
            ..Limits::default()
        };
        let (data, functions) = (json!({}), FunctionRegistry::empty());
        let cx = EvalContext::new(&data, "/", Version::V0_9, &functions, &limits);
        let values = vec![json!("ab"); 60];
        let e = regex_capture_fn(&args(json!({"value": values, "pattern": "(a)(b)"})), &cx)
            .expect_err("60 values x 3 nodes is past 100");
        assert!(e.contains("max_function_output_nodes"), "{e}");
        assert_eq!(
            regex_capture_fn(&args(json!({"value": "ab", "pattern": "(a)(b)"})), &cx),
            Ok(json!(["a", "b"]))
        );
    }
}
