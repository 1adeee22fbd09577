//! Bytes to lines, lines to directives, directives to groups
//! (REP.md §4–§6).

use alloc::vec::Vec;

use crate::agent;
use crate::pattern;
use crate::report::{self, Tag};
use crate::robots::{GroupEntry, Robots, CHECKPOINT_EVERY};
use crate::store;
use crate::swar;

/// The longest line content the reference keeps, in bytes.
///
/// > A line keeps at most **16,663 bytes** of raw content (key, whitespace
/// > and comment included); the rest up to the next break is dropped (so a
/// > `$` past the cap is lost) and the line is flagged "too long".
/// > — REP.md §4
pub const MAX_LINE_LEN: usize = 2083 * 8 - 1;

/// How much of a robots.txt crawlers read, in bytes (500 KiB).
///
/// > If a `MAX_FETCH_LEN` limit is enforced, it MUST be at least 500
/// > kibibytes (KiB). — RFC 9309 §2.5
///
/// Google stops at 500 KiB and ignores the rest. The parser itself has no
/// such limit (the reference parses everything it is given); the fetch
/// layer, `robotrules-fetch`, cuts bodies here, and tools use it to say
/// when a rule lies past what crawlers read.
pub const FETCH_LIMIT: usize = 500 * 1024;

/// The largest body the parser reads, in bytes (256 MiB).
///
/// The reference has no limit; this one only bounds memory on hostile
/// input, at 500 times the 500 KiB that crawlers fetch. Bytes past it are
/// not parsed and [`Robots::is_truncated`] returns true.
pub const MAX_BODY_LEN: usize = 256 << 20;

/// The keys that Google knows but does not use, compared without regard to
/// ASCII case. Lines with these keys are tagged [`Tag::Unused`]; any other
/// key that is not one of the four fields is [`Tag::Unknown`].
pub const UNUSED_KEYS: &[&str] = &[
    "clean-param",
    "content-signal",
    "content-usage",
    "crawl-delay",
    "domain",
    "host",
    "noarchive",
    "nofollow",
    "noindex",
    "request-rate",
    "revisit-after",
    "visit-time",
];

const BOM: &[u8; 3] = b"\xEF\xBB\xBF";

/// The kind of a key, after prefix and typo matching.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
enum Key {
    UserAgent,
    Allow,
    Disallow,
    Sitemap,
    Unknown,
}

pub(crate) fn parse(body: &[u8]) -> Robots {
    let truncated = body.len() > MAX_BODY_LEN;
    let body = &body[..body.len().min(MAX_BODY_LEN)];
    let mut p = Parser::default();
    p.store.reserve(body.len() / 2);
    let mut rest = skip_bom(body);
    let mut number: u32 = 0;
    loop {
        number += 1;
        // Find the line's end, noting its first NUL on the way.
        let mut nul = None;
        let mut from = 0;
        let end = loop {
            let hit = match nul {
                None => memchr::memchr3(b'\n', b'\r', 0, &rest[from..]),
                Some(_) => memchr::memchr2(b'\n', b'\r', &rest[from..]),
            };
            match hit {
                Some(at) if rest[from + at] == 0 => {
                    nul = Some(from + at);
                    from += at + 1;
                }
                Some(at) => break Some(from + at),
                None => break None,
            }
        };
        match end {
            Some(at) => {
                p.line(number, &rest[..at], nul);
                let crlf =
                    rest[at] == b'\r' && rest.get(at + 1) == Some(&b'\n');
                rest = &rest[at + if crlf { 2 } else { 1 }..];
            }
            None => {
                p.line(number, rest, nul);
                break;
            }
        }
    }
    p.finish(number, truncated)
}

/// Returns the raw lines of a body, numbered as the parser numbers them:
/// after a skipped BOM prefix, split at LF, CR and CR LF, the text after
/// the last break included. Lines are not cut at the 16,663-byte cap or at
/// NUL. Tools use this to quote the file's own lines.
///
/// # Example
///
/// ```
/// let lines: Vec<&[u8]> = robotrules::raw_lines(b"\xEF\xBB\xBFa\r\nb\rc\n").collect();
/// assert_eq!(lines, [&b"a"[..], b"b", b"c", b""]);
/// ```
pub fn raw_lines(body: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut rest = Some(skip_bom(body));
    core::iter::from_fn(move || {
        let text = rest?;
        match memchr::memchr2(b'\n', b'\r', text) {
            Some(at) => {
                let crlf =
                    text[at] == b'\r' && text.get(at + 1) == Some(&b'\n');
                rest = Some(&text[at + if crlf { 2 } else { 1 }..]);
                Some(&text[..at])
            }
            None => {
                rest = None;
                Some(text)
            }
        }
    })
}

