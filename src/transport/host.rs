//! Host helpers: the I/O on a background thread with its own tokio runtime, the session (and
//! so the surfaces) on the UI thread, channels in between, and a repaint request on every
//! reply. An eframe app calls [`HttpHost::send`] from the prompt box or for an action,
//! [`HttpHost::poll`] once a frame, and draws [`HttpHost::session`]'s store.
//!
//! ```no_run
//! # #[cfg(feature = "a2a")] {
//! use egui_a2ui::Catalog;
//! use egui_a2ui::transport::{TransportOptions, Turn, a2a::A2aHost};
//!
//! // In an egui app: `{ let ctx = ctx.clone(); move || ctx.request_repaint() }`.
//! let repaint = || {};
//! let mut host = A2aHost::connect("http://127.0.0.1:10002", Catalog::basic(),
//!                                 TransportOptions::default(), repaint).unwrap();
//! // every frame:
//! for event in host.poll() { /* log it */ }
//! if let Some(session) = host.session() { let _store = session.store(); /* draw it */ }
//! // on Enter in the prompt box:
//! host.send(Turn::Text("find pasta".into())).ok();
//! # }
//! ```

use std::sync::mpsc::{Receiver, Sender, channel};

use serde_json::Value;
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};

use super::http::{HttpClient, HttpRequest, TransportOptions};
use super::{TaskState, TranscriptEntry, TransportError, TransportEvent, Turn};
use crate::model::SurfaceStore;

/// What every HTTP session keeps whatever its transport: the surfaces, the conversation's
/// text and the task or run state. [`HttpSession`]'s accessors read it.
#[derive(Debug)]
pub struct SessionCore {
    pub(crate) store: SurfaceStore,
    pub(crate) transcript: Vec<TranscriptEntry>,
    pub(crate) state: Option<TaskState>,
}

impl SessionCore {
    /// A session with no surfaces, no text and no state yet, drawing into `store`.
    pub fn new(store: SurfaceStore) -> Self {
        Self {
            store,
            transcript: Vec::new(),
            state: None,
        }
    }

    /// Hold the transcript to [`Limits::max_transcript_entries`](crate::limits::Limits) and
    /// [`Limits::max_transcript_bytes`](crate::limits::Limits), dropping the oldest entries (the
    /// newest always stays). Returns how many were dropped from the front.
    pub(crate) fn bound_transcript(&mut self) -> usize {
        let limits = self.store.limits();
        let (max_n, max_bytes) = (limits.max_transcript_entries, limits.max_transcript_bytes);
        drop_oldest(&mut self.transcript, max_n, max_bytes, |e| e.text.len())
    }

    /// Push a transcript entry, then [`Self::bound_transcript`].
    pub(crate) fn push_transcript(&mut self, entry: TranscriptEntry) -> usize {
        self.transcript.push(entry);
        self.bound_transcript()
    }
}

/// Drop the oldest of `items` until at most `max_n` remain and their `len`s sum to at most
/// `max_bytes` (the newest always stays). Returns how many were dropped from the front.
pub(crate) fn drop_oldest<T>(
    items: &mut Vec<T>,
    max_n: usize,
    max_bytes: usize,
    len: impl Fn(&T) -> usize,
) -> usize {
    let mut total: usize = items.iter().map(&len).sum();
    let mut drop = 0;
    while items.len() - drop > 1 && (items.len() - drop > max_n || total > max_bytes) {
        total -= items.get(drop).map_or(0, &len);
        drop += 1;
    }
    items.drain(..drop);
    drop
}

/// Append `delta` to `text`, stopping at `max` bytes (at a character boundary). Returns
/// whether anything was cut.
pub(crate) fn append_capped(text: &mut String, delta: &str, max: usize) -> bool {
    let room = max.saturating_sub(text.len());
    if delta.len() <= room {
        text.push_str(delta);
        return false;
    }
    let mut end = room;
    while !delta.is_char_boundary(end) {
        end -= 1;
    }
    text.push_str(&delta[..end]);
    true
}

