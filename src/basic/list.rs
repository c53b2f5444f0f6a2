//! `List`: a scrollable, virtualised column or row of children, built on the public slot
//! protocol and settle bookkeeping.

use egui::accesskit::Role;
use egui::{Rect, Response, ScrollArea, Sense, Ui, UiBuilder, Vec2, vec2};

use super::row_column::{fills_width, spans_width};
use crate::catalog::ComponentRenderer;
use crate::catalog::{
    Axis, CrossAlign, EPSILON, Settling, UNBOUNDED, bounded, finite, sanitize_rect,
};
use crate::catalog::{Extent, Incoming, Slot};
use crate::render::ComponentContext;

/// A `List` never gets shorter than this when its height comes from the space left over.
const MIN_LIST_HEIGHT: f32 = 120.0;

/// Rows a list lays out in one pass at most, whatever the row sizes (zero-height rows would
/// otherwise make "fill the viewport" unbounded).
const MAX_LIST_ROWS_PER_PASS: usize = 256;

/// The row size a virtualised list assumes before it has measured one.
const DEFAULT_ROW_SIZE: f32 = 24.0;

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

/// What a `List` remembers between passes.
#[derive(Clone, Copy, Debug, Default)]
struct ListMemory {
    /// Average main size of the rows laid out last pass (`0` before the first).
    row: f32,
    /// Largest cross size of those rows.
    cross: f32,
    /// Passes in a row whose measurements changed.
    settling: Settling,
}

