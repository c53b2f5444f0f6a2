//! The fast path of [`super::parse_message_text`]: one message's JSON text deserialized
//! straight into an [`Envelope`], without building a `serde_json::Value` for the envelope,
//! the message body, the component list or each component's `id`/`component`; a v0.9 /
//! v1.0 component's properties are written straight into their stored form
//! ([`StoredProps`](crate::stored::StoredProps)).
//!
//! It covers the bulk of a stream (versioned `updateComponents`, `updateDataModel` and
//! `deleteSurface` whose `version` comes first; every v0.8 message: a `surfaceUpdate`'s
//! components are read straight into their parts, the other bodies as one `Value` handed to
//! the v0.8 adapter) and accepts exactly what the `Value` path accepts, with the same
//! result. Anything else (another message type, a key out of the
//! usual order, a duplicate key, an object of more than 64 names among a component's
//! properties, anything the `Value` path would reject) makes it give up, and the caller
//! parses the text as a `Value` and takes the general path, which also words the errors. A
//! give-up costs a partial parse; the usual valid messages never take it.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

use super::v0_8_wire::Wire;
use super::{ComponentDef, CreateSurface, DataWrite, Envelope, Message, Version, v0_8, v0_9};
use crate::stored::compact::{EncodeScratch, EncodeValue, Str};

/// The message, or `None` when the general path must decide.
pub(super) fn parse(text: &str) -> Option<Envelope> {
    let mut scratch = Scratch::default();
    let mut de = serde_json::Deserializer::from_str(text);
    let env = EnvelopeSeed(&mut scratch).deserialize(&mut de).ok()?;
    de.end().ok()?;
    Some(env)
}

/// Where the entries of the objects and the items of the arrays being read wait until
/// their container ends and is allocated at its exact size (one stack per message, shared
/// by every nesting level, instead of a growing buffer per container).
#[derive(Default)]
struct Scratch {
    entries: Vec<(String, Value)>,
    items: Vec<Value>,
    /// The stored form of the v0.9 / v1.0 component being read.
    encoded: String,
    encoder: EncodeScratch,
}

/// The error that sends a message to the general path (its text is never shown).
fn give_up<E: de::Error>() -> E {
    E::custom("fast path gives up")
}

/// A JSON value like `serde_json::Value`'s own `Deserialize`, but every array and object is
/// allocated at its exact size (serde_json grows them by doubling, so a one-key object holds
/// room for three entries of 112 bytes each): the same value on a smaller heap.
struct ExactValue<'s>(&'s mut Scratch);

impl<'de> DeserializeSeed<'de> for ExactValue<'_> {
    type Value = Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ExactValue<'_> {
    type Value = Value;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let base = self.0.items.len();
        while let Some(v) = seq.next_element_seed(ExactValue(&mut *self.0))? {
            self.0.items.push(v);
        }
        Ok(Value::Array(self.0.items.drain(base..).collect()))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let base = self.0.entries.len();
        while let Some(k) = map.next_key::<String>()? {
            let v = map.next_value_seed(ExactValue(&mut *self.0))?;
            self.0.entries.push((k, v));
        }
        Ok(Value::Object(exact_map(self.0, base)))
    }
}

/// The entries on the scratch stack from `base` on, as a map of exactly their number.
/// Same as serde_json's own map: a repeated key keeps its place and takes the later value.
fn exact_map(scratch: &mut Scratch, base: usize) -> Map<String, Value> {
    scratch.entries.drain(base..).collect()
}

/// Store `value` in an empty slot; a second one (a duplicate key) gives up.
fn once<T, E: de::Error>(slot: &mut Option<T>, value: T) -> Result<(), E> {
    if slot.is_some() {
        return Err(give_up());
    }
    *slot = Some(value);
    Ok(())
}

struct EnvelopeSeed<'s>(&'s mut Scratch);

