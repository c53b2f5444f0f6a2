//! One stored copy of a v0.8 component's properties: the normalised (v0.9) form, plus a
//! [`V08Wire`] recipe of a few bits from which the wire form (v0.8 names, BoundValues such as
//! `{"literalString": ..}`, `explicitList`, the `[{key, value}]` action context) is derived on
//! demand, for the conformance dump and [`ComponentDef::wire_props`](super::ComponentDef).
//!
//! The recipe records, per property, whether its name was renamed and whether its value was
//! converted; everything else follows from the component type. It is only used when the
//! derivation gives back exactly the properties as sent ("canonical" shapes: a BoundValue with
//! one literal of its own type, `{"path": ..}`, a bare value without BoundValues inside, an
//! `explicitList` array, a two-key `template`, an action whose context entries are
//! `{key, value}` with canonical values and distinct keys, ...). Anything else (a
//! `MultipleChoice`, a BoundValue with both a literal and a path, `primary: false`, two wire
//! names for one normalised name, more than [`MAX_ENTRIES`] properties, ...) keeps the wire
//! properties as sent beside the normalised ones, as before; those are rare.
//!
//! Building the normalised form of a canonical component moves the wire values instead of
//! copying them.

use std::borrow::Cow;
use std::fmt;
use std::num::NonZeroU64;

use serde_json::{Map, Value};

use crate::stored::{IntoPropName, PropName, Props, StoredProps};

/// At most this many normalised properties (the component-level `weight` included) are
/// described by a recipe: two bits each below bit 62.
const MAX_ENTRIES: usize = 31;
/// The last normalised property is the component-level `weight` (not a wire property).
const WEIGHT: u64 = 1 << 62;
/// Always set, so a recipe is never zero (and `Option<V08Wire>` is one word).
const MARK: u64 = 1 << 63;

/// How to derive a v0.8 component's wire properties from its normalised ones (see the module
/// docs): per normalised property, bit `2i` says "renamed" (for an `action`, which is never
/// renamed: "sent with an empty `context` list") and bit `2i + 1` "converted".
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct V08Wire(NonZeroU64);

impl fmt::Debug for V08Wire {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "V08Wire({:#x})", self.0.get())
    }
}

/// What a wire property's value needs to go back to its wire form.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// A BoundValue (or a bare value): converted means "one literal of its JSON type".
    Bound,
    /// `children`: converted means `explicitList` (an array) or `template` (an object).
    Children,
    /// `action`: converted means the v0.8 `{name, context: [{key, value}]}`.
    Action,
    /// `Image.fit`: converted means `scale-down`.
    Fit,
    /// `Button.primary`: converted means `true` (the normalised `variant: "primary"`).
    Primary,
    /// Taken as sent (`Modal`'s child ids): never converted.
    AsSent,
}

fn kind(ty: &str, wire_key: &str) -> Kind {
    match wire_key {
        "children" => Kind::Children,
        "action" => Kind::Action,
        "entryPointChild" | "contentChild" if ty == "Modal" => Kind::AsSent,
        "fit" if ty == "Image" => Kind::Fit,
        "primary" if ty == "Button" => Kind::Primary,
        _ => Kind::Bound,
    }
}

/// The normalised name of a wire property, when renamed; the renames of the general
/// normaliser (`v0_8::normalise`), `MultipleChoice`'s excepted (it never gets a recipe).
/// Matched on the name first: this runs for every property of every v0.8 component.
fn renamed(ty: &str, key: &str) -> Option<&'static str> {
    Some(match key {
        "distribution" => "justify",
        "alignment" => "align",
        "entryPointChild" if ty == "Modal" => "trigger",
        "contentChild" if ty == "Modal" => "content",
        "tabItems" if ty == "Tabs" => "tabs",
        "text" if ty == "TextField" => "value",
        "textFieldType" if ty == "TextField" => "variant",
        "usageHint" => "variant",
        "altText" if ty == "Image" => "description",
        "minValue" if ty == "Slider" => "min",
        "maxValue" if ty == "Slider" => "max",
        "primary" if ty == "Button" => "variant",
        _ => return None,
    })
}

