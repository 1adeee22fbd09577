//! The diagnostic codes.

use std::fmt;

use super::Severity;

/// What a [`Diagnostic`](crate::Diagnostic) is about: a stable code
/// (`RT001`…), a name, a default severity and a general help line.
///
/// Codes in `RT0xx` are about the file as a whole, `RT1xx` about one line,
/// `RT2xx` about what the rules mean together. The checks follow RFC 9309
/// and Google's documentation of how it reads robots.txt
/// (<https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt>).
#[derive(Clone, Copy, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
#[non_exhaustive]
pub enum Code {
    /// RT001 `too-large` (warning): the file is over 500 KiB: crawlers read the first 500 KiB only (RFC 9309 §2.5), and Google ignores the rest.
    TooLarge,
    /// RT002 `bom` (warning): the file starts with a UTF-8 byte order mark.
    Bom,
    /// RT003 `not-utf8` (warning): bytes that are not UTF-8 (RFC 9309 §2.2: the file is UTF-8).
    NotUtf8,
    /// RT004 `cr-line-endings` (warning): lines ended by CR alone.
    CrLineEndings,
    /// RT005 `html` (error): an HTML page served as robots.txt.
    Html,
    /// RT006 `binary` (error): binary data (UTF-16, compressed, an image) served as robots.txt.
    Binary,
    /// RT007 `line-too-long` (error): a line over 16,663 bytes: Google ignores its end.
    LineTooLong,
    /// RT008 `too-many-diagnostics` (warning): more diagnostics than the limits keep: the rest are counted, not shown.
    TooManyDiagnostics,
    /// RT101 `unknown-directive` (warning): an unknown key (with a suggestion when it looks like a typo).
    UnknownDirective,
    /// RT102 `accepted-variant` (warning): a key that Google reads by typo or prefix (`Dissalow`, `Useragent`).
    AcceptedVariant,
    /// RT103 `missing-colon` (warning): a key and value separated by whitespace, not a colon.
    MissingColon,
    /// RT104 `rule-before-user-agent` (error): a rule before any user-agent line, which belongs to no group.
    RuleBeforeUserAgent,
    /// RT105 `bad-user-agent` (warning): a user-agent value that is not a product token (`Googlebot/2.1`, `Foo Bot`), or is empty (an error).
    BadUserAgent,
    /// RT106 `url-as-path` (error): a rule written as a URL: it never matches.
    UrlAsPath,
    /// RT107 `bad-path-start` (error): a rule that starts with neither `/` nor `*`: it never matches.
    BadPathStart,
    /// RT108 `dollar-in-middle` (warning): a `$` that is not last: it is a literal `$`.
    DollarInMiddle,
    /// RT109 `redundant-wildcard` (info): a redundant `*` (`/path*`, `**`): rules match prefixes already.
    RedundantWildcard,
    /// RT110 `bad-sitemap` (error): a sitemap that is not an absolute http(s) URL.
    BadSitemap,
    /// RT111 `bad-extension-value` (warning): an invalid `crawl-delay`, `request-rate`, `visit-time`, `host`, `clean-param` or `content-signal` value.
    BadExtensionValue,
    /// RT112 `ignored-line` (warning): a line that is not a directive.
    IgnoredLine,
    /// RT113 `space-in-rule` (warning): a space or tab inside a rule: URLs are requested with `%20`, so the rule never matches a URL with one.
    SpaceInRule,
    /// RT114 `nul-in-line` (warning): a NUL byte inside a line: Google ignores the rest of the line.
    NulInLine,
    /// RT115 `unrequested-path` (warning): a rule whose path holds what browsers never send in one (`\`, `{`, `}`, `` ` ``, a `.` or `..` segment; `"`, `<`, `>` or a control byte anywhere): it never matches a requested URL.
    UnrequestedPath,
    /// RT116 `comment-in-rule` (warning): a `#` right after a rule's path (`Disallow: /faq#private`): it starts a comment, so the rule is the path before it, and blocks more than the fragment meant.
    CommentInRule,
    /// RT201 `ignored-by-google` (info): a directive Google ignores (`crawl-delay`, `noindex`, `host`, …).
    IgnoredByGoogle,
    /// RT202 `empty-group` (warning): a group with no rules: its crawlers may fetch everything, and the `*` rules do not apply to them.
    EmptyGroup,
    /// RT203 `agent-in-several-groups` (info): the same crawler named in several groups, which are merged.
    AgentInSeveralGroups,
    /// RT204 `global-rules-dropped` (warning): a named group that escapes `*` disallows: a crawler obeys only its own group.
    GlobalRulesDropped,
    /// RT205 `shadowed-rule` (warning): a rule that never decides: a duplicate, or always beaten by another.
    ShadowedRule,
    /// RT206 `equal-priority` (info): an allow and a disallow of equal priority that both match some path: the allow wins.
    EqualPriority,
    /// RT207 `disallow-all` (warning): `Disallow: /` for `*`: every crawler without a group of its own is blocked.
    DisallowAll,
    /// RT208 `assets-blocked` (warning): CSS or JavaScript disallowed (`.css`, `.js`, `.mjs` files, or asset folders).
    AssetsBlocked,
    /// RT209 `sitemap-disallowed` (warning): a sitemap URL that the file itself disallows.
    SitemapDisallowed,
    /// RT210 `merged-groups` (warning): `user-agent` lines apart (a blank line or another directive between) that make one group: the crawlers named first get the rules after.
    MergedGroups,
    /// RT211 `misspelled-crawler` (warning): a name one edit (or a `-` or `_`) away from a known crawler's: its rules do not bind that crawler.
    MisspelledCrawler,
}