/// A sans-IO session of an HTTP transport (A2A, AG-UI): what the drivers need of it. A
/// transport implements the four protocol methods and says where its [`SessionCore`] is;
/// the accessors come with the trait.
pub trait HttpSession {
    /// The name of the request it will send (`message/stream`, `RunAgentInput`).
    fn method(&self) -> String;
    /// The request for one turn.
    fn request(&mut self, turn: &Turn) -> Result<HttpRequest, TransportError>;
    /// One JSON value of the answer (or a per-event problem).
    fn on_item(&mut self, item: Result<Value, TransportError>) -> Vec<TransportEvent>;
    /// The answer ended; the last event is [`TransportEvent::TurnEnded`].
    fn finish(&mut self, outcome: Result<(), TransportError>) -> Vec<TransportEvent>;
    /// The store, transcript and state.
    fn core(&self) -> &SessionCore;
    /// The store, transcript and state, mutably.
    fn core_mut(&mut self) -> &mut SessionCore;
    /// The request that tells the agent to stop the turn in flight (A2A `tasks/cancel` /
    /// `CancelTask` for the current task), when the protocol has one. Closing the stream
    /// is all an AG-UI run needs.
    fn cancel_request(&mut self) -> Option<HttpRequest> {
        None
    }
    /// The answer ended (`outcome`) before the turn did: the request that picks it up again
    /// (A2A `tasks/resubscribe` / `SubscribeToTask`, then `tasks/get` / `GetTask`), with the
    /// delay to wait before sending it. `None` (the default): the turn is over, call
    /// [`Self::finish`]. Bounded by the session (a few attempts per turn).
    fn after_stream_end(
        &mut self,
        outcome: &Result<(), TransportError>,
    ) -> Option<(HttpRequest, std::time::Duration)> {
        let _ = outcome;
        None
    }
    /// The event after which a stream of this transport is read no further (A2A: a final
    /// or interrupted state; a 1.0 `SubscribeToTask` stream stays open at
    /// `input-required`). `None`: read to the end.
    fn stop_reading(&self) -> Option<fn(&Value) -> bool> {
        None
    }
    /// The task (or run) and context (or thread) ids of the turn in flight, for events.
    fn ids(&self) -> (Option<String>, Option<String>) {
        (None, None)
    }
    /// The agent's text still arriving (a model's prose while it streams), for a panel to
    /// draw as it grows. `None` (the default) when nothing is arriving.
    fn partial_text(&self) -> Option<&str> {
        None
    }
    /// What lets a later connection continue this conversation with the agent (A2A: the
    /// `contextId` and a task still waiting for input; AG-UI: the `threadId` and the
    /// thread's messages), kept in a saved conversation. `None`: nothing to carry.
    fn continuation(&self) -> Option<Value> {
        None
    }
    /// Continue the conversation an earlier connection's [`Self::continuation`] described.
    /// A value of another shape (or over the bounds) is ignored: the conversation starts
    /// fresh. Returns whether it was taken up.
    fn continue_from(&mut self, state: &Value) -> bool {
        let _ = state;
        false
    }
    /// The surfaces.
    fn store(&self) -> &SurfaceStore {
        &self.core().store
    }
    /// The surfaces, mutably.
    fn store_mut(&mut self) -> &mut SurfaceStore {
        &mut self.core_mut().store
    }
    /// The conversation's text.
    fn transcript(&self) -> &[TranscriptEntry] {
        &self.core().transcript
    }
    /// The task or run state.
    fn state(&self) -> Option<&TaskState> {
        self.core().state.as_ref()
    }
}

