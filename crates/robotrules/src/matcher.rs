//! Many checks for one crawler: the merged rules, ready at once, and
//! indexed once the checks prove busy.

use alloc::boxed::Box;
use alloc::vec;
use alloc::vec::Vec;
use core::fmt;
use core::sync::atomic::{AtomicUsize, Ordering};

use crate::bind;
use crate::coverage::{self, Coverage};
use crate::extension::{Pacing, RequestRate};
use crate::group::Group;
use crate::options::{MatchOptions, ParseOptions, Semantics};
use crate::path::match_path;
use crate::pattern;
use crate::report::Tag;
use crate::robots::Robots;
use crate::rule::{Rule, RuleKind, RuleView};
use crate::staged::Buffer;
use crate::verdict;

/// The verdict for one URL, and the rule that decided it.
///
/// # Example
///
/// ```
/// use robotrules::{Robots, RuleKind};
///
/// let robots = Robots::parse(b"user-agent: *\ndisallow: /*.htm\nallow: /page\n");
/// let matcher = robots.matcher(&["FooBot"]);
/// let decision = matcher.decide("/page.htm");
/// assert!(!decision.is_allowed());
/// let rule = decision.rule().unwrap();
/// assert_eq!(rule.line(), 2);
/// assert_eq!(rule.kind(), RuleKind::Disallow);
/// assert_eq!(rule.pattern(), "/*.htm");
/// ```
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub struct Decision<'a> {
    allowed: bool,
    rule: Option<DecidingRule<'a>>,
}

impl<'a> Decision<'a> {
    pub(crate) fn new(allowed: bool, rule: Option<DecidingRule<'a>>) -> Self {
        Decision { allowed, rule }
    }

    /// Returns true if and only if the URL may be fetched.
    pub fn is_allowed(&self) -> bool {
        self.allowed
    }

    /// The rule the reference names as the matching line: the better of
    /// the best `allow` and the best `disallow` match, the `allow` on a
    /// tie; `None` if no rule matched (RFC 9309 §2.2.2).
    ///
    /// An empty `Disallow:` matches every path with priority 0: when it is
    /// the only match it is named here, although the URL is allowed.
    pub fn rule(&self) -> Option<DecidingRule<'a>> {
        self.rule
    }
}

/// The rule behind a [`Decision`].
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub struct DecidingRule<'a> {
    view: RuleView<'a>,
    priority: usize,
    via_index: bool,
}

impl<'a> DecidingRule<'a> {
    pub(crate) fn new(
        view: RuleView<'a>,
        priority: usize,
        via_index: bool,
    ) -> Self {
        DecidingRule { view, priority, via_index }
    }

    /// The rule's line number.
    pub fn line(&self) -> u32 {
        self.view.line
    }

    /// Allow or disallow.
    pub fn kind(&self) -> RuleKind {
        self.view.kind
    }

    /// The normalised pattern that matched.
    pub fn pattern(&self) -> &'a str {
        self.view.pattern
    }

    /// The rule's value as written in the file.
    pub fn as_written(&self) -> &'a [u8] {
        self.view.written
    }

    /// The priority it matched with: the pattern's length in bytes, or,
    /// through the index.html retry, the directory's length plus one.
    pub fn priority(&self) -> usize {
        self.priority
    }

    /// Returns true if and only if the rule matched through the
    /// reference's index.html retry: `Allow: /d/index.html` matching
    /// exactly `/d/` (RFC 9309 §2.2.2).
    pub fn is_index_retry(&self) -> bool {
        self.via_index
    }
}

/// `Entry::cut` flags: the rule allows.
const ALLOW: u32 = 1 << 31;
/// The entry is the index.html retry of the allow rule before it.
const VIA_INDEX: u32 = 1 << 30;
/// The written value differs from the pattern and follows it in `text`.
const DIFFERS: u32 = 1 << 29;
/// The pattern ends with `$`.
const ANCHORED: u32 = 1 << 28;
/// The pattern has a `*` after its literal prefix that matters.
const WILD: u32 = 1 << 27;
/// The bits of `Entry::cut` that hold a length. Lines are much shorter.
const CUT: u32 = WILD - 1;
/// No rule, no prefix.
const NONE: u32 = u32::MAX;

/// One rule as a matcher keeps it: a few numbers, and its pattern (and
/// its value as written, where that differs) in `Matcher::text`.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Entry {
    off: u32,
    len: u32,
    line: u32,
    /// The flags above and a length: the literal prefix's (up to the
    /// first `*`); for an index.html retry, the directory's that it
    /// keeps.
    cut: u32,
    /// The first bytes (up to eight) of the literal prefix, as `head`
    /// reads a path's, in two halves, and how many there are: a check
    /// without the index rules out most rules with one comparison.
    head: [u32; 2],
    head_len: u16,
    /// A value as written is a line's, at most `MAX_LINE_LEN` bytes.
    written_len: u16,
}

// `Matcher::heap_size` and the crate's docs give this size.
const _: () = assert!(size_of::<Entry>() == 28);
// A value as written fits `Entry::written_len`.
const _: () = assert!(crate::parse::MAX_LINE_LEN <= u16::MAX as usize);

/// What a pattern needs after its literal prefix.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
enum Tail {
    /// Nothing: reaching the prefix is a match.
    None,
    /// The end of the path.
    End,
    /// The rest of the pattern, after its first `*`.
    Wild,
}

impl Entry {
    fn is_allow(&self) -> bool {
        self.cut & ALLOW != 0
    }

    fn via_index(&self) -> bool {
        self.cut & VIA_INDEX != 0
    }

    /// The priority it matches with (RFC 9309 §2.2.2): the pattern's
    /// length, or the retried directory's plus one.
    fn priority(&self) -> u32 {
        if self.via_index() {
            (self.cut & CUT) + 1
        } else {
            self.len
        }
    }

    /// Returns true if and only if this entry beats `other` when both
    /// match: a higher priority, then `allow`, then the earlier line.
    #[inline]
    fn beats(&self, other: &Entry) -> bool {
        (self.priority(), self.is_allow(), core::cmp::Reverse(self.line))
            > (
                other.priority(),
                other.is_allow(),
                core::cmp::Reverse(other.line),
            )
    }

    fn pattern<'t>(&self, text: &'t [u8]) -> &'t [u8] {
        let (off, len) = (self.off as usize, self.len as usize);
        text.get(off..off + len).unwrap_or_default()
    }

    fn written<'t>(&self, text: &'t [u8]) -> &'t [u8] {
        if self.cut & DIFFERS == 0 {
            return self.pattern(text);
        }
        let off = (self.off + self.len) as usize;
        text.get(off..off + self.written_len as usize).unwrap_or_default()
    }

    /// The literal prefix, what follows it, and the part of the pattern
    /// after its first `*` (without a final `$`) with whether it had one.
    #[inline]
    fn parts<'t>(&self, text: &'t [u8]) -> (&'t [u8], Tail, &'t [u8], bool) {
        let pat = self.pattern(text);
        let cut = (self.cut & CUT) as usize;
        if self.via_index() {
            // `dir$`, where `dir` may hold a `*`.
            let dir = pat.get(..cut).unwrap_or_default();
            return match memchr::memchr(b'*', dir) {
                None => (dir, Tail::End, &[], true),
                Some(star) => {
                    (&dir[..star], Tail::Wild, &dir[star + 1..], true)
                }
            };
        }
        let anchored = self.cut & ANCHORED != 0;
        let prefix = pat.get(..cut).unwrap_or_default();
        if self.cut & WILD != 0 {
            let end = pat.len() - usize::from(anchored);
            let after = pat.get(cut + 1..end).unwrap_or_default();
            (prefix, Tail::Wild, after, anchored)
        } else if anchored {
            (prefix, Tail::End, &[], true)
        } else {
            (prefix, Tail::None, &[], false)
        }
    }

    /// Returns true if the rule may match a path whose [`head`] is
    /// `path_head`; false if it cannot.
    #[inline]
    fn may_match(&self, path_head: u64) -> bool {
        let head = u64::from(self.head[0]) | u64::from(self.head[1]) << 32;
        // `head_len` is at most 8; `& 15` spares the bounds check.
        (path_head ^ head) & HEAD_MASKS[usize::from(self.head_len & 15)] == 0
    }

    /// Returns true if and only if the rule matches `path`, adding to
    /// `work` the bytes a wildcard tail was tried on.
    #[inline]
    fn matches(&self, text: &[u8], path: &[u8], work: &mut usize) -> bool {
        let (prefix, tail, after, anchored) = self.parts(text);
        let Some(rest) = strip_prefix(path, prefix) else {
            return false;
        };
        match tail {
            Tail::None => true,
            Tail::End => rest.is_empty(),
            Tail::Wild => {
                *work += rest.len();
                pattern::matches_after_star(after, anchored, rest)
            }
        }
    }
}

