//! Captures: one fetch of a robots.txt URL, read from any input.
//!
//! | input | what is one capture |
//! |---|---|
//! | WARC, WARC.gz | a `response` record (the HTTP status line and headers inside its block) |
//! | JSON lines | a line `{"url", "status", "headers", "body"}` |
//! | a plain file | the file, served with status 200 |
//!
//! A capture is read twice by [`Job`](crate::Job): once for the index of
//! sites, once, found again by its [`Pos`], to be evaluated.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use crate::problem::{Problem, ProblemKind};
use crate::warc;

/// The input buffer of a file: large enough that few gzip members
/// straddle two fills.
const INPUT_BUFFER: usize = 256 << 10;

/// What kind of input a file is.
#[derive(Clone, Copy, Debug, Eq, Hash, PartialEq)]
#[non_exhaustive]
pub enum Format {
    /// A WARC file, plain or with a gzip member per record.
    Warc,
    /// JSON lines, one capture a line.
    JsonLines,
    /// One robots.txt file.
    Plain,
}

/// One input file.
#[derive(Clone, Debug, Eq, PartialEq)]
#[non_exhaustive]
pub struct Source {
    /// Where it is.
    pub path: PathBuf,
    /// What it holds.
    pub format: Format,
}

impl Source {
    /// A source of `format`.
    pub fn new(path: impl Into<PathBuf>, format: Format) -> Source {
        Source { path: path.into(), format }
    }

    /// The format of a file, from its name: `.warc` and `.warc.gz` are
    /// WARC, `.jsonl`, `.ndjson` and `.json` are JSON lines, anything else
    /// a plain robots.txt file.
    pub fn of(path: impl Into<PathBuf>) -> Source {
        let path = path.into();
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().to_ascii_lowercase())
            .unwrap_or_default();
        let format = if name.ends_with(".warc") || name.ends_with(".warc.gz") {
            Format::Warc
        } else if [".jsonl", ".ndjson", ".json"]
            .iter()
            .any(|e| name.ends_with(e))
        {
            Format::JsonLines
        } else {
            Format::Plain
        };
        Source { path, format }
    }

    /// The file's name as given, for rows and problems.
    pub fn name(&self) -> String {
        self.path.to_string_lossy().into_owned()
    }
}

/// Expands the inputs given on a command line into sources, in a fixed
/// order: a directory becomes its files (recursively, sorted by name); a
/// file named `*.paths` or `*.list` (or `*.paths.gz`, `*.list.gz`
/// compressed, as Common Crawl's `robotstxt.paths.gz`) lists one path a
/// line, relative to the list's directory (a file, a directory or another
/// list);
/// anything else is one file, its format from its name ([`Source::of`]).
/// A link to a directory is followed, except to a directory that the
/// walk is already inside (`sub/up -> ..`), whose files it is reading: no
/// endless walk.
///
/// # Errors
///
/// A directory or list that cannot be read. (A file that cannot be read,
/// or is not there, is the job's [`Problem`], reported with the others:
/// one missing file of thousands does not stop a long job.)
pub fn expand(inputs: &[PathBuf]) -> io::Result<Vec<Source>> {
    let mut out = Vec::new();
    for input in inputs {
        expand_one(input, &mut out, 0, &mut Vec::new())?;
    }
    Ok(out)
}

/// How deep lists may name lists (a list that names itself stops here).
const LIST_DEPTH: usize = 8;

fn expand_one(
    path: &Path,
    out: &mut Vec<Source>,
    lists: usize,
    inside: &mut Vec<PathBuf>,
) -> io::Result<()> {
    // (A path that does not resolve is taken as it is, and reported when
    // it is read.)
    let real = path.canonicalize().ok();
    if path.is_dir() {
        let real = real.unwrap_or_else(|| path.to_path_buf());
        if inside.contains(&real) {
            return Ok(());
        }
        let mut entries: Vec<PathBuf> = std::fs::read_dir(path)?
            .map(|e| e.map(|e| e.path()))
            .collect::<Result<_, _>>()?;
        entries.sort();
        inside.push(real);
        for entry in entries {
            expand_one(&entry, out, lists, inside)?;
        }
        inside.pop();
        return Ok(());
    }
    let name = path.to_string_lossy();
    let gz = name.ends_with(".paths.gz") || name.ends_with(".list.gz");
    if gz || name.ends_with(".paths") || name.ends_with(".list") {
        if lists == LIST_DEPTH {
            return Err(io::Error::other(format!(
                "\"{name}\": lists name lists more than {LIST_DEPTH} deep"
            )));
        }
        let base = path.parent().unwrap_or(Path::new(""));
        let text = if gz {
            let mut text = String::new();
            flate2::read::MultiGzDecoder::new(File::open(path)?)
                .read_to_string(&mut text)?;
            text
        } else {
            std::fs::read_to_string(path)?
        };
        for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
            let p = Path::new(line);
            let p =
                if p.is_absolute() { p.to_path_buf() } else { base.join(p) };
            // A list may name directories and lists as well as files.
            expand_one(&p, out, lists + 1, inside)?;
        }
        return Ok(());
    }
    // A link is read as what it links to: `latest -> crawl.warc.gz` is a
    // WARC file, whichever of the two names comes first.
    let format = Source::of(real.as_deref().unwrap_or(path)).format;
    out.push(Source { path: path.to_path_buf(), format });
    Ok(())
}

