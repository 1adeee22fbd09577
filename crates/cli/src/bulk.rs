//! `robotrules bulk`: robots.txt captures (Common Crawl WARC files, JSON
//! lines, plain files) to a table of sites and verdicts, with summaries.

use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use anyhow::{bail, Context};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use robotrules_analysis::Catalogue;
use robotrules_bulk::summary::{self, Summary};
use robotrules_bulk::{capture, write, Job, Options, Phase, Problem};

use crate::audit::load_catalogue;
use crate::Outcome;

/// Reads robots.txt captures in bulk and writes one row per site and
/// crawl, with every crawler's site-level verdict.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand)]
enum Command {
    Run(Run),
    Compare(Compare),
}

/// Reads captures and writes the table (Parquet, CSV or JSON lines) and a
/// summary per crawl.
#[derive(clap::Args)]
struct Run {
    /// WARC or WARC.gz files, JSON lines files (`.jsonl`), plain
    /// robots.txt files, directories of them, or lists of paths
    /// (`*.paths`, `*.list`, `*.paths.gz` such as Common Crawl's
    /// `robotstxt.paths.gz`).
    #[arg(value_name = "INPUT", required = true)]
    inputs: Vec<PathBuf>,
    /// The table to write: `.parquet`, `.csv` or `.jsonl` (or `-` for
    /// JSON lines on standard output); with `--partition-by crawl`, a
    /// directory.
    #[arg(short, long, value_name = "FILE")]
    output: PathBuf,
    /// Write a directory partitioned by crawl, as Spark does (and the
    /// Spark job of the Python package): `OUTPUT/crawl=NAME/part-00000.parquet`,
    /// every column but `crawl` in the files.
    #[arg(long, value_name = "COLUMN", value_parser = ["crawl"])]
    partition_by: Option<String>,
    /// The format of a partitioned table (by default Parquet).
    #[arg(long, value_name = "FORMAT", value_parser = ["parquet", "csv", "jsonl"])]
    format: Option<String>,
    /// Judge only these crawlers (comma-separated product tokens).
    #[arg(long, value_delimiter = ',', value_name = "TOKENS")]
    agents: Vec<String>,
    /// Judge the crawlers of this catalogue (TOML, or JSON for `.json`)
    /// instead of the built-in one.
    #[arg(long, value_name = "FILE")]
    catalogue: Option<PathBuf>,
    /// The crawl of every capture (by default from each WARC file's
    /// `warcinfo` record or a `CC-MAIN-…` part of its path).
    #[arg(long, value_name = "NAME")]
    crawl: Option<String>,
    /// Also lint every file (the `lint_errors` and `lint_warnings`
    /// columns; slower).
    #[arg(long)]
    lint: bool,
    /// Threads (default: one per core; at most 1024).
    #[arg(long, default_value_t = 0, value_parser = thread_count)]
    threads: usize,
    /// Write the summary as JSON (for `robotrules bulk compare`).
    #[arg(long, value_name = "FILE")]
    summary: Option<PathBuf>,
    /// Write the summary as an SVG bar chart (a file name ending in
    /// `.svg`).
    #[arg(long, value_name = "FILE", value_parser = svg_file)]
    chart: Option<PathBuf>,
    /// Write every problem found in the input as JSON lines.
    #[arg(long, value_name = "FILE")]
    problems: Option<PathBuf>,
    /// No progress bar.
    #[arg(short, long)]
    quiet: bool,
}

/// Compares two crawls: the change per crawler of the share of sites that
/// block it.
#[derive(clap::Args)]
struct Compare {
    /// The older crawl's summary (`--summary` of `bulk run`).
    #[arg(value_name = "OLD")]
    old: PathBuf,
    /// The newer crawl's summary; without it, OLD holds both crawls.
    #[arg(value_name = "NEW")]
    new: Option<PathBuf>,
    /// The two crawls to compare, older first, when the summaries hold
    /// more than two.
    #[arg(long, value_name = "OLD,NEW", value_parser = two_crawls)]
    crawls: Option<(String, String)>,
    /// Write both crawls as an SVG bar chart (a file name ending in
    /// `.svg`).
    #[arg(long, value_name = "FILE", value_parser = svg_file)]
    chart: Option<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<Outcome> {
    match args.command {
        Command::Run(r) => bulk(r),
        Command::Compare(c) => compare(c),
    }
}

fn catalogue(r: &Run) -> anyhow::Result<Catalogue> {
    let full = load_catalogue(r.catalogue.as_ref())?;
    robotrules_bulk::dist::agents(full, &r.agents).context("invalid --agents")
}

/// A progress bar: bytes read, captures per second, time left.
struct Bar {
    bar: ProgressBar,
    captures: AtomicU64,
    problems: AtomicU64,
    start: Instant,
}

/// Problems printed as they are found; the rest are counted.
const SHOWN: u64 = 20;

impl robotrules_bulk::Progress for Bar {
    fn start(&self, phase: Phase, bytes: u64) {
        self.bar.reset();
        self.bar.set_length(bytes);
        self.bar.set_prefix(match phase {
            Phase::Index => "1/2 index",
            _ => "2/2 rows ",
        });
        self.captures.store(0, Ordering::Relaxed);
    }

