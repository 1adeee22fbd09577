//! `robotrules check`.

use serde_json::Value;

use crate::util::{robots_file, run, shared, stderr, stdout};

#[test]
fn conformance_cases_through_the_binary() {
    let path = shared().join("conformance/google_cases.json");
    let text = std::fs::read_to_string(&path)
        .expect("shared/conformance/google_cases.json");
    let cases: Vec<Value> = serde_json::from_str(&text).expect("json");
    assert_eq!(cases.len(), 145);
    for case in &cases {
        let name = case["name"].as_str().unwrap();
        let (agent, url) = (
            case["useragent"].as_str().unwrap(),
            case["url"].as_str().unwrap(),
        );
        let (_dir, file) =
            robots_file(case["robotstxt"].as_str().unwrap().as_bytes());
        let out = run(&["check", &file, agent, url], b"");
        let want = case["allowed"].as_bool().unwrap();
        let verdict = if want { "ALLOWED" } else { "DISALLOWED" };
        let first =
            stdout(&out).lines().next().unwrap_or_default().to_string();
        assert_eq!(
            first,
            format!("user-agent '{agent}' with URI '{url}': {verdict}"),
            "{name}"
        );
        assert_eq!(
            out.status.code(),
            Some(if want { 0 } else { 1 }),
            "{name}"
        );
    }
}

#[test]
fn testdata_cases_with_json() {
    let cases = robotrules_testdata::rules();
    assert!(cases.len() >= 50);
    for case in &cases {
        let name = &case.name;
        let (_dir, file) = robots_file(case.robots.as_bytes());
        // No names: only the `*` groups apply, which is what `*` means on
        // the command line (no group can name it).
        let agents =
            if case.agents.is_empty() { vec!["*"] } else { case.agents() };
        let mut args = vec!["check", "--json"];
        for a in &agents {
            args.push("--agent");
            args.push(a);
        }
        args.push(&file);
        args.push(&case.url);
        let out = run(&args, b"");
        let v: Value = serde_json::from_str(stdout(&out).trim())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(v["url"], case.url, "{name}");
        assert_eq!(v["agents"], serde_json::json!(agents), "{name}");
        assert_eq!(v["allowed"], case.allowed, "{name}");
        if case.line == 0 {
            assert!(v["rule"].is_null(), "{name}: {v}");
        } else {
            assert_eq!(v["rule"]["line"], case.line, "{name}: {v}");
        }
    }
}

#[test]
fn json_rule_fields() {
    let (_dir, file) =
        robots_file("user-agent: *\ndisallow: /\nallow: /ü\n".as_bytes());
    let out =
        run(&["check", "--json", &file, "FooBot", "/%C3%BC/x", "/x"], b"");
    let lines: Vec<Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["rule"]["kind"], "allow");
    assert_eq!(lines[0]["rule"]["pattern"], "/ü");
    assert_eq!(lines[0]["rule"]["normalized"], "/%C3%BC");
    assert_eq!(lines[0]["rule"]["line"], 3);
    assert_eq!(lines[1]["rule"]["kind"], "disallow");
    assert_eq!(lines[1]["allowed"], false);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn urls_stream_from_stdin() {
    let (_dir, file) = robots_file(b"user-agent: *\ndisallow: /private\n");
    let mut input = String::new();
    for i in 0..20_000 {
        input.push_str(if i % 2 == 0 {
            "/private/x\r\n"
        } else {
            "/public\n"
        });
    }
    input.push_str("\n\n/last");
    let out = run(&["check", &file, "FooBot"], input.as_bytes());
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 20_001);
    assert_eq!(
        lines[0],
        "user-agent 'FooBot' with URI '/private/x': DISALLOWED"
    );
    assert_eq!(lines[1], "user-agent 'FooBot' with URI '/public': ALLOWED");
    assert_eq!(lines[20_000], "user-agent 'FooBot' with URI '/last': ALLOWED");
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn all_allowed_exits_zero() {
    let (_dir, file) = robots_file(b"user-agent: *\ndisallow: /private\n");
    let out = run(&["check", &file, "FooBot", "/a", "/b"], b"");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout(&out).lines().count(), 2);
}

