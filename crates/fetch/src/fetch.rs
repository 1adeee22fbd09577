//! Fetching a robots.txt and mapping the result (REP.md §2).

use std::sync::Arc;
use std::time::Duration;

use robotrules::Robots;
use url::Url;

use crate::{Authority, Error, ErrorKind};

/// Google reads at most this many bytes of a robots.txt (500 KiB).
pub const MAX_BODY: usize = robotrules::FETCH_LIMIT;

/// How many consecutive redirects are followed (RFC 9309: at least five).
pub const MAX_REDIRECTS: usize = 5;

/// What fetching a robots.txt came to, as the crawler must treat it.
#[derive(Clone, Debug)]
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
    /// A 4xx status other than 429.
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
            Unavailable::TooManyRedirects => {
                write!(f, "more than {MAX_REDIRECTS} redirects")
            }
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
    /// The host could not be resolved or connected to.
    Connect(String),
    /// The connection broke, or the response was malformed or could not
    /// be decoded.
    Broken(String),
}

impl std::fmt::Display for Unreachable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unreachable::Status(s) => write!(f, "{s}"),
            Unreachable::Timeout => write!(f, "timeout"),
            Unreachable::Connect(e) => write!(f, "cannot connect: {e}"),
            Unreachable::Broken(e) => write!(f, "broken response: {e}"),
        }
    }
}

/// One request of a fetch: the URL asked and the status it answered.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Hop {
    /// The URL requested.
    pub url: String,
    /// The status, if a response came.
    pub status: Option<u16>,
}

/// Everything that happened when fetching a robots.txt.
#[derive(Clone, Debug)]
pub struct Fetch {
    /// The authority whose robots.txt this is (the first URL's, whatever
    /// the redirects).
    pub authority: Authority,
    /// Each request, in order: redirects, then the final one.
    pub hops: Vec<Hop>,
    /// The outcome the crawler must act on.
    pub outcome: Outcome,
    /// Body bytes read (after content decoding).
    pub bytes_read: usize,
    /// True if the body was longer than the cap and the rest was not read.
    pub truncated: bool,
    /// `Cache-Control: max-age`, if the final response had one.
    pub max_age: Option<Duration>,
    /// `Cache-Control: no-store` was given.
    pub no_store: bool,
    /// `Cache-Control: no-cache` was given.
    pub no_cache: bool,
    /// `Retry-After` in seconds, if the final response had one.
    pub retry_after: Option<Duration>,
    /// The body as read (at most the cap), for tools that show it.
    pub body: Vec<u8>,
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
        }
    }
}

impl FetcherConfig {
    /// The `User-Agent` header sent (default `robotrules/VERSION`).
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
    /// 30 s).
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// How many body bytes are read at most (default 500 KiB).
    pub fn max_body(mut self, bytes: usize) -> Self {
        self.max_body = bytes;
        self
    }

    /// How many redirects are followed (default 5).
    pub fn max_redirects(mut self, redirects: usize) -> Self {
        self.max_redirects = redirects;
        self
    }

    /// Builds the fetcher.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Client`] if the HTTP client cannot be built (for
    /// example, no TLS roots).
    pub fn build(self) -> Result<Fetcher, Error> {
        let client = reqwest::Client::builder()
            .user_agent(self.user_agent.clone())
            .connect_timeout(self.connect_timeout)
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|e| Error::new(ErrorKind::Client, e.to_string()))?;
        Ok(Fetcher { client, config: self })
    }
}

