//! `Table`: rows of a data-model array (`rows: {"path": "/orders"}`, an array of objects)
//! shown in `columns` (`key`, `label`, `align`, `format`, `width`, `sortable`, and an
//! optional `component`: a cell template drawn with the row as its data scope).
//!
//! - **Formats** go through the catalog's own formatting functions: `number`
//!   (`formatNumber`, `decimals`), `currency` (`formatCurrency`, `currency`), `percent`
//!   (a fraction: `0.25` is `25%`, through `formatNumber`), `date` (`formatDate`,
//!   `dateFormat`, default `MMM d, yyyy`) and `text`. Numbers align to the end by default.
//! - **Sorting**: a click on a sortable header sorts by that column (again: descending,
//!   a third time: unsorted). The sort is two-way bound when `sort` is a `{"path"}`
//!   (`{"key": "total", "direction": "descending"}`), else kept in widget state. The order
//!   is worked out once per data revision, not per frame.
//! - **Selection**: a click on a row writes it to `selection` (a `{"path"}`): the value of
//!   its `rowKey` column, or its index in `rows`; then the optional `action` fires, its
//!   context resolved with the row as the data scope (so `{"path": "id"}` is the row's id).
//! - **Virtualised**: only the rows in view are laid out (egui_extras' `TableBuilder`), so
//!   100,000 rows cost what 100 do; the header stays put while the body scrolls
//!   (`height`, default 320, is the most the table grows to).
//!
//! Accessibility: a `Table` node (named by `label`, with its row and column counts);
//! header cells are `ColumnHeader`s with their sort direction, body cells `Cell`s with
//! their row and column index, selected with their row.

use std::borrow::Cow;
use std::cmp::Ordering;
use std::sync::Arc;

use egui::accesskit::{Role, SortDirection};
use egui::{Align, Layout, Sense};
use serde_json::{Map, Value, json};

use crate::catalog::set_accessible_name;
use crate::error::A2uiError;
use crate::model::ChildRef;
use crate::render::ComponentContext;
use crate::render::catalog::ComponentRenderer;

/// The `Table` component.
pub struct Table;

/// How a column shows its values.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Format {
    Text,
    Number,
    Currency(String),
    Percent,
    Date(String),
}

/// One column, read from the `columns` property.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct TableColumn {
    pub key: String,
    pub label: String,
    pub align: Align,
    pub format: Format,
    pub decimals: Option<f64>,
    pub width: Option<f32>,
    pub sortable: bool,
    pub template: Option<String>,
}

/// The sort in force: a column key and whether descending.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Sort {
    pub key: String,
    pub descending: bool,
}

impl Sort {
    fn from_value(v: &Value) -> Option<Self> {
        let key = v.get("key")?.as_str()?.to_owned();
        let descending = matches!(
            v.get("direction").and_then(Value::as_str),
            Some("descending" | "desc")
        );
        Some(Self { key, descending })
    }

    fn to_value(this: Option<&Self>) -> Value {
        match this {
            Some(s) => json!({
                "key": s.key,
                "direction": if s.descending { "descending" } else { "ascending" },
            }),
            None => Value::Null,
        }
    }
}

/// Columns parsed for one revision of the surface.
#[derive(Clone)]
struct ColumnsCache {
    revision: (u64, u64),
    columns: Arc<Vec<TableColumn>>,
}

/// A row order worked out for one revision, sort and row count.
#[derive(Clone)]
struct OrderCache {
    revision: (u64, u64),
    sort: Option<Sort>,
    len: usize,
    order: Arc<Vec<u32>>,
}

/// A value as display text (`null` is empty, numbers as JavaScript prints them).
pub(super) fn display(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                i.to_string()
            } else if let Some(u) = n.as_u64() {
                u.to_string()
            } else {
                ryu_js::Buffer::new()
                    .format(n.as_f64().unwrap_or(0.0))
                    .to_owned()
            }
        }
        other => {
            let mut s = other.to_string();
            if s.len() > 200 {
                let cut = (0..=200)
                    .rev()
                    .find(|i| s.is_char_boundary(*i))
                    .unwrap_or(0);
                s.truncate(cut);
                s.push('…');
            }
            s
        }
    }
}

