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
fn builtin_catalogue_is_listed() {
    let rows = audit(b"");
    assert!(rows.len() >= 50);
    for token in [
        "Googlebot",
        "Bingbot",
        "GPTBot",
        "ChatGPT-User",
        "OAI-SearchBot",
        "ClaudeBot",
        "Claude-User",
        "Claude-SearchBot",
        "anthropic-ai",
        "CCBot",
        "Google-Extended",
        "PerplexityBot",
        "Perplexity-User",
        "Bytespider",
        "Applebot",
        "Applebot-Extended",
        "Meta-ExternalAgent",
        "Amazonbot",
        "cohere-ai",
        "Diffbot",
        "AhrefsBot",
        "ia_archiver",
    ] {
        let r = row(&rows, token);
        assert!(robotrules::is_valid_agent(r["token"].as_str().unwrap()));
        assert_eq!(
            (r["via"].as_str(), r["access"].as_str()),
            (Some("none"), Some("allowed"))
        );
    }
    for r in &rows {
        assert!([
            "search",
            "ai-training",
            "ai-assistant",
            "ai-search",
            "seo",
            "archive",
            "ads",
            "social",
            "other"
        ]
        .contains(&r["purpose"].as_str().unwrap()));
    }
}

#[test]
fn custom_catalogues() {
    let dir = tempfile::tempdir().unwrap();
    let toml = dir.path().join("c.toml");
    std::fs::write(&toml, "[[crawler]]\ntoken = \"FooBot\"\noperator = \"Foo\"\npurpose = \"seo\"\n").unwrap();
    let json = dir.path().join("c.json");
    std::fs::write(
        &json,
        r#"[{"token": "BarBot", "operator": "Bar", "purpose": "ai-search"}]"#,
    )
    .unwrap();
    let (_d, file) = robots_file(b"User-agent: foobot\nDisallow: /\n");
    for (catalogue, token, access) in
        [(&toml, "FooBot", "disallowed"), (&json, "BarBot", "allowed")]
    {
        let out = run(
            &[
                "audit",
                "--json",
                "--catalogue",
                catalogue.to_str().unwrap(),
                &file,
            ],
            b"",
        );
        let rows: Vec<Value> = serde_json::from_str(&stdout(&out)).unwrap();
        assert_eq!(rows.len(), 1);
        assert_eq!(
            (rows[0]["token"].as_str(), rows[0]["access"].as_str()),
            (Some(token), Some(access))
        );
    }
    let bad = dir.path().join("bad.toml");
    std::fs::write(
        &bad,
        "[[crawler]]\ntoken = \"a\"\noperator = \"A\"\npurpose = \"spam\"\n",
    )
    .unwrap();
    let out =
        run(&["audit", "--catalogue", bad.to_str().unwrap(), &file], b"");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("line 4: unknown purpose `spam`"), "{err}");
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
    assert_eq!(gpt["allowed_path"], Value::Null);
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
    assert_eq!(other["allowed_path"], "/");
    assert_eq!(other["disallowed_path"], "/private/");
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
    let ai = robotrules_analysis::Catalogue::builtin()
        .crawlers()
        .iter()
        .filter(|c| c.purpose.is_ai())
        .count();
    assert!(ai >= 30, "{ai}");
    let all = format!("AI crawlers: {ai} of {ai} fully disallowed");
    assert!(text.contains(&all), "{text}");
    let (_dir, file) = robots_file(b"User-agent: *\nDisallow: /private/\n");
    let text = stdout(&run(&["audit", &file], b""));
    assert!(text.contains("partially disallowed (e.g. /private/)"), "{text}");
}

#[test]
fn fetchers_on_a_user_s_request_are_said_to_maybe_not_obey() {
    // OpenAI says robots.txt rules may not apply to ChatGPT-User: the
    // table says so where rules would keep it out, and only there.
    let body = b"User-agent: ChatGPT-User\nDisallow: /\n";
    let rows = audit(body);
    assert_eq!(row(&rows, "ChatGPT-User")["user_initiated"], true);
    assert_eq!(row(&rows, "ChatGPT-User")["access"], "disallowed");
    assert_eq!(row(&rows, "GPTBot")["user_initiated"], false);
    let (_dir, file) = robots_file(body);
    let text = stdout(&run(&["audit", &file], b""));
    let notes: Vec<&str> =
        text.lines().filter(|l| l.contains("may not keep it out")).collect();
    assert_eq!(notes.len(), 1, "{text}");
    assert!(notes[0].starts_with("Note: ChatGPT-User: "), "{text}");
    let (_dir, file) = robots_file(b"User-agent: GPTBot\nDisallow: /\n");
    let text = stdout(&run(&["audit", &file], b""));
    assert!(!text.contains("may not keep it out"), "{text}");
}

