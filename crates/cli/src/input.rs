//! Reading robots.txt bodies (files, standard input or URLs) and URL lists.

use std::borrow::Cow;
use std::io::{self, BufRead, Read};
use std::time::Duration;

use anyhow::Context;
use robotrules_analysis::{escape, Warning, WarningKind};
use robotrules_fetch::policy::{self, Access};
use robotrules_fetch::url::Url;
use robotrules_fetch::{Authority, Fetch, FetcherConfig};

/// A robots.txt as a command got it.
pub enum Loaded {
    /// Bytes from a file or standard input.
    Local(Vec<u8>),
    /// The result of fetching it over the network.
    Remote(Box<Remote>),
}

/// A fetched robots.txt: what the fetch came to, and what that means for
/// crawlers (RFC 9309 §2.3.1).
pub struct Remote {
    /// Everything that happened.
    pub fetch: Fetch,
    /// What the outcome means: obey the rules, allow all, disallow all.
    pub access: Access,
}

impl Remote {
    /// Judges a fetch.
    pub fn new(fetch: Fetch) -> Remote {
        let access = policy::access(&fetch.outcome);
        Remote { fetch, access }
    }

    /// One sentence for people: the outcome and what it means, such as
    /// `robots.txt unreachable (503): every URL is disallowed for now`.
    pub fn summary(&self) -> String {
        let meaning = match self.access {
            Access::Obey => "its rules apply",
            Access::AllowAll => "there is none, so every URL is allowed",
            Access::DisallowAll => "every URL is disallowed for now",
            _ => "see the outcome",
        };
        format!("robots.txt {}: {meaning}", self.fetch.outcome.describe())
    }

    /// The notes a command should show: the summary unless the rules
    /// apply, and a note if the body was cut at 500 KiB.
    pub fn notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        if self.access != Access::Obey {
            notes.push(self.summary());
        }
        if self.fetch.truncated {
            notes.push(format!(
                "robots.txt is over 500 KiB: only the first {} bytes are \
                 read, as Google does",
                self.fetch.bytes_read
            ));
        }
        notes
    }
}

/// What a command works on: see [`Loaded::effective`].
pub struct Effective<'a> {
    /// The rules to read: empty when the fetch gave none.
    pub body: &'a [u8],
    /// `Some(true)` when crawlers may fetch every URL whatever the rules
    /// (no robots.txt: 4xx), `Some(false)` when they may fetch none (5xx,
    /// unreachable: RFC 9309 §2.3.1.4), `None` when the rules decide.
    pub forced: Option<bool>,
    /// The fetch, for a robots.txt from the network.
    pub remote: Option<&'a Remote>,
}

impl Effective<'_> {
    /// The URL a crawler requests for `url`, for a fetched robots.txt:
    /// `url` itself, or a path (`/…`) on the fetched site, parsed as a
    /// browser parses it. `None` for a local file, or for text that is
    /// neither.
    fn requested(&self, url: &str) -> Option<Url> {
        let remote = self.remote?;
        match Url::parse(url) {
            Ok(parsed) => Some(parsed),
            Err(_) if url.starts_with('/') => {
                Url::parse(&remote.fetch.authority.robots_url())
                    .and_then(|base| base.join(url))
                    .ok()
            }
            Err(_) => None,
        }
    }

    /// The text the rules judge for `url`: for a fetched robots.txt, the
    /// path and query a crawler requests (see [`policy::target`]), so that
    /// `/a/../private`, `%2e%2e`, `\` and tabs cannot hide a path, as the
    /// fetch layer judges; `url` itself otherwise.
    pub fn target<'u>(&self, url: &'u str) -> Cow<'u, str> {
        match self.requested(url) {
            Some(parsed) => Cow::Owned(policy::target(&parsed).into_owned()),
            None => Cow::Borrowed(url),
        }
    }

    /// Returns true if the rules judge `url` as a crawler requests it
    /// ([`Effective::target`] resolves it): a `parsed-otherwise` warning
    /// about it would be wrong.
    pub fn judges_as_requested(&self, url: &str) -> bool {
        self.requested(url).is_some()
    }

    /// Returns true if and only if `url` is exempt from the rules: the
    /// robots.txt of a fetched site is always allowed to crawlers
    /// (RFC 9309 §2.2.2).
    pub fn is_exempt(&self, url: &str) -> bool {
        self.requested(url).is_some_and(|u| policy::is_exempt(&u))
    }

    /// The verdict for crawlers, given the rules' verdict: the fetch
    /// outcome when it leaves no rules, and always allowed for the site's
    /// own robots.txt.
    pub fn verdict(&self, url: &str, by_rules: bool) -> bool {
        self.is_exempt(url) || self.forced.unwrap_or(by_rules)
    }

    /// The fetch as JSON: the outcome, what it means, and whether the body
    /// was cut; `null` for a local file.
    pub fn fetch_json(&self) -> serde_json::Value {
        let Some(remote) = self.remote else {
            return serde_json::Value::Null;
        };
        serde_json::json!({
            "url": remote.fetch.authority.robots_url(),
            "outcome": remote.fetch.outcome.describe(),
            "access": remote.access.as_str(),
            "truncated": remote.fetch.truncated,
            "bytes": remote.fetch.bytes_read,
        })
    }
}

