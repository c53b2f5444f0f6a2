//! The slot protocol every container uses to place a child.
//!
//! egui lays a frame out in one pass, top-down, so a container cannot ask a child how big it
//! wants to be before placing it. A container therefore remembers the sizes its children had
//! in the previous pass (egui memory, keyed by the container's `widget_id`), plans with them,
//! draws every child in a child `Ui` with an exact rectangle (a *slot*) and measures again.
//! When a size changed it asks egui to discard the pass and run another (see
//! [`Settling`](super::flex::Settling)), so the first guess is never shown.
//!
//! A slot hands its child an [`Extent`]: per axis, either a size the child must fill (a
//! stretched or weighted child) or "size to content". A container drawn in a slot fills the
//! given axes and reports its *natural* (content) size back to the slot, so a stretched
//! child never feeds its stretched size into the next measurement and layouts cannot
//! ratchet. A leaf widget just draws; its natural size is what it allocated. Both ways go
//! through the stack of the slots open in the surface's walk, which the walk's frame owns
//! (reached through the [`ComponentContext`]): no allocation per slot, no round trip
//! through egui memory, and no state left on the drawing thread between frames.
//!
//! This module owns only geometry and the bookkeeping above; it touches no data model.

use egui::accesskit::Role;
use egui::{Align, Id, Layout, Rect, Response, Sense, Ui, UiBuilder, Vec2, vec2};

use super::ComponentContext;
use super::flex::{Axis, bounded, finite, sanitize_rect, sanitize_size};

/// How big a parent makes a child along each axis: `Some(size)` to fill exactly that size,
/// `None` to size to content. A container hands one to each child with [`Slot::new`]; a
/// component reads the one it was given with [`Incoming::of`].
///
/// ```
/// use egui_a2ui::catalog::{Axis, Extent};
///
/// // A child of a Row stretched to the row's 40 pt height, its width its own.
/// let e = Extent::from_axes(Axis::Horizontal, None, Some(40.0));
/// assert_eq!(e, Extent { width: None, height: Some(40.0) });
/// assert_eq!(e.across(Axis::Horizontal), Some(40.0));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Extent {
    /// The exact width, or `None` for content width.
    pub width: Option<f32>,
    /// The exact height, or `None` for content height.
    pub height: Option<f32>,
}

impl Extent {
    /// The extent along `axis`.
    pub fn along(self, axis: Axis) -> Option<f32> {
        match axis {
            Axis::Horizontal => self.width,
            Axis::Vertical => self.height,
        }
    }

    /// The extent across `axis`.
    pub fn across(self, axis: Axis) -> Option<f32> {
        match axis {
            Axis::Horizontal => self.height,
            Axis::Vertical => self.width,
        }
    }

    /// An extent from its main and cross parts.
    pub fn from_axes(axis: Axis, main: Option<f32>, cross: Option<f32>) -> Self {
        match axis {
            Axis::Horizontal => Self {
                width: main,
                height: cross,
            },
            Axis::Vertical => Self {
                width: cross,
                height: main,
            },
        }
    }

    /// Both axes made smaller by `by` (padding), never below zero.
    pub fn shrink(self, by: Vec2) -> Self {
        Self {
            width: self.width.map(|w| (w - by.x).max(0.0)),
            height: self.height.map(|h| (h - by.y).max(0.0)),
        }
    }
}

/// What a slot hands its child: the extent, and where to report a natural size.
#[derive(Clone, Copy, Debug)]
struct SlotTag {
    extent: Extent,
    report: Id,
    /// The margin the slot keeps around the child (see [`Slot::margin`]).
    margin: f32,
}

/// A slot whose child is being drawn: what it hands the child, and what the child
/// reported back.
pub(crate) struct OpenSlot {
    /// The slot's `Ui`.
    ui: Id,
    tag: SlotTag,
    natural: Option<Vec2>,
    basis: Option<Vec2>,
    /// What content drawn inside the child but not in a slot of its own (the label of a
    /// Button) reported of its widths: the widest drawn, max-content and min-content widths
    /// ([`Incoming::report_content_widths`]).
    inner: Option<InnerWidths>,
}

/// Widths of content drawn inside a slot's child without a slot of its own: the largest of
/// each over every such report.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct InnerWidths {
    drawn: f32,
    widest: f32,
    min: f32,
}

impl InnerWidths {
    /// The child's max-content and min-content widths, from its `natural` width: the
    /// child's own chrome (padding, border) is what it drew beyond its content.
    fn basis(self, natural: f32) -> Vec2 {
        let chrome = (natural - self.drawn).max(0.0);
        let widest = chrome + self.widest.max(self.drawn);
        sanitize_size(vec2(widest, (chrome + self.min).min(widest)))
    }
}

