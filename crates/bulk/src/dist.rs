//! The job's stages one at a time, for a distributed run (the Spark job
//! of the Python package): the same functions as [`Job`]'s,
//! so that the rows are the same.
//!
//! 1. [`scan`] a file: a small [`Meta`] per capture (no body) and the
//!    problems, on any machine.
//! 2. Per URL and crawl, keep the capture of greatest [`Meta::order`] and
//!    count the captures (the selection rule of [`Index`](crate::Index)).
//! 3. Follow the redirects of sites whose chosen capture is a 3xx one hop
//!    at a time with [`hop`], looking each target up among the chosen
//!    captures of its crawl (exactly as [`Index::resolve`](crate::Index::resolve)).
//! 4. [`rows`]: read the chosen captures of a file again by position,
//!    evaluate each once and emit a row for every site it stands for.
//!
//! Steps 2 and 3 are joins and reductions by key, which a distributed
//! engine does without collecting the captures in one place.

use std::cmp::Reverse;

use robotrules_analysis::{Catalogue, CatalogueError, Crawler, Purpose};
use robotrules_fetch::policy::Redirects;
use url::Url;

use crate::capture::{self, Capture, Pos, Source};
use crate::eval::Options;
use crate::job::{Crawls, Job};
use crate::problem::Problem;
use crate::row::Row;
use crate::site::{date_rank, normal, stop_name, Origin};

/// What the cross-file steps need of one capture.
#[derive(Clone, Debug, Eq, PartialEq)]
#[non_exhaustive]
pub struct Meta {
    /// The crawl.
    pub crawl: String,
    /// The URL, normalized as the index keys it (no fragment).
    pub url: String,
    /// Where the capture is.
    pub pos: Pos,
    /// `WARC-Date` as a number that orders dates.
    pub rank: u64,
    /// The HTTP status.
    pub status: Option<u16>,
    /// The `Location` header.
    pub location: Option<String>,
    /// True if and only if the URL is a site's robots.txt
    /// ([`site_of`](crate::site_of)).
    pub site: bool,
}

impl Meta {
    /// The metadata of a capture.
    pub fn of(c: &Capture) -> Meta {
        let (url, site) = normal(&c.url);
        Meta {
            crawl: c.crawl.clone(),
            site,
            url,
            pos: c.pos,
            rank: date_rank(&c.date),
            status: c.status,
            location: c.location.clone(),
        }
    }

    /// The selection rule as a key: of the captures of one URL in one
    /// crawl, the one with the greatest key stands for it (the latest
    /// `WARC-Date`; at the same second, the first in the input).
    pub fn order(&self) -> (u64, Reverse<Pos>) {
        (self.rank, Reverse(self.pos))
    }

    /// True if and only if the status is a redirect (3xx) to follow.
    pub fn is_redirect(&self) -> bool {
        self.status.is_some_and(crate::site::is_redirect)
    }
}

/// Reads every capture of `source` (index `index`) and gives `each` its
/// [`Meta`] or the problem found; returns the file's crawls, each with
/// the position of the first capture read under it (one, unless the
/// file joins captures of several crawls), for [`rows`].
pub fn scan(
    source: &Source,
    index: u32,
    crawl: Option<&str>,
    each: &mut dyn FnMut(Result<Meta, Problem>),
) -> Vec<(Pos, String)> {
    let mut crawls = Crawls::default();
    capture::read(source, index, crawl, &mut |item| match item {
        Ok(c) => {
            crawls.note(c.pos, &c.crawl);
            each(Ok(Meta::of(&c)));
        }
        Err(p) => each(Err(p)),
    });
    crawls.into_changes()
}