/// Where a capture is: its source (an index into the job's sources), the
/// byte offset of its gzip member, record or line, and its place in a
/// gzip member.
#[derive(
    Clone, Copy, Debug, Default, Eq, Hash, Ord, PartialEq, PartialOrd,
)]
#[non_exhaustive]
pub struct Pos {
    /// The index of the source.
    pub source: u32,
    /// The byte offset.
    pub offset: u64,
    /// The record's place in its gzip member.
    pub ordinal: u32,
}

/// One fetch of a robots.txt URL: where it was asked and what came back.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Capture {
    /// Where it is in the input.
    pub pos: Pos,
    /// The crawl it belongs to (`isPartOf` of the WARC file, a
    /// `CC-MAIN-…` part of the path, or the job's), empty if unknown.
    pub crawl: String,
    /// The URL asked (`WARC-Target-URI`).
    pub url: String,
    /// When (`WARC-Date`), empty if unknown.
    pub date: String,
    /// The HTTP status code, `None` if the record holds no HTTP response.
    pub status: Option<u16>,
    /// The `Location` header.
    pub location: Option<String>,
    /// The `Content-Encoding` header.
    pub encoding: Option<String>,
    /// True if and only if the body is sent in chunks (`Transfer-Encoding:
    /// chunked`, as WARC writers that keep the bytes sent store it).
    pub chunked: bool,
    /// The body as it came, before content decoding.
    pub body: Vec<u8>,
    /// True if and only if the body was cut: by the reader's limit, by
    /// the input's end, by the WARC writer (`WARC-Truncated`), or short of
    /// its `Content-Length`.
    pub cut: bool,
}

/// The HTTP response inside a `response` record: its status line and
/// headers go to `capture`; returns where its body starts in `block`, or
/// `None` if the block holds no HTTP response.
fn http(block: &[u8], capture: &mut Capture) -> Option<usize> {
    let mut rest = block;
    let mut first = true;
    let mut length = None;
    loop {
        // A head that the block ends without its blank line has no body.
        let (line, next) = match memchr(b'\n', rest) {
            Some(end) => (&rest[..end], &rest[end + 1..]),
            None if rest.is_empty() && !first => break,
            None => (rest, &rest[rest.len()..]),
        };
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        rest = next;
        if first {
            first = false;
            let mut parts =
                line.split(u8::is_ascii_whitespace).filter(|p| !p.is_empty());
            let version = parts.next().unwrap_or(b"");
            if !version.starts_with(b"HTTP/") {
                return None;
            }
            let code = parts.next().and_then(|c| std::str::from_utf8(c).ok());
            match code.and_then(|c| c.parse::<u16>().ok()) {
                Some(code) if (100..=999).contains(&code) => {
                    capture.status = Some(code)
                }
                _ => return None,
            }
            continue;
        }
        if line.is_empty() {
            // An interim (1xx) response's head, then the final one's: the
            // final response is the capture (RFC 9110 §15.2).
            let interim = capture.status.is_some_and(|c| c < 200);
            if interim && rest.starts_with(b"HTTP/") {
                first = true;
                length = None;
                capture.location = None;
                capture.encoding = None;
                capture.chunked = false;
                continue;
            }
            break;
        }
        let Some(colon) = memchr(b':', line) else { continue };
        let name = &line[..colon];
        let value =
            || String::from_utf8_lossy(&line[colon + 1..]).trim().to_string();
        // Repeated fields are read as the access method reads them: the
        // first `Location`; the codings of every `Content-Encoding` and
        // `Transfer-Encoding` line, in order (RFC 9110 §5.3).
        if name.eq_ignore_ascii_case(b"location") {
            if capture.location.is_none() {
                // Bytes from 0x80 up percent-encoded, as the access
                // method reads a `Location`.
                let raw = crate::warc::trim_white(&line[colon + 1..]);
                capture.location =
                    Some(robotrules_fetch::policy::location(raw));
            }
        } else if name.eq_ignore_ascii_case(b"content-encoding") {
            let value = value();
            match &mut capture.encoding {
                Some(before) if !value.is_empty() => {
                    before.push_str(", ");
                    before.push_str(&value);
                }
                Some(_) => {}
                None => capture.encoding = Some(value),
            }
        } else if name.eq_ignore_ascii_case(b"transfer-encoding") {
            // The last coding of the last line is the one applied last.
            let value = value();
            let last = value.rsplit(',').next().unwrap_or("").trim();
            if !last.is_empty() {
                capture.chunked = last.eq_ignore_ascii_case("chunked");
            }
        } else if name.eq_ignore_ascii_case(b"content-length") {
            length = value().parse::<usize>().ok();
        }
    }
    // Common Crawl's August 2018 crawl (CC-MAIN-2018-34) wrote one line
    // end too many after every response head: the body then starts with
    // a CRLF that its `Content-Length` does not count. It is not the
    // body's.
    if rest.starts_with(b"\r\n") && length == Some(rest.len() - 2) {
        rest = &rest[2..];
    }
    // A body shorter than its `Content-Length` ended early, as a chunked
    // one without its last chunk. (Only where nothing was decoded: early
    // crawls stored bodies decoded under the sent headers.)
    let plain = !capture.chunked && capture.encoding.is_none();
    if plain && length.is_some_and(|n| n > rest.len()) {
        capture.cut = true;
    }
    Some(block.len() - rest.len())
}

