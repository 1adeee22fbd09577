//! Bytes to lines, lines to directives, directives to groups
//! (REP.md §4–§6).

use alloc::vec::Vec;

use crate::agent;
use crate::pattern;
use crate::report::{self, Tag};
use crate::robots::{
    AgentEntry, GroupEntry, Robots, RuleEntry, SitemapEntry, UnknownEntry,
};

/// The longest line content the reference keeps, in bytes.
///
/// > A line keeps at most **16,663 bytes** of raw content (key, whitespace
/// > and comment included); the rest up to the next break is dropped (so a
/// > `$` past the cap is lost) and the line is flagged "too long".
/// > — REP.md §4
pub const MAX_LINE_LEN: usize = 2083 * 8 - 1;

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
    p.arena.reserve(body.len() / 4);
    let mut rest = skip_bom(body);
    let mut number: u32 = 0;
    loop {
        number += 1;
        match memchr::memchr2(b'\n', b'\r', rest) {
            Some(at) => {
                p.line(number, &rest[..at]);
                let skip =
                    if rest[at] == b'\r' && rest.get(at + 1) == Some(&b'\n') {
                        2
                    } else {
                        1
                    };
                rest = &rest[at + skip..];
            }
            None => {
                p.line(number, rest);
                break;
            }
        }
    }
    p.finish(number, truncated)
}

