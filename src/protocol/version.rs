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

/// The protocol versions a catalog id serves, as a set of families (v0.9 covers v0.9.1).
///
/// A host catalog is usually drawn the same way whatever the version of the messages that
/// build its surfaces, so one id may serve several versions:
/// [`Catalog::with_catalog_id`](crate::render::catalog::Catalog::with_catalog_id) takes one [`Version`] or
/// a list of them.
///
/// ```
/// use egui_a2ui::protocol::Versions;
/// use egui_a2ui::Version;
///
/// let both = Versions::from([Version::V0_9, Version::V1_0]);
/// assert!(both.contains(Version::V0_9_1));
/// assert!(!both.contains(Version::V0_8));
/// assert_eq!(both.to_string(), "v0.9 and v1.0");
/// assert_eq!(Versions::from(Version::V1_0).latest(), Some(Version::V1_0));
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Versions(u8);

impl Versions {
    /// The families, oldest first (the bit of each is its index).
    const FAMILIES: [Version; 3] = [Version::V0_8, Version::V0_9, Version::V1_0];

    fn bit(v: Version) -> u8 {
        match v.family() {
            Version::V0_8 => 1,
            Version::V0_9 | Version::V0_9_1 => 2,
            Version::V1_0 => 4,
        }
    }

    /// No version at all.
    pub const fn empty() -> Self {
        Self(0)
    }

    /// This set and `v`.
    #[must_use]
    pub fn with(self, v: Version) -> Self {
        Self(self.0 | Self::bit(v))
    }

    /// Every version of `self` or `other`.
    #[must_use]
    pub fn union(self, other: Self) -> Self {
        Self(self.0 | other.0)
    }

    /// The versions in both sets.
    #[must_use]
    pub fn intersection(self, other: Self) -> Self {
        Self(self.0 & other.0)
    }

    /// Whether `v`'s family is in the set (v0.9.1 counts as v0.9).
    pub fn contains(self, v: Version) -> bool {
        self.0 & Self::bit(v) != 0
    }

    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The families in the set, oldest first.
    pub fn iter(self) -> impl Iterator<Item = Version> {
        Self::FAMILIES
            .into_iter()
            .filter(move |v| self.contains(*v))
    }

    /// The newest family in the set.
    pub fn latest(self) -> Option<Version> {
        self.iter().last()
    }
}

impl From<Version> for Versions {
    fn from(v: Version) -> Self {
        Self::empty().with(v)
    }
}

impl From<&[Version]> for Versions {
    fn from(vs: &[Version]) -> Self {
        vs.iter().copied().collect()
    }
}

impl<const N: usize> From<[Version; N]> for Versions {
    fn from(vs: [Version; N]) -> Self {
        vs.into_iter().collect()
    }
}

impl<const N: usize> From<&[Version; N]> for Versions {
    fn from(vs: &[Version; N]) -> Self {
        vs.iter().copied().collect()
    }
}

impl FromIterator<Version> for Versions {
    fn from_iter<I: IntoIterator<Item = Version>>(iter: I) -> Self {
        iter.into_iter().fold(Self::empty(), Self::with)
    }
}

impl fmt::Display for Versions {
    /// `v0.9`, `v0.9 and v1.0`, `v0.8, v0.9 and v1.0`; `no version` when empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let all: Vec<Version> = self.iter().collect();
        match all.as_slice() {
            [] => f.write_str("no version"),
            [one] => f.write_str(one.as_str()),
            [init @ .., last] => {
                for (i, v) in init.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    f.write_str(v.as_str())?;
                }
                write!(f, " and {last}")
            }
        }
    }
}

impl fmt::Debug for Versions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod versions_tests {
    use super::{Version, Versions};

    #[test]
    fn a_set_holds_families_and_names_them_in_order() {
        let s = Versions::from([Version::V1_0, Version::V0_9_1]);
        assert!(s.contains(Version::V0_9) && s.contains(Version::V0_9_1));
        assert!(s.contains(Version::V1_0) && !s.contains(Version::V0_8));
        assert_eq!(s.iter().collect::<Vec<_>>(), [Version::V0_9, Version::V1_0]);
        assert_eq!(s.latest(), Some(Version::V1_0));
        let all = s.with(Version::V0_8);
        assert_eq!(all.to_string(), "v0.8, v0.9 and v1.0");
        assert_eq!(Versions::empty().to_string(), "no version");
        assert!(Versions::empty().is_empty() && !s.is_empty());
        let v08 = Versions::from(Version::V0_8);
        assert!(v08.intersection(s).is_empty());
        assert_eq!(all.intersection(s), s);
        assert_eq!(v08.union(s), all);
        assert_eq!(
            Versions::from(&[Version::V0_9][..]),
            Versions::from(Version::V0_9_1)
        );
    }
}
