//! One capture evaluated: what it means for every crawler (the stage that
//! the Spark job shares), and the row of a site.

use std::borrow::Cow;

use std::sync::{Arc, Mutex};

use robotrules::{Robots, Tag};
use robotrules_analysis::{
    audit_brief, lint_robots, BodyKind, Catalogue, Severity, Via,
};
use robotrules_fetch::policy::{self, Access, StatusClass};
use robotrules_fetch::{Outcome, Response, Unreachable};

use crate::capture::Capture;

/// Bodies are decoded up to this many bytes: the size reported is at most
/// this.
const DECODE_LIMIT: usize = 8 << 20;

/// How a capture is evaluated.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Options {
    /// The crawlers to judge for.
    pub catalogue: Catalogue,
    /// Whether to lint each file (the `lint_errors` and `lint_warnings`
    /// columns); costs about three times the rest.
    pub lint: bool,
}

impl Options {
    /// Every crawler of `catalogue`, no lint.
    pub fn new(catalogue: Catalogue) -> Options {
        Options { catalogue, lint: false }
    }
}

/// What one crawler may do on a site.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct Verdict {
    /// `allowed`, `partial`, `disallowed` or `unknown` (the robots.txt
    /// could not be read, or was too costly to decide).
    pub access: &'static str,
    /// `named`, `fallback`, `global` or `none` when the rules come from a
    /// robots.txt; `None` when the status decides (no file, or
    /// unreachable).
    pub via: Option<&'static str>,
    /// The crawl-delay, in seconds.
    pub crawl_delay: Option<f64>,
}

/// A capture's meaning, independent of the site it is attributed to.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Evaluation {
    /// The HTTP status.
    pub status: Option<u16>,
    /// The RFC 9309 class: `success`, `unavailable`, `unreachable`,
    /// `redirect` (not resolved in the data), or `undecodable` (a broken
    /// chunk, or a content coding that does not decode: a broken response,
    /// which the access method treats as unreachable, so every crawler is
    /// disallowed). A body that does not decode but is text is read as it
    /// is: the archive stored it decoded.
    pub class: &'static str,
    /// For `success`: `text`, `html` or `binary`.
    pub body_kind: Option<&'static str>,
    /// The body's size in bytes, after content decoding.
    pub size: Option<i64>,
    /// True if and only if the body is longer than 500 KiB, of which
    /// only the first 500 KiB are read (RFC 9309 §2.5).
    pub truncated: Option<bool>,
    /// The xxh3-64 hash of the body as read (at most 500 KiB), in hex.
    pub hash: Option<String>,
    /// Groups in the file.
    pub groups: Option<i32>,
    /// `allow` and `disallow` rules in the file (in groups).
    pub rules: Option<i32>,
    /// `sitemap` lines.
    pub sitemaps: Option<i32>,
    /// Lint errors (with [`Options::lint`]).
    pub lint_errors: Option<i32>,
    /// Lint warnings (with [`Options::lint`]).
    pub lint_warnings: Option<i32>,
    /// Per crawler of the catalogue, in its order; shared by the
    /// evaluations of the same body.
    pub verdicts: Arc<[Verdict]>,
}

impl Evaluation {
    /// An evaluation with no file read: only the status, the class and
    /// the verdicts.
    fn bare(
        status: Option<u16>,
        class: &'static str,
        verdicts: Arc<[Verdict]>,
    ) -> Evaluation {
        Evaluation {
            status,
            class,
            body_kind: None,
            size: None,
            truncated: None,
            hash: None,
            groups: None,
            rules: None,
            sitemaps: None,
            lint_errors: None,
            lint_warnings: None,
            verdicts,
        }
    }
}

/// What the bytes of a successful body alone decide in its
/// [`Evaluation`]: everything but the status, the class, the size and
/// whether it was cut.
#[derive(Clone, Debug)]
struct Meaning {
    body_kind: &'static str,
    hash: String,
    groups: i32,
    rules: i32,
    sitemaps: i32,
    lint: Option<(i32, i32)>,
    verdicts: Arc<[Verdict]>,
}

impl Meaning {
    fn apply(self, e: &mut Evaluation) {
        e.body_kind = Some(self.body_kind);
        e.hash = Some(self.hash);
        e.groups = Some(self.groups);
        e.rules = Some(self.rules);
        e.sitemaps = Some(self.sitemaps);
        e.lint_errors = self.lint.map(|(errors, _)| errors);
        e.lint_warnings = self.lint.map(|(_, warnings)| warnings);
        e.verdicts = self.verdicts;
    }
}

/// The meanings of bodies already evaluated, found again by their bytes.
///
/// Many sites serve the same robots.txt (the default of a CMS or of a
/// host, a parking page), and its parse and the verdicts for every
/// crawler are the larger part of a capture's cost: a body met again is
/// looked up by its xxh3 hash (which its row holds anyway) and compared
/// byte for byte, never trusted to the hash alone. One memo serves the
/// threads of a job. It holds at most [`MEMO_BYTES`] (bodies, meanings
/// and their entries; the map's empty room aside) and [`MEMO_ENTRIES`]
/// bodies, and drops half of them when full: memory stays bounded
/// whatever the input, and the rows are the same with or without it.
#[derive(Debug, Default)]
pub(crate) struct Memo {
    seen: Mutex<Seen>,
    /// The lists of verdicts met, each kept once: bodies that differ
    /// mostly mean the same for every crawler (of 9,754 distinct bodies
    /// in a sample of 24,091 sites, 939 lists), and so do the captures
    /// that a status decides. Evaluations that mean the same share one.
    lists: Mutex<std::collections::HashSet<List, foldhash::fast::RandomState>>,
}