/// The slots open in one surface's walk, innermost last, owned by the walk's frame. A slot
/// is open while its child draws, so the child finds what its slot asks of it and reports
/// back here, without an allocation per slot (egui's `Ui` tags are a map of its own per
/// `Ui`) or a round trip through egui memory. The buffer is lent by the drawing state from
/// frame to frame ([`Self::with_buffer`], [`Self::take_buffer`]).
#[derive(Default)]
pub(crate) struct SlotStack(std::cell::RefCell<Vec<OpenSlot>>);

impl SlotStack {
    /// A stack over `buffer` (emptied first): a buffer kept from an earlier frame saves
    /// its allocation.
    pub(crate) fn with_buffer(mut buffer: Vec<OpenSlot>) -> Self {
        buffer.clear();
        Self(std::cell::RefCell::new(buffer))
    }

    /// The buffer, emptied, to lend to the next frame.
    pub(crate) fn take_buffer(&self) -> Vec<OpenSlot> {
        let mut buffer = self.0.take();
        buffer.clear();
        buffer
    }

    /// Open a slot for the child drawn into the `Ui` `ui`: its depth, for [`Self::close`].
    fn open(&self, ui: Id, tag: SlotTag) -> usize {
        let mut slots = self.0.borrow_mut();
        slots.push(OpenSlot {
            ui,
            tag,
            natural: None,
            basis: None,
            inner: None,
        });
        slots.len() - 1
    }

    /// Close the slot at `depth` (and any a child left open inside it): what its child
    /// reported (natural size, basis, inner widths).
    fn close(&self, depth: usize) -> (Option<Vec2>, Option<Vec2>, Option<InnerWidths>) {
        let mut slots = self.0.borrow_mut();
        let reported = slots
            .get(depth)
            .map_or((None, None, None), |s| (s.natural, s.basis, s.inner));
        slots.truncate(depth);
        reported
    }

    /// Record a report of the child of the open slot `report` (ignored once it closed).
    fn report(&self, report: Id, f: impl FnOnce(&mut OpenSlot)) {
        if let Some(s) = self
            .0
            .borrow_mut()
            .iter_mut()
            .rev()
            .find(|s| s.tag.report == report)
        {
            f(s);
        }
    }
}

/// What the parent of a component asks of it, and where to report its natural size.
///
/// A container reads it first thing ([`Incoming::of`]), sizes itself from
/// [`extent`](Self::extent) (filling an axis given a size, sizing the other to its
/// content), and at the end reports the size its content needs with [`Incoming::report`],
/// whatever it was stretched to, so that its parent's next measurement does not ratchet.
/// A leaf widget may ignore it: its natural size is what it allocated. See [`Slot`] for a
/// whole container.
#[derive(Clone, Copy, Debug)]
pub struct Incoming {
    /// The extent to fill.
    pub extent: Extent,
    report: Option<Id>,
    margin: f32,
}

impl Incoming {
    /// What the parent of the component drawing into `ui` (with `cx`) asks of it. Outside
    /// a slot (the surface root, a child of a host or foreign widget) a container behaves
    /// like a block: it fills the available width and sizes its height to content.
    pub fn of(ui: &Ui, cx: &ComponentContext<'_, '_>) -> Self {
        // The renderer's `Ui` is the per-node scope the tree walk opens inside the slot, so
        // the tag sits on it or on its parent. Looking further up would pick up the slot of
        // some ancestor (e.g. a Button wrapping this node) and apply its sizes here.
        // A `Ui` of a known kind (a frame, a button's content) is not a node wrapper: a node
        // drawn straight into it is not in its parent's slot.
        let stack = ui.stack();
        let parent = stack
            .parent
            .as_deref()
            .filter(|_| stack.kind().is_none())
            .map(|p| p.unique_id);
        let tag = cx
            .frame
            .slots
            .0
            .borrow()
            .iter()
            .rev()
            .find(|s| s.ui == stack.unique_id || Some(s.ui) == parent)
            .map(|s| s.tag);
        match tag {
            Some(t) => Self {
                extent: t.extent,
                report: Some(t.report),
                margin: t.margin,
            },
            None => Self {
                extent: Extent {
                    width: finite(ui.available_width()),
                    height: None,
                },
                report: None,
                margin: 0.0,
            },
        }
    }

