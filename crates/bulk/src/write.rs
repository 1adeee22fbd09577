//! Writing rows: Parquet, CSV or JSON lines, streamed.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use bytes::Bytes;
use parquet::basic::{Compression, LogicalType, Repetition, Type as Physical};
use parquet::column::writer::{
    get_column_writer, ColumnCloseResult, ColumnWriter,
};
use parquet::data_type::ByteArray;
use parquet::file::properties::{
    EnabledStatistics, WriterProperties, WriterPropertiesPtr,
};
use parquet::file::writer::{
    SerializedFileWriter, SerializedPageWriter, TrackedWrite,
};
use parquet::schema::types::{ColumnDescPtr, ColumnPath, Type as PType};

use crate::eval::Verdict;
use crate::row::{
    fixed_words, Cell, Column, Row, Schema, Type, Value, ValueRef,
    SITE_COLUMNS,
};

mod words;

/// An output format.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
#[non_exhaustive]
pub enum Format {
    /// Apache Parquet, Snappy-compressed, row groups of 65,536 rows.
    Parquet,
    /// CSV with a header line (RFC 4180 quoting; an empty field is null).
    Csv,
    /// One JSON object a line, keys in column order.
    JsonLines,
}

impl Format {
    /// The format of a file name: `.parquet`, `.csv`, `.jsonl`/`.json`.
    pub fn of(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_string_lossy().to_ascii_lowercase();
        match ext.as_str() {
            "parquet" => Some(Format::Parquet),
            "csv" => Some(Format::Csv),
            "jsonl" | "json" | "ndjson" => Some(Format::JsonLines),
            _ => None,
        }
    }
}

/// Where rows go.
pub trait Sink: Send {
    /// Writes one row.
    ///
    /// # Errors
    ///
    /// The output's I/O error.
    fn write(&mut self, row: &Row) -> io::Result<()>;

    /// Writes what is buffered and the file's footer.
    ///
    /// # Errors
    ///
    /// The output's I/O error.
    fn finish(self: Box<Self>) -> io::Result<()>;
}

/// Creates `path` for rows of `schema` in `format`.
///
/// # Errors
///
/// The file cannot be created.
pub fn create(
    path: &Path,
    format: Format,
    schema: &Schema,
) -> io::Result<Box<dyn Sink>> {
    let file = File::create(path)?;
    to_writer(Box::new(file), format, schema)
}

/// Writes rows of `schema` in `format` to `out`.
///
/// # Errors
///
/// The header cannot be written.
pub fn to_writer(
    out: Box<dyn Write + Send>,
    format: Format,
    schema: &Schema,
) -> io::Result<Box<dyn Sink>> {
    Ok(Box::new(Whole(values(out, format, schema.columns())?)))
}

/// A writer of rows of `columns` in `format` to `out`.
fn values(
    out: Box<dyn Write + Send>,
    format: Format,
    columns: &[Column],
) -> io::Result<Box<dyn Values>> {
    let out = BufWriter::with_capacity(1 << 16, out);
    Ok(match format {
        Format::Csv => {
            let mut out = out;
            let names: Vec<String> =
                columns.iter().map(|c| csv_field(&c.name)).collect();
            writeln!(out, "{}", names.join(","))?;
            Box::new(Csv { out })
        }
        Format::JsonLines => Box::new(Json {
            out,
            names: columns.iter().map(|c| c.name.clone()).collect(),
        }),
        Format::Parquet => Box::new(Parquet::new(out, columns)?),
    })
}

/// Writes rows as values, in the order of the columns it was made for.
trait Values: Send {
    /// Writes the values of `row` but its first `skip` columns.
    fn put(&mut self, row: &Row, skip: usize) -> io::Result<()>;
    fn done(self: Box<Self>) -> io::Result<()>;
}

/// Every row, every column, to one output.
struct Whole(Box<dyn Values>);

impl Sink for Whole {
    fn write(&mut self, row: &Row) -> io::Result<()> {
        self.0.put(row, 0)
    }

    fn finish(self: Box<Self>) -> io::Result<()> {
        self.0.done()
    }
}

/// The name of the directory of the rows of crawl `crawl` in a table
/// partitioned by crawl: `crawl=NAME`, the characters that Hive and
/// Spark escape in partition values escaped as `%XX` (upper-case hex),
/// and an empty crawl named `__HIVE_DEFAULT_PARTITION__`, as Spark names
/// a partition of null values.
///
/// # Example
///
/// ```
/// use robotrules_bulk::write::partition_dir;
///
/// assert_eq!(partition_dir("CC-MAIN-2024-10"), "crawl=CC-MAIN-2024-10");
/// assert_eq!(partition_dir("a/b:c"), "crawl=a%2Fb%3Ac");
/// assert_eq!(partition_dir(""), "crawl=__HIVE_DEFAULT_PARTITION__");
/// ```
pub fn partition_dir(crawl: &str) -> String {
    if crawl.is_empty() {
        return "crawl=__HIVE_DEFAULT_PARTITION__".into();
    }
    let mut out = String::from("crawl=");
    for ch in crawl.chars() {
        let escape = ch < ' '
            || matches!(
                ch,
                '"' | '#'
                    | '%'
                    | '\''
                    | '*'
                    | '/'
                    | ':'
                    | '='
                    | '?'
                    | '\\'
                    | '\x7f'
                    | '{'
                    | '['
                    | ']'
                    | '^'
            );
        if escape {
            out.push_str(&format!("%{:02X}", ch as u32));
        } else {
            out.push(ch);
        }
    }
    out
}

/// The file name of a partition's rows in `format`.
fn part_name(format: Format) -> &'static str {
    match format {
        Format::Parquet => "part-00000.parquet",
        Format::Csv => "part-00000.csv",
        Format::JsonLines => "part-00000.jsonl",
    }
}

