//! `Row`, `Column` and `List`.

use crate::catalog::ComponentRenderer;
use crate::render::ComponentContext;

/// `Row` or `Column`.
pub enum Linear {
    /// `Row`.
    Row,
    /// `Column`.
    Column,
}

impl ComponentRenderer for Linear {
    fn ui(&self, ui: &mut egui::Ui, cx: &mut ComponentContext<'_, '_>) -> egui::Response {
        let layout = match self {
            Self::Row => egui::Layout::left_to_right(egui::Align::Min),
            Self::Column => egui::Layout::top_down(egui::Align::Min),
        };
        ui.with_layout(layout, |ui| {
            for child in cx.children() {
                cx.child_ui(ui, &child);
            }
        })
        .response
    }
}

/// `List`.
pub struct List;

impl ComponentRenderer for List {
    fn ui(&self, ui: &mut egui::Ui, cx: &mut ComponentContext<'_, '_>) -> egui::Response {
        ui.vertical(|ui| {
            for child in cx.children() {
                cx.child_ui(ui, &child);
            }
        })
        .response
    }
}
