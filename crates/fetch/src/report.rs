//! A [`Fetch`] as tools show it: [`Report`].

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use robotrules::Robots;

use crate::policy::{self, Timing};
use crate::{Fetch, Hop, Outcome, DEFAULT_LIFETIME};

/// Everything a person (or a JSON consumer) wants to know about a fetch of
/// a robots.txt: each request and its status, the bytes read and whether
/// the 500 KiB cap cut the body, how long the result may be kept or when
/// to ask again, the outcome and what it means for crawlers (RFC 9309
/// §2.3.1), and a summary of the rules.
///
/// This is the shape of `robotrules fetch --json`. With the `serde`
/// feature it serializes with these field names, in this order; times are
/// HTTP dates (`Sun, 22 Nov 2026 11:18:53 GMT`), shown up to the end of the
/// year 9999 however far a server's `Retry-After` points.
///
/// # Example
///
/// ```
/// use std::time::SystemTime;
/// use robotrules_fetch::{Authority, Fetch, Report, Response};
///
/// let site = Authority::of("https://example.com/a")?;
/// let fetch = Fetch::new(&site, Ok(Response::new(503, Vec::new()).header("retry-after", "60")));
/// let report = Report::new(&fetch, SystemTime::now());
/// assert_eq!(report.outcome, "unreachable (503)");
/// assert_eq!(report.access, "disallow-all");
/// assert_eq!(report.cache_lifetime_seconds, None);
/// assert_eq!(report.hops[0].request, "GET https://example.com/robots.txt");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Eq, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Report {
    /// The authority whose robots.txt this is (`https://example.com`).
    pub authority: String,
    /// The URL of its robots.txt.
    pub robots_url: String,
    /// Each request in order, redirects first.
    pub hops: Vec<HopReport>,
    /// The bytes of the body read (at most 500 KiB).
    pub bytes_read: usize,
    /// True if and only if the body was longer than 500 KiB and the rest
    /// was not read (RFC 9309 §2.5).
    pub truncated: bool,
    /// How long the result may be cached, in seconds (`None` when the
    /// robots.txt is unreachable: then `next_fetch` says when to retry).
    pub cache_lifetime_seconds: Option<u64>,
    /// When the server's `Retry-After` asks to come back, if it sent one.
    pub retry_after: Option<String>,
    /// When a crawler should fetch the robots.txt again.
    pub next_fetch: String,
    /// What the fetch came to: `available`, `unavailable (404)`,
    /// `unreachable (503)`, … ([`Outcome::describe`]).
    pub outcome: String,
    /// What it means: `obey`, `allow-all` or `disallow-all`
    /// ([`Access::as_str`](crate::Access::as_str)).
    pub access: &'static str,
    /// The same, as a sentence for people ([`Access::describe`](crate::Access::describe)).
    pub verdict: &'static str,
    /// The rules fetched, counted; `None` unless the outcome is
    /// available.
    pub summary: Option<Summary>,
}

/// One request of a fetch, as a [`Report`] shows it.
#[derive(Clone, Debug, Eq, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct HopReport {
    /// The request as people read it: `GET https://…/robots.txt`, or
    /// `RETR /robots.txt on ftp://…`.
    pub request: String,
    /// The URL requested.
    pub url: String,
    /// The status (an FTP reply code for `ftp://`), if a response came.
    pub status: Option<u16>,
}

/// What a fetched robots.txt holds, counted.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Summary {
    /// Lines.
    pub lines: usize,
    /// Groups.
    pub groups: usize,
    /// `allow` and `disallow` rules.
    pub rules: usize,
    /// `sitemap` lines.
    pub sitemaps: usize,
    /// Other directives the parser recognised as key-value lines.
    pub other_directives: usize,
}

impl Summary {
    /// Counts the parts of `robots`.
    pub fn of(robots: &Robots) -> Summary {
        Summary {
            lines: robots.line_count(),
            groups: robots.groups().count(),
            rules: robots.groups().map(|g| g.rules().count()).sum(),
            sitemaps: robots.sitemaps().count(),
            other_directives: robots.unknown_directives().count(),
        }
    }
}

