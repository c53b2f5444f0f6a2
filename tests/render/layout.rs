//! Row, Column and List geometry, read back from the AccessKit tree of a kittest harness:
//! justify, align, weight, and list virtualisation.

use egui::{Pos2, Rect, UiBuilder, Vec2, pos2, vec2};
use egui_a2ui::{Catalog, Renderer};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable};
use serde_json::{Value, json};

const BASIC: &str = "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json";

/// Where the host puts the surface: known edges to measure against.
const HOST: Rect = Rect {
    min: Pos2 { x: 20.0, y: 20.0 },
    max: Pos2 { x: 520.0, y: 380.0 },
};

/// Pixel tolerance for positions: egui rounds rects to whole points.
const TOL: f32 = 1.5;

/// The gap between Row and Column children (`Style::default().flex_gap`, the web
/// renderer's `--a2ui-spacing-m`).
const GAP: f32 = 8.0;

fn renderer(components: Value, data: Option<Value>) -> Renderer {
    let mut r = Renderer::new(Catalog::basic());
    r.options_mut().show_surface_header = false;
    r.apply(json!({"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": BASIC}}))
        .into_result()
        .expect("createSurface");
    r.apply(json!({"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": components}})).into_result()
        .expect("updateComponents");
    if let Some(data) = data {
        r.apply(json!({"version": "v0.9", "updateDataModel": {"surfaceId": "s", "path": "/", "value": data}})).into_result()
            .expect("updateDataModel");
    }
    r
}

fn harness(r: Renderer) -> Harness<'static, Renderer> {
    let mut h = Harness::builder()
        .with_size(vec2(600.0, 400.0))
        // Wheel scrolling lands at once, so one `run` sees where it ends.
        .with_context_setup(|ctx| {
            ctx.all_styles_mut(|s| s.scroll_animation = egui::style::ScrollAnimation::none());
        })
        .build_ui_state(
            |ui, r: &mut Renderer| {
                ui.scope_builder(UiBuilder::new().max_rect(HOST), |ui| {
                    let _ = r.ui(ui);
                });
            },
            r,
        );
    h.run();
    h
}

fn rect(h: &Harness<'_, Renderer>, label: &str) -> Rect {
    h.get_by_label(label).rect()
}

fn close(a: f32, b: f32, what: &str) {
    assert!((a - b).abs() <= TOL, "{what}: {a} vs {b}");
}

/// A Row of three short texts with this `justify`: their rects, left to right.
fn row_of_three(justify: &str) -> [Rect; 3] {
    let h = harness(renderer(
        json!([
            {"id": "root", "component": "Row", "justify": justify, "children": ["a", "b", "c"]},
            {"id": "a", "component": "Text", "text": "Aa"},
            {"id": "b", "component": "Text", "text": "Bb"},
            {"id": "c", "component": "Text", "text": "Cc"},
        ]),
        None,
    ));
    [rect(&h, "Aa"), rect(&h, "Bb"), rect(&h, "Cc")]
}

/// Space before the first, between neighbours, and after the last child.
fn spaces([a, b, c]: [Rect; 3]) -> (f32, f32, f32, f32) {
    (
        a.left() - HOST.left(),
        b.left() - a.right(),
        c.left() - b.right(),
        HOST.right() - c.right(),
    )
}

#[test]
fn justify_start_packs_children_at_the_left_of_a_full_width_row() {
    let (before, ab, bc, after) = spaces(row_of_three("start"));
    close(ab, GAP, "the flex gap");
    close(bc, GAP, "the flex gap");
    assert!(before < 10.0, "first child at the left edge: {before}");
    assert!(after > 300.0, "the free space is at the end: {after}");
}

#[test]
fn justify_is_start_when_absent() {
    let h = harness(renderer(
        json!([
            {"id": "root", "component": "Row", "children": ["a", "b"]},
            {"id": "a", "component": "Text", "text": "Aa"},
            {"id": "b", "component": "Text", "text": "Bb"},
        ]),
        None,
    ));
    assert!(rect(&h, "Aa").left() - HOST.left() < 10.0);
    assert!(HOST.right() - rect(&h, "Bb").right() > 300.0);
}

