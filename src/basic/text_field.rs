//! `TextField`: variants `shortText`, `longText` (multiline), `number` (only numeric input
//! accepted) and `obscured` (password); a label tied to the field for accessibility; the
//! v1.0 `placeholder` as hint text; the first failing check (or the v0.9
//! `validationRegexp`) under it.
//!
//! Every keystroke writes the bound path. While the user edits, the text lives in an edit
//! buffer in widget state, re-synced from the model whenever the model value changes (so an
//! agent update of the same path wins, and one of another path leaves the edit alone).
//! Enter in a single-line field fires the component's `action`, if it has one.

use std::ops::Range;
use std::sync::Arc;

use egui::text::CharIndex;
use serde_json::Value;

use super::margin::vertical;
use crate::catalog::ComponentRenderer;
use crate::catalog::Incoming;
use crate::catalog::name_control;
use crate::error::A2uiError;
use crate::eval::{CheckResult, first_failure};
use crate::render::ComponentContext;

/// The `TextField` component.
pub struct TextField;

/// The message shown when the value does not match `validationRegexp`.
pub const REGEXP_MESSAGE: &str = "The value does not have the expected format";

/// The text being edited and the model value it was last synced with.
#[derive(Clone, Debug, Default)]
struct EditBuffer {
    text: String,
    synced: String,
}

/// A compiled `validationRegexp`, cached in widget state by its pattern.
#[derive(Clone)]
struct CachedRegex {
    pattern: String,
    regex: Option<Arc<regex::Regex>>,
}

/// A text buffer that only ever holds a numeric prefix: an optional leading sign, digits,
/// and at most one decimal point. Typed or pasted characters that would break that are
/// dropped (and the cursor does not move past them).
struct NumericText<'a>(&'a mut String);

/// Whether `s` is something a user may have typed on the way to a number.
pub(crate) fn is_numeric_prefix(s: &str) -> bool {
    let body = s.strip_prefix(['-', '+']).unwrap_or(s);
    let mut dot = false;
    for c in body.chars() {
        match c {
            '0'..='9' => {}
            '.' if !dot => dot = true,
            _ => return false,
        }
    }
    true
}

/// Keep the longest run of characters of `s` that stays a numeric prefix.
pub(crate) fn sanitize_numeric(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        out.push(c);
        if !is_numeric_prefix(&out) {
            out.pop();
        }
    }
    out
}

impl egui::TextBuffer for NumericText<'_> {
    fn is_mutable(&self) -> bool {
        true
    }

    fn as_str(&self) -> &str {
        self.0.as_str()
    }

    fn insert_text(&mut self, text: &str, char_index: CharIndex) -> usize {
        let byte = self.byte_index_from_char_index(char_index).0;
        let byte = byte.min(self.0.len());
        let (head, tail) = self.0.split_at(byte);
        let mut candidate = head.to_owned();
        let mut inserted = 0;
        for c in text.chars() {
            candidate.push(c);
            let mut whole = candidate.clone();
            whole.push_str(tail);
            if is_numeric_prefix(&whole) {
                inserted += 1;
            } else {
                candidate.pop();
            }
        }
        candidate.push_str(tail);
        *self.0 = candidate;
        inserted
    }

    fn delete_char_range(&mut self, char_range: Range<CharIndex>) {
        let start = self.byte_index_from_char_index(char_range.start).0;
        let end = self.byte_index_from_char_index(char_range.end).0;
        let (start, end) = (start.min(end), end.max(start).min(self.0.len()));
        let mut next = self.0.clone();
        next.replace_range(start..end, "");
        // Deleting a digit between a sign and a dot keeps a valid prefix; deleting can
        // never make one invalid except by merging two dots, which cannot exist.
        *self.0 = sanitize_numeric(&next);
    }

    fn replace_with(&mut self, text: &str) {
        *self.0 = sanitize_numeric(text);
    }

    fn type_id(&self) -> std::any::TypeId {
        std::any::TypeId::of::<NumericText<'static>>()
    }
}

