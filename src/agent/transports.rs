//! The transports' host helpers as [`AgentConnection`]s, and [`connect`] from a target
//! string.

// With the internal `__transport` feature alone (no transport on), the helpers below have
// nobody to serve: `cargo check --features __transport` stays quiet.
#![cfg_attr(
    not(any(
        feature = "a2a",
        feature = "agui",
        feature = "chat",
        feature = "mcp-http"
    )),
    allow(unused_imports, dead_code)
)]

use super::{AgentConnection, ConnectionStatus};
use crate::model::{AgentOrigin, SurfaceStore};
use crate::transport::{TaskState, TransportError, TransportEvent, TransportOptions, Turn};

/// Reach the agent `target` names (see [`Agent::connect`](super::Agent::connect)).
pub(super) fn connect(
    target: &str,
    catalog: crate::render::catalog::Catalog,
    options: TransportOptions,
    repaint: impl Fn() + Send + Sync + 'static,
) -> Result<Box<dyn AgentConnection>, TransportError> {
    let target = target.trim();
    #[cfg(feature = "mcp-http")]
    if is_bare_command(target) {
        return connect(&format!("mcp+stdio:{target}"), catalog, options, repaint);
    }
    let (scheme, rest) = target.split_once(':').ok_or_else(|| unsupported(target))?;
    match scheme.to_ascii_lowercase().as_str() {
        #[cfg(feature = "a2a")]
        "a2a+http" | "a2a+https" => {
            let url = strip_plus(scheme, rest);
            let host = crate::transport::a2a::A2aHost::connect(&url, catalog, options, repaint)?;
            Ok(Box::new(Http {
                host,
                kind: "A2A",
                endpoint: url,
                queued: Vec::new(),
            }))
        }
        #[cfg(feature = "agui")]
        "agui+http" | "agui+https" => {
            let url = strip_plus(scheme, rest);
            let host = crate::transport::agui::AguiHost::connect(&url, catalog, options, repaint)?;
            Ok(Box::new(Http {
                host,
                kind: "AG-UI",
                endpoint: url,
                queued: Vec::new(),
            }))
        }
        #[cfg(feature = "chat")]
        "chat+http" | "chat+https" => {
            let url = strip_plus(scheme, rest);
            let (url, model) = url.split_once('#').ok_or_else(|| {
                TransportError::Action(
                    "a chat target names its model after '#': chat+http://host:port/v1#MODEL"
                        .into(),
                )
            })?;
            let config = crate::transport::chat::ChatConfig::new(url, model, &catalog);
            let host =
                crate::transport::chat::ChatHost::connect(config, catalog, options, repaint)?;
            Ok(Box::new(Http {
                host,
                kind: "Model",
                endpoint: url.to_owned(),
                queued: Vec::new(),
            }))
        }
        #[cfg(feature = "mcp-http")]
        "mcp+http" | "mcp+https" => {
            let url = strip_plus(scheme, rest);
            let host =
                crate::transport::mcp_http::McpHost::connect(&url, &catalog, options, repaint)?;
            Ok(Box::new(host))
        }
        #[cfg(feature = "mcp-http")]
        "mcp+stdio" => {
            let (program, args) = program_and_args(rest)?;
            let host = crate::transport::mcp_http::McpHost::spawn(
                &program, &args, &catalog, options, repaint,
            )?;
            Ok(Box::new(host))
        }
        "jsonl" => {
            let store = SurfaceStore::with_config(catalog.catalogs(), options.limits.clone());
            let (program, args) = program_and_args(rest)?;
            let p = super::JsonlProcess::spawn(&program, &args, store, repaint)?;
            Ok(Box::new(p))
        }
        _ => Err(unsupported(target)),
    }
}

#[cfg(feature = "mcp-http")]
/// Whether `target` is a bare command line (no `scheme:` before its first space), which
/// [`connect`] runs as an MCP server over stdio.
fn is_bare_command(target: &str) -> bool {
    let first = target.split_whitespace().next().unwrap_or_default();
    !first.is_empty() && !first.contains(':')
}

fn program_and_args(line: &str) -> Result<(String, Vec<String>), TransportError> {
    let mut words = split_command(line).map_err(TransportError::Action)?;
    let program = words.remove(0);
    Ok((program, words))
}

