//! `sitemap` lines and directives with other keys (RFC 9309 §2.2.4).

use alloc::borrow::Cow;
use alloc::string::String;
use core::fmt;

use crate::report::Tag;
use crate::store::Entry;

/// A `sitemap` line. Sitemaps are global: they belong to no group.
#[derive(Clone, Copy, Eq, PartialEq)]
pub struct Sitemap<'a> {
    pub(crate) line: u32,
    pub(crate) url: &'a [u8],
}

impl<'a> Sitemap<'a> {
    /// The line number.
    pub fn line(&self) -> u32 {
        self.line
    }

    /// The value as written (trimmed): normally an absolute URL, but not
    /// checked.
    pub fn url(&self) -> &'a [u8] {
        self.url
    }

    /// The value as text, with invalid UTF-8 replaced.
    pub fn url_lossy(&self) -> Cow<'a, str> {
        String::from_utf8_lossy(self.url)
    }
}

impl fmt::Debug for Sitemap<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Sitemap")
            .field("line", &self.line)
            .field("url", &self.url_lossy())
            .finish()
    }
}

/// A line with a key and value whose key is not one of the four fields.
///
/// It changes no verdict. Its key is kept as written; its value is
/// normalised like a pattern, as the reference does, and also kept as
/// written.
#[derive(Clone, Copy)]
pub struct UnknownDirective<'a> {
    line: u32,
    unused: bool,
    key: &'a [u8],
    value: &'a str,
    written: &'a [u8],
}

impl<'a> UnknownDirective<'a> {
    pub(crate) fn from_entry(
        line: u32,
        e: &Entry<'a>,
    ) -> Option<UnknownDirective<'a>> {
        let unused = match e.tag? {
            Tag::Unknown => false,
            Tag::Unused => true,
            _ => return None,
        };
        let value = core::str::from_utf8(e.value).unwrap_or_default();
        Some(UnknownDirective {
            line,
            unused,
            key: e.key,
            value,
            written: e.written,
        })
    }

    /// The line number.
    pub fn line(&self) -> u32 {
        self.line
    }

    /// The key as written, such as `Crawl-delay`.
    pub fn key(&self) -> &'a [u8] {
        self.key
    }

    /// The key as text, with invalid UTF-8 replaced.
    pub fn key_lossy(&self) -> Cow<'a, str> {
        String::from_utf8_lossy(self.key)
    }

    /// The value, normalised as the reference does for unknown keys.
    pub fn value(&self) -> &'a str {
        self.value
    }

    /// The value as written (trimmed, comment removed).
    pub fn as_written(&self) -> &'a [u8] {
        self.written
    }

    /// Returns true if and only if the key is one that Google knows but
    /// does not use ([`UNUSED_KEYS`](crate::UNUSED_KEYS)).
    pub fn is_unused(&self) -> bool {
        self.unused
    }
}

impl fmt::Debug for UnknownDirective<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("UnknownDirective")
            .field("line", &self.line())
            .field("key", &self.key_lossy())
            .field("value", &self.value())
            .finish()
    }
}
