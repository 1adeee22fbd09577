//! Whole-member inflation with libdeflate: the fast path of the WARC.gz
//! reader.
//!
//! A gzip member of a robots.txt capture is small (a few KiB), and a
//! streaming inflater spends much of its time setting up per call;
//! libdeflate decompresses a whole DEFLATE stream held in memory in one
//! call, about twice as fast. Its `_ex` entry point reports how many
//! input bytes the stream took, which is where the member's trailer, and
//! then the next member, begin.
//!
//! This is the crate's only `unsafe` code: the two calls into the C
//! library, on slices whose pointers and lengths come from Rust. Any
//! failure (bad data, too little input, too little room) is only a
//! `None`: the reader then inflates the member with its streaming
//! decoder, which reports the damage exactly.

#![allow(unsafe_code)]

use std::ptr::NonNull;

use libdeflate_sys::{
    libdeflate_alloc_decompressor, libdeflate_decompressor,
    libdeflate_deflate_decompress_ex, libdeflate_free_decompressor,
    libdeflate_result_LIBDEFLATE_SUCCESS,
};

/// A libdeflate decompressor (about 10 KiB of tables), reused for every
/// member.
pub(crate) struct Inflater(NonNull<libdeflate_decompressor>);

// SAFETY: a libdeflate decompressor is plain heap memory with no tie to
// the thread that allocated it; `&mut self` on every use keeps it to one
// thread at a time.
unsafe impl Send for Inflater {}

impl Inflater {
    /// A decompressor, or `None` if it cannot be allocated.
    pub(crate) fn new() -> Option<Inflater> {
        // SAFETY: takes no argument; a null result is handled.
        let d = unsafe { libdeflate_alloc_decompressor() };
        NonNull::new(d).map(Inflater)
    }

    /// Inflates the DEFLATE stream that starts `input` into `out`, if it
    /// ends inside `input` and fits in `out`: returns the input bytes it
    /// took (to the byte boundary after its last block) and the bytes
    /// made.
    pub(crate) fn inflate(
        &mut self,
        input: &[u8],
        out: &mut [u8],
    ) -> Option<(usize, usize)> {
        let mut used = 0usize;
        let mut made = 0usize;
        // SAFETY: the decompressor is live (freed only on drop) and used
        // by one thread (`&mut self`); `input` is readable for
        // `input.len()` bytes and `out` writable for `out.len()` bytes,
        // and libdeflate reads and writes within those bounds only; the
        // two counts are valid for writes.
        let result = unsafe {
            libdeflate_deflate_decompress_ex(
                self.0.as_ptr(),
                input.as_ptr().cast(),
                input.len(),
                out.as_mut_ptr().cast(),
                out.len(),
                &mut used,
                &mut made,
            )
        };
        (result == libdeflate_result_LIBDEFLATE_SUCCESS
            && used <= input.len()
            && made <= out.len())
        .then_some((used, made))
    }
}

impl Drop for Inflater {
    fn drop(&mut self) {
        // SAFETY: allocated by `libdeflate_alloc_decompressor`, freed once.
        unsafe { libdeflate_free_decompressor(self.0.as_ptr()) }
    }
}

/// The length of the gzip header (RFC 1952) at the start of `buf`, if it
/// is all there and one that the streaming decoder reads too (the
/// reserved flags clear).
pub(crate) fn gzip_header_len(buf: &[u8]) -> Option<usize> {
    let header = buf.get(..10)?;
    if header[..3] != [0x1f, 0x8b, 8] || header[3] & 0xE0 != 0 {
        return None;
    }
    let flags = header[3];
    let mut at = 10;
    if flags & 4 != 0 {
        let x = buf.get(at..at + 2)?;
        at += 2 + usize::from(u16::from_le_bytes([x[0], x[1]]));
    }
    for flag in [8, 16] {
        if flags & flag != 0 {
            let rest = buf.get(at..)?;
            // As `skip_zstring`: at most 64 KiB, zero-terminated.
            let n = rest.iter().take(1 << 16).position(|&b| b == 0)?;
            at += n + 1;
        }
    }
    if flags & 2 != 0 {
        at += 2;
    }
    (at <= buf.len()).then_some(at)
}

