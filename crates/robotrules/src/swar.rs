//! Byte searches in the short strings of a robots.txt (keys, patterns,
//! URLs), where a call to a vectorised search costs more than it saves:
//! eight bytes at a time in plain `u64` arithmetic, or sixteen in folds
//! that the compiler vectorises. Lines themselves are found with `memchr`
//! ([`line_marks`]).

const LO: u64 = 0x0101_0101_0101_0101;
const HI: u64 = 0x8080_8080_8080_8080;

/// The first eight bytes of `s` as a little-endian word (0 if shorter,
/// which callers rule out).
#[inline]
fn load(s: &[u8]) -> u64 {
    s.first_chunk::<8>().map_or(0, |c| u64::from_le_bytes(*c))
}

/// The high bit of each byte of `x` that equals `c`. A false positive can
/// only sit above a true one, so the lowest set bit is exact.
#[inline]
fn eq(x: u64, c: u8) -> u64 {
    let v = x ^ (LO * u64::from(c));
    v.wrapping_sub(LO) & !v & HI
}

/// Returns the index of the first byte of `s` that is `a` or `b`.
#[inline]
pub(crate) fn find2(s: &[u8], a: u8, b: u8) -> Option<usize> {
    scan(s, |x| eq(x, a) | eq(x, b), |c| c == a || c == b)
}

/// Finds the first byte for which `word` sets a high bit (eight at a
/// time) or `byte` holds. The last word overlaps the one before: its bytes
/// that were already checked had no hit, so its first hit is the first.
#[inline(always)]
fn scan(
    s: &[u8],
    word: impl Fn(u64) -> u64,
    byte: impl Fn(u8) -> bool,
) -> Option<usize> {
    if s.len() < 8 {
        return s.iter().position(|&c| byte(c));
    }
    let mut i = 0;
    loop {
        let at = i.min(s.len() - 8);
        let m = word(load(&s[at..]));
        if m != 0 {
            return Some(at + (m.trailing_zeros() / 8) as usize);
        }
        if at == s.len() - 8 {
            return None;
        }
        i += 8;
    }
}

/// Where a line ends, and the bytes that split its content.
#[derive(Clone, Copy, Debug, Default, Eq, PartialEq)]
pub(crate) struct Marks {
    /// The first LF or CR: the line's end.
    pub(crate) end: Option<usize>,
    /// The first NUL before the end.
    pub(crate) nul: Option<usize>,
    /// The first `#` before the end and any NUL.
    pub(crate) hash: Option<usize>,
}

/// The search for a line's first LF, CR or `#`: `memchr`'s AVX2 searcher
/// where the CPU has AVX2, set up once per body, which spares each line
/// the choice of a routine and the set-up of the bytes to look for; else
/// `memchr3`.
pub(crate) struct LineSearch {
    #[cfg(target_arch = "x86_64")]
    avx2: Option<memchr::arch::x86_64::avx2::memchr::Three>,
}

impl LineSearch {
    pub(crate) fn new() -> LineSearch {
        LineSearch {
            #[cfg(target_arch = "x86_64")]
            avx2: memchr::arch::x86_64::avx2::memchr::Three::new(
                b'\n', b'\r', b'#',
            ),
        }
    }

    /// The first LF, CR or `#` in `s`.
    #[inline]
    fn find(&self, s: &[u8]) -> Option<usize> {
        #[cfg(target_arch = "x86_64")]
        if let Some(three) = &self.avx2 {
            return three.find(s);
        }
        memchr::memchr3(b'\n', b'\r', b'#', s)
    }
}

