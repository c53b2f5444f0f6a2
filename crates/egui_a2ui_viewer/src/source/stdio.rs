//! `--stdin`: a reader thread turns standard input into chunks on a channel (the UI feeds
//! them to the renderer's incremental JSONL decoder as they arrive), and a writer thread
//! prints renderer → agent messages on standard output, one JSON per line. The UI thread
//! never touches either stream.

use std::io::{Read, Write};
use std::sync::mpsc::{Receiver, Sender, channel};

/// What the reader thread reports.
pub enum Input {
    /// Bytes read.
    Chunk(Vec<u8>),
    /// End of input.
    Eof,
    /// A read error (the reader stops).
    Failed(String),
}

/// Start reading stdin; every arrival asks `ctx` for a repaint.
pub fn spawn_reader(ctx: egui::Context) -> std::io::Result<Receiver<Input>> {
    let (tx, rx) = channel();
    std::thread::Builder::new()
        .name("stdin-reader".into())
        .spawn(move || {
            let mut stdin = std::io::stdin().lock();
            let mut buf = vec![0u8; 64 * 1024];
            loop {
                let msg = match stdin.read(&mut buf) {
                    Ok(0) => Input::Eof,
                    Ok(n) => Input::Chunk(buf[..n].to_vec()),
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                    Err(e) => Input::Failed(e.to_string()),
                };
                let done = !matches!(msg, Input::Chunk(_));
                if tx.send(msg).is_err() {
                    return;
                }
                ctx.request_repaint();
                if done {
                    return;
                }
            }
        })?;
    Ok(rx)
}

static WRITER: std::sync::Mutex<Option<std::thread::JoinHandle<()>>> = std::sync::Mutex::new(None);

/// Start the stdout writer: each string sent is written as one line and flushed.
pub fn spawn_writer() -> std::io::Result<Sender<String>> {
    let (tx, rx) = channel::<String>();
    let handle = std::thread::Builder::new()
        .name("stdout-writer".into())
        .spawn(move || {
            let mut out = std::io::stdout().lock();
            for line in rx {
                if writeln!(out, "{line}").and_then(|()| out.flush()).is_err() {
                    return;
                }
            }
        })?;
    if let Ok(mut w) = WRITER.lock() {
        *w = Some(handle);
    }
    Ok(tx)
}

/// At exit, once the window (and with it every sender) is gone: let the writer print what
/// is still queued, waiting at most two seconds.
pub fn finish_writer() {
    let Some(handle) = WRITER.lock().ok().and_then(|mut w| w.take()) else {
        return;
    };
    let start = std::time::Instant::now();
    while !handle.is_finished() && start.elapsed() < std::time::Duration::from_secs(2) {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    if handle.is_finished() {
        let _ = handle.join();
    }
}