impl<'de> DeserializeSeed<'de> for EnvelopeSeed<'_> {
    type Value = Envelope;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Envelope, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for EnvelopeSeed<'_> {
    type Value = Envelope;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an A2UI message")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Envelope, A::Error> {
        match map.next_key::<Str<'de>>()? {
            Some(k) if k.0 == "version" => {}
            // No version: a v0.8 message, whose one key is its type.
            Some(k) => {
                let message = match &*k.0 {
                    "surfaceUpdate" => {
                        map.next_value_seed(UpdateComponents(Family::V08, self.0))?
                    }
                    "dataModelUpdate" => map.next_value_seed(DataModelUpdate08(self.0))?,
                    kind @ ("beginRendering" | "deleteSurface") => {
                        let body = map.next_value_seed(ExactValue(&mut *self.0))?;
                        let mut obj = Map::with_capacity(1);
                        obj.insert(kind.to_owned(), body);
                        v0_8::parse_owned(obj).map_err(|_| give_up())?
                    }
                    _ => return Err(give_up()),
                };
                if map.next_key::<IgnoredAny>()?.is_some() {
                    return Err(give_up());
                }
                return Ok(Envelope {
                    version: Version::V0_8,
                    message,
                });
            }
            None => return Err(give_up()),
        }
        let wire = map.next_value::<Str<'de>>()?;
        let version = Version::from_wire(&wire.0).ok_or_else(give_up)?;
        let Some(kind) = map.next_key::<Str<'de>>()? else {
            return Err(give_up());
        };
        let message = match &*kind.0 {
            "updateComponents" => {
                map.next_value_seed(UpdateComponents(Family::Flat(version), self.0))?
            }
            "updateDataModel" => map.next_value_seed(UpdateDataModel(version, self.0))?,
            "deleteSurface" => map.next_value_seed(DeleteSurface)?,
            // v1.0 adds inline content and metadata: the general path reads those.
            "createSurface" if version != Version::V1_0 => {
                map.next_value_seed(CreateSurfaceSeed(self.0))?
            }
            _ => return Err(give_up()),
        };
        if map.next_key::<IgnoredAny>()?.is_some() {
            return Err(give_up());
        }
        Ok(Envelope { version, message })
    }
}

/// The component shape of a protocol family, which is all the component-list visitors need
/// to know: v0.9/v1.0 flat components (`{id, component, ...props}`) or v0.8 wrapped ones
/// (`{id, weight?, component: {Type: {props}}}`).
#[derive(Clone, Copy)]
enum Family {
    /// v0.9 and v1.0, with the message's version.
    Flat(Version),
    /// v0.8.
    V08,
}

/// An `updateComponents` (v0.9/v1.0) or `surfaceUpdate` (v0.8) body: the same shape,
/// `{surfaceId, components: [...]}`, with the family's components.
struct UpdateComponents<'s>(Family, &'s mut Scratch);

impl<'de> DeserializeSeed<'de> for UpdateComponents<'_> {
    type Value = Message;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Message, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for UpdateComponents<'_> {
    type Value = Message;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self.0 {
            Family::Flat(_) => "updateComponents",
            Family::V08 => "surfaceUpdate",
        })
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Message, A::Error> {
        let (mut surface_id, mut components) = (None, None);
        while let Some(k) = map.next_key::<Str<'de>>()? {
            match &*k.0 {
                "surfaceId" => once(&mut surface_id, map.next_value::<String>()?)?,
                "components" => once(
                    &mut components,
                    map.next_value_seed(Components(self.0, &mut *self.1))?,
                )?,
                _ => return Err(give_up()),
            }
        }
        match (surface_id, components) {
            (Some(surface_id), Some(components)) if !components.is_empty() => {
                Ok(Message::UpdateComponents {
                    surface_id,
                    components,
                })
            }
            _ => Err(give_up()),
        }
    }
}

/// A component list of either family.
struct Components<'s>(Family, &'s mut Scratch);

impl<'de> DeserializeSeed<'de> for Components<'_> {
    type Value = Vec<ComponentDef>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for Components<'_> {
    type Value = Vec<ComponentDef>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a component list")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(16));
        loop {
            let next = match self.0 {
                Family::Flat(v) => seq.next_element_seed(Component(v, &mut *self.1))?,
                Family::V08 => seq.next_element_seed(Component08(&mut *self.1))?,
            };
            let Some(c) = next else { break };
            out.push(c);
        }
        Ok(out)
    }
}

struct Component<'s>(Version, &'s mut Scratch);

