//! Model-text streaming into a renderer (`Renderer::feed_model_text`): the recorded answers
//! in `assets/samples/model/` streamed in 4-byte chunks end in the same surfaces as the
//! whole answer parsed at once, components appear before their block closes, the prose
//! comes back intact, and hostile text (unterminated, oversized, nested, never-closing
//! blocks) is bounded by `Limits` with typed errors.

use egui_a2ui::stream::model_text::{
    self, CLOSE_TAG, Family, ModelTextError, ModelTextEvent, ModelTextParser, ModelTextStream,
    OPEN_TAG,
};
use egui_a2ui::{Catalog, Limits, Renderer};
use serde_json::Value;

fn recording(name: &str) -> Vec<u8> {
    std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("assets/samples/model")
            .join(name),
    )
    .expect("recording")
}

const RECORDINGS: [&str; 2] = ["restaurant_booking_v09.txt", "trip_itinerary_v08.txt"];

struct Streamed {
    renderer: Renderer,
    prose: String,
    errors: Vec<String>,
    /// Bytes fed when the first surface became visible with a component.
    first_visible_at: Option<usize>,
}

fn stream_in_chunks(bytes: &[u8], chunk: usize) -> Streamed {
    let mut renderer = Renderer::new(Catalog::basic());
    let mut stream = ModelTextStream::new(Limits::default());
    let mut out = Streamed {
        renderer: Renderer::new(Catalog::basic()),
        prose: String::new(),
        errors: Vec::new(),
        first_visible_at: None,
    };
    let take = |events: Vec<ModelTextEvent>, out: &mut Streamed| {
        for e in events {
            match e {
                ModelTextEvent::Text(t) => out.prose.push_str(&t),
                ModelTextEvent::Applied(_) => {}
                ModelTextEvent::Rejected(e) => out.errors.push(e.to_string()),
                ModelTextEvent::Error(e) => out.errors.push(e.to_string()),
                _ => {}
            }
        }
    };
    let mut fed = 0;
    for c in bytes.chunks(chunk) {
        let ev = renderer.feed_model_text(&mut stream, c);
        fed += c.len();
        take(ev, &mut out);
        if out.first_visible_at.is_none()
            && renderer
                .store()
                .surfaces()
                .any(|s| s.is_visible() && !s.components().is_empty())
        {
            out.first_visible_at = Some(fed);
        }
    }
    let ev = renderer.finish_model_text(&mut stream);
    take(ev, &mut out);
    out.renderer = renderer;
    out
}

/// Component ids per surface, placeholders (`loading_…`) left out.
fn surface_ids(r: &Renderer) -> Vec<(String, Vec<String>)> {
    let mut v: Vec<(String, Vec<String>)> = r
        .store()
        .surfaces()
        .map(|s| {
            let mut ids: Vec<String> = s
                .components()
                .keys()
                .filter(|k| !k.starts_with("loading_"))
                .map(str::to_owned)
                .collect();
            ids.sort();
            (s.id.clone(), ids)
        })
        .collect();
    v.sort();
    v
}

fn whole(bytes: &[u8]) -> (Renderer, String) {
    let text = std::str::from_utf8(bytes).expect("utf-8");
    let parts = model_text::parse_response(text).expect("recording parses whole");
    let mut r = Renderer::new(Catalog::basic());
    let mut prose = String::new();
    for p in parts {
        prose.push_str(&p.text);
        for m in p.a2ui.into_iter().flatten() {
            r.apply(&m).into_result().expect("message applies");
        }
    }
    (r, prose)
}

#[test]
fn chunked_recordings_end_like_the_whole_answer() {
    for name in RECORDINGS {
        let bytes = recording(name);
        let (reference, _) = whole(&bytes);
        for chunk in [3, 4, 4096] {
            let s = stream_in_chunks(&bytes, chunk);
            assert!(s.errors.is_empty(), "{name}/{chunk}: {:?}", s.errors);
            assert_eq!(
                surface_ids(&s.renderer),
                surface_ids(&reference),
                "{name} in {chunk}-byte chunks"
            );
            // The data model too.
            for surf in reference.store().surfaces() {
                let got = s.renderer.store().surface(&surf.id).expect("surface");
                assert_eq!(
                    got.data.get(""),
                    surf.data.get(""),
                    "{name}/{chunk}: data model of {}",
                    surf.id
                );
            }
        }
    }
}

