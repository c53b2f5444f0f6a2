//! `Row` and `Column`: children in a flex line. The plan is the render core's public flex
//! engine ([`crate::render::flex`]); drawing each child in a [`Slot`] and remembering the
//! measurements between passes is here, built only on the public component API (a host
//! container can do the same).

use egui::{Id, Rect, Response, Ui, Vec2};

use crate::catalog::ComponentRenderer;
use crate::catalog::{
    Axis, CrossAlign, EPSILON, Justify, Settling, bounded, differs, finite, plan_main,
    sanitize_rect, shrink_row, weight_of,
};
use crate::catalog::{Extent, Incoming, Slot};
use crate::render::ComponentContext;

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

/// Whether the child `child_id` should have its leaf widgets fill a stretched slot's width.
///
/// egui makes a widget fill the width through a justified layout, and a justified layout
/// also justifies wrapped text word by word; a `Text` is therefore never made to fill (its
/// box would be invisible anyway). Containers size themselves from the slot's extent and
/// ignore the layout, so for them this changes nothing. Declared by the child's type
/// ([`ComponentTraits::fills_width`](crate::catalog::ComponentTraits::fills_width)).
pub(crate) fn fills_width(cx: &ComponentContext<'_, '_>, child_id: &str) -> bool {
    cx.child_traits(child_id).fills_width()
}

/// Whether the child `child_id` spans the full width of a column it sits in whatever the
/// column's `align`: a List is a scrolling block, laid out across the column rather than
/// aligned in it. (A Row is aligned like any other child, as in the web renderer: a row of
/// buttons in a centred column is centred.) Components the web renderer gives `width: 100%`
/// (Column, TextField, ChoicePicker) or lays out as a block (List) declare it
/// ([`ComponentTraits::full_width`](crate::catalog::ComponentTraits::full_width)): in a
/// column they span its width whatever its `align`; in a row their flex basis is the row's
/// whole length, so they share it with their siblings by shrinking (CSS `flex-shrink`).
pub(crate) fn spans_width(cx: &ComponentContext<'_, '_>, child_id: &str) -> bool {
    cx.child_traits(child_id).full_width()
}

/// What a flex container needs to know of one child, read with one component lookup.
#[derive(Clone, Copy, Debug, Default)]
struct ChildTraits {
    /// `weight` (flex-grow): positive and finite, else `0` (no weight).
    weight: f32,
    /// See [`fills_width`].
    fills: bool,
    /// See [`spans_width`].
    spans: bool,
    /// The control margin its slot keeps around it
    /// ([`ComponentTraits::inset`](crate::catalog::ComponentTraits::inset)), else `0`.
    margin: f32,
}

fn child_traits(cx: &ComponentContext<'_, '_>, child_id: &str) -> ChildTraits {
    let Some(c) = cx.surface().components().get(child_id) else {
        return ChildTraits {
            weight: 0.0,
            fills: true,
            spans: false,
            margin: 0.0,
        };
    };
    let traits = cx.traits_of(c);
    ChildTraits {
        weight: weight_of(c),
        fills: traits.fills_width(),
        spans: traits.full_width(),
        margin: if traits.inset() {
            cx.style().checkbox_margin
        } else {
            0.0
        },
    }
}

/// What a flex container remembers between passes.
#[derive(Clone, Debug, Default)]
struct FlexMemory {
    /// Each child's natural size.
    naturals: Vec<Vec2>,
    /// Each child's flex basis along a row (its unwrapped width).
    bases: Vec<f32>,
    /// Each child's min-content width along a row.
    mins: Vec<f32>,
    /// Passes in a row whose measurements changed.
    settling: Settling,
}

