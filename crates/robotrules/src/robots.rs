//! The parsed file and its parts.

use alloc::borrow::Cow;
use alloc::boxed::Box;
use alloc::string::String;
use core::fmt;
use core::mem::size_of;

use crate::matcher::{DecidingRule, Decision, Matcher};
use crate::parse;
use crate::path::{match_path, path_of, until_nul};
use crate::pattern;
use crate::report::LineReport;

#[derive(Clone, Copy, Debug)]
pub(crate) struct AgentEntry {
    pub(crate) off: u32,
    pub(crate) line: u32,
    pub(crate) len: u32,
    pub(crate) token_len: u32,
    pub(crate) global: bool,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct RuleEntry {
    pub(crate) off: u32,
    pub(crate) line: u32,
    pub(crate) len: u32,
    pub(crate) written_len: u32,
    pub(crate) allow: bool,
    /// True if the written form differs from the pattern; it is then
    /// stored right after it.
    pub(crate) differs: bool,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct GroupEntry {
    pub(crate) agent_start: u32,
    pub(crate) rule_start: u32,
    pub(crate) end_line: u32,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct SitemapEntry {
    pub(crate) off: u32,
    pub(crate) line: u32,
    pub(crate) len: u32,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct UnknownEntry {
    /// The key, then the normalised value, then the written value if it
    /// differs.
    pub(crate) off: u32,
    pub(crate) line: u32,
    pub(crate) key_len: u32,
    pub(crate) len: u32,
    pub(crate) written_len: u32,
    pub(crate) differs: bool,
}

/// A parsed robots.txt file.
///
/// Build one with [`Robots::parse`], which accepts any bytes and never
/// fails. A `Robots` is immutable, `Send` and `Sync`: parse once, then
/// check as many URLs as you like, from as many threads as you like (wrap
/// it in an [`Arc`](alloc::sync::Arc) to share it).
///
/// For one check, use [`Robots::is_allowed`]. For many checks for the
/// same crawler, build a [`Matcher`] once with [`Robots::matcher`].
///
/// # Example
///
/// ```
/// use robotrules::Robots;
///
/// let robots = Robots::parse(b"\
/// User-agent: *
/// Disallow: /private
/// Allow: /private/press
/// ");
/// assert!(robots.is_allowed("FooBot", "https://example.com/"));
/// assert!(!robots.is_allowed("FooBot", "https://example.com/private/x"));
/// assert!(robots.is_allowed("FooBot", "https://example.com/private/press"));
/// ```
#[derive(Clone)]
pub struct Robots {
    pub(crate) arena: Box<[u8]>,
    pub(crate) lines: Box<[u16]>,
    pub(crate) agents: Box<[AgentEntry]>,
    pub(crate) rules: Box<[RuleEntry]>,
    pub(crate) groups: Box<[GroupEntry]>,
    pub(crate) sitemaps: Box<[SitemapEntry]>,
    pub(crate) unknowns: Box<[UnknownEntry]>,
    pub(crate) truncated: bool,
}

impl Robots {
    /// Parses a robots.txt body.
    ///
    /// Any bytes are accepted: there is no encoding check and no error.
    /// Lines the parser does not understand are kept in the per-line
    /// report ([`Robots::lines`]) and, when they have a key and value, in
    /// [`Robots::unknown_directives`]. The behaviour is the reference's,
    /// byte for byte (REP.md §4–§6), including its quirks.
    ///
    /// # Example
    ///
    /// ```
    /// use robotrules::Robots;
    ///
    /// let robots = Robots::parse(b"\xEF\xBB\xBFuser-agent: a\ndisallow /x");
    /// assert_eq!(robots.groups().count(), 1);
    /// assert!(!robots.is_allowed("a", "/x"));
    /// ```
    pub fn parse(body: &[u8]) -> Robots {
        parse::parse(body)
    }

    /// Returns true if and only if `agent` may fetch `url`.
    ///
    /// `agent` is the crawler's product token, such as `Googlebot`,
    /// matched without regard to ASCII case and never cut: `FooBot/1.0`
    /// matches no line. `url` is a full or relative URL, already
    /// percent-encoded; only its path, parameters and query count
    /// ([`path_of`](crate::path_of)).
    ///
    /// This is the reference's `OneAgentAllowedByRobots`. For many checks
    /// for the same crawler, [`Robots::matcher`] is faster.
    pub fn is_allowed(&self, agent: &str, url: &str) -> bool {
        self.decide(&[agent], url).is_allowed()
    }

    /// Returns the verdict for `url` and the rule that decided it, for a
    /// crawler known by the given names (REP.md §6, several tokens at
    /// once).
    ///
    /// # Example
    ///
    /// ```
    /// use robotrules::{Robots, RuleKind};
    ///
    /// let robots = Robots::parse(b"user-agent: *\ndisallow: /\nallow: /p\n");
    /// let decision = robots.decide(&["FooBot"], "/page");
    /// assert!(decision.is_allowed());
    /// let rule = decision.rule().unwrap();
    /// assert_eq!((rule.line(), rule.kind()), (3, RuleKind::Allow));
    /// ```
    pub fn decide<'a>(&'a self, agents: &[&str], url: &str) -> Decision<'a> {
        let path = match_path(url);
        let path = &*path;
        let mut specific = Best::default();
        let mut global = Best::default();
        let mut named = false;
        for group in self.groups() {
            let (is_named, is_global) = group.applies_to(agents);
            if is_named {
                named = true;
                specific.add_rules(group, path);
            } else if is_global && !named {
                global.add_rules(group, path);
            }
        }
        let best = if named { specific } else { global };
        best.decision(self)
    }

    /// Returns a matcher for the crawler known by the given names, for
    /// fast repeated checks.
    ///
    /// The groups that apply are merged once (REP.md §6): every group that
    /// names one of `agents`, or, if none does, every `*` group. An empty
    /// `agents` means only the `*` groups apply.
    ///
    /// # Example
    ///
    /// ```
    /// use robotrules::Robots;
    ///
    /// let robots = Robots::parse(b"user-agent: a\ndisallow: /a\n\
    ///                              user-agent: b\ndisallow: /b\n");
    /// let matcher = robots.matcher(&["a", "b"]);
    /// assert!(!matcher.is_allowed("/a"));
    /// assert!(!matcher.is_allowed("/b"));
    /// assert!(matcher.is_allowed("/c"));
    /// ```
    pub fn matcher(&self, agents: &[&str]) -> Matcher {
        Matcher::new(self, agents)
    }

    /// Returns the groups, in file order.
    ///
    /// A group is a run of `user-agent` lines and the rules after them; a
    /// new group starts only at a `user-agent` line that follows an
    /// `allow` or `disallow` line (REP.md §6).
    pub fn groups(&self) -> impl ExactSizeIterator<Item = Group<'_>> + '_ {
        (0..self.groups.len()).map(move |index| Group { robots: self, index })
    }

    /// Returns the `allow` and `disallow` lines that come before the first
    /// `user-agent` line. They belong to no group and are ignored.
    pub fn orphan_rules(
        &self,
    ) -> impl ExactSizeIterator<Item = Rule<'_>> + '_ {
        let end = self
            .groups
            .first()
            .map_or(self.rules.len(), |g| g.rule_start as usize);
        self.rules[..end].iter().map(move |entry| Rule { robots: self, entry })
    }

    /// Returns the `sitemap` lines, in file order, wherever they are.
    pub fn sitemaps(&self) -> impl ExactSizeIterator<Item = Sitemap<'_>> + '_ {
        self.sitemaps.iter().map(move |e| Sitemap {
            line: e.line,
            url: self.bytes(e.off, e.len),
        })
    }

    /// Returns the lines whose key is none of `user-agent`, `allow`,
    /// `disallow` and `sitemap` (REP.md §5.6), in file order.
    pub fn unknown_directives(
        &self,
    ) -> impl ExactSizeIterator<Item = UnknownDirective<'_>> + '_ {
        self.unknowns
            .iter()
            .map(move |e| UnknownDirective { robots: self, entry: e })
    }

    /// Returns the report of every line, in order, from line 1.
    ///
    /// There is always at least one line: the text after the last line
    /// break is a line, even if empty.
    pub fn lines(&self) -> impl ExactSizeIterator<Item = LineReport> + '_ {
        self.lines
            .iter()
            .enumerate()
            .map(|(i, &bits)| LineReport::new(i as u32 + 1, bits))
    }

    /// Returns the report of line `number` (from 1), if there is one.
    pub fn line(&self, number: u32) -> Option<LineReport> {
        let index = (number as usize).checked_sub(1)?;
        self.lines.get(index).map(|&bits| LineReport::new(number, bits))
    }

    /// Returns the number of lines.
    pub fn line_count(&self) -> usize {
        self.lines.len()
    }

    /// Returns true if and only if the body was longer than
    /// [`MAX_BODY_LEN`](crate::MAX_BODY_LEN), so that its end was not
    /// parsed.
    pub fn is_truncated(&self) -> bool {
        self.truncated
    }

    /// Returns the number of heap bytes this `Robots` holds on to.
    ///
    /// Comments, key names of the four fields and whitespace are not kept,
    /// so this is usually less than the size of the file.
    pub fn heap_size(&self) -> usize {
        self.arena.len()
            + self.lines.len() * size_of::<u16>()
            + self.agents.len() * size_of::<AgentEntry>()
            + self.rules.len() * size_of::<RuleEntry>()
            + self.groups.len() * size_of::<GroupEntry>()
            + self.sitemaps.len() * size_of::<SitemapEntry>()
            + self.unknowns.len() * size_of::<UnknownEntry>()
    }

    #[doc(hidden)]
    pub fn sizes(&self) -> [usize; 7] {
        [
            self.arena.len(),
            self.lines.len() * size_of::<u16>(),
            self.agents.len() * size_of::<AgentEntry>(),
            self.rules.len() * size_of::<RuleEntry>(),
            self.groups.len() * size_of::<GroupEntry>(),
            self.sitemaps.len() * size_of::<SitemapEntry>(),
            self.unknowns.len() * size_of::<UnknownEntry>(),
        ]
    }

    pub(crate) fn bytes(&self, off: u32, len: u32) -> &[u8] {
        let off = off as usize;
        self.arena.get(off..off + len as usize).unwrap_or_default()
    }

    /// Returns the arena bytes as a string; the caller knows they are
    /// ASCII (normalised patterns and values are).
    pub(crate) fn ascii(&self, off: u32, len: u32) -> &str {
        core::str::from_utf8(self.bytes(off, len)).unwrap_or_default()
    }
}

impl fmt::Debug for Robots {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Robots")
            .field("groups", &self.groups().collect::<alloc::vec::Vec<_>>())
            .field(
                "sitemaps",
                &self.sitemaps().collect::<alloc::vec::Vec<_>>(),
            )
            .field(
                "unknown_directives",
                &self.unknown_directives().collect::<alloc::vec::Vec<_>>(),
            )
            .field("line_count", &self.line_count())
            .finish()
    }
}

