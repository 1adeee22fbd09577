//! The one shape in which every result names a rule.

use robotrules::{DecidingRule, Rule, RuleKind};

/// A rule as results report it: where it is, what it says, and the
/// priority it matched with.
///
/// This is the shape of the deciding rule everywhere: in an
/// [`Explanation`](crate::Explanation), in each of its matches, and in the
/// JSON output of tools built on this crate. With the `serde` feature it
/// serializes as
///
/// ```json
/// {"line": 3, "kind": "allow", "pattern": "/ü", "normalized": "/%C3%BC",
///  "priority": 7, "index_retry": false}
/// ```
///
/// # Example
///
/// ```
/// use robotrules::{Robots, RuleKind};
/// use robotrules_analysis::RuleRef;
///
/// let robots = Robots::parse(b"user-agent: *\ndisallow: /\nallow: /d/index.html\n");
/// let decision = robots.decide(&["FooBot"], "/d/");
/// let rule = RuleRef::from(decision.rule().ok_or("no rule")?);
/// assert_eq!((rule.line, rule.kind), (3, RuleKind::Allow));
/// assert_eq!((rule.priority, rule.index_retry), (4, true));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Eq, Hash, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct RuleRef {
    /// The rule's line, from 1.
    pub line: u32,
    /// Allow or disallow (`"allow"` or `"disallow"` in JSON).
    #[cfg_attr(feature = "serde", serde(serialize_with = "kind_str"))]
    pub kind: RuleKind,
    /// The value as written in the file, invalid UTF-8 replaced.
    pub pattern: String,
    /// The normalised pattern that paths are matched against
    /// ([`robotrules::escape_pattern`]).
    pub normalized: String,
    /// The priority it matched with: the pattern's length in bytes or,
    /// through the index.html retry, the directory's length plus one
    /// (RFC 9309 §2.2.2: the most specific match wins).
    pub priority: usize,
    /// True if and only if it matched through the reference's index.html
    /// retry: `Allow: /d/index.html` also allows exactly `/d/`.
    pub index_retry: bool,
}

impl RuleRef {
    /// The reference to `rule` matching with `priority`: an index.html
    /// retry if `priority` is not the pattern's own.
    pub fn with_priority(rule: &Rule<'_>, priority: usize) -> RuleRef {
        RuleRef {
            line: rule.line(),
            kind: rule.kind(),
            pattern: String::from_utf8_lossy(rule.as_written()).into_owned(),
            normalized: rule.pattern().to_string(),
            priority,
            index_retry: priority != rule.priority(),
        }
    }
}

impl From<DecidingRule<'_>> for RuleRef {
    fn from(rule: DecidingRule<'_>) -> RuleRef {
        RuleRef {
            line: rule.line(),
            kind: rule.kind(),
            pattern: String::from_utf8_lossy(rule.as_written()).into_owned(),
            normalized: rule.pattern().to_string(),
            priority: rule.priority(),
            index_retry: rule.is_index_retry(),
        }
    }
}

impl From<&DecidingRule<'_>> for RuleRef {
    fn from(rule: &DecidingRule<'_>) -> RuleRef {
        RuleRef::from(*rule)
    }
}

#[cfg(feature = "serde")]
pub(crate) fn kind_str<S: serde::Serializer>(
    kind: &RuleKind,
    s: S,
) -> Result<S::Ok, S::Error> {
    s.serialize_str(kind.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;
    use robotrules::Robots;

    macro_rules! deciding {
        ($body:expr, $url:expr, $line:expr, $prio:expr, $retry:expr) => {{
            let robots = Robots::parse($body);
            let d = robots.decide(&["a"], $url);
            let r = RuleRef::from(d.rule().unwrap());
            assert_eq!(
                (r.line, r.priority, r.index_retry),
                ($line, $prio, $retry)
            );
        }};
    }

    #[test]
    fn from_decisions() {
        deciding!(b"user-agent: a\ndisallow: /x\n", "/x", 2, 2, false);
        deciding!(b"user-agent: a\nallow: /d/index.htm\n", "/d/", 2, 4, true);
        deciding!(b"user-agent: a\ndisallow:\n", "/", 2, 0, false);
    }

    #[test]
    fn lossy_pattern() {
        let robots = Robots::parse(b"user-agent: a\ndisallow: /\xff\n");
        let rule = robots.groups().next().unwrap().rules().next().unwrap();
        let r = RuleRef::with_priority(&rule, rule.priority());
        assert_eq!(r.pattern, "/\u{fffd}");
        assert_eq!(r.normalized, "/%FF");
        assert!(!r.index_retry);
    }
}
