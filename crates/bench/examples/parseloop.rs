use robotrules_bench::corpus;
fn main() {
    let files = corpus();
    let t = std::time::Instant::now();
    let mut n = 0;
    let rounds: usize = std::env::args().nth(1).and_then(|r| r.parse().ok()).unwrap_or(20);
    for _ in 0..rounds { for (_, b) in &files { n += robotrules::Robots::parse(std::hint::black_box(b)).line_count(); } }
    let bytes: usize = files.iter().map(|(_, b)| b.len()).sum();
    println!("{n} lines, {:.0} MB/s", bytes as f64 * rounds as f64 / t.elapsed().as_secs_f64() / 1e6);
}
