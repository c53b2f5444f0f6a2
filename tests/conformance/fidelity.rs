//! Fidelity to the official web renderer: every public v0.9 fixture is laid out headless
//! (`egui_a2ui::testing::layout_geometry`, as `a2ui_dump --geometry 420x560` does) and each
//! component box is compared with the box the official renderer (`@a2ui/lit` 0.11.0) drew
//! (`tests/data/web-reference/`). The score is the one of the reference tool's
//! `compare_geometry.py --align root`: the share of the reference's drawn instances that we
//! draw with IoU >= 0.5, a missing instance counting as a miss, after moving each of our
//! surfaces so its root's top-left lies on the reference's.
//!
//! Instances where the reference itself is wrong are listed in `fidelity_deviations.md` and
//! left out; an entry that names no drawn reference instance, or one we match anyway, is
//! stale and fails the test.
//!
//! Set `A2UI_GEOMETRY_OUT=DIR` to also write our geometry files there (for
//! `compare_geometry.py`).
//!
//! The look: [`pixels_match_the_official_web_renderer`] paints every fixture as the
//! reference page (`a2ui_dump --png`'s page, through wgpu; feature `snapshots`, Mesa's GL
//! backend headless) and scores it against the reference's screenshot with
//! `compare_pixels.py`'s metric (ported in `tests/common/pixels.rs`). Set `A2UI_PIXELS_OUT=DIR`
//! to keep our PNGs.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use egui_a2ui::render::{GeometryOptions, RendererOptions};
use egui_a2ui::testing::layout_geometry;
use serde_json::Value;

#[cfg(feature = "snapshots")]
use crate::common::pixels;

/// Pooled share over all public fixtures must reach this.
const POOLED_TARGET: f64 = 0.90;
/// No fixture may score below this.
const FIXTURE_FLOOR: f64 = 0.75;

type Key = (String, String, usize);
type Boxes = BTreeMap<Key, Option<[f64; 4]>>;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn to_box(v: &Value) -> Option<[f64; 4]> {
    let a = v.as_array()?;
    if a.len() != 4 {
        return None;
    }
    let mut out = [0.0; 4];
    for (o, x) in out.iter_mut().zip(a) {
        *o = x.as_f64()?;
    }
    Some(out)
}

/// `{(surface, component, index): box or None}`, as `instances()` in the script.
fn instances(g: &Value) -> Boxes {
    let mut out = Boxes::new();
    let Some(surfaces) = g.get("surfaces").and_then(Value::as_object) else {
        return out;
    };
    for (sid, s) in surfaces {
        let Some(components) = s.get("components").and_then(Value::as_object) else {
            continue;
        };
        for (cid, boxes) in components {
            for (i, b) in boxes.as_array().into_iter().flatten().enumerate() {
                out.insert((sid.clone(), cid.clone(), i), to_box(b));
            }
        }
    }
    out
}

/// `iou()` of the script, including its rule for empty boxes.
fn iou(a: [f64; 4], b: [f64; 4]) -> f64 {
    let [ax, ay, aw, ah] = a;
    let [bx, by, bw, bh] = b;
    let iw = (ax + aw).min(bx + bw) - ax.max(bx);
    let ih = (ay + ah).min(by + bh) - ay.max(by);
    let inter = iw.max(0.0) * ih.max(0.0);
    let union = aw * ah + bw * bh - inter;
    if union <= 0.0 {
        return if a == b { 1.0 } else { 0.0 };
    }
    inter / union
}

/// `align_root()` of the script: shift each candidate surface so its root (instance 0)
/// starts where the reference's does.
fn align_root(reference: &Value, candidate: &mut Boxes) {
    let root_of = |b: &Boxes, sid: &str| {
        b.get(&(sid.to_owned(), "root".to_owned(), 0))
            .copied()
            .flatten()
    };
    let reference = instances(reference);
    let sids: BTreeSet<String> = candidate.keys().map(|k| k.0.clone()).collect();
    for sid in sids {
        let (Some(rb), Some(cb)) = (root_of(&reference, &sid), root_of(candidate, &sid)) else {
            continue;
        };
        let (dx, dy) = (rb[0] - cb[0], rb[1] - cb[1]);
        for (k, b) in candidate.iter_mut() {
            if k.0 == sid
                && let Some(b) = b
            {
                b[0] += dx;
                b[1] += dy;
            }
        }
    }
}

