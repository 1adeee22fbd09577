//! Checks of groups and their user-agent lines: RT105, RT202–RT204, RT210.

use std::collections::{HashMap, HashSet};

use robotrules::{Group, Rule, RuleKind, Tag};

use super::super::{Ctx, Severity};
use super::list;
use crate::lint::Code;
use crate::text::show;

/// How many bytes of patterns and paths RT204 may read in all. Real
/// files need a small fraction of it; it bounds the work on hostile ones,
/// where comparing every named crawler's rules with every `*` disallow
/// would be quadratic.
pub(crate) const GLOBAL_RULES_BUDGET: usize = 40_000_000;

/// How many lost `*` disallows RT204 finds for a crawler at most.
const MAX_LOST: usize = 1_000;

/// RT105: a user-agent value that is empty or not a product token.
pub(crate) fn bad_user_agent(ctx: &mut Ctx<'_>) {
    let robots = ctx.robots;
    for agent in robots.groups().flat_map(|g| g.agents()) {
        let n = agent.line();
        let token = agent.product_token();
        if agent.value().is_empty() {
            let span = ctx.key(n);
            ctx.report_as(
                Code::BadUserAgent,
                Severity::Error,
                n,
                span,
                || {
                    (
                        "empty user-agent: it names no crawler".into(),
                        Some("write a crawler's name, or `*` for all".into()),
                    )
                },
            );
        } else if !agent.is_global() && token.is_empty() {
            let span = ctx.value(n);
            ctx.report(Code::BadUserAgent, n, span, || {
                // A name in quotation marks, or after white space the
                // parser does not trim (a no-break space): no crawler
                // matches it as written.
                let value = String::from_utf8_lossy(agent.value());
                let quote = |c: char| {
                    "\"'`\u{2018}\u{2019}\u{201c}\u{201d}\u{ab}\u{bb}"
                        .contains(c)
                };
                let name = value
                    .trim_matches(|c: char| c.is_whitespace() || quote(c));
                let meant = name.len() != value.len()
                    && (name == "*" || robotrules::is_valid_agent(name));
                let help = if meant {
                    let what = if value.contains(quote) {
                        "the quotation marks"
                    } else {
                        "the white space that is not a space or a tab (a \
                         no-break space, say)"
                    };
                    format!(
                        "remove {what}: as written, it names no crawler; \
                         write `{}`",
                        show(name.as_bytes())
                    )
                } else {
                    "leave it if it is for a crawler whose own parser reads \
                     it whole; a name for Google's crawlers is made of \
                     letters, `-` and `_`"
                        .into()
                };
                (
                    format!(
                        "`{}` is not `*` and names no crawler for Google's \
                         parser, which reads only a name's leading letters, \
                         `-` and `_`",
                        show(agent.value())
                    ),
                    Some(help),
                )
            });
        } else if !agent.is_global() && token.len() != agent.value().len() {
            let span = ctx.value(n);
            let value = agent.value();
            let rest = &value[token.len()..];
            ctx.report(Code::BadUserAgent, n, span, || {
                let shown = show(value);
                let token = show(token);
                let message = format!(
                    "`{shown}` is matched as `{token}`: only letters, `-` \
                     and `_` count"
                );
                // A name of several words (`Offline Explorer`) goes on
                // after its white space, as `MJ12bot` does after `MJ`;
                // unless its words are crawlers' names (`GPTBot CCBot`).
                let after_space = rest
                    .iter()
                    .find(|b| !matches!(b, b' ' | b'\t'))
                    .is_some_and(u8::is_ascii_alphabetic);
                let list = rest
                    .split(|b| b.is_ascii_whitespace())
                    .map(robotrules::product_token)
                    .any(|w| {
                        crate::Catalogue::builtin_tokens()
                            .iter()
                            .any(|t| t.as_bytes().eq_ignore_ascii_case(w))
                    });
                let known = |w: &[u8]| {
                    crate::Catalogue::builtin_tokens()
                        .iter()
                        .find(|t| t.as_bytes().eq_ignore_ascii_case(w))
                };
                // A whole User-Agent header (`Mozilla/5.0 (compatible;
                // bingbot/2.0)`): the crawler it names, not `Mozilla`.
                let header = value.len() > 8
                    && value[..8].eq_ignore_ascii_case(b"mozilla/");
                let inside = (header
                    && known(agent.product_token()).is_none())
                .then(|| {
                    rest.split(|b| {
                        !(b.is_ascii_alphanumeric() || b"-_".contains(b))
                    })
                    .map(robotrules::product_token)
                    .find_map(known)
                })
                .flatten();
                // A name written with spaces for its `-` (`Google
                // Extended`).
                let dashed = String::from_utf8_lossy(value)
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join("-");
                let dashed = known(dashed.as_bytes());
                let help = match rest.first() {
                    _ if dashed.is_some() => {
                        Some(format!("write `{}`", dashed.unwrap()))
                    }
                    Some(b'/' | b' ' | b'\t' | b'(' | b';')
                        if inside.is_some() =>
                    {
                        Some(format!(
                            "write `{}`, the crawler's name: a whole \
                             User-Agent header names it only as its first \
                             word",
                            inside.unwrap()
                        ))
                    }
                    Some(b' ' | b'\t') if list => Some(
                        "write one `user-agent` line per crawler".to_string(),
                    ),
                    // A version or a comment after the name: the name is
                    // what every parser matches.
                    Some(b' ' | b'\t') if after_space => Some(format!(
                        "Google's parser reads this line as naming \
                         `{token}`; leave it if it is for `{shown}`, whose \
                         own parser may read the whole name"
                    )),
                    Some(b'/' | b' ' | b'\t' | b'(' | b';') => {
                        Some(format!("write `{token}`"))
                    }
                    Some(b',') => Some(
                        "write one `user-agent` line per crawler".to_string(),
                    ),
                    // The name goes on (`MJ12bot`, `archive.org_bot`): it
                    // is the crawler's, which its own parser may match
                    // whole. Cutting it would not help that one.
                    _ => Some(format!(
                        "Google's parser reads this line as naming \
                         `{token}`; leave it if it is for `{shown}`, whose \
                         own parser may read the whole name"
                    )),
                };
                (message, help)
            });
        }
    }
}

