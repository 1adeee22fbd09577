//! The page: HTML, CSS and JavaScript built into the binary, and the
//! headers that keep it to itself.

use axum::http::{header, HeaderName, HeaderValue};
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;
use tower_http::set_header::SetResponseHeaderLayer;

/// Scripts, styles, images and requests from the server only; nothing
/// inline, no plugins, no framing, no form posts elsewhere.
const CSP: &str = "default-src 'none'; script-src 'self'; \
    style-src 'self'; img-src 'self' data:; connect-src 'self'; \
    form-action 'none'; frame-ancestors 'none'; base-uri 'none'";

fn asset(
    content_type: &'static str,
    body: &'static [u8],
) -> impl Fn() -> std::future::Ready<axum::response::Response> + Clone {
    move || {
        std::future::ready(
            (
                [
                    (header::CONTENT_TYPE, content_type),
                    (header::CACHE_CONTROL, "no-cache"),
                ],
                body,
            )
                .into_response(),
        )
    }
}

pub(crate) fn router() -> Router {
    let html = "text/html; charset=utf-8";
    Router::new()
        .route("/", get(asset(html, include_bytes!("../assets/index.html"))))
        .route(
            "/app.js",
            get(asset(
                "text/javascript; charset=utf-8",
                include_bytes!("../assets/app.js"),
            )),
        )
        .route(
            "/app.css",
            get(asset(
                "text/css; charset=utf-8",
                include_bytes!("../assets/app.css"),
            )),
        )
        .route(
            "/favicon.svg",
            get(asset(
                "image/svg+xml",
                include_bytes!("../assets/favicon.svg"),
            )),
        )
        .route(
            "/example.txt",
            get(asset(
                "text/plain; charset=utf-8",
                include_bytes!("../assets/example.txt"),
            )),
        )
}

/// Adds the security headers to every response.
pub(crate) fn secure(router: Router) -> Router {
    let headers: [(&str, &str); 7] = [
        ("content-security-policy", CSP),
        ("x-content-type-options", "nosniff"),
        ("x-frame-options", "DENY"),
        ("referrer-policy", "no-referrer"),
        ("cross-origin-opener-policy", "same-origin"),
        ("cross-origin-resource-policy", "same-origin"),
        (
            "permissions-policy",
            "camera=(), microphone=(), geolocation=(), interest-cohort=()",
        ),
    ];
    headers.into_iter().fold(router, |router, (name, value)| {
        router.layer(SetResponseHeaderLayer::overriding(
            HeaderName::from_static(name),
            HeaderValue::from_static(value),
        ))
    })
}