/// Skips the longest prefix of `body` that is a prefix of the UTF-8 BOM.
///
/// > the longest prefix of the body that is a prefix of the UTF-8 BOM
/// > `EF BB BF` is skipped (`EF BB BF`, `EF BB`, `EF`). — REP.md §4
fn skip_bom(body: &[u8]) -> &[u8] {
    let n = body.iter().zip(BOM).take_while(|(a, b)| a == b).count();
    &body[n..]
}

/// Trims the bytes C's `isspace` accepts, at the start.
fn trim_start(s: &[u8]) -> &[u8] {
    let start =
        s.iter().position(|&b| !agent::is_c_space(b)).unwrap_or(s.len());
    &s[start..]
}

/// Trims the bytes C's `isspace` accepts, at both ends.
fn trim(s: &[u8]) -> &[u8] {
    let start =
        s.iter().position(|&b| !agent::is_c_space(b)).unwrap_or(s.len());
    let end = s
        .iter()
        .rposition(|&b| !agent::is_c_space(b))
        .map_or(start, |e| e + 1);
    &s[start..end]
}

/// Returns true if `s` starts with `prefix` (lower case ASCII letters, `-`
/// and space), ignoring ASCII case.
///
/// Eight bytes at a time: `| 0x20` lower-cases letters and maps nothing
/// else onto a letter; onto `-` and space it maps only CR and NUL, which
/// never occur in a line's content.
fn starts_with_ignore_case(s: &[u8], prefix: &[u8]) -> bool {
    const FOLD: u64 = 0x2020_2020_2020_2020;
    if s.len() < prefix.len() {
        return false;
    }
    let (mut s, mut prefix) = (s, prefix);
    while let (Some(a), Some(b)) =
        (s.first_chunk::<8>(), prefix.first_chunk::<8>())
    {
        if u64::from_le_bytes(*a) | FOLD != u64::from_le_bytes(*b) | FOLD {
            return false;
        }
        s = &s[8..];
        prefix = &prefix[8..];
    }
    prefix.iter().zip(s).all(|(p, c)| *p == c | 0x20)
}

/// Classifies a key, and says whether it is an accepted typo.
///
/// The typo flag mirrors the reference, where each check in turn
/// overwrites it: it is the flag of the check that decided.
fn classify(key: &[u8]) -> (Key, bool) {
    let any =
        |list: &[&[u8]]| list.iter().any(|p| starts_with_ignore_case(key, p));
    // Every known key and typo starts with one of these letters; the
    // right spelling is tried before the typos.
    match key.first().map(u8::to_ascii_lowercase) {
        Some(b'u') => {
            if starts_with_ignore_case(key, b"user-agent") {
                return (Key::UserAgent, false);
            }
            if any(&[b"useragent", b"user agent"]) {
                return (Key::UserAgent, true);
            }
        }
        Some(b'a') if starts_with_ignore_case(key, b"allow") => {
            return (Key::Allow, false);
        }
        Some(b'd') => {
            if starts_with_ignore_case(key, b"disallow") {
                return (Key::Disallow, false);
            }
            if any(&[
                b"dissallow",
                b"dissalow",
                b"disalow",
                b"diasllow",
                b"disallaw",
            ]) {
                return (Key::Disallow, true);
            }
        }
        Some(b's') => {
            if starts_with_ignore_case(key, b"sitemap") {
                return (Key::Sitemap, false);
            }
            if starts_with_ignore_case(key, b"site-map") {
                return (Key::Sitemap, true);
            }
        }
        _ => {}
    }
    (Key::Unknown, false)
}