/// RT211: a `user-agent` name that is not a known crawler's but one edit
/// (or a `-` or `_`) away from one (`GPT-Bot`, `Googelbot`, `CCBots`):
/// its rules do not bind the crawler it most likely means.
pub(crate) fn misspelled_crawler(ctx: &mut Ctx<'_>) {
    let robots = ctx.robots;
    let tokens = crate::Catalogue::builtin_tokens();
    // Short names are too close to too much.
    let known: Vec<(&str, Vec<u8>)> = tokens
        .iter()
        .map(|t| (t.as_str(), bare(t.as_bytes())))
        .filter(|(_, name)| name.len() >= 5)
        .collect();
    for group in robots.groups() {
        // The group's names, read once if a name needs them.
        let mut names: Option<Vec<&[u8]>> = None;
        for agent in group.agents() {
            let token = agent.product_token();
            if agent.is_global()
                || token.is_empty()
                || tokens
                    .iter()
                    .any(|t| t.as_bytes().eq_ignore_ascii_case(token))
            {
                continue;
            }
            let written = bare(token);
            if written.len() < 5 {
                continue;
            }
            // A changed letter makes another real name too often (`Roverbot`,
            // `NCBot`, `Wotbot`): only in long names; a letter more or less
            // in names of six letters or more, or a final `s` (`CCBots`, not
            // `crcbot`).
            let Some(&(meant, _)) = known.iter().find(|(_, name)| {
                name.len().abs_diff(written.len()) <= 1
                    && match one_edit(&written, name) {
                        Some(Edit::Changed) => name.len() >= 9,
                        Some(Edit::Length) => {
                            name.len().min(written.len()) >= 6
                                || written.strip_suffix(b"s")
                                    == Some(&name[..])
                        }
                        Some(_) => true,
                        None => false,
                    }
            }) else {
                continue;
            };
            // The group names the crawler meant as well: it binds it.
            let names = names.get_or_insert_with(|| {
                group.agents().map(|a| a.product_token()).collect()
            });
            if names.iter().any(|n| n.eq_ignore_ascii_case(meant.as_bytes())) {
                continue;
            }
            let n = agent.line();
            let span = ctx.value(n);
            ctx.report(Code::MisspelledCrawler, n, span, || {
                (
                    format!(
                        "`{}` is not `{meant}`, a known crawler's name: this \
                     group does not bind `{meant}`",
                        show(token)
                    ),
                    Some(format!(
                        "write `{meant}`, or leave it if it names another \
                     crawler"
                    )),
                )
            });
        }
    }
}

/// A name in lower case without its `-` and `_`.
fn bare(name: &[u8]) -> Vec<u8> {
    name.iter()
        .filter(|b| !matches!(b, b'-' | b'_'))
        .map(u8::to_ascii_lowercase)
        .collect()
}

/// How two names one edit apart differ.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Edit {
    /// Not at all.
    Same,
    /// A byte changed.
    Changed,
    /// A byte added or removed.
    Length,
    /// Two neighbours swapped.
    Swapped,
}

