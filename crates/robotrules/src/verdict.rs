//! The verdict: from the rules that match a path to allowed or not, and
//! which rule decided (RFC 9309 §2.2.2). Both engines, the one-shot walk
//! of [`Robots::decide`](crate::Robots::decide) and the compiled
//! [`Matcher`](crate::Matcher), end here.

use alloc::vec::Vec;

use crate::group::Group;
use crate::matcher::{DecidingRule, Decision};
use crate::rule::Rule;

/// Returns the verdict given the rule that decided: the best match, an
/// `allow` winning a tie.
///
/// > The most specific match found MUST be used. The most specific match
/// > is the match that has the most octets. […] If an "allow" rule and a
/// > "disallow" rule are equivalent, then the "allow" rule SHOULD be used.
/// > — RFC 9309 §2.2.2
///
/// A rule of priority 0 (an empty `Disallow:`) never disallows: "no rule
/// matches" and "the empty rule matches" both allow.
#[inline]
pub(crate) fn is_allowed_by(allow: bool, priority: usize) -> bool {
    allow || priority == 0
}

/// The best allow and disallow match of one tier (specific or global), as
/// the reference keeps them: (priority, rule, through the index retry).
#[derive(Default)]
pub(crate) struct Best<'a> {
    allow: Option<(usize, Rule<'a>, bool)>,
    disallow: Option<(usize, Rule<'a>, bool)>,
}

impl<'a> Best<'a> {
    pub(crate) fn add_rules(
        &mut self,
        group: Group<'a>,
        path: &[u8],
        path_set: &mut impl FnMut() -> u128,
    ) {
        for rule in group.rules() {
            if let Some((priority, via_index)) =
                rule.priority_in(path, path_set)
            {
                let slot = if rule.allow {
                    &mut self.allow
                } else {
                    &mut self.disallow
                };
                // Strictly greater: among equals the earlier line is kept.
                if slot.is_none_or(|(p, _, _)| priority > p) {
                    *slot = Some((priority, rule, via_index));
                }
            }
        }
    }

    pub(crate) fn decision(self) -> Decision<'a> {
        // The reference's `matching_line`: the disallow only if strictly
        // better, so a tie names the allow.
        let disallow_wins = match (&self.allow, &self.disallow) {
            (Some((a, _, _)), Some((d, _, _))) => d > a,
            (None, Some(_)) => true,
            _ => false,
        };
        let winner = if disallow_wins { self.disallow } else { self.allow };
        match winner {
            Some((priority, rule, via_index)) => Decision::new(
                is_allowed_by(rule.allow, priority),
                Some(DecidingRule::new(rule.view(), priority, via_index)),
            ),
            None => Decision::new(true, None),
        }
    }
}

/// The 1996 draft's reading (see [`Semantics::FirstMatch1996`]): the first
/// rule, in file order, whose value is a prefix of the path decides; `*`
/// and `$` are plain bytes; `%xx` escapes other than `%2F` are decoded on
/// both sides before comparing; an empty value matches every path and
/// allows.
///
/// [`Semantics::FirstMatch1996`]: crate::Semantics::FirstMatch1996
pub(crate) fn first_match<'a>(
    rules: impl Iterator<Item = Rule<'a>>,
    path: &[u8],
) -> Decision<'a> {
    let path = decode_1996(path);
    let mut pattern = Vec::new();
    for rule in rules {
        pattern.clear();
        pattern.extend_from_slice(&decode_1996(rule.pattern().as_bytes()));
        if path.starts_with(&pattern) {
            let empty = pattern.is_empty();
            let decision =
                DecidingRule::new(rule.view(), rule.priority(), false);
            return Decision::new(rule.allow || empty, Some(decision));
        }
    }
    Decision::new(true, None)
}

/// Decodes `%xx` escapes other than `%2F` (either case, written `%2F`), as
/// the 1996 draft compares URLs.
pub(crate) fn decode_1996(s: &[u8]) -> Vec<u8> {
    let hex = |b: u8| (b as char).to_digit(16).map(|d| d as u8);
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        if s[i] == b'%' && i + 2 < s.len() {
            if let (Some(h), Some(l)) = (hex(s[i + 1]), hex(s[i + 2])) {
                let byte = h * 16 + l;
                // `%2F` stays encoded (it is not a path separator), in
                // one case so that `%2f` and `%2F` compare equal.
                if byte == b'/' {
                    out.extend_from_slice(b"%2F");
                } else {
                    out.push(byte);
                }
                i += 3;
                continue;
            }
        }
        out.push(s[i]);
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    macro_rules! d {
        ($in:expr, $out:expr) => {
            assert_eq!(decode_1996($in), $out.to_vec(), "{:?}", $in)
        };
    }

    #[test]
    fn decoding() {
        d!(b"/a%7Eb", b"/a~b");
        d!(b"/a%7eb", b"/a~b");
        d!(b"/a%2Fb", b"/a%2Fb");
        d!(b"/a%2fb", b"/a%2Fb");
        d!(b"/a%", b"/a%");
        d!(b"/a%4", b"/a%4");
        d!(b"/a%41", b"/aA");
        d!(b"/%zz", b"/%zz");
    }

    #[test]
    fn tie_goes_to_allow() {
        assert!(is_allowed_by(true, 5));
        assert!(!is_allowed_by(false, 5));
        assert!(is_allowed_by(false, 0));
    }
}
