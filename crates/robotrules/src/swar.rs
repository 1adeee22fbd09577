//! Byte searches eight bytes at a time in plain `u64` arithmetic, for the
//! short lines of a robots.txt, where a call to a vectorised search costs
//! more than it saves.

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
            }
        }
    }
}
