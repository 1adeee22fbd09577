//! The RFC 9309 access method of `robotrules-fetch`: a blocking fetch, a
//! blocking cache, and the sans-IO policy for crawlers with their own
//! HTTP client.

use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyString};
use robotrules_fetch::policy::{self, Access};
use robotrules_fetch::url::Url;
use robotrules_fetch::{
    Authority, CacheConfig, ErrorKind, Fetch, Fetcher, FetcherConfig, Outcome,
    Reason, Response, RobotsCache, Verdict, MAX_TIMEOUT,
};

use crate::convert::{self, slices};
use crate::robots::{PyDecision, PyRobots};

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyFetchResult>()?;
    m.add_class::<PyCache>()?;
    m.add_class::<PyCacheVerdict>()?;
    m.add_function(wrap_pyfunction!(fetch, m)?)?;
    m.add_function(wrap_pyfunction!(evaluate, m)?)?;
    m.add_function(wrap_pyfunction!(robots_url, m)?)?;
    m.add_function(wrap_pyfunction!(is_exempt, m)?)?;
    m.add("MAX_BODY", robotrules_fetch::MAX_BODY)?;
    m.add("MAX_REDIRECTS", robotrules_fetch::MAX_REDIRECTS)?;
    m.add(
        "DEFAULT_LIFETIME",
        robotrules_fetch::DEFAULT_LIFETIME.as_secs_f64(),
    )?;
    Ok(())
}

/// The async runtime for blocking calls, one per process: a runtime's
/// threads do not survive `fork` (multiprocessing, Spark workers), so a
/// child makes its own.
fn runtime() -> PyResult<Arc<tokio::runtime::Runtime>> {
    static RUNTIME: Mutex<Option<(u32, Arc<tokio::runtime::Runtime>)>> =
        Mutex::new(None);
    let pid = std::process::id();
    let mut slot = RUNTIME.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((owner, rt)) = slot.as_ref() {
        if *owner == pid {
            return Ok(Arc::clone(rt));
        }
    }
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .thread_name("robotrules-fetch")
        .enable_all()
        .build()
        .map_err(|e| {
            PyRuntimeError::new_err(format!("cannot start the runtime: {e}"))
        })?;
    let rt = Arc::new(rt);
    // A runtime inherited through fork is leaked, not dropped: dropping
    // it would wait for threads that do not exist in this process.
    if let Some((_, old)) = slot.replace((pid, Arc::clone(&rt))) {
        std::mem::forget(old);
    }
    Ok(rt)
}

/// How often a blocking call looks for Ctrl-C.
const SIGNALS: std::time::Duration = std::time::Duration::from_millis(50);

/// Runs `future` on `rt` without holding the GIL, and looks for Python's
/// signals (Ctrl-C) every 50 ms: a `KeyboardInterrupt` (or whatever a
/// signal handler raises) is raised at once, and the future dropped,
/// which gives up its fetch.
fn wait<F>(
    py: Python<'_>,
    rt: &tokio::runtime::Runtime,
    future: F,
) -> PyResult<F::Output>
where
    F: std::future::Future + Send,
    F::Output: Send,
{
    let mut future = std::pin::pin!(future);
    loop {
        let done = py.detach(|| {
            rt.block_on(async {
                tokio::time::timeout(SIGNALS, &mut future).await.ok()
            })
        });
        if let Some(out) = done {
            return Ok(out);
        }
        py.check_signals()?;
    }
}

/// An absolute `http`, `https` or `ftp` URL argument.
fn site_url(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<(Url, Authority)> {
    let text = convert::text(obj, name)?;
    let url = Url::parse(&text).map_err(|e| {
        PyValueError::new_err(format!(
            "{name} must be an absolute URL (http, https or ftp): {text:?}: {e}"
        ))
    })?;
    let authority = Authority::of_url(&url)
        .map_err(|e| PyValueError::new_err(format!("{name}: {e}")))?;
    Ok((url, authority))
}

/// `max_entries`: an int from 1 up.
fn entries(obj: &Bound<'_, PyAny>) -> PyResult<usize> {
    // `True` is an `int` to Python, but no number of entries.
    if !obj.is_instance_of::<pyo3::types::PyInt>()
        || obj.is_instance_of::<pyo3::types::PyBool>()
    {
        return Err(convert::type_error("max_entries", "an int", obj));
    }
    match obj.extract::<usize>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(PyValueError::new_err(format!(
            "max_entries must be an int from 1 up, not {obj}"
        ))),
    }
}

