//! Data-model observers: a host watches a path of a surface's data model and is told of
//! every change there, with the old and new values and who made it (the agent's
//! `updateDataModel`, the user through an input, the host itself).
//!
//! # Why a polled handle, not a callback
//!
//! An egui host runs one frame at a time and reads its state in the frame; a change made
//! while drawing (the user moving a slider) happens in the middle of the renderer's own
//! borrow of the store, where a callback could not touch the store or the renderer without
//! re-entering them. So [`SurfaceStore::observe`](crate::model::SurfaceStore::observe) returns a
//! [`DataObserver`], a receiver the host drains when it likes (each frame, typically):
//! changes queue up in it, nothing runs inside the write. Dropping the handle unsubscribes.
//!
//! # Bounds
//!
//! * At most [`MAX_OBSERVERS`] observers per data model: one more is refused with
//!   `LIMIT_EXCEEDED` (handles dropped free their place at the next write or subscription).
//! * At most [`MAX_QUEUED_CHANGES`] changes wait in one observer: past it the oldest is
//!   dropped and counted ([`DataObserver::missed`]), so an observer nobody drains holds a
//!   bounded amount of memory.
//! * A data model nobody observes pays one `is_empty` check per write: no notification is
//!   built, no value cloned, nothing allocated.
//!
//! # What counts as a change
//!
//! A write at path `W` concerns an observer of path `P` when `W` is `P` (both scopes), when
//! `W` lies inside `P` ([`Watch::Subtree`] only), or when `W` is an ancestor of `P` whose
//! replacement changed the value at `P` (both scopes; the change is then reported at `P`).
//! A write that leaves the reported value as it was (the same value written again, a
//! replaced container whose part at `P` is unchanged) notifies nobody, as the reference
//! web core does.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, PoisonError, Weak};

use serde_json::Value;

use crate::error::A2uiError;
use crate::pointer::pointer_segments;

/// Most observers one data model keeps; one more is refused with `LIMIT_EXCEEDED`.
pub const MAX_OBSERVERS: usize = 64;

/// Most changes that wait in one observer; past it the oldest is dropped (and counted in
/// [`DataObserver::missed`]).
pub const MAX_QUEUED_CHANGES: usize = 256;

/// What part of the data model an observer watches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Watch {
    /// The value at the path as a whole: a write at the path, or one above it that changes
    /// it. A write inside it (one member of an observed object) is not reported.
    Exact,
    /// The path and everything inside it: also every write below the path (the official
    /// SDKs' observer semantics).
    Subtree,
}

/// Who made a change.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ChangeSource {
    /// An agent message (`updateDataModel`, or the data model of a `createSurface`).
    Agent,
    /// The user, through an input bound to the path
    /// ([`ComponentContext::write`](crate::render::ComponentContext::write)).
    User,
    /// The host, writing the model itself ([`DataModel::set`](super::DataModel::set) and
    /// [`DataModel::set_within`](super::DataModel::set_within)).
    Host,
}

/// One change an observer was told of.
#[derive(Clone, Debug, PartialEq)]
pub struct DataChange {
    /// Where the value changed: the write's own path when it lies at or inside the watched
    /// path, the watched path when the write replaced one of its ancestors. Always at or
    /// inside [`DataObserver::path`].
    pub path: String,
    /// The value at [`Self::path`] before the write (`None`: there was none).
    pub old: Option<Value>,
    /// The value at [`Self::path`] after it (`None`: it was deleted).
    pub new: Option<Value>,
    /// Who made the change.
    pub source: ChangeSource,
}

#[derive(Debug, Default)]
struct Queue {
    changes: VecDeque<DataChange>,
    missed: u64,
    detached: bool,
}

#[derive(Debug)]
struct Shared {
    path: String,
    segments: Vec<String>,
    watch: Watch,
    queue: Mutex<Queue>,
}

impl Shared {
    fn queue(&self) -> std::sync::MutexGuard<'_, Queue> {
        // A panic while a queue was locked leaves a queue that is still well formed.
        self.queue.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// A subscription to a path of a surface's data model: the changes queue here until the
/// host takes them ([`Self::try_recv`], [`Self::drain`]). Dropping it unsubscribes.
///
/// ```
/// use egui_a2ui::SurfaceStore;
/// use egui_a2ui::model::{ChangeSource, Watch};
/// use serde_json::json;
///
/// let mut store = SurfaceStore::basic();
/// store.apply(json!({"version": "v0.9", "createSurface": {"surfaceId": "s",
///     "catalogId": egui_a2ui::protocol::BASIC_CATALOG_V0_9}}));
/// let volume = store.observe("s", "/settings/volume", Watch::Exact).expect("observer");
/// store.apply(json!({"version": "v0.9", "updateDataModel": {"surfaceId": "s",
///     "path": "/settings", "value": {"volume": 7}}}));
/// let change = volume.try_recv().expect("a change");
/// assert_eq!(change.path, "/settings/volume");
/// assert_eq!((change.old, change.new), (None, Some(json!(7))));
/// assert_eq!(change.source, ChangeSource::Agent);
/// assert!(volume.try_recv().is_none());
/// ```
#[derive(Debug)]
pub struct DataObserver {
    shared: Arc<Shared>,
}

impl DataObserver {
    /// The watched path, as given.
    pub fn path(&self) -> &str {
        &self.shared.path
    }

