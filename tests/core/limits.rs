//! The caps of `Limits`, each tested on both sides: the node budget (and that it leaves a
//! virtualised 100,000-row List alone), the byte order mark, `max_message_bytes` in every
//! framing, `max_json_depth` (ours and serde_json's), the per-surface data-model size, and
//! the bounded `data:` image cache.

use egui_a2ui::model::{NodeKind, TreeNode, resolve_tree};
use egui_a2ui::stream::{StreamDecoder, parse_document};
use egui_a2ui::{A2uiError, Catalog, Event, Limits, Renderer, SurfaceStore};
use serde_json::{Value, json};

use crate::common::explosions;

const CAT9: &str = "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json";

fn create(id: &str) -> Value {
    json!({"version": "v0.9", "createSurface": {"surfaceId": id, "catalogId": CAT9}})
}

fn comps(id: &str, c: Value) -> Value {
    json!({"version": "v0.9", "updateComponents": {"surfaceId": id, "components": c}})
}

fn data(id: &str, path: &str, v: Value) -> Value {
    json!({"version": "v0.9", "updateDataModel": {"surfaceId": id, "path": path, "value": v}})
}

fn store_with(limits: Limits, messages: &[Value]) -> SurfaceStore {
    let mut s = SurfaceStore::with_config(egui_a2ui::model::Catalogs::basic(), limits);
    for m in messages {
        s.apply(m).into_result().expect("accepted");
    }
    s
}

fn count(n: &TreeNode, kind: NodeKind) -> usize {
    usize::from(n.kind == kind) + n.children.iter().map(|c| count(c, kind)).sum::<usize>()
}

fn budget_errors(errors: &[A2uiError]) -> usize {
    errors
        .iter()
        .filter(|e| {
            matches!(
                e,
                A2uiError::LimitExceeded {
                    what: "max_nodes",
                    ..
                }
            )
        })
        .count()
}

#[test]
fn the_node_budget_cuts_both_explosions_in_the_tree_walk() {
    let limits = Limits::default();
    let cases = [
        vec![create("x"), comps("x", explosions::shared_children(40))],
        vec![
            create("x"),
            data("x", "/l", json!((0..20).collect::<Vec<u32>>())),
            comps("x", explosions::self_expanding_template()),
        ],
    ];
    for messages in cases {
        let store = store_with(limits.clone(), &messages);
        let s = store.surface("x").expect("x");
        let (tree, errors) = resolve_tree(s, store.catalogs(), store.limits());
        let tree = tree.expect("root");
        let nodes = tree.node_count();
        // At most the budget, plus one over-budget stand-in per level of the cut path.
        assert!(
            nodes <= limits.max_nodes + limits.max_tree_depth,
            "{nodes} nodes"
        );
        assert!(
            nodes >= limits.max_nodes,
            "the budget is spent, not undercut: {nodes}"
        );
        assert!(count(&tree, NodeKind::OverBudget) >= 1);
        assert_eq!(budget_errors(&errors), 1, "reported once: {errors:?}");
        // The conformance dump marks the cut.
        let doc = egui_a2ui::conformance::dump(&store, &egui_a2ui::eval::FunctionRegistry::basic());
        let text = doc.to_string();
        assert!(text.contains("\"overBudget\":true"));
    }
}

#[test]
fn a_budget_that_suffices_changes_nothing() {
    // 2^6 leaves: 127 nodes, well inside the budget.
    let c = explosions::shared_children(6);
    let store = store_with(
        Limits {
            max_nodes: 127,
            ..Limits::default()
        },
        &[create("x"), comps("x", c)],
    );
    let s = store.surface("x").expect("x");
    let (tree, errors) = resolve_tree(s, store.catalogs(), store.limits());
    let tree = tree.expect("root");
    assert_eq!(tree.node_count(), 127);
    assert_eq!(count(&tree, NodeKind::OverBudget), 0);
    assert!(errors.is_empty(), "{errors:?}");
    // One node fewer and the last leaf is cut.
    let mut store = store;
    store.set_limits(Limits {
        max_nodes: 126,
        ..Limits::default()
    });
    let s = store.surface("x").expect("x");
    let (tree, errors) = resolve_tree(s, store.catalogs(), store.limits());
    assert_eq!(count(&tree.expect("root"), NodeKind::OverBudget), 1);
    assert_eq!(budget_errors(&errors), 1);
}