#[test]
fn prose_comes_back_whole_and_without_the_blocks() {
    for name in RECORDINGS {
        let bytes = recording(name);
        let text = String::from_utf8(bytes.clone()).expect("utf-8");
        let open = text.find(OPEN_TAG).expect("open tag");
        let close = text.find(CLOSE_TAG).expect("close tag");
        let expected = format!("{}{}", &text[..open], &text[close + CLOSE_TAG.len()..]);
        for chunk in [3, 64] {
            let s = stream_in_chunks(&bytes, chunk);
            assert_eq!(s.prose, expected, "{name} in {chunk}-byte chunks");
        }
    }
}

#[test]
fn a_component_is_in_the_store_before_its_block_closes() {
    for name in RECORDINGS {
        let bytes = recording(name);
        let text = std::str::from_utf8(&bytes).expect("utf-8");
        let close = text.find(CLOSE_TAG).expect("close tag");
        // The last message of each block ends right before `]` and the close tag; the
        // surface must be drawable long before that.
        let s = stream_in_chunks(&bytes, 4);
        let at = s.first_visible_at.expect("a surface became visible");
        assert!(
            at < close,
            "{name}: first component after {at} bytes, block closes at {close}"
        );
        // Whole-message parsing cannot show anything before the block closes.
        assert!(model_text::parse_response(&text[..close]).is_err());
        // And it is well before: the components message itself is still open (the data
        // model message follows it).
        let dm = text
            .find("\"updateDataModel\"")
            .or_else(|| text.find("\"dataModelUpdate\""))
            .expect("data model message");
        assert!(at < dm, "{name}: {at} vs {dm}");
    }
}

#[test]
fn partial_surface_draws_mid_message() {
    // Draw the surface while its updateComponents is half written.
    let bytes = recording("restaurant_booking_v09.txt");
    let text = std::str::from_utf8(&bytes).expect("utf-8");
    let cut = text.find("\"id\": \"party\"").expect("party component");
    let mut renderer = Renderer::new(Catalog::basic());
    let mut stream = ModelTextStream::new(Limits::default());
    for c in bytes[..cut].chunks(4) {
        renderer.feed_model_text(&mut stream, c);
    }
    let surface = renderer
        .store()
        .surface("booking")
        .expect("surface started");
    assert!(surface.is_visible());
    assert!(surface.components().contains_key("title"));
    assert!(!surface.components().contains_key("party"));
    let ctx = egui::Context::default();
    let mut labels = Vec::new();
    let mut first = ctx.run_ui(egui::RawInput::default(), |ui| {
        let _ = renderer.ui(ui);
    });
    first.textures_delta.clear();
    let mut out = ctx.run_ui(egui::RawInput::default(), |ui| {
        let _ = renderer.ui(ui);
    });
    out.textures_delta.clear();
    for shape in out.shapes.iter() {
        collect_text(&shape.shape, &mut labels);
    }
    let joined = labels.join(" ");
    assert!(
        joined.contains("Trattoria Da Enzo"),
        "title drawn mid-message: {joined}"
    );
}

fn collect_text(shape: &egui::Shape, out: &mut Vec<String>) {
    match shape {
        egui::Shape::Text(t) => out.push(t.galley.text().to_owned()),
        egui::Shape::Vec(v) => v.iter().for_each(|s| collect_text(s, out)),
        _ => {}
    }
}

// ---- hostile input ----

fn v09_parser(limits: Limits) -> ModelTextParser {
    ModelTextParser::new(
        model_text::ModelTextOptions {
            family: Some(Family::V09),
            ..Default::default()
        },
        limits,
    )
}