impl<'de> DeserializeSeed<'de> for Component<'_> {
    type Value = ComponentDef;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<ComponentDef, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Component<'_> {
    type Value = ComponentDef;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a component")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ComponentDef, A::Error> {
        let (mut id, mut component) = (None, None);
        // The properties are written in their stored form as they are read (no `Value`).
        let Scratch {
            encoded, encoder, ..
        } = &mut *self.1;
        encoded.clear();
        encoder.at_key = false;
        let mut mark = encoder.begin_object(encoded);
        while let Some(k) = map.next_key::<Str<'de>>()? {
            match &*k.0 {
                "id" => once(&mut id, map.next_value::<String>()?)?,
                "component" => once(&mut component, map.next_value::<String>()?)?,
                _ => {
                    encoder
                        .key(encoded, &mut mark, &k.0)
                        .map_err(|_| give_up::<A::Error>())?;
                    map.next_value_seed(EncodeValue {
                        out: &mut *encoded,
                        scratch: &mut *encoder,
                    })?;
                }
            }
        }
        let props = encoder.finish_props(encoded, mark);
        let id = id.ok_or_else(give_up)?;
        // What `component_fields` would change goes through it, as editable `Props`.
        if v0_9::fields_would_change(&props, component.as_deref(), self.0, encoder.at_key) {
            return v0_9::component_fields(id, component, props.to_props(), self.0, String::new)
                .map_err(|_| give_up());
        }
        Ok(ComponentDef {
            id,
            wire_component: None,
            component,
            wire_props: None,
            props,
            catalog_id: None,
            v08_wire: None,
        })
    }
}

/// A v0.8 component: `{id, weight?, component: {Type: {props}}}`.
struct Component08<'s>(&'s mut Scratch);

impl<'de> DeserializeSeed<'de> for Component08<'_> {
    type Value = ComponentDef;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<ComponentDef, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Component08<'_> {
    type Value = ComponentDef;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a v0.8 component")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ComponentDef, A::Error> {
        let (mut id, mut weight, mut wrapper) = (None, None, None);
        while let Some(k) = map.next_key::<Str<'de>>()? {
            match &*k.0 {
                "id" => once(&mut id, map.next_value::<String>()?)?,
                "weight" => match map.next_value_seed(ExactValue(&mut *self.0))? {
                    w @ Value::Number(_) => once(&mut weight, w)?,
                    _ => return Err(give_up()),
                },
                "component" => once(&mut wrapper, map.next_value_seed(Wrapper(&mut *self.0))?)?,
                _ => return Err(give_up()),
            }
        }
        let (Some(id), Some((wire_type, entries))) = (id, wrapper) else {
            return Err(give_up());
        };
        Ok(v0_8::component_parts(id, wire_type, entries, weight))
    }
}

/// Most wire properties the fast path reads for one v0.8 component (repeats are found by
/// scanning); a component with more takes the general path.
const MAX_V08_PROPS: usize = 64;

/// A v0.8 component's `{Type: {props}}`: the type name and the properties in wire order.
struct Wrapper<'s>(&'s mut Scratch);

/// A v0.8 component's properties as read: names (borrowed from the text when unescaped) and
/// values in wire order.
type WireEntries<'de> = Vec<(Cow<'de, str>, Wire<'de>)>;

impl<'de> DeserializeSeed<'de> for Wrapper<'_> {
    type Value = (String, WireEntries<'de>);
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Wrapper<'_> {
    type Value = (String, WireEntries<'de>);
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a v0.8 component wrapper")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let Some(ty) = map.next_key::<String>()? else {
            return Err(give_up());
        };
        let entries = map.next_value_seed(WireProps(&mut *self.0))?;
        if map.next_key::<IgnoredAny>()?.is_some() {
            return Err(give_up());
        }
        Ok((ty, entries))
    }
}

/// A v0.8 component's properties object, as `(name, value)` pairs in wire order; a repeated
/// name gives up.
struct WireProps<'s>(&'s mut Scratch);

impl<'de> DeserializeSeed<'de> for WireProps<'_> {
    type Value = WireEntries<'de>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for WireProps<'_> {
    type Value = WireEntries<'de>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("v0.8 component properties")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut out: WireEntries<'de> = Vec::with_capacity(map.size_hint().unwrap_or(4));
        while let Some(k) = map.next_key::<Str<'de>>()? {
            if out.len() >= MAX_V08_PROPS || out.iter().any(|(seen, _)| *seen == k.0) {
                return Err(give_up());
            }
            let v = map.next_value_seed(PropValue(&mut *self.0))?;
            out.push((k.0, v));
        }
        Ok(out)
    }
}

