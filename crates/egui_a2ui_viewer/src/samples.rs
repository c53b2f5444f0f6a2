//! Where the viewer's bundled samples live.

use std::path::{Path, PathBuf};

/// Where the bundled samples live: `assets/samples/` at the repository's root.
#[must_use]
pub fn samples_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/samples")
}
