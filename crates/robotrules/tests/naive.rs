//! A deliberately naive implementation of the reference parser and matcher,
//! written to be so simple that it is unlikely to be wrong: bytes one at a
//! time, a recursive matcher, and the event-driven state machine that
//! re-reads the whole file for every check. It shares no code with the
//! crate. The property tests and the corpus test compare the crate to it.

use std::collections::HashMap;

/// The verdict and the matching line (0 for none), as the reference's
/// `AllowedByRobots` and `matching_line` give them.
pub fn decide(body: &[u8], agents: &[&str], url: &str) -> (bool, u32) {
    let mut path = get_path(url.as_bytes());
    if let Some(nul) = path.iter().position(|&b| b == 0) {
        path.truncate(nul);
    }
    let none = (-1, 0);
    let mut m = State {
        agents,
        path,
        seen_global: false,
        seen_specific: false,
        ever_seen_specific: false,
        seen_separator: false,
        allow_specific: none,
        disallow_specific: none,
        allow_global: none,
        disallow_global: none,
    };
    for (number, line) in lines(body).into_iter().enumerate() {
        if let Some((key, value)) = key_value(&line) {
            m.directive(number as u32 + 1, &key, &value);
        }
    }
    m.result()
}

/// Splits a body into line contents: BOM prefix skipped, LF, CR and CR LF
/// as breaks, at most 16,663 bytes kept, cut at NUL.
pub fn lines(body: &[u8]) -> Vec<Vec<u8>> {
    let bom = [0xEF, 0xBB, 0xBF];
    let mut skip = 0;
    while skip < 3 && skip < body.len() && body[skip] == bom[skip] {
        skip += 1;
    }
    let mut out = Vec::new();
    let mut current = Vec::new();
    let mut i = skip;
    while i < body.len() {
        let b = body[i];
        if b == b'\n' || b == b'\r' {
            out.push(std::mem::take(&mut current));
            if b == b'\r' && i + 1 < body.len() && body[i + 1] == b'\n' {
                i += 1;
            }
        } else if current.len() < 16663 {
            current.push(b);
        }
        i += 1;
    }
    out.push(current);
    for line in &mut out {
        if let Some(nul) = line.iter().position(|&b| b == 0) {
            line.truncate(nul);
        }
    }
    out
}

fn is_space(b: u8) -> bool {
    b" \t\n\r\x0b\x0c".contains(&b)
}

fn trim(s: &[u8]) -> Vec<u8> {
    let mut v = s.to_vec();
    while v.first().is_some_and(|&b| is_space(b)) {
        v.remove(0);
    }
    while v.last().is_some_and(|&b| is_space(b)) {
        v.pop();
    }
    v
}

/// Returns (key kind, value) of a line, the value already normalised for
/// allow and disallow.
fn key_value(line: &[u8]) -> Option<(String, Vec<u8>)> {
    let line = match line.iter().position(|&b| b == b'#') {
        Some(hash) => &line[..hash],
        None => line,
    };
    let line = trim(line);
    if line.is_empty() {
        return None;
    }
    let sep = match line.iter().position(|&b| b == b':') {
        Some(colon) => colon,
        None => {
            let ws = line.iter().position(|&b| b == b' ' || b == b'\t')?;
            let mut v = ws;
            while line[v] == b' ' || line[v] == b'\t' {
                v += 1;
            }
            if line[v..].iter().any(|&b| b == b' ' || b == b'\t') {
                return None;
            }
            ws
        }
    };
    let key = trim(&line[..sep]);
    if key.is_empty() {
        return None;
    }
    let value = trim(&line[sep + 1..]);
    let lower: Vec<u8> = key.to_ascii_lowercase();
    let starts = |p: &str| lower.starts_with(p.as_bytes());
    let kind =
        if starts("user-agent") || starts("useragent") || starts("user agent")
        {
            "ua"
        } else if starts("allow") {
            "allow"
        } else if [
            "disallow",
            "dissallow",
            "dissalow",
            "disalow",
            "diasllow",
            "disallaw",
        ]
        .iter()
        .any(|p| starts(p))
        {
            "disallow"
        } else if starts("sitemap") || starts("site-map") {
            "sitemap"
        } else {
            "unknown"
        };
    let value = if kind == "allow" || kind == "disallow" {
        escape(&value)
    } else {
        value
    };
    Some((kind.to_string(), value))
}

/// Pattern normalisation, one byte at a time.
pub fn escape(value: &[u8]) -> Vec<u8> {
    let hex = b"0123456789ABCDEF";
    let mut out = Vec::new();
    let mut i = 0;
    while i < value.len() {
        let b = value[i];
        if b == b'%'
            && i + 2 < value.len()
            && value[i + 1].is_ascii_hexdigit()
            && value[i + 2].is_ascii_hexdigit()
        {
            out.push(b'%');
            out.push(value[i + 1].to_ascii_uppercase());
            out.push(value[i + 2].to_ascii_uppercase());
            i += 3;
        } else if b >= 0x80 {
            out.extend_from_slice(&[
                b'%',
                hex[(b >> 4) as usize],
                hex[(b & 15) as usize],
            ]);
            i += 1;
        } else {
            out.push(b);
            i += 1;
        }
    }
    out
}

