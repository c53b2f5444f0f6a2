//! Arbitrary A2UI Express text, after a pick byte: compiled whole against one of the
//! basic (v0.9, v1.0) and extended catalogs, and streamed inside `<a2ui>` through the
//! model-text parser in chunks whose size the pick byte sets, then another block cut off
//! (`finish`). Nothing may panic; every problem is a typed error.
#![no_main]

use std::sync::{Arc, OnceLock};

use egui_a2ui::Limits;
use egui_a2ui::stream::model_text::express::{ExpressBlock, ExpressCatalog, ExpressVersion};
use egui_a2ui::stream::model_text::{ModelTextOptions, ModelTextParser};
use libfuzzer_sys::fuzz_target;

fn catalogs() -> &'static [Arc<ExpressCatalog>; 3] {
    static CATS: OnceLock<[Arc<ExpressCatalog>; 3]> = OnceLock::new();
    CATS.get_or_init(|| {
        [
            Arc::new(ExpressCatalog::basic(ExpressVersion::V0_9)),
            Arc::new(ExpressCatalog::basic(ExpressVersion::V1_0)),
            Arc::new(ExpressCatalog::extended()),
        ]
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let cat = &catalogs()[usize::from(pick & 3) % 3];
    // `express::compile` without its catalog copy.
    let mut whole = ExpressBlock::whole(cat.clone(), "s");
    let _ = whole.feed(&text);
    let _ = whole.finish_complete();
    let answer = format!("Hi <a2ui>{text}");
    let chunk = 3 + usize::from(pick >> 2);
    let mut p = ModelTextParser::new(
        ModelTextOptions {
            express: Some(cat.clone()),
            ..ModelTextOptions::default()
        },
        Limits::default(),
    );
    for c in answer.as_bytes().chunks(chunk) {
        let _ = p.feed(c);
    }
    let _ = p.feed(b"</a2ui> bye <a2ui>root = Text(\"x\")");
    let _ = p.finish();
    let _ = p.take_diagnostics();
});
