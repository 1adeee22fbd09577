//! Summaries: per crawl and crawler, how many sites block it fully or
//! partially, by name, by the name of a crawler it follows, or through
//! `*`; the change between two crawls; a chart.

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
    /// … in the groups of a crawler it follows when no group names it
    /// (`via` is `fallback`: Applebot by Googlebot's groups).
    #[serde(default)]
    pub full_fallback: u64,
    /// … in the `*` groups.
    pub full_global: u64,
    /// Sites whose robots.txt disallows part of the site, by name.
    pub partial_named: u64,
    /// … by the groups of a crawler it follows.
    #[serde(default)]
    pub partial_fallback: u64,
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
    /// Fully blocked, by name, by a crawler it follows or through `*`.
    pub fn full(&self) -> u64 {
        self.full_named + self.full_fallback + self.full_global
    }

    /// Partially blocked, by name, by a crawler it follows or through `*`.
    pub fn partial(&self) -> u64 {
        self.partial_named + self.partial_fallback + self.partial_global
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
    FullFallback,
    FullGlobal,
    PartialNamed,
    PartialFallback,
    PartialGlobal,
    Allowed,
    Unknown,
}

impl Bin {
    fn of(v: &Verdict) -> Bin {
        match (v.access, v.via) {
            ("disallowed", None) => Bin::Unreachable,
            ("disallowed", Some("named")) => Bin::FullNamed,
            ("disallowed", Some("fallback")) => Bin::FullFallback,
            ("disallowed", _) => Bin::FullGlobal,
            ("partial", Some("named")) => Bin::PartialNamed,
            ("partial", Some("fallback")) => Bin::PartialFallback,
            ("partial", _) => Bin::PartialGlobal,
            ("allowed", _) => Bin::Allowed,
            _ => Bin::Unknown,
        }
    }

