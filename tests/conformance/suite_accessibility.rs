//! The official `accessibility.yaml` cases checked on our AccessKit tree: the case's
//! components are drawn headless with the basic catalog (egui_kittest), and each axe-core
//! rule the case names is checked on the nodes as its AccessKit meaning, as are the
//! expected attributes of `accessibilityTree`. Shared by `tests/conformance` and the
//! `a2ui_suite` example (`#[path]`), passed to the runner with
//! `Runner::with_accessibility_check`.

use egui::accesskit::{Live, Role, Toggled};
use egui_a2ui::{Catalog, Renderer};
use egui_kittest::Harness;
use egui_kittest::kittest::{By, NodeT as _, Queryable as _};
use serde_json::{Map, Value, json};

const BASIC_V10: &str = "https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json";

/// What a bound attribute is set to before the tree is read: a label bound to `P` reads
/// `bound P`, a `hidden` bound to `P` is `true`.
fn probe_label(path: &str) -> String {
    format!("bound {path}")
}

/// The case's messages: the surface (its root) and its `components`, plus the data the
/// bound attributes read.
fn messages(case: &Value) -> Result<Vec<Value>, String> {
    let surface = case
        .get("surface")
        .and_then(Value::as_object)
        .ok_or("case has no surface")?;
    let mut components = Vec::new();
    let mut root = surface.clone();
    root.remove("components");
    root.insert("id".into(), json!("root"));
    components.push(Value::Object(root));
    for (id, c) in surface
        .get("components")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        let mut c = c.as_object().cloned().unwrap_or_default();
        c.insert("id".into(), json!(id));
        components.push(Value::Object(c));
    }
    let mut data = Map::new();
    for c in &components {
        for (key, v) in c
            .get("accessibility")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            if let Some(p) = v.get("path").and_then(Value::as_str) {
                let value = if key == "hidden" {
                    json!(true)
                } else {
                    json!(probe_label(p))
                };
                data.insert(p.trim_start_matches('/').to_owned(), value);
            }
        }
    }
    Ok(vec![
        json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": BASIC_V10,
            "components": components, "dataModel": data}}),
    ])
}

type Node<'a> = egui_kittest::Node<'a>;

/// Every node of the tree, hidden ones included.
fn all_nodes<'a>(h: &'a Harness<'_, ()>) -> Vec<Node<'a>> {
    h.query_all(By::new()).collect()
}

fn name_of(n: &Node<'_>) -> Option<String> {
    let a = n.accesskit_node();
    a.label()
        .filter(|l| !l.is_empty())
        .or_else(|| a.value().filter(|_| a.role() == Role::Label))
}

/// The visible texts a component shows (what its node is found by when the case expects
/// no label): its own `text` / `label` / `title`, or those of its children.
fn texts_of(id: &str, components: &Map<String, Value>, depth: usize) -> Vec<String> {
    let Some(c) = components.get(id) else {
        return Vec::new();
    };
    let own: Vec<String> = ["text", "label", "title"]
        .iter()
        .filter_map(|k| c.get(*k).and_then(Value::as_str).map(str::to_owned))
        .collect();
    if !own.is_empty() || depth > 8 {
        return own;
    }
    let mut out = Vec::new();
    for child in c
        .get("children")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .chain(c.get("child"))
        .filter_map(Value::as_str)
    {
        out.extend(texts_of(child, components, depth + 1));
    }
    out
}

fn role_of(name: &str) -> Option<&'static [Role]> {
    Some(match name {
        "button" => &[Role::Button],
        "textbox" => &[Role::TextInput, Role::MultilineTextInput],
        "checkbox" => &[Role::CheckBox],
        "radiogroup" => &[Role::RadioGroup],
        "slider" => &[Role::Slider],
        "img" | "image" => &[Role::Image],
        _ => return None,
    })
}

fn live_of(name: &str) -> Option<Live> {
    match name {
        "off" => Some(Live::Off),
        "polite" => Some(Live::Polite),
        "assertive" => Some(Live::Assertive),
        _ => None,
    }
}

/// Check an `accessibility_check` case (see the module docs).
pub fn check(case: &Value) -> Result<(), String> {
    let msgs = messages(case)?;
    let mut renderer = Renderer::new(Catalog::basic());
    for m in &msgs {
        renderer
            .apply(m)
            .into_result()
            .map_err(|e| format!("the case's components are refused: {e}"))?;
    }
    let mut h = Harness::builder()
        .with_size(egui::vec2(800.0, 600.0))
        .build_ui(move |ui| {
            let _ = renderer.ui(ui);
        });
    h.run();
    let components: Map<String, Value> = msgs[0]
        .pointer("/createSurface/components")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|c| Some((c.get("id")?.as_str()?.to_owned(), c.clone())))
        .collect();
    let nodes = all_nodes(&h);
    let assertions = case.get("assertions").cloned().unwrap_or_default();
    // Every failed expectation is reported, not only the first.
    let mut failed = Vec::new();
    for (id, expected) in assertions
        .get("accessibilityTree")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        if let Err(e) = check_node(id, expected, &components, &nodes) {
            failed.push(format!("{id}: {e}"));
        }
    }
    for rule in assertions
        .get("axeCore")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
    {
        if let Err(e) = check_rule(rule, &components, &nodes) {
            failed.push(format!("rule {rule}: {e}"));
        }
    }
    if failed.is_empty() {
        Ok(())
    } else {
        Err(failed.join("; "))
    }
}

