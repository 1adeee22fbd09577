//! Checks of a question before it is answered: is the crawler name a
//! product token, is the URL a percent-encoded URL? The answer stays the
//! reference's; these say when it is likely not the one that was meant.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;

use robotrules::{Decision, Matcher, Robots};

use crate::limit::FetchLimit;
use crate::rule::RuleRef;
use crate::text::escape;

/// What is wrong with a question.
#[derive(Clone, Copy, Debug, Eq, Hash, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
#[non_exhaustive]
pub enum WarningKind {
    /// The crawler name is not a product token (`[A-Za-z_-]+`), so no
    /// `user-agent` line can name it: it brings no group of its own.
    AgentNotToken,
    /// The URL is neither an absolute URL nor a path.
    NotUrl,
    /// The URL has bytes that RFC 3986 requires to be percent-encoded;
    /// rules are compared with the encoded form.
    NeedsEncoding,
    /// A URL parser reads the URL with another path than the one judged
    /// (a backslash, a dot segment, an empty host): a crawler requests
    /// that path, whose verdict may differ.
    ParsedOtherwise,
    /// The URL's scheme, host or port differ from those of the site whose
    /// robots.txt is used.
    OtherAuthority,
    /// The file is over 500 KiB, which is all that crawlers read, and
    /// they do not get this verdict: the deciding rule lies beyond the
    /// limit, or lines beyond it changed the verdict (see
    /// [`FetchLimit::warning`]).
    BeyondFetchLimit,
}

impl WarningKind {
    /// A short kebab-case name, as in the JSON.
    pub fn name(self) -> &'static str {
        match self {
            WarningKind::AgentNotToken => "agent-not-token",
            WarningKind::NotUrl => "not-url",
            WarningKind::NeedsEncoding => "needs-encoding",
            WarningKind::ParsedOtherwise => "parsed-otherwise",
            WarningKind::OtherAuthority => "other-authority",
            WarningKind::BeyondFetchLimit => "beyond-fetch-limit",
        }
    }
}

/// A warning about a question, with what was probably meant.
#[derive(Clone, Debug, Eq, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Warning {
    /// What is wrong.
    pub kind: WarningKind,
    /// A sentence for people.
    pub message: String,
    /// What was probably meant: the product token, or the encoded URL.
    pub suggestion: Option<String>,
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// Browser and platform tokens that a `User-Agent` header carries besides
/// the crawler's own.
const GENERIC: &[&str] = &[
    "mozilla",
    "applewebkit",
    "khtml",
    "like",
    "gecko",
    "chrome",
    "chromium",
    "safari",
    "version",
    "mobile",
    "firefox",
    "edg",
    "edge",
    "opr",
    "trident",
    "msie",
    "compatible",
    "windows",
    "linux",
    "android",
    "iphone",
    "macintosh",
    "intel",
    "mac",
    "x",
    "u",
    "wow",
    "win",
    "nt",
    "cpu",
    "os",
    "headlesschrome",
    // Words of URLs (`http.rb/2.2.2`, a library, reads as `http`).
    "http",
    "https",
    "www",
];

/// The words of crawlers' names, for a product named without a version.
const CRAWLER_WORDS: &[&str] =
    &["bot", "crawl", "spider", "slurp", "archiver", "fetch", "scraper"];

/// Returns the crawler token that a full `User-Agent` header most likely
/// stands for: a known crawler token that the header names as a product
/// outside comments or with a version (the first if several: RFC 9110
/// lists products by significance), else its first product
/// (`Name/version`) that is not a browser's or platform's, else a known
/// token a comment names without a version, else its first product
/// without a version, or word of a comment, whose name is a crawler's
/// (`Slurp` in `Yahoo! Slurp`), else the product token of the whole
/// string.
///
/// The products are those of the header's grammar (RFC 9110 §10.1.5):
/// each `name/version` (or bare name) between spaces, and each item of a
/// comment in parentheses between `;` or `,`. Words of the URLs, e-mail
/// addresses and phrases inside comments are not products, and neither
/// are browsers' and platforms' (`Mozilla`, `compatible`, `Windows`…),
/// even when known: a crawler whose header starts `Mozilla/5.0` is not
/// the `Mozilla` a file may name.
///
/// # Example
///
/// ```
/// use robotrules_analysis::agent_from_user_agent;
///
/// let ua = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)";
/// assert_eq!(agent_from_user_agent(ua, ["GPTBot", "Googlebot"]), Some("GPTBot".into()));
/// assert_eq!(agent_from_user_agent(ua, ["Mozilla", "https", "com"]), Some("GPTBot".into()));
/// assert_eq!(agent_from_user_agent("FooBot/2.0 (+http://foo)", []), Some("FooBot".into()));
/// let slurp = "Mozilla/5.0 (compatible; Yahoo! Slurp; http://help.yahoo.com/help/us/ysearch/slurp)";
/// assert_eq!(agent_from_user_agent(slurp, []), Some("Slurp".into()));
/// ```
pub fn agent_from_user_agent<'k>(
    header: &str,
    known: impl IntoIterator<Item = &'k str>,
) -> Option<String> {
    let known: Vec<&str> = known.into_iter().collect();
    agent_by_tiers(header, &[&known])
}

/// [`agent_from_user_agent`] with known tokens in tiers: of the products
/// outside comments or with a version, the first (RFC 9110 lists them by
/// significance) that an earlier tier names wins over one a later tier
/// names, and any over a comment's bare words (`SomeBot`, or `News`,
/// `en-US`), of which one a later tier names comes first (the
/// catalogue's names are crawlers', a file's may be any word).
fn agent_by_tiers(header: &str, tiers: &[&[&str]]) -> Option<String> {
    let mut products: Vec<Product<'_>> =
        products(header).into_iter().filter(|p| !is_generic(p.name)).collect();
    // Where the header names its software outside comments
    // (`LinkedInBot/1.0 (compatible; Jakarta Commons-HttpClient/4.3)`),
    // the names of several words in its comments are what it is made
    // of, not what it is.
    if products.iter().any(|p| !p.comment) {
        products.retain(|p| !p.phrase);
    }
    let tiers: Vec<HashMap<String, &str>> = tiers
        .iter()
        .map(|known| {
            known.iter().rev().map(|k| (k.to_ascii_lowercase(), *k)).collect()
        })
        .collect();
    let first = |known: &HashMap<String, &str>, strong: bool| {
        products
            .iter()
            .filter(|p| p.is_strong() == strong)
            .find_map(|p| known.get(&p.name.to_ascii_lowercase()))
            .map(|k| k.to_string())
    };
    if let Some(found) = tiers.iter().find_map(|known| first(known, true)) {
        return Some(found);
    }
    if let Some(p) = products.iter().find(|p| p.versioned) {
        return Some(p.name.to_string());
    }
    if let Some(found) =
        tiers.iter().rev().find_map(|known| first(known, false))
    {
        return Some(found);
    }
    // A crawler named without a version (`Yahoo! Slurp`, `ia_archiver`),
    // by the words crawlers' names are made of: not any bare word of a
    // comment (`en-US`, `i686`).
    if let Some(p) = products.iter().find(|p| is_crawlerish(p.name)) {
        return Some(p.name.to_string());
    }
    if let Some(w) = words(header).find(|w| is_crawlerish(w)) {
        let token = robotrules::product_token(w.as_bytes());
        if !token.is_empty() {
            return Some(String::from_utf8_lossy(token).into_owned());
        }
    }
    let token = robotrules::product_token(header.trim().as_bytes());
    (!token.is_empty()).then(|| String::from_utf8_lossy(token).into_owned())
}

