//! Many checks for one crawler: the merged rules, compiled once.

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::coverage::{self, Coverage};
use crate::extension::{ExtensionValue, RequestRate};
use crate::options::{MatchOptions, Semantics};
use crate::path::match_path;
use crate::pattern::{self, Tail};
use crate::robots::Robots;
use crate::rule::{Rule, RuleKind, RuleView};
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

/// One rule, compiled. Rules are kept sorted so that the first that
/// matches is the one that decides.
#[derive(Clone, Debug)]
struct Compiled {
    tail: Tail,
    /// The length of the literal prefix that the tree matches.
    prefix_len: u32,
    priority: u32,
    line: u32,
    allow: bool,
    via_index: bool,
    /// Where the pattern and the written value are in `Matcher::text`.
    pattern: (u32, u32),
    written: (u32, u32),
}

/// A node of the radix tree over the rules' literal prefixes.
#[derive(Clone, Debug)]
struct Node {
    /// The bytes on the edge into this node.
    label: (u32, u32),
    /// The children: a range of `Matcher::edge_bytes` (sorted) and, at
    /// the same positions, `Matcher::edge_targets`.
    edges: (u32, u32),
    /// For nodes with many children, where their 128-entry table of
    /// positions starts in `Matcher::dense` (`u32::MAX` for none).
    dense: u32,
    /// The best rule that is exactly this literal prefix (`/a`, `/a*`):
    /// reaching the node is a match. `u32::MAX` if none.
    prefix_rule: u32,
    /// The best rule that is this literal and `$`: a match if the path
    /// ends here. `u32::MAX` if none.
    end_rule: u32,
    /// The wildcard rules whose literal prefix ends here, in groups that
    /// share an anchor byte, as a range into `Matcher::groups`.
    wild: (u32, u32),
}

/// Wildcard rules at one node that need the same first byte, best first.
#[derive(Clone, Copy, Debug)]
struct WildGroup {
    /// The bytes that every rule of the group needs: a path that lacks
    /// one of them skips the whole group.
    common: u128,
    /// A range into `Matcher::wild`.
    rules: (u32, u32),
}

/// A wildcard rule at a node, with the bytes it needs, kept inline so
/// that most candidates are rejected without touching the rule.
#[derive(Clone, Copy, Debug)]
struct WildRef {
    required: u128,
    index: u32,
}

/// Checks URLs for one crawler, fast.
///
/// A `Matcher` holds the rules of the groups that apply to the crawler,
/// merged as RFC 9309 §2.2.1 says, sorted by priority and indexed by a prefix
/// tree over their literal parts, so that a check looks only at rules that
/// can match. It owns its data: it does not borrow the [`Robots`] it was
/// built from, and it is `Send` and `Sync`.
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
#[derive(Clone)]
pub struct Matcher {
    rules: Box<[Compiled]>,
    nodes: Box<[Node]>,
    edge_bytes: Box<[u8]>,
    edge_targets: Box<[u32]>,
    /// Per busy node, for each ASCII byte, the child's position among the
    /// node's edges, or `NO_EDGE`.
    dense: Box<[u8]>,
    wild: Box<[WildRef]>,
    groups: Box<[WildGroup]>,
    /// Patterns (ASCII), the values as written (any bytes) and the tree's
    /// labels.
    text: Vec<u8>,
    named: bool,
    /// The rules in file order, for [`Semantics::FirstMatch1996`].
    first: Option<Box<[FirstRule]>>,
    crawl_delay: Option<f64>,
    request_rate: Option<RequestRate>,
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
        let named = selection.is_named();
        let chosen: Vec<_> = selection.rules().collect();
        // The first valid value of each, in one pass over the groups'
        // extension lines.
        let (mut crawl_delay, mut request_rate) = (None, None);
        for e in selection.groups().flat_map(|g| g.extensions()) {
            match e.value() {
                Ok(ExtensionValue::CrawlDelay(s)) if crawl_delay.is_none() => {
                    crawl_delay = Some(s);
                }
                Ok(ExtensionValue::RequestRate(r))
                    if request_rate.is_none() =>
                {
                    request_rate = Some(r);
                }
                _ => {}
            }
        }
        let extras = Extras { named, crawl_delay, request_rate };
        if options.get_semantics() == Semantics::FirstMatch1996 {
            return Matcher::first_match(&chosen, extras);
        }

