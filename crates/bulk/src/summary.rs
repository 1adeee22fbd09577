//! Summaries: per crawl and crawler, how many sites block it fully or
//! partially, by name or through `*`; the change between two crawls; a
//! chart.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use std::sync::Arc;

use crate::eval::Verdict;
use crate::row::Row;

/// One crawler's counts in one crawl.
#[derive(Clone, Debug, Default, Deserialize, Eq, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Counts {
    /// The crawler's token.
    pub token: String,
    /// Sites whose robots.txt disallows it everywhere in a group naming it.
    pub full_named: u64,
    /// … in the `*` groups.
    pub full_global: u64,
    /// Sites whose robots.txt disallows part of the site, by name.
    pub partial_named: u64,
    /// … through `*`.
    pub partial_global: u64,
    /// Sites that allow it everywhere (with a robots.txt or without).
    pub allowed: u64,
    /// Sites whose robots.txt was unreachable (429, 5xx, a broken
    /// redirect, a body that does not decode): everything is disallowed
    /// by the access method, not by rules.
    pub unreachable: u64,
    /// Sites with no verdict (redirect out of the data, no status, too
    /// costly a file).
    pub unknown: u64,
}

impl Counts {
    /// Fully blocked, by name or through `*`.
    pub fn full(&self) -> u64 {
        self.full_named + self.full_global
    }

    /// Partially blocked, by name or through `*`.
    pub fn partial(&self) -> u64 {
        self.partial_named + self.partial_global
    }
}

/// One crawl's summary.
#[derive(Clone, Debug, Default, Deserialize, Eq, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Crawl {
    /// The crawl's name.
    pub crawl: String,
    /// Sites (rows).
    pub sites: u64,
    /// Sites with a robots.txt read (class `success`).
    pub with_robots: u64,
    /// Per crawler, in catalogue order.
    pub crawlers: Vec<Counts>,
}

/// The summaries of every crawl in a table, in crawl order.
#[derive(Clone, Debug, Default, Deserialize, Eq, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Summary {
    /// One per crawl.
    pub crawls: Vec<Crawl>,
}

/// Counts rows into a [`Summary`].
#[derive(Clone, Debug, Default)]
pub struct Tally {
    tokens: Vec<String>,
    crawls: BTreeMap<String, Crawl>,
    /// The lists of verdicts counted, by address (each held, so that the
    /// address stays its own), with the count each verdict adds to: rows
    /// that mean the same share one list, read once for all of them.
    bins: crate::site::Map<usize, (Arc<[Verdict]>, Vec<Bin>)>,
}

/// The lists a [`Tally`] remembers at most; past them it starts again.
const TALLY_LISTS: usize = 4096;

/// Which count of [`Counts`] a verdict adds to.
#[derive(Clone, Copy, Debug)]
enum Bin {
    Unreachable,
    FullNamed,
    FullGlobal,
    PartialNamed,
    PartialGlobal,
    Allowed,
    Unknown,
}

impl Bin {
    fn of(v: &Verdict) -> Bin {
        let named = v.via == Some("named");
        match (v.access, v.via) {
            ("disallowed", None) => Bin::Unreachable,
            ("disallowed", _) if named => Bin::FullNamed,
            ("disallowed", _) => Bin::FullGlobal,
            ("partial", _) if named => Bin::PartialNamed,
            ("partial", _) => Bin::PartialGlobal,
            ("allowed", _) => Bin::Allowed,
            _ => Bin::Unknown,
        }
    }

    fn count(self, c: &mut Counts) {
        *match self {
            Bin::Unreachable => &mut c.unreachable,
            Bin::FullNamed => &mut c.full_named,
            Bin::FullGlobal => &mut c.full_global,
            Bin::PartialNamed => &mut c.partial_named,
            Bin::PartialGlobal => &mut c.partial_global,
            Bin::Allowed => &mut c.allowed,
            Bin::Unknown => &mut c.unknown,
        } += 1;
    }
}

