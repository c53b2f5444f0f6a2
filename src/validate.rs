//! Strict mode (feature `validation`): every agent message checked against the official
//! A2UI JSON Schemas of its version, with the basic catalog, before it is applied.
//!
//! The default parser checks the envelope and the shapes the renderer relies on and is
//! lenient about the rest (unknown properties, extra enum values), as the reference
//! renderers are. A host that wants the full schema verdict enables this.

use jsonschema::{Registry, Validator};
use serde_json::{Value, json};

use crate::error::A2uiError;

macro_rules! schema {
    ($p:literal) => {
        include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/schemas/", $p))
    };
}

/// Validators for agent → renderer messages of v0.8, v0.9 (and v0.9.1) and v1.0, each with
/// its basic catalog.
pub struct SchemaValidator {
    v08: Validator,
    v09: Validator,
    v10: Validator,
}

impl std::fmt::Debug for SchemaValidator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SchemaValidator")
    }
}

fn parse(text: &str) -> Result<Value, A2uiError> {
    serde_json::from_str(text).map_err(|e| A2uiError::Json(format!("bundled schema: {e}")))
}

fn build_err(e: impl std::fmt::Display) -> A2uiError {
    A2uiError::validation("", format!("cannot build schema validator: {e}"))
}

impl SchemaValidator {
    /// Build the validators for the basic catalogs.
    pub fn basic() -> Result<Self, A2uiError> {
        let v09_catalog = parse(schema!("v0_9_catalogs_basic/catalog.json"))?;
        let v10_catalog = parse(schema!("v1_0_catalogs_basic/catalog.json"))?;
        Self::with_catalogs(v09_catalog, v10_catalog)
    }

    /// Build with other catalog documents for v0.9 and v1.0 (e.g. a testing catalog).
    pub fn with_catalogs(v09_catalog: Value, v10_catalog: Value) -> Result<Self, A2uiError> {
        let v08_schema = parse(schema!("v0_8_json/server_to_client.json"))?;
        let v09_schema = parse(schema!("v0_9_json/server_to_client.json"))?;
        let v09_common = parse(schema!("v0_9_json/common_types.json"))?;
        let v10_schema = parse(schema!("v1_0_json/agent_to_renderer.json"))?;
        let v10_common = parse(schema!("v1_0_json/common_types.json"))?;

        let v08 = jsonschema::options()
            .should_validate_formats(true)
            .build(&v08_schema)
            .map_err(build_err)?;

        let v09_reg = Registry::new()
            .add(
                "https://a2ui.org/specification/v0_9/common_types.json",
                v09_common,
            )
            .map_err(build_err)?
            .add(
                "https://a2ui.org/specification/v0_9/catalog.json",
                v09_catalog.clone(),
            )
            .map_err(build_err)?
            .add(
                "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json",
                v09_catalog,
            )
            .map_err(build_err)?
            .prepare()
            .map_err(build_err)?;
        let v09 = jsonschema::options()
            .should_validate_formats(true)
            .with_registry(&v09_reg)
            .build(&v09_schema)
            .map_err(build_err)?;

        let v10_reg = Registry::new()
            .add(
                "https://a2ui.org/specification/v1_0/common_types.json",
                v10_common,
            )
            .map_err(build_err)?
            .add(
                "https://a2ui.org/specification/v1_0/catalog.json",
                v10_catalog.clone(),
            )
            .map_err(build_err)?
            .add(
                "https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json",
                v10_catalog,
            )
            .map_err(build_err)?
            .prepare()
            .map_err(build_err)?;
        let v10 = jsonschema::options()
            .should_validate_formats(true)
            .with_registry(&v10_reg)
            .build(&v10_schema)
            .map_err(build_err)?;
        Ok(Self { v08, v09, v10 })
    }

    /// Check one message against the schema of its version (`version` absent → v0.8;
    /// `v0.9.1` is checked as `v0.9`, whose schemas are otherwise identical). The error
    /// carries the JSON pointer of the first violation.
    pub fn validate(&self, message: &Value) -> Result<(), A2uiError> {
        let (validator, instance) = match message.get("version").and_then(Value::as_str) {
            None => (&self.v08, std::borrow::Cow::Borrowed(message)),
            Some("v0.9") => (&self.v09, std::borrow::Cow::Borrowed(message)),
            Some("v0.9.1") => {
                let mut m = message.clone();
                if let Some(o) = m.as_object_mut() {
                    o.insert("version".into(), json!("v0.9"));
                }
                (&self.v09, std::borrow::Cow::Owned(m))
            }
            // `"1.0"` and the `@` spellings are checked in the snapshot schema's vocabulary.
            Some("v1.0" | "1.0") => match crate::protocol::reserved::to_bare_message(message) {
                Some(m) => (&self.v10, std::borrow::Cow::Owned(m)),
                None => (&self.v10, std::borrow::Cow::Borrowed(message)),
            },
            Some(other) => return Err(A2uiError::UnsupportedVersion(other.to_owned())),
        };
        match validator.iter_errors(&instance).next() {
            None => Ok(()),
            Some(e) => Err(A2uiError::validation(
                e.instance_path().to_string(),
                e.to_string(),
            )),
        }
    }
}
