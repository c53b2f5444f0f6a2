//! Layout for the container components: the *slot* protocol every container uses to place a
//! child, a small flexbox for `Row` and `Column`, and the (virtualised) `List`.
//!
//! egui lays a frame out in one pass, top-down, so a container cannot ask a child how big it
//! wants to be before placing it. A container therefore remembers the sizes its children had
//! in the previous pass (egui memory, keyed by the container's `widget_id`), plans with them,
//! draws every child in a child `Ui` with an exact rectangle (a *slot*) and measures again.
//! When a size changed it asks egui to discard the pass and run another, so the first guess
//! is never shown.
//!
//! A slot hands its child an [`Extent`]: per axis, either a size the child must fill (a
//! stretched or weighted child) or "size to content". A container drawn in a slot fills the
//! given axes and reports its *natural* (content) size back to the slot, so a stretched
//! child never feeds its stretched size into the next measurement and layouts cannot
//! ratchet. A leaf widget just draws; its natural size is what it allocated. Both ways go
//! through a small stack of the slots open on the drawing thread (see `OPEN_SLOTS`): no
//! allocation per slot, no round trip through egui memory.
//!
//! Spacing follows the implementation guide's leaf-margin strategy: containers add no
//! padding and no gaps; leaf widgets and outlined controls carry their own margin.
//!
//! This module owns only geometry and the bookkeeping above; it reads the component tree
//! through [`ComponentContext`] and touches no data model.

use egui::accesskit::Role;
use egui::{Align, Id, Layout, Rect, Response, ScrollArea, Sense, Ui, UiBuilder, Vec2, vec2};
use serde_json::Value;

use super::ComponentContext;

/// Sizes closer than this (points) count as equal, so float noise never keeps a layout busy.
const EPSILON: f32 = 0.5;

/// Passes in a row a container may ask for because its measurements changed. A layout that
/// has not settled by then is left alone until something else repaints, rather than
/// burning a core on an oscillation.
const MAX_UNSETTLED: u8 = 6;

/// Stands in for an unbounded length (a `Ui` inside a scroll area) so rectangles stay finite.
const UNBOUNDED: f32 = 100_000.0;

/// Weights above this are clamped: they only matter relative to each other, and huge values
/// would make sums overflow.
const MAX_WEIGHT: f64 = 1.0e6;

/// A `List` never gets shorter than this when its height comes from the space left over.
const MIN_LIST_HEIGHT: f32 = 120.0;

/// Rows a list lays out in one pass at most, whatever the row sizes (zero-height rows would
/// otherwise make "fill the viewport" unbounded).
const MAX_LIST_ROWS_PER_PASS: usize = 256;

/// The row size a virtualised list assumes before it has measured one.
const DEFAULT_ROW_SIZE: f32 = 24.0;

/// A variant of the egui style in force that a component draws with.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum DerivedStyle {
    /// A button's content: labels do not take the click, and text takes `Some` colour.
    ButtonContent(Option<egui::Color32>),
    /// `item_spacing.y` set to this many points.
    ItemSpacingY(f32),
    /// A text field's group: `item_spacing.y` of `gap`, and the reference's field box (a
    /// 1 px border in every state, corners of `radius`).
    Field {
        /// `item_spacing.y`.
        gap: f32,
        /// The corner radius.
        radius: u8,
    },
}

/// What a `Text` node derives from its resolved string.
#[derive(Clone)]
pub(crate) struct TextEntry {
    /// Its Markdown blocks.
    pub(crate) blocks: std::sync::Arc<Vec<crate::render::markdown::Block>>,
    /// Its measured widths, for the font they were measured in.
    pub(crate) min_content: Option<TextWidths>,
}

/// A `Text`'s widths in one font: measured once per string and font rather than every
/// frame (each is a text layout).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct TextWidths {
    /// The font they were measured in.
    pub(crate) font: egui::FontId,
    /// The unwrapped width (CSS max-content), markers and indents included.
    pub(crate) widest: f32,
    /// The width of the longest word (CSS min-content).
    pub(crate) longest_word: f32,
}

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
}

/// A slot whose child is being drawn: what it hands the child, and what the child
/// reported back.
struct OpenSlot {
    /// The slot's `Ui`.
    ui: Id,
    tag: SlotTag,
    natural: Option<Vec2>,
    basis: Option<Vec2>,
}