    /// Whether the component is drawn in a container's slot (else it is the surface root or
    /// inside a leaf widget such as a Button).
    pub fn in_slot(&self) -> bool {
        self.report.is_some()
    }

    /// The margin the slot already keeps around the component ([`Slot::margin`], given to
    /// components whose traits ask for it,
    /// [`ComponentTraits::with_inset`](crate::render::catalog::ComponentTraits::with_inset)):
    /// `0` when the component is to apply its margin itself.
    pub fn margin(&self) -> f32 {
        self.margin
    }

    /// Tell the parent slot (if any) the width the content would take unwrapped (CSS
    /// max-content), when that differs from what it drew: a text wrapped in a narrow slot.
    /// A row shrinks its children from these widths, so wrapping never feeds back.
    /// `min` is the narrowest it can wrap to (CSS min-content), below which a row does not
    /// shrink it.
    pub fn report_basis(&self, cx: &ComponentContext<'_, '_>, width: f32, min: f32) {
        if let Some(id) = self.report {
            let basis = sanitize_size(vec2(width, min.min(width)));
            cx.frame.slots.report(id, |s| s.basis = Some(basis));
        }
    }

    /// Report a content's widths wherever they count: to the parent slot as its basis
    /// ([`report_basis`](Self::report_basis)) when the component is in a slot; otherwise
    /// (a Button's label, content drawn inside a leaf widget) to the innermost slot being
    /// drawn, whose child then takes `widest` (max-content) and `min` (min-content) plus
    /// whatever it draws around this content (`drawn` wide) as its own basis and
    /// min-content width. A row then never shrinks a button below its label's longest
    /// word plus padding, however the button draws its label.
    pub fn report_content_widths(
        &self,
        cx: &ComponentContext<'_, '_>,
        drawn: f32,
        widest: f32,
        min: f32,
    ) {
        if self.report.is_some() {
            self.report_basis(cx, widest.max(drawn), min);
            return;
        }
        let clean = |v: f32| if v.is_finite() { v.max(0.0) } else { 0.0 };
        if let Some(s) = cx.frame.slots.0.borrow_mut().last_mut() {
            let mut inner = s.inner.unwrap_or_default();
            inner.drawn = inner.drawn.max(clean(drawn));
            inner.widest = inner.widest.max(clean(widest));
            inner.min = inner.min.max(clean(min));
            s.inner = Some(inner);
        }
    }

    /// Tell the parent slot (if any) how big the content is, independent of any stretching.
    /// Without a report the parent measures what the component allocated.
    pub fn report(&self, cx: &ComponentContext<'_, '_>, natural: Vec2) {
        if let Some(id) = self.report {
            let natural = sanitize_size(natural);
            cx.frame.slots.report(id, |s| s.natural = Some(natural));
        }
    }
}

/// A child drawn in a slot ([`Slot::show`]).
#[derive(Debug)]
pub struct Placed {
    /// The child's own response.
    pub response: Response,
    /// The slot `Ui`'s response, when the slot was given a sense ([`Slot::sense`]); `None`
    /// otherwise (a slot that senses nothing has nothing to say, and reading its response
    /// costs a lookup per child).
    pub slot: Option<Response>,
    /// How big the child's content is, whatever it was stretched to: what it reported with
    /// [`Incoming::report`], else what it allocated.
    pub natural: Vec2,
    /// The width the child reported as its flex basis and its min-content width
    /// ([`Incoming::report_basis`]), if it did; else, for a leaf whose content reported its
    /// widths ([`Incoming::report_content_widths`]), those widths plus the leaf's chrome.
    pub basis: Option<Vec2>,
}

