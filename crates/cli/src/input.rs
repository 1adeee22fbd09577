//! Reading robots.txt bodies and URL lists.

use std::io::{self, BufRead, Read};

use anyhow::{bail, Context};

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
    if is_remote(source) {
        bail!("cannot read {source:?}: fetching robots.txt over the network is not supported by this build; save the file and pass its path");
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
