//! Fetching a robots.txt: the [`Download`] trait, the reqwest and FTP
//! [`Fetcher`], and what a fetch came to (RFC 9309 §2.3).

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use robotrules::Robots;

use crate::address::{AddressPolicy, Refused};
use crate::policy::{
    self, CacheControl, Redirects, RetryAfter, MAX_BODY, MAX_REDIRECTS,
};
use crate::{Authority, Error, ErrorKind};

/// The longest fetch time limit the front ends accept (a day): a longer
/// one would hold a crawler's check on one site for longer than a cached
/// copy lives.
pub const MAX_TIMEOUT: Duration = Duration::from_secs(24 * 3600);

/// How long a body that reached the 500 KiB cap with more to come waits
/// for the byte past the cap (which says whether the last line ends
/// there), so that the same bytes give the same rules however they are
/// sent.
const CAP_GRACE: Duration = Duration::from_secs(1);
/// What fetching a robots.txt came to (RFC 9309 §2.3.1). What it means for
/// crawlers is [`policy::access`].
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum Outcome {
    /// 2xx: parse the body and obey it.
    Available(Arc<Robots>),
    /// 4xx other than 429, or too many redirects: there is no robots.txt,
    /// so everything is allowed.
    Unavailable(Unavailable),
    /// 429, 5xx, any other status, or a network failure: the site could
    /// not be asked, so everything is disallowed for now.
    Unreachable(Unreachable),
}

impl Outcome {
    /// A short description: `available`, `unavailable (404)`,
    /// `unreachable (503)`, `unreachable (timeout)`, …
    pub fn describe(&self) -> String {
        match self {
            Outcome::Available(_) => "available".to_string(),
            Outcome::Unavailable(u) => format!("unavailable ({u})"),
            Outcome::Unreachable(u) => format!("unreachable ({u})"),
        }
    }
}

/// Why a robots.txt is unavailable (everything allowed).
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
#[non_exhaustive]
pub enum Unavailable {
    /// A 4xx status other than 429 (or a permanent FTP failure).
    Status(u16),
    /// More than [`MAX_REDIRECTS`] redirects.
    TooManyRedirects,
    /// A redirect back to a URL already visited.
    RedirectLoop,
}

impl std::fmt::Display for Unavailable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unavailable::Status(s) => write!(f, "{s}"),
            Unavailable::TooManyRedirects => write!(f, "too many redirects"),
            Unavailable::RedirectLoop => write!(f, "redirect loop"),
        }
    }
}

/// Why a robots.txt is unreachable (everything disallowed).
#[derive(Clone, Debug, Eq, PartialEq)]
#[non_exhaustive]
pub enum Unreachable {
    /// 429, a 5xx, or a status no rule covers.
    Status(u16),
    /// The connection or the whole fetch took too long.
    Timeout,
    /// The host could not be resolved or connected to: a short reason
    /// such as `connection refused`.
    Connect(String),
    /// The connection broke, or the response was malformed, or its body
    /// could not be decoded (an unsupported or corrupt content coding:
    /// see [`policy::decode`]): a short reason such as `unsupported
    /// content coding: compress`.
    Broken(String),
    /// The fetcher's [`AddressPolicy`] does not allow the address of a
    /// request (the first, or a redirect's): a short reason such as
    /// `localhost resolves to 127.0.0.1, not a public address`. No
    /// connection to that address was made.
    Refused(String),
}

impl std::fmt::Display for Unreachable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unreachable::Status(s) => write!(f, "{s}"),
            Unreachable::Timeout => write!(f, "timeout"),
            Unreachable::Connect(e) => write!(f, "cannot connect: {e}"),
            Unreachable::Broken(e) => write!(f, "broken response: {e}"),
            Unreachable::Refused(e) => write!(f, "refused: {e}"),
        }
    }
}

/// One request of a fetch: the URL asked and the status it answered.
#[derive(Clone, Debug, Eq, PartialEq)]
#[non_exhaustive]
pub struct Hop {
    /// The URL requested.
    pub url: String,
    /// The status (an FTP reply code for `ftp://`), if a response came.
    pub status: Option<u16>,
}