/// A child `Ui` with an exact rectangle that tells the child how big to be: how a container
/// draws each of its children.
///
/// egui lays a frame out in one pass, so a container cannot ask a child its size before
/// placing it. It plans with what it measured in the previous pass (kept in egui memory
/// under its [`ComponentContext::widget_id`](crate::render::ComponentContext::widget_id)), draws each child in a slot, reads the
/// child's natural size from [`Placed::natural`], and asks egui for another pass
/// (`request_discard`) when a size it planned with changed. A container that places its
/// children from sizes measured in the same pass, as below, needs no memory.
///
/// The child itself is drawn through [`ComponentContext::child_ui`](crate::render::ComponentContext::child_ui), so it gets every
/// guard of the tree walk (missing child, cycle, depth, node budget, unknown type).
///
/// A two-column grid (cells share a row by their `weight`, rows stack top to bottom):
///
/// ```
/// use egui::{Rect, Sense, Vec2, vec2};
/// use egui_a2ui::ComponentContext;
/// use egui_a2ui::catalog::{Extent, Incoming, Justify, Slot, plan_main};
///
/// fn grid(ui: &mut egui::Ui, cx: &mut ComponentContext<'_, '_>) -> egui::Response {
///     let incoming = Incoming::of(ui, cx);
///     let width = incoming.extent.width.unwrap_or_else(|| ui.available_width());
///     let origin = ui.available_rect_before_wrap().min;
///     let gap = 8.0;
///     let children = cx.children();
///     let mut y = 0.0;
///     let mut natural = Vec2::ZERO;
///     for (r, row) in children.chunks(2).enumerate() {
///         let weights: Vec<f32> = row.iter().map(|c| cx.child_weight(&c.id)).collect();
///         // Every cell grows (`stretch`): the row's width is shared by weight.
///         let plan = plan_main(Some(width), &[0.0, 0.0], &weights, Justify::Stretch, gap);
///         let (mut x, mut height) = (0.0, 0.0_f32);
///         for (i, child) in row.iter().enumerate() {
///             x += plan.lead[i];
///             let w = plan.grow[i].unwrap_or(0.0);
///             let rect = Rect::from_min_size(origin + vec2(x, y), vec2(w, 10_000.0));
///             let placed = Slot::new(cx.widget_id().with((r, i)), rect, Extent {
///                 width: Some(w),
///                 height: None,
///             })
///             .fill_width(cx.child_traits(&child.id).fills_width())
///             .show(ui, cx, |ui, cx| cx.child_ui(ui, child));
///             height = height.max(placed.natural.y);
///             x += w;
///         }
///         natural = vec2(natural.x.max(x), y + height);
///         y += height + gap;
///     }
///     let response = ui.allocate_rect(
///         Rect::from_min_size(origin, vec2(width, natural.y)),
///         Sense::hover(),
///     );
///     incoming.report(cx, natural);
///     response
/// }
///
/// let mut catalog = egui_a2ui::Catalog::basic();
/// catalog.register("Grid", grid);
/// ```
#[must_use = "a slot draws nothing until `.show(ui, add)`"]
pub struct Slot {
    key: Id,
    rect: Rect,
    extent: Extent,
    fill_width: bool,
    role: Option<Role>,
    sense: Option<Sense>,
    margin: f32,
}

impl Slot {
    /// A slot at `rect` (the child may not draw beyond it, except to overflow) asking for
    /// `extent`. `key` must be unique among the parent's slots and stable across passes.
    pub fn new(key: Id, rect: Rect, extent: Extent) -> Self {
        Self {
            key,
            rect: sanitize_rect(rect),
            extent,
            fill_width: false,
            role: None,
            sense: None,
            margin: 0.0,
        }
    }

    /// Keep `margin` around the child on every side: it draws in the rectangle and extent
    /// less the margin, and its natural size is what it drew plus the margin. For a child
    /// whose traits ask for the control margin
    /// ([`ComponentTraits::inset`](crate::render::catalog::ComponentTraits::inset)): it then
    /// needs no `Ui` of its own for it ([`Incoming::margin`] tells it).
    pub fn margin(mut self, margin: f32) -> Self {
        self.margin = bounded(margin).max(0.0);
        self
    }

    /// Make leaf widgets (text fields, buttons) fill the slot's width (a justified egui
    /// layout). Only sound where the width does not come from the child's own measured
    /// width, or the width would ratchet; and only for children whose
    /// [`ComponentTraits::fills_width`](crate::render::catalog::ComponentTraits::fills_width) says
    /// so ([`ComponentContext::child_traits`](crate::render::ComponentContext::child_traits)).
    pub fn fill_width(mut self, fill: bool) -> Self {
        self.fill_width = fill;
        self
    }

    /// The AccessKit role of the slot's node (a list item, a tab panel).
    pub fn role(mut self, role: Role) -> Self {
        self.role = Some(role);
        self
    }

    /// Let the slot itself sense input behind the child (a clickable Modal trigger).
    pub fn sense(mut self, sense: Sense) -> Self {
        self.sense = Some(sense);
        self
    }

