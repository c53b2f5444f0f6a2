use std::fmt;

/// A2UI protocol versions this crate speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Version {
    /// v0.8 (no `version` field on the wire).
    V0_8,
    /// v0.9.
    V0_9,
    /// v0.9.1 (same schemas as v0.9).
    V0_9_1,
    /// v1.0 candidate.
    V1_0,
}

impl Version {
    /// Parse the wire `version` string. v1.0 comes as `"v1.0"` (the schema's constant) and
    /// as `"1.0"` (sent by current agent SDKs, and accepted by the reference core); the
    /// renderer always answers with `"v1.0"`.
    pub fn from_wire(s: &str) -> Option<Self> {
        match s {
            "v0.9" => Some(Self::V0_9),
            "v0.9.1" => Some(Self::V0_9_1),
            "v1.0" | "1.0" => Some(Self::V1_0),
            _ => None,
        }
    }

    /// The wire `version` string (`"v0.8"` for v0.8, which sends none).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::V0_8 => "v0.8",
            Self::V0_9 => "v0.9",
            Self::V0_9_1 => "v0.9.1",
            Self::V1_0 => "v1.0",
        }
    }

    /// The protocol family: v0.9.1 behaves as v0.9.
    pub fn family(self) -> Self {
        match self {
            Self::V0_9_1 => Self::V0_9,
            v => v,
        }
    }

    /// The basic catalog id of this version.
    pub fn basic_catalog_id(self) -> &'static str {
        match self {
            Self::V0_8 => super::STANDARD_CATALOG_V0_8,
            Self::V0_9 | Self::V0_9_1 => super::BASIC_CATALOG_V0_9,
            Self::V1_0 => super::BASIC_CATALOG_V1_0,
        }
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