impl Hop {
    /// A request of `url`, answered with `status` (`None`: no response).
    pub fn new(url: impl Into<String>, status: Option<u16>) -> Hop {
        Hop { url: url.into(), status }
    }
}

/// A raw response to a request for a robots.txt, as a [`Download`] gives
/// it: the final status, the headers that matter, the body up to the cap,
/// and every request made. [`Fetch::new`] applies the rules to it.
///
/// # Example
///
/// ```
/// use robotrules_fetch::{Hop, Response};
///
/// let response = Response::new(200, b"User-agent: *\nDisallow: /x\n".to_vec())
///     .header("Cache-Control", "max-age=3600")
///     .header("X-Other", "ignored")
///     .hops(vec![
///         Hop::new("http://example.com/robots.txt", Some(301)),
///         Hop::new("https://example.com/robots.txt", Some(200)),
///     ]);
/// assert_eq!(response.cache_control, ["max-age=3600"]);
/// ```
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct Response {
    /// Each request in order, redirects first, the final one last. Empty:
    /// one request of the authority's robots.txt.
    pub hops: Vec<Hop>,
    /// The final status code (an FTP reply code for `ftp://`).
    pub status: u16,
    /// The `Cache-Control` header values.
    pub cache_control: Vec<String>,
    /// The `Retry-After` header value.
    pub retry_after: Option<String>,
    /// The first `Age` header value.
    pub age: Option<String>,
    /// The `Location` header value, when the final status is a redirect
    /// the downloader did not follow (bytes from 0x80 up percent-encoded:
    /// see [`policy::location`]).
    pub location: Option<String>,
    /// The body, after content decoding ([`policy::decode`]): whole, or
    /// its first [`MAX_BODY`] bytes and the byte after them, or its first
    /// [`MAX_BODY`] bytes with `truncated` set (see [`Fetch::new`]).
    pub body: Vec<u8>,
    /// True if the body was cut at the cap and the rest not read.
    pub truncated: bool,
}

impl Response {
    /// A response with `status` and `body`, no headers, one request.
    pub fn new(status: u16, body: Vec<u8>) -> Response {
        Response { status, body, ..Response::default() }
    }

    /// Adds a header; only `Cache-Control`, `Age`, `Retry-After` and
    /// `Location` are kept (names compare without regard to ASCII case).
    /// Every `Cache-Control` counts; of several of the others, the first
    /// (RFC 9111 §5.1 for `Age`; the others are single values too).
    pub fn header(mut self, name: &str, value: &str) -> Response {
        if name.eq_ignore_ascii_case("cache-control") {
            self.cache_control.push(value.to_string());
        } else if name.eq_ignore_ascii_case("retry-after") {
            self.retry_after.get_or_insert_with(|| value.to_string());
        } else if name.eq_ignore_ascii_case("age") {
            self.age.get_or_insert_with(|| value.to_string());
        } else if name.eq_ignore_ascii_case("location") {
            self.location.get_or_insert_with(|| value.to_string());
        }
        self
    }

    /// Sets the requests made.
    pub fn hops(mut self, hops: Vec<Hop>) -> Response {
        self.hops = hops;
        self
    }

    /// Says whether the body was cut at the cap.
    pub fn truncated(mut self, truncated: bool) -> Response {
        self.truncated = truncated;
        self
    }
}

/// A download that got no response: a DNS failure, a refused or reset
/// connection, a timeout, a malformed response.
#[derive(Clone, Debug, Eq, PartialEq)]
#[non_exhaustive]
pub struct Failure {
    /// Each request made, the failed one last.
    pub hops: Vec<Hop>,
    /// What went wrong.
    pub reason: Unreachable,
}

impl Failure {
    /// A failure for `reason`, with no requests recorded.
    pub fn new(reason: Unreachable) -> Failure {
        Failure { hops: Vec::new(), reason }
    }

    /// Sets the requests made.
    pub fn hops(mut self, hops: Vec<Hop>) -> Failure {
        self.hops = hops;
        self
    }
}

