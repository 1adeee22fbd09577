//! Why a URL is allowed or not, line by line.

use robotrules::{Group, Robots, FETCH_LIMIT};

use crate::limit::{AsFetched, FetchLimit};
use crate::rule::RuleRef;
use crate::text::{escape, Lines};

/// How much of a line a [`Quote`] keeps, in bytes.
const QUOTE_LEN: usize = 200;

/// How many matching rules an [`Explanation`] lists at most (the deciding
/// one always among them); [`Explanation::omitted_matches`] counts the
/// others, so that its size is bounded whatever the file.
pub const MAX_MATCHES: usize = 1_000;

/// A line of the file, quoted.
#[derive(Clone, Debug, Eq, Hash, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Quote {
    /// The line number, from 1.
    pub line: u32,
    /// The line's first 200 bytes as text: invalid UTF-8 replaced,
    /// control characters escaped, trailing whitespace removed.
    pub text: String,
}

/// A group of the file, and the `user-agent` lines that chose it.
#[derive(Clone, Debug, Eq, Hash, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct GroupRef {
    /// The line of the group's first `user-agent` line.
    pub line: u32,
    /// The group's last line (before the next group).
    pub end_line: u32,
    /// The `user-agent` lines that apply: those that name the crawler
    /// or, if no group names it, the `*` lines.
    pub matched_by: Vec<Quote>,
}

/// A rule that matches the URL's path.
#[derive(Clone, Debug, Eq, Hash, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Match {
    /// The rule and the priority it matches with.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub rule: RuleRef,
    /// True if and only if this is the rule that decides.
    pub decides: bool,
    /// The rule's line, quoted (see [`Quote`]).
    pub text: String,
}

/// Everything there is to say about one verdict: the groups chosen for
/// the crawler and why, the `*` groups ignored, every rule that matches
/// with its priority, the deciding rule and the verdict.
///
/// Build one with [`explain`](fn@crate::explain). The verdict is always the reference's
/// ([`Robots::decide`]); the rest says how it came about.
///
/// # Example
///
/// ```
/// use robotrules::Robots;
/// use robotrules_analysis::explain;
///
/// let body = b"User-agent: *\nDisallow: /search\nAllow: /search/about\n";
/// let robots = Robots::parse(body);
/// let e = explain(&robots, body, &["BarBot"], "https://example.com/search/about");
/// assert!(e.allowed && !e.named);
/// assert_eq!(e.groups[0].matched_by[0].text, "User-agent: *");
/// assert_eq!(e.matches.len(), 2);
/// let rule = e.rule.as_ref().ok_or("a rule decides")?;
/// assert_eq!((rule.line, rule.priority), (3, 13));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Eq, Hash, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Explanation {
    /// The URL, as given.
    pub url: String,
    /// The part of it that rules are matched against
    /// ([`robotrules::path_of`]).
    pub path: String,
    /// The crawler's names.
    pub agents: Vec<String>,
    /// True if and only if some group names the crawler, so that the `*`
    /// groups do not apply (RFC 9309 §2.2.1).
    pub named: bool,
    /// The groups whose rules apply, merged.
    pub groups: Vec<GroupRef>,
    /// The `*` groups that do not apply because the crawler is named.
    pub ignored_global_groups: Vec<GroupRef>,
    /// The rules of the groups that match the path, in file order: the
    /// first [`MAX_MATCHES`] of them, and the deciding one if it comes
    /// later.
    pub matches: Vec<Match>,
    /// How many more rules match and are not listed in `matches`.
    pub omitted_matches: usize,
    /// True if and only if the crawler may fetch the URL.
    pub allowed: bool,
    /// The rule that decides, as the reference names it: the best match,
    /// the `allow` on a tie (RFC 9309 §2.2.2); `None` if no rule matches.
    pub rule: Option<RuleRef>,
    /// The deciding rule's line, quoted.
    pub rule_text: Option<Quote>,
    /// True if and only if the deciding rule lies (in part) beyond the
    /// first 500 KiB of the file, which crawlers do not read
    /// ([`FETCH_LIMIT`], RFC 9309 §2.5). The verdict is still the
    /// reference's, which reads the whole file.
    pub beyond_fetch_limit: bool,
    /// For a file over 500 KiB ([`FETCH_LIMIT`]), the verdict that
    /// crawlers get from the part they read ([`FetchLimit`]), which can
    /// differ from `allowed` even when the deciding rule lies within it:
    /// a group beyond the limit that names the crawler replaces the `*`
    /// groups for the reference only. `None` for a file that fits.
    pub as_fetched: Option<AsFetched>,
    /// The number of lines of the file.
    pub line_count: usize,
}

