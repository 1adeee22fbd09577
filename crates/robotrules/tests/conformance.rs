//! Every case of `shared/conformance/`, extracted from the reference's own
//! tests, must pass.

use robotrules::{escape_pattern, is_valid_agent, path_of, Robots};

use crate::shared::{self, bytes, str};

#[test]
fn allowance() {
    let cases = shared::conformance("google_cases.json");
    assert_eq!(cases.len(), 145);
    let mut failures = Vec::new();
    for case in &cases {
        let body = bytes(case, "robotstxt");
        let agent = str(case, "useragent");
        let url = str(case, "url");
        let want = case["allowed"].as_bool().expect("allowed");
        let robots = Robots::parse(&body);
        let one = robots.is_allowed(agent, url);
        let many = robots.matcher(&[agent]);
        let decision = many.decide(url);
        // The one-shot path and the compiled matcher must agree, on the
        // verdict and on the deciding line.
        let one_line = robots.decide(&[agent], url).rule().map(|r| r.line());
        let many_line = decision.rule().map(|r| r.line());
        // And so must the matcher once it has built its index.
        let compiled = robots.matcher(&[agent]);
        compiled.compile();
        let compiled_line = compiled.decide(url).rule().map(|r| r.line());
        if one != want
            || many.is_allowed(url) != want
            || compiled.is_allowed(url) != want
            || one_line != many_line
            || one_line != compiled_line
        {
            failures.push(format!(
                "{}: want {want}, one-shot {one}, matcher {}, lines {one_line:?} \
                 vs {many_line:?}",
                str(case, "name"),
                decision.is_allowed()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn url_to_path() {
    let cases = shared::conformance("google_path_cases.json");
    assert_eq!(cases.len(), 19);
    for case in &cases {
        assert_eq!(
            path_of(str(case, "url")),
            str(case, "path"),
            "{}",
            str(case, "name")
        );
    }
}

#[test]
fn escaping() {
    let cases = shared::conformance("google_escape_cases.json");
    assert_eq!(cases.len(), 4);
    for case in &cases {
        let got = escape_pattern(str(case, "pattern").as_bytes());
        assert_eq!(got, str(case, "escaped"), "{}", str(case, "name"));
    }
}

#[test]
fn valid_agents() {
    let cases = shared::conformance("google_useragent_cases.json");
    assert_eq!(cases.len(), 11);
    for case in &cases {
        let want = case["valid"].as_bool().expect("valid");
        assert_eq!(
            is_valid_agent(str(case, "useragent")),
            want,
            "{}",
            str(case, "name")
        );
    }
}

/// The reference's two reporters, recomputed from the public API.
#[test]
fn reports() {
    let cases = shared::conformance("google_report_cases.json");
    assert_eq!(cases.len(), 16);
    let mut assertions = 0;
    for case in &cases {
        let name = str(case, "name");
        let robots = Robots::parse(&bytes(case, "robotstxt"));
        let stats = str(case, "reporter") == "RobotsStatsReporter";
        let expected = case["expected"].as_object().expect("expected");
        for (metric, want) in expected {
            let got = match metric.as_str() {
                "valid_directives" => {
                    serde_json::json!(robots
                        .lines()
                        .filter(|l| is_valid_tag(l.tag()))
                        .count())
                }
                "unknown_directives" => {
                    serde_json::json!(robots.unknown_directives().count())
                }
                "last_line_seen" if stats => {
                    // The stats reporter sees only lines with a directive.
                    let last =
                        robots.lines().filter(|l| l.has_directive()).last();
                    serde_json::json!(last.map_or(0, |l| l.number()))
                }
                "last_line_seen" | "parse_results_size" => {
                    serde_json::json!(robots.line_count())
                }
                "sitemap" => {
                    let all: Vec<u8> = robots
                        .sitemaps()
                        .flat_map(|s| s.url().to_vec())
                        .collect();
                    serde_json::json!(String::from_utf8(all).expect("utf-8"))
                }
                other => panic!("{name}: unknown metric {other}"),
            };
            assert_eq!(&got, want, "{name}: {metric}");
            assertions += 1;
        }
        for line in case["expected_lines"].as_array().into_iter().flatten() {
            let number = line["line_num"].as_u64().expect("line_num") as u32;
            let report = robots.line(number).expect("line exists");
            let tag = report.tag().map_or("Unknown", |t| t.name());
            assert_eq!(
                tag,
                str(line, "tag_name"),
                "{name}: line {number} tag"
            );
            assert_eq!(
                report.is_typo(),
                line["is_typo"].as_bool().expect("is_typo")
            );
            let meta = &line["metadata"];
            let flag = |f: &str| {
                meta[f].as_bool().unwrap_or_else(|| panic!("metadata {f}"))
            };
            let got = [
                report.is_empty(),
                report.has_comment(),
                report.is_comment(),
                report.has_directive(),
                report.is_typo(),
                report.is_too_long(),
                report.is_missing_colon(),
            ];
            let want = [
                flag("is_empty"),
                flag("has_comment"),
                flag("is_comment"),
                flag("has_directive"),
                flag("is_acceptable_typo"),
                flag("is_line_too_long"),
                flag("is_missing_colon_separator"),
            ];
            assert_eq!(got, want, "{name}: line {number} metadata");
            assertions += 1;
        }
    }
    // 22 + 10 metrics and 19 per-line checks: the 51 upstream assertions.
    assert_eq!(assertions, 51);
}

fn is_valid_tag(tag: Option<robotrules::Tag>) -> bool {
    use robotrules::Tag::*;
    matches!(tag, Some(UserAgent | Allow | Disallow | Sitemap))
}
