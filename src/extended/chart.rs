//! `Chart`: `kind` `line` (default), `bar`, `area`, `scatter` or `pie`, drawn with
//! egui_plot (pie with the painter). `series` is a list of `{label, values, color}`:
//! `values` a `{"path"}` to (or a literal) array of numbers (x is the index), `[x, y]`
//! pairs or `{x, y}` objects. `labels` names the categories (the x axis of a line or bar
//! chart, the slices of a pie, which draws the first series). `xAxisTitle`, `yAxisTitle`,
//! `title`, `legend` (default on) and `height` (default 240).
//!
//! Values that are not finite numbers (text, `null`, `NaN`, infinities) are skipped and
//! reported once (`VALIDATION_FAILED`); more than [`Limits::max_chart_points`](crate::limits::Limits::max_chart_points) points
//! or [`Limits::max_chart_series`](crate::limits::Limits::max_chart_series) series are cut (`LIMIT_EXCEEDED`). Everything is
//! read once per data revision and kept decimated for drawing (min/max per bucket for
//! lines, a stride for scatter points), so a frame of 100,000 points costs what 1,000 do.
//!
//! Accessibility: a `Figure` node named by the title, whose description is a text summary
//! of the series (points, range, last value; each slice's share for a pie). Hovering
//! shows a tooltip with the nearest value.

use std::sync::Arc;

use egui::{Color32, Sense, vec2};
use egui_plot::{Bar, BarChart, GridInput, GridMark, Line, PlotPoint, PlotPoints, Points};
use serde_json::Value;

use super::util::{palette, parse_hex_color};
use crate::error::A2uiError;
use crate::render::ComponentContext;
use crate::render::catalog::ComponentRenderer;

/// The `Chart` component.
pub struct Chart;

/// Buckets a line or area is decimated to (two points each).
const LINE_BUCKETS: usize = 500;
/// Scatter points drawn at most.
const SCATTER_POINTS: usize = 4000;
/// Bars of one series drawn at most (more are averaged in buckets).
const MAX_BARS: usize = 400;
/// Pie slices at most; the rest are one "Other" slice.
const MAX_SLICES: usize = 24;

/// What is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    Line,
    Bar,
    Area,
    Scatter,
    Pie,
}

impl Kind {
    fn parse(s: Option<&str>) -> Self {
        match s {
            Some("bar") => Self::Bar,
            Some("area") => Self::Area,
            Some("scatter") => Self::Scatter,
            Some("pie") => Self::Pie,
            _ => Self::Line,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Self::Line => "Line",
            Self::Bar => "Bar",
            Self::Area => "Area",
            Self::Scatter => "Scatter",
            Self::Pie => "Pie",
        }
    }
}

/// One series, read and decimated.
#[derive(Clone, Debug, Default)]
pub(super) struct Series {
    pub name: String,
    pub color: Option<Color32>,
    /// The points to draw (decimated).
    pub points: Vec<PlotPoint>,
    /// Valid points read.
    pub count: usize,
    /// Values skipped as not numbers.
    pub skipped: usize,
    /// Smallest and largest y, and the last y.
    pub min: f64,
    pub max: f64,
    pub last: Option<f64>,
    pub sum: f64,
}

/// Everything a frame draws, worked out once per revision.
#[derive(Clone, Debug, Default)]
pub(super) struct ChartData {
    pub series: Vec<Series>,
    pub labels: Vec<String>,
    pub summary: String,
}

#[derive(Clone)]
struct Cache {
    revision: (u64, u64),
    data: Arc<ChartData>,
}

/// A finite number from a JSON value (numeric text too).
fn finite(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse::<f64>().ok(),
        _ => None,
    }
    .filter(|f| f.is_finite())
}

/// A point from one array element (`None`: not a number).
fn point(i: usize, v: &Value) -> Option<[f64; 2]> {
    let x = i as f64;
    match v {
        Value::Array(a) if a.len() == 2 => Some([finite(&a[0])?, finite(&a[1])?]),
        Value::Object(o) => {
            let y = finite(o.get("y").or_else(|| o.get("value"))?)?;
            let x = o.get("x").map_or(Some(x), finite)?;
            Some([x, y])
        }
        other => Some([x, finite(other)?]),
    }
}

