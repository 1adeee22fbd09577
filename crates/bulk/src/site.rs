//! Sites: which capture stands for each site of a crawl, and where its
//! redirects lead.
//!
//! The index keeps one small entry per distinct URL and crawl (a 128-bit
//! key, the chosen capture's position and date, the number of captures;
//! the URL and `Location` only for redirects): its size grows with the
//! number of sites, not of records.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use rayon::prelude::*;
use robotrules_fetch::policy::{self, Redirects, Stop};
use url::Url;

use crate::capture::{Capture, Pos};
use crate::eval::{Evaluation, Verdict};

const SHARDS: usize = 64;

/// The job's hash maps: keyed by a hash of their own seed, as `std`'s
/// are (so that keys met in the input cannot be chosen to collide), but
/// about a third as costly a lookup as `std`'s SipHash.
pub(crate) type Map<K, V> = HashMap<K, V, foldhash::fast::RandomState>;

/// The site of a robots.txt URL: `scheme://host[:port]`, if the URL is
/// one of a site's robots.txt (path `/robots.txt`, no query).
///
/// # Example
///
/// ```
/// use robotrules_bulk::site_of;
///
/// assert_eq!(site_of("HTTPS://Example.COM:443/robots.txt").as_deref(), Some("https://example.com"));
/// assert_eq!(site_of("http://example.com:8080/robots.txt").as_deref(), Some("http://example.com:8080"));
/// assert_eq!(site_of("https://example.com/robots.php"), None);
/// ```
pub fn site_of(url: &str) -> Option<String> {
    match plain_site(url) {
        Some(site) => Some(site.to_string()),
        None => parsed_site(url),
    }
}

/// [`site_of`] through the `url` crate.
fn parsed_site(url: &str) -> Option<String> {
    let u = Url::parse(url).ok()?;
    is_site(&u).then(|| u.origin().ascii_serialization())
}

/// Whether a parsed URL is a site's robots.txt.
fn is_site(u: &Url) -> bool {
    matches!(u.scheme(), "http" | "https")
        && u.path() == "/robots.txt"
        && u.query().is_none()
}

/// The URL as the index keys it (parsed, without its fragment), and
/// whether it is a site's robots.txt ([`site_of`]), from one parse.
pub(crate) fn normal(url: &str) -> (String, bool) {
    if plain_site(url).is_some() {
        return (url.to_string(), true);
    }
    parsed_normal(url)
}

/// Whether `url` is a URL (as the `url` crate reads URLs).
pub(crate) fn is_url(url: &str) -> bool {
    plain_site(url).is_some() || Url::parse(url).is_ok()
}

/// [`normal`] through the `url` crate. User name and password are no part
/// of what is asked for (nor of the site), and the fragment is never sent.
fn parsed_normal(url: &str) -> (String, bool) {
    match Url::parse(url) {
        Ok(mut u) => {
            u.set_fragment(None);
            // Only URLs that cannot be a base have no user info to clear.
            let _ = u.set_username("");
            let _ = u.set_password(None);
            let site = is_site(&u);
            (u.into(), site)
        }
        Err(_) => (url.to_string(), false),
    }
}

/// The site of `url` when it is a site's robots.txt URL already written
/// as the `url` crate writes it, so that parsing it would change nothing:
/// `http://` or `https://`, a host name in lower-case ASCII letters,
/// digits, `-` and `.`, and the path `/robots.txt` with nothing after.
/// Most URLs of a crawl are; the others return `None` and are parsed.
///
/// The host is a name, never an address: its last label starts with a
/// letter (a last label of digits, or `0x` and hex digits, would read as
/// an IPv4 address), no label is empty, and none starts with `xn--`
/// (Punycode, which the `url` crate checks). Without a port, the site is
/// the URL without its path.
fn plain_site(url: &str) -> Option<&str> {
    const PATH: &str = "/robots.txt";
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))?;
    let host = rest.strip_suffix(PATH)?.as_bytes();
    // One pass over the host, label by label.
    let mut start = 0;
    for (i, &b) in host.iter().enumerate() {
        match b {
            b'.' => {
                if i == start || host[start..i].starts_with(b"xn--") {
                    return None;
                }
                start = i + 1;
            }
            b'a'..=b'z' | b'0'..=b'9' | b'-' => {}
            _ => return None,
        }
    }
    let last = &host[start..];
    (last.first().is_some_and(u8::is_ascii_lowercase)
        && !last.starts_with(b"xn--"))
    .then(|| &url[..url.len() - PATH.len()])
}

