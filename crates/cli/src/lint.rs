//! `robotrules lint`: compiler-style diagnostics for a robots.txt.

use std::collections::{BTreeMap, HashMap};
use std::io::{self, Write};
use std::ops::Range;

use codespan_reporting::diagnostic::{
    Diagnostic as Report, Label, Severity as Level,
};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, Config};
use robotrules::{ExtensionKind, Robots, RuleKind, Tag};
use serde_json::json;

use crate::input;
use crate::Outcome;

/// Reports what is wrong or risky in a robots.txt.
///
/// Diagnostics come with a stable code, the line and column, and a help
/// line, like a compiler's. Exits 1 if any error is found, 0 if not, 2 if
/// the file cannot be read.
#[derive(clap::Args)]
pub struct Args {
    /// `text` (source lines underlined) or `json` (one object per line).
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// The robots.txt: a file, `-` for standard input, or an http(s) or
    /// ftp URL.
    #[arg(value_name = "ROBOTS")]
    robots: String,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum Format {
    Text,
    Json,
}

/// How bad a diagnostic is.
#[derive(Clone, Copy, Debug, Eq, Ord, PartialEq, PartialOrd)]
pub enum Severity {
    Info,
    Warning,
    Error,
}

impl Severity {
    fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// One finding.
#[derive(Clone, Debug)]
pub struct Diagnostic {
    pub code: &'static str,
    pub name: &'static str,
    pub severity: Severity,
    /// The line, from 1.
    pub line: u32,
    /// Bytes of the raw line that the finding is about.
    pub span: Range<usize>,
    pub message: String,
    pub help: Option<String>,
}

/// Google reads at most this many bytes of a robots.txt.
const GOOGLE_CAP: usize = robotrules::FETCH_LIMIT;

/// The keys a typo is compared with.
const KNOWN_KEYS: &[&str] = &[
    "user-agent",
    "allow",
    "disallow",
    "sitemap",
    "crawl-delay",
    "host",
    "clean-param",
    "noindex",
    "request-rate",
    "visit-time",
    "content-signal",
];

/// Where the key and the value of a line are, in the raw line.
struct Spans {
    key: Range<usize>,
    value: Range<usize>,
}

/// Finds the key and the value the way the parser does (comment cut,
/// whitespace trimmed, first colon or the missing-colon rule).
fn spans(raw: &[u8]) -> Option<Spans> {
    let is_space =
        |b: &u8| matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r');
    let end =
        raw.iter().position(|&b| b == b'#' || b == 0).unwrap_or(raw.len());
    let start = raw[..end].iter().position(|b| !is_space(b))?;
    let stop = raw[..end].iter().rposition(|b| !is_space(b))? + 1;
    let sep = match raw[start..stop].iter().position(|&b| b == b':') {
        Some(at) => start + at,
        None => {
            start
                + raw[start..stop]
                    .iter()
                    .position(|&b| b == b' ' || b == b'\t')?
        }
    };
    let key_end = raw[start..sep]
        .iter()
        .rposition(|b| !is_space(b))
        .map_or(start, |e| start + e + 1);
    let value_start = raw[sep + 1..stop]
        .iter()
        .position(|b| !is_space(b))
        .map_or(stop, |s| sep + 1 + s);
    Some(Spans {
        key: start..key_end,
        value: value_start..stop.max(value_start),
    })
}

/// The Levenshtein distance of two short ASCII strings, ignoring case.
fn distance(a: &str, b: &str) -> usize {
    let (a, b) = (a.to_ascii_lowercase().into_bytes(), b.as_bytes());
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for i in 1..=a.len() {
        let mut prev = row[0];
        row[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let next = (row[j] + 1).min(row[j - 1] + 1).min(prev + cost);
            prev = row[j];
            row[j] = next;
        }
    }
    row[b.len()]
}

/// The canonical key a key is read as, for the four fields.
fn canonical(tag: Tag) -> Option<&'static str> {
    match tag {
        Tag::UserAgent => Some("User-agent"),
        Tag::Allow => Some("Allow"),
        Tag::Disallow => Some("Disallow"),
        Tag::Sitemap => Some("Sitemap"),
        _ => None,
    }
}

/// The same set of paths, written without redundant trailing `*`.
fn normal_form(pattern: &str) -> &str {
    if pattern.ends_with('$') {
        pattern
    } else {
        pattern.trim_end_matches('*')
    }
}

/// Checks a robots.txt body and returns its diagnostics, by line.
pub fn lint(body: &[u8]) -> Vec<Diagnostic> {
    let robots = Robots::parse(body);
    let raw: Vec<&[u8]> = robotrules::raw_lines(body).collect();
    let mut out = Vec::new();
    let whole = |line: u32| {
        0..raw
            .get(line as usize - 1)
            .map_or(0, |l| l.len().min(robotrules::MAX_LINE_LEN))
    };
    let key_of = |line: u32| {
        raw.get(line as usize - 1)
            .and_then(|l| spans(l))
            .map_or_else(|| whole(line), |s| s.key)
    };
    let value_of = |line: u32| {
        raw.get(line as usize - 1)
            .and_then(|l| spans(l))
            .map_or_else(|| whole(line), |s| s.value)
    };
    let mut push = |code,
                    name,
                    severity,
                    line,
                    span,
                    message: String,
                    help: Option<String>| {
        out.push(Diagnostic {
            code,
            name,
            severity,
            line,
            span,
            message,
            help,
        });
    };

    // --- The file as a whole.
    let line_at = |offset: usize| -> u32 {
        let mut seen = 0usize;
        let start = body.len()
            - body
                .iter()
                .zip(b"\xEF\xBB\xBF")
                .take_while(|(a, b)| a == b)
                .count();
        let skipped = body.len() - start;
        for (i, l) in raw.iter().enumerate() {
            seen += l.len() + 1;
            if seen + skipped > offset {
                return i as u32 + 1;
            }
        }
        raw.len() as u32
    };
    let head = String::from_utf8_lossy(&body[..body.len().min(1024)])
        .to_ascii_lowercase();
    let looks_html = ["<!doctype html", "<html", "<head", "<body", "<script"]
        .iter()
        .any(|t| head.contains(t));
    let controls = body
        .iter()
        .take(4096)
        .filter(|&&b| b < 0x20 && !b"\t\n\r\x0c".contains(&b))
        .count();
    let binary = body.starts_with(b"\xFF\xFE")
        || body.starts_with(b"\xFE\xFF")
        || controls * 20 > body.len().min(4096);
    if looks_html {
        push("RT005", "html", Severity::Error, 1, whole(1),
            "the file is an HTML page, not a robots.txt".into(),
            Some("serve a text/plain robots.txt at /robots.txt, or a 404 if there is none".into()));
    } else if binary {
        push("RT006", "binary", Severity::Error, 1, whole(1),
            "the file holds binary data (UTF-16, compressed or an image), not a robots.txt".into(),
            Some("serve plain UTF-8 text; a compressed body must carry a Content-Encoding".into()));
    }
    if body.len() > GOOGLE_CAP {
        let line = line_at(GOOGLE_CAP);
        push("RT001", "too-large", Severity::Warning, line, whole(line),
            format!("the file is {} KiB: Google reads the first 500 KiB only, and ignores the rest from here", body.len() / 1024),
            Some("move the important rules to the top, or shorten the file".into()));
    }
    if body.starts_with(b"\xEF\xBB\xBF") {
        push("RT002", "bom", Severity::Warning, 1, 0..0,
            "the file starts with a UTF-8 byte order mark".into(),
            Some("Google skips it, but other parsers may read the first key as unknown".into()));
    }
    if let Err(e) = std::str::from_utf8(body) {
        let line = line_at(e.valid_up_to());
        push("RT003", "not-utf8", Severity::Warning, line, whole(line),
            "the file is not UTF-8: values with these bytes are escaped byte by byte".into(),
            Some("save the file as UTF-8".into()));
    }
    if let Some(at) = body
        .windows(2)
        .position(|w| w[0] == b'\r' && w[1] != b'\n')
        .or_else(|| (body.last() == Some(&b'\r')).then(|| body.len() - 1))
    {
        let line = line_at(at);
        push(
            "RT004",
            "cr-line-endings",
            Severity::Warning,
            line,
            whole(line),
            "the file uses CR alone to end lines".into(),
            Some("use LF or CR LF: some parsers see one long line".into()),
        );
    }

    // --- Line by line.
    for report in robots.lines() {
        let n = report.number();
        if report.is_too_long() {
            push("RT007", "line-too-long", Severity::Error, n, robotrules::MAX_LINE_LEN..robotrules::MAX_LINE_LEN,
                format!("the line is longer than {} bytes: the rest of it is ignored", robotrules::MAX_LINE_LEN),
                Some("split long rules; a `$` after the cut is lost".into()));
        }
        if !report.has_directive()
            && !report.is_empty()
            && !report.is_comment()
            && !binary
            && !looks_html
        {
            push("RT112", "ignored-line", Severity::Warning, n, whole(n),
                "this line is not a directive and is ignored".into(),
                Some("write `key: value`; without a colon, only two words separated by a space are read".into()));
        }
        if report.is_missing_colon() {
            push("RT103", "missing-colon", Severity::Warning, n, key_of(n),
                "the key and value are separated by whitespace, not a colon".into(),
                Some("write `key: value`: Google accepts this, many parsers do not".into()));
        }
        if let Some(tag) = report.tag() {
            let key =
                raw.get(n as usize - 1).and_then(|l| spans(l)).map(|s| {
                    String::from_utf8_lossy(&l_slice(&raw, n, s.key))
                        .into_owned()
                });
            if let (Some(canon), Some(key)) = (canonical(tag), key) {
                if !key.eq_ignore_ascii_case(canon) {
                    let why = if report.is_typo() {
                        "an accepted typo"
                    } else {
                        "matched by its prefix"
                    };
                    push(
                        "RT102",
                        "accepted-variant",
                        Severity::Warning,
                        n,
                        key_of(n),
                        format!(
                            "`{key}` is read as `{canon}` by Google ({why})"
                        ),
                        Some(format!(
                            "write `{canon}`: other parsers ignore `{key}`"
                        )),
                    );
                }
            }
        }
    }
    for d in robots.unknown_directives() {
        let key = d.key_lossy();
        if d.is_unused() {
            let what = match ExtensionKind::from_key(d.key()) {
                Some(ExtensionKind::CrawlDelay) => "some crawlers (Bing, Yandex) honour it; Googlebot does not",
                Some(ExtensionKind::Noindex) => "Google stopped supporting it in 2019; use a noindex meta tag or header",
                Some(ExtensionKind::Host) => "only Yandex used it",
                _ => "other crawlers may read it",
            };
            push(
                "RT201",
                "ignored-by-google",
                Severity::Info,
                d.line(),
                key_of(d.line()),
                format!("Google ignores `{key}`"),
                Some(what.into()),
            );
        } else {
            let suggestion = KNOWN_KEYS
                .iter()
                .map(|k| (distance(&key, k), k))
                .filter(|(d, _)| *d <= 2)
                .min();
            let help = match suggestion {
                Some((_, k)) => format!("did you mean `{k}`?"),
                None => "no crawler is known to read it".into(),
            };
            push(
                "RT101",
                "unknown-directive",
                Severity::Warning,
                d.line(),
                key_of(d.line()),
                format!("unknown directive `{key}`"),
                Some(help),
            );
        }
    }
    for e in robots.extensions() {
        if let Err(err) = e.value() {
            push(
                "RT111",
                "bad-extension-value",
                Severity::Warning,
                e.line(),
                value_of(e.line()),
                err.to_string(),
                Some("the value is ignored".into()),
            );
        }
    }
    for rule in robots.orphan_rules() {
        push("RT104", "rule-before-user-agent", Severity::Error, rule.line(), whole(rule.line()),
            "this rule comes before any user-agent line and applies to no crawler".into(),
            Some("put a `User-agent:` line above it".into()));
    }
    for s in robots.sitemaps() {
        let url = s.url_lossy();
        let lower = url.to_ascii_lowercase();
        let absolute = (lower.starts_with("http://")
            || lower.starts_with("https://"))
            && url.split("://").nth(1).is_some_and(|rest| {
                !rest.is_empty() && !rest.starts_with('/')
            })
            && !url.contains(' ');
        if !absolute {
            push("RT110", "bad-sitemap", Severity::Error, s.line(), value_of(s.line()),
                format!("`{url}` is not an absolute http(s) URL"),
                Some("write the full URL, such as https://example.com/sitemap.xml".into()));
        } else {
            let blocked_for = ["Googlebot", "*"].into_iter().find(|agent| {
                let names: &[&str] =
                    if *agent == "*" { &[] } else { &[agent] };
                !robots.decide(names, &url).is_allowed()
            });
            if let Some(agent) = blocked_for {
                push("RT209", "sitemap-disallowed", Severity::Warning, s.line(), value_of(s.line()),
                    format!("this sitemap is disallowed for {agent} by this file"),
                    Some("crawlers may not fetch a sitemap the file blocks; allow its path".into()));
            }
        }
    }

    // --- Groups and rules.
    let mut token_groups: BTreeMap<String, Vec<u32>> = BTreeMap::new();
    let global_disallows: Vec<(u32, String)> = robots
        .groups()
        .filter(|g| g.is_global())
        .flat_map(|g| g.rules().collect::<Vec<_>>())
        .filter(|r| {
            r.kind() == RuleKind::Disallow
                && (r.pattern().starts_with('/')
                    || r.pattern().starts_with('*'))
        })
        .map(|r| (r.line(), r.pattern().to_string()))
        .collect();
    for group in robots.groups() {
        let rules: Vec<_> = group.rules().collect();
        for agent in group.agents() {
            let n = agent.line();
            let value = agent.value_lossy();
            let token =
                String::from_utf8_lossy(agent.product_token()).into_owned();
            if agent.value().is_empty() {
                push(
                    "RT105",
                    "bad-user-agent",
                    Severity::Error,
                    n,
                    key_of(n),
                    "empty user-agent: it names no crawler".into(),
                    Some("write a crawler's name, or `*` for all".into()),
                );
            } else if !agent.is_global() && token.is_empty() {
                push("RT105", "bad-user-agent", Severity::Warning, n, value_of(n),
                    format!("`{value}` is not `*` and names no crawler"),
                    Some("write `*` alone for every crawler, or a name made of letters, `-` and `_`".into()));
            } else if !agent.is_global() && token.len() != agent.value().len()
            {
                push("RT105", "bad-user-agent", Severity::Warning, n, value_of(n),
                    format!("`{value}` is matched as `{token}`: only letters, `-` and `_` count"),
                    Some(format!("write `{token}`")));
            }
            if !agent.is_global() && !token.is_empty() {
                token_groups
                    .entry(token.to_ascii_lowercase())
                    .or_default()
                    .push(n);
            }
        }
        if rules.is_empty() {
            let names: Vec<String> =
                group.agents().map(|a| a.value_lossy().into_owned()).collect();
            push("RT202", "empty-group", Severity::Warning, group.line(), whole(group.line()),
                format!("the group for {} has no rules: it may fetch everything", names.join(", ")),
                Some("add `Disallow:` to say so, or the rules it should follow; the * rules do not apply to it".into()));
        }
        let token = group
            .agents()
            .find(|a| !a.is_global())
            .map(|a| String::from_utf8_lossy(a.product_token()).into_owned());
        if let (false, Some(token)) =
            (group.is_global() || global_disallows.is_empty(), token)
        {
            // A `*` disallow is lost for the crawler if it blocks a path
            // that the crawler's own rules allow.
            let own = robots.matcher(&[&token]);
            let dropped: Vec<String> = global_disallows
                .iter()
                .filter(|(_, p)| witness(p).iter().any(|w| own.is_allowed(w)))
                .map(|(l, _)| l.to_string())
                .collect();
            if !dropped.is_empty() {
                let names: Vec<String> = group
                    .agents()
                    .map(|a| a.value_lossy().into_owned())
                    .collect();
                let which = if dropped.len() == 1 { "line" } else { "lines" };
                push("RT204", "global-rules-dropped", Severity::Warning, group.line(), whole(group.line()),
                    format!("the `*` rules do not apply to {}: the disallows on {which} {} do not bind it",
                        names.join(", "), dropped.join(", ")),
                    Some("repeat the * rules that should also apply in this group".into()));
            }
        }
        // Rules by the set of paths they match, and allows by priority, so
        // that comparing rules stays linear on large files.
        let mut by_form: HashMap<&str, Vec<usize>> = HashMap::new();
        let mut allows_by_len: HashMap<usize, Vec<usize>> = HashMap::new();
        for (i, r) in rules.iter().enumerate() {
            by_form.entry(normal_form(r.pattern())).or_default().push(i);
            if r.kind() == RuleKind::Allow {
                allows_by_len.entry(r.pattern().len()).or_default().push(i);
            }
        }
        for (i, r) in rules.iter().enumerate() {
            let n = r.line();
            let written = String::from_utf8_lossy(r.as_written()).into_owned();
            let pattern = r.pattern();
            let lower = written.to_ascii_lowercase();
            if lower.starts_with("http://") || lower.starts_with("https://") {
                push(
                    "RT106",
                    "url-as-path",
                    Severity::Error,
                    n,
                    value_of(n),
                    "a rule is a path, not a URL: this one never matches"
                        .into(),
                    Some("write only the path, such as /private/".into()),
                );
            } else if !pattern.is_empty()
                && !pattern.starts_with('/')
                && !pattern.starts_with('*')
            {
                push("RT107", "bad-path-start", Severity::Error, n, value_of(n),
                    format!("`{written}` starts with neither `/` nor `*`: it never matches"),
                    Some(format!("write `/{written}`")));
            }
            if pattern.len() > 1 && pattern[..pattern.len() - 1].contains('$')
            {
                push("RT108", "dollar-in-middle", Severity::Warning, n, value_of(n),
                    "`$` ends a path only as the last character; here it is a literal `$`".into(),
                    Some("move `$` to the end, or remove it".into()));
            }
            if pattern.contains("**")
                || (pattern.len() > 1 && pattern.ends_with('*'))
            {
                push("RT109", "redundant-wildcard", Severity::Info, n, value_of(n),
                    format!("`{written}` has a redundant `*`: rules match prefixes already"),
                    Some(format!("write `{}`", normal_form(pattern).replace("**", "*"))));
            }
            if r.kind() == RuleKind::Disallow
                && group.is_global()
                && normal_form(pattern) == "/"
            {
                push("RT207", "disallow-all", Severity::Warning, n, value_of(n),
                    "every crawler without a group of its own is blocked from the whole site".into(),
                    Some("if this is not meant, remove the line or narrow the path".into()));
            }
            let asset = [".css", ".js"].iter().any(|e| lower.contains(e))
                || ["/wp-includes/", "/assets/", "/static/", "/js/", "/css/"]
                    .contains(&lower.as_str());
            if r.kind() == RuleKind::Disallow && asset {
                push("RT208", "assets-blocked", Severity::Warning, n, value_of(n),
                    "this blocks CSS or JavaScript that pages need".into(),
                    Some("Google renders pages with their CSS and scripts; allow them".into()));
            }
            // A rule another rule of the group always beats.
            let same_form = by_form
                .get(normal_form(pattern))
                .map_or(&[][..], Vec::as_slice);
            let beaten_by =
                same_form.iter().map(|&j| (j, &rules[j])).find(|(j, q)| {
                    *j != i && {
                        let (qp, rp) = (q.pattern().len(), pattern.len());
                        qp > rp
                            || (qp == rp
                                && q.kind() == RuleKind::Allow
                                && r.kind() == RuleKind::Disallow)
                            || (qp == rp && q.kind() == r.kind() && *j < i)
                    }
                });
            if let Some((_, q)) = beaten_by {
                let what = if q.kind() == r.kind() && q.pattern() == pattern {
                    "duplicates"
                } else {
                    "is always beaten by"
                };
                push(
                    "RT205",
                    "shadowed-rule",
                    Severity::Warning,
                    n,
                    value_of(n),
                    format!(
                        "this rule never decides: it {what} line {}",
                        q.line()
                    ),
                    Some("remove it, or change one of the two".into()),
                );
            } else if r.kind() == RuleKind::Disallow {
                // A hint, so the search is bounded: the first 64 allows of
                // the same priority.
                let same_len = allows_by_len
                    .get(&pattern.len())
                    .map_or(&[][..], Vec::as_slice);
                let tie =
                    same_len.iter().take(64).map(|&j| &rules[j]).find(|q| {
                        q.pattern() != pattern
                            && both(q.pattern(), pattern).iter().any(|w| {
                                r.match_priority(w) == Some(pattern.len())
                                    && q.match_priority(w)
                                        == Some(pattern.len())
                            })
                    });
                if let Some(q) = tie {
                    push("RT206", "equal-priority", Severity::Info, n, value_of(n),
                        format!("this rule and the allow on line {} have equal priority: where both match, the allow wins", q.line()),
                        Some("make the one that should win longer".into()));
                }
            }
        }
    }
    for lines in token_groups.values().filter(|l| l.len() > 1) {
        let first = lines[0];
        let rest: Vec<String> =
            lines[1..].iter().map(u32::to_string).collect();
        let name = raw
            .get(first as usize - 1)
            .and_then(|l| spans(l))
            .map(|s| {
                String::from_utf8_lossy(&l_slice(&raw, first, s.value))
                    .into_owned()
            })
            .unwrap_or_default();
        push(
            "RT203",
            "agent-in-several-groups",
            Severity::Info,
            first,
            value_of(first),
            format!(
                "`{name}` is named again on line {}: its groups are merged",
                rest.join(", ")
            ),
            Some(
                "keep one group per crawler to make the file easier to read"
                    .into(),
            ),
        );
    }
    out.sort_by_key(|d| (d.line, d.span.start, d.code));
    out.dedup_by(|a, b| a.code == b.code && a.line == b.line);
    out
}

fn l_slice<'a>(
    raw: &[&'a [u8]],
    line: u32,
    span: Range<usize>,
) -> std::borrow::Cow<'a, [u8]> {
    let l = raw.get(line as usize - 1).copied().unwrap_or_default();
    std::borrow::Cow::Borrowed(l.get(span).unwrap_or_default())
}