/// Finds the end of the line that `s` starts with (its first LF or CR)
/// and its first NUL and `#` that matter (see [`Marks`]).
/// `nul_free` says that `s` holds no NUL, so that none is looked for.
///
/// The searches are `memchr`'s: most lines of a robots.txt fit in one or
/// two of its vectors, and long ones (long paths are common in large
/// files) cost little per byte. Each search stops at the line's end, so a
/// body is read in linear time.
#[inline]
pub(crate) fn line_marks(
    search: &LineSearch,
    s: &[u8],
    nul_free: bool,
) -> Marks {
    let (end, mut hash) = match search.find(s) {
        Some(at) if s[at] == b'#' => {
            let end = memchr::memchr2(b'\n', b'\r', &s[at + 1..]);
            (end.map(|e| at + 1 + e), Some(at))
        }
        stop => (stop, None),
    };
    let line = &s[..end.unwrap_or(s.len())];
    let nul = if nul_free { None } else { memchr::memchr(0, line) };
    if let (Some(n), Some(h)) = (nul, hash) {
        if n < h {
            hash = None;
        }
    }
    Marks { end, nul, hash }
}

/// Returns true if `s` holds a `%`, `*` or byte ≥ 0x80: without one, a
/// value is as normalised (see `pattern::needs_escape`) and holds no
/// wildcard. Sixteen bytes at a time in a fold that the compiler turns
/// into vector instructions in safe code, the last block overlapping the
/// one before; eight at a time from 8 to 15 bytes, one at a time below.
#[inline(always)]
pub(crate) fn has_special(s: &[u8]) -> bool {
    let special = |c: u8| (c == b'%') | (c == b'*') | (c >= 0x80);
    let block = |b: &[u8]| b.iter().fold(false, |any, &c| any | special(c));
    // A false `%` or `*` sits above a true one: the test is exact.
    let word = |x: u64| eq(x, b'%') | eq(x, b'*') | (x & HI) != 0;
    match s.len() {
        16.. => s.chunks_exact(16).any(block) || block(&s[s.len() - 16..]),
        8.. => word(load(s)) || word(load(&s[s.len() - 8..])),
        _ => s.iter().any(|&c| special(c)),
    }
}

/// Returns the index of the first `/`, `?`, `;` or `#` in `s`: where a
/// URL's authority (or scheme) ends.
#[inline]
pub(crate) fn find_path_mark(s: &[u8]) -> Option<usize> {
    scan(
        s,
        |x| eq(x, b'/') | eq(x, b'?') | eq(x, b';') | eq(x, b'#'),
        |c| matches!(c, b'/' | b'?' | b';' | b'#'),
    )
}

/// Returns the index of the first byte of `s` that is `a`.
#[inline]
pub(crate) fn find1(s: &[u8], a: u8) -> Option<usize> {
    find2(s, a, a)
}

