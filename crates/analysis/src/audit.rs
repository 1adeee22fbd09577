//! What a robots.txt allows each crawler of a catalogue.

use std::borrow::Cow;

use robotrules::{Agent, Coverage, Robots};

use crate::catalogue::{Catalogue, Crawler};

/// How a crawler's rules are chosen.
#[derive(Clone, Copy, Debug, Eq, Hash, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(rename_all = "lowercase")
)]
#[non_exhaustive]
pub enum Via {
    /// Some group names the crawler (`named`).
    Named,
    /// No group names it: the `*` groups apply (`global`).
    Global,
    /// No group names it, and there is no `*` group or the crawler
    /// ignores it ([`Crawler::ignores_global`]): everything is allowed
    /// (`none`).
    None,
    /// No group names it, but one names a token it then follows
    /// ([`Crawler::fallback`]), such as Googlebot for Applebot
    /// (`fallback`).
    Fallback,
    /// There are no rules: the fetch of the robots.txt failed or found
    /// none, and its outcome decides for every crawler (RFC 9309
    /// §2.3.1.3–4; `access`). Front ends that fetch set it.
    Access,
}

impl Via {
    /// `"named"`, `"global"`, `"none"`, `"fallback"` or `"access"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Via::Named => "named",
            Via::Global => "global",
            Via::None => "none",
            Via::Fallback => "fallback",
            Via::Access => "access",
        }
    }
}

/// One crawler's standing in a robots.txt: see [`audit`](fn@crate::audit).
///
/// With the `serde` feature it serializes as an object with the crawler's
/// fields (`token`, `operator`, `purpose`, `note`, `url`,
/// `user_initiated`), then `named`,
/// `via`, `lines`, `access` (`"allowed"`, `"partial"`, `"disallowed"` or
/// `"unknown"`), for partial access `allowed_path` and `disallowed_path`,
/// `crawl_delay` (seconds, or `null`), and `as_fetched`: `null`, or for a
/// file over 500 KiB ([`audit_file`]) an object of the same fields from
/// `named` on, the standing by the part of the file that crawlers read.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Standing {
    /// The crawler.
    pub crawler: Crawler,
    /// How its rules are chosen.
    pub via: Via,
    /// The `user-agent` lines that name it or, if none does, the `*`
    /// lines that apply.
    pub lines: Vec<u32>,
    /// How much of the site it may fetch, with a path of each kind for
    /// [`Coverage::Partial`] ([`robotrules::Matcher::coverage`]).
    pub coverage: Coverage,
    /// The crawl-delay that applies to it, in seconds
    /// ([`robotrules::Matcher::crawl_delay`]): not part of RFC 9309, read
    /// by some crawlers (Bing, Yandex), ignored by Google.
    pub crawl_delay: Option<f64>,
    /// For a file over 500 KiB, the standing by the part of it that
    /// crawlers read ([`audit_file`]); `None` for a file that fits, or
    /// from [`audit`](fn@audit), which is given no file.
    pub as_fetched: Option<StandingAsFetched>,
}

// By hand: the crawl-delay is a float, compared by its bits.
impl PartialEq for Standing {
    fn eq(&self, other: &Standing) -> bool {
        self.crawler == other.crawler
            && self.as_fetched == other.as_fetched
            && self.view() == other.view()
    }
}

impl Eq for Standing {}

impl Standing {
    /// Returns true if and only if some group names the crawler.
    pub fn is_named(&self) -> bool {
        self.via == Via::Named
    }

    /// The standing without the crawler, for comparison.
    fn view(&self) -> StandingAsFetched {
        StandingAsFetched {
            via: self.via,
            lines: self.lines.clone(),
            coverage: self.coverage.clone(),
            crawl_delay: self.crawl_delay,
        }
    }

    /// Returns true if and only if the file is over 500 KiB and crawlers,
    /// which read only its first 500 KiB, stand otherwise: other groups,
    /// another access or another crawl-delay (see [`audit_file`]).
    pub fn differs_as_fetched(&self) -> bool {
        self.as_fetched.as_ref().is_some_and(|f| *f != self.view())
    }
}