/// Lay `Row` (`Axis::Horizontal`) or `Column` (`Axis::Vertical`) children out as a flex line.
pub(crate) fn flex_ui(
    ui: &mut Ui,
    cx: &mut ComponentContext<'_, '_>,
    axis: Axis,
    justify: Justify,
    align: CrossAlign,
) -> Response {
    let children = cx.children_shared();
    let traits: Vec<ChildTraits> = children.iter().map(|c| child_traits(cx, &c.id)).collect();
    let weights: Vec<f32> = traits.iter().map(|t| t.weight).collect();
    let memory_key = cx.widget_id().with("a2ui-flex");
    // Taken out (not cloned) and put back by `remember` at the end of the pass; the entry
    // stays in egui's memory meanwhile, so a steady frame neither allocates nor rehashes it.
    let memory: FlexMemory =
        ui.data_mut(|d| std::mem::take(d.get_temp_mut_or_default::<FlexMemory>(memory_key)));
    let previous = |i: usize| memory.naturals.get(i).copied().unwrap_or(Vec2::ZERO);

    let incoming = Incoming::of(ui, cx);
    let available = sanitize_rect(ui.available_rect_before_wrap());
    let origin = available.min;
    let main_fixed = incoming.extent.along(axis).and_then(finite);
    let cross_fixed = incoming.extent.across(axis).and_then(finite);
    let main_limit = main_fixed.unwrap_or_else(|| bounded(axis.main(available.size())));
    let cross_limit = cross_fixed.unwrap_or_else(|| bounded(axis.cross(available.size())));

    let previous_main: Vec<f32> = (0..children.len())
        .map(|i| axis.main(previous(i)))
        .collect();
    let gap = cx.style().flex_gap;
    let mut plan = plan_main(main_fixed, &previous_main, &weights, justify, gap);
    // Which children the row shrank below their basis this pass (CSS `flex-shrink`).
    let mut shrunk = vec![false; children.len()];
    if axis == Axis::Horizontal
        && let Some(length) = main_fixed
    {
        shrink_line(
            length,
            gap,
            &traits,
            &memory,
            &previous_main,
            &mut plan,
            &mut shrunk,
        );
    }
    let line = cross_fixed.unwrap_or_else(|| {
        (0..children.len())
            .map(|i| axis.cross(previous(i)))
            .fold(0.0, f32::max)
    });
    // Stretching hands the line's cross size down as an exact size. A height may come from
    // the children's own heights (a Row sized to its tallest child): containers report
    // their natural height apart from the stretched one, so that cannot ratchet. A width
    // may not: text wraps to it and would measure no wider than it was given, so a Column
    // sized to its content leaves its children at their own widths.
    let stretch =
        align == CrossAlign::Stretch && (axis == Axis::Horizontal || cross_fixed.is_some());
    // Culling needs last pass's measurements of these very children, settled.
    let cull = cx.options().cull_offscreen
        && !ui.is_sizing_pass()
        && memory.settling.is_settled()
        && memory.naturals.len() == children.len()
        && memory.bases.len() == children.len()
        && memory.mins.len() == children.len();

    // The slots are placed in the node's own `Ui` (no scope around them: a `Ui` less per
    // container), which then takes the line's rectangle.
    let (naturals, bases, natural, widths) = {
        let mut naturals = Vec::with_capacity(children.len());
        let mut bases = Vec::with_capacity(children.len());
        let mut mins = Vec::with_capacity(children.len());
        let mut position = 0.0_f32;
        // Main size taken by children sized to content, measured this pass: what is left
        // is what the next such child may wrap to. Growing children are left out, their
        // basis is zero.
        let mut taken = 0.0_f32;
        let mut cross_used = 0.0_f32;
        for (i, child) in children.iter().enumerate() {
            position += plan.lead.get(i).copied().unwrap_or(0.0);
            if i > 0 {
                taken += gap;
            }
            let grow = plan.grow.get(i).copied().flatten();
            let main_size = grow.unwrap_or((main_limit - taken).max(0.0));
            let stretch =
                stretch || (axis == Axis::Vertical && cross_fixed.is_some() && traits[i].spans);
            let (cross_offset, cross_size, cross_extent) = if stretch {
                (0.0, line, Some(line))
            } else {
                let offset = align.offset(line, axis.cross(previous(i)));
                (offset, cross_limit, None)
            };
            let rect = Rect::from_min_size(
                origin + axis.vec(position, cross_offset),
                axis.vec(main_size, cross_size),
            );
            let extent = Extent::from_axes(axis, grow, cross_extent);
            let fill_width = match axis {
                Axis::Horizontal => grow.is_some(),
                Axis::Vertical => cross_extent.is_some(),
            } && traits[i].fills;
            // Off-screen culling (`RendererOptions::cull_offscreen`): a child of a settled
            // line whose box from the last pass lies wholly outside the visible area is not
            // drawn; it keeps its place and last measurements.
            let last_box = Rect::from_min_size(
                rect.min,
                axis.vec(
                    grow.unwrap_or(axis.main(previous(i))),
                    if stretch {
                        line
                    } else {
                        axis.cross(previous(i))
                    },
                ),
            );
            let culled = cull && !ui.clip_rect().intersects(last_box);
            let remembered = |v: &Vec<f32>, or: f32| v.get(i).copied().unwrap_or(or);
            let natural = if culled {
                bases.push(remembered(&memory.bases, previous(i).x));
                mins.push(remembered(&memory.mins, 0.0));
                previous(i)
            } else {
                let key = cx
                    .widget_id()
                    .with(("a2ui-slot", i, &child.id, &child.scope));
                let placed = Slot::new(key, rect, extent)
                    .fill_width(fill_width)
                    .margin(traits[i].margin)
                    .show(ui, cx, |ui, cx| cx.child_ui_exclusive(ui, child));
                let (basis, min) = match placed.basis {
                    Some(b) => (b.x, b.y),
                    None => {
                        // A leaf that says nothing of its widths (an image, a slider):
                        // its drawn width is its basis, unless the row shrank it (then it
                        // keeps the basis it had, or shrinking would feed back); a leaf
                        // that drew wider than its slot cannot be narrower, so that is
                        // its min-content width too.
                        let drawn = placed.natural.x;
                        let basis = if shrunk[i] {
                            remembered(&memory.bases, drawn)
                        } else {
                            drawn
                        };
                        let overflowed = drawn > rect.width() + EPSILON;
                        let min = if overflowed {
                            drawn.max(remembered(&memory.mins, 0.0))
                        } else {
                            remembered(&memory.mins, 0.0)
                        };
                        (basis, min.min(basis))
                    }
                };
                bases.push(basis);
                mins.push(min);
                placed.natural
            };
            let advance = grow.unwrap_or(axis.main(natural));
            if grow.is_none() {
                taken += advance;
            }
            position += advance;
            cross_used = cross_used.max(axis.cross(natural));
            naturals.push(natural);
        }
        // A fixed width is kept even when the children overflow it (they would wrap had
        // they measured it); a fixed height grows to the content instead of overlapping
        // what follows, as it can only be short while a stretched line is still settling.
        let main_len = match (main_fixed, axis) {
            (Some(m), Axis::Horizontal) => m,
            (Some(m), Axis::Vertical) => m.max(position),
            (None, _) => position,
        };
        let cross_len = match (cross_fixed, axis) {
            (Some(c), Axis::Vertical) => c,
            (Some(c), Axis::Horizontal) => c.max(cross_used),
            (None, _) => cross_used,
        };
        let rect = Rect::from_min_size(origin, axis.vec(main_len, cross_len));
        ui.advance_cursor_after_rect(egui::emath::GuiRounding::round_to_pixels(
            rect,
            ui.pixels_per_point(),
        ));
        // Along a row the content's size is its children's bases (unwrapped widths), so a
        // row that wrapped some text to fit does not report itself narrower.
        // A basis within a point of the drawn width is the drawn width (texts round their
        // basis up so a slot of that width never wraps them): the content's size stays
        // exact.
        let content: Vec<f32> = bases
            .iter()
            .zip(&naturals)
            .map(|(b, n)| if (b - n.x).abs() < 1.0 { n.x } else { *b })
            .collect();
        let gaps = gap * naturals.len().saturating_sub(1) as f32;
        let main_sizes: f32 = match axis {
            Axis::Horizontal => content.iter().sum(),
            Axis::Vertical => naturals.iter().map(|n| axis.main(*n)).sum(),
        };
        let natural_main = main_sizes + gaps;
        // The line's own widths for the row it may sit in (CSS max-content and
        // min-content): a row's are its children's summed, a column's their largest.
        let widths = match axis {
            Axis::Horizontal => (natural_main, mins.iter().sum::<f32>() + gaps),
            Axis::Vertical => (
                content.iter().copied().fold(0.0, f32::max),
                mins.iter().copied().fold(0.0, f32::max),
            ),
        };
        (
            naturals,
            (bases, mins),
            axis.vec(natural_main, cross_used),
            widths,
        )
    };
    incoming.report(cx, natural);
    incoming.report_content_widths(cx, natural.x, widths.0, widths.1);
    remember(ui, memory_key, memory, naturals, bases);
    ui.response()
}