#[test]
fn justify_end_packs_children_at_the_right_edge() {
    let (before, ab, bc, after) = spaces(row_of_three("end"));
    close(ab, GAP, "the flex gap");
    close(bc, GAP, "the flex gap");
    assert!(after < 10.0, "last child at the right edge: {after}");
    assert!(before > 300.0, "the free space is at the start: {before}");
}

#[test]
fn justify_center_leaves_equal_space_on_both_sides() {
    let (before, ab, bc, after) = spaces(row_of_three("center"));
    close(before, after, "centred");
    close(ab, bc, "packed together");
    assert!(before > 150.0, "{before}");
}

#[test]
fn justify_space_between_puts_the_free_space_between_children() {
    let (before, ab, bc, after) = spaces(row_of_three("spaceBetween"));
    close(before, after, "both ends at the edges");
    assert!(before < 10.0, "{before}");
    close(ab, bc, "equal gaps");
    assert!(ab > 150.0, "{ab}");
}

#[test]
fn justify_space_around_gives_edges_half_the_gap() {
    let (before, ab, bc, after) = spaces(row_of_three("spaceAround"));
    close(before, after, "symmetric");
    close(ab, bc, "equal gaps");
    close(
        ab - GAP,
        2.0 * before,
        "edge space is half the free space between",
    );
    assert!(before > 50.0, "{before}");
}

#[test]
fn justify_space_evenly_makes_every_space_equal() {
    let (before, ab, bc, after) = spaces(row_of_three("spaceEvenly"));
    close(before, after, "symmetric");
    close(ab, bc, "equal gaps");
    close(before, ab - GAP, "edges equal the free space between");
    assert!(before > 50.0, "{before}");
}

#[test]
fn justify_stretch_shares_the_row_equally() {
    let [a, b, c] = row_of_three("stretch");
    let cell = (HOST.width() - 2.0 * GAP) / 3.0;
    close(b.left() - a.left(), cell + GAP, "first cell");
    close(c.left() - b.left(), cell + GAP, "second cell");
}

#[test]
fn weights_one_and_two_give_the_second_child_twice_the_extra_width() {
    let h = harness(renderer(
        json!([
            {"id": "root", "component": "Row", "children": ["fixed", "one", "two"]},
            {"id": "fixed", "component": "Text", "text": "Fixed label"},
            {"id": "one", "component": "Text", "text": "One", "weight": 1},
            {"id": "two", "component": "Text", "text": "Two", "weight": 2},
        ]),
        None,
    ));
    let fixed = rect(&h, "Fixed label");
    let one = rect(&h, "One");
    let two = rect(&h, "Two");
    let extra = HOST.right() - fixed.right();
    let first = two.left() - one.left();
    let second = HOST.right() - two.left();
    close(
        first + second + GAP,
        extra,
        "the weighted children share all the extra width but the gap",
    );
    close(second, 2.0 * (first - GAP), "1:2");
}

#[test]
fn hostile_weights_are_ignored_without_panicking() {
    let h = harness(renderer(
        json!([
            {"id": "root", "component": "Row", "children": ["neg", "str", "huge", "plain"]},
            {"id": "neg", "component": "Text", "text": "Neg", "weight": -3},
            {"id": "str", "component": "Text", "text": "Str", "weight": "2"},
            {"id": "huge", "component": "Text", "text": "Huge", "weight": 1e308},
            {"id": "plain", "component": "Text", "text": "Plain"},
        ]),
        None,
    ));
    // Only the huge (clamped, valid) weight grows: it takes all the extra width, so the
    // text after it sits at the right edge.
    let neg = rect(&h, "Neg");
    let str_ = rect(&h, "Str");
    let huge = rect(&h, "Huge");
    let plain = rect(&h, "Plain");
    assert!(
        str_.left() - neg.right() < 10.0,
        "negative weight does not grow"
    );
    assert!(
        huge.left() - str_.right() < 10.0,
        "string weight does not grow"
    );
    assert!(HOST.right() - plain.right() < 10.0, "{plain:?}");
    assert!(plain.left() - huge.left() > 300.0, "{huge:?} {plain:?}");
}

