//! Commands given a robots.txt URL: the fetch layer's rules apply.

use serde_json::Value;

use crate::util::{run, stderr, stdout, Server};

const RULES: &str = "User-agent: *\nDisallow: /private\n";

#[test]
fn check_fetches_and_obeys() {
    let server = Server::start(200, RULES);
    let out = run(
        &[
            "check",
            &server.url("/"),
            "FooBot",
            &server.url("/private/x"),
            &server.url("/open"),
        ],
        b"",
    );
    let text = stdout(&out);
    assert!(text.contains("/private/x': DISALLOWED"), "{text}");
    assert!(text.contains("/open': ALLOWED"), "{text}");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(server.hits.load(std::sync::atomic::Ordering::SeqCst), 1);
}

#[test]
fn robots_txt_itself_is_allowed_for_remote_files() {
    let server = Server::start(200, "User-agent: *\nDisallow: /\n");
    let out = run(
        &["check", &server.url("/"), "FooBot", &server.url("/robots.txt")],
        b"",
    );
    assert!(stdout(&out).ends_with("ALLOWED\n"));
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn unreachable_disallows_and_says_why() {
    let server = Server::start(503, "busy");
    let out = run(
        &[
            "check",
            "--json",
            &server.url("/robots.txt"),
            "FooBot",
            &server.url("/anything"),
        ],
        b"",
    );
    let v: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(v["allowed"], false);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("unreachable (503)") && err.contains("disallowed"),
        "{err}"
    );
}

#[test]
fn unavailable_allows_everything() {
    let server = Server::start(404, "not found");
    let out = run(
        &["check", &server.url("/"), "FooBot", &server.url("/private")],
        b"",
    );
    assert!(stdout(&out).ends_with("ALLOWED\n"));
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unavailable (404)"));
}

#[test]
fn fetch_shows_what_happened() {
    let server = Server::start(200, RULES);
    let out = run(&["fetch", &server.url("/some/page")], b"");
    let text = stdout(&out);
    assert!(
        text.contains(&format!("GET {} -> 200", server.url("/robots.txt"))),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "read {} bytes (cut at 500 KiB: no)",
            RULES.len()
        )),
        "{text}"
    );
    assert!(text.contains("cache lifetime: 86400 s"), "{text}");
    assert!(text.contains("outcome: available"), "{text}");
    assert!(text.contains("1 groups, 1 rules"), "{text}");
    let out = run(&["fetch", "--json", &server.url("/")], b"");
    let v: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(v["hops"][0]["status"], 200);
    assert_eq!(v["summary"]["rules"], 1);
    let down = Server::start(500, "");
    let out = run(&["fetch", &down.url("/")], b"");
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains("outcome: unreachable (500)"));
}

#[test]
fn lint_and_audit_fetch_too() {
    let server = Server::start(200, "User-agent: *\nDissalow: /x\n");
    let out = run(&["lint", "--format", "json", &server.url("/")], b"");
    assert!(stdout(&out).contains("RT102"));
    let out = run(&["audit", "--json", &server.url("/")], b"");
    assert_eq!(out.status.code(), Some(0));
    // An unreachable robots.txt blocks the whole site: lint says so and
    // fails, with nothing to lint.
    let down = Server::start(503, "");
    let out = run(&["lint", &down.url("/")], b"");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("robots.txt unreachable (503): every URL is disallowed"));
    assert!(stdout(&out).contains("nothing to lint"));
}

#[test]
fn lint_judges_only_the_sitemaps_of_the_fetched_site() {
    // The rules govern their own site: a sitemap elsewhere is not theirs
    // to disallow.
    const BODY: &str =
        "User-agent: *\nDisallow: /s2\nSitemap: http://other.example/s2/b.xml\n";
    let server = Server::start(200, BODY);
    let out = run(&["lint", "--format", "json", &server.url("/")], b"");
    assert_eq!(out.status.code(), Some(0));
    assert!(!stdout(&out).contains("\"RT209\""), "{}", stdout(&out));
    // The same file read locally: judged, on that site's terms.
    let (_dir, file) = crate::util::robots_file(BODY.as_bytes());
    let out = run(&["lint", "--format", "json", &file], b"");
    let text = stdout(&out);
    assert!(text.contains("\"RT209\""), "{text}");
    assert!(
        text.contains(
            "if this file is the robots.txt of http://other.example"
        ),
        "{text}"
    );
}