/// How `a` and `b` differ if they are equal or one edit apart.
fn one_edit(a: &[u8], b: &[u8]) -> Option<Edit> {
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    if long.len() - short.len() > 1 {
        return None;
    }
    let head = short.iter().zip(long).take_while(|(x, y)| x == y).count();
    if short.len() != long.len() {
        return (short[head..] == long[head + 1..]).then_some(Edit::Length);
    }
    let tail = |from: usize| short[from..] == long[from..];
    if head == short.len() {
        Some(Edit::Same)
    } else if tail(head + 1) {
        Some(Edit::Changed)
    } else if head + 1 < short.len()
        && short[head] == long[head + 1]
        && short[head + 1] == long[head]
        && tail(head + 2)
    {
        Some(Edit::Swapped)
    } else {
        None
    }
}

/// The name a group line gives its crawlers, as groups are merged: `*`,
/// or the product token in lowercase; `None` for a line that names none.
fn merge_key(agent: &robotrules::Agent<'_>) -> Option<Vec<u8>> {
    if agent.is_global() {
        Some(b"*".to_vec())
    } else {
        let token = agent.product_token();
        (!token.is_empty()).then(|| token.to_ascii_lowercase())
    }
}

/// RT202: a group with no rules, for the crawlers it names that no other
/// group gives rules (groups naming the same crawler are merged).
pub(crate) fn empty_group(ctx: &mut Ctx<'_>) {
    let robots = ctx.robots;
    let with_rules: std::collections::HashSet<Vec<u8>> = robots
        .groups()
        .filter(|g| g.rules().next().is_some())
        .flat_map(|g| g.agents())
        .filter_map(|a| merge_key(&a))
        .collect();
    for group in robots.groups() {
        if group.rules().next().is_some() {
            continue;
        }
        let names: Vec<String> = group
            .agents()
            .filter(|a| merge_key(a).is_some_and(|k| !with_rules.contains(&k)))
            .map(|a| show(a.value()))
            .collect();
        if names.is_empty() {
            continue;
        }
        let n = group.line();
        let whole = ctx.whole(n);
        // A rule written on the `user-agent` line (`User-agent: *
        // Disallow: /x`) is part of the name: say so.
        let on_the_line = group.agents().find_map(|a| {
            let value = a.value();
            let lower = value.to_ascii_lowercase();
            let at = lower.windows(6).position(|w| w == b"allow:")?;
            // `disallow:` or `allow:`, from the start of its word.
            let start = if at >= 3 && &lower[at - 3..at] == b"dis" {
                at - 3
            } else {
                at
            };
            Some((a.line(), show(&value[start..])))
        });
        if let Some((line, rule)) = on_the_line {
            let whole = ctx.whole(line);
            ctx.report(Code::EmptyGroup, line, whole, || {
                (
                    format!(
                        "`{rule}` is on the `user-agent` line, where Google \
                         ignores it: the group has no rules"
                    ),
                    Some("put each rule on a line of its own".into()),
                )
            });
            continue;
        }
        // For `*`, no other group's rules are lost: only say what to add.
        let help = if group.is_global() {
            "add `Disallow:` to say so, or the rules crawlers should follow"
        } else {
            "add `Disallow:` to say so, or the rules it should follow; the * \
             rules do not apply to it"
        };
        ctx.report(Code::EmptyGroup, n, whole, || {
            (
                format!(
                    "the group for {} has no rules: it may fetch everything",
                    list(&names, 10)
                ),
                Some(help.into()),
            )
        });
    }
}

/// RT203: a crawler named in several groups.
pub(crate) fn agent_in_several_groups(ctx: &mut Ctx<'_>) {
    let robots = ctx.robots;
    // Each token's lines, and the first line of a group after its first
    // one, if any (two lines of one group name it once: nothing is
    // merged).
    let mut lines_of: HashMap<Vec<u8>, (Vec<u32>, usize, Option<u32>)> =
        HashMap::new();
    for group in robots.groups() {
        for agent in group.agents() {
            let key = if agent.is_global() {
                b"*".to_vec()
            } else {
                agent.product_token().to_ascii_lowercase()
            };
            if key.is_empty() {
                continue;
            }
            let (lines, first_group, again) = lines_of.entry(key).or_insert((
                Vec::new(),
                group.index(),
                None,
            ));
            lines.push(agent.line());
            if again.is_none() && *first_group != group.index() {
                *again = Some(agent.line());
            }
        }
    }
    let mut repeated: Vec<(Vec<u32>, u32)> = lines_of
        .into_values()
        .filter_map(|(lines, _, again)| Some((lines, again?)))
        .collect();
    repeated.sort_unstable();
    for (lines, again) in repeated {
        // On the line of another group that names it again, the others
        // related.
        let first = lines[0];
        let span = ctx.value(again);
        let name = ctx.slice(again, span.clone());
        if let Some(d) =
            ctx.report(Code::AgentInSeveralGroups, again, span, || {
                let later: Vec<String> = lines
                    .iter()
                    .filter(|&&l| l > again)
                    .map(u32::to_string)
                    .collect();
                let also = if later.is_empty() {
                    String::new()
                } else {
                    format!(" (and again on line {})", list(&later, 10))
                };
                (
                    format!(
                        "`{}` was named on line {first} already{also}: its \
                         groups are merged",
                        show(name),
                    ),
                    Some(Code::AgentInSeveralGroups.help().into()),
                )
            })
        {
            d.related =
                lines.iter().copied().filter(|&l| l != again).collect();
        }
    }
}

