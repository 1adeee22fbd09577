//! Site-level verdicts: may a crawler fetch every path, some, or none?
//!
//! # Why a few probes are enough
//!
//! A pattern `P` is a literal start, `*`-separated literal segments, and
//! an optional final `$`. Call *generic* the path that spells `P` with
//! every `*` (and, without `$`, the open end) replaced by a byte `z` that
//! no pattern contains. If a pattern `Q` matches the generic path of `P`,
//! then `Q` matches every path that `P` matches: `Q`'s literal segments
//! cannot overlap a `z`, so each of them lies inside one of `P`'s literal
//! segments, in order, and the same placement works in any path of `P`
//! whatever its `*`s stand for.
//!
//! So the rules that match the generic path of `P` are exactly those that
//! match all of `P`'s paths, a subset of those that match any one of
//! them. Take an allowed path: its best `allow` rule `A` (or, if no rule
//! matches it, the pattern `/*`) has a generic path that `A` matches and
//! that no stronger `disallow` can match, so that path is allowed too.
//! Likewise a disallowed path's best `disallow` has a disallowed generic
//! path. Checking the generic path of every rule (and of `/*`) therefore
//! finds an allowed path if there is one and a disallowed path if there
//! is one: the answer is exact, with real paths as witnesses.
//!
//! Paths start with `/`, so a pattern that starts with `*` stands for the
//! paths of `/*X` and, when `X` starts with `/`, of `X` itself: both are
//! probed.

use alloc::string::String;
use alloc::vec::Vec;

use crate::pattern;

/// How much of a site a crawler may fetch: see
/// [`Matcher::coverage`](crate::Matcher::coverage).
///
/// The paths are those a crawler requests: without a space, `"`, `<`,
/// `>`, control bytes or bytes from 0x7F up, which URLs carry
/// percent-encoded; nor, in the path before any query, `{`, `}`, `` ` ``
/// (percent-encoded there), `\` (read as `/`) or a `.` or `..` segment
/// (resolved), as a browser's URL parser sends them. A rule that holds one
/// of them as it is where every path it matches would hold it (`Disallow:
/// /_private/ /admin/`, `Allow: /a{`, `Disallow: /private/../`) matches
/// none of them, and changes no verdict.
///
/// The witnesses of [`Coverage::Partial`] are paths (starting with `/`)
/// that the matcher allows and disallows; they may hold any byte that no
/// rule uses, chosen to stand for "anything here". To check a witness as
/// a URL, put it after a scheme and host (`https://example.com//a`): a
/// path that starts with `//` alone would read as a host. (A witness
/// starts with `//` only where its form with one `/` was tried first and
/// gets the other verdict.)
#[derive(Clone, Debug, Eq, Hash, PartialEq)]
#[non_exhaustive]
pub enum Coverage {
    /// No path is disallowed.
    AllowedEverywhere,
    /// Some paths are allowed and some are not.
    Partial {
        /// A path that is allowed.
        allowed: String,
        /// A path that is disallowed.
        disallowed: String,
    },
    /// Every path is disallowed.
    DisallowedEverywhere,
    /// The rules are too many, or too costly, to decide within
    /// [`COVERAGE_BUDGET`]: no claim is made.
    Unknown,
}

impl Coverage {
    /// `"allowed"`, `"partial"`, `"disallowed"` or `"unknown"`.
    pub fn as_str(&self) -> &'static str {
        match self {
            Coverage::AllowedEverywhere => "allowed",
            Coverage::Partial { .. } => "partial",
            Coverage::DisallowedEverywhere => "disallowed",
            Coverage::Unknown => "unknown",
        }
    }

    /// A path that is allowed, for [`Coverage::Partial`].
    pub fn allowed_witness(&self) -> Option<&str> {
        match self {
            Coverage::Partial { allowed, .. } => Some(allowed),
            _ => None,
        }
    }

    /// A path that is disallowed, for [`Coverage::Partial`].
    pub fn disallowed_witness(&self) -> Option<&str> {
        match self {
            Coverage::Partial { disallowed, .. } => Some(disallowed),
            _ => None,
        }
    }
}

