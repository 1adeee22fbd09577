//! The keys the parser knows, in one place: the four fields of RFC 9309
//! §2.2, the typos the reference accepts for them, and the keys Google
//! knows but does not use.

use crate::extension::ExtensionKind;

/// The `user-agent` field.
pub const USER_AGENT: &str = "user-agent";
/// The `allow` field.
pub const ALLOW: &str = "allow";
/// The `disallow` field.
pub const DISALLOW: &str = "disallow";
/// The `sitemap` field.
pub const SITEMAP: &str = "sitemap";

/// The four fields of RFC 9309 §2.2, in the order the reference tries
/// them.
pub const FIELDS: &[&str] = &[USER_AGENT, ALLOW, DISALLOW, SITEMAP];

/// Misspellings of `user-agent` that the reference accepts, as prefixes.
pub const USER_AGENT_TYPOS: &[&str] = &["useragent", "user agent"];
/// Misspellings of `disallow` that the reference accepts, as prefixes.
pub const DISALLOW_TYPOS: &[&str] =
    &["dissallow", "dissalow", "disalow", "diasllow", "disallaw"];
/// Misspellings of `sitemap` that the reference accepts, as prefixes.
/// There is none for `allow`.
pub const SITEMAP_TYPOS: &[&str] = &["site-map"];

/// The keys that Google knows but does not use, compared without regard to
/// ASCII case. Lines with these keys are tagged [`Tag::Unused`]; any other
/// key that is not one of the four fields is [`Tag::Unknown`]. The keys of
/// [`ExtensionKind`]s are among them.
///
/// [`Tag::Unused`]: crate::Tag::Unused
/// [`Tag::Unknown`]: crate::Tag::Unknown
pub const UNUSED_KEYS: &[&str] = &[
    "clean-param",
    "content-signal",
    "content-usage",
    "crawl-delay",
    "domain",
    "host",
    "noarchive",
    "nofollow",
    "noindex",
    "request-rate",
    "revisit-after",
    "visit-time",
];

/// The directives with a typed value, and their keys.
pub(crate) const EXTENSIONS: &[(ExtensionKind, &str)] = &[
    (ExtensionKind::CrawlDelay, "crawl-delay"),
    (ExtensionKind::RequestRate, "request-rate"),
    (ExtensionKind::VisitTime, "visit-time"),
    (ExtensionKind::Host, "host"),
    (ExtensionKind::CleanParam, "clean-param"),
    (ExtensionKind::ContentSignal, "content-signal"),
    (ExtensionKind::Noindex, "noindex"),
];

/// The kind of a key, after prefix and typo matching.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub(crate) enum Key {
    UserAgent,
    Allow,
    Disallow,
    Sitemap,
    Unknown,
}

/// Classifies a key as RFC 9309's grammar does: one of the four names
/// exactly, ignoring ASCII case.
pub(crate) fn classify_strict(key: &[u8]) -> Key {
    [
        (USER_AGENT, Key::UserAgent),
        (ALLOW, Key::Allow),
        (DISALLOW, Key::Disallow),
        (SITEMAP, Key::Sitemap),
    ]
    .into_iter()
    .find(|(name, _)| key.eq_ignore_ascii_case(name.as_bytes()))
    .map_or(Key::Unknown, |(_, k)| k)
}

/// Returns true if `s` starts with `prefix` (lower case ASCII letters, `-`
/// and space), ignoring ASCII case.
///
/// Eight bytes at a time: `| 0x20` lower-cases letters and maps nothing
/// else onto a letter; onto `-` and space it maps only CR and NUL, which
/// never occur in a line's content.
fn starts_with_ignore_case(s: &[u8], prefix: &[u8]) -> bool {
    const FOLD: u64 = 0x2020_2020_2020_2020;
    if s.len() < prefix.len() {
        return false;
    }
    let (mut s, mut prefix) = (s, prefix);
    while let (Some(a), Some(b)) =
        (s.first_chunk::<8>(), prefix.first_chunk::<8>())
    {
        if u64::from_le_bytes(*a) | FOLD != u64::from_le_bytes(*b) | FOLD {
            return false;
        }
        s = &s[8..];
        prefix = &prefix[8..];
    }
    prefix.iter().zip(s).all(|(p, c)| *p == c | 0x20)
}