/// Appends a rule, and its index.html retry if it has one, to a
/// matcher's rules and text.
fn push_rule(rules: &mut Vec<Entry>, text: &mut Vec<u8>, rule: &Rule<'_>) {
    let allow = rule.kind() == RuleKind::Allow;
    push_parts(
        rules,
        text,
        allow,
        rule.pattern_bytes(),
        rule.as_written(),
        rule.line(),
        true,
    );
}

/// [`push_rule`] from a rule's parts: its normalised pattern and its
/// value as written (the same slice when normalising changed nothing);
/// `may_have_star` is false if the pattern is known to hold no `*`.
#[inline(always)]
pub(crate) fn push_parts(
    rules: &mut impl Buffer<Entry>,
    text: &mut impl Buffer<u8>,
    allow: bool,
    pat: &[u8],
    written: &[u8],
    line: u32,
    may_have_star: bool,
) {
    if !pattern::can_match(pat) {
        return;
    }
    let differs = !core::ptr::eq(written, pat) && written != pat;
    let off = text.len() as u32;
    text.extend_from_slice(pat);
    if differs {
        text.extend_from_slice(written);
    }
    let (body, anchored) = pattern::split_anchor(pat);
    let mut cut = body.len();
    let mut flags = if allow { ALLOW } else { 0 }
        | if differs { DIFFERS } else { 0 }
        | if anchored { ANCHORED } else { 0 };
    // Patterns are short: eight bytes at a time beats a call to memchr.
    let star =
        if may_have_star { crate::swar::find1(body, b'*') } else { None };
    if let Some(star) = star {
        cut = star;
        // `prefix*`, `prefix**$`: the same paths as `prefix`.
        if body[star..].iter().all(|&b| b == b'*') {
            flags &= !ANCHORED;
        } else {
            flags |= WILD;
        }
    }
    let (head, head_len) = head_of(&body[..cut]);
    let mut entry = Entry {
        off,
        len: pat.len() as u32,
        line,
        cut: cut as u32 & CUT | flags,
        head,
        head_len,
        written_len: if differs { written.len() as u16 } else { 0 },
    };
    rules.extend_from_slice(&[entry]);
    if let Some(keep) = allow.then(|| pattern::index_fallback(pat)).flatten() {
        // The retry is a second, independent rule: it can only win
        // where the pattern itself does not match, since its
        // priority is lower.
        let cut = keep as u32 & CUT | ALLOW | VIA_INDEX;
        entry.cut = cut | (flags & DIFFERS);
        let (prefix, ..) = entry.parts(text.as_slice());
        (entry.head, entry.head_len) = head_of(prefix);
        rules.extend_from_slice(&[entry]);
    }
}

/// The head of a literal prefix, in halves, and how many bytes it has.
#[inline(always)]
fn head_of(prefix: &[u8]) -> ([u32; 2], u16) {
    let head = head(prefix);
    ([head as u32, (head >> 32) as u32], prefix.len().min(8) as u16)
}

/// The mask of the first `n` bytes of a [`head`], by `n` (at most 8).
const HEAD_MASKS: [u64; 16] = {
    let mut masks = [0; 16];
    let mut n = 1;
    while n <= 8 {
        masks[n] = u64::MAX >> (64 - 8 * n);
        n += 1;
    }
    masks
};

/// The first `N` bytes of `s`, padded with zeros.
#[inline]
fn padded<const N: usize>(s: &[u8]) -> [u8; N] {
    // A whole word when there is one; else byte by byte, which spares
    // a call to `memcpy` for a copy of unknown length.
    if let Some(word) = s.first_chunk::<N>() {
        return *word;
    }
    let mut word = [0u8; N];
    for (w, b) in word.iter_mut().zip(s) {
        *w = *b;
    }
    word
}

/// The first eight bytes of `s`, little-endian, padded with zeros.
#[inline]
fn head(s: &[u8]) -> u64 {
    u64::from_le_bytes(padded(s))
}

/// `path` without `prefix`, if it starts with it. Prefixes are short:
/// eight bytes at a time, then byte by byte, beats a call to `memcmp`.
#[inline]
fn strip_prefix<'p>(path: &'p [u8], prefix: &[u8]) -> Option<&'p [u8]> {
    let (head, rest) = path.split_at_checked(prefix.len())?;
    let (mut a, mut b) = (head, prefix);
    while let (Some(x), Some(y)) = (a.first_chunk::<8>(), b.first_chunk::<8>())
    {
        if x != y {
            return None;
        }
        (a, b) = (&a[8..], &b[8..]);
    }
    a.iter().zip(b).all(|(x, y)| x == y).then_some(rest)
}

/// The first eight bytes of `s`, big-endian, padded with zeros: keys
/// that differ order their strings as the strings themselves do.
#[inline]
fn key(s: &[u8]) -> u64 {
    u64::from_be_bytes(padded(s))
}

/// Returns true if and only if `a <= b`, for strings whose keys are
/// equal: their first eight bytes are, unless one of the two is shorter.
#[inline]
fn tie(a: &[u8], b: &[u8]) -> bool {
    match (a.get(8..), b.get(8..)) {
        (Some(a), Some(b)) => is_at_most(a, b),
        _ => is_at_most(a, b),
    }
}

/// Returns true if and only if `a <= b`, byte-wise. What is compared
/// here follows eight equal bytes and differs soon: a loop beats `memcmp`.
#[inline]
fn is_at_most(a: &[u8], b: &[u8]) -> bool {
    match a.iter().zip(b).find(|(x, y)| x != y) {
        Some((x, y)) => x < y,
        None => a.len() <= b.len(),
    }
}

