//! Side-by-side throughput of robotrules and the peer crates, measured in
//! interleaved rounds in one process, so that a noisy machine slows every
//! contender alike. Prints medians and ratios as a Markdown table.
//!
//! Run: `cargo run --release -p robotrules-bench --bin compare [ROUNDS]`.

use std::hint::black_box;
use std::time::Instant;

use robotrules_bench::{
    corpus, crawl, file, median, urls, Count, Site, CHECKS_FILE, TYPICAL_FILE,
};

const AGENT: &str = "Googlebot";

/// A contender in one workload: a name and one timed unit of work that
/// returns how many units (bytes, checks) it did.
struct Contender<'a> {
    name: &'static str,
    run: Box<dyn FnMut() -> f64 + 'a>,
    rates: Vec<f64>,
}

fn contender<'a>(
    name: &'static str,
    run: impl FnMut() -> f64 + 'a,
) -> Contender<'a> {
    Contender { name, run: Box::new(run), rates: Vec::new() }
}

/// Runs every contender once per round, in turn, and prints the medians.
fn workload(
    title: &str,
    unit: &str,
    scale: f64,
    rounds: usize,
    mut cs: Vec<Contender<'_>>,
) {
    for c in &mut cs {
        (c.run)(); // warm-up
    }
    for _ in 0..rounds {
        for c in &mut cs {
            let t = Instant::now();
            let units = (c.run)();
            c.rates.push(units / t.elapsed().as_secs_f64() / scale);
        }
    }
    let medians: Vec<(&str, f64)> =
        cs.iter_mut().map(|c| (c.name, median(&mut c.rates))).collect();
    // The first contender is robotrules' documented way; other
    // robotrules contenders are shown beside it, not counted as peers.
    let ours = medians[0].1;
    let best_peer = medians[1..]
        .iter()
        .filter(|m| !m.0.starts_with("robotrules"))
        .map(|m| m.1)
        .fold(0.0, f64::max);
    println!("\n### {title}\n");
    println!("| implementation | median {unit} | robotrules is |");
    println!("|---|---:|---:|");
    for (name, rate) in &medians {
        let ratio = if *name == medians[0].0 {
            "—".to_string()
        } else {
            format!("{:.1}×", ours / rate)
        };
        println!("| {name} | {rate:.3} | {ratio} |");
    }
    println!(
        "\nrobotrules ÷ fastest peer: **{:.1}×** ({rounds} rounds)",
        ours / best_peer
    );
}