fn seconds(obj: Option<f64>, name: &str) -> PyResult<Option<Duration>> {
    match obj {
        None => Ok(None),
        Some(s) if s > 0.0 && s <= MAX_TIMEOUT.as_secs_f64() => {
            Ok(Some(Duration::from_secs_f64(s)))
        }
        Some(s) => Err(PyValueError::new_err(format!(
            "{name} must be a number of seconds above 0 and at most {} \
             (a day), not {s}",
            MAX_TIMEOUT.as_secs()
        ))),
    }
}

fn fetcher(
    user_agent: Option<String>,
    timeout: Option<&Bound<'_, PyAny>>,
) -> PyResult<Fetcher> {
    let mut config = FetcherConfig::default();
    if let Some(ua) = user_agent {
        config = config.user_agent(ua);
    }
    let timeout = match timeout.filter(|t| !t.is_none()) {
        None => None,
        // `True` is a number to Python, but no time.
        Some(t) if t.is_instance_of::<pyo3::types::PyBool>() => {
            return Err(convert::type_error("timeout", "a number", t));
        }
        Some(t) => Some(
            t.extract::<f64>()
                .map_err(|_| convert::type_error("timeout", "a number", t))?,
        ),
    };
    if let Some(t) = seconds(timeout, "timeout")? {
        config = config.timeout(t).connect_timeout(t);
    }
    config.build().map_err(|e| match e.kind() {
        ErrorKind::InvalidUserAgent => {
            PyValueError::new_err(format!("user_agent: {e}"))
        }
        _ => PyRuntimeError::new_err(e.to_string()),
    })
}

fn access_name(access: Access) -> &'static str {
    match access {
        Access::Obey => "obey",
        Access::AllowAll => "allow-all",
        _ => "disallow-all",
    }
}

/// What fetching a robots.txt came to, judged by RFC 9309: the status
/// class, the rules if there are any, and how long to keep the result.
#[pyclass(frozen, name = "FetchResult", module = "robotrules._native")]
pub(crate) struct PyFetchResult {
    authority: Authority,
    robots_url: String,
    access: Access,
    outcome: String,
    status: Option<u16>,
    robots: Option<PyRobots>,
    lifetime: f64,
    truncated: bool,
    bytes_read: usize,
    hops: Vec<(String, Option<u16>)>,
}

impl PyFetchResult {
    fn of(fetch: Fetch, now: SystemTime) -> PyFetchResult {
        let access = policy::access(&fetch.outcome);
        let lifetime = match &fetch.outcome {
            Outcome::Unreachable(reason) => policy::Timing::default()
                .retry_at(reason, fetch.retry_after, now)
                .duration_since(now)
                .unwrap_or_default(),
            _ => policy::lifetime(
                &fetch.cache_control,
                robotrules_fetch::DEFAULT_LIFETIME,
            ),
        };
        let robots = match &fetch.outcome {
            Outcome::Available(robots) => Some(PyRobots {
                robots: Arc::clone(robots),
                body: fetch.body.clone().into(),
            }),
            _ => None,
        };
        PyFetchResult {
            authority: fetch.authority.clone(),
            robots_url: fetch.authority.robots_url(),
            access,
            outcome: fetch.outcome.describe(),
            status: fetch.hops.last().and_then(|h| h.status),
            robots,
            lifetime: lifetime.as_secs_f64(),
            truncated: fetch.truncated,
            bytes_read: fetch.bytes_read,
            hops: fetch.hops.into_iter().map(|h| (h.url, h.status)).collect(),
        }
    }
}

#[pymethods]
impl PyFetchResult {
    /// The robots.txt URL of the site (`scheme://host[:port]/robots.txt`).
    #[getter]
    fn url(&self) -> String {
        self.robots_url.clone()
    }

