//! What went wrong where: damage in the input, reported and counted.

use std::fmt;

/// What kind of damage a [`Problem`] is.
#[derive(Clone, Copy, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
#[non_exhaustive]
pub enum ProblemKind {
    /// A corrupt gzip member, or bytes between members that are not one.
    Gzip,
    /// A gzip member, a record or a file that ends early.
    Truncated,
    /// A record whose WARC header is broken.
    Header,
    /// A `response` record whose block is not an HTTP response, or whose
    /// target URI is not a URL.
    Http,
    /// A body that cannot be decoded (its `Content-Encoding` or chunks),
    /// or that is marked chunked but is not.
    Encoding,
    /// A JSON line that is not a capture.
    Json,
    /// A file that cannot be read.
    Io,
}

impl ProblemKind {
    /// Every kind, in the order of summaries.
    pub const ALL: [ProblemKind; 7] = [
        ProblemKind::Gzip,
        ProblemKind::Truncated,
        ProblemKind::Header,
        ProblemKind::Http,
        ProblemKind::Encoding,
        ProblemKind::Json,
        ProblemKind::Io,
    ];

    /// `"gzip"`, `"truncated"`, `"header"`, `"http"`, `"encoding"`,
    /// `"json"` or `"io"`.
    pub fn as_str(self) -> &'static str {
        match self {
            ProblemKind::Gzip => "gzip",
            ProblemKind::Truncated => "truncated",
            ProblemKind::Header => "header",
            ProblemKind::Http => "http",
            ProblemKind::Encoding => "encoding",
            ProblemKind::Json => "json",
            ProblemKind::Io => "io",
        }
    }
}

/// Damage found in an input: the file, the byte offset (of the gzip
/// member, the record, or the JSON line) and what is wrong there.
#[derive(Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
#[non_exhaustive]
pub struct Problem {
    /// The input file, as given.
    pub file: String,
    /// The byte offset in the file.
    pub offset: u64,
    /// What kind of damage.
    pub kind: ProblemKind,
    /// A description.
    pub detail: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: offset {}: {}: {}",
            self.file,
            self.offset,
            self.kind.as_str(),
            self.detail
        )
    }
}

impl std::error::Error for Problem {}