/// Returns the crawler token that a full `User-Agent` header stands for
/// when checked against `robots`: [`agent_from_user_agent`] with the
/// product tokens of the file's `user-agent` lines and those of the
/// built-in catalogue as the known crawlers. Of the header's products with
/// a version, one the file names wins over one only the catalogue knows;
/// of those without (a comment's bare words), a crawler of the catalogue
/// wins over a word the file names (`News` in `(compatible;
/// AhrefsBot/6.1; News)` is no crawler). Every front end (`robotrules
/// check --user-agent`, the Python drop-ins) reads a header with it, so
/// all give one answer.
///
/// # Example
///
/// ```
/// use robotrules::Robots;
/// use robotrules_analysis::agent_for_user_agent;
///
/// let robots = Robots::parse(b"User-agent: Sogou web spider\nAllow: /\n\nUser-agent: archive.org_bot\nDisallow: /\n");
/// let sogou = "Sogou web spider/4.0(+http://www.sogou.com/docs/help/webmasters.htm#07)";
/// assert_eq!(agent_for_user_agent(&robots, sogou), Some("Sogou".into()));
/// let archive = "Mozilla/5.0 (compatible; archive.org_bot +http://archive.org/details/archive.org_bot)";
/// assert_eq!(agent_for_user_agent(&robots, archive), Some("archive".into()));
/// ```
pub fn agent_for_user_agent(robots: &Robots, header: &str) -> Option<String> {
    let catalogue = crate::Catalogue::builtin_tokens();
    let file: Vec<String> = robots
        .groups()
        .flat_map(|g| g.agents())
        .filter(|a| !a.is_global() && !a.product_token().is_empty())
        .map(|a| String::from_utf8_lossy(a.product_token()).into_owned())
        .collect();
    let file: Vec<&str> = file.iter().map(String::as_str).collect();
    let catalogue: Vec<&str> = catalogue.iter().map(String::as_str).collect();
    agent_by_tiers(header, &[&file, &catalogue])
}

/// The words of a `User-Agent` header outside its URLs and e-mail
/// addresses: the runs of letters, digits, `-`, `_` and inner `.`
/// (`Yahoo! Slurp` gives `Yahoo` and `Slurp`, `archive.org_bot` one
/// word).
fn words(header: &str) -> impl Iterator<Item = &str> {
    header
        .split_ascii_whitespace()
        .filter(|chunk| !is_address(chunk))
        .flat_map(|chunk| {
            chunk.split(|c: char| {
                !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
            })
        })
        .map(|w| w.trim_matches('.'))
        .filter(|w| !w.is_empty())
}

/// The products of a `User-Agent` header, each as its product token and
/// whether a version follows it: the items between spaces outside
/// parentheses, and those between `;` or `,` inside them, that are a name
/// (RFC 9110's token characters), with or without `/version`.
///
/// Bare words in a row outside parentheses are a name of several words
/// (`Sogou web spider/4.0`, `Screaming Frog SEO Spider/19.0`): only the
/// first is a product, with the last if it has a version; `web` is none.
/// Inside parentheses, see [`comment_product`].
fn products(header: &str) -> Vec<Product<'_>> {
    let mut out = Vec::new();
    // Whether the item before was a bare word outside parentheses.
    let mut after_bare = false;
    for item in items(header) {
        let text = match item {
            Item::Top(text) => text,
            Item::Comment(text) => {
                after_bare = false;
                out.extend(comment_product(text));
                continue;
            }
            Item::Break => {
                after_bare = false;
                continue;
            }
        };
        let Some((name, versioned)) = product(text) else {
            after_bare = false;
            continue;
        };
        // A middle word of a name of several words is none.
        if versioned || !after_bare {
            out.push(Product {
                name,
                versioned,
                comment: false,
                phrase: false,
            });
        }
        after_bare = !versioned;
    }
    out
}

/// The product of an item of a comment (the text between `;` or `,`), if
/// any: its name, or its first word if it has several up to a URL or e-mail
/// address. A name of several words (`Screaming Frog SEO Spider/19.0`,
/// `Seekport Crawler`) counts by its first word alone, as a `user-agent`
/// line does, with the version of its last if that starts with a digit.
/// Without a version, only a name that ends in a word for a crawler is
/// one.
fn comment_product(text: &str) -> Option<Product<'_>> {
    let words: Vec<&str> =
        text.split_ascii_whitespace().take_while(|w| !is_address(w)).collect();
    let (first, last) = match words[..] {
        [] => return None,
        [first, .., last] if !first.contains('/') => (first, last),
        // One word, or `name/version` and more: the first word alone.
        [first, ..] => return in_comment(product(first), false),
    };
    let last_name = last.split_once('/').map_or(last, |(name, _)| name);
    // A crawler's own name at the end (`Yahoo! Slurp`: Yahoo's crawler
    // is `Slurp`) is read by its words (see `agent_by_tiers`), not as the
    // first word of a name.
    if is_crawlerish(last_name) && !is_crawler_word(last_name) {
        return None;
    }
    // A version of a name of several words starts with a digit: not
    // `Nexus 5X Build/MMB29P`, a phone's model and build.
    let version = last
        .split_once('/')
        .filter(|(_, v)| v.starts_with(|c: char| c.is_ascii_digit()));
    // Without one, such a name ends in a word for a crawler (`Seekport
    // Crawler`); other phrases (`treat like Googlebot`, `web crawler`)
    // are no name.
    let named = is_crawler_word(last_name)
        && !words.iter().any(|w| {
            ["like", "with"].iter().any(|p| w.eq_ignore_ascii_case(p))
        });
    let found = match version {
        Some((_, version)) => product_of(first, Some(version)),
        None if named => product_of(first, None),
        None => None,
    };
    in_comment(found, true)
}

/// A product of a comment, from [`product`]'s answer.
fn in_comment(
    found: Option<(&str, bool)>,
    phrase: bool,
) -> Option<Product<'_>> {
    found.map(|(name, versioned)| Product {
        name,
        versioned,
        comment: true,
        phrase,
    })
}

/// A product of a `User-Agent` header, for [`agent_from_user_agent`].
struct Product<'a> {
    /// Its product token.
    name: &'a str,
    /// Whether a version follows it.
    versioned: bool,
    /// Whether it is an item of a comment.
    comment: bool,
    /// Whether it is read from a name of several words in a comment
    /// ([`comment_product`]).
    phrase: bool,
}

impl Product<'_> {
    /// Returns true if it names the software: outside comments, or with
    /// a version; not a comment's bare word.
    fn is_strong(&self) -> bool {
        !self.comment || self.versioned
    }
}