/// The URL path of the reference, written out step by step.
pub fn get_path(url: &[u8]) -> Vec<u8> {
    let find_any = |from: usize, set: &[u8]| {
        (from..url.len()).find(|&i| set.contains(&url[i]))
    };
    let start =
        if url.len() >= 2 && url[0] == b'/' && url[1] == b'/' { 2 } else { 0 };
    let early = find_any(start, b"/?;");
    let scheme = (start..url.len().saturating_sub(2))
        .find(|&i| &url[i..i + 3] == b"://");
    let after_scheme = match (early, scheme) {
        (Some(e), Some(s)) if e < s => start,
        (_, Some(s)) => s + 3,
        _ => start,
    };
    let Some(begin) = find_any(after_scheme, b"/?;") else {
        return b"/".to_vec();
    };
    let hash = find_any(start, b"#");
    if hash.is_some_and(|h| h < begin) {
        return b"/".to_vec();
    }
    let end = hash.unwrap_or(url.len());
    let mut path = Vec::new();
    if url[begin] != b'/' {
        path.push(b'/');
    }
    path.extend_from_slice(&url[begin..end]);
    path
}

/// Returns true if `pattern` matches a prefix of `path` (or all of it
/// with a final `$`), by plain recursion with a memo.
pub fn matches(pattern: &[u8], path: &[u8]) -> bool {
    fn go(
        p: &[u8],
        s: &[u8],
        i: usize,
        j: usize,
        memo: &mut HashMap<(usize, usize), bool>,
    ) -> bool {
        if let Some(&r) = memo.get(&(i, j)) {
            return r;
        }
        let r = if i == p.len() {
            true
        } else if p[i] == b'$' && i + 1 == p.len() {
            j == s.len()
        } else if p[i] == b'*' {
            (j..=s.len()).any(|k| go(p, s, i + 1, k, memo))
        } else {
            j < s.len() && s[j] == p[i] && go(p, s, i + 1, j + 1, memo)
        };
        memo.insert((i, j), r);
        r
    }
    go(pattern, path, 0, 0, &mut HashMap::new())
}

struct State<'a> {
    agents: &'a [&'a str],
    path: Vec<u8>,
    seen_global: bool,
    seen_specific: bool,
    ever_seen_specific: bool,
    seen_separator: bool,
    /// (priority, line) of the best allow/disallow, specific and global.
    allow_specific: (i64, u32),
    disallow_specific: (i64, u32),
    allow_global: (i64, u32),
    disallow_global: (i64, u32),
}

impl State<'_> {
    fn directive(&mut self, line: u32, kind: &str, value: &[u8]) {
        match kind {
            "ua" => self.user_agent(value),
            "allow" => self.rule(line, value, true),
            "disallow" => self.rule(line, value, false),
            _ => {}
        }
    }

    fn user_agent(&mut self, value: &[u8]) {
        if self.seen_separator {
            self.seen_specific = false;
            self.seen_global = false;
            self.seen_separator = false;
        }
        if !value.is_empty()
            && value[0] == b'*'
            && (value.len() == 1 || is_space(value[1]))
        {
            self.seen_global = true;
            return;
        }
        let mut end = 0;
        while end < value.len()
            && (value[end].is_ascii_alphabetic()
                || value[end] == b'-'
                || value[end] == b'_')
        {
            end += 1;
        }
        let token = &value[..end];
        if self.agents.iter().any(|a| a.as_bytes().eq_ignore_ascii_case(token))
        {
            self.seen_specific = true;
            self.ever_seen_specific = true;
        }
    }

    fn rule(&mut self, line: u32, value: &[u8], allow: bool) {
        if !self.seen_global && !self.seen_specific {
            return;
        }
        self.seen_separator = true;
        if matches(value, &self.path) {
            let slot = match (allow, self.seen_specific) {
                (true, true) => &mut self.allow_specific,
                (true, false) => &mut self.allow_global,
                (false, true) => &mut self.disallow_specific,
                (false, false) => &mut self.disallow_global,
            };
            if slot.0 < value.len() as i64 {
                *slot = (value.len() as i64, line);
            }
        } else if allow {
            if let Some(slash) = value.iter().rposition(|&b| b == b'/') {
                if value[slash..].starts_with(b"/index.htm") {
                    let mut retry = value[..=slash].to_vec();
                    retry.push(b'$');
                    self.rule(line, &retry, true);
                }
            }
        }
    }

    fn result(&self) -> (bool, u32) {
        let pick =
            |d: (i64, u32), a: (i64, u32)| if d.0 > a.0 { d.1 } else { a.1 };
        let (allow, disallow) = if self.ever_seen_specific {
            (self.allow_specific, self.disallow_specific)
        } else {
            (self.allow_global, self.disallow_global)
        };
        let disallowed =
            (allow.0 > 0 || disallow.0 > 0) && disallow.0 > allow.0;
        let line = pick(disallow, allow);
        (!disallowed, line)
    }
}
