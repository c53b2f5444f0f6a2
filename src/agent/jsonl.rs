//! [`JsonlProcess`]: an agent process that writes A2UI JSONL on its standard output and
//! reads the renderer's messages (actions, errors) on its standard input, one JSON a line.
//!
//! The process is spawned with its arguments as given (no shell). A reader thread reads its
//! stdout in chunks (the UI thread feeds them to the store's incremental decoder, so a line
//! over [`Limits::max_line_bytes`](crate::limits::Limits::max_line_bytes) is dropped, not
//! buffered); a writer thread writes to its stdin. The UI thread never blocks on the
//! process. A text turn is written as `{"userText": "…"}` (no A2UI message carries user
//! prose); an action as the A2UI `action` message of the surface's version.

use std::io::{Read, Write};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, Sender, channel};

use serde_json::json;

use super::{AgentConnection, ConnectionStatus};
use crate::model::{AgentOrigin, Applied, SurfaceStore};
use crate::stream::StreamDecoder;
use crate::transport::{TaskState, TransportError, TransportEvent, Turn};

/// What the reader thread reports.
enum Input {
    Chunk(Vec<u8>),
    Eof,
    Failed(String),
}

/// An agent process speaking A2UI JSONL on stdin/stdout: its stdout read on a thread of
/// its own, a text turn written as `{"userText": …}`, an action as the A2UI `action`
/// message of its surface's version.
pub struct JsonlProcess {
    child: Child,
    command: String,
    store: SurfaceStore,
    decoder: StreamDecoder,
    input: Receiver<Input>,
    output: Option<Sender<String>>,
    failed: Option<TransportError>,
    state: Option<TaskState>,
}

impl std::fmt::Debug for JsonlProcess {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JsonlProcess")
            .field("command", &self.command)
            .field("failed", &self.failed)
            .finish_non_exhaustive()
    }
}

impl JsonlProcess {
    /// Spawn `program` with `args`, its surfaces drawn into `store` (which sets the
    /// catalogs and limits accepted); `repaint` is called whenever output arrives.
    pub fn spawn(
        program: &str,
        args: &[String],
        store: SurfaceStore,
        repaint: impl Fn() + Send + 'static,
    ) -> Result<Self, TransportError> {
        let command = std::iter::once(program)
            .chain(args.iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join(" ");
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| TransportError::Connect {
                url: command.clone(),
                message: e.to_string(),
            })?;
        let (Some(mut stdout), Some(mut stdin)) = (child.stdout.take(), child.stdin.take()) else {
            let _ = child.kill();
            return Err(TransportError::Closed);
        };
        let (tx, input) = channel();
        std::thread::Builder::new()
            .name("egui_a2ui-jsonl-reader".into())
            .spawn(move || {
                let mut buf = vec![0u8; 64 * 1024];
                loop {
                    let msg = match stdout.read(&mut buf) {
                        Ok(0) => Input::Eof,
                        Ok(n) => Input::Chunk(buf.get(..n).unwrap_or_default().to_vec()),
                        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                        Err(e) => Input::Failed(e.to_string()),
                    };
                    let done = !matches!(msg, Input::Chunk(_));
                    if tx.send(msg).is_err() {
                        return;
                    }
                    repaint();
                    if done {
                        return;
                    }
                }
            })
            .map_err(|_| TransportError::Closed)?;
        let (out_tx, out_rx) = channel::<String>();
        std::thread::Builder::new()
            .name("egui_a2ui-jsonl-writer".into())
            .spawn(move || {
                for line in out_rx {
                    if writeln!(stdin, "{line}")
                        .and_then(|()| stdin.flush())
                        .is_err()
                    {
                        return;
                    }
                }
            })
            .map_err(|_| TransportError::Closed)?;
        let decoder = StreamDecoder::new(store.limits().clone());
        Ok(Self {
            child,
            command,
            store,
            decoder,
            input,
            output: Some(out_tx),
            failed: None,
            state: None,
        })
    }

