//! Bulk robots.txt analysis: Common Crawl's robots.txt captures (WARC,
//! WARC.gz), JSON lines or plain files in; one row per site and crawl
//! out, with the exact site-level verdict of every crawler of a
//! catalogue, as Parquet, CSV or JSON lines; summaries and charts.
//!
//! The protocol is not re-implemented here: a status's RFC 9309 class,
//! the redirect rules and the 500 KiB cap come from
//! `robotrules_fetch::policy`; the parse from `robotrules`; the verdicts,
//! the catalogue, the body kinds and the lint counts from
//! `robotrules_analysis`.
//!
//! # The stages
//!
//! A [`Job`] runs them on one machine; a distributed job (the Spark job of
//! the Python package) runs the same ones on executors:
//!
//! 1. [`capture::read`]: every capture of a file, with its position
//!    ([`Pos`]), and every damaged record as a [`Problem`].
//! 2. [`Index`]: one entry per URL and crawl, the capture chosen by the
//!    selection rule (the latest `WARC-Date`; at the same second, the
//!    first in the input); [`Index::resolve`] follows redirects through
//!    the data (at most five, RFC 9309 §2.3.1.2) to a [`Plan`].
//! 3. [`evaluate`]: a capture's [`Evaluation`], once, for every site that
//!    ends on it.
//! 4. [`Row`]s in the one [`Schema`], written by a [`write::Sink`] and
//!    counted into a [`Summary`].
//!
//! # Example: a WARC file to rows
//!
//! ```
//! use robotrules_analysis::Catalogue;
//! use robotrules_bulk::{capture, write, Job, Options};
//!
//! let dir = std::env::temp_dir().join(format!("robotrules-bulk-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir)?;
//! let warc = dir.join("a.warc");
//! let body = "User-agent: GPTBot\nDisallow: /\n";
//! let http = format!("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n{body}");
//! std::fs::write(&warc, format!(
//!     "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: https://example.com/robots.txt\r\n\
//!      WARC-Date: 2024-02-20T00:00:00Z\r\nContent-Length: {}\r\n\r\n{http}\r\n\r\n",
//!     http.len()
//! ))?;
//! let job = Job::new(capture::expand(&[warc])?, Options::new(Catalogue::builtin()));
//! let out = dir.join("sites.csv");
//! let report = job.run(write::create(&out, write::Format::Csv, &job.schema())?, &())?;
//! assert_eq!((report.captures, report.rows), (1, 1));
//! let gpt = &report.summary.crawls[0].crawlers.iter().find(|c| c.token == "GPTBot").unwrap();
//! assert_eq!(gpt.full_named, 1);
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Memory
//!
//! Rows are streamed to the output; captures are read one at a time. The
//! index holds one small entry per distinct URL and crawl (about 100
//! bytes, plus the URLs of redirects), so memory grows with the number of
//! sites, never with the number of records or duplicates; pass two holds
//! the rows of at most four files per thread, made or waiting for the
//! writer thread, which writes them in file order. Pass one also
//! evaluates each capture chosen so far as it reads it, and keeps the
//! evaluation (not the body) up to a fixed budget ([`Job::keep`], 64 MiB
//! by default), so that pass two reads only the others again; a capture
//! that a later duplicate replaces gives its bytes back. A gzip member is
//! decompressed into at most 8 MiB ([`warc::MEMBER_LIMIT`]). A body met
//! again takes the meaning (parse, counts, verdicts) of its first
//! evaluation from a memo of at most 32 MiB of bodies, shared by the
//! threads, which drops half of them when full; evaluations that mean the
//! same for every crawler share one list of verdicts (at most 4,096 lists,
//! or 8 MiB of them, are shared).
//!
//! # Untrusted input
//!
//! Any bytes are read without a panic, in time linear in their size:
//! damage is reported as a [`Problem`] with its file and byte offset, and
//! reading resumes at the next gzip member or record.
//!
//! # Crate features
//!
//! None: Parquet is written with the `parquet` crate's column writers
//! (no Arrow), compressed with Snappy; gzip members are inflated with
//! zlib-rs.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod capture;
pub mod dist;
mod eval;
mod job;
mod problem;
mod row;
mod site;
pub mod summary;
pub mod warc;
pub mod write;

pub use crate::capture::{Capture, Pos, Source};
pub use crate::eval::{evaluate, stopped, Evaluation, Options, Verdict};
pub use crate::job::{Job, Phase, Progress, Report, KEEP};
pub use crate::problem::{Problem, ProblemKind};
pub use crate::row::{
    Column, Row, Schema, Type, Value, ValueRef, SITE_COLUMNS,
};
pub use crate::site::{site_of, Followed, Index, Origin, Plan};
pub use crate::summary::Summary;