fn key(crawl: &str, url: &str) -> u128 {
    let mut k = Vec::with_capacity(crawl.len() + url.len() + 1);
    k.extend_from_slice(crawl.as_bytes());
    k.push(0);
    k.extend_from_slice(url.as_bytes());
    xxhash_rust::xxh3::xxh3_128(&k)
}

/// `WARC-Date` as a number that orders dates: its first 14 digits
/// (`YYYYMMDDhhmmss`).
pub(crate) fn date_rank(date: &str) -> u64 {
    let mut n = 0u64;
    let mut digits = 0;
    for b in date.bytes().filter(u8::is_ascii_digit).take(14) {
        n = n * 10 + u64::from(b - b'0');
        digits += 1;
    }
    for _ in digits..14 {
        n *= 10;
    }
    n
}

#[derive(Debug)]
struct Entry {
    date: u64,
    pos: Pos,
    status: u16,
    count: u32,
    site: bool,
    /// For a chosen redirect: the crawl, the URL and the `Location`.
    redirect: Option<Box<(String, String, Option<String>)>>,
    /// The chosen capture and its evaluation, while the index's budget
    /// allows: pass two then need not read it again.
    kept: Option<Box<Kept>>,
}

/// A chosen capture that pass one kept: the capture without its body, and
/// what the body means, evaluated as the capture was read.
#[derive(Debug)]
pub(crate) struct Kept {
    /// The capture, its body taken.
    pub(crate) capture: Capture,
    /// Its evaluation.
    pub(crate) eval: Evaluation,
    /// What is wrong with its body, if anything (see
    /// [`crate::eval::evaluate_body_why`]).
    pub(crate) why: Option<String>,
}

/// The bytes a kept capture counts against the budget, its list of
/// verdicts aside (lists are shared, and counted once each).
fn kept_size(k: &Kept) -> usize {
    let c = &k.capture;
    let len = |s: &Option<String>| s.as_ref().map_or(0, String::len);
    c.body.capacity()
        + c.url.len()
        + c.date.len()
        + c.crawl.len()
        + len(&c.location)
        + len(&c.encoding)
        + len(&k.eval.hash)
        + len(&k.why)
        + std::mem::size_of::<Kept>()
        + 64
}

impl Entry {
    /// The selection rule: the latest capture wins; of captures at the
    /// same second, the first in the input.
    fn beats(&self, other: &Entry) -> bool {
        (self.date, std::cmp::Reverse(self.pos))
            > (other.date, std::cmp::Reverse(other.pos))
    }
}

/// The captures seen, one entry per URL and crawl, filled from any
/// number of threads.
pub struct Index {
    shards: Vec<Mutex<Map<u128, Entry>>>,
    /// Bytes left for kept captures.
    budget: AtomicUsize,
    /// The lists of verdicts of the kept captures counted against the
    /// budget, by address; held here so that an address stays theirs.
    lists: Mutex<Map<usize, std::sync::Arc<[Verdict]>>>,
}

impl Default for Index {
    fn default() -> Index {
        Index::new()
    }
}

impl Index {
    /// An empty index.
    pub fn new() -> Index {
        Index {
            shards: (0..SHARDS).map(|_| Mutex::default()).collect(),
            budget: AtomicUsize::new(0),
            lists: Mutex::default(),
        }
    }

    /// An empty index that keeps the chosen captures whole (bodies and
    /// all) up to `bytes` in all: [`Plan::take_kept`] hands them to pass
    /// two, which reads only the others again.
    pub(crate) fn keeping(bytes: usize) -> Index {
        let index = Index::new();
        index.budget.store(bytes, Ordering::Relaxed);
        index
    }

    /// Whether a capture added now could still be kept.
    pub(crate) fn has_room(&self) -> bool {
        self.budget.load(Ordering::Relaxed) > 0
    }

    /// Adds a capture (its body is not kept).
    pub fn add(&self, c: &Capture) {
        self.add_entry(c, None);
    }

    /// Adds a capture, kept with its evaluation (`evaluate` makes it)
    /// while it is the chosen one of its URL and the budget allows. A
    /// capture that the one chosen so far beats is not evaluated.
    pub(crate) fn add_kept(
        &self,
        c: Capture,
        evaluate: impl FnOnce(Capture) -> Kept,
    ) {
        // The entry is made from the capture before it moves in.
        let entry = self.entry(&c);
        let kept = self.would_win(&entry).then(|| Box::new(evaluate(c)));
        self.insert(entry, kept);
    }

