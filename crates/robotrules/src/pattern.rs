//! Rule patterns: normalisation (RFC 9309 §2.2.2) and matching (§2.2.3).

use alloc::borrow::Cow;
use alloc::string::String;

use memchr::memmem;

const HEX_UPPER: &[u8; 16] = b"0123456789ABCDEF";

/// Normalises an `allow` or `disallow` value the way the reference does.
///
/// > Octets in the URI and robots.txt paths outside the range of the
/// > ASCII coded character set, and those in the reserved range defined
/// > by RFC 3986, MUST be percent-encoded as defined by RFC 3986 prior to
/// > comparison. — RFC 9309 §2.2.2
///
/// As Google's reference does: `%` followed by two hex digits gets its
/// digits upper-cased (`%aa` → `%AA`); nothing is ever decoded; every byte
/// ≥ 0x80 becomes `%XX`, byte by byte; everything else stays as written.
///
/// The result is always ASCII, so it is returned as a string. It borrows
/// the input when nothing had to change, which is the common case.
///
/// # Example
///
/// ```
/// use robotrules::escape_pattern;
///
/// assert_eq!(escape_pattern("/á".as_bytes()), "/%C3%A1");
/// assert_eq!(escape_pattern(b"/%aa"), "/%AA");
/// assert_eq!(escape_pattern(b"/a b"), "/a b");
/// ```
pub fn escape_pattern(value: &[u8]) -> Cow<'_, str> {
    if !needs_escape(value) {
        // Nothing ≥ 0x80 is left, so this cannot fail; the fallback keeps
        // the function total without `unsafe`.
        if let Ok(s) = core::str::from_utf8(value) {
            return Cow::Borrowed(s);
        }
    }
    let mut out = String::with_capacity(value.len() + 8);
    escape_into(value, &mut out);
    Cow::Owned(out)
}

/// Returns true if and only if `escape_pattern` would change `value`.
pub(crate) fn needs_escape(value: &[u8]) -> bool {
    let Some(mut i) = crate::swar::find_escape_candidate(value) else {
        return false;
    };
    while i < value.len() {
        let b = value[i];
        if b >= 0x80 {
            return true;
        }
        if b == b'%'
            && i + 2 < value.len()
            && value[i + 1].is_ascii_hexdigit()
            && value[i + 2].is_ascii_hexdigit()
        {
            if value[i + 1].is_ascii_lowercase()
                || value[i + 2].is_ascii_lowercase()
            {
                return true;
            }
            i += 3;
            continue;
        }
        i += 1;
    }
    false
}

/// Appends the normalised form of `value` to `out`.
pub(crate) fn escape_into(value: &[u8], out: &mut String) {
    let mut i = 0;
    while i < value.len() {
        let b = value[i];
        if b == b'%'
            && i + 2 < value.len()
            && value[i + 1].is_ascii_hexdigit()
            && value[i + 2].is_ascii_hexdigit()
        {
            out.push('%');
            out.push(char::from(value[i + 1].to_ascii_uppercase()));
            out.push(char::from(value[i + 2].to_ascii_uppercase()));
            i += 3;
        } else if b >= 0x80 {
            out.push('%');
            out.push(char::from(HEX_UPPER[usize::from(b >> 4)]));
            out.push(char::from(HEX_UPPER[usize::from(b & 0xf)]));
            i += 1;
        } else {
            out.push(char::from(b));
            i += 1;
        }
    }
}

/// Returns true if and only if `pattern` matches `path`.
///
/// > Crawlers MUST support the following special characters: `#`
/// > Designates a line comment. `$` Designates the end of the match
/// > pattern. `*` Designates 0 or more instances of any character.
/// > — RFC 9309 §2.2.3
///
/// Byte-wise, case-sensitive, anchored at the start of the path, prefix
/// match. As in Google's reference, `$` is special only as the last byte.
///
/// Segments between `*` are matched at their leftmost occurrence, which
/// leaves the most room for the segments after them; this is equivalent to
/// the reference's set-of-positions walk and runs in
/// O(|path| · |pattern|) at worst.
pub(crate) fn matches(pattern: &[u8], path: &[u8]) -> bool {
    matches_in(pattern, path, &mut || byte_set(path))
}

/// Like `matches`, with the byte set of `path` computed by `path_set` at
/// most once, and only for patterns with a `*`: a path that lacks a byte
/// the pattern needs after its `*` cannot match, and most do.
pub(crate) fn matches_in(
    pattern: &[u8],
    path: &[u8],
    path_set: &mut impl FnMut() -> u128,
) -> bool {
    let (pattern, anchored) = split_anchor(pattern);
    // Patterns are short: a loop beats a call to memchr.
    let star = pattern.iter().position(|&b| b == b'*');
    let first = &pattern[..star.unwrap_or(pattern.len())];
    let Some(rest) = path.strip_prefix(first) else {
        return false;
    };
    let Some(star) = star else {
        return !anchored || rest.is_empty();
    };
    let after = &pattern[star + 1..];
    if byte_set(after) & !(1u128 << b'*') & !path_set() != 0 {
        return false;
    }
    matches_after_star(after, anchored, rest)
}