        let mut text = Vec::new();
        let mut push = |s: &[u8]| {
            let off = text.len() as u32;
            text.extend_from_slice(s);
            (off, s.len() as u32)
        };
        let mut rules = Vec::with_capacity(chosen.len());
        for rule in &chosen {
            let pat = rule.pattern();
            if !pattern::can_match(pat.as_bytes()) {
                continue;
            }
            let allow = rule.kind() == RuleKind::Allow;
            let pattern_span = push(pat.as_bytes());
            let written_span = push(rule.as_written());
            let (prefix_len, tail) = pattern::compile(pat.as_bytes());
            rules.push(Compiled {
                tail,
                prefix_len: prefix_len as u32,
                priority: pat.len() as u32,
                line: rule.line(),
                allow,
                via_index: false,
                pattern: pattern_span,
                written: written_span,
            });
            if let Some(keep) = allow
                .then(|| pattern::index_fallback(pat.as_bytes()))
                .flatten()
            {
                // The retry is a second, independent rule: it can only win
                // where the pattern itself does not match, since its
                // priority is lower.
                let mut retry = String::from(&pat[..keep]);
                retry.push('$');
                let (prefix_len, tail) = pattern::compile(retry.as_bytes());
                rules.push(Compiled {
                    tail,
                    prefix_len: prefix_len as u32,
                    priority: keep as u32 + 1,
                    line: rule.line(),
                    allow,
                    via_index: true,
                    pattern: pattern_span,
                    written: written_span,
                });
            }
        }
        // Best first: higher priority, then allow before disallow, then
        // the earlier line (the reference keeps the first of equals).
        rules.sort_by_key(|r| {
            (core::cmp::Reverse(r.priority), !r.allow, r.line)
        });
        Builder::build(rules, text, extras)
    }

    /// A matcher for [`Semantics::FirstMatch1996`]: the rules in file
    /// order, with no tree.
    fn first_match(chosen: &[Rule<'_>], extras: Extras) -> Matcher {
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
        let mut matcher = Builder::build(Vec::new(), text, extras);
        matcher.first = Some(first);
        matcher
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
        self.crawl_delay
    }

    /// The request rate for this crawler: the first valid `request-rate`
    /// of the groups that apply, in file order.
    pub fn request_rate(&self) -> Option<RequestRate> {
        self.request_rate
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
            Some(r) => verdict::is_allowed_by(r.allow, r.priority as usize),
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
                let view = self.view(r.line, r.allow, r.pattern, r.written);
                let rule =
                    DecidingRule::new(view, r.priority as usize, r.via_index);
                let allowed =
                    verdict::is_allowed_by(r.allow, r.priority as usize);
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

    fn span(&self, (off, len): (u32, u32)) -> &[u8] {
        self.text.get(off as usize..(off + len) as usize).unwrap_or_default()
    }

    /// Returns the best matching rule, if any.
    ///
    /// Rules are sorted best first, so the smallest index that matches
    /// wins. The first walk down the tree takes the literal rules, which
    /// match by being reached; the second checks only the wildcard rules
    /// that could still beat that.
    fn find(&self, path: &[u8]) -> Option<&Compiled> {
        self.find_counted::<false>(path, &mut 0)
    }

    /// `find`, adding to `work` (when `COUNT` is set) the bytes that
    /// wildcard rules were tried on.
    #[inline]
    fn find_counted<const COUNT: bool>(
        &self,
        path: &[u8],
        work: &mut u64,
    ) -> Option<&Compiled> {
        // The nodes with wildcard rules on the way down, kept for the
        // second pass; a deeper path (rare) walks again.
        let mut stack = [(0u32, 0u32); 16];
        let mut stacked = 0usize;
        let mut overflow = false;
        let mut best = u32::MAX;
        self.walk(path, |node, index, depth| {
            best = best.min(node.prefix_rule);
            if depth == path.len() {
                best = best.min(node.end_rule);
            }
            if node.wild.0 != node.wild.1 {
                match stack.get_mut(stacked) {
                    Some(slot) => *slot = (index, depth as u32),
                    None => overflow = true,
                }
                stacked += 1;
            }
            true
        });
        if stacked == 0 || best == 0 {
            return self.rules.get(best as usize);
        }
        let set = pattern::byte_set(path);
        if overflow {
            self.walk(path, |node, _, depth| {
                self.check_wild::<COUNT>(
                    node, path, depth, set, &mut best, work,
                )
            });
        } else {
            for &(index, depth) in &stack[..stacked] {
                let node = &self.nodes[index as usize];
                if !self.check_wild::<COUNT>(
                    node,
                    path,
                    depth as usize,
                    set,
                    &mut best,
                    work,
                ) {
                    break;
                }
            }
        }
        self.rules.get(best as usize)
    }

    /// Checks a node's wildcard rules that could beat `best`; returns
    /// false once nothing can (`best` is 0).
    #[inline]
    fn check_wild<const COUNT: bool>(
        &self,
        node: &Node,
        path: &[u8],
        depth: usize,
        set: u128,
        best: &mut u32,
        work: &mut u64,
    ) -> bool {
        let (start, end) = node.wild;
        for group in &self.groups[start as usize..end as usize] {
            if group.common & !set != 0 {
                continue;
            }
            let (start, end) = group.rules;
            for w in &self.wild[start as usize..end as usize] {
                if w.index >= *best {
                    break;
                }
                if w.required & !set != 0 {
                    if COUNT {
                        *work += 1;
                    }
                    continue;
                }
                if COUNT {
                    *work += (path.len() - depth) as u64 + 1;
                }
                if self.rules[w.index as usize]
                    .tail
                    .matches_wild(&path[depth..])
                {
                    *best = w.index;
                    break;
                }
            }
        }
        *best != 0
    }

    /// Visits the nodes whose label spells a prefix of `path`, from the
    /// root down, with the length of that prefix, while `visit` says to go
    /// on.
    #[inline]
    fn walk(
        &self,
        path: &[u8],
        mut visit: impl FnMut(&Node, u32, usize) -> bool,
    ) {
        let text = &self.text;
        let mut index = 0u32;
        let mut node = &self.nodes[0];
        let mut depth = 0usize;
        loop {
            if !visit(node, index, depth) {
                return;
            }
            let Some(&next) = path.get(depth) else { return };
            let (start, end) = (node.edges.0 as usize, node.edges.1 as usize);
            let at = if node.dense == u32::MAX {
                // Few children: a short scan of sorted bytes.
                match self.edge_bytes[start..end]
                    .iter()
                    .position(|&b| b >= next)
                {
                    Some(at) if self.edge_bytes[start + at] == next => at,
                    _ => return,
                }
            } else if next < 128 {
                match self.dense.get(node.dense as usize + usize::from(next)) {
                    Some(&at) if at != NO_EDGE => usize::from(at),
                    _ => return,
                }
            } else {
                return;
            };
            index = self.edge_targets[start + at];
            let child = &self.nodes[index as usize];
            let (off, len) = child.label;
            let label = &text[off as usize..(off + len) as usize];
            let rest = &path[depth..];
            // Labels are short: a plain loop beats a call to memcmp.
            if rest.len() < label.len()
                || label.iter().zip(rest).any(|(a, b)| a != b)
            {
                return;
            }
            depth += label.len();
            node = child;
        }
    }
}

impl fmt::Debug for Matcher {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Matcher")
            .field("named", &self.named)
            .field("rules", &self.rules.len())
            .field("nodes", &self.nodes.len())
            .finish()
    }
}