/// Read one column definition (a string alone is a key labelled by itself).
fn parse_column(raw: &Value, resolve: &dyn Fn(&Value) -> Value) -> Option<TableColumn> {
    if let Value::String(key) = raw {
        return Some(TableColumn {
            key: key.clone(),
            label: key.clone(),
            align: Align::Min,
            format: Format::Text,
            decimals: None,
            width: None,
            sortable: true,
            template: None,
        });
    }
    let obj = raw.as_object()?;
    let text = |name: &str| -> Option<String> {
        obj.get(name)
            .map(|v| display(&resolve(v)))
            .filter(|s| !s.is_empty())
    };
    let key = text("key").unwrap_or_default();
    let template = obj
        .get("component")
        .and_then(Value::as_str)
        .map(str::to_owned);
    if key.is_empty() && template.is_none() {
        return None;
    }
    let format = match obj.get("format").and_then(Value::as_str) {
        Some("number") => Format::Number,
        Some("currency") => Format::Currency(text("currency").unwrap_or_else(|| "USD".into())),
        Some("percent") => Format::Percent,
        Some("date") => Format::Date(text("dateFormat").unwrap_or_else(|| "MMM d, yyyy".into())),
        _ => Format::Text,
    };
    let numeric = matches!(
        format,
        Format::Number | Format::Currency(_) | Format::Percent
    );
    let align = match obj.get("align").and_then(Value::as_str) {
        Some("center") => Align::Center,
        Some("end" | "right") => Align::Max,
        Some("start" | "left") => Align::Min,
        _ if numeric => Align::Max,
        _ => Align::Min,
    };
    let width = obj
        .get("width")
        .and_then(Value::as_f64)
        .filter(|w| w.is_finite())
        .map(|w| w.clamp(24.0, 2000.0) as f32);
    Some(TableColumn {
        label: text("label").unwrap_or_else(|| key.clone()),
        key,
        align,
        format,
        decimals: obj
            .get("decimals")
            .and_then(Value::as_f64)
            .filter(|d| d.is_finite()),
        width,
        sortable: obj.get("sortable").and_then(Value::as_bool).unwrap_or(true),
        template,
    })
}

/// A sort key of one cell: numbers before text, empty cells last.
#[derive(Clone, Debug, PartialEq)]
enum SortKey {
    Num(f64),
    Text(String),
    Empty,
}

fn sort_key(v: Option<&Value>) -> SortKey {
    match v {
        None | Some(Value::Null) => SortKey::Empty,
        Some(Value::Number(n)) => n
            .as_f64()
            .filter(|f| f.is_finite())
            .map_or(SortKey::Empty, SortKey::Num),
        Some(Value::Bool(b)) => SortKey::Num(f64::from(u8::from(*b))),
        Some(Value::String(s)) => SortKey::Text(s.to_lowercase()),
        Some(other) => SortKey::Text(other.to_string()),
    }
}

fn compare_keys(a: &SortKey, b: &SortKey) -> Ordering {
    match (a, b) {
        (SortKey::Num(x), SortKey::Num(y)) => x.total_cmp(y),
        (SortKey::Text(x), SortKey::Text(y)) => x.cmp(y),
        (SortKey::Num(_), SortKey::Text(_)) => Ordering::Less,
        (SortKey::Text(_), SortKey::Num(_)) => Ordering::Greater,
        (SortKey::Empty, SortKey::Empty) => Ordering::Equal,
        (SortKey::Empty, _) => Ordering::Greater,
        (_, SortKey::Empty) => Ordering::Less,
    }
}

/// The order of the first `len` rows under `sort` (stable; empty cells last either way).
pub(super) fn sorted_order(rows: &[Value], len: usize, sort: Option<&Sort>) -> Vec<u32> {
    let len = len.min(rows.len()).min(u32::MAX as usize);
    let mut order: Vec<u32> = (0..len as u32).collect();
    let Some(sort) = sort else {
        return order;
    };
    let keys: Vec<SortKey> = rows
        .iter()
        .take(len)
        .map(|r| sort_key(r.get(&sort.key)))
        .collect();
    order.sort_by(|&a, &b| {
        let (ka, kb) = (&keys[a as usize], &keys[b as usize]);
        match (ka, kb) {
            (SortKey::Empty, SortKey::Empty) => Ordering::Equal,
            (SortKey::Empty, _) => Ordering::Greater,
            (_, SortKey::Empty) => Ordering::Less,
            _ if sort.descending => compare_keys(kb, ka),
            _ => compare_keys(ka, kb),
        }
    });
    order
}

