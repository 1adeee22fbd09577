//! The JSON API: each route renders `robotrules-analysis` or
//! `robotrules-fetch` data in the shape of the command line's `--json`.

use std::borrow::Cow;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::{Instant, SystemTime};
use tokio::sync::Semaphore;

use axum::extract::rejection::JsonRejection;
use axum::extract::{ConnectInfo, DefaultBodyLimit, FromRequest, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Json, Router};
use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine as _;
use robotrules::Robots;
use robotrules_analysis::{
    audit_file, check_agents, check_url, explain, lint_with,
    question_warnings, Catalogue, Check, FetchLimit, Options,
};
use robotrules_fetch::{
    AddressPolicy, Authority, Fetcher, FetcherConfig, Outcome, Report,
    Unreachable,
};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::timeout::TimeoutLayer;

use crate::assets;
use crate::limit::Limiter;
use crate::Config;

/// Where the OpenAPI document of the API is served.
pub const OPENAPI_PATH: &str = "/api/openapi.json";

/// The most URLs one check asks about.
const MAX_URLS: usize = 1_000;
/// The most names one crawler has.
const MAX_AGENTS: usize = 32;

/// The most bytes the names of `agents` may take in all.
const MAX_AGENT_BYTES: usize = 2048;

/// The most bytes of one check's answer: every answer repeats its names,
/// their warnings and the deciding rule (up to a line's 16 KiB), so a
/// small request about many URLs could ask for an answer thousands of
/// times its size. Past this, the check is refused, so that an answer
/// takes at most a few request bodies' memory.
const MAX_ANSWER_BYTES: usize = 4 << 20;

#[derive(Clone)]
struct App {
    fetcher: Fetcher,
    limiter: Arc<Limiter>,
    catalogue: Arc<Catalogue>,
    /// Places for analyses running at once (see [`blocking`]).
    work: Arc<Semaphore>,
    /// The proxies whose `X-Forwarded-For` is believed.
    proxies: Arc<[IpAddr]>,
}

pub(crate) fn router(
    config: &Config,
) -> Result<Router, robotrules_fetch::Error> {
    let policy = match (&config.address_policy, config.allow_private_fetch) {
        (Some(policy), _) => policy.clone(),
        (None, true) => AddressPolicy::any(),
        (None, false) => AddressPolicy::public_only(),
    };
    let fetcher = FetcherConfig::default()
        .timeout(config.fetch_timeout)
        .connect_timeout(config.fetch_timeout)
        .address_policy(policy)
        .build()?;
    // Analyses run off the connection threads; a few at a time, so that a
    // flood of large files queues (until the time limit) instead of
    // taking every thread. A request takes its place once its body is
    // read, so that slow clients cannot hold the places.
    let analyses = std::thread::available_parallelism().map_or(2, |n| n.get());
    let app = App {
        fetcher,
        limiter: Arc::new(Limiter::new(config.fetches_per_minute)),
        catalogue: Arc::new(Catalogue::builtin()),
        work: Arc::new(Semaphore::new(2 * analyses)),
        proxies: config.proxies.iter().copied().collect(),
    };
    let api = Router::new()
        .route("/api/explain", post(explain_route))
        .route("/api/lint", post(lint))
        .route("/api/audit", post(audit_route))
        .route("/api/check", post(check))
        .route("/api/fetch", post(fetch))
        .route("/api/catalogue", get(catalogue))
        .route(OPENAPI_PATH, get(openapi))
        .fallback(not_found)
        .layer(SetResponseHeaderLayer::overriding(
            header::CACHE_CONTROL,
            HeaderValue::from_static("no-store"),
        ))
        .with_state(app);
    let router = Router::new()
        .merge(assets::router())
        .merge(api)
        .layer(DefaultBodyLimit::max(config.max_body))
        .layer(RequestBodyLimitLayer::new(config.max_body))
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            config.request_timeout,
        ))
        .layer(axum::middleware::map_response(json_errors));
    Ok(assets::secure(router))
}

/// An error answer: `{"error": "…"}` with a status.
#[derive(Debug)]
pub(crate) struct ApiError {
    status: StatusCode,
    message: String,
    retry_after: Option<u64>,
}