/// An item of a `User-Agent` header, for [`products`].
enum Item<'a> {
    /// Text between spaces outside parentheses.
    Top(&'a str),
    /// Text between `;` or `,` inside parentheses.
    Comment(&'a str),
    /// A parenthesis, or a `;` outside them.
    Break,
}

/// The items of a `User-Agent` header, in order.
fn items(header: &str) -> Vec<Item<'_>> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    for (i, c) in header.bytes().enumerate() {
        let ends = match c {
            b'(' | b')' | b';' => true,
            b',' => depth > 0,
            c => c.is_ascii_whitespace() && depth == 0,
        };
        if ends {
            out.extend(item(&header[start..i], depth));
            start = i + 1;
        }
        match c {
            // Not the grammar's, but headers have it: `Mobile
            // Safari/537.36; Bytespider;bytespider@bytedance.com`.
            b';' if depth == 0 => out.push(Item::Break),
            b'(' => {
                depth += 1;
                out.push(Item::Break);
            }
            b')' if depth > 0 => {
                depth -= 1;
                out.push(Item::Break);
            }
            _ => {}
        }
    }
    out.extend(item(&header[start..], depth));
    out
}

/// The item of `text`, unless it is empty.
fn item(text: &str, depth: usize) -> Option<Item<'_>> {
    match (text.trim().is_empty(), depth) {
        (true, _) => None,
        (false, 0) => Some(Item::Top(text)),
        (false, _) => Some(Item::Comment(text)),
    }
}

/// Returns true for a word that crawlers' names are made of (`bot`,
/// `spider`, `Slurp`…), in any case.
fn is_crawlerish(word: &str) -> bool {
    let word = word.to_ascii_lowercase();
    CRAWLER_WORDS.iter().any(|c| word.contains(c))
}

/// Returns true for a word that says "crawler" and names none: `Bot`,
/// `crawler`, `Spider`… (not `Slurp`, `NewsBot`), in any case.
fn is_crawler_word(word: &str) -> bool {
    ["bot", "crawler", "spider", "robot", "crawl", "scraper", "fetcher"]
        .iter()
        .any(|w| word.eq_ignore_ascii_case(w))
}

/// Returns true for a browser's or platform's token (`Mozilla`).
fn is_generic(name: &str) -> bool {
    GENERIC.contains(&name.to_ascii_lowercase().as_str())
}

/// Returns true for a word of a `User-Agent` header that says where to
/// read about the crawler: a URL or an e-mail address.
fn is_address(word: &str) -> bool {
    word.contains("://")
        || word.contains('@')
        || word.starts_with('+')
        || word.starts_with("www.")
}

/// One item of a `User-Agent` header as a product: its token and whether
/// it has a version; `None` if it is not `name` or `name/version` in RFC
/// 9110's token characters. A name with a dot is one only with a version
/// that starts with a digit (`archive.org_bot/3.0`, whose product token
/// is `archive`, as a `user-agent` line's is), not a host and a path
/// (`similartech.com/smtbot`); nor is a URL or e-mail address.
fn product(item: &str) -> Option<(&str, bool)> {
    let item = item.trim();
    match item.split_once('/') {
        Some((name, version)) => product_of(name, Some(version)),
        None => product_of(item, None),
    }
}

/// [`product`] of a name and its version, given apart.
fn product_of<'a>(
    name: &'a str,
    version: Option<&str>,
) -> Option<(&'a str, bool)> {
    if is_address(name) {
        return None;
    }
    let tchar =
        |b: u8| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b);
    if name.is_empty() || !name.bytes().all(tchar) {
        return None;
    }
    let numbered =
        version.is_some_and(|v| v.starts_with(|c: char| c.is_ascii_digit()));
    if name.contains('.') && !numbered {
        return None;
    }
    let token = robotrules::product_token(name.as_bytes());
    (!token.is_empty()).then(|| (&name[..token.len()], version.is_some()))
}

/// Checks a crawler name: a warning if it is not a product token, with
/// the token that was probably meant.
///
/// # Example
///
/// ```
/// use robotrules_analysis::check_agent;
///
/// assert!(check_agent("GPTBot", []).is_none());
/// let w = check_agent("GPTBot/1.0", []).unwrap();
/// assert_eq!(w.suggestion.as_deref(), Some("GPTBot"));
/// ```
pub fn check_agent<'k>(
    agent: &str,
    known: impl IntoIterator<Item = &'k str>,
) -> Option<Warning> {
    if robotrules::is_valid_agent(agent) {
        return None;
    }
    let suggestion = agent_from_user_agent(agent, known);
    let message = match (&suggestion, agent.is_empty()) {
        (_, true) => "the crawler name is empty: it names only the \
                      user-agent lines whose name starts with no letter \
                      (such as `User-agent: 1bot`), never a real crawler"
            .to_string(),
        (Some(s), false) => format!(
            "\"{}\" is not a product token (only letters, `-` and `_`): \
             no user-agent line can name it, so it brings no group of its \
             own (alone, it gets the `*` groups); did you mean {s:?}?",
            escape(agent)
        ),
        (None, false) => format!(
            "\"{}\" is not a product token (only letters, `-` and `_`): \
             no user-agent line can name it, so it brings no group of its \
             own (alone, it gets the `*` groups)",
            escape(agent)
        ),
    };
    Some(Warning { kind: WarningKind::AgentNotToken, message, suggestion })
}

/// Checks a URL: a warning if it is neither an absolute URL nor a path,
/// and one if a crawler would request it otherwise: bytes that must be
/// percent-encoded, or white space that a URL parser removes
/// ([`WarningKind::NeedsEncoding`]), or a path that a URL parser reads
/// otherwise, `\\` as `/` or dot segments resolved
/// ([`WarningKind::ParsedOtherwise`]); with the form requested as the
/// suggestion.
///
/// # Example
///
/// ```
/// use robotrules_analysis::{check_url, WarningKind};
///
/// assert!(check_url("https://example.com/a?b=c").is_empty());
/// let w = check_url("https://e.com/café/menu");
/// assert_eq!(w[0].kind, WarningKind::NeedsEncoding);
/// assert_eq!(w[0].suggestion.as_deref(), Some("https://e.com/caf%C3%A9/menu"));
/// assert_eq!(check_url("not a url")[0].kind, WarningKind::NotUrl);
/// ```
pub fn check_url(url: &str) -> Vec<Warning> {
    let mut out = Vec::new();
    // As a URL parser reads it: without controls and spaces at its ends.
    let trimmed = url.trim_matches(|c: char| c <= ' ');
    let mut parsed = None;
    if !is_url_like(trimmed) {
        out.push(Warning {
            kind: WarningKind::NotUrl,
            message: format!(
                "\"{}\" is not a URL (`scheme://host/path`) or a path \
                 (`/path`): it is judged as the path \"{}\"",
                escape(url),
                escape(&robotrules::path_of(url))
            ),
            suggestion: None,
        });
    } else if !trimmed.starts_with('/') {
        match url::Url::parse(trimmed) {
            Ok(u) => parsed = Some(u),
            Err(e) => {
                // Nothing a crawler could request: say so, and not what
                // an encoding of it would be.
                out.push(Warning {
                    kind: WarningKind::NotUrl,
                    message: format!(
                        "\"{}\" is not a URL that a crawler can request \
                         ({e}, by the WHATWG URL standard): it is judged as \
                         the path \"{}\"",
                        escape(url),
                        escape(&robotrules::path_of(url))
                    ),
                    suggestion: None,
                });
                return out;
            }
        }
    }
    let encoded = percent_encode(url);
    // The URL parsed above is the encoded one's when nothing was encoded.
    let parsed = parsed.filter(|_| *encoded == *trimmed);
    let otherwise = match is_url_like(&encoded) {
        true => parsed_otherwise(&encoded, parsed),
        false => None,
    };
    if let Some((read, requested)) = otherwise {
        // What a crawler requests, encoded as it sends it: the warning
        // below would name a form that it does not request either.
        let mut message = format!(
            "a URL parser (the WHATWG URL standard, as browsers and crawlers \
             read links) reads \"{}\" with the path \"{}\", not the path \
             \"{}\" judged here",
            escape(url),
            escape(&read),
            escape(&robotrules::path_of(url))
        );
        match &requested {
            Some(r) => message.push_str(&format!(": a crawler requests {r}")),
            // (`//p`, which the reference reads as a host and a path.)
            None => message.push_str(
                ", and no URL or path can ask the reference about that path",
            ),
        }
        out.push(Warning {
            kind: WarningKind::ParsedOtherwise,
            message,
            suggestion: requested,
        });
        return out;
    }
    // (A URL of nothing but white space is no request at all.)
    let encoded = match encoded {
        Cow::Owned(encoded) if !encoded.is_empty() => Some(encoded),
        _ => None,
    };
    if let Some(encoded) = encoded {
        out.push(Warning {
            kind: WarningKind::NeedsEncoding,
            message: format!(
                "\"{}\" has characters that a URL parser removes or \
                 percent-encodes (RFC 3986, the WHATWG URL standard): a \
                 crawler requests {encoded}",
                escape(url)
            ),
            suggestion: Some(encoded),
        });
    }
    out
}

