//! Every file of the shared corpus is linted, explained and audited
//! without panic. Run with `--nocapture` for the counts.

use std::collections::BTreeMap;

use robotrules::Robots;
use robotrules_analysis::{audit, explain, lint_robots, Catalogue};

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
