//! Any bytes parse, and every accessor and check runs, without a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use robotrules::Robots;

fuzz_target!(|data: &[u8]| {
    let robots = Robots::parse(data);
    for group in robots.groups() {
        for agent in group.agents() {
            let _ = agent.value_lossy();
        }
        for rule in group.rules() {
            let _ = rule.match_priority(rule.pattern());
        }
        let _ = group.unknown_directives().count();
        // Extension values, read where a crawler's pacing reads them.
        for e in group.extensions() {
            let _ = e.value();
        }
        let _ = (group.crawl_delay(), group.request_rate(), group.visit_time());
    }
    let _ = (robots.sitemaps().count(), robots.orphan_rules().count());
    let lines = robots.lines().count();
    assert_eq!(lines, robots.line_count());
    assert!(robots.line(lines as u32).is_some());
    let url = String::from_utf8_lossy(&data[..data.len().min(64)]);
    for agents in [&["FooBot"][..], &["*"], &[], &["a", "b"]] {
        let matcher = robots.matcher(agents);
        let _ = (matcher.crawl_delay(), matcher.request_rate());
        let one = robots.decide(agents, &url);
        let many = matcher.decide(&url);
        assert_eq!(one, many, "one-shot and matcher disagree");
    }
});
