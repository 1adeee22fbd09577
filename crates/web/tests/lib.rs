//! Every route of the tester on a real server on 127.0.0.1, bad input
//! included. Answers are compared with the analysis library's own data:
//! the API renders it, and computes nothing of its own.

use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::http::{header, StatusCode};
use axum::routing::get;
use axum::Router;
use reqwest::Client;
use robotrules::Robots;
use robotrules_analysis::{audit, explain, lint, Catalogue, Check};
use robotrules_fetch::AddressPolicy;
use robotrules_web::{serve, Config};
use serde_json::{json, Value};
use tokio::net::TcpListener;

const ROBOTS: &str = "User-agent: *\nDisallow: /private\nAllow: /private/ok\nDisalow: /tmp\n\nUser-agent: GPTBot\nDisallow: /\n";

/// Starts the tester on a free loopback port.
async fn start(config: Config) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(serve(listener, config));
    format!("http://{addr}")
}

/// A site on loopback whose robots.txt counts its requests.
async fn site() -> (SocketAddr, Arc<AtomicUsize>) {
    let hits = Arc::new(AtomicUsize::new(0));
    let counter = hits.clone();
    let app = Router::new()
        .route(
            "/robots.txt",
            get(move || {
                counter.fetch_add(1, Ordering::SeqCst);
                async { ([(header::CACHE_CONTROL, "max-age=600")], ROBOTS) }
            }),
        )
        .route(
            "/moved",
            get(|| async {
                (
                    StatusCode::MOVED_PERMANENTLY,
                    [(header::LOCATION, "/robots.txt")],
                )
            }),
        );
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await });
    (addr, hits)
}

/// What `/api/fetch` of a tester that may fetch from loopback answers
/// for a site served by `app`; asserts a 200.
async fn fetched_from(app: Router) -> Value {
    let addr = serving(app).await;
    let base = start(Config::default().allow_private_fetch(true)).await;
    let (status, body) =
        post(&base, "/api/fetch", json!({"url": format!("http://{addr}/")}))
            .await;
    assert_eq!(status, 200, "{body}");
    body
}

/// Serves `app` on a free loopback port.
async fn serving(app: Router) -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await });
    addr
}

async fn post(base: &str, route: &str, body: Value) -> (StatusCode, Value) {
    let response = Client::new()
        .post(format!("{base}{route}"))
        .json(&body)
        .send()
        .await
        .unwrap();
    let status = StatusCode::from_u16(response.status().as_u16()).unwrap();
    (status, response.json().await.unwrap())
}

