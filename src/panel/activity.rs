//! Drawing what a transport reports but does not draw itself: an AG-UI activity still being
//! built ([`lifecycle_ui`]) and an AG-UI session's activities in order ([`agui_session_ui`]).
//! The transports stay free of egui; these functions are the panel's view of them (the panel
//! stands above both the renderer and the transports).

use crate::transport::Lifecycle;

/// What the user sees in place of an activity's surfaces before they are there: a skeleton
/// with a spinner and the progress (`building`: "Building the interface… 12 tokens";
/// `retrying`: the attempt and why), or the errors of a `failed` activity.
pub fn lifecycle_ui(lifecycle: &Lifecycle, ui: &mut egui::Ui) -> egui::Response {
    let failed = lifecycle.is_failed();
    egui::Frame::group(ui.style())
        .show(ui, |ui| {
            ui.set_width(ui.available_width());
            ui.horizontal(|ui| {
                if failed {
                    ui.colored_label(
                        ui.visuals().error_fg_color,
                        "The agent could not build this interface",
                    );
                } else {
                    ui.spinner();
                    let mut text = match lifecycle.status.as_str() {
                        "building" => "Building the interface…".to_owned(),
                        "retrying" => format!(
                            "Retrying{}…",
                            lifecycle
                                .attempt
                                .map(|a| format!(" (attempt {a})"))
                                .unwrap_or_default()
                        ),
                        other => format!("{other}…"),
                    };
                    if let Some(t) = lifecycle.progress_tokens {
                        text.push_str(&format!(" {t} tokens"));
                    }
                    ui.label(text);
                }
            });
            for e in &lifecycle.errors {
                if failed {
                    ui.colored_label(ui.visuals().error_fg_color, e);
                } else {
                    ui.weak(e);
                }
            }
            if !failed {
                // The skeleton: grey bars where the interface will be.
                let color = ui.visuals().widgets.inactive.bg_fill;
                for frac in [0.6, 0.9, 0.75] {
                    let w = ui.available_width() * frac;
                    let (rect, _) =
                        ui.allocate_exact_size(egui::vec2(w, 14.0), egui::Sense::hover());
                    ui.painter().rect_filled(rect, 4.0, color);
                }
            }
        })
        .response
}

/// Draw an AG-UI conversation's surfaces, one activity (surface group) after another: an
/// activity still without operations shows its [`Lifecycle`] ([`lifecycle_ui`]: a skeleton
/// while `building` or `retrying`, the errors when `failed`), one with operations shows its
/// surfaces, and surfaces no activity claims come last. Returns the surfaces' events
/// (actions go back with [`Turn::Action`](crate::transport::Turn::Action)).
///
/// The [`Agent`](crate::agent::Agent) thread gives the same order for every transport
/// ([`ThreadEntry::Activity`](crate::agent::ThreadEntry::Activity) and
/// [`ThreadEntry::Surface`](crate::agent::ThreadEntry::Surface)); this is for a host holding
/// an [`AguiSession`](crate::transport::agui::AguiSession) itself.
#[cfg(feature = "agui")]
#[must_use = "the events are the user's actions and the errors owed to the agent: dropping them loses them"]
pub fn agui_session_ui(
    session: &mut crate::transport::agui::AguiSession,
    draw: &mut crate::render::DrawState,
    ui: &mut egui::Ui,
) -> Vec<crate::action::Event> {
    let mut events = Vec::new();
    let mut drawn: Vec<String> = Vec::new();
    let groups: Vec<(String, Option<Lifecycle>, Vec<String>)> = session
        .activities()
        .map(|(id, a)| (id.to_owned(), a.lifecycle().cloned(), a.surfaces().to_vec()))
        .collect();
    for (id, lifecycle, surfaces) in groups {
        ui.push_id(("a2ui-activity", &id), |ui| {
            if let Some(l) = &lifecycle {
                lifecycle_ui(l, ui);
            }
            for sid in surfaces {
                if session
                    .store()
                    .surface(&sid)
                    .is_some_and(|s| s.is_visible())
                {
                    ui.push_id(&sid, |ui| {
                        events.extend(draw.surface_ui(session.store_mut(), &sid, ui));
                    });
                }
                drawn.push(sid);
            }
        });
    }
    // Surfaces no activity claims (a store the host fed itself).
    let rest: Vec<String> = session
        .store()
        .surfaces()
        .filter(|s| s.is_visible() && !drawn.contains(&s.id))
        .map(|s| s.id.clone())
        .collect();
    for sid in rest {
        ui.push_id(("a2ui-surface", &sid), |ui| {
            events.extend(draw.surface_ui(session.store_mut(), &sid, ui));
        });
    }
    events
}

#[cfg(all(test, feature = "agui"))]
mod tests {
    use serde_json::{Value, json};

    use super::*;
    use crate::render::DrawState;
    use crate::render::catalog::Catalog;
    use crate::transport::agui::AguiSession;

    fn snapshot(id: &str, content: Value) -> Value {
        json!({"type": "ACTIVITY_SNAPSHOT", "messageId": id, "activityType": "a2ui-surface",
               "content": content})
    }

    fn create(id: &str) -> Value {
        json!({"version": "v0.9", "createSurface": {"surfaceId": id,
            "catalogId": "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json"}})
    }

    fn text(id: &str, t: &str) -> Value {
        json!({"version": "v0.9", "updateComponents": {"surfaceId": id,
            "components": [{"id": "root", "component": "Text", "text": t}]}})
    }

    /// What the user sees: the lifecycle skeleton of an activity still building, the errors
    /// of a failed one, and the surface once the painted snapshot replaced the status.
    #[test]
    fn the_lifecycle_is_drawn_in_place_of_the_surfaces() {
        use egui_kittest::kittest::Queryable;
        struct St {
            s: AguiSession,
            d: DrawState,
        }
        let has = |h: &egui_kittest::Harness<'_, St>, t: &str| {
            h.query_all_by_label_contains(t).next().is_some()
        };
        let mut s = AguiSession::new("http://x/", Catalog::basic());
        s.on_item(Ok(snapshot(
            "a",
            json!({"status": "building", "progressTokens": 12}),
        )));
        s.on_item(Ok(snapshot(
            "b",
            json!({"status": "retrying", "attempt": 2, "errors": ["bad json"]}),
        )));
        let mut h = egui_kittest::Harness::builder()
            .with_size(egui::vec2(600.0, 400.0))
            .build_ui_state(
                |ui, st: &mut St| {
                    let _ = agui_session_ui(&mut st.s, &mut st.d, ui);
                },
                St {
                    s,
                    d: DrawState::new(Catalog::basic()),
                },
            );
        h.run_steps(2);
        assert!(has(&h, "Building the interface… 12 tokens"));
        assert!(has(&h, "Retrying (attempt 2)…"));
        assert!(has(&h, "bad json"));

        h.state_mut().s.on_item(Ok(snapshot(
            "b",
            json!({"status": "failed", "errors": ["gave up"]}),
        )));
        h.state_mut().s.on_item(Ok(snapshot(
            "a",
            json!({"a2ui_operations": [create("s"), text("s", "Painted")]}),
        )));
        h.run_steps(2);
        assert!(has(&h, "Painted"), "the painted snapshot shows its surface");
        assert!(
            !has(&h, "Building the interface"),
            "and the skeleton is gone"
        );
        assert!(has(&h, "The agent could not build this interface"));
        assert!(has(&h, "gave up"));
        assert!(!has(&h, "Retrying"));
    }
}
