//! Checks of one line at a time: RT007, RT101–RT104, RT111, RT112, RT114,
//! RT201.

use robotrules::{ExtensionKind, Tag, MAX_LINE_LEN};

use super::super::Ctx;
use crate::lint::Code;
use crate::text::{invisible, show};

/// The keys a typo is compared with: the four fields, then the keys that
/// Google knows and ignores (`crawl-delay`, `host`, …), from the core's
/// one table.
fn known_keys() -> impl Iterator<Item = &'static str> {
    robotrules::keys::FIELDS
        .iter()
        .chain(robotrules::keys::UNUSED_KEYS)
        .copied()
}

/// The Levenshtein distance of two short strings, ignoring ASCII case,
/// or `None` once it is sure to exceed `max`.
fn distance(a: &str, b: &str, max: usize) -> Option<usize> {
    let (a, b) = (a.to_ascii_lowercase().into_bytes(), b.as_bytes());
    if a.len().abs_diff(b.len()) > max {
        return None;
    }
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for i in 1..=a.len() {
        let mut prev = row[0];
        row[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let next = (row[j] + 1).min(row[j - 1] + 1).min(prev + cost);
            prev = row[j];
            row[j] = next;
        }
    }
    Some(row[b.len()]).filter(|&d| d <= max)
}

/// The canonical key a key is read as, for the four fields.
fn canonical(tag: Tag) -> Option<&'static str> {
    match tag {
        Tag::UserAgent => Some("User-agent"),
        Tag::Allow => Some("Allow"),
        Tag::Disallow => Some("Disallow"),
        Tag::Sitemap => Some("Sitemap"),
        _ => None,
    }
}

/// RT007: a line longer than the reference keeps.
pub(crate) fn line_too_long(ctx: &mut Ctx<'_>) {
    let robots = ctx.robots;
    for report in robots.lines().filter(|r| r.is_too_long()) {
        let span = MAX_LINE_LEN..MAX_LINE_LEN;
        ctx.report(Code::LineTooLong, report.number(), span, || {
            (
                format!(
                    "the line is longer than {MAX_LINE_LEN} bytes: the rest \
                     of it is ignored"
                ),
                Some(Code::LineTooLong.help().into()),
            )
        });
    }
}

/// RT114: a NUL byte before the end of a line's kept bytes, with text
/// after it: the reference ends the line there, so that text is dropped
/// (`Disallow: /a\0$` is `Disallow: /a`). NUL padding alone (nothing but
/// NULs and white space after the first) changes nothing and is left to
/// RT006, and so is a NUL in a comment or before one.
pub(crate) fn nul_in_line(ctx: &mut Ctx<'_>) {
    if ctx.not_text || !ctx.body().contains(&0) {
        return;
    }
    let robots = ctx.robots;
    for report in robots.lines() {
        let n = report.number();
        let raw = ctx.lines.get(n);
        let raw = &raw[..raw.len().min(MAX_LINE_LEN)];
        let Some(at) = raw.iter().position(|&b| b == 0) else {
            continue;
        };
        // A NUL in a comment, or before one, drops nothing that is read.
        let dropped = &raw[at..];
        let kept = dropped.iter().filter(|&&b| b != 0);
        let first = kept.copied().find(|b| !b.is_ascii_whitespace());
        if raw[..at].contains(&b'#') || matches!(first, None | Some(b'#')) {
            continue;
        }
        ctx.report(Code::NulInLine, n, at..raw.len(), || {
            let rest: Vec<u8> =
                dropped.iter().copied().filter(|&b| b != 0).collect();
            let rest = show(rest.trim_ascii());
            (
                format!(
                    "a NUL byte ends this line for Google: `{rest}` after it \
                     is ignored"
                ),
                Some(Code::NulInLine.help().into()),
            )
        });
    }
}

/// RT112: a line that is neither empty, a comment nor a directive (not
/// reported for HTML or binary files, which are reported as a whole).
pub(crate) fn ignored_line(ctx: &mut Ctx<'_>) {
    if ctx.not_text {
        return;
    }
    let robots = ctx.robots;
    for report in robots.lines() {
        if report.has_directive() || report.is_empty() || report.is_comment() {
            continue;
        }
        let n = report.number();
        let whole = ctx.whole(n);
        ctx.report(Code::IgnoredLine, n, whole, || {
            (
                "this line is not a directive and is ignored".into(),
                Some(Code::IgnoredLine.help().into()),
            )
        });
    }
}