/// One v0.8 property value: a one-key object (most BoundValues, `explicitList`) is kept as
/// its key and value, without building its map; anything else is read as [`ExactValue`]
/// reads it.
struct PropValue<'s>(&'s mut Scratch);

impl<'de> DeserializeSeed<'de> for PropValue<'_> {
    type Value = Wire<'de>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Wire<'de>, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for PropValue<'_> {
    type Value = Wire<'de>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Wire<'de>, E> {
        Ok(Wire::Value(Value::Bool(v)))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Wire<'de>, E> {
        Ok(Wire::Value(Value::Number(v.into())))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Wire<'de>, E> {
        Ok(Wire::Value(Value::Number(v.into())))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Wire<'de>, E> {
        Ok(Wire::Value(
            serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number),
        ))
    }
    fn visit_str<E>(self, v: &str) -> Result<Wire<'de>, E> {
        Ok(Wire::Value(Value::String(v.to_owned())))
    }
    fn visit_string<E>(self, v: String) -> Result<Wire<'de>, E> {
        Ok(Wire::Value(Value::String(v)))
    }
    fn visit_none<E>(self) -> Result<Wire<'de>, E> {
        Ok(Wire::Value(Value::Null))
    }
    fn visit_unit<E>(self) -> Result<Wire<'de>, E> {
        Ok(Wire::Value(Value::Null))
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Wire<'de>, D::Error> {
        d.deserialize_any(self)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Wire<'de>, A::Error> {
        ExactValue(self.0).visit_seq(seq).map(Wire::Value)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Wire<'de>, A::Error> {
        let Some(k1) = map.next_key::<Str<'de>>()? else {
            return Ok(Wire::Value(Value::Object(Map::new())));
        };
        let v1 = map.next_value_seed(ExactValue(&mut *self.0))?;
        let Some(k2) = map.next_key::<String>()? else {
            return Ok(Wire::One(k1.0, v1));
        };
        // Two keys or more: the map, as `ExactValue` builds it.
        let base = self.0.entries.len();
        self.0.entries.push((k1.0.into_owned(), v1));
        let v2 = map.next_value_seed(ExactValue(&mut *self.0))?;
        self.0.entries.push((k2, v2));
        while let Some(k) = map.next_key::<String>()? {
            let v = map.next_value_seed(ExactValue(&mut *self.0))?;
            self.0.entries.push((k, v));
        }
        Ok(Wire::Value(Value::Object(exact_map(self.0, base))))
    }
}

/// A v0.8 `dataModelUpdate` body: `{surfaceId, path?, contents: [{key, value*}]}`.
struct DataModelUpdate08<'s>(&'s mut Scratch);

impl<'de> DeserializeSeed<'de> for DataModelUpdate08<'_> {
    type Value = Message;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Message, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for DataModelUpdate08<'_> {
    type Value = Message;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("dataModelUpdate")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Message, A::Error> {
        let (mut surface_id, mut path, mut contents) = (None, None, None);
        while let Some(k) = map.next_key::<Str<'de>>()? {
            match &*k.0 {
                "surfaceId" => once(&mut surface_id, map.next_value::<String>()?)?,
                "path" => once(&mut path, map.next_value::<String>()?)?,
                // The entries are read once the path is known (it may come after them).
                "contents" => once(
                    &mut contents,
                    map.next_value_seed(Contents08(&mut *self.0))?,
                )?,
                _ => return Err(give_up()),
            }
        }
        let (Some(surface_id), Some(contents)) = (surface_id, contents) else {
            return Err(give_up());
        };
        let base = v0_8::base_path(path.as_deref());
        let writes = contents
            .into_iter()
            .map(|(key, value)| DataWrite {
                path: v0_8::write_path(&base, &key),
                value,
            })
            .collect();
        Ok(Message::UpdateDataModel { surface_id, writes })
    }
}

/// A v0.8 `contents` list: each entry's key and value.
struct Contents08<'s>(&'s mut Scratch);

