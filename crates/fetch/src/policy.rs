//! The access method's rules, with no I/O: every function here is a pure
//! function of its inputs (and of `now`, passed in), so that the reqwest
//! [`Fetcher`](crate::Fetcher), the FTP client, the
//! [`RobotsCache`](crate::RobotsCache), a caller's own
//! [`Download`](crate::Download) and the command line all apply the same
//! rules, and tests can walk any timeline.
//!
//! | function | rule |
//! |---|---|
//! | [`classify_http`], [`classify_ftp`] | a status code's class (RFC 9309 §2.3.1.1–§2.3.1.4) |
//! | [`Redirects`] | which redirects are followed (§2.3.1.2) |
//! | [`decode`], [`Decoder`] | content codings: gzip, deflate, br (RFC 9110 §8.4) |
//! | [`take`], [`cut`], [`drop_partial_line`] | the 500 KiB body cap (§2.5) |
//! | [`location`] | a `Location` header's bytes as a URL reference |
//! | [`CacheControl`], [`RetryAfter`], [`lifetime`] | how long a result is kept (§2.4) |
//! | [`outcome`] | a raw response to an [`Outcome`] |
//! | [`access`] | what an outcome means for crawlers |
//! | [`is_exempt`], [`target`] | which URL is judged, and `/robots.txt` itself (§2.2.2) |
//! | [`State`] | a cached site's life: fresh, expired, unreachable, stale |
//!
//! # Example: what a crawler must do after a 503
//!
//! ```
//! use std::time::{Duration, UNIX_EPOCH};
//! use robotrules_fetch::policy::{self, Access, State, Timing};
//! use robotrules_fetch::{Authority, Fetch, Response};
//!
//! let site = Authority::of("https://example.com/")?;
//! let fetch = Fetch::new(&site, Ok(Response::new(503, Vec::new())));
//! assert_eq!(policy::access(&fetch.outcome), Access::DisallowAll);
//!
//! let now = UNIX_EPOCH + Duration::from_secs(1_000_000);
//! let mut state = State::new();
//! state.record(&fetch, now, &Timing::default());
//! // A 503 is asked again after five minutes, other failures after an hour.
//! assert!(state.is_fresh(now + Duration::from_secs(299)));
//! assert!(!state.is_fresh(now + Duration::from_secs(300)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::borrow::Cow;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use robotrules::Robots;
use url::Url;

use crate::cache::Reason;
use crate::fetch::{Fetch, Outcome, Response, Unavailable, Unreachable};

mod coding;

pub use self::coding::{
    decode, Decoder, Undecodable, UndecodableKind, MAX_CODINGS,
};

/// Google reads at most this many bytes of a robots.txt (500 KiB).
///
/// > The parsing limit MUST be at least 500 kibibytes \[KiB\].
/// > — RFC 9309 §2.5
///
/// Google enforces exactly this limit and ignores what comes after it.
pub const MAX_BODY: usize = robotrules::FETCH_LIMIT;

/// How many consecutive redirects are followed.
///
/// > It's RECOMMENDED to follow at least five consecutive redirects, even
/// > across authorities — RFC 9309 §2.3.1.2
pub const MAX_REDIRECTS: usize = 5;

/// How long a fetched robots.txt is used, by default and at most.
///
/// > Crawlers SHOULD NOT use the cached version for more than 24 hours,
/// > unless the robots.txt file is unreachable. — RFC 9309 §2.4
pub const DEFAULT_LIFETIME: Duration = Duration::from_secs(24 * 3600);

/// After this long unreachable, a site with no cached copy is treated as
/// having no robots.txt. Google's documentation: past 30 days unreachable,
/// the last cached copy is used, and with none, no crawl restrictions are
/// assumed.
pub const UNREACHABLE_LIMIT: Duration = Duration::from_secs(30 * 24 * 3600);

/// How long to wait before asking an unreachable site again.
pub const RETRY: Duration = Duration::from_secs(3600);

/// The same after a 503, which asks for sooner retries.
pub const RETRY_503: Duration = Duration::from_secs(300);

/// The longest `Retry-After` honoured: 24 hours, as long as a fetched file
/// may be used ([`DEFAULT_LIFETIME`]). A longer one is cut to this; a
/// shorter one is kept (but never under a second).
pub const MAX_RETRY_AFTER: Duration = DEFAULT_LIFETIME;

/// What a status code means (RFC 9309 §2.3.1).
#[derive(Clone, Copy, Debug, Eq, Hash, PartialEq)]
#[non_exhaustive]
pub enum StatusClass {
    /// Parse the body and obey it (2xx; FTP 1xx–2xx).
    Success,
    /// Follow the `Location` (3xx).
    Redirect,
    /// There is no robots.txt: everything is allowed (4xx except 407 and
    /// 429; FTP's 550, file unavailable).
    Unavailable,
    /// The site cannot be asked: everything is disallowed (407, 429, 5xx,
    /// any other code; any other negative FTP reply).
    Unreachable,
}

/// The class of an HTTP status code: RFC 9309 §2.3.1.3 ("unavailable",
/// 400–499) and §2.3.1.4 ("unreachable", 500–599), as Google applies them:
/// 429 counts as unreachable, and so does any code no rule covers. So
/// does 407, which the crawler's own proxy sends: it says nothing about
/// the site. And so does 304 Not Modified, no redirect (RFC 9110
/// §15.4.5) but the answer to a conditional request, with no body: it
/// says to keep the copy the request revalidated, which only the client
/// that sent it has.
///
/// # Example
///
/// ```
/// use robotrules_fetch::policy::{classify_http, StatusClass};
///
/// assert_eq!(classify_http(404), StatusClass::Unavailable);
/// assert_eq!(classify_http(429), StatusClass::Unreachable);
/// assert_eq!(classify_http(407), StatusClass::Unreachable);
/// assert_eq!(classify_http(301), StatusClass::Redirect);
/// assert_eq!(classify_http(304), StatusClass::Unreachable);
/// ```
pub fn classify_http(status: u16) -> StatusClass {
    match status {
        200..=299 => StatusClass::Success,
        304 => StatusClass::Unreachable,
        300..=399 => StatusClass::Redirect,
        // 407 comes from the crawler's own proxy: nothing about the site.
        407 | 429 => StatusClass::Unreachable,
        400..=499 => StatusClass::Unavailable,
        _ => StatusClass::Unreachable,
    }
}

/// The class of an FTP reply code to `RETR /robots.txt` (or to the
/// `PASV` before it): 550, "file unavailable" (no such file, or no
/// access: RFC 959 §4.2.2), means there is no robots.txt; any other
/// negative reply, permanent or transient, is no answer about the file
/// (`502` to `PASV`, `451` local error, `551` aborted transfer) and means
/// the site cannot be asked now.
///
/// # Example
///
/// ```
/// use robotrules_fetch::policy::{classify_ftp, StatusClass};
///
/// assert_eq!(classify_ftp(226), StatusClass::Success);
/// assert_eq!(classify_ftp(550), StatusClass::Unavailable);
/// assert_eq!(classify_ftp(502), StatusClass::Unreachable);
/// assert_eq!(classify_ftp(450), StatusClass::Unreachable);
/// ```
pub fn classify_ftp(reply: u16) -> StatusClass {
    match reply {
        100..=299 => StatusClass::Success,
        550 => StatusClass::Unavailable,
        _ => StatusClass::Unreachable,
    }
}

/// Why a redirect is not followed.
#[derive(Clone, Debug, Eq, PartialEq)]
#[non_exhaustive]
pub enum Stop {
    /// The target was already visited.
    Loop,
    /// The limit of redirects was reached.
    TooMany,
    /// No usable `Location` header.
    NoLocation,
    /// A redirect to a scheme other than `http` or `https`.
    Scheme(String),
}

