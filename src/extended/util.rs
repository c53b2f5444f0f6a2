//! Small helpers shared by the extended components (all on public API).

use egui::accesskit;

use crate::render::Style;

/// An input's label above it, in the reference's label style (bold, small); nothing for an
/// empty label.
pub(super) fn label_ui(ui: &mut egui::Ui, style: &Style, label: &str) -> Option<egui::Response> {
    if label.is_empty() {
        return None;
    }
    Some(
        ui.label(
            egui::RichText::new(label)
                .font(style.label.font_id(ui.ctx()))
                .line_height(Some(style.label.line_height))
                .strong(),
        ),
    )
}

/// `#rgb`, `#rrggbb` or `#rrggbbaa` as a colour.
pub(super) fn parse_hex_color(s: &str) -> Option<egui::Color32> {
    let hex = s.trim().strip_prefix('#')?;
    let nib = |i: usize| -> Option<u8> {
        let c = hex.as_bytes().get(i)?;
        (*c as char).to_digit(16).and_then(|d| u8::try_from(d).ok())
    };
    let byte = |i: usize| -> Option<u8> { Some(nib(i)? * 16 + nib(i + 1)?) };
    match hex.len() {
        3 => Some(egui::Color32::from_rgb(
            nib(0)? * 17,
            nib(1)? * 17,
            nib(2)? * 17,
        )),
        6 => Some(egui::Color32::from_rgb(byte(0)?, byte(2)?, byte(4)?)),
        8 => Some(egui::Color32::from_rgba_unmultiplied(
            byte(0)?,
            byte(2)?,
            byte(4)?,
            byte(6)?,
        )),
        _ => None,
    }
}

/// A colour as `#rrggbb`, or `#rrggbbaa` when `alpha`.
pub(super) fn hex_color(c: [u8; 4], alpha: bool) -> String {
    if alpha {
        format!("#{:02x}{:02x}{:02x}{:02x}", c[0], c[1], c[2], c[3])
    } else {
        format!("#{:02x}{:02x}{:02x}", c[0], c[1], c[2])
    }
}

/// The numeric value an assistive technology asked to set on `id` this frame, and the
/// number of increment and decrement requests.
pub(super) fn accesskit_requests(ui: &egui::Ui, id: egui::Id) -> (Option<f64>, i32) {
    ui.input(|i| {
        let set = i
            .accesskit_action_requests(id, accesskit::Action::SetValue)
            .find_map(|r| match r.data {
                Some(accesskit::ActionData::NumericValue(v)) => Some(v),
                Some(accesskit::ActionData::Value(ref s)) => s.trim().parse().ok(),
                _ => None,
            });
        let up = i.num_accesskit_action_requests(id, accesskit::Action::Increment);
        let down = i.num_accesskit_action_requests(id, accesskit::Action::Decrement);
        let steps = i32::try_from(up)
            .unwrap_or(i32::MAX)
            .saturating_sub(i32::try_from(down).unwrap_or(i32::MAX));
        (set, steps)
    })
}

/// Series colours: the agent's accent first, then a fixed, colour-blind-friendly palette
/// (Okabe–Ito).
pub(super) fn palette(accent: egui::Color32, i: usize) -> egui::Color32 {
    const OKABE_ITO: [egui::Color32; 7] = [
        egui::Color32::from_rgb(0xE6, 0x9F, 0x00),
        egui::Color32::from_rgb(0x56, 0xB4, 0xE9),
        egui::Color32::from_rgb(0x00, 0x9E, 0x73),
        egui::Color32::from_rgb(0xD5, 0x5E, 0x00),
        egui::Color32::from_rgb(0xCC, 0x79, 0xA7),
        egui::Color32::from_rgb(0xF0, 0xE4, 0x42),
        egui::Color32::from_rgb(0x00, 0x72, 0xB2),
    ];
    if i == 0 {
        accent
    } else {
        OKABE_ITO[(i - 1) % OKABE_ITO.len()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_colours_round_trip() {
        let c = parse_hex_color("#1a2B3c").map(|c| c.to_srgba_unmultiplied());
        assert_eq!(c, Some([0x1a, 0x2b, 0x3c, 0xff]));
        assert_eq!(hex_color([0x1a, 0x2b, 0x3c, 0xff], false), "#1a2b3c");
        assert_eq!(
            parse_hex_color("#fff").map(|c| c.to_srgba_unmultiplied()),
            Some([255, 255, 255, 255])
        );
        for bad in ["", "#", "#12", "#ggg", "123456", "#1234567", "#é1"] {
            assert_eq!(parse_hex_color(bad), None, "{bad:?}");
        }
    }
}