/// Runs every contender once per round, in turn; returns the median
/// seconds of each.
fn seconds(rounds: usize, cs: &mut [Contender<'_>]) -> Vec<f64> {
    for _ in 0..rounds {
        for c in cs.iter_mut() {
            let t = Instant::now();
            black_box((c.run)());
            c.rates.push(t.elapsed().as_secs_f64());
        }
    }
    cs.iter_mut().map(|c| median(&mut c.rates)).collect()
}

/// The URLs per file of the crawler workload; larger `N` cycle through
/// them.
const UNIQUE_URLS: usize = 256;

/// A broad-to-deep crawl: every fourth file of the corpus parsed, then
/// `N` of its URLs checked, for each `N`. Prints one table of median
/// times per round.
fn crawler(rounds: usize, only: Option<usize>) {
    let sites = crawl(UNIQUE_URLS);
    let bytes: usize = sites.iter().map(|s| s.body.len()).sum();
    println!(
        "\n### (d) The crawler workload: {} files (every 4th), {:.1} MB; per file: parse, then N checks of URLs made from its own rules ({UNIQUE_URLS} distinct per file, cycled), {AGENT}\n",
        sites.len(),
        bytes as f64 / 1e6
    );
    println!("| N | robotrules (`Matcher::parse`) | robotrules (`Robots::parse`, `matcher`) | robotstxt 0.3 | texting_robots 0.2 | robotxt 0.7 (given paths) | fastest peer ÷ robotrules | rounds |");
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|");
    let ns = [1usize, 10, 100, 1_000, 10_000];
    for n in ns.into_iter().filter(|n| only.is_none_or(|o| o == *n)) {
        let url = |s: &'_ Site, i: usize| -> usize { i % s.urls.len() };
        let sites = &sites;
        let mut cs = vec![
            contender("robotrules (Matcher::parse)", move || {
                let mut allowed = 0usize;
                for s in sites {
                    let matcher = robotrules::Matcher::parse(
                        black_box(&s.body),
                        &[AGENT],
                    );
                    for i in 0..n {
                        allowed += usize::from(
                            matcher.is_allowed(&s.urls[url(s, i)]),
                        );
                    }
                }
                allowed as f64
            }),
            contender("robotrules (Robots::parse, matcher)", move || {
                let mut allowed = 0usize;
                for s in sites {
                    let robots = robotrules::Robots::parse(black_box(&s.body));
                    let matcher = robots.matcher(&[AGENT]);
                    for i in 0..n {
                        allowed += usize::from(
                            matcher.is_allowed(&s.urls[url(s, i)]),
                        );
                    }
                }
                allowed as f64
            }),
        ];
        // robotstxt re-parses the file for every check: only where it is
        // meant to be used.
        if n <= 10 {
            cs.push(contender("robotstxt 0.3", move || {
                let mut allowed = 0usize;
                for s in sites {
                    for i in 0..n {
                        allowed += usize::from(
                            robotstxt::DefaultMatcher::default()
                                .one_agent_allowed_by_robots(
                                    black_box(&s.text),
                                    AGENT,
                                    &s.urls[url(s, i)],
                                ),
                        );
                    }
                }
                allowed as f64
            }));
        }
        cs.push(contender("texting_robots 0.2", move || {
            let mut allowed = 0usize;
            for s in sites {
                if let Ok(r) =
                    texting_robots::Robot::new(AGENT, black_box(&s.body))
                {
                    for i in 0..n {
                        allowed += usize::from(r.allowed(&s.urls[url(s, i)]));
                    }
                }
            }
            allowed as f64
        }));
        cs.push(contender("robotxt 0.7", move || {
            let mut allowed = 0usize;
            for s in sites {
                let r = robotxt::Robots::parse(black_box(&s.body), AGENT);
                for i in 0..n {
                    allowed += usize::from(r.is_allowed(&s.paths[url(s, i)]));
                }
            }
            allowed as f64
        }));
        let r = match n {
            10_000 => rounds.min(3),
            1_000 => rounds.min(5),
            _ => rounds,
        };
        let t = seconds(r, &mut cs);
        let ms = |name: &str| {
            cs.iter()
                .position(|c| c.name.starts_with(name))
                .map(|i| t[i] * 1e3)
        };
        let cell = |v: Option<f64>| {
            v.map_or("—".to_string(), |v| format!("{v:.1} ms"))
        };
        let ours = ms("robotrules (Matcher::parse)").unwrap_or(f64::NAN);
        let peers = ["robotstxt", "texting_robots", "robotxt"];
        let fastest =
            peers.iter().filter_map(|p| ms(p)).fold(f64::INFINITY, f64::min);
        println!(
            "| {n} | {} | {} | {} | {} | {} | **{:.2}×** | {r} |",
            cell(Some(ours)),
            cell(ms("robotrules (Robots::parse")),
            cell(ms("robotstxt")),
            cell(ms("texting_robots")),
            cell(ms("robotxt")),
            fastest / ours
        );
    }
}

/// The peers' parsers over the corpus, as contenders; robotstxt keeps no
/// parsed form, so its name gets `robotstxt_note`.
fn peer_parsers<'a>(
    files: &'a [(String, Vec<u8>)],
    texts: &'a [String],
    bytes: f64,
    robotstxt_note: &'static str,
) -> Vec<Contender<'a>> {
    let robotstxt: &'static str = match robotstxt_note {
        "" => "robotstxt 0.3",
        _ => "robotstxt 0.3 (parse only)",
    };
    vec![
        contender(robotstxt, move || {
            let mut count = Count::default();
            for t in texts {
                robotstxt::parse_robotstxt(black_box(t), &mut count);
            }
            black_box(count.0);
            bytes
        }),
        contender("texting_robots 0.2", move || {
            for (_, b) in files {
                let _ =
                    black_box(texting_robots::Robot::new(AGENT, black_box(b)));
            }
            bytes
        }),
        contender("robotxt 0.7", move || {
            for (_, b) in files {
                let _ = black_box(robotxt::Robots::parse(black_box(b), AGENT));
            }
            bytes
        }),
    ]
}