impl ApiError {
    fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError { status, message: message.into(), retry_after: None }
    }

    fn invalid(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = Json(serde_json::json!({ "error": self.message }));
        let mut response = (self.status, body).into_response();
        response.headers_mut().insert(
            header::CACHE_CONTROL,
            HeaderValue::from_static("no-store"),
        );
        if let Some(secs) = self.retry_after {
            response.headers_mut().insert(header::RETRY_AFTER, secs.into());
        }
        response
    }
}

/// A JSON body, or an [`ApiError`] that says what is wrong with it: 415
/// without a JSON content type, 400 for malformed JSON (invalid UTF-8
/// included), 422 for JSON of the wrong shape, 413 for a body over the
/// limit.
struct Body<T>(T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(
        req: axum::extract::Request,
        state: &S,
    ) -> Result<Self, ApiError> {
        if !is_json(req.headers()) {
            return Err(ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "Expected request with `Content-Type: application/json`",
            ));
        }
        let bytes = match axum::body::Bytes::from_request(req, state).await {
            Ok(bytes) => bytes,
            Err(rejection)
                if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE =>
            {
                return Err(too_large())
            }
            Err(rejection) => {
                return Err(ApiError::new(
                    rejection.status(),
                    rejection.body_text(),
                ))
            }
        };
        // A byte order mark in front is no JSON, but parsers may ignore
        // it (RFC 8259 §8.1): so does this one.
        let text = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
        // serde reads a struct from an array as well: every request is
        // an object.
        // (JSON that is not well formed is the parser's 400.)
        let first = text.iter().find(|b| !b.is_ascii_whitespace());
        if first.is_some_and(|&b| b != b'{')
            && serde_json::from_slice::<serde::de::IgnoredAny>(text).is_ok()
        {
            return Err(ApiError::invalid(
                "the request must be a JSON object",
            ));
        }
        match Json::<T>::from_bytes(text) {
            Ok(Json(value)) => Ok(Body(value)),
            Err(rejection) => Err(rejected(rejection)),
        }
    }
}

/// Whether the request says its body is JSON: `application/json`, or a
/// type with the `+json` suffix, as axum's `Json` accepts.
fn is_json(headers: &axum::http::HeaderMap) -> bool {
    let Some(value) = headers.get(header::CONTENT_TYPE) else {
        return false;
    };
    let Ok(value) = value.to_str() else { return false };
    let essence = value.split(';').next().unwrap_or_default().trim();
    let essence = essence.to_ascii_lowercase();
    essence == "application/json"
        || (essence.starts_with("application/") && essence.ends_with("+json"))
}

fn rejected(rejection: JsonRejection) -> ApiError {
    match rejection.status() {
        StatusCode::PAYLOAD_TOO_LARGE => too_large(),
        status => ApiError::new(status, rejection.body_text()),
    }
}

/// The answers of the layers (the body limit, the time limit, the
/// router's 405), as JSON like every error of the API; their other
/// headers (`Allow`) are kept.
async fn json_errors(mut response: Response) -> Response {
    let status = response.status();
    let failed = status.is_client_error() || status.is_server_error();
    // No error is kept by a cache, whichever layer answered it (the body
    // limit, the time limit, the host check).
    if failed {
        response.headers_mut().insert(
            header::CACHE_CONTROL,
            HeaderValue::from_static("no-store"),
        );
    }
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|t| t.as_bytes().starts_with(b"application/json"));
    if is_json || !failed {
        return response;
    }
    let error = match status {
        StatusCode::PAYLOAD_TOO_LARGE => too_large(),
        StatusCode::REQUEST_TIMEOUT => ApiError::new(
            status,
            "the request took longer than the time limit",
        ),
        StatusCode::METHOD_NOT_ALLOWED => ApiError::new(
            status,
            "this route does not take this method (see the Allow header)",
        ),
        _ => ApiError::new(
            status,
            status.canonical_reason().unwrap_or("the request failed"),
        ),
    };
    let (mut parts, _) = response.into_parts();
    let json = error.into_response();
    parts.headers.remove(header::CONTENT_LENGTH);
    for (name, value) in json.headers() {
        parts.headers.insert(name, value.clone());
    }
    Response::from_parts(parts, json.into_body())
}

