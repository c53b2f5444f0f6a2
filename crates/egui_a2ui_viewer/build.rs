//! Sets `cfg(has_xvfb)` when `xvfb-run` is on `PATH`: the smoke tests (`tests/smoke.rs`) open
//! real windows under Xvfb and are `ignored`, with the package to install, without it.
//! Re-runs when `PATH` changes, when the found `xvfb-run` goes, or when a `PATH` folder
//! changes (a package was installed).

use std::path::PathBuf;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(has_xvfb)");
    println!("cargo::rerun-if-env-changed=PATH");
    let dirs: Vec<PathBuf> = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect())
        .unwrap_or_default();
    let found = dirs
        .iter()
        .map(|d| d.join("xvfb-run"))
        .find(|p| p.is_file());
    match found {
        Some(path) => {
            println!("cargo::rerun-if-changed={}", path.display());
            println!("cargo::rustc-cfg=has_xvfb");
        }
        None => {
            for d in dirs.iter().filter(|d| d.is_dir()) {
                println!("cargo::rerun-if-changed={}", d.display());
            }
        }
    }
}
