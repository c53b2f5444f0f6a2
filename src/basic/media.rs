//! `Video` and `AudioPlayer`. egui has no media player, so both draw a media card: the
//! poster (v1.0 `Video.posterUrl`), the description and the URL's host, with a play button
//! that emits [`Event::OpenUrl`](crate::Event::OpenUrl) for the host to open the media.

use crate::render::ComponentContext;
use crate::render::catalog::ComponentRenderer;
use crate::render::icons::{icon_family, icon_font_ready};
use crate::render::images::{BoxSize, Fit, ImageSpec, image_ui};

/// `Video` or `AudioPlayer`.
pub enum Media {
    /// `Video`.
    Video,
    /// `AudioPlayer`.
    Audio,
}

/// The host of an `http(s)` URL (`www.example.com`), `None` for anything else.
pub(crate) fn url_host(url: &str) -> Option<&str> {
    let url = url.trim();
    let lower = url.get(..8).unwrap_or(url).to_ascii_lowercase();
    let rest = if lower.starts_with("https://") {
        url.get(8..)?
    } else if lower.starts_with("http://") {
        url.get(7..)?
    } else {
        return None;
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or(rest);
    let host = authority.rsplit('@').next().unwrap_or(authority);
    (!host.is_empty()).then_some(host)
}

impl ComponentRenderer for Media {
    fn ui(&self, ui: &mut egui::Ui, cx: &mut ComponentContext<'_, '_>) -> egui::Response {
        let url = cx.string("url");
        let url = url.trim();
        let description = cx
            .opt_string("description")
            .filter(|d| !d.trim().is_empty());
        let poster = match self {
            Self::Video => cx.opt_string("posterUrl").filter(|p| !p.trim().is_empty()),
            Self::Audio => None,
        };
        let (kind, glyph, action) = match self {
            Self::Video => ("Video", '\u{e02c}', "Play video"), // movie
            Self::Audio => ("Audio", '\u{e3a1}', "Play audio"), // audiotrack
        };
        // The play button is offered only for a URL the URL policy lets the host open.
        let host = url_host(url).filter(|_| {
            let policy = &cx.options().url_policy;
            policy
                .check(url, crate::url_policy::UrlUse::Open, true)
                .is_ok()
        });
        let title = description.clone().unwrap_or_else(|| kind.to_owned());
        ui.ctx().accesskit_node_builder(ui.unique_id(), |node| {
            node.set_label(format!("{kind}: {title}"));
        });
        let width = ui.available_width().clamp(160.0, 360.0);
        egui::Frame::group(ui.style())
            .inner_margin(8.0)
            .show(ui, |ui| {
                ui.set_width(width);
                if let Some(poster) = &poster {
                    let spec = ImageSpec {
                        url: poster.trim(),
                        alt: &title,
                        size: BoxSize::Fixed(egui::vec2(width, width * 9.0 / 16.0)),
                        fit: Fit::Cover,
                        circular: false,
                        corner_radius: 4.0,
                    };
                    image_ui(ui, &cx.options().url_policy, &spec);
                }
                ui.horizontal(|ui| {
                    let side = 28.0;
                    let (rect, _) =
                        ui.allocate_exact_size(egui::Vec2::splat(side), egui::Sense::hover());
                    if icon_font_ready(ui.ctx()) {
                        ui.painter().text(
                            rect.center(),
                            egui::Align2::CENTER_CENTER,
                            glyph,
                            egui::FontId::new(side, icon_family()),
                            cx.accent_color(ui),
                        );
                    }
                    let play = ui
                        .with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                            let button = ui
                                .add_enabled(host.is_some(), egui::Button::new(action))
                                .on_hover_text(url)
                                .on_disabled_hover_text("Only http and https media can be opened");
                            ui.with_layout(egui::Layout::top_down(egui::Align::Min), |ui| {
                                ui.add(
                                    egui::Label::new(egui::RichText::new(&title).strong()).wrap(),
                                );
                                let source = host.unwrap_or("unsupported address");
                                ui.add(
                                    egui::Label::new(egui::RichText::new(source).weak()).truncate(),
                                );
                            });
                            button
                        })
                        .inner;
                    if play.clicked() {
                        cx.open_url(url);
                    }
                    play
                })
                .inner
            })
            .inner
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn url_host_takes_the_authority_without_user_info() {
        assert_eq!(
            url_host("https://www.example.com/a.mp4"),
            Some("www.example.com")
        );
        assert_eq!(
            url_host("HTTP://user:pw@cdn.test:8080?x"),
            Some("cdn.test:8080")
        );
        assert_eq!(url_host("javascript:alert(1)"), None);
        assert_eq!(url_host("https://"), None);
        assert_eq!(url_host("é"), None);
    }
}