/// One fixture's score.
#[derive(Debug, Default)]
struct Score {
    good: usize,
    counted: usize,
    worst: Vec<(f64, Key)>,
    missing: Vec<Key>,
}

impl Score {
    fn share(&self) -> f64 {
        if self.counted == 0 {
            0.0
        } else {
            self.good as f64 / self.counted as f64
        }
    }
}

/// `compare()` of the script (components, `--align root`), leaving out `excluded`.
fn score(reference: &Value, candidate: &Value, excluded: &BTreeSet<Key>) -> Score {
    let r = instances(reference);
    let mut c = instances(candidate);
    align_root(reference, &mut c);
    let mut s = Score::default();
    for (k, rb) in &r {
        let Some(rb) = rb else { continue };
        if excluded.contains(k) {
            continue;
        }
        s.counted += 1;
        match c.get(k).copied().flatten() {
            None => s.missing.push(k.clone()),
            Some(cb) => {
                let v = iou(*rb, cb);
                if v >= 0.5 {
                    s.good += 1;
                }
                s.worst.push((v, k.clone()));
            }
        }
    }
    s.worst
        .sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    s.worst.truncate(3);
    s
}

/// The deviations list: `- FIXTURE SURFACE/COMPONENT#INSTANCE: why` lines.
fn deviations() -> BTreeMap<String, BTreeSet<Key>> {
    let text = std::fs::read_to_string(root().join("tests/fidelity_deviations.md"))
        .unwrap_or_else(|e| panic!("tests/fidelity_deviations.md: {e}"));
    let mut out: BTreeMap<String, BTreeSet<Key>> = BTreeMap::new();
    for line in text.lines() {
        let Some(entry) = line.strip_prefix("- `") else {
            continue;
        };
        let Some((name, _)) = entry.split_once('`') else {
            panic!("bad deviation line {line:?}");
        };
        let (fixture, instance) = name
            .split_once(' ')
            .unwrap_or_else(|| panic!("bad deviation {name:?}"));
        let (sid, rest) = instance
            .split_once('/')
            .unwrap_or_else(|| panic!("bad deviation {name:?}"));
        let (cid, index) = rest
            .split_once('#')
            .unwrap_or_else(|| panic!("bad deviation {name:?}"));
        let index: usize = index
            .parse()
            .unwrap_or_else(|_| panic!("bad instance in {name:?}"));
        out.entry(fixture.to_owned())
            .or_default()
            .insert((sid.to_owned(), cid.to_owned(), index));
    }
    out
}

fn group(name: &str) -> &'static str {
    if name.starts_with("minimal-") {
        "minimal"
    } else if name.starts_with("contact_form") {
        "contact form"
    } else {
        "basic"
    }
}

/// Our geometry of the fixture the reference file was made from.
fn candidate(reference: &Value, name: &str) -> Value {
    let fixture = reference
        .get("fixture")
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("{name}: no fixture field"));
    let bytes = std::fs::read(root().join(fixture)).unwrap_or_else(|e| panic!("{fixture}: {e}"));
    let options = GeometryOptions {
        width: 420.0,
        height: 560.0,
        keep_deleted: name.starts_with("contact_form_example"),
        fixture: fixture.to_owned(),
        ..GeometryOptions::default()
    };
    layout_geometry(&bytes, &options, RendererOptions::default())
}