/// A cell's text in its column's format (through the catalog's formatting functions;
/// a value they refuse is shown as it is).
fn cell_text(cx: &ComponentContext<'_, '_>, column: &TableColumn, v: Option<&Value>) -> String {
    let Some(v) = v.filter(|v| !v.is_null()) else {
        return String::new();
    };
    let call = |name: &str, args: Map<String, Value>| -> Option<String> {
        cx.with_eval(|e| e.call_resolved(name, &args))
            .ok()
            .map(|r| display(&r))
            .filter(|s| !s.is_empty())
    };
    let number = || -> Option<f64> {
        match v {
            Value::Number(n) => n.as_f64(),
            Value::String(s) => s.trim().parse::<f64>().ok(),
            _ => None,
        }
        .filter(|f| f.is_finite())
    };
    let mut args = Map::new();
    if let Some(d) = column.decimals {
        args.insert("decimals".into(), json!(d));
    }
    let formatted = match &column.format {
        Format::Text => None,
        Format::Number => number().and_then(|n| {
            args.insert("value".into(), json!(n));
            call("formatNumber", args)
        }),
        Format::Currency(code) => number().and_then(|n| {
            args.insert("value".into(), json!(n));
            args.insert("currency".into(), json!(code));
            call("formatCurrency", args)
        }),
        Format::Percent => number().and_then(|n| {
            args.insert("value".into(), json!(n * 100.0));
            args.entry("decimals").or_insert(json!(0));
            call("formatNumber", args).map(|s| format!("{s}%"))
        }),
        Format::Date(pattern) => {
            args.insert("value".into(), v.clone());
            args.insert("format".into(), json!(pattern));
            call("formatDate", args)
        }
    };
    formatted.unwrap_or_else(|| display(v))
}

impl Table {
    /// The columns, parsed once per revision of the surface (and cut at [`Limits::max_table_columns`](crate::limits::Limits::max_table_columns)).
    fn columns(cx: &mut ComponentContext<'_, '_>) -> Arc<Vec<TableColumn>> {
        let revision = cx.surface().revision();
        if let Some(c) = cx.state::<ColumnsCache>("columns")
            && c.revision == revision
        {
            return c.columns;
        }
        let raw: Value = match cx.prop("columns") {
            Some(v) if v.is_array() => v.to_value(),
            _ => cx.value("columns"),
        };
        let list = raw.as_array().map(Vec::as_slice).unwrap_or_default();
        let max_columns = cx.limits().max_table_columns;
        let columns: Vec<TableColumn> = cx.with_eval(|e| {
            let resolve = |v: &Value| e.resolve(v);
            list.iter()
                .take(max_columns)
                .filter_map(|c| parse_column(c, &resolve))
                .collect()
        });
        if list.len() > max_columns {
            cx.report_once(
                "columns",
                A2uiError::LimitExceeded {
                    what: "Table columns",
                    limit: max_columns,
                    actual: list.len(),
                },
            );
        }
        let columns = Arc::new(columns);
        cx.set_state(
            "columns",
            ColumnsCache {
                revision,
                columns: Arc::clone(&columns),
            },
        );
        columns
    }

    /// The sort in force: the bound or local `sort` value, else widget state.
    fn sort(cx: &ComponentContext<'_, '_>) -> Option<Sort> {
        if cx.prop("sort").is_some() {
            Sort::from_value(&cx.value("sort"))
        } else {
            cx.state::<Option<Sort>>("sort").flatten()
        }
    }

    fn set_sort(cx: &mut ComponentContext<'_, '_>, ui: &egui::Ui, sort: Option<Sort>) {
        if cx.prop("sort").is_some() {
            cx.write(ui, "sort", Sort::to_value(sort.as_ref()));
        } else {
            cx.set_state("sort", sort);
            ui.ctx().request_repaint();
        }
    }

    /// The row order for this revision and sort, from widget state when unchanged.
    fn order(
        cx: &ComponentContext<'_, '_>,
        rows: &[Value],
        len: usize,
        sort: Option<&Sort>,
    ) -> Arc<Vec<u32>> {
        let revision = cx.surface().revision();
        if let Some(c) = cx.state::<OrderCache>("order")
            && c.revision == revision
            && c.len == len
            && c.sort.as_ref() == sort
        {
            return c.order;
        }
        let order = Arc::new(sorted_order(rows, len, sort));
        cx.set_state(
            "order",
            OrderCache {
                revision,
                sort: sort.cloned(),
                len,
                order: Arc::clone(&order),
            },
        );
        order
    }
}