#[test]
fn rules_no_requested_url_matches_change_nothing() {
    // Crawlers request a space as `%20`: `/_private/ /admin/` blocks
    // nothing, and `/public files/` opens nothing that `/` closes.
    let rows = audit(b"User-agent: *\nDisallow: /_private/ /admin/\n");
    assert_eq!(row(&rows, "GPTBot")["access"], "allowed");
    let rows = audit(
        b"User-agent: GPTBot\nDisallow: /\nAllow: /public files/\n\n\
          User-agent: CCBot\nDisallow: /\nAllow: /public%20files/\n",
    );
    assert_eq!(row(&rows, "GPTBot")["access"], "disallowed");
    assert_eq!(row(&rows, "CCBot")["access"], "partial");
    assert_eq!(row(&rows, "CCBot")["allowed_path"], "/public%20files/");
}

#[test]
fn the_table_stays_readable() {
    // A long example path is cut; the catalogue's word on AdsBot and `*`.
    let mut body = b"User-agent: *\nDisallow: /".to_vec();
    body.extend(b"a".repeat(20_000));
    body.push(b'\n');
    let (_dir, file) = robots_file(&body);
    let text = stdout(&run(&["audit", &file], b""));
    assert!(text.len() < 20_000, "{}", text.len());
    assert!(text.contains(&format!("(e.g. /{}…)", "a".repeat(59))), "{text}");
    assert!(
        text.contains(
            "Note: AdsBot-Google: no group names it, and it ignores the * \
             groups, as its operator documents: name it to restrict it"
        ),
        "{text}"
    );
    // Without a `*` group, ignoring one changes nothing: no note.
    let (_dir2, plain) = robots_file(b"User-agent: Googlebot\nDisallow: /x\n");
    let plain = stdout(&run(&["audit", &plain], b""));
    assert!(plain.contains("AdsBot-Google "), "{plain}");
    assert!(!plain.contains("Note: AdsBot-Google"), "{plain}");
    let rows = audit(&body);
    assert!(rows[0]["disallowed_path"].as_str().unwrap().len() > 16_000);
    // Columns as wide as their widest cell: `Alexa Internet (Amazon)`.
    let table: Vec<&str> =
        text.lines().take_while(|l| !l.is_empty()).collect();
    let at = |line: &str, column: &str| line.find(column);
    let purpose = at(table[0], "purpose").unwrap();
    let rules = at(table[0], "rules from").unwrap();
    assert!(table.len() > 50, "{text}");
    for line in &table[1..] {
        let cells: Vec<&str> = line.split("  ").collect();
        assert!(
            line[purpose - 1..].starts_with(' ')
                && !line[purpose..].starts_with(' ')
                && line[rules - 1..].starts_with(' ')
                && !line[rules..].starts_with(' '),
            "{line} {cells:?}"
        );
    }
}

#[test]
fn crawlers_that_follow_other_groups() {
    // Applebot follows Googlebot's groups and YandexBot the `Yandex`
    // ones when none names them; AdsBot ignores `*`.
    let body = b"User-agent: Googlebot\nDisallow: /private/\n\nUser-agent: Yandex\nDisallow: /\n\nUser-agent: *\nDisallow: /\n";
    let (_dir, file) = robots_file(body);
    let rows = audit(body);
    let row = |token: &str| row(&rows, token);
    let apple = row("Applebot");
    assert_eq!(
        (apple["via"].as_str(), apple["access"].as_str()),
        (Some("fallback"), Some("partial"))
    );
    assert_eq!(apple["lines"], serde_json::json!([1]));
    assert_eq!(apple["named"], false);
    let yandex = row("YandexBot");
    assert_eq!(
        (yandex["via"].as_str(), yandex["access"].as_str()),
        (Some("fallback"), Some("disallowed"))
    );
    assert_eq!(yandex["lines"], serde_json::json!([4]));
    let ads = row("AdsBot-Google");
    assert_eq!(
        (ads["via"].as_str(), ads["access"].as_str()),
        (Some("none"), Some("allowed"))
    );
    // Others still read `*`.
    let gpt = row("GPTBot");
    assert_eq!(
        (gpt["via"].as_str(), gpt["access"].as_str()),
        (Some("global"), Some("disallowed"))
    );
    let text = stdout(&run(&["audit", &file], b""));
    assert!(text.contains("Note: Applebot: no group names it, so it follows the groups of Googlebot"), "{text}");
    assert!(text.contains("Note: YandexBot: no group names it, so it follows the groups of Yandex"), "{text}");
    // `check` keeps the reference's answer for the name it is given.
    let out = run(&["check", &file, "Applebot", "/x"], b"");
    assert_eq!(out.status.code(), Some(1));
}