/// A Row with a tall (h1) and a short text aligned `align`.
fn row_aligned(align: &str) -> (Rect, Rect) {
    let h = harness(renderer(
        json!([
            {"id": "root", "component": "Row", "align": align, "children": ["tall", "short"]},
            {"id": "tall", "component": "Text", "text": "Tall", "variant": "h1"},
            {"id": "short", "component": "Text", "text": "short"},
        ]),
        None,
    ));
    (rect(&h, "Tall"), rect(&h, "short"))
}

#[test]
fn row_align_start_puts_children_at_the_top() {
    let (tall, short) = row_aligned("start");
    assert!(
        tall.height() > short.height() + 5.0,
        "fixture: {tall:?} {short:?}"
    );
    close(tall.top(), short.top(), "tops");
}

#[test]
fn row_align_center_centres_children_vertically() {
    let (tall, short) = row_aligned("center");
    close(tall.center().y, short.center().y, "centres");
    assert!(short.top() > tall.top() + 3.0);
}

#[test]
fn row_align_end_puts_children_at_the_bottom() {
    let (tall, short) = row_aligned("end");
    close(tall.bottom(), short.bottom(), "bottoms");
}

/// A Row (align given or default) of a tall text and a Column (justify end) holding a
/// short text: the short text sits at the bottom of the Column, so where it ends shows
/// how tall the Column was made.
fn row_with_column(align: Option<&str>) -> (Rect, Rect) {
    let mut row = json!({"id": "root", "component": "Row", "children": ["tall", "col"]});
    if let Some(a) = align {
        row["align"] = json!(a);
    }
    let h = harness(renderer(
        json!([
            row,
            {"id": "tall", "component": "Text", "text": "Tall", "variant": "h1"},
            {"id": "col", "component": "Column", "justify": "end", "children": ["short"]},
            {"id": "short", "component": "Text", "text": "short"},
        ]),
        None,
    ));
    (rect(&h, "Tall"), rect(&h, "short"))
}

#[test]
fn row_align_stretch_is_the_default_and_makes_children_as_tall_as_the_row() {
    for align in [None, Some("stretch")] {
        let (tall, short) = row_with_column(align);
        close(
            tall.bottom(),
            short.bottom(),
            "the column fills the row's height",
        );
    }
    let (tall, short) = row_with_column(Some("start"));
    assert!(
        short.bottom() < tall.bottom() - 5.0,
        "unstretched, the column is short"
    );
}

/// A Column (align given or default) of a wide text and a Card around a Row (justify end)
/// holding a short text: the short text ends where the Card's content ends.
fn column_with_card(align: Option<&str>) -> (Rect, Rect) {
    let mut column = json!({"id": "root", "component": "Column", "children": ["wide", "card"]});
    if let Some(a) = align {
        column["align"] = json!(a);
    }
    let h = harness(renderer(
        json!([
            column,
            {"id": "wide", "component": "Text", "text": "A wide text on top"},
            {"id": "card", "component": "Card", "child": "row"},
            {"id": "row", "component": "Row", "justify": "end", "children": ["short"]},
            {"id": "short", "component": "Text", "text": "short"},
        ]),
        None,
    ));
    (rect(&h, "A wide text on top"), rect(&h, "short"))
}

#[test]
fn column_align_stretch_is_the_default_and_makes_children_as_wide_as_the_column() {
    for align in [None, Some("stretch")] {
        let (_, short) = column_with_card(align);
        let inset = HOST.right() - short.right();
        assert!(
            (10.0..=30.0).contains(&inset),
            "the card fills the width: {short:?}"
        );
    }
    let (wide, short) = column_with_card(Some("start"));
    assert!(
        short.right() < wide.right() + 40.0,
        "unstretched, the card wraps its content"
    );
}