/// Split a command line into words, as a POSIX shell would without expanding anything:
/// white space separates, `'…'` and `"…"` quote (`\` escapes inside double quotes), `\`
/// escapes outside quotes. No shell runs the command.
///
/// ```
/// use egui_a2ui::agent::split_command;
/// assert_eq!(split_command(r#"python3 "my agent.py" --port 0"#).unwrap(),
///            ["python3", "my agent.py", "--port", "0"]);
/// assert!(split_command("a 'b").is_err());
/// assert!(split_command("  ").is_err());
/// ```
pub fn split_command(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(ch) => cur.push(ch),
                        None => return Err("unclosed ' in the command".into()),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => cur.extend(chars.next()),
                        Some(ch) => cur.push(ch),
                        None => return Err("unclosed \" in the command".into()),
                    }
                }
            }
            '\\' => {
                in_word = true;
                cur.extend(chars.next());
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                cur.push(c);
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    if words.is_empty() {
        return Err("empty command".into());
    }
    Ok(words)
}

fn unsupported(target: &str) -> TransportError {
    let shown: String = target.chars().take(80).collect();
    TransportError::Unsupported(format!(
        "agent target {shown:?}: expected a2a+http(s)://, agui+http(s)://, mcp+http(s)://, mcp+stdio:<command>, jsonl:<command>, or a command (MCP over stdio)"
    ))
}

/// `a2a+https` + `//host/…` → `https://host/…`.
fn strip_plus(scheme: &str, rest: &str) -> String {
    let inner = scheme.split_once('+').map_or(scheme, |(_, s)| s);
    format!("{}:{rest}", inner.to_ascii_lowercase())
}

/// An A2A or AG-UI host helper.
#[cfg(any(feature = "a2a", feature = "agui", feature = "chat"))]
struct Http<S> {
    host: crate::transport::host::HttpHost<S>,
    kind: &'static str,
    endpoint: String,
    /// The request a turn sent, handed out by the next poll (the host only logs it).
    queued: Vec<TransportEvent>,
}

#[cfg(any(feature = "a2a", feature = "agui", feature = "chat"))]
trait Named {
    fn agent_name(&self) -> Option<String>;
}

#[cfg(feature = "a2a")]
impl Named for crate::transport::a2a::A2aSession {
    fn agent_name(&self) -> Option<String> {
        Some(self.card().name.clone())
    }
}

#[cfg(feature = "chat")]
impl Named for crate::transport::chat::ChatSession {
    fn agent_name(&self) -> Option<String> {
        self.store().origin().map(|o| o.name().to_owned())
    }
}

#[cfg(feature = "agui")]
impl Named for crate::transport::agui::AguiSession {
    fn agent_name(&self) -> Option<String> {
        None
    }
}

#[cfg(any(feature = "a2a", feature = "agui", feature = "chat"))]
impl<S> AgentConnection for Http<S>
where
    S: crate::transport::host::HttpSession + Named,
{
    fn kind(&self) -> &'static str {
        self.kind
    }

    fn origin(&self) -> Option<AgentOrigin> {
        let session = self.host.session()?;
        Some(
            match session.agent_name().filter(|n| !n.trim().is_empty()) {
                Some(name) => AgentOrigin::new(name).with_host(&self.endpoint),
                None => AgentOrigin::from_endpoint(&self.endpoint)?,
            },
        )
    }

    fn status(&self) -> ConnectionStatus {
        if let Some(e) = self.host.connect_error() {
            ConnectionStatus::Failed(e.clone())
        } else if self.host.session().is_none() {
            ConnectionStatus::Connecting
        } else if self.host.is_busy() {
            ConnectionStatus::Busy
        } else {
            ConnectionStatus::Ready
        }
    }

    fn send(&mut self, turn: Turn) -> Result<(), TransportError> {
        self.host.send(turn)?;
        if let Some(request @ TransportEvent::Request { .. }) = self.host.log().last() {
            self.queued.push(request.clone());
        }
        Ok(())
    }

    fn cancel(&mut self) -> Result<(), TransportError> {
        self.host.cancel()
    }

    fn poll(&mut self) -> Vec<TransportEvent> {
        let mut out = std::mem::take(&mut self.queued);
        out.extend(self.host.poll());
        out
    }

    fn state(&self) -> Option<&TaskState> {
        self.host.session()?.state()
    }

    fn record_responses(&mut self, on: bool) {
        self.host.set_record_responses(on);
    }

    fn take_responses(&mut self) -> Vec<serde_json::Value> {
        self.host.take_responses()
    }

    fn stores(&self) -> Vec<&SurfaceStore> {
        self.host.session().map(|s| s.store()).into_iter().collect()
    }

    fn stores_mut(&mut self) -> Vec<&mut SurfaceStore> {
        self.host
            .session_mut()
            .map(|s| s.store_mut())
            .into_iter()
            .collect()
    }

    fn partial_text(&self) -> Option<&str> {
        self.host.session()?.partial_text()
    }

    fn continuation(&self) -> Option<serde_json::Value> {
        self.host.continuation()
    }

    fn continue_from(&mut self, state: &serde_json::Value) {
        self.host.continue_from(state.clone());
    }
}

