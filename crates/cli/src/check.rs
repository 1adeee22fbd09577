//! `robotrules check`: verdicts for URLs, a drop-in for Google's
//! `robots_main`.

use std::io::{self, BufWriter, Write};

use anyhow::bail;
use robotrules::Robots;
use robotrules_analysis::{
    agent_for_user_agent, check_agents, escape, other_authority,
    question_warnings, Check, FetchLimit, Warning, WarningKind,
};
use robotrules_fetch::Authority;

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
    /// The agents are full User-Agent headers, such as `Mozilla/5.0
    /// (compatible; GPTBot/1.2; +https://openai.com/gptbot)`: check with
    /// the crawler name (product token) each one carries.
    #[arg(long)]
    user_agent: bool,
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
    let effective = loaded.effective(&source);
    let (body, fixed) = (effective.body, effective.forced);
    let authority = effective.remote.map(|r| r.fetch.authority.clone());
    let robots = Robots::parse(body);
    let agents = match args.user_agent {
        false => agents,
        true => agents
            .iter()
            .map(|a| token_of(a, &robots))
            .collect::<Result<_, _>>()?,
    };
    let names: Vec<&str> = agents.iter().map(String::as_str).collect();
    let matcher = robots.matcher(&names);
    let shown = names.join(",");
    let agent_warnings = check_agents(&names);
    for w in &agent_warnings {
        eprintln!(
            "robotrules: warning: {} (--user-agent checks a full \
             User-Agent header by the crawler name it carries)",
            w.message
        );
    }
    // What crawlers read of a file over 500 KiB (a fetched one is cut).
    let limit = FetchLimit::new(body, &names);

    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut any_disallowed = false;
    // `read_as`: how a line of standard input that is not UTF-8 was
    // read, for its JSON (standard error has had it once).
    let mut emit = |url: &str,
                    read_as: Option<Warning>|
     -> anyhow::Result<()> {
        let decision = matcher.decide(&effective.target(url));
        // Say what the encoded form would get.
        let mut warnings = question_warnings(
            agent_warnings.clone(),
            url,
            |encoded| {
                let by_rules = matcher.is_allowed(&effective.target(encoded));
                effective.verdict(encoded, by_rules)
            },
            &decision,
            limit.as_ref(),
        );
        if effective.judges_as_requested(url) {
            warnings.retain(|w| w.kind != WarningKind::ParsedOtherwise);
        }
        if let (Some(theirs), Ok(other)) = (&authority, Authority::of(url)) {
            if *theirs != other {
                warnings.push(other_authority(url, &theirs.to_string()));
            }
        }
        for w in &warnings[agent_warnings.len()..] {
            eprintln!("robotrules: warning: {}", w.message);
        }
        // At the crawler's layer, /robots.txt itself is always allowed.
        let exempt = effective.is_exempt(url);
        let allowed = effective.verdict(url, decision.is_allowed());
        if !allowed {
            any_disallowed = true;
            crate::found_disallowed();
        }
        if args.json {
            warnings.extend(read_as);
            let mut check =
                Check::with_warnings(&decision, &names, url, warnings);
            let overridden = fixed.is_some() || exempt;
            if overridden {
                check.allowed = allowed;
                check.rule = None;
            }
            let mut value = serde_json::to_value(&check)?;
            if effective.remote.is_some() {
                value["fetch"] = effective.fetch_json();
                value["exempt"] = exempt.into();
            }
            if overridden {
                // As in `explain`: what the rules alone say.
                value["allowed_by_rules"] = decision.is_allowed().into();
            }
            writeln!(out, "{value}")?;
        } else {
            let verdict = if allowed { "ALLOWED" } else { "DISALLOWED" };
            // Control characters (a terminal's escapes) are shown escaped.
            let (shown, url) = (escape(&shown), escape(url));
            writeln!(out, "user-agent '{shown}' with URI '{url}': {verdict}")?;
        }
        Ok(())
    };
    if urls.is_empty() {
        input::each_url(io::stdin().lock(), &mut emit)?;
    } else {
        for url in &urls {
            emit(url, None)?;
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

/// The crawler token of a full `User-Agent` header, for --user-agent.
fn token_of(header: &str, robots: &Robots) -> anyhow::Result<String> {
    match agent_for_user_agent(robots, header) {
        Some(token) => {
            eprintln!(
                "robotrules: \"{}\" is checked as the crawler {token:?}",
                escape(header)
            );
            Ok(token)
        }
        None => bail!(
            "no crawler name (product token) in the User-Agent \"{}\"",
            escape(header)
        ),
    }
}
