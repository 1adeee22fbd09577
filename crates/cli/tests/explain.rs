//! `robotrules explain`, against the reference verdicts.

use serde_json::Value;

use crate::util::{robots_file, run, shared, stdout};

fn explain_json(body: &[u8], agent: &str, url: &str) -> (Value, Option<i32>) {
    let (_dir, file) = robots_file(body);
    let out = run(&["explain", "--json", &file, agent, url], b"");
    (serde_json::from_str(&stdout(&out)).expect("json"), out.status.code())
}

#[test]
fn verdicts_equal_the_reference_on_every_conformance_case() {
    let text = std::fs::read_to_string(
        shared().join("conformance/google_cases.json"),
    )
    .unwrap();
    let cases: Vec<Value> = serde_json::from_str(&text).unwrap();
    for case in cases.iter().step_by(3) {
        let want = case["allowed"].as_bool().unwrap();
        let (v, code) = explain_json(
            case["robotstxt"].as_str().unwrap().as_bytes(),
            case["useragent"].as_str().unwrap(),
            case["url"].as_str().unwrap(),
        );
        assert_eq!(v["allowed"], want, "{}", case["name"]);
        assert_eq!(code, Some(if want { 0 } else { 1 }), "{}", case["name"]);
    }
}

#[test]
fn names_groups_matches_and_the_deciding_rule() {
    let body = b"User-agent: *\nDisallow: /\n\nUser-agent: FooBot\nDisallow: /private/\nAllow: /private/*.pdf$\nAllow: /d/index.html\n";
    let (v, code) =
        explain_json(body, "foobot", "https://example.com/private/a.pdf");
    assert_eq!(code, Some(0));
    assert_eq!(v["named"], true);
    assert_eq!(v["path"], "/private/a.pdf");
    assert_eq!(v["groups"][0]["matched_by"][0]["line"], 4);
    assert_eq!(v["groups"][0]["matched_by"][0]["text"], "User-agent: FooBot");
    assert_eq!(v["ignored_global_groups"][0]["line"], 1);
    let matches = v["matches"].as_array().unwrap();
    assert_eq!(matches.len(), 2);
    assert_eq!(
        (matches[0]["line"].as_u64(), matches[0]["priority"].as_u64()),
        (Some(5), Some(9))
    );
    assert_eq!(
        (matches[1]["line"].as_u64(), matches[1]["decides"].as_bool()),
        (Some(6), Some(true))
    );
    assert_eq!(v["rule"]["line"], 6);
    // The index.html rule allows the directory, at its own priority.
    let (v, _) = explain_json(body, "FooBot", "/d/");
    assert_eq!(v["rule"]["line"], 7);
    assert_eq!(v["matches"][0]["index_retry"], true);
    assert_eq!(v["matches"][0]["priority"], 4);
}

#[test]
fn global_groups_and_text_output() {
    let (_dir, file) = robots_file(
        b"User-agent: *\nDisallow: /search\nAllow: /search/about\n",
    );
    let out = run(
        &["explain", &file, "BarBot", "https://example.com/search/x"],
        b"",
    );
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text.contains("No group names BarBot, so the * groups apply:"),
        "{text}"
    );
    assert!(text.contains("    1 | User-agent: *"), "{text}");
    assert!(text.contains("    2 | Disallow: /search"), "{text}");
    assert!(text.contains("<- decides"), "{text}");
    assert!(text.contains("Verdict: DISALLOWED by line 2"), "{text}");
    let out =
        run(&["explain", &file, "BarBot", "https://example.com/other"], b"");
    assert!(stdout(&out).contains("Verdict: ALLOWED (no rule decides)"));
    let (_dir, empty) = robots_file(b"User-agent: a\nDisallow: /\n");
    let out = run(&["explain", &empty, "b", "/x"], b"");
    assert!(stdout(&out).contains("there is no * group: every URL is allowed"));
}

#[test]
fn several_agents_merge() {
    let (_dir, file) = robots_file(b"User-agent: a\nDisallow: /a\nUser-agent: b\nAllow: /a\nDisallow: /\n");
    let out = run(
        &["explain", "--json", "--agent", "a", "--agent", "b", &file, "/a"],
        b"",
    );
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["groups"].as_array().unwrap().len(), 2);
    assert_eq!(
        (v["allowed"].as_bool(), v["rule"]["line"].as_u64()),
        (Some(true), Some(4))
    );
}

#[test]
fn deciding_rule_has_the_same_keys_in_check_and_explain() {
    let (_dir, file) = robots_file(
        "User-agent: *\nDisallow: /\nAllow: /ü\nAllow: /d/index.html\n"
            .as_bytes(),
    );
    for url in ["/%C3%BC/x", "/d/", "/x"] {
        let check = run(&["check", "--json", &file, "FooBot", url], b"");
        let check: Value =
            serde_json::from_str(stdout(&check).trim()).unwrap();
        let explain = run(&["explain", "--json", &file, "FooBot", url], b"");
        let explain: Value = serde_json::from_str(&stdout(&explain)).unwrap();
        let keys = |v: &Value| {
            let mut k: Vec<String> =
                v["rule"].as_object().expect(url).keys().cloned().collect();
            k.sort();
            k
        };
        assert_eq!(keys(&check), keys(&explain), "{url}");
        assert_eq!(
            keys(&check),
            [
                "index_retry",
                "kind",
                "line",
                "normalized",
                "pattern",
                "priority"
            ]
        );
        assert_eq!(check["rule"], explain["rule"], "{url}");
    }
}

