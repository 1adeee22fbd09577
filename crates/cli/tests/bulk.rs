//! `robotrules bulk`.

use std::path::Path;

use serde_json::Value;

use crate::util::{run, stdout};

/// Two JSON lines files, one per crawl, with the same three sites.
fn crawls(dir: &Path) -> (String, String) {
    let write = |name: &str, gpt: &str| {
        let lines = [
            format!(
                r#"{{"url": "https://a.example/robots.txt", "status": 200, "body": "User-agent: GPTBot\nDisallow: {gpt}\n", "crawl": "{name}"}}"#
            ),
            format!(
                r#"{{"url": "https://b.example/robots.txt", "status": 200, "body": "User-agent: *\nDisallow: /private/\n", "crawl": "{name}"}}"#
            ),
            format!(
                r#"{{"url": "https://c.example/robots.txt", "status": 404, "crawl": "{name}"}}"#
            ),
        ];
        let path = dir.join(format!("{name}.jsonl"));
        std::fs::write(&path, lines.join("\n")).expect("write");
        path.to_str().expect("utf-8").to_string()
    };
    (write("CC-MAIN-2024-10", "/x"), write("CC-MAIN-2024-33", "/"))
}

#[test]
fn run_writes_rows_summary_and_chart() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (old, _) = crawls(dir.path());
    let out = dir.path().join("sites.csv");
    let summary = dir.path().join("s.json");
    let chart = dir.path().join("c.svg");
    let o = run(
        &[
            "bulk",
            "run",
            &old,
            "-q",
            "--agents",
            "GPTBot,CCBot",
            "-o",
            out.to_str().unwrap(),
            "--summary",
            summary.to_str().unwrap(),
            "--chart",
            chart.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let table = stdout(&o);
    assert!(
        table.starts_with("CC-MAIN-2024-10: 3 sites, 2 with a robots.txt"),
        "{table}"
    );
    // GPTBot: a.example in part, by name; b.example in part via *.
    let gpt = table.lines().find(|l| l.starts_with("GPTBot")).expect("GPTBot");
    let cells: Vec<&str> = gpt.split_whitespace().collect();
    // blocked, by name, via *, partly, by name, via *, unreachable.
    assert_eq!(
        &cells[1..8],
        ["0.00%", "0.00%", "0.00%", "66.67%", "33.33%", "33.33%", "0.00%"],
        "{gpt}"
    );
    let csv = std::fs::read_to_string(&out).expect("csv");
    let header = csv.lines().next().expect("header");
    assert!(header.ends_with("access_GPTBot,via_GPTBot,delay_GPTBot,access_CCBot,via_CCBot,delay_CCBot"));
    assert_eq!(csv.lines().count(), 4);
    let s: Value =
        serde_json::from_str(&std::fs::read_to_string(&summary).unwrap())
            .unwrap();
    assert_eq!(s["crawls"][0]["sites"], 3);
    assert!(std::fs::read_to_string(&chart).unwrap().starts_with("<svg"));

    // A chart is SVG: another name is refused before anything is written.
    let png = dir.path().join("c.png");
    for command in [
        &["bulk", "run", &old, "-q"][..],
        &["bulk", "compare", summary.to_str().unwrap()],
    ] {
        let mut args = command.to_vec();
        args.extend(["--chart", png.to_str().unwrap()]);
        let o = run(&args, b"");
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("name its file .svg"), "{err}");
        assert!(!png.exists());
    }
}

