//! The row every search-results list sends (issue 42): a `Row` holding a `Column` of texts
//! and a `Button`, no weights, laid out headless (`egui_a2ui::testing::layout_geometry`, the
//! reference page's layout) and checked against what CSS flex gives in the official web
//! renderer:
//!
//! - every item starts at its flex basis: a Button its label plus padding, a Column the
//!   row's whole length (the web renderer gives Column `width: 100%`; the public fixtures
//!   show it: `07_task-card`'s and `13_coffee-order`'s columns take what their siblings
//!   leave, `01_flight-status`'s three columns share the row equally);
//! - an overflowing row shrinks its items in proportion to their bases, never below their
//!   min-content width (`min-width: auto`): a Button keeps its label's longest word plus
//!   padding, so it stays one line tall;
//! - the row is as tall as its tallest item.

use egui::FontId;
use egui_a2ui::Style;
use egui_a2ui::render::{GeometryOptions, RendererOptions};
use egui_a2ui::testing::layout_geometry;
use serde_json::{Value, json};

const BASIC: &str = "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json";

/// The reference page's padding on each side of a surface.
const PAGE: f32 = 16.0;

/// Position tolerance: the geometry is rounded to half points, egui rounds to pixels.
const TOL: f32 = 1.5;

/// A `[x, y, w, h]` box.
#[derive(Clone, Copy, Debug)]
struct Bx {
    x: f32,
    #[allow(dead_code)] // shown in failure messages
    y: f32,
    w: f32,
    h: f32,
}

impl Bx {
    fn right(self) -> f32 {
        self.x + self.w
    }
}

/// The geometry of `components` on the reference page, `width` CSS px wide.
fn layout(components: Value, width: f32) -> Value {
    layout_with(components, width, RendererOptions::default())
}

/// [`layout`] with these renderer options.
fn layout_with(components: Value, width: f32, renderer: RendererOptions) -> Value {
    let doc = format!(
        "{}\n{}\n",
        json!({"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": BASIC}}),
        json!({"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": components}}),
    );
    let options = GeometryOptions {
        width,
        height: 900.0,
        fixture: "search-results".to_owned(),
        ..GeometryOptions::default()
    };
    let g = layout_geometry(doc.as_bytes(), &options, renderer);
    assert_eq!(g["errors"], json!([]), "{g}");
    g
}

/// Instance `i` of component `id`.
fn bx(g: &Value, id: &str, i: usize) -> Bx {
    let b = &g["surfaces"]["s"]["components"][id][i];
    let v = |k: usize| b[k].as_f64().unwrap_or_else(|| panic!("{id}#{i}: {b}")) as f32;
    Bx {
        x: v(0),
        y: v(1),
        w: v(2),
        h: v(3),
    }
}

fn close(a: f32, b: f32, what: &str) {
    assert!((a - b).abs() <= TOL, "{what}: {a} vs {b}");
}

/// Widths in the renderer's fonts, as the browser measures the reference's text.
struct Fonts(egui::Context);

impl Fonts {
    fn new() -> Self {
        let ctx = egui::Context::default();
        egui_a2ui::Renderer::install(&ctx);
        // Fonts exist only once a pass has run.
        let mut out = ctx.run_ui(egui::RawInput::default(), |_| {});
        out.textures_delta.clear();
        Self(ctx)
    }

    /// The unwrapped width of `text` in the body font.
    fn body(&self, text: &str) -> f32 {
        let size = Style::default().body.size;
        self.0.fonts_mut(|f| {
            f.layout_no_wrap(
                text.to_owned(),
                FontId::proportional(size),
                egui::Color32::PLACEHOLDER,
            )
            .size()
            .x
        })
    }

    /// The width of the widest word of `text` in the body font.
    fn longest_word(&self, text: &str) -> f32 {
        text.split_whitespace()
            .map(|w| self.body(w))
            .fold(0.0, f32::max)
    }
}

/// A button's box width around a label `label` wide: padding and border on both sides
/// (`.a2ui-button { padding: 8px 16px; border: 1px }`).
fn button_width(label: f32) -> f32 {
    let s = Style::default();
    label + 2.0 * (s.button_padding.x + s.button_border)
}