impl<'de> DeserializeSeed<'de> for Contents08<'_> {
    type Value = Vec<(String, Option<Value>)>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for Contents08<'_> {
    type Value = Vec<(String, Option<Value>)>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("v0.8 contents")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(8));
        while let Some(e) = seq.next_element_seed(Entry08(&mut *self.0))? {
            out.push(e);
        }
        Ok(out)
    }
}

/// The value keys of a v0.8 `contents` entry, in the order the adapter looks for them.
const ENTRY_VALUE_KEYS: [&str; 7] = [
    "valueNumber",
    "valueString",
    "valueBoolean",
    "valueObject",
    "valueArray",
    "valueMap",
    "value",
];

/// One v0.8 `contents` entry: its key and the value it writes (`None` deletes).
struct Entry08<'s>(&'s mut Scratch);

impl<'de> DeserializeSeed<'de> for Entry08<'_> {
    type Value = (String, Option<Value>);
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Entry08<'_> {
    type Value = (String, Option<Value>);
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a v0.8 contents entry")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut key = None;
        let mut values: [Option<Value>; 7] = Default::default();
        while let Some(k) = map.next_key::<Str<'de>>()? {
            if k.0 == "key" {
                once(&mut key, map.next_value::<String>()?)?;
                continue;
            }
            let Some(slot) = ENTRY_VALUE_KEYS
                .iter()
                .position(|name| *name == k.0)
                .and_then(|i| values.get_mut(i))
            else {
                return Err(give_up());
            };
            once(slot, map.next_value_seed(ExactValue(&mut *self.0))?)?;
        }
        let key = key.ok_or_else(give_up)?;
        let [number, string, boolean, object, array, value_map, value] = values;
        // `entry_value`'s order: the first typed value present wins.
        let typed = [
            (number, Value::is_number as fn(&Value) -> bool),
            (string, Value::is_string),
            (boolean, Value::is_boolean),
            (object, |_: &Value| true),
            (array, |_: &Value| true),
        ];
        for (v, ok) in typed {
            if let Some(v) = v {
                return if ok(&v) {
                    Ok((key, Some(v)))
                } else {
                    Err(give_up())
                };
            }
        }
        if let Some(m) = value_map {
            // Nested entries: the adapter's own reading of them.
            let mut entry = Map::with_capacity(1);
            entry.insert("valueMap".to_owned(), m);
            let v = v0_8::entry_value(entry, &String::new, 0).map_err(|_| give_up())?;
            return Ok((key, v));
        }
        Ok((key, value.filter(|v| !v.is_null())))
    }
}

struct UpdateDataModel<'s>(Version, &'s mut Scratch);

impl<'de> DeserializeSeed<'de> for UpdateDataModel<'_> {
    type Value = Message;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Message, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for UpdateDataModel<'_> {
    type Value = Message;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("updateDataModel")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Message, A::Error> {
        let (mut surface_id, mut path, mut value) = (None, None, None);
        while let Some(k) = map.next_key::<Str<'de>>()? {
            match &*k.0 {
                "surfaceId" => once(&mut surface_id, map.next_value::<String>()?)?,
                "path" => once(&mut path, map.next_value::<String>()?)?,
                "value" => once(&mut value, map.next_value_seed(ExactValue(&mut *self.1))?)?,
                _ => return Err(give_up()),
            }
        }
        let surface_id = surface_id.ok_or_else(give_up)?;
        if self.0 == Version::V1_0 && value.is_none() {
            return Err(give_up());
        }
        Ok(Message::UpdateDataModel {
            surface_id,
            writes: vec![DataWrite {
                path: path.unwrap_or_else(|| "/".to_owned()),
                value: value.filter(|v| !v.is_null()),
            }],
        })
    }
}

struct CreateSurfaceSeed<'s>(&'s mut Scratch);

