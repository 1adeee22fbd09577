//! A robots.txt tester in the browser, and the JSON API behind it: the
//! server of `robotrules serve`.
//!
//! One page, served from the binary with no third-party assets: an editor
//! with the robots.txt (pasted, uploaded, or fetched from a site as a
//! crawler fetches it, RFC 9309 §2.3), URLs and crawlers to test, the
//! verdicts with the deciding line highlighted, the groups chosen and every
//! matching rule with its priority, lint diagnostics at their lines, and
//! what the file allows each crawler of the built-in catalogue. The state
//! can be shared as a link that carries it in the URL fragment, which
//! never reaches the server.
//!
//! The API renders the data of `robotrules-analysis` and
//! `robotrules-fetch` in the JSON shapes of the command line's `--json`
//! output; its OpenAPI document is served at [`OPENAPI_PATH`].
//!
//! | route | answer |
//! |---|---|
//! | `POST /api/check` | one `Check` per URL (`robotrules check --json`) |
//! | `POST /api/explain` | an `Explanation` (`robotrules explain --json`) |
//! | `POST /api/lint` | the `Diagnostic`s (`robotrules lint --json`) |
//! | `POST /api/audit` | one `Standing` per crawler (`robotrules audit --json`) |
//! | `POST /api/fetch` | a fetch `Report` (`robotrules fetch --json`) and the file |
//! | `GET /api/catalogue` | the built-in crawler catalogue |
//!
//! # Example: serve on a free port
//!
//! ```no_run
//! use robotrules_web::{serve, Config};
//!
//! #[tokio::main]
//! async fn main() -> Result<(), Box<dyn std::error::Error>> {
//!     let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
//!     println!("http://{}/", listener.local_addr()?);
//!     serve(listener, Config::default()).await?;
//!     Ok(())
//! }
//! ```
//!
//! # Untrusted input
//!
//! The server is meant to be safe to expose:
//!
//! * request bodies are capped ([`Config::max_body`], 1 MiB by default:
//!   twice what a crawler reads of a robots.txt, RFC 9309 §2.5), and so
//!   are the numbers of URLs and crawler names of a request;
//! * every request has a time limit ([`Config::request_timeout`]), a
//!   request's head must arrive within [`Config::header_timeout`], an
//!   answer that its client does not read within the request's time
//!   limit ends the connection, a connection lasts at most
//!   [`Config::max_connection_age`], the connections served at once are
//!   capped ([`Config::max_connections`]: memory is at most a few request
//!   bodies per connection, answers are capped at 4 MiB), and the
//!   analysis is linear in the file (or n log n); explain, lint and audit
//!   run a few at a time, each once its request is read whole, so slow
//!   clients cannot hold them;
//! * a site fetch connects only to public addresses, judged after name
//!   resolution and again on every redirect
//!   ([`robotrules_fetch::AddressPolicy::public_only`]), unless
//!   [`Config::allow_private_fetch`] is set; each client may start only a
//!   few fetches a minute ([`Config::fetches_per_minute`]);
//! * every response carries a strict Content-Security-Policy (scripts and
//!   styles from the server only, nothing inline, no framing) and the
//!   usual protective headers;
//! * nothing a request carries is logged or stored.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod api;
mod assets;
mod limit;

use std::net::SocketAddr;
use std::time::Duration;

use axum::extract::ConnectInfo;
use axum::Router;

pub use crate::api::OPENAPI_PATH;

/// Settings of the server. Build one with [`Config::default`] and the
/// setters.
///
/// # Example
///
/// ```
/// use std::time::Duration;
/// use robotrules_web::Config;
///
/// let config = Config::default()
///     .fetches_per_minute(5)
///     .request_timeout(Duration::from_secs(10));
/// let app = robotrules_web::router(&config)?;
/// # let _ = app;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
#[must_use]
pub struct Config {
    pub(crate) allow_private_fetch: bool,
    pub(crate) max_body: usize,
    pub(crate) request_timeout: Duration,
    pub(crate) fetch_timeout: Duration,
    pub(crate) fetches_per_minute: u32,
    pub(crate) address_policy: Option<robotrules_fetch::AddressPolicy>,
    pub(crate) header_timeout: Duration,
    pub(crate) max_connections: usize,
    pub(crate) max_connection_age: Duration,
    pub(crate) allowed_hosts: Vec<String>,
    pub(crate) proxies: Vec<std::net::IpAddr>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            allow_private_fetch: false,
            max_body: 1 << 20,
            request_timeout: Duration::from_secs(20),
            fetch_timeout: Duration::from_secs(10),
            fetches_per_minute: 10,
            address_policy: None,
            header_timeout: Duration::from_secs(10),
            max_connections: 256,
            max_connection_age: Duration::from_secs(120),
            allowed_hosts: Vec::new(),
            proxies: Vec::new(),
        }
    }
}