    /// Draw the child with `add` (usually [`ComponentContext::child_ui`]), which gets the
    /// slot's `Ui` and `cx` back, and measure it.
    pub fn show<'c, 'f>(
        self,
        ui: &mut Ui,
        cx: &mut ComponentContext<'c, 'f>,
        add: impl FnOnce(&mut Ui, &mut ComponentContext<'c, 'f>) -> Response,
    ) -> Placed {
        let margin = self.margin;
        let inset = Vec2::splat(2.0 * margin);
        let tag = SlotTag {
            extent: self.extent.shrink(inset),
            report: self.key.with("a2ui-natural"),
            margin,
        };
        let mut rect = self.rect;
        if margin > 0.0 {
            rect = rect.shrink(margin);
            rect.max = rect.max.max(rect.min);
        }
        let mut builder = UiBuilder::new()
            .id_salt(self.key)
            // On the pixel grid: flex arithmetic gives fractional positions, and egui
            // blurs (and in debug builds flags) widgets placed between pixels.
            .max_rect(egui::emath::GuiRounding::round_to_pixels(
                rect,
                ui.pixels_per_point(),
            ))
            .layout(Layout::top_down(Align::Min).with_cross_justify(self.fill_width));
        if let Some(role) = self.role {
            builder = builder.accessibility_role(role);
        }
        if let Some(sense) = self.sense {
            builder = builder.sense(sense);
        }
        let mut child = ui.new_child(builder);
        let depth = cx.frame.slots.open(child.unique_id(), tag);
        let response = add(&mut child, cx);
        let (reported, basis, inner) = cx.frame.slots.close(depth);
        // A basis is two widths (unwrapped and min-content): both gain the margin.
        let basis = basis.map(|b| {
            if margin > 0.0 {
                b + Vec2::splat(inset.x)
            } else {
                b
            }
        });
        let drawn = reported.unwrap_or_else(|| child.min_size());
        let natural = sanitize_size(if margin > 0.0 { drawn + inset } else { drawn });
        // A leaf that reported nothing itself: its widths from the content drawn in it.
        let basis = basis.or_else(|| inner.map(|i| i.basis(natural.x)));
        let slot = self.sense.is_some().then(|| child.response());
        Placed {
            response,
            slot,
            natural,
            basis,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use super::*;
    use crate::render::Renderer;
    use crate::render::catalog::Catalog;

    /// What the probe saw of its child slots: (max rect, margin, width) and the natural
    /// size, for the slot with a margin and the one without.
    type Seen = Vec<(Rect, f32, Option<f32>, Vec2)>;

    /// One frame of a surface whose root is a host component drawing two slots.
    fn probe() -> Seen {
        let seen = Arc::new(Mutex::new(Seen::new()));
        let out = Arc::clone(&seen);
        let mut catalog = Catalog::basic();
        catalog.register(
            "Probe",
            move |ui: &mut Ui, cx: &mut ComponentContext<'_, '_>| {
                let rect = Rect::from_min_size(egui::pos2(10.0, 20.0), vec2(200.0, 100.0));
                let extent = Extent {
                    width: Some(200.0),
                    height: None,
                };
                for (key, margin) in [("s", 8.0), ("t", 0.0)] {
                    let mut inside = None;
                    let placed = Slot::new(Id::unique(key), rect, extent)
                        .margin(margin)
                        .show(ui, cx, |ui, cx| {
                            let incoming = Incoming::of(ui, cx);
                            inside =
                                Some((ui.max_rect(), incoming.margin(), incoming.extent.width));
                            ui.allocate_exact_size(vec2(50.0, 20.0), Sense::hover()).1
                        });
                    if let (Some((max, m, w)), Ok(mut seen)) = (inside, out.lock()) {
                        seen.push((max, m, w, placed.natural));
                    }
                }
                ui.label("probe")
            },
        );
        let mut r = Renderer::new(catalog);
        r.feed_document(
            br#"{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json"}}
{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Probe"}]}}
"#,
        );
        let ctx = egui::Context::default();
        let mut out = ctx.run_ui(egui::RawInput::default(), |ui| {
            let _ = r.ui(ui);
        });
        out.textures_delta.clear();
        seen.lock().map(|s| s.clone()).unwrap_or_default()
    }

    #[test]
    fn a_slot_margin_insets_the_child_and_is_counted_in_its_natural_size() {
        let seen = probe();
        assert_eq!(seen.len(), 2, "both children drawn: {seen:?}");
        let (max, margin, width, natural) = seen[0];
        assert_eq!(max.min, egui::pos2(18.0, 28.0));
        assert_eq!(max.width(), 184.0);
        assert_eq!(margin, 8.0);
        assert_eq!(width, Some(184.0));
        assert_eq!(natural, vec2(66.0, 36.0));
        // Without a margin the child has the whole slot and no margin to skip.
        let (max, margin, _, natural) = seen[1];
        assert_eq!((max.min, margin), (egui::pos2(10.0, 20.0), 0.0));
        assert_eq!(natural, vec2(50.0, 20.0));
    }
}