    /// Spawn a command line: its first word is the program, the rest its arguments
    /// (split on white space; quote-free).
    pub fn spawn_command_line(
        line: &str,
        store: SurfaceStore,
        repaint: impl Fn() + Send + 'static,
    ) -> Result<Self, TransportError> {
        let mut words = line.split_whitespace().map(str::to_owned);
        let program = words
            .next()
            .ok_or_else(|| TransportError::Action("empty command".into()))?;
        let args: Vec<String> = words.collect();
        Self::spawn(&program, &args, store, repaint)
    }

    /// The surfaces.
    pub fn store(&self) -> &SurfaceStore {
        &self.store
    }

    fn write(&self, line: String) -> Result<(), TransportError> {
        self.output
            .as_ref()
            .ok_or(TransportError::Closed)?
            .send(line)
            .map_err(|_| TransportError::Closed)
    }

    /// Send what the store owes the agent (errors it reported).
    fn flush_outgoing(&mut self) {
        for event in self.store.take_outgoing() {
            if let Some(v) = event.to_message() {
                let _ = self.write(v.to_string());
            }
        }
    }
}

impl Drop for JsonlProcess {
    fn drop(&mut self) {
        // Closing stdin ends a well-behaved agent; kill the rest.
        self.output = None;
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl AgentConnection for JsonlProcess {
    fn kind(&self) -> &'static str {
        "JSONL"
    }

    fn origin(&self) -> Option<AgentOrigin> {
        Some(AgentOrigin::new(&self.command).with_host("stdio"))
    }

    fn status(&self) -> ConnectionStatus {
        match &self.failed {
            Some(e) => ConnectionStatus::Failed(e.clone()),
            None => ConnectionStatus::Ready,
        }
    }

    fn send(&mut self, turn: Turn) -> Result<(), TransportError> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        let line = match &turn {
            Turn::Text(text) => json!({ "userText": text }).to_string(),
            Turn::Action(a) => a.to_message().to_string(),
        };
        self.write(line)
    }

    fn cancel(&mut self) -> Result<(), TransportError> {
        // A JSONL agent has no turns to cancel: it streams until it stops.
        Ok(())
    }

    fn poll(&mut self) -> Vec<TransportEvent> {
        let mut out = Vec::new();
        // Bounded: at most what is queued now.
        while let Ok(input) = self.input.try_recv() {
            match input {
                Input::Chunk(bytes) => {
                    let mut surfaces = Vec::new();
                    let mut count = 0;
                    let store = &mut self.store;
                    self.decoder.feed_text_each(&bytes, |f| {
                        count += 1;
                        match store.apply(f) {
                            Applied::Rejected(r) => out.push(TransportEvent::Rejected {
                                error: r.error.clone(),
                            }),
                            applied => {
                                if let Some(id) = applied.surface_id()
                                    && !surfaces.iter().any(|s: &String| s == id)
                                {
                                    surfaces.push(id.to_owned());
                                }
                            }
                        }
                    });
                    if count > 0 {
                        out.push(TransportEvent::Applied { count, surfaces });
                    }
                }
                Input::Eof => {
                    let e = TransportError::Interrupted {
                        url: self.command.clone(),
                        message: "the agent process closed its output".into(),
                    };
                    self.state = Some(TaskState::Completed);
                    out.push(TransportEvent::TurnEnded { error: None });
                    self.failed = Some(e);
                }
                Input::Failed(message) => {
                    let e = TransportError::Interrupted {
                        url: self.command.clone(),
                        message,
                    };
                    out.push(TransportEvent::TurnEnded {
                        error: Some(e.clone()),
                    });
                    self.failed = Some(e);
                }
            }
        }
        self.flush_outgoing();
        out
    }

    fn state(&self) -> Option<&TaskState> {
        self.state.as_ref()
    }

    fn stores(&self) -> Vec<&SurfaceStore> {
        vec![&self.store]
    }

    fn stores_mut(&mut self) -> Vec<&mut SurfaceStore> {
        vec![&mut self.store]
    }
}