impl Explanation {
    /// The warning that crawlers, which read only the first 500 KiB of a
    /// larger file, do not get this verdict ([`FetchLimit::warning`]):
    /// `None` if the file fits or they get it.
    pub fn fetch_limit_warning(&self) -> Option<crate::Warning> {
        let beyond = self.rule.as_ref().map(|r| r.line);
        let beyond = beyond.filter(|_| self.beyond_fetch_limit);
        crate::limit::warning(self.as_fetched.as_ref()?, self.allowed, beyond)
    }

    /// Quotes the lines of the file that the explanation refers to, by
    /// number: the `user-agent` lines, and the rules that match.
    pub fn quotes(&self) -> impl Iterator<Item = &Quote> + '_ {
        self.groups
            .iter()
            .chain(&self.ignored_global_groups)
            .flat_map(|g| &g.matched_by)
            .chain(&self.rule_text)
    }
}

/// Explains the verdict for `url` and the crawler known by `agents`, in
/// `robots`, parsed from `body` (which is quoted).
///
/// `robots` must be `Robots::parse(body)`. Time is linear in the file.
pub fn explain(
    robots: &Robots,
    body: &[u8],
    agents: &[&str],
    url: &str,
) -> Explanation {
    let lines = Lines::new(body);
    let quoted = |line: u32| Quote { line, text: quote(&lines, line) };
    let path = robotrules::path_of(url).into_owned();
    let selection = robots.select(agents);
    let named = selection.is_named();
    let group_ref = |g: &Group<'_>, by_name: bool| GroupRef {
        line: g.line(),
        end_line: g.end_line(),
        matched_by: g
            .agents()
            .filter(|a| {
                if by_name {
                    agents.iter().any(|n| a.is_named_by(n))
                } else {
                    a.is_global()
                }
            })
            .map(|a| quoted(a.line()))
            .collect(),
    };
    let groups = selection.groups().map(|g| group_ref(&g, named)).collect();
    let ignored_global_groups = selection
        .ignored_global_groups()
        .map(|g| group_ref(&g, false))
        .collect();
    let decision = robots.decide(agents, url);
    let rule = decision.rule().map(RuleRef::from);
    let mut matches = Vec::new();
    let mut omitted_matches = 0;
    for r in selection.rules() {
        let Some(priority) = r.match_priority(url) else { continue };
        let decides = decision
            .rule()
            .is_some_and(|d| d.line() == r.line() && d.priority() == priority);
        if matches.len() >= MAX_MATCHES && !decides {
            omitted_matches += 1;
            continue;
        }
        let rule = RuleRef::with_priority(&r, priority);
        let text = quote(&lines, rule.line);
        matches.push(Match { rule, decides, text });
    }
    let beyond_fetch_limit =
        rule.as_ref().is_some_and(|r| lines.range(r.line).end > FETCH_LIMIT);
    Explanation {
        url: url.to_string(),
        path,
        agents: agents.iter().map(|a| a.to_string()).collect(),
        named,
        groups,
        ignored_global_groups,
        matches,
        omitted_matches,
        allowed: decision.is_allowed(),
        rule_text: rule.as_ref().map(|r| quoted(r.line)),
        rule,
        beyond_fetch_limit,
        as_fetched: FetchLimit::new(body, agents).map(|l| l.decide(url)),
        line_count: robots.line_count(),
    }
}

/// The first bytes of a line as printable text.
fn quote(lines: &Lines<'_>, line: u32) -> String {
    quote_raw(lines.get(line))
}

fn quote_raw(raw: &[u8]) -> String {
    let text = String::from_utf8_lossy(&raw[..raw.len().min(QUOTE_LEN)]);
    escape(text.trim_end().replace('\t', " ").as_str()).into_owned()
}

