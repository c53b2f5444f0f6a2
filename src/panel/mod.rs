//! [`AgentPanel`]: the conversation with an [`Agent`] as one egui widget: the thread
//! (the user's turns, the agent's prose as Markdown, each surface drawn inline where the
//! agent created it and updated in place, AG-UI activities still building as a skeleton,
//! errors with a Retry button, notices), the prompt box and a state line with a Stop
//! button.
//!
//! ```
//! use egui_a2ui::agent::Agent;
//! use egui_a2ui::panel::{AgentPanel, PanelState};
//! # fn frame(ui: &mut egui::Ui, agent: &mut Agent, state: &mut PanelState) {
//! // Kept by the host: `let mut state = PanelState::new(Catalog::basic());`
//! let out = AgentPanel::new(agent, state).prompt_hint("Ask the agent").show(ui);
//! for event in &out.events {
//!     if let egui_a2ui::Event::OpenUrl { url, .. } = event {
//!         println!("open {url}"); // the host decides
//!     }
//! }
//! # }
//! ```
//!
//! The panel calls [`Agent::poll`] itself, once per [`AgentPanel::show`]; a host showing the
//! panel does not poll the agent too (the transport events of the frame are in
//! [`AgentPanelResponse::transport_events`]). The user's actions on the surfaces go back to
//! the agent by themselves ([`Agent::send_actions`]); every event of the frame is also
//! returned ([`AgentPanelResponse::events`]), and [`Event::OpenUrl`] is only returned, never
//! opened.
//!
//! Long conversations stay cheap: the thread draws only the entries in view. Each entry's
//! height is measured when it is drawn and cached (by the entry, so an entry dropped from
//! the front of the thread does not throw the cache away); the entries out of view are
//! space, and their surfaces are not laid out.

mod activity;

#[cfg(feature = "agui")]
pub use activity::agui_session_ui;
pub use activity::lifecycle_ui;

use std::collections::HashMap;
use std::hash::{Hash, Hasher};

use egui::accesskit::Role as A11yRole;

use crate::action::Event;
use crate::agent::{Agent, ConnectionStatus, ThreadEntry};
use crate::render::{DrawState, RendererOptions};
use crate::transport::{TransportError, TransportEvent, Turn};

/// Gap between thread entries.
const ENTRY_GAP: f32 = 10.0;

/// What the panel keeps between frames (the host keeps one per panel): the drawing state
/// of the surfaces, the prompt's text, and the measured heights of the thread's entries.
pub struct PanelState {
    draw: DrawState,
    prompt: String,
    /// Heights of the thread's entries, by index, valid for `cache_revision`.
    heights: Vec<f32>,
    /// Whether `heights[i]` was measured (else estimated).
    measured: Vec<bool>,
    /// The key of each entry (its content), to carry heights over when the thread changes.
    keys: Vec<u64>,
    cache_revision: Option<u64>,
    /// The width the heights were measured at.
    width: f32,
    /// Height of the row after the thread (the agent's text still arriving).
    tail_height: f32,
    was_busy: bool,
    focus_prompt: bool,
    /// Whether the thread follows its end (until the user scrolls up).
    follow_end: bool,
    /// The thread's scroll offset at the end of the last frame.
    last_offset: f32,
    /// The offset to scroll the thread to on the next frame (its end, while following).
    scroll_to: Option<f32>,
}

impl std::fmt::Debug for PanelState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PanelState")
            .field("draw", &self.draw)
            .field("entries_cached", &self.heights.len())
            .finish_non_exhaustive()
    }
}

impl PanelState {
    /// A panel state drawing surfaces with `catalog` and default options.
    pub fn new(catalog: crate::catalog::Catalog) -> Self {
        Self::with_draw_state(DrawState::new(catalog))
    }