impl Stop {
    /// What the crawler must make of it: a loop or too many redirects is
    /// as a 404 (Google); a broken redirect, unreachable.
    pub fn outcome(&self) -> Outcome {
        match self {
            Stop::Loop => Outcome::Unavailable(Unavailable::RedirectLoop),
            Stop::TooMany => {
                Outcome::Unavailable(Unavailable::TooManyRedirects)
            }
            Stop::NoLocation => Outcome::Unreachable(Unreachable::Broken(
                "a redirect without a usable Location".to_string(),
            )),
            Stop::Scheme(to) => Outcome::Unreachable(Unreachable::Broken(
                format!("redirect to {to}"),
            )),
        }
    }
}

/// The bookkeeping of one fetch's redirects: where it is, where it has
/// been, and whether the next `Location` may be followed.
///
/// > It's RECOMMENDED to follow at least five consecutive redirects, even
/// > across authorities (for example, hosts in the case of HTTP). If a
/// > robots.txt file is reached within five consecutive redirects, the
/// > robots.txt file MUST be fetched, parsed, and its rules followed in
/// > the context of the initial authority. — RFC 9309 §2.3.1.2
///
/// # Example
///
/// ```
/// use robotrules_fetch::policy::{Redirects, Stop};
///
/// let start = url::Url::parse("http://a.example/robots.txt")?;
/// let mut r = Redirects::new(start);
/// let next = r.follow(Some("https://b.example/robots.txt")).unwrap();
/// assert_eq!(next.as_str(), "https://b.example/robots.txt");
/// assert_eq!(r.follow(Some("http://a.example/robots.txt")), Err(Stop::Loop));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Redirects {
    seen: Vec<Url>,
    limit: usize,
}

impl Redirects {
    /// Starts at `start`, with the limit [`MAX_REDIRECTS`].
    pub fn new(start: Url) -> Redirects {
        Redirects::with_limit(start, MAX_REDIRECTS)
    }

    /// Starts at `start`, following at most `limit` redirects.
    pub fn with_limit(start: Url, limit: usize) -> Redirects {
        Redirects { seen: vec![start], limit }
    }

    /// The URL to request now.
    pub fn current(&self) -> &Url {
        self.seen.last().unwrap_or_else(|| unreachable!("never empty"))
    }

    /// How many redirects have been followed.
    pub fn count(&self) -> usize {
        self.seen.len() - 1
    }

    /// Follows the current URL's redirect to `location` (the header's
    /// value, relative to the current URL), and returns the next URL to
    /// request.
    ///
    /// # Errors
    ///
    /// The [`Stop`] that ends the fetch: a loop, the limit, a missing,
    /// empty, blank or unusable `Location` ([`Stop::NoLocation`]: an
    /// empty reference would name the same URL again, but it names
    /// nothing), or a scheme other than `http(s)`.
    pub fn follow(&mut self, location: Option<&str>) -> Result<Url, Stop> {
        let mut next = usable(location)
            .and_then(|l| self.current().join(l).ok())
            .ok_or(Stop::NoLocation)?;
        // A fragment is never sent: `/a#x` and `/a#y` are one request (and
        // a loop of them is a loop).
        next.set_fragment(None);
        if self.seen.contains(&next) {
            return Err(Stop::Loop);
        }
        if !matches!(next.scheme(), "http" | "https") {
            return Err(Stop::Scheme(next.to_string()));
        }
        if self.count() >= self.limit {
            return Err(Stop::TooMany);
        }
        self.seen.push(next.clone());
        Ok(next)
    }
}

/// A `Location` value with its surrounding whitespace removed, unless
/// nothing is left.
fn usable(location: Option<&str>) -> Option<&str> {
    location.map(str::trim).filter(|l| !l.is_empty())
}

