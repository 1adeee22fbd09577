//! The built-in catalogue and custom ones.

use robotrules_analysis::{Catalogue, CatalogueErrorKind, Purpose};

#[test]
fn builtin_has_the_current_crawlers() {
    let c = Catalogue::builtin();
    assert!(c.len() >= 50, "{}", c.len());
    for (token, purpose) in [
        ("GPTBot", Purpose::AiTraining),
        ("OAI-SearchBot", Purpose::AiSearch),
        ("ChatGPT-User", Purpose::AiAssistant),
        ("ClaudeBot", Purpose::AiTraining),
        ("Claude-User", Purpose::AiAssistant),
        ("Claude-SearchBot", Purpose::AiSearch),
        ("anthropic-ai", Purpose::AiTraining),
        ("Google-Extended", Purpose::AiTraining),
        ("Applebot-Extended", Purpose::AiTraining),
        ("PerplexityBot", Purpose::AiSearch),
        ("Perplexity-User", Purpose::AiAssistant),
        ("CCBot", Purpose::AiTraining),
        ("Bytespider", Purpose::AiTraining),
        ("Meta-ExternalAgent", Purpose::AiTraining),
        ("Amazonbot", Purpose::AiTraining),
        ("Amzn-SearchBot", Purpose::AiSearch),
        ("AMZN-User", Purpose::AiAssistant),
        ("cohere-ai", Purpose::AiAssistant),
        ("Diffbot", Purpose::AiTraining),
        ("Googlebot", Purpose::Search),
        ("Bingbot", Purpose::Search),
        ("Applebot", Purpose::Search),
        ("AhrefsBot", Purpose::Seo),
        ("SemrushBot", Purpose::Seo),
        ("ia_archiver", Purpose::Archive),
        ("AdsBot-Google", Purpose::Ads),
    ] {
        let crawler = c.get(token).unwrap_or_else(|| panic!("{token}"));
        assert_eq!(crawler.purpose, purpose, "{token}");
    }
    for crawler in &c {
        assert!(
            robotrules::is_valid_agent(&crawler.token),
            "{}",
            crawler.token
        );
        assert!(!crawler.operator.is_empty());
    }
}

#[test]
fn custom_toml_with_line_numbers() {
    let c = Catalogue::from_toml(
        "[[crawler]]\ntoken = \"FooBot\"\noperator = \"Foo\"\npurpose = \"ai-training\"\nurl = \"https://foo.example/bot\"\n",
    )
    .unwrap();
    assert_eq!(
        c.crawlers()[0].url.as_deref(),
        Some("https://foo.example/bot")
    );
    let e = Catalogue::from_toml(
        "[[crawler]]\ntoken = \"a\"\noperator = \"A\"\npurpose = \"spam\"\n",
    )
    .unwrap_err();
    assert_eq!(
        (e.kind(), e.line()),
        (CatalogueErrorKind::InvalidValue, Some(4))
    );
    assert_eq!(e.to_string(), "line 4: unknown purpose `spam`");
}

#[cfg(feature = "serde")]
#[test]
fn custom_json_with_line_numbers() {
    let list = Catalogue::from_json(
        r#"[{"token": "FooBot", "operator": "Foo", "purpose": "seo"}]"#,
    )
    .unwrap();
    assert_eq!(list.crawlers()[0].purpose, Purpose::Seo);
    let table = Catalogue::from_json(
        r#"{"crawler": [{"token": "FooBot", "operator": "Foo", "purpose": "search", "note": "n"}]}"#,
    )
    .unwrap();
    assert_eq!(table.crawlers()[0].note.as_deref(), Some("n"));
    let e = Catalogue::from_json(
        "[\n{\"token\": \"a\",\n\"operator\": \"A\",\n\"purpose\": \"spam\"}]",
    )
    .unwrap_err();
    assert_eq!(e.line(), Some(4), "{e}");
    let e = Catalogue::from_json("[\n{\"token\": \"a\",\n").unwrap_err();
    assert_eq!(e.kind(), CatalogueErrorKind::Syntax);
    let e = Catalogue::from_json(
        r#"[{"token": "a b", "operator": "A", "purpose": "seo"}]"#,
    )
    .unwrap_err();
    assert_eq!(e.kind(), CatalogueErrorKind::InvalidValue);
}