/// Plan a row of fixed `length` as CSS flex does once the children's bases are known:
/// every unweighted child starts at its flex basis (its max-content width, or the row's
/// whole length for a full-width child such as a Column); when they overflow, each shrinks
/// in proportion to its basis but never below its min-content width (CSS `min-width:
/// auto`: a text's longest word, a button's label's longest word plus padding), and what
/// still overflows overflows. When nothing overflows, a full-width child takes what its
/// siblings leave. Marks the children given a width below their basis in `shrunk`.
fn shrink_line(
    length: f32,
    gap: f32,
    traits: &[ChildTraits],
    memory: &FlexMemory,
    previous_main: &[f32],
    plan: &mut crate::catalog::MainPlan,
    shrunk: &mut [bool],
) {
    let bases: Vec<Option<f32>> = traits
        .iter()
        .enumerate()
        .map(|(i, t)| {
            (t.weight <= 0.0).then(|| {
                if t.spans {
                    length
                } else {
                    memory
                        .bases
                        .get(i)
                        .copied()
                        .unwrap_or_else(|| previous_main.get(i).copied().unwrap_or(0.0))
                }
            })
        })
        .collect();
    let floors: Vec<f32> = (0..traits.len())
        .map(|i| memory.mins.get(i).copied().unwrap_or(0.0))
        .collect();
    if let Some(sizes) = shrink_row(length, &bases, &floors, gap) {
        for (i, size) in sizes.into_iter().enumerate() {
            if let (Some(size), Some(slot)) = (size, plan.grow.get_mut(i)) {
                *slot = Some(size);
                let basis = bases.get(i).copied().flatten().unwrap_or(size);
                shrunk[i] = size < basis - EPSILON && !traits[i].spans;
            }
            if let Some(lead) = plan.lead.get_mut(i) {
                *lead = if i == 0 { 0.0 } else { gap };
            }
        }
    } else if traits.iter().any(|t| t.spans && t.weight <= 0.0) {
        // Everything fits: a full-width child takes what its siblings leave.
        let others: f32 = bases
            .iter()
            .zip(traits)
            .filter(|(_, t)| !t.spans)
            .filter_map(|(b, _)| *b)
            .sum();
        let full = traits.iter().filter(|t| t.spans && t.weight <= 0.0).count();
        let gaps = gap * traits.len().saturating_sub(1) as f32;
        let each = ((length - others - gaps) / full.max(1) as f32).max(0.0);
        for (i, t) in traits.iter().enumerate() {
            if t.spans
                && t.weight <= 0.0
                && let Some(slot) = plan.grow.get_mut(i)
            {
                *slot = Some(each);
            }
        }
    }
}

