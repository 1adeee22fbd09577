//! The per-line report: what the parser made of each line.

use core::fmt;

/// What a line's directive was recognised as.
///
/// These are the reference reporter's tag names. A line with no directive
/// (empty, comment only, no separator) has no tag: see
/// [`LineReport::tag`].
#[derive(Clone, Copy, Debug, Eq, Hash, PartialEq)]
#[non_exhaustive]
pub enum Tag {
    /// A `user-agent` line (or an accepted typo of it).
    UserAgent,
    /// An `allow` line.
    Allow,
    /// A `disallow` line (or an accepted typo of it).
    Disallow,
    /// A `sitemap` line (or `site-map`).
    Sitemap,
    /// A directive Google does not know: `foo: bar`.
    Unknown,
    /// A directive Google knows but does not use: one of
    /// [`UNUSED_KEYS`](crate::UNUSED_KEYS), such as `crawl-delay`.
    Unused,
}

impl Tag {
    /// The reference reporter's name for the tag: `UserAgent`, `Allow`,
    /// `Disallow`, `Sitemap`, `Unknown` or `Unused`.
    pub fn name(self) -> &'static str {
        match self {
            Tag::UserAgent => "UserAgent",
            Tag::Allow => "Allow",
            Tag::Disallow => "Disallow",
            Tag::Sitemap => "Sitemap",
            Tag::Unknown => "Unknown",
            Tag::Unused => "Unused",
        }
    }
}

impl fmt::Display for Tag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

pub(crate) const EMPTY: u8 = 1 << 0;
pub(crate) const HAS_COMMENT: u8 = 1 << 1;
pub(crate) const IS_COMMENT: u8 = 1 << 2;
pub(crate) const HAS_DIRECTIVE: u8 = 1 << 3;
pub(crate) const TYPO: u8 = 1 << 4;
pub(crate) const TOO_LONG: u8 = 1 << 5;
pub(crate) const MISSING_COLON: u8 = 1 << 6;
/// Set on lines that hold a NUL byte (an extension: the reference does
/// not report it).
pub(crate) const HAS_NUL: u8 = 1 << 7;

/// What the parser found on one line, equal to the reference's line
/// metadata and tag (`RobotsParsingReporter`).
///
/// # Example
///
/// ```
/// use robotrules::{Robots, Tag};
///
/// let robots = Robots::parse(b"User-agent: a\nDissalow /x # typo\n");
/// let line = robots.line(2).unwrap();
/// assert_eq!(line.tag(), Some(Tag::Disallow));
/// assert!(line.is_typo());
/// assert!(line.is_missing_colon());
/// assert!(line.has_comment());
/// ```
#[derive(Clone, Copy, Eq, Hash, PartialEq)]
pub struct LineReport {
    number: u32,
    bits: u8,
    tag: Option<Tag>,
}

impl LineReport {
    pub(crate) fn new(number: u32, bits: u8, tag: Option<Tag>) -> LineReport {
        LineReport { number, bits, tag }
    }

    /// The line number, counted from 1.
    pub fn number(&self) -> u32 {
        self.number
    }

    /// The directive the line holds, or `None` if it holds none. (The
    /// reference reports such lines with the tag `Unknown`.)
    pub fn tag(&self) -> Option<Tag> {
        self.tag
    }

    /// Returns true if and only if the line is empty or only whitespace.
    pub fn is_empty(&self) -> bool {
        self.bits & EMPTY != 0
    }

    /// Returns true if and only if the line has a `#` comment.
    pub fn has_comment(&self) -> bool {
        self.bits & HAS_COMMENT != 0
    }

    /// Returns true if and only if the line is only a comment (and
    /// whitespace).
    pub fn is_comment(&self) -> bool {
        self.bits & IS_COMMENT != 0
    }

    /// Returns true if and only if the line holds a key and value.
    pub fn has_directive(&self) -> bool {
        self.bits & HAS_DIRECTIVE != 0
    }

    /// Returns true if and only if the key is an accepted typo, such as
    /// `useragent` or `dissallow` (as Google's reference accepts them).
    pub fn is_typo(&self) -> bool {
        self.bits & TYPO != 0
    }

    /// Returns true if and only if the line was longer than
    /// [`MAX_LINE_LEN`](crate::MAX_LINE_LEN) bytes, so its end was ignored.
    pub fn is_too_long(&self) -> bool {
        self.bits & TOO_LONG != 0
    }

    /// Returns true if and only if key and value were separated by
    /// whitespace instead of a colon (`disallow /x`).
    pub fn is_missing_colon(&self) -> bool {
        self.bits & MISSING_COLON != 0
    }

    /// Returns true if and only if the line holds a NUL byte, which ends
    /// its content for the parser. The reference has no such flag.
    pub fn has_nul(&self) -> bool {
        self.bits & HAS_NUL != 0
    }
}

impl fmt::Debug for LineReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LineReport")
            .field("number", &self.number)
            .field("tag", &self.tag())
            .field("is_empty", &self.is_empty())
            .field("has_comment", &self.has_comment())
            .field("is_comment", &self.is_comment())
            .field("has_directive", &self.has_directive())
            .field("is_typo", &self.is_typo())
            .field("is_too_long", &self.is_too_long())
            .field("is_missing_colon", &self.is_missing_colon())
            .field("has_nul", &self.has_nul())
            .finish()
    }
}
