//! Directives beyond Google's four fields, parsed into typed values
//! (RFC 9309 §2.2.4). They never change an allow or disallow verdict.

use alloc::vec::Vec;
use core::fmt;

use crate::directive::UnknownDirective;
use crate::keys;

/// Which extension a directive is.
#[derive(Clone, Copy, Debug, Eq, Hash, PartialEq)]
#[non_exhaustive]
pub enum ExtensionKind {
    /// `crawl-delay`: seconds to wait between requests.
    CrawlDelay,
    /// `request-rate`: requests per period.
    RequestRate,
    /// `visit-time`: the hours (UTC) in which to crawl.
    VisitTime,
    /// `host`: the preferred host (Yandex).
    Host,
    /// `clean-param`: query parameters that do not change the page (Yandex).
    CleanParam,
    /// `content-signal`: what the content may be used for.
    ContentSignal,
    /// `noindex`: paths not to index (no longer honoured by Google).
    Noindex,
}

impl ExtensionKind {
    /// The directive's key, in lower case.
    pub fn key(self) -> &'static str {
        keys::EXTENSIONS
            .iter()
            .find(|(kind, _)| *kind == self)
            .map_or("", |(_, key)| key)
    }

    /// The kind for a key, compared without regard to ASCII case.
    pub fn from_key(key: &[u8]) -> Option<ExtensionKind> {
        keys::EXTENSIONS
            .iter()
            .find(|(_, name)| key.eq_ignore_ascii_case(name.as_bytes()))
            .map(|(kind, _)| *kind)
    }
}

/// A request rate: `requests` per `seconds`, optionally only in a window.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RequestRate {
    /// How many requests.
    pub requests: u32,
    /// Per how many seconds.
    pub seconds: u32,
    /// The hours in which the rate applies, if given.
    pub window: Option<VisitTime>,
}

/// A daily time window, in UTC: minutes since midnight.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub struct VisitTime {
    /// Start, in minutes after midnight UTC.
    pub start: u16,
    /// End, in minutes after midnight UTC.
    pub end: u16,
}

/// A `clean-param` value: parameters, and the path prefix they apply to.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct CleanParam<'a> {
    /// The parameter names, as written between `&`.
    pub params: Vec<&'a str>,
    /// The path prefix (`/` and `*` allowed), if given.
    pub path: Option<&'a str>,
}

