//! A small WARC reader for Common Crawl's robots.txt captures: plain WARC
//! files and WARC.gz files of one gzip member per record (the layout of
//! the WARC 1.1 standard, annex D, which Common Crawl follows).
//!
//! Every record is returned with the byte offset of its gzip member (or,
//! in a plain WARC file, of the record itself), so that a record can be
//! read again by seeking there ([`Reader::read_at`]). Damage never stops the
//! reader: a corrupt or truncated gzip member, a record with a broken
//! header or a short block is returned as a [`Problem`] with its offset,
//! and reading goes on at the next gzip member (or, in a plain file, the
//! next line starting with `WARC/`).

use std::collections::VecDeque;
use std::io::{self, BufRead, Read, Seek, SeekFrom};

use flate2::{Decompress, FlushDecompress, Status};

use crate::problem::{Problem, ProblemKind};

/// At most this many bytes of a gzip member are held at once, and of a
/// record's block kept (the rest of a longer block is read past). A
/// robots.txt capture is a few KiB; this leaves room for a 500 KiB body
/// after long headers and keeps a decompression bomb to a bounded buffer.
/// A longer member (a whole file gzipped as one stream) is read record by
/// record as it is inflated. A reader holds at most about three times
/// this: the inflated bytes, a record's block, and the compressed bytes
/// where the next member is looked for after damage.
pub const MEMBER_LIMIT: usize = 8 << 20;

/// At most this many bytes of a WARC header are read.
const HEADER_LIMIT: usize = 64 << 10;

/// One WARC record.
#[derive(Clone, Debug, Default, Eq, PartialEq)]
#[non_exhaustive]
pub struct Record {
    /// The byte offset of its gzip member in a WARC.gz file, or of the
    /// record in a plain WARC file.
    pub offset: u64,
    /// Its place in its gzip member (0 in Common Crawl's layout, where
    /// each member holds one record; 0 in a plain WARC file).
    pub ordinal: u32,
    /// `WARC-Type`, in lower case: `warcinfo`, `request`, `response`,
    /// `metadata`, …
    pub kind: String,
    /// `WARC-Target-URI`.
    pub target_uri: Option<String>,
    /// `WARC-Date`.
    pub date: Option<String>,
    /// The record's block (for a `response`, the HTTP response), at most
    /// [`MEMBER_LIMIT`] bytes.
    pub block: Vec<u8>,
    /// True if and only if the block was longer than the bytes kept.
    pub block_truncated: bool,
    /// `WARC-Truncated`, in lower case: why the writer kept only the
    /// start of the payload (`length`, `time`, `disconnect`,
    /// `unspecified`, …).
    pub truncated: Option<String>,
}

impl Record {
    /// For a `warcinfo` record, the value of its `isPartOf` field (the
    /// crawl, such as `CC-MAIN-2024-10`).
    pub fn is_part_of(&self) -> Option<String> {
        if self.kind != "warcinfo" {
            return None;
        }
        self.block.split(|&b| b == b'\n').find_map(|line| {
            let line = std::str::from_utf8(line).ok()?;
            let (name, value) = line.split_once(':')?;
            name.trim()
                .eq_ignore_ascii_case("isPartOf")
                .then(|| value.trim().to_string())
        })
    }
}

/// A [`BufRead`] that counts the bytes consumed (the offset of the next
/// gzip member), can record them (the current member's compressed bytes)
/// and can be given bytes back, so that after a corrupt member reading
/// resumes at the first gzip header inside it.
struct Counted<R> {
    inner: R,
    pos: u64,
    back: Vec<u8>,
    back_at: usize,
    record: Option<Vec<u8>>,
}

impl<R: BufRead> Counted<R> {
    fn new(inner: R) -> Counted<R> {
        Counted { inner, pos: 0, back: Vec::new(), back_at: 0, record: None }
    }

    /// Gives `bytes` back: they are read again before the rest.
    fn unread(&mut self, bytes: &[u8]) {
        let mut back = bytes.to_vec();
        back.extend_from_slice(&self.back[self.back_at..]);
        self.back = back;
        self.back_at = 0;
        self.pos -= bytes.len() as u64;
    }
}

impl<R: BufRead> Counted<R> {
    /// The next `n` bytes (fewer at the end), in one piece, not
    /// consumed.
    fn peek(&mut self, n: usize) -> io::Result<&[u8]> {
        if self.fill_buf()?.len() < n {
            let mut got = Vec::with_capacity(n);
            while got.len() < n {
                let buf = self.fill_buf()?;
                if buf.is_empty() {
                    break;
                }
                let k = buf.len().min(n - got.len());
                got.extend_from_slice(&buf[..k]);
                self.consume(k);
            }
            self.unread(&got);
        }
        let buf = self.fill_buf()?;
        Ok(&buf[..buf.len().min(n)])
    }

    /// Consumes bytes up to the next `marker` (and `keep` bytes of it),
    /// or to the end; returns how many were consumed.
    fn skip_to(&mut self, marker: &[u8], keep: usize) -> io::Result<u64> {
        let start = self.pos;
        loop {
            if self.peek(marker.len())?.len() < marker.len() {
                let n = self.fill_buf()?.len();
                if n == 0 {
                    return Ok(self.pos - start);
                }
                self.consume(n);
                continue;
            }
            let buf = self.fill_buf()?;
            if let Some(p) =
                buf.windows(marker.len()).position(|w| w == marker)
            {
                self.consume(p + keep);
                return Ok(self.pos - start);
            }
            // The last bytes may begin a marker the next buffer ends.
            let n = buf.len() + 1 - marker.len();
            self.consume(n);
        }
    }
}

impl<R: BufRead> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = {
            let avail = self.fill_buf()?;
            let n = avail.len().min(buf.len());
            buf[..n].copy_from_slice(&avail[..n]);
            n
        };
        self.consume(n);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Counted<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.back_at < self.back.len() {
            return Ok(&self.back[self.back_at..]);
        }
        self.inner.fill_buf()
    }

    fn consume(&mut self, amt: usize) {
        self.pos += amt as u64;
        if self.back_at < self.back.len() {
            if let Some(r) = &mut self.record {
                if r.len() < MEMBER_LIMIT {
                    r.extend_from_slice(
                        &self.back[self.back_at..self.back_at + amt],
                    );
                }
            }
            self.back_at += amt;
            if self.back_at >= self.back.len() {
                self.back.clear();
                self.back_at = 0;
            }
            return;
        }
        if let Some(r) = &mut self.record {
            if r.len() < MEMBER_LIMIT {
                if let Ok(buf) = self.inner.fill_buf() {
                    r.extend_from_slice(&buf[..amt.min(buf.len())]);
                }
            }
        }
        self.inner.consume(amt);
    }
}

/// Reads the records of one WARC or WARC.gz stream.
///
/// # Example
///
/// ```
/// use robotrules_bulk::warc::Reader;
///
/// let warc = b"WARC/1.0\r\nWARC-Type: response\r\n\
/// WARC-Target-URI: https://example.com/robots.txt\r\n\
/// Content-Length: 5\r\n\r\nhello\r\n\r\n";
/// let mut records = Reader::new(&warc[..], "x.warc");
/// let record = records.next().unwrap().unwrap();
/// assert_eq!(record.block, b"hello");
/// assert!(records.next().is_none());
/// ```
pub struct Reader<R> {
    input: Counted<R>,
    file: String,
    gzip: Option<bool>,
    pending: VecDeque<Result<Record, Problem>>,
    buf: Vec<u8>,
    recorded: Vec<u8>,
    inflater: Decompress,
    /// The gzip member longer than [`MEMBER_LIMIT`] being read, if any:
    /// its records come one by one, inflated into `buf` as they are read.
    open: Option<Open>,
    /// A header line that straddles two reads.
    line: Vec<u8>,
    /// Which kinds of record keep their blocks (all if `None`).
    blocks: Option<fn(&str) -> bool>,
    done: bool,
}