    fn count(self, c: &mut Counts) {
        *match self {
            Bin::Unreachable => &mut c.unreachable,
            Bin::FullNamed => &mut c.full_named,
            Bin::FullFallback => &mut c.full_fallback,
            Bin::FullGlobal => &mut c.full_global,
            Bin::PartialNamed => &mut c.partial_named,
            Bin::PartialFallback => &mut c.partial_fallback,
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
    /// each by its name and through `*` (the rest by the groups of a
    /// crawler it follows).
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
                "{:<28} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>11}",
                "crawler",
                "blocked",
                "by name",
                "via *",
                "partly",
                "by name",
                "via *",
                "unreachable"
            );
            for k in &c.crawlers {
                let _ = writeln!(
                    t,
                    "{:<28} {:>8.2}% {:>8.2}% {:>8.2}% {:>8.2}% {:>8.2}% \
                     {:>8.2}% {:>10.2}%",
                    k.token,
                    pct(k.full(), c.sites),
                    pct(k.full_named, c.sites),
                    pct(k.full_global, c.sites),
                    pct(k.partial(), c.sites),
                    pct(k.partial_named, c.sites),
                    pct(k.partial_global, c.sites),
                    pct(k.unreachable, c.sites),
                );
            }
            if c.crawlers
                .iter()
                .any(|k| k.full_fallback + k.partial_fallback > 0)
            {
                t.push_str(
                    "(blocked and partly also count the groups of a crawler \
                     it follows when none names it, such as Googlebot's for \
                     Applebot: neither by its name nor via *)\n",
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
    /// per crawl, stacked: disallowed everywhere by name, by the groups of
    /// a crawler it follows, through `*`, then the same in part, in
    /// percent of sites.
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
    let name = |c: &Crawl| {
        if c.crawl.is_empty() {
            "(no crawl)".to_string()
        } else {
            c.crawl.clone()
        }
    };
    let heads = [
        format!("blocked {}", name(old)),
        format!("blocked {}", name(new)),
        "change".to_string(),
        format!("partly {}", name(old)),
        format!("partly {}", name(new)),
        "change".to_string(),
    ];
    // Each column as wide as its head or its widest value (`+100.00pp`).
    let widths: Vec<usize> =
        heads.iter().map(|h| h.chars().count().max(9)).collect();
    let mut line = |first: &str, cells: &[String]| {
        let _ = write!(t, "{first:<28}");
        for (cell, width) in cells.iter().zip(&widths) {
            let _ = write!(t, " {cell:>width$}");
        }
        t.push('\n');
    };
    line("crawler", &heads);
    let (gone, added) = (only_in(old, new), only_in(new, old));
    for o in &old.crawlers {
        let Some(n) = new.crawlers.iter().find(|n| n.token == o.token) else {
            continue;
        };
        let (fo, fn_) = (pct(o.full(), old.sites), pct(n.full(), new.sites));
        let (po, pn) =
            (pct(o.partial(), old.sites), pct(n.partial(), new.sites));
        let share = |v: f64| format!("{v:.2}%");
        let change = |v: f64| format!("{v:+.2}pp");
        line(
            &o.token,
            &[
                share(fo),
                share(fn_),
                change(fn_ - fo),
                share(po),
                share(pn),
                change(pn - po),
            ],
        );
    }
    for (tokens, crawl) in [(gone, name(new)), (added, name(old))] {
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
    // XML 1.0 has no control characters but tab and line breaks: the
    // others (a crawl named with one) show as U+FFFD.
    s.chars()
        .map(|c| match c {
            '&' => "&amp;".to_string(),
            '<' => "&lt;".to_string(),
            '>' => "&gt;".to_string(),
            '\t' | '\n' | '\r' => c.to_string(),
            c if c.is_control() || matches!(c, '\u{fffe}' | '\u{ffff}') => {
                '\u{fffd}'.to_string()
            }
            c => c.to_string(),
        })
        .collect()
}

/// The chart of [`Summary::svg`] for `crawls`.
pub fn chart(crawls: &[&Crawl]) -> String {
    const LEFT: f64 = 190.0;
    const WIDTH: f64 = 520.0;
    const BAR: f64 = 12.0;
    const TOP: f64 = 70.0;
    let colours =
        ["#8b1a1a", "#c0392b", "#e06666", "#b45f06", "#e69138", "#f6b26b"];
    // Every crawler of every crawl, in the order first met.
    let mut tokens: Vec<&str> = Vec::new();
    for k in crawls.iter().flat_map(|c| &c.crawlers) {
        if !tokens.contains(&k.token.as_str()) {
            tokens.push(&k.token);
        }
    }
    let per = BAR * crawls.len() as f64 + 6.0;
    let height = TOP + per * tokens.len() as f64 + 40.0;
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
        "… by a crawler it follows",
        "… via *",
        "partly disallowed, by name",
        "… by a crawler it follows",
        "… via *",
    ];
    for (i, (l, c)) in legend.iter().zip(colours).enumerate() {
        // Two rows of three: everywhere, then in part.
        let x = 10.0 + [0.0, 190.0, 350.0][i % 3];
        let y = 30.0 + 15.0 * (i / 3) as f64;
        let _ = writeln!(
            s,
            "<rect x=\"{x}\" y=\"{y}\" width=\"10\" height=\"10\" fill=\"{c}\"/>\
             <text x=\"{}\" y=\"{}\">{l}</text>",
            x + 14.0,
            y + 9.0
        );
    }
    for (i, token) in tokens.iter().enumerate() {
        let y0 = TOP + per * i as f64;
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
                k.full_fallback,
                k.full_global,
                k.partial_named,
                k.partial_fallback,
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
    let axis = TOP + per * tokens.len() as f64 + 4.0;
    for p in [0, 25, 50, 75, 100] {
        let x = LEFT + WIDTH * f64::from(p) / 100.0;
        let _ = writeln!(
            s,
            "<line x1=\"{x}\" y1=\"{}\" x2=\"{x}\" y2=\"{axis}\" stroke=\"#ccc\"/>\
             <text x=\"{x}\" y=\"{}\" text-anchor=\"middle\">{p}%</text>",
            TOP - 5.0,
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

    #[test]
    fn a_crawler_judged_by_the_groups_it_follows_is_counted_apart() {
        // Applebot follows Googlebot's groups when none names it; YandexBot
        // the `Yandex` groups. Neither is blocked by name nor via `*`.
        let options = Options::new(Catalogue::builtin());
        let tokens = Schema::new(&options.catalogue).tokens().to_vec();
        let mut tally = Tally::new(&tokens);
        for body in [
            &b"User-agent: Googlebot\nDisallow: /\n"[..],
            b"User-agent: Yandex\nDisallow: /private\n",
        ] {
            let c = Capture {
                status: Some(200),
                body: body.to_vec(),
                ..Capture::default()
            };
            tally.add(&row(evaluate(&c, &options)));
        }
        let summary = tally.finish();
        let get = |t: &str| {
            summary.crawls[0].crawlers.iter().find(|c| c.token == t).unwrap()
        };
        let apple = get("Applebot");
        assert_eq!(
            (apple.full_fallback, apple.full_named, apple.full_global),
            (1, 0, 0)
        );
        assert_eq!(apple.full(), 1);
        let yandex = get("YandexBot");
        assert_eq!((yandex.partial_fallback, yandex.partial_global), (1, 0));
        assert_eq!(get("Googlebot").full_named, 1);
        let table = summary.table();
        assert!(table.contains("a crawler it follows"), "{table}");
        // An older summary, without the fallback counts, still reads.
        let old = r#"{"token":"X","full_named":1,"full_global":2,"partial_named":3,"partial_global":4,"allowed":5,"unreachable":6,"unknown":7}"#;
        let old: Counts = serde_json::from_str(old).unwrap();
        assert_eq!((old.full(), old.partial()), (3, 7));
    }

    #[test]
    fn the_chart_shows_the_crawlers_of_every_crawl() {
        let crawl = |name: &str, token: &str| Crawl {
            crawl: name.into(),
            sites: 2,
            crawlers: vec![Counts {
                token: token.into(),
                full_fallback: 1,
                ..Counts::default()
            }],
            ..Crawl::default()
        };
        let (old, new) = (crawl("A", "OldBot"), crawl("B", "NewBot"));
        let svg = chart(&[&old, &new]);
        assert!(svg.contains(">OldBot<") && svg.contains(">NewBot<"), "{svg}");
        // Half the sites, in the fallback colour.
        assert!(
            svg.contains("width=\"260.0\" height=\"10\" fill=\"#c0392b\""),
            "{svg}"
        );
    }

    #[test]
    fn the_chart_is_xml_whatever_the_names() {
        let crawl = Crawl {
            crawl: "a\u{1}<b>&c".into(),
            sites: 1,
            ..Crawl::default()
        };
        let svg = chart(&[&crawl]);
        assert!(svg.contains("a\u{fffd}&lt;b&gt;&amp;c"), "{svg}");
        assert!(!svg.chars().any(|c| c.is_control() && c != '\n'), "{svg}");
    }
}
