//! The catalogue of well-known crawlers.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::sync::OnceLock;

/// The catalogue shipped with the crate, in the TOML form that
/// [`Catalogue::from_toml`] reads.
const BUILTIN: &str = include_str!("../data/crawlers.toml");

/// What a crawler fetches pages for.
#[derive(Clone, Copy, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "kebab-case")
)]
#[non_exhaustive]
pub enum Purpose {
    /// A search engine's index (`search`).
    Search,
    /// Collecting text or images to train AI models (`ai-training`).
    AiTraining,
    /// An AI search engine's index (`ai-search`).
    AiSearch,
    /// Fetching pages for an AI assistant, on a user's request
    /// (`ai-assistant`).
    AiAssistant,
    /// Search engine optimisation tools: backlinks, audits (`seo`).
    Seo,
    /// Archiving the web (`archive`).
    Archive,
    /// Checking ad landing pages, or choosing ads (`ads`).
    Ads,
    /// Link previews for social networks and chat (`social`).
    Social,
    /// Anything else (`other`).
    Other,
}

impl Purpose {
    /// Every purpose, in declaration order.
    pub const ALL: &'static [Purpose] = &[
        Purpose::Search,
        Purpose::AiTraining,
        Purpose::AiSearch,
        Purpose::AiAssistant,
        Purpose::Seo,
        Purpose::Archive,
        Purpose::Ads,
        Purpose::Social,
        Purpose::Other,
    ];

    /// The name used in catalogue files: `search`, `ai-training`,
    /// `ai-search`, `ai-assistant`, `seo`, `archive`, `ads`, `social` or
    /// `other`.
    pub fn as_str(self) -> &'static str {
        match self {
            Purpose::Search => "search",
            Purpose::AiTraining => "ai-training",
            Purpose::AiSearch => "ai-search",
            Purpose::AiAssistant => "ai-assistant",
            Purpose::Seo => "seo",
            Purpose::Archive => "archive",
            Purpose::Ads => "ads",
            Purpose::Social => "social",
            Purpose::Other => "other",
        }
    }

    /// The purpose named `name` (as [`Purpose::as_str`] spells it).
    pub fn from_name(name: &str) -> Option<Purpose> {
        Purpose::ALL.iter().copied().find(|p| p.as_str() == name)
    }

    /// Returns true if and only if the purpose is one of the AI ones:
    /// training, search or assistant.
    pub fn is_ai(self) -> bool {
        matches!(
            self,
            Purpose::AiTraining | Purpose::AiSearch | Purpose::AiAssistant
        )
    }
}

impl fmt::Display for Purpose {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A crawler of the catalogue.
#[derive(Clone, Debug, Eq, Hash, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(deny_unknown_fields)
)]
#[non_exhaustive]
pub struct Crawler {
    /// The product token it obeys in robots.txt, such as `GPTBot`
    /// (matched without regard to ASCII case, RFC 9309 §2.2.1).
    pub token: String,
    /// Who runs it, such as `OpenAI`.
    pub operator: String,
    /// What it fetches pages for.
    pub purpose: Purpose,
    /// A remark, such as "robots.txt-only token".
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub note: Option<String>,
    /// The operator's documentation of the crawler.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub url: Option<String>,
    /// Tokens whose groups it follows, in this order, when no group names
    /// it, as its operator documents: Applebot follows Googlebot's
    /// groups, YandexBot those for `Yandex` (all of Yandex's robots).
    /// Only then do the `*` groups apply.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub fallback: Vec<String>,
    /// True if it ignores the `*` groups, as its operator documents
    /// (Google's AdsBot): only a group that names it (or a fallback)
    /// restricts it.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "std::ops::Not::not")
    )]
    pub ignores_global: bool,
    /// True if it fetches a page only when a user asks for it, and its
    /// operator says robots.txt rules may not apply to it then
    /// (ChatGPT-User, Perplexity-User): a group that disallows it may not
    /// keep it out.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "std::ops::Not::not")
    )]
    pub user_initiated: bool,
}