/// Checks URLs for one crawler, fast at any number of checks.
///
/// A `Matcher` holds the rules of the groups that apply to the crawler,
/// merged as RFC 9309 §2.2.1 says. Getting one ready costs about as much
/// as copying those rules: the first checks match them one by one. Once
/// the checks have done more work than indexing the rules costs, the
/// matcher builds its index (the rules sorted by priority, their literal
/// prefixes sorted, and a digest of the bytes each wildcard rule needs), by
/// itself and once, and later checks look only at rules that can match.
/// So one `Matcher` is the right tool for one check and for millions; the
/// index is at most a small multiple of the rules' size.
///
/// It owns its data: it does not borrow the [`Robots`] it was built from,
/// and it is `Send` and `Sync`; checks may run from many threads at once.
/// Without the `std` feature the index cannot be kept: checks always
/// match rule by rule, and [`Matcher::coverage`] builds an index for each
/// probe that would cost more without one.
///
/// # Example
///
/// ```
/// use robotrules::Robots;
///
/// let robots = Robots::parse(b"\
/// User-agent: FooBot
/// Disallow: /*.pdf$
/// Disallow: /tmp/
/// Allow: /tmp/public/
/// ");
/// let matcher = robots.matcher(&["FooBot"]);
/// assert!(!matcher.is_allowed("https://example.com/a/b.pdf"));
/// assert!(matcher.is_allowed("https://example.com/a/b.pdf?x"));
/// assert!(!matcher.is_allowed("https://example.com/tmp/x"));
/// assert!(matcher.is_allowed("https://example.com/tmp/public/x"));
/// ```
pub struct Matcher {
    /// The rules (and index.html retries) in the order of the groups.
    rules: Box<[Entry]>,
    /// Patterns (ASCII) and the values as written (any bytes).
    text: Box<[u8]>,
    /// Built once the checks prove busy.
    index: Once<Index>,
    /// The work done by checks without the index, in rules tried plus
    /// wildcard bytes searched; racy updates only make it approximate.
    work: AtomicUsize,
    /// The work after which the index pays for itself.
    busy: usize,
    named: bool,
    /// The rules in file order, for [`Semantics::FirstMatch1996`].
    first: Option<Box<[FirstRule]>>,
    pacing: Pacing,
    /// The body was cut at `MAX_BODY_LEN`.
    truncated: bool,
}

impl Clone for Matcher {
    fn clone(&self) -> Matcher {
        Matcher {
            rules: self.rules.clone(),
            text: self.text.clone(),
            index: self.index.clone(),
            work: AtomicUsize::new(self.work.load(Ordering::Relaxed)),
            busy: self.busy,
            named: self.named,
            first: self.first.clone(),
            pacing: self.pacing,
            truncated: self.truncated,
        }
    }
}

/// A rule for [`Semantics::FirstMatch1996`].
#[derive(Clone, Debug)]
struct FirstRule {
    /// The decoded pattern, in `Matcher::text`.
    decoded: (u32, u32),
    line: u32,
    allow: bool,
    pattern: (u32, u32),
    written: (u32, u32),
}

impl Matcher {
    pub(crate) fn new(
        robots: &Robots,
        agents: &[&str],
        options: MatchOptions,
    ) -> Matcher {
        let selection = robots.select_with(agents, options);
        Matcher::of_groups(
            robots,
            || selection.groups(),
            selection.is_named(),
            options,
        )
    }