/// One answer to "may this crawler fetch this URL?": the verdict, the
/// deciding rule, and the warnings about the question. This is the JSON
/// shape of `robotrules check --json` (with the `serde` feature).
///
/// # Example
///
/// ```
/// use robotrules::Robots;
/// use robotrules_analysis::Check;
///
/// let body = b"user-agent: GPTBot\ndisallow: /\n";
/// let matcher = Robots::parse(body).matcher(&["GPTBot/1.0"]);
/// let check = Check::new(&matcher, body, &["GPTBot/1.0"], "https://example.com/");
/// // The reference's answer: `GPTBot/1.0` names no group.
/// assert!(check.allowed);
/// assert_eq!(check.warnings[0].suggestion.as_deref(), Some("GPTBot"));
/// ```
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Check {
    /// The URL, as given.
    pub url: String,
    /// The crawler's names, as given.
    pub agents: Vec<String>,
    /// The verdict.
    pub allowed: bool,
    /// The deciding rule (the reference's matching line), if any.
    pub rule: Option<RuleRef>,
    /// What may be wrong with the question: see [`check_agent`] and
    /// [`check_url`].
    pub warnings: Vec<Warning>,
}

impl Check {
    /// The answer for `url` as every front end gives it for a local file:
    /// the verdict of `matcher` (built for `agents`) with every warning
    /// about the question ([`check_agents`], [`question_warnings`]).
    /// `body` is the file the matcher was built from, for the warning
    /// that crawlers, which read its first 500 KiB only, get another
    /// verdict ([`FetchLimit`]).
    ///
    /// # Example
    ///
    /// ```
    /// use robotrules::Robots;
    /// use robotrules_analysis::Check;
    ///
    /// let body = b"user-agent: *\ndisallow: /caf%C3%A9\n";
    /// let matcher = Robots::parse(body).matcher(&["FooBot"]);
    /// let check = Check::new(&matcher, body, &["FooBot"], "/café");
    /// assert!(check.allowed);
    /// assert!(check.warnings[0].message.ends_with(", which is DISALLOWED"));
    /// ```
    pub fn new(
        matcher: &Matcher,
        body: &[u8],
        agents: &[&str],
        url: &str,
    ) -> Check {
        let decision = matcher.decide(url);
        let warnings = question_warnings(
            check_agents(agents),
            url,
            |u| matcher.is_allowed(u),
            &decision,
            FetchLimit::new(body, agents).as_ref(),
        );
        Check::with_warnings(&decision, agents, url, warnings)
    }

    /// The answer made from a decision already taken, with the given
    /// warnings: for many URLs, check the agents once and each URL with
    /// [`check_url`].
    pub fn with_warnings(
        decision: &Decision<'_>,
        agents: &[&str],
        url: &str,
        warnings: Vec<Warning>,
    ) -> Check {
        Check {
            url: url.to_string(),
            agents: agents.iter().map(|a| a.to_string()).collect(),
            allowed: decision.is_allowed(),
            rule: decision.rule().map(RuleRef::from),
            warnings,
        }
    }
}

/// Checks every crawler name with [`check_agent`], suggesting the tokens
/// of the built-in catalogue first. `*` is accepted: it names no group, so
/// only the `*` groups apply, which is what it asks for.
pub fn check_agents(agents: &[&str]) -> Vec<Warning> {
    if agents.iter().all(|a| *a == "*" || robotrules::is_valid_agent(a)) {
        return Vec::new();
    }
    let catalogue = crate::Catalogue::builtin();
    let known: Vec<&str> =
        catalogue.crawlers().iter().map(|c| c.token.as_str()).collect();
    agents
        .iter()
        .filter(|a| **a != "*")
        .filter_map(|a| check_agent(a, known.iter().copied()))
        .collect()
}

/// The warnings of [`check_url`] for `url`, each that suggests an
/// encoded form saying the verdict that form gets: `, which is ALLOWED`
/// or `, which is DISALLOWED`. `allowed` gives the verdict for a URL (the
/// rules', or what overrides them, such as the outcome of a fetch); it is
/// called only for URLs that need encoding.
///
/// # Example
///
/// ```
/// use robotrules::Robots;
/// use robotrules_analysis::check_url_against;
///
/// let robots = Robots::parse(b"user-agent: *\ndisallow: /caf%C3%A9\n");
/// let allowed = |url: &str| robots.is_allowed("a", url);
/// let warnings = check_url_against("/café", allowed);
/// assert!(warnings[0].message.ends_with(", which is DISALLOWED"));
/// ```
pub fn check_url_against(
    url: &str,
    allowed: impl Fn(&str) -> bool,
) -> Vec<Warning> {
    let mut warnings = check_url(url);
    for w in &mut warnings {
        if let Some(encoded) = &w.suggestion {
            let shown = match allowed(encoded) {
                true => "ALLOWED",
                false => "DISALLOWED",
            };
            w.message.push_str(", which is ");
            w.message.push_str(shown);
        }
    }
    warnings
}

/// The warnings about checking `url`: `agent_warnings` (those of
/// [`check_agents`], the same for every URL of a question), then those of
/// [`check_url_against`] with `allowed` giving the verdict of an encoded
/// form, then, for a file over 500 KiB, [`FetchLimit::warning`]'s for
/// `decision`, the decision for `url`.
pub fn question_warnings(
    agent_warnings: Vec<Warning>,
    url: &str,
    allowed: impl Fn(&str) -> bool,
    decision: &Decision<'_>,
    limit: Option<&FetchLimit>,
) -> Vec<Warning> {
    let mut warnings = agent_warnings;
    warnings.extend(check_url_against(url, allowed));
    warnings.extend(limit.and_then(|l| l.warning(url, decision)));
    warnings
}