impl Crawler {
    /// A crawler with no note and no URL.
    pub fn new(
        token: impl Into<String>,
        operator: impl Into<String>,
        purpose: Purpose,
    ) -> Crawler {
        Crawler {
            token: token.into(),
            operator: operator.into(),
            purpose,
            note: None,
            url: None,
            fallback: Vec::new(),
            ignores_global: false,
            user_initiated: false,
        }
    }
}

/// A list of crawlers to audit a robots.txt for.
///
/// [`Catalogue::builtin`] is the catalogue shipped with the crate: search
/// engines, AI training crawlers, AI search and assistants, SEO tools,
/// archives, ad and link-preview bots. Others can be read from TOML
/// ([`Catalogue::from_toml`]) or, with the `serde` feature, JSON
/// (`Catalogue::from_json`), or built with [`Catalogue::new`].
///
/// # Example
///
/// ```
/// use robotrules_analysis::{Catalogue, Purpose};
///
/// let builtin = Catalogue::builtin();
/// let gptbot = builtin.get("gptbot").ok_or("GPTBot is listed")?;
/// assert_eq!(gptbot.purpose, Purpose::AiTraining);
///
/// let mine = Catalogue::from_toml(r#"
/// [[crawler]]
/// token = "FooBot"
/// operator = "Example"
/// purpose = "search"
/// "#)?;
/// assert_eq!(mine.len(), 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Default)]
pub struct Catalogue {
    crawlers: Vec<Crawler>,
    /// Each crawler's place, by its token in lower case: made when first
    /// needed.
    places: OnceLock<HashMap<Box<[u8]>, usize>>,
}

impl PartialEq for Catalogue {
    fn eq(&self, other: &Catalogue) -> bool {
        self.crawlers == other.crawlers
    }
}

impl Eq for Catalogue {}

impl fmt::Debug for Catalogue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Catalogue").field("crawlers", &self.crawlers).finish()
    }
}

impl Catalogue {
    /// The catalogue shipped with the crate.
    pub fn builtin() -> Catalogue {
        // The shipped file is checked by the tests, so this never falls
        // back to the empty catalogue.
        Catalogue::from_toml(BUILTIN).unwrap_or_default()
    }