/// Skips the longest prefix of `body` that is a prefix of the UTF-8 BOM.
///
/// > the longest prefix of the body that is a prefix of the UTF-8 BOM
/// > `EF BB BF` is skipped (`EF BB BF`, `EF BB`, `EF`). — REP.md §4
fn skip_bom(body: &[u8]) -> &[u8] {
    let n = body.iter().zip(BOM).take_while(|(a, b)| a == b).count();
    &body[n..]
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

fn starts_with_ignore_case(s: &[u8], prefix: &[u8]) -> bool {
    s.len() >= prefix.len() && s[..prefix.len()].eq_ignore_ascii_case(prefix)
}

/// Classifies a key, and says whether it is an accepted typo.
///
/// The typo flag mirrors the reference, where each check in turn
/// overwrites it: it is the flag of the check that decided.
fn classify(key: &[u8]) -> (Key, bool) {
    let any =
        |list: &[&[u8]]| list.iter().any(|p| starts_with_ignore_case(key, p));
    let typo = any(&[b"useragent", b"user agent"]);
    if typo || starts_with_ignore_case(key, b"user-agent") {
        return (Key::UserAgent, typo);
    }
    if starts_with_ignore_case(key, b"allow") {
        return (Key::Allow, false);
    }
    let typo = any(&[
        b"dissallow",
        b"dissalow",
        b"disalow",
        b"diasllow",
        b"disallaw",
    ]);
    if typo || starts_with_ignore_case(key, b"disallow") {
        return (Key::Disallow, typo);
    }
    let typo = starts_with_ignore_case(key, b"site-map");
    if typo || starts_with_ignore_case(key, b"sitemap") {
        return (Key::Sitemap, typo);
    }
    (Key::Unknown, false)
}

/// Returns true if `key` is one of [`UNUSED_KEYS`].
fn is_unused_key(key: &[u8]) -> bool {
    UNUSED_KEYS.iter().any(|k| key.eq_ignore_ascii_case(k.as_bytes()))
}

/// Splits a line's content into key and value.
///
/// Returns the line's metadata bits, and the key and value if it holds a
/// directive (REP.md §5, steps 1–4).
fn split_line(content: &[u8]) -> (u16, Option<(&[u8], &[u8])>) {
    let mut bits = 0;
    let mut line = content;
    if let Some(at) = memchr::memchr(b'#', line) {
        bits |= report::HAS_COMMENT;
        line = &line[..at];
    }
    let line = trim(line);
    if line.is_empty() {
        bits |= if bits & report::HAS_COMMENT != 0 {
            report::IS_COMMENT
        } else {
            report::EMPTY
        };
        return (bits, None);
    }
    let sep = match memchr::memchr(b':', line) {
        Some(at) => at,
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
    arena: Vec<u8>,
    lines: Vec<u16>,
    agents: Vec<AgentEntry>,
    rules: Vec<RuleEntry>,
    groups: Vec<GroupEntry>,
    sitemaps: Vec<SitemapEntry>,
    unknowns: Vec<UnknownEntry>,
    /// True once the current group has an allow or disallow line, so that
    /// the next user-agent line starts a new group.
    group_has_rules: bool,
}

impl Parser {
    fn line(&mut self, number: u32, raw: &[u8]) {
        let mut bits = 0;
        let mut content = raw;
        if content.len() > MAX_LINE_LEN {
            bits |= report::TOO_LONG;
            content = &content[..MAX_LINE_LEN];
        }
        if let Some(at) = memchr::memchr(0, content) {
            bits |= report::HAS_NUL;
            content = &content[..at];
        }
        let (meta, kv) = split_line(content);
        bits |= meta;
        if let Some((key, value)) = kv {
            let (kind, typo) = classify(key);
            if typo {
                bits |= report::TYPO;
            }
            let tag = self.directive(number, kind, key, value);
            bits |= Tag::to_bits(Some(tag));
        }
        self.lines.push(bits);
    }

    fn push(&mut self, bytes: &[u8]) -> u32 {
        let off = self.arena.len() as u32;
        self.arena.extend_from_slice(bytes);
        off
    }

    /// Pushes a value normalised as a pattern, followed by its written
    /// form if that differs. Returns (offset, pattern length, written
    /// length, differs).
    fn push_pattern(&mut self, value: &[u8]) -> (u32, u32, u32, bool) {
        let off = self.arena.len() as u32;
        if pattern::needs_escape(value) {
            let mut escaped =
                alloc::string::String::with_capacity(value.len() + 8);
            pattern::escape_into(value, &mut escaped);
            self.arena.extend_from_slice(escaped.as_bytes());
            self.arena.extend_from_slice(value);
            (off, escaped.len() as u32, value.len() as u32, true)
        } else {
            self.arena.extend_from_slice(value);
            (off, value.len() as u32, value.len() as u32, false)
        }
    }

    fn directive(
        &mut self,
        line: u32,
        kind: Key,
        key: &[u8],
        value: &[u8],
    ) -> Tag {
        match kind {
            Key::UserAgent => {
                if self.groups.is_empty() || self.group_has_rules {
                    if let Some(last) = self.groups.last_mut() {
                        last.end_line = line - 1;
                    }
                    self.groups.push(GroupEntry {
                        agent_start: self.agents.len() as u32,
                        rule_start: self.rules.len() as u32,
                        end_line: line,
                    });
                    self.group_has_rules = false;
                }
                let off = self.push(value);
                self.agents.push(AgentEntry {
                    off,
                    line,
                    len: value.len() as u32,
                    token_len: agent::product_token(value).len() as u32,
                    global: agent::is_global(value),
                });
                Tag::UserAgent
            }
            Key::Allow | Key::Disallow => {
                if !self.groups.is_empty() {
                    self.group_has_rules = true;
                }
                let (off, len, written_len, differs) =
                    self.push_pattern(value);
                self.rules.push(RuleEntry {
                    off,
                    line,
                    len,
                    written_len,
                    allow: kind == Key::Allow,
                    differs,
                });
                if kind == Key::Allow {
                    Tag::Allow
                } else {
                    Tag::Disallow
                }
            }
            Key::Sitemap => {
                let off = self.push(value);
                self.sitemaps.push(SitemapEntry {
                    off,
                    line,
                    len: value.len() as u32,
                });
                Tag::Sitemap
            }
            Key::Unknown => {
                let key_off = self.push(key);
                let (_, len, written_len, differs) = self.push_pattern(value);
                self.unknowns.push(UnknownEntry {
                    off: key_off,
                    line,
                    key_len: key.len() as u32,
                    len,
                    written_len,
                    differs,
                });
                if is_unused_key(key) {
                    Tag::Unused
                } else {
                    Tag::Unknown
                }
            }
        }
    }

    fn finish(mut self, last_line: u32, truncated: bool) -> Robots {
        if let Some(last) = self.groups.last_mut() {
            last.end_line = last_line;
        }
        Robots {
            arena: self.arena.into_boxed_slice(),
            lines: self.lines.into_boxed_slice(),
            agents: self.agents.into_boxed_slice(),
            rules: self.rules.into_boxed_slice(),
            groups: self.groups.into_boxed_slice(),
            sitemaps: self.sitemaps.into_boxed_slice(),
            unknowns: self.unknowns.into_boxed_slice(),
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
