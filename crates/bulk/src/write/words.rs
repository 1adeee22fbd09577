//! Column chunks of a few fixed words (each crawler's `access_` and
//! `via_`, the class, the body kind: most of the table), written straight
//! from their places among the words; and of crawl-delays (`delay_`, a
//! few distinct values, mostly null), from a dictionary of their bits.
//!
//! The `parquet` crate's column writer takes every value as bytes and
//! looks each up in its dictionary (a hash of the value, then a
//! comparison): with 114 such columns, a fifth of a bulk job's
//! instructions went to encoding its row groups, nearly half of that to
//! the lookup. These columns already hold each value as its place among
//! at most 256 words, which is a dictionary index: the chunk is written
//! here in the pages that writer makes (Parquet 1.0 data pages of
//! `RLE_DICTIONARY` indices after a `PLAIN` dictionary page, definition
//! levels in `RLE`, compressed as the properties say, an offset index and
//! no statistics), without a lookup per value. The bytes differ in two
//! ways, both valid Parquet: a page ends at exactly the properties' row
//! limit (the writer checks it every 1,024 rows), and the indices take at
//! least one bit (the writer gives a dictionary of one word none). Columns
//! with other properties go through the column writer.
//!
//! See: <https://parquet.apache.org/docs/file-format/data-pages/encodings/>

use bytes::Bytes;
use parquet::basic::{Compression, Encoding, PageType};
use parquet::column::page::{CompressedPage, Page, PageWriter};
use parquet::column::writer::ColumnCloseResult;
use parquet::errors::{ParquetError, Result};
use parquet::file::metadata::{
    ColumnChunkMetaData, OffsetIndexBuilder, PageEncodingStats,
};
use parquet::file::properties::{
    EnabledStatistics, WriterProperties, WriterVersion,
};
use parquet::file::writer::{SerializedPageWriter, TrackedWrite};
use parquet::schema::types::ColumnDescPtr;

/// The rows of a data page at most, unless the properties say otherwise:
/// the column writer's default limit.
#[cfg(test)]
pub(super) const PAGE_ROWS: usize =
    parquet::file::properties::DEFAULT_DATA_PAGE_ROW_COUNT_LIMIT;

/// Returns true if a column of words with these properties is written
/// here: an optional column of one level, with a dictionary, without
/// statistics or a bloom filter, in Parquet 1.0 pages, uncompressed or
/// in Snappy.
pub(super) fn applies(
    descr: &ColumnDescPtr,
    props: &WriterProperties,
) -> bool {
    let path = descr.path();
    descr.max_def_level() == 1
        && descr.max_rep_level() == 0
        && props.dictionary_enabled(path)
        && props.statistics_enabled(path) == EnabledStatistics::None
        && props.bloom_filter_properties(path).is_none()
        && props.writer_version() == WriterVersion::PARQUET_1_0
        && !props.offset_index_disabled()
        && matches!(
            props.compression(path),
            Compression::SNAPPY | Compression::UNCOMPRESSED
        )
}