/// The lists a [`Memo`] shares at most, and their bytes at most (with a
/// catalogue of many crawlers, fewer lists); past them it starts again.
const MEMO_LISTS: usize = 4096;
const MEMO_LIST_BYTES: usize = 8 << 20;

/// A list of verdicts, equal to another of the same words at the same
/// addresses and crawl-delays of the same bits (a crawl-delay of `-0.0`
/// is not one of `0.0`: shared lists are written as they are). The words
/// are `&'static str`s of this program: one word at two addresses only
/// keeps two lists apart, which costs sharing, never exactness.
#[derive(Debug)]
struct List(Arc<[Verdict]>);

impl List {
    /// The words' addresses, which no input chooses.
    fn words(v: &Verdict) -> (usize, usize) {
        (v.access.as_ptr() as usize, v.via.map_or(0, |w| w.as_ptr() as usize))
    }
}

impl PartialEq for List {
    fn eq(&self, other: &List) -> bool {
        self.0.len() == other.0.len()
            && self.0.iter().zip(other.0.iter()).all(|(a, b)| {
                List::words(a) == List::words(b)
                    && a.crawl_delay.map(f64::to_bits)
                        == b.crawl_delay.map(f64::to_bits)
            })
    }
}

impl Eq for List {}

impl std::hash::Hash for List {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        // The addresses are folded here, the crawl-delays (which the input
        // chooses) go through the seeded hasher.
        let mut words = self.0.len() as u64;
        for v in self.0.iter() {
            let (access, via) = List::words(v);
            words = (words.rotate_left(7) ^ access as u64)
                .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                ^ via as u64;
            if let Some(delay) = v.crawl_delay {
                h.write_u64(delay.to_bits());
            }
        }
        h.write_u64(words);
    }
}

#[derive(Debug, Default)]
struct Seen {
    by_hash: crate::site::Map<u64, (Box<[u8]>, Meaning)>,
    bytes: usize,
}

/// The bytes of bodies a [`Memo`] holds at most, with a share per entry
/// for its meaning.
const MEMO_BYTES: usize = 32 << 20;
/// The bodies a [`Memo`] holds at most.
const MEMO_ENTRIES: usize = 1 << 16;

impl Memo {
    fn seen(&self) -> std::sync::MutexGuard<'_, Seen> {
        self.seen.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// `list`, or the list equal to it met before.
    fn share(&self, list: Arc<[Verdict]>) -> Arc<[Verdict]> {
        let mut lists = self.lists.lock().unwrap_or_else(|e| e.into_inner());
        let list = List(list);
        if let Some(kept) = lists.get(&list) {
            return Arc::clone(&kept.0);
        }
        let most = MEMO_LIST_BYTES / std::mem::size_of_val(&*list.0).max(1);
        if lists.len() >= most.clamp(1, MEMO_LISTS) {
            lists.clear();
        }
        let shared = Arc::clone(&list.0);
        lists.insert(list);
        shared
    }

    /// The meaning of `body`, whose hash is `hash`, if it was kept.
    fn get(&self, hash: u64, body: &[u8]) -> Option<Meaning> {
        let seen = self.seen();
        let (kept, meaning) = seen.by_hash.get(&hash)?;
        (**kept == *body).then(|| meaning.clone())
    }

    /// The bytes an entry counts for: its body's, its meaning's and its
    /// own in the map (not the map's empty room).
    fn cost(body: &[u8], meaning: &Meaning) -> usize {
        body.len()
            + std::mem::size_of::<(u64, (Box<[u8]>, Meaning))>()
            + meaning.verdicts.len() * std::mem::size_of::<Verdict>()
    }

    /// Keeps the meaning of `body`, whose hash is `hash`. A body of
    /// another hash's bytes (a collision) does not replace the one kept.
    fn put(&self, hash: u64, body: Vec<u8>, meaning: &Meaning) {
        // A body is at most 500 KiB: far less than the bound.
        let cost = Memo::cost(&body, meaning);
        let mut seen = self.seen();
        if seen.by_hash.contains_key(&hash) {
            return;
        }
        while !seen.by_hash.is_empty()
            && (seen.bytes + cost > MEMO_BYTES
                || seen.by_hash.len() >= MEMO_ENTRIES)
        {
            // Every other entry goes, in the map's order (unrelated to the
            // bodies): a body met often is soon kept again if it went.
            let mut odd = false;
            let mut freed = 0;
            seen.by_hash.retain(|_, (body, meaning)| {
                odd = !odd;
                if odd {
                    freed += Memo::cost(body, meaning);
                }
                !odd
            });
            seen.bytes -= freed;
        }
        seen.by_hash.insert(hash, (body.into_boxed_slice(), meaning.clone()));
        seen.bytes += cost;
    }
}

/// A body sent with `Transfer-Encoding: chunked`, its chunks joined.
#[derive(Debug, Eq, PartialEq)]
enum Chunks {
    /// Every chunk, to the last (empty) one.
    Whole(Vec<u8>),
    /// The chunks before the body ends early (a capture cut short).
    Cut(Vec<u8>),
    /// The body does not start with a chunk size: it was stored joined,
    /// whatever the header says.
    NotChunked,
    /// A broken chunk after the first: the body cannot be decoded (a
    /// fetch that meets one fails: Google counts a chunking error as a
    /// network error).
    Broken,
}

