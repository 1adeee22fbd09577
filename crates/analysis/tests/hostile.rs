//! Generated hostile files: the output is right and bounded. (Time is not
//! asserted; every check is linear or n log n, see the crate docs.)

use robotrules::Robots;
use robotrules_analysis::{audit, explain, lint, Catalogue, Code};

use crate::util::letters;

/// 10,000 named groups with two wildcard rules each (20,000 in all),
/// 10,000 sitemaps, and a `*` group that all of them escape.
fn hostile() -> Vec<u8> {
    let mut body = b"User-agent: *\nDisallow: /*p\n".to_vec();
    for i in 0..10_000 {
        let name = letters(i);
        body.extend_from_slice(
            format!("User-agent: t{name}\nDisallow: /*{name}*q\nAllow: /*{name}$\n")
                .as_bytes(),
        );
    }
    for i in 0..10_000 {
        body.extend_from_slice(format!("Sitemap: http://e/p{i}\n").as_bytes());
    }
    body
}

fn count(found: &[robotrules_analysis::Diagnostic], code: Code) -> usize {
    found.iter().filter(|d| d.code == code).count()
}

#[test]
fn ten_thousand_groups_sitemaps_and_wildcards() {
    let body = hostile();
    assert!(body.len() > robotrules::FETCH_LIMIT, "{}", body.len());
    let start = std::time::Instant::now();
    let found = lint(&body);
    eprintln!("hostile: {} bytes linted in {:?}", body.len(), start.elapsed());
    // Every named group escapes `Disallow: /*p`, and every sitemap is
    // disallowed by it: 100 of each are kept, the rest counted.
    assert_eq!(count(&found, Code::GlobalRulesDropped), 100);
    assert_eq!(count(&found, Code::SitemapDisallowed), 100);
    let first =
        found.iter().find(|d| d.code == Code::GlobalRulesDropped).unwrap();
    assert_eq!((first.line, &first.related[..]), (3, &[2][..]));
    assert!(first.message.contains(" to ta: "), "{}", first.message);
    let sitemap =
        found.iter().find(|d| d.code == Code::SitemapDisallowed).unwrap();
    assert_eq!(sitemap.line, 2 + 30_000 + 1);
    assert_eq!(count(&found, Code::TooLarge), 1);
    assert_eq!(count(&found, Code::ShadowedRule), 0);
    let last = found.last().unwrap();
    assert_eq!(last.code, Code::TooManyDiagnostics);
    assert!(
        last.message.starts_with("19800 more diagnostics were left out"),
        "{}",
        last.message
    );
    assert!(last.message.contains("RT204 9900"), "{}", last.message);
    assert!(last.message.contains("RT209 9900"), "{}", last.message);
    assert!(found.len() <= 1001);
}

#[test]
fn one_crawler_in_ten_thousand_groups() {
    let mut body = b"User-agent: *\nDisallow: /0\n".to_vec();
    for i in 0..10_000 {
        body.extend_from_slice(
            format!("User-agent: same\nDisallow: /{}\n", letters(i))
                .as_bytes(),
        );
    }
    let found = lint(&body);
    let merged: Vec<_> = found
        .iter()
        .filter(|d| d.code == Code::AgentInSeveralGroups)
        .collect();
    assert_eq!(merged.len(), 1);
    assert_eq!(merged[0].line, 5);
    assert_eq!(merged[0].related.len(), 9_999);
    assert!(merged[0]
        .message
        .ends_with("and 9988 more): its groups are merged"));
    assert!(merged[0].message.starts_with(
        "`same` was named on line 3 already (and again on line 7, 9, "
    ));
    // Every group is `same`'s, merged: each escapes the `*` disallow.
    assert_eq!(count(&found, Code::GlobalRulesDropped), 100);
}

#[test]
fn one_group_of_many_misspelled_names_and_whole_site_rules() {
    // 30,000 `user-agent` lines in one group, each a misspelled name, the
    // last Googlebot, then 10,000 rules that match every path: RT211 and
    // RT207 read the group's names once, and the rules once.
    let mut body = Vec::new();
    for _ in 0..30_000 {
        body.extend_from_slice(b"User-agent: GPT-Bot\n");
    }
    body.extend_from_slice(b"User-agent: Googlebot\n");
    for _ in 0..10_000 {
        body.extend_from_slice(b"Disallow: /\n");
    }
    let found = lint(&body);
    assert_eq!(count(&found, Code::MisspelledCrawler), 100);
    let blocked: Vec<u32> = found
        .iter()
        .filter(|d| d.code == Code::DisallowAll)
        .map(|d| d.line)
        .collect();
    assert_eq!(blocked, [30_002]);
    // With the crawler meant in the group as well: none.
    body.splice(0..0, b"User-agent: GPTBot\n".iter().copied());
    assert_eq!(count(&lint(&body), Code::MisspelledCrawler), 0);
}

