//! Every check has a file that triggers it at a known line and a file
//! that must not trigger it; line numbers hold on every kind of line end.

use robotrules::Robots;
use robotrules_analysis::{lint, Code, Severity};

/// (code, a file with the problem, the line it is on, a file without it).
fn cases() -> Vec<(&'static str, Vec<u8>, u32, Vec<u8>)> {
    let big_line = {
        // RT001: find the line that crosses 500 KiB.
        let mut body = b"User-agent: *\n".to_vec();
        let mut line = 1;
        let mut crossing = 0;
        while body.len() <= 520_000 {
            line += 1;
            body.extend_from_slice(
                format!("Disallow: /page-{line}\n").as_bytes(),
            );
            if crossing == 0 && body.len() > robotrules::FETCH_LIMIT {
                crossing = line;
            }
        }
        (body, crossing)
    };
    let b = |s: &str| s.as_bytes().to_vec();
    vec![
        ("RT001", big_line.0, big_line.1, b("User-agent: *\nDisallow: /x\n")),
        ("RT002", b("\u{feff}User-agent: *\nDisallow: /x\n"), 1, b("User-agent: *\nDisallow: /x\n")),
        ("RT003", b"User-agent: *\nDisallow: /caf\xe9\n".to_vec(), 2, b("User-agent: *\nDisallow: /café\n")),
        ("RT004", b("User-agent: *\rDisallow: /x\r"), 1, b("User-agent: *\r\nDisallow: /x\r\n")),
        ("RT005", b("<!DOCTYPE html>\n<html><body>Not found</body></html>\n"), 1, b("User-agent: *\nDisallow: /html/\n")),
        ("RT006", b"\xFF\xFEU\0s\0e\0r\0-\0a\0g\0e\0n\0t\0:\0 \0*\0".to_vec(), 1, b("User-agent: *\n")),
        ("RT007", format!("User-agent: *\nDisallow: /{}$\n", "a".repeat(17_000)).into_bytes(), 2, b("User-agent: *\nDisallow: /aaaa$\n")),
        ("RT101", b("User-agent: *\nAlow: /x\n"), 2, b("User-agent: *\nAllow: /x\n")),
        ("RT102", b("User-agent: *\nDissalow: /x\n"), 2, b("User-agent: *\nDisallow: /x\n")),
        ("RT103", b("User-agent: *\nDisallow /x\n"), 2, b("User-agent: *\nDisallow: /x\n")),
        ("RT104", b("Disallow: /x\nUser-agent: *\nDisallow: /y\n"), 1, b("User-agent: *\nDisallow: /x\n")),
        ("RT105", b("User-agent: Googlebot/2.1\nDisallow: /x\n"), 1, b("User-agent: Googlebot\nDisallow: /x\n")),
        ("RT106", b("User-agent: *\nDisallow: https://example.com/x\n"), 2, b("User-agent: *\nDisallow: /x\n")),
        ("RT107", b("User-agent: *\nDisallow: private/\n"), 2, b("User-agent: *\nDisallow: /private/\n")),
        ("RT108", b("User-agent: *\nDisallow: /a$b\n"), 2, b("User-agent: *\nDisallow: /ab$\n")),
        ("RT109", b("User-agent: *\nDisallow: /tmp*\n"), 2, b("User-agent: *\nDisallow: /tmp\n")),
        ("RT110", b("User-agent: *\nDisallow: /x\nSitemap: /sitemap.xml\n"), 3, b("Sitemap: https://example.com/sitemap.xml\n")),
        ("RT111", b("User-agent: *\nCrawl-delay: soon\n"), 2, b("User-agent: *\nCrawl-delay: 5\n")),
        ("RT112", b("User-agent: *\nDisallow / x\n"), 2, b("User-agent: *\nDisallow: /x\n")),
        ("RT113", b("User-agent: *\nDisallow: /_private/ /admin/\n"), 2, b("User-agent: *\nDisallow: /_private/\nDisallow: /admin/\n")),
        ("RT114", b("User-agent: *\nDisallow: /a\0$\n"), 2, b("User-agent: *\nDisallow: /a$\0\0 \n")),
        ("RT115", b("User-agent: *\nDisallow: /x\nDisallow: /search\\?\n"), 3, b("User-agent: *\nDisallow: /search?\nDisallow: /a?q={x}\\\n")),
        ("RT116", b("User-agent: *\nDisallow: /x\nDisallow: /faq#private\n"), 3, b("User-agent: *\nDisallow: /faq\nDisallow: /a #b\n")),
        ("RT201", b("User-agent: *\nDisallow: /x\nCrawl-delay: 5\n"), 3, b("User-agent: *\nDisallow: /x\n")),
        ("RT202", b("User-agent: *\nDisallow: /x\nUser-agent: a\n"), 3, b("User-agent: *\nDisallow: /x\nUser-agent: a\nDisallow:\n")),
        ("RT203", b("User-agent: a\nDisallow: /x\nUser-agent: b\nDisallow: /y\nUser-agent: A\nDisallow: /z\n"), 5, b("User-agent: a\nUser-agent: b\nDisallow: /x\n")),
        ("RT204", b("User-agent: *\nDisallow: /private\nUser-agent: a\nDisallow: /tmp\n"), 3, b("User-agent: *\nDisallow: /private\nUser-agent: a\nDisallow: /tmp\nDisallow: /private\n")),
        ("RT205", b("User-agent: *\nAllow: /x\nDisallow: /x\n"), 3, b("User-agent: *\nAllow: /x/\nDisallow: /x\n")),
        ("RT206", b("User-agent: *\nAllow: /page\nDisallow: /*.ph\n"), 3, b("User-agent: *\nAllow: /page\nDisallow: /*.php\n")),
        ("RT207", b("User-agent: *\nDisallow: /\n"), 2, b("User-agent: *\nDisallow: /admin/\n")),
        ("RT208", b("User-agent: *\nDisallow: /*.js$\n"), 2, b("User-agent: *\nDisallow: /*.pdf$\n")),
        ("RT209", b("User-agent: *\nDisallow: /private/\nSitemap: https://example.com/private/sitemap.xml\n"), 3, b("User-agent: *\nDisallow: /private/\nSitemap: https://example.com/sitemap.xml\n")),
        ("RT210", b("User-agent: Bingbot\nCrawl-delay: 5\n\nUser-agent: GPTBot\nDisallow: /\n"), 4, b("User-agent: Bingbot\nCrawl-delay: 5\nAllow: /\n\nUser-agent: GPTBot\nDisallow: /\n")),
        ("RT211", b("User-agent: *\nDisallow: /tmp/\n\nUser-agent: GPT-Bot\nDisallow: /\n"), 4, b("User-agent: *\nDisallow: /tmp/\n\nUser-agent: GPTBot\nDisallow: /\n")),
    ]
}