/// Returns the index of the first byte of `s` that is `%` or ≥ 0x80, the
/// bytes that pattern normalisation looks at.
#[inline]
pub(crate) fn find_escape_candidate(s: &[u8]) -> Option<usize> {
    scan(s, |x| eq(x, b'%') | (x & HI), |c| c == b'%' || c >= 0x80)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `line_marks`, a byte at a time.
    fn naive_marks(s: &[u8]) -> Marks {
        let end = s.iter().position(|&c| c == b'\n' || c == b'\r');
        let line = &s[..end.unwrap_or(s.len())];
        let nul = line.iter().position(|&c| c == 0);
        let content = &line[..nul.unwrap_or(line.len())];
        let hash = content.iter().position(|&c| c == b'#');
        Marks { end, nul, hash }
    }

    /// `line_marks`, told whether `s` is free of NUL.
    fn checked_marks(s: &[u8]) -> Marks {
        let search = LineSearch::new();
        let m = line_marks(&search, s, false);
        if !s.contains(&0) {
            assert_eq!(line_marks(&search, s, true), m);
        }
        // The way taken without AVX2, on every machine.
        #[cfg(target_arch = "x86_64")]
        assert_eq!(line_marks(&LineSearch { avx2: None }, s, false), m);
        assert_eq!(
            has_special(s),
            s.iter().any(|&c| c == b'%' || c == b'*' || c >= 0x80)
        );
        m
    }

    #[test]
    fn agrees_with_a_plain_scan() {
        let samples: &[&[u8]] = &[
            b"",
            b"#",
            b"abc",
            b"Disallow: /x",
            b"0123456789abcdef#:",
            b"\x00\x01#\x80:",
            b"aaaaaaaa\x01\x00:",
            b"\x00\x00\x00\x00\x00\x00\x00\x01#",
            b"/a%2f",
            b"/\xc3\xbc",
            b"\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01%",
        ];
        for s in samples {
            for start in 0..s.len().max(1) {
                let s = &s[start.min(s.len())..];
                assert_eq!(
                    find2(s, b'#', b':'),
                    s.iter().position(|&c| c == b'#' || c == b':')
                );
                assert_eq!(find1(s, b'#'), s.iter().position(|&c| c == b'#'));
                assert_eq!(checked_marks(s), naive_marks(s));
                assert_eq!(
                    find_path_mark(s),
                    s.iter()
                        .position(|&c| matches!(c, b'/' | b'?' | b';' | b'#'))
                );
                assert_eq!(
                    find_escape_candidate(s),
                    s.iter().position(|&c| c == b'%' || c >= 0x80)
                );
            }
        }
        // Every single byte, at every position of a 16-byte window.
        for c in 0..=255u8 {
            for at in 0..16 {
                let mut s = [b'x'; 16];
                s[at] = c;
                let want =
                    |f: &dyn Fn(u8) -> bool| s.iter().position(|&b| f(b));
                assert_eq!(
                    find2(&s, b'#', b':'),
                    want(&|b| b == b'#' || b == b':')
                );
                assert_eq!(
                    find_escape_candidate(&s),
                    want(&|b| b == b'%' || b >= 0x80)
                );
                assert_eq!(checked_marks(&s), naive_marks(&s));
                assert_eq!(
                    find_path_mark(&s),
                    want(&|b| matches!(b, b'/' | b'?' | b';' | b'#'))
                );
            }
        }
        // Long lines of marks in a pseudo-random order, past the lengths
        // of memchr's vectors and loops.
        let alphabet =
            [b'\n', b'\r', 0, b'#', b':', b'%', b'*', 0x80, b'x', b'x', b'x'];
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for len in (0..300).chain([63, 64, 65, 127, 128, 129, 1000]) {
            for sparse in [1, 8, 64] {
                let s: alloc::vec::Vec<u8> = (0..len)
                    .map(|_| {
                        state ^= state << 13;
                        state ^= state >> 7;
                        state ^= state << 17;
                        if state % sparse == 0 {
                            alphabet[(state >> 32) as usize % alphabet.len()]
                        } else {
                            b'y'
                        }
                    })
                    .collect();
                for start in [0, len / 3, len / 2] {
                    let s = &s[start.min(s.len())..];
                    assert_eq!(checked_marks(s), naive_marks(s));
                }
            }
        }
        // Three marks past a vector's length, in every order.
        for order in [b"\0#:", b"#\0:", b":\0#", b"#:\0", b":#\0", b"\0:#"] {
            for at in [0, 70, 130] {
                let mut s = alloc::vec![b'y'; 200];
                s[at..at + 3].copy_from_slice(order);
                s[at + 40] = b'\n';
                assert_eq!(checked_marks(&s), naive_marks(&s));
            }
        }
        // Every pair of marks, at every pair of positions.
        let marks =
            [b'\n', b'\r', 0, b'\t', b'#', b':', b'%', b'*', 0x80, 0xff, b'x'];
        for len in [1, 7, 8, 9, 17, 24, 40] {
            for i in 0..len {
                for j in 0..len {
                    for &a in &marks {
                        for &b in &marks {
                            let mut s = alloc::vec![b'y'; len];
                            s[i] = a;
                            s[j] = b;
                            assert_eq!(checked_marks(&s), naive_marks(&s));
                        }
                    }
                }
            }
        }
    }
}
