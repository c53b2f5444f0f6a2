//! The official schemas and catalog definitions bundled with the crate (`assets/`, see
//! `assets/schemas/NOTICE.md` and `assets/catalogs/NOTICE.md`): one place that embeds each
//! file and parses it once, for the validator, the catalog definitions and the prompts.

use std::sync::OnceLock;

use serde_json::Value;

use crate::protocol::Version;

macro_rules! asset {
    ($p:literal) => {
        include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/", $p))
    };
}

/// One bundled document.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bundled {
    /// The basic catalog definition of a protocol family (v0.8: the standard catalog).
    BasicCatalog(Family),
    /// The common types schema (v0.9 and v1.0; v0.8 has none).
    CommonTypes(Family),
    /// The agent → renderer message envelope (`server_to_client.json`,
    /// `agent_to_renderer.json`).
    Envelope(Family),
}

/// The protocol families with bundled documents.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Family {
    /// v0.8.
    V08,
    /// v0.9 and v0.9.1.
    V09,
    /// v1.0.
    V10,
}

impl Family {
    /// The family of a protocol version.
    pub(crate) fn of(version: Version) -> Self {
        match version.family() {
            Version::V0_8 => Self::V08,
            Version::V1_0 => Self::V10,
            _ => Self::V09,
        }
    }
}

impl Bundled {
    /// The document's text, as published.
    pub(crate) fn text(self) -> &'static str {
        use Family::{V08, V09, V10};
        match self {
            Self::BasicCatalog(V08) => asset!("schemas/v0_8_json/standard_catalog_definition.json"),
            Self::BasicCatalog(V09) => asset!("schemas/v0_9_catalogs_basic/catalog.json"),
            Self::BasicCatalog(V10) => asset!("catalogs/basic/v1/catalog.json"),
            Self::CommonTypes(V08 | V09) => asset!("schemas/v0_9_json/common_types.json"),
            Self::CommonTypes(V10) => asset!("schemas/v1_0_json/common_types.json"),
            Self::Envelope(V08) => asset!("schemas/v0_8_json/server_to_client.json"),
            Self::Envelope(V09) => asset!("schemas/v0_9_json/server_to_client.json"),
            Self::Envelope(V10) => asset!("schemas/v1_0_json/agent_to_renderer.json"),
        }
    }

    /// The document parsed, once per process (`Null` if a bundled file did not parse: the
    /// unit test below reads every one).
    pub(crate) fn value(self) -> &'static Value {
        const N: usize = 9;
        static PARSED: [OnceLock<Value>; N] = [const { OnceLock::new() }; N];
        let slot = match self {
            Self::BasicCatalog(f) => f as usize,
            Self::CommonTypes(f) => 3 + f as usize,
            Self::Envelope(f) => 6 + f as usize,
        };
        static NULL: Value = Value::Null;
        PARSED.get(slot).map_or(&NULL, |cell| {
            cell.get_or_init(|| serde_json::from_str(self.text()).unwrap_or(Value::Null))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::{Bundled, Family};

    #[test]
    fn every_bundled_document_parses_as_an_object() {
        for f in [Family::V08, Family::V09, Family::V10] {
            for b in [
                Bundled::BasicCatalog(f),
                Bundled::CommonTypes(f),
                Bundled::Envelope(f),
            ] {
                assert!(b.value().is_object(), "{b:?} did not parse");
            }
        }
    }
}