    /// A matcher for the rules of `groups`, which apply to a crawler
    /// (`named`: by its name).
    pub(crate) fn of_groups<'a, G>(
        robots: &'a Robots,
        groups: impl Fn() -> G,
        named: bool,
        options: MatchOptions,
    ) -> Matcher
    where
        G: Iterator<Item = Group<'a>>,
    {
        let mut matcher = Matcher::empty(named);
        matcher.truncated = robots.is_truncated();
        if options.get_semantics() == Semantics::FirstMatch1996 {
            let chosen: Vec<_> = groups().flat_map(|g| g.rules()).collect();
            matcher.first_match(&chosen);
            for (_, e) in groups().flat_map(|g| g.entries()) {
                matcher.extension(&e);
            }
            return matcher;
        }
        // The groups' share of the store bounds the text (patterns and
        // values as written), and their lines the rules, but for retries.
        let (mut bytes, mut lines) = (0, 0);
        for g in groups() {
            let e = g.entry();
            bytes += e.end_pos.saturating_sub(e.pos) as usize;
            lines += e.end_line.saturating_sub(e.line) as usize + 1;
        }
        let mut text = Vec::with_capacity(bytes);
        let mut rules = Vec::with_capacity(lines);
        // One pass over the groups' lines: the rules, and the first valid
        // crawl delay and request rate.
        for g in groups() {
            for (line, e) in g.entries() {
                match Rule::from_entry(line, &e) {
                    Some(rule) => push_rule(&mut rules, &mut text, &rule),
                    None => matcher.extension(&e),
                }
            }
        }
        matcher.set_rules(rules, text);
        matcher
    }

    /// Parses a robots.txt body for the crawler known by `agents`: the
    /// fastest way to check URLs, for one check or for millions.
    ///
    /// The body is read once and only the rules of the groups that may
    /// apply to the crawler are kept, so this costs less than
    /// [`Robots::parse`] followed by [`Robots::matcher`], with the same
    /// answers, deciding lines included. Use [`Robots`] instead when you
    /// need more than verdicts: the other groups, the sitemaps, the
    /// per-line report. (With [`Semantics::FirstMatch1996`], which reads
    /// the rules in file order, [`Matcher::parse_with`] parses the whole
    /// file as [`Robots::parse`] does.)
    ///
    /// The groups that apply are those of [`Robots::select`]: every group
    /// that names one of `agents` (product tokens, such as `Googlebot`,
    /// without regard to ASCII case), or, if none does, every `*` group.
    ///
    /// # Example
    ///
    /// ```
    /// use robotrules::Matcher;
    ///
    /// let body = b"user-agent: *\ndisallow: /private\n\nuser-agent: FooBot\ndisallow: /\n";
    /// let bar = Matcher::parse(body, &["BarBot"]);
    /// assert!(bar.is_allowed("https://example.com/"));
    /// assert!(!bar.is_allowed("https://example.com/private/x"));
    /// assert_eq!(bar.decide("/private").rule().map(|r| r.line()), Some(2));
    /// assert!(!Matcher::parse(body, &["FooBot"]).is_allowed("/"));
    /// ```
    pub fn parse(body: &[u8], agents: &[&str]) -> Matcher {
        bind::matcher(body, agents, ParseOptions::new(), MatchOptions::new())
    }

    /// [`Matcher::parse`] with other than the reference's reading and
    /// matching: see [`ParseOptions`] and [`MatchOptions`].
    ///
    /// # Example
    ///
    /// ```
    /// use robotrules::{MatchOptions, Matcher, ParseOptions};
    ///
    /// let body = b"user-agent: *\ndisallow: /\n";
    /// let adsbot = MatchOptions::new().ignore_global(true);
    /// let matcher = Matcher::parse_with(body, &["AdsBot-Google"], ParseOptions::new(), adsbot);
    /// assert!(matcher.is_allowed("/x"));
    /// ```
    pub fn parse_with(
        body: &[u8],
        agents: &[&str],
        parse: ParseOptions,
        options: MatchOptions,
    ) -> Matcher {
        bind::matcher(body, agents, parse, options)
    }

    /// A matcher with no rules yet.
    pub(crate) fn empty(named: bool) -> Matcher {
        Matcher {
            rules: Box::default(),
            text: Box::default(),
            index: Once::new(),
            work: AtomicUsize::new(0),
            busy: 0,
            named,
            first: None,
            pacing: Pacing::default(),
            truncated: false,
        }
    }

    /// Marks the matcher as made from a body cut at
    /// [`MAX_BODY_LEN`](crate::MAX_BODY_LEN).
    pub(crate) fn set_truncated(&mut self, truncated: bool) {
        self.truncated = truncated;
    }

    /// Gives the matcher its crawl delay and request rate.
    pub(crate) fn set_pacing(&mut self, pacing: Pacing) {
        self.pacing = pacing;
    }

    /// Gives the matcher its rules (see [`push_parts`]).
    pub(crate) fn set_rules(&mut self, rules: Vec<Entry>, text: Vec<u8>) {
        // An index costs about a sort of the rules and a pass over their
        // text; a check without one, a pass over the rules. It is built
        // once the checks without it have cost about as much as building
        // it (measured: 16 passes over the rules), so that a matcher
        // checked a few times never pays for it, and one checked often
        // pays at most about twice what the better choice would have.
        self.busy = 16 * rules.len() + text.len() / 4;
        self.rules = rules.into_boxed_slice();
        self.text = text.into_boxed_slice();
    }

    /// Takes the crawl delay or request rate of a line that is not a
    /// rule, if it is the first valid one.
    fn extension(&mut self, e: &crate::store::Entry<'_>) {
        if matches!(e.tag, Some(Tag::Unknown | Tag::Unused)) {
            self.pacing.take(e.key, e.written);
        }
    }

    /// Makes this a matcher for [`Semantics::FirstMatch1996`]: the rules
    /// in file order.
    fn first_match(&mut self, chosen: &[Rule<'_>]) {
        let mut text = Vec::new();
        let mut push = |s: &[u8]| {
            let off = text.len() as u32;
            text.extend_from_slice(s);
            (off, s.len() as u32)
        };
        let first: Box<[FirstRule]> = chosen
            .iter()
            .map(|rule| FirstRule {
                decoded: push(&verdict::decode_1996(
                    rule.pattern().as_bytes(),
                )),
                line: rule.line(),
                allow: rule.kind() == RuleKind::Allow,
                pattern: push(rule.pattern().as_bytes()),
                written: push(rule.as_written()),
            })
            .collect();
        self.text = text.into_boxed_slice();
        self.first = Some(first);
    }

    /// The crawl delay in seconds for this crawler: the first valid
    /// `crawl-delay` of the groups that apply, in file order.
    ///
    /// # Example
    ///
    /// ```
    /// use robotrules::Robots;
    ///
    /// let robots = Robots::parse(b"\
    /// user-agent: a
    /// crawl-delay: 2
    /// disallow: /a
    /// user-agent: *
    /// crawl-delay: 9
    /// ");
    /// assert_eq!(robots.matcher(&["a"]).crawl_delay(), Some(2.0));
    /// assert_eq!(robots.matcher(&["b"]).crawl_delay(), Some(9.0));
    /// ```
    pub fn crawl_delay(&self) -> Option<f64> {
        self.pacing.delay
    }

    /// The request rate for this crawler: the first valid `request-rate`
    /// of the groups that apply, in file order.
    pub fn request_rate(&self) -> Option<RequestRate> {
        self.pacing.rate
    }

    /// A rule as a decision reports it, from its spans in `text`.
    fn view(
        &self,
        line: u32,
        allow: bool,
        pattern: (u32, u32),
        written: (u32, u32),
    ) -> RuleView<'_> {
        RuleView {
            line,
            kind: if allow { RuleKind::Allow } else { RuleKind::Disallow },
            // Patterns are normalised, so ASCII.
            pattern: core::str::from_utf8(self.span(pattern))
                .unwrap_or_default(),
            written: self.span(written),
        }
    }

    /// The verdict and deciding rule under the 1996 reading.
    fn first_decide(&self, first: &[FirstRule], path: &[u8]) -> Decision<'_> {
        let path = verdict::decode_1996(path);
        for r in first {
            let decoded = self.span(r.decoded);
            if path.starts_with(decoded) {
                let view = self.view(r.line, r.allow, r.pattern, r.written);
                let priority = r.pattern.1 as usize;
                let rule = DecidingRule::new(view, priority, false);
                return Decision::new(
                    r.allow || decoded.is_empty(),
                    Some(rule),
                );
            }
        }
        Decision::new(true, None)
    }

    /// Returns true if and only if the URL may be fetched.
    #[inline]
    pub fn is_allowed(&self, url: &str) -> bool {
        if let Some(first) = &self.first {
            return self.first_decide(first, &match_path(url)).is_allowed();
        }
        match self.find(&match_path(url)) {
            Some(r) => {
                verdict::is_allowed_by(r.is_allow(), r.priority() as usize)
            }
            None => true,
        }
    }

    /// Returns the verdict for the URL and the rule that decided it.
    pub fn decide(&self, url: &str) -> Decision<'_> {
        if let Some(first) = &self.first {
            return self.first_decide(first, &match_path(url));
        }
        match self.find(&match_path(url)) {
            Some(r) => {
                let view = RuleView {
                    line: r.line,
                    kind: if r.is_allow() {
                        RuleKind::Allow
                    } else {
                        RuleKind::Disallow
                    },
                    // Patterns are normalised, so ASCII.
                    pattern: core::str::from_utf8(r.pattern(&self.text))
                        .unwrap_or_default(),
                    written: r.written(&self.text),
                };
                let priority = r.priority() as usize;
                let rule = DecidingRule::new(view, priority, r.via_index());
                let allowed = verdict::is_allowed_by(r.is_allow(), priority);
                Decision::new(allowed, Some(rule))
            }
            None => Decision::new(true, None),
        }
    }

    /// Returns true if and only if some group names the crawler, so that
    /// the `*` groups are ignored for it.
    pub fn is_named(&self) -> bool {
        self.named
    }

    /// Returns true if and only if the body was longer than
    /// [`MAX_BODY_LEN`](crate::MAX_BODY_LEN), so that its end was not
    /// read (see [`Robots::is_truncated`]).
    pub fn is_truncated(&self) -> bool {
        self.truncated
    }

    /// Returns whether the crawler may fetch every path, some, or none,
    /// with a witness path of each kind for [`Coverage::Partial`].
    ///
    /// The answer is exact for every rule set, under the reference's
    /// longest match, `*` and `$`, and the index.html retry: it is not
    /// read from the rules' text (`Disallow: /` and `Disallow: /*` both
    /// block everything, `Allow: /$` beside them opens the root again),
    /// and each witness has been checked by this matcher. On rule sets
    /// that would cost more than [`COVERAGE_BUDGET`](crate::COVERAGE_BUDGET)
    /// to decide, the answer is [`Coverage::Unknown`], never a guess.
    ///
    /// It costs at most four checks per rule (two for a pattern that
    /// starts with `*`, each with `*` read as nothing and as the fresh
    /// byte), and stops as soon as both an allowed and a disallowed path
    /// are found.
    ///
    /// Witnesses are paths. To check one as a URL, put it after a scheme
    /// and host: a path such as `//a` alone would read as a host.
    ///
    /// # Example
    ///
    /// ```
    /// use robotrules::{Coverage, Robots};
    ///
    /// let robots = Robots::parse(b"user-agent: a\ndisallow: /*\nuser-agent: b\ndisallow: /\nallow: /$\n");
    /// assert_eq!(robots.matcher(&["a"]).coverage(), Coverage::DisallowedEverywhere);
    /// let partial = robots.matcher(&["b"]).coverage();
    /// assert_eq!(partial.allowed_witness(), Some("/"));
    /// let url = format!("https://example.com{}", partial.disallowed_witness().unwrap());
    /// assert!(!robots.is_allowed("b", &url));
    /// assert_eq!(robots.matcher(&["c"]).coverage(), Coverage::AllowedEverywhere);
    /// ```
    pub fn coverage(&self) -> Coverage {
        self.coverage_within(&mut { crate::COVERAGE_BUDGET })
    }

    /// [`Matcher::coverage`], spending at most `budget` (in the units of
    /// [`COVERAGE_BUDGET`](crate::COVERAGE_BUDGET)) and taking what it
    /// spent from it: one budget can bound the site-level verdicts of many
    /// crawlers on one file. [`Coverage::Unknown`] once it runs out.
    ///
    /// # Example
    ///
    /// ```
    /// use robotrules::{Coverage, Robots, COVERAGE_BUDGET};
    ///
    /// let robots = Robots::parse(b"user-agent: a\ndisallow: /\nuser-agent: b\nallow: /\n");
    /// let mut budget = COVERAGE_BUDGET;
    /// for agent in ["a", "b"] {
    ///     let coverage = robots.matcher(&[agent]).coverage_within(&mut budget);
    ///     assert_ne!(coverage, Coverage::Unknown);
    /// }
    /// assert!(budget < COVERAGE_BUDGET);
    /// assert_eq!(robots.matcher(&["a"]).coverage_within(&mut 0), Coverage::Unknown);
    /// ```
    pub fn coverage_within(&self, budget: &mut u64) -> Coverage {
        crate::coverage::coverage(self, budget)
    }

    /// Returns the number of rules the matcher checks (including the
    /// index.html retries).
    pub fn rule_count(&self) -> usize {
        self.rules.len()
    }

    /// Builds the matcher's index now, if it has none yet.
    ///
    /// Checks build it by themselves once they have done more work than
    /// building it costs, so this is never needed for speed over many
    /// checks: it only moves that cost before the first check. Without
    /// the `std` feature it does nothing.
    ///
    /// # Example
    ///
    /// ```
    /// use robotrules::Robots;
    ///
    /// let robots = Robots::parse(b"user-agent: *\ndisallow: /*.pdf$\n");
    /// let matcher = robots.matcher(&["FooBot"]);
    /// matcher.compile();
    /// # #[cfg(feature = "std")]
    /// assert!(matcher.is_compiled());
    /// assert!(!matcher.is_allowed("/a.pdf"));
    /// ```
    pub fn compile(&self) {
        self.with_index(|_| ());
    }

    /// Returns true if and only if the matcher has built its index (see
    /// [`Matcher::compile`]).
    pub fn is_compiled(&self) -> bool {
        self.index.get().is_some()
    }

    /// Returns the number of heap bytes this matcher holds, its index
    /// included once built.
    ///
    /// The rules take their patterns' bytes and 28 bytes each; the index
    /// adds at most 36 bytes per rule and 12 more per wildcard rule.
    pub fn heap_size(&self) -> usize {
        let first = self
            .first
            .as_ref()
            .map_or(0, |f| f.len() * size_of::<FirstRule>());
        self.rules.len() * size_of::<Entry>()
            + self.text.len()
            + first
            + self.index.get().map_or(0, Index::heap_size)
    }

    fn span(&self, (off, len): (u32, u32)) -> &[u8] {
        self.text.get(off as usize..(off + len) as usize).unwrap_or_default()
    }

    /// Calls `f` with the index, built now if there is none.
    fn with_index<R>(&self, f: impl FnOnce(&Index) -> R) -> R {
        if let Some(index) = self.index.get() {
            return f(index);
        }
        let built = Index::build(&self.rules, &self.text);
        match self.index.set(built) {
            // Another thread was first, or the index cannot be kept.
            Err(built) => f(&built),
            Ok(()) => match self.index.get() {
                Some(index) => f(index),
                None => f(&Index::build(&self.rules, &self.text)),
            },
        }
    }

    /// Returns the rule that decides for `path`, if any: through the
    /// index if there is one, else rule by rule, building the index once
    /// the work done so proves the matcher busy.
    #[inline]
    fn find(&self, path: &[u8]) -> Option<&Entry> {
        self.find_counted::<false>(path, &mut 0)
    }

    /// [`Matcher::find`], adding to `work` (when `COUNT` is set) the work
    /// it did: that of [`Index::find`], or the rules a pass went over and
    /// the bytes it tried wildcard tails on.
    #[inline]
    fn find_counted<const COUNT: bool>(
        &self,
        path: &[u8],
        work: &mut u64,
    ) -> Option<&Entry> {
        if let Some(index) = self.index.get() {
            return index.find::<COUNT>(self, path, work);
        }
        let done = self.work.load(Ordering::Relaxed);
        // Without `std` an index cannot be kept: checks go rule by rule.
        if KEEPS_INDEX && done > self.busy {
            return self
                .with_index(|index| index.find::<COUNT>(self, path, work));
        }
        let mut scanned = self.rules.len();
        let found = self.scan(path, &mut scanned);
        self.work.store(done.saturating_add(scanned), Ordering::Relaxed);
        if COUNT {
            *work += scanned as u64;
        }
        found
    }

    /// The best matching rule, trying each in turn.
    #[inline]
    fn scan(&self, path: &[u8], work: &mut usize) -> Option<&Entry> {
        let mut best: Option<&Entry> = None;
        let path_head = head(path);
        for rule in self.rules.iter() {
            if !rule.may_match(path_head) {
                continue;
            }
            if best.is_some_and(|b| !rule.beats(b)) {
                continue;
            }
            if rule.matches(&self.text, path, work) {
                best = Some(rule);
            }
        }
        best
    }
}