/// Creates the directory `dir` for rows of `schema` in `format`,
/// partitioned by crawl as Spark and Hive lay a table out:
/// `dir/crawl=NAME/part-00000.parquet` (or `.csv`, `.jsonl`) per crawl
/// ([`partition_dir`]), each file holding every column but `crawl`, whose
/// value is the directory's. The files of a crawl are created when its
/// first row comes.
///
/// # Errors
///
/// `dir` cannot be created, or exists and is not empty.
pub fn partitioned(
    dir: &Path,
    format: Format,
    schema: &Schema,
) -> io::Result<Box<dyn Sink>> {
    std::fs::create_dir_all(dir)?;
    if std::fs::read_dir(dir)?.next().is_some() {
        return Err(io::Error::new(
            io::ErrorKind::AlreadyExists,
            format!("\"{}\" is not empty", dir.display()),
        ));
    }
    debug_assert_eq!(schema.columns()[0].name, "crawl");
    Ok(Box::new(Partitioned {
        dir: dir.to_path_buf(),
        format,
        columns: schema.columns()[1..].to_vec(),
        open: BTreeMap::new(),
    }))
}

struct Partitioned {
    dir: PathBuf,
    format: Format,
    columns: Vec<Column>,
    open: BTreeMap<String, Box<dyn Values>>,
}

impl Sink for Partitioned {
    fn write(&mut self, row: &Row) -> io::Result<()> {
        // The first column, `crawl`, is the directory's name.
        if let Some(out) = self.open.get_mut(&row.crawl) {
            return out.put(row, 1);
        }
        let dir = self.dir.join(partition_dir(&row.crawl));
        std::fs::create_dir_all(&dir)?;
        let file = File::create(dir.join(part_name(self.format)))?;
        let mut out =
            self::values(Box::new(file), self.format, &self.columns)?;
        out.put(row, 1)?;
        self.open.insert(row.crawl.clone(), out);
        Ok(())
    }

    fn finish(self: Box<Self>) -> io::Result<()> {
        for out in self.open.into_values() {
            out.done()?;
        }
        Ok(())
    }
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

struct Csv<W> {
    out: W,
}

impl<W: Write + Send> Values for Csv<W> {
    fn put(&mut self, row: &Row, skip: usize) -> io::Result<()> {
        let mut line = String::new();
        for (i, v) in row.values().iter().skip(skip).enumerate() {
            if i > 0 {
                line.push(',');
            }
            match v {
                Value::Null => {}
                Value::Str(s) => line.push_str(&csv_field(s)),
                Value::Int(n) => line.push_str(&n.to_string()),
                Value::F64(f) => line.push_str(&f.to_string()),
                Value::Bool(b) => {
                    line.push_str(if *b { "true" } else { "false" })
                }
            }
        }
        line.push('\n');
        self.out.write_all(line.as_bytes())
    }

    fn done(mut self: Box<Self>) -> io::Result<()> {
        self.out.flush()
    }
}

struct Json<W> {
    out: W,
    names: Vec<String>,
}

impl<W: Write + Send> Values for Json<W> {
    fn put(&mut self, row: &Row, skip: usize) -> io::Result<()> {
        let mut map = serde_json::Map::new();
        for (name, v) in
            self.names.iter().zip(row.values().into_iter().skip(skip))
        {
            let j = match v {
                Value::Null => serde_json::Value::Null,
                Value::Str(s) => s.into(),
                Value::Int(n) => n.into(),
                Value::F64(f) => f.into(),
                Value::Bool(b) => b.into(),
            };
            map.insert(name.clone(), j);
        }
        serde_json::to_writer(&mut self.out, &map)?;
        self.out.write_all(b"\n")
    }