/// The same file with CR LF, or CR alone, for every LF.
fn with_line_ends(body: &[u8], end: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len() * 2);
    for &b in body {
        if b == b'\n' {
            out.extend_from_slice(end);
        } else {
            out.push(b);
        }
    }
    out
}

fn codes(body: &[u8]) -> Vec<(&'static str, u32)> {
    lint(body).iter().map(|d| (d.code.id(), d.line)).collect()
}

#[test]
fn every_check_triggers_at_its_line_and_not_on_a_clean_file() {
    let cases = cases();
    assert_eq!(cases.len(), 34);
    for (code, bad, line, good) in cases {
        let found = codes(&bad);
        assert!(
            found.contains(&(code, line)),
            "{code}: expected at line {line}, got {found:?}"
        );
        let clean = codes(&good);
        assert!(
            !clean.iter().any(|(c, _)| *c == code),
            "{code}: unexpected on the clean file: {clean:?}"
        );
    }
}

#[test]
fn line_numbers_hold_with_crlf_and_lone_cr() {
    for (code, bad, line, _) in cases() {
        // RT004 is about the line ends themselves.
        if code == "RT004" {
            continue;
        }
        for end in [&b"\r\n"[..], b"\r"] {
            let body = with_line_ends(&bad, end);
            // The crossing line of RT001 moves with the longer line ends:
            // the first whose text is not read whole.
            let line = if code == "RT001" {
                let mut offset = 0;
                robotrules::raw_lines(&body)
                    .position(|l| {
                        let text_end = offset + l.len();
                        offset += l.len() + end.len();
                        text_end > robotrules::FETCH_LIMIT
                    })
                    .map_or(0, |i| i as u32 + 1)
            } else {
                line
            };
            let found = codes(&body);
            assert!(
                found.contains(&(code, line)),
                "{code} with {end:?}: expected at line {line}, got {found:?}"
            );
        }
    }
}

#[test]
fn crlf_regressions() {
    // RT003 was reported on line 4, and RT004 drifted, with CR LF.
    let found = codes(b"User-agent: *\r\nAllow: /\r\nDisallow: /caf\xe9\r\n");
    assert!(found.contains(&("RT003", 3)), "{found:?}");
    let found =
        codes(b"User-agent: *\r\nAllow: /\r\nDisallow: /x\rAllow: /\xff\n");
    assert!(found.contains(&("RT004", 3)), "{found:?}");
    assert!(found.contains(&("RT003", 4)), "{found:?}");
    let found = codes(b"User-agent: *\rAllow: /\rDisallow: /caf\xe9\r");
    assert!(found.contains(&("RT003", 3)), "{found:?}");
    // Spans are offsets in the original file.
    let body = b"User-agent: *\r\nDisallow: https://e.com/x\r\n";
    let d = lint(body);
    let url = d.iter().find(|d| d.code == Code::UrlAsPath).unwrap();
    assert_eq!(&body[url.span.clone()], b"https://e.com/x");
    assert_eq!(url.column, 11);
}

#[test]
fn typo_suggestions() {
    let found = lint(b"User-agent: *\nAlow: /x\nSitemapp https://e.com/s.xml\nDisalow: /y\nfoo: bar\n");
    let help = |line| {
        found
            .iter()
            .find(|d| d.code == Code::UnknownDirective && d.line == line)
            .and_then(|d| d.help.clone())
    };
    assert_eq!(help(2).as_deref(), Some("did you mean `allow`?"));
    assert_eq!(help(5).as_deref(), Some("no crawler is known to read it"));
    assert!(found
        .iter()
        .any(|d| d.code == Code::AcceptedVariant && d.line == 3));
    assert!(found
        .iter()
        .any(|d| d.code == Code::AcceptedVariant && d.line == 4));
}