async fn post_raw(
    base: &str,
    route: &str,
    content_type: &str,
    body: Vec<u8>,
) -> (StatusCode, Value) {
    let response = Client::new()
        .post(format!("{base}{route}"))
        .header("content-type", content_type)
        .body(body)
        .send()
        .await
        .unwrap();
    let status = StatusCode::from_u16(response.status().as_u16()).unwrap();
    (status, response.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn the_page_and_its_assets_with_security_headers() {
    let base = start(Config::default()).await;
    for (path, kind, needle) in [
        ("/", "text/html", "robots.txt tester"),
        ("/app.js", "text/javascript", "/api/check"),
        ("/app.css", "text/css", ".editor"),
        ("/favicon.svg", "image/svg+xml", "<svg"),
        ("/example.txt", "text/plain", "User-agent: GPTBot"),
    ] {
        let r = reqwest::get(format!("{base}{path}")).await.unwrap();
        assert_eq!(r.status(), 200, "{path}");
        let h = r.headers();
        assert!(h["content-type"].to_str().unwrap().starts_with(kind));
        let csp = h["content-security-policy"].to_str().unwrap();
        assert!(csp.contains("default-src 'none'"));
        assert!(csp.contains("script-src 'self'") && !csp.contains("unsafe"));
        assert_eq!(h["x-content-type-options"], "nosniff");
        assert_eq!(h["x-frame-options"], "DENY");
        assert_eq!(h["referrer-policy"], "no-referrer");
        assert!(r.text().await.unwrap().contains(needle), "{path}");
    }
    // No third-party asset, no inline script or style.
    let html =
        reqwest::get(format!("{base}/")).await.unwrap().text().await.unwrap();
    for attribute in ["src=", "href="] {
        for quoted in ["\"http", "\"//"] {
            assert!(!html.contains(&format!("{attribute}{quoted}")));
        }
    }
    assert!(!html.contains("<script>") && !html.contains("style="));
    assert!(!html.contains("<style"));
    let r = reqwest::get(format!("{base}/api/nothing")).await.unwrap();
    assert_eq!(r.status(), 404);
    assert_eq!(r.headers()["cache-control"], "no-store");
    let error: Value = r.json().await.unwrap();
    assert_eq!(error["error"], "no such API route");
    let r = reqwest::get(format!("{base}/nope")).await.unwrap();
    assert_eq!(r.status(), 404);
    let error: Value = r.json().await.unwrap();
    assert_eq!(error["error"], "no such page: the tester is at /");
}

#[tokio::test]
async fn check_renders_the_analysis() {
    let base = start(Config::default()).await;
    let urls =
        ["https://example.com/private/x", "/private/ok", "/caf\u{e9}", "x"];
    let (status, body) = post(
        &base,
        "/api/check",
        json!({"robots": ROBOTS, "agents": ["BarBot"], "urls": urls}),
    )
    .await;
    assert_eq!(status, 200);
    let robots = Robots::parse(ROBOTS.as_bytes());
    let matcher = robots.matcher(&["BarBot"]);
    let expected: Vec<Value> = urls
        .iter()
        .map(|u| {
            let check =
                Check::new(&matcher, ROBOTS.as_bytes(), &["BarBot"], u);
            serde_json::to_value(check).unwrap()
        })
        .collect();
    assert_eq!(body.as_array().unwrap(), &expected);
    assert_eq!(body[0]["allowed"], false);
    assert_eq!(body[0]["rule"]["line"], 2);
    assert_eq!(body[1]["rule"]["line"], 3);
    assert_eq!(body[2]["warnings"][0]["kind"], "needs-encoding");
    assert!(body[2]["warnings"][0]["message"]
        .as_str()
        .unwrap()
        .ends_with(", which is ALLOWED"));
    assert_eq!(body[3]["warnings"][0]["kind"], "not-url");
    // Several names of one crawler.
    let (_, body) = post(
        &base,
        "/api/check",
        json!({"robots": ROBOTS, "agents": ["gptbot", "Other"], "urls": ["/"]}),
    )
    .await;
    assert_eq!(body[0]["allowed"], false);
    assert_eq!(body[0]["agents"], json!(["gptbot", "Other"]));
}

#[tokio::test]
async fn explain_lint_audit_render_the_analysis() {
    let base = start(Config::default()).await;
    let body = ROBOTS.as_bytes();
    let robots = Robots::parse(body);
    let (status, got) = post(
        &base,
        "/api/explain",
        json!({"robots": ROBOTS, "agents": ["GPTBot"], "url": "/a"}),
    )
    .await;
    assert_eq!(status, 200);
    let mut want =
        serde_json::to_value(explain(&robots, body, &["GPTBot"], "/a"))
            .unwrap();
    want["warnings"] = json!([]);
    assert_eq!(got, want);
    assert_eq!(got["rule"]["line"], 7);
    assert_eq!(got["named"], true);

    let (status, got) =
        post(&base, "/api/lint", json!({"robots": ROBOTS})).await;
    assert_eq!(status, 200);
    assert_eq!(got, serde_json::to_value(lint(body)).unwrap());
    assert_eq!(got[0]["code"], "RT102");
    assert_eq!(got[0]["line"], 4);

    let (status, got) =
        post(&base, "/api/audit", json!({"robots": ROBOTS})).await;
    assert_eq!(status, 200);
    let want = audit(&robots, &Catalogue::builtin());
    assert_eq!(got, serde_json::to_value(&want).unwrap());
    let gpt = got
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["token"] == "GPTBot")
        .unwrap();
    assert_eq!(
        (gpt["access"].as_str(), gpt["via"].as_str()),
        (Some("disallowed"), Some("named"))
    );

    let r = reqwest::get(format!("{base}/api/catalogue")).await.unwrap();
    let got: Value = r.json().await.unwrap();
    assert_eq!(
        got,
        serde_json::to_value(Catalogue::builtin().crawlers()).unwrap()
    );
}

/// A file that is not UTF-8, whose verdicts its text (U+FFFD for `\xe9`)
/// would not give: `/caf\xe9` is `/caf%E9`, U+FFFD is `%EF%BF%BD`.
const LATIN1: &[u8] = b"User-agent: *\r\nDisallow: /caf\xe9\r\n";

#[tokio::test]
async fn files_over_500_kib_say_what_crawlers_read() {
    // The group that names GPTBot lies beyond the first 500 KiB.
    let mut body = String::from("User-agent: *\nDisallow: /a\n");
    while body.len() <= robotrules::FETCH_LIMIT {
        body.push_str("# padding padding padding padding padding\n");
    }
    body.push_str("User-agent: GPTBot\nDisallow: /b\n");
    let base = start(Config::default()).await;
    let (status, got) = post(
        &base,
        "/api/check",
        json!({"robots": body, "agents": ["GPTBot"], "urls": ["/a"]}),
    )
    .await;
    assert_eq!(status, 200, "{got}");
    assert_eq!(got[0]["allowed"], true);
    assert_eq!(got[0]["warnings"][0]["kind"], "beyond-fetch-limit");
    let (status, got) = post(
        &base,
        "/api/explain",
        json!({"robots": body, "agents": ["GPTBot"], "url": "/a"}),
    )
    .await;
    assert_eq!(status, 200, "{got}");
    assert_eq!(got["as_fetched"]["allowed"], false);
    assert_eq!(got["as_fetched"]["rule"]["line"], 2);
    assert_eq!(got["warnings"][0]["kind"], "beyond-fetch-limit");
    let (status, got) =
        post(&base, "/api/audit", json!({"robots": body})).await;
    assert_eq!(status, 200, "{got}");
    let gpt = got
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["token"] == "GPTBot")
        .unwrap();
    assert_eq!(
        (gpt["via"].as_str(), gpt["access"].as_str()),
        (Some("named"), Some("partial"))
    );
    let fetched = &gpt["as_fetched"];
    assert_eq!(fetched["via"], "global");
    assert_eq!(fetched["disallowed_path"], "/a");
}

