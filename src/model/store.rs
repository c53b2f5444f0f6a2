//! The store of every surface a renderer knows, and the rules that apply agent messages to
//! them (A2UI [protocol], server-to-client messages).
//!
//! [protocol]: https://a2ui.org/specification/v0.9-a2ui/

use std::collections::HashSet;
use std::sync::Arc;

use indexmap::IndexMap;
use serde_json::Value;

use super::{
    AgentOrigin, Catalogs, ChangeSource, Component, DataModel, DataObserver, Surface, Watch,
};
use crate::action::Event;
use crate::error::{A2uiError, Rejected};
use crate::eval::agent_calls::AgentCalls;
use crate::limits::Limits;
use crate::protocol::{
    ComponentDef, CreateSurface, Envelope, Message, Version, parse_message_owned,
    parse_message_text,
};
use crate::stream::Frame;

/// What applying one message did ([`SurfaceStore::apply`]).
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Applied {
    /// A surface was created (v0.9+ `createSurface`, v0.8 `beginRendering`).
    Created {
        /// The surface.
        surface_id: String,
    },
    /// A surface's components or data model changed (v0.8 may create it implicitly).
    Changed {
        /// The surface.
        surface_id: String,
    },
    /// A surface was deleted; whoever keeps state for it (drawing caches, pending agent
    /// calls) lets it go.
    Deleted {
        /// The surface.
        surface_id: String,
    },
    /// The store answered a v1.0 function RPC: a `rendererFunctionResponse` (or its
    /// `error`) for `callRendererFunction`, or the `INVALID_FUNCTION_CALL` error for an
    /// `agentFunctionResponse` no pending call has. The same message is queued in
    /// [`SurfaceStore::take_outgoing`].
    Replied(Value),
    /// An `agentFunctionResponse` settled a pending `callAgentFunction`; the bindings that
    /// wait for it resolve on the next frame.
    Settled {
        /// The call.
        function_call_id: String,
    },
    /// The message was rejected; nothing changed. The error is also recorded in the store.
    Rejected(Rejected),
}

impl Applied {
    /// `Err` for a rejection, else `Ok(self)`.
    pub fn into_result(self) -> Result<Self, A2uiError> {
        match self {
            Self::Rejected(r) => Err(r.error),
            other => Ok(other),
        }
    }

    /// The error of a rejection.
    pub fn error(&self) -> Option<&A2uiError> {
        match self {
            Self::Rejected(r) => Some(&r.error),
            _ => None,
        }
    }

    /// The surface the message concerned, when known.
    pub fn surface_id(&self) -> Option<&str> {
        match self {
            Self::Created { surface_id }
            | Self::Changed { surface_id }
            | Self::Deleted { surface_id } => Some(surface_id),
            Self::Replied(_) | Self::Settled { .. } => None,
            Self::Rejected(r) => r.surface_id.as_deref(),
        }
    }
}

/// A surface and what a frame's walk reads beside it ([`SurfaceStore::surface_frame_mut`]).
pub(crate) struct FrameParts<'a> {
    pub surface: &'a mut Surface,
    pub catalogs: &'a Catalogs,
    pub limits: &'a Limits,
    pub agent_calls: &'a AgentCalls,
    pub origin: Option<&'a AgentOrigin>,
}

/// Push `item`; a queue already holding `max` items first drops its oldest quarter (so a
/// flood costs amortised O(1) per item, not a shift of the whole queue each time).
fn push_bounded<T>(queue: &mut Vec<T>, item: T, max: usize) {
    if max == 0 {
        return;
    }
    if queue.len() >= max {
        let drop = (max / 4).max(1).max(queue.len() + 1 - max);
        queue.drain(..drop.min(queue.len()));
    }
    queue.push(item);
}

/// The version a raw message claims, for error attribution: none is v0.8, one we do not
/// speak is answered in v0.9.
fn message_version(v: &Value) -> Version {
    match v.get("version").and_then(Value::as_str) {
        None => Version::V0_8,
        Some(s) => Version::from_wire(s).unwrap_or(Version::V0_9),
    }
}