impl<'de> DeserializeSeed<'de> for CreateSurfaceSeed<'_> {
    type Value = Message;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Message, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for CreateSurfaceSeed<'_> {
    type Value = Message;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("createSurface")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Message, A::Error> {
        let (mut surface_id, mut catalog_id, mut theme, mut send) = (None, None, None, None);
        while let Some(k) = map.next_key::<Str<'de>>()? {
            match &*k.0 {
                "surfaceId" => once(&mut surface_id, map.next_value::<String>()?)?,
                "catalogId" => once(&mut catalog_id, map.next_value::<String>()?)?,
                "theme" => match map.next_value_seed(ExactValue(&mut *self.0))? {
                    Value::Object(t) => once(&mut theme, t)?,
                    _ => return Err(give_up()),
                },
                "sendDataModel" => once(&mut send, map.next_value::<bool>()?)?,
                _ => return Err(give_up()),
            }
        }
        let (Some(surface_id), Some(catalog_id)) = (surface_id, catalog_id) else {
            return Err(give_up());
        };
        Ok(Message::CreateSurface(CreateSurface {
            surface_id,
            catalog_id: Some(catalog_id),
            theme: theme.unwrap_or_default(),
            send_data_model: send.unwrap_or(false),
            root_id: "root".to_owned(),
            components: Vec::new(),
            data_model: None,
        }))
    }
}

struct DeleteSurface;

impl<'de> DeserializeSeed<'de> for DeleteSurface {
    type Value = Message;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Message, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for DeleteSurface {
    type Value = Message;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("deleteSurface")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Message, A::Error> {
        let mut surface_id = None;
        while let Some(k) = map.next_key::<Str<'de>>()? {
            match &*k.0 {
                "surfaceId" => once(&mut surface_id, map.next_value::<String>()?)?,
                _ => return Err(give_up()),
            }
        }
        Ok(Message::DeleteSurface {
            surface_id: surface_id.ok_or_else(give_up)?,
        })
    }
}

/// The `surfaceId` of a message's text, read without validating it (for error
/// attribution; parses the text, so only call it for a message that failed).
pub(crate) fn surface_id_hint_text(text: &str) -> Option<String> {
    let value: Value = serde_json::from_str(text).ok()?;
    surface_id_hint(&value)
}

