//! Many checks for one crawler: the merged rules, compiled once.

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::path::{path_of, until_nul};
use crate::pattern::{self, Tail};
use crate::robots::{Robots, RuleKind, RuleView};

/// The verdict for one URL, and the rule that decided it.
///
/// # Example
///
/// ```
/// use robotrules::{Robots, RuleKind};
///
/// let robots = Robots::parse(b"user-agent: *\ndisallow: /*.htm\nallow: /page\n");
/// let decision = robots.matcher(&["FooBot"]).decide("/page.htm");
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
    /// tie; `None` if no rule matched (REP.md §8).
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
    /// exactly `/d/` (REP.md §8).
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
#[derive(Clone, Debug, Default)]
struct Node {
    /// The bytes on the edge into this node.
    label: (u32, u32),
    /// The children, as ranges into `Matcher::edges`.
    edges: (u32, u32),
    /// The rules whose literal prefix ends here, ascending (best first).
    rules: (u32, u32),
}

/// Checks URLs for one crawler, fast.
///
/// A `Matcher` holds the rules of the groups that apply to the crawler,
/// merged as REP.md §6 says, sorted by priority and indexed by a prefix
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
    /// For each edge, the first byte of the child's label.
    edge_bytes: Box<[u8]>,
    edge_targets: Box<[u32]>,
    node_rules: Box<[u32]>,
    text: String,
    named: bool,
}

impl Matcher {
    pub(crate) fn new(robots: &Robots, agents: &[&str]) -> Matcher {
        let mut specific = Vec::new();
        let mut global = Vec::new();
        let mut named = false;
        for group in robots.groups() {
            let (is_named, is_global) = group.applies_to(agents);
            named |= is_named;
            if is_named {
                specific.extend(group.rules());
            } else if is_global {
                global.extend(group.rules());
            }
        }
        let chosen = if named { specific } else { global };

        let mut text = String::new();
        let mut push = |s: &str| {
            let off = text.len() as u32;
            text.push_str(s);
            (off, s.len() as u32)
        };
        let mut rules = Vec::with_capacity(chosen.len());
        for rule in &chosen {
            let pat = rule.pattern();
            if !pattern::can_match(pat.as_bytes()) {
                continue;
            }
            let allow = rule.kind() == RuleKind::Allow;
            let pattern_span = push(pat);
            let written = String::from_utf8_lossy(rule.as_written());
            let written_span = push(&written);
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
        Builder::build(rules, text, named)
    }

    /// Returns true if and only if the URL may be fetched.
    #[inline]
    pub fn is_allowed(&self, url: &str) -> bool {
        let path = path_of(url);
        match self.find(until_nul(path.as_bytes())) {
            Some(r) => r.allow || r.priority == 0,
            None => true,
        }
    }

    /// Returns the verdict for the URL and the rule that decided it.
    pub fn decide(&self, url: &str) -> Decision<'_> {
        let path = path_of(url);
        match self.find(until_nul(path.as_bytes())) {
            Some(r) => {
                let view = RuleView {
                    line: r.line,
                    kind: if r.allow {
                        RuleKind::Allow
                    } else {
                        RuleKind::Disallow
                    },
                    pattern: self.span(r.pattern),
                    written: self.span(r.written).as_bytes(),
                };
                let rule =
                    DecidingRule::new(view, r.priority as usize, r.via_index);
                Decision::new(r.allow || r.priority == 0, Some(rule))
            }
            None => Decision::new(true, None),
        }
    }

    /// Returns true if and only if some group names the crawler, so that
    /// the `*` groups are ignored for it.
    pub fn is_named(&self) -> bool {
        self.named
    }

    /// Returns the number of rules the matcher checks (including the
    /// index.html retries).
    pub fn rule_count(&self) -> usize {
        self.rules.len()
    }

    fn span(&self, (off, len): (u32, u32)) -> &str {
        self.text.get(off as usize..(off + len) as usize).unwrap_or_default()
    }

