//! A shared cache of robots.txt fetches, and the crawler's question:
//! "may I fetch this URL now?" (RFC 9309 §2.3–§2.4).

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, SystemTime};

use robotrules::{Matcher, Robots, RuleKind};
use tokio::sync::OnceCell;
use url::Url;

use crate::fetch::{Download, Fetch, Fetcher, Unavailable, Unreachable};
use crate::policy::{self, Standing, State, Timing};
use crate::{Authority, Error, ErrorKind};

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

/// Settings of a [`RobotsCache`]. Build one with [`CacheConfig::default`]
/// and the setters.
#[derive(Clone, Debug)]
#[must_use]
pub struct CacheConfig {
    max_entries: usize,
    max_bytes: usize,
    timing: Timing,
}

impl Default for CacheConfig {
    fn default() -> Self {
        CacheConfig {
            max_entries: 10_000,
            max_bytes: 256 << 20,
            timing: Timing::default(),
        }
    }
}

impl CacheConfig {
    /// How many authorities are kept at most (default 10,000); the least
    /// recently used go first (approximately: a CLOCK ring, so that a hit
    /// costs no bookkeeping).
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
    /// (default and maximum 24 h). `Cache-Control: max-age`, less the
    /// response's `Age`, shortens it.
    pub fn lifetime(mut self, d: Duration) -> Self {
        self.timing = self.timing.lifetime(d);
        self
    }

    /// How long to wait before asking an unreachable site again (default
    /// 1 h), unless the server's `Retry-After` says otherwise (honoured up
    /// to 24 hours: see [`Timing::retry_at`]).
    pub fn retry(mut self, d: Duration) -> Self {
        self.timing = self.timing.retry(d);
        self
    }

    /// The same after a 503, which asks for sooner retries (default
    /// 5 min).
    pub fn retry_503(mut self, d: Duration) -> Self {
        self.timing = self.timing.retry_503(d);
        self
    }

    /// All the times at once.
    pub fn timing(mut self, timing: Timing) -> Self {
        self.timing = timing;
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
    /// The URL is the robots.txt itself, always allowed (RFC 9309 §2.2.2;
    /// see [`policy::is_exempt`]).
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
#[non_exhaustive]
pub struct Verdict {
    /// True if and only if the URL may be fetched.
    pub allowed: bool,
    /// Why.
    pub reason: Reason,
    /// True if the rules came from a copy kept past its lifetime because
    /// refreshing it failed.
    pub stale: bool,
    /// The crawler's `crawl-delay` in seconds, if its group has one
    /// (Google ignores it).
    pub crawl_delay: Option<f64>,
}

impl Verdict {
    fn fixed(allowed: bool, reason: Reason) -> Verdict {
        Verdict { allowed, reason, stale: false, crawl_delay: None }
    }
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let verdict = if self.allowed { "allowed" } else { "disallowed" };
        write!(f, "{verdict}")?;
        match &self.reason {
            Reason::Rule { line, kind, pattern } => {
                write!(f, " by line {line} ({kind}: {pattern})")?
            }
            Reason::NoRule => write!(f, ": no rule matches")?,
            Reason::RobotsTxt => write!(f, ": /robots.txt is always allowed")?,
            Reason::Unavailable(u) => {
                write!(f, ": no robots.txt ({u}), so everything is allowed")?
            }
            Reason::Unreachable { reason, until } => write!(
                f,
                ": robots.txt unreachable ({reason}), so everything is \
                 disallowed until {}",
                crate::report::http_date(*until)
            )?,
            Reason::UnreachableTooLong => write!(
                f,
                ": robots.txt unreachable for over 30 days and no copy is \
                 kept"
            )?,
        }
        if self.stale {
            write!(f, " (from a stale copy)")?;
        }
        Ok(())
    }
}

/// How many agent sets keep a compiled matcher per site.
const MATCHERS_PER_SITE: usize = 4;

/// A site's rules compiled for one crawler.
#[derive(Debug)]
struct Compiled {
    /// The rules it was built from (compared by address).
    robots: Arc<Robots>,
    agents: AgentsKey,
    matcher: Arc<Matcher>,
    crawl_delay: Option<f64>,
}

/// The compiled matchers of a site: the most recently used in the slot
/// itself (one crawler is the common case, and its check then touches no
/// other allocation), the others beside it.
#[derive(Debug, Default)]
struct Matchers {
    first: Option<Compiled>,
    rest: Vec<Compiled>,
}

#[cfg(test)]
impl Matchers {
    fn len(&self) -> usize {
        usize::from(self.first.is_some()) + self.rest.len()
    }
}

/// Agent names as one key (each name's length, 4 bytes, then its bytes),
/// kept inline when short.
#[derive(Debug)]
struct AgentsKey {
    len: usize,
    inline: [u8; AgentsKey::INLINE],
    long: Option<Box<[u8]>>,
}

impl AgentsKey {
    const INLINE: usize = 32;

