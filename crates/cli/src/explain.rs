//! `robotrules explain`: why a URL is allowed or not, line by line.

use std::fmt::Write as _;
use std::io::{self, Write};

use anyhow::bail;
use robotrules::{Robots, RuleKind};
use robotrules_analysis::{
    check_agents, check_url, escape, explain, other_authority, Explanation,
    WarningKind,
};
use robotrules_fetch::Authority;

use crate::input;
use crate::Outcome;

/// Explains the verdict for one URL, line by line.
///
/// Shows the groups chosen for the crawler and why, every rule that
/// matches with its priority, and the rule that decides. Exits 0 if the
/// URL is allowed, 1 if not, 2 on error.
#[derive(clap::Args)]
pub struct Args {
    /// A crawler name; repeat it for a crawler known by several names.
    /// Then the arguments are ROBOTS URL.
    #[arg(long = "agent", short = 'a', value_name = "NAME")]
    agents: Vec<String>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// ROBOTS (a file, `-`, or an http(s) or ftp URL), AGENT unless
    /// --agent is given, and URL.
    #[arg(value_name = "ROBOTS [AGENT] URL", required = true, num_args = 1..=3)]
    args: Vec<String>,
}

pub fn run(args: Args) -> anyhow::Result<Outcome> {
    let (source, agents, url) = match (args.agents.is_empty(), &args.args[..])
    {
        (true, [source, agent, url]) => (source, vec![agent.clone()], url),
        (false, [source, url]) => (source, args.agents.clone(), url),
        (true, _) => {
            bail!("give ROBOTS AGENT URL, or --agent NAME ROBOTS URL")
        }
        (false, _) => bail!("with --agent, give ROBOTS URL"),
    };
    let loaded = input::load(source)?;
    let effective = loaded.effective(source);
    let body = effective.body;
    let names: Vec<&str> = agents.iter().map(String::as_str).collect();
    let robots = Robots::parse(body);
    // For a fetched file, the URL a crawler requests (dot segments
    // resolved), as the fetch layer judges it.
    let mut explanation =
        explain(&robots, body, &names, &effective.target(url));
    explanation.url = url.to_string();
    let mut warnings = check_agents(&names);
    warnings.extend(check_url(url));
    if effective.judges_as_requested(url) {
        warnings.retain(|w| w.kind != WarningKind::ParsedOtherwise);
    }
    warnings.extend(explanation.fetch_limit_warning());
    if let (Some(remote), Ok(other)) = (effective.remote, Authority::of(url)) {
        if remote.fetch.authority != other {
            let site = remote.fetch.authority.to_string();
            warnings.push(other_authority(url, &site));
        }
    }
    for w in &warnings {
        eprintln!("robotrules: warning: {}", w.message);
    }
    // What a crawler does, as `check` says it: the fetch outcome decides
    // when it leaves no rules, and /robots.txt itself is always allowed.
    let exempt = effective.is_exempt(url);
    let by_rules = explanation.allowed;
    let overridden = exempt || effective.forced.is_some();
    // The text explains the rules, then says what overrides them.
    let mut text = String::new();
    if let (Some(remote), Some(_)) = (effective.remote, effective.forced) {
        let _ = writeln!(text, "{}\n", remote.summary());
    } else if !args.json {
        text = to_text(&explanation, &robots, body, source);
    }
    explanation.allowed = effective.verdict(url, by_rules);
    if !explanation.allowed {
        crate::found_disallowed();
    }
    let mut out = io::stdout().lock();
    if args.json {
        let mut value = serde_json::to_value(&explanation)?;
        value["warnings"] = serde_json::to_value(&warnings)?;
        if effective.remote.is_some() {
            value["fetch"] = effective.fetch_json();
            value["exempt"] = exempt.into();
        }
        if overridden {
            // As in `check`: no rule decides for crawlers.
            value["rule"] = serde_json::Value::Null;
            value["allowed_by_rules"] = by_rules.into();
        }
        serde_json::to_writer(&mut out, &value)?;
        writeln!(out)?;
    } else {
        if exempt {
            let rules = if by_rules { "allow" } else { "disallow" };
            let _ = writeln!(
                text,
                "Note: {} is the site's robots.txt, which crawlers may \
                 always fetch (RFC 9309 §2.2.2), whatever its rules say \
                 (they {rules} it).",
                escape(url)
            );
        }
        if overridden {
            let verdict =
                if explanation.allowed { "ALLOWED" } else { "DISALLOWED" };
            let _ = writeln!(text, "Verdict for crawlers: {verdict}");
        }
        write!(out, "{text}")?;
    }
    out.flush()?;
    Ok(if explanation.allowed {
        Outcome::Allowed
    } else {
        Outcome::Disallowed
    })
}

