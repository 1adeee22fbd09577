//! `robotrules lint`: every diagnostic has a file that triggers it at a
//! known line and a file that must not trigger it.

use robotrules_cli::lint::{lint, Severity};
use serde_json::Value;

use crate::util::{robots_file, run, shared, stdout};

/// (code, a file with the problem, the line it is on, a file without it).
fn cases() -> Vec<(&'static str, Vec<u8>, u32, Vec<u8>)> {
    let big_line = {
        // RT001: find the line that crosses 500 KiB.
        let mut body = b"User-agent: *\n".to_vec();
        let mut line = 1;
        let mut crossing = 0;
        while body.len() <= 520_000 {
            line += 1;
            body.extend_from_slice(
                format!("Disallow: /page-{line}\n").as_bytes(),
            );
            if crossing == 0 && body.len() > 500 * 1024 {
                crossing = line;
            }
        }
        (body, crossing)
    };
    let b = |s: &str| s.as_bytes().to_vec();
    vec![
        ("RT001", big_line.0, big_line.1, b("User-agent: *\nDisallow: /x\n")),
        ("RT002", b("\u{feff}User-agent: *\nDisallow: /x\n"), 1, b("User-agent: *\nDisallow: /x\n")),
        ("RT003", b"User-agent: *\nDisallow: /caf\xe9\n".to_vec(), 2, b("User-agent: *\nDisallow: /café\n")),
        ("RT004", b("User-agent: *\rDisallow: /x\r"), 1, b("User-agent: *\r\nDisallow: /x\r\n")),
        ("RT005", b("<!DOCTYPE html>\n<html><body>Not found</body></html>\n"), 1, b("User-agent: *\nDisallow: /html/\n")),
        ("RT006", b"\xFF\xFEU\0s\0e\0r\0-\0a\0g\0e\0n\0t\0:\0 \0*\0".to_vec(), 1, b("User-agent: *\n")),
        ("RT007", format!("User-agent: *\nDisallow: /{}$\n", "a".repeat(17_000)).into_bytes(), 2, b("User-agent: *\nDisallow: /aaaa$\n")),
        ("RT101", b("User-agent: *\nAlow: /x\n"), 2, b("User-agent: *\nAllow: /x\n")),
        ("RT102", b("User-agent: *\nDissalow: /x\n"), 2, b("User-agent: *\nDisallow: /x\n")),
        ("RT103", b("User-agent: *\nDisallow /x\n"), 2, b("User-agent: *\nDisallow: /x\n")),
        ("RT104", b("Disallow: /x\nUser-agent: *\nDisallow: /y\n"), 1, b("User-agent: *\nDisallow: /x\n")),
        ("RT105", b("User-agent: Googlebot/2.1\nDisallow: /x\n"), 1, b("User-agent: Googlebot\nDisallow: /x\n")),
        ("RT106", b("User-agent: *\nDisallow: https://example.com/x\n"), 2, b("User-agent: *\nDisallow: /x\n")),
        ("RT107", b("User-agent: *\nDisallow: private/\n"), 2, b("User-agent: *\nDisallow: /private/\n")),
        ("RT108", b("User-agent: *\nDisallow: /a$b\n"), 2, b("User-agent: *\nDisallow: /ab$\n")),
        ("RT109", b("User-agent: *\nDisallow: /tmp*\n"), 2, b("User-agent: *\nDisallow: /tmp\n")),
        ("RT110", b("User-agent: *\nDisallow: /x\nSitemap: /sitemap.xml\n"), 3, b("Sitemap: https://example.com/sitemap.xml\n")),
        ("RT111", b("User-agent: *\nCrawl-delay: soon\n"), 2, b("User-agent: *\nCrawl-delay: 5\n")),
        ("RT112", b("User-agent: *\nDisallow / x\n"), 2, b("User-agent: *\nDisallow: /x\n")),
        ("RT201", b("User-agent: *\nDisallow: /x\nCrawl-delay: 5\n"), 3, b("User-agent: *\nDisallow: /x\n")),
        ("RT202", b("User-agent: *\nDisallow: /x\nUser-agent: a\n"), 3, b("User-agent: *\nDisallow: /x\nUser-agent: a\nDisallow:\n")),
        ("RT203", b("User-agent: a\nDisallow: /x\nUser-agent: b\nDisallow: /y\nUser-agent: A\nDisallow: /z\n"), 1, b("User-agent: a\nUser-agent: b\nDisallow: /x\n")),
        ("RT204", b("User-agent: *\nDisallow: /private\nUser-agent: a\nDisallow: /tmp\n"), 3, b("User-agent: *\nDisallow: /private\nUser-agent: a\nDisallow: /tmp\nDisallow: /private\n")),
        ("RT205", b("User-agent: *\nAllow: /x\nDisallow: /x\n"), 3, b("User-agent: *\nAllow: /x/\nDisallow: /x\n")),
        ("RT206", b("User-agent: *\nAllow: /page\nDisallow: /*.ph\n"), 3, b("User-agent: *\nAllow: /page\nDisallow: /*.php\n")),
        ("RT207", b("User-agent: *\nDisallow: /\n"), 2, b("User-agent: *\nDisallow: /admin/\n")),
        ("RT208", b("User-agent: *\nDisallow: /*.js$\n"), 2, b("User-agent: *\nDisallow: /*.pdf$\n")),
        ("RT209", b("User-agent: *\nDisallow: /private/\nSitemap: https://example.com/private/sitemap.xml\n"), 3, b("User-agent: *\nDisallow: /private/\nSitemap: https://example.com/sitemap.xml\n")),
    ]
}

