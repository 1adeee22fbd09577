//! `RobotsCache` over a downloader of the caller's own: an in-memory one,
//! scripted per host, that counts its calls.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, UNIX_EPOCH};

use robotrules_fetch::policy::{self, Access};
use robotrules_fetch::{
    Authority, CacheConfig, Clock, Download, Failure, Fetch, Hop, ManualClock,
    Reason, Response, RobotsCache, Unavailable, Unreachable, MAX_BODY,
};

type Answer = Box<dyn Fn() -> Result<Response, Failure> + Send + Sync>;

#[derive(Default)]
struct InMemory {
    answers: Mutex<HashMap<String, Arc<Answer>>>,
    calls: AtomicUsize,
}

impl InMemory {
    fn set(
        &self,
        host: &str,
        answer: impl Fn() -> Result<Response, Failure> + Send + Sync + 'static,
    ) {
        self.answers
            .lock()
            .unwrap()
            .insert(host.to_string(), Arc::new(Box::new(answer)));
    }
}

impl Download for InMemory {
    async fn download(
        &self,
        authority: &Authority,
    ) -> Result<Response, Failure> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        let answer =
            self.answers.lock().unwrap().get(authority.host()).cloned();
        match answer {
            Some(answer) => answer(),
            None => Err(Failure::new(Unreachable::Connect(
                "cannot resolve".into(),
            ))),
        }
    }
}

fn setup() -> (Arc<InMemory>, Arc<ManualClock>, RobotsCache<Arc<InMemory>>) {
    let memory = Arc::new(InMemory::default());
    let clock = Arc::new(ManualClock::new(UNIX_EPOCH));
    let cache = RobotsCache::with(
        memory.clone(),
        CacheConfig::default(),
        clock.clone(),
    );
    (memory, clock, cache)
}

const RULES: &[u8] = b"User-agent: a\nUser-agent: b\nDisallow: /ab\n\
User-agent: c\nDisallow: /c\nCrawl-delay: 4\n";