#[test]
fn unterminated_block_is_reported_at_finish() {
    let mut p = v09_parser(Limits::default());
    let parts = p
        .feed_str("Here you go: <a2ui-json>[{\"version\": \"v0.9\", \"createSurface\": {")
        .expect("no error yet");
    assert_eq!(parts[0].text, "Here you go: ");
    assert!(p.in_block());
    match p.finish() {
        Err(ModelTextError::Unterminated { bytes }) => assert!(bytes > 10),
        other => panic!("expected Unterminated, got {other:?}"),
    }
    // The parser is usable again.
    assert!(!p.in_block());
    let parts = p.feed_str("more prose").expect("ok");
    assert_eq!(parts[0].text, "more prose");
}

#[test]
fn a_100_mb_block_is_cut_at_the_limit_and_skipped() {
    let mut p = v09_parser(Limits::default());
    let limit = Limits::default().max_model_block_bytes;
    p.feed_str("<a2ui-json>[{\"version\": \"v0.9\", \"updateDataModel\": {\"surfaceId\": \"s\", \"value\": {\"blob\": \"")
        .expect("start");
    let mb = "x".repeat(1 << 20);
    let mut errors = Vec::new();
    for _ in 0..100 {
        if let Err(e) = p.feed_str(&mb) {
            errors.push(e);
        }
    }
    assert_eq!(
        errors.len(),
        1,
        "one error for the oversized block: {errors:?}"
    );
    match &errors[0] {
        ModelTextError::LimitExceeded {
            what,
            limit: l,
            actual,
        } => {
            assert_eq!(*what, "max_model_block_bytes");
            assert_eq!(*l, limit);
            assert!(*actual > limit);
        }
        other => panic!("expected LimitExceeded, got {other:?}"),
    }
    // The rest of the block is skipped; text after the close tag comes through.
    let parts = p
        .feed_str("\"}}}]</a2ui-json> Done.")
        .expect("after the block");
    assert_eq!(parts.len(), 1);
    assert_eq!(parts[0].text, " Done.");
    assert!(!p.in_block());
}

#[test]
fn nested_open_tag_drops_the_outer_block_with_a_diagnostic() {
    let mut renderer = Renderer::new(Catalog::basic());
    let mut stream = ModelTextStream::new(Limits::default());
    let text = concat!(
        "<a2ui-json>[{\"version\": \"v0.9\", \"createSurface\": {\"surfaceId\": \"a\", ",
        "<a2ui-json>[{\"version\": \"v0.9\", \"createSurface\": {\"surfaceId\": \"b\", ",
        "\"catalogId\": \"https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json\"}}]",
        "</a2ui-json>"
    );
    let mut events = Vec::new();
    for c in text.as_bytes().chunks(5) {
        events.extend(renderer.feed_model_text(&mut stream, c));
    }
    events.extend(renderer.finish_model_text(&mut stream));
    assert!(
        events
            .iter()
            .any(|e| matches!(e, ModelTextEvent::Error(ModelTextError::NestedTag))),
        "{events:?}"
    );
    assert!(renderer.store().surface("a").is_none());
    assert!(renderer.store().surface("b").is_some());
}

#[test]
fn json_that_never_closes_is_bounded_by_depth() {
    let limits = Limits::default();
    let mut p = v09_parser(limits.clone());
    let mut err = None;
    p.feed_str("<a2ui-json>[").expect("open");
    for _ in 0..10_000 {
        if let Err(e) = p.feed_str("{\"a\": [") {
            err = Some(e);
            break;
        }
    }
    match err {
        Some(ModelTextError::LimitExceeded { what, limit, .. }) => {
            assert_eq!(what, "max_json_depth");
            assert_eq!(limit, limits.max_json_depth);
        }
        other => panic!("expected a depth error, got {other:?}"),
    }
    // Still inside the (skipped) block; finishing reports it.
    assert!(matches!(
        p.finish(),
        Err(ModelTextError::Unterminated { .. })
    ));
}