#[test]
fn fetch_shows_retry_after_as_a_date() {
    let server = Server::with(503, &[("Retry-After", "120")], String::new());
    let out = run(&["fetch", &server.url("/")], b"");
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1));
    assert!(text.contains("Retry-After: 120 s, "), "{text}");
    // Honoured as asked: no note.
    assert!(!text.contains("retried"), "{text}");
    let now = Server::with(503, &[("Retry-After", "0")], String::new());
    let text = stdout(&run(&["fetch", &now.url("/")], b""));
    assert!(
        text.contains("Retry-After: 0 s, ")
            && text.contains("(under a second: retried a second later)"),
        "{text}"
    );
    assert!(text.contains("next try: "), "{text}");
    assert!(text.contains(" GMT"), "{text}");
    assert!(!text.contains("unix time"), "{text}");
    let out = run(&["fetch", "--json", &server.url("/")], b"");
    let v: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert!(v["retry_after"].as_str().unwrap().ends_with(" GMT"), "{v}");
    assert_eq!(v["access"], "disallow-all");
    assert_eq!(v["cache_lifetime_seconds"], Value::Null);
    let dated = Server::with(
        503,
        &[("Retry-After", "Thu, 01 Jan 2099 00:00:00 GMT")],
        String::new(),
    );
    let text = stdout(&run(&["fetch", &dated.url("/")], b""));
    assert!(
        text.contains(
            "Retry-After: a date, Thu, 01 Jan 2099 00:00:00 GMT \
             (more than 24 hours: retried after 24 hours)"
        ),
        "{text}"
    );
    let past = Server::with(
        503,
        &[("Retry-After", "Thu, 01 Jan 1970 00:00:00 GMT")],
        String::new(),
    );
    let text = stdout(&run(&["fetch", &past.url("/")], b""));
    assert!(
        text.contains(
            "Retry-After: a date, Thu, 01 Jan 1970 00:00:00 GMT \
             (not in the future: retried a second later)"
        ),
        "{text}"
    );
}

#[test]
fn fetch_sends_the_user_agent_given() {
    let server = Server::start(200, RULES);
    let out = run(
        &["fetch", "--user-agent", "ExampleBot/2.0", &server.url("/")],
        b"",
    );
    assert_eq!(out.status.code(), Some(0));
    let requests = server.requests.lock().unwrap();
    assert!(
        requests[0]
            .to_ascii_lowercase()
            .contains("user-agent: examplebot/2.0"),
        "{}",
        requests[0]
    );
}