fn frames(r: &mut Renderer, n: usize) -> Vec<Event> {
    let ctx = egui::Context::default();
    let mut events = Vec::new();
    for _ in 0..n {
        let mut out = ctx.run_ui(egui::RawInput::default(), |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| events.extend(r.ui(ui)));
        });
        out.textures_delta.clear();
    }
    events
}

fn limit_errors(events: &[Event], what: &str) -> usize {
    events
        .iter()
        .filter(|e| {
            matches!(e, Event::Error(err)
                if matches!(&err.error, A2uiError::LimitExceeded { what: w, .. } if *w == what))
        })
        .count()
}

#[test]
fn the_renderer_spends_the_budget_per_frame_and_reports_it_once() {
    for components in [
        explosions::shared_children(40),
        explosions::self_expanding_template(),
    ] {
        let limits = Limits {
            max_nodes: 300,
            ..Limits::default()
        };
        let mut r = Renderer::with_limits(Catalog::basic(), limits);
        r.apply(create("x")).into_result().expect("create");
        r.apply(data("x", "/l", json!((0..20).collect::<Vec<u32>>())))
            .into_result()
            .expect("data");
        r.apply(comps("x", components))
            .into_result()
            .expect("components");
        let events = frames(&mut r, 3);
        assert_eq!(limit_errors(&events, "max_nodes"), 1, "{events:?}");
        let e = events
            .iter()
            .find_map(|e| match e {
                Event::Error(err) if err.error.code() == "LIMIT_EXCEEDED" => Some(err),
                _ => None,
            })
            .expect("the error");
        assert_eq!(e.to_message()["error"]["surfaceId"], "x");
    }
}

#[test]
fn a_virtualised_list_of_100000_rows_is_not_cut_by_the_budget() {
    let limits = Limits {
        max_nodes: 200,
        ..Limits::default()
    };
    let mut r = Renderer::with_limits(Catalog::basic(), limits);
    let items: Vec<Value> = (0..100_000)
        .map(|i| json!({"name": format!("Item {i}")}))
        .collect();
    r.apply(create("x")).into_result().expect("create");
    r.apply(data("x", "/items", Value::Array(items)))
        .into_result()
        .expect("data");
    r.apply(comps(
        "x",
        json!([
            {"id": "root", "component": "List", "children": {"componentId": "row", "path": "/items"}},
            {"id": "row", "component": "Text", "text": {"path": "name"}}
        ]),
    )).into_result()
    .expect("components");
    // A window of 800×600 points, the List filling it.
    let ctx = egui::Context::default();
    let mut events = Vec::new();
    for _ in 0..3 {
        let input = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(
                egui::Pos2::ZERO,
                egui::vec2(800.0, 600.0),
            )),
            ..Default::default()
        };
        let mut out = ctx.run_ui(input, |ui| events.extend(r.ui(ui)));
        out.textures_delta.clear();
    }
    assert_eq!(limit_errors(&events, "max_nodes"), 0, "{events:?}");
    assert!(
        events.iter().all(|e| !matches!(e, Event::Error(_))),
        "{events:?}"
    );
}

// --- framing -------------------------------------------------------------------------

fn lines() -> Vec<String> {
    vec![
        create("s").to_string(),
        comps(
            "s",
            json!([{"id": "root", "component": "Text", "text": {"path": "/t"}}]),
        )
        .to_string(),
        data("s", "/t", json!("hi")).to_string(),
    ]
}

fn assert_complete(s: &SurfaceStore) {
    assert!(s.errors().is_empty(), "{:?}", s.errors());
    assert_eq!(
        s.surface("s").expect("s").data.get("/t"),
        Some(&json!("hi"))
    );
}

const BOM: &str = "\u{feff}";

#[test]
fn a_leading_byte_order_mark_is_skipped_in_every_framing() {
    let docs = [
        format!("{BOM}{}\n", lines().join("\n")),
        format!("{BOM}[{}]", lines().join(",")),
        format!("{BOM}  {{\"messages\": [{}]}}", lines().join(",")),
        // At the start of a later line too (concatenated files).
        format!("{}\n{BOM}{}\n{BOM}{}\n", lines()[0], lines()[1], lines()[2]),
    ];
    for doc in docs {
        let mut s = SurfaceStore::basic();
        s.feed_document(doc.as_bytes());
        assert_complete(&s);
        assert_eq!(s.messages_seen(), 3);
    }
    // Split across chunks of a stream, one byte at a time.
    let doc = format!("{BOM}{}\n", lines().join("\n"));
    let mut dec = StreamDecoder::new(Limits::default());
    let mut frames = Vec::new();
    for b in doc.as_bytes().chunks(1) {
        frames.extend(dec.feed(b));
    }
    frames.extend(dec.finish());
    let mut s = SurfaceStore::basic();
    for f in frames {
        let _ = s.apply(f);
    }
    assert_complete(&s);
}