/// A path a pattern matches (its `*` as nothing, the `$` dropped), and
/// that path with a byte more unless the pattern ends with `$`, as URLs [`Rule::match_priority`] reads
/// as those paths: a pattern that starts with `*` gets the `/` every path
/// starts with, and a path that starts with `//` is put after a host, so
/// that it is not read as one.
pub(crate) fn witness(pattern: &str) -> [String; 2] {
    // Only the last `$` anchors: `/a$$` is `/a$` and the end.
    let anchored = pattern.strip_suffix('$');
    let base: String = anchored.unwrap_or(pattern).replace('*', "");
    let path = if base.starts_with('/') { base } else { format!("/{base}") };
    let path =
        if path.starts_with("//") { format!("http://w{path}") } else { path };
    // A pattern anchored with `$` matches no longer path.
    let more =
        if anchored.is_some() { path.clone() } else { format!("{path}x") };
    [path, more]
}

/// The verdict of `rules` (merged groups) for `path`, as the reference
/// decides: the longest match, `allow` on a tie, an empty disallow
/// allowing.
pub(crate) fn allows(rules: &[Rule<'_>], path: &str) -> bool {
    let (mut allow, mut disallow) = (-1i64, -1i64);
    for r in rules {
        if let Some(p) = r.match_priority(path) {
            let best = match r.kind() {
                RuleKind::Allow => &mut allow,
                RuleKind::Disallow => &mut disallow,
            };
            *best = (*best).max(p as i64);
        }
    }
    !(disallow > allow && disallow > 0)
}

/// What [`allows`] costs on `rules` for a path of `len` bytes, in the
/// units of [`GLOBAL_RULES_BUDGET`]: a byte of pattern or path read.
fn cost_of(rules: &[Rule<'_>], len: usize) -> usize {
    rules.iter().map(|r| r.pattern().len() + len + 1).sum()
}

/// RT204: a named group that does not repeat the `*` disallows, so that
/// its crawler escapes them.
///
/// A `*` disallow is lost for a crawler if a path it blocks, and the `*`
/// groups still block, is allowed by the crawler's own (merged) groups.
/// Each set of groups that names crawlers is compared once, with the `*`
/// disallows in file order, within [`GLOBAL_RULES_BUDGET`] bytes compared
/// in all.
///
/// Escaping them on purpose is no finding: a `*` disallow of the whole
/// site (`Disallow: /`, the layout that lets in only the crawlers named)
/// is meant for the others, and a crawler whose groups say only that it
/// may fetch everything (`Disallow:` or `Allow: /`, as RT202's help
/// advises) says so.
pub(crate) fn global_rules_dropped(ctx: &mut Ctx<'_>) {
    let robots = ctx.robots;
    // Each `*` disallow: its group, line and witnesses.
    let global: Vec<(usize, u32, [String; 2])> = robots
        .groups()
        .filter(|g| g.is_global())
        .flat_map(|g| g.rules().map(move |r| (g.index(), r)))
        .filter(|(_, r)| {
            r.kind() == RuleKind::Disallow
                && (r.pattern().starts_with('/')
                    || r.pattern().starts_with('*'))
                && !super::rules::matches_everything(r.pattern())
        })
        .map(|(g, r)| (g, r.line(), witness(r.pattern())))
        .collect();
    if global.is_empty() {
        return;
    }
    // Every rule of the `*` groups, merged: a witness they do not block
    // (`Allow: /p/$` beside `Disallow: /p/`) is lost to no one.
    let stars: Vec<usize> =
        robots.groups().filter(|g| g.is_global()).map(|g| g.index()).collect();
    let by_stars = robots.matcher_for_groups(&stars, false);
    // The groups that name each token (a crawler obeys all of them,
    // merged); a group that names `*` too is one of them.
    let groups: Vec<Group<'_>> = robots.groups().collect();
    let mut groups_of: HashMap<Vec<u8>, Vec<usize>> = HashMap::new();
    let mut named = Vec::new();
    for (i, group) in groups.iter().enumerate() {
        let mut tokens: Vec<Vec<u8>> = Vec::new();
        // A line whose name the reference reads as empty names no one:
        // the `*` groups still bind such a crawler.
        for a in group
            .agents()
            .filter(|a| !a.is_global() && !a.product_token().is_empty())
        {
            let token = a.product_token().to_ascii_lowercase();
            let list = groups_of.entry(token.clone()).or_default();
            // A group that names a token twice counts once.
            if list.last() != Some(&i) {
                list.push(i);
                tokens.push(token);
            }
        }
        if !tokens.is_empty() {
            named.push((*group, tokens));
        }
    }
    // Tokens named by the same groups obey the same rules: one set of
    // groups each, found once.
    let mut sets: HashMap<&[usize], usize> = HashMap::new();
    let set_of: HashMap<&[u8], usize> = groups_of
        .iter()
        .map(|(token, of)| {
            let next = sets.len();
            (&token[..], *sets.entry(&of[..]).or_insert(next))
        })
        .collect();
    let mut budget = GLOBAL_RULES_BUDGET;
    // Whether the `*` groups block each witness, found once.
    let mut blocked: Vec<Option<[bool; 2]>> = vec![None; global.len()];
    // The `*` disallows lost to the crawlers of each set of groups, and
    // whether the search for them stopped early (at the cap or the
    // budget's end).
    let mut dropped_for: HashMap<usize, (Vec<u32>, bool)> = HashMap::new();
    for (group, tokens) in named {
        // Each crawler the group names obeys its own merged groups: the
        // `*` disallows that any of them escapes.
        let mut dropped: Vec<u32> = Vec::new();
        let mut escaping: HashSet<Vec<u8>> = HashSet::new();
        let mut capped = false;
        for token in tokens {
            let of = groups_of.get(&token).map_or(&[][..], Vec::as_slice);
            let set = set_of.get(&token[..]).copied().unwrap_or(usize::MAX);
            let lost = dropped_for.entry(set).or_insert_with(|| {
                // Gathering the rules costs their bytes, and so does
                // building a matcher of them.
                let own: Vec<Rule<'_>> =
                    of.iter().flat_map(|&i| groups[i].rules()).collect();
                let build = 2 * cost_of(&own, 0);
                if build > budget {
                    budget = 0;
                    return (Vec::new(), true);
                }
                budget -= build;
                let opens_everything = |r: &Rule<'_>| match r.kind() {
                    RuleKind::Disallow => r.pattern().is_empty(),
                    RuleKind::Allow => {
                        super::rules::matches_everything(r.pattern())
                    }
                };
                if !own.is_empty() && own.iter().all(opens_everything) {
                    return (Vec::new(), false);
                }
                let own = robots.matcher_for_groups(of, true);
                let mut lost = Vec::new();
                // Whether the search stopped before the last disallow.
                let mut partial = false;
                for (at, (group, line, witnesses)) in global.iter().enumerate()
                {
                    // Enough to show, and each group that names these
                    // crawlers copies them.
                    if lost.len() == MAX_LOST {
                        partial = true;
                        break;
                    }
                    // A disallow of a group that names the crawler (with
                    // `*`) binds it: an allow of its own beats it there.
                    if of.binary_search(group).is_ok() {
                        continue;
                    }
                    // A check through a matcher's index: about its path's
                    // bytes, and a few rules'.
                    let cost: usize =
                        witnesses.iter().map(|w| 2 * (w.len() + 64)).sum();
                    if cost > budget {
                        budget = 0;
                        partial = true;
                        break;
                    }
                    budget -= cost;
                    let by_global = *blocked[at].get_or_insert_with(|| {
                        witnesses.clone().map(|w| !by_stars.is_allowed(&w))
                    });
                    if witnesses
                        .iter()
                        .zip(by_global)
                        .any(|(w, blocked)| blocked && own.is_allowed(w))
                    {
                        lost.push(*line);
                    }
                }
                (lost, partial)
            });
            let (lost, partial) = (&lost.0, lost.1);
            // The search stopped early: more may be lost.
            capped |= partial;
            if !lost.is_empty() {
                dropped.extend_from_slice(lost);
                escaping.insert(token);
            }
        }
        dropped.sort_unstable();
        dropped.dedup();
        // Every `*` disallow is listed: there can be no more.
        capped &= dropped.len() < global.len();
        if dropped.is_empty() {
            continue;
        }
        let n = group.line();
        let whole = ctx.whole(n);
        if let Some(d) = ctx.report(Code::GlobalRulesDropped, n, whole, || {
            // The names of the crawlers that escape them, as the reference
            // reads them (`Googlebot` of `Googlebot, Bingbot`).
            let mut names: Vec<String> = Vec::new();
            let mut seen = HashSet::new();
            for a in group.agents().filter(|a| {
                !a.is_global()
                    && escaping
                        .contains(&a.product_token().to_ascii_lowercase())
            }) {
                let name = show(a.product_token());
                if seen.insert(name.clone()) {
                    names.push(name);
                }
            }
            let lines: Vec<String> =
                dropped.iter().map(u32::to_string).collect();
            let which = if lines.len() == 1 { "line" } else { "lines" };
            let them = if names.len() == 1 { "it" } else { "them" };
            (
                format!(
                    "the `*` rules do not apply to {}: the disallows on \
                     {which} {} do not bind {them}",
                    list(&names, 10),
                    // A search that stopped early gives a floor.
                    match (capped, lines.len() > 10) {
                        (true, true) => format!(
                            "{} and at least {} more",
                            lines[..10].join(", "),
                            lines.len() - 10
                        ),
                        (true, false) => {
                            format!("{} (and maybe more)", lines.join(", "))
                        }
                        (false, _) => list(&lines, 10),
                    }
                ),
                Some(Code::GlobalRulesDropped.help().into()),
            )
        }) {
            d.related = dropped;
        }
    }
}

/// RT210: `user-agent` lines that a blank line or another directive
/// separates but that make one group. A group ends only at a
/// `user-agent` line after a rule (`crawl-delay`, `sitemap` and the like
/// are no rules), so the crawlers named before the break get the rules
/// after it: `User-agent: Bingbot`, `Crawl-delay: 5`, a blank line, then
/// `User-agent: GPTBot` and `Disallow: /` blocks Bingbot too.
pub(crate) fn merged_groups(ctx: &mut Ctx<'_>) {
    let robots = ctx.robots;
    // One pass over the lines: the `user-agent` lines that come after a
    // break in a run of them (no rule since the run began). A group is
    // reported at its last break: every crawler named before it gets the
    // rules after.
    let mut after_break: Vec<u32> = Vec::new();
    let mut in_run = false;
    let mut broken = false;
    for line in robots.lines() {
        match line.tag() {
            Some(Tag::UserAgent) => {
                if in_run && broken {
                    after_break.push(line.number());
                }
                in_run = true;
                broken = false;
            }
            Some(Tag::Allow | Tag::Disallow) => in_run = false,
            Some(_) => broken |= in_run,
            None => broken |= in_run && line.is_empty(),
        }
    }
    if after_break.is_empty() {
        return;
    }
    for group in robots.groups() {
        let agents: Vec<robotrules::Agent<'_>> = group.agents().collect();
        let Some(at) = agents
            .iter()
            .rposition(|a| after_break.binary_search(&a.line()).is_ok())
        else {
            continue;
        };
        let Some(rule) = group.rules().next() else { continue };
        let n = agents[at].line();
        let whole = ctx.whole(n);
        let before: Vec<String> =
            agents[..at].iter().map(|a| show(a.value())).collect();
        let first = agents[0].line();
        if let Some(d) = ctx.report(Code::MergedGroups, n, whole, || {
            let them = if before.len() == 1 { "it gets" } else { "they get" };
            (
                format!(
                    "this `user-agent` line continues the group of line \
                     {first} ({}): a group ends only at a `user-agent` line \
                     after a rule, so {them} this group's rules (from line \
                     {}: `{}: {}`)",
                    list(&before, 10),
                    rule.line(),
                    if rule.kind() == RuleKind::Allow {
                        "Allow"
                    } else {
                        "Disallow"
                    },
                    show(rule.as_written()),
                ),
                Some(Code::MergedGroups.help().into()),
            )
        }) {
            d.related = agents[..at].iter().map(|a| a.line()).collect();
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::lint::lints;

    #[test]
    fn rt105_bad_user_agent() {
        lints!(b"User-agent: Googlebot/2.1\nDisallow: /x\n", "RT105" @ 1);
        lints!(b"User-agent:\nDisallow: /x\n", "RT105" @ 1);
        lints!(b"User-agent: /x\nDisallow: /x\n", "RT105" @ 1);
        lints!(b"User-agent: Googlebot\nDisallow: /x\n", "RT105" @ none);
        let help = |body: &str| {
            crate::lint(body.as_bytes())
                .into_iter()
                .find(|d| d.code == crate::Code::BadUserAgent)
                .and_then(|d| d.help)
                .unwrap_or_default()
        };
        // Quotation marks, or a no-break space: no crawler matches.
        let h = help("User-agent:\u{a0}*\nDisallow: /private/\n");
        assert!(
            h.starts_with("remove the white space")
                && h.ends_with("write `*`"),
            "{h}"
        );
        let h = help("User-agent: \u{201c}GPTBot\u{201d}\nDisallow: /\n");
        assert!(
            h.starts_with("remove the quotation marks")
                && h.ends_with("write `GPTBot`"),
            "{h}"
        );
        // A whole User-Agent header: the crawler it names.
        let h = help(
            "User-agent: Mozilla/5.0 (compatible; bingbot/2.0)\nDisallow: /\n",
        );
        assert!(h.starts_with("write `Bingbot`, the crawler's name"), "{h}");
        assert_eq!(
            help("User-agent: Googlebot/2.1\nDisallow: /\n"),
            "write `Googlebot`"
        );
        // Not a header: the name as written.
        assert!(!help(
            "User-agent: TelegramBot (like TwitterBot)\nDisallow: /\n"
        )
        .contains("the crawler's name"));
        // Spaces for its `-`.
        assert_eq!(
            help("User-agent: Google Extended\nDisallow: /\n"),
            "write `Google-Extended`"
        );
    }

    #[test]
    fn rt211_misspelled_crawler() {
        for name in [
            "GPT-Bot",
            "Claude-Bot",
            "Googelbot",
            "CCBots",
            "ia-archiver",
            "Googlebot-Images",
            "Bingbott",
        ] {
            let body = format!("User-agent: *\nDisallow: /a/\n\nUser-agent: {name}\nDisallow: /\n");
            lints!(body.as_bytes(), "RT211" @ 4);
        }
        // Known names in any case, names far from any, short ones, and
        // another crawler's name that is two edits away.
        for name in [
            "gptbot",
            "GPTBot/1.0",
            "Chat-GPT",
            "MJ12bot",
            "Yetis",
            "SemrushBot-SA",
            "Googlebot-Video",
            "msnbot",
            "Roverbot",
            "NCBot",
            "Wotbot",
            "crcbot",
        ] {
            let body = format!("User-agent: {name}\nDisallow: /\n");
            lints!(body.as_bytes(), "RT211" @ none);
        }
        // A group that names the crawler meant as well binds it.
        lints!(b"User-agent: GPT-Bot\nUser-agent: GPTBot\nDisallow: /\n", "RT211" @ none);
        let d = crate::lint(b"User-agent: GPT-Bot\nDisallow: /\n");
        let d = d
            .iter()
            .find(|d| d.code == crate::Code::MisspelledCrawler)
            .unwrap();
        assert_eq!(d.message, "`GPT-Bot` is not `GPTBot`, a known crawler's name: this group does not bind `GPTBot`");
        assert_eq!(
            d.help.as_deref(),
            Some("write `GPTBot`, or leave it if it names another crawler")
        );
    }

    #[test]
    fn one_edit_apart() {
        use super::{one_edit, Edit};
        for (a, b, want) in [
            ("abc", "abc", Some(Edit::Same)),
            ("abc", "abd", Some(Edit::Changed)),
            ("abc", "acb", Some(Edit::Swapped)),
            ("abc", "ab", Some(Edit::Length)),
            ("abc", "xabc", Some(Edit::Length)),
            ("abc", "cba", None),
            ("abc", "a", None),
            ("abcd", "badc", None),
            ("", "a", Some(Edit::Length)),
        ] {
            assert_eq!(one_edit(a.as_bytes(), b.as_bytes()), want, "{a} {b}");
            assert_eq!(one_edit(b.as_bytes(), a.as_bytes()), want, "{b} {a}");
        }
    }

    #[test]
    fn rt202_empty_group() {
        lints!(b"User-agent: *\nDisallow: /x\nUser-agent: a\n", "RT202" @ 3);
        lints!(b"User-agent: *\nDisallow: /x\nUser-agent: a\nDisallow:\n", "RT202" @ none);
        // Groups naming the same crawler are merged.
        lints!(b"User-agent: a\nDisallow: /x\n\nUser-agent: A\n", "RT202" @ none);
        lints!(b"User-agent: a\nDisallow: /x\n\nUser-agent: a\nUser-agent: b\n", "RT202" @ 4);
        let d = crate::lint(
            b"User-agent: a\nDisallow: /x\n\nUser-agent: a\nUser-agent: b\n",
        );
        let d = d.iter().find(|d| d.code == crate::Code::EmptyGroup).unwrap();
        assert!(d.message.starts_with("the group for b has"), "{}", d.message);
        assert!(d.help.as_deref().unwrap().ends_with("do not apply to it"));
        // For `*` itself, no other rules are lost.
        let d =
            crate::lint(b"User-agent: *\nSitemap: https://e.example/s.xml\n");
        let d = d.iter().find(|d| d.code == crate::Code::EmptyGroup).unwrap();
        assert!(
            !d.help.as_deref().unwrap().contains("do not apply"),
            "{:?}",
            d.help
        );
    }

    #[test]
    fn rt203_agent_in_several_groups() {
        lints!(b"User-agent: a\nDisallow: /x\nUser-agent: b\nDisallow: /y\nUser-agent: A\nDisallow: /z\n", "RT203" @ 5);
        // A rule on the `user-agent` line.
        lints!(b"User-agent: * Disallow: /private/\n", "RT202" @ 1);
        let d = crate::lint(
            b"User-agent: *\n\nUser-agent: Googlebot Disallow: /b/\n",
        );
        let d = d.iter().find(|d| d.code == crate::Code::EmptyGroup).unwrap();
        assert_eq!(d.line, 3);
        assert!(
            d.message
                .starts_with("`Disallow: /b/` is on the `user-agent` line"),
            "{}",
            d.message
        );
        assert_eq!(
            d.help.as_deref(),
            Some("put each rule on a line of its own")
        );
        // `*` too.
        lints!(b"User-agent: *\nDisallow: /a/\n\nUser-agent: *\nDisallow: /b/\n", "RT203" @ 4);
        lints!(b"User-agent: a\nUser-agent: b\nDisallow: /x\n", "RT203" @ none);
        // Named twice in one group: one group, nothing merged.
        lints!(b"User-agent: Wget/1.6\nUser-agent: Wget/1.5\nDisallow: /\n", "RT203" @ none);
        lints!(b"User-agent: a\nUser-agent: A\nDisallow: /x\nUser-agent: a\nDisallow: /y\n", "RT203" @ 4);
    }

    #[test]
    fn rt204_global_rules_dropped() {
        lints!(b"User-agent: *\nDisallow: /private\nUser-agent: a\nDisallow: /tmp\n", "RT204" @ 3);
        lints!(b"User-agent: *\nDisallow: /private\nUser-agent: a\nDisallow: /tmp\nDisallow: /private\n", "RT204" @ none);
        // Merged groups: the second group for `a` repeats the rule, and
        // a group that names `b` too counts for `b`.
        lints!(b"User-agent: *\nDisallow: /p\nUser-agent: a\nDisallow: /t\nUser-agent: a\nDisallow: /p\n", "RT204" @ none);
        lints!(b"User-agent: *\nDisallow: /\nUser-agent: a\nDisallow: /\n", "RT204" @ none);
        // Escaped on purpose: a `*` group that blocks the whole site lets
        // in the crawlers named; a group that says its crawler may fetch
        // everything says so.
        lints!(b"User-agent: *\nDisallow: /\nUser-agent: a\nAllow: /\n", "RT204" @ none);
        lints!(b"User-agent: *\nDisallow: /\nUser-agent: a\nDisallow: /tmp\n", "RT204" @ none);
        lints!(b"User-agent: *\nDisallow: /*\nDisallow: /p\nUser-agent: a\nDisallow: /t\n", "RT204" @ 4);
        lints!(b"User-agent: *\nDisallow: /p\nUser-agent: a\nDisallow:\n", "RT204" @ none);
        lints!(b"User-agent: *\nDisallow: /p\nUser-agent: a\nAllow: /\nDisallow:\n", "RT204" @ none);
        lints!(b"User-agent: *\nDisallow: /p\nUser-agent: a\nAllow: /\nDisallow: /t\n", "RT204" @ 3);
        // A group with no rules at all is said to escape them.
        lints!(b"User-agent: *\nDisallow: /p\nUser-agent: a\n", "RT204" @ 3);
        lints!(b"User-agent: *\nDisallow: /p\nUser-agent: b\nDisallow: /t\nUser-agent: a\nUser-agent: b\nDisallow: /p\n", "RT204" @ none);
        lints!(b"User-agent: *\nDisallow: /p\nUser-agent: b\nUser-agent: a\nDisallow: /t\nUser-agent: a\nDisallow: /p\n", "RT204" @ 3);
        // Patterns that start with `*` or `//` are paths too.
        lints!(b"User-agent: *\nDisallow: *.pdf$\nUser-agent: a\nDisallow: *.pdf$\n", "RT204" @ none);
        lints!(b"User-agent: *\nDisallow: *.pdf$\nUser-agent: a\nDisallow: /t\n", "RT204" @ 3);
        lints!(b"User-agent: *\nDisallow: //x\nUser-agent: a\nDisallow: //x\n", "RT204" @ none);
        lints!(b"User-agent: *\nDisallow: //x\nUser-agent: a\nDisallow: /\n", "RT204" @ none);
        lints!(b"User-agent: *\nDisallow: //x\nUser-agent: a\nDisallow: /t\n", "RT204" @ 3);
        // Every name of a group counts, not only its first: here `b`
        // escapes `/x`, and only `b` is named.
        let body =
            b"User-agent: *\nDisallow: /x\nUser-agent: a\nUser-agent: b\n\
            Disallow: /t\nUser-agent: a\nDisallow: /x\n";
        lints!(body, "RT204" @ 3);
        let d = crate::lint(body);
        let d = d.iter().find(|d| d.code == crate::Code::GlobalRulesDropped);
        let message = &d.unwrap().message;
        assert!(message.contains("do not apply to b: "), "{message}");
    }
}