/// The wire name of a renamed normalised property: the inverse of [`renamed`] where it is
/// one-to-one (a `TextField`'s `variant` comes back as `textFieldType`, so a TextField sent
/// with `usageHint` has no recipe).
fn wire_name(ty: &str, name: &str) -> Option<&'static str> {
    Some(match name {
        "trigger" if ty == "Modal" => "entryPointChild",
        "content" if ty == "Modal" => "contentChild",
        "tabs" if ty == "Tabs" => "tabItems",
        "value" if ty == "TextField" => "text",
        "variant" => match ty {
            "TextField" => "textFieldType",
            "Button" => "primary",
            _ => "usageHint",
        },
        "description" if ty == "Image" => "altText",
        "min" if ty == "Slider" => "minValue",
        "max" if ty == "Slider" => "maxValue",
        "justify" => "distribution",
        "align" => "alignment",
        _ => return None,
    })
}

/// True when the normaliser's BoundValue conversion leaves `v` as it is: no BoundValue
/// inside but `{"path": ..}` alone (which converts to itself).
fn plain(v: &Value) -> bool {
    match v {
        Value::Object(m) if is_bound_value(m) => m.len() == 1 && m.contains_key("path"),
        Value::Object(m) => m.values().all(plain),
        Value::Array(a) => a.iter().all(plain),
        _ => true,
    }
}

/// A BoundValue with exactly one literal, of its own JSON type.
fn one_literal(v: &Value) -> bool {
    let Value::Object(m) = v else {
        return false;
    };
    m.len() == 1
        && m.iter().next().is_some_and(|(k, x)| {
            matches!(
                (k.as_str(), x),
                ("literalString", Value::String(_))
                    | ("literalNumber", Value::Number(_))
                    | ("literalBoolean", Value::Bool(_))
                    | ("literalArray", Value::Array(_))
            )
        })
}

/// The literal wrapper of a normalised literal (the inverse of [`one_literal`]'s unwrap).
fn wrap_literal(v: &Value) -> Value {
    let key = match v {
        Value::String(_) => "literalString",
        Value::Number(_) => "literalNumber",
        Value::Bool(_) => "literalBoolean",
        Value::Array(_) => "literalArray",
        other => return other.clone(),
    };
    let mut m = Map::with_capacity(1);
    m.insert(key.to_owned(), v.clone());
    Value::Object(m)
}

/// An action context entry's value in a shape the derivation gives back: one literal, or an
/// object (`{"path": ..}` or any other without BoundValues inside) or `null` taken as sent.
fn canonical_context_value(v: &Value) -> bool {
    one_literal(v) || (matches!(v, Value::Object(_) | Value::Null) && plain(v))
}

/// Most context entries a recipe describes (their keys are checked pairwise).
const MAX_CONTEXT: usize = 64;

/// Whether an action sends an empty `context` list (which normalises like no context).
fn empty_context(v: &Value) -> bool {
    v.get("context")
        .and_then(Value::as_array)
        .is_some_and(Vec::is_empty)
}

/// Whether a wire value of `kind` has a canonical shape, and if so whether it is converted.
fn shape(kind: Kind, v: &Value) -> Option<bool> {
    match kind {
        Kind::Bound => {
            if one_literal(v) {
                Some(true)
            } else {
                plain(v).then_some(false)
            }
        }
        Kind::AsSent => Some(false),
        Kind::Fit => Some(v.as_str() == Some("scale-down")),
        Kind::Primary => (*v == Value::Bool(true)).then_some(true),
        Kind::Children => {
            let Value::Object(m) = v else {
                return Some(false);
            };
            if let Some(list) = m.get("explicitList") {
                return (m.len() == 1 && list.is_array()).then_some(true);
            }
            match m.get("template") {
                Some(Value::Object(t)) => (m.len() == 1
                    && t.len() == 2
                    && t.keys()
                        .map(String::as_str)
                        .eq(["componentId", "dataBinding"]))
                .then_some(true),
                _ => Some(false),
            }
        }
        Kind::Action => {
            let Value::Object(m) = v else {
                return Some(false);
            };
            let mut keys = m.iter();
            if keys.next().is_none_or(|(k, _)| k != "name") {
                return None;
            }
            let Some((k, context)) = keys.next() else {
                return Some(true);
            };
            let Value::Array(items) = context else {
                return None;
            };
            if k != "context" || keys.next().is_some() || items.len() > MAX_CONTEXT {
                return None;
            }
            for (i, item) in items.iter().enumerate() {
                let Value::Object(e) = item else {
                    return None;
                };
                let mut kv = e.iter();
                let (Some(("key", Value::String(key))), Some(("value", val)), None) = (
                    kv.next().map(|(k, v)| (k.as_str(), v)),
                    kv.next().map(|(k, v)| (k.as_str(), v)),
                    kv.next(),
                ) else {
                    return None;
                };
                let repeated = items
                    .get(..i)
                    .unwrap_or_default()
                    .iter()
                    .any(|p| p.get("key").and_then(Value::as_str) == Some(key));
                if repeated || !canonical_context_value(val) {
                    return None;
                }
            }
            Some(true)
        }
    }
}