/// A path a pattern matches (its `*` as nothing, the `$` dropped).
fn witness(pattern: &str) -> Vec<String> {
    let base: String = pattern.trim_end_matches('$').replace('*', "");
    vec![base.clone(), format!("{base}x")]
}

/// Paths that two patterns may both match: each one's witnesses, and each
/// witness followed by the other pattern's part after its last `*`.
fn both(a: &str, b: &str) -> Vec<String> {
    let tail = |p: &str| {
        p.rsplit('*').next().unwrap_or("").trim_end_matches('$').to_string()
    };
    let mut out = witness(a);
    out.extend(witness(b));
    for w in witness(a) {
        out.push(format!("{w}{}", tail(b)));
    }
    for w in witness(b) {
        out.push(format!("{w}{}", tail(a)));
    }
    out
}

pub fn run(args: Args) -> anyhow::Result<Outcome> {
    let loaded = input::load(&args.robots)?;
    let body = loaded.body(&args.robots)?;
    let diagnostics = lint(body);
    let mut out = io::stdout().lock();
    match args.format {
        Format::Json => {
            for d in &diagnostics {
                let column = d.span.start + 1;
                let v = json!({
                    "code": d.code,
                    "name": d.name,
                    "severity": d.severity.as_str(),
                    "line": d.line,
                    "column": column,
                    "message": d.message,
                    "help": d.help,
                });
                writeln!(out, "{v}")?;
            }
        }
        Format::Text => {
            write!(out, "{}", render(&args.robots, body, &diagnostics))?
        }
    }
    out.flush()?;
    let errors = diagnostics.iter().any(|d| d.severity == Severity::Error);
    Ok(if errors { Outcome::Disallowed } else { Outcome::Allowed })
}