/// Joins the chunks of a chunked body (RFC 9112 §7.1): each is a size in
/// hexadecimal (and extensions after `;`), a line end, the bytes and a
/// line end; a size of 0 ends the body (trailer fields are ignored).
/// Line ends may be CRLF or LF.
fn dechunk(body: &[u8]) -> Chunks {
    let mut out = Vec::with_capacity(body.len());
    let mut rest = body;
    let mut first = true;
    loop {
        let Some(end) = memchr::memchr(b'\n', rest) else {
            return if first { Chunks::NotChunked } else { Chunks::Cut(out) };
        };
        let line = &rest[..end];
        let size = line.split(|&b| b == b';').next().unwrap_or_default();
        let size = chunk_size(size);
        let Some(size) = size else {
            return if first { Chunks::NotChunked } else { Chunks::Broken };
        };
        first = false;
        rest = &rest[end + 1..];
        if size == 0 {
            return Chunks::Whole(out);
        }
        let Some(data) =
            usize::try_from(size).ok().and_then(|n| rest.get(..n))
        else {
            out.extend_from_slice(rest);
            return Chunks::Cut(out);
        };
        out.extend_from_slice(data);
        rest = &rest[data.len()..];
        rest = match rest {
            [b'\r', b'\n', after @ ..] | [b'\n', after @ ..] => after,
            [] | [b'\r'] => return Chunks::Cut(out),
            _ => return Chunks::Broken,
        };
    }
}

/// The site-wide access an outcome without rules gives every crawler, by
/// the access method's rules, as the column's word.
fn access_word(outcome: &Outcome) -> &'static str {
    match policy::access(outcome) {
        Access::AllowAll => "allowed",
        Access::DisallowAll => "disallowed",
        _ => "unknown",
    }
}

/// The access a broken response gives crawlers (RFC 9309 §2.3.1.4:
/// unreachable, so nothing may be fetched).
fn broken(why: &str) -> &'static str {
    access_word(&Outcome::Unreachable(Unreachable::Broken(why.into())))
}

/// A chunk's size: hexadecimal digits (1*HEXDIG, RFC 9112 §7.1), then
/// optional white space (and a CR), nothing else; `None` if it is not
/// one, or too large.
fn chunk_size(line: &[u8]) -> Option<u64> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let end = line.iter().rposition(|&b| b != b' ' && b != b'\t')? + 1;
    let digits = &line[..end];
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_hexdigit) {
        return None;
    }
    let first = digits.iter().position(|&b| b != b'0').unwrap_or(digits.len());
    let significant = &digits[first..];
    if significant.len() > 15 {
        return None;
    }
    // Hex digits only, at most 15: it fits.
    u64::from_str_radix(std::str::from_utf8(significant).ok()?, 16)
        .ok()
        .or((significant.is_empty()).then_some(0))
}

/// How a body was decoded.
#[derive(Debug)]
enum Decoded<'a> {
    /// Its content codings undone (or it had none).
    Body(Cow<'a, [u8]>),
    /// It does not decode but is text: read as it is (see [`decode`]).
    Stored(Cow<'a, [u8]>, String),
    /// It does not decode: why.
    Broken(String),
}

/// The body after its content codings are undone by the access method's
/// decoder (`robotrules-fetch`), up to [`DECODE_LIMIT`] bytes; a body
/// without `Content-Encoding` as it is, without a copy. A body that the
/// input cut (`short`) keeps what decodes before the cut.
///
/// A body that does not decode but is text was stored decoded by the
/// archive, whatever its header says: Common Crawl's crawls up to 2018
/// kept the server's `Content-Encoding: gzip` over payloads they stored
/// uncompressed (later crawls rename the header `X-Crawler-Content-Encoding`).
/// It is read as it is, and said. A compressed stream is never text (a
/// gzip member starts with the control byte 0x1F, and every coding's
/// output is dense in control bytes); one that does not decode is broken.
fn decode<'a>(
    encoding: Option<&str>,
    body: Cow<'a, [u8]>,
    short: bool,
) -> Decoded<'a> {
    let Some(codings) = encoding else { return Decoded::Body(body) };
    let why = match decode_with(codings, &body, short) {
        Ok(decoded) => return Decoded::Body(Cow::Owned(decoded)),
        Err(e) => e.to_string(),
    };
    if is_text(&body) {
        let said = format!(
            "is sent with `Content-Encoding: {}` but is text that does not \
             decode ({why}): read as it is, as an archive that stored it \
             decoded",
            codings.trim()
        );
        Decoded::Stored(body, said)
    } else {
        Decoded::Broken(why)
    }
}

/// [`decode`]'s decoding.
fn decode_with(
    codings: &str,
    body: &[u8],
    short: bool,
) -> Result<Vec<u8>, policy::Undecodable> {
    let mut decoder = policy::Decoder::new(codings, DECODE_LIMIT)?;
    decoder.push(body)?;
    let before = short.then(|| decoder.body().to_vec());
    match (decoder.finish(), before) {
        (Ok((decoded, _)), _) => Ok(decoded),
        (Err(_), Some(before)) => Ok(before),
        (Err(e), None) => Err(e),
    }
}

/// Returns true if the first kilobyte of `body` holds no control byte but
/// white space (tab, line ends, vertical tab, form feed).
fn is_text(body: &[u8]) -> bool {
    body.iter()
        .take(1024)
        .all(|&b| (b >= 0x20 && b != 0x7F) || matches!(b, b'\t'..=b'\r'))
}