impl<R: BufRead> Reader<R> {
    /// Reads `input`, named `file` in problems. Gzip is recognised by its
    /// magic bytes, or by a name ending in `.gz`: bytes before the first
    /// gzip member of such a file are then reported and skipped, as those
    /// between two members are.
    pub fn new(input: R, file: &str) -> Reader<R> {
        let named_gz = file.to_ascii_lowercase().ends_with(".gz");
        Reader {
            input: Counted::new(input),
            file: file.to_string(),
            gzip: named_gz.then_some(true),
            pending: VecDeque::new(),
            buf: Vec::new(),
            recorded: Vec::new(),
            inflater: Decompress::new(false),
            open: None,
            line: Vec::new(),
            blocks: None,
            done: false,
        }
    }

    /// Keeps the blocks of only the records whose `WARC-Type` (in lower
    /// case) `keep` accepts: the others come with an empty block, their
    /// bytes read past without a copy (a reader of captures needs only
    /// the `response` and `warcinfo` blocks, not those of the `request`
    /// and `metadata` records beside them).
    pub(crate) fn blocks_of(mut self, keep: fn(&str) -> bool) -> Reader<R> {
        self.blocks = Some(keep);
        self
    }

    fn problem(
        &self,
        offset: u64,
        kind: ProblemKind,
        detail: String,
    ) -> Problem {
        Problem { file: self.file.clone(), offset, kind, detail }
    }

    /// Fills `pending` with the records of the next gzip member, or of the
    /// next plain record.
    fn advance(&mut self) -> io::Result<()> {
        if self.open.is_some() {
            self.next_open();
            return Ok(());
        }
        let head = self.input.peek(2)?;
        if head.is_empty() {
            self.done = true;
            return Ok(());
        }
        let gzip = *self.gzip.get_or_insert(head.starts_with(&[0x1f, 0x8b]));
        if gzip {
            self.member()
        } else {
            self.plain()
        }
    }

    fn member(&mut self) -> io::Result<()> {
        let offset = self.input.pos;
        let head = self.input.peek(2)?;
        if !head.starts_with(&[0x1f, 0x8b]) {
            let skipped = self.input.skip_to(b"\x1f\x8b\x08", 0)?;
            let p = self.problem(
                offset,
                ProblemKind::Gzip,
                format!("{skipped} bytes that are not a gzip member"),
            );
            self.pending.push_back(Err(p));
            return Ok(());
        }
        self.input.record = Some(std::mem::take(&mut self.recorded));
        let read =
            inflate_member(&mut self.input, &mut self.inflater, &mut self.buf);
        let mut recorded = self.input.record.take().unwrap_or_default();
        let filled = match read {
            Ok(Inflated::Whole(filled)) => filled,
            Ok(Inflated::Open(crc)) => {
                recorded.clear();
                self.recorded = recorded;
                let filled = self.buf.len();
                self.open = Some(Open {
                    offset,
                    ordinal: 0,
                    at: 0,
                    filled,
                    crc,
                    ended: false,
                    error: None,
                    recent: Default::default(),
                });
                self.next_open();
                return Ok(());
            }
            Err(e) => {
                let (kind, what) = inflate_problem(&e);
                // Resume at the first gzip header after the member's
                // start: the decoder may have read past the next one.
                let magic = b"\x1f\x8b\x08";
                let inside = recorded
                    .get(1..)
                    .and_then(|r| r.windows(3).position(|w| w == magic))
                    .map(|p| p + 1);
                match inside {
                    Some(p) => self.input.unread(&recorded[p..]),
                    None => {
                        // The last two bytes may begin a header.
                        let keep = recorded.len().saturating_sub(2).max(1);
                        let keep = keep.min(recorded.len());
                        self.input.unread(&recorded[keep..]);
                        self.input.skip_to(magic, 0)?;
                    }
                }
                let skipped = self.input.pos - offset;
                let detail = format!("{what}; {skipped} bytes skipped");
                let p = self.problem(offset, kind, detail);
                self.pending.push_back(Err(p));
                recorded.clear();
                self.recorded = recorded;
                return Ok(());
            }
        };
        recorded.clear();
        self.recorded = recorded;
        let data = std::mem::take(&mut self.buf);
        self.records(&data[..filled], offset);
        self.buf = data;
        Ok(())
    }

    /// Queues the next record of the open member (or the problem found
    /// there), or closes the member at its end.
    ///
    /// Its records come as they are inflated, before the member's CRC is
    /// checked at its end: a mismatch there is reported as a problem at
    /// the member's offset, after them.
    fn next_open(&mut self) {
        let Some(open) = self.open.as_mut() else { return };
        let offset = open.offset;
        let mut failed = None;
        let mut stream = Stream {
            input: &mut self.input,
            inflater: &mut self.inflater,
            buf: &mut self.buf,
            open,
            failed: &mut failed,
        };
        let read = read_record(&mut stream, &mut self.line, self.blocks);
        // A broken record in a sound stream: read on at the next record,
        // as in a plain file.
        let resync = match &read {
            Err(_) if stream.failed.is_none() => {
                Some(stream.skip_to_next_record())
            }
            _ => None,
        };
        let open = stream.open;
        let (kind, detail) = match (read, resync) {
            (Err(detail), Some(resync)) => {
                let p = self.problem(offset, ProblemKind::Header, detail);
                self.pending.push_back(Err(p));
                match resync {
                    Ok(true) => return,
                    Ok(false) => {
                        self.open = None;
                        return;
                    }
                    Err(e) => inflate_problem(&e),
                }
            }
            (Ok(Some((mut r, end))), _) => {
                r.offset = offset;
                r.ordinal = open.ordinal;
                match end {
                    // Left out; the records it swallowed are lost with it
                    // (a member read as a stream is not read back).
                    End::Overrun(at) => {
                        let back = r.block.len() - at;
                        let p = overrun(&self.file, offset, back);
                        self.pending.push_back(Err(p));
                    }
                    _ => self.pending.push_back(Ok(r)),
                }
                let Some(next) = open.ordinal.checked_add(1) else {
                    let p = self.problem(
                        offset,
                        ProblemKind::Header,
                        "more than 2^32 records in one gzip member: the \
                         rest is not read"
                            .into(),
                    );
                    self.pending.push_back(Err(p));
                    self.open = None;
                    return;
                };
                open.ordinal = next;
                match failed {
                    None if end == End::Short => {
                        self.pending.push_back(Err(self.short_block(offset)));
                        return;
                    }
                    None if end == End::Early => {
                        self.pending.push_back(Err(self.early_end(offset)));
                        return;
                    }
                    None => return,
                    Some(e) => inflate_problem(&e),
                }
            }
            // The stream is empty only at the member's end, or on error.
            _ => match failed {
                Some(e) => inflate_problem(&e),
                None => {
                    self.open = None;
                    return;
                }
            },
        };
        // The stream is broken: reading goes on at the next gzip member,
        // looked for first in the bytes the inflater read last.
        let Some(open) = self.open.take() else { return };
        let p = self.problem(offset, kind, detail);
        self.pending.push_back(Err(p));
        let seen = open.recent.concat();
        let magic = b"\x1f\x8b\x08";
        let resumed = match memchr::memmem::find(&seen, magic) {
            Some(p) => {
                self.input.unread(&seen[p..]);
                Ok(0)
            }
            None => {
                // The last two bytes may begin a header.
                let keep = seen.len().saturating_sub(2);
                self.input.unread(&seen[keep..]);
                self.input.skip_to(magic, 0)
            }
        };
        if let Err(e) = resumed {
            let p = self.problem(offset, ProblemKind::Io, e.to_string());
            self.pending.push_back(Err(p));
            self.done = true;
        }
    }