#[test]
fn every_lint_triggers_at_its_line_and_not_on_a_clean_file() {
    for (code, bad, line, good) in cases() {
        let found = lint(&bad);
        assert!(
            found.iter().any(|d| d.code == code && d.line == line),
            "{code}: expected at line {line}, got {:?}",
            found.iter().map(|d| (d.code, d.line)).collect::<Vec<_>>()
        );
        let clean = lint(&good);
        assert!(
            !clean.iter().any(|d| d.code == code),
            "{code}: unexpected on the clean file: {:?}",
            clean.iter().filter(|d| d.code == code).collect::<Vec<_>>()
        );
    }
}

#[test]
fn typo_suggestions() {
    let found = lint(b"User-agent: *\nAlow: /x\nSitemapp https://e.com/s.xml\nDisalow: /y\nfoo: bar\n");
    let help = |line| {
        found
            .iter()
            .find(|d| d.code == "RT101" && d.line == line)
            .and_then(|d| d.help.clone())
    };
    assert_eq!(help(2).as_deref(), Some("did you mean `allow`?"));
    assert_eq!(help(5).as_deref(), Some("no crawler is known to read it"));
    // `Sitemapp` and `Disalow` are read as the real keys: variants, not unknown.
    assert!(found.iter().any(|d| d.code == "RT102" && d.line == 3));
    assert!(found.iter().any(|d| d.code == "RT102" && d.line == 4));
}

#[test]
fn clean_files_have_no_errors_or_warnings() {
    let clean = b"# A careful robots.txt\nUser-agent: *\nDisallow: /admin/\nAllow: /admin/help\nDisallow: /*?session=\n\n\
                  User-agent: Googlebot\nDisallow: /admin/\nAllow: /admin/help\nDisallow: /*?session=\nDisallow: /drafts/\n\n\
                  Sitemap: https://example.com/sitemap.xml\n";
    let found = lint(clean);
    assert!(found.iter().all(|d| d.severity == Severity::Info), "{found:?}");
    let example = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/robots.txt"
    ))
    .unwrap();
    assert!(lint(&example).iter().all(|d| d.severity != Severity::Error));
}

#[test]
fn json_format_and_exit_status() {
    let (_dir, file) =
        robots_file(b"Disallow: /x\nUser-agent: *\nDissalow: /y\n");
    let out = run(&["lint", "--format", "json", &file], b"");
    assert_eq!(out.status.code(), Some(1), "an error exits 1");
    let rows: Vec<Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let rt104 = rows.iter().find(|r| r["code"] == "RT104").expect("RT104");
    assert_eq!(
        (rt104["line"].as_u64(), rt104["column"].as_u64()),
        (Some(1), Some(1))
    );
    assert_eq!(rt104["severity"], "error");
    let rt102 = rows.iter().find(|r| r["code"] == "RT102").expect("RT102");
    assert_eq!(
        (rt102["line"].as_u64(), rt102["severity"].as_str()),
        (Some(3), Some("warning"))
    );
    for r in &rows {
        for field in ["code", "severity", "line", "column", "message"] {
            assert!(!r[field].is_null(), "{field} in {r}");
        }
    }
    let (_dir, ok) = robots_file(b"User-agent: *\nDisallow: /x\n");
    assert_eq!(run(&["lint", &ok], b"").status.code(), Some(0));
}

#[test]
fn text_format_underlines_the_source() {
    let (_dir, file) =
        robots_file(b"User-agent: *\nDisallow: https://example.com/x\n");
    let out = run(&["lint", &file], b"");
    let text = stdout(&out);
    assert!(text.contains("error[RT106/url-as-path]"), "{text}");
    assert!(text.contains("2 │ Disallow: https://example.com/x"), "{text}");
    assert!(text.contains("^^^^^^^^^^^^^^^^^^^^^"), "{text}");
    assert!(text.contains("help: write only the path"), "{text}");
    assert!(text.ends_with("1 error, 0 warnings, 0 notes\n"), "{text}");
}

#[test]
fn whole_corpus_lints_without_panic() {
    let root = shared().join("corpus/real");
    let mut files = Vec::new();
    for dir in [root.clone(), root.join("adversarial")] {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_file() {
                files.push(p);
            }
        }
    }
    let mut counts = std::collections::BTreeMap::<&str, usize>::new();
    for p in &files {
        let body = std::fs::read(p).unwrap();
        let found = lint(&body);
        let text = robotrules_cli::lint::render("robots.txt", &body, &found);
        assert!(!text.is_empty());
        let mut seen = std::collections::BTreeSet::new();
        for d in found {
            if seen.insert(d.code) {
                *counts.entry(d.code).or_default() += 1;
            }
        }
    }
    let mut top: Vec<_> = counts.into_iter().collect();
    top.sort_by_key(|&(_, n)| std::cmp::Reverse(n));
    eprintln!("{} files; files per diagnostic: {top:?}", files.len());
    assert!(files.len() > 16_000);
}
