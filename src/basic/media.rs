//! `Video` and `AudioPlayer`. Without the `media` feature both draw a media card: the
//! poster (v1.0 `Video.posterUrl`), the description and the URL's host, with a play button
//! that emits [`Event::OpenUrl`](crate::action::Event::OpenUrl) for the host to open the media.
//! With it, both play in place ([`crate::media`]) with browser-like controls: a `Video`
//! shows its poster until played, then its frames in one texture updated in place; one
//! whose codec this build does not decode (VP9...) draws the card saying so.

use crate::catalog::ComponentRenderer;
use crate::catalog::{BoxSize, Fit, ImageSpec};
use crate::catalog::{icon_family, icon_font_ready};
use crate::render::ComponentContext;

/// `Video` or `AudioPlayer`.
pub enum Media {
    /// `Video`.
    Video,
    /// `AudioPlayer`.
    Audio,
}

/// The host of an `http(s)` URL as the URL policy reads it (`www.example.com`; see
/// [`crate::url_policy::display_host`]: what would really be opened, punycode when the
/// name mixes scripts), `None` for anything else.
pub(crate) fn url_host(url: &str) -> Option<String> {
    let scheme = crate::catalog::scheme_of(url)?;
    if !matches!(scheme.as_str(), "http" | "https") {
        return None;
    }
    crate::url_policy::display_host(url)
}

impl ComponentRenderer for Media {
    fn ui(&self, ui: &mut egui::Ui, cx: &mut ComponentContext<'_, '_>) -> egui::Response {
        #[cfg(feature = "media")]
        if cx.options().media.in_panel
            && let Some(response) = playback::ui(self, ui, cx)
        {
            return response;
        }
        self.card_ui(ui, cx, None)
    }
}

impl Media {
    /// The media card: poster, title, host and the open-link button; `note` (a playback
    /// error, "format not supported") is shown under the title.
    fn card_ui(
        &self,
        ui: &mut egui::Ui,
        cx: &mut ComponentContext<'_, '_>,
        note: Option<&str>,
    ) -> egui::Response {
        let url = cx.string("url");
        let url = url.trim();
        let description = cx
            .opt_string("description")
            .filter(|d| !d.trim().is_empty());
        let poster = match self {
            Self::Video => cx.opt_string("posterUrl").filter(|p| !p.trim().is_empty()),
            Self::Audio => None,
        };
        let (kind, glyph, action) = match self {
            Self::Video => ("Video", '\u{e02c}', "Play video"), // movie
            Self::Audio => ("Audio", '\u{e3a1}', "Play audio"), // audiotrack
        };
        // The play button is offered only for a URL the URL policy lets the host open.
        let host = url_host(url).filter(|_| {
            let policy = &cx.options().url_policy;
            policy
                .check(url, crate::url_policy::UrlUse::Open, true)
                .is_ok()
        });
        let title = description.clone().unwrap_or_else(|| kind.to_owned());
        ui.ctx().accesskit_node_builder(ui.unique_id(), |node| {
            node.set_label(format!("{kind}: {title}"));
        });
        // The card's inner width: what the parent leaves less the frame's margins and
        // stroke, so the card never crosses its parent's edge; at most 360.
        let frame = egui::Frame::group(ui.style()).inner_margin(8.0);
        let chrome = frame.total_margin().sum().x;
        let width = (ui.available_width() - chrome).clamp(0.0, 360.0);
        frame
            .show(ui, |ui| {
                ui.set_width(width);
                if let Some(poster) = &poster {
                    let spec = ImageSpec {
                        url: poster.trim(),
                        alt: &title,
                        size: BoxSize::Fixed(egui::vec2(width, width * 9.0 / 16.0)),
                        fit: Fit::Cover,
                        circular: false,
                        corner_radius: 4.0,
                    };
                    super::image::media_image_ui(ui, cx, "posterUrl", &spec);
                }
                ui.horizontal(|ui| {
                    let side = 28.0;
                    let (rect, _) =
                        ui.allocate_exact_size(egui::Vec2::splat(side), egui::Sense::hover());
                    if icon_font_ready(ui.ctx()) {
                        ui.painter().text(
                            rect.center(),
                            egui::Align2::CENTER_CENTER,
                            glyph,
                            egui::FontId::new(side, icon_family()),
                            cx.accent_color(ui),
                        );
                    }
                    let play = ui
                        .with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                            let button = ui
                                .add_enabled(host.is_some(), egui::Button::new(action))
                                .on_hover_text(url)
                                .on_disabled_hover_text("Only http and https media can be opened");
                            ui.with_layout(egui::Layout::top_down(egui::Align::Min), |ui| {
                                ui.add(
                                    egui::Label::new(egui::RichText::new(&title).strong()).wrap(),
                                );
                                let source = host.as_deref().unwrap_or("unsupported address");
                                ui.add(
                                    egui::Label::new(egui::RichText::new(source).weak()).truncate(),
                                );
                                if let Some(note) = note {
                                    ui.add(
                                        egui::Label::new(
                                            egui::RichText::new(note)
                                                .color(ui.visuals().warn_fg_color),
                                        )
                                        .wrap(),
                                    );
                                }
                            });
                            button
                        })
                        .inner;
                    if play.clicked() {
                        cx.open_url(url);
                    }
                    play
                })
                .inner
            })
            .inner
    }
}