/// The explanation as text, with the file's lines quoted.
fn to_text(
    e: &Explanation,
    robots: &Robots,
    body: &[u8],
    source: &str,
) -> String {
    let mut s = String::new();
    let who = escape(&e.agents.join(", ")).into_owned();
    let lines = match e.line_count {
        1 => "1 line".to_string(),
        n => format!("{n} lines"),
    };
    let _ = writeln!(s, "robots.txt  {} ({lines})", escape(source));
    let _ = writeln!(s, "crawler     {who}");
    let _ = writeln!(s, "URL         {}", escape(&e.url));
    let _ = writeln!(s, "path        {}\n", escape(&e.path));
    if e.groups.is_empty() {
        let _ = writeln!(
            s,
            "No group names {who} and there is no * group: every URL is allowed."
        );
    } else if e.named {
        let ignored = if e.ignored_global_groups.is_empty() {
            ""
        } else {
            ", so the * rules are ignored"
        };
        let _ = writeln!(s, "Groups for {who} — named explicitly{ignored}:");
    } else {
        let _ = writeln!(s, "No group names {who}, so the * groups apply:");
    }
    for g in &e.groups {
        let _ = writeln!(
            s,
            "  group at lines {}-{}, chosen by:",
            g.line, g.end_line
        );
        for q in &g.matched_by {
            let _ = writeln!(s, "  {:>5} | {}", q.line, q.text);
        }
    }
    for g in &e.ignored_global_groups {
        let _ = writeln!(
            s,
            "  ignored: the * group at lines {}-{}",
            g.line, g.end_line
        );
        if let Some(q) = g.matched_by.first() {
            let _ = writeln!(s, "  {:>5} | {}", q.line, q.text);
        }
    }
    let path = escape(&e.path);
    if !e.groups.is_empty() {
        if e.matches.is_empty() {
            let _ = writeln!(s, "\nNo rule of these groups matches {path}.");
        } else {
            let _ = writeln!(
                s,
                "\nRules that match {path} (the highest priority decides; allow wins a tie):"
            );
            let width = e
                .matches
                .iter()
                .map(|m| m.text.chars().count())
                .max()
                .unwrap_or(0);
            for m in &e.matches {
                let retry = if m.rule.index_retry {
                    " (as its directory, index.html rule)"
                } else {
                    ""
                };
                let mark = if m.decides { "  <- decides" } else { "" };
                // What the quoted line does not show: where its value
                // ends for the parser.
                let pattern = escape(&m.rule.pattern);
                // A NUL in a comment cuts nothing that counts.
                let nul_cuts = |line: u32| {
                    let raw = robotrules::raw_lines(body)
                        .nth(line as usize - 1)
                        .unwrap_or_default();
                    let at = |b: u8| raw.iter().position(|&c| c == b);
                    at(0).is_some_and(|nul| at(b'#').is_none_or(|h| nul < h))
                };
                let read_as = match robots.line(m.rule.line) {
                    Some(r) if r.has_nul() && nul_cuts(m.rule.line) => {
                        format!(
                            " (read as `{pattern}`: a NUL byte ends the line)"
                        )
                    }
                    Some(r) if r.is_too_long() => {
                        let tail = pattern.chars().count().saturating_sub(24);
                        let end: String = pattern.chars().skip(tail).collect();
                        format!(
                            " (read up to `…{end}`: the line is cut after \
                             its first {} bytes)",
                            robotrules::MAX_LINE_LEN
                        )
                    }
                    _ => String::new(),
                };
                let _ = writeln!(
                    s,
                    "  {:>5} | {:<width$}   {}, priority {}{read_as}{retry}{mark}",
                    m.rule.line, m.text, m.rule.kind, m.rule.priority
                );
            }
            if e.omitted_matches > 0 {
                let _ = writeln!(
                    s,
                    "  … and {} more matching rules, not listed",
                    e.omitted_matches
                );
            }
        }
    }
    let verdict = if e.allowed { "ALLOWED" } else { "DISALLOWED" };
    match &e.rule {
        Some(rule)
            if rule.kind == RuleKind::Disallow && rule.pattern.is_empty() =>
        {
            // The reference names an empty `Disallow:` that matched.
            let _ = writeln!(
                s,
                "\nVerdict: {verdict} (line {}, an empty `Disallow:`, \
                 disallows nothing)",
                rule.line
            );
        }
        Some(rule)
            if rule.kind == RuleKind::Allow && rule.pattern.is_empty() =>
        {
            // An empty `Allow:` matched and no other rule did: it opens
            // nothing that was closed (priority 0).
            let _ = writeln!(
                s,
                "\nVerdict: {verdict} (line {}, an empty `Allow:`, which \
                 matches with priority 0: no rule of a higher priority \
                 matches)",
                rule.line
            );
        }
        Some(rule) => {
            let _ = writeln!(s, "\nVerdict: {verdict} by line {}", rule.line);
        }
        None => {
            let _ = writeln!(s, "\nVerdict: {verdict} (no rule decides)");
        }
    }
    match (&e.as_fetched, &e.rule) {
        (Some(fetched), Some(rule)) if e.beyond_fetch_limit => {
            let _ = writeln!(
                s,
                "Note: line {} lies beyond the first 500 KiB of the file, \
                 which crawlers do not read: for them the URL is {fetched}.",
                rule.line
            );
        }
        (Some(fetched), _) if fetched.allowed != e.allowed => {
            let _ = writeln!(
                s,
                "Note: crawlers read only the first 500 KiB of the file \
                 (RFC 9309 §2.5), and lines beyond it decide the verdict \
                 above: for crawlers the URL is {fetched}."
            );
        }
        _ => {}
    }
    s
}
