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
        ("Amazonbot", Purpose::AiAssistant),
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