    /// A panel state over a drawing state the host set up (its catalog and options).
    pub fn with_draw_state(draw: DrawState) -> Self {
        Self {
            draw,
            prompt: String::new(),
            heights: Vec::new(),
            measured: Vec::new(),
            keys: Vec::new(),
            cache_revision: None,
            width: 0.0,
            tail_height: 0.0,
            was_busy: false,
            focus_prompt: false,
            follow_end: true,
            last_offset: 0.0,
            scroll_to: None,
        }
    }

    /// The drawing state of the surfaces.
    pub fn draw_state(&self) -> &DrawState {
        &self.draw
    }

    /// The drawing state, mutably (its options, say).
    pub fn draw_state_mut(&mut self) -> &mut DrawState {
        &mut self.draw
    }

    /// The text in the prompt box.
    pub fn prompt(&self) -> &str {
        &self.prompt
    }

    /// Replace the text in the prompt box.
    pub fn set_prompt(&mut self, text: impl Into<String>) {
        self.prompt = text.into();
    }

    /// How many thread entries have a measured height (the others were never in view).
    pub fn measured_entries(&self) -> usize {
        self.measured.iter().filter(|m| **m).count()
    }

    /// Bring the height cache in line with the agent's thread.
    fn sync(&mut self, agent: &Agent, width: f32, body: f32) {
        let thread = agent.thread();
        let width_changed = (width - self.width).abs() > 0.5;
        if self.cache_revision == Some(agent.revision()) && !width_changed {
            return;
        }
        let mut old: HashMap<u64, (f32, bool)> = HashMap::with_capacity(self.keys.len());
        for ((k, h), m) in self.keys.iter().zip(&self.heights).zip(&self.measured) {
            old.insert(*k, (*h, *m && !width_changed));
        }
        let mut seen: HashMap<u64, u32> = HashMap::new();
        self.keys.clear();
        self.heights.clear();
        self.measured.clear();
        for e in thread {
            let base = entry_key(e);
            let n = seen.entry(base).or_insert(0);
            let key = base ^ u64::from(*n).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            *n += 1;
            let (h, m) = old
                .get(&key)
                .copied()
                .unwrap_or_else(|| (estimate(e, width, body), false));
            self.keys.push(key);
            self.heights.push(h);
            self.measured.push(m);
        }
        self.width = width;
        self.cache_revision = Some(agent.revision());
    }
}

fn entry_key(e: &ThreadEntry) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    std::mem::discriminant(e).hash(&mut h);
    match e {
        ThreadEntry::User { text } | ThreadEntry::Agent { text } | ThreadEntry::Notice { text } => {
            text.hash(&mut h);
        }
        ThreadEntry::UserAction { name, surface_id } => (name, surface_id).hash(&mut h),
        ThreadEntry::Surface { store, surface_id } => (store, surface_id).hash(&mut h),
        ThreadEntry::Error { error, .. } => error.to_string().hash(&mut h),
        ThreadEntry::Activity {
            activity_id,
            status,
        } => (activity_id, status.as_ref().map(|s| &s.status)).hash(&mut h),
    }
    h.finish()
}

/// A height for an entry never drawn (corrected when it is).
fn estimate(e: &ThreadEntry, width: f32, body: f32) -> f32 {
    let line = body * 1.5;
    let per_line = (width / (body * 0.55)).max(10.0);
    let text_lines = |t: &str| (t.chars().count() as f32 / per_line).ceil().max(1.0);
    match e {
        ThreadEntry::User { text } => text_lines(text) * line + 12.0,
        ThreadEntry::Agent { text } => text_lines(text) * line,
        ThreadEntry::UserAction { .. } | ThreadEntry::Notice { .. } => line,
        ThreadEntry::Surface { .. } => 160.0,
        ThreadEntry::Error { .. } => 3.0 * line,
        ThreadEntry::Activity { status: None, .. } => 0.0,
        ThreadEntry::Activity { .. } => 100.0,
    }
}

