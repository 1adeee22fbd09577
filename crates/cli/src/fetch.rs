//! `robotrules fetch`: what happens when a crawler asks a site for its
//! robots.txt.

use std::io::{self, Write};
use std::time::{Duration, SystemTime};

use anyhow::bail;
use robotrules::Robots;
use robotrules_fetch::policy::{self, Access, RetryAfter, Timing};
use robotrules_fetch::{Hop, Outcome, DEFAULT_LIFETIME};
use serde_json::json;

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
    /// Give up after this many seconds, redirects included (default 30).
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
        Some(s) if s.is_finite() && s > 0.0 && s <= 86_400.0 => {
            Some(Duration::from_secs_f64(s))
        }
        Some(s) => bail!("--timeout {s}: give a number of seconds above 0"),
    };
    let settings =
        input::Settings { timeout, user_agent: args.user_agent.clone() };
    let fetch = input::fetch_with(&args.url, &settings)?;
    let now = SystemTime::now();
    let access = policy::access(&fetch.outcome);
    // How long a crawler may keep this, or when it must ask again.
    let (lifetime, next_fetch) = match &fetch.outcome {
        Outcome::Unreachable(reason) => {
            let at =
                Timing::default().retry_at(reason, fetch.retry_after, now);
            (None, at)
        }
        _ => {
            let keep =
                policy::lifetime(&fetch.cache_control, DEFAULT_LIFETIME);
            (Some(keep.as_secs()), now + keep)
        }
    };
    let summary = match &fetch.outcome {
        Outcome::Available(robots) => Some(summarize(robots)),
        _ => None,
    };
    let mut out = io::stdout().lock();
    if args.json {
        let hops: Vec<_> = fetch
            .hops
            .iter()
            .map(|h| {
                json!({"request": request(h), "url": h.url, "status": h.status})
            })
            .collect();
        let value = json!({
            "authority": fetch.authority.to_string(),
            "robots_url": fetch.authority.robots_url(),
            "hops": hops,
            "bytes_read": fetch.bytes_read,
            "truncated": fetch.truncated,
            "cache_lifetime_seconds": lifetime,
            "retry_after": fetch.retry_after.map(|r| date(r.at(now))),
            "next_fetch": date(next_fetch),
            "outcome": fetch.outcome.describe(),
            "access": access_name(access),
            "verdict": access.describe(),
            "summary": summary,
        });
        writeln!(out, "{value}")?;
    } else {
        writeln!(out, "robots.txt for {}", fetch.authority)?;
        for hop in &fetch.hops {
            let status = hop
                .status
                .map_or("no response".to_string(), |s| s.to_string());
            writeln!(out, "  {} -> {status}", request(hop))?;
        }
        let cut =
            if fetch.truncated { "yes, the rest is ignored" } else { "no" };
        writeln!(
            out,
            "read {} bytes (cut at 500 KiB: {cut})",
            fetch.bytes_read
        )?;
        if let Some(retry) = fetch.retry_after {
            let asked = match retry {
                RetryAfter::Delay(d) => format!("{} s", d.as_secs()),
                _ => "a date".to_string(),
            };
            writeln!(out, "Retry-After: {asked}, {}", date(retry.at(now)))?;
        }
        match lifetime {
            Some(secs) => writeln!(
                out,
                "cache lifetime: {secs} s (until {})",
                date(next_fetch)
            )?,
            None => writeln!(out, "next try: {}", date(next_fetch))?,
        }
        writeln!(
            out,
            "outcome: {} — {}",
            fetch.outcome.describe(),
            access.describe()
        )?;
        if let Some(s) = &summary {
            writeln!(
                out,
                "parsed: {} lines, {} groups, {} rules, {} sitemaps, {} other directives",
                s["lines"], s["groups"], s["rules"], s["sitemaps"], s["other_directives"]
            )?;
        }
    }
    out.flush()?;
    Ok(match access {
        Access::DisallowAll => Exit::Disallowed,
        _ => Exit::Allowed,
    })
}

/// The request a hop made: `GET URL`, or `RETR /robots.txt on ftp://…`.
fn request(hop: &Hop) -> String {
    match hop.url.strip_suffix("/robots.txt") {
        Some(site) if hop.url.starts_with("ftp://") => {
            format!("RETR /robots.txt on {site}")
        }
        _ => format!("GET {}", hop.url),
    }
}

/// A time for people: an HTTP date, in UTC.
fn date(t: SystemTime) -> String {
    httpdate::fmt_http_date(t)
}

fn access_name(access: Access) -> &'static str {
    match access {
        Access::Obey => "obey",
        Access::AllowAll => "allow-all",
        _ => "disallow-all",
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_are_named_by_protocol() {
        let ftp = Hop::new("ftp://127.0.0.1:2121/robots.txt", Some(226));
        assert_eq!(request(&ftp), "RETR /robots.txt on ftp://127.0.0.1:2121");
        let http = Hop::new("https://example.com/robots.txt", Some(200));
        assert_eq!(request(&http), "GET https://example.com/robots.txt");
    }

    #[test]
    fn dates_not_unix_times() {
        let t = SystemTime::UNIX_EPOCH + Duration::from_secs(1_795_346_333);
        assert_eq!(date(t), "Sun, 22 Nov 2026 11:18:53 GMT");
    }
}