/// Downloads the robots.txt of an authority: the one piece of I/O of the
/// access method, so that a crawler can plug in its own HTTP stack (a
/// proxy pool, a politeness scheduler, a framework's downloader). The
/// [`Fetcher`] is the default.
///
/// A download requests `authority.robots_url()` (HTTP GET, or FTP `RETR
/// /robots.txt`), follows redirects as [`policy::Redirects`] says,
/// decodes the content ([`policy::Decoder`]; a body that cannot be
/// decoded is a [`Failure`], [`Unreachable::Broken`], never rules),
/// reads at most [`MAX_BODY`] decoded bytes of the body and the byte
/// after them, which says whether the cap ends a line (see
/// [`policy::take`] and [`policy::cut`]; a body cut at [`MAX_BODY`] is
/// marked `truncated`), and returns what it got. It does not judge:
/// [`Fetch::new`] applies the rules.
///
/// # Example: an in-memory downloader
///
/// ```
/// use robotrules_fetch::{Authority, Download, Failure, Response};
///
/// struct Fixed;
///
/// impl Download for Fixed {
///     async fn download(&self, _: &Authority) -> Result<Response, Failure> {
///         Ok(Response::new(200, b"User-agent: *\nDisallow: /\n".to_vec()))
///     }
/// }
/// ```
pub trait Download: Send + Sync {
    /// Downloads the robots.txt of `authority`.
    ///
    /// # Errors
    ///
    /// A [`Failure`] when no final response came.
    fn download(
        &self,
        authority: &Authority,
    ) -> impl Future<Output = Result<Response, Failure>> + Send;
}

/// A shared downloader downloads.
impl<T: Download> Download for Arc<T> {
    fn download(
        &self,
        authority: &Authority,
    ) -> impl Future<Output = Result<Response, Failure>> + Send {
        (**self).download(authority)
    }
}

/// Everything that happened when fetching a robots.txt, judged.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Fetch {
    /// The authority whose robots.txt this is (the first URL's, whatever
    /// the redirects).
    pub authority: Authority,
    /// Each request, in order: redirects, then the final one.
    pub hops: Vec<Hop>,
    /// The outcome the crawler must act on.
    pub outcome: Outcome,
    /// Body bytes read (after content decoding), at most the cap.
    pub bytes_read: usize,
    /// True if the body was longer than the cap and the rest was not read.
    /// Then [`Fetch::body`] ends at the last line break up to the cap
    /// (or the one just past it).
    pub truncated: bool,
    /// The final response's `Cache-Control`, with its `Age`.
    pub cache_control: CacheControl,
    /// The final response's `Retry-After`.
    pub retry_after: Option<RetryAfter>,
    /// The body whose rules apply, for tools that show it: as read (at
    /// most the cap, and the line break just past it when the cap falls
    /// at the end of a line), less the line the cap cut, if it cut one
    /// (see [`policy::cut`]).
    pub body: Vec<u8>,
}

impl Fetch {
    /// Judges what a download of the robots.txt of `authority` returned
    /// (see [`policy::outcome`]). A body longer than [`MAX_BODY`] is cut
    /// ([`policy::cut`]); a cut body loses the line the cap went through,
    /// whichever downloader cut it. A body cut at the cap by the
    /// downloader (`truncated`, the byte past the cap unknown) loses its
    /// last line unless it ends with a line break
    /// ([`policy::drop_partial_line`]).
    pub fn new(
        authority: &Authority,
        downloaded: Result<Response, Failure>,
    ) -> Fetch {
        let mut fetch = Fetch {
            authority: authority.clone(),
            hops: Vec::new(),
            outcome: Outcome::Unreachable(Unreachable::Timeout),
            bytes_read: 0,
            truncated: false,
            cache_control: CacheControl::default(),
            retry_after: None,
            body: Vec::new(),
        };
        let mut response = match downloaded {
            Ok(response) => response,
            Err(failure) => {
                fetch.hops = failure.hops;
                if fetch.hops.is_empty() {
                    fetch.hops.push(Hop::new(authority.robots_url(), None));
                }
                fetch.outcome = Outcome::Unreachable(failure.reason);
                return fetch;
            }
        };
        if response.hops.is_empty() {
            response
                .hops
                .push(Hop::new(authority.robots_url(), Some(response.status)));
        }
        if policy::cut(&mut response.body, MAX_BODY) {
            response.truncated = true;
        }
        fetch.bytes_read = response.body.len().min(MAX_BODY);
        if response.truncated {
            policy::drop_partial_line(&mut response.body);
        }
        fetch.outcome = policy::outcome(authority.scheme(), &response);
        fetch.cache_control =
            CacheControl::parse(response.cache_control.iter().map(|v| &**v))
                .with_age(response.age.as_deref());
        fetch.retry_after =
            response.retry_after.as_deref().and_then(RetryAfter::parse);
        fetch.truncated = response.truncated;
        fetch.hops = response.hops;
        fetch.body = response.body;
        fetch
    }
}

