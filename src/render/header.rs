//! What the host draws around a surface, in its own words and colours: the header naming
//! the origin and the agent's self-chosen name, the frame around a surface of known
//! origin, a `Modal`'s attribution line and where an obscured field's text goes.

use serde_json::Value;

use super::RendererOptions;
use crate::model::Surface;

/// The agent's self-chosen name (`theme.agentDisplayName`), on one line, when it set one.
fn self_chosen_name(surface: &Surface) -> Option<String> {
    surface
        .theme
        .get("agentDisplayName")
        .and_then(Value::as_str)
        .map(crate::model::origin_one_line)
        .filter(|n| !n.is_empty())
}

/// The header above a surface: the origin the host or transport set (when it did), the
/// agent's icon (`theme.iconUrl`, through the URL policy; a generic agent glyph stands in
/// for a missing or refused one) and the agent's self-chosen name
/// (`theme.agentDisplayName`) shown only as such: "calls itself “…”". Without an origin it
/// is drawn only when the agent set a name or icon (and then says "Agent").
pub(crate) fn surface_header(
    ui: &mut egui::Ui,
    surface: &Surface,
    options: &RendererOptions,
    origin: Option<&crate::model::AgentOrigin>,
) {
    let self_named = self_chosen_name(surface);
    let icon = surface
        .theme
        .get("iconUrl")
        .and_then(Value::as_str)
        .filter(|u| !u.trim().is_empty());
    if origin.is_none() && self_named.is_none() && icon.is_none() {
        return;
    }
    let label = origin.map_or_else(|| "Agent".to_owned(), crate::model::AgentOrigin::label);
    let claim = self_named.map(|n| format!("calls itself \u{201c}{n}\u{201d}"));
    let a11y = match &claim {
        Some(c) => format!("{label}, {c}"),
        None => label.clone(),
    };
    ui.horizontal(|ui| {
        ui.ctx().accesskit_node_builder(ui.unique_id(), |node| {
            node.set_role(egui::accesskit::Role::Banner);
            node.set_label(a11y.clone());
        });
        ui.spacing_mut().item_spacing.x = 6.0;
        let side = 24.0;
        let shown = icon
            .filter(|u| options.url_policy.allows_media(u))
            .map(|url| {
                let spec = super::images::ImageSpec {
                    url,
                    alt: "",
                    size: super::images::BoxSize::Fixed(egui::Vec2::splat(side)),
                    fit: super::images::Fit::Cover,
                    circular: true,
                    corner_radius: 0.0,
                };
                super::images::image_ui(ui, &options.url_policy, &spec).1
            });
        if shown.is_none() {
            // The generic agent mark: the accent-coloured `smart_toy` glyph.
            let (rect, _) = ui.allocate_exact_size(egui::Vec2::splat(side), egui::Sense::hover());
            let accent = super::theme::readable_accent(
                ui.visuals(),
                surface
                    .primary_color()
                    .map(|[r, g, b]| egui::Color32::from_rgb(r, g, b)),
            );
            if super::icons::icon_font_ready(ui.ctx()) {
                ui.painter().text(
                    rect.center(),
                    egui::Align2::CENTER_CENTER,
                    '\u{f06c}',
                    egui::FontId::new(side * 0.85, super::icons::icon_family()),
                    accent,
                );
            } else {
                ui.painter()
                    .circle_filled(rect.center(), side * 0.4, accent);
            }
        }
        ui.add(egui::Label::new(egui::RichText::new(&label).strong()).truncate());
        if let Some(claim) = &claim {
            ui.add(egui::Label::new(egui::RichText::new(claim).weak()).truncate());
        }
    });
    ui.separator();
}

/// The frame the host draws around a surface whose store has an origin: a border in the
/// host's (not the agent's) colours, so the agent's UI has a visible edge it cannot draw
/// outside of.
pub(crate) fn origin_frame(ui: &egui::Ui) -> egui::Frame {
    let visuals = ui.visuals();
    egui::Frame::new()
        .stroke(egui::Stroke::new(
            1.0,
            visuals.widgets.noninteractive.bg_stroke.color,
        ))
        .corner_radius(6.0)
        .inner_margin(egui::Margin::same(6))
}

/// The line a `Modal` dialog starts with: whose dialog it is, as the host knows it.
pub fn modal_attribution(ui: &mut egui::Ui, origin: Option<&crate::model::AgentOrigin>) {
    let text = match origin {
        Some(o) => format!("From {}", o.label()),
        None => "From the agent".to_owned(),
    };
    ui.add(egui::Label::new(egui::RichText::new(text).weak()).truncate());
    ui.separator();
}

/// Where the text typed into an obscured field goes, as the host knows it.
pub fn obscured_destination(origin: Option<&crate::model::AgentOrigin>) -> String {
    origin.map_or_else(
        || "the agent".to_owned(),
        |o| o.host().unwrap_or(o.name()).to_owned(),
    )
}