/// Answers 403 to a request whose `Host` is neither a loopback host nor
/// one of `allowed` (see [`crate::serve`]); a request without `Host`
/// (HTTP/1.0) passes.
pub(crate) async fn loopback_host(
    allowed: Arc<Vec<String>>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let host = request
        .headers()
        .get(header::HOST)
        .map(|h| String::from_utf8_lossy(h.as_bytes()).to_ascii_lowercase());
    match host {
        Some(host) if !is_loopback_host(&host, &allowed) => ApiError::new(
            StatusCode::FORBIDDEN,
            "this tester listens on a loopback address and answers only \
             requests for localhost, 127.0.0.1 or [::1] (or a name given \
             with --allow-host)",
        )
        .into_response(),
        _ => next.run(request).await,
    }
}

/// Returns true if `host` (a `Host` value, in lowercase) names a loopback
/// address or one of `allowed`, with any port.
fn is_loopback_host(host: &str, allowed: &[String]) -> bool {
    let name = match host.strip_prefix('[') {
        // `[::1]:8080`
        Some(rest) => rest.split(']').next().unwrap_or_default(),
        None => host.rsplit_once(':').map_or(host, |(name, _)| name),
    };
    name == "localhost"
        || name.ends_with(".localhost")
        || name.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
        || allowed.iter().any(|a| a == name)
}

fn too_large() -> ApiError {
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        "the request body is over the size limit",
    )
}

async fn not_found(uri: axum::http::Uri) -> ApiError {
    let what = if uri.path().starts_with("/api/") {
        "no such API route"
    } else {
        "no such page: the tester is at /"
    };
    ApiError::new(StatusCode::NOT_FOUND, what)
}

/// The file of a request, from its `robots` (text) or `robots_base64`
/// (bytes: a file that is not UTF-8, or whose exact bytes matter, which a
/// JSON string cannot carry); exactly one of them.
fn robots_bytes<'a>(
    text: &'a Option<String>,
    encoded: &Option<String>,
) -> Result<Cow<'a, [u8]>, ApiError> {
    match (text, encoded) {
        (Some(text), None) => Ok(Cow::Borrowed(text.as_bytes())),
        (None, Some(encoded)) => {
            BASE64.decode(encoded).map(Cow::Owned).map_err(|e| {
                ApiError::invalid(format!(
                    "`robots_base64` is not standard base64: {e}"
                ))
            })
        }
        (Some(_), Some(_)) => Err(ApiError::invalid(
            "give the file once: `robots` or `robots_base64`, not both",
        )),
        (None, None) => Err(ApiError::invalid(
            "give the file: `robots` (text) or `robots_base64` (bytes)",
        )),
    }
}

/// A field that may be left out but, when given, is a string (not null).
fn string<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<String>, D::Error> {
    String::deserialize(deserializer).map(Some)
}

/// `POST /api/check`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CheckRequest {
    #[serde(default, deserialize_with = "string")]
    robots: Option<String>,
    #[serde(default, deserialize_with = "string")]
    robots_base64: Option<String>,
    agents: Vec<String>,
    urls: Vec<String>,
}

fn agent_names(agents: &[String]) -> Result<Vec<&str>, ApiError> {
    if agents.is_empty() || agents.len() > MAX_AGENTS {
        return Err(ApiError::invalid(format!(
            "give 1 to {MAX_AGENTS} names of one crawler in `agents`"
        )));
    }
    // Every answer repeats the names: long ones would make an answer
    // many times the request.
    if agents.iter().map(String::len).sum::<usize>() > MAX_AGENT_BYTES {
        return Err(ApiError::invalid(format!(
            "the names in `agents` take more than {MAX_AGENT_BYTES} bytes \
             in all: give crawler names (product tokens such as \
             `Googlebot`), not whole User-Agent headers"
        )));
    }
    Ok(agents.iter().map(String::as_str).collect())
}

/// One answer per URL, as `robotrules check --json` prints them.
async fn check(
    State(app): State<App>,
    Body(req): Body<CheckRequest>,
) -> Result<Response, ApiError> {
    agent_names(&req.agents)?;
    if req.urls.is_empty() || req.urls.len() > MAX_URLS {
        return Err(ApiError::invalid(format!(
            "give 1 to {MAX_URLS} URLs in `urls`"
        )));
    }
    blocking(&app, move || check_all(&req, &agent_names(&req.agents)?)).await
}

