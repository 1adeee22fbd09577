//! The file's lines with their offsets, and text made safe to print.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::ops::Range;

/// The raw lines of a body, numbered as the parser numbers them, with the
/// byte offset of each in the body.
///
/// The lines come from [`robotrules::raw_lines`], so LF, CR and CR LF end
/// lines exactly as the parser sees them.
#[derive(Clone, Debug)]
pub(crate) struct Lines<'a> {
    body: &'a [u8],
    lines: Vec<&'a [u8]>,
    starts: Vec<usize>,
}

impl<'a> Lines<'a> {
    pub(crate) fn new(body: &'a [u8]) -> Lines<'a> {
        let base = body.as_ptr() as usize;
        let mut lines = Vec::new();
        let mut starts = Vec::new();
        for line in robotrules::raw_lines(body) {
            // Every line is a slice of `body`: its address gives its
            // offset.
            starts.push(line.as_ptr() as usize - base);
            lines.push(line);
        }
        Lines { body, lines, starts }
    }

    /// The body the lines come from.
    pub(crate) fn body(&self) -> &'a [u8] {
        self.body
    }

    /// The number of lines.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.lines.len()
    }

    /// Line `n` (from 1), or an empty line past the end.
    pub(crate) fn get(&self, n: u32) -> &'a [u8] {
        let i = (n as usize).wrapping_sub(1);
        self.lines.get(i).copied().unwrap_or_default()
    }

    /// The offset of line `n` (from 1) in the body.
    pub(crate) fn start(&self, n: u32) -> usize {
        let i = (n as usize).wrapping_sub(1);
        self.starts.get(i).copied().unwrap_or(self.body.len())
    }

    /// The body range of line `n`, without its line end.
    pub(crate) fn range(&self, n: u32) -> Range<usize> {
        let start = self.start(n);
        start..start + self.get(n).len()
    }

    /// The line (from 1) that holds byte `offset` of the body, its line
    /// end included. A BOM counts as part of line 1.
    pub(crate) fn line_at(&self, offset: usize) -> u32 {
        let after = self.starts.partition_point(|&s| s <= offset);
        after.max(1) as u32
    }
}

/// Whether `c` is a character that shows nothing but changes the text:
/// zero-width spaces and joiners, direction marks, overrides and isolates,
/// the word joiner and the byte order mark (pasted from web pages, they
/// make a known word unknown, unseen).
pub(crate) fn invisible(c: char) -> bool {
    matches!(
        c,
        '\u{200b}'..='\u{200f}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2060}'
            | '\u{2066}'..='\u{2069}'
            | '\u{feff}'
    )
}

/// Returns `text` with every control character escaped, so that it can be
/// printed on a terminal as one line: C0 and C1 controls and DEL become
/// `\x1b`-style escapes, Unicode direction overrides `\u{202e}`-style
/// ones, and a backslash that starts such an escape stays as it is.
pub fn escape(text: &str) -> Cow<'_, str> {
    let unsafe_char = |c: char| c.is_control() || invisible(c);
    if !text.chars().any(unsafe_char) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if !unsafe_char(c) {
            out.push(c);
        } else if (c as u32) < 0x80 {
            let _ = write!(out, "\\x{:02x}", c as u32);
        } else {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        }
    }
    Cow::Owned(out)
}

/// The bytes as text: invalid UTF-8 replaced, controls escaped.
pub(crate) fn show(bytes: &[u8]) -> String {
    escape(&String::from_utf8_lossy(bytes)).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    macro_rules! esc {
        ($in:expr, $out:expr) => {
            assert_eq!(escape($in), $out)
        };
    }

    macro_rules! at {
        ($body:expr, $offset:expr, $line:expr) => {
            assert_eq!(Lines::new($body).line_at($offset), $line)
        };
    }

    #[test]
    fn escapes() {
        esc!("plain /x", "plain /x");
        esc!("a\x1b[31mb\x07", "a\\x1b[31mb\\x07");
        esc!("tab\there", "tab\\x09here");
        esc!("c1\u{9b}x", "c1\\u{9b}x");
        esc!("rtl\u{202e}x", "rtl\\u{202e}x");
        esc!("\u{200d}User-agent", "\\u{200d}User-agent");
        esc!("del\x7f", "del\\x7f");
        esc!("café", "café");
    }

    #[test]
    fn line_offsets() {
        at!(b"a\r\nb\r\nc", 0, 1);
        at!(b"a\r\nb\r\nc", 2, 1);
        at!(b"a\r\nb\r\nc", 3, 2);
        at!(b"a\r\nb\r\nc", 6, 3);
        at!(b"a\rb\rc", 1, 1);
        at!(b"a\rb\rc", 2, 2);
        at!(b"\xEF\xBB\xBFa\nb", 0, 1);
        at!(b"\xEF\xBB\xBFa\nb", 5, 2);
        at!(b"", 0, 1);
    }

    #[test]
    fn ranges() {
        let lines = Lines::new(b"\xEF\xBB\xBFab\r\ncd\ref");
        assert_eq!(lines.len(), 3);
        assert_eq!(lines.range(1), 3..5);
        assert_eq!(lines.range(2), 7..9);
        assert_eq!(lines.range(3), 10..12);
        assert_eq!(lines.get(4), b"");
    }
}