    /// The problem of a record at `offset` whose block its member ends
    /// inside.
    fn short_block(&self, offset: u64) -> Problem {
        let detail = "the record's block is shorter than its Content-Length";
        self.problem(offset, ProblemKind::Truncated, detail.into())
    }

    /// The problem of a record at `offset` whose block goes on past its
    /// Content-Length.
    fn early_end(&self, offset: u64) -> Problem {
        let detail = "the record's block goes on past its Content-Length: \
                      read as cut there";
        self.problem(offset, ProblemKind::Truncated, detail.into())
    }

    fn overrun(&self, offset: u64, into: usize) -> Problem {
        overrun(&self.file, offset, into)
    }

    /// Queues the records of one inflated gzip member at `offset`.
    fn records(&mut self, data: &[u8], offset: u64) {
        let mut slice = data;
        let mut ordinal = 0;
        loop {
            match read_record(&mut slice, &mut self.line, self.blocks) {
                Ok(None) => break,
                Ok(Some((r, End::Overrun(at)))) => {
                    // Read on at the record it swallowed: the slice ends
                    // where the block does.
                    let back = r.block.len() - at;
                    slice = &data[data.len() - slice.len() - back..];
                    self.pending.push_back(Err(self.overrun(offset, back)));
                }
                Ok(Some((mut r, end))) => {
                    r.offset = offset;
                    r.ordinal = ordinal;
                    ordinal += 1;
                    self.pending.push_back(Ok(r));
                    match end {
                        End::Whole => {}
                        End::Short => {
                            let p = self.short_block(offset);
                            self.pending.push_back(Err(p));
                            break;
                        }
                        End::Early => {
                            let p = self.early_end(offset);
                            self.pending.push_back(Err(p));
                        }
                        End::Overrun(_) => unreachable!("matched above"),
                    }
                }
                Err(detail) => {
                    // Read on at the next record, as in a plain file.
                    let next = memchr::memmem::find(slice, b"\nWARC/");
                    let skipped = next.map_or(slice.len(), |p| p + 1);
                    let detail = format!("{detail}; {skipped} bytes skipped");
                    let p = self.problem(offset, ProblemKind::Header, detail);
                    self.pending.push_back(Err(p));
                    slice = &slice[skipped..];
                    if next.is_none() {
                        break;
                    }
                }
            }
        }
    }

    fn plain(&mut self) -> io::Result<()> {
        // Blank lines between records.
        loop {
            let head = self.input.fill_buf()?;
            let n = head.iter().take_while(|b| b"\r\n".contains(b)).count();
            if n == 0 {
                break;
            }
            self.input.consume(n);
        }
        let offset = self.input.pos;
        if self.input.fill_buf()?.is_empty() {
            self.done = true;
            return Ok(());
        }
        match read_record(&mut self.input, &mut self.line, self.blocks) {
            Ok(None) => self.done = true,
            Ok(Some((mut r, end))) => {
                r.offset = offset;
                if let End::Overrun(at) = end {
                    // Reading goes on at the record it swallowed.
                    self.input.unread(&r.block[at..]);
                    let p = self.overrun(offset, r.block.len() - at);
                    self.pending.push_back(Err(p));
                    return Ok(());
                }
                self.pending.push_back(Ok(r));
                match end {
                    End::Whole | End::Overrun(_) => {}
                    End::Short => {
                        let p = self.problem(
                            offset,
                            ProblemKind::Truncated,
                            "the file ends inside the record".into(),
                        );
                        self.pending.push_back(Err(p));
                    }
                    End::Early => {
                        let p = self.early_end(offset);
                        self.pending.push_back(Err(p));
                    }
                }
            }
            Err(detail) => {
                let skipped = self.input.skip_to(b"\nWARC/", 1)?;
                let p = self.problem(
                    offset,
                    ProblemKind::Header,
                    format!("{detail}; {skipped} bytes skipped"),
                );
                self.pending.push_back(Err(p));
            }
        }
        Ok(())
    }
}

impl<R: BufRead> Iterator for Reader<R> {
    type Item = Result<Record, Problem>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(item) = self.pending.pop_front() {
                return Some(item);
            }
            if self.done {
                return None;
            }
            if let Err(e) = self.advance() {
                self.done = true;
                let offset = self.input.pos;
                return Some(Err(self.problem(
                    offset,
                    ProblemKind::Io,
                    e.to_string(),
                )));
            }
        }
    }
}

fn corrupt(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what.to_string())
}

/// Reads exactly `n` bytes.
fn take_exact<R: BufRead>(
    r: &mut Counted<R>,
    n: usize,
) -> io::Result<Vec<u8>> {
    let mut v = vec![0; n];
    r.read_exact(&mut v)?;
    Ok(v)
}

/// Skips a zero-terminated field of a gzip header.
fn skip_zstring<R: BufRead>(r: &mut Counted<R>) -> io::Result<()> {
    let mut sink = Vec::new();
    let n = r.take(1 << 16).read_until(0, &mut sink)?;
    if n == 0 || sink.last() != Some(&0) {
        return Err(io::Error::new(
            io::ErrorKind::UnexpectedEof,
            "gzip header field",
        ));
    }
    Ok(())
}

/// The kind and detail of a problem inflating a gzip member: a member
/// the input ends inside is truncated, any other damage corrupt.
fn inflate_problem(e: &io::Error) -> (ProblemKind, String) {
    match e.kind() {
        io::ErrorKind::UnexpectedEof => {
            (ProblemKind::Truncated, format!("truncated gzip member ({e})"))
        }
        _ => (ProblemKind::Gzip, format!("corrupt gzip member ({e})")),
    }
}

/// How far [`inflate_member`] got.
enum Inflated {
    /// The whole member, `out[..n]`, its CRC and size checked.
    Whole(usize),
    /// [`MEMBER_LIMIT`] bytes, all of `out`, with more to come: the CRC
    /// of those so far.
    Open(crc32fast::Hasher),
}

/// The gzip member longer than [`MEMBER_LIMIT`] that a [`Reader`] reads
/// record by record.
struct Open {
    /// Its offset.
    offset: u64,
    /// The place of its next record.
    ordinal: u32,
    /// The inflated bytes not yet read: `buf[at..filled]`.
    at: usize,
    filled: usize,
    /// The CRC of the bytes inflated so far.
    crc: crc32fast::Hasher,
    /// Whether the deflate stream ended (and its CRC and size matched).
    ended: bool,
    /// The error that stopped the inflating, once the bytes inflated
    /// before it are read.
    error: Option<io::Error>,
    /// The compressed bytes the last two refills read, where the next
    /// gzip member is looked for if the stream breaks (the inflater may
    /// have read into it).
    recent: [Vec<u8>; 2],
}

/// The open member's inflated bytes as a [`BufRead`]: once they are
/// read, the buffer is refilled (what is left of it moved to its start).
struct Stream<'a, R> {
    input: &'a mut Counted<R>,
    inflater: &'a mut Decompress,
    buf: &'a mut Vec<u8>,
    open: &'a mut Open,
    /// The error that stopped the inflating, kept for the reader (a
    /// record reader sees only its text).
    failed: &'a mut Option<io::Error>,
}

