//! A shared cache of robots.txt fetches, and the crawler's question:
//! "may I fetch this URL now?" (REP.md §2–§3).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use robotrules::{Robots, RuleKind};

use crate::fetch::{Fetch, Fetcher, Outcome, Unavailable, Unreachable};
use crate::{Authority, Error};

/// How long a fetched robots.txt is used by default (RFC 9309: generally
/// up to 24 hours).
pub const DEFAULT_LIFETIME: Duration = Duration::from_secs(24 * 3600);

/// After this long unreachable, a site with no cached copy is treated as
/// having no robots.txt (Google: 30 days).
pub const UNREACHABLE_LIMIT: Duration = Duration::from_secs(30 * 24 * 3600);

/// A source of the current time, so that tests can move it.
pub trait Clock: Send + Sync + 'static {
    /// Now.
    fn now(&self) -> SystemTime;
}

/// The system's clock.
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> SystemTime {
        SystemTime::now()
    }
}

/// A clock that moves only when told to.
///
/// # Example
///
/// ```
/// use std::time::{Duration, UNIX_EPOCH};
/// use robotrules_fetch::{Clock, ManualClock};
///
/// let clock = ManualClock::new(UNIX_EPOCH);
/// clock.advance(Duration::from_secs(60));
/// assert_eq!(clock.now(), UNIX_EPOCH + Duration::from_secs(60));
/// ```
#[derive(Debug)]
pub struct ManualClock(Mutex<SystemTime>);

impl ManualClock {
    /// A clock that reads `start` until advanced.
    pub fn new(start: SystemTime) -> ManualClock {
        ManualClock(Mutex::new(start))
    }

    /// Moves the clock forward.
    pub fn advance(&self, by: Duration) {
        let mut now = self.0.lock().unwrap_or_else(|e| e.into_inner());
        *now += by;
    }
}

impl Clock for ManualClock {
    fn now(&self) -> SystemTime {
        *self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Settings of a [`RobotsCache`].
#[derive(Clone, Debug)]
#[must_use]
pub struct CacheConfig {
    max_entries: usize,
    max_bytes: usize,
    lifetime: Duration,
    retry: Duration,
    retry_503: Duration,
}

impl Default for CacheConfig {
    fn default() -> Self {
        CacheConfig {
            max_entries: 10_000,
            max_bytes: 256 << 20,
            lifetime: DEFAULT_LIFETIME,
            retry: Duration::from_secs(3600),
            retry_503: Duration::from_secs(300),
        }
    }
}

impl CacheConfig {
    /// How many authorities are kept at most (default 10,000); the least
    /// recently used go first.
    pub fn max_entries(mut self, n: usize) -> Self {
        self.max_entries = n.max(1);
        self
    }

    /// How many body bytes are kept at most, over all entries (default
    /// 256 MiB).
    pub fn max_bytes(mut self, n: usize) -> Self {
        self.max_bytes = n;
        self
    }

    /// How long a fetched file is used when the response says nothing
    /// (default 24 h). `Cache-Control: max-age` shortens it.
    pub fn lifetime(mut self, d: Duration) -> Self {
        self.lifetime = d;
        self
    }

    /// How long to wait before asking an unreachable site again (default
    /// 1 h; `Retry-After` is honoured up to this).
    pub fn retry(mut self, d: Duration) -> Self {
        self.retry = d;
        self
    }

    /// The same after a 503, which asks for sooner retries (default
    /// 5 min).
    pub fn retry_503(mut self, d: Duration) -> Self {
        self.retry_503 = d;
        self
    }
}

/// Why a URL is allowed or not.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Reason {
    /// A rule of the robots.txt decided (line, kind, pattern as written).
    Rule {
        /// The rule's line.
        line: u32,
        /// Allow or disallow.
        kind: RuleKind,
        /// The pattern as written.
        pattern: String,
    },
    /// No rule matched the URL: allowed.
    NoRule,
    /// The URL is the robots.txt itself, always allowed (RFC 9309 §2.2.2).
    RobotsTxt,
    /// There is no robots.txt (a 4xx, or too many redirects): allowed.
    Unavailable(Unavailable),
    /// The robots.txt could not be fetched: disallowed until `until`.
    Unreachable {
        /// What went wrong.
        reason: Unreachable,
        /// When the site will be asked again.
        until: SystemTime,
    },
    /// Unreachable for more than 30 days with no copy to fall back on:
    /// treated as having no robots.txt.
    UnreachableTooLong,
}

/// The answer to "may this crawler fetch this URL now?".
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    /// True if and only if the URL may be fetched.
    pub allowed: bool,
    /// Why.
    pub reason: Reason,
    /// True if the rules came from a copy kept past its lifetime because
    /// refreshing it failed.
    pub stale: bool,
    /// The crawler's `crawl-delay` in seconds, if its group has one
    /// (REP.md §9; Google ignores it).
    pub crawl_delay: Option<f64>,
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let verdict = if self.allowed { "allowed" } else { "disallowed" };
        match &self.reason {
            Reason::Rule { line, kind, pattern } => write!(f, "{verdict} by line {line} ({kind}: {pattern})")?,
            Reason::NoRule => write!(f, "{verdict}: no rule matches")?,
            Reason::RobotsTxt => write!(f, "{verdict}: /robots.txt is always allowed")?,
            Reason::Unavailable(u) => write!(f, "{verdict}: no robots.txt ({u}), so everything is allowed")?,
            Reason::Unreachable { reason, until } => {
                let secs = until.duration_since(SystemTime::UNIX_EPOCH).map_or(0, |d| d.as_secs());
                write!(f, "{verdict}: robots.txt unreachable ({reason}), so everything is disallowed until unix time {secs}")?
            }
            Reason::UnreachableTooLong => {
                write!(f, "{verdict}: robots.txt unreachable for over 30 days and no copy is kept")?
            }
        }
        if self.stale {
            write!(f, " (from a stale copy)")?;
        }
        Ok(())
    }
}