    fn new(agents: &[&str]) -> AgentsKey {
        let mut key = Vec::new();
        for agent in agents {
            key.extend_from_slice(&(agent.len() as u32).to_le_bytes());
            key.extend_from_slice(agent.as_bytes());
        }
        let mut inline = [0; AgentsKey::INLINE];
        let long = if key.len() <= AgentsKey::INLINE {
            inline[..key.len()].copy_from_slice(&key);
            None
        } else {
            Some(key.clone().into_boxed_slice())
        };
        AgentsKey { len: key.len(), inline, long }
    }

    /// Returns true if and only if this is the key of `agents`.
    fn is(&self, agents: &[&str]) -> bool {
        let mut key = match &self.long {
            Some(long) => long,
            None => &self.inline[..self.len],
        };
        for agent in agents {
            let Some((len, rest)) = key.split_first_chunk::<4>() else {
                return false;
            };
            let len = u32::from_le_bytes(*len) as usize;
            if len != agent.len() || !rest.starts_with(agent.as_bytes()) {
                return false;
            }
            key = &rest[len..];
        }
        key.is_empty()
    }
}

#[derive(Debug)]
struct Slot {
    authority: Authority,
    /// Used since the clock hand last passed (see `Table`).
    used: AtomicBool,
    state: Mutex<State>,
    /// The fetch in progress: every check that finds the state expired
    /// shares its result, cacheable or not.
    flight: Mutex<Option<Arc<OnceCell<State>>>>,
    /// Most recently used first.
    matchers: Mutex<Matchers>,
}

impl Slot {
    /// Returns true if a fetch of this slot is under way: its callers
    /// wait for it, and callers to come must find it.
    fn in_flight(&self) -> bool {
        match self.flight.try_lock() {
            Ok(flight) => flight.as_ref().is_some_and(|f| f.get().is_none()),
            // Taken for a moment by a caller joining or ending the flight.
            Err(_) => true,
        }
    }

    /// A new slot, marked used: the hand passes it once before it may go.
    fn new(authority: Authority) -> Slot {
        Slot {
            authority,
            used: AtomicBool::new(true),
            state: Mutex::new(State::new()),
            flight: Mutex::new(None),
            matchers: Mutex::new(Matchers::default()),
        }
    }
}

#[derive(Debug)]
struct Held {
    slot: Arc<Slot>,
    /// The slot's bytes as counted in `Table::bytes`.
    bytes: usize,
}

/// The index, with running totals, and a CLOCK ring for eviction (an
/// approximation of least-recently-used that costs nothing on a hit:
/// one flag set in the slot). Every operation is O(1), amortised.
#[derive(Debug, Default)]
struct Table {
    slots: HashMap<Authority, Held>,
    ring: Vec<Arc<Slot>>,
    hand: usize,
    bytes: usize,
}

/// A caller's part in a flight (see [`RobotsCache::refresh`]): when it
/// goes, by the flight's end or by the caller's future being dropped (a
/// timeout, a cancelled task), the slot's flight is cleared if it has
/// ended or no other caller waits on it. A flight left by all its callers
/// before it ended so leaves no slot marked as under way (never evicted)
/// until its next check.
struct Leave<'a> {
    slot: &'a Slot,
    flight: Arc<OnceCell<State>>,
}

impl Drop for Leave<'_> {
    fn drop(&mut self) {
        let mut current = lock(&self.slot.flight);
        // Callers clone the flight only under this lock: two holders are
        // the slot and this caller.
        let last = Arc::strong_count(&self.flight) == 2;
        if current.as_ref().is_some_and(|f| Arc::ptr_eq(f, &self.flight))
            && (self.flight.get().is_some() || last)
        {
            *current = None;
        }
    }
}

impl Table {
    /// The position in the ring of the next slot to evict: the first one
    /// from the hand not used since the hand last passed, other than
    /// `keep` and those with a fetch under way (never evicted, so that
    /// concurrent checks share one fetch). Passing a slot clears its flag.
    fn victim(&mut self, keep: &Arc<Slot>) -> Option<usize> {
        let n = self.ring.len();
        for _ in 0..=2 * n {
            if self.hand >= n {
                self.hand = 0;
            }
            let slot = &self.ring[self.hand];
            if !Arc::ptr_eq(slot, keep)
                && !slot.used.swap(false, Relaxed)
                && !slot.in_flight()
            {
                return Some(self.hand);
            }
            self.hand += 1;
        }
        None
    }