    /// The product tokens of the built-in catalogue, read once.
    pub(crate) fn builtin_tokens() -> &'static [String] {
        static TOKENS: OnceLock<Vec<String>> = OnceLock::new();
        TOKENS.get_or_init(|| {
            let catalogue = Catalogue::builtin();
            catalogue.crawlers().iter().map(|c| c.token.clone()).collect()
        })
    }

    /// A catalogue of the given crawlers.
    ///
    /// # Errors
    ///
    /// If a token is not a valid product token (letters, `-` and `_`,
    /// [`robotrules::is_valid_agent`]), if an operator is empty, or if two
    /// crawlers have the same token (ignoring ASCII case).
    pub fn new(crawlers: Vec<Crawler>) -> Result<Catalogue, CatalogueError> {
        let mut seen = HashSet::new();
        for (i, c) in crawlers.iter().enumerate() {
            let at = |kind, message: String| CatalogueError {
                kind,
                line: None,
                message: format!("crawler {}: {message}", i + 1),
            };
            if !robotrules::is_valid_agent(&c.token) {
                return Err(at(
                    CatalogueErrorKind::InvalidValue,
                    format!("`{}` is not a valid product token", c.token),
                ));
            }
            if c.operator.trim().is_empty() {
                return Err(at(
                    CatalogueErrorKind::InvalidValue,
                    "the operator is empty".into(),
                ));
            }
            for f in &c.fallback {
                if !robotrules::is_valid_agent(f)
                    || f.eq_ignore_ascii_case(&c.token)
                {
                    return Err(at(
                        CatalogueErrorKind::InvalidValue,
                        format!(
                            "`{f}` is not a valid fallback of `{}`: a \
                             product token other than its own",
                            c.token
                        ),
                    ));
                }
            }
            if !seen.insert(c.token.to_ascii_lowercase()) {
                return Err(at(
                    CatalogueErrorKind::Duplicate,
                    format!("`{}` is listed twice", c.token),
                ));
            }
        }
        Ok(Catalogue { crawlers, places: OnceLock::new() })
    }

    /// Reads a catalogue from TOML: one `[[crawler]]` table per crawler,
    /// with the string keys `token`, `operator`, `purpose` (see
    /// [`Purpose::as_str`]) and optionally `note` and `url`, an array of
    /// strings `fallback` and the booleans `ignores_global` and
    /// `user_initiated` (see [`Crawler`]).
    ///
    /// The reader needs no TOML library: it accepts this form only (basic
    /// and literal strings, arrays of them and booleans on one line,
    /// comments, blank lines), which is all a catalogue needs.
    ///
    /// # Errors
    ///
    /// On anything else, on unknown or missing keys, and for the reasons
    /// of [`Catalogue::new`]; the error gives the line where it can.
    pub fn from_toml(text: &str) -> Result<Catalogue, CatalogueError> {
        let mut crawlers = Vec::new();
        let mut table: Option<Table> = None;
        for (i, raw) in text.lines().enumerate() {
            let n = i + 1;
            let err = |kind, message: String| CatalogueError {
                kind,
                line: Some(n),
                message,
            };
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if line.starts_with('[') {
                let header = strip_comment(line).trim_end();
                if header != "[[crawler]]" {
                    return Err(err(
                        CatalogueErrorKind::Syntax,
                        format!("expected `[[crawler]]`, found `{header}`"),
                    ));
                }
                if let Some(t) = table.take() {
                    crawlers.push(t.finish()?);
                }
                table = Some(Table { line: n, ..Table::default() });
                continue;
            }
            let Some((key, rest)) = line.split_once('=') else {
                return Err(err(
                    CatalogueErrorKind::Syntax,
                    "expected `key = \"value\"`".into(),
                ));
            };
            let key = key.trim();
            let Some(t) = table.as_mut() else {
                return Err(err(
                    CatalogueErrorKind::Syntax,
                    format!("`{key}` comes before any `[[crawler]]`"),
                ));
            };
            let twice = || {
                err(
                    CatalogueErrorKind::Syntax,
                    format!("`{key}` is given twice"),
                )
            };
            match key {
                "fallback" => {
                    let tokens = array_value(rest.trim())
                        .map_err(|m| err(CatalogueErrorKind::Syntax, m))?;
                    if t.fallback.replace((n, tokens)).is_some() {
                        return Err(twice());
                    }
                    continue;
                }
                "ignores_global" | "user_initiated" => {
                    let value = bool_value(rest.trim())
                        .map_err(|m| err(CatalogueErrorKind::Syntax, m))?;
                    let slot = match key {
                        "ignores_global" => &mut t.ignores_global,
                        _ => &mut t.user_initiated,
                    };
                    if slot.replace((n, value)).is_some() {
                        return Err(twice());
                    }
                    continue;
                }
                _ => {}
            }
            let value = string_value(rest.trim())
                .map_err(|m| err(CatalogueErrorKind::Syntax, m))?;
            let slot = match key {
                "token" => &mut t.token,
                "operator" => &mut t.operator,
                "purpose" => &mut t.purpose,
                "note" => &mut t.note,
                "url" => &mut t.url,
                _ => {
                    return Err(err(
                        CatalogueErrorKind::UnknownField,
                        format!("unknown key `{key}`"),
                    ))
                }
            };
            if slot.is_some() {
                return Err(err(
                    CatalogueErrorKind::Syntax,
                    format!("`{key}` is given twice"),
                ));
            }
            *slot = Some((n, value));
        }
        if let Some(t) = table.take() {
            crawlers.push(t.finish()?);
        }
        Catalogue::new(crawlers)
    }

    /// Reads a catalogue from JSON: an array of crawler objects, or an
    /// object whose `crawler` key holds one (the TOML layout), with the
    /// keys of [`Catalogue::from_toml`].
    ///
    /// # Errors
    ///
    /// On invalid JSON, unknown or missing keys, an unknown purpose, and
    /// for the reasons of [`Catalogue::new`]; the error gives the line
    /// where it can.
    #[cfg(feature = "serde")]
    pub fn from_json(text: &str) -> Result<Catalogue, CatalogueError> {
        #[derive(serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Table {
            crawler: Vec<Crawler>,
        }
        let parsed = if text.trim_start().starts_with('[') {
            serde_json::from_str::<Vec<Crawler>>(text)
        } else {
            serde_json::from_str::<Table>(text).map(|t| t.crawler)
        };
        match parsed {
            Ok(crawlers) => Catalogue::new(crawlers),
            Err(e) => Err(CatalogueError {
                kind: if e.is_syntax() || e.is_eof() {
                    CatalogueErrorKind::Syntax
                } else {
                    CatalogueErrorKind::InvalidValue
                },
                line: Some(e.line()).filter(|&l| l > 0),
                message: strip_position(&e.to_string()),
            }),
        }
    }

    /// The crawlers, in catalogue order.
    pub fn crawlers(&self) -> &[Crawler] {
        &self.crawlers
    }

    /// The crawler whose token is `token`, ignoring ASCII case.
    pub fn get(&self, token: &str) -> Option<&Crawler> {
        let place = self.place_of_token(token.as_bytes())?;
        self.crawlers.get(place)
    }

    /// The place of the crawler whose token is `token`, ignoring ASCII
    /// case: the crawler that a `user-agent` line of that product token
    /// names ([`robotrules::Agent::is_named_by`]). One lookup, not a
    /// comparison with every crawler's token.
    pub(crate) fn place_of_token(&self, token: &[u8]) -> Option<usize> {
        let places = self.places.get_or_init(|| {
            let lower = |c: &Crawler| c.token.to_ascii_lowercase();
            let key = |c| lower(c).into_bytes().into_boxed_slice();
            self.crawlers
                .iter()
                .enumerate()
                .map(|(i, c)| (key(c), i))
                .collect()
        });
        if token.iter().any(u8::is_ascii_uppercase) {
            places.get(&token.to_ascii_lowercase()[..]).copied()
        } else {
            places.get(token).copied()
        }
    }

    /// The number of crawlers.
    pub fn len(&self) -> usize {
        self.crawlers.len()
    }

    /// Returns true if and only if the catalogue lists no crawler.
    pub fn is_empty(&self) -> bool {
        self.crawlers.is_empty()
    }
}