/// Settings of a [`Fetcher`]. Build one with [`FetcherConfig::default`]
/// and the setters.
#[derive(Clone, Debug)]
#[must_use]
pub struct FetcherConfig {
    user_agent: String,
    connect_timeout: Duration,
    timeout: Duration,
    max_body: usize,
    max_redirects: usize,
    address_policy: AddressPolicy,
}

impl Default for FetcherConfig {
    fn default() -> Self {
        FetcherConfig {
            user_agent: concat!("robotrules/", env!("CARGO_PKG_VERSION"))
                .to_string(),
            connect_timeout: Duration::from_secs(10),
            timeout: Duration::from_secs(30),
            max_body: MAX_BODY,
            max_redirects: MAX_REDIRECTS,
            address_policy: AddressPolicy::any(),
        }
    }
}

impl FetcherConfig {
    /// The `User-Agent` header sent (default `robotrules/VERSION`). It must
    /// be a valid header value (no line breaks or other control
    /// characters): [`FetcherConfig::build`] checks.
    pub fn user_agent(mut self, agent: impl Into<String>) -> Self {
        self.user_agent = agent.into();
        self
    }

    /// How long connecting may take (default 10 s).
    pub fn connect_timeout(mut self, timeout: Duration) -> Self {
        self.connect_timeout = timeout;
        self
    }

    /// How long the whole fetch, redirects included, may take (default
    /// 30 s). Front ends take at most [`MAX_TIMEOUT`] from their users.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// How many body bytes are read at most (default and maximum
    /// 500 KiB).
    pub fn max_body(mut self, bytes: usize) -> Self {
        self.max_body = bytes.min(MAX_BODY);
        self
    }

    /// How many redirects are followed (default 5). RFC 9309 recommends
    /// at least five: with fewer, a redirect past the limit leaves the
    /// file unknown (unreachable), not "too many redirects" (allowed).
    pub fn max_redirects(mut self, redirects: usize) -> Self {
        self.max_redirects = redirects;
        self
    }

    /// Which addresses may be connected to (default: any). A service that
    /// fetches URLs from untrusted users sets
    /// [`AddressPolicy::public_only`]: then a request to an address the
    /// policy refuses, first or after a redirect, by a host name or
    /// written as an address, is not made, and the fetch is
    /// [`Unreachable::Refused`].
    pub fn address_policy(mut self, policy: AddressPolicy) -> Self {
        self.address_policy = policy;
        self
    }

    /// Builds the fetcher.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidUserAgent`] if the user agent is not a valid
    /// header value; [`ErrorKind::Client`] if the HTTP client cannot be
    /// built (for example, no TLS roots).
    pub fn build(self) -> Result<Fetcher, Error> {
        use reqwest::header::{self, HeaderMap, HeaderValue};

        let agent = HeaderValue::from_str(&self.user_agent).map_err(|_| {
            Error::new(
                ErrorKind::InvalidUserAgent,
                format!(
                    "{:?} is not a valid header value (it may not hold line \
                     breaks or other control characters)",
                    self.user_agent
                ),
            )
        })?;
        // Content codings are undone by `policy::Decoder`, the one path
        // for all of them: reqwest's own decoding is off, whatever
        // features another crate turns on.
        let mut headers = HeaderMap::new();
        headers.insert(
            header::ACCEPT_ENCODING,
            HeaderValue::from_static("gzip, deflate, br"),
        );
        let mut builder = reqwest::Client::builder()
            .user_agent(agent)
            .default_headers(headers)
            .no_gzip()
            .no_brotli()
            .no_deflate()
            .no_zstd()
            .connect_timeout(self.connect_timeout)
            .redirect(reqwest::redirect::Policy::none());
        if !self.address_policy.is_any() {
            // Names are resolved, and their addresses judged, here: a
            // proxy would resolve them out of sight.
            builder = builder.no_proxy().dns_resolver(Arc::new(Resolver {
                policy: self.address_policy.clone(),
            }));
        }
        let client = builder
            .build()
            .map_err(|e| Error::new(ErrorKind::Client, e.to_string()))?;
        Ok(Fetcher { client, config: self })
    }
}

