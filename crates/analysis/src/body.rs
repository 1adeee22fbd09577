//! What a body served as robots.txt is: text, an HTML page or binary
//! data.

/// How much of the start of the file is sampled to tell text from not.
const SAMPLE: usize = 4096;

/// Starts of files that are not text.
const MAGIC: &[&[u8]] = &[
    b"\x1F\x8B",         // gzip
    b"\x28\xB5\x2F\xFD", // zstd
    b"BZh",              // bzip2
    b"PK\x03\x04",       // zip
    b"\x89PNG",          // PNG
    b"\xFF\xD8\xFF",     // JPEG
    b"GIF8",             // GIF
    b"%PDF-",            // PDF
    b"\xFF\xFE",         // UTF-16 LE
    b"\xFE\xFF",         // UTF-16 BE
    b"\x00\x00\xFE\xFF", // UTF-32 BE
];

/// What a body served as a robots.txt holds: the test behind RT005 and
/// RT006, for front ends that classify many files (bulk jobs) without
/// linting them.
///
/// # Example
///
/// ```
/// use robotrules_analysis::BodyKind;
///
/// assert_eq!(BodyKind::of(b"User-agent: *\nDisallow: /\n"), BodyKind::Text);
/// assert_eq!(BodyKind::of(b"<!DOCTYPE html><html></html>"), BodyKind::Html);
/// assert_eq!(BodyKind::of(b"\x1f\x8b\x08\x00"), BodyKind::Binary);
/// ```
#[derive(Clone, Copy, Debug, Eq, Hash, PartialEq)]
#[non_exhaustive]
pub enum BodyKind {
    /// Text: read as a robots.txt.
    Text,
    /// An HTML page (an error page or a site's home page served in place
    /// of the robots.txt): its first KiB names `<!doctype html`, `<html`,
    /// `<head`, `<body` or `<script`, with no `#` or `:` before it on its
    /// line (a comment or a rule can name a tag: `# <script> is allowed`,
    /// `Disallow: /*<script`).
    Html,
    /// Binary data: a known signature (gzip, zstd, zip, images, PDF,
    /// UTF-16 or UTF-32 byte order marks) or many control bytes in the
    /// first 4 KiB.
    Binary,
}

impl BodyKind {
    /// What `body` holds.
    pub fn of(body: &[u8]) -> BodyKind {
        if first_markup(body).is_some() {
            BodyKind::Html
        } else if is_binary(body) {
            BodyKind::Binary
        } else {
            BodyKind::Text
        }
    }

    /// `"text"`, `"html"` or `"binary"`.
    pub fn as_str(self) -> &'static str {
        match self {
            BodyKind::Text => "text",
            BodyKind::Html => "html",
            BodyKind::Binary => "binary",
        }
    }
}

/// Where the markup that makes `body` an HTML page ([`BodyKind::Html`])
/// starts: the offset of its first tag.
pub(crate) fn first_markup(body: &[u8]) -> Option<usize> {
    let head = &body[..body.len().min(1024)];
    // Every tag starts with `<`: only the places of a `<` are tried (and
    // most files have none, which `contains` finds a word at a time).
    if !head.contains(&b'<') {
        return None;
    }
    head.iter().enumerate().position(|(i, &b)| {
        b == b'<' && is_tag(&head[i..]) && !in_a_line_of_rules(&head[..i])
    })
}

/// A document type, matched as a prefix. (An HTML comment is no sign:
/// page caches append one to the robots.txt they serve.)
const DOCUMENT_STARTS: &[&[u8]] = &[b"<!doctype html"];

/// The tags of a page, an error page's included (`<h1>404 Not
/// Found</h1>`), matched as whole names: followed by `>`, `/` or white
/// space.
const PAGE_TAGS: &[&[u8]] = &[
    b"<html",
    b"<head",
    b"<body",
    b"<script",
    b"<title",
    b"<meta",
    b"<h1",
    b"<h2",
    b"<h3",
    b"<p",
    b"<div",
    b"<center",
    b"<iframe",
    b"<table",
    b"<pre",
    b"<a",
    b"<br",
    b"<hr",
    b"<span",
    b"<img",
    b"<link",
    b"<style",
    b"<form",
    b"<noscript",
];

/// Returns true if `at` starts with an HTML tag or a document type.
fn is_tag(at: &[u8]) -> bool {
    DOCUMENT_STARTS.iter().any(|t| starts_with_ignore_case(at, t))
        || PAGE_TAGS.iter().any(|t| {
            starts_with_ignore_case(at, t)
                && at.get(t.len()).is_some_and(|&b| {
                    b == b'>' || b == b'/' || b.is_ascii_whitespace()
                })
        })
}