/// A `Location` header's bytes as a URL reference: bytes from 0x80 up
/// (raw UTF-8 or Latin-1, which some servers send) are percent-encoded,
/// as browsers do, so that the redirect can be followed; other bytes are
/// kept.
///
/// # Example
///
/// ```
/// use robotrules_fetch::policy::location;
///
/// assert_eq!(location("/robóts.txt".as_bytes()), "/rob%C3%B3ts.txt");
/// assert_eq!(location(b"/caf\xe9"), "/caf%E9");
/// ```
pub fn location(value: &[u8]) -> String {
    let mut out = String::with_capacity(value.len());
    for &b in value {
        if b < 0x80 {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Drops the bytes after the last line break (LF or CR) of a body cut at
/// the cap: the line the cap went through was not read whole, so it is
/// not read at all. Otherwise `Allow: /private/press-kit.pdf` cut to
/// `Allow: /private/p` would be a rule the file does not contain. A body
/// with no line break becomes empty.
///
/// > The parsing limit MUST be at least 500 kibibytes \[KiB\].
/// > — RFC 9309 §2.5
///
/// Call it only on a body that was cut: a whole file's last line counts
/// even without a line break. `robotrules-analysis` reads a cut file the
/// same way (`first_line_beyond_fetch_limit`).
///
/// # Example
///
/// ```
/// use robotrules_fetch::policy::drop_partial_line;
///
/// let mut body = b"Disallow: /private\nAllow: /private/p".to_vec();
/// drop_partial_line(&mut body);
/// assert_eq!(body, b"Disallow: /private\n");
/// ```
pub fn drop_partial_line(body: &mut Vec<u8>) {
    let keep = body
        .iter()
        .rposition(|&b| b == b'\n' || b == b'\r')
        .map_or(0, |i| i + 1);
    body.truncate(keep);
}

/// Cuts a body longer than `cap` bytes at the cap, as a fetch reads it,
/// and returns true if and only if it was longer: then
/// [`drop_partial_line`] drops the line the cap goes through. It needs
/// the byte just past the cap (a reader reads `cap + 1` bytes at most,
/// see [`take`]): a line whose every byte fits, only its line break past
/// the cap, is read whole, so that line break is kept.
///
/// # Example
///
/// ```
/// use robotrules_fetch::policy::{cut, drop_partial_line};
///
/// let read = |cap| {
///     let mut body = b"Disallow: /a\nAllow: /abc\n".to_vec();
///     if cut(&mut body, cap) {
///         drop_partial_line(&mut body);
///     }
///     body
/// };
/// assert_eq!(read(20), b"Disallow: /a\n");
/// assert_eq!(read(24), b"Disallow: /a\nAllow: /abc\n");
/// assert_eq!(read(25), b"Disallow: /a\nAllow: /abc\n");
/// ```
pub fn cut(body: &mut Vec<u8>, cap: usize) -> bool {
    let Some(&next) = body.get(cap) else { return false };
    let whole = next == b'\n' || next == b'\r';
    body.truncate(cap + usize::from(whole));
    true
}

/// Appends `chunk` to `body` up to `cap` bytes, and returns true if and
/// only if the cap was reached with bytes left over: the rest must not be
/// read.
///
/// # Example
///
/// ```
/// use robotrules_fetch::policy::take;
///
/// let mut body = Vec::new();
/// assert!(!take(&mut body, b"abc", 4));
/// assert!(take(&mut body, b"def", 4));
/// assert_eq!(body, b"abcd");
/// ```
pub fn take(body: &mut Vec<u8>, chunk: &[u8], cap: usize) -> bool {
    let room = cap.saturating_sub(body.len());
    if chunk.len() > room {
        body.extend_from_slice(&chunk[..room]);
        true
    } else {
        body.extend_from_slice(chunk);
        false
    }
}

/// The `Cache-Control` directives that set a robots.txt's lifetime.
///
/// > Crawlers MAY use standard cache control as defined in RFC 9111.
/// > — RFC 9309 §2.4
#[derive(Clone, Copy, Debug, Default, Eq, PartialEq)]
#[non_exhaustive]
pub struct CacheControl {
    /// `max-age`, if given.
    pub max_age: Option<Duration>,
    /// `no-store`: keep nothing.
    pub no_store: bool,
    /// `no-cache`: ask again before each use.
    pub no_cache: bool,
    /// The response's `Age`, if valid ([`CacheControl::with_age`]): how
    /// long it had already been kept in caches on its way. It counts
    /// against `max-age`.
    pub age: Option<Duration>,
}

impl CacheControl {
    /// Reads every `Cache-Control` header value; unknown directives are
    /// ignored, commas inside quoted strings separate nothing, and the
    /// first `max-age` counts (RFC 9111 §4.2.1). A `max-age` that is not
    /// delta-seconds (digits, quoted or not) is ignored; one too large to
    /// hold is taken as the largest (RFC 9111 §1.2.2). The `Age` header
    /// is read by [`CacheControl::with_age`].
    ///
    /// # Example
    ///
    /// ```
    /// use std::time::Duration;
    /// use robotrules_fetch::policy::CacheControl;
    ///
    /// let cc = CacheControl::parse(["public, Max-Age=\"60\"", "no-cache"]);
    /// assert_eq!(cc.max_age, Some(Duration::from_secs(60)));
    /// assert!(cc.no_cache && !cc.no_store);
    /// let cc = CacheControl::parse(["max-age=1, max-age=86400"]);
    /// assert_eq!(cc.max_age, Some(Duration::from_secs(1)));
    /// let cc = CacheControl::parse([r#"ext="a, max-age=1", max-age=60"#]);
    /// assert_eq!(cc.max_age, Some(Duration::from_secs(60)));
    /// ```
    pub fn parse<'a>(values: impl IntoIterator<Item = &'a str>) -> Self {
        let mut cc = CacheControl::default();
        for directive in values.into_iter().flat_map(directives) {
            let directive = directive.trim().to_ascii_lowercase();
            if let Some(age) = directive.strip_prefix("max-age=") {
                let quoted =
                    age.strip_prefix('"').and_then(|a| a.strip_suffix('"'));
                if let (None, Some(secs)) =
                    (cc.max_age, delta_seconds(quoted.unwrap_or(age)))
                {
                    cc.max_age = Some(Duration::from_secs(secs));
                }
            } else if directive == "no-store" {
                cc.no_store = true;
            } else if directive == "no-cache" {
                cc.no_cache = true;
            }
        }
        cc
    }

    /// Adds the response's `Age` header value (RFC 9111 §5.1): seconds
    /// the response had already spent in caches when it arrived, which
    /// count against its `max-age`. Of a list, the first member counts;
    /// a value that is not a number of seconds is ignored, and one too
    /// large to hold is taken as the largest (RFC 9111 §1.2.2). The
    /// `Date` header is not used: the clocks of a server and a crawler
    /// need not agree.
    ///
    /// # Example
    ///
    /// ```
    /// use std::time::Duration;
    /// use robotrules_fetch::policy::{lifetime, CacheControl, DEFAULT_LIFETIME};
    ///
    /// let cc = CacheControl::parse(["max-age=600"]).with_age(Some("540"));
    /// assert_eq!(cc.age, Some(Duration::from_secs(540)));
    /// assert_eq!(lifetime(&cc, DEFAULT_LIFETIME), Duration::from_secs(60));
    /// let cc = CacheControl::parse(["max-age=600"]).with_age(Some("soon"));
    /// assert_eq!(cc.age, None);
    /// ```
    pub fn with_age(mut self, age: Option<&str>) -> CacheControl {
        self.age = age
            .and_then(|value| value.split(',').next())
            .and_then(|first| delta_seconds(first.trim()))
            .map(Duration::from_secs);
        self
    }

    /// Returns true if and only if the response may be used again later:
    /// not `no-store`, not `no-cache`, not `max-age=0`, and not older
    /// already than its `max-age`.
    pub fn is_cacheable(&self) -> bool {
        !lifetime(self, Duration::MAX).is_zero()
    }
}

/// A delta-seconds value (RFC 9111 §1.2.2): digits only; too many to
/// hold give the largest value.
fn delta_seconds(text: &str) -> Option<u64> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(text.parse().unwrap_or(u64::MAX))
}

/// The comma-separated directives of a `Cache-Control` value; a comma
/// inside a quoted string (with `\` escapes) separates nothing.
fn directives(value: &str) -> impl Iterator<Item = &str> {
    let mut rest = Some(value);
    std::iter::from_fn(move || {
        let text = rest?;
        let (mut quoted, mut escaped) = (false, false);
        for (i, b) in text.bytes().enumerate() {
            match b {
                _ if escaped => escaped = false,
                b'\\' if quoted => escaped = true,
                b'"' => quoted = !quoted,
                b',' if !quoted => {
                    rest = Some(&text[i + 1..]);
                    return Some(&text[..i]);
                }
                _ => {}
            }
        }
        rest = None;
        Some(text)
    })
}

/// A `Retry-After` header: a delay in seconds or an HTTP date (RFC 9110
/// §10.2.3).
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
#[non_exhaustive]
pub enum RetryAfter {
    /// `Retry-After: 120`.
    Delay(Duration),
    /// `Retry-After: Fri, 31 Dec 1999 23:59:59 GMT`.
    Date(SystemTime),
}

impl RetryAfter {
    /// Reads a header value: delta-seconds (digits only; too many to hold
    /// give the longest delay) or an HTTP date (IMF-fixdate, or the
    /// obsolete RFC 850 and asctime forms).
    ///
    /// # Example
    ///
    /// ```
    /// use std::time::{Duration, UNIX_EPOCH};
    /// use robotrules_fetch::policy::RetryAfter;
    ///
    /// assert_eq!(RetryAfter::parse("120"), Some(RetryAfter::Delay(Duration::from_secs(120))));
    /// let date = RetryAfter::parse("Thu, 01 Jan 1970 00:02:00 GMT").unwrap();
    /// assert_eq!(date.at(UNIX_EPOCH), UNIX_EPOCH + Duration::from_secs(120));
    /// assert_eq!(RetryAfter::parse("soon"), None);
    /// ```
    pub fn parse(value: &str) -> Option<RetryAfter> {
        let value = value.trim();
        if let Some(secs) = delta_seconds(value) {
            return Some(RetryAfter::Delay(Duration::from_secs(secs)));
        }
        httpdate::parse_http_date(value).ok().map(RetryAfter::Date)
    }

    /// When the site may be asked again, for a response received at
    /// `now`. A delay too long for a [`SystemTime`] saturates at the
    /// latest time it can hold: the longest wait, never "now".
    pub fn at(&self, now: SystemTime) -> SystemTime {
        match *self {
            RetryAfter::Delay(d) => saturating_add(now, d),
            RetryAfter::Date(t) => t,
        }
    }

    /// How long to wait from `now` (zero for a date in the past).
    pub fn delay(&self, now: SystemTime) -> Duration {
        self.at(now).duration_since(now).unwrap_or(Duration::ZERO)
    }
}

/// `t + d`, or the latest time a [`SystemTime`] holds if that overflows.
pub(crate) fn saturating_add(t: SystemTime, d: Duration) -> SystemTime {
    if let Some(sum) = t.checked_add(d) {
        return sum;
    }
    // The platform's limit is not exposed: approach it by halving steps.
    let (mut at, mut step) = (t, d);
    while !step.is_zero() {
        match at.checked_add(step) {
            Some(next) => at = next,
            None => step /= 2,
        }
    }
    at
}

/// How long a fetched robots.txt (or the news that there is none) is used:
/// `max` (24 hours by default), or what is left of `max-age` once the
/// response's `Age` is taken off, if shorter; zero for `no-store` and
/// `no-cache`.
///
/// # Example
///
/// ```
/// use std::time::Duration;
/// use robotrules_fetch::policy::{lifetime, CacheControl, DEFAULT_LIFETIME};
///
/// let short = CacheControl::parse(["max-age=60"]);
/// assert_eq!(lifetime(&short, DEFAULT_LIFETIME), Duration::from_secs(60));
/// let long = CacheControl::parse(["max-age=999999"]);
/// assert_eq!(lifetime(&long, DEFAULT_LIFETIME), DEFAULT_LIFETIME);
/// ```
pub fn lifetime(cache_control: &CacheControl, max: Duration) -> Duration {
    if cache_control.no_store || cache_control.no_cache {
        return Duration::ZERO;
    }
    let age = cache_control.age.unwrap_or(Duration::ZERO);
    cache_control
        .max_age
        .map_or(max, |max_age| max_age.saturating_sub(age).min(max))
}

/// HTTP's 304 Not Modified.
const NOT_MODIFIED: u16 = 304;

/// The outcome of a response to a request for the robots.txt of an
/// authority with `scheme`: the status code's class, with redirects the
/// downloader stopped at judged by the [`Redirects`] rules, and a body
/// parsed (already capped).
pub fn outcome(scheme: &str, response: &Response) -> Outcome {
    let status = response.status;
    if status == NOT_MODIFIED && scheme != "ftp" {
        return Outcome::Unreachable(Unreachable::Broken(
            "304 Not Modified, which has no body: it answers a conditional \
             request, and says to keep the copy that request revalidated \
             (judge that copy's response again)"
                .to_string(),
        ));
    }
    let class = if scheme == "ftp" {
        classify_ftp(status)
    } else {
        classify_http(status)
    };
    match class {
        StatusClass::Success => {
            Outcome::Available(Arc::new(Robots::parse(&response.body)))
        }
        StatusClass::Redirect => stopped_redirect(response),
        StatusClass::Unavailable => {
            Outcome::Unavailable(Unavailable::Status(status))
        }
        StatusClass::Unreachable => {
            Outcome::Unreachable(Unreachable::Status(status))
        }
    }
}

/// What a downloader that ended on a 3xx got: its target was visited
/// already, it had none, it was not `http(s)`, or the downloader stopped
/// after [`MAX_REDIRECTS`] redirects; a redirect it stopped at before
/// (one it did not follow) leaves the file unknown: unreachable.
fn stopped_redirect(response: &Response) -> Outcome {
    let not_followed = |to: &str| {
        Outcome::Unreachable(Unreachable::Broken(format!(
            "a redirect{to} that was not followed"
        )))
    };
    let Ok(seen) = response
        .hops
        .iter()
        .map(|h| {
            // As `Redirects::follow` keeps them: without a fragment.
            Url::parse(&h.url).map(|mut url| {
                url.set_fragment(None);
                url
            })
        })
        .collect::<Result<Vec<Url>, _>>()
    else {
        return Stop::NoLocation.outcome();
    };
    if seen.is_empty() {
        return not_followed("");
    }
    // The redirects taken, judged again with the one stopped at.
    let mut redirects = Redirects { seen, limit: MAX_REDIRECTS };
    match redirects.follow(response.location.as_deref()) {
        Ok(next) => not_followed(&format!(" to {next}")),
        Err(stop) => stop.outcome(),
    }
}

/// What an outcome means for crawlers.
#[derive(Clone, Copy, Debug, Eq, Hash, PartialEq)]
#[non_exhaustive]
pub enum Access {
    /// A robots.txt was fetched: obey its rules.
    Obey,
    /// There is no robots.txt: every URL may be fetched.
    AllowAll,
    /// The robots.txt could not be fetched: no URL may be fetched for now.
    DisallowAll,
}

impl Access {
    /// The name of the access: `obey`, `allow-all` or `disallow-all`.
    pub fn as_str(&self) -> &'static str {
        match self {
            Access::Obey => "obey",
            Access::AllowAll => "allow-all",
            Access::DisallowAll => "disallow-all",
        }
    }

    /// A sentence for people: `obey the rules`, `no robots.txt: every URL
    /// is allowed`, `unreachable: every URL is disallowed until a retry
    /// succeeds`.
    pub fn describe(&self) -> &'static str {
        match self {
            Access::Obey => "obey the rules",
            Access::AllowAll => "no robots.txt: every URL is allowed",
            Access::DisallowAll => {
                "unreachable: every URL is disallowed until a retry succeeds"
            }
        }
    }
}