/// Fetches robots.txt files over HTTP, HTTPS and (with the `ftp` feature)
/// FTP. It is the default [`Download`].
#[derive(Clone, Debug)]
pub struct Fetcher {
    client: reqwest::Client,
    config: FetcherConfig,
}

impl Fetcher {
    /// A fetcher with the default settings.
    ///
    /// # Errors
    ///
    /// As for [`FetcherConfig::build`].
    pub fn new() -> Result<Fetcher, Error> {
        FetcherConfig::default().build()
    }

    /// The settings.
    pub fn config(&self) -> &FetcherConfig {
        &self.config
    }

    /// Fetches the robots.txt of `authority` and judges it. Never fails:
    /// every problem is an [`Outcome`].
    pub async fn fetch(&self, authority: &Authority) -> Fetch {
        Fetch::new(authority, self.download(authority).await)
    }

    async fn fetch_http(
        &self,
        authority: &Authority,
        hops: &mut Vec<Hop>,
    ) -> Result<Response, Unreachable> {
        let start = url::Url::parse(&authority.robots_url())
            .map_err(|e| Unreachable::Broken(e.to_string()))?;
        let mut redirects =
            Redirects::with_limit(start, self.config.max_redirects);
        loop {
            let url = redirects.current().clone();
            hops.push(Hop::new(url.as_str(), None));
            // The resolver judges host names; an address written in the
            // URL is never resolved, so it is judged here, on every hop.
            if let Some(refused) = self.refuse_literal(&url) {
                return Err(Unreachable::Refused(refused.message));
            }
            let response =
                self.client.get(url).send().await.map_err(|e| classify(&e))?;
            let status = response.status().as_u16();
            if let Some(hop) = hops.last_mut() {
                hop.status = Some(status);
            }
            let headers = response.headers();
            let location = headers
                .get(reqwest::header::LOCATION)
                .map(|l| policy::location(l.as_bytes()));
            if policy::classify_http(status) == policy::StatusClass::Redirect
                && redirects.follow(location.as_deref()).is_ok()
            {
                continue;
            }
            let mut out = Response::new(status, Vec::new());
            for (name, value) in headers {
                // Bytes past ASCII (an extension's value) do not hide the
                // directives beside them.
                let value = String::from_utf8_lossy(value.as_bytes());
                out = out.header(name.as_str(), &value);
            }
            out.location = location;
            if policy::classify_http(status) == policy::StatusClass::Success {
                self.read_body(response, &mut out).await?;
            }
            return Ok(out);
        }
    }

    /// The refusal of `url`'s host if it is an IP address that the policy
    /// does not allow.
    fn refuse_literal(&self, url: &url::Url) -> Option<Refused> {
        let ip: std::net::IpAddr = match url.host()? {
            url::Host::Ipv4(ip) => ip.into(),
            url::Host::Ipv6(ip) => ip.into(),
            url::Host::Domain(_) => return None,
        };
        match self.config.address_policy.allows(ip) {
            true => None,
            false => Some(Refused::new(&ip.to_string(), ip)),
        }
    }

