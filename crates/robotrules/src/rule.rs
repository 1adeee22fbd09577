//! `allow` and `disallow` rules (RFC 9309 §2.2.2).

use alloc::vec::Vec;
use core::fmt;

use crate::path::{path_of, until_nul};
use crate::pattern;
use crate::report::Tag;
use crate::store::Entry;

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
    pub(crate) allow: bool,
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
    pub(crate) fn from_entry(line: u32, e: &Entry<'a>) -> Option<Rule<'a>> {
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

    /// The normalised pattern's bytes.
    pub(crate) fn pattern_bytes(&self) -> &'a [u8] {
        self.pattern
    }

    /// The value as written in the file (trimmed, comment removed).
    pub fn as_written(&self) -> &'a [u8] {
        self.written
    }

    /// The pattern's priority when it matches: its length in bytes.
    pub fn priority(&self) -> usize {
        self.pattern.len()
    }

    /// The directory an `allow` rule also allows through the reference's
    /// index.html retry, if it has one: `/d/` for `Allow: /d/index.html`.
    ///
    /// An allow rule whose last segment starts with `/index.htm` also
    /// matches exactly its directory when its own pattern does not match,
    /// with that directory's length plus one as priority: equal for every
    /// rule of the same directory, so the earliest of them decides there.
    ///
    /// # Example
    ///
    /// ```
    /// use robotrules::Robots;
    ///
    /// let robots = Robots::parse(b"user-agent: *\nallow: /d/index.html\ndisallow: /d/index.html\n");
    /// let mut rules = robots.groups().next().unwrap().rules();
    /// assert_eq!(rules.next().unwrap().index_directory(), Some("/d/"));
    /// assert_eq!(rules.next().unwrap().index_directory(), None);
    /// ```
    pub fn index_directory(&self) -> Option<&'a str> {
        if !self.allow {
            return None;
        }
        let keep = pattern::index_fallback(self.pattern)?;
        self.pattern().get(..keep)
    }

    /// Returns the priority with which this rule matches the URL's path,
    /// or `None` if it does not match.
    ///
    /// For an `allow` rule whose last segment starts with `/index.htm`,
    /// this includes the reference's retry with the directory (Google's reference),
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
    pub(crate) fn priority_in(
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