/// The agent panel (see the [module](self)).
#[must_use = "call .show(ui) to draw the panel"]
pub struct AgentPanel<'a> {
    agent: &'a mut Agent,
    state: &'a mut PanelState,
    surfaces_only: bool,
    prompt_hint: String,
    renderer_options: Option<RendererOptions>,
    max_height: Option<f32>,
    id_salt: u64,
}

impl std::fmt::Debug for AgentPanel<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AgentPanel")
            .field("agent", &self.agent)
            .field("surfaces_only", &self.surfaces_only)
            .finish_non_exhaustive()
    }
}

/// What happened in one [`AgentPanel::show`].
#[must_use = "the events are the user's actions (already sent to the agent) and the URLs to open"]
#[derive(Debug)]
pub struct AgentPanelResponse {
    /// Every event of the surfaces this frame (actions were already sent to the agent;
    /// [`Event::OpenUrl`] is the host's to open or not), and a Markdown link the user
    /// clicked in the agent's prose (an [`Event::OpenUrl`] with an empty `surface_id`,
    /// only when the [URL policy](crate::render::RendererOptions::url_policy) allows it).
    pub events: Vec<Event>,
    /// What [`Agent::poll`] returned this frame.
    pub transport_events: Vec<TransportEvent>,
    /// A text turn was sent from the prompt box.
    pub sent: bool,
    /// The user pressed Stop.
    pub stopped: bool,
    /// The user pressed Retry.
    pub retried: bool,
    /// A turn the agent refused to start (sending, stopping or retrying failed).
    pub error: Option<TransportError>,
    /// The panel's whole area.
    pub response: egui::Response,
}

impl<'a> AgentPanel<'a> {
    /// A panel over `agent`, keeping its state in `state`.
    pub fn new(agent: &'a mut Agent, state: &'a mut PanelState) -> Self {
        Self {
            agent,
            state,
            surfaces_only: false,
            prompt_hint: "Message the agent".to_owned(),
            renderer_options: None,
            max_height: None,
            id_salt: 0,
        }
    }

    /// Draw only the surfaces (no prose, no prompt box, no state line): for a host that
    /// shows its own chat and sends turns with [`Agent::send`].
    pub fn surfaces_only(mut self, on: bool) -> Self {
        self.surfaces_only = on;
        self
    }

    /// The placeholder of the empty prompt box.
    pub fn prompt_hint(mut self, hint: impl Into<String>) -> Self {
        self.prompt_hint = hint.into();
        self
    }

    /// Draw the surfaces with these options (style, URL policy, origin frames): they
    /// replace the panel state's.
    pub fn renderer_options(mut self, options: RendererOptions) -> Self {
        self.renderer_options = Some(options);
        self
    }

    /// The most height the panel takes (else all that is available).
    pub fn max_height(mut self, height: f32) -> Self {
        self.max_height = Some(height);
        self
    }

    /// Tell two panels in one `Ui` apart.
    pub fn id_salt(mut self, salt: impl Hash) -> Self {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        salt.hash(&mut h);
        self.id_salt = h.finish();
        self
    }

