//! WARC.gz files in Common Crawl's robots.txt layout, built from the real
//! corpus, with the truth about every site written beside them.
//!
//! Each file starts with a `warcinfo` record (`isPartOf: <crawl>`); each
//! capture is a `request`, a `response` (status line and headers inside
//! the block) and a `metadata` record, each its own gzip member. Sites get
//! realistic answers: 200 (plain, gzip-encoded, HTML error pages), 301 and
//! 302 chains of one to three hops (to https, to www, to another path), a
//! chain too long, a loop, a redirect out of the data, 403, 404, 429, 500,
//! 503, and older duplicate captures (sometimes in another file).

use std::io::Write;
use std::path::{Path, PathBuf};

/// What a site's row must say, from the generator's own bookkeeping.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expect {
    /// The chain ends on a 2xx with this body (decoded, not yet cut to
    /// 500 KiB).
    Body(Vec<u8>),
    /// The chain ends on this status (4xx, 429, 5xx).
    Status(u16),
    /// The chain stops: `loop`, `too_many` or `not_captured`.
    Stop(&'static str),
}

/// One site of the generated crawl.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Site {
    /// The crawl.
    pub crawl: String,
    /// `scheme://host`.
    pub site: String,
    /// Its robots.txt URL.
    pub url: String,
    /// Redirects followed to the final capture (or to the stop).
    pub hops: u32,
    /// Captures of its URL in the crawl.
    pub captures: u32,
    /// The answer.
    pub expect: Expect,
}

/// What was generated.
#[derive(Clone, Debug, Default)]
pub struct Generated {
    /// The WARC.gz files, in order.
    pub files: Vec<PathBuf>,
    /// Every site, sorted by URL.
    pub sites: Vec<Site>,
    /// Per file, the offset of every gzip member of a `response` record
    /// with the site it belongs to (for damage tests).
    pub members: Vec<Vec<(u64, String)>>,
    /// Captures (response records) written.
    pub captures: u64,
}

/// A small deterministic generator (xorshift).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

/// A gzip member at the default level, as Common Crawl's writer (Java's
/// `GZIPOutputStream`) and warcio make them: dynamic Huffman codes, whose
/// tables a reader builds for every member. (The fastest level of the
/// zlib-rs backend writes fixed codes only, which inflate a third faster
/// and would flatter a reader.)
fn gz(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(
        Vec::new(),
        flate2::Compression::default(),
    );
    e.write_all(data).expect("in memory");
    e.finish().expect("in memory")
}

fn record(
    kind: &str,
    uri: &str,
    date: &str,
    ctype: &str,
    block: &[u8],
) -> Vec<u8> {
    let mut v = format!(
        "WARC/1.0\r\nWARC-Type: {kind}\r\nWARC-Date: {date}\r\n\
         WARC-Record-ID: <urn:uuid:{:016x}>\r\nWARC-Target-URI: {uri}\r\n\
         Content-Type: {ctype}\r\nContent-Length: {}\r\n\r\n",
        xxhash(uri.as_bytes()) ^ xxhash(date.as_bytes()),
        block.len()
    )
    .into_bytes();
    v.extend_from_slice(block);
    v.extend_from_slice(b"\r\n\r\n");
    v
}

fn xxhash(b: &[u8]) -> u64 {
    // FNV-1a: only to vary the record ids.
    b.iter().fold(0xcbf29ce484222325, |h, &x| {
        (h ^ u64::from(x)).wrapping_mul(0x100000001b3)
    })
}

/// One response to write.
struct Response {
    url: String,
    date: String,
    status: u16,
    location: Option<String>,
    body: Vec<u8>,
    gzip: bool,
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        301 => "Moved Permanently",
        302 => "Found",
        403 => "Forbidden",
        404 => "Not Found",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        _ => "Service Unavailable",
    }
}

struct Writer {
    out: Vec<u8>,
    members: Vec<(u64, String)>,
}

impl Writer {
    fn new(crawl: &str) -> Writer {
        let info = format!(
            "software: robotrules-testdata\r\nformat: WARC File Format 1.1\r\n\
             isPartOf: {crawl}\r\noperator: test\r\n"
        );
        let mut w = Writer { out: Vec::new(), members: Vec::new() };
        w.out.extend(gz(&record(
            "warcinfo",
            "",
            "2024-01-01T00:00:00Z",
            "application/warc-fields",
            info.as_bytes(),
        )));
        w
    }