/// The normalised value of a canonical wire value (`converted` as [`shape`] said), moved.
fn take(kind: Kind, v: Value, converted: bool) -> Value {
    if !converted {
        return v;
    }
    match (kind, v) {
        (Kind::Bound, Value::Object(m)) => m.into_iter().next().map_or(Value::Null, |(_, x)| x),
        (Kind::Fit, _) => Value::String("scaleDown".to_owned()),
        (Kind::Primary, _) => Value::String("primary".to_owned()),
        (Kind::Children, Value::Object(mut m)) => {
            if let Some(list) = m.shift_remove("explicitList") {
                return list;
            }
            let mut o = Map::with_capacity(2);
            if let Some(Value::Object(mut t)) = m.shift_remove("template") {
                if let Some(c) = t.shift_remove("componentId") {
                    o.insert("componentId".to_owned(), c);
                }
                if let Some(p) = t.shift_remove("dataBinding") {
                    o.insert("path".to_owned(), p);
                }
            }
            Value::Object(o)
        }
        (Kind::Action, Value::Object(mut m)) => {
            let mut event = Map::with_capacity(2);
            if let Some(n) = m.shift_remove("name") {
                event.insert("name".to_owned(), n);
            }
            let mut ctx = Map::new();
            if let Some(Value::Array(items)) = m.shift_remove("context") {
                ctx = Map::with_capacity(items.len());
                for item in items {
                    if let Value::Object(mut e) = item
                        && let Some(Value::String(k)) = e.shift_remove("key")
                    {
                        let val = e.shift_remove("value").unwrap_or(Value::Null);
                        let val = if one_literal(&val) {
                            take(Kind::Bound, val, true)
                        } else {
                            val
                        };
                        ctx.insert(k, val);
                    }
                }
            }
            event.insert("context".to_owned(), Value::Object(ctx));
            let mut out = Map::with_capacity(1);
            out.insert("event".to_owned(), Value::Object(event));
            Value::Object(out)
        }
        (_, other) => other,
    }
}

/// The wire value of a converted normalised value of `kind` (the inverse of [`take`]);
/// `empty_context` gives an action without context entries an empty `context` list.
fn give_back(kind: Kind, v: &Value, empty_context: bool) -> Value {
    match kind {
        Kind::Bound => wrap_literal(v),
        Kind::AsSent => v.clone(),
        Kind::Fit => Value::String("scale-down".to_owned()),
        Kind::Primary => Value::Bool(true),
        Kind::Children => match v {
            Value::Array(_) => {
                let mut m = Map::with_capacity(1);
                m.insert("explicitList".to_owned(), v.clone());
                Value::Object(m)
            }
            Value::Object(o) => {
                let mut t = Map::with_capacity(2);
                if let Some(c) = o.get("componentId") {
                    t.insert("componentId".to_owned(), c.clone());
                }
                if let Some(p) = o.get("path") {
                    t.insert("dataBinding".to_owned(), p.clone());
                }
                let mut m = Map::with_capacity(1);
                m.insert("template".to_owned(), Value::Object(t));
                Value::Object(m)
            }
            other => other.clone(),
        },
        Kind::Action => {
            let Some(Value::Object(event)) = v.get("event") else {
                return v.clone();
            };
            let mut m = Map::with_capacity(2);
            if let Some(n) = event.get("name") {
                m.insert("name".to_owned(), n.clone());
            }
            if let Some(Value::Object(ctx)) = event.get("context")
                && (!ctx.is_empty() || empty_context)
            {
                let items = ctx
                    .iter()
                    .map(|(k, val)| {
                        let mut e = Map::with_capacity(2);
                        e.insert("key".to_owned(), Value::String(k.clone()));
                        let val = match val {
                            Value::Object(_) | Value::Null => val.clone(),
                            lit => wrap_literal(lit),
                        };
                        e.insert("value".to_owned(), val);
                        Value::Object(e)
                    })
                    .collect();
                m.insert("context".to_owned(), Value::Array(items));
            }
            Value::Object(m)
        }
    }
}