/// A Column with this `align` of a wide and a short text.
fn column_of_texts(align: &str) -> (Rect, Rect) {
    let h = harness(renderer(
        json!([
            {"id": "root", "component": "Column", "align": align, "children": ["wide", "short"]},
            {"id": "wide", "component": "Text", "text": "A wide text on top"},
            {"id": "short", "component": "Text", "text": "short"},
        ]),
        None,
    ));
    (rect(&h, "A wide text on top"), rect(&h, "short"))
}

#[test]
fn column_align_start_center_end_place_children_across_the_column() {
    let (wide, short) = column_of_texts("start");
    close(wide.left(), short.left(), "start: left edges");
    assert!(wide.left() - HOST.left() < 10.0);
    let (wide, short) = column_of_texts("end");
    close(wide.right(), short.right(), "end: right edges");
    assert!(HOST.right() - short.right() < 10.0);
    let (wide, short) = column_of_texts("center");
    close(wide.center().x, short.center().x, "center: centres");
    close(wide.center().x, HOST.center().x, "centred in the column");
}

#[test]
fn a_row_is_aligned_in_a_column_like_any_other_child() {
    // As in the web renderer (a Row has no `width: 100%`): a row of buttons in a centred
    // column is centred (`25_contact-card`).
    for align in ["start", "center", "end"] {
        let h = harness(renderer(
            json!([
                {"id": "root", "component": "Column", "align": align, "children": ["wide", "row"]},
                {"id": "wide", "component": "Text", "text": "A wide text on top"},
                {"id": "row", "component": "Row", "justify": "spaceBetween", "children": ["l", "r"]},
                {"id": "l", "component": "Text", "text": "Left"},
                {"id": "r", "component": "Text", "text": "Right"},
            ]),
            None,
        ));
        let (left, right) = (rect(&h, "Left"), rect(&h, "Right"));
        close(right.left() - left.right(), GAP, "packed with the gap");
        match align {
            "start" => close(left.left(), HOST.left(), align),
            "end" => close(right.right(), HOST.right(), align),
            _ => close(
                left.left() - HOST.left(),
                HOST.right() - right.right(),
                align,
            ),
        }
    }
}

#[test]
fn a_column_spans_a_centred_column_and_its_text_blocks_take_its_width() {
    // `width: 100%` in the web renderer: a nested Column fills a centred column, and the
    // texts in a stretched column are blocks of its width (their glyphs left-aligned).
    let h = harness(renderer(
        json!([
            {"id": "root", "component": "Column", "align": "center", "children": ["title", "inner"]},
            {"id": "title", "component": "Text", "text": "Centred title"},
            {"id": "inner", "component": "Column", "children": ["line"]},
            {"id": "line", "component": "Text", "text": "Left line"},
        ]),
        None,
    ));
    let title = rect(&h, "Centred title");
    close(
        title.left() - HOST.left(),
        HOST.right() - title.right(),
        "the title is centred",
    );
    close(
        rect(&h, "Left line").left(),
        HOST.left(),
        "the inner column spans",
    );
}

#[test]
fn column_justify_has_no_free_space_to_distribute_without_a_fixed_height() {
    let h = harness(renderer(
        json!([
            {"id": "root", "component": "Column", "justify": "spaceBetween", "children": ["a", "b"]},
            {"id": "a", "component": "Text", "text": "Aa"},
            {"id": "b", "component": "Text", "text": "Bb"},
        ]),
        None,
    ));
    assert!(rect(&h, "Bb").top() - rect(&h, "Aa").bottom() < 10.0);
}

fn items(n: usize) -> Value {
    let items: Vec<Value> = (0..n)
        .map(|i| json!({"name": format!("Item {i}")}))
        .collect();
    json!({ "items": items })
}

fn big_list() -> Harness<'static, Renderer> {
    harness(renderer(
        json!([
            {"id": "root", "component": "List", "children": {"componentId": "row", "path": "/items"}},
            {"id": "row", "component": "Text", "text": {"path": "name"}},
        ]),
        Some(items(100_000)),
    ))
}

fn visible_items(h: &Harness<'_, Renderer>) -> Vec<usize> {
    h.query_all_by_label_contains("Item ")
        .filter_map(|n| {
            let node = n.accesskit_node();
            let text = node.label().or_else(|| node.value())?;
            text.strip_prefix("Item ")?.parse().ok()
        })
        .collect()
}

