//! The image loader's decoder (`render::images::decode_image`) on fuzzed bytes: PNG, JPEG,
//! SVG and svgz, under small caps so each input stays cheap. The input's first byte picks
//! the size hint and whether the bytes are tried as they are or gzipped first (reaching
//! the svgz path with any SVG of the corpus). Run with large inputs allowed:
//! `cargo +nightly fuzz run image_load -- -max_len=1048576`.
#![no_main]

use std::io::Write as _;

use egui::load::SizeHint;
use egui_a2ui::render::images::{ImageCaps, decode_image};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&mode, bytes)) = data.split_first() else {
        return;
    };
    let caps = ImageCaps {
        max_dimension: 4096,
        max_side: 512,
        max_bytes: 4 * 1024 * 1024,
    };
    let hint = match mode % 4 {
        0 => SizeHint::Width(u32::from(mode) * 8 + 1),
        1 => SizeHint::Height(u32::from(mode) * 8 + 1),
        2 => SizeHint::Size {
            width: 300,
            height: 30_000,
            maintain_aspect_ratio: mode & 0x10 != 0,
        },
        _ => SizeHint::Scale((f32::from(mode) / 16.0).into()),
    };
    let mime = (mode & 0x20 != 0).then_some("image/svg+xml");
    let gzipped;
    let input = if mode & 0x40 != 0 {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        if gz.write_all(bytes).is_err() {
            return;
        }
        let Ok(g) = gz.finish() else { return };
        gzipped = g;
        &gzipped[..]
    } else {
        bytes
    };
    if let Ok(picture) = decode_image(input, mime, hint, &caps) {
        assert!(picture.size[0] <= 512 && picture.size[1] <= 512, "{:?}", picture.size);
        assert_eq!(picture.pixels.len(), picture.size[0] * picture.size[1]);
    }
});
