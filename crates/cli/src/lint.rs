//! `robotrules lint`: compiler-style diagnostics for a robots.txt.

use std::io::{self, BufWriter, Write};
use std::ops::Range;

use codespan_reporting::diagnostic::{
    Diagnostic as Report, Label, Severity as Level,
};
use codespan_reporting::files::{self, Files};
use codespan_reporting::term::{self, Config};
use robotrules::Robots;
use robotrules_analysis::{escape, lint_with, Diagnostic, Options, Severity};

use crate::input;
use crate::Outcome;

/// Reports what is wrong or risky in a robots.txt.
///
/// Diagnostics come with a stable code, the line and column, and a help
/// line, like a compiler's. Exits 1 if any error is found, or if a fetched
/// robots.txt is unreachable (crawlers may then fetch nothing); 0 if not;
/// 2 if the file cannot be read.
#[derive(clap::Args)]
pub struct Args {
    /// Print one JSON object per diagnostic, one per line.
    #[arg(long)]
    json: bool,
    /// `text` (source lines underlined) or `json` (as --json).
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// The robots.txt: a file, `-` for standard input, or an http(s) or
    /// ftp URL.
    #[arg(value_name = "ROBOTS")]
    robots: String,
}

#[derive(Clone, Copy, PartialEq, clap::ValueEnum)]
enum Format {
    Text,
    Json,
}

pub fn run(args: Args) -> anyhow::Result<Outcome> {
    let loaded = input::load(&args.robots)?;
    let effective = loaded.effective(&args.robots);
    if let (Some(remote), Some(forced)) = (effective.remote, effective.forced)
    {
        // No file to lint; what the fetch came to is what matters, and an
        // unreachable robots.txt blocks the whole site.
        // The note is on standard error already; JSON lines hold
        // diagnostics only, and there are none.
        if !forced {
            crate::found_disallowed();
        }
        if !(args.json || args.format == Format::Json) {
            writeln!(
                io::stdout().lock(),
                "{}: nothing to lint: {}",
                escape(&args.robots),
                remote.summary()
            )?;
        }
        return Ok(if forced {
            Outcome::Allowed
        } else {
            Outcome::Disallowed
        });
    }
    let body = effective.body;
    let robots = Robots::parse(body);
    let mut options = Options::default();
    options.cut_by_fetch = effective.remote.is_some_and(|r| r.fetch.truncated);
    // A fetched file governs its own site only.
    options.site = effective.remote.map(|r| r.fetch.authority.to_string());
    let diagnostics = lint_with(&robots, body, &options);
    let errors = diagnostics.iter().any(|d| d.severity == Severity::Error);
    if errors {
        crate::found_disallowed();
    }
    let mut out = BufWriter::new(io::stdout().lock());
    if args.json || args.format == Format::Json {
        for d in &diagnostics {
            serde_json::to_writer(&mut out, d)?;
            writeln!(out)?;
        }
    } else {
        write!(out, "{}", render(&args.robots, body, &diagnostics))?;
    }
    out.flush()?;
    Ok(if errors { Outcome::Disallowed } else { Outcome::Allowed })
}

/// A line as shown: the part the parser keeps, as text, controls escaped.
fn shown(raw: &[u8]) -> String {
    let kept = &raw[..raw.len().min(robotrules::MAX_LINE_LEN)];
    escape(&String::from_utf8_lossy(kept)).into_owned()
}

/// One line of the file, as codespan sees it: its own source, numbered
/// as in the file. Rendering needs only the lines diagnostics are on, so
/// it costs their length, not the file's.
struct OneLine<'a> {
    name: &'a str,
    text: String,
    number: usize,
    /// The diagnostic's column, as `--json` gives it (bytes of the line
    /// in the file, from 1), shown in `file:line:column` whatever the
    /// escapes and multi-byte characters of the text shown.
    column: usize,
}

impl<'a> Files<'a> for OneLine<'a> {
    type FileId = ();
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, (): ()) -> Result<&'a str, files::Error> {
        Ok(self.name)
    }

    fn source(&'a self, (): ()) -> Result<&'a str, files::Error> {
        Ok(&self.text)
    }

    fn line_index(&'a self, (): (), _: usize) -> Result<usize, files::Error> {
        Ok(0)
    }

    fn line_number(&'a self, (): (), _: usize) -> Result<usize, files::Error> {
        Ok(self.number)
    }

    fn column_number(
        &'a self,
        (): (),
        _: usize,
        _: usize,
    ) -> Result<usize, files::Error> {
        Ok(self.column)
    }

    fn line_range(
        &'a self,
        (): (),
        index: usize,
    ) -> Result<Range<usize>, files::Error> {
        match index {
            0 => Ok(0..self.text.len()),
            _ => Err(files::Error::LineTooLarge { given: index, max: 0 }),
        }
    }
}

/// Renders diagnostics with the source lines underlined.
fn render(name: &str, body: &[u8], diagnostics: &[Diagnostic]) -> String {
    let name = escape(name);
    let config = Config::default();
    let mut s = String::new();
    for d in diagnostics {
        // The line starts `column - 1` bytes before the span.
        let start = d.span.start - (d.column - 1);
        let rest = &body[start.min(body.len())..];
        let end = rest
            .iter()
            .position(|&b| b == b'\n' || b == b'\r')
            .unwrap_or(rest.len());
        let raw_line = &rest[..end];
        let mut text = shown(raw_line);
        let width = text.len();
        text.push('\n');
        let map = |offset: usize| {
            let offset = offset.min(raw_line.len());
            shown(&raw_line[..offset]).len().min(width)
        };
        let from = d.column - 1;
        let range = map(from)..map(from + d.span.len());
        let file = OneLine {
            name: &name,
            text,
            number: d.line as usize,
            column: d.column,
        };
        let level = match d.severity {
            Severity::Error => Level::Error,
            Severity::Warning => Level::Warning,
            _ => Level::Note,
        };
        let mut report = Report::new(level)
            .with_code(d.code.to_string())
            .with_message(&d.message)
            .with_labels(vec![Label::primary((), range)]);
        if let Some(help) = &d.help {
            report = report.with_notes(vec![format!("help: {help}")]);
        }
        match term::emit_into_string(&config, &file, &report) {
            Ok(rendered) => s.push_str(&rendered),
            Err(_) => {
                s.push_str(&format!("{}:{}: {}\n", name, d.line, d.message))
            }
        }
    }
    let count = |level, word: &str| {
        let n = diagnostics.iter().filter(|d| d.severity == level).count();
        format!("{n} {word}{}", if n == 1 { "" } else { "s" })
    };
    s.push_str(&format!(
        "{name}: {}, {}, {}\n",
        count(Severity::Error, "error"),
        count(Severity::Warning, "warning"),
        count(Severity::Info, "note")
    ));
    s
}