/// A warning that `url` is not on the site whose robots.txt is used.
pub fn other_authority(url: &str, site: &str) -> Warning {
    Warning {
        kind: WarningKind::OtherAuthority,
        message: format!(
            "{} is not governed by the robots.txt of {site}: a robots.txt \
             covers only its own scheme, host and port (RFC 9309 §2.3)",
            escape(url)
        ),
        suggestion: None,
    }
}

/// What a crawler requests for a URL (an absolute URL or a path, given
/// as `encoded`, its [`percent_encode`]d form) when a URL parser reads
/// another path and query from it than the one judged: that path and
/// query, and the form to ask about it by (the URL without its fragment,
/// or the path on the same site), if the reference reads that form with
/// that path (it does not read `//p` as a path). Differences of
/// percent-encoding alone are [`check_url`]'s other warning; these are of
/// structure: `\\` read as `/`, dot segments (`.`, `..`, `%2e`) removed,
/// an empty host taken from the path (`http:///a`). Only for the schemes
/// whose URLs are read so (`http`, `https`, `ftp`…). `parsed` is the
/// URL already parsed, if it was.
fn parsed_otherwise(
    encoded: &str,
    parsed: Option<url::Url>,
) -> Option<(String, Option<String>)> {
    let path_and_query = |u: &url::Url| {
        u[url::Position::BeforePath..url::Position::AfterQuery].to_string()
    };
    let judged = robotrules::path_of(encoded);
    let same = |read: &str| {
        // Most often byte for byte; else after decoding.
        let decode = |s: &str| {
            percent_encoding::percent_decode_str(s).collect::<Vec<u8>>()
        };
        read == judged || decode(read) == decode(&judged)
    };
    if encoded.starts_with('/') {
        // Only these can make a path read otherwise.
        let b = encoded.as_bytes();
        let dotted = b.contains(&b'\\')
            || b.windows(2).any(|w| w == b"/.")
            || b.windows(3).any(|w| w[..2] == *b"%2" && w[2] | 0x20 == b'e');
        if !dotted && !encoded.starts_with("//") {
            return None;
        }
        // On the same site: a path is no authority (`/\\host/x`).
        let on_site = format!("http://h.invalid{encoded}");
        let read = path_and_query(&url::Url::parse(&on_site).ok()?);
        if same(&read) {
            return None;
        }
        let askable = !read.starts_with("//");
        return Some((read.clone(), askable.then_some(read)));
    }
    let mut parsed = match parsed {
        Some(parsed) => parsed,
        None => url::Url::parse(encoded).ok()?,
    };
    if !parsed.is_special() {
        return None;
    }
    if same(&parsed[url::Position::BeforePath..url::Position::AfterQuery]) {
        return None;
    }
    let read = path_and_query(&parsed);
    parsed.set_fragment(None);
    let form = String::from(parsed);
    let askable = robotrules::path_of(&form) == read;
    Some((read, askable.then_some(form)))
}

/// Returns true if `url` starts with `/` or with a scheme and `://`.
fn is_url_like(url: &str) -> bool {
    if url.starts_with('/') {
        return true;
    }
    let Some(colon) = url.find("://") else { return false };
    let scheme = &url[..colon];
    scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme.bytes().all(|b| {
            b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.')
        })
}

/// Returns `url` as a crawler requests it: as a URL parser reads it first
/// (the WHATWG URL standard, as browsers and most HTTP clients do), with
/// controls and spaces at either end dropped and tabs and line breaks
/// anywhere removed; then with the bytes that every URL parser encodes
/// before a request percent-encoded (RFC 3986, and the WHATWG sets for
/// both path and query): non-ASCII, controls, space, `"`, `<` and `>`.
/// `%` is kept (the URL may already be encoded), and so is everything
/// else: characters such as `|` or `{` are sent as they are in a query.
/// A host that is not ASCII is written as its IDNA (punycode) form, as
/// URL parsers write it (UTS #46); one that has none is percent-encoded.
///
/// # Example
///
/// ```
/// use robotrules_analysis::percent_encode;
///
/// assert_eq!(percent_encode("/caf\u{e9} menu"), "/caf%C3%A9%20menu");
/// assert_eq!(percent_encode(" /pri\tvate\n"), "/private");
/// assert_eq!(percent_encode("/plain?q=1"), "/plain?q=1");
/// assert_eq!(
///     percent_encode("https://b\u{fc}cher.de/caf\u{e9}"),
///     "https://xn--bcher-kva.de/caf%C3%A9"
/// );
/// ```
pub fn percent_encode(url: &str) -> Cow<'_, str> {
    let trimmed = url.trim_matches(|c: char| c <= ' ');
    let cleaned: Cow<'_, str> = if trimmed.contains(['\t', '\n', '\r']) {
        Cow::Owned(trimmed.replace(['\t', '\n', '\r'], ""))
    } else {
        Cow::Borrowed(trimmed)
    };
    let needs = |b: u8| {
        b >= 0x80 || b <= 0x20 || b == 0x7F || matches!(b, b'"' | b'<' | b'>')
    };
    if !cleaned.bytes().any(needs) {
        return match cleaned {
            Cow::Borrowed(c) if c.len() == url.len() => Cow::Borrowed(url),
            c => Cow::Owned(c.into_owned()),
        };
    }
    let mut out = String::with_capacity(cleaned.len() + 16);
    let encode = |out: &mut String, text: &str| {
        for b in text.bytes() {
            if needs(b) {
                out.push_str(&format!("%{b:02X}"));
            } else {
                out.push(b as char);
            }
        }
    };
    let mut rest = &cleaned[..];
    if let Some((before, host, after)) = split_host(rest) {
        let ascii = match host.is_ascii() {
            true => None,
            // As URL parsers do: a host that maps to `/`, `?`, a space
            // or the like has no IDNA form.
            false => idna::domain_to_ascii_cow(
                host.as_bytes(),
                idna::AsciiDenyList::URL,
            )
            .ok(),
        };
        if let Some(ascii) = ascii.filter(|a| !a.is_empty()) {
            encode(&mut out, before);
            out.push_str(&ascii);
            rest = after;
        }
    }
    encode(&mut out, rest);
    Cow::Owned(out)
}