#[tokio::test]
async fn files_that_are_not_utf8_are_given_as_bytes() {
    use base64::Engine as _;
    let encoded = base64::engine::general_purpose::STANDARD.encode(LATIN1);
    let base = start(Config::default()).await;
    let robots = Robots::parse(LATIN1);
    let matcher = robots.matcher(&["BarBot"]);
    let urls = ["/caf%E9", "/caf%EF%BF%BD"];
    let (status, got) = post(
        &base,
        "/api/check",
        json!({"robots_base64": encoded, "agents": ["BarBot"], "urls": urls}),
    )
    .await;
    assert_eq!(status, 200, "{got}");
    let want: Vec<Value> = urls
        .iter()
        .map(|u| {
            let check = Check::new(&matcher, LATIN1, &["BarBot"], u);
            serde_json::to_value(check).unwrap()
        })
        .collect();
    assert_eq!(got.as_array().unwrap(), &want);
    assert_eq!(
        (&got[0]["allowed"], &got[1]["allowed"]),
        (&json!(false), &json!(true))
    );
    // The same file as text is another file.
    let lossy = String::from_utf8_lossy(LATIN1);
    let (_, text) = post(
        &base,
        "/api/check",
        json!({"robots": lossy, "agents": ["BarBot"], "urls": urls}),
    )
    .await;
    assert_eq!(
        (&text[0]["allowed"], &text[1]["allowed"]),
        (&json!(true), &json!(false))
    );

    let (status, got) = post(
        &base,
        "/api/explain",
        json!({"robots_base64": encoded, "agents": ["BarBot"], "url": "/caf%E9"}),
    )
    .await;
    assert_eq!(status, 200, "{got}");
    let mut want =
        serde_json::to_value(explain(&robots, LATIN1, &["BarBot"], "/caf%E9"))
            .unwrap();
    want["warnings"] = json!([]);
    assert_eq!(got, want);
    let (status, got) =
        post(&base, "/api/lint", json!({"robots_base64": encoded})).await;
    assert_eq!(status, 200);
    assert_eq!(got, serde_json::to_value(lint(LATIN1)).unwrap());
    let (status, got) =
        post(&base, "/api/audit", json!({"robots_base64": encoded})).await;
    assert_eq!(status, 200);
    let want = audit(&robots, &Catalogue::builtin());
    assert_eq!(got, serde_json::to_value(&want).unwrap());

    // Exactly one of the two, in base64.
    for body in [
        json!({"robots": "", "robots_base64": ""}),
        json!({}),
        json!({"robots_base64": "not base64!"}),
        json!({"robots_base64": "QQ"}),
        json!({"robots": "", "robots_base64": null}),
        json!({"robots": null}),
    ] {
        let (status, got) = post(&base, "/api/lint", body.clone()).await;
        assert_eq!(status, 422, "{body}");
        assert!(got["error"].as_str().unwrap().contains("robots"), "{got}");
    }
}