impl<'a> IntoIterator for &'a Catalogue {
    type Item = &'a Crawler;
    type IntoIter = std::slice::Iter<'a, Crawler>;

    fn into_iter(self) -> Self::IntoIter {
        self.crawlers.iter()
    }
}

/// The keys of one `[[crawler]]` table, with their lines.
#[derive(Default)]
struct Table {
    line: usize,
    token: Option<(usize, String)>,
    operator: Option<(usize, String)>,
    purpose: Option<(usize, String)>,
    note: Option<(usize, String)>,
    url: Option<(usize, String)>,
    fallback: Option<(usize, Vec<String>)>,
    ignores_global: Option<(usize, bool)>,
    user_initiated: Option<(usize, bool)>,
}

impl Table {
    fn finish(self) -> Result<Crawler, CatalogueError> {
        let missing = |key: &str| CatalogueError {
            kind: CatalogueErrorKind::MissingField,
            line: Some(self.line),
            message: format!("the crawler has no `{key}`"),
        };
        let (_, token) = self.token.clone().ok_or_else(|| missing("token"))?;
        let (line, operator) =
            self.operator.clone().ok_or_else(|| missing("operator"))?;
        let (pline, purpose) =
            self.purpose.clone().ok_or_else(|| missing("purpose"))?;
        let purpose = Purpose::from_name(&purpose).ok_or(CatalogueError {
            kind: CatalogueErrorKind::InvalidValue,
            line: Some(pline),
            message: format!("unknown purpose `{purpose}`"),
        })?;
        let at = |kind, message: String| CatalogueError {
            kind,
            line: self.token.as_ref().map(|t| t.0),
            message,
        };
        if !robotrules::is_valid_agent(&token) {
            return Err(at(
                CatalogueErrorKind::InvalidValue,
                format!("`{token}` is not a valid product token"),
            ));
        }
        if operator.trim().is_empty() {
            return Err(CatalogueError {
                kind: CatalogueErrorKind::InvalidValue,
                line: Some(line),
                message: "the operator is empty".into(),
            });
        }
        Ok(Crawler {
            token,
            operator,
            purpose,
            note: self.note.map(|n| n.1),
            url: self.url.map(|u| u.1),
            fallback: self.fallback.map(|f| f.1).unwrap_or_default(),
            ignores_global: self.ignores_global.is_some_and(|g| g.1),
            user_initiated: self.user_initiated.is_some_and(|u| u.1),
        })
    }
}