/// A parsed extension value.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum ExtensionValue<'a> {
    /// Seconds, possibly fractional.
    CrawlDelay(f64),
    /// Requests per period.
    RequestRate(RequestRate),
    /// A time window.
    VisitTime(VisitTime),
    /// A host, possibly with `http://` or `https://` and a port.
    Host(&'a str),
    /// Parameters to ignore.
    CleanParam(CleanParam<'a>),
    /// Signals such as `search=yes`, `ai-train=no`.
    ContentSignal(Vec<(&'a str, bool)>),
    /// A path pattern.
    Noindex(&'a str),
}

/// Why an extension's value is invalid.
#[derive(Clone, Copy, Debug, Eq, Hash, PartialEq)]
#[non_exhaustive]
pub enum ExtensionErrorKind {
    /// The value is empty.
    Empty,
    /// The value is not UTF-8.
    NotUtf8,
    /// Not a finite, non-negative number of seconds.
    BadDelay,
    /// Not `requests/period` with an optional unit (`s`, `m`, `h`, `d`).
    BadRate,
    /// Not a `HHMM-HHMM` window.
    BadTime,
    /// Not a host name, with an optional scheme and port.
    BadHost,
    /// Not `param[&param…] [path]`.
    BadCleanParam,
    /// Not `name=yes|no[, name=yes|no…]`.
    BadContentSignal,
    /// Not a path pattern starting with `/` or `*`.
    BadPattern,
}

/// An extension whose value could not be parsed.
///
/// # Example
///
/// ```
/// use robotrules::{ExtensionErrorKind, Robots};
///
/// let robots = Robots::parse(b"user-agent: *\ncrawl-delay: soon\n");
/// let ext = robots.extensions().next().unwrap();
/// let err = ext.value().unwrap_err();
/// assert_eq!(err.kind(), ExtensionErrorKind::BadDelay);
/// assert_eq!(err.to_string(), "crawl-delay must be a number of seconds, such as 10 or 0.5");
/// ```
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub struct ExtensionError {
    kind: ExtensionErrorKind,
    extension: ExtensionKind,
}

impl ExtensionError {
    /// What is wrong.
    pub fn kind(&self) -> ExtensionErrorKind {
        self.kind
    }
}

impl fmt::Display for ExtensionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let key = self.extension.key();
        match self.kind {
            ExtensionErrorKind::Empty => write!(f, "{key} has no value"),
            ExtensionErrorKind::NotUtf8 => {
                write!(f, "{key} value is not UTF-8")
            }
            ExtensionErrorKind::BadDelay => {
                write!(
                    f,
                    "{key} must be a number of seconds, such as 10 or 0.5"
                )
            }
            ExtensionErrorKind::BadRate => {
                write!(
                    f,
                    "{key} must be requests/period, such as 1/10s or 30/1m"
                )
            }
            ExtensionErrorKind::BadTime => {
                write!(f, "{key} must be a UTC window such as 0600-0845")
            }
            ExtensionErrorKind::BadHost => {
                write!(f, "{key} must be a host name, such as example.com")
            }
            ExtensionErrorKind::BadCleanParam => {
                write!(f, "{key} must be param[&param...] [path], such as ref&utm_source /catalog/")
            }
            ExtensionErrorKind::BadContentSignal => {
                write!(f, "{key} must be name=yes|no pairs, such as search=yes, ai-train=no")
            }
            ExtensionErrorKind::BadPattern => {
                write!(f, "{key} must be a path starting with / or *")
            }
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for ExtensionError {}

/// The first valid crawl delay and request rate of some lines, in file
/// order: what a crawler is told to pace itself by.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Pacing {
    pub(crate) delay: Option<f64>,
    pub(crate) rate: Option<RequestRate>,
}

impl Pacing {
    /// Takes the crawl delay or request rate of a directive, from its key
    /// and value as written, if it is valid and the first of its kind.
    pub(crate) fn take(&mut self, key: &[u8], written: &[u8]) {
        if self.delay.is_some() && self.rate.is_some() {
            return;
        }
        let Ok(text) = core::str::from_utf8(written) else { return };
        match ExtensionKind::from_key(key) {
            Some(ExtensionKind::CrawlDelay) if self.delay.is_none() => {
                self.delay = parse_delay(text);
            }
            Some(ExtensionKind::RequestRate) if self.rate.is_none() => {
                self.rate = parse_rate(text);
            }
            _ => {}
        }
    }

    /// Takes what `later` has that this has not.
    pub(crate) fn or(&mut self, later: Pacing) {
        self.delay = self.delay.or(later.delay);
        self.rate = self.rate.or(later.rate);
    }
}

/// A directive of one of the [`ExtensionKind`]s, with its parsed value.
#[derive(Clone, Copy)]
pub struct Extension<'a> {
    kind: ExtensionKind,
    directive: UnknownDirective<'a>,
}

impl<'a> Extension<'a> {
    pub(crate) fn from_directive(
        directive: UnknownDirective<'a>,
    ) -> Option<Extension<'a>> {
        let kind = ExtensionKind::from_key(directive.key())?;
        Some(Extension { kind, directive })
    }

    /// Which extension this is.
    pub fn kind(&self) -> ExtensionKind {
        self.kind
    }

    /// The line number.
    pub fn line(&self) -> u32 {
        self.directive.line()
    }

    /// The value as written.
    pub fn as_written(&self) -> &'a [u8] {
        self.directive.as_written()
    }

    /// The parsed value, or why it is invalid.
    pub fn value(&self) -> Result<ExtensionValue<'a>, ExtensionError> {
        let err = |kind| ExtensionError { kind, extension: self.kind };
        let raw = self.as_written();
        let text = core::str::from_utf8(raw)
            .map_err(|_| err(ExtensionErrorKind::NotUtf8))?;
        if text.is_empty() {
            return Err(err(ExtensionErrorKind::Empty));
        }
        let bad = match self.kind {
            ExtensionKind::CrawlDelay => ExtensionErrorKind::BadDelay,
            ExtensionKind::RequestRate => ExtensionErrorKind::BadRate,
            ExtensionKind::VisitTime => ExtensionErrorKind::BadTime,
            ExtensionKind::Host => ExtensionErrorKind::BadHost,
            ExtensionKind::CleanParam => ExtensionErrorKind::BadCleanParam,
            ExtensionKind::ContentSignal => {
                ExtensionErrorKind::BadContentSignal
            }
            ExtensionKind::Noindex => ExtensionErrorKind::BadPattern,
        };
        let value = match self.kind {
            ExtensionKind::CrawlDelay => {
                parse_delay(text).map(ExtensionValue::CrawlDelay)
            }
            ExtensionKind::RequestRate => {
                parse_rate(text).map(ExtensionValue::RequestRate)
            }
            ExtensionKind::VisitTime => {
                parse_window(text).map(ExtensionValue::VisitTime)
            }
            ExtensionKind::Host => {
                is_host(text).then_some(ExtensionValue::Host(text))
            }
            ExtensionKind::CleanParam => {
                parse_clean_param(text).map(ExtensionValue::CleanParam)
            }
            ExtensionKind::ContentSignal => {
                parse_signals(text).map(ExtensionValue::ContentSignal)
            }
            ExtensionKind::Noindex => {
                matches!(text.as_bytes()[0], b'/' | b'*')
                    .then_some(ExtensionValue::Noindex(text))
            }
        };
        value.ok_or(err(bad))
    }
}