impl Config {
    /// Lets site fetches connect to any address: loopback, private
    /// networks, link-local… (default: only public addresses). For a
    /// tester used on one's own machine or network, never for one exposed
    /// to others.
    pub fn allow_private_fetch(mut self, yes: bool) -> Self {
        self.allow_private_fetch = yes;
        self
    }

    /// Which addresses site fetches may connect to, instead of the choice
    /// of [`Config::allow_private_fetch`]: for a tester on a network whose
    /// own sites should be reachable, and nothing else private. The policy
    /// is applied after name resolution and on every redirect.
    pub fn address_policy(
        mut self,
        policy: robotrules_fetch::AddressPolicy,
    ) -> Self {
        self.address_policy = Some(policy);
        self
    }

    /// The largest request body accepted, in bytes (default 1 MiB).
    /// Larger requests are answered 413.
    pub fn max_body(mut self, bytes: usize) -> Self {
        self.max_body = bytes;
        self
    }

    /// How long a request may take in all (default 20 s); then it is
    /// answered 408.
    pub fn request_timeout(mut self, timeout: Duration) -> Self {
        self.request_timeout = timeout;
        self
    }

    /// How long a site fetch may take, redirects included (default
    /// 10 s); then the robots.txt is unreachable (timeout).
    pub fn fetch_timeout(mut self, timeout: Duration) -> Self {
        self.fetch_timeout = timeout;
        self
    }

    /// How many site fetches one client (an IPv4 address, or an IPv6
    /// /64) may start per minute, in a burst or spread out (default 10).
    /// Beyond that, fetches are answered 429 with `Retry-After`.
    pub fn fetches_per_minute(mut self, n: u32) -> Self {
        self.fetches_per_minute = n.max(1);
        self
    }

    /// How long a client may take to send a request's head, the first
    /// request's and each later one's on the connection (default 10 s);
    /// then [`serve`] closes the connection.
    pub fn header_timeout(mut self, timeout: Duration) -> Self {
        self.header_timeout = timeout;
        self
    }

    /// How many connections [`serve`] serves at once (default 256); more
    /// wait to be accepted.
    pub fn max_connections(mut self, n: usize) -> Self {
        self.max_connections = n.max(1);
        self
    }

    /// How long [`serve`] keeps a connection (default 2 min): then it
    /// finishes the answer in progress, within the request time limit,
    /// and closes it; clients open another. With the cap of
    /// [`Config::max_connections`], no client holds its places for
    /// longer, however slowly it reads. An answer that its client does
    /// not read at all ends its connection after the request time limit.
    pub fn max_connection_age(mut self, age: Duration) -> Self {
        self.max_connection_age = age;
        self
    }

    /// A host name that requests may name (in `Host`) besides `localhost`
    /// and loopback addresses, when [`serve`] listens on a loopback
    /// address: for a reverse proxy on the same machine that passes its
    /// own name on. See [`serve`].
    pub fn allow_host(mut self, name: impl Into<String>) -> Self {
        self.allowed_hosts.push(name.into().to_ascii_lowercase());
        self
    }

    /// A reverse proxy (by its address) whose `X-Forwarded-For` header is
    /// believed; repeat it for several. Behind a proxy every request comes
    /// from the proxy's address, so the fetch limit of
    /// [`Config::fetches_per_minute`] would hold for all clients at once:
    /// for a request from one of these addresses, the client is the
    /// right-most address of `X-Forwarded-For` (all its headers, in
    /// order) that is not itself one of them; what lies to its left,
    /// which the client may have written, is not read. Without the
    /// header, or with something else than an address on the way (such
    /// as `unknown` or a port), the proxy is the client. From any other
    /// address the header is ignored.
    pub fn trust_proxy(mut self, address: std::net::IpAddr) -> Self {
        self.proxies.push(address);
        self
    }
}