/// Returns true if and only if `rest`, the path after a pattern's literal
/// prefix, matches `after`, the pattern after its first `*` (without a
/// final `$`, which `anchored` stands for).
///
/// Each segment between `*`s is matched at its leftmost occurrence, which
/// leaves the most room for the segments after it, so no choice is ever
/// undone: the segments consume the path from left to right.
#[inline]
pub(crate) fn matches_after_star(
    after: &[u8],
    anchored: bool,
    mut rest: &[u8],
) -> bool {
    let mut segments = after.split(|&b| b == b'*');
    // `split` always yields at least one item.
    let Some(mut segment) = segments.next() else {
        return true;
    };
    for next in segments {
        if !segment.is_empty() {
            match find_in(rest, segment) {
                Some(at) => rest = &rest[at + segment.len()..],
                None => return false,
            }
        }
        segment = next;
    }
    if anchored {
        rest.ends_with(segment)
    } else {
        segment.is_empty() || find_in(rest, segment).is_some()
    }
}

/// Splits a trailing `$` off a pattern: `(rest, true)` if there was one.
pub(crate) fn split_anchor(pattern: &[u8]) -> (&[u8], bool) {
    match pattern.split_last() {
        Some((b'$', rest)) => (rest, true),
        _ => (pattern, false),
    }
}

/// Returns true if and only if `pattern` can match some path.
///
/// Paths always start with `/`, so a non-empty pattern that starts with
/// neither `/` nor `*` never matches (RFC 9309 §2.2.2).
pub(crate) fn can_match(pattern: &[u8]) -> bool {
    matches!(pattern.first(), None | Some(b'/') | Some(b'*'))
}

/// The pattern an `allow` rule is retried with when it does not match.
///
/// Google's reference: when an allow pattern does not match and the part
/// of it from its last `/` starts with `/index.htm`, it is retried as
/// `<everything up to that slash>$`, with priority that prefix length + 1.
///
/// Returns the length of the prefix to keep (up to and including the
/// slash); the retried pattern is that prefix followed by `$`.
pub(crate) fn index_fallback(pattern: &[u8]) -> Option<usize> {
    if pattern.len() < b"/index.htm".len() {
        return None;
    }
    let slash = memchr::memrchr(b'/', pattern)?;
    pattern[slash..].starts_with(b"/index.htm").then_some(slash + 1)
}

/// The set of bytes in `bytes`, one bit per ASCII byte. A byte ≥ 0x80
/// sets the bit of its low seven bits: exact for patterns (normalised, so
/// ASCII), a superset for paths, which is all a prefilter needs.
#[inline]
pub(crate) fn byte_set(bytes: &[u8]) -> u128 {
    bytes.iter().fold(0, |set, &b| set | BIT[usize::from(b)])
}

/// `BIT[b]` is the bit of byte `b` in a byte set.
static BIT: [u128; 256] = {
    let mut table = [0u128; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = 1u128 << (b & 127);
        b += 1;
    }
    table
};

/// A 64-bit digest of the set of bytes in `bytes`, for the index's
/// prefilter: each byte sets one bit, which it may share with others
/// (letters share theirs across case, and punctuation and digits with
/// control bytes), so that a set of a pattern's bytes that is not within
/// a path's proves that the path lacks one of them, and one within proves
/// nothing. Half the work of [`byte_set`] per byte.
#[inline]
pub(crate) fn byte_digest(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0, |set, &b| set | DIGEST[usize::from(b)])
}

/// `DIGEST[b]` is the bit of byte `b` in a [`byte_digest`]: bits 0 to 31
/// for the bytes below `@` (by their low five bits), 32 to 63 for `@` to
/// DEL (letters, by their low five bits: both cases share a bit); bytes
/// ≥ 0x80 as their low seven bits.
static DIGEST: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let low = b & 127;
        table[b] = 1u64 << ((low & 31) | ((low >> 1) & 32));
        b += 1;
    }
    table
};

/// Haystacks up to this long are searched with a plain scan.
const SHORT: usize = 64;

/// Finds `needle` (non-empty) in `hay`, choosing the search by length.
#[inline]
fn find_in(hay: &[u8], needle: &[u8]) -> Option<usize> {
    if hay.len() > SHORT {
        return memmem::find(hay, needle);
    }
    find_short(hay, needle)
}