fn memchr(b: u8, s: &[u8]) -> Option<usize> {
    memchr::memchr(b, s)
}

/// The robots.txt URL a plain file stands for: `https://NAME/robots.txt`,
/// where NAME is the file's name without `.txt`, or, for a file named
/// `robots.txt`, its directory's name. NAME must be a host (with a port
/// if any) with a dot and no empty label, or an IP address; an
/// internationalised name is written in Punycode. Any other name
/// (`README`, `README.md`, `notes.txt`, `.hidden.txt`, `example.com.txt.gz`)
/// names no site.
fn plain_url(path: &Path) -> Option<String> {
    let file = path.file_name()?.to_string_lossy();
    let name = if file.eq_ignore_ascii_case("robots.txt") {
        path.parent()?.file_name()?.to_string_lossy().into_owned()
    } else {
        let txt =
            file.len() > 4 && file.to_ascii_lowercase().ends_with(".txt");
        if !txt {
            return None;
        }
        file[..file.len() - 4].to_string()
    };
    let name = name.as_str();
    let u = url::Url::parse(&format!("https://{name}/robots.txt")).ok()?;
    let host = match u.host()? {
        url::Host::Domain(d) => {
            d.contains('.') && d.split('.').all(|label| !label.is_empty())
        }
        // As written: `2024` or `0x10` would read as an IPv4 address.
        url::Host::Ipv4(ip) => {
            let written = name.rsplit_once(':').map_or(name, |(h, _)| h);
            written.parse::<std::net::Ipv4Addr>() == Ok(ip)
        }
        url::Host::Ipv6(_) => true,
    };
    (host
        && u.path() == "/robots.txt"
        && u.query().is_none()
        && u.fragment().is_none()
        && u.username().is_empty()
        && u.password().is_none())
    .then(|| u.into())
}

/// A crawl's name as the table holds it: a NUL, which no file system
/// takes in the name of the crawl's directory (`--partition-by crawl`,
/// Spark's `partitionBy`), is written U+FFFD.
fn crawl_name(name: &str) -> String {
    name.replace('\0', "\u{fffd}")
}

/// A `CC-MAIN-YYYY-WW` part of a path.
fn crawl_of_path(path: &Path) -> Option<String> {
    path.iter().find_map(|part| {
        let part = part.to_string_lossy();
        (part.starts_with("CC-MAIN-") && part.len() == 15)
            .then(|| part.into_owned())
    })
}

/// Reads every capture of `source` (index `index`), in file order, and
/// the problems among them: each goes to `each`. `crawl`, if given, is
/// every capture's crawl.
pub fn read(
    source: &Source,
    index: u32,
    crawl: Option<&str>,
    each: &mut dyn FnMut(Result<Capture, Problem>),
) {
    read_with(source, index, crawl, &|| true, each);
}