/// The search-results row: `[thumbnail?] Column(title, subtitle) Button(label)`.
fn result_row(n: usize, title: &str, subtitle: &str, label: &str, image: bool) -> Vec<Value> {
    let mut children = vec![];
    let mut out = vec![];
    if image {
        children.push(format!("img{n}"));
        out.push(json!({"id": format!("img{n}"), "component": "Image",
            "url": "https://example.invalid/thumb.png", "variant": "icon"}));
    }
    children.push(format!("col{n}"));
    children.push(format!("btn{n}"));
    out.push(
        json!({"id": format!("row{n}"), "component": "Row", "align": "center",
        "children": children}),
    );
    out.push(json!({"id": format!("col{n}"), "component": "Column",
        "children": [format!("title{n}"), format!("sub{n}")]}));
    out.push(json!({"id": format!("title{n}"), "component": "Text", "text": title}));
    out.push(
        json!({"id": format!("sub{n}"), "component": "Text", "text": subtitle,
        "variant": "caption"}),
    );
    out.push(
        json!({"id": format!("btn{n}"), "component": "Button", "child": format!("bl{n}"),
        "action": {"event": {"name": "reserve"}}}),
    );
    out.push(json!({"id": format!("bl{n}"), "component": "Text", "text": label}));
    out
}

/// A surface whose root is the row `0` itself.
fn single(title: &str, subtitle: &str, label: &str, image: bool) -> Value {
    let mut comps = result_row(0, title, subtitle, label, image);
    comps[if image { 1 } else { 0 }]["id"] = json!("root");
    // The Column and Button keep their ids; the row is the root.
    Value::Array(comps)
}

/// The box of a lone default Button with this label (its natural size: one line).
fn lone_button(label: &str) -> Bx {
    let g = layout(
        json!([
            {"id": "root", "component": "Row", "children": ["b"]},
            {"id": "b", "component": "Button", "child": "l", "action": {"event": {"name": "x"}}},
            {"id": "l", "component": "Text", "text": label},
        ]),
        600.0,
    );
    bx(&g, "b", 0)
}

const TITLE: &str = "Trattoria da Enzo al 29";
const SUBTITLE: &str = "Italian · Trastevere · 4.6 ★";

/// The invariants of the row at `width`, where everything fits on one line.
fn check_row(width: f32, image: bool) {
    let fonts = Fonts::new();
    let g = layout(single(TITLE, SUBTITLE, "Reserve", image), width);
    let row = bx(&g, "root", 0);
    let col = bx(&g, "col0", 0);
    let btn = bx(&g, "btn0", 0);
    let lone = lone_button("Reserve");
    let at = format!("{width} px{}", if image { " with a thumbnail" } else { "" });
    // The row fills the surface.
    close(row.w, width - 2.0 * PAGE, &format!("{at}: row width"));
    // The button is a normal one-line button: its label plus padding, as tall as alone.
    close(btn.w, lone.w, &format!("{at}: button width"));
    close(btn.h, lone.h, &format!("{at}: button height (one line)"));
    assert!(
        btn.w >= button_width(fonts.longest_word("Reserve")) - TOL,
        "{at}: the button ({}) is narrower than its label's longest word plus padding ({})",
        btn.w,
        button_width(fonts.longest_word("Reserve"))
    );
    close(
        btn.w,
        button_width(fonts.body("Reserve")),
        &format!("{at}: button = label + padding"),
    );
    // CSS: the Column's basis is the row's length (`width: 100%`); it shrinks by the
    // button's basis and the gap, so it takes exactly what the button (and thumbnail) leave,
    // and the button ends at the row's right edge (its 8 px margin inside).
    let margin = Style::default().button_margin;
    let gap = Style::default().flex_gap;
    close(
        btn.right() + margin,
        row.right(),
        &format!("{at}: button at the row's end"),
    );
    close(
        col.right() + gap + margin,
        btn.x,
        &format!("{at}: column up to the button"),
    );
    if image {
        let img = bx(&g, "img0", 0);
        close(img.w, 24.0, &format!("{at}: the thumbnail keeps its size"));
        close(
            img.right() + gap,
            col.x,
            &format!("{at}: column after the thumbnail"),
        );
    } else {
        close(col.x, row.x, &format!("{at}: column at the row's start"));
    }
    // The Column is at least as wide as its content's max-content when there is room.
    let content = fonts.body(TITLE);
    if row.w - lone.w - 2.0 * margin - gap - if image { 32.0 } else { 0.0 } > content {
        assert!(
            col.w + TOL >= content,
            "{at}: the column ({}) is narrower than its title ({content})",
            col.w
        );
        // Its texts stay on one line: the column is two lines tall.
        let title = bx(&g, "title0", 0);
        assert!(
            title.h < 1.5 * Style::default().body.line_height,
            "{at}: the title wrapped: {title:?}"
        );
    }
    // The row is no taller than its tallest item (the button with its margin).
    let tallest = [col.h, btn.h + 2.0 * margin]
        .into_iter()
        .fold(0.0, f32::max);
    assert!(
        row.h <= tallest + TOL,
        "{at}: the row ({}) is taller than its tallest item ({tallest})",
        row.h
    );
}

#[test]
fn a_column_and_a_button_share_a_row_with_the_button_on_one_line() {
    for width in [420.0, 600.0] {
        check_row(width, false);
    }
}