#[tokio::test]
async fn a_custom_downloader_gets_the_same_rules() {
    let (memory, clock, cache) = setup();
    memory.set("ok.test", || Ok(Response::new(200, RULES.to_vec())));
    memory.set("gone.test", || Ok(Response::new(410, vec![])));
    memory.set("busy.test", || Ok(Response::new(429, vec![])));
    let v = cache.is_allowed(&["a"], "https://ok.test/ab/x").await.unwrap();
    assert!(!v.allowed);
    assert!(matches!(v.reason, Reason::Rule { line: 3, .. }));
    // Several names, merged as one crawler.
    let v = cache.is_allowed(&["b", "c"], "https://ok.test/c").await.unwrap();
    assert!(!v.allowed);
    assert_eq!(v.crawl_delay, Some(4.0));
    assert!(
        cache.is_allowed(&["c"], "https://ok.test/ab").await.unwrap().allowed
    );
    assert_eq!(memory.calls.load(Ordering::SeqCst), 1);
    let v = cache.is_allowed(&["a"], "https://gone.test/ab").await.unwrap();
    assert_eq!(v.reason, Reason::Unavailable(Unavailable::Status(410)));
    assert!(v.allowed);
    let v = cache.is_allowed(&["a"], "https://busy.test/").await.unwrap();
    assert!(!v.allowed);
    let v = cache.is_allowed(&["a"], "https://nowhere.test/").await.unwrap();
    assert!(!v.allowed);
    match v.reason {
        Reason::Unreachable { until, .. } => {
            assert_eq!(until, clock.now() + Duration::from_secs(3600))
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn retry_after_dates_are_honoured() {
    let (memory, clock, cache) = setup();
    memory.set("busy.test", || {
        Ok(Response::new(503, vec![])
            .header("Retry-After", "Thu, 01 Jan 1970 00:02:00 GMT"))
    });
    let v = cache.is_allowed(&["a"], "https://busy.test/").await.unwrap();
    match v.reason {
        Reason::Unreachable { until, .. } => {
            assert_eq!(until, UNIX_EPOCH + Duration::from_secs(120))
        }
        other => panic!("{other:?}"),
    }
    clock.advance(Duration::from_secs(119));
    cache.is_allowed(&["a"], "https://busy.test/").await.unwrap();
    assert_eq!(memory.calls.load(Ordering::SeqCst), 1);
    clock.advance(Duration::from_secs(1));
    cache.is_allowed(&["a"], "https://busy.test/").await.unwrap();
    assert_eq!(memory.calls.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn redirects_a_downloader_stopped_at_are_judged() {
    let (memory, _, cache) = setup();
    memory.set("loop.test", || {
        Ok(Response::new(301, vec![]).header("location", "/robots.txt").hops(
            vec![
                Hop::new("https://loop.test/robots.txt", Some(302)),
                Hop::new("https://loop.test/a", Some(301)),
            ],
        ))
    });
    let v = cache.is_allowed(&["a"], "https://loop.test/x").await.unwrap();
    assert_eq!(v.reason, Reason::Unavailable(Unavailable::RedirectLoop));
    assert!(v.allowed);
}

#[tokio::test]
async fn oversized_bodies_are_cut_at_the_cap() {
    let site = Authority::of("https://big.test/").unwrap();
    let mut body = b"User-agent: *\nDisallow: /early\n".to_vec();
    body.resize(MAX_BODY + 1000, b'\n');
    body.extend_from_slice(b"Disallow: /late\n");
    let fetch = Fetch::new(&site, Ok(Response::new(200, body)));
    assert!(fetch.truncated);
    assert_eq!(fetch.bytes_read, MAX_BODY);
    assert_eq!(policy::access(&fetch.outcome), Access::Obey);
    match &fetch.outcome {
        robotrules_fetch::Outcome::Available(robots) => {
            assert!(!robots.is_allowed("x", "/early"));
            assert!(robots.is_allowed("x", "/late"), "past the cap: ignored");
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn running_totals_follow_evictions() {
    let memory = Arc::new(InMemory::default());
    let cache = RobotsCache::with(
        memory.clone(),
        CacheConfig::default().max_entries(10),
        Arc::new(ManualClock::new(UNIX_EPOCH)),
    );
    for i in 0..25 {
        let host = format!("s{i}.test");
        memory.set(&host, || Ok(Response::new(200, RULES.to_vec())));
        cache.is_allowed(&["a"], &format!("https://{host}/")).await.unwrap();
    }
    assert_eq!(cache.len(), 10);
    assert_eq!(cache.bytes(), 10 * RULES.len());
    // The most recent ones stayed: no new download for them.
    let before = memory.calls.load(Ordering::SeqCst);
    cache.is_allowed(&["a"], "https://s24.test/").await.unwrap();
    assert_eq!(memory.calls.load(Ordering::SeqCst), before);
    // A byte bound: only what fits stays.
    let small = RobotsCache::with(
        memory.clone(),
        CacheConfig::default().max_bytes(3 * RULES.len()),
        Arc::new(ManualClock::new(UNIX_EPOCH)),
    );
    for i in 0..6 {
        small
            .is_allowed(&["a"], &format!("https://s{i}.test/"))
            .await
            .unwrap();
    }
    assert_eq!(small.len(), 3);
    assert_eq!(small.bytes(), 3 * RULES.len());
    // At the byte bound, two new sites checked in turn are fetched once
    // each: the older entries go, not the one added just before.
    for i in [6, 7] {
        memory.set(&format!("s{i}.test"), || {
            Ok(Response::new(200, RULES.to_vec()))
        });
    }
    let before = memory.calls.load(Ordering::SeqCst);
    for _ in 0..10 {
        for i in [6, 7] {
            small
                .is_allowed(&["a"], &format!("https://s{i}.test/"))
                .await
                .unwrap();
        }
    }
    assert_eq!(memory.calls.load(Ordering::SeqCst) - before, 2);
    assert_eq!(small.len(), 3);
}