    fn advance(&self, captures: u64, bytes: u64) {
        let n =
            self.captures.fetch_add(captures, Ordering::Relaxed) + captures;
        let secs = self.bar.elapsed().as_secs_f64().max(1e-3);
        self.bar
            .set_message(format!("{n} captures, {:.0}/s", n as f64 / secs));
        self.bar.inc(bytes);
    }

    fn problem(&self, problem: &Problem) {
        let n = self.problems.fetch_add(1, Ordering::Relaxed);
        if n < SHOWN {
            self.bar.suspend(|| eprintln!("robotrules: warning: {problem}"));
        }
    }
}

fn bulk(r: Run) -> anyhow::Result<Outcome> {
    let mut options = Options::new(catalogue(&r)?);
    options.lint = r.lint;
    let sources =
        capture::expand(&r.inputs).context("failed to list the inputs")?;
    if sources.is_empty() {
        bail!("no input files");
    }
    if r.partition_by.is_some() && r.output.as_os_str() == "-" {
        bail!(
            "--partition-by writes a directory: name it with --output \
             (`-` is JSON lines on standard output)"
        );
    }
    check_outputs(&r, &sources)?;
    let job =
        Job::new(sources, options).crawl(r.crawl.clone()).threads(r.threads);
    let schema = job.schema();
    let sink = if r.partition_by.is_some() {
        let format = match r.format.as_deref() {
            Some("csv") => write::Format::Csv,
            Some("jsonl") => write::Format::JsonLines,
            _ => write::Format::Parquet,
        };
        write::partitioned(&r.output, format, &schema).with_context(|| {
            format!("failed to create \"{}\"", r.output.display())
        })?
    } else if r.format.is_some() {
        bail!("--format is for --partition-by: name the file .parquet, .csv or .jsonl");
    } else if r.output.as_os_str() == "-" {
        write::to_writer(
            Box::new(io::stdout()),
            write::Format::JsonLines,
            &schema,
        )?
    } else {
        let format = write::Format::of(&r.output).with_context(|| {
            format!(
                "unknown output format \"{}\": name it .parquet, .csv or .jsonl",
                r.output.display()
            )
        })?;
        write::create(&r.output, format, &schema).with_context(|| {
            format!("failed to create \"{}\"", r.output.display())
        })?
    };
    let bar =
        ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    if r.quiet {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    }
    bar.set_style(
        ProgressStyle::with_template(
            "{prefix} [{bar:30}] {bytes}/{total_bytes} {msg} (ETA {eta})",
        )?
        .progress_chars("=> "),
    );
    let progress = Bar {
        bar,
        captures: AtomicU64::new(0),
        problems: AtomicU64::new(0),
        start: Instant::now(),
    };
    let report =
        job.run(sink, &progress).context("failed to write the table")?;
    progress.bar.finish_and_clear();
    let secs = progress.start.elapsed().as_secs_f64();

    let failed =
        |path: &PathBuf| format!("failed to write \"{}\"", path.display());
    if let Some(path) = &r.problems {
        let file =
            std::fs::File::create(path).with_context(|| failed(path))?;
        let mut out = io::BufWriter::new(file);
        for p in &report.problems {
            serde_json::to_writer(
                &mut out,
                &serde_json::json!({
                    "file": p.file, "offset": p.offset,
                    "kind": p.kind.as_str(), "detail": p.detail,
                }),
            )?;
            writeln!(out).with_context(|| failed(path))?;
        }
        out.flush().with_context(|| failed(path))?;
    }
    if let Some(path) = &r.summary {
        std::fs::write(path, serde_json::to_string_pretty(&report.summary)?)
            .with_context(|| failed(path))?;
    }
    if let Some(path) = &r.chart {
        std::fs::write(path, report.summary.svg())
            .with_context(|| failed(path))?;
    }
    let mut err = io::stderr().lock();
    let hidden = report.problems.len() as u64
        - report.problems.len().min(SHOWN as usize) as u64;
    if hidden > 0 {
        let to = if r.problems.is_some() {
            "written with --problems"
        } else {
            "list them with --problems FILE"
        };
        writeln!(err, "robotrules: {hidden} more problems not shown ({to})")?;
    }
    writeln!(
        err,
        "robotrules: {} captures, {} sites, {} problems in {secs:.1}s ({:.0} captures/s)",
        report.captures,
        report.rows,
        report.problems.len(),
        report.captures as f64 / secs.max(1e-9)
    )?;
    if r.output.as_os_str() != "-" {
        let mut out = io::stdout().lock();
        write!(out, "{}", report.summary.table())?;
        out.flush()?;
    }
    Ok(Outcome::Allowed)
}

/// The most threads `--threads` takes: more only cost memory and time.
const MAX_THREADS: usize = 1024;

/// `--threads`: 0 (one per core) to [`MAX_THREADS`].
fn thread_count(value: &str) -> Result<usize, String> {
    match value.parse::<usize>() {
        Ok(n) if n <= MAX_THREADS => Ok(n),
        _ => Err(format!("give 0 (one per core) to {MAX_THREADS} threads")),
    }
}

/// Refuses outputs that would overwrite an input (or, for a partitioned
/// table, hold one), that name one file twice, or whose directory does
/// not exist, before the job runs: the job reads its inputs after it
/// has created its outputs, and writes the summary, the chart and the
/// problems only at its end.
fn check_outputs(r: &Run, sources: &[capture::Source]) -> anyhow::Result<()> {
    let partitioned = r.partition_by.is_some();
    let mut outputs: Vec<(&str, &PathBuf)> = Vec::new();
    if r.output.as_os_str() != "-" {
        outputs.push(("--output", &r.output));
    }
    for (flag, path) in [
        ("--summary", &r.summary),
        ("--chart", &r.chart),
        ("--problems", &r.problems),
    ] {
        if let Some(path) = path {
            outputs.push((flag, path));
        }
    }
    let inputs: Vec<PathBuf> = r
        .inputs
        .iter()
        .chain(sources.iter().map(|s| &s.path))
        .filter_map(|p| p.canonicalize().ok())
        .collect();
    // The partitioned table's directory, which the job makes.
    let table_dir = partitioned.then(|| resolved(&r.output));
    let mut seen: Vec<(&str, PathBuf)> = Vec::new();
    for (flag, path) in outputs {
        let dir = partitioned && flag == "--output";
        let out = resolved(path);
        if !dir {
            match path.parent() {
                Some(parent)
                    if !parent.as_os_str().is_empty()
                        && !parent.is_dir()
                        && !table_dir.as_ref().is_some_and(|t| {
                            resolved(parent).starts_with(t)
                        }) =>
                {
                    bail!(
                        "no directory \"{}\" to write {flag} \"{}\" in",
                        parent.display(),
                        path.display()
                    )
                }
                _ => {}
            }
        }
        let overwritten = |input: &PathBuf| {
            *input == out || (dir && input.starts_with(&out))
        };
        if inputs.iter().any(overwritten) {
            bail!(
                "{flag} \"{}\" is {} an input: writing it would destroy what \
                 is read",
                path.display(),
                if dir { "or holds" } else { "also" }
            );
        }
        if let Some((other, _)) = seen.iter().find(|(_, p)| *p == out) {
            bail!(
                "{other} and {flag} name the same file \"{}\"",
                path.display()
            );
        }
        seen.push((flag, out));
    }
    Ok(())
}

/// `path` as the file system finds it: symbolic links followed and `..`
/// resolved, as far as it exists (a file not made yet, in a directory
/// that is; or, where even that is not, its absolute path with `.` and
/// `..` taken out as written).
fn resolved(path: &std::path::Path) -> PathBuf {
    resolved_within(path, 8)
}

/// [`resolved`], following at most `links` links to files not made yet.
fn resolved_within(path: &std::path::Path, links: usize) -> PathBuf {
    if let Ok(found) = path.canonicalize() {
        return found;
    }
    // A link to a file not made yet: where the file will be.
    if links > 0 {
        if let Ok(target) = std::fs::read_link(path) {
            let base = path.parent().unwrap_or(std::path::Path::new("."));
            return resolved_within(&base.join(target), links - 1);
        }
    }
    if let (Some(parent), Some(name)) = (path.parent(), path.file_name()) {
        let parent = if parent.as_os_str().is_empty() {
            std::path::Path::new(".")
        } else {
            parent
        };
        if let Ok(dir) = parent.canonicalize() {
            return dir.join(name);
        }
    }
    let absolute = std::path::absolute(path).unwrap_or(path.to_path_buf());
    let mut out = PathBuf::new();
    for part in absolute.components() {
        match part {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// `--crawls OLD,NEW`.
fn two_crawls(value: &str) -> Result<(String, String), String> {
    match value.split_once(',') {
        Some((a, b)) if !a.is_empty() && !b.is_empty() && !b.contains(',') => {
            Ok((a.to_string(), b.to_string()))
        }
        _ => Err("give two crawls, older first: OLD,NEW".to_string()),
    }
}

/// A chart's file: SVG is the one format written, so a name that says
/// otherwise (`chart.png`) is refused before the job runs.
fn svg_file(value: &str) -> Result<PathBuf, String> {
    let path = PathBuf::from(value);
    match path.extension() {
        Some(ext) if ext.eq_ignore_ascii_case("svg") => Ok(path),
        _ => Err("the chart is written as SVG: name its file .svg".into()),
    }
}

fn read_summary(path: &PathBuf) -> anyhow::Result<Summary> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("failed to read \"{}\"", path.display()))?;
    serde_json::from_str(&text)
        .with_context(|| format!("\"{}\" is not a summary", path.display()))
}

fn compare(c: Compare) -> anyhow::Result<Outcome> {
    let old = read_summary(&c.old)?;
    let new = c.new.as_ref().map(read_summary).transpose()?;
    // The older crawl from OLD, the newer from NEW (or OLD).
    let later = new.as_ref().unwrap_or(&old);
    let names = |s: &Summary| match &s.crawls[..] {
        [] => "no crawl".to_string(),
        crawls => crawls
            .iter()
            .map(|c| format!("{:?}", c.crawl))
            .collect::<Vec<_>>()
            .join(", "),
    };
    let (a, b) = match &c.crawls {
        Some((a, b)) => {
            let pick = |s: &Summary, name: &str, path: &PathBuf| {
                s.crawl(name).cloned().with_context(|| {
                    format!(
                        "\"{}\" holds no crawl {name:?} (it holds {})",
                        path.display(),
                        names(s)
                    )
                })
            };
            let new_path = c.new.as_ref().unwrap_or(&c.old);
            (pick(&old, a, &c.old)?, pick(later, b, new_path)?)
        }
        None => match (&old.crawls[..], &new) {
            (_, Some(new))
                if old.crawls.is_empty() || new.crawls.is_empty() =>
            {
                let empty = if old.crawls.is_empty() {
                    &c.old
                } else {
                    c.new.as_ref().unwrap_or(&c.old)
                };
                bail!(
                    "\"{}\" holds no crawl: its run read no capture",
                    empty.display()
                )
            }
            ([a], Some(new)) if new.crawls.len() == 1 => {
                (a.clone(), new.crawls[0].clone())
            }
            ([a, b], None) => (a.clone(), b.clone()),
            ([] | [_], None) => bail!(
                "\"{}\" holds {}: give NEW, the newer crawl's summary",
                c.old.display(),
                names(&old)
            ),
            _ => bail!(
                "give the two crawls to compare with --crawls OLD,NEW: the \
                 summaries hold {}",
                match &new {
                    Some(new) => format!("{} and {}", names(&old), names(new)),
                    None => names(&old),
                }
            ),
        },
    };
    let mut out = io::stdout().lock();
    write!(out, "{}", summary::compare(&a, &b))?;
    out.flush()?;
    if let Some(path) = &c.chart {
        std::fs::write(path, summary::chart(&[&a, &b])).with_context(
            || format!("failed to write \"{}\"", path.display()),
        )?;
    }
    Ok(Outcome::Allowed)
}