    /// Drops the slot at ring position `at` from the index.
    fn forget(&mut self, at: usize) {
        let authority = &self.ring[at].authority;
        if let Some(held) = self.slots.remove(authority) {
            self.bytes -= held.bytes;
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// A cache of robots.txt files shared by any number of tasks, with the
/// RFC 9309 rules for status codes, redirects, size, lifetime and failure
/// (all of them in [`policy`]).
///
/// Concurrent checks of one authority share a single fetch. A file is
/// used for 24 hours, or for what is left of its `Cache-Control: max-age`
/// after its `Age` if shorter;
/// when a refresh fails the last good copy is used on. An unreachable site
/// disallows everything until the retry time; after 30 days unreachable
/// with no copy, it allows everything.
///
/// The downloader is the [`Fetcher`] unless another [`Download`] is given
/// to [`RobotsCache::with`].
///
/// # Example: a crawler loop
///
/// ```no_run
/// use robotrules_fetch::RobotsCache;
///
/// # async fn crawl(urls: Vec<String>) -> Result<(), Box<dyn std::error::Error>> {
/// let cache = RobotsCache::new()?;
/// for url in urls {
///     let verdict = cache.is_allowed(&["MyCrawler"], &url).await?;
///     if !verdict.allowed {
///         eprintln!("skip {url}: {verdict}");
///         continue;
///     }
///     if let Some(delay) = verdict.crawl_delay {
///         // A site may ask for any delay (days, 1e30 s): cap it.
///         let delay = delay.min(60.0);
///         tokio::time::sleep(std::time::Duration::from_secs_f64(delay)).await;
///     }
///     // fetch `url` ...
/// }
/// # Ok(())
/// # }
/// ```
pub struct RobotsCache<D = Fetcher> {
    downloader: D,
    clock: Arc<dyn Clock>,
    config: CacheConfig,
    table: Mutex<Table>,
}

impl<D> std::fmt::Debug for RobotsCache<D> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RobotsCache").field("config", &self.config).finish()
    }
}

impl RobotsCache<Fetcher> {
    /// A cache with the default fetcher, settings and system clock.
    ///
    /// # Errors
    ///
    /// As for [`Fetcher::new`].
    pub fn new() -> Result<RobotsCache<Fetcher>, Error> {
        Ok(RobotsCache::with(
            Fetcher::new()?,
            CacheConfig::default(),
            Arc::new(SystemClock),
        ))
    }
}

impl<D: Download> RobotsCache<D> {
    /// A cache with the given downloader, settings and clock.
    pub fn with(
        downloader: D,
        config: CacheConfig,
        clock: Arc<dyn Clock>,
    ) -> RobotsCache<D> {
        RobotsCache {
            downloader,
            clock,
            config,
            table: Mutex::new(Table::default()),
        }
    }

    /// Returns whether a crawler known by the names `agents` (merged as
    /// one crawler, as [`Robots::matcher`] does) may fetch `url` now, and
    /// why, fetching the robots.txt of the URL's authority if it is not
    /// cached or has expired.
    ///
    /// The URL judged is the one that will be requested: `url` is parsed
    /// as a browser would (WHATWG), so dot segments (`/a/../private`,
    /// `%2e%2e`), backslashes and tabs cannot hide a path from the rules
    /// (see [`policy::target`]). `/robots.txt` itself is always allowed
    /// ([`policy::is_exempt`]).
    ///
    /// # Errors
    ///
    /// Only for a URL that is not an absolute `http`, `https` or `ftp` URL.
    pub async fn is_allowed(
        &self,
        agents: &[&str],
        url: &str,
    ) -> Result<Verdict, Error> {
        let parsed = Url::parse(url).map_err(|e| {
            Error::new(ErrorKind::InvalidUrl, format!("{url:?}: {e}"))
        })?;
        self.is_allowed_url(agents, &parsed).await
    }

