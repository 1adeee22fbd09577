//! From a URL to the part that rules are matched against (RFC 9309 §2.2.2).

use alloc::borrow::Cow;
use alloc::string::String;

/// Returns the path, parameters and query of `url`, as the reference
/// matcher sees them.
///
/// As Google's reference does: a leading `//` is skipped; `://` marks the
/// end of a scheme only if no `/`, `?` or `;` comes before it. The path
/// starts at the first `/`, `?` or `;` after the authority (none: `/`);
/// it ends at the first `#` searched from the start of the URL (so a `#`
/// before the path gives `/`). A path that starts with `?` or `;` gets a
/// `/` in front.
///
/// Nothing is decoded, case-folded or dot-normalised: pass URLs that are
/// already percent-encoded (RFC 3986). The result always starts with `/`.
///
/// # Example
///
/// ```
/// use robotrules::path_of;
///
/// assert_eq!(path_of("https://example.com/a/b?c=d#frag"), "/a/b?c=d");
/// assert_eq!(path_of("example.com?q"), "/?q");
/// assert_eq!(path_of("//host/x"), "/x");
/// assert_eq!(path_of(""), "/");
/// ```
pub fn path_of(url: &str) -> Cow<'_, str> {
    let b = url.as_bytes();
    let Some(begin) = path_start(b) else { return Cow::Borrowed("/") };
    let end =
        memchr::memchr(b'#', &b[begin..]).map_or(b.len(), |at| begin + at);
    // `begin` and `end` sit on ASCII bytes, so both are char boundaries.
    let path = &url[begin..end];
    if b[begin] == b'/' {
        Cow::Borrowed(path)
    } else {
        let mut owned = String::with_capacity(path.len() + 1);
        owned.push('/');
        owned.push_str(path);
        Cow::Owned(owned)
    }
}

/// Returns where the path (or parameters, or query) of the URL `b` starts,
/// at a `/`, `?` or `;`; `None` if the path is `/` (there is none, or a
/// `#` comes first). The one place that finds a URL's path.
///
/// `://` ends a scheme only if no `/`, `?` or `;` comes before it. Since
/// `://` holds a `/`, that is the case exactly when the first of those
/// bytes is the first `/` of a `://`.
#[inline]
fn path_start(b: &[u8]) -> Option<usize> {
    // The first of these is usually a few words in: eight bytes at a
    // time beats both a byte loop and memchr.
    let first = |from: usize| {
        crate::swar::find_path_mark(&b[from..]).map(|at| from + at)
    };
    // Most URLs: their first mark is the `/` of `://`, which the rules
    // below skip.
    // As words: a match against byte strings compares byte by byte.
    const HTTPS: u64 = u64::from_le_bytes(*b"https://");
    const HTTP: u64 = u64::from_le_bytes(*b"http://\0");
    let scheme = match b.first_chunk::<8>().map(|w| u64::from_le_bytes(*w)) {
        Some(HTTPS) => 8,
        Some(w) if w & (u64::MAX >> 8) == HTTP => 7,
        _ if b == b"http://" => 7,
        _ => 0,
    };
    if scheme > 0 {
        let begin = first(scheme)?;
        return (b[begin] != b'#').then_some(begin);
    }
    let start = if b.starts_with(b"//") { 2 } else { 0 };
    let early = first(start)?;
    let begin = if b[early] == b'#' {
        return None;
    } else if early > start
        && b[early - 1] == b':'
        && b[early] == b'/'
        && b.get(early + 1) == Some(&b'/')
    {
        first(early + 2)?
    } else {
        early
    };
    (b[begin] != b'#').then_some(begin)
}

/// Returns the path that rules are matched against: [`path_of`], cut at
/// its first NUL byte as the reference's C string is. One pass, for the
/// hot path of the matcher.
#[inline]
pub(crate) fn match_path(url: &str) -> Cow<'_, [u8]> {
    let b = url.as_bytes();
    let Some(begin) = path_start(b) else { return Cow::Borrowed(b"/") };
    let end = crate::swar::find2(&b[begin..], b'#', 0)
        .map_or(b.len(), |at| begin + at);
    let path = &b[begin..end];
    if b[begin] == b'/' {
        Cow::Borrowed(path)
    } else {
        let mut owned = alloc::vec::Vec::with_capacity(path.len() + 1);
        owned.push(b'/');
        owned.extend_from_slice(path);
        Cow::Owned(owned)
    }
}

/// Cuts `path` at its first NUL byte, as the reference's C string does.
#[inline]
pub(crate) fn until_nul(path: &[u8]) -> &[u8] {
    match memchr::memchr(0, path) {
        Some(at) => &path[..at],
        None => path,
    }
}

#[cfg(test)]
mod tests {
    use super::path_of;

    macro_rules! p {
        ($url:expr, $path:expr) => {
            assert_eq!(path_of($url), $path, "url {:?}", $url)
        };
    }

    #[test]
    fn edge_cases() {
        p!("http://h", "/");
        p!("http://h?q", "/?q");
        p!("http://h;p", "/;p");
        p!("http://h#x/y", "/");
        p!("http://h/a#b#c", "/a");
        p!("a/b", "/b");
        p!("/a://b/c", "/a://b/c");
        p!("a?b://c/d", "/?b://c/d");
        p!("ftp://u:p@h:21/x;type=a", "/x;type=a");
        p!("//", "/");
        p!("///x", "/x");
        p!("#/a", "/");
        p!("http://h/ä", "/ä");
        p!("https://", "/");
        p!("http:///x", "/x");
        p!("https://h#/a", "/");
        p!("https://h?q/r", "/?q/r");
        p!("http://u:p@h:8/a;b", "/a;b");
        p!("httpx://h/a", "/a");
        p!("https:/h/a", "/h/a");
    }
}
