//! `Row`, `Column` and `List`: flex lines and scrollable lists. The geometry lives in
//! [`crate::render::layout`]; this file maps the components' properties onto it.

use crate::catalog::ComponentRenderer;
use crate::render::ComponentContext;
use crate::render::layout::{Axis, CrossAlign, Justify, flex_ui, list_ui};

/// `Row` or `Column`: children in a line with `justify` (main axis, default `start`),
/// `align` (cross axis, default `stretch`) and per-child `weight` (flex-grow). A Row fills
/// the available width; neither adds padding or gaps (leaf widgets carry the spacing).
pub enum Linear {
    /// `Row`: children left to right.
    Row,
    /// `Column`: children top to bottom.
    Column,
}

impl ComponentRenderer for Linear {
    fn ui(&self, ui: &mut egui::Ui, cx: &mut ComponentContext<'_, '_>) -> egui::Response {
        let axis = match self {
            Self::Row => Axis::Horizontal,
            Self::Column => Axis::Vertical,
        };
        let justify = Justify::parse(cx.literal_str("justify"));
        let align = CrossAlign::parse(cx.literal_str("align"));
        flex_ui(ui, cx, axis, justify, align)
    }
}

/// `List`: a scrollable column (`direction: vertical`, the default) or row
/// (`horizontal`, scrollbar hidden) of children, with `align` across it (default
/// `stretch`). A template-driven list lays out only the rows in view.
pub struct List;

impl ComponentRenderer for List {
    fn ui(&self, ui: &mut egui::Ui, cx: &mut ComponentContext<'_, '_>) -> egui::Response {
        let axis = match cx.literal_str("direction") {
            Some(d) if d.eq_ignore_ascii_case("horizontal") => Axis::Horizontal,
            _ => Axis::Vertical,
        };
        let align = CrossAlign::parse(cx.literal_str("align"));
        list_ui(ui, cx, axis, align)
    }
}
