//! `robotrules fetch`: what happens when a crawler asks a site for its
//! robots.txt.

use std::io::{self, Write};

use robotrules::Robots;
use robotrules_fetch::{Outcome, DEFAULT_LIFETIME};
use serde_json::json;

use crate::input;
use crate::Outcome as Exit;

/// Fetches a site's robots.txt as a crawler must, and shows what happened.
///
/// Each redirect, the status, the bytes read and whether the 500 KiB cap
/// cut the body, the cache lifetime, the outcome (RFC 9309) and a summary
/// of the rules. Exits 0 if the site can be crawled by its rules
/// (available or unavailable), 1 if it is unreachable (everything
/// disallowed), 2 on error.
#[derive(clap::Args)]
pub struct Args {
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Any http(s) or ftp URL of the site.
    #[arg(value_name = "URL")]
    url: String,
}

pub fn run(args: Args) -> anyhow::Result<Exit> {
    let fetch = input::fetch(&args.url)?;
    let lifetime = match (&fetch.outcome, fetch.no_store || fetch.no_cache) {
        (Outcome::Unreachable(_), _) => None,
        (_, true) => Some(0),
        _ => Some(
            fetch
                .max_age
                .map_or(DEFAULT_LIFETIME, |a| a.min(DEFAULT_LIFETIME))
                .as_secs(),
        ),
    };
    let summary = match &fetch.outcome {
        Outcome::Available(robots) => Some(summarize(robots)),
        _ => None,
    };
    let verdict = match &fetch.outcome {
        Outcome::Available(_) => "obey the rules",
        Outcome::Unavailable(_) => "no robots.txt: every URL is allowed",
        Outcome::Unreachable(_) => {
            "unreachable: every URL is disallowed until a retry succeeds"
        }
    };
    let mut out = io::stdout().lock();
    if args.json {
        let hops: Vec<_> = fetch
            .hops
            .iter()
            .map(|h| json!({"url": h.url, "status": h.status}))
            .collect();
        let value = json!({
            "authority": fetch.authority.to_string(),
            "robots_url": fetch.authority.robots_url(),
            "hops": hops,
            "bytes_read": fetch.bytes_read,
            "truncated": fetch.truncated,
            "cache_lifetime_seconds": lifetime,
            "outcome": fetch.outcome.describe(),
            "verdict": verdict,
            "summary": summary,
        });
        writeln!(out, "{value}")?;
    } else {
        writeln!(out, "robots.txt for {}", fetch.authority)?;
        for hop in &fetch.hops {
            let status = hop
                .status
                .map_or("no response".to_string(), |s| s.to_string());
            writeln!(out, "  GET {} -> {status}", hop.url)?;
        }
        let cut =
            if fetch.truncated { "yes, the rest is ignored" } else { "no" };
        writeln!(
            out,
            "read {} bytes (cut at 500 KiB: {cut})",
            fetch.bytes_read
        )?;
        match lifetime {
            Some(secs) => writeln!(out, "cache lifetime: {secs} s")?,
            None => writeln!(out, "cache lifetime: until the retry")?,
        }
        writeln!(out, "outcome: {} — {verdict}", fetch.outcome.describe())?;
        if let Some(s) = &summary {
            writeln!(
                out,
                "parsed: {} lines, {} groups, {} rules, {} sitemaps, {} other directives",
                s["lines"], s["groups"], s["rules"], s["sitemaps"], s["other_directives"]
            )?;
        }
    }
    out.flush()?;
    Ok(match fetch.outcome {
        Outcome::Unreachable(_) => Exit::Disallowed,
        _ => Exit::Allowed,
    })
}

fn summarize(robots: &Robots) -> serde_json::Value {
    json!({
        "lines": robots.line_count(),
        "groups": robots.groups().count(),
        "rules": robots.groups().map(|g| g.rules().count()).sum::<usize>(),
        "sitemaps": robots.sitemaps().count(),
        "other_directives": robots.unknown_directives().count(),
    })
}
