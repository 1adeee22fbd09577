//! Which robots.txt governs a URL: the one at the top of its scheme, host
//! and port (RFC 9309 §2.3; Google's robots.txt documentation).

use std::borrow::{Borrow, Cow};
use std::fmt;
use std::hash::{Hash, Hasher};

use url::Url;

use crate::{Error, ErrorKind};

/// The scheme, host and port that a robots.txt governs, and the key under
/// which it is cached.
///
/// > The rules listed in the robots.txt file apply only to the host,
/// > protocol, and port number where the robots.txt file is hosted.
/// > — Google's robots.txt documentation
///
/// Default ports are equivalent to no port, and IDNs to their punycode
/// (Google); an IP-address host covers only URLs that use that IP.
///
/// # Example
///
/// ```
/// use robotrules_fetch::Authority;
///
/// let a = Authority::of("https://WWW.Exämple.com:443/a/b?c")?;
/// assert_eq!(a.to_string(), "https://www.xn--exmple-cua.com");
/// assert_eq!(a.robots_url(), "https://www.xn--exmple-cua.com/robots.txt");
/// assert_eq!(a, Authority::of("https://www.xn--exmple-cua.com/")?);
/// assert_ne!(a, Authority::of("http://www.xn--exmple-cua.com/")?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
// Equality, order and hash are the text's alone (the other fields follow
// from it), so that a cache can look an authority up by its text.
#[derive(Clone, Debug)]
pub struct Authority {
    /// `scheme://host[:port]`, the whole key in one string so that a
    /// cache lookup hashes and compares one run of bytes.
    text: String,
    host_end: usize,
    port: Option<u16>,
}

impl Authority {
    /// The authority of any absolute `http`, `https` or `ftp` URL.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidUrl`] if `url` is not an absolute URL with a
    /// host, [`ErrorKind::UnsupportedScheme`] for other schemes.
    pub fn of(url: &str) -> Result<Authority, Error> {
        let parsed = Url::parse(url).map_err(|e| {
            Error::new(ErrorKind::InvalidUrl, format!("{url:?}: {e}"))
        })?;
        Authority::of_url(&parsed)
    }

    /// The authority of a parsed URL (see [`Authority::of`]).
    ///
    /// # Errors
    ///
    /// As for [`Authority::of`].
    pub fn of_url(url: &Url) -> Result<Authority, Error> {
        let scheme = url.scheme();
        if !matches!(scheme, "http" | "https" | "ftp") {
            return Err(Error::new(
                ErrorKind::UnsupportedScheme,
                format!("{scheme}: only http, https and ftp"),
            ));
        }
        let host =
            url.host_str().filter(|h| !h.is_empty()).ok_or_else(|| {
                Error::new(ErrorKind::InvalidUrl, format!("{url}: no host"))
            })?;
        // The url crate lower-cases hosts, turns IDNs into punycode and
        // drops default ports (80, 443, 21).
        let host_port =
            &url[url::Position::BeforeHost..url::Position::AfterPort];
        let mut text =
            String::with_capacity(scheme.len() + 3 + host_port.len());
        text.push_str(scheme);
        text.push_str("://");
        let host_end = text.len() + host.len();
        text.push_str(host_port);
        Ok(Authority { text, host_end, port: url.port() })
    }

    /// The scheme: `http`, `https` or `ftp`.
    pub fn scheme(&self) -> &str {
        let end = self.text.find(':').unwrap_or(0);
        &self.text[..end]
    }

    /// The host: lower case, punycode for IDNs, an IP address as written
    /// (IPv6 in brackets).
    pub fn host(&self) -> &str {
        let start = self.scheme().len() + 3;
        &self.text[start..self.host_end]
    }

    /// The port, if it is not the scheme's default.
    pub fn port(&self) -> Option<u16> {
        self.port
    }

    /// The URL of the robots.txt that governs this authority.
    pub fn robots_url(&self) -> String {
        format!("{self}/robots.txt")
    }
}

impl PartialEq for Authority {
    fn eq(&self, other: &Authority) -> bool {
        self.text == other.text
    }
}

impl Eq for Authority {}

impl PartialOrd for Authority {
    fn partial_cmp(&self, other: &Authority) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Authority {
    fn cmp(&self, other: &Authority) -> std::cmp::Ordering {
        self.text.cmp(&other.text)
    }
}

impl Hash for Authority {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.text.as_str().hash(state)
    }
}

impl Borrow<str> for Authority {
    fn borrow(&self) -> &str {
        &self.text
    }
}

/// The text of `url`'s authority, `scheme://host[:port]`, with no
/// allocation when the URL has no user information; `None` when `url` has
/// no authority [`Authority::of_url`] accepts.
pub(crate) fn key_of(url: &Url) -> Option<Cow<'_, str>> {
    if !matches!(url.scheme(), "http" | "https" | "ftp")
        || url.host_str().is_none_or(str::is_empty)
    {
        return None;
    }
    if url.username().is_empty() && url.password().is_none() {
        Some(Cow::Borrowed(&url[..url::Position::AfterPort]))
    } else {
        let host_port =
            &url[url::Position::BeforeHost..url::Position::AfterPort];
        Some(Cow::Owned(format!("{}://{host_port}", url.scheme())))
    }
}

impl fmt::Display for Authority {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(url: &str) -> String {
        Authority::of(url).unwrap().to_string()
    }

    #[test]
    fn equivalences() {
        assert_eq!(
            key("https://example.com:443/x"),
            key("https://example.com/")
        );
        assert_eq!(key("http://example.com:80"), "http://example.com");
        assert_eq!(key("ftp://example.com:21/a"), "ftp://example.com");
        assert_eq!(key("https://example.com:444/"), "https://example.com:444");
        assert_eq!(key("HTTPS://EXAMPLE.COM/"), "https://example.com");
        assert_eq!(
            key("https://www.exämple.com/"),
            "https://www.xn--exmple-cua.com"
        );
        assert_eq!(
            key("http://192.168.0.1:8080/x"),
            "http://192.168.0.1:8080"
        );
        assert_eq!(key("http://[::1]/x"), "http://[::1]");
        for url in [
            "https://a.example/x?y",
            "https://u:p@a.example:444/x",
            "HTTP://A.example:80",
            "ftp://@h/",
            "http://[::1]:8/",
        ] {
            let parsed = Url::parse(url).unwrap();
            assert_eq!(
                key_of(&parsed).as_deref(),
                Some(key(url).as_str()),
                "{url}"
            );
        }
        assert_eq!(key_of(&Url::parse("file:///x").unwrap()), None);
        assert_eq!(key_of(&Url::parse("mailto:a@b").unwrap()), None);
        assert_eq!(key("http://u:p@[::1]:8/x"), "http://[::1]:8");
        let a = Authority::of("ftp://U@Example.com:2121/x").unwrap();
        assert_eq!(
            (a.scheme(), a.host(), a.port()),
            ("ftp", "example.com", Some(2121))
        );
        assert_ne!(
            key("https://other.example.com/"),
            key("https://example.com/")
        );
        assert_eq!(
            Authority::of("mailto:a@b").unwrap_err().kind(),
            ErrorKind::UnsupportedScheme
        );
        assert_eq!(
            Authority::of("/relative").unwrap_err().kind(),
            ErrorKind::InvalidUrl
        );
    }
}
