//! `robotrules audit`: what a robots.txt allows each well-known crawler.

use std::fmt::Write as _;
use std::io::{self, Write};

use anyhow::Context;
use robotrules::{Coverage, Robots};
use serde::Deserialize;
use serde_json::json;

use crate::input;
use crate::Outcome;

/// The catalogue of crawlers, shipped with the binary.
const CATALOGUE: &str = include_str!("../data/crawlers.toml");

/// Shows what the file allows each well-known crawler.
///
/// For search engines, AI crawlers and AI assistants: whether the file
/// names each one or leaves it to `*`, and whether it may fetch
/// everything, part of the site, or nothing.
#[derive(clap::Args)]
pub struct Args {
    /// Print a JSON array instead of a table.
    #[arg(long)]
    json: bool,
    /// The robots.txt: a file, `-` for standard input, or an http(s) or
    /// ftp URL.
    #[arg(value_name = "ROBOTS")]
    robots: String,
}

#[derive(Deserialize)]
struct Catalogue {
    crawler: Vec<Crawler>,
}

/// A crawler of the catalogue.
#[derive(Deserialize)]
pub struct Crawler {
    pub token: String,
    pub operator: String,
    pub purpose: String,
    #[serde(default)]
    pub note: String,
}

/// Reads the shipped catalogue.
pub fn catalogue() -> anyhow::Result<Vec<Crawler>> {
    let parsed: Catalogue = toml::from_str(CATALOGUE)
        .context("the crawler catalogue is invalid")?;
    Ok(parsed.crawler)
}

/// One crawler's standing in a file.
pub struct Standing<'c> {
    pub crawler: &'c Crawler,
    /// The user-agent lines that name it, or the `*` lines that apply.
    pub lines: Vec<u32>,
    pub named: bool,
    pub coverage: Coverage,
}

/// Audits `robots` for every crawler of the catalogue.
pub fn audit<'c>(
    robots: &Robots,
    crawlers: &'c [Crawler],
) -> Vec<Standing<'c>> {
    crawlers
        .iter()
        .map(|crawler| {
            let token = crawler.token.as_str();
            let selection = robots.select(&[token]);
            let named = selection.is_named();
            let lines = selection
                .groups()
                .flat_map(|g| g.agents().collect::<Vec<_>>())
                .filter(|a| {
                    if named {
                        a.is_named_by(token)
                    } else {
                        a.is_global()
                    }
                })
                .map(|a| a.line())
                .collect();
            let coverage = robots.matcher(&[token]).coverage();
            Standing { crawler, lines, named, coverage }
        })
        .collect()
}

fn access(c: &Coverage) -> &'static str {
    match c {
        Coverage::AllowedEverywhere => "allowed",
        Coverage::Partial { .. } => "partially disallowed",
        Coverage::DisallowedEverywhere => "fully disallowed",
        _ => "unknown (too costly to decide)",
    }
}

fn via(s: &Standing<'_>) -> String {
    let lines: Vec<String> = s.lines.iter().map(u32::to_string).collect();
    let which = if lines.len() == 1 { "line" } else { "lines" };
    match (s.named, s.lines.is_empty()) {
        (true, _) => format!("named ({which} {})", lines.join(", ")),
        (false, false) => format!("* ({which} {})", lines.join(", ")),
        (false, true) => "no group".to_string(),
    }
}

pub fn run(args: Args) -> anyhow::Result<Outcome> {
    let loaded = input::load(&args.robots)?;
    let robots = Robots::parse(loaded.body(&args.robots)?);
    let crawlers = catalogue()?;
    let standings = audit(&robots, &crawlers);
    let mut out = io::stdout().lock();
    if args.json {
        let rows: Vec<_> = standings
            .iter()
            .map(|s| {
                json!({
                    "token": s.crawler.token,
                    "operator": s.crawler.operator,
                    "purpose": s.crawler.purpose,
                    "named": s.named,
                    "via": if s.named { "named" } else if s.lines.is_empty() { "none" } else { "global" },
                    "lines": s.lines,
                    "access": s.coverage.as_str(),
                    "note": s.crawler.note,
                })
            })
            .collect();
        writeln!(out, "{}", serde_json::Value::Array(rows))?;
    } else {
        let mut text = String::new();
        let _ = writeln!(
            text,
            "{:<30} {:<17} {:<13} {:<22} access",
            "crawler", "operator", "purpose", "rules from"
        );
        for s in &standings {
            let _ = writeln!(
                text,
                "{:<30} {:<17} {:<13} {:<22} {}",
                s.crawler.token,
                s.crawler.operator,
                s.crawler.purpose,
                via(s),
                access(&s.coverage)
            );
        }
        let ai: Vec<_> = standings
            .iter()
            .filter(|s| s.crawler.purpose.starts_with("ai-"))
            .collect();
        let blocked = ai
            .iter()
            .filter(|s| s.coverage == Coverage::DisallowedEverywhere)
            .count();
        let partly =
            ai.iter().filter(|s| s.coverage.as_str() == "partial").count();
        let _ = writeln!(
            text,
            "\nAI crawlers: {blocked} of {} fully disallowed, {partly} partially, {} allowed.",
            ai.len(),
            ai.len() - blocked - partly
        );
        write!(out, "{text}")?;
    }
    out.flush()?;
    Ok(Outcome::Allowed)
}