impl fmt::Debug for Matcher {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Matcher")
            .field("named", &self.named)
            .field("rules", &self.rules.len())
            .field("compiled", &self.is_compiled())
            .field("truncated", &self.truncated)
            .finish()
    }
}

/// A literal prefix of some rules, in the index.
#[derive(Clone, Copy, Debug)]
struct Prefix {
    /// The `key` of its bytes, to compare without reading them.
    key: u64,
    /// Its bytes, in `Matcher::text`.
    off: u32,
    len: u32,
    /// The longest other prefix that it starts with, or `NONE`.
    parent: u32,
    /// The best rule (by rank) that is exactly this prefix, and that is
    /// this prefix and `$`; `NONE` if none.
    literal: u32,
    end: u32,
    /// Where its wildcard rules start in `Index::wild_rank`; they end
    /// where the next prefix's start.
    wild: u32,
}

/// The index of a busy matcher.
///
/// Rules are ranked best first, so the smallest rank that matches
/// decides. The literal prefixes are sorted: the one just before a path
/// (or equal to it) shares the path's longest prefix among them, and the
/// prefixes of the path are it or its ancestors (each prefix points to
/// the longest other prefix it starts with). Rules whose prefix the path
/// has are then decided by their tail: plain, `$`, or wildcard, the
/// wildcard ones screened by the bytes they need.
#[derive(Clone, Debug)]
struct Index {
    /// Rule positions in `Matcher::rules`, best first: by rank.
    order: Box<[u32]>,
    prefixes: Box<[Prefix]>,
    /// The wildcard rules of each prefix, by rank, and a digest of the
    /// bytes each needs after its prefix (see `pattern::byte_digest`).
    wild_rank: Box<[u32]>,
    wild_required: Box<[u64]>,
}

/// The positions of `rules`, best first, as [`Entry::beats`] orders them:
/// no two rules are equal (lines differ, and a retry ranks below its
/// rule).
fn best_first(rules: &[Entry]) -> Vec<u32> {
    best_first_counted(rules).unwrap_or_else(|| best_first_sorted(rules))
}

/// [`best_first`] by sorting. Sorting plain integers is several times
/// faster than sorting tuples through a closure: each order is packed
/// into one `u128`, the position in the low bits.
fn best_first_sorted(rules: &[Entry]) -> Vec<u32> {
    let mut keys: Vec<u128> = rules
        .iter()
        .enumerate()
        .map(|(at, r)| {
            (u128::from(u32::MAX - r.priority()) << 96)
                | (u128::from(!r.is_allow()) << 64)
                | (u128::from(r.line) << 32)
                | at as u128
        })
        .collect();
    keys.sort_unstable();
    keys.iter().map(|&k| k as u32).collect()
}

