//! Turning an agent's image bytes into pixels under caps: PNG and JPEG through `image`
//! (dimensions read first, decoding under `image::Limits`), SVG and svgz through usvg and
//! resvg (svgz inflated here with a cap, `<image href>` resolved only for nested `data:` PNG
//! and JPEG, the pixmap size bounded on both axes). Nothing here touches the file system or
//! the network. See the [module docs of images](super) for the whole contract.

use std::collections::{HashMap, HashSet};
use std::io::{Cursor, Read};
use std::sync::{Arc, Mutex};

use egui::load::SizeHint;
use resvg::usvg;
// usvg's own XML parser (re-exported): we parse, check, then hand usvg the document.
use usvg::roxmltree;

use crate::error::A2uiError;
use crate::limits::Limits;

/// Elements of one SVG once every `<use>` is expanded (usvg copies the referenced
/// element at each `<use>`, with no bound of its own: ten levels of ten `<use>` are 10^10
/// elements in a few hundred bytes).
pub const MAX_SVG_ELEMENTS: u64 = 200_000;

/// Nesting of one SVG's elements, `<use>` expansions included (usvg and resvg recurse per
/// level).
pub const MAX_SVG_DEPTH: u64 = 256;

/// The caps one decode runs under.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ImageCaps {
    /// A raster image wider or taller than this is refused
    /// ([`Limits::max_image_dimension`]).
    pub max_dimension: u32,
    /// Neither side of the decoded picture is larger than this: the smaller of
    /// `max_dimension` and the GPU's `max_texture_side`. A larger raster image is
    /// downscaled to fit, an SVG is rasterised to fit.
    pub max_side: u32,
    /// Bytes of one encoded image, and of an svgz once inflated
    /// ([`Limits::max_image_bytes`]).
    pub max_bytes: usize,
}

impl ImageCaps {
    /// The caps for `limits` on a GPU whose textures may be `max_texture_side` on a side.
    pub fn new(limits: &Limits, max_texture_side: usize) -> Self {
        let max_dimension = limits.max_image_dimension.max(1);
        let side = u32::try_from(max_texture_side).unwrap_or(u32::MAX).max(1);
        Self {
            max_dimension,
            max_side: side.min(max_dimension),
            max_bytes: limits.max_image_bytes,
        }
    }
}

impl Default for ImageCaps {
    fn default() -> Self {
        // egui's own default `max_texture_side`.
        Self::new(&Limits::default(), 2048)
    }
}

/// Why an image was refused or could not be decoded.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ImageError {
    /// The image declares more pixels on a side than [`Limits::max_image_dimension`].
    #[error(
        "the image is {width}x{height} pixels, over the {limit}-pixel limit (max_image_dimension)"
    )]
    TooLarge {
        /// Declared width.
        width: u32,
        /// Declared height.
        height: u32,
        /// The limit.
        limit: u32,
    },
    /// The encoded image, or an svgz once inflated, is over [`Limits::max_image_bytes`].
    #[error("the image is over the {limit}-byte limit (max_image_bytes)")]
    TooManyBytes {
        /// The limit.
        limit: usize,
    },
    /// An SVG refers to something outside itself (`<image href>` naming a file, a URL,
    /// a nested SVG, an image over the caps): the whole image is refused.
    #[error("an SVG <image href> was refused: {0}")]
    HrefRefused(String),
    /// Neither PNG, JPEG nor SVG.
    #[error("unsupported image format")]
    UnknownFormat,
    /// The bytes are not a valid image.
    #[error("the image could not be decoded: {0}")]
    Decode(String),
}

impl ImageError {
    /// Whether the image was refused by a cap or the href rule (rather than being
    /// broken): the renderer then keeps its placeholder visible.
    pub fn is_refusal(&self) -> bool {
        matches!(
            self,
            Self::TooLarge { .. } | Self::TooManyBytes { .. } | Self::HrefRefused(_)
        )
    }