/// The players (feature `media`): one per drawn component, kept in an egui plugin that
/// stops those no longer drawn.
#[cfg(feature = "media")]
mod playback {
    use std::collections::HashMap;
    use std::sync::Arc;
    use std::time::Duration;

    use egui::accesskit::Role;
    use egui::load::{Bytes, BytesPoll, LoadError};

    use super::Media;
    use crate::catalog::{BoxSize, Fit, ImageSpec};
    use crate::catalog::{icon_family, icon_font_ready};
    use crate::media::source::{Plan, mime_may_be_media, plan};
    use crate::media::{
        Autoplay, MediaBytes, MediaError, Player, PlayerConfig, PlayerSnapshot, PlayerSource,
        Status, format_time,
    };
    use crate::render::ComponentContext;

    /// Passes a player survives without being drawn before it is stopped (a removed
    /// component stops playing, as a removed `<audio>` element does).
    const GRACE_PASSES: u64 = 3;
    /// Repaint interval while playing or loading (the seek bar and the time move).
    const TICK: Duration = Duration::from_millis(100);

    struct Slot {
        url: String,
        player: Result<Player, MediaError>,
        /// An egui bytes-loader URL still being fetched for this player.
        fetching: Option<String>,
        last_pass: u64,
        /// The seek bar's value while the user drags it.
        scrub: Option<f64>,
        /// A video's picture: one texture, updated in place frame by frame.
        texture: Option<egui::TextureHandle>,
        /// Played (or seeked) once: the poster gives way to the frames.
        started: bool,
    }

    /// The registry of players of one egui context.
    #[derive(Default)]
    pub(crate) struct MediaPlugin {
        slots: HashMap<egui::Id, Slot>,
    }

    impl egui::plugin::Plugin for MediaPlugin {
        fn debug_name(&self) -> &'static str {
            "egui_a2ui::media"
        }

        fn on_end_pass(&mut self, ui: &mut egui::Ui) {
            let pass = ui.ctx().cumulative_pass_nr();
            self.slots
                .retain(|_, slot| slot.last_pass + GRACE_PASSES >= pass);
        }