/// RT103: `key value` without a colon.
pub(crate) fn missing_colon(ctx: &mut Ctx<'_>) {
    // An error page's text is no directive gone wrong (RT005 says it).
    if ctx.not_text {
        return;
    }
    let robots = ctx.robots;
    for report in robots.lines().filter(|r| r.is_missing_colon()) {
        let n = report.number();
        let key = ctx.key(n);
        ctx.report(Code::MissingColon, n, key, || {
            (
                "the key and value are separated by whitespace, not a colon"
                    .into(),
                Some(Code::MissingColon.help().into()),
            )
        });
    }
}

/// RT102: a key that Google reads as one of the four fields by typo or
/// prefix.
pub(crate) fn accepted_variant(ctx: &mut Ctx<'_>) {
    let robots = ctx.robots;
    for report in robots.lines() {
        let Some(canon) = report.tag().and_then(canonical) else {
            continue;
        };
        let n = report.number();
        let span = ctx.key(n);
        let written = ctx.slice(n, span.clone());
        if written.eq_ignore_ascii_case(canon.as_bytes()) {
            continue;
        }
        let typo = report.is_typo();
        // `Sitemap http://…`: no colon after the key, so the value's own
        // colon ended it.
        // (The space of `User agent`, a typo of its own, is no sign:
        // `User agents:` has its colon; other typos may lose theirs too:
        // `Dissallow /a:b`.)
        let rest = match written.get(..10) {
            Some(head) if head.eq_ignore_ascii_case(b"user agent") => {
                &written[10..]
            }
            _ => written,
        };
        let spaced = rest.iter().any(|b| matches!(b, b' ' | b'\t'));
        ctx.report(Code::AcceptedVariant, n, span, || {
            let key = show(written);
            let why = if typo {
                "an accepted typo"
            } else {
                "matched by its prefix"
            };
            let help = if spaced {
                format!(
                    "the colon after `{canon}` is missing (the value's own \
                     colon ended the key): write `{canon}: ` and the value"
                )
            } else {
                format!("write `{canon}`: other parsers ignore `{key}`")
            };
            (
                format!("`{key}` is read as `{canon}` by Google ({why})"),
                Some(help),
            )
        });
    }
}

/// RT101: a key that no crawler is known to read, with a suggestion.
pub(crate) fn unknown_directive(ctx: &mut Ctx<'_>) {
    if ctx.not_text {
        return;
    }
    let robots = ctx.robots;
    for d in robots.unknown_directives().filter(|d| !d.is_unused()) {
        let n = d.line();
        let span = ctx.key(n);
        ctx.report(Code::UnknownDirective, n, span, || {
            let key = d.key_lossy();
            let visible: String =
                key.chars().filter(|&c| !invisible(c)).collect();
            let hidden = visible.len() != key.len()
                && known_keys().any(|k| k.eq_ignore_ascii_case(&visible));
            let suggestion = known_keys()
                .filter_map(|k| Some((distance(&key, k, 2)?, k)))
                .min();
            let help = match suggestion {
                _ if hidden => format!(
                    "remove the invisible characters: without them it is \
                     a `{visible}` line"
                ),
                Some((_, k)) => format!("did you mean `{k}`?"),
                None => Code::UnknownDirective.help().into(),
            };
            (format!("unknown directive `{}`", show(d.key())), Some(help))
        });
    }
}

/// RT201: a key that Google knows and ignores.
pub(crate) fn ignored_by_google(ctx: &mut Ctx<'_>) {
    let robots = ctx.robots;
    for d in robots.unknown_directives().filter(|d| d.is_unused()) {
        let n = d.line();
        let span = ctx.key(n);
        ctx.report(Code::IgnoredByGoogle, n, span, || {
            let what = match ExtensionKind::from_key(d.key()) {
                Some(ExtensionKind::CrawlDelay) => {
                    "some crawlers (Bing, Yandex) honour it; Googlebot does not"
                }
                Some(ExtensionKind::Noindex) => {
                    "Google stopped supporting it in 2019; use a noindex meta \
                     tag or header"
                }
                Some(ExtensionKind::Host) => "only Yandex used it",
                _ => "other crawlers may read it",
            };
            (format!("Google ignores `{}`", show(d.key())), Some(what.into()))
        });
    }
}