#[test]
fn clean_files_have_no_errors_or_warnings() {
    let clean = b"# A careful robots.txt\nUser-agent: *\nDisallow: /admin/\nAllow: /admin/help\nDisallow: /*?session=\n\n\
                  User-agent: Googlebot\nDisallow: /admin/\nAllow: /admin/help\nDisallow: /*?session=\nDisallow: /drafts/\n\n\
                  Sitemap: https://example.com/sitemap.xml\n";
    let found = lint(clean);
    assert!(found.iter().all(|d| d.severity == Severity::Info), "{found:?}");
    let example = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/robots.txt"
    ))
    .unwrap();
    assert!(lint(&example).iter().all(|d| d.severity != Severity::Error));
}

#[test]
fn terminal_escapes_are_text_and_are_escaped() {
    let body = b"User-agent: *\nDisalow: /x\x1b[31mRED\x1b]0;t\x07\nUser-agent: a\x1b[2J\n";
    let found = lint(body);
    assert!(!found.iter().any(|d| d.code == Code::Binary), "{found:?}");
    assert!(found.iter().any(|d| d.code == Code::AcceptedVariant));
    let rt105 = found.iter().find(|d| d.code == Code::BadUserAgent).unwrap();
    assert!(rt105.message.contains("a\\x1b[2J"), "{}", rt105.message);
    for d in &found {
        let text = format!("{}{}", d.message, d.help.as_deref().unwrap_or(""));
        assert!(!text.chars().any(char::is_control), "{text:?}");
    }
}

#[test]
fn rt208_only_real_extensions() {
    for (pattern, flagged) in [
        ("/*.js", true),
        ("/*.js$", true),
        ("/*.mjs", true),
        ("/*.css?v=", true),
        ("/*.json", false),
        ("/*.jsp", false),
        ("/*.jsonp", false),
        ("/*.jsx", false),
    ] {
        let body = format!("User-agent: *\nDisallow: {pattern}\n");
        let found = lint(body.as_bytes());
        assert_eq!(
            found.iter().any(|d| d.code == Code::AssetsBlocked),
            flagged,
            "{pattern}"
        );
    }
}

#[test]
fn rt208_only_what_stays_blocked() {
    let flagged = |body: &str| {
        lint(body.as_bytes())
            .iter()
            .filter(|d| d.code == Code::AssetsBlocked)
            .map(|d| d.line)
            .collect::<Vec<_>>()
    };
    // A folder whose scripts and styles are allowed again.
    assert_eq!(
        flagged("User-agent: *\nDisallow: /wp-includes/\nAllow: /wp-includes/*.js\nAllow: /wp-includes/*.css\n"),
        Vec::<u32>::new()
    );
    // Only the styles: the scripts stay blocked.
    assert_eq!(flagged("User-agent: *\nDisallow: /wp-includes/\nAllow: /wp-includes/*.css\n"), [2]);
    assert_eq!(
        flagged("User-agent: *\nAllow: /static/*.*\nDisallow: /static/\n"),
        Vec::<u32>::new()
    );
    // A pattern that never matches is RT107's, not RT208's.
    let found = lint(b"User-agent: *\nDisallow: .css$\n");
    assert!(found.iter().any(|d| d.code == Code::BadPathStart));
    assert!(!found.iter().any(|d| d.code == Code::AssetsBlocked));
}

#[test]
fn rt207_says_what_allows_open_again() {
    let message = |body: &[u8]| {
        lint(body)
            .into_iter()
            .find(|d| d.code == Code::DisallowAll)
            .map(|d| d.message)
            .unwrap()
    };
    let whole = message(b"User-agent: *\nDisallow: /\n");
    assert!(whole.ends_with("blocked from the whole site"), "{whole}");
    let partly =
        message(b"User-agent: *\nDisallow: /\nAllow: /$\nAllow: /ads.txt\n");
    assert!(
        partly.contains("but what allow rules open again (such as `/"),
        "{partly}"
    );
}

#[test]
fn rt005_error_pages() {
    for body in [
        &b"<h1>404 Not Found</h1>\n"[..],
        b"<H1>Forbidden</H1>403 Error",
        b"<meta charset=utf-8><iframe src=x>",
    ] {
        assert!(
            lint(body).iter().any(|d| d.code == Code::Html),
            "{}",
            String::from_utf8_lossy(body)
        );
    }
    // A page cache's comment in a robots.txt is no page.
    let found =
        lint(b"User-agent: *\nDisallow: /a\n<!-- cached by a plugin -->\n");
    assert!(!found.iter().any(|d| d.code == Code::Html));
    // Markup after rules: on the line where it starts, with help to
    // remove it (not to serve a 404).
    let body = b"User-agent: *\r\nDisallow: /a/\r\n\r\n<html>\r\n<body>Page not found</body>\r\n</html>\r\n";
    let found = lint(body);
    let html = found.iter().find(|d| d.code == Code::Html).unwrap();
    assert_eq!(html.line, 4, "{html:?}");
    assert!(html.help.as_deref().unwrap().contains("remove the markup"));
    // A page without rules: line 1, and the help to serve a robots.txt.
    let found = lint(b"\n\n<html><body>Not found</body></html>\n");
    let html = found.iter().find(|d| d.code == Code::Html).unwrap();
    assert_eq!(html.line, 1, "{html:?}");
    assert_eq!(html.help.as_deref(), Some(Code::Html.help()));
}

