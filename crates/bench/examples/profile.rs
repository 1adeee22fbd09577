//! A driver for profilers: one workload of the benchmarks, run a given
//! number of times, with nothing else in the process worth counting.
//!
//! ```text
//! cargo build --release -p robotrules-bench --example profile
//! valgrind --tool=callgrind target/release/examples/profile parse 1
//! perf record target/release/examples/profile checks 20
//! ```
//!
//! Workloads: `parse` (the whole corpus), `checks` (100,000 URLs against
//! the 100-rule file), `one` (parse plus one check of the 5 KB file) and
//! `crawl N ROUNDS` (the crawler workload of `compare` at `N`).

use std::hint::black_box;

use robotrules_bench::{corpus, crawl, file, urls, CHECKS_FILE, TYPICAL_FILE};

fn main() {
    let mut args = std::env::args().skip(1);
    let workload = args.next().unwrap_or_else(|| "parse".to_string());
    let times: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(1);
    let mut sink = 0usize;
    match workload.as_str() {
        "parse" => {
            let files = corpus();
            for _ in 0..times {
                for (_, body) in &files {
                    sink += robotrules::Robots::parse(black_box(body))
                        .line_count();
                }
            }
        }
        "checks" => {
            let body = file(CHECKS_FILE);
            let list = urls(&body, 100_000);
            let robots = robotrules::Robots::parse(&body);
            let matcher = robots.matcher(&["Googlebot"]);
            for _ in 0..times {
                sink += list
                    .iter()
                    .filter(|u| matcher.is_allowed(black_box(u)))
                    .count();
            }
        }
        "one" => {
            let body = file(TYPICAL_FILE);
            let url =
                "https://www.example.com/butik/liste/kadin?pid=42&sst=PRICE";
            for _ in 0..times * 1000 {
                let robots = robotrules::Robots::parse(black_box(&body));
                sink += usize::from(robots.is_allowed("Googlebot", url));
            }
        }
        "crawl" => {
            // `crawl N ROUNDS`: the crawler workload of `compare` at N,
            // `Matcher::parse` and N checks per file.
            let n = times;
            let rounds: usize =
                args.next().and_then(|n| n.parse().ok()).unwrap_or(1);
            let sites = crawl(256);
            for _ in 0..rounds {
                for s in &sites {
                    let matcher = robotrules::Matcher::parse(
                        black_box(&s.body),
                        &["Googlebot"],
                    );
                    for i in 0..n {
                        sink += usize::from(
                            matcher.is_allowed(&s.urls[i % s.urls.len()]),
                        );
                    }
                }
            }
        }
        other => {
            eprintln!(
                "unknown workload {other:?}: use parse, checks, one or crawl"
            );
            std::process::exit(2);
        }
    }
    println!("{sink}");
}
