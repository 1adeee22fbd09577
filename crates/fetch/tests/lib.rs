//! The fetch layer against real servers on loopback, started and stopped
//! by the tests: scripted HTTP servers (axum), raw TCP servers that
//! misbehave, and a real FTP server (libunftp). The regression tests are
//! in modules named after what they prevent.

mod address;
mod bypass;
mod codings;
mod download;
mod exemption;
mod responses;
mod single_flight;

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU16, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant, UNIX_EPOCH};

use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use robotrules_fetch::{
    Authority, CacheConfig, Fetch, Fetcher, FetcherConfig, ManualClock,
    Outcome, Reason, RobotsCache, Unavailable, Unreachable, MAX_BODY,
};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

const RULES: &str = "User-agent: *\nDisallow: /private\nCrawl-delay: 2.5\n";

/// A server whose behaviour a test changes while it runs.
#[derive(Clone, Default)]
struct Script {
    status: Arc<AtomicU16>,
    hits: Arc<AtomicUsize>,
    redirects: Arc<AtomicUsize>,
}

async fn serve_on(ip: &str, app: Router) -> SocketAddr {
    let listener =
        TcpListener::bind(format!("{ip}:0")).await.expect("bind loopback");
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.ok() });
    addr
}

/// `/robots.txt` answers `status` (200 with `RULES`, max-age from the
/// `x-max-age` query is not needed: tests set headers through the status).
async fn scripted() -> (SocketAddr, Script) {
    let script = Script::default();
    script.status.store(200, Ordering::SeqCst);
    let app = Router::new()
        .route("/robots.txt", get(robots))
        .route("/hop/{n}", get(hop))
        .with_state(script.clone());
    (serve_on("127.0.0.1", app).await, script)
}

async fn robots(State(s): State<Script>) -> Response {
    s.hits.fetch_add(1, Ordering::SeqCst);
    let status = s.status.load(Ordering::SeqCst);
    if s.redirects.load(Ordering::SeqCst) > 0 {
        return (
            StatusCode::MOVED_PERMANENTLY,
            [(header::LOCATION, "/hop/1")],
        )
            .into_response();
    }
    let code = StatusCode::from_u16(status).unwrap();
    if status == 200 {
        (code, RULES).into_response()
    } else {
        (code, "error").into_response()
    }
}

async fn hop(State(s): State<Script>, Path(n): Path<usize>) -> Response {
    if n < s.redirects.load(Ordering::SeqCst) {
        let next = format!("/hop/{}", n + 1);
        (StatusCode::FOUND, [(header::LOCATION, next)]).into_response()
    } else {
        (StatusCode::OK, RULES).into_response()
    }
}

/// What a raw server does after writing its answer.
#[derive(Clone, Copy, Debug)]
enum Then {
    /// Closes the connection.
    Close,
    /// Keeps it open and says nothing more.
    Stall,
    /// Waits, writes these bytes, then closes.
    After(Duration, &'static [u8]),
    /// Writes each piece after its own wait, then closes.
    Drip(Duration, &'static [&'static [u8]]),
}

/// A raw TCP server on loopback: for each request, `answer` gets the
/// request target and gives the bytes to write, whatever they are.
async fn raw<F>(answer: F) -> SocketAddr
where
    F: Fn(&str) -> (Vec<u8>, Then) + Send + Sync + 'static,
{
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let answer = Arc::new(answer);
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            let answer = answer.clone();
            tokio::spawn(async move {
                let mut head = Vec::new();
                let mut buf = [0u8; 4096];
                while !head.windows(4).any(|w| w == b"\r\n\r\n") {
                    match socket.read(&mut buf).await {
                        Ok(0) | Err(_) => return,
                        Ok(n) => head.extend_from_slice(&buf[..n]),
                    }
                }
                let head = String::from_utf8_lossy(&head).into_owned();
                let target = head.split(' ').nth(1).unwrap_or("").to_string();
                let (bytes, then) = answer(&target);
                let _ = socket.write_all(&bytes).await;
                match then {
                    Then::Close => {}
                    Then::Stall => {
                        tokio::time::sleep(Duration::from_secs(60)).await;
                    }
                    Then::After(wait, more) => {
                        let _ = socket.flush().await;
                        tokio::time::sleep(wait).await;
                        let _ = socket.write_all(more).await;
                    }
                    Then::Drip(wait, pieces) => {
                        for piece in pieces {
                            let _ = socket.flush().await;
                            tokio::time::sleep(wait).await;
                            let _ = socket.write_all(piece).await;
                        }
                    }
                }
            });
        }
    });
    addr
}