fn limit_of(f: &Result<Value, A2uiError>) -> Option<&'static str> {
    match f {
        Err(A2uiError::LimitExceeded { what, .. }) => Some(what),
        _ => None,
    }
}

#[test]
fn max_message_bytes_applies_to_every_element_of_every_framing() {
    let limits = Limits {
        max_message_bytes: 1_000,
        ..Limits::default()
    };
    let small = lines();
    let big = data("s", "/big", json!("x".repeat(2_000))).to_string();
    let docs = [
        format!("{}\n{big}\n{}\n{}\n", small[0], small[1], small[2]),
        format!("[{}, {big}, {}, {}]", small[0], small[1], small[2]),
        format!(
            "{{\"messages\": [{}, {big}, {}, {}]}}",
            small[0], small[1], small[2]
        ),
        format!(
            "{{\"name\": \"n\", \"description\": \"d\", \"messages\": [{}, {big}, {}, {}]}}",
            small[0], small[1], small[2]
        ),
    ];
    for doc in docs {
        let frames = parse_document(doc.as_bytes(), &limits);
        assert_eq!(frames.len(), 4, "{doc:.80}");
        assert_eq!(limit_of(&frames[1]), Some("max_message_bytes"));
        assert!(frames[0].is_ok() && frames[2].is_ok() && frames[3].is_ok());
        let mut s = SurfaceStore::with_config(egui_a2ui::model::Catalogs::basic(), limits.clone());
        s.feed_document(doc.as_bytes());
        assert_eq!(
            s.surface("s").expect("s").data.get("/t"),
            Some(&json!("hi"))
        );
        assert_eq!(s.surface("s").expect("s").data.get("/big"), None);
    }
    // A single-message document is one message too.
    let frames = parse_document(big.as_bytes(), &limits);
    assert_eq!(frames.len(), 1);
    assert_eq!(limit_of(&frames[0]), Some("max_message_bytes"));
    // Exactly at the limit passes.
    let exact = limits.max_message_bytes;
    let pad = exact - data("s", "/p", json!("")).to_string().len();
    let at = data("s", "/p", json!("y".repeat(pad))).to_string();
    assert_eq!(at.len(), exact);
    for doc in [format!("[{at}]"), format!("{at}\n"), at.clone()] {
        let frames = parse_document(doc.as_bytes(), &limits);
        assert!(frames[0].is_ok(), "{:?}", frames[0]);
    }
}

/// A message whose arrays and objects nest `depth` levels (the message object is 1).
fn nested(depth: usize) -> String {
    let inner = depth - 2;
    format!(
        r#"{{"version":"v0.9","updateDataModel":{{"surfaceId":"s","path":"/d","value":{}{}}}}}"#,
        "[".repeat(inner),
        "]".repeat(inner)
    )
}

#[test]
fn max_json_depth_is_ours_below_serde_jsons_and_both_sides_hold() {
    let limits = Limits::default();
    assert_eq!(limits.max_json_depth, 100);
    assert_eq!(egui_a2ui::stream::json_depth(nested(100).as_bytes()), 100);
    for framing in [
        |m: &str| format!("{m}\n"),
        |m: &str| format!("[{m}]"),
        |m: &str| format!("{{\"messages\": [{m}]}}"),
        |m: &str| m.to_owned(),
    ] {
        let ok = parse_document(framing(&nested(100)).as_bytes(), &limits);
        assert!(ok[0].is_ok(), "{:?}", ok[0]);
        let deep = parse_document(framing(&nested(101)).as_bytes(), &limits);
        assert_eq!(limit_of(&deep[0]), Some("max_json_depth"));
    }
    // Raised above serde_json's own recursion limit (128), serde_json's applies: 127 levels
    // parse, 128 are malformed JSON.
    let lax = Limits {
        max_json_depth: 1_000,
        ..Limits::default()
    };
    let at = parse_document(format!("{}\n", nested(127)).as_bytes(), &lax);
    assert!(at[0].is_ok(), "{:?}", at[0]);
    let past = parse_document(format!("{}\n", nested(128)).as_bytes(), &lax);
    assert!(
        matches!(&past[0], Err(A2uiError::Json(m)) if m.contains("recursion")),
        "{:?}",
        past[0]
    );
    // A string full of brackets is not nesting.
    let text = data("s", "/t", json!("[[[[".repeat(100))).to_string();
    assert!(parse_document(text.as_bytes(), &limits)[0].is_ok());
}