/// Fetches robots.txt files over HTTP, HTTPS and (with the `ftp` feature)
/// FTP, and maps what happens to an [`Outcome`].
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

    /// Fetches the robots.txt of `authority`. Never fails: every problem is
    /// an [`Outcome`].
    pub async fn fetch(&self, authority: &Authority) -> Fetch {
        let mut fetch = Fetch {
            authority: authority.clone(),
            hops: Vec::new(),
            outcome: Outcome::Unreachable(Unreachable::Timeout),
            bytes_read: 0,
            truncated: false,
            max_age: None,
            no_store: false,
            no_cache: false,
            retry_after: None,
            body: Vec::new(),
        };
        let work = async {
            if authority.scheme() == "ftp" {
                self.fetch_ftp(authority, &mut fetch).await
            } else {
                self.fetch_http(authority, &mut fetch).await
            }
        };
        match tokio::time::timeout(self.config.timeout, work).await {
            Ok(outcome) => fetch.outcome = outcome,
            Err(_) => {
                fetch.outcome = Outcome::Unreachable(Unreachable::Timeout)
            }
        }
        fetch
    }

    async fn fetch_http(
        &self,
        authority: &Authority,
        fetch: &mut Fetch,
    ) -> Outcome {
        let mut url = match Url::parse(&authority.robots_url()) {
            Ok(url) => url,
            Err(e) => {
                return Outcome::Unreachable(Unreachable::Broken(
                    e.to_string(),
                ))
            }
        };
        let mut seen = vec![url.clone()];
        loop {
            fetch.hops.push(Hop { url: url.to_string(), status: None });
            let response = match self.client.get(url.clone()).send().await {
                Ok(r) => r,
                Err(e) => return Outcome::Unreachable(classify(&e)),
            };
            let status = response.status().as_u16();
            if let Some(hop) = fetch.hops.last_mut() {
                hop.status = Some(status);
            }
            if (300..400).contains(&status) {
                let Some(next) = response
                    .headers()
                    .get(reqwest::header::LOCATION)
                    .and_then(|l| l.to_str().ok())
                    .and_then(|l| url.join(l).ok())
                else {
                    return Outcome::Unreachable(Unreachable::Broken(
                        format!("{status} without a usable Location"),
                    ));
                };
                if seen.contains(&next) {
                    return Outcome::Unavailable(Unavailable::RedirectLoop);
                }
                if fetch.hops.len() > self.config.max_redirects {
                    return Outcome::Unavailable(
                        Unavailable::TooManyRedirects,
                    );
                }
                if !matches!(next.scheme(), "http" | "https") {
                    return Outcome::Unreachable(Unreachable::Broken(
                        format!("redirect to {next}"),
                    ));
                }
                seen.push(next.clone());
                url = next;
                continue;
            }
            read_cache_headers(response.headers(), fetch);
            return match status {
                200..=299 => match self.read_body(response, fetch).await {
                    Ok(()) => Outcome::Available(Arc::new(Robots::parse(
                        &fetch.body,
                    ))),
                    Err(e) => Outcome::Unreachable(e),
                },
                429 => Outcome::Unreachable(Unreachable::Status(status)),
                400..=499 => Outcome::Unavailable(Unavailable::Status(status)),
                _ => Outcome::Unreachable(Unreachable::Status(status)),
            };
        }
    }

    /// Reads at most the cap of the (decoded) body, and stops there.
    async fn read_body(
        &self,
        mut response: reqwest::Response,
        fetch: &mut Fetch,
    ) -> Result<(), Unreachable> {
        let cap = self.config.max_body;
        loop {
            match response.chunk().await {
                Ok(Some(chunk)) => {
                    let room = cap - fetch.body.len();
                    if chunk.len() > room {
                        fetch.body.extend_from_slice(&chunk[..room]);
                        fetch.truncated = true;
                        break;
                    }
                    fetch.body.extend_from_slice(&chunk);
                }
                Ok(None) => break,
                Err(e) => return Err(classify(&e)),
            }
        }
        fetch.bytes_read = fetch.body.len();
        Ok(())
    }

    #[cfg(feature = "ftp")]
    async fn fetch_ftp(
        &self,
        authority: &Authority,
        fetch: &mut Fetch,
    ) -> Outcome {
        use suppaftp::tokio::AsyncFtpStream;
        use tokio::io::AsyncReadExt;

        fetch.hops.push(Hop { url: authority.robots_url(), status: None });
        let address =
            format!("{}:{}", authority.host(), authority.port().unwrap_or(21));
        let connect = tokio::time::timeout(
            self.config.connect_timeout,
            AsyncFtpStream::connect(address),
        );
        let mut ftp = match connect.await {
            Ok(Ok(ftp)) => ftp,
            Ok(Err(e)) => {
                return Outcome::Unreachable(Unreachable::Connect(
                    e.to_string(),
                ))
            }
            Err(_) => return Outcome::Unreachable(Unreachable::Timeout),
        };
        if let Err(e) = ftp.login("anonymous", "anonymous@").await {
            return Outcome::Unreachable(Unreachable::Broken(format!(
                "login: {e}"
            )));
        }
        // Image type: the bytes as stored, with no line-end conversion.
        if let Err(e) =
            ftp.transfer_type(suppaftp::types::FileType::Binary).await
        {
            return Outcome::Unreachable(Unreachable::Broken(format!(
                "TYPE I: {e}"
            )));
        }
        let mut stream = match ftp.retr_as_stream("/robots.txt").await {
            Ok(stream) => stream,
            Err(e) => return ftp_failure(e, fetch),
        };
        let cap = self.config.max_body;
        let mut buf = vec![0u8; 16 * 1024];
        loop {
            match stream.read(&mut buf).await {
                Ok(0) => break,
                Ok(n) => {
                    let room = cap - fetch.body.len();
                    if n > room {
                        fetch.body.extend_from_slice(&buf[..room]);
                        fetch.truncated = true;
                        break;
                    }
                    fetch.body.extend_from_slice(&buf[..n]);
                }
                Err(e) => {
                    return Outcome::Unreachable(Unreachable::Broken(
                        e.to_string(),
                    ))
                }
            }
        }
        fetch.bytes_read = fetch.body.len();
        if !fetch.truncated {
            // Some servers only report a missing file here, after the
            // (empty) transfer.
            if let Err(e) = stream.finish().await {
                return ftp_failure(e, fetch);
            }
            let _ = ftp.quit().await;
        }
        if let Some(hop) = fetch.hops.last_mut() {
            hop.status = Some(226);
        }
        Outcome::Available(Arc::new(Robots::parse(&fetch.body)))
    }

    #[cfg(not(feature = "ftp"))]
    async fn fetch_ftp(
        &self,
        _authority: &Authority,
        _fetch: &mut Fetch,
    ) -> Outcome {
        Outcome::Unreachable(Unreachable::Connect(
            "this build has no ftp support (feature `ftp`)".into(),
        ))
    }
}