fn fetcher() -> Fetcher {
    FetcherConfig::default().timeout(Duration::from_secs(5)).build().unwrap()
}

async fn fetch(addr: SocketAddr) -> robotrules_fetch::Fetch {
    fetcher().fetch(&Authority::of(&format!("http://{addr}/")).unwrap()).await
}

#[tokio::test]
async fn status_classes() {
    let (addr, script) = scripted().await;
    for (status, want) in [
        (200, "available"),
        (204, "available"),
        (404, "unavailable (404)"),
        (403, "unavailable (403)"),
        (410, "unavailable (410)"),
        (401, "unavailable (401)"),
        (407, "unreachable (407)"),
        (429, "unreachable (429)"),
        (500, "unreachable (500)"),
        (503, "unreachable (503)"),
        (599, "unreachable (599)"),
        (600, "unreachable (600)"),
    ] {
        script.status.store(status, Ordering::SeqCst);
        let f = fetch(addr).await;
        assert_eq!(f.outcome.describe(), want, "status {status}");
        assert_eq!(f.hops.len(), 1);
        assert_eq!(f.hops[0].status, Some(status));
    }
    script.status.store(200, Ordering::SeqCst);
    match fetch(addr).await.outcome {
        Outcome::Available(robots) => {
            assert!(!robots.is_allowed("a", "/private/x"))
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn five_redirects_are_followed_six_are_not() {
    let (addr, script) = scripted().await;
    script.redirects.store(5, Ordering::SeqCst);
    let f = fetch(addr).await;
    assert!(matches!(f.outcome, Outcome::Available(_)), "{:?}", f.outcome);
    assert_eq!(f.hops.len(), 6);
    assert_eq!(f.authority.to_string(), format!("http://{addr}"));
    script.redirects.store(6, Ordering::SeqCst);
    let f = fetch(addr).await;
    assert!(
        matches!(
            f.outcome,
            Outcome::Unavailable(Unavailable::TooManyRedirects)
        ),
        "{:?}",
        f.outcome
    );
}

#[tokio::test]
async fn redirect_loop_is_unavailable() {
    let app = Router::new()
        .route(
            "/robots.txt",
            get(|| async { (StatusCode::FOUND, [(header::LOCATION, "/a")]) }),
        )
        .route(
            "/a",
            get(|| async {
                (StatusCode::FOUND, [(header::LOCATION, "/robots.txt")])
            }),
        );
    let addr = serve_on("127.0.0.1", app).await;
    let f = fetch(addr).await;
    assert!(
        matches!(f.outcome, Outcome::Unavailable(Unavailable::RedirectLoop)),
        "{:?}",
        f.outcome
    );
    // As a 4xx: everything allowed.
    let cache = RobotsCache::with(
        fetcher(),
        CacheConfig::default(),
        Arc::new(ManualClock::new(UNIX_EPOCH)),
    );
    let v = cache
        .is_allowed(&["a"], &format!("http://{addr}/private"))
        .await
        .unwrap();
    assert!(v.allowed);
    assert_eq!(v.reason, Reason::Unavailable(Unavailable::RedirectLoop));
}

#[tokio::test]
async fn cross_host_redirect_applies_to_the_first_authority() {
    // Two loopback hosts: 127.0.0.2 serves the file, 127.0.0.1 redirects.
    let other = serve_on(
        "127.0.0.2",
        Router::new().route("/robots.txt", get(|| async { RULES })),
    )
    .await;
    let target = format!("http://{other}/robots.txt");
    let app = Router::new().route(
        "/robots.txt",
        get(move || {
            let target = target.clone();
            async move {
                (StatusCode::MOVED_PERMANENTLY, [(header::LOCATION, target)])
            }
        }),
    );
    let first = serve_on("127.0.0.1", app).await;
    let f = fetch(first).await;
    assert!(matches!(f.outcome, Outcome::Available(_)), "{:?}", f.outcome);
    assert_eq!(f.hops.len(), 2);
    assert!(f.hops[1].url.starts_with("http://127.0.0.2:"));
    assert_eq!(f.authority.to_string(), format!("http://{first}"));
    let cache = RobotsCache::with(
        fetcher(),
        CacheConfig::default(),
        Arc::new(ManualClock::new(UNIX_EPOCH)),
    );
    let v = cache
        .is_allowed(&["a"], &format!("http://{first}/private/x"))
        .await
        .unwrap();
    assert!(!v.allowed);
}

#[tokio::test]
async fn a_server_that_never_answers_times_out() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((socket, _)) = listener.accept().await {
            held.push(socket); // accepted, never answered
        }
    });
    let f = FetcherConfig::default()
        .timeout(Duration::from_millis(800))
        .build()
        .unwrap();
    let started = Instant::now();
    let result =
        f.fetch(&Authority::of(&format!("http://{addr}/")).unwrap()).await;
    assert!(
        matches!(result.outcome, Outcome::Unreachable(Unreachable::Timeout)),
        "{:?}",
        result.outcome
    );
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[tokio::test]
async fn a_reset_mid_body_is_unreachable() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            let mut buf = [0u8; 4096];
            let _ = socket.read(&mut buf).await;
            let _ = socket
                .write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\nUser-agent: *\nDisallow: /")
                .await;
            let _ = socket2::SockRef::from(&socket)
                .set_linger(Some(Duration::ZERO));
            drop(socket); // RST before the promised 1000 bytes
        }
    });
    let f = fetch(addr).await;
    assert!(
        matches!(f.outcome, Outcome::Unreachable(Unreachable::Broken(_))),
        "{:?}",
        f.outcome
    );
}

