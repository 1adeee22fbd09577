//! Regression tests: the same question gets the same answer from every
//! command, and a likely wrong answer comes with a warning.

use serde_json::{json, Value};

use crate::util::{robots_file, run, stderr, stdout, Server};

/// A file of the repository's `examples/`.
fn example(name: &str) -> String {
    format!("{}/../../examples/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn json_lines(out: &std::process::Output) -> Vec<Value> {
    stdout(out)
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect()
}

#[test]
fn issue_9_agent_that_is_not_a_token_is_warned_about() {
    let args = [
        "check",
        &example("robots.txt"),
        "GPTBot/1.0",
        "https://example.com/",
    ];
    let out = run(&args, b"");
    // The reference's answer stands...
    assert!(stdout(&out).contains("ALLOWED"));
    // ...with the name that was probably meant.
    let err = stderr(&out);
    assert!(err.contains("not a product token"), "{err}");
    assert!(err.contains("did you mean \"GPTBot\""), "{err}");
    assert!(err.contains("--user-agent"), "{err}");
    let mut json = vec!["check", "--json"];
    json.extend(&args[1..]);
    let v = &json_lines(&run(&json, b""))[0];
    assert_eq!(v["warnings"][0]["kind"], "agent-not-token");
    assert_eq!(v["warnings"][0]["suggestion"], "GPTBot");
    // An empty name too.
    let out = run(
        &["check", &example("robots.txt"), "", "https://example.com/"],
        b"",
    );
    assert!(stderr(&out).contains("empty"), "{}", stderr(&out));
    // `*` asks for the `*` groups: no warning.
    let out = run(
        &[
            "check",
            &example("robots.txt"),
            "*",
            "https://example.com/private/x",
        ],
        b"",
    );
    assert!(stderr(&out).is_empty(), "{}", stderr(&out));
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn issue_9_full_user_agent_header() {
    let ua = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)";
    let out = run(
        &["check", &example("robots.txt"), ua, "https://example.com/"],
        b"",
    );
    assert_eq!(out.status.code(), Some(0));
    let out = run(
        &[
            "check",
            "--user-agent",
            &example("robots.txt"),
            ua,
            "https://example.com/",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(stdout(&out).contains("user-agent 'GPTBot'"));
}

#[test]
fn a_user_agent_header_is_read_by_the_file_s_names() {
    // `Sogou web spider` is the file's `Sogou`, and so is a name of
    // several words in a comment; `archive.org_bot` its `archive`: the same names as the Python drop-ins find.
    let (_dir, file) = robots_file(
        b"User-agent: Sogou web spider\nAllow: /\n\n\
          User-agent: archive.org_bot\nDisallow: /\n\n\
          User-agent: Screaming Frog SEO Spider\nAllow: /\n\n\
          User-agent: *\nDisallow: /\n",
    );
    for (ua, token, code) in [
        ("Sogou web spider/4.0(+http://www.sogou.com/docs/help/webmasters.htm#07)", "Sogou", 0),
        ("Mozilla/5.0 (compatible; archive.org_bot +http://archive.org/details/archive.org_bot)", "archive", 1),
        ("archive.org_bot/3.0", "archive", 1),
        ("Mozilla/5.0 (compatible; Screaming Frog SEO Spider/19.0)", "Screaming", 0),
    ] {
        let out = run(
            &["check", "--user-agent", &file, ua, "https://example.com/x"],
            b"",
        );
        assert_eq!(out.status.code(), Some(code), "{ua}: {}", stdout(&out));
        let said = format!("is checked as the crawler \"{token}\"");
        assert!(stderr(&out).contains(&said), "{ua}: {}", stderr(&out));
    }
}

#[test]
fn issue_9_urls_that_are_not_encoded_urls() {
    let (_dir, file) =
        robots_file("User-agent: *\nDisallow: /café/\n".as_bytes());
    let out = run(
        &[
            "check",
            "--json",
            &file,
            "FooBot",
            "https://e.com/café/menu",
            "not a url",
        ],
        b"",
    );
    let lines = json_lines(&out);
    // Raw UTF-8 never matches the rule's escaped form: allowed, as the
    // reference says, with the encoded form and its verdict.
    assert_eq!(lines[0]["allowed"], true);
    let w = &lines[0]["warnings"][0];
    assert_eq!(w["kind"], "needs-encoding");
    assert_eq!(w["suggestion"], "https://e.com/caf%C3%A9/menu");
    assert!(
        w["message"].as_str().unwrap().ends_with("which is DISALLOWED"),
        "{w}"
    );
    assert_eq!(lines[1]["warnings"][0]["kind"], "not-url");
    let out =
        run(&["check", &file, "FooBot", "https://e.com/caf%C3%A9/menu"], b"");
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).is_empty(), "{}", stderr(&out));
}

#[test]
fn issue_9_rule_beyond_what_crawlers_read() {
    let mut body = String::from("User-agent: *\nDisallow: /early\n");
    while body.len() <= robotrules::FETCH_LIMIT {
        body.push_str("# padding padding padding padding padding\n");
    }
    body.push_str("Disallow: /late\n");
    let late_line = body.lines().count() as u64;
    let (_dir, file) = robots_file(body.as_bytes());
    let out =
        run(&["check", "--json", &file, "FooBot", "/late", "/early"], b"");
    let lines = json_lines(&out);
    // The reference reads everything: disallowed by the late rule...
    assert_eq!(lines[0]["allowed"], false);
    assert_eq!(lines[0]["rule"]["line"], late_line);
    // ...and the answer says crawlers would not see it.
    assert_eq!(lines[0]["warnings"][0]["kind"], "beyond-fetch-limit");
    assert!(lines[1]["warnings"].as_array().unwrap().is_empty());
    let out = run(&["check", &file, "FooBot", "/late"], b"");
    assert!(
        stderr(&out).contains("beyond the first 500 KiB"),
        "{}",
        stderr(&out)
    );
    let out = run(&["explain", "--json", &file, "FooBot", "/late"], b"");
    let v: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(v["beyond_fetch_limit"], true);
    // What crawlers get: allowed, no rule of theirs matches.
    assert_eq!(v["as_fetched"]["allowed"], true);
    assert_eq!(v["as_fetched"]["rule"], Value::Null);
    assert_eq!(v["warnings"][0]["kind"], "beyond-fetch-limit");
}

#[test]
fn a_group_beyond_what_crawlers_read() {
    // The group that names FooBot lies beyond 500 KiB: the reference
    // reads it and drops the `*` group for FooBot; crawlers never see it.
    let mut body = String::from("User-agent: *\nDisallow: /a\n");
    while body.len() <= robotrules::FETCH_LIMIT {
        body.push_str("# padding padding padding padding padding\n");
    }
    body.push_str("User-agent: FooBot\nCrawl-delay: 3\nDisallow: /b\n");
    let (_dir, file) = robots_file(body.as_bytes());
    let out = run(&["check", "--json", &file, "FooBot", "/a", "/c"], b"");
    let lines = json_lines(&out);
    assert_eq!(lines[0]["allowed"], true);
    let w = &lines[0]["warnings"][0];
    assert_eq!(w["kind"], "beyond-fetch-limit");
    assert!(
        w["message"].as_str().unwrap().contains("DISALLOWED by line 2"),
        "{w}"
    );
    // /c: crawlers get the same verdict, so no warning.
    assert!(lines[1]["warnings"].as_array().unwrap().is_empty());
    // The text output warns on standard error.
    let out = run(&["check", &file, "FooBot", "/a"], b"");
    assert!(stderr(&out).contains("from it the URL is DISALLOWED by line 2"));
    // explain: the verdict crawlers get, and a note.
    let out = run(&["explain", "--json", &file, "FooBot", "/a"], b"");
    let v: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(
        (&v["allowed"], &v["beyond_fetch_limit"]),
        (&json!(true), &json!(false))
    );
    assert_eq!(v["as_fetched"]["allowed"], false);
    assert_eq!(v["as_fetched"]["rule"]["line"], 2);
    assert_eq!(v["warnings"][0]["kind"], "beyond-fetch-limit");
    let out = run(&["explain", &file, "FooBot", "/a"], b"");
    assert!(
        stdout(&out).contains("for crawlers the URL is DISALLOWED by line 2"),
        "{}",
        stdout(&out)
    );
    // audit: FooBot is not in the catalogue; with it, its standing by the
    // part crawlers read is the `*` group's.
    let dir = tempfile::tempdir().unwrap();
    let catalogue = dir.path().join("c.toml");
    std::fs::write(
        &catalogue,
        "[[crawler]]\ntoken = \"FooBot\"\noperator = \"Foo\"\npurpose = \"search\"\n",
    )
    .unwrap();
    let catalogue = catalogue.to_str().unwrap();
    let out = run(&["audit", "--json", "--catalogue", catalogue, &file], b"");
    let v: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    let foo = &v[0];
    assert_eq!(
        (&foo["via"], &foo["crawl_delay"]),
        (&json!("named"), &json!(3.0))
    );
    let f = &foo["as_fetched"];
    assert_eq!(
        (&f["via"], &f["access"], &f["crawl_delay"]),
        (&json!("global"), &json!("partial"), &Value::Null)
    );
    let out = run(&["audit", "--catalogue", catalogue, &file], b"");
    let text = stdout(&out);
    assert!(
        text.contains("By that part, this crawler stands otherwise:"),
        "{text}"
    );
    assert!(
        text.contains("partially disallowed (e.g. /a), no crawl-delay"),
        "{text}"
    );
    // A file that fits: `as_fetched` is null.
    let out = run(
        &["audit", "--json", "--catalogue", catalogue, "-"],
        b"User-agent: *\nDisallow: /\n",
    );
    let v: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(v[0]["as_fetched"], Value::Null);
}

#[test]
fn issue_9_explain_warns_about_another_site() {
    let server = Server::start(200, "User-agent: *\nDisallow: /x\n");
    let out = run(
        &["explain", &server.url("/"), "FooBot", "https://other.example/x"],
        b"",
    );
    assert!(
        stderr(&out).contains("is not governed by the robots.txt of"),
        "{}",
        stderr(&out)
    );
    let out = run(
        &[
            "explain",
            "--json",
            &server.url("/"),
            "FooBot",
            "https://other.example/x",
        ],
        b"",
    );
    let v: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(v["warnings"][0]["kind"], "other-authority");
}

#[test]
fn issue_9_every_command_takes_json() {
    for args in [
        vec!["check", "--json", &example("robots.txt"), "a", "/"],
        vec!["explain", "--json", &example("robots.txt"), "a", "/"],
        vec!["lint", "--json", &example("needs-work.txt")],
        vec!["audit", "--json", &example("robots.txt")],
    ] {
        let out = run(&args, b"");
        let text = stdout(&out);
        assert!(!text.trim().is_empty(), "{args:?}");
        for line in text.lines() {
            let _: Value = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("{args:?}: {e}: {line}"));
        }
    }
}

