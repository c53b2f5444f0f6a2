//! Small pieces the basic input components share: the visible label of an input and the
//! reference's check box and radio button.

use crate::render::{Palette, Style};

/// Which toggle [`toggle_placed`] draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Toggle {
    /// A check box (`<input type="checkbox">`).
    Check,
    /// A radio button (`<input type="radio">`).
    Radio,
}

/// A check box or radio button as the reference draws them (Chromium's controls at the
/// stylesheet's 16 px): unchecked, an input-coloured box or disc with a border-coloured
/// outline; checked, a primary-filled box with an on-primary tick, or a primary ring around
/// a primary dot. Then `text` in the current text colour. A click toggles nothing itself:
/// the caller reads `clicked()`. Placed by the layout (`row: None`) or at the start of
/// `row`, centred across it as a left-to-right layout of that height would place it,
/// without a `Ui` for the row. Returns the response and the rectangle the row's content
/// covers (the toggle and `row`'s height, both centred on the row).
pub(crate) fn toggle_placed(
    ui: &mut egui::Ui,
    kind: Toggle,
    on: bool,
    text: impl Into<egui::WidgetText>,
    style: &Style,
    palette: &Palette,
    row: Option<egui::Rect>,
) -> (egui::Response, egui::Rect) {
    let (inset, gap) = match kind {
        Toggle::Check => (style.checkbox_inset, style.checkbox_gap),
        Toggle::Radio => (style.radio_inset, style.radio_gap),
    };
    let side = style.toggle_size;
    let lead = inset + side + gap;
    let wrap = (row.map_or_else(|| ui.available_width(), |r| r.width()) - lead).max(0.0);
    let galley = text
        .into()
        .into_galley(ui, None, wrap, egui::TextStyle::Body);
    let height = galley.size().y.max(side).max(ui.spacing().interact_size.y);
    let size = egui::vec2(lead + galley.size().x, height);
    let (rect, response, covered) = match row {
        None => {
            let (rect, response) = ui.allocate_exact_size(size, egui::Sense::click());
            (rect, response, rect)
        }
        Some(row) => {
            let mid = row.center().y;
            let rect =
                egui::Rect::from_center_size(egui::pos2(row.min.x + size.x / 2.0, mid), size);
            let across = size.y.max(row.height());
            let covered = egui::Rect::from_min_max(
                egui::pos2(row.min.x, mid - across / 2.0),
                egui::pos2(row.min.x + size.x, mid + across / 2.0),
            );
            (rect, ui.allocate_rect(rect, egui::Sense::click()), covered)
        }
    };
    let role = match kind {
        Toggle::Check => egui::Role::CheckBox,
        Toggle::Radio => egui::Role::RadioButton,
    };
    response.widget_info(|| egui::WidgetInfo::selected(role, ui.is_enabled(), on, galley.text()));
    if !ui.is_rect_visible(rect) {
        return (response, covered);
    }
    let icon = egui::Rect::from_center_size(
        egui::pos2(rect.min.x + inset + side / 2.0, rect.center().y),
        egui::Vec2::splat(side),
    );
    let hovered = response.hovered() || response.has_focus();
    let painter = ui.painter();
    let accent = palette.primary;
    let outline = if hovered {
        palette.on_surface
    } else {
        palette.border_strong
    };
    match (kind, on) {
        (Toggle::Check, false) => {
            painter.rect(
                icon.shrink(0.5),
                style.toggle_radius,
                palette.input,
                egui::Stroke::new(1.0, outline),
                egui::StrokeKind::Middle,
            );
        }
        (Toggle::Check, true) => {
            painter.rect_filled(icon, style.toggle_radius, accent);
            let ink = palette.on_primary;
            let p = |x: f32, y: f32| icon.min + egui::vec2(x, y) * (side / 16.0);
            painter.line(
                vec![p(3.5, 8.5), p(6.5, 11.5), p(12.5, 4.5)],
                egui::Stroke::new(2.0 * side / 16.0, ink),
            );
        }
        (Toggle::Radio, false) => {
            painter.circle(
                icon.center(),
                side / 2.0 - 0.5,
                palette.input,
                egui::Stroke::new(1.0, outline),
            );
        }
        (Toggle::Radio, true) => {
            painter.circle(
                icon.center(),
                side / 2.0 - 1.0,
                palette.input,
                egui::Stroke::new(2.0, accent),
            );
            painter.circle_filled(icon.center(), side * 0.3, accent);
        }
    }
    if response.has_focus() {
        let ring = match kind {
            Toggle::Check => egui::CornerRadius::from(style.toggle_radius + 2.0),
            Toggle::Radio => egui::CornerRadius::from(side),
        };
        painter.rect_stroke(
            icon.expand(2.0),
            ring,
            egui::Stroke::new(2.0, accent),
            egui::StrokeKind::Outside,
        );
    }
    let text_pos = egui::pos2(rect.min.x + lead, rect.center().y - galley.size().y / 2.0);
    painter.galley(text_pos, galley, ui.visuals().text_color());
    (response, covered)
}

/// Draw the visible label of an input (nothing for an empty label).
pub(crate) fn input_label(ui: &mut egui::Ui, text: &str) -> Option<egui::Response> {
    if text.is_empty() {
        None
    } else {
        Some(ui.label(text))
    }
}