impl HopReport {
    /// The hop as reported.
    /// A user name and password in the URL (a redirect's `Location` may
    /// carry them) are not shown.
    pub fn new(hop: &Hop) -> HopReport {
        let url = match url::Url::parse(&hop.url) {
            Ok(mut u)
                if !u.username().is_empty() || u.password().is_some() =>
            {
                // Neither fails on a URL that has them.
                let _ = u.set_username("");
                let _ = u.set_password(None);
                u.to_string()
            }
            _ => hop.url.clone(),
        };
        let request = match url.strip_suffix("/robots.txt") {
            Some(site) if url.starts_with("ftp://") => {
                format!("RETR /robots.txt on {site}")
            }
            _ => format!("GET {url}"),
        };
        HopReport { request, url, status: hop.status }
    }
}

impl Report {
    /// Reports `fetch`, made just before `now`, with the default
    /// [`Timing`] and [`DEFAULT_LIFETIME`].
    pub fn new(fetch: &Fetch, now: SystemTime) -> Report {
        let access = policy::access(&fetch.outcome);
        let (lifetime, next_fetch) = match &fetch.outcome {
            Outcome::Unreachable(reason) => {
                let at =
                    Timing::default().retry_at(reason, fetch.retry_after, now);
                (None, at)
            }
            _ => {
                let keep =
                    policy::lifetime(&fetch.cache_control, DEFAULT_LIFETIME);
                (Some(keep.as_secs()), policy::saturating_add(now, keep))
            }
        };
        let summary = match &fetch.outcome {
            Outcome::Available(robots) => Some(Summary::of(robots)),
            _ => None,
        };
        Report {
            authority: fetch.authority.to_string(),
            robots_url: fetch.authority.robots_url(),
            hops: fetch.hops.iter().map(HopReport::new).collect(),
            bytes_read: fetch.bytes_read,
            truncated: fetch.truncated,
            cache_lifetime_seconds: lifetime,
            retry_after: fetch.retry_after.map(|r| http_date(r.at(now))),
            next_fetch: http_date(next_fetch),
            outcome: fetch.outcome.describe(),
            access: access.as_str(),
            verdict: access.describe(),
            summary,
        }
    }
}

/// The latest time an HTTP date can show: the end of the year 9999.
const LATEST: Duration = Duration::from_secs(253_402_300_799);

/// `t` as an HTTP date (`Sun, 22 Nov 2026 11:18:53 GMT`), clamped to the
/// years an HTTP date can show (1970 to 9999): a `Retry-After` of
/// `999999999999` seconds shows as the end of 9999, not a panic.
pub(crate) fn http_date(t: SystemTime) -> String {
    let since = t.duration_since(UNIX_EPOCH).unwrap_or(Duration::ZERO);
    httpdate::fmt_http_date(UNIX_EPOCH + since.min(LATEST))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Authority, Response};

    #[test]
    fn times_past_the_year_9999_do_not_panic() {
        let site = Authority::of("http://h/").unwrap();
        let now = SystemTime::now();
        for value in ["999999999999", "18446744073709551615"] {
            let fetch = Fetch::new(
                &site,
                Ok(Response::new(503, vec![]).header("retry-after", value)),
            );
            let report = Report::new(&fetch, now);
            assert_eq!(
                report.retry_after.as_deref(),
                Some("Fri, 31 Dec 9999 23:59:59 GMT"),
                "{value}"
            );
            // Honoured for 24 hours at most.
            assert_eq!(
                report.next_fetch,
                http_date(now + Duration::from_secs(86_400))
            );
        }
        assert_eq!(http_date(UNIX_EPOCH), "Thu, 01 Jan 1970 00:00:00 GMT");
        let far = policy::saturating_add(now, Duration::MAX);
        assert_eq!(http_date(far), "Fri, 31 Dec 9999 23:59:59 GMT");
        if let Some(before) = UNIX_EPOCH.checked_sub(Duration::from_secs(9)) {
            assert_eq!(http_date(before), "Thu, 01 Jan 1970 00:00:00 GMT");
        }
    }

    #[test]
    fn requests_are_named_by_protocol() {
        let ftp = Hop::new("ftp://127.0.0.1:2121/robots.txt", Some(226));
        assert_eq!(
            HopReport::new(&ftp).request,
            "RETR /robots.txt on ftp://127.0.0.1:2121"
        );
        let http = Hop::new("https://example.com/robots.txt", Some(200));
        assert_eq!(
            HopReport::new(&http).request,
            "GET https://example.com/robots.txt"
        );
        // What a Location carries in its user info is not shown.
        let told =
            Hop::new("http://user:pw@example.com/robots.txt", Some(200));
        let report = HopReport::new(&told);
        assert_eq!(report.request, "GET http://example.com/robots.txt");
        assert_eq!(report.url, "http://example.com/robots.txt");
    }
}
