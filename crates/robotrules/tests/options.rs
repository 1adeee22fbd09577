//! The readings other than the reference's: strict RFC 9309 keys, AdsBot's
//! "ignore `*`", and the 1996 first-match semantics.

use robotrules::{Coverage, MatchOptions, ParseOptions, Robots, Semantics};

fn strict(body: &str) -> Robots {
    Robots::parse_with(body.as_bytes(), ParseOptions::new().strict(true))
}

macro_rules! allowed {
    ($robots:expr, $agent:expr, $url:expr, $want:expr) => {
        assert_eq!($robots.is_allowed($agent, $url), $want, "{}", $url);
        assert_eq!(
            $robots.matcher(&[$agent]).is_allowed($url),
            $want,
            "matcher, {}",
            $url
        );
    };
}

#[test]
fn strict_refuses_typos_prefixes_and_missing_colons() {
    let body = "useragent: a\nUser Agent: a\nuser-agent-x: a\nuser-agent: b\n\
                dissallow: /1\nDisallowed: /2\ndisallow /3\nDISALLOW: /4\n\
                site-map: http://h/s.xml\nSitemap: http://h/t.xml\n";
    let lenient = Robots::parse(body.as_bytes());
    let robots = strict(body);
    for url in ["/1", "/2", "/3", "/4"] {
        allowed!(lenient, "b", url, false);
    }
    allowed!(robots, "b", "/1", true);
    allowed!(robots, "b", "/2", true);
    allowed!(robots, "b", "/3", true);
    allowed!(robots, "b", "/4", false);
    // `a` is named only through typos and a prefix: not named at all.
    allowed!(robots, "a", "/4", true);
    allowed!(lenient, "a", "/4", false);
    let sitemaps: Vec<_> = robots.sitemaps().map(|s| s.line()).collect();
    assert_eq!(sitemaps, [10]);
    // The refused keys are unknown directives, with no typo flag.
    let unknown: Vec<_> =
        robots.unknown_directives().map(|u| u.line()).collect();
    assert_eq!(unknown, [1, 2, 3, 5, 6, 9]);
    assert!(robots.lines().all(|l| !l.is_typo() && !l.is_missing_colon()));
    assert!(!robots.line(7).unwrap().has_directive());
}

#[test]
fn strict_keeps_everything_else() {
    let body = "User-Agent: FooBot\nAllow: /a/\nDisallow: /a\n\n\
                user-agent: *\ndisallow: /*.pdf$\n";
    let robots = strict(body);
    let reference = Robots::parse(body.as_bytes());
    for url in ["/a/", "/a", "/ab", "/x.pdf", "/x.pdf?q", "/"] {
        for agent in ["FooBot", "other"] {
            assert_eq!(
                robots.is_allowed(agent, url),
                reference.is_allowed(agent, url),
                "{agent} {url}"
            );
        }
    }
}

#[test]
fn ignore_global_is_adsbot() {
    let robots = Robots::parse(
        b"user-agent: *\ndisallow: /\n\nuser-agent: AdsBot-Google\ndisallow: /ads\n",
    );
    let ads = MatchOptions::new().ignore_global(true);
    // Named: its own group, as always.
    let named = robots.matcher_with(&["AdsBot-Google"], ads);
    assert!(named.is_allowed("/x"));
    assert!(!named.is_allowed("/ads/1"));
    // Not named: `*` is ignored, so everything is allowed...
    let other = robots.matcher_with(&["AdsBot-Google-Mobile"], ads);
    assert!(other.is_allowed("/x"));
    assert_eq!(other.coverage(), Coverage::AllowedEverywhere);
    let d = robots.decide_with(&["AdsBot-Google-Mobile"], "/x", ads);
    assert!(d.is_allowed());
    assert!(d.rule().is_none());
    // ...where the reference applies `*`.
    assert!(!robots.is_allowed("AdsBot-Google-Mobile", "/x"));
    let selection = robots.select_with(&["AdsBot-Google-Mobile"], ads);
    assert_eq!(selection.groups().count(), 0);
    assert_eq!(selection.ignored_global_groups().count(), 1);
}

fn koster() -> MatchOptions {
    MatchOptions::new().semantics(Semantics::FirstMatch1996)
}

macro_rules! first {
    ($body:expr, $url:expr, $want:expr, $line:expr) => {
        let robots = Robots::parse($body.as_bytes());
        let one = robots.decide_with(&["bot"], $url, koster());
        let matcher = robots.matcher_with(&["bot"], koster());
        let many = matcher.decide($url);
        for d in [one, many] {
            assert_eq!(d.is_allowed(), $want, "{:?} {}", $body, $url);
            assert_eq!(d.rule().map(|r| r.line()), $line, "{}", $url);
        }
        assert_eq!(matcher.is_allowed($url), $want);
    };
}

#[test]
fn first_match_in_file_order() {
    let body = "user-agent: *\ndisallow: /a\nallow: /a/b\n";
    first!(body, "/a/b", false, Some(2));
    first!(body, "/c", true, None);
    let body = "user-agent: *\nallow: /a/b\ndisallow: /a\n";
    first!(body, "/a/b", true, Some(2));
    first!(body, "/a/c", false, Some(3));
}

#[test]
fn first_match_has_no_wildcards() {
    let body = "user-agent: *\ndisallow: /*.pdf\ndisallow: /x$\n";
    first!(body, "/a.pdf", true, None);
    first!(body, "/*.pdf", false, Some(2));
    first!(body, "/x", true, None);
    first!(body, "/x$", false, Some(3));
}

#[test]
fn first_match_decodes_escapes_but_2f() {
    let body = "user-agent: *\ndisallow: /%7Euser\ndisallow: /a%2Fb\n";
    first!(body, "/~user/x", false, Some(2));
    first!(body, "/%7euser", false, Some(2));
    first!(body, "/a%2Fb", false, Some(3));
    first!(body, "/a%2fb", false, Some(3));
    first!(body, "/a/b", true, None);
    // Non-ASCII: normalised in the pattern, decoded on both sides.
    let body = "user-agent: *\ndisallow: /caf\u{e9}\n";
    first!(body, "/caf%C3%A9/menu", false, Some(2));
    first!(body, "/caf%c3%a9/menu", false, Some(2));
}

#[test]
fn first_match_empty_value_allows_everything() {
    let body = "user-agent: *\ndisallow:\ndisallow: /\n";
    first!(body, "/x", true, Some(2));
    let body = "user-agent: *\ndisallow: /\ndisallow:\n";
    first!(body, "/x", false, Some(2));
}

#[test]
fn first_match_coverage() {
    let cov = |body: &str| {
        Robots::parse(body.as_bytes())
            .matcher_with(&["bot"], koster())
            .coverage()
    };
    assert_eq!(
        cov("user-agent: *\ndisallow: /\n"),
        Coverage::DisallowedEverywhere
    );
    assert_eq!(
        cov("user-agent: *\ndisallow:\ndisallow: /\n"),
        Coverage::AllowedEverywhere
    );
    // `*` is a plain byte: only paths starting `/*` are disallowed.
    let c = cov("user-agent: *\ndisallow: /*\n");
    assert_eq!(c.as_str(), "partial");
    assert_eq!(c.disallowed_witness(), Some("/*"));
    let c = cov("user-agent: *\nallow: /a\ndisallow: /\n");
    assert_eq!(c.allowed_witness(), Some("/a"));
    assert_eq!(
        cov("user-agent: *\ndisallow: /\nallow: /a\n"),
        Coverage::DisallowedEverywhere
    );
}