impl Tally {
    /// A tally for the crawlers `tokens` (in the schema's order).
    pub fn new(tokens: &[String]) -> Tally {
        Tally {
            tokens: tokens.to_vec(),
            crawls: BTreeMap::new(),
            bins: Default::default(),
        }
    }

    /// Counts one row.
    pub fn add(&mut self, row: &Row) {
        let tokens = &self.tokens;
        // The crawl's name is copied once, not once a row.
        if !self.crawls.contains_key(&row.crawl) {
            self.crawls.insert(
                row.crawl.clone(),
                Crawl {
                    crawl: row.crawl.clone(),
                    crawlers: tokens
                        .iter()
                        .map(|t| Counts {
                            token: t.clone(),
                            ..Counts::default()
                        })
                        .collect(),
                    ..Crawl::default()
                },
            );
        }
        let Some(crawl) = self.crawls.get_mut(&row.crawl) else {
            unreachable!("inserted above")
        };
        crawl.sites += 1;
        crawl.with_robots += u64::from(row.eval.class == "success");
        let list = &row.eval.verdicts;
        let at = Arc::as_ptr(list).cast::<Verdict>() as usize;
        if self.bins.len() >= TALLY_LISTS && !self.bins.contains_key(&at) {
            self.bins.clear();
        }
        let (_, bins) = self.bins.entry(at).or_insert_with(|| {
            (Arc::clone(list), list.iter().map(Bin::of).collect())
        });
        for (c, bin) in crawl.crawlers.iter_mut().zip(bins.iter()) {
            bin.count(c);
        }
    }

    /// The summary.
    pub fn finish(self) -> Summary {
        Summary { crawls: self.crawls.into_values().collect() }
    }
}

fn pct(n: u64, of: u64) -> f64 {
    if of == 0 {
        0.0
    } else {
        100.0 * n as f64 / of as f64
    }
}

impl Summary {
    /// The summary as a text table, one per crawl: per crawler the share
    /// of sites that disallow it everywhere and in part, and how much of
    /// each by name.
    pub fn table(&self) -> String {
        let mut t = String::new();
        for c in &self.crawls {
            let name =
                if c.crawl.is_empty() { "(no crawl)" } else { &c.crawl };
            let _ = writeln!(
                t,
                "{name}: {} sites, {} with a robots.txt",
                c.sites, c.with_robots
            );
            let _ = writeln!(
                t,
                "{:<28} {:>9} {:>9} {:>9} {:>9} {:>11}",
                "crawler",
                "blocked",
                "by name",
                "partly",
                "by name",
                "unreachable"
            );
            for k in &c.crawlers {
                let _ = writeln!(
                    t,
                    "{:<28} {:>8.2}% {:>8.2}% {:>8.2}% {:>8.2}% {:>10.2}%",
                    k.token,
                    pct(k.full(), c.sites),
                    pct(k.full_named, c.sites),
                    pct(k.partial(), c.sites),
                    pct(k.partial_named, c.sites),
                    pct(k.unreachable, c.sites),
                );
            }
            t.push('\n');
        }
        t
    }

    /// The summary of the crawl `name`.
    pub fn crawl(&self, name: &str) -> Option<&Crawl> {
        self.crawls.iter().find(|c| c.crawl == name)
    }

    /// A horizontal bar chart (SVG) of every crawl: per crawler, one bar
    /// per crawl, stacked: disallowed everywhere by name, through `*`,
    /// then in part by name, through `*`, in percent of sites.
    pub fn svg(&self) -> String {
        chart(&self.crawls.iter().collect::<Vec<_>>())
    }
}