#[test]
fn a_thumbnail_column_and_button_row_keeps_the_thumbnail_and_the_button_whole() {
    for width in [420.0, 600.0] {
        check_row(width, true);
    }
}

#[test]
fn a_narrow_row_wraps_the_column_and_never_squeezes_the_button() {
    let fonts = Fonts::new();
    // 300 px: the title no longer fits beside the button and wraps in the column.
    for image in [false, true] {
        let g = layout(single(TITLE, SUBTITLE, "Reserve", image), 300.0);
        let row = bx(&g, "root", 0);
        let col = bx(&g, "col0", 0);
        let btn = bx(&g, "btn0", 0);
        let lone = lone_button("Reserve");
        close(btn.w, lone.w, "button width at 300 px");
        close(btn.h, lone.h, "button height at 300 px (one line)");
        assert!(col.w >= fonts.longest_word(TITLE) - TOL, "{col:?}");
        assert!(btn.right() <= row.right() + TOL, "{btn:?} in {row:?}");
        assert!(row.h <= col.h.max(btn.h + 16.0) + TOL, "{row:?}");
    }
    // A two-word label may wrap between its words, never inside one: at 120 px the
    // column and the button are both at their min-content and the row overflows.
    let g = layout(single(TITLE, SUBTITLE, "Book now", false), 120.0);
    let btn = bx(&g, "btn0", 0);
    assert!(
        btn.w >= button_width(fonts.longest_word("Book now")) - TOL,
        "{btn:?} narrower than its longest word plus padding"
    );
    let col = bx(&g, "col0", 0);
    assert!(
        col.w >= fonts.longest_word(TITLE) - TOL,
        "the column keeps its longest word: {col:?}"
    );
}

#[test]
fn a_text_instead_of_the_column_keeps_its_width_and_the_button_its_line() {
    let fonts = Fonts::new();
    let g = layout(
        json!([
            {"id": "root", "component": "Row", "children": ["t", "b"]},
            {"id": "t", "component": "Text", "text": TITLE},
            {"id": "b", "component": "Button", "child": "l", "action": {"event": {"name": "x"}}},
            {"id": "l", "component": "Text", "text": "Reserve"},
        ]),
        420.0,
    );
    let t = bx(&g, "t", 0);
    let b = bx(&g, "b", 0);
    close(t.w, fonts.body(TITLE).ceil(), "text at its max-content");
    close(b.h, lone_button("Reserve").h, "button on one line");
    close(b.w, button_width(fonts.body("Reserve")), "button width");
    // Content-sized items packed at the start.
    close(
        b.x,
        t.right() + 8.0 + 8.0,
        "button after the text (gap and margin)",
    );
}

#[test]
fn two_columns_share_a_row_equally_as_in_the_reference() {
    // `01_flight-status`/`03_calendar-day`: columns without weights each have the row as
    // basis and shrink by the same amount.
    let g = layout(
        json!([
            {"id": "root", "component": "Row", "children": ["a", "b"]},
            {"id": "a", "component": "Column", "children": ["a1"]},
            {"id": "a1", "component": "Text", "text": "Departure"},
            {"id": "b", "component": "Column", "children": ["b1", "b2"]},
            {"id": "b1", "component": "Text", "text": "Arrival at the other end"},
            {"id": "b2", "component": "Text", "text": "10:45"},
        ]),
        420.0,
    );
    let row = bx(&g, "root", 0);
    let a = bx(&g, "a", 0);
    let b = bx(&g, "b", 0);
    let each = (row.w - 8.0) / 2.0;
    close(a.w, each, "first column");
    close(b.w, each, "second column");
    close(b.x, a.right() + 8.0, "gap");
}

#[test]
fn nested_rows_keep_every_button_on_one_line() {
    let fonts = Fonts::new();
    // A row holding a row of two buttons beside a column: the inner row's basis is its
    // buttons' widths and its min-content their longest words, so neither is squeezed.
    let g = layout(
        json!([
            {"id": "root", "component": "Row", "children": ["col", "actions"]},
            {"id": "col", "component": "Column", "children": ["t", "s"]},
            {"id": "t", "component": "Text", "text": TITLE},
            {"id": "s", "component": "Text", "text": SUBTITLE, "variant": "caption"},
            {"id": "actions", "component": "Row", "children": ["b1", "b2"]},
            {"id": "b1", "component": "Button", "child": "l1", "action": {"event": {"name": "x"}}},
            {"id": "l1", "component": "Text", "text": "Details"},
            {"id": "b2", "component": "Button", "child": "l2", "action": {"event": {"name": "y"}}},
            {"id": "l2", "component": "Text", "text": "Reserve"},
        ]),
        420.0,
    );
    let row = bx(&g, "root", 0);
    let lone = lone_button("Reserve");
    for (id, label) in [("b1", "Details"), ("b2", "Reserve")] {
        let b = bx(&g, id, 0);
        close(b.h, lone.h, &format!("{id} on one line"));
        close(b.w, button_width(fonts.body(label)), &format!("{id} width"));
        assert!(b.right() <= row.right() + TOL, "{id} {b:?} inside {row:?}");
    }
    let actions = bx(&g, "actions", 0);
    let col = bx(&g, "col", 0);
    close(
        actions.right(),
        row.right(),
        "the inner row ends the outer one",
    );
    close(col.right() + 8.0, actions.x, "the column takes the rest");
}