/// The most work [`Matcher::coverage`](crate::Matcher::coverage) does
/// before it answers [`Coverage::Unknown`]: a unit per byte of probe path
/// and per wildcard rule skipped by its byte digest, and, per wildcard rule
/// tried, the bytes it is tried on plus one; a probe made before the
/// matcher has built its index counts instead a unit per rule, and the
/// bytes each wildcard rule is tried on. Real files need a tiny fraction
/// of it; it bounds the time spent on hostile ones (to a few tenths of a
/// second). [`Matcher::coverage_within`](crate::Matcher::coverage_within)
/// shares one budget among several matchers.
pub const COVERAGE_BUDGET: u64 = 1 << 28;

/// The bytes tried, in order, as the byte that no pattern contains.
/// `#` (a comment), NUL (ends a path), `%` (escapes), `*` and `$` are
/// left out.
/// Hex digits come late: after a `%` they would form an escape.
const FRESH: &[u8] = b"xzqjkvwyXZQJKVWYghiGHI-_~.!'()+,=@:;&0123456789";

/// What coverage needs from a matcher.
pub(crate) trait Rules {
    /// Returns true if patterns are plain prefixes, `%xx` decoded, first
    /// match deciding (the 1996 reading).
    fn is_literal(&self) -> bool {
        false
    }
    /// Calls `f` with each rule's pattern as it is matched (the
    /// index.html retries as their own `dir$` pattern), strongest first.
    fn for_each_pattern(&self, f: &mut dyn FnMut(&[u8]) -> bool);
    /// [`Rules::for_each_pattern`] in any order, for what does not
    /// depend on it.
    fn for_each_pattern_unordered(&self, f: &mut dyn FnMut(&[u8]) -> bool) {
        self.for_each_pattern(f);
    }
    /// The verdict for a path, and the work it took (see
    /// [`COVERAGE_BUDGET`]).
    fn verdict(&self, path: &[u8]) -> (bool, u64);
}

/// Computes the coverage of `rules`, spending at most `budget` (see the
/// module documentation).
pub(crate) fn coverage(rules: &impl Rules, budget: &mut u64) -> Coverage {
    let fresh = fresh_string(rules);
    let mut allowed: Option<Vec<u8>> = None;
    let mut disallowed: Option<Vec<u8>> = None;
    let mut over = false;
    let mut probe = |path: &[u8]| -> bool {
        // A path that starts with `//` reads as a host once put in a URL:
        // its form with one `/` is tried first, for a witness that can be
        // checked as it is (`*/video/*` is disallowed at `/video/`).
        let one_slash =
            path.strip_prefix(b"/").filter(|p| p.starts_with(b"/"));
        for path in one_slash.into_iter().chain([path]) {
            let (ok, work) = rules.verdict(path);
            let slot = if ok { &mut allowed } else { &mut disallowed };
            if slot.is_none() {
                *slot = Some(path.to_vec());
            }
            match budget.checked_sub(work.max(1)) {
                Some(left) => *budget = left,
                None => {
                    *budget = 0;
                    over = true;
                }
            }
            if over || (allowed.is_some() && disallowed.is_some()) {
                return false;
            }
        }
        // Go on while one kind is missing and there is budget left.
        true
    };
    let mut go_on = probe(b"/");
    if go_on {
        let mut all = Vec::from(&b"/"[..]);
        all.extend_from_slice(&fresh);
        all.extend_from_slice(&fresh);
        go_on = probe(&all);
    }
    if go_on && rules.is_literal() {
        // The 1996 reading: a path's verdict is that of its first
        // matching rule `R`, and `R` followed by the fresh byte is matched
        // by no rule that does not match the path: probing each rule so
        // finds every verdict there is.
        rules.for_each_pattern(&mut |pat| {
            if !pat.starts_with(b"/") {
                return true;
            }
            let mut generic = pat.to_vec();
            generic.extend_from_slice(&fresh);
            probe(pat) && probe(&generic)
        });
    } else if go_on {
        rules.for_each_pattern(&mut |pat| {
            // An empty pattern has priority 0: it never decides. One with
            // a byte that no requested URL holds as it is decides no path
            // a crawler fetches (nor does it match the probes of others).
            if pat.is_empty() || matches_no_request(pat) {
                return true;
            }
            for variant in rooted(pat) {
                // A plain reading first (`*` as nothing), for a
                // friendlier witness; then the generic path.
                if !probe(&spell(variant.0, variant.1, pat, b"", false)) {
                    return false;
                }
                if !probe(&spell(variant.0, variant.1, pat, &fresh, true)) {
                    return false;
                }
            }
            true
        });
    }
    let text = |p: Vec<u8>| String::from_utf8_lossy(&p).into_owned();
    match (allowed, disallowed) {
        (Some(a), Some(d)) => {
            Coverage::Partial { allowed: text(a), disallowed: text(d) }
        }
        _ if over => Coverage::Unknown,
        (Some(_), None) => Coverage::AllowedEverywhere,
        (None, Some(_)) => Coverage::DisallowedEverywhere,
        // Unreachable: "/" was probed.
        (None, None) => Coverage::Unknown,
    }
}