    /// The A2UI error reported to the agent for an `Image` component `component_id` that
    /// failed with this.
    pub fn to_a2ui(&self, component_id: &str) -> A2uiError {
        match self {
            Self::TooLarge {
                width,
                height,
                limit,
            } => A2uiError::LimitExceeded {
                what: "max_image_dimension",
                limit: *limit as usize,
                actual: (*width).max(*height) as usize,
            },
            Self::TooManyBytes { limit } => A2uiError::LimitExceeded {
                what: "max_image_bytes",
                limit: *limit,
                actual: limit.saturating_add(1),
            },
            other => A2uiError::Validation {
                path: format!(
                    "/components/{}/url",
                    component_id.replace('~', "~0").replace('/', "~1")
                ),
                message: other.to_string(),
            },
        }
    }
}

/// What the bytes are, read from their first bytes (a MIME type only breaks a tie).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImageKind {
    /// PNG.
    Png,
    /// JPEG.
    Jpeg,
    /// An SVG document.
    Svg,
    /// A gzip-compressed SVG document.
    Svgz,
}

/// Sniff the kind of `bytes` (`mime` is used only for SVG text without an `<svg` near
/// its start).
pub fn sniff(bytes: &[u8], mime: Option<&str>) -> Option<ImageKind> {
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        return Some(ImageKind::Png);
    }
    if bytes.starts_with(&[0xff, 0xd8, 0xff]) {
        return Some(ImageKind::Jpeg);
    }
    if bytes.starts_with(&[0x1f, 0x8b]) {
        return Some(ImageKind::Svgz);
    }
    let head = &bytes[..bytes.len().min(4096)];
    let looks_svg = head.windows(4).any(|w| w.eq_ignore_ascii_case(b"<svg"));
    let mime_svg = mime.is_some_and(|m| m.eq_ignore_ascii_case("image/svg+xml"));
    (looks_svg || mime_svg).then_some(ImageKind::Svg)
}

/// Whether pictures of this kind depend on the size hint (SVG is rasterised at the size
/// drawn; raster images are decoded once).
pub fn is_vector(kind: ImageKind) -> bool {
    matches!(kind, ImageKind::Svg | ImageKind::Svgz)
}

/// Decode or rasterise `bytes` into a picture no larger than `caps.max_side` on either
/// side. The loaders' one entry point (also the fuzz target's). Never reads a file or the
/// network; panics inside the decoders are not caught here (the loader's worker does).
pub fn decode_image(
    bytes: &[u8],
    mime: Option<&str>,
    hint: SizeHint,
    caps: &ImageCaps,
) -> Result<egui::ColorImage, ImageError> {
    if bytes.len() > caps.max_bytes {
        return Err(ImageError::TooManyBytes {
            limit: caps.max_bytes,
        });
    }
    match sniff(bytes, mime).ok_or(ImageError::UnknownFormat)? {
        ImageKind::Png => decode_raster(bytes, image::ImageFormat::Png, caps),
        ImageKind::Jpeg => decode_raster(bytes, image::ImageFormat::Jpeg, caps),
        ImageKind::Svg => rasterise_svg(bytes, hint, caps),
        ImageKind::Svgz => {
            let text = inflate_capped(bytes, caps.max_bytes)?;
            rasterise_svg(&text, hint, caps)
        }
    }
}

/// Inflate gzip `bytes`, refusing output over `max` bytes (never allocating more than
/// `max + 1` bytes for it).
pub fn inflate_capped(bytes: &[u8], max: usize) -> Result<Vec<u8>, ImageError> {
    let mut out = Vec::new();
    let cap = u64::try_from(max).unwrap_or(u64::MAX).saturating_add(1);
    flate2::read::GzDecoder::new(bytes)
        .take(cap)
        .read_to_end(&mut out)
        .map_err(|e| ImageError::Decode(format!("bad svgz: {e}")))?;
    if out.len() > max {
        return Err(ImageError::TooManyBytes { limit: max });
    }
    Ok(out)
}

/// Read the dimensions of a PNG or JPEG without decoding it.
fn raster_dimensions(bytes: &[u8], format: image::ImageFormat) -> Result<(u32, u32), ImageError> {
    image::ImageReader::with_format(Cursor::new(bytes), format)
        .into_dimensions()
        .map_err(|e| ImageError::Decode(e.to_string()))
}

fn check_dimensions(width: u32, height: u32, limit: u32) -> Result<(), ImageError> {
    if width > limit || height > limit {
        return Err(ImageError::TooLarge {
            width,
            height,
            limit,
        });
    }
    Ok(())
}