#[test]
fn fetch_times_out_with_one_line() {
    // Accepts connections and never answers.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for socket in listener.incoming() {
            held.push(socket);
        }
    });
    let started = std::time::Instant::now();
    let out =
        run(&["fetch", "--timeout", "0.5", &format!("http://{addr}/")], b"");
    assert!(started.elapsed() < std::time::Duration::from_secs(10));
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(text.contains("-> no response"), "{text}");
    assert!(text.contains("outcome: unreachable (timeout) — "), "{text}");
    let out =
        run(&["fetch", "--timeout", "-1", &format!("http://{addr}/")], b"");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn fetch_says_connection_refused_in_one_line() {
    let closed = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let out = run(&["fetch", &format!("http://{closed}/")], b"");
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    let line = text
        .lines()
        .find(|l| l.starts_with("outcome:"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(
        line.starts_with(
            "outcome: unreachable (cannot connect: connection refused) — "
        ),
        "{line}"
    );
    assert!(!text.contains("error sending request"), "{text}");
    assert!(!text.contains("tcp connect error"), "{text}");
    assert!(String::from_utf8_lossy(&out.stderr).is_empty());
}

#[test]
fn truncated_bodies_are_reported_by_every_command() {
    let mut body = String::from("User-agent: *\nDisallow: /private\n");
    body.push_str(&"# padding\n".repeat(60_000));
    body.push_str("Disallow: /late\n");
    let server = Server::with(200, &[], body);
    let out = run(
        &[
            "check",
            &server.url("/"),
            "FooBot",
            &server.url("/private"),
            &server.url("/late"),
        ],
        b"",
    );
    let text = stdout(&out);
    assert!(text.contains("/private': DISALLOWED"), "{text}");
    assert!(text.contains("/late': ALLOWED"), "{text}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("over 500 KiB"), "{err}");
    for command in ["lint", "audit"] {
        let out = run(&[command, &server.url("/")], b"");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("over 500 KiB"), "{command}: {err}");
    }
    // Lint reports the cut as a diagnostic too, as it does on the same
    // bytes as a local file.
    let out = run(&["lint", "--json", &server.url("/")], b"");
    assert!(stdout(&out).contains("\"RT001\""), "{}", stdout(&out));
    let out = run(
        &["explain", &server.url("/"), "FooBot", &server.url("/private")],
        b"",
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("over 500 KiB"), "explain: {err}");
    let out = run(&["fetch", &server.url("/")], b"");
    assert!(stdout(&out).contains("cut at 500 KiB: yes"));
}

#[test]
fn robots_txt_query_is_judged_by_the_rules() {
    let server = Server::start(200, "User-agent: *\nDisallow: /\n");
    let out = run(
        &[
            "check",
            &server.url("/"),
            "FooBot",
            &server.url("/robots.txt?x=1"),
            &server.url("/a/../robots.txt"),
        ],
        b"",
    );
    let text = stdout(&out);
    assert!(text.contains("/robots.txt?x=1': DISALLOWED"), "{text}");
    assert!(text.contains("/a/../robots.txt': ALLOWED"), "{text}");
}

#[test]
fn other_commands_say_what_a_missing_file_means() {
    // 404: no robots.txt, every URL allowed, by every command.
    let gone = Server::start(404, "");
    let out = run(&["lint", &gone.url("/")], b"");
    assert_eq!(out.status.code(), Some(0));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("unavailable (404)")
            && err.contains("every URL is allowed"),
        "{err}"
    );
    let out = run(&["explain", &gone.url("/"), "a", &gone.url("/x")], b"");
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout(&out).contains("Verdict for crawlers: ALLOWED"));
    let out = run(&["audit", "--json", &gone.url("/")], b"");
    assert_eq!(out.status.code(), Some(0));
    let v: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    let all = v.as_array().unwrap();
    assert!(all.iter().all(|s| s["access"] == "allowed"), "{v}");
    // 500: unreachable, every URL disallowed, by every command.
    let down = Server::start(500, "");
    let out = run(&["explain", &down.url("/"), "a", &down.url("/x")], b"");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("every URL is disallowed"), "{err}");
    assert!(stdout(&out).contains("Verdict for crawlers: DISALLOWED"));
    let out =
        run(&["explain", "--json", &down.url("/"), "a", &down.url("/x")], b"");
    let v: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(v["allowed"], false);
    assert_eq!(v["fetch"]["access"], "disallow-all");
    let out = run(&["audit", "--json", &down.url("/")], b"");
    let v: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    let all = v.as_array().unwrap();
    assert!(all.iter().all(|s| s["access"] == "disallowed"), "{v}");
    // By the fetch's outcome, not by groups: no note on groups.
    assert!(all.iter().all(|s| s["via"] == "access"), "{v}");
    let text = stdout(&run(&["audit", &down.url("/")], b""));
    assert!(text.contains("no rules (fetch)"), "{text}");
    assert!(!text.contains("Note:"), "{text}");
    let out = run(&["check", &down.url("/"), "a", &down.url("/x")], b"");
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn explain_and_check_agree_on_the_robots_txt() {
    let server = Server::start(200, "User-agent: *\nDisallow: /\n");
    let url = server.url("/robots.txt");
    let out = run(&["explain", &server.url("/"), "GPTBot", &url], b"");
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(stdout(&out).contains("Verdict for crawlers: ALLOWED"));
    let out = run(&["check", &server.url("/"), "GPTBot", &url], b"");
    assert_eq!(out.status.code(), Some(0));
    let other = server.url("/x");
    let out = run(&["explain", &server.url("/"), "GPTBot", &other], b"");
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn fetch_names_ftp_requests_retr() {
    let root = tempfile::tempdir().unwrap();
    std::fs::write(root.path().join("robots.txt"), RULES).unwrap();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let dir = root.path().to_path_buf();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let server = libunftp::ServerBuilder::new(Box::new(move || {
        unftp_sbe_fs::Filesystem::new(dir.clone()).unwrap()
    }))
    .passive_ports(50101..=50200)
    .build()
    .unwrap();
    runtime.spawn(server.listen(format!("127.0.0.1:{port}")));
    std::thread::sleep(std::time::Duration::from_millis(300));
    let out = run(&["fetch", &format!("ftp://127.0.0.1:{port}/pub/")], b"");
    let text = stdout(&out);
    assert!(
        text.contains(&format!(
            "  RETR /robots.txt on ftp://127.0.0.1:{port} -> 226"
        )),
        "{text}"
    );
    assert!(!text.contains("GET ftp://"), "{text}");
    assert!(text.contains("outcome: available"), "{text}");
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn fetch_survives_a_retry_after_past_the_year_9999() {
    // It panicked formatting the date; now the date stops at 9999, and
    // the wait at 24 hours.
    let server =
        Server::with(503, &[("Retry-After", "999999999999")], String::new());
    let out = run(&["fetch", &server.url("/")], b"");
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains(
            "Retry-After: 999999999999 s, Fri, 31 Dec 9999 23:59:59 GMT"
        ),
        "{text}"
    );
    assert!(String::from_utf8_lossy(&out.stderr).is_empty());
    let out = run(&["fetch", "--json", &server.url("/")], b"");
    let v: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(v["retry_after"], "Fri, 31 Dec 9999 23:59:59 GMT");
}

#[test]
fn fetch_says_the_timeout_range() {
    let server = Server::start(200, RULES);
    let out = run(&["fetch", "--timeout", "86401", &server.url("/")], b"");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("above 0 and at most 86400"), "{err}");
}

