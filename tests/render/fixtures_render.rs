//! Every public spec fixture renders with no unknown component and no error event, and shows
//! the texts its agent wrote.

use crate::common::content as content_util;

use std::path::{Path, PathBuf};

use content_util::{State, all_labels, harness_from, renderer_with};
use egui_kittest::Harness;

const SPEC: &str = "tests/data/a2ui/specification";

fn fixture_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in [
        "v0_8/json/catalogs/basic/examples",
        "v0_8/json/catalogs/minimal/examples",
        "v0_9/catalogs/basic/examples",
        "v0_9/catalogs/minimal/examples",
    ] {
        let dir = Path::new(SPEC).join(dir);
        for entry in std::fs::read_dir(&dir).expect("fixture dir") {
            let path = entry.expect("entry").path();
            if path.extension().is_some_and(|e| e == "json") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The contact form stream without its final `deleteSurface`, so there is something to see.
fn contact_form(version: &str) -> String {
    let path = Path::new(SPEC)
        .join(version)
        .join("test/cases/contact_form_example.jsonl");
    std::fs::read_to_string(path)
        .expect("contact form")
        .lines()
        .filter(|l| !l.contains("deleteSurface"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn render(document: &str) -> Harness<'static, State> {
    // No `allow_missing_glyphs`: the bundled fonts cover every fixture (tests/render/glyphs.rs), so
    // egui's missing-glyph panic stays on. The accessible-name check stays on: every input
    // widget of every fixture has a name.
    let builder = content_util::builder(700.0, 1400.0);
    harness_from(builder, renderer_with(document))
}

/// Texts each fixture must show, keyed by `<version>/<catalog>/<stem>`. Most are drawn by
/// `Text` components (literal or bound to the data model); texts computed by functions are
/// left out until the function catalog lands.
const EXPECTED: &[(&str, &[&str])] = &[
    (
        "v0_8/basic/00_complex-layout",
        &["User Profile Form", "Please fill out all fields."],
    ),
    (
        "v0_8/basic/00_interactive-button",
        &["Click the button below"],
    ),
    (
        "v0_8/basic/00_row-layout",
        &["Left Content", "Right Content"],
    ),
    ("v0_8/basic/00_simple-login-form", &["Login"]),
    ("v0_8/basic/00_simple-text", &["Hello, Minimal Catalog!"]),
    (
        "v0_8/basic/01_flight-status",
        &["OS 87", "Vienna", "New York", "On Time", "Mon, Dec 15"],
    ),
    (
        "v0_8/basic/02_email-compose",
        &["alex@acme.com", "Q4 Revenue Forecast"],
    ),
    (
        "v0_8/basic/03_calendar-day",
        &["Friday", "Lunch", "Q1 roadmap review"],
    ),
    (
        "v0_8/basic/04_weather-current",
        &["72°", "Austin, TX", "Clear skies with light breeze"],
    ),
    (
        "v0_8/basic/06_music-player",
        &["Blinding Lights", "The Weeknd"],
    ),
    (
        "v0_8/basic/07_task-card",
        &["Review pull request", "Backend"],
    ),
    (
        "v0_8/basic/08_user-profile",
        &["Sarah Chen", "@sarahchen", "12.4K"],
    ),
    (
        "v0_8/basic/09_login-form",
        &["Welcome back", "Sign in to your account"],
    ),
    (
        "v0_8/basic/10_notification-permission",
        &["Enable notification"],
    ),
    (
        "v0_8/basic/11_purchase-complete",
        &["Purchase Complete", "Wireless Headphones Pro"],
    ),
    (
        "v0_8/basic/13_coffee-order",
        &["Sunrise Coffee", "Oat Milk Latte", "$11.66"],
    ),
    (
        "v0_8/basic/14_sports-player",
        &["Marcus Johnson", "LA Lakers"],
    ),
    (
        "v0_8/basic/15_account-balance",
        &["Primary Checking", "$12,458.32"],
    ),
    (
        "v0_8/basic/16_workout-summary",
        &["Workout Complete", "32:15"],
    ),
    (
        "v0_8/basic/17_event-detail",
        &["Product Launch Meeting", "Conference Room A, Building 2"],
    ),
    (
        "v0_8/basic/19_software-purchase",
        &["Purchase License", "Design Suite Pro"],
    ),
    (
        "v0_8/basic/20_restaurant-card",
        &["The Italian Kitchen", "(2,847 reviews)"],
    ),
    (
        "v0_8/basic/21_shipping-status",
        &["Package Status", "Tracking: 1Z999AA10123456784"],
    ),
    ("v0_8/basic/23_step-counter", &["Today's Steps", "8,432"]),
    (
        "v0_8/basic/24_recipe-card",
        &["Mediterranean Quinoa Bowl", "Serves 4"],
    ),
    (
        "v0_8/basic/25_contact-card",
        &["David Park", "david.park@company.com"],
    ),
    ("v0_8/basic/27_stats-card", &["Monthly Revenue", "$48,294"]),
    (
        "v0_8/basic/28_countdown-timer",
        &["Product Launch", "Days", "January 15, 2025"],
    ),
    ("v0_8/basic/30_modal-sample", &["Modal Component Sample"]),
    ("v0_8/minimal/1_simple_text", &["Hello, Minimal Catalog!"]),
    (
        "v0_8/minimal/2_row_layout",
        &["Left Content", "Right Content"],
    ),
    (
        "v0_8/minimal/3_interactive_button",
        &["Click the button below"],
    ),
    ("v0_8/minimal/4_login_form", &["Login"]),
    ("v0_8/minimal/5_complex_layout", &["User Profile Form"]),
    (
        "v0_9/basic/00_complex-layout",
        &["User Profile Form", "Please fill out all fields."],
    ),
    ("v0_9/basic/00_formatted-text", &["Formatted output:"]),
    (
        "v0_9/basic/00_incremental",
        &["The Golden Fork", "Spice Route", "101 Silk Road St"],
    ),
    (
        "v0_9/basic/00_interactive-button",
        &["Click the button below"],
    ),
    (
        "v0_9/basic/00_row-layout",
        &["Left Content", "Right Content"],
    ),
    ("v0_9/basic/00_simple-login-form", &["Login"]),
    ("v0_9/basic/00_simple-text", &["Hello, Minimal Catalog!"]),
    (
        "v0_9/basic/01_flight-status",
        &["OS 87", "Vienna", "New York", "On Time"],
    ),
    (
        "v0_9/basic/02_email-compose",
        &["alex@acme.com", "Q4 Revenue Forecast"],
    ),
    (
        "v0_9/basic/03_calendar-day",
        &["Lunch", "Q1 roadmap review"],
    ),
    (
        "v0_9/basic/04_weather-current",
        &["Austin, TX", "Clear skies with light breeze"],
    ),
    (
        "v0_9/basic/06_music-player",
        &["Blinding Lights", "The Weeknd"],
    ),
    (
        "v0_9/basic/07_task-card",
        &["Review pull request", "Backend"],
    ),
    ("v0_9/basic/08_user-profile", &["Sarah Chen", "@sarahchen"]),
    (
        "v0_9/basic/09_login-form",
        &["Welcome back", "Sign in to your account"],
    ),
    (
        "v0_9/basic/10_notification-permission",
        &["Enable notification"],
    ),
    (
        "v0_9/basic/11_purchase-complete",
        &["Purchase Complete", "Wireless Headphones Pro"],
    ),
    (
        "v0_9/basic/13_coffee-order",
        &["Sunrise Coffee", "Oat Milk Latte"],
    ),
    (
        "v0_9/basic/14_sports-player",
        &["Marcus Johnson", "LA Lakers"],
    ),
    ("v0_9/basic/15_account-balance", &["Primary Checking"]),
    (
        "v0_9/basic/16_workout-summary",
        &["Workout Complete", "32:15"],
    ),
    (
        "v0_9/basic/17_event-detail",
        &["Product Launch Meeting", "Conference Room A, Building 2"],
    ),
    (
        "v0_9/basic/19_software-purchase",
        &["Purchase License", "Design Suite Pro"],
    ),
    (
        "v0_9/basic/20_restaurant-card",
        &["The Italian Kitchen", "(2,847 reviews)"],
    ),
    (
        "v0_9/basic/21_shipping-status",
        &["Package Status", "Tracking: 1Z999AA10123456784"],
    ),
    ("v0_9/basic/23_step-counter", &["Today's Steps"]),
    (
        "v0_9/basic/24_recipe-card",
        &["Mediterranean Quinoa Bowl", "Serves 4"],
    ),
    (
        "v0_9/basic/25_contact-card",
        &["David Park", "david.park@company.com"],
    ),
    ("v0_9/basic/27_stats-card", &["Monthly Revenue"]),
    ("v0_9/basic/28_countdown-timer", &["Product Launch", "Days"]),
    (
        "v0_9/basic/30_live-invitation-builder",
        &["Customize your invitation", "Live Preview", "Summer Gala"],
    ),
    (
        "v0_9/basic/32_advanced-form-validator",
        &["Submit Registration"],
    ),
    (
        "v0_9/basic/34_child-list-template",
        &["Dynamic Item List", "Apple", "Cherry"],
    ),
    (
        "v0_9/basic/35_markdown-text",
        &[
            "Markdown Rendering",
            "Heading 1",
            "This is bold text and italic text.",
            "List item 2",
            "Link to Google",
        ],
    ),
    ("v0_9/basic/36_modal", &["Modal Component Sample"]),
    ("v0_9/minimal/1_simple_text", &["Hello, Minimal Catalog!"]),
    (
        "v0_9/minimal/2_row_layout",
        &["Left Content", "Right Content"],
    ),
    (
        "v0_9/minimal/3_interactive_button",
        &["Click the button below"],
    ),
    ("v0_9/minimal/4_login_form", &["Login"]),
    ("v0_9/minimal/5_complex_layout", &["User Profile Form"]),
    ("v0_9/minimal/6_capitalized_text", &["Capitalized output:"]),
    (
        "v0_9/minimal/7_incremental",
        &["The Golden Fork", "Spice Route"],
    ),
];

/// `tests/.../v0_9/catalogs/basic/examples/x.json` → `v0_9/basic/x`.
fn key(path: &Path) -> String {
    let parts: Vec<String> = path
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let version = parts
        .iter()
        .find(|p| p.starts_with("v0_"))
        .cloned()
        .unwrap_or_default();
    let catalog = parts
        .iter()
        .position(|p| p == "catalogs")
        .and_then(|i| parts.get(i + 1))
        .cloned()
        .unwrap_or_default();
    let stem = path.file_stem().unwrap_or_default().to_string_lossy();
    format!("{version}/{catalog}/{stem}")
}

/// Problems with one rendered document: error events, unsupported placeholders, missing
/// texts.
fn problems(name: &str, document: &str, expected: &[&str]) -> Vec<String> {
    let h = render(document);
    let mut out = Vec::new();
    for e in h.state().errors() {
        out.push(format!("{name}: error event {e}"));
    }
    let labels = all_labels(&h);
    for l in labels
        .iter()
        .filter(|l| l.contains("Unsupported component"))
    {
        out.push(format!("{name}: {l}"));
    }
    for text in expected {
        if !labels.iter().any(|l| l == text) {
            out.push(format!("{name}: no {text:?} among {labels:?}"));
        }
    }
    out
}

#[test]
fn every_spec_example_renders_without_errors_and_shows_its_texts() {
    let mut failures = Vec::new();
    let files = fixture_files();
    assert!(files.len() >= 70, "only {} fixtures found", files.len());
    for path in files {
        let name = key(&path);
        let Some((_, expected)) = EXPECTED.iter().find(|(k, _)| *k == name) else {
            failures.push(format!("{name}: no expected texts listed for this fixture"));
            continue;
        };
        let document = std::fs::read_to_string(&path).expect("fixture");
        failures.extend(problems(&name, &document, expected));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_contact_form_streams_render_without_errors_in_v0_9_and_v1_0() {
    let mut failures = Vec::new();
    // v0.9 sends `"# Contact Us"` as an `h2` (the web renderer shows the `#`: a heading
    // variant's text is a heading's content); v1.0 sends it with no variant, a Markdown
    // heading.
    for (version, title) in [("v0_9", "# Contact Us"), ("v1_0", "Contact Us")] {
        let name = format!("{version}/contact_form_example.jsonl");
        let expected = [title];
        failures.extend(problems(&name, &contact_form(version), &expected));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