impl fmt::Debug for Extension<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Extension")
            .field("line", &self.line())
            .field("kind", &self.kind)
            .field("value", &self.value())
            .finish()
    }
}

fn parse_delay(text: &str) -> Option<f64> {
    let ok = !text.is_empty()
        && text.bytes().all(|b| b.is_ascii_digit() || b == b'.');
    let n: f64 = if ok { text.parse().ok()? } else { return None };
    (n.is_finite() && n >= 0.0).then_some(n)
}

/// `n/period[unit] [HHMM-HHMM]`, unit one of s, m, h, d (seconds if none).
fn parse_rate(text: &str) -> Option<RequestRate> {
    let mut words = text.split_ascii_whitespace();
    let rate = words.next()?;
    let window = match words.next() {
        Some(w) => Some(parse_window(w)?),
        None => None,
    };
    if words.next().is_some() {
        return None;
    }
    let (n, period) = rate.split_once('/')?;
    let requests: u32 = digits(n)?;
    let (number, unit) = match period.as_bytes().last()? {
        b's' | b'S' => (&period[..period.len() - 1], 1),
        b'm' | b'M' => (&period[..period.len() - 1], 60),
        b'h' | b'H' => (&period[..period.len() - 1], 3600),
        b'd' | b'D' => (&period[..period.len() - 1], 86_400),
        _ => (period, 1),
    };
    let seconds = digits(number)?.checked_mul(unit)?;
    (requests > 0 && seconds > 0).then_some(RequestRate {
        requests,
        seconds,
        window,
    })
}

fn digits(s: &str) -> Option<u32> {
    (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
        .then(|| s.parse().ok())
        .flatten()
}

/// `HHMM-HHMM` or `HH:MM-HH:MM`.
fn parse_window(text: &str) -> Option<VisitTime> {
    let (a, b) = match text.split_once('-') {
        Some(parts) => parts,
        // `HHMM HHMM`, as Protego also reads it.
        None => {
            let mut words = text.split_ascii_whitespace();
            let parts = (words.next()?, words.next()?);
            if words.next().is_some() {
                return None;
            }
            parts
        }
    };
    Some(VisitTime { start: parse_hhmm(a)?, end: parse_hhmm(b)? })
}

/// `HHMM`, `HMM` or `HH:MM` (a value that is not ASCII is none, and is
/// never cut inside a character).
fn parse_hhmm(s: &str) -> Option<u16> {
    let s = s.trim();
    let (h, m) = match s.split_once(':') {
        Some((h, m)) if h.len() == 2 => (h, m),
        Some(_) => return None,
        None if s.len() == 4 => (s.get(..2)?, s.get(2..)?),
        None if s.len() == 3 => (s.get(..1)?, s.get(1..)?),
        None => return None,
    };
    if m.len() != 2 {
        return None;
    }
    let (h, m) = (digits(h)?, digits(m)?);
    (h < 24 && m < 60).then_some((h * 60 + m) as u16)
}

fn is_host(text: &str) -> bool {
    let rest = text
        .strip_prefix("https://")
        .or_else(|| text.strip_prefix("http://"))
        .unwrap_or(text);
    let rest = rest.strip_suffix('/').unwrap_or(rest);
    let (host, port) = match rest.rsplit_once(':') {
        Some((h, p)) if !h.contains(']') || h.starts_with('[') => (h, Some(p)),
        _ => (rest, None),
    };
    let host_ok = !host.is_empty()
        && host.len() <= 253
        && host.split('.').all(|label| {
            !label.is_empty()
                && label.len() <= 63
                && label.bytes().all(|b| {
                    b.is_ascii_alphanumeric() || b == b'-' || b >= 0x80
                })
                && !label.starts_with('-')
                && !label.ends_with('-')
        });
    host_ok
        && port.is_none_or(|p| digits(p).is_some_and(|n| n > 0 && n < 65_536))
}

fn parse_clean_param(text: &str) -> Option<CleanParam<'_>> {
    let mut words = text.split_ascii_whitespace();
    // Empty names (`&ref`, as Yandex's own files write) are passed over.
    let params: Vec<&str> =
        words.next()?.split('&').filter(|p| !p.is_empty()).collect();
    let path = words.next();
    if words.next().is_some() || text.len() > 500 {
        return None;
    }
    // Names as URLs write them: percent-encoded (`a%5Bb%5D`), and with a
    // value (`print=1`) as Yandex's own files write them.
    let param_ok = |p: &&str| {
        p.bytes().all(|b| b.is_ascii_alphanumeric() || b"._-[]%=".contains(&b))
    };
    let path_ok = path.is_none_or(|p| matches!(p.as_bytes()[0], b'/' | b'*'));
    (!params.is_empty() && params.iter().all(param_ok) && path_ok)
        .then_some(CleanParam { params, path })
}