impl<R: BufRead> Stream<'_, R> {
    /// Inflates more after the bytes not yet read, which move to the
    /// buffer's start. Bytes inflated before an error are kept, and the
    /// error comes at the next refill: where a stream breaks does not
    /// depend on how its input was buffered.
    fn refill(&mut self) -> io::Result<()> {
        let open = &mut *self.open;
        self.buf.copy_within(open.at..open.filled, 0);
        open.filled -= open.at;
        open.at = 0;
        if let Some(e) = open.error.take() {
            return Err(e);
        }
        open.recent.swap(0, 1);
        let mut seen = std::mem::take(&mut open.recent[1]);
        seen.clear();
        self.input.record = Some(seen);
        let start = open.filled;
        let mut result = Ok(());
        while open.filled == start && !open.ended {
            let buf = match self.input.fill_buf() {
                Ok([]) => {
                    result = Err(io::Error::new(
                        io::ErrorKind::UnexpectedEof,
                        "the member ends early",
                    ));
                    break;
                }
                Ok(buf) => buf,
                Err(e) => {
                    result = Err(e);
                    break;
                }
            };
            let (in0, out0) =
                (self.inflater.total_in(), self.inflater.total_out());
            let into = &mut self.buf[open.filled..];
            let status =
                self.inflater.decompress(buf, into, FlushDecompress::None);
            let made = (self.inflater.total_out() - out0) as usize;
            let used = (self.inflater.total_in() - in0) as usize;
            open.crc.update(&into[..made]);
            open.filled += made;
            self.input.consume(used);
            match status {
                Err(e) => {
                    result = Err(corrupt(&e.to_string()));
                    break;
                }
                Ok(Status::StreamEnd) => {
                    let crc = std::mem::take(&mut open.crc);
                    let total = self.inflater.total_out();
                    match check_trailer(self.input, crc, total) {
                        Ok(()) => open.ended = true,
                        Err(e) => result = Err(e),
                    }
                    break;
                }
                Ok(_) if used == 0 && made == 0 => {
                    result = Err(corrupt("the deflate stream stalls"));
                    break;
                }
                Ok(_) => {}
            }
        }
        open.recent[1] = self.input.record.take().unwrap_or_default();
        match result {
            Err(e) if open.filled > start => {
                open.error = Some(e);
                Ok(())
            }
            result => result,
        }
    }

    /// Reads up to the next line that starts with `WARC/` (not past it):
    /// false if the member ends first.
    fn skip_to_next_record(&mut self) -> io::Result<bool> {
        const MARK: &[u8] = b"\nWARC/";
        loop {
            let open = &mut *self.open;
            let avail = &self.buf[open.at..open.filled];
            if let Some(p) = memchr::memmem::find(avail, MARK) {
                open.at += p + 1;
                return Ok(true);
            }
            // The last bytes may begin the mark.
            let keep = avail.len().min(MARK.len() - 1);
            open.at = open.filled - keep;
            if open.ended {
                open.at = open.filled;
                return Ok(false);
            }
            self.refill()?;
        }
    }
}

impl<R: BufRead> Read for Stream<'_, R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let n = {
            let avail = self.fill_buf()?;
            let n = avail.len().min(out.len());
            out[..n].copy_from_slice(&avail[..n]);
            n
        };
        self.consume(n);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Stream<'_, R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.open.at == self.open.filled && !self.open.ended {
            if let Err(e) = self.refill() {
                let copy = io::Error::new(e.kind(), e.to_string());
                *self.failed = Some(e);
                return Err(copy);
            }
        }
        Ok(&self.buf[self.open.at..self.open.filled])
    }

    fn consume(&mut self, amt: usize) {
        self.open.at = (self.open.at + amt).min(self.open.filled);
    }
}

/// Reads a gzip member's trailer and checks it against the `crc` and the
/// size (`total`) of what was inflated.
fn check_trailer<R: BufRead>(
    input: &mut Counted<R>,
    crc: crc32fast::Hasher,
    total: u64,
) -> io::Result<()> {
    let mut trailer = [0u8; 8];
    input.read_exact(&mut trailer)?;
    let want_crc =
        u32::from_le_bytes([trailer[0], trailer[1], trailer[2], trailer[3]]);
    let want_len =
        u32::from_le_bytes([trailer[4], trailer[5], trailer[6], trailer[7]]);
    if want_crc != crc.finalize() || want_len != total as u32 {
        return Err(corrupt("the member's CRC or size does not match"));
    }
    Ok(())
}

/// Decompresses one gzip member (RFC 1952) into `out` and checks its CRC
/// and size, or, for a member longer than [`MEMBER_LIMIT`], its first
/// [`MEMBER_LIMIT`] bytes (the rest is for [`Stream`]). One decompressor
/// serves every member: the per-member allocation of a fresh decoder
/// would cost more than the decompression. `out` is room, zeroed once and
/// kept from member to member (it grows, never shrinks, up to the
/// limit): the member is inflated straight into it.
fn inflate_member<R: BufRead>(
    input: &mut Counted<R>,
    d: &mut Decompress,
    out: &mut Vec<u8>,
) -> io::Result<Inflated> {
    let mut header = [0u8; 10];
    input.read_exact(&mut header)?;
    if header[..3] != [0x1f, 0x8b, 8] {
        return Err(corrupt("not a gzip header"));
    }
    let flags = header[3];
    if flags & 0xE0 != 0 {
        return Err(corrupt("reserved gzip flags"));
    }
    if flags & 4 != 0 {
        let mut x = [0u8; 2];
        input.read_exact(&mut x)?;
        let len = usize::from(u16::from_le_bytes([x[0], x[1]]));
        take_exact(input, len)?;
    }
    if flags & 8 != 0 {
        skip_zstring(input)?;
    }
    if flags & 16 != 0 {
        skip_zstring(input)?;
    }
    if flags & 2 != 0 {
        input.read_exact(&mut [0u8; 2])?;
    }
    d.reset(false);
    let mut crc = crc32fast::Hasher::new();
    let mut filled = 0;
    loop {
        if filled == out.len() {
            if out.len() == MEMBER_LIMIT {
                return Ok(Inflated::Open(crc));
            }
            let room = (out.len() * 2).clamp(1 << 15, MEMBER_LIMIT);
            out.resize(room, 0);
        }
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "the member ends early",
            ));
        }
        let (in0, out0) = (d.total_in(), d.total_out());
        // Into room zeroed once (`decompress_vec` would zero the spare
        // capacity on every call).
        let into = &mut out[filled..];
        let status = d
            .decompress(buf, into, FlushDecompress::None)
            .map_err(|e| corrupt(&e.to_string()))?;
        let made = (d.total_out() - out0) as usize;
        crc.update(&into[..made]);
        filled += made;
        let used = (d.total_in() - in0) as usize;
        input.consume(used);
        match status {
            Status::StreamEnd => break,
            _ if used == 0 && made == 0 => {
                return Err(corrupt("the deflate stream stalls"));
            }
            _ => {}
        }
    }
    check_trailer(input, crc, d.total_out())?;
    Ok(Inflated::Whole(filled))
}

/// Appends the bytes of `r` up to and with the next `\n`, at most `limit`
/// of them, to `line`: returns how many. (`BufRead::read_until` through
/// `Read::take`, without the adapter's cost per call.)
fn read_line(
    r: &mut impl BufRead,
    limit: usize,
    line: &mut Vec<u8>,
) -> io::Result<usize> {
    let mut n = 0;
    while n < limit {
        let buf = r.fill_buf()?;
        if buf.is_empty() {
            break;
        }
        let buf = &buf[..buf.len().min(limit - n)];
        let (k, done) = match memchr::memchr(b'\n', buf) {
            Some(p) => (p + 1, true),
            None => (buf.len(), false),
        };
        line.extend_from_slice(&buf[..k]);
        r.consume(k);
        n += k;
        if done {
            break;
        }
    }
    Ok(n)
}