#[test]
fn compare_two_crawls() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (old, new) = crawls(dir.path());
    let summary = dir.path().join("both.json");
    let o = run(
        &[
            "bulk",
            "run",
            &old,
            &new,
            "-q",
            "-o",
            dir.path().join("x.jsonl").to_str().unwrap(),
            "--summary",
            summary.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(o.status.code(), Some(0));
    let o = run(&["bulk", "compare", summary.to_str().unwrap()], b"");
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let text = stdout(&o);
    let gpt = text.lines().find(|l| l.starts_with("GPTBot ")).expect("GPTBot");
    // Fully blocked on one site of three in the newer crawl.
    let cells: Vec<&str> = gpt.split_whitespace().collect();
    assert_eq!(cells[1..4], ["0.00%", "33.33%", "+33.33pp"], "{gpt}");
    // Each value ends where its column's head does.
    let head = text.lines().next().unwrap();
    assert!(head.contains("blocked CC-MAIN-2024-10"), "{head}");
    let ends = |line: &str| -> Vec<usize> {
        let b = line.as_bytes();
        (1..=b.len())
            .filter(|&i| {
                b[i - 1] != b' ' && b.get(i).is_none_or(|&c| c == b' ')
            })
            .collect()
    };
    let value_ends = ends(gpt);
    let mut head_ends = Vec::new();
    let mut at = 0;
    for cell in [
        "blocked CC-MAIN-2024-10",
        "blocked CC-MAIN-2024-33",
        "change",
        "partly CC-MAIN-2024-10",
        "partly CC-MAIN-2024-33",
        "change",
    ] {
        at += head[at..].find(cell).expect(cell) + cell.len();
        head_ends.push(at);
    }
    assert_eq!(head_ends, value_ends[1..], "\n{head}\n{gpt}");
}

#[test]
fn compare_names_its_crawls_and_crawlers() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (old, new) = crawls(dir.path());
    let summary = |name: &str, inputs: &[&str], agents: &str| {
        let path = dir.path().join(name);
        let mut args = vec!["bulk", "run"];
        args.extend(inputs);
        let out = dir.path().join(format!("{name}.jsonl"));
        args.extend([
            "-q",
            "-o",
            out.to_str().unwrap(),
            "--agents",
            agents,
            "--summary",
            path.to_str().unwrap(),
        ]);
        assert_eq!(run(&args, b"").status.code(), Some(0));
        path.to_str().unwrap().to_string()
    };
    let both = summary("both.json", &[&old, &new], "GPTBot,CCBot");
    let later = summary("later.json", &[&new], "GPTBot");
    // Two summaries of two crawls each: which to compare is asked for.
    let o = run(&["bulk", "compare", &both, &both], b"");
    assert_eq!(o.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains("--crawls OLD,NEW")
            && stderr.contains("\"CC-MAIN-2024-10\", \"CC-MAIN-2024-33\""),
        "{stderr}"
    );
    let o = run(
        &[
            "bulk",
            "compare",
            &both,
            &both,
            "--crawls",
            "CC-MAIN-2024-33,CC-MAIN-2024-10",
        ],
        b"",
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let text = stdout(&o);
    let gpt = text.lines().find(|l| l.starts_with("GPTBot ")).expect("GPTBot");
    let cells: Vec<&str> = gpt.split_whitespace().collect();
    assert_eq!(cells[1..4], ["33.33%", "0.00%", "-33.33pp"], "{gpt}");
    let o = run(
        &[
            "bulk",
            "compare",
            &both,
            &later,
            "--crawls",
            "CC-MAIN-2024-10,CC-MAIN-2099-01",
        ],
        b"",
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr)
        .contains("holds no crawl \"CC-MAIN-2099-01\""));
    // A crawler judged in one crawl only is named, not dropped unsaid.
    let o = run(
        &[
            "bulk",
            "compare",
            &both,
            &later,
            "--crawls",
            "CC-MAIN-2024-10,CC-MAIN-2024-33",
        ],
        b"",
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let text = stdout(&o);
    assert!(text.contains("not judged in CC-MAIN-2024-33: CCBot"), "{text}");
}

#[test]
fn damage_is_reported_not_fatal() {
    let dir = tempfile::tempdir().expect("tempdir");
    let warc = dir.path().join("bad.warc.gz");
    std::fs::write(&warc, b"\x1f\x8b\x08\x00garbage, not deflate").unwrap();
    let problems = dir.path().join("p.jsonl");
    let o = run(
        &[
            "bulk",
            "run",
            warc.to_str().unwrap(),
            "-q",
            "-o",
            dir.path().join("x.parquet").to_str().unwrap(),
            "--problems",
            problems.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(o.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains("bad.warc.gz: offset 0: gzip: corrupt gzip member"),
        "{stderr}"
    );
    let p: Value = serde_json::from_str(
        std::fs::read_to_string(&problems).unwrap().trim(),
    )
    .unwrap();
    assert_eq!(
        (p["offset"].as_u64(), p["kind"].as_str()),
        (Some(0), Some("gzip"))
    );
}

#[test]
fn partitioned_by_crawl_from_a_gzip_list() {
    use std::io::Write;
    let dir = tempfile::tempdir().expect("tempdir");
    let (old, new) = crawls(dir.path());
    let list = dir.path().join("robotstxt.paths.gz");
    let mut gz = flate2::write::GzEncoder::new(
        std::fs::File::create(&list).expect("create"),
        flate2::Compression::default(),
    );
    writeln!(gz, "CC-MAIN-2024-10.jsonl\nCC-MAIN-2024-33.jsonl").expect("gz");
    gz.finish().expect("gz");
    let out = dir.path().join("sites");
    let o = run(
        &[
            "bulk",
            "run",
            list.to_str().unwrap(),
            "-q",
            "--agents",
            "GPTBot,FooBot",
            "-o",
            out.to_str().unwrap(),
            "--partition-by",
            "crawl",
            "--format",
            "jsonl",
        ],
        b"",
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    for (crawl, input, gpt) in [
        ("CC-MAIN-2024-10", &old, "partial"),
        ("CC-MAIN-2024-33", &new, "disallowed"),
    ] {
        let part = out.join(format!("crawl={crawl}")).join("part-00000.jsonl");
        let text = std::fs::read_to_string(&part).expect("partition");
        let rows: Vec<Value> =
            text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!(rows.len(), 3);
        assert!(rows.iter().all(|r| r.get("crawl").is_none()));
        assert!(rows.iter().all(|r| r["file"] == input.as_str()));
        assert_eq!(rows[0]["site"], "https://a.example");
        assert_eq!(rows[0]["access_GPTBot"], gpt);
        assert_eq!(rows[0]["access_FooBot"], "allowed");
    }
    // Not into a directory that holds something; --format needs
    // --partition-by.
    let again = run(
        &[
            "bulk",
            "run",
            &old,
            "-q",
            "-o",
            out.to_str().unwrap(),
            "--partition-by",
            "crawl",
        ],
        b"",
    );
    assert_ne!(again.status.code(), Some(0));
    let csv = dir.path().join("a.csv");
    let bad = run(
        &[
            "bulk",
            "run",
            &old,
            "-q",
            "-o",
            csv.to_str().unwrap(),
            "--format",
            "csv",
        ],
        b"",
    );
    assert_ne!(bad.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--partition-by"));
}

#[test]
fn outputs_that_would_destroy_inputs_are_refused_before_the_job() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (old, _) = crawls(dir.path());
    let before = std::fs::read(&old).unwrap();
    let refused = |args: &[&str], why: &str| {
        let mut all = vec!["bulk", "run", old.as_str(), "-q"];
        all.extend(args);
        let o = run(&all, b"");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(why), "{args:?}: {err}");
        // Nothing was read, nothing destroyed.
        assert_eq!(std::fs::read(&old).unwrap(), before, "{args:?}");
    };
    let out = dir.path().join("o.jsonl");
    let out = out.to_str().unwrap();
    refused(&["-o", &old], "is also an input");
    refused(&["-o", out, "--summary", &old], "is also an input");
    refused(&["-o", out, "--problems", out], "name the same file");
    let dir_str = dir.path().to_str().unwrap();
    refused(&["-o", dir_str, "--partition-by", "crawl"], "or holds an input");
    refused(&["-o", "-", "--partition-by", "crawl"], "writes a directory");
    let nowhere = dir.path().join("no/such/s.json");
    refused(
        &["-o", out, "--summary", nowhere.to_str().unwrap()],
        "no directory",
    );
    assert!(!Path::new(out).exists(), "the job ran");
    refused(&["-o", out, "--threads", "100000"], "0 (one per core) to 1024");
    // One file, by `..` or a symbolic link.
    std::fs::create_dir(dir.path().join("d")).unwrap();
    let dotted = dir.path().join("d/../o.jsonl");
    refused(
        &["-o", out, "--summary", dotted.to_str().unwrap()],
        "name the same file",
    );
    let link = dir.path().join("link.jsonl");
    std::os::unix::fs::symlink(out, &link).unwrap();
    refused(
        &["-o", out, "--problems", link.to_str().unwrap()],
        "name the same file",
    );
    // A summary in the partitioned table's directory, which the job makes.
    let table = dir.path().join("table");
    let summary = table.join("_summary.json");
    let o = run(
        &[
            "bulk",
            "run",
            old.as_str(),
            "-q",
            "-o",
            table.to_str().unwrap(),
            "--partition-by",
            "crawl",
            "--summary",
            summary.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(summary.exists());
}

#[test]
fn compare_says_which_summary_holds_no_crawl() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (old, _) = crawls(dir.path());
    let summary = |name: &str, input: &str| {
        let path = dir.path().join(name);
        let out = dir.path().join(format!("{name}.jsonl"));
        let o = run(
            &[
                "bulk",
                "run",
                input,
                "-q",
                "-o",
                out.to_str().unwrap(),
                "--summary",
                path.to_str().unwrap(),
            ],
            b"",
        );
        assert_eq!(o.status.code(), Some(0));
        path.to_str().unwrap().to_string()
    };
    let empty_input = dir.path().join("empty.jsonl");
    std::fs::write(&empty_input, "").unwrap();
    let empty = summary("empty.json", empty_input.to_str().unwrap());
    let full = summary("full.json", &old);
    let o = run(&["bulk", "compare", &full, &empty], b"");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains(&format!("\"{empty}\" holds no crawl")), "{err}");
}