#[test]
fn rules_beyond_500_kib_are_noted() {
    let mut body = b"User-agent: *\n".to_vec();
    while body.len() < 520_000 {
        body.extend_from_slice(b"Disallow: /filler\n");
    }
    body.extend_from_slice(b"Disallow: /late\n");
    let (_dir, file) = robots_file(&body);
    let out = run(&["explain", &file, "a", "/late"], b"");
    assert!(
        stdout(&out).contains("lies beyond the first 500 KiB"),
        "{}",
        stdout(&out)
    );
    let (v, _) = explain_json(&body, "a", "/late");
    assert_eq!(v["beyond_fetch_limit"], true);
    let (v, _) = explain_json(&body, "a", "/filler");
    assert_eq!(v["beyond_fetch_limit"], false);
}

#[test]
fn an_empty_disallow_is_named_but_disallows_nothing() {
    let (_dir, file) = robots_file(b"User-agent: *\nDisallow:\n");
    let out = run(&["explain", &file, "FooBot", "/a"], b"");
    let text = stdout(&out);
    assert!(
        text.contains("Verdict: ALLOWED (line 2, an empty `Disallow:`, disallows nothing)"),
        "{text}"
    );
    assert_eq!(out.status.code(), Some(0));
    // An empty `Allow:` decides only where nothing else matches.
    let (_dir, file) = robots_file(b"User-agent: *\nDisallow: /a/\nAllow:\n");
    let out = run(&["explain", &file, "FooBot", "/b"], b"");
    let text = stdout(&out);
    assert!(
        text.contains("Verdict: ALLOWED (line 3, an empty `Allow:`, which matches with priority 0: no rule of a higher priority matches)"),
        "{text}"
    );
    let out = run(&["explain", &file, "FooBot", "/a/x"], b"");
    assert!(stdout(&out).contains("Verdict: DISALLOWED by line 2"));
}

#[test]
fn thousands_of_matches_are_listed_in_part() {
    let mut body = b"User-agent: *\n".to_vec();
    body.extend(b"Disallow: /a\n".repeat(3000));
    let (v, code) = explain_json(&body, "FooBot", "/a");
    assert_eq!(code, Some(1));
    assert_eq!(v["matches"].as_array().unwrap().len(), 1000);
    assert_eq!(v["omitted_matches"], 2000);
    let (_dir, file) = robots_file(&body);
    let text = stdout(&run(&["explain", &file, "FooBot", "/a"], b""));
    assert!(text.contains("… and 2000 more matching rules, not listed"));
}

#[test]
fn a_rule_cut_short_says_what_it_is_read_as() {
    // A NUL ends the line: `Disallow: /a<NUL>$` is `Disallow: /a`.
    let (_dir, file) = robots_file(b"User-agent: *\nDisallow: /a\x00$\n");
    let out = run(&["explain", &file, "bar", "http://x/abc"], b"");
    let text = stdout(&out);
    assert!(
        text.contains("(read as `/a`: a NUL byte ends the line)"),
        "{text}"
    );
    // A line past 16,663 bytes is cut, its `$` with it.
    let long = format!("User-agent: *\nDisallow: /{}$\n", "a".repeat(16_700));
    let (_dir, file) = robots_file(long.as_bytes());
    let url = format!("http://x/{}", "a".repeat(16_800));
    let text = stdout(&run(&["explain", &file, "bar", &url], b""));
    assert!(
        text.contains("(read up to `…aaaaaaaaaaaaaaaaaaaaaaaa`: the line is cut after its first 16663 bytes)"),
        "{text}"
    );
    // A NUL in a comment cuts nothing that counts.
    let (_dir, file) = robots_file(b"User-agent: *\nDisallow: /c # x\x00y\n");
    let text = stdout(&run(&["explain", &file, "bar", "http://x/cd"], b""));
    assert!(text.contains("Disallow: /c"), "{text}");
    assert!(!text.contains("read as"), "{text}");
    // A plain rule: no such note.
    let (_dir, file) = robots_file(b"User-agent: *\nDisallow: /a\n");
    let text = stdout(&run(&["explain", &file, "bar", "http://x/abc"], b""));
    assert!(!text.contains("read as"), "{text}");
}

#[test]
fn the_agent_option_may_come_between_the_arguments() {
    // As `check` takes them: `--agent` before, between or after.
    let body = b"User-agent: Googlebot\nDisallow: /x\n";
    for args in [
        &["explain", "--json", "-", "--agent", "Googlebot", "/x"][..],
        &["explain", "--json", "--agent", "Googlebot", "-", "/x"],
        &["explain", "--json", "-", "/x", "--agent", "Googlebot"],
    ] {
        let out = run(args, body);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", stdout(&out));
        let v: Value = serde_json::from_str(&stdout(&out)).expect("json");
        assert_eq!(v["rule"]["line"], 2, "{args:?}");
    }
    // Too few arguments: the usage, exit 2.
    let out = run(&["explain", "-", "/x"], body);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(err.contains("give ROBOTS AGENT URL"), "{err}");
}