    /// Poll the agent (once), draw the panel, send the user's actions to the agent, and
    /// return the frame's events.
    pub fn show(self, ui: &mut egui::Ui) -> AgentPanelResponse {
        let Self {
            agent,
            state,
            surfaces_only,
            prompt_hint,
            renderer_options,
            max_height,
            id_salt,
        } = self;
        if let Some(o) = renderer_options {
            *state.draw.options_mut() = o;
        }
        let transport_events = agent.poll();
        let busy = agent.is_busy();
        if state.was_busy && !busy {
            state.focus_prompt = true;
        }
        state.was_busy = busy;

        let mut out = AgentPanelResponse {
            events: Vec::new(),
            transport_events,
            sent: false,
            stopped: false,
            retried: false,
            error: None,
            response: ui.response(),
        };
        let height = max_height.map_or(ui.available_height(), |h| h.min(ui.available_height()));
        let inner = ui.push_id(("egui_a2ui::AgentPanel", id_salt), |ui| {
            ui.set_max_height(height);
            ui.vertical(|ui| {
                if surfaces_only {
                    thread_ui(ui, agent, state, true, height, &mut out);
                    return;
                }
                let bottom = bottom_height(ui);
                let thread_height = (height - bottom).max(60.0);
                thread_ui(ui, agent, state, false, thread_height, &mut out);
                ui.separator();
                state_line(ui, agent, &mut out);
                prompt_ui(ui, agent, state, &prompt_hint, &mut out);
            });
        });
        out.response = inner.response;

        // Actions from live surfaces go back to the agent by themselves.
        let actions: Vec<crate::action::ActionEvent> = out
            .events
            .iter()
            .filter_map(|e| match e {
                Event::Action(a) => Some(a.clone()),
                _ => None,
            })
            .collect();
        if !actions.is_empty() && !agent.is_read_only() {
            agent.send_actions(actions);
        }
        // A turn started this frame (the prompt, an action) counts as in flight: the
        // prompt takes the focus back when it ends.
        state.was_busy = agent.is_busy();
        out
    }
}

/// The height of the state line and the prompt box.
fn bottom_height(ui: &egui::Ui) -> f32 {
    let row = ui.spacing().interact_size.y;
    let body = ui.text_style_height(&egui::TextStyle::Body);
    // Separator, state line, a two-row prompt with its margins, spacing.
    8.0 + row
        + 2.0 * body
        + 2.0 * ui.spacing().button_padding.y
        + 16.0
        + 3.0 * ui.spacing().item_spacing.y
}

