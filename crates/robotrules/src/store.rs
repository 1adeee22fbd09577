//! The compact form a parsed file is kept in: one entry per line, in file
//! order, so line numbers are implicit.
//!
//! A line without a directive is one byte: its report bits. A line with a
//! directive adds a byte for its tag and flags, then LEB128 lengths and
//! the bytes of its parts:
//!
//! ```text
//! user-agent:        bits, tag|global, len, value, token_len
//! allow, disallow:   bits, tag|differs, len, pattern [, len, written]
//! sitemap:           bits, tag, len, value
//! unknown, unused:   bits, tag|differs, len, key, len, value [, len, written]
//! ```
//!
//! Every directive line of a file spends at least a key, a separator and
//! a line break on top of its value, so the store is smaller than the file
//! unless escaping grows the values.

use alloc::vec::Vec;

use crate::report::Tag;

const TAG_MASK: u8 = 0b0111;
/// The written value differs from the normalised one and follows it.
const DIFFERS: u8 = 1 << 3;
/// The user-agent value is global (`*`).
const GLOBAL: u8 = 1 << 4;

/// One decoded line.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry<'a> {
    pub(crate) bits: u8,
    pub(crate) tag: Option<Tag>,
    /// For user-agent lines.
    pub(crate) global: bool,
    pub(crate) token_len: usize,
    /// For unknown directives.
    pub(crate) key: &'a [u8],
    /// The value: normalised for rules and unknown directives, raw for
    /// user-agent and sitemap lines.
    pub(crate) value: &'a [u8],
    /// The value as written, where it differs from `value` (else `value`).
    pub(crate) written: &'a [u8],
}

fn tag_code(tag: Tag) -> u8 {
    match tag {
        Tag::UserAgent => 1,
        Tag::Allow => 2,
        Tag::Disallow => 3,
        Tag::Sitemap => 4,
        Tag::Unknown => 5,
        Tag::Unused => 6,
    }
}

fn tag_of(code: u8) -> Option<Tag> {
    match code {
        1 => Some(Tag::UserAgent),
        2 => Some(Tag::Allow),
        3 => Some(Tag::Disallow),
        4 => Some(Tag::Sitemap),
        5 => Some(Tag::Unknown),
        6 => Some(Tag::Unused),
        _ => None,
    }
}

fn put_len(out: &mut Vec<u8>, mut n: usize) {
    loop {
        let byte = (n & 0x7f) as u8;
        n >>= 7;
        if n == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

fn put_bytes(out: &mut Vec<u8>, bytes: &[u8]) {
    put_len(out, bytes.len());
    out.extend_from_slice(bytes);
}

/// Appends a line without a directive.
pub(crate) fn put_plain(out: &mut Vec<u8>, bits: u8) {
    out.push(bits);
}

/// Appends a user-agent line.
pub(crate) fn put_agent(
    out: &mut Vec<u8>,
    bits: u8,
    value: &[u8],
    token_len: usize,
    global: bool,
) {
    out.push(bits);
    out.push(tag_code(Tag::UserAgent) | if global { GLOBAL } else { 0 });
    put_bytes(out, value);
    put_len(out, token_len);
}

/// Appends a sitemap line.
pub(crate) fn put_sitemap(out: &mut Vec<u8>, bits: u8, value: &[u8]) {
    out.push(bits);
    out.push(tag_code(Tag::Sitemap));
    put_bytes(out, value);
}

/// Appends a rule or unknown directive: `key` only for unknown ones,
/// `written` only if it differs from `value`.
pub(crate) fn put_valued(
    out: &mut Vec<u8>,
    bits: u8,
    tag: Tag,
    key: Option<&[u8]>,
    value: &[u8],
    written: Option<&[u8]>,
) {
    out.push(bits);
    out.push(tag_code(tag) | if written.is_some() { DIFFERS } else { 0 });
    if let Some(key) = key {
        put_bytes(out, key);
    }
    put_bytes(out, value);
    if let Some(written) = written {
        put_bytes(out, written);
    }
}

/// Reads entries from a store; the store is trusted (it was written by
/// `put_*`), and a truncated one simply ends.
struct Reader<'a> {
    s: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn byte(&mut self) -> Option<u8> {
        let b = *self.s.get(self.pos)?;
        self.pos += 1;
        Some(b)
    }

    fn len(&mut self) -> Option<usize> {
        let mut n = 0usize;
        let mut shift = 0;
        loop {
            let b = self.byte()?;
            n |= usize::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Some(n);
            }
            shift += 7;
            if shift > 28 {
                return None;
            }
        }
    }

    fn bytes(&mut self) -> Option<&'a [u8]> {
        let n = self.len()?;
        let bytes = self.s.get(self.pos..self.pos + n)?;
        self.pos += n;
        Some(bytes)
    }
}