/// Read a series' values (at most `max_points`) into a decimated series.
pub(super) fn read_series(name: String, values: &[Value], kind: Kind, max_points: usize) -> Series {
    let mut s = Series {
        name,
        min: f64::INFINITY,
        max: f64::NEG_INFINITY,
        ..Series::default()
    };
    let mut all: Vec<[f64; 2]> = Vec::with_capacity(values.len().min(max_points));
    for (i, v) in values.iter().take(max_points).enumerate() {
        match point(i, v) {
            Some(p) => {
                s.min = s.min.min(p[1]);
                s.max = s.max.max(p[1]);
                s.sum += p[1];
                s.last = Some(p[1]);
                all.push(p);
            }
            None => s.skipped += 1,
        }
    }
    s.count = all.len();
    if s.count == 0 {
        s.min = 0.0;
        s.max = 0.0;
    }
    s.points = decimate(&all, kind);
    s
}

/// Fewer points that draw the same picture: min and max of each bucket for lines and
/// areas, a stride for scatter, bucket means for bars.
fn decimate(all: &[[f64; 2]], kind: Kind) -> Vec<PlotPoint> {
    let to = |p: &[f64; 2]| PlotPoint::new(p[0], p[1]);
    match kind {
        Kind::Line | Kind::Area if all.len() > 2 * LINE_BUCKETS => {
            let size = all.len().div_ceil(LINE_BUCKETS);
            let mut out = Vec::with_capacity(2 * LINE_BUCKETS + 2);
            for chunk in all.chunks(size) {
                let (mut lo, mut hi) = (0, 0);
                for (j, p) in chunk.iter().enumerate() {
                    if p[1] < chunk[lo][1] {
                        lo = j;
                    }
                    if p[1] > chunk[hi][1] {
                        hi = j;
                    }
                }
                let (a, b) = if lo <= hi { (lo, hi) } else { (hi, lo) };
                out.push(to(&chunk[a]));
                if b != a {
                    out.push(to(&chunk[b]));
                }
            }
            out
        }
        Kind::Scatter if all.len() > SCATTER_POINTS => {
            let step = all.len().div_ceil(SCATTER_POINTS);
            all.iter().step_by(step).map(to).collect()
        }
        Kind::Bar if all.len() > MAX_BARS => {
            let size = all.len().div_ceil(MAX_BARS);
            all.chunks(size)
                .map(|c| {
                    let n = c.len() as f64;
                    let x = c.iter().map(|p| p[0]).sum::<f64>() / n;
                    let y = c.iter().map(|p| p[1]).sum::<f64>() / n;
                    PlotPoint::new(x, y)
                })
                .collect()
        }
        _ => all.iter().map(to).collect(),
    }
}