/// The answers as a JSON array, written one after the other and refused
/// as soon as they pass [`MAX_ANSWER_BYTES`].
fn check_all(
    req: &CheckRequest,
    names: &[&str],
) -> Result<Response, ApiError> {
    let body = robots_bytes(&req.robots, &req.robots_base64)?;
    let body = &body[..];
    let robots = Robots::parse(body);
    let matcher = robots.matcher(names);
    let agent_warnings = check_agents(names);
    let limit = FetchLimit::new(body, names);
    let mut out = vec![b'['];
    for (i, url) in req.urls.iter().enumerate() {
        let decision = matcher.decide(url);
        let warnings = question_warnings(
            agent_warnings.clone(),
            url,
            |u| matcher.is_allowed(u),
            &decision,
            limit.as_ref(),
        );
        let check = Check::with_warnings(&decision, names, url, warnings);
        if i > 0 {
            out.push(b',');
        }
        serde_json::to_writer(&mut out, &check).map_err(|e| {
            ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string())
        })?;
        if out.len() > MAX_ANSWER_BYTES {
            return Err(ApiError::invalid(format!(
                "the answers to the first {} of these {} URLs already take \
                 more than {} MiB: ask about fewer URLs at once",
                i + 1,
                req.urls.len(),
                MAX_ANSWER_BYTES >> 20
            )));
        }
    }
    out.push(b']');
    Ok(([(header::CONTENT_TYPE, "application/json")], out).into_response())
}

/// `POST /api/explain`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ExplainRequest {
    #[serde(default, deserialize_with = "string")]
    robots: Option<String>,
    #[serde(default, deserialize_with = "string")]
    robots_base64: Option<String>,
    agents: Vec<String>,
    url: String,
}

/// The explanation of one verdict, as `robotrules explain --json` prints
/// it: the analysis crate's `Explanation` and the warnings.
async fn explain_route(
    State(app): State<App>,
    Body(req): Body<ExplainRequest>,
) -> Result<Response, ApiError> {
    agent_names(&req.agents)?;
    blocking(&app, move || {
        let names = agent_names(&req.agents)?;
        let body = robots_bytes(&req.robots, &req.robots_base64)?;
        let body = &body[..];
        let robots = Robots::parse(body);
        let explanation = explain(&robots, body, &names, &req.url);
        let mut warnings = check_agents(&names);
        warnings.extend(check_url(&req.url));
        warnings.extend(explanation.fetch_limit_warning());

        #[derive(serde::Serialize)]
        struct Answer<'a, T> {
            #[serde(flatten)]
            explanation: &'a T,
            warnings: &'a [robotrules_analysis::Warning],
        }
        let answer = Answer { explanation: &explanation, warnings: &warnings };
        capped_json(&answer, "the explanation")
    })
    .await
}

/// `POST /api/lint` and `POST /api/audit`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileRequest {
    #[serde(default, deserialize_with = "string")]
    robots: Option<String>,
    #[serde(default, deserialize_with = "string")]
    robots_base64: Option<String>,
}

/// The diagnostics, as `robotrules lint --json` prints them.
async fn lint(
    State(app): State<App>,
    Body(req): Body<FileRequest>,
) -> Result<Response, ApiError> {
    blocking(&app, move || {
        let body = robots_bytes(&req.robots, &req.robots_base64)?;
        let body = &body[..];
        let robots = Robots::parse(body);
        capped_json(&lint_with(&robots, body, &Options::default()), "the lint")
    })
    .await
}

/// Each catalogue crawler's standing, as `robotrules audit --json` prints
/// it.
async fn audit_route(
    State(app): State<App>,
    Body(req): Body<FileRequest>,
) -> Result<Response, ApiError> {
    let catalogue = Arc::clone(&app.catalogue);
    blocking(&app, move || {
        let body = robots_bytes(&req.robots, &req.robots_base64)?;
        let robots = Robots::parse(&body);
        capped_json(&audit_file(&robots, &body, &catalogue), "the audit")
    })
    .await
}

/// `POST /api/fetch`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FetchRequest {
    url: String,
}

/// The client of a request from `peer`: `peer`, or, if it is one of
/// `proxies`, the right-most address of `X-Forwarded-For` that is not one
/// of them (see [`Config::trust_proxy`]); `peer` if an entry on the way
/// is not an address.
fn client(peer: IpAddr, headers: &HeaderMap, proxies: &[IpAddr]) -> IpAddr {
    if !proxies.contains(&peer) {
        return peer;
    }
    // From the right: what a client wrote itself, on the left, is never
    // read.
    for value in headers.get_all("x-forwarded-for").iter().rev() {
        let Ok(value) = value.to_str() else { return peer };
        for part in value.rsplit(',') {
            match part.trim().parse::<IpAddr>() {
                Ok(ip) if proxies.contains(&ip) => {}
                Ok(ip) => return ip,
                Err(_) => return peer,
            }
        }
    }
    peer
}