/// A crawler's standing by the part of a file over 500 KiB that crawlers
/// read: see [`audit_file`]. The fields are those of [`Standing`].
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct StandingAsFetched {
    /// How its rules are chosen.
    pub via: Via,
    /// The `user-agent` lines that name it or, if none does, the `*`
    /// lines that apply.
    pub lines: Vec<u32>,
    /// How much of the site it may fetch.
    pub coverage: Coverage,
    /// The crawl-delay that applies to it, in seconds.
    pub crawl_delay: Option<f64>,
}

impl PartialEq for StandingAsFetched {
    fn eq(&self, other: &StandingAsFetched) -> bool {
        self.via == other.via
            && self.lines == other.lines
            && self.coverage == other.coverage
            && self.crawl_delay.map(f64::to_bits)
                == other.crawl_delay.map(f64::to_bits)
    }
}

impl Eq for StandingAsFetched {}

/// The fields of a standing from `named` on, into a JSON map.
#[cfg(feature = "serde")]
fn put_standing<M: serde::ser::SerializeMap>(
    m: &mut M,
    via: Via,
    lines: &[u32],
    coverage: &Coverage,
    crawl_delay: Option<f64>,
) -> Result<(), M::Error> {
    m.serialize_entry("named", &(via == Via::Named))?;
    m.serialize_entry("via", &via)?;
    m.serialize_entry("lines", lines)?;
    m.serialize_entry("access", coverage.as_str())?;
    m.serialize_entry("allowed_path", &coverage.allowed_witness())?;
    m.serialize_entry("disallowed_path", &coverage.disallowed_witness())?;
    m.serialize_entry("crawl_delay", &crawl_delay)
}

