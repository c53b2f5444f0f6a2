//! The egui_a2ui viewer's command line: `cargo run --example viewer -- --help` from the
//! repository's root. Everything is in the `egui_a2ui_viewer` library.

fn main() {
    std::process::exit(egui_a2ui_viewer::run(std::env::args().skip(1)));
}
