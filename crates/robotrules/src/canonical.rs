//! The canonical form of a file: one directive per line, keys spelled out.

use alloc::vec::Vec;

use crate::parse;
use crate::report::Tag;
use crate::robots::Robots;

impl Robots {
    /// Writes the file back out in a normalised form: one directive per
    /// line with its canonical key (`User-agent`, `Allow`, `Disallow`,
    /// `Sitemap`, or the unknown key as written), a colon and a space, and
    /// the value as written; every other line empty. Line numbers are kept,
    /// and parsing the result gives the same groups, rules, sitemaps,
    /// unknown directives and verdicts. Comments, typos, missing colons,
    /// a BOM and the ends of too-long lines are gone.
    ///
    /// # Example
    ///
    /// ```
    /// use robotrules::Robots;
    ///
    /// let robots = Robots::parse(b"useragent FooBot # me\n\ndissallow: /x\n");
    /// assert_eq!(robots.to_canonical(), b"User-agent: FooBot\n\nDisallow: /x\n");
    /// ```
    pub fn to_canonical(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.store.len() * 2);
        for (line, e) in self.all_entries() {
            if line > 1 {
                out.push(b'\n');
            }
            let (key, value): (&[u8], &[u8]) = match e.tag {
                None => continue,
                Some(Tag::UserAgent) => (b"User-agent", e.value),
                Some(Tag::Allow) => (b"Allow", e.written),
                Some(Tag::Disallow) => (b"Disallow", e.written),
                Some(Tag::Sitemap) => (b"Sitemap", e.value),
                Some(Tag::Unknown | Tag::Unused) => (e.key, e.written),
            };
            out.extend_from_slice(key);
            // A line at the length cap held no more than key, separator
            // and value: drop the space so that nothing is cut again.
            let tight = key.len() + 2 + value.len() > parse::MAX_LINE_LEN;
            out.extend_from_slice(if tight { b":" } else { b": " });
            out.extend_from_slice(value);
        }
        // Text that starts like a BOM would lose those bytes to the BOM
        // skip: put a real BOM in front for the parser to skip instead.
        if out.first() == Some(&0xEF) {
            out.splice(0..0, *b"\xEF\xBB\xBF");
        }
        out
    }
}
