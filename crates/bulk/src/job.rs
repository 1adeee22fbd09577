//! The whole job: index, resolve, evaluate, write; in parallel, with
//! bounded memory and a deterministic output.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::io;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Condvar, Mutex};

use rayon::prelude::*;

use crate::capture::{self, Capture, Source};
use crate::eval::{evaluate_body_why, stopped, Memo, Options};
use crate::problem::{Problem, ProblemKind};
use crate::row::{Row, Schema};
use crate::site::{site_of, Index, Kept, Origin};
use crate::summary::{Summary, Tally};
use crate::write::Sink;

/// Pass two's result for one file: its rows and problems (with the
/// file's index, for ordering).
type FileRows = (Vec<Row>, Vec<(usize, Problem)>);

/// The two passes of a job, for progress reports.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
#[non_exhaustive]
pub enum Phase {
    /// Pass one: every capture is read and indexed by URL.
    Index,
    /// Pass two: the chosen captures are read again, evaluated and
    /// written.
    Rows,
}

/// Hears how a job goes (a progress bar, a log). Every method has an
/// empty default.
pub trait Progress: Sync {
    /// A pass starts, over `bytes` bytes of input.
    fn start(&self, phase: Phase, bytes: u64) {
        let _ = (phase, bytes);
    }
    /// `captures` more captures were read, and `bytes` more bytes.
    fn advance(&self, captures: u64, bytes: u64) {
        let _ = (captures, bytes);
    }
    /// Damage was found (also in [`Report::problems`]).
    fn problem(&self, problem: &Problem) {
        let _ = problem;
    }
}

/// No progress reports.
impl Progress for () {}

/// What a job did.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct Report {
    /// Captures read (HTTP responses, JSON lines, plain files).
    pub captures: u64,
    /// Distinct URLs.
    pub urls: u64,
    /// Rows written: one per site and crawl.
    pub rows: u64,
    /// The damage found, ordered by file and offset.
    pub problems: Vec<Problem>,
    /// The summary of the rows.
    pub summary: Summary,
}

impl Report {
    /// How many problems of `kind` were found.
    pub fn count(&self, kind: ProblemKind) -> usize {
        self.problems.iter().filter(|p| p.kind == kind).count()
    }
}

/// How many files may be in pass two at once: made, or waiting to be
/// written. Bounds the rows held in memory.
struct Window {
    free: Mutex<usize>,
    freed: Condvar,
}

impl Window {
    fn new(size: usize) -> Window {
        Window { free: Mutex::new(size), freed: Condvar::new() }
    }

    /// Waits for a free place, and takes it.
    fn acquire(&self) {
        let mut free = self.free.lock().unwrap_or_else(|e| e.into_inner());
        while *free == 0 {
            free = self.freed.wait(free).unwrap_or_else(|e| e.into_inner());
        }
        *free -= 1;
    }

    /// Gives a place back.
    fn release(&self) {
        *self.free.lock().unwrap_or_else(|e| e.into_inner()) += 1;
        self.freed.notify_one();
    }
}

/// Opens the window for good when the writer stops, however it stops, so
/// that no file waits for it.
struct Opens<'a>(&'a Window);

impl Drop for Opens<'_> {
    fn drop(&mut self) {
        *self.0.free.lock().unwrap_or_else(|e| e.into_inner()) = usize::MAX;
        self.0.freed.notify_all();
    }
}

/// A bulk job over captures.
///
/// # Example
///
/// ```no_run
/// use robotrules_analysis::Catalogue;
/// use robotrules_bulk::{capture, write, Job, Options, Schema};
///
/// let sources = capture::expand(&["crawl/".into()])?;
/// let job = Job::new(sources, Options::new(Catalogue::builtin()));
/// let schema = job.schema();
/// let sink = write::create("sites.parquet".as_ref(), write::Format::Parquet, &schema)?;
/// let report = job.run(sink, &())?;
/// print!("{}", report.summary.table());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Job {
    sources: Vec<Source>,
    options: Options,
    crawl: Option<String>,
    threads: usize,
    keep: usize,
    memo: Memo,
}

/// How many bytes of evaluated captures pass one keeps by default: see
/// [`Job::keep`].
pub const KEEP: usize = 64 << 20;