/// Evaluates a capture that is not a redirect to follow.
///
/// The status is classified by the access method of `robotrules-fetch`
/// (RFC 9309 §2.3.1); a success is decoded, cut to 500 KiB
/// ([`policy::MAX_BODY`], §2.5), parsed once and audited for every crawler
/// of the catalogue by `robotrules-analysis`; a missing file allows every
/// crawler everything, an unreachable one disallows everything.
///
/// # Example
///
/// ```
/// use robotrules_analysis::Catalogue;
/// use robotrules_bulk::{evaluate, Capture, Options};
///
/// let mut capture = Capture::default();
/// capture.status = Some(200);
/// capture.body = b"User-agent: GPTBot\nDisallow: /\n".to_vec();
/// let options = Options::new(Catalogue::builtin());
/// let e = evaluate(&capture, &options);
/// let gpt = options.catalogue.crawlers().iter().position(|c| c.token == "GPTBot").unwrap();
/// assert_eq!(e.verdicts[gpt].access, "disallowed");
/// assert_eq!(e.verdicts[gpt].via, Some("named"));
/// ```
pub fn evaluate(capture: &Capture, options: &Options) -> Evaluation {
    let memo = Memo::default();
    evaluate_body(capture, Cow::Borrowed(&capture.body), options, &memo)
}

/// [`evaluate`] with the body given apart (`capture.body` is not read),
/// and the meanings of the bodies met before in `memo`: an owned body is
/// parsed without a copy.
pub(crate) fn evaluate_body(
    capture: &Capture,
    body: Cow<'_, [u8]>,
    options: &Options,
    memo: &Memo,
) -> Evaluation {
    evaluate_body_why(capture, body, options, memo, &mut None)
}

/// [`evaluate_body`], and what is wrong with the body, in `why`: why it
/// cannot be decoded (class `undecodable`), or that it is marked chunked
/// but is not (it is then read as it is).
pub(crate) fn evaluate_body_why(
    capture: &Capture,
    body: Cow<'_, [u8]>,
    options: &Options,
    memo: &Memo,
    why: &mut Option<String>,
) -> Evaluation {
    let n = options.catalogue.len();
    let status = capture.status;
    let mut e = Evaluation::bare(status, "unreachable", Arc::default());
    let everyone = |access| {
        let verdict = Verdict { access, via: None, crawl_delay: None };
        memo.share(vec![verdict; n].into())
    };
    let Some(code) = status else {
        e.verdicts = everyone("unknown");
        e.class = "undecodable";
        return e;
    };
    let class = policy::classify_http(code);
    if class != StatusClass::Success {
        let response = Response::new(code, Vec::new());
        let outcome = policy::outcome("https", &response);
        e.class = match class {
            StatusClass::Redirect => "redirect",
            StatusClass::Unavailable => "unavailable",
            _ => "unreachable",
        };
        e.verdicts = everyone(match class {
            StatusClass::Redirect => "unknown",
            _ => access_word(&outcome),
        });
        return e;
    }
    let (body, ended_early) = match capture.chunked {
        false => (body, false),
        true => match dechunk(&body) {
            Chunks::Whole(b) => (Cow::Owned(b), false),
            Chunks::Cut(b) => (Cow::Owned(b), true),
            Chunks::NotChunked => {
                // Reported: a body that is really chunked but broken from
                // its first line is then read as rules.
                if !body.is_empty() {
                    *why = Some(
                        "is sent with `Transfer-Encoding: chunked` but does \
                         not start with a chunk size: read as it is"
                            .into(),
                    );
                }
                (body, false)
            }
            Chunks::Broken => {
                let reason = "a broken chunk (Transfer-Encoding: chunked)";
                e.class = "undecodable";
                e.verdicts = everyone(broken(reason));
                *why = Some(format!("cannot be decoded: {reason}"));
                return e;
            }
        },
    };
    // The input ends before the body does.
    let short = capture.cut || ended_early;
    let decoded = match decode(capture.encoding.as_deref(), body, short) {
        Decoded::Body(decoded) => decoded,
        Decoded::Stored(body, said) => {
            *why = Some(match why.take() {
                Some(before) => format!("{before}; {said}"),
                None => said,
            });
            body
        }
        Decoded::Broken(e_why) => {
            e.class = "undecodable";
            e.verdicts = everyone(broken(&e_why));
            *why = Some(format!("cannot be decoded: {e_why}"));
            return e;
        }
    };
    let size = decoded.len();
    let (mut body, truncated) = if size <= policy::MAX_BODY {
        (decoded.into_owned(), false)
    } else {
        // The byte past the cap says whether the cap ends a line.
        let mut body = decoded[..=policy::MAX_BODY].to_vec();
        let truncated = policy::cut(&mut body, policy::MAX_BODY);
        (body, truncated)
    };
    if truncated || short {
        // As a fetch reads a cut body: the line the cut goes through is
        // not read.
        policy::drop_partial_line(&mut body);
    }
    e.class = "success";
    e.size = Some(size as i64);
    e.truncated = Some(truncated || short);
    let hash = xxhash_rust::xxh3::xxh3_64(&body);
    if let Some(meaning) = memo.get(hash, &body) {
        meaning.apply(&mut e);
        return e;
    }
    let response = Response::new(code, body);
    let Outcome::Available(robots) = policy::outcome("https", &response)
    else {
        unreachable!("a success is available")
    };
    let body = &response.body;
    let lint = options.lint.then(|| {
        let diagnostics = lint_robots(&robots, body);
        let count =
            |s| diagnostics.iter().filter(|d| d.severity == s).count() as i32;
        (count(Severity::Error), count(Severity::Warning))
    });
    let verdicts = audit_brief(&robots, &options.catalogue)
        .into_iter()
        .map(|s| Verdict {
            access: s.access,
            via: Some(match s.via {
                Via::Named => "named",
                Via::Global => "global",
                Via::Fallback => "fallback",
                _ => "none",
            }),
            crawl_delay: s.crawl_delay,
        })
        .collect::<Arc<[Verdict]>>();
    let verdicts = memo.share(verdicts);
    let (rules, sitemaps) = counts(&robots);
    let meaning = Meaning {
        body_kind: BodyKind::of(body).as_str(),
        hash: format!("{hash:016x}"),
        groups: robots.groups().len() as i32,
        rules,
        sitemaps,
        lint,
        verdicts,
    };
    memo.put(hash, response.body, &meaning);
    meaning.apply(&mut e);
    e
}

