//! System prompts made from a catalog, for a model the host runs itself: the model is told
//! the components and functions it may use, how to write A2UI, and a few examples, in
//! either output format the model-text path reads.
//!
//! - **A2UI Express** ([`PromptFormat::Express`]): the grammar of `<a2ui>` blocks and each
//!   component as a positional signature (`• Text(text, variant? (static))`), each
//!   function as one (`• formatString(value)`), the catalog's instructions; examples are
//!   given as Express (decompiled from the example messages).
//! - **Direct JSON** ([`PromptFormat::DirectJson`]): the `<a2ui-json>` rules and the JSON
//!   schemas between `---BEGIN A2UI JSON SCHEMA---` and `---END A2UI JSON SCHEMA---`: the
//!   agent-to-renderer message schema of the catalogs' protocol version (pruned to the
//!   allowed messages), the common types they use, and each catalog definition; examples
//!   as JSON.
//!
//! The catalog-derived part is what the official agent SDKs' prompt generators write for
//! the same catalog (`a2ui-agent-sdk` 0.9.0: the same signature lines, the same schema
//! sections); the wording around it is this crate's own. Catalogs are definition documents
//! (`catalog_definition.json`), usually [`Catalog::definition`] of the host's catalog, so a
//! host's own components are in the prompt with the schemas they were registered with.
//!
//! ```
//! use egui_a2ui::prompt::{PromptBuilder, PromptFormat};
//! use egui_a2ui::{Catalog, Version};
//! use serde_json::json;
//!
//! let prompt = PromptBuilder::new(PromptFormat::Express)
//!     .role("You are the quartermaster of a space station.")
//!     .catalog(Catalog::basic().definition(Version::V1_0))
//!     .example(vec![
//!         json!({"version": "v1.0", "createSurface": {"surfaceId": "cargo",
//!             "catalogId": "https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json"}}),
//!         json!({"version": "v1.0", "updateComponents": {"surfaceId": "cargo", "components": [
//!             {"id": "root", "component": "Text", "text": "Hold 3: 12 crates"}]}}),
//!     ])
//!     .build()
//!     .unwrap();
//! assert!(prompt.starts_with("You are the quartermaster"));
//! assert!(prompt.contains("• Text(text, variant? (static)"));
//! assert!(prompt.contains("root = Text(\"Hold 3: 12 crates\")"));
//! ```

mod decompile;
mod direct_json;
mod express;

use serde_json::Value;

pub use decompile::{decompile_express, decompile_json};

use crate::protocol::Version;
use crate::render::catalog::Catalog;

/// The text a model writes UI in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PromptFormat {
    /// A2UI Express `<a2ui>` blocks (fewer tokens; compiled on the host).
    #[default]
    Express,
    /// A2UI messages as JSON in `<a2ui-json>` blocks.
    DirectJson,
}

/// Why no prompt could be made (the official suites' `CatalogError`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PromptError {
    /// No catalog is active: there is nothing the model could be told to write.
    #[error("no active catalogs: the prompt needs at least one catalog")]
    NoCatalogs,
    /// The catalogs target different protocol versions.
    #[error("the catalogs target different protocol versions: {0}")]
    MixedVersions(String),
    /// A catalog document without a `catalogId`, or not an object.
    #[error("catalog document {index}: {message}")]
    BadCatalog {
        /// Its position among the catalogs.
        index: usize,
        /// What is wrong.
        message: String,
    },
}

impl PromptError {
    /// The official error category (`CatalogError`).
    pub fn category(&self) -> &'static str {
        "CatalogError"
    }
}

/// The protocol version a catalog document is written for: its `protocolVersion`, else
/// read from its id, else v1.0.
pub(crate) fn doc_version(doc: &Value) -> Version {
    if let Some(v) = doc.get("protocolVersion").and_then(Value::as_str) {
        let v = v.trim().trim_start_matches('v');
        if v.starts_with("0.8") {
            return Version::V0_8;
        }
        if v.starts_with("0.9") {
            return Version::V0_9;
        }
        return Version::V1_0;
    }
    let id = doc.get("catalogId").and_then(Value::as_str).unwrap_or("");
    if id.contains("v0_9") {
        Version::V0_9
    } else if id.contains("v0_8") {
        Version::V0_8
    } else {
        Version::V1_0
    }
}