/// Many surfaces keyed by `surfaceId`, plus the errors met while applying messages.
///
/// A store is plain data: a [`crate::render::DrawState`] draws any store its host owns,
/// and [`crate::render::Renderer`] bundles one of each.
#[derive(Debug)]
pub struct SurfaceStore {
    id: StoreId,
    surfaces: IndexMap<String, Surface, super::IdHasher>,
    catalogs: Arc<Catalogs>,
    limits: Limits,
    errors: Vec<Rejected>,
    outgoing: Vec<Event>,
    agent_calls: AgentCalls,
    messages_seen: usize,
    revision: u64,
    strict: bool,
    origin: Option<Arc<AgentOrigin>>,
    #[cfg(feature = "validation")]
    validator: Option<Arc<crate::validate::SchemaValidator>>,
}

impl Default for SurfaceStore {
    /// [`SurfaceStore::basic`].
    fn default() -> Self {
        Self::basic()
    }
}

pub use crate::stored::StoreId;

impl Clone for SurfaceStore {
    fn clone(&self) -> Self {
        Self {
            id: StoreId::next(),
            // Its surfaces are other surfaces to a drawing state (own widget ids, own
            // caches), as the store is another store.
            surfaces: self
                .surfaces
                .iter()
                .map(|(id, surface)| {
                    let mut surface = surface.clone();
                    surface.renew_serial();
                    (id.clone(), surface)
                })
                .collect(),
            catalogs: self.catalogs.clone(),
            limits: self.limits.clone(),
            errors: self.errors.clone(),
            outgoing: self.outgoing.clone(),
            // The pending calls belong to the original's conversation with its agent.
            agent_calls: AgentCalls::with_max(self.limits.max_agent_calls),
            messages_seen: self.messages_seen,
            revision: self.revision,
            strict: self.strict,
            origin: self.origin.clone(),
            #[cfg(feature = "validation")]
            validator: self.validator.clone(),
        }
    }
}

impl SurfaceStore {
    /// This store's identity (see [`StoreId`]).
    pub fn id(&self) -> StoreId {
        self.id
    }

    /// An empty store that accepts the catalogs `catalogs` describes (and only those), with
    /// default limits. From an egui [`Catalog`](crate::render::catalog::Catalog):
    /// `SurfaceStore::new(catalog.catalogs())`, so every catalog the host registered there,
    /// its own included, is accepted here.
    pub fn new(catalogs: impl Into<Arc<Catalogs>>) -> Self {
        Self::with_config(catalogs, Limits::default())
    }

    /// An empty store that accepts the basic (and minimal) catalogs only, with default
    /// limits: for hosts that draw nothing else (an egui-free consumer, a test). A host with
    /// catalogs of its own uses [`Self::new`].
    pub fn basic() -> Self {
        Self::new(Catalogs::basic())
    }

    /// An empty store with these catalogs and limits.
    pub fn with_config(catalogs: impl Into<Arc<Catalogs>>, limits: Limits) -> Self {
        Self {
            id: StoreId::next(),
            surfaces: IndexMap::default(),
            catalogs: catalogs.into(),
            agent_calls: AgentCalls::with_max(limits.max_agent_calls),
            limits,
            errors: Vec::new(),
            outgoing: Vec::new(),
            messages_seen: 0,
            revision: 0,
            strict: false,
            origin: None,
            #[cfg(feature = "validation")]
            validator: None,
        }
    }

    /// Say who this store's surfaces come from (the transports set it from what they
    /// connected to; a host feeding a store itself sets it). With an origin, the renderer
    /// frames every surface of the store and labels it, its `Modal` dialogs and its obscured
    /// text fields with the origin (see
    /// [`RendererOptions::show_origin`](crate::render::RendererOptions::show_origin)): the agent
    /// cannot draw outside that frame or name itself in it.
    pub fn set_origin(&mut self, origin: Option<AgentOrigin>) {
        self.origin = origin.map(Arc::new);
        self.revision += 1;
    }

    /// Who this store's surfaces come from, when the host or transport said.
    pub fn origin(&self) -> Option<&AgentOrigin> {
        self.origin.as_deref()
    }

    /// The limits in force.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Change the limits (applies to later messages).
    pub fn set_limits(&mut self, limits: Limits) {
        self.agent_calls.set_max(limits.max_agent_calls);
        self.limits = limits;
    }

    /// The known catalogs.
    pub fn catalogs(&self) -> &Catalogs {
        &self.catalogs
    }

    /// Mutable access to the known catalogs, to register a host's own.
    pub fn catalogs_mut(&mut self) -> &mut Catalogs {
        Arc::make_mut(&mut self.catalogs)
    }

    /// Every live surface, in creation order.
    pub fn surfaces(&self) -> impl Iterator<Item = &Surface> {
        self.surfaces.values()
    }

