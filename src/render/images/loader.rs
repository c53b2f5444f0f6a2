//! [`SafeImageLoader`]: the crate's one egui image loader, for every URI whose bytes a
//! bytes loader serves (`data:`, `bytes://`, `https:` with the `http` feature or a host's
//! loader). It decodes with [`decode_image`] on a small pool of worker threads, so the UI
//! thread only polls: `Pending` until the picture is ready, then a repaint is requested.

use std::collections::HashMap;
use std::sync::mpsc;
use std::sync::{Arc, Mutex as StdMutex};

use egui::load::{BytesPoll, ImageLoadResult, ImageLoader, ImagePoll, LoadError, SizeHint};
use egui::mutex::Mutex;

use super::decode::{ImageCaps, ImageError, decode_image, is_vector, sniff};

/// Worker threads decoding images (each decode is bounded by the caps; more threads would
/// only compete with the UI for cores).
const WORKERS: usize = 2;

/// Sizes kept per URI (a window being resized asks an SVG for many).
const MAX_SIZES_PER_URI: usize = 4;

type Key = (String, SizeHint);

enum Entry {
    /// Queued or decoding.
    Pending,
    /// Done.
    Done {
        result: Result<Arc<egui::ColorImage>, ImageError>,
        tick: u64,
    },
}

#[derive(Default)]
struct State {
    entries: HashMap<Key, Entry>,
    /// Bytes of the decoded pictures held.
    bytes: usize,
    clock: u64,
}

impl State {
    fn cost(entry: &Entry) -> usize {
        match entry {
            Entry::Done { result: Ok(i), .. } => i.pixels.len() * size_of::<egui::Color32>(),
            _ => 0,
        }
    }

    fn remove_where(&mut self, mut f: impl FnMut(&Key) -> bool) {
        let mut freed = 0;
        self.entries.retain(|k, e| {
            let drop = f(k);
            if drop {
                freed += Self::cost(e);
            }
            !drop
        });
        self.bytes -= freed;
    }

    /// Drop the least recently used pictures until the held bytes fit `max`.
    fn evict(&mut self, max: usize) {
        while self.bytes > max {
            let oldest = self
                .entries
                .iter()
                .filter_map(|(k, e)| match e {
                    Entry::Done { tick, .. } if Self::cost(e) > 0 => Some((*tick, k.clone())),
                    _ => None,
                })
                .min_by_key(|(t, _)| *t);
            let Some((_, key)) = oldest else { break };
            if let Some(e) = self.entries.remove(&key) {
                self.bytes -= Self::cost(&e);
            }
        }
    }
}

struct Job {
    key: Key,
    bytes: egui::load::Bytes,
    mime: Option<String>,
    caps: ImageCaps,
    ctx: egui::Context,
}

/// The crate's image loader: PNG, JPEG, SVG and svgz from any URI a bytes loader serves,
/// decoded off the UI thread under [`ImageCaps`] (see the [images module
/// docs](crate::render::images) for what that guarantees). [`install`](super::install)
/// adds it after egui's built-in loaders, so it is asked first.
pub struct SafeImageLoader {
    state: Arc<Mutex<State>>,
    /// Where jobs are queued; the workers are started on the first job.
    queue: StdMutex<Option<mpsc::Sender<Job>>>,
    /// Caps from the renderer's [`Limits`](crate::limits::Limits) (the GPU's texture side is read
    /// at each load).
    limits: Arc<Mutex<(u32, usize, usize)>>,
}

impl Default for SafeImageLoader {
    fn default() -> Self {
        let l = crate::limits::Limits::default();
        Self {
            state: Arc::default(),
            queue: StdMutex::new(None),
            limits: Arc::new(Mutex::new((
                l.max_image_dimension,
                l.max_image_bytes,
                l.max_image_cache_bytes,
            ))),
        }
    }
}

impl SafeImageLoader {
    /// The loader id.
    pub const ID: &'static str = egui::generate_loader_id!(SafeImageLoader);

    /// Take the image caps and the cache bound from `limits`.
    pub fn set_limits(&self, limits: &crate::limits::Limits) {
        *self.limits.lock() = (
            limits.max_image_dimension,
            limits.max_image_bytes,
            limits.max_image_cache_bytes,
        );
    }

    fn caps(&self, ctx: &egui::Context) -> ImageCaps {
        let (max_dimension, max_bytes, _) = *self.limits.lock();
        let limits = crate::limits::Limits {
            max_image_dimension: max_dimension,
            max_image_bytes: max_bytes,
            ..crate::limits::Limits::default()
        };
        ImageCaps::new(&limits, ctx.input(|i| i.max_texture_side))
    }

    /// The typed error `uri` failed with (any size drawn), if it failed in this loader.
    pub fn error(&self, uri: &str) -> Option<ImageError> {
        self.state
            .lock()
            .entries
            .iter()
            .find_map(|((u, _), e)| match e {
                Entry::Done { result: Err(e), .. } if u == uri => Some(e.clone()),
                _ => None,
            })
    }