/// [`read`], and while `body` says no, without the WARC responses'
/// bodies (an index needs only the heads).
pub(crate) fn read_with(
    source: &Source,
    index: u32,
    crawl: Option<&str>,
    body: &dyn Fn() -> bool,
    each: &mut dyn FnMut(Result<Capture, Problem>),
) {
    let name = source.name();
    let file = match File::open(&source.path) {
        Ok(f) => f,
        Err(e) => {
            each(Err(Problem {
                file: name,
                offset: 0,
                kind: ProblemKind::Io,
                detail: e.to_string(),
            }));
            return;
        }
    };
    let input = BufReader::with_capacity(INPUT_BUFFER, file);
    // `--crawl` stands; a `warcinfo` record's `isPartOf` overrides the
    // crawl named by the path.
    let fixed = crawl.is_some();
    let mut crawl = crawl
        .map(crawl_name)
        .or_else(|| crawl_of_path(&source.path))
        .unwrap_or_default();
    match source.format {
        Format::Warc => {
            for item in warc::Reader::new(input, &name).blocks_of(CAPTURED) {
                match item {
                    Err(p) => each(Err(p)),
                    Ok(record) => {
                        if !fixed {
                            if let Some(c) = record.is_part_of() {
                                crawl = crawl_name(&c);
                            }
                        }
                        if let Some(c) =
                            from_record(record, index, &crawl, &name, body())
                        {
                            each(c);
                        }
                    }
                }
            }
        }
        Format::JsonLines => {
            let mut offset = 0u64;
            let mut input = input;
            let mut line = Vec::new();
            loop {
                line.clear();
                match input.read_until(b'\n', &mut line) {
                    Ok(0) => break,
                    Ok(n) => {
                        let pos = Pos { source: index, offset, ordinal: 0 };
                        if !line.iter().all(u8::is_ascii_whitespace) {
                            each(from_json(&line, pos, &crawl, fixed, &name));
                        }
                        offset += n as u64;
                    }
                    Err(e) => {
                        each(Err(Problem {
                            file: name.clone(),
                            offset,
                            kind: ProblemKind::Io,
                            detail: e.to_string(),
                        }));
                        break;
                    }
                }
            }
        }
        Format::Plain => each(plain(input, index, &crawl, source)),
    }
}

/// Reads captures of one source again, at their positions, keeping the
/// file open: forward seeks within the buffer cost nothing.
pub struct Rereader<'a> {
    source: &'a Source,
    input: Option<BufReader<File>>,
    warc: Option<warc::Reader<BufReader<File>>>,
}

