//! `robotrules fetch`: what happens when a crawler asks a site for its
//! robots.txt.

use std::io::{self, Write};
use std::time::{Duration, SystemTime};

use anyhow::bail;
use robotrules_fetch::policy::{self, Access, RetryAfter};
use robotrules_fetch::{Report, MAX_TIMEOUT};

use crate::input;
use crate::Outcome as Exit;

/// Fetches a site's robots.txt as a crawler must, and shows what happened.
///
/// Each request, the status, the bytes read and whether the 500 KiB cap
/// cut the body, how long the result may be kept (or when to try again),
/// the outcome (RFC 9309) and a summary of the rules. Exits 0 if the site
/// can be crawled by its rules (available or unavailable), 1 if it is
/// unreachable (everything disallowed), 2 on error.
#[derive(clap::Args)]
pub struct Args {
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Give up after this many seconds, redirects included (default 30;
    /// above 0, at most 86400).
    #[arg(long, value_name = "SECONDS")]
    timeout: Option<f64>,
    /// The User-Agent header to send (default robotrules/VERSION).
    #[arg(long, value_name = "NAME")]
    user_agent: Option<String>,
    /// Any http(s) or ftp URL of the site.
    #[arg(value_name = "URL")]
    url: String,
}

pub fn run(args: Args) -> anyhow::Result<Exit> {
    let timeout = match args.timeout {
        None => None,
        Some(s) if s > 0.0 && s <= MAX_TIMEOUT.as_secs_f64() => {
            Some(Duration::from_secs_f64(s))
        }
        Some(s) => bail!(
            "--timeout {s}: give a number of seconds above 0 and at most \
             {} (a day)",
            MAX_TIMEOUT.as_secs()
        ),
    };
    let settings =
        input::Settings { timeout, user_agent: args.user_agent.clone() };
    let fetch = input::fetch_with(&args.url, &settings)?;
    let now = SystemTime::now();
    let access = policy::access(&fetch.outcome);
    let report = Report::new(&fetch, now);
    let mut out = io::stdout().lock();
    if args.json {
        serde_json::to_writer(&mut out, &report)?;
        writeln!(out)?;
    } else {
        writeln!(out, "robots.txt for {}", report.authority)?;
        for hop in &report.hops {
            let status = hop
                .status
                .map_or("no response".to_string(), |s| s.to_string());
            writeln!(out, "  {} -> {status}", hop.request)?;
        }
        let cut =
            if report.truncated { "yes, the rest is ignored" } else { "no" };
        writeln!(
            out,
            "read {} bytes (cut at 500 KiB: {cut})",
            report.bytes_read
        )?;
        if let (Some(retry), Some(at)) =
            (fetch.retry_after, &report.retry_after)
        {
            let asked = match retry {
                RetryAfter::Delay(d) => format!("{} s", d.as_secs()),
                _ => "a date".to_string(),
            };
            // The wait is kept between a second and 24 hours: say so
            // where the server asked for more or less.
            let delay = retry.delay(now);
            let kept = if delay > policy::MAX_RETRY_AFTER {
                " (more than 24 hours: retried after 24 hours)"
            } else if delay < Duration::from_secs(1) {
                match retry {
                    RetryAfter::Delay(_) => {
                        " (under a second: retried a second later)"
                    }
                    _ => " (not in the future: retried a second later)",
                }
            } else {
                ""
            };
            writeln!(out, "Retry-After: {asked}, {at}{kept}")?;
        }
        match report.cache_lifetime_seconds {
            Some(secs) => writeln!(
                out,
                "cache lifetime: {secs} s (until {})",
                report.next_fetch
            )?,
            None => writeln!(out, "next try: {}", report.next_fetch)?,
        }
        writeln!(out, "outcome: {} — {}", report.outcome, report.verdict)?;
        if let Some(s) = &report.summary {
            writeln!(
                out,
                "parsed: {} lines, {} groups, {} rules, {} sitemaps, {} other directives",
                s.lines, s.groups, s.rules, s.sitemaps, s.other_directives
            )?;
        }
    }
    out.flush()?;
    Ok(match access {
        Access::DisallowAll => Exit::Disallowed,
        _ => Exit::Allowed,
    })
}
