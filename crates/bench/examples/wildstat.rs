use robotrules_bench::{file, urls, CHECKS_FILE};
use std::time::Instant;
fn main() {
    let body = file(CHECKS_FILE);
    let robots = robotrules::Robots::parse(&body);
    let urls = urls(&body, 100_000);
    let m = robots.matcher(&["Googlebot"]);
    let (rule_urls, site_urls): (Vec<_>, Vec<_>) = urls.iter().enumerate().partition(|(i, _)| i % 2 == 0);
    for (name, set) in [("rule-derived", rule_urls), ("site", site_urls)] {
        let set: Vec<&String> = set.into_iter().map(|(_, u)| u).collect();
        let mut best = f64::MAX;
        for _ in 0..20 {
            let t = Instant::now();
            let n = set.iter().filter(|u| m.is_allowed(std::hint::black_box(u))).count();
            std::hint::black_box(n);
            best = best.min(t.elapsed().as_secs_f64() / set.len() as f64 * 1e9);
        }
        let mut pbest = f64::MAX;
        for _ in 0..20 {
            let t = Instant::now();
            let n: usize = set.iter().map(|u| robotrules::path_of(std::hint::black_box(u)).len()).sum();
            std::hint::black_box(n);
            pbest = pbest.min(t.elapsed().as_secs_f64() / set.len() as f64 * 1e9);
        }
        println!("{name}: {best:.0} ns/check, path_of {pbest:.0} ns");
    }
}