fn parse_signals(text: &str) -> Option<Vec<(&str, bool)>> {
    text.split(',')
        .map(|pair| {
            let (name, value) = pair.trim().split_once('=')?;
            let (name, value) = (name.trim(), value.trim());
            let ok = !name.is_empty()
                && name.bytes().all(|b| {
                    b.is_ascii_alphanumeric() || b == b'-' || b == b'_'
                });
            let yes = match value.to_ascii_lowercase().as_str() {
                "yes" => true,
                "no" => false,
                _ => return None,
            };
            ok.then_some((name, yes))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values() {
        assert_eq!(parse_delay("0.5"), Some(0.5));
        assert_eq!(parse_delay("10"), Some(10.0));
        assert_eq!(parse_delay("-1"), None);
        assert_eq!(parse_delay("10s"), None);
        assert_eq!(parse_delay("1e3"), None);
        let rate = parse_rate("1/10m 0600-0845").unwrap();
        assert_eq!((rate.requests, rate.seconds), (1, 600));
        assert_eq!(rate.window, Some(VisitTime { start: 360, end: 525 }));
        assert_eq!(parse_rate("3/20").map(|r| r.seconds), Some(20));
        assert_eq!(parse_rate("0/5"), None);
        assert_eq!(parse_rate("fast"), None);
        assert_eq!(
            parse_window("23:00-01:30"),
            Some(VisitTime { start: 1380, end: 90 })
        );
        assert_eq!(parse_window("2500-0100"), None);
        // Separated by white space, and hours of one digit (Protego).
        assert_eq!(
            parse_window("0200 0630"),
            Some(VisitTime { start: 120, end: 390 })
        );
        assert_eq!(
            parse_window("900-1730"),
            Some(VisitTime { start: 540, end: 1050 })
        );
        for window in ["0200 0630 0700", "0200", "9:00-10:00", "90-1000"] {
            assert_eq!(parse_window(window), None, "{window}");
        }
        // A request-rate's window is one word: no white space in it.
        assert_eq!(parse_rate("1/5m 0200 0630"), None);
        // Four bytes that are no four digits: none, never a panic.
        for window in
            ["1\u{e9}1-0600", "\u{20ac}0-0600", "1\u{ff10}-0600", "1:5-6:0"]
        {
            assert_eq!(parse_window(window), None, "{window}");
            assert_eq!(
                parse_rate(&alloc::format!("1/5m {window}")),
                None,
                "{window}"
            );
        }
        assert!(is_host("example.com"));
        assert!(is_host("https://www.example.com:8443"));
        assert!(!is_host("example.com/path"));
        assert!(!is_host("exa mple.com"));
        assert!(!is_host("-bad.com"));
        let cp = parse_clean_param("ref&utm_source /catalog/").unwrap();
        assert_eq!(cp.params, ["ref", "utm_source"]);
        assert_eq!(cp.path, Some("/catalog/"));
        let yandex =
            parse_clean_param("&print=1&a%5Bb%5D&&c /tutor/").unwrap();
        assert_eq!(yandex.params, ["print=1", "a%5Bb%5D", "c"]);
        assert_eq!(parse_clean_param("&"), None);
        assert_eq!(parse_clean_param("a&b;c"), None);
        assert_eq!(
            parse_signals("search=yes, ai-train=no"),
            Some(alloc::vec![("search", true), ("ai-train", false)])
        );
        assert_eq!(parse_signals("search=maybe"), None);
    }
}