/// Run one turn of `session` over `http`, reporting every event to `on_event`.
#[cfg_attr(not(any(feature = "a2a", feature = "agui")), allow(dead_code))]
pub(crate) async fn drive<S: HttpSession>(
    http: &HttpClient,
    session: &mut S,
    turn: &Turn,
    mut on_event: impl FnMut(&TransportEvent),
) -> Result<(), TransportError> {
    let method = session.method();
    let req = match session.request(turn) {
        Ok(r) => r,
        Err(e) => {
            on_event(&TransportEvent::TurnEnded {
                error: Some(e.clone()),
            });
            return Err(e);
        }
    };
    on_event(&TransportEvent::Request {
        method,
        body: req.body.clone().unwrap_or(Value::Null),
    });
    let mut req = req;
    let outcome = loop {
        let stop = session.stop_reading();
        let outcome = http
            .exchange_until(
                &req,
                |item| {
                    for ev in session.on_item(item) {
                        on_event(&ev);
                    }
                },
                stop,
            )
            .await;
        // Bounded by the session: it gives a follow-up a few times per turn at most.
        match session.after_stream_end(&outcome) {
            Some((next, delay)) => {
                on_event(&TransportEvent::Request {
                    method: request_method(&next),
                    body: next.body.clone().unwrap_or(Value::Null),
                });
                tokio::time::sleep(delay).await;
                req = next;
            }
            None => break outcome,
        }
    };
    let mut error = None;
    for ev in session.finish(outcome) {
        if let TransportEvent::TurnEnded { error: Some(e) } = &ev {
            error = Some(e.clone());
        }
        on_event(&ev);
    }
    error.map_or(Ok(()), Err)
}

/// The JSON-RPC method of a request, for its event (`request` when it has none).
pub(crate) fn request_method(req: &HttpRequest) -> String {
    req.body
        .as_ref()
        .and_then(|b| b.get("method"))
        .and_then(Value::as_str)
        .unwrap_or("request")
        .to_owned()
}

/// What the discovery's answer may ask for next (the A2A authenticated extended card).
type Follow = Box<dyn FnOnce(&Value) -> Option<HttpRequest> + Send>;

enum Job {
    Exchange {
        turn: u64,
        req: HttpRequest,
        /// Wait this long first (the backoff of a resubscription).
        delay: std::time::Duration,
        /// Read no further after an event this says ends the stream.
        stop: Option<fn(&Value) -> bool>,
    },
    /// The discovery (turn 0): `req`, then what `follow` asks for with its answer; the
    /// reply is `{"document": first, "followed": second-or-error}` when followed.
    Discover {
        req: HttpRequest,
        follow: Option<Follow>,
    },
    /// A request whose answer nobody waits for (A2A `tasks/cancel`).
    Fire { req: HttpRequest },
}

enum Reply {
    Item(u64, Result<Value, TransportError>),
    Done(u64, Result<(), TransportError>),
}

type Build<S> = Box<dyn FnOnce(Value) -> Result<S, TransportError>>;

/// A session of an HTTP transport driven from a UI thread (see the [module](self)).
pub struct HttpHost<S> {
    session: Option<S>,
    build: Option<Build<S>>,
    connect_error: Option<TransportError>,
    jobs: UnboundedSender<Job>,
    replies: Receiver<Reply>,
    turn: u64,
    busy: bool,
    log: BoundedLog<TransportEvent>,
    responses: Option<BoundedLog<Value>>,
    /// `(max_host_log_entries, max_host_log_bytes)`.
    log_caps: (usize, usize),
    /// The turn the I/O thread must stop (see [`HttpHost::cancel`]).
    cancel: tokio::sync::watch::Sender<u64>,
    /// Events made on the UI thread (a cancel), handed out by the next poll.
    queued: Vec<TransportEvent>,
    /// A conversation to continue once the session is built ([`HttpHost::continue_from`]).
    pending_continuation: Option<Value>,
}

/// A log held to a number of entries and a number of bytes, oldest dropped (the newest
/// always stays).
#[derive(Debug)]
struct BoundedLog<T> {
    items: Vec<T>,
    sizes: Vec<usize>,
    bytes: usize,
}