fn decode_raster(
    bytes: &[u8],
    format: image::ImageFormat,
    caps: &ImageCaps,
) -> Result<egui::ColorImage, ImageError> {
    let (width, height) = raster_dimensions(bytes, format)?;
    check_dimensions(width, height, caps.max_dimension)?;
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(caps.max_dimension);
    limits.max_image_height = Some(caps.max_dimension);
    // The decoded buffer at up to 8 bytes a pixel (16-bit RGBA), and some slack for the
    // decoder's own state.
    limits.max_alloc = Some(u64::from(width) * u64::from(height) * 8 + 4 * 1024 * 1024);
    let mut reader = image::ImageReader::with_format(Cursor::new(bytes), format);
    reader.limits(limits);
    let mut picture = reader
        .decode()
        .map_err(|e| ImageError::Decode(e.to_string()))?;
    let source = egui::vec2(width as f32, height as f32);
    if width > caps.max_side || height > caps.max_side {
        picture = picture.resize(
            caps.max_side,
            caps.max_side,
            image::imageops::FilterType::Triangle,
        );
    }
    let rgba = picture.into_rgba8();
    let size = [rgba.width() as usize, rgba.height() as usize];
    Ok(egui::ColorImage::from_rgba_unmultiplied(size, rgba.as_raw()).with_source_size(source))
}

/// What the href resolver refused first (the whole image is then refused).
type Refusal = Arc<Mutex<Option<String>>>;

fn refuse(refusal: &Refusal, why: String) {
    if let Ok(mut r) = refusal.lock()
        && r.is_none()
    {
        *r = Some(why);
    }
}

/// usvg options whose `<image href>` resolver never reads a file or a URL: only nested
/// `data:` PNG and JPEG are taken, each within `caps.max_dimension` on a side, all of them
/// together within `max_dimension²` pixels; anything else is recorded in `refusal`.
fn svg_options(caps: &ImageCaps, refusal: &Refusal) -> usvg::Options<'static> {
    let budget = Arc::new(Mutex::new(
        u64::from(caps.max_dimension) * u64::from(caps.max_dimension),
    ));
    let max_dimension = caps.max_dimension;
    let (on_data, on_string) = (Arc::clone(refusal), Arc::clone(refusal));
    let resolve_data = move |mime: &str, data: Arc<Vec<u8>>, _: &usvg::Options<'_>| {
        let format = match sniff(&data, None) {
            Some(ImageKind::Png) => image::ImageFormat::Png,
            Some(ImageKind::Jpeg) => image::ImageFormat::Jpeg,
            _ => {
                refuse(
                    &on_data,
                    format!("a nested data: image of type {mime:.40} (only PNG and JPEG)"),
                );
                return None;
            }
        };
        let (w, h) = match raster_dimensions(&data, format) {
            Ok(d) => d,
            Err(e) => {
                refuse(&on_data, format!("a nested image: {e}"));
                return None;
            }
        };
        if w > max_dimension || h > max_dimension {
            refuse(
                &on_data,
                format!("a nested image of {w}x{h} pixels (limit {max_dimension})"),
            );
            return None;
        }
        let pixels = u64::from(w) * u64::from(h);
        let left = budget.lock().ok().and_then(|mut b| {
            let ok = *b >= pixels;
            if ok {
                *b -= pixels;
            }
            ok.then_some(())
        });
        if left.is_none() {
            refuse(
                &on_data,
                "nested images over the pixel budget (max_image_dimension²)".to_owned(),
            );
            return None;
        }
        Some(match format {
            image::ImageFormat::Png => usvg::ImageKind::PNG(data),
            _ => usvg::ImageKind::JPEG(data),
        })
    };
    let resolve_string = move |href: &str, _: &usvg::Options<'_>| {
        let shown: String = href.chars().take(60).collect();
        refuse(
            &on_string,
            format!("{shown:?} is not a data: image (files and URLs are never read)"),
        );
        None
    };
    usvg::Options {
        resources_dir: None,
        image_href_resolver: usvg::ImageHrefResolver {
            resolve_data: Box::new(resolve_data),
            resolve_string: Box::new(resolve_string),
        },
        ..usvg::Options::default()
    }
}