#[test]
fn rt207_not_when_allows_open_everything() {
    let found =
        lint(b"User-Agent: *\nAllow: /\n\nUser-Agent: *\nDisallow: /\n");
    assert!(!found.iter().any(|d| d.code == Code::DisallowAll), "{found:?}");
}

#[test]
fn rt208_only_for_the_groups_googlebot_reads() {
    let flagged = |body: &str| {
        lint(body.as_bytes())
            .iter()
            .filter(|d| d.code == Code::AssetsBlocked)
            .map(|d| d.line)
            .collect::<Vec<_>>()
    };
    // A group for another crawler: Google's rendering is not at stake.
    assert_eq!(
        flagged("User-agent: YisouSpider\nDisallow: /*.js$\n"),
        Vec::<u32>::new()
    );
    // Googlebot has a group of its own that allows scripts: the `*`
    // group's disallow does not bind it.
    assert_eq!(
        flagged("User-agent: *\nDisallow: /wp-includes/\n\nUser-agent: Googlebot\nAllow: /*.js\nAllow: /*.css\nDisallow: /private\n"),
        Vec::<u32>::new()
    );
    // Its merged groups count together.
    assert_eq!(
        flagged("User-agent: Googlebot\nDisallow: /wp-includes/\n\nUser-agent: googlebot\nAllow: /wp-includes/*.js\nAllow: /wp-includes/*.css\n"),
        Vec::<u32>::new()
    );
    assert_eq!(flagged("User-agent: Googlebot\nDisallow: /*.css$\n"), [2]);
    assert_eq!(flagged("User-agent: *\nDisallow: /*.css$\n"), [2]);
}

#[test]
fn rt105_help_keeps_crawlers_names() {
    let help = |body: &[u8]| {
        lint(body)
            .into_iter()
            .find(|d| d.code == Code::BadUserAgent)
            .and_then(|d| d.help)
            .unwrap()
    };
    // A version or comment after the name: write the name.
    assert_eq!(
        help(b"User-agent: Googlebot/2.1\nDisallow: /x\n"),
        "write `Googlebot`"
    );
    // A name that goes on: cutting it would not help its crawler.
    for name in [
        "MJ12bot",
        "archive.org_bot",
        "W3C-checklink",
        "Mail.RU_Bot",
        "Offline Explorer",
        "Sogou web spider",
    ] {
        let h = help(format!("User-agent: {name}\nDisallow: /x\n").as_bytes());
        assert!(!h.starts_with("write"), "{name}: {h}");
        assert!(h.contains(name), "{name}: {h}");
    }
    for header in ["Googlebot 2.1", "Googlebot (compatible)", "Foo\t/1.0"] {
        let h =
            help(format!("User-agent: {header}\nDisallow: /x\n").as_bytes());
        assert!(h.starts_with("write `"), "{header}: {h}");
    }
    // A list: a line each.
    for list in ["Googlebot, Bingbot", "GPTBot ClaudeBot CCBot"] {
        assert_eq!(
            help(format!("User-agent: {list}\nDisallow: /x\n").as_bytes()),
            "write one `user-agent` line per crawler",
            "{list}"
        );
    }
    // No name the reference reads: never the advice to write `*`.
    let h = help(b"User-agent: 360Spider\nDisallow: /\n");
    assert!(!h.contains("write `*`"), "{h}");
}

#[test]
fn rt204_reads_names_as_the_reference_does() {
    let messages = |body: &[u8]| {
        lint(body)
            .into_iter()
            .filter(|d| d.code == Code::GlobalRulesDropped)
            .map(|d| d.message)
            .collect::<Vec<_>>()
    };
    // A line whose name the reference reads as empty binds no one out of
    // the `*` groups.
    assert!(messages(b"User-agent: *\nDisallow: /\n\nUser-agent: 360Spider\nDisallow: /tmp\n").is_empty());
    // Names as the reference reads them: `Googlebot` of `Googlebot, Bingbot`.
    let m = messages(b"User-agent: *\nDisallow: /p\n\nUser-agent: Googlebot, Bingbot\nDisallow: /tmp\n");
    assert_eq!(m.len(), 1);
    assert!(
        m[0].contains("to Googlebot:") && !m[0].contains("Bingbot"),
        "{}",
        m[0]
    );
}