/// The best allow and disallow match of one tier (specific or global), as
/// the reference keeps them.
#[derive(Default)]
struct Best<'a> {
    allow: Option<(usize, &'a RuleEntry, bool)>,
    disallow: Option<(usize, &'a RuleEntry, bool)>,
}

impl<'a> Best<'a> {
    fn add_rules(&mut self, group: Group<'a>, path: &[u8]) {
        for rule in group.rules() {
            if let Some((priority, via_index)) = rule.priority_for_path(path) {
                let slot = if rule.entry.allow {
                    &mut self.allow
                } else {
                    &mut self.disallow
                };
                // Strictly greater: among equals the earlier line is kept.
                if slot.is_none_or(|(p, _, _)| priority > p) {
                    *slot = Some((priority, rule.entry, via_index));
                }
            }
        }
    }

    fn decision(self, robots: &'a Robots) -> Decision<'a> {
        let a = self.allow.map_or(-1, |(p, _, _)| p as i64);
        let d = self.disallow.map_or(-1, |(p, _, _)| p as i64);
        // The reference's `matching_line`: the disallow only if strictly
        // better, so a tie names the allow.
        let winner = if d > a { self.disallow } else { self.allow };
        let allowed = !(d > a && d > 0);
        let rule = winner.map(|(priority, entry, via_index)| {
            DecidingRule::new(
                Rule { robots, entry }.view(),
                priority,
                via_index,
            )
        });
        Decision::new(allowed, rule)
    }
}

/// A group: `user-agent` lines and the rules that follow them.
#[derive(Clone, Copy)]
pub struct Group<'a> {
    robots: &'a Robots,
    index: usize,
}

impl<'a> Group<'a> {
    fn entry(&self) -> &'a GroupEntry {
        &self.robots.groups[self.index]
    }

    fn next(&self) -> Option<&'a GroupEntry> {
        self.robots.groups.get(self.index + 1)
    }

    /// The group's position among the groups, from 0.
    pub fn index(&self) -> usize {
        self.index
    }

    /// The line of the group's first `user-agent` line.
    pub fn line(&self) -> u32 {
        self.agents().next().map_or(0, |a| a.line)
    }

    /// The last line before the next group starts (or the file's last
    /// line). Unknown directives between [`Group::line`] and this line,
    /// such as `crawl-delay`, belong to the group.
    pub fn end_line(&self) -> u32 {
        self.entry().end_line
    }

    /// The group's `user-agent` lines.
    pub fn agents(&self) -> impl ExactSizeIterator<Item = Agent<'a>> + 'a {
        let start = self.entry().agent_start as usize;
        let end = self
            .next()
            .map_or(self.robots.agents.len(), |n| n.agent_start as usize);
        let robots = self.robots;
        robots.agents[start..end].iter().map(move |e| {
            let value = robots.bytes(e.off, e.len);
            Agent {
                line: e.line,
                value,
                token: &value[..e.token_len as usize],
                global: e.global,
            }
        })
    }

    /// The group's `allow` and `disallow` lines, in file order.
    pub fn rules(&self) -> impl ExactSizeIterator<Item = Rule<'a>> + 'a {
        let start = self.entry().rule_start as usize;
        let end = self
            .next()
            .map_or(self.robots.rules.len(), |n| n.rule_start as usize);
        let robots = self.robots;
        robots.rules[start..end]
            .iter()
            .map(move |entry| Rule { robots, entry })
    }

    /// The unknown directives that belong to the group (from its first
    /// `user-agent` line up to the next group).
    pub fn unknown_directives(
        &self,
    ) -> impl Iterator<Item = UnknownDirective<'a>> + 'a {
        let (first, last) = (self.line(), self.end_line());
        self.robots
            .unknown_directives()
            .filter(move |d| d.line() >= first && d.line() <= last)
    }

    /// Returns true if and only if one of the group's `user-agent` lines
    /// is global (`*`).
    pub fn is_global(&self) -> bool {
        self.agents().any(|a| a.global)
    }

    /// Returns true if and only if one of the group's `user-agent` lines
    /// names `agent` (by product token, ignoring ASCII case).
    pub fn is_named_by(&self, agent: &str) -> bool {
        self.agents().any(|a| a.is_named_by(agent))
    }

    /// Returns (named by one of `agents`, global).
    pub(crate) fn applies_to(&self, agents: &[&str]) -> (bool, bool) {
        let mut named = false;
        let mut global = false;
        for a in self.agents() {
            global |= a.global;
            named |= agents.iter().any(|name| a.is_named_by(name));
        }
        (named, global)
    }
}