    fn submit(&self, job: Job) -> Result<(), ImageError> {
        let mut queue = self
            .queue
            .lock()
            .map_err(|_| ImageError::Decode("the image workers are gone".to_owned()))?;
        if queue.is_none() {
            *queue = Some(start_workers(&self.state, &self.limits)?);
        }
        let sent = queue.as_ref().map(|q| q.send(job));
        match sent {
            Some(Ok(())) => Ok(()),
            _ => {
                *queue = None;
                Err(ImageError::Decode("the image workers are gone".to_owned()))
            }
        }
    }
}

fn finish(state: &Mutex<State>, job: &Job, result: Result<egui::ColorImage, ImageError>) {
    let mut s = state.lock();
    // Forgotten while decoding: the picture is not wanted any more.
    if !matches!(s.entries.get(&job.key), Some(Entry::Pending)) {
        return;
    }
    s.clock += 1;
    let entry = Entry::Done {
        result: result.map(Arc::new),
        tick: s.clock,
    };
    s.bytes += State::cost(&entry);
    s.entries.insert(job.key.clone(), entry);
}

fn start_workers(
    state: &Arc<Mutex<State>>,
    limits: &Arc<Mutex<(u32, usize, usize)>>,
) -> Result<mpsc::Sender<Job>, ImageError> {
    let (tx, rx) = mpsc::channel::<Job>();
    let rx = Arc::new(StdMutex::new(rx));
    for n in 0..WORKERS {
        let (rx, state, limits) = (Arc::clone(&rx), Arc::clone(state), Arc::clone(limits));
        let spawned = std::thread::Builder::new()
            .name(format!("egui_a2ui-image-{n}"))
            // usvg and resvg recurse per nesting level (at most `MAX_SVG_DEPTH`).
            .stack_size(16 * 1024 * 1024)
            .spawn(move || {
                loop {
                    let job = match rx.lock() {
                        Ok(rx) => rx.recv(),
                        Err(_) => return,
                    };
                    let Ok(job) = job else { return };
                    let decoded = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        decode_image(&job.bytes, job.mime.as_deref(), job.key.1, &job.caps)
                    }))
                    .unwrap_or_else(|_| Err(ImageError::Decode("the decoder failed".to_owned())));
                    finish(&state, &job, decoded);
                    let max_cache = limits.lock().2;
                    state.lock().evict(max_cache);
                    job.ctx.request_repaint();
                }
            });
        if spawned.is_err() && n == 0 {
            return Err(ImageError::Decode(
                "no thread could be started to decode images".to_owned(),
            ));
        }
    }
    Ok(tx)
}

impl ImageLoader for SafeImageLoader {
    fn id(&self) -> &str {
        Self::ID
    }

    fn load(&self, ctx: &egui::Context, uri: &str, size_hint: SizeHint) -> ImageLoadResult {
        let key = (uri.to_owned(), size_hint);
        let raster_key = (uri.to_owned(), SizeHint::default());
        {
            let mut s = self.state.lock();
            s.clock += 1;
            let clock = s.clock;
            for k in [&key, &raster_key] {
                match s.entries.get_mut(k) {
                    Some(Entry::Pending) => return Ok(ImagePoll::Pending { size: None }),
                    Some(Entry::Done { result, tick }) => {
                        *tick = clock;
                        return match result {
                            Ok(image) => Ok(ImagePoll::Ready {
                                image: Arc::clone(image),
                            }),
                            Err(e) => Err(LoadError::Loading(e.to_string())),
                        };
                    }
                    None => {}
                }
            }
        }
        let (bytes, mime) = match ctx.try_load_bytes(uri)? {
            BytesPoll::Pending { size } => return Ok(ImagePoll::Pending { size }),
            BytesPoll::Ready { bytes, mime, .. } => (bytes, mime),
        };
        let Some(kind) = sniff(&bytes, mime.as_deref()) else {
            // Another loader the host installed (WebP, GIF...) may know it.
            return Err(LoadError::FormatNotSupported {
                detected_format: mime,
            });
        };
        // Raster pictures do not depend on the size drawn: one entry for all sizes.
        let key = if is_vector(kind) { key } else { raster_key };
        {
            let mut s = self.state.lock();
            if s.entries.keys().filter(|(u, _)| u == uri).count() >= MAX_SIZES_PER_URI {
                s.remove_where(|(u, _)| u == uri);
            }
            s.entries.insert(key.clone(), Entry::Pending);
        }
        let job = Job {
            key: key.clone(),
            bytes,
            mime,
            caps: self.caps(ctx),
            ctx: ctx.clone(),
        };
        if let Err(e) = self.submit(job) {
            let mut s = self.state.lock();
            s.entries.insert(
                key,
                Entry::Done {
                    result: Err(e.clone()),
                    tick: 0,
                },
            );
            return Err(LoadError::Loading(e.to_string()));
        }
        Ok(ImagePoll::Pending { size: None })
    }

    fn forget(&self, uri: &str) {
        self.state.lock().remove_where(|(u, _)| u == uri);
    }

    fn forget_all(&self) {
        let mut s = self.state.lock();
        s.entries.clear();
        s.bytes = 0;
    }

    fn byte_size(&self) -> usize {
        self.state.lock().bytes
    }

    fn has_pending(&self) -> bool {
        self.state
            .lock()
            .entries
            .values()
            .any(|e| matches!(e, Entry::Pending))
    }
}