    /// A surface by id.
    pub fn surface(&self, id: &str) -> Option<&Surface> {
        self.surfaces.get(id)
    }

    /// Observe `path` of surface `surface_id`'s data model (see
    /// [`model::observe`](super::observe)): every later change there, by the agent, the
    /// user or the host, is queued in the returned handle until it is dropped. The handle
    /// is detached when the surface is deleted.
    ///
    /// Errors: `SURFACE_NOT_FOUND`; an invalid pointer; `LIMIT_EXCEEDED` past
    /// [`MAX_OBSERVERS`](super::MAX_OBSERVERS) observers of one surface.
    pub fn observe(
        &mut self,
        surface_id: &str,
        path: &str,
        watch: Watch,
    ) -> Result<DataObserver, A2uiError> {
        self.surfaces
            .get_mut(surface_id)
            .ok_or_else(|| A2uiError::SurfaceNotFound(surface_id.to_owned()))?
            .data
            .observe(path, watch)
    }

    /// A surface by id, mutably (user edits write its data model).
    pub fn surface_mut(&mut self, id: &str) -> Option<&mut Surface> {
        self.revision += 1;
        self.surfaces.get_mut(id)
    }

    /// Remove components, as `(surface id, component id)` pairs: the one door for taking
    /// components out of a surface outside a message (the model-text stream retires the
    /// placeholders its later messages no longer refer to, see
    /// [`ModelTextStream::take_retired`](crate::stream::model_text::ModelTextStream::take_retired)).
    /// A surface whose components changed gets a new revision; unknown ids are skipped.
    /// Returns how many components were removed.
    pub fn retire(&mut self, ids: impl IntoIterator<Item = (String, String)>) -> usize {
        let mut removed = 0;
        for (sid, id) in ids {
            let Some(s) = self.surfaces.get_mut(&sid) else {
                continue;
            };
            if s.components().contains_key(&id) && s.components_mut().remove(&id).is_some() {
                removed += 1;
            }
        }
        if removed > 0 {
            self.revision += 1;
        }
        removed
    }