/// Returns true if the line that `before` ends in (the text before a tag)
/// holds a `#` or a `:`: the tag is then in a comment or a line's value,
/// not markup.
fn in_a_line_of_rules(before: &[u8]) -> bool {
    let start = before
        .iter()
        .rposition(|&b| b == b'\n' || b == b'\r')
        .map_or(0, |p| p + 1);
    before[start..].iter().any(|&b| b == b'#' || b == b':')
}

/// Returns true if and only if `haystack` starts with `needle`
/// (lowercase ASCII), ignoring ASCII case.
fn starts_with_ignore_case(haystack: &[u8], needle: &[u8]) -> bool {
    haystack
        .get(..needle.len())
        .is_some_and(|h| h.eq_ignore_ascii_case(needle))
}

/// Returns true if the start of `body` looks like binary data: a known
/// signature, or many control bytes. Tabs, line ends, form feeds and
/// escape characters are text: a text file with terminal escapes in it
/// is a text file.
fn is_binary(body: &[u8]) -> bool {
    if MAGIC.iter().any(|m| body.starts_with(m)) {
        return true;
    }
    let sample = &body[..body.len().min(SAMPLE)];
    // Counted without a branch a byte, 64 bytes at a time in lanes of a
    // byte, which the compiler vectorises.
    fn control(b: u8) -> u8 {
        let text = (b == b'\t') | (b == b'\n') | (b == b'\r');
        let text = text | (b == 0x0c) | (b == 0x1b);
        u8::from(b < 0x20) - u8::from(text)
    }
    let mut chunks = sample.chunks_exact(64);
    let mut controls: usize = 0;
    for chunk in &mut chunks {
        let n = chunk.iter().fold(0u8, |n, &b| n + control(b));
        controls += usize::from(n);
    }
    controls += chunks
        .remainder()
        .iter()
        .map(|&b| usize::from(control(b)))
        .sum::<usize>();
    controls * 16 > sample.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    macro_rules! kind {
        ($body:expr, $kind:ident) => {
            assert_eq!(BodyKind::of($body), BodyKind::$kind);
        };
    }

    #[test]
    fn control_bytes_are_counted_as_one_by_one() {
        // The naive count, against bodies of every length around the
        // 64-byte blocks, with control bytes at every density.
        let naive = |body: &[u8]| {
            let sample = &body[..body.len().min(SAMPLE)];
            let controls = sample
                .iter()
                .filter(|&&b| b < 0x20 && !b"\t\n\r\x0c\x1b".contains(&b))
                .count();
            controls * 16 > sample.len()
        };
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for len in (0..300).chain([4095, 4096, 4097, 5000]) {
            for density in [0, 1, 4, 8, 32, 255] {
                let body: Vec<u8> = (0..len)
                    .map(|_| {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        let b = (x >> 24) as u8;
                        if (x & 0xff) as u8 <= density {
                            b & 0x1f
                        } else {
                            b'a' + b % 26
                        }
                    })
                    .collect();
                assert_eq!(
                    is_binary(&body),
                    naive(&body) || MAGIC.iter().any(|m| body.starts_with(m)),
                    "{len} {density}"
                );
            }
        }
    }

    #[test]
    fn kinds() {
        kind!(b"", Text);
        kind!(b"User-agent: *\nDisallow: /html/\n", Text);
        kind!(b"\n\n<HTML><BODY>404</BODY></HTML>", Html);
        kind!(b"<!DocType HTML>", Html);
        kind!(b"<meta charset=utf-8>\n  <script src=a.js></script>", Html);
        kind!(b"Not found\r<body>404</body>", Html);
        // A tag named in a comment or a rule's value is no markup.
        kind!(b"# Do not block <script> or CSS\nUser-agent: *\n", Text);
        kind!(b"User-agent: *\nDisallow: /*<script\n", Text);
        kind!(b"User-agent: *\nDisallow: /a # <html>\n", Text);
        // The body of an error page, without a document's tags.
        kind!(b"<h1>404 Not Found</h1>\n<hr>nginx\n", Html);
        kind!(b"<H1>Forbidden</H1>403 Error", Html);
        kind!(b"<meta http-equiv=refresh content=0><iframe src=x>", Html);
        kind!(b"<!-- page cache -->\nUser-agent: *\n", Text);
        // A name that only starts like a tag's is none.
        kind!(b"<pathological line\nUser-agent: *\n", Text);
        kind!(b"<header-less\n", Text);
        kind!(b"<abc>\n", Text);
        kind!(b"\x89PNG\r\n", Binary);
        kind!(b"\xff\xfeU\x00s\x00", Binary);
        kind!(b"a\x01\x02\x03\x04\x05", Binary);
    }
}