impl<T> Default for BoundedLog<T> {
    fn default() -> Self {
        Self {
            items: Vec::new(),
            sizes: Vec::new(),
            bytes: 0,
        }
    }
}

impl<T> BoundedLog<T> {
    fn push(&mut self, item: T, size: usize, (max_n, max_bytes): (usize, usize)) {
        self.items.push(item);
        self.sizes.push(size);
        self.bytes = self.bytes.saturating_add(size);
        let mut drop = 0;
        while self.items.len() - drop > 1
            && (self.items.len() - drop > max_n || self.bytes > max_bytes)
        {
            self.bytes -= self.sizes.get(drop).copied().unwrap_or(0);
            drop += 1;
        }
        self.items.drain(..drop);
        self.sizes.drain(..drop);
    }

    fn take(&mut self) -> Vec<T> {
        self.sizes.clear();
        self.bytes = 0;
        std::mem::take(&mut self.items)
    }
}

/// What one event weighs in the log: a request's body as serialized, any other event as
/// its JSON line (both measured up to `cap`).
fn event_bytes(e: &TransportEvent, cap: usize) -> usize {
    let size = |v: &Value| super::http::json_size(v, cap).unwrap_or(cap);
    match e {
        TransportEvent::Request { method, body } => size(body).saturating_add(method.len()),
        other => size(&other.to_json()),
    }
}

impl<S> std::fmt::Debug for HttpHost<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpHost")
            .field("connected", &self.session.is_some())
            .field("busy", &self.busy)
            .field("turn", &self.turn)
            .finish_non_exhaustive()
    }
}

type Io = (
    UnboundedSender<Job>,
    Receiver<Reply>,
    tokio::sync::watch::Sender<u64>,
);

fn spawn_io(
    options: TransportOptions,
    repaint: impl Fn() + Send + 'static,
) -> Result<Io, TransportError> {
    let http = HttpClient::new(options)?;
    // No turn has this id: nothing is cancelled until `cancel` names a turn.
    let (cancel_tx, cancel) = tokio::sync::watch::channel(u64::MAX);
    let (jobs, mut job_rx): (UnboundedSender<Job>, UnboundedReceiver<Job>) = unbounded_channel();
    let (reply_tx, replies): (Sender<Reply>, Receiver<Reply>) = channel();
    std::thread::Builder::new()
        .name("egui_a2ui-transport".into())
        .spawn(move || {
            let Ok(rt) = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            else {
                let _ = reply_tx.send(Reply::Done(0, Err(TransportError::Closed)));
                repaint();
                return;
            };
            let repaint = std::sync::Arc::new(repaint);
            rt.block_on(async move {
                // Bounded by the UI: the loop ends when the host (the sender) is dropped.
                while let Some(job) = job_rx.recv().await {
                    let (turn, req, stop) = match job {
                        Job::Exchange {
                            turn,
                            req,
                            delay,
                            stop,
                        } => {
                            if !delay.is_zero() {
                                tokio::time::sleep(delay).await;
                            }
                            (turn, req, stop)
                        }
                        Job::Fire { req } => {
                            let _ = http.exchange(&req, |_| {}).await;
                            continue;
                        }
                        Job::Discover { req, follow } => {
                            let mut first = None;
                            let outcome = http.exchange(&req, |v| first = Some(v)).await;
                            let next = match (&first, follow) {
                                (Some(Ok(doc)), Some(f)) => f(doc),
                                _ => None,
                            };
                            if let (Some(Ok(doc)), Some(next)) = (&first, next) {
                                let mut second = None;
                                let r = http.exchange(&next, |v| second = Some(v)).await;
                                let followed = match (r, second) {
                                    (Err(e), _) => super::error_json(&e),
                                    (Ok(()), Some(Ok(v))) => v,
                                    (Ok(()), Some(Err(e))) => super::error_json(&e),
                                    (Ok(()), None) => Value::Null,
                                };
                                first = Some(Ok(serde_json::json!({
                                    "document": doc, "followed": followed,
                                })));
                            }
                            if let Some(item) = first {
                                let _ = reply_tx.send(Reply::Item(0, item));
                            }
                            let _ = reply_tx.send(Reply::Done(0, outcome));
                            repaint();
                            continue;
                        }
                    };
                    let tx = reply_tx.clone();
                    let repaint = repaint.clone();
                    let exchange = http.exchange_until(
                        &req,
                        |item| {
                            let _ = tx.send(Reply::Item(turn, item));
                            repaint();
                        },
                        stop,
                    );
                    let mut cancelled = cancel.clone();
                    let stop = async move {
                        // Ends when this turn is cancelled (or the host is gone).
                        while *cancelled.borrow_and_update() != turn {
                            if cancelled.changed().await.is_err() {
                                std::future::pending::<()>().await;
                            }
                        }
                    };
                    let outcome = tokio::select! {
                        outcome = exchange => outcome,
                        () = stop => Err(TransportError::Action("the turn was cancelled".into())),
                    };
                    let _ = tx.send(Reply::Done(turn, outcome));
                    repaint();
                }
            });
        })
        .map_err(|_| TransportError::Closed)?;
    Ok((jobs, replies, cancel_tx))
}

