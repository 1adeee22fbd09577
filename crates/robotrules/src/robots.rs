//! The parsed file: the entry point to its groups, rules, sitemaps and
//! other lines, and to verdicts.

use alloc::boxed::Box;
use alloc::vec::Vec;
use core::fmt;
use core::mem::size_of;

use crate::directive::{Sitemap, UnknownDirective};
use crate::extension::Extension;
use crate::group::{Group, GroupEntry, GroupSet, Selection};
use crate::matcher::{Decision, Matcher};
use crate::options::{MatchOptions, ParseOptions, Semantics};
use crate::parse;
use crate::path::match_path;
use crate::pattern;
use crate::report::{LineReport, Tag};
use crate::rule::Rule;
use crate::store::Entries;
use crate::verdict::{self, Best};

/// How many lines apart the store keeps a checkpoint, for `Robots::line`.
pub(crate) const CHECKPOINT_EVERY: u32 = 64;

/// A parsed robots.txt file.
///
/// Build one with [`Robots::parse`], which accepts any bytes and never
/// fails. A `Robots` is immutable, `Send` and `Sync`: parse once, then
/// check as many URLs as you like, from as many threads as you like (wrap
/// it in an [`Arc`](alloc::sync::Arc) to share it).
///
/// For one check, use [`Robots::is_allowed`]. For many checks for the
/// same crawler, build a [`Matcher`] once with [`Robots::matcher`]. A
/// crawler that needs only verdicts can skip the `Robots` altogether:
/// [`Matcher::parse`] reads the body for one crawler, faster.
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
    /// The store position of lines 1 + CHECKPOINT_EVERY, 1 + 2 ×
    /// CHECKPOINT_EVERY, … (line 1 is at 0).
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
    /// byte for byte, including its quirks.
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
        parse::parse(body, ParseOptions::new())
    }

    /// Parses a robots.txt body with other than the reference's reading:
    /// see [`ParseOptions`].
    ///
    /// # Example
    ///
    /// ```
    /// use robotrules::{ParseOptions, Robots};
    ///
    /// let body = b"user-agent: *\ndissallow: /a\ndisallow: /b\n";
    /// let strict = Robots::parse_with(body, ParseOptions::new().strict(true));
    /// assert!(strict.is_allowed("FooBot", "/a"));
    /// assert!(!strict.is_allowed("FooBot", "/b"));
    /// // The reference accepts the typo.
    /// assert!(!Robots::parse(body).is_allowed("FooBot", "/a"));
    /// ```
    pub fn parse_with(body: &[u8], options: ParseOptions) -> Robots {
        parse::parse(body, options)
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
    /// for the same crawler, [`Robots::matcher`] is faster; to parse and
    /// check for one crawler, [`Matcher::parse`] is.
    pub fn is_allowed(&self, agent: &str, url: &str) -> bool {
        self.decide(&[agent], url).is_allowed()
    }

    /// Returns the verdict for `url` and the rule that decided it, for a
    /// crawler known by the given names (several tokens at once, merged as one crawler).
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
        self.decide_with(agents, url, MatchOptions::new())
    }

    /// [`Robots::decide`] with other than the reference's matching: see
    /// [`MatchOptions`].
    ///
    /// # Example
    ///
    /// ```
    /// use robotrules::{MatchOptions, Robots};
    ///
    /// let robots = Robots::parse(b"user-agent: *\ndisallow: /\n");
    /// let adsbot = MatchOptions::new().ignore_global(true);
    /// assert!(robots.decide_with(&["AdsBot-Google"], "/x", adsbot).is_allowed());
    /// assert!(!robots.decide(&["AdsBot-Google"], "/x").is_allowed());
    /// ```
    pub fn decide_with<'a>(
        &'a self,
        agents: &[&str],
        url: &str,
        options: MatchOptions,
    ) -> Decision<'a> {
        let path = match_path(url);
        let path = &*path;
        if options.get_semantics() == Semantics::FirstMatch1996 {
            let selection = self.select_with(agents, options);
            return verdict::first_match(selection.rules(), path);
        }
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
            } else if is_global && !named && !options.get_ignore_global() {
                global.add_rules(group, path, &mut path_set);
            }
        }
        let best = if named { specific } else { global };
        best.decision()
    }

    /// Returns a matcher for the crawler known by the given names, for
    /// any number of checks: it is ready at about the cost of copying the
    /// crawler's rules, and indexes them once its checks prove busy (see
    /// [`Matcher`]).
    ///
    /// The groups that apply are merged once (RFC 9309 §2.2.1): every group that
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
        Matcher::new(self, agents, MatchOptions::new())
    }

    /// [`Robots::matcher`] with other than the reference's matching: see
    /// [`MatchOptions`].
    pub fn matcher_with(
        &self,
        agents: &[&str],
        options: MatchOptions,
    ) -> Matcher {
        Matcher::new(self, agents, options)
    }

    /// A matcher for the groups at `groups` (each a [`Group::index`]),
    /// as [`Robots::matcher`] makes one for a crawler that they apply to:
    /// for tools that have chosen the groups already, such as an audit of
    /// many crawlers, so that they are not chosen again. Indices are
    /// taken in file order, each once; an index past the last group is
    /// skipped. `named` is what [`Matcher::is_named`] reports.
    ///
    /// # Example
    ///
    /// ```
    /// use robotrules::Robots;
    ///
    /// let robots = Robots::parse(b"user-agent: *\ndisallow: /a\n\
    ///                              user-agent: b\ndisallow: /b\n");
    /// let selection = robots.select(&["b"]);
    /// let groups: Vec<usize> = selection.groups().map(|g| g.index()).collect();
    /// let matcher = robots.matcher_for_groups(&groups, selection.is_named());
    /// assert_eq!(matcher.decide("/b"), robots.matcher(&["b"]).decide("/b"));
    /// assert!(matcher.is_named() && matcher.is_allowed("/a"));
    /// ```
    pub fn matcher_for_groups(
        &self,
        groups: &[usize],
        named: bool,
    ) -> Matcher {
        let n = self.groups.len();
        let in_order = groups.windows(2).all(|w| w[0] < w[1])
            && groups.last().is_none_or(|&g| g < n);
        let mut owned = Vec::new();
        let chosen = if in_order {
            groups
        } else {
            owned.extend(groups.iter().copied().filter(|&g| g < n));
            owned.sort_unstable();
            owned.dedup();
            &owned[..]
        };
        Matcher::of_groups(
            self,
            || chosen.iter().map(|&index| Group { robots: self, index }),
            named,
            MatchOptions::new(),
        )
    }

    /// Returns which groups apply to the crawler known by `agents`, and
    /// why (RFC 9309 §2.2.1): every group that names one of them, or, if none
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
        self.select_with(agents, MatchOptions::new())
    }

    /// [`Robots::select`] with [`MatchOptions`]: with
    /// [`MatchOptions::ignore_global`], the `*` groups never apply.
    pub fn select_with<'a>(
        &'a self,
        agents: &[&str],
        options: MatchOptions,
    ) -> Selection<'a> {
        let mut named = GroupSet::default();
        let mut global = GroupSet::default();
        for group in self.groups() {
            let (is_named, is_global) = group.applies_to(agents);
            if is_named {
                named.push(group.index);
            } else if is_global {
                global.push(group.index);
            }
        }
        Selection {
            robots: self,
            is_named: !named.is_empty(),
            ignore_global: options.get_ignore_global(),
            named,
            global,
        }
    }

    /// Returns the groups, in file order.
    ///
    /// A group is a run of `user-agent` lines and the rules after them; a
    /// new group starts only at a `user-agent` line that follows an
    /// `allow` or `disallow` line (RFC 9309 §2.2.1).
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
    /// `disallow` and `sitemap` (RFC 9309 §2.2.4), in file order.
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
        let pos = match checkpoint.checked_sub(1) {
            None => 0,
            Some(i) => *self.checkpoints.get(i as usize)? as usize,
        };
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

    pub(crate) fn entries(
        &self,
        pos: usize,
        end: usize,
        line: u32,
    ) -> Entries<'_> {
        Entries { s: &self.store, pos, end, line }
    }

    pub(crate) fn all_entries(&self) -> Entries<'_> {
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