impl Code {
    /// Every code, in order.
    pub const ALL: &'static [Code] = &[
        Code::TooLarge,
        Code::Bom,
        Code::NotUtf8,
        Code::CrLineEndings,
        Code::Html,
        Code::Binary,
        Code::LineTooLong,
        Code::TooManyDiagnostics,
        Code::UnknownDirective,
        Code::AcceptedVariant,
        Code::MissingColon,
        Code::RuleBeforeUserAgent,
        Code::BadUserAgent,
        Code::UrlAsPath,
        Code::BadPathStart,
        Code::DollarInMiddle,
        Code::RedundantWildcard,
        Code::BadSitemap,
        Code::BadExtensionValue,
        Code::IgnoredLine,
        Code::SpaceInRule,
        Code::NulInLine,
        Code::UnrequestedPath,
        Code::CommentInRule,
        Code::IgnoredByGoogle,
        Code::EmptyGroup,
        Code::AgentInSeveralGroups,
        Code::GlobalRulesDropped,
        Code::ShadowedRule,
        Code::EqualPriority,
        Code::DisallowAll,
        Code::AssetsBlocked,
        Code::SitemapDisallowed,
        Code::MergedGroups,
        Code::MisspelledCrawler,
    ];

    /// The stable identifier, such as `"RT106"`.
    pub fn id(self) -> &'static str {
        match self {
            Code::TooLarge => "RT001",
            Code::Bom => "RT002",
            Code::NotUtf8 => "RT003",
            Code::CrLineEndings => "RT004",
            Code::Html => "RT005",
            Code::Binary => "RT006",
            Code::LineTooLong => "RT007",
            Code::TooManyDiagnostics => "RT008",
            Code::UnknownDirective => "RT101",
            Code::AcceptedVariant => "RT102",
            Code::MissingColon => "RT103",
            Code::RuleBeforeUserAgent => "RT104",
            Code::BadUserAgent => "RT105",
            Code::UrlAsPath => "RT106",
            Code::BadPathStart => "RT107",
            Code::DollarInMiddle => "RT108",
            Code::RedundantWildcard => "RT109",
            Code::BadSitemap => "RT110",
            Code::BadExtensionValue => "RT111",
            Code::IgnoredLine => "RT112",
            Code::SpaceInRule => "RT113",
            Code::NulInLine => "RT114",
            Code::UnrequestedPath => "RT115",
            Code::CommentInRule => "RT116",
            Code::IgnoredByGoogle => "RT201",
            Code::EmptyGroup => "RT202",
            Code::AgentInSeveralGroups => "RT203",
            Code::GlobalRulesDropped => "RT204",
            Code::ShadowedRule => "RT205",
            Code::EqualPriority => "RT206",
            Code::DisallowAll => "RT207",
            Code::AssetsBlocked => "RT208",
            Code::SitemapDisallowed => "RT209",
            Code::MergedGroups => "RT210",
            Code::MisspelledCrawler => "RT211",
        }
    }

    /// The name, such as `"url-as-path"`.
    pub fn name(self) -> &'static str {
        match self {
            Code::TooLarge => "too-large",
            Code::Bom => "bom",
            Code::NotUtf8 => "not-utf8",
            Code::CrLineEndings => "cr-line-endings",
            Code::Html => "html",
            Code::Binary => "binary",
            Code::LineTooLong => "line-too-long",
            Code::TooManyDiagnostics => "too-many-diagnostics",
            Code::UnknownDirective => "unknown-directive",
            Code::AcceptedVariant => "accepted-variant",
            Code::MissingColon => "missing-colon",
            Code::RuleBeforeUserAgent => "rule-before-user-agent",
            Code::BadUserAgent => "bad-user-agent",
            Code::UrlAsPath => "url-as-path",
            Code::BadPathStart => "bad-path-start",
            Code::DollarInMiddle => "dollar-in-middle",
            Code::RedundantWildcard => "redundant-wildcard",
            Code::BadSitemap => "bad-sitemap",
            Code::BadExtensionValue => "bad-extension-value",
            Code::IgnoredLine => "ignored-line",
            Code::SpaceInRule => "space-in-rule",
            Code::NulInLine => "nul-in-line",
            Code::UnrequestedPath => "unrequested-path",
            Code::CommentInRule => "comment-in-rule",
            Code::IgnoredByGoogle => "ignored-by-google",
            Code::EmptyGroup => "empty-group",
            Code::AgentInSeveralGroups => "agent-in-several-groups",
            Code::GlobalRulesDropped => "global-rules-dropped",
            Code::ShadowedRule => "shadowed-rule",
            Code::EqualPriority => "equal-priority",
            Code::DisallowAll => "disallow-all",
            Code::AssetsBlocked => "assets-blocked",
            Code::SitemapDisallowed => "sitemap-disallowed",
            Code::MergedGroups => "merged-groups",
            Code::MisspelledCrawler => "misspelled-crawler",
        }
    }

    /// The usual severity. A diagnostic may be worse: an empty
    /// `User-agent:` is an error, other [`Code::BadUserAgent`]s warnings.
    pub fn severity(self) -> Severity {
        match self {
            Code::TooLarge => Severity::Warning,
            Code::Bom => Severity::Warning,
            Code::NotUtf8 => Severity::Warning,
            Code::CrLineEndings => Severity::Warning,
            Code::Html => Severity::Error,
            Code::Binary => Severity::Error,
            Code::LineTooLong => Severity::Error,
            Code::TooManyDiagnostics => Severity::Warning,
            Code::UnknownDirective => Severity::Warning,
            Code::AcceptedVariant => Severity::Warning,
            Code::MissingColon => Severity::Warning,
            Code::RuleBeforeUserAgent => Severity::Error,
            Code::BadUserAgent => Severity::Warning,
            Code::UrlAsPath => Severity::Error,
            Code::BadPathStart => Severity::Error,
            Code::DollarInMiddle => Severity::Warning,
            Code::RedundantWildcard => Severity::Info,
            Code::BadSitemap => Severity::Error,
            Code::BadExtensionValue => Severity::Warning,
            Code::IgnoredLine => Severity::Warning,
            Code::SpaceInRule => Severity::Warning,
            Code::NulInLine => Severity::Warning,
            Code::UnrequestedPath => Severity::Warning,
            Code::CommentInRule => Severity::Warning,
            Code::IgnoredByGoogle => Severity::Info,
            Code::EmptyGroup => Severity::Warning,
            Code::AgentInSeveralGroups => Severity::Info,
            Code::GlobalRulesDropped => Severity::Warning,
            Code::ShadowedRule => Severity::Warning,
            Code::EqualPriority => Severity::Info,
            Code::DisallowAll => Severity::Warning,
            Code::AssetsBlocked => Severity::Warning,
            Code::SitemapDisallowed => Severity::Warning,
            Code::MergedGroups => Severity::Warning,
            Code::MisspelledCrawler => Severity::Warning,
        }
    }

    /// What the code is about, in one line.
    pub fn description(self) -> &'static str {
        match self {
            Code::TooLarge => "the file is over 500 KiB: crawlers read the first 500 KiB only (RFC 9309 §2.5), and Google ignores the rest",
            Code::Bom => "the file starts with a UTF-8 byte order mark",
            Code::NotUtf8 => "bytes that are not UTF-8 (RFC 9309 §2.2: the file is UTF-8)",
            Code::CrLineEndings => "lines ended by CR alone",
            Code::Html => "an HTML page served as robots.txt",
            Code::Binary => "binary data (UTF-16, compressed, an image) served as robots.txt",
            Code::LineTooLong => "a line over 16,663 bytes: Google ignores its end",
            Code::TooManyDiagnostics => "more diagnostics than the limits keep: the rest are counted, not shown",
            Code::UnknownDirective => "an unknown key (with a suggestion when it looks like a typo)",
            Code::AcceptedVariant => "a key that Google reads by typo or prefix (`Dissalow`, `Useragent`)",
            Code::MissingColon => "a key and value separated by whitespace, not a colon",
            Code::RuleBeforeUserAgent => "a rule before any user-agent line, which belongs to no group",
            Code::BadUserAgent => "a user-agent value that is not a product token (`Googlebot/2.1`, `Foo Bot`), or is empty (an error)",
            Code::UrlAsPath => "a rule written as a URL: it never matches",
            Code::BadPathStart => "a rule that starts with neither `/` nor `*`: it never matches",
            Code::DollarInMiddle => "a `$` that is not last: it is a literal `$`",
            Code::RedundantWildcard => "a redundant `*` (`/path*`, `**`): rules match prefixes already",
            Code::BadSitemap => "a sitemap that is not an absolute http(s) URL",
            Code::BadExtensionValue => "an invalid `crawl-delay`, `request-rate`, `visit-time`, `host`, `clean-param` or `content-signal` value",
            Code::IgnoredLine => "a line that is not a directive",
            Code::SpaceInRule => "a space or tab inside a rule: URLs are requested with `%20`, so it never matches one",
            Code::NulInLine => "a NUL byte inside a line: Google ignores the rest of the line",
            Code::UnrequestedPath => "a rule whose path holds what browsers never send in one (`\\`, `{`, `}`, `` ` ``, a `.` or `..` segment; `\"`, `<`, `>` or a control byte anywhere): it never matches a requested URL",
            Code::CommentInRule => "a `#` right after a rule's path: it starts a comment, so the rule is the path before it",
            Code::IgnoredByGoogle => "a directive Google ignores (`crawl-delay`, `noindex`, `host`, …)",
            Code::EmptyGroup => "a group with no rules: its crawlers may fetch everything, and the `*` rules do not apply to them",
            Code::AgentInSeveralGroups => "the same crawler named in several groups, which are merged",
            Code::GlobalRulesDropped => "a named group that escapes `*` disallows: a crawler obeys only its own group",
            Code::ShadowedRule => "a rule that never decides: a duplicate, or always beaten by another",
            Code::EqualPriority => "an allow and a disallow of equal priority that both match some path: the allow wins",
            Code::DisallowAll => "`Disallow: /` for `*`: every crawler without a group of its own is blocked",
            Code::AssetsBlocked => "CSS or JavaScript disallowed (`.css`, `.js`, `.mjs` files, or asset folders)",
            Code::SitemapDisallowed => "a sitemap URL that the file itself disallows",
            Code::MergedGroups => "`user-agent` lines apart that make one group: the crawlers named first get the rules after",
            Code::MisspelledCrawler => "a crawler's name one edit (or a `-` or `_`) away from a known crawler's: its rules do not bind that crawler",
        }
    }

    /// General advice for the code. A diagnostic's own
    /// [`help`](crate::Diagnostic::help) may be more precise.
    pub fn help(self) -> &'static str {
        match self {
            Code::TooLarge => "move the important rules to the top, or shorten the file",
            Code::Bom => "Google skips it, but other parsers may read the first key as unknown",
            Code::NotUtf8 => "save the file as UTF-8",
            Code::CrLineEndings => "use LF or CR LF: some parsers see one long line",
            Code::Html => "serve a text/plain robots.txt at /robots.txt, or a 404 if there is none",
            Code::Binary => "serve plain UTF-8 text; a compressed body must carry a Content-Encoding",
            Code::LineTooLong => "split long rules; a `$` after the cut is lost",
            Code::TooManyDiagnostics => "fix the problems shown, or check that the file is a robots.txt at all",
            Code::UnknownDirective => "no crawler is known to read it",
            Code::AcceptedVariant => "write the key as RFC 9309 spells it: other parsers ignore variants",
            Code::MissingColon => "write `key: value`: Google accepts this, many parsers do not",
            Code::RuleBeforeUserAgent => "put a `User-agent:` line above it",
            Code::BadUserAgent => "write a crawler's name made of letters, `-` and `_`, or `*` for all",
            Code::UrlAsPath => "write only the path, such as /private/",
            Code::BadPathStart => "start the path with `/`",
            Code::DollarInMiddle => "to end the URL there, make `$` the last character; if the site's URLs have a `$` in them, the rule matches it as written",
            Code::RedundantWildcard => "remove the redundant `*`",
            Code::BadSitemap => "write the full URL, such as https://example.com/sitemap.xml",
            Code::BadExtensionValue => "the value is ignored",
            Code::IgnoredLine => "write `key: value`; without a colon, only two words separated by a space are read",
            Code::SpaceInRule => "write the space as `%20`, or one path per rule",
            Code::NulInLine => "remove the NUL byte",
            Code::UnrequestedPath => "write the path as it is requested: percent-encoded, with `/` for `\\` and no `.` or `..` segments",
            Code::CommentInRule => "URLs are requested without their `#` fragment: a rule cannot single one out",
            Code::IgnoredByGoogle => "other crawlers may read it",
            Code::EmptyGroup => "add `Disallow:` to say so, or the rules it should follow",
            Code::AgentInSeveralGroups => "keep one group per crawler to make the file easier to read",
            Code::GlobalRulesDropped => "repeat the * rules that should also apply in this group",
            Code::ShadowedRule => "remove it, or change one of the two",
            Code::EqualPriority => "make the one that should win longer",
            Code::DisallowAll => "if this is not meant, remove the line or narrow the path",
            Code::AssetsBlocked => "Google renders pages with their CSS and scripts; allow them",
            Code::SitemapDisallowed => "crawlers may not fetch a sitemap the file blocks; allow its path",
            Code::MergedGroups => "give the crawlers named first rules of their own (`Allow: /` lets them fetch everything), or write a group's `user-agent` lines together",
            Code::MisspelledCrawler => "write the crawler's name as it gives it",
        }
    }

    /// The code with the identifier `id` (`"RT106"`) or the name `id`
    /// (`"url-as-path"`), ignoring ASCII case.
    pub fn from_id(id: &str) -> Option<Code> {
        Code::ALL.iter().copied().find(|c| {
            c.id().eq_ignore_ascii_case(id)
                || c.name().eq_ignore_ascii_case(id)
        })
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.id(), self.name())
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Code {
    fn serialize<S: serde::Serializer>(
        &self,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    macro_rules! code {
        ($id:literal, $name:literal, $code:ident) => {
            assert_eq!(Code::from_id($id), Some(Code::$code));
            assert_eq!(Code::from_id($name), Some(Code::$code));
            assert_eq!(Code::$code.to_string(), concat!($id, "/", $name));
        };
    }

    #[test]
    fn ids_and_names() {
        code!("RT001", "too-large", TooLarge);
        code!("RT106", "url-as-path", UrlAsPath);
        code!("RT209", "sitemap-disallowed", SitemapDisallowed);
        code!("RT210", "merged-groups", MergedGroups);
        code!("RT211", "misspelled-crawler", MisspelledCrawler);
        assert_eq!(Code::from_id("RT999"), None);
    }

    #[test]
    fn ids_are_unique_and_ordered() {
        assert_eq!(Code::ALL.len(), 35);
        for w in Code::ALL.windows(2) {
            assert!(w[0] < w[1] && w[0].id() < w[1].id());
            assert_ne!(w[0].name(), w[1].name());
        }
    }
}