/// What `outcome` means for crawlers: obey the fetched rules, allow
/// everything (unavailable) or disallow everything (unreachable).
///
/// > If a server status code indicates that the robots.txt file is
/// > unavailable to the crawler, then the crawler MAY access any resources
/// > on the server. — RFC 9309 §2.3.1.3
///
/// > If the robots.txt file is unreachable due to server or network
/// > errors, this means the robots.txt file is undefined and the crawler
/// > MUST assume complete disallow. — RFC 9309 §2.3.1.4
pub fn access(outcome: &Outcome) -> Access {
    match outcome {
        Outcome::Available(_) => Access::Obey,
        Outcome::Unavailable(_) => Access::AllowAll,
        Outcome::Unreachable(_) => Access::DisallowAll,
    }
}

/// Returns true if and only if `url` is the robots.txt itself, which is
/// always allowed: after WHATWG parsing (dot segments removed, `\` as `/`,
/// tabs and newlines dropped) its path is exactly `/robots.txt` and it has
/// no query. `/robots.txt?x=1` is another resource, judged by the rules.
///
/// > The /robots.txt URI is implicitly allowed. — RFC 9309 §2.2.2
///
/// # Example
///
/// ```
/// use robotrules_fetch::policy::is_exempt;
/// use url::Url;
///
/// assert!(is_exempt(&Url::parse("https://example.com/robots.txt")?));
/// assert!(is_exempt(&Url::parse("https://example.com/a/../robots.txt")?));
/// assert!(!is_exempt(&Url::parse("https://example.com/robots.txt?x=1")?));
/// assert!(!is_exempt(&Url::parse("https://example.com/ROBOTS.TXT")?));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn is_exempt(url: &Url) -> bool {
    url.path() == "/robots.txt" && url.query().is_none()
}

/// The text to match rules against for `url`: the path and query of the
/// URL that will actually be requested (WHATWG-normalised, so
/// `/a/../private`, `/%2e%2e/`, `\` and tabs cannot hide a path), in a
/// form the core matcher reads as a path. The fragment is not sent, so it
/// is not judged.
///
/// # Example
///
/// ```
/// use robotrules_fetch::policy::target;
/// use url::Url;
///
/// let url = Url::parse("http://h/a/%2E%2e/pri\tvate;x?q#f")?;
/// assert_eq!(robotrules::path_of(&target(&url)), "/private;x?q");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn target(url: &Url) -> Cow<'_, str> {
    let path = &url[url::Position::BeforePath..url::Position::AfterQuery];
    if path.starts_with('/') && !path.starts_with("//") {
        Cow::Borrowed(path)
    } else {
        // A path like `//private` would be read as an authority and
        // a path: give the matcher an authority of its own.
        Cow::Owned(format!("http://h{path}"))
    }
}

/// The times a cache works with. Build one with [`Timing::default`] and
/// the setters.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
#[must_use]
pub struct Timing {
    lifetime: Duration,
    retry: Duration,
    retry_503: Duration,
    unreachable_limit: Duration,
}

impl Default for Timing {
    fn default() -> Self {
        Timing {
            lifetime: DEFAULT_LIFETIME,
            retry: RETRY,
            retry_503: RETRY_503,
            unreachable_limit: UNREACHABLE_LIMIT,
        }
    }
}

impl Timing {
    /// How long a fetched file is used at most (default and maximum
    /// 24 h, [`DEFAULT_LIFETIME`]: a longer one is cut to 24 h);
    /// `Cache-Control: max-age` shortens it.
    ///
    /// > Crawlers SHOULD NOT use the cached version for more than 24
    /// > hours, unless the robots.txt file is unreachable.
    /// > — RFC 9309 §2.4
    pub fn lifetime(mut self, d: Duration) -> Self {
        self.lifetime = d.min(DEFAULT_LIFETIME);
        self
    }

    /// How long to wait before asking an unreachable site again (default
    /// 1 h), unless the server's `Retry-After` says otherwise (see
    /// [`Timing::retry_at`]).
    pub fn retry(mut self, d: Duration) -> Self {
        self.retry = d;
        self
    }