    fn done(mut self: Box<Self>) -> io::Result<()> {
        self.out.flush()
    }
}

/// Rows in a row group.
const ROW_GROUP: usize = 65_536;

enum Buffer {
    /// The values' bytes one after another, and where each ends: no
    /// allocation per value.
    Str(Vec<u8>, Vec<usize>),
    /// A column of a fixed vocabulary ([`Cell::Static`]): its words, and
    /// each value's place among them, one byte a value.
    Vocab(Vec<&'static str>, Vec<u8>),
    I32(Vec<i32>),
    I64(Vec<i64>),
    F64(Vec<f64>),
    Bool(Vec<bool>),
}

/// Adds a string of a fixed vocabulary to a string column: as its place
/// in the column's vocabulary, while the column holds only such words
/// (at most 256).
#[inline]
fn push_word(buffer: &mut Buffer, word: &'static str) -> bool {
    // A word the column has already (nearly every call).
    if let Buffer::Vocab(words, at) = buffer {
        if let Some(i) = words.iter().position(|w| std::ptr::eq(*w, word)) {
            at.push(i as u8);
            return true;
        }
    }
    push_new_word(buffer, word)
}

/// [`push_word`] for a word the column does not have yet.
fn push_new_word(buffer: &mut Buffer, word: &'static str) -> bool {
    match (place_of(buffer, word), &mut *buffer) {
        (Some(i), Buffer::Vocab(_, at)) => {
            at.push(i);
            true
        }
        // Other strings, or 256 words already: a column of copies.
        _ => push_str(buffer, word),
    }
}

/// The place of `word` among the words of a column of words, added if
/// new, without adding a value; `None` if the column holds other strings,
/// or 256 words already.
fn place_of(buffer: &mut Buffer, word: &'static str) -> Option<u8> {
    if let Buffer::Str(bytes, ends) = buffer {
        if !ends.is_empty() {
            return None;
        }
        *buffer = Buffer::Vocab(Vec::new(), std::mem::take(bytes));
    }
    let Buffer::Vocab(words, _) = buffer else { return None };
    // Words are told apart by address, not by their bytes: the same word
    // at two addresses takes two places, which is harmless (each place
    // stands for its bytes when the column is encoded).
    match words.iter().position(|w| std::ptr::eq(*w, word)) {
        Some(i) => Some(i as u8),
        None if words.len() < 256 => {
            words.push(word);
            Some((words.len() - 1) as u8)
        }
        None => None,
    }
}

/// Adds a string to a string column, copied (a column of words becomes
/// one of copies first).
fn push_str(buffer: &mut Buffer, s: &str) -> bool {
    if let Buffer::Vocab(words, at) = buffer {
        let mut bytes = Vec::new();
        let mut ends = Vec::with_capacity(at.len());
        for &i in at.iter() {
            bytes.extend_from_slice(words[usize::from(i)].as_bytes());
            ends.push(bytes.len());
        }
        *buffer = Buffer::Str(bytes, ends);
    }
    let Buffer::Str(bytes, ends) = buffer else { return false };
    bytes.extend_from_slice(s.as_bytes());
    ends.push(bytes.len());
    true
}

struct Parquet<W: Write + Send> {
    writer: SerializedFileWriter<W>,
    columns: Vec<(Buffer, Vec<i16>)>,
    rows: usize,
    /// The crawlers' columns, three a crawler after the site's: where they
    /// start in `columns` (once a row has been put), and each row's list
    /// of verdicts until the row group is written.
    crawlers: Option<usize>,
    verdicts: Verdicts,
}

/// The lists of verdicts of a row group's rows, each distinct list once.
///
/// Rows share their lists (every site whose robots.txt means the same),
/// so the crawlers' columns, most of a row's cells, are made when the row
/// group is written, a column at a time from the few distinct lists,
/// rather than cell by cell as each row comes, three pushes a crawler
/// onto columns of their own: a bulk run takes about 4% less time.
#[derive(Default)]
struct Verdicts {
    /// The distinct lists, in the order of their first row.
    lists: Vec<Arc<[Verdict]>>,
    /// The place of each list in `lists`, by its address (the list is
    /// kept in `lists`, so no other list can take its address).
    place: crate::site::Map<usize, u32>,
    /// Each row's place in `lists`.
    rows: Vec<u32>,
    /// The lists' cells a column after the other (`Verdicts::prepare`):
    /// for crawler `k` and list `l`, at `k * lists.len() + l`, the place
    /// of its `access_` and `via_` words among their column's words
    /// ([`NO_WORD`], [`ROW_BY_ROW`]) and its crawl-delay.
    access: Vec<u16>,
    via: Vec<u16>,
    delay: Vec<Option<f64>>,
}

/// A cell of [`Verdicts::access`] or [`Verdicts::via`] without a word.
const NO_WORD: u16 = u16::MAX;
/// A cell whose column is not one of words (or has more than 256): the
/// column is then filled row by row.
const ROW_BY_ROW: u16 = u16::MAX - 1;

impl Verdicts {
    fn push(&mut self, list: &Arc<[Verdict]>) {
        let lists = &mut self.lists;
        let at = *self
            .place
            .entry(Arc::as_ptr(list).cast::<Verdict>() as usize)
            .or_insert_with(|| {
                lists.push(Arc::clone(list));
                (lists.len() - 1) as u32
            });
        self.rows.push(at);
    }

    /// Reads each list once, in order, into the tables of
    /// [`Verdicts::access`], [`Verdicts::via`] and [`Verdicts::delay`],
    /// placing the words among the words of `columns`, the crawlers'
    /// columns (three a crawler). Reading the cells of one column from
    /// every list instead touched each list once a column.
    fn prepare(&mut self, columns: &mut [(Buffer, Vec<i16>)]) {
        let n = self.lists.len();
        let crawlers = columns.len() / 3;
        self.access.clear();
        self.access.resize(crawlers * n, NO_WORD);
        self.via.clear();
        self.via.resize(crawlers * n, NO_WORD);
        self.delay.clear();
        self.delay.resize(crawlers * n, None);
        let place = |buffer: &mut Buffer, word| {
            place_of(buffer, word).map_or(ROW_BY_ROW, u16::from)
        };
        for (l, list) in self.lists.iter().enumerate() {
            let cells = list.iter().zip(columns.chunks_exact_mut(3));
            for (k, (v, crawler)) in cells.enumerate() {
                let at = k * n + l;
                self.access[at] = place(&mut crawler[0].0, v.access);
                if let Some(w) = v.via {
                    self.via[at] = place(&mut crawler[1].0, w);
                }
                self.delay[at] = v.crawl_delay;
            }
        }
    }

    /// Fills column `part` (0 `access_`, 1 `via_`, 2 `delay_`) of the
    /// crawler at `k` from the rows' lists, once [`Verdicts::prepare`]d.
    /// A list shorter than the crawlers leaves the rest of its row's cells
    /// null.
    fn fill_column(
        &self,
        k: usize,
        part: usize,
        buffer: &mut Buffer,
        defs: &mut Vec<i16>,
    ) {
        let n = self.lists.len();
        let cells = k * n..(k + 1) * n;
        match part {
            0 | 1 => {
                let table = if part == 0 { &self.access } else { &self.via };
                let places = table.get(cells).unwrap_or_default();
                self.fill_words(
                    buffer,
                    defs,
                    places,
                    |v| match part {
                        0 => Some(v.access),
                        _ => v.via,
                    },
                    k,
                );
            }
            _ => {
                let delays = self.delay.get(cells).unwrap_or_default();
                let Buffer::F64(values) = buffer else {
                    // Not a column of numbers: nulls, as `put_cell` makes.
                    defs.resize(defs.len() + self.rows.len(), 0);
                    return;
                };
                let of =
                    |&row: &u32| delays.get(row as usize).copied().flatten();
                if delays.iter().all(Option::is_none) {
                    // No crawl-delay in the row group (most crawlers).
                    defs.resize(defs.len() + self.rows.len(), 0);
                    return;
                }
                defs.extend(
                    self.rows.iter().map(|r| i16::from(of(r).is_some())),
                );
                values.extend(self.rows.iter().filter_map(of));
            }
        }
    }

    /// Fills every crawler's columns, three a crawler, and forgets the
    /// rows.
    #[cfg(test)]
    fn fill(&mut self, columns: &mut [(Buffer, Vec<i16>)]) {
        self.prepare(columns);
        for (i, (buffer, defs)) in columns.iter_mut().enumerate() {
            self.fill_column(i / 3, i % 3, buffer, defs);
        }
        self.clear();
    }