    fn add_entry(&self, c: &Capture, kept: Option<Box<Kept>>) {
        let entry = self.entry(c);
        self.insert(entry, kept);
    }

    /// Whether `entry` would be chosen over its URL's entry now, with
    /// budget left to keep it.
    fn would_win(&self, (k, entry): &(u128, Entry)) -> bool {
        if !self.has_room() {
            return false;
        }
        let shard = &self.shards[(k % SHARDS as u128) as usize];
        let map = shard.lock().unwrap_or_else(|e| e.into_inner());
        map.get(k).is_none_or(|old| entry.beats(old))
    }

    /// Takes the budget of keeping `k`, if there is as much left: its own
    /// bytes, and its list of verdicts unless one kept before has it.
    fn reserve_kept(&self, k: &Kept) -> bool {
        let list = &k.eval.verdicts;
        let mut lists = self.lists.lock().unwrap_or_else(|e| e.into_inner());
        let at = std::sync::Arc::as_ptr(list).cast::<Verdict>() as usize;
        let new = !lists.contains_key(&at);
        let mut bytes = kept_size(k);
        if new {
            bytes += std::mem::size_of_val::<[Verdict]>(list) + 16;
        }
        if !self.reserve(bytes) {
            return false;
        }
        if new {
            lists.insert(at, std::sync::Arc::clone(list));
        }
        true
    }

    fn entry(&self, c: &Capture) -> (u128, Entry) {
        let (url, site) = normal(&c.url);
        let k = key(&c.crawl, &url);
        let status = c.status.unwrap_or(0);
        let redirect = is_redirect(status).then(|| {
            Box::new((c.crawl.clone(), url.clone(), c.location.clone()))
        });
        let entry = Entry {
            date: date_rank(&c.date),
            pos: c.pos,
            status,
            count: 1,
            site,
            redirect,
            kept: None,
        };
        (k, entry)
    }

    /// Takes `bytes` of the budget, if there are as many left.
    fn reserve(&self, bytes: usize) -> bool {
        self.budget
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |b| {
                b.checked_sub(bytes)
            })
            .is_ok()
    }

    fn insert(&self, (k, mut entry): (u128, Entry), kept: Option<Box<Kept>>) {
        let shard = &self.shards[(k % SHARDS as u128) as usize];
        let mut map = shard.lock().unwrap_or_else(|e| e.into_inner());
        let wins = match map.get(&k) {
            None => true,
            Some(old) => entry.beats(old),
        };
        if wins {
            entry.kept = kept.filter(|k| self.reserve_kept(k));
        }
        match map.get_mut(&k) {
            None => {
                map.insert(k, entry);
            }
            Some(old) => {
                let count = old.count + 1;
                if wins {
                    if let Some(gone) = old.kept.take() {
                        self.budget
                            .fetch_add(kept_size(&gone), Ordering::Relaxed);
                    }
                    *old = entry;
                }
                old.count = count;
            }
        }
    }

    /// How many distinct URLs it holds.
    pub fn len(&self) -> usize {
        self.shards
            .iter()
            .map(|s| s.lock().unwrap_or_else(|e| e.into_inner()).len())
            .sum()
    }

    /// Returns true if and only if it holds nothing.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Resolves every site's redirects inside the data, and returns the
    /// plan of pass two: which capture to evaluate for which sites.
    ///
    /// A site whose chosen capture is a redirect (3xx) is followed with the
    /// access method's [`Redirects`] (at most five hops, loops stopped,
    /// only `http(s)`, RFC 9309 §2.3.1.2) through the chosen captures of
    /// the targets: the capture it ends on is evaluated for the original
    /// site. A target the data does not hold stops the chain
    /// (`not_captured`).
    pub fn resolve(self) -> Plan {
        // The shards, no longer shared: read without locks, in place.
        let mut shards: Vec<Map<u128, Entry>> = self
            .shards
            .into_iter()
            .map(|s| s.into_inner().unwrap_or_else(|e| e.into_inner()))
            .collect();
        let mut kept: Map<Pos, Box<Kept>> = Map::default();
        for map in &mut shards {
            for e in map.values_mut() {
                if let Some(c) = e.kept.take() {
                    kept.insert(e.pos, c);
                }
            }
        }
        let find = |k: u128| shards[(k % SHARDS as u128) as usize].get(&k);
        let sites: Vec<&Entry> = shards
            .iter()
            .flat_map(|m| m.values())
            .filter(|e| e.site)
            .collect();
        // Each site's capture and how it was reached: redirects are
        // followed on the pool's threads, then every origin is put in
        // file order (and, at one capture, the site's own first, then by
        // URL: no two origins of a capture share both).
        let mut origins: Vec<(Pos, Origin)> = sites
            .into_par_iter()
            .map(|entry| {
                let captures = entry.count as i32;
                let Some(redirect) = &entry.redirect else {
                    return (entry.pos, Origin { captures, redirect: None });
                };
                let (crawl, url, location) = &**redirect;
                let (pos, how) =
                    follow(&find, entry, crawl, url, location.as_deref());
                (pos, Origin { captures, redirect: Some(Box::new(how)) })
            })
            .collect();
        origins.par_sort_by(|(a, x), (b, y)| {
            a.cmp(b).then_with(|| x.sort_key().cmp(&y.sort_key()))
        });
        let mut by_source: Map<u32, Vec<(Pos, Vec<Origin>)>> = Map::default();
        let mut kept_by_source: Map<u32, Map<Pos, Box<Kept>>> = Map::default();
        let mut origins = origins.into_iter().peekable();
        while let Some((pos, first)) = origins.next() {
            let mut here = vec![first];
            while let Some((_, o)) = origins.next_if(|(p, _)| *p == pos) {
                here.push(o);
            }
            // A kept capture that no site needs is dropped.
            if let Some(c) = kept.remove(&pos) {
                kept_by_source.entry(pos.source).or_default().insert(pos, c);
            }
            by_source.entry(pos.source).or_default().push((pos, here));
        }
        Plan { by_source, kept: kept_by_source }
    }
}

