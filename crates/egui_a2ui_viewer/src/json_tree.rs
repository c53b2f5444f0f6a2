//! A collapsible JSON tree, drawn fresh every frame from the live value (so it follows user
//! edits). Long arrays and objects show their first entries only.

use egui::{Color32, RichText};
use serde_json::Value;

/// Entries shown per object or array; the rest are summarised.
pub const MAX_CHILDREN: usize = 200;

/// Draw `value` as a tree. `id` keeps the open/closed state apart between trees.
pub fn show(ui: &mut egui::Ui, id: impl egui::AsIdSalt, label: &str, value: &Value) {
    ui.push_id(id, |ui| node(ui, label, value, "", 0));
}

fn summary(v: &Value) -> String {
    match v {
        Value::Object(m) => format!("{{…}} {} keys", m.len()),
        Value::Array(a) => format!("[…] {} items", a.len()),
        _ => String::new(),
    }
}

fn leaf_text(v: &Value) -> RichText {
    let (text, color) = match v {
        Value::String(s) => {
            let mut t: String = s.chars().take(120).collect();
            if s.chars().count() > 120 {
                t.push('…');
            }
            (format!("{t:?}"), Color32::from_rgb(0x6a, 0x9f, 0x3a))
        }
        Value::Number(n) => (n.to_string(), Color32::from_rgb(0x3a, 0x7f, 0xd0)),
        Value::Bool(b) => (b.to_string(), Color32::from_rgb(0xc0, 0x70, 0x20)),
        Value::Null => ("null".to_owned(), Color32::GRAY),
        _ => (String::new(), Color32::GRAY),
    };
    RichText::new(text).monospace().color(color)
}

fn node(ui: &mut egui::Ui, key: &str, v: &Value, path: &str, depth: usize) {
    match v {
        Value::Object(_) | Value::Array(_) => {
            let len = match v {
                Value::Object(m) => m.len(),
                Value::Array(a) => a.len(),
                _ => 0,
            };
            egui::CollapsingHeader::new(
                RichText::new(format!("{key}  {}", summary(v))).monospace(),
            )
            .id_salt(path)
            .default_open(depth == 0 || (depth < 3 && len <= 12))
            .show(ui, |ui| {
                let mut shown = 0;
                match v {
                    Value::Object(m) => {
                        for (k, child) in m.iter().take(MAX_CHILDREN) {
                            node(ui, k, child, &format!("{path}/{k}"), depth + 1);
                            shown += 1;
                        }
                    }
                    Value::Array(a) => {
                        for (i, child) in a.iter().take(MAX_CHILDREN).enumerate() {
                            node(ui, &i.to_string(), child, &format!("{path}/{i}"), depth + 1);
                            shown += 1;
                        }
                    }
                    _ => {}
                }
                if len > shown {
                    ui.weak(format!("… {} more not shown", len - shown));
                }
            });
        }
        leaf => {
            ui.horizontal_wrapped(|ui| {
                ui.label(RichText::new(format!("{key}:")).monospace().strong());
                ui.label(leaf_text(leaf));
            });
        }
    }
}
