//! `/robots.txt` itself is always allowed, and only it: one rule
//! (`policy::is_exempt`), after the same normalisation as every URL.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::UNIX_EPOCH;

use axum::routing::get;
use axum::Router;
use robotrules_fetch::{CacheConfig, ManualClock, Reason, RobotsCache};

use crate::{fetcher, serve_on};

async fn closed_site() -> SocketAddr {
    let app = Router::new().route(
        "/robots.txt",
        get(|| async { "User-agent: *\nDisallow: /\n" }),
    );
    serve_on("127.0.0.1", app).await
}

#[tokio::test]
async fn robots_txt_query_is_not_exempt() {
    let addr = closed_site().await;
    let cache = RobotsCache::with(
        fetcher(),
        CacheConfig::default(),
        Arc::new(ManualClock::new(UNIX_EPOCH)),
    );
    for exempt in [
        "/robots.txt",
        "/a/../robots.txt",
        "/%2e/robots.txt",
        "/./robots.txt#top",
    ] {
        let v = cache
            .is_allowed(&["a"], &format!("http://{addr}{exempt}"))
            .await
            .unwrap();
        assert_eq!(
            (v.allowed, &v.reason),
            (true, &Reason::RobotsTxt),
            "{exempt}"
        );
    }
    for judged in [
        "/robots.txt?x=1",
        "/robots.txt?",
        "/robots.txt/",
        "/ROBOTS.TXT",
        "/robots.txt;x",
        "/a/robots.txt",
    ] {
        let v = cache
            .is_allowed(&["a"], &format!("http://{addr}{judged}"))
            .await
            .unwrap();
        assert!(!v.allowed, "{judged}: {v}");
        assert!(matches!(v.reason, Reason::Rule { line: 2, .. }), "{judged}");
    }
}