#[test]
fn fetch_says_a_user_agent_is_not_a_header_value() {
    let server = Server::start(200, RULES);
    let out = run(&["fetch", "--user-agent", "a\nb", &server.url("/")], b"");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(
            "invalid user agent: \"a\\nb\" is not a valid header value"
        ),
        "{err}"
    );
    assert!(!err.contains("builder error"), "{err}");
}

#[test]
fn urls_are_judged_as_crawlers_request_them() {
    // A crawler requesting `/a/../private` asks for `/private`: the fetch
    // layer's rule, which `check` and `explain` follow for a fetched file.
    let server = Server::start(200, RULES);
    for path in
        ["/a/../private", "/%2e%2e/private", "/./private/x", "\\private"]
    {
        let url = server.url("") + path;
        let out = run(&["check", "--json", &server.url("/"), "X", &url], b"");
        let v: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
        assert_eq!(v["allowed"], false, "{path}: {v}");
        assert_eq!(v["rule"]["line"], 2, "{path}: {v}");
        assert_eq!(v["url"], url.as_str());
        // Judged as requested: nothing to warn of.
        assert_eq!(v["warnings"], serde_json::json!([]), "{path}: {v}");
        let out =
            run(&["explain", "--json", &server.url("/"), "X", &url], b"");
        let v: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
        assert_eq!(v["allowed"], false, "{path}: {v}");
        assert!(v["path"].as_str().unwrap().starts_with("/private"), "{v}");
        assert_eq!(v["url"], url.as_str());
        assert_eq!(v["warnings"], serde_json::json!([]), "{path}: {v}");
    }
    // A path alone is on the fetched site.
    let out = run(&["check", &server.url("/"), "X", "/a/../private"], b"");
    assert!(stdout(&out).ends_with("DISALLOWED\n"), "{}", stdout(&out));
    assert!(!stderr(&out).contains("warning"), "{}", stderr(&out));
    // A local file is judged as the reference judges: the path as given,
    // with a warning that a crawler requests another and its verdict.
    let (_dir, file) = crate::util::robots_file(RULES.as_bytes());
    let out = run(&["check", &file, "X", "/a/../private"], b"");
    assert!(stdout(&out).ends_with(": ALLOWED\n"), "{}", stdout(&out));
    let err = stderr(&out);
    assert!(err.contains("a crawler requests /private"), "{err}");
    assert!(err.contains("which is DISALLOWED"), "{err}");
}
