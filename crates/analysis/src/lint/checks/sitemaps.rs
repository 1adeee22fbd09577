//! Checks of the `sitemap` lines: RT110 and RT209.

use robotrules::Matcher;

use super::super::Ctx;
use crate::lint::Code;
use crate::text::escape;

/// Returns true if `url` is an absolute http(s) URL with a host (spaces
/// aside: see [`check`]).
fn is_absolute(url: &str) -> bool {
    let lower = url.to_ascii_lowercase();
    (lower.starts_with("http://") || lower.starts_with("https://"))
        && url
            .split("://")
            .nth(1)
            .is_some_and(|rest| !rest.is_empty() && !rest.starts_with('/'))
}

/// The field name and colon that `url` holds, if two lines ran together
/// into it (`https://e.com/s.xmlUser-agent: *`): a name and its colon
/// just before the URL's first space, as written.
fn run_together(url: &str) -> Option<&str> {
    const KEYS: &[&str] =
        &["user-agent:", "disallow:", "allow:", "sitemap:", "crawl-delay:"];
    let space = url.find([' ', '\t'])?;
    let head = url[..space].to_ascii_lowercase();
    let key = KEYS.iter().find(|k| head.ends_with(*k))?;
    Some(&url[space - key.len()..space])
}

/// The origin of an absolute http(s) URL, as `scheme://host[:port]` in
/// lower case, without user information or a default port; `None` for
/// anything else.
pub(crate) fn origin(url: &str) -> Option<String> {
    let (scheme, rest) = url.split_once("://")?;
    let scheme = scheme.to_ascii_lowercase();
    let default = match scheme.as_str() {
        "http" => ":80",
        "https" => ":443",
        _ => return None,
    };
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..end];
    let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let host = host.to_ascii_lowercase();
    let host = host.strip_suffix(default).unwrap_or(&host);
    let host = host.strip_suffix('.').unwrap_or(host);
    (!host.is_empty()).then(|| format!("{scheme}://{host}"))
}