/// One wire property's value as read: any JSON value, or a one-key object whose map is not
/// built (the fast path reads BoundValues such as `{"literalString": ..}` and
/// `{"explicitList": [..]}` so, and most are unwrapped without ever being a map).
#[derive(Debug, PartialEq)]
pub(super) enum Wire<'a> {
    /// The value.
    Value(Value),
    /// The object `{key: value}`.
    One(Cow<'a, str>, Value),
}

impl Wire<'_> {
    /// The JSON value it stands for.
    pub(super) fn into_value(self) -> Value {
        match self {
            Self::Value(v) => v,
            Self::One(k, v) => {
                let mut m = Map::with_capacity(1);
                m.insert(k.into_owned(), v);
                Value::Object(m)
            }
        }
    }
}

/// [`shape`] of the one-key object `{k: v}`.
fn shape_one(kind: Kind, k: &str, v: &Value) -> Option<bool> {
    match kind {
        Kind::Bound => match (k, v) {
            ("literalString", Value::String(_))
            | ("literalNumber", Value::Number(_))
            | ("literalBoolean", Value::Bool(_))
            | ("literalArray", Value::Array(_)) => Some(true),
            ("path", _) => Some(false),
            ("literalString" | "literalNumber" | "literalBoolean" | "literalArray", _) => None,
            _ => plain(v).then_some(false),
        },
        Kind::AsSent | Kind::Fit => Some(false),
        Kind::Primary => None,
        Kind::Children => match (k, v) {
            ("explicitList", _) => v.is_array().then_some(true),
            ("template", Value::Object(t)) => (t.len() == 2
                && t.keys()
                    .map(String::as_str)
                    .eq(["componentId", "dataBinding"]))
            .then_some(true),
            _ => Some(false),
        },
        Kind::Action => (k == "name").then_some(true),
    }
}

/// [`take`] of the one-key object `{k: v}`.
fn take_one(kind: Kind, k: Cow<'_, str>, v: Value, converted: bool) -> Value {
    if !converted {
        return Wire::One(k, v).into_value();
    }
    match (kind, &*k) {
        (Kind::Bound, _) | (Kind::Children, "explicitList") => v,
        (Kind::Children, _) => take(Kind::Children, Wire::One(k, v).into_value(), true),
        (Kind::Action, _) => {
            let mut event = Map::with_capacity(2);
            event.insert("name".to_owned(), v);
            event.insert("context".to_owned(), Value::Object(Map::new()));
            let mut out = Map::with_capacity(1);
            out.insert("event".to_owned(), Value::Object(event));
            Value::Object(out)
        }
        _ => Wire::One(k, v).into_value(),
    }
}

