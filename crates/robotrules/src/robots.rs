//! The parsed file and its parts.

use alloc::borrow::Cow;
use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;
use core::mem::size_of;

use crate::extension::{Extension, ExtensionValue, RequestRate, VisitTime};
use crate::matcher::{DecidingRule, Decision, Matcher};
use crate::parse;
use crate::path::{match_path, path_of, until_nul};
use crate::pattern;
use crate::report::{LineReport, Tag};
use crate::store::{Entries, Entry};

/// How many lines apart the store keeps a checkpoint, for `Robots::line`.
pub(crate) const CHECKPOINT_EVERY: u32 = 64;

/// Where a group is in the store.
#[derive(Clone, Copy, Debug)]
pub(crate) struct GroupEntry {
    /// The store position and line of the group's first user-agent line.
    pub(crate) pos: u32,
    pub(crate) line: u32,
    /// Where the next group starts (or the store ends), and the line
    /// before it.
    pub(crate) end_pos: u32,
    pub(crate) end_line: u32,
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
    /// One entry per line (see the `store` module).
    pub(crate) store: Box<[u8]>,
    pub(crate) groups: Box<[GroupEntry]>,
    /// The store position of lines 1, 1 + CHECKPOINT_EVERY, …
    pub(crate) checkpoints: Box<[u32]>,
    pub(crate) line_count: u32,
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
    /// ([`path_of`]).
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
        let mut set = None;
        let mut path_set =
            || *set.get_or_insert_with(|| pattern::byte_set(path));
        for group in self.groups() {
            let (is_named, is_global) = group.applies_to(agents);
            if is_named {
                named = true;
                specific.add_rules(group, path, &mut path_set);
            } else if is_global && !named {
                global.add_rules(group, path, &mut path_set);
            }
        }
        let best = if named { specific } else { global };
        best.decision()
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