/// Draw a `List`: a scroll area along `axis` whose rows are the children. Template-driven
/// lists are virtualised: only the rows in view are laid out, from an estimated row size
/// (the average of the rows measured), so the cost of a pass does not depend on the length.
pub(crate) fn list_ui(
    ui: &mut Ui,
    cx: &mut ComponentContext<'_, '_>,
    axis: Axis,
    align: CrossAlign,
) -> Response {
    let incoming = Incoming::of(ui, cx);
    let memory_key = cx.widget_id().with("a2ui-list");
    let memory: ListMemory = ui.data(|d| d.get_temp(memory_key)).unwrap_or_default();
    let available = sanitize_rect(ui.available_rect_before_wrap());
    let width = incoming.extent.width.and_then(finite);
    let height = incoming.extent.height.and_then(finite);
    // A list sized to content still has to stop somewhere along its axis: at the space
    // left in the parent, or (vertically, inside an unbounded parent) at the screen's
    // height. Its natural length is capped the same way whatever extent it was given, so a
    // list stretched to a row's height does not report that height back as its own.
    let main_cap = match axis {
        Axis::Vertical => {
            let left = available.height();
            let cap = if left < UNBOUNDED {
                left
            } else {
                bounded(ui.ctx().content_rect().height())
            };
            cap.max(MIN_LIST_HEIGHT)
        }
        Axis::Horizontal => available.width(),
    };
    let box_width = width.unwrap_or(match axis {
        Axis::Vertical => available.width(),
        Axis::Horizontal => main_cap,
    });
    let box_height = height.unwrap_or(match axis {
        Axis::Vertical => main_cap,
        Axis::Horizontal => available.height(),
    });
    let box_rect = Rect::from_min_size(available.min, vec2(box_width, box_height));

    let template = cx.children_template();
    let shared = template.is_none().then(|| cx.children_shared());
    let statics: &[crate::model::ChildRef] = shared.as_deref().unwrap_or_default();
    let count = template.as_ref().map_or(statics.len(), |t| t.len);
    let virtual_rows = template.is_some();

    let scroll = match axis {
        Axis::Vertical => ScrollArea::vertical(),
        Axis::Horizontal => ScrollArea::horizontal()
            .scroll_bar_visibility(egui::scroll_area::ScrollBarVisibility::AlwaysHidden),
    };
    let scroll = scroll
        .id_salt(cx.widget_id().with("a2ui-list-scroll"))
        .auto_shrink([width.is_none(), height.is_none()]);

    let row_key = cx.widget_id();
    // The reference's list: an inline-start padding, and gaps between the items.
    let indent = cx.style().list_indent.max(0.0);
    let gap = match axis {
        Axis::Vertical => cx.style().list_gap,
        Axis::Horizontal => cx.style().list_gap_horizontal,
    }
    .max(0.0);
    let inner = ui.scope_builder(UiBuilder::new().max_rect(box_rect), |ui| {
        scroll.show_viewport(ui, |ui, viewport| {
            let base = ui.max_rect().min + vec2(indent, 0.0);
            let view_cross = match axis {
                Axis::Vertical => (ui.max_rect().width() - indent).max(0.0),
                Axis::Horizontal => ui.max_rect().height(),
            };
            // Items of a horizontal list are at most as wide as the list (the guide gives
            // them a max width), so long text wraps instead of running on.
            let row_max = match axis {
                Axis::Vertical => UNBOUNDED,
                Axis::Horizontal => bounded(ui.max_rect().width()),
            };
            // Rows fill the list's cross size only when that size is not itself measured
            // from the rows' widths (see `flex_ui`).
            let cross_fixed = match axis {
                Axis::Vertical => width.map(|_| bounded(view_cross)),
                Axis::Horizontal => Some(height.unwrap_or(memory.cross)),
            };
            let stretch = align == CrossAlign::Stretch && cross_fixed.is_some();
            let line = cross_fixed.unwrap_or(memory.cross);
            let estimate = if memory.row > 0.0 {
                memory.row
            } else {
                DEFAULT_ROW_SIZE
            };
            let (view_start, view_end) = match axis {
                Axis::Vertical => (viewport.min.y, viewport.max.y),
                Axis::Horizontal => (viewport.min.x, viewport.max.x),
            };
            let first = if virtual_rows {
                ((view_start.max(0.0) / estimate).floor() as usize).min(count)
            } else {
                0
            };
            let mut position = first as f32 * estimate;
            let mut measured = 0.0_f32;
            let mut rows = 0_usize;
            let mut cross_used = 0.0_f32;
            let mut i = first;
            while i < count {
                if virtual_rows && (position > view_end || rows >= MAX_LIST_ROWS_PER_PASS) {
                    break;
                }
                let key = row_key.with(("a2ui-row", i));
                let size_key = key.with("a2ui-row-size");
                let child_id = match statics.get(i) {
                    Some(child) => Some(child.id.as_str()),
                    None => template.as_ref().map(|t| t.component_id.as_str()),
                };
                let stretch = stretch
                    || (axis == Axis::Vertical
                        && cross_fixed.is_some()
                        && child_id.is_some_and(|id| spans_width(cx, id)));
                let offset = if stretch || align == CrossAlign::Start {
                    0.0
                } else {
                    let previous: Vec2 = ui.data(|d| d.get_temp(size_key)).unwrap_or_default();
                    align.offset(line, axis.cross(previous))
                };
                let rect = Rect::from_min_size(
                    base + axis.vec(position, offset),
                    axis.vec(row_max, if stretch { line } else { bounded(view_cross) }),
                );
                let extent = Extent::from_axes(axis, None, stretch.then_some(line));
                let fill_width = axis == Axis::Vertical
                    && stretch
                    && child_id.is_some_and(|id| fills_width(cx, id));
                let placed = Slot::new(key, rect, extent)
                    .fill_width(fill_width)
                    .role(Role::ListItem)
                    .show(ui, cx, |ui, cx| match statics.get(i) {
                        Some(child) => cx.child_ui(ui, child),
                        None => cx
                            .template_child_ui(ui, i)
                            .unwrap_or_else(|| ui.allocate_response(Vec2::ZERO, Sense::hover())),
                    });
                if matches!(align, CrossAlign::Center | CrossAlign::End) {
                    ui.data_mut(|d| d.insert_temp(size_key, placed.natural));
                }
                let main = axis.main(placed.natural) + if i + 1 < count { gap } else { 0.0 };
                position += main;
                measured += main;
                cross_used = cross_used.max(axis.cross(placed.natural));
                rows += 1;
                i += 1;
            }
            let content_main = if virtual_rows {
                (count as f32 * estimate).max(position)
            } else {
                position
            };
            let content_cross = if stretch { line } else { cross_used };
            ui.set_min_size(axis.vec(content_main, content_cross) + vec2(indent, 0.0));
            let average = if rows > 0 {
                measured / rows as f32
            } else {
                memory.row
            };
            (average, cross_used, content_main)
        })
    });
    let output = inner.inner;
    let (average, cross_used, content_main) = output.inner;
    // A list given its height by a stretching parent reports its content capped by the
    // screen, not by that height: the height may have come from the list itself.
    let natural_cap = match (axis, height) {
        (Axis::Vertical, Some(_)) => bounded(ui.ctx().content_rect().height()).max(MIN_LIST_HEIGHT),
        _ => main_cap,
    };
    let natural = axis.vec(content_main.min(natural_cap), cross_used);
    incoming.report(cx, natural);

    let mut next = memory;
    let changed =
        (average - memory.row).abs() > EPSILON || (cross_used - memory.cross).abs() > EPSILON;
    if changed {
        next.row = average;
        next.cross = cross_used;
    }
    next.settling.pass(ui, changed);
    ui.data_mut(|d| d.insert_temp(memory_key, next));
    inner.response
}
