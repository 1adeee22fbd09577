//! `robotrules lint`, run as a user runs it. The checks themselves are
//! tested in `robotrules-analysis`.

use serde_json::Value;

use crate::util::{robots_file, run, shared, stdout};

fn json_rows(out: &std::process::Output) -> Vec<Value> {
    stdout(out).lines().map(|l| serde_json::from_str(l).unwrap()).collect()
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
fn json_flag_equals_format_json() {
    let (_dir, file) =
        robots_file(b"User-agent: *\r\nDisallow: /x\r\nDissalow: /y\r\n");
    let a = run(&["lint", "--json", &file], b"");
    let b = run(&["lint", "--format", "json", &file], b"");
    assert_eq!(a.stdout, b.stdout);
    let rows = json_rows(&a);
    assert_eq!(rows[0]["code"], "RT102");
    assert_eq!(rows[0]["name"], "accepted-variant");
    // CR LF line ends: still line 3, and the span is in the file.
    assert_eq!(
        (rows[0]["line"].as_u64(), rows[0]["column"].as_u64()),
        (Some(3), Some(1))
    );
    assert_eq!(rows[0]["span"], serde_json::json!({"start": 29, "end": 37}));
}

#[test]
fn escapes_and_binary_data_stay_out_of_the_terminal() {
    let (_dir, file) = robots_file(
        b"User-agent: *\nDisalow: /x\x1b[31mRED\x1b]0;t\x07\nUser-agent: a\x1b[2J\n",
    );
    for args in [&["lint", &file][..], &["lint", "--json", &file][..]] {
        let out = run(args, b"");
        assert!(
            !out.stdout.iter().any(|&b| b == 0x1b || b == 0x07),
            "{}",
            stdout(&out)
        );
        assert!(!stdout(&out).contains("RT006"), "{}", stdout(&out));
    }
    let text = stdout(&run(&["lint", &file], b""));
    assert!(text.contains("Disalow: /x\\x1b[31mRED"), "{text}");
    // A megabyte of random bytes: bounded output.
    let body =
        robotrules_testdata::random_bytes(1 << 20, 0x9e37_79b9_7f4a_7c15);
    let (_dir, file) = robots_file(&body);
    let out = run(&["lint", "--json", &file], b"");
    let rows = json_rows(&out);
    assert!(rows.len() <= 1001, "{}", rows.len());
    assert!(rows.iter().any(|r| r["code"] == "RT006"));
    let text = run(&["lint", &file], b"");
    assert!(!text.stdout.iter().any(|&b| b < 0x20 && !b"\n".contains(&b)));
}

#[test]
fn corpus_sample_renders() {
    let root = shared().join("corpus/real");
    let mut files: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .chain(std::fs::read_dir(root.join("adversarial")).unwrap())
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    for p in files.iter().step_by(97) {
        let p = p.to_str().unwrap();
        let out = run(&["lint", p], b"");
        assert!(matches!(out.status.code(), Some(0 | 1)), "{p}");
        assert!(
            stdout(&out).contains(" errors")
                || stdout(&out).contains(" error,"),
            "{p}"
        );
    }
}

#[test]
fn a_closed_pipe_is_not_an_error() {
    use std::io::{BufRead, BufReader, Read};
    use std::process::Stdio;
    // More JSON than a pipe holds: the writes after the reader leaves fail.
    let (_dir, file) =
        robots_file(&b"User-agent: *\nDisalow: /x\n".repeat(5000));
    let mut child = crate::util::bin()
        .args(["lint", "--json", &file])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.contains("RT102"), "{first}");
    // stdout is dropped here: the pipe closes.
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0), "{err}");
    assert_eq!(err, "");
}

#[test]
fn text_and_json_give_the_same_columns() {
    // A tab (shown escaped) and two-byte characters before the spans.
    let (_dir, file) = robots_file(
        "User-agent: *\n\tDisallow: /a/*\nDisalow: /éé/*\n".as_bytes(),
    );
    let rows = json_rows(&run(&["lint", "--json", &file], b""));
    let text = stdout(&run(&["lint", &file], b""));
    assert_eq!(rows.len(), 3, "{rows:?}");
    for row in &rows {
        let at = format!("{file}:{}:{}\n", row["line"], row["column"]);
        assert!(text.contains(&at), "{at} in {text}");
    }
    assert_eq!(
        (&rows[0]["column"], &rows[2]["column"]),
        (&12.into(), &10.into())
    );
}