/// Fetches a site's robots.txt as a crawler must: the report of
/// `robotrules fetch --json`, and the file when its rules apply.
async fn fetch(
    State(app): State<App>,
    peer: Option<Extension<ConnectInfo<SocketAddr>>>,
    headers: HeaderMap,
    Body(req): Body<FetchRequest>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let authority = Authority::of(req.url.trim())
        .map_err(|e| ApiError::invalid(e.to_string()))?;
    let peer = peer.map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |c| c.0 .0.ip());
    let ip = client(peer, &headers, &app.proxies);
    if let Err(wait) = app.limiter.take(ip, Instant::now()) {
        let mut e = ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "too many fetches from this client: try again later",
        );
        e.retry_after = Some(wait.as_secs().max(1));
        return Err(e);
    }
    let fetch = app.fetcher.fetch(&authority).await;
    if let Outcome::Unreachable(Unreachable::Refused(why)) = &fetch.outcome {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            format!(
                "refused: {why} (this server fetches only from public \
                 addresses)"
            ),
        ));
    }
    let report = Report::new(&fetch, SystemTime::now());
    let body: &[u8] = match fetch.outcome {
        Outcome::Available(_) => &fetch.body,
        _ => b"",
    };
    // A file that is not UTF-8 comes as its bytes too: its text, with
    // U+FFFD for what does not decode, would not give its verdicts.
    let (robots, robots_base64) = match std::str::from_utf8(body) {
        Ok(text) => (Cow::Borrowed(text), None),
        Err(_) => (String::from_utf8_lossy(body), Some(BASE64.encode(body))),
    };
    Ok(Json(serde_json::json!({
        "report": to_json(&report)?,
        "robots": robots,
        "robots_base64": robots_base64,
    })))
}

/// The built-in crawler catalogue.
async fn catalogue(State(app): State<App>) -> Json<serde_json::Value> {
    Json(serde_json::to_value(app.catalogue.crawlers()).unwrap_or_default())
}

async fn openapi() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "application/json")],
        include_str!("openapi.json"),
    )
}

/// `value` as a JSON answer, written straight to its bytes and refused
/// (422, naming `what`) as soon as they pass [`MAX_ANSWER_BYTES`]: a
/// file of 1 MiB can ask for an answer many times its size (an audit
/// lists, for every crawler, each line of the groups that apply to it).
fn capped_json<T: serde::Serialize>(
    value: &T,
    what: &str,
) -> Result<Response, ApiError> {
    /// A writer that takes at most [`MAX_ANSWER_BYTES`].
    struct Capped(Vec<u8>);

    impl std::io::Write for Capped {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            if self.0.len() + buf.len() > MAX_ANSWER_BYTES {
                return Err(std::io::Error::other("too long"));
            }
            self.0.extend_from_slice(buf);
            Ok(buf.len())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    let mut out = Capped(Vec::new());
    match serde_json::to_writer(&mut out, value) {
        Ok(()) => Ok(([(header::CONTENT_TYPE, "application/json")], out.0)
            .into_response()),
        Err(e) if e.is_io() => Err(ApiError::invalid(format!(
            "{what} of this file takes more than {} MiB: too much to \
             answer here (`robotrules` on the command line has no limit)",
            MAX_ANSWER_BYTES >> 20
        ))),
        Err(e) => Err(ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            e.to_string(),
        )),
    }
}

fn to_json<T: serde::Serialize>(
    value: &T,
) -> Result<serde_json::Value, ApiError> {
    serde_json::to_value(value).map_err(|e| {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string())
    })
}

/// Runs analysis work off the threads that serve connections, once one
/// of the app's places for it is free.
async fn blocking<T: Send + 'static>(
    app: &App,
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let Ok(place) = Arc::clone(&app.work).acquire_owned().await else {
        return Err(ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "the server is stopping",
        ));
    };
    let work = move || {
        let out = work();
        drop(place);
        out
    };
    tokio::task::spawn_blocking(work).await.unwrap_or_else(|_| {
        Err(ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the analysis failed",
        ))
    })
}