    /// The same after a 503 (default 5 min).
    pub fn retry_503(mut self, d: Duration) -> Self {
        self.retry_503 = d;
        self
    }

    /// After how long unreachable a site with no copy allows everything
    /// (default 30 days).
    pub fn unreachable_limit(mut self, d: Duration) -> Self {
        self.unreachable_limit = d;
        self
    }

    /// When to ask an unreachable site again, for a failure at `now`: at
    /// the server's `Retry-After`, honoured up to 24 hours
    /// ([`MAX_RETRY_AFTER`]; a longer one is cut to 24 hours, a shorter
    /// one kept, but never sooner than a second later, so that a date in
    /// the past cannot make every check a request); without one, after 5
    /// minutes for a 503, 1 hour otherwise.
    pub fn retry_at(
        &self,
        reason: &Unreachable,
        retry_after: Option<RetryAfter>,
        now: SystemTime,
    ) -> SystemTime {
        let base = if *reason == Unreachable::Status(503) {
            self.retry_503
        } else {
            self.retry
        };
        let wait = retry_after.map_or(base, |r| {
            let floor = Duration::from_secs(1);
            r.delay(now).clamp(floor, MAX_RETRY_AFTER)
        });
        saturating_add(now, wait)
    }
}

/// What a cache knows about one site, and what it means at a given time:
/// the state machine of RFC 9309 §2.4 and Google's rules.
///
/// - fresh: a fetched file, a 4xx, or a failure, until it expires;
/// - expired: fetch again;
/// - unreachable: everything disallowed until the retry time (5 minutes
///   after a 503, 1 hour otherwise, or `Retry-After` up to 24 hours);
/// - refresh failed with an earlier copy: that copy is used, marked stale;
/// - unreachable for over 30 days with no copy: everything allowed.
#[derive(Clone, Debug, Default)]
pub struct State {
    /// The rules from the last fetch, when it gave some.
    robots: Option<Arc<Robots>>,
    /// The last good copy that may be kept, for when refreshing fails.
    last_good: Option<Arc<Robots>>,
    /// The outcome in force when it is not `Available`.
    failure: Option<Outcome>,
    expires: Option<SystemTime>,
    unreachable_since: Option<SystemTime>,
    /// When the last fetch was made, and when it last failed to reach
    /// the site.
    fetched: Option<SystemTime>,
    failed: Option<SystemTime>,
    bytes: usize,
}

/// What a [`State`] means now.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum Standing<'a> {
    /// Obey these rules.
    Obey {
        /// The rules.
        robots: &'a Arc<Robots>,
        /// True if they come from a copy kept past its lifetime because
        /// refreshing it failed.
        stale: bool,
    },
    /// Every URL is allowed, or every URL is disallowed, for this reason.
    Fixed {
        /// True if and only if every URL is allowed.
        allowed: bool,
        /// Why.
        reason: Reason,
    },
}

impl State {
    /// Nothing known yet: not fresh.
    pub fn new() -> State {
        State::default()
    }

    /// Returns true if and only if the state may be used at `now` without
    /// fetching again.
    /// A clock set back before the fetch ends its freshness: the state
    /// is never used for longer than its lifetime.
    pub fn is_fresh(&self, now: SystemTime) -> bool {
        self.expires.is_some_and(|t| now < t)
            && self.fetched.is_none_or(|f| f <= now)
    }

    /// When the state expires, if anything was recorded.
    pub fn expires(&self) -> Option<SystemTime> {
        self.expires
    }

    /// The body bytes kept.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// Records a fetch made at `now`.
    pub fn record(&mut self, fetch: &Fetch, now: SystemTime, timing: &Timing) {
        let cc = fetch.cache_control;
        let previous_retry = self.expires;
        self.fetched = Some(now);
        match &fetch.outcome {
            Outcome::Available(robots) => {
                self.robots = Some(robots.clone());
                // `no-store`: use it for this request only, keep no copy
                // for later (its bytes count while it is held).
                self.last_good =
                    if cc.no_store { None } else { Some(robots.clone()) };
                self.failure = None;
                self.unreachable_since = None;
                self.failed = None;
                self.bytes = fetch.bytes_read;
                self.expires =
                    Some(saturating_add(now, lifetime(&cc, timing.lifetime)));
            }
            Outcome::Unavailable(_) => {
                self.robots = None;
                self.last_good = None;
                self.failure = Some(fetch.outcome.clone());
                self.unreachable_since = None;
                self.failed = None;
                self.bytes = 0;
                self.expires =
                    Some(saturating_add(now, lifetime(&cc, timing.lifetime)));
            }
            Outcome::Unreachable(reason) => {
                self.robots = None;
                self.failure = Some(fetch.outcome.clone());
                // Unreachable since the first of a run of failures, each
                // tried again within a lifetime of when the one before
                // allowed: a site not asked about for longer may have been
                // up meanwhile, and its run starts again.
                let continued = self.failed.is_some()
                    && previous_retry.is_some_and(|due| {
                        now <= saturating_add(due, timing.lifetime)
                    });
                if !continued {
                    self.unreachable_since = Some(now);
                }
                self.failed = Some(now);
                self.expires =
                    Some(timing.retry_at(reason, fetch.retry_after, now));
            }
        }
    }