        fn on_exit(&mut self, _ctx: &egui::Context) {
            self.slots.clear();
        }
    }

    fn bytes_of(bytes: Bytes) -> Arc<[u8]> {
        match bytes {
            Bytes::Static(b) => Arc::from(b),
            Bytes::Shared(b) => b,
        }
    }

    fn start(
        media: &Media,
        ui: &egui::Ui,
        cx: &ComponentContext<'_, '_>,
        url: &str,
    ) -> (Result<Player, MediaError>, Option<String>) {
        let options = &cx.options().media;
        let limits = cx.limits();
        let planned = plan(
            url,
            &cx.options().url_policy,
            &options.loaders,
            limits.max_media_bytes,
        );
        let (source, fetching) = match planned {
            Err(e) => return (Err(e), None),
            Ok(Plan::Data(u)) => (PlayerSource::DataUri(u), None),
            Ok(Plan::Host(loader, u)) => (PlayerSource::Loader(loader, u), None),
            Ok(Plan::Egui(u)) => (PlayerSource::Later, Some(u)),
        };
        let autoplay = options.autoplay == Autoplay::Muted;
        let config = PlayerConfig {
            output: Arc::clone(&options.audio_output),
            max_bytes: limits.max_media_bytes,
            max_dimension: limits.max_media_dimension,
            volume: options.volume,
            muted: autoplay,
            autoplay,
            video: matches!(media, Media::Video),
            silent_output: Arc::clone(&options.silent_output),
            repaint: Some(ui.ctx().clone()),
        };
        (Ok(Player::spawn(source, config)), fetching)
    }

    /// Poll egui's bytes loaders for a player waiting on them (once play was pressed).
    fn poll_fetch(ctx: &egui::Context, slot: &mut Slot, max_bytes: usize) {
        let (Some(url), Ok(player)) = (&slot.fetching, &slot.player) else {
            return;
        };
        if player.snapshot().status == Status::Idle {
            return;
        }
        let result = match ctx.try_load_bytes(url) {
            Ok(BytesPoll::Pending { .. }) => return,
            Ok(BytesPoll::Ready { bytes, mime, .. }) => {
                let bytes = bytes_of(bytes);
                if bytes.len() > max_bytes {
                    Err(MediaError::TooLarge { limit: max_bytes })
                } else if let Some(m) = mime.as_deref().filter(|m| !mime_may_be_media(m)) {
                    Err(MediaError::WrongType(m.to_owned()))
                } else {
                    player.set_loading_bytes(bytes.len());
                    Ok(MediaBytes { bytes, mime })
                }
            }
            Err(LoadError::NotSupported | LoadError::NoMatchingBytesLoader) => {
                Err(MediaError::NoLoader(
                    "no bytes loader serves it (enable the `http` feature or install a loader)"
                        .to_owned(),
                ))
            }
            Err(e) => Err(MediaError::Load(e.to_string())),
        };
        // The player holds the bytes now; egui's cache need not.
        ctx.forget_image(url);
        player.supply(result);
        slot.fetching = None;
    }

    fn glyph_button(ui: &mut egui::Ui, glyph: char, fallback: &str, name: &str) -> egui::Response {
        let text = if icon_font_ready(ui.ctx()) {
            egui::RichText::new(glyph.to_string()).font(egui::FontId::new(20.0, icon_family()))
        } else {
            egui::RichText::new(fallback)
        };
        let response = ui
            .add(egui::Button::new(text).min_size(egui::vec2(32.0, 28.0)))
            .on_hover_text(name);
        let (name, enabled) = (name.to_owned(), ui.is_enabled());
        response.widget_info(|| egui::WidgetInfo::labeled(Role::Button, enabled, &name));
        response
    }

    /// Draw a playing component; `None` leaves it to the media card (a `Video`, or an
    /// error best shown with the open-link button).
    pub(super) fn ui(
        media: &Media,
        ui: &mut egui::Ui,
        cx: &mut ComponentContext<'_, '_>,
    ) -> Option<egui::Response> {
        let url = cx.string("url").trim().to_owned();
        let ctx = ui.ctx().clone();
        if ctx.plugin_opt::<MediaPlugin>().is_none() {
            ctx.add_plugin(MediaPlugin::default());
        }
        let id = cx.widget_id();
        let pass = ctx.cumulative_pass_nr();
        let max_bytes = cx.limits().max_media_bytes;
        // Take the slot out of the plugin while drawing (the plugin's lock is not held
        // across UI code); it goes back at the end.
        let existing = ctx
            .with_plugin(|p: &mut MediaPlugin| p.slots.remove(&id))
            .flatten();
        let mut slot = match existing {
            Some(slot) if slot.url == url => slot,
            _ => {
                // A source computed from the data model plays only from a host allowed
                // for computed media (see `UrlPolicy::allow_computed_media_hosts`).
                let computed = super::super::image::is_computed(cx, "url")
                    && !url.is_empty()
                    && cx
                        .options()
                        .url_policy
                        .check_computed_playable(&url)
                        .is_err();
                let (player, fetching) = if computed {
                    cx.report_once(
                        "computed-media:url",
                        super::super::image::computed_media_error("url"),
                    );
                    (
                        Err(MediaError::Refused(
                            crate::url_policy::UrlRefusal::ComputedMedia,
                        )),
                        None,
                    )
                } else {
                    start(media, ui, cx, &url)
                };
                Slot {
                    url: url.clone(),
                    player,
                    fetching,
                    last_pass: pass,
                    scrub: None,
                    texture: None,
                    started: false,
                }
            }
        };
        slot.last_pass = pass;
        poll_fetch(&ctx, &mut slot, max_bytes);
        let snapshot = match &slot.player {
            Ok(p) => p.snapshot(),
            Err(e) => PlayerSnapshot {
                status: Status::Failed(e.clone()),
                position: 0.0,
                duration: None,
                volume: 1.0,
                muted: false,
                bytes: 0,
                output: None,
            },
        };
        let failure = match (&snapshot.status, &slot.player) {
            (Status::Failed(e), _) => Some(e.clone()),
            (_, Ok(p)) => p.video_error(),
            _ => None,
        };
        let response = if let Some(e) = failure {
            // A video this build cannot show: the card says why and offers the link. The
            // player (and its sound) stops.
            let note = e.to_string();
            if slot.player.is_ok() {
                slot.player = Err(e);
            }
            media.card_ui(ui, cx, Some(&note))
        } else {
            controls_ui(ui, cx, media, &mut slot, &snapshot)
        };
        if matches!(
            snapshot.status,
            Status::Loading | Status::Playing | Status::Buffering
        ) {
            // The next frame's time, or the seek bar's tick.
            let next = slot
                .player
                .as_ref()
                .ok()
                .and_then(Player::next_frame_time)
                .map(|t| Duration::from_secs_f64((t - snapshot.position).clamp(0.0, 1.0)));
            ctx.request_repaint_after(next.map_or(TICK, |n| n.min(TICK)));
        }
        ctx.with_plugin(|p: &mut MediaPlugin| p.slots.insert(id, slot));
        Some(response)
    }

    /// Take the frame due on the player's clock, if it is new, into the slot's texture
    /// (allocated once, then updated in place while the size stays).
    fn update_texture(ctx: &egui::Context, id: egui::Id, slot: &mut Slot, position: f64) {
        let Ok(player) = &slot.player else {
            return;
        };
        let Some(frame) = player.video_frame(position) else {
            return;
        };
        let options = egui::TextureOptions::LINEAR;
        match &mut slot.texture {
            Some(texture) if texture.size() == frame.image.size => {
                texture.set_partial([0, 0], frame.image, options);
            }
            Some(texture) => texture.set(frame.image, options),
            None => {
                slot.texture =
                    Some(ctx.load_texture(format!("egui_a2ui video {id:?}"), frame.image, options));
            }
        }
    }

    /// A video's picture: the poster before the first play, then the current frame; black
    /// (with a spinner while loading) before there is one.
    fn picture_ui(
        ui: &mut egui::Ui,
        cx: &mut ComponentContext<'_, '_>,
        slot: &mut Slot,
        s: &PlayerSnapshot,
        width: f32,
        title: &str,
    ) {
        if matches!(
            s.status,
            Status::Playing | Status::Buffering | Status::Ended
        ) || s.position > 0.0
        {
            slot.started = true;
        }
        update_texture(ui.ctx(), cx.widget_id(), slot, s.position);
        let info = slot.player.as_ref().ok().and_then(Player::video_info);
        let aspect = info
            .as_ref()
            .filter(|i| i.width > 0 && i.height > 0)
            .map(|i| i.height as f32 / i.width as f32)
            .or_else(|| {
                slot.texture
                    .as_ref()
                    .map(|t| t.size_vec2())
                    .map(|v| v.y / v.x.max(1.0))
            })
            .unwrap_or(9.0 / 16.0)
            .clamp(0.1, 2.0);
        let size = egui::vec2(width, width * aspect);
        let poster = cx.opt_string("posterUrl").filter(|p| !p.trim().is_empty());
        match (&poster, &slot.texture) {
            (Some(poster), _) if !slot.started => {
                let alt = format!("{title} (poster)");
                let spec = ImageSpec {
                    url: poster.trim(),
                    alt: &alt,
                    size: BoxSize::Fixed(size),
                    fit: Fit::Contain,
                    circular: false,
                    corner_radius: 4.0,
                };
                super::super::image::media_image_ui(ui, cx, "posterUrl", &spec);
            }
            (_, Some(texture)) => {
                ui.add(egui::Image::new(texture).fit_to_exact_size(size))
                    .widget_info(|| egui::WidgetInfo::labeled(Role::Image, true, title));
            }
            _ => {
                let (rect, _) = ui.allocate_exact_size(size, egui::Sense::hover());
                ui.painter().rect_filled(rect, 4.0, egui::Color32::BLACK);
                if matches!(s.status, Status::Loading | Status::Buffering) {
                    ui.put(
                        egui::Rect::from_center_size(rect.center(), egui::Vec2::splat(24.0)),
                        egui::Spinner::new(),
                    );
                }
            }
        }
    }

    fn controls_ui(
        ui: &mut egui::Ui,
        cx: &mut ComponentContext<'_, '_>,
        media: &Media,
        slot: &mut Slot,
        s: &PlayerSnapshot,
    ) -> egui::Response {
        let description = cx
            .opt_string("description")
            .filter(|d| !d.trim().is_empty());
        let kind = match media {
            Media::Video => "Video",
            Media::Audio => "Audio",
        };
        let title = description.unwrap_or_else(|| kind.to_owned());
        ui.ctx().accesskit_node_builder(ui.unique_id(), |node| {
            node.set_label(format!("{kind}: {title}"));
        });
        if slot.player.is_err() {
            return ui.label(title);
        }
        // The card's inner width: what the slot gives, less the frame's margins and stroke
        // (a narrow panel clipped the volume slider).
        let width = (ui.available_width() - 2.0 * 8.0 - 2.0).clamp(120.0, 480.0);
        egui::Frame::group(ui.style())
            .inner_margin(8.0)
            .show(ui, |ui| {
                ui.set_width(width);
                if matches!(media, Media::Video) {
                    picture_ui(ui, cx, slot, s, width, &title);
                }
                let Ok(player) = &slot.player else {
                    return ui.label(&title);
                };
                ui.add(egui::Label::new(egui::RichText::new(&title).strong()).wrap());
                let ready = !matches!(s.status, Status::Loading);
                let response = ui
                    .horizontal(|ui| {
                        let (glyph, fallback, name) = match s.status {
                            Status::Playing | Status::Buffering => ('\u{e034}', "Pause", "Pause"),
                            Status::Ended => ('\u{e042}', "Replay", "Replay"),
                            _ => ('\u{e037}', "Play", "Play"),
                        };
                        let play = ui
                            .add_enabled_ui(ready, |ui| glyph_button(ui, glyph, fallback, name))
                            .inner;
                        if play.clicked() {
                            if name == "Pause" {
                                player.pause();
                            } else {
                                player.play();
                            }
                        }
                        let duration = s.duration.unwrap_or(0.0).max(0.0);
                        let mut position = slot.scrub.unwrap_or(s.position).clamp(0.0, duration);
                        ui.label(format!(
                            "{} / {}",
                            format_time(position),
                            s.duration.map_or_else(|| "-:--".to_owned(), format_time)
                        ));
                        let (mute_glyph, mute_name) = if s.muted || s.volume == 0.0 {
                            ('\u{e04f}', "Unmute")
                        } else {
                            ('\u{e050}', "Mute")
                        };
                        let volume_width = 64.0;
                        // Beside the seek bar: the mute button and the volume slider, with
                        // the row's three gaps.
                        let gaps = 3.0 * ui.spacing().item_spacing.x;
                        let seek_width =
                            (ui.available_width() - volume_width - 40.0 - gaps).max(40.0);
                        ui.spacing_mut().slider_width = seek_width;
                        let seekable = ready && duration > 0.0;
                        let seek = ui.add_enabled(
                            seekable,
                            egui::Slider::new(&mut position, 0.0..=duration.max(f64::EPSILON))
                                .show_value(false),
                        );
                        seek.widget_info(|| egui::WidgetInfo::slider(seekable, position, "Seek"));
                        if seek.dragged() {
                            slot.scrub = Some(position);
                        } else if seek.drag_stopped() || seek.changed() {
                            slot.scrub = None;
                            player.seek(position);
                        }
                        let mute = glyph_button(ui, mute_glyph, mute_name, mute_name);
                        if mute.clicked() {
                            player.set_muted(!s.muted);
                        }
                        ui.spacing_mut().slider_width = volume_width;
                        let mut volume = s.volume;
                        let vol =
                            ui.add(egui::Slider::new(&mut volume, 0.0..=1.0).show_value(false));
                        vol.widget_info(|| {
                            egui::WidgetInfo::slider(true, f64::from(volume), "Volume")
                        });
                        if vol.changed() {
                            player.set_volume(volume);
                            if s.muted && volume > 0.0 {
                                player.set_muted(false);
                            }
                        }
                        play
                    })
                    .inner;
                let status = match s.status {
                    Status::Loading => Some("Loading…"),
                    Status::Buffering => Some("Buffering…"),
                    _ => None,
                };
                if let Some(text) = status {
                    ui.horizontal(|ui| {
                        ui.spinner();
                        ui.label(egui::RichText::new(text).weak());
                    });
                }
                response
            })
            .inner
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn url_host_takes_the_authority_without_user_info() {
        assert_eq!(
            url_host("https://www.example.com/a.mp4").as_deref(),
            Some("www.example.com")
        );
        assert_eq!(
            url_host("HTTP://user:pw@cdn.test:8080?x").as_deref(),
            Some("cdn.test")
        );
        assert_eq!(url_host("javascript:alert(1)"), None);
        assert_eq!(url_host("https://"), None);
        assert_eq!(url_host("é"), None);
    }

    #[test]
    fn url_host_shows_the_host_that_would_be_opened() {
        // One backslash ends the authority for browsers and for the policy.
        assert_eq!(
            url_host("https://attacker.example\\@bank.com/v.mp4").as_deref(),
            Some("attacker.example")
        );
        // A Cyrillic letter among Latin ones: punycode, not a look-alike.
        assert_eq!(
            url_host("https://b\u{430}nk.com/v.mp4").as_deref(),
            Some("xn--bnk-6cd.com")
        );
    }
}