/// Returns true if `key` is one of [`UNUSED_KEYS`].
fn is_unused_key(key: &[u8]) -> bool {
    UNUSED_KEYS.iter().any(|k| {
        k.len() == key.len() && key.eq_ignore_ascii_case(k.as_bytes())
    })
}

/// A key and its value.
type KeyValue<'a> = (&'a [u8], &'a [u8]);

/// Splits a line's content into key and value.
///
/// Returns the line's metadata bits, and the key and value if it holds a
/// directive (REP.md §5, steps 1–4).
fn split_line(content: &[u8]) -> (u8, Option<KeyValue<'_>>) {
    let mut bits = 0;
    // The comment, and the first colon before it.
    let mut end = content.len();
    let mut colon = None;
    match swar::find2(content, b'#', b':') {
        Some(at) if content[at] == b':' => {
            colon = Some(at);
            if let Some(hash) = swar::find1(&content[at + 1..], b'#') {
                bits |= report::HAS_COMMENT;
                end = at + 1 + hash;
            }
        }
        Some(at) => {
            bits |= report::HAS_COMMENT;
            end = at;
        }
        None => {}
    }
    let untrimmed = &content[..end];
    let line = trim(untrimmed);
    if line.is_empty() {
        bits |= if bits & report::HAS_COMMENT != 0 {
            report::IS_COMMENT
        } else {
            report::EMPTY
        };
        return (bits, None);
    }
    // `:` is not whitespace, so it is inside the trimmed line.
    let lead = untrimmed.len() - trim_start(untrimmed).len();
    let sep = match colon {
        Some(at) => at - lead,
        None => {
            // A missing colon is accepted only between exactly two runs of
            // non-whitespace: `disallow /x`, not `disallow / x`.
            let Some(at) = memchr::memchr2(b' ', b'\t', line) else {
                return (bits, None);
            };
            let gap =
                line[at..].iter().take_while(|&&b| b == b' ' || b == b'\t');
            let value = &line[at + gap.count()..];
            if memchr::memchr2(b' ', b'\t', value).is_some() {
                return (bits, None);
            }
            bits |= report::MISSING_COLON;
            at
        }
    };
    let key = trim(&line[..sep]);
    if key.is_empty() {
        return (bits, None);
    }
    bits |= report::HAS_DIRECTIVE;
    (bits, Some((key, trim(&line[sep + 1..]))))
}

#[derive(Default)]
struct Parser {
    store: Vec<u8>,
    groups: Vec<GroupEntry>,
    checkpoints: Vec<u32>,
    /// True once the current group has an allow or disallow line, so that
    /// the next user-agent line starts a new group.
    group_has_rules: bool,
    /// A scratch buffer for escaped values.
    escaped: alloc::string::String,
}

impl Parser {
    /// Parses line `number`, whose first NUL (if any) is at `nul`.
    fn line(&mut self, number: u32, raw: &[u8], nul: Option<usize>) {
        if (number - 1) % CHECKPOINT_EVERY == 0 {
            self.checkpoints.push(self.store.len() as u32);
        }
        let mut bits = 0;
        let mut content = raw;
        if content.len() > MAX_LINE_LEN {
            bits |= report::TOO_LONG;
            content = &content[..MAX_LINE_LEN];
        }
        if let Some(at) = nul.filter(|&at| at < content.len()) {
            bits |= report::HAS_NUL;
            content = &content[..at];
        }
        let (meta, kv) = split_line(content);
        bits |= meta;
        match kv {
            Some((key, value)) => {
                let (kind, typo) = classify(key);
                if typo {
                    bits |= report::TYPO;
                }
                self.directive(number, bits, kind, key, value);
            }
            None => store::put_plain(&mut self.store, bits),
        }
    }

    /// Stores a rule or unknown directive with its value normalised, and
    /// its written form too when normalising changed it.
    fn put_escaped(
        &mut self,
        bits: u8,
        tag: Tag,
        key: Option<&[u8]>,
        value: &[u8],
    ) {
        if pattern::needs_escape(value) {
            self.escaped.clear();
            pattern::escape_into(value, &mut self.escaped);
            let escaped = self.escaped.as_bytes();
            store::put_valued(
                &mut self.store,
                bits,
                tag,
                key,
                escaped,
                Some(value),
            );
        } else {
            store::put_valued(&mut self.store, bits, tag, key, value, None);
        }
    }