/// A v0.8 component's normalised properties from its wire properties (`entries`, in wire
/// order, no repeated key) and its component-level `weight`, with the recipe that gives the
/// wire properties back; `None` (nothing consumed) when some property has no canonical
/// shape, and the caller keeps the wire properties as sent.
pub(super) fn normalise_canonical<K: AsRef<str> + IntoPropName>(
    ty: &str,
    entries: &mut Vec<(K, Wire<'_>)>,
    weight: &mut Option<Value>,
) -> Option<(StoredProps, V08Wire)> {
    if ty == "MultipleChoice" {
        return None;
    }
    let n = entries.len() + usize::from(weight.is_some());
    if n > MAX_ENTRIES {
        return None;
    }
    let mut bits = MARK;
    let mut names: [&str; MAX_ENTRIES] = [""; MAX_ENTRIES];
    for (i, (key, v)) in entries.iter().enumerate() {
        let key = key.as_ref();
        let name = match renamed(ty, key) {
            Some(name) => {
                if wire_name(ty, name) != Some(key) {
                    return None;
                }
                bits |= 1 << (2 * i);
                name
            }
            None => key,
        };
        let kind = kind(ty, key);
        let converted = match v {
            Wire::Value(v) => shape(kind, v)?,
            Wire::One(k, x) => shape_one(kind, k, x)?,
        };
        if converted {
            bits |= 1 << (2 * i + 1);
        }
        // An action is never renamed: its first bit says "an empty context list".
        if kind == Kind::Action
            && let Wire::Value(v) = v
            && empty_context(v)
        {
            bits |= 1 << (2 * i);
        }
        let seen = names.get(..i).unwrap_or_default();
        if seen.contains(&name) || (weight.is_some() && name == "weight") {
            return None;
        }
        if let Some(slot) = names.get_mut(i) {
            *slot = name;
        }
    }
    let mut out: Vec<(PropName, Value)> = Vec::with_capacity(n);
    for (i, (key, v)) in std::mem::take(entries).into_iter().enumerate() {
        let converted = bits & (1 << (2 * i + 1)) != 0;
        let kind = kind(ty, key.as_ref());
        let value = match v {
            Wire::Value(v) => take(kind, v, converted),
            Wire::One(k, x) => take_one(kind, k, x, converted),
        };
        match renamed(ty, key.as_ref()) {
            Some(name) => out.push((name.into_prop_name(), value)),
            None => out.push((key.into_prop_name(), value)),
        }
    }
    if let Some(w) = weight.take() {
        bits |= WEIGHT;
        out.push(("weight".into_prop_name(), w));
    }
    // The names are distinct (checked above): written straight into the stored form.
    let props = StoredProps::from_pairs(out.len(), out.iter().map(|(k, v)| (k.as_str(), v)));
    Some((props, V08Wire(NonZeroU64::new(bits)?)))
}

impl V08Wire {
    /// The wire properties of a component of wire type `ty` whose normalised properties are
    /// `props` (built by [`normalise_canonical`] with this recipe).
    pub(crate) fn derive(self, ty: &str, props: &Props) -> Props {
        let bits = self.0.get();
        let mut n = props.len();
        if bits & WEIGHT != 0 {
            n = n.saturating_sub(1);
        }
        props
            .iter()
            .take(n)
            .enumerate()
            .map(|(i, (name, v))| {
                let first = bits & (1 << (2 * i)) != 0;
                let key = if first && name != "action" {
                    wire_name(ty, name).unwrap_or(name)
                } else {
                    name
                };
                let value = if bits & (1 << (2 * i + 1)) != 0 {
                    give_back(kind(ty, key), v, first)
                } else {
                    v.clone()
                };
                (key, value)
            })
            .collect()
    }
}

/// True when `map` is a v0.8 BoundValue: a non-empty object whose keys are all among
/// `path` and the `literal*` keys.
pub fn is_bound_value(map: &Map<String, Value>) -> bool {
    !map.is_empty()
        && map.keys().all(|k| {
            matches!(
                k.as_str(),
                "path" | "literalString" | "literalNumber" | "literalBoolean" | "literalArray"
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn entries(v: Value) -> Vec<(String, Wire<'static>)> {
        match v {
            Value::Object(m) => m.into_iter().map(|(k, v)| (k, Wire::Value(v))).collect(),
            _ => Vec::new(),
        }
    }

    /// The same entries with every one-key object as [`Wire::One`], as the fast path reads
    /// them.
    fn entries_one(v: Value) -> Vec<(String, Wire<'static>)> {
        entries(v)
            .into_iter()
            .map(|(k, w)| match w {
                Wire::Value(Value::Object(m)) if m.len() == 1 => {
                    let (ok, ov) = m.into_iter().next().unwrap_or_default();
                    (k, Wire::One(Cow::Owned(ok), ov))
                }
                other => (k, other),
            })
            .collect()
    }

    /// The recipe's promise: the normalised props are the general normaliser's, and the
    /// derived wire props are the props as sent.
    fn round_trip(ty: &str, wire: Value, weight: Option<Value>) -> bool {
        let mut e = entries(wire.clone());
        let mut w = weight.clone();
        let result = normalise_canonical(ty, &mut e, &mut w);
        // The fast path's reading gives the same.
        let mut e1 = entries_one(wire.clone());
        let mut w1 = weight.clone();
        assert_eq!(
            normalise_canonical(ty, &mut e1, &mut w1),
            result,
            "{ty} {wire}"
        );
        let Some((props, recipe)) = result else {
            assert_eq!(e, entries(wire.clone()), "nothing consumed on a give-up");
            assert_eq!(e1, entries_one(wire), "nothing consumed on a give-up");
            assert_eq!(w, weight);
            return false;
        };
        let map = wire.as_object().cloned().unwrap_or_default();
        let (_, general) = super::super::v0_8::normalise(ty, &map, weight);
        assert_eq!(props, general, "{ty} {wire}");
        let props = props.to_props();
        assert!(props.iter().eq(general.iter()), "same order: {ty} {wire}");
        let derived = recipe.derive(ty, &props);
        // In order, nested objects too: the text is the same.
        assert_eq!(
            serde_json::to_string(&derived).ok(),
            serde_json::to_string(&wire).ok(),
            "{ty}"
        );
        true
    }

    /// Any JSON value from a vocabulary that hits the normaliser's cases, canonical
    /// BoundValues, child lists and actions among them.
    fn any_value() -> impl proptest::strategy::Strategy<Value = Value> {
        use proptest::prelude::*;
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            (-3i64..300).prop_map(|n| json!(n)),
            Just(json!(1.5)),
            prop::sample::select(vec!["x", "scale-down", "/p", "primary", "", "go"])
                .prop_map(|s| json!(s)),
        ];
        let canonical = prop_oneof![
            Just(json!({"literalString": "x"})),
            Just(json!({"literalNumber": 3})),
            Just(json!({"literalBoolean": true})),
            Just(json!({"literalArray": ["a"]})),
            Just(json!({"path": "/p"})),
            Just(json!({"explicitList": ["a", "b"]})),
            Just(json!({"template": {"componentId": "t", "dataBinding": "/i"}})),
            Just(json!({"name": "go"})),
            Just(json!({"name": "go", "context": []})),
            Just(
                json!({"name": "go", "context": [{"key": "k", "value": {"path": "/v"}},
                                                  {"key": "l", "value": {"literalString": "s"}}]})
            ),
        ];
        let leaf = prop_oneof![3 => leaf, 2 => canonical];
        leaf.prop_recursive(4, 24, 4, |inner| {
            let keys = prop::sample::select(vec![
                "literalString",
                "literalNumber",
                "literalBoolean",
                "literalArray",
                "path",
                "explicitList",
                "template",
                "componentId",
                "dataBinding",
                "name",
                "context",
                "key",
                "value",
                "title",
            ]);
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                prop::collection::vec((keys, inner), 0..4).prop_map(|kv| {
                    Value::Object(kv.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
                }),
            ]
        })
    }

    proptest::proptest! {
        #![proptest_config(proptest::test_runner::Config { cases: 2000, ..Default::default() })]
        /// Whatever a component is sent with, a recipe (when given) gives back exactly that,
        /// and the normalised props are the general normaliser's.
        #[test]
        fn any_component_round_trips_or_keeps_its_wire_props(
            ty in proptest::sample::select(vec![
                "Text", "Row", "Column", "List", "Button", "Image", "Modal", "TextField",
                "Slider", "Tabs", "CheckBox", "MultipleChoice", "Icon",
            ]),
            props in proptest::collection::vec((proptest::sample::select(vec![
                "children", "action", "distribution", "alignment", "entryPointChild",
                "contentChild", "tabItems", "text", "textFieldType", "usageHint", "altText",
                "fit", "minValue", "maxValue", "primary", "variant", "justify", "align",
                "value", "weight", "label", "name", "child", "min",
            ]), any_value()), 0..6),
            weight in proptest::option::of(proptest::prelude::Just(json!(2))),
        ) {
            let wire: Map<String, Value> =
                props.into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
            // About 40 % of these get a recipe (checked when the test was written).
            round_trip(ty, Value::Object(wire), weight);
        }
    }

    #[test]
    fn canonical_shapes_round_trip_and_others_are_kept_as_sent() {
        let yes = [
            (
                "Text",
                json!({"text": {"literalString": "Hi"}, "usageHint": "h1"}),
            ),
            ("Text", json!({"text": {"path": "/a"}})),
            (
                "Text",
                json!({"text": "bare", "other": {"x": [1, {"path": "/p"}]}}),
            ),
            (
                "Column",
                json!({"children": {"explicitList": ["a", "b"]}, "distribution": "start", "alignment": {"literalString": "center"}}),
            ),
            (
                "List",
                json!({"children": {"template": {"componentId": "t", "dataBinding": "/items"}}}),
            ),
            ("Row", json!({"children": ["bare"]})),
            (
                "Button",
                json!({"child": "l", "primary": true, "action": {"name": "go"}}),
            ),
            ("Button", json!({"action": {"name": "go", "context": []}})),
            (
                "Button",
                json!({"child": "l", "action": {"name": "go", "context": [
                {"key": "a", "value": {"literalString": "x"}},
                {"key": "b", "value": {"path": "/b"}},
                {"key": "c", "value": {"literalNumber": 2}},
                {"key": "d", "value": {"literalBoolean": false}},
                {"key": "e", "value": null}]}}),
            ),
            (
                "Image",
                json!({"url": {"path": "/u"}, "fit": "scale-down", "altText": {"literalString": "d"}}),
            ),
            ("Image", json!({"fit": "cover"})),
            (
                "Modal",
                json!({"entryPointChild": "a", "contentChild": "b"}),
            ),
            (
                "TextField",
                json!({"label": {"literalString": "L"}, "text": {"path": "/t"}, "textFieldType": "obscured"}),
            ),
            (
                "Slider",
                json!({"value": {"path": "/v"}, "minValue": 0, "maxValue": {"literalNumber": 9}}),
            ),
            (
                "Tabs",
                json!({"tabItems": {"literalArray": [{"title": "x"}]}}),
            ),
            (
                "CheckBox",
                json!({"value": {"literalBoolean": true}, "label": {"literalString": "c"}}),
            ),
            ("Text", json!({})),
            // v0.9 names sent in v0.8 are taken as sent.
            ("Text", json!({"variant": "h2"})),
            (
                "Row",
                json!({"justify": "start", "align": {"literalString": "end"}}),
            ),
            ("TextField", json!({"value": {"path": "/v"}})),
        ];
        for (ty, wire) in yes {
            assert!(round_trip(ty, wire.clone(), None), "{ty} {wire}");
            assert!(
                round_trip(ty, wire.clone(), Some(json!(2))),
                "{ty} {wire} weighted"
            );
        }
        let no = [
            ("MultipleChoice", json!({"selections": {"path": "/s"}})),
            (
                "Text",
                json!({"text": {"literalString": "x", "path": "/a"}}),
            ),
            ("Text", json!({"text": {"literalString": 5}})),
            ("Text", json!({"text": ["x", {"literalString": "y"}]})),
            ("Text", json!({"usageHint": "h1", "variant": "h2"})),
            ("Row", json!({"distribution": "start", "justify": "end"})),
            ("Button", json!({"action": {"name": "go", "extra": 1}})),
            ("Button", json!({"primary": false})),
            ("Button", json!({"usageHint": "x"})),
            ("Button", json!({"action": {"context": [], "name": "go"}})),
            (
                "Button",
                json!({"action": {"name": "go", "context": [{"key": "a", "value": "bare"}]}}),
            ),
            (
                "Button",
                json!({"action": {"name": "go", "context": [{"key": "a", "value": {"path": "/a"}}, {"key": "a", "value": {"path": "/b"}}]}}),
            ),
            (
                "Button",
                json!({"action": {"name": "go", "context": [{"value": {"path": "/a"}, "key": "a"}]}}),
            ),
            (
                "Button",
                json!({"action": {"name": "go", "context": {"a": 1}}}),
            ),
            ("TextField", json!({"usageHint": "x"})),
            (
                "Column",
                json!({"children": {"explicitList": ["a"], "x": 1}}),
            ),
            ("Column", json!({"children": {"explicitList": "a"}})),
            (
                "List",
                json!({"children": {"template": {"dataBinding": "/i", "componentId": "t"}}}),
            ),
            (
                "List",
                json!({"children": {"template": {"componentId": "t"}}}),
            ),
        ];
        for (ty, wire) in no {
            assert!(!round_trip(ty, wire.clone(), None), "{ty} {wire}");
        }
        // A wire `weight` beside the component-level one: two values for one name.
        assert!(round_trip("Text", json!({"weight": 1}), None));
        assert!(!round_trip("Text", json!({"weight": 1}), Some(json!(2))));
        // Too many properties for a recipe.
        let many: Map<String, Value> = (0..40).map(|i| (format!("k{i}"), json!(i))).collect();
        assert!(round_trip(
            "Text",
            Value::Object(
                many.iter()
                    .take(31)
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect()
            ),
            None
        ));
        assert!(!round_trip("Text", Value::Object(many.clone()), None));
    }
}