/// The pixel size an SVG of natural size `source` is rasterised at for `hint`, fitted
/// inside `max_side` on both axes (aspect kept), at least 1×1.
pub fn svg_target_size(source: egui::Vec2, hint: SizeHint, max_side: u32) -> Option<[u32; 2]> {
    if !(source.x > 0.0 && source.y > 0.0 && source.x.is_finite() && source.y.is_finite()) {
        return None;
    }
    let wanted = match hint {
        SizeHint::Size {
            width,
            height,
            maintain_aspect_ratio: true,
        } => {
            let s = (width as f32 / source.x).min(height as f32 / source.y);
            source * s
        }
        SizeHint::Size { width, height, .. } => egui::vec2(width as f32, height as f32),
        SizeHint::Width(w) => source * (w as f32 / source.x),
        SizeHint::Height(h) => source * (h as f32 / source.y),
        SizeHint::Scale(s) => source * s.into_inner(),
    };
    let max = max_side.max(1) as f32;
    let over = (wanted.x / max).max(wanted.y / max);
    let fitted = if over > 1.0 { wanted / over } else { wanted };
    if !(fitted.x.is_finite() && fitted.y.is_finite()) {
        return None;
    }
    let side = |v: f32| (v.round() as u32).clamp(1, max_side.max(1));
    Some([side(fitted.x), side(fitted.y)])
}

/// The largest scale any node of the tree is drawn at (a pattern tile is rasterised at its
/// node's scale, outside the canvas bound).
fn max_node_scale(group: &usvg::Group) -> f32 {
    let (sx, sy) = group.abs_transform().get_scale();
    let mut max = sx.max(sy);
    for node in group.children() {
        let scale = match node {
            usvg::Node::Group(g) => max_node_scale(g),
            other => {
                let (sx, sy) = other.abs_transform().get_scale();
                sx.max(sy)
            }
        };
        max = max.max(scale);
    }
    max
}

/// Refuse SVG text nesting elements deeper than [`MAX_SVG_DEPTH`], read from the bytes
/// (an over-estimate: comments and `>` inside attribute values can only add), and entity
/// declarations holding markup (their expansion would nest past this scan).
fn check_nesting(text: &[u8]) -> Result<(), ImageError> {
    let refuse = || {
        ImageError::Decode(format!(
            "the SVG nests elements deeper than {MAX_SVG_DEPTH} levels"
        ))
    };
    let mut depth: u64 = 0;
    let mut at = 0;
    // The next `>` after the current `<` (kept, so the scan stays linear).
    let mut next_gt: Option<usize> = None;
    while let Some(off) = memchr::memchr(b'<', &text[at..]) {
        let start = at + off;
        let gt = match next_gt {
            Some(g) if g > start => g,
            _ => match memchr::memchr(b'>', &text[start..]) {
                Some(e) => start + e,
                // No tag is closed after this point.
                None => break,
            },
        };
        next_gt = Some(gt);
        let next = text.get(start + 1).copied().unwrap_or(0);
        let opens = next.is_ascii_alphabetic() || matches!(next, b'_' | b':') || next >= 0x80;
        let entity = next == b'!' && text[start..].starts_with(b"<!ENTITY");
        if next == b'/' {
            depth = depth.saturating_sub(1);
        } else if entity && memchr::memchr(b'<', &text[start + 1..gt]).is_some() {
            return Err(ImageError::Decode(
                "an SVG entity declaring markup is refused".to_owned(),
            ));
        } else if opens && text[gt - 1] != b'/' {
            depth += 1;
            if depth > MAX_SVG_DEPTH {
                return Err(refuse());
            }
        }
        at = start + 1;
    }
    Ok(())
}

/// The element `use` refers to (`href` or `xlink:href` of the form `#id`).
fn use_target<'a, 'i>(
    node: roxmltree::Node<'a, 'i>,
    ids: &HashMap<&'a str, roxmltree::Node<'a, 'i>>,
) -> Option<roxmltree::Node<'a, 'i>> {
    if node.tag_name().name() != "use" {
        return None;
    }
    let href = node
        .attribute(("http://www.w3.org/1999/xlink", "href"))
        .or_else(|| node.attribute("href"))?;
    ids.get(href.trim().strip_prefix('#')?).copied()
}

