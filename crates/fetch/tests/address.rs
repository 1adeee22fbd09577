//! The address policy against real servers on loopback: a request to an
//! address the policy refuses is never made, whether the address is
//! written in the URL, resolved from a name, or reached by a redirect.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::http::{header, StatusCode};
use axum::routing::get;
use axum::Router;
use robotrules_fetch::{
    AddressPolicy, Authority, Fetch, FetcherConfig, Outcome, Unreachable,
};

use crate::{serve_on, RULES};

/// A server on `ip` that counts the requests it gets.
async fn counted(ip: &str) -> (SocketAddr, Arc<AtomicUsize>) {
    let hits = Arc::new(AtomicUsize::new(0));
    let counter = hits.clone();
    let app = Router::new().route(
        "/robots.txt",
        get(move || {
            counter.fetch_add(1, Ordering::SeqCst);
            async { RULES }
        }),
    );
    (serve_on(ip, app).await, hits)
}

/// A server on `ip` whose robots.txt redirects to `target`.
async fn redirecting(ip: &str, target: String) -> SocketAddr {
    let app = Router::new().route(
        "/robots.txt",
        get(move || {
            let target = target.clone();
            async move { (StatusCode::FOUND, [(header::LOCATION, target)]) }
        }),
    );
    serve_on(ip, app).await
}

async fn fetch_with(policy: AddressPolicy, url: &str) -> Fetch {
    let fetcher = FetcherConfig::default()
        .timeout(Duration::from_secs(5))
        .address_policy(policy)
        .build()
        .unwrap();
    fetcher.fetch(&Authority::of(url).unwrap()).await
}

fn refusal(fetch: &Fetch) -> &str {
    match &fetch.outcome {
        Outcome::Unreachable(Unreachable::Refused(why)) => why,
        other => panic!("not refused: {other:?}"),
    }
}

#[tokio::test]
async fn loopback_addresses_are_refused_before_connecting() {
    let (addr, hits) = counted("127.0.0.1").await;
    let port = addr.port();
    for url in [
        format!("http://127.0.0.1:{port}/"),
        format!("http://[::ffff:127.0.0.1]:{port}/"),
        format!("http://2130706433:{port}/"),
        format!("http://0x7f.1:{port}/"),
        format!("https://127.0.0.1:{port}/"),
        format!("ftp://127.0.0.1:{port}/"),
    ] {
        let f = fetch_with(AddressPolicy::public_only(), &url).await;
        assert!(
            refusal(&f).ends_with("is not a public address"),
            "{url}: {}",
            refusal(&f)
        );
        assert_eq!(
            f.outcome.describe().split(':').next(),
            Some("unreachable (refused")
        );
    }
    assert_eq!(hits.load(Ordering::SeqCst), 0);
    // The default policy still reaches it.
    let f = fetch_with(AddressPolicy::any(), &format!("http://{addr}/")).await;
    assert!(matches!(f.outcome, Outcome::Available(_)));
    assert_eq!(hits.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn a_name_that_resolves_to_loopback_is_refused() {
    let (addr, hits) = counted("127.0.0.1").await;
    for url in [
        format!("http://localhost:{}/", addr.port()),
        format!("ftp://localhost:{}/", addr.port()),
    ] {
        let f = fetch_with(AddressPolicy::public_only(), &url).await;
        assert!(
            refusal(&f).starts_with("localhost resolves to "),
            "{}",
            refusal(&f)
        );
    }
    assert_eq!(hits.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn private_addresses_are_refused() {
    for url in
        ["http://10.0.0.1/", "http://169.254.169.254/", "http://[fd00::1]/"]
    {
        let f = fetch_with(AddressPolicy::public_only(), url).await;
        assert!(refusal(&f).ends_with("is not a public address"), "{url}");
        assert_eq!(f.hops[0].status, None);
    }
}

/// Only `allowed` may be connected to: the first server lives there, and
/// the redirect's target elsewhere on loopback.
fn only(allowed: Ipv4Addr) -> AddressPolicy {
    AddressPolicy::custom(move |ip| ip == IpAddr::V4(allowed))
}

#[tokio::test]
async fn a_redirect_to_a_refused_address_is_not_followed() {
    let (target, hits) = counted("127.0.0.2").await;
    let first =
        redirecting("127.0.0.1", format!("http://{target}/robots.txt")).await;
    let f = fetch_with(only(Ipv4Addr::LOCALHOST), &format!("http://{first}/"))
        .await;
    assert_eq!(refusal(&f), "127.0.0.2 is not a public address");
    assert_eq!(f.hops.len(), 2);
    assert_eq!(f.hops[0].status, Some(302));
    assert_eq!(f.hops[1].status, None);
    assert_eq!(hits.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn a_redirect_to_a_name_that_resolves_to_a_refused_address() {
    let (target, hits) = counted("127.0.0.1").await;
    let first = redirecting(
        "127.0.0.2",
        format!("http://localhost:{}/robots.txt", target.port()),
    )
    .await;
    let f = fetch_with(
        only(Ipv4Addr::new(127, 0, 0, 2)),
        &format!("http://{first}/"),
    )
    .await;
    assert!(refusal(&f).starts_with("localhost resolves to "));
    assert_eq!(f.hops.len(), 2);
    assert_eq!(hits.load(Ordering::SeqCst), 0);
}