/// Store this pass's measurements; when they moved, ask for another pass.
fn remember(
    ui: &Ui,
    key: Id,
    mut memory: FlexMemory,
    naturals: Vec<Vec2>,
    (bases, mins): (Vec<f32>, Vec<f32>),
) {
    let changed = naturals.len() != memory.naturals.len()
        || bases.len() != memory.bases.len()
        || naturals
            .iter()
            .zip(&memory.naturals)
            .any(|(a, b)| differs(*a, *b))
        || mins.len() != memory.mins.len()
        || bases
            .iter()
            .zip(&memory.bases)
            .chain(mins.iter().zip(&memory.mins))
            .any(|(a, b)| (a - b).abs() > EPSILON);
    if changed {
        memory.naturals = naturals;
        memory.bases = bases;
        memory.mins = mins;
    }
    memory.settling.pass(ui, changed);
    ui.data_mut(|d| *d.get_temp_mut_or_default::<FlexMemory>(key) = memory);
}

#[cfg(test)]
mod tests {
    use super::*;
    use egui::{ScrollArea, vec2};
    /// A Column of 100 Rows in a 300-point-high scroll area: (rows drawn in the last frame,
    /// the column's height, the scrolled-out row 90's recorded box).
    fn tall_column(cull: bool) -> (usize, f32, bool) {
        use crate::render::Renderer;
        use crate::render::RendererOptions;
        use crate::render::catalog::Catalog;
        let mut comps = vec![serde_json::json!({"id": "root", "component": "Column",
            "children": (0..100).map(|i| format!("r{i}")).collect::<Vec<_>>()})];
        for i in 0..100 {
            comps.push(
                serde_json::json!({"id": format!("r{i}"), "component": "Row",
                "children": [format!("t{i}")]}),
            );
            comps.push(
                serde_json::json!({"id": format!("t{i}"), "component": "Text",
                "text": format!("Row {i}")}),
            );
        }
        let doc = format!(
            "{}\n{}\n",
            serde_json::json!({"version": "v0.9", "createSurface": {"surfaceId": "s",
                "catalogId": "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json"}}),
            serde_json::json!({"version": "v0.9", "updateComponents": {"surfaceId": "s",
                "components": comps}})
        );
        let mut r = Renderer::new(Catalog::basic()).with_options(RendererOptions {
            show_surface_header: false,
            cull_offscreen: cull,
            ..Default::default()
        });
        r.feed_jsonl(doc.as_bytes());
        let ctx = egui::Context::default();
        let input = egui::RawInput {
            screen_rect: Some(Rect::from_min_size(egui::Pos2::ZERO, vec2(400.0, 300.0))),
            ..Default::default()
        };
        let mut height = 0.0;
        for _ in 0..6 {
            let mut out = ctx.run_ui(input.clone(), |ui| {
                ScrollArea::vertical().show(ui, |ui| {
                    let _ = r.ui(ui);
                    height = ui.min_rect().height();
                });
            });
            out.textures_delta.clear();
        }
        r.record_geometry(true);
        let mut out = ctx.run_ui(input, |ui| {
            ScrollArea::vertical().show(ui, |ui| {
                let _ = r.ui(ui);
            });
        });
        out.textures_delta.clear();
        let drawn = r.take_geometry();
        let rows = drawn.iter().filter(|d| d.component == "Row").count();
        let row90 = drawn.iter().any(|d| d.id == "r90");
        (rows, height, row90)
    }

    #[test]
    fn culling_skips_rows_out_of_view_and_keeps_their_place() {
        let (all, full_height, row90) = tall_column(false);
        assert_eq!(all, 100);
        assert!(row90);
        let (shown, culled_height, row90) = tall_column(true);
        assert!(
            shown > 0 && shown < 30,
            "{shown} rows drawn with culling on"
        );
        assert!(!row90, "a row scrolled out of view is not drawn");
        assert!(
            (culled_height - full_height).abs() < 1.0,
            "the column keeps its height: {culled_height} vs {full_height}"
        );
    }
}