/// The change from `old` to `new` per crawler (those in both), in
/// percentage points of sites, as a text table.
///
/// ```
/// use robotrules_bulk::summary::{compare, Crawl};
///
/// let text = compare(&Crawl::default(), &Crawl::default());
/// assert!(text.starts_with("crawler"));
/// ```
pub fn compare(old: &Crawl, new: &Crawl) -> String {
    let mut t = String::new();
    let _ = writeln!(
        t,
        "crawler                      blocked {:>8} {:>8}   change   partly {:>8} {:>8}   change",
        old.crawl, new.crawl, old.crawl, new.crawl
    );
    let (gone, added) = (only_in(old, new), only_in(new, old));
    for o in &old.crawlers {
        let Some(n) = new.crawlers.iter().find(|n| n.token == o.token) else {
            continue;
        };
        let (fo, fn_) = (pct(o.full(), old.sites), pct(n.full(), new.sites));
        let (po, pn) =
            (pct(o.partial(), old.sites), pct(n.partial(), new.sites));
        let _ = writeln!(
            t,
            "{:<28} {:>15.2}% {:>7.2}% {:>+7.2}pp {:>14.2}% {:>7.2}% {:>+7.2}pp",
            o.token,
            fo,
            fn_,
            fn_ - fo,
            po,
            pn,
            pn - po
        );
    }
    for (tokens, crawl) in [(gone, &new.crawl), (added, &old.crawl)] {
        if !tokens.is_empty() {
            let _ =
                writeln!(t, "not judged in {crawl}: {}", tokens.join(", "));
        }
    }
    t
}