/// Renders diagnostics with the source lines underlined.
pub fn render(name: &str, body: &[u8], diagnostics: &[Diagnostic]) -> String {
    // The source as text, one line per raw line, so that lines number as
    // the parser numbers them; offsets are mapped through the lossy text.
    let raw: Vec<&[u8]> = robotrules::raw_lines(body).collect();
    let mut text = String::new();
    let mut starts = Vec::with_capacity(raw.len());
    let mut shown: HashMap<u32, usize> = HashMap::new();
    for (i, l) in raw.iter().enumerate() {
        starts.push(text.len());
        let lossy = String::from_utf8_lossy(
            &l[..l.len().min(robotrules::MAX_LINE_LEN)],
        );
        shown.insert(i as u32 + 1, lossy.len());
        text.push_str(&lossy);
        text.push('\n');
    }
    let file = SimpleFile::new(name, text.as_str());
    let config = Config::default();
    let mut s = String::new();
    for d in diagnostics {
        let line = d.line as usize;
        let raw_line = raw.get(line - 1).copied().unwrap_or_default();
        let map = |offset: usize| {
            let offset = offset.min(raw_line.len());
            String::from_utf8_lossy(&raw_line[..offset])
                .len()
                .min(shown.get(&d.line).copied().unwrap_or(0))
        };
        let base = starts.get(line - 1).copied().unwrap_or(0);
        let range = base + map(d.span.start)..base + map(d.span.end);
        let level = match d.severity {
            Severity::Error => Level::Error,
            Severity::Warning => Level::Warning,
            Severity::Info => Level::Note,
        };
        let mut report = Report::new(level)
            .with_code(format!("{}/{}", d.code, d.name))
            .with_message(&d.message)
            .with_labels(vec![Label::primary((), range)]);
        if let Some(help) = &d.help {
            report = report.with_notes(vec![format!("help: {help}")]);
        }
        match term::emit_into_string(&config, &file, &report) {
            Ok(rendered) => s.push_str(&rendered),
            Err(_) => {
                s.push_str(&format!("{}:{}: {}\n", name, d.line, d.message))
            }
        }
    }
    let count = |level, word: &str| {
        let n = diagnostics.iter().filter(|d| d.severity == level).count();
        format!("{n} {word}{}", if n == 1 { "" } else { "s" })
    };
    s.push_str(&format!(
        "{name}: {}, {}, {}\n",
        count(Severity::Error, "error"),
        count(Severity::Warning, "warning"),
        count(Severity::Info, "note")
    ));
    s
}