impl Job {
    /// A job over `sources`, on every core.
    pub fn new(sources: Vec<Source>, options: Options) -> Job {
        Job {
            sources,
            options,
            crawl: None,
            threads: 0,
            keep: KEEP,
            memo: Memo::default(),
        }
    }

    /// Every capture belongs to `crawl` (by default the crawl of the WARC
    /// file's `warcinfo` record, or a `CC-MAIN-…` part of its path).
    pub fn crawl(mut self, crawl: Option<String>) -> Job {
        self.crawl = crawl;
        self
    }

    /// Uses `threads` threads (0: one per core).
    pub fn threads(mut self, threads: usize) -> Job {
        self.threads = threads;
        self
    }

    /// Keeps at most `bytes` of chosen captures in memory from pass one
    /// to pass two, which then reads only the others again (by default
    /// [`KEEP`], 64 MiB; 0 reads every one again). Pass one evaluates a
    /// capture as it reads it, if it is the chosen one of its URL so far
    /// and the budget allows, and keeps the capture without its body and
    /// with its evaluation (a few hundred bytes, and each distinct list
    /// of verdicts once); a capture that a later one of its URL replaces
    /// gives its bytes back. The output is the same whatever the budget.
    pub fn keep(mut self, bytes: usize) -> Job {
        self.keep = bytes;
        self
    }

    /// The schema of the rows.
    pub fn schema(&self) -> Schema {
        Schema::new(&self.options.catalogue)
    }

    /// Runs the job, writing the rows to `sink` in a fixed order (by input
    /// file, then offset, then URL), whatever the threads do.
    ///
    /// # Errors
    ///
    /// Writing to `sink` failed. Damage in the input is no error: it is
    /// in [`Report::problems`].
    pub fn run(
        &self,
        mut sink: Box<dyn Sink>,
        progress: &dyn Progress,
    ) -> io::Result<Report> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(self.threads)
            .build()
            .map_err(io::Error::other)?;
        let sizes: Vec<u64> = self
            .sources
            .iter()
            .map(|s| std::fs::metadata(&s.path).map(|m| m.len()).unwrap_or(0))
            .collect();
        let total: u64 = sizes.iter().sum();
        let crawl = self.crawl.as_deref();

        // Pass one: the index.
        progress.start(Phase::Index, total);
        let index = Index::keeping(self.keep);
        let problems = Mutex::new(Vec::new());
        let captures = AtomicU64::new(0);
        // Each source's crawls, where they begin: pass two gives a capture
        // read again the crawl pass one indexed it under (a source may
        // hold captures of several crawls: WARC files joined together,
        // JSON lines naming their own).
        let crawls: Vec<Mutex<Crawls>> =
            self.sources.iter().map(|_| Mutex::default()).collect();
        pool.install(|| {
            self.sources.par_iter().enumerate().for_each(|(i, source)| {
                let mut n = 0u64;
                let mut mine = Vec::new();
                let mut here = Crawls::default();
                // Whether the capture being read gets its body.
                let with_body = std::cell::Cell::new(false);
                capture::read_with(
                    source,
                    i as u32,
                    crawl,
                    &|| {
                        let room = index.has_room();
                        with_body.set(room);
                        room
                    },
                    &mut |item| match item {
                        Ok(c) => {
                            n += 1;
                            if n.is_multiple_of(1024) {
                                progress.advance(1024, 0);
                            }
                            here.note(c.pos, &c.crawl);
                            // Evaluated and kept only if read with its
                            // body (the budget may have freed up since),
                            // and only from WARC files, which are the
                            // costly ones to read again.
                            let whole = with_body.get()
                                && source.format == capture::Format::Warc;
                            if whole {
                                index.add_kept(c, |c| self.kept(c));
                            } else {
                                index.add(&c);
                            }
                        }
                        Err(p) => {
                            progress.problem(&p);
                            mine.push((i, p));
                        }
                    },
                );
                progress.advance(n % 1024, sizes[i]);
                captures.fetch_add(n, Ordering::Relaxed);
                *crawls[i].lock().unwrap_or_else(|e| e.into_inner()) = here;
                problems
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .extend(mine);
            })
        });
        let crawls: Vec<Crawls> = crawls
            .into_iter()
            .map(|c| c.into_inner().unwrap_or_else(|e| e.into_inner()))
            .collect();
        let urls = index.len() as u64;
        let mut plan = pool.install(|| index.resolve());