#[inline]
fn find_short(hay: &[u8], needle: &[u8]) -> Option<usize> {
    let (&first, tail) = needle.split_first()?;
    let last_start = hay.len().checked_sub(needle.len())?;
    // Jump from one occurrence of the first byte to the next, eight bytes
    // at a time, and compare the rest only there.
    let mut from = 0;
    while let Some(at) = crate::swar::find1(&hay[from..=last_start], first) {
        let i = from + at;
        if tail.iter().zip(&hay[i + 1..]).all(|(a, b)| a == b) {
            return Some(i);
        }
        from = i + 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_digest_is_a_superset_test() {
        let path: alloc::vec::Vec<u8> = (0..=255).collect();
        for b in 0..=255u8 {
            // A byte's bit is in the digest of any string that holds it.
            let digest = byte_digest(&[b]);
            assert_eq!(digest.count_ones(), 1);
            assert_eq!(digest & !byte_digest(&path), 0);
            assert_eq!(digest & !byte_digest(&[b'a', b, b'/']), 0);
        }
        // What the prefilter tells apart: letters from punctuation and
        // digits, and letters from each other.
        assert_ne!(byte_digest(b"o"), byte_digest(b"/"));
        assert_ne!(byte_digest(b"q"), byte_digest(b"1"));
        assert_ne!(byte_digest(b"a"), byte_digest(b"b"));
        assert_eq!(byte_digest(b"a"), byte_digest(b"A"));
        assert_ne!(byte_digest(b"?") & !byte_digest(b"/web/p/"), 0);
    }

    /// The reference's reading, recursively: `*` tries every length.
    fn naive(pattern: &[u8], path: &[u8]) -> bool {
        match pattern.split_first() {
            None => true,
            Some((b'$', [])) => path.is_empty(),
            Some((b'*', rest)) => {
                (0..=path.len()).any(|i| naive(rest, &path[i..]))
            }
            Some((b, rest)) => {
                path.first() == Some(b) && naive(rest, &path[1..])
            }
        }
    }

    macro_rules! m {
        ($pat:expr, $path:expr) => {{
            let (pat, path): (&[u8], &[u8]) =
                ($pat.as_bytes(), $path.as_bytes());
            let plain = matches(pat, path);
            assert_eq!(plain, naive(pat, path), "{:?} vs {:?}", $pat, $path);
            plain
        }};
    }

    #[test]
    fn google_examples() {
        assert!(m!("/", "/anything"));
        assert!(m!("/*", "/anything"));
        assert!(m!("/$", "/"));
        assert!(!m!("/$", "/a"));
        assert!(m!("/fish", "/fish.php?id=anything"));
        assert!(!m!("/fish", "/Fish.asp"));
        assert!(!m!("/fish/", "/fish"));
        assert!(m!("/*.php", "/folder/any.php.file.html"));
        assert!(!m!("/*.php", "/windows.PHP"));
        assert!(m!("/*.php$", "/folder/filename.php"));
        assert!(!m!("/*.php$", "/filename.php?parameters"));
        assert!(!m!("/*.php$", "/filename.php5"));
        assert!(m!("/fish*.php", "/fishheads/catfish.php?parameters"));
        assert!(!m!("/fish*.php", "/Fish.PHP"));
    }

    #[test]
    fn dollar_quirks() {
        assert!(!m!("$", "/"));
        assert!(m!("/a$$", "/a$"));
        assert!(!m!("/a$$", "/a"));
        assert!(m!("/a$b", "/a$bc"));
        assert!(m!("/*$", "/x"));
        assert!(m!("/**a**$", "/xa"));
        assert!(!m!("/*a*b$", "/ab/"));
        assert!(m!("/*a*b$", "/xaxb"));
        assert!(m!("", "/"));
        assert!(!m!("a", "/a"));
    }

    #[test]
    fn escaping() {
        assert_eq!(escape_pattern(b"%"), "%");
        assert_eq!(escape_pattern(b"%a"), "%a");
        assert_eq!(escape_pattern(b"%ag"), "%ag");
        assert_eq!(escape_pattern(b"%2f%2F"), "%2F%2F");
        assert_eq!(escape_pattern(b"%%aa"), "%%AA");
        assert_eq!(escape_pattern(b"\xff\x80"), "%FF%80");
        assert_eq!(escape_pattern(b"%a\xc3"), "%a%C3");
        assert!(!needs_escape(b"/plain"));
        assert!(needs_escape(b"/%e3"));
    }

    #[test]
    fn index_html() {
        assert_eq!(index_fallback(b"/d/index.html"), Some(3));
        assert_eq!(index_fallback(b"/index.htm"), Some(1));
        assert_eq!(index_fallback(b"/index.php"), None);
        assert_eq!(index_fallback(b"/index.html/x"), None);
        assert_eq!(index_fallback(b"index.html"), None);
    }
}
