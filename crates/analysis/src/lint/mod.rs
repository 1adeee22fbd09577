//! Compiler-style diagnostics for a robots.txt.

use std::collections::HashMap;
use std::fmt;
use std::ops::Range;

use robotrules::Robots;

use crate::text::Lines;

mod checks;
mod code;

pub use self::code::Code;

/// How bad a diagnostic is.
#[derive(Clone, Copy, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(rename_all = "lowercase")
)]
pub enum Severity {
    /// Worth knowing; nothing is wrong (`info`).
    Info,
    /// Probably not what the author meant, or read differently by other
    /// crawlers (`warning`).
    Warning,
    /// The file, or a line of it, does not do what it says (`error`).
    Error,
}

impl Severity {
    /// `"info"`, `"warning"` or `"error"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One finding of [`lint`](fn@crate::lint).
///
/// Text that comes from the file (keys, values, names) is quoted in
/// `message` and `help` with its control characters escaped
/// ([`escape`](crate::escape)), so both are safe to print on a terminal.
///
/// With the `serde` feature it serializes as an object with the fields
/// `code` (`"RT106"`), `name` (`"url-as-path"`), `severity`, `line`,
/// `column`, `span` (`{"start": …, "end": …}`), `message`, `help` and
/// `related`.
#[derive(Clone, Debug, Eq, Hash, PartialEq)]
#[non_exhaustive]
pub struct Diagnostic {
    /// What was found.
    pub code: Code,
    /// How bad it is: usually [`Code::severity`], sometimes worse.
    pub severity: Severity,
    /// The line it is about, from 1, numbered as the parser numbers lines
    /// (LF, CR and CR LF end a line).
    pub line: u32,
    /// The column where `span` starts in the line, in bytes from 1.
    pub column: usize,
    /// The bytes of the file it is about: offsets into the whole body,
    /// within the line (possibly empty).
    pub span: Range<usize>,
    /// What is wrong, in one line.
    pub message: String,
    /// How to fix it, if there is something to say.
    pub help: Option<String>,
    /// Other lines involved, such as the rule that shadows this one.
    pub related: Vec<u32>,
}

#[cfg(feature = "serde")]
impl serde::Serialize for Diagnostic {
    fn serialize<S: serde::Serializer>(
        &self,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;

        #[derive(serde::Serialize)]
        struct Span {
            start: usize,
            end: usize,
        }
        let mut st = s.serialize_struct("Diagnostic", 9)?;
        st.serialize_field("code", self.code.id())?;
        st.serialize_field("name", self.code.name())?;
        st.serialize_field("severity", &self.severity)?;
        st.serialize_field("line", &self.line)?;
        st.serialize_field("column", &self.column)?;
        st.serialize_field(
            "span",
            &Span { start: self.span.start, end: self.span.end },
        )?;
        st.serialize_field("message", &self.message)?;
        st.serialize_field("help", &self.help)?;
        st.serialize_field("related", &self.related)?;
        st.end()
    }
}

/// Limits on the output of [`lint_with`].
///
/// A binary file or a huge generated one could otherwise produce one
/// diagnostic per line. Past a limit, diagnostics are counted, not kept,
/// and one [`Code::TooManyDiagnostics`] says how many were left out.
#[derive(Clone, Debug, Eq, PartialEq)]
#[non_exhaustive]
pub struct Options {
    /// The most diagnostics kept for one code (100 by default).
    pub max_per_code: usize,
    /// The most diagnostics kept in all (1,000 by default).
    pub max_total: usize,
    /// The body is what a fetch read of a longer file: its first
    /// [`FETCH_LIMIT`](robotrules::FETCH_LIMIT) bytes (false by default).
    /// [`Code::TooLarge`] is then reported on its last line, as it is on a
    /// whole file over the limit.
    pub cut_by_fetch: bool,
    /// The site the file is the robots.txt of (`https://example.com`, a
    /// port if any), when known: its rules govern only that site (RFC
    /// 9309 §2.3), so [`Code::SitemapDisallowed`] judges only sitemaps
    /// there. `None` (the default): each sitemap is judged, and the
    /// message says on which site's terms.
    pub site: Option<String>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            max_per_code: 100,
            max_total: 1000,
            cut_by_fetch: false,
            site: None,
        }
    }
}

/// Checks a robots.txt body and returns its diagnostics, sorted by line,
/// with the default [`Options`].
///
/// The body is parsed with [`Robots::parse`]; use [`lint_robots`] to reuse
/// a parsed file.
///
/// # Example
///
/// ```
/// use robotrules_analysis::{lint, Code, Severity};
///
/// let found = lint(b"User-agent: *\nDissalow: /x\nDisallow: https://example.com/y\n");
/// let codes: Vec<_> = found.iter().map(|d| (d.code.id(), d.line)).collect();
/// assert_eq!(codes, [("RT102", 2), ("RT106", 3)]);
/// assert_eq!(found[1].severity, Severity::Error);
/// assert_eq!(found[1].column, 11);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn lint(body: &[u8]) -> Vec<Diagnostic> {
    lint_with(&Robots::parse(body), body, &Options::default())
}

