//! The serde data model: the JSON shapes of every result.

use robotrules::Robots;
use robotrules_analysis::{
    audit, audit_file, explain, lint, Catalogue, RuleRef,
};
use serde_json::{json, Value};

#[test]
fn diagnostic_shape() {
    let found = lint(b"User-agent: *\r\nAllow: /x\r\nDisallow: /x\r\n");
    let v = serde_json::to_value(&found[0]).unwrap();
    assert_eq!(
        v,
        json!({
            "code": "RT205", "name": "shadowed-rule", "severity": "warning",
            "line": 3, "column": 11, "span": {"start": 36, "end": 38},
            "message": "this rule never decides: it is always beaten by line 2",
            "help": "remove it, or change one of the two", "related": [2],
        })
    );
}

#[test]
fn deciding_rule_shape_is_one() {
    let body = "user-agent: *\ndisallow: /\nallow: /ü\n".as_bytes();
    let robots = Robots::parse(body);
    let decision = robots.decide(&["FooBot"], "/%C3%BC/x");
    let rule =
        serde_json::to_value(RuleRef::from(decision.rule().unwrap())).unwrap();
    assert_eq!(
        rule,
        json!({"line": 3, "kind": "allow", "pattern": "/ü", "normalized": "/%C3%BC",
               "priority": 7, "index_retry": false})
    );
    let e =
        serde_json::to_value(explain(&robots, body, &["FooBot"], "/%C3%BC/x"))
            .unwrap();
    assert_eq!(e["rule"], rule);
    let m = &e["matches"][1];
    let keys = |v: &Value| {
        let mut k: Vec<String> =
            v.as_object().unwrap().keys().cloned().collect();
        k.sort();
        k
    };
    let mut with_decides = keys(&rule);
    with_decides.push("decides".into());
    with_decides.push("text".into());
    with_decides.sort();
    assert_eq!(keys(m), with_decides);
    assert_eq!(m["decides"], true);
    assert_eq!(e["beyond_fetch_limit"], false);
}

#[test]
fn standing_shape() {
    let robots = Robots::parse(b"User-agent: *\nDisallow: /private\n");
    let s = audit(&robots, &Catalogue::builtin());
    let gpt = s.iter().find(|s| s.crawler.token == "GPTBot").unwrap();
    let v = serde_json::to_value(gpt).unwrap();
    assert_eq!(v["purpose"], "ai-training");
    assert_eq!(v["via"], "global");
    assert_eq!(v["named"], false);
    assert_eq!(v["lines"], json!([1]));
    assert_eq!(v["access"], "partial");
    assert_eq!(v["allowed_path"], "/");
    assert_eq!(v["disallowed_path"], "/private");
    assert_eq!(v["crawl_delay"], Value::Null);
    // The crawl-delay of the groups that apply.
    let robots = Robots::parse(
        b"User-agent: Bingbot\nCrawl-delay: 10\nDisallow:\n\n\
          User-agent: *\nCrawl-delay: 0.5\nDisallow: /x\n",
    );
    let s = audit(&robots, &Catalogue::builtin());
    let delay = |token: &str| {
        let s = s.iter().find(|s| s.crawler.token == token).unwrap();
        serde_json::to_value(s).unwrap()["crawl_delay"].clone()
    };
    assert_eq!(delay("Bingbot"), json!(10.0));
    assert_eq!(delay("GPTBot"), json!(0.5));
    assert_eq!(
        serde_json::to_value(&s[0]).unwrap()["as_fetched"],
        Value::Null
    );
}

#[test]
fn standing_as_fetched_shape() {
    // A group beyond 500 KiB names GPTBot and gives it a crawl-delay.
    let mut body = b"User-agent: *\nDisallow: /private\n".to_vec();
    body.resize(robotrules::FETCH_LIMIT + 10, b'#');
    body.extend_from_slice(
        b"\nUser-agent: GPTBot\nCrawl-delay: 5\nDisallow: /\n",
    );
    let robots = Robots::parse(&body);
    let s = audit_file(&robots, &body, &Catalogue::builtin());
    let gpt = s.iter().find(|s| s.crawler.token == "GPTBot").unwrap();
    assert!(gpt.differs_as_fetched());
    let v = serde_json::to_value(gpt).unwrap();
    assert_eq!(
        (&v["access"], &v["via"], &v["crawl_delay"]),
        (&json!("disallowed"), &json!("named"), &json!(5.0))
    );
    let f = &v["as_fetched"];
    let mut keys: Vec<&str> =
        f.as_object().unwrap().keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        [
            "access",
            "allowed_path",
            "crawl_delay",
            "disallowed_path",
            "lines",
            "named",
            "via"
        ]
    );
    assert_eq!(f["named"], false);
    assert_eq!(f["via"], "global");
    assert_eq!(f["lines"], json!([1]));
    assert_eq!(f["access"], "partial");
    assert_eq!(f["disallowed_path"], "/private");
    assert_eq!(f["crawl_delay"], Value::Null);
    // Crawlers that read the `*` group either way stand the same.
    let bing = s.iter().find(|s| s.crawler.token == "Bingbot").unwrap();
    assert!(bing.as_fetched.is_some() && !bing.differs_as_fetched());
}