#[test]
fn many_rules_of_one_form_and_one_priority() {
    let mut body = b"User-agent: *\n".to_vec();
    for i in 0..20_000 {
        let (kind, star) =
            if i % 2 == 0 { ("Allow", "") } else { ("Disallow", "*") };
        body.extend_from_slice(format!("{kind}: /x{star}\n").as_bytes());
    }
    for i in 0..20_000 {
        body.extend_from_slice(
            format!(
                "Allow: /*{}\nDisallow: /{}*\n",
                letters(i + 500),
                letters(i + 500)
            )
            .as_bytes(),
        );
    }
    let found = lint(&body);
    // Every `/x` rule but the best (the first `Disallow: /x*`) never
    // decides.
    let shadowed = found.iter().filter(|d| d.code == Code::ShadowedRule);
    assert_eq!(shadowed.clone().count(), 100);
    assert!(found.len() <= 1001);
}

#[test]
fn random_bytes_are_bounded() {
    let body =
        robotrules_testdata::random_bytes(1 << 20, 0x2545_f491_4f6c_dd1d);
    let found = lint(&body);
    assert!(found.iter().any(|d| d.code == Code::Binary));
    assert!(found.len() <= 1001, "{}", found.len());
    for code in Code::ALL {
        assert!(found.iter().filter(|d| d.code == *code).count() <= 100);
    }
    for d in &found {
        assert!(!d.message.chars().any(char::is_control), "{:?}", d.message);
    }
    let robots = Robots::parse(&body);
    let _ = audit(&robots, &Catalogue::builtin());
    let _ = explain(&robots, &body, &["a"], "/x");
}

#[test]
fn one_group_names_ten_thousand_crawlers() {
    let mut body = b"User-agent: *\nDisallow: /0\n".to_vec();
    for i in 0..10_000 {
        body.extend_from_slice(
            format!("User-agent: t{}\n", letters(i)).as_bytes(),
        );
    }
    for i in 0..10_000 {
        body.extend_from_slice(
            format!("Disallow: /x{}\n", letters(i)).as_bytes(),
        );
    }
    for i in 0..10_000 {
        body.extend_from_slice(
            format!("User-agent: t{}\nDisallow: /y\n", letters(i)).as_bytes(),
        );
    }
    let found = lint(&body);
    // Every crawler escapes `Disallow: /0`; the first group is reported
    // with the agents found to escape within the budget, cut to ten.
    assert_eq!(count(&found, Code::GlobalRulesDropped), 100);
    let first =
        found.iter().find(|d| d.code == Code::GlobalRulesDropped).unwrap();
    assert_eq!(first.line, 3);
    let message = &first.message;
    assert!(message.starts_with("the `*` rules do not apply to ta, tb, "));
    assert!(
        message.ends_with(" more: the disallows on line 2 do not bind them"),
        "{message}"
    );
    assert_eq!(count(&found, Code::AgentInSeveralGroups), 100);
}

#[test]
fn long_star_rules_and_one_group_of_many_names() {
    // 12,000 crawlers named in one group whose 14 rules, 16 KB each,
    // repeat none of the `*` group's: each set of groups is compared
    // once, every name is counted, and the work is linear.
    let long = "a".repeat(16_000);
    let mut body = b"User-agent: *\n".to_vec();
    for i in 0..14 {
        body.extend_from_slice(format!("Disallow: /{long}{i}\n").as_bytes());
    }
    for i in 0..12_000 {
        body.extend_from_slice(
            format!("User-agent: t{}\n", letters(i)).as_bytes(),
        );
    }
    for i in 0..14 {
        body.extend_from_slice(
            format!("Disallow: /{}*z{i}\n", &long[5..]).as_bytes(),
        );
    }
    let found = lint(&body);
    assert_eq!(count(&found, Code::GlobalRulesDropped), 1);
    let d = found.iter().find(|d| d.code == Code::GlobalRulesDropped).unwrap();
    assert_eq!((d.line, d.related.len()), (16, 14));
    assert!(
        d.message.starts_with("the `*` rules do not apply to ta, tb, ")
            && d.message.contains(" and 11990 more: "),
        "{}",
        d.message
    );
}