/// One step along a redirect chain.
#[derive(Clone, Debug, Eq, PartialEq)]
#[non_exhaustive]
pub enum Hop {
    /// The chain goes on to this URL, after this many redirects.
    Next(String, i32),
    /// The chain stops: `loop`, `too_many`, `scheme` or `no_location`.
    Stop(&'static str),
}

/// The next step of the redirect chain that starts at `start` (a site's
/// robots.txt URL) and has met the `Location` headers `locations` so far
/// (one per redirect capture, in order): the access method's
/// [`Redirects`] replayed (at most five hops, loops stopped, only
/// `http(s)`; RFC 9309 §2.3.1.2).
///
/// # Example
///
/// ```
/// use robotrules_bulk::dist::{hop, Hop};
///
/// let to = |l: &str| Some(l.to_string());
/// assert_eq!(
///     hop("http://a.com/robots.txt", &[to("https://a.com/robots.txt")]),
///     Hop::Next("https://a.com/robots.txt".into(), 1)
/// );
/// assert_eq!(
///     hop("http://a.com/robots.txt", &[to("https://a.com/robots.txt"), to("http://a.com/robots.txt")]),
///     Hop::Stop("loop")
/// );
/// assert_eq!(hop("http://a.com/robots.txt", &[None]), Hop::Stop("no_location"));
/// assert_eq!(
///     hop("http://a.com/robots.txt", &[to("https://user:pw@b.com/robots.txt")]),
///     Hop::Next("https://b.com/robots.txt".into(), 1)
/// );
/// ```
pub fn hop(start: &str, locations: &[Option<String>]) -> Hop {
    let Ok(start) = Url::parse(start) else {
        return Hop::Stop("no_location");
    };
    let mut redirects = Redirects::new(start);
    let mut next = None;
    for location in locations {
        match redirects.follow(location.as_deref()) {
            Ok(url) => next = Some(url),
            Err(stop) => return Hop::Stop(stop_name(stop)),
        }
    }
    match next {
        // The target as captures are keyed (no fragment, no user info),
        // as `robotrules bulk` looks it up.
        Some(url) => {
            Hop::Next(normal(url.as_str()).0, redirects.count() as i32)
        }
        None => Hop::Stop("no_location"),
    }
}

/// Reads the captures of `source` at `todo` again (any order), evaluates
/// each once and returns the rows of the sites it stands for (in file
/// order), and the problems met; `crawls` are the file's crawls where
/// they begin ([`scan`]'s result), `name` the file's name in rows and
/// problems.
pub fn rows(
    source: &Source,
    name: &str,
    crawls: &[(Pos, String)],
    mut todo: Vec<(Pos, Vec<Origin>)>,
    options: &Options,
) -> (Vec<Row>, Vec<Problem>) {
    for (pos, _) in &mut todo {
        pos.source = 0;
    }
    todo.sort_by_key(|(p, _)| *p);
    let mut crawls = crawls.to_vec();
    for (pos, _) in &mut crawls {
        pos.source = 0;
    }
    crawls.sort_by_key(|(p, _)| *p);
    let job = Job::new(vec![source.clone()], options.clone());
    let (mut rows, problems) =
        job.rows(0, &Crawls::new(crawls), todo, Default::default(), &());
    let mut problems: Vec<Problem> =
        problems.into_iter().map(|(_, p)| p).collect();
    if source.name() != name {
        for r in &mut rows {
            r.file = name.to_string();
        }
        for p in &mut problems {
            p.file = name.to_string();
        }
    }
    (rows, problems)
}

/// The catalogue of a job restricted to `tokens` (all of `full` if there
/// are none): a token `full` does not know is judged too, with the
/// operator `unknown` and the purpose `other`.
///
/// # Example
///
/// ```
/// use robotrules_analysis::Catalogue;
/// use robotrules_bulk::dist::agents;
///
/// let tokens = ["GPTBot".to_string(), "FooBot".to_string()];
/// let catalogue = agents(Catalogue::builtin(), &tokens)?;
/// assert_eq!(catalogue.len(), 2);
/// assert_eq!(catalogue.get("FooBot").unwrap().operator, "unknown");
/// assert!(agents(Catalogue::builtin(), &["not a token".to_string()]).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// The tokens do not make a catalogue (a duplicate or invalid token).
pub fn agents(
    full: Catalogue,
    tokens: &[String],
) -> Result<Catalogue, CatalogueError> {
    if tokens.is_empty() {
        return Ok(full);
    }
    let crawlers = tokens
        .iter()
        .map(|t| {
            full.get(t).cloned().unwrap_or_else(|| {
                Crawler::new(t.as_str(), "unknown", Purpose::Other)
            })
        })
        .collect();
    Catalogue::new(crawlers)
}