/// What a matcher knows besides its rules.
struct Extras {
    named: bool,
    crawl_delay: Option<f64>,
    request_rate: Option<RequestRate>,
}

/// Nodes with more children than this get a dense table.
const DENSE_FROM: usize = 8;
/// No child for this byte, in a dense table.
const NO_EDGE: u8 = u8::MAX;

/// Builds the radix tree. Labels are stored in the matcher's text.
struct Builder {
    /// Plain trie first: children by byte, and rules per node.
    children: Vec<Vec<(u8, usize)>>,
    rules: Vec<Vec<u32>>,
}

impl Builder {
    fn build(
        rules: Vec<Compiled>,
        mut text: Vec<u8>,
        extras: Extras,
    ) -> Matcher {
        let mut b = Builder {
            children: alloc::vec![Vec::new()],
            rules: alloc::vec![Vec::new()],
        };
        for (index, rule) in rules.iter().enumerate() {
            let off = rule.pattern.0 as usize;
            let prefix = &text[off..off + rule.prefix_len as usize];
            let mut node = 0;
            for &byte in prefix {
                node = b.child(node, byte);
            }
            b.rules[node].push(index as u32);
        }
        // Compress chains of nodes that have one child and no rules.
        let mut nodes = Vec::new();
        let mut edges = (Vec::new(), Vec::new(), Vec::new());
        let mut wild = Vec::new();
        let mut groups = Vec::new();
        let mut label_text: Vec<u8> = Vec::new();
        b.emit(
            &rules,
            &mut nodes,
            &mut edges,
            (&mut wild, &mut groups),
            &mut label_text,
        );
        let (edge_bytes, edge_targets, dense) = edges;
        let base = text.len() as u32;
        // Labels are ASCII: they come from normalised patterns.
        text.extend_from_slice(&label_text);
        for node in &mut nodes {
            node.label.0 += base;
        }
        Matcher {
            rules: rules.into_boxed_slice(),
            nodes: nodes.into_boxed_slice(),
            edge_bytes: edge_bytes.into_boxed_slice(),
            edge_targets: edge_targets.into_boxed_slice(),
            dense: dense.into_boxed_slice(),
            wild: wild.into_boxed_slice(),
            groups: groups.into_boxed_slice(),
            text,
            named: extras.named,
            first: None,
            crawl_delay: extras.crawl_delay,
            request_rate: extras.request_rate,
        }
    }