/// What is known about one authority.
#[derive(Debug, Default)]
struct Entry {
    /// The rules in force, when the last fetch gave some.
    robots: Option<Arc<Robots>>,
    /// The last good copy, kept for when refreshing fails.
    last_good: Option<Arc<Robots>>,
    /// The outcome in force when it is not `Available`.
    failure: Option<Outcome>,
    expires: Option<SystemTime>,
    unreachable_since: Option<SystemTime>,
    bytes: usize,
}

#[derive(Debug, Default)]
struct Slot {
    /// Held while fetching, so that one fetch serves every waiting task.
    fetching: tokio::sync::Mutex<()>,
    entry: Mutex<Entry>,
}

#[derive(Debug, Default)]
struct Table {
    slots: HashMap<Authority, (Arc<Slot>, u64)>,
    tick: u64,
}

/// A cache of robots.txt files shared by any number of tasks, with the
/// RFC 9309 rules for status codes, redirects, size, lifetime and failure.
///
/// Concurrent checks of one authority cause a single fetch. A file is used
/// for 24 hours, or for its `Cache-Control: max-age` if shorter; when a
/// refresh fails the last good copy is used on. An unreachable site
/// disallows everything until the retry time; after 30 days unreachable
/// with no copy, it allows everything.
///
/// # Example: a crawler loop
///
/// ```no_run
/// use robotrules_fetch::RobotsCache;
///
/// # async fn crawl(urls: Vec<String>) -> Result<(), Box<dyn std::error::Error>> {
/// let cache = RobotsCache::new()?;
/// for url in urls {
///     let verdict = cache.is_allowed("MyCrawler", &url).await?;
///     if !verdict.allowed {
///         eprintln!("skip {url}: {verdict}");
///         continue;
///     }
///     if let Some(delay) = verdict.crawl_delay {
///         tokio::time::sleep(std::time::Duration::from_secs_f64(delay)).await;
///     }
///     // fetch `url` ...
/// }
/// # Ok(())
/// # }
/// ```
pub struct RobotsCache {
    fetcher: Fetcher,
    clock: Arc<dyn Clock>,
    config: CacheConfig,
    table: Mutex<Table>,
}