#[tokio::test]
async fn refused_and_unresolvable_hosts_are_unreachable() {
    let closed = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let f = fetch(closed).await;
    assert_eq!(
        f.outcome.describe(),
        "unreachable (cannot connect: connection refused)"
    );
    let f = fetcher()
        .fetch(&Authority::of("http://no-such-host.invalid/").unwrap())
        .await;
    // One short reason each, not the client's chain of errors.
    assert_eq!(
        f.outcome.describe(),
        "unreachable (cannot connect: cannot resolve no-such-host.invalid)"
    );
}

#[tokio::test]
async fn a_ten_megabyte_body_is_cut_at_the_cap() {
    let big: &'static str = Box::leak(
        format!(
            "User-agent: *\nDisallow: /early\n{}",
            "# padding\n".repeat(1_000_000)
        )
        .into_boxed_str(),
    );
    let addr = serve_on(
        "127.0.0.1",
        Router::new().route("/robots.txt", get(move || async move { big })),
    )
    .await;
    let f = fetch(addr).await;
    assert_eq!(f.bytes_read, MAX_BODY);
    assert!(f.truncated);
    match f.outcome {
        Outcome::Available(robots) => {
            assert!(!robots.is_allowed("a", "/early"))
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn a_gzip_bomb_costs_at_most_the_cap() {
    use flate2::write::GzEncoder;
    use std::io::Write;
    // 200 MB of zeros after a rule, compressed to about 200 KB.
    let mut gz = GzEncoder::new(Vec::new(), flate2::Compression::best());
    gz.write_all(b"User-agent: *\nDisallow: /bomb\n").unwrap();
    let zeros = vec![b'\n'; 1 << 20];
    for _ in 0..200 {
        gz.write_all(&zeros).unwrap();
    }
    let bomb: &'static [u8] =
        Box::leak(gz.finish().unwrap().into_boxed_slice());
    assert!(bomb.len() < 1 << 20);
    let app = Router::new().route(
        "/robots.txt",
        get(move || async move {
            (
                [
                    (header::CONTENT_ENCODING, "gzip"),
                    (header::CONTENT_TYPE, "text/plain"),
                ],
                bomb,
            )
        }),
    );
    let addr = serve_on("127.0.0.1", app).await;
    let peak_before = peak_rss_kib();
    let started = Instant::now();
    let f = fetch(addr).await;
    assert_eq!(f.bytes_read, MAX_BODY);
    assert!(f.truncated);
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    // The bomb inflates to 200 MB: had it been decoded whole, the peak
    // would have grown by that much. (Other tests share the process, so
    // the margin is wide.)
    if let (Some(before), Some(after)) = (peak_before, peak_rss_kib()) {
        assert!(
            after - before < 100 * 1024,
            "peak RSS grew by {} KiB",
            after - before
        );
    }
    match f.outcome {
        Outcome::Available(robots) => {
            assert!(!robots.is_allowed("a", "/bomb"))
        }
        other => panic!("{other:?}"),
    }
}

/// The process's peak resident set, in KiB (Linux).
fn peak_rss_kib() -> Option<i64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// A server counting hits, answering with the given headers.
async fn counting(
    headers: &'static [(&'static str, &'static str)],
) -> (SocketAddr, Script) {
    let script = Script::default();
    script.status.store(200, Ordering::SeqCst);
    let app = Router::new()
        .route(
            "/robots.txt",
            get(move |State(s): State<Script>| async move {
                s.hits.fetch_add(1, Ordering::SeqCst);
                let status =
                    StatusCode::from_u16(s.status.load(Ordering::SeqCst))
                        .unwrap();
                let mut h = HeaderMap::new();
                for (k, v) in headers {
                    h.insert(*k, v.parse().unwrap());
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
                (status, h, RULES)
            }),
        )
        .with_state(script.clone());
    (serve_on("127.0.0.1", app).await, script)
}

fn cache_with(clock: &Arc<ManualClock>) -> RobotsCache {
    RobotsCache::with(fetcher(), CacheConfig::default(), clock.clone())
}

/// Asserts that a file served with `headers` is used for `secs` seconds
/// less one, and fetched again a second after.
async fn kept_for(
    headers: &'static [(&'static str, &'static str)],
    secs: u64,
) {
    let (addr, script) = counting(headers).await;
    let clock = Arc::new(ManualClock::new(UNIX_EPOCH));
    let cache = cache_with(&clock);
    let url = format!("http://{addr}/private/x");
    assert!(!cache.is_allowed(&["a"], &url).await.unwrap().allowed);
    clock.advance(Duration::from_secs(secs - 1));
    cache.is_allowed(&["a"], &url).await.unwrap();
    assert_eq!(script.hits.load(Ordering::SeqCst), 1, "{headers:?}");
    clock.advance(Duration::from_secs(2));
    cache.is_allowed(&["a"], &url).await.unwrap();
    assert_eq!(script.hits.load(Ordering::SeqCst), 2, "{headers:?}");
}

#[tokio::test]
async fn max_age_is_honoured() {
    kept_for(&[("cache-control", "public, max-age=60")], 60).await;
}

#[tokio::test]
async fn age_counts_against_max_age() {
    // Already 50 s in caches on its way: 10 s of its minute are left.
    kept_for(&[("cache-control", "max-age=60"), ("age", "50")], 10).await;
}

#[tokio::test]
async fn a_day_by_default_then_stale_on_error() {
    let (addr, script) = counting(&[]).await;
    let clock = Arc::new(ManualClock::new(UNIX_EPOCH));
    let cache = cache_with(&clock);
    let url = format!("http://{addr}/private/x");
    let v = cache.is_allowed(&["a"], &url).await.unwrap();
    assert_eq!((v.allowed, v.stale, v.crawl_delay), (false, false, Some(2.5)));
    assert!(matches!(v.reason, Reason::Rule { line: 2, .. }));
    clock.advance(Duration::from_secs(23 * 3600));
    cache.is_allowed(&["a"], &url).await.unwrap();
    assert_eq!(
        script.hits.load(Ordering::SeqCst),
        1,
        "still fresh after 23 h"
    );
    // Expired, and the refresh fails: the last good copy is used.
    script.status.store(503, Ordering::SeqCst);
    clock.advance(Duration::from_secs(2 * 3600));
    let v = cache.is_allowed(&["a"], &url).await.unwrap();
    assert_eq!(script.hits.load(Ordering::SeqCst), 2);
    assert!(v.stale);
    assert!(!v.allowed);
    let ok = cache
        .is_allowed(&["a"], &format!("http://{addr}/public"))
        .await
        .unwrap();
    assert!(ok.allowed && ok.stale);
    // Still failing 40 days later: the copy is still used.
    clock.advance(Duration::from_secs(40 * 24 * 3600));
    let v = cache.is_allowed(&["a"], &url).await.unwrap();
    assert!(v.stale && !v.allowed);
}

#[tokio::test]
async fn unreachable_disallows_then_thirty_days_allow() {
    let (addr, script) = counting(&[]).await;
    script.status.store(503, Ordering::SeqCst);
    let clock = Arc::new(ManualClock::new(UNIX_EPOCH));
    let cache = cache_with(&clock);
    let url = format!("http://{addr}/anything");
    let v = cache.is_allowed(&["a"], &url).await.unwrap();
    assert!(!v.allowed);
    match &v.reason {
        Reason::Unreachable { reason, until } => {
            assert_eq!(*reason, Unreachable::Status(503));
            // 503 is retried sooner than other failures: 5 minutes.
            assert_eq!(*until, UNIX_EPOCH + Duration::from_secs(300));
        }
        other => panic!("{other:?}"),
    }
    clock.advance(Duration::from_secs(299));
    cache.is_allowed(&["a"], &url).await.unwrap();
    assert_eq!(script.hits.load(Ordering::SeqCst), 1);
    clock.advance(Duration::from_secs(2));
    assert!(!cache.is_allowed(&["a"], &url).await.unwrap().allowed);
    assert_eq!(script.hits.load(Ordering::SeqCst), 2);
    script.status.store(500, Ordering::SeqCst);
    // Asked about twice a day: each failure follows the one before within
    // a day of its retry time, so the site has been down all along.
    let half_day = Duration::from_secs(12 * 3600);
    for _ in 0..29 * 2 {
        clock.advance(half_day);
        let v = cache.is_allowed(&["a"], &url).await.unwrap();
        assert!(!v.allowed, "under 30 days: still disallowed");
    }
    let v = cache.is_allowed(&["a"], &url).await.unwrap();
    match &v.reason {
        Reason::Unreachable { until, .. } => {
            assert_eq!(*until, clock_now(&clock) + HOUR)
        }
        other => panic!("{other:?}"),
    }
    for _ in 0..2 * 2 {
        clock.advance(half_day);
        cache.is_allowed(&["a"], &url).await.unwrap();
    }
    let v = cache.is_allowed(&["a"], &url).await.unwrap();
    assert!(v.allowed, "over 30 days unreachable with no copy: allowed");
    assert_eq!(v.reason, Reason::UnreachableTooLong);
}

const HOUR: Duration = Duration::from_secs(3600);

#[tokio::test]
async fn unreachable_runs_start_again_after_a_silence() {
    // Two failures 31 days apart, and nothing asked between: the site may
    // have been up meanwhile, so its rules are not given up on.
    let (addr, script) = counting(&[]).await;
    script.status.store(500, Ordering::SeqCst);
    let clock = Arc::new(ManualClock::new(UNIX_EPOCH));
    let cache = cache_with(&clock);
    let url = format!("http://{addr}/anything");
    assert!(!cache.is_allowed(&["a"], &url).await.unwrap().allowed);
    clock.advance(Duration::from_secs(31 * 24 * 3600));
    let v = cache.is_allowed(&["a"], &url).await.unwrap();
    assert!(!v.allowed, "{:?}", v.reason);
    assert_eq!(script.hits.load(Ordering::SeqCst), 2);
}

fn clock_now(clock: &ManualClock) -> std::time::SystemTime {
    use robotrules_fetch::Clock;
    clock.now()
}

#[tokio::test]
async fn retry_after_is_honoured() {
    let (addr, script) = counting(&[("retry-after", "120")]).await;
    script.status.store(500, Ordering::SeqCst);
    let clock = Arc::new(ManualClock::new(UNIX_EPOCH));
    let cache = cache_with(&clock);
    let v =
        cache.is_allowed(&["a"], &format!("http://{addr}/x")).await.unwrap();
    match v.reason {
        Reason::Unreachable { until, .. } => {
            assert_eq!(until, UNIX_EPOCH + Duration::from_secs(120))
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn retry_after_dates_are_not_ignored() {
    let (addr, script) =
        counting(&[("retry-after", "Thu, 01 Jan 1970 00:10:00 GMT")]).await;
    script.status.store(503, Ordering::SeqCst);
    let f = fetch(addr).await;
    assert_eq!(
        f.retry_after,
        Some(robotrules_fetch::policy::RetryAfter::Date(
            UNIX_EPOCH + Duration::from_secs(600)
        ))
    );
    let clock = Arc::new(ManualClock::new(UNIX_EPOCH));
    let cache = cache_with(&clock);
    let url = format!("http://{addr}/x");
    let v = cache.is_allowed(&["a"], &url).await.unwrap();
    match v.reason {
        // A 503 is asked again after 5 minutes unless Retry-After says
        // otherwise (up to an hour): here, at the date, 10 minutes on.
        Reason::Unreachable { until, .. } => {
            assert_eq!(until, UNIX_EPOCH + Duration::from_secs(600))
        }
        other => panic!("{other:?}"),
    }
    clock.advance(Duration::from_secs(599));
    cache.is_allowed(&["a"], &url).await.unwrap();
    assert_eq!(script.hits.load(Ordering::SeqCst), 2, "not asked again yet");
    clock.advance(Duration::from_secs(1));
    cache.is_allowed(&["a"], &url).await.unwrap();
    assert_eq!(script.hits.load(Ordering::SeqCst), 3);
}

#[tokio::test]
async fn no_store_is_not_kept() {
    let (addr, script) = counting(&[("cache-control", "no-store")]).await;
    let clock = Arc::new(ManualClock::new(UNIX_EPOCH));
    let cache = cache_with(&clock);
    let url = format!("http://{addr}/private");
    assert!(!cache.is_allowed(&["a"], &url).await.unwrap().allowed);
    assert!(!cache.is_allowed(&["a"], &url).await.unwrap().allowed);
    assert_eq!(script.hits.load(Ordering::SeqCst), 2, "no-store: asked again");
    // And no copy to fall back on: a failure now disallows as unreachable.
    script.status.store(503, Ordering::SeqCst);
    let v = cache
        .is_allowed(&["a"], &format!("http://{addr}/public"))
        .await
        .unwrap();
    assert!(!v.allowed && !v.stale);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thousand_concurrent_checks_make_one_request() {
    let (addr, script) = counting(&[]).await;
    let cache = Arc::new(RobotsCache::with(
        fetcher(),
        CacheConfig::default(),
        Arc::new(ManualClock::new(UNIX_EPOCH)),
    ));
    let tasks: Vec<_> = (0..1000)
        .map(|i| {
            let cache = cache.clone();
            let url = format!(
                "http://{addr}/{}{i}",
                if i % 2 == 0 { "private/" } else { "open/" }
            );
            tokio::spawn(async move {
                cache.is_allowed(&["a"], &url).await.unwrap().allowed
            })
        })
        .collect();
    let mut allowed = 0;
    for t in tasks {
        allowed += usize::from(t.await.unwrap());
    }
    assert_eq!(allowed, 500);
    assert_eq!(script.hits.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn robots_txt_itself_is_always_allowed() {
    let app = Router::new().route(
        "/robots.txt",
        get(|| async { "User-agent: *\nDisallow: /\n" }),
    );
    let addr = serve_on("127.0.0.1", app).await;
    let cache = RobotsCache::with(
        fetcher(),
        CacheConfig::default(),
        Arc::new(ManualClock::new(UNIX_EPOCH)),
    );
    let v = cache
        .is_allowed(&["a"], &format!("http://{addr}/robots.txt"))
        .await
        .unwrap();
    assert_eq!((v.allowed, v.reason), (true, Reason::RobotsTxt));
    assert!(
        !cache
            .is_allowed(&["a"], &format!("http://{addr}/x"))
            .await
            .unwrap()
            .allowed
    );
}

#[tokio::test]
async fn the_cache_is_bounded() {
    let mut addrs = Vec::new();
    for _ in 0..3 {
        addrs.push(counting(&[]).await.0);
    }
    let cache = RobotsCache::with(
        fetcher(),
        CacheConfig::default().max_entries(2),
        Arc::new(ManualClock::new(UNIX_EPOCH)),
    );
    for addr in &addrs {
        cache.is_allowed(&["a"], &format!("http://{addr}/")).await.unwrap();
    }
    assert_eq!(cache.len(), 2);
    let bytes = RobotsCache::with(
        fetcher(),
        CacheConfig::default().max_bytes(RULES.len() + 10),
        Arc::new(ManualClock::new(UNIX_EPOCH)),
    );
    for addr in &addrs {
        bytes.is_allowed(&["a"], &format!("http://{addr}/")).await.unwrap();
    }
    assert_eq!(bytes.len(), 1);
}

#[cfg(feature = "ftp")]
#[tokio::test]
async fn ftp_robots_txt() {
    let root = tempfile::tempdir().unwrap();
    let stored = "User-agent: *\r\nDisallow: /pub/private\r\n";
    std::fs::write(root.path().join("robots.txt"), stored).unwrap();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let dir = root.path().to_path_buf();
    let server = libunftp::ServerBuilder::new(Box::new(move || {
        unftp_sbe_fs::Filesystem::new(dir.clone()).unwrap()
    }))
    .greeting("robotrules test server")
    .passive_ports(50000..=50100)
    .build()
    .unwrap();
    let task = tokio::spawn(server.listen(format!("127.0.0.1:{port}")));
    tokio::time::sleep(Duration::from_millis(200)).await;
    let authority =
        Authority::of(&format!("ftp://127.0.0.1:{port}/pub/x")).unwrap();
    let f = fetcher().fetch(&authority).await;
    match &f.outcome {
        Outcome::Available(robots) => {
            assert!(!robots.is_allowed("a", "/pub/private/x"));
            assert!(robots.is_allowed("a", "/pub/open"));
        }
        other => panic!("{other:?} {:?}", f.hops),
    }
    // The bytes as stored: CR LF kept.
    assert_eq!(f.body, stored.as_bytes());
    std::fs::remove_file(root.path().join("robots.txt")).unwrap();
    let f = fetcher().fetch(&authority).await;
    assert!(
        matches!(f.outcome, Outcome::Unavailable(Unavailable::Status(550))),
        "{:?}",
        f.outcome
    );
    task.abort();
}

/// A scripted FTP control connection on loopback: a greeting, a login,
/// `TYPE I`, then `reply` to `PASV`.
#[cfg(feature = "ftp")]
async fn ftp_refusing_pasv(reply: &'static str) -> SocketAddr {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        while let Ok((socket, _)) = listener.accept().await {
            tokio::spawn(async move {
                let (read, mut write) = socket.into_split();
                let mut lines = BufReader::new(read).lines();
                let _ = write.write_all(b"220 ready\r\n").await;
                while let Ok(Some(line)) = lines.next_line().await {
                    let verb = line.split(' ').next().unwrap_or_default();
                    let answer = match verb.to_ascii_uppercase().as_str() {
                        "USER" => "331 password please",
                        "PASS" => "230 logged in",
                        "TYPE" => "200 binary",
                        "PASV" | "EPSV" => reply,
                        "QUIT" => "221 bye",
                        _ => "550 no such file",
                    };
                    let _ = write
                        .write_all(format!("{answer}\r\n").as_bytes())
                        .await;
                }
            });
        }
    });
    addr
}

#[cfg(feature = "ftp")]
#[tokio::test]
async fn a_refused_pasv_is_no_answer_about_the_file() {
    // A server that will not open a data connection has said nothing
    // about robots.txt: unreachable, not "no robots.txt".
    for reply in ["502 command not implemented", "500 no", "421 busy"] {
        let addr = ftp_refusing_pasv(reply).await;
        let authority = Authority::of(&format!("ftp://{addr}/")).unwrap();
        let f = fetcher().fetch(&authority).await;
        assert!(
            matches!(f.outcome, Outcome::Unreachable(_)),
            "{reply}: {:?}",
            f.outcome
        );
    }
}

#[tokio::test]
async fn transfer_codings_other_than_chunked_are_broken() {
    // A gzip transfer coding, which the client does not undo: the body
    // is coded bytes, never rules.
    use std::io::Write as _;
    let mut gz = flate2::write::GzEncoder::new(
        Vec::new(),
        flate2::Compression::default(),
    );
    gz.write_all(b"User-agent: *\nDisallow: /\n").unwrap();
    let coded = gz.finish().unwrap();
    for te in ["gzip, chunked", "gzip"] {
        let mut answer = format!("HTTP/1.1 200 OK\r\nTransfer-Encoding: {te}\r\nConnection: close\r\n\r\n").into_bytes();
        if te.ends_with("chunked") {
            answer.extend_from_slice(
                format!("{:x}\r\n", coded.len()).as_bytes(),
            );
            answer.extend_from_slice(&coded);
            answer.extend_from_slice(b"\r\n0\r\n\r\n");
        } else {
            answer.extend_from_slice(&coded);
        }
        let addr = raw(move |_| (answer.clone(), Then::Close)).await;
        let f = fetch(addr).await;
        assert!(
            matches!(&f.outcome, Outcome::Unreachable(Unreachable::Broken(why)) if why.contains("Transfer-Encoding")),
            "{te}: {:?}",
            f.outcome
        );
    }
}

/// Serves a chunked body of `len` bytes, `Disallow: /x` for every crawler
/// and then padding, and stalls after it; fetches it with a timeout of 5
/// seconds, and returns the fetch and how long it took.
async fn chunked_then_stall(len: usize) -> (Fetch, Duration) {
    let mut body = b"User-agent: *\nDisallow: /x\n".to_vec();
    body.resize(len, b'#');
    let mut answer =
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n".to_vec();
    answer.extend_from_slice(format!("{:x}\r\n", body.len()).as_bytes());
    answer.extend_from_slice(&body);
    answer.extend_from_slice(b"\r\n");
    let addr = raw(move |_| (answer.clone(), Then::Stall)).await;
    let fetcher = FetcherConfig::default()
        .timeout(Duration::from_secs(5))
        .build()
        .unwrap();
    let started = std::time::Instant::now();
    let f = fetcher
        .fetch(&Authority::of(&format!("http://{addr}/")).unwrap())
        .await;
    (f, started.elapsed())
}

#[tokio::test]
async fn a_chunked_body_that_reaches_the_cap_then_stalls_is_read() {
    // The cap reached, without a Content-Length to say whether more
    // comes: the byte past the cap is waited for a moment only, as with
    // one. The file is read; not a timeout that disallows everything.
    let (f, _) = chunked_then_stall(MAX_BODY).await;
    assert!(f.truncated);
    match &f.outcome {
        Outcome::Available(robots) => assert!(!robots.is_allowed("a", "/x")),
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn a_chunked_body_one_byte_past_the_cap_then_a_stall_is_cut() {
    // The byte past the cap is all the cut needs: no waiting for more.
    let (f, took) = chunked_then_stall(MAX_BODY + 1).await;
    assert!(took < Duration::from_secs(4));
    assert!(f.truncated);
    match &f.outcome {
        Outcome::Available(robots) => assert!(!robots.is_allowed("a", "/x")),
        other => panic!("{other:?}"),
    }
}