/// `url` as what comes before its host, the host, and what follows it
/// (port, path, query), if it starts with a scheme and `://`.
fn split_host(url: &str) -> Option<(&str, &str, &str)> {
    if !is_url_like(url) || url.starts_with('/') {
        return None;
    }
    let start = url.find("://")? + 3;
    let end = url[start..]
        .find(['/', '?', '#', '\\'])
        .map_or(url.len(), |at| start + at);
    // After any user info, up to a port.
    let host_start =
        url[start..end].rfind('@').map_or(start, |at| start + at + 1);
    let host_end = match url[host_start..end].rfind(':') {
        Some(at) if !url[host_start..end].ends_with(']') => host_start + at,
        _ => end,
    };
    Some((&url[..host_start], &url[host_start..host_end], &url[host_end..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    macro_rules! ua {
        ($header:expr, $want:expr) => {
            assert_eq!(
                agent_from_user_agent(
                    $header,
                    ["Googlebot", "Googlebot-Image", "GPTBot"]
                )
                .as_deref(),
                $want,
                "{}",
                $header
            )
        };
    }

    #[test]
    fn a_host_that_is_not_ascii_is_requested_as_punycode() {
        let cases = [
            ("http://b\u{fc}cher.de/a", "http://xn--bcher-kva.de/a"),
            (
                "http://B\u{dc}CHER.de:8080/\u{e9}",
                "http://xn--bcher-kva.de:8080/%C3%A9",
            ),
            (
                "https://u:p\u{e9}@b\u{fc}cher.de?q",
                "https://u:p%C3%A9@xn--bcher-kva.de?q",
            ),
            ("http://\u{4f8b}\u{3048}.jp#x", "http://xn--r8jz45g.jp#x"),
            // ASCII hosts are left as they are; so is a path's text.
            (
                "http://EXAMPLE.com/b\u{fc}cher.de",
                "http://EXAMPLE.com/b%C3%BCcher.de",
            ),
            ("/b\u{fc}cher.de://x", "/b%C3%BCcher.de://x"),
            // No IDNA form: percent-encoded, as before.
            (
                "http://a\u{fc}\u{200b}x\u{fffd}.de/",
                "http://a%C3%BC%E2%80%8Bx%EF%BF%BD.de/",
            ),
            // A host whose mapping holds `/`, `?`, a space or NUL has none.
            (
                "http://a\u{ff0f}b\u{fc}.com/x",
                "http://a%EF%BC%8Fb%C3%BC.com/x",
            ),
            ("http://\u{fc}\u{ff1f}x/y", "http://%C3%BC%EF%BC%9Fx/y"),
            ("http://\u{fc} .de/x", "http://%C3%BC%20.de/x"),
            ("http://\u{fc}\u{0}.de", "http://%C3%BC%00.de"),
            ("http://[::\u{fc}]/x", "http://[::%C3%BC]/x"),
        ];
        for (url, want) in cases {
            assert_eq!(percent_encode(url), want, "{url:?}");
        }
    }

    #[test]
    fn white_space_a_url_parser_removes_is_not_requested() {
        let robots =
            robotrules::Robots::parse(b"User-agent: *\nDisallow: /private\n");
        let allowed = |u: &str| robots.is_allowed("a", u);
        for url in ["/pri\tvate", "/private ", " /private", "/pri\r\nvate"] {
            let w: Vec<_> = check_url_against(url, allowed)
                .into_iter()
                .filter(|w| w.kind == WarningKind::NeedsEncoding)
                .collect();
            assert_eq!(w.len(), 1, "{url:?}");
            assert_eq!(
                w[0].suggestion.as_deref(),
                Some("/private"),
                "{url:?}"
            );
            assert!(w[0].message.ends_with("/private, which is DISALLOWED"));
        }
        // A space inside is sent encoded.
        let w = check_url_against("/pri vate", allowed);
        assert_eq!(w[0].suggestion.as_deref(), Some("/pri%20vate"));
        assert!(w[0].message.ends_with(", which is ALLOWED"));
        assert!(check_url("/private").is_empty());
        // Nothing but white space: no request to name.
        let w = check_url(" \t ");
        assert!(w.iter().all(|w| w.kind != WarningKind::NeedsEncoding));
    }

    #[test]
    fn user_agents() {
        ua!("Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", Some("Googlebot"));
        ua!("Googlebot-Image/1.0", Some("Googlebot-Image"));
        ua!("Mozilla/5.0 (compatible; FooCrawler/3; +x)", Some("FooCrawler"));
        ua!("Mozilla/5.0 (Windows NT 10.0) AppleWebKit/537.36 Chrome/1 Safari/537.36", Some("Mozilla"));
        ua!("", None);
        // A crawler named without a version, as a product or a comment's
        // word; a URL's words are not its name.
        ua!("Mozilla/5.0 (compatible; Yahoo! Slurp; http://help.yahoo.com/help/us/ysearch/slurp)", Some("Slurp"));
        ua!("ia_archiver (+http://www.alexa.com/site/help/webmasters; crawler@alexa.com)", Some("ia_archiver"));
        ua!("Mozilla/5.0 (+http://example.com/bot.html)", Some("Mozilla"));
        // Words of URLs and browsers' products are no crawler's name,
        // even when a file names them.
        let ua = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)";
        let file =
            ["Mozilla", "compatible", "https", "com", "openai", "gptbot"];
        assert_eq!(agent_from_user_agent(ua, file).as_deref(), Some("gptbot"));
        let ua = "Scrapy/2.19.0 (+https://scrapy.org)";
        assert_eq!(
            agent_from_user_agent(ua, ["https", "scrapy"]).as_deref(),
            Some("scrapy")
        );
        assert_eq!(
            agent_from_user_agent(ua, ["https", "org"]).as_deref(),
            Some("Scrapy")
        );
        let ua = "Mozilla/5.0 (compatible; MyBot/1.0; +http://www.example.com/bot.html)";
        let file = ["Mozilla", "http", "www", "example", "bot", "VoilaBot"];
        assert_eq!(agent_from_user_agent(ua, file).as_deref(), Some("MyBot"));
        ua!("Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", Some("bingbot"));
        ua!("Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", Some("Googlebot"));
        ua!("Mozilla/5.0 (Windows NT 10.0; Win64; x64)", Some("Mozilla"));
        ua!("2fast", None);
        // Items parted by `;` outside parentheses.
        ua!("Mozilla/5.0 AppleWebKit/537.36 Chrome/43.0.7597.1164 Mobile Safari/537.36; Bytespider;bytespider@bytedance.com", Some("Bytespider"));
        let owler = "robot;Owler;sthiyagarajan@owler-inc.com";
        assert_eq!(
            agent_from_user_agent(owler, ["Owler"]).as_deref(),
            Some("Owler")
        );
    }

    #[test]
    fn names_of_several_words_and_dotted_names() {
        // Of a name of several words, the first word is a product, and
        // the last if it has a version; the others (`web`) are none, even
        // when a file names them (`User-agent: Web Downloader`).
        let sogou = "Sogou web spider/4.0(+http://www.sogou.com/docs/help/webmasters.htm#07)";
        ua!(sogou, Some("spider"));
        let known =
            |k: &[&str]| agent_from_user_agent(sogou, k.iter().copied());
        assert_eq!(known(&["Web"]).as_deref(), Some("spider"));
        assert_eq!(known(&["Sogou"]).as_deref(), Some("Sogou"));
        let frog = "Screaming Frog SEO Spider/19.0";
        ua!(frog, Some("Spider"));
        assert_eq!(
            agent_from_user_agent(frog, ["Screaming"]).as_deref(),
            Some("Screaming")
        );
        assert_eq!(
            agent_from_user_agent(frog, ["SEO"]).as_deref(),
            Some("Spider")
        );
        // In a comment, an item is one name: of several words, the first
        // counts, with the version of the last (`User-agent: Screaming
        // Frog SEO Spider` is the file's `Screaming`).
        let frog = "Mozilla/5.0 (compatible; Screaming Frog SEO Spider/19.0)";
        ua!(frog, Some("Screaming"));
        assert_eq!(
            agent_from_user_agent(frog, ["Spider"]).as_deref(),
            Some("Screaming")
        );
        // Nor is its last word another's (`User-agent: Agent:SiteSucker`).
        let known = "Mozilla/5.0 (compatible; Known Agent/1.0; +https://knownagents.com)";
        assert_eq!(
            agent_from_user_agent(known, ["Agent"]).as_deref(),
            Some("Known")
        );
        assert_eq!(
            agent_from_user_agent(frog, ["SEO", "Frog"]).as_deref(),
            Some("Screaming")
        );
        ua!("Mozilla/5.0 (compatible; Kangaroo Bot/1.0; +http://www.kangaroo.com)", Some("Kangaroo"));
        ua!("Mozilla/5.0 (compatible; Dark Visitor/1.0; +https://darkvisitors.com)", Some("Dark"));
        ua!("Mozilla/5.0 (compatible; Exabot PyExalead/3.0; +http://www.exabot.com/go/robot)", Some("Exabot"));
        let seekport =
            "Mozilla/5.0 (compatible; Seekport Crawler; http://seekport.com/)";
        assert_eq!(
            agent_from_user_agent(seekport, ["Seekport"]).as_deref(),
            Some("Seekport")
        );
        // A phone's model and build are no crawler.
        let safety = "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/114.0.5735.179 Mobile Safari/537.36 (compatible; Google-Safety; +http://www.google.com/bot.html)";
        assert_eq!(
            agent_from_user_agent(safety, ["Google-Safety"]).as_deref(),
            Some("Google-Safety")
        );
        let sistrix = "Mozilla/5.0 (compatible; SISTRIX Crawler; http://crawler.sistrix.net/)";
        assert_eq!(
            agent_from_user_agent(sistrix, ["SISTRIX"]).as_deref(),
            Some("SISTRIX")
        );
        // Where the header names its software outside comments, a
        // comment's name of several words is what it is made of.
        let linkedin = "LinkedInBot/1.0 (compatible; Mozilla/5.0; Jakarta Commons-HttpClient/4.3 +http://www.linkedin.com)";
        assert_eq!(
            agent_from_user_agent(linkedin, ["Jakarta"]).as_deref(),
            Some("LinkedInBot")
        );
        // A crawler's own name at the end is its name: Yahoo's is
        // `Slurp`, not the `Yahoo` of `User-agent: Yahoo Pipes 1.0`.
        let slurp = "Mozilla/5.0 (compatible; Yahoo! Slurp/3.0; http://help.yahoo.com/help/us/ysearch/slurp)";
        assert_eq!(
            agent_from_user_agent(slurp, ["Yahoo"]).as_deref(),
            Some("Slurp")
        );
        // Other phrases are no name.
        let fynd = "FyndSearchEngine-Crawler (by fynd.bot; https://fynd.bot)";
        assert_eq!(
            agent_from_user_agent(fynd, ["by"]).as_deref(),
            Some("FyndSearchEngine-Crawler")
        );
        let acap = "Mozilla/5.0 (compatible; AcapBot; treat like Googlebot)";
        assert_eq!(
            agent_from_user_agent(acap, ["treat"]).as_deref(),
            Some("AcapBot")
        );
        // Nor a phrase (`like Gecko`) a product of another's name.
        let telegram = "TelegramBot (like TwitterBot)";
        assert_eq!(
            agent_from_user_agent(telegram, ["TwitterBot"]).as_deref(),
            Some("TelegramBot")
        );
        // A product after a word is a product all the same.
        ua!(
            "ArchiveTeam ArchiveBot/20170106.02 (wpull 2.0.2)",
            Some("ArchiveBot")
        );
        ua!("Facebot Twitterbot/1.0", Some("Twitterbot"));
        assert_eq!(
            agent_from_user_agent("Facebot Twitterbot/1.0", ["Facebot"])
                .as_deref(),
            Some("Facebot")
        );
        ua!("Mozilla/5.0 Mobile FooBot/1.0", Some("FooBot"));
        // A product's token ends at its first byte that is not a letter,
        // `-` or `_`, as a `user-agent` line's does.
        ua!("archive.org_bot/3.0", Some("archive"));
        ua!("Mail.RU_Bot/2.0", Some("Mail"));
        let archive = "Mozilla/5.0 (compatible; archive.org_bot +http://archive.org/details/archive.org_bot)";
        ua!(archive, Some("archive"));
        assert_eq!(
            agent_from_user_agent(archive, ["archive"]).as_deref(),
            Some("archive")
        );
        // Hosts and paths are no products.
        ua!("MLBot (www.metadatalabs.com/mlbot)", Some("MLBot"));
        ua!("SMTBot (similartech.com/smtbot)", Some("SMTBot"));
        ua!("Owler (ows.eu/owler)", Some("Owler"));
        ua!("http.rb/2.2.2 (Mastodon/1.5.1; +https://example-masto-instance.org/)", Some("Mastodon"));
        // A version may be followed by anything.
        ua!(
            "Mozilla/5.0 (compatible; heritrix/1.14.3 +http://archive.org)",
            Some("heritrix")
        );
        ua!("Mozilla/5.0 Chrome/110.0.0.0 Safari/537.36 nyt_scraping/scraping@nytimes.com", Some("nyt_scraping"));
        ua!("Mozilla/5.0 (compatible; MegaIndex.ru/2.0; +http://megaindex.com/crawler)", Some("MegaIndex"));
        // Nor is a name followed by a URL in a comment.
        let linkedin = "LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)";
        let known = ["LinkedInBot", "Apache-HttpClient"];
        assert_eq!(
            agent_from_user_agent(linkedin, known).as_deref(),
            Some("LinkedInBot")
        );
    }

    #[test]
    fn the_file_s_names_before_the_catalogue_s() {
        let of = |body: &[u8], ua: &str| {
            agent_for_user_agent(&Robots::parse(body), ua)
        };
        let ua = "facebookexternalhit/1.1 Twitterbot/1.0";
        assert_eq!(
            of(b"User-agent: Twitterbot\nAllow: /\n", ua).as_deref(),
            Some("Twitterbot")
        );
        assert_eq!(
            of(b"User-agent: *\nAllow: /\n", ua).as_deref(),
            Some("facebookexternalhit")
        );
        // A crawler with a version before a bare word of a comment that
        // a file names (`News`, `en-US`).
        let ahrefs = "Mozilla/5.0 (compatible; AhrefsBot/6.1; News; +http://ahrefs.com/robot/)";
        assert_eq!(
            of(b"User-agent: News\nAllow: /\n", ahrefs).as_deref(),
            Some("AhrefsBot")
        );
        let diffbot = "Mozilla/5.0 (Windows; U; Windows NT 5.1; en-US; rv:1.9.1.2) Gecko/20090729 Firefox/3.5.2 (.NET CLR 3.5.30729; Diffbot/0.1; +http://www.diffbot.com)";
        assert_eq!(
            of(b"User-agent: en-US\nAllow: /\n", diffbot).as_deref(),
            Some("Diffbot")
        );
        // Of bare words, the catalogue's crawler before the file's word.
        let adsbot = "Mozilla/5.0 (Linux; Android 5.0; SM-G920A) AppleWebKit (KHTML, like Gecko) Chrome Mobile Safari (compatible; AdsBot-Google-Mobile; +http://www.google.com/mobile/adsbot.html)";
        assert_eq!(
            of(b"User-agent: SM-G920A\nAllow: /\n", adsbot).as_deref(),
            Some("AdsBot-Google-Mobile")
        );
        // The file's bare word when nothing else names a crawler.
        let bare = "Mozilla/5.0 (compatible; Quux; +http://quux.example/)";
        assert_eq!(
            of(b"User-agent: Quux\nAllow: /\n", bare).as_deref(),
            Some("Quux")
        );
        // The header's own name, before what its comment names.
        let claude = "Claude-User (claude-code/2.1.86; +https://support.anthropic.com/)";
        assert_eq!(of(b"User-agent: Claude-User\nUser-agent: claude-code\nAllow: /\n", claude).as_deref(), Some("Claude-User"));
        // Of two products named, the first (RFC 9110's order).
        let gwene = "Gwene/1.0 (The gwene.org rss-to-news gateway) Googlebot";
        assert_eq!(
            of(b"User-agent: Googlebot\nUser-agent: Gwene\nAllow: /\n", gwene)
                .as_deref(),
            Some("Gwene")
        );
    }

    #[test]
    fn agents() {
        assert!(check_agent("Googlebot", []).is_none());
        assert!(check_agent("", []).is_some());
        assert_eq!(
            check_agent("Foo Bar", []).unwrap().suggestion.as_deref(),
            Some("Foo")
        );
    }

    #[test]
    fn urls() {
        assert!(check_url("/a/b").is_empty());
        assert!(check_url("http://h").is_empty());
        assert!(check_url("https://h/%C3%A9").is_empty());
        assert_eq!(check_url("a b")[0].kind, WarningKind::NotUrl);
        assert_eq!(check_url("a b")[1].suggestion.as_deref(), Some("a%20b"));
        assert_eq!(percent_encode("/x\x1b[31m"), "/x%1B[31m");
        assert_eq!(check_url("1http://x")[0].kind, WarningKind::NotUrl);
        // Control characters are escaped once, inside the quotes.
        let w = check_url("/a\x01b c");
        assert!(w[0].message.starts_with(r#""/a\x01b c" has"#), "{w:?}");
        let w = check_url("a\x1bb");
        assert!(w[0].message.starts_with(r#""a\x1bb" is not"#), "{w:?}");
        assert!(w[0].message.ends_with(r#"the path "/""#), "{w:?}");
        // Sent as they are in a query: no warning.
        assert!(check_url("https://e.com/s?q=a|b&c={d}^e").is_empty());
        assert!(check_url("http://[::1]:8080/a%20b?x=%").is_empty());
    }

    #[test]
    fn urls_no_parser_reads() {
        for url in [
            "http://127.0.0.1:99999/private",
            "http://127.0.0.1:80:1/private",
            "http://[zz]/private",
            "http://exa mple.com/private",
            "http://:80/private",
        ] {
            let w = check_url(url);
            assert_eq!(w.len(), 1, "{url}: {w:?}");
            assert_eq!(w[0].kind, WarningKind::NotUrl, "{url}");
            assert!(w[0].message.contains("the path \"/private\""), "{w:?}");
            assert!(w[0].suggestion.is_none());
        }
        let w = check_url("http://e.com:99999/");
        assert!(w[0].message.contains("invalid port number"), "{w:?}");
        // What a URL parser cleans up is still a URL, with the form it
        // requests.
        for url in [
            "https://e.com/a b",
            "https://e.com/caf\u{e9}",
            "https://b\u{fc}cher.de/",
        ] {
            let w = check_url(url);
            assert_eq!(w.len(), 1, "{url}: {w:?}");
            assert_eq!(w[0].kind, WarningKind::NeedsEncoding, "{url}");
        }
        assert!(check_url("ftp://h/robots.txt").is_empty());
    }

    #[test]
    fn paths_a_url_parser_reads_otherwise() {
        let robots = robotrules::Robots::parse(
            b"User-agent: *\nDisallow: /a\nDisallow: /private\n",
        );
        let allowed = |u: &str| robots.is_allowed("a", u);
        let cases = [
            // A backslash is a `/` to a URL parser, for these schemes.
            ("http://example.com\\a", "http://example.com/a", "DISALLOWED"),
            ("/x\\..\\private", "/private", "DISALLOWED"),
            // Dot segments go, `%2e` ones too.
            (
                "https://e.com/x/../private",
                "https://e.com/private",
                "DISALLOWED",
            ),
            (
                "https://e.com/%2e%2E/private",
                "https://e.com/private",
                "DISALLOWED",
            ),
            ("/x/./../private?q", "/private?q", "DISALLOWED"),
            ("https://e.com/a/.", "https://e.com/a/", "DISALLOWED"),
            // No host: the path's first segment is taken for it.
            ("http:///a", "http://a/", "ALLOWED"),
            // With bytes to encode, the form requested is encoded.
            (
                "https://e.com/x/../caf\u{e9}",
                "https://e.com/caf%C3%A9",
                "ALLOWED",
            ),
            // White space a URL parser drops first.
            (" /a/../private", "/private", "DISALLOWED"),
            (
                "\thttps://e.com/a/../private",
                "https://e.com/private",
                "DISALLOWED",
            ),
        ];
        for (url, want, verdict) in cases {
            let w = check_url_against(url, allowed);
            assert_eq!(w.len(), 1, "{url}: {w:?}");
            assert_eq!(w[0].kind, WarningKind::ParsedOtherwise, "{url}");
            assert_eq!(w[0].suggestion.as_deref(), Some(want), "{url}");
            let end = format!(", which is {verdict}");
            assert!(w[0].message.ends_with(&end), "{url}: {w:?}");
        }
        // The same path, however encoded or spelt, or in a scheme that is
        // not read so: nothing to say.
        for url in [
            "https://E.COM:443/a?b=../c#x/../y",
            "https://e.com/.well-known/a.b",
            "https://e.com/a%2Fb/%2Ex",
            "/a/.b/c..",
            "foo://h/x/../y",
            "https://e.com",
            "https://e.com?q",
        ] {
            let w = check_url(url);
            assert!(
                w.iter().all(|w| w.kind != WarningKind::ParsedOtherwise),
                "{url}: {w:?}"
            );
        }
        // A path read with `//` first, which the reference would read as
        // a host: the path requested, no form to ask about it by. A path
        // is read on its own site, never as another host.
        for (url, read) in [
            ("/.//p", "//p"),
            ("/\\evil.com/private", "//evil.com/private"),
            ("//host/x", "//host/x"),
            // A host the reference reads otherwise: `https://ex.com;p/x`
            // asks about `/;p/x` again.
            ("https://ex.com;p/x", "/x"),
        ] {
            let w = check_url_against(url, allowed);
            assert_eq!(w.len(), 1, "{url}: {w:?}");
            assert_eq!(w[0].kind, WarningKind::ParsedOtherwise, "{url}");
            assert_eq!(w[0].suggestion, None, "{url}");
            let path = format!("with the path \"{read}\"");
            assert!(w[0].message.contains(&path), "{url}: {w:?}");
            assert!(!w[0].message.contains("which is"), "{url}: {w:?}");
        }
        let w = check_url("https://e.com/.//p");
        assert_eq!(w[0].suggestion.as_deref(), Some("https://e.com//p"));
        // A path that changes only in its encoding keeps that warning.
        let w = check_url("https://e.com/a b/../c");
        assert_eq!(w[0].kind, WarningKind::ParsedOtherwise);
        let w = check_url("https://e.com/a b");
        assert_eq!(w[0].kind, WarningKind::NeedsEncoding);
    }
}