/// Quotes line `line` of `body` (from 1) as [`Explanation`] does: the
/// first 200 bytes, invalid UTF-8 replaced, control characters escaped
/// (tabs shown as spaces), trailing whitespace removed. Lines are numbered
/// as the parser numbers them.
pub fn quote_line(body: &[u8], line: u32) -> String {
    let raw = robotrules::raw_lines(body)
        .nth((line as usize).wrapping_sub(1))
        .unwrap_or_default();
    quote_raw(raw)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ex(body: &[u8], agent: &str, url: &str) -> Explanation {
        explain(&Robots::parse(body), body, &[agent], url)
    }

    macro_rules! decides {
        ($body:expr, $agent:expr, $url:expr, $allowed:expr, $line:expr) => {{
            let e = ex($body, $agent, $url);
            assert_eq!(
                (e.allowed, e.rule.as_ref().map(|r| r.line)),
                ($allowed, $line)
            );
        }};
    }

    #[test]
    fn verdicts() {
        decides!(b"User-agent: *\nDisallow: /\n", "a", "/x", false, Some(2));
        decides!(
            b"User-agent: *\nDisallow: /\nAllow: /x\n",
            "a",
            "/x",
            true,
            Some(3)
        );
        decides!(b"User-agent: a\nDisallow: /\n", "b", "/x", true, None);
        decides!(
            b"User-agent: a\nAllow: /d/index.html\nDisallow: /\n",
            "a",
            "/d/",
            true,
            Some(2)
        );
    }

    #[test]
    fn matches_are_bounded_and_keep_the_deciding_rule() {
        let mut body = String::from("User-agent: *\n");
        for i in 0..MAX_MATCHES + 500 {
            body.push_str(&format!("Disallow: /a{}\n", "*".repeat(i % 3)));
        }
        body.push_str("Allow: /abc\n");
        let e = ex(body.as_bytes(), "a", "/abc");
        assert_eq!(e.matches.len(), MAX_MATCHES + 1);
        assert_eq!(e.omitted_matches, 500);
        let last = e.matches.last().unwrap();
        assert!(last.decides && e.allowed);
        assert_eq!(last.rule.line as usize, MAX_MATCHES + 502);
        assert_eq!(e.matches.iter().filter(|m| m.decides).count(), 1);
    }

    #[test]
    fn groups_and_matches() {
        let body = b"User-agent: *\r\nDisallow: /\r\n\r\nUser-agent: FooBot\r\nDisallow: /private/\r\nAllow: /private/*.pdf$\r\n";
        let e = ex(body, "foobot", "/private/a.pdf");
        assert!(e.named && e.allowed);
        assert_eq!(
            e.groups[0].matched_by[0],
            Quote { line: 4, text: "User-agent: FooBot".into() }
        );
        assert_eq!(e.ignored_global_groups[0].line, 1);
        assert_eq!(e.matches.len(), 2);
        assert!(e.matches[1].decides && !e.matches[0].decides);
        assert_eq!(
            e.rule_text.as_ref().unwrap().text,
            "Allow: /private/*.pdf$"
        );
        assert!(!e.beyond_fetch_limit);
    }

    #[test]
    fn quotes_are_escaped() {
        let e = ex(b"User-agent: a\x1b[2J\nDisallow: /\x07\n", "a", "/\x07");
        assert_eq!(e.groups[0].matched_by[0].text, "User-agent: a\\x1b[2J");
        assert_eq!(e.rule_text.unwrap().text, "Disallow: /\\x07");
        assert_eq!(quote_line(b"a\r\nb\tc\x1b", 2), "b c\\x1b");
    }

    #[test]
    fn beyond_the_fetch_limit() {
        let mut body = b"User-agent: *\n".to_vec();
        while body.len() < FETCH_LIMIT + 10 {
            body.extend_from_slice(b"Disallow: /filler\n");
        }
        body.extend_from_slice(b"Disallow: /late\n");
        let e = ex(&body, "a", "/late/x");
        assert!(!e.allowed && e.beyond_fetch_limit);
        let w = e.fetch_limit_warning().unwrap().message;
        assert!(
            w.ends_with("for crawlers the URL is ALLOWED (no rule decides)"),
            "{w}"
        );
        let fetched = e.as_fetched.unwrap();
        assert!(fetched.allowed && fetched.rule.is_none());
        let e = ex(&body, "a", "/filler");
        assert!(!e.beyond_fetch_limit);
        let fetched = e.as_fetched.unwrap();
        assert_eq!((fetched.allowed, fetched.rule.unwrap().line), (false, 2));
        assert_eq!(ex(b"User-agent: *\n", "a", "/").as_fetched, None);
    }

    #[test]
    fn a_named_group_beyond_the_fetch_limit() {
        let mut body = b"User-agent: *\nDisallow: /a\n".to_vec();
        body.resize(FETCH_LIMIT + 10, b'#');
        body.extend_from_slice(b"\nUser-agent: a\nDisallow: /b\n");
        // The reference reads the group that names the crawler; crawlers
        // obey the `*` group.
        let e = ex(&body, "a", "/a");
        assert!(e.allowed && e.named && !e.beyond_fetch_limit);
        let w = e.fetch_limit_warning().unwrap();
        assert!(w.message.contains("DISALLOWED by line 2"), "{}", w.message);
        let fetched = e.as_fetched.unwrap();
        assert_eq!((fetched.allowed, fetched.rule.unwrap().line), (false, 2));
        // Where both read the same verdict, no warning.
        assert_eq!(ex(&body, "a", "/c").fetch_limit_warning(), None);
    }
}