/// A number for the summary: up to two decimals, no trailing zeros.
fn short(x: f64) -> String {
    let s = format!("{x:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.to_owned() }
}

/// The text alternative of a chart.
pub(super) fn summary(kind: Kind, title: &str, data: &ChartData) -> String {
    let mut out = format!("{} chart", kind.name());
    if !title.is_empty() {
        out.push_str(": ");
        out.push_str(title);
    }
    out.push('.');
    if kind == Kind::Pie {
        if let Some(s) = data.series.first() {
            let total: f64 = s.points.iter().map(|p| p.y.max(0.0)).sum();
            for (i, p) in s.points.iter().enumerate().take(MAX_SLICES) {
                let name = data
                    .labels
                    .get(i)
                    .cloned()
                    .unwrap_or_else(|| format!("#{}", i + 1));
                let pct = if total > 0.0 {
                    p.y.max(0.0) / total * 100.0
                } else {
                    0.0
                };
                out.push_str(&format!(" {name}: {} ({}%).", short(p.y), short(pct)));
            }
        }
        return out;
    }
    let n = data.series.len();
    out.push_str(&format!(" {n} series."));
    for s in &data.series {
        if s.count == 0 {
            out.push_str(&format!(" {}: no values.", s.name));
            continue;
        }
        out.push_str(&format!(
            " {}: {} points, from {} to {}",
            s.name,
            s.count,
            short(s.min),
            short(s.max)
        ));
        if let Some(l) = s.last {
            out.push_str(&format!(", last {}", short(l)));
        }
        out.push('.');
    }
    out
}

impl Chart {
    /// Read the series once per revision of the surface.
    fn data(cx: &mut ComponentContext<'_, '_>, kind: Kind, title: &str) -> Arc<ChartData> {
        let revision = cx.surface().revision();
        if let Some(c) = cx.state::<Cache>("chart")
            && c.revision == revision
        {
            return c.data;
        }
        let raw_series: Value = match cx.prop("series") {
            Some(v) if v.is_array() => v.to_value(),
            _ => cx.value("series"),
        };
        let list = raw_series.as_array().map(Vec::as_slice).unwrap_or_default();
        let mut errors: Vec<(String, A2uiError)> = Vec::new();
        let (max_series, max_points) = (cx.limits().max_chart_series, cx.limits().max_chart_points);
        if list.len() > max_series {
            errors.push((
                "series-limit".into(),
                A2uiError::LimitExceeded {
                    what: "Chart series",
                    limit: max_series,
                    actual: list.len(),
                },
            ));
        }
        let mut series = Vec::new();
        for (i, s) in list.iter().take(max_series).enumerate() {
            let name = cx.with_eval(|e| {
                s.get("label")
                    .map(|l| super::table::display(&e.resolve(l)))
                    .filter(|l| !l.is_empty())
                    .unwrap_or_else(|| format!("Series {}", i + 1))
            });
            let color = s
                .get("color")
                .and_then(Value::as_str)
                .and_then(parse_hex_color);
            let (read, len) = cx.with_eval(|e| {
                let values = s.get("values").or_else(|| s.get("data"));
                let path = values.and_then(|v| v.get("path")).and_then(Value::as_str);
                let owned;
                let arr: &[Value] = match path {
                    Some(p) => e
                        .lookup(p)
                        .and_then(Value::as_array)
                        .map(Vec::as_slice)
                        .unwrap_or_default(),
                    None => {
                        owned = values.map(|v| e.resolve(v)).unwrap_or(Value::Null);
                        owned.as_array().map(Vec::as_slice).unwrap_or_default()
                    }
                };
                (read_series(name.clone(), arr, kind, max_points), arr.len())
            });
            let mut read = read;
            read.color = color;
            if len > max_points {
                errors.push((
                    format!("points-limit:{i}"),
                    A2uiError::LimitExceeded {
                        what: "Chart points",
                        limit: max_points,
                        actual: len,
                    },
                ));
            }
            if read.skipped > 0 {
                errors.push((
                    format!("skipped:{i}"),
                    A2uiError::Validation {
                        path: format!("/series/{i}/values"),
                        message: format!(
                            "{} value(s) of series {:?} are not finite numbers and were skipped",
                            read.skipped, read.name
                        ),
                    },
                ));
            }
            series.push(read);
        }
        let labels = cx.string_list("labels");
        let mut data = ChartData {
            series,
            labels,
            summary: String::new(),
        };
        data.summary = summary(kind, title, &data);
        for (key, e) in errors {
            cx.report_once(&key, e);
        }
        let data = Arc::new(data);
        cx.set_state(
            "chart",
            Cache {
                revision,
                data: Arc::clone(&data),
            },
        );
        data
    }
}

/// Pixels per grid step egui_plot assumes when it computes [`GridInput::base_step_size`]
/// (its default `grid_spacing` minimum).
const GRID_MIN_SPACING: f64 = 8.0;

/// Grid marks at 1, 2 or 5 times a power of ten, at least `min_px` apart, so every mark
/// gets its label (egui_plot's default spacer steps by powers of ten only: a 0-160 axis
/// showed just 0 and 100).
fn nice_marks(input: GridInput, min_px: f64) -> Vec<GridMark> {
    let (lo, hi) = input.bounds;
    let min_step = input.base_step_size * min_px / GRID_MIN_SPACING;
    if !(min_step.is_finite() && min_step > 0.0 && lo.is_finite() && hi.is_finite() && hi > lo) {
        return Vec::new();
    }
    let magnitude = 10f64.powf(min_step.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * magnitude)
        .find(|s| *s >= min_step)
        .unwrap_or(10.0 * magnitude);
    let first = (lo / step).ceil();
    let last = (hi / step).floor();
    if !(last - first).is_finite() || last - first > 1000.0 {
        return Vec::new();
    }
    let count = (last - first) as i64;
    (0..=count)
        .map(|i| GridMark {
            value: (first + i as f64) * step,
            step_size: step,
        })
        .collect()
}

/// One mark per category (a bar group or a line's index), thinned to every k-th so labels
/// `widest` characters wide do not collide.
fn category_marks(input: GridInput, count: usize, widest: usize) -> Vec<GridMark> {
    let px_per_unit = GRID_MIN_SPACING / input.base_step_size.max(f64::MIN_POSITIVE);
    let label_px = widest.max(1) as f64 * 7.5 + 12.0;
    let every = (label_px / px_per_unit)
        .ceil()
        .clamp(1.0, count.max(1) as f64) as usize;
    (0..count)
        .step_by(every)
        .map(|i| GridMark {
            value: i as f64,
            step_size: every as f64,
        })
        .collect()
}

/// The legend of a line, area, scatter or bar chart: a swatch and a name per series, in a
/// wrapping row above the plot.
fn series_legend(ui: &mut egui::Ui, data: &ChartData, accent: egui::Color32) {
    ui.horizontal_wrapped(|ui| {
        for (i, s) in data.series.iter().enumerate() {
            let color = s.color.unwrap_or_else(|| palette(accent, i));
            let (sw, _) = ui.allocate_exact_size(vec2(10.0, 10.0), Sense::hover());
            ui.painter().circle_filled(sw.center(), 5.0, color);
            ui.label(&s.name);
            ui.add_space(8.0);
        }
    });
}

/// The pie: slices of the first series, a legend beside it, a tooltip per slice.
fn pie_ui(
    ui: &mut egui::Ui,
    data: &ChartData,
    height: f32,
    legend: bool,
    accent: Color32,
) -> egui::Response {
    let Some(s) = data.series.first() else {
        return ui.weak("No data");
    };
    let mut slices: Vec<(String, f64)> = s
        .points
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let name = data
                .labels
                .get(i)
                .cloned()
                .unwrap_or_else(|| format!("#{}", i + 1));
            (name, p.y.max(0.0))
        })
        .collect();
    if slices.len() > MAX_SLICES {
        let rest: f64 = slices[MAX_SLICES - 1..].iter().map(|(_, v)| v).sum();
        slices.truncate(MAX_SLICES - 1);
        slices.push(("Other".into(), rest));
    }
    let total: f64 = slices.iter().map(|(_, v)| v).sum();
    ui.horizontal(|ui| {
        let (rect, response) = ui.allocate_exact_size(vec2(height, height), Sense::hover());
        let center = rect.center();
        let radius = height / 2.0 - 4.0;
        let painter = ui.painter();
        if total <= 0.0 {
            painter.circle_stroke(center, radius, ui.visuals().widgets.inactive.bg_stroke);
            return response;
        }
        let mut angle = -std::f64::consts::FRAC_PI_2;
        let hover = response.hover_pos();
        let mut hovered: Option<usize> = None;
        for (i, (_, v)) in slices.iter().enumerate() {
            let sweep = v / total * std::f64::consts::TAU;
            let color = palette(accent, i);
            let steps = ((sweep / std::f64::consts::TAU) * 96.0).ceil().max(1.0);
            let mut mesh = egui::Mesh::default();
            mesh.colored_vertex(center, color);
            let n = steps as u32;
            for k in 0..=n {
                let a = angle + sweep * f64::from(k) / steps;
                let a = a as f32;
                mesh.colored_vertex(center + radius * vec2(a.cos(), a.sin()), color);
            }
            for k in 0..n {
                mesh.add_triangle(0, k + 1, k + 2);
            }
            painter.add(egui::Shape::mesh(mesh));
            if let Some(p) = hover {
                let d = p - center;
                if d.length() <= radius {
                    let mut a = f64::from(d.y.atan2(d.x));
                    while a < angle {
                        a += std::f64::consts::TAU;
                    }
                    if a < angle + sweep {
                        hovered = Some(i);
                    }
                }
            }
            angle += sweep;
        }
        if legend {
            ui.vertical(|ui| {
                for (i, (name, v)) in slices.iter().enumerate() {
                    ui.horizontal(|ui| {
                        let (sw, _) = ui.allocate_exact_size(vec2(10.0, 10.0), Sense::hover());
                        ui.painter().rect_filled(sw, 2.0, palette(accent, i));
                        ui.label(format!("{name}  {}", short(*v)));
                    });
                }
            });
        }
        match hovered.and_then(|i| slices.get(i)) {
            Some((name, v)) => response.on_hover_text(format!(
                "{name}: {} ({}%)",
                short(*v),
                short(v / total * 100.0)
            )),
            None => response,
        }
    })
    .inner
}

