//! The gallery: bundled sample streams (the official examples and our showcase streams in
//! the repository's `assets/samples/`), a generated 100 000-row list, and the viewer's catalog
//! with one host-registered component (`Gauge`).
//!
//! A new group of samples is a folder of `.json` / `.jsonl` streams under `assets/samples/`
//! and one line in [`GROUPS`]; components of an extended catalog they use are registered in
//! [`catalog`].

use std::path::{Path, PathBuf};

use egui_a2ui::protocol::BASIC_CATALOG_V0_9;
use egui_a2ui::{Catalog, ComponentContext, Version};
use serde_json::{Value, json};

/// The catalog id of the showcase's custom component.
pub const SHOWCASE_CATALOG: &str = "https://github.com/egui_a2ui/catalogs/viewer-showcase.json";

pub use crate::samples::samples_dir;

/// One group of the gallery: a folder of streams under [`samples_dir`].
#[derive(Clone, Copy, Debug)]
pub struct GalleryGroup {
    /// The heading in the gallery.
    pub name: &'static str,
    /// The folder under [`samples_dir`] (its `.json` and `.jsonl` files, sorted by name).
    pub folder: &'static str,
    /// Whether the group starts expanded.
    pub open: bool,
}

/// The gallery's groups, in order. The showcase comes first, with its generated list.
pub const GROUPS: &[GalleryGroup] = &[
    GalleryGroup {
        name: "Showcase",
        folder: "showcase",
        open: true,
    },
    GalleryGroup {
        name: "Extended catalog",
        folder: "extended",
        open: true,
    },
    GalleryGroup {
        name: "Official v0.9",
        folder: "official/v0_9",
        open: true,
    },
    GalleryGroup {
        name: "Official v0.8",
        folder: "official/v0_8",
        open: false,
    },
];

/// Whether group `name` starts expanded (groups not in [`GROUPS`], such as "Opened", do).
#[must_use]
pub fn group_open(name: &str) -> bool {
    GROUPS
        .iter()
        .find(|g| g.name == name)
        .is_none_or(|g| g.open)
}

/// Where a sample's messages come from.
#[derive(Clone, Debug)]
pub enum SampleData {
    /// Document bytes (any form `parse_document` accepts).
    Bytes(std::sync::Arc<Vec<u8>>),
    /// Generated on demand.
    Generated(fn() -> Vec<Value>),
}

/// One gallery entry.
#[derive(Clone, Debug)]
pub struct Sample {
    /// Gallery group.
    pub group: String,
    /// Display name.
    pub title: String,
    /// File stem or short id (what `--sample` matches).
    pub key: String,
    /// One line about it.
    pub description: String,
    /// The messages.
    pub data: SampleData,
}

/// The viewer's catalog: the basic catalog plus `Gauge`, served under [`SHOWCASE_CATALOG`],
/// and the extended catalog (`egui_a2ui::extended`, its own id).
#[must_use]
pub fn catalog() -> Catalog {
    let mut c = Catalog::basic().with_catalog_id(SHOWCASE_CATALOG, Version::V0_9);
    c.register("Gauge", gauge);
    egui_a2ui::extended::register(&mut c);
    c
}

/// `Gauge`: a half-ring filled to `value` (0-100) with `label` under it. Clicking adds 5
/// (wrapping), written back through the `value` binding like a built-in input.
fn gauge(ui: &mut egui::Ui, cx: &mut ComponentContext<'_, '_>) -> egui::Response {
    let value = cx.number("value").unwrap_or(0.0).clamp(0.0, 100.0);
    let label = cx.string("label");
    let size = egui::vec2(120.0, 84.0);
    let (rect, response) = ui.allocate_exact_size(size, egui::Sense::click());
    let painter = ui.painter_at(rect);
    let center = egui::pos2(rect.center().x, rect.top() + 62.0);
    let radius = 50.0;
    let arc = |from: f32, to: f32| -> Vec<egui::Pos2> {
        (0..=48)
            .map(|i| {
                let a = std::f32::consts::PI * (1.0 + from + (to - from) * i as f32 / 48.0);
                center + radius * egui::vec2(a.cos(), a.sin())
            })
            .collect()
    };
    let track = ui.visuals().widgets.inactive.bg_fill;
    painter.add(egui::Shape::line(
        arc(0.0, 1.0),
        egui::Stroke::new(10.0, track),
    ));
    let fraction = (value / 100.0) as f32;
    let color = if fraction > 0.85 {
        egui::Color32::from_rgb(220, 80, 60)
    } else {
        cx.primary_color().unwrap_or(ui.visuals().selection.bg_fill)
    };
    if fraction > 0.0 {
        painter.add(egui::Shape::line(
            arc(0.0, fraction),
            egui::Stroke::new(10.0, color),
        ));
    }
    painter.text(
        center - egui::vec2(0.0, 12.0),
        egui::Align2::CENTER_CENTER,
        format!("{value:.0}%"),
        egui::FontId::proportional(20.0),
        ui.visuals().strong_text_color(),
    );
    painter.text(
        egui::pos2(center.x, rect.bottom() - 8.0),
        egui::Align2::CENTER_CENTER,
        &label,
        egui::FontId::proportional(13.0),
        ui.visuals().text_color(),
    );
    response.widget_info(|| {
        let mut info =
            egui::WidgetInfo::labeled(egui::accesskit::Role::ProgressIndicator, true, &label);
        info.value = Some(value);
        info
    });
    if response.clicked() {
        let next = if value >= 100.0 {
            0.0
        } else {
            (value + 5.0).min(100.0)
        };
        cx.write(ui, "value", json!(next));
    }
    response.on_hover_text("Gauge: a host-registered component (click: +5)")
}

