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
//! | 4xx except 429 | no robots.txt: everything allowed |
//! | 429, 5xx, other codes | unreachable: everything disallowed, retried later (503 sooner) |
//! | DNS failure, timeout, reset, broken response | unreachable |
//! | unreachable over 30 days | the last good copy, or everything allowed |
//!
//! # Example: a crawler loop
//!
//! ```no_run
//! use robotrules_fetch::RobotsCache;
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let cache = RobotsCache::new()?;
//! for url in ["https://example.com/a", "https://example.com/b"] {
//!     let verdict = cache.is_allowed("MyCrawler", url).await?;
//!     println!("{url}: {verdict}");
//! }
//! # Ok(())
//! # }
//! ```
//!
//! # Crate features
//!
//! * `ftp` (default): fetch `ftp://` robots.txt files (anonymous login).
//!
//! # Untrusted input
//!
//! At most 500 KiB of a body is read, after content decoding, and then the
//! connection is dropped: a decompression bomb costs at most the cap. The
//! whole fetch, redirects included, has a time limit.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod cache;
mod fetch;
mod scope;

use std::fmt;

pub use crate::cache::{
    CacheConfig, Clock, ManualClock, Reason, RobotsCache, SystemClock,
    Verdict, DEFAULT_LIFETIME, UNREACHABLE_LIMIT,
};
pub use crate::fetch::{
    Fetch, Fetcher, FetcherConfig, Hop, Outcome, Unavailable, Unreachable,
    MAX_BODY, MAX_REDIRECTS,
};
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
        };
        write!(f, "{what}: {}", self.message)
    }
}

impl std::error::Error for Error {}

// The README's examples use both crates, so they are tested from here.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
struct ReadmeDoctests;