/// A small sort arrow after a header label.
fn sort_arrow(ui: &egui::Ui, rect: egui::Rect, descending: bool, color: egui::Color32) {
    let c = rect.center();
    let h = 4.0;
    let pts = if descending {
        vec![
            egui::pos2(c.x - h, c.y - h / 2.0),
            egui::pos2(c.x + h, c.y - h / 2.0),
            egui::pos2(c.x, c.y + h / 2.0),
        ]
    } else {
        vec![
            egui::pos2(c.x - h, c.y + h / 2.0),
            egui::pos2(c.x + h, c.y + h / 2.0),
            egui::pos2(c.x, c.y - h / 2.0),
        ]
    };
    ui.painter()
        .add(egui::Shape::convex_polygon(pts, color, egui::Stroke::NONE));
}

impl ComponentRenderer for Table {
    // One pass over header, body and the clicks they collected; split it when the table
    // grows more features.
    #[allow(clippy::too_many_lines)]
    fn ui(&self, ui: &mut egui::Ui, cx: &mut ComponentContext<'_, '_>) -> egui::Response {
        let columns = Self::columns(cx);
        let label = cx.string("label");
        let style = cx.style().clone();
        // The rows, read in place: bound to a path (the usual case) or a literal array.
        let rows_path = cx.binding_path("rows");
        let rows_owned: Option<Value> = match (&rows_path, cx.prop("rows")) {
            (Some(_), _) | (None, None) => None,
            (None, Some(v)) if v.is_array() => Some(v.to_value()),
            (None, Some(_)) => Some(cx.value("rows")),
        };
        let (total, bad_shape) = {
            let rows: Option<&Value> = match &rows_path {
                Some(p) => cx.surface().data.get(p),
                None => rows_owned.as_ref(),
            };
            (
                rows.and_then(Value::as_array).map_or(0, Vec::len),
                rows.is_some_and(|r| !r.is_array() && !r.is_null()),
            )
        };
        if bad_shape {
            let path = rows_path.clone().unwrap_or_default();
            cx.report_once(
                "rows",
                A2uiError::Validation {
                    path,
                    message: "Table rows must be an array of objects".into(),
                },
            );
        }
        let cap = cx.limits().max_template_instances;
        if total > cap {
            cx.report_once(
                "rows-limit",
                A2uiError::LimitExceeded {
                    what: "max_template_instances",
                    limit: cap,
                    actual: total,
                },
            );
        }
        let len = total.min(cap);
        let sort = Self::sort(cx);
        let order = {
            let rows: &[Value] = match &rows_path {
                Some(p) => cx
                    .surface()
                    .data
                    .get(p)
                    .and_then(Value::as_array)
                    .map(Vec::as_slice)
                    .unwrap_or_default(),
                None => rows_owned
                    .as_ref()
                    .and_then(Value::as_array)
                    .map(Vec::as_slice)
                    .unwrap_or_default(),
            };
            Self::order(cx, rows, len, sort.as_ref())
        };
        let selection_value = cx.value("selection");
        let row_key = cx.literal_str("rowKey").map(str::to_owned);
        let row_height = cx
            .number("rowHeight")
            .filter(|h| h.is_finite())
            .map_or(style.body.line_height + 8.0, |h| {
                h.clamp(16.0, 400.0) as f32
            });
        let height = cx
            .number("height")
            .filter(|h| h.is_finite())
            .map_or(320.0, |h| h.clamp(80.0, 4000.0) as f32);
        let striped = cx.bool("striped", true);
        let has_action = cx.prop("action").is_some();

        // The wrapper node is the table: its name and size.
        let n_cols = columns.len();
        let wrapper = ui.unique_id();
        let table_name = label.clone();
        ui.ctx().accesskit_node_builder(wrapper, |node| {
            if !table_name.is_empty() {
                node.set_label(table_name);
            }
            node.set_row_count(len);
            node.set_column_count(n_cols);
        });
        if !label.is_empty() {
            ui.label(
                egui::RichText::new(&label)
                    .font(style.label.font_id(ui.ctx()))
                    .strong(),
            );
        }
        if columns.is_empty() {
            return ui.weak("No columns");
        }

        let mut clicked_header: Option<usize> = None;
        let mut clicked_row: Option<usize> = None;
        let accent = cx.accent_color(ui);
        let visuals = ui.visuals().clone();
        let outer = egui::Frame::new()
            .stroke(visuals.widgets.noninteractive.bg_stroke)
            .corner_radius(style.card_radius)
            .inner_margin(egui::Margin::same(4))
            .show(ui, |ui| {
                ui.style_mut().interaction.selectable_labels = false;
                let mut builder = egui_extras::TableBuilder::new(ui)
                    .id_salt(cx.widget_id().with("table"))
                    .striped(striped)
                    .sense(Sense::click())
                    .resizable(true)
                    .cell_layout(Layout::left_to_right(Align::Center))
                    .min_scrolled_height(0.0)
                    .max_scroll_height(height)
                    .auto_shrink([false, true]);
                for c in columns.iter() {
                    let col = match c.width {
                        Some(w) => egui_extras::Column::initial(w).at_least(24.0),
                        None => egui_extras::Column::remainder().at_least(40.0),
                    };
                    builder = builder.column(col.clip(true));
                }
                builder
                    .header(row_height, |mut header| {
                        for (ci, c) in columns.iter().enumerate() {
                            header.col(|ui| {
                                let text = egui::RichText::new(&c.label)
                                    .font(style.label.font_id(ui.ctx()))
                                    .strong();
                                let sorted = sort.as_ref().filter(|s| s.key == c.key);
                                let r = if c.sortable && !c.key.is_empty() {
                                    ui.add(egui::Button::new(text).frame(false))
                                } else {
                                    ui.label(text)
                                };
                                if let Some(s) = sorted {
                                    let (arrow, _) = ui.allocate_exact_size(
                                        egui::vec2(10.0, 10.0),
                                        Sense::hover(),
                                    );
                                    sort_arrow(ui, arrow, s.descending, accent);
                                }
                                let direction = match sorted {
                                    Some(s) if s.descending => Some(SortDirection::Descending),
                                    Some(_) => Some(SortDirection::Ascending),
                                    None => None,
                                };
                                let name = c.label.clone();
                                ui.ctx().accesskit_node_builder(r.id, |node| {
                                    node.set_role(Role::ColumnHeader);
                                    node.set_label(name);
                                    node.set_column_index(ci);
                                    if let Some(d) = direction {
                                        node.set_sort_direction(d);
                                    }
                                });
                                if r.clicked() {
                                    clicked_header = Some(ci);
                                }
                            });
                        }
                    })
                    .body(|body| {
                        body.rows(row_height, len, |mut row| {
                            let shown = row.index();
                            let Some(&src) = order.get(shown) else {
                                return;
                            };
                            let src = src as usize;
                            let scope = rows_path
                                .as_ref()
                                .map(|p| format!("{}/{src}", p.trim_end_matches('/')));
                            let record: Option<Value> = match &rows_path {
                                Some(p) => {
                                    cx.surface().data.get(p).and_then(|r| r.get(src)).cloned()
                                }
                                None => rows_owned.as_ref().and_then(|r| r.get(src)).cloned(),
                            };
                            let identity = match &row_key {
                                Some(k) => record
                                    .as_ref()
                                    .and_then(|r| r.get(k))
                                    .cloned()
                                    .unwrap_or(Value::Null),
                                None => json!(src),
                            };
                            let selected = !selection_value.is_null()
                                && (selection_value == identity
                                    || (row_key.is_none()
                                        && selection_value.as_f64() == identity.as_f64()));
                            row.set_selected(selected);
                            for (ci, c) in columns.iter().enumerate() {
                                let text = if c.template.is_none() {
                                    let v = record.as_ref().and_then(|r| r.get(&c.key));
                                    cell_text(cx, c, v)
                                } else {
                                    String::new()
                                };
                                let (_, cell) = row.col(|ui| {
                                    let templated = c.template.as_ref().zip(scope.as_ref());
                                    if let Some((tpl, scope)) = templated {
                                        let child = ChildRef {
                                            id: tpl.clone(),
                                            scope: scope.clone(),
                                            slot: Cow::Borrowed("columns"),
                                            index: Some(src),
                                        };
                                        cx.child_ui(ui, &child);
                                    } else {
                                        let layout = match c.align {
                                            Align::Max => Layout::right_to_left(Align::Center),
                                            Align::Center => Layout::centered_and_justified(
                                                egui::Direction::LeftToRight,
                                            ),
                                            Align::Min => Layout::left_to_right(Align::Center),
                                        };
                                        ui.with_layout(layout, |ui| {
                                            ui.add(egui::Label::new(text.as_str()).truncate());
                                        });
                                    }
                                });
                                let cell_name = if c.template.is_some() {
                                    let v = record.as_ref().and_then(|r| r.get(&c.key));
                                    Some(cell_text(cx, c, v))
                                        .filter(|t| !t.is_empty())
                                        .unwrap_or_else(|| c.label.clone())
                                } else {
                                    text
                                };
                                cell_node(&cell, &cell_name, shown, ci, selected);
                            }
                            if row.response().clicked() {
                                clicked_row = Some(src);
                            }
                        });
                    });
            });
        if let Some(ci) = clicked_header
            && let Some(c) = columns.get(ci)
        {
            let next = match &sort {
                Some(s) if s.key == c.key && !s.descending => Some(Sort {
                    key: c.key.clone(),
                    descending: true,
                }),
                Some(s) if s.key == c.key => None,
                _ => Some(Sort {
                    key: c.key.clone(),
                    descending: false,
                }),
            };
            Self::set_sort(cx, ui, next);
        }
        if let Some(src) = clicked_row {
            let identity = match &row_key {
                Some(k) => rows_path
                    .as_ref()
                    .and_then(|p| cx.surface().data.get(p))
                    .or(rows_owned.as_ref())
                    .and_then(|r| r.get(src))
                    .and_then(|r| r.get(k))
                    .cloned()
                    .unwrap_or(Value::Null),
                None => json!(src),
            };
            if cx.prop("selection").is_some() {
                cx.write(ui, "selection", identity);
            }
            if has_action {
                match &rows_path {
                    Some(p) => {
                        let scope = format!("{}/{src}", p.trim_end_matches('/'));
                        cx.fire_action_at(&scope);
                    }
                    None => {
                        cx.fire_action();
                    }
                }
            }
        }
        let response = outer.response;
        set_accessible_name(ui, response.id, &label);
        response
    }
}