impl TextField {
    /// The first failure: the component's checks, then `validationRegexp` (an empty value
    /// passes it; the pattern is searched, as JavaScript's `RegExp.test` does).
    fn failure(
        cx: &mut ComponentContext<'_, '_>,
        checks: &[CheckResult],
        text: &str,
    ) -> Option<String> {
        if let Some(f) = first_failure(checks) {
            return Some(f.to_owned());
        }
        let pattern = cx.opt_string("validationRegexp")?;
        if pattern.is_empty() || text.is_empty() {
            return None;
        }
        let cached = cx
            .state::<CachedRegex>("validationRegexp")
            .filter(|c| c.pattern == pattern);
        let cached = match cached {
            Some(c) => c,
            None => {
                let built = regex::RegexBuilder::new(&pattern)
                    .size_limit(cx.limits().max_regex_bytes)
                    .build();
                let regex = match built {
                    Ok(r) => Some(Arc::new(r)),
                    Err(e) => {
                        cx.report_once(
                            "validationRegexp",
                            A2uiError::Expression {
                                expression: "validationRegexp".into(),
                                message: format!("invalid pattern: {e}"),
                            },
                        );
                        None
                    }
                };
                let c = CachedRegex { pattern, regex };
                cx.set_state("validationRegexp", c.clone());
                c
            }
        };
        match cached.regex {
            Some(r) if !r.is_match(text) => Some(REGEXP_MESSAGE.to_owned()),
            _ => None,
        }
    }
}

