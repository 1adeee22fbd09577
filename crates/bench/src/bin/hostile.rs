//! Writes hostile robots.txt files, each under or near the 500 KiB that
//! crawlers read, for timing `robotrules audit`, `lint` and `check` on
//! them (BENCHMARKS.md).
//!
//! Usage: `hostile DIR`.

use std::fmt::Write as _;
use std::path::PathBuf;

fn main() -> std::io::Result<()> {
    let dir =
        PathBuf::from(std::env::args().nth(1).unwrap_or("hostile".into()));
    std::fs::create_dir_all(&dir)?;
    let mut files: Vec<(&str, String)> = Vec::new();

    // 10,000 wildcard rules, each allowed again by an equal allow.
    let mut s = String::from("User-agent: *\n");
    for i in 0..10_000 {
        let _ = write!(s, "Disallow: /*a{i}*b\nAllow: /*a{i}*b\n");
    }
    files.push(("wildcards.txt", s));

    // Wildcard rules over a two-letter alphabet: each passes the byte-set
    // filter of every other.
    let mut s = String::from("User-agent: *\n");
    for i in 0..9_000 {
        let _ = write!(s, "Disallow: /*a{i:b}*b\nAllow: /*a{i:b}*b\n");
    }
    s.truncate(500_000);
    files.push(("binary-wildcards.txt", s));

    // Ten named groups that disallow all and allow again, then take back.
    let mut s = String::new();
    for name in ["GPTBot", "ClaudeBot", "CCBot", "Googlebot", "Bingbot"] {
        let _ = write!(s, "User-agent: {name}\nDisallow: /\n");
        for i in 0..1_800 {
            let _ = write!(s, "Allow: /*q{i:b}*z\nDisallow: /*q{i:b}*z*\n");
        }
    }
    s.truncate(500_000);
    files.push(("named-groups.txt", s));

    // Long runs of `*`.
    let mut s = String::from("User-agent: *\n");
    let mut n = 1usize;
    while s.len() < 480_000 {
        n = n * 7 % 41 + 1;
        let _ = writeln!(s, "Disallow: /{}b", "*a".repeat(n));
    }
    files.push(("stars.txt", s));

    // 12,000 literal rules with unique 30-byte prefixes.
    let mut s = String::from("User-agent: *\n");
    let mut x = 1u64;
    for _ in 0..12_000 {
        s.push_str("Disallow: /");
        for _ in 0..30 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            s.push(b"abcdef/"[(x >> 33) as usize % 7] as char);
        }
        s.push('\n');
    }
    files.push(("literals.txt", s));

    for (name, body) in files {
        let path = dir.join(name);
        std::fs::write(&path, &body)?;
        println!("{} {} bytes", path.display(), body.len());
    }
    Ok(())
}
