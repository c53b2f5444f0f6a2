//! The transports' host helpers as [`AgentConnection`]s, and [`connect`] from a target
//! string.

use super::{AgentConnection, ConnectionStatus};
use crate::model::{AgentOrigin, SurfaceStore};
use crate::transport::{TaskState, TransportError, TransportEvent, TransportOptions, Turn};

/// Reach the agent `target` names (see [`Agent::connect`](super::Agent::connect)).
pub(super) fn connect(
    target: &str,
    catalog: crate::Catalog,
    options: TransportOptions,
    repaint: impl Fn() + Send + Sync + 'static,
) -> Result<Box<dyn AgentConnection>, TransportError> {
    let target = target.trim();
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
            }))
        }
        #[cfg(feature = "mcp-http")]
        "mcp+http" | "mcp+https" => {
            let url = strip_plus(scheme, rest);
            let host = crate::transport::mcp::McpHost::connect(&url, &catalog, options, repaint)?;
            Ok(Box::new(Mcp {
                host,
                endpoint: url,
            }))
        }
        "jsonl" => {
            let store = SurfaceStore::with_config(catalog.catalogs(), options.limits.clone());
            let p = super::JsonlProcess::spawn_command_line(rest, store, repaint)?;
            Ok(Box::new(p))
        }
        _ => Err(unsupported(target)),
    }
}

fn unsupported(target: &str) -> TransportError {
    let shown: String = target.chars().take(80).collect();
    TransportError::Unsupported(format!(
        "agent target {shown:?}: expected a2a+http(s)://, agui+http(s)://, mcp+http(s):// or jsonl:<command>"
    ))
}

/// `a2a+https` + `//host/…` → `https://host/…`.
fn strip_plus(scheme: &str, rest: &str) -> String {
    let inner = scheme.split_once('+').map_or(scheme, |(_, s)| s);
    format!("{}:{rest}", inner.to_ascii_lowercase())
}

/// An A2A or AG-UI host helper.
#[cfg(any(feature = "a2a", feature = "agui"))]
struct Http<S> {
    host: crate::transport::host::HttpHost<S>,
    kind: &'static str,
    endpoint: String,
}

#[cfg(any(feature = "a2a", feature = "agui"))]
trait Named {
    fn agent_name(&self) -> Option<String>;
}

#[cfg(feature = "a2a")]
impl Named for crate::transport::a2a::A2aSession {
    fn agent_name(&self) -> Option<String> {
        Some(self.card().name.clone())
    }
}

#[cfg(feature = "agui")]
impl Named for crate::transport::agui::AguiSession {
    fn agent_name(&self) -> Option<String> {
        None
    }
}

#[cfg(any(feature = "a2a", feature = "agui"))]
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
        self.host.send(turn)
    }

    fn cancel(&mut self) -> Result<(), TransportError> {
        self.host.cancel()
    }

    fn poll(&mut self) -> Vec<TransportEvent> {
        self.host.poll()
    }

    fn state(&self) -> Option<&TaskState> {
        self.host.session()?.state()
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
}

/// An MCP server over Streamable HTTP.
#[cfg(feature = "mcp-http")]
struct Mcp {
    host: crate::transport::mcp::McpHost,
    endpoint: String,
}

#[cfg(feature = "mcp-http")]
impl AgentConnection for Mcp {
    fn kind(&self) -> &'static str {
        "MCP"
    }

    fn origin(&self) -> Option<AgentOrigin> {
        let server = self.host.server()?;
        Some(AgentOrigin::new(server).with_host(&self.endpoint))
    }

    fn status(&self) -> ConnectionStatus {
        if let Some(e) = self.host.connect_error() {
            ConnectionStatus::Failed(e.clone())
        } else if self.host.server().is_none() {
            ConnectionStatus::Connecting
        } else if self.host.is_busy() {
            ConnectionStatus::Busy
        } else {
            ConnectionStatus::Ready
        }
    }

    fn send(&mut self, turn: Turn) -> Result<(), TransportError> {
        self.host.send(turn)
    }

    fn cancel(&mut self) -> Result<(), TransportError> {
        self.host.cancel()
    }

    fn poll(&mut self) -> Vec<TransportEvent> {
        self.host.poll()
    }

    fn state(&self) -> Option<&TaskState> {
        self.host.conversation().state()
    }

    fn stores(&self) -> Vec<&SurfaceStore> {
        self.host.conversation().stores().collect()
    }

    fn stores_mut(&mut self) -> Vec<&mut SurfaceStore> {
        self.host
            .conversation_mut()
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
            crate::Catalog::basic(),
            TransportOptions::default(),
            || {},
        )
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
        assert!(e.contains("a2a+http(s)://"), "{e}");
    }
}