/// [`best_first`] by a counting sort, for rules in file order (as every
/// matcher keeps them: a retry right after its rule, on the same line),
/// where the earlier line is the earlier position: the order is then by
/// priority and kind alone, kept stable. `None` if the rules are not in
/// file order, or if there are many more priorities than rules.
fn best_first_counted(rules: &[Entry]) -> Option<Vec<u32>> {
    let mut top = 0;
    let mut line = 0;
    for r in rules {
        if r.line < line {
            return None;
        }
        line = r.line;
        top = top.max(r.priority() as usize);
    }
    if top > 4 * rules.len() + 64 {
        return None;
    }
    // Bucket 0 holds the best: the highest priority, allow.
    let bucket = |r: &Entry| {
        (top - r.priority() as usize) * 2 + usize::from(!r.is_allow())
    };
    let mut starts = vec![0u32; 2 * top + 3];
    for r in rules {
        starts[bucket(r) + 1] += 1;
    }
    for b in 1..starts.len() {
        starts[b] += starts[b - 1];
    }
    let mut order = vec![0u32; rules.len()];
    for (at, r) in rules.iter().enumerate() {
        let start = &mut starts[bucket(r)];
        order[*start as usize] = at as u32;
        *start += 1;
    }
    Some(order)
}

impl Index {
    fn build(rules: &[Entry], text: &[u8]) -> Index {
        let order = best_first(rules);
        // Each rank's literal prefix (offset, length) and tail.
        let parts: Vec<(u32, u32, Tail)> = order
            .iter()
            .map(|&at| {
                let rule = &rules[at as usize];
                let (prefix, tail, _, _) = rule.parts(text);
                (rule.off, prefix.len() as u32, tail)
            })
            .collect();
        let bytes = |off: u32, len: u32| {
            text.get(off as usize..(off + len) as usize).unwrap_or_default()
        };
        let prefix = |rank: u32| {
            let (off, len, _) = parts[rank as usize];
            bytes(off, len)
        };
        // By prefix, then rank: the same buffer holds the first twelve
        // bytes of the prefix (big-endian, padded with zeros, so that
        // keys that differ order their strings as the strings do) and
        // the rank. Runs of equal keys (mostly one prefix shared by
        // several rules) are then ordered by their whole bytes.
        let mut keys: Vec<u128> = (0..parts.len() as u32)
            .map(|rank| {
                let head = u128::from_be_bytes(padded(prefix(rank)));
                (head & !u128::from(u32::MAX)) | u128::from(rank)
            })
            .collect();
        keys.sort_unstable();
        let mut run = 0;
        while run < keys.len() {
            let head = keys[run] >> 32;
            let same = keys[run..].iter().take_while(|&&k| k >> 32 == head);
            let end = run + same.count();
            if end - run > 1 {
                keys[run..end].sort_unstable_by(|&a, &b| {
                    prefix(a as u32).cmp(prefix(b as u32)).then(a.cmp(&b))
                });
            }
            run = end;
        }
        let items = keys.iter().map(|&k| {
            let rank = k as u32;
            let (off, len, tail) = parts[rank as usize];
            (key(bytes(off, len)), off, len, rank, tail)
        });
        let mut prefixes: Vec<Prefix> = Vec::with_capacity(rules.len());
        let wilds = parts.iter().filter(|p| p.2 == Tail::Wild).count();
        let mut wild_rank = Vec::with_capacity(wilds);
        let mut scratch = Vec::new();
        let mut finish = |wild_rank: &mut Vec<u32>, start| {
            finish_wild(rules, &order, text, wild_rank, start, &mut scratch);
        };
        for (key, off, len, rank, tail) in items {
            let this = bytes(off, len);
            // Equal keys and lengths are equal prefixes up to eight bytes.
            let same = prefixes.last().is_some_and(|p| {
                p.key == key
                    && p.len == len
                    && (len <= 8 || bytes(p.off, p.len) == this)
            });
            if !same {
                if let Some(p) = prefixes.last() {
                    finish(&mut wild_rank, p.wild);
                }
                // The prefixes that this one may start with are the last
                // one and its ancestors: the longest it starts with is
                // its parent.
                let mut parent = prefixes.len().wrapping_sub(1) as u32;
                while let Some(p) = prefixes.get(parent as usize) {
                    if this.starts_with(bytes(p.off, p.len)) {
                        break;
                    }
                    parent = p.parent;
                }
                prefixes.push(Prefix {
                    key,
                    off,
                    len,
                    parent,
                    literal: NONE,
                    end: NONE,
                    wild: wild_rank.len() as u32,
                });
            }
            let Some(p) = prefixes.last_mut() else { continue };
            match tail {
                Tail::None => p.literal = p.literal.min(rank),
                Tail::End => p.end = p.end.min(rank),
                Tail::Wild => wild_rank.push(rank),
            }
        }
        if let Some(p) = prefixes.last() {
            finish(&mut wild_rank, p.wild);
        }
        let wild_required = wild_rank
            .iter()
            .map(|&rank| {
                let rule = &rules[order[rank as usize] as usize];
                let (_, _, after, _) = rule.parts(text);
                // `*` is not needed in the path; dropping its bit (which
                // LF, 0x8A and 0xAA share, none of them in a normalised
                // pattern) only lets more paths through.
                pattern::byte_digest(after) & !pattern::byte_digest(b"*")
            })
            .collect::<Vec<_>>();
        Index {
            order: order.into_boxed_slice(),
            prefixes: prefixes.into_boxed_slice(),
            wild_rank: wild_rank.into_boxed_slice(),
            wild_required: wild_required.into_boxed_slice(),
        }
    }

    fn heap_size(&self) -> usize {
        self.order.len() * size_of::<u32>()
            + self.prefixes.len() * size_of::<Prefix>()
            + self.wild_rank.len() * size_of::<u32>()
            + self.wild_required.len() * size_of::<u64>()
    }

    /// Where the wildcard rules of prefix `at` end.
    #[inline]
    fn wild_end(&self, at: usize) -> usize {
        self.prefixes
            .get(at + 1)
            .map_or(self.wild_rank.len(), |p| p.wild as usize)
    }

    /// Returns the best matching rule, adding to `work` (when `COUNT` is
    /// set) a unit per wildcard rule screened out by its bytes and, per
    /// wildcard rule tried, the bytes it was tried on plus one.
    #[inline]
    fn find<'m, const COUNT: bool>(
        &self,
        matcher: &'m Matcher,
        path: &[u8],
        work: &mut u64,
    ) -> Option<&'m Entry> {
        let text = &matcher.text;
        let bytes = |p: &Prefix| {
            text.get(p.off as usize..(p.off + p.len) as usize)
                .unwrap_or_default()
        };
        let path_key = key(path);
        let at_most = |p: &Prefix| {
            p.key < path_key || (p.key == path_key && tie(bytes(p), path))
        };
        // How many prefixes are at most the path: a branch-free binary
        // search on the keys.
        let prefixes = &self.prefixes[..];
        let (mut base, mut size) = (0usize, prefixes.len());
        while size > 1 {
            let half = size / 2;
            if at_most(&prefixes[base + half]) {
                base += half;
            }
            size -= half;
        }
        let after =
            base + usize::from(prefixes.get(base).is_some_and(at_most));
        let mut at = after.checked_sub(1)? as u32;
        // The longest prefix of the path is the nearest ancestor of `at`
        // that is no longer than what `at` shares with the path.
        let p = &self.prefixes[at as usize];
        let shared =
            bytes(p).iter().zip(path).take_while(|(a, b)| a == b).count();
        while self.prefixes.get(at as usize)?.len as usize > shared {
            at = self.prefixes[at as usize].parent;
        }
        let top = at;
        let mut best = NONE;
        let mut wild = false;
        while let Some(p) = self.prefixes.get(at as usize) {
            best = best.min(p.literal);
            if p.len as usize == path.len() {
                best = best.min(p.end);
            }
            wild |= p.wild as usize != self.wild_end(at as usize);
            at = p.parent;
        }
        if wild && best != 0 {
            let set = pattern::byte_digest(path);
            let mut at = top;
            while let Some(p) = self.prefixes.get(at as usize) {
                let rest = &path[p.len as usize..];
                for k in p.wild as usize..self.wild_end(at as usize) {
                    let rank = self.wild_rank[k];
                    if rank >= best {
                        break;
                    }
                    if self.wild_required[k] & !set != 0 {
                        if COUNT {
                            *work += 1;
                        }
                        continue;
                    }
                    if COUNT {
                        *work += rest.len() as u64 + 1;
                    }
                    let rule =
                        &matcher.rules[self.order[rank as usize] as usize];
                    let (_, _, after, anchored) = rule.parts(text);
                    if pattern::matches_after_star(after, anchored, rest) {
                        best = rank;
                        break;
                    }
                }
                if best == 0 {
                    break;
                }
                at = p.parent;
            }
        }
        let at = *self.order.get(best as usize)?;
        matcher.rules.get(at as usize)
    }
}