    fn clear(&mut self) {
        self.lists.clear();
        self.place.clear();
        self.rows.clear();
    }

    /// Fills a column of words from the places of its lists' words
    /// (`places`, one a list): each row takes its list's place. A column
    /// that is not one of words is filled row by row with `word` of the
    /// `k`th verdict of each row's list.
    fn fill_words(
        &self,
        buffer: &mut Buffer,
        defs: &mut Vec<i16>,
        places: &[u16],
        word: impl Fn(&Verdict) -> Option<&'static str>,
        k: usize,
    ) {
        if places.contains(&ROW_BY_ROW) {
            for &row in &self.rows {
                let v = self.lists[row as usize].get(k);
                let w = v.and_then(&word);
                defs.push(i16::from(w.is_some_and(|w| push_word(buffer, w))));
            }
            return;
        }
        let Buffer::Vocab(_, at) = buffer else {
            // No list has a word: every row is null.
            defs.resize(defs.len() + self.rows.len(), 0);
            return;
        };
        let of =
            |&row: &u32| places.get(row as usize).copied().unwrap_or(NO_WORD);
        let rows = self.rows.len();
        if !places.contains(&NO_WORD) {
            // Every row has a word (every `access_` column): one pass.
            defs.resize(defs.len() + rows, 1);
            at.extend(self.rows.iter().map(|r| of(r) as u8));
        } else if places.iter().all(|&p| p == NO_WORD) {
            defs.resize(defs.len() + rows, 0);
        } else {
            defs.extend(self.rows.iter().map(|r| i16::from(of(r) != NO_WORD)));
            let words = self.rows.iter().map(of).filter(|&p| p != NO_WORD);
            at.extend(words.map(|p| p as u8));
        }
    }
}

fn perr(e: parquet::errors::ParquetError) -> io::Error {
    io::Error::other(e)
}

impl<W: Write + Send> Parquet<W> {
    fn new(out: W, schema: &[Column]) -> io::Result<Self> {
        let words: Vec<ColumnPath> = schema
            .iter()
            .filter(|c| fixed_words(&c.name) || c.name.starts_with("delay_"))
            .map(|c| ColumnPath::from(c.name.as_str()))
            .collect();
        let mut fields = Vec::new();
        let mut columns = Vec::new();
        for c in schema {
            let (physical, logical, buffer) = match c.kind {
                Type::Str => (
                    Physical::BYTE_ARRAY,
                    Some(LogicalType::String),
                    Buffer::Str(Vec::new(), Vec::new()),
                ),
                Type::I32 => (Physical::INT32, None, Buffer::I32(Vec::new())),
                Type::I64 => (Physical::INT64, None, Buffer::I64(Vec::new())),
                Type::F64 => (Physical::DOUBLE, None, Buffer::F64(Vec::new())),
                Type::Bool => {
                    (Physical::BOOLEAN, None, Buffer::Bool(Vec::new()))
                }
            };
            let field = PType::primitive_type_builder(&c.name, physical)
                .with_repetition(Repetition::OPTIONAL)
                .with_logical_type(logical)
                .build()
                .map_err(perr)?;
            fields.push(Arc::new(field));
            columns.push((buffer, Vec::new()));
        }
        let schema = PType::group_type_builder("robotrules")
            .with_fields(fields)
            .build()
            .map_err(perr)?;
        let mut props = WriterProperties::builder()
            .set_compression(Compression::SNAPPY)
            .set_created_by("robotrules-bulk".into());
        // The columns of a few fixed words (the class, the body kind, each
        // crawler's access and via: 114 of 189 with the built-in
        // catalogue) and the crawl-delays (56) are written without
        // statistics: every row group holds nearly every word, and
        // delays from 0 to days, so their minimum and maximum would
        // prune nothing, and computing them cost more than the
        // dictionary encoding of those columns (`words`).
        for path in words {
            props = props
                .set_column_statistics_enabled(path, EnabledStatistics::None);
        }
        // Columns of values nearly all different (a row per site) are
        // written plainly: a dictionary of them would save no bytes (the
        // file is smaller without) and cost a hash of every value.
        for name in ["site", "url", "final_url", "hash", "offset"] {
            props = props
                .set_column_dictionary_enabled(ColumnPath::from(name), false);
        }
        let props = props.build();
        let writer =
            SerializedFileWriter::new(out, Arc::new(schema), Arc::new(props))
                .map_err(perr)?;
        Ok(Parquet {
            writer,
            columns,
            rows: 0,
            crawlers: None,
            verdicts: Verdicts::default(),
        })
    }

    /// Counts a row put, and writes the row group once full.
    fn row_done(&mut self) -> io::Result<()> {
        self.rows += 1;
        if self.rows >= ROW_GROUP {
            self.flush_group()?;
        }
        Ok(())
    }