#[test]
fn a_list_of_result_rows_lays_every_row_out_alike() {
    let mut comps = vec![json!({"id": "root", "component": "Column",
        "children": ["row0", "row1", "row2"]})];
    for (n, (title, sub)) in [
        ("Trattoria da Enzo al 29", "Italian · Trastevere"),
        ("Roscioli", "Deli · Campo de' Fiori"),
        ("Pizzarium Bonci", "Pizza al taglio · Prati · €"),
    ]
    .into_iter()
    .enumerate()
    {
        comps.extend(result_row(n, title, sub, "Reserve", false));
    }
    let g = layout(Value::Array(comps), 420.0);
    let lone = lone_button("Reserve");
    let first = bx(&g, "btn0", 0);
    for n in 0..3 {
        let b = bx(&g, &format!("btn{n}"), 0);
        let row = bx(&g, &format!("row{n}"), 0);
        close(b.w, lone.w, &format!("button {n} width"));
        close(b.h, lone.h, &format!("button {n} on one line"));
        close(b.x, first.x, &format!("button {n} aligned with the first"));
        assert!(row.h <= lone.h + 16.0 + TOL, "row {n} too tall: {row:?}");
    }
}

#[test]
fn an_audio_card_stays_within_its_card() {
    // The media card drawn without a player (no `media` feature, or `in_panel` off): its
    // frame's margins and stroke come out of the width its parent leaves.
    let options = || {
        #[allow(unused_mut, reason = "mutated only with the media feature")]
        let mut options = RendererOptions::default();
        #[cfg(feature = "media")]
        {
            options.media.in_panel = false;
        }
        options
    };
    for width in [300.0, 420.0, 600.0] {
        let g = layout_with(
            json!([
                {"id": "root", "component": "Card", "child": "col"},
                {"id": "col", "component": "Column", "children": ["t", "audio"]},
                {"id": "t", "component": "Text", "text": "Episode 12", "variant": "h3"},
                {"id": "audio", "component": "AudioPlayer",
                    "url": "https://example.com/episode-12.mp3", "description": "Episode 12"},
            ]),
            width,
            options(),
        );
        let card = bx(&g, "root", 0);
        let col = bx(&g, "col", 0);
        let audio = bx(&g, "audio", 0);
        assert!(
            audio.x >= col.x - TOL && audio.right() <= col.right() + TOL,
            "{width} px: the audio card {audio:?} crosses its column {col:?}"
        );
        assert!(
            audio.right() <= card.right() + TOL,
            "{width} px: the audio card {audio:?} crosses its Card {card:?}"
        );
    }
}

#[test]
fn a_caption_s_several_markdown_lines_are_a_body_line_factor_apart_and_a_wrapped_one_is_normal() {
    let style = Style::default();
    // `.a2ui-caption { line-height: var(--a2ui-line-height-body, 1.5) }` (upstream Lit Text):
    // 11.1 px text, lines 16.7 px apart; one wrapped paragraph keeps the `normal` 13 px of
    // its `<em>` (as the reference measures it).
    let several = style.caption.size * 1.5;
    let wrapped = style.caption.line_height;
    assert!(
        several - wrapped > 3.0,
        "the two pitches must be told apart"
    );
    for (text, lines, pitch) in [
        ("First line  \nSecond line  \nThird line", 3.0, several),
        ("First line\n\nSecond line\n\nThird line", 3.0, several),
        ("- First\n- Second\n- Third", 3.0, several),
        (
            "one two three four five six seven eight nine ten eleven twelve thirteen",
            0.0,
            wrapped,
        ),
    ] {
        let g = layout(
            json!([
                {"id": "root", "component": "Column", "children": ["c"]},
                {"id": "c", "component": "Text", "text": text, "variant": "caption"},
            ]),
            160.0,
        );
        let c = bx(&g, "c", 0);
        // A wrapped paragraph: as many lines as its height holds, at least two.
        let lines = if lines > 0.0 {
            lines
        } else {
            (c.h / pitch).round().max(2.0)
        };
        assert!(
            (c.h - lines * pitch).abs() <= 1.0,
            "{text:?}: {lines} lines in {} px, not {pitch} px apart",
            c.h
        );
    }
}
