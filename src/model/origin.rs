//! [`AgentOrigin`]: who the host says a store's surfaces come from.
//!
//! An agent chooses everything inside its surfaces, its name (`theme.agentDisplayName`)
//! included, so nothing inside a surface can tell the user whose UI it is. The origin is set
//! by the host or the transport (from what it connected to: an A2A card's name and endpoint
//! host, an MCP server's name, an AG-UI endpoint host), never by the agent; the renderer
//! frames every surface of a store with an origin and labels it, its `Modal` dialogs and its
//! obscured text fields with it.

/// Who a store's surfaces come from, as the host or the transport knows it (never as the
/// agent says). Set with [`SurfaceStore::set_origin`](super::SurfaceStore::set_origin).
///
/// ```
/// use egui_a2ui::model::AgentOrigin;
///
/// let origin = AgentOrigin::new("Travel agent").with_host("agents.example.com");
/// assert_eq!(origin.label(), "Travel agent · agents.example.com");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentOrigin {
    name: String,
    host: Option<String>,
}

/// The longest name or host kept (characters); longer ones are cut with an ellipsis.
pub const MAX_ORIGIN_CHARS: usize = 80;

impl AgentOrigin {
    /// An origin named `name` (an A2A card's `name`, an MCP server's `serverInfo.name`, or
    /// the host's own name for the agent). Control characters and line breaks become spaces,
    /// runs of spaces one space, and the name is cut at [`MAX_ORIGIN_CHARS`].
    pub fn new(name: impl AsRef<str>) -> Self {
        Self {
            name: one_line(name.as_ref()),
            host: None,
        }
    }

    /// The origin of an endpoint URL: named after its host (as the URL policy parses it,
    /// IDNA-normalised), for a transport that knows nothing better. `None` when the URL has
    /// no host.
    pub fn from_endpoint(url: &str) -> Option<Self> {
        let host = endpoint_host(url)?;
        Some(Self {
            name: host,
            host: None,
        })
    }

    /// Add where the agent is reached (an endpoint's host, `stdio: <command>`): shown after
    /// the name. A URL is reduced to its host; anything else is kept as one line.
    #[must_use]
    pub fn with_host(mut self, host: impl AsRef<str>) -> Self {
        let host = host.as_ref();
        let host = endpoint_host(host).unwrap_or_else(|| one_line(host));
        self.host = (!host.is_empty() && host != self.name).then_some(host);
        self
    }

    /// The name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Where the agent is reached, when known.
    pub fn host(&self) -> Option<&str> {
        self.host.as_deref()
    }

    /// The one-line label drawn on the frame: `name · host`, or the name alone.
    pub fn label(&self) -> String {
        match &self.host {
            Some(h) => format!("{} · {h}", self.name),
            None => self.name.clone(),
        }
    }
}

/// The host of `url` when it is an absolute URL with one (userinfo, port, path and query
/// dropped), lower-cased.
fn endpoint_host(url: &str) -> Option<String> {
    let (scheme, rest) = url.split_once("://")?;
    if scheme.is_empty()
        || !scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "+.-".contains(c))
    {
        return None;
    }
    let authority = rest.split(['/', '?', '#', '\\']).next().unwrap_or_default();
    // Userinfo is everything up to the last `@`.
    let host_port = authority.rsplit('@').next().unwrap_or_default();
    let host = if let Some(v6) = host_port.strip_prefix('[') {
        format!("[{}]", v6.split(']').next().unwrap_or_default())
    } else {
        host_port.split(':').next().unwrap_or_default().to_owned()
    };
    let host = one_line(&host).to_ascii_lowercase();
    (!host.is_empty()).then_some(host)
}

/// `s` on one line: control characters (line breaks, bidi controls) and runs of white
/// space become one space, trimmed, cut at [`MAX_ORIGIN_CHARS`] characters.
pub(crate) fn one_line(s: &str) -> String {
    let mut out = String::with_capacity(s.len().min(MAX_ORIGIN_CHARS * 4));
    let mut chars = 0;
    let mut space = false;
    for c in s.chars() {
        let blank = c.is_whitespace() || c.is_control() || is_format_control(c);
        if blank {
            space = !out.is_empty();
            continue;
        }
        if chars >= MAX_ORIGIN_CHARS {
            out.push('…');
            break;
        }
        if space {
            out.push(' ');
            chars += 1;
            space = false;
        }
        out.push(c);
        chars += 1;
    }
    out
}

/// Bidirectional and other invisible format characters an agent could use to make a label
/// read other than it is (U+200B..U+200F, U+202A..U+202E, U+2066..U+2069, U+FEFF).
fn is_format_control(c: char) -> bool {
    matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{FEFF}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_one_line_without_invisible_controls() {
        let o = AgentOrigin::new("  Travel\n\nagent\u{202E}\u{200B} ");
        assert_eq!(o.name(), "Travel agent");
        let long = "x".repeat(200);
        assert_eq!(
            AgentOrigin::new(&long).name().chars().count(),
            MAX_ORIGIN_CHARS + 1
        );
    }

    #[test]
    fn an_endpoint_is_reduced_to_its_host_without_userinfo() {
        let o =
            AgentOrigin::from_endpoint("https://user:secret@Agents.Example.com:8443/a2a?token=t")
                .map(|o| o.label());
        assert_eq!(o.as_deref(), Some("agents.example.com"));
        // A backslash ends the authority, as browsers and the URL policy read it.
        let o =
            AgentOrigin::from_endpoint("https://attacker.example\\@bank.com/").map(|o| o.label());
        assert_eq!(o.as_deref(), Some("attacker.example"));
        assert!(AgentOrigin::from_endpoint("not a url").is_none());
        let o = AgentOrigin::new("Weather").with_host("http://127.0.0.1:9000/mcp");
        assert_eq!(o.label(), "Weather · 127.0.0.1");
        let o = AgentOrigin::new("Demo").with_host("stdio: demo-agent --mcp");
        assert_eq!(o.label(), "Demo · stdio: demo-agent --mcp");
    }
}