impl<'a> Rereader<'a> {
    /// A reader of `source`; the file is opened on the first read.
    pub fn new(source: &'a Source) -> Rereader<'a> {
        Rereader { source, input: None, warc: None }
    }

    /// Reads the capture at `pos` again; `crawl` is its crawl.
    ///
    /// # Errors
    ///
    /// A [`Problem`] if it cannot be read there.
    pub fn read_at(
        &mut self,
        pos: Pos,
        crawl: &str,
    ) -> Result<Capture, Problem> {
        let source = self.source;
        let name = source.name();
        let problem = |e: io::Error| Problem {
            file: name.clone(),
            offset: pos.offset,
            kind: ProblemKind::Io,
            detail: e.to_string(),
        };
        if source.format == Format::Warc {
            if self.warc.is_none() {
                let file = File::open(&source.path).map_err(problem)?;
                let input = BufReader::with_capacity(INPUT_BUFFER, file);
                self.warc =
                    Some(warc::Reader::new(input, &name).blocks_of(CAPTURED));
            }
            let Some(reader) = self.warc.as_mut() else {
                unreachable!("opened above")
            };
            let record = reader.read_at(pos.offset, pos.ordinal)?;
            return match from_record(record, pos.source, crawl, &name, true) {
                Some(c) => c,
                None => Err(problem(io::Error::other("not a capture"))),
            };
        }
        if self.input.is_none() {
            let file = File::open(&source.path).map_err(problem)?;
            self.input = Some(BufReader::with_capacity(INPUT_BUFFER, file));
        }
        let Some(input) = self.input.as_mut() else {
            unreachable!("opened above")
        };
        let here = input.stream_position().map_err(problem)?;
        if pos.offset >= here {
            input
                .seek_relative((pos.offset - here) as i64)
                .map_err(problem)?;
        } else {
            input.seek(SeekFrom::Start(pos.offset)).map_err(problem)?;
        }
        match source.format {
            Format::JsonLines => {
                let mut line = Vec::new();
                input.read_until(b'\n', &mut line).map_err(problem)?;
                from_json(&line, pos, crawl, true, &name)
            }
            _ => plain(input, pos.source, crawl, source),
        }
    }
}

/// The kinds of WARC record whose blocks a reader of captures reads: the
/// responses, and `warcinfo` for the crawl's name.
fn captured(kind: &str) -> bool {
    kind == "response" || kind == "warcinfo"
}

const CAPTURED: fn(&str) -> bool = captured;

fn from_record(
    record: warc::Record,
    index: u32,
    crawl: &str,
    name: &str,
    body: bool,
) -> Option<Result<Capture, Problem>> {
    if record.kind == "revisit" {
        // Its payload is another record's, which this job does not look
        // up: said rather than dropped in silence.
        let url = record.target_uri.unwrap_or_default();
        return Some(Err(Problem {
            file: name.to_string(),
            offset: record.offset,
            kind: ProblemKind::Http,
            detail: format!(
                "a revisit record for {url:?} (its payload is in another \
                 record): passed over"
            ),
        }));
    }
    if record.kind != "response" {
        return None;
    }
    let mut date = record.date.unwrap_or_default();
    if !date.is_empty() && !is_warc_date(&date) {
        // An offset is moved to UTC, as for a JSON line; another form
        // that starts as a date is ordered by its digits, as written; what
        // is no date cannot be ordered among the site's captures.
        match utc_date(&date) {
            Some(utc) => date = utc,
            None if starts_dated(&date) => {}
            None => {
                let url = record.target_uri.unwrap_or_default();
                return Some(Err(Problem {
                    file: name.to_string(),
                    offset: record.offset,
                    kind: ProblemKind::Header,
                    detail: format!(
                        "the WARC-Date {date:?} of the response for {url:?} \
                         is not a date (`2024-02-21T10:00:00Z`): which \
                         capture of its site is the latest cannot be told; \
                         passed over"
                    ),
                }));
            }
        }
    }
    let mut c = Capture {
        pos: Pos {
            source: index,
            offset: record.offset,
            ordinal: record.ordinal,
        },
        crawl: crawl.to_string(),
        url: record.target_uri.unwrap_or_default(),
        date,
        // A payload the writer cut is read as one the input cut: its last
        // line, which it may have cut, is not read.
        cut: record.block_truncated || record.truncated.is_some(),
        ..Capture::default()
    };
    let Some(start) = http(&record.block, &mut c) else {
        return Some(Err(Problem {
            file: name.to_string(),
            offset: record.offset,
            kind: ProblemKind::Http,
            detail: format!(
                "the response for {:?} holds no HTTP status line",
                c.url
            ),
        }));
    };
    let head = &record.block[..start];
    let whole_head = head.ends_with(b"\n\n") || head.ends_with(b"\n\r\n");
    if c.cut && !whole_head {
        // Cut inside its head: not a response without a body.
        return Some(Err(Problem {
            file: name.to_string(),
            offset: record.offset,
            kind: ProblemKind::Truncated,
            detail: format!(
                "the response for {:?} ends inside its HTTP head",
                c.url
            ),
        }));
    }
    if body {
        // The block becomes the body: its head moves out, no copy made.
        let mut block = record.block;
        block.drain(..start);
        c.body = block;
    }
    Some(match not_a_site(&c, name) {
        Some(p) => Err(p),
        None => Ok(c),
    })
}

#[derive(serde::Deserialize)]
struct JsonCapture {
    url: String,
    status: u16,
    #[serde(default)]
    headers: Headers,
    #[serde(default)]
    body: String,
    #[serde(default)]
    date: String,
    #[serde(default)]
    crawl: Option<String>,
}

#[derive(serde::Deserialize, Default)]
#[serde(untagged)]
enum Headers {
    #[default]
    None,
    Map(std::collections::BTreeMap<String, String>),
    Pairs(Vec<(String, String)>),
}

/// Returns true if `date` is written as a `WARC-Date` is (WARC 1.1
/// §5.4, W3C ISO 8601 in UTC): `2024`, `2024-02`, `2024-02-21`,
/// `2024-02-21T10:00Z`, `2024-02-21T10:00:00Z` or with a fraction of a
/// second. Such dates order as their digits do.
fn is_warc_date(date: &str) -> bool {
    let fits = |template: &str, value: &str| {
        template.len() == value.len()
            && template.bytes().zip(value.bytes()).all(|(t, v)| {
                if t == b'd' {
                    v.is_ascii_digit()
                } else {
                    t == v
                }
            })
    };
    const SECONDS: &str = "dddd-dd-ddTdd:dd:dd";
    let Some(time) = date.strip_suffix('Z') else {
        return ["dddd", "dddd-dd", "dddd-dd-dd"]
            .iter()
            .any(|t| fits(t, date));
    };
    match time.split_once('.') {
        Some((whole, fraction)) => {
            fits(SECONDS, whole)
                && !fraction.is_empty()
                && fraction.bytes().all(|b| b.is_ascii_digit())
        }
        None => fits(SECONDS, time) || fits("dddd-dd-ddTdd:dd", time),
    }
}

/// Whether `date` starts as a date does, `2024-02-21…`, or is the
/// fourteen digits of older archives' dates (`20240221100000`): its digits
/// order it.
fn starts_dated(date: &str) -> bool {
    let b = date.as_bytes();
    let digits = |r: std::ops::Range<usize>| {
        b.get(r).is_some_and(|d| d.iter().all(u8::is_ascii_digit))
    };
    (digits(0..4) && b.get(4) == Some(&b'-') && digits(5..7))
        && (b.get(7) == Some(&b'-') && digits(8..10))
        || (b.len() == 14 && digits(0..14))
}

/// A JSON line's `date` as a `WARC-Date` in UTC: as it is if it is one
/// ([`is_warc_date`]); an RFC 3339 date and time with an offset
/// (`2024-02-21T11:00:00+01:00`, as many tools write them) moved to UTC,
/// to the second; else none.
fn utc_date(date: &str) -> Option<String> {
    use time::format_description::well_known::Rfc3339;
    if is_warc_date(date) {
        return Some(date.to_string());
    }
    let t = time::OffsetDateTime::parse(date, &Rfc3339).ok()?;
    let t = t.to_offset(time::UtcOffset::UTC);
    (0..=9999).contains(&t.year()).then(|| {
        format!(
            "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z",
            t.year(),
            u8::from(t.month()),
            t.day(),
            t.hour(),
            t.minute(),
            t.second()
        )
    })
}

/// A JSON line's error, placed in the line (whose offset the problem
/// gives): serde's own text counts lines from the line's start, so it
/// would name line 1 for every line of the file.
fn json_error(e: &serde_json::Error) -> String {
    let text = e.to_string();
    let place = format!(" at line {} column {}", e.line(), e.column());
    match text.strip_suffix(&place) {
        // serde counts columns from 1, and gives 0 at the end of input.
        Some(what) if e.column() == 0 => format!("{what}, at the line's end"),
        Some(what) => format!("{what}, at column {} of the line", e.column()),
        None => text,
    }
}

/// A JSON line's capture; its own `crawl`, if it names one, stands unless
/// `fixed`.
fn from_json(
    line: &[u8],
    pos: Pos,
    crawl: &str,
    fixed: bool,
    name: &str,
) -> Result<Capture, Problem> {
    let j: JsonCapture =
        serde_json::from_slice(line).map_err(|e| Problem {
            file: name.to_string(),
            offset: pos.offset,
            kind: ProblemKind::Json,
            detail: json_error(&e),
        })?;
    let date = if j.date.is_empty() {
        Some(String::new())
    } else {
        utc_date(&j.date)
    };
    let Some(date) = date else {
        return Err(Problem {
            file: name.to_string(),
            offset: pos.offset,
            kind: ProblemKind::Json,
            detail: format!(
                "the date {:?} is neither a WARC-Date (`2024-02-21T10:00:00Z`) \
                 nor an RFC 3339 date and time (`2024-02-21T11:00:00+01:00`): \
                 which capture of its site is the latest cannot be told",
                j.date
            ),
        });
    };
    let pairs: Vec<(String, String)> = match j.headers {
        Headers::None => vec![],
        Headers::Map(m) => m.into_iter().collect(),
        Headers::Pairs(p) => p,
    };
    let header = |n: &str| {
        pairs
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(n))
            .map(|(_, v)| v.clone())
    };
    Ok(Capture {
        pos,
        crawl: match j.crawl {
            Some(own) if !fixed => crawl_name(&own),
            _ => crawl.to_string(),
        },
        url: j.url,
        date,
        status: Some(j.status),
        location: header("location"),
        // A JSON string holds text, never compressed bytes: the body is
        // the decoded one whatever `Content-Encoding` says (HTTP clients
        // that decode keep the header).
        encoding: None,
        chunked: false,
        body: j.body.into_bytes(),
        cut: false,
    })
    .and_then(|c| match not_a_site(&c, name) {
        Some(p) => Err(p),
        None => Ok(c),
    })
}

