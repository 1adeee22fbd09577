use std::hint::black_box;
fn main() {
    let n: usize =
        std::env::args().nth(1).and_then(|r| r.parse().ok()).unwrap_or(100);
    let sites = robotrules_bench::crawl(256);
    let t = std::time::Instant::now();
    let mut allowed = 0usize;
    for _ in 0..30 {
        for s in &sites {
            let robots = robotrules::Robots::parse(black_box(&s.body));
            if std::env::var_os("PARSE_ONLY").is_some() {
                black_box(&robots);
                continue;
            }
            let matcher = robots.matcher(&["Googlebot"]);
            for i in 0..n {
                allowed +=
                    usize::from(matcher.is_allowed(&s.urls[i % s.urls.len()]));
            }
        }
    }
    println!("{allowed} {:?}", t.elapsed() / 30);
}