    /// Returns which groups apply to the crawler known by `agents`, and
    /// why (REP.md §6): every group that names one of them, or, if none
    /// does, every `*` group.
    ///
    /// # Example
    ///
    /// ```
    /// use robotrules::Robots;
    ///
    /// let robots = Robots::parse(b"user-agent: *\ndisallow: /\nuser-agent: foobot\nallow: /\n");
    /// let selection = robots.select(&["FooBot"]);
    /// assert!(selection.is_named());
    /// assert_eq!(selection.groups().map(|g| g.line()).collect::<Vec<_>>(), [3]);
    /// assert_eq!(selection.ignored_global_groups().count(), 1);
    /// ```
    pub fn select<'a>(&'a self, agents: &[&str]) -> Selection<'a> {
        let mut named = Vec::new();
        let mut global = Vec::new();
        for group in self.groups() {
            let (is_named, is_global) = group.applies_to(agents);
            if is_named {
                named.push(group.index);
            } else if is_global {
                global.push(group.index);
            }
        }
        Selection { robots: self, is_named: !named.is_empty(), named, global }
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
    pub fn orphan_rules(&self) -> impl Iterator<Item = Rule<'_>> + '_ {
        let end =
            self.groups.first().map_or(self.store.len(), |g| g.pos as usize);
        self.entries(0, end, 1)
            .filter_map(|(line, e)| Rule::from_entry(line, &e))
    }

    /// Returns the `sitemap` lines, in file order, wherever they are.
    pub fn sitemaps(&self) -> impl Iterator<Item = Sitemap<'_>> + '_ {
        self.all_entries().filter_map(|(line, e)| {
            (e.tag == Some(Tag::Sitemap))
                .then_some(Sitemap { line, url: e.value })
        })
    }

    /// Returns the lines whose key is none of `user-agent`, `allow`,
    /// `disallow` and `sitemap` (REP.md §5.6), in file order.
    pub fn unknown_directives(
        &self,
    ) -> impl Iterator<Item = UnknownDirective<'_>> + '_ {
        self.all_entries()
            .filter_map(|(line, e)| UnknownDirective::from_entry(line, &e))
    }

    /// Returns the directives of [`ExtensionKind`](crate::ExtensionKind)s
    /// (`crawl-delay`, `request-rate`, `host`, …), in file order, with
    /// their typed values. They never change a verdict.
    ///
    /// # Example
    ///
    /// ```
    /// use robotrules::{ExtensionValue, Robots};
    ///
    /// let robots = Robots::parse(b"user-agent: *\ncrawl-delay: 2.5\nhost: example.com\n");
    /// let values: Vec<_> = robots.extensions().map(|e| e.value()).collect();
    /// assert_eq!(values[0], Ok(ExtensionValue::CrawlDelay(2.5)));
    /// assert_eq!(values[1], Ok(ExtensionValue::Host("example.com")));
    /// ```
    pub fn extensions(&self) -> impl Iterator<Item = Extension<'_>> + '_ {
        self.unknown_directives().filter_map(Extension::from_directive)
    }

    /// Returns the report of every line, in order, from line 1.
    ///
    /// There is always at least one line: the text after the last line
    /// break is a line, even if empty.
    pub fn lines(&self) -> impl ExactSizeIterator<Item = LineReport> + '_ {
        let mut entries = self.all_entries();
        (0..self.line_count).map(move |i| match entries.next() {
            Some((number, e)) => LineReport::new(number, e.bits, e.tag),
            None => LineReport::new(i + 1, 0, None),
        })
    }

    /// Returns the report of line `number` (from 1), if there is one.
    pub fn line(&self, number: u32) -> Option<LineReport> {
        let index = number.checked_sub(1)?;
        if index >= self.line_count {
            return None;
        }
        let checkpoint = index / CHECKPOINT_EVERY;
        let pos = *self.checkpoints.get(checkpoint as usize)? as usize;
        let first = checkpoint * CHECKPOINT_EVERY + 1;
        let (line, e) = self
            .entries(pos, self.store.len(), first)
            .nth((number - first) as usize)?;
        Some(LineReport::new(line, e.bits, e.tag))
    }

    /// Returns the number of lines.
    pub fn line_count(&self) -> usize {
        self.line_count as usize
    }

    /// Returns true if and only if the body was longer than
    /// [`MAX_BODY_LEN`](crate::MAX_BODY_LEN), so that its end was not
    /// parsed.
    pub fn is_truncated(&self) -> bool {
        self.truncated
    }

    /// Returns the number of heap bytes this `Robots` holds on to.
    ///
    /// Comments, the names of the four fields and whitespace are not kept:
    /// this is less than the size of the file unless many values need
    /// escaping.
    pub fn heap_size(&self) -> usize {
        self.store.len()
            + self.groups.len() * size_of::<GroupEntry>()
            + self.checkpoints.len() * size_of::<u32>()
    }

    /// Writes the file back out in a normalised form: one directive per
    /// line with its canonical key (`User-agent`, `Allow`, `Disallow`,
    /// `Sitemap`, or the unknown key as written), a colon and a space, and
    /// the value as written; every other line empty. Line numbers are kept,
    /// and parsing the result gives the same groups, rules, sitemaps,
    /// unknown directives and verdicts. Comments, typos, missing colons,
    /// a BOM and the ends of too-long lines are gone.
    ///
    /// # Example
    ///
    /// ```
    /// use robotrules::Robots;
    ///
    /// let robots = Robots::parse(b"useragent FooBot # me\n\ndissallow: /x\n");
    /// assert_eq!(robots.to_canonical(), b"User-agent: FooBot\n\nDisallow: /x\n");
    /// ```
    pub fn to_canonical(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.store.len() * 2);
        for (line, e) in self.all_entries() {
            if line > 1 {
                out.push(b'\n');
            }
            let (key, value): (&[u8], &[u8]) = match e.tag {
                None => continue,
                Some(Tag::UserAgent) => (b"User-agent", e.value),
                Some(Tag::Allow) => (b"Allow", e.written),
                Some(Tag::Disallow) => (b"Disallow", e.written),
                Some(Tag::Sitemap) => (b"Sitemap", e.value),
                Some(Tag::Unknown | Tag::Unused) => (e.key, e.written),
            };
            out.extend_from_slice(key);
            // A line at the length cap held no more than key, separator
            // and value: drop the space so that nothing is cut again.
            let tight = key.len() + 2 + value.len() > parse::MAX_LINE_LEN;
            out.extend_from_slice(if tight { b":" } else { b": " });
            out.extend_from_slice(value);
        }
        // Text that starts like a BOM would lose those bytes to the BOM
        // skip: put a real BOM in front for the parser to skip instead.
        if out.first() == Some(&0xEF) {
            out.splice(0..0, *b"\xEF\xBB\xBF");
        }
        out
    }

    fn entries(&self, pos: usize, end: usize, line: u32) -> Entries<'_> {
        Entries { s: &self.store, pos, end, line }
    }

    fn all_entries(&self) -> Entries<'_> {
        self.entries(0, self.store.len(), 1)
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

/// The groups that apply to a crawler: see [`Robots::select`].
#[derive(Clone, Debug)]
pub struct Selection<'a> {
    robots: &'a Robots,
    is_named: bool,
    named: Vec<usize>,
    global: Vec<usize>,
}

impl<'a> Selection<'a> {
    /// Returns true if and only if some group names the crawler, so that
    /// every `*` group is ignored for it.
    pub fn is_named(&self) -> bool {
        self.is_named
    }

