//! Concurrent checks share the fetch in flight, even when its answer may
//! not be cached (`no-store`, `no-cache`, `max-age=0`).

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, UNIX_EPOCH};

use axum::extract::State;
use axum::http::header;
use axum::routing::get;
use axum::Router;
use robotrules_fetch::{CacheConfig, ManualClock, RobotsCache};

use crate::{fetcher, serve_on};

/// Counts requests, answers after 300 ms with `cache_control`.
async fn slow(cache_control: &'static str) -> (SocketAddr, Arc<AtomicUsize>) {
    let hits = Arc::new(AtomicUsize::new(0));
    let app = Router::new()
        .route(
            "/robots.txt",
            get(move |State(hits): State<Arc<AtomicUsize>>| async move {
                hits.fetch_add(1, Ordering::SeqCst);
                tokio::time::sleep(Duration::from_millis(300)).await;
                (
                    [(header::CACHE_CONTROL, cache_control)],
                    "User-agent: *\nDisallow: /private\n",
                )
            }),
        )
        .with_state(hits.clone());
    (serve_on("127.0.0.1", app).await, hits)
}

async fn twenty_checks(addr: SocketAddr, cache: &Arc<RobotsCache>) -> usize {
    let tasks: Vec<_> = (0..20)
        .map(|i| {
            let cache = cache.clone();
            let dir = if i % 2 == 0 { "private" } else { "open" };
            let url = format!("http://{addr}/{dir}/{i}");
            tokio::spawn(async move {
                cache.is_allowed(&["a"], &url).await.unwrap().allowed
            })
        })
        .collect();
    let mut allowed = 0;
    for t in tasks {
        allowed += usize::from(t.await.unwrap());
    }
    allowed
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn uncacheable_answers_are_shared_in_flight() {
    for cc in ["no-store", "no-cache", "max-age=0"] {
        let (addr, hits) = slow(cc).await;
        let cache = Arc::new(RobotsCache::with(
            fetcher(),
            CacheConfig::default(),
            Arc::new(ManualClock::new(UNIX_EPOCH)),
        ));
        let started = std::time::Instant::now();
        assert_eq!(twenty_checks(addr, &cache).await, 10, "{cc}");
        assert_eq!(hits.load(Ordering::SeqCst), 1, "{cc}: one request");
        // One 300 ms fetch, not twenty in a row.
        assert!(started.elapsed() < Duration::from_secs(3), "{cc}");
        // Not kept: the next check asks again.
        cache.is_allowed(&["a"], &format!("http://{addr}/x")).await.unwrap();
        assert_eq!(hits.load(Ordering::SeqCst), 2, "{cc}: not cached");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fetches_under_way_are_not_evicted() {
    // A cache of one site: while `a` is being fetched, `b` comes, then
    // more checks of `a`, which must find the fetch under way.
    let (a, hits_a) = slow("max-age=600").await;
    let (b, hits_b) = slow("max-age=600").await;
    let cache = Arc::new(RobotsCache::with(
        fetcher(),
        CacheConfig::default().max_entries(1),
        Arc::new(ManualClock::new(UNIX_EPOCH)),
    ));
    let check = |addr: SocketAddr| {
        let cache = cache.clone();
        tokio::spawn(async move {
            cache.is_allowed(&["a"], &format!("http://{addr}/private/x")).await
        })
    };
    let first = check(a);
    tokio::time::sleep(Duration::from_millis(60)).await;
    let other = check(b);
    tokio::time::sleep(Duration::from_millis(60)).await;
    let again = check(a);
    for task in [first, other, again] {
        assert!(!task.await.unwrap().unwrap().allowed);
    }
    assert_eq!(hits_a.load(Ordering::SeqCst), 1, "one request for a");
    assert_eq!(hits_b.load(Ordering::SeqCst), 1);
    // Once the fetches are over, the bound holds again.
    cache.is_allowed(&["a"], &format!("http://{b}/x")).await.unwrap();
    assert_eq!(cache.len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fetch_left_by_its_caller_does_not_pin_its_site() {
    // A cache of one site: the only check of `a` is given up (a timeout)
    // before its fetch ends; `b` must then take `a`'s place.
    let (a, _) = slow("max-age=600").await;
    let (b, hits_b) = slow("max-age=600").await;
    let cache = RobotsCache::with(
        fetcher(),
        CacheConfig::default().max_entries(1),
        Arc::new(ManualClock::new(UNIX_EPOCH)),
    );
    let url = format!("http://{a}/private/x");
    let gave_up = tokio::time::timeout(
        Duration::from_millis(50),
        cache.is_allowed(&["a"], &url),
    )
    .await;
    assert!(gave_up.is_err(), "the check of a was not given up");
    assert!(
        !cache
            .is_allowed(&["a"], &format!("http://{b}/private/x"))
            .await
            .unwrap()
            .allowed
    );
    assert_eq!(cache.len(), 1, "a still held beside b");
    assert_eq!(hits_b.load(Ordering::SeqCst), 1);
    // And a check of `a` afterwards fetches it again, to the end.
    assert!(!cache.is_allowed(&["a"], &url).await.unwrap().allowed);
    assert_eq!(cache.len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_caller_giving_up_leaves_the_flight_to_the_others() {
    let (a, hits) = slow("max-age=600").await;
    let cache = Arc::new(RobotsCache::with(
        fetcher(),
        CacheConfig::default(),
        Arc::new(ManualClock::new(UNIX_EPOCH)),
    ));
    let url = format!("http://{a}/private/x");
    let waiting = {
        let (cache, url) = (cache.clone(), url.clone());
        tokio::spawn(async move { cache.is_allowed(&["a"], &url).await })
    };
    tokio::time::sleep(Duration::from_millis(30)).await;
    let gave_up = tokio::time::timeout(
        Duration::from_millis(50),
        cache.is_allowed(&["a"], &url),
    )
    .await;
    assert!(gave_up.is_err());
    // A third caller joins the same flight.
    assert!(!cache.is_allowed(&["a"], &url).await.unwrap().allowed);
    assert!(!waiting.await.unwrap().unwrap().allowed);
    assert_eq!(hits.load(Ordering::SeqCst), 1, "one request");
}