fn list_item_count(h: &Harness<'_, Renderer>) -> usize {
    h.query_all_by_role(egui::accesskit::Role::ListItem).count()
}

fn wheel(h: &mut Harness<'_, Renderer>, delta: Vec2) {
    h.hover_at(pos2(HOST.center().x, HOST.top() + 100.0));
    h.event(egui::Event::MouseWheel {
        unit: egui::MouseWheelUnit::Point,
        delta,
        phase: egui::TouchPhase::Move,
        source: egui::MouseWheelSource::Unknown,
        modifiers: egui::Modifiers::NONE,
    });
    // Wheel scrolling coasts on for a few frames (kinetic scrolling) before it rests.
    h.run_steps(30);
    h.run();
}

#[test]
fn a_list_of_100000_items_lays_out_only_the_rows_in_view() {
    let h = big_list();
    assert!(
        h.state().store().errors().is_empty(),
        "{:?}",
        h.state().store().errors()
    );
    let rows = list_item_count(&h);
    assert!((5..=60).contains(&rows), "{rows} rows laid out");
    let shown = visible_items(&h);
    assert!(shown.contains(&0), "{shown:?}");
    assert!(shown.iter().all(|i| *i < 60), "{shown:?}");
    let first = rect(&h, "Item 0");
    let second = rect(&h, "Item 1");
    assert!(second.top() >= first.bottom() - TOL, "rows stack downwards");
}

#[test]
fn scrolling_a_virtualised_list_shows_later_rows() {
    let mut h = big_list();
    wheel(&mut h, vec2(0.0, -3000.0));
    let shown = visible_items(&h);
    assert!(
        !shown.contains(&0),
        "the first row scrolled away: {shown:?}"
    );
    assert!(shown.iter().all(|i| *i > 50), "{shown:?}");
    assert!(list_item_count(&h) <= 60);

    wheel(&mut h, vec2(0.0, -1.0e9));
    let shown = visible_items(&h);
    assert!(shown.contains(&99_999), "the end is reachable: {shown:?}");
    assert!(list_item_count(&h) <= 60);
}

#[test]
fn a_static_list_draws_every_child_in_order() {
    let h = harness(renderer(
        json!([
            {"id": "root", "component": "List", "children": ["a", "b", "c"]},
            {"id": "a", "component": "Text", "text": "Aa"},
            {"id": "b", "component": "Text", "text": "Bb"},
            {"id": "c", "component": "Text", "text": "Cc"},
        ]),
        None,
    ));
    assert_eq!(list_item_count(&h), 3);
    assert!(rect(&h, "Bb").top() >= rect(&h, "Aa").bottom() - TOL);
    assert!(rect(&h, "Cc").top() >= rect(&h, "Bb").bottom() - TOL);
}

#[test]
fn a_horizontal_list_lays_rows_out_left_to_right() {
    let h = harness(renderer(
        json!([
            {"id": "root", "component": "List", "direction": "horizontal",
             "children": {"componentId": "row", "path": "/items"}},
            {"id": "row", "component": "Text", "text": {"path": "name"}},
        ]),
        Some(items(1000)),
    ));
    let a = rect(&h, "Item 0");
    let b = rect(&h, "Item 1");
    assert!(b.left() >= a.right() - TOL, "{a:?} {b:?}");
    close(a.top(), b.top(), "same line");
    let shown = visible_items(&h);
    assert!(shown.len() < 200, "virtualised across too: {}", shown.len());
}

#[test]
fn a_list_over_missing_or_odd_data_draws_nothing_and_does_not_panic() {
    for data in [
        None,
        Some(json!({"items": 5})),
        Some(json!({"items": {"a": 1}})),
    ] {
        let h = harness(renderer(
            json!([
                {"id": "root", "component": "List", "children": {"componentId": "row", "path": "/items"}},
                {"id": "row", "component": "Text", "text": {"path": "name"}},
            ]),
            data,
        ));
        assert_eq!(list_item_count(&h), 0);
    }
}