    /// The groups whose rules apply, merged: the named ones, or else the
    /// `*` ones.
    pub fn groups(&self) -> impl Iterator<Item = Group<'a>> + '_ {
        let chosen = if self.is_named { &self.named } else { &self.global };
        chosen.iter().map(|&index| Group { robots: self.robots, index })
    }

    /// The `*` groups that do not apply because the crawler is named.
    pub fn ignored_global_groups(
        &self,
    ) -> impl Iterator<Item = Group<'a>> + '_ {
        let ignored = if self.is_named { &self.global[..] } else { &[][..] };
        ignored.iter().map(|&index| Group { robots: self.robots, index })
    }

    /// The rules of [`Selection::groups`], in file order.
    pub fn rules(&self) -> impl Iterator<Item = Rule<'a>> + '_ {
        self.groups().flat_map(|g| g.rules())
    }
}

/// The best allow and disallow match of one tier (specific or global), as
/// the reference keeps them: (priority, rule, through the index retry).
#[derive(Default)]
struct Best<'a> {
    allow: Option<(usize, Rule<'a>, bool)>,
    disallow: Option<(usize, Rule<'a>, bool)>,
}

impl<'a> Best<'a> {
    fn add_rules(
        &mut self,
        group: Group<'a>,
        path: &[u8],
        path_set: &mut impl FnMut() -> u128,
    ) {
        for rule in group.rules() {
            if let Some((priority, via_index)) =
                rule.priority_in(path, path_set)
            {
                let slot = if rule.allow {
                    &mut self.allow
                } else {
                    &mut self.disallow
                };
                // Strictly greater: among equals the earlier line is kept.
                if slot.is_none_or(|(p, _, _)| priority > p) {
                    *slot = Some((priority, rule, via_index));
                }
            }
        }
    }

    fn decision(self) -> Decision<'a> {
        let a = self.allow.map_or(-1, |(p, _, _)| p as i64);
        let d = self.disallow.map_or(-1, |(p, _, _)| p as i64);
        // The reference's `matching_line`: the disallow only if strictly
        // better, so a tie names the allow.
        let winner = if d > a { self.disallow } else { self.allow };
        let allowed = !(d > a && d > 0);
        let rule = winner.map(|(priority, rule, via_index)| {
            DecidingRule::new(rule.view(), priority, via_index)
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

    fn entries(&self) -> Entries<'a> {
        let e = self.entry();
        self.robots.entries(e.pos as usize, e.end_pos as usize, e.line)
    }

    /// The group's position among the groups, from 0.
    pub fn index(&self) -> usize {
        self.index
    }

    /// The line of the group's first `user-agent` line.
    pub fn line(&self) -> u32 {
        self.entry().line
    }

    /// The last line before the next group starts (or the file's last
    /// line). Unknown directives between [`Group::line`] and this line,
    /// such as `crawl-delay`, belong to the group.
    pub fn end_line(&self) -> u32 {
        self.entry().end_line
    }

    /// The group's `user-agent` lines.
    pub fn agents(&self) -> impl Iterator<Item = Agent<'a>> + 'a {
        // They all come before the group's first rule: a user-agent line
        // after a rule starts the next group.
        let before_rules = |(_, e): &(u32, Entry<'a>)| {
            !matches!(e.tag, Some(Tag::Allow | Tag::Disallow))
        };
        self.entries()
            .take_while(before_rules)
            .filter(|(_, e)| e.tag == Some(Tag::UserAgent))
            .map(|(line, e)| Agent {
                line,
                value: e.value,
                token: &e.value[..e.token_len],
                global: e.global,
            })
    }

    /// The group's `allow` and `disallow` lines, in file order.
    pub fn rules(&self) -> impl Iterator<Item = Rule<'a>> + 'a {
        self.entries().filter_map(|(line, e)| Rule::from_entry(line, &e))
    }

    /// The unknown directives that belong to the group (from its first
    /// `user-agent` line up to the next group).
    pub fn unknown_directives(
        &self,
    ) -> impl Iterator<Item = UnknownDirective<'a>> + 'a {
        self.entries()
            .filter_map(|(line, e)| UnknownDirective::from_entry(line, &e))
    }

    /// The group's extension directives (see [`Robots::extensions`]).
    pub fn extensions(&self) -> impl Iterator<Item = Extension<'a>> + 'a {
        self.unknown_directives().filter_map(Extension::from_directive)
    }

    /// The group's crawl delay in seconds: the first valid `crawl-delay`.
    ///
    /// # Example
    ///
    /// ```
    /// use robotrules::Robots;
    ///
    /// let robots = Robots::parse(b"user-agent: a\ncrawl-delay: x\ncrawl-delay: 0.5\n");
    /// assert_eq!(robots.groups().next().unwrap().crawl_delay(), Some(0.5));
    /// ```
    pub fn crawl_delay(&self) -> Option<f64> {
        self.extensions().find_map(|e| match e.value() {
            Ok(ExtensionValue::CrawlDelay(s)) => Some(s),
            _ => None,
        })
    }

    /// The group's request rate: the first valid `request-rate`.
    pub fn request_rate(&self) -> Option<RequestRate> {
        self.extensions().find_map(|e| match e.value() {
            Ok(ExtensionValue::RequestRate(r)) => Some(r),
            _ => None,
        })
    }

    /// The group's visit window: the first valid `visit-time`.
    pub fn visit_time(&self) -> Option<VisitTime> {
        self.extensions().find_map(|e| match e.value() {
            Ok(ExtensionValue::VisitTime(t)) => Some(t),
            _ => None,
        })
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
            .field("agents", &self.agents().collect::<Vec<_>>())
            .field("rules", &self.rules().collect::<Vec<_>>())
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
    line: u32,
    allow: bool,
    /// Normalised, so ASCII.
    pattern: &'a [u8],
    written: &'a [u8],
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
    fn from_entry(line: u32, e: &Entry<'a>) -> Option<Rule<'a>> {
        let allow = match e.tag? {
            Tag::Allow => true,
            Tag::Disallow => false,
            _ => return None,
        };
        Some(Rule { line, allow, pattern: e.value, written: e.written })
    }

    /// The line number.
    pub fn line(&self) -> u32 {
        self.line
    }

    /// Allow or disallow.
    pub fn kind(&self) -> RuleKind {
        if self.allow {
            RuleKind::Allow
        } else {
            RuleKind::Disallow
        }
    }

    /// The normalised pattern, which is what paths are matched against
    /// ([`escape_pattern`](crate::escape_pattern)).
    pub fn pattern(&self) -> &'a str {
        // Normalised patterns are ASCII, so this never falls back.
        core::str::from_utf8(self.pattern).unwrap_or_default()
    }

    /// The value as written in the file (trimmed, comment removed).
    pub fn as_written(&self) -> &'a [u8] {
        self.written
    }

    /// The pattern's priority when it matches: its length in bytes.
    pub fn priority(&self) -> usize {
        self.pattern.len()
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
        self.priority_in(path, &mut || pattern::byte_set(path))
    }

    /// Like `priority_for_path`, with the path's byte set computed by
    /// `path_set` at most once.
    fn priority_in(
        &self,
        path: &[u8],
        path_set: &mut impl FnMut() -> u128,
    ) -> Option<(usize, bool)> {
        let pat = self.pattern;
        if pattern::matches_in(pat, path, path_set) {
            return Some((pat.len(), false));
        }
        if self.allow {
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
            line: self.line,
            kind: self.kind(),
            pattern: self.pattern(),
            written: self.written,
        }
    }
}

/// Returns true if the pattern `dir` followed by `$` matches `path`.
fn index_matches(dir: &[u8], path: &[u8]) -> bool {
    let mut pat = Vec::with_capacity(dir.len() + 1);
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
    line: u32,
    unused: bool,
    key: &'a [u8],
    value: &'a str,
    written: &'a [u8],
}

impl<'a> UnknownDirective<'a> {
    fn from_entry(line: u32, e: &Entry<'a>) -> Option<UnknownDirective<'a>> {
        let unused = match e.tag? {
            Tag::Unknown => false,
            Tag::Unused => true,
            _ => return None,
        };
        let value = core::str::from_utf8(e.value).unwrap_or_default();
        Some(UnknownDirective {
            line,
            unused,
            key: e.key,
            value,
            written: e.written,
        })
    }

    /// The line number.
    pub fn line(&self) -> u32 {
        self.line
    }

    /// The key as written, such as `Crawl-delay`.
    pub fn key(&self) -> &'a [u8] {
        self.key
    }

    /// The key as text, with invalid UTF-8 replaced.
    pub fn key_lossy(&self) -> Cow<'a, str> {
        String::from_utf8_lossy(self.key)
    }

    /// The value, normalised as the reference does for unknown keys.
    pub fn value(&self) -> &'a str {
        self.value
    }

    /// The value as written (trimmed, comment removed).
    pub fn as_written(&self) -> &'a [u8] {
        self.written
    }

    /// Returns true if and only if the key is one that Google knows but
    /// does not use ([`UNUSED_KEYS`](crate::UNUSED_KEYS)).
    pub fn is_unused(&self) -> bool {
        self.unused
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
