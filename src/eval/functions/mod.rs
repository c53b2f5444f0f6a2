//! Client-side functions callable from bindings (`{"call": name, "args": {...}}`).
//!
//! A [`FunctionRegistry`] holds the functions of a catalog; a host adds its own by
//! implementing [`Function`].

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::{Map, Value};

use super::EvalContext;

/// A function callable from A2UI bindings.
pub trait Function: Send + Sync {
    /// The name agents call it by.
    fn name(&self) -> &str;

    /// Evaluate with arguments already resolved in the caller's scope. An `Err` is reported
    /// as an `EXPRESSION_ERROR` and the binding resolves to `null`.
    fn call(&self, args: &Map<String, Value>, cx: &EvalContext<'_>) -> Result<Value, String>;
}

/// A function from a closure, for hosts that register small helpers.
pub struct FnFunction<F> {
    name: String,
    f: F,
}

impl<F> FnFunction<F>
where
    F: Fn(&Map<String, Value>, &EvalContext<'_>) -> Result<Value, String> + Send + Sync,
{
    /// Wrap a closure as a function called `name`.
    pub fn new(name: impl Into<String>, f: F) -> Self {
        Self {
            name: name.into(),
            f,
        }
    }
}

impl<F> Function for FnFunction<F>
where
    F: Fn(&Map<String, Value>, &EvalContext<'_>) -> Result<Value, String> + Send + Sync,
{
    fn name(&self) -> &str {
        &self.name
    }

    fn call(&self, args: &Map<String, Value>, cx: &EvalContext<'_>) -> Result<Value, String> {
        (self.f)(args, cx)
    }
}

/// The functions of a catalog, by name.
#[derive(Clone, Default)]
pub struct FunctionRegistry {
    functions: HashMap<String, Arc<dyn Function>>,
}

impl std::fmt::Debug for FunctionRegistry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut names: Vec<_> = self.functions.keys().collect();
        names.sort();
        f.debug_struct("FunctionRegistry")
            .field("functions", &names)
            .finish()
    }
}

impl FunctionRegistry {
    /// No functions.
    pub fn empty() -> Self {
        Self::default()
    }

    /// The basic catalog's functions (and the web_core extras and `capitalize`).
    pub fn basic() -> Self {
        Self::empty()
    }

    /// Add (or replace) a function.
    pub fn register(&mut self, f: impl Function + 'static) -> &mut Self {
        self.functions.insert(f.name().to_owned(), Arc::new(f));
        self
    }

    /// A function by name.
    pub fn get(&self, name: &str) -> Option<&dyn Function> {
        self.functions.get(name).map(|f| f.as_ref())
    }

    /// Whether a function of that name is registered.
    pub fn contains(&self, name: &str) -> bool {
        self.functions.contains_key(name)
    }

    /// Registered names, sorted.
    pub fn names(&self) -> Vec<&str> {
        let mut v: Vec<&str> = self.functions.keys().map(String::as_str).collect();
        v.sort_unstable();
        v
    }
}
