//! Content codings: every coding is undone in one place, whatever its
//! case or stacking, and a body that cannot be decoded is never parsed as
//! rules. Before, reqwest decoded only a first coding spelled exactly
//! `gzip`, `deflate` or `br`, and passed the rest through: the compressed
//! bytes were parsed, so `Disallow: /` became allow-all.

use std::io::Write;
use std::time::{Duration, Instant};

use robotrules_fetch::{Outcome, Unreachable, MAX_BODY};

use crate::{fetch, raw, Then};

const RULES: &[u8] = b"User-agent: *\nDisallow: /\n";

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut e =
        flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

fn zlib(data: &[u8]) -> Vec<u8> {
    let mut e =
        flate2::write::ZlibEncoder::new(Vec::new(), Default::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

fn raw_deflate(data: &[u8]) -> Vec<u8> {
    let mut e =
        flate2::write::DeflateEncoder::new(Vec::new(), Default::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

/// A server answering 200 with `Content-Encoding: coding` and `body`.
async fn coded(coding: &str, body: Vec<u8>) -> std::net::SocketAddr {
    let mut response = format!(
        "HTTP/1.1 200 OK\r\nContent-Encoding: {coding}\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )
    .into_bytes();
    response.extend(body);
    raw(move |_| (response.clone(), Then::Close)).await
}

#[tokio::test]
async fn codings_in_any_case_and_stacked_are_decoded() {
    for (coding, body) in [
        ("gzip", gzip(RULES)),
        ("GZIP", gzip(RULES)),
        ("Gzip", gzip(RULES)),
        ("x-gzip", gzip(RULES)),
        ("X-GZIP", gzip(RULES)),
        ("identity, gzip", gzip(RULES)),
        ("gzip, gzip", gzip(&gzip(RULES))),
        ("gzip,deflate", zlib(&gzip(RULES))),
        ("deflate", zlib(RULES)),
        ("DEFLATE", raw_deflate(RULES)),
        ("identity", RULES.to_vec()),
    ] {
        let f = fetch(coded(coding, body).await).await;
        match &f.outcome {
            Outcome::Available(robots) => {
                assert!(!robots.is_allowed("a", "/private"), "{coding}");
            }
            other => panic!("{coding}: {other:?}"),
        }
        assert_eq!(f.body, RULES, "{coding}");
    }
}

#[tokio::test]
async fn undecodable_bodies_are_broken_not_rules() {
    let mut trailing = gzip(RULES);
    trailing.extend_from_slice(b"Allow: /\n");
    let gz = gzip(RULES);
    for (coding, body, why) in [
        ("compress", RULES.to_vec(), "unsupported content coding: compress"),
        ("gzip, zstd", gzip(RULES), "unsupported content coding: zstd"),
        (
            "gzip",
            RULES.to_vec(),
            "cannot decode the gzip content: not gzip data",
        ),
        (
            "gzip",
            gz[..gz.len() - 4].to_vec(),
            "cannot decode the gzip content: the stream ends early",
        ),
        (
            "gzip",
            trailing,
            "cannot decode the gzip content: data after the end of the stream",
        ),
    ] {
        let f = fetch(coded(coding, body).await).await;
        match &f.outcome {
            Outcome::Unreachable(Unreachable::Broken(reason)) => {
                assert_eq!(reason, why, "{coding}")
            }
            other => panic!("{coding}: {other:?}"),
        }
        assert!(f.body.is_empty(), "{coding}");
    }
}

#[tokio::test]
async fn a_stacked_gzip_bomb_costs_at_most_the_cap() {
    // 200 MB of line breaks after a rule, gzipped twice: a few kilobytes.
    let mut inner =
        flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    inner.write_all(b"User-agent: *\nDisallow: /bomb\n").unwrap();
    let zeros = vec![b'\n'; 1 << 20];
    for _ in 0..200 {
        inner.write_all(&zeros).unwrap();
    }
    let bomb = gzip(&inner.finish().unwrap());
    assert!(bomb.len() < 100 << 10, "{}", bomb.len());
    let addr = coded("gzip, gzip", bomb).await;
    let started = Instant::now();
    let f = fetch(addr).await;
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(f.bytes_read, MAX_BODY);
    assert!(f.truncated);
    match f.outcome {
        Outcome::Available(robots) => {
            assert!(!robots.is_allowed("a", "/bomb"))
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn a_gzip_file_name_that_never_ends_is_refused() {
    // FNAME set, then 10 MB with no NUL: skipped, never kept, and refused
    // once it is past any real name.
    let mut body = gzip(RULES)[..10].to_vec();
    body[3] = 8;
    body.resize(10 << 20, b'n');
    let f = fetch(coded("gzip", body).await).await;
    match &f.outcome {
        Outcome::Unreachable(Unreachable::Broken(reason)) => assert_eq!(
            reason,
            "cannot decode the gzip content: header file name over 64 KiB"
        ),
        other => panic!("{other:?}"),
    }
}