#[test]
fn one_too_deep_element_does_not_cost_the_rest_of_the_array() {
    let doc = format!(
        "[{}, {}, {}, {}]",
        lines()[0],
        nested(5_000),
        lines()[1],
        lines()[2]
    );
    let mut s = SurfaceStore::basic();
    s.feed_document(doc.as_bytes());
    assert_eq!(
        s.surface("s").expect("s").data.get("/t"),
        Some(&json!("hi"))
    );
    assert_eq!(s.errors().len(), 1);
    assert_eq!(s.errors()[0].error.code(), "LIMIT_EXCEEDED");
    assert_eq!(s.errors()[0].message_index, Some(1));
}

// --- data model ----------------------------------------------------------------------

#[test]
fn the_data_model_cap_is_per_surface_and_cumulative() {
    let limits = Limits {
        max_data_model_bytes: 20_000,
        ..Limits::default()
    };
    let mut s = SurfaceStore::with_config(egui_a2ui::model::Catalogs::basic(), limits.clone());
    s.apply(create("x")).into_result().expect("create");
    let mut refused = None;
    for i in 0..20 {
        if let Err(e) = s
            .apply(data("x", &format!("/k{i}"), json!("z".repeat(3_000))))
            .into_result()
        {
            refused = Some((i, e));
            break;
        }
    }
    let (i, e) = refused.expect("the cap is reached");
    assert_eq!(i, 6, "six 3 KB values fit in 20 KB, the seventh does not");
    assert_eq!(e.code(), "LIMIT_EXCEEDED");
    let x = s.surface("x").expect("x");
    assert!(x.data.byte_size() <= limits.max_data_model_bytes);
    assert_eq!(
        x.data.get(&format!("/k{i}")),
        None,
        "the refused write changed nothing"
    );
    assert!(x.data.get("/k5").is_some());
    assert_eq!(
        x.data.byte_size(),
        egui_a2ui::model::DataModel::new(x.data.root().clone()).byte_size(),
        "the running count equals a recount"
    );
    // Replacing a value with a smaller one, or deleting, still works.
    s.apply(data("x", "/k0", json!("small")))
        .into_result()
        .expect("shrink");
    s.apply(json!({"version": "v0.9", "updateDataModel": {"surfaceId": "x", "path": "/k1"}}))
        .into_result()
        .expect("delete");
    s.apply(data("x", "/k6", json!("z".repeat(3_000))))
        .into_result()
        .expect("fits now");
    // Another surface has its own allowance.
    s.apply(create("y")).into_result().expect("y");
    s.apply(data("y", "/k", json!("z".repeat(15_000))))
        .into_result()
        .expect("y's own model");
}

// --- image cache ---------------------------------------------------------------------

const PNG: &str = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

fn images(id: &str, n: usize, tag: &str) -> Vec<Value> {
    let ids: Vec<String> = (0..n).map(|i| format!("i{i}")).collect();
    let mut c = vec![json!({"id": "root", "component": "Column", "children": ids})];
    for i in 0..n {
        c.push(
            json!({"id": format!("i{i}"), "component": "Image", "url": format!("{PNG}#{tag}{i}")}),
        );
    }
    vec![create(id), comps(id, Value::Array(c))]
}

fn draw(r: &mut Renderer, ctx: &egui::Context) {
    for _ in 0..2 {
        let mut out = ctx.run_ui(egui::RawInput::default(), |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| r.ui(ui));
        });
        out.textures_delta.clear();
    }
}