#[test]
fn a_list_in_a_stretched_row_keeps_its_content_height() {
    let mut components = vec![
        json!({"id": "root", "component": "Column", "children": ["row", "after"]}),
        json!({"id": "row", "component": "Row", "children": ["list"]}),
        json!({"id": "list", "component": "List",
               "children": (0..8).map(|i| format!("t{i}")).collect::<Vec<_>>()}),
        json!({"id": "after", "component": "Text", "text": "After"}),
    ];
    components.extend(
        (0..8).map(
            |i| json!({"id": format!("t{i}"), "component": "Text", "text": format!("Line {i}")}),
        ),
    );
    let h = harness(renderer(Value::Array(components), None));
    let last = rect(&h, "Line 7");
    let after = rect(&h, "After");
    assert!(after.top() >= last.bottom() - TOL, "{last:?} {after:?}");
    assert!(
        after.top() - last.bottom() < 10.0,
        "and no taller: {last:?} {after:?}"
    );
}

#[test]
fn items_of_a_horizontal_list_are_no_wider_than_the_list() {
    let long = "word ".repeat(200);
    let h = harness(renderer(
        json!([
            {"id": "root", "component": "List", "direction": "horizontal", "children": ["long", "next"]},
            {"id": "long", "component": "Text", "text": long.trim()},
            {"id": "next", "component": "Text", "text": "Next"},
        ]),
        None,
    ));
    let text = h.get_by_label_contains("word word").rect();
    assert!(text.width() <= HOST.width() + TOL, "{text:?}");
    assert!(text.height() > 30.0, "it wraps: {text:?}");
}

// ------------------------------------------------------------------ geometry observable
// The bugs of issue 13, each checked on the boxes the renderer records (the
// `a2ui-geometry/1` document `a2ui_dump --geometry` prints), laid out as the web
// reference page does: a 420 px wide page, surfaces at 16 px.

fn geometry(components: Value, data: Option<Value>, height: f32) -> Value {
    let mut lines = vec![
        json!({"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": BASIC}}),
        json!({"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": components}}),
    ];
    if let Some(data) = data {
        lines.push(json!({"version": "v0.9", "updateDataModel": {"surfaceId": "s", "path": "/", "value": data}}));
    }
    let doc: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let options = egui_a2ui::render::GeometryOptions {
        height,
        ..Default::default()
    };
    egui_a2ui::testing::layout_geometry(doc.as_bytes(), &options, Default::default())
}

/// `[x, y, w, h]` of instance 0 of `id`, `None` when recorded as drawing nothing.
fn drawn(g: &Value, id: &str) -> Option<[f64; 4]> {
    let b = g["surfaces"]["s"]["components"][id].get(0)?;
    let a = b.as_array()?;
    Some([
        a[0].as_f64()?,
        a[1].as_f64()?,
        a[2].as_f64()?,
        a[3].as_f64()?,
    ])
}

fn must(g: &Value, id: &str) -> [f64; 4] {
    drawn(g, id).unwrap_or_else(|| panic!("{id} not drawn: {g:#}"))
}

#[test]
fn geometry_card_content_sits_at_the_reference_inset() {
    // Card: 8 px margin, 1 px border, 8 px padding; the child at 17 px (it was 28).
    let g = geometry(
        json!([
            {"id": "root", "component": "Card", "child": "col"},
            {"id": "col", "component": "Column", "children": ["t"]},
            {"id": "t", "component": "Text", "text": "Hello"},
        ]),
        None,
        560.0,
    );
    assert_eq!(must(&g, "root")[..2], [8.0, 8.0]);
    assert_eq!(must(&g, "root")[2], 388.0 - 16.0);
    assert_eq!(must(&g, "col")[..3], [17.0, 17.0, 354.0]);
    // A body text block: the column's width, a 24 px line.
    assert_eq!(must(&g, "t"), [17.0, 17.0, 354.0, 24.0]);
}