    /// What it means for crawlers: `"obey"` (a file was fetched: obey its
    /// rules), `"allow-all"` (no robots.txt: a 4xx other than 407 and
    /// 429, or too many redirects) or `"disallow-all"` (unreachable: 407
    /// (the crawler's own proxy), 429, 5xx, network failure). RFC 9309
    /// §2.3.1.
    #[getter]
    fn access(&self) -> &'static str {
        access_name(self.access)
    }

    /// A short description: `available`, `unavailable (404)`,
    /// `unreachable (503)`, `unreachable (timeout)`, ...
    #[getter]
    fn outcome(&self) -> String {
        self.outcome.clone()
    }

    /// The final response's status, or `None` if none came.
    #[getter]
    fn status(&self) -> Option<u16> {
        self.status
    }

    /// The parsed rules when `access` is `"obey"`, else `None`.
    #[getter]
    fn robots(&self) -> Option<PyRobots> {
        self.robots.as_ref().map(PyRobots::clone_ref)
    }

    /// How long the result may be used, in seconds: the cache lifetime
    /// (at most 24 h, less with `Cache-Control` and `Age`), or for an
    /// unreachable site the time until it should be asked again
    /// (`Retry-After`, 5 minutes after a 503, else 1 hour).
    #[getter]
    fn lifetime(&self) -> f64 {
        self.lifetime
    }

    /// True if and only if the body was longer than 500 KiB and was cut.
    #[getter]
    fn truncated(&self) -> bool {
        self.truncated
    }

    /// The body bytes read.
    #[getter]
    fn bytes_read(&self) -> usize {
        self.bytes_read
    }

    /// Each request made, `(url, status or None)`, redirects first.
    #[getter]
    fn hops(&self) -> Vec<(String, Option<u16>)> {
        self.hops.clone()
    }

    /// Returns True if and only if the crawler `agents` may fetch `url`
    /// by this result: `/robots.txt` itself always; otherwise the rules
    /// when there are some (matched against the URL as it will be
    /// requested), everything when there is no robots.txt, nothing when
    /// it is unreachable. Raises `ValueError` for a URL of another site
    /// (scheme, host or port): a robots.txt governs its own only
    /// (RFC 9309 §2.3).
    fn is_allowed(
        &self,
        agents: &Bound<'_, PyAny>,
        url: &Bound<'_, PyAny>,
    ) -> PyResult<bool> {
        let names = convert::agents(agents, "agents")?;
        let url = self.own_url(url)?;
        Ok(self.verdict(&slices(&names), &url).0)
    }

    /// As `is_allowed`, with the deciding rule: a `Decision`; None where
    /// no rule of the file decides (the URL is `/robots.txt`, or the
    /// outcome allows or disallows everything).
    fn decide(
        &self,
        agents: &Bound<'_, PyAny>,
        url: &Bound<'_, PyAny>,
    ) -> PyResult<Option<PyDecision>> {
        let names = convert::agents(agents, "agents")?;
        let url = self.own_url(url)?;
        Ok(self.verdict(&slices(&names), &url).1)
    }

    fn __repr__(&self) -> String {
        format!(
            "<FetchResult {}: {} ({})>",
            self.robots_url,
            self.outcome,
            access_name(self.access)
        )
    }
}

impl PyFetchResult {
    /// `url`, absolute and of this result's site.
    fn own_url(&self, url: &Bound<'_, PyAny>) -> PyResult<Url> {
        let (url, authority) = site_url(url, "url")?;
        if authority != self.authority {
            return Err(PyValueError::new_err(format!(
                "url {} is not governed by {}: a robots.txt covers only \
                 its own scheme, host and port (RFC 9309 §2.3)",
                url, self.robots_url
            )));
        }
        Ok(url)
    }

