//! Commands given a robots.txt URL: the fetch layer's rules apply.

use serde_json::Value;

use crate::util::{run, stdout, Server};

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
    let down = Server::start(503, "");
    let out = run(&["lint", &down.url("/")], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("robots.txt is unreachable (503)"));
}