/// Keeps, among the wildcard rules of one prefix (`wild_rank[start..]`,
/// by rank), only the best of those with the same tail: the others match
/// exactly when it does and never win. `scratch` is room kept from call
/// to call.
fn finish_wild(
    rules: &[Entry],
    order: &[u32],
    text: &[u8],
    wild_rank: &mut Vec<u32>,
    start: u32,
    scratch: &mut Vec<u128>,
) {
    let tail = |rank: u32| {
        let (_, _, after, anchored) =
            rules[order[rank as usize] as usize].parts(text);
        (after, anchored)
    };
    let hash = |(after, anchored)| tail_hash(after, anchored);
    keep_best(wild_rank, start as usize, scratch, tail, hash);
}

/// Keeps, of the ranks in `ranks[start..]` (ascending), the smallest of
/// those with the same `tail`, in ascending order.
///
/// Equal tails are found by their `hash`, sorted with the rank; each tail
/// is then compared with those kept before it under the same hash. Should
/// many different tails share a hash, they are sorted instead, so that no
/// input costs more than that sort.
fn keep_best<T: Ord>(
    ranks: &mut Vec<u32>,
    start: usize,
    scratch: &mut Vec<u128>,
    tail: impl Fn(u32) -> T,
    hash: impl Fn(T) -> u64,
) {
    /// More tails than this under one hash are sorted instead.
    const FEW: usize = 8;
    if ranks.len() - start < 2 {
        return;
    }
    scratch.clear();
    scratch.extend(
        ranks[start..].iter().map(|&rank| {
            u128::from(hash(tail(rank))) << 64 | u128::from(rank)
        }),
    );
    scratch.sort_unstable();
    ranks.truncate(start);
    let mut run = 0;
    while run < scratch.len() {
        let hash = scratch[run] >> 64;
        let same = scratch[run..].iter().take_while(|&&k| k >> 64 == hash);
        let end = run + same.count();
        let kept = ranks.len();
        let mut many = false;
        for &k in &scratch[run..end] {
            let this = tail(k as u32);
            if ranks[kept..].iter().all(|&r| tail(r) != this) {
                many = ranks.len() - kept == FEW;
                if many {
                    break;
                }
                ranks.push(k as u32);
            }
        }
        if many {
            ranks.truncate(kept);
            let mut tails: Vec<_> = scratch[run..end]
                .iter()
                .map(|&k| (tail(k as u32), k as u32))
                .collect();
            tails.sort_unstable();
            tails.dedup_by(|b, a| a.0 == b.0);
            ranks.extend(tails.iter().map(|t| t.1));
        }
        run = end;
    }
    ranks[start..].sort_unstable();
}

/// A hash of a wildcard rule's tail and whether it ends with `$`.
fn tail_hash(tail: &[u8], anchored: bool) -> u64 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut h =
        ((tail.len() as u64) << 1 | u64::from(anchored)).wrapping_mul(K);
    let mut words = tail.chunks_exact(8);
    for word in &mut words {
        let word = u64::from_le_bytes(padded(word));
        h = (h ^ word).wrapping_mul(K).rotate_left(27);
    }
    let last = u64::from_le_bytes(padded(words.remainder()));
    h = (h ^ last).wrapping_mul(K);
    h ^ h >> 29
}

/// A value set once, shared between threads: `std`'s `OnceLock`.
#[cfg(feature = "std")]
type Once<T> = std::sync::OnceLock<T>;

/// Whether a matcher can keep the index it builds ([`Once`] keeps nothing
/// without `std`).
const KEEPS_INDEX: bool = cfg!(feature = "std");

/// Without `std` there is no lock to set a value once safely: nothing is
/// ever kept, and the callers fall back to building what they need.
#[cfg(not(feature = "std"))]
#[derive(Clone, Debug)]
struct Once<T>(core::marker::PhantomData<T>);

#[cfg(not(feature = "std"))]
impl<T> Once<T> {
    fn new() -> Self {
        Once(core::marker::PhantomData)
    }

    fn get(&self) -> Option<&T> {
        None
    }

    fn set(&self, value: T) -> Result<(), T> {
        Err(value)
    }
}

impl Matcher {
    /// Calls `f` with the pattern of each rule at `order` in turn (an
    /// index.html retry as its own `dir$` pattern), while it returns
    /// true.
    fn each_pattern(
        &self,
        order: impl IntoIterator<Item = u32>,
        f: &mut dyn FnMut(&[u8]) -> bool,
    ) {
        let mut retry = Vec::new();
        for at in order {
            let Some(rule) = self.rules.get(at as usize) else { return };
            let pat = rule.pattern(&self.text);
            let go_on = if rule.via_index() {
                let keep = (rule.cut & CUT) as usize;
                retry.clear();
                retry.extend_from_slice(&pat[..keep.min(pat.len())]);
                retry.push(b'$');
                f(&retry)
            } else {
                f(pat)
            };
            if !go_on {
                return;
            }
        }
    }
}

impl coverage::Rules for Matcher {
    fn is_literal(&self) -> bool {
        self.first.is_some()
    }

    fn for_each_pattern(&self, f: &mut dyn FnMut(&[u8]) -> bool) {
        if self.first.is_some() {
            return self.for_each_pattern_unordered(f);
        }
        // The index's order if it is built; else the same order, without
        // the rest of an index, which coverage does not need.
        match self.index.get() {
            Some(index) => self.each_pattern(index.order.iter().copied(), f),
            None => self.each_pattern(best_first(&self.rules), f),
        }
    }

    fn for_each_pattern_unordered(&self, f: &mut dyn FnMut(&[u8]) -> bool) {
        if let Some(first) = &self.first {
            for r in first.iter() {
                if !f(self.span(r.pattern)) {
                    return;
                }
            }
            return;
        }
        self.each_pattern(0..self.rules.len() as u32, f);
    }