impl<S: HttpSession> HttpHost<S> {
    /// Drive `session`, with the I/O on a new background thread; `repaint` is called after
    /// every reply (pass `move || ctx.request_repaint()`).
    pub fn spawn(
        session: S,
        options: TransportOptions,
        repaint: impl Fn() + Send + 'static,
    ) -> Result<Self, TransportError> {
        let log_caps = (
            options.limits.max_host_log_entries,
            options.limits.max_host_log_bytes,
        );
        let (jobs, replies, cancel) = spawn_io(options, repaint)?;
        Ok(Self {
            session: Some(session),
            build: None,
            connect_error: None,
            jobs,
            replies,
            turn: 0,
            busy: false,
            log: BoundedLog::default(),
            responses: None,
            log_caps,
            cancel,
            queued: Vec::new(),
            pending_continuation: None,
        })
    }

    /// Continue the conversation `state` describes (an earlier session's
    /// [`HttpSession::continuation`], from a saved conversation): taken up now when
    /// connected, else as soon as the session is built.
    pub fn continue_from(&mut self, state: Value) {
        match &mut self.session {
            Some(s) => {
                s.continue_from(&state);
            }
            None => self.pending_continuation = Some(state),
        }
    }

    /// What a later connection needs to continue this conversation
    /// ([`HttpSession::continuation`]).
    pub fn continuation(&self) -> Option<Value> {
        self.session.as_ref()?.continuation()
    }

    /// Fetch `discovery` (an agent card, say) in the background and build the session from
    /// it on the UI thread with `build` (at a later [`Self::poll`]).
    pub fn spawn_discovering(
        discovery: HttpRequest,
        build: impl FnOnce(Value) -> Result<S, TransportError> + 'static,
        options: TransportOptions,
        repaint: impl Fn() + Send + 'static,
    ) -> Result<Self, TransportError> {
        Self::spawn_discovering_with(discovery, None, build, options, repaint)
    }

    /// [`Self::spawn_discovering`], with a second request made from the first answer
    /// (`follow`; the A2A authenticated extended card): when it gives one, `build` receives
    /// `{"document": first answer, "followed": second answer or an error object}`.
    pub(crate) fn spawn_discovering_with(
        discovery: HttpRequest,
        follow: Option<Follow>,
        build: impl FnOnce(Value) -> Result<S, TransportError> + 'static,
        options: TransportOptions,
        repaint: impl Fn() + Send + 'static,
    ) -> Result<Self, TransportError> {
        let log_caps = (
            options.limits.max_host_log_entries,
            options.limits.max_host_log_bytes,
        );
        let (jobs, replies, cancel) = spawn_io(options, repaint)?;
        jobs.send(Job::Discover {
            req: discovery,
            follow,
        })
        .map_err(|_| TransportError::Closed)?;
        Ok(Self {
            session: None,
            build: Some(Box::new(build)),
            connect_error: None,
            jobs,
            replies,
            turn: 0,
            busy: true,
            log: BoundedLog::default(),
            responses: None,
            log_caps,
            cancel,
            queued: Vec::new(),
            pending_continuation: None,
        })
    }

