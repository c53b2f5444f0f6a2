//! The README's promises about the examples: the embedding snippet is real code (compiled
//! here, line for line), `examples/minimal.rs` stays under 60 lines, and the set-up section
//! has exactly the two commands. (`cargo test` builds every example, so they compile with
//! whatever features the run uses, `--all-features` in CI.)

use egui_a2ui::{Catalog, Renderer};

const README: &str = include_str!("../../README.md");
const THIS_FILE: &str = include_str!("examples.rs");

/// The README's embedding snippet, verbatim (the README hides the `#` lines).
fn readme_snippet(path: &std::path::Path) -> Option<serde_json::Value> {
    let mut a2ui = egui_a2ui::Renderer::new(egui_a2ui::Catalog::basic());
    a2ui.feed_jsonl(&std::fs::read(path).unwrap()); // any chunks, as they arrive
    let ctx = egui::Context::default();
    let mut sent = None;
    let mut output = ctx.run_ui(Default::default(), |ui| {
        for event in a2ui.ui(ui) {
            // every frame, inside any egui::Ui
            if let Some(message) = event.to_message() {
                println!("{message}"); // send it to the agent
                sent = Some(message);
            }
        }
        let speed = a2ui
            .store()
            .surface("game")
            .and_then(|s| s.data.get("/speed")); // read the model
        let _ = speed;
    });
    output.textures_delta.clear(); // a real integration paints these
    sent
}

fn code_block_after(heading: &str, fence: &str) -> Vec<&'static str> {
    let at = README
        .find(heading)
        .unwrap_or_else(|| panic!("README has no {heading:?}"));
    let rest = &README[at..];
    let start = rest.find(fence).expect("a code block") + fence.len();
    let end = rest[start..].find("```").expect("the block ends");
    rest[start..start + end]
        .lines()
        .filter(|l| !l.trim().is_empty())
        .collect()
}

#[test]
fn the_readme_embedding_snippet_is_the_compiled_code() {
    let lines = code_block_after("## Embedding", "```rust,no_run\n");
    let visible: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| !l.starts_with('#'))
        .collect();
    assert!(visible.len() <= 10, "{} visible lines", visible.len());
    // Compared without comments and whitespace (rustfmt rewraps this file).
    let squash = |s: &str| -> String {
        s.lines()
            .map(|l| l.split("//").next().unwrap_or(""))
            .collect::<String>()
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect()
    };
    let this_file = squash(THIS_FILE);
    for l in lines {
        let code = l.strip_prefix("# ").unwrap_or(l);
        let code = squash(&code.replace("\"stream.jsonl\"", "path"));
        let code = code.trim_end_matches("});");
        if code.is_empty() || code.starts_with("let_=speed") {
            continue;
        }
        assert!(
            this_file.contains(code),
            "README line not compiled here: {code}"
        );
    }
    // And it runs: a stream whose first line is malformed yields an error message for
    // the agent, and the rest still applies.
    let dir = std::env::temp_dir().join(format!("readme-snippet-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("stream.jsonl");
    std::fs::write(
        &path,
        "{oops\n{\"version\":\"v0.9\",\"createSurface\":{\"surfaceId\":\"game\",\"catalogId\":\"https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json\"}}\n",
    )
    .unwrap();
    let sent = readme_snippet(&path).expect("an error message for the agent");
    assert_eq!(sent["error"]["code"], "VALIDATION_FAILED");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_readme_has_exactly_two_setup_commands() {
    let lines = code_block_after("## Set up", "```sh\n");
    assert_eq!(
        lines,
        ["cargo run --example viewer", "cargo test --all-features"]
    );
}

#[test]
fn minimal_example_stays_minimal() {
    let src = include_str!("../../examples/minimal.rs");
    assert!(src.lines().count() < 60, "{} lines", src.lines().count());
    // It draws with the public API only and prints the agent messages.
    assert!(src.contains("Renderer::new(Catalog::basic())"));
    assert!(src.contains("event.to_message()"));
    let _ = Renderer::new(Catalog::basic());
}

#[test]
fn readme_screenshots_exist() {
    for line in README
        .lines()
        .filter(|l| l.contains("](assets/screenshots/"))
    {
        for part in line.split("](").skip(1) {
            let path = part.split(')').next().unwrap();
            let full = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
            let bytes = std::fs::read(&full).unwrap_or_else(|e| panic!("{path}: {e}"));
            assert!(bytes.starts_with(b"\x89PNG"), "{path} is not a PNG");
        }
    }
}

/// Every relative link of the README and of `docs/` names a file that exists (the reference
/// sections moved to `docs/` link back with `../`).
#[test]
fn readme_and_docs_links_resolve() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![(root.to_path_buf(), README.to_owned())];
    for entry in std::fs::read_dir(root.join("docs")).expect("docs/") {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "md") {
            files.push((root.join("docs"), std::fs::read_to_string(&path).unwrap()));
        }
    }
    assert!(files.len() >= 5, "the reference lives in docs/");
    let mut checked = 0;
    for (dir, text) in &files {
        for part in text.split("](").skip(1) {
            let target = part.split(')').next().unwrap_or("");
            let target = target.split('#').next().unwrap_or("");
            if target.is_empty() || target.contains("://") || target.contains(' ') {
                continue;
            }
            assert!(
                dir.join(target).exists(),
                "{}: link to {target} does not resolve",
                dir.display()
            );
            checked += 1;
        }
    }
    assert!(checked > 20, "only {checked} links checked");
}
