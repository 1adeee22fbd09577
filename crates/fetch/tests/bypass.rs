//! Rules are judged on the URL that is actually requested, never on the
//! raw string: dot segments, `%2e%2e`, backslashes, tabs and the like
//! cannot take a disallowed path past the cache.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::UNIX_EPOCH;

use axum::extract::{Request, State};
use axum::routing::get;
use axum::Router;
use robotrules_fetch::{
    CacheConfig, ErrorKind, ManualClock, Reason, RobotsCache,
};

use crate::{fetcher, serve_on};

const RULES: &str = "User-agent: *\nDisallow: /private\nDisallow: /x\n";

/// A site with `RULES` that records the path and query of every other
/// request it gets.
async fn site() -> (SocketAddr, Arc<Mutex<Vec<String>>>) {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let app = Router::new()
        .route("/robots.txt", get(|| async { RULES }))
        .fallback(|State(seen): State<Arc<Mutex<Vec<String>>>>, r: Request| async move {
            let target = r.uri().path_and_query().map_or("/".into(), |p| p.to_string());
            seen.lock().unwrap().push(target);
            "page"
        })
        .with_state(seen.clone());
    (serve_on("127.0.0.1", app).await, seen)
}

fn cache() -> RobotsCache {
    RobotsCache::with(
        fetcher(),
        CacheConfig::default(),
        Arc::new(ManualClock::new(UNIX_EPOCH)),
    )
}

/// Each URL is disallowed, and an HTTP client asking for it really asks
/// the server for a path under `/private`.
async fn assert_blocked(urls: &[&str]) {
    let (addr, seen) = site().await;
    let cache = cache();
    let client = reqwest::Client::new();
    for url in urls {
        let url = url.replace("{h}", &addr.to_string());
        let v = cache.is_allowed(&["FooBot"], &url).await.unwrap();
        assert!(!v.allowed, "{url:?} was allowed: {v}");
        assert!(
            matches!(&v.reason, Reason::Rule { pattern, .. } if pattern == "/private"),
            "{url:?}: {v}"
        );
        client.get(&url).send().await.unwrap();
        let asked = seen.lock().unwrap().pop().unwrap();
        assert!(asked.starts_with("/private"), "{url:?} requested {asked}");
    }
}

#[tokio::test]
async fn dot_segments_cannot_bypass_rules() {
    assert_blocked(&[
        "http://{h}/a/../private/x",
        "http://{h}/./private/x",
        "http://{h}/a/b/../../private/x",
        "http://{h}/../private/x",
        "http://{h}/private/./x",
    ])
    .await;
}

#[tokio::test]
async fn encoded_dot_segments_cannot_bypass_rules() {
    assert_blocked(&[
        "http://{h}/x/%2e%2e/private/y",
        "http://{h}/x/%2E%2E/private/y",
        "http://{h}/x/%2e%2E/private/y",
        "http://{h}/x/.%2e/private/y",
        "http://{h}/x/%2e./private/y",
        "http://{h}/%2E/private",
        "http://{h}/%2e/private",
    ])
    .await;
}

#[tokio::test]
async fn backslashes_cannot_bypass_rules() {
    assert_blocked(&[
        "http://{h}\\private/x",
        "http://{h}\\a\\..\\private\\x",
        "http://{h}/a\\..\\private",
    ])
    .await;
}

#[tokio::test]
async fn tabs_and_newlines_cannot_bypass_rules() {
    assert_blocked(&[
        "http://{h}/pri\tvate/x",
        "http://{h}/pri\nvate/x",
        "http://{h}/pri\rvate",
        "  http://{h}/private  ",
    ])
    .await;
}

#[tokio::test]
async fn odd_authority_forms_cannot_bypass_rules() {
    assert_blocked(&[
        "http:////{h}/private/x",
        "http:/{h}/private/x",
        "http:\\\\{h}\\private",
        "HTTP://{h}/private",
        "http://user:pw@{h}/private",
    ])
    .await;
}

#[tokio::test]
async fn params_and_queries_are_judged() {
    assert_blocked(&[
        "http://{h}/private;jsessionid=1",
        "http://{h}/private?x=1",
        "http://{h}/private#frag",
    ])
    .await;
}

#[tokio::test]
async fn a_double_slash_path_is_a_path() {
    // `//private/x` is not the authority `private` with the path `/x`
    // (which `Disallow: /x` would block): it is the path `//private/x`,
    // which no rule matches, as for Google's matcher.
    let (addr, _) = site().await;
    let v = cache()
        .is_allowed(&["FooBot"], &format!("http://{addr}//private/x"))
        .await
        .unwrap();
    assert!(v.allowed, "{v}");
    assert_eq!(v.reason, Reason::NoRule);
    let v = cache()
        .is_allowed(&["FooBot"], &format!("http://{addr}//x/y"))
        .await
        .unwrap();
    assert!(v.allowed, "{v}");
}

#[tokio::test]
async fn relative_urls_are_errors_not_allowed() {
    let cache = cache();
    for url in ["//h/private", "/private", "private"] {
        let e = cache.is_allowed(&["FooBot"], url).await.unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidUrl, "{url}");
    }
}