    fn capture(&mut self, r: &Response) {
        let host = url_host(&r.url);
        let request = format!(
            "GET /robots.txt HTTP/1.1\r\nHost: {host}\r\nUser-Agent: CCBot/2.0\r\n\r\n"
        );
        self.out.extend(gz(&record(
            "request",
            &r.url,
            &r.date,
            "application/http; msgtype=request",
            request.as_bytes(),
        )));
        let mut http =
            format!("HTTP/1.1 {} {}\r\n", r.status, reason(r.status));
        let body = if r.gzip { gz(&r.body) } else { r.body.clone() };
        if let Some(l) = &r.location {
            http.push_str(&format!("Location: {l}\r\n"));
        }
        let html = r.body.starts_with(b"<");
        http.push_str(if html {
            "Content-Type: text/html\r\n"
        } else {
            "Content-Type: text/plain\r\n"
        });
        if r.gzip {
            http.push_str("Content-Encoding: gzip\r\n");
        }
        http.push_str(&format!("Content-Length: {}\r\n\r\n", body.len()));
        let mut block = http.into_bytes();
        block.extend_from_slice(&body);
        self.members.push((self.out.len() as u64, r.url.clone()));
        self.out.extend(gz(&record(
            "response",
            &r.url,
            &r.date,
            "application/http; msgtype=response",
            &block,
        )));
        let meta = "fetchTimeMs: 120\r\n";
        self.out.extend(gz(&record(
            "metadata",
            &r.url,
            &r.date,
            "application/warc-fields",
            meta.as_bytes(),
        )));
    }
}

fn url_host(url: &str) -> &str {
    url.split("://").nth(1).and_then(|r| r.split('/').next()).unwrap_or("")
}

const HTML: &[u8] =
    b"<!DOCTYPE html>\n<html><head><title>Page not found</title></head>\
<body><h1>Oops</h1><p>User-agent: * is not here</p></body></html>\n";