/// Returns where a rule's pattern (as [`Rule::pattern`](crate::Rule::pattern)
/// gives it) holds what no URL a crawler requests holds as it is, if it
/// does: then the rule matches no request, and decides nothing a crawler
/// fetches (see [`Coverage`]).
///
/// That is a space, `"`, `<`, `>`, a control byte or a byte from 0x7F up
/// anywhere (URLs carry them percent-encoded), or, in the pattern's start
/// up to its first `*` or `?` or a final `$` (so surely in the path,
/// before any query), what a browser's URL parser never leaves in a path:
/// `{`, `}` or `` ` `` (percent-encoded), `\` (read as `/`), or a whole
/// `.` or `..` segment, `%2E` for a dot included (resolved away). The
/// range is that byte, or that segment.
///
/// # Example
///
/// ```
/// use robotrules::unrequested_part;
///
/// assert_eq!(unrequested_part("/search\\?q="), Some(7..8));
/// assert_eq!(unrequested_part("/private/../"), Some(9..11));
/// assert_eq!(unrequested_part("/a b"), Some(2..3));
/// // In a query, `{` and `\` are sent as they are.
/// assert_eq!(unrequested_part("/search?q={x}\\"), None);
/// assert_eq!(unrequested_part("/a/..x"), None);
/// ```
pub fn unrequested_part(pattern: &str) -> Option<core::ops::Range<usize>> {
    unrequested(pattern.as_bytes())
}

/// [`unrequested_part`] of any bytes.
fn unrequested(pat: &[u8]) -> Option<core::ops::Range<usize>> {
    if let Some(at) = pat.iter().position(|&b| is_never_requested(b)) {
        return Some(at..at + 1);
    }
    // `$` is special only as the last byte.
    let (body, anchored) = match pat.strip_suffix(b"$") {
        Some(body) => (body, true),
        None => (pat, false),
    };
    let end = body
        .iter()
        .position(|&b| matches!(b, b'*' | b'?'))
        .unwrap_or(body.len());
    let head = &body[..end];
    if let Some(at) =
        head.iter().position(|&b| matches!(b, b'{' | b'}' | b'`' | b'\\'))
    {
        return Some(at..at + 1);
    }
    if !head.starts_with(b"/") {
        return None;
    }
    // A segment is whole if a `/` follows it, or if the path ends right
    // after it: at a `?` (the query starts) or a `$` (nothing follows).
    let ends = match body.get(end) {
        Some(&b) => b == b'?',
        None => anchored,
    };
    let mut start = 1;
    while start <= head.len() {
        let stop = head[start..]
            .iter()
            .position(|&b| b == b'/')
            .map_or(head.len(), |at| start + at);
        let whole = stop < head.len() || ends;
        if whole && is_dot_segment(&head[start..stop]) {
            return Some(start..stop);
        }
        start = stop + 1;
    }
    None
}

/// Returns true if `pat` matches no path a crawler requests
/// ([`unrequested_part`]).
fn matches_no_request(pat: &[u8]) -> bool {
    unrequested(pat).is_some()
}