/// Encodes one column chunk of words: `at` holds the place among `words`
/// of each value present, `defs` a level per row (1 present, 0 null).
pub(super) fn encode(
    descr: ColumnDescPtr,
    props: &WriterProperties,
    words: &[&'static str],
    at: &[u8],
    defs: &[i16],
) -> Result<(Bytes, ColumnCloseResult)> {
    // The dictionary: each word used, once, in the order first used, as
    // the column writer orders it. A place names a word; two places may
    // name the same bytes.
    let mut index_of = [u16::MAX; 256];
    let mut dictionary: Vec<&str> = Vec::new();
    let mut indices = Vec::with_capacity(at.len());
    for &place in at {
        let slot = &mut index_of[usize::from(place)];
        if *slot == u16::MAX {
            let word =
                words.get(usize::from(place)).copied().ok_or_else(|| {
                    ParquetError::General(format!("no word at {place}"))
                })?;
            *slot = match dictionary.iter().position(|w| *w == word) {
                Some(i) => i as u16,
                None => {
                    dictionary.push(word);
                    (dictionary.len() - 1) as u16
                }
            };
        }
        // At most 256 places: the index fits a byte.
        indices.push(*slot as u8);
    }
    // The dictionary page: each word PLAIN, its length before it.
    let mut plain = Vec::new();
    for word in &dictionary {
        plain.extend_from_slice(&(word.len() as u32).to_le_bytes());
        plain.extend_from_slice(word.as_bytes());
    }
    chunk(descr, props, &plain, dictionary.len(), &indices, defs)
}

/// Encodes one column chunk of crawl-delays (`DOUBLE`) the same way:
/// `values` holds each value present, `defs` a level per row. `None` if
/// the chunk has more than 256 distinct values (by their bits): the
/// column writer then takes it.
pub(super) fn encode_doubles(
    descr: ColumnDescPtr,
    props: &WriterProperties,
    values: &[f64],
    defs: &[i16],
) -> Option<Result<(Bytes, ColumnCloseResult)>> {
    // The dictionary: each value's bits, once, in the order first used,
    // as the column writer orders it (it tells values apart by bits).
    let mut dictionary: Vec<u64> = Vec::new();
    let mut indices = Vec::with_capacity(values.len());
    let mut last = None;
    for v in values {
        let bits = v.to_bits();
        let i = match last {
            Some((b, i)) if b == bits => i,
            _ => match dictionary.iter().position(|&d| d == bits) {
                Some(i) => i as u8,
                None if dictionary.len() < 256 => {
                    dictionary.push(bits);
                    (dictionary.len() - 1) as u8
                }
                None => return None,
            },
        };
        last = Some((bits, i));
        indices.push(i);
    }
    // The dictionary page: each value PLAIN, eight bytes little-endian.
    let plain: Vec<u8> =
        dictionary.iter().flat_map(|b| b.to_le_bytes()).collect();
    Some(chunk(descr, props, &plain, dictionary.len(), &indices, defs))
}

/// Writes a column chunk of a dictionary (`plain`: its `entries` values,
/// PLAIN), then data pages of `indices` into it, one an index present, and
/// of the definition levels `defs`.
fn chunk(
    descr: ColumnDescPtr,
    props: &WriterProperties,
    plain: &[u8],
    entries: usize,
    indices: &[u8],
    defs: &[i16],
) -> Result<(Bytes, ColumnCloseResult)> {
    let codec = props.compression(descr.path());
    let mut sink = TrackedWrite::new(Vec::new());
    let mut pages = SerializedPageWriter::new(&mut sink);
    let (mut compressed, mut uncompressed) = (0i64, 0i64);

    let page = Page::DictionaryPage {
        buf: compress(codec, plain)?,
        num_values: entries as u32,
        encoding: Encoding::PLAIN,
        is_sorted: false,
    };
    let spec = pages.write_page(CompressedPage::new(page, plain.len()))?;
    compressed += spec.compressed_size as i64;
    uncompressed += spec.uncompressed_size as i64;

    // The data pages.
    let width = bit_width(entries);
    let mut offsets = OffsetIndexBuilder::new();
    let mut stats = vec![PageEncodingStats {
        page_type: PageType::DICTIONARY_PAGE,
        encoding: Encoding::PLAIN,
        count: 1,
    }];
    let mut first_data = None;
    let mut taken = 0;
    let (mut buf, mut present) = (Vec::new(), Vec::new());
    let page_rows = props.data_page_row_count_limit().max(1);
    for levels in defs.chunks(page_rows) {
        present.clear();
        present.extend(levels.iter().map(|&d| u8::from(d != 0)));
        let n = present.iter().map(|&p| usize::from(p)).sum::<usize>();
        let values = indices.get(taken..taken + n).ok_or_else(|| {
            ParquetError::General("fewer values than levels".into())
        })?;
        taken += n;
        buf.clear();
        // Definition levels, after their length (Parquet 1.0).
        buf.extend_from_slice(&[0; 4]);
        hybrid(&mut buf, &present, 1);
        let len = (buf.len() - 4) as u32;
        buf[..4].copy_from_slice(&len.to_le_bytes());
        // The indices, after their bit width.
        buf.push(width);
        hybrid(&mut buf, values, width);
        let page = Page::DataPage {
            buf: compress(codec, &buf)?,
            num_values: levels.len() as u32,
            encoding: Encoding::RLE_DICTIONARY,
            def_level_encoding: Encoding::RLE,
            rep_level_encoding: Encoding::RLE,
            statistics: None,
        };
        let spec = pages.write_page(CompressedPage::new(page, buf.len()))?;
        compressed += spec.compressed_size as i64;
        uncompressed += spec.uncompressed_size as i64;
        first_data.get_or_insert(spec.offset as i64);
        offsets.append_offset_and_size(
            spec.offset as i64,
            spec.compressed_size as i32,
        );
        offsets.append_row_count(levels.len() as i64);
        offsets.append_unencoded_byte_array_data_bytes(None);
    }
    if taken != indices.len() {
        return Err(ParquetError::General("more values than levels".into()));
    }
    let data_pages = defs.len().div_ceil(page_rows);
    if data_pages > 0 {
        stats.push(PageEncodingStats {
            page_type: PageType::DATA_PAGE,
            encoding: Encoding::RLE_DICTIONARY,
            count: data_pages as i32,
        });
    }
    pages.close()?;

    let metadata = ColumnChunkMetaData::builder(descr)
        .set_compression(codec)
        .set_encodings(vec![
            Encoding::PLAIN,
            Encoding::RLE,
            Encoding::RLE_DICTIONARY,
        ])
        .set_page_encoding_stats(stats)
        .set_total_compressed_size(compressed)
        .set_total_uncompressed_size(uncompressed)
        .set_num_values(defs.len() as i64)
        .set_data_page_offset(first_data.unwrap_or(0))
        .set_dictionary_page_offset(Some(0))
        .build()?;
    let bytes_written = sink.bytes_written() as u64;
    let close = ColumnCloseResult {
        bytes_written,
        rows_written: defs.len() as u64,
        metadata,
        bloom_filter: None,
        column_index: None,
        offset_index: Some(offsets.build()),
    };
    Ok((Bytes::from(sink.into_inner()?), close))
}

/// The bits an index into a dictionary of `n` words takes (at least 1).
fn bit_width(n: usize) -> u8 {
    let max = n.saturating_sub(1) as u32;
    (u32::BITS - max.leading_zeros()).max(1) as u8
}

/// `data` compressed by `codec` (Snappy, or none).
fn compress(codec: Compression, data: &[u8]) -> Result<Bytes> {
    match codec {
        Compression::SNAPPY => snap::raw::Encoder::new()
            .compress_vec(data)
            .map(Bytes::from)
            .map_err(|e| ParquetError::External(Box::new(e))),
        Compression::UNCOMPRESSED => Ok(Bytes::copy_from_slice(data)),
        other => Err(ParquetError::NYI(format!("{other} in words::encode"))),
    }
}

/// Appends `values` (each below `1 << width`, `width` at most 8) in the
/// RLE / bit-packing hybrid encoding: a run of eight or more equal values
/// as one repeated value, the others bit-packed eight at a time (the
/// last group padded with zeros, which readers never read, as they know
/// the count).
fn hybrid(out: &mut Vec<u8>, values: &[u8], width: u8) {
    let mut i = 0;
    // Groups waiting to be bit-packed, as indices into `values`.
    let mut packed_from = 0;
    let mut packed_groups = 0usize;
    while i < values.len() {
        let v = values[i];
        let run = values[i..].iter().take_while(|&&x| x == v).count();
        if run >= 8 {
            flush_packed(out, values, packed_from, packed_groups, width);
            packed_groups = 0;
            varint(out, (run as u64) << 1);
            out.push(v);
            i += run;
            packed_from = i;
            continue;
        }
        // A group of eight (or the last, shorter one) to bit-pack.
        if packed_groups == 0 {
            packed_from = i;
        }
        packed_groups += 1;
        i = (i + 8).min(values.len());
    }
    flush_packed(out, values, packed_from, packed_groups, width);
}

/// Writes `groups` groups of eight values from `values[from..]` as one
/// bit-packed run, values past the end as zeros.
fn flush_packed(
    out: &mut Vec<u8>,
    values: &[u8],
    from: usize,
    groups: usize,
    width: u8,
) {
    if groups == 0 {
        return;
    }
    varint(out, (groups as u64) << 1 | 1);
    let width = u32::from(width);
    for g in 0..groups {
        // Eight values of `width` bits, the first in the lowest bits.
        let mut bits = 0u64;
        for k in 0..8 {
            let v = values.get(from + 8 * g + k).copied().unwrap_or(0);
            bits |= u64::from(v) << (width * k as u32);
        }
        out.extend_from_slice(&bits.to_le_bytes()[..width as usize]);
    }
}

/// Appends `n` as a ULEB128 varint.
fn varint(out: &mut Vec<u8>, mut n: u64) {
    while n >= 0x80 {
        out.push(n as u8 | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Decodes the hybrid encoding of `count` values, as readers do.
    fn unhybrid(mut data: &[u8], width: u8, count: usize) -> Vec<u8> {
        let mut out = Vec::new();
        let read_varint = |data: &mut &[u8]| {
            let (mut n, mut shift) = (0u64, 0);
            loop {
                let b = data[0];
                *data = &data[1..];
                n |= u64::from(b & 0x7f) << shift;
                if b & 0x80 == 0 {
                    return n;
                }
                shift += 7;
            }
        };
        while out.len() < count {
            let header = read_varint(&mut data);
            if header & 1 == 1 {
                let groups = (header >> 1) as usize;
                for _ in 0..groups {
                    let mut word = [0u8; 8];
                    word[..usize::from(width)]
                        .copy_from_slice(&data[..usize::from(width)]);
                    data = &data[usize::from(width)..];
                    let bits = u64::from_le_bytes(word);
                    for k in 0..8 {
                        let mask = (1u64 << width) - 1;
                        out.push(
                            (bits >> (u32::from(width) * k) & mask) as u8,
                        );
                    }
                }
            } else {
                let run = (header >> 1) as usize;
                let v = data[0];
                data = &data[1..];
                out.extend(std::iter::repeat_n(v, run));
            }
        }
        assert!(data.is_empty(), "bytes left after the values");
        out.truncate(count);
        out
    }

    #[test]
    fn hybrid_round_trips() {
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for width in 1..=8u8 {
            for len in [0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 1000] {
                for runs in [false, true] {
                    let values: Vec<u8> = (0..len)
                        .map(|i| {
                            let v =
                                if runs { (i / 11) as u64 } else { next() };
                            (v % (1u64 << width)) as u8
                        })
                        .collect();
                    let mut out = Vec::new();
                    hybrid(&mut out, &values, width);
                    assert_eq!(
                        unhybrid(&out, width, values.len()),
                        values,
                        "width {width} len {len} runs {runs}"
                    );
                }
            }
        }
    }

    #[test]
    fn widths() {
        assert_eq!(bit_width(0), 1);
        assert_eq!(bit_width(1), 1);
        assert_eq!(bit_width(2), 1);
        assert_eq!(bit_width(3), 2);
        assert_eq!(bit_width(4), 2);
        assert_eq!(bit_width(5), 3);
        assert_eq!(bit_width(256), 8);
    }
}