/// Builds `files` WARC.gz files with `sites` sites of `crawl` in `dir`,
/// from the bodies of `corpus`, the same for the same `seed`.
///
/// # Panics
///
/// If a corpus file cannot be read or a WARC file cannot be written.
pub fn generate(
    dir: &Path,
    crawl: &str,
    sites: usize,
    files: usize,
    corpus: &[PathBuf],
    seed: u64,
) -> Generated {
    std::fs::create_dir_all(dir).expect("create the directory");
    let mut rng = Rng(seed | 1);
    let mut writers: Vec<Writer> =
        (0..files.max(1)).map(|_| Writer::new(crawl)).collect();
    let mut truth = Vec::new();
    let mut captures = 0u64;
    let body = |rng: &mut Rng| -> Vec<u8> {
        let f = &corpus[rng.below(corpus.len() as u64) as usize];
        std::fs::read(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()))
    };
    for i in 0..sites {
        let host = format!("site{i:06}.example");
        let https = format!("https://{host}/robots.txt");
        let date = format!(
            "2024-02-{:02}T{:02}:{:02}:{:02}Z",
            1 + i % 27,
            i % 24,
            i % 60,
            (i / 60) % 60
        );
        let mut out: Vec<Response> = Vec::new();
        let resp = |url: &str,
                    status: u16,
                    location: Option<String>,
                    body: Vec<u8>| Response {
            url: url.to_string(),
            date: date.clone(),
            status,
            location,
            body,
            gzip: false,
        };
        let site = |url: &str, hops: u32, expect: Expect| Site {
            crawl: crawl.to_string(),
            site: url.trim_end_matches("/robots.txt").to_string(),
            url: url.to_string(),
            hops,
            captures: 1,
            expect,
        };
        let pick = rng.below(100);
        match pick {
            // A plain 200.
            0..=44 => {
                let b = body(&mut rng);
                out.push(resp(&https, 200, None, b.clone()));
                truth.push(site(&https, 0, Expect::Body(b)));
            }
            // Gzip-encoded.
            45..=52 => {
                let b = body(&mut rng);
                let mut r = resp(&https, 200, None, b.clone());
                r.gzip = true;
                out.push(r);
                truth.push(site(&https, 0, Expect::Body(b)));
            }
            // An HTML error page with 200.
            53..=56 => {
                out.push(resp(&https, 200, None, HTML.to_vec()));
                truth.push(site(&https, 0, Expect::Body(HTML.to_vec())));
            }
            // Statuses.
            57..=70 => {
                let status =
                    [404, 404, 404, 403, 429, 500, 503][rng.below(7) as usize];
                out.push(resp(&https, status, None, HTML.to_vec()));
                truth.push(site(&https, 0, Expect::Status(status)));
            }
            // http -> https (both sites).
            71..=80 => {
                let http = format!("http://{host}/robots.txt");
                let b = body(&mut rng);
                out.push(resp(&http, 301, Some(https.clone()), vec![]));
                out.push(resp(&https, 200, None, b.clone()));
                truth.push(site(&http, 1, Expect::Body(b.clone())));
                truth.push(site(&https, 0, Expect::Body(b)));
            }
            // http -> https -> www, relative then absolute.
            81..=85 => {
                let http = format!("http://{host}/robots.txt");
                let www = format!("https://www.{host}/robots.txt");
                let status = if rng.below(2) == 0 { 200 } else { 404 };
                let b = if status == 200 { body(&mut rng) } else { vec![] };
                out.push(resp(&http, 301, Some(https.clone()), vec![]));
                out.push(resp(
                    &https,
                    302,
                    Some(format!("//www.{host}/robots.txt")),
                    vec![],
                ));
                out.push(resp(&www, status, None, b.clone()));
                let e = if status == 200 {
                    Expect::Body(b)
                } else {
                    Expect::Status(status)
                };
                truth.push(site(&http, 2, e.clone()));
                truth.push(site(&https, 1, e.clone()));
                truth.push(site(&www, 0, e));
            }
            // To another path.
            86..=88 => {
                let php = format!("https://{host}/robots.php");
                let b = body(&mut rng);
                out.push(resp(
                    &https,
                    301,
                    Some("/robots.php".into()),
                    vec![],
                ));
                out.push(resp(&php, 200, None, b.clone()));
                truth.push(site(&https, 1, Expect::Body(b)));
            }
            // A loop.
            89..=90 => {
                let other = format!("https://{host}/robots2.txt");
                out.push(resp(&https, 302, Some(other.clone()), vec![]));
                out.push(resp(&other, 302, Some(https.clone()), vec![]));
                truth.push(site(&https, 1, Expect::Stop("loop")));
            }
            // Six hops: one too many.
            91..=92 => {
                let hop = |k: u32| format!("https://{host}/r{k}.txt");
                out.push(resp(&https, 301, Some(hop(1)), vec![]));
                for k in 1..=6 {
                    out.push(resp(&hop(k), 301, Some(hop(k + 1)), vec![]));
                }
                truth.push(site(&https, 5, Expect::Stop("too_many")));
            }
            // Out of the data.
            93..=94 => {
                out.push(resp(
                    &https,
                    301,
                    Some(format!("https://cdn.{host}/robots.txt")),
                    vec![],
                ));
                truth.push(site(&https, 1, Expect::Stop("not_captured")));
            }
            // Duplicates: an older 503 (or older other file), the latest
            // a 200.
            _ => {
                let b = body(&mut rng);
                let mut old = resp(&https, 503, None, vec![]);
                old.date = format!("2024-01-{:02}T00:00:00Z", 1 + i % 27);
                out.push(old);
                let mut old2 = resp(&https, 200, None, HTML.to_vec());
                old2.date = format!("2024-01-{:02}T12:00:00Z", 1 + i % 27);
                out.push(old2);
                out.push(resp(&https, 200, None, b.clone()));
                let mut s = site(&https, 0, Expect::Body(b));
                s.captures = 3;
                truth.push(s);
            }
        }
        // Usually one file per site; sometimes its captures are spread.
        let spread = rng.below(4) == 0;
        let home = rng.below(writers.len() as u64) as usize;
        for r in &out {
            let w = if spread {
                rng.below(writers.len() as u64) as usize
            } else {
                home
            };
            writers[w].capture(r);
            captures += 1;
        }
    }
    let mut generated = Generated { captures, ..Generated::default() };
    for (k, w) in writers.into_iter().enumerate() {
        let path = dir.join(format!("{crawl}-{k:05}.warc.gz"));
        std::fs::write(&path, &w.out)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        generated.files.push(path);
        generated.members.push(w.members);
    }
    truth.sort_by(|a, b| a.url.cmp(&b.url));
    generated.sites = truth;
    generated
}
