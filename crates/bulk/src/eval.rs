//! One capture evaluated: what it means for every crawler (the stage that
//! the Spark job shares), and the row of a site.

use std::borrow::Cow;
use std::io::Read;

use robotrules::Robots;
use robotrules_analysis::{
    audit_brief, lint_robots, BodyKind, Catalogue, Severity, Via,
};
use robotrules_fetch::policy::{self, Access, StatusClass};
use robotrules_fetch::{Outcome, Response};

use crate::capture::Capture;

/// Bodies are decoded up to this many bytes: the size reported is at most
/// this.
const DECODE_LIMIT: u64 = 8 << 20;

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
    /// `named`, `global` or `none` when the rules come from a robots.txt;
    /// `None` when the status decides (no file, or unreachable).
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
    /// `redirect` (not resolved in the data), or `undecodable` (the body's
    /// content encoding cannot be decoded).
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
    /// Per crawler of the catalogue, in its order.
    pub verdicts: Vec<Verdict>,
}

impl Evaluation {
    /// An evaluation with no file read: only the status, the class and
    /// the verdicts.
    fn bare(
        status: Option<u16>,
        class: &'static str,
        verdicts: Vec<Verdict>,
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

/// The body after its content encoding is undone; an identity body as it
/// is, without a copy.
fn decode<'a>(
    encoding: Option<&str>,
    body: Cow<'a, [u8]>,
) -> Option<Cow<'a, [u8]>> {
    let enc = encoding.unwrap_or("").trim().to_ascii_lowercase();
    let mut out = Vec::new();
    let ok = match enc.as_str() {
        "" | "identity" => return Some(body),
        "gzip" | "x-gzip" => flate2::read::MultiGzDecoder::new(&body[..])
            .take(DECODE_LIMIT)
            .read_to_end(&mut out)
            .is_ok(),
        "deflate" => {
            // Servers send zlib streams or raw deflate under this name.
            flate2::read::ZlibDecoder::new(&body[..])
                .take(DECODE_LIMIT)
                .read_to_end(&mut out)
                .is_ok()
                || {
                    out.clear();
                    flate2::read::DeflateDecoder::new(&body[..])
                        .take(DECODE_LIMIT)
                        .read_to_end(&mut out)
                        .is_ok()
                }
        }
        _ => false,
    };
    ok.then_some(Cow::Owned(out))
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
    evaluate_body(capture, Cow::Borrowed(&capture.body), options)
}

/// [`evaluate`] with the body given apart (`capture.body` is not read):
/// an owned body is parsed without a copy.
pub(crate) fn evaluate_body(
    capture: &Capture,
    body: Cow<'_, [u8]>,
    options: &Options,
) -> Evaluation {
    let n = options.catalogue.len();
    let status = capture.status;
    let mut e = Evaluation::bare(status, "unreachable", Vec::new());
    let everyone =
        |access| vec![Verdict { access, via: None, crawl_delay: None }; n];
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
        e.verdicts = everyone(match policy::access(&outcome) {
            _ if class == StatusClass::Redirect => "unknown",
            Access::AllowAll => "allowed",
            Access::DisallowAll => "disallowed",
            _ => "unknown",
        });
        return e;
    }
    let Some(decoded) = decode(capture.encoding.as_deref(), body) else {
        e.class = "undecodable";
        e.verdicts = everyone("unknown");
        return e;
    };
    let size = decoded.len();
    let (body, truncated) = if size <= policy::MAX_BODY {
        (decoded.into_owned(), false)
    } else {
        let mut body = Vec::with_capacity(policy::MAX_BODY);
        let truncated = policy::take(&mut body, &decoded, policy::MAX_BODY);
        (body, truncated)
    };
    let response = Response::new(code, body);
    let Outcome::Available(robots) = policy::outcome("https", &response)
    else {
        unreachable!("a success is available")
    };
    let body = &response.body;
    e.class = "success";
    e.body_kind = Some(BodyKind::of(body).as_str());
    e.size = Some(size as i64);
    e.truncated = Some(truncated || capture.cut);
    e.hash = Some(format!("{:016x}", xxhash_rust::xxh3::xxh3_64(body)));
    file_counts(&robots, &mut e);
    if options.lint {
        let diagnostics = lint_robots(&robots, body);
        let count =
            |s| diagnostics.iter().filter(|d| d.severity == s).count() as i32;
        e.lint_errors = Some(count(Severity::Error));
        e.lint_warnings = Some(count(Severity::Warning));
    }
    e.verdicts = audit_brief(&robots, &options.catalogue)
        .into_iter()
        .map(|s| Verdict {
            access: s.access,
            via: Some(match s.via {
                Via::Named => "named",
                Via::Global => "global",
                _ => "none",
            }),
            crawl_delay: s.crawl_delay,
        })
        .collect();
    e
}

fn file_counts(robots: &Robots, e: &mut Evaluation) {
    let groups = robots.groups();
    e.groups = Some(groups.len() as i32);
    e.rules = Some(robots.groups().map(|g| g.rules().count() as i32).sum());
    e.sitemaps = Some(robots.sitemaps().count() as i32);
}

/// The evaluation for every crawler when a redirect chain ends without a
/// capture to read (`stop`: `loop`, `too_many`, `no_location`, `scheme`
/// or `not_captured`): a loop or too many redirects is as a 404 (no
/// robots.txt, everything allowed), a broken redirect as unreachable
/// (RFC 9309 §2.3.1.2, Google), a target missing from the data unknown.
pub fn stopped(
    stop: &str,
    status: Option<u16>,
    catalogue: &Catalogue,
) -> Evaluation {
    let (class, access) = match stop {
        "loop" | "too_many" => ("unavailable", "allowed"),
        "no_location" | "scheme" => ("unreachable", "disallowed"),
        _ => ("redirect", "unknown"),
    };
    let verdict = Verdict { access, via: None, crawl_delay: None };
    Evaluation::bare(status, class, vec![verdict; catalogue.len()])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn capture(status: u16, body: &[u8]) -> Capture {
        Capture {
            status: Some(status),
            body: body.to_vec(),
            ..Capture::default()
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
        let mut br = capture(200, b"xx");
        br.encoding = Some("br".into());
        assert_eq!(class(&br), ("undecodable", "unknown"));
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
    }
}
