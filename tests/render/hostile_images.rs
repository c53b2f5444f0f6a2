//! Hostile images (security review H1, H2, M5): dimension and decompression bombs never
//! reach the GPU larger than `max_texture_side`, an SVG `<image href>` never opens a file
//! or a FIFO, refusals reach the agent once, and legal images still draw. With the `http`
//! feature, the bounded http loader against a 127.0.0.1 server.

use std::io::Write as _;
use std::time::Duration;

use base64::Engine as _;
use egui::accesskit::Role;
use egui::load::SizeHint;
use egui_a2ui::render::images::{ImageCaps, ImageError, decode_image, load_error};
use egui_a2ui::{Catalog, Event, Limits, Renderer};
use egui_kittest::kittest::{NodeT as _, Queryable as _};
use egui_kittest::{Harness, HarnessBuilder};
use serde_json::json;

use crate::common::{App, build, v09_doc};

/// The GPU texture side the harness reports: smaller than the default 8192 image cap,
/// so passing proves the downscale.
const SIDE: usize = 2048;

fn png(width: u32, height: u32, rgba: [u8; 4]) -> Vec<u8> {
    let img = image::RgbaImage::from_pixel(width, height, image::Rgba(rgba));
    let mut out = Vec::new();
    img.write_to(&mut std::io::Cursor::new(&mut out), image::ImageFormat::Png)
        .unwrap();
    out
}

fn data_uri(mime: &str, bytes: &[u8]) -> String {
    format!(
        "data:{mime};base64,{}",
        base64::engine::general_purpose::STANDARD.encode(bytes)
    )
}

fn svg_uri(svg: &str) -> String {
    data_uri("image/svg+xml", svg.as_bytes())
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    gz.write_all(bytes).unwrap();
    gz.finish().unwrap()
}

fn image_doc(urls: &[&str]) -> String {
    let mut components = vec![json!({"id": "root", "component": "Column",
        "children": (0..urls.len()).map(|i| format!("i{i}")).collect::<Vec<_>>()})];
    for (i, url) in urls.iter().enumerate() {
        components.push(
            json!({"id": format!("i{i}"), "component": "Image", "url": url,
            "description": format!("picture {i}")}),
        );
    }
    v09_doc(json!(components), json!({}))
}

fn harness_with(builder: HarnessBuilder<App>, urls: &[&str]) -> Harness<'static, App> {
    let mut r = Renderer::new(Catalog::basic());
    r.feed_document(image_doc(urls).as_bytes());
    assert!(r.store().errors().is_empty(), "{:?}", r.store().errors());
    let mut h = build(builder, r, None);
    h.input_mut().max_texture_side = Some(SIDE);
    h
}

fn harness(urls: &[&str]) -> Harness<'static, App> {
    harness_with(
        Harness::builder()
            .with_size(egui::vec2(600.0, 800.0))
            .with_max_steps(4000),
        urls,
    )
}

/// The sizes of every texture egui holds now.
fn texture_sizes(h: &Harness<'_, App>) -> Vec<[usize; 2]> {
    h.ctx
        .tex_manager()
        .read()
        .allocated()
        .map(|(_, meta)| meta.size)
        .collect()
}

/// Step until the loaders are done (bounded), checking every texture after each step.
fn run_checked(h: &mut Harness<'_, App>) -> Vec<[usize; 2]> {
    let mut seen = Vec::new();
    // Up to a minute: an unoptimised test build inflates and decodes slowly.
    for _ in 0..3000 {
        h.step();
        let sizes = texture_sizes(h);
        for s in &sizes {
            assert!(
                s[0] <= SIDE && s[1] <= SIDE,
                "a {}x{} texture was allocated (max_texture_side {SIDE})",
                s[0],
                s[1]
            );
        }
        seen.extend(sizes);
        if !h.ctx.has_pending_images() {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    // A few more frames: errors must not repeat, textures must stay bounded.
    for _ in 0..5 {
        h.step();
        seen.extend(texture_sizes(h));
    }
    seen
}

fn image_errors(h: &Harness<'_, App>) -> Vec<String> {
    h.state()
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Error(r) => Some(format!("{} {}", r.error.code(), r.error)),
            _ => None,
        })
        .collect()
}

