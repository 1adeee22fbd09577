//! `robotrules audit`.

use serde_json::Value;

use crate::util::{robots_file, run, stdout};

fn audit(body: &[u8]) -> Vec<Value> {
    let (_dir, file) = robots_file(body);
    let out = run(&["audit", "--json", &file], b"");
    assert_eq!(out.status.code(), Some(0));
    serde_json::from_str(&stdout(&out)).expect("json array")
}

fn row<'a>(rows: &'a [Value], token: &str) -> &'a Value {
    rows.iter()
        .find(|r| r["token"] == token)
        .unwrap_or_else(|| panic!("{token} in the catalogue"))
}

#[test]
fn catalogue_is_valid() {
    let crawlers = robotrules_cli::audit::catalogue().unwrap();
    assert!(crawlers.len() >= 30);
    for token in [
        "Googlebot",
        "Bingbot",
        "GPTBot",
        "ChatGPT-User",
        "OAI-SearchBot",
        "ClaudeBot",
        "Claude-Web",
        "anthropic-ai",
        "CCBot",
        "Google-Extended",
        "PerplexityBot",
        "Bytespider",
        "Applebot",
        "Applebot-Extended",
        "meta-externalagent",
        "Amazonbot",
        "cohere-ai",
    ] {
        assert!(crawlers.iter().any(|c| c.token == token), "{token}");
    }
    for c in &crawlers {
        assert!(
            robotrules::is_valid_agent(&c.token),
            "{} is not a valid token",
            c.token
        );
        assert!([
            "search",
            "ai-training",
            "ai-assistant",
            "ai-search",
            "archive",
            "other"
        ]
        .contains(&c.purpose.as_str()));
    }
}

#[test]
fn named_global_and_coverage() {
    let rows = audit(b"User-agent: *\nDisallow: /private/\n\nUser-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\n\n\
                       User-agent: ClaudeBot\nDisallow: /*\n\nUser-agent: Googlebot\nDisallow:\n\n\
                       User-agent: Bingbot\nDisallow: /\nAllow: /$\n");
    let gpt = row(&rows, "GPTBot");
    assert_eq!(
        (gpt["via"].as_str(), gpt["access"].as_str()),
        (Some("named"), Some("disallowed"))
    );
    assert_eq!(gpt["lines"], serde_json::json!([4]));
    assert_eq!(row(&rows, "CCBot")["access"], "disallowed");
    // `/*` blocks everything as `/` does.
    assert_eq!(row(&rows, "ClaudeBot")["access"], "disallowed");
    // An empty disallow allows everything, and the * rules do not apply.
    assert_eq!(row(&rows, "Googlebot")["access"], "allowed");
    // `Allow: /$` opens the root again.
    assert_eq!(row(&rows, "Bingbot")["access"], "partial");
    let other = row(&rows, "PerplexityBot");
    assert_eq!(
        (other["via"].as_str(), other["access"].as_str()),
        (Some("global"), Some("partial"))
    );
    assert_eq!(other["lines"], serde_json::json!([1]));
}

#[test]
fn no_group_means_allowed_and_table_output() {
    let rows = audit(b"User-agent: SomeBot\nDisallow: /\n");
    assert_eq!(
        (
            row(&rows, "GPTBot")["via"].as_str(),
            row(&rows, "GPTBot")["access"].as_str()
        ),
        (Some("none"), Some("allowed"))
    );
    let (_dir, file) = robots_file(b"User-agent: *\nDisallow: /\n");
    let text = stdout(&run(&["audit", &file], b""));
    assert!(text.lines().next().unwrap().starts_with("crawler"), "{text}");
    assert!(text.contains("GPTBot"), "{text}");
    assert!(text.contains("* (line 1)"), "{text}");
    assert!(text.contains("fully disallowed"), "{text}");
    assert!(text.contains("AI crawlers: 26 of 26 fully disallowed"), "{text}");
}