/// The rules of a file's groups, and its `sitemap` lines: in one pass over
/// its lines. A rule is in a group unless it comes before the first
/// `user-agent` line (`Robots::orphan_rules`).
fn counts(robots: &Robots) -> (i32, i32) {
    let (mut rules, mut sitemaps) = (0usize, 0usize);
    for line in robots.lines() {
        match line.tag() {
            Some(Tag::Allow | Tag::Disallow) => rules += 1,
            Some(Tag::Sitemap) => sitemaps += 1,
            _ => {}
        }
    }
    let rules = rules.saturating_sub(robots.orphan_rules().count());
    (rules as i32, sitemaps as i32)
}

/// The evaluation for every crawler when a redirect chain ends without a
/// capture to read (`stop`: `loop`, `too_many`, `no_location`, `scheme`
/// or `not_captured`): what the access method makes of the
/// [`Stop`](robotrules_fetch::policy::Stop) (a loop or too many
/// redirects is as a 404, no robots.txt and everything allowed; a broken
/// redirect as unreachable: RFC 9309 §2.3.1.2, Google), and a target
/// missing from the data unknown.
pub fn stopped(
    stop: &str,
    status: Option<u16>,
    catalogue: &Catalogue,
) -> Evaluation {
    let (class, access) = match crate::site::stop_of(stop).map(|s| s.outcome())
    {
        Some(o @ Outcome::Unavailable(_)) => ("unavailable", access_word(&o)),
        Some(o) => ("unreachable", access_word(&o)),
        None => ("redirect", "unknown"),
    };
    let verdict = Verdict { access, via: None, crawl_delay: None };
    Evaluation::bare(status, class, vec![verdict; catalogue.len()].into())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The evaluation of `c`, and what is wrong with its body.
    fn with_why(c: &Capture, o: &Options) -> (Evaluation, Option<String>) {
        let mut why = None;
        let body = Cow::Borrowed(&c.body[..]);
        let e = evaluate_body_why(c, body, o, &Memo::default(), &mut why);
        (e, why)
    }

    fn capture(status: u16, body: &[u8]) -> Capture {
        Capture {
            status: Some(status),
            body: body.to_vec(),
            ..Capture::default()
        }
    }

    #[test]
    fn chunked_bodies() {
        let whole = b"19\r\nUser-agent: *\r\nDisallow: \r\n3;x=y\r\n/\r\n\r\n0\r\n\r\n";
        let joined = b"User-agent: *\r\nDisallow: /\r\n".to_vec();
        assert_eq!(dechunk(whole), Chunks::Whole(joined.clone()));
        let lf = b"19\nUser-agent: *\r\nDisallow: \r\n3\n/\r\n\n0\n";
        assert_eq!(dechunk(lf), Chunks::Whole(joined.clone()));
        assert_eq!(dechunk(&whole[..whole.len() - 7]), Chunks::Cut(joined));
        assert_eq!(dechunk(&whole[..14]), Chunks::Cut(b"User-agent".to_vec()));
        assert_eq!(
            dechunk(b"User-agent: *\nDisallow: /\n"),
            Chunks::NotChunked
        );
        assert_eq!(dechunk(b""), Chunks::NotChunked);
        assert_eq!(dechunk(b"2\r\nab\r\nzz\r\nab\r\n"), Chunks::Broken);
        assert_eq!(dechunk(b"2\r\nabc\r\n0\r\n"), Chunks::Broken);
        // Sizes are hexadecimal digits and nothing else.
        assert_eq!(chunk_size(b"1A"), Some(26));
        assert_eq!(chunk_size(b"0000000000000000000001a \r"), Some(26));
        assert_eq!(chunk_size(b"0"), Some(0));
        for bad in [&b"+5"[..], b" 5", b"", b"0x5", b"1000000000000000", b"g"]
        {
            assert_eq!(chunk_size(bad), None, "{bad:?}");
        }
        assert_eq!(dechunk(b"1\r\na\r\n+1\r\nb\r\n0\r\n"), Chunks::Broken);

        // Through the evaluation: the rules of the joined chunks.
        let o = Options::new(Catalogue::builtin());
        let mut c = capture(200, whole);
        c.chunked = true;
        let e = evaluate(&c, &o);
        assert_eq!((e.class, e.verdicts[0].access), ("success", "disallowed"));
        assert_eq!((e.size, e.truncated), (Some(28), Some(false)));
        let mut c = capture(200, b"2\r\nab\r\nzz\r\n");
        c.chunked = true;
        let e = evaluate(&c, &o);
        assert_eq!(
            (e.class, e.verdicts[0].access),
            ("undecodable", "disallowed")
        );
        // Not chunked from its first line: read as it is, and said.
        for body in [&b"zz\r\nUser-agent: *\nDisallow: /\n"[..], b"-1\r\nab"] {
            let mut c = capture(200, body);
            c.chunked = true;
            let (e, why) = with_why(&c, &o);
            assert_eq!(e.class, "success");
            assert!(why.unwrap().contains("does not start with a chunk size"));
        }
    }

    #[test]
    fn classes() {
        let o = Options::new(Catalogue::builtin());
        let class = |c: &Capture| {
            let e = evaluate(c, &o);
            (e.class, e.verdicts[0].access)
        };
        assert_eq!(class(&capture(404, b"")), ("unavailable", "allowed"));
        assert_eq!(class(&capture(429, b"")), ("unreachable", "disallowed"));
        assert_eq!(class(&capture(503, b"")), ("unreachable", "disallowed"));
        assert_eq!(
            class(&capture(200, b"User-agent: *\nDisallow: /\n")),
            ("success", "disallowed")
        );
        let mut br = capture(200, b"\x8b\x00\x80");
        br.encoding = Some("br".into());
        assert_eq!(class(&br), ("undecodable", "disallowed"));
    }

    #[test]
    fn text_that_its_coding_does_not_describe_is_read_as_it_is() {
        let o = Options::new(Catalogue::builtin());
        let text = b"User-agent: *\r\n\tDisallow: /\x0c\n";
        for coding in ["gzip", "x-gzip", "deflate", "br", "gzip, br", "zstd"] {
            let mut c = capture(200, text);
            c.encoding = Some(coding.into());
            let (e, why) = with_why(&c, &o);
            assert_eq!(
                (e.class, e.verdicts[0].access),
                ("success", "disallowed"),
                "{coding}"
            );
            assert!(why.unwrap().contains("read as it is"), "{coding}");
        }
        // An empty body is text too: no rules.
        let mut c = capture(200, b"");
        c.encoding = Some("gzip".into());
        assert_eq!(evaluate(&c, &o).verdicts[0].access, "allowed");
        // A control byte makes it no text: a stream that does not decode.
        for bad in [&b"\x1f\x8bUser-agent: *\nDisallow: /\n"[..], b"ab\x00cd"]
        {
            let mut c = capture(200, bad);
            c.encoding = Some("gzip".into());
            let (e, why) = with_why(&c, &o);
            assert_eq!(e.class, "undecodable", "{bad:?}");
            assert!(why.unwrap().starts_with("cannot be decoded"));
        }
        // Only the first kilobyte is looked at.
        let mut late = text.to_vec();
        late.resize(1024, b'#');
        late.push(0);
        let mut c = capture(200, &late);
        c.encoding = Some("gzip".into());
        assert_eq!(evaluate(&c, &o).class, "success");
        // Both said: marked chunked and gzip, neither.
        let mut c = capture(200, text);
        c.encoding = Some("gzip".into());
        c.chunked = true;
        let (e, why) = with_why(&c, &o);
        let why = why.unwrap();
        assert_eq!(e.class, "success");
        assert!(why.contains("chunk size") && why.contains("read as it is"));
    }

    #[test]
    fn cap_and_gzip() {
        use std::io::Write;
        let mut big = b"User-agent: *\n".to_vec();
        big.resize(policy::MAX_BODY, b'#');
        big.extend_from_slice(b"\nDisallow: /\n");
        let mut gz = flate2::write::GzEncoder::new(
            Vec::new(),
            flate2::Compression::fast(),
        );
        gz.write_all(&big).unwrap();
        let mut c = capture(200, &gz.finish().unwrap());
        c.encoding = Some("gzip".into());
        let e = evaluate(&c, &Options::new(Catalogue::builtin()));
        assert_eq!(e.truncated, Some(true));
        assert_eq!(e.size, Some(big.len() as i64));
        // The rule past 500 KiB is not read.
        assert_eq!(e.verdicts[0].access, "allowed");
        // Codings in any case, stacked, or as `x-gzip`: the access
        // method's decoder.
        let body = b"User-agent: *\nDisallow: /\n";
        let mut gz = flate2::write::GzEncoder::new(
            Vec::new(),
            flate2::Compression::fast(),
        );
        gz.write_all(body).unwrap();
        let gz = gz.finish().unwrap();
        for coding in ["GZIP", "x-gzip", "identity, gzip", "Gzip "] {
            let mut c = capture(200, &gz);
            c.encoding = Some(coding.into());
            let e = evaluate(&c, &Options::new(Catalogue::builtin()));
            assert_eq!(
                (e.class, e.verdicts[0].access),
                ("success", "disallowed"),
                "{coding}"
            );
        }
    }

    #[test]
    fn a_body_the_input_cuts() {
        use std::io::Write;
        let o = Options::new(Catalogue::builtin());
        let text =
            b"User-agent: *\nDisallow: /\nAllow: /private/press-kit.pdf\n";
        let mut gz = flate2::write::GzEncoder::new(
            Vec::new(),
            flate2::Compression::fast(),
        );
        gz.write_all(text).unwrap();
        let gz = gz.finish().unwrap();
        // A gzip body cut in the archive: what decodes before the cut,
        // less its last partial line; the same body whole is undecodable
        // when the capture does not say it was cut.
        let mut c = capture(200, &gz[..gz.len() - 12]);
        c.encoding = Some("gzip".into());
        let (e, why) = with_why(&c, &o);
        assert_eq!((e.class, why.is_some()), ("undecodable", true));
        c.cut = true;
        let e = evaluate(&c, &o);
        assert_eq!((e.class, e.truncated), ("success", Some(true)));
        assert!(e.size.unwrap() < text.len() as i64);
        assert_eq!(e.verdicts[0].access, "disallowed");
        // A plain body cut in the archive loses its partial last line.
        let mut c = capture(200, &text[..text.len() - 10]);
        c.cut = true;
        let e = evaluate(&c, &o);
        assert_eq!((e.rules, e.verdicts[0].access), (Some(1), "disallowed"));
    }

    #[test]
    fn a_line_the_cap_cuts_is_not_read() {
        // `Allow: /private/press-kit.pdf` across the cap is no
        // `Allow: /private/p`.
        let mut body = b"User-agent: *\nDisallow: /private\n".to_vec();
        body.resize(policy::MAX_BODY - 18, b'#');
        body.push(b'\n');
        body.extend_from_slice(b"Allow: /private/press-kit.pdf\n");
        let raw = robotrules::Robots::parse(&body[..policy::MAX_BODY]);
        assert!(raw.is_allowed("GPTBot", "https://a/private/passwords"));
        let e = evaluate(
            &capture(200, &body),
            &Options::new(Catalogue::builtin()),
        );
        assert_eq!((e.truncated, e.rules), (Some(true), Some(1)));
        assert_eq!(e.verdicts[0].access, "partial");
        let read = &body[..policy::MAX_BODY - 17];
        let hash = xxhash_rust::xxh3::xxh3_64(read);
        assert_eq!(e.hash, Some(format!("{hash:016x}")));
    }

    #[test]
    fn a_line_that_ends_at_the_cap_is_read() {
        // `Disallow: /x` ends at the cap, its line break past it: read.
        // One byte longer, it is cut, and not read.
        for (rule, access) in
            [("Disallow: /x", "partial"), ("Disallow: /xy", "allowed")]
        {
            let mut body = b"User-agent: *\n".to_vec();
            body.resize(policy::MAX_BODY - 13, b'#');
            body.push(b'\n');
            body.extend_from_slice(rule.as_bytes());
            body.extend_from_slice(b"\nDisallow: /z\n");
            let e = evaluate(
                &capture(200, &body),
                &Options::new(Catalogue::builtin()),
            );
            assert_eq!(e.truncated, Some(true), "{rule}");
            assert_eq!(e.verdicts[0].access, access, "{rule}");
        }
    }

    #[test]
    fn a_stopped_chain_means_what_the_access_method_says() {
        let catalogue = Catalogue::builtin();
        for (stop, class, access) in [
            ("loop", "unavailable", "allowed"),
            ("too_many", "unavailable", "allowed"),
            ("no_location", "unreachable", "disallowed"),
            ("scheme", "unreachable", "disallowed"),
            ("not_captured", "redirect", "unknown"),
        ] {
            let e = stopped(stop, Some(301), &catalogue);
            assert_eq!((e.class, e.status), (class, Some(301)), "{stop}");
            assert_eq!(e.verdicts.len(), catalogue.len());
            assert!(e.verdicts.iter().all(|v| v.access == access), "{stop}");
        }
    }

    /// Evaluates `c` through `memo`.
    fn through(c: &Capture, o: &Options, memo: &Memo) -> Evaluation {
        evaluate_body(c, Cow::Borrowed(&c.body), o, memo)
    }

    #[test]
    fn a_body_met_again_means_the_same() {
        let memo = Memo::default();
        let mut o = Options::new(Catalogue::builtin());
        o.lint = true;
        let body = b"User-agent: GPTBot\nDisallow: /\nCrawl-delay: 2\n\
                     User-agent: *\nDisallow: /private\nSitemap: /s.xml\nBad\n";
        let first = capture(200, body);
        let mut again = capture(203, body);
        again.cut = true;
        let html = capture(200, b"<html><body>not found</body></html>");
        for c in [&first, &html, &again, &first, &html] {
            let fresh = evaluate(c, &o);
            assert_eq!(through(c, &o, &memo), fresh);
            // The capture's own fields come from it, not from the memo.
            assert_eq!(fresh.status, c.status);
            assert_eq!(fresh.truncated, Some(c.cut));
        }
        // Two bodies cut to the same 500 KiB: one meaning, their own sizes.
        let mut long = b"User-agent: *\nDisallow: /a\n".to_vec();
        long.resize(policy::MAX_BODY + 10, b'#');
        let longer = [&long[..], b"\nDisallow: /\n"].concat();
        for c in [capture(200, &long), capture(200, &longer)] {
            let e = through(&c, &o, &memo);
            assert_eq!(e, evaluate(&c, &o));
            assert_eq!(e.size, Some(c.body.len() as i64));
            assert_eq!(e.truncated, Some(true));
        }
        let hash = xxhash_rust::xxh3::xxh3_64(body);
        let kept = memo.get(hash, body).expect("kept");
        let e = evaluate(&first, &o);
        assert_eq!(kept.verdicts, e.verdicts);
        let lint = e.lint_errors.zip(e.lint_warnings);
        assert_eq!(kept.lint, lint);
        assert!(lint.is_some_and(|(errors, warnings)| errors + warnings > 0));
        assert_eq!(memo.seen().by_hash.len(), 3);
    }

    #[test]
    fn a_collision_is_not_trusted() {
        let memo = Memo::default();
        let o = Options::new(Catalogue::builtin());
        let open = capture(200, b"User-agent: *\nAllow: /\n");
        let e = through(&open, &o, &memo);
        let hash = xxhash_rust::xxh3::xxh3_64(&open.body);
        let closed = b"User-agent: *\nDisallow: /\n";
        // Another body under the same hash is not taken for the one kept,
        // and does not replace it.
        assert!(memo.get(hash, closed).is_none());
        let mut meaning = memo.get(hash, &open.body).expect("kept");
        meaning.verdicts = Arc::default();
        memo.put(hash, closed.to_vec(), &meaning);
        assert!(memo.get(hash, closed).is_none());
        assert_eq!(
            memo.get(hash, &open.body).expect("kept").verdicts,
            e.verdicts
        );
    }

    #[test]
    fn evaluations_that_mean_the_same_share_their_verdicts() {
        let memo = Memo::default();
        let o = Options::new(Catalogue::builtin());
        // Through the memo, and alone.
        let shared = |status, body: &[u8]| {
            let e = through(&capture(status, body), &o, &memo);
            assert_eq!(
                e.verdicts,
                evaluate(&capture(status, body), &o).verdicts
            );
            e.verdicts
        };
        let a = shared(200, b"User-agent: *\nDisallow: /a\n");
        let b = shared(200, b"User-agent: *\nDisallow: /b\n");
        assert!(Arc::ptr_eq(&a, &b));
        // Another meaning, another list.
        let c = shared(200, b"User-agent: *\nDisallow: /\n");
        assert!(!Arc::ptr_eq(&a, &c));
        // (but for AdsBot, which ignores the `*` groups)
        let catalogue = Catalogue::builtin();
        for (v, crawler) in c.iter().zip(catalogue.crawlers()) {
            let want =
                if crawler.ignores_global { "allowed" } else { "disallowed" };
            assert_eq!(v.access, want, "{}", crawler.token);
        }
        // Captures a status decides share one list per access word.
        let (d, e) = (shared(404, b""), shared(410, b"x"));
        assert!(Arc::ptr_eq(&d, &e));
        let f = shared(503, b"");
        assert!(!Arc::ptr_eq(&d, &f));
        assert_eq!((d[0].access, f[0].access), ("allowed", "disallowed"));
        // Crawl-delays of other bits are other lists, written as they are.
        let zero = shared(200, b"User-agent: *\nCrawl-delay: 0\n");
        let minus = shared(200, b"User-agent: *\nCrawl-delay: -0\n");
        let bits = |l: &[Verdict]| l[0].crawl_delay.map(f64::to_bits);
        assert_eq!(Arc::ptr_eq(&zero, &minus), bits(&zero) == bits(&minus));
    }

    #[test]
    fn the_shared_lists_stay_bounded() {
        // Each crawl-delay is another list: past `most` lists, the memo
        // starts again.
        let fill = |o: &Options, most: usize| {
            let memo = Memo::default();
            for i in 0..most + 10 {
                let body = format!("User-agent: *\nCrawl-delay: {i}\n");
                let e = through(&capture(200, body.as_bytes()), o, &memo);
                assert_eq!(e.verdicts[0].crawl_delay, Some(i as f64));
                let lists = memo.lists.lock().unwrap().len();
                assert!((1..=most).contains(&lists), "{lists}");
            }
        };
        // One crawler: the count bounds the lists.
        let gpt = ["GPTBot".to_string()];
        let o = crate::dist::agents(Catalogue::builtin(), &gpt).unwrap();
        fill(&Options::new(o), MEMO_LISTS);
        // 2,000 crawlers: lists of 96,000 bytes, at most 87 of them.
        let crawlers = (0..2000)
            .map(|i| {
                // Product tokens are letters, `-` and `_`.
                let name: String = [i / 676, i / 26 % 26, i % 26]
                    .iter()
                    .map(|&d| char::from(b'a' + d as u8))
                    .collect();
                robotrules_analysis::Crawler::new(
                    format!("bot-{name}"),
                    "X",
                    robotrules_analysis::Purpose::Other,
                )
            })
            .collect();
        let o = Options::new(Catalogue::new(crawlers).unwrap());
        fill(&o, MEMO_LIST_BYTES / (2000 * std::mem::size_of::<Verdict>()));
    }

    #[test]
    fn the_memo_stays_bounded() {
        let memo = Memo::default();
        let gpt = ["GPTBot".to_string()];
        let o = Options::new(
            crate::dist::agents(Catalogue::builtin(), &gpt).unwrap(),
        );
        // Adds `n` distinct bodies of `pad` bytes more than a rule; returns
        // how often the memo dropped entries, and its largest count and
        // bytes.
        let mut i = 0;
        let mut fill = |n: usize, pad: usize| {
            let (mut drops, mut most, mut bytes) = (0, 0, 0);
            let mut last = memo.seen().by_hash.len();
            for _ in 0..n {
                i += 1;
                let mut body =
                    format!("User-agent: *\nDisallow: /{i}\n").into_bytes();
                body.resize(body.len() + pad, b'#');
                let e = through(&capture(200, &body), &o, &memo);
                assert_eq!(e.verdicts[0].access, "partial");
                let seen = memo.seen();
                if i % 1000 == 0 {
                    let sum: usize = seen
                        .by_hash
                        .values()
                        .map(|(b, m)| Memo::cost(b, m))
                        .sum();
                    assert_eq!(seen.bytes, sum);
                }
                assert!(seen.bytes <= MEMO_BYTES);
                assert!(seen.by_hash.len() <= MEMO_ENTRIES);
                drops += usize::from(seen.by_hash.len() < last);
                last = seen.by_hash.len();
                most = most.max(last);
                bytes = bytes.max(seen.bytes);
            }
            (drops, most, bytes)
        };
        // Small bodies: the count bounds the memo.
        let (drops, most, bytes) = fill(MEMO_ENTRIES + 1000, 0);
        assert_eq!((drops, most), (1, MEMO_ENTRIES));
        assert!(bytes < MEMO_BYTES / 2, "{bytes}");
        // Bodies of 4 KB: the bytes do.
        let (drops, _, bytes) = fill(20_000, 4000);
        assert!(drops >= 2, "{drops}");
        assert!(bytes > MEMO_BYTES - 5000, "{bytes}");
        let left = memo.seen().by_hash.len();
        assert!(left < MEMO_ENTRIES / 4, "{left}");
    }

    #[test]
    fn counts_are_those_of_the_groups() {
        let mut files = robotrules_testdata::corpus_files();
        files.extend(robotrules_testdata::adversarial_files());
        assert!(files.len() > 16_000);
        for path in files {
            let body = std::fs::read(&path).unwrap();
            let robots = Robots::parse(&body);
            let rules =
                robots.groups().map(|g| g.rules().count()).sum::<usize>();
            let sitemaps = robots.sitemaps().count();
            assert_eq!(
                counts(&robots),
                (rules as i32, sitemaps as i32),
                "{}",
                path.display()
            );
        }
    }
}