    /// Returns the best matching rule, if any.
    fn find(&self, path: &[u8]) -> Option<&Compiled> {
        let mut best = u32::MAX;
        let mut node = 0usize;
        let mut depth = 0usize;
        loop {
            let n = &self.nodes[node];
            let (start, end) = n.rules;
            for &index in &self.node_rules[start as usize..end as usize] {
                if index >= best {
                    // Rules at a node are sorted: none after is better.
                    break;
                }
                if self.rules[index as usize].tail.matches(&path[depth..]) {
                    best = index;
                    break;
                }
            }
            if best == 0 {
                break;
            }
            let Some(&next) = path.get(depth) else { break };
            let (start, end) = n.edges;
            let bytes = &self.edge_bytes[start as usize..end as usize];
            let Some(at) = memchr::memchr(next, bytes) else { break };
            let child = self.edge_targets[start as usize + at] as usize;
            let (off, len) = self.nodes[child].label;
            let label =
                &self.text.as_bytes()[off as usize..(off + len) as usize];
            if !path[depth..].starts_with(label) {
                break;
            }
            depth += label.len();
            node = child;
        }
        self.rules.get(best as usize)
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

/// Builds the radix tree. Labels are stored in the matcher's text.
struct Builder {
    /// Plain trie first: children by byte, and rules per node.
    children: Vec<Vec<(u8, usize)>>,
    rules: Vec<Vec<u32>>,
}

impl Builder {
    fn build(rules: Vec<Compiled>, mut text: String, named: bool) -> Matcher {
        let mut b = Builder {
            children: alloc::vec![Vec::new()],
            rules: alloc::vec![Vec::new()],
        };
        for (index, rule) in rules.iter().enumerate() {
            let off = rule.pattern.0 as usize;
            let prefix = &text.as_bytes()[off..off + rule.prefix_len as usize];
            let mut node = 0;
            for &byte in prefix {
                node = b.child(node, byte);
            }
            b.rules[node].push(index as u32);
        }
        // Compress chains of nodes that have one child and no rules.
        let mut nodes = Vec::new();
        let mut edge_bytes = Vec::new();
        let mut edge_targets = Vec::new();
        let mut node_rules = Vec::new();
        let mut label_text: Vec<u8> = Vec::new();
        b.emit(
            0,
            Vec::new(),
            &mut nodes,
            &mut edge_bytes,
            &mut edge_targets,
            &mut node_rules,
            &mut label_text,
        );
        let base = text.len() as u32;
        // Labels are ASCII: they come from normalised patterns.
        text.push_str(core::str::from_utf8(&label_text).unwrap_or_default());
        for node in &mut nodes {
            node.label.0 += base;
        }
        Matcher {
            rules: rules.into_boxed_slice(),
            nodes: nodes.into_boxed_slice(),
            edge_bytes: edge_bytes.into_boxed_slice(),
            edge_targets: edge_targets.into_boxed_slice(),
            node_rules: node_rules.into_boxed_slice(),
            text,
            named,
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

    /// Emits `node` with the given label and its subtree; returns its
    /// index. Done with an explicit stack: prefixes can be long.
    #[allow(clippy::too_many_arguments)]
    fn emit(
        &self,
        root: usize,
        root_label: Vec<u8>,
        nodes: &mut Vec<Node>,
        edge_bytes: &mut Vec<u8>,
        edge_targets: &mut Vec<u32>,
        node_rules: &mut Vec<u32>,
        labels: &mut Vec<u8>,
    ) {
        // Each entry: (trie node, its label, the index of its parent's
        // edge slot to fill, if any).
        let mut stack = alloc::vec![(root, root_label, None::<usize>)];
        while let Some((mut trie, mut label, slot)) = stack.pop() {
            while self.rules[trie].is_empty()
                && self.children[trie].len() == 1
                && slot.is_some()
            {
                let (byte, child) = self.children[trie][0];
                label.push(byte);
                trie = child;
            }
            let index = nodes.len();
            if let Some(slot) = slot {
                edge_targets[slot] = index as u32;
            }
            let label_span = (labels.len() as u32, label.len() as u32);
            labels.extend_from_slice(&label);
            let rules_start = node_rules.len() as u32;
            node_rules.extend_from_slice(&self.rules[trie]);
            let mut children = self.children[trie].clone();
            children.sort_unstable();
            let edges_start = edge_bytes.len();
            for &(byte, child) in &children {
                edge_bytes.push(byte);
                edge_targets.push(0);
                stack.push((
                    child,
                    alloc::vec![byte],
                    Some(edge_bytes.len() - 1),
                ));
            }
            nodes.push(Node {
                label: label_span,
                edges: (edges_start as u32, edge_bytes.len() as u32),
                rules: (rules_start, node_rules.len() as u32),
            });
        }
    }
}