/// ASCII `bytes` without the white space (as `char::is_whitespace`: also
/// vertical tab) at either end.
pub(crate) fn trim_white(bytes: &[u8]) -> &[u8] {
    let white =
        |b: &u8| matches!(b, b' ' | b'\t' | b'\n' | 0x0B | 0x0C | b'\r');
    let start = bytes.iter().position(|b| !white(b)).unwrap_or(bytes.len());
    let end = bytes.iter().rposition(|b| !white(b)).map_or(start, |p| p + 1);
    &bytes[start..end]
}

/// Appends at most `n` bytes of `r` to `out` (fewer at its end): returns
/// how many.
fn copy_to(
    r: &mut impl BufRead,
    n: usize,
    out: &mut Vec<u8>,
) -> io::Result<usize> {
    // Room for what is buffered at once (all of it when reading an
    // inflated member), not for what an untrusted length claims.
    let first = r.fill_buf()?.len();
    out.reserve(n.min(first));
    let mut left = n;
    while left > 0 {
        let buf = r.fill_buf()?;
        if buf.is_empty() {
            break;
        }
        let k = buf.len().min(left);
        out.extend_from_slice(&buf[..k]);
        r.consume(k);
        left -= k;
    }
    Ok(n - left)
}

/// Reads past at most `n` bytes of `r` (fewer at its end): returns how
/// many.
fn skip(r: &mut impl BufRead, n: u64) -> io::Result<u64> {
    let mut left = n;
    while left > 0 {
        let buf = r.fill_buf()?;
        if buf.is_empty() {
            break;
        }
        let k = buf.len().min(usize::try_from(left).unwrap_or(usize::MAX));
        r.consume(k);
        left -= k as u64;
    }
    Ok(n - left)
}

/// A WARC header as its lines are read.
#[derive(Default)]
struct Head {
    record: Record,
    length: Option<u64>,
    /// Whether the version line is read.
    versioned: bool,
}

impl Head {
    /// Takes one line (with its line end): returns true at the blank line
    /// that ends the header.
    fn line(&mut self, line: &[u8]) -> Result<bool, String> {
        let mut bytes = line;
        while let [rest @ .., b'\r' | b'\n'] = bytes {
            bytes = rest;
        }
        if !self.versioned {
            if !bytes.starts_with(b"WARC/") {
                let text = String::from_utf8_lossy(bytes);
                return Err(format!(
                    "a record that does not start with WARC/ but {:?}",
                    text.chars().take(20).collect::<String>()
                ));
            }
            self.versioned = true;
            return Ok(false);
        }
        if bytes.is_empty() {
            return Ok(true);
        }
        let Some(colon) = memchr::memchr(b':', bytes) else {
            return Ok(false);
        };
        // Only the fields read are decoded (invalid UTF-8 replaced).
        let raw = &bytes[..colon];
        let lossy;
        let name = if raw.is_ascii() {
            // `str::trim` on ASCII, without the decoding.
            trim_white(raw)
        } else {
            lossy = String::from_utf8_lossy(raw);
            lossy.trim().as_bytes()
        };
        let value = || {
            // Valid UTF-8 (nearly always) is checked a word at a time.
            let raw = &bytes[colon + 1..];
            match std::str::from_utf8(raw) {
                Ok(text) => std::borrow::Cow::Borrowed(text),
                Err(_) => String::from_utf8_lossy(raw),
            }
        };
        let record = &mut self.record;
        if name.eq_ignore_ascii_case(b"warc-type") {
            record.kind = value().trim().to_ascii_lowercase();
        } else if name.eq_ignore_ascii_case(b"warc-target-uri") {
            // WARC/1.0 writers put angle brackets around some URIs.
            let value = value();
            let v = value.trim().trim_start_matches('<').trim_end_matches('>');
            record.target_uri = Some(v.to_string());
        } else if name.eq_ignore_ascii_case(b"warc-date") {
            record.date = Some(value().trim().to_string());
        } else if name.eq_ignore_ascii_case(b"warc-truncated") {
            record.truncated = Some(value().trim().to_ascii_lowercase());
        } else if name.eq_ignore_ascii_case(b"content-length") {
            let value = value();
            let value = value.trim();
            self.length = Some(
                value
                    .parse()
                    .map_err(|_| format!("a bad Content-Length {value:?}"))?,
            );
        }
        Ok(false)
    }
}

/// Reads one record from `r`; `Ok(None)` at the end. With the record
/// comes true if and only if the stream ended inside its block. `line`
/// holds a header line that straddles two reads; `blocks`, if given, says
/// which kinds of record keep their blocks ([`Reader::blocks_of`]).
fn read_record(
    r: &mut impl BufRead,
    line: &mut Vec<u8>,
    blocks: Option<fn(&str) -> bool>,
) -> Result<Option<(Record, End)>, String> {
    // Separators between records.
    loop {
        let head = r.fill_buf().map_err(|e| e.to_string())?;
        if head.is_empty() {
            return Ok(None);
        }
        let n = head.iter().take_while(|b| b"\r\n".contains(b)).count();
        if n == 0 {
            break;
        }
        r.consume(n);
    }
    let mut head = Head::default();
    let mut header = 0usize;
    loop {
        let limit = HEADER_LIMIT - header + 1;
        // A line whole in the reader's buffer is read there, without a
        // copy; one that straddles two reads is gathered in `line`.
        let buf = r.fill_buf().map_err(|e| e.to_string())?;
        let window = &buf[..buf.len().min(limit)];
        let end = match memchr::memchr(b'\n', window) {
            Some(p) => {
                header += p + 1;
                if header > HEADER_LIMIT {
                    return Err("a WARC header longer than 64 KiB".into());
                }
                let end = head.line(&window[..=p])?;
                r.consume(p + 1);
                end
            }
            None => {
                line.clear();
                let n =
                    read_line(r, limit, line).map_err(|e| e.to_string())?;
                header += n;
                if header > HEADER_LIMIT {
                    return Err("a WARC header longer than 64 KiB".into());
                }
                if n == 0 || !line.ends_with(b"\n") {
                    return Err("the WARC header ends early".into());
                }
                head.line(line)?
            }
        };
        if end {
            break;
        }
    }
    let Head { mut record, length, .. } = head;
    let length = length.ok_or("a record without Content-Length")?;
    let keep = length.min(MEMBER_LIMIT as u64);
    let wanted = blocks.is_none_or(|keeps| keeps(&record.kind));
    let got = if wanted {
        copy_to(r, keep as usize, &mut record.block)
            .map_err(|e| e.to_string())? as u64
    } else {
        skip(r, keep).map_err(|e| e.to_string())?
    };
    static NEXT: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| {
            memchr::memmem::Finder::new("\r\n\r\nWARC/")
        });
    let mut short = got < keep;
    // A block, whole or cut short by the end of the input, that holds the
    // start of the next record: its Content-Length runs into the records
    // after it. (A block longer than what is kept, and there in full, is
    // not judged by its start.)
    let judged = length <= keep || short;
    if let Some(p) =
        (wanted && judged).then(|| NEXT.find(&record.block)).flatten()
    {
        return Ok(Some((record, End::Overrun(p + 4))));
    }
    if short && wanted && record.block.ends_with(b"\r\n\r\n") {
        // A block shorter than its Content-Length took the record's end,
        // the line ends that close it: they are not the block's.
        record.block.truncate(record.block.len() - 4);
    }
    if length > keep {
        let dropped = skip(r, length - keep).map_err(|e| e.to_string())?;
        short |= dropped < length - keep;
        record.block_truncated = true;
    }
    record.block_truncated |= short;
    let end = if short {
        End::Short
    } else if ends_record(r).unwrap_or(true) {
        // (An input that fails there fails again on the next read, which
        // reports it; the record is whole as far as it can tell.)
        End::Whole
    } else {
        // Its Content-Length is shorter than its block: the block is read
        // as cut, its last line, which the length may cut, left out.
        record.block_truncated = true;
        End::Early
    };
    Ok(Some((record, end)))
}

