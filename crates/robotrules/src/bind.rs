//! Parsing for one crawler: the file is read once, and only the rules of
//! the groups that may apply to the crawler are kept, already in the form
//! a [`Matcher`] checks them in.
//!
//! The lines, keys and group boundaries are the parser's own (the
//! `parse` module's [`Sink`]); which groups apply is decided as
//! [`Robots::select`](crate::Robots::select) decides it: every group that
//! names the crawler, or, if none does, every `*` group.

use alloc::string::String;

use crate::agent;
use crate::extension::Pacing;
use crate::matcher::{self, Entry, Matcher};
use crate::options::{MatchOptions, ParseOptions, Semantics};
use crate::parse::{self, Directive, Sink};
use crate::pattern;
use crate::robots::Robots;
use crate::staged::Staged;

/// Parses `body` into a matcher for the crawler known by `agents`.
pub(crate) fn matcher(
    body: &[u8],
    agents: &[&str],
    parse: ParseOptions,
    options: MatchOptions,
) -> Matcher {
    if options.get_semantics() == Semantics::FirstMatch1996 {
        // File order and its own decoding: the full parse.
        return Robots::parse_with(body, parse).matcher_with(agents, options);
    }
    let mut sink = ForCrawler {
        agents,
        keep_global: !options.get_ignore_global(),
        in_group: false,
        named: false,
        global: false,
        pacing: Pacing::default(),
        any_named: false,
        for_named: Kept::new(body.len()),
        for_global: Kept::new(body.len()),
        escaped: String::new(),
    };
    let (_, truncated) = parse::read(body, parse, &mut sink);
    sink.end_group();
    let mut matcher = Matcher::empty(sink.any_named);
    matcher.set_truncated(truncated);
    let kept = if sink.any_named {
        &mut sink.for_named
    } else if sink.keep_global {
        &mut sink.for_global
    } else {
        return matcher;
    };
    matcher.set_rules(kept.rules.take_vec(), kept.text.take_vec());
    matcher.set_pacing(kept.pacing);
    matcher
}

/// The rules (in a matcher's form) and pacing of the groups of one kind.
///
/// A small file's rules and patterns stay in place until the matcher
/// takes them, in one allocation each. Past that, the buffers reserve for
/// the whole body: the patterns are part of it (unless escaping grows
/// them, which is rare), and rule lines are rarely shorter than 16 bytes.
/// Past 1 MiB of body, they grow as they fill, so that a huge body with
/// few rules reserves little.
struct Kept {
    rules: Staged<Entry, 12>,
    text: Staged<u8, 256>,
    pacing: Pacing,
}

impl Kept {
    /// Drops the rules and pacing kept so far.
    fn clear(&mut self) {
        self.rules.clear();
        self.text.clear();
        self.pacing = Pacing::default();
    }

    fn new(body_len: usize) -> Kept {
        let bytes = body_len.min(1 << 20);
        Kept {
            rules: Staged::new(bytes / 16 + 1),
            text: Staged::new(bytes),
            pacing: Pacing::default(),
        }
    }
}

struct ForCrawler<'s> {
    agents: &'s [&'s str],
    /// False with [`MatchOptions::ignore_global`].
    keep_global: bool,
    /// A group has started (lines before the first are in none).
    in_group: bool,
    /// The current group names the crawler, or is a `*` group. Both are
    /// settled by the group's first rule: its user-agent lines come
    /// before.
    named: bool,
    global: bool,
    /// The current group's pacing; it goes to the groups of its kind
    /// when the group ends, since a later user-agent line of the group
    /// may still name the crawler.
    pacing: Pacing,
    /// Some group names the crawler: the `*` groups do not apply.
    any_named: bool,
    for_named: Kept,
    for_global: Kept,
    /// A scratch buffer for normalised patterns.
    escaped: String,
}

impl ForCrawler<'_> {
    /// Files the current group's pacing with the groups of its kind.
    fn end_group(&mut self) {
        let pacing = core::mem::take(&mut self.pacing);
        if self.named {
            self.for_named.pacing.or(pacing);
        } else if self.global {
            self.for_global.pacing.or(pacing);
        }
    }
}

impl<'a> Sink<'a> for ForCrawler<'_> {
    fn group(&mut self, _line: u32) {
        self.end_group();
        self.in_group = true;
        self.named = false;
        self.global = false;
    }

    #[inline(always)]
    fn line(
        &mut self,
        number: u32,
        _bits: u8,
        directive: Option<Directive<'a>>,
    ) {
        match directive {
            Some(Directive::Agent(value)) => {
                if agent::is_global(value) {
                    self.global = true;
                    return;
                }
                let token = agent::product_token(value);
                if self
                    .agents
                    .iter()
                    .any(|a| token.eq_ignore_ascii_case(a.as_bytes()))
                {
                    self.named = true;
                    if !self.any_named {
                        self.any_named = true;
                        // The `*` groups will not apply.
                        self.for_global.clear();
                    }
                }
            }
            Some(Directive::Rule { allow, value }) if self.in_group => {
                // Where the group's rules go, if anywhere.
                let kept = if self.named {
                    &mut self.for_named
                } else if self.global && self.keep_global && !self.any_named {
                    &mut self.for_global
                } else {
                    return;
                };
                // Without a `%`, `*` or byte ≥ 0x80, the value is as
                // normalised and holds no wildcard.
                let special = crate::swar::has_special(value);
                let pattern = if special && pattern::needs_escape(value) {
                    self.escaped.clear();
                    pattern::escape_into(value, &mut self.escaped);
                    self.escaped.as_bytes()
                } else {
                    value
                };
                matcher::push_parts(
                    &mut kept.rules,
                    &mut kept.text,
                    allow,
                    pattern,
                    value,
                    number,
                    special,
                );
            }
            Some(Directive::Other { key, value, .. }) if self.in_group => {
                self.pacing.take(key, value);
            }
            _ => {}
        }
    }
}