#[test]
fn fallbacks_and_the_global_groups() {
    let c = Catalogue::builtin();
    let fallback = |t: &str| c.get(t).unwrap().fallback.clone();
    assert_eq!(fallback("Applebot"), ["Googlebot"]);
    assert_eq!(fallback("YandexBot"), ["Yandex"]);
    assert!(fallback("GPTBot").is_empty());
    assert!(c.get("AdsBot-Google").unwrap().ignores_global);
    assert!(c.get("AdsBot-Google-Mobile").unwrap().ignores_global);
    assert!(!c.get("Googlebot").unwrap().ignores_global);
    // Fetchers on a user's request that their operators say may not obey.
    let users: Vec<&str> = c
        .crawlers()
        .iter()
        .filter(|c| c.user_initiated)
        .map(|c| c.token.as_str())
        .collect();
    assert_eq!(
        users,
        ["ChatGPT-User", "Perplexity-User", "Meta-ExternalFetcher"]
    );
    // The TOML forms: an array of strings, a boolean, comments after.
    let mine = Catalogue::from_toml(
        "[[crawler]]\ntoken = \"FooBot\"\noperator = \"Foo\"\npurpose = \"ads\"\n\
         fallback = [\"Foo\", 'FooAll', ] # in this order\nignores_global = true # yes\n",
    )
    .unwrap();
    assert_eq!(mine.crawlers()[0].fallback, ["Foo", "FooAll"]);
    assert!(mine.crawlers()[0].ignores_global);
    assert!(!mine.crawlers()[0].user_initiated);
    let user = Catalogue::from_toml(
        "[[crawler]]\ntoken = \"Foo-User\"\noperator = \"Foo\"\npurpose = \"ai-assistant\"\nuser_initiated = true\n",
    )
    .unwrap();
    assert!(user.crawlers()[0].user_initiated);
    for (bad, line) in [
        ("fallback = \"Foo\"\n", 4),
        ("fallback = [\"Foo\"\n", 4),
        ("fallback = [\"Foo\"] x\n", 4),
        ("ignores_global = \"true\"\n", 4),
        ("ignores_global = true\nignores_global = false\n", 5),
        ("user_initiated = 1\n", 4),
        ("user_initiated = true\nuser_initiated = true\n", 5),
    ] {
        let text = format!(
            "[[crawler]]\ntoken = \"FooBot\"\noperator = \"Foo\"\n{bad}purpose = \"ads\"\n"
        );
        let e = Catalogue::from_toml(&text).unwrap_err();
        assert_eq!(
            (e.kind(), e.line()),
            (CatalogueErrorKind::Syntax, Some(line)),
            "{bad}: {e}"
        );
    }
    // A fallback must be another valid token.
    for bad in ["[\"FooBot\"]", "[\"foobot\"]", "[\"Foo Bar\"]", "[\"\"]"] {
        let text = format!(
            "[[crawler]]\ntoken = \"FooBot\"\noperator = \"Foo\"\npurpose = \"ads\"\nfallback = {bad}\n"
        );
        let e = Catalogue::from_toml(&text).unwrap_err();
        assert_eq!(e.kind(), CatalogueErrorKind::InvalidValue, "{bad}: {e}");
    }
}

#[cfg(feature = "serde")]
#[test]
fn fallbacks_in_json() {
    let c = Catalogue::from_json(
        r#"[{"token": "FooBot", "operator": "Foo", "purpose": "seo", "fallback": ["Foo"], "ignores_global": true}]"#,
    )
    .unwrap();
    assert_eq!(c.crawlers()[0].fallback, ["Foo"]);
    assert!(c.crawlers()[0].ignores_global);
    // Written back only where set.
    let json = serde_json::to_value(c.crawlers()).unwrap();
    assert_eq!(json[0]["fallback"], serde_json::json!(["Foo"]));
    assert_eq!(json[0]["ignores_global"], true);
    let plain =
        serde_json::to_value(Catalogue::builtin().get("GPTBot")).unwrap();
    assert!(
        plain.get("fallback").is_none()
            && plain.get("ignores_global").is_none()
    );
}