#[test]
fn rt204_only_paths_the_star_rules_block() {
    let lines = |body: &[u8]| {
        lint(body)
            .into_iter()
            .filter(|d| d.code == Code::GlobalRulesDropped)
            .map(|d| (d.line, d.related))
            .collect::<Vec<_>>()
    };
    // The named group repeats the `*` rules, which open `/p/` again: no
    // path the `*` group blocks escapes.
    let same = b"User-agent: *\nDisallow: /p/\nAllow: /p/$\n\nUser-agent: a\nDisallow: /p/\nAllow: /p/$\n";
    assert_eq!(lines(same), []);
    // A crawler named in the `*` group itself obeys its rules.
    let inside = b"User-agent: *\nUser-agent: a\nDisallow: /p/\nAllow: /p/$\n\nUser-agent: a\nDisallow: /q\n";
    assert_eq!(lines(inside), []);
    // `/a$$` is `/a$` anchored: repeated, nothing escapes.
    assert_eq!(lines(b"User-agent: *\nDisallow: /a$$\n\nUser-agent: a\nDisallow: /a$$\n"), []);
    // A crawler named beside `*` in a later group escapes the first
    // group's rules: `check` allows it `/x`.
    let beside = b"User-agent: *\nDisallow: /x\n\nUser-agent: b\nUser-agent: *\nDisallow: /y\n";
    assert!(Robots::parse(beside).is_allowed("b", "/x"));
    assert_eq!(lines(beside), [(4, vec![2])]);
    // A disallow in a group that names the crawler binds it, though an
    // allow of its own may beat it: that is no `*` rule lost.
    let own = b"User-agent: Bingbot\nUser-agent: *\nDisallow: /a\n\nUser-agent: Bingbot\nAllow: /a\n";
    assert_eq!(lines(own), []);
    // Past a thousand lines lost, the count says it is a floor.
    let mut many = b"User-agent: *\n".to_vec();
    for i in 0..1_100 {
        many.extend_from_slice(format!("Disallow: /p{i}/\n").as_bytes());
    }
    many.extend_from_slice(b"User-agent: a\nDisallow: /q\n");
    let d = lint(&many)
        .into_iter()
        .find(|d| d.code == Code::GlobalRulesDropped)
        .unwrap();
    assert!(d.message.contains(" and at least 990 more "), "{}", d.message);
    assert_eq!(d.related.len(), 1_000);
    // Where the work budget ends, the counts are floors too, never an
    // exact count that is short.
    let long = "a".repeat(1_500);
    let mut body = b"User-agent: *\n".to_vec();
    for i in 0..150 {
        body.extend_from_slice(format!("Disallow: /{long}{i}\n").as_bytes());
    }
    for i in 0..100 {
        let name = format!(
            "bot{}{}",
            (b'a' + (i / 26) as u8) as char,
            (b'a' + (i % 26) as u8) as char
        );
        body.extend_from_slice(
            format!("User-agent: {name}\nDisallow: /q\n").as_bytes(),
        );
    }
    let found: Vec<_> = lint(&body)
        .into_iter()
        .filter(|d| d.code == Code::GlobalRulesDropped)
        .collect();
    assert!(found.len() > 10, "{}", found.len());
    for d in &found {
        let exact =
            d.message.contains(" and 140 more ") && d.related.len() == 150;
        let floor =
            d.message.contains("at least") || d.message.contains("maybe more");
        assert!(exact || floor, "{}", d.message);
    }
    assert!(found.iter().any(|d| !d.message.contains(" and 140 more ")));
}

#[test]
fn rt210_user_agent_lines_apart_in_one_group() {
    let found = |body: &str| {
        lint(body.as_bytes())
            .into_iter()
            .filter(|d| d.code == Code::MergedGroups)
            .map(|d| (d.line, d.message, d.related))
            .collect::<Vec<_>>()
    };
    // Crawl-delay lines, then the next crawler's `Disallow: /`.
    let got = found("User-agent: msnbot\nCrawl-delay: 1\n\nUser-agent: Bingbot\nCrawl-delay: 1\n\nUser-agent: GPTBot\nDisallow: /\n");
    assert_eq!(got.len(), 1, "{got:?}");
    let (line, message, related) = &got[0];
    assert_eq!((*line, related.as_slice()), (7, &[1, 4][..]), "{message}");
    assert!(
        message.contains("(msnbot, Bingbot)")
            && message.contains("`Disallow: /`"),
        "{message}"
    );
    // A blank line alone parts them too.
    assert_eq!(
        found("User-agent: Googlebot\n\nUser-agent: *\nDisallow: /\n").len(),
        1
    );
    // Lines together, or a comment between: one group meant.
    assert!(found("User-agent: a\nUser-agent: b\nDisallow: /\n").is_empty());
    assert!(found("User-agent: a\n# and b\nUser-agent: b\nDisallow: /\n")
        .is_empty());
    // A blank line before the rules, and groups each with rules.
    assert!(found("User-agent: a\nUser-agent: b\n\nDisallow: /\n").is_empty());
    assert!(found(
        "User-agent: a\nDisallow: /x\n\nUser-agent: b\nDisallow: /\n"
    )
    .is_empty());
    // No rules after: RT202's, not this.
    assert!(found("User-agent: a\n\nUser-agent: b\n").is_empty());
}

