//! The agent boundary the host owns (issue 41, finding M4): a surface's origin comes from
//! the host or transport, never from the agent. With an origin set, every surface is framed
//! and headed by it, its `Modal` dialogs say whose they are, and obscured fields say where
//! their text goes; the agent's self-chosen name is shown only as such.

use egui::accesskit::Role;
use egui_a2ui::model::AgentOrigin;
use egui_a2ui::{Renderer, RendererOptions};
use egui_kittest::kittest::{NodeT as _, Queryable as _};

use crate::common::content::{harness, renderer_with};

/// A v1.0 surface (no theme: v1.0 refuses it, so the agent can name nothing) whose Modal
/// imitates the host: "Sign in to <your app>", an obscured password field and an OK button.
const PHISHING: &str = concat!(
    r#"{"version":"v1.0","createSurface":{"surfaceId":"s","catalogId":"https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json"}}"#,
    "\n",
    r#"{"version":"v1.0","updateComponents":{"surfaceId":"s","components":["#,
    r#"{"id":"root","component":"Modal","trigger":"open","content":"dialog"},"#,
    r#"{"id":"open","component":"Button","child":"open-label","action":{"event":{"name":"noop"}}},"#,
    r#"{"id":"open-label","component":"Text","text":"Session expired: click to continue"},"#,
    r#"{"id":"dialog","component":"Column","children":["title","pw"]},"#,
    r#"{"id":"title","component":"Text","text":"Sign in to Your App"},"#,
    r#"{"id":"pw","component":"TextField","label":"Password","variant":"obscured","value":{"@path":"/pw"}}"#,
    "]}}\n",
);

/// A v0.9 surface whose agent names itself like a system dialog.
const SPOOFED_NAME: &str = r#"{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json","theme":{"agentDisplayName":"Windows Security \u2713\nYour PC is locked"}}}
{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":"Body"}]}}
"#;

fn with_origin(doc: &str, origin: AgentOrigin) -> Renderer {
    let mut r = renderer_with(doc);
    r.store_mut().set_origin(Some(origin));
    r
}

fn origin() -> AgentOrigin {
    AgentOrigin::new("Travel agent").with_host("https://agents.example.com/a2a")
}

#[test]
fn a_surface_with_an_origin_is_headed_by_it_in_every_version() {
    // v1.0 has no theme: without the host's origin nothing would name the agent.
    let h = harness(with_origin(PHISHING, origin()));
    let banner = h.get_by_role(Role::Banner);
    assert_eq!(
        banner.accesskit_node().label().as_deref(),
        Some("Travel agent · agents.example.com")
    );
    // Without an origin and without a theme, no header: the host did not say.
    let h = harness(renderer_with(PHISHING));
    assert!(h.query_by_role(Role::Banner).is_none());
}

#[test]
fn the_agents_own_name_is_shown_only_as_what_it_calls_itself() {
    let h = harness(with_origin(SPOOFED_NAME, origin()));
    let label = h
        .get_by_role(Role::Banner)
        .accesskit_node()
        .label()
        .unwrap_or_default();
    assert!(
        label.starts_with("Travel agent · agents.example.com, calls itself"),
        "{label}"
    );
    // One line: the agent's line break cannot push a second line into the header.
    assert!(!label.contains('\n'), "{label}");
    assert!(
        h.query_by_label("Windows Security \u{2713}\nYour PC is locked")
            .is_none()
    );
    // Without an origin the header still does not present the name as the agent's identity.
    let h = harness(renderer_with(SPOOFED_NAME));
    let label = h
        .get_by_role(Role::Banner)
        .accesskit_node()
        .label()
        .unwrap_or_default();
    assert!(label.starts_with("Agent, calls itself"), "{label}");
}

#[test]
fn a_modal_says_whose_dialog_it_is() {
    let mut h = harness(with_origin(PHISHING, origin()));
    h.get_by_label("Session expired: click to continue").click();
    h.run();
    h.get_by_label("Sign in to Your App");
    h.get_by_label("From Travel agent · agents.example.com");

    // With no origin the dialog still does not pass as the host's own.
    let mut h = harness(renderer_with(PHISHING));
    h.get_by_label("Session expired: click to continue").click();
    h.run();
    h.get_by_label("From the agent");
}

#[test]
fn an_obscured_field_says_where_its_text_goes() {
    let mut h = harness(with_origin(PHISHING, origin()));
    h.get_by_label("Session expired: click to continue").click();
    h.run();
    let field = h.get_by_label("Password");
    assert_eq!(
        field.accesskit_node().description().as_deref(),
        Some("What you type here is sent to agents.example.com")
    );
    // Drawn, not only told to screen readers.
    assert!(
        painted_text(&h)
            .iter()
            .any(|t| t == "\u{2192} agents.example.com"),
        "{:?}",
        painted_text(&h)
    );
}

/// Every text the last frame painted.
fn painted_text(h: &egui_kittest::Harness<'_, crate::common::App>) -> Vec<String> {
    fn walk(shape: &egui::Shape, out: &mut Vec<String>) {
        match shape {
            egui::Shape::Text(t) => out.push(t.galley.job.text.clone()),
            egui::Shape::Vec(v) => v.iter().for_each(|s| walk(s, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for clipped in &h.output().shapes {
        walk(&clipped.shape, &mut out);
    }
    out
}

#[test]
fn the_host_can_draw_its_own_attribution_instead() {
    let r = with_origin(PHISHING, origin()).with_options(RendererOptions {
        show_origin: false,
        ..RendererOptions::default()
    });
    let h = harness(r);
    assert!(h.query_by_role(Role::Banner).is_none());
}