    /// Writes the buffered rows as a row group. Each column chunk is
    /// encoded on its own into memory, then appended in order: on a rayon
    /// pool's thread (as at the end of a job), the columns are encoded in
    /// parallel on that pool; elsewhere one after another. The bytes are
    /// the same either way.
    fn flush_group(&mut self) -> io::Result<()> {
        if self.rows == 0 {
            return Ok(());
        }
        let descrs = self.writer.schema_descr().columns().to_vec();
        let props = self.writer.properties().clone();
        if let Some(first) = self.crawlers {
            self.verdicts.prepare(&mut self.columns[first..]);
        }
        let (first, verdicts) = (self.crawlers, &self.verdicts);
        let encode = |(i, ((buffer, defs), descr)): (
            usize,
            (&mut (Buffer, Vec<i16>), ColumnDescPtr),
        )| {
            // A crawler's column is made just before it is encoded, and
            // its room given back after: the crawlers' columns, most of
            // the table, take the room of one at a time (of two, on two
            // threads), not of all of them.
            let crawler = first.and_then(|f| i.checked_sub(f));
            if let Some(c) = crawler {
                verdicts.fill_column(c / 3, c % 3, buffer, defs);
            }
            let out = encode_column(descr, props.clone(), buffer, defs);
            match crawler {
                Some(_) => release(buffer, defs),
                None => clear(buffer, defs),
            }
            out
        };
        let columns = self.columns.iter_mut().zip(descrs).enumerate();
        let chunks: Vec<_> = if rayon::current_thread_index().is_some() {
            use rayon::prelude::*;
            columns.collect::<Vec<_>>().into_par_iter().map(encode).collect()
        } else {
            columns.map(encode).collect()
        };
        let mut group = self.writer.next_row_group().map_err(perr)?;
        for chunk in chunks {
            let (bytes, close) = chunk.map_err(perr)?;
            group.append_column(&bytes, close).map_err(perr)?;
        }
        group.close().map_err(perr)?;
        self.verdicts.clear();
        self.rows = 0;
        Ok(())
    }
}

/// Empties a column's buffers and gives their room back (a column of
/// words keeps its words).
fn release(buffer: &mut Buffer, defs: &mut Vec<i16>) {
    match buffer {
        Buffer::Str(v, ends) => {
            *v = Vec::new();
            *ends = Vec::new();
        }
        Buffer::Vocab(_, at) => *at = Vec::new(),
        Buffer::I32(v) => *v = Vec::new(),
        Buffer::I64(v) => *v = Vec::new(),
        Buffer::F64(v) => *v = Vec::new(),
        Buffer::Bool(v) => *v = Vec::new(),
    }
    *defs = Vec::new();
}

/// Empties a column's buffers, keeping their room.
fn clear(buffer: &mut Buffer, defs: &mut Vec<i16>) {
    match buffer {
        Buffer::Str(v, ends) => {
            v.clear();
            ends.clear();
        }
        Buffer::Vocab(_, at) => at.clear(),
        Buffer::I32(v) => v.clear(),
        Buffer::I64(v) => v.clear(),
        Buffer::F64(v) => v.clear(),
        Buffer::Bool(v) => v.clear(),
    }
    defs.clear();
}

/// Encodes one column chunk of a row group into memory: its bytes and
/// what [`SerializedRowGroupWriter::append_column`] needs to place them.
///
/// [`SerializedRowGroupWriter::append_column`]: parquet::file::writer::SerializedRowGroupWriter::append_column
fn encode_column(
    descr: ColumnDescPtr,
    props: WriterPropertiesPtr,
    buffer: &mut Buffer,
    defs: &[i16],
) -> parquet::errors::Result<(Bytes, ColumnCloseResult)> {
    match &*buffer {
        // A chunk of nulls only (its words came in an earlier row group)
        // goes through the column writer, as a chunk without words.
        Buffer::Vocab(words, at)
            if !at.is_empty() && words::applies(&descr, &props) =>
        {
            return words::encode(descr, &props, words, at, defs);
        }
        Buffer::F64(values)
            if !values.is_empty() && words::applies(&descr, &props) =>
        {
            let chunk =
                words::encode_doubles(descr.clone(), &props, values, defs);
            if let Some(chunk) = chunk {
                return chunk;
            }
        }
        _ => {}
    }
    let mut sink = TrackedWrite::new(Vec::new());
    let close = {
        let pages = SerializedPageWriter::new(&mut sink);
        let mut column = get_column_writer(descr, props, Box::new(pages));
        let defs = Some(defs);
        match (&mut column, &mut *buffer) {
            (
                ColumnWriter::ByteArrayColumnWriter(w),
                Buffer::Str(bytes, ends),
            ) => {
                // Slices of one shared buffer: no copy per value.
                let all = Bytes::from(std::mem::take(bytes));
                let mut start = 0;
                let values: Vec<ByteArray> = ends
                    .iter()
                    .map(|&end| {
                        let v = ByteArray::from(all.slice(start..end));
                        start = end;
                        v
                    })
                    .collect();
                w.write_batch(&values, defs, None)
            }
            (
                ColumnWriter::ByteArrayColumnWriter(w),
                Buffer::Vocab(words, at),
            ) => {
                let values: Vec<ByteArray> = at
                    .iter()
                    .map(|&i| {
                        let word = words[usize::from(i)].as_bytes();
                        ByteArray::from(Bytes::from_static(word))
                    })
                    .collect();
                w.write_batch(&values, defs, None)
            }
            (ColumnWriter::Int32ColumnWriter(w), Buffer::I32(v)) => {
                w.write_batch(v, defs, None)
            }
            (ColumnWriter::Int64ColumnWriter(w), Buffer::I64(v)) => {
                w.write_batch(v, defs, None)
            }
            (ColumnWriter::DoubleColumnWriter(w), Buffer::F64(v)) => {
                w.write_batch(v, defs, None)
            }
            (ColumnWriter::BoolColumnWriter(w), Buffer::Bool(v)) => {
                w.write_batch(v, defs, None)
            }
            _ => unreachable!("the buffers follow the schema"),
        }?;
        column.close()?
    };
    Ok((Bytes::from(sink.into_inner()?), close))
}

impl<W: Write + Send> Values for Parquet<W> {
    fn put(&mut self, row: &Row, skip: usize) -> io::Result<()> {
        let total = self.columns.len();
        let mut columns = self.columns.iter_mut();
        let mut skip = skip;
        if skip > SITE_COLUMNS.len() {
            row.for_each_cell(|v| {
                if skip > 0 {
                    skip -= 1;
                } else if let Some((buffer, defs)) = columns.next() {
                    defs.push(i16::from(put_cell(buffer, v)));
                }
            });
            return self.row_done();
        }
        row.for_each_site_cell(|v| {
            if skip > 0 {
                skip -= 1;
                return;
            }
            let Some((buffer, defs)) = columns.next() else { return };
            defs.push(i16::from(put_cell(buffer, v)));
        });
        // The crawlers' columns, three a crawler: most of the row, made
        // when the row group is written (`Verdicts`).
        let first = total - columns.len();
        debug_assert!(self.crawlers.is_none_or(|f| f == first));
        self.crawlers = Some(first);
        self.verdicts.push(&row.eval.verdicts);
        self.row_done()
    }

