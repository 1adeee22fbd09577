//! The stages of `robotrules_bulk::dist`, driven one at a time as a
//! distributed engine drives them, give the rows of a `Job`; and the
//! table partitioned by crawl holds the rows of the single file.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use robotrules_analysis::Catalogue;
use robotrules_bulk::dist::{self, Hop, Meta};
use robotrules_bulk::{
    capture, write, Followed, Job, Options, Origin, Pos, Problem,
};
use robotrules_testdata::warc::generate;
use serde_json::Value;

use super::{corpus, rows};

/// Two crawls of generated files, the first damaged.
fn inputs(dir: &Path) -> Vec<std::path::PathBuf> {
    let a = generate(&dir.join("a"), "CC-MAIN-2024-10", 180, 3, &corpus(), 21);
    let b = generate(&dir.join("b"), "CC-MAIN-2024-33", 120, 2, &corpus(), 22);
    let mut bytes = std::fs::read(&a.files[0]).unwrap();
    let at = a.members[0][3].0 as usize + 30;
    bytes[at..at + 16].copy_from_slice(b"garbage garbage!");
    std::fs::write(&a.files[0], bytes).unwrap();
    let mut files = a.files;
    files.extend(b.files);
    files
}

fn job_rows(
    files: &[std::path::PathBuf],
    out: &Path,
) -> (Vec<serde_json::Map<String, Value>>, Vec<Problem>) {
    let job = Job::new(
        capture::expand(files).unwrap(),
        Options::new(Catalogue::builtin()),
    );
    let sink =
        write::create(out, write::Format::JsonLines, &job.schema()).unwrap();
    let report = job.run(sink, &()).unwrap();
    (rows(out), report.problems)
}

#[test]
fn stages_give_the_rows_of_a_job() {
    let dir = tempfile::tempdir().unwrap();
    let files = inputs(dir.path());
    let (want, want_problems) =
        job_rows(&files, &dir.path().join("job.jsonl"));
    let sources = capture::expand(&files).unwrap();
    let options = Options::new(Catalogue::builtin());

    // Pass one, file by file.
    let mut problems = Vec::new();
    let mut crawls = Vec::new();
    let mut chosen: HashMap<(String, String), (Meta, i32)> = HashMap::new();
    for (i, source) in sources.iter().enumerate() {
        crawls.push(dist::scan(
            source,
            i as u32,
            None,
            &mut |item| match item {
                Ok(m) => {
                    let key = (m.crawl.clone(), m.url.clone());
                    match chosen.get_mut(&key) {
                        None => {
                            chosen.insert(key, (m, 1));
                        }
                        Some((old, n)) => {
                            *n += 1;
                            if m.order() > old.order() {
                                *old = m;
                            }
                        }
                    }
                }
                Err(p) => problems.push(p),
            },
        ));
    }
    // Sites, and their redirects one hop at a time.
    let mut plan: BTreeMap<Pos, Vec<Origin>> = BTreeMap::new();
    let mut hops = 0;
    for ((crawl, url), (meta, count)) in &chosen {
        if !meta.site {
            continue;
        }
        if !meta.is_redirect() {
            plan.entry(meta.pos)
                .or_default()
                .push(Origin { captures: *count, redirect: None });
            continue;
        }
        let mut locations = vec![meta.location.clone()];
        let mut f = Followed {
            crawl: crawl.clone(),
            url: url.clone(),
            hops: 0,
            stop: None,
            final_url: url.clone(),
            status: meta.status,
        };
        let pos = loop {
            match dist::hop(url, &locations) {
                Hop::Stop(stop) => {
                    f.stop = Some(stop);
                    break meta.pos;
                }
                Hop::Next(next, n) => {
                    hops += 1;
                    f.hops = n;
                    f.final_url.clone_from(&next);
                    match chosen.get(&(crawl.clone(), next)) {
                        None => {
                            f.stop = Some("not_captured");
                            break meta.pos;
                        }
                        Some((t, _)) if t.is_redirect() => {
                            locations.push(t.location.clone())
                        }
                        Some((t, _)) => break t.pos,
                    }
                }
                _ => unreachable!(),
            }
        };
        plan.entry(pos)
            .or_default()
            .push(Origin { captures: *count, redirect: Some(Box::new(f)) });
    }
    assert!(hops > 20, "the data has redirects to follow");
    // Pass two, file by file.
    let mut by_source: BTreeMap<u32, Vec<(Pos, Vec<Origin>)>> =
        BTreeMap::new();
    for (pos, origins) in plan {
        by_source.entry(pos.source).or_default().push((pos, origins));
    }
    let schema = robotrules_bulk::Schema::new(&options.catalogue);
    let out = dir.path().join("dist.jsonl");
    let mut sink =
        write::create(&out, write::Format::JsonLines, &schema).unwrap();
    for (i, todo) in by_source {
        let source = &sources[i as usize];
        let (rows, more) = dist::rows(
            source,
            &source.name(),
            &crawls[i as usize],
            todo,
            &options,
        );
        for r in &rows {
            sink.write(r).unwrap();
        }
        problems.extend(more);
    }
    sink.finish().unwrap();
    let key = |r: &serde_json::Map<String, Value>| {
        (r["crawl"].to_string(), r["site"].to_string(), r["url"].to_string())
    };
    let mut got = rows(&out);
    let mut want = want;
    got.sort_by_key(key);
    want.sort_by_key(key);
    assert!(want.len() > 250);
    assert_eq!(got.len(), want.len());
    for (a, b) in got.iter().zip(&want) {
        assert_eq!(a, b);
    }
    problems.sort();
    assert!(!problems.is_empty());
    assert_eq!(problems, want_problems);
}

#[test]
fn partitioned_holds_the_rows_of_the_single_file() {
    let dir = tempfile::tempdir().unwrap();
    let files = inputs(dir.path());
    let (single, _) = job_rows(&files, &dir.path().join("all.jsonl"));
    let job = Job::new(
        capture::expand(&files).unwrap(),
        Options::new(Catalogue::builtin()),
    );
    let out = dir.path().join("parts");
    let sink =
        write::partitioned(&out, write::Format::JsonLines, &job.schema())
            .unwrap();
    job.run(sink, &()).unwrap();
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["crawl=CC-MAIN-2024-10", "crawl=CC-MAIN-2024-33"]);
    let mut got = Vec::new();
    for name in &names {
        let crawl = name.strip_prefix("crawl=").unwrap();
        for row in rows(&out.join(name).join("part-00000.jsonl")) {
            assert!(!row.contains_key("crawl"));
            let mut full = serde_json::Map::new();
            full.insert("crawl".into(), crawl.into());
            full.extend(row);
            got.push(full);
        }
    }
    let key = |r: &serde_json::Map<String, Value>| {
        (r["crawl"].to_string(), r["site"].to_string(), r["url"].to_string())
    };
    let mut want = single;
    got.sort_by_key(key);
    want.sort_by_key(key);
    assert_eq!(got, want);
    // A directory that is not empty is not written into.
    assert!(write::partitioned(&out, write::Format::Parquet, &job.schema())
        .is_err());
}
