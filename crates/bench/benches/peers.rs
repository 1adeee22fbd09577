//! robotrules against `robotstxt`, `texting_robots` and `robotxt`, side by
//! side in one run, on real robots.txt files.
//!
//! Run: `cargo bench -p robotrules-bench --bench peers`.

use std::hint::black_box;

use criterion::{
    criterion_group, criterion_main, BatchSize, Criterion, Throughput,
};
use robotrules_bench::{
    corpus, crawl, file, urls, Count, CHECKS_FILE, TYPICAL_FILE,
};

const AGENT: &str = "Googlebot";

/// (a) Parse throughput over the whole real corpus.
fn parse(c: &mut Criterion) {
    let files = corpus();
    // `robotstxt` takes `&str`: convert once, outside the timing.
    let texts: Vec<String> = files
        .iter()
        .map(|(_, b)| String::from_utf8_lossy(b).into_owned())
        .collect();
    let bytes: u64 = files.iter().map(|(_, b)| b.len() as u64).sum();
    let mut g = c.benchmark_group("parse_corpus");
    g.throughput(Throughput::Bytes(bytes));
    g.sample_size(10);
    g.bench_function("robotrules", |b| {
        b.iter(|| {
            for (_, body) in &files {
                black_box(robotrules::Robots::parse(black_box(body)));
            }
        })
    });
    // Parse plus getting ready for one agent: a matcher, parsed for it.
    g.bench_function("robotrules_matcher_parse", |b| {
        b.iter(|| {
            for (_, body) in &files {
                black_box(robotrules::Matcher::parse(
                    black_box(body),
                    &[AGENT],
                ));
            }
        })
    });
    g.bench_function("robotstxt", |b| {
        b.iter(|| {
            let mut count = Count::default();
            for text in &texts {
                robotstxt::parse_robotstxt(black_box(text), &mut count);
            }
            black_box(count.0)
        })
    });
    g.bench_function("texting_robots", |b| {
        b.iter(|| {
            for (_, body) in &files {
                let _ = black_box(texting_robots::Robot::new(
                    AGENT,
                    black_box(body),
                ));
            }
        })
    });
    g.bench_function("robotxt", |b| {
        b.iter(|| {
            for (_, body) in &files {
                let _ =
                    black_box(robotxt::Robots::parse(black_box(body), AGENT));
            }
        })
    });
    g.finish();
}

/// (b) Checks per second against one parsed file with a 100-rule group.
fn checks(c: &mut Criterion) {
    let body = file(CHECKS_FILE);
    let text = String::from_utf8_lossy(&body).into_owned();
    let urls = urls(&body, 100_000);
    let paths: Vec<String> =
        urls.iter().map(|u| robotrules::path_of(u).into_owned()).collect();
    let mut g = c.benchmark_group("checks_100_rules");
    g.sample_size(10);
    g.throughput(Throughput::Elements(urls.len() as u64));

    let robots = robotrules::Robots::parse(&body);
    let matcher = robots.matcher(&[AGENT]);
    g.bench_function("robotrules_matcher", |b| {
        b.iter(|| {
            urls.iter().filter(|u| matcher.is_allowed(black_box(u))).count()
        })
    });
    g.bench_function("robotrules_one_shot", |b| {
        b.iter(|| {
            urls.iter()
                .filter(|u| robots.is_allowed(AGENT, black_box(u)))
                .count()
        })
    });
    let texting = texting_robots::Robot::new(AGENT, &body)
        .expect("texting_robots parses the file");
    g.bench_function("texting_robots", |b| {
        b.iter(|| {
            urls.iter().filter(|u| texting.allowed(black_box(u))).count()
        })
    });
    let robotxt = robotxt::Robots::parse(&body, AGENT);
    g.bench_function("robotxt", |b| {
        // robotxt takes the path, which is given to it ready-made.
        b.iter(|| {
            paths.iter().filter(|p| robotxt.is_allowed(black_box(p))).count()
        })
    });
    // robotstxt re-parses the file for every check: 5,000 URLs are plenty.
    let few = &urls[..5_000];
    g.throughput(Throughput::Elements(few.len() as u64));
    g.bench_function("robotstxt", |b| {
        b.iter(|| {
            few.iter()
                .filter(|u| {
                    robotstxt::DefaultMatcher::default()
                        .one_agent_allowed_by_robots(
                            &text,
                            AGENT,
                            black_box(u),
                        )
                })
                .count()
        })
    });
    g.finish();
}

