//! The geometry observable: where each drawn component instance landed.
//!
//! With [`Renderer::record_geometry`](super::Renderer::record_geometry) on, the tree walk
//! records, in document order (depth-first pre-order, template children in data order), the
//! box of every component instance it draws. `testing::layout_geometry` (feature `testing`) lays a whole document out
//! headless the way the reference page of the official web renderer does (surfaces stacked
//! in a column with 16 px padding and 16 px gaps) and writes the result as an
//! `a2ui-geometry/1` document, the format of the reference renders, so the two can be
//! compared box by box.

/// Padding around, and gap between, surfaces on the reference page.
pub const PAGE_PADDING: f32 = 16.0;

/// One drawn component instance.
#[derive(Clone, Debug, PartialEq)]
pub struct DrawnInstance {
    /// The surface it belongs to.
    pub surface: String,
    /// The component id.
    pub id: String,
    /// The component type (`Text`, `Row`...).
    pub component: String,
    /// The data scope (`/` outside templates).
    pub scope: String,
    /// Its box in screen points, `None` when it draws nothing (zero width or height).
    pub rect: Option<egui::Rect>,
}

/// Settings of a headless `testing::layout_geometry` (feature `testing`) run.
#[derive(Clone, Debug)]
pub struct GeometryOptions {
    /// Viewport width (points = CSS px).
    pub width: f32,
    /// Viewport height.
    pub height: f32,
    /// Ignore `deleteSurface` messages, to lay out the state just before the stream's end
    /// (the reference's `KEEP_DELETED=1`).
    pub keep_deleted: bool,
    /// The `fixture` field of the document.
    pub fixture: String,
    /// Frames to run so that measured layouts settle.
    pub frames: usize,
    /// Physical pixels per point of the headless screen (egui rounds text rows and widget
    /// positions to physical pixels).
    pub pixels_per_point: f32,
}

impl Default for GeometryOptions {
    fn default() -> Self {
        Self {
            width: 420.0,
            height: 560.0,
            keep_deleted: false,
            fixture: String::new(),
            frames: 12,
            pixels_per_point: 2.0,
        }
    }
}