#[test]
fn rt107_help_says_what_was_meant() {
    let help = |rule: &str| {
        lint(format!("User-agent: *\nDisallow: {rule}\n").as_bytes())
            .into_iter()
            .find(|d| d.code == Code::BadPathStart)
            .and_then(|d| d.help)
            .unwrap()
    };
    assert_eq!(help("private/"), "write `/private/`");
    assert_eq!(help(".jpg$"), "write `/*.jpg$`");
    assert!(help("pages.example.com/private/").ends_with("write `/private/`"));
    assert!(help("www.example.com").contains("`/` is the whole site"));
    // `$` alone: never the advice that blocks the home page.
    assert!(help("$").starts_with("remove it"), "{}", help("$"));
    // A full-width space in front of the path.
    assert!(help("\u{3000}/private/").ends_with("write `/private/`"));
    // A file's name is no host: never the advice to block the site.
    assert_eq!(help("admin.php"), "write `/admin.php`");
    assert_eq!(help("index.php/admin"), "write `/index.php/admin`");
    assert!(help("example.org/a").ends_with("write `/a`"));
    // `Disallow /a:b`: RT102 says the colon is missing; RT107 would
    // advise `/b`, which no one meant.
    let found = lint(b"User-agent: *\nDisallow /a:b\n");
    assert!(
        found.iter().any(|d| d.code == Code::AcceptedVariant),
        "{found:?}"
    );
    assert!(!found.iter().any(|d| d.code == Code::BadPathStart), "{found:?}");
}

#[test]
fn rt109_counts_the_index_html_retry() {
    // `Disallow: /d/**` (priority 5) beats the retry of
    // `/d/index.html` on `/d/` (priority 4); `/d/` (3) would not.
    let body = b"User-agent: *\nAllow: /d/index.html\nDisallow: /d/**\n";
    let robots = Robots::parse(body);
    assert!(!robots.is_allowed("x", "/d/"));
    let shorter =
        Robots::parse(b"User-agent: *\nAllow: /d/index.html\nDisallow: /d/\n");
    assert!(shorter.is_allowed("x", "/d/"));
    // So the `**` is not redundant.
    let found = lint(body);
    assert!(
        found.iter().all(|d| d.code != Code::RedundantWildcard),
        "{found:?}"
    );
    // Where no priority lies between, it is.
    let found =
        lint(b"User-agent: *\nAllow: /eee/index.html\nDisallow: /d/**\n");
    assert!(
        found.iter().any(|d| d.code == Code::RedundantWildcard),
        "{found:?}"
    );
}

#[test]
fn rt102_a_spaced_typo_has_its_colon() {
    let found = lint(b"User agent: Googlebot\nDisallow: /x\n");
    let d = found.iter().find(|d| d.code == Code::AcceptedVariant).unwrap();
    let help = d.help.as_deref().unwrap();
    assert!(!help.contains("colon"), "{help}");
    let found = lint(b"Sitemap http://e.com/s.xml\n");
    let d = found.iter().find(|d| d.code == Code::AcceptedVariant).unwrap();
    assert!(d.help.as_deref().unwrap().contains("colon"), "{d:?}");
    // Typos lose their colon as other keys do; `User agents:` has it.
    for (line, colon) in [
        ("Dissallow /private:x", true),
        ("User agent foo: bar", true),
        ("User agents: *", false),
    ] {
        let found = lint(format!("{line}\nDisallow: /x\n").as_bytes());
        let d =
            found.iter().find(|d| d.code == Code::AcceptedVariant).unwrap();
        let help = d.help.as_deref().unwrap();
        assert_eq!(help.contains("colon"), colon, "{line}: {help}");
    }
}

#[test]
fn rt113_spaces_in_rules() {
    let found = |rule: &str| {
        lint(format!("User-agent: *\nDisallow: {rule}\n").as_bytes())
            .into_iter()
            .find(|d| d.code == Code::SpaceInRule)
            .and_then(|d| d.help)
    };
    assert_eq!(
        found("/a /b").as_deref(),
        Some("write one path per rule, each on its own line")
    );
    assert_eq!(
        found("/Solution Center/").as_deref(),
        Some("write the space as `%20`, or one path per rule")
    );
    assert_eq!(found("/Solution%20Center/"), None);
    assert_eq!(found("/x"), None);
    // Such a rule decides nothing for the URL a crawler requests.
    let robots = robotrules::Robots::parse(
        b"User-agent: *\nDisallow: /Solution Center/\n",
    );
    assert!(robots.is_allowed("a", "https://e.com/Solution%20Center/x"));
}

#[test]
fn rt115_what_browsers_never_send_in_a_path() {
    let found = |rule: &str| {
        lint(format!("User-agent: *\nDisallow: {rule}\n").as_bytes())
            .into_iter()
            .find(|d| d.code == Code::UnrequestedPath)
            .map(|d| (d.message, d.help.unwrap_or_default()))
    };
    let help = |rule: &str| found(rule).map(|(_, help)| help);
    // A regular expression's escape: the rule it meant.
    assert_eq!(
        help("/search\\?").as_deref(),
        Some("write `/search?`, or `/` for the `\\`")
    );
    // Only the path's `\` goes: in a query it is sent as it is.
    assert_eq!(
        help("/a\\b?q=\\x").as_deref(),
        Some("write `/ab?q=\\x`, or `/` for the `\\`")
    );
    // No rewrite that is still one.
    let regex = help("/\\d{8}/").unwrap();
    assert!(regex.starts_with("rules are not regular expressions"), "{regex}");
    assert_eq!(help("/a{b}").as_deref(), Some("write `/a%7Bb%7D`"));
    let (message, _) = found("/a/`").unwrap();
    assert!(message.contains("a backtick in a path as `%60`"), "{message}");
    let (message, _) = found("/x/%2e%2E/").unwrap();
    assert!(message.contains("`%2e%2E`"), "{message}");
    // Sent as they are, or RT113's.
    for rule in ["/a?q={x}\\", "/a/..x", "/a b", "*{x}"] {
        assert_eq!(found(rule), None, "{rule}");
    }
}