#[test]
fn layout_matches_the_official_web_renderer() {
    let dir = root().join("tests/data/web-reference");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(".geometry.json"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 43, "the 43 public v0.9 fixtures");
    let out_dir = std::env::var_os("A2UI_GEOMETRY_OUT").map(PathBuf::from);
    let mut excluded = deviations();
    let mut stale = Vec::new();
    let mut groups: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let (mut good, mut counted) = (0, 0);
    let mut below = Vec::new();
    for path in &files {
        let name = file_name(path);
        let reference: Value = serde_json::from_slice(
            &std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display())),
        )
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        let ours = candidate(&reference, &name);
        if let Some(out) = &out_dir {
            let _ = std::fs::create_dir_all(out);
            let text = serde_json::to_string_pretty(&ours).unwrap_or_default();
            let _ = std::fs::write(out.join(format!("{name}.geometry.json")), text);
        }
        let listed = excluded.remove(&name).unwrap_or_default();
        // A listed instance must be drawn by the reference and missed by us.
        let drawn = instances(&reference);
        for k in &listed {
            let matched = {
                let mut c = instances(&ours);
                align_root(&reference, &mut c);
                match (drawn.get(k).copied().flatten(), c.get(k).copied().flatten()) {
                    (None, _) => Some("the reference draws no such instance"),
                    (Some(r), Some(c)) if iou(r, c) >= 0.5 => Some("we match it anyway"),
                    _ => None,
                }
            };
            if let Some(why) = matched {
                stale.push(format!("{name} {}/{}#{}: {why}", k.0, k.1, k.2));
            }
        }
        let s = score(&reference, &ours, &listed);
        let worst: Vec<String> = s
            .worst
            .iter()
            .map(|(v, k)| format!("{}#{} {v:.2}", k.1, k.2))
            .collect();
        println!(
            "{name}: {:.1}% ({}/{}), {} missing; worst: {}",
            100.0 * s.share(),
            s.good,
            s.counted,
            s.missing.len(),
            worst.join(", ")
        );
        let g = groups.entry(group(&name)).or_default();
        g.0 += s.good;
        g.1 += s.counted;
        good += s.good;
        counted += s.counted;
        if s.share() < FIXTURE_FLOOR {
            below.push(format!("{name} {:.1}%", 100.0 * s.share()));
        }
    }
    for (g, (gd, n)) in &groups {
        println!(
            "group {g}: {:.1}% ({gd}/{n})",
            100.0 * *gd as f64 / (*n).max(1) as f64
        );
    }
    let pooled = good as f64 / counted.max(1) as f64;
    println!(
        "pooled: {:.1}% ({good}/{counted}) over {} fixtures",
        100.0 * pooled,
        files.len()
    );
    for (fixture, keys) in &excluded {
        for k in keys {
            stale.push(format!(
                "{fixture} {}/{}#{}: no such fixture",
                k.0, k.1, k.2
            ));
        }
    }
    assert!(stale.is_empty(), "stale deviations: {stale:#?}");
    assert!(
        pooled >= POOLED_TARGET,
        "pooled share {:.1}% is below {:.0}%",
        100.0 * pooled,
        100.0 * POOLED_TARGET
    );
    assert!(
        below.is_empty(),
        "fixtures below {:.0}%: {below:?}",
        100.0 * FIXTURE_FLOOR
    );
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|f| {
            f.to_string_lossy()
                .trim_end_matches(".geometry.json")
                .to_owned()
        })
        .unwrap_or_default()
}

#[test]
fn the_score_is_the_reference_tools_score() {
    // Worked cases of `compare_geometry.py`: IoU of disjoint, equal, half-overlapping and
    // empty boxes, root alignment, and a missing instance counted as a miss.
    assert_eq!(iou([0.0, 0.0, 10.0, 10.0], [20.0, 0.0, 10.0, 10.0]), 0.0);
    assert_eq!(iou([0.0, 0.0, 10.0, 10.0], [0.0, 0.0, 10.0, 10.0]), 1.0);
    assert!((iou([0.0, 0.0, 10.0, 10.0], [5.0, 0.0, 10.0, 10.0]) - 1.0 / 3.0).abs() < 1e-9);
    assert_eq!(iou([1.0, 1.0, 0.0, 0.0], [1.0, 1.0, 0.0, 0.0]), 1.0);
    let reference = serde_json::json!({"format": "a2ui-geometry/1", "surfaces": {"s": {
        "components": {"root": [[8, 8, 100, 100]], "a": [[8, 8, 50, 20]], "b": [[8, 30, 50, 20]],
                       "h": [null]}}}});
    let candidate = serde_json::json!({"format": "a2ui-geometry/1", "surfaces": {"s": {
        "components": {"root": [[0, 0, 100, 100]], "a": [[0, 0, 50, 20]], "h": [[0, 0, 5, 5]]}}}});
    let s = score(&reference, &candidate, &BTreeSet::new());
    assert_eq!((s.good, s.counted, s.missing.len()), (2, 3, 1));
    let excluded = BTreeSet::from([("s".to_owned(), "b".to_owned(), 0)]);
    let s = score(&reference, &candidate, &excluded);
    assert_eq!((s.good, s.counted), (2, 2));
}

