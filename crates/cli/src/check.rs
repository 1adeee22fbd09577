//! `robotrules check`: verdicts for URLs, a drop-in for Google's
//! `robots_main`.

use std::io::{self, BufWriter, Write};

use anyhow::bail;
use robotrules::{Decision, Robots};
use robotrules_fetch::policy::{self, Access};
use robotrules_fetch::url::Url;
use robotrules_fetch::Authority;
use serde_json::json;

use crate::input;
use crate::Outcome;

/// Shows whether a crawler may fetch URLs, by a robots.txt
///
/// With no --agent: ROBOTS AGENT [URL...]. With --agent (repeatable, the
/// names are merged as one crawler): ROBOTS [URL...]. With no URL, URLs are
/// read from standard input, one per line. URLs must be %-encoded (RFC
/// 3986). Exits 0 if every URL is allowed, 1 if any is disallowed, 2 on
/// error.
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// A crawler name to check for; repeat it for a crawler known by
    /// several names. Then every argument after ROBOTS is a URL.
    #[arg(long = "agent", short = 'a', value_name = "NAME")]
    agents: Vec<String>,
    /// Print one JSON object per URL instead of a sentence.
    #[arg(long)]
    json: bool,
    /// The robots.txt: a file, `-` for standard input, or an http(s) or
    /// ftp URL (its authority's robots.txt is fetched); then the agent
    /// unless --agent is given; then the URLs.
    #[arg(value_name = "ROBOTS [AGENT] [URL]", required = true, num_args = 1..)]
    args: Vec<String>,
}

pub fn run(args: Args) -> anyhow::Result<Outcome> {
    let mut positional = args.args.into_iter();
    let Some(source) = positional.next() else { bail!("missing ROBOTS") };
    let agents = if args.agents.is_empty() {
        match positional.next() {
            Some(agent) => vec![agent],
            None => bail!("missing AGENT: give `ROBOTS AGENT [URL...]` or `--agent NAME ROBOTS [URL...]`"),
        }
    } else {
        args.agents
    };
    let urls: Vec<String> = positional.collect();
    if source == "-" && urls.is_empty() {
        bail!("robots.txt and URLs cannot both come from standard input: pass the URLs as arguments");
    }
    let loaded = input::load(&source)?;
    // For a fetched file, what the fetch came to decides when there is no
    // file to obey (RFC 9309): unavailable allows all, unreachable none.
    let (body, fixed): (&[u8], Option<bool>) = match &loaded {
        input::Loaded::Local(body) => (body, None),
        input::Loaded::Remote(remote) => {
            for note in remote.notes() {
                eprintln!("robotrules: {source}: {note}");
            }
            match remote.access {
                Access::Obey => (&remote.fetch.body, None),
                Access::AllowAll => (&[], Some(true)),
                _ => (&[], Some(false)),
            }
        }
    };
    let remote = loaded.remote().is_some();
    let authority = remote.then(|| Authority::of(&source).ok()).flatten();
    let robots = Robots::parse(body);
    let names: Vec<&str> = agents.iter().map(String::as_str).collect();
    let matcher = robots.matcher(&names);
    let shown = names.join(",");

    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut any_disallowed = false;
    let mut emit = |url: &str| -> anyhow::Result<()> {
        if let (Some(theirs), Ok(other)) = (&authority, Authority::of(url)) {
            if *theirs != other {
                eprintln!("robotrules: warning: {url} is not governed by the robots.txt of {theirs}");
            }
        }
        let decision = matcher.decide(url);
        // At the crawler's layer, /robots.txt itself is always allowed.
        let exempt =
            remote && Url::parse(url).is_ok_and(|u| policy::is_exempt(&u));
        let allowed = fixed.unwrap_or(decision.is_allowed()) || exempt;
        any_disallowed |= !allowed;
        if args.json {
            let mut value = to_json(url, &names, &decision);
            if fixed.is_some() || exempt {
                value["allowed"] = allowed.into();
                value["rule"] = serde_json::Value::Null;
            }
            writeln!(out, "{value}")?;
        } else {
            let verdict = if allowed { "ALLOWED" } else { "DISALLOWED" };
            writeln!(out, "user-agent '{shown}' with URI '{url}': {verdict}")?;
        }
        Ok(())
    };
    if urls.is_empty() {
        input::each_url(io::stdin().lock(), &mut emit)?;
    } else {
        for url in &urls {
            emit(url)?;
        }
    }
    if body.is_empty() && fixed.is_none() {
        let notice =
            "notice: robots file is empty so all user-agents are allowed";
        if args.json {
            eprintln!("{notice}");
        } else {
            writeln!(out, "{notice}")?;
        }
    }
    out.flush()?;
    Ok(if any_disallowed { Outcome::Disallowed } else { Outcome::Allowed })
}

/// The JSON form of one verdict.
pub fn to_json(
    url: &str,
    agents: &[&str],
    decision: &Decision<'_>,
) -> serde_json::Value {
    let rule = decision.rule().map(robotrules_analysis::RuleRef::from);
    json!({ "url": url, "agents": agents, "allowed": decision.is_allowed(), "rule": rule })
}
