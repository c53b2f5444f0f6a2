//! `Video` and `AudioPlayer`.

use crate::catalog::ComponentRenderer;
use crate::render::ComponentContext;

/// `Video` or `AudioPlayer`.
pub enum Media {
    /// `Video`.
    Video,
    /// `AudioPlayer`.
    Audio,
}

impl ComponentRenderer for Media {
    fn ui(&self, ui: &mut egui::Ui, cx: &mut ComponentContext<'_, '_>) -> egui::Response {
        let url = cx.string("url");
        let r = ui.button(format!("▶ {url}"));
        if r.clicked() {
            cx.open_url(&url);
        }
        r
    }
}
