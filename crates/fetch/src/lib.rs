//! The Robots Exclusion Protocol's access method (RFC 9309 §2.3), on top of
//! the [`robotrules`] parser: where a robots.txt lives, how to fetch it,
//! what each status code means, how much to read and how long to keep it.
//!
//! The most common robots.txt bug in crawlers is not in the parser: it is
//! a 503, a 429 or a timeout treated as "no robots.txt, allow everything".
//! Here "may I fetch this URL now?" is one call that gets those cases right:
//!
//! | result | verdict |
//! |---|---|
//! | 2xx | obey the file (at most 500 KiB of it) |
//! | 3xx | follow up to 5 redirects, across hosts; more, or a loop: as 4xx |
//! | 4xx except 407 and 429 | no robots.txt: everything allowed |
//! | 407, 429, 5xx, other codes | unreachable: everything disallowed, retried later (503 sooner) |
//! | DNS failure, timeout, reset, broken response | unreachable |
//! | unreachable over 30 days | the last good copy, or everything allowed |
//!
//! # Example: a crawler loop
//!
//! The cache is async and needs a [tokio] runtime; this example uses the
//! `macros` and `rt` features of tokio (`tokio = { version = "1",
//! features = ["macros", "rt"] }`; add `time` to sleep for a
//! `crawl-delay`).
//!
//! ```no_run
//! use robotrules_fetch::RobotsCache;
//!
//! #[tokio::main(flavor = "current_thread")]
//! async fn main() -> Result<(), Box<dyn std::error::Error>> {
//!     let cache = RobotsCache::new()?;
//!     for url in ["https://example.com/a", "https://example.com/b"] {
//!         // A crawler known by several names passes them all.
//!         let verdict = cache.is_allowed(&["MyCrawler"], url).await?;
//!         println!("{url}: {verdict}");
//!     }
//!     Ok(())
//! }
//! ```
//!
//! # Example: your own downloader
//!
//! The rules live in [`policy`], with no I/O. Downloading is a trait,
//! [`Download`], so a crawler can plug in its own HTTP stack and keep the
//! cache and the rules:
//!
//! ```
//! use std::sync::Arc;
//! use robotrules_fetch::{
//!     Authority, CacheConfig, Download, Failure, Response, RobotsCache,
//!     SystemClock,
//! };
//!
//! struct InMemory;
//!
//! impl Download for InMemory {
//!     async fn download(&self, site: &Authority) -> Result<Response, Failure> {
//!         match site.host() {
//!             "example.com" => Ok(Response::new(200, b"User-agent: *\nDisallow: /private\n".to_vec())),
//!             _ => Ok(Response::new(404, Vec::new())),
//!         }
//!     }
//! }
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let cache = RobotsCache::with(InMemory, CacheConfig::default(), Arc::new(SystemClock));
//! assert!(!cache.is_allowed(&["a"], "https://example.com/a/../private/x").await?.allowed);
//! assert!(cache.is_allowed(&["a"], "https://other.example/private").await?.allowed);
//! # Ok(())
//! # }
//! ```
//!
//! # Crate features
//!
//! * `ftp` (default): fetch `ftp://` robots.txt files (anonymous login).
//! * `serde` (off by default): `Serialize` for [`Report`] and the types it
//!   holds.
//!
//! # Untrusted input
//!
//! At most 500 KiB of a body is read, after content decoding, and then the
//! connection is dropped: a decompression bomb costs at most the cap.
//! Content codings (gzip, deflate, br, stacked, in any case) are undone in
//! one place, [`policy::Decoder`]; a coding it does not know, or a body
//! that does not decode, is a broken response (everything disallowed),
//! never rules. A body cut by the cap loses the line the cap went
//! through. The whole fetch, redirects included, has a time limit, and no
//! header value, however odd (a `Retry-After` in the year 30000), makes
//! it panic. URLs are judged as
//! they will be requested, after WHATWG normalisation.
//!
//! [tokio]: https://docs.rs/tokio

#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod address;
mod cache;
mod fetch;
pub mod policy;
mod report;
mod scope;

use std::fmt;

pub use url;

pub use crate::address::{is_public, AddressPolicy};
pub use crate::cache::{
    CacheConfig, Clock, ManualClock, Reason, RobotsCache, SystemClock, Verdict,
};
pub use crate::fetch::{
    Download, Failure, Fetch, Fetcher, FetcherConfig, Hop, Outcome, Response,
    Unavailable, Unreachable, MAX_TIMEOUT,
};
pub use crate::policy::{
    Access, DEFAULT_LIFETIME, MAX_BODY, MAX_REDIRECTS, UNREACHABLE_LIMIT,
};
pub use crate::report::{HopReport, Report, Summary};
pub use crate::scope::Authority;

/// What kind of [`Error`] happened.
#[derive(Clone, Copy, Debug, Eq, Hash, PartialEq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The URL is not absolute, or has no host.
    InvalidUrl,
    /// The URL's scheme is not `http`, `https` or `ftp`.
    UnsupportedScheme,
    /// The HTTP client could not be built.
    Client,
    /// The `User-Agent` given is not a valid HTTP header value.
    InvalidUserAgent,
}

/// An error: only for invalid input or setup. Fetch failures are not
/// errors; they are [`Outcome`]s.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Error {
    kind: ErrorKind,
    message: String,
}

impl Error {
    pub(crate) fn new(kind: ErrorKind, message: String) -> Error {
        Error { kind, message }
    }

    /// What kind of error this is.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            ErrorKind::InvalidUrl => "invalid URL",
            ErrorKind::UnsupportedScheme => "unsupported scheme",
            ErrorKind::Client => "cannot build the HTTP client",
            ErrorKind::InvalidUserAgent => "invalid user agent",
        };
        write!(f, "{what}: {}", self.message)
    }
}

impl std::error::Error for Error {}

// The README's examples use both crates, so they are tested from here.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
struct ReadmeDoctests;
