//! User-agent lines and crawler names (RFC 9309 §2.2.1).

/// Returns the product token of a `user-agent` value: its longest prefix
/// made of ASCII letters, `-` and `_`.
///
/// > Crawlers MUST use case-insensitive matching to find the group that
/// > matches the product token […] The product token MUST contain only
/// > uppercase and lowercase letters ("a-z" and "A-Z"), underscores
/// > ("_"), and hyphens ("-"). — RFC 9309 §2.2.1
///
/// As Google's reference parser does: `Googlebot/2.1` → `Googlebot`,
/// `Foo Bar` → `Foo`, `Foo2Bot` → `Foo`, `*foo` → empty.
///
/// # Example
///
/// ```
/// use robotrules::product_token;
///
/// assert_eq!(product_token(b"Googlebot/2.1"), b"Googlebot");
/// assert_eq!(product_token(b"Foo2Bot"), b"Foo");
/// assert_eq!(product_token(b"*foo"), b"");
/// ```
pub fn product_token(value: &[u8]) -> &[u8] {
    let end =
        value.iter().position(|&b| !is_token_byte(b)).unwrap_or(value.len());
    &value[..end]
}

/// Returns true if and only if `agent` is a valid product token to obey:
/// non-empty and made only of ASCII letters, `-` and `_`.
///
/// This is the reference's `IsValidUserAgentToObey`. A crawler should pass
/// such a token, not its full `User-Agent` header: `FooBot/1.0` matches no
/// line at all.
///
/// # Example
///
/// ```
/// use robotrules::is_valid_agent;
///
/// assert!(is_valid_agent("Googlebot-News"));
/// assert!(!is_valid_agent("Googlebot/2.1"));
/// assert!(!is_valid_agent(""));
/// ```
pub fn is_valid_agent(agent: &str) -> bool {
    !agent.is_empty() && agent.bytes().all(is_token_byte)
}

/// Returns true if and only if a `user-agent` value names every crawler.
///
/// > If there is no matching group, crawlers MUST obey the group with a
/// > user-agent line with the "*" value, if present. — RFC 9309 §2.2.1
///
/// As Google's reference parser does, a value is global if it is exactly
/// `*`, or `*` followed by whitespace and anything (`* foo`); `*foo` is
/// not.
pub(crate) fn is_global(value: &[u8]) -> bool {
    match value {
        [b'*'] => true,
        [b'*', next, ..] => is_c_space(*next),
        _ => false,
    }
}

/// The six bytes that C's `isspace` accepts in the "C" locale.
#[inline]
pub(crate) fn is_c_space(b: u8) -> bool {
    // One comparison rejects almost every byte.
    b <= b' ' && (b == b' ' || (b'\t'..=b'\r').contains(&b))
}

#[inline]
fn is_token_byte(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'-' || b == b'_'
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn global() {
        assert!(is_global(b"*"));
        assert!(is_global(b"* foo"));
        assert!(is_global(b"*\x0bfoo"));
        assert!(!is_global(b"*foo"));
        assert!(!is_global(b"**"));
        assert!(!is_global(b""));
        assert!(!is_global(b"a*"));
    }

    #[test]
    fn tokens() {
        assert_eq!(product_token(b"Googlebot*"), b"Googlebot");
        assert_eq!(product_token(b"Foo Bar"), b"Foo");
        assert_eq!(product_token(b"foo_bar-baz.x"), b"foo_bar-baz");
        assert_eq!(product_token("ツ".as_bytes()), b"");
        assert!(!is_valid_agent(" Foobot "));
        assert!(is_valid_agent("Foo_Bar"));
    }
}