#[test]
fn a_string_that_never_closes_hits_the_block_limit() {
    let limits = Limits {
        max_model_block_bytes: 64 * 1024,
        ..Limits::default()
    };
    let mut p = v09_parser(limits);
    p.feed_str("<a2ui-json>[{\"version\": \"v0.9\", \"updateComponents\": {\"surfaceId\": \"s\", \"components\": [{\"id\": \"root\", \"component\": \"Text\", \"text\": \"")
        .expect("start");
    let mut err = None;
    for _ in 0..100_000 {
        if let Err(e) = p.feed_str("lorem ipsum ") {
            err = Some(e);
            break;
        }
    }
    assert!(
        matches!(
            err,
            Some(ModelTextError::LimitExceeded {
                what: "max_model_block_bytes",
                ..
            })
        ),
        "{err:?}"
    );
}

#[test]
fn too_many_components_are_refused() {
    let limits = Limits {
        max_components: 10,
        ..Limits::default()
    };
    let mut p = v09_parser(limits);
    let comps: Vec<String> = (0..50)
        .map(|i| format!("{{\"id\": \"c{i}\", \"component\": \"Text\", \"text\": \"t\"}}"))
        .collect();
    let text = format!(
        "<a2ui-json>[{{\"version\": \"v0.9\", \"updateComponents\": {{\"surfaceId\": \"s\", \"components\": [{}]}}}}]</a2ui-json>",
        comps.join(", ")
    );
    let mut errs = Vec::new();
    for c in text.as_bytes().chunks(16) {
        if let Err(e) = p.feed(c) {
            errs.push(e);
        }
    }
    assert!(
        errs.iter().any(|e| matches!(
            e,
            ModelTextError::LimitExceeded {
                what: "max_components",
                ..
            }
        )),
        "{errs:?}"
    );
}

#[test]
fn utf8_split_anywhere_and_invalid_bytes_never_panic() {
    let text = "Café ☕ <a2ui-json>[{\"version\": \"v0.9\", \"createSurface\": {\"surfaceId\": \"s\", \"catalogId\": \"c\"}}]</a2ui-json> 日本語";
    for chunk in 1..8 {
        let mut p = v09_parser(Limits::default());
        let mut prose = String::new();
        let mut msgs: Vec<Value> = Vec::new();
        for c in text.as_bytes().chunks(chunk) {
            for part in p.feed(c).expect("valid") {
                prose.push_str(&part.text);
                msgs.extend(part.a2ui.into_iter().flatten().map(Value::from));
            }
        }
        for part in p.finish().expect("closed") {
            prose.push_str(&part.text);
        }
        assert_eq!(prose, "Café ☕  日本語", "chunk {chunk}");
        assert_eq!(msgs.len(), 1);
    }
    let mut p = v09_parser(Limits::default());
    let parts = p.feed(b"ok \xff\xfe then").expect("lossy");
    let all: String = parts.iter().map(|p| p.text.as_str()).collect();
    assert!(all.contains('\u{FFFD}'));
}

const BASIC_V09: &str = "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json";