    fn directive(
        &mut self,
        line: u32,
        bits: u8,
        kind: Key,
        key: &[u8],
        value: &[u8],
    ) {
        match kind {
            Key::UserAgent => {
                if self.groups.is_empty() || self.group_has_rules {
                    let pos = self.store.len() as u32;
                    if let Some(last) = self.groups.last_mut() {
                        last.end_line = line - 1;
                        last.end_pos = pos;
                    }
                    self.groups.push(GroupEntry {
                        pos,
                        end_pos: pos,
                        line,
                        end_line: line,
                    });
                    self.group_has_rules = false;
                }
                let token = agent::product_token(value).len();
                store::put_agent(
                    &mut self.store,
                    bits,
                    value,
                    token,
                    agent::is_global(value),
                );
            }
            Key::Allow | Key::Disallow => {
                if !self.groups.is_empty() {
                    self.group_has_rules = true;
                }
                let tag = if kind == Key::Allow {
                    Tag::Allow
                } else {
                    Tag::Disallow
                };
                self.put_escaped(bits, tag, None, value);
            }
            Key::Sitemap => store::put_sitemap(&mut self.store, bits, value),
            Key::Unknown => {
                let tag = if is_unused_key(key) {
                    Tag::Unused
                } else {
                    Tag::Unknown
                };
                self.put_escaped(bits, tag, Some(key), value);
            }
        }
    }

    fn finish(mut self, last_line: u32, truncated: bool) -> Robots {
        let end = self.store.len() as u32;
        if let Some(last) = self.groups.last_mut() {
            last.end_line = last_line;
            last.end_pos = end;
        }
        Robots {
            store: self.store.into_boxed_slice(),
            groups: self.groups.into_boxed_slice(),
            checkpoints: self.checkpoints.into_boxed_slice(),
            line_count: last_line,
            truncated,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    macro_rules! kv {
        ($line:expr, $key:expr, $value:expr) => {
            let (_, kv) = split_line($line);
            assert_eq!(kv, Some((&$key[..], &$value[..])), "{:?}", $line);
        };
        ($line:expr) => {
            assert_eq!(split_line($line).1, None, "{:?}", $line);
        };
    }

    #[test]
    fn key_value() {
        kv!(b"Disallow: /a#b", b"Disallow", b"/a");
        kv!(b"Disallow /a:b", b"Disallow /a", b"b");
        kv!(b"disallow /x", b"disallow", b"/x");
        kv!(b"disallow \t /x", b"disallow", b"/x");
        kv!(b"disallow / x");
        kv!(b"user agent FooBot");
        kv!(b": value");
        kv!(b"novalue");
        kv!(b"key:", b"key", b"");
        kv!(b"\x0b key : \x0c v \x0b", b"key", b"v");
        kv!(b"disallow\x0b/x");
    }

    #[test]
    fn keys() {
        assert_eq!(classify(b"User-agent-foo"), (Key::UserAgent, false));
        assert_eq!(classify(b"useragent"), (Key::UserAgent, true));
        assert_eq!(classify(b"User Agent"), (Key::UserAgent, true));
        assert_eq!(classify(b"Allowance"), (Key::Allow, false));
        assert_eq!(classify(b"alow"), (Key::Unknown, false));
        assert_eq!(classify(b"Disallowed"), (Key::Disallow, false));
        assert_eq!(classify(b"DISALLAW"), (Key::Disallow, true));
        assert_eq!(classify(b"Sitemaps"), (Key::Sitemap, false));
        assert_eq!(classify(b"site-map"), (Key::Sitemap, true));
        assert_eq!(classify(b"crawl-delay"), (Key::Unknown, false));
    }

    #[test]
    fn bom() {
        assert_eq!(skip_bom(b"\xEF\xBB\xBFa"), b"a");
        assert_eq!(skip_bom(b"\xEF\xBBa"), b"a");
        assert_eq!(skip_bom(b"\xEF\x11\xBF"), b"\x11\xBF");
        assert_eq!(skip_bom(b"\xBB\xBF"), b"\xBB\xBF");
        assert_eq!(skip_bom(b""), b"");
    }
}