/// Keep only `components` / `functions` (by name) of a catalog document, `None` keeping
/// all of that kind; `anyComponent` / `anyFunction` follow. What the prompt describes is
/// then what the model may use (the official SDKs' pruning transformers).
pub fn prune_catalog(
    doc: &Value,
    components: Option<&[&str]>,
    functions: Option<&[&str]>,
) -> Value {
    let mut doc = doc.clone();
    let Some(o) = doc.as_object_mut() else {
        return doc;
    };
    for (key, keep, any) in [
        ("components", components, "anyComponent"),
        ("functions", functions, "anyFunction"),
    ] {
        let Some(keep) = keep else { continue };
        if let Some(Value::Object(members)) = o.get_mut(key) {
            members.retain(|n, _| keep.contains(&n.as_str()));
            let names: Vec<String> = members.keys().cloned().collect();
            if let Some(Value::Object(defs)) = o.get_mut("$defs")
                && let Some(Value::Array(one_of)) =
                    defs.get_mut(any).and_then(|a| a.get_mut("oneOf"))
            {
                one_of.retain(|r| {
                    r.get("$ref")
                        .and_then(Value::as_str)
                        .and_then(|r| r.rsplit('/').next())
                        .is_some_and(|n| names.iter().any(|x| x == n))
                });
            }
        }
    }
    doc
}

/// Builds a system prompt: the host's role text, its workflow and UI guidance, and the
/// format's snippet for the catalogs (rules, catalog description, examples).
#[derive(Clone, Debug, Default)]
pub struct PromptBuilder {
    format: PromptFormat,
    catalogs: Vec<Value>,
    examples: Vec<Vec<Value>>,
    allowed_messages: Option<Vec<String>>,
    allowed_components: Option<Vec<String>>,
    allowed_functions: Option<Vec<String>>,
    role: Option<String>,
    workflow: Option<String>,
    ui: Option<String>,
}

impl PromptBuilder {
    /// A builder for `format`, with no catalog yet.
    pub fn new(format: PromptFormat) -> Self {
        Self {
            format,
            ..Self::default()
        }
    }

    /// A builder for `format` with the definition of `catalog`'s own catalog id
    /// ([`Catalog::definition`]) for `version`.
    pub fn for_catalog(format: PromptFormat, catalog: &Catalog, version: Version) -> Self {
        Self::new(format).catalog(catalog.definition(version))
    }

    /// Add a catalog definition document (the order is the order the prompt lists them).
    #[must_use]
    pub fn catalog(mut self, definition: Value) -> Self {
        self.catalogs.push(definition);
        self
    }

    /// Add an example turn: the messages of one answer, shown to the model in the
    /// format's own notation.
    #[must_use]
    pub fn example(mut self, messages: Vec<Value>) -> Self {
        self.examples.push(messages);
        self
    }

    /// Describe only these message kinds (`createSurface`, `updateComponents`,
    /// `updateDataModel`, `deleteSurface`); without a call, all of the version's.
    #[must_use]
    pub fn allowed_messages<S: Into<String>>(mut self, kinds: impl IntoIterator<Item = S>) -> Self {
        self.allowed_messages = Some(kinds.into_iter().map(Into::into).collect());
        self
    }

    /// Tell the model about these components only (of every catalog).
    #[must_use]
    pub fn allowed_components<S: Into<String>>(
        mut self,
        names: impl IntoIterator<Item = S>,
    ) -> Self {
        self.allowed_components = Some(names.into_iter().map(Into::into).collect());
        self
    }

    /// Tell the model about these functions only (of every catalog).
    #[must_use]
    pub fn allowed_functions<S: Into<String>>(
        mut self,
        names: impl IntoIterator<Item = S>,
    ) -> Self {
        self.allowed_functions = Some(names.into_iter().map(Into::into).collect());
        self
    }

    /// The role text the prompt opens with ("You are …").
    #[must_use]
    pub fn role(mut self, text: impl Into<String>) -> Self {
        self.role = Some(text.into());
        self
    }