/// Maps an FTP failure: a permanent (5xx) reply such as 550, no such file,
/// means there is no robots.txt; a transient (4xx) reply or a broken
/// connection means the site is unreachable.
#[cfg(feature = "ftp")]
fn ftp_failure(e: suppaftp::FtpError, fetch: &mut Fetch) -> Outcome {
    match e {
        suppaftp::FtpError::UnexpectedResponse(r) => {
            let code = r.status.code() as u16;
            if let Some(hop) = fetch.hops.last_mut() {
                hop.status = Some(code);
            }
            if (500..600).contains(&code) {
                Outcome::Unavailable(Unavailable::Status(code))
            } else {
                Outcome::Unreachable(Unreachable::Status(code))
            }
        }
        e => Outcome::Unreachable(Unreachable::Broken(e.to_string())),
    }
}

fn classify(e: &reqwest::Error) -> Unreachable {
    let mut message = e.to_string();
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        message = format!("{message}: {s}");
        source = s.source();
    }
    if e.is_timeout() {
        Unreachable::Timeout
    } else if e.is_connect() {
        Unreachable::Connect(message)
    } else {
        Unreachable::Broken(message)
    }
}

fn read_cache_headers(
    headers: &reqwest::header::HeaderMap,
    fetch: &mut Fetch,
) {
    for value in headers.get_all(reqwest::header::CACHE_CONTROL) {
        let Ok(value) = value.to_str() else { continue };
        for directive in value.split(',') {
            let directive = directive.trim().to_ascii_lowercase();
            if let Some(age) = directive.strip_prefix("max-age=") {
                if let Ok(secs) = age.trim_matches('"').parse::<u64>() {
                    fetch.max_age = Some(Duration::from_secs(secs));
                }
            } else if directive == "no-store" {
                fetch.no_store = true;
            } else if directive == "no-cache" {
                fetch.no_cache = true;
            }
        }
    }
    fetch.retry_after = headers
        .get(reqwest::header::RETRY_AFTER)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok())
        .map(Duration::from_secs);
}
