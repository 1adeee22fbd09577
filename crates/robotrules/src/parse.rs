//! Bytes to lines, lines to directives, directives to groups
//! (RFC 9309 §2.2).

use alloc::vec::Vec;

use crate::agent;
use crate::group::GroupEntry;
use crate::keys::{self, Key};
use crate::options::ParseOptions;
use crate::pattern;
use crate::report::{self, Tag};
use crate::robots::{Robots, CHECKPOINT_EVERY};
use crate::store;
use crate::swar;

/// The longest line content the reference keeps, in bytes.
///
/// Google's reference parser keeps at most 16,663 bytes of a line's raw
/// content (key, whitespace and comment included); the rest up to the
/// next break is dropped (so a `$` past the cap is lost) and the line is
/// flagged "too long".
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
/// not parsed and [`Robots::is_truncated`] (or, for a matcher parsed for
/// one crawler, [`Matcher::is_truncated`]) returns true.
///
/// [`Matcher::is_truncated`]: crate::Matcher::is_truncated
pub const MAX_BODY_LEN: usize = 256 << 20;

const BOM: &[u8; 3] = b"\xEF\xBB\xBF";

/// A line's directive, as the parser hands it to a [`Sink`].
#[derive(Clone, Copy, Debug)]
pub(crate) enum Directive<'a> {
    /// A `user-agent` line's value.
    Agent(&'a [u8]),
    /// An `allow` or `disallow` line's value, not yet normalised.
    Rule { allow: bool, value: &'a [u8] },
    /// A `sitemap` line's value.
    Sitemap(&'a [u8]),
    /// Any other key, and its value.
    Other { key: &'a [u8], value: &'a [u8] },
}

/// What the parser tells about a body, line by line: the one reading of
/// lines, keys and group boundaries, for every form a parse produces.
pub(crate) trait Sink<'a> {
    /// A new group starts at `line`, a `user-agent` line.
    fn group(&mut self, line: u32);
    /// Line `number`, its report bits, and its directive if it has one.
    fn line(
        &mut self,
        number: u32,
        bits: u8,
        directive: Option<Directive<'a>>,
    );
}

/// Reads `body` into `sink`; returns the number of the last line and
/// whether the body was cut at [`MAX_BODY_LEN`].
pub(crate) fn read<'a, S: Sink<'a>>(
    body: &'a [u8],
    options: ParseOptions,
    sink: &mut S,
) -> (u32, bool) {
    let truncated = body.len() > MAX_BODY_LEN;
    let body = &body[..body.len().min(MAX_BODY_LEN)];
    let mut reading = Reading {
        strict: options.get_strict(),
        in_group: false,
        group_has_rules: false,
    };
    let rest = skip_bom(body);
    // Most bodies hold no NUL: then no line is searched for one, in a
    // loop of its own.
    let last = if memchr::memchr(0, rest).is_none() {
        reading.lines::<S, true>(rest, sink)
    } else {
        reading.lines::<S, false>(rest, sink)
    };
    (last, truncated)
}

pub(crate) fn parse(body: &[u8], options: ParseOptions) -> Robots {
    let mut full = Full::default();
    // The store is rarely larger than the body (see the `store` module):
    // one allocation, shrunk in place at the end.
    full.store.reserve(body.len().min(MAX_BODY_LEN) + 16);
    let (last_line, truncated) = read(body, options, &mut full);
    full.finish(last_line, truncated)
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
/// As Google's reference parser does, the longest prefix of the body that
/// is a prefix of `EF BB BF` is skipped (`EF BB BF`, `EF BB`, `EF`).
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
#[inline]
fn trim(s: &[u8]) -> &[u8] {
    // Most values: one space in front, none at the end (bytes above the
    // space are not C spaces).
    if let [b' ', first, .., last] = s {
        if *first > b' ' && *last > b' ' {
            return &s[1..];
        }
    }
    let start =
        s.iter().position(|&b| !agent::is_c_space(b)).unwrap_or(s.len());
    let end = s
        .iter()
        .rposition(|&b| !agent::is_c_space(b))
        .map_or(start, |e| e + 1);
    &s[start..end]
}

/// A directive's key, its value, and the key's kind when the split
/// already knows it.
type KeyValue<'a> = (&'a [u8], &'a [u8], Option<Key>);

/// Splits a line's content into key and value, given where its first
/// `#` is (if anywhere).
///
/// Returns the line's metadata bits, and the key and value if it holds a
/// directive (RFC 9309 §2.2: `key ":" value`, comments after `#`).
#[inline(always)]
fn split_line(
    content: &[u8],
    hash: Option<usize>,
) -> (u8, Option<KeyValue<'_>>) {
    let mut bits = 0;
    // The comment, and the first colon before it.
    let mut end = content.len();
    if let Some(at) = hash {
        bits |= report::HAS_COMMENT;
        end = at;
    }
    let untrimmed = &content[..end];
    // Most lines start with a field's name and its colon: then the key
    // needs no search, no trimming and no classifying.
    if let Some((key, at)) = keys::leading_field(untrimmed) {
        bits |= report::HAS_DIRECTIVE;
        let value = trim(&untrimmed[at + 1..]);
        return (bits, Some((&untrimmed[..at], value, Some(key))));
    }
    let lead = untrimmed.len() - trim_start(untrimmed).len();
    if lead == untrimmed.len() {
        bits |= if bits & report::HAS_COMMENT != 0 {
            report::IS_COMMENT
        } else {
            report::EMPTY
        };
        return (bits, None);
    }
    if let Some(at) = memchr::memchr(b':', &untrimmed[lead..]) {
        // `:` is not whitespace, so it comes after the lead: the key is
        // what lies between, the value what follows, each trimmed.
        let at = lead + at;
        let key = trim(&untrimmed[lead..at]);
        if key.is_empty() {
            return (bits, None);
        }
        bits |= report::HAS_DIRECTIVE;
        return (bits, Some((key, trim(&untrimmed[at + 1..]), None)));
    }
    // A missing colon is accepted only between exactly two runs of
    // non-whitespace: `disallow /x`, not `disallow / x`.
    let line = trim(&untrimmed[lead..]);
    let Some(sep) = memchr::memchr2(b' ', b'\t', line) else {
        return (bits, None);
    };
    let gap = line[sep..].iter().take_while(|&&b| b == b' ' || b == b'\t');
    let value = &line[sep + gap.count()..];
    if memchr::memchr2(b' ', b'\t', value).is_some() {
        return (bits, None);
    }
    // `line` starts with non-whitespace, so the key is not empty. Both
    // sides are trimmed of every C space (`\v` and `\f` too).
    bits |= report::MISSING_COLON | report::HAS_DIRECTIVE;
    (bits, Some((trim(&line[..sep]), trim(&line[sep + 1..]), None)))
}

/// The state of the reading that outlives a line.
struct Reading {
    /// RFC 9309's grammar only: see `ParseOptions::strict`.
    strict: bool,
    /// True once a `user-agent` line has started a group.
    in_group: bool,
    /// True once the current group has an allow or disallow line, so that
    /// the next user-agent line starts a new group.
    group_has_rules: bool,
}

impl Reading {
    /// Reads the lines of `body` (which holds no NUL if `NUL_FREE`);
    /// returns the number of the last.
    #[inline(always)]
    fn lines<'a, S: Sink<'a>, const NUL_FREE: bool>(
        &mut self,
        body: &'a [u8],
        sink: &mut S,
    ) -> u32 {
        let search = swar::LineSearch::new();
        let mut rest = body;
        let mut number: u32 = 0;
        loop {
            number += 1;
            let marks = swar::line_marks(&search, rest, NUL_FREE);
            match marks.end {
                Some(at) => {
                    self.line(sink, number, &rest[..at], marks);
                    let crlf =
                        rest[at] == b'\r' && rest.get(at + 1) == Some(&b'\n');
                    rest = &rest[at + if crlf { 2 } else { 1 }..];
                }
                None => {
                    self.line(sink, number, rest, marks);
                    return number;
                }
            }
        }
    }

    /// Reads line `number`, whose marks are `marks`.
    #[inline(always)]
    fn line<'a, S: Sink<'a>>(
        &mut self,
        sink: &mut S,
        number: u32,
        raw: &'a [u8],
        marks: swar::Marks,
    ) {
        let mut bits = 0;
        let mut content = raw;
        if content.len() > MAX_LINE_LEN {
            bits |= report::TOO_LONG;
            content = &content[..MAX_LINE_LEN];
        }
        if let Some(at) = marks.nul.filter(|&at| at < content.len()) {
            bits |= report::HAS_NUL;
            content = &content[..at];
        }
        // A mark past a cut is not in the content.
        let hash = marks.hash.filter(|&at| at < content.len());
        let (meta, mut kv) = split_line(content, hash);
        bits |= meta;
        if self.strict && bits & report::MISSING_COLON != 0 {
            bits &= !(report::MISSING_COLON | report::HAS_DIRECTIVE);
            kv = None;
        }
        let Some((key, value, known)) = kv else {
            sink.line(number, bits, None);
            return;
        };
        let (kind, typo) = match known {
            Some(kind) => (kind, false),
            None if self.strict => (keys::classify_strict(key), false),
            None => keys::classify(key),
        };
        if typo {
            bits |= report::TYPO;
        }
        let directive = match kind {
            Key::UserAgent => {
                if !self.in_group || self.group_has_rules {
                    sink.group(number);
                    self.in_group = true;
                    self.group_has_rules = false;
                }
                Directive::Agent(value)
            }
            Key::Allow | Key::Disallow => {
                self.group_has_rules |= self.in_group;
                let allow = kind == Key::Allow;
                Directive::Rule { allow, value }
            }
            Key::Sitemap => Directive::Sitemap(value),
            Key::Unknown => Directive::Other { key, value },
        };
        sink.line(number, bits, Some(directive));
    }
}

/// The sink that keeps everything: the store of a [`Robots`].
#[derive(Default)]
struct Full {
    store: Vec<u8>,
    groups: Vec<GroupEntry>,
    checkpoints: Vec<u32>,
    /// A scratch buffer for escaped values.
    escaped: alloc::string::String,
}

impl<'a> Sink<'a> for Full {
    fn group(&mut self, line: u32) {
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
    }

    #[inline]
    fn line(
        &mut self,
        number: u32,
        bits: u8,
        directive: Option<Directive<'a>>,
    ) {
        // Line 1 is at 0: only the later checkpoints are kept.
        if number > 1 && (number - 1) % CHECKPOINT_EVERY == 0 {
            self.checkpoints.push(self.store.len() as u32);
        }
        match directive {
            None => store::put_plain(&mut self.store, bits),
            Some(Directive::Agent(value)) => {
                let token = agent::product_token(value).len();
                store::put_agent(
                    &mut self.store,
                    bits,
                    value,
                    token,
                    agent::is_global(value),
                );
            }
            Some(Directive::Rule { allow, value }) => {
                let tag = if allow { Tag::Allow } else { Tag::Disallow };
                self.put_escaped(bits, tag, None, value);
            }
            Some(Directive::Sitemap(value)) => {
                store::put_sitemap(&mut self.store, bits, value)
            }
            Some(Directive::Other { key, value }) => {
                let tag = if keys::is_unused(key) {
                    Tag::Unused
                } else {
                    Tag::Unknown
                };
                self.put_escaped(bits, tag, Some(key), value);
            }
        }
    }
}

impl Full {
    /// Stores a rule or unknown directive with its value normalised, and
    /// its written form too when normalising changed it.
    fn put_escaped(
        &mut self,
        bits: u8,
        tag: Tag,
        key: Option<&[u8]>,
        value: &[u8],
    ) {
        if swar::has_special(value) && pattern::needs_escape(value) {
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

    /// Splits a line as the parser does.
    fn split(line: &[u8]) -> Option<(&[u8], &[u8])> {
        let marks = swar::line_marks(&swar::LineSearch::new(), line, false);
        split_line(line, marks.hash).1.map(|(key, value, _)| (key, value))
    }

    macro_rules! kv {
        ($line:expr, $key:expr, $value:expr) => {
            assert_eq!(
                split($line),
                Some((&$key[..], &$value[..])),
                "{:?}",
                $line
            );
        };
        ($line:expr) => {
            assert_eq!(split($line), None, "{:?}", $line);
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
    fn bom() {
        assert_eq!(skip_bom(b"\xEF\xBB\xBFa"), b"a");
        assert_eq!(skip_bom(b"\xEF\xBBa"), b"a");
        assert_eq!(skip_bom(b"\xEF\x11\xBF"), b"\x11\xBF");
        assert_eq!(skip_bom(b"\xBB\xBF"), b"\xBB\xBF");
        assert_eq!(skip_bom(b""), b"");
    }
}