#[tokio::test]
async fn a_fetched_file_that_is_not_utf8_comes_as_its_bytes() {
    use base64::Engine as _;
    let app = Router::new().route("/robots.txt", get(|| async { LATIN1 }));
    let body = fetched_from(app).await;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(body["robots_base64"].as_str().unwrap())
        .unwrap();
    assert_eq!(bytes, LATIN1);
    assert_eq!(body["robots"], String::from_utf8_lossy(LATIN1).as_ref());
    assert_eq!(body["report"]["summary"]["rules"], 1);
}

#[tokio::test]
async fn the_openapi_document_names_every_route() {
    let base = start(Config::default()).await;
    let r = reqwest::get(format!("{base}{}", robotrules_web::OPENAPI_PATH))
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let doc: Value = r.json().await.unwrap();
    assert_eq!(doc["openapi"], "3.0.3");
    for route in ["check", "explain", "lint", "audit", "fetch"] {
        assert!(
            doc["paths"][format!("/api/{route}")]["post"].is_object(),
            "{route}"
        );
    }
    assert!(doc["paths"]["/api/catalogue"]["get"].is_object());
}

#[tokio::test]
async fn a_byte_order_mark_before_the_json_is_passed_over() {
    let base = start(Config::default()).await;
    let mut body = b"\xEF\xBB\xBF".to_vec();
    body.extend(
        json!({"robots": "User-agent: *\nDisallow: /x\n", "agents": ["a"], "urls": ["/x"]})
            .to_string()
            .into_bytes(),
    );
    let (status, v) =
        post_raw(&base, "/api/check", "application/json", body).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v[0]["allowed"], false, "{v}");
    // Not JSON at all is malformed (400); JSON that is no object, 422.
    for (body, want) in [
        (&b"xyz"[..], StatusCode::BAD_REQUEST),
        (b"\xEF\xBB\xBF\xEF\xBB\xBF{}", StatusCode::BAD_REQUEST),
        (b"[1, 2]", StatusCode::UNPROCESSABLE_ENTITY),
        (b"null", StatusCode::UNPROCESSABLE_ENTITY),
    ] {
        let (status, v) =
            post_raw(&base, "/api/lint", "application/json", body.to_vec())
                .await;
        assert_eq!(status, want, "{body:?}: {v}");
        assert!(v["error"].is_string(), "{v}");
    }
}

