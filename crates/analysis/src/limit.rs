//! What crawlers read of a file over the fetch limit.
//!
//! The reference reads the whole file it is given; crawlers fetch only
//! its first 500 KiB (RFC 9309 §2.5). For a larger file the two can
//! disagree, and not only when the deciding rule lies beyond the limit: a
//! `user-agent` line beyond it can choose the crawler's groups for the
//! reference (a group that names the crawler replaces the `*` groups),
//! while crawlers, which never read it, obey the `*` groups.

use std::fmt;

use robotrules::{Decision, Matcher, FETCH_LIMIT};

use crate::query::{Warning, WarningKind};
use crate::rule::RuleRef;

/// Returns the first line that crawlers do not read whole, for a body over
/// [`FETCH_LIMIT`]: rules from this line on lie beyond what a fetch reads
/// (RFC 9309 §2.5). `None` if the body fits.
///
/// # Example
///
/// ```
/// use robotrules_analysis::first_line_beyond_fetch_limit;
///
/// assert_eq!(first_line_beyond_fetch_limit(b"user-agent: *\n"), None);
/// let mut big = b"user-agent: *\n".to_vec();
/// big.resize(robotrules::FETCH_LIMIT + 10, b'#');
/// assert_eq!(first_line_beyond_fetch_limit(&big), Some(2));
/// ```
pub fn first_line_beyond_fetch_limit(body: &[u8]) -> Option<u32> {
    cut(body).map(|(line, _)| line)
}

/// Returns the part of `body` that crawlers read, for a body over
/// [`FETCH_LIMIT`]: its lines up to the limit, each read whole (the line
/// the limit goes through is not read at all, as the fetch layer reads
/// it). `None` if the body fits.
///
/// # Example
///
/// ```
/// use robotrules_analysis::fetched_part;
///
/// assert_eq!(fetched_part(b"user-agent: *\n"), None);
/// let mut big = b"user-agent: *\ndisallow: /a\n".to_vec();
/// big.resize(robotrules::FETCH_LIMIT + 10, b'#');
/// assert_eq!(fetched_part(&big), Some(&b"user-agent: *\ndisallow: /a\n"[..]));
/// ```
pub fn fetched_part(body: &[u8]) -> Option<&[u8]> {
    cut(body).map(|(_, end)| &body[..end])
}

/// The first line crawlers do not read whole and where it starts.
fn cut(body: &[u8]) -> Option<(u32, usize)> {
    if body.len() <= FETCH_LIMIT {
        return None;
    }
    let lines = crate::text::Lines::new(body);
    let n = lines.line_at(FETCH_LIMIT);
    // A line whose every byte fits, only its line break past the limit,
    // is read whole.
    let first = if lines.range(n).end > FETCH_LIMIT { n } else { n + 1 };
    Some((first, lines.start(first).min(body.len())))
}

/// The verdict that crawlers get for a URL from the part of a file they
/// read, when the file is over [`FETCH_LIMIT`].
#[derive(Clone, Debug, Eq, Hash, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct AsFetched {
    /// True if and only if the crawler may fetch the URL, by the rules
    /// it reads.
    pub allowed: bool,
    /// The rule that decides among them, if any.
    pub rule: Option<RuleRef>,
}

/// A file over [`FETCH_LIMIT`] as crawlers read it, for one crawler: its
/// verdicts from the first 500 KiB, to compare with the reference's from
/// the whole file.
///
/// # Example
///
/// ```
/// use robotrules::Robots;
/// use robotrules_analysis::FetchLimit;
///
/// let mut body = b"user-agent: *\ndisallow: /a\n".to_vec();
/// body.resize(robotrules::FETCH_LIMIT + 10, b'#');
/// body.extend_from_slice(b"\nuser-agent: FooBot\ndisallow: /b\n");
/// // The reference reads the group that names FooBot...
/// let robots = Robots::parse(&body);
/// let decision = robots.decide(&["FooBot"], "/a");
/// assert!(decision.is_allowed());
/// // ...which crawlers never fetch: for them the `*` group decides.
/// let limit = FetchLimit::new(&body, &["FooBot"]).unwrap();
/// assert!(!limit.decide("/a").allowed);
/// let warning = limit.warning("/a", &decision).unwrap();
/// assert!(warning.message.contains("DISALLOWED by line 2"));
/// assert!(FetchLimit::new(b"user-agent: *\n", &["FooBot"]).is_none());
/// ```
#[derive(Debug)]
pub struct FetchLimit {
    first_beyond: u32,
    matcher: Matcher,
}

impl FetchLimit {
    /// What crawlers known by `agents` read of `body`; `None` if the body
    /// fits within [`FETCH_LIMIT`]. Time is linear in the body.
    pub fn new(body: &[u8], agents: &[&str]) -> Option<FetchLimit> {
        let (first_beyond, end) = cut(body)?;
        let matcher = Matcher::parse(&body[..end], agents);
        Some(FetchLimit { first_beyond, matcher })
    }

    /// The first line that crawlers do not read whole
    /// ([`first_line_beyond_fetch_limit`]).
    pub fn first_beyond(&self) -> u32 {
        self.first_beyond
    }

    /// The verdict crawlers get for `url` from the part they read.
    pub fn decide(&self, url: &str) -> AsFetched {
        let decision = self.matcher.decide(url);
        AsFetched {
            allowed: decision.is_allowed(),
            rule: decision.rule().map(RuleRef::from),
        }
    }