/// The node a component's expectations are about: the one named by the expected (or
/// probed) label, else by one of the component's texts; of those, one with the expected
/// role when there is one.
fn find<'n, 'a>(
    id: &str,
    expected: &Map<String, Value>,
    components: &Map<String, Value>,
    nodes: &'n [Node<'a>],
) -> Vec<&'n Node<'a>> {
    let names: Vec<String> = match expected.get("label") {
        Some(Value::String(l)) => vec![l.clone()],
        Some(v) => v
            .get("path")
            .and_then(Value::as_str)
            .map(probe_label)
            .into_iter()
            .collect(),
        None => texts_of(id, components, 0),
    };
    let roles = expected
        .get("role")
        .and_then(Value::as_str)
        .and_then(role_of);
    let named: Vec<&Node<'a>> = nodes
        .iter()
        .filter(|n| name_of(n).is_some_and(|l| names.contains(&l)))
        .collect();
    match roles {
        Some(r) => named
            .into_iter()
            .filter(|n| r.contains(&n.accesskit_node().role()))
            .collect(),
        None => named,
    }
}

fn check_node(
    id: &str,
    expected: &Value,
    components: &Map<String, Value>,
    nodes: &[Node<'_>],
) -> Result<(), String> {
    let exp = expected.as_object().cloned().unwrap_or_default();
    let found = find(id, &exp, components, nodes);
    let Some(node) = found.first() else {
        return Err(format!("no node matches {}", Value::Object(exp)));
    };
    let a = node.accesskit_node();
    for (key, want) in &exp {
        match key.as_str() {
            // Found by it.
            "label" | "role" => {}
            "description" => {
                let want = want.as_str().unwrap_or_default();
                if a.description().as_deref() != Some(want) {
                    return Err(format!(
                        "description {:?}, expected {want:?}",
                        a.description()
                    ));
                }
            }
            "live" => {
                let want_live = want.as_str().and_then(live_of);
                if Some(a.live()) != want_live {
                    return Err(format!("live {:?}, expected {want}", a.live()));
                }
            }
            "hidden" => {
                // A literal `true`, or a binding the data set to true.
                let want = want.as_bool().unwrap_or(true);
                // A container: every node showing its content is hidden.
                for n in &found {
                    if n.accesskit_node().is_hidden() != want {
                        return Err(format!(
                            "node {:?} hidden={}, expected {want}",
                            name_of(n),
                            n.accesskit_node().is_hidden()
                        ));
                    }
                }
            }
            "checked" => {
                let want = if want.as_bool() == Some(true) {
                    Toggled::True
                } else {
                    Toggled::False
                };
                if a.toggled() != Some(want) {
                    return Err(format!("toggled {:?}, expected {want:?}", a.toggled()));
                }
            }
            other => return Err(format!("unknown expectation {other:?}")),
        }
    }
    Ok(())
}

/// One axe-core rule, by its AccessKit meaning.
fn check_rule(
    rule: &str,
    components: &Map<String, Value>,
    nodes: &[Node<'_>],
) -> Result<(), String> {
    match rule {
        // Every button an assistive technology reaches has a name.
        "button-name" => {
            for n in nodes {
                let a = n.accesskit_node();
                if a.role() == Role::Button
                    && !a.is_hidden()
                    && a.label().is_none_or(|l| l.trim().is_empty())
                {
                    return Err(format!("a button without a name: {n:?}"));
                }
            }
            Ok(())
        }
        // ARIA values are valid: each `live` the case sets is carried as that AccessKit
        // live value (AccessKit's typed values cannot be malformed otherwise).
        "aria-valid-attr-value" => {
            for (id, c) in components {
                let Some(live) = c.pointer("/accessibility/live").and_then(Value::as_str) else {
                    continue;
                };
                let want = live_of(live).ok_or_else(|| format!("{id}: live {live:?}"))?;
                let mut texts = texts_of(id, components, 0);
                if let Some(label) = c.pointer("/accessibility/label").and_then(Value::as_str) {
                    texts.push(label.to_owned());
                }
                let ok = nodes.iter().any(|n| {
                    name_of(n).is_some_and(|l| texts.contains(&l))
                        && n.accesskit_node().live() == want
                });
                if !ok {
                    return Err(format!("{id}: no node announces {live:?}"));
                }
            }
            Ok(())
        }
        // A state is set only on a role that has it: `toggled` on checkable roles.
        "aria-allowed-attr" => {
            for n in nodes {
                let a = n.accesskit_node();
                if a.toggled().is_some()
                    && !matches!(
                        a.role(),
                        Role::CheckBox
                            | Role::RadioButton
                            | Role::Switch
                            | Role::MenuItemCheckBox
                            | Role::MenuItemRadio
                    )
                {
                    return Err(format!("toggled state on a {:?}", a.role()));
                }
            }
            Ok(())
        }
        // Nothing hidden from assistive technology can take the keyboard focus.
        "aria-hidden-focus" => {
            for n in nodes {
                let a = n.accesskit_node();
                if a.is_hidden() && a.data().supports_action(egui::accesskit::Action::Focus) {
                    return Err(format!("a hidden node is focusable: {n:?}"));
                }
            }
            Ok(())
        }
        other => Err(format!("no AccessKit check for axe-core rule {other:?}")),
    }
}