/// The crawlers judged in `a` and not in `b`.
fn only_in<'a>(a: &'a Crawl, b: &Crawl) -> Vec<&'a str> {
    a.crawlers
        .iter()
        .filter(|x| !b.crawlers.iter().any(|y| y.token == x.token))
        .map(|x| x.token.as_str())
        .collect()
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// The chart of [`Summary::svg`] for `crawls`.
pub fn chart(crawls: &[&Crawl]) -> String {
    const LEFT: f64 = 190.0;
    const WIDTH: f64 = 520.0;
    const BAR: f64 = 12.0;
    let colours = ["#8b1a1a", "#e06666", "#b45f06", "#f6b26b"];
    let tokens: Vec<&str> = crawls
        .first()
        .map(|c| c.crawlers.iter().map(|k| k.token.as_str()).collect())
        .unwrap_or_default();
    let per = BAR * crawls.len() as f64 + 6.0;
    let height = 60.0 + per * tokens.len() as f64 + 40.0;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{height}\" \
         font-family=\"sans-serif\" font-size=\"11\">",
        LEFT + WIDTH + 60.0
    );
    let _ =
        writeln!(s, "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>");
    let names: Vec<String> = crawls.iter().map(|c| esc(&c.crawl)).collect();
    let _ = writeln!(
        s,
        "<text x=\"10\" y=\"20\" font-size=\"14\">Share of sites blocking each crawler ({})</text>",
        names.join(", ")
    );
    let legend = [
        "disallowed everywhere, by name",
        "disallowed everywhere, via *",
        "partly disallowed, by name",
        "partly disallowed, via *",
    ];
    for (i, (l, c)) in legend.iter().zip(colours).enumerate() {
        let x = 10.0 + 180.0 * i as f64;
        let _ = writeln!(
            s,
            "<rect x=\"{x}\" y=\"30\" width=\"10\" height=\"10\" fill=\"{c}\"/>\
             <text x=\"{}\" y=\"39\">{l}</text>",
            x + 14.0
        );
    }
    for (i, token) in tokens.iter().enumerate() {
        let y0 = 55.0 + per * i as f64;
        let _ = writeln!(
            s,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>",
            LEFT - 6.0,
            y0 + per / 2.0,
            esc(token)
        );
        for (j, c) in crawls.iter().enumerate() {
            let Some(k) = c.crawlers.iter().find(|k| k.token == *token) else {
                continue;
            };
            let y = y0 + BAR * j as f64;
            let mut x = LEFT;
            let parts = [
                k.full_named,
                k.full_global,
                k.partial_named,
                k.partial_global,
            ];
            for (n, colour) in parts.iter().zip(colours) {
                let w = WIDTH * pct(*n, c.sites) / 100.0;
                if w > 0.0 {
                    let _ = writeln!(
                        s,
                        "<rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"{w:.1}\" height=\"{}\" fill=\"{colour}\"/>",
                        BAR - 2.0
                    );
                }
                x += w;
            }
            let label = if crawls.len() > 1 {
                format!(" {}", esc(&c.crawl))
            } else {
                String::new()
            };
            let _ = writeln!(
                s,
                "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"9\">{:.1}%{label}</text>",
                x + 3.0,
                y + BAR - 3.0,
                pct(k.full() + k.partial(), c.sites)
            );
        }
    }
    let axis = 55.0 + per * tokens.len() as f64 + 4.0;
    for p in [0, 25, 50, 75, 100] {
        let x = LEFT + WIDTH * f64::from(p) / 100.0;
        let _ = writeln!(
            s,
            "<line x1=\"{x}\" y1=\"50\" x2=\"{x}\" y2=\"{axis}\" stroke=\"#ccc\"/>\
             <text x=\"{x}\" y=\"{}\" text-anchor=\"middle\">{p}%</text>",
            axis + 12.0
        );
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use robotrules_analysis::Catalogue;

    use super::*;
    use crate::eval::{evaluate, evaluate_body, Memo};
    use crate::{Capture, Options, Schema};

    fn row(eval: crate::Evaluation) -> Row {
        Row {
            crawl: "CC-MAIN-2024-10".into(),
            site: String::new(),
            url: String::new(),
            captures: 1,
            hops: 0,
            redirect_stop: None,
            final_url: String::new(),
            date: String::new(),
            file: String::new(),
            offset: 0,
            eval,
        }
    }

    #[test]
    fn rows_that_share_a_list_count_as_rows_apart() {
        let options = Options::new(Catalogue::builtin());
        let tokens = Schema::new(&options.catalogue).tokens().to_vec();
        let captures: Vec<Capture> = [
            (200, &b"User-agent: *\nDisallow: /a\n"[..]),
            (200, b"User-agent: *\nDisallow: /b\n"),
            (200, b"User-agent: GPTBot\nDisallow: /\n"),
            (404, b""),
            (503, b""),
            (200, b"User-agent: *\nDisallow: /\n"),
        ]
        .iter()
        .map(|&(status, body)| Capture {
            status: Some(status),
            body: body.to_vec(),
            ..Capture::default()
        })
        .collect();
        // Through one memo (lists shared) and each alone (none shared),
        // over and over, with the remembered lists cleared on the way.
        let memo = Memo::default();
        let (mut shared, mut apart) =
            (Tally::new(&tokens), Tally::new(&tokens));
        for i in 0..3 * TALLY_LISTS {
            let c = &captures[i * 7 % captures.len()];
            let body = Cow::Borrowed(&c.body[..]);
            shared.add(&row(evaluate_body(c, body, &options, &memo)));
            apart.add(&row(evaluate(c, &options)));
            assert!(apart.bins.len() <= TALLY_LISTS);
        }
        let (shared, apart) = (shared.finish(), apart.finish());
        assert_eq!(shared, apart);
        // GPTBot: fully blocked by name in a sixth of the rows, through `*`
        // in another sixth, unreachable in a sixth.
        let gpt =
            apart.crawls[0].crawlers.iter().find(|c| c.token == "GPTBot");
        let gpt = gpt.unwrap();
        let sixth = (3 * TALLY_LISTS / 6) as u64;
        assert_eq!(
            (gpt.full_named, gpt.full_global, gpt.unreachable, gpt.allowed),
            (sixth, sixth, sixth, sixth)
        );
        assert_eq!(gpt.partial_global, 2 * sixth);
    }
}
