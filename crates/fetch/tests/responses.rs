//! Odd responses at the edges of the rules: a line cut by the cap, a line
//! that ends at it, a body of exactly the cap with more promised (plain or
//! compressed), empty and non-ASCII `Location` headers, a head with too
//! many fields.

use std::time::{Duration, Instant};

use robotrules_fetch::{
    Authority, FetcherConfig, Outcome, Unavailable, Unreachable, MAX_BODY,
};

use crate::{fetch, raw, Then};

fn ok(body: &[u8]) -> Vec<u8> {
    let mut r = format!(
        "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )
    .into_bytes();
    r.extend_from_slice(body);
    r
}

#[tokio::test]
async fn a_line_cut_by_the_cap_is_not_a_rule() {
    // `Allow: /private/press-kit.pdf` straddles the cap: cut, it would read
    // `Allow: /private/p`, a rule the file does not have, allowing
    // `/private/p…` against `Disallow: /private/`.
    let mut body = b"User-agent: *\nDisallow: /private/\n".to_vec();
    while body.len() < MAX_BODY - 10 {
        body.extend_from_slice(b"# padding\n");
    }
    body.truncate(MAX_BODY - 10);
    *body.last_mut().unwrap() = b'\n';
    let kept = body.len();
    body.extend_from_slice(b"Allow: /private/press-kit.pdf\n# more\n");
    let addr = raw(move |_| (ok(&body), Then::Close)).await;
    let f = fetch(addr).await;
    assert!(f.truncated);
    assert_eq!(f.bytes_read, MAX_BODY);
    assert_eq!(f.body.len(), kept);
    match f.outcome {
        Outcome::Available(robots) => {
            assert!(!robots.is_allowed("a", "/private/p"));
            assert!(!robots.is_allowed("a", "/private/press-kit.pdf"));
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn a_line_that_ends_at_the_cap_is_a_rule() {
    // `Disallow: /x` ends at the cap, its line break the first byte past
    // it: read whole. One byte longer, it is cut, and not read.
    for (rule, x_allowed) in [("Disallow: /x", false), ("Disallow: /xy", true)]
    {
        let mut body = b"User-agent: *\n".to_vec();
        body.resize(MAX_BODY - 13, b'#');
        body.push(b'\n');
        body.extend_from_slice(rule.as_bytes());
        body.extend_from_slice(b"\nDisallow: /z\n# more\n");
        let addr = raw(move |_| (ok(&body), Then::Close)).await;
        let f = fetch(addr).await;
        assert!(f.truncated, "{rule}");
        assert_eq!(f.bytes_read, MAX_BODY, "{rule}");
        match f.outcome {
            Outcome::Available(robots) => {
                assert_eq!(robots.is_allowed("a", "/xy"), x_allowed, "{rule}");
                assert!(robots.is_allowed("a", "/z"), "{rule}");
            }
            other => panic!("{rule}: {other:?}"),
        }
    }
}

#[tokio::test]
async fn a_line_that_ends_at_the_cap_is_a_rule_however_it_is_sent() {
    // The same bytes as above, `Disallow: /x` ending at the cap, with its
    // line break (the byte past the cap) sent a moment after the rest:
    // the line is read whole all the same.
    let body = ending_at_the_cap();
    let rest: &'static [u8] = b"\nDisallow: /z\n";
    let mut answer = format!(
        "HTTP/1.1 200 OK\r\nContent-Length: {}\r\n\r\n",
        body.len() + rest.len()
    )
    .into_bytes();
    answer.extend_from_slice(&body);
    let then = Then::After(Duration::from_millis(300), rest);
    let addr = raw(move |_| (answer.clone(), then)).await;
    the_last_line_is_kept(fetch(addr).await);
}

/// A body whose `Disallow: /x` ends at the cap, its line break past it.
fn ending_at_the_cap() -> Vec<u8> {
    let mut body = b"User-agent: *\n".to_vec();
    body.resize(MAX_BODY - 13, b'#');
    body.push(b'\n');
    body.extend_from_slice(b"Disallow: /x");
    assert_eq!(body.len(), MAX_BODY);
    body
}

/// The fetch of [`ending_at_the_cap`] and more: cut, `Disallow: /x` kept
/// and nothing after it.
fn the_last_line_is_kept(f: robotrules_fetch::Fetch) {
    assert!(f.truncated);
    match f.outcome {
        Outcome::Available(robots) => {
            assert!(!robots.is_allowed("a", "/x"));
            assert!(robots.is_allowed("a", "/z"));
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn the_grace_at_the_cap_outlasts_a_chunk_that_decodes_to_nothing() {
    // The body of the test above, compressed: everything up to the cap
    // is sent at once (flushed, so it decodes whole), then the rest in
    // two pieces 300 ms apart, the first of one byte, which decodes to
    // nothing. The byte past the cap is still waited for.
    use std::io::Write as _;
    let body = ending_at_the_cap();
    let mut gz =
        flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(&body).unwrap();
    gz.flush().unwrap();
    let head = gz.get_ref().len();
    gz.write_all(b"\nDisallow: /z\n").unwrap();
    let all = gz.finish().unwrap();
    let (first, rest) = all.split_at(head);
    let rest: &'static [u8] = Vec::leak(rest.to_vec());
    let pieces: &'static [&'static [u8]] =
        Vec::leak(vec![&rest[..1], &rest[1..]]);
    let mut answer = format!(
        "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: {}\r\n\r\n",
        all.len()
    )
    .into_bytes();
    answer.extend_from_slice(first);
    let then = Then::Drip(Duration::from_millis(300), pieces);
    let addr = raw(move |_| (answer.clone(), then)).await;
    the_last_line_is_kept(fetch(addr).await);
}

#[tokio::test]
async fn the_cap_with_more_promised_is_cut_not_broken() {
    // Exactly 512,000 bytes of a promised 1,000,000, then nothing (a
    // stall) or an early close: the cap is reached, the rest is not read.
    let mut body = b"User-agent: *\nDisallow: /x\n".to_vec();
    body.resize(MAX_BODY, b'\n');
    let mut answer =
        b"HTTP/1.1 200 OK\r\nContent-Length: 1000000\r\n\r\n".to_vec();
    answer.extend_from_slice(&body);
    for then in [Then::Stall, Then::Close] {
        let answer = answer.clone();
        let addr = raw(move |_| (answer.clone(), then)).await;
        let fetcher = FetcherConfig::default()
            .timeout(Duration::from_secs(3))
            .build()
            .unwrap();
        let started = Instant::now();
        let f = fetcher
            .fetch(&Authority::of(&format!("http://{addr}/")).unwrap())
            .await;
        assert!(started.elapsed() < Duration::from_secs(2), "{then:?}");
        match &f.outcome {
            Outcome::Available(robots) => {
                assert!(!robots.is_allowed("a", "/x"), "{then:?}")
            }
            other => panic!("{then:?}: {other:?}"),
        }
        assert!(f.truncated, "{then:?}");
        assert_eq!(f.bytes_read, MAX_BODY, "{then:?}");
    }
}

#[tokio::test]
async fn an_empty_location_is_no_location() {
    // Missing, empty or blank: a broken redirect (everything disallowed),
    // not a redirect to the same URL (a loop: everything allowed).
    for location in [None, Some(""), Some("   "), Some("\t")] {
        let header =
            location.map_or(String::new(), |l| format!("Location:{l}\r\n"));
        let answer =
            format!("HTTP/1.1 302 Found\r\n{header}Content-Length: 0\r\n\r\n")
                .into_bytes();
        let addr = raw(move |_| (answer.clone(), Then::Close)).await;
        let f = fetch(addr).await;
        assert!(
            matches!(f.outcome, Outcome::Unreachable(Unreachable::Broken(_))),
            "{location:?}: {:?}",
            f.outcome
        );
        assert!(
            !matches!(
                f.outcome,
                Outcome::Unavailable(Unavailable::RedirectLoop)
            ),
            "{location:?}"
        );
    }
}

#[tokio::test]
async fn a_non_ascii_location_is_followed() {
    // Raw UTF-8 and raw Latin-1 bytes: percent-encoded, as browsers do.
    for (location, target) in [
        ("/robóts.txt".as_bytes(), "/rob%C3%B3ts.txt"),
        (&b"/caf\xe9.txt"[..], "/caf%E9.txt"),
    ] {
        let mut redirect = b"HTTP/1.1 301 Moved\r\nLocation: ".to_vec();
        redirect.extend_from_slice(location);
        redirect.extend_from_slice(b"\r\nContent-Length: 0\r\n\r\n");
        let target_path = target.to_string();
        let addr = raw(move |path| {
            if path == target_path {
                (ok(b"User-agent: *\nDisallow: /\n"), Then::Close)
            } else {
                (redirect.clone(), Then::Close)
            }
        })
        .await;
        let f = fetch(addr).await;
        assert!(
            matches!(f.outcome, Outcome::Available(_)),
            "{target}: {:?}",
            f.outcome
        );
        assert_eq!(f.hops.len(), 2);
        assert_eq!(f.hops[1].url, format!("http://{addr}{target}"));
    }
}

#[tokio::test]
async fn too_many_header_fields_say_so() {
    let mut answer = b"HTTP/1.1 200 OK\r\n".to_vec();
    for i in 0..150 {
        answer.extend_from_slice(format!("X-Field-{i}: {i}\r\n").as_bytes());
    }
    answer.extend_from_slice(b"Content-Length: 0\r\n\r\n");
    let addr = raw(move |_| (answer.clone(), Then::Close)).await;
    let f = fetch(addr).await;
    assert_eq!(
        f.outcome.describe(),
        "unreachable (broken response: too many header fields (over 100), \
         or a header section over 400 KiB)"
    );
}