    /// [`RobotsCache::is_allowed`] for a URL already parsed.
    ///
    /// # Errors
    ///
    /// Only for a URL that is not an `http`, `https` or `ftp` URL with a
    /// host.
    pub async fn is_allowed_url(
        &self,
        agents: &[&str],
        url: &Url,
    ) -> Result<Verdict, Error> {
        let Some(key) = crate::scope::key_of(url) else {
            // Says which of the two is wrong.
            return Err(Authority::of_url(url).err().unwrap_or_else(|| {
                Error::new(ErrorKind::InvalidUrl, url.to_string())
            }));
        };
        if policy::is_exempt(url) {
            return Ok(Verdict::fixed(true, Reason::RobotsTxt));
        }
        let slot = self.slot(&key, url)?;
        let target = policy::target(url);
        let now = self.clock.now();
        {
            let state = lock(&slot.state);
            if state.is_fresh(now) {
                return Ok(self.judge(&slot, &state, now, agents, &target));
            }
        }
        let state = self.refresh(&slot).await;
        Ok(self.judge(&slot, &state, self.clock.now(), agents, &target))
    }

    /// The number of authorities cached.
    pub fn len(&self) -> usize {
        lock(&self.table).slots.len()
    }

    /// Returns true if and only if nothing is cached.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The body bytes cached, over all authorities.
    pub fn bytes(&self) -> usize {
        lock(&self.table).bytes
    }

    /// The slot of the authority `key` of `url`, created if need be,
    /// marked as used.
    fn slot(&self, key: &str, url: &Url) -> Result<Arc<Slot>, Error> {
        let mut table = lock(&self.table);
        if let Some(held) = table.slots.get(key) {
            if !held.slot.used.load(Relaxed) {
                held.slot.used.store(true, Relaxed);
            }
            return Ok(held.slot.clone());
        }
        let authority = Authority::of_url(url)?;
        let slot = Arc::new(Slot::new(authority.clone()));
        table.slots.insert(authority, Held { slot: slot.clone(), bytes: 0 });
        // At the bound, the new slot takes the place of the one evicted,
        // just behind the hand: the last to be looked at again.
        let full = table.ring.len() >= self.config.max_entries;
        match full.then(|| table.victim(&slot)).flatten() {
            Some(at) => {
                table.forget(at);
                table.ring[at] = slot.clone();
                table.hand = at + 1;
            }
            None => table.ring.push(slot.clone()),
        }
        self.evict(&mut table, &slot);
        Ok(slot)
    }

    /// Counts the slot's new size, if it is still cached, and evicts.
    fn account(&self, slot: &Arc<Slot>, bytes: usize) {
        let mut table = lock(&self.table);
        let table = &mut *table;
        if let Some(held) = table.slots.get_mut(&slot.authority) {
            if Arc::ptr_eq(&held.slot, slot) {
                table.bytes = table.bytes - held.bytes + bytes;
                held.bytes = bytes;
            }
        }
        self.evict(table, slot);
    }

    /// Drops entries beyond the bounds, the least recently used first
    /// (approximately), never the one in use.
    fn evict(&self, table: &mut Table, keep: &Arc<Slot>) {
        while table.slots.len() > self.config.max_entries
            || table.bytes > self.config.max_bytes
        {
            let Some(at) = table.victim(keep) else { return };
            table.forget(at);
            table.ring.swap_remove(at);
        }
    }

    /// Fetches the robots.txt and records it; concurrent callers share
    /// the one fetch in flight and its result.
    async fn refresh(&self, slot: &Arc<Slot>) -> State {
        let flight =
            lock(&slot.flight).get_or_insert_with(Default::default).clone();
        let flight = Leave { slot, flight };
        flight
            .flight
            .get_or_init(|| async {
                let timing = &self.config.timing;
                let now = self.clock.now();
                {
                    // A flight that ended just before this one began.
                    let state = lock(&slot.state);
                    if state.is_fresh(now) {
                        return state.clone();
                    }
                }
                let downloaded =
                    self.downloader.download(&slot.authority).await;
                let fetch = Fetch::new(&slot.authority, downloaded);
                let (state, bytes) = {
                    let mut state = lock(&slot.state);
                    state.record(&fetch, self.clock.now(), timing);
                    (state.clone(), state.bytes())
                };
                self.account(slot, bytes);
                state
            })
            .await
            .clone()
    }