/// Pooled ink share over the public fixtures (those not excused) must reach this.
const POOLED_INK_TARGET: f64 = 0.85;
/// No fixture (not excused) may score an ink share below this.
const INK_FLOOR: f64 = 0.70;
/// Pooled surface share must reach this.
const POOLED_SURFACE_TARGET: f64 = 0.97;
/// `compare_pixels.py`'s default: a colour difference a reader sees fails.
const MAX_DE: f64 = 12.0;

/// The fixtures excused from the pixel floors: `- pixels `NAME`: why` lines.
fn pixel_excuses() -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(root().join("tests/fidelity_deviations.md"))
        .unwrap_or_else(|e| panic!("tests/fidelity_deviations.md: {e}"));
    text.lines()
        .filter_map(|l| l.strip_prefix("- pixels `"))
        .map(|rest| {
            let (name, why) = rest
                .split_once('`')
                .unwrap_or_else(|| panic!("bad pixel excuse {rest:?}"));
            (
                name.to_owned(),
                why.trim_start_matches(':').trim().to_owned(),
            )
        })
        .collect()
}

#[test]
#[cfg_attr(
    not(feature = "snapshots"),
    ignore = "paints through wgpu: needs the `snapshots` feature (cargo test --features snapshots --test conformance fidelity)"
)]
#[cfg_attr(
    all(feature = "snapshots", not(has_mesa_egl)),
    ignore = "Mesa EGL not found (libEGL.so.1, libEGL_mesa.so.0, swrast): apt-get install libegl1 libegl-mesa0 libgl1-mesa-dri"
)]
fn pixels_match_the_official_web_renderer() {
    #[cfg(feature = "snapshots")]
    pixel_scores();
}