    /// A warning when the reference's `decision` for `url`, from the whole
    /// file, is not what crawlers get: its deciding rule lies beyond the
    /// limit, or the part crawlers read gives the other verdict (a group
    /// or rule beyond the limit changed it). `None` when they agree.
    pub fn warning(
        &self,
        url: &str,
        decision: &Decision<'_>,
    ) -> Option<Warning> {
        let beyond = decision
            .rule()
            .map(|r| r.line())
            .filter(|&line| line >= self.first_beyond);
        warning(&self.decide(url), decision.is_allowed(), beyond)
    }
}

/// The warning of [`FetchLimit::warning`]: `allowed` is the reference's
/// verdict and `beyond` the line of its deciding rule if that lies beyond
/// the limit.
pub(crate) fn warning(
    fetched: &AsFetched,
    allowed: bool,
    beyond: Option<u32>,
) -> Option<Warning> {
    let theirs = fetched;
    let message = match beyond {
        Some(line) => format!(
            "the deciding rule, line {line}, lies beyond the first 500 KiB \
             of the file, which is all that crawlers read (RFC 9309 §2.5): \
             Google ignores it, and for crawlers the URL is {theirs}"
        ),
        None if fetched.allowed != allowed => format!(
            "crawlers read only the first 500 KiB of the file (RFC 9309 \
             §2.5): from it the URL is {theirs}, as lines beyond it choose \
             other groups or rules for the verdict given here"
        ),
        None => return None,
    };
    Some(Warning {
        kind: WarningKind::BeyondFetchLimit,
        message,
        suggestion: None,
    })
}

/// `ALLOWED` or `DISALLOWED`, and by which line: `DISALLOWED by line 2`,
/// `ALLOWED (no rule decides)`.
impl fmt::Display for AsFetched {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let shown = if self.allowed { "ALLOWED" } else { "DISALLOWED" };
        match &self.rule {
            Some(rule) => write!(f, "{shown} by line {}", rule.line),
            None => write!(f, "{shown} (no rule decides)"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `head`, padding to past the limit, then `tail`; the line number of
    /// the first line of `tail`.
    fn big(head: &str, tail: &str) -> (Vec<u8>, u32) {
        let mut body = head.as_bytes().to_vec();
        let lines = head.matches('\n').count() as u32;
        let pad = b"# padding to make the file large\n";
        let mut n = 0;
        while body.len() <= FETCH_LIMIT {
            body.extend_from_slice(pad);
            n += 1;
        }
        body.extend_from_slice(tail.as_bytes());
        (body, lines + n + 1)
    }

    #[test]
    fn the_part_crawlers_read() {
        let (body, tail) = big("user-agent: *\ndisallow: /a\n", "x\n");
        let part = fetched_part(&body).unwrap();
        // The padding line the limit goes through is not read.
        assert!(part.len() <= FETCH_LIMIT);
        assert!(part.ends_with(b"\n"));
        assert_eq!(first_line_beyond_fetch_limit(&body), Some(tail - 1));
        // A line whose line break alone lies past the limit is read.
        let mut exact = vec![b'#'; FETCH_LIMIT];
        exact.extend_from_slice(b"\nuser-agent: *\n");
        assert_eq!(fetched_part(&exact), Some(&exact[..FETCH_LIMIT + 1]));
        assert_eq!(first_line_beyond_fetch_limit(&exact), Some(2));
        // A line break past the limit ending the file: all of it is read.
        let mut last = vec![b'#'; FETCH_LIMIT];
        last.push(b'\n');
        assert_eq!(fetched_part(&last), Some(&last[..]));
        // No line break at all: nothing is read whole.
        assert_eq!(fetched_part(&[b'#'; FETCH_LIMIT + 1]), Some(&b""[..]));
    }

    #[test]
    fn a_group_beyond_the_limit_changes_the_verdict() {
        let (body, tail) = big(
            "user-agent: *\ndisallow: /a\n",
            "user-agent: FooBot\ndisallow: /b\n",
        );
        let robots = robotrules::Robots::parse(&body);
        let limit = FetchLimit::new(&body, &["FooBot"]).unwrap();
        assert_eq!(limit.first_beyond(), tail - 1);
        // /a: the reference allows it (FooBot's group), crawlers do not.
        let a = robots.decide(&["FooBot"], "/a");
        assert!(a.is_allowed() && a.rule().is_none());
        let w = limit.warning("/a", &a).unwrap();
        assert_eq!(w.kind, WarningKind::BeyondFetchLimit);
        assert!(w.message.contains("DISALLOWED by line 2"), "{}", w.message);
        // /b: decided beyond the limit; crawlers may fetch it.
        let b = robots.decide(&["FooBot"], "/b");
        let w = limit.warning("/b", &b).unwrap();
        assert!(w.message.contains(&format!("line {}", tail + 1)));
        assert!(
            w.message.ends_with("ALLOWED (no rule decides)"),
            "{}",
            w.message
        );
        // /c: both allow it with no rule.
        assert_eq!(
            limit.warning("/c", &robots.decide(&["FooBot"], "/c")),
            None
        );
        // Another crawler reads the `*` group either way.
        let other = FetchLimit::new(&body, &["BarBot"]).unwrap();
        assert_eq!(
            other.warning("/a", &robots.decide(&["BarBot"], "/a")),
            None
        );
    }

    #[test]
    fn a_rule_beyond_the_limit_with_the_same_verdict() {
        let (body, _) =
            big("user-agent: *\ndisallow: /a\n", "disallow: /a/b\n");
        let robots = robotrules::Robots::parse(&body);
        let limit = FetchLimit::new(&body, &["FooBot"]).unwrap();
        let d = robots.decide(&["FooBot"], "/a/b");
        let w = limit.warning("/a/b", &d).unwrap();
        assert!(w.message.ends_with("DISALLOWED by line 2"), "{}", w.message);
    }
}