    /// What the state means at `now`.
    pub fn standing(&self, now: SystemTime, timing: &Timing) -> Standing<'_> {
        if let Some(robots) = &self.robots {
            return Standing::Obey { robots, stale: false };
        }
        let fixed = |allowed, reason| Standing::Fixed { allowed, reason };
        match &self.failure {
            Some(Outcome::Unavailable(u)) => {
                fixed(true, Reason::Unavailable(*u))
            }
            Some(Outcome::Unreachable(reason)) => {
                if let Some(copy) = &self.last_good {
                    return Standing::Obey { robots: copy, stale: true };
                }
                let since = self.unreachable_since.unwrap_or(now);
                let long = now
                    .duration_since(since)
                    .is_ok_and(|d| d > timing.unreachable_limit);
                if long {
                    fixed(true, Reason::UnreachableTooLong)
                } else {
                    fixed(
                        false,
                        Reason::Unreachable {
                            reason: reason.clone(),
                            until: self.expires.unwrap_or(now),
                        },
                    )
                }
            }
            // Nothing fetched yet: nothing may be fetched either.
            _ => fixed(
                false,
                Reason::Unreachable {
                    reason: Unreachable::Timeout,
                    until: now,
                },
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Authority, Hop};
    use std::time::UNIX_EPOCH;

    fn url(s: &str) -> Url {
        Url::parse(s).unwrap()
    }

    fn fetch(response: Response) -> Fetch {
        Fetch::new(&Authority::of("http://h/").unwrap(), Ok(response))
    }

    fn at(secs: u64) -> SystemTime {
        UNIX_EPOCH + Duration::from_secs(secs)
    }

    macro_rules! http {
        ($status:expr, $class:ident) => {
            assert_eq!(
                classify_http($status),
                StatusClass::$class,
                "{}",
                $status
            )
        };
    }

    #[test]
    fn http_classes() {
        http!(200, Success);
        http!(204, Success);
        http!(299, Success);
        http!(301, Redirect);
        http!(308, Redirect);
        http!(400, Unavailable);
        http!(401, Unavailable);
        http!(403, Unavailable);
        http!(404, Unavailable);
        http!(410, Unavailable);
        http!(429, Unreachable);
        http!(500, Unreachable);
        http!(503, Unreachable);
        http!(599, Unreachable);
        http!(600, Unreachable);
        http!(100, Unreachable);
        http!(304, Unreachable);
    }

    #[test]
    fn not_modified_is_no_redirect() {
        // With a `Location` or without: the copy it keeps fresh is the
        // client's, so nothing here is a robots.txt, and it is said why.
        let response = Response::new(304, Vec::new())
            .header("Location", "http://h/elsewhere.txt");
        let f = fetch(response);
        match &f.outcome {
            Outcome::Unreachable(Unreachable::Broken(why)) => {
                assert!(why.starts_with("304 Not Modified"), "{why}");
                assert!(why.contains("conditional request"), "{why}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn ftp_classes() {
        assert_eq!(classify_ftp(226), StatusClass::Success);
        assert_eq!(classify_ftp(550), StatusClass::Unavailable);
        assert_eq!(classify_ftp(450), StatusClass::Unreachable);
        assert_eq!(classify_ftp(502), StatusClass::Unreachable);
        assert_eq!(classify_ftp(551), StatusClass::Unreachable);
        assert_eq!(classify_ftp(501), StatusClass::Unreachable);
        assert_eq!(classify_ftp(421), StatusClass::Unreachable);
    }

    #[test]
    fn five_redirects_then_stop() {
        let mut r = Redirects::new(url("http://a/robots.txt"));
        for n in 1..=5 {
            let next = r.follow(Some(&format!("/hop/{n}"))).unwrap();
            assert_eq!(next.path(), format!("/hop/{n}"));
        }
        assert_eq!(r.count(), 5);
        assert_eq!(r.follow(Some("/hop/6")), Err(Stop::TooMany));
    }

    #[test]
    fn redirect_checks() {
        let mut r = Redirects::new(url("http://a/robots.txt"));
        assert_eq!(r.follow(None), Err(Stop::NoLocation));
        // Empty or blank: as missing, not a redirect to the same URL.
        assert_eq!(r.follow(Some("")), Err(Stop::NoLocation));
        assert_eq!(r.follow(Some(" \t ")), Err(Stop::NoLocation));
        assert_eq!(r.follow(Some("http://[::")), Err(Stop::NoLocation));
        assert_eq!(
            r.follow(Some("ftp://b/robots.txt")),
            Err(Stop::Scheme("ftp://b/robots.txt".into()))
        );
        assert_eq!(r.follow(Some("/robots.txt")), Err(Stop::Loop));
        let next = r.follow(Some("https://b.example/x")).unwrap();
        assert_eq!(r.current(), &next);
        assert_eq!(r.follow(Some("http://a/robots.txt")), Err(Stop::Loop));
        // A fragment is not sent: the URL requested has none, and the same
        // URL with another fragment is the same request.
        let next = r.follow(Some("/y#part")).unwrap();
        assert_eq!(next.as_str(), "https://b.example/y");
        assert_eq!(r.follow(Some("/x#other")), Err(Stop::Loop));
        assert!(matches!(
            Stop::Loop.outcome(),
            Outcome::Unavailable(Unavailable::RedirectLoop)
        ));
        assert!(matches!(
            Stop::NoLocation.outcome(),
            Outcome::Unreachable(Unreachable::Broken(_))
        ));
        assert_eq!(
            Redirects::with_limit(url("http://a/"), 0).follow(Some("/b")),
            Err(Stop::TooMany)
        );
    }

    #[test]
    fn body_cap() {
        let mut body = Vec::new();
        assert!(!take(&mut body, &[1; 10], 10));
        assert!(!take(&mut body, &[], 10));
        assert!(take(&mut body, &[2], 10));
        assert_eq!(body.len(), 10);
        assert_eq!(MAX_BODY, 500 * 1024);
    }

    #[test]
    fn cache_control() {
        let cc = CacheControl::parse(["max-age=10, NO-STORE"]);
        assert_eq!(cc.max_age, Some(Duration::from_secs(10)));
        assert!(cc.no_store && !cc.is_cacheable());
        assert!(!CacheControl::parse(["max-age=0"]).is_cacheable());
        assert!(!CacheControl::parse(["no-cache"]).is_cacheable());
        assert!(CacheControl::parse(["max-age=1"]).is_cacheable());
        assert!(CacheControl::parse(["max-age=x"]).is_cacheable());
        assert_eq!(CacheControl::parse(["max-age=x"]).max_age, None);
        // delta-seconds: digits only, quoted whole or not at all.
        let secs =
            |v: &str| CacheControl::parse([v]).max_age.map(|d| d.as_secs());
        assert_eq!(secs("max-age=\"60\""), Some(60));
        for bad in ["max-age=+5", "max-age=-1", "max-age=\"60", "max-age=6 0"]
        {
            assert_eq!(secs(bad), None, "{bad}");
        }
        // An invalid one does not hide a valid one after it.
        assert_eq!(secs("max-age=+5, max-age=7"), Some(7));
        assert_eq!(secs("max-age=99999999999999999999999"), Some(u64::MAX));
        assert_eq!(
            lifetime(
                &CacheControl::parse(["max-age=99999999999999999999999"]),
                DEFAULT_LIFETIME
            ),
            DEFAULT_LIFETIME
        );
        assert_eq!(
            lifetime(&CacheControl::parse([]), DEFAULT_LIFETIME),
            DEFAULT_LIFETIME
        );
        assert_eq!(
            lifetime(&CacheControl::parse(["max-age=5"]), DEFAULT_LIFETIME),
            Duration::from_secs(5)
        );
        assert_eq!(
            lifetime(
                &CacheControl::parse(["max-age=5, no-cache"]),
                DEFAULT_LIFETIME
            ),
            Duration::ZERO
        );
    }

    #[test]
    fn age_counts_against_max_age() {
        let with = |cc: &str, age: &str| {
            let cc = CacheControl::parse([cc]).with_age(Some(age));
            (cc.age.map(|a| a.as_secs()), lifetime(&cc, DEFAULT_LIFETIME))
        };
        let secs = Duration::from_secs;
        assert_eq!(with("max-age=600", "100"), (Some(100), secs(500)));
        assert_eq!(with("max-age=600", " 100 , 7"), (Some(100), secs(500)));
        assert_eq!(with("max-age=600", "600"), (Some(600), Duration::ZERO));
        assert_eq!(with("max-age=600", "9000"), (Some(9000), Duration::ZERO));
        // Not delta-seconds: ignored.
        for bad in ["", "-5", "+5", "1.5", "x", "5s"] {
            assert_eq!(with("max-age=600", bad), (None, secs(600)), "{bad:?}");
        }
        // Too large to hold: the largest value.
        let huge = with("max-age=600", "99999999999999999999999");
        assert_eq!(huge, (Some(u64::MAX), Duration::ZERO));
        // Without max-age the day of RFC 9309 counts from the fetch.
        assert_eq!(with("public", "100"), (Some(100), DEFAULT_LIFETIME));
        // What is left of a long max-age is still capped at the day.
        let day = DEFAULT_LIFETIME.as_secs();
        let cc = format!("max-age={}", 3 * day);
        assert_eq!(with(&cc, "3600"), (Some(3600), DEFAULT_LIFETIME));
        let cc = format!("max-age={}", day + 600);
        assert_eq!(with(&cc, "3600"), (Some(3600), secs(day - 3000)));
        let ok = |cc: &str, age| {
            CacheControl::parse([cc]).with_age(age).is_cacheable()
        };
        assert!(ok("max-age=600", Some("599")));
        assert!(!ok("max-age=600", Some("600")));
        assert!(ok("max-age=600", None));
        assert!(ok("public", Some("99999")));
        assert!(!ok("no-store", None));
    }

    #[test]
    fn retry_after_forms() {
        let now = at(1_000);
        assert_eq!(RetryAfter::parse(" 30 ").unwrap().at(now), at(1_030));
        // IMF-fixdate, RFC 850 and asctime.
        for date in [
            "Thu, 01 Jan 1970 00:20:00 GMT",
            "Thursday, 01-Jan-70 00:20:00 GMT",
            "Thu Jan  1 00:20:00 1970",
        ] {
            let r = RetryAfter::parse(date).expect(date);
            assert_eq!(r.at(now), at(1_200), "{date}");
            assert_eq!(r.delay(now), Duration::from_secs(200));
        }
        let past = RetryAfter::parse("Thu, 01 Jan 1970 00:00:01 GMT");
        assert_eq!(past.unwrap().delay(now), Duration::ZERO);
        assert_eq!(RetryAfter::parse("-5"), None);
        assert_eq!(RetryAfter::parse("+30"), None);
        assert_eq!(RetryAfter::parse(""), None);
        // Too long to hold: the longest wait, which the timing cuts to a
        // day.
        let huge = RetryAfter::parse("18446744073709551616").unwrap();
        assert_eq!(huge, RetryAfter::Delay(Duration::from_secs(u64::MAX)));
        let reason = Unreachable::Status(503);
        let when = Timing::default().retry_at(&reason, Some(huge), now);
        assert_eq!(when, saturating_add(now, MAX_RETRY_AFTER));
    }

    #[test]
    fn a_lifetime_is_a_day_at_most() {
        let week = Duration::from_secs(7 * 24 * 3600);
        assert_eq!(
            Timing::default().lifetime(week).lifetime,
            DEFAULT_LIFETIME
        );
        let hour = Duration::from_secs(3600);
        assert_eq!(Timing::default().lifetime(hour).lifetime, hour);
    }

    #[test]
    fn outcomes() {
        let f =
            fetch(Response::new(200, b"user-agent: *\ndisallow: /".to_vec()));
        assert_eq!(access(&f.outcome), Access::Obey);
        assert_eq!(
            access(&fetch(Response::new(404, vec![])).outcome),
            Access::AllowAll
        );
        assert_eq!(
            access(&fetch(Response::new(429, vec![])).outcome),
            Access::DisallowAll
        );
        let ftp = Authority::of("ftp://h/").unwrap();
        let f = Fetch::new(&ftp, Ok(Response::new(550, vec![])));
        assert_eq!(access(&f.outcome), Access::AllowAll);
        // A downloader that stopped on a 3xx: a loop, its limit of five
        // redirects, or short of it (a redirect it did not follow: the
        // file is unknown).
        let looped = Response::new(302, vec![])
            .header("Location", "/robots.txt")
            .hops(vec![Hop::new("http://h/robots.txt", Some(302))]);
        assert!(matches!(
            fetch(looped).outcome,
            Outcome::Unavailable(Unavailable::RedirectLoop)
        ));
        // A fragment is never requested: back to a URL taken, with one
        // (or from one a downloader recorded with one), is a loop.
        let looped = Response::new(302, vec![])
            .header("Location", "/robots.txt")
            .hops(vec![
                Hop::new("http://h/robots.txt#top", Some(302)),
                Hop::new("http://h/b", Some(302)),
            ]);
        assert!(matches!(
            fetch(looped).outcome,
            Outcome::Unavailable(Unavailable::RedirectLoop)
        ));
        let looped = Response::new(302, vec![])
            .header("Location", "/robots.txt#frag")
            .hops(vec![
                Hop::new("http://h/robots.txt", Some(302)),
                Hop::new("http://h/b", Some(302)),
            ]);
        assert!(matches!(
            fetch(looped).outcome,
            Outcome::Unavailable(Unavailable::RedirectLoop)
        ));
        let hops = |n: usize| {
            (0..n)
                .map(|i| Hop::new(format!("http://h/{i}"), Some(302)))
                .collect::<Vec<_>>()
        };
        let limit = Response::new(302, vec![])
            .header("location", "/next")
            .hops(hops(MAX_REDIRECTS + 1));
        assert!(matches!(
            fetch(limit).outcome,
            Outcome::Unavailable(Unavailable::TooManyRedirects)
        ));
        for n in [0, 1, MAX_REDIRECTS] {
            let short = Response::new(302, vec![])
                .header("location", "https://www.h/robots.txt")
                .hops(hops(n));
            match fetch(short).outcome {
                Outcome::Unreachable(Unreachable::Broken(why)) => {
                    assert!(why.contains("not followed"), "{n} {why}")
                }
                other => panic!("{n} {other:?}"),
            }
        }
        assert!(matches!(
            fetch(Response::new(301, vec![])).outcome,
            Outcome::Unreachable(Unreachable::Broken(_))
        ));
        for blank in ["", "  "] {
            let r = Response::new(302, vec![])
                .header("location", blank)
                .hops(vec![Hop::new("http://h/robots.txt", Some(302))]);
            assert!(
                matches!(
                    fetch(r).outcome,
                    Outcome::Unreachable(Unreachable::Broken(_))
                ),
                "{blank:?}"
            );
        }
    }

    #[test]
    fn exemption() {
        for yes in [
            "http://h/robots.txt",
            "http://h/a/../robots.txt",
            "http://h/./robots.txt",
            "http://h/%2e/robots.txt",
            "http://h/robots.txt#frag",
            "http://h\\robots.txt",
            "http://h/robots\t.txt",
            "HTTP://H:80/robots.txt",
        ] {
            assert!(is_exempt(&url(yes)), "{yes}");
        }
        for no in [
            "http://h/robots.txt?x=1",
            "http://h/robots.txt?",
            "http://h/robots.txt/",
            "http://h/Robots.txt",
            "http://h/robots.txt;x",
            "http://h/a/robots.txt",
            "http://h//robots.txt",
            "http://h/robots%2etxt",
        ] {
            assert!(!is_exempt(&url(no)), "{no}");
        }
    }

    macro_rules! judged {
        ($url:expr, $path:expr) => {
            assert_eq!(
                robotrules::path_of(&target(&url($url))),
                $path,
                "{}",
                $url
            )
        };
    }

    #[test]
    fn targets() {
        judged!("http://h/a/../private/x", "/private/x");
        judged!("http://h/./private/x", "/private/x");
        judged!("http://h\\private/x", "/private/x");
        judged!("http://h/x/%2e%2e/private/y", "/private/y");
        judged!("http://h/x/%2E%2E/private/y", "/private/y");
        judged!("http://h/x/.%2e/private/y", "/private/y");
        judged!("http://h/%2E/private", "/private");
        judged!("http://h/pri\tvate/x", "/private/x");
        judged!("http://h/pri\nvate/x", "/private/x");
        judged!("http://h//private/x", "//private/x");
        judged!("http://h/private;p=1?q", "/private;p=1?q");
        judged!("http://h", "/");
        judged!("http://h?q", "/?q");
        judged!("http://h/p#frag", "/p");
        judged!("http://u:p@h:81/p?a#b", "/p?a");
    }

    fn state_after(responses: &[(u64, Response)]) -> State {
        let mut state = State::new();
        for (t, r) in responses {
            state.record(&fetch(r.clone()), at(*t), &Timing::default());
        }
        state
    }

    fn ok() -> Response {
        Response::new(200, b"user-agent: *\ndisallow: /p".to_vec())
    }

    #[test]
    fn state_fresh_then_expired() {
        let t = Timing::default();
        let s = state_after(&[(0, ok())]);
        assert!(s.is_fresh(at(86_399)) && !s.is_fresh(at(86_400)));
        assert!(matches!(
            s.standing(at(1), &t),
            Standing::Obey { stale: false, .. }
        ));
        let s =
            state_after(&[(0, ok().header("cache-control", "max-age=60"))]);
        assert!(s.is_fresh(at(59)) && !s.is_fresh(at(60)));
        let s = state_after(&[(0, ok().header("cache-control", "no-store"))]);
        assert!(!s.is_fresh(at(0)));
        // Held until the next fetch, so counted.
        assert_eq!(s.bytes(), ok().body.len());
        assert!(!State::new().is_fresh(at(0)));
        // A clock set back before the fetch: not fresh.
        let s = state_after(&[(1_000, ok())]);
        assert!(s.is_fresh(at(1_000)) && !s.is_fresh(at(999)));
    }

    #[test]
    fn state_unreachable_retry_times() {
        let t = Timing::default();
        let s = state_after(&[(0, Response::new(503, vec![]))]);
        assert_eq!(s.expires(), Some(at(300)));
        match s.standing(at(10), &t) {
            Standing::Fixed { allowed: false, reason } => assert_eq!(
                reason,
                Reason::Unreachable {
                    reason: Unreachable::Status(503),
                    until: at(300)
                }
            ),
            other => panic!("{other:?}"),
        }
        let s = state_after(&[(0, Response::new(500, vec![]))]);
        assert_eq!(s.expires(), Some(at(3600)));
        let s = state_after(&[(
            0,
            Response::new(500, vec![]).header("retry-after", "120"),
        )]);
        assert_eq!(s.expires(), Some(at(120)));
        let s = state_after(&[(
            0,
            Response::new(500, vec![])
                .header("retry-after", "Thu, 01 Jan 1970 00:10:00 GMT"),
        )]);
        assert_eq!(s.expires(), Some(at(600)));
        // A date in the past: a second, not at once.
        let s = state_after(&[(
            5,
            Response::new(500, vec![])
                .header("retry-after", "Thu, 01 Jan 1970 00:00:01 GMT"),
        )]);
        assert_eq!(s.expires(), Some(at(6)));
        // Longer than the usual retry: honoured, up to 24 hours.
        for (value, expires) in [
            ("7200", 7200),
            ("86399", 86_399),
            ("86400", 86_400),
            ("99999", 86_400),
            ("999999999999", 86_400),
            ("Fri, 31 Dec 9999 23:59:59 GMT", 86_400),
        ] {
            let s = state_after(&[(
                0,
                Response::new(503, vec![]).header("retry-after", value),
            )]);
            assert_eq!(s.expires(), Some(at(expires)), "{value}");
        }
    }

    #[test]
    fn overflowing_delays_saturate() {
        let now = at(1_000);
        let huge = RetryAfter::Delay(Duration::MAX);
        assert!(huge.at(now) > at(1 << 40), "{:?}", huge.at(now));
        assert!(huge.delay(now) > Duration::from_secs(1 << 40));
        assert_eq!(
            Timing::default().retry_at(
                &Unreachable::Status(503),
                Some(huge),
                now
            ),
            now + MAX_RETRY_AFTER
        );
        // At the limit already: it stays there, never before `now`.
        let end = saturating_add(now, Duration::MAX);
        assert_eq!(saturating_add(end, Duration::from_secs(1)), end);
        assert_eq!(RetryAfter::Delay(Duration::from_secs(5)).at(end), end);
    }

    #[test]
    fn cut_lines_are_dropped() {
        let cut = |body: &[u8]| {
            let mut body = body.to_vec();
            drop_partial_line(&mut body);
            body
        };
        assert_eq!(cut(b"a\nAllow: /private/p"), b"a\n");
        assert_eq!(cut(b"a\r\nb"), b"a\r\n");
        assert_eq!(cut(b"a\rb"), b"a\r");
        assert_eq!(cut(b"a\r"), b"a\r");
        assert_eq!(cut(b"a\n\n"), b"a\n\n");
        assert_eq!(cut(b"no line break"), b"");
        assert_eq!(cut(b""), b"");
        // Fetch::new applies it to cut bodies only.
        let f = fetch(
            Response::new(200, b"Disallow: /x\nAllow: /private/p".to_vec())
                .truncated(true),
        );
        assert_eq!(f.body, b"Disallow: /x\n");
        assert_eq!(f.bytes_read, 30);
        let f = fetch(Response::new(200, b"Disallow: /x\nAllow: /p".to_vec()));
        assert_eq!(f.body, b"Disallow: /x\nAllow: /p");
    }

    #[test]
    fn a_line_that_ends_at_the_cap_is_read() {
        // `Disallow: /x` ends at byte MAX_BODY, its line break just past
        // the cap: every byte of it is read. One byte longer, it is not.
        for (end, rule) in [(0, "Disallow: /x"), (1, "Disallow: /xy")] {
            for line_break in ["\n", "\r\n", "\r"] {
                let mut body = b"User-agent: *\n".to_vec();
                body.resize(MAX_BODY - 13, b'#');
                body.push(b'\n');
                body.extend_from_slice(rule.as_bytes());
                body.extend_from_slice(line_break.as_bytes());
                body.extend_from_slice(b"Disallow: /z\n");
                let f = fetch(Response::new(200, body.clone()));
                assert!(f.truncated);
                assert_eq!(f.bytes_read, MAX_BODY);
                let Outcome::Available(robots) = &f.outcome else {
                    panic!("{:?}", f.outcome)
                };
                assert_eq!(robots.is_allowed("a", "/xy"), end == 1);
                assert!(robots.is_allowed("a", "/z"));
                let kept = if end == 0 { MAX_BODY + 1 } else { MAX_BODY - 12 };
                assert_eq!(f.body, body[..kept]);
                // The same through `cut`, as readers use it.
                let mut read = body[..=MAX_BODY].to_vec();
                assert!(cut(&mut read, MAX_BODY));
                drop_partial_line(&mut read);
                assert_eq!(read, f.body);
            }
        }
        // Cut at the cap by the downloader, the byte past it unknown:
        // the last line is not read unless it ends with a line break.
        let mut body = b"User-agent: *\n".to_vec();
        body.resize(MAX_BODY - 13, b'#');
        body.push(b'\n');
        body.extend_from_slice(b"Disallow: /x");
        let f = fetch(Response::new(200, body).truncated(true));
        assert_eq!(f.body.len(), MAX_BODY - 12);
    }

    #[test]
    fn locations() {
        assert_eq!(location(b"/a b?c=d#e"), "/a b?c=d#e");
        assert_eq!(location("/robóts.txt".as_bytes()), "/rob%C3%B3ts.txt");
        assert_eq!(location(b"/\xe9\xff"), "/%E9%FF");
        let mut r = Redirects::new(url("http://a/robots.txt"));
        let next = r.follow(Some(&location(b"/caf\xc3\xa9"))).unwrap();
        assert_eq!(next.as_str(), "http://a/caf%C3%A9");
    }

    #[test]
    fn state_stale_copy_and_thirty_days() {
        let t = Timing::default();
        let day = 86_400;
        let s =
            state_after(&[(0, ok()), (2 * day, Response::new(500, vec![]))]);
        assert!(matches!(
            s.standing(at(50 * day), &t),
            Standing::Obey { stale: true, .. }
        ));
        let down = || Response::new(500, vec![]);
        let s = state_after(&[(0, down()), (29 * day, down())]);
        assert!(matches!(
            s.standing(at(29 * day), &t),
            Standing::Fixed { allowed: false, .. }
        ));
        // Tried again every hour for 31 days: unreachable all along.
        let hourly: Vec<(u64, Response)> =
            (0..=31 * 24).map(|h| (h * 3_600, down())).collect();
        let s = state_after(&hourly);
        match s.standing(at(31 * day), &t) {
            Standing::Fixed { allowed: true, reason } => {
                assert_eq!(reason, Reason::UnreachableTooLong)
            }
            other => panic!("{other:?}"),
        }
        // Two failures 31 days apart say nothing of the days between.
        let s = state_after(&[(0, down()), (31 * day, down())]);
        assert!(matches!(
            s.standing(at(31 * day), &t),
            Standing::Fixed { allowed: false, .. }
        ));
        // Nor does a gap in a run: it starts again.
        let mut gap: Vec<(u64, Response)> =
            (0..=20 * 24).map(|h| (h * 3_600, down())).collect();
        gap.extend((25 * 24..=35 * 24).map(|h| (h * 3_600, down())));
        let s = state_after(&gap);
        assert!(matches!(
            s.standing(at(35 * day), &t),
            Standing::Fixed { allowed: false, .. }
        ));
        // A 404 drops the copy: a later failure has none to fall back on.
        let s = state_after(&[
            (0, ok()),
            (day, Response::new(404, vec![])),
            (3 * day, down()),
        ]);
        assert!(matches!(
            s.standing(at(3 * day), &t),
            Standing::Fixed { allowed: false, .. }
        ));
        let s = state_after(&[(0, Response::new(404, vec![]))]);
        assert!(matches!(
            s.standing(at(0), &t),
            Standing::Fixed { allowed: true, reason: Reason::Unavailable(_) }
        ));
    }
}