/// An error setting up the server.
#[derive(Debug)]
pub struct Error {
    message: String,
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

/// The page and the API as an axum [`Router`].
///
/// Serve it with connection info (`into_make_service_with_connect_info::
/// <SocketAddr>()`, as [`serve`] does) so that fetches are limited per
/// client; without it, all clients share one limit.
///
/// # Errors
///
/// If the HTTP client that fetches sites cannot be built.
pub fn router(config: &Config) -> Result<Router, Error> {
    api::router(config)
        .map_err(|e| Error { message: format!("cannot start: {e}") })
}

/// Serves the page and the API on `listener` until the process ends.
///
/// On a loopback address, requests must name a loopback host in `Host`
/// (`localhost`, `127.0.0.1`, `[::1]`, with any port) or one of
/// [`Config::allow_host`]; others are answered 403. A web page elsewhere
/// cannot then reach the tester through a name that it points at
/// 127.0.0.1 (DNS rebinding), which matters most with
/// [`Config::allow_private_fetch`].
///
/// # Errors
///
/// If the server cannot be set up ([`router`]) or accepting connections
/// fails.
pub async fn serve(
    listener: tokio::net::TcpListener,
    config: Config,
) -> std::io::Result<()> {
    use hyper_util::rt::{TokioIo, TokioTimer};
    use tower::ServiceExt;

    let mut app = router(&config).map_err(std::io::Error::other)?;
    if listener.local_addr()?.ip().is_loopback() {
        let allowed = std::sync::Arc::new(config.allowed_hosts.clone());
        app = app.layer(axum::middleware::from_fn(move |r, next| {
            api::loopback_host(std::sync::Arc::clone(&allowed), r, next)
        }));
    }
    let slots = std::sync::Arc::new(tokio::sync::Semaphore::new(
        config.max_connections,
    ));
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new()).header_read_timeout(config.header_timeout);
    loop {
        // A place first: beyond the cap, connections wait in the
        // listener's backlog, not in memory.
        let Ok(slot) = slots.clone().acquire_owned().await else {
            return Ok(());
        };
        let (stream, addr) = match listener.accept().await {
            Ok(accepted) => accepted,
            // Out of descriptors, or a connection reset before it was
            // accepted: the server goes on.
            Err(e) if is_transient(&e) => {
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
            Err(e) => return Err(e),
        };
        let service = app.clone().map_request(
            move |r: hyper::Request<hyper::body::Incoming>| {
                let mut r = r.map(axum::body::Body::new);
                r.extensions_mut().insert(ConnectInfo::<SocketAddr>(addr));
                r
            },
        );
        let service = hyper_util::service::TowerToHyperService::new(service);
        // A client that does not read its answer: the write that waits
        // on it fails.
        let mut stream = tokio_io_timeout::TimeoutStream::new(stream);
        stream.set_write_timeout(Some(config.request_timeout));
        let io = TokioIo::new(Box::pin(stream));
        let connection = http.serve_connection(io, service);
        let (age, grace) = (config.max_connection_age, config.request_timeout);
        tokio::spawn(async move {
            // A client that goes away, sends no head in time or reads
            // nothing ends only its own connection; one that reads its
            // answers too slowly to stall a write has the connection for
            // `age`, then the answer in progress (`grace` at most).
            let mut connection = std::pin::pin!(connection);
            tokio::select! {
                _ = connection.as_mut() => {}
                () = tokio::time::sleep(age) => {
                    connection.as_mut().graceful_shutdown();
                    let _ = tokio::time::timeout(grace, connection).await;
                }
            }
            drop(slot);
        });
    }
}

/// An accept error after which the server can go on.
fn is_transient(e: &std::io::Error) -> bool {
    use std::io::ErrorKind::*;
    matches!(e.kind(), ConnectionAborted | ConnectionReset | Interrupted)
        // EMFILE, ENFILE: out of file descriptors for now.
        || matches!(e.raw_os_error(), Some(23 | 24))
}