        // Pass two: the files' rows are made on the pool, at most `window`
        // files ahead of the writer, which runs beside it on its own
        // thread and writes them in file order.
        progress.start(Phase::Rows, total);
        let schema = self.schema();
        let window = pool.current_num_threads().max(1) * 4;
        let ahead = Window::new(window);
        let (tx, rx) = mpsc::channel::<(u32, FileRows)>();
        let stop = AtomicBool::new(false);
        let n = self.sources.len() as u32;
        let (written, rows) = std::thread::scope(|scope| {
            let writer = scope.spawn(|| {
                let _opens = Opens(&ahead);
                let mut tally = Tally::new(schema.tokens());
                let mut rows = 0u64;
                let mut waiting = BTreeMap::new();
                let mut next = 0u32;
                let mut failed = None;
                for (i, file) in rx {
                    waiting.insert(i, file);
                    while let Some((file_rows, file_problems)) =
                        waiting.remove(&next)
                    {
                        next += 1;
                        ahead.release();
                        if failed.is_some() {
                            continue;
                        }
                        for row in &file_rows {
                            if let Err(e) = sink.write(row) {
                                failed = Some(e);
                                stop.store(true, Ordering::Relaxed);
                                break;
                            }
                            tally.add(row);
                        }
                        rows += file_rows.len() as u64;
                        problems
                            .lock()
                            .unwrap_or_else(|e| e.into_inner())
                            .extend(file_problems);
                    }
                }
                let written = match failed {
                    Some(e) => Err(e),
                    // On the pool, idle by now: the last row group's
                    // columns are encoded in parallel.
                    None => pool.install(move || sink.finish()),
                };
                (written, (tally, rows))
            });
            pool.in_place_scope(|s| {
                for i in 0..n {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    ahead.acquire();
                    let todo = plan.take(i);
                    let kept = plan.take_kept(i);
                    let tx = tx.clone();
                    let crawls = &crawls;
                    let sizes = &sizes;
                    s.spawn(move |_| {
                        let crawl = &crawls[i as usize];
                        let out = std::panic::catch_unwind(
                            std::panic::AssertUnwindSafe(|| {
                                self.rows(i, crawl, todo, kept, progress)
                            }),
                        );
                        progress.advance(0, sizes[i as usize]);
                        // Sent even on a panic, so that the writer goes
                        // on (it receives until every sender is gone).
                        match out {
                            Ok(out) => {
                                let _ = tx.send((i, out));
                            }
                            Err(panic) => {
                                let _ = tx.send((i, FileRows::default()));
                                std::panic::resume_unwind(panic);
                            }
                        }
                    });
                }
            });
            drop(tx);
            writer.join().unwrap_or_else(|e| std::panic::resume_unwind(e))
        });
        written?;
        let (tally, rows) = rows;
        let mut problems =
            problems.into_inner().unwrap_or_else(|e| e.into_inner());
        problems.sort();
        Ok(Report {
            captures: captures.into_inner(),
            urls,
            rows,
            problems: problems.into_iter().map(|(_, p)| p).collect(),
            summary: tally.finish(),
        })
    }

    /// A capture of pass one, evaluated as it is read, to be kept for
    /// pass two.
    fn kept(&self, mut capture: Capture) -> Kept {
        let body = std::mem::take(&mut capture.body);
        let mut why = None;
        let eval = evaluate_body_why(
            &capture,
            Cow::Owned(body),
            &self.options,
            &self.memo,
            &mut why,
        );
        Kept { capture, eval, why }
    }

    /// Pass two for one source.
    pub(crate) fn rows(
        &self,
        source: u32,
        crawls: &Crawls,
        todo: Vec<(capture::Pos, Vec<Origin>)>,
        mut kept: crate::site::Map<capture::Pos, Box<Kept>>,
        progress: &dyn Progress,
    ) -> FileRows {
        let src = &self.sources[source as usize];
        let name = src.name();
        let mut rows = Vec::with_capacity(todo.len());
        let mut problems = Vec::new();
        let mut reader = capture::Rereader::new(src);
        let mut done = 0u64;
        for (pos, origins) in todo {
            let (mut capture, evaluated) = match kept.remove(&pos) {
                Some(k) => {
                    let Kept { capture, eval, why } = *k;
                    (capture, Some((eval, why)))
                }
                None => match reader.read_at(pos, crawls.at(pos)) {
                    Ok(c) => (c, None),
                    Err(p) => {
                        progress.problem(&p);
                        problems.push((source as usize, p));
                        continue;
                    }
                },
            };
            // Reported in batches: a progress bar costs a lock a call.
            done += 1;
            if done.is_multiple_of(256) {
                progress.advance(256, 0);
            }
            // The last site that needs the evaluation (its chain ends on
            // this capture) takes it; any before it take copies.
            let last = origins.iter().rposition(|o| {
                o.redirect.as_ref().is_none_or(|f| f.stop.is_none())
            });
            let mut why = None;
            let mut eval = match evaluated {
                Some((eval, w)) => last.is_some().then(|| {
                    why = w;
                    eval
                }),
                None => {
                    let body = std::mem::take(&mut capture.body);
                    last.is_some().then(|| {
                        evaluate_body_why(
                            &capture,
                            Cow::Owned(body),
                            &self.options,
                            &self.memo,
                            &mut why,
                        )
                    })
                }
            };
            if let Some(why) = why {
                let p = Problem {
                    file: name.clone(),
                    offset: pos.offset,
                    kind: ProblemKind::Encoding,
                    detail: format!("the body of {:?} {why}", capture.url),
                };
                progress.problem(&p);
                problems.push((source as usize, p));
            }
            let n = origins.len();
            let url = crate::site::normal(&capture.url).0;
            for (k, o) in origins.into_iter().enumerate() {
                let mut eval = || {
                    if Some(k) == last { eval.take() } else { eval.clone() }
                        .unwrap_or_else(|| {
                            unreachable!("evaluated when needed")
                        })
                };
                // The capture's strings are moved into the last row made
                // from it, copied into any before.
                let own = |s: &mut String| {
                    if k + 1 == n {
                        std::mem::take(s)
                    } else {
                        s.clone()
                    }
                };
                let row = match o.redirect {
                    // The URL as the index keys it, as a redirected
                    // site's is written: no user info, no fragment.
                    None => Row {
                        crawl: own(&mut capture.crawl),
                        site: site_of(&capture.url).unwrap_or_default(),
                        url: url.clone(),
                        captures: o.captures,
                        hops: 0,
                        redirect_stop: None,
                        final_url: url.clone(),
                        date: own(&mut capture.date),
                        file: name.clone(),
                        offset: pos.offset as i64,
                        eval: eval(),
                    },
                    Some(f) => Row {
                        crawl: f.crawl,
                        site: site_of(&f.url).unwrap_or_default(),
                        url: f.url,
                        captures: o.captures,
                        hops: f.hops,
                        redirect_stop: f.stop.map(str::to_string),
                        final_url: f.final_url,
                        date: own(&mut capture.date),
                        file: name.clone(),
                        offset: pos.offset as i64,
                        eval: match f.stop {
                            Some(stop) => stopped(
                                stop,
                                f.status,
                                &self.options.catalogue,
                            ),
                            None => eval(),
                        },
                    },
                };
                rows.push(row);
            }
        }
        progress.advance(done % 256, 0);
        (rows, problems)
    }
}

/// The crawls of one source's captures, each with the position of the
/// first capture read under it.
#[derive(Debug, Default)]
pub(crate) struct Crawls(Vec<(capture::Pos, String)>);

impl Crawls {
    /// The crawls where they begin, in file order.
    pub(crate) fn new(changes: Vec<(capture::Pos, String)>) -> Crawls {
        Crawls(changes)
    }

    /// The crawls where they begin.
    pub(crate) fn into_changes(self) -> Vec<(capture::Pos, String)> {
        self.0
    }

    /// Notes that the capture at `pos`, read after every one noted so
    /// far, belongs to `crawl`.
    pub(crate) fn note(&mut self, pos: capture::Pos, crawl: &str) {
        if self.0.last().is_none_or(|(_, c)| c != crawl) {
            self.0.push((pos, crawl.to_string()));
        }
    }

    /// The crawl of the capture at `pos`.
    pub(crate) fn at(&self, pos: capture::Pos) -> &str {
        let i = self.0.partition_point(|(p, _)| *p <= pos);
        i.checked_sub(1).map_or("", |i| self.0[i].1.as_str())
    }
}