/// Returns true for `.` and `..`, with any dot written `%2E` or `%2e`:
/// the segments a URL parser resolves (the WHATWG URL standard).
fn is_dot_segment(segment: &[u8]) -> bool {
    let mut rest = segment;
    let mut dots = 0;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix(b".") {
            rest = after;
        } else if rest.len() >= 3 && rest[..3].eq_ignore_ascii_case(b"%2e") {
            rest = &rest[3..];
        } else {
            return false;
        }
        dots += 1;
    }
    dots == 1 || dots == 2
}

/// Returns true for a byte that no URL a crawler requests holds as it is:
/// a space, `"`, `<`, `>`, a control byte, or a byte from 0x7F up. URLs
/// carry them percent-encoded (RFC 3986 §2.1; a browser's URL parser
/// encodes them wherever they stand), so a rule that holds one (`Disallow:
/// /_private/ /admin/`) matches no path a crawler fetches.
fn is_never_requested(b: u8) -> bool {
    b <= b' ' || matches!(b, b'"' | b'<' | b'>') || b >= 0x7F
}

/// Returns a short string of bytes that no pattern contains; if it can,
/// one whose bit in a byte digest no pattern's bytes have either, so that
/// the index (once built) screens out, for probes made of it, every
/// wildcard rule that needs a byte of the probe.
fn fresh_string(rules: &impl Rules) -> Vec<u8> {
    let mut used = 0u128;
    let literal = rules.is_literal();
    rules.for_each_pattern_unordered(&mut |pat| {
        used |= pattern::byte_set(pat);
        if literal {
            // The 1996 reading compares decoded bytes.
            used |= pattern::byte_set(&crate::verdict::decode_1996(pat));
        }
        true
    });
    // The digest of the bytes used, from their set: a byte and its low
    // seven bits have the same bit in both.
    let mut digest = 0u64;
    let mut bits = used;
    while bits != 0 {
        digest |= pattern::byte_digest(&[bits.trailing_zeros() as u8]);
        bits &= bits - 1;
    }
    let unused = |&&b: &&u8| used & (1u128 << b) == 0;
    let fresh = FRESH
        .iter()
        .filter(unused)
        .find(|&&b| digest & pattern::byte_digest(&[b]) == 0)
        .or_else(|| FRESH.iter().find(unused));
    match fresh {
        Some(&b) => alloc::vec![b],
        // Patterns are normalised to ASCII, so a non-ASCII character
        // never overlaps one of their segments.
        None => "\u{e9}".as_bytes().to_vec(),
    }
}

/// The `/`-rooted readings of a pattern, as (prefix to write first, the
/// part of the pattern to spell after it). Paths start with `/`: a
/// pattern `*X` covers the paths of `/*X` and, if `X` starts with `/`,
/// of `X`.
fn rooted(pat: &[u8]) -> impl Iterator<Item = (bool, usize)> {
    let stars = pat.iter().take_while(|&&b| b == b'*').count();
    let (a, b) = if stars == 0 {
        (Some((false, 0)), None)
    } else {
        let rest = &pat[stars..];
        // `(true, stars)`: "/", a star, then the rest.
        (Some((true, stars)), rest.starts_with(b"/").then_some((false, stars)))
    };
    a.into_iter().chain(b)
}