/// RT110 (not an absolute URL) and RT209 (disallowed by the file, for
/// Googlebot or for every crawler).
///
/// The two matchers are built once, so that the check is linear in the
/// number of sitemaps.
pub(crate) fn check(ctx: &mut Ctx<'_>) {
    let robots = ctx.robots;
    let ctx_site = ctx.site.clone();
    let mut matchers: Option<[(&str, Matcher); 2]> = None;
    for s in robots.sitemaps() {
        let n = s.line();
        let url = s.url_lossy();
        // `Sitemap http://…`: the value's own colon ended the key, and
        // RT102 says so; the rest (`//…`) was never written alone.
        let key = ctx.key(n);
        if ctx.slice(n, key).iter().any(|b| matches!(b, b' ' | b'\t')) {
            continue;
        }
        let span = ctx.value(n);
        let absolute = is_absolute(&url);
        if !absolute || url.contains(' ') {
            ctx.report(Code::BadSitemap, n, span, || {
                if absolute {
                    // A full URL, but not one a client requests as it is:
                    // most often two lines run together
                    // (`…/sitemap.xmlUser-agent: *`).
                    let help = match run_together(&url) {
                        Some(key) => format!(
                            "a line break is missing before `{}`",
                            escape(key)
                        ),
                        None => "write the space as `%20`".into(),
                    };
                    return (
                        format!(
                            "`{}` holds a space, which a URL cannot",
                            escape(&url)
                        ),
                        Some(help),
                    );
                }
                (
                    format!(
                        "`{}` is not an absolute http(s) URL",
                        escape(&url)
                    ),
                    Some(Code::BadSitemap.help().into()),
                )
            });
            continue;
        }
        // The rules govern only their own site (RFC 9309 §2.3).
        let theirs = origin(&url);
        if ctx.site.is_some() && ctx.site != theirs {
            continue;
        }
        let matchers = matchers.get_or_insert_with(|| {
            [
                ("Googlebot", robots.matcher(&["Googlebot"])),
                ("*", robots.matcher(&[])),
            ]
        });
        // Judged as a crawler requests it: non-ASCII percent-encoded.
        let requested = crate::query::percent_encode(&url);
        let blocked_for = matchers
            .iter()
            .find(|(_, m)| !m.is_allowed(&requested))
            .map(|(agent, _)| *agent);
        if let Some(agent) = blocked_for {
            ctx.report(Code::SitemapDisallowed, n, span, || {
                (
                    match (&ctx_site, &theirs) {
                        (None, Some(site)) => format!(
                            "this sitemap is disallowed for {agent} by this \
                             file, if this file is the robots.txt of {}",
                            escape(site)
                        ),
                        _ => format!(
                            "this sitemap is disallowed for {agent} by this \
                             file"
                        ),
                    },
                    Some(Code::SitemapDisallowed.help().into()),
                )
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::lint::lints;

    #[test]
    fn rt110_bad_sitemap() {
        lints!(b"User-agent: *\nDisallow: /x\nSitemap: /sitemap.xml\n", "RT110" @ 3);
        lints!(b"Sitemap: https:///x.xml\n", "RT110" @ 1);
        lints!(b"Sitemap: https://example.com/sitemap.xml\n", "RT110" @ none);
    }

    #[test]
    fn rt209_sitemap_disallowed() {
        lints!(b"User-agent: *\nDisallow: /private/\nSitemap: https://example.com/private/s.xml\n", "RT209" @ 3);
        lints!(b"User-agent: Googlebot\nDisallow: /\nSitemap: https://example.com/s.xml\n", "RT209" @ 3);
        lints!(b"User-agent: *\nDisallow: /private/\nSitemap: https://example.com/s.xml\n", "RT209" @ none);
        // Judged as requested: non-ASCII percent-encoded, as the rule is.
        lints!("User-agent: *\nDisallow: /карта\nSitemap: https://example.com/карта.xml\n".as_bytes(), "RT209" @ 3);
    }

    #[test]
    fn rt209_only_on_the_site_of_the_file() {
        use crate::{lint_with, Code, Options};
        let body = b"User-agent: *\nDisallow: /s2\nSitemap: https://example.com/s2/a.xml\nSitemap: http://www.gstatic.com/s2/b.xml\n";
        let robots = robotrules::Robots::parse(body);
        let found = |site: Option<&str>| {
            let options =
                Options { site: site.map(String::from), ..Options::default() };
            lint_with(&robots, body, &options)
                .into_iter()
                .filter(|d| d.code == Code::SitemapDisallowed)
                .map(|d| (d.line, d.message))
                .collect::<Vec<_>>()
        };
        // Unknown site: both judged, each on its own site's terms.
        let both = found(None);
        assert_eq!(both.len(), 2);
        assert!(
            both[1].1.ends_with(
                "if this file is the robots.txt of http://www.gstatic.com"
            ),
            "{}",
            both[1].1
        );
        // Known: only its own sitemaps (default port and case folded).
        let own = found(Some("HTTPS://Example.com:443"));
        assert_eq!(own.len(), 1);
        assert_eq!(
            own[0],
            (
                3,
                "this sitemap is disallowed for Googlebot by this file"
                    .to_string()
            )
        );
    }

    #[test]
    fn origins() {
        use super::origin;
        assert_eq!(
            origin("https://Example.COM:443/x").as_deref(),
            Some("https://example.com")
        );
        assert_eq!(
            origin("http://u:p@h.example:8080?q").as_deref(),
            Some("http://h.example:8080")
        );
        assert_eq!(
            origin("http://h.example./").as_deref(),
            Some("http://h.example")
        );
        assert_eq!(origin("ftp://h.example/"), None);
        assert_eq!(origin("/relative"), None);
        assert_eq!(origin("https:///x"), None);
    }
}