impl ComponentRenderer for TextField {
    fn ui(&self, ui: &mut egui::Ui, cx: &mut ComponentContext<'_, '_>) -> egui::Response {
        let label = cx.string("label");
        let variant = cx.string("variant");
        let placeholder = cx.opt_string("placeholder").filter(|p| !p.is_empty());
        let model_text = cx.string("value");

        let stored = cx.state::<EditBuffer>("edit");
        let mut dirty = stored.is_none();
        let mut buffer = stored.unwrap_or_default();
        if buffer.synced != model_text {
            buffer.text = model_text.clone();
            buffer.synced = model_text;
            dirty = true;
        }

        let multiline = variant == "longText";
        let number = variant == "number";
        let obscured = variant == "obscured";
        // Where an obscured field's text goes, as the host knows it (never the agent's
        // word): drawn inside the field's right end, so a "Sign in to <your app>" dialog
        // an agent draws still says whose it is.
        let destination = obscured.then(|| {
            let to = crate::catalog::obscured_destination(cx.origin());
            let short: String = to.chars().take(28).collect();
            let short = if short.len() < to.len() {
                format!("{short}…")
            } else {
                short
            };
            (format!("\u{2192} {short}"), to)
        });
        let edit_id = cx.widget_id().with("edit");

        let incoming = Incoming::of(ui, cx);
        let style = cx.style().clone();
        // As in the web renderer the field spans the width its parent gives it (outside a
        // container, all it has); sized to content it keeps egui's default width.
        let fill = incoming.extent.width.is_some() || !incoming.in_slot();
        let palette = cx.palette(ui);
        // Invalid while a check fails (or the value misses `validationRegexp`): the border
        // in the error colour, focused or not.
        let invalid = {
            let checks = cx.checks();
            Self::failure(cx, &checks, &buffer.text).is_some()
        };
        let (response, drawn) = vertical(ui, |ui| {
            // The reference's box: a 1 px border, 8 px corners.
            let (gap, radius) = (style.field_gap, style.field_radius as u8);
            let field = FieldLook {
                gap,
                radius,
                border: style.field_border,
                color: if invalid {
                    palette.error
                } else {
                    palette.border
                },
                focus: if invalid {
                    palette.error
                } else {
                    palette.primary
                },
            };
            ui.set_style(cx.shared_style(ui, ("a2ui-field", field.key()), |s| {
                field_style(s, &field);
            }));
            let label_response = (!label.is_empty()).then(|| {
                ui.label(
                    egui::RichText::new(&label)
                        .font(style.label.font_id(ui.ctx()))
                        .line_height(Some(style.label.line_height))
                        .strong(),
                )
            });
            let output = {
                let mut numeric;
                let target: &mut dyn egui::TextBuffer = if number {
                    buffer.text = sanitize_numeric_if_needed(&buffer.text);
                    numeric = NumericText(&mut buffer.text);
                    &mut numeric
                } else {
                    &mut buffer.text
                };
                let mut edit = if multiline {
                    egui::TextEdit::multiline(target).desired_rows(3)
                } else {
                    egui::TextEdit::singleline(target)
                };
                let font = egui::FontId::proportional(style.label.size);
                let row = ui.ctx().fonts_mut(|f| f.row_height(&font));
                // The box keeps its height; a single line sits where the browser puts it:
                // under the 1 px border and 8 px padding (`padding: var(--a2ui-spacing-m)`),
                // the rest of the height below it.
                let margin = if multiline {
                    egui::Margin::symmetric(8, 8)
                } else {
                    let border = style.field_border;
                    let top = (border + 8.0).round().clamp(0.0, 64.0);
                    let bottom = (style.field_height - row - top - 2.0 * border)
                        .round()
                        .clamp(2.0, 64.0);
                    egui::Margin {
                        left: 8,
                        right: 8,
                        top: top as i8,
                        bottom: bottom as i8,
                    }
                };
                // Room at the right end for the destination mark.
                let mark = destination.as_ref().map(|(mark, _)| {
                    ui.painter().layout_no_wrap(
                        mark.clone(),
                        egui::FontId::proportional((style.label.size - 2.0).max(9.0)),
                        ui.visuals().weak_text_color(),
                    )
                });
                let mut margin = margin;
                if let Some(galley) = &mark {
                    margin.right = (f32::from(margin.right) + galley.size().x + 6.0)
                        .round()
                        .clamp(8.0, 120.0) as i8;
                }
                edit = edit
                    .id(edit_id)
                    .background_color(palette.input)
                    .text_color(palette.on_input)
                    .password(obscured)
                    .font(font)
                    .margin(margin)
                    .min_size(egui::vec2(0.0, style.field_height));
                if fill {
                    edit = edit.desired_width(f32::INFINITY);
                }
                if let Some(p) = &placeholder {
                    edit = edit.hint_text(p.clone());
                }
                let output = edit.show(ui);
                if let Some(galley) = mark {
                    let rect = output.response.rect;
                    let pos = egui::pos2(
                        rect.right() - 8.0 - galley.size().x,
                        rect.center().y - galley.size().y / 2.0,
                    );
                    ui.painter().with_clip_rect(rect).galley(
                        pos,
                        galley,
                        ui.visuals().weak_text_color(),
                    );
                }
                output
            };
            let fallback = if label_response.is_none() {
                cx.fallback_name()
            } else {
                String::new()
            };
            let response = name_control(
                ui,
                output.response.response,
                label_response.as_ref(),
                &fallback,
            );
            let response = match &destination {
                Some((_, to)) => {
                    let note = format!("What you type here is sent to {to}");
                    ui.ctx().accesskit_node_builder(response.id, |node| {
                        node.set_description(note.clone());
                    });
                    response.on_hover_text(note)
                }
                None => response,
            };

            if response.changed() {
                dirty = true;
                buffer.synced = buffer.text.clone();
                cx.write(ui, "value", Value::String(buffer.text.clone()));
            }
            let checks = cx.checks();
            let failure = Self::failure(cx, &checks, &buffer.text);
            let submitted = !multiline
                && response.lost_focus()
                && ui.input(|i| i.key_pressed(egui::Key::Enter));
            if submitted && failure.is_none() && cx.prop("action").is_some() {
                cx.fire_action();
            }
            // Numeric sanitising may have changed the text without a `changed` response.
            if dirty || buffer.text != buffer.synced {
                cx.set_state("edit", buffer.clone());
            }
            // Every failing check's message, one a line, as the web renderer shows them.
            let mut messages: Vec<String> = checks
                .into_iter()
                .filter(|c| !c.valid)
                .filter_map(|c| c.message)
                .collect();
            if messages.is_empty()
                && let Some(f) = failure.clone()
            {
                messages.push(f);
            }
            for m in &messages {
                cx.check_message_ui(ui, Some(m));
            }
            response
        });
        if let Some(w) = incoming.extent.width {
            cx.set_geometry_box(egui::Rect::from_min_size(
                drawn.min,
                egui::vec2(w, drawn.height()),
            ));
        }
        response
    }
}

