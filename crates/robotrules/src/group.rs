//! Groups: `user-agent` lines and the rules after them, and which groups
//! apply to a crawler (RFC 9309 §2.2.1).

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::directive::UnknownDirective;
use crate::extension::{Extension, ExtensionValue, RequestRate, VisitTime};
use crate::report::Tag;
use crate::robots::Robots;
use crate::rule::Rule;
use crate::store::{Entries, Entry};

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

/// The groups that apply to a crawler: see [`Robots::select`].
#[derive(Clone, Debug)]
pub struct Selection<'a> {
    pub(crate) robots: &'a Robots,
    pub(crate) is_named: bool,
    pub(crate) ignore_global: bool,
    pub(crate) named: GroupSet,
    pub(crate) global: GroupSet,
}

/// Group indices in file order: the first few inline (most files have a
/// few groups), the rest on the heap.
#[derive(Clone, Debug, Default)]
pub(crate) struct GroupSet {
    inline: [u32; 8],
    len: usize,
    more: Vec<u32>,
}

impl GroupSet {
    pub(crate) fn push(&mut self, index: usize) {
        match self.inline.get_mut(self.len) {
            Some(slot) => *slot = index as u32,
            None => self.more.push(index as u32),
        }
        self.len += 1;
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        let inline = &self.inline[..self.len.min(self.inline.len())];
        inline.iter().chain(&self.more).map(|&i| i as usize)
    }
}

impl<'a> Selection<'a> {
    /// Returns true if and only if some group names the crawler, so that
    /// every `*` group is ignored for it.
    pub fn is_named(&self) -> bool {
        self.is_named
    }

    /// The groups whose rules apply, merged: the named ones, or else the
    /// `*` ones (none when [`MatchOptions::ignore_global`] is set).
    ///
    /// [`MatchOptions::ignore_global`]: crate::MatchOptions::ignore_global
    pub fn groups(&self) -> impl Iterator<Item = Group<'a>> + '_ {
        let chosen = if self.is_named || self.ignore_global {
            &self.named
        } else {
            &self.global
        };
        chosen.iter().map(|index| Group { robots: self.robots, index })
    }

    /// The `*` groups that do not apply because the crawler is named (or
    /// because [`MatchOptions::ignore_global`] is set).
    ///
    /// [`MatchOptions::ignore_global`]: crate::MatchOptions::ignore_global
    pub fn ignored_global_groups(
        &self,
    ) -> impl Iterator<Item = Group<'a>> + '_ {
        let ignored = self.is_named || self.ignore_global;
        let robots = self.robots;
        self.global
            .iter()
            .filter(move |_| ignored)
            .map(move |index| Group { robots, index })
    }

    /// The rules of [`Selection::groups`], in file order.
    pub fn rules(&self) -> impl Iterator<Item = Rule<'a>> + '_ {
        self.groups().flat_map(|g| g.rules())
    }
}

/// A group: `user-agent` lines and the rules that follow them.
#[derive(Clone, Copy)]
pub struct Group<'a> {
    pub(crate) robots: &'a Robots,
    pub(crate) index: usize,
}

impl<'a> Group<'a> {
    pub(crate) fn entry(&self) -> &'a GroupEntry {
        &self.robots.groups[self.index]
    }

    pub(crate) fn entries(&self) -> Entries<'a> {
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
#[derive(Clone, Copy, Eq, PartialEq)]
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

impl fmt::Debug for Agent<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Agent")
            .field("line", &self.line)
            .field("value", &self.value_lossy())
            .field("global", &self.global)
            .finish()
    }
}