/// The problem of a record of `file` at `offset` whose block holds the
/// start of the next record, `into` bytes from its end.
fn overrun(file: &str, offset: u64, into: usize) -> Problem {
    let detail = format!(
        "the record's Content-Length runs {into} bytes into the next \
         record: the record is left out"
    );
    Problem {
        file: file.to_string(),
        offset,
        kind: ProblemKind::Header,
        detail,
    }
}

/// How a record's block ended.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
enum End {
    /// Where the record ends.
    Whole,
    /// The input ends inside it.
    Short,
    /// Before its record does: what follows is neither the line ends
    /// that close a record nor the next record.
    Early,
    /// After its record: the block holds the start of the next record,
    /// at this offset.
    Overrun(usize),
}

/// Whether what follows a block is the end of its record: the line ends
/// that close it (consumed), then the next record or the end of the
/// input.
fn ends_record(r: &mut impl BufRead) -> io::Result<bool> {
    const NEXT: &[u8] = b"WARC/";
    loop {
        let buf = r.fill_buf()?;
        let n = buf.iter().take_while(|b| b"\r\n".contains(b)).count();
        if n == buf.len() && n > 0 {
            r.consume(n);
            continue;
        }
        r.consume(n);
        let buf = r.fill_buf()?;
        let k = buf.len().min(NEXT.len());
        return Ok(buf[..k] == NEXT[..k]);
    }
}

impl<R: BufRead + Seek> Reader<R> {
    /// Reads the record at `offset` (and `ordinal` within its gzip member)
    /// again. The reader's buffers and decompressor are reused, and a
    /// forward seek within the buffered bytes reads nothing.
    ///
    /// # Errors
    ///
    /// A [`Problem`] if the record cannot be read there.
    pub fn read_at(
        &mut self,
        offset: u64,
        ordinal: u32,
    ) -> Result<Record, Problem> {
        let io = |e: io::Error, file: &str| Problem {
            file: file.to_string(),
            offset,
            kind: ProblemKind::Io,
            detail: e.to_string(),
        };
        // In a member read record by record, a later record is read on
        // from where the reader is: records asked for in order cost one
        // pass over the member.
        let on =
            |open: &Open| open.offset == offset && open.ordinal <= ordinal;
        if !self.open.as_ref().is_some_and(on) {
            self.seek(offset).map_err(|e| io(e, &self.file))?;
        }
        // The damage found there, if the record is not.
        let mut damage = None;
        loop {
            while let Some(item) = self.pending.pop_front() {
                match item {
                    Ok(r) if r.offset == offset && r.ordinal == ordinal => {
                        return Ok(r);
                    }
                    Err(p) if p.offset == offset => damage = Some(p),
                    _ => {}
                }
            }
            if !self.open.as_ref().is_some_and(on) {
                let none = io::Error::other("no record there");
                return Err(damage.unwrap_or_else(|| io(none, &self.file)));
            }
            self.next_open();
        }
    }