/// An MCP server over Streamable HTTP (`MCP`) or over a child's stdio (`MCP stdio`).
#[cfg(feature = "mcp-http")]
impl AgentConnection for crate::transport::mcp_http::McpHost {
    fn kind(&self) -> &'static str {
        if self.endpoint().starts_with("stdio:") {
            "MCP stdio"
        } else {
            "MCP"
        }
    }

    fn origin(&self) -> Option<AgentOrigin> {
        let server = self.server()?;
        Some(AgentOrigin::new(server).with_host(self.endpoint()))
    }

    fn status(&self) -> ConnectionStatus {
        if let Some(e) = self.connect_error() {
            ConnectionStatus::Failed(e.clone())
        } else if self.server().is_none() {
            ConnectionStatus::Connecting
        } else if self.is_busy() {
            ConnectionStatus::Busy
        } else {
            ConnectionStatus::Ready
        }
    }

    fn send(&mut self, turn: Turn) -> Result<(), TransportError> {
        Self::send(self, turn)
    }

    fn cancel(&mut self) -> Result<(), TransportError> {
        Self::cancel(self)
    }

    fn poll(&mut self) -> Vec<TransportEvent> {
        Self::poll(self)
    }

    fn record_responses(&mut self, on: bool) {
        self.set_record_responses(on);
    }

    fn take_responses(&mut self) -> Vec<serde_json::Value> {
        Self::take_responses(self)
    }

    fn state(&self) -> Option<&TaskState> {
        self.conversation().state()
    }

    fn stores(&self) -> Vec<&SurfaceStore> {
        self.conversation().stores().collect()
    }

    fn stores_mut(&mut self) -> Vec<&mut SurfaceStore> {
        self.conversation_mut()
            .hub_mut()
            .sessions_mut()
            .map(crate::mcp::AppSession::store_mut)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_name_their_transport_or_are_refused_with_the_forms() {
        assert_eq!(
            strip_plus("a2a+https", "//h.example/x"),
            "https://h.example/x"
        );
        assert_eq!(strip_plus("MCP+HTTP", "//h/mcp"), "http://h/mcp");
        let e = connect(
            "ftp://example.com",
            crate::render::catalog::Catalog::basic(),
            TransportOptions::default(),
            || {},
        )
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
        assert!(e.contains("a2a+http(s)://"), "{e}");
    }

    #[cfg(feature = "mcp-http")]
    #[test]
    fn a_bare_command_is_mcp_over_stdio_and_quotes_group_words() {
        assert!(is_bare_command("python3 server.py"));
        assert!(is_bare_command("/usr/bin/server"));
        assert!(!is_bare_command("ftp://example.com"));
        assert!(!is_bare_command("jsonl:agent"));
        assert!(!is_bare_command("   "));
        assert_eq!(
            split_command(r#"a 'b c' "d \"e\"" f\ g"#).unwrap(),
            ["a", "b c", "d \"e\"", "f g"]
        );
        assert!(split_command("a \"b").is_err());
        assert!(split_command("").is_err());
    }
}