fn thread_ui(
    ui: &mut egui::Ui,
    agent: &mut Agent,
    state: &mut PanelState,
    surfaces_only: bool,
    height: f32,
    out: &mut AgentPanelResponse,
) {
    let body = state.draw.options().style.body.size;
    let tail = if surfaces_only {
        None
    } else {
        agent.partial_text().map(str::to_owned)
    };
    let mut area = egui::ScrollArea::vertical()
        .id_salt("thread")
        .auto_shrink([false, false])
        .stick_to_bottom(true)
        .max_height(height)
        .min_scrolled_height(height);
    if let Some(offset) = state.scroll_to.take() {
        area = area.vertical_scroll_offset(offset);
    }
    let scrolled = area.show_viewport(ui, |ui, viewport| {
        // Keep clear of the floating scroll bar (right-aligned turns would sit under it).
        let scroll = ui.spacing().scroll;
        let width = (ui.available_width() - scroll.bar_width - scroll.bar_inner_margin).max(40.0);
        state.sync(agent, width, body);
        let thread_len = agent.thread().len();
        let visible = |e: &ThreadEntry| -> bool {
            !surfaces_only
                || matches!(
                    e,
                    ThreadEntry::Surface { .. } | ThreadEntry::Activity { .. }
                )
        };
        // Top of each entry (content coordinates).
        let mut tops = Vec::with_capacity(thread_len);
        let mut y = 0.0;
        for (i, e) in agent.thread().iter().enumerate() {
            tops.push(y);
            if visible(e) {
                let h = state.heights.get(i).copied().unwrap_or(0.0);
                if h > 0.0 {
                    y += h + ENTRY_GAP;
                }
            }
        }
        let tail_top = y;
        let total = y + if tail.is_some() {
            state.tail_height
        } else {
            0.0
        };
        let origin = ui.max_rect().min;
        let thread_id = ui.unique_id();
        ui.ctx().accesskit_node_builder(thread_id, |node| {
            node.set_role(A11yRole::List);
            node.set_label("Conversation");
            node.set_live(egui::accesskit::Live::Polite);
        });
        let mut changed = false;
        for i in 0..thread_len {
            let Some(entry) = agent.thread().get(i) else {
                break;
            };
            if !visible(entry) {
                continue;
            }
            let top = tops.get(i).copied().unwrap_or(0.0);
            let h = state.heights.get(i).copied().unwrap_or(0.0);
            // Out of view (with a margin): space only.
            if top + h < viewport.min.y - 50.0 || top > viewport.max.y + 50.0 {
                continue;
            }
            let entry = entry.clone();
            let key = state.keys.get(i).copied().unwrap_or(i as u64);
            let rect = egui::Rect::from_min_size(
                origin + egui::vec2(0.0, top),
                egui::vec2(width, f32::INFINITY),
            );
            let label = entry_label(&entry, agent);
            let r = ui.scope_builder(
                egui::UiBuilder::new()
                    .id_salt(("entry", key))
                    .max_rect(rect)
                    .layout(egui::Layout::top_down(egui::Align::Min))
                    .accessibility_role(A11yRole::ListItem)
                    .accessibility_label(label),
                |ui| {
                    entry_ui(
                        ui,
                        &entry,
                        i + 1 == thread_len,
                        agent,
                        state,
                        surfaces_only,
                        out,
                    );
                },
            );
            let measured = r.response.rect.height();
            if let (Some(hh), Some(m)) = (state.heights.get_mut(i), state.measured.get_mut(i)) {
                if (measured - *hh).abs() > 0.5 {
                    *hh = measured;
                    changed = true;
                }
                *m = true;
            }
        }
        if let Some(text) = &tail {
            let rect = egui::Rect::from_min_size(
                origin + egui::vec2(0.0, tail_top),
                egui::vec2(width, f32::INFINITY),
            );
            let r = ui.scope_builder(
                egui::UiBuilder::new()
                    .id_salt("partial")
                    .max_rect(rect)
                    .accessibility_role(A11yRole::ListItem)
                    .accessibility_label(format!("Agent: {text}")),
                |ui| {
                    let style = state.draw.options().style.clone();
                    let _ = crate::render::markdown_ui(ui, text, &style);
                },
            );
            let h = r.response.rect.height();
            if (h - state.tail_height).abs() > 0.5 {
                state.tail_height = h;
                changed = true;
            }
        }
        // The whole thread's height (the entries not drawn are space).
        ui.expand_to_include_rect(egui::Rect::from_min_size(origin, egui::vec2(width, total)));
        if thread_len == 0 && tail.is_none() {
            let text = if surfaces_only {
                "No surfaces yet"
            } else if agent.is_read_only() {
                "An empty conversation"
            } else {
                "Ask the agent something to begin"
            };
            ui.put(
                egui::Rect::from_min_size(origin, egui::vec2(width, 40.0)),
                egui::Label::new(egui::RichText::new(text).weak()),
            );
        }
        if changed {
            ui.ctx().request_repaint();
        }
    });
    follow_end(ui, state, scrolled);
}

/// Keep the thread at its end while it grows, as a chat does, until the user scrolls up.
/// (egui's `stick_to_bottom` alone loses the end when an entry grows from its estimated
/// height to its measured one, which left a new error's Retry button below the view.)
fn follow_end(
    ui: &egui::Ui,
    state: &mut PanelState,
    scrolled: egui::scroll_area::ScrollAreaOutput<()>,
) {
    let max_offset = (scrolled.content_size.y - scrolled.inner_rect.height()).max(0.0);
    let offset = scrolled.state.clamped_offset().y;
    if offset >= max_offset - 1.0 {
        state.follow_end = true;
    } else if (offset - state.last_offset).abs() > 0.5 {
        // The user moved it (a wheel, a drag, the bar, a keyboard scroll).
        state.follow_end = false;
    } else if state.follow_end {
        state.scroll_to = Some(max_offset);
        ui.ctx().request_repaint();
    }
    state.last_offset = offset;
}

