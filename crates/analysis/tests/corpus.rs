//! Every file of the shared corpus is linted, explained and audited
//! without panic. Run with `--nocapture` for the counts.

use std::collections::BTreeMap;

use robotrules::Robots;
use robotrules_analysis::{
    audit, audit_brief, explain, lint_robots, Catalogue, Via,
};

use crate::util::corpus_files;

#[test]
fn whole_corpus_is_linted_and_audited() {
    let files = corpus_files();
    assert!(files.len() > 16_000, "{}", files.len());
    let catalogue = Catalogue::builtin();
    let mut files_per_code = BTreeMap::<&str, usize>::new();
    let mut access = BTreeMap::<(&str, &str), usize>::new();
    let mut diagnostics = 0;
    for p in &files {
        let body = std::fs::read(p).unwrap();
        let robots = Robots::parse(&body);
        let found = lint_robots(&robots, &body);
        diagnostics += found.len();
        assert!(found.len() <= 1001, "{}", p.display());
        let mut seen = std::collections::BTreeSet::new();
        for d in &found {
            assert!(d.span.end <= body.len(), "{}", p.display());
            if seen.insert(d.code.id()) {
                *files_per_code.entry(d.code.id()).or_default() += 1;
            }
        }
        for s in audit(&robots, &catalogue) {
            if s.crawler.purpose.is_ai() {
                *access.entry(("ai", s.coverage.as_str())).or_default() += 1;
            } else if s.crawler.token == "Googlebot" {
                *access
                    .entry(("Googlebot", s.coverage.as_str()))
                    .or_default() += 1;
            }
        }
        let e = explain(&robots, &body, &["Googlebot"], "/search?q=1");
        assert_eq!(e.allowed, robots.is_allowed("Googlebot", "/search?q=1"));
    }
    let mut top: Vec<_> = files_per_code.into_iter().collect();
    top.sort_by_key(|&(_, n)| std::cmp::Reverse(n));
    eprintln!("{} files, {diagnostics} diagnostics", files.len());
    eprintln!("files per code: {top:?}");
    eprintln!("access: {access:?}");
}

/// The audit decides each distinct set of groups once and shares the
/// verdict among the crawlers that select it: on every file of the
/// corpus, that equals deciding every crawler on its own.
#[test]
fn shared_verdicts_equal_verdicts_per_crawler() {
    let catalogue = Catalogue::builtin();
    let mut decided = 0usize;
    for p in &corpus_files() {
        let body = std::fs::read(p).unwrap();
        let robots = Robots::parse(&body);
        let brief = audit_brief(&robots, &catalogue);
        let full = audit(&robots, &catalogue);
        assert_eq!(brief.len(), catalogue.len());
        for ((crawler, b), f) in
            catalogue.crawlers().iter().zip(&brief).zip(&full)
        {
            let token = crawler.token.as_str();
            let at = || format!("{} {token}", p.display());
            assert_eq!(
                (b.via, b.access),
                (f.via, f.coverage.as_str()),
                "{}",
                at()
            );
            // The first token of the crawler's chain (its own, then its
            // fallbacks) that a group names; else `*`, unless it ignores
            // the `*` groups.
            let chain = std::iter::once(token)
                .chain(crawler.fallback.iter().map(String::as_str));
            let chosen = chain
                .enumerate()
                .find(|(_, t)| robots.select(&[*t]).is_named());
            let any_global = robots.groups().any(|g| g.is_global());
            let (via, matcher) = match chosen {
                Some((0, t)) => (Via::Named, robots.matcher(&[t])),
                Some((_, t)) => (Via::Fallback, robots.matcher(&[t])),
                None if crawler.ignores_global || !any_global => {
                    (Via::None, Robots::parse(b"").matcher(&[token]))
                }
                None => (Via::Global, robots.matcher(&[token])),
            };
            assert_eq!(b.via, via, "{}", at());
            assert_eq!(b.crawl_delay, matcher.crawl_delay(), "{}", at());
            // Alone, with a whole budget of its own; shared, a verdict
            // is either the same or unknown (the file's budget ran out).
            if b.access != "unknown" {
                assert_eq!(b.access, matcher.coverage().as_str(), "{}", at());
                decided += 1;
            }
        }
    }
    assert!(decided > 16_000 * 50, "{decided}");
}