/// Like [`lint`](fn@crate::lint), for a body already parsed into `robots`.
pub fn lint_robots(robots: &Robots, body: &[u8]) -> Vec<Diagnostic> {
    lint_with(robots, body, &Options::default())
}

/// Checks `body`, parsed into `robots`, with the given limits.
///
/// `robots` must be `Robots::parse(body)`. Time is linear in the size of
/// the file (or n log n); the number of diagnostics is at most
/// `options.max_total` plus one. The two checks that compare rules with
/// each other by matching, [`Code::GlobalRulesDropped`] and
/// [`Code::EqualPriority`], do so within fixed work budgets (4,000,000 and
/// 200,000 comparisons): on real files they never run out; on hostile
/// ones they report less rather than take quadratic time.
pub fn lint_with(
    robots: &Robots,
    body: &[u8],
    options: &Options,
) -> Vec<Diagnostic> {
    let mut ctx = Ctx::new(robots, body, options);
    checks::run(&mut ctx);
    ctx.finish()
}

/// What the checks share: the file, its lines, and the output.
pub(crate) struct Ctx<'a> {
    pub(crate) robots: &'a Robots,
    pub(crate) lines: Lines<'a>,
    /// The file is an HTML page or binary data (RT005, RT006).
    pub(crate) not_text: bool,
    /// See `Options::cut_by_fetch`.
    pub(crate) cut_by_fetch: bool,
    /// See `Options::site`: its origin, as [`checks::sitemaps::origin`]
    /// gives it.
    pub(crate) site: Option<String>,
    out: Vec<Diagnostic>,
    per_code: HashMap<Code, usize>,
    suppressed: HashMap<Code, usize>,
    max_per_code: usize,
    max_total: usize,
}

impl<'a> Ctx<'a> {
    fn new(robots: &'a Robots, body: &'a [u8], options: &Options) -> Self {
        Ctx {
            robots,
            lines: Lines::new(body),
            not_text: false,
            cut_by_fetch: options.cut_by_fetch,
            site: options.site.as_deref().and_then(checks::sitemaps::origin),
            out: Vec::new(),
            per_code: HashMap::new(),
            suppressed: HashMap::new(),
            max_per_code: options.max_per_code,
            max_total: options.max_total,
        }
    }

    pub(crate) fn body(&self) -> &'a [u8] {
        self.lines.body()
    }

    /// Reports `code` on `line` at `span` (bytes of the raw line), with
    /// the code's own severity. The text is built only if the diagnostic
    /// is kept.
    pub(crate) fn report(
        &mut self,
        code: Code,
        line: u32,
        span: Range<usize>,
        text: impl FnOnce() -> (String, Option<String>),
    ) -> Option<&mut Diagnostic> {
        self.report_as(code, code.severity(), line, span, text)
    }

    /// Like [`Ctx::report`], with another severity.
    pub(crate) fn report_as(
        &mut self,
        code: Code,
        severity: Severity,
        line: u32,
        span: Range<usize>,
        text: impl FnOnce() -> (String, Option<String>),
    ) -> Option<&mut Diagnostic> {
        let count = self.per_code.entry(code).or_default();
        if *count >= self.max_per_code || self.out.len() >= self.max_total {
            *self.suppressed.entry(code).or_default() += 1;
            return None;
        }
        *count += 1;
        let (message, help) = text();
        let start = self.lines.start(line);
        let len = self.lines.get(line).len();
        let span =
            span.start.min(len)..span.end.min(len).max(span.start.min(len));
        self.out.push(Diagnostic {
            code,
            severity,
            line,
            column: span.start + 1,
            span: start + span.start..start + span.end,
            message,
            help,
            related: Vec::new(),
        });
        self.out.last_mut()
    }

    /// The whole raw line, up to the length cap.
    pub(crate) fn whole(&self, line: u32) -> Range<usize> {
        0..self.lines.get(line).len().min(robotrules::MAX_LINE_LEN)
    }

    /// The key of the line, or the whole line.
    pub(crate) fn key(&self, line: u32) -> Range<usize> {
        fields(self.lines.get(line))
            .map_or_else(|| self.whole(line), |s| s.key)
    }

    /// The value of the line, or the whole line.
    pub(crate) fn value(&self, line: u32) -> Range<usize> {
        fields(self.lines.get(line))
            .map_or_else(|| self.whole(line), |s| s.value)
    }

    /// The bytes of `span` in `line`.
    pub(crate) fn slice(&self, line: u32, span: Range<usize>) -> &'a [u8] {
        self.lines.get(line).get(span).unwrap_or_default()
    }

    fn finish(mut self) -> Vec<Diagnostic> {
        self.out.sort_by_key(|d| (d.line, d.span.start, d.code));
        self.out.dedup_by(|a, b| a.code == b.code && a.line == b.line);
        let total: usize = self.suppressed.values().sum();
        if total > 0 {
            let mut by_code: Vec<_> = self.suppressed.into_iter().collect();
            by_code.sort();
            let list: Vec<String> = by_code
                .iter()
                .map(|(c, n)| format!("{} {n}", c.id()))
                .collect();
            let last = self.out.last().map_or(1, |d| d.line);
            let start = self.lines.start(last);
            self.out.push(Diagnostic {
                code: Code::TooManyDiagnostics,
                severity: Code::TooManyDiagnostics.severity(),
                line: last,
                column: 1,
                span: start..start,
                message: format!(
                    "{total} more diagnostics were left out ({})",
                    list.join(", ")
                ),
                help: Some(Code::TooManyDiagnostics.help().into()),
                related: Vec::new(),
            });
        }
        self.out
    }
}