/// Follows the redirects of `entry`, the chosen capture of `url`, from
/// `location`, through the chosen captures that `find` gives by key.
fn follow<'a>(
    find: &impl Fn(u128) -> Option<&'a Entry>,
    entry: &Entry,
    crawl: &str,
    url: &str,
    mut location: Option<&'a str>,
) -> (Pos, Followed) {
    let mut followed = Followed {
        crawl: crawl.to_string(),
        url: url.to_string(),
        hops: 0,
        stop: None,
        final_url: url.to_string(),
        status: Some(entry.status),
    };
    let Ok(start) = Url::parse(url) else {
        followed.stop = Some("no_location");
        return (entry.pos, followed);
    };
    let mut redirects = Redirects::new(start);
    loop {
        let next = match redirects.follow(location) {
            Ok(next) => next,
            Err(stop) => {
                followed.stop = Some(stop_name(stop));
                return (entry.pos, followed);
            }
        };
        followed.hops = redirects.count() as i32;
        // The target as the index keys it (no fragment, no user
        // info).
        let (next, _) = normal(next.as_str());
        followed.final_url.clone_from(&next);
        let Some(target) = find(key(crawl, &next)) else {
            followed.stop = Some("not_captured");
            return (entry.pos, followed);
        };
        match &target.redirect {
            Some(r) => location = r.2.as_deref(),
            None => return (target.pos, followed),
        }
    }
}

/// Returns true if and only if `status` is a redirect to follow (3xx: the
/// access method's class).
pub(crate) fn is_redirect(status: u16) -> bool {
    policy::classify_http(status) == policy::StatusClass::Redirect
}

/// The name of why a redirect chain stopped, as in
/// [`Row::redirect_stop`](crate::Row::redirect_stop).
pub(crate) fn stop_name(stop: Stop) -> &'static str {
    match stop {
        Stop::Loop => "loop",
        Stop::TooMany => "too_many",
        Stop::Scheme(_) => "scheme",
        _ => "no_location",
    }
}

/// The [`Stop`] a name of [`stop_name`] stands for; `None` for
/// `not_captured` (the data lacks the target) and any other name.
pub(crate) fn stop_of(name: &str) -> Option<Stop> {
    match name {
        "loop" => Some(Stop::Loop),
        "too_many" => Some(Stop::TooMany),
        "scheme" => Some(Stop::Scheme(String::new())),
        "no_location" => Some(Stop::NoLocation),
        _ => None,
    }
}

/// How a site reached the capture evaluated for it, when redirects led
/// there.
#[derive(Clone, Debug)]
pub struct Followed {
    /// The crawl.
    pub crawl: String,
    /// The site's robots.txt URL.
    pub url: String,
    /// Redirects followed.
    pub hops: i32,
    /// Why the chain stopped short of a robots.txt.
    pub stop: Option<&'static str>,
    /// The last URL reached.
    pub final_url: String,
    /// The status of the site's own capture.
    pub status: Option<u16>,
}