/// A number field whose model holds a non-numeric text shows only its numeric prefix.
pub(crate) fn sanitize_numeric_if_needed(s: &str) -> String {
    if is_numeric_prefix(s) {
        s.to_owned()
    } else {
        sanitize_numeric(s)
    }
}

/// How a field box looks: the reference's `.a2ui-textfield` rules.
struct FieldLook {
    /// Space between the label, the box and the messages (`gap: var(--a2ui-spacing-xs)`).
    gap: f32,
    /// Corner radius (`--a2ui-textfield-border-radius`).
    radius: u8,
    /// Border width (`--a2ui-border-width`).
    border: f32,
    /// Border colour unfocused (`--a2ui-color-border`, or the error colour when invalid).
    color: egui::Color32,
    /// Border colour focused (`.a2ui-textfield:focus { border-color: var(--a2ui-color-primary) }`;
    /// `.a2ui-textfield.invalid`, later in the sheet, keeps the error colour).
    focus: egui::Color32,
}

impl FieldLook {
    /// A key for the shared style cache.
    fn key(&self) -> (u32, u8, u32, [u8; 4], [u8; 4]) {
        (
            self.gap.to_bits(),
            self.radius,
            self.border.to_bits(),
            self.color.to_array(),
            self.focus.to_array(),
        )
    }
}

/// The reference's field box on `style`: `item_spacing.y` of `gap` between the label, the
/// box and the message, a 1 px border in every state (its colour from `look`), corners of
/// `radius`.
fn field_style(style: &mut egui::Style, look: &FieldLook) {
    style.spacing.item_spacing.y = look.gap;
    let stroke = egui::Stroke::new(look.border, look.color);
    let widgets = &mut style.visuals.widgets;
    for w in [
        &mut widgets.inactive,
        &mut widgets.hovered,
        &mut widgets.active,
    ] {
        w.bg_stroke = stroke;
        w.corner_radius = egui::CornerRadius::same(look.radius);
    }
    style.visuals.selection.stroke = egui::Stroke::new(look.border, look.focus);
}

#[cfg(test)]
mod tests {
    use super::*;
    use egui::TextBuffer as _;

    #[test]
    fn numeric_prefixes_allow_sign_digits_and_one_dot() {
        for ok in ["", "-", "+", "12", "-1.", "3.25", ".5"] {
            assert!(is_numeric_prefix(ok), "{ok}");
        }
        for bad in ["a", "1a", "1.2.3", "--1", "1-", "1e5", "１"] {
            assert!(!is_numeric_prefix(bad), "{bad}");
        }
    }

    #[test]
    fn typing_letters_into_a_number_buffer_inserts_nothing() {
        let mut s = "12".to_owned();
        let mut b = NumericText(&mut s);
        assert_eq!(b.insert_text("abc", CharIndex(2)), 0);
        assert_eq!(b.insert_text("3x4", CharIndex(2)), 2);
        assert_eq!(b.as_str(), "1234");
        assert_eq!(b.insert_text(".", CharIndex(1)), 1);
        assert_eq!(b.insert_text(".", CharIndex(3)), 0);
        assert_eq!(b.as_str(), "1.234");
        b.replace_with("x-1.5y");
        assert_eq!(b.as_str(), "-1.5");
    }
}