/// For every basic v0.9 component: its properties (the required ones last) and the number
/// of characters after which the official parser (`a2ui-agent-sdk` 0.8.0,
/// `DirectJsonStreamParser` over the v0.9 basic catalog, fed one character at a time) first
/// yields the component. It holds a component back until every required property of its
/// catalog definition is present (a cut string, an open list or a partial number count as
/// present) and lets a placeholder stand in until then.
const FIRST_YIELD_OFFICIAL: [(&str, &str, usize); 18] = [
    ("Text", r#""variant": "h1", "text": "Hello there""#, 341),
    (
        "Image",
        r#""fit": "cover", "url": "https://e.x/a.png""#,
        358,
    ),
    ("Icon", r#""name": "star""#, 329),
    ("Video", r#""url": "https://e.x/v.mp4""#, 342),
    (
        "AudioPlayer",
        r#""description": "Theme", "url": "https://e.x/a.mp3""#,
        372,
    ),
    ("Row", r#""justify": "start", "children": ["y"]"#, 347),
    ("Column", r#""align": "center", "children": ["y"]"#, 349),
    ("List", r#""direction": "vertical", "children": ["y"]"#, 353),
    ("Card", r#""child": "y""#, 327),
    ("Tabs", r#""tabs": [{"title": "A", "child": "y"}]"#, 324),
    ("Modal", r#""trigger": "y", "content": "z""#, 346),
    ("Divider", r#""axis": "horizontal""#, 316),
    (
        "Button",
        r#""variant": "primary", "child": "y", "action": {"event": {"name": "go"}}"#,
        386,
    ),
    (
        "TextField",
        r#""value": {"path": "/t"}, "label": "Name""#,
        355,
    ),
    ("CheckBox", r#""label": "Ok", "value": {"path": "/c"}"#, 356),
    (
        "ChoicePicker",
        r#""label": "Pick", "options": [{"label": "A", "value": "a"}], "value": {"path": "/p"}"#,
        405,
    ),
    (
        "Slider",
        r#""min": 0, "value": {"path": "/s"}, "max": 10"#,
        360,
    ),
    (
        "DateTimeInput",
        r#""enableDate": true, "value": {"path": "/d"}"#,
        366,
    ),
];

#[test]
fn every_basic_component_waits_for_its_required_properties_as_the_official_parser_does() {
    for (ty, props, official) in FIRST_YIELD_OFFICIAL {
        let text = format!(
            r#"<a2ui-json>[{{"version": "v0.9", "createSurface": {{"surfaceId": "s", "catalogId": "{BASIC_V09}"}}}}, {{"version": "v0.9", "updateComponents": {{"surfaceId": "s", "components": [{{"id": "root", "component": "Column", "children": ["x"]}}, {{"id": "x", "component": "{ty}", {props}}}]}}}}]</a2ui-json>"#
        );
        let mut stream = ModelTextStream::new(Limits::default());
        let mut first = None;
        for (i, b) in text.as_bytes().iter().enumerate() {
            let mut seen = false;
            stream.feed(std::slice::from_ref(b), |m| {
                let comps = m["updateComponents"]["components"].as_array().cloned();
                seen |= comps
                    .into_iter()
                    .flatten()
                    .any(|c| c["id"] == "x" && c["component"] == ty);
                Ok(())
            });
            if seen && first.is_none() {
                first = Some(i + 1);
            }
        }
        assert_eq!(
            first,
            Some(official),
            "{ty}: first yielded after {first:?} characters, the official parser after {official} \
             (at {:?})",
            &text[..official]
        );
    }
}

/// Component ids per surface, placeholders included (for the retirement test).
fn all_ids(r: &Renderer) -> Vec<(String, Vec<String>)> {
    let mut v: Vec<(String, Vec<String>)> = r
        .store()
        .surfaces()
        .map(|s| {
            let mut ids: Vec<String> = s.components().keys().map(str::to_owned).collect();
            ids.sort();
            (s.id.clone(), ids)
        })
        .collect();
    v.sort();
    v
}

#[test]
fn no_placeholder_is_left_once_the_answer_is_complete() {
    // The recorded answers send every child, so the component table must end exactly as
    // the whole answer's, in every chunking.
    for name in RECORDINGS {
        let bytes = recording(name);
        let (reference, _) = whole(&bytes);
        for chunk in [1, 4, 37, 4096] {
            let s = stream_in_chunks(&bytes, chunk);
            assert_eq!(
                all_ids(&s.renderer),
                all_ids(&reference),
                "{name} in {chunk}-byte chunks"
            );
        }
    }
    // A child that is never sent keeps its placeholder (something refers to it); the
    // placeholder for the list that was still open goes.
    let text = format!(
        r#"<a2ui-json>[{{"version": "v0.9", "createSurface": {{"surfaceId": "s", "catalogId": "{BASIC_V09}"}}}}, {{"version": "v0.9", "updateComponents": {{"surfaceId": "s", "components": [{{"id": "root", "component": "Column", "children": ["a", "never"]}}, {{"id": "a", "component": "Text", "text": "A"}}]}}}}]</a2ui-json>"#
    );
    let s = stream_in_chunks(text.as_bytes(), 1);
    assert_eq!(
        all_ids(&s.renderer),
        vec![(
            "s".to_owned(),
            vec![
                "a".to_owned(),
                "loading_never".to_owned(),
                "root".to_owned()
            ]
        )]
    );
}

#[test]
fn an_error_mid_chunk_does_not_lose_the_rest_of_the_chunk() {
    // A block of two messages: the first fails ("No root component found"), the second is
    // right. Cut at every byte (two chunks), the final state must be the whole answer's
    // without the failed message.
    let start = format!(
        r#"<a2ui-json>[{{"version": "v0.9", "createSurface": {{"surfaceId": "s", "catalogId": "{BASIC_V09}"}}}}]</a2ui-json>"#
    );
    let failed = r#"{"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": [{"id": "stray", "component": "Text", "text": "x"}]}}"#;
    let good = r#"{"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": [{"id": "root", "component": "Column", "children": ["a", "b"]}, {"id": "a", "component": "Text", "text": "A"}, {"id": "b", "component": "Icon", "name": "star"}]}}"#;
    let block = format!("<a2ui-json>[{failed}, {good}]</a2ui-json>Done.");
    let (reference, _) = whole(format!("{start}<a2ui-json>[{good}]</a2ui-json>Done.").as_bytes());
    for cut in 0..=block.len() {
        let mut r = Renderer::new(Catalog::basic());
        let mut s = ModelTextStream::new(Limits::default());
        r.feed_model_text(&mut s, start.as_bytes());
        let mut events = r.feed_model_text(&mut s, &block.as_bytes()[..cut]);
        events.extend(r.feed_model_text(&mut s, &block.as_bytes()[cut..]));
        events.extend(r.finish_model_text(&mut s));
        let errors: Vec<String> = events
            .iter()
            .filter_map(|e| match e {
                ModelTextEvent::Error(e) => Some(e.to_string()),
                ModelTextEvent::Rejected(e) => Some(e.to_string()),
                _ => None,
            })
            .collect();
        assert_eq!(
            errors,
            ["No root component (id='root') found in updateComponents"],
            "cut at {cut}"
        );
        let prose: String = events
            .iter()
            .filter_map(|e| match e {
                ModelTextEvent::Text(t) => Some(t.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(prose, "Done.", "cut at {cut}");
        assert_eq!(all_ids(&r), all_ids(&reference), "cut at {cut}");
    }
}

#[test]
fn a_host_component_waits_for_the_required_properties_of_its_catalog_definition() {
    let mut options = model_text::ModelTextOptions::basic(Some(Family::V09));
    options.add_catalog_definition(&serde_json::json!({
        "catalogId": "https://example.com/host_catalog.json",
        "components": {
            "Rating": {
                "type": "object",
                "properties": {"component": {"const": "Rating"}, "stars": {"type": "number"}, "label": {"type": "string"}},
                "required": ["component", "stars"]
            }
        }
    }));
    let mut p = ModelTextParser::new(options, Limits::default());
    let yielded_rating = |parts: Vec<model_text::ResponsePart>| {
        parts
            .iter()
            .flat_map(|p| p.a2ui.iter().flatten())
            .filter_map(|m| m["updateComponents"]["components"].as_array())
            .flatten()
            .any(|c| c["id"] == "r" && c["component"] == "Rating")
    };
    let start = format!(
        r#"<a2ui-json>[{{"version": "v0.9", "createSurface": {{"surfaceId": "s", "catalogId": "{BASIC_V09}"}}}}, {{"version": "v0.9", "updateComponents": {{"surfaceId": "s", "components": [{{"id": "root", "component": "Column", "children": ["r"]}}, {{"id": "r", "component": "Rating", "label": "Food""#
    );
    assert!(!yielded_rating(p.feed_str(&start).expect("chunk")));
    assert!(!yielded_rating(p.feed_str(", ").expect("chunk")));
    assert!(yielded_rating(p.feed_str(r#""stars": 4"#).expect("chunk")));
}
