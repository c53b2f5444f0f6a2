//! The viewer's `--model-stream` replay, driven headless through egui_kittest (AccessKit):
//! the first components of a recorded answer are on screen while their `<a2ui-json>` block
//! is still open, the prose is shown, and the whole answer ends with every component.

use egui_a2ui_viewer::source::ModelStreamSource;
use egui_a2ui_viewer::{App as ViewerApp, Cli};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

fn harness(cli: Cli) -> Harness<'static, ViewerApp> {
    let placeholder = ViewerApp::new(
        egui::Context::default(),
        Cli {
            no_agent: true,
            ..Cli::default()
        },
    );
    let mut h = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .build_ui_state(|ui, app: &mut ViewerApp| app.ui(ui), placeholder);
    *h.state_mut() = ViewerApp::new(h.ctx.clone(), cli);
    h
}

#[test]
fn model_stream_shows_components_before_the_block_closes() {
    let path = egui_a2ui_viewer::gallery::samples_dir().join("model/restaurant_booking_v09.txt");
    let text = std::fs::read_to_string(&path).expect("recording");
    let close = text.find("</a2ui-json>").expect("close tag");
    // A huge tps would replay everything in the first frame; drive the player by hand.
    let mut h = harness(Cli {
        no_agent: true,
        model_stream: Some(path.clone()),
        tps: Some(1e-9),
        ..Cli::default()
    });
    h.run_steps(2);
    assert!(h.query_by_label_contains("Trattoria Da Enzo").is_none());
    // Feed chunk by chunk until the title is drawn.
    let mut fed = 0;
    while h.query_by_label_contains("Trattoria Da Enzo").is_none() {
        let m = h
            .state_mut()
            .source_mut::<ModelStreamSource>()
            .expect("player");
        m.advance_chunks(8);
        fed = m.position();
        assert!(fed < text.len(), "title never drawn");
        h.run_steps(2);
    }
    assert!(
        fed < close,
        "title drawn after {fed} bytes; the block closes at {close}"
    );
    // The prose before the block is shown, the form's later fields are not there yet.
    assert!(
        h.query_by_label_contains("Happy to help you book dinner")
            .is_some()
    );
    assert!(h.query_all_by_label_contains("Not now").next().is_none());
    // The rest of the answer: the button arrives, the closing prose too.
    h.state_mut()
        .source_mut::<ModelStreamSource>()
        .expect("player")
        .advance_chunks(usize::MAX / 8);
    h.run_steps(3);
    assert!(h.query_all_by_label_contains("Not now").next().is_some());
    assert!(h.query_by_label_contains("A couple of tips").is_some());
    let m = h
        .state_mut()
        .source_mut::<ModelStreamSource>()
        .expect("player");
    assert!(m.finished());
    assert!(m.errors().is_empty(), "{:?}", m.errors());
}
