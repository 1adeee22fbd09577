//! Shared inputs for the benchmarks: the real corpus, the files the
//! benchmarks focus on, and deterministic URL lists.

#![forbid(unsafe_code)]

use std::path::{Path, PathBuf};

/// The `shared/` folder beside the project root, or `$ROBOTRULES_SHARED`.
pub fn shared_dir() -> PathBuf {
    match std::env::var_os("ROBOTRULES_SHARED") {
        Some(dir) => PathBuf::from(dir),
        None => {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared")
        }
    }
}

/// Every file of `corpus/real/` (without `adversarial/`), sorted by name.
pub fn corpus() -> Vec<(String, Vec<u8>)> {
    let dir = shared_dir().join("corpus/real");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .map(|e| e.expect("entry").path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| (name(&p), std::fs::read(&p).expect("read")))
        .collect()
}

fn name(p: &Path) -> String {
    p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
}

/// One corpus file by name.
pub fn file(name: &str) -> Vec<u8> {
    let path = shared_dir().join("corpus/real").join(name);
    std::fs::read(&path)
        .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
}

/// The file of the checks benchmark: a `*` group of 100 rules, 42 of them
/// with wildcards.
pub const CHECKS_FILE: &str = "protego__uk.rs-online.com.txt";

/// The file of the parse-plus-one-check benchmark: about 5 KB.
pub const TYPICAL_FILE: &str = "bharath__trendyol.com.txt";

/// Returns `n` absolute URLs for a file, deterministically: half are its
/// rules' patterns made concrete with varied suffixes and queries (the
/// hard case: they match, or nearly match, many rules), half are ordinary
/// site paths that no rule was written for (most of a crawl).
pub fn urls(body: &[u8], n: usize) -> Vec<String> {
    let robots = robotrules::Robots::parse(body);
    let stems: Vec<String> = robots
        .groups()
        .flat_map(|g| {
            g.rules().map(|r| r.pattern().to_string()).collect::<Vec<_>>()
        })
        .filter(|p| p.starts_with('/'))
        .map(|p| p.trim_end_matches('$').replace('*', "x"))
        .collect();
    let site: Vec<String> = [
        "/",
        "/products/",
        "/web/p/",
        "/search",
        "/help/contact",
        "/static/app.js",
        "/images/logo.png",
        "/en-gb/",
        "/about-us/careers",
        "/blog/2024/05/title-of-post",
        "/category/electrical/cables",
        "/c/tools/hand-tools/screwdrivers",
        "/p/123-4567",
        "/news",
        "/sitemap.xml",
        "/account/login",
        "/assets/css/main.css",
        "/de/produkte/",
    ]
    .map(String::from)
    .to_vec();
    let tails = [
        "",
        "abc",
        "12345.html",
        "a/b/c",
        "?page=2",
        "?sort-by=price&page=3",
        "&cid=7",
        "x.pdf",
    ];
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state as usize
    };
    (0..n)
        .map(|i| {
            let pool =
                if i % 2 == 0 && !stems.is_empty() { &stems } else { &site };
            let stem = &pool[next() % pool.len()];
            let tail = tails[next() % tails.len()];
            format!("https://www.example.com{stem}{tail}")
        })
        .collect()
}

/// Every fourth file of the corpus with `per_file` URLs made from its
/// own rules ([`urls`]) and their paths: a broad crawl's sites.
pub fn crawl(per_file: usize) -> Vec<Site> {
    corpus()
        .into_iter()
        .step_by(4)
        .map(|(name, body)| {
            let urls = urls(&body, per_file);
            let paths = urls
                .iter()
                .map(|u| robotrules::path_of(u).into_owned())
                .collect();
            let text = String::from_utf8_lossy(&body).into_owned();
            Site { name, body, text, urls, paths }
        })
        .collect()
}

/// One site of [`crawl`].
pub struct Site {
    /// The file's name in the corpus.
    pub name: String,
    /// The robots.txt body.
    pub body: Vec<u8>,
    /// The body as text, for `robotstxt`.
    pub text: String,
    /// URLs made from the file's rules.
    pub urls: Vec<String>,
    /// Their paths, for `robotxt`, whose API takes a path.
    pub paths: Vec<String>,
}

/// Hostile files, for the memory and time of getting a matcher ready:
/// (name, body). `hostile` writes them out for `robotrules check`.
pub fn hostile_files() -> Vec<(&'static str, Vec<u8>)> {
    use std::fmt::Write as _;
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

    // Five named groups that disallow all and allow again, then take back.
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

    // 10 MB of `Disallow: /*a*a…*a*b`, lines of about 16 KB.
    let mut s = String::from("User-agent: *\n");
    let line = format!("Disallow: /{}b\n", "*a".repeat(8_000));
    while s.len() + line.len() <= 10_000_000 {
        s.push_str(&line);
    }
    files.push(("stars-10mb.txt", s));

    // 12,000 literal rules with unique 30-byte prefixes.
    let mut x = 1u64;
    let mut random = |s: &mut String, n: usize| {
        for _ in 0..n {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            s.push(b"abcdef/"[(x >> 33) as usize % 7] as char);
        }
    };
    let mut s = String::from("User-agent: *\n");
    for _ in 0..12_000 {
        s.push_str("Disallow: /");
        random(&mut s, 30);
        s.push('\n');
    }
    files.push(("literals.txt", s));

    // Unique literal prefixes of 16 KB each, to 500 KB.
    let mut s = String::from("User-agent: *\n");
    while s.len() < 480_000 {
        s.push_str("Disallow: /");
        random(&mut s, 16_000);
        s.push('\n');
    }
    files.push(("long-literals.txt", s));

    files.into_iter().map(|(n, s)| (n, s.into_bytes())).collect()
}

/// The median of some figures (they are sorted in place).
pub fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    match n {
        0 => f64::NAN,
        _ if n % 2 == 1 => values[n / 2],
        _ => (values[n / 2 - 1] + values[n / 2]) / 2.0,
    }
}

/// A handler for `robotstxt`'s parser that only counts directives, so that
/// its parse can be timed without being optimised away.
#[derive(Default)]
pub struct Count(pub usize);

impl robotstxt::RobotsParseHandler for Count {
    fn handle_robots_start(&mut self) {}
    fn handle_robots_end(&mut self) {}
    fn handle_user_agent(&mut self, _: u32, _: &str) {
        self.0 += 1;
    }
    fn handle_allow(&mut self, _: u32, _: &str) {
        self.0 += 1;
    }
    fn handle_disallow(&mut self, _: u32, _: &str) {
        self.0 += 1;
    }
    fn handle_sitemap(&mut self, _: u32, _: &str) {
        self.0 += 1;
    }
    fn handle_unknown_action(&mut self, _: u32, _: &str, _: &str) {
        self.0 += 1;
    }
}
