//! Readings other than the reference's, as plain data.
//!
//! The defaults reproduce Google's reference parser and matcher exactly;
//! each option departs from it in one named way.

/// How a robots.txt body is read: see [`Robots::parse_with`].
///
/// [`Robots::parse_with`]: crate::Robots::parse_with
///
/// # Example
///
/// ```
/// use robotrules::{ParseOptions, Robots};
///
/// let options = ParseOptions::new().strict(true);
/// let robots = Robots::parse_with(b"User-agent: *\nDisallowed: /x\n", options);
/// // `Disallowed` is not a key of RFC 9309's grammar.
/// assert_eq!(robots.groups().next().unwrap().rules().count(), 0);
/// ```
#[derive(Clone, Copy, Debug, Default, Eq, Hash, PartialEq)]
#[must_use]
pub struct ParseOptions {
    strict: bool,
}

impl ParseOptions {
    /// The reference's reading.
    pub fn new() -> ParseOptions {
        ParseOptions::default()
    }

    /// Reads the file as RFC 9309's grammar writes it (§2.2): a key is
    /// one of `user-agent`, `allow`, `disallow` and `sitemap` exactly
    /// (ignoring ASCII case), followed by a colon.
    ///
    /// The reference is more lenient, and this turns each leniency off:
    /// keys that merely start with a known key (`Disallowed`,
    /// `User-agent-x`), its accepted typos (`useragent`, `user agent`,
    /// `dissallow`, `dissalow`, `disalow`, `diasllow`, `disallaw`,
    /// `site-map`) and lines with no colon (`disallow /x`). Such lines
    /// become unknown directives, or no directive at all.
    pub fn strict(mut self, yes: bool) -> ParseOptions {
        self.strict = yes;
        self
    }

    /// Returns true if and only if [`ParseOptions::strict`] is set.
    pub fn get_strict(&self) -> bool {
        self.strict
    }
}

/// Which rule decides among those that match a path.
#[derive(Clone, Copy, Debug, Default, Eq, Hash, PartialEq)]
#[non_exhaustive]
pub enum Semantics {
    /// RFC 9309 and Google: the longest match decides, an `allow` wins a
    /// tie, `*` matches any run of bytes and a final `$` the end of the
    /// path.
    #[default]
    LongestMatch,
    /// Martijn Koster's 1996 draft, as Python's `urllib.robotparser`
    /// implements it: the first rule in file order whose value is a prefix
    /// of the path decides; `*` and `$` are plain bytes; `%xx` escapes
    /// other than `%2F` are decoded on both sides before comparing; an
    /// empty `Allow:` or `Disallow:` matches every path and allows it.
    ///
    /// Which groups apply is still decided as the reference does (every
    /// group that names the crawler, else the `*` groups), where
    /// `urllib.robotparser` takes the first group whose user-agent is a
    /// substring of the crawler's name.
    FirstMatch1996,
}

/// How rules are matched: see [`Robots::decide_with`] and
/// [`Robots::matcher_with`].
///
/// [`Robots::decide_with`]: crate::Robots::decide_with
/// [`Robots::matcher_with`]: crate::Robots::matcher_with
///
/// # Example
///
/// ```
/// use robotrules::{MatchOptions, Robots, Semantics};
///
/// let robots = Robots::parse(b"user-agent: *\ndisallow: /a\nallow: /a/b\n");
/// let koster = MatchOptions::new().semantics(Semantics::FirstMatch1996);
/// // The first matching line decides, not the longest.
/// assert!(!robots.matcher_with(&["FooBot"], koster).is_allowed("/a/b"));
/// assert!(robots.matcher(&["FooBot"]).is_allowed("/a/b"));
/// ```
#[derive(Clone, Copy, Debug, Default, Eq, Hash, PartialEq)]
#[must_use]
pub struct MatchOptions {
    ignore_global: bool,
    semantics: Semantics,
}

impl MatchOptions {
    /// The reference's matching.
    pub fn new() -> MatchOptions {
        MatchOptions::default()
    }

    /// Ignores the `*` groups: only groups that name the crawler apply,
    /// and a crawler that no group names may fetch everything.
    ///
    /// This is how Google's AdsBot crawlers read robots.txt: "AdsBot
    /// ignores the global user agent (`*`)" (Google's documentation of
    /// its crawlers).
    pub fn ignore_global(mut self, yes: bool) -> MatchOptions {
        self.ignore_global = yes;
        self
    }

    /// Returns true if and only if [`MatchOptions::ignore_global`] is set.
    pub fn get_ignore_global(&self) -> bool {
        self.ignore_global
    }

    /// Chooses which rule decides among those that match.
    pub fn semantics(mut self, semantics: Semantics) -> MatchOptions {
        self.semantics = semantics;
        self
    }

    /// The semantics in force.
    pub fn get_semantics(&self) -> Semantics {
        self.semantics
    }
}