/// Spells a path from `pat[from..]`: each `*` becomes `star`; without a
/// final `$`, `star` is also appended when `open` is set. With `slash`,
/// the path starts with `/` and a `star`.
fn spell(
    slash: bool,
    from: usize,
    pat: &[u8],
    star: &[u8],
    open: bool,
) -> Vec<u8> {
    let (body, anchored) = match pat.split_last() {
        Some((b'$', rest)) => (rest, true),
        _ => (pat, false),
    };
    let body = body.get(from..).unwrap_or_default();
    let mut out = Vec::with_capacity(body.len() + 4 * star.len() + 1);
    if slash {
        out.push(b'/');
        out.extend_from_slice(star);
    }
    for &b in body {
        if b == b'*' {
            out.extend_from_slice(star);
        } else {
            out.push(b);
        }
    }
    if !anchored && open {
        out.extend_from_slice(star);
    }
    if out.is_empty() {
        out.push(b'/');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Naive(Vec<(bool, Vec<u8>)>);

    impl Rules for Naive {
        fn for_each_pattern(&self, f: &mut dyn FnMut(&[u8]) -> bool) {
            for (_, p) in &self.0 {
                if !f(p) {
                    return;
                }
            }
        }
        fn verdict(&self, path: &[u8]) -> (bool, u64) {
            let best = |allow: bool| {
                self.0
                    .iter()
                    .filter(|(a, p)| *a == allow && pattern::matches(p, path))
                    .map(|(_, p)| p.len() as i64)
                    .max()
                    .unwrap_or(-1)
            };
            let (a, d) = (best(true), best(false));
            (!(d > a && d > 0), 1)
        }
    }

    fn cov(rules: &[(bool, &str)]) -> Coverage {
        let rules =
            rules.iter().map(|&(a, p)| (a, p.as_bytes().to_vec())).collect();
        coverage(&Naive(rules), &mut { COVERAGE_BUDGET })
    }

    macro_rules! c {
        ($rules:expr, $want:expr) => {
            assert_eq!(cov(&$rules).as_str(), $want, "{:?}", $rules)
        };
    }

    #[test]
    fn simple() {
        c!([(true, "/x"); 0], "allowed");
        c!([(false, "/")], "disallowed");
        c!([(false, "/*")], "disallowed");
        c!([(false, "*")], "disallowed");
        c!([(false, "/"), (true, "/$")], "partial");
        c!([(false, "/private")], "partial");
        c!([(false, "/a"), (true, "/a")], "allowed");
        c!([(false, "*/")], "disallowed");
        c!([(false, "/$")], "partial");
    }

    #[test]
    fn allow_shadowed_by_longer_disallow() {
        // The issue's example: `Allow: /*a` opens `/ab` again.
        c!(
            [(false, "/"), (true, "/*a"), (false, "/*a$"), (false, "/*ax")],
            "partial"
        );
        // Every path with an `a` allowed, every other disallowed...
        c!([(false, "/"), (true, "/*a")], "partial");
        // ...and an allow that every longer disallow covers.
        c!([(false, "/"), (true, "/a"), (false, "/a*")], "disallowed");
    }

    #[test]
    fn rules_no_requested_path_matches() {
        // A space is requested as `%20`: `/a b` blocks nothing...
        c!([(false, "/_private/ /admin/")], "allowed");
        c!([(false, "/a\"b"), (false, "/<x>*")], "allowed");
        // ...nor does `/a b` open what `/` closes.
        c!([(false, "/"), (true, "/public files/")], "disallowed");
        c!([(false, "/"), (true, "/public%20files/")], "partial");
        c!([(false, "/a%20b")], "partial");
    }

    #[test]
    fn rules_only_unparsed_urls_match() {
        // A browser's URL parser sends `/a{` as `/a%7B`, `/a\b` as `/a/b`
        // and `/private/../` as `/`: such rules decide no request.
        c!([(false, "/private/../")], "allowed");
        c!([(false, "/"), (true, "/a{")], "disallowed");
        for pat in ["/a}", "/a`b", "/a\\b", "/a/./b", "/%2e%2E/x", "/a/.%2E$"]
        {
            c!([(false, pat)], "allowed");
        }
        c!([(false, "/a/..?q"), (false, "/b/.$")], "allowed");
        // In a query they are sent as they are; and a segment that goes
        // on, or a `$` that is not last, is no dot segment.
        c!([(false, "/"), (true, "/a?{")], "partial");
        c!([(false, "/a?x=/../")], "partial");
        for pat in ["/a/..", "/a/..x", "/a/.*", "/a/..$x", "/a/...", "/*{"] {
            c!([(false, pat)], "partial");
        }
    }

    #[test]
    fn witnesses_are_paths() {
        let c = cov(&[(false, "*/x"), (true, "/")]);
        let d = c.disallowed_witness().unwrap();
        assert!(d.starts_with('/'), "{d}");
        // Not `//video_player/`, which would read as a host in a URL.
        let c = cov(&[(false, "*/video_player/*")]);
        assert_eq!(c.disallowed_witness(), Some("/video_player/"));
        // Where only a `//` path is decided so, it is the witness.
        let c = cov(&[(false, "//x")]);
        assert_eq!(c.disallowed_witness(), Some("//x"));
    }
}