    /// Reads and decodes the body up to the cap of decoded bytes, and
    /// stops there. Once the cap is reached, a `Content-Length` that
    /// promises more ends the reading too: the body is cut, whether or not
    /// the rest would come.
    async fn read_body(
        &self,
        mut response: reqwest::Response,
        out: &mut Response,
    ) -> Result<(), Unreachable> {
        let cap = self.config.max_body;
        // One byte past the cap tells whether the cap ends a line.
        let read = cap.saturating_add(1);
        let codings = response
            .headers()
            .get_all(reqwest::header::CONTENT_ENCODING)
            .iter()
            .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
            .collect::<Vec<_>>()
            .join(",");
        // A transfer coding other than `chunked` (which the client
        // undoes) would leave coded bytes in the body: never rules.
        for value in
            response.headers().get_all(reqwest::header::TRANSFER_ENCODING)
        {
            let value = String::from_utf8_lossy(value.as_bytes());
            let unknown = value.split(',').map(str::trim).find(|c| {
                !c.is_empty()
                    && !c.eq_ignore_ascii_case("chunked")
                    && !c.eq_ignore_ascii_case("identity")
            });
            if let Some(coding) = unknown {
                return Err(Unreachable::Broken(format!(
                    "unsupported Transfer-Encoding {:?}",
                    coding
                )));
            }
        }
        let broken =
            |e: policy::Undecodable| Unreachable::Broken(e.to_string());
        let mut decoder =
            policy::Decoder::new(&codings, read).map_err(broken)?;
        let promised = response.content_length();
        let mut raw = 0u64;
        let mut at_cap = false;
        while let Some(chunk) =
            response.chunk().await.map_err(|e| classify(&e))?
        {
            raw += chunk.len() as u64;
            // Past the cap, the byte after it is known: nothing more is
            // needed (a server may stall after it).
            if decoder.push(&chunk).map_err(broken)?
                || decoder.body().len() > cap
            {
                break;
            }
            // At the cap with more promised, or no length given: the
            // byte past it says whether the last line ends there, so it
            // is waited for, but only a moment (a server may stall
            // there): without it, the last line is read only if it ends
            // at the cap.
            let more = promised.is_none_or(|n| raw < n);
            if decoder.body().len() >= cap && more && !decoder.is_ended() {
                // The grace is one for all the chunks it takes (a chunk
                // of a compressed body may decode to nothing), and a
                // connection that fails in it ends nothing that a crawler
                // reads: the body is cut at the cap all the same.
                let deadline = tokio::time::Instant::now() + CAP_GRACE;
                loop {
                    let next =
                        tokio::time::timeout_at(deadline, response.chunk());
                    match next.await {
                        Ok(Ok(Some(chunk))) => {
                            if decoder.push(&chunk).map_err(broken)?
                                || decoder.body().len() > cap
                            {
                                break;
                            }
                        }
                        Ok(Ok(None)) => break,
                        Ok(Err(_)) | Err(_) => {
                            at_cap = true;
                            break;
                        }
                    }
                }
                break;
            }
        }
        if decoder.body().len() > cap {
            out.body = decoder.body().to_vec();
            out.truncated = policy::cut(&mut out.body, cap);
        } else if at_cap {
            // The byte past the cap is unknown: the last line is read
            // only if it ends at the cap.
            out.body = decoder.body().to_vec();
            out.truncated = true;
        } else {
            out.body = decoder.finish().map_err(broken)?.0;
        }
        Ok(())
    }

