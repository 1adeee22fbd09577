//! `robotrules explain`: why a URL is allowed or not, line by line.

use std::fmt::Write as _;
use std::io::{self, Write};

use anyhow::bail;
use robotrules::{Group, Robots, RuleKind};
use serde_json::{json, Value};

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
    #[arg(value_name = "ROBOTS [AGENT] URL", required = true, num_args = 2..=3)]
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
    let body = loaded.body(source)?;
    let names: Vec<&str> = agents.iter().map(String::as_str).collect();
    let explanation = Explanation::new(body, &names, url);
    let mut out = io::stdout().lock();
    if args.json {
        writeln!(out, "{}", explanation.to_json())?;
    } else {
        write!(out, "{}", explanation.to_text(source))?;
    }
    out.flush()?;
    Ok(if explanation.allowed {
        Outcome::Allowed
    } else {
        Outcome::Disallowed
    })
}

/// A rule that matched the path.
struct Match {
    line: u32,
    kind: RuleKind,
    pattern: String,
    written: String,
    priority: usize,
    index_retry: bool,
}

/// Everything `explain` reports, gathered once for both output forms.
pub struct Explanation<'a> {
    robots: Robots,
    lines: Vec<&'a [u8]>,
    agents: Vec<String>,
    url: String,
    path: String,
    named: bool,
    /// (first line, last line, the user-agent lines that selected it).
    groups: Vec<(u32, u32, Vec<u32>)>,
    ignored: Vec<(u32, u32)>,
    matches: Vec<Match>,
    decided: Option<u32>,
    allowed: bool,
}

impl<'a> Explanation<'a> {
    pub fn new(body: &'a [u8], agents: &[&str], url: &str) -> Explanation<'a> {
        let robots = Robots::parse(body);
        let path = robotrules::path_of(url).into_owned();
        let selection = robots.select(agents);
        let named = selection.is_named();
        let why = |g: &Group<'_>| -> Vec<u32> {
            g.agents()
                .filter(|a| {
                    if named {
                        agents.iter().any(|n| a.is_named_by(n))
                    } else {
                        a.is_global()
                    }
                })
                .map(|a| a.line())
                .collect()
        };
        let groups = selection
            .groups()
            .map(|g| (g.line(), g.end_line(), why(&g)))
            .collect();
        let ignored = selection
            .ignored_global_groups()
            .map(|g| (g.line(), g.end_line()))
            .collect();
        let matches = selection
            .rules()
            .filter_map(|r| {
                let priority = r.match_priority(url)?;
                Some(Match {
                    line: r.line(),
                    kind: r.kind(),
                    pattern: r.pattern().to_string(),
                    written: String::from_utf8_lossy(r.as_written())
                        .into_owned(),
                    priority,
                    index_retry: priority != r.priority(),
                })
            })
            .collect();
        let decision = robots.decide(agents, url);
        let (decided, allowed) =
            (decision.rule().map(|r| r.line()), decision.is_allowed());
        drop(selection);
        Explanation {
            lines: robotrules::raw_lines(body).collect(),
            robots,
            agents: agents.iter().map(|a| a.to_string()).collect(),
            url: url.to_string(),
            path,
            named,
            groups,
            ignored,
            matches,
            decided,
            allowed,
        }
    }

    fn quote(&self, line: u32) -> String {
        let raw =
            self.lines.get(line as usize - 1).copied().unwrap_or_default();
        let text =
            String::from_utf8_lossy(&raw[..raw.len().min(200)]).into_owned();
        text.trim_end().replace('\t', " ")
    }

    pub fn to_text(&self, source: &str) -> String {
        let mut s = String::new();
        let who = self.agents.join(", ");
        let _ = writeln!(
            s,
            "robots.txt  {source} ({} lines)",
            self.robots.line_count()
        );
        let _ = writeln!(s, "crawler     {who}");
        let _ = writeln!(s, "URL         {}", self.url);
        let _ = writeln!(s, "path        {}\n", self.path);
        if self.groups.is_empty() {
            let _ = writeln!(s, "No group names {who} and there is no * group: every URL is allowed.");
        } else if self.named {
            let ignored = if self.ignored.is_empty() {
                ""
            } else {
                ", so the * rules are ignored"
            };
            let _ =
                writeln!(s, "Groups for {who} — named explicitly{ignored}:");
        } else {
            let _ =
                writeln!(s, "No group names {who}, so the * groups apply:");
        }
        for (first, last, why) in &self.groups {
            let _ = writeln!(s, "  group at lines {first}-{last}, chosen by:");
            for line in why {
                let _ = writeln!(s, "  {line:>5} | {}", self.quote(*line));
            }
        }
        for (first, last) in &self.ignored {
            let _ =
                writeln!(s, "  ignored: the * group at lines {first}-{last}");
            let _ = writeln!(s, "  {first:>5} | {}", self.quote(*first));
        }
        if !self.groups.is_empty() {
            if self.matches.is_empty() {
                let _ = writeln!(
                    s,
                    "\nNo rule of these groups matches {}.",
                    self.path
                );
            } else {
                let _ = writeln!(
                    s,
                    "\nRules that match {} (the highest priority decides; allow wins a tie):",
                    self.path
                );
                let width = self
                    .matches
                    .iter()
                    .map(|m| self.quote(m.line).chars().count())
                    .max()
                    .unwrap_or(0);
                for m in &self.matches {
                    let retry = if m.index_retry {
                        " (as its directory, index.html rule)"
                    } else {
                        ""
                    };
                    let mark = if Some(m.line) == self.decided {
                        "  <- decides"
                    } else {
                        ""
                    };
                    let _ = writeln!(
                        s,
                        "  {:>5} | {:<width$}   {}, priority {}{retry}{mark}",
                        m.line,
                        self.quote(m.line),
                        m.kind,
                        m.priority
                    );
                }
            }
        }
        let verdict = if self.allowed { "ALLOWED" } else { "DISALLOWED" };
        match self.decided {
            Some(line) => {
                let _ = writeln!(s, "\nVerdict: {verdict} by line {line}");
            }
            None => {
                let _ = writeln!(s, "\nVerdict: {verdict} (no rule decides)");
            }
        }
        s
    }

    pub fn to_json(&self) -> Value {
        let groups: Vec<Value> = self
            .groups
            .iter()
            .map(|(first, last, why)| {
                let agents: Vec<Value> = why
                    .iter()
                    .map(|l| json!({"line": l, "text": self.quote(*l)}))
                    .collect();
                json!({"line": first, "end_line": last, "matched_by": agents})
            })
            .collect();
        let ignored: Vec<Value> = self
            .ignored
            .iter()
            .map(|(f, l)| json!({"line": f, "end_line": l}))
            .collect();
        let matches: Vec<Value> = self
            .matches
            .iter()
            .map(|m| {
                json!({
                    "line": m.line,
                    "kind": m.kind.as_str(),
                    "pattern": m.written,
                    "normalized": m.pattern,
                    "priority": m.priority,
                    "index_retry": m.index_retry,
                    "decides": Some(m.line) == self.decided,
                })
            })
            .collect();
        let rule = self.decided.and_then(|line| {
            self.matches.iter().find(|m| m.line == line).map(|m| {
                json!({"line": m.line, "kind": m.kind.as_str(), "pattern": m.written, "priority": m.priority})
            })
        });
        json!({
            "url": self.url,
            "path": self.path,
            "agents": self.agents,
            "named": self.named,
            "groups": groups,
            "ignored_global_groups": ignored,
            "matches": matches,
            "allowed": self.allowed,
            "rule": rule,
        })
    }
}