impl std::fmt::Debug for RobotsCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RobotsCache").field("config", &self.config).finish()
    }
}

impl RobotsCache {
    /// A cache with the default fetcher, settings and system clock.
    ///
    /// # Errors
    ///
    /// As for [`Fetcher::new`].
    pub fn new() -> Result<RobotsCache, Error> {
        Ok(RobotsCache::with(
            Fetcher::new()?,
            CacheConfig::default(),
            Arc::new(SystemClock),
        ))
    }

    /// A cache with the given fetcher, settings and clock.
    pub fn with(
        fetcher: Fetcher,
        config: CacheConfig,
        clock: Arc<dyn Clock>,
    ) -> RobotsCache {
        RobotsCache {
            fetcher,
            clock,
            config,
            table: Mutex::new(Table::default()),
        }
    }

    /// Returns whether `agent` may fetch `url` now, and why, fetching the
    /// robots.txt of the URL's authority if it is not cached or has
    /// expired.
    ///
    /// # Errors
    ///
    /// Only for a URL that is not an absolute `http`, `https` or `ftp` URL.
    pub async fn is_allowed(
        &self,
        agent: &str,
        url: &str,
    ) -> Result<Verdict, Error> {
        let parsed = url::Url::parse(url).map_err(|e| {
            Error::new(crate::ErrorKind::InvalidUrl, format!("{url:?}: {e}"))
        })?;
        let authority = Authority::of_url(&parsed)?;
        if parsed.path() == "/robots.txt" {
            return Ok(Verdict {
                allowed: true,
                reason: Reason::RobotsTxt,
                stale: false,
                crawl_delay: None,
            });
        }
        let slot = self.slot(&authority);
        self.refresh(&slot, &authority).await;
        let entry = slot.entry.lock().unwrap_or_else(|e| e.into_inner());
        Ok(self.judge(&entry, agent, url))
    }

    /// The number of authorities cached.
    pub fn len(&self) -> usize {
        self.table.lock().unwrap_or_else(|e| e.into_inner()).slots.len()
    }