/// Rows in the generated list.
pub const BIG_LIST_ROWS: usize = 100_000;

/// A list of 100 000 rows bound to the data model: a template `List`, virtualised by the
/// renderer. Generated at startup instead of committing a 5 MB file.
#[must_use]
pub fn big_list() -> Vec<Value> {
    let rows: Vec<Value> = (0..BIG_LIST_ROWS)
        .map(|i| {
            json!({"n": i + 1, "sku": format!("SKU-{:06}", (i * 7919) % 1_000_000),
                   "qty": (i * 37) % 500, "done": i % 3 == 0})
        })
        .collect();
    vec![
        json!({"version": "v0.9", "createSurface": {"surfaceId": "big", "catalogId": BASIC_CATALOG_V0_9}}),
        json!({"version": "v0.9", "updateComponents": {"surfaceId": "big", "components": [
            {"id": "root", "component": "Column", "align": "stretch", "children": ["title", "hint", "list"]},
            {"id": "title", "component": "Text", "variant": "h2",
             "text": {"call": "formatString", "args": {"value": "Inventory: 100,000 rows"}, "returnType": "string"}},
            {"id": "hint", "component": "Text", "variant": "caption",
             "text": "One List with a template over /rows: only the rows in view are laid out. Tick a box: the data model tab shows the write."},
            {"id": "list", "component": "List", "children": {"componentId": "row", "path": "/rows"}},
            {"id": "row", "component": "Row", "align": "center", "children": ["n", "sku", "qty", "done"]},
            {"id": "n", "component": "Text", "variant": "caption",
             "text": {"call": "formatString", "args": {"value": "#${n}"}, "returnType": "string"}},
            {"id": "sku", "component": "Text", "text": {"path": "sku"}, "weight": 1},
            {"id": "qty", "component": "Text",
             "text": {"call": "formatString", "args": {"value": "qty ${qty}"}, "returnType": "string"}},
            {"id": "done", "component": "CheckBox", "label": "packed", "value": {"path": "done"}}
        ]}}),
        json!({"version": "v0.9", "updateDataModel": {"surfaceId": "big", "path": "/", "value": {"rows": rows}}}),
    ]
}

fn describe(bytes: &[u8], fallback: &str) -> (String, String) {
    let v: Option<Value> = serde_json::from_slice(bytes).ok();
    let title = v
        .as_ref()
        .and_then(|v| v.get("name"))
        .and_then(Value::as_str)
        .map_or_else(|| fallback.to_owned(), str::to_owned);
    let description = v
        .as_ref()
        .and_then(|v| v.get("description"))
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned();
    (title, description)
}

