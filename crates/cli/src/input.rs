//! Reading robots.txt bodies (files, standard input or URLs) and URL lists.

use std::io::{self, BufRead, Read};

use anyhow::Context;
use robotrules_fetch::{Authority, Fetch, Fetcher, Outcome};

/// A robots.txt as a command got it.
pub enum Loaded {
    /// Bytes from a file or standard input.
    Local(Vec<u8>),
    /// The result of fetching it over the network.
    Remote(Box<Fetch>),
}

impl Loaded {
    /// The body, when there is one to read: a local file, or a fetched
    /// file that is available. Otherwise an error that says what happened.
    pub fn body(&self, source: &str) -> anyhow::Result<&[u8]> {
        match self {
            Loaded::Local(body) => Ok(body),
            Loaded::Remote(fetch) => match &fetch.outcome {
                Outcome::Available(_) => Ok(&fetch.body),
                other => anyhow::bail!(
                    "{source}: robots.txt is {}",
                    other.describe()
                ),
            },
        }
    }
}

/// Loads a robots.txt from a file, from standard input for `-`, or, for an
/// `http://`, `https://` or `ftp://` URL, from the network: the robots.txt
/// of that URL's authority, with the RFC 9309 rules for redirects, status
/// codes and size.
pub fn load(source: &str) -> anyhow::Result<Loaded> {
    if is_remote(source) {
        return Ok(Loaded::Remote(Box::new(fetch(source)?)));
    }
    read_robots(source).map(Loaded::Local)
}

/// Fetches the robots.txt that governs `url`.
pub fn fetch(url: &str) -> anyhow::Result<Fetch> {
    let authority = Authority::of(url)?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the network runtime")?;
    let fetcher = Fetcher::new()?;
    Ok(runtime.block_on(fetcher.fetch(&authority)))
}

/// Reads a robots.txt body from a file, or from standard input for `-`,
/// as raw bytes.
pub fn read_robots(source: &str) -> anyhow::Result<Vec<u8>> {
    if source == "-" {
        let mut body = Vec::new();
        io::stdin()
            .lock()
            .read_to_end(&mut body)
            .context("failed to read robots.txt from standard input")?;
        return Ok(body);
    }
    std::fs::read(source)
        .with_context(|| format!("failed to read file \"{source}\""))
}

/// Returns true if `source` looks like a URL rather than a path.
pub fn is_remote(source: &str) -> bool {
    ["http://", "https://", "ftp://"].iter().any(|s| {
        source.len() >= s.len() && source[..s.len()].eq_ignore_ascii_case(s)
    })
}

/// Reads URLs one per line, calling `each` for every non-blank line, in
/// constant memory. Line ends (LF or CR LF) are removed. A line that is not
/// UTF-8 has its invalid bytes replaced (which cannot change a verdict:
/// patterns are ASCII, so such bytes are only ever matched by `*`), and a
/// warning says so once.
pub fn each_url(
    mut reader: impl BufRead,
    mut each: impl FnMut(&str) -> anyhow::Result<()>,
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
            Ok(url) => each(url)?,
            Err(_) => {
                if !warned {
                    eprintln!("robotrules: warning: URL on input line {number} is not UTF-8; its invalid bytes are shown replaced");
                    warned = true;
                }
                each(&String::from_utf8_lossy(line))?;
            }
        }
    }
}
