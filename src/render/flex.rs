//! The flex engine behind `Row` and `Column` (and any host container that lays children out
//! in a line): the axes and keywords, the main-axis plan (free space, `justify`, `weight`),
//! CSS-style shrinking of an overflowing row, and the settle bookkeeping every measuring
//! container keeps. All of it is pure and unit-tested, apart from [`Settling::pass`], which
//! asks egui for another pass.

use crate::model::PropRef;
use egui::{Rect, Ui, Vec2, vec2};

/// Stands in for an unbounded length (a `Ui` inside a scroll area) so rectangles stay finite.
pub const UNBOUNDED: f32 = 100_000.0;

/// Sizes closer than this (points) count as equal, so float noise never keeps a layout busy.
pub const EPSILON: f32 = 0.5;

/// Passes in a row a container may ask for because its measurements changed. A layout that
/// has not settled by then is left alone until something else repaints, rather than
/// burning a core on an oscillation.
const MAX_UNSETTLED: u8 = 6;

/// Weights above this are clamped: they only matter relative to each other, and huge values
/// would make sums overflow.
const MAX_WEIGHT: f64 = 1.0e6;

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

/// A component's `weight` (flex-grow): positive and finite (at most a million), else
/// `0` (no weight).
pub fn weight_of(c: &crate::model::Component) -> f32 {
    let w = c.prop("weight").and_then(PropRef::as_f64).unwrap_or(0.0);
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
pub fn shrink_row(
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

/// The settle bookkeeping every measuring container keeps (flex lines and lists): how
/// many passes in a row moved its measurements. A pass that moved them asks egui for
/// another pass, at most six times in a row; a pass that held resets it.
#[derive(Clone, Copy, Debug, Default)]
pub struct Settling {
    unsettled: u8,
}

impl Settling {
    /// Whether the last pass kept the measurements of the one before.
    pub fn is_settled(self) -> bool {
        self.unsettled == 0
    }

    /// Count this pass: `changed` when its measurements differ from the remembered ones.
    pub fn pass(&mut self, ui: &Ui, changed: bool) {
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
pub fn settle(ui: &Ui) {
    let ctx = ui.ctx();
    ctx.request_discard("a2ui layout measured new sizes");
    if !ctx.will_discard() {
        ctx.request_repaint();
    }
}

/// Whether two sizes differ by more than [`EPSILON`] on either axis (a measurement that
/// changed enough to lay out again).
pub fn differs(a: Vec2, b: Vec2) -> bool {
    (a.x - b.x).abs() > EPSILON || (a.y - b.y).abs() > EPSILON
}

/// `v` when it is a usable length.
pub fn finite(v: f32) -> Option<f32> {
    (v.is_finite() && v >= 0.0).then_some(v)
}

/// A length for a space: `v` clamped to `0..=100_000`, `100_000` when it is NaN (an
/// unknown space is an unbounded one).
pub fn bounded(v: f32) -> f32 {
    if v.is_nan() {
        UNBOUNDED
    } else {
        v.clamp(0.0, UNBOUNDED)
    }
}

/// A measured size: each component clamped to `0..=UNBOUNDED`, zero when NaN.
pub fn sanitize_size(v: Vec2) -> Vec2 {
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
pub fn sanitize_rect(r: Rect) -> Rect {
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