#[test]
fn the_image_cache_is_bounded_and_a_deleted_surface_releases_its_entries() {
    use egui_a2ui::testing::data_cache_stats;
    let mut r = Renderer::new(Catalog::basic());
    for m in images("a", 10, "a").into_iter().chain(images("b", 3, "b")) {
        r.apply(&m).into_result().expect("accepted");
    }
    let ctx = egui::Context::default();
    draw(&mut r, &ctx);
    let (entries, bytes) = data_cache_stats(&ctx);
    assert_eq!(entries, 13, "one entry per distinct URI");
    assert!(bytes > 0);
    r.apply(json!({"version": "v0.9", "deleteSurface": {"surfaceId": "a"}}))
        .into_result()
        .expect("delete");
    assert_eq!(data_cache_stats(&ctx).0, 3, "a's ten entries are released");
    draw(&mut r, &ctx);
    assert_eq!(data_cache_stats(&ctx).0, 3, "b's stay");

    // Bounded by bytes: the least recently drawn go first.
    let one = {
        let (n, b) = data_cache_stats(&ctx);
        b / n
    };
    let cap = one * 5 + one / 2;
    let mut r = Renderer::with_limits(
        Catalog::basic(),
        Limits {
            max_image_cache_bytes: cap,
            ..Limits::default()
        },
    );
    for m in images("c", 40, "c") {
        r.apply(&m).into_result().expect("accepted");
    }
    let ctx = egui::Context::default();
    draw(&mut r, &ctx);
    let (entries, bytes) = data_cache_stats(&ctx);
    assert!(bytes <= cap, "{bytes} > {cap}");
    assert!((1..=5).contains(&entries), "{entries} entries");
}

// --- data model memory (review M1) -----------------------------------------------------

#[test]
fn the_255_segment_vivifying_write_is_refused_by_default() {
    // 1,359 bytes that would vivify about 2.5 million values (over 80 MB of slots).
    let path = format!("/a{}", "/9999".repeat(254));
    let mut s = SurfaceStore::with_config(egui_a2ui::model::Catalogs::basic(), Limits::default());
    s.apply(create("x")).into_result().expect("create");
    let e = s
        .apply(data("x", &path, json!(1)))
        .into_result()
        .expect_err("refused");
    assert_eq!(e.code(), "LIMIT_EXCEEDED");
    let x = s.surface("x").expect("x");
    assert_eq!(x.data.root(), &json!({}), "nothing was vivified");
}

#[test]
fn vivified_padding_is_charged_within_a_factor_of_its_memory() {
    let mut s = SurfaceStore::with_config(egui_a2ui::model::Catalogs::basic(), Limits::default());
    s.apply(create("x")).into_result().expect("create");
    s.apply(data("x", "/a/9999/9999", json!(1)))
        .into_result()
        .expect("20,000 values fit");
    let real = 20_000 * std::mem::size_of::<Value>();
    let charged = s.surface("x").expect("x").data.byte_size();
    assert!(
        charged >= real && charged < 2 * real,
        "charged {charged} for about {real} bytes of values"
    );
}

#[test]
fn the_store_wide_data_model_total_spans_surfaces() {
    let limits = Limits {
        max_data_model_bytes: 20_000,
        max_total_data_model_bytes: 30_000,
        ..Limits::default()
    };
    let mut s = SurfaceStore::with_config(egui_a2ui::model::Catalogs::basic(), limits.clone());
    for id in ["a", "b", "c"] {
        s.apply(create(id)).into_result().expect("create");
    }
    // Each write fits its own surface's cap; the second surface's fits the total too.
    s.apply(data("a", "/v", json!("a".repeat(12_000))))
        .into_result()
        .expect("a fits");
    s.apply(data("b", "/v", json!("b".repeat(12_000))))
        .into_result()
        .expect("b fits");
    // The third surface's would take the store past its total.
    let e = s
        .apply(data("c", "/v", json!("c".repeat(12_000))))
        .into_result()
        .expect_err("over the store total");
    assert!(
        matches!(
            e,
            A2uiError::LimitExceeded {
                what: "max_total_data_model_bytes",
                limit: 30_000,
                ..
            }
        ),
        "{e:?}"
    );
    assert_eq!(s.surface("c").expect("c").data.get("/v"), None);
    assert!(s.total_data_bytes() <= limits.max_total_data_model_bytes);
    // An initial data model counts too.
    let e = s
        .apply(
            json!({"version": "v1.0", "createSurface": {"surfaceId": "d",
            "catalogId": "https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json",
            "dataModel": {"v": "d".repeat(12_000)}}}),
        )
        .into_result()
        .expect_err("initial model over the total");
    assert_eq!(e.code(), "LIMIT_EXCEEDED");
    // Freeing one surface's data makes room again.
    s.apply(json!({"version": "v0.9", "updateDataModel": {"surfaceId": "a", "path": "/v"}}))
        .into_result()
        .expect("delete");
    s.apply(data("c", "/v", json!("c".repeat(12_000))))
        .into_result()
        .expect("fits now");
}