/// Where the key and the value of a line are, in the raw line.
pub(crate) struct Fields {
    pub(crate) key: Range<usize>,
    pub(crate) value: Range<usize>,
}

/// Finds the key and the value the way the parser does (comment cut,
/// whitespace trimmed, first colon or the missing-colon rule).
pub(crate) fn fields(raw: &[u8]) -> Option<Fields> {
    let raw = &raw[..raw.len().min(robotrules::MAX_LINE_LEN)];
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
    Some(Fields {
        key: start..key_end,
        value: value_start..stop.max(value_start),
    })
}

/// The (code id, line) pairs that `lint` finds in `body`.
#[cfg(test)]
pub(crate) fn found(body: &[u8]) -> Vec<(&'static str, u32)> {
    lint(body).iter().map(|d| (d.code.id(), d.line)).collect()
}

/// Asserts that `body` has `code` on `line`, or, with `line` 0, nowhere.
#[cfg(test)]
macro_rules! lints {
    ($body:expr, $code:literal @ none) => {{
        let found = $crate::lint::found($body);
        assert!(
            !found.iter().any(|(c, _)| *c == $code),
            "{} unexpected: {:?}",
            $code,
            found
        );
    }};
    ($body:expr, $code:literal @ $line:expr) => {{
        let found = $crate::lint::found($body);
        assert!(
            found.contains(&($code, $line)),
            "{} at line {}: {:?}",
            $code,
            $line,
            found
        );
    }};
}
#[cfg(test)]
pub(crate) use lints;

#[cfg(test)]
mod tests {
    use super::*;

    macro_rules! limited {
        ($body:expr, $per:expr, $total:expr, $kept:expr) => {{
            let mut o = Options::default();
            o.max_per_code = $per;
            o.max_total = $total;
            let body: &[u8] = $body;
            let d = lint_with(&Robots::parse(body), body, &o);
            assert_eq!(d.len(), $kept, "{d:?}");
        }};
    }

    #[test]
    fn limits() {
        let many = "foo: bar\n".repeat(50);
        limited!(many.as_bytes(), 100, 1000, 50);
        limited!(many.as_bytes(), 10, 1000, 11);
        limited!(many.as_bytes(), 100, 5, 6);
        let d = lint_with(
            &Robots::parse(many.as_bytes()),
            many.as_bytes(),
            &Options { max_per_code: 10, ..Options::default() },
        );
        let last = d.last().unwrap();
        assert_eq!(last.code, Code::TooManyDiagnostics);
        assert_eq!(
            last.message,
            "40 more diagnostics were left out (RT101 40)"
        );
    }

    #[test]
    fn another_body_does_not_panic() {
        let robots = Robots::parse(
            "User-agent: a\nDisallow: /x*\nSitemap: /s\n".repeat(9).as_bytes(),
        );
        let d = lint_with(&robots, b"x", &Options::default());
        assert!(d.iter().all(|d| d.span.end <= 1));
        let e = crate::explain(&robots, b"", &["a"], "/x");
        assert_eq!(e.rule_text.map(|q| q.text), Some(String::new()));
    }

    #[test]
    fn spans_and_columns() {
        let d = lint(b"User-agent: *\r\nDisallow:  https://e.com/x\r\n");
        let rt106 = d.iter().find(|d| d.code == Code::UrlAsPath).unwrap();
        assert_eq!((rt106.line, rt106.column), (2, 12));
        assert_eq!(rt106.span, 26..41);
    }
}
