//! A cached check: `RobotsCache::is_allowed` for a site already fetched,
//! with 100 to 100,000 sites in the cache. The downloader is in memory,
//! and every site is fetched before timing starts, so only the cached
//! path is measured: URL parsing, the scope key, the index, the
//! freshness check, the compiled matcher and the verdict.
//!
//! Two access patterns: `hot`, checks over 64 sites (a crawler's active
//! hosts) while the rest of the cache sits idle, and `scattered`, checks
//! over 4,096 different sites in turn, so that each one finds its site's
//! data out of the CPU caches.

use std::future::Future;
use std::pin::pin;
use std::sync::Arc;
use std::task::{Context, Poll, Waker};
use std::time::UNIX_EPOCH;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use robotrules_fetch::{
    Authority, CacheConfig, Download, Failure, ManualClock, Response,
    RobotsCache,
};

const RULES: &[u8] =
    b"User-agent: *\nDisallow: /private/\nAllow: /private/press/\n\
Disallow: /*.pdf$\nDisallow: /search\n\nUser-agent: FooBot\nDisallow: /\n";

struct InMemory;

impl Download for InMemory {
    async fn download(&self, _: &Authority) -> Result<Response, Failure> {
        Ok(Response::new(200, RULES.to_vec()))
    }
}

/// Runs a future that never waits (a cached check) to completion.
fn now<F: Future>(future: F) -> F::Output {
    let mut future = pin!(future);
    let mut cx = Context::from_waker(Waker::noop());
    match future.as_mut().poll(&mut cx) {
        Poll::Ready(v) => v,
        Poll::Pending => panic!("a cached check waited"),
    }
}

fn cached_check(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("runtime");
    for (name, spread) in [("hot", 64usize), ("scattered", 4096)] {
        let mut group = c.benchmark_group(format!("cached_check_{name}"));
        for sites in [100usize, 1_000, 10_000, 100_000] {
            let cache = RobotsCache::with(
                InMemory,
                CacheConfig::default().max_entries(sites),
                Arc::new(ManualClock::new(UNIX_EPOCH)),
            );
            runtime.block_on(async {
                for i in 0..sites {
                    let url = format!("https://s{i}.example/");
                    cache.is_allowed(&["BarBot"], &url).await.expect("url");
                }
            });
            assert_eq!(cache.len(), sites);
            // Sites in a scattered order, paths of each kind.
            let paths =
                ["/private/x", "/private/press/a", "/a/b.pdf", "/ok?q=1"];
            let urls: Vec<String> = (0..4096)
                .map(|i| {
                    let site = (i % spread * 7919) % sites;
                    let path = paths[i % paths.len()];
                    format!("https://s{site}.example{path}")
                })
                .collect();
            let mut next = 0;
            group.bench_function(BenchmarkId::from_parameter(sites), |b| {
                b.iter(|| {
                    next = (next + 1) % urls.len();
                    now(cache.is_allowed(&["BarBot"], &urls[next]))
                        .expect("url")
                        .allowed
                })
            });
        }
        group.finish();
    }
}

criterion_group!(benches, cached_check);
criterion_main!(benches);