/// Classifies a key, and says whether it is an accepted typo.
///
/// The typo flag mirrors the reference, where each check in turn
/// overwrites it: it is the flag of the check that decided.
pub(crate) fn classify(key: &[u8]) -> (Key, bool) {
    let any = |list: &[&str]| {
        list.iter().any(|p| starts_with_ignore_case(key, p.as_bytes()))
    };
    // Every known key and typo starts with one of these letters; the
    // right spelling is tried before the typos.
    match key.first().map(u8::to_ascii_lowercase) {
        Some(b'u') => {
            if starts_with_ignore_case(key, USER_AGENT.as_bytes()) {
                return (Key::UserAgent, false);
            }
            if any(USER_AGENT_TYPOS) {
                return (Key::UserAgent, true);
            }
        }
        Some(b'a') if starts_with_ignore_case(key, ALLOW.as_bytes()) => {
            return (Key::Allow, false);
        }
        Some(b'd') => {
            if starts_with_ignore_case(key, DISALLOW.as_bytes()) {
                return (Key::Disallow, false);
            }
            if any(DISALLOW_TYPOS) {
                return (Key::Disallow, true);
            }
        }
        Some(b's') => {
            if starts_with_ignore_case(key, SITEMAP.as_bytes()) {
                return (Key::Sitemap, false);
            }
            if any(SITEMAP_TYPOS) {
                return (Key::Sitemap, true);
            }
        }
        _ => {}
    }
    (Key::Unknown, false)
}

/// The field a line's content starts with when it is written in full and
/// followed at once by its colon, as in most lines (`Disallow: /x`,
/// `User-agent: *`): the field, and where the colon is. `None` for any
/// other line, whose colon is then searched for and whose key
/// [`classify`] reads.
///
/// The field is what `classify` and `classify_strict` make of the key
/// before that colon (the name itself, no typo), and the colon is the
/// line's first: the name holds none, nor any `#`.
#[inline(always)]
pub(crate) fn leading_field(content: &[u8]) -> Option<(Key, usize)> {
    let field = |name: &str, key| {
        let n = name.len();
        (content.get(n) == Some(&b':')
            && starts_with_ignore_case(content, name.as_bytes()))
        .then_some((key, n))
    };
    // `| 0x20` maps only a letter's two cases onto a lower-case letter.
    match content.first()? | 0x20 {
        b'd' => field(DISALLOW, Key::Disallow),
        b'a' => field(ALLOW, Key::Allow),
        b'u' => field(USER_AGENT, Key::UserAgent),
        b's' => field(SITEMAP, Key::Sitemap),
        _ => None,
    }
}

/// Returns true if `key` is one of [`UNUSED_KEYS`].
pub(crate) fn is_unused(key: &[u8]) -> bool {
    UNUSED_KEYS.iter().any(|k| {
        k.len() == key.len() && key.eq_ignore_ascii_case(k.as_bytes())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys() {
        assert_eq!(classify(b"User-agent-foo"), (Key::UserAgent, false));
        assert_eq!(classify(b"useragent"), (Key::UserAgent, true));
        assert_eq!(classify(b"User Agent"), (Key::UserAgent, true));
        assert_eq!(classify(b"Allowance"), (Key::Allow, false));
        assert_eq!(classify(b"alow"), (Key::Unknown, false));
        assert_eq!(classify(b"Disallowed"), (Key::Disallow, false));
        assert_eq!(classify(b"DISALLAW"), (Key::Disallow, true));
        assert_eq!(classify(b"Sitemaps"), (Key::Sitemap, false));
        assert_eq!(classify(b"site-map"), (Key::Sitemap, true));
        assert_eq!(classify(b"crawl-delay"), (Key::Unknown, false));
        assert_eq!(classify_strict(b"User-Agent"), Key::UserAgent);
        assert_eq!(classify_strict(b"user-agent-foo"), Key::Unknown);
        assert_eq!(classify_strict(b"useragent"), Key::Unknown);
        assert_eq!(classify_strict(b"Disallowed"), Key::Unknown);
        assert_eq!(classify_strict(b"SITEMAP"), Key::Sitemap);
    }

    #[test]
    fn leading_fields_are_classified_keys() {
        let lines: &[&[u8]] = &[
            b"Disallow: /x",
            b"disallow:",
            b"DISALLOW:/",
            b"Disallowed: /",
            b"Disallow : /",
            b"Disallow",
            b"dissallow: /",
            b"allow: /",
            b"Allow:",
            b"Allowance: /",
            b"User-agent: *",
            b"USER-AGENT:x",
            b"User_agent: x",
            b"useragent: x",
            b"user agent: x",
            b"Sitemap: https://x/",
            b"site-map: x",
            b"sitemap",
            b"Crawl-delay: 1",
            b" Disallow: /",
            b"\x04isallow: /",
            b"Disallow\x1a /",
            b"",
            b":",
        ];
        for line in lines {
            let split = leading_field(line);
            let Some((key, colon)) = split else {
                // Only lines that are not a full name and colon.
                assert!(
                    FIELDS.iter().all(|f| !line
                        .to_ascii_lowercase()
                        .starts_with(&[f.as_bytes(), b":"].concat())),
                    "{line:?}"
                );
                continue;
            };
            assert_eq!(line.iter().position(|&b| b == b':'), Some(colon));
            assert_eq!(classify(&line[..colon]), (key, false), "{line:?}");
            assert_eq!(classify_strict(&line[..colon]), key, "{line:?}");
        }
    }

    #[test]
    fn extensions_are_unused_keys() {
        for (_, key) in EXTENSIONS {
            assert!(is_unused(key.as_bytes()), "{key}");
        }
    }
}