/// A body of one whole gzip member, inflated in one call, if it is sound
/// and inflates to at most `limit` bytes; `None` for anything else (more
/// members, trailing bytes, damage), which the caller gives to a
/// streaming decoder.
pub(crate) fn gunzip_one(body: &[u8], limit: usize) -> Option<Vec<u8>> {
    thread_local! {
        static INFLATER: std::cell::RefCell<Option<Inflater>> =
            const { std::cell::RefCell::new(None) };
    }
    if cfg!(miri) {
        return None;
    }
    // A header CRC is checked by the streaming decoder only.
    if body.get(3).is_some_and(|flags| flags & 2 != 0) {
        return None;
    }
    let start = gzip_header_len(body)?;
    let trailer = body.len().checked_sub(8).filter(|&t| t >= start)?;
    let t = &body[trailer..];
    let want_crc = u32::from_le_bytes([t[0], t[1], t[2], t[3]]);
    let want_len = u32::from_le_bytes([t[4], t[5], t[6], t[7]]) as usize;
    if want_len > limit {
        return None;
    }
    let mut out = vec![0; want_len];
    let (used, made) = INFLATER.with(|cell| {
        let mut cell = cell.borrow_mut();
        if cell.is_none() {
            *cell = Inflater::new();
        }
        cell.as_mut()?.inflate(&body[start..trailer], &mut out)
    })?;
    (used == trailer - start
        && made == want_len
        && crc32fast::hash(&out) == want_crc)
        .then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    #[cfg_attr(miri, ignore = "foreign code")]
    fn whole_streams_and_their_ends() {
        let text = b"User-agent: *\nDisallow: /private/\n".repeat(40);
        let mut e = flate2::write::DeflateEncoder::new(
            Vec::new(),
            flate2::Compression::default(),
        );
        e.write_all(&text).unwrap();
        let mut stream = e.finish().unwrap();
        let len = stream.len();
        stream.extend_from_slice(b"trailing bytes");
        let mut d = Inflater::new().unwrap();
        let mut out = vec![0; 4096];
        assert_eq!(d.inflate(&stream, &mut out), Some((len, text.len())));
        assert_eq!(&out[..text.len()], &text[..]);
        // Cut short, or with too little room: no answer.
        assert_eq!(d.inflate(&stream[..len - 1], &mut out), None);
        assert_eq!(d.inflate(&stream, &mut out[..text.len() - 1]), None);
        assert_eq!(d.inflate(b"\xff\xff\xff", &mut out), None);
        assert_eq!(d.inflate(b"", &mut out), None);
    }

    #[test]
    #[cfg_attr(miri, ignore = "foreign code")]
    fn one_gzip_member() {
        let text = b"User-agent: *\nDisallow: /\n".repeat(10);
        let mut e = flate2::write::GzEncoder::new(
            Vec::new(),
            flate2::Compression::default(),
        );
        e.write_all(&text).unwrap();
        let gz = e.finish().unwrap();
        assert_eq!(gunzip_one(&gz, 1 << 20).as_deref(), Some(&text[..]));
        assert_eq!(gunzip_one(&gz, text.len() - 1), None);
        let mut two = gz.clone();
        two.extend_from_slice(&gz);
        assert_eq!(gunzip_one(&two, 1 << 20), None);
        let mut bad = gz.clone();
        let n = bad.len();
        bad[n - 8] ^= 1;
        assert_eq!(gunzip_one(&bad, 1 << 20), None);
        assert_eq!(gunzip_one(&gz[..n - 1], 1 << 20), None);
        assert_eq!(gunzip_one(b"", 1 << 20), None);
    }
}