impl Loaded {
    /// What a command works on: the body to read and, for a fetched
    /// robots.txt, what the fetch came to. Notes on the fetch (an outcome
    /// that leaves no rules to obey, a body cut at 500 KiB) go to
    /// standard error, so that every command reports them the same way.
    pub fn effective(&self, source: &str) -> Effective<'_> {
        match self {
            Loaded::Local(body) => {
                Effective { body, forced: None, remote: None }
            }
            Loaded::Remote(remote) => {
                for note in remote.notes() {
                    eprintln!("robotrules: {}: {note}", escape(source));
                }
                let (body, forced): (&[u8], _) = match remote.access {
                    Access::Obey => (&remote.fetch.body, None),
                    Access::AllowAll => (&[], Some(true)),
                    _ => (&[], Some(false)),
                };
                Effective { body, forced, remote: Some(remote) }
            }
        }
    }
}

/// Loads a robots.txt from a file, from standard input for `-`, or, for an
/// `http://`, `https://` or `ftp://` URL, from the network: the robots.txt
/// of that URL's authority, with the RFC 9309 rules for redirects, status
/// codes and size.
pub fn load(source: &str) -> anyhow::Result<Loaded> {
    if is_remote(source) {
        return Ok(Loaded::Remote(Box::new(Remote::new(fetch(source)?))));
    }
    read_robots(source).map(Loaded::Local)
}

/// Fetches the robots.txt that governs `url`, with the default settings.
pub fn fetch(url: &str) -> anyhow::Result<Fetch> {
    fetch_with(url, &Settings::default())
}

/// How to fetch: `None` keeps the fetcher's default.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    /// The time limit of the whole fetch.
    pub timeout: Option<Duration>,
    /// The `User-Agent` header.
    pub user_agent: Option<String>,
}

/// Fetches the robots.txt that governs `url`.
pub fn fetch_with(url: &str, settings: &Settings) -> anyhow::Result<Fetch> {
    let authority = Authority::of(url)?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the network runtime")?;
    let mut config = FetcherConfig::default();
    if let Some(timeout) = settings.timeout {
        config = config.timeout(timeout);
    }
    if let Some(agent) = &settings.user_agent {
        config = config.user_agent(agent.clone());
    }
    let fetcher = config.build()?;
    let fetch = runtime.block_on(fetcher.fetch(&authority));
    // A name lookup that outlived the timeout runs on a blocking thread
    // that dropping the runtime would wait for: leave it behind.
    runtime.shutdown_background();
    Ok(fetch)
}

