//! From a URL to the part that rules are matched against (REP.md §7.2).

use alloc::borrow::Cow;
use alloc::string::String;

/// Returns the path, parameters and query of `url`, as the reference
/// matcher sees them.
///
/// > Skip a leading `//`. `://` marks the end of a scheme only if no `/`,
/// > `?` or `;` comes before it. The path starts at the first `/`, `?` or
/// > `;` after the authority (none: `/`); it ends at the first `#` searched
/// > from the start of the URL (so a `#` before the path gives `/`). A path
/// > that starts with `?` or `;` gets a `/` in front. — REP.md §7.2
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
    let start = if b.starts_with(b"//") { 2 } else { 0 };
    let Some(begin) = path_start(b, start) else {
        return Cow::Borrowed("/");
    };
    let end = match memchr::memchr(b'#', &b[start..]) {
        Some(at) if at + start < begin => return Cow::Borrowed("/"),
        Some(at) => at + start,
        None => b.len(),
    };
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

/// Returns where the path (or parameters, or query) of `b` starts, looking
/// from `start`, or `None` if there is none.
///
/// `://` ends a scheme only if no `/`, `?` or `;` comes before it. Since
/// `://` holds a `/`, that is the case exactly when the first of those
/// bytes is the first `/` of a `://`.
#[inline]
fn path_start(b: &[u8], start: usize) -> Option<usize> {
    let rest = &b[start..];
    // The first of these is usually a few bytes in: a loop beats memchr.
    let early = rest.iter().position(|&c| matches!(c, b'/' | b'?' | b';'))?;
    let is_scheme = early >= 1
        && rest[early - 1] == b':'
        && rest[early] == b'/'
        && rest.get(early + 1) == Some(&b'/');
    if !is_scheme {
        return Some(start + early);
    }
    let after = early + 2;
    rest[after..]
        .iter()
        .position(|&c| matches!(c, b'/' | b'?' | b';'))
        .map(|at| start + after + at)
}

/// Returns the path that rules are matched against: [`path_of`], cut at
/// its first NUL byte as the reference's C string is. One pass, for the
/// hot path of the matcher.
#[inline]
pub(crate) fn match_path(url: &str) -> Cow<'_, [u8]> {
    let b = url.as_bytes();
    let start = if b.starts_with(b"//") { 2 } else { 0 };
    let first = |from: usize| {
        b[from..]
            .iter()
            .position(|&c| matches!(c, b'/' | b'?' | b';' | b'#'))
            .map(|at| from + at)
    };
    // A `#` before the path start (searched from the start) gives "/".
    let Some(early) = first(start) else { return Cow::Borrowed(b"/") };
    let begin = if b[early] == b'#' {
        return Cow::Borrowed(b"/");
    } else if early > start
        && b[early - 1] == b':'
        && b[early] == b'/'
        && b.get(early + 1) == Some(&b'/')
    {
        match first(early + 2) {
            Some(at) if b[at] != b'#' => at,
            _ => return Cow::Borrowed(b"/"),
        }
    } else {
        early
    };
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
    }
}