#[tokio::test]
async fn bad_input_gets_clear_errors() {
    let base = start(Config::default()).await;
    // Over the 1 MiB cap.
    let big = json!({"robots": "#".repeat(2 << 20)}).to_string().into_bytes();
    let (status, body) =
        post_raw(&base, "/api/lint", "application/json", big).await;
    assert_eq!(status, 413);
    assert!(body["error"].as_str().unwrap().contains("size limit"));
    // No cache keeps an error, whichever layer answered it.
    let r = Client::new()
        .post(format!("{base}/api/lint"))
        .header("content-type", "application/json")
        .body(json!({"robots": "#".repeat(2 << 20)}).to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 413);
    assert_eq!(r.headers()["cache-control"], "no-store");
    // Not UTF-8.
    let (status, body) = post_raw(
        &base,
        "/api/lint",
        "application/json",
        b"{\"robots\": \"\xff\xfe\"}".to_vec(),
    )
    .await;
    assert_eq!(status, 400);
    assert!(body["error"].as_str().unwrap().contains("unicode"), "{body}");
    // Not JSON, or not declared as JSON.
    let (status, _) =
        post_raw(&base, "/api/lint", "application/json", b"{".to_vec()).await;
    assert_eq!(status, 400);
    let (status, _) =
        post_raw(&base, "/api/lint", "text/plain", b"{}".to_vec()).await;
    assert_eq!(status, 415);
    // The wrong shape.
    for (route, body) in [
        ("/api/lint", json!({})),
        ("/api/lint", json!({"robots": 5})),
        ("/api/lint", json!({"robots": "", "extra": 1})),
        ("/api/check", json!({"robots": "", "agents": [], "urls": ["/"]})),
        ("/api/check", json!({"robots": "", "agents": ["a"], "urls": []})),
        (
            "/api/check",
            json!({"robots": "", "agents": ["a"], "urls": vec!["/"; 1001]}),
        ),
        ("/api/explain", json!({"robots": "", "agents": ["a"]})),
        ("/api/fetch", json!({"url": "not a url"})),
        ("/api/fetch", json!({"url": "file:///etc/passwd"})),
        ("/api/fetch", json!({"url": "gopher://example.com/"})),
        ("/api/fetch", json!({"url": "/relative"})),
        // An array where an object is due.
        ("/api/lint", json!(["user-agent: *\ndisallow: /"])),
        ("/api/fetch", json!(["http://[::1]/"])),
        // Names too long in all: every answer would repeat them.
        (
            "/api/check",
            json!({"robots": "", "agents": vec!["A".repeat(1000); 3], "urls": ["/"]}),
        ),
    ] {
        let (status, got) = post(&base, route, body.clone()).await;
        assert_eq!(status, 422, "{route} {body}");
        assert!(got["error"].is_string());
    }
    // A small request whose answer would be thousands of times its size
    // (every answer repeats the names and their warnings) is refused;
    // the same names about fewer URLs are answered.
    let names: Vec<String> =
        (0..32).map(|i| format!("Bot{i:02}/1.0 {}", "x".repeat(50))).collect();
    let (status, got) = post(
        &base,
        "/api/check",
        json!({"robots": "", "agents": names, "urls": vec!["/"; 1000]}),
    )
    .await;
    assert_eq!(status, 422);
    let error = got["error"].as_str().unwrap();
    assert!(error.contains("ask about fewer URLs"), "{error}");
    let (status, got) = post(
        &base,
        "/api/check",
        json!({"robots": "", "agents": names, "urls": vec!["/"; 50]}),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(got.as_array().unwrap().len(), 50);
    let r = reqwest::get(format!("{base}/api/check")).await.unwrap();
    assert_eq!(r.status(), 405);
    // Hostile files are answered, not refused.
    let hostile = format!(
        "user-agent: *\n{}",
        "disallow: /*a*a*a*a*a*a*$\n".repeat(5000)
    );
    let (status, _) =
        post(&base, "/api/audit", json!({"robots": hostile})).await;
    assert_eq!(status, 200);
    // A file whose audit lists its 69,000 lines for every crawler (34 MB)
    // or whose explanation lists them once (2.6 MB, under the cap).
    let groups = format!("{}Disallow: /\n", "User-agent: *\n".repeat(69_000));
    let (status, got) =
        post(&base, "/api/audit", json!({"robots": groups})).await;
    assert_eq!(status, 422, "{got}");
    let error = got["error"].as_str().unwrap();
    assert!(error.contains("the audit of this file takes more"), "{error}");
    let (status, got) = post(
        &base,
        "/api/explain",
        json!({"robots": groups, "agents": ["GPTBot"], "url": "/"}),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(got["warnings"][0]["kind"], "beyond-fetch-limit");
    let (status, _) =
        post(&base, "/api/lint", json!({"robots": groups})).await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn fetches_of_non_public_addresses_are_refused() {
    let (addr, hits) = site().await;
    let base = start(Config::default().fetches_per_minute(100)).await;
    let port = addr.port();
    for url in [
        format!("http://127.0.0.1:{port}/"),
        format!("http://localhost:{port}/"),
        format!("http://[::1]:{port}/"),
        format!("http://[::ffff:127.0.0.1]:{port}/"),
        format!("http://2130706433:{port}/"),
        format!("https://127.0.0.1:{port}/"),
        format!("ftp://127.0.0.1:{port}/"),
        "http://10.0.0.1/".to_string(),
        "http://169.254.169.254/latest/meta-data/".to_string(),
        "http://192.168.1.1/".to_string(),
        "http://100.64.0.1/".to_string(),
        "http://[fe80::1]/".to_string(),
        "http://0.0.0.0/".to_string(),
    ] {
        let (status, body) =
            post(&base, "/api/fetch", json!({"url": url})).await;
        assert_eq!(status, 403, "{url}: {body}");
        assert!(
            body["error"].as_str().unwrap().starts_with("refused: "),
            "{body}"
        );
    }
    assert_eq!(hits.load(Ordering::SeqCst), 0);
}

/// A site on `ip` whose robots.txt redirects to `target`.
async fn redirecting(ip: &str, target: String) -> SocketAddr {
    let app = Router::new().route(
        "/robots.txt",
        get(move || {
            let target = target.clone();
            async move { (StatusCode::FOUND, [(header::LOCATION, target)]) }
        }),
    );
    let listener = TcpListener::bind(format!("{ip}:0")).await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await });
    addr
}

#[tokio::test]
async fn redirects_to_refused_addresses_are_not_followed() {
    // Only 127.0.0.2 counts as public here, so that the first request is
    // made and the redirect is what the policy must stop.
    let policy =
        AddressPolicy::custom(|ip| ip == IpAddr::from([127, 0, 0, 2]));
    let base = start(Config::default().address_policy(policy)).await;
    let (target, hits) = site().await;
    for to in [
        format!("http://{target}/robots.txt"),
        format!("http://localhost:{}/robots.txt", target.port()),
        format!("http://[::ffff:127.0.0.1]:{}/robots.txt", target.port()),
    ] {
        let first = redirecting("127.0.0.2", to.clone()).await;
        let (status, body) = post(
            &base,
            "/api/fetch",
            json!({"url": format!("http://{first}/")}),
        )
        .await;
        assert_eq!(status, 403, "{to}: {body}");
        assert!(body["error"].as_str().unwrap().starts_with("refused: "));
    }
    assert_eq!(hits.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn fetches_with_the_flag_report_as_the_command_line() {
    let (addr, hits) = site().await;
    let base = start(Config::default().allow_private_fetch(true)).await;
    let (status, body) = post(
        &base,
        "/api/fetch",
        json!({"url": format!("http://{addr}/some/page")}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["robots"], ROBOTS);
    assert_eq!(body["robots_base64"], Value::Null);
    let report = &body["report"];
    assert_eq!(report["outcome"], "available");
    assert_eq!(report["access"], "obey");
    assert_eq!(report["cache_lifetime_seconds"], 600);
    assert_eq!(report["bytes_read"], ROBOTS.len());
    assert_eq!(report["truncated"], false);
    assert_eq!(report["summary"]["groups"], 2);
    assert_eq!(report["hops"][0]["url"], format!("http://{addr}/robots.txt"));
    assert_eq!(hits.load(Ordering::SeqCst), 1);
    // A site with no robots.txt: everything allowed, no rules.
    let (_, nothing) = site_without_robots().await;
    let (status, body) = post(
        &base,
        "/api/fetch",
        json!({"url": format!("http://{nothing}/")}),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(body["report"]["outcome"], "unavailable (404)");
    assert_eq!(body["report"]["access"], "allow-all");
    assert_eq!(body["robots"], "");
}

async fn site_without_robots() -> ((), SocketAddr) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, Router::new()).await });
    ((), addr)
}

#[tokio::test]
async fn fetches_are_limited_per_client() {
    let base = start(Config::default().fetches_per_minute(2)).await;
    for _ in 0..2 {
        let (status, _) =
            post(&base, "/api/fetch", json!({"url": "http://10.0.0.1/"}))
                .await;
        assert_eq!(status, 403);
    }
    let r = Client::new()
        .post(format!("{base}/api/fetch"))
        .json(&json!({"url": "http://10.0.0.1/"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 429);
    let wait: u64 =
        r.headers()["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=30).contains(&wait));
    // Other routes are not limited.
    let (status, _) = post(&base, "/api/lint", json!({"robots": ""})).await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn requests_have_a_time_limit() {
    // A site that accepts connections and never answers.
    let silent = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = silent.local_addr().unwrap();
    tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((socket, _)) = silent.accept().await {
            held.push(socket);
        }
    });
    let config = Config::default()
        .allow_private_fetch(true)
        .request_timeout(Duration::from_millis(300));
    let base = start(config).await;
    let r = Client::new()
        .post(format!("{base}/api/fetch"))
        .json(&json!({"url": format!("http://{addr}/")}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 408);
}

#[tokio::test]
async fn a_retry_after_past_the_year_9999_is_reported() {
    // Formatting the date panicked and dropped the connection.
    let app = Router::new().route(
        "/robots.txt",
        get(|| async {
            (
                StatusCode::SERVICE_UNAVAILABLE,
                [(header::RETRY_AFTER, "999999999999")],
            )
        }),
    );
    let body = fetched_from(app).await;
    let report = &body["report"];
    assert_eq!(report["outcome"], "unreachable (503)");
    assert_eq!(report["retry_after"], "Fri, 31 Dec 9999 23:59:59 GMT");
}

/// A connection that sends part of a request and then nothing.
async fn stalled(base: &str, partial: &[u8]) -> tokio::net::TcpStream {
    use tokio::io::AsyncWriteExt;
    let addr = base.trim_start_matches("http://");
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    stream.write_all(partial).await.unwrap();
    stream
}

#[tokio::test]
async fn a_head_that_does_not_come_ends_its_connection() {
    use tokio::io::AsyncReadExt;
    let config = Config::default().header_timeout(Duration::from_millis(300));
    let base = start(config).await;
    let mut stream =
        stalled(&base, b"GET / HTTP/1.1\r\nHost: localhost\r\n").await;
    // The server closes it (with or without a 408): reading ends.
    let mut got = Vec::new();
    let read = tokio::time::timeout(
        Duration::from_secs(30),
        stream.read_to_end(&mut got),
    )
    .await;
    assert!(read.is_ok(), "the connection was kept open");
}

#[tokio::test]
async fn connections_beyond_the_cap_wait_for_a_place() {
    let config = Config::default()
        .max_connections(2)
        .header_timeout(Duration::from_secs(120));
    let base = start(config).await;
    let head = b"GET / HTTP/1.1\r\nHost: localhost\r\n";
    let first = stalled(&base, head).await;
    let _second = stalled(&base, head).await;
    let catalogue = format!("{base}/api/catalogue");
    let client = Client::new();
    // Both places are taken: the third is not served...
    let waiting = tokio::spawn({
        let (client, url) = (client.clone(), catalogue.clone());
        async move { client.get(url).send().await.map(|r| r.status()) }
    });
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(!waiting.is_finished(), "served beyond the cap");
    // ...until one goes.
    drop(first);
    let status = tokio::time::timeout(Duration::from_secs(30), waiting)
        .await
        .expect("never served")
        .unwrap()
        .unwrap();
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn answers_not_read_end_their_connection() {
    use tokio::io::AsyncWriteExt;
    let config = Config::default()
        .max_connections(1)
        .request_timeout(Duration::from_millis(500));
    let base = start(config).await;
    let addr: SocketAddr = base.trim_start_matches("http://").parse().unwrap();
    // The only place: a client that asks for the page's script a thousand
    // times over (30 MB), through a small window, and reads nothing.
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let mut stream = socket.connect(addr).await.unwrap();
    let asks = "GET /app.js HTTP/1.1\r\nHost: localhost\r\n\r\n".repeat(1000);
    stream.write_all(asks.as_bytes()).await.unwrap();
    // Its writes stall, its connection ends, and the next client is
    // served.
    let r = tokio::time::timeout(
        Duration::from_secs(30),
        Client::new().get(format!("{base}/api/catalogue")).send(),
    )
    .await
    .expect("the place was never given back")
    .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    drop(stream);
}

#[tokio::test]
async fn connections_last_at_most_their_age() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let config = Config::default()
        .header_timeout(Duration::from_secs(120))
        .max_connection_age(Duration::from_millis(300));
    let base = start(config).await;
    let addr = base.trim_start_matches("http://");
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    stream
        .write_all(b"GET /api/catalogue HTTP/1.1\r\nHost: localhost\r\n\r\n")
        .await
        .unwrap();
    // The answer, then the end of the connection, long before the head
    // of a next request is due.
    let mut got = Vec::new();
    let read = tokio::time::timeout(
        Duration::from_secs(30),
        stream.read_to_end(&mut got),
    )
    .await;
    assert!(read.is_ok(), "the connection was kept open");
    assert!(
        got.starts_with(b"HTTP/1.1 200"),
        "{:?}",
        &got[..20.min(got.len())]
    );
}

#[tokio::test]
async fn slow_uploads_do_not_hold_the_analyses() {
    let config = Config::default().request_timeout(Duration::from_secs(120));
    let base = start(config).await;
    // More slow uploads than there are places for analyses.
    let places =
        2 * std::thread::available_parallelism().map_or(2, |n| n.get());
    let head = b"POST /api/lint HTTP/1.1\r\nHost: localhost\r\n\
                 Content-Type: application/json\r\nContent-Length: 200\r\n\r\n{";
    let mut slow = Vec::new();
    for _ in 0..places + 2 {
        slow.push(stalled(&base, head).await);
    }
    let answer = tokio::time::timeout(
        Duration::from_secs(30),
        post(&base, "/api/lint", json!({ "robots": ROBOTS })),
    )
    .await
    .expect("lint waited for the slow uploads");
    assert_eq!(answer.0, StatusCode::OK);
    drop(slow);
}

#[tokio::test]
async fn the_layers_answer_errors_in_json() {
    let config = Config::default().request_timeout(Duration::from_millis(300));
    let base = start(config).await;
    let client = Client::new();
    let wrong = client.get(format!("{base}/api/check")).send().await.unwrap();
    assert_eq!(wrong.status(), StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(wrong.headers()[header::ALLOW], "POST");
    let body: Value = wrong.json().await.unwrap();
    assert!(body["error"].as_str().unwrap().contains("method"), "{body}");
    // A body that never comes: the time limit's answer.
    use tokio::io::AsyncReadExt;
    let head = b"POST /api/lint HTTP/1.1\r\nHost: localhost\r\n\
                 Content-Type: application/json\r\nContent-Length: 200\r\n\r\n{";
    let mut stream = stalled(&base, head).await;
    let mut got = Vec::new();
    let _ = tokio::time::timeout(
        Duration::from_secs(30),
        stream.read_to_end(&mut got),
    )
    .await;
    let text = String::from_utf8_lossy(&got);
    assert!(text.starts_with("HTTP/1.1 408"), "{text}");
    assert!(text.contains("application/json"), "{text}");
    assert!(text.contains("time limit"), "{text}");
}

#[tokio::test]
async fn on_loopback_only_loopback_hosts_are_answered() {
    // A page on another name that points at 127.0.0.1 (DNS rebinding)
    // gets no answer from the tester.
    let base = start(Config::default().allow_host("Proxy.example")).await;
    let get = |host: &'static str| {
        let base = base.clone();
        async move {
            Client::new()
                .get(format!("{base}/api/catalogue"))
                .header("host", host)
                .send()
                .await
                .unwrap()
        }
    };
    for host in ["evil.example", "evil.example:80", "127.0.0.1.evil.example"] {
        let r = get(host).await;
        assert_eq!(r.status(), 403, "{host}");
        assert_eq!(r.headers()["cache-control"], "no-store", "{host}");
        let body: Value = r.json().await.unwrap();
        assert!(body["error"].as_str().unwrap().contains("loopback"));
    }
    for host in [
        "localhost",
        "LOCALHOST:8080",
        "127.0.0.1:1",
        "127.1.2.3",
        "[::1]:8080",
        "app.localhost",
        "proxy.example",
    ] {
        assert_eq!(get(host).await.status(), 200, "{host}");
    }
    let r = Client::new()
        .post(format!("{base}/api/lint"))
        .header("host", "evil.example")
        .json(&json!({"robots": ""}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 403);
}

#[tokio::test]
async fn fetches_are_limited_per_client_behind_a_trusted_proxy() {
    let fetch = |base: String, forwarded: &'static str| async move {
        Client::new()
            .post(format!("{base}/api/fetch"))
            .header("x-forwarded-for", forwarded)
            .json(&json!({"url": "http://10.0.0.1/"}))
            .send()
            .await
            .unwrap()
            .status()
    };
    // Requests come from 127.0.0.1, the proxy: each client has its own
    // limit, read from the right of the header, past other proxies.
    let proxy = "127.0.0.1".parse().unwrap();
    let other = "192.0.2.9".parse().unwrap();
    let config = Config::default()
        .fetches_per_minute(1)
        .trust_proxy(proxy)
        .trust_proxy(other);
    let base = start(config).await;
    assert_eq!(fetch(base.clone(), "203.0.113.1").await, 403);
    assert_eq!(fetch(base.clone(), "203.0.113.1").await, 429);
    // What the client wrote on the left is not read.
    assert_eq!(fetch(base.clone(), "1.1.1.1, 203.0.113.1").await, 429);
    assert_eq!(
        fetch(base.clone(), "bogus, 203.0.113.2, 192.0.2.9").await,
        403
    );
    assert_eq!(fetch(base.clone(), "2001:db8::1").await, 403);
    assert_eq!(fetch(base.clone(), "2001:db8::1").await, 429);
    // No usable client address: the proxy's own limit.
    assert_eq!(fetch(base.clone(), "unknown").await, 403);
    assert_eq!(fetch(base.clone(), "").await, 429);

    // A server that trusts no proxy ignores the header.
    let base = start(Config::default().fetches_per_minute(1)).await;
    assert_eq!(fetch(base.clone(), "203.0.113.1").await, 403);
    assert_eq!(fetch(base.clone(), "203.0.113.2").await, 429);
}
