//! The Robots Exclusion Protocol (robots.txt, RFC 9309), with the verdicts of
//! Google's reference parser and matcher, byte for byte.
//!
//! `robotrules` turns the bytes of a robots.txt file into a [`Robots`] value
//! once, then answers "may this crawler fetch this URL?" as often as needed,
//! and says which line decided. It never fails and never panics on any input,
//! does no I/O, and is `Send + Sync`.
//!
//! # Example: one check
//!
//! ```
//! use robotrules::Robots;
//!
//! let body = b"\
//! User-agent: *
//! Disallow: /search
//! Allow: /search/about
//!
//! User-agent: FooBot
//! Disallow: /
//! ";
//! let robots = Robots::parse(body);
//! assert!(!robots.is_allowed("BarBot", "https://example.com/search?q=x"));
//! assert!(robots.is_allowed("BarBot", "https://example.com/search/about"));
//! // FooBot is named, so the `*` group does not apply to it at all.
//! assert!(!robots.is_allowed("FooBot", "https://example.com/"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Example: many checks, and why
//!
//! ```
//! use robotrules::{Robots, RuleKind};
//!
//! let robots = Robots::parse(b"user-agent: *\ndisallow: /*.pdf$\nallow: /docs/\n");
//! let matcher = robots.matcher(&["FooBot"]);
//! let decision = matcher.decide("https://example.com/docs/guide.pdf");
//! assert!(!decision.is_allowed());
//! let rule = decision.rule().ok_or("no rule")?;
//! assert_eq!(rule.line(), 2);
//! assert_eq!(rule.kind(), RuleKind::Disallow);
//! assert_eq!(rule.pattern(), "/*.pdf$");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Example: a crawler
//!
//! A crawler that needs only verdicts parses the file for its own name:
//! [`Matcher::parse`] reads it once and keeps only the rules that apply,
//! for one check or millions.
//!
//! ```
//! use robotrules::Matcher;
//!
//! let body = b"user-agent: *\ndisallow: /search\nallow: /search/about\n";
//! let matcher = Matcher::parse(body, &["BarBot"]);
//! assert!(!matcher.is_allowed("https://example.com/search?q=x"));
//! assert!(matcher.is_allowed("https://example.com/search/about"));
//! ```
//!
//! # What "exact" means
//!
//! The behaviour is that of Google's C++ reference (`robots.cc`), including
//! its quirks, as described in the project's digest of the protocol: a UTF-8
//! BOM prefix is skipped; LF, CR and CR LF end lines; a line keeps at most
//! [`MAX_LINE_LEN`] bytes; `#` starts a comment anywhere; keys are matched by
//! case-insensitive prefix, with the reference's accepted typos; a missing
//! colon is tolerated between exactly two tokens; groups end only at a
//! `user-agent` line after a rule; the longest match wins and `allow` wins a
//! tie; `Allow: /d/index.html` also allows `/d/`. Every published test case of
//! the reference passes.
//!
//! Where RFC 9309 differs (it decodes `%xx` of unreserved characters, exempts
//! `/robots.txt`, and lets a parser stop at 500 KiB), this crate follows the
//! reference. The `/robots.txt` exemption and the 500 KiB cap belong to the
//! fetch layer, `robotrules-fetch`.
//!
//! # Crate features
//!
//! * `std` (default): enables `std` support in `memchr`. The crate itself uses
//!   only `core` and `alloc`.
//!
//! # Untrusted input
//!
//! [`Robots::parse`] accepts any bytes. Time is linear in the body; memory is
//! at most a small multiple of the body, and bodies over [`MAX_BODY_LEN`] are
//! cut there (see [`Robots::is_truncated`]). Matching a URL costs at most
//! O(|path| · |pattern|) per rule, with no backtracking. A [`Matcher`]
//! holds its rules (28 bytes each, and their patterns) and, once its checks
//! prove busy, an index of at most 36 bytes per rule and 12 more per
//! wildcard rule, built in O(n log n) for n rules.

#![no_std]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

mod agent;
mod bind;
mod canonical;
mod coverage;
mod directive;
mod extension;
mod group;
pub mod keys;
mod matcher;
mod options;
mod parse;
mod path;
mod pattern;
mod report;
mod robots;
mod rule;
mod staged;
mod store;
mod swar;
mod verdict;

pub use crate::agent::{is_valid_agent, product_token};
pub use crate::coverage::{unrequested_part, Coverage, COVERAGE_BUDGET};
pub use crate::directive::{Sitemap, UnknownDirective};
pub use crate::extension::{
    CleanParam, Extension, ExtensionError, ExtensionErrorKind, ExtensionKind,
    ExtensionValue, RequestRate, VisitTime,
};
pub use crate::group::{Agent, Group, Selection};
pub use crate::keys::UNUSED_KEYS;
pub use crate::matcher::{DecidingRule, Decision, Matcher};
pub use crate::options::{MatchOptions, ParseOptions, Semantics};
pub use crate::parse::{raw_lines, FETCH_LIMIT, MAX_BODY_LEN, MAX_LINE_LEN};
pub use crate::path::path_of;
pub use crate::pattern::escape_pattern;
pub use crate::report::{LineReport, Tag};
pub use crate::robots::Robots;
pub use crate::rule::{Rule, RuleKind};
