//! Sets `cfg(has_mesa_egl)` for the wgpu snapshot tests (`tests/render/snapshots.rs`, feature
//! `snapshots`): on Linux they render through wgpu's GL backend on Mesa (EGL, llvmpipe), which
//! needs `libEGL.so.1`, Mesa's EGL vendor library and a software driver at run time. Without
//! them the tests report `ignored` with the packages to install. Elsewhere (macOS, Windows)
//! wgpu uses the native backend and the cfg is always set.
//!
//! Nothing is probed without the `snapshots` feature, so a build of the library for use does
//! no work here.

use std::path::{Path, PathBuf};

fn main() {
    println!("cargo::rustc-check-cfg=cfg(has_mesa_egl)");
    println!("cargo::rerun-if-changed=build.rs");
    if std::env::var_os("CARGO_FEATURE_SNAPSHOTS").is_none() {
        return;
    }
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() != Ok("linux") {
        println!("cargo::rustc-cfg=has_mesa_egl");
        return;
    }
    println!("cargo::rerun-if-env-changed=LD_LIBRARY_PATH");
    let arch = std::env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    let mut dirs: Vec<PathBuf> = std::env::var_os("LD_LIBRARY_PATH")
        .map(|p| std::env::split_paths(&p).collect())
        .unwrap_or_default();
    for d in [
        format!("/usr/lib/{arch}-linux-gnu"),
        format!("/lib/{arch}-linux-gnu"),
        "/usr/lib64".to_owned(),
        "/usr/lib".to_owned(),
        "/usr/local/lib".to_owned(),
    ] {
        dirs.push(PathBuf::from(d));
    }
    dirs.retain(|d| d.is_dir());
    let find = |name: &str| dirs.iter().map(|d| d.join(name)).find(|p| p.is_file());
    let egl = find("libEGL.so.1");
    let mesa = find("libEGL_mesa.so.0");
    // The software rasteriser: a classic DRI driver, or Mesa 24.2+'s one gallium library.
    let driver = find("dri/swrast_dri.so").or_else(|| {
        dirs.iter().find_map(|d| {
            std::fs::read_dir(d).ok()?.find_map(|e| {
                let path = e.ok()?.path();
                let name = path.file_name()?.to_str()?;
                (name.starts_with("libgallium") && name.contains(".so")).then_some(path)
            })
        })
    });
    match (egl, mesa, driver) {
        (Some(egl), Some(mesa), Some(driver)) => {
            for p in [&egl, &mesa, &driver] {
                watch(p);
            }
            println!("cargo::rustc-cfg=has_mesa_egl");
        }
        _ => {
            // Re-run once a package lands in one of the folders (not all of /usr/lib, whose
            // tree is large; distributions put these libraries in the others).
            for d in dirs.iter().filter(|d| d.as_path() != Path::new("/usr/lib")) {
                watch(d);
                let dri = d.join("dri");
                if dri.is_dir() {
                    watch(&dri);
                }
            }
        }
    }
}

fn watch(path: &Path) {
    println!("cargo::rerun-if-changed={}", path.display());
}