    /// The verdict for `target` (see [`policy::target`]) by `state`.
    fn judge(
        &self,
        slot: &Slot,
        state: &State,
        now: SystemTime,
        agents: &[&str],
        target: &str,
    ) -> Verdict {
        let (robots, stale) = match state.standing(now, &self.config.timing) {
            Standing::Obey { robots, stale } => (robots, stale),
            Standing::Fixed { allowed, reason } => {
                return Verdict::fixed(allowed, reason)
            }
        };
        let (matcher, crawl_delay) = compiled(slot, robots, agents);
        let decision = matcher.decide(target);
        let reason = match decision.rule() {
            Some(rule) => Reason::Rule {
                line: rule.line(),
                kind: rule.kind(),
                pattern: String::from_utf8_lossy(rule.as_written())
                    .into_owned(),
            },
            None => Reason::NoRule,
        };
        Verdict { allowed: decision.is_allowed(), reason, stale, crawl_delay }
    }
}

/// The matcher of `robots` for `agents`, built on first use and kept for
/// a few agent sets per site.
fn compiled(
    slot: &Slot,
    robots: &Arc<Robots>,
    agents: &[&str],
) -> (Arc<Matcher>, Option<f64>) {
    let mut guard = lock(&slot.matchers);
    let matchers = &mut *guard;
    let is =
        |c: &Compiled| Arc::ptr_eq(&c.robots, robots) && c.agents.is(agents);
    if let Some(c) = matchers.first.as_ref().filter(|c| is(c)) {
        return (c.matcher.clone(), c.crawl_delay);
    }
    let compiled = match matchers.rest.iter().position(is) {
        Some(at) => matchers.rest.remove(at),
        None => Compiled {
            robots: robots.clone(),
            agents: AgentsKey::new(agents),
            matcher: Arc::new(robots.matcher(agents)),
            crawl_delay: robots
                .select(agents)
                .groups()
                .find_map(|g| g.crawl_delay()),
        },
    };
    let answer = (compiled.matcher.clone(), compiled.crawl_delay);
    if let Some(previous) = matchers.first.replace(compiled) {
        matchers.rest.insert(0, previous);
    }
    // Matchers of rules no longer in force go.
    matchers.rest.retain(|c| Arc::ptr_eq(&c.robots, robots));
    matchers.rest.truncate(MATCHERS_PER_SITE - 1);
    answer
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::UNIX_EPOCH;

    #[test]
    fn verdicts_show_dates() {
        let v = Verdict::fixed(
            false,
            Reason::Unreachable {
                reason: Unreachable::Status(503),
                until: UNIX_EPOCH + Duration::from_secs(1_795_346_333),
            },
        );
        assert_eq!(
            v.to_string(),
            "disallowed: robots.txt unreachable (503), so everything is \
             disallowed until Sun, 22 Nov 2026 11:18:53 GMT"
        );
        let v = Verdict::fixed(true, Reason::RobotsTxt);
        assert_eq!(v.to_string(), "allowed: /robots.txt is always allowed");
    }

    #[test]
    fn agent_keys() {
        let key = AgentsKey::new(&["a", "bc"]);
        assert!(key.is(&["a", "bc"]));
        assert!(!key.is(&["a"]));
        assert!(!key.is(&["a", "bc", "d"]));
        assert!(!key.is(&["ab", "c"]));
        assert!(!key.is(&["bc", "a"]));
        assert!(AgentsKey::new(&[]).is(&[]));
        assert!(AgentsKey::new(&[""]).is(&[""]));
        assert!(!AgentsKey::new(&[""]).is(&[]));
        let long = ["Googlebot", "Googlebot-Image", "Googlebot-News"];
        let key = AgentsKey::new(&long);
        assert!(key.long.is_some());
        assert!(key.is(&long));
        assert!(!key.is(&long[..2]));
    }

    #[test]
    fn matchers_are_kept_per_agent_set() {
        let slot = Slot::new(Authority::of("http://h/").unwrap());
        let robots = Arc::new(Robots::parse(
            b"user-agent: a\ncrawl-delay: 3\ndisallow: /x\n",
        ));
        let (first, delay) = compiled(&slot, &robots, &["a"]);
        assert_eq!(delay, Some(3.0));
        let (again, _) = compiled(&slot, &robots, &["a"]);
        assert!(Arc::ptr_eq(&first, &again));
        for name in ["b", "c", "d", "e"] {
            compiled(&slot, &robots, &[name]);
        }
        assert_eq!(lock(&slot.matchers).len(), MATCHERS_PER_SITE);
        let (e1, _) = compiled(&slot, &robots, &["e"]);
        let (e2, _) = compiled(&slot, &robots, &["e"]);
        assert!(Arc::ptr_eq(&e1, &e2), "the most recent is kept");
        let (d, _) = compiled(&slot, &robots, &["d"]);
        assert!(Arc::ptr_eq(&d, &compiled(&slot, &robots, &["d"]).0));
        let (rebuilt, _) = compiled(&slot, &robots, &["a"]);
        assert!(!Arc::ptr_eq(&first, &rebuilt), "evicted, then rebuilt");
        let newer = Arc::new(Robots::parse(b""));
        compiled(&slot, &newer, &["a"]);
        assert_eq!(lock(&slot.matchers).len(), 1, "old rules' matchers go");
    }
}