impl fmt::Debug for Group<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Group")
            .field("agents", &self.agents().collect::<alloc::vec::Vec<_>>())
            .field("rules", &self.rules().collect::<alloc::vec::Vec<_>>())
            .field("end_line", &self.end_line())
            .finish()
    }
}

/// A `user-agent` line.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub struct Agent<'a> {
    line: u32,
    value: &'a [u8],
    token: &'a [u8],
    global: bool,
}

impl<'a> Agent<'a> {
    /// The line number.
    pub fn line(&self) -> u32 {
        self.line
    }

    /// The value as written (trimmed), such as `Googlebot/2.1`. Values are
    /// raw bytes: they need not be UTF-8.
    pub fn value(&self) -> &'a [u8] {
        self.value
    }

    /// The value as text, with invalid UTF-8 replaced.
    pub fn value_lossy(&self) -> Cow<'a, str> {
        String::from_utf8_lossy(self.value)
    }

    /// The product token that crawlers are matched against: the longest
    /// prefix of the value made of ASCII letters, `-` and `_`
    /// ([`product_token`](crate::product_token)).
    pub fn product_token(&self) -> &'a [u8] {
        self.token
    }

    /// Returns true if and only if the line names every crawler: `*`, or
    /// `*` followed by whitespace and anything.
    pub fn is_global(&self) -> bool {
        self.global
    }

    /// Returns true if and only if this line names the crawler `agent`:
    /// not global, and its product token equals `agent` ignoring ASCII
    /// case. An empty `agent` matches lines whose token is empty.
    pub fn is_named_by(&self, agent: &str) -> bool {
        !self.global && self.token.eq_ignore_ascii_case(agent.as_bytes())
    }
}