#[test]
fn a_1x20000_png_is_refused_before_decoding_and_reported_once() {
    let url = data_uri("image/png", &png(1, 20_000, [255, 0, 0, 255]));
    let mut h = harness(&[&url]);
    run_checked(&mut h);
    assert!(
        matches!(
            load_error(&h.ctx, &url),
            Some(ImageError::TooLarge {
                width: 1,
                height: 20_000,
                limit: 8192
            })
        ),
        "{:?}",
        load_error(&h.ctx, &url)
    );
    let errors = image_errors(&h);
    assert_eq!(
        errors.len(),
        1,
        "reported once, not every frame: {errors:?}"
    );
    assert!(
        errors[0].starts_with("LIMIT_EXCEEDED") && errors[0].contains("max_image_dimension"),
        "{errors:?}"
    );
    // The broken-image placeholder stays visible (a refusal does not collapse), named by
    // the alt text and described with the reason.
    let node = h.get_by_role_and_label(Role::Image, "picture 0");
    assert!(node.rect().height() >= 100.0, "{:?}", node.rect());
    let description = node.accesskit_node().description().unwrap_or_default();
    assert!(
        description.starts_with("Image unavailable") && description.contains("max_image_dimension"),
        "{description}"
    );
}

#[test]
fn a_raster_image_over_the_texture_side_is_downscaled_to_fit() {
    let url = data_uri("image/png", &png(4, 5000, [0, 0, 255, 255]));
    let mut h = harness(&[&url]);
    let seen = run_checked(&mut h);
    assert!(load_error(&h.ctx, &url).is_none());
    assert!(
        seen.iter().any(|s| s[1] == SIDE && s[0] >= 1),
        "the picture was downscaled to {SIDE} high: {seen:?}"
    );
    assert!(image_errors(&h).is_empty(), "{:?}", image_errors(&h));
}

#[test]
fn tall_svgs_are_rasterised_within_the_texture_side_on_both_axes() {
    let svg = |h: u32| {
        svg_uri(&format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="1" height="{h}"><rect width="1" height="{h}" fill="green"/></svg>"#
        ))
    };
    let (a, b) = (svg(100), svg(100_000));
    let mut h = harness(&[&a, &b]);
    let seen = run_checked(&mut h);
    assert!(
        load_error(&h.ctx, &a).is_none(),
        "{:?}",
        load_error(&h.ctx, &a)
    );
    assert!(
        load_error(&h.ctx, &b).is_none(),
        "{:?}",
        load_error(&h.ctx, &b)
    );
    // 300 px wide at 1:100 asks for 300x30000: it is drawn 2048 high instead.
    assert!(seen.iter().any(|s| s[1] == SIDE), "{seen:?}");
    assert!(image_errors(&h).is_empty(), "{:?}", image_errors(&h));
}

#[test]
fn an_svgz_bomb_stops_at_the_byte_cap() {
    // 40 MiB of spaces inside an SVG (over the 32 MiB cap), about 40 KiB gzipped: the
    // URL stays under `max_string_chars`, which would cut it.
    let mut svg = br#"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">"#.to_vec();
    svg.resize(svg.len() + 40 * 1024 * 1024, b' ');
    svg.extend_from_slice(b"</svg>");
    let url = data_uri("image/svg+xml", &gzip(&svg));
    drop(svg);
    assert!(
        url.len() < Limits::default().max_string_chars,
        "{}",
        url.len()
    );
    let mut h = harness(&[&url]);
    run_checked(&mut h);
    assert_eq!(
        load_error(&h.ctx, &url),
        Some(ImageError::TooManyBytes {
            limit: Limits::default().max_image_bytes
        })
    );
    let errors = image_errors(&h);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].contains("max_image_bytes"), "{errors:?}");
}

fn href_svg(href: &str) -> String {
    svg_uri(&format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"><image href="{href}" width="9" height="9"/></svg>"#
    ))
}