/// Make a body cell's node a `Cell` named by its text, at its row and column.
fn cell_node(cell: &egui::Response, name: &str, row: usize, column: usize, selected: bool) {
    cell.widget_info(|| {
        let mut info = egui::WidgetInfo::labeled(Role::Cell, true, name);
        info.selected = Some(selected);
        info
    });
    cell.ctx.accesskit_node_builder(cell.id, |node| {
        node.set_row_index(row);
        node.set_column_index(column);
        node.set_selected(selected);
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorting_puts_numbers_in_order_and_empty_cells_last() {
        let rows: Vec<Value> = vec![
            json!({"n": 3}),
            json!({"n": null}),
            json!({"n": 1}),
            json!({}),
            json!({"n": 2}),
        ];
        let asc = Sort {
            key: "n".into(),
            descending: false,
        };
        assert_eq!(sorted_order(&rows, 5, Some(&asc)), vec![2, 4, 0, 1, 3]);
        let desc = Sort {
            key: "n".into(),
            descending: true,
        };
        assert_eq!(sorted_order(&rows, 5, Some(&desc)), vec![0, 4, 2, 1, 3]);
        assert_eq!(sorted_order(&rows, 3, None), vec![0, 1, 2]);
    }

    #[test]
    fn text_sorts_case_insensitively_after_numbers() {
        let rows: Vec<Value> = vec![json!({"k": "beta"}), json!({"k": "Alpha"}), json!({"k": 7})];
        let asc = Sort {
            key: "k".into(),
            descending: false,
        };
        assert_eq!(sorted_order(&rows, 3, Some(&asc)), vec![2, 1, 0]);
    }

    #[test]
    fn columns_read_defaults_and_refuse_nonsense() {
        let id = |v: &Value| v.clone();
        let c =
            parse_column(&json!({"key": "total", "format": "currency"}), &id).expect("a column");
        assert_eq!(c.label, "total");
        assert_eq!(c.align, Align::Max, "numbers align to the end");
        assert_eq!(c.format, Format::Currency("USD".into()));
        assert!(parse_column(&json!(42), &id).is_none());
        assert!(parse_column(&json!({"label": "no key"}), &id).is_none());
        let s = parse_column(&json!("name"), &id).expect("a bare key");
        assert_eq!((s.key.as_str(), s.label.as_str()), ("name", "name"));
    }
}