    fn child(&mut self, node: usize, byte: u8) -> usize {
        if let Some(&(_, c)) =
            self.children[node].iter().find(|(b, _)| *b == byte)
        {
            return c;
        }
        let c = self.children.len();
        self.children.push(Vec::new());
        self.rules.push(Vec::new());
        self.children[node].push((byte, c));
        c
    }

    /// Emits the tree, compressing chains of nodes that have one child
    /// and no rules. Done with an explicit stack: prefixes can be long.
    fn emit(
        &self,
        rules: &[Compiled],
        nodes: &mut Vec<Node>,
        (edge_bytes, edge_targets, dense): &mut (Vec<u8>, Vec<u32>, Vec<u8>),
        (wild, groups): (&mut Vec<WildRef>, &mut Vec<WildGroup>),
        labels: &mut Vec<u8>,
    ) {
        // Each entry: (trie node, its label, the edge slot to fill).
        let mut stack = alloc::vec![(0usize, Vec::new(), None::<usize>)];
        while let Some((mut trie, mut label, slot)) = stack.pop() {
            while slot.is_some()
                && self.rules[trie].is_empty()
                && self.children[trie].len() == 1
            {
                let (byte, child) = self.children[trie][0];
                label.push(byte);
                trie = child;
            }
            if let Some(slot) = slot {
                edge_targets[slot] = nodes.len() as u32;
            }
            let label_span = (labels.len() as u32, label.len() as u32);
            labels.extend_from_slice(&label);
            let (mut prefix_rule, mut end_rule) = (u32::MAX, u32::MAX);
            let mut here: Vec<(Option<u8>, u32)> = Vec::new();
            for &index in &self.rules[trie] {
                match &rules[index as usize].tail {
                    Tail::None => prefix_rule = prefix_rule.min(index),
                    Tail::End => end_rule = end_rule.min(index),
                    tail @ Tail::Wild(_) => here.push((tail.anchor(), index)),
                }
            }
            // Grouped by anchor byte, each group best first.
            here.sort_unstable();
            let groups_start = groups.len() as u32;
            for chunk in here.chunk_by(|a, b| a.0 == b.0) {
                let start = wild.len() as u32;
                let mut common = u128::MAX;
                for &(_, index) in chunk {
                    let required = rules[index as usize].tail.required();
                    common &= required;
                    wild.push(WildRef { required, index });
                }
                groups.push(WildGroup {
                    common,
                    rules: (start, wild.len() as u32),
                });
            }
            let mut children = self.children[trie].clone();
            children.sort_unstable();
            let start = edge_targets.len();
            for &(byte, child) in &children {
                edge_bytes.push(byte);
                edge_targets.push(0);
                stack.push((
                    child,
                    alloc::vec![byte],
                    Some(edge_targets.len() - 1),
                ));
            }
            let mut table = u32::MAX;
            if children.len() > DENSE_FROM
                && children.len() < usize::from(NO_EDGE)
            {
                table = dense.len() as u32;
                dense.resize(dense.len() + 128, NO_EDGE);
                for (at, &(byte, _)) in children.iter().enumerate() {
                    // Patterns are normalised to ASCII, so every byte < 128.
                    if let Some(slot) =
                        dense.get_mut(table as usize + usize::from(byte))
                    {
                        *slot = at as u8;
                    }
                }
            }
            nodes.push(Node {
                label: label_span,
                edges: (start as u32, edge_targets.len() as u32),
                dense: table,
                prefix_rule,
                end_rule,
                wild: (groups_start, groups.len() as u32),
            });
        }
    }
}

impl coverage::Rules for Matcher {
    fn is_literal(&self) -> bool {
        self.first.is_some()
    }

    fn for_each_pattern(&self, f: &mut dyn FnMut(&[u8]) -> bool) {
        if let Some(first) = &self.first {
            for r in first.iter() {
                if !f(self.span(r.pattern)) {
                    return;
                }
            }
            return;
        }
        let mut retry = Vec::new();
        for rule in self.rules.iter() {
            let (off, len) = rule.pattern;
            let pat = self.span((off, len));
            let go_on = if rule.via_index {
                let keep = rule.priority as usize - 1;
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

    fn verdict(&self, path: &[u8]) -> (bool, u64) {
        if let Some(first) = &self.first {
            let work = (path.len() * (first.len() + 1)) as u64;
            return (self.first_decide(first, path).is_allowed(), work);
        }
        let mut work = path.len() as u64;
        let allowed = match self.find_counted::<true>(path, &mut work) {
            Some(r) => verdict::is_allowed_by(r.allow, r.priority as usize),
            None => true,
        };
        (allowed, work)
    }
}
