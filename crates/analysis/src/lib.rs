//! Lint, explain and audit robots.txt files (RFC 9309) with the verdicts
//! of Google's reference parser.
//!
//! This crate is the analysis behind the `robotrules` command line, for
//! any front end (bindings, a web tester, bulk jobs): it does no I/O and
//! prints nothing. Every result is plain data; with the `serde` feature
//! every result serializes to the JSON the command line prints.
//!
//! * [`lint`](fn@lint): compiler-style [`Diagnostic`]s, each with a stable
//!   [`Code`] (`RT001`…`RT211`), a severity, the line and byte span, a
//!   message and a help line.
//! * [`explain`](fn@explain): an [`Explanation`] of one verdict — the groups chosen
//!   and why, every matching rule with its priority, the deciding rule.
//! * [`audit`](fn@audit): what the file allows each crawler of a [`Catalogue`]
//!   (search engines, AI crawlers and assistants, SEO tools, archives),
//!   as a [`Standing`].
//!
//! The deciding rule has one shape everywhere, [`RuleRef`].
//!
//! # Example: lint, explain, audit
//!
//! ```
//! use robotrules::{Coverage, Robots};
//! use robotrules_analysis::{audit, explain, lint, Catalogue, Code};
//!
//! let body = b"\
//! User-agent: *
//! Disallow: /private/
//! Disalow: /tmp/
//!
//! User-agent: GPTBot
//! Disallow: /
//! ";
//! let diagnostics = lint(body);
//! assert_eq!(diagnostics[0].code, Code::AcceptedVariant);
//! assert_eq!(diagnostics[0].line, 3);
//!
//! let robots = Robots::parse(body);
//! let why = explain(&robots, body, &["BarBot"], "https://example.com/private/a");
//! assert!(!why.allowed);
//! assert_eq!(why.rule.as_ref().map(|r| r.line), Some(2));
//!
//! let standings = audit(&robots, &Catalogue::builtin());
//! let gptbot = standings.iter().find(|s| s.crawler.token == "GPTBot").ok_or("GPTBot")?;
//! assert_eq!(gptbot.coverage, Coverage::DisallowedEverywhere);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Crate features
//!
//! * `serde` (off by default): `Serialize` for [`Diagnostic`],
//!   [`Explanation`], [`Standing`], [`RuleRef`] and the types they hold,
//!   `Serialize` and `Deserialize` for [`Crawler`] and [`Purpose`], and
//!   `Catalogue::from_json`. Without it the crate depends on the core
//!   crate, `robotrules`, alone; the built-in catalogue and
//!   [`Catalogue::from_toml`] need no feature.
//!
//! # Untrusted input
//!
//! Every function accepts any bytes, never panics, and takes time linear
//! in the size of the file, or n log n: checks that compare rules or
//! groups with each other are indexed or bounded (see [`lint_with`]).
//! [`lint`](fn@crate::lint) keeps at most 100 diagnostics per code and 1,000 in all, then
//! says how many it left out ([`Options`]). Text taken from the file is
//! quoted with its control characters escaped ([`escape`]), so that
//! messages and quotes are safe to print on a terminal.
//!
//! Like the reference, the analysis reads the whole file; crawlers read
//! only its first 500 KiB ([`robotrules::FETCH_LIMIT`], RFC 9309 §2.5).
//! [`Code::TooLarge`], [`Explanation::as_fetched`], [`FetchLimit`] and
//! [`Standing::as_fetched`] say when that matters.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod audit;
mod body;
mod catalogue;
mod explain;
mod limit;
mod lint;
mod query;
mod rule;
mod text;

pub use crate::audit::{
    audit, audit_brief, audit_file, Brief, Standing, StandingAsFetched, Via,
};
pub use crate::body::BodyKind;
pub use crate::catalogue::{
    Catalogue, CatalogueError, CatalogueErrorKind, Crawler, Purpose,
};
pub use crate::explain::{
    explain, quote_line, Explanation, GroupRef, Match, Quote, MAX_MATCHES,
};
pub use crate::limit::{
    fetched_part, first_line_beyond_fetch_limit, AsFetched, FetchLimit,
};
pub use crate::lint::{
    lint, lint_robots, lint_with, Code, Diagnostic, Options, Severity,
};
pub use crate::query::{
    agent_for_user_agent, agent_from_user_agent, check_agent, check_agents,
    check_url, check_url_against, other_authority, percent_encode,
    question_warnings, Check, Warning, WarningKind,
};
pub use crate::rule::RuleRef;
pub use crate::text::escape;