thread_local! {
    /// The slots open on this thread, innermost last. A slot is open while its child draws
    /// (egui draws a `Ui` on one thread, start to end), so the child finds what its slot
    /// asks of it and reports back here, without an allocation per slot (egui's `Ui` tags
    /// are a map of its own per `Ui`) or a round trip through egui memory.
    static OPEN_SLOTS: std::cell::RefCell<Vec<OpenSlot>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Closes the slot it opened, also when the child's drawing unwinds.
struct OpenSlotGuard {
    depth: usize,
}

impl OpenSlotGuard {
    fn open(ui: Id, tag: SlotTag) -> Self {
        OPEN_SLOTS.with_borrow_mut(|slots| {
            let depth = slots.len();
            slots.push(OpenSlot {
                ui,
                tag,
                natural: None,
                basis: None,
            });
            Self { depth }
        })
    }

    /// Close the slot: what its child reported (natural size, basis).
    fn close(self) -> (Option<Vec2>, Option<Vec2>) {
        OPEN_SLOTS.with_borrow_mut(|slots| {
            slots
                .get(self.depth)
                .map_or((None, None), |s| (s.natural, s.basis))
        })
        // `drop` truncates.
    }
}

impl Drop for OpenSlotGuard {
    fn drop(&mut self) {
        OPEN_SLOTS.with_borrow_mut(|slots| slots.truncate(self.depth));
    }
}

/// Record a report of the child of the open slot `report` (ignored once it closed).
fn report_to_slot(report: Id, f: impl FnOnce(&mut OpenSlot)) {
    OPEN_SLOTS.with_borrow_mut(|slots| {
        if let Some(s) = slots.iter_mut().rev().find(|s| s.tag.report == report) {
            f(s);
        }
    });
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
}

impl Incoming {
    /// What the parent of the component drawing into `ui` asks of it. Outside a slot (the
    /// surface root, a child of a host or foreign widget) a container behaves like a block:
    /// it fills the available width and sizes its height to content.
    pub fn of(ui: &Ui) -> Self {
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
        let tag = OPEN_SLOTS.with_borrow(|slots| {
            slots
                .iter()
                .rev()
                .find(|s| s.ui == stack.unique_id || Some(s.ui) == parent)
                .map(|s| s.tag)
        });
        match tag {
            Some(t) => Self {
                extent: t.extent,
                report: Some(t.report),
            },
            None => Self {
                extent: Extent {
                    width: finite(ui.available_width()),
                    height: None,
                },
                report: None,
            },
        }
    }

    /// Whether the component is drawn in a container's slot (else it is the surface root or
    /// inside a leaf widget such as a Button).
    pub fn in_slot(&self) -> bool {
        self.report.is_some()
    }

    /// Tell the parent slot (if any) the width the content would take unwrapped (CSS
    /// max-content), when that differs from what it drew: a text wrapped in a narrow slot.
    /// A row shrinks its children from these widths, so wrapping never feeds back.
    /// `min` is the narrowest it can wrap to (CSS min-content), below which a row does not
    /// shrink it.
    pub fn report_basis(&self, _ui: &Ui, width: f32, min: f32) {
        if let Some(id) = self.report {
            let basis = sanitize_size(vec2(width, min.min(width)));
            report_to_slot(id, |s| s.basis = Some(basis));
        }
    }

    /// Tell the parent slot (if any) how big the content is, independent of any stretching.
    /// Without a report the parent measures what the component allocated.
    pub fn report(&self, _ui: &Ui, natural: Vec2) {
        if let Some(id) = self.report {
            let natural = sanitize_size(natural);
            report_to_slot(id, |s| s.natural = Some(natural));
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
    /// ([`Incoming::report_basis`]), if it did.
    pub basis: Option<Vec2>,
}

/// A child `Ui` with an exact rectangle that tells the child how big to be: how a container
/// draws each of its children.
///
/// egui lays a frame out in one pass, so a container cannot ask a child its size before
/// placing it. It plans with what it measured in the previous pass (kept in egui memory
/// under its [`ComponentContext::widget_id`]), draws each child in a slot, reads the
/// child's natural size from [`Placed::natural`], and asks egui for another pass
/// (`request_discard`) when a size it planned with changed. A container that places its
/// children from sizes measured in the same pass, as below, needs no memory.
///
/// The child itself is drawn through [`ComponentContext::child_ui`], so it gets every
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
///     let incoming = Incoming::of(ui);
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
///             .show(ui, |ui| cx.child_ui(ui, child));
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
///     incoming.report(ui, natural);
///     response
/// }
///
/// let mut catalog = egui_a2ui::Catalog::basic();
/// catalog.register("Grid", grid);
/// ```
pub struct Slot {
    key: Id,
    rect: Rect,
    extent: Extent,
    fill_width: bool,
    role: Option<Role>,
    sense: Option<Sense>,
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
        }
    }

    /// Make leaf widgets (text fields, buttons) fill the slot's width (a justified egui
    /// layout). Only sound where the width does not come from the child's own measured
    /// width, or the width would ratchet; and only for children whose
    /// [`ComponentTraits::fills_width`](crate::catalog::ComponentTraits::fills_width) says
    /// so ([`ComponentContext::child_traits`]).
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

    /// Draw the child with `add` (usually [`ComponentContext::child_ui`]) and measure it.
    pub fn show(self, ui: &mut Ui, add: impl FnOnce(&mut Ui) -> Response) -> Placed {
        let tag = SlotTag {
            extent: self.extent,
            report: self.key.with("a2ui-natural"),
        };
        let mut builder = UiBuilder::new()
            .id_salt(self.key)
            // On the pixel grid: flex arithmetic gives fractional positions, and egui
            // blurs (and in debug builds flags) widgets placed between pixels.
            .max_rect(egui::emath::GuiRounding::round_to_pixels(
                self.rect,
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
        let open = OpenSlotGuard::open(child.unique_id(), tag);
        let response = add(&mut child);
        let (reported, basis) = open.close();
        let natural = sanitize_size(reported.unwrap_or_else(|| child.min_size()));
        let slot = self.sense.is_some().then(|| child.response());
        Placed {
            response,
            slot,
            natural,
            basis,
        }
    }
}

/// A main axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Axis {
    /// Left to right (`Row`, horizontal `List`).
    Horizontal,
    /// Top to bottom (`Column`, vertical `List`).
    Vertical,
}

impl Axis {
    /// The main-axis component of `v`.
    pub fn main(self, v: Vec2) -> f32 {
        match self {
            Self::Horizontal => v.x,
            Self::Vertical => v.y,
        }
    }

    /// The cross-axis component of `v`.
    pub fn cross(self, v: Vec2) -> f32 {
        match self {
            Self::Horizontal => v.y,
            Self::Vertical => v.x,
        }
    }

    /// A vector from its main and cross components.
    pub fn vec(self, main: f32, cross: f32) -> Vec2 {
        match self {
            Self::Horizontal => vec2(main, cross),
            Self::Vertical => vec2(cross, main),
        }
    }
}

/// `justify`: distribution along the main axis (see [`plan_main`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Justify {
    /// Packed at the start (the default).
    #[default]
    Start,
    /// Packed in the middle.
    Center,
    /// Packed at the end.
    End,
    /// First and last at the edges, equal gaps between.
    SpaceBetween,
    /// Equal space around each child (half-size at the edges).
    SpaceAround,
    /// Equal gaps between children and at both edges.
    SpaceEvenly,
    /// Children share the whole length equally (each child without a `weight` grows as if
    /// it had weight 1).
    Stretch,
}

impl Justify {
    /// Parse a wire value; unknown or missing values are the default (`start`). Lenient
    /// about case and CSS spellings (`space-between`, `flex-end`).
    ///
    /// ```
    /// use egui_a2ui::catalog::Justify;
    /// assert_eq!(Justify::parse(Some("space-between")), Justify::SpaceBetween);
    /// assert_eq!(Justify::parse(None), Justify::Start);
    /// ```
    pub fn parse(value: Option<&str>) -> Self {
        match value.map(normalize_keyword).as_deref() {
            Some("center") => Self::Center,
            Some("end" | "flexend") => Self::End,
            Some("spacebetween") => Self::SpaceBetween,
            Some("spacearound") => Self::SpaceAround,
            Some("spaceevenly") => Self::SpaceEvenly,
            Some("stretch") => Self::Stretch,
            _ => Self::Start,
        }
    }
}

/// `align`: placement across the main axis.
///
/// ```
/// use egui_a2ui::catalog::CrossAlign;
/// let align = CrossAlign::parse(Some("center"));
/// // A 20 pt child in a 100 pt line.
/// assert_eq!(align.offset(100.0, 20.0), 40.0);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CrossAlign {
    /// At the start (top of a row, left of a column).
    Start,
    /// Centred.
    Center,
    /// At the end.
    End,
    /// Filling the cross size (the default for Row, Column and List).
    #[default]
    Stretch,
}