/// Removes a `#` comment from a line with no string on it.
fn strip_comment(line: &str) -> &str {
    line.split('#').next().unwrap_or_default()
}

/// Reads a TOML array of strings on one line (`["a", 'b']`), which may be
/// followed only by whitespace and a comment.
fn array_value(text: &str) -> Result<Vec<String>, String> {
    let inner = text.strip_prefix('[').ok_or("expected an array `[...]`")?;
    // Strings in a catalogue are tokens: no `]` or `,` inside them.
    let (inner, after) =
        inner.rsplit_once(']').ok_or("an array without its `]`")?;
    if !strip_comment(after).trim().is_empty() {
        return Err(format!("unexpected `{}` after the array", after.trim()));
    }
    inner
        .split(',')
        .map(str::trim)
        .filter(|item| !item.is_empty())
        .map(string_value)
        .collect()
}

/// Reads a TOML boolean, which may be followed only by whitespace and a
/// comment.
fn bool_value(text: &str) -> Result<bool, String> {
    match strip_comment(text).trim() {
        "true" => Ok(true),
        "false" => Ok(false),
        other => Err(format!("expected `true` or `false`, found `{other}`")),
    }
}

/// Reads one TOML basic (`"…"`) or literal (`'…'`) string, which may be
/// followed only by whitespace and a comment.
fn string_value(text: &str) -> Result<String, String> {
    let mut chars = text.chars();
    let quote = chars.next();
    let mut out = String::new();
    match quote {
        Some('\'') => {
            let rest = chars.as_str();
            let end = rest.find('\'').ok_or("unterminated string")?;
            out.push_str(&rest[..end]);
            chars = rest[end + 1..].chars();
        }
        Some('"') => loop {
            match chars.next().ok_or("unterminated string")? {
                '"' => break,
                '\\' => {
                    let c = chars.next().ok_or("unterminated string")?;
                    match c {
                        '"' | '\\' => out.push(c),
                        'n' => out.push('\n'),
                        't' => out.push('\t'),
                        'r' => out.push('\r'),
                        'b' => out.push('\u{8}'),
                        'f' => out.push('\u{c}'),
                        'u' | 'U' => {
                            let len = if c == 'u' { 4 } else { 8 };
                            let hex: String =
                                chars.by_ref().take(len).collect();
                            let code = u32::from_str_radix(&hex, 16)
                                .ok()
                                .filter(|_| hex.len() == len)
                                .and_then(char::from_u32)
                                .ok_or("invalid \\u escape")?;
                            out.push(code);
                        }
                        other => {
                            return Err(format!("invalid escape `\\{other}`"))
                        }
                    }
                }
                c if c.is_control() && c != '\t' => {
                    return Err("control character in a string".into())
                }
                c => out.push(c),
            }
        },
        _ => return Err("expected a string in quotes".into()),
    }
    let after = chars.as_str().trim_start();
    if !after.is_empty() && !after.starts_with('#') {
        return Err(format!("unexpected `{after}` after the value"));
    }
    Ok(out)
}

/// serde_json's messages end with " at line L column C"; the line is
/// reported on its own.
#[cfg(feature = "serde")]
fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(at) => message[..at].to_string(),
        None => message.to_string(),
    }
}

/// Why a catalogue could not be read.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct CatalogueError {
    kind: CatalogueErrorKind,
    line: Option<usize>,
    message: String,
}

impl CatalogueError {
    /// What kind of error it is.
    pub fn kind(&self) -> CatalogueErrorKind {
        self.kind
    }

    /// The line of the text (from 1) where the error is, if known.
    pub fn line(&self) -> Option<usize> {
        self.line
    }
}

impl fmt::Display for CatalogueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "line {line}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for CatalogueError {}