#[test]
fn an_svg_naming_a_local_file_is_refused_and_the_file_is_not_drawn() {
    let dir = std::env::temp_dir().join(format!("a2ui-href-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("secret.png");
    std::fs::write(&file, png(9, 9, [255, 0, 0, 255])).unwrap();
    let url = href_svg(file.to_str().unwrap());
    let mut h = harness(&[&url]);
    run_checked(&mut h);
    let error = load_error(&h.ctx, &url);
    assert!(
        matches!(&error, Some(ImageError::HrefRefused(why)) if why.contains("secret.png")),
        "{error:?}"
    );
    let errors = image_errors(&h);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].starts_with("VALIDATION_FAILED") && errors[0].contains("href"),
        "{errors:?}"
    );
    // The decoder itself, too: no picture comes out of it.
    let bytes = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"><image href="{}" width="9" height="9"/></svg>"#,
        file.display()
    );
    assert!(matches!(
        decode_image(
            bytes.as_bytes(),
            None,
            SizeHint::Width(9),
            &ImageCaps::default()
        ),
        Err(ImageError::HrefRefused(_))
    ));
    std::fs::remove_dir_all(&dir).ok();
}

#[cfg(unix)]
#[test]
fn an_svg_naming_a_fifo_never_opens_it() {
    let dir = std::env::temp_dir().join(format!("a2ui-fifo-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("pipe");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo failed");
    let url = href_svg(fifo.to_str().unwrap());
    let (tx, rx) = std::sync::mpsc::channel();
    // Opening a FIFO with no writer blocks forever: if the loader opened it, this thread
    // would never answer.
    std::thread::spawn(move || {
        let mut h = harness(&[&url]);
        run_checked(&mut h);
        let _ = tx.send((load_error(&h.ctx, &url), image_errors(&h)));
    });
    let answer = rx.recv_timeout(Duration::from_secs(60));
    std::fs::remove_dir_all(&dir).ok();
    let (error, errors) = answer.expect("the frame never returned: the FIFO was opened");
    assert!(
        matches!(error, Some(ImageError::HrefRefused(_))),
        "{error:?}"
    );
    assert_eq!(errors.len(), 1, "{errors:?}");
}

#[test]
fn a_nested_data_png_inside_an_svg_still_draws() {
    let nested = data_uri("image/png", &png(4, 4, [255, 0, 0, 255]));
    let svg = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><image href="{nested}" width="8" height="8"/></svg>"#
    );
    let picture = decode_image(
        svg.as_bytes(),
        None,
        SizeHint::Width(16),
        &ImageCaps::default(),
    )
    .unwrap();
    assert_eq!(picture.size, [16, 16]);
    let centre = picture.pixels[8 * 16 + 8];
    assert!(
        centre.r() > 200 && centre.g() < 50 && centre.a() > 200,
        "{centre:?}"
    );
    // Through the renderer: drawn, no error.
    let url = svg_uri(&svg);
    let mut h = harness(&[&url]);
    run_checked(&mut h);
    assert!(load_error(&h.ctx, &url).is_none());
    assert!(image_errors(&h).is_empty(), "{:?}", image_errors(&h));
    // Over the caps, the nested image is refused with the whole SVG.
    let big = data_uri("image/png", &png(1, 9000, [0, 0, 0, 255]));
    let svg = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><image href="{big}" width="8" height="8"/></svg>"#
    );
    assert!(matches!(
        decode_image(
            svg.as_bytes(),
            None,
            SizeHint::Width(16),
            &ImageCaps::default()
        ),
        Err(ImageError::HrefRefused(_))
    ));
}

#[test]
fn a_nested_svg_is_refused() {
    let inner = svg_uri(r#"<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>"#);
    let svg = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><image href="{inner}" width="8" height="8"/></svg>"#
    );
    assert!(matches!(
        decode_image(
            svg.as_bytes(),
            None,
            SizeHint::Width(16),
            &ImageCaps::default()
        ),
        Err(ImageError::HrefRefused(_))
    ));
}

#[test]
fn a_mid_size_legal_image_still_draws_at_its_size() {
    let url = data_uri("image/png", &png(640, 480, [10, 200, 30, 255]));
    let mut h = harness(&[&url]);
    let seen = run_checked(&mut h);
    assert!(load_error(&h.ctx, &url).is_none());
    assert!(seen.contains(&[640, 480]), "{seen:?}");
    assert!(image_errors(&h).is_empty(), "{:?}", image_errors(&h));
}