/// Whether a rule allows or disallows.
#[derive(Clone, Copy, Debug, Eq, Hash, PartialEq)]
pub enum RuleKind {
    /// An `allow` line.
    Allow,
    /// A `disallow` line.
    Disallow,
}

impl RuleKind {
    /// `"allow"` or `"disallow"`.
    pub fn as_str(self) -> &'static str {
        match self {
            RuleKind::Allow => "allow",
            RuleKind::Disallow => "disallow",
        }
    }
}

impl fmt::Display for RuleKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An `allow` or `disallow` line.
#[derive(Clone, Copy)]
pub struct Rule<'a> {
    robots: &'a Robots,
    entry: &'a RuleEntry,
}

/// The parts of a rule that a decision reports, detached from `Robots`.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub(crate) struct RuleView<'a> {
    pub(crate) line: u32,
    pub(crate) kind: RuleKind,
    pub(crate) pattern: &'a str,
    pub(crate) written: &'a [u8],
}

impl<'a> Rule<'a> {
    /// The line number.
    pub fn line(&self) -> u32 {
        self.entry.line
    }

    /// Allow or disallow.
    pub fn kind(&self) -> RuleKind {
        if self.entry.allow {
            RuleKind::Allow
        } else {
            RuleKind::Disallow
        }
    }