    /// Returns true if and only if nothing is cached.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn slot(&self, authority: &Authority) -> Arc<Slot> {
        let mut table = self.table.lock().unwrap_or_else(|e| e.into_inner());
        table.tick += 1;
        let tick = table.tick;
        let slot = table
            .slots
            .entry(authority.clone())
            .or_insert_with(|| (Arc::new(Slot::default()), tick));
        slot.1 = tick;
        let slot = slot.0.clone();
        self.evict(&mut table, authority);
        slot
    }

    /// Drops the least recently used entries beyond the bounds, never the
    /// one in use.
    fn evict(&self, table: &mut Table, keep: &Authority) {
        loop {
            let bytes: usize = table
                .slots
                .values()
                .map(|(s, _)| s.entry.lock().map_or(0, |e| e.bytes))
                .sum();
            if table.slots.len() <= self.config.max_entries
                && bytes <= self.config.max_bytes
            {
                return;
            }
            let oldest = table
                .slots
                .iter()
                .filter(|(k, _)| *k != keep)
                .min_by_key(|(_, (_, tick))| *tick)
                .map(|(k, _)| k.clone());
            match oldest {
                Some(k) => {
                    table.slots.remove(&k);
                }
                None => return,
            }
        }
    }

    /// Fetches the robots.txt if the entry has expired; one task fetches
    /// while the others wait for it.
    async fn refresh(&self, slot: &Slot, authority: &Authority) {
        let fresh = |slot: &Slot| {
            let entry = slot.entry.lock().unwrap_or_else(|e| e.into_inner());
            entry.expires.is_some_and(|t| self.clock.now() < t)
        };
        if fresh(slot) {
            return;
        }
        let _guard = slot.fetching.lock().await;
        if fresh(slot) {
            return;
        }
        let fetch = self.fetcher.fetch(authority).await;
        {
            let mut entry =
                slot.entry.lock().unwrap_or_else(|e| e.into_inner());
            self.record(&mut entry, fetch);
        }
        let mut table = self.table.lock().unwrap_or_else(|e| e.into_inner());
        self.evict(&mut table, authority);
    }

    fn record(&self, entry: &mut Entry, fetch: Fetch) {
        let now = self.clock.now();
        match &fetch.outcome {
            Outcome::Available(robots) => {
                let lifetime =
                    fetch.max_age.map_or(self.config.lifetime, |age| {
                        age.min(self.config.lifetime)
                    });
                let lifetime = if fetch.no_store || fetch.no_cache {
                    Duration::ZERO
                } else {
                    lifetime
                };
                entry.robots = Some(robots.clone());
                // `no-store`: use it for this request only, keep nothing.
                entry.last_good =
                    if fetch.no_store { None } else { Some(robots.clone()) };
                entry.failure = None;
                entry.unreachable_since = None;
                entry.bytes =
                    if fetch.no_store { 0 } else { fetch.bytes_read };
                entry.expires = Some(now + lifetime);
            }
            Outcome::Unavailable(_) => {
                let lifetime =
                    fetch.max_age.map_or(self.config.lifetime, |age| {
                        age.min(self.config.lifetime)
                    });
                entry.robots = None;
                entry.last_good = None;
                entry.failure = Some(fetch.outcome.clone());
                entry.unreachable_since = None;
                entry.bytes = 0;
                entry.expires = Some(now + lifetime);
            }
            Outcome::Unreachable(reason) => {
                let base = if *reason == Unreachable::Status(503) {
                    self.config.retry_503
                } else {
                    self.config.retry
                };
                let retry = fetch
                    .retry_after
                    .map_or(base, |r| r.min(self.config.retry));
                entry.robots = None;
                entry.failure = Some(fetch.outcome.clone());
                entry.unreachable_since.get_or_insert(now);
                entry.expires = Some(now + retry);
            }
        }
    }

    fn judge(&self, entry: &Entry, agent: &str, url: &str) -> Verdict {
        let from_rules = |robots: &Robots, stale: bool| {
            let decision = robots.decide(&[agent], url);
            let reason = match decision.rule() {
                Some(rule) => Reason::Rule {
                    line: rule.line(),
                    kind: rule.kind(),
                    pattern: String::from_utf8_lossy(rule.as_written())
                        .into_owned(),
                },
                None => Reason::NoRule,
            };
            let crawl_delay =
                robots.select(&[agent]).groups().find_map(|g| g.crawl_delay());
            Verdict {
                allowed: decision.is_allowed(),
                reason,
                stale,
                crawl_delay,
            }
        };
        if let Some(robots) = &entry.robots {
            return from_rules(robots, false);
        }
        match &entry.failure {
            Some(Outcome::Unavailable(u)) => Verdict {
                allowed: true,
                reason: Reason::Unavailable(*u),
                stale: false,
                crawl_delay: None,
            },
            Some(Outcome::Unreachable(reason)) => {
                if let Some(copy) = &entry.last_good {
                    return from_rules(copy, true);
                }
                let since = entry
                    .unreachable_since
                    .unwrap_or_else(|| self.clock.now());
                let long = self
                    .clock
                    .now()
                    .duration_since(since)
                    .is_ok_and(|d| d > UNREACHABLE_LIMIT);
                if long {
                    Verdict {
                        allowed: true,
                        reason: Reason::UnreachableTooLong,
                        stale: false,
                        crawl_delay: None,
                    }
                } else {
                    let until =
                        entry.expires.unwrap_or_else(|| self.clock.now());
                    Verdict {
                        allowed: false,
                        reason: Reason::Unreachable {
                            reason: reason.clone(),
                            until,
                        },
                        stale: false,
                        crawl_delay: None,
                    }
                }
            }
            _ => Verdict {
                allowed: false,
                reason: Reason::Unreachable {
                    reason: Unreachable::Timeout,
                    until: self.clock.now(),
                },
                stale: false,
                crawl_delay: None,
            },
        }
    }
}