    /// The watched scope.
    pub fn watch(&self) -> Watch {
        self.shared.watch
    }

    /// The oldest change not taken yet.
    pub fn try_recv(&self) -> Option<DataChange> {
        self.shared.queue().changes.pop_front()
    }

    /// Every change not taken yet, oldest first.
    pub fn drain(&self) -> Vec<DataChange> {
        self.shared.queue().changes.drain(..).collect()
    }

    /// How many changes waiting here there are.
    pub fn pending(&self) -> usize {
        self.shared.queue().changes.len()
    }

    /// How many changes were dropped because [`MAX_QUEUED_CHANGES`] were waiting.
    pub fn missed(&self) -> u64 {
        self.shared.queue().missed
    }

    /// Whether the data model is gone (its surface deleted or the store dropped): no
    /// change will come any more.
    pub fn is_detached(&self) -> bool {
        self.shared.queue().detached
    }
}

/// The observers of one data model (weak: a dropped handle is forgotten).
#[derive(Default)]
pub(crate) struct Observers {
    list: Vec<Weak<Shared>>,
}

impl std::fmt::Debug for Observers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} observers", self.list.len())
    }
}

impl Drop for Observers {
    fn drop(&mut self) {
        for o in self.list.iter().filter_map(Weak::upgrade) {
            o.queue().detached = true;
        }
    }
}

/// Whether `prefix` is a prefix of `segs`.
fn starts_with(segs: &[impl AsRef<str>], prefix: &[String]) -> bool {
    segs.len() >= prefix.len()
        && segs
            .iter()
            .zip(prefix)
            .all(|(a, b)| a.as_ref() == b.as_str())
}

/// The value `rest` segments inside `v`.
fn inside<'a>(v: Option<&'a Value>, rest: &[String]) -> Option<&'a Value> {
    rest.iter().try_fold(v?, |cur, seg| match cur {
        Value::Object(m) => m.get(seg.as_str()),
        Value::Array(a) => crate::pointer::index(seg).and_then(|i| a.get(i)),
        _ => None,
    })
}

/// The pointer of `segs`, escaped (`~0`, `~1`).
fn pointer_of(segs: &[impl AsRef<str>]) -> String {
    if segs.is_empty() {
        return "/".to_owned();
    }
    let mut out = String::new();
    for s in segs {
        out.push('/');
        out.push_str(&s.as_ref().replace('~', "~0").replace('/', "~1"));
    }
    out
}

impl Observers {
    /// Whether nobody observes (the write path's one check when nobody listens).
    pub(crate) fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// A new observer of `path`.
    pub(crate) fn subscribe(
        &mut self,
        path: &str,
        watch: Watch,
    ) -> Result<DataObserver, A2uiError> {
        let segments = pointer_segments(path)?
            .into_iter()
            .map(std::borrow::Cow::into_owned)
            .collect();
        self.list.retain(|w| w.strong_count() > 0);
        if self.list.len() >= MAX_OBSERVERS {
            return Err(A2uiError::LimitExceeded {
                what: "max_data_observers",
                limit: MAX_OBSERVERS,
                actual: self.list.len() + 1,
            });
        }
        let shared = Arc::new(Shared {
            path: path.to_owned(),
            segments,
            watch,
            queue: Mutex::new(Queue::default()),
        });
        self.list.push(Arc::downgrade(&shared));
        Ok(DataObserver { shared })
    }

    /// Detach every observer (they stay detached; new ones may subscribe).
    pub(crate) fn detach_all(&mut self) {
        for o in self.list.drain(..).filter_map(|w| w.upgrade()) {
            o.queue().detached = true;
        }
    }

    /// Tell every observer the write at `segs` concerns: the value there went from `old`
    /// to `new`.
    pub(crate) fn notify(
        &mut self,
        segs: &[impl AsRef<str>],
        old: Option<&Value>,
        new: Option<&Value>,
        source: ChangeSource,
    ) {
        self.list.retain(|w| w.strong_count() > 0);
        for o in self.list.iter().filter_map(Weak::upgrade) {
            let change = if starts_with(segs, &o.segments) {
                let exact = segs.len() == o.segments.len();
                if (!exact && o.watch == Watch::Exact) || old == new {
                    continue;
                }
                DataChange {
                    path: pointer_of(segs),
                    old: old.cloned(),
                    new: new.cloned(),
                    source,
                }
            } else if o.segments.len() > segs.len()
                && o.segments
                    .iter()
                    .zip(segs)
                    .all(|(a, b)| a.as_str() == b.as_ref())
            {
                let rest = &o.segments[segs.len()..];
                let (before, after) = (inside(old, rest), inside(new, rest));
                if before == after {
                    continue;
                }
                DataChange {
                    path: pointer_of(&o.segments),
                    old: before.cloned(),
                    new: after.cloned(),
                    source,
                }
            } else {
                continue;
            };
            let mut q = o.queue();
            if q.changes.len() >= MAX_QUEUED_CHANGES {
                q.changes.pop_front();
                q.missed += 1;
            }
            q.changes.push_back(change);
        }
    }
}