    fn verdict(&self, path: &[u8]) -> (bool, u64) {
        if let Some(first) = &self.first {
            let work = (path.len() * (first.len() + 1)) as u64;
            return (self.first_decide(first, path).is_allowed(), work);
        }
        let mut work = path.len() as u64;
        // A probe that a pass over the rules could make cost more than
        // building the index (a unit per rule, and per wildcard rule the
        // bytes it is tried on) goes through the index: the work probes
        // count before the index stays within twice the threshold.
        let costly = self.index.get().is_none() && {
            let wild = self.rules.iter().filter(|r| r.cut & WILD != 0);
            let tries = wild.count().saturating_mul(path.len() + 1);
            self.rules.len().saturating_add(tries) > self.busy
        };
        let found = if costly {
            self.with_index(|index| index.find::<true>(self, path, &mut work))
        } else {
            self.find_counted::<true>(path, &mut work)
        };
        let allowed = match found {
            Some(r) => {
                verdict::is_allowed_by(r.is_allow(), r.priority() as usize)
            }
            None => true,
        };
        (allowed, work)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;
    use alloc::string::String;

    fn body(rules: usize) -> String {
        let mut s = String::from("user-agent: *\n");
        for i in 0..rules {
            s.push_str(&format!("disallow: /p{i}/*.pdf$\nallow: /p{i}/\n"));
        }
        s
    }

    /// Rules in file order, as a matcher keeps them, from bodies with
    /// every kind of rule: long and short, allow and disallow, retries.
    fn varied_rules() -> Vec<Vec<Entry>> {
        let mut sets = Vec::new();
        let mut seed = 7u64;
        let mut next = move |n: u64| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
            (seed >> 33) % n
        };
        for rules in [0, 1, 2, 5, 40, 300] {
            let mut body = String::from("user-agent: *\n");
            for _ in 0..rules {
                let kind = ["allow", "disallow"][next(2) as usize];
                let long = next(8) == 0;
                let len = next(if long { 400 } else { 12 });
                let mut pattern = String::from("/");
                for _ in 0..len {
                    pattern.push(b"ab*/$."[next(6) as usize] as char);
                }
                let end = ["", "$", "/", "/index.html", "*"][next(5) as usize];
                body.push_str(&format!("{kind}: {pattern}{end}\n"));
            }
            sets.push(robots_rules(&body));
        }
        sets
    }

    fn robots_rules(body: &str) -> Vec<Entry> {
        Robots::parse(body.as_bytes()).matcher(&["a"]).rules.to_vec()
    }

    #[test]
    fn counting_puts_rules_in_the_order_sorting_does() {
        for rules in varied_rules() {
            let sorted = best_first_sorted(&rules);
            let counted = best_first_counted(&rules);
            if let Some(order) = &counted {
                assert_eq!(order, &sorted);
            }
            if rules.len() >= 300 {
                assert!(counted.is_some());
            }
            assert_eq!(best_first(&rules), sorted);
            // Rules out of file order are sorted.
            let mut reversed = rules.clone();
            reversed.reverse();
            if reversed.windows(2).any(|w| w[0].line > w[1].line) {
                assert_eq!(best_first_counted(&reversed), None);
            }
            assert_eq!(best_first(&reversed), best_first_sorted(&reversed));
        }
        // A long pattern among few rules: more priorities than rules.
        let rules = robots_rules(&format!(
            "user-agent: *\ndisallow: /{}\nallow: /a\n",
            "x".repeat(500)
        ));
        assert_eq!(best_first_counted(&rules), None);
        assert_eq!(best_first(&rules), [0, 1]);
    }

    #[test]
    fn of_equal_tails_the_best_is_kept() {
        let tails = [3u8, 1, 3, 2, 9, 1, 1, 4, 5, 6, 7, 8, 0, 10, 3, 11, 2];
        // Each distinct tail's smallest rank, in ascending order.
        let mut want: Vec<u32> = Vec::new();
        for (rank, t) in tails.iter().enumerate() {
            if !tails[..rank].contains(t) {
                want.push(rank as u32);
            }
        }
        let hashes: [fn(u8) -> u64; 3] = [
            |t| u64::from(t).wrapping_mul(0x9E37_79B9_7F4A_7C15),
            |t| u64::from(t % 3),
            // One hash for all: more distinct tails than are compared
            // one by one, so they are sorted.
            |_| 42,
        ];
        for hash in hashes {
            for start in [0, 2] {
                let mut ranks = vec![100, 101];
                ranks.truncate(start);
                ranks.extend(0..tails.len() as u32);
                let mut scratch = Vec::new();
                keep_best(
                    &mut ranks,
                    start,
                    &mut scratch,
                    |r| tails[r as usize],
                    hash,
                );
                assert_eq!(ranks[..start], [100, 101][..start]);
                assert_eq!(ranks[start..], want[..]);
            }
        }
    }

    #[test]
    fn coverage_probes_that_would_cost_more_go_through_the_index() {
        // Many wildcard rules, then a long literal one: a pass over the
        // rules would try each wildcard rule on the whole long probe, past
        // the coverage budget; the index rules them out by their bytes.
        let mut body = String::from("user-agent: *\n");
        for i in 0..20_000 {
            body.push_str(&format!("allow: /*q{i}\n"));
        }
        body.push_str("disallow: /");
        body.push_str(&"a".repeat(16_600));
        body.push_str("\ndisallow: /\n");
        let robots = Robots::parse(body.as_bytes());
        let matcher = robots.matcher(&["a"]);
        let coverage = matcher.coverage();
        assert_eq!(coverage.as_str(), "partial", "{coverage:?}");
        assert_eq!(coverage, robots.matcher(&["a"]).coverage());
    }

    #[test]
    fn builds_its_index_once_busy() {
        let body = body(50);
        let robots = Robots::parse(body.as_bytes());
        let matcher = robots.matcher(&["a"]);
        let compiled = robots.matcher(&["a"]);
        compiled.compile();
        assert!(!matcher.is_compiled());
        for i in 0..2_000 {
            let url = format!("/p{}/x{}.pdf", i % 60, i % 3);
            assert_eq!(matcher.decide(&url), compiled.decide(&url), "{url}");
            if i == 0 {
                assert!(!matcher.is_compiled(), "one check is not busy");
            }
        }
        #[cfg(feature = "std")]
        {
            assert!(matcher.is_compiled());
            assert!(matcher.heap_size() > robots.matcher(&["a"]).heap_size());
        }
        let copy = matcher.clone();
        assert_eq!(copy.decide("/p7/a.pdf"), compiled.decide("/p7/a.pdf"));
    }

    /// The rules, and the index once built, stay within a small multiple
    /// of the file, however the file is made.
    #[test]
    fn bounded_memory() {
        let mut files: Vec<Vec<u8>> = Vec::new();
        let mut s = String::from("user-agent:*\n");
        for i in 0..3000 {
            s.push_str(&format!("allow:/{i:x}\n"));
        }
        files.push(s.into_bytes());
        let mut s = String::from("user-agent:*\n");
        for i in 0..3000 {
            s.push_str(&format!("allow:*{i:x}\n"));
        }
        files.push(s.into_bytes());
        let mut s = String::from("user-agent:*\n");
        for i in 0..3000 {
            s.push_str(&format!("allow:/{i:x}/index.htm\n"));
        }
        files.push(s.into_bytes());
        let mut s = String::from("user-agent:*\n");
        for _ in 0..300 {
            s.push_str("disallow:/");
            s.push_str(&"*a".repeat(200));
            s.push_str("b\n");
        }
        files.push(s.into_bytes());
        let mut s = b"user-agent:*\n".to_vec();
        for i in 0..3000u32 {
            s.extend_from_slice(b"disallow:/\xff\xfe");
            s.extend_from_slice(format!("{i:x}\n").as_bytes());
        }
        files.push(s);
        for body in &files {
            let robots = Robots::parse(body);
            let matcher = robots.matcher(&["a"]);
            matcher.compile();
            let held = robots.heap_size() + matcher.heap_size();
            assert!(
                held <= 8 * body.len(),
                "{held} bytes for {} ({:?}…)",
                body.len(),
                &body[..40]
            );
        }
    }
}