/// One site to emit at a capture.
#[derive(Clone, Debug)]
pub struct Origin {
    /// The number of captures of the site's robots.txt URL.
    pub captures: i32,
    /// `None`: the capture is the site's own; otherwise how redirects led
    /// to it.
    pub redirect: Option<Box<Followed>>,
}

impl Origin {
    fn sort_key(&self) -> (bool, &str) {
        match &self.redirect {
            None => (false, ""),
            Some(f) => (true, f.url.as_str()),
        }
    }
}

/// Which capture to evaluate for which sites, by source, in file order.
pub struct Plan {
    by_source: Map<u32, Vec<(Pos, Vec<Origin>)>>,
    kept: Map<u32, Map<Pos, Box<Kept>>>,
}

impl Plan {
    /// The captures of source `source` to read, in file order, each with
    /// the sites it stands for.
    pub fn take(&mut self, source: u32) -> Vec<(Pos, Vec<Origin>)> {
        self.by_source.remove(&source).unwrap_or_default()
    }

    /// The captures of source `source` that pass one kept whole, by
    /// position: pass two need not read them again.
    pub(crate) fn take_kept(&mut self, source: u32) -> Map<Pos, Box<Kept>> {
        self.kept.remove(&source).unwrap_or_default()
    }

    /// How many sites it emits.
    pub fn sites(&self) -> usize {
        self.by_source.values().flatten().map(|(_, o)| o.len()).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_parse_finds_the_sites() {
        for url in [
            "https://Example.com/robots.txt#x",
            "http://a.example:8080/robots.txt",
            "https://a.example/robots.txt?x=1",
            "https://a.example/ROBOTS.TXT",
            "ftp://a.example/robots.txt",
            "https://a.example/x/../robots.txt",
            "not a url",
        ] {
            let (normal, site) = normal(url);
            assert_eq!(site, site_of(&normal).is_some(), "{url}");
        }
    }

    /// `site_of` and `normal` through the `url` crate alone.
    fn parsed(url: &str) -> (Option<String>, (String, bool)) {
        (parsed_site(url), parsed_normal(url))
    }

    #[test]
    fn plain_sites_are_what_a_parse_gives() {
        for url in [
            "https://example.com/robots.txt",
            "http://a-b.c0.example/robots.txt",
            "https://localhost/robots.txt",
            "https://-a-.b-/robots.txt",
        ] {
            assert!(plain_site(url).is_some(), "{url}");
            assert_eq!((site_of(url), normal(url)), parsed(url), "{url}");
        }
        // Parsed: what a parse would change, or might.
        for url in [
            "https://1.2.3.4/robots.txt",
            "https://a.1/robots.txt",
            "https://a.0x1f/robots.txt",
            "https://xn--nxasmq6b.example/robots.txt",
            "https://xn--a.example/robots.txt",
            "https://a..b/robots.txt",
            "https://a.b./robots.txt",
            "https://.a/robots.txt",
            "https:///robots.txt",
            "https://A.example/robots.txt",
            "https://a.example:443/robots.txt",
            "https://a.example:8080/robots.txt",
            "https://u@a.example/robots.txt",
            "https://a_b.example/robots.txt",
            "https://a.example/robots.txt?",
            "https://a.example/robots.txt#",
            "https://a.example//robots.txt",
            "HTTPS://a.example/robots.txt",
            "https://a%41.example/robots.txt",
        ] {
            assert!(plain_site(url).is_none(), "{url}");
            assert_eq!((site_of(url), normal(url)), parsed(url), "{url}");
        }
    }

    #[test]
    fn plain_sites_agree_with_a_parse_on_random_hosts() {
        // Hosts of the bytes that matter around the rules, in every
        // arrangement a small generator reaches.
        const BYTES: &[u8] = b"ab0x9-._A%:@[]n";
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        let mut plain = 0;
        for _ in 0..50_000 {
            let len = 1 + next(12);
            let host: String =
                (0..len).map(|_| BYTES[next(BYTES.len())] as char).collect();
            let url = format!("https://{host}/robots.txt");
            plain += usize::from(plain_site(&url).is_some());
            assert_eq!((site_of(&url), normal(&url)), parsed(&url), "{url}");
        }
        assert!(plain > 1_000, "{plain}");
    }

    #[test]
    fn dates_order() {
        assert!(
            date_rank("2024-02-20T12:34:56Z")
                > date_rank("2024-02-20T12:34:55Z")
        );
        assert_eq!(date_rank(""), 0);
    }
}