impl ComponentRenderer for Chart {
    fn ui(&self, ui: &mut egui::Ui, cx: &mut ComponentContext<'_, '_>) -> egui::Response {
        let kind = Kind::parse(cx.literal_str("kind"));
        let title = cx.string("title");
        let data = Self::data(cx, kind, &title);
        let height = cx
            .number("height")
            .filter(|h| h.is_finite())
            .map_or(240.0, |h| h.clamp(60.0, 2000.0) as f32);
        let legend = cx.bool("legend", true);
        let x_title = cx.string("xAxisTitle");
        let y_title = cx.string("yAxisTitle");
        let accent = cx.accent_color(ui);
        let style = cx.style().clone();
        let wrapper = ui.unique_id();
        let name = if title.is_empty() {
            format!("{} chart", kind.name())
        } else {
            title.clone()
        };
        let description = data.summary.clone();
        ui.ctx().accesskit_node_builder(wrapper, |node| {
            node.set_label(name);
            node.set_description(description);
        });
        if !title.is_empty() {
            ui.label(
                egui::RichText::new(&title)
                    .font(style.h4.font_id(ui.ctx()))
                    .line_height(Some(style.h4.line_height)),
            );
        }
        if kind == Kind::Pie {
            return pie_ui(ui, &data, height, legend, accent);
        }
        if legend && !data.series.is_empty() {
            // Above the plot, never over the data (egui_plot's own legend sits inside the
            // frame and covered the first bars or the start of a line).
            series_legend(ui, &data, accent);
        }
        let labels = data.labels.clone();
        let category_count = labels.len();
        let widest = labels.iter().map(|l| l.chars().count()).max().unwrap_or(0);
        let mut x_axis = egui_plot::AxisHints::new_x();
        if !labels.is_empty() {
            x_axis = x_axis
                .formatter(move |mark, _| {
                    let v = mark.value;
                    if v.fract().abs() > 1e-9 || v < 0.0 {
                        return String::new();
                    }
                    labels.get(v as usize).cloned().unwrap_or_default()
                })
                // The spacer below already keeps the labels apart: each at full strength.
                .label_spacing(1.0..=2.0);
        }
        if !x_title.is_empty() {
            x_axis = x_axis.label(x_title);
        }
        let mut y_axis = egui_plot::AxisHints::new_y();
        if !y_title.is_empty() {
            y_axis = y_axis.label(y_title);
        }
        let mut plot = egui_plot::Plot::new(cx.widget_id().with("plot"))
            .height(height)
            .allow_scroll(false)
            .allow_zoom(false)
            .allow_drag(false)
            .allow_boxed_zoom(false)
            .show_grid([false, true])
            .custom_x_axes(vec![x_axis])
            .custom_y_axes(vec![y_axis])
            .y_grid_spacer(|input| nice_marks(input, 32.0))
            .label_formatter(|pos| match pos {
                egui_plot::HoverPosition::NearDataPoint {
                    plot_name,
                    position,
                    ..
                } => Some(format!(
                    "{plot_name}\n{}: {}",
                    short(position.x),
                    short(position.y)
                )),
                egui_plot::HoverPosition::Elsewhere { .. } => None,
            });
        if category_count > 0 {
            plot = plot.x_grid_spacer(move |input| category_marks(input, category_count, widest));
        }
        let n = data.series.len().max(1);
        let data_ref = Arc::clone(&data);
        plot.show(ui, move |pui| {
            for (i, s) in data_ref.series.iter().enumerate() {
                let color = s.color.unwrap_or_else(|| palette(accent, i));
                match kind {
                    Kind::Line | Kind::Area | Kind::Pie => {
                        let mut line =
                            Line::new(s.name.clone(), PlotPoints::Owned(s.points.clone()))
                                .color(color)
                                .width(2.0);
                        if kind == Kind::Area {
                            line = line.fill(0.0).fill_alpha(0.25);
                        }
                        pui.line(line);
                    }
                    Kind::Scatter => pui.points(
                        Points::new(s.name.clone(), PlotPoints::Owned(s.points.clone()))
                            .color(color)
                            .radius(3.0)
                            .filled(true),
                    ),
                    Kind::Bar => {
                        let width = 0.8 / n as f64;
                        let offset = (i as f64 - (n as f64 - 1.0) / 2.0) * width;
                        let bars: Vec<Bar> = s
                            .points
                            .iter()
                            .map(|p| {
                                Bar::new(p.x + offset, p.y)
                                    .width(width)
                                    .fill(color.gamma_multiply(0.85))
                            })
                            .collect();
                        pui.bar_chart(BarChart::new(s.name.clone(), bars).color(color));
                    }
                }
            }
        })
        .response
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn non_numbers_and_non_finite_values_are_skipped_and_counted() {
        let values = vec![
            json!(1),
            json!("2.5"),
            json!("abc"),
            json!(null),
            json!("NaN"),
            json!("inf"),
            json!([3, 4]),
            json!({"x": 9, "y": 1}),
        ];
        let s = read_series("s".into(), &values, Kind::Line, usize::MAX);
        assert_eq!(s.count, 4);
        assert_eq!(s.skipped, 4);
        assert_eq!((s.min, s.max, s.last), (1.0, 4.0, Some(1.0)));
        assert!(s.points.iter().all(|p| p.x.is_finite() && p.y.is_finite()));
    }

    #[test]
    fn long_lines_are_decimated_keeping_their_extremes() {
        let values: Vec<Value> = (0..100_000)
            .map(|i| json!(if i == 77_777 { 1e6 } else { f64::from(i % 100) }))
            .collect();
        let s = read_series("s".into(), &values, Kind::Line, usize::MAX);
        assert_eq!(s.count, 100_000);
        assert!(s.points.len() <= 2 * LINE_BUCKETS + 2, "{}", s.points.len());
        assert!(
            s.points.iter().any(|p| p.y == 1e6),
            "the spike survives decimation"
        );
        assert_eq!(s.max, 1e6);
    }

    #[test]
    fn the_summary_names_each_series_and_pie_shares() {
        let mut data = ChartData::default();
        data.series.push(read_series(
            "Revenue".into(),
            &[json!(10), json!(30)],
            Kind::Line,
            usize::MAX,
        ));
        let t = summary(Kind::Line, "Sales", &data);
        assert_eq!(
            t,
            "Line chart: Sales. 1 series. Revenue: 2 points, from 10 to 30, last 30."
        );
        data.labels = vec!["A".into(), "B".into()];
        let t = summary(Kind::Pie, "", &data);
        assert_eq!(t, "Pie chart. A: 10 (25%). B: 30 (75%).");
    }
}