#[test]
fn geometry_row_and_column_children_have_8px_gaps() {
    let g = geometry(
        json!([
            {"id": "root", "component": "Column", "children": ["row", "below"]},
            {"id": "row", "component": "Row", "children": ["a", "b"]},
            {"id": "a", "component": "Text", "text": "Purchase"},
            {"id": "b", "component": "Text", "text": "Add to cart"},
            {"id": "below", "component": "Text", "text": "Below"},
        ]),
        None,
        560.0,
    );
    let (a, b) = (must(&g, "a"), must(&g, "b"));
    assert_eq!(b[0] - (a[0] + a[2]), 8.0, "{a:?} {b:?}");
    let (row, below) = (must(&g, "row"), must(&g, "below"));
    assert_eq!(below[1] - (row[1] + row[3]), 8.0, "{row:?} {below:?}");
}

#[test]
fn geometry_controls_fill_the_column_width() {
    let g = geometry(
        json!([
            {"id": "root", "component": "Card", "child": "col"},
            {"id": "col", "component": "Column", "children": ["tf", "cb", "cp", "dt"]},
            {"id": "tf", "component": "TextField", "label": "Email", "value": {"path": "/e"}},
            {"id": "cb", "component": "CheckBox", "label": "Subscribe", "value": {"path": "/c"}},
            {"id": "cp", "component": "ChoicePicker", "options": [{"label": "A", "value": "a"}],
             "value": {"path": "/p"}},
            {"id": "dt", "component": "DateTimeInput", "label": "When", "enableDate": true,
             "value": {"path": "/d"}},
        ]),
        Some(json!({"e": "", "c": false, "p": [], "d": "2025-01-02"})),
        560.0,
    );
    // The column's full 354 px (the CheckBox's 8 px margins inside it), as in the reference.
    assert_eq!(must(&g, "tf")[2], 354.0);
    assert_eq!(must(&g, "cb")[2], 354.0 - 16.0);
    assert_eq!(must(&g, "cp")[2], 354.0);
    assert_eq!(must(&g, "dt")[2], 354.0);
    // A TextField's box includes its label: a label line, the gap and the 32 px box.
    let tf = must(&g, "tf");
    assert!((48.0..=52.0).contains(&tf[3]), "{tf:?}");
}

#[test]
fn geometry_divider_in_a_centred_column_draws_nothing_but_keeps_its_margins() {
    // `25_contact-card`: the divider used to start at the centre and run past the card.
    let g = geometry(
        json!([
            {"id": "root", "component": "Card", "child": "col"},
            {"id": "col", "component": "Column", "align": "center",
             "children": ["above", "hr", "below"]},
            {"id": "above", "component": "Text", "text": "Above"},
            {"id": "hr", "component": "Divider"},
            {"id": "below", "component": "Text", "text": "Below"},
        ]),
        None,
        560.0,
    );
    assert_eq!(drawn(&g, "hr"), None, "zero length: {g:#}");
    assert_eq!(
        g["surfaces"]["s"]["hidden"]["hr"][0]["reason"],
        json!("zero-size")
    );
    let (above, below) = (must(&g, "above"), must(&g, "below"));
    // gap 8, margin 8, line 1, margin 8, gap 8.
    assert_eq!(below[1] - (above[1] + above[3]), 33.0);
    let card = must(&g, "root");
    for id in ["above", "below"] {
        let b = must(&g, id);
        assert!(b[0] + b[2] <= card[0] + card[2], "{id} inside the card");
    }
}

#[test]
fn geometry_tabs_content_starts_under_the_bar_whatever_the_host_height() {
    let components = json!([
        {"id": "root", "component": "Tabs", "tabs": [
            {"title": "One", "child": "one"}, {"title": "Two", "child": "two"}]},
        {"id": "one", "component": "Text", "text": "First tab"},
        {"id": "two", "component": "Text", "text": "Second tab"},
    ]);
    let short = geometry(components.clone(), None, 560.0);
    let tall = geometry(components, None, 2000.0);
    let content = must(&short, "one");
    assert_eq!(
        content,
        must(&tall, "one"),
        "independent of the host height"
    );
    // Bar (a label line with 4 px padding, a 2 px rule) and the 8 px content padding.
    assert!((30.0..=40.0).contains(&content[1]), "{content:?}");
}