    /// The session, once connected.
    pub fn session(&self) -> Option<&S> {
        self.session.as_ref()
    }

    /// The session, mutably (draw its store).
    pub fn session_mut(&mut self) -> Option<&mut S> {
        self.session.as_mut()
    }

    /// Why connecting failed, if it did.
    pub fn connect_error(&self) -> Option<&TransportError> {
        self.connect_error.as_ref()
    }

    /// Whether a turn (or the discovery) is in flight.
    pub fn is_busy(&self) -> bool {
        self.busy
    }

    /// The events so far, oldest first (requests included: the action log). Bounded:
    /// past [`Limits::max_host_log_entries`](crate::limits::Limits::max_host_log_entries) events
    /// or [`Limits::max_host_log_bytes`](crate::limits::Limits::max_host_log_bytes) bytes (request
    /// bodies as serialized, other events as their JSON line) the oldest are dropped. A
    /// host that keeps a full history copies what [`Self::poll`] returns.
    pub fn log(&self) -> &[TransportEvent] {
        &self.log.items
    }

    fn log_event(&mut self, e: TransportEvent) {
        let size = event_bytes(&e, self.log_caps.1);
        self.log.push(e, size, self.log_caps);
    }

    /// Keep every JSON value the agent answers (the agent card, each event of a stream, a
    /// whole JSON answer) until [`Self::take_responses`] takes them: an action log's
    /// "response" lines. Off by default (nothing is kept). Held to the log's caps
    /// ([`Self::log`]): past them the oldest are dropped.
    #[must_use]
    pub fn record_responses(mut self, on: bool) -> Self {
        self.set_record_responses(on);
        self
    }

    /// [`Self::record_responses`], on a host already made.
    pub fn set_record_responses(&mut self, on: bool) {
        self.responses = on.then(BoundedLog::default);
    }

    /// The answers kept since the last call, oldest first (empty unless
    /// [`Self::record_responses`] is on).
    pub fn take_responses(&mut self) -> Vec<Value> {
        self.responses
            .as_mut()
            .map(BoundedLog::take)
            .unwrap_or_default()
    }

    fn keep(&mut self, item: &Result<Value, TransportError>) {
        let caps = self.log_caps;
        if let (Some(r), Ok(v)) = (self.responses.as_mut(), item) {
            let size = super::http::json_size(v, caps.1).unwrap_or(caps.1);
            r.push(v.clone(), size, caps);
        }
    }

    /// Start a turn. Refused while another is in flight or before the session is there.
    pub fn send(&mut self, turn: Turn) -> Result<(), TransportError> {
        if self.busy {
            return Err(TransportError::Action("a turn is already in flight".into()));
        }
        let Some(session) = self.session.as_mut() else {
            return Err(TransportError::Action("not connected yet".into()));
        };
        let method = session.method();
        let req = session.request(&turn)?;
        let stop = session.stop_reading();
        self.log_event(TransportEvent::Request {
            method,
            body: req.body.clone().unwrap_or(Value::Null),
        });
        self.turn += 1;
        self.jobs
            .send(Job::Exchange {
                turn: self.turn,
                stop,
                req,
                delay: std::time::Duration::ZERO,
            })
            .map_err(|_| TransportError::Closed)?;
        self.busy = true;
        Ok(())
    }