    /// The normalised pattern, which is what paths are matched against
    /// ([`escape_pattern`](crate::escape_pattern)).
    pub fn pattern(&self) -> &'a str {
        self.robots.ascii(self.entry.off, self.entry.len)
    }

    /// The value as written in the file (trimmed, comment removed).
    pub fn as_written(&self) -> &'a [u8] {
        let e = self.entry;
        if e.differs {
            self.robots.bytes(e.off + e.len, e.written_len)
        } else {
            self.robots.bytes(e.off, e.len)
        }
    }

    /// The pattern's priority when it matches: its length in bytes.
    pub fn priority(&self) -> usize {
        self.entry.len as usize
    }

    /// Returns the priority with which this rule matches the URL's path,
    /// or `None` if it does not match.
    ///
    /// For an `allow` rule whose last segment starts with `/index.htm`,
    /// this includes the reference's retry with the directory (REP.md §8),
    /// at its own, lower priority.
    ///
    /// # Example
    ///
    /// ```
    /// use robotrules::Robots;
    ///
    /// let robots = Robots::parse(b"user-agent: *\nallow: /d/index.html\n");
    /// let rule = robots.groups().next().unwrap().rules().next().unwrap();
    /// assert_eq!(rule.match_priority("/d/index.html"), Some(13));
    /// assert_eq!(rule.match_priority("/d/"), Some(4));
    /// assert_eq!(rule.match_priority("/d/x"), None);
    /// ```
    pub fn match_priority(&self, url: &str) -> Option<usize> {
        let path = path_of(url);
        self.priority_for_path(until_nul(path.as_bytes())).map(|(p, _)| p)
    }

    /// Returns (priority, matched through the index.html retry).
    pub(crate) fn priority_for_path(
        &self,
        path: &[u8],
    ) -> Option<(usize, bool)> {
        let pat = self.pattern().as_bytes();
        if pattern::matches(pat, path) {
            return Some((pat.len(), false));
        }
        if self.entry.allow {
            if let Some(keep) = pattern::index_fallback(pat) {
                let (dir, _) = pat.split_at(keep);
                if index_matches(dir, path) {
                    return Some((keep + 1, true));
                }
            }
        }
        None
    }

    pub(crate) fn view(&self) -> RuleView<'a> {
        RuleView {
            line: self.line(),
            kind: self.kind(),
            pattern: self.pattern(),
            written: self.as_written(),
        }
    }
}