#[test]
fn issue_9_robots_txt_as_a_path_is_exempt_too() {
    let server = Server::start(200, "User-agent: *\nDisallow: /\n");
    let out = run(&["check", &server.url("/"), "FooBot", "/robots.txt"], b"");
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let out = run(
        &["explain", "--json", &server.url("/"), "FooBot", "/robots.txt"],
        b"",
    );
    let v: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    // As in `check`: allowed, and no rule decides for crawlers.
    assert_eq!(v["allowed"], true);
    assert!(v["rule"].is_null(), "{v}");
    assert_eq!(v["allowed_by_rules"], false);
    assert_eq!(v["exempt"], true);
    // `check --json` says the same, `allowed_by_rules` included.
    let out = run(
        &["check", "--json", &server.url("/"), "FooBot", "/robots.txt", "/a"],
        b"",
    );
    let rows: Vec<Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows[0]["allowed"], true);
    assert!(rows[0]["rule"].is_null(), "{}", rows[0]);
    assert_eq!(rows[0]["allowed_by_rules"], false, "{}", rows[0]);
    // Where the rules decide, there is no such field.
    assert_eq!(rows[1]["allowed"], false);
    assert!(rows[1].get("allowed_by_rules").is_none(), "{}", rows[1]);
    // A 404 allows all: the rules (none) would allow it too.
    let gone = Server::start(404, "");
    let out = run(&["check", "--json", &gone.url("/"), "FooBot", "/a"], b"");
    let v: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(
        (&v["allowed"], &v["allowed_by_rules"]),
        (&true.into(), &true.into()),
        "{v}"
    );
}

#[test]
fn issue_9_encoded_form_is_judged_as_the_crawler_would() {
    let down = Server::start(503, "");
    let out = run(&["check", &down.url("/"), "FooBot", "https://h/a b"], b"");
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("which is DISALLOWED"), "{}", stderr(&out));
}

#[test]
fn a_closed_pipe_keeps_the_exit_status() {
    use std::io::{Read, Write};
    use std::process::Stdio;
    // `check … | head -1`: the first URL is disallowed, and the reader
    // goes away; the exit status still says so.
    let (_dir, file) = robots_file(b"User-agent: *\nDisallow: /x/\n");
    let mut child = crate::util::bin()
        .args(["check", &file, "a"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        for i in 0..200_000 {
            if writeln!(stdin, "/x/{i}").is_err() {
                break;
            }
        }
    });
    let mut first = [0u8; 64];
    let mut stdout = child.stdout.take().unwrap();
    stdout.read_exact(&mut first).unwrap();
    drop(stdout);
    let status = child.wait().unwrap();
    writer.join().unwrap();
    assert!(first.starts_with(b"user-agent 'a'"));
    assert_eq!(status.code(), Some(1));
}