#[test]
fn geometry_button_row_is_centred_in_a_centred_column() {
    let g = geometry(
        json!([
            {"id": "root", "component": "Column", "align": "center", "children": ["title", "actions"]},
            {"id": "title", "component": "Text", "text": "A title wider than the buttons are"},
            {"id": "actions", "component": "Row", "children": ["call", "msg"]},
            {"id": "call", "component": "Button", "child": "call-t", "action": {"event": {"name": "c"}}},
            {"id": "call-t", "component": "Text", "text": "Call"},
            {"id": "msg", "component": "Button", "child": "msg-t", "action": {"event": {"name": "m"}}},
            {"id": "msg-t", "component": "Text", "text": "Message"},
        ]),
        None,
        560.0,
    );
    let row = must(&g, "actions");
    let left = row[0];
    let right = 388.0 - (row[0] + row[2]);
    assert!((left - right).abs() <= 1.0, "{row:?}");
    // Buttons: a 42 px frame (24 px line, 8 px padding, 1 px border) inside an 8 px margin.
    let call = must(&g, "call");
    assert_eq!(call[3], 42.0);
    assert_eq!(call[0] - row[0], 8.0);
}

#[test]
fn geometry_failed_remote_image_collapses() {
    // No http loader in tests: the remote image fails, and must not leave a 300x200 hole.
    let g = geometry(
        json!([
            {"id": "root", "component": "Column", "children": ["img", "after"]},
            {"id": "img", "component": "Image", "url": "https://example.invalid/a.png"},
            {"id": "after", "component": "Text", "text": "After"},
        ]),
        None,
        560.0,
    );
    assert_eq!(drawn(&g, "img"), None);
    assert_eq!(must(&g, "after")[1], 8.0, "only the gap before it");
}

#[test]
fn geometry_check_boxes_and_sliders_keep_their_margin_in_any_parent() {
    // The 8 px control margin: kept by a Row's or Column's slot, applied by the component
    // itself elsewhere (a Card's child, the root); the box is the same either way.
    let in_column = geometry(
        json!([
            {"id": "root", "component": "Column", "children": ["c", "s"]},
            {"id": "c", "component": "CheckBox", "label": "Done", "value": true},
            {"id": "s", "component": "Slider", "label": "Level", "value": 5, "min": 0, "max": 10},
        ]),
        None,
        560.0,
    );
    let col = must(&in_column, "root");
    let c = must(&in_column, "c");
    let s = must(&in_column, "s");
    assert_eq!(c[..2], [col[0] + 8.0, col[1] + 8.0]);
    // The slider follows the check box's margin box and the Column's 8 px gap.
    assert_eq!(s[..2], [col[0] + 8.0, c[1] + c[3] + 8.0 + 8.0 + 8.0]);
    for (child, root) in [("c", "CheckBox"), ("s", "Slider")] {
        let props = match root {
            "CheckBox" => json!({"label": "Done", "value": true}),
            _ => json!({"label": "Level", "value": 5, "min": 0, "max": 10}),
        };
        let mut alone = json!({"id": "root", "component": root});
        let mut in_card_child = json!({"id": "x", "component": root});
        for (k, v) in props.as_object().unwrap() {
            alone[k] = v.clone();
            in_card_child[k] = v.clone();
        }
        let g = geometry(json!([alone]), None, 560.0);
        let own = must(&g, "root");
        let inside = must(&in_column, child);
        assert_eq!(own[3], inside[3], "{root}: the same height alone");
        let card = geometry(
            json!([{"id": "root", "component": "Card", "child": "x"}, in_card_child]),
            None,
            560.0,
        );
        // The Card's content starts 17 px in (margin, border, padding); the control 8 more.
        let x = must(&card, "x");
        let r = must(&card, "root");
        assert_eq!(
            x[..2],
            [r[0] + 9.0 + 8.0, r[1] + 9.0 + 8.0],
            "{root} in a Card"
        );
        assert_eq!(x[3], inside[3], "{root}: the same height in a Card");
    }
}