impl CrossAlign {
    /// Parse a wire value; unknown or missing values are the default (`stretch`).
    pub fn parse(value: Option<&str>) -> Self {
        match value.map(normalize_keyword).as_deref() {
            Some("start" | "flexstart") => Self::Start,
            Some("center") => Self::Center,
            Some("end" | "flexend") => Self::End,
            _ => Self::Stretch,
        }
    }

    /// The offset of a child of cross size `natural` in a line of cross size `line`.
    pub fn offset(self, line: f32, natural: f32) -> f32 {
        let free = (line - natural).max(0.0);
        match self {
            Self::Start | Self::Stretch => 0.0,
            Self::Center => free / 2.0,
            Self::End => free,
        }
    }
}

fn normalize_keyword(s: &str) -> String {
    s.chars()
        .filter(|c| !matches!(c, '-' | '_' | ' '))
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// Where each child of a flex line goes along the main axis ([`plan_main`]).
#[derive(Clone, Debug, PartialEq)]
pub struct MainPlan {
    /// Space before each child: the leading offset for the first, the gap for the others.
    pub lead: Vec<f32>,
    /// The exact main size of each growing child; `None` for a child sized to content.
    pub grow: Vec<Option<f32>>,
}

/// Plan a flex line of `length` (`None`: sized to content, so there is no free space and
/// neither `justify` nor `weight` has any effect) from the children's `naturals` (main
/// sizes, from the previous pass) and `weights` (flex-grow, `0` for none).
///
/// Growing children have a basis of zero (CSS `flex: <weight>`): they share the free space
/// in proportion to their weights, so weights 1:2 give widths 1:2. With `justify: stretch`
/// every child without a weight grows with weight 1.
///
/// ```
/// use egui_a2ui::catalog::{Justify, plan_main};
///
/// // Two children with weights 1 and 2 share a 300 pt line.
/// let plan = plan_main(Some(300.0), &[0.0, 0.0], &[1.0, 2.0], Justify::Start, 0.0);
/// assert_eq!(plan.grow, vec![Some(100.0), Some(200.0)]);
/// // Two 20 pt children without weights, centred in 100 pt.
/// let plan = plan_main(Some(100.0), &[20.0, 20.0], &[], Justify::Center, 0.0);
/// assert_eq!(plan.lead, vec![30.0, 0.0]);
/// ```
pub fn plan_main(
    length: Option<f32>,
    naturals: &[f32],
    weights: &[f32],
    justify: Justify,
    gap: f32,
) -> MainPlan {
    let n = naturals.len();
    let gap = finite(gap).unwrap_or(0.0).min(UNBOUNDED);
    let gaps = |lead: Vec<f32>| -> Vec<f32> {
        lead.into_iter()
            .enumerate()
            .map(|(i, l)| if i == 0 { l } else { l + gap })
            .collect()
    };
    let Some(length) = length.and_then(finite) else {
        return MainPlan {
            lead: gaps(vec![0.0; n]),
            grow: vec![None; n],
        };
    };
    let weights: Vec<f32> = (0..n)
        .map(|i| match weights.get(i).copied() {
            Some(w) if w > 0.0 && w.is_finite() => w,
            _ if justify == Justify::Stretch => 1.0,
            _ => 0.0,
        })
        .collect();
    let fixed: f32 = naturals
        .iter()
        .zip(&weights)
        .filter(|(_, w)| **w <= 0.0)
        .map(|(n, _)| if n.is_finite() { n.max(0.0) } else { 0.0 })
        .sum::<f32>()
        + gap * n.saturating_sub(1) as f32;
    let free = (length - fixed).max(0.0);
    let total: f32 = weights.iter().sum();
    let grow = weights
        .iter()
        .map(|w| (*w > 0.0 && total > 0.0).then(|| free * w / total))
        .collect();
    let left = if total > 0.0 { 0.0 } else { free };
    let count = n as f32;
    let (first, between) = match justify {
        Justify::Start | Justify::Stretch => (0.0, 0.0),
        Justify::Center => (left / 2.0, 0.0),
        Justify::End => (left, 0.0),
        Justify::SpaceBetween if n > 1 => (0.0, left / (count - 1.0)),
        Justify::SpaceBetween => (0.0, 0.0),
        Justify::SpaceAround if n > 0 => (left / count / 2.0, left / count),
        Justify::SpaceAround => (0.0, 0.0),
        Justify::SpaceEvenly => (left / (count + 1.0), left / (count + 1.0)),
    };
    let lead = (0..n)
        .map(|i| if i == 0 { first } else { between })
        .collect();
    MainPlan {
        lead: gaps(lead),
        grow,
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

/// A component's `weight` (flex-grow): positive and finite (at most [`MAX_WEIGHT`]), else
/// `0` (no weight).
pub(crate) fn weight_of(c: &crate::model::Component) -> f32 {
    let w = c.props.get("weight").and_then(Value::as_f64).unwrap_or(0.0);
    if w.is_finite() && w > 0.0 {
        w.min(MAX_WEIGHT) as f32
    } else {
        0.0
    }
}

/// Shrink a row's children as CSS does when their bases (`None` for a weighted child,
/// whose basis is zero) and the gaps overflow `length`: each loses a share of the overflow
/// proportional to its basis. Returns the exact width of every unweighted child, or `None`
/// when nothing overflows.
/// A child never shrinks below its min-content width (`floors`, CSS `min-width: auto`).
pub(crate) fn shrink_row(
    length: f32,
    bases: &[Option<f32>],
    floors: &[f32],
    gap: f32,
) -> Option<Vec<Option<f32>>> {
    let clean = |v: f32| if v.is_finite() { v.max(0.0) } else { 0.0 };
    let gaps = clean(gap) * bases.len().saturating_sub(1) as f32;
    let total: f32 = bases.iter().flatten().map(|b| clean(*b)).sum();
    if !(total + gaps - clean(length) > EPSILON && total > 0.0) {
        return None;
    }
    let mut sizes: Vec<Option<f32>> = bases.iter().map(|b| b.map(clean)).collect();
    let mut frozen = vec![false; bases.len()];
    // Each round freezes at least one child at its floor, or settles.
    for _ in 0..=bases.len() {
        let fixed: f32 = sizes
            .iter()
            .zip(&frozen)
            .filter(|(_, f)| **f)
            .filter_map(|(s, _)| *s)
            .sum();
        let open: f32 = bases
            .iter()
            .zip(&frozen)
            .filter(|(_, f)| !**f)
            .filter_map(|(b, _)| b.map(clean))
            .sum();
        let overflow = open + fixed + gaps - clean(length);
        let mut changed = false;
        for (i, b) in bases.iter().enumerate() {
            let (Some(b), false) = (b.map(clean), frozen[i]) else {
                continue;
            };
            let shrunk = if open > 0.0 {
                (b - overflow.max(0.0) * b / open).max(0.0)
            } else {
                b
            };
            let floor = clean(floors.get(i).copied().unwrap_or(0.0)).min(b);
            if shrunk < floor {
                sizes[i] = Some(floor);
                frozen[i] = true;
                changed = true;
            } else {
                sizes[i] = Some(shrunk);
            }
        }
        if !changed {
            break;
        }
    }
    Some(sizes)
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
}

fn child_traits(cx: &ComponentContext<'_, '_>, child_id: &str) -> ChildTraits {
    let Some(c) = cx.surface().components.get(child_id) else {
        return ChildTraits {
            weight: 0.0,
            fills: true,
            spans: false,
        };
    };
    let traits = cx.frame.catalog.traits_or_default(&c.component);
    ChildTraits {
        weight: weight_of(c),
        fills: traits.fills_width(),
        spans: traits.full_width(),
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
    let children = cx.children();
    let traits: Vec<ChildTraits> = children.iter().map(|c| child_traits(cx, &c.id)).collect();
    let weights: Vec<f32> = traits.iter().map(|t| t.weight).collect();
    let memory_key = cx.widget_id().with("a2ui-flex");
    // Taken out (not cloned); `remember` puts it back at the end of the pass.
    let memory: FlexMemory = ui
        .data_mut(|d| d.remove_temp(memory_key))
        .unwrap_or_default();
    let previous = |i: usize| memory.naturals.get(i).copied().unwrap_or(Vec2::ZERO);

    let incoming = Incoming::of(ui);
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
    // A row holding full-width children shrinks everything unweighted to fit.
    if axis == Axis::Horizontal
        && let Some(length) = main_fixed
        && traits.iter().any(|t| t.spans && t.weight <= 0.0)
    {
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
                            .unwrap_or_else(|| previous_main[i])
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
                }
                if let Some(lead) = plan.lead.get_mut(i) {
                    *lead = if i == 0 { 0.0 } else { gap };
                }
            }
        } else {
            // Everything fits: a full-width child takes what its siblings leave.
            let others: f32 = bases
                .iter()
                .zip(&traits)
                .filter(|(_, t)| !t.spans)
                .filter_map(|(b, _)| *b)
                .sum();
            let full = traits.iter().filter(|t| t.spans && t.weight <= 0.0).count();
            let gaps = gap * children.len().saturating_sub(1) as f32;
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
    let (naturals, bases, natural) = {
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
            let natural = if culled {
                bases.push(
                    memory
                        .bases
                        .get(i)
                        .copied()
                        .unwrap_or(axis.main(previous(i))),
                );
                mins.push(memory.mins.get(i).copied().unwrap_or(0.0));
                previous(i)
            } else {
                let key = cx
                    .widget_id()
                    .with(("a2ui-slot", i, &child.id, &child.scope));
                let placed = Slot::new(key, rect, extent)
                    .fill_width(fill_width)
                    .show(ui, |ui| cx.slot_child_ui(ui, child));
                bases.push(placed.basis.map_or(axis.main(placed.natural), |b| b.x));
                mins.push(placed.basis.map_or(0.0, |b| b.y));
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
        let main_sizes: f32 = match axis {
            Axis::Horizontal => bases.iter().sum(),
            Axis::Vertical => naturals.iter().map(|n| axis.main(*n)).sum(),
        };
        let natural_main = main_sizes + gap * naturals.len().saturating_sub(1) as f32;
        (naturals, (bases, mins), axis.vec(natural_main, cross_used))
    };
    incoming.report(ui, natural);
    remember(ui, memory_key, memory, naturals, bases);
    ui.response()
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
        || bases
            .iter()
            .zip(&memory.bases)
            .any(|(a, b)| (a - b).abs() > EPSILON);
    if changed {
        memory.naturals = naturals;
        memory.bases = bases;
        memory.mins = mins;
    }
    memory.settling.pass(ui, changed);
    ui.data_mut(|d| d.insert_temp(key, memory));
}

/// The settle bookkeeping every measuring container keeps (flex lines and lists): how
/// many passes in a row moved its measurements. A pass that moved them asks egui for
/// another pass, at most [`MAX_UNSETTLED`] times in a row; a pass that held resets it.
#[derive(Clone, Copy, Debug, Default)]
struct Settling {
    unsettled: u8,
}

impl Settling {
    /// Whether the last pass kept the measurements of the one before.
    fn is_settled(self) -> bool {
        self.unsettled == 0
    }

    /// Count this pass: `changed` when its measurements differ from the remembered ones.
    fn pass(&mut self, ui: &Ui, changed: bool) {
        if changed {
            self.unsettled = self.unsettled.saturating_add(1);
            if self.unsettled <= MAX_UNSETTLED {
                settle(ui);
            }
        } else {
            self.unsettled = 0;
        }
    }
}

/// Ask egui to run the pass again before showing it (or, when it may not, to repaint soon).
fn settle(ui: &Ui) {
    let ctx = ui.ctx();
    ctx.request_discard("a2ui layout measured new sizes");
    if !ctx.will_discard() {
        ctx.request_repaint();
    }
}

fn differs(a: Vec2, b: Vec2) -> bool {
    (a.x - b.x).abs() > EPSILON || (a.y - b.y).abs() > EPSILON
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
    let incoming = Incoming::of(ui);
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
    let statics = if template.is_some() {
        Vec::new()
    } else {
        cx.children()
    };
    let count = template.as_ref().map_or(statics.len(), |(_, _, n)| *n);
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
                    None => template.as_ref().map(|(id, _, _)| id.as_str()),
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
                    .show(ui, |ui| match statics.get(i) {
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
    incoming.report(ui, natural);

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

/// `ui.vertical(add)`, without the nested `Ui` when `ui` is already a fresh top-down one
/// (a component's own `Ui` in a flex slot): returns what `add` returned and the rectangle
/// it drew in.
pub(crate) fn vertical<R>(ui: &mut Ui, add: impl FnOnce(&mut Ui) -> R) -> (R, Rect) {
    if *ui.layout() == Layout::top_down(Align::Min) && ui.min_rect().size() == Vec2::ZERO {
        let inner = add(ui);
        (inner, ui.min_rect())
    } else {
        let r = ui.vertical(add);
        (r.inner, r.response.rect)
    }
}

/// `egui::Frame::new().outer_margin(margin).show(ui, add)` without the frame's own hover
/// widget (an invisible frame paints nothing and senses nothing): the content in a child
/// `Ui` inside `margin`, the outer rectangle allocated in `ui`. Returns what `add` returned
/// and the outer rectangle.
pub(crate) fn with_margin<R>(
    ui: &mut Ui,
    margin: f32,
    add: impl FnOnce(&mut Ui) -> R,
) -> (R, Rect) {
    margin_ui(ui, margin, None, add)
}

/// [`with_margin`] around one row of `height`: `add` draws left to right into it, centred
/// across, as in `ui.horizontal` with that minimum height, without the second `Ui`.
pub(crate) fn with_margin_row<R>(
    ui: &mut Ui,
    margin: f32,
    height: f32,
    add: impl FnOnce(&mut Ui) -> R,
) -> (R, Rect) {
    margin_ui(ui, margin, Some(height), add)
}

fn margin_ui<R>(
    ui: &mut Ui,
    margin: f32,
    row: Option<f32>,
    add: impl FnOnce(&mut Ui) -> R,
) -> (R, Rect) {
    let margin = egui::epaint::MarginF32::from(egui::Margin::from(margin));
    let mut max = ui.available_rect_before_wrap() - margin;
    max.max.x = max.max.x.max(max.min.x);
    max.max.y = max.max.y.max(max.min.y);
    let mut builder = UiBuilder::new()
        .ui_stack_info(egui::UiStackInfo::new(egui::UiKind::Frame))
        .max_rect(max);
    if let Some(height) = row {
        let height = bounded(height).max(ui.spacing().interact_size.y);
        max.max.y = max.min.y + height;
        builder = builder
            .max_rect(max)
            .layout(Layout::left_to_right(Align::Center));
    }
    let mut content = ui.new_child(builder);
    if let Some(height) = row {
        content.set_min_height(bounded(height));
    }
    let inner = add(&mut content);
    let outer = egui::emath::GuiRounding::round_ui(content.min_rect() + margin);
    drop(content);
    ui.advance_cursor_after_rect(outer);
    (inner, outer)
}

/// `v` when it is a usable length.
pub(crate) fn finite(v: f32) -> Option<f32> {
    (v.is_finite() && v >= 0.0).then_some(v)
}

/// A length for a space: `v` clamped to `0..=UNBOUNDED`, [`UNBOUNDED`] when it is NaN (an
/// unknown space is an unbounded one).
pub(crate) fn bounded(v: f32) -> f32 {
    if v.is_nan() {
        UNBOUNDED
    } else {
        v.clamp(0.0, UNBOUNDED)
    }
}

/// A measured size: each component clamped to `0..=UNBOUNDED`, zero when NaN.
fn sanitize_size(v: Vec2) -> Vec2 {
    let clean = |x: f32| {
        if x.is_nan() {
            0.0
        } else {
            x.clamp(0.0, UNBOUNDED)
        }
    };
    vec2(clean(v.x), clean(v.y))
}

/// A rectangle with a finite origin and a bounded size.
pub(crate) fn sanitize_rect(r: Rect) -> Rect {
    let origin = if r.min.any_nan() || !r.min.is_finite() {
        egui::Pos2::ZERO
    } else {
        r.min
    };
    Rect::from_min_size(origin, vec2(bounded(r.width()), bounded(r.height())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_one_to_two_split_the_free_space_one_to_two() {
        let plan = plan_main(Some(300.0), &[0.0, 0.0], &[1.0, 2.0], Justify::Start, 0.0);
        assert_eq!(plan.grow, vec![Some(100.0), Some(200.0)]);
    }

    #[test]
    fn growing_children_share_only_what_fixed_children_leave() {
        let plan = plan_main(
            Some(300.0),
            &[100.0, 0.0],
            &[0.0, 1.0],
            Justify::Center,
            0.0,
        );
        assert_eq!(plan.grow, vec![None, Some(200.0)]);
        assert_eq!(
            plan.lead,
            vec![0.0, 0.0],
            "no free space is left to justify"
        );
    }

    #[test]
    fn justify_distributes_the_free_space() {
        let n = [20.0, 20.0, 20.0];
        let lead = |j| plan_main(Some(120.0), &n, &[], j, 0.0).lead;
        assert_eq!(lead(Justify::Start), vec![0.0, 0.0, 0.0]);
        assert_eq!(lead(Justify::Center), vec![30.0, 0.0, 0.0]);
        assert_eq!(lead(Justify::End), vec![60.0, 0.0, 0.0]);
        assert_eq!(lead(Justify::SpaceBetween), vec![0.0, 30.0, 30.0]);
        assert_eq!(lead(Justify::SpaceAround), vec![10.0, 20.0, 20.0]);
        assert_eq!(lead(Justify::SpaceEvenly), vec![15.0, 15.0, 15.0]);
        let stretch = plan_main(Some(120.0), &n, &[], Justify::Stretch, 0.0);
        assert_eq!(stretch.grow, vec![Some(40.0); 3]);
    }

    #[test]
    fn gaps_go_between_children_and_come_out_of_the_free_space() {
        let plan = plan_main(
            Some(120.0),
            &[20.0, 20.0, 20.0],
            &[],
            Justify::SpaceBetween,
            8.0,
        );
        assert_eq!(plan.lead, vec![0.0, 8.0 + 22.0, 8.0 + 22.0]);
        let plan = plan_main(Some(100.0), &[20.0, 0.0], &[0.0, 1.0], Justify::Start, 8.0);
        assert_eq!(plan.grow, vec![None, Some(72.0)]);
        assert_eq!(plan.lead, vec![0.0, 8.0]);
        let plan = plan_main(None, &[10.0, 10.0], &[], Justify::Start, 8.0);
        assert_eq!(plan.lead, vec![0.0, 8.0]);
    }

    #[test]
    fn a_line_sized_to_content_ignores_justify_and_weight() {
        let plan = plan_main(None, &[10.0, 10.0], &[1.0, 1.0], Justify::End, 0.0);
        assert_eq!(plan.grow, vec![None, None]);
        assert_eq!(plan.lead, vec![0.0, 0.0]);
    }

    #[test]
    fn hostile_numbers_never_produce_nan_or_negative_space() {
        for length in [f32::NAN, f32::INFINITY, -5.0, 0.0] {
            let plan = plan_main(
                Some(length),
                &[f32::NAN, -3.0, f32::INFINITY],
                &[f32::NAN, -1.0, f32::INFINITY],
                Justify::SpaceEvenly,
                f32::NAN,
            );
            for v in plan.lead.iter().chain(plan.grow.iter().flatten()) {
                assert!(v.is_finite() && *v >= 0.0, "{length}: {plan:?}");
            }
        }
        let empty = plan_main(Some(100.0), &[], &[], Justify::SpaceBetween, 8.0);
        assert!(empty.lead.is_empty());
    }

    /// A Column of 100 Rows in a 300-point-high scroll area: (rows drawn in the last frame,
    /// the column's height, the scrolled-out row 90's recorded box).
    fn tall_column(cull: bool) -> (usize, f32, bool) {
        use crate::{Catalog, Renderer, RendererOptions};
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
                    r.ui(ui);
                    height = ui.min_rect().height();
                });
            });
            out.textures_delta.clear();
        }
        r.record_geometry(true);
        let mut out = ctx.run_ui(input, |ui| {
            ScrollArea::vertical().show(ui, |ui| {
                r.ui(ui);
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

    #[test]
    fn keywords_parse_leniently_with_spec_defaults() {
        assert_eq!(Justify::parse(None), Justify::Start);
        assert_eq!(Justify::parse(Some("space-between")), Justify::SpaceBetween);
        assert_eq!(Justify::parse(Some("bogus")), Justify::Start);
        assert_eq!(CrossAlign::parse(None), CrossAlign::Stretch);
        assert_eq!(CrossAlign::parse(Some("Center")), CrossAlign::Center);
        assert_eq!(CrossAlign::parse(Some("bogus")), CrossAlign::Stretch);
    }
}