/// The same bombs through kittest's wgpu renderer (wgpu panics on a texture over its
/// limit, so this run fails loudly if any got through).
#[cfg(feature = "snapshots")]
#[test]
#[cfg_attr(
    not(has_mesa_egl),
    ignore = "Mesa EGL not found (libEGL.so.1, libEGL_mesa.so.0, swrast): apt-get install libegl1 libegl-mesa0 libgl1-mesa-dri"
)]
fn bombs_through_the_wgpu_renderer_do_not_panic() {
    let png_bomb = data_uri("image/png", &png(1, 20_000, [255, 0, 0, 255]));
    let svg_bomb = svg_uri(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="1" height="100000"><rect width="1" height="100000" fill="red"/></svg>"#,
    );
    let legal = data_uri("image/png", &png(64, 64, [0, 0, 255, 255]));
    let mut h = harness_with(
        Harness::builder()
            .with_size(egui::vec2(600.0, 800.0))
            .with_max_steps(4000)
            .wgpu()
            .with_render_every_step(true),
        &[&png_bomb, &svg_bomb, &legal],
    );
    run_checked(&mut h);
    let picture = h.render().expect("rendered");
    assert!(picture.width() > 0);
    assert!(load_error(&h.ctx, &legal).is_none());
    assert!(load_error(&h.ctx, &svg_bomb).is_none());
    assert!(load_error(&h.ctx, &png_bomb).is_some());
}

#[cfg(feature = "http")]
mod http {
    //! The bounded http loader against a server on 127.0.0.1 (no URL outside it).

    use std::io::{Read as _, Write as _};
    use std::net::TcpListener;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    use egui_a2ui::UrlPolicy;
    use egui_a2ui::render::http_loader::{FetchError, HttpLoaderConfig, fetch};

    /// A server answering each connection with `respond` (given the request head); the
    /// bytes it managed to write are counted.
    fn serve(
        connections: usize,
        respond: impl Fn(&str, &mut std::net::TcpStream) + Send + 'static,
    ) -> (String, Arc<AtomicUsize>) {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let base = format!("http://127.0.0.1:{}", listener.local_addr().unwrap().port());
        let written = Arc::new(AtomicUsize::new(0));
        let counter = Arc::clone(&written);
        std::thread::spawn(move || {
            for stream in listener.incoming().take(connections) {
                let Ok(mut stream) = stream else { return };
                let mut head = Vec::new();
                let mut byte = [0u8; 1];
                while !head.ends_with(b"\r\n\r\n") && head.len() < 8192 {
                    if stream.read(&mut byte).unwrap_or(0) == 0 {
                        break;
                    }
                    head.push(byte[0]);
                }
                let head = String::from_utf8_lossy(&head).into_owned();
                respond(&head, &mut stream);
                counter.fetch_add(1, Ordering::SeqCst);
            }
        });
        (base, written)
    }

    fn config(max_body: usize) -> HttpLoaderConfig {
        HttpLoaderConfig {
            max_body_bytes: max_body,
            connect_timeout: Duration::from_secs(5),
            read_timeout: Duration::from_secs(5),
            total_timeout: Duration::from_secs(30),
            // Plain http to 127.0.0.1 only (a loopback host, allowed here on purpose).
            policy: UrlPolicy::default()
                .with_media_schemes(["http"])
                .allow_private_media_hosts(true)
                .allow_hosts(["127.0.0.1"]),
            ..HttpLoaderConfig::default()
        }
    }

    #[test]
    fn a_declared_oversize_body_is_refused_before_reading() {
        let (base, _) = serve(1, |_, s| {
            // Declares 10 GB and sends nothing more, keeping the connection open: a
            // loader that read the body would wait for the timeout instead.
            let _ = s.write_all(
                b"HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: 10000000000\r\n\r\n",
            );
            std::thread::sleep(Duration::from_secs(10));
        });
        let result = fetch(&format!("{base}/big.png"), &config(64 * 1024));
        assert_eq!(result, Err(FetchError::TooLarge { limit: 64 * 1024 }));
    }