    fn done(mut self: Box<Self>) -> io::Result<()> {
        self.flush_group()?;
        let mut out = self.writer.into_inner().map_err(perr)?;
        out.flush()
    }
}

/// Adds a cell to its column's buffer; returns whether it holds a value
/// (false for a null, or a value of another type than the column's).
fn put_cell(buffer: &mut Buffer, cell: Cell<'_>) -> bool {
    match (buffer, cell) {
        (_, Cell::Ref(ValueRef::Null)) => false,
        (buffer, Cell::Static(s)) => push_word(buffer, s),
        (buffer, Cell::Ref(ValueRef::Str(s))) => push_str(buffer, s),
        (Buffer::I32(b), Cell::Ref(ValueRef::Int(n))) => {
            b.push(n as i32);
            true
        }
        (Buffer::I64(b), Cell::Ref(ValueRef::Int(n))) => {
            b.push(n);
            true
        }
        (Buffer::F64(b), Cell::Ref(ValueRef::F64(f))) => {
            b.push(f);
            true
        }
        (Buffer::Bool(b), Cell::Ref(ValueRef::Bool(x))) => {
            b.push(x);
            true
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer of two columns of `kind`: `name`, which `words` writes,
    /// and `other`, which the column writer writes.
    fn words_and_other(name: &str, kind: Type) -> Parquet<Vec<u8>> {
        let schema = [
            Column { name: name.into(), kind },
            Column { name: "other".into(), kind },
        ];
        let p = Parquet::new(Vec::new(), &schema).unwrap();
        let columns = p.writer.schema_descr();
        let props = p.writer.properties();
        assert!(words::applies(&columns.column(0), props));
        assert!(!words::applies(&columns.column(1), props));
        p
    }

    /// Writes `rows` (each a word or null) to a Parquet file twice over,
    /// as a column of words (written by `words`) and as a column of
    /// strings (written by the column writer), and reads both back.
    fn words_and_strings(
        rows: &[Option<&'static str>],
    ) -> Vec<[Option<String>; 2]> {
        use parquet::file::reader::{FileReader, SerializedFileReader};
        use parquet::record::Field;
        let mut p = words_and_other("access_x", Type::Str);
        for row in rows {
            for (i, (buffer, defs)) in p.columns.iter_mut().enumerate() {
                let present = match row {
                    None => false,
                    Some(w) if i == 0 => push_word(buffer, w),
                    Some(w) => push_str(buffer, w),
                };
                defs.push(i16::from(present));
            }
            p.row_done().unwrap();
        }
        p.flush_group().unwrap();
        let out = Bytes::from(p.writer.into_inner().unwrap());
        let reader = SerializedFileReader::new(out).unwrap();
        let groups = reader.metadata().num_row_groups();
        assert_eq!(groups, rows.len().div_ceil(ROW_GROUP));
        if !rows.is_empty() {
            let words = reader.metadata().row_group(0).column(0);
            let pages = rows.len().min(ROW_GROUP).div_ceil(words::PAGE_ROWS);
            let stats = words.page_encoding_stats().unwrap();
            assert_eq!(stats.last().unwrap().count as usize, pages);
            assert!(words.statistics().is_none());
        }
        reader
            .get_row_iter(None)
            .unwrap()
            .map(|r| {
                let r = r.unwrap();
                let mut cells = r.get_column_iter().map(|(_, f)| match f {
                    Field::Null => None,
                    Field::Str(s) => Some(s.clone()),
                    other => panic!("unexpected {other:?}"),
                });
                [cells.next().unwrap(), cells.next().unwrap()]
            })
            .collect()
    }

    #[test]
    fn columns_of_words_read_back_as_written() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let many: Vec<&'static str> = (0..256)
            .map(|i| &*Box::leak(format!("word{i}").into_boxed_str()))
            .collect();
        // Words at two addresses with the same bytes: one dictionary
        // entry, the same value.
        let again: &'static str = Box::leak("word3".to_string().into());
        let cases: Vec<Vec<Option<&'static str>>> = vec![
            vec![],
            vec![None; 10],
            vec![Some("allowed"); 3],
            // Random words and nulls over several pages and two row
            // groups, runs among them.
            (0..70_000)
                .map(|i| match next() % 10 {
                    0 => None,
                    _ if (i / 300) % 3 == 0 => Some("partial"),
                    n => Some(many[(n as usize * 7 + i) % 5]),
                })
                .collect(),
            // A second row group of nulls only, after one of words.
            (0..ROW_GROUP + 100)
                .map(|i| (i < ROW_GROUP && i % 3 > 0).then_some("named"))
                .collect(),
            // Every one of 256 words, and the same bytes again.
            (0..5_000)
                .map(|i| match i % 257 {
                    256 => Some(again),
                    k => Some(many[k]),
                })
                .collect(),
        ];
        for rows in cases {
            let got = words_and_strings(&rows);
            assert_eq!(got.len(), rows.len());
            for (row, [words, strings]) in rows.iter().zip(&got) {
                assert_eq!(words.as_deref(), *row);
                assert_eq!(strings.as_deref(), *row);
            }
        }
    }

    fn strings(buffer: &Buffer) -> Vec<String> {
        match buffer {
            Buffer::Str(bytes, ends) => {
                let mut start = 0;
                ends.iter()
                    .map(|&end| {
                        let s = &bytes[start..end];
                        start = end;
                        String::from_utf8(s.to_vec()).unwrap()
                    })
                    .collect()
            }
            Buffer::Vocab(words, at) => {
                at.iter().map(|&i| words[usize::from(i)].to_string()).collect()
            }
            _ => panic!("not a string column"),
        }
    }

    #[test]
    fn words_and_strings_mix_in_a_column() {
        let (allowed, partial): (&'static str, &'static str) =
            ("allowed", "partial");
        let mut b = Buffer::Str(Vec::new(), Vec::new());
        assert!(push_word(&mut b, allowed));
        assert!(push_word(&mut b, partial));
        assert!(push_word(&mut b, allowed));
        assert!(matches!(&b, Buffer::Vocab(w, _) if w.len() == 2));
        // The same word at another address: another place, same bytes.
        let again: &'static str = Box::leak(allowed.to_string().into());
        assert!(push_word(&mut b, again));
        assert!(matches!(&b, Buffer::Vocab(w, _) if w.len() == 3));
        assert_eq!(strings(&b), ["allowed", "partial", "allowed", "allowed"]);
        assert!(push_str(&mut b, "other"));
        assert!(push_word(&mut b, partial));
        assert!(matches!(b, Buffer::Str(..)));
        assert_eq!(
            strings(&b),
            ["allowed", "partial", "allowed", "allowed", "other", "partial"]
        );
        // Past 256 different words, the column holds copies.
        let words: Vec<&'static str> = (0..300)
            .map(|i| &*Box::leak(format!("w{i}").into_boxed_str()))
            .collect();
        let mut b = Buffer::Str(Vec::new(), Vec::new());
        for w in &words {
            assert!(push_word(&mut b, w));
        }
        assert!(matches!(b, Buffer::Str(..)));
        assert_eq!(strings(&b), words);
        // Not a string column: no value.
        assert!(!push_word(&mut Buffer::I32(Vec::new()), "x"));
        assert!(!push_str(&mut Buffer::I32(Vec::new()), "x"));
    }

    /// A column's cells as text, `None` for a null.
    fn cells(buffer: &Buffer, defs: &[i16]) -> Vec<Option<String>> {
        let mut values = match buffer {
            Buffer::F64(v) => v.iter().map(f64::to_string).collect(),
            b => strings(b),
        }
        .into_iter();
        defs.iter()
            .map(|&d| (d != 0).then(|| values.next().unwrap()))
            .collect()
    }

    #[test]
    fn verdicts_fill_the_columns_as_their_cells_would() {
        let v =
            |access, via, crawl_delay| Verdict { access, via, crawl_delay };
        let a: Arc<[Verdict]> = vec![
            v("allowed", Some("named"), Some(2.5)),
            v("partial", None, None),
            v("allowed", None, None),
        ]
        .into();
        let b: Arc<[Verdict]> = vec![
            v("disallowed", Some("global"), None),
            v("allowed", Some("global"), Some(0.0)),
            v("partial", None, None),
        ]
        .into();
        // Equal to `a` at another address, shorter than the crawlers, and
        // empty.
        let c: Arc<[Verdict]> = a.to_vec().into();
        let short: Arc<[Verdict]> = vec![v("unknown", None, None)].into();
        let empty: Arc<[Verdict]> = Vec::new().into();
        let lists = [&a, &b, &a, &c, &short, &b, &empty, &a, &short];
        let rows = || lists.iter().cycle().take(3 * lists.len());
        // Three crawlers; the second's `via` column holds a string already,
        // so it is filled row by row; the third's `via` is all nulls.
        let new = || {
            let mut columns: Vec<(Buffer, Vec<i16>)> = (0..9)
                .map(|i| match i % 3 {
                    2 => (Buffer::F64(Vec::new()), Vec::new()),
                    _ => (Buffer::Str(Vec::new(), Vec::new()), Vec::new()),
                })
                .collect();
            assert!(push_str(&mut columns[4].0, "written before"));
            columns[4].1.push(1);
            columns
        };
        // Cell by cell, as rows were put.
        let mut want = new();
        for list in rows() {
            for (k, crawler) in want.chunks_exact_mut(3).enumerate() {
                let [(access, ad), (via, vd), (delay, dd)] = crawler else {
                    unreachable!()
                };
                let v = list.get(k);
                let w = v.map(|v| v.access);
                ad.push(i16::from(w.is_some_and(|w| push_word(access, w))));
                let w = v.and_then(|v| v.via);
                vd.push(i16::from(w.is_some_and(|w| push_word(via, w))));
                let d = v.and_then(|v| v.crawl_delay);
                let d = d.is_some_and(|d| {
                    put_cell(delay, Cell::Ref(ValueRef::F64(d)))
                });
                dd.push(i16::from(d));
            }
        }
        // By lists, in two row groups.
        let mut got = new();
        let mut verdicts = Verdicts::default();
        for (i, list) in rows().enumerate() {
            verdicts.push(list);
            if i + 1 == lists.len() {
                // Each distinct list once, told apart by address.
                assert_eq!(verdicts.lists.len(), 5);
                verdicts.fill(&mut got);
            }
        }
        verdicts.fill(&mut got);
        assert!(verdicts.lists.is_empty() && verdicts.rows.is_empty());
        assert!(matches!(got[0].0, Buffer::Vocab(..)));
        assert!(matches!(got[4].0, Buffer::Str(..)));
        assert!(got[7].1.iter().all(|&d| d == 0));
        assert_eq!(got[0].1.len(), 3 * lists.len());
        for ((w, wd), (g, gd)) in want.iter().zip(&got) {
            assert_eq!(cells(g, gd), cells(w, wd));
        }
    }

    /// Puts `rows` into a Parquet file (on a pool of two threads if
    /// `pool`) and reads its cells back as text, `None` for a null.
    fn put_and_read(
        schema: &Schema,
        rows: &[Row],
        pool: bool,
    ) -> Vec<Vec<Option<String>>> {
        use parquet::file::reader::{FileReader, SerializedFileReader};
        use parquet::record::Field;
        let file = tempfile::NamedTempFile::new().unwrap();
        let write = || {
            let out = Box::new(file.reopen().unwrap());
            let mut p =
                values(out, Format::Parquet, schema.columns()).unwrap();
            for row in rows {
                p.put(row, 0).unwrap();
            }
            p.done().unwrap();
        };
        if pool {
            let threads = rayon::ThreadPoolBuilder::new().num_threads(2);
            threads.build().unwrap().install(write);
        } else {
            write();
        }
        let reader =
            SerializedFileReader::new(file.reopen().unwrap()).unwrap();
        assert_eq!(
            reader.metadata().num_row_groups(),
            rows.len().div_ceil(ROW_GROUP)
        );
        let cell = |f: &Field| match f {
            Field::Null => None,
            Field::Str(s) => Some(s.clone()),
            Field::Int(n) => Some(n.to_string()),
            Field::Long(n) => Some(n.to_string()),
            Field::Double(d) => Some(d.to_string()),
            Field::Bool(b) => Some(b.to_string()),
            other => panic!("unexpected {other:?}"),
        };
        reader
            .get_row_iter(None)
            .unwrap()
            .map(|r| {
                r.unwrap().get_column_iter().map(|(_, f)| cell(f)).collect()
            })
            .collect()
    }

    #[test]
    fn rows_of_two_row_groups_read_back_as_put() {
        use robotrules_analysis::{Catalogue, Crawler, Purpose};
        let crawler = |t: &str| Crawler::new(t, "X", Purpose::Other);
        let catalogue =
            Catalogue::new(vec![crawler("a"), crawler("b")]).unwrap();
        let schema = Schema::new(&catalogue);
        let v =
            |access, via, crawl_delay| Verdict { access, via, crawl_delay };
        let shared: [Arc<[Verdict]>; 3] = [
            vec![v("allowed", Some("global"), None); 2].into(),
            vec![
                v("partial", Some("named"), Some(1.5)),
                v("disallowed", None, None),
            ]
            .into(),
            // Shorter than the crawlers: the rest of the row is null.
            vec![v("unknown", None, Some(0.0))].into(),
        ];
        let rows: Vec<Row> = (0..ROW_GROUP + 1_000)
            .map(|i| {
                let verdicts = match i % 7 {
                    // A list of its own, as when the memo is full.
                    6 => shared[i % 2].to_vec().into(),
                    k => Arc::clone(&shared[k % 3]),
                };
                Row {
                    crawl: "CC-MAIN-2024-10".into(),
                    site: format!("https://s{i}.example"),
                    url: format!("https://s{i}.example/robots.txt"),
                    captures: 1,
                    hops: (i % 3) as i32,
                    redirect_stop: (i % 5 == 0).then(|| "loop".to_string()),
                    final_url: format!("https://s{i}.example/robots.txt"),
                    date: "2024-02-20T10:00:00Z".into(),
                    file: "a.warc.gz".into(),
                    offset: i as i64 * 1000,
                    eval: crate::Evaluation {
                        status: Some(200),
                        class: "success",
                        body_kind: Some("text"),
                        size: Some(i as i64),
                        truncated: Some(false),
                        hash: Some(format!("{i:016x}")),
                        groups: Some(1),
                        rules: Some(2),
                        sitemaps: None,
                        lint_errors: Some(0),
                        lint_warnings: Some(1),
                        verdicts,
                    },
                }
            })
            .collect();
        let text = |v: Value| match v {
            Value::Null => None,
            Value::Str(s) => Some(s),
            Value::Int(n) => Some(n.to_string()),
            Value::F64(f) => Some(f.to_string()),
            Value::Bool(b) => Some(b.to_string()),
        };
        let want: Vec<Vec<Option<String>>> = rows
            .iter()
            .map(|r| {
                let mut cells: Vec<_> =
                    r.values().into_iter().map(text).collect();
                cells.resize(schema.columns().len(), None);
                cells
            })
            .collect();
        for pool in [false, true] {
            let got = put_and_read(&schema, &rows, pool);
            assert_eq!(got.len(), want.len());
            for (i, (g, w)) in got.iter().zip(&want).enumerate() {
                assert_eq!(g, w, "row {i}, pool {pool}");
            }
        }
    }

    #[test]
    fn crawl_delays_read_back_as_written() {
        use parquet::file::reader::{FileReader, SerializedFileReader};
        use parquet::record::Field;
        let mut p = words_and_other("delay_x", Type::F64);
        // A first row group of a few values (0.0 and -0.0 apart), a second
        // of 300 distinct ones (past a dictionary of 256: the column
        // writer's), a third of nulls only.
        let few = [Some(0.0), None, Some(-0.0), Some(1.5), Some(1.5), None];
        let rows: Vec<Option<f64>> = (0..ROW_GROUP)
            .map(|i| few[i % few.len()])
            .chain((0..ROW_GROUP).map(|i| Some((i % 300) as f64 / 4.0)))
            .chain(std::iter::repeat_n(None, 10))
            .collect();
        for row in &rows {
            for (buffer, defs) in p.columns.iter_mut() {
                let present = row.is_some_and(|d| {
                    put_cell(buffer, Cell::Ref(ValueRef::F64(d)))
                });
                defs.push(i16::from(present));
            }
            p.row_done().unwrap();
        }
        p.flush_group().unwrap();
        let out = Bytes::from(p.writer.into_inner().unwrap());
        let reader = SerializedFileReader::new(out).unwrap();
        assert_eq!(reader.metadata().num_row_groups(), 3);
        let first = reader.metadata().row_group(0);
        assert!(first.column(0).statistics().is_none());
        assert!(first.column(1).statistics().is_some());
        let bits = |f: &Field| match f {
            Field::Null => None,
            Field::Double(d) => Some(d.to_bits()),
            other => panic!("unexpected {other:?}"),
        };
        let got: Vec<[Option<u64>; 2]> = reader
            .get_row_iter(None)
            .unwrap()
            .map(|r| {
                let r = r.unwrap();
                let mut cells = r.get_column_iter().map(|(_, f)| bits(f));
                [cells.next().unwrap(), cells.next().unwrap()]
            })
            .collect();
        assert_eq!(got.len(), rows.len());
        for (i, (g, want)) in got.iter().zip(&rows).enumerate() {
            let want = want.map(f64::to_bits);
            assert_eq!(*g, [want, want], "row {i}");
        }
    }
}