fn main() {
    let rounds: usize =
        std::env::args().nth(1).and_then(|r| r.parse().ok()).unwrap_or(11);
    // `compare ROUNDS crawl [N]`: only the crawler workload;
    // `compare ROUNDS no-crawl`: everything but it.
    let mode = std::env::args().nth(2);
    if mode.as_deref() == Some("crawl") {
        let only = std::env::args().nth(3).and_then(|n| n.parse().ok());
        crawler(rounds, only);
        return;
    }
    let files = corpus();
    let texts: Vec<String> = files
        .iter()
        .map(|(_, b)| String::from_utf8_lossy(b).into_owned())
        .collect();
    let bytes: f64 = files.iter().map(|(_, b)| b.len() as f64).sum();
    println!("corpus: {} files, {:.1} MB", files.len(), bytes / 1e6);

    workload(
        "(a) Parse the whole real corpus",
        "MB/s",
        1e6,
        rounds,
        vec![contender("robotrules", || {
            for (_, b) in &files {
                black_box(robotrules::Robots::parse(black_box(b)));
            }
            bytes
        })]
        .into_iter()
        .chain(peer_parsers(&files, &texts, bytes, ""))
        .collect(),
    );

    workload(
        "(a′) Parse plus getting ready to check, for one agent, the whole real corpus",
        "MB/s",
        1e6,
        rounds,
        vec![
            contender("robotrules (Matcher::parse)", || {
                for (_, b) in &files {
                    black_box(robotrules::Matcher::parse(black_box(b), &[AGENT]));
                }
                bytes
            }),
            contender("robotrules (Robots::parse, matcher)", || {
                for (_, b) in &files {
                    let robots = robotrules::Robots::parse(black_box(b));
                    black_box(robots.matcher(&[AGENT]));
                }
                bytes
            }),
        ]
        .into_iter()
        .chain(peer_parsers(&files, &texts, bytes, " (parse only)"))
        .collect(),
    );

    let body = file(CHECKS_FILE);
    let text = String::from_utf8_lossy(&body).into_owned();
    let list = urls(&body, 100_000);
    let paths: Vec<String> =
        list.iter().map(|u| robotrules::path_of(u).into_owned()).collect();
    let robots = robotrules::Robots::parse(&body);
    let matcher = robots.matcher(&[AGENT]);
    let texting = texting_robots::Robot::new(AGENT, &body)
        .expect("texting_robots parses it");
    let rx = robotxt::Robots::parse(&body, AGENT);
    let few = &list[..2_000];
    workload(
        &format!("(b) Checks against {CHECKS_FILE} (100 rules, 42 with wildcards), 100,000 URLs"),
        "million checks/s",
        1e6,
        rounds,
        vec![
            contender("robotrules (Matcher)", || {
                black_box(list.iter().filter(|u| matcher.is_allowed(black_box(u))).count());
                list.len() as f64
            }),
            contender("robotstxt 0.3 (2,000 URLs)", || {
                black_box(
                    few.iter()
                        .filter(|u| {
                            robotstxt::DefaultMatcher::default().one_agent_allowed_by_robots(&text, AGENT, u)
                        })
                        .count(),
                );
                few.len() as f64
            }),
            contender("texting_robots 0.2", || {
                black_box(list.iter().filter(|u| texting.allowed(black_box(u))).count());
                list.len() as f64
            }),
            contender("robotxt 0.7 (given paths)", || {
                black_box(paths.iter().filter(|p| rx.is_allowed(black_box(p))).count());
                list.len() as f64
            }),
        ],
    );
    workload(
        "(b′) The same checks through `Robots::is_allowed` (no Matcher)",
        "million checks/s",
        1e6,
        rounds.min(5),
        vec![
            contender("robotrules (one-shot)", || {
                black_box(
                    list.iter()
                        .filter(|u| robots.is_allowed(AGENT, black_box(u)))
                        .count(),
                );
                list.len() as f64
            }),
            contender("robotxt 0.7 (given paths)", || {
                black_box(
                    paths
                        .iter()
                        .filter(|p| rx.is_allowed(black_box(p)))
                        .count(),
                );
                list.len() as f64
            }),
        ],
    );

    let typical = file(TYPICAL_FILE);
    let typical_text = String::from_utf8_lossy(&typical).into_owned();
    let url = "https://www.example.com/butik/liste/kadin?pid=42&sst=PRICE";
    let path = robotrules::path_of(url).into_owned();
    let n = 2_000;
    workload(
        &format!(
            "(c) Parse plus one check, {TYPICAL_FILE} ({} bytes)",
            typical.len()
        ),
        "thousand files/s",
        1e3,
        rounds,
        vec![
            contender("robotrules (Matcher::parse)", || {
                for _ in 0..n {
                    black_box(
                        robotrules::Matcher::parse(
                            black_box(&typical),
                            &[AGENT],
                        )
                        .is_allowed(url),
                    );
                }
                n as f64
            }),
            contender("robotrules (Robots::parse, is_allowed)", || {
                for _ in 0..n {
                    black_box(
                        robotrules::Robots::parse(black_box(&typical))
                            .is_allowed(AGENT, url),
                    );
                }
                n as f64
            }),
            contender("robotstxt 0.3", || {
                for _ in 0..n {
                    black_box(
                        robotstxt::DefaultMatcher::default()
                            .one_agent_allowed_by_robots(
                                black_box(&typical_text),
                                AGENT,
                                url,
                            ),
                    );
                }
                n as f64
            }),
            contender("texting_robots 0.2", || {
                for _ in 0..n / 10 {
                    let _ = black_box(
                        texting_robots::Robot::new(AGENT, black_box(&typical))
                            .map(|r| r.allowed(url)),
                    );
                }
                (n / 10) as f64
            }),
            contender("robotxt 0.7", || {
                for _ in 0..n {
                    black_box(
                        robotxt::Robots::parse(black_box(&typical), AGENT)
                            .is_allowed(&path),
                    );
                }
                n as f64
            }),
        ],
    );

    if mode.as_deref() != Some("no-crawl") {
        crawler(rounds, None);
    }
}