/// What a screen reader hears for an entry.
fn entry_label(e: &ThreadEntry, agent: &Agent) -> String {
    let cut = |t: &str| -> String {
        let mut s: String = t.chars().take(200).collect();
        if s.len() < t.len() {
            s.push('…');
        }
        s
    };
    match e {
        ThreadEntry::User { text } => format!("You: {}", cut(text)),
        ThreadEntry::UserAction { name, .. } => format!("You: {name}"),
        ThreadEntry::Agent { text } => format!("Agent: {}", cut(text)),
        ThreadEntry::Surface { store, .. } => {
            if agent.is_past(*store) {
                "Agent: a past interface (read-only)".to_owned()
            } else {
                "Agent: an interface".to_owned()
            }
        }
        ThreadEntry::Error { error, .. } => format!("Error: {}", cut(&error.to_string())),
        ThreadEntry::Activity { .. } => "Agent: building an interface".to_owned(),
        ThreadEntry::Notice { text } => format!("Notice: {}", cut(text)),
    }
}

fn entry_ui(
    ui: &mut egui::Ui,
    entry: &ThreadEntry,
    is_last: bool,
    agent: &mut Agent,
    state: &mut PanelState,
    surfaces_only: bool,
    out: &mut AgentPanelResponse,
) {
    let visuals = ui.visuals().clone();
    match entry {
        ThreadEntry::User { text } => {
            ui.with_layout(egui::Layout::top_down(egui::Align::Max), |ui| {
                egui::Frame::new()
                    .fill(visuals.widgets.inactive.weak_bg_fill)
                    .stroke(visuals.widgets.noninteractive.bg_stroke)
                    .corner_radius(10.0)
                    .inner_margin(egui::Margin::symmetric(10, 6))
                    .show(ui, |ui| {
                        ui.set_max_width(ui.available_width() * 0.8);
                        let size = state.draw.options().style.body.size;
                        ui.add(
                            egui::Label::new(egui::RichText::new(text.as_str()).size(size)).wrap(),
                        );
                    });
            });
        }
        ThreadEntry::UserAction { name, .. } => {
            ui.with_layout(egui::Layout::top_down(egui::Align::Max), |ui| {
                ui.label(egui::RichText::new(format!("↳ {name}")).weak());
            });
        }
        ThreadEntry::Agent { text } => {
            let style = state.draw.options().style.clone();
            let (_, clicked) = crate::render::markdown_ui(ui, text, &style);
            if let Some(url) = clicked {
                let options = state.draw.options();
                if url.len() <= crate::limits::Limits::default().max_open_url_bytes
                    && options
                        .url_policy
                        .check(&url, crate::url_policy::UrlUse::Open, true)
                        .is_ok()
                {
                    out.events.push(Event::OpenUrl {
                        surface_id: String::new(),
                        source_component_id: "agent-text".to_owned(),
                        url,
                    });
                }
            }
        }
        ThreadEntry::Surface { store, surface_id } => {
            let past = agent.is_past(*store);
            let Some(s) = agent.store_mut(*store) else {
                return;
            };
            if !s.surface(surface_id).is_some_and(|s| s.is_visible()) {
                return;
            }
            if past {
                ui.label(egui::RichText::new("Past · read-only").small().weak());
                ui.disable();
            }
            let events = state.draw.surface_ui(s, surface_id, ui);
            out.events.extend(events);
        }
        ThreadEntry::Activity {
            status: Some(l), ..
        } => {
            // The shared skeleton (a spinner and the progress, or a failed one's errors).
            let _ = lifecycle_ui(l, ui);
        }
        ThreadEntry::Activity { status: None, .. } => {}
        ThreadEntry::Error { error, retry } => {
            egui::Frame::new()
                .stroke(egui::Stroke::new(1.0, visuals.error_fg_color))
                .corner_radius(6.0)
                .inner_margin(egui::Margin::same(8))
                .show(ui, |ui| {
                    ui.set_width(ui.available_width());
                    ui.add(
                        egui::Label::new(
                            egui::RichText::new(error.to_string()).color(visuals.error_fg_color),
                        )
                        .wrap(),
                    );
                    if retry.is_some() && is_last && !surfaces_only && !agent.is_read_only() {
                        let enabled = agent.status() == ConnectionStatus::Ready;
                        if ui
                            .add_enabled(enabled, egui::Button::new("Retry"))
                            .clicked()
                        {
                            out.retried = true;
                            if let Err(e) = agent.retry() {
                                out.error = Some(e);
                            }
                        }
                    }
                });
        }
        ThreadEntry::Notice { text } => {
            ui.add(egui::Label::new(egui::RichText::new(text.as_str()).weak().small()).wrap());
        }
    }
}

