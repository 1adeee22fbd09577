fn main() {
    let dir = std::env::args().nth(1).expect("dir");
    let mut parts = [0usize; 8];
    let mut n = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if !p.is_file() { continue; }
        let b = std::fs::read(&p).unwrap();
        let r = robotrules::Robots::parse(&b);
        let s = r.sizes();
        for i in 0..7 { parts[i] += s[i]; }
        parts[7] += b.len();
        n += 1;
    }
    let names = ["arena", "lines", "agents", "rules", "groups", "sitemaps", "unknowns", "FILES"];
    for i in 0..8 { println!("{:10} {:>12} {:.3}", names[i], parts[i], parts[i] as f64 / parts[7] as f64); }
    println!("{n} files");
}
