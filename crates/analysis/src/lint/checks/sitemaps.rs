//! Checks of the `sitemap` lines: RT110 and RT209.

use robotrules::Matcher;

use super::super::Ctx;
use crate::lint::Code;
use crate::text::escape;

/// Returns true if `url` is an absolute http(s) URL with a host.
fn is_absolute(url: &str) -> bool {
    let lower = url.to_ascii_lowercase();
    (lower.starts_with("http://") || lower.starts_with("https://"))
        && url
            .split("://")
            .nth(1)
            .is_some_and(|rest| !rest.is_empty() && !rest.starts_with('/'))
        && !url.contains(' ')
}

/// RT110 (not an absolute URL) and RT209 (disallowed by the file, for
/// Googlebot or for every crawler).
///
/// The two matchers are built once, so that the check is linear in the
/// number of sitemaps.
pub(crate) fn check(ctx: &mut Ctx<'_>) {
    let robots = ctx.robots;
    let mut matchers: Option<[(&str, Matcher); 2]> = None;
    for s in robots.sitemaps() {
        let n = s.line();
        let url = s.url_lossy();
        let span = ctx.value(n);
        if !is_absolute(&url) {
            ctx.report(Code::BadSitemap, n, span, || {
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
        let matchers = matchers.get_or_insert_with(|| {
            [
                ("Googlebot", robots.matcher(&["Googlebot"])),
                ("*", robots.matcher(&[])),
            ]
        });
        let blocked_for = matchers
            .iter()
            .find(|(_, m)| !m.is_allowed(&url))
            .map(|(agent, _)| *agent);
        if let Some(agent) = blocked_for {
            ctx.report(Code::SitemapDisallowed, n, span, || {
                (
                    format!(
                        "this sitemap is disallowed for {agent} by this file"
                    ),
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
    }
}