    /// The verdict, and the decision when rules decided.
    fn verdict(
        &self,
        agents: &[&str],
        url: &Url,
    ) -> (bool, Option<PyDecision>) {
        if policy::is_exempt(url) {
            return (true, None);
        }
        match (&self.robots, self.access) {
            (Some(r), Access::Obey) => {
                let target = policy::target(url);
                let d = r.decide_rule(agents, &target);
                (d.is_allowed(), Some(d))
            }
            (_, Access::AllowAll) => (true, None),
            _ => (false, None),
        }
    }
}

/// Fetches the robots.txt of the site of `url` (any URL of it) and judges
/// it by RFC 9309: up to 5 redirects, at most 500 KiB, status classes.
/// Blocks without holding the GIL (Ctrl-C raises `KeyboardInterrupt` at
/// once). Never raises for a failed fetch:
/// that is an outcome (`access == "disallow-all"`).
///
/// Raises `ValueError` if `url` is not an absolute http, https or ftp URL.
#[pyfunction]
#[pyo3(signature = (url, *, user_agent = None, timeout = None))]
fn fetch(
    py: Python<'_>,
    url: &Bound<'_, PyAny>,
    user_agent: Option<&Bound<'_, PyAny>>,
    timeout: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyFetchResult> {
    let (_, authority) = site_url(url, "url")?;
    let user_agent = convert::opt_text(user_agent, "user_agent")?;
    let fetcher = fetcher(user_agent, timeout)?;
    let rt = runtime()?;
    let fetched = wait(py, &rt, fetcher.fetch(&authority))?;
    Ok(PyFetchResult::of(fetched, SystemTime::now()))
}

/// Judges a response that your own HTTP client got for a robots.txt
/// (the sans-IO policy): `url` is the robots.txt URL (or any URL of the
/// site), `status` the final status after following redirects (at most
/// 5), `headers` a mapping or a list of `(name, value)` pairs (only
/// `Cache-Control`, `Age`, `Retry-After` and `Location` matter) and `body`
/// the body (only its first 500 KiB are used). Pass `status=None` for a
/// request that got no response (timeout, DNS or connection failure).
///
/// `hops`, as `FetchResult.hops` gives them: the `(url, status)` of each
/// request made, in order, this response's last (httpx and requests:
/// `[(str(r.url), r.status_code) for r in (*response.history,
/// response)]`; the first for the robots.txt of `url`'s site, every one but
/// the last a redirect). With them a response
/// is judged as a fetcher judges it: one reached through more than
/// `MAX_REDIRECTS` redirects or after a URL taken twice, or a final
/// redirect past the limit or back to a URL taken, is no robots.txt
/// (allow all); without them, only a redirect to the URL itself is seen
/// as a loop.
#[pyfunction]
#[pyo3(signature = (url, status, headers = None, body = None, *, hops = None))]
fn evaluate(
    url: &Bound<'_, PyAny>,
    status: Option<&Bound<'_, PyAny>>,
    headers: Option<&Bound<'_, PyAny>>,
    body: Option<&Bound<'_, PyAny>>,
    hops: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyFetchResult> {
    let (_, authority) = site_url(url, "url")?;
    let body = match body {
        Some(b) if !b.is_none() => convert::body(b, "body")?,
        _ => Vec::new(),
    };
    let hops = hop_list(hops)?;
    // The first request is for this site's robots.txt; redirects lead
    // from there.
    if let Some(first) = hops.first() {
        let robots_url = authority.robots_url();
        // As requested: a fragment is never sent.
        let requested = |url: &str| {
            Url::parse(url).ok().map(|mut u| {
                u.set_fragment(None);
                u
            })
        };
        if requested(&first.url) != requested(&robots_url) {
            return Err(PyValueError::new_err(format!(
                "the first of hops is the request for the robots.txt of \
                 url's site, {robots_url}, not {}",
                first.url
            )));
        }
    }
    let downloaded = match status {
        // `True` is an `int` to Python, but no status.
        Some(s) if s.is_instance_of::<pyo3::types::PyBool>() => {
            return Err(convert::type_error("status", "an int or None", s));
        }
        Some(s) if !s.is_none() => {
            let code: u16 = s.extract().map_err(|_| {
                if s.is_instance_of::<pyo3::types::PyInt>() {
                    PyValueError::new_err(format!(
                        "status must be between 0 and 65535, not {s}"
                    ))
                } else {
                    convert::type_error("status", "an int or None", s)
                }
            })?;
            if let Some(last) = hops.last() {
                if last.status != Some(code) {
                    return Err(PyValueError::new_err(format!(
                        "the last of hops is the response judged: its status \
                         must be {code}, not {}",
                        py_status(last.status)
                    )));
                }
            }
            let mut response = Response::new(code, body).hops(hops);
            for (name, value) in header_pairs(headers)? {
                response = response.header(&name, &value);
            }
            Ok(response)
        }
        _ => {
            if let Some(status) = hops.last().and_then(|h| h.status) {
                return Err(PyValueError::new_err(format!(
                    "the last of hops is the request that got no response \
                     (status=None): its status must be None, not {status}"
                )));
            }
            Err(robotrules_fetch::Failure::new(
                robotrules_fetch::Unreachable::Broken("no response".into()),
            )
            .hops(hops))
        }
    };
    let mut fetch = Fetch::new(&authority, downloaded);
    // What a fetcher would have stopped at before this response: a URL
    // taken twice (a loop), or more than `MAX_REDIRECTS` redirects. (A
    // final redirect not followed is judged by `Fetch::new` itself.)
    if let Some(stop) = stopped_before(&fetch.hops) {
        fetch.outcome = stop.outcome();
    }
    Ok(PyFetchResult::of(fetch, SystemTime::now()))
}

/// The stop a crawler's fetcher makes before the last of `hops`: each
/// hop after the first taken as the redirect to it, by the fetcher's own
/// rules (`Redirects`: a URL requested twice, more redirects than
/// `MAX_REDIRECTS`).
fn stopped_before(hops: &[robotrules_fetch::Hop]) -> Option<policy::Stop> {
    let (first, rest) = hops.split_first()?;
    let mut start = Url::parse(&first.url).ok()?;
    // A fragment is never requested (as `Redirects::follow` drops it).
    start.set_fragment(None);
    let mut redirects = policy::Redirects::new(start);
    rest.iter().find_map(|hop| redirects.follow(Some(&hop.url)).err())
}

/// The `hops` argument of `evaluate`: `(url, status)` pairs, the status
/// an int or None.
fn hop_list(
    hops: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<robotrules_fetch::Hop>> {
    let Some(hops) = hops.filter(|h| !h.is_none()) else {
        return Ok(Vec::new());
    };
    let what = "an iterable of (url, status) pairs";
    let iter = hops
        .try_iter()
        .map_err(|_| convert::type_error("hops", what, hops))?;
    let mut out = Vec::new();
    for item in iter {
        let item = item?;
        // A tuple, or a list (hops kept as JSON).
        let pair: (Bound<'_, PyAny>, Bound<'_, PyAny>) = item
            .extract()
            .or_else(|_| {
                item.extract::<Vec<Bound<'_, PyAny>>>()
                    .ok()
                    .and_then(|v| {
                        let [url, status] = <[_; 2]>::try_from(v).ok()?;
                        Some((url, status))
                    })
                    .ok_or(())
            })
            .map_err(|_| {
                convert::type_error(
                    "each of hops",
                    "a (url, status) pair",
                    &item,
                )
            })?;
        let url = convert::text(&pair.0, "a hop's url")?;
        match Url::parse(&url) {
            Ok(u) if matches!(u.scheme(), "http" | "https" | "ftp") => {}
            Ok(_) => {
                return Err(PyValueError::new_err(format!(
                    "a hop's url must be an http, https or ftp URL: {url:?}"
                )))
            }
            Err(e) => {
                return Err(PyValueError::new_err(format!(
                    "a hop's url must be absolute: {url:?}: {e}"
                )))
            }
        }
        let status = match &pair.1 {
            s if s.is_none() => None,
            s if s.is_instance_of::<pyo3::types::PyBool>() => {
                return Err(convert::type_error(
                    "a hop's status",
                    "an int or None",
                    s,
                ));
            }
            s => Some(s.extract::<u16>().map_err(|_| {
                PyValueError::new_err(format!(
                    "a hop's status must be an int from 0 to 65535 or None, \
                     not {s}"
                ))
            })?),
        };
        out.push(robotrules_fetch::Hop::new(url, status));
    }
    // Every request but the last was answered with a redirect.
    let last = out.len().saturating_sub(1);
    if let Some(h) = out[..last]
        .iter()
        .find(|h| !h.status.is_some_and(|s| (300..400).contains(&s)))
    {
        return Err(PyValueError::new_err(format!(
            "each of hops but the last is a redirect followed: {} has \
             status {}",
            h.url,
            py_status(h.status)
        )));
    }
    Ok(out)
}

/// A hop's status as Python writes it: `404`, or `None`.
fn py_status(status: Option<u16>) -> String {
    status.map_or("None".to_string(), |s| s.to_string())
}

fn header_pairs(
    headers: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<(String, String)>> {
    let Some(headers) = headers.filter(|h| !h.is_none()) else {
        return Ok(Vec::new());
    };
    let items = if let Ok(d) = headers.cast::<PyDict>() {
        d.items().into_any()
    } else if headers.hasattr("items")? {
        // Mappings with repeated names (httpx, aiohttp, email.Message)
        // list each value in `items()`.
        headers.call_method0("items")?
    } else {
        headers.clone()
    };
    let iter = items.try_iter().map_err(|_| {
        convert::type_error(
            "headers",
            "a mapping or an iterable of (name, value) pairs",
            headers,
        )
    })?;
    let mut out = Vec::new();
    for item in iter {
        let item = item?;
        let (name, value): (Bound<'_, PyAny>, Bound<'_, PyAny>) =
            item.extract().map_err(|_| {
                convert::type_error(
                    "each item of headers",
                    "a (name, value) pair",
                    &item,
                )
            })?;
        out.push((
            header_text(&name, "a header name")?,
            header_text(&value, "a header value")?,
        ));
    }
    Ok(out)
}

fn header_text(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<String> {
    if let Ok(b) = obj.cast::<PyBytes>() {
        return Ok(String::from_utf8_lossy(b.as_bytes()).into_owned());
    }
    if obj.cast::<PyString>().is_ok() {
        return convert::text(obj, "headers");
    }
    Err(convert::type_error(
        &format!("{what} in headers"),
        "str or bytes",
        obj,
    ))
}

/// The robots.txt URL of the site of `url`
/// (`scheme://host[:port]/robots.txt`).
///
/// Raises `ValueError` if `url` is not an absolute http, https or ftp URL.
#[pyfunction]
fn robots_url(url: &Bound<'_, PyAny>) -> PyResult<String> {
    Ok(site_url(url, "url")?.1.robots_url())
}

/// Returns True if and only if `url` is the site's robots.txt itself,
/// which crawlers may always fetch (RFC 9309 §2.2.2).
#[pyfunction]
fn is_exempt(url: &Bound<'_, PyAny>) -> PyResult<bool> {
    Ok(policy::is_exempt(&site_url(url, "url")?.0))
}

/// A thread-safe cache of robots.txt files, fetched on demand by the
/// RFC 9309 rules and kept for their lifetime:
/// `RobotsCache(*, user_agent=None, timeout=30.0, max_entries=10000)`.
/// At most `max_entries` sites and 256 MiB of bodies are kept, the least
/// recently used going first. Calls block without holding the GIL, for at
/// most `timeout` seconds a fetch; Ctrl-C raises `KeyboardInterrupt` at
/// once, giving the fetch up.
#[pyclass(frozen, name = "RobotsCache", module = "robotrules._native")]
pub(crate) struct PyCache {
    cache: RobotsCache<Fetcher>,
}

#[pymethods]
impl PyCache {
    /// A cache that fetches with `user_agent` (the `User-Agent` header;
    /// default `robotrules/VERSION`) and `timeout` seconds per fetch, and
    /// keeps at most `max_entries` sites.
    #[new]
    #[pyo3(signature = (*, user_agent = None, timeout = None, max_entries = None))]
    fn new(
        user_agent: Option<&Bound<'_, PyAny>>,
        timeout: Option<&Bound<'_, PyAny>>,
        max_entries: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyCache> {
        let user_agent = convert::opt_text(user_agent, "user_agent")?;
        let fetcher = fetcher(user_agent, timeout)?;
        let mut config = CacheConfig::default();
        if let Some(n) = max_entries {
            config = config.max_entries(entries(n)?);
        }
        let clock = Arc::new(robotrules_fetch::SystemClock);
        Ok(PyCache { cache: RobotsCache::with(fetcher, config, clock) })
    }

    /// May the crawler known by `agents` (a name or a list of names)
    /// fetch `url` now? Fetches the site's robots.txt if it is not cached
    /// or has expired. Returns a `CacheVerdict`.
    ///
    /// Raises `ValueError` if `url` is not an absolute http, https or ftp
    /// URL.
    fn is_allowed(
        &self,
        py: Python<'_>,
        agents: &Bound<'_, PyAny>,
        url: &Bound<'_, PyAny>,
    ) -> PyResult<PyCacheVerdict> {
        let names = convert::agents(agents, "agents")?;
        let (url, _) = site_url(url, "url")?;
        let rt = runtime()?;
        let cache = &self.cache;
        let names = slices(&names);
        let verdict = wait(py, &rt, cache.is_allowed_url(&names, &url))?;
        verdict
            .map(PyCacheVerdict)
            .map_err(|e| PyValueError::new_err(format!("url: {e}")))
    }

    /// The number of sites cached.
    fn __len__(&self) -> usize {
        self.cache.len()
    }

    /// The body bytes cached, over all sites.
    #[getter]
    fn bytes(&self) -> usize {
        self.cache.bytes()
    }
}

/// The answer of a `RobotsCache`: the verdict and why.
#[pyclass(frozen, name = "CacheVerdict", module = "robotrules._native")]
pub(crate) struct PyCacheVerdict(Verdict);

#[pymethods]
impl PyCacheVerdict {
    /// True if and only if the URL may be fetched now.
    #[getter]
    fn allowed(&self) -> bool {
        self.0.allowed
    }

    /// Why: `"rule"`, `"no-rule"`, `"robots-txt"` (the file itself),
    /// `"unavailable"` (no robots.txt), `"unreachable"` or
    /// `"unreachable-too-long"`.
    #[getter]
    fn reason(&self) -> &'static str {
        match &self.0.reason {
            Reason::Rule { .. } => "rule",
            Reason::NoRule => "no-rule",
            Reason::RobotsTxt => "robots-txt",
            Reason::Unavailable(_) => "unavailable",
            Reason::Unreachable { .. } => "unreachable",
            _ => "unreachable-too-long",
        }
    }

    /// The deciding rule's line, when a rule decided.
    #[getter]
    fn line(&self) -> Option<u32> {
        match &self.0.reason {
            Reason::Rule { line, .. } => Some(*line),
            _ => None,
        }
    }

    /// The deciding rule's kind (`"allow"`, `"disallow"`), when a rule
    /// decided.
    #[getter]
    fn kind(&self) -> Option<&'static str> {
        match &self.0.reason {
            Reason::Rule { kind, .. } => Some(kind.as_str()),
            _ => None,
        }
    }

    /// The deciding rule's pattern as written, when a rule decided.
    #[getter]
    fn pattern(&self) -> Option<String> {
        match &self.0.reason {
            Reason::Rule { pattern, .. } => Some(pattern.clone()),
            _ => None,
        }
    }

    /// True if the rules came from a copy kept past its lifetime because
    /// refreshing it failed.
    #[getter]
    fn stale(&self) -> bool {
        self.0.stale
    }

    /// The crawler's `crawl-delay` in seconds, if its group has one.
    #[getter]
    fn crawl_delay(&self) -> Option<f64> {
        self.0.crawl_delay
    }

    fn __bool__(&self) -> bool {
        self.0.allowed
    }

    fn __repr__(&self) -> String {
        format!("<CacheVerdict: {}>", self.0)
    }
}