fn state_line(ui: &mut egui::Ui, agent: &mut Agent, out: &mut AgentPanelResponse) {
    ui.horizontal(|ui| {
        match agent.status() {
            ConnectionStatus::Connecting => {
                ui.spinner();
                ui.label("Connecting…");
            }
            ConnectionStatus::Busy => {
                ui.spinner();
                ui.label("Working…");
                if ui
                    .button("Stop")
                    .on_hover_text("Stop the agent's turn")
                    .clicked()
                {
                    out.stopped = true;
                    if let Err(e) = agent.cancel() {
                        out.error = Some(e);
                    }
                }
            }
            ConnectionStatus::Failed(e) => {
                ui.add(
                    egui::Label::new(
                        egui::RichText::new(e.to_string()).color(ui.visuals().error_fg_color),
                    )
                    .truncate(),
                );
            }
            ConnectionStatus::Ready if agent.is_read_only() => {
                ui.label(egui::RichText::new("Past conversation (read-only)").weak());
            }
            ConnectionStatus::Ready => {}
        }
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            let who = match agent.origin() {
                Some(o) => format!("{} · {}", agent.kind(), o.label()),
                None => agent.kind().to_owned(),
            };
            ui.add(egui::Label::new(egui::RichText::new(who).weak()).truncate());
        });
    });
}

fn prompt_ui(
    ui: &mut egui::Ui,
    agent: &mut Agent,
    state: &mut PanelState,
    hint: &str,
    out: &mut AgentPanelResponse,
) {
    let status = agent.status();
    let enabled = !agent.is_read_only()
        && !matches!(
            status,
            ConnectionStatus::Connecting | ConnectionStatus::Failed(_)
        );
    let can_send = enabled && status == ConnectionStatus::Ready;
    ui.horizontal(|ui| {
        let send_width = 64.0;
        let size = state.draw.options().style.body.size;
        let edit = egui::TextEdit::multiline(&mut state.prompt)
            .id_salt("prompt")
            .font(egui::FontId::proportional(size))
            .hint_text(hint)
            .desired_rows(2)
            .desired_width(ui.available_width() - send_width - ui.spacing().item_spacing.x)
            .return_key(egui::KeyboardShortcut::new(
                egui::Modifiers::SHIFT,
                egui::Key::Enter,
            ));
        let r = ui.add_enabled(enabled, edit);
        let r = r.on_hover_text("Enter sends, Shift+Enter starts a new line");
        if state.focus_prompt && enabled {
            r.request_focus();
            state.focus_prompt = false;
        }
        let enter =
            r.has_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter) && !i.modifiers.shift);
        let button = ui.add_enabled(
            can_send && !state.prompt.trim().is_empty(),
            egui::Button::new("Send").min_size(egui::vec2(send_width, r.rect.height())),
        );
        if (enter || button.clicked()) && can_send {
            let text = state.prompt.trim().to_owned();
            if !text.is_empty() {
                match agent.send(Turn::Text(text)) {
                    Ok(()) => {
                        state.prompt.clear();
                        out.sent = true;
                    }
                    Err(e) => out.error = Some(e),
                }
            }
        }
    });
}