    /// Goes to `offset` and reads the gzip member (or the record) there.
    fn seek(&mut self, offset: u64) -> io::Result<()> {
        let here = self.input.pos;
        if self.input.back_at < self.input.back.len() || offset < here {
            self.input.back.clear();
            self.input.back_at = 0;
            self.input.inner.seek(SeekFrom::Start(offset))?;
        } else {
            self.input.inner.seek_relative((offset - here) as i64)?;
        }
        self.input.pos = offset;
        self.pending.clear();
        self.open = None;
        self.done = false;
        self.advance()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn record(uri: &str, block: &[u8]) -> Vec<u8> {
        let mut v = format!(
            "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: {uri}\r\n\
             Content-Length: {}\r\n\r\n",
            block.len()
        )
        .into_bytes();
        v.extend_from_slice(block);
        v.extend_from_slice(b"\r\n\r\n");
        v
    }

    fn gz(data: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(
            Vec::new(),
            flate2::Compression::fast(),
        );
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    fn read(data: &[u8]) -> Vec<Result<(u64, Vec<u8>), ProblemKind>> {
        Reader::new(data, "t")
            .map(|r| r.map(|r| (r.offset, r.block)).map_err(|p| p.kind))
            .collect()
    }

    #[test]
    fn plain_records() {
        let mut data = record("a", b"one");
        let second = data.len() as u64;
        data.extend(record("b", b"two"));
        assert_eq!(
            read(&data),
            vec![Ok((0, b"one".to_vec())), Ok((second, b"two".to_vec()))]
        );
    }

    #[test]
    fn gzip_members_and_damage() {
        let a = gz(&record("a", b"one"));
        let b = gz(&record("b", b"two"));
        let c = gz(&record("c", b"three"));
        let mut data = a.clone();
        let mut broken = b.clone();
        let mid = broken.len() / 2;
        broken[mid..].iter_mut().for_each(|x| *x ^= 0x55);
        data.extend(&broken);
        let third = data.len() as u64;
        data.extend(&c);
        let got = read(&data);
        assert_eq!(got[0], Ok((0, b"one".to_vec())));
        assert_eq!(got[1], Err(ProblemKind::Gzip));
        assert_eq!(got[2], Ok((third, b"three".to_vec())));
        assert_eq!(got.len(), 3);
        // The same through buffers of every small size: members and
        // headers split between reads.
        for cap in 1..12 {
            let small = io::BufReader::with_capacity(cap, &data[..]);
            let again: Vec<_> = Reader::new(small, "t")
                .map(|r| r.map(|r| (r.offset, r.block)).map_err(|p| p.kind))
                .collect();
            assert_eq!(again, got, "{cap}");
        }

        // A file cut in its last member.
        let mut cut = a.clone();
        cut.extend(&c[..c.len() - 5]);
        let got = read(&cut);
        assert_eq!(got[1], Err(ProblemKind::Truncated));
        assert_eq!(got.len(), 2);
    }

    #[test]
    fn read_again_at_offset() {
        let a = gz(&record("a", b"one"));
        let b = gz(&record("b", b"two"));
        let mut data = a.clone();
        data.extend(&b);
        let mut r = Reader::new(io::Cursor::new(&data), "t");
        let at = a.len() as u64;
        assert_eq!(r.read_at(at, 0).unwrap().block, b"two");
        assert_eq!(r.read_at(0, 0).unwrap().block, b"one");
        assert_eq!(r.read_at(at, 0).unwrap().block, b"two");
        assert!(r.read_at(at, 1).is_err());
    }

    #[test]
    fn a_block_past_the_limit_is_cut() {
        let big = vec![b'x'; MEMBER_LIMIT + 1000];
        let mut data = gz(&record("a", &big));
        let second = data.len() as u64;
        data.extend(gz(&record("b", b"two")));
        let got: Vec<_> = Reader::new(&data[..], "t").collect();
        assert_eq!(got.len(), 2);
        let a = got[0].as_ref().unwrap();
        assert!(a.block_truncated);
        assert_eq!(a.block.len(), MEMBER_LIMIT);
        assert!(a.block.iter().all(|&b| b == b'x'));
        let b = got[1].as_ref().unwrap();
        assert_eq!((b.offset, &b.block[..]), (second, &b"two"[..]));
        assert!(!b.block_truncated);
    }

    /// A whole file gzipped as one member, longer than the limit: 300
    /// records of 40,000 bytes and more.
    fn one_stream() -> (Vec<u8>, Vec<Vec<u8>>) {
        let blocks: Vec<Vec<u8>> = (0..300)
            .map(|i| {
                let mut b = format!("block {i} ").into_bytes();
                b.resize(40_000 + i, b'a' + (i % 26) as u8);
                b
            })
            .collect();
        let mut whole = Vec::new();
        for (i, b) in blocks.iter().enumerate() {
            whole.extend(record(&format!("u{i}"), b));
        }
        assert!(whole.len() > MEMBER_LIMIT);
        (gz(&whole), blocks)
    }

    #[test]
    fn a_member_past_the_limit_is_read_record_by_record() {
        let (member, blocks) = one_stream();
        let mut data = member.clone();
        let second = data.len() as u64;
        data.extend(gz(&record("b", b"two")));
        let got: Vec<_> = Reader::new(&data[..], "t")
            .map(|r| r.map(|r| (r.offset, r.ordinal, r.block)))
            .collect();
        assert_eq!(got.len(), 301);
        for (i, b) in blocks.iter().enumerate() {
            assert_eq!(got[i], Ok((0, i as u32, b.clone())), "{i}");
        }
        assert_eq!(got[300], Ok((second, 0, b"two".to_vec())));
        // Read again: in order from one pass, and out of order.
        let mut r = Reader::new(io::Cursor::new(&data), "t");
        for i in (0..300).step_by(7) {
            assert_eq!(r.read_at(0, i).unwrap().block, blocks[i as usize]);
        }
        assert_eq!(r.read_at(0, 3).unwrap().block, blocks[3]);
        assert_eq!(r.read_at(second, 0).unwrap().block, b"two");
        assert_eq!(r.read_at(0, 299).unwrap().block, blocks[299]);
        assert!(r.read_at(0, 300).is_err());
    }

    #[test]
    fn damage_in_a_long_member_is_reported() {
        let (member, blocks) = one_stream();
        let tail = gz(&record("b", b"two"));
        // Cut inside: the records before the cut, then the problem.
        let cut = &member[..member.len() * 3 / 4];
        let got: Vec<_> = Reader::new(cut, "t").collect();
        let last = got.last().unwrap().as_ref().unwrap_err();
        assert_eq!((last.kind, last.offset), (ProblemKind::Truncated, 0));
        let read = got.iter().filter(|r| r.is_ok()).count();
        assert!(read > 100 && read < 300, "{read}");
        for (r, b) in got.iter().filter_map(|r| r.as_ref().ok()).zip(&blocks) {
            assert!(r.block == *b || r.block_truncated);
        }
        // Corrupt inside: the problem, then the next member.
        let mut data = member.clone();
        let mid = data.len() / 2;
        data[mid..mid + 64].iter_mut().for_each(|x| *x ^= 0x5a);
        let at = data.len() as u64;
        data.extend(&tail);
        let got: Vec<_> = Reader::new(&data[..], "t").collect();
        let problem = got.iter().find_map(|r| r.as_ref().err()).unwrap();
        assert_eq!((problem.kind, problem.offset), (ProblemKind::Gzip, 0));
        let last = got.last().unwrap().as_ref().unwrap();
        assert_eq!((last.offset, &last.block[..]), (at, &b"two"[..]));
    }

    #[test]
    fn a_long_member_reads_on_past_a_broken_record() {
        let blocks: Vec<Vec<u8>> = (0..300)
            .map(|i| format!("block {i} ").repeat(4000).into_bytes())
            .collect();
        let mut whole = Vec::new();
        for (i, b) in blocks.iter().enumerate() {
            let mut r = record(&format!("u{i}"), b);
            if i == 250 {
                // Past the first 8 MiB: a length that is not a number.
                let at = r
                    .windows(15)
                    .position(|w| w == b"Content-Length:")
                    .unwrap();
                r[at + 16] = b'x';
            }
            whole.extend(r);
        }
        assert!(whole.len() > MEMBER_LIMIT + 250 * 100);
        let got: Vec<_> = Reader::new(&gz(&whole)[..], "t")
            .map(|r| r.map(|r| r.ordinal).map_err(|p| p.kind))
            .collect();
        let want: Vec<_> = (0..250)
            .map(Ok)
            .chain([Err(ProblemKind::Header)])
            .chain((250..299).map(Ok))
            .collect();
        assert_eq!(got, want);
    }

    #[test]
    fn after_a_long_member_cut_short_the_next_file_is_read() {
        let (member, _) = one_stream();
        // `cat a.warc.gz b.warc.gz`, `a` cut short.
        let mut data = member[..member.len() * 3 / 4].to_vec();
        let at = data.len() as u64;
        let tail = [gz(&record("b", b"two")), gz(&record("c", b"three"))];
        data.extend(tail.concat());
        for cap in [4096, 1 << 16, 1 << 20] {
            let input = io::BufReader::with_capacity(cap, &data[..]);
            let got: Vec<_> = Reader::new(input, "t").collect();
            let blocks: Vec<_> = got
                .iter()
                .filter_map(|r| r.as_ref().ok())
                .filter(|r| r.offset >= at)
                .map(|r| r.block.clone())
                .collect();
            assert_eq!(blocks, [b"two".to_vec(), b"three".to_vec()], "{cap}");
            let problems: Vec<_> =
                got.iter().filter_map(|r| r.as_ref().err()).collect();
            assert_eq!(problems.len(), 1, "{cap}: {problems:?}");
            assert_eq!(problems[0].offset, 0);
        }
    }

    #[test]
    fn a_long_member_whose_crc_fails() {
        let (mut member, blocks) = one_stream();
        let n = member.len();
        member[n - 8] ^= 1;
        let got: Vec<_> = Reader::new(&member[..], "t").collect();
        assert_eq!(got.len(), 301);
        for (r, b) in got.iter().zip(&blocks) {
            assert_eq!(&r.as_ref().unwrap().block, b);
        }
        let p = got[300].as_ref().unwrap_err();
        assert_eq!((p.kind, p.offset), (ProblemKind::Gzip, 0), "{p:?}");
        assert!(p.detail.contains("CRC"), "{}", p.detail);
    }

    #[test]
    fn garbage_before_the_first_member_of_a_gz_file() {
        let mut data = b"GARBAGE\n".to_vec();
        data.extend(gz(&record("a", b"one")));
        let got: Vec<_> = Reader::new(&data[..], "x.warc.gz")
            .map(|r| r.map(|r| (r.offset, r.block)).map_err(|p| p.kind))
            .collect();
        assert_eq!(
            got,
            vec![Err(ProblemKind::Gzip), Ok((8, b"one".to_vec()))]
        );
        // Without the name, such a file is read as a plain WARC file.
        let got = read(&data);
        assert_eq!(got.len(), 1);
        assert_eq!(got[0], Err(ProblemKind::Header));
    }

    #[test]
    fn a_short_block_leaves_out_the_records_end() {
        // Content-Length says 500; the block has 27 bytes, then the line
        // ends that close the record.
        let body = b"User-agent: *\nDisallow: /x\n";
        let mut short = record("a", body);
        let at = short.windows(3).position(|w| w == b": 2").unwrap();
        short.splice(at..at + 4, b": 500".iter().copied());
        let got = read(&gz(&short));
        assert_eq!(got[0], Ok((0, body.to_vec())), "{got:?}");
        assert_eq!(got[1], Err(ProblemKind::Truncated));
    }

    #[test]
    fn content_lengths_that_miss_the_blocks_end() {
        let length = |record: &mut Vec<u8>, from: &[u8], to: &[u8]| {
            let at = record.windows(from.len()).position(|w| w == from);
            let at = at.unwrap();
            record.splice(at..at + from.len(), to.iter().copied());
        };
        let got = |data: &[u8]| -> Vec<_> {
            Reader::new(data, "t")
                .map(|r| {
                    r.map(|r| (r.offset, r.block, r.block_truncated))
                        .map_err(|p| (p.kind, p.offset))
                })
                .collect()
        };
        let whole = |o, b: &[u8]| Ok((o, b.to_vec(), false));
        // Too long: the block takes in the next record's start. It is
        // left out, and the record it swallowed is read; the same when it
        // is so long that the input ends first (the rows after were lost,
        // or read as the block), in a plain file and in one gzip member.
        let b = record("b", b"two, and more bytes than the rest");
        let c = record("c", b"three");
        for to in [&b"Length: 40\r"[..], b"Length: 99999999999\r"] {
            let mut a = record("a", b"one");
            length(&mut a, b"Length: 3\r", to);
            let data = [a.clone(), b.clone(), c.clone()].concat();
            let (at_b, at_c) = (a.len() as u64, (a.len() + b.len()) as u64);
            assert_eq!(
                got(&data),
                [
                    Err((ProblemKind::Header, 0)),
                    whole(at_b, b"two, and more bytes than the rest"),
                    whole(at_c, b"three"),
                ]
            );
            assert_eq!(
                got(&gz(&data))[..3],
                [
                    Err((ProblemKind::Header, 0)),
                    whole(0, b"two, and more bytes than the rest"),
                    whole(0, b"three"),
                ]
            );
        }
        // A header that cannot be read, in a member of several records:
        // reading goes on at the next record, as in a plain file.
        for (from, to) in [
            (&b"Length: 3\r"[..], &b"Length: x\r"[..]),
            (b"Content-Length: 3\r\n", b""),
        ] {
            let mut a = record("a", b"one");
            length(&mut a, from, to);
            let data = [c.clone(), a, b.clone(), c.clone()].concat();
            assert_eq!(
                got(&gz(&data)),
                [
                    whole(0, b"three"),
                    Err((ProblemKind::Header, 0)),
                    whole(0, b"two, and more bytes than the rest"),
                    whole(0, b"three"),
                ]
            );
        }
        // Too short: the block is read as cut, and the rest is passed
        // over to the next record.
        let mut a = record("a", b"one\ntwo");
        length(&mut a, b"Length: 7\r", b"Length: 5\r");
        let data = [a.clone(), c.clone()].concat();
        let got_plain = got(&data);
        assert_eq!(got_plain[0], Ok((0, b"one\nt".to_vec(), true)));
        assert_eq!(got_plain[1], Err((ProblemKind::Truncated, 0)));
        assert_eq!(got_plain.last(), Some(&whole(a.len() as u64, b"three")));
        let got_gz = got(&[gz(&a), gz(&c)].concat());
        assert_eq!(got_gz[0], Ok((0, b"one\nt".to_vec(), true)));
        assert_eq!(got_gz[1], Err((ProblemKind::Truncated, 0)));
        assert_eq!(got_gz.last().map(|r| r.is_ok()), Some(true));
        // A Content-Length that ends before a blank line of the body:
        // the block is cut there, not whole.
        let mut a = record(
            "a",
            b"User-agent: *\nAllow: /\n\nUser-agent: G\nDisallow: /\n",
        );
        length(&mut a, b"Length: 50\r", b"Length: 22\r");
        let data = [a.clone(), c.clone()].concat();
        let got_plain = got(&data);
        assert_eq!(
            got_plain[0],
            Ok((0, b"User-agent: *\nAllow: /".to_vec(), true))
        );
        assert_eq!(got_plain[1], Err((ProblemKind::Truncated, 0)));
        // A block longer than a member is held, there in full: not judged
        // by the records its start may hold.
        let mut inner = record("evil.example", b"x");
        inner.extend(vec![b'#'; MEMBER_LIMIT]);
        let big = record("big.example", &[&b"\r\n\r\n"[..], &inner].concat());
        let data = [big.clone(), c.clone()].concat();
        let blocks: Vec<_> = got(&data)
            .into_iter()
            .map(|r| r.map(|(o, b, cut)| (o, b.len(), cut)))
            .collect();
        assert_eq!(
            blocks,
            [Ok((0, MEMBER_LIMIT, true)), Ok((big.len() as u64, 5, false))]
        );
        // Line ends alone after a block, or none before the next record:
        // whole.
        let mut bare = record("a", b"one");
        bare.truncate(bare.len() - 4);
        let data = [bare.clone(), c.clone()].concat();
        assert_eq!(
            got(&data),
            [whole(0, b"one"), whole(bare.len() as u64, b"three")]
        );
    }

    #[test]
    fn blocks_of_some_kinds_only() {
        let mut data = gz(&record("a", b"one"));
        let mut request = record("a", b"GET /robots.txt");
        let at = request.windows(8).position(|w| w == b"response").unwrap();
        request.splice(at..at + 8, b"request".iter().copied());
        data.extend(gz(&request));
        // A request record cut short: still reported.
        let mut cut = request.clone();
        cut.truncate(cut.len() - 8);
        data.extend(gz(&cut));
        let kinds = |kind: &str| kind == "response";
        let got: Vec<_> = Reader::new(&data[..], "t")
            .blocks_of(kinds)
            .map(|r| r.map(|r| (r.kind, r.block)).map_err(|p| p.kind))
            .collect();
        assert_eq!(
            got,
            vec![
                Ok(("response".to_string(), b"one".to_vec())),
                Ok(("request".to_string(), Vec::new())),
                Ok(("request".to_string(), Vec::new())),
                Err(ProblemKind::Truncated),
            ]
        );
    }

    #[test]
    fn header_fields() {
        let data = b"WARC/1.0\r\n\
            warc-type:  Response \r\n\
            a line without a colon\r\n\
            \xc2\xa0WARC-Target-URI\t: <https://a.example/robots.txt>\r\n\
            X-\xff: \xff\r\n\
            WARC-DATE: 2024-02-20T00:00:00Z\n\
            WARC-Truncated: Disconnect \r\n\
            Content-Length: 3\r\n\r\nabc\r\n\r\n";
        let r = Reader::new(&data[..], "t").next().unwrap().unwrap();
        assert_eq!(r.kind, "response");
        assert_eq!(r.truncated.as_deref(), Some("disconnect"));
        assert!(!r.block_truncated);
        assert_eq!(
            r.target_uri.as_deref(),
            Some("https://a.example/robots.txt")
        );
        assert_eq!(r.date.as_deref(), Some("2024-02-20T00:00:00Z"));
        assert_eq!(r.block, b"abc");
        let plain = b"WARC/1.0\r\nContent-Length: 0\r\n\r\n\r\n\r\n";
        let r = Reader::new(&plain[..], "t").next().unwrap().unwrap();
        assert_eq!(r.truncated, None);
        let bad = b"WARC/1.0\r\nContent-Length: x\r\n\r\n";
        let p = Reader::new(&bad[..], "t").next().unwrap().unwrap_err();
        assert_eq!(p.kind, ProblemKind::Header);
        assert!(
            p.detail.contains("a bad Content-Length \"x\""),
            "{}",
            p.detail
        );
    }

    #[test]
    fn names_trim_as_str_trim() {
        for name in
            ["", " ", "\x0b", "a", " \tWARC-Type\x0b\x0c ", "\x1fa\x1f", "a b"]
        {
            assert_eq!(trim_white(name.as_bytes()), name.trim().as_bytes());
        }
    }

    #[test]
    fn warcinfo_crawl() {
        let r = Record {
            kind: "warcinfo".into(),
            block: b"software: x\r\nisPartOf: CC-MAIN-2024-10\r\n".to_vec(),
            ..Record::default()
        };
        assert_eq!(r.is_part_of().as_deref(), Some("CC-MAIN-2024-10"));
    }
}