/// The `surfaceId` of a raw message, read without validating it (for error attribution).
pub(crate) fn surface_id_hint(value: &Value) -> Option<String> {
    value.as_object()?.iter().find_map(|(k, v)| {
        if k == "version" {
            return None;
        }
        v.get("surfaceId")?.as_str().map(str::to_owned)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every message of the official v0.8 examples takes the fast path (none gives up), and
    /// it gives what the `Value` path gives.
    #[test]
    fn the_official_v08_examples_take_the_fast_path() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/a2ui/specification/v0_8/json/catalogs");
        let mut stack = vec![root];
        let mut seen = 0;
        while let Some(dir) = stack.pop() {
            let Ok(rd) = std::fs::read_dir(&dir) else {
                continue;
            };
            for e in rd.flatten() {
                let p = e.path();
                if p.is_dir() {
                    stack.push(p);
                    continue;
                }
                if p.parent()
                    .and_then(std::path::Path::file_name)
                    .is_none_or(|n| n != "examples")
                {
                    continue;
                }
                let Some(Ok(doc)) = std::fs::read(&p)
                    .ok()
                    .map(|b| serde_json::from_slice::<Value>(&b))
                else {
                    continue;
                };
                let list = match doc {
                    Value::Array(a) => a,
                    Value::Object(mut o) => match o.remove("messages") {
                        Some(Value::Array(a)) => a,
                        _ => vec![Value::Object(o)],
                    },
                    _ => continue,
                };
                for m in list {
                    let text = m.to_string();
                    let fast = parse(&text);
                    assert!(fast.is_some(), "gave up on {text}");
                    assert_eq!(fast, super::super::parse_message_owned(m).ok());
                    seen += 1;
                }
            }
        }
        assert!(seen > 80, "{seen} messages");
    }

    fn update(version: &str, components: &str) -> String {
        format!(
            r#"{{"version":"{version}","updateComponents":{{"surfaceId":"s","components":{components}}}}}"#
        )
    }

    /// v0.9 and v1.0 components are written in their stored form straight from the text;
    /// the result is what the `Value` path gives, and what that path changes (v1.0 `@`
    /// names and catalog ids, the action shorthand, repeated names) still comes out the
    /// same.
    #[test]
    fn components_read_straight_into_the_stored_form_equal_the_value_path() {
        let cases = [
            // (components, takes the fast path in v0.9, in v1.0)
            (
                r#"[{"id":"t","component":"Text","text":{"path":"/a"},"variant":"h1"}]"#,
                true,
                true,
            ),
            (
                r#"[{"id":"b","component":"Button","child":"l","action":{"event":{"name":"go","context":{"row":12,"neg":-3,"f":0.5,"big":18446744073709551615,"e":1e300}}}}]"#,
                true,
                true,
            ),
            (
                r#"[{"component":"Row","id":"r","children":["a","b\u00e9\"q"],"myOwn":{"x":[],"y":{}}}]"#,
                true,
                true,
            ),
            (
                r#"[{"id":"l","component":"List","children":{"componentId":"t","path":"/items"}}]"#,
                true,
                true,
            ),
            (
                r#"[{"id":"c","component":"Custom","a\"b":1,"@path":"literal in v0.9","ünï":[null,true,false]}]"#,
                true,
                false,
            ),
            (
                r#"[{"id":"t","component":"Text","text":{"call":"formatString","args":{"value":"${/a}"}}}]"#,
                true,
                true,
            ),
            // The v0.9 action shorthand is rewritten by the general code.
            (
                r#"[{"id":"b","component":"Button","child":"l","action":{"name":"go","context":{"k":1}}}]"#,
                true,
                true,
            ),
            // Repeated names: the `Value` path decides (first place, last value).
            (
                r#"[{"id":"t","component":"Text","text":"a","text":"b"}]"#,
                false,
                false,
            ),
            (
                r#"[{"id":"t","component":"Text","text":{"path":"/a","path":"/b"}}]"#,
                false,
                false,
            ),
            (
                r#"[{"id":"t","component":"Text","x":{"own":1,"own":2}}]"#,
                false,
                false,
            ),
        ];
        for version in ["v0.9", "v1.0"] {
            for (components, fast09, fast10) in cases {
                let fast = if version == "v0.9" { fast09 } else { fast10 };
                let text = update(version, components);
                let value: Value = serde_json::from_str(&text).unwrap_or_default();
                let general = super::super::parse_message_owned(value).ok();
                let got = parse(&text);
                assert_eq!(got.is_some(), fast, "{version} {components}");
                if got.is_some() {
                    assert_eq!(got, general, "{version} {components}");
                }
            }
        }
        // v1.0 names and catalog ids go through the v1.0 normalisation.
        for components in [
            r#"[{"id":"t","component":"Text","text":{"@path":"/a"},"@accessibility":{"label":"x"}}]"#,
            r#"[{"id":"t","component":"Text","catalogId":"urn:c","text":"a"}]"#,
            r#"[{"id":"t","component":"Text","text":{"call":"f","args":{"v":{"@path":"/deep"}}}}]"#,
            r#"[{"id":"s","component":"Surface"}]"#,
        ] {
            let text = update("v1.0", components);
            let value: Value = serde_json::from_str(&text).unwrap_or_default();
            let general = super::super::parse_message_owned(value).ok();
            let got = parse(&text);
            assert!(
                got.is_none() || got == general,
                "{components}: {got:?} vs {general:?}"
            );
        }
    }

    use proptest::prelude::*;

    proptest::proptest! {
        /// Any component properties: the fast path gives what the `Value` path gives (or
        /// leaves the message to it).
        #[test]
        fn any_component_reads_as_the_value_path_reads_it(
            props in proptest::collection::vec(
                (
                    proptest::prop_oneof![
                        "[a-z@]{0,6}",
                        proptest::sample::select(vec!["text", "path", "call", "action", "children", "name", "event"]).prop_map(str::to_owned),
                    ],
                    crate::stored::compact::tests::arb_json(),
                ),
                0..6,
            ),
            version in proptest::sample::select(vec!["v0.9", "v1.0"]),
        ) {
            let mut obj = Map::new();
            obj.insert("id".into(), Value::from("x"));
            obj.insert("component".into(), Value::from("Text"));
            for (k, v) in props {
                if k != "id" && k != "component" {
                    obj.insert(k, v);
                }
            }
            let text = update(version, &Value::Array(vec![Value::Object(obj)]).to_string());
            let value: Value = serde_json::from_str(&text).unwrap_or_default();
            let general = super::super::parse_message_owned(value).ok();
            if let Some(got) = parse(&text) {
                proptest::prop_assert_eq!(Some(got), general);
            }
        }
    }
}