/// The problem of a capture that cannot stand for a site, if it is one:
/// its URL is missing or not a URL, or it is a `304 Not Modified`, which
/// is no redirect but "use the copy you have" (RFC 9110 §15.4.5), an
/// answer to a conditional request with no body of its own (the copy is
/// an earlier capture, if the data holds one).
fn not_a_site(c: &Capture, name: &str) -> Option<Problem> {
    let wrong = if c.url.is_empty() {
        "a capture without a target URI".to_string()
    } else if !crate::site::is_url(&c.url) {
        format!("the target URI {:?} is not a URL", c.url)
    } else if c.status == Some(304) {
        format!(
            "a 304 Not Modified response for {:?} has no body of its own: \
             passed over",
            c.url
        )
    } else {
        return None;
    };
    Some(Problem {
        file: name.to_string(),
        offset: c.pos.offset,
        kind: ProblemKind::Http,
        detail: wrong,
    })
}

fn plain(
    input: impl Read,
    index: u32,
    crawl: &str,
    source: &Source,
) -> Result<Capture, Problem> {
    let mut body = Vec::new();
    let limit = warc::MEMBER_LIMIT as u64;
    input.take(limit + 1).read_to_end(&mut body).map_err(|e| Problem {
        file: source.name(),
        offset: 0,
        kind: ProblemKind::Io,
        detail: e.to_string(),
    })?;
    let cut = body.len() as u64 > limit;
    body.truncate(warc::MEMBER_LIMIT);
    let url = plain_url(&source.path).ok_or_else(|| Problem {
        file: source.name(),
        offset: 0,
        kind: ProblemKind::Http,
        detail: "the file is not named after a site: name a plain robots.txt \
                 file after its host (example.com.txt, example.com:8080.txt, \
                 or example.com/robots.txt)"
            .into(),
    })?;
    Ok(Capture {
        pos: Pos { source: index, offset: 0, ordinal: 0 },
        crawl: crawl.to_string(),
        url,
        date: String::new(),
        status: Some(200),
        location: None,
        encoding: None,
        chunked: false,
        body,
        cut,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn http_payload() {
        let mut c = Capture::default();
        let moved =
            b"HTTP/1.1 301 Moved\r\nLocation: https://a/robots.txt\r\n\r\n";
        assert_eq!(http(moved, &mut c), Some(moved.len()));
        assert_eq!(c.status, Some(301));
        assert_eq!(c.location.as_deref(), Some("https://a/robots.txt"));
        let mut c = Capture::default();
        let gzip = b"HTTP/1.0 200 OK\nContent-Encoding: gzip\n\nab";
        let start = http(gzip, &mut c).unwrap();
        assert_eq!(
            (c.encoding.as_deref(), &gzip[start..]),
            (Some("gzip"), &b"ab"[..])
        );
        assert_eq!(http(b"garbage\r\n\r\n", &mut Capture::default()), None);
        assert_eq!(
            http(b"HTTP/1.1 abc\r\n\r\n", &mut Capture::default()),
            None
        );
        assert_eq!(http(b"HTTP/1.1\r\n\r\n", &mut Capture::default()), None);
        // A body shorter than its Content-Length is cut.
        let mut c = Capture::default();
        let body = b"HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nab";
        http(body, &mut c).unwrap();
        assert!(c.cut);
        let mut c = Capture::default();
        let body = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nab";
        http(body, &mut c).unwrap();
        assert!(!c.cut);
        let mut c = Capture::default();
        let odd = b"HTTP/1.1  404\r\nX: \xff\r\n\r\nab";
        assert_eq!(http(odd, &mut c), Some(odd.len() - 2));
        assert_eq!(c.status, Some(404));
    }

    #[test]
    fn interim_responses_and_repeated_fields() {
        // 1xx heads before the final one are passed over.
        let mut c = Capture::default();
        let early = b"HTTP/1.1 103 Early Hints\r\nLink: </a.css>\r\n\r\n\
                      HTTP/1.1 100 Continue\r\n\r\n\
                      HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nab";
        let start = http(early, &mut c).unwrap();
        assert_eq!((c.status, &early[start..]), (Some(200), &b"ab"[..]));
        let mut c = Capture::default();
        let gone = b"HTTP/1.1 100 Continue\r\nLocation: /x\r\n\r\n\
                     HTTP/1.1 404 Not Found\r\n\r\n";
        http(gone, &mut c).unwrap();
        assert_eq!((c.status, c.location), (Some(404), None));
        // A 1xx alone is the capture's status.
        let mut c = Capture::default();
        let alone = b"HTTP/1.1 100 Continue\r\n\r\nUser-agent: *\n";
        http(alone, &mut c).unwrap();
        assert_eq!(c.status, Some(100));
        // Repeated fields: the first Location; every coding, in order.
        let mut c = Capture::default();
        let twice = b"HTTP/1.1 301 Moved\r\nLocation: /a\r\nLocation: /b\r\n\
                      Content-Encoding: gzip\r\nContent-Encoding: br\r\n\
                      Transfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n";
        http(twice, &mut c).unwrap();
        assert_eq!(c.location.as_deref(), Some("/a"));
        assert_eq!(c.encoding.as_deref(), Some("gzip, br"));
        assert!(c.chunked);
        let mut c = Capture::default();
        let not = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\
                    Transfer-Encoding: gzip\r\n\r\n";
        http(not, &mut c).unwrap();
        assert!(!c.chunked);
    }

    #[test]
    fn plain_names() {
        let url = |p: &str| plain_url(Path::new(p));
        let some = |s: &str| Some(s.to_string());
        assert_eq!(
            url("d/example.com.txt"),
            some("https://example.com/robots.txt")
        );
        assert_eq!(
            url("d/Example.COM.TXT"),
            some("https://example.com/robots.txt")
        );
        assert_eq!(
            url("example.com/robots.txt"),
            some("https://example.com/robots.txt")
        );
        assert_eq!(
            url("d/b\u{fc}cher.example.txt"),
            some("https://xn--bcher-kva.example/robots.txt")
        );
        assert_eq!(url("a:8080.example.txt"), None);
        assert_eq!(
            url("a.example:8080.txt"),
            some("https://a.example:8080/robots.txt")
        );
        assert_eq!(url("192.0.2.1.txt"), some("https://192.0.2.1/robots.txt"));
        assert_eq!(
            url("192.0.2.1:81.txt"),
            some("https://192.0.2.1:81/robots.txt")
        );
        for bad in [
            "README",
            "2024.txt",
            "0x10.txt",
            "1.2.txt",
            "my notes.txt",
            "robots.txt",
            "u@a.example.txt",
            "a.example?x.txt",
            // Files beside the robots.txt files of a directory.
            "README.md",
            "index.html",
            ".DS_Store",
            "example.com",
            "a.example.txt.bak",
            "b.example.txt.gz",
            ".hidden.txt",
            "a..example.txt",
            "l.paths",
        ] {
            assert_eq!(url(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_response_cut_inside_its_head() {
        let record = |block: &[u8], truncated| warc::Record {
            kind: "response".into(),
            target_uri: Some("https://a.example/robots.txt".into()),
            block: block.to_vec(),
            block_truncated: truncated,
            ..warc::Record::default()
        };
        let cut = from_record(
            record(b"HTTP/1.1 200 OK\r\nContent-Ty", true),
            0,
            "",
            "f",
            true,
        );
        let p = cut.unwrap().unwrap_err();
        assert_eq!(p.kind, ProblemKind::Truncated);
        // Whole, a head without a blank line is a response without a body.
        let whole = from_record(
            record(b"HTTP/1.1 404 Not Found", false),
            0,
            "",
            "f",
            true,
        );
        assert_eq!(whole.unwrap().unwrap().status, Some(404));
        // Cut in its body, it is a capture (marked cut).
        let body = from_record(
            record(b"HTTP/1.1 200 OK\r\n\r\nUser-ag", true),
            0,
            "",
            "f",
            true,
        );
        let c = body.unwrap().unwrap();
        assert_eq!((c.cut, &c.body[..]), (true, &b"User-ag"[..]));
    }

    #[test]
    fn what_writers_did_to_a_response() {
        let capture = |block: &[u8], truncated: Option<&str>| {
            let record = warc::Record {
                kind: "response".into(),
                target_uri: Some("https://a.example/robots.txt".into()),
                block: block.to_vec(),
                truncated: truncated.map(str::to_string),
                ..warc::Record::default()
            };
            from_record(record, 0, "", "f", true).unwrap().unwrap()
        };
        // `WARC-Truncated`: the body is marked cut, whatever the reason.
        let ok = b"HTTP/1.1 200 OK\r\n\r\nUser-agent: *\nDisallow: /pri";
        for reason in ["length", "time", "disconnect", "unspecified"] {
            assert!(capture(ok, Some(reason)).cut, "{reason}");
        }
        assert!(!capture(ok, None).cut);
        // A head the writer cut is no response.
        let record = warc::Record {
            kind: "response".into(),
            target_uri: Some("https://a.example/robots.txt".into()),
            block: b"HTTP/1.1 200 OK\r\nContent-Ty".to_vec(),
            truncated: Some("disconnect".into()),
            ..warc::Record::default()
        };
        let p = from_record(record, 0, "", "f", true).unwrap().unwrap_err();
        assert_eq!(p.kind, ProblemKind::Truncated);

        // CC-MAIN-2018-34: one CRLF too many after the head, which the
        // `Content-Length` does not count.
        let extra = b"HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\n\r\nabc";
        assert_eq!(capture(extra, None).body, b"abc");
        // Counted, or without a `Content-Length`, it is the body's.
        for kept in [
            &b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n\r\nabc"[..],
            b"HTTP/1.1 200 OK\r\n\r\n\r\nabc",
            b"HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\n\nabcd",
            b"HTTP/1.1 200 OK\r\nContent-Length: x\r\n\r\n\r\nabc",
        ] {
            let body =
                &kept[memchr::memmem::find(kept, b"\r\n\r\n").unwrap() + 4..];
            assert_eq!(capture(kept, None).body, body, "{kept:?}");
        }

        // A `Location` in raw bytes: percent-encoded, as a fetch reads it.
        let moved =
            b"HTTP/1.1 301 Moved\r\nLocation:  /r\xe9bots.txt \r\n\r\n";
        let c = capture(moved, None);
        assert_eq!(c.location.as_deref(), Some("/r%E9bots.txt"));
    }

    #[test]
    fn formats() {
        assert_eq!(Source::of("a/b.warc.gz").format, Format::Warc);
        assert_eq!(Source::of("b.jsonl").format, Format::JsonLines);
        assert_eq!(Source::of("example.com.txt").format, Format::Plain);
        assert_eq!(
            crawl_of_path(Path::new("crawl-data/CC-MAIN-2024-10/x.warc.gz"))
                .as_deref(),
            Some("CC-MAIN-2024-10")
        );
    }
}