/// Refuse an SVG whose elements, with every `<use>` expanded, are more than
/// [`MAX_SVG_ELEMENTS`] or nest deeper than [`MAX_SVG_DEPTH`], or whose `<use>` refers to
/// itself. Iterative: a deep document cannot overflow the stack here.
fn check_expansion(doc: &roxmltree::Document<'_>) -> Result<(), ImageError> {
    let too_big = || {
        ImageError::Decode(format!(
            "the SVG expands to more than {MAX_SVG_ELEMENTS} elements or {MAX_SVG_DEPTH} levels"
        ))
    };
    let ids: HashMap<&str, roxmltree::Node<'_, '_>> = doc
        .descendants()
        .filter(|n| n.is_element())
        .filter_map(|n| n.attribute("id").map(|id| (id, n)))
        .collect();
    // (elements, depth) of each element's expanded subtree.
    let mut memo: HashMap<roxmltree::NodeId, (u64, u64)> = HashMap::new();
    let mut open: HashSet<roxmltree::NodeId> = HashSet::new();
    let mut stack = vec![(doc.root_element(), false)];
    while let Some((node, children_done)) = stack.pop() {
        if memo.contains_key(&node.id()) {
            continue;
        }
        let target = use_target(node, &ids);
        if !children_done {
            if !open.insert(node.id()) {
                return Err(ImageError::Decode(
                    "an SVG <use> refers to itself".to_owned(),
                ));
            }
            stack.push((node, true));
            for next in node.children().filter(|c| c.is_element()).chain(target) {
                if !memo.contains_key(&next.id()) {
                    stack.push((next, false));
                }
            }
            continue;
        }
        let (mut count, mut depth) = (1u64, 1u64);
        for next in node.children().filter(|c| c.is_element()).chain(target) {
            let (c, d) = memo.get(&next.id()).copied().unwrap_or((0, 0));
            count = count.saturating_add(c);
            depth = depth.max(d.saturating_add(1));
        }
        if count > MAX_SVG_ELEMENTS || depth > MAX_SVG_DEPTH {
            return Err(too_big());
        }
        open.remove(&node.id());
        memo.insert(node.id(), (count, depth));
    }
    Ok(())
}