    /// The host's workflow guidance (when to answer with UI, what to ask first, …).
    #[must_use]
    pub fn workflow(mut self, text: impl Into<String>) -> Self {
        self.workflow = Some(text.into());
        self
    }

    /// The host's UI guidance (style, layout conventions, …).
    #[must_use]
    pub fn ui_description(mut self, text: impl Into<String>) -> Self {
        self.ui = Some(text.into());
        self
    }

    /// The catalogs as the prompt describes them: pruned to the allowed components and
    /// functions, checked to share one protocol version.
    fn active(&self) -> Result<(Vec<Value>, Version), PromptError> {
        if self.catalogs.is_empty() {
            return Err(PromptError::NoCatalogs);
        }
        let comps: Option<Vec<&str>> = self
            .allowed_components
            .as_ref()
            .map(|v| v.iter().map(String::as_str).collect());
        let fns: Option<Vec<&str>> = self
            .allowed_functions
            .as_ref()
            .map(|v| v.iter().map(String::as_str).collect());
        let mut out = Vec::new();
        let mut versions: Vec<Version> = Vec::new();
        for (index, doc) in self.catalogs.iter().enumerate() {
            if doc
                .get("catalogId")
                .and_then(Value::as_str)
                .is_none_or(str::is_empty)
            {
                return Err(PromptError::BadCatalog {
                    index,
                    message: "a catalog needs a catalogId".into(),
                });
            }
            let v = doc_version(doc).family();
            if !versions.contains(&v) {
                versions.push(v);
            }
            out.push(prune_catalog(doc, comps.as_deref(), fns.as_deref()));
        }
        match versions.as_slice() {
            [v] => Ok((out, *v)),
            _ => Err(PromptError::MixedVersions(
                versions
                    .iter()
                    .map(|v| v.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            )),
        }
    }

    /// The format's snippet alone (what the official SDKs' `generate()` returns): the
    /// rules, the catalog description and the examples.
    pub fn snippet(&self) -> Result<String, PromptError> {
        let (catalogs, version) = self.active()?;
        let allowed = self.allowed_messages.as_deref();
        Ok(match self.format {
            PromptFormat::Express => express::snippet(&catalogs, version, &self.examples, allowed),
            PromptFormat::DirectJson => {
                direct_json::snippet(&catalogs, version, &self.examples, allowed)
            }
        })
    }

    /// The whole system prompt: the role, the workflow and UI guidance, then the snippet.
    pub fn build(&self) -> Result<String, PromptError> {
        let mut parts: Vec<String> = Vec::new();
        if let Some(r) = &self.role {
            parts.push(r.clone());
        }
        if let Some(w) = &self.workflow {
            parts.push(format!("## Workflow\n\n{w}"));
        }
        if let Some(u) = &self.ui {
            parts.push(format!("## UI Description\n\n{u}"));
        }
        parts.push(self.snippet()?);
        Ok(parts.join("\n\n"))
    }
}

/// The Express prompt snippet for these catalog documents and example turns.
pub fn express_prompt(catalogs: &[Value], examples: &[Vec<Value>]) -> Result<String, PromptError> {
    let mut b = PromptBuilder::new(PromptFormat::Express);
    b.catalogs = catalogs.to_vec();
    b.examples = examples.to_vec();
    b.snippet()
}

/// The direct-JSON prompt snippet for these catalog documents and example turns.
pub fn direct_json_prompt(
    catalogs: &[Value],
    examples: &[Vec<Value>],
) -> Result<String, PromptError> {
    let mut b = PromptBuilder::new(PromptFormat::DirectJson);
    b.catalogs = catalogs.to_vec();
    b.examples = examples.to_vec();
    b.snippet()
}

/// Whether `kind` (a message key) is allowed by the allowlist (`None`: every kind).
pub(crate) fn allows(allowed: Option<&[String]>, kind: &str) -> bool {
    allowed.is_none_or(|a| {
        a.iter().any(|k| {
            k == kind || {
                // `CreateSurfaceMessage` spells the same kind.
                let mut c = kind.chars();
                c.next()
                    .is_some_and(|f| *k == format!("{}{}Message", f.to_uppercase(), c.as_str()))
            }
        })
    })
}

/// Members of a catalog document, `components` or `functions`, by name in order.
pub(crate) fn members<'a>(doc: &'a Value, key: &str) -> Vec<(&'a String, &'a Value)> {
    match doc.get(key) {
        Some(Value::Object(m)) => m.iter().collect(),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn simple(id: &str, version: &str) -> Value {
        json!({"catalogId": id, "protocolVersion": version, "components": {
            "Label": {"type": "object", "properties": {
                "component": {"const": "Label"},
                "text": {"$ref": "common_types.json#/$defs/DynamicString"}},
                "required": ["component", "text"]}}})
    }

    #[test]
    fn catalogs_of_two_versions_are_an_error() {
        let err = PromptBuilder::new(PromptFormat::Express)
            .catalog(simple("a", "1.0"))
            .catalog(simple("b", "0.9"))
            .snippet()
            .unwrap_err();
        assert!(matches!(err, PromptError::MixedVersions(_)), "{err:?}");
        assert_eq!(err.category(), "CatalogError");
        let err = PromptBuilder::new(PromptFormat::DirectJson)
            .catalog(json!({"components": {}}))
            .snippet()
            .unwrap_err();
        assert!(
            matches!(err, PromptError::BadCatalog { index: 0, .. }),
            "{err:?}"
        );
    }

    #[test]
    fn the_rules_follow_the_allowed_messages() {
        let only_data = PromptBuilder::new(PromptFormat::Express)
            .catalog(simple("a", "1.0"))
            .allowed_messages(["updateDataModel"])
            .snippet()
            .unwrap();
        assert!(only_data.contains("$/cart/total = 42"), "{only_data}");
        assert!(!only_data.contains("deleteSurface("), "{only_data}");
        assert!(!only_data.contains("`root`"), "{only_data}");
        // The signatures are there whatever the rules.
        assert!(only_data.contains("• Label(text)"), "{only_data}");
        let all = PromptBuilder::new(PromptFormat::Express)
            .catalog(simple("a", "1.0"))
            .snippet()
            .unwrap();
        assert!(all.contains("deleteSurface(") && all.contains("`root`"));
    }

    #[test]
    fn a_host_component_declared_in_code_is_in_the_prompt_and_compiles() {
        let mut catalog =
            Catalog::basic().with_catalog_id("https://example.com/game.json", Version::V1_0);
        catalog.register(
            "Gauge",
            |ui: &mut egui::Ui, _: &mut crate::render::ComponentContext<'_, '_>| ui.label("gauge"),
        );
        catalog.set_component_schema(
            "Gauge",
            json!({"type": "object", "properties": {
                "value": {"$ref": "common_types.json#/$defs/DynamicNumber"},
                "label": {"$ref": "common_types.json#/$defs/DynamicString"},
                "zone": {"type": "string", "enum": ["green", "red"]}},
                "required": ["value"]}),
        );
        let prompt = PromptBuilder::for_catalog(PromptFormat::Express, &catalog, Version::V1_0)
            .role("You run the engine room.")
            .build()
            .unwrap();
        assert!(prompt.starts_with("You run the engine room."));
        assert!(
            prompt.contains(
                "• Gauge(value, label?, zone? (static))\n  - zone: Must be one of: 'green', 'red'"
            ),
            "{prompt}"
        );
        let def = catalog.definition(Version::V1_0);
        let cat = crate::stream::model_text::express::ExpressCatalog::from_definitions(
            &[&def],
            Some(crate::stream::model_text::express::ExpressVersion::V1_0),
        );
        let out = crate::stream::model_text::express::compile(
            "root = Column([Gauge($/fuel, \"Fuel\", \"green\")])",
            &cat,
            "s",
        );
        assert!(out.errors.is_empty(), "{:?}", out.errors);
        let text = Value::Array(out.messages).to_string();
        assert!(
            text.contains(
                r#""component":"Gauge","value":{"@path":"/fuel"},"label":"Fuel","zone":"green""#
            ),
            "{text}"
        );
        assert!(text.contains("https://example.com/game.json"), "{text}");
    }
}