#[cfg(feature = "serde")]
impl serde::Serialize for StandingAsFetched {
    fn serialize<S: serde::Serializer>(
        &self,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;

        let mut m = s.serialize_map(None)?;
        put_standing(
            &mut m,
            self.via,
            &self.lines,
            &self.coverage,
            self.crawl_delay,
        )?;
        m.end()
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Standing {
    fn serialize<S: serde::Serializer>(
        &self,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;

        let c = &self.crawler;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("token", &c.token)?;
        m.serialize_entry("operator", &c.operator)?;
        m.serialize_entry("purpose", &c.purpose)?;
        m.serialize_entry("note", &c.note)?;
        m.serialize_entry("url", &c.url)?;
        m.serialize_entry("user_initiated", &c.user_initiated)?;
        put_standing(
            &mut m,
            self.via,
            &self.lines,
            &self.coverage,
            self.crawl_delay,
        )?;
        m.serialize_entry("as_fetched", &self.as_fetched)?;
        m.end()
    }
}

/// The least coverage budget each distinct set of groups gets: about a
/// millisecond's work, enough for any ordinary group.
const FLOOR: u64 = 1 << 20;

/// Audits `robots` for every crawler of `catalogue`, in catalogue order.
///
/// For each crawler: whether a group names it or the `*` groups apply
/// (RFC 9309 §2.2.1), the lines that decide that, and whether it may fetch
/// every path, some or none. The access is exact, not read from the
/// rules' text: `Disallow: /` and `Disallow: /*` both block everything,
/// and `Allow: /$` beside them opens the root again. It is
/// [`Coverage::Unknown`] only for rule sets too costly to decide: the
/// crawlers of one file share one [`robotrules::COVERAGE_BUDGET`], so that
/// a file of many hostile groups costs no more than one.
///
/// # Example
///
/// ```
/// use robotrules::{Agent, Coverage, Robots};
/// use robotrules_analysis::{audit, Catalogue, Via};
///
/// let robots = Robots::parse(b"User-agent: *\nDisallow: /private/\n\nUser-agent: GPTBot\nDisallow: /\n");
/// let standings = audit(&robots, &Catalogue::builtin());
/// let gpt = standings.iter().find(|s| s.crawler.token == "GPTBot").ok_or("listed")?;
/// assert_eq!((gpt.via, &gpt.lines[..]), (Via::Named, &[4][..]));
/// assert_eq!(gpt.coverage, Coverage::DisallowedEverywhere);
/// let bing = standings.iter().find(|s| s.crawler.token == "Bingbot").ok_or("listed")?;
/// assert_eq!(bing.via, Via::Global);
/// assert_eq!(bing.coverage.disallowed_witness(), Some("/private/"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn audit(robots: &Robots, catalogue: &Catalogue) -> Vec<Standing> {
    let mut out = Vec::with_capacity(catalogue.len());
    walk(robots, catalogue, true, |crawler, via, lines, coverage, delay| {
        out.push(Standing {
            crawler: crawler.clone(),
            via,
            lines,
            coverage: coverage.clone(),
            crawl_delay: delay,
            as_fetched: None,
        });
    });
    out
}

/// [`audit`](fn@audit) of `robots`, parsed from `body`, with, for a body
/// over 500 KiB ([`robotrules::FETCH_LIMIT`]), each crawler's standing by
/// the part that crawlers read ([`crate::fetched_part`]) in
/// [`Standing::as_fetched`]. Like the reference, the standings read the
/// whole file; a crawler never reads past the limit, so a group beyond it
/// that names the crawler, or a rule beyond it, changes nothing for it.
///
/// # Example
///
/// ```
/// use robotrules::{Coverage, Robots};
/// use robotrules_analysis::{audit_file, Catalogue, Via};
///
/// let mut body = b"User-agent: *\nDisallow: /\n".to_vec();
/// body.resize(robotrules::FETCH_LIMIT + 10, b'#');
/// body.extend_from_slice(b"\nUser-agent: GPTBot\nAllow: /\n");
/// let standings = audit_file(&Robots::parse(&body), &body, &Catalogue::builtin());
/// let gpt = standings.iter().find(|s| s.crawler.token == "GPTBot").ok_or("listed")?;
/// assert_eq!((gpt.via, &gpt.coverage), (Via::Named, &Coverage::AllowedEverywhere));
/// let fetched = gpt.as_fetched.as_ref().ok_or("over the limit")?;
/// assert_eq!((fetched.via, &fetched.coverage), (Via::Global, &Coverage::DisallowedEverywhere));
/// assert!(gpt.differs_as_fetched());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn audit_file(
    robots: &Robots,
    body: &[u8],
    catalogue: &Catalogue,
) -> Vec<Standing> {
    let mut out = audit(robots, catalogue);
    if let Some(part) = crate::fetched_part(body) {
        let fetched = audit(&Robots::parse(part), catalogue);
        for (s, f) in out.iter_mut().zip(fetched) {
            s.as_fetched = Some(f.view());
        }
    }
    out
}

/// One crawler's standing in brief: see [`audit_brief`].
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct Brief {
    /// How its rules are chosen.
    pub via: Via,
    /// [`Coverage::as_str`] of its access: `"allowed"`, `"partial"`,
    /// `"disallowed"` or `"unknown"`.
    pub access: &'static str,
    /// The crawl-delay that applies to it, in seconds.
    pub crawl_delay: Option<f64>,
}

/// [`audit`](fn@audit) in brief, for bulk jobs over millions of files:
/// the same verdicts, without the crawler's description, the lines or the
/// witness paths, and so without allocating per crawler.
///
/// # Example
///
/// ```
/// use robotrules::Robots;
/// use robotrules_analysis::{audit, audit_brief, Catalogue};
///
/// let robots = Robots::parse(b"User-agent: GPTBot\nDisallow: /\n");
/// let catalogue = Catalogue::builtin();
/// let full = audit(&robots, &catalogue);
/// let brief = audit_brief(&robots, &catalogue);
/// for (f, b) in full.iter().zip(&brief) {
///     assert_eq!((f.via, f.coverage.as_str()), (b.via, b.access));
/// }
/// ```
pub fn audit_brief(robots: &Robots, catalogue: &Catalogue) -> Vec<Brief> {
    let mut out = Vec::with_capacity(catalogue.len());
    walk(robots, catalogue, false, |_, via, _, coverage, crawl_delay| {
        out.push(Brief { via, access: coverage.as_str(), crawl_delay });
    });
    out
}