/// The kinds of [`CatalogueError`].
#[derive(Clone, Copy, Debug, Eq, Hash, PartialEq)]
#[non_exhaustive]
pub enum CatalogueErrorKind {
    /// The text is not in the expected form.
    Syntax,
    /// A crawler lacks a required key.
    MissingField,
    /// A key that a crawler does not have.
    UnknownField,
    /// A value that is not allowed: an unknown purpose, an invalid
    /// product token, an empty operator.
    InvalidValue,
    /// Two crawlers with the same token.
    Duplicate,
}

#[cfg(test)]
mod tests {
    use super::*;

    macro_rules! bad_toml {
        ($text:expr, $kind:ident, $line:expr) => {{
            let e = Catalogue::from_toml($text).unwrap_err();
            assert_eq!(
                (e.kind(), e.line()),
                (CatalogueErrorKind::$kind, $line),
                "{e}"
            );
        }};
    }

    const ONE: &str =
        "[[crawler]]\ntoken = \"a\"\noperator = 'A'\npurpose = \"seo\" # c\n";

    #[test]
    fn builtin_is_valid() {
        assert!(Catalogue::from_toml(BUILTIN).is_ok());
        assert!(Catalogue::builtin().len() >= 50);
    }

    #[test]
    fn toml_forms() {
        let c = Catalogue::from_toml(ONE).unwrap();
        assert_eq!(c.crawlers()[0], Crawler::new("a", "A", Purpose::Seo));
        let c = Catalogue::from_toml("# x\n\n[[crawler]] # y\ntoken=\"b\"\noperator=\"\\u00e9\\\"\"\npurpose=\"ads\"\nnote='n # not a comment'\n").unwrap();
        assert_eq!(c.crawlers()[0].operator, "é\"");
        assert_eq!(c.crawlers()[0].note.as_deref(), Some("n # not a comment"));
    }

    #[test]
    fn toml_errors() {
        bad_toml!("token = \"a\"\n", Syntax, Some(1));
        bad_toml!("[crawler]\n", Syntax, Some(1));
        bad_toml!("[[crawler]]\ntoken = a\n", Syntax, Some(2));
        bad_toml!("[[crawler]]\ntoken = \"a\n", Syntax, Some(2));
        bad_toml!("[[crawler]]\ntoken = \"a\" x\n", Syntax, Some(2));
        bad_toml!("[[crawler]]\nname = \"a\"\n", UnknownField, Some(2));
        bad_toml!("[[crawler]]\ntoken = \"a\"\n", MissingField, Some(1));
        bad_toml!(
            "[[crawler]]\ntoken = \"a\"\ntoken = \"b\"\n",
            Syntax,
            Some(3)
        );
        bad_toml!("[[crawler]]\ntoken = \"a\"\noperator = \"A\"\npurpose = \"fun\"\n", InvalidValue, Some(4));
        bad_toml!("[[crawler]]\ntoken = \"a/1\"\noperator = \"A\"\npurpose = \"seo\"\n", InvalidValue, Some(2));
        bad_toml!(&format!("{ONE}{ONE}"), Duplicate, None);
    }

    #[test]
    fn purposes() {
        for p in Purpose::ALL {
            assert_eq!(Purpose::from_name(p.as_str()), Some(*p));
        }
        assert!(Purpose::AiSearch.is_ai());
        assert!(!Purpose::Seo.is_ai());
    }

    #[test]
    fn a_token_finds_its_crawler_in_any_case() {
        let catalogue = Catalogue::builtin();
        let place = |t: &[u8]| catalogue.place_of_token(t);
        for (i, c) in catalogue.crawlers().iter().enumerate() {
            let token = c.token.as_bytes();
            assert_eq!(place(token), Some(i));
            assert_eq!(place(&token.to_ascii_uppercase()), Some(i));
            assert_eq!(place(&token.to_ascii_lowercase()), Some(i));
            assert_eq!(place(&[token, b"x"].concat()), None);
            assert_eq!(place(&token[1..]), None);
        }
        assert_eq!(place(b""), None);
        assert_eq!(place("gptb\u{f6}t".as_bytes()), None);
        // A clone finds the same, and the places are not part of equality.
        let copy = catalogue.clone();
        assert_eq!(copy.place_of_token(b"GPTBOT"), place(b"gptbot"));
        assert_eq!(copy, Catalogue::builtin());
    }
}