#[test]
fn rt102_a_missing_colon() {
    let help = |body: &[u8]| {
        lint(body)
            .into_iter()
            .find(|d| d.code == Code::AcceptedVariant)
            .and_then(|d| d.help)
            .unwrap()
    };
    let h = help(b"User-agent: *\nDisallow: /x\nsitemap http://www.example.com/sitemap.xml\n");
    assert!(h.contains("colon after `Sitemap` is missing"), "{h}");
    assert_eq!(
        help(b"User-agent: *\nDissallow: /x\n"),
        "write `Disallow`: other parsers ignore `Dissallow`"
    );
}

#[test]
fn rt101_invisible_characters() {
    let found = lint("\u{200d}User-agent: GPTBot\nDisallow: /\n".as_bytes())
        .into_iter()
        .find(|d| d.code == Code::UnknownDirective)
        .unwrap();
    assert!(
        found.message.contains("\\u{200d}User-agent"),
        "{}",
        found.message
    );
    assert_eq!(
        found.help.as_deref(),
        Some("remove the invisible characters: without them it is a `User-agent` line")
    );
    // A direction mark or isolate hides as well as a zero-width space.
    for mark in ['\u{202e}', '\u{2066}'] {
        let text = format!("User-agent: *\nDis{mark}allow: /x\n");
        let found = lint(text.as_bytes())
            .into_iter()
            .find(|d| d.code == Code::UnknownDirective)
            .unwrap();
        assert_eq!(
            found.help.as_deref(),
            Some("remove the invisible characters: without them it is a `Disallow` line"),
            "{mark:?}"
        );
    }
}

#[test]
fn an_error_page_is_said_once() {
    let page = b"<html><head><title>404 Not Found</title></head>\n<body>\nError: the page was not found\nPlease return\n</body></html>\n";
    let codes: Vec<Code> = lint(page).into_iter().map(|d| d.code).collect();
    assert!(codes.contains(&Code::Html), "{codes:?}");
    for noise in
        [Code::UnknownDirective, Code::MissingColon, Code::IgnoredLine]
    {
        assert!(!codes.contains(&noise), "{codes:?}");
    }
    // The same lines in a text file are reported.
    let text =
        b"User-agent: *\nError: the page was not found\nPlease return\n";
    let codes: Vec<Code> = lint(text).into_iter().map(|d| d.code).collect();
    assert!(
        codes.contains(&Code::UnknownDirective)
            && codes.contains(&Code::MissingColon),
        "{codes:?}"
    );
}

#[test]
fn binary_bytes_beside_rules() {
    let mut body =
        b"User-agent: *\nDisallow: /private\nDisalow: /x\n".to_vec();
    body.extend([0u8; 2048]);
    let found = lint(&body);
    let binary = found.iter().find(|d| d.code == Code::Binary).unwrap();
    assert!(
        binary.message.contains("beside its 2 rules"),
        "{}",
        binary.message
    );
    // Its lines are still checked.
    assert!(
        found.iter().any(|d| d.code == Code::AcceptedVariant),
        "{found:?}"
    );
}

#[test]
fn rt002_a_cut_byte_order_mark() {
    // Google's parser skips `EF BB` and `EF` at the start as it skips a
    // whole mark; RT002 says so, and RT003 does not report those bytes.
    for (body, bytes) in [
        (&b"\xEF\xBBUser-agent: *\nDisallow: /x\n"[..], "`EF BB`"),
        (b"\xEFUser-agent: *\nDisallow: /x\n", "`EF`"),
    ] {
        let found = lint(body);
        let codes: Vec<&str> = found.iter().map(|d| d.code.id()).collect();
        assert_eq!(codes, ["RT002"], "{found:?}");
        assert!(found[0].message.contains(bytes), "{}", found[0].message);
        assert_eq!(found[0].line, 1);
    }
    // Bytes that are not UTF-8 after a cut mark are still reported.
    let found = lint(b"\xEF\xBBUser-agent: *\nDisallow: /\xFF\n");
    let codes: Vec<(&str, u32)> =
        found.iter().map(|d| (d.code.id(), d.line)).collect();
    assert_eq!(codes, [("RT002", 1), ("RT003", 2)], "{found:?}");
}

