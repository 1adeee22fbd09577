//! Any bytes are linted, explained and audited without a panic, with
//! bounded output that is safe to print; a User-Agent header made of
//! them names a valid product token or none; a URL made of them that a
//! URL parser reads otherwise is requested as a URL read as itself.
#![no_main]

use libfuzzer_sys::fuzz_target;
use robotrules::Robots;
use robotrules_analysis::{
    agent_for_user_agent, audit_file, check_url, explain, lint_robots,
    Catalogue, WarningKind, MAX_MATCHES,
};

fuzz_target!(|data: &[u8]| {
    let robots = Robots::parse(data);
    let found = lint_robots(&robots, data);
    assert!(found.len() <= 1001);
    for d in &found {
        assert!(d.span.start <= d.span.end && d.span.end <= data.len());
        assert!(d.line >= 1 && d.line as usize <= robots.line_count());
        assert!(!d.message.chars().any(char::is_control), "{d:?}");
    }
    let url = String::from_utf8_lossy(&data[..data.len().min(64)]);
    let e = explain(&robots, data, &["FooBot"], &url);
    assert_eq!(e.allowed, robots.decide(&["FooBot"], &url).is_allowed());
    assert!(e.matches.len() <= MAX_MATCHES + 1);
    let deciding = e.matches.iter().filter(|m| m.decides).count();
    assert_eq!(deciding, usize::from(e.rule.is_some()), "{e:?}");
    for q in e.quotes() {
        assert!(!q.text.chars().any(char::is_control));
    }
    let _ = audit_file(&robots, data, &Catalogue::builtin());
    // The URL a crawler requests, when a URL parser reads another path
    // than the one judged, is read as itself.
    for w in check_url(&url) {
        assert!(!w.message.chars().any(char::is_control), "{w:?}");
        if let (WarningKind::ParsedOtherwise, Some(requested)) =
            (w.kind, &w.suggestion)
        {
            let again = check_url(requested);
            assert!(
                again.iter().all(|w| w.kind != WarningKind::ParsedOtherwise),
                "{url:?} -> {requested:?}: {again:?}"
            );
        }
    }
    // The input's first line as a User-Agent header: a crawler name, if
    // any, is a product token the reference can match.
    let header = url.lines().next().unwrap_or("");
    if let Some(name) = agent_for_user_agent(&robots, header) {
        assert!(robotrules::is_valid_agent(&name), "{header:?}: {name:?}");
    }
});