/// Decodes the entry at `pos`; returns it and the position after it.
pub(crate) fn decode(s: &[u8], pos: usize) -> Option<(Entry<'_>, usize)> {
    let mut r = Reader { s, pos };
    let bits = r.byte()?;
    let mut e = Entry {
        bits,
        tag: None,
        global: false,
        token_len: 0,
        key: &[],
        value: &[],
        written: &[],
    };
    if bits & crate::report::HAS_DIRECTIVE == 0 {
        return Some((e, r.pos));
    }
    let t = r.byte()?;
    e.tag = tag_of(t & TAG_MASK);
    match e.tag? {
        Tag::UserAgent => {
            e.global = t & GLOBAL != 0;
            e.value = r.bytes()?;
            e.token_len = r.len()?.min(e.value.len());
        }
        Tag::Sitemap => e.value = r.bytes()?,
        Tag::Allow | Tag::Disallow => e.value = r.bytes()?,
        Tag::Unknown | Tag::Unused => {
            e.key = r.bytes()?;
            e.value = r.bytes()?;
        }
    }
    e.written = if t & DIFFERS != 0 { r.bytes()? } else { e.value };
    Some((e, r.pos))
}

/// The entries of a range of the store, with their line numbers.
#[derive(Clone, Debug)]
pub(crate) struct Entries<'a> {
    pub(crate) s: &'a [u8],
    pub(crate) pos: usize,
    pub(crate) end: usize,
    pub(crate) line: u32,
}

impl<'a> Iterator for Entries<'a> {
    type Item = (u32, Entry<'a>);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        if self.pos >= self.end {
            return None;
        }
        let (entry, next) = decode(self.s, self.pos)?;
        self.pos = next;
        let line = self.line;
        self.line += 1;
        Some((line, entry))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::HAS_DIRECTIVE;

    #[test]
    fn round_trip() {
        let mut s = Vec::new();
        put_plain(&mut s, 1);
        put_agent(&mut s, HAS_DIRECTIVE, b"FooBot/1", 6, false);
        let long = [b'a'; 300];
        put_valued(
            &mut s,
            HAS_DIRECTIVE,
            Tag::Disallow,
            None,
            &long,
            Some(b"x"),
        );
        put_valued(
            &mut s,
            HAS_DIRECTIVE,
            Tag::Unknown,
            Some(b"k"),
            b"v",
            None,
        );
        put_sitemap(&mut s, HAS_DIRECTIVE, b"s");
        let all: Vec<_> =
            Entries { s: &s, pos: 0, end: s.len(), line: 1 }.collect();
        assert_eq!(all.len(), 5);
        assert_eq!(all[0].1.tag, None);
        assert_eq!(
            (all[1].1.value, all[1].1.token_len),
            (&b"FooBot/1"[..], 6)
        );
        assert_eq!((all[2].1.value.len(), all[2].1.written), (300, &b"x"[..]));
        assert_eq!(
            (all[3].1.key, all[3].1.value, all[3].1.written),
            (&b"k"[..], &b"v"[..], &b"v"[..])
        );
        assert_eq!((all[4].0, all[4].1.tag), (5, Some(Tag::Sitemap)));
    }
}