/// Reads a robots.txt body from a file, or from standard input for `-`,
/// as raw bytes. A body over [`robotrules::MAX_BODY_LEN`] is said to be
/// cut, on standard error: the parser reads only that much of it.
pub fn read_robots(source: &str) -> anyhow::Result<Vec<u8>> {
    let body = if source == "-" {
        let mut body = Vec::new();
        io::stdin()
            .lock()
            .read_to_end(&mut body)
            .context("failed to read robots.txt from standard input")?;
        body
    } else {
        std::fs::read(source)
            .with_context(|| format!("failed to read file \"{source}\""))?
    };
    if let Some(warning) = too_long(source, body.len()) {
        eprintln!("{warning}");
    }
    Ok(body)
}

/// The warning for a body of `len` bytes past what the parser reads, if
/// it is.
fn too_long(source: &str, len: usize) -> Option<String> {
    const MIB: usize = 1 << 20;
    (len > robotrules::MAX_BODY_LEN).then(|| {
        format!(
            "robotrules: warning: \"{}\" is {} MiB: only its first {} MiB \
             are read, and lines past them are ignored (Google's reference \
             parser reads them all; crawlers read only the first 500 KiB)",
            escape(source),
            len.div_ceil(MIB),
            robotrules::MAX_BODY_LEN / MIB
        )
    })
}

/// Returns true if `source` looks like a URL rather than a path.
pub fn is_remote(source: &str) -> bool {
    ["http://", "https://", "ftp://"].iter().any(|s| {
        source.len() >= s.len() && source[..s.len()].eq_ignore_ascii_case(s)
    })
}

/// Reads URLs one per line, calling `each` for every non-blank line, in
/// constant memory. Line ends (LF or CR LF) are removed. A line that is not
/// UTF-8 has its invalid bytes percent-encoded, as a crawler requests
/// them: `each` then gets a warning that says so (for the line's JSON),
/// and standard error gets it once.
pub fn each_url(
    mut reader: impl BufRead,
    mut each: impl FnMut(&str, Option<Warning>) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let mut buf = Vec::with_capacity(256);
    let mut number = 0u64;
    let mut warned = false;
    loop {
        buf.clear();
        if reader
            .read_until(b'\n', &mut buf)
            .context("failed to read URLs from standard input")?
            == 0
        {
            return Ok(());
        }
        number += 1;
        let mut line = buf.as_slice();
        if let Some(rest) = line.strip_suffix(b"\n") {
            line = rest.strip_suffix(b"\r").unwrap_or(rest);
        }
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        match std::str::from_utf8(line) {
            Ok(url) => each(url, None)?,
            Err(_) => {
                let first = line
                    .utf8_chunks()
                    .find_map(|c| c.invalid().first().copied())
                    .unwrap_or_default();
                let encoded = encode_invalid(line);
                let warning = Warning {
                    kind: WarningKind::NeedsEncoding,
                    message: format!(
                        "URL on input line {number} is not UTF-8: its bytes \
                         that are not UTF-8 are read percent-encoded \
                         (`%{first:02X}`), as a crawler requests them"
                    ),
                    // What a crawler requests, as the URL's other
                    // warning gives it (`é` encoded too).
                    suggestion: Some(
                        robotrules_analysis::percent_encode(&encoded)
                            .into_owned(),
                    ),
                };
                if !warned {
                    eprintln!("robotrules: warning: {}", warning.message);
                    warned = true;
                }
                each(&encoded, Some(warning))?;
            }
        }
    }
}

/// `bytes` as text, each byte of it that is not UTF-8 percent-encoded.
fn encode_invalid(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() + 8);
    for chunk in bytes.utf8_chunks() {
        out.push_str(chunk.valid());
        for b in chunk.invalid() {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_that_are_not_utf8_are_read_encoded() {
        assert_eq!(encode_invalid(b"/caf\xE9/\xC3\xA9"), "/caf%E9/\u{e9}");
        assert_eq!(encode_invalid(b"/\xFF\xFE"), "/%FF%FE");
    }

    #[test]
    fn a_body_past_what_the_parser_reads_is_said_to_be_cut() {
        let max = robotrules::MAX_BODY_LEN;
        assert_eq!(too_long("a.txt", max), None);
        let w = too_long("a.txt", max + 1).unwrap();
        assert!(
            w.contains("\"a.txt\" is 257 MiB: only its first 256 MiB"),
            "{w}"
        );
    }
}