#[cfg(feature = "snapshots")]
fn pixel_scores() {
    let dir = root().join("tests/data/web-reference");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(".geometry.json"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 43, "the 43 public v0.9 fixtures");
    let out_dir = std::env::var_os("A2UI_PIXELS_OUT").map(PathBuf::from);
    let mut excused = pixel_excuses();
    let mut stale = Vec::new();
    let mut below = Vec::new();
    // (pixels, matching, ink pixels, matching ink) per group and pooled.
    let mut groups: BTreeMap<&str, [f64; 4]> = BTreeMap::new();
    let mut pooled = [0.0; 4];
    for path in &files {
        let name = file_name(path);
        let reference: Value = serde_json::from_slice(
            &std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display())),
        )
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        let fixture = reference
            .get("fixture")
            .and_then(Value::as_str)
            .unwrap_or_else(|| panic!("{name}: no fixture field"));
        let bytes =
            std::fs::read(root().join(fixture)).unwrap_or_else(|e| panic!("{fixture}: {e}"));
        let options = GeometryOptions {
            width: 420.0,
            height: 560.0,
            keep_deleted: name.starts_with("contact_form_example"),
            fixture: fixture.to_owned(),
            ..GeometryOptions::default()
        };
        let ours = pixels::render_page(&bytes, &options, egui::Theme::Light)
            .unwrap_or_else(|e| panic!("{name}: cannot render: {e}"));
        if let Some(out) = &out_dir {
            let _ = std::fs::create_dir_all(out);
            let _ = ours.save(out.join(format!("{name}.png")));
        }
        let png = dir.join(format!("{name}.png"));
        let theirs = image::open(&png)
            .unwrap_or_else(|e| panic!("{}: {e}", png.display()))
            .to_rgba8();
        let s = pixels::score(&theirs, &ours, &reference, MAX_DE);
        let why = excused.remove(&name);
        println!(
            "{name}: {:.1}% of surface pixels, ink {:.1}%{}",
            100.0 * s.share,
            100.0 * s.ink_share,
            why.as_ref()
                .map_or(String::new(), |w| format!(" (excused: {w})"))
        );
        if why.is_some() {
            if s.ink_share >= INK_FLOOR {
                stale.push(format!(
                    "{name}: excused, but ink {:.1}% holds the floor",
                    100.0 * s.ink_share
                ));
            }
            continue;
        }
        if s.ink_share < INK_FLOOR {
            below.push(format!("{name} ink {:.1}%", 100.0 * s.ink_share));
        }
        let add = |acc: &mut [f64; 4]| {
            acc[0] += s.pixels as f64;
            acc[1] += s.share * s.pixels as f64;
            acc[2] += s.ink_pixels as f64;
            acc[3] += s.ink_share * s.ink_pixels as f64;
        };
        add(groups.entry(group(&name)).or_default());
        add(&mut pooled);
    }
    let share = |a: &[f64; 4]| (a[1] / a[0].max(1.0), a[3] / a[2].max(1.0));
    for (g, acc) in &groups {
        let (surface, ink) = share(acc);
        println!(
            "group {g}: surface {:.1}%, ink {:.1}%",
            100.0 * surface,
            100.0 * ink
        );
    }
    let (surface, ink) = share(&pooled);
    println!(
        "pooled: surface {:.1}%, ink {:.1}%",
        100.0 * surface,
        100.0 * ink
    );
    for name in excused.keys() {
        stale.push(format!("{name}: excused, but no such fixture"));
    }
    assert!(stale.is_empty(), "stale pixel excuses: {stale:#?}");
    assert!(
        ink >= POOLED_INK_TARGET,
        "pooled ink share {:.1}% is below {:.0}%",
        100.0 * ink,
        100.0 * POOLED_INK_TARGET
    );
    assert!(
        surface >= POOLED_SURFACE_TARGET,
        "pooled surface share {:.1}% is below {:.0}%",
        100.0 * surface,
        100.0 * POOLED_SURFACE_TARGET
    );
    assert!(
        below.is_empty(),
        "fixtures below {:.0}% ink: {below:?}",
        100.0 * INK_FLOOR
    );
}

#[test]
#[cfg_attr(
    not(feature = "snapshots"),
    ignore = "the metric lives with the painter: needs the `snapshots` feature"
)]
fn the_pixel_score_is_the_reference_scripts_score() {
    #[cfg(feature = "snapshots")]
    {
        // `compare_pixels.py --json` on two reference screenshots: the login form scored
        // against the simple login form (both in tests/data/web-reference), as computed by
        // the script with numpy: 161824 pixels, 0.89023877793158 matching; 22262 ink
        // pixels, 0.20213817267091905 matching.
        let dir = root().join("tests/data/web-reference");
        let open = |name: &str| {
            image::open(dir.join(name))
                .unwrap_or_else(|e| panic!("{name}: {e}"))
                .to_rgba8()
        };
        let geometry: Value = serde_json::from_slice(
            &std::fs::read(dir.join("09_login-form.geometry.json")).expect("geometry"),
        )
        .expect("json");
        let reference = open("09_login-form.png");
        let s = pixels::score(
            &reference,
            &open("00_simple-login-form.png"),
            &geometry,
            MAX_DE,
        );
        assert_eq!((s.pixels, s.ink_pixels), (161_824, 22_262));
        assert!(
            (s.share - 0.890_238_777_931_58).abs() < 1e-12,
            "{}",
            s.share
        );
        assert!(
            (s.ink_share - 0.202_138_172_670_919_05).abs() < 1e-12,
            "{}",
            s.ink_share
        );
        // A picture matches itself everywhere.
        let same = pixels::score(&reference, &reference, &geometry, MAX_DE);
        assert_eq!((same.share, same.ink_share), (1.0, 1.0));
    }
}
