//! The crate against the naive reference of the tests. The input is
//! `agent \n url \n body`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use robotrules::{Coverage, MatchOptions, Matcher, ParseOptions, Robots, Semantics};

#[path = "../../crates/robotrules/tests/naive.rs"]
#[allow(dead_code)]
mod naive;

fuzz_target!(|data: &[u8]| {
    let mut parts = data.splitn(3, |&b| b == b'\n');
    let (Some(agent), Some(url), Some(body)) = (parts.next(), parts.next(), parts.next()) else {
        return;
    };
    // The naive matcher recurses per pattern byte: keep inputs small.
    if body.len() > 4096 || url.len() > 256 {
        return;
    }
    let (agent, url) = (String::from_utf8_lossy(agent), String::from_utf8_lossy(url));
    let robots = Robots::parse(body);
    let want = naive::decide(body, &[&agent], &url);
    let got = robots.decide(&[&agent], &url);
    assert_eq!((got.is_allowed(), got.rule().map_or(0, |r| r.line())), want);
    // A fresh matcher checks rule by rule; one with its index built
    // checks through it. Both give the reference's verdict and line.
    let line = |d: robotrules::Decision<'_>| (d.is_allowed(), d.rule().map_or(0, |r| r.line()));
    let matcher = robots.matcher(&[&agent]);
    assert!(!matcher.is_compiled());
    assert_eq!(line(matcher.decide(&url)), want);
    let compiled = robots.matcher(&[&agent]);
    compiled.compile();
    assert!(compiled.is_compiled());
    assert_eq!(line(compiled.decide(&url)), want);
    assert_eq!(compiled.is_allowed(&url), want.0);
    assert_eq!(matcher.is_allowed(&url), want.0);
    // The deciding rule is the same in every detail.
    let (a, b) = (matcher.decide(&url).rule(), compiled.decide(&url).rule());
    assert_eq!(a, b);
    // Parsed for the crawler alone: the same matcher, fresh and indexed.
    let bound = Matcher::parse(body, &[&agent]);
    assert_eq!(bound.decide(&url), matcher.decide(&url));
    assert_eq!(
        (bound.is_named(), bound.rule_count(), bound.crawl_delay(), bound.request_rate()),
        (matcher.is_named(), matcher.rule_count(), matcher.crawl_delay(), matcher.request_rate())
    );
    bound.compile();
    assert_eq!(bound.decide(&url), compiled.decide(&url));
    // Site-level claims hold for this URL's path as a crawler requests
    // it: parsed as a browser parses it (a space, `"`, `<`, `>`, a
    // control byte, a byte from 0x7F up and, in the path, `{`, `}` and
    // `` ` `` percent-encoded; `\` read as `/`; `.` and `..` segments
    // resolved), and witnesses are what they say, by the naive reference.
    let requested = url::Url::parse(&format!("http://h{}", robotrules::path_of(&url))).map(|u| {
        let query = u.query().map(|q| format!("?{q}")).unwrap_or_default();
        format!("http://h{}{query}", u.path())
    });
    let as_requested = requested.map(|r| naive::decide(body, &[&agent], &r).0);
    match matcher.coverage() {
        Coverage::AllowedEverywhere => assert_ne!(as_requested, Ok(false)),
        Coverage::DisallowedEverywhere => assert_ne!(as_requested, Ok(true)),
        Coverage::Partial { allowed, disallowed } => {
            let url = |path: &str| format!("http://h{path}");
            assert!(naive::decide(body, &[&agent], &url(&allowed)).0);
            assert!(!naive::decide(body, &[&agent], &url(&disallowed)).0);
        }
        _ => {}
    }
    // Made from the groups chosen beforehand: the same matcher.
    let selection = robots.select(&[&agent]);
    let groups: Vec<usize> = selection.groups().map(|g| g.index()).collect();
    let given = robots.matcher_for_groups(&groups, selection.is_named());
    assert_eq!(given.decide(&url), matcher.decide(&url));
    assert_eq!(given.coverage(), matcher.coverage());
    assert_eq!(given.crawl_delay(), matcher.crawl_delay());
    // The other readings: both engines agree.
    for options in [
        MatchOptions::new().ignore_global(true),
        MatchOptions::new().semantics(Semantics::FirstMatch1996),
    ] {
        let one = robots.decide_with(&[&agent], &url, options);
        let m = robots.matcher_with(&[&agent], options);
        let many = m.decide(&url);
        let key = |d: robotrules::Decision<'_>| {
            (d.is_allowed(), d.rule().map(|r| (r.line(), r.kind())))
        };
        assert_eq!(key(one), key(many));
        let bound = Matcher::parse_with(body, &[&agent], ParseOptions::new(), options);
        assert_eq!(bound.decide(&url), many);
    }
});