    #[test]
    fn an_endless_chunked_body_stops_at_the_cap() {
        let (base, _) = serve(1, |_, s| {
            let _ = s.write_all(
                b"HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nTransfer-Encoding: chunked\r\n\r\n",
            );
            let chunk = format!("{:x}\r\n{}\r\n", 4096, "x".repeat(4096));
            // Bounded by the test, not by the loader: 64 MiB at most.
            for _ in 0..16 * 1024 {
                if s.write_all(chunk.as_bytes()).is_err() {
                    return;
                }
            }
        });
        let result = fetch(&format!("{base}/endless.png"), &config(64 * 1024));
        assert_eq!(result, Err(FetchError::TooLarge { limit: 64 * 1024 }));
    }

    #[test]
    fn a_redirect_to_a_refused_host_is_not_followed() {
        let (base, served) = serve(1, |_, s| {
            let _ = s.write_all(
                b"HTTP/1.1 302 Found\r\nLocation: http://192.168.1.1/admin.png\r\nContent-Length: 0\r\n\r\n",
            );
        });
        let result = fetch(&format!("{base}/a.png"), &config(64 * 1024));
        assert!(
            matches!(&result, Err(FetchError::Refused(why)) if why.contains("192.168.1.1")),
            "{result:?}"
        );
        // The server thread counts a connection after answering it: the client may have
        // its answer first (bounded wait).
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while served.load(Ordering::SeqCst) < 1 && std::time::Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(10));
        }
        assert_eq!(served.load(Ordering::SeqCst), 1);
    }

    #[test]
    fn an_allowed_redirect_is_followed_and_the_body_returned() {
        let (base, _) = serve(2, |head, s| {
            if head.starts_with("GET /a.png") {
                let _ = s.write_all(
                    b"HTTP/1.1 301 Moved\r\nLocation: /b.png\r\nContent-Length: 0\r\n\r\n",
                );
            } else {
                let _ = s.write_all(
                    b"HTTP/1.1 200 OK\r\nContent-Type: image/png; x=y\r\nContent-Length: 3\r\n\r\nabc",
                );
            }
        });
        let result = fetch(&format!("{base}/a.png"), &config(64 * 1024));
        assert_eq!(result, Ok((b"abc".to_vec(), Some("image/png".to_owned()))));
    }

    #[test]
    fn redirects_are_refused_when_the_config_allows_none() {
        let (base, _) = serve(1, |_, s| {
            let _ =
                s.write_all(b"HTTP/1.1 302 Found\r\nLocation: /b.png\r\nContent-Length: 0\r\n\r\n");
        });
        let mut c = config(64 * 1024);
        c.max_redirects = 0;
        let result = fetch(&format!("{base}/a.png"), &c);
        assert!(matches!(result, Err(FetchError::Redirect(_))), "{result:?}");
    }

    #[test]
    fn a_silent_server_times_out() {
        let (base, _) = serve(1, |_, _| std::thread::sleep(Duration::from_secs(20)));
        let mut c = config(64 * 1024);
        c.read_timeout = Duration::from_millis(300);
        let result = fetch(&format!("{base}/slow.png"), &c);
        assert!(matches!(result, Err(FetchError::Timeout(_))), "{result:?}");
    }

    #[test]
    fn the_loader_fetches_a_few_at_once_and_serves_the_rest_later() {
        use egui::load::{BytesLoader as _, BytesPoll};
        use egui_a2ui::render::http_loader::HttpBytesLoader;
        let (base, _) = serve(6, |_, s| {
            std::thread::sleep(Duration::from_millis(200));
            let _ = s.write_all(
                b"HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: 2\r\n\r\nok",
            );
        });
        let mut c = config(1024);
        c.max_concurrent = 2;
        let loader = HttpBytesLoader::new(c);
        let ctx = egui::Context::default();
        let urls: Vec<String> = (0..6).map(|i| format!("{base}/{i}.png")).collect();
        for u in &urls {
            assert!(matches!(
                loader.load(&ctx, u),
                Ok(BytesPoll::Pending { .. })
            ));
        }
        assert!(loader.running() <= 2, "{} running", loader.running());
        let mut ready = 0;
        for _ in 0..1000 {
            assert!(loader.running() <= 2);
            ready = urls
                .iter()
                .filter(|u| matches!(loader.load(&ctx, u), Ok(BytesPoll::Ready { .. })))
                .count();
            if ready == urls.len() {
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        assert_eq!(ready, urls.len());
    }
}