#[test]
fn robots_from_stdin() {
    let out = run(
        &["check", "-", "FooBot", "/x"],
        b"user-agent: foobot\ndisallow: /x\n",
    );
    assert_eq!(
        stdout(&out),
        "user-agent 'FooBot' with URI '/x': DISALLOWED\n"
    );
    assert_eq!(out.status.code(), Some(1));
    let out = run(&["check", "-", "FooBot"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("standard input"));
}

#[test]
fn empty_file_notice() {
    let (_dir, file) = robots_file(b"");
    let out = run(&["check", &file, "FooBot", "http://example.com/"], b"");
    assert_eq!(
        stdout(&out),
        "user-agent 'FooBot' with URI 'http://example.com/': ALLOWED\n\
         notice: robots file is empty so all user-agents are allowed\n"
    );
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn errors_exit_two_with_a_message() {
    let out = run(&["check", "/definitely/not/here.txt", "a", "/"], b"");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("failed to read file \"/definitely/not/here.txt\""),
        "{err}"
    );
    let (_dir, file) = robots_file(b"");
    let out = run(&["check", &file], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("missing AGENT"));
    let out = run(&["check"], b"");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn binary_robots_file_is_read_as_bytes() {
    let (_dir, file) =
        robots_file(b"\xEF\xBBuser-agent: *\r\ndisallow: /\xff\r\n");
    let out = run(&["check", &file, "a", "/%FF", "/%ff"], b"");
    assert_eq!(
        stdout(&out),
        "user-agent 'a' with URI '/%FF': DISALLOWED\nuser-agent 'a' with URI '/%ff': ALLOWED\n"
    );
}

#[test]
fn broken_pipe_is_success() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::Stdio;
    let (_dir, file) = robots_file(b"user-agent: *\ndisallow: /x\n");
    let mut child = crate::util::bin()
        .args(["check", &file, "a"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        for _ in 0..200_000 {
            if stdin.write_all(b"/a\n").is_err() {
                break;
            }
        }
    });
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert_eq!(first, "user-agent 'a' with URI '/a': ALLOWED\n");
    // stdout is dropped here: the pipe closes.
    let status = child.wait().unwrap();
    writer.join().unwrap();
    assert_eq!(status.code(), Some(0));
}

#[test]
fn control_characters_in_urls_stay_out_of_the_terminal() {
    let (_dir, file) = robots_file(b"user-agent: *\ndisallow: /a\n");
    let out = run(&["check", &file, "FooBot"], b"/a\x1b[31mred\x07\n");
    assert!(!out.stdout.iter().any(|&b| b == 0x1b || b == 0x07));
    assert_eq!(
        stdout(&out).trim_end(),
        r"user-agent 'FooBot' with URI '/a\x1b[31mred\x07': DISALLOWED"
    );
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!err.contains('\x1b'), "{err}");
    assert!(err.contains(r#""/a\x1b[31mred\x07" has characters"#), "{err}");
}

#[test]
fn a_url_that_is_not_utf8_is_read_percent_encoded() {
    // A Latin-1 `é` on standard input is the `%E9` a crawler requests,
    // not a replacement character.
    let (_dir, file) = robots_file(b"User-agent: *\nDisallow: /caf%E9\n");
    let out = run(&["check", &file, "FooBot"], b"https://e.com/caf\xE9\n");
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert_eq!(
        stdout(&out),
        "user-agent 'FooBot' with URI 'https://e.com/caf%E9': DISALLOWED\n"
    );
    assert!(stderr(&out).contains("(`%E9`)"), "{}", stderr(&out));
    // In JSON, each such line's row says so too; standard error once.
    let out = run(
        &["check", "--json", &file, "FooBot"],
        b"https://e.com/caf\xE9\n/a\n/caf\xE9\n",
    );
    let rows: Vec<serde_json::Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let kinds = |row: &serde_json::Value| -> Vec<String> {
        row["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| w["kind"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(rows.len(), 3);
    assert_eq!(kinds(&rows[0]), ["needs-encoding"], "{}", rows[0]);
    assert_eq!(rows[0]["warnings"][0]["suggestion"], "https://e.com/caf%E9");
    assert!(kinds(&rows[1]).is_empty(), "{}", rows[1]);
    assert!(
        rows[2]["warnings"][0]["message"]
            .as_str()
            .unwrap()
            .starts_with("URL on input line 3 is not UTF-8"),
        "{}",
        rows[2]
    );
    assert_eq!(stderr(&out).matches("is not UTF-8").count(), 1);
}

#[test]
fn a_name_that_is_no_token_beside_one_that_is_named() {
    // The Googlebot group decides: the warning about the other name must
    // not say that only the `*` groups apply.
    let body =
        b"User-agent: Googlebot\nDisallow: /a\nUser-agent: *\nDisallow: /\n";
    let out = run(
        &[
            "check",
            "--json",
            "--agent",
            "Googlebot",
            "--agent",
            "Googlebot-Image/1.0",
            "-",
            "https://e.com/a/b",
        ],
        body,
    );
    let v: serde_json::Value =
        serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(v["rule"]["line"], 2, "{v}");
    let message = v["warnings"][0]["message"].as_str().unwrap();
    assert!(message.contains("brings no group of its own"), "{message}");
    assert!(!message.contains("only the `*` groups apply"), "{message}");
}