/// The audit's one walk over the catalogue; `lines`: whether to collect
/// the deciding `user-agent` lines.
fn walk(
    robots: &Robots,
    catalogue: &Catalogue,
    want_lines: bool,
    mut each: impl FnMut(&Crawler, Via, Vec<u32>, &Coverage, Option<f64>),
) {
    // Crawlers with the same groups (every crawler that no group names
    // gets the `*` groups) have the same coverage: it is computed once.
    // (A few sets per file: a list beats a map.)
    let mut coverage_of: Vec<(Vec<usize>, Coverage, Option<f64>)> = Vec::new();
    // One budget for the whole file, so that a file of many hostile groups
    // costs no more than one: past it, a crawler's access is `Unknown`.
    let mut budget = robotrules::COVERAGE_BUDGET;
    // The `user-agent` lines, read once for every crawler: a file's
    // store is decoded once instead of once per crawler.
    let agents: Vec<(usize, Agent<'_>)> = robots
        .groups()
        .flat_map(|g| g.agents().map(move |a| (g.index(), a)))
        .collect();
    let global: Vec<usize> =
        dedup(agents.iter().filter(|(_, a)| a.is_global()).map(|&(g, _)| g));
    let any_global = !global.is_empty();
    // The groups that name a crawler of the catalogue, as (the crawler's
    // place, the group), in file order: a lookup a line rather than a
    // comparison with every crawler (`Agent::is_named_by`).
    let names: Vec<(usize, usize)> = if want_lines {
        Vec::new()
    } else {
        agents
            .iter()
            .filter(|(_, a)| !a.is_global())
            .filter_map(|&(g, a)| {
                Some((catalogue.place_of_token(a.product_token())?, g))
            })
            .collect()
    };
    let mut named_groups = Vec::new();
    for (place, crawler) in catalogue.crawlers().iter().enumerate() {
        let token = crawler.token.as_str();
        // The crawler's own token, then the tokens it falls back on.
        let chain = std::iter::once(token)
            .chain(crawler.fallback.iter().map(String::as_str));
        let (via, groups, lines) = if want_lines {
            let mut found = None;
            for (i, t) in chain.enumerate() {
                let selection = robots.select(&[t]);
                if selection.is_named() {
                    found = Some((i, t, selection));
                    break;
                }
            }
            match found {
                Some((i, t, selection)) => {
                    let lines: Vec<u32> = selection
                        .groups()
                        .flat_map(|g| g.agents())
                        .filter(|a| a.is_named_by(t))
                        .map(|a| a.line())
                        .collect();
                    let groups: Vec<usize> =
                        selection.groups().map(|g| g.index()).collect();
                    let via = if i == 0 { Via::Named } else { Via::Fallback };
                    (via, Cow::Owned(groups), lines)
                }
                None if crawler.ignores_global || !any_global => {
                    (Via::None, Cow::Owned(Vec::new()), Vec::new())
                }
                None => {
                    let lines: Vec<u32> = agents
                        .iter()
                        .filter(|(_, a)| a.is_global())
                        .map(|(_, a)| a.line())
                        .collect();
                    (Via::Global, Cow::Borrowed(&global[..]), lines)
                }
            }
        } else {
            // The groups that name it (RFC 9309 §2.2.1), or else those of
            // its fallbacks, or else the `*` groups: what `Robots::select`
            // returns for the first token of the chain that a group
            // names.
            named_groups.clear();
            push_dedup(
                &mut named_groups,
                names.iter().filter(|&&(p, _)| p == place).map(|&(_, g)| g),
            );
            let mut via = Via::Named;
            for t in &crawler.fallback {
                if !named_groups.is_empty() {
                    break;
                }
                via = Via::Fallback;
                push_dedup(
                    &mut named_groups,
                    agents
                        .iter()
                        .filter(|(_, a)| !a.is_global() && a.is_named_by(t))
                        .map(|&(g, _)| g),
                );
            }
            if named_groups.is_empty() {
                via = if crawler.ignores_global || !any_global {
                    Via::None
                } else {
                    Via::Global
                };
            }
            let groups = match via {
                Via::Global => &global[..],
                Via::None => &[][..],
                _ => &named_groups[..],
            };
            (via, Cow::Borrowed(groups), Vec::new())
        };
        let named = matches!(via, Via::Named | Via::Fallback);
        let known = coverage_of.iter().position(|(g, ..)| **g == *groups);
        let at = known.unwrap_or_else(|| {
            // Every crawler gets a little, so that the simple rule sets
            // after a costly one are still decided.
            let mut mine = budget.max(FLOOR);
            let before = mine;
            // The groups are known: they are not chosen again.
            let matcher = robots.matcher_for_groups(&groups, named);
            let coverage = matcher.coverage_within(&mut mine);
            budget = budget.saturating_sub(before - mine);
            coverage_of.push((
                groups.into_owned(),
                coverage,
                matcher.crawl_delay(),
            ));
            coverage_of.len() - 1
        });
        let (_, coverage, crawl_delay) = &coverage_of[at];
        each(crawler, via, lines, coverage, *crawl_delay);
    }
}

/// The group indexes of `it` (in file order), each once.
fn dedup(it: impl Iterator<Item = usize>) -> Vec<usize> {
    let mut out: Vec<usize> = Vec::new();
    push_dedup(&mut out, it);
    out
}

/// Pushes the group indexes of `it` (in file order) onto `out`, each
/// once (into the room `out` already has: no new list per crawler).
fn push_dedup(out: &mut Vec<usize>, it: impl Iterator<Item = usize>) {
    for g in it {
        if out.last() != Some(&g) {
            out.push(g);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::Purpose;

    fn one(body: &[u8], token: &str) -> Standing {
        let catalogue =
            Catalogue::new(vec![Crawler::new(token, "X", Purpose::Other)])
                .unwrap();
        audit(&Robots::parse(body), &catalogue).remove(0)
    }

    macro_rules! standing {
        ($body:expr, $token:expr, $via:ident, $lines:expr, $access:expr) => {{
            let s = one($body, $token);
            assert_eq!(
                (s.via, &s.lines[..], s.coverage.as_str()),
                (Via::$via, &$lines[..], $access)
            );
        }};
    }

    #[test]
    fn a_costly_group_leaves_the_others_decided() {
        use std::fmt::Write as _;
        // A group that spends the file's whole budget, then simple ones.
        let mut body = String::from("User-agent: GPTBot\n");
        for i in 0..9_000 {
            let _ = write!(body, "Disallow: /*a{i:b}*b\nAllow: /*a{i:b}*b\n");
        }
        body.push_str("User-agent: *\nDisallow: /private/\n");
        let standings =
            audit(&Robots::parse(body.as_bytes()), &Catalogue::builtin());
        let access = |token: &str| {
            let s = standings.iter().find(|s| s.crawler.token == token);
            s.map(|s| s.coverage.as_str())
        };
        assert_eq!(access("GPTBot"), Some("unknown"));
        assert_eq!(access("Googlebot"), Some("partial"));
        assert_eq!(access("CCBot"), Some("partial"));
    }

    #[test]
    fn standings() {
        standing!(
            b"User-agent: *\nDisallow: /\n",
            "a",
            Global,
            [1u32],
            "disallowed"
        );
        standing!(
            b"User-agent: a\nDisallow: /*\n",
            "A",
            Named,
            [1u32],
            "disallowed"
        );
        standing!(
            b"User-agent: b\nDisallow: /\n",
            "a",
            None,
            [0u32; 0],
            "allowed"
        );
        standing!(
            b"User-agent: a\nDisallow: /\nAllow: /$\n",
            "a",
            Named,
            [1u32],
            "partial"
        );
        standing!(
            b"User-agent: *\nUser-agent: a\nDisallow:\n",
            "a",
            Named,
            [2u32],
            "allowed"
        );
    }

    #[test]
    fn fallbacks_and_ignoring_the_global_groups() {
        let mut apple = Crawler::new("Applebot", "Apple", Purpose::Search);
        apple.fallback = vec!["Googlebot".into()];
        let mut yandex = Crawler::new("YandexBot", "Yandex", Purpose::Search);
        yandex.fallback = vec!["Yandex".into(), "Googlebot".into()];
        let mut ads = Crawler::new("AdsBot-Google", "Google", Purpose::Ads);
        ads.ignores_global = true;
        let catalogue = Catalogue::new(vec![apple, yandex, ads]).unwrap();
        let check = |body: &[u8], want: [(Via, &[u32], &str); 3]| {
            let robots = Robots::parse(body);
            let full = audit(&robots, &catalogue);
            let brief = audit_brief(&robots, &catalogue);
            for ((f, b), (via, lines, access)) in
                full.iter().zip(&brief).zip(want)
            {
                let at = &f.crawler.token;
                assert_eq!(
                    (f.via, &f.lines[..], f.coverage.as_str()),
                    (via, lines, access),
                    "{at}"
                );
                assert_eq!((b.via, b.access), (via, access), "{at}");
            }
        };
        // No group names them: Applebot follows Googlebot, YandexBot its
        // second fallback; AdsBot ignores `*`.
        check(
            b"User-agent: Googlebot\nDisallow: /private/\n\nUser-agent: *\nDisallow: /\n",
            [
                (Via::Fallback, &[1], "partial"),
                (Via::Fallback, &[1], "partial"),
                (Via::None, &[], "allowed"),
            ],
        );
        // The first fallback named wins; a group naming the crawler wins
        // over its fallbacks.
        check(
            b"User-agent: Googlebot\nDisallow: /private/\n\nUser-agent: yandex\nDisallow: /\n\n\
              User-agent: Applebot\nUser-agent: AdsBot-Google\nDisallow: /a\n",
            [
                (Via::Named, &[7], "partial"),
                (Via::Fallback, &[4], "disallowed"),
                (Via::Named, &[8], "partial"),
            ],
        );
        // Nothing named: `*` for the others, still nothing for AdsBot.
        check(
            b"User-agent: *\nDisallow: /\n",
            [
                (Via::Global, &[1], "disallowed"),
                (Via::Global, &[1], "disallowed"),
                (Via::None, &[], "allowed"),
            ],
        );
    }

    #[test]
    fn brief_is_the_audit() {
        let catalogue = Catalogue::builtin();
        for file in robotrules_testdata::corpus_files().iter().step_by(7) {
            let body = std::fs::read(file).unwrap();
            let robots = Robots::parse(&body);
            let full = audit(&robots, &catalogue);
            let brief = audit_brief(&robots, &catalogue);
            assert_eq!(full.len(), brief.len());
            for (f, b) in full.iter().zip(&brief) {
                let f = (f.via, f.coverage.as_str(), f.crawl_delay);
                assert_eq!(f, (b.via, b.access, b.crawl_delay), "{file:?}");
            }
        }
    }

    #[test]
    fn crawl_delays() {
        let body = b"User-agent: a\nCrawl-delay: 2\nDisallow: /a\n\nUser-agent: *\nCrawl-delay: 0.5\n";
        assert_eq!(one(body, "a").crawl_delay, Some(2.0));
        assert_eq!(one(body, "b").crawl_delay, Some(0.5));
        assert_eq!(
            one(b"User-agent: *\nDisallow: /\n", "a").crawl_delay,
            None
        );
    }

    #[test]
    fn witnesses() {
        let s = one(b"User-agent: a\nDisallow: /private\n", "a");
        assert_eq!(s.coverage.allowed_witness(), Some("/"));
        assert_eq!(s.coverage.disallowed_witness(), Some("/private"));
    }
}