/// RT111: an extension whose value is invalid.
pub(crate) fn bad_extension_value(ctx: &mut Ctx<'_>) {
    let robots = ctx.robots;
    for e in robots.extensions() {
        let Err(err) = e.value() else { continue };
        let n = e.line();
        let span = ctx.value(n);
        ctx.report(Code::BadExtensionValue, n, span, || {
            (
                crate::escape(&err.to_string()).into_owned(),
                Some(Code::BadExtensionValue.help().into()),
            )
        });
    }
}

/// RT104: a rule before the first `user-agent` line.
pub(crate) fn rule_before_user_agent(ctx: &mut Ctx<'_>) {
    let robots = ctx.robots;
    for rule in robots.orphan_rules() {
        let n = rule.line();
        let whole = ctx.whole(n);
        ctx.report(Code::RuleBeforeUserAgent, n, whole, || {
            (
                "this rule comes before any user-agent line and applies to \
                 no crawler"
                    .into(),
                Some(Code::RuleBeforeUserAgent.help().into()),
            )
        });
    }
}

#[cfg(test)]
mod tests {
    use super::distance;
    use crate::lint::lints;

    #[test]
    fn rt007_line_too_long() {
        let long =
            format!("User-agent: *\nDisallow: /{}$\n", "a".repeat(17_000));
        lints!(long.as_bytes(), "RT007" @ 2);
        lints!(b"User-agent: *\nDisallow: /aaaa$\n", "RT007" @ none);
    }

    #[test]
    fn rt101_unknown_directive() {
        lints!(b"User-agent: *\nAlow: /x\n", "RT101" @ 2);
        lints!(b"User-agent: *\r\n\r\nfoo: bar\r\n", "RT101" @ 3);
        lints!(b"User-agent: *\nAllow: /x\n", "RT101" @ none);
    }

    #[test]
    fn rt102_accepted_variant() {
        lints!(b"User-agent: *\nDissalow: /x\n", "RT102" @ 2);
        lints!(b"Useragent: *\nDisallow: /x\n", "RT102" @ 1);
        lints!(b"User-agent: *\nDisallow: /x\n", "RT102" @ none);
    }

    #[test]
    fn rt103_missing_colon() {
        lints!(b"User-agent: *\nDisallow /x\n", "RT103" @ 2);
        lints!(b"User-agent: *\nDisallow: /x\n", "RT103" @ none);
    }

    #[test]
    fn rt104_rule_before_user_agent() {
        lints!(b"Disallow: /x\nUser-agent: *\nDisallow: /y\n", "RT104" @ 1);
        lints!(b"User-agent: *\nDisallow: /x\n", "RT104" @ none);
    }

    #[test]
    fn rt111_bad_extension_value() {
        lints!(b"User-agent: *\nCrawl-delay: soon\n", "RT111" @ 2);
        lints!(b"User-agent: *\nCrawl-delay: 5\n", "RT111" @ none);
    }

    #[test]
    fn rt112_ignored_line() {
        lints!(b"User-agent: *\nDisallow / x\n", "RT112" @ 2);
        lints!(b"User-agent: *\nDisallow: /x\n", "RT112" @ none);
    }

    #[test]
    fn rt201_ignored_by_google() {
        lints!(b"User-agent: *\nDisallow: /x\nCrawl-delay: 5\n", "RT201" @ 3);
        lints!(b"User-agent: *\nDisallow: /x\n", "RT201" @ none);
    }

    #[test]
    fn distances() {
        assert_eq!(distance("Alow", "allow", 2), Some(1));
        assert_eq!(distance("foo", "allow", 2), None);
        assert_eq!(distance(&"x".repeat(10_000), "allow", 2), None);
    }
}