fn rasterise_svg(
    bytes: &[u8],
    hint: SizeHint,
    caps: &ImageCaps,
) -> Result<egui::ColorImage, ImageError> {
    // Parsed here, not by `Tree::from_data`: usvg would inflate gzip text again, uncapped.
    let text = std::str::from_utf8(bytes)
        .map_err(|_| ImageError::Decode("the SVG is not UTF-8".to_owned()))?;
    let refusal: Refusal = Arc::default();
    let options = svg_options(caps, &refusal);
    // roxmltree recurses per nesting level: scan the nesting first.
    check_nesting(text.as_bytes())?;
    // As usvg parses (DTDs allowed; roxmltree bounds entity expansion itself).
    let xml = roxmltree::ParsingOptions {
        allow_dtd: true,
        nodes_limit: u32::try_from(MAX_SVG_ELEMENTS * 4).unwrap_or(u32::MAX),
    };
    let doc = roxmltree::Document::parse_with_options(text, xml)
        .map_err(|e| ImageError::Decode(e.to_string()))?;
    check_expansion(&doc)?;
    let tree =
        usvg::Tree::from_xmltree(&doc, &options).map_err(|e| ImageError::Decode(e.to_string()))?;
    if let Some(why) = refusal.lock().ok().and_then(|r| r.clone()) {
        return Err(ImageError::HrefRefused(why));
    }
    let source = egui::vec2(tree.size().width(), tree.size().height());
    let [w, h] = svg_target_size(source, hint, caps.max_side)
        .ok_or_else(|| ImageError::Decode("the SVG has no usable size".to_owned()))?;
    let (sx, sy) = (w as f32 / source.x, h as f32 / source.y);
    // resvg draws a pattern tile into a pixmap of the tile's size at its scale, which the
    // canvas does not bound: refuse a tile larger than the canvas could be.
    let scale = sx.max(sy) * max_node_scale(tree.root()).max(1.0);
    let max_tile = f64::from(caps.max_side) * f64::from(caps.max_side);
    for pattern in tree.patterns() {
        let (px, py) = pattern.transform().get_scale();
        let r = pattern.rect();
        let tile = f64::from(r.width() * scale * px.max(1.0))
            * f64::from(r.height() * scale * py.max(1.0));
        if !tile.is_finite() || tile > max_tile {
            return Err(ImageError::Decode(
                "an SVG pattern tile larger than the image".to_owned(),
            ));
        }
    }
    let mut pixmap = resvg::tiny_skia::Pixmap::new(w, h)
        .ok_or_else(|| ImageError::Decode(format!("cannot rasterise at {w}x{h}")))?;
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::from_scale(sx, sy),
        &mut pixmap.as_mut(),
    );
    Ok(
        egui::ColorImage::from_rgba_premultiplied([w as usize, h as usize], pixmap.data())
            .with_source_size(source),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn caps(side: u32) -> ImageCaps {
        ImageCaps {
            max_dimension: 8192,
            max_side: side,
            max_bytes: 1 << 20,
        }
    }

    #[test]
    fn svg_target_size_fits_both_axes() {
        let s = svg_target_size(egui::vec2(1.0, 100.0), SizeHint::Width(300), 2048).unwrap();
        assert!(s[0] <= 2048 && s[1] <= 2048, "{s:?}");
        assert_eq!(s[1], 2048);
        let s = svg_target_size(egui::vec2(1.0, 100_000.0), SizeHint::Width(300), 64).unwrap();
        assert_eq!(s, [1, 64]);
        let s = svg_target_size(egui::vec2(10.0, 10.0), SizeHint::Width(20), 64).unwrap();
        assert_eq!(s, [20, 20]);
    }

    #[test]
    fn svgz_inflation_stops_at_the_cap() {
        use std::io::Write;
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(&vec![b' '; 4 << 20]).unwrap();
        let bytes = gz.finish().unwrap();
        assert_eq!(
            inflate_capped(&bytes, 1 << 20),
            Err(ImageError::TooManyBytes { limit: 1 << 20 })
        );
    }

    #[test]
    fn use_bombs_deep_nesting_and_use_cycles_are_refused() {
        let mut bomb = String::from(
            r#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="9" height="9"><rect id="l0" width="1" height="1"/>"#,
        );
        for i in 1..10 {
            bomb.push_str(&format!(r#"<g id="l{i}">"#));
            for _ in 0..10 {
                bomb.push_str(&format!(r##"<use xlink:href="#l{}"/>"##, i - 1));
            }
            bomb.push_str("</g>");
        }
        bomb.push_str("</svg>");
        let deep = format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9">{}{}</svg>"#,
            "<g>".repeat(5000),
            "</g>".repeat(5000)
        );
        let entity = r#"<!DOCTYPE svg [<!ENTITY e "<g><g></g></g>">]><svg xmlns="http://www.w3.org/2000/svg" width="9" height="9">&e;</svg>"#;
        let cycle = r##"<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"><g id="a"><use href="#a"/></g></svg>"##;
        for svg in [bomb.as_str(), deep.as_str(), cycle, entity] {
            let e = decode_image(svg.as_bytes(), None, SizeHint::Width(9), &caps(64));
            assert!(matches!(e, Err(ImageError::Decode(_))), "{e:?}");
        }
        // A few shared uses, a DOCTYPE and a text entity are fine.
        let doctype = r#"<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd" [<!ENTITY ns "http://www.w3.org/2000/svg">]><svg xmlns="&ns;" width="9" height="9"><!-- a > b --><g><rect width="1" height="1"/></g></svg>"#;
        assert!(decode_image(doctype.as_bytes(), None, SizeHint::Width(9), &caps(64)).is_ok());
        let fine = r##"<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"><rect id="r" width="1" height="1"/><use href="#r" x="2"/><use href="#r" x="4"/></svg>"##;
        assert!(decode_image(fine.as_bytes(), None, SizeHint::Width(9), &caps(64)).is_ok());
    }

    #[test]
    fn a_file_href_is_refused_without_reading() {
        let svg = br#"<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"><image href="/dev/zero" width="9" height="9"/></svg>"#;
        let e = decode_image(svg, None, SizeHint::Width(9), &caps(64)).unwrap_err();
        assert!(matches!(e, ImageError::HrefRefused(_)), "{e}");
    }
}