    /// A surface mutably together with what a frame's walk reads beside it (the catalogs,
    /// the limits, the pending agent calls), without cloning any.
    pub(crate) fn surface_frame_mut(&mut self, id: &str) -> Option<FrameParts<'_>> {
        self.revision += 1;
        let surface = self.surfaces.get_mut(id)?;
        Some(FrameParts {
            surface,
            catalogs: &self.catalogs,
            limits: &self.limits,
            agent_calls: &self.agent_calls,
            origin: self.origin.as_deref(),
        })
    }

    /// Bumped on every change to any surface.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// How many messages [`Self::apply`] has numbered.
    pub fn messages_seen(&self) -> usize {
        self.messages_seen
    }

    /// Failures recorded so far, oldest first; draining clears them. At most
    /// [`Limits::max_pending_messages`] are kept (past it the oldest quarter is dropped).
    /// The same failures are owed to the agent through [`Self::take_outgoing`].
    pub fn take_errors(&mut self) -> Vec<Rejected> {
        std::mem::take(&mut self.errors)
    }

    /// Failures recorded so far, without draining.
    pub fn errors(&self) -> &[Rejected] {
        &self.errors
    }

    /// Record a failure found outside `apply` (framing, rendering) and owe it to the
    /// agent.
    pub fn report(&mut self, failure: Rejected) {
        self.push_outgoing(Event::Error(failure.clone()));
        push_bounded(&mut self.errors, failure, self.limits.max_pending_messages);
    }

    /// Take what the store owes the agent, oldest first: an [`Event::Error`] per rejected
    /// message, an [`Event::Reply`] per answered RPC, and a `callAgentFunction`
    /// ([`Event::Reply`]) per agent function a binding started to wait for.
    /// [`crate::render::DrawState`] drains this into its events; a host that draws
    /// nothing drains it itself.
    #[must_use = "these are messages owed to the agent: dropping them loses them"]
    pub fn take_outgoing(&mut self) -> Vec<Event> {
        let mut out = std::mem::take(&mut self.outgoing);
        out.extend(
            self.agent_calls
                .drain_outgoing()
                .into_iter()
                .map(|call| Event::Reply(call.to_message())),
        );
        out
    }

    fn push_outgoing(&mut self, event: Event) {
        push_bounded(&mut self.outgoing, event, self.limits.max_pending_messages);
    }

    /// Check every later message against the official schemas first, with the catalog
    /// of its surface (the one a `createSurface` names, else the target surface's default;
    /// see [`SchemaValidator::validate_for`](crate::validate::SchemaValidator::validate_for)).
    #[cfg(feature = "validation")]
    pub fn set_validator(&mut self, validator: Option<Arc<crate::validate::SchemaValidator>>) {
        self.validator = validator;
    }

    /// Strict mode, as the official conformance suites' `strictMode`: a component type
    /// must be one its catalog defines and a function one its catalog declares (v1.0:
    /// also a system function that exists, and component ids are UAX #31 identifiers), a
    /// message nests at most [`STRICT_MAX_NESTING`](super::STRICT_MAX_NESTING) levels, and
    /// an `updateComponents` leaves one tree; else the message is rejected. Off by default:
    /// a renderer draws what it can and shows a placeholder for the rest.
    pub fn set_strict(&mut self, strict: bool) {
        self.strict = strict;
    }

    /// Whether strict mode is on ([`Self::set_strict`]).
    pub fn is_strict(&self) -> bool {
        self.strict
    }

    /// The one way in: apply one agent message ([`Frame`]: a JSON value, its JSON text, or
    /// the error that kept it from being framed; `Value`, `&Value`, `&str` and every
    /// framing of [`crate::stream`] convert), numbering it, and say what happened. The
    /// message is parsed once (a value by value: its components and data move into the
    /// surface; a text straight into the message types). A rejected message changes
    /// nothing (except a v1.0 `createSurface` with inline content, applied in three steps
    /// as the spec allows); its failure is recorded ([`Self::errors`]) and owed to the
    /// agent ([`Self::take_outgoing`]), as are the answers to v1.0 function RPCs.
    /// [`Self::feed_document`], [`crate::render::Renderer`], the MCP
    /// [`AppSession`](crate::mcp::AppSession) and the transports all come through here.
    #[must_use = "says whether the message was rejected (the failure is also kept in `errors`)"]
    pub fn apply<'a>(&mut self, frame: impl Into<Frame<'a>>) -> Applied {
        match frame.into() {
            Frame::Value(value) => self.apply_value_frame(value),
            Frame::Text(text) => self.apply_text_frame(text),
            Frame::Model(message) => self.apply_model_frame(message),
            Frame::Error(error) => {
                let index = self.next_index();
                self.reject(None, Version::V0_9, index, error)
            }
        }
    }

    fn next_index(&mut self) -> usize {
        let index = self.messages_seen;
        self.messages_seen += 1;
        index
    }

    fn apply_value_frame(&mut self, value: Value) -> Applied {
        let index = self.next_index();
        // Read for error attribution only; the message itself is parsed once, below.
        let version = message_version(&value);
        let hint = crate::protocol::surface_id_hint(&value);
        if let Err(error) = self.check_value(&value, hint.as_deref()) {
            return self.reject(hint, version, index, error);
        }
        match parse_message_owned(value).and_then(|env| self.apply_envelope(env)) {
            Ok(applied) => applied,
            Err(error) => self.reject(hint, version, index, error),
        }
    }

    /// Strict mode's nesting check and the schema validator, on a message's value.
    fn check_value(&self, value: &Value, hint: Option<&str>) -> Result<(), A2uiError> {
        if self.strict {
            super::strict::check_nesting(value)?;
        }
        #[cfg(feature = "validation")]
        if let Some(v) = &self.validator {
            v.validate_for(value, self.schema_catalog(value, hint))?;
        }
        #[cfg(not(feature = "validation"))]
        let _ = hint;
        Ok(())
    }

    /// A message yielded from model text, applied as it is: a partial component update
    /// parsed from the components it shares with the parser (its JSON value is never
    /// built, unless strict mode or the schema validator reads it), any other message
    /// from its value, borrowed.
    fn apply_model_frame(&mut self, message: &crate::stream::model_text::ModelMessage) -> Applied {
        #[cfg(feature = "validation")]
        let via_value = self.strict || self.validator.is_some();
        #[cfg(not(feature = "validation"))]
        let via_value = self.strict;
        let shared = message.shared_components().filter(|_| !via_value);
        let Some((surface_id, components)) = shared else {
            let value = message.value();
            let index = self.next_index();
            let version = message_version(value);
            let hint = crate::protocol::surface_id_hint(value);
            if let Err(error) = self.check_value(value, hint.as_deref()) {
                return self.reject(hint, version, index, error);
            }
            return match crate::protocol::parse_message(value)
                .and_then(|env| self.apply_envelope(env))
            {
                Ok(applied) => applied,
                Err(error) => self.reject(hint, version, index, error),
            };
        };
        let index = self.next_index();
        let wire = message.components_version();
        let version = match wire {
            None => Some(Version::V0_8),
            Some(v) => Version::from_wire(v),
        };
        let result = match version {
            Some(v) => crate::protocol::parse_shared_components(v, surface_id, components),
            None => Err(A2uiError::UnsupportedVersion(
                wire.unwrap_or_default().to_owned(),
            )),
        };
        match result.and_then(|env| self.apply_envelope(env)) {
            Ok(applied) => applied,
            Err(error) => self.reject(
                Some(surface_id.to_owned()),
                version.unwrap_or(Version::V0_9),
                index,
                error,
            ),
        }
    }

    /// The catalog a message is checked against by the schema validator: the one a
    /// `createSurface` names, else the default catalog of the surface it targets.
    #[cfg(feature = "validation")]
    fn schema_catalog<'m>(&'m self, value: &'m Value, surface_id: Option<&str>) -> Option<&'m str> {
        value
            .pointer("/createSurface/catalogId")
            .and_then(Value::as_str)
            .or_else(|| {
                surface_id
                    .and_then(|s| self.surfaces.get(s))
                    .and_then(|s| s.catalog_id.as_deref())
            })
    }

    fn apply_text_frame(&mut self, text: &str) -> Applied {
        // Strict mode and the schema validator check the JSON value first.
        #[cfg(feature = "validation")]
        let via_value = self.strict || self.validator.is_some();
        #[cfg(not(feature = "validation"))]
        let via_value = self.strict;
        if via_value {
            return match serde_json::from_str::<Value>(text) {
                Ok(value) => self.apply_value_frame(value),
                Err(e) => self.apply(A2uiError::Json(e.to_string())),
            };
        }
        let index = self.next_index();
        match parse_message_text(text).and_then(|env| self.apply_envelope(env)) {
            Ok(applied) => applied,
            Err(error) => {
                // Attribution is read again from the text, so a message that applies pays
                // nothing for it.
                let hint = crate::protocol::surface_id_hint_text(text);
                let version = serde_json::from_str::<Value>(text)
                    .map_or(Version::V0_9, |v| message_version(&v));
                self.reject(hint, version, index, error)
            }
        }
    }

    /// Record a rejection and describe it for the agent: the version to answer in is the
    /// surface's when it is live, else the message's own.
    fn reject(
        &mut self,
        surface_id: Option<String>,
        version: Version,
        index: usize,
        error: A2uiError,
    ) -> Applied {
        let version = surface_id
            .as_deref()
            .and_then(|s| self.surfaces.get(s))
            .map_or(version, |s| s.version);
        let failure = Rejected::new(surface_id, version, error).at_message(index);
        self.report(failure.clone());
        Applied::Rejected(failure)
    }

    /// Frame a whole document (any accepted form) and apply every message in order.
    /// Errors are recorded per message and the rest still applies.
    pub fn feed_document(&mut self, bytes: &[u8]) {
        let limits = self.limits.clone();
        crate::stream::for_each_message_text(bytes, &limits, |f| {
            let _ = self.apply(f); // a rejection is recorded and owed to the agent
        });
    }

    /// Apply one parsed message (not numbered, not recorded: [`Self::apply`] does both).
    /// Never returns [`Applied::Rejected`]: a rejection is the `Err`.
    fn apply_envelope(&mut self, env: Envelope) -> Result<Applied, A2uiError> {
        let version = env.version;
        self.revision += 1;
        match env.message {
            Message::CreateSurface(cs) => {
                let surface_id = cs.surface_id.clone();
                self.create_surface(cs, version)
                    .map(|()| Applied::Created { surface_id })
            }
            Message::UpdateComponents {
                surface_id,
                components,
            } => {
                self.update_components(&surface_id, components, version)?;
                Ok(Applied::Changed { surface_id })
            }
            Message::UpdateDataModel { surface_id, writes } => {
                // The cap is on the surface's whole model, accounted at every write (see
                // `DataModel::byte_size`); a write past it is refused and changes nothing.
                // Writes of one message before a refused one stay applied.
                let max = self.limits.max_data_model_bytes;
                // A path is a JSON pointer: empty or starting with `/`, checked before
                // the surface is looked up.
                if let Some(w) = writes
                    .iter()
                    .find(|w| !w.path.is_empty() && !w.path.starts_with('/'))
                {
                    return Err(A2uiError::validation(
                        "/updateDataModel/path",
                        format!("{:?} is not a JSON pointer", w.path),
                    ));
                }
                // The store-wide cap: what the other surfaces hold leaves this one room.
                let others = self.data_bytes_except(&surface_id);
                let total = self.limits.max_total_data_model_bytes;
                let room = total.saturating_sub(others);
                let surface = self.target(&surface_id, version)?;
                for w in writes {
                    surface
                        .data
                        .set_by(ChangeSource::Agent, &w.path, w.value, Some(max.min(room)))
                        .map_err(|e| over_total(e, max, room, total, others))?;
                }
                Ok(Applied::Changed { surface_id })
            }
            Message::DeleteSurface { surface_id } => {
                // Deleting a surface that does not exist is a no-op (the official
                // message-processor suite, `test_delete_non_existent_surface_is_safe_noop`).
                self.surfaces.shift_remove(&surface_id);
                self.agent_calls.forget_surface(&surface_id);
                Ok(Applied::Deleted { surface_id })
            }
            Message::CallRendererFunction {
                function_call_id,
                call,
            } => {
                let reply = super::rpc::answer_renderer_function(
                    &function_call_id,
                    &call,
                    &self.catalogs,
                    &self.limits,
                );
                self.push_outgoing(Event::Reply(reply.clone()));
                Ok(Applied::Replied(reply))
            }
            Message::AgentFunctionResponse {
                function_call_id,
                result,
            } => {
                if self.agent_calls.answer(&function_call_id, result) {
                    return Ok(Applied::Settled { function_call_id });
                }
                let reply = serde_json::json!({
                    "version": "v1.0",
                    "error": {
                        "code": crate::error::codes::INVALID_FUNCTION_CALL,
                        "functionCallId": function_call_id,
                        "message": "no pending callAgentFunction has this id",
                    }
                });
                self.push_outgoing(Event::Reply(reply.clone()));
                Ok(Applied::Replied(reply))
            }
        }
    }

    fn create_surface(&mut self, cs: CreateSurface, version: Version) -> Result<(), A2uiError> {
        if let Some(cat) = &cs.catalog_id {
            match self.catalogs.get(cat) {
                None => return Err(A2uiError::CatalogNotFound(cat.clone())),
                // A catalog of another protocol version cannot be a surface's default.
                Some(info) if !info.serves(version) => {
                    return Err(A2uiError::validation(
                        "/createSurface/catalogId",
                        format!(
                            "catalog {cat:?} is a {} catalog; it does not match message protocol version ({version})",
                            info.versions
                        ),
                    ));
                }
                Some(_) => {}
            }
        }
        if version == Version::V0_8 {
            // beginRendering may follow surfaceUpdates that created the surface implicitly.
            if let Some(s) = self.surfaces.get_mut(&cs.surface_id) {
                if s.version != Version::V0_8 {
                    return Err(mismatch(s, version));
                }
                if s.began {
                    return Err(A2uiError::SurfaceExists(cs.surface_id));
                }
                s.began = true;
                s.root_id = cs.root_id;
                s.catalog_id = cs.catalog_id;
                s.theme = cs.theme;
                return Ok(());
            }
        } else if self.surfaces.contains_key(&cs.surface_id) {
            return Err(A2uiError::SurfaceExists(cs.surface_id));
        }
        self.check_surface_count()?;
        if let Some(dm) = &cs.data_model {
            check_value_size(dm, &self.limits)?;
            let others = self.data_bytes_except(&cs.surface_id);
            let actual = others.saturating_add(super::data_model::value_bytes(dm));
            if actual > self.limits.max_total_data_model_bytes {
                return Err(A2uiError::LimitExceeded {
                    what: "max_total_data_model_bytes",
                    limit: self.limits.max_total_data_model_bytes,
                    actual,
                });
            }
        }
        let mut s = Surface::new(cs.surface_id.clone(), version);
        s.began = true;
        s.catalog_id = cs.catalog_id;
        s.theme = cs.theme;
        s.send_data_model = cs.send_data_model;
        s.root_id = cs.root_id;
        let id = cs.surface_id;
        self.surfaces.insert(id.clone(), s);
        // v1.0 inline content: the surface exists even if a later step fails.
        if !cs.components.is_empty() {
            self.update_components(&id, cs.components, version)?;
        }
        if let Some(dm) = cs.data_model
            && let Some(s) = self.surfaces.get_mut(&id)
        {
            // The surface was created by this very message: nobody observes it yet.
            s.data = DataModel::new(dm);
        }
        Ok(())
    }

    /// The data-model bytes of every surface but `surface_id` (see
    /// [`Limits::max_total_data_model_bytes`]).
    fn data_bytes_except(&self, surface_id: &str) -> usize {
        self.surfaces
            .values()
            .filter(|s| s.id != surface_id)
            .map(|s| s.data.byte_size())
            .fold(0usize, usize::saturating_add)
    }

    /// The data-model bytes of every surface together (see
    /// [`Limits::max_total_data_model_bytes`]).
    pub fn total_data_bytes(&self) -> usize {
        self.surfaces
            .values()
            .map(|s| s.data.byte_size())
            .fold(0usize, usize::saturating_add)
    }

    fn check_surface_count(&self) -> Result<(), A2uiError> {
        if self.surfaces.len() >= self.limits.max_surfaces {
            return Err(A2uiError::LimitExceeded {
                what: "max_surfaces",
                limit: self.limits.max_surfaces,
                actual: self.surfaces.len() + 1,
            });
        }
        Ok(())
    }

    /// The surface a message targets: it must exist (v0.8 creates it implicitly) and speak
    /// the message's protocol family.
    fn target(&mut self, surface_id: &str, version: Version) -> Result<&mut Surface, A2uiError> {
        if !self.surfaces.contains_key(surface_id) {
            if version != Version::V0_8 {
                return Err(A2uiError::SurfaceNotFound(surface_id.to_owned()));
            }
            self.check_surface_count()?;
            self.surfaces.insert(
                surface_id.to_owned(),
                Surface::new(surface_id.to_owned(), Version::V0_8),
            );
        }
        let s = self
            .surfaces
            .get_mut(surface_id)
            .ok_or_else(|| A2uiError::SurfaceNotFound(surface_id.to_owned()))?;
        if s.version.family() != version.family() {
            return Err(mismatch(s, version));
        }
        Ok(s)
    }

    fn update_components(
        &mut self,
        surface_id: &str,
        defs: Vec<ComponentDef>,
        version: Version,
    ) -> Result<(), A2uiError> {
        let max = self.limits.max_components;
        // Validate everything before touching the surface.
        {
            let existing = self.surfaces.get(surface_id);
            if existing.is_none() && version != Version::V0_8 {
                return Err(A2uiError::SurfaceNotFound(surface_id.to_owned()));
            }
            if let Some(s) = existing
                && s.version.family() != version.family()
            {
                return Err(mismatch(s, version));
            }
            // Ids come from the agent: the randomly seeded hasher of the model's maps.
            let mut seen: HashSet<&str, super::IdHasher> =
                HashSet::with_capacity_and_hasher(defs.len(), Default::default());
            let mut new_ids = 0usize;
            for (i, d) in defs.iter().enumerate() {
                let base = || format!("/updateComponents/components/{i}");
                if !seen.insert(d.id.as_str()) {
                    return Err(A2uiError::validation(
                        format!("{}/id", base()),
                        format!("duplicate component id {:?} in one message", d.id),
                    ));
                }
                if version == Version::V1_0
                    && self.strict
                    && !crate::protocol::ident::is_identifier(&d.id)
                {
                    // v1.0 strict validation (`validator_v1_0.yaml`): ids are UAX #31
                    // identifiers. Lenient mode draws agents' `btn-1` ids as sent.
                    return Err(A2uiError::validation(
                        format!("{}/id", base()),
                        format!(
                            "Component id '{}' must be a valid Unicode identifier (UAX #31)",
                            d.id
                        ),
                    ));
                }
                if version == Version::V1_0 {
                    // Catalog resolution order: the component's own catalogId, then the
                    // surface default, else an error (no fallback).
                    let default = existing.and_then(|s| s.catalog_id.as_deref());
                    match d.catalog_id.as_deref().or(default) {
                        Some(cat) if self.catalogs.get(cat).is_none() => {
                            return Err(A2uiError::CatalogNotFound(cat.to_owned()));
                        }
                        Some(cat)
                            if self
                                .catalogs
                                .get(cat)
                                .is_some_and(|c| !c.serves(Version::V1_0)) =>
                        {
                            return Err(A2uiError::validation(
                                format!("{}/catalogId", base()),
                                format!(
                                    "component {:?} names {cat:?}, a catalog of another protocol version",
                                    d.id
                                ),
                            ));
                        }
                        None => {
                            return Err(A2uiError::validation(
                                format!("{}/catalogId", base()),
                                format!(
                                    "component {:?} names no catalogId and the surface has no default catalog",
                                    d.id
                                ),
                            ));
                        }
                        Some(cat) => {
                            super::strict::check_calls(
                                d.props.as_map(),
                                default,
                                &self.catalogs,
                                self.strict,
                                &base(),
                            )?;
                            let ty = d.wire_component().map(str::to_owned).or_else(|| {
                                existing
                                    .and_then(|s| s.components().get(&d.id))
                                    .map(|c| c.wire_component().to_owned())
                            });
                            if self.strict
                                && let Some(ty) = ty
                            {
                                super::strict::check_type(Some(cat), &ty, &self.catalogs, &base())?;
                            }
                        }
                    }
                } else if self.strict
                    && let Some(ty) = d.wire_component()
                {
                    let cat = existing.and_then(|s| s.catalog_id.as_deref());
                    super::strict::check_type(cat, ty, &self.catalogs, &base())?;
                }
                let known = existing.and_then(|s| s.components().get(&d.id));
                if known.is_none() {
                    new_ids += 1;
                    if d.component.is_none() {
                        return Err(A2uiError::validation(
                            format!("{}/component", base()),
                            format!("new component {:?} needs a component type", d.id),
                        ));
                    }
                }
            }
            let total = existing.map_or(0, |s| s.components().len()) + new_ids;
            if total > max {
                return Err(A2uiError::LimitExceeded {
                    what: "max_components",
                    limit: max,
                    actual: total,
                });
            }
        }
        let strict = self.strict;
        let surface = self.target(surface_id, version)?;
        // Strict mode checks the topology of the result and rolls back when it fails.
        let backup = strict.then(|| surface.components().clone());
        for d in defs {
            let ComponentDef {
                id,
                component,
                props,
                wire_props,
                wire_component,
                catalog_id,
                v08_wire,
            } = d;
            let make = |id: &str, prev: Option<&Arc<Component>>| {
                // An update without a type keeps the previous type and wire type.
                let kept = component.is_none();
                let component = component
                    .or_else(|| prev.map(|p| p.component().to_owned()))
                    .unwrap_or_default();
                let wire_component = match wire_component {
                    Some(w) => Some(w),
                    None if kept => prev.map(|p| p.wire_component().to_owned()),
                    None => None,
                };
                let generation = match prev {
                    Some(p) if p.component() == component => p.generation,
                    Some(p) => p.generation.wrapping_add(1),
                    None => 0,
                };
                let mut c = Component::from_stored(id, &component, &props)
                    .with_wire(wire_component, wire_props.map(|b| *b), catalog_id)
                    .with_v08_wire(v08_wire);
                c.generation = generation;
                Arc::new(c)
            };
            // Replace in place (keeping its first-arrival place) or append.
            surface.components_mut().upsert(&id, make);
        }
        if let Some(before) = backup
            && let Err(e) = super::strict::check_topology(surface)
        {
            *surface.components_mut() = before;
            return Err(e);
        }
        Ok(())
    }
}

fn mismatch(s: &Surface, version: Version) -> A2uiError {
    A2uiError::VersionMismatch {
        surface_id: s.id.clone(),
        surface_version: s.version.to_string(),
        message_version: version.to_string(),
    }
}

/// A refused write's error named after the store-wide cap when that one, not the
/// surface's, left too little room (`room` < `max`).
fn over_total(e: A2uiError, max: usize, room: usize, total: usize, others: usize) -> A2uiError {
    match e {
        A2uiError::LimitExceeded { actual, .. } if room < max => A2uiError::LimitExceeded {
            what: "max_total_data_model_bytes",
            limit: total,
            actual: others.saturating_add(actual),
        },
        e => e,
    }
}

/// A whole initial data model against `max_data_model_bytes`.
fn check_value_size(v: &Value, limits: &Limits) -> Result<(), A2uiError> {
    let actual = super::data_model::value_bytes(v);
    if actual > limits.max_data_model_bytes {
        return Err(A2uiError::LimitExceeded {
            what: "max_data_model_bytes",
            limit: limits.max_data_model_bytes,
            actual,
        });
    }
    Ok(())
}