    /// Stop the turn in flight: its exchange is dropped on the I/O thread (closing an SSE
    /// stream, which is how an AG-UI run is aborted), what the protocol has for a cancel is
    /// sent ([`HttpSession::cancel_request`]: A2A `tasks/cancel` / `CancelTask`), later
    /// replies of the turn are ignored, and the state becomes [`TaskState::Canceled`]
    /// (reported by the next [`Self::poll`]). With no turn in flight it does nothing.
    pub fn cancel(&mut self) -> Result<(), TransportError> {
        if !self.busy || self.turn == 0 {
            return Ok(());
        }
        let _ = self.cancel.send(self.turn);
        // Replies of the cancelled turn are stale from here on.
        self.turn += 1;
        self.busy = false;
        let Some(session) = self.session.as_mut() else {
            return Ok(());
        };
        let (task_id, context_id) = session.ids();
        let request = session.cancel_request();
        session.core_mut().state = Some(TaskState::Canceled);
        self.queued.push(TransportEvent::State {
            state: TaskState::Canceled,
            task_id,
            context_id,
        });
        self.queued.push(TransportEvent::TurnEnded { error: None });
        if let Some(req) = request {
            self.queued.push(TransportEvent::Request {
                method: req
                    .body
                    .as_ref()
                    .and_then(|b| b.get("method"))
                    .and_then(Value::as_str)
                    .unwrap_or("cancel")
                    .to_owned(),
                body: req.body.clone().unwrap_or(Value::Null),
            });
            self.jobs
                .send(Job::Fire { req })
                .map_err(|_| TransportError::Closed)?;
        }
        Ok(())
    }

    /// Apply what arrived since the last call; returns the new events (also kept in
    /// [`Self::log`]). Call once a frame.
    pub fn poll(&mut self) -> Vec<TransportEvent> {
        let mut out = std::mem::take(&mut self.queued);
        // Bounded: at most what is queued now.
        while let Ok(reply) = self.replies.try_recv() {
            match reply {
                Reply::Item(0, item) => {
                    self.keep(&item);
                    let built = item.and_then(|v| match self.build.take() {
                        Some(b) => b(v),
                        None => Err(TransportError::Closed),
                    });
                    match built {
                        Ok(mut s) => {
                            if let Some(state) = self.pending_continuation.take() {
                                s.continue_from(&state);
                            }
                            self.session = Some(s);
                        }
                        Err(e) => self.connect_error = Some(e),
                    }
                }
                Reply::Done(0, outcome) => {
                    self.busy = false;
                    if let Err(e) = outcome {
                        self.connect_error.get_or_insert(e.clone());
                        out.push(TransportEvent::TurnEnded { error: Some(e) });
                    } else if self.session.is_none() && self.connect_error.is_none() {
                        self.connect_error =
                            Some(TransportError::MalformedPayload("no agent card".into()));
                    }
                }
                Reply::Item(t, item) if t == self.turn => {
                    self.keep(&item);
                    if let Some(s) = self.session.as_mut() {
                        out.extend(s.on_item(item));
                    }
                }
                Reply::Done(t, outcome) if t == self.turn => {
                    let Some(s) = self.session.as_mut() else {
                        self.busy = false;
                        continue;
                    };
                    // A stream that ended before the turn did: pick it up again (same turn).
                    if let Some((req, delay)) = s.after_stream_end(&outcome) {
                        let stop = s.stop_reading();
                        out.push(TransportEvent::Request {
                            method: request_method(&req),
                            body: req.body.clone().unwrap_or(Value::Null),
                        });
                        if self
                            .jobs
                            .send(Job::Exchange {
                                turn: self.turn,
                                req,
                                delay,
                                stop,
                            })
                            .is_ok()
                        {
                            continue;
                        }
                    }
                    self.busy = false;
                    if let Some(s) = self.session.as_mut() {
                        out.extend(s.finish(outcome));
                    }
                }
                _ => {} // a stale turn's leftovers
            }
        }
        for e in &out {
            self.log_event(e.clone());
        }
        out
    }
}