    #[cfg(feature = "ftp")]
    async fn fetch_ftp(
        &self,
        authority: &Authority,
        hops: &mut Vec<Hop>,
    ) -> Result<Response, Unreachable> {
        use suppaftp::tokio::AsyncFtpStream;
        use tokio::io::AsyncReadExt;

        hops.push(Hop::new(authority.robots_url(), None));
        let address =
            format!("{}:{}", authority.host(), authority.port().unwrap_or(21));
        let policy = &self.config.address_policy;
        let connect =
            tokio::time::timeout(self.config.connect_timeout, async {
                if policy.is_any() {
                    return AsyncFtpStream::connect(address)
                        .await
                        .map_err(|e| ftp_connect_error(&e));
                }
                // Connect only to an address the policy allows; the data
                // connection then goes to that same address, whatever the
                // server's PASV reply names.
                let resolved =
                    tokio::net::lookup_host(address).await.map_err(|e| {
                        io_reason(&e)
                            .unwrap_or(Unreachable::Connect(e.to_string()))
                    })?;
                let allowed = policy
                    .filter(authority.host(), resolved)
                    .map_err(|r| Unreachable::Refused(r.message))?;
                let mut ftp = AsyncFtpStream::connect(&allowed[..])
                    .await
                    .map_err(|e| ftp_connect_error(&e))?;
                ftp.set_passive_nat_workaround(true);
                Ok(ftp)
            });
        let mut ftp = match connect.await {
            Ok(Ok(ftp)) => ftp,
            Ok(Err(reason)) => return Err(reason),
            Err(_) => return Err(Unreachable::Timeout),
        };
        // A refused login is no answer about the file: unreachable.
        if let Err(e) = ftp.login("anonymous", "anonymous@").await {
            return Err(Unreachable::Broken(format!("login: {e}")));
        }
        // Image type: the bytes as stored, with no line-end conversion.
        if let Err(e) =
            ftp.transfer_type(suppaftp::types::FileType::Binary).await
        {
            return Err(Unreachable::Broken(format!("TYPE I: {e}")));
        }
        let mut stream = match ftp.retr_as_stream("/robots.txt").await {
            Ok(stream) => stream,
            Err(e) => return ftp_failure(e),
        };
        let mut out = Response::new(226, Vec::new());
        let cap = self.config.max_body;
        let mut buf = vec![0u8; 16 * 1024];
        // One byte past the cap tells whether the cap ends a line.
        let read = cap.saturating_add(1);
        let mut more = false;
        loop {
            match stream.read(&mut buf).await {
                Ok(0) => break,
                Ok(n) => {
                    policy::take(&mut out.body, &buf[..n], read);
                    if out.body.len() > cap {
                        more = true;
                        break;
                    }
                }
                Err(e) => return Err(Unreachable::Broken(e.to_string())),
            }
        }
        out.truncated = policy::cut(&mut out.body, cap);
        if !more {
            // Some servers only report a missing file here, after the
            // (empty) transfer. A failure after bytes came is a transfer
            // that broke off, not an answer about the file.
            if let Err(e) = stream.finish().await {
                if !out.body.is_empty() {
                    return Err(Unreachable::Broken(format!("transfer: {e}")));
                }
                return ftp_failure(e);
            }
            // The file is read: a server that does not answer QUIT does
            // not undo that.
            let _ = tokio::time::timeout(QUIT_WAIT, ftp.quit()).await;
        }
        Ok(out)
    }

    #[cfg(not(feature = "ftp"))]
    async fn fetch_ftp(
        &self,
        authority: &Authority,
        hops: &mut Vec<Hop>,
    ) -> Result<Response, Unreachable> {
        hops.push(Hop::new(authority.robots_url(), None));
        Err(Unreachable::Connect(
            "this build has no ftp support (feature `ftp`)".into(),
        ))
    }
}

impl Download for Fetcher {
    async fn download(
        &self,
        authority: &Authority,
    ) -> Result<Response, Failure> {
        let mut hops = Vec::new();
        let work = async {
            if authority.scheme() == "ftp" {
                self.fetch_ftp(authority, &mut hops).await
            } else {
                self.fetch_http(authority, &mut hops).await
            }
        };
        let result =
            match tokio::time::timeout(self.config.timeout, work).await {
                Ok(result) => result,
                Err(_) => Err(Unreachable::Timeout),
            };
        match result {
            Ok(response) => {
                let status = response.status;
                if let Some(hop) = hops.last_mut() {
                    hop.status = Some(status);
                }
                Ok(response.hops(hops))
            }
            Err(reason) => Err(Failure::new(reason).hops(hops)),
        }
    }
}

/// Resolves host names for reqwest and keeps only the addresses the
/// policy allows, so that the connection goes to an address that was
/// judged.
struct Resolver {
    policy: AddressPolicy,
}

impl reqwest::dns::Resolve for Resolver {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let policy = self.policy.clone();
        Box::pin(async move {
            let host = name.as_str();
            let resolved = tokio::net::lookup_host((host, 0)).await?;
            let allowed = policy.filter(host, resolved)?;
            Ok(Box::new(allowed.into_iter()) as reqwest::dns::Addrs)
        })
    }
}

/// How long a finished FTP fetch waits for the server's answer to `QUIT`.
#[cfg(feature = "ftp")]
const QUIT_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

/// A failed `RETR`: a reply code is a response, judged by
/// [`policy::classify_ftp`]; anything else is a broken connection.
#[cfg(feature = "ftp")]
fn ftp_failure(e: suppaftp::FtpError) -> Result<Response, Unreachable> {
    match e {
        suppaftp::FtpError::UnexpectedResponse(r) => {
            Ok(Response::new(r.status.code() as u16, Vec::new()))
        }
        e => Err(Unreachable::Broken(format!("RETR: {e}"))),
    }
}