#[test]
fn rt114_names_what_a_nul_drops() {
    let found = lint(b"User-agent: *\nDisallow: /a\0$ # end\n");
    let d = found.iter().find(|d| d.code == Code::NulInLine).unwrap();
    // The span runs from the NUL to the end of the line, in the body.
    assert_eq!((d.line, d.span.clone()), (2, 26..34));
    assert!(d.message.contains("`$ # end`"), "{}", d.message);
    // A NUL in a comment, or before one, drops nothing that is read.
    for body in [
        &b"User-agent: *\n# c\0omment\nDisallow: /c\0# note\n"[..],
        b"User-agent: *\nDisallow: /c \0 \0 # note\n",
    ] {
        let found = lint(body);
        assert!(found.iter().all(|d| d.code != Code::NulInLine), "{found:?}");
    }
    // The rule Google reads is `/a`: it matches `/ab`.
    let robots =
        robotrules::Robots::parse(b"User-agent: *\nDisallow: /a\0$\n");
    assert!(!robots.is_allowed("Googlebot", "https://example.com/ab"));
}

#[test]
fn rt205_rules_never_decide() {
    // Small groups drawn from patterns that overlap in every way the
    // reference ranks (longer wins, allow wins a tie, the earlier line of
    // a kind, `*`, `$`, the index.html retry): a rule said never to
    // decide must not be the deciding rule for any path tried.
    const PATTERNS: [&str; 16] = [
        "/",
        "/*",
        "/d",
        "/d*",
        "/d/",
        "/d/$",
        "/d/index.html",
        "/d/index.html*",
        "/d/index.html$",
        "/d/index.htm",
        "/d*/index.html",
        "/*.html",
        "/*.html$",
        "/x",
        "/x*",
        "/d/x",
    ];
    const PATHS: [&str; 14] = [
        "/",
        "/d",
        "/d/",
        "/dx/",
        "/d/index.html",
        "/d/index.htm",
        "/d/index.htmlx",
        "/dx/index.html",
        "/d/x",
        "/d/x.html",
        "/x",
        "/xy",
        "/a.html",
        "/a.htmlx",
    ];
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let mut flagged = 0;
    for _ in 0..20_000 {
        let mut body = String::from("User-agent: a\n");
        for _ in 0..2 + next(4) {
            let kind = if next(2) == 0 { "Allow" } else { "Disallow" };
            body += &format!("{kind}: {}\n", PATTERNS[next(PATTERNS.len())]);
        }
        let never: Vec<u32> = lint(body.as_bytes())
            .iter()
            .filter(|d| d.code.id() == "RT205")
            .map(|d| d.line)
            .collect();
        flagged += never.len();
        let robots = robotrules::Robots::parse(body.as_bytes());
        let matcher = robots.matcher(&["a"]);
        for path in PATHS {
            let url = format!("https://example.com{path}");
            let decided = matcher.decide(&url).rule().map(|r| r.line());
            assert!(
                decided.is_none_or(|line| !never.contains(&line)),
                "line {decided:?} decides {path} but is reported RT205:\n{body}"
            );
        }
    }
    // The groups do have shadowed rules: the check above is not empty.
    assert!(flagged > 5_000, "{flagged}");
}

#[test]
fn rt005_markup_beside_rules_that_still_read() {
    let body = b"User-agent: *\nDisallow: /a\n<br>\nDisallow: /b\n";
    let robots = Robots::parse(body);
    assert!(!robots.is_allowed("x", "/a") && !robots.is_allowed("x", "/b"));
    let found = lint(body);
    let d = found.iter().find(|d| d.code == Code::Html).unwrap();
    assert!(d.message.contains("beside its 2 rules"), "{}", d.message);
    let page = lint(b"<html><body><h1>404 Not Found</h1></body></html>\n");
    let d = page.iter().find(|d| d.code == Code::Html).unwrap();
    assert_eq!(d.message, "the file is an HTML page, not a robots.txt");
}

#[test]
fn rt110_a_space_in_a_full_url() {
    let found = lint(b"Sitemap: https://e.com/a b.xml\n");
    let d = found.iter().find(|d| d.code == Code::BadSitemap).unwrap();
    assert!(d.message.contains("holds a space"), "{}", d.message);
    assert_eq!(d.help.as_deref(), Some("write the space as `%20`"));
    // Two lines run together: the line break is what is missing.
    let found = lint(
        b"Sitemap: https://e.com/sitemap.rssUser-agent: *\nDisallow: /x\n",
    );
    let d = found.iter().find(|d| d.code == Code::BadSitemap).unwrap();
    assert_eq!(
        d.help.as_deref(),
        Some("a line break is missing before `User-agent:`")
    );
    let found = lint(b"Sitemap: /s.xml\n");
    let d = found.iter().find(|d| d.code == Code::BadSitemap).unwrap();
    assert!(d.message.contains("not an absolute"), "{}", d.message);
    // A name in a query is no line run in.
    let found =
        lint(b"Sitemap: https://e.com/map.xml?filter=allow:all&name=my map\n");
    let d = found.iter().find(|d| d.code == Code::BadSitemap).unwrap();
    assert_eq!(d.help.as_deref(), Some("write the space as `%20`"));
    // No colon after the key: RT102 says so, RT110 nothing more.
    let found = lint(b"Sitemap http://e.com/s.xml\n");
    assert!(found.iter().any(|d| d.code == Code::AcceptedVariant));
    assert!(!found.iter().any(|d| d.code == Code::BadSitemap), "{found:?}");
}