fn pretty_stem(stem: &str) -> String {
    let s = stem.trim_start_matches(|c: char| c.is_ascii_digit() || c == '_');
    // A protocol-version copy (`data_grid.v1_0`) is named by its version: "Data grid (v1.0)".
    let (s, version) = match s.rsplit_once(".v") {
        Some((base, v)) if !v.is_empty() && v.chars().all(|c| c.is_ascii_digit() || c == '_') => {
            (base, Some(v.replace('_', ".")))
        }
        _ => (s, None),
    };
    let mut s = s.replace(['-', '_'], " ");
    if let Some(v) = version {
        s.push_str(&format!(" (v{v})"));
    }
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

/// Read one folder of samples (sorted by file name). Unreadable files are reported.
fn read_group(dir: &Path, group: &str, out: &mut Vec<Sample>, errors: &mut Vec<String>) {
    let mut files: Vec<PathBuf> = match std::fs::read_dir(dir) {
        Ok(rd) => rd
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                matches!(
                    p.extension().and_then(|e| e.to_str()),
                    Some("json" | "jsonl")
                )
            })
            .collect(),
        Err(e) => {
            errors.push(format!("cannot list {}: {e}", dir.display()));
            return;
        }
    };
    files.sort();
    for path in files {
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("?")
            .to_owned();
        match std::fs::read(&path) {
            Ok(bytes) => {
                let (title, description) = describe(&bytes, &pretty_stem(&stem));
                out.push(Sample {
                    group: group.to_owned(),
                    title,
                    key: stem,
                    description,
                    data: SampleData::Bytes(std::sync::Arc::new(bytes)),
                });
            }
            Err(e) => errors.push(format!("cannot read {}: {e}", path.display())),
        }
    }
}

/// Every bundled sample, group by group as [`GROUPS`] lists them. Missing files become error
/// notes, never a panic.
#[must_use]
pub fn load_bundled() -> (Vec<Sample>, Vec<String>) {
    let dir = samples_dir();
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for g in GROUPS {
        let first = out.len();
        read_group(&dir.join(g.folder), g.name, &mut out, &mut errors);
        if g.folder == "showcase" {
            showcase(&mut out[first..]);
            out.push(Sample {
                group: g.name.into(),
                title: "100,000-row list".into(),
                key: "100k-list".into(),
                description: "Generated at startup; a virtualised template List.".into(),
                data: SampleData::Generated(big_list),
            });
        }
    }
    // Media: the official music player pointed at a local file, a podcast and videos (their
    // media URLs map to tests/data/media/, see `crate::media`).
    for (title, key, description, make) in [
        (
            "Music player (plays)",
            "media-music-player",
            "The official music player with an AudioPlayer of a local MP3.",
            crate::media::music_player as fn() -> Vec<Value>,
        ),
        (
            "Podcast episode",
            "media-podcast",
            "An AudioPlayer of a local AAC file: play, seek, volume.",
            crate::media::podcast,
        ),
        (
            "Video",
            "media-video",
            "H.264 and AV1 with sound; VP9 says \"format not supported\".",
            crate::media::videos,
        ),
    ] {
        out.push(Sample {
            group: "Media".into(),
            title: title.into(),
            key: key.into(),
            description: description.into(),
            data: SampleData::Generated(make),
        });
    }
    (out, errors)
}

/// The showcase streams in their order, with their titles and descriptions.
fn showcase(samples: &mut [Sample]) {
    let order = [
        "form-validation",
        "dashboard",
        "search-results",
        "custom-component",
    ];
    samples.sort_by_key(|s| {
        order
            .iter()
            .position(|k| *k == s.key)
            .unwrap_or(order.len())
    });
    for s in samples.iter_mut() {
        let (t, d) = match s.key.as_str() {
            "form-validation" => (
                "Form with validation",
                "Checks on every field; the button waits for all of them.",
            ),
            "dashboard" => (
                "Dashboard (progressive)",
                "120 messages: press Play in the Stepper tab.",
            ),
            "search-results" => (
                "Search results",
                "Rows of a title, a subtitle and a Reserve button, with and without photos.",
            ),
            "custom-component" => (
                "Custom component",
                "A host-registered Gauge bound like a built-in input.",
            ),
            _ => continue,
        };
        t.clone_into(&mut s.title);
        d.clone_into(&mut s.description);
    }
}

/// The index of the sample `name` names: exact key, then exact title, then a key or title
/// containing it (case-insensitive).
#[must_use]
pub fn find(samples: &[Sample], name: &str) -> Option<usize> {
    let n = name.to_lowercase();
    samples
        .iter()
        .position(|s| s.key.to_lowercase() == n)
        .or_else(|| samples.iter().position(|s| s.title.to_lowercase() == n))
        .or_else(|| {
            samples.iter().position(|s| {
                s.key.to_lowercase().contains(&n) || s.title.to_lowercase().contains(&n)
            })
        })
}

#[cfg(test)]
mod tests {
    use super::pretty_stem;

    #[test]
    fn sample_names_read_as_words_and_version_copies_name_their_version() {
        assert_eq!(pretty_stem("00_row-layout"), "Row layout");
        assert_eq!(pretty_stem("data_grid"), "Data grid");
        assert_eq!(pretty_stem("data_grid.v1_0"), "Data grid (v1.0)");
        assert_eq!(
            pretty_stem("sales_dashboard.v0_9"),
            "Sales dashboard (v0.9)"
        );
    }
}