#[cfg(feature = "ftp")]
fn ftp_connect_error(e: &suppaftp::FtpError) -> Unreachable {
    match e {
        suppaftp::FtpError::ConnectionError(io) => io_reason(io)
            .unwrap_or_else(|| Unreachable::Connect(io.to_string())),
        e => Unreachable::Connect(e.to_string()),
    }
}

/// A short reason for the I/O errors people meet most.
fn io_reason(e: &std::io::Error) -> Option<Unreachable> {
    use std::io::ErrorKind as K;
    Some(match e.kind() {
        K::ConnectionRefused => {
            Unreachable::Connect("connection refused".into())
        }
        K::TimedOut => Unreachable::Timeout,
        K::ConnectionReset => Unreachable::Broken("connection reset".into()),
        K::ConnectionAborted => {
            Unreachable::Broken("connection aborted".into())
        }
        K::UnexpectedEof => {
            Unreachable::Broken("connection closed early".into())
        }
        _ => return None,
    })
}

/// One short reason for a client error, not the whole chain: the kind
/// for the common cases (refused, DNS, timeout, reset), else the
/// innermost cause.
fn classify(e: &reqwest::Error) -> Unreachable {
    if e.is_timeout() {
        return Unreachable::Timeout;
    }
    let mut root: &dyn std::error::Error = e;
    let mut dns = false;
    while let Some(source) = root.source() {
        if let Some(refused) = source.downcast_ref::<Refused>() {
            return Unreachable::Refused(refused.message.clone());
        }
        if let Some(io) = source.downcast_ref::<std::io::Error>() {
            if let Some(reason) = io_reason(io) {
                return reason;
            }
        }
        dns |= source.to_string().starts_with("dns error");
        root = source;
    }
    let host = e.url().and_then(|u| u.host_str()).unwrap_or("the host");
    // hyper's words for both of its limits on a response head.
    if root.to_string() == "message head is too large" {
        return Unreachable::Broken(
            "too many header fields (over 100), or a header section over \
             400 KiB"
                .into(),
        );
    }
    if dns {
        Unreachable::Connect(format!("cannot resolve {host}"))
    } else if e.is_connect() {
        Unreachable::Connect(root.to_string())
    } else {
        Unreachable::Broken(root.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn responses_keep_only_the_headers_that_matter() {
        let r = Response::new(503, vec![])
            .header("RETRY-AFTER", "5")
            .header("content-type", "text/plain")
            .header("Cache-Control", "a")
            .header("cache-control", "b")
            .header("Location", "/x");
        assert_eq!(r.retry_after.as_deref(), Some("5"));
        assert_eq!(r.cache_control, ["a", "b"]);
        assert_eq!(r.location.as_deref(), Some("/x"));
    }

    #[test]
    fn fetch_cuts_and_fills_in() {
        let site = Authority::of("http://h/").unwrap();
        let big = vec![b'#'; MAX_BODY + 10];
        let f = Fetch::new(&site, Ok(Response::new(200, big)));
        assert!(f.truncated);
        assert_eq!(f.bytes_read, MAX_BODY);
        assert_eq!(f.hops, [Hop::new("http://h/robots.txt", Some(200))]);
        let f = Fetch::new(&site, Err(Failure::new(Unreachable::Timeout)));
        assert_eq!(f.hops, [Hop::new("http://h/robots.txt", None)]);
        assert_eq!(f.outcome.describe(), "unreachable (timeout)");
        let f = Fetch::new(
            &site,
            Ok(Response::new(503, vec![]).header("retry-after", "7")),
        );
        assert_eq!(
            f.retry_after,
            Some(RetryAfter::Delay(Duration::from_secs(7)))
        );
    }

    #[test]
    fn short_io_reasons() {
        use std::io::{Error, ErrorKind};
        assert_eq!(
            io_reason(&Error::from(ErrorKind::ConnectionRefused)),
            Some(Unreachable::Connect("connection refused".into()))
        );
        assert_eq!(
            io_reason(&Error::from(ErrorKind::TimedOut)),
            Some(Unreachable::Timeout)
        );
        assert_eq!(io_reason(&Error::from(ErrorKind::Other)), None);
    }
}
