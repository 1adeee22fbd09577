//! Writes WARC.gz files in Common Crawl's robots.txt layout from the real
//! corpus, for benchmarks and the Spark test:
//!
//! ```text
//! cargo run --release -p robotrules-bulk --example generate -- DIR [SITES] [FILES] [CRAWL] [SEED]
//! ```
//!
//! The truth about every site goes to `DIR.truth.jsonl`, beside `DIR`.

use std::io::Write;
use std::path::PathBuf;

use robotrules_testdata::warc::{generate, Expect};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(dir) = args.first().map(PathBuf::from) else {
        eprintln!("usage: generate DIR [SITES] [FILES] [CRAWL] [SEED]");
        std::process::exit(2);
    };
    let num = |i: usize, d: usize| {
        args.get(i).map_or(d, |a| a.parse().expect("a number"))
    };
    let sites = num(1, 10_000);
    let files = num(2, 8);
    let crawl = args.get(3).map_or("CC-MAIN-2024-10", String::as_str);
    let seed = num(4, 1) as u64;
    let corpus = robotrules_testdata::corpus_files();
    let g = generate(&dir, crawl, sites, files, &corpus, seed);
    let mut truth = std::io::BufWriter::new(
        std::fs::File::create(dir.with_extension("truth.jsonl"))
            .expect("truth"),
    );
    for s in &g.sites {
        let (kind, value) = match &s.expect {
            Expect::Body(b) => ("body_len", b.len().to_string()),
            Expect::Status(c) => ("status", c.to_string()),
            Expect::Stop(stop) => ("stop", stop.to_string()),
        };
        writeln!(
            truth,
            "{{\"url\": {:?}, \"site\": {:?}, \"hops\": {}, \"captures\": {}, {kind:?}: {value:?}}}",
            s.url, s.site, s.hops, s.captures
        )
        .expect("write");
    }
    eprintln!(
        "{} captures of {} sites in {} files",
        g.captures,
        g.sites.len(),
        g.files.len()
    );
}
