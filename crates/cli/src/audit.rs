//! `robotrules audit`: what a robots.txt allows each well-known crawler.

use std::fmt::Write as _;
use std::io::{self, Write};
use std::path::PathBuf;

use anyhow::Context;
use robotrules::{Coverage, Robots};
use robotrules_analysis::{audit_file, escape, Catalogue, Standing, Via};

use crate::input;
use crate::Outcome;

/// Shows what the file allows each well-known crawler.
///
/// For search engines, AI crawlers and assistants, SEO tools, archives, ad
/// and link-preview bots: whether the file names each one or leaves it to
/// `*`, and whether it may fetch everything, part of the site, or nothing.
#[derive(clap::Args)]
pub struct Args {
    /// Print a JSON array instead of a table.
    #[arg(long)]
    json: bool,
    /// Audit for the crawlers of this catalogue (TOML, or JSON for a
    /// `.json` file) instead of the built-in one.
    #[arg(long, value_name = "FILE")]
    catalogue: Option<PathBuf>,
    /// The robots.txt: a file, `-` for standard input, or an http(s) or
    /// ftp URL.
    #[arg(value_name = "ROBOTS")]
    robots: String,
}

pub fn load_catalogue(path: Option<&PathBuf>) -> anyhow::Result<Catalogue> {
    let Some(path) = path else { return Ok(Catalogue::builtin()) };
    let text = std::fs::read_to_string(path).with_context(|| {
        format!("failed to read catalogue \"{}\"", path.display())
    })?;
    let json =
        path.extension().is_some_and(|e| e.eq_ignore_ascii_case("json"));
    let parsed = if json {
        Catalogue::from_json(&text)
    } else {
        Catalogue::from_toml(&text)
    };
    parsed.with_context(|| format!("invalid catalogue \"{}\"", path.display()))
}

fn access(c: &Coverage) -> String {
    match c {
        Coverage::AllowedEverywhere => "allowed".into(),
        Coverage::Partial { disallowed, .. } => {
            format!("partially disallowed (e.g. {})", shortened(disallowed))
        }
        Coverage::DisallowedEverywhere => "fully disallowed".into(),
        _ => "unknown (too costly to decide)".into(),
    }
}

/// How many characters of an example path the table shows.
const SHOWN_PATH: usize = 60;

/// How many line numbers a row of the table lists.
const SHOWN_LINES: usize = 10;

/// A path as the table shows it: escaped, and cut to [`SHOWN_PATH`]
/// characters (`--json` has it whole).
fn shortened(path: &str) -> String {
    let path = escape(path);
    match path.char_indices().nth(SHOWN_PATH) {
        Some((at, _)) => format!("{}…", &path[..at]),
        None => path.into_owned(),
    }
}

fn via(via: Via, all: &[u32]) -> String {
    let mut lines: Vec<String> =
        all.iter().take(SHOWN_LINES).map(u32::to_string).collect();
    if all.len() > SHOWN_LINES {
        lines.push(format!("… {} in all", all.len()));
    }
    let which = if all.len() == 1 { "line" } else { "lines" };
    match via {
        Via::Named => format!("named ({which} {})", lines.join(", ")),
        Via::Global => format!("* ({which} {})", lines.join(", ")),
        Via::Fallback => format!("fallback ({which} {})", lines.join(", ")),
        Via::Access => "no rules (fetch)".to_string(),
        _ => "no group".to_string(),
    }
}

pub fn run(args: Args) -> anyhow::Result<Outcome> {
    let catalogue = load_catalogue(args.catalogue.as_ref())?;
    let loaded = input::load(&args.robots)?;
    let effective = loaded.effective(&args.robots);
    let robots = Robots::parse(effective.body);
    let mut standings = audit_file(&robots, effective.body, &catalogue);
    // No rules to obey: the fetch outcome decides for every crawler
    // (RFC 9309 §2.3.1.3–4), as `check` says.
    if let Some(forced) = effective.forced {
        for s in &mut standings {
            s.coverage = if forced {
                Coverage::AllowedEverywhere
            } else {
                Coverage::DisallowedEverywhere
            };
            s.via = Via::Access;
            s.lines.clear();
            s.crawl_delay = None;
            s.as_fetched = None;
        }
    }
    if effective.remote.is_some() {
        eprintln!(
            "robotrules: note: the site's own /robots.txt is always allowed \
             to crawlers (RFC 9309 §2.2.2), whatever the access below says"
        );
    }
    let mut out = io::stdout().lock();
    if args.json {
        serde_json::to_writer(&mut out, &standings)?;
        writeln!(out)?;
    } else {
        let has_global = robots.groups().any(|g| g.is_global());
        write!(out, "{}", table(&standings, has_global))?;
    }
    out.flush()?;
    Ok(Outcome::Allowed)
}