/// (c) Parse plus one check, on a typical 5 KB file.
fn parse_and_check(c: &mut Criterion) {
    let body = file(TYPICAL_FILE);
    let text = String::from_utf8_lossy(&body).into_owned();
    let url = "https://www.example.com/butik/liste/kadin?pid=42&sst=PRICE";
    let mut g = c.benchmark_group("parse_and_one_check_5kb");
    g.throughput(Throughput::Bytes(body.len() as u64));
    g.bench_function("robotrules", |b| {
        b.iter(|| {
            robotrules::Matcher::parse(black_box(&body), &[AGENT])
                .is_allowed(black_box(url))
        })
    });
    g.bench_function("robotrules_full_parse", |b| {
        b.iter(|| {
            robotrules::Robots::parse(black_box(&body))
                .is_allowed(AGENT, black_box(url))
        })
    });
    g.bench_function("robotstxt", |b| {
        b.iter(|| {
            robotstxt::DefaultMatcher::default().one_agent_allowed_by_robots(
                black_box(&text),
                AGENT,
                url,
            )
        })
    });
    g.bench_function("texting_robots", |b| {
        b.iter(|| {
            texting_robots::Robot::new(AGENT, black_box(&body))
                .map(|r| r.allowed(black_box(url)))
        })
    });
    let path = robotrules::path_of(url).into_owned();
    g.bench_function("robotxt", |b| {
        b.iter(|| {
            robotxt::Robots::parse(black_box(&body), AGENT)
                .is_allowed(black_box(&path))
        })
    });
    g.bench_function("robotrules_matcher_build", |b| {
        b.iter_batched(
            || robotrules::Robots::parse(&body),
            |robots| robots.matcher(&[AGENT]).is_allowed(black_box(url)),
            BatchSize::SmallInput,
        )
    });
    g.finish();
}

/// (d) The crawler workload: every fourth file of the corpus parsed,
/// then N of its URLs checked (`compare` runs it for N up to 10,000 with
/// every peer; here N up to 1,000, robotstxt, which re-parses the file
/// for every check, up to 10).
fn crawler(c: &mut Criterion) {
    let sites = crawl(256);
    let mut g = c.benchmark_group("crawl");
    g.sample_size(10);
    for n in [1usize, 10, 100, 1_000] {
        g.bench_function(format!("robotrules/{n}"), |b| {
            b.iter(|| {
                for s in &sites {
                    let matcher = robotrules::Matcher::parse(
                        black_box(&s.body),
                        &[AGENT],
                    );
                    for i in 0..n {
                        black_box(
                            matcher.is_allowed(&s.urls[i % s.urls.len()]),
                        );
                    }
                }
            })
        });
        if n <= 10 {
            g.bench_function(format!("robotstxt/{n}"), |b| {
                b.iter(|| {
                    for s in &sites {
                        for i in 0..n {
                            black_box(
                                robotstxt::DefaultMatcher::default()
                                    .one_agent_allowed_by_robots(
                                        black_box(&s.text),
                                        AGENT,
                                        &s.urls[i % s.urls.len()],
                                    ),
                            );
                        }
                    }
                })
            });
        }
        g.bench_function(format!("texting_robots/{n}"), |b| {
            b.iter(|| {
                for s in &sites {
                    if let Ok(r) =
                        texting_robots::Robot::new(AGENT, black_box(&s.body))
                    {
                        for i in 0..n {
                            black_box(r.allowed(&s.urls[i % s.urls.len()]));
                        }
                    }
                }
            })
        });
        g.bench_function(format!("robotxt/{n}"), |b| {
            b.iter(|| {
                for s in &sites {
                    let r = robotxt::Robots::parse(black_box(&s.body), AGENT);
                    for i in 0..n {
                        black_box(r.is_allowed(&s.paths[i % s.paths.len()]));
                    }
                }
            })
        });
    }
    g.finish();
}

criterion_group!(benches, parse, checks, parse_and_check, crawler);
criterion_main!(benches);