/// Returns true if the pattern `dir` followed by `$` matches `path`.
fn index_matches(dir: &[u8], path: &[u8]) -> bool {
    let mut pat = alloc::vec::Vec::with_capacity(dir.len() + 1);
    pat.extend_from_slice(dir);
    pat.push(b'$');
    pattern::matches(&pat, path)
}

impl fmt::Debug for Rule<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Rule")
            .field("line", &self.line())
            .field("kind", &self.kind())
            .field("pattern", &self.pattern())
            .finish()
    }
}

/// A `sitemap` line. Sitemaps are global: they belong to no group.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub struct Sitemap<'a> {
    line: u32,
    url: &'a [u8],
}

impl<'a> Sitemap<'a> {
    /// The line number.
    pub fn line(&self) -> u32 {
        self.line
    }

    /// The value as written (trimmed): normally an absolute URL, but not
    /// checked.
    pub fn url(&self) -> &'a [u8] {
        self.url
    }

    /// The value as text, with invalid UTF-8 replaced.
    pub fn url_lossy(&self) -> Cow<'a, str> {
        String::from_utf8_lossy(self.url)
    }
}

/// A line with a key and value whose key is not one of the four fields.
///
/// It changes no verdict. Its key is kept as written; its value is
/// normalised like a pattern, as the reference does, and also kept as
/// written.
#[derive(Clone, Copy)]
pub struct UnknownDirective<'a> {
    robots: &'a Robots,
    entry: &'a UnknownEntry,
}

impl<'a> UnknownDirective<'a> {
    /// The line number.
    pub fn line(&self) -> u32 {
        self.entry.line
    }

    /// The key as written, such as `Crawl-delay`.
    pub fn key(&self) -> &'a [u8] {
        self.robots.bytes(self.entry.off, self.entry.key_len)
    }

    /// The key as text, with invalid UTF-8 replaced.
    pub fn key_lossy(&self) -> Cow<'a, str> {
        String::from_utf8_lossy(self.key())
    }

    /// The value, normalised as the reference does for unknown keys.
    pub fn value(&self) -> &'a str {
        let e = self.entry;
        self.robots.ascii(e.off + e.key_len, e.len)
    }

    /// The value as written (trimmed, comment removed).
    pub fn as_written(&self) -> &'a [u8] {
        let e = self.entry;
        let value = e.off + e.key_len;
        if e.differs {
            self.robots.bytes(value + e.len, e.written_len)
        } else {
            self.robots.bytes(value, e.len)
        }
    }

    /// Returns true if and only if the key is one that Google knows but
    /// does not use ([`UNUSED_KEYS`](crate::UNUSED_KEYS)).
    pub fn is_unused(&self) -> bool {
        let key = self.key();
        crate::UNUSED_KEYS
            .iter()
            .any(|k| key.eq_ignore_ascii_case(k.as_bytes()))
    }
}

impl fmt::Debug for UnknownDirective<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("UnknownDirective")
            .field("line", &self.line())
            .field("key", &self.key_lossy())
            .field("value", &self.value())
            .finish()
    }
}