/// `, crawl-delay N s` when the crawl-delay crawlers read differs from
/// the whole file's.
fn delay_change(whole: Option<f64>, fetched: Option<f64>) -> String {
    if whole.map(f64::to_bits) == fetched.map(f64::to_bits) {
        return String::new();
    }
    match fetched {
        Some(delay) => format!(", crawl-delay {delay} s"),
        None => ", no crawl-delay".to_string(),
    }
}

/// The standings as a table, and a summary for the AI crawlers;
/// `has_global` says that the file has a `*` group.
fn table(standings: &[Standing], has_global: bool) -> String {
    let mut text = String::new();
    let head = ["crawler", "operator", "purpose", "rules from", "access"];
    let rows: Vec<[String; 5]> = standings
        .iter()
        .map(|s| {
            [
                escape(&s.crawler.token).into_owned(),
                escape(&s.crawler.operator).into_owned(),
                s.crawler.purpose.as_str().to_string(),
                via(s.via, &s.lines),
                access(&s.coverage),
            ]
        })
        .collect();
    // Each column as wide as its widest cell (the last one unpadded).
    let mut widths = [30, 17, 13, 22, 0];
    for row in &rows {
        for (width, cell) in widths.iter_mut().zip(row).take(4) {
            *width = (*width).max(cell.chars().count());
        }
    }
    for row in std::iter::once(head.map(String::from)).chain(rows) {
        for (i, (cell, width)) in row.iter().zip(widths).enumerate() {
            let _ = match i {
                0 => write!(text, "{cell:<width$}"),
                4 => writeln!(text, " {cell}"),
                _ => write!(text, " {cell:<width$}"),
            };
        }
    }
    let ai: Vec<_> =
        standings.iter().filter(|s| s.crawler.purpose.is_ai()).collect();
    let count = |f: &dyn Fn(&Coverage) -> bool| {
        ai.iter().filter(|s| f(&s.coverage)).count()
    };
    let blocked = count(&|c| *c == Coverage::DisallowedEverywhere);
    let partly = count(&|c| matches!(c, Coverage::Partial { .. }));
    let allowed = count(&|c| *c == Coverage::AllowedEverywhere);
    let _ = write!(
        text,
        "\nAI crawlers: {blocked} of {} fully disallowed, {partly} partially, \
         {allowed} allowed",
        ai.len()
    );
    let unknown = ai.len() - blocked - partly - allowed;
    if unknown > 0 {
        let _ = write!(text, ", {unknown} unknown");
    }
    let _ = writeln!(text, ".");
    // A file over 500 KiB: the crawlers that stand otherwise by the part
    // they read.
    let differ: Vec<_> =
        standings.iter().filter(|s| s.differs_as_fetched()).collect();
    if !differ.is_empty() {
        let _ = writeln!(
            text,
            "Note: the file is over 500 KiB, and crawlers read only its \
             first 500 KiB (RFC 9309 §2.5). By that part, {}:",
            if differ.len() == 1 {
                "this crawler stands otherwise"
            } else {
                "these crawlers stand otherwise"
            }
        );
    }
    for s in differ {
        if let Some(f) = &s.as_fetched {
            let _ = writeln!(
                text,
                "  {:<30} {:<22} {}{}",
                escape(&s.crawler.token),
                via(f.via, &f.lines),
                access(&f.coverage),
                delay_change(s.crawl_delay, f.crawl_delay)
            );
        }
    }
    // Crawlers whose operator documents another choice of groups than a
    // group that names them or else `*`: what they follow here; and those
    // that may not obey rules that would keep them out.
    for s in standings {
        let c = &s.crawler;
        let groups = match s.via {
            Via::Fallback => Some(format!(
                "no group names it, so it follows the groups of {}, as its \
                 operator documents",
                escape(&c.fallback.join(" or "))
            )),
            // Without a `*` group, ignoring one changes nothing.
            Via::None if c.ignores_global && has_global => Some(
                "no group names it, and it ignores the * groups, as its \
                 operator documents: name it to restrict it"
                    .to_string(),
            ),
            _ => None,
        };
        let ruled = matches!(s.via, Via::Named | Via::Global | Via::Fallback);
        let obeys = (c.user_initiated
            && ruled
            && s.coverage != Coverage::AllowedEverywhere)
            .then(|| {
                "it fetches only on a user's request, and its operator says \
                 robots.txt rules may not apply to it then: these rules may \
                 not keep it out"
                    .to_string()
            });
        for why in groups.into_iter().chain(obeys) {
            let _ = writeln!(text, "Note: {}: {why}", escape(&c.token));
        }
    }
    text
}
